//! Local tactics for playouts and priors: liberties a move would have, self-atari,
//! and ladder reading.

use qiyuan_go::{Board, Color};

/// What a stone of `color` on the empty cell `i` would have: up to `N` distinct
/// liberties (counting the points its captures free next to it), and the stones it
/// would capture.
pub struct AfterMove {
    pub liberties: usize,
    pub captures: usize,
}

/// The liberties and captures of a stone of `color` on the empty cell `i`; liberty
/// counts are exact below 4.
pub fn after_move(b: &Board, color: Color, i: usize) -> AfterMove {
    const N: usize = 4;
    let mut libs = [0usize; N];
    let mut found = 0;
    let mut captures = 0;
    let add = |libs: &mut [usize; N], found: &mut usize, c: usize| {
        if c != i && *found < N && !libs[..*found].contains(&c) {
            libs[*found] = c;
            *found += 1;
        }
    };
    let mut seen_heads = [0usize; 4];
    let mut n_heads = 0;
    for n in b.cell_neighbours(i) {
        if b.is_empty_cell(n) {
            add(&mut libs, &mut found, n);
            continue;
        }
        let Some(c) = b.stone_at(n) else { continue };
        let h = b.chain_head(n);
        if seen_heads[..n_heads].contains(&h) {
            continue;
        }
        seen_heads[n_heads] = h;
        n_heads += 1;
        let mut chain_libs = [0usize; N + 1];
        let k = b.chain_liberties(n, &mut chain_libs);
        if c == color {
            for &l in &chain_libs[..k] {
                add(&mut libs, &mut found, l);
            }
        } else if k == 1 {
            captures += b.chain_len(n);
            // The captured stone next to `i` becomes a liberty.
            add(&mut libs, &mut found, n);
        }
    }
    AfterMove {
        liberties: found,
        captures,
    }
}

/// Whether a stone of `color` on `i` would be left in atari without capturing.
pub fn is_self_atari(b: &Board, color: Color, i: usize) -> bool {
    let a = after_move(b, color, i);
    a.captures == 0 && a.liberties <= 1
}

/// The single liberty of the chain on `i`, if it has exactly one.
pub fn atari_liberty(b: &Board, i: usize) -> Option<usize> {
    let mut libs = [0usize; 2];
    (b.chain_liberties(i, &mut libs) == 1).then_some(libs[0])
}

/// Liberties of enemy chains next to the chain on `i` that are in atari: the moves
/// that save the chain by capturing.
pub fn counter_captures(b: &Board, i: usize, out: &mut Vec<usize>) {
    let Some(me) = b.stone_at(i) else { return };
    let h = b.chain_head(i);
    let mut s = h;
    loop {
        for n in b.cell_neighbours(s) {
            if b.stone_at(n) == Some(me.opponent())
                && let Some(l) = atari_liberty(b, n)
                && !out.contains(&l)
            {
                out.push(l);
            }
        }
        s = b.chain_next(s);
        if s == h {
            break;
        }
    }
}

/// The longest ladder read, in defender moves.
const LADDER_DEPTH: u32 = 60;

/// Whether the chain on `i`, in atari with its owner to move, dies in a ladder:
/// running never reaches three liberties or a capture, whatever the runner does.
pub fn ladder_captures(b: &Board, i: usize) -> bool {
    runner_dies(b, i, LADDER_DEPTH)
}

fn runner_dies(b: &Board, i: usize, depth: u32) -> bool {
    let Some(runner) = b.stone_at(i) else {
        return true;
    };
    if depth == 0 {
        return false;
    }
    let mut escapes = Vec::new();
    counter_captures(b, i, &mut escapes);
    if !escapes.is_empty() {
        return false;
    }
    let Some(lib) = atari_liberty(b, i) else {
        return false;
    };
    if !b.legal_at(runner, lib) {
        return true;
    }
    let mut run = b.clone();
    run.play_at(runner, lib);
    let mut libs = [0usize; 3];
    match run.chain_liberties(i, &mut libs) {
        0 | 1 => true,
        2 => libs[..2].iter().any(|&a| {
            if !run.legal_at(runner.opponent(), a) {
                return false;
            }
            let mut chase = run.clone();
            chase.play_at(runner.opponent(), a);
            atari_liberty(&chase, i).is_some() && runner_dies(&chase, i, depth - 1)
        }),
        _ => false,
    }
}

/// Whether `attacker` playing on `a` puts the chain on `i` (two liberties, one of
/// them `a`) in atari from which it dies in a ladder.
pub fn atari_captures(b: &Board, attacker: Color, a: usize, i: usize) -> bool {
    if !b.legal_at(attacker, a) || is_self_atari(b, attacker, a) {
        return false;
    }
    let mut chase = b.clone();
    chase.play_at(attacker, a);
    atari_liberty(&chase, i).is_some() && ladder_captures(&chase, i)
}
