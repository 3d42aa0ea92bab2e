//! Arbiters at tables of three (a points event, 积分赛), on SQLite and
//! PostgreSQL: three players at one table, three hands, a long clock, every
//! player at the table (so the computer plays for nobody and a hand waits). A
//! table arbiter warns a player at their hand (the table shows it, the three
//! players are told), stops and starts the clocks, adds time to a clock; the
//! chief forfeits a player's hand (it ends scored as the game scores a
//! concession, and the next hand is dealt); in the next hand a warning, then a
//! player resigns; in the third the chief disqualifies a player (the hand goes
//! on, the computer playing for them) and voids it with `--` (0 each; any other
//! result is refused, and a finished hand cannot be adjudicated); each hand's
//! stored record has the event's name, its round `round.table.hand` and the
//! arbiters' acts as comments at their ply.
#![cfg(feature = "doudizhu")]

use std::time::Duration;

use qiyuan_testkit::clock::now_ms;
use serde_json::{Value, json};

use crate::common::{self, Backend, Client, Ws, act_refused, arbiter_act, event, post};

const NAME: &str = "积分赛 裁判 test";

fn config(starts_at: i64) -> Value {
    json!({
        "name": NAME,
        "kind": "points",
        "game": "doudizhu",
        // Half an hour each, a minute's count-down: nobody runs out here.
        "time": {"kind": "qq", "game": 1_800_000, "per_move": 0, "countdown": 60_000},
        "rounds": 1,
        "starts_at": starts_at,
        "schedule": {"kind": "after_previous", "pause_secs": 0.2},
        "cards": {"hands_per_round": 3, "starting_chips": 1000},
    })
}

/// Hand `n` of round 1's only table, once `pred` holds of it.
async fn hand(c: &Client, id: &str, n: usize, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..600 {
        let ev = event(c, id).await;
        let h = &ev["rounds"][0]["tables"][0]["hands"][n - 1];
        if !h.is_null() && pred(h) {
            return h.clone();
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{what}: not in time\n{:#}", event(c, id).await);
}

/// The table's view as a fresh socket sees it.
async fn table_view(c: &Client, table: &str) -> Value {
    let mut ws = c.ws().await;
    ws.send("watch", json!({"table": table})).await;
    ws.expect("sync").await;
    ws.state().clone()
}

/// A hand's stored record (JSON) once `pred` holds of it.
async fn record(
    server: &common::TestServer,
    table: &str,
    what: &str,
    pred: impl Fn(&Value) -> bool,
) -> Value {
    let store = server.running.as_ref().unwrap().app.store.clone();
    let mut last = Value::Null;
    for _ in 0..200 {
        if let Some(text) = store.game(table).await.unwrap().and_then(|g| g.record) {
            last = serde_json::from_str(&text).expect("a JSON record");
            if pred(&last) {
                return last;
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{what}: not in time\n{last:#}");
}

/// Every player's socket watches `table` (present: the computer does not
/// play for them).
async fn sit_in(ps: &mut [(Client, Ws)], table: &str) {
    for (_, ws) in ps.iter_mut() {
        ws.send("watch", json!({"table": table})).await;
        ws.expect("sync").await;
    }
}

async fn arbiters_at_tables_of_three(backend: Backend) {
    let server = common::start_with(backend, |c| {
        c.event_tick_ms = 50;
        c.bot_think_ms = 0;
        // An absent player is played for only after two minutes.
        c.escape_grace_secs = Some(120.0);
    })
    .await;
    let store = server.running.as_ref().unwrap().app.store.clone();
    let org = common::organiser(&server, "org").await;
    let tab = server.register("tab").await;
    let chief = server.register("chief").await;
    for a in ["tab", "chief"] {
        qiyuan_server::events::grant(&*store, a, "arbiter")
            .await
            .unwrap();
    }
    let (status, created) = post(&org, "/api/events", config(now_ms() + 3_600_000)).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    for (user, role) in [("tab", "table"), ("chief", "chief")] {
        let (status, r) = post(
            &org,
            &format!("/api/event/{id}/arbiters"),
            json!({"user": user, "role": role}),
        )
        .await;
        assert_eq!(status, 200, "{r}");
    }
    let mut ps = Vec::new();
    for name in ["p01", "p02", "p03"] {
        let c = server.register(name).await;
        let (status, r) = post(&c, &format!("/api/event/{id}/register"), json!({})).await;
        assert_eq!(status, 200, "{r}");
        let ws = c.ws().await;
        ps.push((c, ws));
    }
    let (status, r) = common::patch(&org, &format!("/api/event/{id}"), config(now_ms())).await;
    assert_eq!(status, 200, "{r}");

    // ---- Hand 1: the table's order; the first bidder passes (one action).
    let h1 = hand(&org, &id, 1, "hand 1 dealt", |h| h["table"].is_string()).await;
    let t1 = h1["table"].as_str().unwrap().to_string();
    let seats: Vec<String> = serde_json::from_value(h1["seats"].clone()).unwrap();
    sit_in(&mut ps, &t1).await;
    let st = table_view(&org, &t1).await;
    assert_eq!(st["status"], "playing", "{st}");
    let first = st["game"]["board"]["to_act"].as_u64().unwrap() as usize;
    let bidder = ps.iter_mut().find(|(c, _)| c.name == seats[first]).unwrap();
    bidder
        .1
        .ok("move", json!({"table": t1, "action": "pass"}))
        .await;

    // A warning to the player at seat 1 of the hand: the table's count, the
    // table's `warned` event, `event.action` to all three.
    let warned = seats[1].clone();
    let (status, done) = arbiter_act(
        &tab,
        &id,
        json!({"kind": "warning", "player": warned, "reason": "说话 spoke to a neighbour"}),
    )
    .await;
    assert_eq!(status, 200, "{done}");
    assert_eq!(
        (
            done["round"].clone(),
            done["board"].clone(),
            done["table"].clone()
        ),
        (json!(1), json!(1), json!(t1)),
        "{done}"
    );
    for (c, ws) in ps.iter_mut() {
        // The table's event comes first (the act is told once it is done).
        if c.name == warned {
            ws.event("warned").await;
        }
        let told = ws.expect("event.action").await;
        assert_eq!(told["d"]["kind"], "warning", "{} told: {told}", c.name);
        assert_eq!(told["d"]["player"], warned.as_str());
        assert_eq!(told["d"]["table"], t1.as_str());
        assert_eq!(told["d"]["board"], 1);
    }
    let g = table_view(&org, &t1).await["game"].clone();
    assert_eq!(g["warnings"], json!([0, 1, 0]), "{g}");
    assert!(g["outcome"].is_null(), "{g}");

    // The clocks stopped: the next bidder's action is refused; started again.
    let (status, body) = arbiter_act(
        &tab,
        &id,
        json!({"kind": "pause", "player": warned, "reason": "a dispute"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(table_view(&org, &t1).await["game"]["paused"], true);
    let next = seats[(first + 1) % 3].clone();
    let (_, next_ws) = ps.iter_mut().find(|(c, _)| c.name == next).unwrap();
    let r = next_ws
        .act("move", json!({"table": t1, "action": "pass"}))
        .await;
    assert_eq!(r["t"], "error", "{r}");
    let (status, body) = arbiter_act(
        &tab,
        &id,
        json!({"kind": "resume", "player": warned, "reason": "settled"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(table_view(&org, &t1).await["game"]["paused"], false);

    // A minute more for the first bidder (whose clock stands: they have
    // passed); a restore's clocks are one per seat (three).
    let main = |st: &Value| {
        st["game"]["clock"]["seats"][first]["main"]
            .as_u64()
            .unwrap()
    };
    let before = main(&table_view(&org, &t1).await);
    let (status, body) = arbiter_act(
        &tab,
        &id,
        json!({"kind": "clock", "player": seats[first], "seconds": 60, "reason": "the clock was set wrong"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let after = main(&table_view(&org, &t1).await);
    assert_eq!(after, before + 60_000);
    act_refused(
        &tab,
        &id,
        json!({"kind": "restore", "player": warned, "ply": 0, "clocks": [60, 60], "reason": "r"}),
        400,
        "bad_action",
    )
    .await;
    // The chief's acts are the chief's.
    act_refused(
        &tab,
        &id,
        json!({"kind": "forfeit", "player": seats[0], "reason": "r"}),
        403,
        "chief_only",
    )
    .await;

    // ---- The chief forfeits seat 0's hand: it loses as a concession in the
    // bidding scores it (no landlord, stake 1: −2, +1, +1).
    let loser = seats[0].clone();
    let (status, body) = arbiter_act(
        &chief,
        &id,
        json!({"kind": "forfeit", "player": loser, "reason": "left the hall during the hand"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["table"], t1.as_str(), "{body}");
    let h1 = hand(&org, &id, 1, "hand 1 scored", |h| h["scores"].is_array()).await;
    assert_eq!(h1["scores"], json!([-2, 1, 1]), "{h1}");
    let g = table_view(&org, &t1).await["game"].clone();
    assert_eq!(
        g["outcome"]["results"],
        json!(["loss", "win", "win"]),
        "{g}"
    );

    // ---- Hand 2: dealt after the forfeit, the seats turned by one. A
    // warning, then its first seat resigns: the hand ends without an
    // arbiter, and its record is stamped when the director hears the end.
    let h2 = hand(&org, &id, 2, "hand 2 dealt", |h| h["table"].is_string()).await;
    let t2 = h2["table"].as_str().unwrap().to_string();
    assert_ne!(t1, t2);
    let mut turned = seats.clone();
    turned.rotate_left(1);
    assert_eq!(h2["seats"], json!(turned), "{h2}");
    sit_in(&mut ps, &t2).await;
    let (status, body) = arbiter_act(
        &tab,
        &id,
        json!({"kind": "warning", "player": turned[2], "reason": "looked at a neighbour's cards"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["table"], t2.as_str(), "{body}");
    let (_, resigner) = ps.iter_mut().find(|(c, _)| c.name == turned[0]).unwrap();
    resigner.ok("resign", json!({"table": t2})).await;
    let h2 = hand(&org, &id, 2, "hand 2 scored", |h| h["scores"].is_array()).await;
    assert_eq!(h2["scores"], json!([-2, 1, 1]), "{h2}");

    // ---- Hand 3: a player disqualified: the hand goes on, the computer
    // plays for them (托管). Then only `--` at a table of three; it voids
    // the hand.
    let h3 = hand(&org, &id, 3, "hand 3 dealt", |h| h["table"].is_string()).await;
    let t3 = h3["table"].as_str().unwrap().to_string();
    sit_in(&mut ps, &t3).await;
    let seats3: Vec<String> = serde_json::from_value(h3["seats"].clone()).unwrap();
    let out = seats[1].clone();
    assert_ne!(out, loser);
    let out_seat = seats3.iter().position(|p| *p == out).unwrap();
    let (status, body) = arbiter_act(
        &chief,
        &id,
        json!({"kind": "disqualify", "player": out, "reason": "abused the arbiter"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["table"], t3.as_str(), "{body}");
    let st = table_view(&org, &t3).await;
    assert_eq!(st["status"], "playing", "{st}");
    assert_eq!(st["seats"][out_seat]["trustee"], true, "{st}");
    let ev = event(&org, &id).await;
    let p = ev["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["user"] == out.as_str())
        .unwrap();
    assert_eq!(p["disqualified"], true, "{ev}");
    for result in ["1-0", "0-1", "1/2-1/2", "+-"] {
        let body = act_refused(
            &chief,
            &id,
            json!({"kind": "adjudicate", "player": loser, "result": result, "reason": "r"}),
            400,
            "bad_result",
        )
        .await;
        assert!(body.to_string().contains("--"), "{body}");
    }
    assert_eq!(table_view(&org, &t3).await["status"], "playing");
    let (status, body) = arbiter_act(
        &chief,
        &id,
        json!({"kind": "adjudicate", "player": loser, "result": "--", "reason": "the deal was shown to a spectator"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["table"], t3.as_str(), "{body}");
    let h3 = hand(&org, &id, 3, "hand 3 scored", |h| h["scores"].is_array()).await;
    assert_eq!(h3["scores"], json!([0, 0, 0]), "{h3}");
    // Finished: the hand's score stands.
    for kind in ["adjudicate", "forfeit"] {
        let body = act_refused(
            &chief,
            &id,
            json!({"kind": kind, "player": loser, "result": "--", "reason": "again"}),
            409,
            "hand_over",
        )
        .await;
        assert!(body.to_string().contains("over"), "{body}");
    }
    // Three hands played: the event has ended.
    for _ in 0..200 {
        if event(&org, &id).await["status"] == "finished" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let ev = event(&org, &id).await;
    assert_eq!(ev["status"], "finished", "{ev}");
    let kinds: Vec<(String, Value, Value)> = ev["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["kind"].as_str().unwrap().to_string(),
                a["round"].clone(),
                a["board"].clone(),
            )
        })
        .collect();
    let want: Vec<(String, Value, Value)> = [
        "warning",
        "pause",
        "resume",
        "clock",
        "forfeit",
        "warning",
        "disqualify",
        "adjudicate",
    ]
    .iter()
    .map(|k| (k.to_string(), json!(1), json!(1)))
    .collect();
    assert_eq!(kinds, want, "{ev}");

    // ---- The records: the event, `round.table.hand`, the acts at their ply.
    let text = |what: &str, who: &str, reason: &str| format!("Arbiter {what}, {who}: {reason}");
    let rec1 = record(&server, &t1, "hand 1's record stamped", |r| {
        r["round"] == "1.1.1" && r["comments"].as_array().is_some_and(|c| c.len() >= 5)
    })
    .await;
    assert_eq!(rec1["event"], NAME, "{rec1:#}");
    assert_eq!(rec1["game"], "doudizhu");
    let comments = rec1["comments"].as_array().unwrap();
    for (ply, t) in [
        (
            1,
            text("tab: warning", &warned, "说话 spoke to a neighbour"),
        ),
        (1, text("tab: clocks stopped", &warned, "a dispute")),
        (1, text("tab: clocks started", &warned, "settled")),
        (
            1,
            text("tab: clock +60 s", &seats[first], "the clock was set wrong"),
        ),
        (
            1,
            text("chief: forfeit", &loser, "left the hall during the hand"),
        ),
    ] {
        assert!(
            comments.contains(&json!({"ply": ply, "text": t})),
            "{t} at {ply}: {rec1:#}"
        );
    }
    // Still a record the game reads: its actions as they were.
    assert_eq!(rec1["actions"].as_array().unwrap().len(), 1, "{rec1:#}");
    let rec2 = record(&server, &t2, "hand 2's record stamped", |r| {
        r["round"] == "1.1.2"
    })
    .await;
    assert_eq!(rec2["event"], NAME, "{rec2:#}");
    assert_eq!(
        rec2["comments"],
        json!([{"ply": 0, "text": text("tab: warning", &turned[2], "looked at a neighbour's cards")}]),
        "{rec2:#}"
    );
    let rec3 = record(&server, &t3, "hand 3's record stamped", |r| {
        r["round"] == "1.1.3" && r["comments"].as_array().is_some_and(|c| c.len() == 2)
    })
    .await;
    assert_eq!(rec3["event"], NAME, "{rec3:#}");
    // Voided after whatever the computer played for the disqualified seat.
    let played = rec3["actions"].as_array().unwrap().len();
    assert_eq!(
        rec3["comments"],
        json!([
            {"ply": 0, "text": text("chief: disqualify", &out, "abused the arbiter")},
            {"ply": played, "text": text("chief: hand void", &loser, "the deal was shown to a spectator")},
        ]),
        "{rec3:#}"
    );
    // Through the HTTP API as anyone reads it.
    let game_id = store.game(&t1).await.unwrap().unwrap().id;
    let r = org.get(&format!("/game/{game_id}.json")).await;
    assert_eq!(r.status(), 200);
    let body = r.text().await.unwrap();
    assert!(body.contains("\"round\": \"1.1.1\""), "{body}");
}

crate::both!(arbiters_at_tables_of_three);
