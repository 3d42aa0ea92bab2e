//! Group commit of the table log: one writer task per store takes every append
//! waiting when it is free and writes them in one transaction, then answers each.
//!
//! A table's actor awaits its append before it acknowledges or broadcasts the
//! move, so the durability rule holds as before (an answer means committed); what
//! changes is that a thousand tables committing at once cost one transaction, not
//! a thousand, and no table waits for a pooled connection. The batch forms while
//! the previous one is committing: with one append waiting the writer commits at
//! once (no timer delays a quiet server's move). Under load, a writer on its own
//! thread (both stores') may linger a moment for more ([`Pace`]): fewer, larger
//! transactions, fewer wake-ups of the threads that write and answer them.
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
//!
//! A backend may send its other writes the same way, as jobs (`J`): SQLite's
//! sign-ups, sessions, tables, game rows and settlements waiting together run
//! in one transaction, each answered after its commit (a job's own error is its
//! own; the commit's failure is every job's; a batch of single-statement jobs
//! only, such as chat lines, runs each in its statement's own implicit
//! transaction, `SqliteStore::write_alone`). The appends waiting beside them
//! are written and answered first, in a transaction of their own, so a move
//! waits for one batch of jobs at most. With one writing
//! connection, a write alone in its transaction cost a queue of handoffs
//! between tasks that, at 9,000 games, held a game's start and end for seconds
//! (docs/benchmarks.md). PostgreSQL can run jobs too, each in a savepoint of
//! the batch's transaction (a failed statement aborts a PostgreSQL
//! transaction), but sends none today: its pool writes them in parallel,
//! which measured faster on a loaded machine (docs/benchmarks.md, issue 48).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

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

/// What a job leaves to do once its batch's commit is known (`Some` error if
/// it failed): answer its caller.
pub(crate) type Answer = Box<dyn FnOnce(Option<&StoreError>) + Send>;

/// Writes one batch in one transaction: the jobs, then the appends; returns
/// what became of the appends and the jobs' answers, given once the commit
/// is known.
pub(crate) type WriteBatch<J> = Arc<
    dyn Fn(Arc<Vec<Append>>, Vec<J>) -> Pin<Box<dyn Future<Output = (Written, Vec<Answer>)> + Send>>
        + Send
        + Sync,
>;

/// What the writer task takes from its queue.
enum Work<J> {
    Append(Append),
    Job(J),
}

/// The handle the store keeps: appends (and jobs) go to the writer task
/// through it.
pub(crate) struct GroupWriter<J> {
    queue: mpsc::UnboundedSender<Work<J>>,
    /// Appends sent and not yet taken into a batch.
    waiting: Arc<AtomicUsize>,
    /// Held for writing by [`GroupWriter::pause`]: the writer takes no batch.
    gate: Arc<RwLock<()>>,
    /// What the writer has done, for `/metrics`.
    stats: Arc<Counts>,
}

impl<J> Clone for GroupWriter<J> {
    fn clone(&self) -> Self {
        GroupWriter {
            queue: self.queue.clone(),
            waiting: self.waiting.clone(),
            gate: self.gate.clone(),
            stats: self.stats.clone(),
        }
    }
}

impl<J> std::fmt::Debug for GroupWriter<J> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GroupWriter")
            .field("waiting", &self.waiting.load(Ordering::Relaxed))
            .finish_non_exhaustive()
    }
}

/// Upper bounds of the batch-size buckets of [`WriterStats::sizes`] (the last,
/// unbounded, is implicit): one append alone, then powers of four up to
/// [`MAX_BATCH`].
pub const BATCH_SIZE_BOUNDS: [u64; 6] = [1, 4, 16, 64, 256, 1024];

/// What a store's group writer has done since it started: how many batches it
/// wrote, how many appends they held, how long writing them took (the first
/// statement to the commit, without the wait in the queue) and how big they
/// were (in appends); how many other writes (jobs) it made, in batches of
/// their own or with appends. The server shows it in `/metrics`; batches that
/// failed count too.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WriterStats {
    pub batches: u64,
    pub appends: u64,
    pub write_us: u64,
    /// Other writes made in the batches (SQLite's), and the batches that held
    /// any (with appends or without).
    pub jobs: u64,
    pub job_batches: u64,
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
    jobs: AtomicU64,
    job_batches: AtomicU64,
    sizes: [AtomicU64; BATCH_SIZE_BOUNDS.len() + 1],
}

impl Counts {
    fn record(&self, size: usize, jobs: usize, took: std::time::Duration) {
        if jobs > 0 {
            self.jobs.fetch_add(jobs as u64, Ordering::Relaxed);
            self.job_batches.fetch_add(1, Ordering::Relaxed);
        }
        if size == 0 {
            return;
        }
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
            jobs: self.jobs.load(Ordering::Relaxed),
            job_batches: self.job_batches.load(Ordering::Relaxed),
            sizes: std::array::from_fn(|i| self.sizes[i].load(Ordering::Relaxed)),
        }
    }
}

/// While alive, the store's writer takes no new batch: appends (and jobs) queue
/// up and are written together when it is dropped. For tests of the batching.
#[derive(Debug)]
pub struct AppendPause {
    _guard: OwnedRwLockWriteGuard<()>,
}

/// The most appends (and jobs) in one transaction (a bound on one batch's
/// memory and on the time its first append waits for the last).
const MAX_BATCH: usize = 4096;

impl<J: Send + 'static> GroupWriter<J> {
    /// Starts the writer task on a thread of its own with a runtime of its own
    /// ([`runtime_thread`]): each of its statements is a trip to sqlx's SQLite
    /// thread or to PostgreSQL and back, and on the server's runtime every
    /// return waited in the run queue behind thousands of sockets' tasks
    /// (docs/benchmarks.md). Called on the server's runtime, where the
    /// answers are handed out.
    ///
    /// `linger`: when appends are arriving fast enough that at least two more
    /// are expected within it, the writer waits this long after taking a
    /// batch for the others before it writes — fewer, larger transactions
    /// under load for a fraction of a millisecond of a move's time, and no
    /// wait at all on a quiet server ([`Pace`]). (A sleep blocks the writer's
    /// thread, which has nothing else to do.)
    pub(crate) fn start(write: WriteBatch<J>, linger: Option<Duration>) -> GroupWriter<J> {
        let (queue, mut rx) = mpsc::unbounded_channel::<Work<J>>();
        let waiting = Arc::new(AtomicUsize::new(0));
        let gate = Arc::new(RwLock::new(()));
        let stats = Arc::new(Counts::default());
        let (count, open, counts) = (waiting.clone(), gate.clone(), stats.clone());
        // The writer hands the answers to a task on the caller's runtime:
        // woken from outside the runtime, each waiting task would go through
        // its global queue, which a busy worker reads once every few dozen
        // tasks it runs.
        let (answerer, mut answers) = mpsc::unbounded_channel::<Box<dyn FnOnce() + Send>>();
        tokio::spawn(async move {
            while let Some(deliver) = answers.recv().await {
                deliver();
            }
        });
        let work = async move {
            let mut batch = Vec::new();
            let mut jobs = Vec::new();
            let mut pace = Pace::default();
            while let Some(first) = rx.recv().await {
                drop(open.read().await);
                take_waiting(first, &mut rx, &mut batch, &mut jobs);
                if let Some(linger) = linger.filter(|&l| pace.expects_more(l))
                    && batch.len() + jobs.len() < MAX_BATCH
                {
                    std::thread::sleep(linger);
                    if let Ok(more) = rx.try_recv() {
                        take_waiting(more, &mut rx, &mut batch, &mut jobs);
                    }
                }
                pace.took(batch.len(), Instant::now());
                count.fetch_sub(batch.len(), Ordering::Relaxed);
                // The appends first, answered before the jobs run: a move
                // waits for one batch of jobs at most, never for those
                // beside it.
                let rounds = if batch.is_empty() || jobs.is_empty() {
                    vec![(std::mem::take(&mut batch), std::mem::take(&mut jobs))]
                } else {
                    vec![
                        (std::mem::take(&mut batch), Vec::new()),
                        (Vec::new(), std::mem::take(&mut jobs)),
                    ]
                };
                for (appends, jobs) in rounds {
                    let shared = Arc::new(appends);
                    let taken = jobs.len();
                    let started = Instant::now();
                    let (written, answers) = write(shared.clone(), jobs).await;
                    counts.record(shared.len(), taken, started.elapsed());
                    let appends = Arc::try_unwrap(shared).unwrap_or_else(|_| {
                        unreachable!("the batch writer keeps no reference to its batch")
                    });
                    let deliver = move || {
                        let failed = written.as_ref().err();
                        for job in answers {
                            job(failed);
                        }
                        answer(appends, written);
                    };
                    let _ = answerer.send(Box::new(deliver));
                }
            }
        };
        runtime_thread("qiyuan-store-writer", work)
            .expect("cannot start the store's writer thread");
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
        let sent = self.queue.send(Work::Append(Append {
            table: table.to_string(),
            version,
            at,
            entry: entry.to_string(),
            token,
            done,
        }));
        if sent.is_err() {
            self.waiting.fetch_sub(1, Ordering::Relaxed);
            return Err(StoreError::Batch("the store's writer has stopped".into()));
        }
        answer
            .await
            .unwrap_or_else(|_| Err(StoreError::Batch("the store's writer has stopped".into())))
    }

    /// Sends a job to be run in the next batch; false if the writer has
    /// stopped.
    pub(crate) fn job(&self, job: J) -> bool {
        self.queue.send(Work::Job(job)).is_ok()
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

/// Starts a thread named `name` with a (current-thread) runtime of its own
/// that runs `main` until it ends; returns the runtime's handle, to spawn
/// more on it. Its I/O (a connection opened there) is driven by that thread
/// alone: an answer wakes it at once, whatever the server's runtime is doing.
pub(crate) fn runtime_thread<F>(name: &str, main: F) -> std::io::Result<tokio::runtime::Handle>
where
    F: Future<Output = ()> + Send + 'static,
{
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let handle = runtime.handle().clone();
    std::thread::Builder::new()
        .name(name.into())
        .spawn(move || runtime.block_on(main))?;
    Ok(handle)
}

/// Takes `work` into the batch, and whatever else is waiting, up to
/// [`MAX_BATCH`].
fn take_waiting<J>(
    work: Work<J>,
    rx: &mut mpsc::UnboundedReceiver<Work<J>>,
    batch: &mut Vec<Append>,
    jobs: &mut Vec<J>,
) {
    let mut next = Some(work);
    while let Some(work) = next.take() {
        match work {
            Work::Append(append) => batch.push(append),
            Work::Job(job) => jobs.push(job),
        }
        if batch.len() + jobs.len() < MAX_BATCH {
            next = rx.try_recv().ok();
        }
    }
}

/// How fast appends reach the writer: the appends taken per second over the
/// last whole window of [`Pace::WINDOW`] (one batch's gap says little: table
/// tasks wake in bursts, so two batches a tenth of a millisecond apart would
/// read as a rate ten times the real one).
#[derive(Debug, Default)]
struct Pace {
    /// The current window's start and the appends taken in it so far.
    window: Option<(Instant, usize)>,
    per_sec: f64,
}

impl Pace {
    const WINDOW: Duration = Duration::from_millis(50);

    /// Notes a batch of `appends` taken at `now`.
    fn took(&mut self, appends: usize, now: Instant) {
        let (start, taken) = self.window.get_or_insert((now, 0));
        *taken += appends;
        let elapsed = now.duration_since(*start);
        if elapsed >= Self::WINDOW {
            self.per_sec = *taken as f64 / elapsed.as_secs_f64();
            self.window = Some((now, 0));
        }
    }

    /// Whether at least two more appends are expected within `linger`.
    fn expects_more(&self, linger: Duration) -> bool {
        self.per_sec * linger.as_secs_f64() >= 2.0
    }
}

/// Answers every append of a batch.
fn answer(appends: Vec<Append>, written: Written) {
    if appends.is_empty() {
        return;
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` batches of `size` appends taken `every` apart, from `start`.
    fn steady(pace: &mut Pace, start: Instant, n: u32, size: usize, every: Duration) -> Instant {
        let mut at = start;
        for _ in 0..n {
            at += every;
            pace.took(size, at);
        }
        at
    }

    #[test]
    fn a_quiet_writer_never_lingers() {
        let mut pace = Pace::default();
        let linger = Duration::from_millis(1);
        assert!(!pace.expects_more(linger), "nothing measured yet");
        // A move every millisecond (a thousand a second, one expected within
        // the linger), taken in bursts: two batches 0.1 ms apart, then 1.9 ms
        // of nothing.
        let mut at = Instant::now();
        for _ in 0..100 {
            at += Duration::from_micros(100);
            pace.took(1, at);
            at += Duration::from_micros(1900);
            pace.took(1, at);
            assert!(!pace.expects_more(linger), "{pace:?}");
        }
    }

    #[test]
    fn a_busy_writer_lingers_and_stops_when_the_load_goes() {
        let mut pace = Pace::default();
        let linger = Duration::from_millis(1);
        // Eight appends every 1.5 ms: about 5,300 a second, five within a millisecond.
        let at = steady(
            &mut pace,
            Instant::now(),
            100,
            8,
            Duration::from_micros(1500),
        );
        assert!(pace.expects_more(linger), "{pace:?}");
        // The load stops: the next batch is one append, a second later.
        steady(&mut pace, at, 1, 1, Duration::from_secs(1));
        assert!(!pace.expects_more(linger), "{pace:?}");
    }
}
