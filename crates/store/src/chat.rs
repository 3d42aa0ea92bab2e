//! Table chat, kept for moderation: every line delivered (its table, room,
//! author and text), and the reports people file against a line, which admins
//! list and resolve. Lines older than the operator's retention are pruned,
//! except those an open report still names. The store knows nothing of rooms
//! beyond their names, nor of who may read them.

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

/// A report of a line, with the line it names and who filed it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct ChatReportRow {
    pub id: i64,
    pub line_id: i64,
    #[sqlx(rename = "table_id")]
    pub table: String,
    pub room: String,
    /// The line's author.
    pub username: String,
    pub text: String,
    /// When the line was written.
    pub line_at: i64,
    /// Who reported it, by name.
    pub reporter: String,
    pub reason: String,
    /// When it was reported.
    pub at: i64,
    pub resolved_at: Option<i64>,
    /// The admin who resolved it, by name.
    pub resolved_by: Option<String>,
}

/// Chat lines and their reports.
#[async_trait]
pub trait ChatStore: Send + Sync {
    /// Keeps a line; its id (increasing).
    async fn add_chat_line(&self, line: &NewChatLine) -> Result<i64>;
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
    /// Reports, oldest first: the open ones only, or all; at most `limit`.
    async fn chat_reports(&self, open_only: bool, limit: i64) -> Result<Vec<ChatReportRow>>;
    /// Marks a report resolved by `by`; false if there is no such open report.
    async fn resolve_chat_report(&self, id: i64, by: UserId, at: i64) -> Result<bool>;
    /// Forgets the lines written before `before` that no open report names
    /// (their resolved reports go with them); how many lines.
    async fn prune_chat(&self, before: i64) -> Result<u64>;
}

const REPORT_COLUMNS: &str = "r.id, r.line_id, l.table_id, l.room, l.username, l.text, \
     l.at AS line_at, u.username AS reporter, r.reason, r.at, r.resolved_at, \
     a.username AS resolved_by";

macro_rules! impl_chat {
    ($store:ty) => {
        #[async_trait]
        impl ChatStore for $store {
            async fn add_chat_line(&self, line: &NewChatLine) -> Result<i64> {
                let line = line.clone();
                self.write(move |c| {
                    Box::pin(async move {
                        let id: i64 = sqlx::query_scalar(
                            "INSERT INTO chat_lines (table_id, room, user_id, username, text, at) \
                             VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
                        )
                        .bind(&line.table)
                        .bind(&line.room)
                        .bind(line.user)
                        .bind(&line.username)
                        .bind(&line.text)
                        .bind(line.at)
                        .fetch_one(&mut *c)
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
                let reason = reason.to_owned();
                self.write(move |c| {
                    Box::pin(async move {
                        let id: i64 = sqlx::query_scalar(
                            "INSERT INTO chat_reports (line_id, reporter, reason, at) \
                             VALUES ($1, $2, $3, $4) RETURNING id",
                        )
                        .bind(line)
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
                         JOIN chat_lines l ON l.id = r.line_id \
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
                             (SELECT line_id FROM chat_reports)",
                        )
                        .bind(before)
                        .execute(&mut *c)
                        .await?;
                        Ok(done.rows_affected())
                    })
                })
                .await
            }
        }
    };
}

impl_chat!(SqliteStore);
impl_chat!(PostgresStore);
