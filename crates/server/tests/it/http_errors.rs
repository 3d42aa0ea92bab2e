//! Every HTTP error is the documented JSON `{"error": {"code", "message"}}` with
//! a fitting status: unknown paths, wrong methods, bodies too large, of the wrong
//! type, malformed or with fields of the wrong type, and bad query parameters.

use serde_json::Value;

use crate::common::*;

async fn assert_error(r: reqwest::Response, status: u16, code: &str, what: &str) {
    assert_eq!(r.status().as_u16(), status, "{what}");
    let kind = r
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    assert!(kind.starts_with("application/json"), "{what}: {kind}");
    let body: Value = r.json().await.unwrap();
    let error = body["error"]
        .as_object()
        .unwrap_or_else(|| panic!("{what}: {body}"));
    assert_eq!(error.len(), 2, "{what}: {body}");
    assert_eq!(error["code"], code, "{what}: {body}");
    assert!(!error["message"].as_str().unwrap().is_empty(), "{what}");
}

async fn every_http_error_is_typed_json(backend: Backend) {
    let server = start(backend).await;
    let a = server.register("alice").await;
    // No kept-alive connections: the server answers the 100 kB body with 413
    // before reading it and closes that connection, and a pooled client could
    // send the next request on it before it sees the close (IncompleteMessage).
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .build()
        .unwrap();
    let url = |path: &str| format!("{}{path}", server.base);

    for path in [
        "/api/nothing",
        "/api/",
        "/api/account/nothing",
        "/api/game/x/y/z",
        "/nothing.js",
    ] {
        let r = http.get(url(path)).send().await.unwrap();
        assert_error(r, 404, "not_found", path).await;
    }
    let r = http.get(url("/api/account/login")).send().await.unwrap();
    assert_error(r, 405, "method_not_allowed", "GET login").await;
    let r = http.delete(url("/api/health")).send().await.unwrap();
    assert_error(r, 405, "method_not_allowed", "DELETE health").await;

    let big = format!(
        r#"{{"username": "{}", "password": "x"}}"#,
        "a".repeat(100_000)
    );
    let r = http
        .post(url("/api/account/register"))
        .header("content-type", "application/json")
        .body(big)
        .send()
        .await
        .unwrap();
    assert_error(r, 413, "too_large", "100 kB body").await;
    let r = http
        .post(url("/api/account/login"))
        .header("content-type", "text/plain")
        .body(r#"{"username": "alice", "password": "secret-pw"}"#)
        .send()
        .await
        .unwrap();
    assert_error(r, 415, "unsupported_media_type", "text/plain").await;
    let r = http
        .post(url("/api/account/login"))
        .header("content-type", "application/json")
        .body("{this is not json")
        .send()
        .await
        .unwrap();
    assert_error(r, 400, "malformed_json", "malformed").await;
    let r = http
        .post(url("/api/account/login"))
        .header("content-type", "application/json")
        .body(r#"{"username": 7, "password": ["x"]}"#)
        .send()
        .await
        .unwrap();
    assert_error(r, 422, "bad_message", "wrong types").await;
    let r = http
        .post(url("/api/tables"))
        .bearer_auth(&a.token)
        .header("content-type", "application/json")
        .body(r#"{"game": "chess", "rated": "yes"}"#)
        .send()
        .await
        .unwrap();
    assert_error(r, 422, "bad_message", "create with a string for a bool").await;
    let r = http
        .post(url("/api/account/register"))
        .header("content-type", "application/json")
        .body(r#"{"username": "bob"}"#)
        .send()
        .await
        .unwrap();
    assert_error(r, 422, "bad_message", "a missing field").await;

    let r = a.get("/api/game/abc/log?after=yesterday").await;
    assert_error(r, 400, "bad_query", "after=yesterday").await;
    let r = a.get("/api/lobby/chess?limit=-3").await;
    assert_error(r, 400, "bad_query", "limit=-3").await;
    let r = a.get("/api/lobby/chess?limit=0").await;
    assert_error(r, 400, "bad_query", "limit=0").await;
    let r = a.get("/api/lobby/chess?colour=red").await;
    assert_error(r, 400, "bad_query", "unknown parameter").await;
    let r = a.get("/ws").await;
    assert!(r.status().is_client_error());
    let status = r.status().as_u16();
    assert_error(r, status, "bad_request", "/ws without upgrade").await;
    // The typed errors that were typed before still are.
    let r = http.get(url("/api/account/me")).send().await.unwrap();
    assert_error(r, 401, "not_logged_in", "me").await;
    let r = a.get("/api/lobby/checkers").await;
    assert_error(r, 404, "not_found", "unknown game").await;
}

both!(every_http_error_is_typed_json);
