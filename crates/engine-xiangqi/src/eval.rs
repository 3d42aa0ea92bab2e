//! The static evaluation: material and piece-square tables of xiangqi's own,
//! tapered between the middlegame and the endgame (soldiers and horses gain,
//! cannons lose as the board empties), and the general's guard against attackers.
//!
//! The tables are built from a few formulas (advancement, centre files, the
//! enemy palace), so each term can be read. Kept incrementally by [`crate::pos`].

use qiyuan_xiangqi::{Color, Piece, Role, Square};

pub const MATERIAL_MG: [i32; 7] = [0, 120, 120, 270, 600, 285, 30];
pub const MATERIAL_EG: [i32; 7] = [0, 110, 110, 300, 650, 260, 45];
/// Phase weight by role: rooks, horses and cannons count; 24 at the start.
pub const PHASE: [i32; 7] = [0, 0, 0, 2, 4, 2, 0];
pub const MAX_PHASE: i32 = 24;
/// Values for move ordering.
pub const ORDER_VALUE: [i32; 7] = [10_000, 120, 120, 280, 600, 285, 60];

pub fn role_index(r: Role) -> usize {
    match r {
        Role::King => 0,
        Role::Advisor => 1,
        Role::Elephant => 2,
        Role::Horse => 3,
        Role::Rook => 4,
        Role::Cannon => 5,
        Role::Pawn => 6,
    }
}

pub fn piece_index(p: Piece) -> usize {
    p.color as usize * 7 + role_index(p.role)
}

pub struct Tables {
    /// By piece index (colour * 7 + role), by square index: material + position.
    pub mg: [[i32; 90]; 14],
    pub eg: [[i32; 90]; 14],
}

fn positional(role: usize, f: i32, r: i32) -> (i32, i32) {
    let side = (f - 4).abs(); // 0 centre .. 4 edge
    let palace_file = (3..=5).contains(&f);
    match role {
        0 => {
            let v = if f == 4 { 8 } else { 0 } - 10 * r;
            (v, if f == 4 { 4 } else { 0 } - 4 * r)
        }
        1 => {
            let v = if f == 4 && r == 1 { 10 } else { 0 };
            (v, v)
        }
        2 => {
            let v = if f == 4 && r == 2 {
                10
            } else if r == 0 && (f == 2 || f == 6) {
                4
            } else {
                0
            };
            (v, v)
        }
        3 => {
            let adv = [-10, -2, 4, 10, 14, 20, 24, 24, 16, 2][r as usize];
            let centre = 8 - 3 * side;
            let near_palace = if (6..=8).contains(&r) && (2..=6).contains(&f) {
                12
            } else {
                0
            };
            let edge = if side == 4 { -14 } else { 0 };
            (adv + centre + near_palace + edge, adv / 2 + centre + edge)
        }
        4 => {
            let adv = [-4, 4, 2, 4, 8, 8, 12, 14, 10, 6][r as usize];
            let file = [-2, 4, 2, 6, 6, 6, 2, 4, -2][f as usize];
            (adv + file, adv / 2)
        }
        5 => {
            let central = if f == 4 {
                if r <= 4 { 16 } else { 6 }
            } else {
                0
            };
            let home = if r == 2 && (f == 1 || f == 7) { 4 } else { 0 };
            let deep = if r == 9 && palace_file { 6 } else { 0 };
            (central + home + deep - side, central / 2)
        }
        6 => {
            if r < 5 {
                // Before the river: the centre and third-file soldiers that
                // hold the horses' paths matter a little.
                let v = if r == 4 && (f == 2 || f == 4 || f == 6) {
                    6
                } else {
                    0
                };
                (v, v)
            } else {
                // Across the river: +40 for crossing, more near the palace,
                // less for an old soldier on the last rank.
                let base = 40;
                let near = match r {
                    5 => 4 - side * 2,
                    6 => 14 - side * 3,
                    7 => {
                        if palace_file {
                            30
                        } else {
                            12
                        }
                    }
                    8 => {
                        if palace_file {
                            34
                        } else {
                            10
                        }
                    }
                    _ => -10,
                };
                (base + near, base + 25 + near)
            }
        }
        _ => (0, 0),
    }
}

fn build() -> Tables {
    let mut mg = [[0; 90]; 14];
    let mut eg = [[0; 90]; 14];
    for color in [Color::Red, Color::Black] {
        for role in 0..7 {
            let pi = color as usize * 7 + role;
            for sq in 0..90u8 {
                let Some(s) = Square::from_index(sq) else {
                    continue;
                };
                let (f, r) = (s.file() as i32, s.rank() as i32);
                let r = if color == Color::Red { r } else { 9 - r };
                let (pm, pe) = positional(role, f, r);
                mg[pi][sq as usize] = MATERIAL_MG[role] + pm;
                eg[pi][sq as usize] = MATERIAL_EG[role] + pe;
            }
        }
    }
    Tables { mg, eg }
}

pub fn tables() -> &'static Tables {
    use std::sync::OnceLock;
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(build)
}

/// The evaluation from the side to move's point of view, given the incremental
/// sums and piece counts of [`crate::pos::Pos`].
pub fn evaluate(mg: [i32; 2], eg: [i32; 2], counts: &[[u8; 7]; 2], turn: Color) -> i32 {
    let mut phase = 0;
    for c in counts {
        for (role, &n) in c.iter().enumerate() {
            phase += PHASE[role] * n as i32;
        }
    }
    let phase = phase.min(MAX_PHASE);
    let mut score = [0i32; 2];
    for side in 0..2 {
        score[side] = (mg[side] * phase + eg[side] * (MAX_PHASE - phase)) / MAX_PHASE;
    }
    // The general's guard: missing advisors and elephants hurt in proportion to
    // the attackers the other side still has.
    for side in 0..2 {
        let them = &counts[1 - side];
        let attack =
            2 * them[4] as i32 + them[3] as i32 + them[5] as i32 + them[6].min(3) as i32 / 2;
        let guard = counts[side][1] as i32 + counts[side][2] as i32;
        score[side] -= (4 - guard).max(0) * attack * 6;
    }
    let s = score[0] - score[1];
    let tempo = 10;
    match turn {
        Color::Red => s + tempo,
        Color::Black => -s + tempo,
    }
}
