//! Whole games over real sockets: checkmate, draw by agreement, takeback,
//! resignation, a flag found by the server, escape, spectators and reconnection.

use serde_json::{Value, json};

use crate::common::*;

/// Fool's mate, watched by a spectator; the black player's socket drops after the
/// second move and resumes from the last version it saw, missing nothing.
async fn chess_checkmate(backend: Backend) {
    let server = start(backend).await;
    let a = server.register("alice").await;
    let b = server.register("bobby").await;
    let c = server.guest().await;
    let (table, mut wa, mut wb) = table_with_game(&server, &a, &b, "chess", blitz()).await;
    let mut wc = c.ws().await;
    wc.send("watch", json!({"table": table})).await;
    let sync = wc.expect("sync").await;
    assert_eq!(sync["d"]["state"]["game"]["moves"], json!([]));

    wa.ok("move", json!({"table": table, "action": "f2f3"}))
        .await;
    let r = wb
        .ok("move", json!({"table": table, "action": "e7e5"}))
        .await;
    let v_seen = r["d"]["v"].as_u64().unwrap();
    wb.close().await;
    wa.ok("move", json!({"table": table, "action": "g2g4"}))
        .await;

    // Black comes back and asks for what it missed.
    let mut wb = b.ws().await;
    wb.send("watch", json!({"table": table, "since": v_seen}))
        .await;
    let sync = wb.expect("sync").await;
    assert_eq!(sync["d"]["complete"], true, "{sync}");
    let missed: Vec<&Value> = sync["d"]["batches"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|b| b["events"].as_array().unwrap())
        .filter(|e| e["type"] == "acted")
        .collect();
    assert_eq!(missed.len(), 1, "exactly the one missed move: {sync}");
    assert_eq!(missed[0]["action"], "g2g4");
    let first = sync["d"]["batches"][0]["from"].as_u64().unwrap();
    assert_eq!(first, v_seen, "the replay starts where the client left off");

    let r = wb
        .ok("move", json!({"table": table, "action": "Qh4#"}))
        .await;
    let end = wa.event("ended").await;
    let ended = end["d"]["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["type"] == "ended")
        .unwrap();
    assert_eq!(ended["outcome"]["reason"], "checkmate");
    assert_eq!(ended["outcome"]["results"], json!(["loss", "win"]));
    assert_eq!(end["d"]["v"], r["d"]["v"]);

    // The spectator saw every move, in order, once.
    wc.event("ended").await;
    let moves: Vec<&str> = events_of(&wc.seen, "acted")
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert_eq!(moves, ["f2f3", "e7e5", "g2g4", "d8h4"]);

    // The record.
    let pgn = c.get(&format!("/game/{table}.pgn")).await;
    assert_eq!(pgn.status(), 200);
    // Downloaded under a name that says what it is.
    let disposition = pgn.headers()["content-disposition"].to_str().unwrap();
    let today = qiyuan_game::UtcDateTime::from_unix_millis(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis() as u64,
    );
    assert_eq!(
        disposition,
        format!(
            "attachment; filename=\"qiyuan-chess-alice-vs-bobby-{}.pgn\"",
            today.iso_date()
        )
    );
    let pgn = pgn.text().await.unwrap();
    assert!(
        pgn.contains(&format!("[UTCDate \"{}\"]", today.pgn_date())),
        "{pgn}"
    );
    assert!(
        pgn.contains("[Result \"0-1\"]") && pgn.contains("Qh4#"),
        "{pgn}"
    );
    assert!(pgn.contains("alice") && pgn.contains("bobby"), "{pgn}");
    // The JSON API.
    let game: Value = c
        .get(&format!("/api/game/{table}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(game["stored"]["status"], "finished", "{game}");
    assert_eq!(game["state"]["game"]["moves"].as_array().unwrap().len(), 4);
    let log: Value = c
        .get(&format!("/api/game/{table}/log"))
        .await
        .json()
        .await
        .unwrap();
    assert!(log["entries"].as_array().unwrap().len() >= 8, "{log}");
    // Profiles list the game.
    let profile: Value = c.get("/api/user/alice").await.json().await.unwrap();
    assert_eq!(profile["games"][0]["id"], table.as_str(), "{profile}");
}

/// Draw offered after one's own move and accepted; then a takeback at a second
/// table; then a resignation at a third.
async fn draw_takeback_resign(backend: Backend) {
    let server = start(backend).await;
    let a = server.guest().await;
    let b = server.guest().await;

    let (t, mut wa, mut wb) = table_with_game(&server, &a, &b, "chess", blitz()).await;
    wa.ok("move", json!({"table": t, "action": "e2e4"})).await;
    wa.ok("draw.offer", json!({"table": t})).await;
    wb.event("draw_offered").await;
    wb.ok("draw.accept", json!({"table": t})).await;
    let end = wa.event("ended").await;
    assert!(end.to_string().contains("\"agreement\""), "{end}");
    wa.close().await;
    wb.close().await;

    let (t, mut wa, mut wb) = table_with_game(&server, &a, &b, "chess", blitz()).await;
    wa.ok("move", json!({"table": t, "action": "e2e4"})).await;
    wb.ok("move", json!({"table": t, "action": "e7e5"})).await;
    wb.ok("takeback.request", json!({"table": t})).await;
    wa.event("takeback_requested").await;
    wa.ok("takeback.accept", json!({"table": t})).await;
    let back = wb.event("took_back").await;
    assert_eq!(
        back["d"]["state"]["game"]["moves"]
            .as_array()
            .unwrap()
            .len(),
        1,
        "{back}"
    );
    wb.ok("move", json!({"table": t, "action": "c7c5"})).await;
    wa.ok("resign", json!({"table": t})).await;
    let end = wb.event("ended").await;
    let s = end.to_string();
    assert!(
        s.contains("\"resignation\"") && s.contains("\"0-1\""),
        "{end}"
    );
}

/// A 2-second clock: after both first moves White thinks forever; the server
/// itself flags White, with no client message.
async fn flag_by_server(backend: Backend) {
    let server = start(backend).await;
    let a = server.guest().await;
    let b = server.guest().await;
    let time = json!({"kind": "fischer", "base": 1500, "increment": 0});
    let (t, mut wa, mut wb) = table_with_game(&server, &a, &b, "chess", time).await;
    wa.ok("move", json!({"table": t, "action": "e2e4"})).await;
    wb.ok("move", json!({"table": t, "action": "e7e5"})).await;
    let end = wb.event("ended").await;
    let s = end.to_string();
    assert!(s.contains("\"timeout\"") && s.contains("\"0-1\""), "{end}");
    drop(wa);
}

/// White's socket goes away and does not come back within the grace (1 s here):
/// White loses by escape.
async fn escape(backend: Backend) {
    let server = start(backend).await;
    let a = server.guest().await;
    let b = server.guest().await;
    let (t, mut wa, mut wb) = table_with_game(&server, &a, &b, "chess", blitz()).await;
    wa.ok("move", json!({"table": t, "action": "d2d4"})).await;
    wb.ok("move", json!({"table": t, "action": "d7d5"})).await;
    wa.close().await;
    wb.event("disconnected").await;
    let end = wb.event("ended").await;
    let s = end.to_string();
    assert!(s.contains("\"escape\"") && s.contains("\"0-1\""), "{end}");
}

/// Rated games between two accounts change ratings, and the change is in the
/// game-end event.
async fn rated_game_changes_ratings(backend: Backend) {
    let server = start(backend).await;
    let a = server.register("ratedA").await;
    let b = server.register("ratedB").await;
    let mut wa = a.ws().await;
    let mut wb = b.ws().await;
    let t = wa
        .create(json!({"game": "chess", "time": blitz(), "seat": 0, "rated": true}))
        .await;
    wb.ok("sit", json!({"table": t, "seat": 1})).await;
    wa.ok("ready", json!({"table": t})).await;
    wb.ok("ready", json!({"table": t})).await;
    wa.ok("move", json!({"table": t, "action": "e2e4"})).await;
    wb.ok("move", json!({"table": t, "action": "e7e5"})).await;
    wb.ok("resign", json!({"table": t})).await;
    let end = wa.event("ended").await;
    let ratings = &end["d"]["ratings"];
    assert_eq!(ratings[0]["user"], "ratedA", "{end}");
    assert!(ratings[0]["diff"].as_i64().unwrap() > 0, "{end}");
    assert!(ratings[1]["diff"].as_i64().unwrap() < 0, "{end}");
    assert_eq!(ratings[0]["provisional"], true);
    // A guest may watch but not sit at a rated table.
    let g = server.guest().await;
    let mut wg = g.ws().await;
    let e = wg.act("sit", json!({"table": t, "seat": 1})).await;
    assert_eq!(e["d"]["code"], "guest_rated", "{e}");
    let me: Value = a.get("/api/account/me").await.json().await.unwrap();
    assert_eq!(me["ratings"][0]["pool"], "chess:blitz", "{me}");
    assert!(me["ratings"][0]["rating"].as_i64().unwrap() > 1500, "{me}");
}

/// Quick pairing: two seeks with the same time control meet at a new table and the
/// game starts.
async fn quick_pairing(backend: Backend) {
    let server = start(backend).await;
    let a = server.guest().await;
    let b = server.guest().await;
    let mut wa = a.ws().await;
    let mut wb = b.ws().await;
    wa.send("lobby.subscribe", json!({"game": "chess"})).await;
    wa.expect("lobby").await;
    let r = wa
        .ok("seek", json!({"game": "chess", "time": blitz()}))
        .await;
    assert_eq!(r["d"]["seeking"], true);
    let r = wb
        .ok("seek", json!({"game": "chess", "time": blitz()}))
        .await;
    let t = r["d"]["table"].as_str().unwrap().to_string();
    let paired = wa.expect("paired").await;
    assert_eq!(paired["d"]["table"], t.as_str());
    assert_eq!(paired["d"]["seat"], 0);
    wa.ok("move", json!({"table": t, "action": "e2e4"})).await;
    wb.event("acted").await;
    let listed = wa
        .seen
        .iter()
        .find(|m| m["t"] == "lobby.table" && m["d"]["id"] == t.as_str());
    assert!(
        listed.is_some(),
        "the lobby listed the new table: {:?}",
        wa.seen
    );
}

/// Xiangqi from a loaded position: Red mates with the rook; the record is xiangqi
/// PGN.
async fn xiangqi_checkmate(backend: Backend) {
    let server = start(backend).await;
    let a = server.guest().await;
    let b = server.guest().await;
    let mut wa = a.ws().await;
    let mut wb = b.ws().await;
    let fen = "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1";
    let t = wa
        .create(json!({"game": "xiangqi", "time": blitz(), "seat": 0, "setup": {"position": fen}}))
        .await;
    wb.ok("sit", json!({"table": t, "seat": 1})).await;
    wa.ok("ready", json!({"table": t})).await;
    wb.ok("ready", json!({"table": t})).await;
    // A chess move is not xiangqi.
    let e = wa.act("move", json!({"table": t, "action": "Qh4"})).await;
    assert_eq!(e["t"], "error", "{e}");
    wa.ok(
        "move",
        json!({"table": t, "action": "b0b9", "game": "xiangqi"}),
    )
    .await;
    let end = wb.event("ended").await;
    let s = end.to_string();
    assert!(
        s.contains("\"checkmate\"") && s.contains("\"1-0\""),
        "{end}"
    );
    let pgn = a.get(&format!("/game/{t}.pgn")).await.text().await.unwrap();
    assert!(
        pgn.contains("1-0") && pgn.contains(fen.split(' ').next().unwrap()),
        "{pgn}"
    );
}

/// Doudizhu at three seats: every socket gets its own view only; nobody, player or
/// spectator, ever receives another seat's hand.
async fn doudizhu_views_are_per_seat(backend: Backend) {
    let server = start(backend).await;
    let players = [
        server.guest().await,
        server.guest().await,
        server.guest().await,
    ];
    let watcher = server.guest().await;
    let mut ws = Vec::new();
    for p in &players {
        ws.push(p.ws().await);
    }
    let t = ws[0].create(json!({"game": "doudizhu", "seat": 0})).await;
    let mut wc = watcher.ws().await;
    wc.send("watch", json!({"table": t})).await;
    wc.expect("sync").await;
    for (seat, w) in ws.iter_mut().enumerate().skip(1) {
        w.ok("sit", json!({"table": t, "seat": seat})).await;
    }
    for w in ws.iter_mut() {
        w.ok("ready", json!({"table": t})).await;
    }
    let mut hands = Vec::new();
    for (seat, w) in ws.iter_mut().enumerate() {
        let started = w
            .seen
            .iter()
            .rev()
            .find(|m| has_event(m, "started"))
            .cloned();
        let started = match started {
            Some(s) => s,
            None => w.event("started").await,
        };
        let board = &started["d"]["state"]["game"]["board"];
        assert_eq!(started["d"]["state"]["you"], seat, "{started}");
        assert!(
            board["hands"].is_null(),
            "no other hands while playing: {board}"
        );
        hands.push(board["hand"].to_string());
    }
    assert!(
        hands.iter().all(|h| h != "null" && h.len() > 10),
        "{hands:?}"
    );
    let seen_by_spectator = wc.event("started").await;
    assert!(seen_by_spectator["d"]["state"]["game"]["board"]["hand"].is_null());
    // The first bidder bids; everyone's later messages still hide the others.
    let bidder = ws[0]
        .seen
        .iter()
        .rev()
        .find_map(|m| m["d"]["state"]["game"]["board"]["to_act"].as_u64())
        .unwrap() as usize;
    ws[bidder]
        .ok("move", json!({"table": t, "action": "bid 1"}))
        .await;
    for (seat, w) in ws.iter().enumerate() {
        let all: String = w.seen.iter().map(|m| m.to_string()).collect();
        for (other, hand) in hands.iter().enumerate() {
            if other != seat {
                assert!(
                    !all.contains(hand.as_str()),
                    "seat {seat} received seat {other}'s hand"
                );
            }
        }
    }
    let all: String = wc.seen.iter().map(|m| m.to_string()).collect();
    assert!(
        hands.iter().all(|h| !all.contains(h.as_str())),
        "the spectator saw a hand"
    );
}

/// The lobby lists tables live: created, watched, sat at, stood up from; the
/// invitation link opens the client.
async fn lobby_lists_tables_live(backend: Backend) {
    let server = start(backend).await;
    let a = server.guest().await;
    let b = server.guest().await;
    let mut wa = a.ws().await;
    let mut wb = b.ws().await;
    wb.send("lobby.subscribe", json!({"game": "chess"})).await;
    assert_eq!(wb.expect("lobby").await["d"]["tables"], json!([]));
    let r = wa
        .ok(
            "create",
            json!({"game": "chess", "seat": 0, "time": blitz()}),
        )
        .await;
    let t = r["d"]["table"].as_str().unwrap().to_string();
    let invite = r["d"]["invite"].as_str().unwrap().to_string();
    let listed = loop {
        let m = wb.expect("lobby.table").await;
        if m["d"]["seats"][0]["user"] == a.name.as_str() {
            break m;
        }
    };
    assert_eq!(listed["d"]["id"], t.as_str());
    assert_eq!(listed["d"]["time"], blitz());
    wb.send("watch", json!({"table": t})).await;
    wb.expect("sync").await;
    loop {
        let m = wb.expect("lobby.table").await;
        if m["d"]["spectators"] == 1 {
            break;
        }
    }
    wb.ok("sit", json!({"table": t, "seat": 1})).await;
    wb.ok("stand", json!({"table": t})).await;
    // Tables can be created over HTTP too, with the `create` message's body:
    // `seat` seats the creator there.
    let create = |body: Value| {
        a.http
            .post(format!("{}/api/tables", a.base))
            .bearer_auth(&a.token)
            .json(&body)
            .send()
    };
    let r = create(json!({"game": "xiangqi", "seat": 9})).await.unwrap();
    assert_eq!(r.status(), 400);
    let refused: Value = r.json().await.unwrap();
    assert_eq!(refused["error"]["code"], "no_such_seat", "{refused}");
    let r = create(json!({"game": "xiangqi", "seat": 1})).await.unwrap();
    assert_eq!(r.status(), 201);
    let created: Value = r.json().await.unwrap();
    let xq: Vec<Value> = a.get("/api/lobby/xiangqi").await.json().await.unwrap();
    assert_eq!(xq.len(), 1, "{xq:?}");
    assert_eq!(xq[0]["id"], created["table"], "{xq:?}");
    assert_eq!(xq[0]["time"]["kind"], "qq", "the quick preset by default");
    assert_eq!(xq[0]["seats"][1]["user"], a.name.as_str(), "{xq:?}");
    assert!(xq[0]["seats"][0]["user"].is_null(), "{xq:?}");
    let http: Vec<Value> = a.get("/api/lobby/chess").await.json().await.unwrap();
    assert_eq!(http.len(), 1);
    assert_eq!(http[0]["seats"][0]["user"], a.name.as_str());
    assert!(http[0]["seats"][1]["user"].is_null(), "{http:?}");
    assert_eq!(a.get(&invite).await.status(), 200);
}

both!(
    chess_checkmate,
    lobby_lists_tables_live,
    doudizhu_views_are_per_seat,
    xiangqi_checkmate,
    draw_takeback_resign,
    flag_by_server,
    escape,
    rated_game_changes_ratings,
    quick_pairing
);
