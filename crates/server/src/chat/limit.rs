//! The rate of chat lines per person: a bucket of `burst` lines, one more
//! every `every`.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use qiyuan_store::UserId;

pub struct Limiter {
    burst: f64,
    every: Duration,
    buckets: Mutex<Buckets>,
}

#[derive(Default)]
struct Buckets {
    /// Each person's lines left and when that was counted.
    by_user: HashMap<UserId, (f64, Instant)>,
    /// The size of `by_user` after its last sweep.
    swept: usize,
}

impl Limiter {
    pub fn new(burst: u32, every: Duration) -> Limiter {
        Limiter {
            burst: f64::from(burst.max(1)),
            every: every.max(Duration::from_millis(1)),
            buckets: Mutex::default(),
        }
    }

    /// Takes one line from `user`'s bucket; when it is empty, how long until
    /// the next line may be written.
    pub fn take(&self, user: UserId, now: Instant) -> Result<(), Duration> {
        let mut b = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        let (burst, every) = (self.burst, self.every.as_secs_f64());
        let left = |(tokens, at): (f64, Instant)| {
            (tokens + now.saturating_duration_since(at).as_secs_f64() / every).min(burst)
        };
        // Buckets that have filled up again say nothing: dropped whenever the
        // map has doubled since it was last swept.
        if b.by_user.len() >= 2 * b.swept.max(64) {
            b.by_user.retain(|_, v| left(*v) < burst);
            b.swept = b.by_user.len();
        }
        let tokens = b.by_user.get(&user).map_or(burst, |v| left(*v));
        if tokens < 1.0 {
            return Err(Duration::from_secs_f64((1.0 - tokens) * every));
        }
        b.by_user.insert(user, (tokens - 1.0, now));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_one_line_per_period() {
        let l = Limiter::new(5, Duration::from_secs(1));
        let t = Instant::now();
        for _ in 0..5 {
            assert!(l.take(1, t).is_ok());
        }
        assert!(l.take(1, t).is_err());
        assert!(
            l.take(2, t).is_ok(),
            "each person has a bucket of their own"
        );
        assert!(l.take(1, t + Duration::from_millis(500)).is_err());
        assert!(l.take(1, t + Duration::from_millis(1_000)).is_ok());
        assert!(l.take(1, t + Duration::from_millis(1_100)).is_err());
    }
}
