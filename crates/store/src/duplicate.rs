//! Duplicate events (migration `0021_duplicate` on both backends): the secret of
//! each board, drawn once, and when the board was published. The hands played
//! at each table are the events' hands (`EventStore`). The store knows nothing
//! of seats, deals or scoring: secrets are text, opaque here. Boards' secrets are
//! written in one transaction and only if the event has none, so that an event's
//! deals are drawn exactly once whatever restarts happen.

use async_trait::async_trait;
use sqlx::Connection as _;

use crate::{PostgresStore, Result, SqliteStore};

/// A board of a duplicate event, without its secret.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct EventBoardRow {
    pub board: i64,
    /// When every table had finished it (the deal and results may be shown).
    pub published_at: Option<i64>,
}

/// Duplicate events' boards.
#[async_trait]
pub trait DuplicateStore: Send + Sync {
    /// Stores the boards' secrets (`secrets[b]` for board `b`) in one
    /// transaction, if the event has none yet; false, and nothing written, if it
    /// has.
    async fn put_board_secrets(&self, event: &str, secrets: &[String]) -> Result<bool>;
    /// The boards' secrets by board, for the server to deal from and nothing else.
    async fn board_secrets(&self, event: &str) -> Result<Vec<String>>;
    async fn event_boards(&self, event: &str) -> Result<Vec<EventBoardRow>>;
    /// Marks a board published; false if it was already.
    async fn publish_board(&self, event: &str, board: i64, at: i64) -> Result<bool>;
    /// The seats (the hand's JSON list of user ids) of the duplicate hand
    /// played at `table` when its board is not published yet: nothing of
    /// that table may be shown but to its own players, and to them only as
    /// the game shows a seat. `None` for any other table.
    async fn sealed_table(&self, table: &str) -> Result<Option<String>>;
}

macro_rules! impl_duplicate {
    ($store:ty) => {
        #[async_trait]
        impl DuplicateStore for $store {
            async fn put_board_secrets(&self, event: &str, secrets: &[String]) -> Result<bool> {
                let event = event.to_owned();
                let secrets = secrets.to_vec();
                self.write(move |c| Box::pin(async move {
                    let mut tx = c.begin().await?;
                    let had: Option<i64> =
                        sqlx::query_scalar("SELECT board FROM event_boards WHERE event_id = $1 LIMIT 1")
                            .bind(&event)
                            .fetch_optional(&mut *tx)
                            .await?;
                    if had.is_some() {
                        return Ok(false);
                    }
                    for (board, secret) in secrets.iter().enumerate() {
                        sqlx::query(
                            "INSERT INTO event_boards (event_id, board, secret, published_at) \
                             VALUES ($1, $2, $3, NULL)",
                        )
                        .bind(&event)
                        .bind(board as i64)
                        .bind(secret)
                        .execute(&mut *tx)
                        .await?;
                    }
                    tx.commit().await?;
                    Ok(true)
                }))
                .await
            }

            async fn board_secrets(&self, event: &str) -> Result<Vec<String>> {
                Ok(sqlx::query_scalar(
                    "SELECT secret FROM event_boards WHERE event_id = $1 ORDER BY board",
                )
                .bind(event)
                .fetch_all(&self.read)
                .await?)
            }

            async fn event_boards(&self, event: &str) -> Result<Vec<EventBoardRow>> {
                Ok(sqlx::query_as(
                    "SELECT board, published_at FROM event_boards WHERE event_id = $1 ORDER BY board",
                )
                .bind(event)
                .fetch_all(&self.read)
                .await?)
            }

            async fn publish_board(&self, event: &str, board: i64, at: i64) -> Result<bool> {
                let event = event.to_owned();
                self.write(move |c| Box::pin(async move {
                    let done = sqlx::query(
                        "UPDATE event_boards SET published_at = $3 \
                         WHERE event_id = $1 AND board = $2 AND published_at IS NULL",
                    )
                    .bind(&event)
                    .bind(board)
                    .bind(at)
                    .execute(&mut *c)
                    .await?;
                    Ok(done.rows_affected() == 1)
                }))
                .await
            }

            async fn sealed_table(&self, table: &str) -> Result<Option<String>> {
                Ok(sqlx::query_scalar(
                    "SELECT h.seats FROM event_hands h JOIN event_boards b \
                     ON b.event_id = h.event_id AND b.board = h.hand - 1 \
                     WHERE h.table_id = $1 AND b.published_at IS NULL LIMIT 1",
                )
                .bind(table)
                .fetch_optional(&self.read)
                .await?)
            }
        }
    };
}

impl_duplicate!(SqliteStore);
impl_duplicate!(PostgresStore);
