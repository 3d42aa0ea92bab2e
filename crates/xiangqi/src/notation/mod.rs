//! Move notations: ICCS coordinates, WXF, and Chinese. Each parses against a
//! position (only legal moves are returned) and formats a legal move so that it
//! reads back as the same move.

mod chinese;
mod describe;
mod iccs;
mod wxf;

pub use chinese::{format_chinese, parse_chinese};
pub use iccs::{format_iccs, parse_iccs, parse_iccs_unchecked};
pub(crate) use wxf::normalize_wxf;
pub use wxf::{format_wxf, parse_wxf};

use crate::position::Position;
use crate::types::Move;

/// Which notation a record or a command uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Notation {
    Iccs,
    Wxf,
    Chinese,
}

/// Why a move text was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    #[error("{0:?} is not a move in this notation")]
    Malformed(String),
    #[error("{0:?} is not a legal move here")]
    Illegal(String),
    #[error("{0:?} could mean more than one move")]
    Ambiguous(String),
}

impl Notation {
    pub fn parse(self, pos: &Position, text: &str) -> Result<Move, NotationError> {
        match self {
            Notation::Iccs => parse_iccs(pos, text),
            Notation::Wxf => parse_wxf(pos, text),
            Notation::Chinese => parse_chinese(pos, text),
        }
    }
    pub fn format(self, pos: &Position, m: Move) -> String {
        match self {
            Notation::Iccs => format_iccs(m),
            Notation::Wxf => format_wxf(pos, m),
            Notation::Chinese => format_chinese(pos, m),
        }
    }
}

/// Reads a move in any notation: ICCS first, then WXF, then Chinese.
pub fn parse_any(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let t = text.trim();
    if let Ok(m) = parse_iccs(pos, t) {
        return Ok(m);
    }
    let wxf = parse_wxf(pos, t);
    if let Ok(m) = wxf {
        return Ok(m);
    }
    let ch = parse_chinese(pos, t);
    if let Ok(m) = ch {
        return Ok(m);
    }
    match (parse_iccs(pos, t), wxf, ch) {
        (Err(e @ NotationError::Illegal(_)), _, _)
        | (_, Err(e @ NotationError::Illegal(_)), _)
        | (_, _, Err(e @ NotationError::Illegal(_))) => Err(e),
        (_, Err(e @ NotationError::Ambiguous(_)), _)
        | (_, _, Err(e @ NotationError::Ambiguous(_))) => Err(e),
        _ => Err(NotationError::Malformed(t.to_string())),
    }
}

/// Finds the legal move whose spellings include `norm`: the canonical spelling
/// wins; an alternative spelling must fit exactly one move.
pub(crate) fn resolve(
    pos: &Position,
    text: &str,
    norm: &str,
    variants: fn(&Position, Move) -> Vec<String>,
) -> Result<Move, NotationError> {
    let mut canonical = Vec::new();
    let mut other = Vec::new();
    for m in pos.legal_moves() {
        let v = variants(pos, m);
        if v.first().is_some_and(|c| c == norm) {
            canonical.push(m);
        } else if v.iter().any(|c| c == norm) {
            other.push(m);
        }
    }
    match (canonical.as_slice(), other.as_slice()) {
        ([m], _) => Ok(*m),
        ([], [m]) => Ok(*m),
        ([], []) => Err(NotationError::Illegal(text.to_string())),
        _ => Err(NotationError::Ambiguous(text.to_string())),
    }
}
