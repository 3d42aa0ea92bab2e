//! The analysis board's messages: `analyse`, the position it answers with,
//! and the engine's lines that follow (see [`crate::registry::Study`] for the
//! games' side). They are the core's, so that the wire types name no feature;
//! the analysis board itself is a feature that speaks them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

/// `analyse`: a position of a game (its options, setup and the moves from it)
/// to be shown with its legal moves, and analysed unless `think` is false.
#[derive(Debug, Clone, PartialEq, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct Analyse {
    pub game: String,
    #[serde(default)]
    #[ts(optional = nullable)]
    pub options: Value,
    #[serde(default)]
    #[ts(optional)]
    pub setup: Option<qiyuan_game::Setup>,
    #[serde(default)]
    #[ts(optional = nullable)]
    pub moves: Vec<String>,
    /// How long the engine may think, in milliseconds (default 10 s, at most 30 s).
    #[serde(default)]
    #[ts(optional)]
    pub time_ms: Option<u64>,
    /// Whether to analyse at all (false: only the position and its legal moves).
    #[serde(default = "yes")]
    #[ts(optional = nullable)]
    pub think: bool,
    /// An external engine's level key (one of the game's `bot_levels` with an
    /// `engine`) to analyse instead of the built-in engine (UCI and UCCI ones).
    #[serde(default)]
    #[ts(optional = nullable)]
    pub engine: Option<String>,
}

fn yes() -> bool {
    true
}

/// One evaluation, as the engine reports it after each finished iteration.
/// Every score is from the first seat's side (white, red, or black in Go).
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct Line {
    /// The iteration's depth in plies (Go: the search's round, each with twice
    /// the playouts of the one before).
    pub depth: u32,
    /// The evaluation in centipawns, when it is not a mate.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub cp: Option<i32>,
    /// Mate in this many moves (negative: the first seat is mated).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mate: Option<i32>,
    /// The first seat's expected score, 0 … 1.
    pub win: f32,
    /// The best move, in the game's notation.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub best: Option<String>,
    /// The best line from the position, in the game's notation (UCI, ICCS, vertices).
    pub pv: Vec<String>,
    /// The same line as players read it, in the game's display notation (SAN,
    /// Chinese notation, a vertex), up to the first move that cannot be read.
    #[serde(default)]
    pub pv_display: Vec<String>,
    /// The line in the game's further notations by name (xiangqi's `wxf`), as
    /// the replay viewer offers them.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub pv_notations: Option<BTreeMap<String, Vec<String>>>,
    /// Nodes searched (Go: playouts).
    pub nodes: u64,
    /// Go: each point's expected owner, row by row from the bottom, +1 the
    /// first seat (black), -1 the second.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub ownership: Option<Vec<f32>>,
}

impl Line {
    /// Lichess's winning chances of the first seat, -1 … 1: from centipawns as
    /// lila does (`2 / (1 + e^(-0.00368208 cp)) - 1`, cp within ±1000), ±1 for
    /// a mate, and from the expected score where there is no centipawn score (Go).
    pub fn winning_chances(&self) -> f32 {
        match (self.mate, self.cp) {
            (Some(m), _) if m > 0 => 1.0,
            (Some(_), _) => -1.0,
            (None, Some(cp)) => {
                let cp = cp.clamp(-1000, 1000) as f32;
                2.0 / (1.0 + (-0.003_682_08 * cp).exp()) - 1.0
            }
            (None, None) => 2.0 * self.win - 1.0,
        }
    }
}

/// `position`: the analysis board's position after the request's moves, with
/// the moves that can be played there.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct Position {
    pub game: String,
    /// The moves played from the setup.
    pub moves: Vec<String>,
    /// The same moves as players read them in a move list, in the game's display
    /// notation (SAN, Chinese notation, a GTP vertex).
    pub displays: Vec<String>,
    /// The seat to move (none when the game is over or several seats act).
    pub to_move: Option<u8>,
    /// The legal moves of the seat to move, in the game's notation.
    pub legal: Vec<String>,
    pub over: bool,
    /// The winner, once the game is over and won.
    pub winner: Option<u8>,
    /// Whether the engine analyses this game.
    pub analysable: bool,
    /// The game's view of the position (the FEN, the board, the moves in SAN...).
    #[ts(type = "Record<string, unknown>")]
    pub view: Value,
}

/// `analysis`: one evaluation of the position of the `analyse` request whose
/// `id` it carries; `done` on the last one.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct AnalysisMsg {
    pub line: Option<Line>,
    pub done: bool,
}
