//! WXF notation (`C2=5`, `H8+7`, `R+=3`, `C--1`; tandem soldiers as the WXF
//! writes them: `P+=4`, `P3=4`, `P-=4` for three on a file, `++=4`/`--=4` for the
//! first and last of four or five, `3+=4` when two files hold several).
//! Sideways moves are written with `=`; `.` is accepted on input.

use super::describe::{Parts, Place, describe};
use super::{NotationError, resolve};
use crate::position::Position;
use crate::types::{Move, Role};

fn letter(role: Role) -> char {
    match role {
        Role::King => 'K',
        Role::Advisor => 'A',
        Role::Elephant => 'E',
        Role::Horse => 'H',
        Role::Rook => 'R',
        Role::Cannon => 'C',
        Role::Pawn => 'P',
    }
}

fn digit(n: u8) -> char {
    char::from(b'0' + n)
}

fn spell(p: &Parts, by_file: bool) -> String {
    let l = letter(p.role);
    let f = digit(p.file);
    let head: [char; 2] = match (by_file, p.place_word()) {
        (true, _) | (_, None) => [l, f],
        (false, Some(place)) if p.role == Role::Pawn && p.pawn_files => match place {
            Place::Front => [f, '+'],
            Place::Rear => [f, '-'],
            _ => [f, f],
        },
        (false, Some(place)) => match (place, p.tandem) {
            (Place::Front, _) => [l, '+'],
            (Place::Rear, _) => [l, '-'],
            (Place::Middle, _) => [l, f],
            (Place::Ordinal(1), _) => ['+', '+'],
            (Place::Ordinal(2), _) => [l, '+'],
            (Place::Ordinal(n), t) if n as usize == t => ['-', '-'],
            (Place::Ordinal(n), t) if n as usize + 1 == t => [l, '-'],
            (Place::Ordinal(_), _) => [l, f],
        },
    };
    let mut s = String::with_capacity(4);
    s.push(head[0]);
    s.push(head[1]);
    s.push(p.action);
    s.push(digit(p.target));
    s
}

/// Writes a legal move in WXF notation.
pub fn format_wxf(pos: &Position, m: Move) -> String {
    match describe(pos, m) {
        Some(p) => spell(&p, false),
        None => m.to_string(),
    }
}

/// The spellings a reader may use: the canonical one first, then the plain file
/// form for a tandem piece.
pub(crate) fn wxf_variants(pos: &Position, m: Move) -> Vec<String> {
    match describe(pos, m) {
        Some(p) => {
            let mut v = vec![spell(&p, false)];
            if p.tandem > 1 {
                v.push(spell(&p, true));
            }
            v.into_iter().filter_map(|s| normalize_wxf(&s)).collect()
        }
        None => Vec::new(),
    }
}

pub(crate) fn normalize_wxf(text: &str) -> Option<String> {
    let mut s: String = text
        .trim()
        .chars()
        .map(|c| match c {
            '.' => '=',
            'B' | 'b' | 'M' | 'm' => 'E',
            'N' | 'n' => 'H',
            'G' | 'g' => 'A',
            '－' => '-',
            '＋' => '+',
            '＝' => '=',
            c if ('０'..='９').contains(&c) => {
                char::from_u32(c as u32 - '０' as u32 + '0' as u32).unwrap_or(c)
            }
            c => c.to_ascii_uppercase(),
        })
        .collect();
    // Check and annotation marks after the four characters.
    while s.chars().count() > 4 && s.ends_with(['+', '#', '!', '?']) {
        s.pop();
    }
    let ok = s.chars().count() == 4
        && s.chars()
            .nth(2)
            .is_some_and(|c| matches!(c, '+' | '-' | '='))
        && s.chars().nth(3).is_some_and(|c| c.is_ascii_digit())
        && s.chars().all(|c| "KAEHRCP+-=0123456789".contains(c));
    ok.then_some(s)
}

/// Reads a WXF move.
pub fn parse_wxf(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let norm = normalize_wxf(text).ok_or_else(|| NotationError::Malformed(text.to_string()))?;
    resolve(pos, text, &norm, wxf_variants)
}
