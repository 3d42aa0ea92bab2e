//! The eight levels: how many playouts a move gets, how it picks among the searched
//! moves, and how long the protocol shell lets it think at most.

use crate::playout::Policy;

/// A strength level, 1 (a beginner beats it) to 8 (the strongest).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

/// A level outside 1..=8.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a Go engine level is 1 to 8, not {0}")]
pub struct LevelError(pub u32);

impl Level {
    pub const MIN: Level = Level(1);
    pub const MAX: Level = Level(8);

    pub fn new(n: u32) -> Result<Level, LevelError> {
        match u8::try_from(n) {
            Ok(k @ 1..=8) => Ok(Level(k)),
            _ => Err(LevelError(n)),
        }
    }

    pub fn number(self) -> u8 {
        self.0
    }

    /// The search settings of this level.
    pub fn settings(self) -> Settings {
        // (playouts per move, temperature, heavy playouts, seconds at most)
        let (playouts, temperature, heavy, max_seconds) = match self.0 {
            1 => (30, 1.0, false, 1.0),
            2 => (100, 0.7, false, 1.0),
            3 => (250, 0.5, true, 2.0),
            4 => (600, 0.3, true, 3.0),
            5 => (1_500, 0.1, true, 5.0),
            6 => (3_000, 0.0, true, 8.0),
            7 => (6_000, 0.0, true, 10.0),
            _ => (12_000, 0.0, true, 15.0),
        };
        Settings {
            playouts,
            policy: if heavy { Policy::HEAVY } else { Policy::LIGHT },
            temperature,
            resign_below: if self.0 >= 3 { Some(0.08) } else { None },
            max_seconds,
        }
    }
}

/// How one search runs and decides.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// Simulations per move (those kept from the previous move's tree count).
    pub playouts: u64,
    /// How playouts choose their moves.
    pub policy: Policy,
    /// 0 plays the most visited move; above 0 picks a move with probability
    /// proportional to visits^(1/temperature), so weaker levels vary and err.
    pub temperature: f64,
    /// Resign when the best move's win rate falls below this (None: never).
    pub resign_below: Option<f32>,
    /// The longest the protocol shell lets a move think, in seconds, whatever the
    /// clock allows (the engine itself has no clock: the shell sets the stop flag).
    pub max_seconds: f64,
}
