//! `GET /api/stream/game/{id}`: any game at a live table, as its spectators
//! follow it on Lichess — first the game (`id`, `variant`, `players`,
//! `status`, `fen`, …), then a line per move (`fen`, `lm`, `wc`, `bc`), the
//! game again after a takeback, and once more when it ends. No authentication: chess and xiangqi show
//! everything to everyone; a private table (单机) shows itself to its owner
//! alone (their token or session).

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use serde::Serialize;

use super::Api;
use super::feed::Following;
use super::games::variant_of;
use super::players::Players;
use super::state::{GamePlayer, Variant, color, speed_of, status_of, to_api};
use super::stream::{Error, Lines, Result, keepalive, ndjson};
use crate::live::watch::{GameFacts, Update};
use crate::registry::ApiVariant;

/// Lichess's status of a game, with its number.
#[derive(Debug, Clone, Serialize)]
struct StatusJson {
    id: u16,
    name: &'static str,
}

/// Lichess's number of a status name.
fn status_id(name: &str) -> u16 {
    match name {
        "created" => 10,
        "started" => 20,
        "aborted" => 25,
        "mate" => 30,
        "resign" => 31,
        "stalemate" => 32,
        "timeout" => 33,
        "draw" => 34,
        "outoftime" => 35,
        "variantEnd" => 60,
        _ => 38,
    }
}

/// An account as a spectator's stream names it.
#[derive(Debug, Clone, Serialize)]
struct LightUser {
    name: String,
    id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'static str>,
}

/// A player of the game: an account and its rating, or a built-in engine.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
enum PlayerJson {
    Account {
        user: LightUser,
        #[serde(skip_serializing_if = "Option::is_none")]
        rating: Option<i64>,
    },
    Engine {
        #[serde(rename = "aiLevel")]
        ai_level: u32,
    },
}

impl From<GamePlayer> for PlayerJson {
    fn from(p: GamePlayer) -> Self {
        match p {
            GamePlayer::Engine { ai_level, .. } => PlayerJson::Engine { ai_level },
            GamePlayer::Account {
                id,
                name,
                title,
                rating,
                ..
            } => PlayerJson::Account {
                user: LightUser { name, id, title },
                rating,
            },
        }
    }
}

/// The game, as the stream's first line (and its last, once over).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
struct GameLine {
    id: String,
    variant: Variant,
    speed: &'static str,
    perf: &'static str,
    rated: bool,
    initial_fen: String,
    fen: String,
    /// The side to move.
    player: &'static str,
    turns: usize,
    started_at_turn: usize,
    status: StatusJson,
    created_at: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    last_move: Option<String>,
    players: BTreeMap<&'static str, PlayerJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    winner: Option<&'static str>,
}

/// A move: the position after it (board and side to move), the move, and
/// the clocks in seconds.
#[derive(Debug, Clone, Serialize)]
struct MoveLine {
    fen: String,
    lm: String,
    wc: u64,
    bc: u64,
}

/// The side to move of a game (the seat to act; else from the moves played).
fn to_move(game: &GameFacts) -> &'static str {
    match game.to_act {
        Some(seat) => color(seat.index()),
        None => color(game.moves.len() % 2),
    }
}

/// The board and side to move of a FEN (what Lichess's move lines carry).
fn board_and_side(fen: &str) -> String {
    fen.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
}

struct Watch<'a> {
    players: Players<'a>,
    variant: ApiVariant,
}

impl Watch<'_> {
    async fn game_line(&self, update: &Update, game: &GameFacts) -> GameLine {
        let time = &game.time;
        let name = |seat: usize| game.players.get(seat).map_or("", String::as_str);
        let mut players = BTreeMap::new();
        for seat in 0..2 {
            let p = self.players.in_game(name(seat), &update.game_name, time);
            players.insert(color(seat), PlayerJson::from(p.await));
        }
        let (status, winner) = status_of(game.outcome.as_ref());
        let speed = speed_of(time);
        GameLine {
            id: update.table.clone(),
            variant: Variant::of(&self.variant),
            speed,
            perf: speed,
            rated: game.rated,
            initial_fen: game.start_fen.clone().unwrap_or_else(|| "startpos".into()),
            fen: game.fen.clone().unwrap_or_default(),
            player: to_move(game),
            turns: game.moves.len(),
            started_at_turn: 0,
            status: StatusJson {
                id: status_id(status),
                name: status,
            },
            created_at: game.started_at,
            last_move: game.moves.last().map(|m| to_api(&m.action, &self.variant)),
            players,
            winner,
        }
    }

    fn move_line(&self, game: &GameFacts) -> Option<MoveLine> {
        let last = game.moves.last()?;
        let secs = |seat: usize| game.clocks.get(seat).copied().unwrap_or(0) / 1000;
        Some(MoveLine {
            fen: board_and_side(game.fen.as_deref().unwrap_or("")),
            lm: to_api(&last.action, &self.variant),
            wc: secs(0),
            bc: secs(1),
        })
    }

    /// The game's lines until it ends or the client goes: the game, each
    /// move, and the game again at its end.
    async fn run(
        &self,
        first: Update,
        mut following: Following,
        lines: Lines,
        every: std::time::Duration,
    ) {
        let mut beat = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
        // (game number, moves sent)
        let mut sent: Option<(u32, usize)> = None;
        let mut next = Some(first);
        loop {
            if let Some(update) = next.take() {
                let Some(game) = &update.game else {
                    next = None;
                    continue;
                };
                // A new move: its line; moves taken back (or a new game of
                // the table): the game again, as it now stands.
                let ok = match sent {
                    Some((number, n)) if number == game.number && game.moves.len() >= n => {
                        match self.move_line(game).filter(|_| game.moves.len() > n) {
                            Some(line) => lines.send(&line).await,
                            None => true,
                        }
                    }
                    _ => lines.send(&self.game_line(&update, game).await).await,
                };
                if !ok {
                    break;
                }
                if game.outcome.is_some() {
                    if sent.is_some_and(|(number, _)| number == game.number) {
                        let _ = lines.send(&self.game_line(&update, game).await).await;
                    }
                    break;
                }
                sent = Some((game.number, game.moves.len()));
                continue;
            }
            tokio::select! {
                update = following.next() => match update {
                    Some(update) => next = Some(update),
                    None => break,
                },
                _ = beat.tick() => {
                    if !lines.keepalive().await {
                        break;
                    }
                }
                _ = lines.closed() => break,
            }
        }
        following.stop().await;
    }
}

/// `GET /api/stream/game/{id}`.
pub async fn stream_game(
    State(api): State<Arc<Api>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response> {
    // A token is optional: it admits its owner to their private table.
    let user = match crate::auth::token_from_headers(&headers) {
        Some(_) => Some(api.caller(&headers).await?.info()),
        None => None,
    };
    let handle = api.table(&id).await?;
    let variant =
        variant_of(&api.games, handle.game).ok_or_else(|| Error::not_found("No such game"))?;
    let mut following = Following::start(&handle, user, false).await?;
    let Some(first) = following.next().await else {
        following.stop().await;
        return Err(Error::not_found("No such game"));
    };
    if first.game.is_none() {
        following.stop().await;
        return Err(Error::not_found("No such game"));
    }
    Ok(ndjson(move |lines| async move {
        let watch = Watch {
            players: api.players(),
            variant,
        };
        watch
            .run(first, following, lines, keepalive(&api.config))
            .await
    }))
}

#[cfg(test)]
mod tests {
    #[test]
    fn statuses_have_lichess_s_numbers() {
        assert_eq!(super::status_id("started"), 20);
        assert_eq!(super::status_id("mate"), 30);
        assert_eq!(super::status_id("variantEnd"), 60);
        assert_eq!(
            super::board_and_side("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b"
        );
    }
}
