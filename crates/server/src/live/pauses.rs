//! Time when nobody could act at a table although its task ran: the server
//! stalled (the whole process stopped, `SIGSTOP`, a VM paused, the machine
//! swapping), or — with several nodes — the bus to the players on other nodes
//! was down. Such time is charged to no clock: a table credits it with a
//! logged [`Command::Credit`](qiyuan_table::Command::Credit) before it fires
//! any timer or takes any command, as a restart credits the time the server
//! was down.
//!
//! - **Stalls.** A watchdog thread beats every [`BEAT`]; a gap of more than
//!   [`STALL`] between two beats is a stall, credited to every table. A table
//!   that wakes before the watchdog noticed (the order in which threads resume
//!   is the scheduler's) sees the missing beats itself.
//! - **Bus outages.** The cluster says when its bus goes down and comes back;
//!   the outage is credited to the tables where someone on another node
//!   watches or plays, and while it lasts their timers wait.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use qiyuan_table::Millis;

/// How often the watchdog beats.
pub const BEAT: Duration = Duration::from_millis(250);
/// A gap between beats longer than this is a stall, in milliseconds.
pub const STALL: Millis = 3_000;
/// How many past intervals of each kind are kept (tables look at those after
/// the last they credited; a table that slept through more loses nothing that
/// matters: the oldest are long past its turn).
const KEPT: usize = 16;

#[derive(Default)]
pub struct Pauses {
    /// The watchdog's last beat, on the server's clock (0: none yet).
    last_beat: AtomicU64,
    /// The end of the latest interval recorded, so that a table with nothing
    /// to credit learns it without the lock.
    latest: AtomicU64,
    /// Whether the bus is down now.
    down: AtomicBool,
    /// Stalls seen since the server started, and their milliseconds.
    pub stalls: AtomicU64,
    pub stalled_ms: AtomicU64,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    stalls: VecDeque<(Millis, Millis)>,
    outages: VecDeque<(Millis, Millis)>,
    bus_down: Option<Millis>,
}

impl Pauses {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Starts the watchdog thread; it stops when the last other holder of
    /// `pauses` lets go.
    pub fn watch(pauses: &Arc<Pauses>) {
        pauses.beat(super::now());
        let weak = Arc::downgrade(pauses);
        let spawned = std::thread::Builder::new()
            .name("qiyuan-watchdog".into())
            .spawn(move || {
                loop {
                    std::thread::sleep(BEAT);
                    let Some(pauses) = weak.upgrade() else { break };
                    pauses.beat(super::now());
                }
            });
        if let Err(e) = spawned {
            tracing::warn!("cannot start the stall watchdog: {e}");
        }
    }

    /// A beat at `now`: a gap longer than [`STALL`] since the last is recorded.
    pub fn beat(&self, now: Millis) {
        // The stall is recorded before the beat is: a table that sees the new
        // beat (no stall going on) must also see the stall it ends.
        let last = self.last_beat.load(Ordering::SeqCst);
        if last != 0 && now.saturating_sub(last) > STALL {
            tracing::warn!(
                ms = now - last,
                "the server stalled; the time is charged to no clock"
            );
            push(&mut self.lock().stalls, (last, now));
            self.latest.fetch_max(now, Ordering::SeqCst);
            self.stalls.fetch_add(1, Ordering::Relaxed);
            self.stalled_ms.fetch_add(now - last, Ordering::Relaxed);
        }
        self.last_beat.store(now, Ordering::SeqCst);
    }

    /// The bus went down at `now` (the first report counts).
    pub fn bus_down(&self, now: Millis) {
        let mut inner = self.lock();
        if inner.bus_down.is_none() {
            tracing::warn!("the bus is down: tables with players on other nodes hold their clocks");
            inner.bus_down = Some(now);
            self.down.store(true, Ordering::SeqCst);
        }
    }

    /// The bus is back at `now`: the outage is recorded.
    pub fn bus_up(&self, now: Millis) {
        let mut inner = self.lock();
        if let Some(since) = inner.bus_down.take() {
            tracing::info!(
                ms = now.saturating_sub(since),
                "the bus is back; its outage is charged to no clock"
            );
            push(&mut inner.outages, (since, now));
            self.latest.fetch_max(now, Ordering::SeqCst);
            self.down.store(false, Ordering::SeqCst);
        }
    }

    /// Whether the bus is down now.
    pub fn is_bus_down(&self) -> bool {
        self.down.load(Ordering::Relaxed)
    }

    /// The intervals a table has still to credit at `now`, having credited
    /// everything up to `credited`: the stalls (including one going on that
    /// the watchdog has not yet seen end), and the bus's outages when
    /// `remote()` (someone at the table is on another node). Each is clipped
    /// to begin at `credited`, in order. Also what the table has credited up
    /// to after them: `now`, or the start of an outage still going on.
    pub fn due(
        &self,
        credited: Millis,
        now: Millis,
        remote: impl FnOnce() -> bool,
    ) -> (Vec<(Millis, Millis)>, Millis) {
        let last = self.last_beat.load(Ordering::SeqCst);
        let stalled = last != 0 && now.saturating_sub(last) > STALL;
        if !stalled
            && self.latest.load(Ordering::SeqCst) <= credited
            && !self.down.load(Ordering::SeqCst)
        {
            return (Vec::new(), now);
        }
        let remote = remote();
        let inner = self.lock();
        let mut all: Vec<(Millis, Millis)> = inner.stalls.iter().copied().collect();
        if stalled {
            all.push((last, now));
        }
        let mut upto_end = now;
        if remote {
            all.extend(inner.outages.iter().copied());
            if let Some(since) = inner.bus_down {
                upto_end = upto_end.min(since.max(credited));
            }
        }
        drop(inner);
        all.sort_unstable();
        let mut out = Vec::new();
        let mut upto = credited;
        for (from, to) in all {
            let from = from.max(upto);
            let to = to.min(now);
            if from < to {
                out.push((from, to));
                upto = to;
            }
        }
        (out, upto_end.max(upto))
    }
}

fn push(list: &mut VecDeque<(Millis, Millis)>, interval: (Millis, Millis)) {
    if list.len() == KEPT {
        list.pop_front();
    }
    list.push_back(interval);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no() -> bool {
        false
    }

    fn yes() -> bool {
        true
    }

    #[test]
    fn a_gap_between_beats_is_a_stall_credited_once() {
        let p = Pauses::default();
        p.beat(1_000);
        p.beat(1_250);
        assert_eq!(p.due(0, 2_000, no), (vec![], 2_000));
        // Stopped for ten seconds: a table waking first sees it going on.
        assert_eq!(p.due(0, 11_300, no), (vec![(1_250, 11_300)], 11_300));
        p.beat(11_400);
        assert_eq!(p.due(0, 11_500, no).0, vec![(1_250, 11_400)]);
        // A table that credited up to 11 300 has the rest.
        assert_eq!(p.due(11_300, 11_500, no).0, vec![(11_300, 11_400)]);
        assert!(p.due(11_400, 12_000, no).0.is_empty());
    }

    #[test]
    fn outages_count_only_where_someone_is_elsewhere() {
        let p = Pauses::default();
        p.beat(1_000);
        p.bus_down(2_000);
        p.bus_down(2_500);
        assert!(p.is_bus_down());
        // While it is down, a remote table credits nothing past its start.
        assert_eq!(p.due(0, 2_600, yes), (vec![], 2_000));
        assert_eq!(p.due(0, 2_600, no), (vec![], 2_600));
        p.beat(3_000);
        p.beat(5_000);
        p.bus_up(7_000);
        p.beat(7_100);
        assert!(!p.is_bus_down());
        assert_eq!(p.due(2_000, 7_200, yes), (vec![(2_000, 7_000)], 7_200));
        assert_eq!(p.due(0, 7_200, no), (vec![], 7_200));
    }
}
