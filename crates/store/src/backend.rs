//! The two backends. Their SQL is the same text (both read `$1` placeholders), so
//! one macro writes both implementations and they cannot drift apart; what differs
//! is how a pool is opened and the migrations' DDL.

use std::str::FromStr;
use std::time::Duration;

use async_trait::async_trait;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteConnection, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous,
};
use sqlx::{ConnectOptions as _, Connection as _, PgPool, SqlitePool};

use std::future::Future;
use std::pin::Pin;

use tokio::sync::oneshot;

use crate::group::{self, Answer, Append, GroupWriter, Outcome, WriteBatch, Written};
use crate::migrate::{self, run_migrations};
use crate::*;

pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// Turns a unique-key violation into [`StoreError::Conflict`].
pub(crate) fn conflict(what: &str) -> impl FnOnce(sqlx::Error) -> StoreError + '_ {
    move |err| match &err {
        sqlx::Error::Database(db) if db.is_unique_violation() => {
            StoreError::Conflict(what.to_string())
        }
        _ => StoreError::Database(err),
    }
}

/// The condition, on a query's user `u`, that the user is not banned (role
/// `banned`, written by the server or `qiyuan admin ban`): a banned user's
/// sessions and API tokens authenticate nobody, read afresh on every request.
macro_rules! not_banned {
    () => {
        "NOT EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id AND r.role = 'banned')"
    };
}

/// The SQLite store. Writes go through one connection, because SQLite has one
/// writer at a time: a queue for it is cheaper than lock retries. Reads use a
/// pool of several. Every write goes through the group writer (crate::group):
/// log appends, and the other writes as jobs run in the same transaction.
#[derive(Debug, Clone)]
pub struct SqliteStore {
    pub(crate) read: SqlitePool,
    pub(crate) appends: GroupWriter<SqliteJob>,
}

/// SQLite's one writing connection, outside any pool (a pool pings a
/// connection on every return: two more trips to its thread per write). Only
/// the group writer uses it once the store is open.
pub(crate) struct WriteSlot {
    conn: tokio::sync::Mutex<SqliteConnection>,
}

impl std::fmt::Debug for WriteSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WriteSlot")
    }
}

/// A future borrowing its connection.
pub(crate) type BoxFuture<'c, T> = Pin<Box<dyn Future<Output = T> + Send + 'c>>;

/// One write other than the log's appends, run by the group writer on the
/// writing connection inside its batch's transaction; or, `alone` (a single
/// statement, such as a chat line's insert), where every job of the batch is
/// one, each in its own statement's implicit transaction: no `BEGIN` and
/// `COMMIT` around it, two trips to SQLite's thread fewer.
pub(crate) struct SqliteJob {
    run: SqliteRun,
    alone: bool,
}

type SqliteRun = Box<dyn for<'c> FnOnce(&'c mut SqliteConnection) -> BoxFuture<'c, Answer> + Send>;

impl SqliteStore {
    /// Runs `op` on the writing connection in the group writer's next batch,
    /// inside its transaction; returns `op`'s result once the batch is
    /// committed (the commit's error if it was not). `op` sees the batch's
    /// earlier writes; a statement of its that fails changes nothing (SQLite
    /// undoes a failed statement alone), and one that needs several statements
    /// to be all or nothing opens its own transaction (`begin`: a savepoint).
    pub(crate) async fn write<R, F>(&self, op: F) -> Result<R>
    where
        R: Send + 'static,
        F: for<'c> FnOnce(&'c mut SqliteConnection) -> BoxFuture<'c, Result<R>> + Send + 'static,
    {
        self.job(op, false).await
    }

    /// [`SqliteStore::write`] for an `op` of one statement, which needs no
    /// transaction around it to be all or nothing: in a batch of such jobs
    /// only, it runs in its statement's own implicit transaction.
    pub(crate) async fn write_alone<R, F>(&self, op: F) -> Result<R>
    where
        R: Send + 'static,
        F: for<'c> FnOnce(&'c mut SqliteConnection) -> BoxFuture<'c, Result<R>> + Send + 'static,
    {
        self.job(op, true).await
    }

    async fn job<R, F>(&self, op: F, alone: bool) -> Result<R>
    where
        R: Send + 'static,
        F: for<'c> FnOnce(&'c mut SqliteConnection) -> BoxFuture<'c, Result<R>> + Send + 'static,
    {
        let (done, answer) = oneshot::channel::<Result<R>>();
        let run: SqliteRun = Box::new(move |conn| {
            Box::pin(async move {
                let result = op(conn).await;
                Box::new(move |failed: Option<&StoreError>| {
                    let _ = done.send(match (result, failed) {
                        (Ok(_), Some(err)) => Err(StoreError::Batch(err.to_string())),
                        (result, _) => result,
                    });
                }) as Answer
            })
        });
        if !self.appends.job(SqliteJob { run, alone }) {
            return Err(StoreError::Batch("the store's writer has stopped".into()));
        }
        answer.await.unwrap_or_else(|_| {
            Err(StoreError::Batch(
                "the write's batch failed before it ran".into(),
            ))
        })
    }
}

impl SqliteStore {
    /// Runs a read (`op`, given the reading pool) where PostgreSQL's store
    /// runs it on its own thread; here, in place.
    pub(crate) async fn read_on<R, F, Fut>(&self, op: F) -> Result<R>
    where
        R: Send + 'static,
        F: FnOnce(SqlitePool) -> Fut + Send + 'static,
        Fut: Future<Output = Result<R>> + Send + 'static,
    {
        op(self.read.clone()).await
    }
}

impl PostgresStore {
    /// Runs a read (`op`, given the pool) on the store's own thread
    /// ([`PgThread`]), as its writes: the reads of a socket's session, on
    /// every connection.
    pub(crate) async fn read_on<R, F, Fut>(&self, op: F) -> Result<R>
    where
        R: Send + 'static,
        F: FnOnce(PgPool) -> Fut + Send + 'static,
        Fut: Future<Output = Result<R>> + Send + 'static,
    {
        self.thread
            .handle
            .spawn(op(self.read.clone()))
            .await
            .unwrap_or_else(|_| Err(StoreError::Database(sqlx::Error::WorkerCrashed)))
    }

    /// [`PostgresStore::write`]: each statement commits by itself here.
    pub(crate) async fn write_alone<R, F>(&self, op: F) -> Result<R>
    where
        R: Send + 'static,
        F: for<'c> FnOnce(&'c mut sqlx::PgConnection) -> BoxFuture<'c, Result<R>> + Send + 'static,
    {
        self.write(op).await
    }

    /// Runs `op` on a pooled connection (PostgreSQL's writes go in parallel;
    /// each statement commits by itself unless `op` opens a transaction), on
    /// the store's own thread ([`PgThread`]).
    pub(crate) async fn write<R, F>(&self, op: F) -> Result<R>
    where
        R: Send + 'static,
        F: for<'c> FnOnce(&'c mut sqlx::PgConnection) -> BoxFuture<'c, Result<R>> + Send + 'static,
    {
        let pool = self.write.clone();
        self.thread
            .handle
            .spawn(async move {
                let mut conn = pool.acquire().await?;
                op(&mut conn).await
            })
            .await
            .unwrap_or_else(|_| Err(StoreError::Database(sqlx::Error::WorkerCrashed)))
    }
}

/// Whether a table's log holds the entry of a [`LogMark`] (its version and
/// time).
const LOG_HOLDS: &str =
    "SELECT version FROM table_log WHERE table_id = $1 AND version = $2 AND at_ms = $3";

impl SqliteStore {
    /// Whether the log holds `mark`'s entry, read on the writing connection
    /// (inside its batch: the appends of the batch are committed before its
    /// jobs run).
    async fn log_holds(c: &mut SqliteConnection, mark: &LogMark) -> Result<bool> {
        let found: Option<i64> = sqlx::query_scalar(LOG_HOLDS)
            .bind(&mark.table)
            .bind(mark.version)
            .bind(mark.at)
            .fetch_optional(c)
            .await?;
        Ok(found.is_some())
    }
}

impl PostgresStore {
    /// Whether the log holds `mark`'s entry, read on the writer's connection
    /// (as SQLite's).
    async fn log_holds(c: &mut sqlx::PgConnection, mark: &LogMark) -> Result<bool> {
        let found: Option<i64> = sqlx::query_scalar(LOG_HOLDS)
            .bind(&mark.table)
            .bind(mark.version)
            .bind(mark.at)
            .fetch_optional(c)
            .await?;
        Ok(found.is_some())
    }
}

impl SqliteStore {
    /// A write of a game's beginning or end (its table, its game row, its
    /// settlement): on SQLite every write is already a job of the group
    /// writer ([`SqliteStore::write`]).
    pub(crate) async fn batched<R, F>(&self, op: F) -> Result<R>
    where
        R: Send + 'static,
        F: for<'c> FnOnce(&'c mut SqliteConnection) -> BoxFuture<'c, Result<R>> + Send + 'static,
    {
        self.write(op).await
    }
}

/// One write of a game's beginning or end, run by PostgreSQL's group writer
/// on its one connection inside its batch's transaction, in a savepoint of
/// its own; it answers whether it succeeded (a failed one's savepoint is
/// rolled back, so that the batch's others still commit).
pub(crate) type PgJob =
    Box<dyn for<'c> FnOnce(&'c mut sqlx::PgConnection) -> BoxFuture<'c, (Answer, bool)> + Send>;

impl PostgresStore {
    /// The writes of a game's beginning and end (its table, its game row,
    /// its settlement): on a pooled connection ([`PostgresStore::write`]),
    /// as the other writes.
    pub(crate) async fn batched<R, F>(&self, op: F) -> Result<R>
    where
        R: Send + 'static,
        F: for<'c> FnOnce(&'c mut sqlx::PgConnection) -> BoxFuture<'c, Result<R>> + Send + 'static,
    {
        // Measured at 300 games on a loaded machine (load 11-14), a
        // savepoint per job and the entry's check on the writer's one
        // connection made its batches slower than the pooled writes in
        // parallel (docs/benchmarks.md): kept on the pool until measured on
        // a quiet machine. The jobs' path stays ready in `postgres_batches`.
        self.write(op).await
    }
}

/// A thread with a runtime of its own on which PostgreSQL's writes other than
/// the log's (and the reads of a socket's session) run, their statements'
/// round trips and all: on the server's
/// runtime every answer from PostgreSQL waited for a worker to poll the socket
/// and then in its run queue behind thousands of sockets' tasks, once a
/// statement (a game's start or end is several), while here only the result
/// crosses back, once. At 9,000 games: a table's creation took 107–131 ms
/// instead of 173–245, and the burst of game ends at a run's end waited no
/// more than 2 s for a pooled connection (docs/benchmarks.md, session 14). The
/// pooled connections it opens are its runtime's: their answers wake it at
/// once. It stops when the last clone of the store is dropped.
#[derive(Debug)]
pub(crate) struct PgThread {
    handle: tokio::runtime::Handle,
    _stop: oneshot::Sender<()>,
}

impl PgThread {
    fn start() -> Result<PgThread> {
        let (stop, stopped) = oneshot::channel::<()>();
        let handle = group::runtime_thread("qiyuan-store-pg", async {
            let _ = stopped.await;
        })
        .map_err(|e| StoreError::Database(sqlx::Error::Io(e)))?;
        Ok(PgThread {
            handle,
            _stop: stop,
        })
    }
}

/// How long SQLite's group writer waits for more appends once it has taken a
/// batch, when they arrive fast enough to expect two more in that time
/// (`group::Pace`). Under load, batches four to five times larger meant fewer
/// wake-ups of the writer, sqlx's SQLite thread and the answering task, and
/// 4–22% less server CPU a move at 3,000–9,000 games; SQLite's own work per
/// append hardly changed, being mostly each append's page of the log's key
/// (docs/benchmarks.md, session 12).
const SQLITE_LINGER: Duration = Duration::from_micros(1000);

/// How long PostgreSQL's group writer waits for more appends, as SQLite's
/// ([`SQLITE_LINGER`]): at 9,000 games, batches of 25 appends instead of 13,
/// half the transactions, and a quarter less of the writing backend's CPU
/// on the same two cores (docs/benchmarks.md, session 14).
const POSTGRES_LINGER: Duration = SQLITE_LINGER;

/// The writing connection's page cache, as SQLite's `cache_size` (negative:
/// KiB): 64 MiB, used only as the pages are (not measured apart from the
/// linger).
const WRITER_CACHE_KIB: &str = "-65536";

const APPEND_ONE: &str = "INSERT INTO table_log (table_id, version, at_ms, entry) \
     VALUES ($1, $2, $3, $4) ON CONFLICT (table_id, version) DO NOTHING";

/// A batch without fencing tokens as one statement, its own transaction: the
/// rows as one JSON array (`[[table, version, at, entry], ...]`), in order.
/// Without `ON CONFLICT`: should one version exist, the statement fails and
/// writes nothing, and the batch is written again one append at a time.
const APPEND_ALL: &str = "INSERT INTO table_log (table_id, version, at_ms, entry) \
     SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), \
            json_extract(value, '$[2]'), json_extract(value, '$[3]') \
     FROM json_each($1) ORDER BY key";

/// SQLite's batch, on the one writing connection. A batch of appends alone is
/// usually one statement ([`APPEND_ALL`]): one trip to sqlx's SQLite thread
/// for the whole batch. With jobs, one transaction: the jobs in the order they
/// came, then the appends, then the commit, then each job's answer. A batch
/// with a fenced append, or one whose statement met an existing version, has
/// its appends written one at a time with one prepared statement each (sqlx
/// caches it on the connection), each fenced append's token read first in the
/// same transaction (the one writing connection also writes the leases, so
/// nothing moves between the two). (Measured in docs/benchmarks.md: multi-row
/// statements in a pooled transaction, and this; the jobs' batching.)
fn sqlite_batches(slot: Arc<WriteSlot>) -> WriteBatch<SqliteJob> {
    Arc::new(move |batch: Arc<Vec<Append>>, jobs: Vec<SqliteJob>| {
        let slot = slot.clone();
        Box::pin(async move {
            let mut conn = slot.conn.lock().await;
            if jobs.is_empty() {
                let written = async {
                    if let Some(outcomes) = append_all(&mut conn, &batch).await? {
                        return Ok(outcomes);
                    }
                    let mut tx = conn.begin().await?;
                    let outcomes = append_each(&mut tx, &batch).await?;
                    tx.commit().await?;
                    Ok(outcomes)
                }
                .await;
                return (written, Vec::new());
            }
            if batch.is_empty() && jobs.iter().all(|j| j.alone) {
                // Single statements, each committed by itself.
                let mut answers = Vec::with_capacity(jobs.len());
                for job in jobs {
                    answers.push((job.run)(&mut conn).await);
                }
                return (Ok(Vec::new()), answers);
            }
            let mut tx = match conn.begin().await {
                Ok(tx) => tx,
                Err(err) => {
                    tracing::error!("a batch of {} writes could not begin: {err}", jobs.len());
                    return (Err(err.into()), Vec::new());
                }
            };
            let mut answers = Vec::with_capacity(jobs.len());
            for job in jobs {
                answers.push((job.run)(&mut tx).await);
            }
            let written = async {
                let outcomes = match append_all(&mut tx, &batch).await? {
                    Some(outcomes) => outcomes,
                    None => append_each(&mut tx, &batch).await?,
                };
                tx.commit().await?;
                Ok(outcomes)
            }
            .await;
            if let Err(err) = &written {
                tracing::error!(
                    "a batch of {} writes failed, none committed: {err}",
                    answers.len()
                );
            }
            (written, answers)
        })
    })
}

/// The batch's appends as one statement, if none carries a fencing token;
/// `None` if one carries a token, or one of their versions exists (then the
/// statement wrote nothing).
async fn append_all(conn: &mut SqliteConnection, batch: &[Append]) -> Result<Option<Vec<Outcome>>> {
    if batch.is_empty() {
        return Ok(Some(Vec::new()));
    }
    if batch.iter().any(|a| a.token.is_some()) {
        return Ok(None);
    }
    let rows: Vec<(&str, i64, i64, &str)> = batch
        .iter()
        .map(|a| (a.table.as_str(), a.version, a.at, a.entry.as_str()))
        .collect();
    let rows = serde_json::to_string(&rows)
        .map_err(|e| StoreError::Batch(format!("cannot encode the batch: {e}")))?;
    // (Without `ON CONFLICT`, a statement that succeeds wrote every row.)
    match sqlx::query(APPEND_ALL).bind(rows).execute(&mut *conn).await {
        Ok(_) => Ok(Some(vec![Outcome::Inserted; batch.len()])),
        Err(sqlx::Error::Database(db)) if db.is_unique_violation() => Ok(None),
        Err(err) => Err(err.into()),
    }
}

/// The batch's appends one at a time, inside the caller's transaction.
async fn append_each(conn: &mut SqliteConnection, batch: &[Append]) -> Result<Vec<Outcome>> {
    let mut outcomes = Vec::with_capacity(batch.len());
    for a in batch {
        if let Some(token) = a.token {
            let current: Option<i64> =
                sqlx::query_scalar("SELECT token FROM table_leases WHERE table_id = $1")
                    .bind(&a.table)
                    .fetch_optional(&mut *conn)
                    .await?;
            if current != Some(token) {
                outcomes.push(Outcome::Fenced);
                continue;
            }
        }
        let done = sqlx::query(APPEND_ONE)
            .bind(&a.table)
            .bind(a.version)
            .bind(a.at)
            .bind(&a.entry)
            .execute(&mut *conn)
            .await?;
        outcomes.push(if done.rows_affected() == 1 {
            Outcome::Inserted
        } else {
            Outcome::Exists
        });
    }
    Ok(outcomes)
}

/// The batch's rows as five arrays (a fenced append's token, else null); the
/// lease rows of the fenced ones share-locked in table order (a takeover's
/// `acquire_lease` waits for the batch, and a lease renewal, which locks its
/// rows in the same order, can never deadlock with it); the appends whose
/// token is not their lease's left out. Returns the rows inserted (`fenced`
/// false) and the fenced ones (true, with their token).
const APPEND_MANY: &str = "WITH rows AS MATERIALIZED ( \
       SELECT * FROM UNNEST($1::text[], $2::bigint[], $3::bigint[], $4::text[], $5::bigint[]) \
         AS r(table_id, version, at_ms, entry, token)), \
     locked AS MATERIALIZED ( \
       SELECT l.table_id, l.token FROM table_leases l \
       WHERE l.table_id IN (SELECT table_id FROM rows WHERE token IS NOT NULL) \
       ORDER BY l.table_id FOR SHARE OF l), \
     allowed AS MATERIALIZED ( \
       SELECT r.table_id, r.version, r.at_ms, r.entry FROM rows r WHERE r.token IS NULL \
         OR EXISTS (SELECT 1 FROM locked k WHERE k.table_id = r.table_id AND k.token = r.token)), \
     ins AS ( \
       INSERT INTO table_log (table_id, version, at_ms, entry) \
       SELECT table_id, version, at_ms, entry FROM allowed \
       ON CONFLICT (table_id, version) DO NOTHING RETURNING table_id, version) \
     SELECT table_id, version, NULL::bigint AS token, false AS fenced FROM ins \
     UNION ALL \
     SELECT r.table_id, r.version, r.token, true FROM rows r WHERE r.token IS NOT NULL \
       AND NOT EXISTS (SELECT 1 FROM locked k WHERE k.table_id = r.table_id AND k.token = r.token)";

/// PostgreSQL's batch: one statement (its own transaction, one round trip) for
/// the whole batch, the rows passed as arrays. Of the rows it does not return
/// as inserted or fenced, the versions existed.
///
/// The writer runs on a thread of its own (as SQLite's) with a connection of
/// its own, opened there on the writer's first batch: the connection's socket
/// belongs to the writer's runtime, so PostgreSQL's answer wakes the writer at
/// once. On the server's runtime each answer waited behind thousands of
/// sockets' tasks, first for the runtime to poll its socket, then in its run
/// queue, and the writer was busy nine tenths of the time (docs/benchmarks.md,
/// session 14). A batch that fails drops the connection: the next one opens
/// another (PostgreSQL restarted, a network cut), so the writer never keeps a
/// broken one.
///
/// Jobs waiting together would run in one transaction on that connection,
/// each in a savepoint, then one commit, then each job's answer; none is sent
/// today ([`PostgresStore::batched`] says why).
fn postgres_batches(options: PgConnectOptions) -> WriteBatch<PgJob> {
    let slot = Arc::new(tokio::sync::Mutex::new(None::<sqlx::PgConnection>));
    Arc::new(move |batch: Arc<Vec<Append>>, jobs: Vec<PgJob>| {
        let (slot, options) = (slot.clone(), options.clone());
        Box::pin(async move {
            let mut held = slot.lock().await;
            let mut answers = Vec::with_capacity(jobs.len());
            let written = async {
                let conn = match &mut *held {
                    Some(conn) => conn,
                    None => held.insert(sqlx::PgConnection::connect_with(&options).await?),
                };
                if jobs.is_empty() {
                    return postgres_batch(conn, &batch).await;
                }
                let mut tx = conn.begin().await?;
                for job in jobs {
                    // A savepoint each: a statement that fails aborts the
                    // transaction on PostgreSQL, so that a job that fails
                    // (a taken id) is undone alone.
                    let mut saved = sqlx::Connection::begin(&mut *tx).await?;
                    let (answer, ok) = job(&mut saved).await;
                    answers.push(answer);
                    if ok {
                        saved.commit().await?;
                    } else {
                        saved.rollback().await?;
                    }
                }
                let outcomes = postgres_batch(&mut tx, &batch).await?;
                tx.commit().await?;
                Ok(outcomes)
            }
            .await;
            if let Err(err) = &written {
                if !answers.is_empty() {
                    tracing::error!(
                        "a batch of {} writes failed, none committed: {err}",
                        answers.len()
                    );
                }
                *held = None;
            }
            (written, answers)
        })
    })
}

/// A row [`APPEND_MANY`] returns: an append inserted (`fenced` false), or
/// one fenced out, with its token.
#[derive(sqlx::FromRow)]
struct AppendedRow {
    table_id: String,
    version: i64,
    token: Option<i64>,
    fenced: bool,
}

/// One batch of [`postgres_batches`].
async fn postgres_batch(conn: &mut sqlx::PgConnection, batch: &[Append]) -> Written {
    if batch.is_empty() {
        return Ok(Vec::new());
    }
    let tables: Vec<&str> = batch.iter().map(|a| a.table.as_str()).collect();
    let versions: Vec<i64> = batch.iter().map(|a| a.version).collect();
    let ats: Vec<i64> = batch.iter().map(|a| a.at).collect();
    let entries: Vec<&str> = batch.iter().map(|a| a.entry.as_str()).collect();
    let tokens: Vec<Option<i64>> = batch.iter().map(|a| a.token).collect();
    let rows: Vec<AppendedRow> = sqlx::query_as(APPEND_MANY)
        .bind(&tables)
        .bind(&versions)
        .bind(&ats)
        .bind(&entries)
        .bind(&tokens)
        .fetch_all(&mut *conn)
        .await?;
    let mut new = std::collections::HashSet::with_capacity(rows.len());
    let mut fenced = std::collections::HashSet::new();
    for row in rows {
        if row.fenced {
            // (Two appends of one version may differ by their token:
            // an old owner's late one and the new owner's.)
            fenced.insert((row.table_id, row.version, row.token));
        } else {
            new.insert((row.table_id, row.version));
        }
    }
    // The first append of a key in the batch is the one inserted.
    Ok(batch
        .iter()
        .map(|a| {
            let key = (a.table.clone(), a.version);
            if let Some(token) = a.token
                && fenced.contains(&(a.table.clone(), a.version, Some(token)))
            {
                Outcome::Fenced
            } else if new.remove(&key) {
                Outcome::Inserted
            } else {
                Outcome::Exists
            }
        })
        .collect())
}

/// When the SQLite checkpointer checkpoints the WAL, and how big it may stay.
#[derive(Debug, Clone, Copy)]
pub(crate) struct WalLimits {
    pub every: Duration,
    /// Frames (pages) in the WAL from which a checkpoint also restarts it.
    pub restart_frames: i64,
    /// The size the WAL file is cut back to after a restart
    /// (`journal_size_limit`, bytes).
    pub size_limit: i64,
}

impl Default for WalLimits {
    fn default() -> Self {
        WalLimits {
            every: Duration::from_millis(500),
            // 64 MiB of 4 KiB pages.
            restart_frames: 16_384,
            size_limit: 64 << 20,
        }
    }
}

/// How many times a WAL restart is tried without waiting for readers before
/// one waits for them (within the busy timeout).
const RESTART_QUICK_TRIES: u32 = 20;

/// A RESTART checkpoint on the checkpointer's connection, which does not wait
/// for readers (its busy timeout is zero) unless `wait`; whether the WAL was
/// restarted.
async fn restart_wal(checkpointer: &SqlitePool, wait: bool) -> Result<bool> {
    let mut conn = checkpointer.acquire().await?;
    if wait {
        sqlx::query("PRAGMA busy_timeout = 10000")
            .execute(&mut *conn)
            .await?;
    }
    let restart: std::result::Result<(i64, i64, i64), _> =
        sqlx::query_as("PRAGMA wal_checkpoint(RESTART)")
            .fetch_one(&mut *conn)
            .await;
    if wait {
        sqlx::query("PRAGMA busy_timeout = 0")
            .execute(&mut *conn)
            .await?;
    }
    let (busy, frames, copied) = restart?;
    tracing::trace!(busy, frames, copied, "WAL restart");
    Ok(busy == 0)
}

/// Restarts the WAL between two of the writer's batches, trying again a
/// millisecond later while a reader is in it (see [`checkpoints`]); whether it
/// restarted, how long the writing connection was held, and the tries.
async fn restart_between_batches(
    checkpointer: &SqlitePool,
    slot: &WriteSlot,
) -> (Result<bool>, Duration, u32) {
    let (mut held, mut tries) = (Duration::ZERO, 0);
    loop {
        tries += 1;
        // The writer waits while a restart runs. Held here, the writing
        // connection makes it wait on this lock, between two of its batches,
        // woken the moment the restart ends. Left to SQLite, a batch could be
        // caught reading when the restart took the write lock and be refused
        // at once ("database is locked": no busy handler for a reader that
        // would write), or wait in its busy handler, which sleeps 1, 2, 5, 10,
        // 15, 20, 25… ms between tries and so on after the restart ended
        // (docs/benchmarks.md, session 15).
        let last = tries == RESTART_QUICK_TRIES;
        let writer = slot.conn.lock().await;
        let holding = std::time::Instant::now();
        let restart = restart_wal(checkpointer, last).await;
        drop(writer);
        held += holding.elapsed();
        match restart {
            // A reader still in the WAL: the writer goes on, and the last try
            // waits for the readers (they are short).
            Ok(false) if !last => tokio::time::sleep(Duration::from_millis(1)).await,
            done => return (done, held, tries),
        }
    }
}

/// The checkpointer, on a connection of its own while the store lives.
///
/// A PASSIVE checkpoint copies the WAL's frames into the database without
/// blocking the writer, but it never restarts the WAL: only a writer does,
/// when its transaction begins with every frame copied and no reader in the
/// WAL — under a steady stream of commits and reads that moment never comes,
/// and the file grew by the megabytes a second it was written (1.4 GB in 45 s
/// at 3,000 bench games; docs/benchmarks.md). So once the WAL holds
/// `restart_frames`, a RESTART checkpoint follows, between two of the
/// writer's batches (it holds the writing connection): it copies what is
/// left and leaves the WAL for the next writer to start from its beginning,
/// which then cuts the file back to `size_limit`. The writer waits for it once
/// in a while; two PASSIVE checkpoints have done nearly all its work. A
/// restart that finds a reader in the WAL gives way to the writer and is tried
/// again; the last of [`RESTART_QUICK_TRIES`] waits for the readers (they are
/// short).
async fn checkpoints(checkpointer: SqlitePool, alive: std::sync::Weak<WriteSlot>, wal: WalLimits) {
    while alive.strong_count() > 0 {
        tokio::time::sleep(wal.every).await;
        let passive_began = std::time::Instant::now();
        let passive: std::result::Result<(i64, i64, i64), _> =
            sqlx::query_as("PRAGMA wal_checkpoint(PASSIVE)")
                .fetch_one(&checkpointer)
                .await;
        match passive {
            Ok((_, frames, copied)) if frames >= wal.restart_frames => {
                let Some(slot) = alive.upgrade() else { break };
                let passive_took = passive_began.elapsed();
                // Once more, for what was committed while the first one
                // copied (20–50 ms at 10,000 moves/s): the restart, which the
                // writer waits for, is left a few milliseconds' frames, and
                // takes half as long (docs/benchmarks.md, session 15).
                let again: std::result::Result<(i64, i64, i64), _> =
                    sqlx::query_as("PRAGMA wal_checkpoint(PASSIVE)")
                        .fetch_one(&checkpointer)
                        .await;
                let began = std::time::Instant::now();
                match &again {
                    Ok(again) => tracing::debug!(
                        ?passive_took,
                        frames,
                        copied,
                        ?again,
                        "WAL passive checkpoints before a restart"
                    ),
                    Err(e) => tracing::warn!("WAL checkpoint failed: {e}"),
                }
                let (restart, held, tries) = restart_between_batches(&checkpointer, &slot).await;
                drop(slot);
                tracing::debug!(took = ?began.elapsed(), ?held, tries, frames, "WAL restart checkpoint");
                match restart {
                    Ok(true) => {}
                    Ok(false) => tracing::debug!(
                        "WAL restart checkpoint could not finish within the busy timeout; next time"
                    ),
                    Err(e) => tracing::warn!("WAL checkpoint failed: {e}"),
                }
            }
            Ok(_) => {}
            Err(e) => tracing::warn!("WAL checkpoint failed: {e}"),
        }
    }
    checkpointer.close().await;
}

impl SqliteStore {
    /// Opens (creating if needed) the database file `url` names (`sqlite://PATH`,
    /// `sqlite:PATH` or a plain path), in WAL mode.
    pub async fn open(url: &str) -> Result<Self> {
        Self::open_with(url, WalLimits::default()).await
    }

    pub(crate) async fn open_with(url: &str, wal: WalLimits) -> Result<Self> {
        let path = url
            .strip_prefix("sqlite://")
            .or_else(|| url.strip_prefix("sqlite:"))
            .unwrap_or(url);
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            // With WAL, NORMAL loses nothing when the process dies (the crash that
            // matters here); only a power cut may lose the last commits.
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(Duration::from_secs(10))
            .foreign_keys(true);
        // Checkpoints copy the WAL into the database and sync it: done on the
        // writer they would stall every table's next commit, so a connection of
        // their own does them in the background ([`checkpoints`]).
        let mut conn = options
            .clone()
            .pragma("wal_autocheckpoint", "0")
            .pragma("journal_size_limit", wal.size_limit.to_string())
            // Every append inserts into the log's key at its table's place: at
            // thousands of live tables the default 2 MB cache no longer holds
            // those pages (the profile at 9,000 games showed the inserts
            // reading pages back from the file).
            .pragma("cache_size", WRITER_CACHE_KIB)
            .connect()
            .await
            .map_err(|e| StoreError::Config {
                url: url.to_string(),
                message: e.to_string(),
            })?;
        run_migrations!(&mut conn, migrate::SQLITE)?;
        let write = Arc::new(WriteSlot {
            conn: tokio::sync::Mutex::new(conn),
        });
        let checkpointer = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(options.clone().busy_timeout(Duration::ZERO))
            .await?;
        if tokio::runtime::Handle::try_current().is_ok() {
            // On a thread of its own: while it holds the writing connection,
            // its answer must not wait for a worker of the server's runtime.
            group::runtime_thread(
                "qiyuan-sqlite-checkpoint",
                checkpoints(checkpointer, Arc::downgrade(&write), wal),
            )
            .map_err(|e| StoreError::Database(sqlx::Error::Io(e)))?;
        }
        // A connection to a local file does not go stale: a check before each
        // use (a trip to sqlx's SQLite thread and back) would find nothing.
        let read = SqlitePoolOptions::new()
            .max_connections(4)
            .test_before_acquire(false)
            .connect_with(options.read_only(true))
            .await?;
        let store = SqliteStore {
            // The writer task keeps the connection (and with it the
            // checkpointer) alive while the store is.
            appends: GroupWriter::start(sqlite_batches(write), Some(SQLITE_LINGER)),
            read,
        };
        store.backfill_skeletons().await?;
        Ok(store)
    }
}

/// The PostgreSQL store. Log appends go through the group writer
/// (crate::group), one statement per batch; its other writes use the pool
/// ([`PostgresStore::write`], [`PostgresStore::batched`]).
#[derive(Debug, Clone)]
pub struct PostgresStore {
    pub(crate) write: PgPool,
    pub(crate) read: PgPool,
    pub(crate) appends: GroupWriter<PgJob>,
    pub(crate) thread: Arc<PgThread>,
}

impl PostgresStore {
    /// Connects to `url`. A `schema=NAME` query parameter puts the store in that
    /// schema, created if missing.
    pub async fn open(url: &str) -> Result<Self> {
        let config_err = |message: String| StoreError::Config {
            url: url.to_string(),
            message,
        };
        let (base, schema) = split_schema(url);
        let mut options =
            PgConnectOptions::from_str(&base).map_err(|e| config_err(e.to_string()))?;
        // One direct connection first: an unreachable server fails at once with its
        // own message instead of after the pool's retries.
        {
            use sqlx::Connection;
            let probe = sqlx::PgConnection::connect_with(&options)
                .await
                .map_err(|e| config_err(e.to_string()))?;
            let _ = probe.close().await;
        }
        if let Some(schema) = &schema {
            if !schema
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_')
                || schema.is_empty()
            {
                return Err(config_err(format!("bad schema name {schema:?}")));
            }
            // Create it through a connection without the search path.
            let pool = PgPoolOptions::new()
                .max_connections(1)
                .connect_with(options.clone())
                .await
                .map_err(|e| config_err(e.to_string()))?;
            sqlx::raw_sql(&format!("CREATE SCHEMA IF NOT EXISTS {schema}"))
                .execute(&pool)
                .await?;
            pool.close().await;
            options = options.options([("search_path", schema.as_str())]);
        }
        let pool = PgPoolOptions::new()
            .max_connections(16)
            // No ping before each use: a round trip more for every read and
            // write, during which the connection is held (at 9,000 games the
            // writes waited hundreds of milliseconds for one). A connection
            // that broke while idle (PostgreSQL restarted) fails its next use
            // once; one that fails is not returned to the pool (sqlx pings it
            // when it is given back).
            .test_before_acquire(false)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(options.clone())
            .await
            .map_err(|e| config_err(e.to_string()))?;
        run_migrations!(&pool, migrate::POSTGRES)?;
        let store = PostgresStore {
            thread: Arc::new(PgThread::start()?),
            write: pool.clone(),
            appends: GroupWriter::start(postgres_batches(options), Some(POSTGRES_LINGER)),
            read: pool,
        };
        store.backfill_skeletons().await?;
        Ok(store)
    }
}

/// Takes `schema=NAME` out of a URL's query.
fn split_schema(url: &str) -> (String, Option<String>) {
    let Some((base, query)) = url.split_once('?') else {
        return (url.to_string(), None);
    };
    let mut schema = None;
    let rest: Vec<&str> = query
        .split('&')
        .filter(|kv| match kv.strip_prefix("schema=") {
            Some(name) => {
                schema = Some(name.to_string());
                false
            }
            None => !kv.is_empty(),
        })
        .collect();
    if rest.is_empty() {
        (base.to_string(), schema)
    } else {
        (format!("{base}?{}", rest.join("&")), schema)
    }
}

/// A game's row as both stores insert it, its values `$1`–`$7`
/// ([`bind_game_row`]); nothing if the game's id exists.
macro_rules! insert_game_row {
    () => {
        "INSERT INTO games (id, table_id, number, game, settings, status, rated, started_at, private) \
         VALUES ($1, $2, $3, $4, $5, 'live', $6, $7, $8) ON CONFLICT (id) DO NOTHING"
    };
}

/// [`insert_game_row`]'s statement with the game's values bound.
fn bind_game_row<'q, DB: sqlx::Database>(
    query: sqlx::query::Query<'q, DB, DB::Arguments<'q>>,
    game: &'q NewGame,
) -> sqlx::query::Query<'q, DB, DB::Arguments<'q>>
where
    &'q str: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    i64: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    bool: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
{
    query
        .bind(game.id.as_str())
        .bind(game.table_id.as_str())
        .bind(game.number)
        .bind(game.game.as_str())
        .bind(game.settings.as_str())
        .bind(game.rated)
        .bind(game.started_at)
        .bind(game.private)
}

impl SqliteStore {
    /// A game's row and its players' in one transaction (on the writer's
    /// connection, within its batch's); nothing if the game's row exists.
    async fn insert_game(c: &mut SqliteConnection, game: &NewGame) -> Result<()> {
        let mut tx = c.begin().await?;
        let done = bind_game_row(sqlx::query(insert_game_row!()), game)
            .execute(&mut *tx)
            .await?;
        if done.rows_affected() == 0 {
            return Ok(());
        }
        for p in &game.players {
            sqlx::query(
                "INSERT INTO game_players (game_id, seat, user_id, name, rating) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(&game.id)
            .bind(p.seat)
            .bind(p.user_id)
            .bind(&p.name)
            .bind(p.rating)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }
}

/// A game's row and its players' rows as one statement (its own transaction,
/// one round trip where a transaction of one statement a row took four more):
/// the players' rows only if the game's row is new. Their foreign key to the
/// game's row is checked at the statement's end, which sees it.
const START_GAME_PG: &str = concat!(
    "WITH g AS (",
    insert_game_row!(),
    " RETURNING id) \
     INSERT INTO game_players (game_id, seat, user_id, name, rating) \
     SELECT g.id, p.seat, p.user_id, p.name, p.rating FROM g CROSS JOIN \
       UNNEST($9::bigint[], $10::bigint[], $11::text[], $12::bigint[]) AS p(seat, user_id, name, rating)"
);

impl PostgresStore {
    /// A game's row and its players' ([`START_GAME_PG`]); nothing if the
    /// game's row exists.
    async fn insert_game(c: &mut sqlx::PgConnection, game: &NewGame) -> Result<()> {
        let seats: Vec<i64> = game.players.iter().map(|p| p.seat).collect();
        let users: Vec<Option<i64>> = game.players.iter().map(|p| p.user_id).collect();
        let names: Vec<&str> = game.players.iter().map(|p| p.name.as_str()).collect();
        let ratings: Vec<Option<i64>> = game.players.iter().map(|p| p.rating).collect();
        bind_game_row(sqlx::query(START_GAME_PG), game)
            .bind(&seats)
            .bind(&users)
            .bind(&names)
            .bind(&ratings)
            .execute(c)
            .await?;
        Ok(())
    }
}

const USER_COLUMNS: &str = "id, username, password_hash, guest, created_at";
const GAME_COLUMNS: &str = "g.id, g.table_id, g.number, g.game, g.settings, g.status, g.rated, g.started_at, g.ended_at, g.result, g.record";

/// The condition, on games `g` joined to their players `p`, that the game is
/// one of user `$1`'s that lists show (not private): what
/// [`Store::games_of_user`] lists and [`Store::count_games_of_user`] counts.
const USER_GAMES: &str = "p.user_id = $1 AND NOT g.private";

/// A game's player with the game's id: how the players of several games come
/// back in one query ([`SqliteStore::players_of`], [`PostgresStore::players_of`]).
#[derive(sqlx::FromRow)]
struct GamePlayer {
    game_id: String,
    #[sqlx(flatten)]
    player: Player,
}

/// The query of the [`GamePlayer`]s of several games, in seat order; `$games`
/// says which games the backend's way (an array, a JSON list).
macro_rules! players_of_games {
    ($games:literal) => {
        concat!(
            "SELECT game_id, seat, user_id, name, rating, rating_diff FROM game_players \
             WHERE game_id ",
            $games,
            " ORDER BY game_id, seat"
        )
    };
}

/// Gives each game its players, from the players of all of them in seat order
/// (a game listed twice gets them twice).
fn attach_players(games: &mut [GameRow], players: Vec<GamePlayer>) {
    let mut by_game: std::collections::HashMap<String, Vec<Player>> =
        std::collections::HashMap::new();
    for p in players {
        by_game.entry(p.game_id).or_default().push(p.player);
    }
    for game in games {
        game.players = by_game.get(&game.id).cloned().unwrap_or_default();
    }
}

impl SqliteStore {
    /// The players of the games `ids`, in one query: the ids go in as one JSON
    /// array (SQLite has no array type to bind).
    async fn players_of(&self, ids: &[&str]) -> Result<Vec<GamePlayer>> {
        Ok(
            sqlx::query_as(players_of_games!("IN (SELECT value FROM json_each($1))"))
                .bind(sqlx::types::Json(ids))
                .fetch_all(&self.read)
                .await?,
        )
    }
}

impl PostgresStore {
    /// The players of the games `ids`, in one query (the ids as one array).
    async fn players_of(&self, ids: &[&str]) -> Result<Vec<GamePlayer>> {
        Ok(sqlx::query_as(players_of_games!("= ANY($1)"))
            .bind(ids)
            .fetch_all(&self.read)
            .await?)
    }
}

/// An API token and its user, as [`Store::api_token`] reads them in one row
/// (the token's own columns renamed beside the user's).
#[derive(sqlx::FromRow)]
struct TokenUser {
    #[sqlx(flatten)]
    user: User,
    token_id: String,
    token_hash: String,
    description: String,
    scopes: String,
    token_created_at: i64,
}

impl TokenUser {
    /// The token (its `user_id` the user's) and the user.
    fn split(self) -> (ApiTokenRow, User) {
        let token = ApiTokenRow {
            id: self.token_id,
            token_hash: self.token_hash,
            user_id: self.user.id,
            description: self.description,
            scopes: self.scopes,
            created_at: self.token_created_at,
        };
        (token, self.user)
    }
}

macro_rules! impl_store {
    ($store:ty, $name:literal) => {
        impl $store {
            /// Fills in the skeleton of accounts made before it was kept (or
            /// before its rule last changed). Two old accounts with one skeleton
            /// keep their names; the later one stays without a skeleton (and a
            /// warning is logged).
            async fn backfill_skeletons(&self) -> Result<()> {
                self.write(move |c| Box::pin(async move {
                    let rows: Vec<(i64, String)> =
                        sqlx::query_as("SELECT id, username FROM users WHERE skeleton IS NULL ORDER BY id")
                            .fetch_all(&mut *c)
                            .await?;
                    for (id, name) in rows {
                        let done = sqlx::query("UPDATE users SET skeleton = $1 WHERE id = $2")
                            .bind(username_skeleton(&name))
                            .bind(id)
                            .execute(&mut *c)
                            .await
                            .map_err(conflict("skeleton"));
                        match done {
                            Ok(_) => {}
                            Err(StoreError::Conflict(_)) => {
                                tracing::warn!(user = %name, "username looks like an older one's")
                            }
                            Err(e) => return Err(e),
                        }
                    }
                    Ok(())
                }))
                .await
            }

            /// [`Store::finish_game`], made only if `after`'s log entry is
            /// stored when the write runs (`None` if it is not: nothing
            /// written).
            async fn finish_game_if(&self, finish: &Finish, after: Option<LogMark>) -> Result<Option<bool>> {
                let finish = finish.clone();
                self.batched(move |c| Box::pin(async move {
                    let finish = &finish;
                    if let Some(mark) = &after
                        && !Self::log_holds(&mut *c, mark).await?
                    {
                        return Ok(None);
                    }
                    let update = sqlx::query(
                        "UPDATE games SET status = 'finished', ended_at = $2, result = $3, record = $4 \
                         WHERE id = $1 AND status = 'live'",
                    )
                    .bind(&finish.game_id)
                    .bind(finish.at)
                    .bind(&finish.result)
                    .bind(&finish.record);
                    // A game that changes no rating or points (a casual game,
                    // guests): its row alone, a statement without a
                    // transaction around it (on PostgreSQL one round trip, not
                    // three).
                    if finish.rating_diffs.is_empty() && finish.ratings.is_empty() && finish.points.is_empty() {
                        return Ok(Some(update.execute(&mut *c).await?.rows_affected() > 0));
                    }
                    let mut tx = c.begin().await?;
                    if update.execute(&mut *tx).await?.rows_affected() == 0 {
                        return Ok(Some(false));
                    }
                    for (seat, diff) in &finish.rating_diffs {
                        sqlx::query(
                            "UPDATE game_players SET rating_diff = $3 WHERE game_id = $1 AND seat = $2",
                        )
                        .bind(&finish.game_id)
                        .bind(seat)
                        .bind(diff)
                        .execute(&mut *tx)
                        .await?;
                    }
                    for r in &finish.ratings {
                        sqlx::query(
                            "INSERT INTO ratings (user_id, pool, rating, deviation, volatility, games, updated_at) \
                             VALUES ($1, $2, $3, $4, $5, $6, $7) \
                             ON CONFLICT (user_id, pool) DO UPDATE SET rating = $3, deviation = $4, \
                             volatility = $5, games = $6, updated_at = $7",
                        )
                        .bind(r.user_id)
                        .bind(&r.pool)
                        .bind(r.rating)
                        .bind(r.deviation)
                        .bind(r.volatility)
                        .bind(r.games)
                        .bind(r.updated_at)
                        .execute(&mut *tx)
                        .await?;
                    }
                    for p in &finish.points {
                        sqlx::query(
                            "INSERT INTO points (user_id, game, points, hands, updated_at) \
                             VALUES ($1, $2, $3, 1, $4) \
                             ON CONFLICT (user_id, game) DO UPDATE SET points = points.points + $3, \
                             hands = points.hands + 1, updated_at = $4",
                        )
                        .bind(p.user_id)
                        .bind(&p.game)
                        .bind(p.diff)
                        .bind(finish.at)
                        .execute(&mut *tx)
                        .await?;
                    }
                    tx.commit().await?;
                    Ok(Some(true))
                }))
                .await
            }

            /// [`Store::start_game`], made only if `after`'s log entry is
            /// stored when the write runs (false if it is not: nothing
            /// written).
            async fn start_game_if(&self, game: &NewGame, after: Option<LogMark>) -> Result<bool> {
                let game = game.clone();
                self.batched(move |c| Box::pin(async move {
                    if let Some(mark) = &after
                        && !Self::log_holds(&mut *c, mark).await?
                    {
                        return Ok(false);
                    }
                    Self::insert_game(c, &game).await?;
                    Ok(true)
                }))
                .await
            }

            /// Stops the group writer from taking batches until the pause is
            /// dropped: the appends sent meanwhile are committed together. For
            /// tests of the batching.
            pub async fn pause_appends(&self) -> AppendPause {
                self.appends.pause().await
            }

            /// Appends sent and not yet taken into a batch.
            pub fn appends_waiting(&self) -> usize {
                self.appends.waiting()
            }

            /// The games with their players, read for all of them in one
            /// query ([`Self::players_of`]).
            async fn with_players(&self, mut games: Vec<GameRow>) -> Result<Vec<GameRow>> {
                if games.is_empty() {
                    return Ok(games);
                }
                let ids: Vec<&str> = games.iter().map(|g| g.id.as_str()).collect();
                let players = self.players_of(&ids).await?;
                attach_players(&mut games, players);
                Ok(games)
            }
        }

        #[async_trait]
        impl Store for $store {
            fn backend(&self) -> &'static str {
                $name
            }

            fn game_rows_follow_entries(&self) -> bool {
                $name == "sqlite"
            }

            fn writer_stats(&self) -> WriterStats {
                self.appends.stats()
            }

            async fn create_user(&self, user: NewUser) -> Result<User> {
                self.write(move |c| Box::pin(async move {
                    let user: User = sqlx::query_as(&format!(
                        "INSERT INTO users (username, username_key, skeleton, password_hash, guest, created_at) \
                         VALUES ($1, $2, $3, $4, $5, $6) RETURNING {USER_COLUMNS}"
                    ))
                    .bind(&user.username)
                    .bind(username_key(&user.username))
                    .bind(username_skeleton(&user.username))
                    .bind(&user.password_hash)
                    .bind(user.guest)
                    .bind(user.created_at)
                    .fetch_one(&mut *c)
                    .await
                    .map_err(conflict("username"))?;
                    Ok(user)
                }))
                .await
            }

            async fn user(&self, id: UserId) -> Result<Option<User>> {
                Ok(sqlx::query_as(&format!("SELECT {USER_COLUMNS} FROM users WHERE id = $1"))
                    .bind(id)
                    .fetch_optional(&self.read)
                    .await?)
            }

            async fn user_by_name(&self, username: &str) -> Result<Option<User>> {
                Ok(sqlx::query_as(&format!(
                    "SELECT {USER_COLUMNS} FROM users WHERE username_key = $1"
                ))
                .bind(username_key(username))
                .fetch_optional(&self.read)
                .await?)
            }

            async fn create_session(
                &self,
                token: &str,
                user: UserId,
                now: i64,
                expires_at: i64,
            ) -> Result<()> {
                let token = token.to_owned();
                self.write(move |c| Box::pin(async move {
                    let token: &str = &token;
                    sqlx::query(
                        "INSERT INTO sessions (token, user_id, created_at, expires_at) \
                         VALUES ($1, $2, $3, $4)",
                    )
                    .bind(token)
                    .bind(user)
                    .bind(now)
                    .bind(expires_at)
                    .execute(&mut *c)
                    .await
                    .map_err(conflict("session"))?;
                    Ok(())
                }))
                .await
            }

            async fn session_user(&self, token: &str, now: i64) -> Result<Option<User>> {
                let token = token.to_owned();
                self.read_on(move |read| async move {
                        Ok(sqlx::query_as(concat!(
                            "SELECT u.id, u.username, u.password_hash, u.guest, u.created_at \
                             FROM sessions s JOIN users u ON u.id = s.user_id \
                             WHERE s.token = $1 AND s.expires_at > $2 AND ",
                            not_banned!()
                        ))
                        .bind(token)
                        .bind(now)
                        .fetch_optional(&read)
                        .await?)
                    })
                    .await
            }

            async fn session_expires_at(&self, token_hash: &str) -> Result<Option<i64>> {
                let token_hash = token_hash.to_owned();
                self.read_on(move |read| async move {
                    Ok(sqlx::query_scalar("SELECT expires_at FROM sessions WHERE token = $1")
                        .bind(token_hash)
                        .fetch_optional(&read)
                        .await?)
                })
                .await
            }

            async fn delete_session(&self, token_hash: &str) -> Result<()> {
                let token_hash = token_hash.to_owned();
                self.write(move |c| Box::pin(async move {
                    let token_hash: &str = &token_hash;
                    sqlx::query("DELETE FROM sessions WHERE token = $1")
                        .bind(token_hash)
                        .execute(&mut *c)
                        .await?;
                    Ok(())
                }))
                .await
            }

            async fn delete_user_sessions(&self, user: UserId) -> Result<u64> {
                self.write(move |c| Box::pin(async move {
                    let done = sqlx::query("DELETE FROM sessions WHERE user_id = $1")
                        .bind(user)
                        .execute(&mut *c)
                        .await?;
                    Ok(done.rows_affected())
                }))
                .await
            }

            async fn create_api_token(&self, token: &NewApiToken) -> Result<()> {
                let token = token.clone();
                self.write(move |c| Box::pin(async move {
                    let token = &token;
                    sqlx::query(
                        "INSERT INTO api_tokens (token_hash, id, user_id, description, scopes, created_at) \
                         VALUES ($1, $2, $3, $4, $5, $6)",
                    )
                    .bind(&token.token_hash)
                    .bind(&token.id)
                    .bind(token.user_id)
                    .bind(&token.description)
                    .bind(&token.scopes)
                    .bind(token.created_at)
                    .execute(&mut *c)
                    .await
                    .map_err(conflict("api token"))?;
                    Ok(())
                }))
                .await
            }

            async fn api_token(&self, token_hash: &str) -> Result<Option<(ApiTokenRow, User)>> {
                let row: Option<TokenUser> = sqlx::query_as(concat!(
                    "SELECT t.token_hash, t.id AS token_id, t.description, t.scopes, \
                     t.created_at AS token_created_at, \
                     u.id, u.username, u.password_hash, u.guest, u.created_at \
                     FROM api_tokens t JOIN users u ON u.id = t.user_id \
                     WHERE t.token_hash = $1 AND ",
                    not_banned!()
                ))
                .bind(token_hash)
                .fetch_optional(&self.read)
                .await?;
                Ok(row.map(TokenUser::split))
            }

            async fn api_tokens_of(&self, user: UserId) -> Result<Vec<ApiTokenRow>> {
                Ok(sqlx::query_as(
                    "SELECT token_hash, id, user_id, description, scopes, created_at \
                     FROM api_tokens WHERE user_id = $1 ORDER BY created_at DESC, id",
                )
                .bind(user)
                .fetch_all(&self.read)
                .await?)
            }

            async fn delete_api_token(&self, user: UserId, id: &str) -> Result<Option<String>> {
                let id = id.to_owned();
                self.write(move |c| Box::pin(async move {
                    let id: &str = &id;
                    let hash: Option<String> = sqlx::query_scalar(
                        "DELETE FROM api_tokens WHERE user_id = $1 AND id = $2 RETURNING token_hash",
                    )
                    .bind(user)
                    .bind(id)
                    .fetch_optional(&mut *c)
                    .await?;
                    Ok(hash)
                }))
                .await
            }

            async fn make_bot(&self, user: UserId, now: i64) -> Result<bool> {
                self.write(move |c| Box::pin(async move {
                    let done = sqlx::query(
                        "INSERT INTO bot_accounts (user_id, upgraded_at) VALUES ($1, $2) \
                         ON CONFLICT (user_id) DO NOTHING",
                    )
                    .bind(user)
                    .bind(now)
                    .execute(&mut *c)
                    .await?;
                    Ok(done.rows_affected() == 1)
                }))
                .await
            }

            async fn is_bot(&self, user: UserId) -> Result<bool> {
                let found: Option<i64> =
                    sqlx::query_scalar("SELECT user_id FROM bot_accounts WHERE user_id = $1")
                        .bind(user)
                        .fetch_optional(&self.read)
                        .await?;
                Ok(found.is_some())
            }

            async fn delete_expired_sessions(&self, now: i64) -> Result<u64> {
                self.write(move |c| Box::pin(async move {
                    let done = sqlx::query("DELETE FROM sessions WHERE expires_at <= $1")
                        .bind(now)
                        .execute(&mut *c)
                        .await?;
                    Ok(done.rows_affected())
                }))
                .await
            }

            async fn ratings(&self, user: UserId) -> Result<Vec<RatingRow>> {
                Ok(sqlx::query_as("SELECT * FROM ratings WHERE user_id = $1 ORDER BY pool")
                    .bind(user)
                    .fetch_all(&self.read)
                    .await?)
            }

            async fn rating(&self, user: UserId, pool: &str) -> Result<Option<RatingRow>> {
                Ok(sqlx::query_as("SELECT * FROM ratings WHERE user_id = $1 AND pool = $2")
                    .bind(user)
                    .bind(pool)
                    .fetch_optional(&self.read)
                    .await?)
            }

            async fn points(&self, user: UserId, game: &str) -> Result<Option<PointsRow>> {
                Ok(sqlx::query_as(
                    "SELECT p.user_id, u.username, p.game, p.points, p.hands, p.updated_at \
                     FROM points p JOIN users u ON u.id = p.user_id \
                     WHERE p.user_id = $1 AND p.game = $2",
                )
                .bind(user)
                .bind(game)
                .fetch_optional(&self.read)
                .await?)
            }

            async fn points_leaderboard(&self, game: &str, limit: i64) -> Result<Vec<PointsRow>> {
                Ok(sqlx::query_as(
                    "SELECT p.user_id, u.username, p.game, p.points, p.hands, p.updated_at \
                     FROM points p JOIN users u ON u.id = p.user_id \
                     WHERE p.game = $1 \
                     ORDER BY p.points DESC, p.hands DESC, u.username_key ASC LIMIT $2",
                )
                .bind(game)
                .bind(limit)
                .fetch_all(&self.read)
                .await?)
            }

            async fn user_settings(&self, user: UserId) -> Result<Option<String>> {
                Ok(sqlx::query_scalar("SELECT settings FROM user_settings WHERE user_id = $1")
                    .bind(user)
                    .fetch_optional(&self.read)
                    .await?)
            }

            async fn set_user_settings(&self, user: UserId, settings: &str, now: i64) -> Result<()> {
                let settings = settings.to_owned();
                self.write(move |c| Box::pin(async move {
                    let settings: &str = &settings;
                    sqlx::query(
                        "INSERT INTO user_settings (user_id, settings, updated_at) VALUES ($1, $2, $3) \
                         ON CONFLICT (user_id) DO UPDATE SET settings = $2, updated_at = $3",
                    )
                    .bind(user)
                    .bind(settings)
                    .bind(now)
                    .execute(&mut *c)
                    .await?;
                    Ok(())
                }))
                .await
            }

            async fn create_table(&self, table: &TableRow) -> Result<()> {
                let table = table.clone();
                self.batched(move |c| Box::pin(async move {
                    let table = &table;
                    sqlx::query(
                        "INSERT INTO tables (id, game, config, open, created_at) VALUES ($1, $2, $3, $4, $5)",
                    )
                    .bind(&table.id)
                    .bind(&table.game)
                    .bind(&table.config)
                    .bind(table.open)
                    .bind(table.created_at)
                    .execute(&mut *c)
                    .await
                    .map_err(conflict("table id"))?;
                    Ok(())
                }))
                .await
            }

            async fn table(&self, id: &str) -> Result<Option<TableRow>> {
                Ok(sqlx::query_as("SELECT * FROM tables WHERE id = $1")
                    .bind(id)
                    .fetch_optional(&self.read)
                    .await?)
            }

            async fn open_tables(&self) -> Result<Vec<TableRow>> {
                Ok(sqlx::query_as("SELECT * FROM tables WHERE open ORDER BY created_at, id")
                    .fetch_all(&self.read)
                    .await?)
            }

            async fn close_table(&self, id: &str) -> Result<()> {
                let id = id.to_owned();
                self.batched(move |c| Box::pin(async move {
                    let id: &str = &id;
                    sqlx::query("UPDATE tables SET open = FALSE WHERE id = $1")
                        .bind(id)
                        .execute(&mut *c)
                        .await?;
                    Ok(())
                }))
                .await
            }

            async fn start_game(&self, game: &NewGame) -> Result<()> {
                self.start_game_if(game, None).await.map(|_| ())
            }

            async fn start_game_after(&self, game: &NewGame, after: &LogMark) -> Result<bool> {
                self.start_game_if(game, Some(after.clone())).await
            }

            async fn game(&self, id: &str) -> Result<Option<GameRow>> {
                let game: Option<GameRow> =
                    sqlx::query_as(&format!("SELECT {GAME_COLUMNS} FROM games g WHERE g.id = $1"))
                        .bind(id)
                        .fetch_optional(&self.read)
                        .await?;
                let Some(game) = game else { return Ok(None) };
                let games = self.with_players(vec![game]).await?;
                Ok(games.into_iter().next())
            }

            async fn games_of_table(&self, table: &str) -> Result<Vec<GameRow>> {
                let games = sqlx::query_as(&format!(
                    "SELECT {GAME_COLUMNS} FROM games g WHERE g.table_id = $1 ORDER BY g.number"
                ))
                .bind(table)
                .fetch_all(&self.read)
                .await?;
                self.with_players(games).await
            }

            async fn games_of_user(&self, user: UserId, limit: i64) -> Result<Vec<GameRow>> {
                let games = sqlx::query_as(&format!(
                    "SELECT {GAME_COLUMNS} FROM games g JOIN game_players p ON p.game_id = g.id \
                     WHERE {USER_GAMES} ORDER BY g.started_at DESC, g.id LIMIT $2"
                ))
                .bind(user)
                .bind(limit)
                .fetch_all(&self.read)
                .await?;
                self.with_players(games).await
            }

            async fn count_games_of_user(&self, user: UserId) -> Result<i64> {
                Ok(sqlx::query_scalar(&format!(
                    "SELECT count(*) FROM games g JOIN game_players p ON p.game_id = g.id \
                     WHERE {USER_GAMES}"
                ))
                .bind(user)
                .fetch_one(&self.read)
                .await?)
            }

            async fn finish_game(&self, finish: &Finish) -> Result<bool> {
                Ok(self.finish_game_if(finish, None).await?.unwrap_or(false))
            }

            async fn finish_game_after(&self, finish: &Finish, after: &LogMark) -> Result<Option<bool>> {
                self.finish_game_if(finish, Some(after.clone())).await
            }
            async fn amend_game(&self, amend: &Finish) -> Result<bool> {
                let amend = amend.clone();
                self.batched(move |c| Box::pin(async move {
                    let amend = &amend;
                    let mut tx = c.begin().await?;
                    let done = sqlx::query(
                        "UPDATE games SET result = $2, record = $3 WHERE id = $1 AND status = 'finished'",
                    )
                    .bind(&amend.game_id)
                    .bind(&amend.result)
                    .bind(&amend.record)
                    .execute(&mut *tx)
                    .await?;
                    if done.rows_affected() == 0 {
                        return Ok(false);
                    }
                    for (seat, diff) in &amend.rating_diffs {
                        sqlx::query(
                            "UPDATE game_players SET rating_diff = $3 WHERE game_id = $1 AND seat = $2",
                        )
                        .bind(&amend.game_id)
                        .bind(seat)
                        .bind(diff)
                        .execute(&mut *tx)
                        .await?;
                    }
                    for r in &amend.ratings {
                        sqlx::query(
                            "UPDATE ratings SET rating = $3, deviation = $4, volatility = $5, \
                             games = $6, updated_at = $7 WHERE user_id = $1 AND pool = $2",
                        )
                        .bind(r.user_id)
                        .bind(&r.pool)
                        .bind(r.rating)
                        .bind(r.deviation)
                        .bind(r.volatility)
                        .bind(r.games)
                        .bind(r.updated_at)
                        .execute(&mut *tx)
                        .await?;
                    }
                    tx.commit().await?;
                    Ok(true)
                }))
                .await
            }

            async fn append(&self, table: &str, version: i64, at: i64, entry: &str) -> Result<()> {
                self.appends.append(table, version, at, entry, None).await
            }

            async fn log(&self, table: &str, after: i64) -> Result<Vec<LogEntry>> {
                Ok(sqlx::query_as(
                    "SELECT version, at_ms, entry FROM table_log \
                     WHERE table_id = $1 AND version > $2 ORDER BY version",
                )
                .bind(table)
                .bind(after)
                .fetch_all(&self.read)
                .await?)
            }
        }
    };
}

impl_store!(SqliteStore, "sqlite");
impl_store!(PostgresStore, "postgres");

#[cfg(test)]
mod tests {
    use super::split_schema;

    #[test]
    fn schema_is_taken_out_of_the_url() {
        assert_eq!(
            split_schema("postgres://root@127.0.0.1/test?schema=t1"),
            (
                "postgres://root@127.0.0.1/test".to_string(),
                Some("t1".to_string())
            )
        );
        assert_eq!(
            split_schema("postgres://h/db?sslmode=disable&schema=x"),
            (
                "postgres://h/db?sslmode=disable".to_string(),
                Some("x".to_string())
            )
        );
        assert_eq!(
            split_schema("postgres://h/db"),
            ("postgres://h/db".to_string(), None)
        );
    }
}

#[cfg(test)]
mod writer_tests {
    use std::time::Duration;

    use super::*;

    fn table_row(id: &str) -> TableRow {
        TableRow {
            id: id.into(),
            game: "chess".into(),
            config: "{}".into(),
            open: true,
            created_at: 1,
        }
    }

    /// Writes waiting together commit in one transaction (the appends waiting
    /// beside them in one of their own), each answered after that commit; one
    /// that fails (a taken username) fails alone.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn waiting_writes_commit_together_and_fail_alone() {
        let dir = tempfile::tempdir().unwrap();
        let store = SqliteStore::open(dir.path().join("q.db").to_str().unwrap())
            .await
            .unwrap();
        store.create_table(&table_row("T1")).await.unwrap();
        let before = store.writer_stats();
        let pause = store.pause_appends().await;
        let mut users = Vec::new();
        for i in 0..50 {
            let store = store.clone();
            // u0 twice: the second is refused.
            let name = format!("u{}", i.max(1) - 1);
            users.push(tokio::spawn(async move {
                store
                    .create_user(NewUser {
                        username: name,
                        password_hash: None,
                        guest: true,
                        created_at: 1,
                    })
                    .await
            }));
        }
        let append = {
            let store = store.clone();
            tokio::spawn(async move { store.append("T1", 1, 5, "e2e4").await })
        };
        while store.appends_waiting() == 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        for user in &users {
            assert!(
                !user.is_finished(),
                "a write was answered before its commit"
            );
        }
        drop(pause);
        append.await.unwrap().unwrap();
        let mut refused = 0;
        for user in users {
            match user.await.unwrap() {
                Ok(_) => {}
                Err(StoreError::Conflict(_)) => refused += 1,
                Err(e) => panic!("{e}"),
            }
        }
        assert_eq!(refused, 1);
        let made: i64 = sqlx::query_scalar("SELECT count(*) FROM users")
            .fetch_one(&store.read)
            .await
            .unwrap();
        assert_eq!(made, 49);
        assert_eq!(store.log("T1", 0).await.unwrap().len(), 1);
        let after = store.writer_stats();
        assert_eq!(after.jobs, before.jobs + 50);
        assert_eq!(after.job_batches, before.job_batches + 1, "one transaction");
        assert_eq!(after.batches, before.batches + 1);
    }

    /// A store in a new folder (kept while the `TempDir` lives) whose
    /// checkpointer keeps `limits`.
    async fn store_with_wal(limits: WalLimits) -> (tempfile::TempDir, SqliteStore) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("q.db");
        let store = SqliteStore::open_with(path.to_str().unwrap(), limits)
            .await
            .unwrap();
        (dir, store)
    }

    /// A write that reads before it writes (its transaction begins as a
    /// reader's) is never refused because the checkpointer is restarting the
    /// WAL. SQLite refuses such a transaction at once, without its busy
    /// handler, when another connection holds the write lock: the restart did,
    /// waiting for the readers, the transaction among them (3 of a 9,000-game
    /// run's HTTP calls failed with "database is locked";
    /// docs/benchmarks.md, session 15). The checkpointer restarts holding the
    /// writing connection now, between two batches.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_write_that_reads_first_is_never_refused_by_a_restart() {
        let (_dir, store) = store_with_wal(WalLimits {
            every: Duration::from_millis(1),
            restart_frames: 1,
            size_limit: 1 << 20,
        })
        .await;
        store.create_table(&table_row("T1")).await.unwrap();
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let reader = {
            let (store, stop) = (store.clone(), stop.clone());
            tokio::spawn(async move {
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    store.log("T1", 0).await.unwrap();
                }
            })
        };
        let started = std::time::Instant::now();
        let mut v = 0;
        while started.elapsed() < Duration::from_secs(3) {
            v += 1;
            let appended = store.append("T1", v, v, "x");
            let read_then_write = store.write(move |conn| {
                Box::pin(async move {
                    let n: i64 = sqlx::query_scalar("SELECT count(*) FROM table_log")
                        .fetch_one(&mut *conn)
                        .await?;
                    sqlx::query("UPDATE tables SET created_at = ? WHERE id = 'T1'")
                        .bind(n)
                        .execute(&mut *conn)
                        .await?;
                    Ok(n)
                })
            });
            let (appended, written) = tokio::join!(appended, read_then_write);
            appended.unwrap();
            written.unwrap_or_else(|e| panic!("after {v} writes: {e}"));
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        reader.await.unwrap();
        assert!(v > 100, "only {v} writes");
    }

    /// Under a steady stream of commits and reads the WAL file stays bounded:
    /// the checkpointer restarts it (a PASSIVE checkpoint alone let it grow by
    /// every frame written).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_wal_stays_bounded_under_steady_writes_and_reads() {
        let (dir, store) = store_with_wal(WalLimits {
            every: Duration::from_millis(50),
            restart_frames: 1024,
            size_limit: 4 << 20,
        })
        .await;
        for id in ["T1", "T2"] {
            store.create_table(&table_row(id)).await.unwrap();
        }
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let mut readers = Vec::new();
        for _ in 0..2 {
            let (store, stop) = (store.clone(), stop.clone());
            readers.push(tokio::spawn(async move {
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    store.log("T1", i64::MAX - 1).await.unwrap();
                    store.table("T2").await.unwrap();
                }
            }));
        }
        let entry = "x".repeat(300);
        let mut largest = 0;
        for v in 1..=6000 {
            let (a, b) = (store.clone(), store.clone());
            let (ea, eb) = (entry.clone(), entry.clone());
            let (x, y) = tokio::join!(async move { a.append("T1", v, v, &ea).await }, async move {
                b.append("T2", v, v, &eb).await
            },);
            x.unwrap();
            y.unwrap();
            if v % 500 == 0 {
                let wal = std::fs::metadata(dir.path().join("q.db-wal"))
                    .unwrap()
                    .len();
                largest = largest.max(wal);
            }
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        for reader in readers {
            reader.await.unwrap();
        }
        assert_eq!(store.log("T1", 0).await.unwrap().len(), 6000);
        assert!(
            largest <= 24 << 20,
            "the WAL file grew to {largest} bytes (restart at 4 MiB of frames, cut to 4 MiB)"
        );
    }
}

#[cfg(test)]
mod game_tests {
    use super::*;

    fn player(seat: i64, user: &User) -> Player {
        Player {
            seat,
            user_id: Some(user.id),
            name: user.username.clone(),
            rating: None,
            rating_diff: None,
        }
    }

    /// A page of games comes with each game's own players in seat order
    /// (read in one query for the page), and the count of a user's games is
    /// the length of their whole list.
    #[tokio::test]
    async fn a_page_of_games_has_its_players_and_the_count_its_length() {
        let dir = tempfile::tempdir().unwrap();
        let store = SqliteStore::open(dir.path().join("q.db").to_str().unwrap())
            .await
            .unwrap();
        let mut users = Vec::new();
        for name in ["ann", "bob", "cid"] {
            let user = store
                .create_user(NewUser {
                    username: name.into(),
                    password_hash: None,
                    guest: false,
                    created_at: 1,
                })
                .await
                .unwrap();
            users.push(user);
        }
        let [ann, bob, cid] = &users[..] else {
            unreachable!()
        };
        let table = TableRow {
            id: "T".into(),
            game: "chess".into(),
            config: "{}".into(),
            open: true,
            created_at: 1,
        };
        store.create_table(&table).await.unwrap();
        // Ann plays Bob, then Cid, then Bob again in private.
        let seatings = [(bob, false), (cid, false), (bob, true)];
        for (number, (other, private)) in seatings.into_iter().enumerate() {
            let number = number as i64 + 1;
            store
                .start_game(&NewGame {
                    id: format!("T-{number}"),
                    table_id: "T".into(),
                    number,
                    game: "chess".into(),
                    settings: "{}".into(),
                    rated: false,
                    started_at: number,
                    players: vec![player(0, other), player(1, ann)],
                    private,
                })
                .await
                .unwrap();
        }
        let listed = store.games_of_user(ann.id, 10).await.unwrap();
        let names =
            |g: &GameRow| -> Vec<String> { g.players.iter().map(|p| p.name.clone()).collect() };
        assert_eq!(
            listed.iter().map(names).collect::<Vec<_>>(),
            [["cid", "ann"], ["bob", "ann"]],
            "newest first, without the private game"
        );
        assert_eq!(store.count_games_of_user(ann.id).await.unwrap(), 2);
        assert_eq!(store.count_games_of_user(cid.id).await.unwrap(), 1);
        let of_table = store.games_of_table("T").await.unwrap();
        assert_eq!(of_table.len(), 3);
        assert!(of_table.iter().all(|g| g.players.len() == 2));
        assert!(store.games_of_table("none").await.unwrap().is_empty());
    }
}
