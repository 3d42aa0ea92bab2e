//! Events per key within a sliding window: guests created, accounts registered.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::http::StatusCode;

use crate::error::ApiError;

/// Events per key (an address) within a sliding window: guests created, accounts
/// registered. A limit of 0 admits everything.
#[derive(Debug)]
pub struct RateLimit {
    limit: u32,
    window: Duration,
    hits: Mutex<HashMap<String, VecDeque<Instant>>>,
}

impl RateLimit {
    pub fn new(limit: u32, window: Duration) -> Self {
        RateLimit {
            limit,
            window,
            hits: Mutex::new(HashMap::new()),
        }
    }

    /// Counts one event for `key` if under the limit; else how long to wait.
    pub fn hit(&self, key: &str, now: Instant) -> Result<(), Duration> {
        if self.limit == 0 {
            return Ok(());
        }
        let mut hits = self.hits.lock().unwrap_or_else(|e| e.into_inner());
        if hits.len() > 100_000 {
            let window = self.window;
            hits.retain(|_, t| t.back().is_some_and(|t| now.duration_since(*t) < window));
        }
        let times = hits.entry(key.to_string()).or_default();
        while times
            .front()
            .is_some_and(|t| now.duration_since(*t) >= self.window)
        {
            times.pop_front();
        }
        if times.len() >= self.limit as usize {
            let first = times.front().copied().unwrap_or(now);
            return Err(self.window.saturating_sub(now.duration_since(first)));
        }
        times.push_back(now);
        Ok(())
    }
}

/// `429 rate_limited` with a `Retry-After`.
pub fn rate_limited(what: &str, wait: Duration) -> ApiError {
    let secs = wait.as_secs() + 1;
    ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        "rate_limited",
        format!("{what}; try again in {secs} s"),
    )
    .retry_after(secs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_limits_per_key() {
        let r = RateLimit::new(2, Duration::from_secs(3600));
        let t0 = Instant::now();
        assert!(r.hit("a", t0).is_ok());
        assert!(r.hit("a", t0).is_ok());
        assert!(r.hit("a", t0).is_err());
        assert!(r.hit("b", t0).is_ok());
        assert!(r.hit("a", t0 + Duration::from_secs(3600)).is_ok());
        assert!(
            RateLimit::new(0, Duration::from_secs(1))
                .hit("a", t0)
                .is_ok()
        );
    }
}
