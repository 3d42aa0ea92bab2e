//! The replay viewer's endpoint (`GET /api/game/{id}/replay`), an account's
//! client settings (`GET`/`PUT /api/account/settings`) and a computer player's
//! profile, through the real server on both backends.

use serde_json::{Value, json};

use crate::common::*;

async fn json_of(r: reqwest::Response) -> (u16, Value) {
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

async fn put_settings(c: &Client, body: &Value) -> (u16, Value) {
    json_of(
        c.http
            .put(format!("{}/api/account/settings", c.base))
            .bearer_auth(&c.token)
            .json(body)
            .send()
            .await
            .unwrap(),
    )
    .await
}

async fn log_in(server: &TestServer, name: &str) -> Client {
    let http = reqwest::Client::new();
    let r: Value = http
        .post(format!("{}/api/account/login", server.base))
        .json(&json!({"username": name, "password": "secret-pw"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    Client {
        http,
        base: server.base.clone(),
        ws_url: server.ws.clone(),
        token: r["token"].as_str().expect("a token").to_string(),
        name: name.to_string(),
    }
}

async fn settings_follow_the_account(backend: Backend) {
    let server = start(backend).await;
    let alice = server.register("ali").await;
    let bob = server.register("bob").await;
    let (status, body) = json_of(alice.get("/api/account/settings").await).await;
    assert_eq!((status, &body["settings"]), (200, &Value::Null), "{body}");

    let mine = json!({"lang": "en", "boardTheme": "green", "sound": false});
    let (status, body) = put_settings(&alice, &mine).await;
    assert_eq!((status, &body["settings"]), (200, &mine), "{body}");
    // Another session of the same account (another browser) reads them.
    let again = log_in(&server, &alice.name).await;
    assert_ne!(again.token, alice.token);
    let (_, body) = json_of(again.get("/api/account/settings").await).await;
    assert_eq!(body["settings"], mine);
    // Replaced whole, and only for that account.
    let (status, _) = put_settings(&again, &json!({"lang": "zh-CN"})).await;
    assert_eq!(status, 200);
    let (_, body) = json_of(alice.get("/api/account/settings").await).await;
    assert_eq!(body["settings"], json!({"lang": "zh-CN"}));
    let (_, body) = json_of(bob.get("/api/account/settings").await).await;
    assert_eq!(body["settings"], Value::Null);

    // Refused, changing nothing: not an object, too large, nobody logged in.
    let (status, body) = put_settings(&alice, &json!(["lang", "en"])).await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (422, &json!("bad_message"))
    );
    let big = json!({"x": "y".repeat(5000)});
    let (status, body) = put_settings(&alice, &big).await;
    assert_eq!((status, &body["error"]["code"]), (413, &json!("too_large")));
    let anon = reqwest::Client::new()
        .get(format!("{}/api/account/settings", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(anon.status(), 401);
    let (_, body) = json_of(alice.get("/api/account/settings").await).await;
    assert_eq!(body["settings"], json!({"lang": "zh-CN"}));
    // The store keeps them across a restart.
    let mut server = server;
    server.restart().await;
    let mut again = again;
    again.follow(&server);
    let (_, body) = json_of(again.get("/api/account/settings").await).await;
    assert_eq!(body["settings"], json!({"lang": "zh-CN"}));
}

/// Plays `moves` alternately for seats 0 and 1, then seat 1 resigns.
async fn play_and_resign(wa: &mut Ws, wb: &mut Ws, table: &str, moves: &[&str]) {
    for (i, m) in moves.iter().enumerate() {
        let ws = if i % 2 == 0 { &mut *wa } else { &mut *wb };
        ws.ok("move", json!({"table": table, "action": m})).await;
    }
    wb.ok("resign", json!({"table": table})).await;
}

async fn a_finished_game_replays_ply_by_ply(backend: Backend) {
    let server = start(backend).await;
    let a = server.register("alice").await;
    let b = server.register("bobby").await;

    // Chess: SAN and UCI, each position's FEN, the result.
    let (table, mut wa, mut wb) = table_with_game(&server, &a, &b, "chess", json!(null)).await;
    play_and_resign(&mut wa, &mut wb, &table, &["e2e4", "e7e5", "g1f3"]).await;
    let (status, r) = json_of(a.get(&format!("/api/game/{table}/replay")).await).await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["game"], "chess");
    assert_eq!(r["finished"], true);
    assert_eq!(r["record"], format!("/game/{table}.pgn"));
    assert_eq!(r["players"], json!([a.name, b.name]));
    assert_eq!(r["outcome"]["reason"], "resignation", "{}", r["outcome"]);
    let plies = r["plies"].as_array().unwrap();
    let san: Vec<&str> = plies
        .iter()
        .map(|p| p["display"].as_str().unwrap())
        .collect();
    let uci: Vec<&str> = plies
        .iter()
        .map(|p| p["action"].as_str().unwrap())
        .collect();
    assert_eq!(san, ["e4", "e5", "Nf3"]);
    assert_eq!(uci, ["e2e4", "e7e5", "g1f3"]);
    let positions = r["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 4, "the start and one per ply");
    assert!(
        positions[0][0]["fen"]
            .as_str()
            .unwrap()
            .starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w")
    );
    assert!(
        positions[3][0]["fen"]
            .as_str()
            .unwrap()
            .starts_with("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b")
    );
    // The same game by its game id, and a game the table never had.
    let (status, _) = json_of(a.get(&format!("/api/game/{table}-1/replay")).await).await;
    assert_eq!(status, 200);
    let (status, body) = json_of(a.get(&format!("/api/game/{table}-2/replay")).await).await;
    assert_eq!((status, &body["error"]["code"]), (404, &json!("not_found")));
    let (status, _) = json_of(a.get("/api/game/nosuchtable/replay").await).await;
    assert_eq!(status, 404);

    // The table's second game (a rematch) is its own replay.
    wa.ok("rematch", json!({"table": table})).await;
    wb.ok("rematch", json!({"table": table})).await;
    // The rematch swaps colours: b is white now.
    let v = wb.state()["version"].as_u64().unwrap();
    wa.catch_up(v).await;
    let white_is_a = wa.state()["game"]["players"][0] == a.name.as_str();
    let (w, bl) = if white_is_a {
        (&mut wa, &mut wb)
    } else {
        (&mut wb, &mut wa)
    };
    play_and_resign(w, bl, &table, &["d2d4"]).await;
    let (status, r2) = json_of(a.get(&format!("/api/game/{table}-2/replay")).await).await;
    assert_eq!(status, 200, "{r2}");
    assert_eq!(r2["id"], format!("{table}-2"));
    assert_eq!(r2["plies"][0]["display"], "d4");
    assert_eq!(r2["plies"].as_array().unwrap().len(), 1);

    // Xiangqi: Chinese from the game, ICCS, and WXF.
    let (table, mut wa, mut wb) = table_with_game(&server, &a, &b, "xiangqi", json!(null)).await;
    play_and_resign(&mut wa, &mut wb, &table, &["h2e2", "h9g7"]).await;
    let (status, r) = json_of(a.get(&format!("/api/game/{table}/replay")).await).await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["plies"][0]["display"], "炮二平五");
    assert_eq!(r["plies"][0]["action"], "h2e2");
    assert_eq!(r["plies"][0]["notations"]["wxf"], "C2=5");
    assert_eq!(r["plies"][1]["notations"]["wxf"], "H8+7");
    assert_eq!(r["positions"].as_array().unwrap().len(), 3);

    // Go: vertices and passes on the board.
    let (table, mut wa, mut wb) = table_with_game(&server, &a, &b, "go", json!(null)).await;
    play_and_resign(&mut wa, &mut wb, &table, &["D4", "pass", "C3"]).await;
    let (status, r) = json_of(a.get(&format!("/api/game/{table}/replay")).await).await;
    assert_eq!(status, 200, "{r}");
    let shown: Vec<&str> = r["plies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["action"].as_str().unwrap())
        .collect();
    assert_eq!(shown, ["D4", "pass", "C3"]);
    let last = &r["positions"][3][0];
    assert_eq!(last["last_move"], "C3");
    let stones: usize = last["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row.as_str().unwrap().matches('X').count())
        .sum();
    assert_eq!(stones, 2);

    let _ = (wa, wb);
}

async fn a_hidden_hand_replays_only_when_over_with_every_hand(backend: Backend) {
    let server = start(backend).await;
    let a = server.register("carol").await;
    let mut wa = a.ws().await;
    let ack = wa
        .ok(
            "play_computer",
            json!({"game": "doudizhu", "level": "basic", "colour": 0}),
        )
        .await;
    let table = ack["d"]["table"].as_str().unwrap().to_string();
    // The hand starts a moment after the answer, once the computer players are
    // ready: until then the table has no game to replay.
    for _ in 0..100 {
        let (status, _) = json_of(a.get(&format!("/api/game/{table}/replay")).await).await;
        if status != 404 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let (status, body) = json_of(a.get(&format!("/api/game/{table}/replay")).await).await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (403, &json!("hidden_while_playing")),
        "{body}"
    );
    // A spectator's socket sees no hand; the replay, once over, sees all three.
    wa.ok("resign", json!({"table": table})).await;
    let (status, r) = json_of(a.get(&format!("/api/game/{table}/replay")).await).await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["finished"], true);
    assert_eq!(r["record"], format!("/game/{table}.json"));
    let start = r["positions"][0].as_array().unwrap();
    assert_eq!(start.len(), 3, "one view per seat");
    let hands: Vec<&Value> = start.iter().map(|v| &v["hand"]).collect();
    for h in &hands {
        assert!(!h.is_null(), "every seat's own hand is shown: {h}");
    }
    assert_ne!(hands[0], hands[1]);
    assert!(
        r["players"][1].as_str().unwrap().starts_with("bot:"),
        "{}",
        r["players"]
    );
    // The record names the computer players, never by their ids.
    let resp = a.get(&format!("/game/{table}.json")).await;
    let disposition = resp.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(!disposition.contains("bot"), "{disposition}");
    assert!(
        disposition.contains("%E7%94%B5%E8%84%91"),
        "电脑 in the file name: {disposition}"
    );
    let record = resp.text().await.unwrap();
    assert!(record.contains("电脑（普通）"), "{record}");
    assert!(!record.contains("bot:"), "{record}");
    // The computer player's profile answers, as an account without games.
    let bot = r["players"][1].as_str().unwrap();
    let (status, p) = json_of(a.get(&format!("/api/user/{bot}")).await).await;
    assert_eq!(status, 200, "{p}");
    assert_eq!(p["user"]["username"], bot);
    assert_eq!(p["games"], json!([]));
    let (status, _) = json_of(a.get("/api/user/bot:nodash").await).await;
    assert_eq!(status, 404);
}

both!(
    settings_follow_the_account,
    a_finished_game_replays_ply_by_ply,
    a_hidden_hand_replays_only_when_over_with_every_hand,
);
