//! Roles and Swiss events: what an operator grants, and everything an event is
//! made of (its settings as opaque JSON, players, requested byes, rounds, games
//! and arbiters' actions). The store knows nothing of pairing or tiebreaks: a
//! round's pairs come in as rows, written in one transaction under the round's
//! primary key, so that a round is paired exactly once whatever restarts happen.

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use sqlx::Connection as _;

use crate::backend::conflict;
use crate::{PostgresStore, Result, SqliteStore, StoreError, UserId};

/// An event as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct EventRow {
    pub id: String,
    pub organiser: UserId,
    /// The game's name.
    pub game: String,
    /// The event's settings as JSON; opaque here.
    pub config: String,
    /// `registering`, `running`, `finished`.
    pub status: String,
    pub created_at: i64,
    pub updated_at: i64,
    /// Why the event ended, once it has (JSON, the server's; opaque here).
    pub end_reason: Option<String>,
}

/// A registered player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct EventPlayerRow {
    pub user_id: UserId,
    pub username: String,
    /// The pairing number, from 1, in order of registration.
    pub start_rank: i64,
    pub rating: Option<i64>,
    /// The first round the player could be paired in (1, or later for a late entry).
    pub joined_round: i64,
    pub withdrawn: bool,
    pub disqualified: bool,
    pub joined_at: i64,
}

/// A requested bye: `H` (half point) or `Z` (zero point) for a round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct EventByeRow {
    pub user_id: UserId,
    pub round: i64,
    pub kind: String,
}

/// A paired round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct EventRoundRow {
    pub round: i64,
    /// When the round's games started (the late-arrival time counts from here).
    pub starts_at: i64,
    /// When absent players were forfeited (the check is made once).
    pub checked_at: Option<i64>,
    /// When the round's last result came in.
    pub finished_at: Option<i64>,
}

/// One board of a round: `black` is `None` for the pairing-allocated bye.
/// Results are TRF result characters (`1`, `=`, `0`, `+`, `-`, `U`), `None`
/// while the game is being played.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct EventGameRow {
    pub round: i64,
    pub board: i64,
    pub white: UserId,
    pub black: Option<UserId>,
    pub table_id: Option<String>,
    pub white_result: Option<String>,
    pub black_result: Option<String>,
}

/// A table of a three-seat game's round (points, duplicate): its players by
/// user id, in seat order, as JSON (`[3, 7, 12]`; opaque here).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct EventTableRow {
    pub round: i64,
    pub board: i64,
    pub seats: String,
}

/// One hand (one game) played at a table of a round: who sat where (user ids
/// in seat order, JSON), the deal its creator gave (`None`: the table deals
/// from a fresh secret), its game's table once created, and each seat's score
/// (JSON, by seat) once it ended. Dealt once: the hand's primary key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct EventHandRow {
    pub round: i64,
    pub board: i64,
    pub hand: i64,
    pub seats: String,
    pub deal: Option<String>,
    pub table_id: Option<String>,
    pub scores: Option<String>,
    pub started_at: i64,
    /// Which deal of the hand was played, written with its scores: 0, or the
    /// redeal's number when everyone passed (a duplicate event compares only
    /// the results of the same deal).
    pub played_deal: i64,
}

/// An arbiter's action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct EventActionRow {
    pub id: i64,
    pub round: Option<i64>,
    pub board: Option<i64>,
    /// The player it concerns.
    pub user_id: UserId,
    pub arbiter: UserId,
    /// `warning`, `foul`, `violation`, `adjudicate`, `forfeit`, `disqualify`, ...
    pub kind: String,
    pub reason: String,
    pub at: i64,
    /// What the reason does not say, as JSON (the server's; opaque here): a
    /// correction's result before and after, an action of the server's own.
    pub detail: Option<String>,
}

/// Roles and events. Both backends implement it with the same SQL.
#[async_trait]
pub trait EventStore: Send + Sync {
    // ---- roles ----

    /// Grants `role`; granting it again changes nothing.
    async fn grant_role(&self, user: UserId, role: &str, at: i64) -> Result<()>;
    /// Takes `role` away; whether the user had it.
    async fn revoke_role(&self, user: UserId, role: &str) -> Result<bool>;
    /// A user's roles, sorted.
    async fn roles(&self, user: UserId) -> Result<Vec<String>>;
    /// The users holding `role`, by id (read from the readers, not the
    /// writer: the server looks at the bans this way every second).
    async fn users_with_role(&self, role: &str) -> Result<Vec<UserId>>;

    // ---- events ----

    /// Creates an event; an id that exists is a [`StoreError::Conflict`].
    async fn create_event(&self, event: &EventRow) -> Result<()>;
    async fn event(&self, id: &str) -> Result<Option<EventRow>>;
    /// Events, newest first; with `status`, only those.
    async fn events_list(&self, status: Option<&str>, limit: i64) -> Result<Vec<EventRow>>;
    /// Replaces an event's settings and status.
    async fn update_event(&self, id: &str, config: &str, status: &str, at: i64) -> Result<()>;
    /// Ends an event (status `finished`) with the reason why; whether it was
    /// not finished before (so that one end is told once).
    async fn end_event(&self, id: &str, reason: &str, at: i64) -> Result<bool>;
    /// Names an arbiter of the event with a role (`table`, `chief`); naming
    /// one again sets the role.
    async fn add_arbiter(&self, event: &str, user: UserId, role: &str) -> Result<()>;
    async fn arbiters(&self, event: &str) -> Result<Vec<UserId>>;
    /// The event's arbiters with their roles, by user id.
    async fn arbiter_roles(&self, event: &str) -> Result<Vec<(UserId, String)>>;

    // ---- players ----

    /// Registers a player with the next starting rank (returned). Registering
    /// twice is a [`StoreError::Conflict`].
    async fn add_event_player(
        &self,
        event: &str,
        user: UserId,
        rating: Option<i64>,
        joined_round: i64,
        at: i64,
    ) -> Result<i64>;
    async fn event_players(&self, event: &str) -> Result<Vec<EventPlayerRow>>;
    /// Marks a player withdrawn or disqualified (never both unset once set).
    async fn set_event_player(
        &self,
        event: &str,
        user: UserId,
        withdrawn: bool,
        disqualified: bool,
    ) -> Result<()>;
    /// Requests (or replaces) a bye for a round not yet paired.
    async fn request_bye(&self, event: &str, user: UserId, round: i64, kind: &str) -> Result<()>;
    async fn event_byes(&self, event: &str) -> Result<Vec<EventByeRow>>;

    // ---- rounds ----

    /// Writes a round and its boards in one transaction. Returns false, writing
    /// nothing, if the round was already paired.
    async fn pair_round(
        &self,
        event: &str,
        round: &EventRoundRow,
        games: &[EventGameRow],
    ) -> Result<bool>;
    async fn event_rounds(&self, event: &str) -> Result<Vec<EventRoundRow>>;
    /// Every board of every round, by round then board.
    async fn event_games(&self, event: &str) -> Result<Vec<EventGameRow>>;
    /// Sets the table of a board that has none; whether it did.
    async fn set_event_table(
        &self,
        event: &str,
        round: i64,
        board: i64,
        table: &str,
    ) -> Result<bool>;
    /// Sets (or corrects) a board's result.
    async fn set_event_result(
        &self,
        event: &str,
        round: i64,
        board: i64,
        white: Option<&str>,
        black: Option<&str>,
    ) -> Result<()>;
    /// Records that a round's absent players were dealt with.
    async fn round_checked(&self, event: &str, round: i64, at: i64) -> Result<()>;
    /// Records that a round is over.
    async fn round_finished(&self, event: &str, round: i64, at: i64) -> Result<()>;

    // ---- tables of three (card events) ----

    /// Writes a round and its tables in one transaction. Returns false,
    /// writing nothing, if the round was already written.
    async fn group_round(
        &self,
        event: &str,
        round: &EventRoundRow,
        tables: &[EventTableRow],
    ) -> Result<bool>;
    /// Every table of every round, by round then board.
    async fn event_tables(&self, event: &str) -> Result<Vec<EventTableRow>>;
    /// Every hand, by round, board, hand.
    async fn event_hands(&self, event: &str) -> Result<Vec<EventHandRow>>;
    /// Writes a hand about to be dealt (table and scores unset); false,
    /// writing nothing, if it was written before.
    async fn add_hand(&self, event: &str, hand: &EventHandRow) -> Result<bool>;
    /// Sets the table of a hand that has none; whether it did.
    async fn set_hand_table(
        &self,
        event: &str,
        round: i64,
        board: i64,
        hand: i64,
        table: &str,
    ) -> Result<bool>;
    /// Sets the scores of a hand that has none; whether it did.
    async fn set_hand_scores(
        &self,
        event: &str,
        round: i64,
        board: i64,
        hand: i64,
        scores: &str,
        played_deal: i64,
    ) -> Result<bool>;

    // ---- arbiters ----

    async fn add_event_action(&self, event: &str, action: &EventActionRow) -> Result<i64>;
    async fn event_actions(&self, event: &str) -> Result<Vec<EventActionRow>>;
}

const EVENT_COLUMNS: &str =
    "id, organiser, game, config, status, created_at, updated_at, end_reason";

/// Inserts an event's round in the transaction `$tx` unless it is there
/// (the round's primary key: a round is paired or grouped once); whether it
/// did. For `pair_round` and `group_round` on both backends.
macro_rules! insert_round {
    ($tx:expr, $event:expr, $round:expr) => {
        sqlx::query(
            "INSERT INTO event_rounds (event_id, round, starts_at, checked_at, finished_at) \
             VALUES ($1, $2, $3, NULL, NULL) ON CONFLICT (event_id, round) DO NOTHING",
        )
        .bind($event)
        .bind($round.round)
        .bind($round.starts_at)
        .execute(&mut *$tx)
        .await?
        .rows_affected()
            > 0
    };
}

macro_rules! impl_events {
    ($store:ty) => {
        #[async_trait]
        impl EventStore for $store {
            async fn grant_role(&self, user: UserId, role: &str, at: i64) -> Result<()> {
                let role = role.to_owned();
                self.write(move |c| Box::pin(async move {
                    let role: &str = &role;
                    sqlx::query(
                        "INSERT INTO user_roles (user_id, role, granted_at) VALUES ($1, $2, $3) \
                         ON CONFLICT (user_id, role) DO NOTHING",
                    )
                    .bind(user)
                    .bind(role)
                    .bind(at)
                    .execute(&mut *c)
                    .await?;
                    Ok(())
                }))
                .await
            }

            async fn revoke_role(&self, user: UserId, role: &str) -> Result<bool> {
                let role = role.to_owned();
                self.write(move |c| Box::pin(async move {
                    let role: &str = &role;
                    let done = sqlx::query("DELETE FROM user_roles WHERE user_id = $1 AND role = $2")
                        .bind(user)
                        .bind(role)
                        .execute(&mut *c)
                        .await?;
                    Ok(done.rows_affected() > 0)
                }))
                .await
            }

            async fn roles(&self, user: UserId) -> Result<Vec<String>> {
                self.write(move |c| Box::pin(async move {
                    Ok(
                        sqlx::query_scalar("SELECT role FROM user_roles WHERE user_id = $1 ORDER BY role")
                            .bind(user)
                            .fetch_all(&mut *c)
                            .await?,
                    )
                }))
                .await
            }

            async fn users_with_role(&self, role: &str) -> Result<Vec<UserId>> {
                let role = role.to_owned();
                self.read_on(move |read| async move {
                    Ok(sqlx::query_scalar(
                        "SELECT user_id FROM user_roles WHERE role = $1 ORDER BY user_id",
                    )
                    .bind(role)
                    .fetch_all(&read)
                    .await?)
                })
                .await
            }

            async fn create_event(&self, e: &EventRow) -> Result<()> {
                let e = e.clone();
                self.write(move |c| Box::pin(async move {
                    let e = &e;
                    sqlx::query(&format!(
                        "INSERT INTO events ({EVENT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
                    ))
                    .bind(&e.id)
                    .bind(e.organiser)
                    .bind(&e.game)
                    .bind(&e.config)
                    .bind(&e.status)
                    .bind(e.created_at)
                    .bind(e.updated_at)
                    .bind(&e.end_reason)
                    .execute(&mut *c)
                    .await
                    .map_err(conflict("event id"))?;
                    Ok(())
                }))
                .await
            }

            async fn event(&self, id: &str) -> Result<Option<EventRow>> {
                let id = id.to_owned();
                self.write(move |c| Box::pin(async move {
                    let id: &str = &id;
                    Ok(sqlx::query_as(&format!("SELECT {EVENT_COLUMNS} FROM events WHERE id = $1"))
                        .bind(id)
                        .fetch_optional(&mut *c)
                        .await?)
                }))
                .await
            }

            async fn events_list(&self, status: Option<&str>, limit: i64) -> Result<Vec<EventRow>> {
                let status = status.map(str::to_owned);
                self.write(move |c| Box::pin(async move {
                    let status = status.as_deref();
                    let rows = match status {
                        Some(s) => {
                            sqlx::query_as(&format!(
                                "SELECT {EVENT_COLUMNS} FROM events WHERE status = $1 \
                                 ORDER BY created_at DESC, id LIMIT $2"
                            ))
                            .bind(s)
                            .bind(limit)
                            .fetch_all(&mut *c)
                            .await?
                        }
                        None => {
                            sqlx::query_as(&format!(
                                "SELECT {EVENT_COLUMNS} FROM events ORDER BY created_at DESC, id LIMIT $1"
                            ))
                            .bind(limit)
                            .fetch_all(&mut *c)
                            .await?
                        }
                    };
                    Ok(rows)
                }))
                .await
            }

            async fn end_event(&self, id: &str, reason: &str, at: i64) -> Result<bool> {
                let id = id.to_owned();
                let reason = reason.to_owned();
                self.write(move |c| Box::pin(async move {
                    let done = sqlx::query(
                        "UPDATE events SET status = 'finished', end_reason = $2, updated_at = $3 \
                         WHERE id = $1 AND status <> 'finished'",
                    )
                    .bind(&id)
                    .bind(&reason)
                    .bind(at)
                    .execute(&mut *c)
                    .await?;
                    Ok(done.rows_affected() > 0)
                }))
                .await
            }

            async fn update_event(&self, id: &str, config: &str, status: &str, at: i64) -> Result<()> {
                let id = id.to_owned();
                let config = config.to_owned();
                let status = status.to_owned();
                self.write(move |c| Box::pin(async move {
                    let id: &str = &id;
                    let config: &str = &config;
                    let status: &str = &status;
                    let done = sqlx::query(
                        "UPDATE events SET config = $2, status = $3, updated_at = $4 WHERE id = $1",
                    )
                    .bind(id)
                    .bind(config)
                    .bind(status)
                    .bind(at)
                    .execute(&mut *c)
                    .await?;
                    if done.rows_affected() == 0 {
                        return Err(StoreError::NotFound(format!("event {id}")));
                    }
                    Ok(())
                }))
                .await
            }

            async fn add_arbiter(&self, event: &str, user: UserId, role: &str) -> Result<()> {
                let event = event.to_owned();
                let role = role.to_owned();
                self.write(move |c| Box::pin(async move {
                    let event: &str = &event;
                    sqlx::query(
                        "INSERT INTO event_arbiters (event_id, user_id, role) VALUES ($1, $2, $3) \
                         ON CONFLICT (event_id, user_id) DO UPDATE SET role = excluded.role",
                    )
                    .bind(event)
                    .bind(user)
                    .bind(&role)
                    .execute(&mut *c)
                    .await?;
                    Ok(())
                }))
                .await
            }

            async fn arbiters(&self, event: &str) -> Result<Vec<UserId>> {
                let event = event.to_owned();
                self.write(move |c| Box::pin(async move {
                    let event: &str = &event;
                    Ok(sqlx::query_scalar(
                        "SELECT user_id FROM event_arbiters WHERE event_id = $1 ORDER BY user_id",
                    )
                    .bind(event)
                    .fetch_all(&mut *c)
                    .await?)
                }))
                .await
            }

            async fn arbiter_roles(&self, event: &str) -> Result<Vec<(UserId, String)>> {
                let event = event.to_owned();
                self.write(move |c| Box::pin(async move {
                    let event: &str = &event;
                    Ok(sqlx::query_as::<_, (UserId, String)>(
                        "SELECT user_id, role FROM event_arbiters WHERE event_id = $1 ORDER BY user_id",
                    )
                    .bind(event)
                    .fetch_all(&mut *c)
                    .await?)
                }))
                .await
            }

            async fn add_event_player(
                &self,
                event: &str,
                user: UserId,
                rating: Option<i64>,
                joined_round: i64,
                at: i64,
            ) -> Result<i64> {
                let event = event.to_owned();
                self.write(move |c| Box::pin(async move {
                    let event: &str = &event;
                    let mut tx = c.begin().await?;
                    let next: i64 = sqlx::query_scalar(
                        "SELECT COALESCE(MAX(start_rank), 0) + 1 FROM event_players WHERE event_id = $1",
                    )
                    .bind(event)
                    .fetch_one(&mut *tx)
                    .await?;
                    sqlx::query(
                        "INSERT INTO event_players \
                         (event_id, user_id, start_rank, rating, joined_round, withdrawn, disqualified, joined_at) \
                         VALUES ($1, $2, $3, $4, $5, FALSE, FALSE, $6)",
                    )
                    .bind(event)
                    .bind(user)
                    .bind(next)
                    .bind(rating)
                    .bind(joined_round)
                    .bind(at)
                    .execute(&mut *tx)
                    .await
                    .map_err(conflict("registration"))?;
                    tx.commit().await?;
                    Ok(next)
                }))
                .await
            }

            async fn event_players(&self, event: &str) -> Result<Vec<EventPlayerRow>> {
                let event = event.to_owned();
                self.write(move |c| Box::pin(async move {
                    let event: &str = &event;
                    Ok(sqlx::query_as(
                        "SELECT p.user_id, u.username, p.start_rank, p.rating, p.joined_round, \
                         p.withdrawn, p.disqualified, p.joined_at \
                         FROM event_players p JOIN users u ON u.id = p.user_id \
                         WHERE p.event_id = $1 ORDER BY p.start_rank",
                    )
                    .bind(event)
                    .fetch_all(&mut *c)
                    .await?)
                }))
                .await
            }

            async fn set_event_player(
                &self,
                event: &str,
                user: UserId,
                withdrawn: bool,
                disqualified: bool,
            ) -> Result<()> {
                let event = event.to_owned();
                self.write(move |c| Box::pin(async move {
                    let event: &str = &event;
                    let done = sqlx::query(
                        "UPDATE event_players SET withdrawn = $3, disqualified = $4 \
                         WHERE event_id = $1 AND user_id = $2",
                    )
                    .bind(event)
                    .bind(user)
                    .bind(withdrawn)
                    .bind(disqualified)
                    .execute(&mut *c)
                    .await?;
                    if done.rows_affected() == 0 {
                        return Err(StoreError::NotFound(format!("player {user} of {event}")));
                    }
                    Ok(())
                }))
                .await
            }

            async fn request_bye(&self, event: &str, user: UserId, round: i64, kind: &str) -> Result<()> {
                let event = event.to_owned();
                let kind = kind.to_owned();
                self.write(move |c| Box::pin(async move {
                    let event: &str = &event;
                    let kind: &str = &kind;
                    sqlx::query(
                        "INSERT INTO event_byes (event_id, user_id, round, kind) VALUES ($1, $2, $3, $4) \
                         ON CONFLICT (event_id, user_id, round) DO UPDATE SET kind = $4",
                    )
                    .bind(event)
                    .bind(user)
                    .bind(round)
                    .bind(kind)
                    .execute(&mut *c)
                    .await?;
                    Ok(())
                }))
                .await
            }

            async fn event_byes(&self, event: &str) -> Result<Vec<EventByeRow>> {
                let event = event.to_owned();
                self.write(move |c| Box::pin(async move {
                    let event: &str = &event;
                    Ok(sqlx::query_as(
                        "SELECT user_id, round, kind FROM event_byes WHERE event_id = $1 \
                         ORDER BY round, user_id",
                    )
                    .bind(event)
                    .fetch_all(&mut *c)
                    .await?)
                }))
                .await
            }

            async fn pair_round(
                &self,
                event: &str,
                round: &EventRoundRow,
                games: &[EventGameRow],
            ) -> Result<bool> {
                let event = event.to_owned();
                let round = round.clone();
                let games = games.to_vec();
                self.write(move |c| Box::pin(async move {
                    let event: &str = &event;
                    let round = &round;
                    let games = &games;
                    let mut tx = c.begin().await?;
                    if !insert_round!(tx, event, round) {
                        return Ok(false);
                    }
                    for g in games {
                        sqlx::query(
                            "INSERT INTO event_games \
                             (event_id, round, board, white, black, table_id, white_result, black_result) \
                             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                        )
                        .bind(event)
                        .bind(round.round)
                        .bind(g.board)
                        .bind(g.white)
                        .bind(g.black)
                        .bind(&g.table_id)
                        .bind(&g.white_result)
                        .bind(&g.black_result)
                        .execute(&mut *tx)
                        .await?;
                    }
                    tx.commit().await?;
                    Ok(true)
                }))
                .await
            }

            async fn group_round(
                &self,
                event: &str,
                round: &EventRoundRow,
                tables: &[EventTableRow],
            ) -> Result<bool> {
                let event = event.to_owned();
                let round = round.clone();
                let tables = tables.to_vec();
                self.write(move |c| Box::pin(async move {
                    let event: &str = &event;
                    let round = &round;
                    let tables = &tables;
                    let mut tx = c.begin().await?;
                    if !insert_round!(tx, event, round) {
                        return Ok(false);
                    }
                    for t in tables {
                        sqlx::query(
                            "INSERT INTO event_tables (event_id, round, board, seats) \
                             VALUES ($1, $2, $3, $4)",
                        )
                        .bind(event)
                        .bind(round.round)
                        .bind(t.board)
                        .bind(&t.seats)
                        .execute(&mut *tx)
                        .await?;
                    }
                    tx.commit().await?;
                    Ok(true)
                }))
                .await
            }

            async fn event_tables(&self, event: &str) -> Result<Vec<EventTableRow>> {
                let event = event.to_owned();
                self.write(move |c| Box::pin(async move {
                    let event: &str = &event;
                    Ok(sqlx::query_as(
                        "SELECT round, board, seats FROM event_tables \
                         WHERE event_id = $1 ORDER BY round, board",
                    )
                    .bind(event)
                    .fetch_all(&mut *c)
                    .await?)
                }))
                .await
            }

            async fn event_hands(&self, event: &str) -> Result<Vec<EventHandRow>> {
                let event = event.to_owned();
                self.write(move |c| Box::pin(async move {
                    let event: &str = &event;
                    Ok(sqlx::query_as(
                        "SELECT round, board, hand, seats, deal, table_id, scores, started_at, played_deal \
                         FROM event_hands WHERE event_id = $1 ORDER BY round, board, hand",
                    )
                    .bind(event)
                    .fetch_all(&mut *c)
                    .await?)
                }))
                .await
            }

            async fn add_hand(&self, event: &str, hand: &EventHandRow) -> Result<bool> {
                let event = event.to_owned();
                let hand = hand.clone();
                self.write(move |c| Box::pin(async move {
                    let event: &str = &event;
                    let h = &hand;
                    let done = sqlx::query(
                        "INSERT INTO event_hands \
                         (event_id, round, board, hand, seats, deal, table_id, scores, started_at) \
                         VALUES ($1, $2, $3, $4, $5, $6, NULL, NULL, $7) \
                         ON CONFLICT (event_id, round, board, hand) DO NOTHING",
                    )
                    .bind(event)
                    .bind(h.round)
                    .bind(h.board)
                    .bind(h.hand)
                    .bind(&h.seats)
                    .bind(&h.deal)
                    .bind(h.started_at)
                    .execute(&mut *c)
                    .await?;
                    Ok(done.rows_affected() > 0)
                }))
                .await
            }

            async fn set_hand_table(
                &self,
                event: &str,
                round: i64,
                board: i64,
                hand: i64,
                table: &str,
            ) -> Result<bool> {
                self.set_hand_once(HandColumn::Table, event, [round, board, hand], table)
                    .await
            }

            async fn set_hand_scores(
                &self,
                event: &str,
                round: i64,
                board: i64,
                hand: i64,
                scores: &str,
                played_deal: i64,
            ) -> Result<bool> {
                self.set_hand_once(
                    HandColumn::Scores { played_deal },
                    event,
                    [round, board, hand],
                    scores,
                )
                .await
            }

            async fn event_rounds(&self, event: &str) -> Result<Vec<EventRoundRow>> {
                let event = event.to_owned();
                self.write(move |c| Box::pin(async move {
                    let event: &str = &event;
                    Ok(sqlx::query_as(
                        "SELECT round, starts_at, checked_at, finished_at FROM event_rounds \
                         WHERE event_id = $1 ORDER BY round",
                    )
                    .bind(event)
                    .fetch_all(&mut *c)
                    .await?)
                }))
                .await
            }

            async fn event_games(&self, event: &str) -> Result<Vec<EventGameRow>> {
                let event = event.to_owned();
                self.write(move |c| Box::pin(async move {
                    let event: &str = &event;
                    Ok(sqlx::query_as(
                        "SELECT round, board, white, black, table_id, white_result, black_result \
                         FROM event_games WHERE event_id = $1 ORDER BY round, board",
                    )
                    .bind(event)
                    .fetch_all(&mut *c)
                    .await?)
                }))
                .await
            }

            async fn set_event_table(
                &self,
                event: &str,
                round: i64,
                board: i64,
                table: &str,
            ) -> Result<bool> {
                let event = event.to_owned();
                let table = table.to_owned();
                self.write(move |c| Box::pin(async move {
                    let event: &str = &event;
                    let table: &str = &table;
                    let done = sqlx::query(
                        "UPDATE event_games SET table_id = $4 \
                         WHERE event_id = $1 AND round = $2 AND board = $3 AND table_id IS NULL",
                    )
                    .bind(event)
                    .bind(round)
                    .bind(board)
                    .bind(table)
                    .execute(&mut *c)
                    .await?;
                    Ok(done.rows_affected() > 0)
                }))
                .await
            }

            async fn set_event_result(
                &self,
                event: &str,
                round: i64,
                board: i64,
                white: Option<&str>,
                black: Option<&str>,
            ) -> Result<()> {
                let event = event.to_owned();
                let (white, black) = (white.map(str::to_owned), black.map(str::to_owned));
                self.write(move |c| Box::pin(async move {
                    let event: &str = &event;
                    let (white, black) = (white.as_deref(), black.as_deref());
                    let done = sqlx::query(
                        "UPDATE event_games SET white_result = $4, black_result = $5 \
                         WHERE event_id = $1 AND round = $2 AND board = $3",
                    )
                    .bind(event)
                    .bind(round)
                    .bind(board)
                    .bind(white)
                    .bind(black)
                    .execute(&mut *c)
                    .await?;
                    if done.rows_affected() == 0 {
                        return Err(StoreError::NotFound(format!(
                            "board {board} of round {round} of {event}"
                        )));
                    }
                    Ok(())
                }))
                .await
            }

            async fn round_checked(&self, event: &str, round: i64, at: i64) -> Result<()> {
                let event = event.to_owned();
                self.write(move |c| Box::pin(async move {
                    let event: &str = &event;
                    sqlx::query(
                        "UPDATE event_rounds SET checked_at = $3 \
                         WHERE event_id = $1 AND round = $2 AND checked_at IS NULL",
                    )
                    .bind(event)
                    .bind(round)
                    .bind(at)
                    .execute(&mut *c)
                    .await?;
                    Ok(())
                }))
                .await
            }

            async fn round_finished(&self, event: &str, round: i64, at: i64) -> Result<()> {
                let event = event.to_owned();
                self.write(move |c| Box::pin(async move {
                    let event: &str = &event;
                    sqlx::query(
                        "UPDATE event_rounds SET finished_at = $3 \
                         WHERE event_id = $1 AND round = $2 AND finished_at IS NULL",
                    )
                    .bind(event)
                    .bind(round)
                    .bind(at)
                    .execute(&mut *c)
                    .await?;
                    Ok(())
                }))
                .await
            }

            async fn add_event_action(&self, event: &str, a: &EventActionRow) -> Result<i64> {
                let event = event.to_owned();
                let a = a.clone();
                self.write(move |c| Box::pin(async move {
                    let event: &str = &event;
                    let a = &a;
                    let id: i64 = sqlx::query_scalar(
                        "INSERT INTO event_actions \
                         (event_id, round, board, user_id, arbiter, kind, reason, at, detail) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
                    )
                    .bind(event)
                    .bind(a.round)
                    .bind(a.board)
                    .bind(a.user_id)
                    .bind(a.arbiter)
                    .bind(&a.kind)
                    .bind(&a.reason)
                    .bind(a.at)
                    .bind(&a.detail)
                    .fetch_one(&mut *c)
                    .await?;
                    Ok(id)
                }))
                .await
            }

            async fn event_actions(&self, event: &str) -> Result<Vec<EventActionRow>> {
                let event = event.to_owned();
                self.write(move |c| Box::pin(async move {
                    let event: &str = &event;
                    Ok(sqlx::query_as(
                        "SELECT id, round, board, user_id, arbiter, kind, reason, at, detail \
                         FROM event_actions WHERE event_id = $1 ORDER BY id",
                    )
                    .bind(event)
                    .fetch_all(&mut *c)
                    .await?)
                }))
                .await
            }
        }

        impl $store {
            /// Writes a hand's `column` if it has none yet; whether it did.
            async fn set_hand_once(
                &self,
                column: HandColumn,
                event: &str,
                [round, board, hand]: [i64; 3],
                value: &str,
            ) -> Result<bool> {
                let event = event.to_owned();
                let value = value.to_owned();
                self.write(move |c| Box::pin(async move {
                    let query = sqlx::query(column.update())
                        .bind(event.as_str())
                        .bind(round)
                        .bind(board)
                        .bind(hand)
                        .bind(value.as_str());
                    let query = match column {
                        HandColumn::Scores { played_deal } => query.bind(played_deal),
                        HandColumn::Table => query,
                    };
                    let done = query.execute(&mut *c).await?;
                    Ok(done.rows_affected() > 0)
                }))
                .await
            }
        }
    };
}

/// A hand's columns written once, after the hand is added.
#[derive(Clone, Copy)]
enum HandColumn {
    Table,
    /// The scores (`$5`) with the deal played (`$6`).
    Scores {
        played_deal: i64,
    },
}

impl HandColumn {
    /// The statement that sets the column where it is unset: `$1`–`$4` the
    /// event, round, board and hand, `$5` the value.
    fn update(self) -> &'static str {
        match self {
            HandColumn::Table => {
                "UPDATE event_hands SET table_id = $5 WHERE event_id = $1 \
                 AND round = $2 AND board = $3 AND hand = $4 AND table_id IS NULL"
            }
            HandColumn::Scores { .. } => {
                "UPDATE event_hands SET scores = $5, played_deal = $6 WHERE event_id = $1 \
                 AND round = $2 AND board = $3 AND hand = $4 AND scores IS NULL"
            }
        }
    }
}

impl_events!(SqliteStore);
impl_events!(PostgresStore);
