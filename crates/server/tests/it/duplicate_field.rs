//! A duplicate event (复式) whose field is not a multiple of 3, through the
//! real server on SQLite and PostgreSQL, with a restart in the middle: five
//! players at two tables over three boards, the sixth place a computer
//! player's (docs/card-events.md, "Tables and seats"). Nobody comes to the
//! tables: the computer plays for every absent player (托管), so the hands are
//! real games played fast. The server restarts once board 1 is published;
//! afterwards every board was dealt once per table, the computer place held
//! its seat of every board by the rotation and is compared but not ranked,
//! and the comparison and standings equal a computation here from the stored
//! records, results grouped by the deal each table played (a table that
//! passed out and played the redeal is compared only with those that did).
#![cfg(feature = "doudizhu")]

use std::collections::HashMap;
use std::time::{Duration, Instant};

use qiyuan_testkit::clock::now_ms;
use serde_json::{Value, json};

use crate::common::{self, Backend, Client, event_with, get_json, organiser, patch};

const BOARDS: usize = 3;

fn config(starts_at: i64) -> Value {
    json!({
        "name": "复式 five",
        "kind": "duplicate",
        "game": "doudizhu",
        "cards": {"hands_per_round": BOARDS},
        "time": {"kind": "qq", "game": 0, "per_move": 0, "countdown": 20_000},
        "rounds": 1,
        "starts_at": starts_at,
        "schedule": {"kind": "after_previous", "pause_secs": 0.2},
    })
}

async fn wait(c: &Client, path: &str, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
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

async fn whole(backend: Backend) {
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
    let id = event_with(&org, config(now_ms() + 3_600_000), &players).await;
    let (status, r) = patch(&org, &format!("/api/event/{id}"), config(now_ms())).await;
    assert_eq!(status, 200, "{r}");

    // Two tables: positions dealt out strongest first, position by position;
    // the sixth place (position 2 of table 2) the computer's.
    let ev = wait(&org, &format!("/api/event/{id}"), "grouped", |ev| {
        ev["rounds"][0]["tables"]
            .as_array()
            .is_some_and(|t| t.len() == 2)
    })
    .await;
    let computer = "bot:basic";
    let positions = [["five1", "five3", "five5"], ["five2", "five4", computer]];
    for (t, want) in positions.iter().enumerate() {
        assert_eq!(
            ev["rounds"][0]["tables"][t]["players"],
            json!(want),
            "table {}: {ev}",
            t + 1
        );
    }

    // Board 1 published at both tables, then a restart.
    let path = format!("/event/{id}.json");
    wait(&org, &path, "board 1 published", |c| {
        c["boards"][0]["published"] == true
    })
    .await;
    server.restart().await;
    org.follow(&server);
    let ev = wait(&org, &format!("/api/event/{id}"), "the event ended", |ev| {
        ev["status"] == "finished"
    })
    .await;

    // Every hand dealt once per table.
    for t in ev["rounds"][0]["tables"].as_array().unwrap() {
        let numbers: Vec<i64> = t["hands"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["hand"].as_i64().unwrap())
            .collect();
        assert_eq!(numbers, vec![1, 2, 3], "{t}");
    }

    let (status, cmp) = get_json(&org, &path).await;
    assert_eq!(status, 200, "{cmp}");
    let boards = cmp["boards"].as_array().unwrap();
    assert_eq!(boards.len(), BOARDS);
    // (matchpoints, top, points) per person, computed here.
    let mut mp: HashMap<String, (u64, u64, i64)> = HashMap::new();
    for (b, board) in boards.iter().enumerate() {
        assert_eq!(board["published"], true, "{board}");
        let tables = board["tables"].as_array().unwrap();
        assert_eq!(tables.len(), 2, "{board}");
        // Per table: the deal played (passed-out deals before it) and points.
        let mut played = Vec::new();
        let mut firsts = Vec::new();
        for (t, table) in tables.iter().enumerate() {
            let record = &table["record"];
            let expect: Vec<&str> = (0..3)
                .map(|s| positions[t][(s + 3 - (t + b) % 3) % 3])
                .collect();
            let names: Vec<String> = record["players"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_str().unwrap().to_string())
                .collect();
            for (s, want) in expect.iter().enumerate() {
                if *want == computer {
                    assert!(names[s].starts_with("电脑"), "board {}: {names:?}", b + 1);
                    assert_eq!(table["seats"][s]["user"], computer, "{table}");
                } else {
                    assert_eq!(names[s], *want, "board {} table {}", b + 1, t + 1);
                }
            }
            let passed = record["passed_out"].as_array().map_or(0, |p| p.len());
            assert_eq!(table["deal"], passed, "the deal played: {table}");
            let first = record["passed_out"]
                .as_array()
                .and_then(|p| p.first())
                .map_or(record["deal"].clone(), |p| p["deal"].clone());
            firsts.push(first);
            let points: Vec<i64> = record["outcome"]["points"]
                .as_array()
                .map_or(vec![0, 0, 0], |a| {
                    a.iter().map(|x| x.as_i64().unwrap()).collect()
                });
            played.push((passed, points));
        }
        assert_eq!(firsts[0], firsts[1], "board {} dealt alike", b + 1);
        for (t, table) in tables.iter().enumerate() {
            for s in 0..3 {
                let (deal, ref points) = played[t];
                let (other_deal, ref other) = played[1 - t];
                let (m, top) = if deal != other_deal {
                    (1, 2)
                } else {
                    let m = match points[s].cmp(&other[s]) {
                        std::cmp::Ordering::Greater => 2,
                        std::cmp::Ordering::Equal => 1,
                        std::cmp::Ordering::Less => 0,
                    };
                    (m, 2)
                };
                let seat = &table["seats"][s];
                assert_eq!(seat["points"], points[s], "{seat}");
                assert_eq!(
                    (seat["matchpoints"].as_u64(), seat["top"].as_u64()),
                    (Some(m), Some(top)),
                    "board {} table {} seat {s}: {seat}",
                    b + 1,
                    t + 1
                );
                let name = seat["user"].as_str().unwrap().to_string();
                if name != computer {
                    let e = mp.entry(name).or_default();
                    e.0 += m;
                    e.1 += top;
                    e.2 += points[s];
                }
            }
        }
    }
    // The standings: the five people, never the computer.
    let standings = cmp["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 5, "{standings:?}");
    for s in standings {
        let name = s["user"].as_str().unwrap();
        let (m, top, pts) = mp[name];
        assert_eq!(
            (
                s["matchpoints"].as_u64(),
                s["top"].as_u64(),
                s["points"].as_i64()
            ),
            (Some(m), Some(top), Some(pts)),
            "{s}"
        );
        assert_eq!(s["boards"], BOARDS, "{s}");
    }
    // The CSV names the computer place.
    let csv = org
        .get(&format!("/event/{id}.csv"))
        .await
        .text()
        .await
        .unwrap();
    assert_eq!(csv.lines().count(), 1 + BOARDS * 2 * 3, "{csv}");
    assert_eq!(
        csv.lines().filter(|l| l.contains(",computer,")).count(),
        BOARDS,
        "{csv}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn five_players_and_a_restart_sqlite() {
    whole(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn five_players_and_a_restart_postgres() {
    whole(Backend::Postgres).await;
}
