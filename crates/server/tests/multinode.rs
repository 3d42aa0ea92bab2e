//! Several nodes on one PostgreSQL and one Redis (issue 20): each test starts
//! two or three real nodes on loopback ports against the machine's PostgreSQL
//! (`QIYUAN_TEST_POSTGRES`, default postgres://root@127.0.0.1:5432/test; a
//! fresh schema per test) and Redis (`QIYUAN_TEST_REDIS`, default
//! redis://127.0.0.1:6379; a key prefix per test). The takeover test kills a
//! real `qiyuan serve` child process (`QIYUAN_BIN`, default the workspace's
//! `target/debug/qiyuan`: `cargo build -p qiyuan --bin qiyuan` first).

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use qiyuan_server::bench::{Client, Socket, wait_ready};
use qiyuan_server::{Config, Running};
use serde_json::{Value, json};

fn postgres_url() -> String {
    std::env::var("QIYUAN_TEST_POSTGRES")
        .unwrap_or_else(|_| "postgres://root@127.0.0.1:5432/test".to_string())
}

fn redis_url() -> String {
    std::env::var("QIYUAN_TEST_REDIS").unwrap_or_else(|_| "redis://127.0.0.1:6379".to_string())
}

fn unique(prefix: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!(
        "{prefix}_{}_{}",
        std::process::id(),
        nanos % 1_000_000_000_000
    )
}

/// One installation: a database schema and a Redis prefix shared by its nodes.
struct Site {
    database: String,
    prefix: String,
    dir: tempfile::TempDir,
}

impl Site {
    fn new(name: &str) -> Site {
        let id = unique(name);
        Site {
            database: format!("{}?schema={id}", postgres_url()),
            prefix: format!("{id}:"),
            dir: tempfile::tempdir().unwrap(),
        }
    }

    fn config(&self, node: &str) -> Config {
        let mut config = Config {
            listen: "127.0.0.1:0".parse().unwrap(),
            data_dir: self.dir.path().to_path_buf(),
            database: Some(self.database.clone()),
            max_sockets_per_address: 0,
            ..Config::default()
        };
        config.cluster.redis = Some(redis_url());
        config.cluster.node_id = Some(node.to_string());
        config.cluster.prefix = self.prefix.clone();
        config
    }

    /// A node in this process.
    async fn node(&self, name: &str) -> Node {
        let running = qiyuan_server::start(self.config(name))
            .await
            .unwrap_or_else(|e| {
                panic!("node {name} did not start (PostgreSQL and Redis up?): {e:#}")
            });
        Node {
            base: format!("http://{}", running.addr),
            running: Some(running),
        }
    }
}

struct Node {
    base: String,
    running: Option<Running>,
}

impl Node {
    async fn stop(mut self) {
        if let Some(r) = self.running.take() {
            let _ = r.shutdown().await;
        }
    }
}

/// The same account on another node (sessions are in the shared database).
fn at(client: &Client, node: &str) -> Client {
    Client {
        base: node.to_string(),
        ..client.clone()
    }
}

/// Reads until an event batch of table `table` holding an event of type `ty`.
async fn event(s: &mut Socket, table: &str, ty: &str) -> Value {
    loop {
        let v = s.recv().await.unwrap();
        assert_ne!(v["t"], "error", "waiting for {ty}: {v}");
        if v["t"] == "event"
            && v["d"]["table"] == table
            && v["d"]["events"]
                .as_array()
                .is_some_and(|es| es.iter().any(|e| e["type"] == ty))
        {
            return v;
        }
    }
}

fn moves_in(state: &Value) -> Vec<String> {
    state["game"]["moves"]
        .as_array()
        .map(|ms| {
            ms.iter()
                .map(|m| m["action"].as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// Players on two nodes play a game to its end at a table the first node
/// owns; a spectator on the third node sees every move;
/// the lobby lists the table the same way on every node.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_on_two_nodes_play_to_the_end_and_a_third_node_watches() {
    if std::env::var_os("MN_LOG").is_some() {
        qiyuan_server::logs::init("info", qiyuan_server::logs::LogFormat::Text);
    }
    let site = Site::new("mn_play");
    let a = site.node("a").await;
    let b = site.node("b").await;
    let c = site.node("c").await;
    let alice = Client::guest_at(&a.base).await.unwrap();
    let bob = at(&Client::guest_at(&a.base).await.unwrap(), &b.base);
    let carol = at(&Client::guest_at(&a.base).await.unwrap(), &c.base);
    let mut sa = alice.connect().await.unwrap();
    let mut sb = bob.connect().await.unwrap();
    let mut sc = carol.connect().await.unwrap();
    let time = json!({"kind": "fischer", "base": 300_000, "increment": 0});
    let r = sa
        .call("create", json!({"game": "chess", "seat": 0, "time": time}))
        .await
        .unwrap();
    let table = r["d"]["table"].as_str().unwrap().to_string();
    // Bob, on node b, sits at node a's table; Carol watches from node c.
    sb.send("watch", json!({"table": table})).await.unwrap();
    let sync = sb.expect("sync").await.unwrap();
    assert_eq!(sync["d"]["table"], table.as_str(), "{sync}");
    sc.send("watch", json!({"table": table})).await.unwrap();
    sc.expect("sync").await.unwrap();
    sb.call("sit", json!({"table": table, "seat": 1}))
        .await
        .unwrap();
    sa.call("ready", json!({"table": table})).await.unwrap();
    sb.call("ready", json!({"table": table})).await.unwrap();
    event(&mut sc, &table, "started").await;
    // The lobby lists it on every node, the same.
    let mut listed = Vec::new();
    for node in [&a.base, &b.base, &c.base] {
        let until = Instant::now() + Duration::from_secs(5);
        loop {
            let page = at(&alice, node).get_json("/api/lobby/chess").await.unwrap();
            let t = page
                .as_array()
                .and_then(|ts| ts.iter().find(|t| t["id"] == table.as_str()).cloned());
            if let Some(t) = t.filter(|t| t["status"] == "playing") {
                listed.push(t["seats"].clone());
                break;
            }
            assert!(
                Instant::now() < until,
                "node {node} lists table {table}: {page}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    assert!(listed.windows(2).all(|w| w[0] == w[1]), "{listed:?}");
    // Fool's mate: White (Alice, node a) and Black (Bob, node b).
    let plies = ["f2f3", "e7e5", "g2g4", "d8h4"];
    for (i, action) in plies.iter().enumerate() {
        let s = if i % 2 == 0 { &mut sa } else { &mut sb };
        s.call("move", json!({"table": table, "action": action}))
            .await
            .unwrap_or_else(|e| panic!("ply {i} {action}: {e}"));
    }
    let ended = event(&mut sa, &table, "ended").await;
    assert!(ended.to_string().contains("mate"), "{ended}");
    // Carol saw every move, in order, and the end.
    let mut seen = Vec::new();
    loop {
        let v = sc.recv().await.unwrap();
        if v["t"] != "event" {
            continue;
        }
        for e in v["d"]["events"].as_array().unwrap() {
            if e["type"] == "acted" {
                seen.push(e.to_string());
            }
        }
        if v.to_string().contains("\"ended\"") {
            break;
        }
    }
    assert_eq!(
        seen.len(),
        plies.len(),
        "the spectator saw every move: {seen:?}"
    );
    for (e, action) in seen.iter().zip(plies) {
        assert!(e.contains(action), "{e} is {action}");
    }
    for s in [sa, sb, sc] {
        s.close().await;
    }
    for n in [a, b, c] {
        n.stop().await;
    }
}

/// Quick pairing pairs two seekers on different nodes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quick_pairing_pairs_seekers_on_two_nodes() {
    let site = Site::new("mn_seek");
    let a = site.node("a").await;
    let b = site.node("b").await;
    let alice = Client::guest_at(&a.base).await.unwrap();
    let bob = at(&Client::guest_at(&a.base).await.unwrap(), &b.base);
    let mut sa = alice.connect().await.unwrap();
    let mut sb = bob.connect().await.unwrap();
    let seek =
        json!({"game": "chess", "time": {"kind": "fischer", "base": 180_000, "increment": 2_000}});
    let r = sa.call("seek", seek.clone()).await.unwrap();
    assert_eq!(r["d"]["seeking"], true, "{r}");
    // Bob's node takes Alice's seek from the shared pool: both are told.
    let id = sb.send("seek", seek).await.unwrap();
    let (mut pb, mut ack) = (None, None);
    while pb.is_none() || ack.is_none() {
        let v = sb.recv().await.unwrap();
        if v["t"] == "paired" {
            pb = Some(v);
        } else if v["id"] == id.as_str() {
            ack = Some(v);
        }
    }
    let (pb, ack) = (pb.unwrap(), ack.unwrap());
    let table = ack["d"]["table"]
        .as_str()
        .unwrap_or_else(|| panic!("paired: {ack}"))
        .to_string();
    assert_eq!(pb["d"]["table"], table.as_str(), "{pb}");
    assert_eq!(pb["d"]["seat"], 1, "{pb}");
    let pa = sa.expect("paired").await.unwrap();
    assert_eq!(pa["d"]["table"], table.as_str(), "{pa}");
    assert_eq!(pa["d"]["seat"], 0, "the one who waited sits first: {pa}");
    // Both are subscribed, the game has started, and it plays across nodes.
    let sync = sa.expect("sync").await.unwrap();
    assert_eq!(sync["d"]["state"]["status"], "playing", "{sync}");
    sa.call("move", json!({"table": table, "action": "e2e4"}))
        .await
        .unwrap();
    let moved = event(&mut sb, &table, "acted").await;
    assert!(moved.to_string().contains("e2e4"), "{moved}");
    sb.call("move", json!({"table": table, "action": "e7e5"}))
        .await
        .unwrap();
    event(&mut sa, &table, "acted").await;
    // A third seeker waits: the pool is empty again.
    let carol = Client::guest_at(&b.base).await.unwrap();
    let mut sc = carol.connect().await.unwrap();
    let r = sc
        .call("seek", json!({"game": "chess", "time": {"kind": "fischer", "base": 180_000, "increment": 2_000}}))
        .await
        .unwrap();
    assert_eq!(r["d"]["seeking"], true, "{r}");
    for s in [sa, sb, sc] {
        s.close().await;
    }
    a.stop().await;
    b.stop().await;
}

fn qiyuan_bin() -> std::path::PathBuf {
    match std::env::var_os("QIYUAN_BIN") {
        Some(p) => p.into(),
        None => std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/debug/qiyuan"),
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A node as a real `qiyuan serve` process.
fn serve(site: &Site, node: &str, port: u16) -> Child {
    let bin = qiyuan_bin();
    assert!(
        bin.exists(),
        "{} is missing: build it with `cargo build -p qiyuan --bin qiyuan` or set QIYUAN_BIN",
        bin.display()
    );
    Command::new(bin)
        .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
        .arg("--data")
        .arg(site.dir.path())
        .args(["--database", &site.database])
        .args(["--redis", &redis_url(), "--node-id", node])
        .args(["--redis-prefix", &site.prefix])
        .args(["--max-sockets-per-address", "0"])
        .env("QIYUAN_LOG", "warn")
        .stdout(Stdio::null())
        .spawn()
        .expect("qiyuan serve starts")
}

/// The node that owns a table (a real `qiyuan serve`) is killed with SIGKILL
/// mid-game: another node takes the table over within 10 s, every acknowledged
/// move is there, the takeover is charged to no clock, and the game goes on
/// with the players' sockets on the surviving nodes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_owner_is_killed_and_another_node_takes_over() {
    let site = Site::new("mn_kill");
    let port = free_port();
    let k_base = format!("http://127.0.0.1:{port}");
    let mut k = serve(&site, "k", port);
    wait_ready(&k_base, Duration::from_secs(30))
        .await
        .expect("node k is up");
    let b = site.node("b").await;
    let c = site.node("c").await;
    // The host creates the table on node k, which owns it.
    let host = Client::guest_at(&k_base).await.unwrap();
    let mut sh = host.connect().await.unwrap();
    let time = json!({"kind": "fischer", "base": 120_000, "increment": 0});
    let r = sh
        .call("create", json!({"game": "chess", "time": time}))
        .await
        .unwrap();
    let table = r["d"]["table"].as_str().unwrap().to_string();
    // Alice plays from node b, Bob from node c.
    let alice = at(&Client::guest_at(&k_base).await.unwrap(), &b.base);
    let bob = at(&Client::guest_at(&k_base).await.unwrap(), &c.base);
    let mut sa = alice.connect().await.unwrap();
    let mut sb = bob.connect().await.unwrap();
    for s in [&mut sa, &mut sb] {
        s.send("watch", json!({"table": table})).await.unwrap();
        s.expect("sync").await.unwrap();
    }
    sa.call("sit", json!({"table": table, "seat": 0}))
        .await
        .unwrap();
    sb.call("sit", json!({"table": table, "seat": 1}))
        .await
        .unwrap();
    sa.call("ready", json!({"table": table})).await.unwrap();
    sb.call("ready", json!({"table": table})).await.unwrap();
    let plies = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3"];
    let (before, after) = plies.split_at(5);
    for (i, action) in before.iter().enumerate() {
        let s = if i % 2 == 0 { &mut sa } else { &mut sb };
        s.call("move", json!({"table": table, "action": action}))
            .await
            .unwrap_or_else(|e| panic!("ply {i} {action}: {e}"));
    }
    // Black (Bob) is to move: his clock as it was at the last acknowledged move.
    let state = at(&alice, &b.base)
        .get_json(&format!("/api/game/{table}"))
        .await
        .unwrap()["state"]
        .clone();
    assert_eq!(moves_in(&state), before, "{state}");
    let running = state["game"]["clock"]["running"].as_u64().unwrap() as usize;
    assert_eq!(running, 1, "{state}");
    let main_before = state["game"]["clock"]["seats"][1]["main"].as_u64().unwrap();
    let white_before = state["game"]["clock"]["seats"][0]["main"].as_u64().unwrap();

    k.kill().expect("SIGKILL");
    k.wait().unwrap();
    let killed = Instant::now();
    // The new owner sends the players' sockets a fresh sync.
    let sync = loop {
        let v = sb.recv().await.unwrap();
        if v["t"] == "sync" && v["d"]["table"] == table.as_str() {
            break v;
        }
    };
    let took = killed.elapsed();
    let resumed = sync["d"]["state"].clone();
    assert_eq!(
        moves_in(&resumed),
        before,
        "every acknowledged move: {resumed}"
    );
    assert_eq!(resumed["status"], "playing", "{resumed}");
    let main_after = resumed["game"]["clock"]["seats"][1]["main"]
        .as_u64()
        .unwrap();
    let white_after = resumed["game"]["clock"]["seats"][0]["main"]
        .as_u64()
        .unwrap();
    assert_eq!(white_after, white_before, "the waiting clock is untouched");
    assert!(
        main_after + 1_000 >= main_before,
        "the {took:?} takeover is charged to no clock: {main_before} ms before, {main_after} ms after"
    );
    // The game continues within 10 s of the kill.
    for (i, action) in after.iter().enumerate() {
        let s = if i % 2 == 0 { &mut sb } else { &mut sa };
        let until = Instant::now() + Duration::from_secs(5);
        loop {
            match s
                .call("move", json!({"table": table, "action": action}))
                .await
            {
                Ok(_) => break,
                // A socket whose sync from the new owner is still on its way.
                Err(e) if Instant::now() < until => {
                    eprintln!("retrying {action}: {e}");
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                Err(e) => panic!("{action} after the takeover: {e}"),
            }
        }
    }
    let continued = killed.elapsed();
    assert!(
        continued < Duration::from_secs(10),
        "the game continued {continued:?} after the kill (sync after {took:?})"
    );
    eprintln!("takeover: sync after {took:?}, two more moves after {continued:?}");
    let state = at(&alice, &c.base)
        .get_json(&format!("/api/game/{table}"))
        .await
        .unwrap()["state"]
        .clone();
    assert_eq!(moves_in(&state), plies, "{state}");
    for s in [sa, sb] {
        s.close().await;
    }
    b.stop().await;
    c.stop().await;
}

/// A fenced old owner's late write is refused by the store, and nothing of it
/// is written (PostgreSQL, as the nodes use it).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fenced_old_owner_cannot_write() {
    let site = Site::new("mn_fence");
    let store = qiyuan_store::open(&site.database).await.unwrap();
    let row = qiyuan_store::TableRow {
        id: "t1".into(),
        game: "chess".into(),
        config: "{}".into(),
        open: true,
        created_at: 1,
    };
    store.create_table(&row).await.unwrap();
    let old = store
        .acquire_lease("t1", "old", 200)
        .await
        .unwrap()
        .unwrap();
    store.append_fenced("t1", 1, 1, "{}", old).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let new = store
        .acquire_lease("t1", "new", 6_000)
        .await
        .unwrap()
        .unwrap();
    assert!(new > old);
    // The two race: the old owner's append and the new one's, for version 2.
    let (late, first) = tokio::join!(
        store.append_fenced("t1", 2, 2, "late", old),
        store.append_fenced("t1", 2, 3, "new", new)
    );
    assert!(
        matches!(late, Err(qiyuan_store::StoreError::Fenced(_))),
        "{late:?}"
    );
    first.unwrap();
    let log = store.log("t1", 0).await.unwrap();
    assert_eq!(
        log.iter().map(|e| e.entry.as_str()).collect::<Vec<_>>(),
        ["{}", "new"]
    );
    assert!(!store.renew_lease("t1", "old", old, 6_000).await.unwrap());
}

/// Swiss events' schedule runs on one node at a time: the node holding the
/// director's role, taken by the first node's schedule; the second node's
/// schedule does not get it while the first runs, and takes it once the first
/// stops. (The test only reads who holds the role: the schedules take it.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_node_directs_the_events_and_another_takes_over() {
    use qiyuan_server::events::director::ROLE;
    let site = Site::new("director");
    let start = |name: &'static str| {
        let mut config = site.config(name);
        config.event_tick_ms = 50;
        qiyuan_server::start(config)
    };
    let a = start("a").await.unwrap();
    let ca = a.app.cluster.clone().expect("a node of several");
    let started = Instant::now();
    while ca.holder(ROLE).await.as_deref() != Some("a") {
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "a never directs"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let b = start("b").await.unwrap();
    let cb = b.app.cluster.clone().expect("a node of several");
    // Twenty of b's ticks: a keeps the role, and b's own ask is refused.
    tokio::time::sleep(Duration::from_millis(1000)).await;
    assert_eq!(
        cb.holder(ROLE).await.as_deref(),
        Some("a"),
        "a keeps the role"
    );
    assert!(
        !cb.hold(ROLE).await,
        "b is refused the role while a holds it"
    );
    // a stops: it gives the role up, and b's schedule takes it.
    a.shutdown().await.unwrap();
    drop(ca);
    let stopped = Instant::now();
    while cb.holder(ROLE).await.as_deref() != Some("b") {
        assert!(
            stopped.elapsed() < Duration::from_secs(10),
            "b never took the role over"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    b.shutdown().await.unwrap();
}
