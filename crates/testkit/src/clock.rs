//! The wall clock as the server's API writes times: milliseconds since 1970.

use std::time::{SystemTime, UNIX_EPOCH};

/// Now, in milliseconds since 1970 (the unit of `starts_at` and the other
/// times the API takes).
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("a clock after 1970")
        .as_millis() as i64
}
