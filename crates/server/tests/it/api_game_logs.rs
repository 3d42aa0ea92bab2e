//! Issue 47: API games that end logged "socket too slow; unsubscribed" again and
//! again. The API's one-off connections (a move's request, a stream) are
//! subscribed to the table while they act; the request reads its answer and
//! drops its queue before the table has told its subscribers of that very move
//! (at a game's end, with the game's rows and ratings written in between, the
//! window is widest), so the table met a closed queue and took it for a slow
//! socket. A closed queue is a connection that has gone: it is dropped quietly.
//! Here API players play whole games while every warning is captured: none
//! may say a socket or a follower was too slow.

use std::io::Write;
use std::sync::Mutex;

use serde_json::Value;

use crate::api::token;
use crate::common::{self, Backend};

/// The server's warnings, as text.
static WARNINGS: Mutex<Vec<u8>> = Mutex::new(Vec::new());

struct Capture;

impl Write for Capture {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        WARNINGS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

const PLAYER: &str = "board:play challenge:read challenge:write";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn api_games_end_without_slow_socket_warnings() {
    // The process's only subscriber (no other test of this binary sets one).
    let _ = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::WARN)
        .with_ansi(false)
        .with_writer(|| Capture)
        .try_init();
    let s = common::start_with(Backend::Sqlite, |c| {
        c.api.keepalive_secs = 0.3;
    })
    .await;
    let alice = token(&s.register("alice").await, PLAYER).await;
    let bobby = token(&s.register("bobby").await, PLAYER).await;
    let mut games = Vec::new();
    // The race is a matter of timing: several games make it all but certain.
    for _ in 0..8 {
        let mut events = bobby.stream("/api/stream/event").await;
        let r = alice
            .post(
                "/api/challenge/bobby",
                &[
                    ("clock.limit", "300"),
                    ("clock.increment", "0"),
                    ("color", "white"),
                ],
            )
            .await;
        assert_eq!(r.status(), 200);
        let c: Value = r.json().await.unwrap();
        let id = c["id"].as_str().unwrap().to_string();
        events
            .until("the challenge", |v| v["type"] == "challenge")
            .await;
        let accepted = bobby
            .post(&format!("/api/challenge/{id}/accept"), &[])
            .await;
        assert_eq!(accepted.status(), 200);
        let start = events
            .until("gameStart", |v| v["type"] == "gameStart")
            .await;
        let game = start["game"]["gameId"].as_str().unwrap().to_string();
        let mut a = alice
            .stream(&format!("/api/board/game/stream/{game}"))
            .await;
        let mut b = bobby
            .stream(&format!("/api/board/game/stream/{game}"))
            .await;
        a.next().await.unwrap();
        b.next().await.unwrap();
        // Fool's mate: the fourth move ends the game.
        for (k, (who, mv)) in [
            (&alice, "f2f3"),
            (&bobby, "e7e5"),
            (&alice, "g2g4"),
            (&bobby, "d8h4"),
        ]
        .into_iter()
        .enumerate()
        {
            who.ok(&format!("/api/board/game/{game}/move/{mv}")).await;
            a.state_with(k + 1).await;
        }
        let end = b
            .until("the end", |v| {
                v["type"] == "gameState" && v["status"] != "started"
            })
            .await;
        assert_eq!(end["status"], "mate", "{end}");
        drop((a, b, events));
        games.push(game);
    }
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let text =
        String::from_utf8_lossy(&WARNINGS.lock().unwrap_or_else(|e| e.into_inner())).into_owned();
    for game in &games {
        let slow: Vec<&str> = text
            .lines()
            .filter(|l| l.contains("too slow") && l.contains(game.as_str()))
            .collect();
        assert!(slow.is_empty(), "{slow:#?}");
    }
}
