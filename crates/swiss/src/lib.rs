//! qiyuan-swiss: Swiss tournaments — the tournament model, FIDE Dutch system
//! pairing (C.04.3, by weighted maximum matching), FIDE tiebreaks (C.07) and the
//! TRF-16 file format.
//!
//! It is pure: it knows nothing of games, boards, the server, storage or time.
//! A tournament goes in as a value (usually read from a TRF file) and pairings
//! and standings come out as values.

// The pairing works on vertex numbers that index several tables at once.
#![allow(clippy::needless_range_loop)]

pub mod dutch;
pub mod model;
pub mod simulate;
pub mod tiebreak;
pub mod trf;

pub use dutch::{PairError, Pairing, pair};
pub use model::{Colour, Player, ResultCode, RoundEntry, Scoring, Tournament};
