//! The parts shared by WXF and Chinese notation: which piece moves (by file, or by
//! its place among pieces of its kind on one file), which way, and how far.

use crate::position::Position;
use crate::types::{Color, Move, Role};

/// How a move reads, before it is spelt in one notation.
pub(crate) struct Parts {
    pub color: Color,
    pub role: Role,
    /// The file the piece stands on, numbered from the mover's right (1–9).
    pub file: u8,
    /// Pieces of the same kind and colour on that file, and this one's place
    /// among them counted from the front (0 = nearest the enemy).
    pub tandem: usize,
    pub place: usize,
    /// Several files hold two or more soldiers of the mover (WXF's "tandem pawns
    /// in two files").
    pub pawn_files: bool,
    /// `+` forward, `-` back, `=` along the rank.
    pub action: char,
    /// Steps (straight movers going up or down) or the file arrived on.
    pub target: u8,
}

/// File number from the mover's right.
pub(crate) fn file_number(c: Color, file: u8) -> u8 {
    match c {
        Color::Red => 9 - file,
        Color::Black => file + 1,
    }
}

pub(crate) fn describe(pos: &Position, m: Move) -> Option<Parts> {
    let piece = pos.piece_at(m.from())?;
    let (c, role) = (piece.color, piece.role);
    let (f, r) = (m.from().file(), m.from().rank());
    let (f2, r2) = (m.to().file(), m.to().rank());
    // Front first: for Red the higher rank is in front.
    let mut on_file: Vec<u8> = (0..10u8)
        .filter(|&rank| pos.piece_at(crate::types::Square::new(f, rank)) == Some(piece))
        .collect();
    if c == Color::Red {
        on_file.reverse();
    }
    let place = on_file.iter().position(|&x| x == r).unwrap_or(0);
    let pawn_files = role == Role::Pawn
        && (0..9u8)
            .filter(|&file| {
                (0..10u8)
                    .filter(|&rank| {
                        pos.piece_at(crate::types::Square::new(file, rank)) == Some(piece)
                    })
                    .count()
                    >= 2
            })
            .count()
            >= 2;
    let forward = match c {
        Color::Red => r2 > r,
        Color::Black => r2 < r,
    };
    let (action, target) = if r2 == r {
        ('=', file_number(c, f2))
    } else if matches!(role, Role::Advisor | Role::Elephant | Role::Horse) {
        (if forward { '+' } else { '-' }, file_number(c, f2))
    } else {
        (if forward { '+' } else { '-' }, r.abs_diff(r2))
    };
    Some(Parts {
        color: c,
        role,
        file: file_number(c, f),
        tandem: on_file.len(),
        place,
        pawn_files,
        action,
        target,
    })
}

/// Where a tandem piece stands among its kind on the file.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Place {
    Front,
    Middle,
    Rear,
    /// 4 or 5 soldiers on one file: the first, second, ... from the front.
    Ordinal(u8),
}

impl Parts {
    pub fn place_word(&self) -> Option<Place> {
        if self.tandem < 2 {
            return None;
        }
        if self.role == Role::Pawn && self.tandem >= 4 && !self.pawn_files {
            return Some(Place::Ordinal(self.place as u8 + 1));
        }
        Some(if self.place == 0 {
            Place::Front
        } else if self.place + 1 == self.tandem {
            Place::Rear
        } else {
            Place::Middle
        })
    }
}
