//! Accounts: usernames, password hashes, session tokens, guests and the login rate
//! limit. Sessions are random tokens kept in the store; browsers carry them in a
//! cookie, API clients as `Authorization: Bearer`.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use argon2::password_hash::{PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Argon2, PasswordHash};
use axum::http::HeaderMap;
use rand::Rng;

/// The session cookie's name.
pub const COOKIE: &str = "qiyuan_session";

/// Why a username cannot be registered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadUsername {
    #[error("a username has 3 to 20 characters")]
    Length,
    #[error("a username starts with a letter")]
    Start,
    #[error("a username holds letters, digits, '_' and '-' only")]
    Character,
    #[error("usernames beginning with 'guest' are kept for guests")]
    Reserved,
}

/// Checks a username: 3 to 20 characters, letters (any script, so 棋手 is fine),
/// digits, `_` and `-`, beginning with a letter, not posing as a guest.
pub fn validate_username(name: &str) -> Result<(), BadUsername> {
    let count = name.chars().count();
    if !(3..=20).contains(&count) {
        return Err(BadUsername::Length);
    }
    if !name.chars().next().is_some_and(char::is_alphabetic) {
        return Err(BadUsername::Start);
    }
    if !name
        .chars()
        .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
    {
        return Err(BadUsername::Character);
    }
    if name.to_lowercase().starts_with("guest") {
        return Err(BadUsername::Reserved);
    }
    Ok(())
}

/// Passwords: at least 6 characters, at most 200 (hashing cost is bounded).
pub fn validate_password(password: &str) -> Result<(), &'static str> {
    match password.chars().count() {
        0..6 => Err("a password has at least 6 characters"),
        201.. => Err("a password has at most 200 characters"),
        _ => Ok(()),
    }
}

/// An argon2id hash in PHC string form. Slow by design: call it off the async
/// threads.
pub fn hash_password(password: &str) -> anyhow::Result<String> {
    let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| anyhow::anyhow!("cannot hash password: {e}"))
}

pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|h| {
        Argon2::default()
            .verify_password(password.as_bytes(), &h)
            .is_ok()
    })
}

/// A new session token: 32 random bytes, hex.
pub fn new_token() -> String {
    let bytes: [u8; 32] = rand::thread_rng().r#gen();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A guest's name: `Guest-` and six random digits and letters.
pub fn guest_name() -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let mut rng = rand::thread_rng();
    let tail: String = (0..6)
        .map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())] as char)
        .collect();
    format!("Guest-{tail}")
}

/// The session token a request carries: a bearer token, else the cookie.
pub fn token_from_headers(headers: &HeaderMap) -> Option<String> {
    if let Some(auth) = headers.get(axum::http::header::AUTHORIZATION)
        && let Ok(auth) = auth.to_str()
        && let Some(token) = auth.strip_prefix("Bearer ")
    {
        return Some(token.trim().to_string());
    }
    for cookies in headers.get_all(axum::http::header::COOKIE) {
        let Ok(cookies) = cookies.to_str() else {
            continue;
        };
        for pair in cookies.split(';') {
            if let Some((name, value)) = pair.trim().split_once('=')
                && name == COOKIE
            {
                return Some(value.to_string());
            }
        }
    }
    None
}

/// The `Set-Cookie` value for a session.
pub fn session_cookie(token: &str, max_age: Duration, secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!(
        "{COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={}{secure}",
        max_age.as_secs()
    )
}

/// The `Set-Cookie` value that ends a session in the browser.
pub fn clear_cookie() -> String {
    format!("{COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0")
}

/// Failed logins per key (a username, an address) within a sliding minute. Only
/// failures count, so a player who types the password right is never slowed.
#[derive(Debug)]
pub struct LoginLimiter {
    limit: u32,
    window: Duration,
    failures: Mutex<HashMap<String, VecDeque<Instant>>>,
}

impl LoginLimiter {
    pub fn new(limit_per_minute: u32) -> Self {
        LoginLimiter {
            limit: limit_per_minute,
            window: Duration::from_secs(60),
            failures: Mutex::new(HashMap::new()),
        }
    }

    /// Whether any of `keys` has used up its attempts at `now`; if so, how long
    /// until the next attempt is allowed.
    pub fn blocked(&self, keys: &[&str], now: Instant) -> Option<Duration> {
        let mut failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        let mut wait = None;
        for key in keys {
            if let Some(times) = failures.get_mut(*key) {
                while times
                    .front()
                    .is_some_and(|t| now.duration_since(*t) >= self.window)
                {
                    times.pop_front();
                }
                if times.len() >= self.limit as usize
                    && let Some(first) = times.front()
                {
                    let left = self.window.saturating_sub(now.duration_since(*first));
                    wait = wait.max(Some(left));
                }
            }
        }
        wait
    }

    pub fn fail(&self, keys: &[&str], now: Instant) {
        let mut failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        if failures.len() > 100_000 {
            // Bounded memory under a flood of names: forget old entries.
            let window = self.window;
            failures.retain(|_, t| t.back().is_some_and(|t| now.duration_since(*t) < window));
        }
        for key in keys {
            failures.entry(key.to_string()).or_default().push_back(now);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames() {
        assert!(validate_username("magnus").is_ok());
        assert!(validate_username("棋手小王").is_ok());
        assert!(validate_username("Hou_Yifan-2").is_ok());
        assert_eq!(validate_username("ab"), Err(BadUsername::Length));
        assert_eq!(validate_username(&"a".repeat(21)), Err(BadUsername::Length));
        assert_eq!(validate_username("1abc"), Err(BadUsername::Start));
        assert_eq!(validate_username("a b c"), Err(BadUsername::Character));
        assert_eq!(validate_username("a<script>"), Err(BadUsername::Character));
        assert_eq!(validate_username("GuestX1"), Err(BadUsername::Reserved));
    }

    #[test]
    fn passwords_hash_and_verify() {
        let h = hash_password("secret1").unwrap();
        assert!(verify_password("secret1", &h));
        assert!(!verify_password("secret2", &h));
        assert!(!verify_password("secret1", "not a hash"));
    }

    #[test]
    fn tokens_come_from_bearer_or_cookie() {
        let mut h = HeaderMap::new();
        h.insert("cookie", "a=b; qiyuan_session=xyz".parse().unwrap());
        assert_eq!(token_from_headers(&h).as_deref(), Some("xyz"));
        h.insert("authorization", "Bearer abc".parse().unwrap());
        assert_eq!(token_from_headers(&h).as_deref(), Some("abc"));
        assert_eq!(new_token().len(), 64);
    }

    #[test]
    fn the_limiter_blocks_after_the_limit_and_forgets_after_a_minute() {
        let l = LoginLimiter::new(3);
        let t0 = Instant::now();
        for _ in 0..3 {
            assert!(l.blocked(&["u:bob"], t0).is_none());
            l.fail(&["u:bob"], t0);
        }
        assert!(l.blocked(&["u:bob", "ip:1"], t0).is_some());
        assert!(l.blocked(&["u:alice"], t0).is_none());
        assert!(
            l.blocked(&["u:bob"], t0 + Duration::from_secs(61))
                .is_none()
        );
    }
}
