//! ICCS coordinates (`h2e2`; `h2-e2` and upper case accepted on input).

use super::NotationError;
use crate::position::Position;
use crate::types::{Move, Square};

/// Reads an ICCS move and checks that it is legal.
pub fn parse_iccs(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let m = parse_iccs_unchecked(text)?;
    if pos.is_legal(m) {
        Ok(m)
    } else {
        Err(NotationError::Illegal(text.to_string()))
    }
}

/// Reads an ICCS move without a position.
pub fn parse_iccs_unchecked(text: &str) -> Result<Move, NotationError> {
    let b = text.trim().as_bytes();
    let (from, to) = match b {
        [a, b, c, d] => ([*a, *b], [*c, *d]),
        [a, b, b'-', c, d] => ([*a, *b], [*c, *d]),
        _ => return Err(NotationError::Malformed(text.to_string())),
    };
    match (Square::from_ascii(&from), Square::from_ascii(&to)) {
        (Some(f), Some(t)) => Ok(Move::new(f, t)),
        _ => Err(NotationError::Malformed(text.to_string())),
    }
}

/// Writes a move as ICCS, lower case without a hyphen.
pub fn format_iccs(m: Move) -> String {
    m.to_string()
}
