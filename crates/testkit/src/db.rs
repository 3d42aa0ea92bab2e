//! The databases the tests run against: the machine's PostgreSQL and Redis, and
//! names unique to one test so that tests share them without meeting.
//!
//! PostgreSQL is `$QIYUAN_TEST_POSTGRES` (default
//! `postgres://root@127.0.0.1:5432/test`), Redis `$QIYUAN_TEST_REDIS` (default
//! `redis://127.0.0.1:6379`).

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// The PostgreSQL database the tests use.
pub fn postgres_url() -> String {
    std::env::var("QIYUAN_TEST_POSTGRES")
        .unwrap_or_else(|_| "postgres://root@127.0.0.1:5432/test".to_string())
}

/// The Redis the multi-node tests use.
pub fn redis_url() -> String {
    std::env::var("QIYUAN_TEST_REDIS").unwrap_or_else(|_| "redis://127.0.0.1:6379".to_string())
}

/// A fresh PostgreSQL schema, as a store URL: `prefix` names what made it.
pub fn postgres_schema(prefix: &str) -> String {
    format!("{}?schema={}", postgres_url(), unique(prefix))
}

/// A name no other test (of this run or an earlier one) has: `prefix`, the
/// process id, the clock's nanoseconds and a counter, so that two names made
/// within the same nanosecond still differ. Short enough for a PostgreSQL
/// schema (63 bytes) with a prefix of up to 30.
pub fn unique(prefix: &str) -> String {
    static N: AtomicU32 = AtomicU32::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("a clock after 1970")
        .as_nanos();
    format!(
        "{prefix}_{}_{}_{}",
        std::process::id(),
        nanos % 1_000_000_000,
        N.fetch_add(1, Ordering::Relaxed)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unique_names_differ_and_fit_a_postgres_schema() {
        let prefix = "a_thirty_character_long_prefix";
        assert_eq!(prefix.len(), 30);
        let names: Vec<String> = (0..1000).map(|_| unique(prefix)).collect();
        let distinct: std::collections::HashSet<&String> = names.iter().collect();
        assert_eq!(distinct.len(), names.len());
        assert!(names.iter().all(|n| n.len() <= 63), "{names:?}");
    }
}
