//! The organiser's controls of an event, on SQLite and PostgreSQL: opening
//! registration, naming arbiters with their role, the players' presence
//! before a round, pausing the schedule before the start and between two
//! rounds, starting now, adding a round, and ending the event (after the
//! round being played, or at once when none is); only the organiser runs the
//! event, and a finished event runs no more.

use std::time::Duration;

use qiyuan_testkit::clock::now_ms;
use serde_json::{Value, json};

use crate::common::{self, Backend, Client, event, post};

async fn me(c: &Client) -> Value {
    c.get("/api/events/me").await.json().await.unwrap()
}

async fn presence(c: &Client, id: &str) -> (u16, Value) {
    let r = c.get(&format!("/api/event/{id}/presence")).await;
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

fn config(starts_at: i64, rounds: u32) -> Value {
    json!({
        "name": "Club night 俱乐部",
        "game": "chess",
        "time": {"kind": "fischer", "base": 60000, "increment": 0},
        "rounds": rounds,
        "starts_at": starts_at,
        "schedule": {"kind": "after_previous", "pause_secs": 0.0},
        "registration_opens": starts_at,
        "forfeit_secs": 30.0,
    })
}

/// Waits until `check` holds of the event (at most 10 s).
async fn until(c: &Client, id: &str, what: &str, check: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..200 {
        let ev = event(c, id).await;
        if check(&ev) {
            return ev;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{what}: {}", event(c, id).await);
}

/// The event's rounds paired so far.
fn paired(ev: &Value) -> usize {
    ev["rounds"].as_array().map_or(0, Vec::len)
}

/// Still `n` rounds after several of the schedule's ticks.
async fn stays_paired(c: &Client, id: &str, n: usize) {
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(
        paired(&event(c, id).await),
        n,
        "no round paired while paused"
    );
}

/// The arbiter decides every open board of the current round: white wins.
async fn decide_round(arb: &Client, org: &Client, id: &str, round: usize) {
    let ev = until(org, id, "the round's tables", |ev| {
        ev["rounds"][round - 1]["games"]
            .as_array()
            .is_some_and(|g| {
                g.iter()
                    .all(|g| g["black"].is_null() || g["table"].is_string())
            })
    })
    .await;
    for g in ev["rounds"][round - 1]["games"].as_array().unwrap() {
        if g["black"].is_null() {
            continue;
        }
        let (status, body) = post(
            arb,
            &format!("/api/event/{id}/action"),
            json!({"kind": "adjudicate", "player": g["white"], "reason": "quick club night", "result": "1-0"}),
        )
        .await;
        assert_eq!(status, 200, "{body}");
    }
}

async fn organiser_runs_the_event(backend: Backend) {
    let server = common::start_with(backend, |c| c.event_tick_ms = 50).await;
    let store = server.running.as_ref().unwrap().app.store.clone();
    let org = server.register("org").await;
    let arb = server.register("arb").await;
    let arb2 = server.register("arb2").await;
    let nobody = server.register("nobody").await;
    let mut players = Vec::new();
    for i in 1..=4 {
        players.push(server.register(&format!("player{i}")).await);
    }
    qiyuan_server::events::grant(&*store, "org", "organiser")
        .await
        .unwrap();
    for a in ["arb", "arb2"] {
        qiyuan_server::events::grant(&*store, a, "arbiter")
            .await
            .unwrap();
    }
    // The web client asks which pages to offer.
    assert_eq!(me(&org).await, json!({"organiser": true, "arbiter": false}));
    assert_eq!(me(&arb).await, json!({"organiser": false, "arbiter": true}));
    assert_eq!(
        me(&nobody).await,
        json!({"organiser": false, "arbiter": false})
    );
    // Registration opens in an hour, as the event starts.
    let (status, created) = post(&org, "/api/events", config(now_ms() + 3_600_000, 1)).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let (status, body) = post(&players[0], &format!("/api/event/{id}/register"), json!({})).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (409, Some("registration_closed"))
    );
    // Only the organiser runs the event.
    for path in ["open", "start", "pause", "resume", "rounds", "end"] {
        let (status, body) = post(&arb, &format!("/api/event/{id}/{path}"), json!({})).await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (403, Some("not_organiser")),
            "{path}"
        );
    }
    let (status, body) = post(&org, &format!("/api/event/{id}/open"), json!({})).await;
    assert_eq!(status, 200, "{body}");
    for p in &players {
        let (status, body) = post(p, &format!("/api/event/{id}/register"), json!({})).await;
        assert_eq!(status, 200, "{body}");
    }
    // The arbiters, each with a role; a role not known is refused.
    let (status, body) = post(
        &org,
        &format!("/api/event/{id}/arbiters"),
        json!({"user": "arb", "role": "chief"}),
    )
    .await;
    assert_eq!((status, &body["role"]), (200, &json!("chief")), "{body}");
    let (status, body) = post(
        &org,
        &format!("/api/event/{id}/arbiters"),
        json!({"user": "arb2", "role": "judge"}),
    )
    .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (400, Some("bad_role"))
    );
    let (status, _) = post(
        &org,
        &format!("/api/event/{id}/arbiters"),
        json!({"user": "arb2", "role": "table"}),
    )
    .await;
    assert_eq!(status, 200);

    // Presence before the round: for the organiser and arbiters only; a
    // player with a page open is online, the others away.
    let (status, body) = presence(&nobody, &id).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (403, Some("not_event_staff"))
    );
    let (status, body) = presence(&players[0], &id).await;
    assert_eq!(status, 403, "{body}");
    let (status, body) = presence(&org, &id).await;
    assert_eq!(status, 200, "{body}");
    assert!(
        body["players"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["online"] == false && p["presence"]["state"] == "offline"),
        "{body}"
    );
    let ws = players[0].ws().await;
    let mut seen = Value::Null;
    for _ in 0..100 {
        let (status, body) = presence(&arb2, &id).await;
        assert_eq!(status, 200);
        seen = body["players"].clone();
        if seen[0]["online"] == true {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(seen[0]["user"], "player1");
    assert_eq!(seen[0]["online"], true, "{seen}");
    assert_eq!(seen[0]["presence"]["state"], "online");
    assert_eq!(seen[1]["online"], false, "{seen}");
    drop(ws);

    // Paused before its start, the event does not start when its time comes.
    let (status, body) = post(&org, &format!("/api/event/{id}/pause"), json!({})).await;
    assert_eq!((status, &body["paused"]), (200, &json!(true)), "{body}");
    let mut now = config(now_ms() - 1000, 1);
    now["registration_opens"] = Value::Null;
    // A PATCH keeps the pause whatever it sends.
    now["paused"] = json!(false);
    let r = org
        .http
        .patch(format!("{}/api/event/{id}", org.base))
        .bearer_auth(&org.token)
        .json(&now)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    stays_paired(&org, &id, 0).await;
    let ev = event(&org, &id).await;
    assert_eq!(
        (ev["status"].as_str(), &ev["config"]["paused"]),
        (Some("registering"), &json!(true))
    );
    // Started now: the pause ends, round 1 is paired.
    let (status, body) = post(&org, &format!("/api/event/{id}/start"), json!({})).await;
    assert_eq!((status, &body["paused"]), (200, &json!(false)), "{body}");
    until(&org, &id, "round 1 paired", |ev| paired(ev) == 1).await;
    let (status, body) = post(&org, &format!("/api/event/{id}/start"), json!({})).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (409, Some("event_started"))
    );
    // A second round, added while the first is played; paused meanwhile.
    let (status, body) = post(&org, &format!("/api/event/{id}/rounds"), json!({})).await;
    assert_eq!((status, &body["rounds"]), (200, &json!(2)), "{body}");
    assert_eq!(event(&org, &id).await["config"]["rounds"], 2);
    let (status, _) = post(&org, &format!("/api/event/{id}/pause"), json!({})).await;
    assert_eq!(status, 200);
    decide_round(&arb, &org, &id, 1).await;
    until(&org, &id, "round 1 finished", |ev| {
        ev["rounds"][0]["finished_at"].is_i64()
    })
    .await;
    stays_paired(&org, &id, 1).await;
    assert_eq!(event(&org, &id).await["status"], "running");
    let (status, _) = post(&org, &format!("/api/event/{id}/resume"), json!({})).await;
    assert_eq!(status, 200);
    until(&org, &id, "round 2 paired", |ev| paired(ev) == 2).await;
    // Ended while round 2 is played: the event ends with that round.
    let (status, body) = post(&org, &format!("/api/event/{id}/rounds"), json!({})).await;
    assert_eq!((status, &body["rounds"]), (200, &json!(3)), "{body}");
    let (status, body) = post(&org, &format!("/api/event/{id}/end"), json!({})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        (&body["ends_after_round"], &body["rounds"]),
        (&json!(2), &json!(2))
    );
    assert_eq!(event(&org, &id).await["status"], "running");
    decide_round(&arb, &org, &id, 2).await;
    let ev = until(&org, &id, "the event finished", |ev| {
        ev["status"] == "finished"
    })
    .await;
    assert_eq!(paired(&ev), 2);
    assert_eq!(ev["end"]["reason"], "rounds_played");
    // A finished event runs no more.
    for path in ["open", "start", "pause", "resume", "rounds", "end"] {
        let (status, body) = post(&org, &format!("/api/event/{id}/{path}"), json!({})).await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (409, Some("event_finished")),
            "{path}"
        );
    }

    // Ended before any round: at once, with the organiser's reason.
    let (status, created) = post(&org, "/api/events", config(now_ms() + 3_600_000, 3)).await;
    assert_eq!(status, 201);
    let id = created["id"].as_str().unwrap();
    let (status, body) = post(&org, &format!("/api/event/{id}/end"), json!({})).await;
    assert_eq!(
        (status, &body["status"]),
        (200, &json!("finished")),
        "{body}"
    );
    let ev = event(&org, id).await;
    assert_eq!(ev["status"], "finished");
    assert_eq!(ev["end"]["reason"], "organiser");
    assert_eq!(ev["end"]["rounds"], 0);
}

crate::both!(organiser_runs_the_event);
