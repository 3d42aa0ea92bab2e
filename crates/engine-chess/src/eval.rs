//! The static evaluation: material and piece-square tables tapered between the
//! middlegame and the endgame, mobility, king safety, pawn structure.
//!
//! The tables are our own, built from a few formulas (advancement, distance to
//! the centre, the king's shelter) rather than tuned numbers, so that every term
//! can be read and reasoned about. Scores are centipawns from the side to move.

use shakmaty::attacks::{bishop_attacks, king_attacks, knight_attacks, rook_attacks};
use shakmaty::{Bitboard, Board, Chess, Color, Position, Role, Square};

/// Material, middlegame and endgame, by role (pawn .. king).
/// In the middlegame a minor piece is worth well over three pawns and a bishop
/// a little more than a knight; in the endgame pawns and rooks gain, knights lose.
pub const MATERIAL_MG: [i32; 6] = [85, 340, 360, 480, 1000, 0];
pub const MATERIAL_EG: [i32; 6] = [110, 290, 305, 520, 950, 0];
/// Game phase weight by role; 24 at the start.
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
const MAX_PHASE: i32 = 24;

/// Piece values for move ordering and pruning margins.
pub const ORDER_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 10_000];

pub fn role_index(r: Role) -> usize {
    match r {
        Role::Pawn => 0,
        Role::Knight => 1,
        Role::Bishop => 2,
        Role::Rook => 3,
        Role::Queen => 4,
        Role::King => 5,
    }
}

struct Tables {
    mg: [[i32; 64]; 6],
    eg: [[i32; 64]; 6],
}

/// Twice the Manhattan distance of a square to the centre: 2 (d4..e5) to 14 (corners).
fn centre2(file: i32, rank: i32) -> i32 {
    (2 * file - 7).abs() + (2 * rank - 7).abs()
}

fn build_tables() -> Tables {
    let mut mg = [[0; 64]; 6];
    let mut eg = [[0; 64]; 6];
    for sq in 0..64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let c = centre2(f, r); // 2..14
        let central_file = matches!(f, 3 | 4);
        // Pawns: advancement, more so in the endgame; central pawns early.
        let adv_mg = [0, 0, 3, 8, 16, 30, 55, 0][r as usize];
        let adv_eg = [0, 0, 8, 20, 38, 65, 100, 0][r as usize];
        let centre_pawn = if central_file && (r == 3 || r == 4) {
            18
        } else if central_file && r == 2 {
            6
        } else {
            0
        };
        mg[0][sq] = adv_mg + centre_pawn - if central_file && r == 1 { 8 } else { 0 };
        eg[0][sq] = adv_eg;
        // Knights: strongly central, a little forward.
        mg[1][sq] = 28 - 5 * c + if (2..=5).contains(&r) { 6 } else { 0 };
        eg[1][sq] = 20 - 4 * c;
        // Bishops: mildly central; long diagonals count through mobility.
        mg[2][sq] = 12 - 2 * c;
        eg[2][sq] = 10 - 2 * c;
        // Rooks: the seventh rank, central files in the middlegame.
        mg[3][sq] = if r == 6 {
            20
        } else if central_file {
            4
        } else {
            0
        };
        eg[3][sq] = if r == 6 { 12 } else { 0 };
        // Queens: stay home early, centralise late.
        mg[4][sq] = 4 - c + if r == 0 { 2 } else { 0 };
        eg[4][sq] = 24 - 3 * c;
        // King: the castled corners in the middlegame, the centre in the endgame.
        mg[5][sq] = match r {
            0 => [20, 30, 10, 0, 0, 10, 30, 20][f as usize],
            1 => [0, 0, -10, -20, -20, -10, 0, 0][f as usize],
            _ => -30 - 10 * (r - 2),
        };
        eg[5][sq] = 36 - 5 * c;
    }
    Tables { mg, eg }
}

fn tables() -> &'static Tables {
    use std::sync::OnceLock;
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(build_tables)
}

/// The square as seen from `c`'s side (rank 0 = its back rank).
#[inline]
fn rel(sq: Square, c: Color) -> usize {
    match c {
        Color::White => usize::from(sq),
        Color::Black => usize::from(sq.flip_vertical()),
    }
}

const PASSED_MG: [i32; 8] = [0, 5, 8, 14, 26, 45, 75, 0];
const PASSED_EG: [i32; 8] = [0, 10, 16, 30, 55, 90, 140, 0];

/// Files adjacent to each file, as bitboards.
fn adjacent_files(f: usize) -> Bitboard {
    let mut b = Bitboard(0);
    if f > 0 {
        b |= Bitboard(0x0101_0101_0101_0101 << (f - 1));
    }
    if f < 7 {
        b |= Bitboard(0x0101_0101_0101_0101 << (f + 1));
    }
    b
}

fn file_bb(f: usize) -> Bitboard {
    Bitboard(0x0101_0101_0101_0101 << f)
}

/// Squares strictly in front of `sq` from `c`'s point of view, on `files`.
fn front_span(sq: Square, c: Color, files: Bitboard) -> Bitboard {
    let r = usize::from(sq) / 8;
    let mask = match c {
        Color::White => {
            if r >= 7 {
                0
            } else {
                !0u64 << ((r + 1) * 8)
            }
        }
        Color::Black => {
            if r == 0 {
                0
            } else {
                !0u64 >> ((8 - r) * 8)
            }
        }
    };
    Bitboard(mask) & files
}

/// The squares `c`'s pawns attack.
#[inline]
fn pawn_attack_set(c: Color, pawns: Bitboard) -> Bitboard {
    const NOT_A: u64 = !0x0101_0101_0101_0101;
    const NOT_H: u64 = !0x8080_8080_8080_8080;
    let p = pawns.0;
    Bitboard(match c {
        Color::White => ((p & NOT_A) << 7) | ((p & NOT_H) << 9),
        Color::Black => ((p & NOT_A) >> 9) | ((p & NOT_H) >> 7),
    })
}

/// The squares a side attacks, gathered by [`side_terms`] for the threats.
#[derive(Default, Clone, Copy)]
struct Attacks {
    /// Every square attacked (pawns, pieces, king).
    all: Bitboard,
    /// Squares attacked by pawns, by knights and bishops, by rooks.
    pawns: Bitboard,
    minors: Bitboard,
    rooks: Bitboard,
}

/// Chebyshev distance between two squares.
#[inline]
fn distance(a: Square, b: Square) -> i32 {
    let (fa, ra) = (usize::from(a) % 8, usize::from(a) / 8);
    let (fb, rb) = (usize::from(b) % 8, usize::from(b) / 8);
    fa.abs_diff(fb).max(ra.abs_diff(rb)) as i32
}

/// Threats of `us` against `them` (middlegame, endgame): their pieces attacked
/// by our pawns, their rooks and queens by our minor pieces, their queens by our
/// rooks, and their pieces we attack that nothing of theirs defends.
fn threats(board: &Board, us: Color, ours: &Attacks, theirs: &Attacks) -> (i32, i32) {
    let them = board.by_color(!us);
    let pieces = them & !board.pawns() & !board.kings();
    let (mut mg, mut eg) = (0, 0);
    let by_pawn = (pieces & ours.pawns).count() as i32;
    mg += 60 * by_pawn;
    eg += 40 * by_pawn;
    let majors = them & (board.rooks() | board.queens());
    let by_minor = (majors & ours.minors).count() as i32;
    mg += 35 * by_minor;
    eg += 35 * by_minor;
    let by_rook = (them & board.queens() & ours.rooks).count() as i32;
    mg += 30 * by_rook;
    eg += 30 * by_rook;
    let hanging = (pieces & ours.all & !theirs.all).count() as i32;
    mg += 35 * hanging;
    eg += 20 * hanging;
    (mg, eg)
}

/// Middlegame and endgame terms of one side.
fn side_terms(board: &Board, us: Color, phase_mg: &mut i32, phase_eg: &mut i32) -> Attacks {
    let t = tables();
    let them = !us;
    let occ = board.occupied();
    let own = board.by_color(us);
    let our_pawns = board.pawns() & own;
    let their_pawns = board.pawns() & board.by_color(them);
    let (mut mg, mut eg) = (0, 0);

    // Squares attacked by their pawns: our pieces' mobility does not count them.
    let their_pawn_att = pawn_attack_set(them, their_pawns);
    let mobility_area = !(own | their_pawn_att);

    let their_king = board.king_of(them);
    let king_zone = their_king.map_or(Bitboard(0), |k| king_attacks(k) | Bitboard::from_square(k));
    let mut attackers = 0;
    let mut attack_weight = 0;
    let our_king = board.king_of(us);
    let mut seen = Attacks {
        pawns: pawn_attack_set(us, our_pawns),
        ..Attacks::default()
    };
    seen.all = seen.pawns | our_king.map_or(Bitboard(0), king_attacks);

    for (role, sq) in [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ]
    .into_iter()
    .flat_map(|role| {
        (board.by_role(role) & own)
            .into_iter()
            .map(move |sq| (role, sq))
    }) {
        let ri = role_index(role);
        let s = rel(sq, us);
        mg += MATERIAL_MG[ri] + t.mg[ri][s];
        eg += MATERIAL_EG[ri] + t.eg[ri][s];
        let att = match role {
            Role::Knight => knight_attacks(sq),
            Role::Bishop => bishop_attacks(sq, occ),
            Role::Rook => rook_attacks(sq, occ),
            Role::Queen => bishop_attacks(sq, occ) | rook_attacks(sq, occ),
            _ => Bitboard(0),
        };
        seen.all |= att;
        match role {
            Role::Knight | Role::Bishop => seen.minors |= att,
            Role::Rook => seen.rooks |= att,
            _ => {}
        }
        let mob = (att & mobility_area).count() as i32;
        match role {
            Role::Knight => {
                mg += 4 * (mob - 4);
                eg += 4 * (mob - 4);
            }
            Role::Bishop => {
                mg += 5 * (mob - 6);
                eg += 5 * (mob - 6);
            }
            Role::Rook => {
                mg += 2 * (mob - 6);
                eg += 4 * (mob - 6);
                let f = file_bb(usize::from(sq) % 8);
                if (f & our_pawns).is_empty() {
                    if (f & their_pawns).is_empty() {
                        mg += 22;
                        eg += 8;
                    } else {
                        mg += 10;
                        eg += 4;
                    }
                }
            }
            Role::Queen => {
                mg += mob - 12;
                eg += 2 * (mob - 12);
            }
            _ => {}
        }
        if matches!(role, Role::Knight | Role::Bishop | Role::Rook | Role::Queen) {
            let hits = (att & king_zone).count() as i32;
            if hits > 0 {
                attackers += 1;
                attack_weight += hits
                    * match role {
                        Role::Knight | Role::Bishop => 2,
                        Role::Rook => 3,
                        _ => 5,
                    };
            }
        }
        if role == Role::Pawn {
            let f = usize::from(sq) % 8;
            let r = s / 8;
            if (front_span(sq, us, file_bb(f) | adjacent_files(f)) & their_pawns).is_empty() {
                mg += PASSED_MG[r];
                eg += PASSED_EG[r];
                // In the endgame the kings' distances to the square in front count,
                // more for an advanced pawn; a blocked passer is worth less.
                if r >= 3 {
                    let front = match us {
                        Color::White => sq.offset(8),
                        Color::Black => sq.offset(-8),
                    };
                    if let Some(front) = front {
                        let w = r as i32 - 2;
                        if let (Some(ok), Some(tk)) = (our_king, their_king) {
                            eg += w * (5 * distance(tk, front) - 2 * distance(ok, front));
                        }
                        if occ.contains(front) {
                            mg -= 3 * w;
                            eg -= 8 * w;
                        }
                    }
                }
            }
            if (adjacent_files(f) & our_pawns).is_empty() {
                mg -= 10;
                eg -= 14;
            }
            if (front_span(sq, us, file_bb(f)) & our_pawns).any() {
                mg -= 8;
                eg -= 18;
            }
        }
    }
    // Attacks on their king: grows with the number of attackers.
    if attackers >= 2 {
        mg += attack_weight * attack_weight * attackers / 8;
    }
    if (board.bishops() & own).more_than_one() {
        mg += 30;
        eg += 50;
    }
    // Our king's pawn shelter while it sits at home.
    if let Some(k) = board.king_of(us) {
        let kr = rel(k, us) / 8;
        if kr <= 1 {
            let f = usize::from(k) % 8;
            let files = file_bb(f) | adjacent_files(f);
            let shield = front_span(k, us, files) & our_pawns;
            let near = shield
                .into_iter()
                .filter(|p| (rel(*p, us) / 8).saturating_sub(kr) <= 2)
                .count() as i32;
            mg += 12 * near.min(3);
        }
    }
    *phase_mg += mg;
    *phase_eg += eg;
    seen
}

/// The game phase: 24 with all pieces on, 0 with only kings and pawns.
pub fn phase(board: &Board) -> i32 {
    let mut p = 0;
    for (role, w) in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .into_iter()
        .zip([PHASE[1], PHASE[2], PHASE[3], PHASE[4]])
    {
        p += board.by_role(role).count() as i32 * w;
    }
    p.min(MAX_PHASE)
}

/// The evaluation in centipawns from the side to move's point of view.
pub fn evaluate(pos: &Chess) -> i32 {
    let board = pos.board();
    let (mut wmg, mut weg, mut bmg, mut beg) = (0, 0, 0, 0);
    let white = side_terms(board, Color::White, &mut wmg, &mut weg);
    let black = side_terms(board, Color::Black, &mut bmg, &mut beg);
    let (twm, twe) = threats(board, Color::White, &white, &black);
    let (tbm, tbe) = threats(board, Color::Black, &black, &white);
    let ph = phase(board);
    let mg = wmg - bmg + twm - tbm;
    let eg = weg - beg + twe - tbe;
    let mut score = (mg * ph + eg * (MAX_PHASE - ph)) / MAX_PHASE;
    // Drawish material: no pawns and at most a minor piece ahead.
    let (wp, bp) = (
        (board.pawns() & board.white()).count(),
        (board.pawns() & board.black()).count(),
    );
    if (score > 0 && wp == 0 && score < 400) || (score < 0 && bp == 0 && score > -400) {
        score /= 4;
    }
    let tempo = 10;
    match pos.turn() {
        Color::White => score + tempo,
        Color::Black => -score + tempo,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::attacks::pawn_attacks;
    use shakmaty::fen::Fen;

    fn pos(fen: &str) -> Chess {
        let f: Fen = fen.parse().expect("fen");
        f.into_position(CastlingMode::Standard).expect("position")
    }

    #[test]
    fn start_position_is_balanced_and_symmetric() {
        let p = Chess::default();
        assert_eq!(evaluate(&p), 10, "only the tempo");
    }

    #[test]
    fn mirrored_positions_score_alike() {
        let a = pos("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        let b = pos("rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3");
        assert_eq!(evaluate(&a), evaluate(&b));
    }

    #[test]
    fn an_extra_queen_is_winning() {
        let p = pos("rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3");
        assert!(evaluate(&p) > 700, "{}", evaluate(&p));
    }

    #[test]
    fn pawn_attack_set_is_the_union_of_pawn_attacks() {
        let p = pos("rnbqkbnr/p1p2p1p/1p4p1/3pp3/P3P2P/2P5/1P1P1PP1/RNBQKBNR w KQkq - 0 5");
        for c in [Color::White, Color::Black] {
            let pawns = p.board().pawns() & p.board().by_color(c);
            let mut want = Bitboard(0);
            for sq in pawns {
                want |= pawn_attacks(c, sq);
            }
            assert_eq!(pawn_attack_set(c, pawns), want, "{c:?}");
        }
    }
}
