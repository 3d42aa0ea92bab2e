//! Duplicate events (复式) for three-seat card games: every table plays the same
//! deals ("boards"), and a player's result on a board is compared only with the
//! results of everyone who held the same seat of the same deal, so that the cards
//! cancel out and the play decides.
//!
//! - [`Schedule`]: who sits where on which board (the rotation; see its docs and
//!   `docs/card-events.md`, "Duplicate events").
//! - [`score`]: matchpoints for every seat of every hand played.
//! - [`standings`]: the players' totals, ranked.
//! - [`published`]: which boards every table has finished, the only ones whose
//!   deals, results and matchpoints may be shown to anyone.
//! - [`csv`]: the export for clubs.
//!
//! Pure: no I/O, no clock, no randomness (the deals are drawn by the server and
//! never pass through here). Knows nothing of any game's rules: a hand's result is
//! the points each seat took.

mod export;
mod schedule;
mod scoring;

pub use export::{csv, csv_standings};
pub use schedule::{
    MAX_BOARDS, MAX_PLAYERS, MIN_PLAYERS, Occupant, Schedule, ScheduleError, seating,
};
pub use scoring::{HandResult, ScoreError, SeatScore, Standing, published, score, standings};

/// Seats at every table.
pub const SEATS: usize = 3;
