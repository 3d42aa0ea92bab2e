//! The dead-stone phase's board work: which stones one mark toggles, and a simple
//! estimator that suggests the first marking.
//!
//! The estimator is a suggestion for the players to correct, not a judge: it knows
//! no life-and-death reading, and a seki or a group that lives by a tactic may be
//! misjudged. The players' accepted marking is what counts.

use crate::board::Board;
use crate::point::{Color, Point};

/// The stones one mark on `p` toggles: the chain through `p` and every chain of the
/// same colour linked to it through shared liberties (a loose group: stones a
/// one-point jump apart live or die together). Empty if `p` holds no stone.
pub fn marking_group(board: &Board, p: Point) -> Vec<Point> {
    let Some(color) = board.get(p) else {
        return Vec::new();
    };
    let size = board.size() as usize;
    let at = |q: Point| q.row as usize * size + q.col as usize;
    let mut seen = vec![false; size * size];
    let mut out = Vec::new();
    let mut pending = vec![p];
    seen[at(p)] = true;
    while let Some(q) = pending.pop() {
        for s in board.chain(q) {
            seen[at(s)] = true;
            out.push(s);
        }
        for lib in board.liberties(q) {
            for n in board.adjacent(lib) {
                if board.get(n) == Some(color) && !seen[at(n)] {
                    seen[at(n)] = true;
                    pending.push(n);
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// All loose groups of the board (see [`marking_group`]).
pub(crate) fn groups(board: &Board) -> Vec<(Color, Vec<Point>)> {
    let size = board.size() as usize;
    let mut seen = vec![false; size * size];
    let mut out = Vec::new();
    for p in board.points() {
        let Some(color) = board.get(p) else { continue };
        if seen[p.row as usize * size + p.col as usize] {
            continue;
        }
        let group = marking_group(board, p);
        for q in &group {
            seen[q.row as usize * size + q.col as usize] = true;
        }
        out.push((color, group));
    }
    out
}

/// Suggests which stones are dead at the end of play.
///
/// For each loose group it looks at the area the group reaches through empty points
/// and its own colour's stones (stones already judged dead count as empty). A group
/// is judged dead when it has fewer than two eyes (empty regions bordered by its
/// colour alone) and the other colour's stones around that area outnumber its own
/// stones in it more than two to one: a few stones sealed inside the other side's
/// wall. Two rounds let the lifting of dead stones give the surrounding groups their
/// eyes.
pub fn suggest_dead(board: &Board) -> Vec<Point> {
    let size = board.size() as usize;
    let at = |q: Point| q.row as usize * size + q.col as usize;
    let groups = groups(board);
    let mut group_of = vec![usize::MAX; size * size];
    for (g, (_, stones)) in groups.iter().enumerate() {
        for &s in stones {
            group_of[at(s)] = g;
        }
    }
    let mut dead = vec![false; groups.len()];
    for _round in 0..2 {
        let stone = |q: Point| -> Option<Color> {
            let g = group_of[at(q)];
            if g == usize::MAX || dead[g] {
                None
            } else {
                board.get(q)
            }
        };
        // Empty regions with dead stones lifted, and their sole bordering colour.
        let mut region_of = vec![usize::MAX; size * size];
        let mut owners: Vec<Option<Color>> = Vec::new();
        for start in board.points() {
            if stone(start).is_some() || region_of[at(start)] != usize::MAX {
                continue;
            }
            let id = owners.len();
            let mut stack = vec![start];
            region_of[at(start)] = id;
            let (mut black, mut white) = (false, false);
            while let Some(q) = stack.pop() {
                for n in board.adjacent(q) {
                    match stone(n) {
                        Some(Color::Black) => black = true,
                        Some(Color::White) => white = true,
                        None if region_of[at(n)] == usize::MAX => {
                            region_of[at(n)] = id;
                            stack.push(n);
                        }
                        None => {}
                    }
                }
            }
            owners.push(match (black, white) {
                (true, false) => Some(Color::Black),
                (false, true) => Some(Color::White),
                _ => None,
            });
        }
        let mut next = dead.clone();
        for (g, (color, stones)) in groups.iter().enumerate() {
            // The group's reach: empty points and its colour's living stones.
            let mut seen = vec![false; size * size];
            let mut stack = stones.clone();
            for &s in stones {
                seen[at(s)] = true;
            }
            let (mut own, mut other) = (0usize, 0usize);
            let mut eyes: Vec<usize> = Vec::new();
            while let Some(q) = stack.pop() {
                match stone(q) {
                    Some(c) if c == *color => own += 1,
                    Some(_) => {
                        other += 1;
                        continue;
                    }
                    None => {
                        let r = region_of[at(q)];
                        if r != usize::MAX && owners[r] == Some(*color) && !eyes.contains(&r) {
                            eyes.push(r);
                        }
                    }
                }
                for n in board.adjacent(q) {
                    if !seen[at(n)] {
                        seen[at(n)] = true;
                        stack.push(n);
                    }
                }
            }
            // A group judged dead in the first round is counted as lifted, so its
            // own stones count as empty reach; count them back.
            if dead[g] {
                own += stones.len();
            }
            next[g] = eyes.len() < 2 && own * 2 < other;
        }
        dead = next;
    }
    let mut out: Vec<Point> = groups
        .iter()
        .zip(&dead)
        .filter(|(_, d)| **d)
        .flat_map(|((_, stones), _)| stones.iter().copied())
        .collect();
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn a_mark_takes_stones_a_jump_apart() {
        let b = board(&[
            ".....", //
            ".X.X.", //
            ".....", //
            "OO...", //
            ".....",
        ]);
        let g = marking_group(&b, Point::from_gtp("B4").unwrap());
        assert_eq!(g.len(), 2);
        assert_eq!(marking_group(&b, Point::from_gtp("A2").unwrap()).len(), 2);
        assert!(marking_group(&b, Point::from_gtp("C3").unwrap()).is_empty());
    }

    #[test]
    fn a_lone_stone_in_territory_is_suggested_dead() {
        let b = board(&[
            "...O.X...",
            "...O.X...",
            ".X.O.X...",
            "...O.X...",
            "...O.X...",
            "...O.X.O.",
            "...O.X...",
            "...O.X...",
            "...O.X...",
        ]);
        let dead: Vec<String> = suggest_dead(&b).iter().map(|p| p.to_string()).collect();
        assert_eq!(dead, vec!["B7", "H4"]);
    }
}
