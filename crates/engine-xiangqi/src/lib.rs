//! qiyuan's built-in xiangqi engine on qiyuan-xiangqi's move generator:
//! principal-variation search with iterative deepening, aspiration windows, a
//! transposition table, null-move pruning, late-move reductions, killer/history
//! ordering, quiescence and check extension, over xiangqi's own piece values and
//! piece-square tables. Repetitions in the tree are scored by the perpetual-check
//! rule. Eight levels, from one a beginner beats to the strongest.
//!
//! Pure: no I/O and no clock. The caller bounds a search with a depth, a node
//! budget and a stop flag it sets at its deadline (read every 1024 nodes), and a
//! per-iteration callback that may end the search. Given the same game, limits
//! and seed, a search without a stop returns the same move.

mod eval;
mod pos;
mod search;

pub use qiyuan_engine_core::{LEVELS, Level};
pub use qiyuan_xiangqi;
pub use search::{CHECK_EVERY, Info, Limits, MAX_PLY, Score, SearchResult, Searcher};
