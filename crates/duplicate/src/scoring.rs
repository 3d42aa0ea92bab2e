//! Matchpoints, standings and publication.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::{Occupant, SEATS, Schedule};

/// The result of one board at one table: the points each seat of the deal took
/// (a void hand: zero each).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandResult {
    pub board: usize,
    pub table: usize,
    /// Which of the board's deals was played: 0, or the number of the redeal when
    /// everyone passed and the game dealt again. Only results of the same deal are
    /// compared.
    pub deal: u32,
    /// Points by seat of the deal.
    pub points: [i64; SEATS],
}

/// One seat of one hand, scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatScore {
    pub board: usize,
    pub table: usize,
    pub seat: usize,
    pub occupant: Occupant,
    pub deal: u32,
    pub points: i64,
    /// 2 for every other holder of the same seat of the same deal who took fewer
    /// points, 1 for every one who took as many.
    pub matchpoints: u32,
    /// The most `matchpoints` could have been: 2 per other holder; a result that
    /// nobody else's can be compared with is given 1 of 2.
    pub top: u32,
}

/// A player's place in the event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// 1 first; players level on matchpoint share and points share a rank.
    pub rank: usize,
    pub player: usize,
    pub matchpoints: u64,
    pub top: u64,
    /// The raw points over the boards counted (the tiebreak).
    pub points: i64,
    pub boards: usize,
}

impl Standing {
    /// The share of the matchpoints available, in percent (50 for no boards).
    pub fn percent(&self) -> f64 {
        if self.top == 0 {
            50.0
        } else {
            self.matchpoints as f64 * 100.0 / self.top as f64
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScoreError {
    #[error("no board {board} at table {table} in this schedule")]
    Unknown { board: usize, table: usize },
    #[error("board {board} at table {table} has two results")]
    Twice { board: usize, table: usize },
}

/// Scores every seat of every given hand: within each group of results of the
/// same board, deal and seat, 2 matchpoints for each other result beaten, 1 for
/// each tie. Ordered by board, table, seat.
pub fn score(schedule: &Schedule, results: &[HandResult]) -> Result<Vec<SeatScore>, ScoreError> {
    let mut seen = BTreeSet::new();
    let mut groups: BTreeMap<(usize, u32, usize), Vec<i64>> = BTreeMap::new();
    for r in results {
        if r.board >= schedule.boards() || r.table >= schedule.tables() {
            return Err(ScoreError::Unknown {
                board: r.board,
                table: r.table,
            });
        }
        if !seen.insert((r.board, r.table)) {
            return Err(ScoreError::Twice {
                board: r.board,
                table: r.table,
            });
        }
        for (seat, &p) in r.points.iter().enumerate() {
            groups.entry((r.board, r.deal, seat)).or_default().push(p);
        }
    }
    let mut out = Vec::with_capacity(results.len() * SEATS);
    for r in results {
        let seating = schedule.seating(r.table, r.board);
        for (seat, &points) in r.points.iter().enumerate() {
            let group = &groups[&(r.board, r.deal, seat)];
            let (matchpoints, top) = if group.len() == 1 {
                (1, 2)
            } else {
                let beaten = group.iter().filter(|&&q| q < points).count() as u32;
                // The group holds this result too: it ties with itself once.
                let tied = group.iter().filter(|&&q| q == points).count() as u32 - 1;
                (2 * beaten + tied, 2 * (group.len() as u32 - 1))
            };
            out.push(SeatScore {
                board: r.board,
                table: r.table,
                seat,
                occupant: seating[seat],
                deal: r.deal,
                points,
                matchpoints,
                top,
            });
        }
    }
    out.sort_by_key(|s| (s.board, s.table, s.seat));
    Ok(out)
}

/// The players' standings from seat scores: ranked by their share of the
/// matchpoints available (matchpoints over top, summed over their boards), then by
/// raw points, then by their index; computer places are not ranked. Every player
/// of the schedule is listed, a player without a board at 0 of 0.
pub fn standings(schedule: &Schedule, scores: &[SeatScore]) -> Vec<Standing> {
    let mut rows: Vec<Standing> = (0..schedule.players())
        .map(|player| Standing {
            rank: 0,
            player,
            matchpoints: 0,
            top: 0,
            points: 0,
            boards: 0,
        })
        .collect();
    for s in scores {
        if let Occupant::Player(p) = s.occupant {
            let row = &mut rows[p];
            row.matchpoints += u64::from(s.matchpoints);
            row.top += u64::from(s.top);
            row.points += s.points;
            row.boards += 1;
        }
    }
    rows.sort_by(|a, b| better(a, b).then(a.player.cmp(&b.player)));
    for i in 0..rows.len() {
        rows[i].rank = if i > 0 && better(&rows[i - 1], &rows[i]) == Ordering::Equal {
            rows[i - 1].rank
        } else {
            i + 1
        };
    }
    rows
}

/// `Less` when `a` ranks above `b`: a greater share (exactly, by cross products;
/// no boards counts as one half), then more points.
fn better(a: &Standing, b: &Standing) -> Ordering {
    let share = |s: &Standing| {
        if s.top == 0 {
            (1u128, 2u128)
        } else {
            (u128::from(s.matchpoints), u128::from(s.top))
        }
    };
    let (an, ad) = share(a);
    let (bn, bd) = share(b);
    (bn * ad).cmp(&(an * bd)).then(b.points.cmp(&a.points))
}

/// Per board, whether every table of the schedule has finished it: only such a
/// board's deal, bidding, play, results and matchpoints may leave the server
/// (for anyone but the players of a table, during its own hand).
pub fn published(
    schedule: &Schedule,
    finished: impl IntoIterator<Item = (usize, usize)>,
) -> Vec<bool> {
    let mut done = vec![BTreeSet::new(); schedule.boards()];
    for (table, board) in finished {
        if board < schedule.boards() && table < schedule.tables() {
            done[board].insert(table);
        }
    }
    done.iter().map(|t| t.len() == schedule.tables()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use Occupant::Player as P;

    /// The worked example of docs/card-events.md, "Duplicate events".
    #[test]
    fn the_documented_example() {
        let s = Schedule::new(6, 1).unwrap();
        assert_eq!(s.seating(0, 0), [P(0), P(2), P(4)]);
        assert_eq!(s.seating(1, 0), [P(5), P(1), P(3)]);
        let results = [
            HandResult {
                board: 0,
                table: 0,
                deal: 0,
                points: [4, 4, -8],
            },
            HandResult {
                board: 0,
                table: 1,
                deal: 0,
                points: [-1, -1, 2],
            },
        ];
        let scores = score(&s, &results).unwrap();
        let mp: Vec<_> = scores
            .iter()
            .map(|x| (x.occupant, x.matchpoints, x.top))
            .collect();
        assert_eq!(
            mp,
            vec![
                (P(0), 2, 2),
                (P(2), 2, 2),
                (P(4), 0, 2),
                (P(5), 0, 2),
                (P(1), 0, 2),
                (P(3), 2, 2),
            ]
        );
        let st = standings(&s, &scores);
        let order: Vec<_> = st.iter().map(|r| (r.rank, r.player)).collect();
        // P0, P2 and P3 took 2 of 2; P0 and P2 (+4) share first, P3 (+2) is
        // third; P1 and P5 (0 of 2, -1) share fourth; P4 (-8) is last.
        assert_eq!(order, vec![(1, 0), (1, 2), (3, 3), (4, 1), (4, 5), (6, 4)]);
    }

    #[test]
    fn ties_and_redeals() {
        let s = Schedule::new(9, 1).unwrap();
        let r = |table, deal, points| HandResult {
            board: 0,
            table,
            deal,
            points,
        };
        let scores = score(
            &s,
            &[r(0, 0, [2, 1, 1]), r(1, 0, [2, 1, 1]), r(2, 1, [0, 0, 0])],
        )
        .unwrap();
        assert_eq!((scores[0].matchpoints, scores[0].top), (1, 2));
        // Table 2 played the redeal: nobody to compare with.
        assert_eq!((scores[6].matchpoints, scores[6].top), (1, 2));
        assert!(matches!(
            score(&s, &[r(0, 0, [0; 3]), r(0, 0, [0; 3])]),
            Err(ScoreError::Twice { .. })
        ));
        assert!(matches!(
            score(&s, &[r(3, 0, [0; 3])]),
            Err(ScoreError::Unknown { .. })
        ));
    }

    #[test]
    fn a_board_is_published_once_every_table_finished_it() {
        let s = Schedule::new(7, 3).unwrap();
        assert_eq!(
            published(&s, [(0, 0), (1, 0), (0, 1)]),
            vec![false, false, false]
        );
        assert_eq!(
            published(&s, [(0, 0), (1, 0), (2, 0), (0, 1), (9, 1)]),
            vec![true, false, false]
        );
    }
}
