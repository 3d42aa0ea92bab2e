//! qiyuan-xiangqi: the rules of Chinese chess (象棋) as the competition rules state
//! them — positions and legal moves, FEN, the ICCS, WXF and Chinese notations, the
//! repetition rules (perpetual check and chase), the natural move limit, records in
//! the xiangqi PGN dialect, and the game contract for the table.
//!
//! It knows nothing of clocks, players, sockets or storage: time, resignation and
//! agreement are decided at the table.

mod board;
mod position;
mod types;

pub use board::{Board, MoveList};
pub use position::{perft, FenError, IllegalMove, Position, START_FEN};
pub use types::{Color, Move, Piece, Role, Square};
