//! Sessions over real sockets: logging out closes at once every WebSocket opened
//! with the session, "log out everywhere" ends every session and socket of the
//! account, the database keeps only SHA-256 hashes of tokens, sessions expire,
//! and the cookie is `Secure` when the site is served over https.

use std::str::FromStr;
use std::time::Duration;

use futures_util::StreamExt;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tokio_tungstenite::tungstenite::Message;

use crate::common::*;

/// The `token` column of every stored session, read straight from the database.
async fn stored_tokens(server: &TestServer) -> Vec<String> {
    let config = &server.running.as_ref().unwrap().app.config;
    let sql = "SELECT token FROM sessions";
    match &config.database {
        None => {
            let url = format!("sqlite://{}", config.data_dir.join("qiyuan.db").display());
            let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
            sqlx::query_scalar(sql).fetch_all(&pool).await.unwrap()
        }
        Some(url) => {
            let (base, schema) = url.split_once("?schema=").unwrap();
            let options = sqlx::postgres::PgConnectOptions::from_str(base)
                .unwrap()
                .options([("search_path", schema)]);
            let pool = sqlx::PgPool::connect_with(options).await.unwrap();
            sqlx::query_scalar(sql).fetch_all(&pool).await.unwrap()
        }
    }
}

/// Sets every stored session to expire at `at` (ms), straight in the database.
async fn expire_sessions_at(server: &TestServer, at: i64) {
    let config = &server.running.as_ref().unwrap().app.config;
    let sql = "UPDATE sessions SET expires_at = $1";
    match &config.database {
        None => {
            let url = format!("sqlite://{}", config.data_dir.join("qiyuan.db").display());
            let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
            sqlx::query(sql).bind(at).execute(&pool).await.unwrap();
        }
        Some(url) => {
            let (base, schema) = url.split_once("?schema=").unwrap();
            let options = sqlx::postgres::PgConnectOptions::from_str(base)
                .unwrap()
                .options([("search_path", schema)]);
            let pool = sqlx::PgPool::connect_with(options).await.unwrap();
            sqlx::query(sql).bind(at).execute(&pool).await.unwrap();
        }
    }
}

fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Waits for the server to close a socket; the close frame, if any.
async fn closed(ws: &mut Ws) -> Option<(u16, String)> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(3);
    loop {
        let next = tokio::time::timeout_at(deadline, ws.stream.next())
            .await
            .expect("the socket is closed within 3 s");
        match next {
            Some(Ok(Message::Close(frame))) => {
                return frame.map(|f| (u16::from(f.code), f.reason.to_string()));
            }
            Some(Ok(_)) => continue,
            None | Some(Err(_)) => return None,
        }
    }
}

async fn logout_closes_the_sessions_sockets(backend: Backend) {
    let server = start(backend).await;
    let phone = server.register("alice").await;
    let laptop = login(&server, "alice").await;
    let mut on_phone = phone.ws().await;
    let mut on_laptop = laptop.ws().await;
    // A table the phone's socket could act at.
    let t = on_phone.create(json!({"game": "chess"})).await;

    let r = phone
        .http
        .post(format!("{}/api/account/logout", phone.base))
        .bearer_auth(&phone.token)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 204);
    // Sent right after the logout answered, before the socket has read its
    // close: not acted on.
    let sit = json!({"t": "sit", "d": {"table": t, "seat": 0}}).to_string();
    let _ = futures_util::SinkExt::send(&mut on_phone.stream, Message::Text(sit.into())).await;
    let frame = closed(&mut on_phone).await;
    assert_eq!(frame, Some((4001, "logged_out".into())));
    assert_eq!(phone.get("/api/account/me").await.status(), 401);
    let game: Value = laptop
        .get(&format!("/api/game/{t}"))
        .await
        .json()
        .await
        .unwrap();
    assert!(
        game["state"]["seats"][0]["user"].is_null(),
        "a socket acted after its logout: {game}"
    );
    // The laptop's session and socket are another session's: still on.
    assert_eq!(laptop.get("/api/account/me").await.status(), 200);
    on_laptop.send("ping", json!({})).await;
    on_laptop.expect("pong").await;
}

async fn logging_out_everywhere_ends_every_session_and_socket(backend: Backend) {
    let server = start(backend).await;
    let a = server.register("bob").await;
    let b = login(&server, "bob").await;
    let c = login(&server, "bob").await;
    let other = server.register("carol").await;
    let mut sockets = vec![a.ws().await, a.ws().await, b.ws().await, c.ws().await];
    let mut carols = other.ws().await;

    let r = b
        .http
        .post(format!("{}/api/account/logout-everywhere", b.base))
        .bearer_auth(&b.token)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["sessions"], 3, "{body}");
    assert_eq!(body["sockets"], 4, "{body}");
    for ws in &mut sockets {
        assert_eq!(closed(ws).await, Some((4001, "logged_out".into())));
    }
    for client in [&a, &b, &c] {
        assert_eq!(client.get("/api/account/me").await.status(), 401);
    }
    assert_eq!(other.get("/api/account/me").await.status(), 200);
    carols.send("ping", json!({})).await;
    carols.expect("pong").await;
    // Without a session there is nobody to log out.
    let r = b
        .http
        .post(format!("{}/api/account/logout-everywhere", b.base))
        .bearer_auth(&b.token)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 401);
}

async fn tokens_are_stored_hashed(backend: Backend) {
    let server = start(backend).await;
    let a = server.register("dora").await;
    let g = server.guest().await;
    let stored = stored_tokens(&server).await;
    assert_eq!(stored.len(), 2);
    for token in [&a.token, &g.token] {
        assert!(!stored.contains(token), "a live token is in the database");
        assert!(stored.contains(&sha256_hex(token)), "{stored:?}");
        assert!(stored.iter().all(|s| !s.contains(token.as_str())));
    }
    // What the database holds does not log anyone in.
    let thief = reqwest::Client::new();
    for hash in &stored {
        let r = thief
            .get(format!("{}/api/account/me", server.base))
            .bearer_auth(hash)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 401);
    }
    assert_eq!(a.get("/api/account/me").await.status(), 200);
}

async fn sessions_expire(backend: Backend) {
    // A lifetime of zero days: every session is over as soon as it starts.
    let server = start_with(backend, |c| c.session_days = 0).await;
    let a = server.register("erin").await;
    assert_eq!(a.get("/api/account/me").await.status(), 401);
    let url = format!("{}?token={}", a.ws_url, a.token);
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    let hello = loop {
        if let Some(Ok(Message::Text(t))) = ws.next().await {
            break serde_json::from_str::<Value>(&t).unwrap();
        }
    };
    assert_eq!(
        hello["d"]["user"],
        Value::Null,
        "an expired session is nobody"
    );
}

/// A socket lives no longer than its session.
async fn a_socket_closes_when_its_session_expires(backend: Backend) {
    let server = start(backend).await;
    let a = server.register("fred").await;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    expire_sessions_at(&server, now + 1500).await;
    let mut ws = a.ws().await;
    ws.send("ping", json!({})).await;
    ws.expect("pong").await;
    let started = std::time::Instant::now();
    assert_eq!(
        closed(&mut ws).await,
        Some((4001, "session_expired".into()))
    );
    assert!(started.elapsed() < Duration::from_secs(3));
    assert_eq!(a.get("/api/account/me").await.status(), 401);
}

/// `Secure` when configured, or when a trusted proxy says https; a client's own
/// `X-Forwarded-Proto` is not believed.
async fn the_cookie_is_secure_over_https(backend: Backend) {
    let cookie_of = async |server: &TestServer, proto: Option<&str>| {
        let mut req = reqwest::Client::new().post(format!("{}/api/account/guest", server.base));
        if let Some(proto) = proto {
            req = req.header("x-forwarded-proto", proto);
        }
        let r = req.send().await.unwrap();
        assert_eq!(r.status(), 201);
        r.headers()["set-cookie"].to_str().unwrap().to_string()
    };
    let plain = start(backend).await;
    assert!(!cookie_of(&plain, None).await.contains("Secure"));
    assert!(!cookie_of(&plain, Some("https")).await.contains("Secure"));
    let proxied = start_with(backend, |c| c.trusted_proxies = vec!["127.0.0.0/8".into()]).await;
    assert!(
        cookie_of(&proxied, Some("https"))
            .await
            .contains("; Secure")
    );
    assert!(!cookie_of(&proxied, Some("http")).await.contains("Secure"));
    let configured = start_with(backend, |c| c.secure_cookies = true).await;
    let cookie = cookie_of(&configured, None).await;
    assert!(
        cookie.contains("; Secure") && cookie.contains("HttpOnly"),
        "{cookie}"
    );
}

both!(
    logout_closes_the_sessions_sockets,
    logging_out_everywhere_ends_every_session_and_socket,
    tokens_are_stored_hashed,
    sessions_expire,
    a_socket_closes_when_its_session_expires,
    the_cookie_is_secure_over_https,
);
