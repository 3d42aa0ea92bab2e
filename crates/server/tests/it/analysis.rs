//! 研究 with an engine, over real WebSockets against the real server: `analyse`
//! answers with the position and its legal moves (the game's rules, on the
//! server), then streams the built-in engine's lines as it deepens; a new
//! request or `analyse.stop` ends the search. "Analyse this game" evaluates a
//! stored game and marks its blunder (both backends: the game is read from the
//! store).
#![cfg(all(feature = "chess", feature = "xiangqi", feature = "go"))]

use serde_json::{Value, json};

use crate::common::*;

/// Sends `analyse` with request id `id`; returns the `position` answer.
async fn analyse(ws: &mut Ws, id: &str, d: Value) -> Value {
    ws.send_raw(&json!({"t": "analyse", "d": d, "id": id}).to_string())
        .await;
    loop {
        let v = ws.recv().await;
        if v["id"] == id && (v["t"] == "position" || v["t"] == "error") {
            return v;
        }
    }
}

/// The `analysis` lines of request `id` until one with `done` (or `n` lines).
async fn lines(ws: &mut Ws, id: &str, n: usize) -> (Vec<Value>, bool) {
    let mut out = Vec::new();
    loop {
        let v = ws.recv().await;
        if v["t"] != "analysis" || v["id"] != id {
            continue;
        }
        if v["d"]["done"] == true {
            return (out, true);
        }
        out.push(v["d"]["line"].clone());
        if out.len() >= n {
            return (out, false);
        }
    }
}

async fn chess_evaluations_stream_deepen_and_stop(backend: Backend) {
    let server = start(backend).await;
    let guest = server.guest().await;
    let mut ws = guest.ws().await;
    let pos = analyse(
        &mut ws,
        "a1",
        json!({"game": "chess", "moves": ["e2e4"], "time_ms": 20000}),
    )
    .await;
    assert_eq!(pos["t"], "position", "{pos}");
    assert_eq!(pos["d"]["to_move"], 1);
    let legal = pos["d"]["legal"].as_array().unwrap();
    assert_eq!(legal.len(), 20, "black's first moves: {legal:?}");
    assert!(legal.contains(&json!("e7e5")));
    assert!(pos["d"]["view"]["fen"].as_str().unwrap().contains(" b "));
    // The moves as people read them: SAN.
    assert_eq!(pos["d"]["displays"], json!(["e4"]), "{pos}");

    let (got, done) = lines(&mut ws, "a1", 4).await;
    assert!(!done, "the search ended early: {got:?}");
    let depths: Vec<u64> = got.iter().map(|l| l["depth"].as_u64().unwrap()).collect();
    assert!(
        depths.windows(2).all(|w| w[1] > w[0]),
        "each line is deeper: {depths:?}"
    );
    for l in &got {
        assert!(!l["pv"].as_array().unwrap().is_empty(), "a best line: {l}");
        assert!(legal.contains(&l["best"]), "the best move is legal: {l}");
        // The line as people read it: SAN, one per move (black's reply is a
        // piece or pawn move such as `e5` or `Nc6`, never a square pair).
        let pv = l["pv"].as_array().unwrap();
        let shown = l["pv_display"].as_array().expect("pv_display");
        assert_eq!(shown.len(), pv.len(), "{l}");
        let first = shown[0].as_str().unwrap();
        assert!(
            first.len() <= 7 && !first.chars().nth(2).is_some_and(|c| c.is_ascii_lowercase()),
            "SAN, not UCI: {l}"
        );
        assert!(
            l.get("pv_notations").is_none(),
            "chess has no further notation: {l}"
        );
        // After 1.e4 white stands about equal or better, from white's side.
        let cp = l["cp"].as_i64().expect("a centipawn score");
        assert!((-150..=250).contains(&cp), "{l}");
    }

    // Stopped: the search says it is done, and nothing follows.
    let r = ws.act("analyse.stop", json!({})).await;
    assert_eq!(r["d"]["cancelled"], true, "{r}");
    let started = std::time::Instant::now();
    let (_, done) = lines(&mut ws, "a1", 1000).await;
    assert!(done);
    assert!(started.elapsed() < std::time::Duration::from_secs(3));
    let r = ws.act("analyse.stop", json!({})).await;
    assert_eq!(r["d"]["cancelled"], false, "{r}");
}

async fn a_new_request_replaces_the_search(backend: Backend) {
    let server = start(backend).await;
    let guest = server.guest().await;
    let mut ws = guest.ws().await;
    let first = analyse(&mut ws, "x1", json!({"game": "xiangqi", "time_ms": 20000})).await;
    assert_eq!(first["t"], "position", "{first}");
    assert_eq!(first["d"]["legal"].as_array().unwrap().len(), 44);
    let (got, _) = lines(&mut ws, "x1", 1).await;
    assert!(!got[0]["pv"].as_array().unwrap().is_empty());
    // The cannon to the centre: the first search ends, the second streams.
    let second = analyse(
        &mut ws,
        "x2",
        json!({"game": "xiangqi", "moves": ["h2e2"], "time_ms": 2000}),
    )
    .await;
    assert_eq!(second["d"]["to_move"], 1);
    assert_eq!(first["d"]["displays"], json!([]), "{first}");
    assert_eq!(second["d"]["displays"], json!(["炮二平五"]), "{second}");
    let (got, done) = lines(&mut ws, "x2", 1000).await;
    assert!(done && !got.is_empty(), "{got:?}");
    let legal = second["d"]["legal"].as_array().unwrap();
    let last = got.last().unwrap();
    assert!(legal.contains(&last["best"]));
    // The line in Chinese notation and in WXF, a move for each move.
    let pv = last["pv"].as_array().unwrap().len();
    let chinese = last["pv_display"].as_array().unwrap();
    let wxf = last["pv_notations"]["wxf"].as_array().expect("WXF");
    assert_eq!((chinese.len(), wxf.len()), (pv, pv), "{last}");
    // Black answers: Black's files are written in digits, and WXF is `H8+7`-like.
    assert!(chinese[0].as_str().unwrap().chars().count() == 4, "{last}");
    assert!(
        wxf[0]
            .as_str()
            .unwrap()
            .chars()
            .all(|c| "KAEHRCP+-=0123456789".contains(c)),
        "{last}"
    );
    // The first search said it was done too.
    assert!(
        ws.seen
            .iter()
            .any(|m| m["id"] == "x1" && m["d"]["done"] == true),
        "the replaced search ends"
    );
}

async fn go_gets_a_best_move_and_ownership(backend: Backend) {
    let server = start(backend).await;
    let guest = server.guest().await;
    let mut ws = guest.ws().await;
    let pos = analyse(
        &mut ws,
        "g1",
        json!({"game": "go", "options": {"size": 9, "komi": 7.5, "handicap": 0}, "moves": ["E5"], "time_ms": 3000}),
    )
    .await;
    assert_eq!(pos["t"], "position", "{pos}");
    assert_eq!(pos["d"]["to_move"], 1);
    let (got, done) = lines(&mut ws, "g1", 1000).await;
    assert!(done && got.len() >= 2, "several rounds: {got:?}");
    let last = got.last().unwrap();
    let own = last["ownership"].as_array().expect("ownership");
    assert_eq!(own.len(), 81);
    assert!(own.iter().all(|o| o.as_f64().unwrap().abs() <= 1.0));
    // Black's stone at the centre is black's.
    assert!(own[40].as_f64().unwrap() > 0.3, "{}", own[40]);
    assert!(
        pos["d"]["legal"]
            .as_array()
            .unwrap()
            .contains(&last["best"])
    );
    assert!(got[1]["nodes"].as_u64() > got[0]["nodes"].as_u64());
}

async fn bad_requests_are_refused(backend: Backend) {
    let server = start(backend).await;
    let guest = server.guest().await;
    let mut ws = guest.ws().await;
    let r = analyse(&mut ws, "b1", json!({"game": "chess", "moves": ["e2e5"]})).await;
    assert_eq!(r["t"], "error");
    assert_eq!(r["d"]["code"], "illegal");
    let r = analyse(&mut ws, "b2", json!({"game": "halma"})).await;
    assert_eq!(r["d"]["code"], "unknown_game");
    // Doudizhu: the position, but no engine lines.
    let r = analyse(
        &mut ws,
        "b3",
        json!({"game": "doudizhu", "setup": {"seed": 3}}),
    )
    .await;
    assert_eq!(r["d"]["code"], "bad_setup", "{r}");
    let r = analyse(&mut ws, "b4", json!({"game": "chess", "think": false})).await;
    assert_eq!(r["t"], "position");
    let r = ws.act("analyse.stop", json!({})).await;
    assert_eq!(r["d"]["cancelled"], false);
    assert!(!ws.seen.iter().any(|m| m["t"] == "analysis"));
}

async fn a_blunder_in_a_finished_game_is_marked(backend: Backend) {
    let server = start(backend).await;
    let a = server.guest().await;
    let b = server.guest().await;
    let (table, mut wa, mut wb) =
        table_with_game(&server, &a, &b, "chess", json!({"kind": "none"})).await;
    // 1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6?? 4. Qxf7#
    let moves = ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"];
    for (i, m) in moves.iter().enumerate() {
        let ws = if i % 2 == 0 { &mut wa } else { &mut wb };
        ws.ok("move", json!({"table": table, "action": m})).await;
    }
    while wa.state()["status"] != "over" {
        wa.recv().await;
    }
    let resp = a
        .http
        .post(format!("{}/api/game/{table}/analysis?ms=300", a.base))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    let review: Value = resp.json().await.unwrap();
    let reviewed = review["moves"].as_array().unwrap();
    assert_eq!(reviewed.len(), 7, "{review}");
    assert_eq!(reviewed[5]["move"], "g8f6");
    assert_eq!(reviewed[5]["judgement"], "blunder", "{}", reviewed[5]);
    assert_eq!(reviewed[5]["seat"], 1);
    assert_eq!(review["counts"][1]["blunders"], 1, "{review}");
    // The opening moves are not blunders; the mate itself is the best move.
    for m in &reviewed[..4] {
        assert_ne!(m["judgement"], "blunder", "{m}");
    }
    assert_eq!(reviewed[6]["judgement"], Value::Null);
    assert_eq!(review["positions"][7]["chances"], 1.0);
    // The better move, as people read it (SAN).
    let best = reviewed[5]["best_display"].as_str().expect("best_display");
    assert!(!best.is_empty() && best.len() <= 7, "{}", reviewed[5]);
    assert_eq!(review["played"], json!(moves), "{review}");
    // Unevaluated: the game's moves at once, nothing judged.
    let quick: Value = a
        .get(&format!("/api/game/{table}/analysis?evaluate=false"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(quick["played"], json!(moves), "{quick}");
    assert_eq!(quick["setup"], "standard", "{quick}");
    assert_eq!(quick["moves"], json!([]), "{quick}");
    assert_eq!(quick["positions"], json!([]), "{quick}");
    // A game that does not exist, and one still being played.
    let resp = a.get("/api/game/nosuchgame/analysis").await;
    assert_eq!(resp.status(), 404);
}

async fn a_finished_go_game_is_reviewed(backend: Backend) {
    let server = start(backend).await;
    let guest = server.guest().await;
    let mut ws = guest.ws().await;
    // A 9×9 hot-seat game (单机), to the count.
    let r = ws
        .ok(
            "hotseat",
            json!({"game": "go", "options": {"size": 9, "komi": 7.5, "handicap": 0}}),
        )
        .await;
    let table = r["d"]["table"].as_str().unwrap().to_string();
    for m in ["E5", "C3", "pass", "pass", "accept"] {
        ws.ok("move", json!({"table": table, "action": m})).await;
    }
    while ws.state()["status"] != "over" {
        ws.recv().await;
    }
    // (A private game's review is its owner's: the guest's session.)
    let review: Value = guest
        .http
        .post(format!("{}/api/game/{table}/analysis?ms=100", guest.base))
        .bearer_auth(&guest.token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let moves = review["moves"].as_array().expect("moves");
    let played: Vec<&str> = moves.iter().map(|m| m["move"].as_str().unwrap()).collect();
    assert_eq!(played, ["E5", "C3", "pass", "pass"], "{review}");
    assert_eq!(review["options"]["size"], 9);
    assert_eq!(review["positions"].as_array().unwrap().len(), 5);
    // The end is the count's (White, with komi, by area).
    let won = if ws.state()["game"]["outcome"]["results"][0] == "win" {
        1.0
    } else {
        -1.0
    };
    assert_eq!(review["positions"][4]["chances"], won, "{review}");
    // The engine's Go lines carry a territory estimate.
    assert_eq!(
        review["positions"][0]["line"]["ownership"]
            .as_array()
            .unwrap()
            .len(),
        81
    );
}

/// An external engine as the analyser: Stockfish over UCI streams its lines,
/// read into the board's terms, and stops when told.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stockfish_analyses_over_uci() {
    let server = start_with(Backend::Sqlite, |c| {
        c.engines = qiyuan_server::Config::parse(
            r#"
            [[engines]]
            name = "stockfish"
            path = "/usr/games/stockfish"
            protocol = "uci"
            games = ["chess"]
            options = { Threads = 1, Hash = 16 }
            movetime_ms = 50
            processes = 1
            "#,
        )
        .unwrap()
        .engines;
    })
    .await;
    let guest = server.guest().await;
    let mut ws = guest.ws().await;
    let pos = analyse(
        &mut ws,
        "s1",
        json!({"game": "chess", "moves": ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6"],
               "engine": "stockfish", "time_ms": 5000}),
    )
    .await;
    assert_eq!(pos["t"], "position", "{pos}");
    // Stockfish finds the mate at once and floods its depths; the server
    // passes at most ten lines a second, the newest last.
    let (got, _) = lines(&mut ws, "s1", 5).await;
    assert!(!got.is_empty() && got.len() <= 5, "{got:?}");
    // White mates at once: Qxf7#, from White's side.
    let last = got.last().unwrap();
    assert_eq!(last["mate"], 1, "{last}");
    assert_eq!(last["best"], "h5f7");
    let r = ws.act("analyse.stop", json!({})).await;
    assert_eq!(r["d"]["cancelled"], true);
    // The search may have ended by itself (a mate is found at once) before the ack.
    let ended = |ws: &Ws| {
        ws.seen
            .iter()
            .any(|m| m["id"] == "s1" && m["t"] == "analysis" && m["d"]["done"] == true)
    };
    if !ended(&ws) {
        let (_, done) = lines(&mut ws, "s1", 10_000).await;
        assert!(done);
    }
    // An engine the game does not have is refused.
    let r = analyse(
        &mut ws,
        "s2",
        json!({"game": "xiangqi", "engine": "stockfish"}),
    )
    .await;
    assert_eq!(r["d"]["code"], "bad_level", "{r}");
}

/// Issue 47: an idle engine process killed from outside is reaped at once (no
/// zombie), counted in `/metrics` as a crash, and the next analysis answers on
/// a fresh process instead of coming back empty.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_idle_engine_is_reaped_counted_and_replaced() {
    let server = start_with(Backend::Sqlite, |c| {
        c.engines = qiyuan_server::Config::parse(
            r#"
            [[engines]]
            name = "stockfish"
            path = "/usr/games/stockfish"
            protocol = "uci"
            games = ["chess"]
            options = { Threads = 1, Hash = 16 }
            movetime_ms = 50
            processes = 1
            "#,
        )
        .unwrap()
        .engines;
    })
    .await;
    let engines = &server.running.as_ref().unwrap().app.engines;
    let guest = server.guest().await;
    let mut ws = guest.ws().await;
    let mate = json!({"game": "chess", "moves": ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6"],
                      "engine": "stockfish", "time_ms": 300});
    let pos = analyse(&mut ws, "k1", mate.clone()).await;
    assert_eq!(pos["t"], "position", "{pos}");
    let (_, done) = lines(&mut ws, "k1", 100_000).await;
    assert!(done);
    let pids = engines.pids("stockfish");
    assert_eq!(pids.len(), 1, "{pids:?}");
    let killed = std::process::Command::new("kill")
        .args(["-KILL", &pids[0].to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    // Reaped at once: a zombie keeps its /proc entry until it is waited for.
    let proc_entry = format!("/proc/{}", pids[0]);
    let until = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while std::path::Path::new(&proc_entry).exists() || !engines.pids("stockfish").is_empty() {
        assert!(
            std::time::Instant::now() < until,
            "{proc_entry} is still there (a zombie?)"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let metrics = reqwest::get(format!("{}/metrics", server.base))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let sample = |name: &str| -> String {
        metrics
            .lines()
            .find(|l| l.starts_with(&format!("{name}{{")) && l.contains("engine=\"stockfish\""))
            .unwrap_or_else(|| panic!("no {name} in {metrics}"))
            .rsplit(' ')
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(sample("qiyuan_engine_crashes_total"), "1", "{metrics}");
    assert_eq!(sample("qiyuan_engine_starts_total"), "1", "{metrics}");
    assert_eq!(sample("qiyuan_engine_processes"), "0", "{metrics}");
    // The next analysis is answered, by a new process.
    let pos = analyse(&mut ws, "k2", mate).await;
    assert_eq!(pos["t"], "position", "{pos}");
    let (got, _) = lines(&mut ws, "k2", 1).await;
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0]["best"], "h5f7", "{got:?}");
    let now = engines.pids("stockfish");
    assert_eq!(now.len(), 1);
    assert_ne!(now[0], pids[0], "a new process");
}

both!(
    chess_evaluations_stream_deepen_and_stop,
    a_new_request_replaces_the_search,
    go_gets_a_best_move_and_ownership,
    bad_requests_are_refused,
    a_blunder_in_a_finished_game_is_marked,
    a_finished_go_game_is_reviewed,
);
