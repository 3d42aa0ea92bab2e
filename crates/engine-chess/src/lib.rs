//! qiyuan's built-in chess engine on shakmaty: principal-variation search with
//! iterative deepening, aspiration windows, a transposition table, null-move
//! pruning, late-move reductions, killer/history ordering, quiescence and check
//! extension, over an evaluation of our own (tapered piece-square tables,
//! mobility, king safety, pawn structure). Eight levels, from one a beginner
//! beats to the strongest.
//!
//! Pure: no I/O and no clock. The caller bounds a search with a depth, a node
//! budget and a stop flag it sets at its deadline (read every 1024 nodes), and a
//! per-iteration callback that may end the search (a soft time limit). Given the
//! same position, limits and seed, a search without a stop returns the same move.

mod eval;
mod search;
mod see;

pub use eval::evaluate;
pub use qiyuan_engine_core::{LEVELS, Level};
pub use search::{CHECK_EVERY, Info, Limits, MAX_PLY, Score, SearchResult, Searcher, hash};
pub use shakmaty;
