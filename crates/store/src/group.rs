//! Group commit of the table log: one writer task per store takes every append
//! waiting when it is free and writes them in one transaction, then answers each.
//!
//! A table's actor awaits its append before it acknowledges or broadcasts the
//! move, so the durability rule holds as before (an answer means committed); what
//! changes is that a thousand tables committing at once cost one transaction, not
//! a thousand, and no table waits for a pooled connection. The batch forms while
//! the previous one is committing: with one append waiting the writer commits at
//! once (no timer delays a quiet server's move).
//!
//! Outcomes: an append whose version exists is a [`StoreError::Conflict`] of its
//! own and changes nothing, the others of its batch commit (the trait's rule for
//! one append); a fenced append (several nodes: it carries a lease's fencing
//! token, [`crate::LeaseStore::append_fenced`]) whose token is not the table's
//! lease's any more is a [`StoreError::Fenced`] of its own the same way — its
//! token is checked inside the batch's transaction, under a share lock on the
//! lease rows, so a takeover either waits for the batch or the batch sees the
//! new token; any other failure (the statement, the commit, the connection)
//! fails every append of the batch with [`StoreError::Batch`] and commits none.
//! Appends are written in the order they arrived, so a table's entries stay in
//! order (its actor sends the next only after the previous one's answer anyway).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use tokio::sync::{OwnedRwLockWriteGuard, RwLock, mpsc, oneshot};

use crate::{Result, StoreError};

/// One append waiting for its batch.
#[derive(Debug)]
pub(crate) struct Append {
    pub table: String,
    pub version: i64,
    pub at: i64,
    pub entry: String,
    /// The fencing token it must carry to be written (several nodes).
    pub token: Option<i64>,
    done: oneshot::Sender<Result<()>>,
}

/// What became of one append of a committed batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outcome {
    Inserted,
    /// Its version existed.
    Exists,
    /// Its token is not the table's lease's.
    Fenced,
}

/// What writing a batch did: each append's outcome, in order. An error means
/// nothing was committed.
pub(crate) type Written = std::result::Result<Vec<Outcome>, StoreError>;

/// Writes one batch in one transaction.
pub(crate) type WriteBatch =
    Arc<dyn Fn(Arc<Vec<Append>>) -> Pin<Box<dyn Future<Output = Written> + Send>> + Send + Sync>;

/// The handle the store keeps: appends go to the writer task through it.
#[derive(Debug, Clone)]
pub(crate) struct GroupWriter {
    queue: mpsc::UnboundedSender<Append>,
    /// Appends sent and not yet taken into a batch.
    waiting: Arc<AtomicUsize>,
    /// Held for writing by [`GroupWriter::pause`]: the writer takes no batch.
    gate: Arc<RwLock<()>>,
    /// What the writer has done, for `/metrics`.
    stats: Arc<Counts>,
}

/// Upper bounds of the batch-size buckets of [`WriterStats::sizes`] (the last,
/// unbounded, is implicit): one append alone, then powers of four up to
/// [`MAX_BATCH`].
pub const BATCH_SIZE_BOUNDS: [u64; 6] = [1, 4, 16, 64, 256, 1024];

/// What a store's group writer has done since it started: how many batches it
/// wrote, how many appends they held, how long writing them took (the first
/// statement to the commit, without the wait in the queue) and how big they
/// were. The server shows it in `/metrics`; batches that failed count too.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WriterStats {
    pub batches: u64,
    pub appends: u64,
    pub write_us: u64,
    /// Batches by size: `sizes[i]` holds those of at most
    /// `BATCH_SIZE_BOUNDS[i]` appends (and more than the bound before); the last,
    /// those larger than every bound. Not cumulative.
    pub sizes: [u64; BATCH_SIZE_BOUNDS.len() + 1],
}

#[derive(Debug, Default)]
struct Counts {
    batches: AtomicU64,
    appends: AtomicU64,
    write_us: AtomicU64,
    sizes: [AtomicU64; BATCH_SIZE_BOUNDS.len() + 1],
}

impl Counts {
    fn record(&self, size: usize, took: std::time::Duration) {
        let size = size as u64;
        self.batches.fetch_add(1, Ordering::Relaxed);
        self.appends.fetch_add(size, Ordering::Relaxed);
        let us = u64::try_from(took.as_micros()).unwrap_or(u64::MAX);
        self.write_us.fetch_add(us, Ordering::Relaxed);
        let i = BATCH_SIZE_BOUNDS.partition_point(|&bound| bound < size);
        self.sizes[i].fetch_add(1, Ordering::Relaxed);
    }

    fn snapshot(&self) -> WriterStats {
        WriterStats {
            batches: self.batches.load(Ordering::Relaxed),
            appends: self.appends.load(Ordering::Relaxed),
            write_us: self.write_us.load(Ordering::Relaxed),
            sizes: std::array::from_fn(|i| self.sizes[i].load(Ordering::Relaxed)),
        }
    }
}

/// While alive, the store's writer takes no new batch: appends queue up and are
/// written together when it is dropped. For tests of the batching.
#[derive(Debug)]
pub struct AppendPause {
    _guard: OwnedRwLockWriteGuard<()>,
}

/// The most appends in one transaction (a bound on one batch's memory and on the
/// time its first append waits for the last).
const MAX_BATCH: usize = 4096;

impl GroupWriter {
    /// Starts the writer task on the current runtime.
    pub(crate) fn start(write: WriteBatch) -> GroupWriter {
        let (queue, mut rx) = mpsc::unbounded_channel::<Append>();
        let waiting = Arc::new(AtomicUsize::new(0));
        let gate = Arc::new(RwLock::new(()));
        let stats = Arc::new(Counts::default());
        let (count, open, counts) = (waiting.clone(), gate.clone(), stats.clone());
        tokio::spawn(async move {
            let mut batch = Vec::new();
            while let Some(first) = rx.recv().await {
                drop(open.read().await);
                batch.push(first);
                while batch.len() < MAX_BATCH {
                    match rx.try_recv() {
                        Ok(next) => batch.push(next),
                        Err(_) => break,
                    }
                }
                count.fetch_sub(batch.len(), Ordering::Relaxed);
                let shared = Arc::new(std::mem::take(&mut batch));
                let started = Instant::now();
                let written = write(shared.clone()).await;
                counts.record(shared.len(), started.elapsed());
                let appends = Arc::try_unwrap(shared).unwrap_or_else(|_| {
                    unreachable!("the batch writer keeps no reference to its batch")
                });
                answer(appends, written);
            }
        });
        GroupWriter {
            queue,
            waiting,
            gate,
            stats,
        }
    }

    /// What the writer has done since it started.
    pub(crate) fn stats(&self) -> WriterStats {
        self.stats.snapshot()
    }

    /// Appends one entry (with `token`, only while it is the table's lease's);
    /// returns once its batch is committed (or failed).
    pub(crate) async fn append(
        &self,
        table: &str,
        version: i64,
        at: i64,
        entry: &str,
        token: Option<i64>,
    ) -> Result<()> {
        let (done, answer) = oneshot::channel();
        self.waiting.fetch_add(1, Ordering::Relaxed);
        let sent = self.queue.send(Append {
            table: table.to_string(),
            version,
            at,
            entry: entry.to_string(),
            token,
            done,
        });
        if sent.is_err() {
            self.waiting.fetch_sub(1, Ordering::Relaxed);
            return Err(StoreError::Batch("the store's writer has stopped".into()));
        }
        answer
            .await
            .unwrap_or_else(|_| Err(StoreError::Batch("the store's writer has stopped".into())))
    }

    /// Appends sent and not yet taken into a batch.
    pub(crate) fn waiting(&self) -> usize {
        self.waiting.load(Ordering::Relaxed)
    }

    /// Stops the writer from taking batches until the pause is dropped.
    pub(crate) async fn pause(&self) -> AppendPause {
        AppendPause {
            _guard: self.gate.clone().write_owned().await,
        }
    }
}

/// Answers every append of a batch.
fn answer(appends: Vec<Append>, written: Written) {
    match written {
        Ok(outcomes) => {
            for (append, outcome) in appends.into_iter().zip(outcomes) {
                let result = match outcome {
                    Outcome::Inserted => Ok(()),
                    Outcome::Exists => Err(StoreError::Conflict("log version".into())),
                    Outcome::Fenced => Err(StoreError::Fenced(format!(
                        "table {}: fencing token {} is not the lease's",
                        append.table,
                        append.token.unwrap_or_default()
                    ))),
                };
                let _ = append.done.send(result);
            }
        }
        Err(err) => {
            let n = appends.len();
            tracing::error!("a batch of {n} log appends failed, none committed: {err}");
            let message = err.to_string();
            for append in appends {
                let _ = append.done.send(Err(StoreError::Batch(message.clone())));
            }
        }
    }
}
