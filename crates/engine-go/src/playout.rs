//! Heavy playouts: the moves a simulation plays after it leaves the tree.
//!
//! Each move, in order: answer the last move's ataris (capture a chain it left in
//! atari, or save one of ours it put there, unless a ladder kills it anyway); else
//! play a 3x3 shape next to the last two moves; else a random move. No move fills
//! one of the mover's own eyes, and self-ataris are mostly refused. This is the
//! MoGo/Michi playout policy, which is what makes the search see tactics at all.

use qiyuan_go::playout::Rng;
use qiyuan_go::{Board, Color};

use crate::pattern;
use crate::tactics::{after_move, atari_liberty, counter_captures, is_self_atari, ladder_captures};

/// The pass "cell": cell 0 is always off the board.
pub const PASS: usize = 0;

/// How a playout chooses its moves.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Policy {
    /// Chance of looking for capture and escape moves around the last move.
    pub capture: f64,
    /// Chance of looking for 3x3 shapes around the last two moves.
    pub pattern: f64,
    /// Chance of refusing a random move that is a self-atari.
    pub refuse_self_atari: f64,
}

impl Policy {
    /// The full policy.
    pub const HEAVY: Policy = Policy {
        capture: 0.9,
        pattern: 0.95,
        refuse_self_atari: 0.9,
    };

    /// Uniformly random moves that fill no own eye (the weakest levels).
    pub const LIGHT: Policy = Policy {
        capture: 0.0,
        pattern: 0.0,
        refuse_self_atari: 0.0,
    };
}

fn chance(rng: &mut Rng, p: f64) -> bool {
    p > 0.0 && (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64) < p
}

/// Moves that capture a chain next to `last` in atari or save one of `color`'s
/// chains there from it.
pub fn atari_moves(b: &Board, color: Color, last: usize, out: &mut Vec<usize>) {
    let mut heads = [0usize; 5];
    let mut n_heads = 0;
    let around = b.cell_neighbours(last);
    for n in std::iter::once(last).chain(around) {
        let Some(c) = b.stone_at(n) else { continue };
        let h = b.chain_head(n);
        if heads[..n_heads].contains(&h) {
            continue;
        }
        heads[n_heads] = h;
        n_heads += 1;
        let Some(lib) = atari_liberty(b, n) else {
            continue;
        };
        if c != color {
            if !out.contains(&lib) {
                out.push(lib);
            }
            continue;
        }
        counter_captures(b, n, out);
        if !b.legal_at(color, lib) {
            continue;
        }
        let runs = match after_move(b, color, lib).liberties {
            0 | 1 => false,
            2 => {
                let mut run = b.clone();
                run.play_at(color, lib);
                // Running to two liberties helps only when the ladder fails.
                let mut libs = [0usize; 2];
                run.chain_liberties(n, &mut libs);
                !libs.iter().any(|&a| {
                    run.legal_at(color.opponent(), a) && {
                        let mut chase = run.clone();
                        chase.play_at(color.opponent(), a);
                        atari_liberty(&chase, n).is_some() && ladder_captures(&chase, n)
                    }
                })
            }
            _ => true,
        };
        if runs && !out.contains(&lib) {
            out.push(lib);
        }
    }
}

/// Empty points next to the last moves (the eight around each) where a shape
/// pattern matches.
fn pattern_moves(b: &Board, last: [usize; 2], out: &mut Vec<usize>) {
    let s = b.stride();
    for &m in &last {
        if m == PASS {
            continue;
        }
        for c in [
            m - s - 1,
            m - s,
            m - s + 1,
            m - 1,
            m + 1,
            m + s - 1,
            m + s,
            m + s + 1,
        ] {
            if b.is_empty_cell(c) && !out.contains(&c) && pattern::matches_at(b, c) {
                out.push(c);
            }
        }
    }
}

/// Whether `color` may sensibly play the empty cell `i` in a playout.
#[inline]
fn playable(b: &Board, color: Color, i: usize) -> bool {
    b.is_empty_cell(i) && !b.is_eyeish(color, i) && b.legal_at(color, i)
}

/// Picks a random candidate that is playable and no self-atari, if any.
fn pick(b: &Board, color: Color, cands: &mut Vec<usize>, rng: &mut Rng) -> Option<usize> {
    while !cands.is_empty() {
        let k = rng.below(cands.len());
        let c = cands.swap_remove(k);
        if playable(b, color, c) && !is_self_atari(b, color, c) {
            return Some(c);
        }
    }
    None
}

/// The playout's move for `color`, `last` the previous two moves (newest first);
/// [`PASS`] when no move is left but eye filling.
pub fn choose(
    b: &mut Board,
    color: Color,
    last: [usize; 2],
    policy: &Policy,
    rng: &mut Rng,
    scratch: &mut Vec<usize>,
) -> usize {
    if last[0] != PASS {
        if chance(rng, policy.capture) {
            scratch.clear();
            atari_moves(b, color, last[0], scratch);
            if let Some(m) = pick(b, color, scratch, rng) {
                return m;
            }
        }
        if chance(rng, policy.pattern) {
            scratch.clear();
            pattern_moves(b, last, scratch);
            if let Some(m) = pick(b, color, scratch, rng) {
                return m;
            }
        }
    }
    // A self-atari of a few stones is refused while another move exists, but played
    // rather than passing: it is how a nakade kills a group in a playout.
    let mut fallback = PASS;
    let mut n = b.empty_count();
    while n > 0 {
        let k = rng.below(n);
        let i = b.empty_at(k);
        if !b.is_eyeish(color, i) && b.legal_at(color, i) {
            if policy.refuse_self_atari <= 0.0 || !is_self_atari(b, color, i) {
                return i;
            }
            if fallback == PASS && merged_size(b, color, i) <= NAKADE_MAX {
                fallback = i;
            }
            if !chance(rng, policy.refuse_self_atari) {
                return i;
            }
        }
        n -= 1;
        b.swap_empties(k, n);
    }
    fallback
}

/// The largest chain a playout puts in atari itself when nothing else is left.
const NAKADE_MAX: usize = 3;

/// The size of the chain a stone of `color` on `i` would join.
fn merged_size(b: &Board, color: Color, i: usize) -> usize {
    let mut heads = [0usize; 4];
    let mut k = 0;
    let mut size = 1;
    for n in b.cell_neighbours(i) {
        if b.stone_at(n) == Some(color) {
            let h = b.chain_head(n);
            if !heads[..k].contains(&h) {
                heads[k] = h;
                k += 1;
                size += b.chain_len(n);
            }
        }
    }
    size
}

/// Plays the board out from `color` to move until two passes in a row (or a move
/// limit), appending every move to `moves` as (cell, colour).
pub fn playout(
    b: &mut Board,
    mut color: Color,
    mut last: [usize; 2],
    policy: &Policy,
    rng: &mut Rng,
    moves: &mut Vec<(u16, Color)>,
    scratch: &mut Vec<usize>,
) {
    let limit = b.empty_count() * 3 + 20;
    let mut passes = 0;
    for _ in 0..limit {
        let m = choose(b, color, last, policy, rng, scratch);
        if m == PASS {
            b.pass();
            passes += 1;
            if passes >= 2 {
                break;
            }
        } else {
            b.play_at(color, m);
            moves.push((m as u16, color));
            passes = 0;
        }
        last = [m, last[0]];
        color = color.opponent();
    }
}

/// The owner of each on-board cell of a played-out board: a stone's colour, or the
/// colour that alone surrounds an empty point (its eyes), else none.
#[inline]
pub fn owner(b: &Board, i: usize) -> Option<Color> {
    if let Some(c) = b.stone_at(i) {
        return Some(c);
    }
    let mut seen = None;
    for n in b.cell_neighbours(i) {
        match b.stone_at(n) {
            Some(c) if seen.is_some_and(|s| s != c) => return None,
            Some(c) => seen = Some(c),
            None if b.is_empty_cell(n) => return None,
            None => {}
        }
    }
    seen
}
