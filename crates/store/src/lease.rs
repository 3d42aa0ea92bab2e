//! Leases on live tables, for several server nodes sharing one database: each
//! open table is owned by at most one node at a time, until its lease expires
//! unless renewed. Every acquisition takes the table's next fencing token, and
//! [`LeaseStore::append_fenced`] writes a log entry only while the token it
//! carries is the table's current one — checked inside the group writer's
//! batch (crate::group), in the same statement as the insert, under a share
//! lock on the lease row (PostgreSQL), so an acquisition either waits for the
//! append or the append sees the new token and writes nothing. A node that was fenced out (it stalled past its lease and another
//! node took the table over) can therefore write nothing more to that table.
//!
//! Times are the database's own clock (milliseconds since the epoch), so the
//! nodes' clocks need not agree. SQLite has one writer at a time and serves one
//! node; it implements the same behaviour.

use async_trait::async_trait;

use crate::{PostgresStore, Result, SqliteStore, TableRow};

/// Who owns a table.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Lease {
    #[sqlx(rename = "table_id")]
    pub table: String,
    pub node: String,
    pub token: i64,
    /// When it expires, on the database's clock (ms since the epoch).
    pub expires_at: i64,
    /// Whether it has not expired yet.
    pub live: bool,
}

/// Leases on tables and the fenced log append.
#[async_trait]
pub trait LeaseStore: Send + Sync {
    /// Takes table `table` for `node` for `ttl_ms`, if nobody holds it, its
    /// lease expired, or `node` itself held it (a restarted node). Returns the
    /// new fencing token (greater than every earlier one of the table), or
    /// `None` if another node holds a live lease.
    async fn acquire_lease(&self, table: &str, node: &str, ttl_ms: i64) -> Result<Option<i64>>;
    /// Extends `node`'s lease with `token` by `ttl_ms` from now; false if the
    /// lease is not that any more (another node took the table over).
    async fn renew_lease(&self, table: &str, node: &str, token: i64, ttl_ms: i64) -> Result<bool>;
    /// Extends every lease `node` holds (not given up) by `ttl_ms` from now, in
    /// one statement however many tables: the (table, token) pairs renewed.
    /// A table of the node's that is missing was taken over by another node.
    async fn renew_leases(&self, node: &str, ttl_ms: i64) -> Result<Vec<(String, i64)>>;
    /// Gives a lease up (the table closed, the node stops): it expires now, and
    /// the next acquisition's token is still greater. Nothing if `token` is not
    /// the current one.
    async fn release_lease(&self, table: &str, token: i64) -> Result<()>;
    /// The table's lease, if it has one.
    async fn lease(&self, table: &str) -> Result<Option<Lease>>;
    /// Open tables that nobody holds a live lease on (never leased, or expired);
    /// with `also_of`, those whose lease that node holds too (the node restarted).
    async fn orphan_tables(&self, also_of: Option<&str>) -> Result<Vec<TableRow>>;
    /// Appends log entry `version` like [`crate::Store::append`], only while
    /// `token` is the table's current fencing token: otherwise
    /// [`crate::StoreError::Fenced`] and nothing is written.
    async fn append_fenced(
        &self,
        table: &str,
        version: i64,
        at: i64,
        entry: &str,
        token: i64,
    ) -> Result<()>;
}

macro_rules! impl_leases {
    ($store:ty, $now:literal, $update:literal) => {
        #[async_trait]
        impl LeaseStore for $store {
            async fn acquire_lease(
                &self,
                table: &str,
                node: &str,
                ttl_ms: i64,
            ) -> Result<Option<i64>> {
                let table = table.to_owned();
                let node = node.to_owned();
                self.write(move |c| Box::pin(async move {
                    let table: &str = &table;
                    let node: &str = &node;
                    let token: Option<i64> = sqlx::query_scalar(concat!(
                        "INSERT INTO table_leases (table_id, node, token, expires_at) VALUES ($1, $2, 1, ",
                        $now,
                        " + $3) ON CONFLICT (table_id) DO UPDATE SET node = excluded.node, \
                         token = table_leases.token + 1, expires_at = excluded.expires_at \
                         WHERE table_leases.expires_at < ",
                        $now,
                        " OR table_leases.node = excluded.node RETURNING token"
                    ))
                    .bind(table)
                    .bind(node)
                    .bind(ttl_ms)
                    .fetch_optional(&mut *c)
                    .await?;
                    Ok(token)
                }))
                .await
            }

            async fn renew_lease(
                &self,
                table: &str,
                node: &str,
                token: i64,
                ttl_ms: i64,
            ) -> Result<bool> {
                let table = table.to_owned();
                let node = node.to_owned();
                self.write(move |c| Box::pin(async move {
                    let table: &str = &table;
                    let node: &str = &node;
                    let done = sqlx::query(concat!(
                        "UPDATE table_leases SET expires_at = ",
                        $now,
                        " + $4 WHERE table_id = $1 AND node = $2 AND token = $3"
                    ))
                    .bind(table)
                    .bind(node)
                    .bind(token)
                    .bind(ttl_ms)
                    .execute(&mut *c)
                    .await?;
                    Ok(done.rows_affected() == 1)
                }))
                .await
            }

            async fn renew_leases(&self, node: &str, ttl_ms: i64) -> Result<Vec<(String, i64)>> {
                let node = node.to_owned();
                self.write(move |c| Box::pin(async move {
                    let node: &str = &node;
                    // The rows locked in table order, as a batch of fenced appends
                    // share-locks them (see crate::group): the two never deadlock.
                    Ok(sqlx::query_as(concat!(
                        "UPDATE table_leases SET expires_at = ",
                        $now,
                        " + $2 WHERE node = $1 AND expires_at > 0 AND table_id IN \
                         (SELECT table_id FROM table_leases WHERE node = $1 AND expires_at > 0 \
                         ORDER BY table_id",
                        $update,
                        ") RETURNING table_id, token"
                    ))
                    .bind(node)
                    .bind(ttl_ms)
                    .fetch_all(&mut *c)
                    .await?)
                }))
                .await
            }

            async fn release_lease(&self, table: &str, token: i64) -> Result<()> {
                let table = table.to_owned();
                self.write(move |c| Box::pin(async move {
                    let table: &str = &table;
                    // The row stays, expired: its token must only grow, so that a
                    // token given up is never handed out again.
                    sqlx::query("UPDATE table_leases SET expires_at = 0 WHERE table_id = $1 AND token = $2")
                        .bind(table)
                        .bind(token)
                        .execute(&mut *c)
                        .await?;
                    Ok(())
                }))
                .await
            }

            async fn lease(&self, table: &str) -> Result<Option<Lease>> {
                Ok(sqlx::query_as(concat!(
                    "SELECT table_id, node, token, expires_at, expires_at >= ",
                    $now,
                    " AS live FROM table_leases WHERE table_id = $1"
                ))
                .bind(table)
                .fetch_optional(&self.read)
                .await?)
            }

            async fn orphan_tables(&self, also_of: Option<&str>) -> Result<Vec<TableRow>> {
                Ok(sqlx::query_as(concat!(
                    "SELECT t.id, t.game, t.config, t.open, t.created_at FROM tables t \
                     LEFT JOIN table_leases l ON l.table_id = t.id \
                     WHERE t.open AND (l.table_id IS NULL OR l.expires_at < ",
                    $now,
                    " OR l.node = $1) ORDER BY t.created_at, t.id"
                ))
                .bind(also_of)
                .fetch_all(&self.read)
                .await?)
            }

            async fn append_fenced(
                &self,
                table: &str,
                version: i64,
                at: i64,
                entry: &str,
                token: i64,
            ) -> Result<()> {
                // Through the group writer, its token checked inside the
                // batch (see crate::group).
                self.appends
                    .append(table, version, at, entry, Some(token))
                    .await
            }
        }
    };
}

impl_leases!(
    PostgresStore,
    "(extract(epoch from clock_timestamp()) * 1000)::bigint",
    " FOR UPDATE"
);
impl_leases!(
    SqliteStore,
    "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)",
    ""
);
