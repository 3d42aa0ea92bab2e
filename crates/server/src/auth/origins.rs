//! Which pages' requests are accepted: the site's own and those allowed.

use axum::http::{HeaderMap, header};

use crate::error::ApiError;

/// Whether a request's `Origin` is the site's own (same host as the request's
/// `Host`, http or https) or one of `allowed`. No `Origin` (a program, not a
/// browser page) is fine; `null` (sandboxed or file pages) is not.
pub fn origin_allowed(headers: &HeaderMap, allowed: &[String]) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let Ok(origin) = origin.to_str() else {
        return false;
    };
    let origin = origin.trim().trim_end_matches('/');
    if allowed
        .iter()
        .any(|a| a.trim().trim_end_matches('/').eq_ignore_ascii_case(origin))
    {
        return true;
    }
    let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()) else {
        return false;
    };
    origin
        .strip_prefix("https://")
        .or_else(|| origin.strip_prefix("http://"))
        .is_some_and(|o| o.eq_ignore_ascii_case(host.trim()))
}

/// `403 bad_origin`.
pub fn bad_origin() -> ApiError {
    ApiError::forbidden(
        "bad_origin",
        "requests from another site's pages are refused",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins() {
        let mut h = HeaderMap::new();
        assert!(origin_allowed(&h, &[]), "no Origin: not a browser page");
        h.insert("host", "play.example:8080".parse().unwrap());
        h.insert("origin", "http://play.example:8080".parse().unwrap());
        assert!(origin_allowed(&h, &[]));
        h.insert("origin", "https://evil.example".parse().unwrap());
        assert!(!origin_allowed(&h, &[]));
        assert!(origin_allowed(&h, &["https://evil.example/".into()]));
        h.insert("origin", "null".parse().unwrap());
        assert!(!origin_allowed(&h, &[]));
    }
}
