//! Chat, kept for moderation: every line delivered (its place — a table, or
//! the key the server gives a game's room, an event's or a conversation —,
//! room, author and text), the reports people file against a line or a person,
//! which admins list and resolve, and timed mutes. Lines older than the
//! operator's retention are pruned, except those an open report still names.
//! The store knows nothing of rooms beyond their names, nor of who may read
//! them.

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use crate::backend::conflict;
use crate::{PostgresStore, Result, SqliteStore, UserId};

/// A chat line to keep.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewChatLine {
    pub table: String,
    /// The room's name (`players`, `spectators`).
    pub room: String,
    pub user: UserId,
    pub username: String,
    /// The text as delivered (after the word filter).
    pub text: String,
    pub at: i64,
}

/// A kept chat line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct ChatLineRow {
    pub id: i64,
    #[sqlx(rename = "table_id")]
    pub table: String,
    pub room: String,
    pub user_id: UserId,
    pub username: String,
    pub text: String,
    pub at: i64,
}

/// A report of a line, with the line it names, or of a person (from their
/// profile: no line), and who filed it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct ChatReportRow {
    pub id: i64,
    /// The line reported; `None`: a person was.
    pub line_id: Option<i64>,
    /// The line's place (a table's id, or the server's key of a room).
    #[sqlx(rename = "table_id")]
    pub table: Option<String>,
    pub room: Option<String>,
    /// The person reported: the line's author, or the profile's owner.
    pub username: String,
    pub text: Option<String>,
    /// When the line was written.
    pub line_at: Option<i64>,
    /// Who reported it, by name.
    pub reporter: String,
    pub reason: String,
    /// When it was reported.
    pub at: i64,
    pub resolved_at: Option<i64>,
    /// The admin who resolved it, by name.
    pub resolved_by: Option<String>,
}

/// A timed mute to keep: `user` writes no chat line until `until`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewMute {
    pub user: UserId,
    pub until: i64,
    pub by: UserId,
    /// Given by an arbiter of this event.
    pub event: Option<String>,
    pub reason: String,
    pub at: i64,
}

/// Chat lines, their reports, and mutes.
#[async_trait]
pub trait ChatStore: Send + Sync {
    /// Keeps a line unless its writer is muted at `line.at` (the `muted`
    /// role, or a timed mute running then: the [`ChatStore::muted_until`]
    /// rule, read in the insert's own statement); its id (increasing), or
    /// `None` when muted and nothing was kept. One write and no read: every
    /// chat line makes it.
    async fn add_chat_line(&self, line: &NewChatLine) -> Result<Option<i64>>;
    async fn chat_line(&self, id: i64) -> Result<Option<ChatLineRow>>;
    /// A table's latest `limit` lines, oldest first.
    async fn recent_chat_lines(&self, table: &str, limit: i64) -> Result<Vec<ChatLineRow>>;
    /// Files `reporter`'s report of line `line`; its id. The same person
    /// reporting the same line twice is a [`crate::StoreError::Conflict`].
    async fn report_chat_line(
        &self,
        line: i64,
        reporter: UserId,
        reason: &str,
        at: i64,
    ) -> Result<i64>;
    /// Files `reporter`'s report of the person `person` (from their profile);
    /// its id. A second open report of the same person by the same reporter is
    /// a [`crate::StoreError::Conflict`].
    async fn report_person(
        &self,
        person: UserId,
        reporter: UserId,
        reason: &str,
        at: i64,
    ) -> Result<i64>;
    /// Reports of lines and of people, oldest first: the open ones only, or
    /// all; at most `limit`.
    async fn chat_reports(&self, open_only: bool, limit: i64) -> Result<Vec<ChatReportRow>>;
    /// Marks a report resolved by `by`; false if there is no such open report.
    async fn resolve_chat_report(&self, id: i64, by: UserId, at: i64) -> Result<bool>;
    /// Forgets the lines written before `before` that no open report names
    /// (their resolved reports go with them); how many lines.
    async fn prune_chat(&self, before: i64) -> Result<u64>;
    /// Keeps a timed mute; its id.
    async fn add_mute(&self, mute: &NewMute) -> Result<i64>;
    /// When `user`'s latest mute running at `now` ends (`None`: not muted);
    /// `i64::MAX` under the `muted` role, until it is taken away. One read:
    /// every chat line asks it.
    async fn muted_until(&self, user: UserId, now: i64) -> Result<Option<i64>>;
    /// Ends `user`'s mutes running at `now` (those of event `event` only, if
    /// given); how many.
    async fn lift_mutes(&self, user: UserId, event: Option<&str>, now: i64) -> Result<u64>;
    /// The event whose game table `table` plays, if any.
    async fn event_of_table(&self, table: &str) -> Result<Option<String>>;
    /// `user` asks the players' room of `table` closed (`off`), or no more;
    /// whether that changed anything.
    async fn set_table_chat_off(
        &self,
        table: &str,
        user: UserId,
        off: bool,
        at: i64,
    ) -> Result<bool>;
    /// The people who ask the players' room of `table` closed, in the order
    /// they asked: their ids and names.
    async fn table_chat_off(&self, table: &str) -> Result<Vec<(UserId, String)>>;
}

const REPORT_COLUMNS: &str = "r.id, r.line_id, l.table_id, l.room, \
     COALESCE(l.username, p.username) AS username, l.text, \
     l.at AS line_at, u.username AS reporter, r.reason, r.at, r.resolved_at, \
     a.username AS resolved_by";

/// A line kept unless its writer is muted at its time (then no row, and no
/// id returned): the mute's read folded into the insert.
const ADD_LINE: &str = "INSERT INTO chat_lines (table_id, room, user_id, username, text, at) \
     SELECT $1, $2, $3, $4, $5, $6 \
     WHERE NOT EXISTS (SELECT 1 FROM user_roles WHERE user_id = $3 AND role = 'muted') \
     AND NOT EXISTS (SELECT 1 FROM mutes WHERE user_id = $3 AND until > $6) \
     RETURNING id";

/// A report of a line (its id).
const REPORT_LINE: &str =
    "INSERT INTO chat_reports (line_id, reporter, reason, at) VALUES ($1, $2, $3, $4) RETURNING id";
/// A report of a person (their id).
const REPORT_PERSON: &str =
    "INSERT INTO chat_reports (person, reporter, reason, at) VALUES ($1, $2, $3, $4) RETURNING id";

macro_rules! impl_chat {
    ($store:ty) => {
        impl $store {
            /// A report into the admins' queue by `sql` ([`REPORT_LINE`] or
            /// [`REPORT_PERSON`]), naming `what` (a line or a person).
            async fn insert_report(
                &self,
                sql: &'static str,
                what: i64,
                reporter: UserId,
                reason: &str,
                at: i64,
            ) -> Result<i64> {
                let reason = reason.to_owned();
                self.write(move |c| {
                    Box::pin(async move {
                        let id: i64 = sqlx::query_scalar(sql)
                            .bind(what)
                            .bind(reporter)
                            .bind(&reason)
                            .bind(at)
                            .fetch_one(&mut *c)
                            .await
                            .map_err(conflict("report"))?;
                        Ok(id)
                    })
                })
                .await
            }
        }

        #[async_trait]
        impl ChatStore for $store {
            async fn add_chat_line(&self, line: &NewChatLine) -> Result<Option<i64>> {
                let line = line.clone();
                // One statement (the mute read inside it): in a batch of such
                // writes only, no transaction of its own around it.
                self.write_alone(move |c| {
                    Box::pin(async move {
                        let id: Option<i64> = sqlx::query_scalar(ADD_LINE)
                        .bind(&line.table)
                        .bind(&line.room)
                        .bind(line.user)
                        .bind(&line.username)
                        .bind(&line.text)
                        .bind(line.at)
                        .fetch_optional(&mut *c)
                        .await?;
                        Ok(id)
                    })
                })
                .await
            }

            async fn chat_line(&self, id: i64) -> Result<Option<ChatLineRow>> {
                self.read_on(move |read| async move {
                    Ok(sqlx::query_as(
                        "SELECT id, table_id, room, user_id, username, text, at \
                         FROM chat_lines WHERE id = $1",
                    )
                    .bind(id)
                    .fetch_optional(&read)
                    .await?)
                })
                .await
            }

            async fn recent_chat_lines(&self, table: &str, limit: i64) -> Result<Vec<ChatLineRow>> {
                let table = table.to_owned();
                self.read_on(move |read| async move {
                    let mut lines: Vec<ChatLineRow> = sqlx::query_as(
                        "SELECT id, table_id, room, user_id, username, text, at \
                         FROM chat_lines WHERE table_id = $1 ORDER BY id DESC LIMIT $2",
                    )
                    .bind(table)
                    .bind(limit)
                    .fetch_all(&read)
                    .await?;
                    lines.reverse();
                    Ok(lines)
                })
                .await
            }

            async fn report_chat_line(
                &self,
                line: i64,
                reporter: UserId,
                reason: &str,
                at: i64,
            ) -> Result<i64> {
                self.insert_report(REPORT_LINE, line, reporter, reason, at)
                    .await
            }

            async fn chat_reports(
                &self,
                open_only: bool,
                limit: i64,
            ) -> Result<Vec<ChatReportRow>> {
                self.read_on(move |read| async move {
                    let open = if open_only {
                        "WHERE r.resolved_at IS NULL"
                    } else {
                        ""
                    };
                    let sql = format!(
                        "SELECT {REPORT_COLUMNS} FROM chat_reports r \
                         LEFT JOIN chat_lines l ON l.id = r.line_id \
                         LEFT JOIN users p ON p.id = r.person \
                         JOIN users u ON u.id = r.reporter \
                         LEFT JOIN users a ON a.id = r.resolved_by \
                         {open} ORDER BY r.id LIMIT $1"
                    );
                    Ok(sqlx::query_as(&sql).bind(limit).fetch_all(&read).await?)
                })
                .await
            }

            async fn resolve_chat_report(&self, id: i64, by: UserId, at: i64) -> Result<bool> {
                self.write(move |c| {
                    Box::pin(async move {
                        let done = sqlx::query(
                            "UPDATE chat_reports SET resolved_at = $1, resolved_by = $2 \
                             WHERE id = $3 AND resolved_at IS NULL",
                        )
                        .bind(at)
                        .bind(by)
                        .bind(id)
                        .execute(&mut *c)
                        .await?;
                        Ok(done.rows_affected() > 0)
                    })
                })
                .await
            }

            async fn prune_chat(&self, before: i64) -> Result<u64> {
                self.write(move |c| {
                    Box::pin(async move {
                        sqlx::query(
                            "DELETE FROM chat_reports WHERE resolved_at IS NOT NULL AND line_id IN \
                             (SELECT id FROM chat_lines WHERE at < $1)",
                        )
                        .bind(before)
                        .execute(&mut *c)
                        .await?;
                        let done = sqlx::query(
                            "DELETE FROM chat_lines WHERE at < $1 AND id NOT IN \
                             (SELECT line_id FROM chat_reports WHERE line_id IS NOT NULL)",
                        )
                        .bind(before)
                        .execute(&mut *c)
                        .await?;
                        Ok(done.rows_affected())
                    })
                })
                .await
            }

            async fn report_person(
                &self,
                person: UserId,
                reporter: UserId,
                reason: &str,
                at: i64,
            ) -> Result<i64> {
                self.insert_report(REPORT_PERSON, person, reporter, reason, at)
                    .await
            }

            async fn add_mute(&self, mute: &NewMute) -> Result<i64> {
                let mute = mute.clone();
                self.write(move |c| {
                    Box::pin(async move {
                        let id: i64 = sqlx::query_scalar(
                            "INSERT INTO mutes (user_id, until, by_user, event_id, reason, at) \
                             VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
                        )
                        .bind(mute.user)
                        .bind(mute.until)
                        .bind(mute.by)
                        .bind(&mute.event)
                        .bind(&mute.reason)
                        .bind(mute.at)
                        .fetch_one(&mut *c)
                        .await?;
                        Ok(id)
                    })
                })
                .await
            }

            async fn muted_until(&self, user: UserId, now: i64) -> Result<Option<i64>> {
                self.read_on(move |read| async move {
                    Ok(sqlx::query_scalar(
                        "SELECT CASE WHEN EXISTS (SELECT 1 FROM user_roles \
                         WHERE user_id = $1 AND role = 'muted') THEN 9223372036854775807 \
                         ELSE (SELECT MAX(until) FROM mutes WHERE user_id = $1 AND until > $2) END",
                    )
                    .bind(user)
                    .bind(now)
                    .fetch_one(&read)
                    .await?)
                })
                .await
            }

            async fn lift_mutes(&self, user: UserId, event: Option<&str>, now: i64) -> Result<u64> {
                let event = event.map(str::to_owned);
                self.write(move |c| {
                    Box::pin(async move {
                        let done = sqlx::query(
                            "UPDATE mutes SET until = $2 WHERE user_id = $1 AND until > $2 \
                             AND ($3 IS NULL OR event_id = $3)",
                        )
                        .bind(user)
                        .bind(now)
                        .bind(&event)
                        .execute(&mut *c)
                        .await?;
                        Ok(done.rows_affected())
                    })
                })
                .await
            }

            async fn set_table_chat_off(
                &self,
                table: &str,
                user: UserId,
                off: bool,
                at: i64,
            ) -> Result<bool> {
                let table = table.to_owned();
                self.write(move |c| {
                    Box::pin(async move {
                        let done = if off {
                            sqlx::query(
                                "INSERT INTO table_chat_off (table_id, user_id, at) \
                                 VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                            )
                            .bind(&table)
                            .bind(user)
                            .bind(at)
                            .execute(&mut *c)
                            .await?
                        } else {
                            sqlx::query(
                                "DELETE FROM table_chat_off WHERE table_id = $1 AND user_id = $2",
                            )
                            .bind(&table)
                            .bind(user)
                            .execute(&mut *c)
                            .await?
                        };
                        Ok(done.rows_affected() > 0)
                    })
                })
                .await
            }

            async fn table_chat_off(&self, table: &str) -> Result<Vec<(UserId, String)>> {
                let table = table.to_owned();
                self.read_on(move |read| async move {
                    Ok(sqlx::query_as(
                        "SELECT o.user_id, u.username FROM table_chat_off o \
                         JOIN users u ON u.id = o.user_id \
                         WHERE o.table_id = $1 ORDER BY o.at, o.user_id",
                    )
                    .bind(table)
                    .fetch_all(&read)
                    .await?)
                })
                .await
            }

            async fn event_of_table(&self, table: &str) -> Result<Option<String>> {
                let table = table.to_owned();
                self.read_on(move |read| async move {
                    Ok(sqlx::query_scalar(
                        "SELECT event_id FROM event_games WHERE table_id = $1 LIMIT 1",
                    )
                    .bind(table)
                    .fetch_optional(&read)
                    .await?)
                })
                .await
            }
        }
    };
}

impl_chat!(SqliteStore);
impl_chat!(PostgresStore);
