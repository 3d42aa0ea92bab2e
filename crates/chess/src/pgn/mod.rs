//! PGN, the chess world's record format: export ([`write()`]) and import
//! ([`read_games`]), and the table's "load" of a record or a position.

mod export;
mod import;

pub use export::write;
pub use import::{Games, ImportedGame, PgnError, PgnErrorKind, read_games};

use qiyuan_game::Setup;

use crate::parse_fen;

/// Reads a position (FEN) or a record (the first game of a PGN) into a setup and
/// the UCI moves to replay on it.
pub(crate) fn load(text: &str) -> Result<(Setup, Vec<String>), String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("nothing to load: expected a FEN or a PGN game".into());
    }
    // A FEN's first field is the board, eight ranks separated by seven slashes.
    let first = text.split_whitespace().next().unwrap_or("");
    if !text.starts_with('[') && first.matches('/').count() == 7 {
        parse_fen(text).map_err(|e| e.to_string())?;
        return Ok((Setup::Position(text.to_owned()), Vec::new()));
    }
    match read_games(text.as_bytes()).next() {
        Some(Ok(game)) if game.tags.is_empty() && game.moves.is_empty() => {
            Err("neither a FEN nor a PGN game".into())
        }
        Some(Ok(game)) => {
            let moves = game.uci_moves();
            Ok((game.setup, moves))
        }
        Some(Err(e)) => Err(e.to_string()),
        None => Err("neither a FEN nor a PGN game".into()),
    }
}
