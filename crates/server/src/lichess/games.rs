//! The game streams (`GET /api/{board,bot}/game/stream/{id}`: `gameFull`, then
//! `gameState` on every change, `chatLine`, `opponentGone`) and the commands
//! (move, abort, resign, draw, takeback, claim-victory, chat). A stream
//! follows its table's typed feed ([`crate::live::watch`]) and counts as its
//! player's connection there; a command is a socket's command, sent to the
//! table's task. A game's id is its table's id.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use qiyuan_game::Seat;
use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;

use super::Api;
use super::feed::{Following, act, snapshot};
use super::hub::{ChatLine, Room, until_revoked};
use super::players::Players;
use super::state::{GameFull, GameState, color, from_api, status_of};
use super::stream::{Error, Lines, Result, form, keepalive, ndjson, ok};
use super::tokens::Caller;
use crate::live::TableHandle;
use crate::live::watch::{Presence, Update};
use crate::protocol::TableAct;
use crate::registry::{ApiVariant, Games};

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
pub(super) fn routes(r: Router<Arc<Api>>, kind: Kind) -> Router<Arc<Api>> {
    let p = kind.prefix();
    let act = move |path: &'static str| {
        post(
            move |State(api): State<Arc<Api>>, headers: HeaderMap, Path(id): Path<String>| async move {
                command(api, headers, kind, id, path).await
            },
        )
    };
    r.route(
        &format!("{p}/game/stream/{{id}}"),
        get(
            move |State(api): State<Arc<Api>>, headers: HeaderMap, Path(id): Path<String>| async move {
                game_stream(api, headers, kind, id).await
            },
        ),
    )
    .route(
        &format!("{p}/game/{{id}}/move/{{uci}}"),
        post(
            move |State(api): State<Arc<Api>>,
                  headers: HeaderMap,
                  Path((id, uci)): Path<(String, String)>,
                  axum::extract::RawQuery(query): axum::extract::RawQuery| async move {
                let offering = query
                    .as_deref()
                    .unwrap_or("")
                    .split('&')
                    .any(|kv| kv == "offeringDraw=true");
                play_move(api, headers, kind, id, uci, offering).await
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
            move |State(api): State<Arc<Api>>,
                  headers: HeaderMap,
                  Path(id): Path<String>,
                  body: Bytes| async move { chat(api, headers, kind, id, body).await },
        )
        .get(
            move |State(api): State<Arc<Api>>, headers: HeaderMap, Path(id): Path<String>| async move {
                chat_history(api, headers, kind, id).await
            },
        ),
    )
}

pub(super) fn variant_of(games: &Games, game: &str) -> Option<ApiVariant> {
    games.get(game).and_then(|g| g.api_variant)
}

/// The seat `name` plays at in the game of `update`, if any.
pub(super) fn seat_of(update: &Update, name: &str) -> Option<usize> {
    update.game.as_ref()?.players.iter().position(|p| p == name)
}

/// A player's request about one of their games: the caller (allowed by the
/// endpoint's `kind`), the table, the table now and the caller's seat in its
/// game; "No such game" for a table they do not play at.
async fn seated(
    api: &Arc<Api>,
    headers: &HeaderMap,
    kind: Kind,
    id: &str,
) -> Result<(Caller, TableHandle, Update, usize)> {
    let caller = api.caller(headers).await?;
    kind.check(&caller)?;
    let handle = api.table(id).await?;
    let now = snapshot(&handle, Some(caller.info())).await?;
    let seat =
        seat_of(&now, &caller.user.username).ok_or_else(|| Error::not_found("No such game"))?;
    Ok((caller, handle, now, seat))
}

async fn game_stream(
    api: Arc<Api>,
    headers: HeaderMap,
    kind: Kind,
    id: String,
) -> Result<Response> {
    let (caller, handle, _, _) = seated(&api, &headers, kind, &id).await?;
    let variant =
        variant_of(&api.games, handle.game).ok_or_else(|| Error::not_found("No such game"))?;
    let chat = api.hub.chat_feed();
    let following = Following::start(&handle, Some(caller.info()), true).await?;
    Ok(ndjson(move |lines| async move {
        let stream = GameStream {
            players: api.players(),
            chat,
            every: keepalive(&api.config),
            me: caller.user.username.clone(),
            variant,
        };
        let revoked = until_revoked(&api.hub, &*api.store, &caller.token_hash);
        stream.run(following, revoked, lines).await
    }))
}

/// `opponentGone`: the opponent left (and may be claimed against in so many
/// seconds), or came back.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct OpponentGone {
    #[serde(rename = "type")]
    kind: &'static str,
    gone: bool,
    /// Only while gone (`null`: no claim comes).
    #[serde(skip_serializing_if = "Option::is_none")]
    claim_win_in_seconds: Option<Option<i64>>,
}

impl OpponentGone {
    fn of(presence: &Presence, now: i64) -> (Seat, OpponentGone) {
        match *presence {
            Presence::Gone { seat, deadline } => {
                let left = deadline.map(|d| ((d as i64 - now) / 1000).max(0));
                let gone = OpponentGone {
                    kind: "opponentGone",
                    gone: true,
                    claim_win_in_seconds: Some(left),
                };
                (seat, gone)
            }
            Presence::Back { seat } => {
                let back = OpponentGone {
                    kind: "opponentGone",
                    gone: false,
                    claim_win_in_seconds: None,
                };
                (seat, back)
            }
        }
    }
}

/// One player's stream of one game.
struct GameStream<'a> {
    players: Players<'a>,
    chat: broadcast::Receiver<(String, ChatLine)>,
    every: Duration,
    me: String,
    variant: ApiVariant,
}

impl GameStream<'_> {
    /// `gameFull`, then `gameState` when something a client reads changed
    /// (spectators coming and going change nothing of it), `opponentGone`,
    /// `chatLine`, keep-alives; until the game ends, the token is revoked or
    /// the client goes.
    async fn run(
        mut self,
        mut following: Following,
        revoked: impl Future<Output = ()>,
        lines: Lines,
    ) {
        let mut beat =
            tokio::time::interval_at(tokio::time::Instant::now() + self.every, self.every);
        tokio::pin!(revoked);
        let mut last: Option<(u32, GameState)> = None;
        loop {
            tokio::select! {
                update = following.next() => {
                    let Some(update) = update else { break };
                    if !self.update(&update, &mut last, &lines).await {
                        break;
                    }
                }
                said = self.chat.recv() => {
                    if let Ok((table, line)) = said
                        && table == following.table()
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
        following.stop().await;
    }

    /// Sends what `update` changed for the player; false once the stream ends
    /// (the game is over, or the client gone).
    async fn update(
        &mut self,
        update: &Update,
        last: &mut Option<(u32, GameState)>,
        lines: &Lines,
    ) -> bool {
        let Some(game) = &update.game else {
            return true;
        };
        let mine = game.players.iter().position(|p| *p == self.me);
        let now = crate::now_ms();
        for presence in &update.presence {
            let (seat, gone) = OpponentGone::of(presence, now);
            if Some(seat.index()) != mine && !lines.send(&gone).await {
                return false;
            }
        }
        let state = GameState::of(game, &self.variant);
        let sent = match &*last {
            Some((number, before)) if *number == game.number => {
                !state.changed_from(before) || lines.send(&state).await
            }
            _ => {
                let time = &game.time;
                let name = |seat: usize| game.players.get(seat).map_or("", String::as_str);
                let white = self.players.in_game(name(0), &update.game_name, time).await;
                let black = self.players.in_game(name(1), &update.game_name, time).await;
                let full = GameFull::of(update, game, &self.variant, [white, black]);
                lines.send(&full).await
            }
        };
        if !sent {
            return false;
        }
        *last = Some((game.number, state));
        game.outcome.is_none()
    }
}

async fn play_move(
    api: Arc<Api>,
    headers: HeaderMap,
    kind: Kind,
    id: String,
    uci: String,
    offering_draw: bool,
) -> Result<Response> {
    let caller = api.caller(&headers).await?;
    kind.check(&caller)?;
    let handle = api.table(&id).await?;
    let v = variant_of(&api.games, handle.game).ok_or_else(|| Error::not_found("No such game"))?;
    let action = from_api(&uci, &v).ok_or_else(|| Error::bad(format!("Invalid UCI move {uci}")))?;
    act(&handle, &caller, TableAct::Move { action, lag: None }).await?;
    // `?offeringDraw=true`, or a draw offered on the player's own turn before
    // (`draw/yes`): the move and a draw offer with it (an offer the table
    // refuses — the game having ended with the move, or xiangqi's offers
    // alternating — is dropped).
    let standing = match api.hub.pending_offer(&id, &caller.user.username) {
        Some(number) => snapshot(&handle, Some(caller.info()))
            .await
            .ok()
            .and_then(|now| now.game)
            .is_some_and(|g| g.number == number),
        None => false,
    };
    if offering_draw || standing {
        let _ = act(&handle, &caller, TableAct::DrawOffer).await;
    }
    Ok(ok())
}

async fn command(
    api: Arc<Api>,
    headers: HeaderMap,
    kind: Kind,
    id: String,
    what: &'static str,
) -> Result<Response> {
    let (caller, handle, now, me) = seated(&api, &headers, kind, &id).await?;
    let game = now
        .game
        .as_ref()
        .ok_or_else(|| Error::not_found("No such game"))?;
    let theirs = |offer: Option<Seat>| offer.is_some_and(|s| s.index() != me);
    let a = match what {
        "abort" => TableAct::Abort,
        "resign" => TableAct::Resign,
        "draw/yes" if theirs(game.draw_offer) => TableAct::DrawAccept,
        // On one's own turn Lichess takes the offer, standing for the
        // opponent: here it is made with the player's next move (the table's
        // rule for chess and xiangqi: an offer follows one's own move). An
        // event's table keeps the rule as the seed has it: refused.
        "draw/yes"
            if game.to_act.is_some_and(|s| s.index() == me)
                && game.outcome.is_none()
                && game.draw_offer.is_none() =>
        {
            if event_table(&api, &id).await? {
                return Err(Error::bad(
                    "At an event's table a draw is offered right after one's own move",
                ));
            }
            let user = &caller.user.username;
            api.hub.offer_with_next_move(&id, user, game.number);
            return Ok(ok());
        }
        "draw/yes" => TableAct::DrawOffer,
        "draw/no" if theirs(game.draw_offer) => TableAct::DrawDecline,
        "takeback/yes" if theirs(game.takeback_request) => TableAct::TakebackAccept,
        "takeback/yes" => TableAct::TakebackRequest,
        "takeback/no" if theirs(game.takeback_request) => TableAct::TakebackDecline,
        "draw/no" | "takeback/no" => return Ok(ok()),
        "claim-victory" => {
            // The table itself ends a game whose player stayed away past the
            // grace time (reason `escape`); claiming only confirms it.
            let (status, winner) = status_of(game.outcome.as_ref());
            return if status == "timeout" && winner == Some(color(me)) {
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

/// Whether table `id` is an event's (a tournament table: its rules are the
/// event's, `TableConfig::tournament`).
async fn event_table(api: &Api, id: &str) -> Result<bool> {
    Ok(api
        .store
        .table(id)
        .await?
        .and_then(|row| serde_json::from_str::<crate::live::Stored>(&row.config).ok())
        .is_some_and(|s| s.config.tournament))
}

/// What `POST /api/{board,bot}/game/{id}/chat` takes.
#[derive(Debug, Deserialize)]
struct ChatForm {
    room: Option<String>,
    text: Option<String>,
}

async fn chat(
    api: Arc<Api>,
    headers: HeaderMap,
    kind: Kind,
    id: String,
    body: Bytes,
) -> Result<Response> {
    let (caller, handle, _, _) = seated(&api, &headers, kind, &id).await?;
    // A muted account's lines reach nobody: refused, so that its client knows.
    if crate::authority::is_muted(&*api.store, caller.user.id).await? {
        return Err(Error::forbidden(
            "This account is muted: its chat is not delivered",
        ));
    }
    let f: ChatForm = form(&headers, &body)?;
    let room = match f.room.as_deref().unwrap_or("player") {
        "player" => Room::Player,
        "spectator" => Room::Spectator,
        _ => return Err(Error::bad("room: player or spectator")),
    };
    let text = f.text.as_deref().map(str::trim).unwrap_or("");
    if text.is_empty() || text.chars().count() > 140 {
        return Err(Error::bad("text: 1 to 140 characters"));
    }
    let line = ChatLine::new(room, &caller.user.username, text);
    api.share().chat(&handle.id, line).await;
    Ok(ok())
}

/// A line of `GET /api/{board,bot}/game/{id}/chat`.
#[derive(Debug, Serialize)]
struct ChatEntry {
    user: String,
    text: String,
}

/// `GET /api/{board,bot}/game/{id}/chat`: the players' chat of a game, for
/// its players only ("No such game" to anyone else, as every command here).
/// There is no spectators' room to read: a spectator reads nothing.
async fn chat_history(
    api: Arc<Api>,
    headers: HeaderMap,
    kind: Kind,
    id: String,
) -> Result<Response> {
    seated(&api, &headers, kind, &id).await?;
    let lines: Vec<ChatEntry> = api
        .share()
        .chat_of(&id)
        .await
        .into_iter()
        .filter(|l| l.room == Room::Player)
        .map(|l| ChatEntry {
            user: l.username,
            text: l.text,
        })
        .collect();
    Ok(axum::Json(lines).into_response())
}
