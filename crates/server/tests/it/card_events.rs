//! A points event (积分赛) of a three-seat game in the hall, on SQLite and
//! PostgreSQL: ten accounts, two qualifying rounds of two hands at tables of
//! three (one player sits out each round: the field is not a multiple of
//! three), elimination after round 1 (打立出局: below the starting chips a
//! player is out), a final of one hand for the top three (定局积分), and a
//! server restart in the middle of round 2. Nobody comes to the tables: the
//! computer plays for every absent player (托管), so the hands are real
//! games played fast. Each round's tables, the eliminations, the final's
//! players and the standings are computed here by hand from the hands'
//! scores as the server shows them, and compared with what it did.
#![cfg(feature = "doudizhu")]

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use qiyuan_testkit::clock::now_ms;
use serde_json::{Value, json};

use crate::common::{self, Backend, Client, TestServer, event, post};

const START: i64 = 1000;
/// The three-seat game: the only one hosted, read from the registry's list.
async fn three_seat_game(c: &Client) -> String {
    let r = c.get("/api/games").await;
    let games: Value = r.json().await.unwrap();
    let list = games
        .as_array()
        .or_else(|| games["games"].as_array())
        .expect("a list of games")
        .clone();
    list.iter()
        .find(|g| g["seats"] == 3)
        .and_then(|g| g["name"].as_str().or_else(|| g["key"].as_str()))
        .expect("a three-seat game")
        .to_string()
}

fn config(game: &str, starts_at: i64) -> Value {
    json!({
        "name": "积分赛 points test",
        "kind": "points",
        "game": game,
        "time": {"kind": "qq", "game": 0, "per_move": 0, "countdown": 20_000},
        "rounds": 2,
        "starts_at": starts_at,
        "schedule": {"kind": "after_previous", "pause_secs": 0.2},
        "cards": {
            "hands_per_round": 2,
            "starting_chips": START,
            "elimination": {"threshold": START, "rise": 0},
            "final": {"players": 3, "hands": 1},
        },
    })
}

/// Waits until `pred` holds of the event (two minutes at most: the hands are
/// played by the computer on a busy machine).
async fn wait(c: &Client, id: &str, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..1200 {
        let ev = event(c, id).await;
        if pred(&ev) {
            return ev;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{what}: not in time\n{:#}", event(c, id).await);
}

fn names(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

fn rank(name: &str) -> i64 {
    name[1..].parse().unwrap()
}

/// Chips by player after the hands of rounds up to `through`, from the
/// event's view; and checks each scored hand is zero-sum and seated as the
/// table turned by one each hand.
fn chips(ev: &Value, through: usize, players: &[String]) -> HashMap<String, i64> {
    let mut c: HashMap<String, i64> = players.iter().map(|p| (p.clone(), START)).collect();
    for r in ev["rounds"].as_array().unwrap().iter().take(through) {
        for t in r["tables"].as_array().unwrap() {
            let seated = names(&t["players"]);
            for h in t["hands"].as_array().unwrap() {
                let n = h["hand"].as_i64().unwrap() as usize;
                let mut turned = seated.clone();
                turned.rotate_left((n - 1) % 3);
                assert_eq!(names(&h["seats"]), turned, "hand {n}'s seats");
                let Some(scores) = h["scores"].as_array() else {
                    continue;
                };
                let scores: Vec<i64> = scores.iter().map(|s| s.as_i64().unwrap()).collect();
                assert_eq!(scores.iter().sum::<i64>(), 0, "a hand is zero-sum: {h}");
                for (p, s) in names(&h["seats"]).iter().zip(&scores) {
                    *c.get_mut(p).unwrap() += s;
                }
            }
        }
    }
    c
}

/// The order by chips, highest first, ties by starting rank.
fn order(of: &[String], c: &HashMap<String, i64>) -> Vec<String> {
    let mut o = of.to_vec();
    o.sort_by_key(|p| (-c[p], rank(p)));
    o
}

fn trio(t: &[String]) -> Vec<String> {
    let mut k = t.to_vec();
    k.sort();
    k
}

/// The grouping rule, by hand: the lowest sit out (fewest sit-outs first),
/// the rest in threes in order, a repeated trio swapped with the next table.
fn expected_tables(
    players: &[String],
    c: &HashMap<String, i64>,
    sat: &HashMap<String, u32>,
    met: &HashSet<Vec<String>>,
) -> (Vec<Vec<String>>, Vec<String>) {
    let mut o = order(players, c);
    let extra = o.len() % 3;
    let mut idx: Vec<usize> = (0..o.len()).collect();
    idx.sort_by_key(|&i| (sat.get(&o[i]).copied().unwrap_or(0), std::cmp::Reverse(i)));
    let mut out: Vec<usize> = idx.into_iter().take(extra).collect();
    out.sort_unstable_by(|a, b| b.cmp(a));
    let mut sitting: Vec<String> = out.iter().map(|&i| o.remove(i)).collect();
    sitting.reverse();
    let mut tables: Vec<Vec<String>> = o.chunks(3).map(|c| c.to_vec()).collect();
    let n = tables.len();
    for i in 0..n {
        if n < 2 || !met.contains(&trio(&tables[i])) {
            continue;
        }
        let j = if i + 1 < n { i + 1 } else { i - 1 };
        'swap: for a in (0..3).rev() {
            for b in 0..3 {
                let (mut ti, mut tj) = (tables[i].clone(), tables[j].clone());
                std::mem::swap(&mut ti[a], &mut tj[b]);
                if !met.contains(&trio(&ti)) && !met.contains(&trio(&tj)) {
                    tables[i] = ti;
                    tables[j] = tj;
                    break 'swap;
                }
            }
        }
    }
    let full = order(players, c);
    for t in &mut tables {
        t.sort_by_key(|p| full.iter().position(|q| q == p));
    }
    (tables, sitting)
}

fn tables_of(round: &Value) -> Vec<Vec<String>> {
    round["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| names(&t["players"]))
        .collect()
}

fn round_done(ev: &Value, n: usize) -> bool {
    ev["rounds"][n - 1]["finished_at"].is_i64()
}

async fn points_event(backend: Backend) {
    let mut server: TestServer = common::start_with(backend, |c| {
        c.event_tick_ms = 50;
        c.bot_think_ms = 0;
        // The computer takes an absent player's seat over at once.
        c.escape_grace_secs = Some(0.2);
    })
    .await;
    let store = server.running.as_ref().unwrap().app.store.clone();
    let mut org = server.register("org").await;
    qiyuan_server::events::grant(&*store, "org", "organiser")
        .await
        .unwrap();
    let game = three_seat_game(&org).await;
    let mut players = Vec::new();
    for i in 1..=10 {
        players.push(server.register(&format!("p{i:02}")).await);
    }
    let all: Vec<String> = players.iter().map(|p| p.name.clone()).collect();

    // The settings are checked: a Swiss event of a three-seat game, a final
    // whose players are no multiple of three, no card settings.
    let later = now_ms() + 3_600_000;
    let mut swiss = config(&game, later);
    swiss["kind"] = json!("swiss");
    swiss.as_object_mut().unwrap().remove("cards");
    let (status, body) = post(&org, "/api/events", swiss).await;
    assert_eq!(status, 400, "{body}");
    assert!(body.to_string().contains("two-player"), "{body}");
    let mut bad = config(&game, later);
    bad["cards"]["final"]["players"] = json!(4);
    let (status, body) = post(&org, "/api/events", bad).await;
    assert_eq!(status, 400, "{body}");
    let mut bad = config(&game, later);
    bad.as_object_mut().unwrap().remove("cards");
    let (status, _) = post(&org, "/api/events", bad).await;
    assert_eq!(status, 400);

    let (status, created) = post(&org, "/api/events", config(&game, later)).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    for p in &players {
        let (status, r) = post(p, &format!("/api/event/{id}/register"), json!({})).await;
        assert_eq!(status, 200, "{r}");
    }
    let mut p01 = players[0].ws().await;
    let (status, body) =
        common::patch(&org, &format!("/api/event/{id}"), config(&game, now_ms())).await;
    assert_eq!(status, 200, "{body}");

    // ---- Round 1: by starting rank; p10, the lowest, sits out. ----
    let ev = wait(&org, &id, "round 1 grouped", |ev| {
        ev["rounds"][0]["tables"]
            .as_array()
            .is_some_and(|t| !t.is_empty())
    })
    .await;
    assert_eq!(ev["config"]["kind"], "points");
    let r1 = tables_of(&ev["rounds"][0]);
    assert_eq!(
        r1,
        vec![
            vec!["p01", "p02", "p03"],
            vec!["p04", "p05", "p06"],
            vec!["p07", "p08", "p09"]
        ]
    );
    // p01 is told where to sit.
    let told = p01.expect("event.round").await;
    assert_eq!(told["d"]["round"], 1);
    assert_eq!(told["d"]["seat"], 0);
    assert!(told["d"]["table"].is_string());
    p01.close().await;
    // The hand being played, as `my-game` finds it for a player.
    let mine: Value = players[0]
        .get("/api/events/my-game")
        .await
        .json()
        .await
        .unwrap();
    if !mine.is_null() {
        assert_eq!(mine["event"], id.as_str());
        assert_eq!(mine["round"], 1);
        assert!(mine["hand"].is_i64() && mine["table"].is_string(), "{mine}");
    }
    // Byes and the TRF file are the Swiss events'.
    let (status, _) = post(
        &players[9],
        &format!("/api/event/{id}/bye"),
        json!({"round": 2, "kind": "half"}),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(org.get(&format!("/event/{id}.trf")).await.status(), 400);

    let ev = wait(&org, &id, "round 1 played", |ev| round_done(ev, 1)).await;
    let c1 = chips(&ev, 1, &all);
    for t in ev["rounds"][0]["tables"].as_array().unwrap() {
        let hands = t["hands"].as_array().unwrap();
        assert_eq!(hands.len(), 2, "two hands at each table: {t}");
        let tables: HashSet<&str> = hands.iter().map(|h| h["table"].as_str().unwrap()).collect();
        assert_eq!(tables.len(), 2, "each hand its own game");
    }
    assert_eq!(c1["p10"], START, "sitting out scores nothing");
    // Eliminated after round 1: below the threshold (at least three stay).
    let by1 = order(&all, &c1);
    let above = by1.iter().filter(|p| c1[*p] >= START).count();
    let in2: Vec<String> = by1.iter().take(above.max(3)).cloned().collect();
    let out1: Vec<String> = by1.iter().skip(above.max(3)).cloned().collect();
    assert!(!out1.is_empty(), "somebody lost chips in round 1: {c1:?}");

    // ---- Round 2: regrouped by chips; a restart in the middle. ----
    let ev = wait(&org, &id, "round 2 started", |ev| {
        ev["rounds"][1]["tables"][0]["hands"]
            .as_array()
            .is_some_and(|h| !h.is_empty())
    })
    .await;
    let met: HashSet<Vec<String>> = r1.iter().map(|t| trio(t)).collect();
    let sat: HashMap<String, u32> = [("p10".to_string(), 1)].into_iter().collect();
    let (want2, sitting2) = expected_tables(&in2, &c1, &sat, &met);
    assert_eq!(tables_of(&ev["rounds"][1]), want2, "round 2's tables");
    let seated2: HashSet<&String> = want2.iter().flatten().collect();
    for p in &out1 {
        assert!(!seated2.contains(p), "{p} was eliminated");
    }
    assert_eq!(sitting2.len(), in2.len() % 3);
    server.restart().await;
    org.follow(&server);
    let ev = wait(&org, &id, "round 2 played after the restart", |ev| {
        round_done(ev, 2)
    })
    .await;
    for t in ev["rounds"][1]["tables"].as_array().unwrap() {
        let hands = t["hands"].as_array().unwrap();
        let numbers: Vec<i64> = hands.iter().map(|h| h["hand"].as_i64().unwrap()).collect();
        assert_eq!(numbers, vec![1, 2], "each hand dealt once: {t}");
        assert!(hands.iter().all(|h| h["scores"].is_array()));
    }
    let c2 = chips(&ev, 2, &all);
    for p in &sitting2 {
        assert_eq!(c2[p], c1[p], "{p} sat out round 2");
    }

    // ---- The final: the top three of round 2's field, one hand. ----
    let by2 = order(&in2, &c2);
    let finalists: Vec<String> = by2.iter().take(3).cloned().collect();
    let ev = wait(&org, &id, "the event finished", |ev| {
        ev["status"] == "finished"
    })
    .await;
    assert_eq!(ev["end"]["reason"], "rounds_played", "{}", ev["end"]);
    let finals = tables_of(&ev["rounds"][2]);
    assert_eq!(finals, vec![finalists.clone()]);
    let hands = ev["rounds"][2]["tables"][0]["hands"].as_array().unwrap();
    assert_eq!(hands.len(), 1);
    let c3 = chips(&ev, 3, &all);

    // ---- The standings, by hand: the final's players first, then the
    // round-2 field, then those out after round 1; by chips, then rank. ----
    let reached = |p: &String| {
        if finalists.contains(p) {
            3
        } else if in2.contains(p) {
            2
        } else {
            1
        }
    };
    let mut want: Vec<String> = all.clone();
    want.sort_by_key(|p| (-reached(p), -c3[p], rank(p)));
    let standings = ev["standings"].as_array().unwrap();
    let got: Vec<String> = standings
        .iter()
        .map(|s| s["user"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(got, want);
    for s in standings {
        let p = s["user"].as_str().unwrap().to_string();
        assert_eq!(s["chips"], c3[&p], "{p}'s chips");
        assert_eq!(s["out"], reached(&p) < 3, "{p} out");
    }
    // In the store: every hand once, each with its scores.
    let hands = store_hands(&server, &id).await;
    let tables1 = 3 * 2;
    let tables2 = want2.len() * 2;
    assert_eq!(hands, tables1 + tables2 + 1);
}

async fn store_hands(server: &TestServer, id: &str) -> usize {
    let store = server.running.as_ref().unwrap().app.store.clone();
    let hands = store.event_hands(id).await.unwrap();
    assert!(
        hands
            .iter()
            .all(|h| h.scores.is_some() && h.table_id.is_some())
    );
    let keys: HashSet<(i64, i64, i64)> = hands.iter().map(|h| (h.round, h.board, h.hand)).collect();
    assert_eq!(keys.len(), hands.len());
    hands.len()
}

crate::both!(points_event);
