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
//! from the stored records (`check_boards`: results compared only among the
//! tables that played the same deal of a board). A second event: five players,
//! the sixth place a computer's, and a restart in the middle.
#![cfg(feature = "doudizhu")]

use std::collections::HashMap;
use std::time::{Duration, Instant};

use qiyuan_testkit::clock::now_ms;
use serde_json::{Value, json};

use crate::common::{self, Backend, Client, Ws, event, event_with, get_json, organiser, patch};

const BOARDS: usize = 4;
/// A computer place, as the event's pages name it.
const COMPUTER: &str = "bot:basic";

fn config(starts_at: i64) -> Value {
    config_of(BOARDS, 120_000, starts_at)
}

fn config_of(boards: usize, countdown: u64, starts_at: i64) -> Value {
    json!({
        "name": "复式 test",
        "kind": "duplicate",
        "game": "doudizhu",
        "cards": {"hands_per_round": boards},
        "time": {"kind": "qq", "game": 0, "per_move": 0, "countdown": countdown},
        "rounds": 1,
        "starts_at": starts_at,
        "schedule": {"kind": "after_previous", "pause_secs": 1.0},
    })
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
    // Positions: table 1 holds p1 p3 p5, table 2 p2 p4 p6 (strongest first by
    // registration, dealt out position by position).
    let positions = [["dup1", "dup3", "dup5"], ["dup2", "dup4", "dup6"]];
    let held = check_boards(&cmp, &positions, BOARDS);
    // Each player held seats 0 1 2 0 over the four boards, turned by table.
    for (name, seats) in &held {
        assert_eq!(seats.len(), BOARDS, "{name}: {seats:?}");
        assert!((0..3).all(|s| seats.contains(&s)), "{name}: {seats:?}");
    }
    assert_eq!(ev["standings"], cmp["standings"]);
    // The CSV: a header and a line per seat of every hand.
    let csv = org
        .get(&format!("/event/{id}.csv"))
        .await
        .text()
        .await
        .unwrap();
    assert_eq!(csv.lines().count(), 1 + BOARDS * 2 * 3, "{csv}");
    let t = &cmp["boards"][0]["tables"][0]["seats"][0];
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

/// Checks a finished event's comparison (`/event/{id}.json`) against its
/// stored records, by hand: every board published; at each table the record's
/// players by seat as the rotation of docs/card-events.md turns `positions`
/// (table by table; a computer place is [`COMPUTER`]); every table dealt the
/// board's first deal alike; each table's `deal` the deals it passed out; each
/// seat's matchpoints against the other tables that played the same deal (2
/// for each result beaten, 1 for each tie; 1 of 2 with nobody to compare
/// with); and the standings (the people only) from those. The seats each
/// person held, board by board.
fn check_boards(
    cmp: &Value,
    positions: &[[&str; 3]],
    boards: usize,
) -> HashMap<String, Vec<usize>> {
    let mut held: HashMap<String, Vec<usize>> = HashMap::new();
    // (matchpoints, top, points) per person.
    let mut totals: HashMap<String, (u64, u64, i64)> = HashMap::new();
    let list = cmp["boards"].as_array().unwrap();
    assert_eq!(list.len(), boards, "{cmp}");
    for (b, board) in list.iter().enumerate() {
        assert_eq!(board["published"], true, "{board}");
        let tables = board["tables"].as_array().unwrap();
        assert_eq!(tables.len(), positions.len(), "{board}");
        let mut firsts = Vec::new();
        // Per table: the deal played and the points by seat.
        let mut played: Vec<(usize, Vec<i64>)> = Vec::new();
        for (t, table) in tables.iter().enumerate() {
            let record = &table["record"];
            let expect: Vec<&str> = (0..3)
                .map(|s| positions[t][(s + 3 - (t + b) % 3) % 3])
                .collect();
            for (s, want) in expect.iter().enumerate() {
                let name = record["players"][s].as_str().unwrap();
                if *want == COMPUTER {
                    assert!(name.starts_with("电脑"), "board {}: {name}", b + 1);
                    assert_eq!(table["seats"][s]["user"], COMPUTER, "{table}");
                } else {
                    assert_eq!(name, *want, "board {} table {} seat {s}", b + 1, t + 1);
                    held.entry(name.to_string()).or_default().push(s);
                }
            }
            let passed = record["passed_out"].as_array().map_or(0, |p| p.len());
            assert_eq!(table["deal"], passed, "the deal played: {table}");
            firsts.push(
                record["passed_out"]
                    .as_array()
                    .and_then(|p| p.first())
                    .map_or(record["deal"].clone(), |p| p["deal"].clone()),
            );
            assert!(record["bids"].is_array(), "who bid what: {record}");
            let points: Vec<i64> = record["outcome"]["points"]
                .as_array()
                .map_or(vec![0, 0, 0], |a| {
                    a.iter().map(|x| x.as_i64().unwrap()).collect()
                });
            played.push((passed, points));
        }
        assert!(firsts[0]["hands"].is_array(), "{}", firsts[0]);
        assert!(
            firsts.iter().all(|f| *f == firsts[0]),
            "board {} dealt alike",
            b + 1
        );
        for (t, table) in tables.iter().enumerate() {
            for s in 0..3 {
                let (deal, points) = &played[t];
                let mine = points[s];
                let others: Vec<i64> = played
                    .iter()
                    .enumerate()
                    .filter(|(o, (d, _))| *o != t && d == deal)
                    .map(|(_, (_, p))| p[s])
                    .collect();
                let (m, top) = if others.is_empty() {
                    (1, 2)
                } else {
                    let beaten = others.iter().filter(|&&q| q < mine).count() as u64;
                    let tied = others.iter().filter(|&&q| q == mine).count() as u64;
                    (2 * beaten + tied, 2 * others.len() as u64)
                };
                let seat = &table["seats"][s];
                assert_eq!(seat["points"], mine, "{seat}");
                assert_eq!(
                    (seat["matchpoints"].as_u64(), seat["top"].as_u64()),
                    (Some(m), Some(top)),
                    "board {} table {} seat {s}: {seat}",
                    b + 1,
                    t + 1
                );
                let name = seat["user"].as_str().unwrap().to_string();
                if name != COMPUTER {
                    let e = totals.entry(name).or_default();
                    e.0 += m;
                    e.1 += top;
                    e.2 += mine;
                }
            }
        }
    }
    // The standings: by matchpoints (all top alike here), then points.
    let standings = cmp["standings"].as_array().unwrap();
    assert_eq!(standings.len(), totals.len(), "{standings:?}");
    for s in standings {
        let name = s["user"].as_str().unwrap();
        let (m, top, pts) = totals[name];
        assert_eq!(
            (
                s["matchpoints"].as_u64(),
                s["top"].as_u64(),
                s["points"].as_i64()
            ),
            (Some(m), Some(top), Some(pts)),
            "{s}"
        );
        let better = totals
            .values()
            .filter(|e| e.0 * top > m * e.1 || (e.0 * top == m * e.1 && e.2 > pts))
            .count();
        assert_eq!(s["place"], better + 1, "{s}");
        assert_eq!(s["boards"], boards, "{s}");
    }
    held
}

/// Five players at two tables over three boards, the sixth place a
/// computer's (docs/card-events.md, "Tables and seats"), nobody at the
/// tables (托管 plays every hand, fast), and a restart once board 1 is
/// published: every board dealt once per table, the computer compared but
/// not ranked, the comparison and standings as computed by hand.
async fn five_players_and_a_restart(backend: Backend) {
    const FIVE_BOARDS: usize = 3;
    let mut server = common::start_with(backend, |c| {
        c.event_tick_ms = 50;
        c.bot_think_ms = 0;
        c.escape_grace_secs = Some(0.2);
    })
    .await;
    let mut org = organiser(&server, "org").await;
    let mut players = Vec::new();
    for i in 1..=5 {
        players.push(server.register(&format!("five{i}")).await);
    }
    let later = now_ms() + 3_600_000;
    let id = event_with(&org, config_of(FIVE_BOARDS, 20_000, later), &players).await;
    let (status, r) = patch(
        &org,
        &format!("/api/event/{id}"),
        config_of(FIVE_BOARDS, 20_000, now_ms()),
    )
    .await;
    assert_eq!(status, 200, "{r}");

    // Two tables, dealt out position by position; the sixth place (position 2
    // of table 2) the computer's.
    let positions = [["five1", "five3", "five5"], ["five2", "five4", COMPUTER]];
    let ev = wait_for(&org, &format!("/api/event/{id}"), "grouped", |ev| {
        ev["rounds"][0]["tables"]
            .as_array()
            .is_some_and(|t| t.len() == 2)
    })
    .await;
    for (t, want) in positions.iter().enumerate() {
        assert_eq!(ev["rounds"][0]["tables"][t]["players"], json!(want), "{ev}");
    }
    let path = format!("/event/{id}.json");
    wait_for(&org, &path, "board 1 published", |c| {
        c["boards"][0]["published"] == true
    })
    .await;
    server.restart().await;
    org.follow(&server);
    let ev = wait_for(&org, &format!("/api/event/{id}"), "the event ended", |ev| {
        ev["status"] == "finished"
    })
    .await;
    for t in ev["rounds"][0]["tables"].as_array().unwrap() {
        let numbers: Vec<i64> = t["hands"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["hand"].as_i64().unwrap())
            .collect();
        assert_eq!(numbers, vec![1, 2, 3], "each hand dealt once: {t}");
    }
    let (status, cmp) = get_json(&org, &path).await;
    assert_eq!(status, 200, "{cmp}");
    check_boards(&cmp, &positions, FIVE_BOARDS);
    // The CSV names the computer place, once a board.
    let csv = org
        .get(&format!("/event/{id}.csv"))
        .await
        .text()
        .await
        .unwrap();
    assert_eq!(csv.lines().count(), 1 + FIVE_BOARDS * 2 * 3, "{csv}");
    let computer = csv.lines().filter(|l| l.contains(",computer,")).count();
    assert_eq!(computer, FIVE_BOARDS, "{csv}");
}

/// Waits until `path` answers 200 with what `pred` wants.
async fn wait_for(c: &Client, path: &str, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let (status, v) = get_json(c, path).await;
        if status == 200 && pred(&v) {
            return v;
        }
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "{what}: {status} {v}"
        );
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
}

crate::both!(whole, five_players_and_a_restart);
