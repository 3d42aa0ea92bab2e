//! Accounts and records as Lichess shows them: `GET /api/account`, `GET
//! /api/user/{name}` (Lichess's fields beside the ones qiyuan's own client
//! reads), `GET /game/export/{id}` (the game's PGN record) and `GET
//! /api/games/user/{name}` (NDJSON, or PGN by `Accept`).

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use qiyuan_store::{GameRow, User};
use serde_json::{Map, Value, json};

use super::stream::{Error, Result};
use super::tokens::caller;
use crate::App;

/// Lichess's `perfs` of a user's ratings: a pool `chess:blitz` is `blitz`, a
/// game's single pool its name.
async fn perfs(app: &App, user: i64) -> Result<Value> {
    let mut perfs = Map::new();
    for r in app.store.ratings(user).await? {
        let key = r.pool.rsplit(':').next().unwrap_or(&r.pool).to_string();
        perfs.insert(
            key,
            json!({"games": r.games, "rating": r.rating.round() as i64,
                   "rd": r.deviation.round() as i64, "prog": 0,
                   "prov": r.deviation > qiyuan_rating::PROVISIONAL_DEVIATION}),
        );
    }
    Ok(Value::Object(perfs))
}

async fn lichess_user(app: &App, user: &User) -> Result<Map<String, Value>> {
    let mut m = Map::new();
    m.insert("id".into(), json!(user.username.to_lowercase()));
    m.insert("username".into(), json!(user.username));
    m.insert("perfs".into(), perfs(app, user.id).await?);
    m.insert("createdAt".into(), json!(user.created_at));
    m.insert("seenAt".into(), json!(crate::now_ms()));
    m.insert("url".into(), json!(format!("/@/{}", user.username)));
    m.insert("playTime".into(), json!({"total": 0, "tv": 0}));
    if app.store.is_bot(user.id).await? {
        m.insert("title".into(), json!("BOT"));
    }
    let games = app.store.count_games_of_user(user.id).await?;
    m.insert("count".into(), json!({"all": games}));
    Ok(m)
}

/// `GET /api/account`.
pub async fn account(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<Response> {
    let caller = caller(&app, &headers).await?;
    let m = lichess_user(&app, &caller.user).await?;
    Ok(axum::Json(Value::Object(m)).into_response())
}

/// `GET /api/account/preferences` (`preference:read`): the preferences a
/// client may follow. qiyuan keeps a player's display settings in their
/// browser, so these are the server's own: Lichess's defaults where it has no
/// choice of its own.
pub async fn preferences(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<Response> {
    let caller = caller(&app, &headers).await?;
    caller.require("preference:read")?;
    Ok(axum::Json(json!({
        "prefs": {"autoQueen": 2, "autoThreefold": 3, "takeback": 3, "moretime": 0,
                  "clockTenths": 1, "premove": true, "confirmResign": 1, "submitMove": 0},
        "language": "zh-CN",
    }))
    .into_response())
}

/// `GET /api/user/{name}`: qiyuan's profile (`user`, `created_at`, `ratings`,
/// `games`, points) and Lichess's fields (`id`, `username`, `perfs`, …) side by
/// side: the names do not clash.
pub async fn user(State(app): State<Arc<App>>, Path(name): Path<String>) -> Response {
    let profile = match crate::accounts::profile(State(app.clone()), Path(name.clone())).await {
        Ok(p) => p.0,
        Err(e) => return e.into_response(),
    };
    let Ok(Value::Object(mut out)) = serde_json::to_value(&profile) else {
        return Error::internal("profile").into_response();
    };
    let user = match app
        .store
        .user_by_name(&crate::auth::normalize_username(&name))
        .await
    {
        Ok(Some(u)) => u,
        // A computer player has qiyuan's profile and no Lichess account.
        Ok(None) => return axum::Json(Value::Object(out)).into_response(),
        Err(e) => return Error::from(e).into_response(),
    };
    match lichess_user(&app, &user).await {
        Ok(m) => {
            for (k, v) in m {
                out.entry(k).or_insert(v);
            }
            axum::Json(Value::Object(out)).into_response()
        }
        Err(e) => e.into_response(),
    }
}

/// The record of game `id` (a table id: its first game; `{table}-{n}`: its
/// n-th), as `GET /game/{id}.pgn` serves it.
async fn record(app: &Arc<App>, id: &str) -> Result<(String, Response)> {
    let game = match app.store.game(id).await? {
        Some(row) => row.game,
        None => {
            let table = id.split('-').next().unwrap_or(id);
            app.tables
                .get(table)
                .map(|h| h.game.to_string())
                .ok_or_else(|| Error::not_found("No such game"))?
        }
    };
    let desc = app
        .games
        .get(&game)
        .filter(|g| g.api_variant.is_some())
        .ok_or_else(|| Error::not_found("No such game"))?;
    let file = format!("{id}.{}", desc.record.extension);
    let r = crate::api::record(State(app.clone()), Path(file))
        .await
        .map_err(Error::from)?;
    Ok((game, r))
}

/// `GET /game/export/{id}`: the PGN (Lichess's default), or with `Accept:
/// application/json` the game as `GET /api/games/user` lists it.
pub async fn game(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response> {
    let wants_json = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("application/json"));
    if wants_json {
        let row = app
            .store
            .game(&id)
            .await?
            .ok_or_else(|| Error::not_found("No such game"))?;
        return Ok(axum::Json(game_json(&app, &row)).into_response());
    }
    Ok(record(&app, &id).await?.1)
}

/// A stored game as Lichess's game JSON (players, status, winner; the moves
/// are in `pgn`).
fn game_json(app: &App, row: &GameRow) -> Value {
    let settings: Value = serde_json::from_str(&row.settings).unwrap_or(Value::Null);
    let result: Value = row
        .result
        .as_deref()
        .and_then(|r| serde_json::from_str(r).ok())
        .unwrap_or(Value::Null);
    let variant = app.games.get(&row.game).and_then(|g| g.api_variant);
    let mut players = Map::new();
    for p in &row.players {
        let side = if p.seat == 0 { "white" } else { "black" };
        players.insert(
            side.into(),
            json!({"user": {"name": p.name, "id": p.name.to_lowercase()},
                   "rating": p.rating, "ratingDiff": p.rating_diff}),
        );
    }
    let winner = result["results"]
        .as_array()
        .and_then(|r| r.iter().position(|x| x == "win"))
        .map(|i| if i == 0 { "white" } else { "black" });
    let mut j = json!({
        "id": row.id,
        "rated": row.rated,
        "variant": variant.map(|v| v.key),
        "speed": super::games::speed_of(&settings["time"]),
        "createdAt": row.started_at,
        "lastMoveAt": row.ended_at.unwrap_or(row.started_at),
        "status": match row.status { qiyuan_store::GameStatus::Live => "started", _ => result["reason"].as_str().unwrap_or("unknownFinish") },
        "players": players,
        "pgn": row.record,
    });
    if let Some(w) = winner {
        j["winner"] = json!(w);
    }
    j
}

/// `GET /api/games/user/{name}`: the user's games, newest first (`max`,
/// default all, at most 1000), as PGN (Lichess's default) or NDJSON (`Accept:
/// application/x-ndjson`).
pub async fn games_of_user(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(name): Path<String>,
    axum::extract::RawQuery(query): axum::extract::RawQuery,
) -> Result<Response> {
    let user = app
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
    let rows: Vec<GameRow> = app
        .store
        .games_of_user(user.id, max)
        .await?
        .into_iter()
        .filter(|g| {
            app.games
                .get(&g.game)
                .is_some_and(|d| d.api_variant.is_some())
        })
        .collect();
    let ndjson = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("ndjson"));
    if ndjson {
        let mut text = String::new();
        for row in &rows {
            text.push_str(&game_json(&app, row).to_string());
            text.push('\n');
        }
        return Ok(([(header::CONTENT_TYPE, "application/x-ndjson")], text).into_response());
    }
    let mut text = String::new();
    for row in &rows {
        if let Some(pgn) = &row.record {
            text.push_str(pgn.trim_end());
            text.push_str("\n\n\n");
        }
    }
    Ok(([(header::CONTENT_TYPE, "application/x-chess-pgn")], text).into_response())
}
