//! qiyuan-engine-core: the parts of an alpha-beta search that do not depend on the
//! game, shared by `qiyuan-engine-chess` and `qiyuan-engine-xiangqi`: the
//! transposition table and the eight levels. Pure: no I/O, no clock.

pub mod level;
pub mod tt;

pub use level::{FromLevel, LEVELS, Level, MAX_PLY};
pub use tt::{Bound, Entry, Tt};
