//! Properties of the schedule and the scoring over many fields.

use proptest::prelude::*;
use qiyuan_duplicate::{HandResult, Occupant, SEATS, Schedule, published, score, standings};

proptest! {
    /// Every player sits at exactly one place; every table has three places; on
    /// every board each table's seating is a permutation of its places; a
    /// player's seats over the event are as even as the boards allow; in every
    /// run of three tables each position holds each seat of a board once.
    #[test]
    fn the_schedule_rotates(players in 4usize..60, boards in 1usize..13) {
        let s = Schedule::new(players, boards).unwrap();
        let t = s.tables();
        prop_assert_eq!(t, players.div_ceil(3).max(2));
        let mut seen = vec![0; players];
        for table in 0..t {
            for o in s.positions(table) {
                if let Occupant::Player(p) = o { seen[p] += 1; }
            }
            let computers = s.positions(table).iter().filter(|o| **o == Occupant::Computer).count();
            prop_assert!(computers <= 1);
        }
        prop_assert!(seen.iter().all(|&n| n == 1));
        for p in 0..players {
            let mut held = [0usize; SEATS];
            for b in 0..boards {
                let (table, seat) = s.seat_for(p, b).unwrap();
                prop_assert_eq!(s.seating(table, b)[seat], Occupant::Player(p));
                held[seat] += 1;
            }
            prop_assert!(held.iter().max().unwrap() - held.iter().min().unwrap() <= 1);
        }
        for b in 0..boards {
            for first in (0..t.saturating_sub(2)).step_by(3) {
                for pos in 0..SEATS {
                    let mut seats: Vec<_> = (first..first + 3).map(|tb| s.seat_of(tb, pos, b)).collect();
                    seats.sort();
                    prop_assert_eq!(seats, vec![0, 1, 2]);
                }
            }
        }
    }

    /// Matchpoints of a group sum to n(n-1) (every pair shares 2), each is at most
    /// the top; standings list every player once, ranks ascending from 1.
    #[test]
    fn matchpoints_share_two_per_pair(
        players in 4usize..25,
        points in proptest::collection::vec(-8i64..9, 9 * 3 * 4),
    ) {
        let boards = 3;
        let s = Schedule::new(players, boards).unwrap();
        let mut results = Vec::new();
        for b in 0..boards {
            for t in 0..s.tables() {
                let i = (b * s.tables() + t) * 3 % points.len();
                results.push(HandResult { board: b, table: t, deal: 0,
                    points: [points[i], points[(i + 1) % points.len()], points[(i + 2) % points.len()]] });
            }
        }
        let scores = score(&s, &results).unwrap();
        let n = s.tables() as u32;
        for b in 0..boards {
            for seat in 0..SEATS {
                let group: Vec<_> = scores.iter().filter(|x| x.board == b && x.seat == seat).collect();
                prop_assert_eq!(group.len() as u32, n);
                prop_assert_eq!(group.iter().map(|x| x.matchpoints).sum::<u32>(), n * (n - 1));
                prop_assert!(group.iter().all(|x| x.matchpoints <= x.top && x.top == 2 * (n - 1)));
            }
        }
        let st = standings(&s, &scores);
        prop_assert_eq!(st.len(), players);
        prop_assert_eq!(st[0].rank, 1);
        prop_assert!(st.windows(2).all(|w| w[0].rank <= w[1].rank && w[0].percent() >= w[1].percent()));
        prop_assert!(st.iter().all(|r| r.boards == boards));
        let finished: Vec<_> = results.iter().map(|r| (r.table, r.board)).collect();
        prop_assert!(published(&s, finished.iter().copied()).iter().all(|&x| x));
        prop_assert!(published(&s, finished.iter().copied().skip(1)).iter().filter(|&&x| !x).count() == 1);
    }
}
