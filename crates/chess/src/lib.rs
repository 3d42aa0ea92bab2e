//! International chess for qiyuan, under the FIDE Laws of Chess, on top of
//! [shakmaty]'s move generation.
//!
//! [`ChessGame`] implements the table's [`qiyuan_game::Game`] contract: moves are
//! accepted in UCI (`e2e4`, `e7e8q`) or SAN (`Nf3`, `O-O`, `exd6`), UCI is the
//! canonical form the table logs, SAN is what players read. Every ending of the Laws
//! is decided here: checkmate, stalemate, dead positions by insufficient material,
//! fivefold repetition and seventy-five moves (automatic), threefold repetition and
//! fifty moves (claims of the player to move), and what a flag fall means when the
//! opponent cannot mate at all ([`can_checkmate`]). One option departs from the
//! Laws, and is the default, as the hall's players know it: the threefold
//! repetition draws by itself ([`Repetition::Automatic`]); FIDE's claim is
//! [`Repetition::Claim`].
//!
//! Records: FEN in and out, PGN export with `[%clk]` comments ([`pgn::write`]) and a
//! streaming PGN import for real-world files ([`pgn::read_games`]). [`perft()`] counts
//! move paths for testing move generation.
//!
//! This crate knows nothing of clocks, users, tables, sockets or files: time arrives
//! as numbers in [`qiyuan_game::RecordMeta`], records as text or any [`std::io::Read`].

mod endings;
mod error;
mod game;
mod notation;
mod perft;
pub mod pgn;
pub mod sample;

pub use endings::can_checkmate;
pub use error::FenError;
pub use game::{ChessGame, ChessOptions, ChessView, PlayedMove, Repetition};
pub use notation::{MoveError, parse_fen, parse_move};
pub use perft::{divide, perft};

/// shakmaty, re-exported so that callers name the same types this crate uses.
pub use shakmaty;
