//! 3x3 shape patterns around a candidate point, as MoGo introduced them for playouts
//! (hane, cut, and edge shapes; Gelly et al., 2006, in the form Michi writes them).
//!
//! A neighbourhood is the eight cells around an empty point, two bits each (empty,
//! black, white, off the board): 16 bits, so every neighbourhood is looked up in one
//! table of 65 536 bits built once from the patterns in all their rotations,
//! reflections and colour swaps.

use std::sync::OnceLock;

use qiyuan_go::Board;

/// The patterns, the candidate in the middle. `X` and `O` are stones of either
/// colour (and the other), `x` is anything but `X`, `o` anything but `O`, `.` empty,
/// ` ` off the board, `?` anything.
const PATTERNS: [[&str; 3]; 13] = [
    ["XOX", "...", "???"], // hane: enclosing hane
    ["XO.", "...", "?.?"], // hane: non-cutting hane
    ["XO?", "X..", "x.?"], // hane: magari
    [".O.", "X..", "..."], // attachment on the diagonal
    ["XO?", "O.o", "?o?"], // cut: unprotected
    ["XO?", "O.X", "???"], // cut: peeped
    ["?X?", "O.O", "ooo"], // cut: de
    ["OX?", "o.O", "???"], // cut: keima
    ["X.?", "O.?", "   "], // edge: chase
    ["OX?", "X.O", "   "], // edge: block the cut
    ["?X?", "x.O", "   "], // edge: block the connection
    ["?XO", "x.x", "   "], // edge: sagari
    ["?OX", "X.O", "   "], // edge: cut
];

/// The eight neighbours in reading order (row offset, column offset), the middle left
/// out; the code of a neighbourhood has neighbour `k` in bits `2k..2k+2`.
const AROUND: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

static TABLE: OnceLock<Vec<u64>> = OnceLock::new();

fn table() -> &'static [u64] {
    TABLE.get_or_init(build)
}

fn matches(want: u8, cell: u8, x: u8) -> bool {
    let o = 3 - x; // the other colour: 1 <-> 2
    match want {
        b'?' => true,
        b'.' => cell == 0,
        b' ' => cell == 3,
        b'X' => cell == x,
        b'O' => cell == o,
        b'x' => cell != x,
        b'o' => cell != o,
        _ => false,
    }
}

fn build() -> Vec<u64> {
    // Every pattern in its eight symmetries, as eight wanted cells in AROUND order.
    let mut variants: Vec<[u8; 8]> = Vec::new();
    for pat in PATTERNS {
        let at = |r: i32, c: i32| pat[(r + 1) as usize].as_bytes()[(c + 1) as usize];
        for sym in 0..8 {
            let mut v = [0u8; 8];
            for (k, &(r, c)) in AROUND.iter().enumerate() {
                let (r, c) = if sym & 4 != 0 { (c, r) } else { (r, c) };
                let r = if sym & 1 != 0 { -r } else { r };
                let c = if sym & 2 != 0 { -c } else { c };
                v[k] = at(r, c);
            }
            if !variants.contains(&v) {
                variants.push(v);
            }
        }
    }
    let mut bits = vec![0u64; 1024];
    for code in 0..65536u32 {
        let cells: [u8; 8] = std::array::from_fn(|k| ((code >> (2 * k)) & 3) as u8);
        let hit = variants.iter().any(|v| {
            [1u8, 2].iter().any(|&x| {
                v.iter()
                    .zip(cells.iter())
                    .all(|(&want, &cell)| matches(want, cell, x))
            })
        });
        if hit {
            bits[(code >> 6) as usize] |= 1 << (code & 63);
        }
    }
    bits
}

/// The 16-bit code of the neighbourhood of the on-board cell `i`.
#[inline]
pub fn code(board: &Board, i: usize) -> u32 {
    let s = board.stride();
    let cells = [
        i - s - 1,
        i - s,
        i - s + 1,
        i - 1,
        i + 1,
        i + s - 1,
        i + s,
        i + s + 1,
    ];
    let mut code = 0;
    for (k, c) in cells.into_iter().enumerate() {
        code |= u32::from(board.cell_code(c)) << (2 * k);
    }
    code
}

/// Whether a pattern matches around the empty cell `i`.
#[inline]
pub fn matches_at(board: &Board, i: usize) -> bool {
    let c = code(board, i);
    table()[(c >> 6) as usize] & (1 << (c & 63)) != 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiyuan_go::{Color, Point};

    fn board(rows: &[&str]) -> Board {
        let size = rows.len() as u8;
        let mut b = Board::new(size).unwrap();
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
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

    #[test]
    fn hane_and_cut_shapes_match_in_every_reflection_and_colour() {
        // An enclosing hane above C3 (the bottom row is free).
        let b = board(&[".....", ".XOX.", ".....", "..O..", "....."]);
        assert!(matches_at(&b, b.cell_of(Point::from_gtp("C3").unwrap())));
        // A point touching nothing matches nothing.
        assert!(!matches_at(&b, b.cell_of(Point::from_gtp("E1").unwrap())));
        // An unprotected cut, and its mirror image with the colours swapped.
        let cut = board(&[".....", ".XO..", ".O...", ".....", "....."]);
        assert!(matches_at(
            &cut,
            cut.cell_of(Point::from_gtp("C3").unwrap())
        ));
        let swapped = board(&[".....", "..XO.", "...X.", ".....", "....."]);
        assert!(matches_at(
            &swapped,
            swapped.cell_of(Point::from_gtp("C3").unwrap())
        ));
    }
}
