//! Computer players at live Doudizhu tables, over real WebSockets against the real
//! server: a player alone fills the two other seats with bots (`add_bot`) and
//! plays whole hands; a player who escapes loses the hand and a bot takes the
//! empty seat for the next one (whether they left or dropped and stayed away);
//! after a restart the bots come back by themselves. Every bot action is checked
//! against the legal actions of its seat by replaying the finished hand's record.
#![cfg(feature = "doudizhu")]

use std::time::Duration;

use qiyuan_doudizhu::{Doudizhu, Record};
use qiyuan_game::Game;
use serde_json::{Value, json};

use crate::common::{self, *};

/// The seat's first legal action from its own view, if it is its turn.
fn first_legal(st: &Value, seat: u64) -> Option<String> {
    let board = &st["game"]["board"];
    if st["status"] != "playing" || board["to_act"] != seat {
        return None;
    }
    board["legal"][0].as_str().map(str::to_string)
}

/// Plays the hand to its end for the human at `seat` (its first legal action
/// each turn) while the bots play theirs; returns the final state.
async fn play_out(ws: &mut Ws, table: &str, seat: u64) -> Value {
    let mut turns = 0;
    loop {
        let st = ws.state().clone();
        if st["status"] == "over" {
            return st;
        }
        match first_legal(&st, seat) {
            Some(action) => {
                ws.ok("move", json!({"table": table, "action": action}))
                    .await;
                turns += 1;
                assert!(turns < 300, "the hand never ended");
            }
            None => {
                ws.recv().await;
            }
        }
    }
}

/// Replays the finished hand's record and checks that every action of a bot
/// seat was among that seat's legal actions; returns how many bot actions.
async fn check_bot_actions(client: &Client, game_id: &str, bots: &[usize]) -> usize {
    let resp = client.get(&format!("/game/{game_id}.json")).await;
    assert_eq!(resp.status(), 200, "the record of {game_id}");
    let record: Record = serde_json::from_str(&resp.text().await.unwrap()).unwrap();
    let (options, setup) = record.setup().expect("a replayable record");
    let mut game = Doudizhu::new(&options, &setup).expect("the deal rebuilds");
    let mut n = 0;
    for a in &record.actions {
        if bots.contains(&a.seat.index()) {
            let legal = game.legal_actions(a.seat);
            assert!(
                legal.contains(&a.action),
                "the bot at {:?} played {:?}, not among {legal:?}",
                a.seat,
                a.action
            );
            n += 1;
        }
        game.act(a.seat, &a.action)
            .unwrap_or_else(|e| panic!("{:?} {:?} replays: {e:?}", a.seat, a.action));
    }
    assert!(game.outcome().is_some(), "the record holds a finished hand");
    n
}

fn assert_scored(st: &Value) {
    let outcome = &st["game"]["outcome"];
    let points: Vec<i64> = outcome["points"]
        .as_array()
        .unwrap_or_else(|| panic!("points in {outcome}"))
        .iter()
        .map(|p| p.as_i64().unwrap())
        .collect();
    assert_eq!(points.len(), 3, "{outcome}");
    assert_eq!(
        points.iter().sum::<i64>(),
        0,
        "scores sum to zero: {outcome}"
    );
    assert!(points.iter().all(|p| *p != 0), "everyone scores: {outcome}");
}

async fn one_player_and_two_bots_play_a_hand(backend: Backend) {
    let server = start_with(backend, |c| c.bot_think_ms = 0).await;
    let human = server.guest().await;
    let mut ws = human.ws().await;
    let t = ws
        .create(json!({"game": "doudizhu", "seat": 0, "time": {"kind": "none"}}))
        .await;
    ws.ok("add_bot", json!({"table": t, "seat": 1, "level": "strong"}))
        .await;
    ws.ok("add_bot", json!({"table": t, "seat": 2, "level": "basic"}))
        .await;
    // A taken seat, a made-up strength, and a stranger are refused.
    let again = ws.act("add_bot", json!({"table": t, "seat": 2})).await;
    assert_eq!(again["d"]["code"], "seat_taken", "{again}");
    let bad = ws
        .act(
            "add_bot",
            json!({"table": t, "seat": 2, "level": "godlike"}),
        )
        .await;
    assert_eq!(bad["d"]["code"], "bad_message", "{bad}");
    let stranger = server.guest().await;
    let mut ws2 = stranger.ws().await;
    let r = ws2.act("add_bot", json!({"table": t, "seat": 1})).await;
    assert_eq!(r["d"]["code"], "not_seated", "{r}");

    ws.ok("ready", json!({"table": t})).await;
    let started = ws.state().clone();
    assert_eq!(
        started["status"], "playing",
        "the bots were ready: {started}"
    );
    let players: Vec<&str> = started["game"]["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    assert_eq!(players[0], human.name);
    assert!(players[1].starts_with("bot:strong-"), "{players:?}");
    assert!(players[2].starts_with("bot:basic-"), "{players:?}");
    // Mid-game, no bot may be added.
    let r = ws.act("add_bot", json!({"table": t, "seat": 1})).await;
    assert_eq!(r["d"]["code"], "game_in_progress", "{r}");

    let end = play_out(&mut ws, &t, 0).await;
    assert_eq!(end["game"]["outcome"]["reason"], "hand_emptied", "{end}");
    assert_scored(&end);
    let bot_actions = check_bot_actions(&human, &t, &[1, 2]).await;
    assert!(bot_actions >= 4, "the bots played ({bot_actions} actions)");

    // The bots agree to a rematch (再来一局) at once: seats move one on.
    ws.ok("rematch", json!({"table": t})).await;
    while ws.state()["status"] != "playing" {
        ws.recv().await;
    }
    let st = ws.state().clone();
    assert_eq!(st["status"], "playing", "{st}");
    assert_eq!(st["game"]["number"], 2);
    assert_eq!(st["game"]["players"][1], human.name.as_str());
    let end = play_out(&mut ws, &t, 1).await;
    assert_scored(&end);

    // And they are ready again at once: the next hand starts on the human's word.
    ws.ok("ready", json!({"table": t})).await;
    assert_eq!(ws.state()["status"], "playing");
    assert_eq!(ws.state()["game"]["number"], 3);
}

async fn a_bot_takes_the_seat_of_a_player_who_escaped(backend: Backend) {
    escape_and_takeover(backend, false).await
}

/// When the player's socket drops instead and they stay away past the grace
/// time (1 s here), the hand is no escape: the computer plays for them (托管) to
/// the hand's end, which is scored by the play; between hands their seat is
/// freed after the grace time.
async fn the_computer_plays_for_a_player_who_dropped(backend: Backend) {
    escape_and_takeover(backend, true).await
}

async fn escape_and_takeover(backend: Backend, drop: bool) {
    let server = start_with(backend, |c| c.bot_think_ms = 0).await;
    let a = server.guest().await;
    let b = server.guest().await;
    let mut wa = a.ws().await;
    let mut wb = b.ws().await;
    let t = wa
        .create(json!({"game": "doudizhu", "seat": 0, "time": {"kind": "none"}}))
        .await;
    wb.send("watch", json!({"table": t})).await;
    wb.expect("sync").await;
    wb.ok("sit", json!({"table": t, "seat": 1})).await;
    wb.ok("add_bot", json!({"table": t, "seat": 2})).await;
    wa.ok("ready", json!({"table": t})).await;
    let r = wb.ok("ready", json!({"table": t})).await;
    let mut v = r["d"]["v"].as_u64().unwrap();

    // Play until every seat has acted (before that, leaving aborts the hand).
    let mut turns = 0;
    loop {
        wa.catch_up(v).await;
        wb.catch_up(v).await;
        let st = wa.state().clone();
        assert_eq!(st["status"], "playing", "{st}");
        let seats: Vec<u64> = st["game"]["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["seat"].as_u64().unwrap())
            .collect();
        if (0..3).all(|s| seats.contains(&s)) {
            break;
        }
        turns += 1;
        assert!(turns < 100, "every seat acts: {st}");
        let to_act = st["game"]["board"]["to_act"].as_u64();
        let mover = match to_act {
            Some(0) => Some((&mut wa, 0)),
            Some(1) => Some((&mut wb, 1)),
            _ => None,
        };
        match mover {
            Some((w, seat)) => {
                let action = first_legal(w.state(), seat).expect("a legal action");
                let r = w.ok("move", json!({"table": t, "action": action})).await;
                v = r["d"]["v"].as_u64().unwrap();
            }
            None => {
                wa.recv().await;
                v = wa.state()["version"].as_u64().unwrap();
            }
        }
    }

    // B drops: the computer plays for B (托管) well past the grace time, and the
    // hand ends by its play, not by escape.
    if drop {
        let before = wa.state()["game"]["moves"].as_array().unwrap().len();
        wb.close().await;
        // Away longer than the grace time, with the hand waiting on A at times.
        let away = tokio::time::Instant::now();
        while away.elapsed() < Duration::from_millis(1_600) {
            let _ = tokio::time::timeout(Duration::from_millis(200), wa.recv()).await;
        }
        assert_eq!(wa.state()["status"], "playing", "no escape: {}", wa.state());
        let end = play_out(&mut wa, &t, 0).await;
        let outcome = &end["game"]["outcome"];
        assert_eq!(outcome["reason"], "hand_emptied", "no escape: {end}");
        assert_scored(&end);
        let played_for = end["game"]["moves"].as_array().unwrap()[before..]
            .iter()
            .filter(|m| m["seat"] == 1)
            .count();
        assert!(played_for > 0, "the computer played for B: {end}");
        // Between hands B's seat is freed after the grace time.
        let freed = tokio::time::Instant::now();
        while wa.state()["seats"][1]["user"].as_str() == Some(b.name.as_str()) {
            assert!(
                freed.elapsed() < Duration::from_secs(10),
                "B's seat is freed"
            );
            let _ = tokio::time::timeout(Duration::from_millis(200), wa.recv()).await;
        }
        return;
    }
    // B leaves: the hand is lost by escape and scored as the rules set it.
    wb.ok("leave", json!({"table": t})).await;
    let ended = wa.event("ended").await;
    let outcome = &ended["d"]["state"]["game"]["outcome"];
    assert_eq!(outcome["reason"], "escape", "{ended}");
    assert!(
        outcome["points"][1].as_i64().unwrap() < 0,
        "the escaper loses: {outcome}"
    );
    // A bot takes B's empty seat for the next hand.
    let sat = loop {
        let st = wa.state().clone();
        if let Some(u) = st["seats"][1]["user"].as_str()
            && u.starts_with("bot:")
        {
            break u.to_string();
        }
        wa.recv().await;
    };
    assert_ne!(sat, b.name);
    // A seated player may take the bot off again (it is not put back) and seat
    // another; only a bot's seat can be emptied so.
    wa.ok("remove_bot", json!({"table": t, "seat": 1})).await;
    let r = wa.act("remove_bot", json!({"table": t, "seat": 0})).await;
    assert_eq!(r["d"]["code"], "no_bot", "{r}");
    let st = wa.state().clone();
    assert!(st["seats"][1]["user"].is_null(), "not put back: {st}");
    wa.ok("add_bot", json!({"table": t, "seat": 1, "level": "strong"}))
        .await;
    let sat = wa.state()["seats"][1]["user"].as_str().unwrap().to_string();
    assert!(sat.starts_with("bot:strong-"), "{sat}");
    wa.ok("ready", json!({"table": t})).await;
    let st = wa.state().clone();
    assert_eq!(st["status"], "playing", "{st}");
    assert_eq!(st["game"]["number"], 2);
    assert_eq!(st["game"]["players"][1], sat.as_str());

    // The next hand plays to its end with the two bots.
    let end = play_out(&mut wa, &t, 0).await;
    assert_eq!(end["game"]["outcome"]["reason"], "hand_emptied", "{end}");
    assert_scored(&end);
    let bot_actions = check_bot_actions(&a, &format!("{t}-2"), &[1, 2]).await;
    assert!(bot_actions >= 4, "the bots played ({bot_actions} actions)");
}

/// After a restart mid-hand the bots come back by themselves (a restart counts
/// every seat absent) and the hand plays on to its end.
async fn bots_come_back_after_a_restart(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let mut config = common::config(backend, dir.path());
    // A short think here: the bots' timer path as in production.
    config.bot_think_ms = 20;
    let running = qiyuan_server::start(config.clone()).await.unwrap();
    let server = TestServer {
        base: format!("http://{}", running.addr),
        ws: format!("ws://{}/ws", running.addr),
        running: Some(running),
        dir,
        config: config.clone(),
    };
    let human = server.guest().await;
    let mut ws = human.ws().await;
    let t = ws
        .create(json!({"game": "doudizhu", "seat": 0, "time": {"kind": "none"}}))
        .await;
    ws.ok("add_bot", json!({"table": t, "seat": 1, "level": "basic"}))
        .await;
    ws.ok("add_bot", json!({"table": t, "seat": 2, "level": "strong"}))
        .await;
    ws.ok("ready", json!({"table": t})).await;
    // The human's first turn (the bots have played up to it), then a restart.
    while first_legal(ws.state(), 0).is_none() {
        ws.recv().await;
    }
    let action = first_legal(ws.state(), 0).unwrap();
    ws.ok("move", json!({"table": t, "action": action})).await;
    ws.close().await;
    let mut server = server;
    server.running.take().unwrap().shutdown().await.unwrap();

    let running = qiyuan_server::start(config).await.unwrap();
    let human = Client {
        base: format!("http://{}", running.addr),
        ws_url: format!("ws://{}/ws", running.addr),
        ..human
    };
    let mut ws = human.ws().await;
    ws.send("watch", json!({"table": t})).await;
    ws.expect("sync").await;
    let end = play_out(&mut ws, &t, 0).await;
    assert_eq!(end["game"]["outcome"]["reason"], "hand_emptied", "{end}");
    assert_scored(&end);
    let seats = end["seats"].as_array().unwrap();
    assert!(
        seats.iter().all(|s| s["connected"] == true),
        "the bots are back: {seats:?}"
    );
    running.shutdown().await.unwrap();
}

both!(
    one_player_and_two_bots_play_a_hand,
    a_bot_takes_the_seat_of_a_player_who_escaped,
    the_computer_plays_for_a_player_who_dropped,
    bots_come_back_after_a_restart,
);
