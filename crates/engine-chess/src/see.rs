//! Static exchange evaluation and a capture generator for quiescence.
//!
//! `see` plays out the exchange on a move's target square, each side
//! recapturing with its least valuable attacker (x-rays through the pieces that
//! have left are found again at every step; pins are ignored), and returns what
//! the mover gains in centipawns. Quiescence skips captures that lose material
//! by it, and the main search orders them after the quiet moves.
//!
//! `captures` generates the captures and queen promotions of a position that is
//! not in check without shakmaty's full legal generation: pseudo-legal moves
//! whose legality the search checks after playing them ([`leaves_king_safe`]).

use shakmaty::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use shakmaty::{Bitboard, Board, Chess, Color, Move, MoveList, Position, Role, Square};

use crate::eval::{ORDER_VALUE, role_index};

#[inline]
fn value(r: Role) -> i32 {
    ORDER_VALUE[role_index(r)]
}

/// The least valuable of `side`'s pieces in `attackers`.
#[inline]
fn least_valuable(board: &Board, attackers: Bitboard, side: Color) -> Option<(Square, Role)> {
    let mine = attackers & board.by_color(side);
    for role in [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ] {
        if let Some(sq) = (mine & board.by_role(role)).first() {
            return Some((sq, role));
        }
    }
    None
}

/// The material the side to move wins (negative: loses) by playing `m` and the
/// best sequence of recaptures on its target square that follows.
pub fn see(pos: &Chess, m: Move) -> i32 {
    let board = pos.board();
    let (from, to) = match m {
        Move::Normal { from, to, .. } | Move::EnPassant { from, to } => (from, to),
        _ => return 0,
    };
    let mut occ = board.occupied();
    let mut gain = [0i32; 34];
    gain[0] = match m {
        Move::EnPassant { .. } => value(Role::Pawn),
        _ => m.capture().map_or(0, value),
    };
    if let Move::EnPassant { .. } = m {
        // The captured pawn stands beside the target square.
        let cap = Square::from_coords(to.file(), from.rank());
        occ ^= Bitboard::from_square(cap);
    }
    // The piece standing on the target after the move.
    let mut on_square = match m.promotion() {
        Some(p) => {
            gain[0] += value(p) - value(Role::Pawn);
            value(p)
        }
        None => value(m.role()),
    };
    occ ^= Bitboard::from_square(from);
    let mut side = !pos.turn();
    let mut d = 0;
    loop {
        let attackers = board.attacks_to(to, side, occ) & occ;
        let Some((sq, role)) = least_valuable(board, attackers, side) else {
            break;
        };
        d += 1;
        if d >= gain.len() {
            break;
        }
        gain[d] = on_square - gain[d - 1];
        // Neither side can improve by going on: stop early.
        if (-gain[d - 1]).max(gain[d]) < 0 {
            break;
        }
        on_square = value(role);
        occ ^= Bitboard::from_square(sq);
        side = !side;
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

/// Pseudo-legal captures (queen promotion for pawns reaching the last rank) and
/// quiet queen promotions of the side to move; no en passant. For positions not
/// in check.
pub fn captures(pos: &Chess, out: &mut MoveList) {
    let board = pos.board();
    let us = pos.turn();
    let occ = board.occupied();
    let them = board.by_color(!us);
    let own = board.by_color(us);
    let last_rank = match us {
        Color::White => Bitboard(0xff00_0000_0000_0000),
        Color::Black => Bitboard(0xff),
    };
    for from in own {
        let Some(role) = board.role_at(from) else {
            continue;
        };
        let targets = match role {
            Role::Pawn => {
                let mut t = pawn_attacks(us, from) & them;
                // A quiet push onto the last rank.
                let push = match us {
                    Color::White => from.offset(8),
                    Color::Black => from.offset(-8),
                };
                if let Some(p) = push
                    && last_rank.contains(p)
                    && !occ.contains(p)
                {
                    t |= Bitboard::from_square(p);
                }
                t
            }
            Role::Knight => knight_attacks(from) & them,
            Role::Bishop => bishop_attacks(from, occ) & them,
            Role::Rook => rook_attacks(from, occ) & them,
            Role::Queen => (bishop_attacks(from, occ) | rook_attacks(from, occ)) & them,
            Role::King => king_attacks(from) & them,
        };
        for to in targets {
            let capture = board.role_at(to);
            if capture == Some(Role::King) {
                continue;
            }
            let promotion = (role == Role::Pawn && last_rank.contains(to)).then_some(Role::Queen);
            out.push(Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            });
        }
    }
}

/// After a pseudo-legal move of the side that is no longer to move in `child`,
/// whether that side's king is safe.
#[inline]
pub fn leaves_king_safe(child: &Chess) -> bool {
    let board = child.board();
    let mover = !child.turn();
    match board.king_of(mover) {
        Some(k) => board
            .attacks_to(k, child.turn(), board.occupied())
            .is_empty(),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    fn pos(fen: &str) -> Chess {
        let f: Fen = fen.parse().expect("fen");
        f.into_position(CastlingMode::Standard).expect("position")
    }

    fn find(p: &Chess, uci: &str) -> Move {
        let u: shakmaty::uci::UciMove = uci.parse().expect("uci");
        u.to_move(p).expect("legal")
    }

    #[test]
    fn see_of_simple_exchanges() {
        // A pawn takes an undefended knight.
        let p = pos("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1");
        assert_eq!(see(&p, find(&p, "e4d5")), 320);
        // A queen takes a pawn defended by a pawn: loses the queen for a pawn.
        let p = pos("4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1");
        assert_eq!(see(&p, find(&p, "d2d5")), 100 - 950);
        // Rook takes a rook defended by a rook, backed by our second rook (an x-ray):
        // RxR, RxR, RxR wins a rook.
        let p = pos("3r3k/3r4/8/8/8/8/3R4/3RK3 w - - 0 1");
        assert_eq!(see(&p, find(&p, "d2d7")), 500);
        // Bishop takes a pawn defended once, with a queen behind the bishop: BxP, PxB.
        let p = pos("4k3/8/2p5/3p4/4B3/5Q2/8/4K3 w - - 0 1");
        assert_eq!(see(&p, find(&p, "e4d5")), 100 - 330 + 100);
    }

    #[test]
    fn generated_captures_are_the_legal_ones() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "4k3/3q1r2/1N2r1b1/3ppN2/2nPP3/1B1R2n1/2R1Q3/3K4 w - - 5 1",
            "r1bqkbnr/pP3ppp/2n5/8/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 5",
        ];
        for fen in fens {
            let p = pos(fen);
            let mut ours = MoveList::new();
            captures(&p, &mut ours);
            let mut got: Vec<String> = ours
                .iter()
                .filter(|m| {
                    let mut c = p.clone();
                    c.play_unchecked(**m);
                    leaves_king_safe(&c)
                })
                .map(|m| m.to_uci(CastlingMode::Standard).to_string())
                .collect();
            let mut want: Vec<String> = p
                .legal_moves()
                .iter()
                .filter(|m| {
                    !matches!(m, Move::EnPassant { .. })
                        && (m.is_capture() || m.promotion().is_some())
                        && m.promotion().is_none_or(|r| r == Role::Queen)
                })
                .map(|m| m.to_uci(CastlingMode::Standard).to_string())
                .collect();
            got.sort();
            want.sort();
            assert_eq!(got, want, "{fen}");
        }
    }
}
