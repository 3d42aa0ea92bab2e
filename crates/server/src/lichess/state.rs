//! A live game as Lichess shows it, from its table's typed feed
//! ([`crate::live::watch::Update`]): `gameFull` and `gameState`, the players,
//! the variant, the clock and speed, the status and winner; and moves between
//! the game's notation and the API's (Fairy-Stockfish's xiangqi ranks).

use qiyuan_game::{EndReason, Outcome, Seat, SeatResult};
use qiyuan_table::TimeControl;
use serde::Serialize;

use crate::live::watch::{GameFacts, Update};
use crate::registry::ApiVariant;

/// A seat as Lichess names it (seat 0 plays white, as red does in xiangqi).
pub(super) fn color(seat: usize) -> &'static str {
    if seat == 0 { "white" } else { "black" }
}

/// A built-in engine's seat: its level's key (`bot:3-…` → `3`), or `None`
/// for anyone else.
pub(super) fn engine_level(player: &str) -> Option<&str> {
    match crate::live::Occupant::of(player) {
        crate::live::Occupant::Computer { level } => Some(level.unwrap_or("")),
        _ => None,
    }
}

/// Moves the ranks of a coordinate move (`h2e2`, `e7e8q`) by `offset`: the
/// game's canonical move to the API's (`up`) or back.
fn shift_ranks(mv: &str, offset: u8, up: bool) -> Option<String> {
    if offset == 0 {
        return Some(mv.to_string());
    }
    let b = mv.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    let mut squares = 0;
    while i < b.len() {
        if !b[i].is_ascii_lowercase() {
            return None;
        }
        out.push(b[i] as char);
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if start == i {
            // A promotion letter (chess), never shifted.
            continue;
        }
        let rank: i32 = mv.get(start..i)?.parse().ok()?;
        let rank = if up {
            rank + offset as i32
        } else {
            rank - offset as i32
        };
        if rank < 0 {
            return None;
        }
        out.push_str(&rank.to_string());
        squares += 1;
    }
    (squares == 2).then_some(out)
}

pub(super) fn to_api(mv: &str, v: &ApiVariant) -> String {
    shift_ranks(mv, v.rank_offset, true).unwrap_or_else(|| mv.to_string())
}

pub(super) fn from_api(mv: &str, v: &ApiVariant) -> Option<String> {
    shift_ranks(mv, v.rank_offset, false)
}

/// Lichess's `variant` of a game.
#[derive(Debug, Clone, Serialize)]
pub(super) struct Variant {
    pub key: &'static str,
    pub name: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub short: Option<&'static str>,
}

impl Variant {
    /// With its `short` name (game streams and challenges).
    pub(super) fn of(v: &ApiVariant) -> Variant {
        Variant {
            key: v.key,
            name: v.name,
            short: Some(v.short),
        }
    }

    /// Without it (the event stream's games).
    pub(super) fn brief(v: &ApiVariant) -> Variant {
        Variant {
            short: None,
            ..Variant::of(v)
        }
    }
}

/// Lichess's speed name of a time control.
pub(super) fn speed_of(time: &TimeControl) -> &'static str {
    match time.speed().as_str() {
        "ultrabullet" => "ultraBullet",
        s => s,
    }
}

/// Capitalised, as Lichess's `perf.name`.
fn perf_name(speed: &str) -> String {
    let mut c = speed.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// Lichess's `perf` of a game.
#[derive(Debug, Clone, Serialize)]
pub(super) struct Perf {
    pub name: String,
}

/// A real-time game's `clock` in `gameFull` (milliseconds).
#[derive(Debug, Clone, Serialize)]
struct Clock {
    initial: u64,
    increment: u64,
}

/// Lichess's status and winner of a game's outcome (`started` while none).
pub(super) fn status_of(outcome: Option<&Outcome>) -> (&'static str, Option<&'static str>) {
    let Some(outcome) = outcome else {
        return ("started", None);
    };
    let winner = outcome
        .results
        .iter()
        .position(|r| *r == SeatResult::Win)
        .map(color);
    (status_name(outcome.reason, winner.is_some()), winner)
}

/// Lichess's status of a game ended for `reason`, won by someone or not.
pub(super) fn status_name(reason: EndReason, won: bool) -> &'static str {
    match reason {
        EndReason::Checkmate => "mate",
        EndReason::Stalemate => "stalemate",
        EndReason::Resignation => "resign",
        EndReason::Timeout => "outoftime",
        EndReason::Escape => "timeout",
        EndReason::Aborted => "aborted",
        _ if won => "variantEnd",
        _ => "draw",
    }
}

/// The time Lichess shows for a seat without a clock.
const NO_CLOCK: u64 = 2_147_483_647;

/// Lichess's `gameState`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(super) struct GameState {
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The moves in the API's notation, separated by spaces.
    pub moves: String,
    pub wtime: u64,
    pub btime: u64,
    pub winc: u64,
    pub binc: u64,
    pub status: &'static str,
    pub wdraw: bool,
    pub bdraw: bool,
    pub wtakeback: bool,
    pub btakeback: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<&'static str>,
}

impl GameState {
    pub(super) fn of(game: &GameFacts, v: &ApiVariant) -> GameState {
        let moves: Vec<String> = game.moves.iter().map(|m| to_api(&m.action, v)).collect();
        let timed = !matches!(
            game.time,
            TimeControl::None | TimeControl::Correspondence { .. }
        );
        let time = |seat: usize| match timed {
            true => game.clocks.get(seat).copied().unwrap_or(0),
            false => NO_CLOCK,
        };
        let inc = match game.time {
            TimeControl::Fischer { increment, .. } => increment,
            _ => 0,
        };
        let (status, winner) = status_of(game.outcome.as_ref());
        let by = |offer: Option<Seat>, seat: u8| offer == Some(Seat(seat));
        GameState {
            kind: "gameState",
            moves: moves.join(" "),
            wtime: time(0),
            btime: time(1),
            winc: inc,
            binc: inc,
            status,
            wdraw: by(game.draw_offer, 0),
            bdraw: by(game.draw_offer, 1),
            wtakeback: by(game.takeback_request, 0),
            btakeback: by(game.takeback_request, 1),
            winner,
        }
    }

    /// Whether a client would read anything new in `self` after `before`: the
    /// clocks alone change with every update.
    pub(super) fn changed_from(&self, before: &GameState) -> bool {
        let key = |s: &GameState| {
            (
                s.moves.clone(),
                s.status,
                s.winner,
                [s.wdraw, s.bdraw, s.wtakeback, s.btakeback],
            )
        };
        key(self) != key(before)
    }
}

/// A player as `gameFull` names them.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub(super) enum GamePlayer {
    /// A built-in engine, by level (an engine named otherwise plays as level 8).
    Engine {
        #[serde(rename = "aiLevel")]
        ai_level: u32,
        #[serde(skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
    /// An account (rated in the game's pool, `BOT` for bot accounts), or a
    /// name the store does not know.
    Account {
        id: String,
        name: String,
        title: Option<&'static str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        rating: Option<i64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        provisional: Option<bool>,
    },
}

/// Lichess's `gameFull`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct GameFull {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub id: String,
    pub variant: Variant,
    pub speed: &'static str,
    pub perf: Perf,
    pub rated: bool,
    pub created_at: u64,
    pub white: GamePlayer,
    pub black: GamePlayer,
    pub initial_fen: String,
    pub state: GameState,
    #[serde(skip_serializing_if = "Option::is_none")]
    clock: Option<Clock>,
    #[serde(skip_serializing_if = "Option::is_none")]
    days_per_turn: Option<u32>,
}

impl GameFull {
    /// The game of `update` (which has one), its players as given.
    pub(super) fn of(
        update: &Update,
        game: &GameFacts,
        v: &ApiVariant,
        [white, black]: [GamePlayer; 2],
    ) -> GameFull {
        let speed = speed_of(&game.time);
        let (clock, days_per_turn) = match game.time {
            TimeControl::Fischer { base, increment } => (
                Some(Clock {
                    initial: base,
                    increment,
                }),
                None,
            ),
            TimeControl::Correspondence { days } => (None, Some(days)),
            _ => (None, None),
        };
        GameFull {
            kind: "gameFull",
            id: update.table.clone(),
            variant: Variant::of(v),
            speed,
            perf: Perf {
                name: perf_name(speed),
            },
            rated: game.rated,
            created_at: update.at,
            white,
            black,
            initial_fen: game.start_fen.clone().unwrap_or_else(|| "startpos".into()),
            state: GameState::of(game, v),
            clock,
            days_per_turn,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::watch::Played;

    #[test]
    fn a_game_state_is_lichess_s() {
        let xiangqi = ApiVariant {
            key: "xiangqi",
            name: "Xiangqi",
            short: "Xiangqi",
            rank_offset: 1,
        };
        let mut game = GameFacts {
            number: 1,
            players: vec!["ann".into(), "bob".into()],
            moves: vec![Played {
                seat: Seat(0),
                action: "h2e2".into(),
            }],
            time: TimeControl::Fischer {
                base: 60_000,
                increment: 2_000,
            },
            rated: false,
            started_at: 0,
            clocks: vec![59_000, 60_000],
            running: Some(1),
            to_act: Some(Seat(1)),
            draw_offer: Some(Seat(1)),
            takeback_request: None,
            outcome: None,
            fen: None,
            start_fen: None,
        };
        let state = GameState::of(&game, &xiangqi);
        assert_eq!(
            serde_json::to_string(&state).unwrap(),
            r#"{"type":"gameState","moves":"h3e3","wtime":59000,"btime":60000,"winc":2000,"binc":2000,"status":"started","wdraw":false,"bdraw":true,"wtakeback":false,"btakeback":false}"#
        );
        game.clocks = vec![58_000, 60_000];
        assert!(!GameState::of(&game, &xiangqi).changed_from(&state));
        game.outcome = Some(Outcome::win(2, Seat(1), EndReason::Resignation, "0-1"));
        let over = GameState::of(&game, &xiangqi);
        assert!(over.changed_from(&state));
        assert_eq!((over.status, over.winner), ("resign", Some("black")));
        game.time = TimeControl::None;
        assert_eq!(GameState::of(&game, &xiangqi).wtime, NO_CLOCK);
    }

    #[test]
    fn outcomes_are_lichess_statuses() {
        let escape = Outcome::win(2, Seat(0), EndReason::Escape, "1-0");
        assert_eq!(status_of(Some(&escape)), ("timeout", Some("white")));
        let agreed = Outcome::draw(2, EndReason::Agreement, "1/2-1/2");
        assert_eq!(status_of(Some(&agreed)), ("draw", None));
        let perpetual = Outcome::win(2, Seat(1), EndReason::PerpetualCheck, "0-1");
        assert_eq!(status_of(Some(&perpetual)).0, "variantEnd");
        assert_eq!(status_of(Some(&Outcome::aborted(2))).0, "aborted");
    }

    #[test]
    fn ranks_move_by_the_offset() {
        assert_eq!(shift_ranks("h2e2", 1, true).as_deref(), Some("h3e3"));
        assert_eq!(shift_ranks("b9c7", 1, true).as_deref(), Some("b10c8"));
        assert_eq!(shift_ranks("b10c8", 1, false).as_deref(), Some("b9c7"));
        assert_eq!(shift_ranks("e7e8q", 0, false).as_deref(), Some("e7e8q"));
        assert_eq!(shift_ranks("a0a1", 1, false), None);
        assert_eq!(shift_ranks("zz", 1, false), None);
        assert_eq!(shift_ranks("h3", 1, false), None);
    }
}
