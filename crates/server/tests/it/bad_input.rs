//! Bad input over real sockets: each gets a typed error, changes nothing, and the
//! connection stays usable. Also the account endpoints' refusals.

use serde_json::{Value, json};

use crate::common::*;

/// The version and move count of a table as a fresh spectator sees it.
async fn snapshot(c: &Client, table: &str) -> (u64, usize) {
    let game: Value = c
        .get(&format!("/api/game/{table}"))
        .await
        .json()
        .await
        .unwrap();
    let state = &game["state"];
    (
        state["version"].as_u64().unwrap(),
        state["game"]["moves"].as_array().map_or(0, |m| m.len()),
    )
}

async fn every_bad_message_is_a_typed_error(backend: Backend) {
    let server = start(backend).await;
    let a = server.guest().await;
    let b = server.guest().await;
    let c = server.guest().await;
    let (t, mut wa, mut wb) = table_with_game(&server, &a, &b, "chess", blitz()).await;
    let mut wc = c.ws().await;
    wc.send("watch", json!({"table": t})).await;
    wc.expect("sync").await;
    let before = snapshot(&c, &t).await;

    let check = async |ws: &mut Ws, raw: &str, code: &str| {
        ws.send_raw(raw).await;
        let e = ws.expect("error").await;
        assert_eq!(e["d"]["code"], code, "{raw} → {e}");
        // Still usable.
        ws.send_raw(r#"{"t":"ping","id":"p"}"#).await;
        assert_eq!(ws.expect("pong").await["id"], "p");
    };
    check(&mut wa, "{this is not json", "malformed_json").await;
    check(&mut wa, r#"{"t":"teleport","d":{}}"#, "unknown_type").await;
    check(&mut wa, r#"{"t":"move","d":{"table":"x"}}"#, "bad_message").await;
    let big = format!(
        r#"{{"t":"move","d":{{"table":"{t}","action":"{}"}}}}"#,
        "e".repeat(20_000)
    );
    check(&mut wa, &big, "too_large").await;
    // Past the socket's hard limit (four times the largest message, at least
    // 64 KiB) the socket is closed unread: a read buffer keeps the size of the
    // largest frame it read for good (issue 41: 1 MiB frames, each socket
    // kept 1 MiB). Up to the limit a message is `too_large`.
    let ping = |n: usize| format!(r#"{{"t":"ping","d":{{"x":"{}"}}}}"#, "e".repeat(n));
    check(&mut wc, &ping(60_000), "too_large").await;
    let mut wd = c.ws().await;
    wd.send_raw(&ping(100_000)).await;
    let closed = tokio::time::timeout(std::time::Duration::from_secs(10), async {
        use futures_util::StreamExt;
        use tokio_tungstenite::tungstenite::Message;
        loop {
            match wd.stream.next().await {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => break,
                Some(Ok(_)) => {}
            }
        }
    })
    .await;
    assert!(
        closed.is_ok(),
        "a message past the hard limit closes the socket"
    );
    // A move for another game: named explicitly, or in another game's notation.
    let wrong =
        json!({"t": "move", "d": {"table": t, "game": "xiangqi", "action": "h2e2"}}).to_string();
    check(&mut wa, &wrong, "wrong_game").await;
    let xq = json!({"t": "move", "d": {"table": t, "action": "h2e2"}}).to_string();
    wa.send_raw(&xq).await;
    let e = wa.expect("error").await;
    assert!(
        ["illegal", "malformed_action"].contains(&e["d"]["code"].as_str().unwrap()),
        "{e}"
    );
    // Out of turn, illegal, a spectator moving, acting for another seat.
    let out_of_turn = json!({"t": "move", "d": {"table": t, "action": "e7e5"}}).to_string();
    check(&mut wb, &out_of_turn, "not_your_turn").await;
    let illegal = json!({"t": "move", "d": {"table": t, "action": "e2e5"}}).to_string();
    check(&mut wa, &illegal, "illegal").await;
    let spectator = json!({"t": "move", "d": {"table": t, "action": "e2e4"}}).to_string();
    check(&mut wc, &spectator, "not_seated").await;
    let for_other = json!({"t": "resign", "d": {"table": t, "seat": 0}}).to_string();
    check(&mut wb, &for_other, "not_your_seat").await;
    let no_table = json!({"t": "move", "d": {"table": "nosuchtb", "action": "e2e4"}}).to_string();
    check(&mut wa, &no_table, "not_found").await;

    assert_eq!(snapshot(&c, &t).await, before, "nothing changed");
    // And the game goes on.
    wa.ok("move", json!({"table": t, "action": "e2e4"})).await;
    wb.ok("move", json!({"table": t, "action": "e7e5"})).await;
    assert_eq!(snapshot(&c, &t).await.1, 2);
}

async fn accounts(backend: Backend) {
    let server = start(backend).await;
    let http = reqwest::Client::new();
    let post = |path: &str, body: Value| {
        http.post(format!("{}{path}", server.base))
            .json(&body)
            .send()
    };
    let r = post(
        "/api/account/register",
        json!({"username": "x", "password": "secret-pw"}),
    )
    .await
    .unwrap();
    assert_eq!(r.status(), 400);
    assert_eq!(
        r.json::<Value>().await.unwrap()["error"]["code"],
        "bad_username"
    );
    let r = post(
        "/api/account/register",
        json!({"username": "Carol", "password": "123"}),
    )
    .await
    .unwrap();
    assert_eq!(
        r.json::<Value>().await.unwrap()["error"]["code"],
        "bad_password"
    );
    let carol = server.register("Carol").await;
    let r = post(
        "/api/account/register",
        json!({"username": "carol", "password": "secret-pw"}),
    )
    .await
    .unwrap();
    assert_eq!(r.status(), 409, "usernames are unique regardless of case");

    let me: Value = carol.get("/api/account/me").await.json().await.unwrap();
    assert_eq!(me["user"]["username"], "Carol");
    // Login with the cookie, then logout ends the session.
    let jar = reqwest::Client::builder()
        .cookie_store(true)
        .build()
        .unwrap();
    let r = jar
        .post(format!("{}/api/account/login", server.base))
        .json(&json!({"username": "CAROL", "password": "secret-pw"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let r = jar
        .get(format!("{}/api/account/me", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200, "the cookie is a session");
    jar.post(format!("{}/api/account/logout", server.base))
        .send()
        .await
        .unwrap();
    let r = jar
        .get(format!("{}/api/account/me", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 401);

    // Three failures (the test limit), then even the right password waits.
    for _ in 0..3 {
        let r = post(
            "/api/account/login",
            json!({"username": "Carol", "password": "wrong-pw"}),
        )
        .await
        .unwrap();
        assert_eq!(r.status(), 401);
    }
    let r = post(
        "/api/account/login",
        json!({"username": "Carol", "password": "secret-pw"}),
    )
    .await
    .unwrap();
    assert_eq!(r.status(), 429);
    assert_eq!(
        r.json::<Value>().await.unwrap()["error"]["code"],
        "rate_limited"
    );

    // Guests cannot play rated games.
    let g = server.guest().await;
    let mut ws = g.ws().await;
    let e = ws
        .act("create", json!({"game": "chess", "rated": true}))
        .await;
    assert_eq!(e["d"]["code"], "guest_rated", "{e}");
    // Health and the web fallback.
    let health: Value = g.get("/api/health").await.json().await.unwrap();
    assert_eq!(health["ok"], true);
    assert_eq!(g.get("/table/abc").await.status(), 200);

    // Graceful shutdown closes open sockets and returns.
    let mut server = server;
    let running = server.running.take().unwrap();
    tokio::time::timeout(std::time::Duration::from_secs(10), running.shutdown())
        .await
        .expect("shutdown within 10 s")
        .unwrap();
    // (The server's ping frames, which measure lag, may still be in flight.)
    let next = tokio::time::timeout(std::time::Duration::from_secs(5), async {
        loop {
            match futures_util::StreamExt::next(&mut ws.stream).await {
                Some(Ok(
                    tokio_tungstenite::tungstenite::Message::Ping(_)
                    | tokio_tungstenite::tungstenite::Message::Pong(_),
                )) => continue,
                other => return other,
            }
        }
    })
    .await;
    assert!(
        matches!(
            next,
            Ok(None | Some(Err(_)) | Some(Ok(tokio_tungstenite::tungstenite::Message::Close(_))))
        ),
        "{next:?}"
    );
}

both!(every_bad_message_is_a_typed_error, accounts);
