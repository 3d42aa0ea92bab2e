//! qiyuan-xiangqi: the rules of Chinese chess (象棋) as the competition rules state
//! them — positions and legal moves, FEN, the ICCS, WXF and Chinese notations, the
//! repetition rules (perpetual check and chase), the natural move limit, records in
//! the xiangqi PGN dialect, and the game contract for the table.
//!
//! It knows nothing of clocks, players, sockets or storage: time, resignation and
//! agreement are decided at the table.

mod board;
mod chase;
mod game;
pub mod notation;
pub mod pgn;
mod position;
mod rules;
mod types;

pub use board::{Board, MoveList};
pub use game::{LastMove, Xiangqi, XiangqiView};
pub use notation::{Notation, NotationError};
pub use pgn::{PgnError, Record};
pub use position::{FenError, IllegalMove, Position, START_FEN, perft};
pub use qiyuan_game::EndReason;
pub use rules::{Ending, Options, PlayError, XiangqiGame};
pub use types::{Color, Move, Piece, Role, Square};
