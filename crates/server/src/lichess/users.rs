//! People as Lichess's lookups show them: who is online and playing (`GET
//! /api/users/status`), accounts by id (`POST /api/users`), the bots online
//! (`GET /api/bot/online`), a user's rating history and current game, and the
//! caller's e-mail and kid mode (`GET /api/account/email`, `/kid`).

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use qiyuan_store::{GameRow, GameStatus, User};
use serde::Serialize;

use super::Api;
use super::export::{LichessUser, game_reply};
use super::stream::{Error, Result, query};
use crate::App;
use crate::protocol::relations::Presence;

/// The most ids one request may name (Lichess's cap for both lookups).
const MAX_IDS: usize = 300;

/// The users named by a comma-separated list of ids (usernames, any case),
/// those that exist, in the list's order, each once.
async fn users_named(api: &Api, ids: &str) -> Result<Vec<User>> {
    let names: Vec<&str> = ids
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    if names.len() > MAX_IDS {
        return Err(Error::bad(format!("At most {MAX_IDS} ids at once")));
    }
    let mut out: Vec<User> = Vec::new();
    for name in names {
        if name.len() > 64 {
            continue;
        }
        let key = crate::auth::normalize_username(name);
        if let Some(user) = api.store.user_by_name(&key).await?
            && !user.guest
            && !out.iter().any(|u| u.id == user.id)
        {
            out.push(user);
        }
    }
    Ok(out)
}

/// One user in `GET /api/users/status`: Lichess leaves `online` and
/// `playing` out when false.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Status {
    id: String,
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'static str>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    online: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    playing: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    playing_id: Option<String>,
}

/// Where `user` is, on this node: online (an event stream open, or a page of
/// the hall) and the API game they play, if any.
fn whereabouts(app: &App, user: &User) -> (bool, Option<String>) {
    let hub = &app.api.hub;
    let presence = crate::relations_of(app).presence_of(&[(user.id, user.username.as_str())]);
    let presence = presence.into_iter().next().unwrap_or(Presence::Offline);
    let api_game = hub.playing_of(user.id).into_iter().next();
    let playing = match presence {
        Presence::Playing { ref table } => Some(table.clone()),
        _ => api_game,
    };
    let online = hub.listening(user.id) || presence != Presence::Offline || playing.is_some();
    (online, playing)
}

/// `GET /api/users/status?ids=a,b[&withGameIds=true]`: who is online and who
/// plays, of the named users (unknown names left out); no authentication.
pub async fn status(State(app): State<Arc<App>>, RawQuery(raw): RawQuery) -> Result<Response> {
    let q = query(raw.as_deref())?;
    let ids = q
        .get("ids")
        .ok_or_else(|| Error::bad("ids: a comma-separated list of user ids"))?;
    let with_games = q
        .get("withGameIds")
        .is_some_and(|v| v.eq_ignore_ascii_case("true"));
    let api = &app.api;
    let mut out = Vec::new();
    for user in users_named(api, ids).await? {
        let (online, playing) = whereabouts(&app, &user);
        let bot = api.store.is_bot(user.id).await?;
        out.push(Status {
            id: user.username.to_lowercase(),
            name: user.username.clone(),
            title: bot.then_some("BOT"),
            online,
            playing: playing.is_some(),
            playing_id: playing.filter(|_| with_games),
        });
    }
    Ok(axum::Json(out).into_response())
}

/// `POST /api/users`: the accounts of a comma-separated list of ids (the body,
/// plain text; at most 300), as `GET /api/user/{name}` shows Lichess's fields;
/// unknown ids left out; no authentication.
pub async fn by_ids(State(api): State<Arc<Api>>, body: Bytes) -> Result<Response> {
    let text = std::str::from_utf8(&body).map_err(|_| Error::bad("ids: UTF-8 text"))?;
    let mut out = Vec::new();
    for user in users_named(&api, text).await? {
        out.push(LichessUser::of(&*api.store, &user).await?);
    }
    Ok(axum::Json(out).into_response())
}

/// `GET /api/bot/online[?nb=n]`: the bot accounts online now (an event
/// stream open on this node), as NDJSON of Lichess's user; no authentication.
pub async fn online_bots(State(app): State<Arc<App>>, RawQuery(raw): RawQuery) -> Result<Response> {
    let q = query(raw.as_deref())?;
    let nb = q
        .get("nb")
        .and_then(|n| n.parse::<usize>().ok())
        .unwrap_or(usize::MAX);
    let api = &app.api;
    let mut ids = api.hub.listeners();
    ids.sort_unstable();
    let mut text = String::new();
    let mut n = 0;
    for id in ids {
        if n >= nb {
            break;
        }
        if !api.store.is_bot(id).await? {
            continue;
        }
        let Some(user) = api.store.user(id).await? else {
            continue;
        };
        let json = LichessUser::of(&*api.store, &user).await?;
        text.push_str(&serde_json::to_string(&json).map_err(Error::internal)?);
        text.push('\n');
        n += 1;
    }
    Ok(([(header::CONTENT_TYPE, "application/x-ndjson")], text).into_response())
}

/// One rating pool's history: Lichess's `{"name", "points": [[y, m, d, r]]}`,
/// the month counted from 0.
#[derive(Debug, Serialize)]
struct History {
    name: String,
    points: Vec<[i64; 4]>,
}

/// Lichess's name of a pool: a pool of Lichess's own game (the API variant
/// `standard`: chess) by its speed (`Blitz`), another game's by game and speed
/// (`Xiangqi`, `Xiangqi Blitz`).
fn pool_name(pool: &str, standard: bool) -> String {
    let cap = |s: &str| {
        let mut c = s.chars();
        c.next()
            .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
            .unwrap_or_default()
    };
    match pool.split_once(':') {
        Some((_, speed)) if standard => cap(speed),
        _ => pool.split(':').map(cap).collect::<Vec<_>>().join(" "),
    }
}

/// `GET /api/user/{name}/rating-history`: for each of the user's rating pools,
/// their rating at the end of each day they finished a rated game (chess and
/// xiangqi, from their last 1000 games); no authentication.
pub async fn rating_history(
    State(api): State<Arc<Api>>,
    Path(name): Path<String>,
) -> Result<Response> {
    let user = api
        .store
        .user_by_name(&crate::auth::normalize_username(&name))
        .await?
        .ok_or_else(|| Error::not_found("No such user"))?;
    let mut pools: BTreeMap<String, BTreeMap<(i64, i64, i64), i64>> = BTreeMap::new();
    for r in api.store.ratings(user.id).await? {
        pools.entry(r.pool).or_default();
    }
    let mut rows = api.store.games_of_user(user.id, 1000).await?;
    rows.reverse();
    for row in rows.iter().filter(|g| g.rated) {
        let (Some(desc), Some(ended)) = (api.games.get(&row.game), row.ended_at) else {
            continue;
        };
        if desc.api_variant.is_none() {
            continue;
        }
        let Some(me) = row.players.iter().find(|p| p.user_id == Some(user.id)) else {
            continue;
        };
        let (Some(rating), Some(diff)) = (me.rating, me.rating_diff) else {
            continue;
        };
        let speed = serde_json::from_str::<super::export::StoredSettings>(&row.settings)
            .map(|s| s.time.speed())
            .unwrap_or(qiyuan_table::Speed::Correspondence);
        let (y, m, d) = crate::live::ymd_of(ended.max(0) as u64);
        // The last game of a day gives the day's rating.
        pools
            .entry(desc.pool(speed))
            .or_default()
            .insert((y, m, d), rating + diff);
    }
    let out: Vec<History> = pools
        .into_iter()
        .filter(|(pool, _)| {
            let game = pool.split(':').next().unwrap_or("");
            api.games.get(game).is_some_and(|g| g.api_variant.is_some())
        })
        .map(|(pool, days)| History {
            name: {
                let game = pool.split(':').next().unwrap_or("");
                let standard = api
                    .games
                    .get(game)
                    .and_then(|g| g.api_variant.as_ref())
                    .is_some_and(|v| v.key == "standard");
                pool_name(&pool, standard)
            },
            points: days
                .into_iter()
                .map(|((y, m, d), r)| [y, m - 1, d, r])
                .collect(),
        })
        .collect();
    Ok(axum::Json(out).into_response())
}

/// `GET /api/user/{name}/current-game`: the user's game in progress, or else
/// the last one they played (chess and xiangqi, private games left out), as
/// `GET /game/export/{id}` serves it (PGN, or JSON by `Accept`); `404` when
/// they have played none.
pub async fn current_game(
    State(api): State<Arc<Api>>,
    headers: HeaderMap,
    Path(name): Path<String>,
) -> Result<Response> {
    let user = api
        .store
        .user_by_name(&crate::auth::normalize_username(&name))
        .await?
        .ok_or_else(|| Error::not_found("No such user"))?;
    let rows: Vec<GameRow> = api
        .store
        .games_of_user(user.id, 50)
        .await?
        .into_iter()
        .filter(|g| {
            api.games
                .get(&g.game)
                .is_some_and(|d| d.api_variant.is_some())
        })
        .collect();
    let row = rows
        .iter()
        .find(|g| g.status == GameStatus::Live)
        .or_else(|| rows.first())
        .ok_or_else(|| Error::not_found("No ongoing game"))?;
    game_reply(&api, &headers, row).await
}

/// `GET /api/account/email`'s answer.
#[derive(Debug, Serialize)]
struct Email {
    email: Option<String>,
}

/// `GET /api/account/email` (`email:read`): qiyuan keeps no e-mail address
/// (accounts are a name and a password), so `email` is `null`.
pub async fn email(State(api): State<Arc<Api>>, headers: HeaderMap) -> Result<Response> {
    let caller = api.caller(&headers).await?;
    caller.require("email:read")?;
    Ok(axum::Json(Email { email: None }).into_response())
}

/// `GET /api/account/kid`'s answer.
#[derive(Debug, Serialize)]
struct Kid {
    kid: bool,
}

/// `GET /api/account/kid` (`preference:read`): `{"kid": false}`: the hall has
/// no kid mode (its chat is moderated for everyone alike).
pub async fn kid(State(api): State<Arc<Api>>, headers: HeaderMap) -> Result<Response> {
    let caller = api.caller(&headers).await?;
    caller.require("preference:read")?;
    Ok(axum::Json(Kid { kid: false }).into_response())
}

#[cfg(test)]
mod tests {
    #[test]
    fn pools_are_named_as_lichess_names_them() {
        assert_eq!(super::pool_name("chess:blitz", true), "Blitz");
        assert_eq!(super::pool_name("xiangqi", false), "Xiangqi");
        assert_eq!(super::pool_name("xiangqi:rapid", false), "Xiangqi Rapid");
    }
}
