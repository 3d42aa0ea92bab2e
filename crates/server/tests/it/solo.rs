//! 单机 over real WebSockets against the real server, on both backends: a guest
//! (no account) plays the computer at a private table, or hot-seat (one user at
//! every seat) in every game; private tables are in no lobby (live or over
//! HTTP, before or after a restart) and in no profile, count or export, nothing
//! is rated, the finished game is stored like any other, and nobody but the
//! owner watches, sits or reads a game by id.
#![cfg(all(
    feature = "chess",
    feature = "xiangqi",
    feature = "go",
    feature = "doudizhu"
))]

use serde_json::{Value, json};

use crate::common::*;

/// Whether any message the socket saw names the table `id`.
fn mentions(ws: &Ws, t: &str, id: &str) -> bool {
    ws.seen
        .iter()
        .filter(|m| m["t"] == t)
        .any(|m| m.to_string().contains(id))
}

/// Reads until the table's state satisfies `f`.
async fn until(ws: &mut Ws, f: impl Fn(&Value) -> bool) {
    loop {
        let seen = ws.seen.iter().any(|m| !m["d"]["state"].is_null());
        if seen && f(ws.state()) {
            return;
        }
        ws.recv().await;
    }
}

/// Reads until table `id`'s view, as the socket holds it, satisfies `f`.
async fn until_table(ws: &mut Ws, id: &str, f: impl Fn(&Value) -> bool) {
    while !ws.views.tables.get(id).is_some_and(&f) {
        ws.recv().await;
    }
}

/// The first legal action of the seat to act in a game's view (Go: the first
/// empty point from the top left, which on these boards is always legal).
fn legal_of(g: &Value) -> Option<String> {
    let b = &g["board"];
    if let Some(rows) = b["board"].as_array() {
        if b["to_move"].is_null() {
            return None;
        }
        let size = rows.len();
        for (i, row) in rows.iter().enumerate() {
            if let Some(j) = row.as_str()?.find('.') {
                let col = b"ABCDEFGHJKLMNOPQRST"[j] as char;
                return Some(format!("{col}{}", size - i));
            }
        }
        return None;
    }
    [&b["legal_moves"][0], &b["legal"][0]]
        .into_iter()
        .find_map(|v| v.as_str().map(str::to_string))
}

async fn a_guest_plays_the_computer_privately_in_every_game(backend: Backend) {
    let server = start(backend).await;
    let guest = server.guest().await;
    let watcher = server.guest().await;
    let mut lobby = watcher.ws().await;
    for game in ["chess", "xiangqi", "go", "doudizhu"] {
        lobby.send("lobby.subscribe", json!({"game": game})).await;
        lobby.expect("lobby").await;
    }
    let mut ws = guest.ws().await;
    for (game, level, options) in [
        ("chess", json!(1), json!(null)),
        ("xiangqi", json!(1), json!(null)),
        (
            "go",
            json!(1),
            json!({"size": 9, "komi": 7.5, "handicap": 0}),
        ),
        ("doudizhu", json!("basic"), json!(null)),
    ] {
        let r = ws
            .ok(
                "play_computer",
                json!({"game": game, "level": level, "colour": 0, "options": options,
                       "time": {"kind": "none"}, "private": true}),
            )
            .await;
        let table = r["d"]["table"].as_str().unwrap().to_string();
        assert!(table.starts_with("solo"), "{table}");
        until(&mut ws, |s| {
            s["status"] == "playing" && s["game_name"] == game && legal_of(&s["game"]).is_some()
        })
        .await;
        // The human's first action, then the computer answers.
        let action = legal_of(&ws.state()["game"]).expect("a legal action");
        ws.ok("move", json!({"table": table, "action": action}))
            .await;
        until(&mut ws, |s| {
            s["game"]["moves"].as_array().map_or(0, Vec::len) >= 2 || s["status"] == "over"
        })
        .await;
        let st = ws.state();
        assert_eq!(st["game"]["rated"], false);
        assert!(st["seats"][1]["user"].as_str().unwrap().starts_with("bot:"));
        // Listed nowhere.
        let listed: Value = watcher
            .get(&format!("/api/lobby/{game}"))
            .await
            .json()
            .await
            .unwrap();
        assert!(!listed.to_string().contains(&table), "{listed}");
        assert!(!mentions(&lobby, "lobby.table", &table));
        assert!(!mentions(&lobby, "lobby", &table));
    }
}

async fn hotseat_chess_is_played_by_one_user_and_stays_private(backend: Backend) {
    let mut server = start(backend).await;
    let mut user = server.register("solo_alice").await;
    let mut ws = user.ws().await;
    let r = ws.ok("hotseat", json!({"game": "chess"})).await;
    let table = r["d"]["table"].as_str().unwrap().to_string();
    assert!(table.starts_with("solo"));
    until(&mut ws, |s| s["status"] == "playing").await;
    let st = ws.state();
    assert_eq!(st["seats"][0]["user"], "solo_alice");
    assert_eq!(st["seats"][1]["user"], "hotseat:2:solo_alice");
    assert_eq!(st["you"], 0);
    // One socket moves for both sides; it sees the table as the seat to move.
    ws.ok("move", json!({"table": table, "action": "e2e4"}))
        .await;
    until(&mut ws, |s| s["you"] == 1).await;
    ws.ok("move", json!({"table": table, "action": "e7e5"}))
        .await;
    // A takeback is granted at once by the other seat: e5 is gone.
    ws.ok("takeback.request", json!({"table": table})).await;
    until(&mut ws, |s| {
        s["game"]["moves"].as_array().unwrap().len() == 1
    })
    .await;
    assert_eq!(ws.state()["you"], 1);
    // A move for the seat named is taken as that seat's; the other is refused.
    let r = ws
        .act("move", json!({"table": table, "action": "e2e3", "seat": 0}))
        .await;
    assert_eq!(r["t"], "error", "{r}");
    for m in ["e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"] {
        ws.ok("move", json!({"table": table, "action": m})).await;
    }
    until(&mut ws, |s| s["status"] == "over").await;
    let st = ws.state();
    assert_eq!(st["game"]["outcome"]["results"][0], "win", "{st}");
    assert_eq!(st["game"]["rated"], false);
    // Stored like any game, in no profile, in no lobby.
    let game: Value = user
        .get(&format!("/api/game/{table}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(game["stored"]["status"], "finished", "{game}");
    let profile: Value = user.get("/api/user/solo_alice").await.json().await.unwrap();
    assert_eq!(profile["games"], json!([]), "{profile}");
    assert!(profile["ratings"].as_array().is_none_or(Vec::is_empty));
    // A rematch is agreed by the other seat: a new game starts.
    ws.ok("rematch", json!({"table": table})).await;
    until(&mut ws, |s| {
        s["status"] == "playing" && s["game"]["number"] == 2
    })
    .await;
    ws.close().await;
    server.restart().await;
    user.follow(&server);
    let listed: Value = user.get("/api/lobby/chess").await.json().await.unwrap();
    assert!(!listed.to_string().contains(&table), "{listed}");
    // After the restart the table is still there, hot-seat as before.
    let mut ws = user.ws().await;
    ws.send("watch", json!({"table": table})).await;
    ws.expect("sync").await;
    ws.ok("move", json!({"table": table, "action": "e2e4"}))
        .await;
    ws.ok("move", json!({"table": table, "action": "e7e5"}))
        .await;
}

async fn hotseat_in_every_game_shows_the_seat_to_act(backend: Backend) {
    let server = start(backend).await;
    let guest = server.guest().await;
    let mut ws = guest.ws().await;
    for (game, options) in [
        ("xiangqi", json!(null)),
        ("go", json!({"size": 9, "komi": 7.5, "handicap": 0})),
        ("doudizhu", json!(null)),
    ] {
        let r = ws
            .ok("hotseat", json!({"game": game, "options": options}))
            .await;
        let table = r["d"]["table"].as_str().unwrap().to_string();
        until(&mut ws, |s| {
            s["status"] == "playing" && s["game_name"] == game
        })
        .await;
        for _ in 0..4 {
            let st = ws.state().clone();
            let g = &st["game"];
            let seat = g["turn"]["seat"].clone();
            assert_eq!(st["you"], seat, "the view is the seat to act's: {st}");
            if game == "doudizhu" {
                assert!(!g["board"]["hand"].is_null(), "the hand of the seat to act");
                assert_eq!(g["board"]["to_act"], seat);
            }
            let action = legal_of(g).expect("a legal action");
            let v = ws
                .ok("move", json!({"table": table, "action": action}))
                .await["d"]["v"]
                .as_u64()
                .unwrap();
            ws.catch_up(v).await;
        }
        if game != "doudizhu" {
            ws.ok("resign", json!({"table": table})).await;
            until(&mut ws, |s| s["status"] == "over").await;
        }
    }
    // A guest's profile lists no private game.
    let profile: Value = guest
        .get(&format!("/api/user/{}", guest.name))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(profile["games"], json!([]), "{profile}");
}

async fn hotseat_go_is_counted_once_one_user_accepts(backend: Backend) {
    let server = start(backend).await;
    let guest = server.guest().await;
    let mut ws = guest.ws().await;
    let r = ws
        .ok(
            "hotseat",
            json!({"game": "go", "options": {"size": 9, "komi": 7.5, "handicap": 0}}),
        )
        .await;
    let table = r["d"]["table"].as_str().unwrap().to_string();
    until(&mut ws, |s| s["status"] == "playing").await;
    for m in ["E5", "pass", "pass"] {
        ws.ok("move", json!({"table": table, "action": m})).await;
    }
    until(&mut ws, |s| s["game"]["phase"] == "marking").await;
    // Accepting the marking once is both seats' acceptance.
    ws.ok("move", json!({"table": table, "action": "accept"}))
        .await;
    until(&mut ws, |s| s["status"] == "over").await;
    let st = ws.state();
    assert_eq!(st["game"]["outcome"]["results"][0], "win", "{st}");
}

async fn solo_needs_a_session_and_a_game(backend: Backend) {
    let server = start(backend).await;
    let guest = server.guest().await;
    let mut ws = guest.ws().await;
    let r = ws.act("hotseat", json!({"game": "halma"})).await;
    assert_eq!(r["d"]["code"], "unknown_game");
    let r = ws
        .act("hotseat", json!({"game": "chess", "rated": true}))
        .await;
    assert_eq!(r["d"]["code"], "bad_message");
    // Without a session: refused.
    let (stream, _) = tokio_tungstenite::connect_async(server.ws.clone())
        .await
        .unwrap();
    let mut anon = Ws {
        stream,
        seen: Vec::new(),
        views: Default::default(),
    };
    anon.expect("hello").await;
    let r = anon.act("hotseat", json!({"game": "chess"})).await;
    assert_eq!(r["d"]["code"], "not_logged_in", "{r}");
}

/// An anonymous GET of `path`: (status, body).
async fn anonymous(server: &TestServer, path: &str) -> (u16, String) {
    let r = reqwest::get(format!("{}{path}", server.base))
        .await
        .unwrap();
    (r.status().as_u16(), r.text().await.unwrap())
}

/// A private table is its owner's alone, before and after a restart: its games
/// are in no list or count (a user's games, the Lichess-style export and
/// profile, the lobby), nobody else may watch it, sit there (even once the
/// owner has left) or read its games by id; the owner's public game against
/// the computer is listed in their games, not in the lobby.
async fn a_private_table_is_its_owners_alone(backend: Backend) {
    let mut server = start_with(backend, |c| c.bot_think_ms = 0).await;
    let mut owner = server.register("solo_owner").await;
    let mut stranger = server.register("solo_stranger").await;
    let mut ws = owner.ws().await;
    let play = |private: bool| json!({"game": "chess", "level": 1, "colour": 0, "time": {"kind": "none"}, "private": private});
    let public = ws.ok("play_computer", play(false)).await["d"]["table"]
        .as_str()
        .unwrap()
        .to_string();
    let private = ws.ok("play_computer", play(true)).await["d"]["table"]
        .as_str()
        .unwrap()
        .to_string();
    let hotseat = ws.ok("hotseat", json!({"game": "chess"})).await["d"]["table"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(!public.starts_with("solo") && private.starts_with("solo"));
    until_table(&mut ws, &private, |s| s["status"] == "playing").await;
    // The private game against the computer is played out (resigned) and its
    // owner leaves its seat; the hot-seat one goes on.
    ws.ok("resign", json!({"table": private})).await;
    until_table(&mut ws, &private, |s| s["status"] == "over").await;
    ws.ok("leave", json!({"table": private})).await;
    let mut ws = Some(ws);

    for round in ["before", "after a restart"] {
        // In no list and no count: the public game alone is the owner's.
        let (status, body) = anonymous(&server, "/api/user/solo_owner").await;
        assert_eq!(status, 200, "{round}: {body}");
        let profile: Value = serde_json::from_str(&body).unwrap();
        let ids: Vec<&str> = profile["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["table"].as_str().unwrap())
            .collect();
        assert_eq!(ids, [public.as_str()], "{round}: {profile}");
        assert_eq!(profile["count"]["all"], 1, "{round}: {profile}");
        let export = reqwest::Client::new()
            .get(format!("{}/api/games/user/solo_owner", server.base))
            .header("Accept", "application/x-ndjson")
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(export.contains(&public), "{round}: {export}");
        for id in [&private, &hotseat] {
            assert!(!export.contains(id.as_str()), "{round}: {export}");
            assert!(!body.contains(id.as_str()), "{round}: {body}");
        }
        // The lobby lists none of the three: games against the computer are
        // kept apart, private tables are listed nowhere.
        let (_, lobby) = anonymous(&server, "/api/lobby/chess").await;
        for id in [&public, &private, &hotseat] {
            assert!(!lobby.contains(id.as_str()), "{round}: {lobby}");
        }

        // Nobody else may watch or sit, by socket...
        let mut other = stranger.ws().await;
        for id in [&private, &hotseat] {
            let r = other.act("watch", json!({"table": id})).await;
            assert_eq!(r["d"]["code"], "private_table", "{round}: {r}");
            let r = other.act("sit", json!({"table": id, "seat": 0})).await;
            assert_eq!(r["d"]["code"], "private_table", "{round}: {r}");
        }
        assert!(
            !other
                .seen
                .iter()
                .any(|m| m["t"] == "sync" || m["t"] == "event"),
            "{round}: a stranger saw the table: {:?}",
            other.seen
        );
        let (stream, _) = tokio_tungstenite::connect_async(server.ws.clone())
            .await
            .unwrap();
        let mut anon = Ws {
            stream,
            seen: Vec::new(),
            views: Default::default(),
        };
        anon.expect("hello").await;
        let r = anon.act("watch", json!({"table": private})).await;
        assert_eq!(r["d"]["code"], "private_table", "{round}: {r}");
        // ... or read its games by id, with a session or without.
        for path in [
            format!("/api/game/{private}"),
            format!("/api/game/{private}/log"),
            format!("/api/game/{private}/replay"),
            format!("/api/game/{private}/analysis"),
            format!("/game/{private}.pgn"),
            format!("/game/{hotseat}.pgn"),
            format!("/game/export/{private}"),
            format!("/api/game/{hotseat}-1"),
        ] {
            let r = stranger.get(&path).await;
            assert_eq!(r.status(), 403, "{round}: {path}");
            let (status, _) = anonymous(&server, &path).await;
            assert_eq!(status, 403, "{round}: {path}");
        }
        let body: Value = stranger
            .get(&format!("/api/game/{private}"))
            .await
            .json()
            .await
            .unwrap();
        assert_eq!(body["error"]["code"], "private_table", "{body}");
        // The owner may.
        for path in [
            format!("/api/game/{private}"),
            format!("/game/{private}.pgn"),
            format!("/game/export/{private}"),
            format!("/api/game/{hotseat}/log"),
        ] {
            let r = owner.get(&path).await;
            assert_eq!(r.status(), 200, "{round}: {path}");
        }
        let mut mine = owner.ws().await;
        mine.send("watch", json!({"table": private})).await;
        mine.expect("sync").await;
        if let Some(ws) = ws.take() {
            ws.close().await;
            mine.close().await;
            other.close().await;
            server.restart().await;
            owner.follow(&server);
            stranger.follow(&server);
        } else {
            // The owner may sit again where they left.
            mine.ok("sit", json!({"table": private, "seat": 0})).await;
        }
    }
}

both!(
    a_private_table_is_its_owners_alone,
    a_guest_plays_the_computer_privately_in_every_game,
    hotseat_chess_is_played_by_one_user_and_stays_private,
    hotseat_in_every_game_shows_the_seat_to_act,
    hotseat_go_is_counted_once_one_user_accepts,
    solo_needs_a_session_and_a_game,
);
