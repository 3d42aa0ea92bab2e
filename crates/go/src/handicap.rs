//! Fixed handicap placement, as GTP's `fixed_handicap` and the common servers place
//! the stones: the corner star points first, then the sides, and the centre for odd
//! counts.

use crate::point::Point;

/// Why a handicap cannot be placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum HandicapError {
    #[error("a fixed handicap is 2 to {max} stones on a {size}x{size} board, not {stones}")]
    Count { stones: u8, max: u8, size: u8 },
}

/// The most fixed handicap stones a board of side `size` takes: none below 7x7,
/// four on 7x7 and even sizes (no centre line), nine otherwise.
pub const fn max_handicap(size: u8) -> u8 {
    if size < 7 {
        0
    } else if size == 7 || size.is_multiple_of(2) {
        4
    } else {
        9
    }
}

/// The points of a fixed handicap of `stones` stones on a board of side `size`.
pub fn fixed_handicap(size: u8, stones: u8) -> Result<Vec<Point>, HandicapError> {
    let max = max_handicap(size);
    if stones < 2 || stones > max {
        return Err(HandicapError::Count { stones, max, size });
    }
    // The star points lie on the fourth line from 13x13 up, the third below.
    let edge = if size >= 13 { 3 } else { 2 };
    let (lo, hi, mid) = (edge, size - 1 - edge, size / 2);
    let p = Point::new;
    let corners = [p(hi, hi), p(lo, lo), p(lo, hi), p(hi, lo)];
    // 2: upper right and lower left; 3: and upper left; 4: every corner.
    let mut out: Vec<Point> = corners
        .iter()
        .copied()
        .take(stones.min(4) as usize)
        .collect();
    if stones >= 5 {
        out = corners.to_vec();
        let centre = p(mid, mid);
        let sides_lr = [p(lo, mid), p(hi, mid)];
        let sides_tb = [p(mid, hi), p(mid, lo)];
        match stones {
            5 => out.push(centre),
            6 => out.extend(sides_lr),
            7 => {
                out.extend(sides_lr);
                out.push(centre);
            }
            8 => {
                out.extend(sides_lr);
                out.extend(sides_tb);
            }
            _ => {
                out.extend(sides_lr);
                out.extend(sides_tb);
                out.push(centre);
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(size: u8, n: u8) -> Vec<String> {
        let mut v: Vec<String> = fixed_handicap(size, n)
            .unwrap()
            .iter()
            .map(|p| p.to_string())
            .collect();
        v.sort();
        v
    }

    fn sorted(s: &str) -> Vec<String> {
        let mut v: Vec<String> = s.split(' ').map(String::from).collect();
        v.sort();
        v
    }

    /// The placements GNU Go 3.8's `fixed_handicap` answers.
    #[test]
    fn placements_match_gnu_go() {
        let cases = [
            (19, 2, "Q16 D4"),
            (19, 3, "D16 Q16 D4"),
            (19, 4, "D16 Q16 D4 Q4"),
            (19, 5, "D16 Q16 K10 D4 Q4"),
            (19, 6, "D16 Q16 D10 Q10 D4 Q4"),
            (19, 7, "D16 Q16 D10 K10 Q10 D4 Q4"),
            (19, 8, "D16 K16 Q16 D10 Q10 D4 K4 Q4"),
            (19, 9, "D16 K16 Q16 D10 K10 Q10 D4 K4 Q4"),
            (13, 5, "D10 K10 G7 D4 K4"),
            (9, 2, "G7 C3"),
            (9, 7, "C7 G7 C5 E5 G5 C3 G3"),
            (7, 4, "C5 E5 C3 E3"),
        ];
        for (size, n, want) in cases {
            assert_eq!(names(size, n), sorted(want), "{n} stones on {size}x{size}");
        }
    }

    #[test]
    fn impossible_handicaps_are_refused() {
        assert!(fixed_handicap(19, 1).is_err());
        assert!(fixed_handicap(19, 10).is_err());
        assert!(fixed_handicap(7, 5).is_err());
        assert!(fixed_handicap(10, 5).is_err());
        assert!(fixed_handicap(5, 2).is_err());
    }
}
