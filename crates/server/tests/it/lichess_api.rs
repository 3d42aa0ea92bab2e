//! The Lichess-compatible API against a real server: a real HTTP client reading
//! the NDJSON streams line by line, WebSocket players beside API players, the
//! built-in engine, Fairy-Stockfish's UCI moves for xiangqi, and berserk (the
//! Python client) unchanged but for its base URL.

use std::time::Duration;

use serde_json::{Value, json};

use crate::api::{Api, Lines, token};
use crate::common::{self, Backend, TestServer};

/// The SAN moves of a one-game PGN (comments, move numbers and the result
/// left out).
fn san_moves(pgn: &str) -> Vec<String> {
    let body: String = pgn
        .lines()
        .filter(|l| !l.starts_with('['))
        .collect::<Vec<_>>()
        .join(" ");
    let mut out = Vec::new();
    let mut depth = 0;
    let mut clean = String::new();
    for c in body.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ if depth == 0 => clean.push(c),
            _ => {}
        }
    }
    for tok in clean.split_whitespace() {
        if ["1-0", "0-1", "1/2-1/2", "*"].contains(&tok) {
            continue;
        }
        let tok = tok.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        if tok.is_empty() {
            continue;
        }
        out.push(tok.to_string());
    }
    out
}

/// A `gameState` of a finished game.
fn over(v: &Value) -> bool {
    v["type"] == "gameState" && v["status"] != "started"
}

fn moves(state: &Value) -> Vec<String> {
    state["moves"]
        .as_str()
        .unwrap_or("")
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

async fn server(backend: Backend) -> TestServer {
    common::start_with(backend, |c| {
        c.api.keepalive_secs = 0.3;
        c.escape_grace_secs = Some(10.0);
        c.bot_think_ms = 50;
    })
    .await
}

const PLAYER: &str = "board:play challenge:read challenge:write";

/// Alice challenges Bob through the API and Bob accepts: the game's id, with
/// both event streams open (and given back).
async fn challenge_game(
    alice: &Api,
    bob: &Api,
    bob_name: &str,
    form: &[(&str, &str)],
) -> (String, Lines, Lines) {
    let mut a_events = alice.stream("/api/stream/event").await;
    let mut b_events = bob.stream("/api/stream/event").await;
    let r = alice
        .post(&format!("/api/challenge/{bob_name}"), form)
        .await;
    assert_eq!(r.status(), 200);
    let c: Value = r.json().await.unwrap();
    let id = c["id"].as_str().unwrap().to_string();
    assert_eq!(c["status"], "created");
    assert_eq!(c["destUser"]["name"], bob_name);
    let got = b_events
        .until("the challenge", |v| v["type"] == "challenge")
        .await;
    assert_eq!(got["challenge"]["id"], id.as_str());
    assert_eq!(got["challenge"]["direction"], "in");
    let accepted: Value = bob
        .post(&format!("/api/challenge/{id}/accept"), &[])
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(accepted["ok"], true, "{accepted}");
    let a_start = a_events
        .until("gameStart", |v| v["type"] == "gameStart")
        .await;
    let b_start = b_events
        .until("gameStart", |v| v["type"] == "gameStart")
        .await;
    let game = a_start["game"]["gameId"].as_str().unwrap().to_string();
    assert_eq!(b_start["game"]["gameId"], game.as_str());
    // As on Lichess, the game has the challenge's id.
    assert_eq!(game, id);
    // qiyuan's addition: the accept names the game, for the web client.
    assert_eq!(accepted["game"], game.as_str());
    assert_eq!(a_start["game"]["source"], "friend");
    (game, a_events, b_events)
}

/// `POST /api/token/test`, Lichess's token introspection (lichess-bot's first
/// call, the token as the bare body): each token's scopes and user, `null`
/// for one that is unknown or revoked; no authentication.
async fn token_introspection(backend: Backend) {
    let s = server(backend).await;
    let alice_c = s.register("alice").await;
    let alice = token(&alice_c, "bot:play challenge:read").await;
    let other = token(&alice_c, "board:play").await;
    let test = |body: String| {
        let (http, url) = (reqwest::Client::new(), format!("{}/api/token/test", s.base));
        async move {
            let r = http.post(url).body(body).send().await.unwrap();
            assert_eq!(r.status(), 200);
            r.json::<Value>().await.unwrap()
        }
    };
    // lichess-bot's request: one token, no content type.
    let r = test(alice.token.clone()).await;
    assert_eq!(
        r,
        json!({alice.token.clone(): {"scopes": "bot:play,challenge:read",
                                    "userId": "alice", "expires": null}})
    );
    // Lichess's: several, comma-separated; a bad one is null; a session
    // token holds every scope.
    let r = test(format!(
        "{},lip_nosuchtoken, {}",
        other.token, alice_c.token
    ))
    .await;
    assert_eq!(r[&other.token]["scopes"], "board:play", "{r}");
    assert_eq!(r[&other.token]["userId"], "alice");
    assert_eq!(r["lip_nosuchtoken"], Value::Null, "{r}");
    assert!(r.as_object().unwrap().contains_key("lip_nosuchtoken"));
    assert_eq!(
        r[&alice_c.token]["scopes"],
        "board:play,bot:play,challenge:read,challenge:write,preference:read,email:read"
    );
    // A revoked token is no token.
    let gone = alice
        .http
        .delete(format!("{}/api/token", s.base))
        .bearer_auth(&alice.token)
        .send()
        .await
        .unwrap();
    assert_eq!(gone.status(), 204);
    let r = test(alice.token.clone()).await;
    assert_eq!(r, json!({alice.token.clone(): null}));
}

/// An accepted challenge's game has the challenge's id, as on Lichess (where
/// lichess-bot books its game slot under it): in the accept's answer, both
/// players' `gameStart`, the challenge's `url`, the game streams, and a move
/// posted to it is played. Two challenges in a row each have their own game.
async fn challenge_id_is_the_game_id(backend: Backend) {
    let s = server(backend).await;
    let alice = token(&s.register("alice").await, PLAYER).await;
    let bob = token(&s.register("bob").await, PLAYER).await;
    let mut a_events = alice.stream("/api/stream/event").await;
    let mut b_events = bob.stream("/api/stream/event").await;
    let mut games = Vec::new();
    for _ in 0..2 {
        let r = alice
            .post(
                "/api/challenge/bob",
                &[("clock.limit", "300"), ("color", "white")],
            )
            .await;
        assert_eq!(r.status(), 200);
        let c: Value = r.json().await.unwrap();
        let id = c["id"].as_str().unwrap().to_string();
        assert_eq!(id.len(), 8, "Lichess's game ids are 8 characters");
        assert_eq!(c["url"], format!("/{id}"));
        let got = b_events
            .until("the challenge", |v| {
                v["type"] == "challenge" && v["challenge"]["id"] == id.as_str()
            })
            .await;
        assert_eq!(got["challenge"]["url"], format!("/{id}"));
        let r = bob.post(&format!("/api/challenge/{id}/accept"), &[]).await;
        assert_eq!(r.status(), 200);
        let accepted: Value = r.json().await.unwrap();
        assert_eq!(accepted, json!({"ok": true, "game": id}));
        for events in [&mut a_events, &mut b_events] {
            let start = events
                .until("gameStart", |v| v["type"] == "gameStart")
                .await;
            assert_eq!(start["game"]["id"], id.as_str(), "{start}");
            assert_eq!(start["game"]["gameId"], id.as_str());
            assert_eq!(start["game"]["fullId"], format!("{id}0000"));
        }
        let mut a = alice.stream(&format!("/api/board/game/stream/{id}")).await;
        let mut b = bob.stream(&format!("/api/board/game/stream/{id}")).await;
        let full = a.next().await.unwrap();
        assert_eq!(full["type"], "gameFull");
        assert_eq!(full["id"], id.as_str());
        assert_eq!(b.next().await.unwrap()["id"], id.as_str());
        alice.ok(&format!("/api/board/game/{id}/move/e2e4")).await;
        let state = b
            .until("the move", |v| v["type"] == "gameState" && v["moves"] != "")
            .await;
        assert_eq!(moves(&state), ["e2e4"]);
        bob.ok(&format!("/api/board/game/{id}/move/e7e5")).await;
        bob.ok(&format!("/api/board/game/{id}/resign")).await;
        let end = a.until("the end", over).await;
        assert_eq!(end["status"], "resign");
        assert_eq!(moves(&end), ["e2e4", "e7e5"]);
        for events in [&mut a_events, &mut b_events] {
            let finish = events
                .until("gameFinish", |v| v["type"] == "gameFinish")
                .await;
            assert_eq!(finish["game"]["id"], id.as_str());
        }
        games.push(id);
    }
    assert_ne!(games[0], games[1], "each challenge has its own game");
    // Each game is recorded under its challenge's id.
    for id in &games {
        let pgn = alice.get(&format!("/game/export/{id}")).await;
        assert_eq!(pgn.status(), 200, "{id}");
    }
}

/// Seek and pair against a WebSocket player, then the whole game by the board
/// API (Alice) against the WebSocket (Bob); the event stream's gameStart and
/// gameFinish; the record exported as PGN and listed as NDJSON.
async fn seek_pair_and_play_against_a_socket(backend: Backend) {
    let s = server(backend).await;
    let alice_c = s.register("alice").await;
    let bob = s.register("bob").await;
    let alice = token(&alice_c, PLAYER).await;
    let mut events = alice.stream("/api/stream/event").await;
    let seek = alice
        .post(
            "/api/board/seek",
            &[("time", "5"), ("increment", "3"), ("rated", "true")],
        )
        .await;
    assert_eq!(seek.status(), 200);
    let mut seek = Lines::new(seek);
    // The seek stream only keeps alive while nobody answers.
    assert_eq!(seek.line().await.as_deref(), Some(""));
    let mut ws = bob.ws().await;
    let r = ws
        .act(
            "seek",
            json!({"game": "chess", "rated": true,
                   "time": {"kind": "fischer", "base": 300000, "increment": 3000}}),
        )
        .await;
    assert_eq!(r["t"], "ack", "{r}");
    // `paired` comes before the seek's ack.
    let paired = ws
        .seen
        .iter()
        .find(|m| m["t"] == "paired")
        .cloned()
        .expect("paired");
    let table = paired["d"]["table"].as_str().unwrap().to_string();
    assert_eq!(paired["d"]["seat"], 1, "the one who waited longer is white");
    assert_eq!(seek.next().await, None, "the seek stream ends once paired");
    let start = events
        .until("gameStart", |v| v["type"] == "gameStart")
        .await;
    assert_eq!(start["game"]["gameId"], table.as_str());
    assert_eq!(start["game"]["color"], "white");
    assert_eq!(start["game"]["isMyTurn"], true);
    assert_eq!(start["game"]["opponent"]["username"], "bob");
    assert_eq!(start["game"]["speed"], "blitz");

    let mut game = alice
        .stream(&format!("/api/board/game/stream/{table}"))
        .await;
    let full = game.next().await.unwrap();
    assert_eq!(full["type"], "gameFull");
    assert_eq!(full["id"], table.as_str());
    assert_eq!(full["variant"]["key"], "standard");
    assert_eq!(full["white"]["name"], "alice");
    assert_eq!(full["black"]["name"], "bob");
    assert_eq!(full["clock"], json!({"initial": 300000, "increment": 3000}));
    assert_eq!(full["initialFen"], "startpos");
    assert_eq!(full["rated"], true, "an API game is rated like any other");
    assert_eq!(full["state"]["status"], "started");
    assert_eq!(full["state"]["moves"], "");

    let line = ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"];
    let mut end = Value::Null;
    for (i, mv) in line.iter().enumerate() {
        if i % 2 == 0 {
            alice
                .ok(&format!("/api/board/game/{table}/move/{mv}"))
                .await;
        } else {
            ws.ok("move", json!({"table": table, "action": mv})).await;
        }
        let st = game.state_with(i + 1).await;
        assert_eq!(moves(&st), line[..=i]);
        end = st;
    }
    // A move after the end is refused.
    let r = alice
        .post(&format!("/api/board/game/{table}/move/e1e2"), &[])
        .await;
    assert_eq!(r.status(), 400);
    assert!(r.json::<Value>().await.unwrap()["error"].is_string());
    assert_eq!(end["status"], "mate");
    assert_eq!(end["winner"], "white");
    assert_eq!(
        game.next().await,
        None,
        "the game stream ends with the game"
    );
    let finish = events
        .until("gameFinish", |v| v["type"] == "gameFinish")
        .await;
    assert_eq!(finish["game"]["gameId"], table.as_str());
    assert_eq!(finish["game"]["winner"], "white");
    assert!(events.keepalives > 0 || seek.keepalives > 0);

    // The record: PGN by /game/export, NDJSON by /api/games/user.
    let pgn = alice
        .get(&format!("/game/export/{table}"))
        .await
        .text()
        .await
        .unwrap();
    assert_eq!(
        san_moves(&pgn),
        ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"],
        "{pgn}"
    );
    assert!(pgn.contains("[White \"alice\"]"), "{pgn}");
    let r = alice
        .http
        .get(format!("{}/api/games/user/alice", s.base))
        .header("accept", "application/x-ndjson")
        .send()
        .await
        .unwrap();
    let text = r.text().await.unwrap();
    let games: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), 1, "{text}");
    assert_eq!(games[0]["id"], table.as_str());
    assert_eq!(games[0]["winner"], "white");
    assert_eq!(games[0]["players"]["black"]["user"]["name"], "bob");
    let pgns = alice.get("/api/games/user/bob").await.text().await.unwrap();
    assert!(pgns.contains("Qxf7#"));
    // The profile path answers our client's fields and Lichess's.
    let user: Value = alice.get("/api/user/alice").await.json().await.unwrap();
    assert_eq!(user["username"], "alice");
    assert_eq!(user["id"], "alice");
    assert_eq!(user["user"]["username"], "alice");
    assert_eq!(user["perfs"]["blitz"]["games"], 1, "{user}");
    assert!(user["perfs"]["blitz"]["rating"].as_i64().unwrap() > 1500);
    assert!(user["games"].is_array());
    let me: Value = alice.get("/api/account").await.json().await.unwrap();
    assert_eq!(me["username"], "alice");
    assert_eq!(me["count"]["all"], 1);
}

/// A challenge accepted, then a takeback and a draw offer through the API.
async fn challenge_takeback_and_draw(backend: Backend) {
    let s = server(backend).await;
    let alice = token(&s.register("alice").await, PLAYER).await;
    let bob = token(&s.register("bob").await, PLAYER).await;
    let carol = token(&s.register("carol").await, PLAYER).await;
    let (game, _ae, _be) = challenge_game(
        &alice,
        &bob,
        "bob",
        &[
            ("clock.limit", "600"),
            ("clock.increment", "0"),
            ("color", "white"),
        ],
    )
    .await;
    let mut a = alice
        .stream(&format!("/api/board/game/stream/{game}"))
        .await;
    let mut b = bob.stream(&format!("/api/board/game/stream/{game}")).await;
    let full = b.next().await.unwrap();
    assert_eq!(full["white"]["name"], "alice");
    assert_eq!(full["speed"], "rapid");
    // The players' chat is the players' alone: a board:play token of someone
    // else reads nothing of it, nor writes to it.
    alice
        .ok_with(
            &format!("/api/board/game/{game}/chat"),
            &[("room", "player"), ("text", "good luck")],
        )
        .await;
    let said = b.until("the chat line", |v| v["type"] == "chatLine").await;
    assert_eq!(said["text"], "good luck");
    let lines: Value = bob
        .get(&format!("/api/board/game/{game}/chat"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(lines, json!([{"user": "alice", "text": "good luck"}]));
    let r = carol.get(&format!("/api/board/game/{game}/chat")).await;
    assert_eq!(r.status(), 404);
    assert!(!r.text().await.unwrap().contains("good luck"));
    let r = carol
        .post(
            &format!("/api/board/game/{game}/chat"),
            &[("room", "spectator"), ("text", "hi")],
        )
        .await;
    assert_eq!(r.status(), 404);
    alice.ok(&format!("/api/board/game/{game}/move/e2e4")).await;
    b.state_with(1).await;
    alice
        .ok(&format!("/api/board/game/{game}/takeback/yes"))
        .await;
    let asked = b.until("wtakeback", |v| v["wtakeback"] == true).await;
    assert_eq!(moves(&asked), ["e2e4"]);
    bob.ok(&format!("/api/board/game/{game}/takeback/yes"))
        .await;
    let back = b.state_with(0).await;
    assert_eq!(back["wtakeback"], false);
    a.state_with(0).await;

    alice.ok(&format!("/api/board/game/{game}/move/d2d4")).await;
    bob.ok(&format!("/api/board/game/{game}/move/d7d5")).await;
    a.state_with(2).await;
    // Bob offers a draw right after his move; Alice declines, then he offers
    // again after his next move and she accepts.
    bob.ok(&format!("/api/board/game/{game}/draw/yes")).await;
    a.until("bdraw", |v| v["bdraw"] == true).await;
    alice.ok(&format!("/api/board/game/{game}/draw/no")).await;
    a.until("no bdraw", |v| v["bdraw"] == false).await;
    alice.ok(&format!("/api/board/game/{game}/move/c2c4")).await;
    // A move with a draw offer (`offeringDraw`), as Lichess takes it.
    bob.ok(&format!(
        "/api/board/game/{game}/move/e7e6?offeringDraw=true"
    ))
    .await;
    a.until("bdraw", |v| v["bdraw"] == true).await;
    let now: Value = alice
        .get("/api/account/playing")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(now["nowPlaying"][0]["gameId"], game.as_str());
    assert_eq!(now["nowPlaying"][0]["color"], "white");
    alice.ok(&format!("/api/board/game/{game}/draw/yes")).await;
    let end = a.until("the end", over).await;
    assert_eq!(end["status"], "draw");
    assert!(end.get("winner").is_none());
    let end = b.until("the end", over).await;
    assert_eq!(end["status"], "draw");
}

/// A draw offered on one's own turn, as Lichess takes it: `{"ok": true}`, and
/// the offer reaches the opponent with the offerer's next move. In chess it
/// stands then; in xiangqi the players' offers alternate (the seed's rule), so
/// a second offer in a row is dropped at the move.
async fn draw_offers_on_one_s_own_turn(backend: Backend) {
    let s = server(backend).await;
    let alice = token(&s.register("alice").await, PLAYER).await;
    let bob = token(&s.register("bob").await, PLAYER).await;
    let form = [("clock.limit", "600"), ("color", "white")];
    let (game, _ae, _be) = challenge_game(&alice, &bob, "bob", &form).await;
    let mut b = bob.stream(&format!("/api/board/game/stream/{game}")).await;
    b.state_with(0).await;
    // Alice's turn, no move yet: taken, not shown.
    alice.ok(&format!("/api/board/game/{game}/draw/yes")).await;
    alice.ok(&format!("/api/board/game/{game}/move/e2e4")).await;
    let offered = b.state_with(1).await;
    let offered = if offered["wdraw"] == true {
        offered
    } else {
        b.until("wdraw", |v| v["wdraw"] == true).await
    };
    assert_eq!(moves(&offered), ["e2e4"]);
    bob.ok(&format!("/api/board/game/{game}/draw/yes")).await;
    let end = b.until("the end", over).await;
    assert_eq!(end["status"], "draw");

    let xiangqi = [
        ("variant", "xiangqi"),
        ("clock.limit", "600"),
        ("color", "white"),
    ];
    let (game, _ae, _be) = challenge_game(&alice, &bob, "bob", &xiangqi).await;
    let mut b = bob.stream(&format!("/api/board/game/stream/{game}")).await;
    let mut a = alice
        .stream(&format!("/api/board/game/stream/{game}"))
        .await;
    // Red offers with her first move (`offeringDraw`); black declines.
    alice
        .ok(&format!(
            "/api/board/game/{game}/move/h3e3?offeringDraw=true"
        ))
        .await;
    b.until("wdraw", |v| v["wdraw"] == true).await;
    bob.ok(&format!("/api/board/game/{game}/draw/no")).await;
    bob.ok(&format!("/api/board/game/{game}/move/h10g8")).await;
    a.state_with(2).await;
    // Red, on her turn, offers again: taken, then dropped at her move (no
    // second offer in a row in xiangqi).
    alice.ok(&format!("/api/board/game/{game}/draw/yes")).await;
    alice.ok(&format!("/api/board/game/{game}/move/h1g3")).await;
    // Had it stood, black's `draw/yes` would accept it: it is his own offer on
    // his turn instead, made with his move (his first: it stands).
    bob.ok(&format!("/api/board/game/{game}/draw/yes")).await;
    bob.ok(&format!("/api/board/game/{game}/move/i10h10")).await;
    let offered = a.until("bdraw", |v| v["bdraw"] == true).await;
    assert_eq!(offered["status"], "started");
    assert_eq!(offered["wdraw"], false);
    assert_eq!(moves(&offered).len(), 4);
    alice.ok(&format!("/api/board/game/{game}/resign")).await;
    let end = a.until("the end", over).await;
    assert_eq!(end["status"], "resign");
}

/// A bot account plays through the bot API: it upgrades, is refused the board
/// API and rated games with humans, accepts a human's challenge from its event
/// stream and plays its moves.
async fn bot_account_plays(backend: Backend) {
    let s = server(backend).await;
    let alice_c = s.register("alice").await;
    let alice = token(&alice_c, PLAYER).await;
    let robo_c = s.register("robo").await;
    let robo = token(&robo_c, "bot:play challenge:read challenge:write").await;
    let r = robo.post("/api/bot/account/upgrade", &[]).await;
    assert_eq!(r.status(), 200);
    // Over the WebSocket too, a bot account plays no rated game with a human.
    let mut human = alice_c.ws().await;
    let table = human
        .create(json!({"game": "chess", "rated": true, "seat": 0}))
        .await;
    // The creator's seat is taken just after `create`'s ack: wait for it.
    loop {
        let m = human.recv().await;
        let v = m["d"]["state"]["version"].as_u64().or(m["d"]["v"].as_u64());
        if v.is_some_and(|v| v >= 1) {
            break;
        }
    }
    let mut bot_ws = robo_c.ws().await;
    let r = bot_ws.act("sit", json!({"table": table, "seat": 1})).await;
    assert_eq!(r["d"]["code"], "bot_rated", "{r}");
    let r = bot_ws
        .act(
            "seek",
            json!({"game": "chess", "rated": true,
                   "time": {"kind": "fischer", "base": 60000, "increment": 0}}),
        )
        .await;
    assert_eq!(r["d"]["code"], "bot_rated", "{r}");
    human.close().await;
    bot_ws.close().await;
    let me: Value = robo.get("/api/account").await.json().await.unwrap();
    assert_eq!(me["title"], "BOT");
    // The bot API is for bots, the board API for others.
    let r = alice.get("/api/bot/game/stream/nothing").await;
    assert_eq!(r.status(), 403);
    let r = robo.post("/api/board/seek", &[("time", "5")]).await;
    assert_eq!(r.status(), 403);
    // Casual only with humans (the operator's flag is off).
    let r = alice
        .post("/api/challenge/robo", &[("rated", "true")])
        .await;
    assert_eq!(r.status(), 400);
    let (game, _ae, _re) = challenge_game(
        &alice,
        &robo,
        "robo",
        &[
            ("clock.limit", "180"),
            ("clock.increment", "2"),
            ("color", "black"),
        ],
    )
    .await;
    let mut bot = robo.stream(&format!("/api/bot/game/stream/{game}")).await;
    let mut a = alice
        .stream(&format!("/api/board/game/stream/{game}"))
        .await;
    let full = bot.next().await.unwrap();
    assert_eq!(full["white"]["name"], "robo");
    assert_eq!(full["white"]["title"], "BOT");
    assert_eq!(full["rated"], false);
    let r = robo
        .post(&format!("/api/board/game/{game}/move/f2f3"), &[])
        .await;
    assert_eq!(r.status(), 403, "a bot moves through the bot API");
    robo.ok(&format!("/api/bot/game/{game}/move/f2f3")).await;
    a.state_with(1).await;
    alice.ok(&format!("/api/board/game/{game}/move/e7e5")).await;
    bot.state_with(2).await;
    robo.ok(&format!("/api/bot/game/{game}/move/g2g4")).await;
    alice.ok(&format!("/api/board/game/{game}/move/d8h4")).await;
    let end = bot.until("the end", over).await;
    assert_eq!(end["status"], "mate");
    assert_eq!(end["winner"], "black");
    assert_eq!(moves(&end), ["f2f3", "e7e5", "g2g4", "d8h4"]);
}

/// Bob declines one challenge and Alice cancels another: the event streams
/// say so.
async fn challenges_declined_and_cancelled(backend: Backend) {
    let s = server(backend).await;
    let alice = token(&s.register("alice").await, PLAYER).await;
    let bob = token(&s.register("bob").await, PLAYER).await;
    let mut a_events = alice.stream("/api/stream/event").await;
    let mut b_events = bob.stream("/api/stream/event").await;
    let c: Value = alice
        .post("/api/challenge/bob", &[("clock.limit", "300")])
        .await
        .json()
        .await
        .unwrap();
    let id = c["id"].as_str().unwrap();
    b_events
        .until("challenge", |v| v["type"] == "challenge")
        .await;
    // Each side lists it: `in` for bob, `out` for alice.
    let mine: Value = bob.get("/api/challenge").await.json().await.unwrap();
    assert_eq!(mine["in"][0]["id"], id, "{mine}");
    assert_eq!(mine["out"], json!([]), "{mine}");
    let theirs: Value = alice.get("/api/challenge").await.json().await.unwrap();
    assert_eq!(theirs["out"][0]["id"], id, "{theirs}");
    assert_eq!(theirs["in"], json!([]), "{theirs}");
    let r = bob
        .post(
            &format!("/api/challenge/{id}/decline"),
            &[("reason", "later")],
        )
        .await;
    assert_eq!(r.status(), 200);
    let d = a_events
        .until("declined", |v| v["type"] == "challengeDeclined")
        .await;
    assert_eq!(d["challenge"]["id"], id);
    assert_eq!(d["challenge"]["declineReason"], "later");
    let c: Value = alice
        .post("/api/challenge/bob", &[("clock.limit", "300")])
        .await
        .json()
        .await
        .unwrap();
    let id = c["id"].as_str().unwrap();
    alice.ok(&format!("/api/challenge/{id}/cancel")).await;
    let d = b_events
        .until("cancelled", |v| v["type"] == "challengeCanceled")
        .await;
    assert_eq!(d["challenge"]["id"], id);
    // Accepting a cancelled challenge finds nothing.
    let r = bob.post(&format!("/api/challenge/{id}/accept"), &[]).await;
    assert_eq!(r.status(), 404);
}

/// Challenges are capped: one account has at most `challenges_per_challenger`
/// open at once (5 by default) and `challenges_per_recipient` waiting (here
/// 2); past either, `429`. Answering one frees its place. Accepting when a
/// player holds the most tables one person may is refused (`429`), and the
/// challenge stays open.
async fn challenges_are_capped(backend: Backend) {
    let s = common::start_with(backend, |c| {
        c.api.challenges_per_recipient = 2;
        c.max_tables_per_user = 1;
    })
    .await;
    let alice = token(&s.register("alice").await, PLAYER).await;
    let mut dests = Vec::new();
    for n in ["bob1", "bob2", "bob3", "bob4", "bob5", "bob6"] {
        dests.push(token(&s.register(n).await, PLAYER).await);
    }
    let challenge = |from: &Api, to: &str| {
        let (from, to) = (from.clone(), to.to_string());
        async move {
            from.post(&format!("/api/challenge/{to}"), &[("clock.limit", "300")])
                .await
        }
    };
    let mut open = Vec::new();
    for to in ["bob1", "bob2", "bob3", "bob4", "bob5"] {
        let r = challenge(&alice, to).await;
        assert_eq!(r.status(), 200, "{to}");
        let c: Value = r.json().await.unwrap();
        open.push(c["id"].as_str().unwrap().to_string());
    }
    let r = challenge(&alice, "bob6").await;
    assert_eq!(r.status(), 429);
    let e: Value = r.json().await.unwrap();
    assert!(
        e["error"].as_str().unwrap().contains("open challenges"),
        "{e}"
    );
    // A burst cannot pass the cap either.
    let burst = futures_util::future::join_all((0..10).map(|_| challenge(&alice, "bob6"))).await;
    assert!(burst.iter().all(|r| r.status() == 429));
    let listed: Value = alice.get("/api/challenge").await.json().await.unwrap();
    assert_eq!(listed["out"].as_array().unwrap().len(), 5, "{listed}");
    // Cancelling one frees its place.
    alice
        .ok(&format!("/api/challenge/{}/cancel", open.remove(0)))
        .await;
    assert_eq!(challenge(&alice, "bob6").await.status(), 200);

    // bob6 has two waiting now (alice's and bob2's): a third is refused.
    assert_eq!(challenge(&dests[1], "bob6").await.status(), 200);
    let r = challenge(&dests[2], "bob6").await;
    assert_eq!(r.status(), 429);
    let e: Value = r.json().await.unwrap();
    assert!(e["error"].as_str().unwrap().contains("bob6"), "{e}");

    // bob2 accepts alice's challenge: alice holds a table, the most one
    // person may here; bob3's accepting hers is refused, and it stays open.
    let mine: Value = dests[1].get("/api/challenge").await.json().await.unwrap();
    let from_alice = mine["in"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["challenger"]["name"] == "alice")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let accepted: Value = dests[1]
        .post(&format!("/api/challenge/{from_alice}/accept"), &[])
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(accepted["ok"], true, "{accepted}");
    let theirs: Value = dests[2].get("/api/challenge").await.json().await.unwrap();
    let id = theirs["in"][0]["id"].as_str().unwrap().to_string();
    let r = dests[2]
        .post(&format!("/api/challenge/{id}/accept"), &[])
        .await;
    assert_eq!(r.status(), 429);
    let e: Value = r.json().await.unwrap();
    assert!(e["error"].as_str().unwrap().contains("alice"), "{e}");
    let theirs: Value = dests[2].get("/api/challenge").await.json().await.unwrap();
    assert_eq!(theirs["in"][0]["id"], id.as_str(), "still open: {theirs}");
}

/// Fairy-Stockfish, asked through UCI (`UCI_Variant xiangqi`), chooses every
/// move of both sides for a few plies; they go to the API exactly as it writes
/// them (ranks 1–10), the table stores ICCS (ranks 0–9), and the streams give
/// them back as sent.
async fn xiangqi_with_fairy_stockfish_moves(backend: Backend) {
    use std::io::{BufRead, BufReader, Write};
    let s = server(backend).await;
    let red = token(&s.register("alice").await, PLAYER).await;
    let black = token(&s.register("bob").await, PLAYER).await;
    let (game, _ae, _be) = challenge_game(
        &red,
        &black,
        "bob",
        &[
            ("variant", "xiangqi"),
            ("clock.limit", "600"),
            ("color", "white"),
        ],
    )
    .await;
    let mut stream = red.stream(&format!("/api/board/game/stream/{game}")).await;
    let full = stream.next().await.unwrap();
    assert_eq!(full["variant"]["key"], "xiangqi");

    let mut fsf = std::process::Command::new("/usr/games/fairy-stockfish")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("Fairy-Stockfish at /usr/games/fairy-stockfish");
    let mut input = fsf.stdin.take().unwrap();
    let mut output = BufReader::new(fsf.stdout.take().unwrap());
    writeln!(
        input,
        "uci\nsetoption name UCI_Variant value xiangqi\nisready"
    )
    .unwrap();
    let mut line = String::new();
    loop {
        line.clear();
        output.read_line(&mut line).unwrap();
        if line.trim() == "readyok" {
            break;
        }
    }
    let mut played: Vec<String> = Vec::new();
    for ply in 0..10 {
        writeln!(
            input,
            "position startpos moves {}\ngo depth 4",
            played.join(" ")
        )
        .unwrap();
        let best = loop {
            line.clear();
            output.read_line(&mut line).unwrap();
            if let Some(rest) = line.strip_prefix("bestmove ") {
                break rest.split_whitespace().next().unwrap().to_string();
            }
        };
        let who = if ply % 2 == 0 { &red } else { &black };
        who.ok(&format!("/api/board/game/{game}/move/{best}")).await;
        played.push(best);
        let st = stream.state_with(played.len()).await;
        assert_eq!(moves(&st), played);
    }
    writeln!(input, "quit").unwrap();
    let _ = fsf.wait();
    // Some move of ten reaches rank 10 or leaves rank 1 in UCI's count: the
    // table holds the same moves in ICCS, one rank lower.
    let view: Value = red
        .http
        .get(format!("{}/api/game/{game}", s.base))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let iccs: Vec<String> = view["state"]["game"]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["action"].as_str().unwrap().to_string())
        .collect();
    let lowered: Vec<String> = played
        .iter()
        .map(|m| {
            let (a, b) = m.split_at(1);
            let digits: String = b.chars().take_while(|c| c.is_ascii_digit()).collect();
            let rest = &b[digits.len()..];
            let (c, d) = rest.split_at(1);
            format!(
                "{a}{}{c}{}",
                digits.parse::<u32>().unwrap() - 1,
                d.parse::<u32>().unwrap() - 1
            )
        })
        .collect();
    assert_eq!(iccs, lowered);
    red.ok(&format!("/api/board/game/{game}/resign")).await;
    let end = stream.until("the end", over).await;
    assert_eq!(end["status"], "resign");
    assert_eq!(end["winner"], "black");
}

/// The built-in engine answers `POST /api/challenge/ai`.
async fn the_computer_answers_a_challenge(backend: Backend) {
    let s = server(backend).await;
    let alice = token(&s.register("alice").await, PLAYER).await;
    let r = alice
        .post(
            "/api/challenge/ai",
            &[
                ("level", "1"),
                ("clock.limit", "300"),
                ("clock.increment", "0"),
                ("color", "white"),
            ],
        )
        .await;
    assert_eq!(r.status(), 200);
    let g: Value = r.json().await.unwrap();
    let id = g["id"].as_str().unwrap();
    assert_eq!(g["player"], "white");
    let mut stream = alice.stream(&format!("/api/board/game/stream/{id}")).await;
    let full = stream.next().await.unwrap();
    assert_eq!(full["black"]["aiLevel"], 1);
    alice.ok(&format!("/api/board/game/{id}/move/e2e4")).await;
    let st = stream.state_with(2).await;
    assert_eq!(moves(&st)[0], "e2e4");
}

/// Revoking a token ends the streams open with it, and the token no longer
/// works; a token lacking a scope is refused.
async fn revocation_ends_streams(backend: Backend) {
    let s = server(backend).await;
    let alice_c = s.register("alice").await;
    let alice = token(&alice_c, PLAYER).await;
    let reader = token(&alice_c, "preference:read").await;
    let r = reader.post("/api/board/seek", &[("time", "5")]).await;
    assert_eq!(r.status(), 403);
    assert_eq!(
        r.json::<Value>().await.unwrap()["error"],
        "Missing scope: board:play"
    );
    let prefs = reader.get("/api/account/preferences").await;
    assert_eq!(prefs.status(), 200);
    assert!(prefs.json::<Value>().await.unwrap()["prefs"].is_object());
    assert_eq!(alice.get("/api/account/preferences").await.status(), 403);
    let mut events = alice.stream("/api/stream/event").await;
    assert_eq!(events.line().await.as_deref(), Some(""), "a keep-alive");
    let list: Value = alice_c.get("/api/token").await.json().await.unwrap();
    assert_eq!(list["tokens"].as_array().unwrap().len(), 2);
    assert!(
        list.to_string().find("lip_").is_none(),
        "tokens are not shown"
    );
    let id = list["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["scopes"] == "board:play,challenge:read,challenge:write")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let r = alice_c
        .http
        .delete(format!("{}/api/token/{id}", s.base))
        .bearer_auth(&alice_c.token)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 204);
    let ended = tokio::time::timeout(Duration::from_secs(3), async {
        while events.next().await.is_some() {}
    })
    .await;
    assert!(ended.is_ok(), "the stream ended with its token");
    let r = alice.get("/api/account").await;
    assert_eq!(r.status(), 401);
    assert_eq!(
        r.json::<Value>().await.unwrap(),
        json!({"error": "No such token"})
    );
    // DELETE /api/token revokes the token it is sent with.
    let r = reader
        .http
        .delete(format!("{}/api/token", s.base))
        .bearer_auth(&reader.token)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 204);
    assert_eq!(reader.get("/api/account").await.status(), 401);
}

/// A game begun at the web client is an API game too: its players' event
/// streams announce it and its end, and their board clients play it; after a
/// restart the game goes on and the event stream announces it again.
async fn web_games_and_restarts(backend: Backend) {
    let mut s = server(backend).await;
    let alice_c = s.register("alice").await;
    let bob_c = s.register("bob").await;
    let (table, wa, wb) = common::table_with_game(
        &s,
        &alice_c,
        &bob_c,
        "chess",
        json!({"kind": "fischer", "base": 600000, "increment": 0}),
    )
    .await;
    let mut alice = token(&alice_c, PLAYER).await;
    let mut events = alice.stream("/api/stream/event").await;
    let start = events
        .until("gameStart", |v| v["type"] == "gameStart")
        .await;
    assert_eq!(start["game"]["gameId"], table.as_str());
    assert_eq!(start["game"]["color"], "white");
    let mut game = alice
        .stream(&format!("/api/board/game/stream/{table}"))
        .await;
    game.next().await.unwrap();
    alice
        .ok(&format!("/api/board/game/{table}/move/e2e4"))
        .await;
    game.state_with(1).await;
    drop((wa, wb, events, game));

    let mut bob = token(&bob_c, PLAYER).await;
    s.restart().await;
    alice.base = s.base.clone();
    let mut events = alice.stream("/api/stream/event").await;
    let start = events
        .until("gameStart", |v| v["type"] == "gameStart")
        .await;
    assert_eq!(start["game"]["gameId"], table.as_str());
    assert_eq!(start["game"]["lastMove"], "e2e4");
    assert_eq!(start["game"]["isMyTurn"], false);
    bob.base = s.base.clone();
    let mut game = bob.stream(&format!("/api/board/game/stream/{table}")).await;
    assert_eq!(moves(&game.next().await.unwrap()["state"]), ["e2e4"]);
    bob.ok(&format!("/api/board/game/{table}/move/e7e5")).await;
    bob.ok(&format!("/api/board/game/{table}/resign")).await;
    let end = game.until("the end", over).await;
    assert_eq!(
        (end["status"].as_str(), end["winner"].as_str()),
        (Some("resign"), Some("white"))
    );
    let finish = events
        .until("gameFinish", |v| v["type"] == "gameFinish")
        .await;
    assert_eq!(finish["game"]["gameId"], table.as_str());
    assert_eq!(finish["game"]["winner"], "white");
}

/// Two board clients seek alike and are paired: each event stream gets one
/// `gameStart`, both seek streams end.
async fn two_api_seeks_pair(backend: Backend) {
    let s = server(backend).await;
    let alice = token(&s.register("alice").await, PLAYER).await;
    let bob = token(&s.register("bob").await, PLAYER).await;
    let mut a_events = alice.stream("/api/stream/event").await;
    let mut b_events = bob.stream("/api/stream/event").await;
    let form = [("time", "3"), ("increment", "2"), ("variant", "standard")];
    let mut a_seek = Lines::new(alice.post("/api/board/seek", &form).await);
    let mut b_seek = Lines::new(bob.post("/api/board/seek", &form).await);
    assert_eq!(a_seek.next().await, None);
    assert_eq!(b_seek.next().await, None);
    let a = a_events
        .until("gameStart", |v| v["type"] == "gameStart")
        .await;
    let b = b_events
        .until("gameStart", |v| v["type"] == "gameStart")
        .await;
    assert_eq!(a["game"]["gameId"], b["game"]["gameId"]);
    assert_eq!(
        (a["game"]["color"].as_str(), b["game"]["color"].as_str()),
        (Some("white"), Some("black"))
    );
    assert_eq!(a["game"]["source"], "lobby");
    // No second gameStart: the next line of each is a keep-alive.
    for events in [&mut a_events, &mut b_events] {
        assert_eq!(events.line().await.as_deref(), Some(""));
    }
}

/// Past its requests per minute a token gets Lichess's 429.
async fn rate_limited(backend: Backend) {
    let s = common::start_with(backend, |c| c.api.requests_per_minute = 5).await;
    let alice = token(&s.register("alice").await, PLAYER).await;
    for _ in 0..5 {
        assert_eq!(alice.get("/api/account").await.status(), 200);
    }
    let r = alice.get("/api/account").await;
    assert_eq!(r.status(), 429);
    assert!(r.headers().contains_key("retry-after"));
    assert_eq!(
        r.json::<Value>().await.unwrap(),
        json!({"error": "Too many requests. Try again later."})
    );
}

/// berserk's own clients, unchanged but for `base_url`: Alice challenges Bob,
/// Bob accepts from his event stream, both follow the game with
/// `board.stream_game_state` and play by `board.make_move`; the PGN read back
/// with `games.export` is read by python-chess and must hold the moves played.
const BERSERK: &str = r#"
import io, json, sys
import berserk, chess, chess.pgn

cfg = json.load(sys.stdin)
def client(token):
    return berserk.Client(session=berserk.TokenSession(token), base_url=cfg["base"])
alice, bob = client(cfg["alice"]), client(cfg["bob"])
tested = alice.oauth.test_tokens(cfg["alice"], "lip_nosuchtoken")

bob_events = bob.board.stream_incoming_events()
alice_events = alice.board.stream_incoming_events()
made = alice.challenges.create("bob", rated=False, clock_limit=300, clock_increment=2, color="white")
for e in bob_events:
    if e["type"] == "challenge" and e["challenge"]["id"] == made["id"]:
        bob.challenges.accept(e["challenge"]["id"])
        break
for e in alice_events:
    if e["type"] == "gameStart":
        game_id = e["game"]["gameId"]
        break

line = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "c2c3", "g8f6",
        "d2d4", "e5d4", "c3d4", "c5b4", "b1c3", "f6e4", "e1g1", "e4c3",
        "b2c3", "b4c3", "d1b3", "d7d5", "c4d5", "e8g8", "d5f7", "g8h8",
        "b3c3", "d8f6", "c1g5", "f6f7", "a1c1", "h7h6", "g5h4", "c8g4"]
streams = {"white": alice.board.stream_game_state(game_id),
           "black": bob.board.stream_game_state(game_id)}
players = {"white": alice, "black": bob}
full = {side: next(s) for side, s in streams.items()}
assert full["white"]["type"] == "gameFull", full
seen = {side: full[side]["state"] for side in streams}
for i, mv in enumerate(line):
    side = "white" if i % 2 == 0 else "black"
    while len(seen[side]["moves"].split()) != i:
        seen[side] = next(s for s in streams[side] if s.get("type") == "gameState")
    players[side].board.make_move(game_id, mv)
# White resigns after the last move: a complete game.
while len(seen["white"]["moves"].split()) != len(line):
    seen["white"] = next(s for s in streams["white"] if s.get("type") == "gameState")
alice.board.resign_game(game_id)
end = next(s for s in streams["black"] if s.get("type") == "gameState" and s["status"] != "started")
pgn = alice.games.export(game_id, as_pgn=True)
game = chess.pgn.read_game(io.StringIO(pgn))
print(json.dumps({"status": end["status"], "winner": end.get("winner"),
                  "pgn_moves": [m.uci() for m in game.mainline_moves()],
                  "played": line, "result": game.headers["Result"],
                  "tested": tested, "challenge": made["id"], "game": game_id,
                  "white": game.headers["White"], "black": game.headers["Black"]}))
"#;

async fn berserk_plays_a_game(backend: Backend) {
    let s = server(backend).await;
    let alice = token(&s.register("alice").await, PLAYER).await;
    let bob = token(&s.register("bob").await, PLAYER).await;
    let input = json!({"base": s.base, "alice": alice.token, "bob": bob.token}).to_string();
    let out = tokio::task::spawn_blocking(move || {
        qiyuan_testkit::run_python("berserk and python-chess", BERSERK, &input)
    })
    .await
    .unwrap()
    .unwrap_or_else(|e| panic!("the berserk script failed: {e}"));
    let r: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(r["status"], "resign", "{r}");
    assert_eq!(r["winner"], "black");
    assert_eq!(
        r["tested"],
        json!({alice.token.clone(): {"scopes": "board:play,challenge:read,challenge:write",
                                    "userId": "alice", "expires": null},
               "lip_nosuchtoken": null})
    );
    assert_eq!(r["game"], r["challenge"], "the game has the challenge's id");
    assert_eq!(
        r["pgn_moves"], r["played"],
        "the PGN holds the moves played"
    );
    assert_eq!(r["pgn_moves"].as_array().unwrap().len(), 32);
    assert_eq!(r["result"], "0-1");
    assert_eq!(
        (r["white"].as_str(), r["black"].as_str()),
        (Some("alice"), Some("bob"))
    );
}

both!(
    token_introspection,
    challenge_id_is_the_game_id,
    challenges_are_capped,
    web_games_and_restarts,
    berserk_plays_a_game,
    seek_pair_and_play_against_a_socket,
    challenge_takeback_and_draw,
    draw_offers_on_one_s_own_turn,
    bot_account_plays,
    xiangqi_with_fairy_stockfish_moves,
    revocation_ends_streams,
);

mod sqlite_only {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn challenges_declined_and_cancelled() {
        super::challenges_declined_and_cancelled(Backend::Sqlite).await
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_computer_answers_a_challenge() {
        super::the_computer_answers_a_challenge(Backend::Sqlite).await
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn two_api_seeks_pair() {
        super::two_api_seeks_pair(Backend::Sqlite).await
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn rate_limited() {
        super::rate_limited(Backend::Sqlite).await
    }
}
