//! The browser client, embedded at build time from web/dist (see build.rs). Paths
//! that are not files get index.html, so the client's own routes (`/table/abc`)
//! load the client.

use axum::body::Body;
use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;

use crate::error::ApiError;

#[derive(RustEmbed)]
#[folder = "../../web/dist"]
struct Assets;

pub async fn serve(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    if let Some(response) = file(path) {
        return response;
    }
    if path.starts_with("api/") || path == "api" || path.contains('.') {
        return ApiError::not_found(format!("nothing at /{path}")).into_response();
    }
    file("index.html").unwrap_or_else(|| {
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

fn file(path: &str) -> Option<Response> {
    let asset = Assets::get(path)?;
    let mime = asset.metadata.mimetype().to_string();
    // Vite names built assets by content hash, so they never change.
    let cache = if path.starts_with("assets/") {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    Some(
        Response::builder()
            .header(header::CONTENT_TYPE, mime)
            .header(header::CACHE_CONTROL, cache)
            .body(Body::from(asset.data.into_owned()))
            .unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response()),
    )
}
