//! A 9x9 game of Go over real WebSockets: played to two passes, dead stones
//! marked (with a change of mind that clears an acceptance), both accept, and
//! both players and a spectator see the same counted result.

use serde_json::{Value, json};

use crate::common::*;

async fn go_nine_by_nine_to_the_count(backend: Backend) {
    let server = start(backend).await;
    let a = server.register("kuroda").await;
    let b = server.register("shiraishi").await;
    let c = server.guest().await;
    let mut wa = a.ws().await;
    let mut wb = b.ws().await;
    let t = wa
        .create(
            json!({"game": "go", "seat": 0, "options": {"size": 9, "komi": 7.5},
                   "time": {"kind": "byo_yomi", "main": 600_000, "periods": 3, "period": 30_000}}),
        )
        .await;
    wb.send("watch", json!({"table": t})).await;
    wb.expect("sync").await;
    wb.ok("sit", json!({"table": t, "seat": 1})).await;
    let mut wc = c.ws().await;
    wc.send("watch", json!({"table": t})).await;
    wc.expect("sync").await;
    wa.ok("ready", json!({"table": t})).await;
    let r = wb.ok("ready", json!({"table": t})).await;
    let mut v = r["d"]["v"].as_u64().unwrap();
    for w in [&mut wa, &mut wb, &mut wc] {
        w.catch_up(v).await;
    }
    let start = &wc.state()["game"];
    assert_eq!(start["board"]["size"], 9, "{start}");
    assert_eq!(start["board"]["komi"], 7.5);
    assert_eq!(start["settings"]["time"]["kind"], "byo_yomi");

    // Black builds a wall on the E file, white one on the F file; white then
    // invades at B5, where the stone can only die, and both pass.
    let mut moves: Vec<(usize, String)> = Vec::new();
    for row in 1..=9 {
        moves.push((0, format!("E{row}")));
        moves.push((1, format!("F{row}")));
    }
    moves.push((0, "pass".into()));
    moves.push((1, "B5".into()));
    moves.push((0, "pass".into()));
    moves.push((1, "pass".into()));
    for (seat, mv) in &moves {
        let w = if *seat == 0 { &mut wa } else { &mut wb };
        v = w.ok("move", json!({"table": t, "action": mv})).await["d"]["v"]
            .as_u64()
            .unwrap();
    }
    for w in [&mut wa, &mut wb, &mut wc] {
        w.catch_up(v).await;
    }
    let g = &wc.state()["game"];
    assert_eq!(g["phase"], "marking", "two passes start the marking: {g}");
    assert_eq!(g["turn"], json!({"all": [0, 1]}));
    assert_eq!(g["board"]["last_move"], "pass");
    assert_eq!(g["board"]["moves"].as_array().unwrap().len(), moves.len());
    assert!(
        g["clock"]["running"].is_null(),
        "no clock runs while marking: {}",
        g["clock"]
    );
    let legal_a = &wa.state()["game"]["board"];
    assert!(legal_a["marking"].is_object(), "{legal_a}");

    // Whatever the estimator suggested, black marks B5 dead (toggling it alive
    // first if it was suggested), white accepts, then black changes its mind
    // about the stone and back: each change clears the acceptances.
    let suggested = g["board"]["marking"]["dead"]
        .as_array()
        .unwrap()
        .contains(&json!("B5"));
    if suggested {
        wa.ok("move", json!({"table": t, "action": "alive B5"}))
            .await;
    }
    wa.ok("move", json!({"table": t, "action": "dead B5"}))
        .await;
    wb.ok("move", json!({"table": t, "action": "accept"})).await;
    v = wa
        .ok("move", json!({"table": t, "action": "toggle B5"}))
        .await["d"]["v"]
        .as_u64()
        .unwrap();
    wb.catch_up(v).await;
    let m = &wb.state()["game"]["board"]["marking"];
    assert_eq!(m["accepted"], json!([false, false]), "{m}");
    assert!(!m["dead"].as_array().unwrap().contains(&json!("B5")));
    wa.ok("move", json!({"table": t, "action": "dead B5"}))
        .await;
    // Refusals change nothing: a move during marking, a vertex without a stone.
    let r = wb.act("move", json!({"table": t, "action": "C3"})).await;
    assert_eq!(r["t"], "error", "{r}");
    let r = wb
        .act("move", json!({"table": t, "action": "dead A1"}))
        .await;
    assert_eq!(r["t"], "error", "{r}");

    // Black accepts; white sees that before accepting too.
    v = wa.ok("move", json!({"table": t, "action": "accept"})).await["d"]["v"]
        .as_u64()
        .unwrap();
    wb.catch_up(v).await;
    let m = &wb.state()["game"]["board"]["marking"];
    assert_eq!(m["accepted"], json!([true, false]), "{m}");
    assert_eq!(m["dead"], json!(["B5"]), "{m}");
    // Black: A–E files, 45 points; white: F–J, 36 points and 7.5 komi.
    assert_eq!(m["score"], "B+1.5", "{m}");
    v = wb.ok("move", json!({"table": t, "action": "accept"})).await["d"]["v"]
        .as_u64()
        .unwrap();
    for w in [&mut wa, &mut wb, &mut wc] {
        w.catch_up(v).await;
    }
    let outcomes: Vec<Value> = [&wa, &wb, &wc]
        .iter()
        .map(|w| w.state()["game"]["outcome"].clone())
        .collect();
    assert_eq!(outcomes[0], outcomes[1], "both players see the same result");
    assert_eq!(outcomes[0], outcomes[2], "and so does the spectator");
    let o = &outcomes[0];
    assert_eq!(o["reason"], "counted", "{o}");
    assert_eq!(o["score"], "B+1.5", "{o}");
    assert_eq!(o["results"], json!(["win", "loss"]), "{o}");
    for w in [&wa, &wb, &wc] {
        let s = w.state();
        assert_eq!(s["status"], "over");
        assert_eq!(s["game"]["board"]["result"], "B+1.5");
        assert_eq!(events_of(&w.seen, "ended").len(), 1, "one end");
    }
    // The record.
    let sgf = c.get(&format!("/game/{t}.sgf")).await;
    assert_eq!(sgf.status(), 200);
    let sgf = sgf.text().await.unwrap();
    assert!(sgf.contains("RE[B+1.5]"), "{sgf}");
    assert!(sgf.contains("SZ[9]") && sgf.contains("KM[7.5]"), "{sgf}");
    assert!(
        sgf.contains("PB[kuroda]") && sgf.contains("PW[shiraishi]"),
        "{sgf}"
    );
}

/// Resuming play from the marking: the opponent of the player who resumed moves.
async fn go_resume_from_marking(backend: Backend) {
    let server = start(backend).await;
    let a = server.guest().await;
    let b = server.guest().await;
    let (t, mut wa, mut wb) = table_with_game(
        &server,
        &a,
        &b,
        "go",
        json!({"kind": "byo_yomi", "main": 600_000, "periods": 3, "period": 30_000}),
    )
    .await;
    // The default board is 19x19.
    wa.ok("move", json!({"table": t, "action": "Q16"})).await;
    wb.ok("move", json!({"table": t, "action": "pass"})).await;
    let v = wa.ok("move", json!({"table": t, "action": "pass"})).await["d"]["v"]
        .as_u64()
        .unwrap();
    wb.catch_up(v).await;
    assert_eq!(wb.state()["game"]["phase"], "marking");
    let v = wb.ok("move", json!({"table": t, "action": "resume"})).await["d"]["v"]
        .as_u64()
        .unwrap();
    wa.catch_up(v).await;
    let g = &wa.state()["game"];
    assert_eq!(g["phase"], "play", "{g}");
    assert_eq!(
        g["turn"],
        json!({"seat": 0}),
        "white resumed, so black moves"
    );
    assert_eq!(g["board"]["size"], 19);
    wa.ok("move", json!({"table": t, "action": "D4"})).await;
}

both!(go_nine_by_nine_to_the_count, go_resume_from_marking);
