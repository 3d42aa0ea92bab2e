//! The compute budget (issue 41), over real sockets against the real server:
//! eight level-8 computer tables with long clocks from one person never run
//! more searches at once than the budget allows, the server stays responsive
//! (its health answers within 100 ms) and a resignation is answered at once
//! while the bots think; reviews whose clients hang up stop their searches.
#![cfg(feature = "chess")]

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::*;

/// A metric's value from `/metrics`.
async fn metric(client: &Client, name: &str) -> f64 {
    let text = client.get("/metrics").await.text().await.unwrap();
    text.lines()
        .find(|l| l.starts_with(name) && l[name.len()..].starts_with('{'))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {name} in /metrics"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eight_strong_bots_from_one_person_stay_within_the_budget() {
    const BUDGET: usize = 2;
    if std::env::var_os("CB_DEBUG").is_some() {
        qiyuan_server::logs::init("qiyuan_server=debug", qiyuan_server::logs::LogFormat::Text);
    }
    let server = start_with(Backend::Sqlite, |c| {
        c.bot_think_ms = 0;
        c.compute_threads = Some(BUDGET);
        c.bot_move_max_ms = 3_000;
    })
    .await;
    let human = server.guest().await;
    let mut ws = human.ws().await;
    // Six hours each: the longest live clock (a level-8 bot would once have
    // thought 12 minutes a move on it).
    let time = json!({"kind": "fischer", "base": 6 * 3_600_000u64, "increment": 0});
    let mut tables = Vec::new();
    for _ in 0..8 {
        let r = ws
            .ok(
                "play_computer",
                json!({"game": "chess", "level": 8, "colour": "white", "time": time}),
            )
            .await;
        tables.push(r["d"]["table"].as_str().unwrap().to_string());
    }
    // Every bot is to think at once.
    for t in &tables {
        ws.ok("move", json!({"table": t, "action": "e2e4"})).await;
    }
    // The server answers at once while they think.
    let mut worst = Duration::ZERO;
    let until = Instant::now() + Duration::from_secs(4);
    while Instant::now() < until {
        let asked = Instant::now();
        let r = human.get("/api/health").await;
        assert!(r.status().is_success());
        worst = worst.max(asked.elapsed());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let running = metric(&human, "qiyuan_searches_running").await;
    let waiting = metric(&human, "qiyuan_searches_waiting").await;
    // A resignation at a table whose bot thinks (or waits its turn) is
    // answered at once.
    let asked = Instant::now();
    let r = ws.act("resign", json!({"table": tables[7]})).await;
    let answered = asked.elapsed();
    assert_eq!(r["t"], "ack", "{r}");
    let peak = metric(&human, "qiyuan_searches_peak").await;
    eprintln!(
        "8 level-8 tables: health at worst {worst:?}, {running} searches running and {waiting} \
         waiting, peak {peak}, resignation answered in {answered:?}"
    );
    assert!(worst < Duration::from_millis(100), "health took {worst:?}");
    assert!(answered < Duration::from_secs(1), "{answered:?}");
    assert!(peak <= BUDGET as f64, "{peak} searches ran at once");
    assert!(running <= BUDGET as f64);
    // Each bot moves within the per-move cap, in turn: every table gets its
    // move (the queue takes a few caps' time).
    let until = Instant::now() + Duration::from_secs(30);
    let moved = |ws: &Ws| {
        tables[..7]
            .iter()
            .filter(|t| {
                ws.views
                    .tables
                    .get(*t)
                    .is_some_and(|v| v["game"]["moves"].as_array().is_some_and(|m| m.len() >= 2))
            })
            .count()
    };
    while moved(&ws) < 7 {
        assert!(
            Instant::now() < until,
            "bots moved at {} of 7 tables",
            moved(&ws)
        );
        ws.recv().await;
    }
    assert!(metric(&human, "qiyuan_searches_peak").await <= BUDGET as f64);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reviews_whose_clients_hang_up_stop_their_searches() {
    let server = start_with(Backend::Sqlite, |c| c.compute_threads = Some(2)).await;
    let a = server.guest().await;
    let b = server.guest().await;
    let (table, mut wa, mut wb) =
        table_with_game(&server, &a, &b, "chess", json!({"kind": "none"})).await;
    let moves = ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"];
    for (i, m) in moves.iter().enumerate() {
        let ws = if i % 2 == 0 { &mut wa } else { &mut wb };
        ws.ok("move", json!({"table": table, "action": m})).await;
    }
    while wa.state()["status"] != "over" {
        wa.recv().await;
    }
    // Six reviews of a second a position, each given up after 0.3 s.
    let mut hung_up = Vec::new();
    for _ in 0..6 {
        let url = format!("{}/api/game/{table}/analysis?ms=1000", server.base);
        hung_up.push(tokio::spawn(async move {
            reqwest::Client::new()
                .get(url)
                .timeout(Duration::from_millis(300))
                .send()
                .await
        }));
    }
    for h in hung_up {
        assert!(h.await.unwrap().is_err(), "the review answered in 0.3 s");
    }
    let gone = Instant::now();
    let until = gone + Duration::from_secs(2);
    loop {
        let running = metric(&a, "qiyuan_searches_running").await;
        let waiting = metric(&a, "qiyuan_searches_waiting").await;
        if running == 0.0 && waiting == 0.0 {
            break;
        }
        assert!(
            Instant::now() < until,
            "2 s after the clients left: {running} searches running, {waiting} waiting"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    eprintln!(
        "six abandoned reviews: no search left {:?} after",
        gone.elapsed()
    );
    // A review whose client waits is still made.
    let r: Value = a
        .http
        .get(format!("{}/api/game/{table}/analysis?ms=100", a.base))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(r["moves"].as_array().map(Vec::len), Some(7), "{r}");
}
