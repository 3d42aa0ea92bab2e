//! Accounts and records as Lichess shows them: `GET /api/account`, `GET
//! /api/user/{name}` (Lichess's fields beside the ones qiyuan's own client
//! reads), `GET /game/export/{id}` (the game's PGN record) and `GET
//! /api/games/user/{name}` (NDJSON, or PGN by `Accept`).

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use qiyuan_game::SeatResult;
use qiyuan_store::{GameRow, Store, User};
use qiyuan_table::TimeControl;
use serde::{Deserialize, Serialize};

use super::Api;
use super::state::{color, speed_of, status_name};
use super::stream::{Error, Result};
use crate::registry::Games;

/// A user's rating in one of Lichess's `perfs`.
#[derive(Debug, Serialize)]
struct PerfJson {
    games: i64,
    rating: i64,
    rd: i64,
    prog: i64,
    prov: bool,
}

/// What Lichess counts of a user's games.
#[derive(Debug, Serialize)]
struct Count {
    all: i64,
}

/// Lichess's play time (not kept here).
#[derive(Debug, Serialize)]
struct PlayTime {
    total: u64,
    tv: u64,
}

/// Lichess's `User` (the fields a client reads).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct LichessUser {
    id: String,
    username: String,
    /// By pool: a pool `chess:blitz` is `blitz`, a game's single pool its name.
    perfs: BTreeMap<String, PerfJson>,
    created_at: i64,
    seen_at: i64,
    url: String,
    play_time: PlayTime,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'static str>,
    count: Count,
}

impl LichessUser {
    pub(super) async fn of(store: &dyn Store, user: &User) -> Result<Self> {
        let mut perfs = BTreeMap::new();
        for r in store.ratings(user.id).await? {
            let key = r.pool.rsplit(':').next().unwrap_or(&r.pool).to_string();
            let perf = PerfJson {
                games: r.games,
                rating: r.rating.round() as i64,
                rd: r.deviation.round() as i64,
                prog: 0,
                prov: r.deviation > qiyuan_rating::PROVISIONAL_DEVIATION,
            };
            perfs.insert(key, perf);
        }
        let bot = store.is_bot(user.id).await?;
        let games = store.count_games_of_user(user.id).await?;
        Ok(LichessUser {
            id: user.username.to_lowercase(),
            username: user.username.clone(),
            perfs,
            created_at: user.created_at,
            seen_at: crate::now_ms(),
            url: format!("/@/{}", user.username),
            play_time: PlayTime { total: 0, tv: 0 },
            title: bot.then_some("BOT"),
            count: Count { all: games },
        })
    }
}

/// `GET /api/account`.
pub async fn account(State(api): State<Arc<Api>>, headers: HeaderMap) -> Result<Response> {
    let caller = api.caller(&headers).await?;
    let user = LichessUser::of(&*api.store, &caller.user).await?;
    Ok(axum::Json(user).into_response())
}

/// Lichess's preferences a client may follow.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Prefs {
    auto_queen: u8,
    auto_threefold: u8,
    takeback: u8,
    moretime: u8,
    clock_tenths: u8,
    premove: bool,
    confirm_resign: u8,
    submit_move: u8,
}

/// `GET /api/account/preferences`'s answer.
#[derive(Debug, Serialize)]
struct Preferences {
    prefs: Prefs,
    language: &'static str,
}

/// `GET /api/account/preferences` (`preference:read`): the preferences a
/// client may follow. qiyuan keeps a player's display settings in their
/// browser, so these are the server's own: Lichess's defaults where it has no
/// choice of its own.
pub async fn preferences(State(api): State<Arc<Api>>, headers: HeaderMap) -> Result<Response> {
    let caller = api.caller(&headers).await?;
    caller.require("preference:read")?;
    Ok(axum::Json(Preferences {
        prefs: Prefs {
            auto_queen: 2,
            auto_threefold: 3,
            takeback: 3,
            moretime: 0,
            clock_tenths: 1,
            premove: true,
            confirm_resign: 1,
            submit_move: 0,
        },
        language: "zh-CN",
    })
    .into_response())
}

/// A user as `GET /api/user/{name}` shows them: qiyuan's profile beside
/// Lichess's fields (the names do not clash).
#[derive(Debug, Serialize)]
struct UserReply {
    #[serde(flatten)]
    profile: crate::accounts::Profile,
    #[serde(flatten)]
    lichess: Option<LichessUser>,
}

/// `GET /api/user/{name}`: qiyuan's profile (`user`, `created_at`, `ratings`,
/// `games`, points) and Lichess's fields (`id`, `username`, `perfs`, …) side by
/// side.
pub async fn user(State(api): State<Arc<Api>>, Path(name): Path<String>) -> Response {
    let profile = match crate::accounts::profile(&*api.store, &api.games, name.clone()).await {
        Ok(p) => p,
        Err(e) => return e.into_response(),
    };
    let user = match api
        .store
        .user_by_name(&crate::auth::normalize_username(&name))
        .await
    {
        Ok(Some(u)) => u,
        // A computer player has qiyuan's profile and no Lichess account.
        Ok(None) => {
            let lichess = None;
            return axum::Json(UserReply { profile, lichess }).into_response();
        }
        Err(e) => return Error::from(e).into_response(),
    };
    match LichessUser::of(&*api.store, &user).await {
        Ok(lichess) => {
            let lichess = Some(lichess);
            axum::Json(UserReply { profile, lichess }).into_response()
        }
        Err(e) => e.into_response(),
    }
}

/// The record of game `id` (a table id: its first game; `{table}-{n}`: its
/// n-th), as `GET /game/{id}.pgn` serves it.
async fn record(api: &Arc<Api>, id: &str) -> Result<(String, Response)> {
    let game = match api.store.game(id).await? {
        Some(row) => row.game,
        None => {
            let table = id.split('-').next().unwrap_or(id);
            api.live
                .tables
                .get(table)
                .map(|h| h.game.to_string())
                .ok_or_else(|| Error::not_found("No such game"))?
        }
    };
    let desc = api
        .games
        .get(&game)
        .filter(|g| g.api_variant.is_some())
        .ok_or_else(|| Error::not_found("No such game"))?;
    let file = format!("{id}.{}", desc.record.extension);
    let r = crate::api::record_of(&*api.store, &api.games, &api.tables, &file)
        .await
        .map_err(Error::from)?;
    Ok((game, r))
}

/// `GET /game/export/{id}`: the PGN (Lichess's default), or with `Accept:
/// application/json` the game as `GET /api/games/user` lists it.
pub async fn game(
    State(api): State<Arc<Api>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response> {
    let wants_json = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("application/json"));
    if wants_json {
        let row = api
            .store
            .game(&id)
            .await?
            .ok_or_else(|| Error::not_found("No such game"))?;
        let result = result_of(&row);
        return Ok(axum::Json(GameJson::of(&api.games, &row, &result)).into_response());
    }
    Ok(record(&api, &id).await?.1)
}

/// A stored game as `GET /game/export/{id}` serves it: its PGN, or with
/// `Accept: application/json` its JSON.
pub(super) async fn game_reply(
    api: &Arc<Api>,
    headers: &HeaderMap,
    row: &GameRow,
) -> Result<Response> {
    if accepts(headers, "application/json") {
        let result = result_of(row);
        return Ok(axum::Json(GameJson::of(&api.games, row, &result)).into_response());
    }
    Ok(record(api, &row.id).await?.1)
}

/// Whether a request's `Accept` names `what`.
fn accepts(headers: &HeaderMap, what: &str) -> bool {
    headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains(what))
}

/// The most games `POST /api/games/export/_ids` exports at once (Lichess's).
const MAX_EXPORT_IDS: usize = 300;

/// `POST /api/games/export/_ids`: the games of a comma-separated list of ids
/// (the body, plain text; at most 300), in the list's order, as PGN one after
/// another (Lichess's default) or with `Accept: application/x-ndjson` one
/// game per line as `GET /api/games/user` lists them. Unknown ids, games that
/// are not chess or xiangqi and private games (单机) of anyone but the caller
/// are left out; games in progress too (as Lichess, which exports finished
/// games only here).
pub async fn games_by_ids(
    State(api): State<Arc<Api>>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Response> {
    let text = std::str::from_utf8(&body).map_err(|_| Error::bad("ids: UTF-8 text"))?;
    let ids: Vec<&str> = text
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    if ids.len() > MAX_EXPORT_IDS {
        return Err(Error::bad(format!("At most {MAX_EXPORT_IDS} ids at once")));
    }
    let mut rows: Vec<GameRow> = Vec::new();
    for id in ids {
        if id.len() > 40 || rows.iter().any(|r| r.id == id) {
            continue;
        }
        let Some(row) = api.store.game(id).await? else {
            continue;
        };
        let hosted = api
            .games
            .get(&row.game)
            .is_some_and(|d| d.api_variant.is_some());
        if !hosted || row.status != qiyuan_store::GameStatus::Finished {
            continue;
        }
        let params = std::collections::HashMap::from([("id".to_string(), id.to_string())]);
        if crate::solo::check_owner(&*api.store, None, &params, &headers)
            .await
            .is_err()
        {
            continue;
        }
        rows.push(row);
    }
    games_reply(&api, &headers, &rows)
}

/// Stored games one after another: NDJSON by `Accept`, else PGN.
fn games_reply(api: &Api, headers: &HeaderMap, rows: &[GameRow]) -> Result<Response> {
    if accepts(headers, "ndjson") {
        let mut text = String::new();
        for row in rows {
            let result = result_of(row);
            let json = serde_json::to_string(&GameJson::of(&api.games, row, &result))
                .map_err(Error::internal)?;
            text.push_str(&json);
            text.push('\n');
        }
        return Ok(([(header::CONTENT_TYPE, "application/x-ndjson")], text).into_response());
    }
    let mut text = String::new();
    for row in rows {
        if let Some(pgn) = &row.record {
            text.push_str(pgn.trim_end());
            text.push_str("\n\n\n");
        }
    }
    Ok(([(header::CONTENT_TYPE, "application/x-chess-pgn")], text).into_response())
}

/// What a stored game's settings say of its clock.
#[derive(Deserialize)]
pub(super) struct StoredSettings {
    pub(super) time: TimeControl,
}

/// What a stored game's result says.
#[derive(Deserialize)]
struct StoredResult {
    #[serde(default)]
    results: Vec<SeatResult>,
    /// The end's reason, as the outcome names it (`checkmate`, `resignation`, …).
    reason: Option<String>,
}

/// An account in a stored game.
#[derive(Debug, Serialize)]
struct LightUser {
    name: String,
    id: String,
}

/// A player of a stored game.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct GamePlayerJson {
    user: LightUser,
    rating: Option<i64>,
    rating_diff: Option<i64>,
}

/// Lichess's game JSON of a stored game (players, status, winner; the moves
/// are in `pgn`).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct GameJson<'a> {
    id: &'a str,
    rated: bool,
    variant: Option<&'static str>,
    speed: &'static str,
    created_at: i64,
    last_move_at: i64,
    status: &'a str,
    /// By side: `white`, `black`.
    players: BTreeMap<&'static str, GamePlayerJson>,
    pgn: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    winner: Option<&'static str>,
}

impl<'a> GameJson<'a> {
    fn of(games: &Games, row: &'a GameRow, result: &'a Option<StoredResult>) -> Self {
        let speed = serde_json::from_str::<StoredSettings>(&row.settings)
            .map_or("unlimited", |s| speed_of(&s.time));
        let players = row
            .players
            .iter()
            .map(|p| {
                let player = GamePlayerJson {
                    user: LightUser {
                        name: p.name.clone(),
                        id: p.name.to_lowercase(),
                    },
                    rating: p.rating,
                    rating_diff: p.rating_diff,
                };
                (color(p.seat as usize), player)
            })
            .collect();
        let winner = result
            .as_ref()
            .and_then(|r| r.results.iter().position(|x| *x == SeatResult::Win))
            .map(color);
        // Lichess's status of the stored end (`mate`, `draw`, …).
        let status = match row.status {
            qiyuan_store::GameStatus::Live => "started",
            _ => result
                .as_ref()
                .and_then(|r| r.reason.as_deref())
                .and_then(|r| serde_json::from_value::<qiyuan_game::EndReason>(r.into()).ok())
                .map_or("unknownFinish", |r| status_name(r, winner.is_some())),
        };
        GameJson {
            id: &row.id,
            rated: row.rated,
            variant: games
                .get(&row.game)
                .and_then(|g| g.api_variant)
                .map(|v| v.key),
            speed,
            created_at: row.started_at,
            last_move_at: row.ended_at.unwrap_or(row.started_at),
            status,
            players,
            pgn: row.record.as_deref(),
            winner,
        }
    }
}

/// A stored game's result, read.
fn result_of(row: &GameRow) -> Option<StoredResult> {
    row.result
        .as_deref()
        .and_then(|r| serde_json::from_str(r).ok())
}

/// `GET /api/games/user/{name}`: the user's games, newest first (`max`,
/// default all, at most 1000), as PGN (Lichess's default) or NDJSON (`Accept:
/// application/x-ndjson`).
pub async fn games_of_user(
    State(api): State<Arc<Api>>,
    headers: HeaderMap,
    Path(name): Path<String>,
    axum::extract::RawQuery(query): axum::extract::RawQuery,
) -> Result<Response> {
    let user = api
        .store
        .user_by_name(&crate::auth::normalize_username(&name))
        .await?
        .ok_or_else(|| Error::not_found("No such user"))?;
    let max = query
        .as_deref()
        .unwrap_or("")
        .split('&')
        .find_map(|kv| kv.strip_prefix("max="))
        .and_then(|n| n.parse::<i64>().ok())
        .unwrap_or(1000)
        .clamp(1, 1000);
    let rows: Vec<GameRow> = api
        .store
        .games_of_user(user.id, max)
        .await?
        .into_iter()
        .filter(|g| {
            api.games
                .get(&g.game)
                .is_some_and(|d| d.api_variant.is_some())
        })
        .collect();
    games_reply(&api, &headers, &rows)
}
