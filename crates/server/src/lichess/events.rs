//! The event stream (`GET /api/stream/event`: `gameStart`, `gameFinish`,
//! `challenge`, `challengeCanceled`, `challengeDeclined`) and what feeds it:
//! the API games a user plays, told when they start, and each one's end
//! watched (once, across the nodes) by following its table's typed feed.
//! Also `GET /api/account/playing`, the same games as a list.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use qiyuan_table::Status;
use serde::Serialize;

use super::Api;
use super::challenges::ChallengeEvent;
use super::feed::{Following, snapshot};
use super::games::{seat_of, variant_of};
use super::hub::until_revoked;
use super::players::{Opponent, Players};
use super::state::{GameState, Variant, color, speed_of};
use super::stream::{Error, Lines, Result, keepalive, ndjson};
use super::tokens::Caller;
use crate::live::TableHandle;
use crate::live::watch::Update;
use crate::lobby::Lobby;
use crate::registry::Games;

/// How a game began, as `gameStart` names it (`source`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum Source {
    /// A seek paired in the lobby.
    Lobby,
    /// A challenge, or a game under way found later.
    Friend,
    /// Against the built-in engine.
    Ai,
}

/// A game's `status` in the event stream.
#[derive(Debug, Clone, Serialize)]
struct StatusName {
    name: Option<&'static str>,
}

/// What a client may play a game with.
#[derive(Debug, Clone, Serialize)]
struct Compat {
    bot: bool,
    board: bool,
}

/// Lichess's `GameEventInfo`: a game in `gameStart`, `gameFinish` and
/// `nowPlaying`, for one of its players.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct GameInfo {
    game_id: String,
    full_id: String,
    id: String,
    color: &'static str,
    fen: Option<String>,
    has_moved: bool,
    is_my_turn: bool,
    last_move: String,
    opponent: Opponent,
    perf: &'static str,
    rated: bool,
    seconds_left: Option<u64>,
    source: Source,
    speed: &'static str,
    status: StatusName,
    variant: Option<Variant>,
    compat: Compat,
    #[serde(skip_serializing_if = "Option::is_none")]
    winner: Option<&'static str>,
}

impl GameInfo {
    /// The game of `update` (which has one) for `me`.
    async fn of(players: Players<'_>, update: &Update, me: &str, source: Source) -> Option<Self> {
        let game = update.game.as_ref()?;
        let mine = seat_of(update, me).unwrap_or(0);
        let v = variant_of(players.games, &update.game_name);
        let opponent = game.players.get(1 - mine.min(1)).map_or("", String::as_str);
        let opponent = players
            .opponent(opponent, &update.game_name, &game.time)
            .await;
        let state = v.map(|v| GameState::of(game, &v));
        let speed = speed_of(&game.time);
        let id = update.table.clone();
        Some(GameInfo {
            game_id: id.clone(),
            full_id: format!("{id}0000"),
            id,
            color: color(mine),
            fen: game.fen.clone(),
            has_moved: game.moves.iter().any(|m| m.seat.index() == mine),
            is_my_turn: game.to_act.is_some_and(|s| s.index() == mine),
            last_move: state
                .as_ref()
                .and_then(|s| s.moves.rsplit(' ').next())
                .unwrap_or("")
                .to_string(),
            opponent,
            perf: speed,
            rated: game.rated,
            seconds_left: game.clocks.get(mine).map(|ms| ms / 1000),
            source,
            speed,
            status: StatusName {
                name: state.as_ref().map(|s| s.status),
            },
            variant: v.as_ref().map(Variant::brief),
            compat: Compat {
                bot: true,
                board: true,
            },
            winner: state.and_then(|s| s.winner),
        })
    }
}

/// `gameStart` or `gameFinish`.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
enum GameEvent {
    GameStart { game: GameInfo },
    GameFinish { game: GameInfo },
}

/// Tells the players (API users) that a game started, and watches it to tell
/// them when it ends. Each table is watched once.
pub(super) async fn started(api: &Arc<Api>, handle: &TableHandle, source: Source) {
    track(api, handle, source, true).await;
}

/// The live tables of the API's games where `name` sits and a game is being
/// played, from the lobby's summaries (games begun from the web client, games
/// against the computer, and games under way before a restart, included).
fn live_games_of(games: &Games, lobby: &Lobby, name: &str) -> Vec<String> {
    games
        .all()
        .iter()
        .filter(|g| g.api_variant.is_some())
        .flat_map(|g| lobby.tables_of(g.name, name))
        .filter(|t| t.status == Status::Playing)
        .map(|t| t.id)
        .collect()
}

/// The caller's games in progress, each as its table is now, and their end
/// watched from now on (for `gameFinish`).
async fn games_in_progress(api: &Arc<Api>, caller: &Caller) -> Vec<Update> {
    let mut ids = api.hub.playing_of(caller.user.id);
    for id in live_games_of(&api.games, &api.lobby, &caller.user.username) {
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    let mut out = Vec::new();
    for id in ids {
        // (With several nodes the table may be owned by another node: its
        // address here is the local proxy.)
        if let Some(handle) = api.tables.get(&id).await
            && let Ok(now) = snapshot(&handle, Some(caller.info())).await
            && now.status == Status::Playing
        {
            track(api, &handle, Source::Friend, false).await;
            out.push(now);
        }
    }
    out
}

/// How long a new table may take to start its game (computer players get
/// ready by themselves, a moment after the table is made).
const START_WAIT: Duration = Duration::from_secs(2);

/// Notes a game's players as playing it, tells them it started (`tell`), and
/// watches it to tell them when it ends. Each table is watched once.
async fn track(api: &Arc<Api>, handle: &TableHandle, source: Source, tell: bool) {
    let Ok(mut following) = Following::start(handle, None, false).await else {
        return;
    };
    let first = tokio::time::timeout(START_WAIT, async {
        while let Some(update) = following.next().await {
            if update.game.is_some() {
                return Some(update);
            }
        }
        None
    })
    .await;
    let Ok(Some(update)) = first else {
        following.stop().await;
        return;
    };
    let players = api.players();
    let seated = match &update.game {
        Some(game) => players.accounts(&game.players).await,
        None => Vec::new(),
    };
    // The first to track a table tells its players and watches it; a second
    // (the other seeker of a pair) finds it done.
    let share = api.share();
    let already = share.watch_once(&handle.id).await;
    for (id, name) in &seated {
        api.hub.start_playing(*id, &handle.id);
        if tell
            && !already
            && let Some(game) = GameInfo::of(players, &update, name, source).await
        {
            share.tell(*id, &GameEvent::GameStart { game }).await;
        }
    }
    if already {
        following.stop().await;
        return;
    }
    tokio::spawn(watch_end(api.clone(), following, seated, source));
}

/// Follows a game until it ends, then tells its players (`gameFinish`).
async fn watch_end(
    api: Arc<Api>,
    mut following: Following,
    seated: Vec<(i64, String)>,
    source: Source,
) {
    let share = api.share();
    let table = following.table().to_string();
    // Several nodes: the claim on watching this table is renewed.
    let every = Duration::from_millis(
        api.cluster
            .as_ref()
            .map_or(60_000, |c| c.config.renew_ms.max(100)),
    );
    let mut renew = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
    let last = loop {
        tokio::select! {
            update = following.next() => match update {
                Some(u) if u.game.as_ref().is_some_and(|g| g.outcome.is_some()) => break Some(u),
                Some(_) => {}
                None => break None,
            },
            _ = renew.tick() => share.still_watching(&table).await,
        }
    };
    following.stop().await;
    share.unwatch(&table).await;
    share.forget_chat(&table).await;
    api.hub.forget_offers(&table);
    let players = api.players();
    for (id, name) in &seated {
        api.hub.stop_playing(*id, &table);
        if let Some(update) = &last
            && let Some(game) = GameInfo::of(players, update, name, source).await
        {
            share.tell(*id, &GameEvent::GameFinish { game }).await;
        }
    }
}

/// `GET /api/account/playing`'s answer.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct NowPlaying {
    now_playing: Vec<GameInfo>,
}

/// `GET /api/account/playing`: the caller's games in progress, as `gameStart`
/// describes them.
pub async fn playing(State(api): State<Arc<Api>>, headers: HeaderMap) -> Result<Response> {
    let caller = api.caller(&headers).await?;
    let players = api.players();
    let mut now_playing = Vec::new();
    for update in games_in_progress(&api, &caller).await {
        let me = &caller.user.username;
        if let Some(game) = GameInfo::of(players, &update, me, Source::Friend).await {
            now_playing.push(game);
        }
    }
    Ok(axum::Json(NowPlaying { now_playing }).into_response())
}

/// `GET /api/stream/event`.
pub async fn event_stream(State(api): State<Arc<Api>>, headers: HeaderMap) -> Result<Response> {
    let caller = api.caller(&headers).await?;
    if caller.scopes.as_ref().is_some_and(|s| {
        !s.iter()
            .any(|x| matches!(x.as_str(), "board:play" | "bot:play" | "challenge:read"))
    }) {
        return Err(Error::forbidden("Missing scope: challenge:read"));
    }
    Ok(ndjson(move |lines| events(api, caller, lines)))
}

async fn events(api: Arc<Api>, caller: Caller, lines: Lines) {
    let me = caller.user.id;
    let mut rx = api.hub.listen(me);
    let players = api.players();
    // What is under way already: games, then open challenges.
    for update in games_in_progress(&api, &caller).await {
        let name = &caller.user.username;
        if let Some(game) = GameInfo::of(players, &update, name, Source::Friend).await
            && !lines.send(&GameEvent::GameStart { game }).await
        {
            return;
        }
    }
    for c in api.share().challenges_of(me).await {
        let dir = if c.challenger.0 == me { "out" } else { "in" };
        let event = ChallengeEvent::challenge(players, &c, dir).await;
        if !lines.send(&event).await {
            return;
        }
    }
    let every = keepalive(&api.config);
    let mut beat = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
    let revoked = until_revoked(&api.hub, &*api.store, &caller.token_hash);
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
