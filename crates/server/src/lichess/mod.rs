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
//! - `export`: accounts, users, PGN and NDJSON exports (one game, a user's,
//!   by ids);
//! - `users`: who is online and playing, accounts by id, the bots online,
//!   rating histories, a user's current game, e-mail and kid mode;
//! - `watching`: any game's stream, as its spectators follow it.

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
mod users;
mod watching;

use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::routing::{get, post};
use qiyuan_store::Store;

pub use crate::config::ApiConfig;
pub use hub::Hub;

use crate::App;
use crate::api::TableFinder;
use crate::authority::Authority;
use crate::cluster::Cluster;
use crate::live::{self, TableHandle};
use crate::lobby::Lobby;
use crate::registry::Games;

/// What the API's handlers share: the handles of the node the API reaches,
/// built by the composition root (`crate::start_with`).
pub struct Api {
    pub store: Arc<dyn Store>,
    /// The games hosted here (an API game is named by its entry's variant).
    pub games: Games,
    /// What the API keeps between requests on this node.
    pub hub: Arc<Hub>,
    /// The API's settings (`[api]`).
    pub config: ApiConfig,
    /// Several nodes; `None`: this is the only node.
    pub cluster: Option<Arc<Cluster>>,
    /// The live tables' environment: API games are made there.
    pub live: Arc<live::Env>,
    /// The lobby's tables (the games a user plays, from their summaries).
    pub lobby: Arc<Lobby>,
    /// Live tables by id, here or at their owner.
    pub tables: TableFinder,
    /// Where a revoked token's streams and sockets are ended.
    pub authority: Authority,
    /// The people's channels: challenges are told to every page of both sides.
    pub people: crate::people::Notifier,
}

impl Api {
    /// The caller of a request (see [`tokens::caller`]).
    pub async fn caller(&self, headers: &HeaderMap) -> stream::Result<tokens::Caller> {
        tokens::caller(&*self.store, &self.hub.limiter, headers).await
    }

    /// A live table by game id: this node's, or with several nodes the local
    /// proxy of the table's owner.
    async fn table(&self, id: &str) -> stream::Result<TableHandle> {
        self.tables
            .get(id)
            .await
            .ok_or_else(|| stream::Error::not_found("No such game"))
    }

    /// What the API shares between requests and nodes.
    fn share(&self) -> hub::Share<'_> {
        hub::Share {
            hub: &self.hub,
            cluster: self.cluster.as_ref(),
            config: &self.config,
        }
    }

    /// The people behind games and challenges, as replies name them.
    fn players(&self) -> players::Players<'_> {
        players::Players {
            store: &*self.store,
            games: &self.games,
        }
    }
}

/// The API's routes, mounted by [`crate::router`]: their handlers share the
/// [`Api`], but for a seek, which the lobby pairs as it pairs a socket's.
pub fn routes(api: Arc<Api>) -> Router<Arc<App>> {
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
        .route("/api/account/email", get(users::email))
        .route("/api/account/kid", get(users::kid))
        .route("/api/user/{name}", get(export::user))
        .route("/api/user/{name}/current-game", get(users::current_game))
        .route(
            "/api/user/{name}/rating-history",
            get(users::rating_history),
        )
        .route("/api/users", post(users::by_ids))
        .route("/api/games/user/{name}", get(export::games_of_user))
        .route("/api/games/export/_ids", post(export::games_by_ids))
        .route("/api/stream/event", get(events::event_stream))
        .route("/api/stream/game/{id}", get(watching::stream_game))
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
    r.with_state(api)
        .route("/api/board/seek", post(seeks::seek))
        .route("/api/users/status", get(users::status))
        .route("/api/bot/online", get(users::online_bots))
}

/// The API's routes that serve a game by id: [`crate::router`] puts
/// [`only_owner`] in front of them.
pub fn by_id<S: Clone + Send + Sync + 'static>(api: Arc<Api>) -> Router<S> {
    Router::new()
        .route("/game/export/{id}", get(export::game))
        .with_state(api)
}

/// [`crate::solo::check_owner`] in front of the API's routes that serve a game
/// by id, refusing as Lichess does (`{"error": …}`).
pub async fn only_owner(
    State(app): State<Arc<App>>,
    Path(params): Path<std::collections::HashMap<String, String>>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    match crate::solo::check_owner(&*app.store, Some(&app.tables), &params, req.headers()).await {
        Ok(()) => next.run(req).await,
        Err(e) => stream::Error::from(e).into_response(),
    }
}
