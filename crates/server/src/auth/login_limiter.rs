//! The limits on failed logins per key (a username and address, an address).

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A key's failed logins and the attempts under way.
#[derive(Debug, Default)]
struct Failures {
    /// Failures within the last [`MEMORY`], oldest first.
    times: VecDeque<Instant>,
    /// Attempts admitted and not yet decided: they count as failures until they
    /// succeed, so that a burst cannot pass the limit while its hashes run.
    pending: u32,
}

/// How long failures are remembered (and so how far the waits grow).
const MEMORY: Duration = Duration::from_secs(3600);
const MINUTE: Duration = Duration::from_secs(60);

/// Failed logins per key — a (username, address) pair and an address — each with
/// its limit per minute. Only failures count, so a player who types the password
/// right is never slowed, and a username's owner elsewhere is never locked out by
/// an attacker's failures. Past the limit a key waits a minute after its last
/// failure; each further `limit` failures within the hour doubles that wait, up
/// to an hour.
///
/// Admission and counting are one step ([`LoginLimiter::begin`]): an admitted
/// attempt counts against the limit until it is decided.
#[derive(Debug, Default)]
pub struct LoginLimiter {
    keys: Mutex<HashMap<String, Failures>>,
}

/// One admitted login attempt, counted until decided: [`Attempt::failed`] keeps
/// it as a failure, [`Attempt::succeeded`] returns it and makes the keys marked
/// `reset_on_success` forget their failures; dropped undecided (the server was
/// busy, the client went away) it is just returned.
#[must_use]
pub struct Attempt<'a> {
    limiter: &'a LoginLimiter,
    keys: Vec<(String, bool)>,
    outcome: Outcome,
}

#[derive(Debug, Clone, Copy)]
enum Outcome {
    Undecided,
    Failed(Instant),
    Succeeded,
}

impl Attempt<'_> {
    pub fn failed(mut self, now: Instant) {
        self.outcome = Outcome::Failed(now);
    }

    pub fn succeeded(mut self) {
        self.outcome = Outcome::Succeeded;
    }
}

impl Drop for Attempt<'_> {
    fn drop(&mut self) {
        let mut keys = self.limiter.lock();
        for (key, reset) in &self.keys {
            if let Some(f) = keys.get_mut(key) {
                f.pending = f.pending.saturating_sub(1);
                match self.outcome {
                    Outcome::Failed(at) => f.times.push_back(at),
                    Outcome::Succeeded if *reset => f.times.clear(),
                    _ => {}
                }
            }
        }
    }
}

/// The wait a key with `n` failures in memory must observe after its last one.
fn growing_wait(n: usize, limit: u32) -> Duration {
    let limit = limit.max(1) as usize;
    if n < limit {
        return Duration::ZERO;
    }
    let strikes = (n / limit - 1).min(6) as u32;
    (MINUTE * 2u32.pow(strikes)).min(MEMORY)
}

impl LoginLimiter {
    pub fn new() -> Self {
        LoginLimiter::default()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Failures>> {
        self.keys.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Admits an attempt if no key is over its limit at `now`, counting it at
    /// once; else says how long to wait. `keys`: (key, limit per minute, whether
    /// a success clears the key's failures).
    pub fn begin(&self, keys: &[(&str, u32, bool)], now: Instant) -> Result<Attempt<'_>, Duration> {
        let mut map = self.lock();
        if map.len() > 100_000 {
            // Bounded memory under a flood of names: forget what is over.
            map.retain(|_, f| {
                f.pending > 0
                    || f.times
                        .back()
                        .is_some_and(|t| now.duration_since(*t) < MEMORY)
            });
        }
        let mut wait = Duration::ZERO;
        for (key, limit, _) in keys {
            let Some(f) = map.get_mut(*key) else { continue };
            while f
                .times
                .front()
                .is_some_and(|t| now.duration_since(*t) >= MEMORY)
            {
                f.times.pop_front();
            }
            let cap = (*limit as usize).max(1) * 8;
            while f.times.len() > cap {
                f.times.pop_front();
            }
            let recent = f
                .times
                .iter()
                .filter(|t| now.duration_since(**t) < MINUTE)
                .count();
            if recent + f.pending as usize >= *limit as usize {
                let oldest = f.times.iter().find(|t| now.duration_since(**t) < MINUTE);
                let left = oldest.map_or(Duration::from_secs(1), |t| {
                    MINUTE.saturating_sub(now.duration_since(*t))
                });
                wait = wait.max(left.max(Duration::from_secs(1)));
            }
            if let Some(last) = f.times.back() {
                let left =
                    growing_wait(f.times.len(), *limit).saturating_sub(now.duration_since(*last));
                wait = wait.max(left);
            }
        }
        if !wait.is_zero() {
            return Err(wait);
        }
        for (key, _, _) in keys {
            map.entry(key.to_string()).or_default().pending += 1;
        }
        Ok(Attempt {
            limiter: self,
            keys: keys
                .iter()
                .map(|(k, _, reset)| (k.to_string(), *reset))
                .collect(),
            outcome: Outcome::Undecided,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limiter_counts_attempts_under_way_and_forgets_after_a_minute() {
        let l = LoginLimiter::new();
        let t0 = Instant::now();
        let key = [("u:bob", 3, true)];
        // Three at once are admitted, the fourth is not: they count while pending.
        let a: Vec<_> = (0..3).map(|_| l.begin(&key, t0).unwrap()).collect();
        assert!(l.begin(&key, t0).is_err());
        for attempt in a {
            attempt.failed(t0);
        }
        assert!(l.begin(&key, t0).is_err());
        assert!(l.begin(&[("u:alice", 3, true)], t0).is_ok());
        assert!(l.begin(&key, t0 + Duration::from_secs(61)).is_ok());
    }

    #[test]
    fn waits_grow_and_a_success_clears_its_key() {
        let l = LoginLimiter::new();
        let mut t = Instant::now();
        let key = [("k", 2, true)];
        l.begin(&key, t).unwrap().failed(t);
        l.begin(&key, t).unwrap().failed(t);
        // Past the limit, each failure is followed by a wait that doubles every
        // `limit` failures.
        let mut waits = Vec::new();
        for _ in 0..5 {
            let wait = l.begin(&key, t).err().unwrap();
            waits.push(wait.as_secs());
            t += wait;
            l.begin(&key, t).unwrap().failed(t);
        }
        assert_eq!(waits, [60, 60, 120, 120, 240]);
        t += l.begin(&key, t).err().unwrap();
        // Undecided changes nothing; a success forgets the pair's failures.
        drop(l.begin(&key, t).unwrap());
        assert!(l.begin(&key, t).is_ok(), "nothing was counted");
        l.begin(&key, t).unwrap().succeeded();
        l.begin(&key, t).unwrap().failed(t);
        assert!(l.begin(&key, t).is_ok());
    }
}
