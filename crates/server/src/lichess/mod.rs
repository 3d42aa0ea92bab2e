//! A Lichess-compatible Board and Bot API, so that the field's clients (berserk,
//! lichess-bot, board apps) play here with only their base URL changed. Paths,
//! JSON shapes, NDJSON streams and keep-alive newlines are Lichess's; the
//! differences are listed in `docs/api.md`.
//!
//! Nothing here plays a game: an API game is an ordinary live table. A stream
//! follows the table's typed feed ([`crate::live::watch`]) and turns its
//! updates into `gameFull`/`gameState` lines built from typed structs; a
//! command goes to the table's task as a socket's does (`TableMsg::Act`). Games are named through
//! their registry entry's [`crate::registry::ApiVariant`] (chess as `standard`,
//! xiangqi as pychess-variants' `xiangqi` with Fairy-Stockfish's ranks 1–10).
//!
//! - [`tokens`]: personal API tokens with scopes, the bearer check, rate limits;
//! - `hub`: what lives between requests: event streams, challenges, chat, and
//!   the token revocations that end open streams;
//! - `feed`: following a table's typed feed, and the API's own connections;
//! - `state`: a live game as Lichess shows it (`gameFull`, `gameState`);
//! - `players`: the people behind a game or a challenge, as replies name them;
//! - `games`: the game streams and the board/bot commands;
//! - `events`: the event stream, and the games it tells of;
//! - `forms`: what a request that begins a game says;
//! - `challenges`: challenges between accounts;
//! - `seeks`: seeks, and games against the built-in engine;
//! - `export`: accounts, users, PGN and NDJSON exports.

mod challenges;
mod events;
mod export;
mod feed;
mod forms;
mod games;
mod hub;
mod players;
mod seeks;
mod state;
mod stream;
pub mod tokens;

use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::{get, post};

pub use crate::config::ApiConfig;
pub use hub::Hub;

use crate::App;

/// The API's routes, mounted by [`crate::router`].
pub fn routes(app: Arc<App>) -> Router<Arc<App>> {
    let mut r = Router::new()
        .route(
            "/api/token",
            post(tokens::create)
                .get(tokens::list)
                .delete(tokens::revoke_own),
        )
        .route("/api/token/test", post(tokens::test))
        .route("/api/token/{id}", axum::routing::delete(tokens::revoke_id))
        .route("/api/account", get(export::account))
        .route("/api/account/playing", get(events::playing))
        .route("/api/account/preferences", get(export::preferences))
        .route("/api/user/{name}", get(export::user))
        .route("/api/games/user/{name}", get(export::games_of_user))
        .route("/api/stream/event", get(events::event_stream))
        .route("/api/board/seek", post(seeks::seek))
        .route("/api/challenge", get(challenges::list))
        .route("/api/challenge/ai", post(seeks::challenge_ai))
        .route("/api/challenge/{username}", post(challenges::challenge))
        .route("/api/challenge/{id}/accept", post(challenges::accept))
        .route("/api/challenge/{id}/decline", post(challenges::decline))
        .route("/api/challenge/{id}/cancel", post(challenges::cancel))
        .route("/api/bot/account/upgrade", post(tokens::upgrade));
    for kind in [games::Kind::Board, games::Kind::Bot] {
        r = games::routes(r, kind);
    }
    // A private table's games are their owner's alone (see `crate::solo`).
    let by_id = Router::new()
        .route("/game/export/{id}", get(export::game))
        .route_layer(axum::middleware::from_fn_with_state(app, only_owner));
    r.merge(by_id)
}

/// [`crate::solo::check_owner`] in front of the API's routes that serve a game
/// by id, refusing as Lichess does (`{"error": …}`).
async fn only_owner(
    State(app): State<Arc<App>>,
    Path(params): Path<std::collections::HashMap<String, String>>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    match crate::solo::check_owner(&app, &params, req.headers()).await {
        Ok(()) => next.run(req).await,
        Err(e) => stream::Error::from(e).into_response(),
    }
}
