//! 单机: private tables of this server, for one user alone — against the
//! computer (`play_computer` with `"private": true`) or hot-seat (`hotseat`,
//! one user playing every seat). Nothing needs an account (a guest session
//! does), nothing is rated and no points are kept, and a private table is
//! listed nowhere: not in the lobby, not in a profile's games or counts, not in
//! an export. The table's id says it is private (it starts with [`PRIVATE`],
//! which an ordinary table's id never holds: their alphabet has no `o` nor
//! `l`), so a restart keeps it so; its stored row names its owner
//! ([`crate::live::Owner`]).
//!
//! A private table is its owner's alone: nobody else may watch it, sit there
//! (even once the owner has left), or read its games by id (the record, the
//! log, the replay, the review: [`only_owner`] stands in front of those
//! routes). Another user gets `403 private_table`.
//!
//! Hot-seat: the user sits at the first seat, and a stand-in of theirs
//! (`hotseat:<n>:<user>`; a colon is never in an account's name) at every
//! other. The user's commands act for the seat to move (or the seat they name),
//! they see the table as that seat does, and what needs the other seats'
//! consent — a takeback, a draw offer, a rematch, accepting Go's marking — is
//! agreed by them at once.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Path, Request, State};
use axum::http::HeaderMap;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use qiyuan_game::Seat;
use qiyuan_table::{Command, Settings, TimeControl};

use crate::App;
use crate::error::ApiError;
use crate::live::{self, Conn, Owner, TableHandle, UserInfo};
use crate::protocol::{Hotseat, TableAct};
use crate::registry::AnyTable;

/// The start of every private table's id.
pub const PRIVATE: &str = "solo";

/// The action by which every seat agrees (Go's marking), which a hot-seat
/// user's other seats then give too.
pub const AGREE: &str = "accept";

/// The start of a hot-seat stand-in's name.
pub const STAND_IN: &str = "hotseat:";

/// A new private table id: `solo` and 12 letters and digits.
pub fn new_private_id() -> String {
    let tail: String = (0..2).map(|_| live::new_id()).collect();
    format!("{PRIVATE}{}", &tail[..12])
}

/// Whether the table `id` is private (单机).
pub fn is_private(id: &str) -> bool {
    id.starts_with(PRIVATE)
}

/// The refusal of a private table to anyone but its owner.
pub fn refused() -> ApiError {
    ApiError::forbidden(
        "private_table",
        "this table is private (单机): only its owner may watch it, sit there or read its games",
    )
}

/// Whether `user` may watch or act at the live table `id`: anyone at an
/// ordinary table; at a private one its `owner` alone (a private table stored
/// before owners were kept: whoever sits there, themselves or by stand-in).
pub fn admits(
    table: &dyn AnyTable,
    id: &str,
    owner: Option<&Owner>,
    user: Option<&UserInfo>,
) -> Result<(), ApiError> {
    if !is_private(id) {
        return Ok(());
    }
    let admitted = match (owner, user) {
        (_, None) => false,
        (Some(owner), Some(user)) => owner.id == user.id,
        (None, Some(user)) => table.state().seats.iter().any(|s| {
            s.user
                .as_deref()
                .is_some_and(|n| n == user.username || owner_of(n) == Some(&user.username))
        }),
    };
    if admitted { Ok(()) } else { Err(refused()) }
}

/// Refuses a request naming a private table's game by id (`{id}`, or `{file}`
/// as `{id}.{ext}`; a game id is `{table}` or `{table}-{n}`) to anyone but the
/// table's owner, by session or API token. Anything else passes (a table that
/// does not exist is the route's to answer).
pub async fn check_owner(
    app: &App,
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
    if !is_private(table) {
        return Ok(());
    }
    let Some(row) = app.store.table(table).await? else {
        return Ok(());
    };
    let Some(caller) = caller_id(app, headers).await? else {
        return Err(refused());
    };
    let owner = serde_json::from_str::<live::Stored>(&row.config)
        .ok()
        .and_then(|s| s.owner);
    let admitted = match owner {
        Some(owner) => owner.id == caller,
        // Stored before owners were kept: the account among its players.
        None => app
            .store
            .games_of_table(table)
            .await?
            .iter()
            .flat_map(|g| &g.players)
            .any(|p| p.user_id == Some(caller)),
    };
    if admitted { Ok(()) } else { Err(refused()) }
}

/// The account a request's session or API token belongs to.
async fn caller_id(app: &App, headers: &HeaderMap) -> Result<Option<i64>, ApiError> {
    let Some(token) = crate::auth::token_from_headers(headers) else {
        return Ok(None);
    };
    if let Some(user) = app.user_of_token(&token).await? {
        return Ok(Some(user.id));
    }
    if token.len() > 128 {
        return Ok(None);
    }
    let hash = crate::auth::hash_token(&token);
    Ok(app.store.api_token(&hash).await?.map(|(_, user)| user.id))
}

/// [`check_owner`] as a layer in front of the routes that serve a game by id.
pub async fn only_owner(
    State(app): State<Arc<App>>,
    Path(params): Path<HashMap<String, String>>,
    req: Request,
    next: Next,
) -> Response {
    match check_owner(&app, &params, req.headers()).await {
        Ok(()) => next.run(req).await,
        Err(e) => e.into_response(),
    }
}

/// The name of `user`'s stand-in at `seat`.
pub fn stand_in(user: &str, seat: Seat) -> String {
    format!("{STAND_IN}{}:{user}", seat.0 + 1)
}

/// Whose stand-in `name` is, if it is one.
pub fn owner_of(name: &str) -> Option<&str> {
    name.strip_prefix(STAND_IN)?.split_once(':').map(|(_, u)| u)
}

/// Creates a hot-seat table, seats the user and their stand-ins, and starts
/// the game.
pub async fn hotseat(app: &Arc<App>, conn: &Conn, req: Hotseat) -> Result<TableHandle, ApiError> {
    let user = conn.user.clone().ok_or_else(ApiError::unauthorized)?;
    let game = app.games.get(&req.game).ok_or_else(|| {
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
    let handle = live::create_started(app, game.name, settings, &user, true).await?;
    let mut cmds = Vec::new();
    let mut names = Vec::new();
    for seat in (0..game.seats).map(Seat) {
        let name = if seat.0 == 0 {
            user.username.clone()
        } else {
            stand_in(&user.username, seat)
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

/// The seats `user` holds at a hot-seat table, themselves or by stand-in, with
/// the name at each; empty at any other table.
pub fn seats_of(table: &dyn AnyTable, table_id: &str, user: &str) -> Vec<(Seat, String)> {
    if !is_private(table_id) {
        return Vec::new();
    }
    let held: Vec<(Seat, String)> = table
        .state()
        .seats
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            let name = s.user.as_ref()?;
            (name == user || owner_of(name) == Some(user)).then(|| (Seat(i as u8), name.clone()))
        })
        .collect();
    if held.iter().any(|(_, n)| n != user) {
        held
    } else {
        Vec::new()
    }
}

/// The seat to act among those `user` holds at a hot-seat table.
pub fn acting_seat(table: &dyn AnyTable, table_id: &str, user: &str) -> Option<Seat> {
    seats_of(table, table_id, user)
        .into_iter()
        .map(|(s, _)| s)
        .find(|&s| table.bot_choice(s).is_some())
}

/// Who `user`'s command `act` is given as at a hot-seat table: the seat they
/// name (`expect`), else the seat to act for a move, a resignation, a claim or
/// a draw offer, another of their seats for an answer or a takeback (the last
/// move's seat in a two-seat game); the user themself for the
/// rest and at any other table.
pub fn acting_as(
    table: &dyn AnyTable,
    table_id: &str,
    user: &str,
    expect: Option<Seat>,
    act: &TableAct,
) -> String {
    let held = seats_of(table, table_id, user);
    if held.is_empty() {
        return user.to_string();
    }
    if let Some(seat) = expect
        && let Some((_, name)) = held.iter().find(|(s, _)| *s == seat)
    {
        return name.clone();
    }
    let to_act = held
        .iter()
        .find(|(s, _)| table.bot_choice(*s).is_some())
        .map(|(_, n)| n.clone());
    match act {
        TableAct::Move { .. } | TableAct::Resign | TableAct::Claim { .. } | TableAct::DrawOffer => {
            to_act.unwrap_or_else(|| user.to_string())
        }
        // A takeback is asked by the seat that moved last (so one move is
        // taken back: an undo), and answered by the others.
        TableAct::TakebackRequest
        | TableAct::DrawAccept
        | TableAct::DrawDecline
        | TableAct::TakebackAccept
        | TableAct::TakebackDecline => held
            .iter()
            .map(|(_, n)| n.clone())
            .find(|n| Some(n) != to_act.as_ref())
            .unwrap_or_else(|| user.to_string()),
        _ => user.to_string(),
    }
}

/// What the user's other seats agree to at once after `act` was accepted as
/// `acted_as`: a takeback, a draw, a rematch, the marking's acceptance.
pub fn agreed(
    table: &dyn AnyTable,
    table_id: &str,
    user: &str,
    acted_as: &str,
    act: &TableAct,
) -> Vec<Command> {
    let others = seats_of(table, table_id, user)
        .into_iter()
        .map(|(_, n)| n)
        .filter(|n| n != acted_as);
    match act {
        TableAct::TakebackRequest => others
            .map(|user| Command::AcceptTakeback { user })
            .collect(),
        TableAct::DrawOffer => others.map(|user| Command::AcceptDraw { user }).collect(),
        TableAct::Rematch => others.map(|user| Command::Rematch { user }).collect(),
        // Where every seat must agree (Go's marking: `accept`), the others agree.
        TableAct::Move { action, .. } if action == AGREE => others
            .map(|user| Command::Act {
                user,
                action: AGREE.to_string(),
                lag: 0,
            })
            .collect(),
        _ => Vec::new(),
    }
}
