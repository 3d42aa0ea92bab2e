//! Doudizhu 托管 over real WebSockets against the real server: a player who lets
//! their turn timer run out is played by the computer, as themselves, and the
//! hand goes on (a timeout no longer loses it for both farmers); once they act
//! again, their turns are theirs again and the computer steps in only when the
//! timer is about to run out once more.
#![cfg(feature = "doudizhu")]

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::*;

/// Seat 0 holds the rocket and three bombs and bids first; the bottom is 7 2 2.
pub const ROCKET_DEAL: &str = "333344445555666BR/677788889999TTTTJ/JJJQQQQKKKKAAAA22/722 first 0";

/// Seat 0's actions so far in the hand.
fn seat0_actions(st: &Value) -> usize {
    st["game"]["moves"]
        .as_array()
        .map_or(0, |m| m.iter().filter(|m| m["seat"] == 0).count())
}

fn my_turn(st: &Value) -> bool {
    st["status"] == "playing" && st["game"]["board"]["to_act"] == 0
}

/// Waits for seat 0's turn, then for an action at seat 0 that the test does not
/// make; returns how long after the turn began it came, or `None` if the hand
/// ended first.
async fn computer_acts_for_me(ws: &mut Ws) -> Option<Duration> {
    while !my_turn(ws.state()) {
        if ws.state()["status"] == "over" {
            return None;
        }
        ws.recv().await;
    }
    let since = Instant::now();
    let before = seat0_actions(ws.state());
    while seat0_actions(ws.state()) == before {
        if ws.state()["status"] == "over" {
            return None;
        }
        ws.recv().await;
    }
    Some(since.elapsed())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_out_of_time_is_played_by_the_computer_and_takes_control_back() {
    let server = start_with(Backend::Sqlite, |c| c.bot_think_ms = 0).await;
    let human = server.guest().await;
    let mut ws = human.ws().await;
    // 2.5 s a turn: the computer takes over 1 s before the timer runs out. The
    // player bids first and holds the rocket (a deal written out).
    let t = ws
        .create(json!({"game": "doudizhu", "seat": 0,
                       "time": {"kind": "qq", "game": 0, "per_move": 0, "countdown": 2_500},
                       "setup": {"position": ROCKET_DEAL}}))
        .await;
    ws.ok("add_bot", json!({"table": t, "seat": 1, "level": "basic"}))
        .await;
    ws.ok("add_bot", json!({"table": t, "seat": 2, "level": "basic"}))
        .await;
    ws.ok("ready", json!({"table": t})).await;
    assert_eq!(ws.state()["status"], "playing");

    // The player bids 3 at once: the landlord, whose first play is timed.
    assert!(my_turn(ws.state()));
    ws.ok("move", json!({"table": t, "action": "bid 3"})).await;
    while ws.state()["game"]["board"]["landlord"] != 0 {
        ws.recv().await;
    }
    assert_eq!(ws.state()["game"]["clock"]["running"], 0, "{}", ws.state());

    // Then the player does nothing: the first time, the computer steps in just
    // before the timer runs out, and the seat shows it; afterwards it plays
    // their turns at once.
    let first = computer_acts_for_me(&mut ws).await.expect("a turn");
    assert!(
        first >= Duration::from_millis(1_000) && first < Duration::from_millis(2_500),
        "the computer stepped in before the flag: {first:?}"
    );
    assert_eq!(ws.state()["seats"][0]["trustee"], true, "{}", ws.state());
    if let Some(second) = computer_acts_for_me(&mut ws).await {
        assert!(
            second < Duration::from_millis(1_000),
            "then it plays for them at once: {second:?}"
        );
    }
    let st = ws.state().clone();
    if st["status"] == "playing" {
        assert_eq!(
            st["game"]["players"][0],
            human.name.as_str(),
            "still their seat"
        );
        // Any command of theirs takes control back (a draw offer: refused in
        // Doudizhu, but theirs): the next turn waits for them until the
        // computer steps in again just before the timer.
        ws.act("draw.offer", json!({"table": t})).await;
        assert_eq!(ws.state()["seats"][0]["trustee"], false, "{}", ws.state());
        if let Some(again) = computer_acts_for_me(&mut ws).await {
            assert!(
                again >= Duration::from_millis(1_000),
                "their turn was theirs again: {again:?}"
            );
        }
    }
    // And the hand ends as a hand does, never by a timeout.
    while ws.state()["status"] != "over" {
        ws.recv().await;
    }
    let outcome = &ws.state()["game"]["outcome"];
    assert_eq!(outcome["reason"], "hand_emptied", "{outcome}");
}
