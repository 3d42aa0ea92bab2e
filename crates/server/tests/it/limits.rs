//! Resource limits against the real server: slowloris connections are closed
//! within 10 s, one address has at most `max_sockets_per_address` connections
//! (counted by forwarded address behind a trusted proxy), guests and
//! registrations per address are rate limited, and lobby replies are paged.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use crate::common::*;

/// 100 connections that send a request's headers one byte a second, and 20
/// that send nothing: every one is closed by the server within 10 s, while a
/// normal client is served throughout.
async fn slowloris_connections_are_closed(backend: Backend) {
    let server = start_with(backend, |c| c.max_sockets_per_address = 0).await;
    let addr = server.running.as_ref().unwrap().addr;
    let started = Instant::now();
    let slow = (0..120).map(|i| async move {
        let mut tcp = TcpStream::connect(addr).await.unwrap();
        let head = b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
        let mut buf = [0u8; 512];
        for byte in head.iter().cycle() {
            if i >= 100 {
                // Silent: only read.
                match tcp.read(&mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(_) => continue,
                }
            }
            if tcp.write_all(&[*byte]).await.is_err() {
                break;
            }
            // Closed by the server: the read ends (0 bytes, or a 408 then 0).
            match tokio::time::timeout(Duration::from_secs(1), tcp.read(&mut buf)).await {
                Ok(Ok(0)) | Ok(Err(_)) => break,
                Ok(Ok(_)) | Err(_) => {}
            }
            assert!(started.elapsed() < Duration::from_secs(30), "never closed");
        }
        started.elapsed()
    });
    let normal = async {
        let http = reqwest::Client::new();
        for _ in 0..5 {
            tokio::time::sleep(Duration::from_secs(1)).await;
            let r = http
                .get(format!("{}/api/health", server.base))
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), 200, "served during the attack");
        }
    };
    let (times, ()) = tokio::join!(futures_util::future::join_all(slow), normal);
    let slowest = times.iter().max().unwrap();
    let fastest = times.iter().min().unwrap();
    println!("120 slowloris connections closed after {fastest:?} to {slowest:?}");
    assert!(
        *slowest < Duration::from_secs(10),
        "the last slow connection lasted {slowest:?}"
    );
}

async fn ws_connect(url: &str, forwarded: Option<&str>) -> Result<Ws, u16> {
    let mut req = url.into_client_request().unwrap();
    if let Some(f) = forwarded {
        req.headers_mut()
            .insert("x-forwarded-for", f.parse().unwrap());
    }
    match tokio_tungstenite::connect_async(req).await {
        Ok((stream, _)) => {
            let mut ws = Ws {
                stream,
                seen: Vec::new(),
                views: Default::default(),
            };
            ws.expect("hello").await;
            Ok(ws)
        }
        Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => Err(resp.status().as_u16()),
        // Refused at accept: the 429 may race the client's request.
        Err(_) => Err(0),
    }
}

/// The per-address cap on connections, on direct peers and (behind a trusted
/// proxy) on forwarded addresses; a closed socket frees its place.
async fn sockets_per_address_are_capped(backend: Backend) {
    let server = start_with(backend, |c| c.max_sockets_per_address = 5).await;
    let mut open = Vec::new();
    for _ in 0..5 {
        open.push(ws_connect(&server.ws, None).await.expect("under the cap"));
    }
    match ws_connect(&server.ws, None).await {
        Err(429 | 0) => {}
        other => panic!("the 6th socket was not refused: {:?}", other.map(|_| ())),
    }
    // A plain HTTP request is a connection too, and is told why in JSON.
    let r = reqwest::get(format!("{}/api/health", server.base)).await;
    if let Ok(r) = r {
        assert_eq!(r.status(), 429);
        assert_eq!(
            r.json::<Value>().await.unwrap()["error"]["code"],
            "too_many_sockets"
        );
    }
    open.pop().unwrap().close().await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    open.push(
        ws_connect(&server.ws, None)
            .await
            .expect("a place was freed"),
    );

    let proxied = start_with(backend, |c| {
        c.max_sockets_per_address = 3;
        c.trusted_proxies = vec!["127.0.0.1".into()];
    })
    .await;
    let mut from_a = Vec::new();
    for _ in 0..3 {
        from_a.push(ws_connect(&proxied.ws, Some("203.0.113.1")).await.unwrap());
    }
    assert_eq!(
        ws_connect(&proxied.ws, Some("203.0.113.1")).await.err(),
        Some(429),
        "the 4th from one forwarded address"
    );
    let _b = ws_connect(&proxied.ws, Some("203.0.113.2"))
        .await
        .expect("another address");
}

/// Guests and registrations per address per hour.
async fn guests_and_registrations_are_rate_limited(backend: Backend) {
    let server = start_with(backend, |c| {
        c.guests_per_address_per_hour = 3;
        c.registrations_per_address_per_hour = 2;
        c.trusted_proxies = vec!["127.0.0.1".into()];
    })
    .await;
    let http = reqwest::Client::new();
    let post = async |path: &str, body: Value, from: &str| {
        let r = http
            .post(format!("{}{path}", server.base))
            .header("x-forwarded-for", from)
            .json(&body)
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        let retry = r.headers().get("retry-after").is_some();
        (status, retry, r.json::<Value>().await.unwrap())
    };
    for _ in 0..3 {
        assert_eq!(
            post("/api/account/guest", json!({}), "192.0.2.1").await.0,
            201
        );
    }
    let (status, retry, body) = post("/api/account/guest", json!({}), "192.0.2.1").await;
    assert_eq!((status, retry), (429, true), "{body}");
    assert_eq!(body["error"]["code"], "rate_limited");
    assert_eq!(
        post("/api/account/guest", json!({}), "192.0.2.2").await.0,
        201
    );

    let account = |name: &str| json!({"username": name, "password": "secret-pw"});
    assert_eq!(
        post("/api/account/register", account("reg1"), "192.0.2.1")
            .await
            .0,
        201
    );
    assert_eq!(
        post("/api/account/register", account("reg2"), "192.0.2.1")
            .await
            .0,
        201
    );
    let (status, _, body) = post("/api/account/register", account("reg3"), "192.0.2.1").await;
    assert_eq!(status, 429, "{body}");
    assert_eq!(body["error"]["code"], "rate_limited");
    assert_eq!(
        post("/api/account/register", account("reg3"), "192.0.2.9")
            .await
            .0,
        201
    );
}

/// However many tables a room has, one reply lists at most a page; the rest are
/// reached with `after`.
async fn lobby_replies_are_paged(backend: Backend) {
    let server = start_with(backend, |c| c.lobby_page_size = 5).await;
    let mut made = Vec::new();
    // Four tables each from three players (under any per-player cap).
    for _ in 0..3 {
        let g = server.guest().await;
        let mut ws = g.ws().await;
        for _ in 0..4 {
            made.push(ws.create(json!({"game": "chess"})).await);
        }
    }
    made.sort();
    let g = server.guest().await;
    let mut seen = Vec::new();
    let mut after = String::new();
    loop {
        let path = if after.is_empty() {
            "/api/lobby/chess".to_string()
        } else {
            format!("/api/lobby/chess?after={after}")
        };
        let page: Value = g.get(&path).await.json().await.unwrap();
        let ids: Vec<String> = page
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["id"].as_str().unwrap().to_string())
            .collect();
        assert!(ids.len() <= 5, "{ids:?}");
        let Some(last) = ids.last().cloned() else {
            break;
        };
        seen.extend(ids);
        after = last;
    }
    assert_eq!(seen, made, "every table once, in id order");
    let page: Value = g
        .get("/api/lobby/chess?limit=2")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(page.as_array().unwrap().len(), 2);
    let page: Value = g
        .get("/api/lobby/chess?limit=500")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(page.as_array().unwrap().len(), 5, "never more than a page");

    let mut ws = g.ws().await;
    ws.send("lobby.subscribe", json!({"game": "chess"})).await;
    let lobby = ws.expect("lobby").await;
    assert_eq!(lobby["d"]["tables"].as_array().unwrap().len(), 5);
    assert_eq!(lobby["d"]["more"], true);
}

both!(
    slowloris_connections_are_closed,
    sockets_per_address_are_capped,
    guests_and_registrations_are_rate_limited,
    lobby_replies_are_paged,
);
