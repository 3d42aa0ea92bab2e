//! Chat at a table (issue #43), over real sockets against the real server, on
//! SQLite and PostgreSQL: a line reaches the sockets of its room at its table
//! and nobody else (the players' room never a spectator, the spectators' room
//! a player only once they ask for it, nothing another table); a muted
//! person's line is refused and reaches nobody; a person may write five lines
//! at once and then one a second; the word filter hides its words; lines are
//! text as written (`<script>` is delivered as those characters); a report of a
//! line appears in the admins' queue, which only admins read, and is
//! resolved there; lines are kept for moderation and pruned after the
//! retention unless an open report names them; a player (or the table's
//! owner) may close the players' room, which no other player can reopen;
//! a mute holds from the moment it is stored.

use std::time::Duration;

use serde_json::{Value, json};

use crate::common::{self, Backend, Client, TestServer, Ws, post, table_with_game};

async fn server(backend: Backend) -> TestServer {
    common::start_with(backend, |c| {
        c.escape_grace_secs = Some(30.0);
        c.chat.filter = vec!["darn".into(), "傻逼".into()];
    })
    .await
}

/// Reads until the server has answered a ping sent now: every message queued
/// for the socket before it has been read.
pub(crate) async fn settle(ws: &mut Ws) {
    let id = json!(format!("settle{}", ws.seen.len()));
    ws.send_raw(&json!({"t": "ping", "d": {}, "id": id}).to_string())
        .await;
    loop {
        let v = ws.recv().await;
        if v["t"] == "pong" && v["id"] == id {
            return;
        }
    }
}

/// The texts of the chat lines a socket has received, with their rooms.
fn heard(ws: &Ws) -> Vec<(String, String)> {
    ws.seen
        .iter()
        .filter(|m| m["t"] == "chat")
        .map(|m| {
            (
                m["d"]["room"].as_str().unwrap().to_string(),
                m["d"]["text"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn line(room: &str, text: &str) -> (String, String) {
    (room.to_string(), text.to_string())
}

/// Says `text` at `table`: the ack or error.
async fn say(ws: &mut Ws, table: &str, text: &str) -> Value {
    ws.act("chat", json!({"table": table, "text": text})).await
}

/// A game between alice and bob, carol watching it, and dave watching
/// another table.
struct Hall {
    s: TestServer,
    table: String,
    alice: Ws,
    bob: Ws,
    carol: Ws,
    dave: Ws,
    bob_client: Client,
}

async fn hall(backend: Backend) -> Hall {
    let s = server(backend).await;
    let a = s.register("alice").await;
    let b = s.register("bob").await;
    let (table, alice, bob) = table_with_game(&s, &a, &b, "chess", common::blitz()).await;
    let mut carol = s.register("carol").await.ws().await;
    carol.send("watch", json!({"table": table})).await;
    carol.expect("sync").await;
    let mut dave = s.register("dave").await.ws().await;
    let other = dave.create(json!({"game": "chess"})).await;
    dave.send("watch", json!({"table": other})).await;
    dave.expect("sync").await;
    Hall {
        s,
        table,
        alice,
        bob,
        carol,
        dave,
        bob_client: b,
    }
}

async fn settle_all(h: &mut Hall) {
    for ws in [&mut h.alice, &mut h.bob, &mut h.carol, &mut h.dave] {
        settle(ws).await;
    }
}

async fn lines_reach_their_room_only(backend: Backend) {
    let mut h = hall(backend).await;
    let t = h.table.clone();
    let ack = say(&mut h.alice, &t, "good luck <script>alert(1)</script>").await;
    assert_eq!(ack["t"], "ack", "{ack}");
    assert!(ack["d"]["line"].as_i64().unwrap() > 0, "{ack}");
    let ack = say(&mut h.carol, &t, "what a darn move").await;
    assert_eq!(ack["t"], "ack", "{ack}");
    settle_all(&mut h).await;
    let players = line("players", "good luck <script>alert(1)</script>");
    let spectators = line("spectators", "what a *** move");
    assert_eq!(heard(&h.alice), vec![players.clone()]);
    assert_eq!(heard(&h.bob), vec![players.clone()]);
    assert_eq!(
        heard(&h.carol),
        vec![spectators.clone()],
        "a spectator reads only theirs"
    );
    assert!(heard(&h.dave).is_empty(), "another table hears nothing");
    let msg = h.alice.seen.iter().find(|m| m["t"] == "chat").unwrap();
    assert_eq!(msg["d"]["user"], "alice");
    assert_eq!(msg["d"]["table"], t.as_str());

    // Bob asks for the spectators' room: its latest lines, then each new one.
    let ack = h
        .bob
        .act("chat.spectators", json!({"table": t, "on": true}))
        .await;
    assert_eq!(ack["t"], "ack", "{ack}");
    say(&mut h.carol, &t, "你这个傻逼").await;
    say(&mut h.bob, &t, "thanks").await;
    settle_all(&mut h).await;
    let carols = line("spectators", "你这个***");
    assert_eq!(
        heard(&h.bob),
        [
            players.clone(),
            spectators.clone(),
            carols.clone(),
            line("players", "thanks")
        ]
    );
    assert_eq!(
        heard(&h.alice),
        [players.clone(), line("players", "thanks")],
        "alice did not ask for the spectators' room"
    );
    assert_eq!(heard(&h.carol), [spectators.clone(), carols.clone()]);
    assert!(heard(&h.dave).is_empty());

    // A socket that joins later is shown what it may read of the history.
    let mut erin = h.s.register("erin").await.ws().await;
    erin.send("watch", json!({"table": t})).await;
    erin.expect("sync").await;
    settle(&mut erin).await;
    assert_eq!(heard(&erin), [spectators.clone(), carols.clone()]);
    let mut bob2 = h.bob_client.ws().await;
    bob2.send("watch", json!({"table": t})).await;
    bob2.expect("sync").await;
    settle(&mut bob2).await;
    assert_eq!(heard(&bob2), [players, line("players", "thanks")]);

    // Nobody chats at a table their socket is not at.
    let r = say(&mut h.dave, &t, "hello?").await;
    assert_eq!(r["d"]["code"], "not_at_table", "{r}");
    let r = say(&mut h.carol, &t, "   ").await;
    assert_eq!(r["d"]["code"], "bad_message", "{r}");
    let long = "长".repeat(201);
    let r = say(&mut h.carol, &t, &long).await;
    assert_eq!(r["d"]["code"], "too_large", "{r}");
    settle_all(&mut h).await;
    assert_eq!(heard(&h.alice).len(), 2);
}

async fn a_muted_persons_line_is_refused(backend: Backend) {
    let mut h = hall(backend).await;
    let t = h.table.clone();
    let store = h.s.running.as_ref().unwrap().app.store.clone();
    qiyuan_server::events::grant(&*store, "alice", "muted")
        .await
        .unwrap();
    let r = say(&mut h.alice, &t, "you cannot hear me").await;
    assert_eq!(r["t"], "error");
    assert_eq!(r["d"]["code"], "muted", "{r}");
    settle_all(&mut h).await;
    for ws in [&h.alice, &h.bob, &h.carol, &h.dave] {
        assert!(heard(ws).is_empty(), "a muted line was delivered");
    }
    assert!(store.recent_chat_lines(&t, 10).await.unwrap().is_empty());
    let alice = store.user_by_name("alice").await.unwrap().unwrap();
    store.revoke_role(alice.id, "muted").await.unwrap();
    assert_eq!(say(&mut h.alice, &t, "back").await["t"], "ack");
}

async fn lines_are_rate_limited(backend: Backend) {
    let mut h = hall(backend).await;
    let t = h.table.clone();
    for i in 0..5 {
        let r = say(&mut h.carol, &t, &format!("line {i}")).await;
        assert_eq!(r["t"], "ack", "line {i} of the burst: {r}");
    }
    let r = say(&mut h.carol, &t, "one too many").await;
    assert_eq!(r["d"]["code"], "chat_too_fast", "{r}");
    // Another person has a bucket of their own.
    assert_eq!(say(&mut h.bob, &t, "me too").await["t"], "ack");
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    assert_eq!(say(&mut h.carol, &t, "one more").await["t"], "ack");
    let r = say(&mut h.carol, &t, "and another").await;
    assert_eq!(r["d"]["code"], "chat_too_fast", "{r}");
    settle_all(&mut h).await;
    assert_eq!(heard(&h.carol).len(), 6, "refused lines are not delivered");
}

async fn a_report_reaches_the_admins_queue(backend: Backend) {
    let mut h = hall(backend).await;
    let t = h.table.clone();
    let store = h.s.running.as_ref().unwrap().app.store.clone();
    let boss = h.s.register("boss").await;
    qiyuan_server::events::grant(&*store, "boss", "admin")
        .await
        .unwrap();
    let r = say(&mut h.carol, &t, "rude words").await;
    let line_id = r["d"]["line"].as_i64().unwrap();
    let kept = say(&mut h.carol, &t, "a kind word").await["d"]["line"]
        .as_i64()
        .unwrap();
    let r = h
        .alice
        .act("chat.report", json!({"line": line_id, "reason": "insults"}))
        .await;
    assert_eq!(r["t"], "ack", "{r}");
    let report = r["d"]["report"].as_i64().unwrap();
    let again = h.alice.act("chat.report", json!({"line": line_id})).await;
    assert_eq!(again["d"]["code"], "already_reported", "{again}");
    let none = h.alice.act("chat.report", json!({"line": 999_999})).await;
    assert_eq!(none["d"]["code"], "not_found", "{none}");

    let queue = boss.get("/api/admin/reports").await;
    assert_eq!(queue.status(), 200);
    let queue: Value = queue.json().await.unwrap();
    let rows = queue.as_array().unwrap();
    assert_eq!(rows.len(), 1, "{queue}");
    assert_eq!(rows[0]["id"], report);
    assert_eq!(rows[0]["line_id"], line_id);
    assert_eq!(rows[0]["text"], "rude words");
    assert_eq!(rows[0]["username"], "carol");
    assert_eq!(rows[0]["reporter"], "alice");
    assert_eq!(rows[0]["reason"], "insults");
    assert_eq!(rows[0]["room"], "spectators");
    assert!(rows[0]["resolved_at"].is_null());

    // Only admins read or resolve the queue.
    let dave = common::login(&h.s, "dave").await;
    assert_eq!(dave.get("/api/admin/reports").await.status(), 403);
    let path = format!("/api/admin/reports/{report}/resolve");
    assert_eq!(post(&dave, &path, json!({})).await.0, 403);

    // Pruning keeps the line an open report names, and forgets the rest.
    store.prune_chat(common_now() + 1).await.unwrap();
    assert!(store.chat_line(line_id).await.unwrap().is_some());
    assert!(store.chat_line(kept).await.unwrap().is_none());

    let (status, body) = post(&boss, &path, json!({})).await;
    assert_eq!((status, &body["resolved"]), (200, &json!(true)), "{body}");
    let (_, body) = post(&boss, &path, json!({})).await;
    assert_eq!(body["resolved"], false, "resolved once");
    let open: Value = boss.get("/api/admin/reports").await.json().await.unwrap();
    assert_eq!(open, json!([]));
    let all: Value = boss
        .get("/api/admin/reports?all=true")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(all[0]["resolved_by"], "boss", "{all}");
    store.prune_chat(common_now() + 1).await.unwrap();
    assert!(store.chat_line(line_id).await.unwrap().is_none());
}

/// The last `chat.players` a socket was sent: who keeps the players' room
/// closed (`None`: none was sent).
fn closed_by(ws: &Ws) -> Option<Vec<String>> {
    let last = ws.seen.iter().rev().find(|m| m["t"] == "chat.players")?;
    let off = last["d"]["off"].as_array().unwrap();
    Some(
        off.iter()
            .map(|n| n.as_str().unwrap().to_string())
            .collect(),
    )
}

/// A player asks the table's players' room closed: everyone at the table is
/// told, the players' lines are refused (and kept by nobody, delivered to
/// nobody) while the spectators' room stays open; the other player cannot
/// open it against the ask, a spectator cannot switch it; a socket joining
/// later is told; the ask taken back opens the room.
async fn a_player_switches_the_players_chat_off(backend: Backend) {
    let mut h = hall(backend).await;
    let t = h.table.clone();
    let store = h.s.running.as_ref().unwrap().app.store.clone();
    let off = json!({"table": t, "on": false});
    let on = json!({"table": t, "on": true});
    let r = h.alice.act("chat.players", off.clone()).await;
    assert_eq!(r["t"], "ack", "{r}");
    settle_all(&mut h).await;
    let alice = Some(vec!["alice".to_string()]);
    for ws in [&h.alice, &h.bob, &h.carol] {
        assert_eq!(closed_by(ws), alice, "everyone at the table is told");
    }
    assert_eq!(closed_by(&h.dave), None, "nobody at another table");
    for (ws, text) in [(&mut h.bob, "psst"), (&mut h.alice, "me neither")] {
        let r = say(ws, &t, text).await;
        assert_eq!(r["d"]["code"], "table_chat_off", "{r}");
    }
    // Bob cannot open it against Alice's ask; nor may a spectator switch.
    assert_eq!(h.bob.act("chat.players", on.clone()).await["t"], "ack");
    assert_eq!(
        say(&mut h.bob, &t, "psst").await["d"]["code"],
        "table_chat_off"
    );
    let r = h.carol.act("chat.players", off.clone()).await;
    assert_eq!(r["d"]["code"], "not_seated", "{r}");
    let r = say(&mut h.carol, &t, "a quiet game").await;
    assert_eq!(r["t"], "ack", "the spectators' room stays open: {r}");
    // Someone who comes to watch now is told.
    let mut erin = h.s.register("erin").await.ws().await;
    erin.send("watch", json!({"table": t})).await;
    erin.expect("sync").await;
    settle(&mut erin).await;
    assert_eq!(closed_by(&erin), alice, "a socket joining is told");
    // Alice takes her ask back: the room opens.
    assert_eq!(h.alice.act("chat.players", on).await["t"], "ack");
    assert_eq!(say(&mut h.bob, &t, "now we talk").await["t"], "ack");
    settle_all(&mut h).await;
    settle(&mut erin).await;
    assert_eq!(closed_by(&h.bob), Some(vec![]));
    assert_eq!(closed_by(&erin), Some(vec![]));
    assert_eq!(heard(&h.bob), vec![line("players", "now we talk")]);
    assert_eq!(heard(&h.alice), vec![line("players", "now we talk")]);
    assert_eq!(heard(&h.carol), vec![line("spectators", "a quiet game")]);
    let kept = store.recent_chat_lines(&t, 10).await.unwrap();
    let kept: Vec<&str> = kept.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(
        kept,
        ["a quiet game", "now we talk"],
        "refused lines are not kept"
    );
}

/// A timed mute holds from the moment it is stored: the next line is
/// refused with the mute's end, kept by nobody; the lines before it stand.
async fn a_mute_holds_at_once(backend: Backend) {
    let mut h = hall(backend).await;
    let t = h.table.clone();
    let store = h.s.running.as_ref().unwrap().app.store.clone();
    assert_eq!(say(&mut h.carol, &t, "before").await["t"], "ack");
    let carol = store.user_by_name("carol").await.unwrap().unwrap();
    let admin = store.user_by_name("alice").await.unwrap().unwrap();
    let now = common_now();
    store
        .add_mute(&qiyuan_store::NewMute {
            user: carol.id,
            until: now + 60_000,
            by: admin.id,
            event: None,
            reason: "test".into(),
            at: now,
        })
        .await
        .unwrap();
    let r = say(&mut h.carol, &t, "after").await;
    assert_eq!(r["d"]["code"], "muted", "{r}");
    let message = r["d"]["message"].as_str().unwrap();
    assert!(
        message.contains(" s more"),
        "the mute's end is told: {message}"
    );
    settle_all(&mut h).await;
    assert_eq!(heard(&h.carol), vec![line("spectators", "before")]);
    let kept = store.recent_chat_lines(&t, 10).await.unwrap();
    assert_eq!(kept.len(), 1, "the refused line is not kept");
}

/// A connection of the test's own that holds the chat lines' table: SQLite's
/// write lock, or PostgreSQL's lock on `chat_lines` that keeps inserts out,
/// until [`Held::release`].
enum Held {
    Sqlite(sqlx::SqliteConnection),
    Postgres(sqlx::PgConnection),
}

impl Held {
    async fn take(config: &qiyuan_server::config::Config) -> Held {
        use sqlx::Connection;
        use std::str::FromStr;
        match &config.database {
            None => {
                let url = format!("sqlite://{}", config.data_dir.join("qiyuan.db").display());
                let mut c = sqlx::SqliteConnection::connect(&url).await.unwrap();
                sqlx::query("BEGIN IMMEDIATE")
                    .execute(&mut c)
                    .await
                    .unwrap();
                Held::Sqlite(c)
            }
            Some(url) => {
                let (base, schema) = url.split_once("?schema=").unwrap();
                let options = sqlx::postgres::PgConnectOptions::from_str(base)
                    .unwrap()
                    .options([("search_path", schema)]);
                let mut c = sqlx::PgConnection::connect_with(&options).await.unwrap();
                sqlx::query("BEGIN").execute(&mut c).await.unwrap();
                sqlx::query("LOCK TABLE chat_lines IN EXCLUSIVE MODE")
                    .execute(&mut c)
                    .await
                    .unwrap();
                Held::Postgres(c)
            }
        }
    }

    async fn release(self) {
        match self {
            Held::Sqlite(mut c) => {
                sqlx::query("ROLLBACK").execute(&mut c).await.unwrap();
            }
            Held::Postgres(mut c) => {
                sqlx::query("ROLLBACK").execute(&mut c).await.unwrap();
            }
        }
    }
}

/// A line is kept before anyone is sent it: while the database keeps the
/// line's insert waiting, neither the line nor its ack reaches anyone; once
/// the insert is through, the line is acknowledged and delivered.
async fn a_line_is_stored_before_it_is_delivered(backend: Backend) {
    let mut h = hall(backend).await;
    let t = h.table.clone();
    let store = h.s.running.as_ref().unwrap().app.store.clone();
    let config = h.s.running.as_ref().unwrap().app.config.clone();
    let held = Held::take(&config).await;
    let say = json!({"t": "chat", "d": {"table": t, "text": "held"}, "id": "held"});
    h.alice.send_raw(&say.to_string()).await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    settle(&mut h.bob).await;
    assert!(
        heard(&h.bob).is_empty(),
        "a line delivered before it was kept"
    );
    held.release().await;
    let ack = loop {
        let v = h.alice.recv().await;
        if v["id"] == "held" {
            break v;
        }
    };
    assert_eq!(ack["t"], "ack", "{ack}");
    assert_eq!(
        heard(&h.alice),
        vec![line("players", "held")],
        "the line first"
    );
    settle(&mut h.bob).await;
    assert_eq!(heard(&h.bob), vec![line("players", "held")]);
    let kept = store.recent_chat_lines(&t, 10).await.unwrap();
    assert_eq!(kept.len(), 1);
    assert_eq!(ack["d"]["line"], kept[0].id);
}

fn common_now() -> i64 {
    qiyuan_testkit::clock::now_ms()
}

both!(
    lines_reach_their_room_only,
    a_muted_persons_line_is_refused,
    lines_are_rate_limited,
    a_report_reaches_the_admins_queue,
    a_player_switches_the_players_chat_off,
    a_mute_holds_at_once,
    a_line_is_stored_before_it_is_delivered,
);
