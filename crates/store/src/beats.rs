//! Nodes' heartbeats (migration `0019_node_beats` on both backends): each
//! server node writes the time it is alive about every second, one row per
//! node. When a table is rebuilt after its node died (a restart after a crash,
//! or another node's takeover), the player to move is charged the time his clock
//! ran up to the dead node's last heartbeat (see docs/reliability.md,
//! "Durability"); the time after it, when nobody could move, is charged to no
//! clock.
//!
//! Times are the node's own clock (ms since the epoch), like the log's `at`,
//! since they are compared with those.

use async_trait::async_trait;

use crate::{PostgresStore, Result, SqliteStore};

/// Nodes' heartbeats.
#[async_trait]
pub trait BeatStore: Send + Sync {
    /// Node `node` is alive at `at` (its last heartbeat is now `at`).
    async fn beat(&self, node: &str, at: i64) -> Result<()>;
    /// Node `node`'s last heartbeat, if it ever wrote one.
    async fn last_beat(&self, node: &str) -> Result<Option<i64>>;
}

macro_rules! impl_beats {
    ($store:ty) => {
        #[async_trait]
        impl BeatStore for $store {
            async fn beat(&self, node: &str, at: i64) -> Result<()> {
                let node = node.to_owned();
                self.write(move |c| {
                    Box::pin(async move {
                        sqlx::query(
                            "INSERT INTO node_beats (node, alive_at) VALUES ($1, $2) \
                             ON CONFLICT (node) DO UPDATE SET alive_at = excluded.alive_at",
                        )
                        .bind(node.as_str())
                        .bind(at)
                        .execute(&mut *c)
                        .await?;
                        Ok(())
                    })
                })
                .await
            }

            async fn last_beat(&self, node: &str) -> Result<Option<i64>> {
                Ok(
                    sqlx::query_scalar("SELECT alive_at FROM node_beats WHERE node = $1")
                        .bind(node)
                        .fetch_optional(&self.read)
                        .await?,
                )
            }
        }
    };
}

impl_beats!(PostgresStore);
impl_beats!(SqliteStore);
