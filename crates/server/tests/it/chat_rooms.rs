//! Chat beyond the table (issue #43), over real sockets against the real
//! server, on SQLite and PostgreSQL, and across two nodes: a game's room
//! (大厅) and an event's room deliver a line to the sockets that joined them
//! and nobody else; an event's arbiter's announcement is marked and reaches
//! its players' pages; the organiser's switch turns the players' chat off at
//! the event's tables and in its room; private messages reach every page of
//! their two people and nobody else, and a block refuses them both ways;
//! `@name` tells that person unless they block the writer or may not read the
//! room; a timed mute (an admin's, an event arbiter's) silences every room
//! until it ends; a profile's report reaches the admins' queue; the rate limit
//! holds across every room.

use std::time::Duration;

use qiyuan_testkit::clock::now_ms;
use serde_json::{Value, json};

use crate::chat::settle;
use crate::common::{self, Backend, Client, TestServer, Ws, post, table_with_game};
use crate::nodes::Site;
use crate::people_notify::{account, notified, on, quiet};

fn lobby(game: &str) -> Value {
    json!({"kind": "lobby", "game": game})
}

fn event_room(id: &str) -> Value {
    json!({"kind": "event", "event": id})
}

fn private(with: &str) -> Value {
    json!({"kind": "private", "with": with})
}

/// The `chat.line` messages a socket has received: (place, user, text).
fn lines(ws: &Ws) -> Vec<(Value, String, String)> {
    ws.seen
        .iter()
        .filter(|m| m["t"] == "chat.line")
        .map(|m| {
            (
                m["d"]["place"].clone(),
                m["d"]["user"].as_str().unwrap().to_string(),
                m["d"]["text"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn said(place: Value, user: &str, text: &str) -> (Value, String, String) {
    (place, user.to_string(), text.to_string())
}

async fn join(ws: &mut Ws, place: Value) {
    ws.ok("chat.join", json!({ "place": place })).await;
}

/// Posts `text` at `place`: the ack or error.
async fn write(ws: &mut Ws, place: Value, text: &str) -> Value {
    ws.act("chat.post", json!({"place": place, "text": text}))
        .await
}

async fn watch(ws: &mut Ws, table: &str) {
    ws.send("watch", json!({ "table": table })).await;
    ws.expect("sync").await;
}

fn code(r: &Value) -> &str {
    assert_eq!(r["t"], "error", "{r}");
    r["d"]["code"].as_str().unwrap()
}

async fn server(backend: Backend) -> TestServer {
    common::start_with(backend, |c| {
        c.escape_grace_secs = Some(30.0);
        c.event_tick_ms = 50;
    })
    .await
}

fn store(s: &TestServer) -> std::sync::Arc<dyn qiyuan_store::Store> {
    s.running.as_ref().unwrap().app.store.clone()
}

/// Alice and Bob in the chess room, Carol in xiangqi's, Dave in none: a line
/// reaches its room only, as written; a latecomer reads the room's latest
/// lines; nobody writes into a room they have not joined or that does not
/// exist.
async fn a_games_room_reaches_its_sockets_only(backend: Backend) {
    let s = server(backend).await;
    let mut alice = s.register("alice").await.ws().await;
    let mut bob = s.register("bob").await.ws().await;
    let mut carol = s.register("carol").await.ws().await;
    let mut dave = s.register("dave").await.ws().await;
    join(&mut alice, lobby("chess")).await;
    join(&mut bob, lobby("chess")).await;
    join(&mut carol, lobby("xiangqi")).await;
    let text = "anyone for blitz? <script>alert(1)</script>";
    let r = write(&mut alice, lobby("chess"), text).await;
    assert!(r["d"]["line"].as_i64().unwrap() > 0, "{r}");
    assert_eq!(
        write(&mut carol, lobby("xiangqi"), "下棋吗").await["t"],
        "ack"
    );
    for ws in [&mut alice, &mut bob, &mut carol, &mut dave] {
        settle(ws).await;
    }
    let chess = said(lobby("chess"), "alice", text);
    assert_eq!(lines(&alice), vec![chess.clone()]);
    assert_eq!(lines(&bob), vec![chess.clone()]);
    assert_eq!(lines(&carol), [said(lobby("xiangqi"), "carol", "下棋吗")]);
    assert!(lines(&dave).is_empty(), "a socket in no room hears nothing");

    // Dave has not joined: refused; once he has, he reads the latest lines.
    assert_eq!(
        code(&write(&mut dave, lobby("chess"), "hi").await),
        "not_in_room"
    );
    join(&mut dave, lobby("chess")).await;
    settle(&mut dave).await;
    assert_eq!(lines(&dave), vec![chess.clone()]);
    // Bob leaves: he hears no more.
    bob.ok("chat.leave", json!({"place": lobby("chess")})).await;
    write(&mut dave, lobby("chess"), "me!").await;
    settle(&mut bob).await;
    settle(&mut alice).await;
    assert_eq!(lines(&bob), vec![chess.clone()]);
    assert_eq!(lines(&alice).len(), 2);
    let r = alice
        .act("chat.join", json!({"place": lobby("checkers")}))
        .await;
    assert_eq!(code(&r), "unknown_game");
    let r = alice
        .act(
            "chat.post",
            json!({"place": lobby("chess"), "text": "x", "announce": true}),
        )
        .await;
    assert_eq!(code(&r), "bad_message");
}

/// An event with its organiser and arbiter, two players, and an outsider:
/// `(store, event id, org, arb, p1, p2, outsider)`.
struct Event {
    id: String,
    org: Client,
    arb: Client,
    p1: Client,
    p2: Client,
    outsider: Client,
}

fn event_config(starts_at: i64, players_chat: bool) -> Value {
    json!({
        "name": "Chat 聊天",
        "game": "chess",
        "time": {"kind": "fischer", "base": 300000, "increment": 0},
        "rounds": 1,
        "starts_at": starts_at,
        "schedule": {"kind": "after_previous", "pause_secs": 1.0},
        "forfeit_secs": 600.0,
        "players_chat": players_chat,
    })
}

async fn event(s: &TestServer, starts_at: i64) -> Event {
    let store = store(s);
    let org = s.register("org").await;
    let arb = s.register("arb").await;
    qiyuan_server::events::grant(&*store, "org", "organiser")
        .await
        .unwrap();
    qiyuan_server::events::grant(&*store, "arb", "arbiter")
        .await
        .unwrap();
    let (status, created) = post(&org, "/api/events", event_config(starts_at, true)).await;
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
    for p in [&p1, &p2] {
        let (status, r) = post(p, &format!("/api/event/{id}/register"), json!({})).await;
        assert_eq!(status, 200, "{r}");
    }
    let outsider = s.register("outsider").await;
    Event {
        id,
        org,
        arb,
        p1,
        p2,
        outsider,
    }
}

async fn patch_event(ev: &Event, config: Value) -> u16 {
    ev.org
        .http
        .patch(format!("{}/api/event/{}", ev.org.base, ev.id))
        .bearer_auth(&ev.org.token)
        .json(&config)
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

/// The event's room: a line reaches who joined it and not another event's
/// room; an announcement is the arbiter's alone, marked, and told on the
/// players' pages; with the players' chat switched off a player's line is
/// refused there and at their game's table (the spectators' room stays open),
/// and switched on again it is delivered.
async fn an_events_room_its_announcements_and_its_policy(backend: Backend) {
    let s = server(backend).await;
    let starts_at = now_ms() + 3_600_000;
    let ev = event(&s, starts_at).await;
    let place = event_room(&ev.id);
    let mut p1 = ev.p1.ws().await;
    let mut p2_page = ev.p2.ws().await;
    let mut out = ev.outsider.ws().await;
    let mut arb = ev.arb.ws().await;
    // Someone in another event's room hears nothing of this one.
    let other = {
        let (status, created) = post(&ev.org, "/api/events", event_config(starts_at, true)).await;
        assert_eq!(status, 201);
        created["id"].as_str().unwrap().to_string()
    };
    let mut elsewhere = s.register("elsewhere").await.ws().await;
    join(&mut elsewhere, event_room(&other)).await;
    for ws in [&mut p1, &mut out, &mut arb] {
        join(ws, place.clone()).await;
    }
    assert_eq!(
        write(&mut p1, place.clone(), "good luck all").await["t"],
        "ack"
    );
    let r = out
        .act(
            "chat.post",
            json!({"place": place, "text": "I decide", "announce": true}),
        )
        .await;
    assert_eq!(code(&r), "not_arbiter");
    let r = arb
        .act(
            "chat.post",
            json!({"place": place, "text": "Round 1 at 20:00", "announce": true}),
        )
        .await;
    assert_eq!(r["t"], "ack", "{r}");
    for ws in [&mut p1, &mut out, &mut arb, &mut elsewhere] {
        settle(ws).await;
    }
    let heard = |ws: &Ws| {
        ws.seen
            .iter()
            .filter(|m| m["t"] == "chat.line")
            .map(|m| (m["d"]["text"].clone(), m["d"]["announcement"].clone()))
            .collect::<Vec<_>>()
    };
    let want = vec![
        (json!("good luck all"), json!(false)),
        (json!("Round 1 at 20:00"), json!(true)),
    ];
    assert_eq!(heard(&out), want);
    assert_eq!(heard(&p1), want);
    assert!(
        lines(&elsewhere).is_empty(),
        "another event's room hears nothing"
    );
    // Player 2's page, in no room, is told the announcement; the outsider's
    // page is not (they do not play).
    let n = notified(&mut p2_page, "announcement").await;
    assert_eq!(n["text"], "Round 1 at 20:00");
    assert_eq!(n["by"], "arb");
    assert_eq!(n["event"], ev.id.as_str());
    quiet(&mut out).await;

    // The organiser switches the players' chat off and starts the event.
    assert_eq!(patch_event(&ev, event_config(now_ms(), false)).await, 200);
    let round = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let m = p2_page.expect("notify").await;
            if m["d"]["kind"] == "round" {
                return m["d"].clone();
            }
        }
    })
    .await
    .expect("the round is paired");
    let table = round["table"].as_str().unwrap().to_string();
    let r = write(&mut p1, place.clone(), "still there?").await;
    assert_eq!(code(&r), "chat_off");
    assert_eq!(write(&mut out, place.clone(), "go go").await["t"], "ack");
    let r = arb
        .act(
            "chat.post",
            json!({"place": place, "text": "Phones off", "announce": true}),
        )
        .await;
    assert_eq!(r["t"], "ack", "{r}");
    for ws in [&mut p1, &mut out, &mut p2_page] {
        watch(ws, &table).await;
    }
    let say = |text: &str| json!({"table": table, "text": text});
    assert_eq!(code(&p1.act("chat", say("draw?")).await), "chat_off");
    assert_eq!(out.act("chat", say("nice opening")).await["t"], "ack");
    // Switched on again (the event is under way: only this changes).
    assert_eq!(
        patch_event(&ev, event_config(now_ms() - 1, true)).await,
        409
    );
    let started = {
        let shown: Value = ev
            .org
            .get(&format!("/api/event/{}", ev.id))
            .await
            .json()
            .await
            .unwrap();
        shown["config"]["starts_at"].clone()
    };
    let mut on_again = event_config(0, true);
    on_again["starts_at"] = started;
    assert_eq!(patch_event(&ev, on_again).await, 200);
    assert_eq!(p1.act("chat", say("draw?")).await["t"], "ack");
    settle(&mut p2_page).await;
    let texts: Vec<&str> = p2_page
        .seen
        .iter()
        .filter(|m| m["t"] == "chat")
        .map(|m| m["d"]["text"].as_str().unwrap())
        .collect();
    assert_eq!(
        texts,
        ["draw?"],
        "the opponent reads the players' room only"
    );
}

/// Alice writes to Bob: both of Bob's pages and Alice's own are sent it,
/// Carol nothing; either one's block refuses the next both ways; a guest
/// writes to nobody; the conversation's latest lines are read on joining it;
/// a private line is reported by its two people alone.
async fn private_messages_and_blocks(backend: Backend) {
    let s = server(backend).await;
    let alice = s.register("alice").await;
    let bob = s.register("bob").await;
    let carol = s.register("carol").await;
    let mut a = alice.ws().await;
    let mut b1 = bob.ws().await;
    let mut b2 = bob.ws().await;
    let mut c = carol.ws().await;
    let r = write(&mut a, private("bob"), "hi <b>Bob</b>").await;
    let line = r["d"]["line"].as_i64().expect("a line id");
    for ws in [&mut a, &mut b1, &mut b2, &mut c] {
        settle(ws).await;
    }
    let to_bob = said(private("alice"), "alice", "hi <b>Bob</b>");
    assert_eq!(lines(&b1), vec![to_bob.clone()]);
    assert_eq!(lines(&b2), vec![to_bob.clone()]);
    assert_eq!(lines(&a), [said(private("bob"), "alice", "hi <b>Bob</b>")]);
    assert!(lines(&c).is_empty(), "nobody else reads it");
    assert_eq!(write(&mut b1, private("alice"), "hello").await["t"], "ack");

    // Reading the conversation again: its lines, oldest first.
    let mut a2 = alice.ws().await;
    join(&mut a2, private("bob")).await;
    let texts: Vec<String> = lines(&a2).into_iter().map(|l| l.2).collect();
    assert_eq!(texts, ["hi <b>Bob</b>", "hello"]);
    // Carol may not report it; Bob may.
    let r = c.act("chat.report", json!({"line": line})).await;
    assert_eq!(code(&r), "not_found");
    let r = b1
        .act("chat.report", json!({"line": line, "reason": "spam"}))
        .await;
    assert_eq!(r["t"], "ack", "{r}");

    // Bob blocks Alice: neither writes to the other.
    let (status, _) = post(&bob, "/api/rel/block/alice", json!({})).await;
    assert_eq!(status, 200);
    assert_eq!(
        code(&write(&mut a, private("bob"), "why?").await),
        "blocked"
    );
    assert_eq!(
        code(&write(&mut b1, private("alice"), "bye").await),
        "blocked"
    );
    assert_eq!(
        code(&write(&mut a, private("nobody"), "x").await),
        "not_found"
    );
    assert_eq!(
        code(&write(&mut a, private("alice"), "me").await),
        "self_message"
    );
    let mut guest = s.guest().await.ws().await;
    assert_eq!(
        code(&write(&mut guest, private("carol"), "hi").await),
        "guest_private"
    );
    settle(&mut c).await;
    assert!(lines(&c).is_empty());
}

/// `@name` tells that person on their pages; not a person who blocks the
/// writer; not a spectator mentioned in the players' room, while a player
/// mentioned in the spectators' room is told.
async fn mentions_tell_the_people_named(backend: Backend) {
    let s = server(backend).await;
    let a = s.register("alice").await;
    let b = s.register("bob").await;
    let carol = s.register("carol").await;
    let dave = s.register("dave").await;
    let (table, mut alice, mut bob) = table_with_game(&s, &a, &b, "chess", common::blitz()).await;
    let mut c = carol.ws().await;
    let mut d = dave.ws().await;
    let (status, _) = post(&dave, "/api/rel/block/alice", json!({})).await;
    assert_eq!(status, 200);
    join(&mut alice, lobby("chess")).await;
    let r = write(
        &mut alice,
        lobby("chess"),
        "@carol @dave @nobody fancy a game?",
    )
    .await;
    let line = r["d"]["line"].as_i64().unwrap();
    let n = notified(&mut c, "mention").await;
    assert_eq!(n["by"], "alice");
    assert_eq!(n["line"], line);
    assert_eq!(n["text"], "@carol @dave @nobody fancy a game?");
    assert_eq!(n["at"], json!({"kind": "lobby", "game": "chess"}));
    quiet(&mut d).await;

    // At the table: Carol watches; Alice's players' line naming her tells her
    // nothing, Carol's spectators' line naming Bob tells him.
    watch(&mut c, &table).await;
    let r = alice
        .act("chat", json!({"table": table, "text": "@carol shh"}))
        .await;
    assert_eq!(r["t"], "ack");
    quiet(&mut c).await;
    c.ok("chat", json!({"table": table, "text": "@bob nice move"}))
        .await;
    let n = notified(&mut bob, "mention").await;
    assert_eq!(n["at"]["kind"], "table");
    assert_eq!(n["at"]["room"], "spectators");
    assert_eq!(n["text"], "@bob nice move");
}

/// An admin's timed mute silences the table, the room and private messages
/// and tells the muted person; its end is honoured. An event's arbiter mutes
/// its players only; others may not mute at all.
async fn timed_mutes_silence_every_room(backend: Backend) {
    let s = server(backend).await;
    let store = store(&s);
    let boss = s.register("boss").await;
    qiyuan_server::events::grant(&*store, "boss", "admin")
        .await
        .unwrap();
    let a = s.register("alice").await;
    let b = s.register("bob").await;
    let (table, mut alice, mut bob) = table_with_game(&s, &a, &b, "chess", common::blitz()).await;
    join(&mut alice, lobby("chess")).await;
    join(&mut bob, lobby("chess")).await;
    let (status, r) = post(
        &b,
        "/api/admin/mute",
        json!({"user": "alice", "seconds": 2}),
    )
    .await;
    assert_eq!(
        (status, r["error"]["code"].as_str()),
        (403, Some("not_admin")),
        "{r}"
    );
    let (status, r) = post(
        &boss,
        "/api/admin/mute",
        json!({"user": "alice", "seconds": 2, "reason": "flooding"}),
    )
    .await;
    assert_eq!(status, 200, "{r}");
    let until = r["until"].as_i64().unwrap();
    let n = notified(&mut alice, "muted").await;
    assert_eq!(n["until"], until);
    assert_eq!(n["reason"], "flooding");
    let table_line = json!({"table": table, "text": "hear me"});
    assert_eq!(code(&alice.act("chat", table_line.clone()).await), "muted");
    assert_eq!(
        code(&write(&mut alice, lobby("chess"), "hear me").await),
        "muted"
    );
    assert_eq!(
        code(&write(&mut alice, private("bob"), "hear me").await),
        "muted"
    );
    settle(&mut bob).await;
    assert!(lines(&bob).is_empty());
    assert!(!bob.seen.iter().any(|m| m["t"] == "chat"));
    // The mute ends by itself.
    tokio::time::sleep(Duration::from_millis((until - now_ms()).max(0) as u64 + 50)).await;
    assert_eq!(alice.act("chat", table_line).await["t"], "ack");
    assert_eq!(write(&mut alice, lobby("chess"), "hello").await["t"], "ack");

    // An arbiter mutes a player of their event, not someone outside it.
    let ev = event(&s, now_ms() + 3_600_000).await;
    let path = format!("/api/event/{}/mute", ev.id);
    let (status, r) = post(&ev.arb, &path, json!({"user": "player1", "seconds": 600})).await;
    assert_eq!(status, 200, "{r}");
    let (status, r) = post(&ev.arb, &path, json!({"user": "alice", "seconds": 600})).await;
    assert_eq!(
        (status, r["error"]["code"].as_str()),
        (400, Some("not_in_event")),
        "{r}"
    );
    let (status, r) = post(&ev.org, &path, json!({"user": "player2", "seconds": 600})).await;
    assert_eq!(
        (status, r["error"]["code"].as_str()),
        (403, Some("not_arbiter")),
        "{r}"
    );
    let mut p1 = ev.p1.ws().await;
    assert_eq!(
        code(&write(&mut p1, private("player2"), "hi").await),
        "muted"
    );
    let (status, r) = post(
        &ev.arb,
        &format!("/api/event/{}/unmute", ev.id),
        json!({"user": "player1"}),
    )
    .await;
    assert_eq!((status, &r["until"]), (200, &Value::Null), "{r}");
    assert_eq!(write(&mut p1, private("player2"), "hi").await["t"], "ack");
    let _ = (ev.p2, ev.outsider);
}

/// A profile's report button files a report of the person into the admins'
/// queue, once per reporter while it is open; nobody reports themselves.
async fn a_profiles_report_reaches_the_queue(backend: Backend) {
    let s = server(backend).await;
    let store = store(&s);
    let boss = s.register("boss").await;
    qiyuan_server::events::grant(&*store, "boss", "admin")
        .await
        .unwrap();
    s.register("alice").await;
    let bob = s.register("bob").await;
    let (status, r) = post(&bob, "/api/report/alice", json!({"reason": "rude name"})).await;
    assert_eq!(status, 200, "{r}");
    let report = r["report"].as_i64().unwrap();
    let (status, r) = post(&bob, "/api/report/alice", json!({"reason": "again"})).await;
    assert_eq!(
        (status, r["error"]["code"].as_str()),
        (400, Some("already_reported"))
    );
    let (status, r) = post(&bob, "/api/report/bob", json!({})).await;
    assert_eq!(
        (status, r["error"]["code"].as_str()),
        (400, Some("self_report"))
    );
    let (status, _) = post(&bob, "/api/report/nobody", json!({})).await;
    assert_eq!(status, 404);
    let queue: Value = boss.get("/api/admin/reports").await.json().await.unwrap();
    let queue = queue.as_array().unwrap();
    assert_eq!(queue.len(), 1, "{queue:?}");
    assert_eq!(queue[0]["id"], report);
    assert_eq!(queue[0]["username"], "alice");
    assert_eq!(queue[0]["reporter"], "bob");
    assert_eq!(queue[0]["reason"], "rude name");
    assert_eq!(queue[0]["line_id"], Value::Null);
    let (status, r) = post(
        &boss,
        &format!("/api/admin/reports/{report}/resolve"),
        json!({}),
    )
    .await;
    assert_eq!((status, &r["resolved"]), (200, &json!(true)));
    // Resolved, it may be filed again.
    let (status, _) = post(&bob, "/api/report/alice", json!({})).await;
    assert_eq!(status, 200);
}

/// One bucket per person across every room: two lines at once, then the
/// table, the game's room, the event's room and private messages all refuse.
async fn the_rate_limit_holds_in_every_room(backend: Backend) {
    let s = common::start_with(backend, |c| {
        c.chat.burst = 2;
        c.chat.every_ms = 60_000;
    })
    .await;
    let a = s.register("alice").await;
    let b = s.register("bob").await;
    let (table, mut alice, _bob) = table_with_game(&s, &a, &b, "chess", common::blitz()).await;
    join(&mut alice, lobby("chess")).await;
    assert_eq!(write(&mut alice, lobby("chess"), "one").await["t"], "ack");
    assert_eq!(write(&mut alice, private("bob"), "two").await["t"], "ack");
    let too_fast = "chat_too_fast";
    assert_eq!(
        code(&write(&mut alice, lobby("chess"), "3").await),
        too_fast
    );
    assert_eq!(
        code(&write(&mut alice, private("bob"), "3").await),
        too_fast
    );
    let r = alice
        .act("chat", json!({"table": table, "text": "3"}))
        .await;
    assert_eq!(code(&r), too_fast);
    let ev_id = {
        let store = store(&s);
        let org = s.register("org").await;
        qiyuan_server::events::grant(&*store, "org", "organiser")
            .await
            .unwrap();
        let (_, created) = post(
            &org,
            "/api/events",
            event_config(now_ms() + 3_600_000, true),
        )
        .await;
        created["id"].as_str().unwrap().to_string()
    };
    join(&mut alice, event_room(&ev_id)).await;
    assert_eq!(
        code(&write(&mut alice, event_room(&ev_id), "3").await),
        too_fast
    );
}

both!(
    a_games_room_reaches_its_sockets_only,
    an_events_room_its_announcements_and_its_policy,
    private_messages_and_blocks,
    mentions_tell_the_people_named,
    timed_mutes_silence_every_room,
    a_profiles_report_reaches_the_queue,
    the_rate_limit_holds_in_every_room,
);

/// Two nodes: Alice's table is on node A, Bob sits there from node B, Carol
/// watches from B and Dave from A. Each table room's line reaches its
/// readers on both nodes (Bob's players' line too, judged on B by who sits
/// there), a player's switch of the players' room holds on the other node,
/// a game's room spans the nodes, and a private message and a mention reach
/// a page on the other node.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_crosses_nodes() {
    let site = Site::new("chatrooms");
    let na = site.node("a").await;
    let nb = site.node("b").await;
    let alice = account(&na.base, "alice").await;
    let bob = on(&account(&na.base, "bob").await, &nb.base);
    let carol = on(&account(&na.base, "carol").await, &nb.base);
    let dave = account(&na.base, "dave").await;
    let mut a = alice.ws().await;
    let mut b = bob.ws().await;
    let mut c = carol.ws().await;
    let mut d = dave.ws().await;
    let table = a
        .create(json!({"game": "chess", "time": common::blitz(), "seat": 0}))
        .await;
    watch(&mut b, &table).await;
    b.ok("sit", json!({"table": table, "seat": 1})).await;
    a.ok("ready", json!({"table": table})).await;
    b.ok("ready", json!({"table": table})).await;
    watch(&mut c, &table).await;
    watch(&mut d, &table).await;
    // Node B knows Bob sits there once its lobby shows him seated.
    let until = std::time::Instant::now() + Duration::from_secs(5);
    loop {
        let page: Value = carol.get("/api/lobby/chess").await.json().await.unwrap();
        let seated = page.as_array().is_some_and(|ts| {
            ts.iter().any(|t| {
                t["id"] == table.as_str()
                    && t["seats"]
                        .as_array()
                        .is_some_and(|s| s.iter().any(|s| s["user"] == "bob"))
            })
        });
        if seated {
            break;
        }
        assert!(
            std::time::Instant::now() < until,
            "node B never saw Bob seated"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let say = |text: &str| json!({"table": table, "text": text});
    a.ok("chat", say("from alice")).await;
    b.ok("chat", say("from bob")).await;
    c.ok("chat", say("from carol")).await;
    for ws in [&mut a, &mut b, &mut c, &mut d] {
        settle(ws).await;
    }
    // Lines cross the bus after the writer's ack: wait for the last to land.
    tokio::time::sleep(Duration::from_millis(300)).await;
    for ws in [&mut a, &mut b, &mut c, &mut d] {
        settle(ws).await;
    }
    let heard = |ws: &Ws| {
        ws.seen
            .iter()
            .filter(|m| m["t"] == "chat")
            .map(|m| {
                (
                    m["d"]["room"].as_str().unwrap().to_string(),
                    m["d"]["text"].as_str().unwrap().to_string(),
                )
            })
            .collect::<Vec<_>>()
    };
    let players = |t: &str| ("players".to_string(), t.to_string());
    let spectators = |t: &str| ("spectators".to_string(), t.to_string());
    assert_eq!(heard(&a), [players("from alice"), players("from bob")]);
    assert_eq!(heard(&b), [players("from alice"), players("from bob")]);
    assert_eq!(heard(&c), [spectators("from carol")]);
    assert_eq!(heard(&d), [spectators("from carol")]);

    // Bob, on node B, closes the table's players' room: node A learns it over
    // the bus, tells Alice, and refuses her line there; opened again, likewise.
    let players_chat = |on: bool| json!({"table": table, "on": on});
    b.ok("chat.players", players_chat(false)).await;
    let told = tokio::time::timeout(Duration::from_secs(1), a.expect("chat.players"))
        .await
        .expect("told on the other node within a second");
    assert_eq!(told["d"]["off"], json!(["bob"]), "{told}");
    let r = a.act("chat", say("still there?")).await;
    assert_eq!(r["d"]["code"], "table_chat_off", "{r}");
    b.ok("chat.players", players_chat(true)).await;
    let told = tokio::time::timeout(Duration::from_secs(1), a.expect("chat.players"))
        .await
        .expect("told on the other node within a second");
    assert_eq!(told["d"]["off"], json!([]), "{told}");
    a.ok("chat", say("there you are")).await;

    // The chess room spans the nodes.
    join(&mut a, lobby("chess")).await;
    join(&mut c, lobby("chess")).await;
    c.ok(
        "chat.post",
        json!({"place": lobby("chess"), "text": "hi @dave"}),
    )
    .await;
    let n = notified(&mut d, "mention").await;
    assert_eq!(n["by"], "carol");
    tokio::time::sleep(Duration::from_millis(300)).await;
    settle(&mut a).await;
    assert_eq!(lines(&a), [said(lobby("chess"), "carol", "hi @dave")]);
    // A private message from node A reaches Bob's page on node B.
    a.ok("chat.post", json!({"place": private("bob"), "text": "gg?"}))
        .await;
    let got = tokio::time::timeout(Duration::from_secs(1), b.expect("chat.line"))
        .await
        .expect("the private message within a second");
    assert_eq!(got["d"]["place"], private("alice"));
    assert_eq!(got["d"]["text"], "gg?");
    na.stop().await;
    nb.stop().await;
}
