//! Chinese area scoring: each side counts its living stones and the empty points
//! surrounded by its stones alone. Dead stones are removed first and their points
//! count for the side that surrounds them. Points that touch both colours (dame, and
//! the shared liberties of a seki, 双活) belong to no one, and so do the eyes of
//! groups that live only by seki, as GNU Go counts them.

use std::fmt;

use crate::board::Board;
use crate::marking::groups;
use crate::point::{Color, Point};

/// The area count of a position.
#[derive(Debug, Clone, PartialEq)]
pub struct AreaCount {
    /// Black's stones plus territory.
    pub black: u32,
    /// White's stones plus territory.
    pub white: u32,
    /// Who owns each point, row by row from the bottom (`size * size` entries).
    pub owner: Vec<Option<Color>>,
}

/// The largest eye a group in seki is taken to have: bigger single-colour regions
/// make a group alive in its own right.
const SEKI_EYE_MAX: usize = 3;

/// The largest region next to a group in seki that counts as its eye (neutral):
/// larger ones are territory.
const SEKI_REGION_MAX: usize = 6;

/// Counts the area of `board` with the stones on `dead` removed (points without a
/// stone in `dead` are ignored).
///
/// Two opposing groups live in seki when they share a neutral region and one of them
/// has at most one eye (a region of its colour alone, of at most three points); the
/// eyes of both (regions of up to six points) are then neutral, like the shared
/// liberties. This is how GNU Go's `final_score` counts under Chinese rules.
pub fn area(board: &Board, dead: &[Point]) -> AreaCount {
    let size = board.size() as usize;
    let at = |p: Point| p.row as usize * size + p.col as usize;
    // The position as it is counted: dead stones lifted.
    let live = board.without(dead);
    let groups = groups(&live);
    let mut group_of = vec![usize::MAX; size * size];
    for (g, (_, stones)) in groups.iter().enumerate() {
        for &s in stones {
            group_of[at(s)] = g;
        }
    }
    // Empty regions: their points, sole colour, and the groups around them.
    struct Region {
        points: Vec<Point>,
        color: Option<Color>,
        groups: Vec<usize>,
    }
    let mut region_of = vec![usize::MAX; size * size];
    let mut regions: Vec<Region> = Vec::new();
    for start in live.points() {
        if live.get(start).is_some() || region_of[at(start)] != usize::MAX {
            continue;
        }
        let id = regions.len();
        let mut points = vec![start];
        region_of[at(start)] = id;
        let (mut black, mut white) = (false, false);
        let mut around = Vec::new();
        let mut k = 0;
        while k < points.len() {
            let p = points[k];
            k += 1;
            for n in live.adjacent(p) {
                match live.get(n) {
                    Some(c) => {
                        match c {
                            Color::Black => black = true,
                            Color::White => white = true,
                        }
                        let g = group_of[at(n)];
                        if !around.contains(&g) {
                            around.push(g);
                        }
                    }
                    None if region_of[at(n)] == usize::MAX => {
                        region_of[at(n)] = id;
                        points.push(n);
                    }
                    None => {}
                }
            }
        }
        let color = match (black, white) {
            (true, false) => Some(Color::Black),
            (false, true) => Some(Color::White),
            _ => None,
        };
        regions.push(Region {
            points,
            color,
            groups: around,
        });
    }
    // Groups with at most one small eye.
    let mut eyes: Vec<Vec<usize>> = vec![Vec::new(); groups.len()];
    for (r, region) in regions.iter().enumerate() {
        if region.color.is_some() {
            for &g in &region.groups {
                eyes[g].push(r);
            }
        }
    }
    let weak: Vec<bool> = eyes
        .iter()
        .map(|e| e.len() < 2 && e.iter().all(|&r| regions[r].points.len() <= SEKI_EYE_MAX))
        .collect();
    // Two opposing groups sharing a neutral region live in seki when either of them
    // has fewer than two eyes (else it would have been captured or filled).
    let mut seki = vec![false; groups.len()];
    for region in regions.iter().filter(|r| r.color.is_none()) {
        for &g in &region.groups {
            let color = groups[g].0;
            if region
                .groups
                .iter()
                .any(|&h| groups[h].0 != color && (weak[g] || weak[h]))
            {
                seki[g] = true;
            }
        }
    }
    let mut owner: Vec<Option<Color>> = live.points().map(|p| live.get(p)).collect();
    for region in &regions {
        let neutral = region.color.is_none()
            || (region.points.len() <= SEKI_REGION_MAX && region.groups.iter().any(|&g| seki[g]));
        if !neutral {
            for &p in &region.points {
                owner[at(p)] = region.color;
            }
        }
    }
    let count = |c| owner.iter().filter(|&&o| o == Some(c)).count() as u32;
    AreaCount {
        black: count(Color::Black),
        white: count(Color::White),
        owner,
    }
}

/// A counted result: who won and by how much, as SGF writes it (`B+3.5`, `W+0.5`,
/// `0` for a tie).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Score {
    /// Black's points minus white's, komi and handicap compensation included.
    pub margin: f64,
}

impl Score {
    /// Black's area minus white's, less komi and `compensation` (the points white
    /// gets for black's handicap stones under Chinese rules).
    pub fn new(count: &AreaCount, komi: f64, compensation: f64) -> Score {
        Score {
            margin: f64::from(count.black) - f64::from(count.white) - komi - compensation,
        }
    }

    /// The winner, or `None` for a tie (jigo).
    pub fn winner(self) -> Option<Color> {
        if self.margin > 0.0 {
            Some(Color::Black)
        } else if self.margin < 0.0 {
            Some(Color::White)
        } else {
            None
        }
    }
}

impl fmt::Display for Score {
    /// `B+3.5`, `W+12`, or `0` for a tie (as GNU Go's `final_score` and SGF's `RE`
    /// write it).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner() {
            Some(c) => write!(f, "{}+{}", c.letter(), self.margin.abs()),
            None => f.write_str("0"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_are_written_as_sgf_does() {
        assert_eq!(Score { margin: 3.5 }.to_string(), "B+3.5");
        assert_eq!(Score { margin: -12.0 }.to_string(), "W+12");
        assert_eq!(Score { margin: 0.0 }.to_string(), "0");
    }

    #[test]
    fn an_empty_board_belongs_to_no_one() {
        let b = Board::new(9).unwrap();
        let a = area(&b, &[]);
        assert_eq!((a.black, a.white), (0, 0));
        assert_eq!(Score::new(&a, 7.5, 0.0).to_string(), "W+7.5");
    }
}
