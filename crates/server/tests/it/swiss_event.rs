//! A whole Swiss event in the hall through real sockets, on SQLite and
//! PostgreSQL: ten accounts over five rounds with a requested bye, a no-show
//! lost by forfeit, both players of a board absent, a player arriving in time
//! (with the time they lost gone from their clock), a late entry, a warning,
//! three fouls losing a game, a withdrawal, a restart of the server in the
//! middle of a round, a pairing-allocated bye, a disqualification, three
//! violations losing a game; the final standings and tiebreaks are computed
//! by hand here from the games as played and compared with the server's, and
//! the TRF taken between two rounds pairs the next round exactly as the
//! server did. And the roles: only the event's arbiters act, only its
//! organiser changes it.

use std::collections::HashMap;
use std::time::Duration;

use qiyuan_testkit::clock::now_ms;
use serde_json::{Value, json};

use crate::common::{self, Backend, Client, TestServer, Ws, event, events_of, patch, post};

const FORFEIT_MS: i64 = 2000;

fn config(starts_at: i64) -> Value {
    json!({
        "name": "Swiss test 瑞士制",
        "game": "chess",
        "time": {"kind": "fischer", "base": 60000, "increment": 0},
        "rounds": 5,
        "starts_at": starts_at,
        "schedule": {"kind": "after_previous", "pause_secs": 1.0},
        "late_entry_until_round": 3,
        "forfeit_secs": FORFEIT_MS as f64 / 1000.0,
    })
}

/// Waits until round `n` is paired and its tables are set up.
async fn wait_round(c: &Client, id: &str, n: usize) -> Value {
    for _ in 0..400 {
        let ev = event(c, id).await;
        if let Some(r) = ev["rounds"].as_array().and_then(|r| r.get(n - 1)) {
            let ready = r["games"]
                .as_array()
                .unwrap()
                .iter()
                .all(|g| g["black"].is_null() || g["table"].is_string());
            if ready {
                return r.clone();
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("round {n} was not paired");
}

/// Waits until board `board` of `round` has a result.
async fn wait_result(c: &Client, id: &str, round: usize, board: usize) -> (String, String) {
    for _ in 0..200 {
        let ev = event(c, id).await;
        let g = &ev["rounds"][round - 1]["games"][board - 1];
        if let (Some(w), Some(b)) = (g["white_result"].as_str(), g["black_result"].as_str()) {
            return (w.to_string(), b.to_string());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("board {board} of round {round} has no result");
}

struct Board {
    board: usize,
    white: String,
    black: String,
    table: String,
}

fn boards(round: &Value) -> Vec<Board> {
    round["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| !g["black"].is_null())
        .map(|g| Board {
            board: g["board"].as_u64().unwrap() as usize,
            white: g["white"].as_str().unwrap().to_string(),
            black: g["black"].as_str().unwrap().to_string(),
            table: g["table"].as_str().unwrap().to_string(),
        })
        .collect()
}

fn rank(name: &str) -> u32 {
    name[1..].parse().unwrap()
}

/// How the players decide a game: the lower starting rank wins, except that
/// ranks summing to a multiple of five draw.
fn script(white: &str, black: &str) -> &'static str {
    let (w, b) = (rank(white), rank(black));
    if (w + b) % 5 == 0 {
        "draw"
    } else if w < b {
        "white"
    } else {
        "black"
    }
}

struct Hall {
    ws: HashMap<String, Ws>,
}

impl Hall {
    fn ws(&mut self, name: &str) -> &mut Ws {
        self.ws.get_mut(name).unwrap()
    }

    /// Watches a table; its `sync`.
    async fn watch(&mut self, name: &str, table: &str) -> Value {
        let ws = self.ws(name);
        ws.send("watch", json!({"table": table})).await;
        ws.expect("sync").await
    }

    async fn open(&mut self, b: &Board) {
        self.ws(&b.white)
            .ok("move", json!({"table": b.table, "action": "e2e4"}))
            .await;
        self.ws(&b.black)
            .ok("move", json!({"table": b.table, "action": "e7e5"}))
            .await;
    }

    /// Ends a game whose both players have moved, as the script says.
    async fn finish(&mut self, b: &Board) {
        match script(&b.white, &b.black) {
            "draw" => {
                self.ws(&b.black)
                    .ok("draw.offer", json!({"table": b.table}))
                    .await;
                self.ws(&b.white)
                    .ok("draw.accept", json!({"table": b.table}))
                    .await;
            }
            "white" => {
                self.ws(&b.black)
                    .ok("resign", json!({"table": b.table}))
                    .await;
            }
            _ => {
                self.ws(&b.white)
                    .ok("resign", json!({"table": b.table}))
                    .await;
            }
        }
    }

    async fn play(&mut self, b: &Board) {
        self.watch(&b.white, &b.table).await;
        self.watch(&b.black, &b.table).await;
        self.open(b).await;
        self.finish(b).await;
    }
}

async fn act(arb: &Client, id: &str, kind: &str, player: &str, reason: &str) -> Value {
    let (status, body) = post(
        arb,
        &format!("/api/event/{id}/action"),
        json!({"kind": kind, "player": player, "reason": reason}),
    )
    .await;
    assert_eq!(status, 200, "{kind} on {player}: {body}");
    body
}

/// Waits for an `event.action` of `kind` on a socket.
async fn heard(ws: &mut Ws, kind: &str) -> Value {
    loop {
        let m = ws.expect("event.action").await;
        if m["d"]["kind"] == kind {
            return m;
        }
    }
}

/// Reads until the table `table` ends its game; the batch.
async fn ended(ws: &mut Ws, table: &str) -> Value {
    loop {
        let v = ws.recv().await;
        if v["t"] == "event" && v["d"]["table"] == table && common::has_event(&v, "ended") {
            return v;
        }
    }
}

/// Points in tenths of a TRF result.
fn points(result: &str) -> u32 {
    match result {
        "1" | "+" | "U" | "F" => 10,
        "=" | "H" => 5,
        _ => 0,
    }
}

/// The standings as the seed's tiebreaks give them, by hand: Buchholz with
/// every unplayed round counted against a dummy of one's own final score and
/// a withdrawn or disqualified opponent's later rounds as draws (C.07, 2023),
/// progressive score, direct encounter's place among players still tied,
/// wins (byes and forfeits included).
fn hand_standings(ev: &Value) -> Vec<(String, u32, u32, u32, u32, u32)> {
    let names: Vec<String> = ev["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["user"].as_str().unwrap().to_string())
        .collect();
    // Per player, per round: (opponent, result).
    let mut rounds: HashMap<String, Vec<(Option<String>, String)>> = names
        .iter()
        .map(|n| (n.clone(), vec![(None, String::new()); 5]))
        .collect();
    for (r, round) in ev["rounds"].as_array().unwrap().iter().enumerate() {
        for g in round["games"].as_array().unwrap() {
            let w = g["white"].as_str().unwrap().to_string();
            let wr = g["white_result"].as_str().unwrap().to_string();
            match g["black"].as_str() {
                None => rounds.get_mut(&w).unwrap()[r] = (None, wr),
                Some(b) => {
                    let br = g["black_result"].as_str().unwrap().to_string();
                    rounds.get_mut(&w).unwrap()[r] = (Some(b.to_string()), wr);
                    rounds.get_mut(b).unwrap()[r] = (Some(w.clone()), br);
                }
            }
        }
        for bye in round["byes"].as_array().unwrap() {
            let u = bye["user"].as_str().unwrap();
            rounds.get_mut(u).unwrap()[r] = (None, bye["kind"].as_str().unwrap().to_string());
        }
    }
    let played = |e: &(Option<String>, String)| e.0.is_some() && ["1", "=", "0"].contains(&&*e.1);
    let score: HashMap<&String, u32> = names
        .iter()
        .map(|n| (n, rounds[n].iter().map(|e| points(&e.1)).sum()))
        .collect();
    // An opponent's score as Buchholz sees it (C.07 2023, 16.3.2): the rounds
    // after their last round that was not a voluntary unplayed one (a game,
    // a forfeit win, the bye), without an opponent, count as draws.
    let voluntary = |e: &(Option<String>, String)| !played(e) && points(&e.1) < 10;
    let adjusted: HashMap<&String, u32> = names
        .iter()
        .map(|n| {
            let rs = &rounds[n];
            let last = rs.iter().rposition(|e| !voluntary(e)).map_or(0, |i| i + 1);
            let adj = rs
                .iter()
                .enumerate()
                .map(|(i, e)| {
                    if i < last || e.0.is_some() {
                        points(&e.1)
                    } else {
                        5
                    }
                })
                .sum();
            (n, adj)
        })
        .collect();
    let mut rows: Vec<(String, u32, u32, u32, u32, u32)> = names
        .iter()
        .map(|n| {
            let own = score[n];
            // Hundredths, as the server shows points.
            let bh: u32 = rounds[n]
                .iter()
                .map(|e| {
                    if played(e) {
                        adjusted[e.0.as_ref().unwrap()] * 10
                    } else {
                        own * 10
                    }
                })
                .sum();
            let mut running = 0;
            let mut ps = 0;
            for e in &rounds[n] {
                running += points(&e.1);
                ps += running * 10;
            }
            let wins = rounds[n]
                .iter()
                .filter(|e| ["1", "+", "U", "F"].contains(&&*e.1))
                .count() as u32;
            (n.clone(), own, bh, ps, 0, wins)
        })
        .collect();
    // Direct encounter within groups tied on score, Buchholz and progressive:
    // the place in the group (1 the best; 0 when nobody is separated). When
    // all have met, by the points among them; when not, one is ahead of the
    // rest only with more points than any of them could have had winning
    // the games they did not play.
    let keys: Vec<(u32, u32, u32)> = rows.iter().map(|r| (r.1, r.2, r.3)).collect();
    let mut places = vec![0; rows.len()];
    for i in 0..rows.len() {
        let group: Vec<usize> = (0..rows.len()).filter(|&j| keys[j] == keys[i]).collect();
        if group.len() < 2 || group[0] != i {
            continue;
        }
        let members: Vec<&String> = group.iter().map(|&j| &rows[j].0).collect();
        // (points among them, opponents among them met), per member.
        let among: Vec<(u32, u32)> = members
            .iter()
            .map(|a| {
                let games: Vec<_> = rounds[*a]
                    .iter()
                    .filter(|e| played(e) && members.contains(&e.0.as_ref().unwrap()))
                    .collect();
                (games.iter().map(|e| points(&e.1)).sum(), games.len() as u32)
            })
            .collect();
        let others = members.len() as u32 - 1;
        let all_met = among.iter().all(|m| m.1 == others);
        let most = |k: usize| among[k].0 + (others - among[k].1) * 10;
        let mut order: Vec<usize> = (0..members.len()).collect();
        order.sort_by(|&a, &b| {
            among[b]
                .0
                .cmp(&among[a].0)
                .then(most(b).cmp(&most(a)))
                .then(rank(members[a]).cmp(&rank(members[b])))
        });
        let mut place = vec![1u32; members.len()];
        let mut current = 1;
        let mut separate = true;
        for k in 1..order.len() {
            let before = among[order[k - 1]].0;
            let moved = if all_met {
                before != among[order[k]].0
            } else {
                separate && order[k..].iter().all(|&j| before > most(j))
            };
            if moved {
                current = k as u32 + 1;
            } else if !all_met {
                separate = false;
            }
            place[order[k]] = current;
        }
        if place.iter().all(|&p| p == 1) {
            continue;
        }
        for (k, &j) in group.iter().enumerate() {
            places[j] = place[k];
        }
    }
    for (row, place) in rows.iter_mut().zip(places) {
        row.4 = place;
    }
    // A direct-encounter place ranks lower-first.
    rows.sort_by(|a, b| {
        (b.1, b.2, b.3, a.4, b.5)
            .cmp(&(a.1, a.2, a.3, b.4, a.5))
            .then(rank(&a.0).cmp(&rank(&b.0)))
    });
    rows
}

async fn whole_event(backend: Backend) {
    let mut server: TestServer = common::start_with(backend, |c| c.event_tick_ms = 50).await;
    let store = server.running.as_ref().unwrap().app.store.clone();
    let mut org = server.register("org").await;
    let mut arb = server.register("arb").await;
    qiyuan_server::events::grant(&*store, "org", "organiser")
        .await
        .unwrap();
    qiyuan_server::events::grant(&*store, "arb", "arbiter")
        .await
        .unwrap();
    let mut players = Vec::new();
    for i in 1..=10 {
        players.push(server.register(&format!("p{i:02}")).await);
    }
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
    for p in &players[..9] {
        let (status, r) = post(p, &format!("/api/event/{id}/register"), json!({})).await;
        assert_eq!(status, 200, "{r}");
        assert_eq!(r["joined_round"], 1);
    }
    // p10 comes too late for round 1: registration before the start is for
    // the nine; p08 asks for a half-point bye in round 1.
    let (status, _) = post(
        &players[7],
        &format!("/api/event/{id}/bye"),
        json!({"round": 1, "kind": "half"}),
    )
    .await;
    assert_eq!(status, 200);
    let mut hall = Hall { ws: HashMap::new() };
    for p in &players {
        hall.ws.insert(p.name.clone(), p.ws().await);
    }
    // The organiser starts it now.
    let (status, body) = patch(&org, &format!("/api/event/{id}"), config(now_ms())).await;
    assert_eq!(status, 200, "{body}");

    // ---- Round 1: eight players on four boards (p08's bye). ----
    let r1 = wait_round(&org, &id, 1).await;
    let b1 = boards(&r1);
    assert_eq!(b1.len(), 4);
    assert!(b1.iter().all(|b| b.white != "p08" && b.black != "p08"));
    assert_eq!(r1["byes"], json!([{"user": "p08", "kind": "H"}]));
    let starts_at = r1["starts_at"].as_i64().unwrap();
    // The players were told, with their table and seat.
    let told = hall.ws(&b1[0].white).expect("event.round").await;
    assert_eq!(told["d"]["table"], b1[0].table.as_str());
    assert_eq!(told["d"]["seat"], 0);
    assert_eq!(told["d"]["opponent"], b1[0].black.as_str());
    // p10 enters late, for round 2.
    let (status, r) = post(&players[9], &format!("/api/event/{id}/register"), json!({})).await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["joined_round"], 2);
    // Board 1 both come; board 2 Black comes, White is late; board 3 Black
    // never comes; board 4 nobody comes.
    hall.watch(&b1[0].white, &b1[0].table).await;
    hall.watch(&b1[0].black, &b1[0].table).await;
    let synced = hall.watch(&b1[1].black, &b1[1].table).await;
    hall.watch(&b1[2].white, &b1[2].table).await;
    // When White's clock started, by the server's clock: the game's start, a
    // moment after the round's (later on a busy machine).
    let clock = &synced["d"]["state"]["game"]["clock"];
    let white_started =
        clock["at"].as_i64().unwrap() - (60_000 - clock["seats"][0]["main"].as_i64().unwrap());
    let late_by = 1_200;
    // Meanwhile the late player's client answers the server's pings, as a
    // browser does, so that its measured lag (which the clock forgives within
    // its quota) is its network's: none here.
    let until = starts_at + late_by;
    while now_ms() < until {
        let wait = Duration::from_millis((until - now_ms()).max(1) as u64);
        let _ = tokio::time::timeout(wait, hall.ws(&b1[1].white).recv()).await;
    }
    hall.watch(&b1[1].white, &b1[1].table).await;
    hall.ws(&b1[1].white)
        .ok("move", json!({"table": b1[1].table, "action": "e2e4"}))
        .await;
    let ws = hall.ws(&b1[1].white);
    if events_of(&ws.seen, "acted").is_empty() {
        ws.event("acted").await;
    }
    let acted = &events_of(&ws.seen, "acted")[0];
    let left = acted["clock"]["seats"][0]["main"].as_i64().unwrap();
    let moved_at = acted["clock"]["at"].as_i64().unwrap();
    assert!(
        white_started < until,
        "the game started before the late player came ({white_started}, round {starts_at}, came {until})"
    );
    assert!(
        // The clock ran from the game's start while the player was away (it
        // forgives the move's measured lag within its quota: a busy machine's
        // round trips).
        60_000 - left >= moved_at - white_started - 600,
        "the late player's clock ran from the game's start at {white_started} \
         (the round's {starts_at}): {left} ms left at {moved_at}"
    );
    assert!(left > 60_000 - FORFEIT_MS, "{left}");
    // Past the forfeit time: board 3's Black lost by forfeit, board 4 both.
    tokio::time::sleep(Duration::from_millis(
        (starts_at + FORFEIT_MS + 400 - now_ms()).max(0) as u64,
    ))
    .await;
    assert_eq!(
        wait_result(&org, &id, 1, b1[2].board).await,
        ("+".to_string(), "-".to_string())
    );
    assert_eq!(
        wait_result(&org, &id, 1, b1[3].board).await,
        ("-".to_string(), "-".to_string())
    );
    // The late player arrived in time and plays on.
    hall.ws(&b1[1].black)
        .ok("move", json!({"table": b1[1].table, "action": "e7e5"}))
        .await;
    hall.finish(&b1[1]).await;
    hall.open(&b1[0]).await;
    hall.finish(&b1[0]).await;

    // ---- Round 2: ten players; a warning, three fouls, a withdrawal. ----
    let r2 = wait_round(&org, &id, 2).await;
    let b2 = boards(&r2);
    assert_eq!(b2.len(), 5);
    for b in &b2 {
        hall.watch(&b.white, &b.table).await;
        hall.watch(&b.black, &b.table).await;
        hall.open(b).await;
    }
    for _ in 0..3 {
        act(
            &arb,
            &id,
            "foul",
            &b2[0].black,
            "touched a piece and moved another (摸子)",
        )
        .await;
    }
    let ws = hall.ws(&b2[0].white);
    let ended_batch = ended(ws, &b2[0].table).await;
    let fouls = events_of(&ws.seen, "fouled");
    assert_eq!(fouls.len(), 3, "both players see each foul");
    assert_eq!(
        fouls[2]["reason"],
        "touched a piece and moved another (摸子)"
    );
    let fouls = fouls.len();
    // The fouls, with their reasons and times, stay in the game's log.
    let log: Value = org
        .get(&format!("/api/game/{}/log", b2[0].table))
        .await
        .json()
        .await
        .unwrap();
    let logged: Vec<&Value> = log["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["command"]["type"] == "foul")
        .collect();
    assert_eq!(logged.len(), fouls);
    assert!(
        logged
            .iter()
            .all(|e| e["at"].is_i64() && e["command"]["reason"].is_string())
    );
    let end = events_of(std::slice::from_ref(&ended_batch), "ended")[0];
    assert_eq!(end["outcome"]["reason"], "fouls");
    heard(hall.ws(&b2[0].black), "foul").await;
    assert_eq!(
        wait_result(&org, &id, 2, b2[0].board).await,
        ("1".to_string(), "0".to_string())
    );
    act(&arb, &id, "warning", &b2[1].white, "spoke to a spectator").await;
    for name in [&b2[1].white, &b2[1].black] {
        let ws = hall.ws(name);
        let m = heard(ws, "warning").await;
        assert_eq!(m["d"]["reason"], "spoke to a spectator");
        if events_of(&ws.seen, "warned").is_empty() {
            ws.event("warned").await;
        }
    }
    let (status, _) = post(&players[4], &format!("/api/event/{id}/withdraw"), json!({})).await;
    assert_eq!(status, 200);
    for b in &b2[1..] {
        hall.finish(b).await;
    }

    // ---- Round 3: nine players (p05 withdrew): a pairing bye; a restart. ----
    let r3 = wait_round(&org, &id, 3).await;
    let b3 = boards(&r3);
    assert_eq!(b3.len(), 4);
    assert!(b3.iter().all(|b| b.white != "p05" && b.black != "p05"));
    let bye3: Vec<&Value> = r3["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["black"].is_null())
        .collect();
    assert_eq!(bye3.len(), 1);
    assert_eq!(bye3[0]["white_result"], "U");
    let starts_at = r3["starts_at"].as_i64().unwrap();
    for b in &b3 {
        hall.watch(&b.white, &b.table).await;
        hall.watch(&b.black, &b.table).await;
        hall.open(b).await;
    }
    tokio::time::sleep(Duration::from_millis(
        (starts_at + FORFEIT_MS + 300 - now_ms()).max(0) as u64,
    ))
    .await;
    for (_, ws) in hall.ws.drain() {
        ws.close().await;
    }
    server.restart().await;
    for c in players.iter_mut().chain([&mut org, &mut arb]) {
        c.follow(&server);
    }
    for p in &players {
        hall.ws.insert(p.name.clone(), p.ws().await);
    }
    for b in &b3 {
        hall.watch(&b.white, &b.table).await;
        hall.watch(&b.black, &b.table).await;
        hall.finish(b).await;
    }
    // Between rounds 3 and 4 (a pause of a second): the TRF now.
    let mut trf = String::new();
    let mut exported = String::new();
    for _ in 0..100 {
        let ev = event(&org, &id).await;
        let done = ev["rounds"][2]["finished_at"].is_i64();
        if done {
            let r = org.get(&format!("/event/{id}.trf")).await;
            assert_eq!(r.status(), 200);
            trf = r.text().await.unwrap();
            exported = qiyuan_server::events::export_trf(
                &*server.running.as_ref().unwrap().app.store,
                &id,
            )
            .await
            .unwrap();
            let after = event(&org, &id).await;
            assert_eq!(
                after["rounds"].as_array().unwrap().len(),
                3,
                "taken before round 4"
            );
            break;
        }
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
    assert!(!trf.is_empty(), "round 3 ended");
    assert_eq!(
        exported, trf,
        "qiyuan swiss export writes what the server serves"
    );

    // ---- Round 4: the TRF pairs it; a disqualification, three violations. ----
    let r4 = wait_round(&org, &id, 4).await;
    let t = qiyuan_swiss::trf::parse(&trf).unwrap();
    let pairing = qiyuan_swiss::pair(&t).unwrap();
    let name_of = |rank: u32| format!("p{rank:02}");
    let mut expected: Vec<(String, Option<String>)> = pairing
        .games
        .iter()
        .map(|(w, b)| (name_of(*w), Some(name_of(*b))))
        .collect();
    expected.extend(pairing.bye.map(|p| (name_of(p), None)));
    let got: Vec<(String, Option<String>)> = r4["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["white"].as_str().unwrap().to_string(),
                g["black"].as_str().map(str::to_string),
            )
        })
        .collect();
    assert_eq!(
        got, expected,
        "the exported TRF re-pairs round 4 as the server did"
    );
    let b4 = boards(&r4);
    for b in &b4 {
        hall.watch(&b.white, &b.table).await;
        hall.watch(&b.black, &b.table).await;
        hall.open(b).await;
    }
    let dq = b4[0].white.clone();
    act(
        &arb,
        &id,
        "disqualify",
        &dq,
        "used an engine during the game (取消比赛资格)",
    )
    .await;
    heard(hall.ws(&b4[0].black), "disqualify").await;
    // Moves were made: the game is lost as played (FIDE), not by forfeit.
    assert_eq!(
        wait_result(&org, &id, 4, b4[0].board).await,
        ("0".to_string(), "1".to_string())
    );
    for _ in 0..3 {
        act(
            &arb,
            &id,
            "violation",
            &b4[1].black,
            "offered a draw twice in a row (连续提和)",
        )
        .await;
    }
    let ws = hall.ws(&b4[1].white);
    let end = ended(ws, &b4[1].table).await;
    assert_eq!(events_of(&ws.seen, "violated").len(), 3);
    // A readable reason: three violations, not fouls.
    let end = events_of(std::slice::from_ref(&end), "ended")[0].clone();
    assert_eq!(end["outcome"]["reason"], "violations", "{end}");
    assert_eq!(
        wait_result(&org, &id, 4, b4[1].board).await,
        ("1".to_string(), "0".to_string())
    );
    for b in &b4[2..] {
        hall.finish(b).await;
    }

    // ---- Round 5: without the withdrawn and the disqualified. ----
    let r5 = wait_round(&org, &id, 5).await;
    let b5 = boards(&r5);
    for b in &b5 {
        assert!(![&b.white, &b.black].contains(&&dq) && b.white != "p05" && b.black != "p05");
        hall.play(b).await;
    }
    let mut ev = Value::Null;
    for _ in 0..200 {
        ev = event(&org, &id).await;
        if ev["status"] == "finished" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(ev["status"], "finished");

    // ---- The standings against the hand computation. ----
    let hand = hand_standings(&ev);
    let served: Vec<(String, u32, u32, u32, u32, u32)> = ev["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let tb = |i: usize| {
                let v = s["tiebreaks"][i]["value"].as_f64().unwrap();
                if i >= 2 {
                    v as u32
                } else {
                    (v * 100.0).round() as u32
                }
            };
            assert_eq!(
                s["tiebreaks"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| t["code"].as_str().unwrap())
                    .collect::<Vec<_>>(),
                ["BH", "PS", "DE", "WIN"]
            );
            (
                s["user"].as_str().unwrap().to_string(),
                (s["score"].as_f64().unwrap() * 10.0).round() as u32,
                tb(0),
                tb(1),
                tb(2),
                tb(3),
            )
        })
        .collect();
    assert_eq!(served, hand, "standings and tiebreaks as computed by hand");
    // The report: every action with its reason.
    let kinds: Vec<&str> = ev["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["kind"].as_str().unwrap())
        .collect();
    for (kind, n) in [
        ("forfeit", 3),
        ("foul", 3),
        ("warning", 1),
        ("disqualify", 1),
        ("violation", 3),
    ] {
        assert_eq!(
            kinds.iter().filter(|k| **k == kind).count(),
            n,
            "{kind}: {kinds:?}"
        );
    }
    assert!(
        ev["actions"]
            .as_array()
            .unwrap()
            .iter()
            .all(|a| a["reason"].as_str().is_some_and(|r| !r.is_empty()))
    );
    let p05 = ev["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["user"] == "p05")
        .unwrap();
    assert_eq!(p05["withdrawn"], true);
    let dqp = ev["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["user"] == dq.as_str())
        .unwrap();
    assert_eq!(dqp["disqualified"], true);
    assert_eq!(ev["crosstable"].as_array().unwrap().len(), 10);
}

async fn roles(backend: Backend) {
    let server = common::start_with(backend, |c| c.event_tick_ms = 50).await;
    let store = server.running.as_ref().unwrap().app.store.clone();
    let org = server.register("org").await;
    let org2 = server.register("org2").await;
    let arb = server.register("arb").await;
    let arb2 = server.register("arb2").await;
    let nobody = server.register("nobody").await;
    for (u, r) in [
        ("org", "organiser"),
        ("org2", "organiser"),
        ("arb", "arbiter"),
        ("arb2", "arbiter"),
    ] {
        qiyuan_server::events::grant(&*store, u, r).await.unwrap();
    }
    let (status, body) = post(&nobody, "/api/events", config(now_ms() + 3_600_000)).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (403, Some("not_organiser"))
    );
    let (status, created) = post(&org, "/api/events", config(now_ms() + 3_600_000)).await;
    assert_eq!(status, 201);
    let id = created["id"].as_str().unwrap();
    // Nobody but the organiser changes the event or names its arbiters.
    for c in [&org2, &arb, &nobody] {
        let (status, body) = patch(c, &format!("/api/event/{id}"), config(now_ms())).await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (403, Some("not_organiser"))
        );
        let (status, _) = post(
            c,
            &format!("/api/event/{id}/arbiters"),
            json!({"user": "arb"}),
        )
        .await;
        assert_eq!(status, 403);
    }
    // An account without the arbiter role cannot be named.
    let (status, _) = post(
        &org,
        &format!("/api/event/{id}/arbiters"),
        json!({"user": "nobody"}),
    )
    .await;
    assert_eq!(status, 400);
    let (status, _) = post(
        &org,
        &format!("/api/event/{id}/arbiters"),
        json!({"user": "arb"}),
    )
    .await;
    assert_eq!(status, 200);
    let (status, _) = post(&nobody, &format!("/api/event/{id}/register"), json!({})).await;
    assert_eq!(status, 200);
    // Nobody but an arbiter of the event acts: not the organiser, not an
    // arbiter of no event here, not a player.
    for c in [&org, &arb2, &nobody, &org2] {
        for kind in [
            "warning",
            "foul",
            "violation",
            "forfeit",
            "disqualify",
            "adjudicate",
        ] {
            let (status, body) = post(
                c,
                &format!("/api/event/{id}/action"),
                json!({"kind": kind, "player": "nobody", "reason": "x", "result": "1-0"}),
            )
            .await;
            assert_eq!(
                (status, body["error"]["code"].as_str()),
                (403, Some("not_arbiter")),
                "{kind}"
            );
        }
    }
    let ev = event(&org, id).await;
    assert_eq!(ev["players"][0]["disqualified"], false);
    // The event's arbiter may: disqualifying needs no game.
    let (status, body) = post(
        &arb,
        &format!("/api/event/{id}/action"),
        json!({"kind": "disqualify", "player": "nobody", "reason": "abusive language"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let ev = event(&org, id).await;
    assert_eq!(ev["players"][0]["disqualified"], true);
    assert_eq!(ev["actions"][0]["arbiter"], "arb");
    // Unauthenticated: nothing.
    let anon = reqwest::Client::new()
        .post(format!("{}/api/event/{id}/action", server.base))
        .json(&json!({"kind": "warning", "player": "nobody", "reason": "x"}))
        .send()
        .await
        .unwrap();
    assert!(
        [401, 403].contains(&anon.status().as_u16()),
        "{}",
        anon.status()
    );

    // The operator's basics: only an admin bans or closes a table.
    let (status, body) = post(
        &nobody,
        "/api/admin/role",
        json!({"user": "arb2", "role": "banned"}),
    )
    .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (403, Some("not_admin"))
    );
    qiyuan_server::events::grant(&*store, "org2", "admin")
        .await
        .unwrap();
    let (status, body) = post(
        &org2,
        "/api/admin/role",
        json!({"user": "arb2", "role": "banned"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert!(body["roles"].as_array().unwrap().contains(&json!("banned")));
    assert_eq!(
        arb2.get("/api/account/me").await.status(),
        401,
        "the ban ended its sessions"
    );
    let login = reqwest::Client::new()
        .post(format!("{}/api/account/login", server.base))
        .json(&json!({"username": "arb2", "password": "secret-pw"}))
        .send()
        .await
        .unwrap();
    assert_eq!(login.status(), 403);
    let (status, body) = post(
        &org2,
        "/api/admin/role",
        json!({"user": "arb2", "role": "admin"}),
    )
    .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (400, Some("bad_role"))
    );
    let (status, table) = post(&nobody, "/api/tables", json!({"game": "chess"})).await;
    assert_eq!(status, 201, "{table}");
    let table = table["table"].as_str().unwrap();
    let (status, _) = post(
        &nobody,
        &format!("/api/admin/table/{table}/close"),
        json!({}),
    )
    .await;
    assert_eq!(status, 403);
    let (status, body) = post(&org2, &format!("/api/admin/table/{table}/close"), json!({})).await;
    assert_eq!((status, &body["closed"]), (200, &json!(true)), "{body}");
    assert!(!store.table(table).await.unwrap().unwrap().open);
}

async fn register(c: &Client, id: &str) -> (u16, Value) {
    post(c, &format!("/api/event/{id}/register"), json!({})).await
}

async fn entry_rules(backend: Backend) {
    let server = common::start_with(backend, |c| c.event_tick_ms = 50).await;
    let store = server.running.as_ref().unwrap().app.store.clone();
    let org = server.register("org").await;
    let ann = server.register("ann").await;
    let guest = server.guest().await;
    qiyuan_server::events::grant(&*store, "org", "organiser")
        .await
        .unwrap();
    let later = now_ms() + 3_600_000;
    let create = |extra: Value| {
        let mut c = config(later);
        for (k, v) in extra.as_object().unwrap() {
            c[k] = v.clone();
        }
        c
    };
    // Settings the hall cannot run are refused.
    for (extra, code) in [
        (json!({"game": "doudizhu"}), "bad_event"),
        (json!({"game": "nosuchgame"}), "bad_event"),
        (json!({"rounds": 0}), "bad_event"),
        (json!({"tiebreaks": ["bh", "nonsense"]}), "bad_event"),
        (json!({"forfeit_secs": -1.0}), "bad_event"),
        (json!({"forfeit_secs": 1e300}), "bad_event"),
        (
            json!({"schedule": {"kind": "after_previous", "pause_secs": 1e300}}),
            "bad_event",
        ),
        (
            json!({"schedule": {"kind": "fixed", "times": [1, 2, 3, 4, 5, 6]}}),
            "bad_event",
        ),
        (json!({"name": ""}), "bad_event"),
        (
            json!({"time": {"kind": "fischer", "base": 0, "increment": 0}}),
            "bad_settings",
        ),
    ] {
        let (status, body) = post(&org, "/api/events", create(extra.clone())).await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (400, Some(code)),
            "{extra}"
        );
    }
    let make = |extra: Value| {
        let org = &org;
        let body = create(extra);
        async move {
            let (status, body) = post(org, "/api/events", body).await;
            assert_eq!(status, 201, "{body}");
            body["id"].as_str().unwrap().to_string()
        }
    };
    let code = |r: (u16, Value)| (r.0, r.1["error"]["code"].as_str().map(str::to_string));
    // Invitation.
    let id = make(json!({"entry": {"kind": "invitation", "users": ["bob"]}})).await;
    assert_eq!(
        code(register(&ann, &id).await),
        (403, Some("not_invited".into()))
    );
    // Rating range: a new account has 1500.
    let id = make(json!({"entry": {"kind": "rating", "min": 1600}})).await;
    assert_eq!(
        code(register(&ann, &id).await),
        (403, Some("rating_out_of_range".into()))
    );
    let id = make(json!({"entry": {"kind": "rating", "min": 1400, "max": 1600}})).await;
    assert_eq!(register(&ann, &id).await.0, 200);
    assert_eq!(
        code(register(&ann, &id).await),
        (409, Some("already_registered".into()))
    );
    assert_eq!(
        code(register(&guest, &id).await),
        (403, Some("guest".into()))
    );
    // Byes: half or zero, for a round not yet paired.
    for (body, status) in [
        (json!({"round": 0, "kind": "half"}), 400),
        (json!({"round": 6, "kind": "half"}), 400),
        (json!({"round": 2, "kind": "full"}), 400),
        (json!({"round": 2, "kind": "zero"}), 200),
    ] {
        assert_eq!(
            post(&ann, &format!("/api/event/{id}/bye"), body.clone())
                .await
                .0,
            status,
            "{body}"
        );
    }
    // The registration window.
    let id = make(json!({"registration_closes": now_ms() - 1000})).await;
    assert_eq!(
        code(register(&ann, &id).await),
        (409, Some("registration_closed".into()))
    );
    let id = make(json!({"registration_opens": later - 1000})).await;
    assert_eq!(
        code(register(&ann, &id).await),
        (409, Some("registration_closed".into()))
    );
    // Once it runs, settings stay but the name and the schedule.
    let id = make(json!({})).await;
    let start = now_ms();
    let (status, _) = patch(&org, &format!("/api/event/{id}"), config(start)).await;
    assert_eq!(status, 200);
    for _ in 0..100 {
        if event(&org, &id).await["status"] != "registering" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
    let mut renamed = config(start);
    renamed["name"] = json!("renamed");
    assert_eq!(
        patch(&org, &format!("/api/event/{id}"), renamed.clone())
            .await
            .0,
        200
    );
    renamed["rounds"] = json!(7);
    assert_eq!(
        code(patch(&org, &format!("/api/event/{id}"), renamed).await),
        (409, Some("event_started".into()))
    );
    // No late entry unless the event allows it: this one does until round 3.
    let r = register(&ann, &id).await;
    assert_eq!(r.0, 200, "{}", r.1);
    assert_eq!(r.1["joined_round"], 1, "an event with nobody to pair waits");
}

/// The store writes a round once: a second pairing of it (a restart between
/// pairing and its tables, two nodes) changes nothing.
async fn paired_once(backend: Backend) {
    use qiyuan_store::{EventGameRow, EventRoundRow};
    let server = common::start_with(backend, |c| c.event_tick_ms = 50).await;
    let store = server.running.as_ref().unwrap().app.store.clone();
    let org = server.register("org").await;
    let ann = server.register("ann").await;
    let bob = server.register("bob").await;
    qiyuan_server::events::grant(&*store, "org", "organiser")
        .await
        .unwrap();
    let (_, created) = post(&org, "/api/events", config(now_ms() + 3_600_000)).await;
    let id = created["id"].as_str().unwrap();
    for c in [&ann, &bob] {
        assert_eq!(register(c, id).await.0, 200);
    }
    let a = store.user_by_name("ann").await.unwrap().unwrap().id;
    let b = store.user_by_name("bob").await.unwrap().unwrap().id;
    let round = EventRoundRow {
        round: 1,
        starts_at: now_ms(),
        checked_at: None,
        finished_at: None,
    };
    let board = |white, black| EventGameRow {
        round: 1,
        board: 1,
        white,
        black: Some(black),
        table_id: None,
        white_result: None,
        black_result: None,
    };
    assert!(store.pair_round(id, &round, &[board(a, b)]).await.unwrap());
    assert!(!store.pair_round(id, &round, &[board(b, a)]).await.unwrap());
    let games = store.event_games(id).await.unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!((games[0].white, games[0].black), (a, Some(b)));
}

both!(whole_event, roles, entry_rules, paired_once);

/// The hall at 1,000 players (run on demand: `cargo test -p qiyuan-server --test
/// swiss_event -- --ignored --nocapture`; docs/benchmarks.md has the figures):
/// the reference event `t1000-r07` (six rounds played) loaded into the store,
/// round 7 paired by the server — the same pairs as the reference file — and all
/// 500 tables created and seated; then the event page's read.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore]
async fn thousand_players() {
    use qiyuan_store::{EventGameRow, EventRoundRow, EventRow, NewUser};
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data/swiss-dutch-large"
    );
    let text = std::fs::read_to_string(format!("{dir}/t1000-r07.trf")).unwrap();
    let reference = std::fs::read_to_string(format!("{dir}/t1000-r07.pairs")).unwrap();
    let t = qiyuan_swiss::trf::parse(&text).unwrap();
    let server = common::start_with(Backend::Sqlite, |c| c.event_tick_ms = 100).await;
    let store = server.running.as_ref().unwrap().app.store.clone();
    let org = server.register("org").await;
    let organiser = store.user_by_name("org").await.unwrap().unwrap().id;
    let mut players: Vec<&qiyuan_swiss::Player> = t.players.iter().collect();
    players.sort_by_key(|p| p.start_rank);
    let clock = std::time::Instant::now();
    let mut ids = HashMap::new();
    for p in &players {
        let u = store
            .create_user(NewUser {
                username: format!("s{:04}", p.start_rank),
                password_hash: None,
                guest: false,
                created_at: now_ms(),
            })
            .await
            .unwrap();
        ids.insert(p.start_rank, u.id);
    }
    let mut config = config(now_ms() + 86_400_000);
    config["rounds"] = json!(9);
    config["schedule"] = json!({"kind": "after_previous", "pause_secs": 0.0});
    let id = "big1000".to_string();
    store
        .create_event(&EventRow {
            id: id.clone(),
            organiser,
            game: "chess".into(),
            config: config.to_string(),
            status: "registering".into(),
            created_at: now_ms(),
            end_reason: None,
            updated_at: now_ms(),
        })
        .await
        .unwrap();
    for p in &players {
        let rank = store
            .add_event_player(
                &id,
                ids[&p.start_rank],
                p.rating.map(i64::from),
                1,
                now_ms(),
            )
            .await
            .unwrap();
        assert_eq!(rank, i64::from(p.start_rank));
    }
    for round in 1..=6usize {
        let mut games = Vec::new();
        for p in &players {
            let e = p.entry(round);
            let c = |r: qiyuan_swiss::ResultCode| Some(r.as_char().to_string());
            match (e.opponent(), e.colour.colour()) {
                (Some(o), Some(qiyuan_swiss::Colour::White)) => {
                    let back = t.player(o).unwrap().entry(round);
                    games.push((
                        ids[&p.start_rank],
                        Some(ids[&o]),
                        c(e.result),
                        c(back.result),
                    ));
                }
                (None, _) if e.result == qiyuan_swiss::ResultCode::PairingBye => {
                    games.push((ids[&p.start_rank], None, c(e.result), None));
                }
                (None, _) if !e.is_blank() => {
                    let kind = e.result.as_char().to_string();
                    store
                        .request_bye(&id, ids[&p.start_rank], round as i64, &kind)
                        .await
                        .unwrap();
                }
                _ => {}
            }
        }
        let rows: Vec<EventGameRow> = games
            .into_iter()
            .enumerate()
            .map(|(i, (white, black, wr, br))| EventGameRow {
                round: round as i64,
                board: i as i64 + 1,
                white,
                black,
                table_id: None,
                white_result: wr,
                black_result: br,
            })
            .collect();
        let row = EventRoundRow {
            round: round as i64,
            starts_at: now_ms(),
            checked_at: Some(now_ms()),
            finished_at: Some(now_ms()),
        };
        assert!(store.pair_round(&id, &row, &rows).await.unwrap());
    }
    // Byes already requested for round 7.
    for p in &players {
        let e = p.entry(7);
        if !e.is_blank() {
            let kind = e.result.as_char().to_string();
            store
                .request_bye(&id, ids[&p.start_rank], 7, &kind)
                .await
                .unwrap();
        }
    }
    eprintln!("loaded 1,000 players and 6 rounds in {:?}", clock.elapsed());
    // Start: the server pairs round 7 and seats everyone.
    let mut config = config.clone();
    config["starts_at"] = json!(now_ms());
    store
        .update_event(&id, &config.to_string(), "running", now_ms())
        .await
        .unwrap();
    let clock = std::time::Instant::now();
    let mut paired_after = None;
    loop {
        let games = store.event_games(&id).await.unwrap();
        let r7: Vec<&EventGameRow> = games.iter().filter(|g| g.round == 7).collect();
        if !r7.is_empty() && paired_after.is_none() {
            paired_after = Some(clock.elapsed());
        }
        if !r7.is_empty() && r7.iter().all(|g| g.black.is_none() || g.table_id.is_some()) {
            break;
        }
        assert!(
            clock.elapsed() < Duration::from_secs(120),
            "round 7 not seated"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let seated = clock.elapsed();
    eprintln!(
        "round 7: paired after {:?}, all 500 tables created and seated after {seated:?}",
        paired_after.unwrap()
    );
    let ev = event(&org, &id).await;
    let games = ev["rounds"][6]["games"].as_array().unwrap();
    let ours: Vec<String> = games
        .iter()
        .map(|g| {
            let n = |v: &Value| v.as_str().map_or(0, |s| s[1..].parse::<u32>().unwrap());
            format!("{} {}", n(&g["white"]), n(&g["black"]))
        })
        .collect();
    let theirs: Vec<String> = reference.lines().skip(1).map(str::to_string).collect();
    let mut a = ours.clone();
    let mut b = theirs.clone();
    a.sort();
    b.sort();
    assert_eq!(a, b, "the server pairs round 7 as the reference does");
    for _ in 0..3 {
        let clock = std::time::Instant::now();
        let r = org.get(&format!("/api/event/{id}")).await;
        let bytes = r.bytes().await.unwrap().len();
        eprintln!(
            "GET /api/event/{{id}}: {:?}, {bytes} bytes",
            clock.elapsed()
        );
    }
}
