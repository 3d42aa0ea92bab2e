//! The Lichess-compatible API across several nodes (issue 20): real HTTP
//! clients against two real nodes on one PostgreSQL and one Redis (see
//! `multinode.rs` for the setup). A challenge made on one node is seen and
//! accepted on another; each player's event stream, on their own node, sees
//! the challenge, the game's start and its end; a player's game stream follows
//! a table another node owns, and a move or a chat line posted to one node
//! reaches the table and the other player's stream on the other.

use std::time::Duration;

use serde_json::{Value, json};

use crate::api::{self, Api};
use crate::nodes::Site;

/// A new account on node `base` and a personal token of it with the board
/// API's scopes.
async fn player(base: &str, name: &str) -> Api {
    let http = reqwest::Client::new();
    let resp = http
        .post(format!("{base}/api/account/register"))
        .json(&json!({"username": name, "password": "secret-pw"}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 201, "register {name}");
    let session: Value = resp.json().await.unwrap();
    let r = http
        .post(format!("{base}/api/token"))
        .bearer_auth(session["token"].as_str().unwrap())
        .form(&[
            ("description", "test"),
            ("scopes", "board:play challenge:read challenge:write"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let body: Value = r.json().await.unwrap();
    Api {
        http,
        base: base.to_string(),
        token: body["access_token"].as_str().unwrap().to_string(),
    }
}

/// Alice on node a challenges Bob on node b; Bob sees it on his node and
/// accepts there (node b owns the game); each event stream sees the start;
/// the players' game streams, each on their own node, see every move either
/// posts; chat crosses too; a declined challenge is told across nodes; Alice
/// resigns on node a and both event streams see the end. Someone else is
/// refused the game and the challenge on either node.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_made_on_one_node_is_played_from_both() {
    if std::env::var_os("MN_LOG").is_some() {
        qiyuan_server::logs::init("info", qiyuan_server::logs::LogFormat::Text);
    }
    let site = Site::new("mn_api");
    let tweak = |c: &mut qiyuan_server::Config| c.api.keepalive_secs = 0.3;
    let a = site.node_with("a", tweak).await;
    let b = site.node_with("b", tweak).await;
    let alice = player(&a.base, "alice").await;
    let bob = player(&b.base, "bob").await;
    let carol = player(&a.base, "carol").await;
    let mut a_events = alice.stream("/api/stream/event").await;
    let mut b_events = bob.stream("/api/stream/event").await;

    let r = alice
        .post(
            "/api/challenge/bob",
            &[
                ("clock.limit", "300"),
                ("clock.increment", "0"),
                ("color", "white"),
            ],
        )
        .await;
    assert_eq!(r.status(), 200);
    let c: Value = r.json().await.unwrap();
    let id = c["id"].as_str().unwrap().to_string();
    // Bob's event stream, on node b, hears of it; node b lists it.
    let got = b_events
        .until("the challenge", |v| v["type"] == "challenge")
        .await;
    assert_eq!(got["challenge"]["id"], id.as_str(), "{got}");
    assert_eq!(got["challenge"]["direction"], "in", "{got}");
    let out = a_events
        .until("the challenge", |v| v["type"] == "challenge")
        .await;
    assert_eq!(out["challenge"]["direction"], "out", "{out}");
    let listed: Value = bob.get("/api/challenge").await.json().await.unwrap();
    assert_eq!(listed["in"][0]["id"], id.as_str(), "{listed}");
    // Only the challenged may accept, on any node.
    let carol_b = Api {
        base: b.base.clone(),
        ..carol.clone()
    };
    for who in [&carol, &carol_b] {
        let r = who.post(&format!("/api/challenge/{id}/accept"), &[]).await;
        assert_eq!(r.status(), 404, "{} accepting", who.base);
    }
    let accepted: Value = bob
        .post(&format!("/api/challenge/{id}/accept"), &[])
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(accepted["ok"], true, "{accepted}");
    let game = accepted["game"].as_str().unwrap().to_string();
    // Accepted once: a second accept finds nothing, on either node.
    let again = alice
        .post(&format!("/api/challenge/{id}/accept"), &[])
        .await;
    assert_eq!(again.status(), 404);
    // Node b made (and owns) the table; Alice's stream on node a hears of it.
    let a_start = a_events
        .until("gameStart", |v| v["type"] == "gameStart")
        .await;
    assert_eq!(a_start["game"]["gameId"], game.as_str(), "{a_start}");
    assert_eq!(a_start["game"]["color"], "white", "{a_start}");
    let b_start = b_events
        .until("gameStart", |v| v["type"] == "gameStart")
        .await;
    assert_eq!(b_start["game"]["color"], "black", "{b_start}");
    let owner = a.running.as_ref().unwrap().app.store.lease(&game).await;
    assert_eq!(owner.unwrap().unwrap().node, "b", "node b owns the game");

    // Each player follows the game from their own node.
    let mut a_game = alice
        .stream(&format!("/api/board/game/stream/{game}"))
        .await;
    let full = a_game.next().await.unwrap();
    assert_eq!(full["type"], "gameFull", "{full}");
    assert_eq!(full["white"]["name"], "alice", "{full}");
    assert_eq!(full["black"]["name"], "bob", "{full}");
    let mut b_game = bob.stream(&format!("/api/board/game/stream/{game}")).await;
    b_game.moves("").await;
    // Someone not playing is refused the game on node a too.
    let r = carol.get(&format!("/api/board/game/stream/{game}")).await;
    assert_eq!(r.status(), 404);
    let r = carol
        .post(&format!("/api/board/game/{game}/move/e2e4"), &[])
        .await;
    assert_eq!(r.status(), 400, "not carol's move to make");

    // Alice's moves go to node a, Bob's to node b; both streams see all.
    alice.ok(&format!("/api/board/game/{game}/move/e2e4")).await;
    b_game.moves("e2e4").await;
    a_game.moves("e2e4").await;
    let r = alice
        .post(&format!("/api/board/game/{game}/move/d2d4"), &[])
        .await;
    assert_eq!(r.status(), 400, "not Alice's turn: refused through node a");
    bob.ok(&format!("/api/board/game/{game}/move/e7e5")).await;
    a_game.moves("e2e4 e7e5").await;
    b_game.moves("e2e4 e7e5").await;
    alice.ok(&format!("/api/board/game/{game}/move/g1f3")).await;
    b_game.moves("e2e4 e7e5 g1f3").await;

    // Chat posted to node a reaches Bob's stream on node b, and the history.
    alice
        .ok_with(
            &format!("/api/board/game/{game}/chat"),
            &[("room", "player"), ("text", "from node a")],
        )
        .await;
    let line = b_game
        .until("the chat line", |v| v["type"] == "chatLine")
        .await;
    assert_eq!(line["text"], "from node a", "{line}");
    assert_eq!(line["username"], "alice", "{line}");
    let history: Value = bob
        .get(&format!("/api/board/game/{game}/chat"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        history,
        json!([{"user": "alice", "text": "from node a"}]),
        "{history}"
    );

    // A challenge declined on node a is told to its maker on node b.
    let r = bob
        .post("/api/challenge/alice", &[("clock.limit", "60")])
        .await;
    let c2: Value = r.json().await.unwrap();
    let id2 = c2["id"].as_str().unwrap().to_string();
    a_events
        .until("the second challenge", |v| {
            v["type"] == "challenge" && v["challenge"]["id"] == id2.as_str()
        })
        .await;
    alice
        .ok_with(
            &format!("/api/challenge/{id2}/decline"),
            &[("reason", "later")],
        )
        .await;
    let declined = b_events
        .until("challengeDeclined", |v| v["type"] == "challengeDeclined")
        .await;
    assert_eq!(declined["challenge"]["id"], id2.as_str(), "{declined}");
    assert_eq!(declined["challenge"]["declineReason"], "later");

    // Alice resigns on node a: the game ends at node b's table, and both
    // event streams get gameFinish (once each).
    alice.ok(&format!("/api/board/game/{game}/resign")).await;
    let end = b_game
        .until("the end", |v| {
            v["type"] == "gameState" && v["status"] != "started"
        })
        .await;
    assert_eq!(end["status"], "resign", "{end}");
    assert_eq!(end["winner"], "black", "{end}");
    for events in [&mut a_events, &mut b_events] {
        let fin = events
            .until("gameFinish", |v| v["type"] == "gameFinish")
            .await;
        assert_eq!(fin["game"]["gameId"], game.as_str(), "{fin}");
        assert_eq!(fin["game"]["winner"], "black", "{fin}");
    }
    // No second gameFinish follows on either node (one watcher of the end
    // across the nodes): only keep-alives for a while.
    for events in [&mut a_events, &mut b_events] {
        let more = tokio::time::timeout(Duration::from_millis(1500), events.next()).await;
        assert!(more.is_err(), "nothing more: {more:?}");
    }
    drop((a_events, b_events, a_game, b_game));
    a.stop().await;
    b.stop().await;
}

/// Authority across nodes (issue #41): Mallory's socket and streams are on
/// node b. Logging a session out on node a ends that session's stream on b
/// (and no other); a ban given through node a's admin API closes her socket
/// and ends her personal token's stream on b within 5 s, and her tokens are
/// refused on both nodes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_logout_and_a_ban_on_one_node_reach_the_other() {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;

    let site = Site::new("mn_authority");
    let tweak = |c: &mut qiyuan_server::Config| c.api.keepalive_secs = 0.3;
    let a = site.node_with("a", tweak).await;
    let b = site.node_with("b", tweak).await;
    let store = a.running.as_ref().unwrap().app.store.clone();
    let http = reqwest::Client::new();
    let session = async |name: &str, register: bool| -> String {
        let path = if register { "register" } else { "login" };
        let r: Value = http
            .post(format!("{}/api/account/{path}", a.base))
            .json(&json!({"username": name, "password": "secret-pw"}))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        r["token"].as_str().unwrap().to_string()
    };
    let boss = session("boss", true).await;
    qiyuan_server::events::grant(&*store, "boss", "admin")
        .await
        .unwrap();
    let phone = session("mallory", true).await;
    let laptop = session("mallory", false).await;
    let personal = player(&a.base, "mallory2").await;
    let personal_b = Api {
        base: b.base.clone(),
        ..personal.clone()
    };
    let api_b = |token: &str| Api {
        http: reqwest::Client::new(),
        base: b.base.clone(),
        token: token.to_string(),
    };
    let ws_url = format!("{}/ws?token={phone}", b.base.replacen("http", "ws", 1));
    let (mut socket, _) = tokio_tungstenite::connect_async(ws_url).await.unwrap();
    let mut phone_events = api_b(&phone).stream("/api/stream/event").await;
    let mut laptop_events = api_b(&laptop).stream("/api/stream/event").await;
    let mut token_events = personal_b.stream("/api/stream/event").await;
    let ends = async |lines: &mut api::Lines, within: Duration| {
        tokio::time::timeout(within, async { while lines.line().await.is_some() {} })
            .await
            .is_ok()
    };

    // The laptop's session logs out on node a: its stream on b ends.
    let r = http
        .post(format!("{}/api/account/logout", a.base))
        .bearer_auth(&laptop)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 204);
    assert!(ends(&mut laptop_events, Duration::from_secs(5)).await);
    assert!(!ends(&mut phone_events, Duration::from_millis(500)).await);

    // Ban "mallory2" (the personal token's account) and "mallory" on node a.
    for user in ["mallory", "mallory2"] {
        let r = http
            .post(format!("{}/api/admin/role", a.base))
            .bearer_auth(&boss)
            .json(&json!({"user": user, "role": "banned"}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
    }
    let closed = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match socket.next().await {
                Some(Ok(Message::Close(frame))) => {
                    return frame.map(|f| (u16::from(f.code), f.reason.to_string()));
                }
                Some(Ok(_)) => continue,
                _ => return None,
            }
        }
    })
    .await
    .expect("the socket on node b closed within 5 s");
    assert_eq!(closed, Some((4001, "banned".into())));
    assert!(ends(&mut phone_events, Duration::from_secs(5)).await);
    assert!(ends(&mut token_events, Duration::from_secs(5)).await);
    for api in [&personal, &personal_b, &api_b(&phone)] {
        assert_eq!(api.get("/api/account").await.status(), 401, "{}", api.base);
    }
    drop(socket);
    a.stop().await;
    b.stop().await;
}
