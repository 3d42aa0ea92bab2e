//! The browser client, embedded at build time from web/dist (see build.rs). Paths
//! that are not files get index.html, so the client's own routes (`/table/abc`)
//! load the client.
//!
//! The build writes a brotli (`.br`) and a gzip (`.gz`) copy beside each text
//! file (web/vite.config.ts); a request that accepts one gets it as it is, with
//! `Content-Encoding`, so nothing is compressed per request. Hashed assets
//! (`/assets/…`) are cached for a year; everything else, index.html first, is
//! asked again each time (`no-cache`).

use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;

use crate::error::ApiError;

#[derive(RustEmbed)]
#[folder = "../../web/dist"]
struct Assets;

pub async fn serve(uri: Uri, headers: HeaderMap) -> Response {
    let path = uri.path().trim_start_matches('/');
    let accept = headers
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if let Some(response) = file(path, accept) {
        return response;
    }
    if path.starts_with("api/") || path == "api" || path.contains('.') {
        return ApiError::not_found(format!("nothing at /{path}")).into_response();
    }
    file("index.html", accept).unwrap_or_else(|| {
        (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
            "<!doctype html><meta charset=utf-8><title>棋苑 qiyuan</title>\
             <p>The qiyuan server is running, but it was built without the web client \
             (web/dist was empty). The API and WebSocket are at /api and /ws.",
        )
            .into_response()
    })
}

/// A content coding the build prepares, best first: its name in
/// `Content-Encoding` and the suffix of its file.
const CODINGS: [(&str, &str); 2] = [("br", ".br"), ("gzip", ".gz")];

fn file(path: &str, accept_encoding: &str) -> Option<Response> {
    let asset = Assets::get(path)?;
    let mime = asset.metadata.mimetype().to_string();
    // Vite names built assets by content hash, so they never change.
    let cache = if path.starts_with("assets/") {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    let compressed = CODINGS.iter().find_map(|(coding, suffix)| {
        if !accepts(accept_encoding, coding) {
            return None;
        }
        Assets::get(&format!("{path}{suffix}")).map(|f| (*coding, f))
    });
    let mut builder = Response::builder()
        .header(header::CONTENT_TYPE, mime)
        .header(header::CACHE_CONTROL, cache);
    let prepared = CODINGS
        .iter()
        .any(|(_, suffix)| Assets::get(&format!("{path}{suffix}")).is_some());
    if prepared {
        // A cache between us and the browser keeps one copy per coding.
        builder = builder.header(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    let body = match compressed {
        Some((coding, f)) => {
            builder = builder.header(header::CONTENT_ENCODING, coding);
            f.data.into_owned()
        }
        None => asset.data.into_owned(),
    };
    Some(
        builder
            .body(Body::from(body))
            .unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response()),
    )
}

/// Whether an `Accept-Encoding` header value accepts `coding`: named (or `*`)
/// with a quality above zero (RFC 9110 §12.5.3). Anything unreadable accepts
/// nothing, and the file goes uncompressed.
pub fn accepts(header: &str, coding: &str) -> bool {
    let mut named = None;
    let mut star = None;
    for item in header.split(',') {
        let mut parts = item.split(';');
        let name = parts.next().unwrap_or("").trim();
        let q = parts
            .find_map(|p| {
                let (k, v) = p.split_once('=')?;
                k.trim()
                    .eq_ignore_ascii_case("q")
                    .then(|| v.trim().parse::<f32>().unwrap_or(0.0))
            })
            .unwrap_or(1.0);
        if name.eq_ignore_ascii_case(coding) {
            named = Some(q);
        } else if name == "*" {
            star = Some(q);
        }
    }
    named.or(star).is_some_and(|q| q > 0.0)
}

#[cfg(test)]
mod tests {
    use super::accepts;

    #[test]
    fn accept_encoding_is_read_with_its_qualities() {
        assert!(accepts("gzip, deflate, br, zstd", "br"));
        assert!(accepts("gzip, deflate, br, zstd", "gzip"));
        assert!(accepts("GZIP", "gzip"));
        assert!(!accepts("gzip", "br"));
        assert!(!accepts("", "gzip"));
        assert!(!accepts("identity", "gzip"));
        assert!(!accepts("br;q=0, gzip", "br"));
        assert!(accepts("br;q=0.5, gzip;q=1.0", "br"));
        assert!(accepts("*", "br"));
        assert!(!accepts("*;q=0", "br"));
        assert!(
            !accepts("br;q=0, *", "br"),
            "a coding named is not taken back by *"
        );
        assert!(!accepts("br;q=nonsense", "br"));
    }
}
