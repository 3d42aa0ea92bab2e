//! The eight levels of the alpha-beta engines (chess and xiangqi play the same
//! table): what limits each puts on a search. `docs/engines.md` holds the same
//! table with each level's measured strength.

/// The deepest search the engines go to, in plies.
pub const MAX_PLY: usize = 100;

/// One level's limits. The time cap is the caller's (a pure search has no clock):
/// the protocol front end never thinks longer than `movetime_ms` at this level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Level {
    /// 1 (weakest) ..= 8 (strongest).
    pub number: u8,
    /// Deepest iteration in plies.
    pub depth: u32,
    /// Node budget per move.
    pub nodes: u64,
    /// Root noise in the engine's evaluation units: centipawns in chess, points in
    /// xiangqi (a soldier is 30).
    pub noise: i32,
    /// Longest think per move, milliseconds; `None`: only the game clock.
    pub movetime_ms: Option<u64>,
}

pub const LEVELS: [Level; 8] = [
    Level {
        number: 1,
        depth: 1,
        nodes: 5_000,
        noise: 900,
        movetime_ms: Some(100),
    },
    Level {
        number: 2,
        depth: 1,
        nodes: 5_000,
        noise: 450,
        movetime_ms: Some(100),
    },
    Level {
        number: 3,
        depth: 2,
        nodes: 20_000,
        noise: 250,
        movetime_ms: Some(200),
    },
    Level {
        number: 4,
        depth: 3,
        nodes: 50_000,
        noise: 140,
        movetime_ms: Some(300),
    },
    Level {
        number: 5,
        depth: 4,
        nodes: 100_000,
        noise: 70,
        movetime_ms: Some(500),
    },
    Level {
        number: 6,
        depth: 6,
        nodes: 200_000,
        noise: 25,
        movetime_ms: Some(1_000),
    },
    Level {
        number: 7,
        depth: MAX_PLY as u32 - 1,
        nodes: 1_000_000,
        noise: 0,
        movetime_ms: Some(2_000),
    },
    Level {
        number: 8,
        depth: MAX_PLY as u32 - 1,
        nodes: u64::MAX,
        noise: 0,
        movetime_ms: None,
    },
];

impl Level {
    /// Level `n`, clamped to 1..=8.
    pub fn get(n: u8) -> Level {
        LEVELS[(n.clamp(1, 8) - 1) as usize]
    }

    /// The search limits of this level for an engine, with a seed for its noise.
    pub fn limits<L: FromLevel>(&self, seed: u64) -> L {
        L::from_level(self, seed)
    }
}

/// An engine's search limits, made from a level.
pub trait FromLevel {
    fn from_level(level: &Level, seed: u64) -> Self;
}
