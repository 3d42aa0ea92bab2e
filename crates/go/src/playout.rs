//! Random playouts: uniformly random legal moves that do not fill the mover's own
//! eyes, until both sides pass. The building block of Monte Carlo players and the
//! board's speed benchmark. Playouts use the simple ko rule, as engines do: superko
//! is for the game record, not for simulations.

use crate::board::Board;
use crate::point::Color;

/// A small, fast, seedable random number generator (xorshift64*). The rules need
/// reproducible randomness, not cryptography.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        // A zero state would stay zero forever.
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }
}

/// Plays random moves from `board` with `to_move` to play until two passes in a row
/// or `max_moves` moves (passes included). Returns the number of moves made.
pub fn random_playout(
    board: &mut Board,
    mut to_move: Color,
    rng: &mut Rng,
    max_moves: usize,
) -> usize {
    let mut passes = 0;
    let mut moves = 0;
    while passes < 2 && moves < max_moves {
        let mut n = board.empty_count();
        let mut played = false;
        while n > 0 {
            let k = rng.below(n);
            let i = board.empty_at(k);
            if !board.is_eyeish(to_move, i) && board.legal_at(to_move, i) {
                board.play_at(to_move, i);
                played = true;
                break;
            }
            // Set the point aside for this move: swap it past the candidates.
            n -= 1;
            board.swap_empties(k, n);
        }
        if played {
            passes = 0;
        } else {
            board.pass();
            passes += 1;
        }
        moves += 1;
        to_move = to_move.opponent();
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{Counting, area};

    #[test]
    fn playouts_end_with_every_point_settled() {
        let mut rng = Rng::new(1);
        for _ in 0..20 {
            let mut b = Board::new(9).unwrap();
            let moves = random_playout(&mut b, Color::Black, &mut rng, 1000);
            assert!(moves < 1000);
            // Without eye-filling, the final position has only eyes and stones left:
            // every point belongs to one colour.
            let a = area(&b, &[], Counting::GnuGo);
            assert_eq!(a.black + a.white, 81, "{b:?}");
        }
    }

    #[test]
    fn below_stays_in_range() {
        let mut rng = Rng::new(3);
        for n in 1..50 {
            for _ in 0..100 {
                assert!(rng.below(n) < n);
            }
        }
    }
}
