//! The game streams (`GET /api/{board,bot}/game/stream/{id}`: `gameFull`, then
//! `gameState` on every change, `chatLine`, `opponentGone`) and the commands
//! (move, abort, resign, draw, takeback, claim-victory, chat). A stream is a
//! subscriber of the live table like a socket; a command is a socket's
//! command, sent to the table's task. A game's id is its table's id.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::ws::Utf8Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot};

use super::hub::until_revoked;
use super::stream::{Error, Lines, Result, form, keepalive, ndjson, ok};
use super::tokens::{Caller, caller};
use crate::App;
use crate::live::{Conn, TableHandle, TableMsg, UserInfo};
use crate::protocol::TableAct;
use crate::registry::ApiVariant;

/// The Board API (people's clients) or the Bot API (bot accounts).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Board,
    Bot,
}

impl Kind {
    fn prefix(self) -> &'static str {
        match self {
            Kind::Board => "/api/board",
            Kind::Bot => "/api/bot",
        }
    }

    /// Whether the caller may use this API: the board API is for accounts that
    /// are not bots (`board:play`), the bot API for bot accounts (`bot:play`).
    pub fn check(self, caller: &Caller) -> Result<()> {
        match self {
            Kind::Board => {
                caller.require("board:play")?;
                if caller.bot {
                    return Err(Error::forbidden(
                        "This endpoint cannot be used with a Bot account.",
                    ));
                }
            }
            Kind::Bot => {
                caller.require("bot:play")?;
                if !caller.bot {
                    return Err(Error::forbidden(
                        "This endpoint can only be used with a Bot account.",
                    ));
                }
            }
        }
        Ok(())
    }
}

/// Mounts one API's game routes.
pub(super) fn routes(r: Router<Arc<App>>, kind: Kind) -> Router<Arc<App>> {
    let p = kind.prefix();
    let act = move |path: &'static str| {
        post(
            move |State(app): State<Arc<App>>, headers: HeaderMap, Path(id): Path<String>| async move {
                command(app, headers, kind, id, path).await
            },
        )
    };
    r.route(
        &format!("{p}/game/stream/{{id}}"),
        get(
            move |State(app): State<Arc<App>>, headers: HeaderMap, Path(id): Path<String>| async move {
                game_stream(app, headers, kind, id).await
            },
        ),
    )
    .route(
        &format!("{p}/game/{{id}}/move/{{uci}}"),
        post(
            move |State(app): State<Arc<App>>,
                  headers: HeaderMap,
                  Path((id, uci)): Path<(String, String)>,
                  axum::extract::RawQuery(query): axum::extract::RawQuery| async move {
                let offering = query
                    .as_deref()
                    .unwrap_or("")
                    .split('&')
                    .any(|kv| kv == "offeringDraw=true");
                play_move(app, headers, kind, id, uci, offering).await
            },
        ),
    )
    .route(&format!("{p}/game/{{id}}/abort"), act("abort"))
    .route(&format!("{p}/game/{{id}}/resign"), act("resign"))
    .route(&format!("{p}/game/{{id}}/draw/yes"), act("draw/yes"))
    .route(&format!("{p}/game/{{id}}/draw/no"), act("draw/no"))
    .route(&format!("{p}/game/{{id}}/takeback/yes"), act("takeback/yes"))
    .route(&format!("{p}/game/{{id}}/takeback/no"), act("takeback/no"))
    .route(&format!("{p}/game/{{id}}/claim-victory"), act("claim-victory"))
    .route(&format!("{p}/game/{{id}}/claim-victory/"), act("claim-victory"))
    .route(
        &format!("{p}/game/{{id}}/chat"),
        post(
            move |State(app): State<Arc<App>>,
                  headers: HeaderMap,
                  Path(id): Path<String>,
                  body: Bytes| async move { chat(app, headers, kind, id, body).await },
        )
        .get(
            move |State(app): State<Arc<App>>, headers: HeaderMap, Path(id): Path<String>| async move {
                chat_history(app, headers, kind, id).await
            },
        ),
    )
}

/// The API's connection ids: above sockets' and below those a node gives other
/// nodes' sockets ([`crate::live::is_remote`]), so that neither ever meets
/// one of the others at a table.
static NEXT_CONN: AtomicU64 = AtomicU64::new(1 << 47);

/// A subscriber of a table as the API's own: a connection id of its own range
/// and a queue the API reads.
pub(super) fn api_conn(user: Option<UserInfo>) -> (Conn, mpsc::Receiver<Utf8Bytes>) {
    let (tx, rx) = mpsc::channel(256);
    (
        Conn {
            id: NEXT_CONN.fetch_add(1, Ordering::Relaxed),
            user,
            tx,
            // An HTTP client's round trip is not measured, so its moves are
            // charged without lag compensation.
            lag: Default::default(),
        },
        rx,
    )
}

/// A live table by game id: this node's, or with several nodes the local proxy
/// of the table's owner.
pub(super) async fn table(app: &Arc<App>, id: &str) -> Result<TableHandle> {
    app.table(id)
        .await
        .ok_or_else(|| Error::not_found("No such game"))
}

/// The table as a spectator sees it.
pub(super) async fn snapshot(handle: &TableHandle) -> Result<Value> {
    let (reply, rx) = oneshot::channel();
    handle
        .tx
        .send(TableMsg::Snapshot { reply })
        .await
        .map_err(|_| Error::not_found("No such game"))?;
    rx.await.map_err(|_| Error::not_found("No such game"))
}

pub(super) fn variant_of(app: &App, game: &str) -> Option<ApiVariant> {
    app.games.get(game).and_then(|g| g.api_variant)
}

/// Moves the ranks of a coordinate move (`h2e2`, `e7e8q`) by `offset`: the
/// game's canonical move to the API's (`up`) or back.
fn shift_ranks(mv: &str, offset: u8, up: bool) -> Option<String> {
    if offset == 0 {
        return Some(mv.to_string());
    }
    let b = mv.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    let mut squares = 0;
    while i < b.len() {
        if !b[i].is_ascii_lowercase() {
            return None;
        }
        out.push(b[i] as char);
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if start == i {
            // A promotion letter (chess), never shifted.
            continue;
        }
        let rank: i32 = mv.get(start..i)?.parse().ok()?;
        let rank = if up {
            rank + offset as i32
        } else {
            rank - offset as i32
        };
        if rank < 0 {
            return None;
        }
        out.push_str(&rank.to_string());
        squares += 1;
    }
    (squares == 2).then_some(out)
}

pub(super) fn to_api(mv: &str, v: &ApiVariant) -> String {
    shift_ranks(mv, v.rank_offset, true).unwrap_or_else(|| mv.to_string())
}

pub(super) fn from_api(mv: &str, v: &ApiVariant) -> Option<String> {
    shift_ranks(mv, v.rank_offset, false)
}

/// Lichess's status and winner of a finished game's outcome.
fn status_of(game: &Value) -> (&'static str, Option<&'static str>) {
    let Some(outcome) = game.get("outcome").filter(|o| !o.is_null()) else {
        return ("started", None);
    };
    let winner = outcome
        .get("results")
        .and_then(Value::as_array)
        .and_then(|r| r.iter().position(|x| x == "win"))
        .map(|i| if i == 0 { "white" } else { "black" });
    let reason = outcome.get("reason").and_then(Value::as_str).unwrap_or("");
    let status = match reason {
        "checkmate" => "mate",
        "stalemate" => "stalemate",
        "resignation" => "resign",
        "timeout" => "outoftime",
        "escape" => "timeout",
        "aborted" => "aborted",
        _ if winner.is_some() => "variantEnd",
        _ => "draw",
    };
    (status, winner)
}

const NO_CLOCK: i64 = 2_147_483_647;

/// Lichess's `gameState` of a table view's game.
pub(super) fn game_state(state: &Value, v: &ApiVariant) -> Value {
    let game = &state["game"];
    let moves: Vec<String> = game["moves"]
        .as_array()
        .map(|m| {
            m.iter()
                .filter_map(|m| m["action"].as_str())
                .map(|a| to_api(a, v))
                .collect()
        })
        .unwrap_or_default();
    let clock = &game["clock"];
    let timed = !matches!(
        clock["control"]["kind"].as_str(),
        Some("none") | Some("correspondence") | None
    );
    let time = |seat: usize| -> i64 {
        if timed {
            clock["seats"][seat]["main"].as_i64().unwrap_or(0)
        } else {
            NO_CLOCK
        }
    };
    let inc = clock["control"]["increment"].as_i64().unwrap_or(0);
    let (status, winner) = status_of(game);
    let offer = game["draw_offer"].as_u64();
    let takeback = game["takeback_request"].as_u64();
    let mut s = json!({
        "type": "gameState",
        "moves": moves.join(" "),
        "wtime": time(0),
        "btime": time(1),
        "winc": inc,
        "binc": inc,
        "status": status,
        "wdraw": offer == Some(0),
        "bdraw": offer == Some(1),
        "wtakeback": takeback == Some(0),
        "btakeback": takeback == Some(1),
    });
    if let Some(w) = winner {
        s["winner"] = json!(w);
    }
    s
}

/// A player as `gameFull` names them: an account (with its rating in the
/// game's pool, and `BOT` for bot accounts) or a built-in engine (`aiLevel`).
async fn player(app: &App, name: &str, game: &str, time: &Value) -> Value {
    if let Some(level) = name.strip_prefix("bot:") {
        let level = level.split('-').next().unwrap_or("");
        return match level.parse::<u32>() {
            Ok(n) => json!({"aiLevel": n}),
            Err(_) => json!({"aiLevel": 8, "name": level}),
        };
    }
    let Ok(Some(user)) = app.store.user_by_name(name).await else {
        return json!({"id": name.to_lowercase(), "name": name, "title": null});
    };
    let bot = app.store.is_bot(user.id).await.unwrap_or(false);
    let (rating, provisional) = rating_of(app, user.id, game, time).await;
    json!({
        "id": user.username.to_lowercase(),
        "name": user.username,
        "title": if bot { json!("BOT") } else { Value::Null },
        "rating": rating,
        "provisional": provisional,
    })
}

/// A user's rating (rounded) in the pool a game and time control count in.
pub(super) async fn rating_of(app: &App, user: i64, game: &str, time: &Value) -> (i64, bool) {
    let pool = match (
        app.games.get(game),
        serde_json::from_value::<qiyuan_table::TimeControl>(time.clone()),
    ) {
        (Some(g), Ok(t)) => g.pool(t.speed()),
        _ => game.to_string(),
    };
    match app.store.rating(user, &pool).await {
        Ok(Some(r)) => (
            r.rating.round() as i64,
            r.deviation > qiyuan_rating::PROVISIONAL_DEVIATION,
        ),
        _ => (1500, true),
    }
}

/// Lichess's speed name of a time control.
pub(super) fn speed_of(time: &Value) -> &'static str {
    serde_json::from_value::<qiyuan_table::TimeControl>(time.clone())
        .map(|t| t.speed().as_str())
        .map(|s| if s == "ultrabullet" { "ultraBullet" } else { s })
        .unwrap_or("unlimited")
}

pub(super) fn clock_json(time: &Value) -> Value {
    match time["kind"].as_str() {
        Some("fischer") => json!({"initial": time["base"], "increment": time["increment"]}),
        _ => Value::Null,
    }
}

/// Capitalised, as Lichess's `perf.name`.
fn perf_name(speed: &str) -> String {
    let mut c = speed.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// Lichess's `gameFull` of a table's view.
async fn game_full(app: &App, id: &str, state: &Value, v: &ApiVariant) -> Value {
    let game = &state["game"];
    let game_name = state["game_name"].as_str().unwrap_or("");
    let time = &game["settings"]["time"];
    let players: Vec<String> = game["players"]
        .as_array()
        .map(|p| {
            p.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    let white = player(app, players.first().map_or("", |s| s), game_name, time).await;
    let black = player(app, players.get(1).map_or("", |s| s), game_name, time).await;
    let speed = speed_of(time);
    let mut full = json!({
        "type": "gameFull",
        "id": id,
        "variant": {"key": v.key, "name": v.name, "short": v.short},
        "speed": speed,
        "perf": {"name": perf_name(speed)},
        "rated": game["rated"],
        "createdAt": state["at"],
        "white": white,
        "black": black,
        "initialFen": game["board"]["start_fen"].as_str().unwrap_or("startpos"),
        "state": game_state(state, v),
    });
    let clock = clock_json(time);
    if !clock.is_null() {
        full["clock"] = clock;
    } else if time["kind"] == "correspondence" {
        full["daysPerTurn"] = time["days"].clone();
    }
    full
}

/// What a `gameState` line is sent for: the moves, the status and winner, and
/// the offers (the clocks alone change with every view).
fn change_key(state: &Value) -> Value {
    json!([
        state["moves"],
        state["status"],
        state["winner"],
        state["wdraw"],
        state["bdraw"],
        state["wtakeback"],
        state["btakeback"]
    ])
}

/// The seat `name` plays at in a view, if any.
pub(super) fn seat_of(state: &Value, name: &str) -> Option<usize> {
    state["game"]["players"]
        .as_array()?
        .iter()
        .position(|p| p.as_str() == Some(name))
}

/// A player's request about one of their games: the caller (allowed by the
/// endpoint's `kind`), the table, its view now and the caller's seat there;
/// "No such game" for a table they do not play at.
async fn seated(
    app: &Arc<App>,
    headers: &HeaderMap,
    kind: Kind,
    id: &str,
) -> Result<(Caller, TableHandle, Value, usize)> {
    let caller = caller(app, headers).await?;
    kind.check(&caller)?;
    let handle = table(app, id).await?;
    let view = snapshot(&handle).await?;
    let seat =
        seat_of(&view, &caller.user.username).ok_or_else(|| Error::not_found("No such game"))?;
    Ok((caller, handle, view, seat))
}

async fn game_stream(
    app: Arc<App>,
    headers: HeaderMap,
    kind: Kind,
    id: String,
) -> Result<Response> {
    let (caller, handle, view, _) = seated(&app, &headers, kind, &id).await?;
    let variant = variant_of(&app, handle.game).ok_or_else(|| Error::not_found("No such game"))?;
    if view["game"].is_null() {
        return Err(Error::not_found("No such game"));
    }
    Ok(ndjson(move |lines| async move {
        follow(app, caller, handle, variant, lines).await
    }))
}

/// The stream of one game for one of its players.
async fn follow(app: Arc<App>, caller: Caller, handle: TableHandle, v: ApiVariant, lines: Lines) {
    let me = caller.user.username.clone();
    let (conn, mut rx) = api_conn(Some(caller.info()));
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
        return;
    }
    let mut chat = app.lichess.chat_feed();
    let every = keepalive(&app);
    let mut beat = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
    let revoked = until_revoked(&app, &caller.token_hash);
    tokio::pin!(revoked);
    let mut last: Option<Value> = None;
    let mut game_number = None;
    let mut follower = crate::protocol::patch::Follower::default();
    loop {
        tokio::select! {
            msg = rx.recv() => {
                let Some(text) = msg else { break };
                let Ok(msg) = serde_json::from_str::<Value>(text.as_str()) else { continue };
                let t = msg["t"].as_str().unwrap_or("");
                let Some(state) = follower.feed(&msg) else { continue };
                let state = &state.clone();
                if state["game"].is_null() {
                    continue;
                }
                let number = state["game"]["number"].as_u64();
                let mine = seat_of(state, &me);
                let line = if last.is_none() || game_number != number {
                    game_number = number;
                    game_full(&app, &handle.id, state, &v).await
                } else {
                    game_state(state, &v)
                };
                if t == "event" {
                    for e in msg["d"]["events"].as_array().into_iter().flatten() {
                        let seat = e["seat"].as_u64().map(|s| s as usize);
                        if seat.is_none() || seat == mine {
                            continue;
                        }
                        let gone = match e["type"].as_str() {
                            Some("disconnected") => {
                                let left = e["deadline"].as_i64().map(|d| ((d - crate::now_ms()) / 1000).max(0));
                                json!({"type": "opponentGone", "gone": true, "claimWinInSeconds": left})
                            }
                            Some("reconnected") => json!({"type": "opponentGone", "gone": false}),
                            _ => continue,
                        };
                        if !lines.send(&gone).await {
                            break;
                        }
                    }
                }
                // A new gameState only when something a client reads changed
                // (spectators coming and going change nothing of it).
                let key = change_key(if line["type"] == "gameFull" { &line["state"] } else { &line });
                let changed = line["type"] == "gameFull" || last.as_ref() != Some(&key);
                if changed {
                    if !lines.send(&line).await {
                        break;
                    }
                    last = Some(key);
                }
                if state["game"]["outcome"].is_object() {
                    break;
                }
            }
            said = chat.recv() => {
                if let Ok((table, line)) = said
                    && table == handle.id
                    && !lines.send(&line).await
                {
                    break;
                }
            }
            _ = beat.tick() => {
                if !lines.keepalive().await {
                    break;
                }
            }
            _ = &mut revoked => break,
            _ = lines.closed() => break,
        }
    }
    let _ = handle.tx.send(TableMsg::Closed { conn: conn_id }).await;
}

/// Sends `act` to the table for `caller` as a socket's command, waits for the
/// table's answer, and unsubscribes the one-off connection again.
pub(super) async fn act(handle: &TableHandle, caller: &Caller, act: TableAct) -> Result<()> {
    let (conn, mut rx) = api_conn(Some(caller.info()));
    let conn_id = conn.id;
    handle
        .tx
        .send(TableMsg::Act {
            conn,
            act,
            req: Some(json!("api")),
            expect_seat: None,
        })
        .await
        .map_err(|_| Error::not_found("No such game"))?;
    let answer = tokio::time::timeout(Duration::from_secs(30), async {
        while let Some(text) = rx.recv().await {
            let Ok(msg) = serde_json::from_str::<Value>(text.as_str()) else {
                continue;
            };
            if msg["id"] != "api" {
                continue;
            }
            return match msg["t"].as_str() {
                Some("ack") => Ok(()),
                _ => Err(Error::bad(
                    msg["d"]["message"]
                        .as_str()
                        .unwrap_or("refused")
                        .to_string(),
                )),
            };
        }
        Err(Error::not_found("No such game"))
    })
    .await
    .unwrap_or_else(|_| Err(Error::internal("the table did not answer")));
    // The one-off connection is gone (with several nodes, both nodes forget it).
    let _ = handle.tx.send(TableMsg::Closed { conn: conn_id }).await;
    answer
}

async fn play_move(
    app: Arc<App>,
    headers: HeaderMap,
    kind: Kind,
    id: String,
    uci: String,
    offering_draw: bool,
) -> Result<Response> {
    let caller = caller(&app, &headers).await?;
    kind.check(&caller)?;
    let handle = table(&app, &id).await?;
    let v = variant_of(&app, handle.game).ok_or_else(|| Error::not_found("No such game"))?;
    let action = from_api(&uci, &v).ok_or_else(|| Error::bad(format!("Invalid UCI move {uci}")))?;
    act(&handle, &caller, TableAct::Move { action, lag: None }).await?;
    // `?offeringDraw=true`: the move and a draw offer with it (an offer the
    // table refuses, the game having ended with the move, is dropped).
    if offering_draw {
        let _ = act(&handle, &caller, TableAct::DrawOffer).await;
    }
    Ok(ok())
}

async fn command(
    app: Arc<App>,
    headers: HeaderMap,
    kind: Kind,
    id: String,
    what: &'static str,
) -> Result<Response> {
    let (caller, handle, view, me) = seated(&app, &headers, kind, &id).await?;
    let game = &view["game"];
    let theirs = |field: &str| game[field].as_u64().is_some_and(|s| s as usize != me);
    let a = match what {
        "abort" => TableAct::Abort,
        "resign" => TableAct::Resign,
        "draw/yes" if theirs("draw_offer") => TableAct::DrawAccept,
        "draw/yes" => TableAct::DrawOffer,
        "draw/no" if theirs("draw_offer") => TableAct::DrawDecline,
        "takeback/yes" if theirs("takeback_request") => TableAct::TakebackAccept,
        "takeback/yes" => TableAct::TakebackRequest,
        "takeback/no" if theirs("takeback_request") => TableAct::TakebackDecline,
        "draw/no" | "takeback/no" => return Ok(ok()),
        "claim-victory" => {
            // The table itself ends a game whose player stayed away past the
            // grace time (reason `escape`); claiming only confirms it.
            let (status, winner) = status_of(game);
            let mine = if me == 0 { "white" } else { "black" };
            return if status == "timeout" && winner == Some(mine) {
                Ok(ok())
            } else {
                Err(Error::bad("You cannot claim the win now"))
            };
        }
        _ => return Err(Error::not_found("No such command")),
    };
    act(&handle, &caller, a).await?;
    Ok(ok())
}

async fn chat(
    app: Arc<App>,
    headers: HeaderMap,
    kind: Kind,
    id: String,
    body: Bytes,
) -> Result<Response> {
    let (caller, handle, _, _) = seated(&app, &headers, kind, &id).await?;
    // A muted account's lines reach nobody: refused, so that its client knows.
    if crate::authority::is_muted(&*app.store, caller.user.id).await? {
        return Err(Error::forbidden(
            "This account is muted: its chat is not delivered",
        ));
    }
    let f = form(&headers, &body)?;
    let room = f.get("room").map(String::as_str).unwrap_or("player");
    if room != "player" && room != "spectator" {
        return Err(Error::bad("room: player or spectator"));
    }
    let text = f.get("text").map(|t| t.trim()).unwrap_or("");
    if text.is_empty() || text.chars().count() > 140 {
        return Err(Error::bad("text: 1 to 140 characters"));
    }
    super::hub::chat(
        &app,
        &handle.id,
        json!({"type": "chatLine", "room": room, "username": caller.user.username, "text": text}),
    )
    .await;
    Ok(ok())
}

/// `GET /api/{board,bot}/game/{id}/chat`: the players' chat of a game, for
/// its players only ("No such game" to anyone else, as every command here).
/// There is no spectators' room to read: a spectator reads nothing.
async fn chat_history(
    app: Arc<App>,
    headers: HeaderMap,
    kind: Kind,
    id: String,
) -> Result<Response> {
    seated(&app, &headers, kind, &id).await?;
    let lines: Vec<Value> = super::hub::chat_of(&app, &id)
        .await
        .into_iter()
        .filter(|l| l["room"] == "player")
        .map(|l| json!({"user": l["username"], "text": l["text"]}))
        .collect();
    Ok(axum::Json(lines).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_move_by_the_offset() {
        assert_eq!(shift_ranks("h2e2", 1, true).as_deref(), Some("h3e3"));
        assert_eq!(shift_ranks("b9c7", 1, true).as_deref(), Some("b10c8"));
        assert_eq!(shift_ranks("b10c8", 1, false).as_deref(), Some("b9c7"));
        assert_eq!(shift_ranks("e7e8q", 0, false).as_deref(), Some("e7e8q"));
        assert_eq!(shift_ranks("a0a1", 1, false), None);
        assert_eq!(shift_ranks("zz", 1, false), None);
        assert_eq!(shift_ranks("h3", 1, false), None);
    }
}
