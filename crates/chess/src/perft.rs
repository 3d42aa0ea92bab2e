//! Perft: counting the leaves of the legal move tree, the standard test of a move
//! generator against published numbers.

use shakmaty::{Chess, Position, uci::UciMove};

use crate::{FenError, parse_fen};

/// The number of legal move sequences of `depth` plies from the position `fen`.
/// The last ply is counted in bulk (the length of the move list), not played.
pub fn perft(fen: &str, depth: u32) -> Result<u64, FenError> {
    Ok(shakmaty::perft(&parse_fen(fen)?, depth))
}

/// Perft split by first move: each legal move in UCI with the count below it, in
/// move-generation order. The counts add up to [`perft`] at the same depth; this is
/// how a disagreement with another program is narrowed down to one move.
pub fn divide(fen: &str, depth: u32) -> Result<Vec<(String, u64)>, FenError> {
    let pos = parse_fen(fen)?;
    Ok(divide_position(&pos, depth))
}

fn divide_position(pos: &Chess, depth: u32) -> Vec<(String, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            (
                UciMove::from_standard(m).to_string(),
                shakmaty::perft(&child, depth - 1),
            )
        })
        .collect()
}
