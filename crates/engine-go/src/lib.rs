//! qiyuan-engine-go: a Go engine by Monte Carlo tree search, for 9x9, 13x13 and 19x19
//! under Chinese area scoring.
//!
//! UCT with RAVE and heuristic priors ([`search`]) over heavy playouts on
//! [`qiyuan_go::Board`] (captures and escapes with ladder reading, 3x3 shapes, no own
//! eye filling, few self-ataris); the tree is kept from move to move; the engine
//! passes when every point is settled or when the opponent passed and the count wins,
//! resigns when hopeless, and reports who owns each point at the end of its playouts.
//!
//! Pure: no I/O and no clock. A search runs until its playout budget is spent or the
//! caller sets a stop flag (checked between playouts); given a seed and the same
//! commands, it plays the same moves. Eight [`Level`]s go from a beginner's opponent
//! to the strongest.

mod engine;
mod level;
mod pattern;
pub mod playout;
mod search;
pub mod tactics;

pub use engine::{Analysis, Candidate, Decision, Engine, Estimate, Line, Report};
pub use level::{Level, LevelError, Settings};
pub use playout::Policy;
