//! Faults of several nodes (issue 40), against the machine's PostgreSQL and
//! Redis (a fresh schema and key prefix per test; the Redis outage uses a
//! `redis-server` of the test's own on another port, never the shared one)
//! and real `qiyuan serve` processes (`QIYUAN_BIN`, default the workspace's
//! `target/debug/qiyuan`) killed, stopped and paused:
//! - a node that restarts never hands its old sockets' tables, seats or
//!   hands to the new sockets that get their connection ids;
//! - a second process with a node id in use refuses to start;
//! - a Redis outage holds the clocks of cross-node games and play resumes
//!   within seconds of its return;
//! - a dead node's sockets are disconnected at their tables, and the escape
//!   rule applies;
//! - SIGTERM hands the node's tables over at once;
//! - a stalled server charges its stall to no clock.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use qiyuan_server::bench::{Client, Socket, wait_ready};
use qiyuan_testkit::db::redis_url;
use qiyuan_testkit::net::free_port;
use qiyuan_testkit::process::{KillOnDrop, qiyuan_bin};
use serde_json::{Value, json};

use crate::nodes::{Site, at, moves_in, serve, serve_command, signal};

/// A node process on a fresh port, up and answering.
async fn process(site: &Site, node: &str) -> (Child, String, u16) {
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let child = serve(site, node, port);
    wait_ready(&base, Duration::from_secs(30))
        .await
        .unwrap_or_else(|e| panic!("node {node} is up: {e}"));
    (child, base, port)
}

/// The table's state as a spectator sees it, from any node.
async fn state(client: &Client, node: &str, table: &str) -> Value {
    at(client, node)
        .get_json(&format!("/api/game/{table}"))
        .await
        .unwrap()["state"]
        .clone()
}

fn main_ms(state: &Value, seat: usize) -> u64 {
    state["game"]["clock"]["seats"][seat]["main"]
        .as_u64()
        .unwrap_or_else(|| panic!("seat {seat}'s clock: {state}"))
}

/// Plays `action` at `table` from `s` until the table has it (a command lost
/// on the way, or refused while the table cannot be reached, is sent again),
/// within `within`; returns when it was in.
async fn move_until_in(
    s: &mut Socket,
    watcher: &Client,
    node: &str,
    table: &str,
    action: &str,
    plies: usize,
    within: Duration,
) -> Instant {
    let until = Instant::now() + within;
    let patience = s.patience;
    s.patience = Duration::from_millis(1_000);
    loop {
        let r = s
            .call("move", json!({"table": table, "action": action}))
            .await;
        if r.is_ok() {
            break;
        }
        let st = state(watcher, node, table).await;
        if moves_in(&st).len() >= plies {
            break;
        }
        assert!(
            Instant::now() < until,
            "{action} was not taken within {within:?}: {r:?}"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    s.patience = patience;
    Instant::now()
}

/// A chess game at a table made by `sa` (White) with `sb` (Black) seated,
/// both ready, with `base` ms each and the `moves` played alternately.
async fn chess_game(sa: &mut Socket, sb: &mut Socket, base: u64, moves: &[&str]) -> String {
    let time = json!({"kind": "fischer", "base": base, "increment": 0});
    let table = sa
        .call("create", json!({"game": "chess", "seat": 0, "time": time}))
        .await
        .unwrap()["d"]["table"]
        .as_str()
        .unwrap()
        .to_string();
    sb.send("watch", json!({"table": table})).await.unwrap();
    sb.expect("sync").await.unwrap();
    sb.call("sit", json!({"table": table, "seat": 1}))
        .await
        .unwrap();
    sa.call("ready", json!({"table": table})).await.unwrap();
    sb.call("ready", json!({"table": table})).await.unwrap();
    for (i, action) in moves.iter().enumerate() {
        let s = if i % 2 == 0 { &mut *sa } else { &mut *sb };
        s.call("move", json!({"table": table, "action": action}))
            .await
            .unwrap();
    }
    table
}

/// Reads `s` for `for_`: every message that names `table`.
async fn messages_about(s: &mut Socket, table: &str, for_: Duration) -> Vec<String> {
    let until = tokio::time::Instant::now() + for_;
    let mut seen = Vec::new();
    while let Ok(Ok(text)) = tokio::time::timeout_at(until, s.recv_text()).await {
        if text.contains(table) {
            seen.push(text);
        }
    }
    seen
}

/// A Doudizhu table on in-process node `c`, where user A sits with two
/// computer players and plays from a socket of process node `k`, the first
/// socket `k` opened; then `k` dies (`kill` true: SIGKILL, else SIGTERM) and
/// comes back, and user B's socket is the first of the new process. B learns
/// nothing of the table without joining it, cannot act for A, and watching
/// sees no hand.
async fn a_new_socket_never_inherits_a_dead_ones_table(kill: bool) {
    let site = Site::new(if kill {
        "nf_cross_kill"
    } else {
        "nf_cross_term"
    });
    let c = site
        .node_with("c", |cfg| {
            cfg.bot_think_ms = 0;
            cfg.escape_grace_secs = Some(120.0);
        })
        .await;
    let (mut k, k_base, k_port) = process(&site, "k").await;
    let alice = Client::guest_at(&c.base).await.unwrap();
    let mut on_c = alice.connect().await.unwrap();
    let table = on_c
        .call(
            "create",
            json!({"game": "doudizhu", "seat": 0, "time": {"kind": "none"}}),
        )
        .await
        .unwrap()["d"]["table"]
        .as_str()
        .unwrap()
        .to_string();
    for seat in [1, 2] {
        on_c.call(
            "add_bot",
            json!({"table": table, "seat": seat, "level": "basic"}),
        )
        .await
        .unwrap();
    }
    on_c.close().await;
    // Alice's socket on node k: k's first.
    let mut on_k = at(&alice, &k_base).connect().await.unwrap();
    on_k.send("watch", json!({"table": table})).await.unwrap();
    let sync = on_k.expect("sync").await.unwrap();
    assert_eq!(sync["d"]["state"]["you"], 0, "{sync}");
    on_k.call("ready", json!({"table": table})).await.unwrap();
    // The hand is dealt.
    let until = Instant::now() + Duration::from_secs(10);
    while state(&alice, &c.base, &table).await["status"] != "playing" {
        assert!(Instant::now() < until, "the hand was not dealt");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // Node k dies and comes back on the same port with the same id.
    if kill {
        k.kill().unwrap();
    } else {
        signal(k.id(), "TERM");
    }
    let status = k.wait().unwrap();
    if !kill {
        assert!(status.success(), "SIGTERM stops the node cleanly: {status}");
    }
    drop(on_k);
    let _k2 = KillOnDrop(serve(&site, "k", k_port));
    wait_ready(&k_base, Duration::from_secs(30)).await.unwrap();
    // Bob's socket is the new process's first: it has Alice's old
    // connection id.
    let bob = Client::guest_at(&k_base).await.unwrap();
    let mut sb = bob.connect().await.unwrap();
    // Alice plays on from node c; nothing of it reaches Bob.
    let mut again = alice.connect().await.unwrap();
    again.send("watch", json!({"table": table})).await.unwrap();
    let sync = again.expect("sync").await.unwrap();
    assert_eq!(sync["d"]["state"]["you"], 0, "{sync}");
    let board = &sync["d"]["state"]["game"]["board"];
    let legal: Vec<String> = board["legal"]
        .as_array()
        .map(|l| {
            l.iter()
                .filter_map(|a| a.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    if board["to_act"] == 0
        && let Some(action) = legal.first()
    {
        again
            .call("move", json!({"table": table, "action": action}))
            .await
            .unwrap();
    }
    let leaked = messages_about(&mut sb, &table, Duration::from_secs(3)).await;
    assert!(
        leaked.is_empty(),
        "a socket that never joined the table got its messages: {leaked:?}"
    );
    // Bob cannot act for Alice: he resigns and passes as nobody seated.
    for (t, d) in [
        ("resign", json!({"table": table})),
        ("move", json!({"table": table, "action": "pass"})),
    ] {
        let r = sb.call(t, d).await;
        let err = r
            .expect_err("a stranger's command was accepted")
            .to_string();
        assert!(err.contains("not_seated"), "{t}: {err}");
    }
    // Alice's seat is hers, and the hand goes on or ended by play (the
    // computer plays for her while she is away: 托管), never by Bob's hand.
    let after = state(&alice, &c.base, &table).await;
    assert_eq!(after["seats"][0]["user"], alice.name.as_str(), "{after}");
    let reason = &after["game"]["outcome"]["reason"];
    assert!(
        after["status"] == "playing" || reason == "hand_emptied",
        "{after}"
    );
    // Watching, Bob sees the table as a spectator: no seat, no hand.
    sb.send("watch", json!({"table": table})).await.unwrap();
    let seen = sb.expect("sync").await.unwrap();
    assert!(seen["d"]["state"]["you"].is_null(), "{seen}");
    let hand = &seen["d"]["state"]["game"]["board"]["hand"];
    assert!(
        hand.is_null() || hand.as_array().is_some_and(|h| h.is_empty()),
        "a spectator sees no hand: {hand}"
    );
    sb.close().await;
    again.close().await;
    c.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_sigkill_a_new_socket_never_inherits_a_dead_ones_table() {
    a_new_socket_never_inherits_a_dead_ones_table(true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_sigterm_a_new_socket_never_inherits_a_dead_ones_table() {
    a_new_socket_never_inherits_a_dead_ones_table(false).await;
}

/// A second process with the node id of a live one exits with an error that
/// says so; once the first stops, the id is free again at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_process_with_a_taken_node_id_refuses_to_start() {
    let site = Site::new("nf_twice");
    let (mut first, _, _) = process(&site, "k").await;
    let port = free_port();
    let started = Instant::now();
    let out = serve_command(&site, "k", port, &redis_url())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "the second process ran: {stderr}");
    assert!(
        stderr.contains("node id k is in use"),
        "a clear error: {stderr}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "refused in {:?}",
        started.elapsed()
    );
    // In the same process too.
    let refused = qiyuan_server::start(site.config("k")).await;
    assert!(refused.is_err(), "an in-process node with the id started");
    signal(first.id(), "TERM");
    first.wait().unwrap();
    let (mut second, _, _) = process(&site, "k").await;
    let _ = second.kill();
    let _ = second.wait();
}

/// A Redis of the test's own.
struct OwnRedis {
    port: u16,
    child: Option<Child>,
}

impl OwnRedis {
    fn start(port: u16) -> OwnRedis {
        let mut r = OwnRedis { port, child: None };
        r.up();
        r
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    fn up(&mut self) {
        let child = Command::new("redis-server")
            .args(["--port", &self.port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .stdout(Stdio::null())
            .spawn()
            .expect("redis-server runs (Debian's redis-server package)");
        self.child = Some(child);
        let until = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(Instant::now() < until, "redis-server on {}", self.port);
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Drop for OwnRedis {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Two players on two nodes; Redis is killed for 5 s while the remote
/// player is to move. Their moves resume within 10 s of Redis's return, and
/// the player to move is charged at most 2 s of it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redis_outage_holds_the_clocks_and_play_resumes() {
    let site = Site::new("nf_redis");
    let mut redis = OwnRedis::start(free_port());
    let url = redis.url();
    let a = site
        .node_with("a", |c| c.cluster.redis = Some(url.clone()))
        .await;
    let b = site
        .node_with("b", |c| c.cluster.redis = Some(url.clone()))
        .await;
    let alice = Client::guest_at(&a.base).await.unwrap();
    let bob = at(&Client::guest_at(&a.base).await.unwrap(), &b.base);
    let mut sa = alice.connect().await.unwrap();
    let mut sb = bob.connect().await.unwrap();
    let table = chess_game(&mut sa, &mut sb, 60_000, &["e2e4", "e7e5", "g1f3"]).await;
    let before = state(&alice, &a.base, &table).await;
    assert_eq!(before["game"]["clock"]["running"], 1, "{before}");
    let black_before = main_ms(&before, 1);
    let white_before = main_ms(&before, 0);
    let read_at = Instant::now();

    redis.kill();
    tokio::time::sleep(Duration::from_secs(5)).await;
    redis.up();
    let back = Instant::now();
    let moved = move_until_in(
        &mut sb,
        &alice,
        &a.base,
        &table,
        "b8c6",
        4,
        Duration::from_secs(10),
    )
    .await;
    let resumed = moved - back;
    let after = state(&alice, &a.base, &table).await;
    assert_eq!(
        moves_in(&after),
        ["e2e4", "e7e5", "g1f3", "b8c6"],
        "{after}"
    );
    let charged = black_before.saturating_sub(main_ms(&after, 1));
    let outside = read_at.elapsed() - Duration::from_secs(5);
    eprintln!(
        "redis outage: moves resumed {resumed:?} after its return; black charged {charged} ms \
         of {:?} from reading the clock to the move",
        read_at.elapsed()
    );
    assert!(
        resumed < Duration::from_secs(10),
        "moves resumed {resumed:?} after Redis came back"
    );
    assert!(
        charged <= 2_000,
        "the player to move was charged {charged} ms (of {outside:?} outside the 5 s outage)"
    );
    // White's clock runs again only from Black's move (the snapshot is taken
    // just after it).
    let white_after = main_ms(&after, 0);
    assert!(
        white_after + 500 >= white_before,
        "white's clock did not run: {white_before} ms before, {white_after} ms after"
    );
    // And the game goes on both ways.
    move_until_in(
        &mut sa,
        &alice,
        &a.base,
        &table,
        "f1c4",
        5,
        Duration::from_secs(5),
    )
    .await;
    sa.close().await;
    sb.close().await;
    a.stop().await;
    b.stop().await;
}

/// The node holding a player's socket dies: the table's owner counts the
/// socket as closed once the node's presence lapses, and the escape rule
/// applies after the grace.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dead_nodes_socket_is_disconnected_and_escapes() {
    let site = Site::new("nf_dead");
    let grace = 3.0;
    let a = site
        .node_with("a", |c| c.escape_grace_secs = Some(grace))
        .await;
    let (mut k, k_base, _) = process(&site, "k").await;
    let alice = Client::guest_at(&a.base).await.unwrap();
    let bob = at(&Client::guest_at(&a.base).await.unwrap(), &k_base);
    let mut sa = alice.connect().await.unwrap();
    let mut sb = bob.connect().await.unwrap();
    let table = chess_game(&mut sa, &mut sb, 300_000, &["e2e4", "e7e5"]).await;
    k.kill().unwrap();
    k.wait().unwrap();
    let killed = Instant::now();
    drop(sb);
    // Presence lapses after 6 s, the sweep runs every second, then the grace.
    let limit = Duration::from_secs_f64(6.0 + 2.0 + grace + 4.0);
    sa.patience = limit;
    let mut disconnected = None;
    let ended = loop {
        let v = sa.recv().await.unwrap_or_else(|e| {
            panic!("no end within {limit:?} of the kill: {e}");
        });
        if v["t"] != "event" || v["d"]["table"] != table.as_str() {
            continue;
        }
        for e in v["d"]["events"].as_array().unwrap() {
            if e["type"] == "disconnected" && disconnected.is_none() {
                disconnected = Some(killed.elapsed());
            }
            if e["type"] == "ended" {
                break;
            }
        }
        if v.to_string().contains("\"ended\"") {
            break v;
        }
    };
    let took = killed.elapsed();
    eprintln!("dead node: disconnected after {disconnected:?}, escape after {took:?}");
    assert!(ended.to_string().contains("escape"), "{ended}");
    assert!(took < limit, "{took:?}");
    let st = state(&alice, &a.base, &table).await;
    assert_eq!(st["game"]["outcome"]["reason"], "escape", "{st}");
    sa.close().await;
    a.stop().await;
}

/// SIGTERM: the node gives up its leases at once and the other nodes take
/// its tables over; a move is taken at one of them within 2 s.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_hands_the_tables_over_at_once() {
    if std::env::var_os("NF_LOG").is_some() {
        qiyuan_server::logs::init("info", qiyuan_server::logs::LogFormat::Text);
    }
    let site = Site::new("nf_term");
    let (mut k, k_base, _) = process(&site, "k").await;
    let b = site.node("b").await;
    let host = Client::guest_at(&k_base).await.unwrap();
    let mut sh = host.connect().await.unwrap();
    let alice = at(&Client::guest_at(&k_base).await.unwrap(), &b.base);
    let bob = at(&Client::guest_at(&k_base).await.unwrap(), &b.base);
    let mut sa = alice.connect().await.unwrap();
    let mut sb = bob.connect().await.unwrap();
    let time = json!({"kind": "fischer", "base": 300_000, "increment": 0});
    let mut tables = Vec::new();
    for _ in 0..10 {
        let table = sh
            .call("create", json!({"game": "chess", "time": time}))
            .await
            .unwrap()["d"]["table"]
            .as_str()
            .unwrap()
            .to_string();
        for (s, seat) in [(&mut sa, 0), (&mut sb, 1)] {
            s.send("watch", json!({"table": table})).await.unwrap();
            s.expect("sync").await.unwrap();
            s.call("sit", json!({"table": table, "seat": seat}))
                .await
                .unwrap();
        }
        sa.call("ready", json!({"table": table})).await.unwrap();
        sb.call("ready", json!({"table": table})).await.unwrap();
        sa.call("move", json!({"table": table, "action": "e2e4"}))
            .await
            .unwrap();
        tables.push(table);
    }
    sh.close().await;
    let store = qiyuan_store::open(&site.database).await.unwrap();
    for t in &tables {
        let lease = store.lease(t).await.unwrap().unwrap();
        assert_eq!((lease.node.as_str(), lease.live), ("k", true));
    }
    signal(k.id(), "TERM");
    let termed = Instant::now();
    let status = k.wait().unwrap();
    let exited = termed.elapsed();
    assert!(status.success(), "{status}");
    let mut held = 0;
    for t in &tables {
        if let Some(l) = store.lease(t).await.unwrap()
            && l.node == "k"
            && l.live
        {
            held += 1;
        }
    }
    assert!(
        held <= tables.len() / 10,
        "{held} of {} leases still held by the stopped node",
        tables.len()
    );
    let moved = move_until_in(
        &mut sb,
        &alice,
        &b.base,
        &tables[0],
        "e7e5",
        2,
        Duration::from_secs(5),
    )
    .await;
    let took = moved - termed;
    eprintln!("SIGTERM: exited after {exited:?}, a move taken elsewhere after {took:?}");
    assert!(
        took < Duration::from_secs(2),
        "the table took a move {took:?} after SIGTERM"
    );
    sa.close().await;
    sb.close().await;
    b.stop().await;
}

/// The server stops for 10 s (SIGSTOP) while a player is to move: the stall
/// is charged to no clock.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_server_charges_no_clock() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let server = Command::new(qiyuan_bin())
        .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
        .arg("--data")
        .arg(dir.path())
        .env("QIYUAN_LOG", "warn")
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    // Killed however the test ends (a leaked server would hold the test's
    // output open).
    let mut server = KillOnDrop(server);
    let server = &mut server.0;
    wait_ready(&base, Duration::from_secs(30)).await.unwrap();
    let alice = Client::guest_at(&base).await.unwrap();
    let bob = Client::guest_at(&base).await.unwrap();
    let mut sa = alice.connect().await.unwrap();
    let mut sb = bob.connect().await.unwrap();
    // Twelve seconds each: a 10 s stall charged would nearly flag.
    let table = chess_game(&mut sa, &mut sb, 12_000, &["e2e4", "e7e5", "g1f3"]).await;
    let before = state(&alice, &base, &table).await;
    let black_before = main_ms(&before, 1);
    let read_at = Instant::now();
    signal(server.id(), "STOP");
    // Stopped: it answers nothing.
    let asked = reqwest::Client::new()
        .get(format!("{base}/api/health"))
        .timeout(Duration::from_secs(1))
        .send()
        .await;
    assert!(asked.is_err(), "the server answered while stopped");
    tokio::time::sleep(Duration::from_secs(9)).await;
    signal(server.id(), "CONT");
    sb.call("move", json!({"table": table, "action": "b8c6"}))
        .await
        .unwrap();
    let after = state(&alice, &base, &table).await;
    assert_eq!(after["status"], "playing", "{after}");
    let charged = black_before.saturating_sub(main_ms(&after, 1));
    eprintln!(
        "stall: black charged {charged} ms of {:?} from reading the clock to the move",
        read_at.elapsed()
    );
    let metrics = reqwest::get(format!("{base}/metrics"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let stalls = metrics
        .lines()
        .find(|l| l.starts_with("qiyuan_stalls_total"))
        .unwrap_or_default()
        .to_string();
    assert!(
        charged <= 2_000,
        "the stall was charged: {charged} ms ({stalls}; {})",
        after["game"]["clock"]
    );
    assert!(stalls.ends_with(" 1"), "one stall seen: {stalls}");
    sa.close().await;
    sb.close().await;
    let _ = server.kill();
    let _ = server.wait();
}
