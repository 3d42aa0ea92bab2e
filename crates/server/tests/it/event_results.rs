//! What becomes of an event's results (issue 44), on SQLite and PostgreSQL:
//! an event ends when its rounds are played or when no legal pairing
//! remains, with the reason stored, shown in its page data and told to its
//! players and organiser; an arbiter's correction of a finished game reaches
//! the game's own record and both players' ratings, and the event report
//! keeps the original and the correction; an absent player is not flagged by
//! a move limit but forfeited at the late time (the system's act), a void
//! game's record says `0-0`; a disqualification after moves is a played loss.

use std::time::Duration;

use qiyuan_testkit::clock::now_ms;
use serde_json::{Value, json};

use crate::common::{self, Backend, Client, TestServer, Ws, event, post};

/// A small event: `players` accounts registered, `arb` its arbiter, started.
struct Small {
    server: TestServer,
    org: Client,
    arb: Client,
    players: Vec<(Client, Ws)>,
    id: String,
}

async fn small(backend: Backend, players: usize, rounds: u32) -> Small {
    small_with(backend, players, rounds, |_| {}).await
}

async fn small_with(
    backend: Backend,
    players: usize,
    rounds: u32,
    tweak: impl Fn(&mut Value),
) -> Small {
    let server: TestServer = common::start_with(backend, |c| c.event_tick_ms = 50).await;
    let store = server.running.as_ref().unwrap().app.store.clone();
    let org = server.register("org").await;
    let arb = server.register("arb").await;
    qiyuan_server::events::grant(&*store, "org", "organiser")
        .await
        .unwrap();
    qiyuan_server::events::grant(&*store, "arb", "arbiter")
        .await
        .unwrap();
    let config = |starts_at: i64| {
        let mut c = json!({
            "name": "Club night 周五夜",
            "game": "chess",
            "time": {"kind": "fischer", "base": 60000, "increment": 0},
            "rounds": rounds,
            "starts_at": starts_at,
            "schedule": {"kind": "after_previous", "pause_secs": 0.0},
            "rated": true,
            "forfeit_secs": 30.0,
        });
        tweak(&mut c);
        c
    };
    let (status, created) = post(&org, "/api/events", config(now_ms() + 3_600_000)).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let (status, _) = post(
        &org,
        &format!("/api/event/{id}/arbiters"),
        json!({"user": "arb"}),
    )
    .await;
    assert_eq!(status, 200);
    let mut ps = Vec::new();
    for i in 1..=players {
        let c = server.register(&format!("p{i:02}")).await;
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
    Small {
        server,
        org,
        arb,
        players: ps,
        id,
    }
}

/// Waits until round `n` is paired with its tables; the round.
async fn wait_round(c: &Client, id: &str, n: usize) -> Value {
    for _ in 0..400 {
        let ev = event(c, id).await;
        if let Some(r) = ev["rounds"].as_array().and_then(|r| r.get(n - 1))
            && r["games"]
                .as_array()
                .unwrap()
                .iter()
                .all(|g| g["black"].is_null() || g["table"].is_string())
        {
            return r.clone();
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("round {n} was not paired");
}

/// Waits until the event has ended; the event.
async fn wait_end(c: &Client, id: &str) -> Value {
    for _ in 0..200 {
        let ev = event(c, id).await;
        if ev["status"] == "finished" {
            return ev;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the event did not end");
}

/// The next `notify` of `kind` on `ws` (within five seconds).
async fn notified(ws: &mut Ws, kind: &str) -> Value {
    crate::people_notify::notified_within(ws, kind, Duration::from_secs(5)).await
}

/// The player named `name` of the event.
fn player<'a>(s: &'a mut Small, name: &str) -> &'a mut (Client, Ws) {
    s.players.iter_mut().find(|(c, _)| c.name == name).unwrap()
}

/// Board 1 of `round`: 1.e4 e5, and Black resigns.
async fn black_resigns(s: &mut Small, round: &Value) {
    let g = &round["games"][0];
    let table = g["table"].as_str().unwrap().to_string();
    let (white, black) = (
        g["white"].as_str().unwrap().to_string(),
        g["black"].as_str().unwrap().to_string(),
    );
    for name in [&white, &black] {
        let ws = &mut player(s, name).1;
        ws.send("watch", json!({"table": table})).await;
        ws.expect("sync").await;
    }
    player(s, &white)
        .1
        .ok("move", json!({"table": table, "action": "e2e4"}))
        .await;
    player(s, &black)
        .1
        .ok("move", json!({"table": table, "action": "e7e5"}))
        .await;
    player(s, &black)
        .1
        .ok("resign", json!({"table": table}))
        .await;
}

/// Two players, two rounds: after they have met, no legal pairing remains
/// (they may not meet again, and one bye leaves the other unpaired): the
/// event ends at once with that reason, and everyone is told.
async fn ends_without_pairing(backend: Backend) {
    let mut s = small(backend, 2, 2).await;
    let r1 = wait_round(&s.org, &s.id, 1).await;
    let mut org_ws = s.org.ws().await;
    black_resigns(&mut s, &r1).await;
    let ev = wait_end(&s.org, &s.id).await;
    assert_eq!(ev["rounds"].as_array().unwrap().len(), 1);
    assert_eq!(ev["end"]["reason"], "no_pairing", "{}", ev["end"]);
    assert_eq!(ev["end"]["rounds"], 1);
    assert!(
        ev["end"]["detail"]
            .as_str()
            .unwrap()
            .contains("round 2 cannot be paired"),
        "{}",
        ev["end"]
    );
    // The list says so too.
    let list: Value = s.org.get("/api/events").await.json().await.unwrap();
    let listed = list
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == s.id.as_str())
        .unwrap();
    assert_eq!(listed["status"], "finished");
    assert_eq!(listed["end"]["reason"], "no_pairing");
    // The players and the organiser were told, once.
    for (_, ws) in &mut s.players {
        let note = ended_notice(ws).await;
        assert_eq!(note["reason"], "no_pairing");
        assert_eq!(note["event"], s.id.as_str());
    }
    let note = ended_notice(&mut org_ws).await;
    assert_eq!(note["name"], "Club night 周五夜");
    // It stays ended across a restart, and nothing more is paired.
    s.server.restart().await;
    s.org.follow(&s.server);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let ev = event(&s.org, &s.id).await;
    assert_eq!(ev["status"], "finished");
    assert_eq!(ev["rounds"].as_array().unwrap().len(), 1);
    let _ = &s.arb;
}

/// The `event_ended` notice on `ws`. It may have come while the test read for
/// an ack: the director ends the event as soon as it hears the last game's
/// end, which can reach a player's socket before the resignation's ack.
async fn ended_notice(ws: &mut Ws) -> Value {
    let seen = ws
        .seen
        .iter()
        .find(|m| m["t"] == "notify" && m["d"]["kind"] == "event_ended");
    match seen {
        Some(m) => m["d"].clone(),
        None => notified(ws, "event_ended").await,
    }
}

/// One round: when it has been played the event ends, its rounds played.
async fn ends_when_rounds_are_played(backend: Backend) {
    let mut s = small(backend, 2, 1).await;
    let r1 = wait_round(&s.org, &s.id, 1).await;
    black_resigns(&mut s, &r1).await;
    let ev = wait_end(&s.org, &s.id).await;
    assert_eq!(ev["end"]["reason"], "rounds_played", "{}", ev["end"]);
    assert_eq!(ev["end"]["rounds"], 1);
    for (_, ws) in &mut s.players {
        assert_eq!(ended_notice(ws).await["reason"], "rounds_played");
    }
}

/// The game's stored row: its outcome's seat results, its record, and each
/// seat's rating change.
async fn game_row(s: &Small, table: &str) -> (Value, String, Vec<Option<i64>>) {
    let store = s.server.running.as_ref().unwrap().app.store.clone();
    let row = store.game(table).await.unwrap().unwrap();
    let outcome: Value = serde_json::from_str(row.result.as_deref().unwrap()).unwrap();
    let diffs = row.players.iter().map(|p| p.rating_diff).collect();
    (outcome["results"].clone(), row.record.unwrap(), diffs)
}

/// A player's rating in the event's pool (the only one they played in).
async fn rating(s: &Small, name: &str) -> f64 {
    let store = s.server.running.as_ref().unwrap().app.store.clone();
    let user = store.user_by_name(name).await.unwrap().unwrap();
    let rows = store.ratings(user.id).await.unwrap();
    assert_eq!(rows.len(), 1, "{rows:?}");
    rows[0].rating
}

/// Waits until board `board` of `round` has a result.
async fn wait_result(c: &Client, id: &str, round: usize, board: usize) -> (String, String) {
    for _ in 0..200 {
        let ev = event(c, id).await;
        let g = &ev["rounds"][round - 1]["games"][board - 1];
        if let (Some(w), Some(b)) = (g["white_result"].as_str(), g["black_result"].as_str()) {
            return (w.to_string(), b.to_string());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("board {board} of round {round} has no result");
}

/// Four players: board 1 of round 1 ends 1-0 and its record says the event,
/// round and board; the arbiter corrects it to 0-1 while board 2 plays on:
/// the game's stored result and record, both players' rating changes and
/// ratings, the standings and the TRF all say 0-1, round 2 is paired on the
/// corrected scores, and the report keeps the original and the correction.
async fn corrections_flow_everywhere(backend: Backend) {
    let mut s = small(backend, 4, 2).await;
    let r1 = wait_round(&s.org, &s.id, 1).await;
    let g1 = r1["games"][0].clone();
    let table = g1["table"].as_str().unwrap().to_string();
    let (white, black) = (
        g1["white"].as_str().unwrap().to_string(),
        g1["black"].as_str().unwrap().to_string(),
    );
    black_resigns(&mut s, &r1).await;
    assert_eq!(
        wait_result(&s.org, &s.id, 1, 1).await,
        ("1".into(), "0".into())
    );
    // The table's settlement and the director's stamp both come after the
    // end: wait for the record's event headers.
    let mut record = String::new();
    for _ in 0..100 {
        record = game_row(&s, &table).await.1;
        if record.contains("[Board \"1\"]") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(record.contains("[Event \"Club night 周五夜\"]"), "{record}");
    assert!(record.contains("[Round \"1\"]"), "{record}");
    assert!(record.contains("[Result \"1-0\"]"), "{record}");
    assert!(!record.contains("Termination"), "{record}");
    let (results, _, diffs) = game_row(&s, &table).await;
    assert_eq!(results, json!(["win", "loss"]));
    let (won, lost) = (diffs[0].unwrap(), diffs[1].unwrap());
    assert!(won > 0 && lost < 0, "{diffs:?}");
    let (rw, rb) = (rating(&s, &white).await, rating(&s, &black).await);

    // The arbiter corrects it.
    let (status, body) = post(
        &s.arb,
        &format!("/api/event/{}/action", s.id),
        json!({"kind": "adjudicate", "player": white, "round": 1, "result": "0-1",
               "reason": "the score sheets show Black won (记录表更正)"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let ev = event(&s.org, &s.id).await;
    let b1 = &ev["rounds"][0]["games"][0];
    assert_eq!(
        (&b1["white_result"], &b1["black_result"]),
        (&json!("0"), &json!("1"))
    );
    // The game's own row.
    let (results, record, diffs) = game_row(&s, &table).await;
    assert_eq!(results, json!(["loss", "win"]));
    assert!(record.contains("[Result \"0-1\"]"), "{record}");
    assert!(record.trim_end().ends_with("0-1"), "{record}");
    let (w_diff, b_diff) = (diffs[0].unwrap(), diffs[1].unwrap());
    assert!(
        w_diff < 0 && b_diff > 0,
        "recomputed for the corrected result: {diffs:?}"
    );
    // Between equal ratings the change is symmetric: the new change is the
    // old one with its sign turned.
    assert_eq!((w_diff, b_diff), (lost, won));
    let (nw, nb) = (rating(&s, &white).await, rating(&s, &black).await);
    assert!(
        (nw - (rw - won as f64 + w_diff as f64)).abs() < 1e-6,
        "{rw} → {nw}"
    );
    assert!(
        (nb - (rb - lost as f64 + b_diff as f64)).abs() < 1e-6,
        "{rb} → {nb}"
    );
    // Standings and TRF.
    let score = |ev: &Value, name: &str| {
        ev["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["user"] == name)
            .unwrap()["score"]
            .as_f64()
            .unwrap()
    };
    assert_eq!(score(&ev, &white), 0.0);
    assert_eq!(score(&ev, &black), 1.0);
    let trf = s
        .org
        .get(&format!("/event/{}.trf", s.id))
        .await
        .text()
        .await
        .unwrap();
    let line = |name: &str| {
        trf.lines()
            .find(|l| l.starts_with("001") && l.contains(name))
            .unwrap()
            .to_string()
    };
    assert!(
        line(&white).trim_end().ends_with(" b 0") || line(&white).trim_end().ends_with(" w 0"),
        "{trf}"
    );
    assert!(line(&black).trim_end().ends_with(" 1"), "{trf}");
    // The report: the original and the correction.
    let a = ev["actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["kind"] == "adjudicate")
        .unwrap();
    assert_eq!(a["result"]["before"], "1-0");
    assert_eq!(a["result"]["after"], "0-1");
    assert_eq!(a["arbiter"], "arb");
    assert_eq!(a["by"], "arbiter");
    assert_eq!(a["reason"], "the score sheets show Black won (记录表更正)");

    // Board 2 ends; round 2 pairs the two winners: the corrected one too.
    let g2 = r1["games"][1].clone();
    let winner2 = g2["white"].as_str().unwrap().to_string();
    let r1b = json!({"games": [g2]});
    black_resigns(&mut s, &r1b).await;
    let r2 = wait_round(&s.org, &s.id, 2).await;
    let top = &r2["games"][0];
    let mut pair = vec![
        top["white"].as_str().unwrap().to_string(),
        top["black"].as_str().unwrap().to_string(),
    ];
    pair.sort();
    let mut expected = vec![black.clone(), winner2];
    expected.sort();
    assert_eq!(
        pair, expected,
        "round 2 pairs the corrected winner with the other"
    );
}

/// A game's stored record once the event has stamped it.
async fn stamped_record(s: &Small, table: &str) -> String {
    let store = s.server.running.as_ref().unwrap().app.store.clone();
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

/// A QQ clock with a one-second move limit (步时) and a three-second late
/// rule: board 1's White never comes and is not flagged by the move limit
/// but loses by forfeit (`-`/`+`, the system's act), board 2's players both
/// stay away (`-`/`-`); the games' records say so (`Termination`, `0-0`).
async fn absence_is_a_forfeit(backend: Backend) {
    let mut s = small_with(backend, 4, 1, |c| {
        c["time"] = json!({"kind": "qq", "game": 60000, "per_move": 1000, "countdown": 1000});
        c["forfeit_secs"] = json!(3.0);
    })
    .await;
    let r1 = wait_round(&s.org, &s.id, 1).await;
    let g1 = r1["games"][0].clone();
    let t1 = g1["table"].as_str().unwrap().to_string();
    let black = g1["black"].as_str().unwrap().to_string();
    let ws = &mut player(&mut s, &black).1;
    ws.send("watch", json!({"table": t1})).await;
    let sync = ws.expect("sync").await;
    // The table says it is an event's: the client offers no rematch there.
    assert_eq!(sync["d"]["state"]["tournament"], true, "{sync}");
    // Past the move limit, before the forfeit time: nothing has happened.
    tokio::time::sleep(Duration::from_millis(1800)).await;
    let ev = event(&s.org, &s.id).await;
    assert!(
        ev["rounds"][0]["games"][0]["white_result"].is_null(),
        "an absent player is not flagged by 步时: {}",
        ev["rounds"][0]["games"][0]
    );
    assert_eq!(
        wait_result(&s.org, &s.id, 1, 1).await,
        ("-".into(), "+".into())
    );
    assert_eq!(
        wait_result(&s.org, &s.id, 1, 2).await,
        ("-".into(), "-".into())
    );
    let ev = wait_end(&s.org, &s.id).await;
    let forfeits: Vec<&Value> = ev["actions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["kind"] == "forfeit")
        .collect();
    assert_eq!(forfeits.len(), 3, "{}", ev["actions"]);
    for a in &forfeits {
        assert_eq!(a["by"], "system", "{a}");
        assert!(a["arbiter"].is_null(), "{a}");
        assert!(a["result"]["before"].is_null(), "{a}");
    }
    // The records agree with the TRF.
    let rec1 = stamped_record(&s, &t1).await;
    assert!(rec1.contains("[Result \"0-1\"]"), "{rec1}");
    assert!(rec1.contains("[Termination \"forfeit\"]"), "{rec1}");
    let t2 = r1["games"][1]["table"].as_str().unwrap().to_string();
    let rec2 = stamped_record(&s, &t2).await;
    assert!(rec2.contains("[Result \"0-0\"]"), "{rec2}");
    assert!(rec2.contains("[Termination \"double forfeit\"]"), "{rec2}");
    assert!(rec2.trim_end().ends_with("0-0"), "{rec2}");
    let trf = s
        .org
        .get(&format!("/event/{}.trf", s.id))
        .await
        .text()
        .await
        .unwrap();
    assert!(
        trf.contains(" w -") && trf.contains(" b +") && trf.contains(" b -"),
        "{trf}"
    );
}

/// A disqualification in the middle of a game after moves were made loses
/// the game as played (`0`/`1`), not by forfeit.
async fn disqualified_mid_game_loses_as_played(backend: Backend) {
    let mut s = small(backend, 2, 1).await;
    let r1 = wait_round(&s.org, &s.id, 1).await;
    let g = r1["games"][0].clone();
    let table = g["table"].as_str().unwrap().to_string();
    let (white, black) = (
        g["white"].as_str().unwrap().to_string(),
        g["black"].as_str().unwrap().to_string(),
    );
    for name in [&white, &black] {
        let ws = &mut player(&mut s, name).1;
        ws.send("watch", json!({"table": table})).await;
        ws.expect("sync").await;
    }
    player(&mut s, &white)
        .1
        .ok("move", json!({"table": table, "action": "e2e4"}))
        .await;
    player(&mut s, &black)
        .1
        .ok("move", json!({"table": table, "action": "e7e5"}))
        .await;
    let (status, body) = post(
        &s.arb,
        &format!("/api/event/{}/action", s.id),
        json!({"kind": "disqualify", "player": white, "reason": "used an engine (作弊)"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        wait_result(&s.org, &s.id, 1, 1).await,
        ("0".into(), "1".into())
    );
    let ev = wait_end(&s.org, &s.id).await;
    let a = ev["actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["kind"] == "disqualify")
        .unwrap();
    assert_eq!(a["result"]["after"], "0-1", "{a}");
    assert_eq!(a["by"], "arbiter");
    let rec = stamped_record(&s, &table).await;
    assert!(rec.contains("[Result \"0-1\"]"), "{rec}");
    assert!(!rec.contains("Termination"), "{rec}");
}

/// The seat whose draw offer stands at `table`'s game, as `c` reads it.
async fn draw_offer(c: &Client, table: &str) -> Value {
    let r = c.get(&format!("/api/game/{table}")).await;
    assert_eq!(r.status(), 200);
    let v: Value = r.json().await.unwrap();
    v["state"]["game"]["draw_offer"].clone()
}

/// `draw/yes` refused as at an event's table.
async fn refused(r: reqwest::Response) {
    assert_eq!(r.status(), 400);
    let body: Value = r.json().await.unwrap();
    assert_eq!(
        body["error"],
        "At an event's table a draw is offered right after one's own move"
    );
}

/// At an event's table a draw is offered right after one's own move
/// (docs/api.md, "Draw offers"): through the Lichess API, `draw/yes` on one's
/// own turn is refused (`400`) and makes no offer, where elsewhere it would be
/// taken for the next move; right after one's move it is offered.
async fn api_draw_offer_on_ones_own_turn_is_refused(backend: Backend) {
    let mut s = small_with(backend, 2, 1, |c| c["game"] = json!("xiangqi")).await;
    let r1 = wait_round(&s.org, &s.id, 1).await;
    let g = r1["games"][0].clone();
    let table = g["table"].as_str().unwrap().to_string();
    let (red, black) = (
        g["white"].as_str().unwrap().to_string(),
        g["black"].as_str().unwrap().to_string(),
    );
    for name in [&red, &black] {
        let ws = &mut player(&mut s, name).1;
        ws.send("watch", json!({"table": table})).await;
        ws.expect("sync").await;
    }
    let red_api = crate::api::token(&player(&mut s, &red).0, "board:play").await;
    let draw = format!("/api/board/game/{table}/draw/yes");
    // Before any move, on Red's turn.
    refused(red_api.post(&draw, &[]).await).await;
    for (name, action) in [(&red, "h2e2"), (&black, "h9g7")] {
        player(&mut s, name)
            .1
            .ok("move", json!({"table": table, "action": action}))
            .await;
    }
    // Red's turn again: refused, and no offer comes with his next move.
    refused(red_api.post(&draw, &[]).await).await;
    player(&mut s, &red)
        .1
        .ok("move", json!({"table": table, "action": "h0g2"}))
        .await;
    assert_eq!(
        draw_offer(&player(&mut s, &black).0, &table).await,
        Value::Null,
        "no offer was made"
    );
    // Right after his own move the offer is made.
    red_api.ok(&draw).await;
    assert_eq!(
        draw_offer(&player(&mut s, &black).0, &table).await,
        json!(0),
        "offered after the move"
    );
}

both!(
    ends_without_pairing,
    ends_when_rounds_are_played,
    corrections_flow_everywhere,
    absence_is_a_forfeit,
    disqualified_mid_game_loses_as_played,
    api_draw_offer_on_ones_own_turn_is_refused
);
