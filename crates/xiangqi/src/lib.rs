//! qiyuan-xiangqi: the rules of Chinese chess (象棋) as the competition rules state
//! them — positions and legal moves, FEN, the ICCS, WXF and Chinese notations, the
//! repetition rules (perpetual check and chase), the natural move limit, records in
//! the xiangqi PGN dialect, and the game contract for the table.
//!
//! It knows nothing of clocks, players, sockets or storage: time, resignation and
//! agreement are decided at the table.
//!
//! ```
//! use qiyuan_xiangqi::{notation, Options, Position, XiangqiGame};
//!
//! let pos = Position::new();
//! assert_eq!(pos.perft(2), 1920);
//! let m = notation::parse_any(&pos, "炮二平五").unwrap();
//! assert_eq!((m.to_string(), notation::format_wxf(&pos, m)), ("h2e2".into(), "C2=5".into()));
//!
//! let mut game = XiangqiGame::new(Options::default());
//! game.play(m).unwrap();
//! assert!(game.ending().is_none());
//! ```

mod board;
mod chase;
mod game;
pub mod notation;
pub mod pgn;
mod position;
mod rules;
mod types;

pub use board::{Board, MoveList, Undo};
pub use game::{LastMove, Xiangqi, XiangqiView};
pub use notation::{Notation, NotationError};
pub use pgn::{PgnError, Record};
pub use position::{FenError, IllegalMove, Position, START_FEN, perft};
pub use qiyuan_game::EndReason;
pub use rules::{Ending, Options, PlayError, XiangqiGame};
pub use types::{Color, Move, Piece, Role, Square};
