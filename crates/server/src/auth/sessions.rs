//! Session tokens (random, kept only as their SHA-256), how a request carries
//! them (a bearer token or the cookie), and guests' names.

use std::time::Duration;

use axum::http::{HeaderMap, header};
use rand::Rng;
use sha2::{Digest, Sha256};

/// The session cookie's name.
pub const COOKIE: &str = "qiyuan_session";

/// A new session token: 32 random bytes from the OS's CSPRNG, hex.
pub fn new_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill(&mut bytes);
    hex(&bytes)
}

/// What the store keeps of a token: its SHA-256, hex. A database backup holds no
/// live login.
pub fn hash_token(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
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
    bearer_token(headers).or_else(|| cookie_token(headers))
}

/// The `Authorization: Bearer` token, if any.
pub fn bearer_token(headers: &HeaderMap) -> Option<String> {
    let auth = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let token = auth.strip_prefix("Bearer ")?;
    Some(token.trim().to_string())
}

/// The session cookie's token, if any.
pub fn cookie_token(headers: &HeaderMap) -> Option<String> {
    for cookies in headers.get_all(header::COOKIE) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_come_from_bearer_or_cookie_and_are_kept_hashed() {
        let mut h = HeaderMap::new();
        h.insert("cookie", "a=b; qiyuan_session=xyz".parse().unwrap());
        assert_eq!(token_from_headers(&h).as_deref(), Some("xyz"));
        h.insert("authorization", "Bearer abc".parse().unwrap());
        assert_eq!(token_from_headers(&h).as_deref(), Some("abc"));
        assert_eq!(new_token().len(), 64);
        assert_ne!(new_token(), new_token());
        assert_eq!(
            hash_token("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
