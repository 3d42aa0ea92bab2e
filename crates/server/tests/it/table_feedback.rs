//! What a player is told at the table, through the real server: a declined
//! proposal reaches the proposer, a loaded position (读入) is in every seat's
//! view before the game, the end says which time limit ran out, no rematch once
//! the opponent left, and a casual game from a seek changes no rating.

use serde_json::{Value, json};

use crate::common::*;

const LOADED: &str = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";

fn last_event<'a>(seen: &'a [Value], ty: &str) -> Option<&'a Value> {
    seen.iter().rev().find_map(|m| {
        m["d"]["events"]
            .as_array()?
            .iter()
            .find(|e| e["type"] == ty)
    })
}

async fn handshake_preview_and_no_rematch_after_leaving(backend: Backend) {
    let server = start(backend).await;
    let a = server.register("feedbackA").await;
    let b = server.register("feedbackB").await;
    let mut wa = a.ws().await;
    let mut wb = b.ws().await;
    let t = wa
        .create(json!({"game": "chess", "time": three_plus_two(), "seat": 0}))
        .await;
    wa.event("sat").await;
    wb.send("watch", json!({"table": t})).await;
    wb.expect("sync").await;
    wb.ok("sit", json!({"table": t, "seat": 1})).await;
    // A proposal, declined: the proposer hears it, the proposal stands.
    let settings =
        json!({"time": {"kind": "fischer", "base": 600000, "increment": 0}, "rated": false});
    wa.ok("propose", json!({"table": t, "settings": settings}))
        .await;
    wb.event("proposed").await;
    let id = wb.state()["proposal"]["id"].as_u64().unwrap();
    let e = wa.act("decline", json!({"table": t, "proposal": id})).await;
    assert_eq!(e["d"]["code"], "not_allowed", "one's own proposal: {e}");
    wb.ok("decline", json!({"table": t, "proposal": id})).await;
    let declined = wa.event("declined").await;
    let ev = last_event(std::slice::from_ref(&declined), "declined").unwrap();
    assert_eq!(ev["seat"], 1, "{declined}");
    assert_eq!(ev["proposal"], id, "{declined}");
    assert_eq!(wa.state()["proposal"]["id"], id);
    // 读入: the loaded position is in both players' views at once.
    let settings = json!({"time": three_plus_two(), "setup": {"position": LOADED}});
    wa.ok("propose", json!({"table": t, "settings": settings}))
        .await;
    wb.event("proposed").await;
    for (who, view) in [("proposer", wa.state()), ("opponent", wb.state())] {
        let fen = view["preview"]["fen"].as_str().unwrap_or_default();
        assert_eq!(fen, LOADED, "{who}: {view}");
    }
    wa.ok("ready", json!({"table": t})).await;
    wb.ok("ready", json!({"table": t})).await;
    wa.event("started").await;
    assert!(wa.state()["preview"].is_null());
    assert_eq!(wa.state()["game"]["board"]["fen"], LOADED);
    wa.ok("move", json!({"table": t, "action": "e2e4"})).await;
    wb.ok("move", json!({"table": t, "action": "e8d7"})).await;
    wb.ok("resign", json!({"table": t})).await;
    wa.event("ended").await;
    // The opponent leaves: no rematch to ask for.
    wb.ok("leave", json!({"table": t})).await;
    wa.event("stood").await;
    let e = wa.act("rematch", json!({"table": t})).await;
    assert_eq!(e["d"]["code"], "not_allowed", "{e}");
}

async fn the_end_names_the_limit(backend: Backend) {
    let server = start(backend).await;
    let a = server.guest().await;
    let b = server.guest().await;
    // 步时 of 1.5 s against a minute of 局时: the move limit runs out.
    let time = json!({"kind": "qq", "game": 60000, "per_move": 1500, "countdown": 10000});
    let (t, mut wa, mut wb) = table_with_game(&server, &a, &b, "chess", time).await;
    wa.ok("move", json!({"table": t, "action": "e2e4"})).await;
    wb.ok("move", json!({"table": t, "action": "e7e5"})).await;
    let end = wa.event("ended").await;
    let ev = last_event(std::slice::from_ref(&end), "ended").unwrap();
    assert_eq!(ev["outcome"]["reason"], "timeout", "{end}");
    assert_eq!(wa.state()["game"]["end_detail"], "move_time", "{end}");
    // Only one side moved before the time ran out: not counted.
    let (t, mut wa, mut wb) = table_with_game(
        &server,
        &a,
        &b,
        "chess",
        json!({"kind": "qq", "game": 60000, "per_move": 1500, "countdown": 10000}),
    )
    .await;
    wa.ok("move", json!({"table": t, "action": "e2e4"})).await;
    let end = wb.event("ended").await;
    let ev = last_event(std::slice::from_ref(&end), "ended").unwrap();
    assert_eq!(ev["outcome"]["reason"], "aborted", "{end}");
    assert_eq!(wb.state()["game"]["end_detail"], "not_counted", "{end}");
}

async fn a_casual_seek_changes_no_rating(backend: Backend) {
    let server = start(backend).await;
    let a = server.register("casualSeekA").await;
    let b = server.register("casualSeekB").await;
    let mut wa = a.ws().await;
    let mut wb = b.ws().await;
    let seek = json!({"game": "chess", "time": three_plus_two(), "rated": false});
    wa.ok("seek", seek.clone()).await;
    let r = wb.ok("seek", seek).await;
    let t = r["d"]["table"].as_str().unwrap().to_string();
    wa.expect("paired").await;
    wa.ok("move", json!({"table": t, "action": "e2e4"})).await;
    wb.ok("move", json!({"table": t, "action": "e7e5"})).await;
    wb.ok("resign", json!({"table": t})).await;
    let end = wa.event("ended").await;
    let ev = last_event(std::slice::from_ref(&end), "ended").unwrap();
    assert_eq!(ev["rated"], false, "{end}");
    assert!(end["d"]["ratings"].is_null(), "{end}");
    for c in [&a, &b] {
        let me: Value = c.get("/api/account/me").await.json().await.unwrap();
        let games: i64 = me["ratings"]
            .as_array()
            .map(|r| r.iter().filter_map(|x| x["games"].as_i64()).sum())
            .unwrap_or(0);
        assert_eq!(games, 0, "no rated game counted: {me}");
    }
    // A guest's rated seek is refused; a casual one waits.
    let g = server.guest().await;
    let mut wg = g.ws().await;
    let e = wg
        .act(
            "seek",
            json!({"game": "chess", "time": three_plus_two(), "rated": true}),
        )
        .await;
    assert_eq!(e["d"]["code"], "guest_rated", "{e}");
}

both!(
    handshake_preview_and_no_rematch_after_leaving,
    the_end_names_the_limit,
    a_casual_seek_changes_no_rating
);

fn three_plus_two() -> Value {
    json!({"kind": "fischer", "base": 180000, "increment": 2000})
}
