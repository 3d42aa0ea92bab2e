//! Chinese notation (`炮二平五`, `马8进7`, `前车进一`). Red's files and steps are
//! written in Chinese numerals, Black's in digits. Tandem pieces: 前/后 for two,
//! 前/中/后 for three soldiers, 一二三四五 (from the front) for four or five;
//! when two files hold several soldiers, the place word is followed by the file
//! instead of the piece (`前三平四`, as WXF's `3+=4`).
//!
//! On input: traditional characters (帥將車俥馬傌砲進後), full-width digits, and
//! either colour's piece names are accepted.

use super::describe::{Parts, Place, describe};
use super::{NotationError, resolve};
use crate::position::Position;
use crate::types::{Color, Move, Role};

const NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

fn name(c: Color, role: Role) -> char {
    match (c, role) {
        (Color::Red, Role::King) => '帅',
        (Color::Black, Role::King) => '将',
        (Color::Red, Role::Advisor) => '仕',
        (Color::Black, Role::Advisor) => '士',
        (Color::Red, Role::Elephant) => '相',
        (Color::Black, Role::Elephant) => '象',
        (_, Role::Horse) => '马',
        (_, Role::Rook) => '车',
        (_, Role::Cannon) => '炮',
        (Color::Red, Role::Pawn) => '兵',
        (Color::Black, Role::Pawn) => '卒',
    }
}

fn number(c: Color, n: u8) -> char {
    match c {
        Color::Red => NUMERALS[(n.clamp(1, 9) - 1) as usize],
        Color::Black => char::from(b'0' + n),
    }
}

fn spell(p: &Parts, by_file: bool) -> String {
    let n = name(p.color, p.role);
    let f = number(p.color, p.file);
    let place = |w: Place| match w {
        Place::Front => '前',
        Place::Middle => '中',
        Place::Rear => '后',
        Place::Ordinal(k) => NUMERALS[(k.clamp(1, 9) - 1) as usize],
    };
    let head: [char; 2] = match (by_file, p.place_word()) {
        (true, _) | (_, None) => [n, f],
        (false, Some(w)) if p.role == Role::Pawn && p.pawn_files => [place(w), f],
        (false, Some(w)) => [place(w), n],
    };
    let action = match p.action {
        '+' => '进',
        '-' => '退',
        _ => '平',
    };
    [head[0], head[1], action, number(p.color, p.target)]
        .iter()
        .collect()
}

/// Writes a legal move in Chinese notation.
pub fn format_chinese(pos: &Position, m: Move) -> String {
    match describe(pos, m) {
        Some(p) => spell(&p, false),
        None => m.to_string(),
    }
}

pub(crate) fn chinese_variants(pos: &Position, m: Move) -> Vec<String> {
    match describe(pos, m) {
        Some(p) => {
            let mut v = vec![normalize_chinese(&spell(&p, false)).unwrap_or_default()];
            if p.tandem > 1 {
                v.push(normalize_chinese(&spell(&p, true)).unwrap_or_default());
            }
            v
        }
        None => Vec::new(),
    }
}

/// Maps every character to one spelling: pieces to WXF letters, numbers to
/// digits, actions to `+ - =`, place words to `F M B`.
pub(crate) fn normalize_chinese(text: &str) -> Option<String> {
    let mut out = String::new();
    for ch in text.trim().chars() {
        let c = match ch {
            '帅' | '帥' | '将' | '將' => 'K',
            '仕' | '士' => 'A',
            '相' | '象' => 'E',
            '马' | '馬' | '傌' => 'H',
            '车' | '車' | '俥' | '伡' => 'R',
            '炮' | '砲' | '包' => 'C',
            '兵' | '卒' => 'P',
            '进' | '進' => '+',
            '退' => '-',
            '平' => '=',
            '前' => 'F',
            '中' => 'M',
            '后' | '後' => 'B',
            '0'..='9' => ch,
            '０'..='９' => char::from_u32(ch as u32 - '０' as u32 + '0' as u32)?,
            ' ' | '　' => continue,
            c => {
                let k = NUMERALS.iter().position(|&x| x == c)?;
                char::from(b'1' + k as u8)
            }
        };
        out.push(c);
    }
    let ok = out.chars().count() == 4
        && out
            .chars()
            .nth(2)
            .is_some_and(|c| matches!(c, '+' | '-' | '='))
        && out.chars().nth(3).is_some_and(|c| c.is_ascii_digit());
    ok.then_some(out)
}

/// Reads a move in Chinese notation.
pub fn parse_chinese(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let norm = normalize_chinese(text).ok_or_else(|| NotationError::Malformed(text.to_string()))?;
    resolve(pos, text, &norm, chinese_variants)
}
