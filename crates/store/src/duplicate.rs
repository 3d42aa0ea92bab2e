//! Duplicate events (migration `0021_duplicate` on both backends): the secret of
//! each board, drawn once, and each table's hand of each board with its result.
//! The store knows nothing of seats, deals or scoring: secrets are text, points a
//! JSON array, opaque here. Boards' secrets are written in one transaction and
//! only if the event has none, so that an event's deals are drawn exactly once
//! whatever restarts happen; a hand's result is taken once.

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

/// One table's hand of one board.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct EventHandRow {
    pub board: i64,
    pub table_no: i64,
    /// The live table playing it.
    pub table_id: Option<String>,
    /// The stored game, once finished.
    pub game_id: Option<String>,
    /// Which deal of the board's secret was played (0, or a redeal's number).
    pub deal: Option<i64>,
    /// The points by seat of the deal, as a JSON array, once finished.
    pub points: Option<String>,
    pub finished_at: Option<i64>,
}

/// Duplicate events' boards and hands.
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
    /// Records that `table_id` plays `board` at table `table_no`; false, and
    /// nothing written, if that hand has a table already.
    async fn open_hand(
        &self,
        event: &str,
        board: i64,
        table_no: i64,
        table_id: &str,
    ) -> Result<bool>;
    /// Takes a hand's result; false, and nothing written, if it has one already.
    #[allow(clippy::too_many_arguments)]
    async fn finish_hand(
        &self,
        event: &str,
        board: i64,
        table_no: i64,
        game_id: &str,
        deal: i64,
        points: &str,
        at: i64,
    ) -> Result<bool>;
    /// Every hand of the event, by board then table.
    async fn event_hands(&self, event: &str) -> Result<Vec<EventHandRow>>;
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

            async fn open_hand(&self, event: &str, board: i64, table_no: i64, table_id: &str) -> Result<bool> {
                let (event, table_id) = (event.to_owned(), table_id.to_owned());
                self.write(move |c| Box::pin(async move {
                    let done = sqlx::query(
                        "INSERT INTO event_hands (event_id, board, table_no, table_id) \
                         VALUES ($1, $2, $3, $4) ON CONFLICT (event_id, board, table_no) DO NOTHING",
                    )
                    .bind(&event)
                    .bind(board)
                    .bind(table_no)
                    .bind(&table_id)
                    .execute(&mut *c)
                    .await?;
                    Ok(done.rows_affected() == 1)
                }))
                .await
            }

            async fn finish_hand(
                &self,
                event: &str,
                board: i64,
                table_no: i64,
                game_id: &str,
                deal: i64,
                points: &str,
                at: i64,
            ) -> Result<bool> {
                let (event, game_id, points) = (event.to_owned(), game_id.to_owned(), points.to_owned());
                self.write(move |c| Box::pin(async move {
                    let done = sqlx::query(
                        "UPDATE event_hands SET game_id = $4, deal = $5, points = $6, finished_at = $7 \
                         WHERE event_id = $1 AND board = $2 AND table_no = $3 AND finished_at IS NULL",
                    )
                    .bind(&event)
                    .bind(board)
                    .bind(table_no)
                    .bind(&game_id)
                    .bind(deal)
                    .bind(&points)
                    .bind(at)
                    .execute(&mut *c)
                    .await?;
                    Ok(done.rows_affected() == 1)
                }))
                .await
            }

            async fn event_hands(&self, event: &str) -> Result<Vec<EventHandRow>> {
                Ok(sqlx::query_as(
                    "SELECT board, table_no, table_id, game_id, deal, points, finished_at \
                     FROM event_hands WHERE event_id = $1 ORDER BY board, table_no",
                )
                .bind(event)
                .fetch_all(&self.read)
                .await?)
            }
        }
    };
}

impl_duplicate!(SqliteStore);
impl_duplicate!(PostgresStore);
