//! How API games begin, and the event stream that tells of it: seeks (quick
//! pairing, the lobby's own queue, so an API seek pairs with a web player's),
//! challenges between accounts (accepted: an ordinary table with both seated
//! and ready), and the built-in engine (`POST /api/challenge/ai`, the
//! server's `play_computer`). `GET /api/stream/event` gets `gameStart`,
//! `gameFinish`, `challenge`, `challengeCanceled` and `challengeDeclined`.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use qiyuan_game::Seat;
use qiyuan_table::{Command, Settings, TimeControl};
use serde_json::{Value, json};

use super::games::{self, Kind, api_conn, seat_of, snapshot, speed_of, variant_of};
use super::hub::{self, Challenge, until_revoked};
use super::stream::{Error, Lines, Result, form, keepalive, ndjson, ok};
use super::tokens::{Caller, caller};
use crate::App;
use crate::live::{self, TableHandle, TableMsg};
use crate::protocol::{Colour, LevelKey, PlayComputer, Seek};

/// The game a request names by Lichess variant key (default `standard`).
fn game_of(app: &App, variant: Option<&String>) -> Result<&'static str> {
    let key = variant.map(String::as_str).unwrap_or("standard");
    app.games
        .all()
        .iter()
        .find(|g| g.api_variant.is_some_and(|v| v.key == key))
        .map(|g| g.name)
        .ok_or_else(|| Error::bad(format!("Unsupported variant {key}")))
}

fn number(f: &std::collections::HashMap<String, String>, key: &str) -> Result<Option<f64>> {
    match f.get(key).map(|s| s.trim()).filter(|s| !s.is_empty()) {
        None => Ok(None),
        Some(s) => s
            .parse::<f64>()
            .ok()
            .filter(|n| n.is_finite() && *n >= 0.0)
            .map(Some)
            .ok_or_else(|| Error::bad(format!("{key}: a number"))),
    }
}

fn flag(f: &std::collections::HashMap<String, String>, key: &str) -> bool {
    f.get(key).is_some_and(|v| v == "true" || v == "1")
}

/// A time control from Lichess's fields: `clock.limit` and `clock.increment`
/// in seconds (challenges), or `time` in minutes and `increment` in seconds
/// (seeks), or `days`; none: no clock.
fn time_of(f: &std::collections::HashMap<String, String>) -> Result<TimeControl> {
    let limit = match number(f, "clock.limit")? {
        Some(s) => Some(s),
        None => number(f, "time")?.map(|m| m * 60.0),
    };
    let inc = match number(f, "clock.increment")? {
        Some(s) => Some(s),
        None => number(f, "increment")?,
    };
    let t = match (limit, number(f, "days")?) {
        (Some(limit), _) => TimeControl::Fischer {
            base: (limit * 1000.0) as u64,
            increment: (inc.unwrap_or(0.0) * 1000.0) as u64,
        },
        (None, Some(days)) => TimeControl::Correspondence { days: days as u32 },
        (None, None) => TimeControl::None,
    };
    t.validate().map_err(Error::bad)?;
    Ok(t)
}

fn time_control_json(t: &TimeControl) -> Value {
    match t {
        TimeControl::Fischer { base, increment } => json!({
            "type": "clock", "limit": base / 1000, "increment": increment / 1000,
            "show": format!("{}+{}", show_minutes(*base), increment / 1000),
        }),
        TimeControl::Correspondence { days } => {
            json!({"type": "correspondence", "daysPerTurn": days})
        }
        _ => json!({"type": "unlimited"}),
    }
}

fn show_minutes(ms: u64) -> String {
    match ms {
        15_000 => "¼".into(),
        30_000 => "½".into(),
        45_000 => "¾".into(),
        90_000 => "1.5".into(),
        _ => (ms / 60_000).to_string(),
    }
}

async fn user_json(app: &App, id: i64, name: &str, game: &str, time: &Value) -> Value {
    let (rating, provisional) = games::rating_of(app, id, game, time).await;
    let bot = app.store.is_bot(id).await.unwrap_or(false);
    json!({"id": name.to_lowercase(), "name": name, "rating": rating, "provisional": provisional,
           "title": if bot { json!("BOT") } else { Value::Null }, "online": true})
}

/// Lichess's `ChallengeJson`.
async fn challenge_json(app: &App, c: &Challenge, direction: Option<&str>) -> Value {
    let time = serde_json::to_value(c.time).unwrap_or(Value::Null);
    let v = variant_of(app, &c.game);
    let final_color = if c.challenger_seat == 0 {
        "white"
    } else {
        "black"
    };
    let speed = speed_of(&time);
    let mut j = json!({
        "id": c.id,
        "url": format!("/{}", c.id),
        "status": "created",
        "challenger": user_json(app, c.challenger.0, &c.challenger.1, &c.game, &time).await,
        "destUser": user_json(app, c.dest.0, &c.dest.1, &c.game, &time).await,
        "variant": v.map(|v| json!({"key": v.key, "name": v.name, "short": v.short})),
        "rated": c.rated,
        "speed": speed,
        "timeControl": time_control_json(&c.time),
        "color": c.color,
        "finalColor": final_color,
        "perf": {"name": speed},
    });
    if let Some(d) = direction {
        j["direction"] = json!(d);
    }
    j
}

/// Lichess's `gameStart`/`gameFinish` event of a table for `me`.
pub(super) async fn game_event(
    app: &App,
    kind: &str,
    id: &str,
    state: &Value,
    me: &str,
    source: &str,
) -> Value {
    let game = &state["game"];
    let mine = seat_of(state, me).unwrap_or(0);
    let game_name = state["game_name"].as_str().unwrap_or("");
    let v = variant_of(app, game_name);
    let opponent = game["players"][1 - mine.min(1)].as_str().unwrap_or("");
    let time = &game["settings"]["time"];
    let opponent = match crate::live::Occupant::of(opponent) {
        crate::live::Occupant::Computer { level } => {
            let level = level.unwrap_or("");
            json!({"id": null, "username": format!("AI level {level}"), "ai": level.parse::<u32>().ok()})
        }
        _ => match app.store.user_by_name(opponent).await {
            Ok(Some(u)) => {
                let (rating, _) = games::rating_of(app, u.id, game_name, time).await;
                json!({"id": u.username.to_lowercase(), "username": u.username, "rating": rating})
            }
            _ => json!({"id": opponent.to_lowercase(), "username": opponent}),
        },
    };
    let st = v
        .map(|v| games::game_state(state, &v))
        .unwrap_or(Value::Null);
    let moves = st["moves"].as_str().unwrap_or("");
    let turn = game["turn"]["seat"].as_u64();
    let speed = speed_of(time);
    let mut g = json!({
        "gameId": id,
        "fullId": format!("{id}0000"),
        "id": id,
        "color": if mine == 0 { "white" } else { "black" },
        "fen": game["board"]["fen"],
        "hasMoved": game["moves"].as_array().is_some_and(|m| m.iter().any(|m| m["seat"].as_u64() == Some(mine as u64))),
        "isMyTurn": turn == Some(mine as u64),
        "lastMove": moves.rsplit(' ').next().unwrap_or(""),
        "opponent": opponent,
        "perf": speed,
        "rated": game["rated"],
        "secondsLeft": game["clock"]["seats"][mine]["main"].as_i64().map(|ms| ms / 1000),
        "source": source,
        "speed": speed,
        "status": {"name": st["status"]},
        "variant": v.map(|v| json!({"key": v.key, "name": v.name})),
        "compat": {"bot": true, "board": true},
    });
    if let Some(w) = st.get("winner") {
        g["winner"] = w.clone();
    }
    json!({"type": kind, "game": g})
}

/// Tells the players (API users) that a game started, and watches it to tell
/// them when it ends. Each table is watched once.
pub(super) async fn started(app: &Arc<App>, handle: &TableHandle, source: &'static str) {
    track(app, handle, source, true).await;
}

/// The live tables of the API's games where `name` sits and a game is being
/// played, from the lobby's summaries (games begun from the web client, games
/// against the computer, and games under way before a restart, included).
fn live_games_of(app: &App, name: &str) -> Vec<String> {
    app.games
        .all()
        .iter()
        .filter(|g| g.api_variant.is_some())
        .flat_map(|g| app.lobby.tables_of(g.name, name))
        .filter(|t| t.status == qiyuan_table::Status::Playing)
        .map(|t| t.id)
        .collect()
}

/// The caller's games in progress: each one's table and view, and its end
/// watched from now on (for `gameFinish`).
async fn games_in_progress(app: &Arc<App>, caller: &Caller) -> Vec<(String, Value)> {
    let mut ids = app.lichess.playing_of(caller.user.id);
    for id in live_games_of(app, &caller.user.username) {
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    let mut out = Vec::new();
    for id in ids {
        // (With several nodes the table may be owned by another node: its
        // address here is the local proxy.)
        if let Some(handle) = app.table(&id).await
            && let Ok(state) = snapshot(&handle).await
            && state["status"] == "playing"
        {
            track(app, &handle, "friend", false).await;
            out.push((id, state));
        }
    }
    out
}

/// Notes a game's players as playing it, tells them it started (`tell`), and
/// watches it to tell them when it ends. Each table is watched once.
async fn track(app: &Arc<App>, handle: &TableHandle, source: &'static str, tell: bool) {
    // The game starts once every seat is ready: computer players get ready by
    // themselves, a moment after the table is made.
    let mut state = Value::Null;
    for _ in 0..100 {
        match snapshot(handle).await {
            Ok(s) if s["game"].is_object() => {
                state = s;
                break;
            }
            Ok(_) => tokio::time::sleep(std::time::Duration::from_millis(20)).await,
            Err(_) => return,
        }
    }
    if state.is_null() {
        return;
    }
    let players = players_of(app, &state).await;
    // The first to track a table tells its players and watches it; a second
    // (the other seeker of a pair) finds it done.
    let already = hub::watch_once(app, &handle.id).await;
    for (id, name) in &players {
        app.lichess.start_playing(*id, &handle.id);
        if tell && !already {
            let event = game_event(app, "gameStart", &handle.id, &state, name, source).await;
            hub::tell(app, *id, &event).await;
        }
    }
    if already {
        return;
    }
    let app = app.clone();
    let handle = handle.clone();
    tokio::spawn(async move {
        let (conn, mut rx) = api_conn(None);
        let conn_id = conn.id;
        if handle
            .tx
            .send(TableMsg::Watch {
                conn,
                since: None,
                req: None,
            })
            .await
            .is_err()
        {
            hub::unwatch(&app, &handle.id).await;
            return;
        }
        let mut last = None;
        let mut follower = crate::protocol::patch::Follower::default();
        // Several nodes: the claim on watching this table is renewed.
        let every = std::time::Duration::from_millis(
            app.cluster
                .as_ref()
                .map_or(60_000, |c| c.config.renew_ms.max(100)),
        );
        let mut renew = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
        loop {
            let text = tokio::select! {
                text = rx.recv() => match text {
                    Some(text) => text,
                    None => break,
                },
                _ = renew.tick() => {
                    hub::still_watching(&app, &handle.id).await;
                    continue;
                }
            };
            let Ok(msg) = serde_json::from_str::<Value>(text.as_str()) else {
                continue;
            };
            let Some(state) = follower.feed(&msg) else {
                continue;
            };
            if state["game"]["outcome"].is_object() {
                last = Some(state.clone());
                break;
            }
        }
        let _ = handle.tx.send(TableMsg::Closed { conn: conn_id }).await;
        hub::unwatch(&app, &handle.id).await;
        hub::forget_chat(&app, &handle.id).await;
        for (id, name) in &players {
            app.lichess.stop_playing(*id, &handle.id);
            if let Some(state) = &last {
                let event = game_event(&app, "gameFinish", &handle.id, state, name, source).await;
                hub::tell(&app, *id, &event).await;
            }
        }
    });
}

/// The accounts seated in a view's game.
async fn players_of(app: &App, state: &Value) -> Vec<(i64, String)> {
    let mut out = Vec::new();
    for name in state["game"]["players"].as_array().into_iter().flatten() {
        let Some(name) = name.as_str() else { continue };
        if let Ok(Some(u)) = app.store.user_by_name(name).await
            && u.username == name
        {
            out.push((u.id, u.username));
        }
    }
    out
}

/// `GET /api/account/playing`: the caller's games in progress, as `gameStart`
/// describes them (`{"nowPlaying": [...]}`).
pub async fn playing(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<Response> {
    let caller = caller(&app, &headers).await?;
    let mut now = Vec::new();
    for (id, state) in games_in_progress(&app, &caller).await {
        let e = game_event(
            &app,
            "gameStart",
            &id,
            &state,
            &caller.user.username,
            "friend",
        )
        .await;
        now.push(e["game"].clone());
    }
    Ok(axum::Json(json!({"nowPlaying": now})).into_response())
}

/// `GET /api/stream/event`.
pub async fn event_stream(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<Response> {
    let caller = caller(&app, &headers).await?;
    if caller.scopes.as_ref().is_some_and(|s| {
        !s.iter()
            .any(|x| matches!(x.as_str(), "board:play" | "bot:play" | "challenge:read"))
    }) {
        return Err(Error::forbidden("Missing scope: challenge:read"));
    }
    Ok(ndjson(move |lines| events(app, caller, lines)))
}

async fn events(app: Arc<App>, caller: Caller, lines: Lines) {
    let me = caller.user.id;
    let mut rx = app.lichess.listen(me);
    // What is under way already: games, then open challenges.
    for (id, state) in games_in_progress(&app, &caller).await {
        let e = game_event(
            &app,
            "gameStart",
            &id,
            &state,
            &caller.user.username,
            "friend",
        )
        .await;
        if !lines.send(&e).await {
            return;
        }
    }
    for c in hub::challenges_of(&app, me).await {
        let dir = if c.challenger.0 == me { "out" } else { "in" };
        let e =
            json!({"type": "challenge", "challenge": challenge_json(&app, &c, Some(dir)).await});
        if !lines.send(&e).await {
            return;
        }
    }
    let every = keepalive(&app);
    let mut beat = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
    let revoked = until_revoked(&app, &caller.token_hash);
    tokio::pin!(revoked);
    loop {
        tokio::select! {
            e = rx.recv() => match e {
                Some(e) => if !lines.send(&e).await { break },
                None => break,
            },
            _ = beat.tick() => if !lines.keepalive().await { break },
            _ = &mut revoked => break,
            _ = lines.closed() => break,
        }
    }
}

/// `POST /api/board/seek`: streams keep-alive newlines until paired, then
/// ends (the game's `gameStart` comes on the event stream). Only real-time
/// seeks; the lobby pairs seeks of the same game, time control and rating.
pub async fn seek(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response> {
    let caller = caller(&app, &headers).await?;
    Kind::Board.check(&caller)?;
    let f = form(&headers, &body)?;
    let game = game_of(&app, f.get("variant"))?;
    let time = time_of(&f)?;
    if !matches!(time, TimeControl::Fischer { .. }) {
        return Err(Error::bad(
            "Only real-time seeks (time and increment) are supported",
        ));
    }
    let rated = flag(&f, "rated");
    if rated && caller.user.guest {
        return Err(Error::forbidden("Guests play casual games only"));
    }
    let (conn, mut rx) = api_conn(Some(caller.info()));
    let conn_id = conn.id;
    crate::lobby::seek(
        &app,
        conn,
        Seek {
            game: game.to_string(),
            time,
            rated,
        },
    )
    .await?;
    Ok(ndjson(move |lines| async move {
        let every = keepalive(&app);
        let mut beat = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
        let revoked = until_revoked(&app, &caller.token_hash);
        tokio::pin!(revoked);
        let paired = loop {
            tokio::select! {
                msg = rx.recv() => {
                    let Some(text) = msg else { break None };
                    let Ok(msg) = serde_json::from_str::<Value>(text.as_str()) else { continue };
                    if msg["t"] == "paired"
                        && let Some(table) = msg["d"]["table"].as_str()
                    {
                        break Some(table.to_string());
                    }
                }
                _ = beat.tick() => if !lines.keepalive().await { break None },
                _ = &mut revoked => break None,
                _ = lines.closed() => break None,
            }
        };
        let handle = match paired {
            Some(t) => app.table(&t).await,
            None => None,
        };
        match handle {
            Some(handle) => {
                started(&app, &handle, "lobby").await;
                // The seek's connection leaves the table: the game stream is
                // the player's connection from now on.
                let _ = handle.tx.send(TableMsg::Closed { conn: conn_id }).await;
            }
            None => {
                app.lobby.cancel_seeks(conn_id);
                if let Some(cluster) = &app.cluster {
                    cluster.cancel_seek(conn_id).await;
                }
            }
        }
        if let Some(cluster) = &app.cluster {
            cluster.forget_local(conn_id);
        }
    }))
}

/// `POST /api/challenge/{username}`.
pub async fn challenge(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(username): Path<String>,
    body: Bytes,
) -> Result<Response> {
    let caller = caller(&app, &headers).await?;
    caller.require("challenge:write")?;
    let f = form(&headers, &body)?;
    let game = game_of(&app, f.get("variant"))?;
    let dest = app
        .store
        .user_by_name(&crate::auth::normalize_username(&username))
        .await?
        .filter(|u| !u.guest)
        .ok_or_else(|| Error::not_found(format!("No such user {username}")))?;
    if dest.id == caller.user.id {
        return Err(Error::bad("You cannot challenge yourself"));
    }
    if f.get("fen").is_some_and(|s| !s.is_empty()) {
        return Err(Error::bad(
            "Challenges from a position are not supported here",
        ));
    }
    let rated = flag(&f, "rated");
    if rated && caller.user.guest {
        return Err(Error::forbidden("Guests play casual games only"));
    }
    let dest_bot = app.store.is_bot(dest.id).await?;
    if rated && (caller.bot != dest_bot) && !app.config.api.bots_rated_with_humans {
        return Err(Error::bad(
            "Bot accounts play casual games only with humans here",
        ));
    }
    let time = time_of(&f)?;
    let color = f.get("color").cloned().unwrap_or_else(|| "random".into());
    let challenger_seat = match color.as_str() {
        "white" => 0,
        "black" => 1,
        "random" => {
            use rand::Rng;
            rand::thread_rng().gen_range(0..2)
        }
        other => {
            return Err(Error::bad(format!(
                "color: white, black or random, not {other}"
            )));
        }
    };
    let mut c = Challenge {
        // Drawn below, under the lock: the game's id once accepted.
        id: String::new(),
        game: game.to_string(),
        challenger: (caller.user.id, caller.user.username.clone()),
        dest: (dest.id, dest.username.clone()),
        rated,
        time,
        color,
        challenger_seat,
        created_at: crate::now_ms(),
    };
    {
        // Counted and stored under one lock, so that a burst of challenges
        // cannot pass the caps (on this node).
        let _one_at_a_time = CHALLENGING.lock().await;
        within_challenge_caps(&app, &c).await?;
        c.id = challenge_id(&app).await?;
        hub::put_challenge(&app, &c).await;
    }
    // A challenge nobody answers goes away.
    let expiry = std::time::Duration::from_secs_f64(app.config.api.challenge_secs.max(1.0));
    let (app2, id2) = (app.clone(), c.id.clone());
    tokio::spawn(async move {
        tokio::time::sleep(expiry).await;
        hub::expire_challenge(&app2, &id2).await;
    });
    let e_in =
        json!({"type": "challenge", "challenge": challenge_json(&app, &c, Some("in")).await});
    hub::tell(&app, dest.id, &e_in).await;
    let e_out =
        json!({"type": "challenge", "challenge": challenge_json(&app, &c, Some("out")).await});
    hub::tell(&app, caller.user.id, &e_out).await;
    Ok(axum::Json(challenge_json(&app, &c, None).await).into_response())
}

/// A new challenge's id, which is its game's id once accepted (as on Lichess,
/// where lichess-bot books its game slot under the challenge's id): a table
/// id (8 letters and digits, [`live::new_id`]) that no table, open or closed,
/// and no open challenge has.
async fn challenge_id(app: &App) -> Result<String> {
    loop {
        let id = live::new_id();
        if app.store.table(&id).await?.is_none() && !hub::challenge_open(app, &id).await {
            return Ok(id);
        }
    }
}

/// Challenges being counted and stored, one at a time (see [`challenge`]).
static CHALLENGING: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Refuses challenge `c` when its challenger has `challenges_per_challenger`
/// open already, or its recipient `challenges_per_recipient` waiting (`[api]`;
/// 0: no cap).
async fn within_challenge_caps(app: &App, c: &Challenge) -> Result<()> {
    let api = &app.config.api;
    let too_many = |message: String| {
        let mut e = Error::new(axum::http::StatusCode::TOO_MANY_REQUESTS, message);
        e.retry_after = Some(60);
        e
    };
    let (me, dest) = (c.challenger.0, c.dest.0);
    let mine = hub::challenges_of(app, me).await;
    let open = mine.iter().filter(|x| x.challenger.0 == me).count();
    if api.challenges_per_challenger > 0 && open >= api.challenges_per_challenger {
        return Err(too_many(format!(
            "You have {open} open challenges (the most one account may): cancel one or wait for an answer"
        )));
    }
    let theirs = hub::challenges_of(app, dest).await;
    let waiting = theirs.iter().filter(|x| x.dest.0 == dest).count();
    if api.challenges_per_recipient > 0 && waiting >= api.challenges_per_recipient {
        return Err(too_many(format!(
            "{} has {waiting} challenges waiting for an answer: try again later",
            c.dest.1
        )));
    }
    Ok(())
}

/// `POST /api/challenge/{id}/accept`: a table with both seated and ready,
/// whose id (the game's) is the challenge's;
/// refused (`429`, the challenge still open) when either player holds the
/// most tables one person may.
pub async fn accept(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response> {
    let caller = caller(&app, &headers).await?;
    caller
        .require("challenge:write")
        .or_else(|_| caller.require("bot:play"))
        .or_else(|_| caller.require("board:play"))?;
    let c = hub::take_challenge(&app, &id, |c| c.dest.0 == caller.user.id)
        .await
        .ok_or_else(|| Error::not_found("No such challenge"))?;
    let settings = Settings {
        time: c.time,
        options: Value::Null,
        setup: qiyuan_game::Setup::Standard,
        rated: c.rated,
        takebacks: !c.rated,
    };
    let players = [c.challenger.1.as_str(), c.dest.1.as_str()];
    // The game has the challenge's id (Lichess's way: the challenge's `url`
    // is its game's), unless a table took that id meanwhile (a table made
    // elsewhere drew the same 8 characters): then a new one.
    let table_id = match app.store.table(&c.id).await {
        Ok(None) => c.id.clone(),
        _ => live::new_id(),
    };
    let made = live::create_seating_as(&app.live, table_id, &c.game, settings, &players).await;
    let (handle, _places) = match made {
        Ok(made) => made,
        Err(e) => {
            hub::put_challenge(&app, &c).await;
            return Err(e.into());
        }
    };
    let (first, second) = if c.challenger_seat == 0 {
        (&c.challenger.1, &c.dest.1)
    } else {
        (&c.dest.1, &c.challenger.1)
    };
    let cmds = vec![
        Command::Sit {
            user: first.clone(),
            seat: Seat(0),
        },
        Command::Sit {
            user: second.clone(),
            seat: Seat(1),
        },
        Command::Ready {
            user: first.clone(),
            proposal: None,
        },
        Command::Ready {
            user: second.clone(),
            proposal: None,
        },
    ];
    internal(&handle, cmds).await?;
    started(&app, &handle, "friend").await;
    // Lichess answers `{"ok": true}`; the game's id beside it (the
    // challenge's) lets the web client open the table at once.
    Ok(axum::Json(json!({"ok": true, "game": handle.id})).into_response())
}

/// `GET /api/challenge`: the caller's open challenges, `in` (to them) and `out`
/// (theirs), as Lichess lists them.
pub async fn list(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<Response> {
    let caller = caller(&app, &headers).await?;
    caller.require("challenge:read")?;
    let me = caller.user.id;
    let (mut incoming, mut outgoing) = (Vec::new(), Vec::new());
    for c in &hub::challenges_of(&app, me).await {
        if c.dest.0 == me {
            incoming.push(challenge_json(&app, c, Some("in")).await);
        } else {
            outgoing.push(challenge_json(&app, c, Some("out")).await);
        }
    }
    Ok(axum::Json(json!({"in": incoming, "out": outgoing})).into_response())
}

async fn internal(handle: &TableHandle, cmds: Vec<Command>) -> Result<()> {
    handle.internal(cmds).await?.map_err(Error::bad)
}

/// `POST /api/challenge/{id}/decline` (by the challenged).
pub async fn decline(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response> {
    let caller = caller(&app, &headers).await?;
    let f = form(&headers, &body)?;
    let c = hub::take_challenge(&app, &id, |c| c.dest.0 == caller.user.id)
        .await
        .ok_or_else(|| Error::not_found("No such challenge"))?;
    let mut j = challenge_json(&app, &c, Some("out")).await;
    j["status"] = json!("declined");
    j["declineReason"] = json!(f.get("reason").cloned().unwrap_or_else(|| "generic".into()));
    hub::tell(
        &app,
        c.challenger.0,
        &json!({"type": "challengeDeclined", "challenge": j}),
    )
    .await;
    Ok(ok())
}

/// `POST /api/challenge/{id}/cancel` (by the challenger).
pub async fn cancel(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response> {
    let caller = caller(&app, &headers).await?;
    let c = hub::take_challenge(&app, &id, |c| c.challenger.0 == caller.user.id)
        .await
        .ok_or_else(|| Error::not_found("No such challenge"))?;
    let mut j = challenge_json(&app, &c, Some("in")).await;
    j["status"] = json!("canceled");
    hub::tell(
        &app,
        c.dest.0,
        &json!({"type": "challengeCanceled", "challenge": j}),
    )
    .await;
    Ok(ok())
}

/// `POST /api/challenge/ai` (`level` 1–8, `clock.limit`, `clock.increment`,
/// `days`, `color`, `variant`): a game against the built-in engine, as
/// `play_computer` makes it → Lichess's game JSON.
pub async fn challenge_ai(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response> {
    let caller = caller(&app, &headers).await?;
    caller
        .require("challenge:write")
        .or_else(|_| caller.require("board:play"))?;
    let f = form(&headers, &body)?;
    let game = game_of(&app, f.get("variant"))?;
    let level = f.get("level").cloned().unwrap_or_else(|| "1".into());
    let time = time_of(&f)?;
    let colour = match f.get("color").map(String::as_str) {
        Some("white") => Colour::Seat(Seat(0)),
        Some("black") => Colour::Seat(Seat(1)),
        _ => Colour::Named("random".into()),
    };
    let (conn, _rx) = api_conn(Some(caller.info()));
    let req = PlayComputer {
        game: game.to_string(),
        level: Some(LevelKey(level)),
        colour: Some(colour),
        time: Some(time),
        options: Value::Null,
        setup: None,
        private: false,
    };
    let (handle, seat) = crate::computer::play(&app.live, &conn, req)
        .await
        .map_err(Error::from)?;
    started(&app, &handle, "ai").await;
    let state = snapshot(&handle).await?;
    let v = variant_of(&app, game);
    Ok(axum::Json(json!({
        "id": handle.id,
        "variant": v.map(|v| json!({"key": v.key, "name": v.name, "short": v.short})),
        "speed": speed_of(&state["game"]["settings"]["time"]),
        "perf": speed_of(&state["game"]["settings"]["time"]),
        "rated": false,
        "fen": state["game"]["board"]["fen"],
        "turns": 0,
        "source": "ai",
        "status": {"id": 20, "name": "started"},
        "createdAt": state["at"],
        "player": if seat.0 == 0 { "white" } else { "black" },
    }))
    .into_response())
}
