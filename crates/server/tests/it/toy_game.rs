//! A fifth game takes its crate and one registry entry: the toy counting game
//! (`qiyuan-count`) is registered here, through the registry's public API only,
//! and played to its end over a real WebSocket, rated, with its record served.

use qiyuan_count::Count;
use qiyuan_server::registry::{Descriptor, Games, NoBots, RecordFormat, TimePreset};
use qiyuan_table::TimeControl;
use serde_json::{Value, json};

use crate::common::*;

/// The one registry entry.
fn count_entry() -> Descriptor {
    Descriptor::new::<Count, NoBots>(2)
        .record(RecordFormat {
            extension: "txt",
            mime: "text/plain; charset=utf-8",
        })
        .presets(vec![TimePreset::new(
            "quick",
            "快棋",
            "quick",
            TimeControl::fischer(5, 0),
        )])
}

async fn a_fifth_game_is_played_over_a_websocket(backend: Backend) {
    let server = start_hosting(backend, Games::builtin().with(count_entry())).await;
    let a = server.register("counter_a").await;
    let b = server.register("counter_b").await;

    // The clients are told of it.
    let games: Value = a.get("/api/games").await.json().await.unwrap();
    let count = games
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == "count")
        .unwrap_or_else(|| panic!("count is listed: {games}"));
    assert_eq!(count["seats"], 2);
    assert_eq!(count["record"]["extension"], "txt");
    assert_eq!(count["presets"][0]["time"]["kind"], "fischer");
    assert_eq!(count["bots"], json!([]));
    let health: Value = a.get("/api/health").await.json().await.unwrap();
    assert!(
        health["games"]
            .as_array()
            .unwrap()
            .contains(&json!("count")),
        "{health}"
    );
    let lobby = a.get("/api/lobby/count").await;
    assert_eq!(lobby.status(), 200);

    // A rated game to 10, with the game's own options and its default clock.
    let mut wa = a.ws().await;
    let hello = &wa.seen[0];
    assert!(
        hello["d"]["game_info"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["name"] == "count"),
        "{hello}"
    );
    let table = wa
        .create(json!({"game": "count", "seat": 0, "rated": true, "options": {"target": 10}}))
        .await;
    let mut wb = b.ws().await;
    wb.send("watch", json!({"table": table})).await;
    let sync = wb.expect("sync").await;
    assert_eq!(
        sync["d"]["state"]["proposal"]["settings"]["time"],
        json!({"kind": "fischer", "base": 300_000, "increment": 0}),
        "the game's first preset by default: {sync}"
    );
    wb.ok("sit", json!({"table": table, "seat": 1})).await;
    wa.ok("ready", json!({"table": table})).await;
    wb.ok("ready", json!({"table": table})).await;
    wa.event("started").await;

    // An illegal action is refused by the game's own rules.
    let r = wa.act("move", json!({"table": table, "action": "4"})).await;
    assert_eq!(r["t"], "error", "{r}");

    let plays = [(0, "3"), (1, "3"), (0, "3"), (1, "1")];
    for (seat, action) in plays {
        let ws = if seat == 0 { &mut wa } else { &mut wb };
        ws.ok("move", json!({"table": table, "action": action}))
            .await;
    }
    let end = wa.event("ended").await;
    let ended = end["d"]["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["type"] == "ended")
        .unwrap();
    assert_eq!(ended["outcome"]["reason"], "counted", "{ended}");
    assert_eq!(ended["outcome"]["results"], json!(["loss", "win"]));
    assert_eq!(wa.state()["game"]["board"]["total"], 10, "{}", wa.state());

    // The record, in the entry's format.
    let wrong = a.get(&format!("/game/{table}.pgn")).await;
    assert_eq!(wrong.status(), 404);
    let record = a.get(&format!("/game/{table}.txt")).await;
    assert_eq!(record.status(), 200);
    assert!(
        record.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain"),
        "{:?}",
        record.headers()
    );
    let text = record.text().await.unwrap();
    assert!(text.contains("3 3 3 1") && text.contains("0-1"), "{text}");
    assert!(
        text.contains("counter_a") && text.contains("counter_b"),
        "{text}"
    );

    // Rated in the game's own pool.
    let profile: Value = a.get("/api/user/counter_b").await.json().await.unwrap();
    let pools: Vec<&str> = profile["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["pool"].as_str().unwrap())
        .collect();
    assert_eq!(pools, ["count"], "{profile}");
}

/// Without the entry the game does not exist.
async fn an_unregistered_game_is_refused(backend: Backend) {
    let server = start(backend).await;
    let a = server.guest().await;
    let mut wa = a.ws().await;
    let r = wa.act("create", json!({"game": "count", "seat": 0})).await;
    assert_eq!(r["t"], "error");
    assert_eq!(r["d"]["code"], "unknown_game", "{r}");
    assert_eq!(a.get("/api/lobby/count").await.status(), 404);
}

both!(
    a_fifth_game_is_played_over_a_websocket,
    an_unregistered_game_is_refused
);
