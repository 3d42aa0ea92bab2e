//! Colours and board points, and their text forms: GTP vertices (`D4`, no `I`
//! column) and SGF coordinates (`dp`).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The largest board side: GTP's 25 column letters (A–Z without I) set the limit.
pub const MAX_SIZE: u8 = 25;
/// The smallest board side we play on.
pub const MIN_SIZE: u8 = 2;

/// A stone's colour. Black plays first (seat 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "GoColor"))]
#[serde(rename_all = "snake_case")]
pub enum Color {
    Black,
    White,
}

impl Color {
    /// The other colour.
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for black, 1 for white: the seat that plays this colour.
    pub const fn index(self) -> usize {
        match self {
            Color::Black => 0,
            Color::White => 1,
        }
    }

    /// `B` or `W`, as SGF and results write it.
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// A point of the board, counted from the lower left corner as GTP does: `col` 0 is
/// column `A`, `row` 0 is row `1`. Whether it lies on a given board is the board's
/// business ([`Point::on_board`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    pub col: u8,
    pub row: u8,
}

/// Why a text is not a point.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParsePointError {
    #[error(
        "{0:?} is not a vertex: expected a column letter (A-Z without I) and a row number, like D4"
    )]
    Syntax(String),
    #[error("{0:?} lies outside a {1}x{1} board")]
    OffBoard(String, u8),
}

impl Point {
    pub const fn new(col: u8, row: u8) -> Point {
        Point { col, row }
    }

    /// Whether the point lies on a board of side `size`.
    pub const fn on_board(self, size: u8) -> bool {
        self.col < size && self.row < size
    }

    /// Reads a GTP vertex (`D4`, `d4`, `T19`; column `I` is skipped). `pass` is not
    /// a point: see [`crate::Move::parse`].
    pub fn from_gtp(text: &str) -> Result<Point, ParsePointError> {
        let bad = || ParsePointError::Syntax(text.to_string());
        let bytes = text.as_bytes();
        let (&letter, digits) = bytes.split_first().ok_or_else(bad)?;
        let letter = letter.to_ascii_uppercase();
        let col = match letter {
            b'A'..=b'H' => letter - b'A',
            b'J'..=b'Z' => letter - b'A' - 1,
            _ => return Err(bad()),
        };
        if digits.is_empty() || digits.len() > 2 || !digits.iter().all(u8::is_ascii_digit) {
            return Err(bad());
        }
        let number = digits.iter().fold(0u8, |n, d| n * 10 + (d - b'0'));
        if number == 0 || number > MAX_SIZE {
            return Err(bad());
        }
        Ok(Point::new(col, number - 1))
    }

    /// Reads a GTP vertex and checks that it lies on a board of side `size`.
    pub fn from_gtp_on(text: &str, size: u8) -> Result<Point, ParsePointError> {
        let p = Point::from_gtp(text)?;
        if p.on_board(size) {
            Ok(p)
        } else {
            Err(ParsePointError::OffBoard(text.to_string(), size))
        }
    }

    /// The GTP column letter (`?` past the 25th column, where GTP has none).
    pub const fn column_letter(self) -> char {
        match self.col {
            0..8 => (b'A' + self.col) as char,
            8..25 => (b'A' + self.col + 1) as char,
            _ => '?',
        }
    }

    /// The SGF coordinate pair (`aa` is the upper left corner) on a board of side
    /// `size`; meant for points on that board (others are clamped to its edge).
    pub fn to_sgf(self, size: u8) -> String {
        let last = size.clamp(MIN_SIZE, MAX_SIZE) - 1;
        let x = (b'a' + self.col.min(last)) as char;
        let y = (b'a' + (last - self.row.min(last))) as char;
        format!("{x}{y}")
    }

    /// The point from SGF's zero-based column `x` and row `y` counted from the top.
    pub fn from_sgf_xy(x: u8, y: u8, size: u8) -> Option<Point> {
        if x < size && y < size {
            Some(Point::new(x, size - 1 - y))
        } else {
            None
        }
    }
}

impl fmt::Display for Point {
    /// The GTP vertex, `D4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.column_letter(), u16::from(self.row) + 1)
    }
}

impl FromStr for Point {
    type Err = ParsePointError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Point::from_gtp(s)
    }
}

/// A move in play: a stone on a point, or a pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    Place(Point),
    Pass,
}

impl Move {
    /// Reads `pass` (any case) or a GTP vertex.
    pub fn parse(text: &str, size: u8) -> Result<Move, ParsePointError> {
        if text.eq_ignore_ascii_case("pass") {
            Ok(Move::Pass)
        } else {
            Point::from_gtp_on(text, size).map(Move::Place)
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(p) => p.fmt(f),
            Move::Pass => f.write_str("pass"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gtp_vertices_skip_i() {
        assert_eq!(Point::from_gtp("A1").unwrap(), Point::new(0, 0));
        assert_eq!(Point::from_gtp("h9").unwrap(), Point::new(7, 8));
        assert_eq!(Point::from_gtp("J10").unwrap(), Point::new(8, 9));
        assert_eq!(Point::from_gtp("T19").unwrap(), Point::new(18, 18));
        assert!(Point::from_gtp("I5").is_err());
        assert!(Point::from_gtp("A0").is_err());
        assert!(Point::from_gtp("A26").is_err());
        assert!(Point::from_gtp("").is_err());
        assert!(Point::from_gtp("é4").is_err());
        assert!(Point::from_gtp_on("K10", 9).is_err());
        assert_eq!(Point::new(200, 0).column_letter(), '?');
        assert_eq!(Point::new(200, 200).to_sgf(9), "ia");
        for col in 0..MAX_SIZE {
            for row in 0..MAX_SIZE {
                let p = Point::new(col, row);
                assert_eq!(Point::from_gtp(&p.to_string()).unwrap(), p);
            }
        }
    }

    #[test]
    fn sgf_coordinates_count_from_the_top() {
        assert_eq!(Point::new(3, 3).to_sgf(19), "dp");
        assert_eq!(Point::from_sgf_xy(3, 15, 19), Some(Point::new(3, 3)));
        assert_eq!(Point::from_sgf_xy(19, 19, 19), None);
    }
}
