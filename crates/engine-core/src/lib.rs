//! qiyuan-engine-core: the parts of an alpha-beta search that do not depend on the
//! game, shared by `qiyuan-engine-chess` and `qiyuan-engine-xiangqi`: the
//! transposition table, the eight levels and the reported score. Pure: no I/O, no clock.

pub mod level;
pub mod score;
pub mod tt;

pub use level::{FromLevel, LEVELS, Level, MAX_PLY};
pub use score::{MATE, MATE_BOUND, Score, expected_of_cp};
pub use tt::{Bound, Entry, Tt};
