//! The moves the simulated players play: a legal chess game that never ends
//! before its last ply, never takes or attacks a piece.

/// A legal chess cycle: both sides' knights out and back. The start position comes
/// back every 8 plies, so a game stops before its fifth occurrence (fivefold
/// repetition ends the game).
pub const KNIGHT_CYCLE: [&str; 8] = [
    "g1f3", "g8f6", "b1c3", "b8c6", "f3g1", "f6g8", "c3b1", "c6b8",
];
/// The game the simulated players play: the knight cycle is chess's. Without
/// chess compiled in there is no such game and the server refuses the tables.
#[cfg(feature = "chess")]
pub(super) const GAME: &str = <qiyuan_chess::ChessGame as qiyuan_game::Game>::NAME;
#[cfg(not(feature = "chess"))]
pub(super) const GAME: &str = "";

/// Plies per simulated game, unless told otherwise ([`LoadConfig::plies`]).
pub const PLIES_PER_GAME: usize = 30;

/// Pawn moves, one pair for each time the knights have brought a position back
/// four times: the game goes on from a new position (fivefold repetition
/// would end it), and no piece is ever taken or attacked.
const PAWN_PAIRS: [[&str; 2]; 8] = [
    ["a2a3", "a7a6"],
    ["h2h3", "h7h6"],
    ["b2b3", "b7b6"],
    ["g2g3", "g7g6"],
    ["a3a4", "a6a5"],
    ["h3h4", "h6h5"],
    ["d2d3", "d7d6"],
    ["e2e3", "e7e6"],
];

/// The most plies a simulated game can play: every pawn pair used.
pub const MAX_PLIES: usize = (3 * KNIGHT_CYCLE.len() + 2) * PAWN_PAIRS.len();

/// The simulated game's move at `ply` (from 0, below [`MAX_PLIES`]): three
/// knight cycles (the position comes back a fourth time), then a pawn pair,
/// and again.
pub fn move_at(ply: usize) -> &'static str {
    let block = 3 * KNIGHT_CYCLE.len() + 2;
    let (k, i) = (ply / block % PAWN_PAIRS.len(), ply % block);
    match i.checked_sub(3 * KNIGHT_CYCLE.len()) {
        Some(p) => PAWN_PAIRS[k][p],
        None => KNIGHT_CYCLE[i % KNIGHT_CYCLE.len()],
    }
}

#[cfg(all(test, feature = "chess"))]
mod tests {
    use super::*;
    use qiyuan_chess::{ChessGame, ChessOptions};
    use qiyuan_game::{Game, PlayPhase};

    #[test]
    fn the_longest_simulated_game_is_legal_and_never_ends() {
        let mut game = ChessGame::new_standard().with_options(&ChessOptions::fide());
        for ply in 0..MAX_PLIES {
            let effects = game
                .play(move_at(ply))
                .unwrap_or_else(|e| panic!("ply {ply} ({}): {e}", move_at(ply)));
            assert!(!effects.capture && !effects.check, "ply {ply}");
            assert_eq!(game.phase(), PlayPhase::Play, "ply {ply} ended the game");
            assert!(game.repetitions() <= 4, "ply {ply}");
        }
        // The first 24 plies are the knight cycle, as the 30-ply games always were.
        assert!((0..24).all(|p| move_at(p) == KNIGHT_CYCLE[p % 8]));
    }
}
