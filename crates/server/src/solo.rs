//! 单机: private tables of this server, for one user alone — against the
//! computer (`play_computer` with `"private": true`) or hot-seat (`hotseat`,
//! one user playing every seat). Nothing needs an account (a guest session
//! does), nothing is rated and no points are kept, and a private table is
//! listed nowhere: not in the lobby, not in a profile's games or counts, not in
//! an export. The table is made of the kind [`TableKind::Private`] (hot-seat:
//! [`TableKind::HotSeat`]), which its id keeps, so a restart keeps it so; its
//! stored row names its owner ([`crate::live::Owner`]).
//!
//! A private table is its owner's alone: nobody else may watch it, sit there
//! (even once the owner has left), or read its games by id (the record, the
//! log, the replay, the review: [`only_owner`] stands in front of those
//! routes). Another user gets `403 private_table`.
//!
//! Hot-seat: the user sits at the first seat, and a stand-in of theirs
//! ([`Occupant::StandIn`]) at every other; how the table then takes the
//! user's commands is the live table's (`live::hotseat`).

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Path, Request, State};
use axum::http::HeaderMap;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use qiyuan_game::Seat;
use qiyuan_store::Store;
use qiyuan_table::{Command, Settings, TimeControl};

use crate::App;
use crate::error::ApiError;
use crate::live::{self, Conn, Env, Occupant, TableHandle, TableKind};
use crate::protocol::Hotseat;

/// Refuses a request naming a private table's game by id (`{id}`, or `{file}`
/// as `{id}.{ext}`; a game id is `{table}` or `{table}-{n}`) to anyone but the
/// table's owner, by session or API token; one made for the invited alone
/// (`invite_only`) to its owner, whoever played there and, where the live
/// tables are at hand (`tables`), whoever holds a seat there now. Anything else
/// passes (a table that does not exist is the route's to answer).
pub async fn check_owner(
    store: &dyn Store,
    tables: Option<&live::Registry>,
    params: &HashMap<String, String>,
    headers: &HeaderMap,
) -> Result<(), ApiError> {
    let Some(id) = params.get("id").map(String::as_str).or_else(|| {
        params
            .get("file")
            .map(|f| f.rsplit_once('.').map_or(f.as_str(), |(id, _)| id))
    }) else {
        return Ok(());
    };
    let table = id.split('-').next().unwrap_or(id);
    let private = TableKind::of_stored(table).is_private();
    // No such stored table: the route's to answer. (A public table's row is
    // read too: one made for the invited alone is theirs as a private one is
    // its owner's.)
    let Some(row) = store.table(table).await? else {
        return Ok(());
    };
    let stored = serde_json::from_str::<live::Stored>(&row.config).ok();
    let invite_only = stored.as_ref().is_some_and(|s| s.invite_only);
    if !private && !invite_only {
        return Ok(());
    }
    let refused = || {
        if private {
            TableKind::refused()
        } else {
            TableKind::invited_only()
        }
    };
    let Some(caller) = caller_id(store, headers).await? else {
        return Err(refused());
    };
    let owner = stored.and_then(|s| s.owner);
    let admitted = match owner {
        // A table for the invited: its owner, or someone who played there.
        Some(owner) if invite_only => {
            let seated_now = match tables {
                Some(tables) => store.user(caller).await?.is_some_and(|u| {
                    tables
                        .seats_of(&u.username)
                        .iter()
                        .any(|(id, _)| id == table)
                }),
                None => false,
            };
            owner.id == caller
                || seated_now
                || store
                    .games_of_table(table)
                    .await?
                    .iter()
                    .flat_map(|g| &g.players)
                    .any(|p| p.user_id == Some(caller))
        }
        Some(owner) => owner.id == caller,
        // Stored before owners were kept: the account among its players.
        None => store
            .games_of_table(table)
            .await?
            .iter()
            .flat_map(|g| &g.players)
            .any(|p| p.user_id == Some(caller)),
    };
    if admitted { Ok(()) } else { Err(refused()) }
}

/// The account a request's session or API token belongs to.
async fn caller_id(store: &dyn Store, headers: &HeaderMap) -> Result<Option<i64>, ApiError> {
    let Some(token) = crate::auth::token_from_headers(headers) else {
        return Ok(None);
    };
    // No token is that long: nobody's, and not worth hashing.
    if token.len() > 128 {
        return Ok(None);
    }
    let hash = crate::auth::hash_token(&token);
    if let Some(user) = store.session_user(&hash, crate::now_ms()).await? {
        return Ok(Some(user.id));
    }
    Ok(store.api_token(&hash).await?.map(|(_, user)| user.id))
}

/// [`check_owner`] as a layer in front of the routes that serve a game by id.
pub async fn only_owner(
    State(app): State<Arc<App>>,
    Path(params): Path<HashMap<String, String>>,
    req: Request,
    next: Next,
) -> Response {
    match check_owner(&*app.store, Some(&app.tables), &params, req.headers()).await {
        Ok(()) => next.run(req).await,
        Err(e) => e.into_response(),
    }
}

/// Creates a hot-seat table, seats the user and their stand-ins, and starts
/// the game.
pub async fn hotseat(env: &Arc<Env>, conn: &Conn, req: Hotseat) -> Result<TableHandle, ApiError> {
    let user = conn.user.clone().ok_or_else(ApiError::unauthorized)?;
    let game = env.games.get(&req.game).ok_or_else(|| {
        ApiError::bad_request("unknown_game", format!("no game {:?} here", req.game))
    })?;
    let time = req.time.unwrap_or(TimeControl::None);
    time.validate()
        .map_err(|e| ApiError::bad_request("bad_settings", e))?;
    let settings = Settings {
        time,
        options: req.options.clone(),
        setup: req.setup.clone().unwrap_or(qiyuan_game::Setup::Standard),
        rated: false,
        takebacks: true,
    };
    let handle = live::create_started(env, game.name, settings, &user, TableKind::HotSeat).await?;
    let mut cmds = Vec::new();
    let mut names = Vec::new();
    for seat in (0..game.seats).map(Seat) {
        let name = if seat.0 == 0 {
            user.username.clone()
        } else {
            Occupant::stand_in_name(&user.username, seat)
        };
        cmds.push(Command::Sit {
            user: name.clone(),
            seat,
        });
        names.push(name);
    }
    for name in names {
        cmds.push(Command::Ready {
            user: name,
            proposal: None,
        });
    }
    handle
        .internal(cmds)
        .await?
        .map_err(|e| ApiError::bad_request("bad_settings", e))?;
    Ok(handle)
}
