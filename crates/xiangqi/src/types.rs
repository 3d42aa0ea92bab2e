//! Small value types: colours, roles, pieces, squares and moves.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A side. Red moves first and sits at ranks 0–4.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "XiangqiColor"))]
#[serde(rename_all = "snake_case")]
pub enum Color {
    Red = 0,
    Black = 1,
}

impl Color {
    pub const fn other(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }
    /// `red` or `black`, as the command line prints a winner.
    pub const fn as_str(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Black => "black",
        }
    }
}

/// A kind of piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// 帅/将
    King,
    /// 仕/士
    Advisor,
    /// 相/象
    Elephant,
    /// 马
    Horse,
    /// 车
    Rook,
    /// 炮
    Cannon,
    /// 兵/卒
    Pawn,
}

impl Role {
    pub const ALL: [Role; 7] = [
        Role::King,
        Role::Advisor,
        Role::Elephant,
        Role::Horse,
        Role::Rook,
        Role::Cannon,
        Role::Pawn,
    ];

    /// The FEN letter (upper case), as UCCI engines write it.
    pub const fn fen_char(self) -> char {
        match self {
            Role::King => 'K',
            Role::Advisor => 'A',
            Role::Elephant => 'B',
            Role::Horse => 'N',
            Role::Rook => 'R',
            Role::Cannon => 'C',
            Role::Pawn => 'P',
        }
    }

    /// Reads a FEN letter of either case; `E` and `H` are accepted as the WXF
    /// spellings of the elephant and horse.
    pub fn from_fen_char(c: char) -> Option<Role> {
        Some(match c.to_ascii_uppercase() {
            'K' => Role::King,
            'A' => Role::Advisor,
            'B' | 'E' => Role::Elephant,
            'N' | 'H' => Role::Horse,
            'R' => Role::Rook,
            'C' => Role::Cannon,
            'P' => Role::Pawn,
            _ => return None,
        })
    }

    /// How many of this role a side starts with.
    pub const fn max_count(self) -> usize {
        match self {
            Role::King => 1,
            Role::Pawn => 5,
            _ => 2,
        }
    }
}

/// A piece: a role of a colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

impl Piece {
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }
    /// The FEN letter: upper case for Red.
    pub fn fen_char(self) -> char {
        let c = self.role.fen_char();
        match self.color {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }
    pub fn from_fen_char(c: char) -> Option<Piece> {
        let role = Role::from_fen_char(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        Some(Piece { color, role })
    }
}

/// A point of the board: file 0–8 (`a`–`i` from Red's left), rank 0–9 (from Red's
/// side).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The point on `file` (0–8) and `rank` (0–9); callers keep to those ranges
    /// (see [`Square::try_new`] for unchecked input).
    pub const fn new(file: u8, rank: u8) -> Square {
        Square(rank * 9 + file)
    }
    pub fn try_new(file: u8, rank: u8) -> Option<Square> {
        (file < 9 && rank < 10).then(|| Square::new(file, rank))
    }
    pub fn from_index(i: u8) -> Option<Square> {
        (i < 90).then_some(Square(i))
    }
    pub const fn index(self) -> u8 {
        self.0
    }
    pub const fn file(self) -> u8 {
        self.0 % 9
    }
    pub const fn rank(self) -> u8 {
        self.0 / 9
    }
    /// Parses `e2` (ICCS coordinates).
    pub fn from_ascii(s: &[u8]) -> Option<Square> {
        match s {
            [f @ b'a'..=b'i', r @ b'0'..=b'9'] => Some(Square::new(f - b'a', r - b'0')),
            [f @ b'A'..=b'I', r @ b'0'..=b'9'] => Some(Square::new(f - b'A', r - b'0')),
            _ => None,
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

/// A move from one square to another, in the board's internal indexing.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    from: u8,
    to: u8,
}

impl Move {
    pub(crate) const NULL: Move = Move { from: 0, to: 0 };

    pub(crate) const fn from_raw(from: u8, to: u8) -> Move {
        Move { from, to }
    }
    #[inline]
    pub(crate) const fn origin(self) -> u8 {
        self.from
    }
    #[inline]
    pub(crate) const fn to_raw(self) -> u8 {
        self.to
    }
    /// A move between two squares (not necessarily legal anywhere).
    pub fn new(from: Square, to: Square) -> Move {
        Move {
            from: crate::board::from_square(from),
            to: crate::board::from_square(to),
        }
    }
    pub fn from(self) -> Square {
        crate::board::to_square(self.from)
    }
    pub fn to(self) -> Square {
        crate::board::to_square(self.to)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

/// ICCS coordinates, `h2e2`.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}
