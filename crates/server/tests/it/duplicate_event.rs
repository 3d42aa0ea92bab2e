//! A duplicate event (复式) through the real server, on SQLite and PostgreSQL:
//! six players at two tables over four boards, every hand played by the
//! computer for absent players (托管) except where a player holds table 2 on
//! board 1. While table 2 still plays board 1, a player of the finished table 1
//! (and one of table 2) asks every endpoint they have — the event, its JSON
//! and CSV, the games, logs, replays and records of both tables' hands, watching
//! and commands at the other table — and learns nothing of board 1. After the
//! event, every board was dealt the same at both tables, each table seated by
//! the rotation of docs/card-events.md (each player holding each seat), and
//! the comparison, the standings and the CSV equal a computation by hand here
//! from the stored records.
#![cfg(feature = "doudizhu")]

use std::collections::HashMap;
use std::time::{Duration, Instant};

use qiyuan_testkit::clock::now_ms;
use serde_json::{Value, json};

use crate::common::{self, Backend, Client, Ws, event_with, get_json, organiser, patch};

const BOARDS: usize = 4;

fn config(starts_at: i64) -> Value {
    json!({
        "name": "复式 test",
        "kind": "duplicate",
        "game": "doudizhu",
        "cards": {"hands_per_round": BOARDS},
        "time": {"kind": "qq", "game": 0, "per_move": 0, "countdown": 120_000},
        "rounds": 1,
        "starts_at": starts_at,
        "schedule": {"kind": "after_previous", "pause_secs": 1.0},
    })
}

async fn event(c: &Client, id: &str) -> Value {
    let (status, v) = get_json(c, &format!("/api/event/{id}")).await;
    assert_eq!(status, 200, "{v}");
    v
}

/// Whether hand `hand` (from 1) of table `table` (from 1) has finished, as the
/// event's page says.
fn finished(ev: &Value, table: usize, hand: usize) -> bool {
    ev["rounds"][0]["tables"][table - 1]["hands"]
        .get(hand - 1)
        .is_some_and(|h| h["finished"] == true || h["scores"].is_array())
}

/// Waits for an `event.round` message on `ws` for hand `hand`'s table, skipping
/// others; its table id.
async fn told(ws: &mut Ws) -> String {
    let m = ws.expect("event.round").await;
    m["d"]["table"].as_str().unwrap().to_string()
}

async fn whole(backend: Backend) {
    let server = common::start_with(backend, |c| c.event_tick_ms = 50).await;
    let org = organiser(&server, "org").await;
    let mut players = Vec::new();
    for i in 1..=6 {
        players.push(server.register(&format!("dup{i}")).await);
    }
    let id = event_with(&org, config(now_ms() + 3_600_000), &players).await;
    // p2 (table 2) will hold board 1; p1 (table 1) will probe.
    let mut p2 = players[1].ws().await;
    let mut p1 = players[0].ws().await;
    let (status, r) = patch(&org, &format!("/api/event/{id}"), config(now_ms())).await;
    assert_eq!(status, 200, "{r}");

    // Board 1: p2 comes to table 2 and never acts, so that it waits for them.
    let t2h1 = told(&mut p2).await;
    p2.send("watch", json!({"table": t2h1})).await;
    p2.expect("sync").await;
    let t1h1 = told(&mut p1).await;
    let start = Instant::now();
    loop {
        let ev = event(&org, &id).await;
        if finished(&ev, 1, 1) {
            assert!(!finished(&ev, 2, 1), "table 2 finished board 1 while held");
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "table 1 did not finish board 1: {ev}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // ---- Table 1 has finished board 1, table 2 plays it: probe. ----
    for (who, c) in [("p1", &players[0]), ("p4", &players[3])] {
        let (status, ev) = get_json(c, &format!("/api/event/{id}")).await;
        assert_eq!(status, 200);
        let text = ev.to_string();
        assert!(
            !text.contains(&t1h1) && !text.contains(&t2h1),
            "{who}: {text}"
        );
        for t in ev["rounds"][0]["tables"].as_array().unwrap() {
            assert!(t["hands"][0]["scores"].is_null(), "{who}: {t}");
            assert!(t["hands"][0]["seats"].is_null(), "{who}: {t}");
            assert_eq!(t["round_scores"], json!([0, 0, 0]), "{who}: {t}");
        }
        assert!(
            ev["standings"]
                .as_array()
                .unwrap()
                .iter()
                .all(|s| s["boards"] == 0),
            "{who}: {}",
            ev["standings"]
        );
        let (status, cmp) = get_json(c, &format!("/event/{id}.json")).await;
        assert_eq!(status, 200, "{who}");
        assert_eq!(
            cmp["boards"][0],
            json!({"board": 1, "published": false}),
            "{who}"
        );
        let csv = c
            .get(&format!("/event/{id}.csv"))
            .await
            .text()
            .await
            .unwrap();
        assert_eq!(csv.lines().count(), 1, "{who}: {csv}");
        for table in [&t1h1, &t2h1] {
            for path in [
                format!("/api/game/{table}"),
                format!("/api/game/{table}/log"),
                format!("/api/game/{table}/replay"),
                format!("/game/{table}.json"),
            ] {
                let (status, body) = get_json(c, &path).await;
                assert_eq!(status, 403, "{who} {path}: {body}");
                assert_eq!(
                    body["error"]["code"], "board_sealed",
                    "{who} {path}: {body}"
                );
            }
        }
    }
    // p1 may neither watch table 2 nor act there (a socket at a table hears it).
    let r = p1.act("watch", json!({"table": t2h1})).await;
    assert_eq!(r["t"], "error", "{r}");
    assert!(r.to_string().contains("board_sealed"), "{r}");
    let r = p1.act("sit", json!({"table": t2h1, "seat": 0})).await;
    assert_eq!(r["t"], "error", "{r}");
    assert!(r.to_string().contains("board_sealed"), "{r}");

    // p2 goes: the computer plays for them, and the event runs to its end.
    p2.close().await;
    let start = Instant::now();
    let ev = loop {
        let ev = event(&org, &id).await;
        if ev["status"] == "finished" {
            break ev;
        }
        assert!(
            start.elapsed() < Duration::from_secs(400),
            "the event did not end: {ev}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };

    // ---- After the event: everything is published; check it by hand. ----
    let (status, cmp) = get_json(&org, &format!("/event/{id}.json")).await;
    assert_eq!(status, 200, "{cmp}");
    let names = |i: usize| format!("dup{i}");
    // Positions: table 1 holds p1 p3 p5, table 2 p2 p4 p6 (strongest first by
    // registration, dealt out position by position).
    let positions = [
        [names(1), names(3), names(5)],
        [names(2), names(4), names(6)],
    ];
    let mut held: HashMap<String, Vec<usize>> = HashMap::new();
    let mut mp: HashMap<String, (u64, u64, i64)> = HashMap::new();
    let boards = cmp["boards"].as_array().unwrap();
    assert_eq!(boards.len(), BOARDS);
    for (b, board) in boards.iter().enumerate() {
        assert_eq!(board["published"], true, "{board}");
        let tables = board["tables"].as_array().unwrap();
        assert_eq!(tables.len(), 2, "{board}");
        let mut first_deals = Vec::new();
        let mut deals = Vec::new();
        let mut points: Vec<Vec<i64>> = Vec::new();
        for (t, table) in tables.iter().enumerate() {
            let record = &table["record"];
            // Who held what: the record's players by seat, as the rotation says.
            let expect: Vec<String> = (0..3)
                .map(|s| positions[t][(s + 3 - (t + b) % 3) % 3].clone())
                .collect();
            assert_eq!(
                record["players"],
                json!(expect),
                "board {} table {}",
                b + 1,
                t + 1
            );
            for (s, name) in expect.iter().enumerate() {
                held.entry(name.clone()).or_default().push(s);
            }
            let first = record["passed_out"]
                .as_array()
                .and_then(|p| p.first())
                .map_or(record["deal"].clone(), |p| p["deal"].clone());
            first_deals.push(first);
            let passed = record["passed_out"].as_array().map_or(0, |p| p.len());
            assert_eq!(table["deal"], passed, "the deal played: {table}");
            deals.push(passed);
            assert!(record["bids"].is_array(), "who bid what: {record}");
            let p: Vec<i64> = record["outcome"]["points"]
                .as_array()
                .map_or(vec![0, 0, 0], |a| {
                    a.iter().map(|x| x.as_i64().unwrap()).collect()
                });
            points.push(p);
        }
        assert_eq!(
            first_deals[0],
            first_deals[1],
            "board {} dealt alike",
            b + 1
        );
        assert!(first_deals[0]["hands"].is_array(), "{}", first_deals[0]);
        for (t, table) in tables.iter().enumerate() {
            for s in 0..3 {
                let (mine, other) = (points[t][s], points[1 - t][s]);
                // A table that played a redeal the other did not play has
                // nobody to be compared with: 1 of 2.
                let m = match mine.cmp(&other) {
                    _ if deals[0] != deals[1] => 1,
                    std::cmp::Ordering::Greater => 2,
                    std::cmp::Ordering::Equal => 1,
                    std::cmp::Ordering::Less => 0,
                };
                let seat = &table["seats"][s];
                assert_eq!(seat["points"], mine, "{seat}");
                assert_eq!(
                    seat["matchpoints"],
                    m,
                    "board {} table {} seat {s}: {seat}",
                    b + 1,
                    t + 1
                );
                assert_eq!(seat["top"], 2, "{seat}");
                let name = seat["user"].as_str().unwrap().to_string();
                let e = mp.entry(name).or_default();
                e.0 += m;
                e.1 += 2;
                e.2 += mine;
            }
        }
    }
    // Each player held seats 0 1 2 0 over the four boards, turned by table.
    for (name, seats) in &held {
        assert_eq!(seats.len(), BOARDS, "{name}: {seats:?}");
        assert!((0..3).all(|s| seats.contains(&s)), "{name}: {seats:?}");
    }
    // The standings: by matchpoints, then points, as computed here.
    let mut expect: Vec<(String, (u64, u64, i64))> = mp.into_iter().collect();
    expect.sort_by(|a, b| {
        b.1.0
            .cmp(&a.1.0)
            .then(b.1.2.cmp(&a.1.2))
            .then(a.0.cmp(&b.0))
    });
    let standings = ev["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 6);
    for s in standings {
        let name = s["user"].as_str().unwrap();
        let (m, top, pts) = expect.iter().find(|e| e.0 == name).unwrap().1;
        assert_eq!(
            (
                s["matchpoints"].as_u64(),
                s["top"].as_u64(),
                s["points"].as_i64()
            ),
            (Some(m), Some(top), Some(pts)),
            "{s}"
        );
        let better = expect
            .iter()
            .filter(|e| e.1.0 > m || (e.1.0 == m && e.1.2 > pts))
            .count();
        assert_eq!(s["place"], better + 1, "{s}");
        assert_eq!(s["boards"], BOARDS, "{s}");
    }
    // The CSV: a header and a line per seat of every hand.
    let csv = org
        .get(&format!("/event/{id}.csv"))
        .await
        .text()
        .await
        .unwrap();
    assert_eq!(csv.lines().count(), 1 + BOARDS * 2 * 3, "{csv}");
    let t = &boards[0]["tables"][0]["seats"][0];
    let line = format!(
        "1,1,0,{},0,{},{},2",
        t["user"].as_str().unwrap(),
        t["points"],
        t["matchpoints"]
    );
    assert!(csv.lines().any(|l| l == line), "{line} in {csv}");
    // And now the records are everyone's.
    let (status, _) = get_json(&players[0], &format!("/api/game/{t2h1}/replay")).await;
    assert_eq!(status, 200);
}

#[tokio::test(flavor = "multi_thread")]
async fn duplicate_event_sqlite() {
    whole(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn duplicate_event_postgres() {
    whole(Backend::Postgres).await;
}
