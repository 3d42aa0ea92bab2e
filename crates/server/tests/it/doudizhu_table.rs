//! The Doudizhu table over real sockets, on both stores: a missed bid is a pass
//! (不叫) and a deal is void only when all three pass; every turn is timed from
//! the first, the landlord's first play too, and the computer plays that turn
//! for a landlord out of time (托管); a player who sits down through the
//! 人机对弈 dialog and opens the table page a few seconds after the dialog's
//! socket closed is never played for; 托管 is handed over and taken back by its
//! messages and shown on the seat; cards are named as players say them in the
//! move list and the record, and two computer players apart.
#![cfg(feature = "doudizhu")]

use std::time::Duration;

use serde_json::{Value, json};

use crate::common::*;
use crate::doudizhu_trusteeship::ROCKET_DEAL;

fn per_turn(ms: u64) -> Value {
    json!({"kind": "qq", "game": 0, "per_move": 0, "countdown": ms})
}

/// The actions of `seat` in the move list.
fn actions_of(st: &Value, seat: u64) -> Vec<String> {
    st["game"]["moves"]
        .as_array()
        .map(|m| {
            m.iter()
                .filter(|m| m["seat"] == seat)
                .map(|m| m["action"].as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// Reads until `done` holds of the socket's latest state.
async fn until(ws: &mut Ws, done: impl Fn(&Value) -> bool) -> Value {
    while !done(ws.state()) {
        ws.recv().await;
    }
    ws.state().clone()
}

/// A game against the computer from the 人机对弈 dialog's message: the player
/// at seat 0 bids first with the rocket in hand.
async fn against_the_computer(ws: &mut Ws, time: Value) -> String {
    let (t, seat) = play_computer(
        ws,
        json!({"game": "doudizhu", "level": "basic", "colour": 0, "time": time,
               "setup": {"position": ROCKET_DEAL}}),
    )
    .await;
    assert_eq!(seat, 0);
    t
}

async fn a_missed_bid_is_a_pass_and_a_deal_is_void_only_when_all_three_pass(backend: Backend) {
    let server = start(backend).await;
    let players = [
        server.guest().await,
        server.guest().await,
        server.guest().await,
    ];
    let mut ws = Vec::new();
    for p in &players {
        ws.push(p.ws().await);
    }
    let t = ws[0]
        .create(json!({"game": "doudizhu", "seat": 0, "time": per_turn(1_500)}))
        .await;
    for (i, w) in ws.iter_mut().enumerate().skip(1) {
        w.send("watch", json!({"table": t})).await;
        w.expect("sync").await;
        w.ok("sit", json!({"table": t, "seat": i})).await;
    }
    for w in &mut ws {
        w.ok("ready", json!({"table": t})).await;
    }
    let st = until(&mut ws[0], |st| st["status"] == "playing").await;
    let first = st["game"]["board"]["to_act"].as_u64().unwrap();
    // The first bid runs on the turn's clock, not a first-move timer.
    assert_eq!(st["game"]["clock"]["running"], first, "{st}");
    assert!(st["game"]["first_move_deadline"].is_null(), "{st}");

    // Nobody bids. The first missed bid is a pass (不叫), and the hand goes on.
    let st = until(&mut ws[0], |st| !actions_of(st, first).is_empty()).await;
    assert_eq!(st["status"], "playing", "{st}");
    assert!(st["game"]["end_detail"].is_null(), "{st}");
    let moves = st["game"]["moves"].as_array().unwrap();
    assert_eq!(
        (&moves[0]["action"], &moves[0]["display"]),
        (&json!("pass"), &json!("不叫"))
    );
    assert_eq!(
        st["game"]["board"]["bids"],
        json!([{"seat": first, "bid": 0}])
    );
    assert_eq!(st["game"]["board"]["to_act"], (first + 1) % 3);
    // Only when all three passed is the deal void: dealt again, the same seat
    // bidding first, the hand still being played.
    let st = until(&mut ws[0], |st| st["game"]["board"]["redeals"] == 1).await;
    assert_eq!(st["status"], "playing", "{st}");
    assert_eq!(st["game"]["board"]["bids"], json!([]));
    assert_eq!(st["game"]["board"]["to_act"], first);
    assert_eq!(st["game"]["moves"].as_array().unwrap().len(), 3);
    assert!(st["game"]["outcome"].is_null(), "{st}");
}

async fn the_landlords_first_play_is_timed_and_played_for_when_it_runs_out(backend: Backend) {
    let server = start_with(backend, |c| c.bot_think_ms = 0).await;
    let human = server.guest().await;
    let mut ws = human.ws().await;
    let t = against_the_computer(&mut ws, per_turn(2_500)).await;
    until(&mut ws, |st| st["game"]["board"]["to_act"] == 0).await;
    ws.ok("move", json!({"table": t, "action": "bid 3"})).await;
    // The landlord bid 3 at once: the first play has the turn's clock.
    let st = until(&mut ws, |st| st["game"]["board"]["landlord"] == 0).await;
    assert_eq!(st["game"]["clock"]["running"], 0, "{st}");
    assert!(st["game"]["clock"]["at"].as_u64().is_some(), "{st}");
    assert_eq!(st["status"], "playing");
    // The landlord does nothing: 1 s before the time runs out the computer
    // plays for them (托管), and the seat says so.
    let st = until(&mut ws, |st| actions_of(st, 0).len() > 1).await;
    assert_eq!(st["seats"][0]["trustee"], true, "{st}");
    assert_eq!(st["status"], "playing", "{st}");
    assert!(
        events_of(&ws.seen, "trusteeship")
            .iter()
            .any(|e| e["seat"] == 0 && e["on"] == true)
    );
}

async fn a_player_arriving_after_the_dialog_closed_is_not_played_for(backend: Backend) {
    // The operator's grace for absence is the default's order (30 s), not the
    // other tests' 1 s.
    let server = start_with(backend, |c| {
        c.bot_think_ms = 0;
        c.escape_grace_secs = Some(30.0);
    })
    .await;
    let human = server.guest().await;
    // The dialog's socket starts the game, then closes: the page changes.
    let mut dialog = human.ws().await;
    let t = against_the_computer(&mut dialog, per_turn(20_000)).await;
    dialog.close().await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    // The table page's socket arrives 3 s later: nothing was done for them.
    let mut page = human.ws().await;
    page.send("watch", json!({"table": t})).await;
    page.expect("sync").await;
    let st = page.state().clone();
    assert_eq!(st["status"], "playing", "{st}");
    assert!(actions_of(&st, 0).is_empty(), "played for: {st}");
    assert_eq!(st["seats"][0]["trustee"], false, "{st}");
    assert_eq!(st["seats"][0]["connected"], true, "{st}");
    assert_eq!(st["game"]["board"]["to_act"], 0, "{st}");
    // The bid is theirs.
    page.ok("move", json!({"table": t, "action": "bid 3"}))
        .await;
    let st = until(&mut page, |st| st["game"]["board"]["landlord"] == 0).await;
    assert_eq!(actions_of(&st, 0), ["bid 3"]);
}

async fn trusteeship_is_handed_over_and_taken_back_by_its_buttons(backend: Backend) {
    let server = start(backend).await;
    let human = server.guest().await;
    let mut ws = human.ws().await;
    let t = against_the_computer(&mut ws, per_turn(20_000)).await;
    until(&mut ws, |st| st["game"]["board"]["to_act"] == 0).await;
    ws.ok("move", json!({"table": t, "action": "bid 3"})).await;
    until(&mut ws, |st| st["game"]["board"]["landlord"] == 0).await;
    // 托管: the computer plays the landlord's first lead for them.
    ws.ok("trusteeship.on", json!({"table": t})).await;
    let st = until(&mut ws, |st| st["seats"][0]["trustee"] == true).await;
    assert_eq!(st["game"]["players"][0], human.name.as_str());
    let r = ws.act("trusteeship.on", json!({"table": t})).await;
    assert_eq!(r["d"]["code"], "not_allowed", "{r}");
    until(&mut ws, |st| actions_of(st, 0).len() > 1).await;
    // 取消托管: the next turn of theirs waits for them.
    ws.ok("trusteeship.off", json!({"table": t})).await;
    let st = until(&mut ws, |st| st["seats"][0]["trustee"] == false).await;
    let played = actions_of(&st, 0).len();
    if st["status"] == "playing" {
        until(&mut ws, |st| {
            st["game"]["board"]["to_act"] == 0 || st["status"] == "over"
        })
        .await;
        let waited = tokio::time::Instant::now();
        while waited.elapsed() < Duration::from_millis(2_000) {
            let _ = tokio::time::timeout(Duration::from_millis(200), ws.recv()).await;
        }
        assert_eq!(actions_of(ws.state(), 0).len(), played, "{}", ws.state());
    }
    let r = ws.act("trusteeship.off", json!({"table": t})).await;
    assert_eq!(r["d"]["code"], "not_allowed", "{r}");
    let on: Vec<bool> = events_of(&ws.seen, "trusteeship")
        .iter()
        .map(|e| e["on"].as_bool().unwrap())
        .collect();
    assert_eq!(on, [true, false]);
}

async fn cards_are_named_in_the_move_list_and_the_record(backend: Backend) {
    let server = start(backend).await;
    let human = server.guest().await;
    let mut ws = human.ws().await;
    let t = against_the_computer(&mut ws, per_turn(20_000)).await;
    until(&mut ws, |st| st["game"]["board"]["to_act"] == 0).await;
    ws.ok("move", json!({"table": t, "action": "bid 3"})).await;
    until(&mut ws, |st| st["game"]["board"]["landlord"] == 0).await;
    ws.ok("move", json!({"table": t, "action": "BR"})).await;
    let st = until(&mut ws, |st| actions_of(st, 0).len() == 2).await;
    let said: Vec<(&str, &str)> = st["game"]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["action"].as_str().unwrap(),
                m["display"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(said, [("bid 3", "叫3分"), ("BR", "小王 大王")]);
    ws.ok("resign", json!({"table": t})).await;
    until(&mut ws, |st| st["status"] == "over").await;
    let r = human.get(&format!("/game/{t}.json")).await;
    assert_eq!(r.status(), 200);
    let record: Value = r.json().await.unwrap();
    let actions = record["actions"].as_array().unwrap();
    assert_eq!(
        actions[0],
        json!({"seat": 0, "action": "bid 3", "zh": "叫3分", "en": "Bid 3"})
    );
    assert_eq!(
        actions[1],
        json!({"seat": 0, "action": "BR", "zh": "小王 大王", "en": "Little Joker Big Joker"})
    );
    for a in actions {
        for lang in ["zh", "en"] {
            let words = a[lang].as_str().unwrap();
            assert!(
                words.split(' ').all(|w| !["T", "B", "R"].contains(&w)),
                "{a}"
            );
        }
    }
    // Two computer players at one table, named apart by their seats.
    assert_eq!(
        record["players"],
        json!([human.name, "电脑（普通）乙", "电脑（普通）丙"])
    );
}

both!(
    a_missed_bid_is_a_pass_and_a_deal_is_void_only_when_all_three_pass,
    the_landlords_first_play_is_timed_and_played_for_when_it_runs_out,
    a_player_arriving_after_the_dialog_closed_is_not_played_for,
    trusteeship_is_handed_over_and_taken_back_by_its_buttons,
    cards_are_named_in_the_move_list_and_the_record,
);
