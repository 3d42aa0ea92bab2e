//! Reading positions and moves written by people and programs: FEN, UCI and SAN.

use shakmaty::{
    CastlingMode, Chess, Move, Position,
    fen::Fen,
    san::{San, SanError, SanPlus, Suffix},
    uci::UciMove,
};

use crate::FenError;

/// Parses a FEN into a legal position. Standard castling only (no Chess960 rights);
/// missing trailing fields take their defaults.
pub fn parse_fen(text: &str) -> Result<Chess, FenError> {
    let text = text.trim();
    let fen = Fen::from_ascii(text.as_bytes()).map_err(|e| FenError::syntax(text, &e))?;
    fen.into_position(CastlingMode::Standard)
        .map_err(|e| FenError::illegal(text, &e))
}

/// A move that cannot be played in a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Neither UCI nor SAN.
    #[error("{0:?} is not a move in UCI (e2e4) or SAN (Nf3) notation")]
    Malformed(String),
    /// Well formed, but no legal move matches.
    #[error("{0} is not a legal move here")]
    Illegal(String),
    /// SAN that matches several legal moves (`Nd2` with knights on b1 and f3).
    #[error("{0} is ambiguous here: say which piece moves")]
    Ambiguous(String),
}

/// Reads a move in UCI (`e2e4`, `e7e8q`, `e1g1` or `e1h1` for castling) or SAN
/// (`e4`, `Nbd7`, `exd6`, `e8=Q+`, `O-O`, `0-0-0`) and finds the legal move it
/// means in `pos`.
pub fn parse_move(pos: &Chess, text: &str) -> Result<Move, MoveError> {
    let text = text.trim();
    if let Ok(uci) = UciMove::from_ascii(text.as_bytes()) {
        return uci
            .to_move(pos)
            .map_err(|_| MoveError::Illegal(text.to_owned()));
    }
    // Castling is often written with zeros; shakmaty's SAN reader wants letters.
    let san_text: std::borrow::Cow<'_, str> = if text.starts_with("0-0") {
        text.replace('0', "O").into()
    } else {
        text.into()
    };
    let san = SanPlus::from_ascii(san_text.as_bytes())
        .map_err(|_| MoveError::Malformed(text.to_owned()))?
        .san;
    san.to_move(pos).map_err(|e| match e {
        SanError::AmbiguousSan => MoveError::Ambiguous(text.to_owned()),
        SanError::IllegalSan => MoveError::Illegal(text.to_owned()),
    })
}

/// Plays a legal move and returns it in SAN with its `+` or `#`.
///
/// shakmaty's own version asks for the game's outcome after every move, which
/// generates all legal moves; here that is done only after a check, when it
/// decides between `+` and `#`. PGN import spends most of its time here.
pub(crate) fn play_san(pos: &mut Chess, m: Move) -> SanPlus {
    let san = San::from_move(pos, m);
    pos.play_unchecked(m);
    let suffix = if pos.is_check() {
        Some(if pos.legal_moves().is_empty() {
            Suffix::Checkmate
        } else {
            Suffix::Check
        })
    } else {
        None
    };
    SanPlus { san, suffix }
}
