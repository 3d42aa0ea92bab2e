//! qiyuan-engine-core: the parts of an alpha-beta search that do not depend on the
//! game, shared by `qiyuan-engine-chess` and `qiyuan-engine-xiangqi`. Pure: no I/O,
//! no clock.

pub mod tt;

pub use tt::{Bound, Entry, Tt};
