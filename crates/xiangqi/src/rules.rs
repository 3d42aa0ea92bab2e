//! A game under the competition rules: the moves so far and how the game ended.
//!
//! Endings decided here, in this order after each move: the side to move has no
//! legal move (checkmate, or 困毙 stalemate: both lose); the third occurrence of a
//! position (perpetual check or chase loses, see [`crate::chase`]; otherwise a
//! draw; some cycles are ruled on at the second occurrence, see
//! `judge_repetition`); the natural move limit without a capture (a draw); neither side having
//! a rook, horse, cannon or soldier (a draw).

use qiyuan_game::EndReason;
use serde::{Deserialize, Serialize};

use crate::chase;
use crate::position::{FenError, IllegalMove, Position};
use crate::types::{Color, Move};

/// Rule options chosen at the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Options {
    /// The natural move limit: full moves (each side one move) without a capture
    /// after which the game is drawn. The competition rules say 40; the Chinese
    /// Xiangqi Association's 2011 rules say 60. `0` turns the limit off.
    pub move_limit: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options { move_limit: 40 }
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Ending {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    pub reason: EndReason,
    /// The ply (1 = the first move played) on which it ended.
    pub ply: usize,
}

impl Ending {
    /// `red`, `black` or `draw`.
    pub fn result_word(&self) -> &'static str {
        match self.winner {
            Some(c) => c.as_str(),
            None => "draw",
        }
    }
    /// The PGN result: `1-0`, `0-1`, `1/2-1/2`.
    pub fn score(&self) -> &'static str {
        match self.winner {
            Some(Color::Red) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

/// Why a move was not played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
    #[error("the game is over")]
    GameOver,
}

/// A game: a start position, the moves played, and the ending once there is one.
#[derive(Debug, Clone)]
pub struct XiangqiGame {
    options: Options,
    start: Position,
    pos: Position,
    moves: Vec<Move>,
    /// Position hashes: `hashes[0]` of the start, `hashes[k]` after `k` moves.
    hashes: Vec<u64>,
    ending: Option<Ending>,
}

impl XiangqiGame {
    /// A game from the start position.
    pub fn new(options: Options) -> XiangqiGame {
        Self::from_position(options, Position::new())
    }

    /// A game from a set-up position. It may already be over (no legal move).
    pub fn from_position(options: Options, start: Position) -> XiangqiGame {
        let mut g = XiangqiGame {
            options,
            hashes: vec![start.hash()],
            pos: start.clone(),
            start,
            moves: Vec::new(),
            ending: None,
        };
        g.ending = g.judge();
        g
    }

    pub fn from_fen(options: Options, fen: &str) -> Result<XiangqiGame, FenError> {
        Ok(Self::from_position(options, Position::from_fen(fen)?))
    }

    pub fn options(&self) -> &Options {
        &self.options
    }
    pub fn start(&self) -> &Position {
        &self.start
    }
    pub fn position(&self) -> &Position {
        &self.pos
    }
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }
    pub fn ending(&self) -> Option<Ending> {
        self.ending
    }

    /// Plays a legal move; refused once the game is over.
    pub fn play(&mut self, m: Move) -> Result<(), PlayError> {
        if self.ending.is_some() {
            return Err(PlayError::GameOver);
        }
        self.pos.play(m)?;
        self.moves.push(m);
        self.hashes.push(self.pos.hash());
        self.ending = self.judge();
        Ok(())
    }

    fn judge(&self) -> Option<Ending> {
        let ply = self.moves.len();
        let mover = self.pos.turn();
        if !self.pos.has_legal_move() {
            let reason = if self.pos.is_check() {
                EndReason::Checkmate
            } else {
                EndReason::Stalemate
            };
            return Some(Ending {
                winner: Some(mover.other()),
                reason,
                ply,
            });
        }
        if let Some(e) = self.judge_repetition() {
            return Some(e);
        }
        let limit = self.options.move_limit as usize;
        if limit > 0 && self.pos.halfmoves() as usize >= 2 * limit {
            return Some(Ending {
                winner: None,
                reason: EndReason::MoveLimit,
                ply,
            });
        }
        if self.pos.insufficient_material() {
            return Some(Ending {
                winner: None,
                reason: EndReason::InsufficientMaterial,
                ply,
            });
        }
        None
    }

    /// Judges a repeated position: see [`crate::chase`] for the forcing moves.
    ///
    /// When the current position has occurred before (since the last capture),
    /// the moves since its first occurrence are judged. A side that checked with
    /// every move, or chased one and the same piece with every move, is forcing.
    /// On the third occurrence the game ends: the one forcing side loses (a
    /// perpetual checker loses even against a perpetual chaser); with both or
    /// neither forcing it is a draw. On the second occurrence the game ends only
    /// as a draw, and only when neither side is forcing but one attacked with
    /// every move of the cycle (it chased different pieces in turn): the WXF
    /// rulebook's diagrams 78 and 80 judge those cycles drawn at once (the
    /// reference data ends diagram 78 after the second occurrence). A side that
    /// chases one piece with two or more pieces taking turns (AXF rule 33,
    /// diagrams 81 and 82) also loses on the second occurrence: the rulebook
    /// rules on such a cycle as soon as its positions recur.
    fn judge_repetition(&self) -> Option<Ending> {
        let n = self.moves.len();
        let window = (self.pos.halfmoves() as usize).min(n);
        let now = self.hashes[n];
        let mut seen = 0;
        let mut first = n;
        // Only positions with the same side to move can be equal: step by two.
        let mut k = n;
        loop {
            if self.hashes[k] == now {
                seen += 1;
                first = k;
            }
            if k < 2 || k - 2 < n - window {
                break;
            }
            k -= 2;
        }
        if seen < 2 {
            return None;
        }
        let mut start = self.start.clone();
        for &m in &self.moves[..first] {
            start.play_unchecked(m);
        }
        let forcing = chase::judge_cycle(start.board(), &self.moves[first..]);
        let verdict = chase::verdict(forcing);
        let forcing_side = forcing
            .iter()
            .any(|f| f.perpetual_check || f.perpetual_chase);
        let attacking_side = forcing.iter().any(|f| f.always_attacking);
        // Pieces taking turns to chase one piece: ruled on as soon as the cycle
        // recurs.
        let turns_lose =
            matches!(verdict, Some((loser, false)) if forcing[loser as usize].taking_turns);
        if seen == 2 && !turns_lose && (forcing_side || !attacking_side) {
            return None;
        }
        Some(match verdict {
            Some((loser, by_check)) => Ending {
                winner: Some(loser.other()),
                reason: if by_check {
                    EndReason::PerpetualCheck
                } else {
                    EndReason::PerpetualChase
                },
                ply: n,
            },
            None => Ending {
                winner: None,
                reason: EndReason::Repetition,
                ply: n,
            },
        })
    }
}
