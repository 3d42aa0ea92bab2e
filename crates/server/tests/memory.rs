//! Memory under load, measured on the real server in this process (its resident
//! set, from /proc/self/status): what an idle WebSocket costs, and that a burst
//! of hundreds of logins does not grow the server by their argon2 memory (19 MiB
//! each) because at most `password_hashes_at_once` run together. One test, so
//! that nothing else runs in the process while it measures. Prints the figures
//! that docs/reliability.md quotes:
//! `cargo test -p qiyuan-server --test memory -- --nocapture`.

#[path = "it/common/mod.rs"]
mod common;

use std::time::Duration;

use common::*;
use serde_json::json;

/// (VmRSS, VmHWM) in KiB.
fn rss_kib() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap()
    };
    (field("VmRSS:"), field("VmHWM:"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_sockets_and_login_bursts_stay_bounded() {
    let server = start_with(Backend::Sqlite, |c| {
        c.max_sockets_per_address = 0;
        c.trusted_proxies = vec!["127.0.0.1".into()];
        c.login_attempts_per_minute = 1000;
        c.login_failures_per_address = 1000;
        c.guests_per_address_per_hour = 0;
    })
    .await;
    server.register("victim").await;
    let g = server.guest().await;

    // A burst of 200 logins from 200 addresses (so that no rate limit stops
    // them): all reach the hashers, at most two run at once.
    let (rss0, hwm0) = rss_kib();
    let http = reqwest::Client::new();
    let burst = (0..200).map(|i| {
        let http = http.clone();
        let base = server.base.clone();
        async move {
            http.post(format!("{base}/api/account/login"))
                .header(
                    "x-forwarded-for",
                    format!("10.9.{}.{}", i / 200, i % 200 + 1),
                )
                .json(&json!({"username": "victim", "password": format!("guess-{i}")}))
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        }
    });
    let started = std::time::Instant::now();
    let statuses = futures_util::future::join_all(burst).await;
    let took = started.elapsed();
    let (rss1, hwm1) = rss_kib();
    let wrong = statuses.iter().filter(|s| **s == 401).count();
    let busy = statuses.iter().filter(|s| **s == 429).count();
    assert_eq!(wrong + busy, 200, "{statuses:?}");
    let peak_growth = hwm1.saturating_sub(rss0) / 1024;
    println!(
        "200 logins at once: {wrong} verified, {busy} told busy, in {:.1} s; RSS {} → {} MiB, peak {} MiB (+{peak_growth} MiB)",
        took.as_secs_f64(),
        rss0 / 1024,
        rss1 / 1024,
        hwm1 / 1024,
    );
    assert!(wrong > 0, "some were verified");
    // Unbounded, 200 hashes at once would take ~3.8 GiB.
    assert!(
        peak_growth < 200,
        "the burst grew the peak RSS by {peak_growth} MiB"
    );
    let _ = hwm0;

    // Idle sockets: open 1000 (a warm-up 50 first), measure the growth.
    // The test's own ends are made small too (a 4 KiB read buffer), as both
    // live in this process.
    let url = format!("{}?token={}", g.ws_url, g.token);
    let connect = async || {
        let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
            .read_buffer_size(4096)
            .write_buffer_size(0);
        let (mut ws, _) =
            tokio_tungstenite::connect_async_with_config(url.as_str(), Some(config), false)
                .await
                .unwrap();
        // The hello: the socket is open and registered.
        futures_util::StreamExt::next(&mut ws)
            .await
            .unwrap()
            .unwrap();
        ws
    };
    let mut warm = Vec::new();
    for _ in 0..50 {
        warm.push(connect().await);
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (before, _) = rss_kib();
    let mut idle = Vec::new();
    for _ in 0..1000 {
        idle.push(connect().await);
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (after, _) = rss_kib();
    // Both ends live in this process: the client's half is counted too, so
    // this is an upper bound of the server's cost.
    let per_socket = (after.saturating_sub(before)) as f64 / 1000.0;
    println!("idle WebSocket (server and test client together): {per_socket:.1} KiB each");
    assert!(per_socket < 64.0, "{per_socket} KiB per idle socket");
    drop(idle);
    drop(warm);
    tokio::time::sleep(Duration::from_millis(500)).await;
}
