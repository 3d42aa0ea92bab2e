//! The pure rules of events at tables of three (points events 积分赛, and the
//! duplicate events built on the same core): who sits together in a round,
//! each player's running score, who is eliminated (打立出局) and who plays the
//! final (定局积分). No I/O, no clock: the director calls these with what the
//! store holds, so the same rows always give the same tables and standings
//! (a restart regroups nothing). docs/card-events.md says the rules with an
//! example.

use std::collections::{HashMap, HashSet};

use qiyuan_store::UserId;
use serde::{Deserialize, Serialize};

/// Elimination (打立出局): after qualifying round `r`, a player whose chips are
/// below `threshold + rise × (r − 1)` is out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Elimination {
    pub threshold: i64,
    #[serde(default)]
    pub rise: i64,
}

impl Elimination {
    /// The threshold applied after qualifying round `round` (from 1).
    pub fn after_round(&self, round: i64) -> i64 {
        self.threshold
            .saturating_add(self.rise.saturating_mul((round - 1).max(0)))
    }
}

/// The final (定局积分): the top `players` (a multiple of 3) by chips after
/// the qualifying rounds play `hands` hands more, at tables regrouped by
/// score, their chips carried over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Final {
    pub players: u32,
    pub hands: u32,
}

/// One player as the rules see them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entrant {
    pub user: UserId,
    /// Registration order, from 1: breaks ties.
    pub start_rank: i64,
    /// Withdrawn or disqualified: never grouped again.
    pub gone: bool,
}

/// One hand as the rules see it: who sat where, and each seat's score once
/// it ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hand {
    pub round: i64,
    pub seats: Vec<UserId>,
    pub scores: Option<Vec<i64>>,
}

/// A round's tables: each a list of three user ids in seat order, and the
/// players who sit the round out (the field not a multiple of three).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Grouping {
    pub tables: Vec<[UserId; 3]>,
    pub sitting_out: Vec<UserId>,
}

/// Each player's chips after the hands of rounds up to `through` (all the
/// scored hands with `None`): the starting chips plus their scores.
pub fn chips(
    entrants: &[Entrant],
    start: i64,
    hands: &[Hand],
    through: Option<i64>,
) -> HashMap<UserId, i64> {
    let mut chips: HashMap<UserId, i64> = entrants.iter().map(|e| (e.user, start)).collect();
    for h in hands
        .iter()
        .filter(|h| through.is_none_or(|r| h.round <= r))
    {
        let Some(scores) = &h.scores else { continue };
        for (user, s) in h.seats.iter().zip(scores) {
            if let Some(c) = chips.get_mut(user) {
                *c = c.saturating_add(*s);
            }
        }
    }
    chips
}

/// Entrants by chips, highest first, then by starting rank.
pub fn by_chips<'a>(entrants: &'a [Entrant], chips: &HashMap<UserId, i64>) -> Vec<&'a Entrant> {
    let mut order: Vec<&Entrant> = entrants.iter().collect();
    order.sort_by_key(|e| (-chips.get(&e.user).copied().unwrap_or(0), e.start_rank));
    order
}

/// The players still in before round `next`: not gone, not eliminated after
/// an earlier qualifying round, and, for the final round (`next` past
/// `qualifying`), among the final's players. Eliminating never leaves fewer
/// than `keep` players (3, or the final's number): the best of those below
/// the threshold are kept to make up the number.
pub fn still_in(
    entrants: &[Entrant],
    start: i64,
    hands: &[Hand],
    next: i64,
    qualifying: i64,
    elimination: Option<Elimination>,
    final_round: Option<Final>,
) -> Vec<UserId> {
    let keep = final_round.map_or(3, |f| (f.players as usize).max(3));
    let mut alive: Vec<&Entrant> = entrants.iter().filter(|e| !e.gone).collect();
    if let Some(el) = elimination {
        for r in 1..next.min(qualifying + 1) {
            let c = chips(entrants, start, hands, Some(r));
            let threshold = el.after_round(r);
            let ranked: Vec<&Entrant> = by_chips(entrants, &c)
                .into_iter()
                .filter(|e| alive.iter().any(|a| a.user == e.user))
                .collect();
            let above = ranked
                .iter()
                .filter(|e| c.get(&e.user).copied().unwrap_or(0) >= threshold)
                .count();
            let stay = above.max(keep.min(ranked.len()));
            alive = ranked.into_iter().take(stay).collect();
        }
    }
    if let Some(f) = final_round
        && next > qualifying
    {
        let c = chips(entrants, start, hands, Some(qualifying));
        let ranked: Vec<&Entrant> = by_chips(entrants, &c)
            .into_iter()
            .filter(|e| alive.iter().any(|a| a.user == e.user))
            .collect();
        alive = ranked.into_iter().take(f.players as usize).collect();
    }
    alive.iter().map(|e| e.user).collect()
}

/// The trio's key: its three ids sorted.
fn key(t: &[UserId; 3]) -> [UserId; 3] {
    let mut k = *t;
    k.sort_unstable();
    k
}

/// Groups `players` (in any order) into tables of three by their chips.
///
/// 1. Order them by chips, highest first, ties by starting rank.
/// 2. When their number is not a multiple of three, one or two sit the round
///    out (score 0 for it): from the bottom of the order, those who sat out
///    fewest times before (`sat_out`) first, lowest first.
/// 3. The rest, in order, make tables of three: the top three at table 1,
///    the next three at table 2, and so on.
/// 4. A table whose three already sat together in an earlier round (`met`)
///    swaps one player with the next table (the last table with the one
///    before): the first swap, its lowest player against the other table's
///    highest first, that leaves neither table a repeat. None: it stays.
/// 5. At each table the seats are in order of chips (seat 0 the highest).
pub fn group(
    players: &[UserId],
    entrants: &[Entrant],
    chips: &HashMap<UserId, i64>,
    sat_out: &HashMap<UserId, u32>,
    met: &HashSet<[UserId; 3]>,
) -> Grouping {
    let mut order: Vec<&Entrant> = by_chips(entrants, chips)
        .into_iter()
        .filter(|e| players.contains(&e.user))
        .collect();
    let extra = order.len() % 3;
    let mut sitting_out = Vec::new();
    if extra > 0 {
        let mut candidates: Vec<(u32, usize)> = order
            .iter()
            .enumerate()
            .map(|(i, e)| (sat_out.get(&e.user).copied().unwrap_or(0), i))
            .collect();
        candidates.sort_by_key(|&(times, i)| (times, std::cmp::Reverse(i)));
        let mut out: Vec<usize> = candidates.iter().take(extra).map(|&(_, i)| i).collect();
        out.sort_unstable_by(|a, b| b.cmp(a));
        for i in out {
            sitting_out.push(order.remove(i).user);
        }
        sitting_out.reverse();
    }
    let mut tables: Vec<[UserId; 3]> = order
        .chunks(3)
        .map(|c| [c[0].user, c[1].user, c[2].user])
        .collect();
    let n = tables.len();
    for i in 0..n {
        if n < 2 || !met.contains(&key(&tables[i])) {
            continue;
        }
        let j = if i + 1 < n { i + 1 } else { i - 1 };
        'swap: for a in (0..3).rev() {
            for b in 0..3 {
                let (mut ti, mut tj) = (tables[i], tables[j]);
                std::mem::swap(&mut ti[a], &mut tj[b]);
                if !met.contains(&key(&ti)) && !met.contains(&key(&tj)) {
                    tables[i] = ti;
                    tables[j] = tj;
                    break 'swap;
                }
            }
        }
    }
    let rank: HashMap<UserId, usize> = by_chips(entrants, chips)
        .iter()
        .enumerate()
        .map(|(i, e)| (e.user, i))
        .collect();
    for t in &mut tables {
        t.sort_by_key(|u| rank.get(u).copied().unwrap_or(usize::MAX));
    }
    Grouping {
        tables,
        sitting_out,
    }
}

/// Who sits where at hand `hand` (from 1) of a table seated `seats`: the
/// seats turn by one each hand, so that each player bids first in turn.
pub fn rotate(seats: &[UserId], hand: i64) -> Vec<UserId> {
    let mut s = seats.to_vec();
    if !s.is_empty() {
        let by = ((hand - 1).max(0) as usize) % s.len();
        s.rotate_left(by);
    }
    s
}

/// One line of a card event's standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CardStanding {
    pub place: usize,
    pub start_rank: i64,
    pub user: UserId,
    pub chips: i64,
    /// Hands played (scored).
    pub hands: u32,
    /// The last round the player was in (grouped or sitting out): the
    /// final's players reach the last, an eliminated player the round after
    /// which they went out.
    pub reached: i64,
    /// Eliminated (or withdrawn, disqualified) before the last round played.
    pub out: bool,
}

/// The standings after the rounds started so far (`rounds`, the current one
/// counting with its scored hands): by the last round reached, then chips,
/// then starting rank.
#[allow(clippy::too_many_arguments)]
pub fn standings(
    entrants: &[Entrant],
    start: i64,
    hands: &[Hand],
    rounds: i64,
    qualifying: i64,
    elimination: Option<Elimination>,
    final_round: Option<Final>,
) -> Vec<CardStanding> {
    let c = chips(entrants, start, hands, None);
    let mut reached: HashMap<UserId, i64> = HashMap::new();
    for r in 1..=rounds {
        for u in still_in(
            entrants,
            start,
            hands,
            r,
            qualifying,
            elimination,
            final_round,
        ) {
            reached.insert(u, r);
        }
    }
    let mut played: HashMap<UserId, u32> = HashMap::new();
    for h in hands.iter().filter(|h| h.scores.is_some()) {
        for u in &h.seats {
            *played.entry(*u).or_default() += 1;
        }
    }
    let mut lines: Vec<CardStanding> = entrants
        .iter()
        .map(|e| {
            let r = reached.get(&e.user).copied().unwrap_or(0);
            CardStanding {
                place: 0,
                start_rank: e.start_rank,
                user: e.user,
                chips: c.get(&e.user).copied().unwrap_or(start),
                hands: played.get(&e.user).copied().unwrap_or(0),
                reached: r,
                out: r < rounds,
            }
        })
        .collect();
    lines.sort_by_key(|l| (-l.reached, -l.chips, l.start_rank));
    for (i, l) in lines.iter_mut().enumerate() {
        l.place = i + 1;
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entrants(n: i64) -> Vec<Entrant> {
        (1..=n)
            .map(|i| Entrant {
                user: 100 + i,
                start_rank: i,
                gone: false,
            })
            .collect()
    }

    fn hand(round: i64, seats: [UserId; 3], scores: [i64; 3]) -> Hand {
        Hand {
            round,
            seats: seats.to_vec(),
            scores: Some(scores.to_vec()),
        }
    }

    #[test]
    fn tables_of_three_follow_the_chips() {
        let es = entrants(9);
        let all: Vec<UserId> = es.iter().map(|e| e.user).collect();
        // Before any hand: by starting rank.
        let c = chips(&es, 1000, &[], None);
        let g = group(&all, &es, &c, &HashMap::new(), &HashSet::new());
        assert_eq!(
            g.tables,
            vec![[101, 102, 103], [104, 105, 106], [107, 108, 109]]
        );
        assert!(g.sitting_out.is_empty());
        // After a round: the winners together at table 1.
        let hands = vec![
            hand(1, [101, 102, 103], [-20, -20, 40]),
            hand(1, [104, 105, 106], [60, -30, -30]),
            hand(1, [107, 108, 109], [-10, 20, -10]),
        ];
        let c = chips(&es, 1000, &hands, None);
        assert_eq!(c[&104], 1060);
        let met: HashSet<[UserId; 3]> = hands
            .iter()
            .map(|h| key(&[h.seats[0], h.seats[1], h.seats[2]]))
            .collect();
        let g = group(&all, &es, &c, &HashMap::new(), &met);
        // Order: 104 1060, 103 1040, 108 1020, 107 990, 109 990, 101 980,
        // 102 980, 105 970, 106 970.
        assert_eq!(
            g.tables,
            vec![[104, 103, 108], [107, 109, 101], [102, 105, 106]]
        );
    }

    #[test]
    fn a_repeated_trio_swaps_with_the_next_table() {
        let es = entrants(6);
        let all: Vec<UserId> = es.iter().map(|e| e.user).collect();
        let c = chips(&es, 0, &[], None);
        let met: HashSet<[UserId; 3]> = [[101, 102, 103]].into_iter().collect();
        let g = group(&all, &es, &c, &HashMap::new(), &met);
        // 103 (the lowest of table 1) and 104 (the highest of table 2) swap.
        assert_eq!(g.tables, vec![[101, 102, 104], [103, 105, 106]]);
        // Both trios met before, and every swap too: nothing better, it stays.
        let every: HashSet<[UserId; 3]> = {
            let mut s = HashSet::new();
            for a in 101..=106 {
                for b in a + 1..=106 {
                    for c in b + 1..=106 {
                        s.insert([a, b, c]);
                    }
                }
            }
            s
        };
        let g = group(&all, &es, &c, &HashMap::new(), &every);
        assert_eq!(g.tables, vec![[101, 102, 103], [104, 105, 106]]);
    }

    #[test]
    fn the_lowest_sit_out_in_turn() {
        let es = entrants(8);
        let all: Vec<UserId> = es.iter().map(|e| e.user).collect();
        let c = chips(&es, 0, &[], None);
        let g = group(&all, &es, &c, &HashMap::new(), &HashSet::new());
        assert_eq!(g.sitting_out, vec![107, 108]);
        assert_eq!(g.tables, vec![[101, 102, 103], [104, 105, 106]]);
        // 108 sat out before: the next lowest who did not, 106, does.
        let sat: HashMap<UserId, u32> = [(108, 1)].into_iter().collect();
        let g = group(&all, &es, &c, &sat, &HashSet::new());
        assert_eq!(g.sitting_out, vec![106, 107]);
        assert_eq!(g.tables, vec![[101, 102, 103], [104, 105, 108]]);
    }

    #[test]
    fn elimination_rises_and_the_final_takes_the_top() {
        let es = entrants(9);
        let hands = vec![
            hand(1, [101, 102, 103], [-200, 100, 100]),
            hand(1, [104, 105, 106], [-50, 25, 25]),
            hand(1, [107, 108, 109], [0, 0, 0]),
            hand(2, [102, 103, 105], [10, 10, -20]),
            hand(2, [106, 107, 108], [-90, 45, 45]),
            hand(2, [109, 104, 102], [0, 0, 0]),
        ];
        let el = Some(Elimination {
            threshold: 900,
            rise: 50,
        });
        let fin = Some(Final {
            players: 3,
            hands: 2,
        });
        // Round 2: 101 (800) is below 900.
        let r2 = still_in(&es, 1000, &hands, 2, 2, el, fin);
        assert_eq!(r2.len(), 8);
        assert!(!r2.contains(&101));
        // The final (round 3): after round 2 the threshold is 950: 104 (950)
        // stays, 106 (935) goes; the top three of the rest play.
        let r3 = still_in(&es, 1000, &hands, 3, 2, el, fin);
        assert_eq!(r3, vec![102, 103, 107]);
        let st = standings(&es, 1000, &hands, 3, 2, el, fin);
        assert_eq!(
            st.iter().map(|s| s.user).take(4).collect::<Vec<_>>(),
            vec![102, 103, 107, 108]
        );
        assert!(!st[0].out && st[3].out);
        assert_eq!(st.last().map(|s| (s.user, s.reached)), Some((101, 1)));
    }

    #[test]
    fn elimination_keeps_three() {
        let es = entrants(3);
        let hands = vec![hand(1, [101, 102, 103], [-500, -400, -100])];
        let el = Some(Elimination {
            threshold: 2000,
            rise: 0,
        });
        assert_eq!(
            still_in(&es, 1000, &hands, 2, 3, el, None),
            vec![103, 102, 101]
        );
    }

    #[test]
    fn seats_turn_each_hand() {
        assert_eq!(rotate(&[1, 2, 3], 1), vec![1, 2, 3]);
        assert_eq!(rotate(&[1, 2, 3], 2), vec![2, 3, 1]);
        assert_eq!(rotate(&[1, 2, 3], 4), vec![1, 2, 3]);
    }
}
