//! Typed errors for positions given as text.

use shakmaty::{Chess, PositionError, fen::ParseFenError};

/// A FEN that cannot start a game: either not FEN at all, or a position that
/// cannot occur in chess (no king, pawns on the back rank, the side not to move in
/// check, castling rights without the pieces, ...).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The text is not FEN.
    #[error("not a FEN ({reason}): {fen:?}")]
    Syntax { fen: String, reason: String },
    /// The FEN is well formed but describes an illegal position.
    #[error("{reason}: {fen:?}")]
    Illegal { fen: String, reason: String },
}

impl FenError {
    pub(crate) fn syntax(fen: &str, err: &ParseFenError) -> Self {
        FenError::Syntax {
            fen: shorten(fen),
            reason: err.to_string(),
        }
    }

    pub(crate) fn illegal(fen: &str, err: &PositionError<Chess>) -> Self {
        FenError::Illegal {
            fen: shorten(fen),
            reason: err.to_string(),
        }
    }
}

/// Error messages quote the input; a pasted megabyte should not become one.
fn shorten(text: &str) -> String {
    const MAX: usize = 120;
    if text.len() <= MAX {
        return text.to_owned();
    }
    let mut end = MAX;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}
