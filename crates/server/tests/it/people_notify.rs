//! Each page's socket is a channel to its person (`crate::people`): a
//! challenge made, declined or accepted, a tournament round paired with its
//! table and an arbiter's word reach every socket the person has open within
//! a second, on SQLite and PostgreSQL, and across two nodes; nobody else
//! hears them.

use std::time::{Duration, Instant};

use qiyuan_testkit::clock::now_ms;
use serde_json::{Value, json};

use crate::common::{self, Backend, Client, Ws, post};
use crate::nodes::Site;

/// The next `notify` of `kind` on `ws`, which must come within a second.
pub(crate) async fn notified(ws: &mut Ws, kind: &str) -> Value {
    notified_within(ws, kind, Duration::from_secs(1)).await
}

/// The next `notify` of `kind` on `ws`, which must come within `limit`.
pub(crate) async fn notified_within(ws: &mut Ws, kind: &str, limit: Duration) -> Value {
    let wait = async {
        loop {
            let m = ws.expect("notify").await;
            if m["d"]["kind"] == kind {
                return m["d"].clone();
            }
        }
    };
    tokio::time::timeout(limit, wait)
        .await
        .unwrap_or_else(|_| panic!("no notify {kind} within {limit:?}"))
}

/// Nothing is notified on `ws` for a while.
pub(crate) async fn quiet(ws: &mut Ws) {
    let heard = tokio::time::timeout(Duration::from_millis(300), ws.expect("notify")).await;
    assert!(heard.is_err(), "told what was not theirs: {heard:?}");
}

async fn challenge(from: &Client, to: &str) -> String {
    let (status, c) = post(
        from,
        &format!("/api/challenge/{to}"),
        json!({"clock.limit": "300", "clock.increment": "3", "color": "white"}),
    )
    .await;
    assert_eq!(status, 200, "{c}");
    c["id"].as_str().unwrap().to_string()
}

/// Bob has two pages open, Alice one, Carol one: Alice's challenge reaches
/// both of Bob's pages (and Alice's own), Bob's decline with its reason both
/// of them and Alice; a second challenge accepted tells Alice the table; Carol
/// hears nothing.
async fn challenges_reach_every_page(backend: Backend) {
    let s = common::start(backend).await;
    let alice = s.register("alice").await;
    let bob = s.register("bob").await;
    let carol = s.register("carol").await;
    let mut a = alice.ws().await;
    let mut b1 = bob.ws().await;
    let mut b2 = bob.ws().await;
    let mut c = carol.ws().await;

    let id = challenge(&alice, "bob").await;
    for ws in [&mut b1, &mut b2, &mut a] {
        let n = notified(ws, "challenge").await;
        assert_eq!(n["id"], id.as_str());
        assert_eq!(n["from"], "alice");
        assert_eq!(n["to"], "bob");
        assert_eq!(n["game"], "chess");
        assert_eq!(n["color"], "white");
        assert_eq!(n["time"]["kind"], "fischer");
    }
    let (status, _) = post(
        &bob,
        &format!("/api/challenge/{id}/decline"),
        json!({"reason": "later"}),
    )
    .await;
    assert_eq!(status, 200);
    for ws in [&mut a, &mut b1, &mut b2] {
        let n = notified(ws, "challenge_declined").await;
        assert_eq!(n["id"], id.as_str());
        assert_eq!(n["reason"], "later");
    }

    let id = challenge(&alice, "bob").await;
    notified(&mut b1, "challenge").await;
    let (status, accepted) = post(&bob, &format!("/api/challenge/{id}/accept"), json!({})).await;
    assert_eq!(status, 200, "{accepted}");
    let n = notified(&mut a, "challenge_accepted").await;
    assert_eq!(n["id"], id.as_str());
    assert_eq!(n["table"], accepted["game"]);
    notified(&mut b2, "challenge_accepted").await;
    quiet(&mut c).await;
}

/// A two-player event of one round: when it is paired, each player's two
/// pages are told the round with its table and their seat, and an arbiter's
/// warning reaches both players' pages.
async fn a_paired_round_reaches_every_page(backend: Backend) {
    let s = common::start_with(backend, |c| c.event_tick_ms = 50).await;
    let store = s.running.as_ref().unwrap().app.store.clone();
    let org = s.register("org").await;
    let arb = s.register("arb").await;
    qiyuan_server::events::grant(&*store, "org", "organiser")
        .await
        .unwrap();
    qiyuan_server::events::grant(&*store, "arb", "arbiter")
        .await
        .unwrap();
    let config = |starts_at: i64| {
        json!({
            "name": "Notify 通知",
            "game": "chess",
            "time": {"kind": "fischer", "base": 60000, "increment": 0},
            "rounds": 1,
            "starts_at": starts_at,
            "schedule": {"kind": "after_previous", "pause_secs": 1.0},
            "forfeit_secs": 60.0,
        })
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
    let p1 = s.register("player1").await;
    let p2 = s.register("player2").await;
    let outsider = s.register("outsider").await;
    for p in [&p1, &p2] {
        let (status, r) = post(p, &format!("/api/event/{id}/register"), json!({})).await;
        assert_eq!(status, 200, "{r}");
    }
    let mut pages = Vec::new();
    for p in [&p1, &p2, &p1, &p2] {
        pages.push((p.name.clone(), p.ws().await));
    }
    let mut other = outsider.ws().await;
    let r = org
        .http
        .patch(format!("{}/api/event/{id}", org.base))
        .bearer_auth(&org.token)
        .json(&config(now_ms()))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);

    // The first page hears of it whenever the director pairs; every other
    // page within a second of it.
    let first = tokio::time::timeout(Duration::from_secs(10), pages[0].1.expect("notify"))
        .await
        .expect("the round is told");
    assert_eq!(first["d"]["kind"], "round");
    let paired = Instant::now();
    let table = first["d"]["table"].as_str().unwrap().to_string();
    for (name, ws) in &mut pages[1..] {
        let n = notified(ws, "round").await;
        assert_eq!(n["event"], id.as_str());
        assert_eq!(n["table"], table.as_str());
        assert_eq!(n["round"], 1);
        let opponent = if name == "player1" {
            "player2"
        } else {
            "player1"
        };
        assert_eq!(n["opponent"], opponent);
    }
    assert!(paired.elapsed() < Duration::from_secs(1));
    // The table told is the board's, and the player's seat is theirs there.
    let ev: Value = org
        .get(&format!("/api/event/{id}"))
        .await
        .json()
        .await
        .unwrap();
    let board = &ev["rounds"][0]["games"][0];
    assert_eq!(board["table"], table.as_str());
    let seat_of = |name: &str| if board["white"] == name { 0 } else { 1 };
    assert_eq!(first["d"]["seat"], seat_of(&pages[0].0));

    let (status, body) = post(
        &arb,
        &format!("/api/event/{id}/action"),
        json!({"kind": "warning", "player": "player1", "reason": "talking"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    for (_, ws) in &mut pages {
        let n = notified(ws, "arbiter").await;
        assert_eq!(n["action"]["kind"], "warning");
        assert_eq!(n["action"]["player"], "player1");
        assert_eq!(n["action"]["reason"], "talking");
    }
    quiet(&mut other).await;
}

both!(
    challenges_reach_every_page,
    a_paired_round_reaches_every_page,
    an_event_page_is_told_of_changes
);

/// An account registered on the node at `base`, as a client of that node.
pub(crate) async fn account(base: &str, name: &str) -> Client {
    let http = reqwest::Client::new();
    let session =
        qiyuan_testkit::accounts::register(&http, base, name, qiyuan_testkit::accounts::PASSWORD)
            .await;
    Client {
        http,
        base: base.to_string(),
        ws_url: format!("{}/ws", base.replacen("http", "ws", 1)),
        token: session.token,
        name: session.name,
    }
}

/// The same session on another node.
pub(crate) fn on(c: &Client, base: &str) -> Client {
    Client {
        http: c.http.clone(),
        base: base.to_string(),
        ws_url: format!("{}/ws", base.replacen("http", "ws", 1)),
        token: c.token.clone(),
        name: c.name.clone(),
    }
}

/// Alice challenges Bob on node A: Bob's page on node B is told within a
/// second, as is his page on A; Bob declines on B and Alice's page on A is
/// told.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_on_one_node_reaches_a_page_on_another() {
    let site = Site::new("people");
    let a = site.node("a").await;
    let b = site.node("b").await;
    let alice = account(&a.base, "alice").await;
    let bob = account(&a.base, "bob").await;
    let bob_b = on(&bob, &b.base);
    let mut alice_a = alice.ws().await;
    let mut bob_on_b = bob_b.ws().await;
    let mut bob_on_a = bob.ws().await;

    let id = challenge(&alice, "bob").await;
    let n = notified(&mut bob_on_b, "challenge").await;
    assert_eq!(n["id"], id.as_str());
    assert_eq!(n["from"], "alice");
    notified(&mut bob_on_a, "challenge").await;
    // Told once on each page, not again by the other node.
    notified(&mut alice_a, "challenge").await;

    let (status, _) = post(
        &bob_b,
        &format!("/api/challenge/{id}/decline"),
        json!({"reason": "tooFast"}),
    )
    .await;
    assert_eq!(status, 200);
    let n = notified(&mut alice_a, "challenge_declined").await;
    assert_eq!(n["reason"], "tooFast");
    notified(&mut bob_on_b, "challenge_declined").await;
    notified(&mut bob_on_a, "challenge_declined").await;
    quiet(&mut bob_on_b).await;
    a.stop().await;
    b.stop().await;
}

/// An event's page follows it (`event.follow`): a registration, made by
/// anyone, is told to it within a second (`event_changed`), where the page
/// once asked every two seconds; a page following another event hears
/// nothing of it, nor one that stopped following.
async fn an_event_page_is_told_of_changes(backend: Backend) {
    let s = common::start(backend).await;
    let store = s.running.as_ref().unwrap().app.store.clone();
    let org = s.register("org").await;
    qiyuan_server::events::grant(&*store, "org", "organiser")
        .await
        .unwrap();
    let config = json!({
        "name": "Follow 关注",
        "game": "chess",
        "time": {"kind": "fischer", "base": 60000, "increment": 0},
        "rounds": 1,
        "starts_at": now_ms() + 3_600_000,
        "schedule": {"kind": "after_previous", "pause_secs": 1.0},
        "forfeit_secs": 60.0,
    });
    let mut ids = Vec::new();
    for _ in 0..2 {
        let (status, created) = post(&org, "/api/events", config.clone()).await;
        assert_eq!(status, 201, "{created}");
        ids.push(created["id"].as_str().unwrap().to_string());
    }
    let viewer = s.register("viewer").await;
    let mut page = viewer.ws().await;
    let mut other = viewer.ws().await;
    let mut gone = org.ws().await;
    page.ok("event.follow", json!({"event": ids[0]})).await;
    other.ok("event.follow", json!({"event": ids[1]})).await;
    gone.ok("event.follow", json!({"event": ids[0]})).await;
    // Each is told once as it begins to follow.
    for ws in [&mut page, &mut other, &mut gone] {
        let first = tokio::time::timeout(Duration::from_secs(2), ws.expect("notify"))
            .await
            .expect("told at the first read");
        assert_eq!(first["d"]["kind"], "event_changed");
    }
    gone.ok("event.unfollow", json!({"event": ids[0]})).await;

    let player = s.register("player").await;
    let (status, r) = post(
        &player,
        &format!("/api/event/{}/register", ids[0]),
        json!({}),
    )
    .await;
    assert_eq!(status, 200, "{r}");
    let n = notified(&mut page, "event_changed").await;
    assert_eq!(n["event"], ids[0].as_str());
    quiet(&mut other).await;
    quiet(&mut gone).await;

    let r = page.act("event.follow", json!({"event": ""})).await;
    assert_eq!(r["d"]["code"], "bad_event_id");
}
