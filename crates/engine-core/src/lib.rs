//! qiyuan-engine-core: the parts of an alpha-beta engine that do not depend on the
//! game, shared by `qiyuan-engine-chess` and `qiyuan-engine-xiangqi`: the search
//! itself (generic over a [`SearchPosition`]), the transposition table, the eight
//! levels and the reported score. Pure: no I/O, no clock.

pub mod level;
pub mod score;
pub mod search;
pub mod tt;

pub use level::{FromLevel, LEVELS, Level, MAX_PLY};
pub use score::{MATE, MATE_BOUND, Score, expected_of_cp};
pub use search::{
    CHECK_EVERY, INF, Info, PERPETUAL, Params, SearchLimits, SearchPosition, SearchResult,
    Searcher, SplitMix,
};
pub use tt::{Bound, Entry, Tt};
