//! qiyuan-go: the rules of Go (weiqi) as the Chinese rules play them.
//!
//! Boards from 2x2 to 25x25 (9, 13 and 19 are usual); captures; suicide refused;
//! simple ko and positional superko; passes; fixed handicap stones; Chinese area
//! scoring with komi; the dead-stone phase after two passes (mark, accept, resume)
//! with an estimator that suggests the first marking; SGF FF[4] records; and the
//! [`qiyuan_game::Game`] contract through which a table plays it ([`Go`]).
//!
//! The board ([`Board`]) keeps chains and pseudo-liberty counts up to date move by
//! move and a Zobrist hash of the stones, so that random playouts are fast and
//! superko is a set lookup.
//!
//! This crate knows nothing of clocks, players, tables, sockets or storage: it is a
//! pure function of its options, its setup and the actions played.

mod board;
mod game;
mod handicap;
mod marking;
pub mod playout;
mod point;
mod score;
pub mod sgf;

pub use board::{Board, IllegalMove, SizeError};
pub use game::{Captures, Go, GoError, GoPhase, GoView, KoRule, MarkingView, Options};
pub use handicap::{HandicapError, fixed_handicap, max_handicap};
pub use marking::{marking_group, suggest_dead};
pub use point::{Color, MAX_SIZE, MIN_SIZE, Move, ParsePointError, Point};
pub use score::{AreaCount, Counting, Score, area};
pub use sgf::{MAX_SGF_DEPTH, MAX_SGF_MOVES, SgfError, SgfGame, TimeLeft};
