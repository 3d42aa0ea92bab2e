//! Chinese area scoring: each side counts its living stones and the empty points
//! surrounded by its stones alone. Dead stones are removed first and their points
//! count for the side that surrounds them. Two counts differ on seki (双活):
//!
//! * [`Counting::Chinese`], the default at tables. The Chinese rules (中国围棋竞赛
//!   规则, 1988 and 2002) count a side's area as its living stones and the points
//!   they surround; a group living in seki is a living group, so the eyes it
//!   surrounds are its owner's like any other surrounded point (as area scoring
//!   counts them: Sensei's Library, "Seki with eyes"). The points that touch both
//!   colours (a seki's shared liberties, 公气, and every point still open when
//!   both confirmed the end, which the seed's 围棋规则 终局(1) treats "按双活处理",
//!   as in seki) belong to neither alone: they are shared, half to each side, which
//!   leaves the margin what it is.
//! * [`Counting::GnuGo`], GNU Go 3.8's `final_score` under `--chinese-rules`: the
//!   eyes of groups that live only by seki belong to no one, like the shared
//!   points. Kept so that our counts can be compared with GNU Go's game for game
//!   (`tests/cli/go_gnugo.rs`, `tests/cli/go_score.rs` with `qiyuan go score --count
//!   gnugo`).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::board::Board;
use crate::marking::groups;
use crate::point::{Color, Point};

/// Which count of seki to use (see the module's text for the rule each follows).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Counting {
    /// The Chinese rules (中国围棋竞赛规则): a side's area is its living stones and
    /// the points they alone surround, the eyes of a seki group included; a point
    /// touching both sides is shared, half to each.
    #[default]
    Chinese,
    /// GNU Go 3.8 `final_score` with `--chinese-rules`: as above, but the eyes
    /// (up to six points) of groups in seki are neutral, like the shared points.
    #[serde(rename = "gnugo")]
    GnuGo,
}

/// The area count of a position.
#[derive(Debug, Clone, PartialEq)]
pub struct AreaCount {
    /// Black's stones plus territory.
    pub black: u32,
    /// White's stones plus territory.
    pub white: u32,
    /// Points shared by both sides, half to each (Chinese counting: seki's shared
    /// liberties and points left open); they do not change the margin.
    pub shared: u32,
    /// Who owns each point, row by row from the bottom (`size * size` entries);
    /// `None` for a shared or neutral point.
    pub owner: Vec<Option<Color>>,
}

impl AreaCount {
    /// Black's area in points, with its half of the shared points (how a Chinese
    /// count compares black's area with half the board).
    pub fn black_points(&self) -> f64 {
        f64::from(self.black) + f64::from(self.shared) / 2.0
    }

    /// White's area in points, with its half of the shared points.
    pub fn white_points(&self) -> f64 {
        f64::from(self.white) + f64::from(self.shared) / 2.0
    }
}

/// The largest eye a group in seki is taken to have: bigger single-colour regions
/// make a group alive in its own right.
const SEKI_EYE_MAX: usize = 3;

/// The largest region next to a group in seki that counts as its eye (neutral):
/// larger ones are territory.
const SEKI_REGION_MAX: usize = 6;

/// Counts the area of `board` with the stones on `dead` removed (points without a
/// stone in `dead` are ignored), by `counting`.
///
/// Under [`Counting::GnuGo`], two opposing groups live in seki when they share a
/// neutral region and one of them has at most one eye (a region of its colour
/// alone, of at most three points); the eyes of both (regions of up to six points)
/// are then neutral, like the shared liberties. Under [`Counting::Chinese`] every
/// region of one colour is that colour's, and the rest is shared.
pub fn area(board: &Board, dead: &[Point], counting: Counting) -> AreaCount {
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
    let gnugo = counting == Counting::GnuGo;
    for region in regions.iter().filter(|r| gnugo && r.color.is_none()) {
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
    let mut shared = 0;
    for region in &regions {
        let seki_eye =
            region.points.len() <= SEKI_REGION_MAX && region.groups.iter().any(|&g| seki[g]);
        if region.color.is_none() || seki_eye {
            // Points touching both colours: shared under the Chinese count, no
            // one's under GNU Go's (where seki eyes are no one's too).
            if !gnugo {
                shared += region.points.len() as u32;
            }
            continue;
        }
        for &p in &region.points {
            owner[at(p)] = region.color;
        }
    }
    let count = |c| owner.iter().filter(|&&o| o == Some(c)).count() as u32;
    AreaCount {
        black: count(Color::Black),
        white: count(Color::White),
        shared,
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
        for counting in [Counting::Chinese, Counting::GnuGo] {
            let a = area(&b, &[], counting);
            assert_eq!((a.black, a.white), (0, 0));
            assert_eq!(Score::new(&a, 7.5, 0.0).to_string(), "W+7.5");
        }
        // Under the Chinese rules all 81 open points are shared, half to each.
        let a = area(&b, &[], Counting::Chinese);
        assert_eq!(
            (a.shared, a.black_points(), a.white_points()),
            (81, 40.5, 40.5)
        );
    }

    fn board(rows: &[&str]) -> Board {
        let size = rows.len() as u8;
        let mut b = Board::new(size).unwrap();
        for (r, line) in rows.iter().enumerate() {
            for (c, ch) in line.chars().enumerate() {
                let p = Point::new(c as u8, size - 1 - r as u8);
                match ch {
                    'X' => b.setup(Color::Black, p).unwrap(),
                    'O' => b.setup(Color::White, p).unwrap(),
                    _ => {}
                }
            }
        }
        b
    }

    /// A seki with eyes in the lower left: white's inner group (A3 B3 B2 B1) has a
    /// two-point eye (A1 A2), black's inner group (C3 C2 ... F1) a one-point eye
    /// (E1); they share C1, and neither may fill it. Black's outer group on the
    /// left has three eyes, white owns the right. 16 black stones, 24 white.
    pub(crate) const SEKI_WITH_EYES: [&str; 9] = [
        ".XO......",
        "XXO......",
        ".XO......",
        "XXO......",
        ".XO......",
        "XXOOOOOOO",
        "OOXOOOOOO",
        ".OXXXXO..",
        ".O.X.XO..",
    ];

    #[test]
    fn eyes_in_seki_count_for_their_owner_under_the_chinese_rules() {
        let b = board(&SEKI_WITH_EYES);
        let gnugo = area(&b, &[], Counting::GnuGo);
        let chinese = area(&b, &[], Counting::Chinese);
        let at = |v: &str| {
            let p = Point::from_gtp_on(v, 9).unwrap();
            p.row as usize * 9 + p.col as usize
        };
        // The eyes of the seki: their owner's under the Chinese rules, no one's
        // under GNU Go's count.
        for (v, c) in [
            ("A1", Color::White),
            ("A2", Color::White),
            ("E1", Color::Black),
        ] {
            assert_eq!(chinese.owner[at(v)], Some(c), "{v}");
            assert_eq!(gnugo.owner[at(v)], None, "{v}");
        }
        // The shared liberty: no one's alone; half to each under the Chinese rules.
        assert_eq!(chinese.owner[at("C1")], None);
        assert_eq!(gnugo.owner[at("C1")], None);
        assert_eq!((chinese.shared, gnugo.shared), (1, 0));
        // Stones and territory: black 16 + A5 A7 A9, white 24 + 34 on the right.
        assert_eq!((chinese.black, chinese.white), (20, 60));
        assert_eq!((gnugo.black, gnugo.white), (19, 58));
        assert_eq!(chinese.black_points() + chinese.white_points(), 81.0);
        assert_eq!(Score::new(&chinese, 7.5, 0.0).to_string(), "W+47.5");
        assert_eq!(Score::new(&gnugo, 7.5, 0.0).to_string(), "W+46.5");
    }
}
