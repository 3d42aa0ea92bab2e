//! Authority everywhere (issue #41), over real sockets and HTTP against the real
//! server, on SQLite and PostgreSQL: a ban — through the admin API, or by
//! `qiyuan admin ban` run as a process on the server's database while it
//! runs — refuses the account's session and personal tokens on every route
//! and closes its WebSocket and its API streams within 5 s; a muted account's
//! chat line reaches nobody; logging out ends the streams opened with the
//! session; an organiser, arbiter or admin whose role was taken away stops
//! acting at once; an arbiter neither plays in their event nor acts on a game
//! of their own.
//!
//! The command-line cases run `target/debug/qiyuan` (`QIYUAN_BIN` to choose
//! another): `cargo build -p qiyuan --bin qiyuan` first.

use std::time::{Duration, Instant};

use futures_util::StreamExt;
use qiyuan_testkit::clock::now_ms;
use qiyuan_testkit::process::qiyuan_bin;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

use crate::api::{Api, Lines, token};
use crate::common::{self, Backend, Client, TestServer, Ws, login, post};

/// What every case must stay within.
const LIMIT: Duration = Duration::from_secs(5);

async fn server(backend: Backend) -> TestServer {
    common::start_with(backend, |c| {
        c.api.keepalive_secs = 0.3;
        c.escape_grace_secs = Some(30.0);
        c.event_tick_ms = 50;
    })
    .await
}

/// Runs `qiyuan admin ARGS` on the running server's database, as an operator
/// would; its standard output.
async fn admin(server: &TestServer, args: &[&str]) -> String {
    let mut cmd = tokio::process::Command::new(qiyuan_bin());
    cmd.arg("admin").args(args);
    match &server.config.database {
        Some(url) => cmd.args(["--database", url]),
        None => cmd.arg("--data").arg(&server.config.data_dir),
    };
    let out = cmd
        .env_remove("QIYUAN_DATA")
        .env_remove("QIYUAN_DATABASE")
        .output()
        .await
        .expect("target/debug/qiyuan runs (cargo build -p qiyuan --bin qiyuan)");
    assert!(
        out.status.success(),
        "qiyuan admin {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `(status, error code)` of a refusal.
fn refusal((status, body): (u16, Value)) -> (u16, String) {
    (status, body["error"]["code"].as_str().unwrap_or("").into())
}

/// The session of `client` used on the Lichess-compatible API (as the web
/// client does).
fn session_api(client: &Client) -> Api {
    Api {
        http: reqwest::Client::new(),
        base: client.base.clone(),
        token: client.token.clone(),
    }
}

const PLAYER: &str = "board:play challenge:read challenge:write";

/// Reads a stream until it ends; how long that took, or `None` past `within`.
async fn stream_end(lines: &mut Lines, within: Duration) -> Option<Duration> {
    let started = Instant::now();
    tokio::time::timeout(within, async { while lines.line().await.is_some() {} })
        .await
        .ok()
        .map(|()| started.elapsed())
}

/// Reads a socket until the server closes it; the close frame (code, reason)
/// and how long it took, or `None` past `within`.
async fn socket_close(ws: &mut Ws, within: Duration) -> Option<(Option<(u16, String)>, Duration)> {
    let started = Instant::now();
    tokio::time::timeout(within, async {
        loop {
            match ws.stream.next().await {
                Some(Ok(Message::Close(frame))) => {
                    return frame.map(|f| (u16::from(f.code), f.reason.to_string()));
                }
                Some(Ok(_)) => continue,
                None | Some(Err(_)) => return None,
            }
        }
    })
    .await
    .ok()
    .map(|frame| (frame, started.elapsed()))
}

/// Alice challenges Bob through the API and Bob accepts: the game's id.
/// The cast of the ban and mute tests: an admin (boss), mallory and bob with
/// personal tokens, and an API game between them.
struct Cast {
    s: TestServer,
    boss: Client,
    mallory: Client,
    mallorys: Api,
    bobs: Api,
    game: String,
}

async fn cast(backend: Backend) -> Cast {
    let s = server(backend).await;
    let store = s.running.as_ref().unwrap().app.store.clone();
    let boss = s.register("boss").await;
    qiyuan_server::events::grant(&*store, "boss", "admin")
        .await
        .unwrap();
    let mallory = s.register("mallory").await;
    let bob = s.register("bob").await;
    let mallorys = token(&mallory, PLAYER).await;
    let bobs = token(&bob, PLAYER).await;
    let game = api_game(&mallorys, &bobs, "bob").await;
    Cast {
        s,
        boss,
        mallory,
        mallorys,
        bobs,
        game,
    }
}

async fn api_game(alice: &Api, bob: &Api, bob_name: &str) -> String {
    let mut a_events = alice.stream("/api/stream/event").await;
    let mut b_events = bob.stream("/api/stream/event").await;
    let r = alice
        .post(
            &format!("/api/challenge/{bob_name}"),
            &[
                ("clock.limit", "300"),
                ("clock.increment", "0"),
                ("color", "white"),
            ],
        )
        .await;
    assert_eq!(r.status(), 200);
    let id = r.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    b_events
        .until("the challenge", |v| v["type"] == "challenge")
        .await;
    let r = bob.post(&format!("/api/challenge/{id}/accept"), &[]).await;
    assert_eq!(r.status(), 200);
    let start = a_events
        .until("gameStart", |v| v["type"] == "gameStart")
        .await;
    start["game"]["gameId"].as_str().unwrap().to_string()
}

#[derive(Debug, Clone, Copy)]
enum Via {
    /// `POST /api/admin/role` by an admin.
    Http,
    /// `qiyuan admin ban` on the database.
    Cli,
}

/// Everything of Mallory's is open — a WebSocket, the event stream with a
/// personal token and with her session, a game stream — when she is banned:
/// each is closed within 5 s, and each of her tokens is refused on every
/// route from then on.
async fn a_ban_reaches_everything(backend: Backend, via: Via) {
    let Cast {
        s,
        boss,
        mallory,
        mallorys: personal,
        bobs,
        game,
        ..
    } = cast(backend).await;

    let mut socket = mallory.ws().await;
    let table = socket.create(json!({"game": "chess"})).await;
    let mut events = personal.stream("/api/stream/event").await;
    let mut session_events = session_api(&mallory).stream("/api/stream/event").await;
    let mut game_stream = personal
        .stream(&format!("/api/board/game/stream/{game}"))
        .await;
    game_stream
        .until("gameFull", |v| v["type"] == "gameFull")
        .await;

    let banned_at = Instant::now();
    match via {
        Via::Http => {
            let (status, body) = post(
                &boss,
                "/api/admin/role",
                json!({"user": "mallory", "role": "banned"}),
            )
            .await;
            assert_eq!(status, 200, "{body}");
        }
        Via::Cli => {
            assert_eq!(
                admin(&s, &["ban", "mallory"]).await.trim(),
                "mallory: banned"
            );
        }
    }
    // Each is measured from the moment the ban was given (the admin API
    // answered, or the command exited), and must end within 5 s of it.
    let given = Instant::now();
    let ban_took = given - banned_at;
    let left = || LIMIT.saturating_sub(given.elapsed());
    let (frame, _) = socket_close(&mut socket, left())
        .await
        .expect("the banned account's socket is closed within 5 s");
    assert_eq!(frame, Some((4001, "banned".into())));
    let socket_took = given.elapsed();
    stream_end(&mut events, left())
        .await
        .expect("the event stream of a personal token ends within 5 s");
    let events_took = given.elapsed();
    stream_end(&mut session_events, left())
        .await
        .expect("the event stream of a session ends within 5 s");
    let session_took = given.elapsed();
    stream_end(&mut game_stream, left())
        .await
        .expect("the game stream ends within 5 s");
    let game_took = given.elapsed();
    eprintln!(
        "{backend:?} ban via {via:?} (given in {ban_took:?}); after it: socket closed by \
         {socket_took:?}, event streams ended by {events_took:?} (token) and {session_took:?} \
         (session), game stream by {game_took:?}"
    );

    // Every token is refused on every route.
    assert_eq!(mallory.get("/api/account/me").await.status(), 401);
    assert_eq!(personal.get("/api/account").await.status(), 401);
    assert_eq!(
        session_api(&mallory).get("/api/account").await.status(),
        401
    );
    let r = personal
        .post(&format!("/api/board/game/{game}/move/e2e4"), &[])
        .await;
    assert_eq!(r.status(), 401, "a banned token plays");
    let r = personal.post("/api/challenge/bob", &[]).await;
    assert_eq!(r.status(), 401, "a banned token challenges");
    let r = personal
        .post(
            &format!("/api/board/game/{game}/chat"),
            &[("room", "player"), ("text", "still here")],
        )
        .await;
    assert_eq!(r.status(), 401, "a banned token chats");
    let r = personal.get("/api/stream/event").await;
    assert_eq!(r.status(), 401, "a banned token streams");
    // A new socket with the old session is nobody's, and creates nothing.
    let url = format!("{}?token={}", mallory.ws_url, mallory.token);
    let (stream, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    let mut anon = Ws {
        stream,
        seen: Vec::new(),
        views: Default::default(),
    };
    let hello = anon.expect("hello").await;
    assert_eq!(hello["d"]["user"], Value::Null);
    let r = anon.act("create", json!({"game": "chess"})).await;
    assert_eq!(r["d"]["code"], "not_logged_in", "{r}");
    let r = anon.act("sit", json!({"table": table, "seat": 1})).await;
    assert_eq!(r["t"], "error", "{r}");
    // And no new login.
    let r = reqwest::Client::new()
        .post(format!("{}/api/account/login", s.base))
        .json(&json!({"username": "mallory", "password": "secret-pw"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403);
    // Bob is untouched.
    assert_eq!(bobs.get("/api/account").await.status(), 200);
}

async fn a_ban_over_http_reaches_everything(backend: Backend) {
    a_ban_reaches_everything(backend, Via::Http).await
}

async fn a_ban_by_the_command_line_reaches_everything(backend: Backend) {
    a_ban_reaches_everything(backend, Via::Cli).await
}

/// A muted player's chat line is refused and reaches neither stream nor the
/// chat's history; once the mute is lifted it is delivered again.
async fn a_muted_players_chat_is_not_delivered(backend: Backend) {
    let Cast {
        s,
        boss,
        mallory,
        mallorys: theirs,
        bobs,
        game,
        ..
    } = cast(backend).await;
    let mut bob_stream = bobs.stream(&format!("/api/board/game/stream/{game}")).await;
    bob_stream
        .until("gameFull", |v| v["type"] == "gameFull")
        .await;
    let say = async |who: &Api, text: &str| {
        who.post(
            &format!("/api/board/game/{game}/chat"),
            &[("room", "player"), ("text", text)],
        )
        .await
        .status()
        .as_u16()
    };

    assert_eq!(
        admin(&s, &["mute", "mallory"]).await.trim(),
        "mallory: muted"
    );
    assert_eq!(say(&theirs, "muted line").await, 403);
    // Also with the session (the web client's way in).
    assert_eq!(say(&session_api(&mallory), "muted line 2").await, 403);
    let chat = format!("/api/board/game/{game}/chat");
    bobs.ok_with(&chat, &[("room", "player"), ("text", "hello")])
        .await;
    let line = bob_stream
        .until("a chat line", |v| v["type"] == "chatLine")
        .await;
    assert_eq!(
        line["text"], "hello",
        "the muted line was delivered: {line}"
    );
    let history: Value = bobs
        .get(&format!("/api/board/game/{game}/chat"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(history, json!([{"user": "bob", "text": "hello"}]));

    let (status, body) = post(
        &boss,
        "/api/admin/role",
        json!({"user": "mallory", "role": "muted", "grant": false}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(say(&theirs, "back").await, 200);
    let line = bob_stream
        .until("a chat line", |v| v["type"] == "chatLine")
        .await;
    assert_eq!(line["text"], "back");
}

/// Logging out ends the API streams opened with that session (and its
/// socket), not those of another session or of a personal token; logging
/// out everywhere ends every session's.
async fn logout_ends_the_sessions_streams(backend: Backend) {
    let s = server(backend).await;
    let alice = s.register("alice").await;
    let bob = s.register("bob").await;
    let personal = token(&alice, PLAYER).await;
    let bobs = token(&bob, PLAYER).await;
    let game = api_game(&personal, &bobs, "bob").await;
    let laptop = login(&s, "alice").await;

    let mut socket = alice.ws().await;
    let mut events = session_api(&alice).stream("/api/stream/event").await;
    let mut game_stream = session_api(&alice)
        .stream(&format!("/api/board/game/stream/{game}"))
        .await;
    game_stream
        .until("gameFull", |v| v["type"] == "gameFull")
        .await;
    let mut laptop_events = session_api(&laptop).stream("/api/stream/event").await;
    let mut token_events = personal.stream("/api/stream/event").await;

    let r = alice
        .http
        .post(format!("{}/api/account/logout", s.base))
        .bearer_auth(&alice.token)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 204);
    let (frame, _) = socket_close(&mut socket, LIMIT).await.expect("closed");
    assert_eq!(frame, Some((4001, "logged_out".into())));
    let took = stream_end(&mut events, LIMIT)
        .await
        .expect("the session's event stream ends");
    stream_end(&mut game_stream, LIMIT)
        .await
        .expect("the session's game stream ends");
    eprintln!("{backend:?} logout: the event stream ended after {took:?}");
    // Another session's stream and the personal token's go on.
    assert!(
        stream_end(&mut laptop_events, Duration::from_secs(1))
            .await
            .is_none(),
        "another session's stream ended"
    );
    assert_eq!(session_api(&laptop).get("/api/account").await.status(), 200);

    let r = laptop
        .http
        .post(format!("{}/api/account/logout-everywhere", s.base))
        .bearer_auth(&laptop.token)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    stream_end(&mut laptop_events, LIMIT)
        .await
        .expect("logging out everywhere ends every session's streams");
    // A personal token is not a session: revoked on its own, not by logouts.
    assert!(
        stream_end(&mut token_events, Duration::from_secs(1))
            .await
            .is_none(),
        "a personal token's stream ended with the sessions"
    );
    assert_eq!(personal.get("/api/account").await.status(), 200);
    personal
        .ok(&format!("/api/board/game/{game}/move/e2e4"))
        .await;
}

fn event_config(starts_at: i64) -> Value {
    json!({
        "name": "Authority test",
        "game": "chess",
        "time": {"kind": "fischer", "base": 60000, "increment": 0},
        "rounds": 3,
        "starts_at": starts_at,
        "forfeit_secs": 600.0,
    })
}

/// An organiser, an arbiter and an admin whose roles are taken away (by the
/// command line, on the running server's database) stop acting at once,
/// though their sessions and sockets were opened while they held them.
async fn a_revoked_role_stops_acting(backend: Backend) {
    let s = server(backend).await;
    let org = s.register("org").await;
    let arb = s.register("arb").await;
    let boss = s.register("boss").await;
    let ann = s.register("ann").await;
    admin(&s, &["grant", "org", "organiser"]).await;
    admin(&s, &["grant", "arb", "arbiter"]).await;
    admin(&s, &["grant", "boss", "admin"]).await;
    let (status, created) = post(&org, "/api/events", event_config(now_ms() + 3_600_000)).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let (status, _) = post(
        &org,
        &format!("/api/event/{id}/arbiters"),
        json!({"user": "arb"}),
    )
    .await;
    assert_eq!(status, 200);
    let (status, _) = post(&ann, &format!("/api/event/{id}/register"), json!({})).await;
    assert_eq!(status, 200);
    let warn = json!({"kind": "disqualify", "player": "ann", "reason": "test"});

    admin(&s, &["revoke", "org", "organiser"]).await;
    let r = org
        .http
        .patch(format!("{}/api/event/{id}", s.base))
        .bearer_auth(&org.token)
        .json(&event_config(now_ms() + 7_200_000))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403, "a former organiser changed the event");
    assert_eq!(
        refusal(
            post(
                &org,
                &format!("/api/event/{id}/arbiters"),
                json!({"user": "arb"})
            )
            .await
        ),
        (403, "not_organiser".into())
    );
    assert_eq!(
        refusal(post(&org, "/api/events", event_config(now_ms() + 3_600_000)).await),
        (403, "not_organiser".into())
    );

    admin(&s, &["revoke", "arb", "arbiter"]).await;
    assert_eq!(
        refusal(post(&arb, &format!("/api/event/{id}/action"), warn.clone()).await),
        (403, "not_arbiter".into())
    );
    let ev: Value = ann
        .get(&format!("/api/event/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(ev["players"][0]["disqualified"], false);
    // Given back, it acts again.
    admin(&s, &["grant", "arb", "arbiter"]).await;
    let (status, body) = post(&arb, &format!("/api/event/{id}/action"), warn).await;
    assert_eq!(status, 200, "{body}");

    let (status, _) = post(
        &boss,
        "/api/admin/role",
        json!({"user": "ann", "role": "muted"}),
    )
    .await;
    assert_eq!(status, 200);
    admin(&s, &["revoke", "boss", "admin"]).await;
    assert_eq!(
        refusal(
            post(
                &boss,
                "/api/admin/role",
                json!({"user": "ann", "role": "banned"}),
            )
            .await
        ),
        (403, "not_admin".into())
    );
    assert_eq!(ann.get("/api/account/me").await.status(), 200);
}

/// An arbiter of an event cannot enter it, a player of it cannot be named
/// its arbiter, and an arbiter who plays there all the same (made so in the
/// store) acts on no game of theirs, while another arbiter does.
async fn an_arbiter_neither_plays_nor_judges_their_game(backend: Backend) {
    let s = server(backend).await;
    let store = s.running.as_ref().unwrap().app.store.clone();
    let org = s.register("org").await;
    let arb = s.register("arb").await;
    let judge = s.register("judge").await;
    let ann = s.register("ann").await;
    admin(&s, &["grant", "org", "organiser"]).await;
    for who in ["arb", "judge", "ann"] {
        admin(&s, &["grant", who, "arbiter"]).await;
    }
    let (status, created) = post(&org, "/api/events", event_config(now_ms() + 1_500)).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    for who in ["arb", "judge"] {
        let (status, _) = post(
            &org,
            &format!("/api/event/{id}/arbiters"),
            json!({"user": who}),
        )
        .await;
        assert_eq!(status, 200);
    }
    assert_eq!(
        refusal(post(&arb, &format!("/api/event/{id}/register"), json!({})).await),
        (403, "arbiter_plays".into())
    );
    let (status, _) = post(&ann, &format!("/api/event/{id}/register"), json!({})).await;
    assert_eq!(status, 200);
    assert_eq!(
        refusal(
            post(
                &org,
                &format!("/api/event/{id}/arbiters"),
                json!({"user": "ann"})
            )
            .await
        ),
        (403, "arbiter_plays".into())
    );
    // Made a player all the same (as before these checks existed).
    let arb_id = store.user_by_name("arb").await.unwrap().unwrap().id;
    store
        .add_event_player(&id, arb_id, Some(1500), 1, now_ms())
        .await
        .unwrap();
    // Round 1: arb against ann.
    let mut paired = false;
    for _ in 0..200 {
        let ev: Value = ann
            .get(&format!("/api/event/{id}"))
            .await
            .json()
            .await
            .unwrap();
        if ev["rounds"][0]["games"][0]["table"].is_string() {
            paired = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(paired, "round 1 was not paired");
    for (kind, player) in [
        ("warning", "ann"),
        ("foul", "ann"),
        ("adjudicate", "ann"),
        ("forfeit", "ann"),
        ("disqualify", "ann"),
        ("warning", "arb"),
        ("adjudicate", "arb"),
    ] {
        let action = json!({"kind": kind, "player": player, "reason": "x", "result": "1-0"});
        assert_eq!(
            refusal(post(&arb, &format!("/api/event/{id}/action"), action).await),
            (403, "arbiter_plays".into()),
            "{kind} {player}"
        );
    }
    let ev: Value = ann
        .get(&format!("/api/event/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert!(ev["actions"].as_array().unwrap().is_empty(), "{ev}");
    assert!(ev["rounds"][0]["games"][0]["white_result"].is_null());
    // The other arbiter judges the game.
    let (status, body) = post(
        &judge,
        &format!("/api/event/{id}/action"),
        json!({"kind": "warning", "player": "ann", "reason": "noise"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
}

both!(
    a_ban_over_http_reaches_everything,
    a_ban_by_the_command_line_reaches_everything,
    a_muted_players_chat_is_not_delivered,
    logout_ends_the_sessions_streams,
    a_revoked_role_stops_acting,
    an_arbiter_neither_plays_nor_judges_their_game,
);
