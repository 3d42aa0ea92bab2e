//! Arbiters' roles and tools at an event (issue 44 point 8), on SQLite and
//! PostgreSQL: the organiser names table arbiters (监局裁判, the default) and
//! one chief arbiter (裁判长); a table arbiter asking for a chief's act is
//! refused with `chief_only`; a position is restored (the game is the replay
//! of its first moves), a clock is adjusted, a game's clocks are stopped and
//! started again (a restart keeps the pause); a table arbiter refers a case
//! and the chief decides it; an incorrect claim gives the opponent two
//! minutes; the actions are in the game's record as comments.

use std::time::Duration;

use qiyuan_testkit::clock::now_ms;
use serde_json::{Value, json};

use crate::common::{self, Backend, Client, TestServer, Ws, event, post};

/// A two-player, one-round chess event with a table arbiter `tab` and a
/// chief `chief`, started, its game's table watched by both players.
struct Ev {
    server: TestServer,
    org: Client,
    tab: Client,
    chief: Client,
    white: (Client, Ws),
    black: (Client, Ws),
    id: String,
    table: String,
}

async fn start(backend: Backend) -> Ev {
    let server: TestServer = common::start_with(backend, |c| c.event_tick_ms = 50).await;
    let store = server.running.as_ref().unwrap().app.store.clone();
    let org = server.register("org").await;
    let tab = server.register("tab").await;
    let chief = server.register("chief").await;
    qiyuan_server::events::grant(&*store, "org", "organiser")
        .await
        .unwrap();
    for a in ["tab", "chief"] {
        qiyuan_server::events::grant(&*store, a, "arbiter")
            .await
            .unwrap();
    }
    let config = |starts_at: i64| {
        json!({
            "name": "裁判 night",
            "game": "chess",
            "time": {"kind": "fischer", "base": 600000, "increment": 0},
            "rounds": 1,
            "starts_at": starts_at,
            "forfeit_secs": 600.0,
        })
    };
    let (status, created) = post(&org, "/api/events", config(now_ms() + 3_600_000)).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    // An old caller: no role, a table arbiter.
    let (status, r) = post(
        &org,
        &format!("/api/event/{id}/arbiters"),
        json!({"user": "tab"}),
    )
    .await;
    assert_eq!((status, r["role"].clone()), (200, json!("table")), "{r}");
    let (status, r) = post(
        &org,
        &format!("/api/event/{id}/arbiters"),
        json!({"user": "chief", "role": "chief"}),
    )
    .await;
    assert_eq!(status, 200, "{r}");
    let (status, r) = post(
        &org,
        &format!("/api/event/{id}/arbiters"),
        json!({"user": "chief", "role": "deputy"}),
    )
    .await;
    assert_eq!(
        (status, r["error"]["code"].clone()),
        (400, json!("bad_role")),
        "{r}"
    );
    let mut ps = Vec::new();
    for name in ["p01", "p02"] {
        let c = server.register(name).await;
        let (status, r) = post(&c, &format!("/api/event/{id}/register"), json!({})).await;
        assert_eq!(status, 200, "{r}");
        let ws = c.ws().await;
        ps.push((c, ws));
    }
    let r = org
        .http
        .patch(format!("{}/api/event/{id}", org.base))
        .bearer_auth(&org.token)
        .json(&config(now_ms()))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let mut table = None;
    let mut white = String::new();
    for _ in 0..400 {
        let ev = event(&org, &id).await;
        if let Some(t) = ev["rounds"][0]["games"][0]["table"].as_str() {
            table = Some(t.to_string());
            white = ev["rounds"][0]["games"][0]["white"]
                .as_str()
                .unwrap()
                .into();
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let table = table.expect("round 1 paired");
    if ps[0].0.name != white {
        ps.swap(0, 1);
    }
    let black = ps.pop().unwrap();
    let white = ps.pop().unwrap();
    let mut e = Ev {
        server,
        org,
        tab,
        chief,
        white,
        black,
        id,
        table,
    };
    for ws in [&mut e.white.1, &mut e.black.1] {
        ws.send("watch", json!({"table": e.table})).await;
        ws.expect("sync").await;
    }
    e
}

impl Ev {
    async fn act(&self, by: &Client, d: Value) -> (u16, Value) {
        common::arbiter_act(by, &self.id, d).await
    }

    /// `by`'s act `d` is refused with `status` and `code`.
    async fn refused(&self, by: &Client, d: Value, status: u16, code: &str) {
        common::act_refused(by, &self.id, d, status, code).await;
    }

    async fn moves(&mut self, list: &[&str]) {
        for (i, m) in list.iter().enumerate() {
            let ws = if i % 2 == 0 {
                &mut self.white.1
            } else {
                &mut self.black.1
            };
            ws.ok("move", json!({"table": self.table, "action": m}))
                .await;
        }
    }

    fn name(&self, white: bool) -> String {
        if white {
            self.white.0.name.clone()
        } else {
            self.black.0.name.clone()
        }
    }
}

/// The game's moves and clock as the table shows them now (a fresh socket).
async fn game_view(c: &Client, table: &str) -> Value {
    let mut ws = c.ws().await;
    ws.send("watch", json!({"table": table})).await;
    ws.expect("sync").await;
    ws.state()["game"].clone()
}

/// Roles: the event shows them; a table arbiter's chief acts are refused
/// (`chief_only`), the chief's are done; naming another chief makes the
/// previous one a table arbiter.
async fn roles(backend: Backend) {
    let mut e = start(backend).await;
    let ev = event(&e.org, &e.id).await;
    assert_eq!(ev["chief"], "chief", "{ev}");
    assert!(
        ev["arbiter_roles"]
            .as_array()
            .unwrap()
            .contains(&json!({"user": "tab", "role": "table"})),
        "{ev}"
    );
    e.moves(&["e2e4", "e7e5"]).await;
    let white = e.name(true);
    for kind in ["adjudicate", "forfeit", "disqualify"] {
        e.refused(
            &e.tab,
            json!({"kind": kind, "player": white, "reason": "r", "result": "0-1"}),
            403,
            "chief_only",
        )
        .await;
    }
    e.refused(
        &e.tab,
        json!({"kind": "violation", "player": white, "reason": "r", "grave": true}),
        403,
        "chief_only",
    )
    .await;
    // A table arbiter's own acts.
    let (status, body) = e
        .act(
            &e.tab,
            json!({"kind": "warning", "player": white, "reason": "说话"}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let g = game_view(&e.org, &e.table).await;
    assert_eq!(g["warnings"], json!([1, 0]), "{g}");
    assert!(g["outcome"].is_null());
    // A new chief: the old one is a table arbiter now.
    let store = e.server.running.as_ref().unwrap().app.store.clone();
    let _third = e.server.register("third").await;
    qiyuan_server::events::grant(&*store, "third", "arbiter")
        .await
        .unwrap();
    let (status, _) = post(
        &e.org,
        &format!("/api/event/{}/arbiters", e.id),
        json!({"user": "third", "role": "chief"}),
    )
    .await;
    assert_eq!(status, 200);
    let ev = event(&e.org, &e.id).await;
    assert_eq!(ev["chief"], "third", "{ev}");
    e.refused(
        &e.chief,
        json!({"kind": "adjudicate", "player": white, "reason": "r", "result": "0-1"}),
        403,
        "chief_only",
    )
    .await;
}

/// A position restored (the game is the replay of its first moves), time
/// added to a clock, the clocks stopped: no move is taken, a restart keeps
/// the pause; started again, the game goes on. All in the event report.
async fn restore_clock_pause(backend: Backend) {
    let mut e = start(backend).await;
    e.moves(&["e2e4", "e7e5", "g1f3", "b8c6"]).await;
    let white = e.name(true);
    let black = e.name(false);
    let (status, body) = e
        .act(
            &e.tab,
            json!({"kind": "restore", "player": white, "ply": 2, "reason": "3.Nf3 found illegal (第3条8)"}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    e.white.1.event("restored").await;
    let g = game_view(&e.org, &e.table).await;
    let moves: Vec<&str> = g["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["action"].as_str().unwrap())
        .collect();
    assert_eq!(moves, ["e2e4", "e7e5"], "{g}");
    // Only a position before the last move; a ply is named.
    e.refused(
        &e.tab,
        json!({"kind": "restore", "player": white, "ply": 2, "reason": "r"}),
        409,
        "refused",
    )
    .await;
    let (status, _) = e
        .act(
            &e.tab,
            json!({"kind": "restore", "player": white, "reason": "r"}),
        )
        .await;
    assert_eq!(status, 400);
    // Two minutes for Black.
    let before = g["clock"]["seats"][1]["main"].as_u64().unwrap();
    let (status, body) = e
        .act(
            &e.tab,
            json!({"kind": "clock", "player": black, "seconds": 120, "reason": "the clock was set wrong"}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let g = game_view(&e.org, &e.table).await;
    assert_eq!(
        g["clock"]["seats"][1]["main"].as_u64().unwrap(),
        before + 120_000
    );
    // Stopped: White's move is refused, the view says paused.
    let (status, body) = e
        .act(
            &e.tab,
            json!({"kind": "pause", "player": white, "reason": "a dispute"}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let r = e
        .white
        .1
        .act("move", json!({"table": e.table, "action": "d2d4"}))
        .await;
    assert_eq!(r["t"], "error", "{r}");
    assert_eq!(game_view(&e.org, &e.table).await["paused"], true);
    // A restart keeps it.
    e.server.restart().await;
    for c in [&mut e.org, &mut e.tab, &mut e.white.0] {
        c.follow(&e.server);
    }
    let g = game_view(&e.org, &e.table).await;
    assert_eq!(g["paused"], true, "{g}");
    let (status, body) = e
        .act(
            &e.tab,
            json!({"kind": "resume", "player": white, "reason": "settled"}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let mut ws = e.white.0.ws().await;
    ws.send("watch", json!({"table": e.table})).await;
    ws.expect("sync").await;
    ws.ok("move", json!({"table": e.table, "action": "d2d4"}))
        .await;
    let ev = event(&e.org, &e.id).await;
    let kinds: Vec<&str> = ev["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["restore", "clock", "pause", "resume"], "{ev}");
}

/// A table arbiter refers a case; the chief sees it open, decides it with a
/// foul, and it is closed; a second decision is refused, and a table
/// arbiter cannot decide.
async fn referral(backend: Backend) {
    let mut e = start(backend).await;
    e.moves(&["e2e4", "e7e5"]).await;
    let black = e.name(false);
    let white = e.name(true);
    let (status, body) = e
        .act(
            &e.tab,
            json!({"kind": "warning", "player": white, "reason": "spoke to a spectator"}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    e.white
        .1
        .ok("move", json!({"table": e.table, "action": "g1f3"}))
        .await;
    let (status, body) = e
        .act(
            &e.tab,
            json!({"kind": "refer", "player": black, "reason": "White says Black touched a piece and moved another"}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let rid = body["id"].as_i64().unwrap();
    let ev = event(&e.chief, &e.id).await;
    let r = &ev["referrals"][0];
    assert_eq!(
        (r["open"].clone(), r["by"].clone(), r["player"].clone()),
        (json!(true), json!("tab"), json!(black)),
        "{ev}"
    );
    e.refused(
        &e.tab,
        json!({"kind": "decide", "referral": rid, "reason": "no"}),
        403,
        "chief_only",
    )
    .await;
    let (status, body) = e
        .act(
            &e.chief,
            json!({"kind": "decide", "referral": rid, "action": "foul", "reason": "touch-move: a foul"}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    e.black.1.event("fouled").await;
    let ev = event(&e.org, &e.id).await;
    let r = &ev["referrals"][0];
    assert_eq!(r["open"], false, "{ev}");
    assert_eq!(r["decision"]["action"], "foul", "{ev}");
    assert_eq!(r["decision"]["by"], "chief", "{ev}");
    e.refused(
        &e.chief,
        json!({"kind": "decide", "referral": rid, "reason": "again"}),
        409,
        "referral_decided",
    )
    .await;
    assert_eq!(game_view(&e.org, &e.table).await["fouls"], json!([0, 1]));
    // The record, once the game is over, has the acts where they happened.
    e.black.1.ok("resign", json!({"table": e.table})).await;
    let rec = stamped_record(&e, &e.table).await;
    let rec = rec.split_whitespace().collect::<Vec<_>>().join(" ");
    let warned = rec
        .find(&format!(
            "{{Arbiter tab: warning, {white}: spoke to a spectator}}"
        ))
        .unwrap_or_else(|| panic!("{rec}"));
    let fouled = rec
        .find(&format!(
            "{{Arbiter chief: foul, {black}: touch-move: a foul}}"
        ))
        .unwrap_or_else(|| panic!("{rec}"));
    let (e5, nf3) = (rec.find("e5").unwrap(), rec.find("Nf3").unwrap());
    assert!(e5 < warned && warned < nf3 && nf3 < fouled, "{rec}");
    assert!(!rec.contains("referred"), "{rec}");
}

/// A game's stored record once the event has stamped it.
async fn stamped_record(e: &Ev, table: &str) -> String {
    let store = e.server.running.as_ref().unwrap().app.store.clone();
    for _ in 0..100 {
        if let Some(r) = store.game(table).await.unwrap().and_then(|g| g.record)
            && r.contains("[Board ")
        {
            return r;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("no stamped record for {table}");
}

/// A fifty-move claim after two moves at an event's table is incorrect:
/// the game goes on and the opponent has two minutes more.
async fn incorrect_claim(backend: Backend) {
    let mut e = start(backend).await;
    e.moves(&["e2e4", "e7e5"]).await;
    let before = game_view(&e.org, &e.table).await["clock"]["seats"][1]["main"]
        .as_u64()
        .unwrap();
    let r = e
        .white
        .1
        .act("claim", json!({"table": e.table, "claim": "fifty_moves"}))
        .await;
    assert_eq!(r["t"], "ack", "{r}");
    let g = game_view(&e.org, &e.table).await;
    assert!(g["outcome"].is_null(), "{g}");
    let after = g["clock"]["seats"][1]["main"].as_u64().unwrap();
    assert_eq!(after, before + 120_000, "{g}");
    e.white
        .1
        .ok("move", json!({"table": e.table, "action": "g1f3"}))
        .await;
}

both!(roles, restore_clock_pause, referral, incorrect_claim);
