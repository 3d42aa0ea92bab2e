//! Questions about how a game can still end.

use shakmaty::{Chess, Color, Position};

/// Whether `color` could still checkmate by any series of legal moves, judged by
/// the material on the board (and the colours of the bishops' squares).
///
/// This is the question a flag fall asks (FIDE 6.9): a player whose flag falls
/// loses, unless the opponent cannot checkmate at all, when the game is drawn. A
/// bare king, king and knight, or king and bishops all on one colour (with no pawns
/// or knights for the other side to block with) cannot mate; anything with a pawn,
/// rook or queen can. When neither side can, the position is dead and the game is
/// already drawn.
pub fn can_checkmate(pos: &Chess, color: Color) -> bool {
    !pos.has_insufficient_material(color)
}
