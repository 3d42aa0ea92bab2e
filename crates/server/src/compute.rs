//! The compute budget: every engine search on the server — a computer player's
//! move, an analysis board's line, a game review — runs under one of a fixed
//! number of permits (`compute_threads`, by default the cores less one, at
//! least one), so that however many computer tables, analysis boards and
//! reviews people open, the searches never take more cores than the budget and
//! the server's own threads (sockets, tables, storage) always have theirs.
//!
//! Who waits for a permit is served in order of:
//! 1. the class: moves at tables before analysis (a table's clock runs while
//!    its computer player waits; an analysis board can wait);
//! 2. fairness: the person (or, without an account, the address) served
//!    longest ago first — one person's eight computer tables take turns with
//!    everyone else's one, and never hold more than `per_owner` permits at once
//!    while others wait;
//! 3. for moves, the earliest flag first; otherwise the first come.
//!
//! A permit is a value: dropping it (the search ended, was cancelled, or its
//! requester went away) hands it to the next waiter at once. A waiter that
//! goes away before its turn is skipped.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use tokio::sync::oneshot;

/// What a search is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    /// A computer player's move at a table.
    Move,
    /// The analysis board or a game review.
    Analysis,
}

/// Who a search is for: the person and/or the address it counts against.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Owner {
    pub user: Option<i64>,
    pub addr: Option<IpAddr>,
}

impl Owner {
    pub fn user(id: i64) -> Owner {
        Owner {
            user: Some(id),
            addr: None,
        }
    }

    pub fn addr(addr: IpAddr) -> Owner {
        Owner {
            user: None,
            addr: Some(addr),
        }
    }

    fn keys(&self) -> Vec<Key> {
        let mut keys = Vec::with_capacity(2);
        if let Some(u) = self.user {
            keys.push(Key::User(u));
        }
        if let Some(a) = self.addr {
            keys.push(Key::Addr(a));
        }
        keys
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Key {
    User(i64),
    Addr(IpAddr),
}

struct Waiter {
    class: Class,
    keys: Vec<Key>,
    /// For moves: when the bot's flag falls (earliest first).
    deadline: Option<Instant>,
    arrival: u64,
    tx: oneshot::Sender<Permit>,
}

#[derive(Default)]
struct State {
    running: usize,
    /// Permits held per person or address.
    held: HashMap<Key, usize>,
    /// When each person or address was last given a permit (a grant counter).
    served: HashMap<Key, u64>,
    waiting: Vec<Waiter>,
    grants: u64,
    arrivals: u64,
}

/// The server's compute budget.
pub struct Compute {
    max: usize,
    per_owner: usize,
    state: Mutex<State>,
    /// The most searches that ran at once since the server started.
    peak: AtomicU64,
    /// Searches granted, by class: moves, analysis.
    granted: [AtomicU64; 2],
}

/// The right to run one search; dropping it gives it to the next waiter.
pub struct Permit {
    /// `None`: a permit of nothing (the budget was dropped while waiting).
    compute: Option<Arc<Compute>>,
    keys: Vec<Key>,
}

impl Drop for Permit {
    fn drop(&mut self) {
        if let Some(compute) = self.compute.take() {
            let keys = std::mem::take(&mut self.keys);
            compute.release(&keys);
        }
    }
}

impl Compute {
    /// A budget of `max` searches at once, `per_owner` of them at most for one
    /// person or address while others wait.
    pub fn new(max: usize, per_owner: usize) -> Arc<Compute> {
        Arc::new(Compute {
            max: max.max(1),
            per_owner: per_owner.max(1),
            state: Mutex::default(),
            peak: AtomicU64::new(0),
            granted: [AtomicU64::new(0), AtomicU64::new(0)],
        })
    }

    /// The default size: the cores less one for the server itself, at least one.
    pub fn default_threads() -> usize {
        std::thread::available_parallelism()
            .map(|n| n.get().saturating_sub(1))
            .unwrap_or(1)
            .max(1)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits for a permit for a search of `class` for `owner` (a move's
    /// `deadline`: when its flag falls).
    pub async fn acquire(
        self: &Arc<Self>,
        class: Class,
        owner: &Owner,
        deadline: Option<Instant>,
    ) -> Permit {
        let keys = owner.keys();
        let rx = {
            let mut state = self.lock();
            let nobody_waits = state.waiting.is_empty();
            if state.running < self.max && (nobody_waits || self.under_share(&state, &keys)) {
                self.grant(&mut state, &keys, class);
                return Permit {
                    compute: Some(self.clone()),
                    keys,
                };
            }
            let (tx, rx) = oneshot::channel();
            state.arrivals += 1;
            let arrival = state.arrivals;
            state.waiting.push(Waiter {
                class,
                keys,
                deadline,
                arrival,
                tx,
            });
            rx
        };
        match rx.await {
            Ok(permit) => permit,
            // The budget is gone (the server stops): a permit of nothing.
            Err(_) => Permit {
                compute: None,
                keys: Vec::new(),
            },
        }
    }

    fn under_share(&self, state: &State, keys: &[Key]) -> bool {
        keys.iter()
            .all(|k| state.held.get(k).copied().unwrap_or(0) < self.per_owner)
    }

    fn grant(&self, state: &mut State, keys: &[Key], class: Class) {
        state.running += 1;
        state.grants += 1;
        let grant = state.grants;
        for k in keys {
            *state.held.entry(*k).or_default() += 1;
            state.served.insert(*k, grant);
        }
        self.peak.fetch_max(state.running as u64, Ordering::Relaxed);
        self.granted[class as usize].fetch_add(1, Ordering::Relaxed);
    }

    fn release(self: &Arc<Self>, keys: &[Key]) {
        let next = {
            let mut state = self.lock();
            state.running = state.running.saturating_sub(1);
            for k in keys {
                if let Some(n) = state.held.get_mut(k) {
                    *n -= 1;
                    if *n == 0 {
                        state.held.remove(k);
                    }
                }
            }
            // Waiters that went away are forgotten.
            state.waiting.retain(|w| !w.tx.is_closed());
            let next = self.choose(&state);
            let next = next.map(|i| state.waiting.swap_remove(i));
            if let Some(w) = &next {
                self.grant(&mut state, &w.keys, w.class);
            }
            // People with nothing running or waiting need no turn kept.
            if state.waiting.is_empty() && state.served.len() > 1024 {
                let held = std::mem::take(&mut state.held);
                state.served.retain(|k, _| held.contains_key(k));
                state.held = held;
            }
            next
        };
        if let Some(w) = next {
            let permit = Permit {
                compute: Some(self.clone()),
                keys: w.keys,
            };
            // A waiter that went away just now: the permit, dropped here,
            // goes to the next.
            let _ = w.tx.send(permit);
        }
    }

    /// The waiter to serve next, if a permit is free.
    fn choose(&self, state: &State) -> Option<usize> {
        if state.running >= self.max {
            return None;
        }
        let last_served = |w: &Waiter| {
            w.keys
                .iter()
                .map(|k| state.served.get(k).copied().unwrap_or(0))
                .max()
                .unwrap_or(0)
        };
        let rank = |w: &Waiter| (w.class, last_served(w), w.deadline, w.arrival);
        // One over their share waits while someone within theirs waits too.
        let within = state
            .waiting
            .iter()
            .enumerate()
            .filter(|(_, w)| self.under_share(state, &w.keys))
            .min_by_key(|(_, w)| rank(w))
            .map(|(i, _)| i);
        within.or_else(|| {
            state
                .waiting
                .iter()
                .enumerate()
                .min_by_key(|(_, w)| rank(w))
                .map(|(i, _)| i)
        })
    }

    /// Searches running now.
    pub fn running(&self) -> usize {
        self.lock().running
    }

    /// Searches waiting for a permit.
    pub fn waiting(&self) -> usize {
        self.lock().waiting.len()
    }

    /// The budget's size.
    pub fn max(&self) -> usize {
        self.max
    }

    /// The most searches that ran at once so far.
    pub fn peak(&self) -> u64 {
        self.peak.load(Ordering::Relaxed)
    }

    /// Permits granted so far: (moves, analysis).
    pub fn granted(&self) -> (u64, u64) {
        (
            self.granted[0].load(Ordering::Relaxed),
            self.granted[1].load(Ordering::Relaxed),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn never_more_than_the_budget_and_moves_first() {
        let c = Compute::new(1, 1);
        let a = Owner::user(1);
        let b = Owner::user(2);
        let first = c.acquire(Class::Analysis, &a, None).await;
        assert_eq!(c.running(), 1);
        let (c1, c2) = (c.clone(), c.clone());
        let (a2, b2) = (a.clone(), b.clone());
        let analysis = tokio::spawn(async move { c1.acquire(Class::Analysis, &a2, None).await });
        tokio::time::sleep(Duration::from_millis(10)).await;
        let mv = tokio::spawn(async move { c2.acquire(Class::Move, &b2, None).await });
        tokio::time::sleep(Duration::from_millis(10)).await;
        assert_eq!(c.waiting(), 2);
        drop(first);
        // The move came second but goes first.
        let m = mv.await.unwrap();
        assert_eq!(c.running(), 1);
        assert!(!analysis.is_finished());
        drop(m);
        let _ = analysis.await.unwrap();
        assert_eq!(c.peak(), 1);
    }

    #[tokio::test]
    async fn one_person_with_many_waits_turns_with_another() {
        let c = Compute::new(1, 1);
        let greedy = Owner::user(1);
        let other = Owner::user(2);
        let held = c.acquire(Class::Move, &greedy, None).await;
        let mut queued = Vec::new();
        for _ in 0..5 {
            let (c, o) = (c.clone(), greedy.clone());
            queued.push(tokio::spawn(async move {
                c.acquire(Class::Move, &o, None).await
            }));
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        let (c2, o2) = (c.clone(), other.clone());
        let theirs = tokio::spawn(async move { c2.acquire(Class::Move, &o2, None).await });
        tokio::time::sleep(Duration::from_millis(10)).await;
        drop(held);
        // The other person, served never, goes before the greedy one's next.
        let p = theirs.await.unwrap();
        assert_eq!(p.keys, vec![Key::User(2)]);
        drop(p);
        for q in queued {
            drop(q.await.unwrap());
        }
        assert_eq!(c.running(), 0);
        assert_eq!(c.waiting(), 0);
    }

    #[tokio::test]
    async fn a_waiter_that_goes_away_is_skipped() {
        let c = Compute::new(1, 1);
        let held = c.acquire(Class::Analysis, &Owner::user(1), None).await;
        let c1 = c.clone();
        let gone =
            tokio::spawn(async move { c1.acquire(Class::Analysis, &Owner::user(2), None).await });
        tokio::time::sleep(Duration::from_millis(10)).await;
        gone.abort();
        let _ = gone.await;
        drop(held);
        assert_eq!(c.running(), 0);
        let again = c.acquire(Class::Analysis, &Owner::user(3), None).await;
        assert_eq!(c.running(), 1);
        drop(again);
    }
}
