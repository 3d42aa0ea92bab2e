//! Simulated events for benchmarks and tests: players with ratings, rounds
//! paired and results drawn from a seeded generator.
//!
//! Two ways of pairing the simulated rounds exist. [`simulated_event`] pairs
//! every round with the exact Dutch pairer, which is faithful but, for large
//! events, far slower than what is being measured (round 1 of 2,000 players
//! takes minutes). [`approximate_event`] pairs the simulated rounds with a
//! fast, simple Swiss pairer ([`approximate_round`]) whose only job is to give
//! the next round a realistic history: score groups, no repeated opponents,
//! colours that obey the absolute colour rules. Its pairings are not FIDE
//! Dutch pairings and must never be used as such.
//!
//! Everything follows from the seed, so the same call gives the same event.

use std::collections::HashSet;

use crate::dutch::{PairError, Pairing, pair};
use crate::model::{Colour, ResultCode, Tournament};

/// A small deterministic generator (SplitMix64).
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    pub fn new(seed: u64) -> Self {
        SplitMix(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// An event of `players` players and `total_rounds` rounds with the first
/// `played` rounds paired by the exact Dutch pairer and played. Ratings run
/// from about 2700 down to 1000; a few players ask for half-point byes;
/// results follow the rating difference (Elo expectation, with draws around
/// it).
pub fn simulated_event(
    players: usize,
    played: usize,
    total_rounds: u32,
    seed: u64,
) -> Result<Tournament, PairError> {
    let (mut t, mut rng) = new_event(players, total_rounds, seed);
    for round in 1..=played {
        request_byes(&mut t, &mut rng, round);
        let pairing = pair(&t)?;
        play_round(&mut t, &mut rng, round, &pairing.games, pairing.bye);
    }
    Ok(t)
}

/// The same event as [`simulated_event`] (ratings, bye requests, results drawn
/// alike) but with the `played` rounds paired by [`approximate_round`], so that
/// a history of thousands of players takes well under a second to build. Only
/// the round after them is meant to be paired exactly.
pub fn approximate_event(
    players: usize,
    played: usize,
    total_rounds: u32,
    seed: u64,
) -> Result<Tournament, HistoryError> {
    let (mut t, mut rng) = new_event(players, total_rounds, seed);
    for round in 1..=played {
        request_byes(&mut t, &mut rng, round);
        let pairing = approximate_round(&t, round)?;
        play_round(&mut t, &mut rng, round, &pairing.games, pairing.bye);
    }
    Ok(t)
}

/// Players rated 1000 to 2700 in starting-rank order, and the generator that
/// goes on to draw the rest of the event.
fn new_event(players: usize, total_rounds: u32, seed: u64) -> (Tournament, SplitMix) {
    let mut rng = SplitMix::new(seed);
    let mut ratings: Vec<u32> = (0..players)
        .map(|_| 1000 + (rng.unit() * 1700.0) as u32)
        .collect();
    ratings.sort_unstable_by(|a, b| b.cmp(a));
    let mut t = Tournament::new(
        total_rounds,
        if seed.is_multiple_of(2) {
            Colour::White
        } else {
            Colour::Black
        },
    );
    for (i, r) in ratings.iter().enumerate() {
        t.add_player(&format!("Player {:05}", i + 1), Some(*r));
    }
    (t, rng)
}

/// About one player in a hundred asks for a half-point bye in each round.
fn request_byes(t: &mut Tournament, rng: &mut SplitMix, round: usize) {
    for p in 1..=t.players.len() as u32 {
        if rng.unit() < 0.01 {
            // Requests are checked by construction: the player exists.
            let _ = t.request_bye(p, round, ResultCode::HalfBye);
        }
    }
}

/// Records the results of a round's games: White's expected score from the
/// rating difference (Elo), a draw band of ±0.15 around it.
fn play_round(
    t: &mut Tournament,
    rng: &mut SplitMix,
    round: usize,
    games: &[(u32, u32)],
    bye: Option<u32>,
) {
    for &(w, b) in games {
        let rating = |p: u32| f64::from(t.player(p).and_then(|x| x.rating).unwrap_or(1500));
        let expected = 1.0 / (1.0 + 10f64.powf((rating(b) - rating(w)) / 400.0));
        let x = rng.unit();
        let result = if x < expected - 0.15 {
            ResultCode::Win
        } else if x < expected + 0.15 {
            ResultCode::Draw
        } else {
            ResultCode::Loss
        };
        let _ = t.record_game(round, w, b, result);
    }
    if let Some(p) = bye {
        let _ = t.record_pairing_bye(round, p);
    }
    t.update_points(round);
}

/// Why a simulated history could not be built, or is not valid input for the
/// pairing of the next round.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HistoryError {
    #[error("round {0}: the approximate pairer could not pair everyone")]
    Stuck(usize),
    #[error("players {0} and {1} met twice")]
    Rematch(u32, u32),
    #[error("player {player}, round {round}: the opponent's entry does not agree")]
    Inconsistent { player: u32, round: usize },
    #[error("player {0}: the same colour three times in a row")]
    ThreeInARow(u32),
    #[error("player {0}: colour difference above two")]
    Imbalance(u32),
    #[error("player {0}: more than one pairing-allocated bye")]
    TwoByes(u32),
}

/// What the approximate pairer knows about one player: the colours of the
/// games played, the opponents met, whether a bye was already given.
#[derive(Clone, Debug, Default)]
struct Seen {
    colours: Vec<Colour>,
    opponents: HashSet<u32>,
    had_bye: bool,
}

impl Seen {
    fn of(t: &Tournament, index: usize, rounds: usize) -> Seen {
        let mut s = Seen::default();
        let p = &t.players[index];
        for r in 1..=rounds {
            let e = p.entry(r);
            if e.played()
                && let Some(c) = e.colour.colour()
            {
                s.colours.push(c);
            }
            if let Some(o) = e.opponent() {
                s.opponents.insert(o);
            }
            s.had_bye |= e.is_pairing_bye();
        }
        s
    }

    fn imbalance(&self) -> i32 {
        self.colours
            .iter()
            .map(|c| match c {
                Colour::White => 1,
                Colour::Black => -1,
            })
            .sum()
    }

    /// The colour the player must have: colour difference of two, or the same
    /// colour in the last two games (C.04.1 A.6).
    fn absolute(&self) -> Option<Colour> {
        let d = self.imbalance();
        if d >= 2 {
            return Some(Colour::Black);
        }
        if d <= -2 {
            return Some(Colour::White);
        }
        match self.colours[..] {
            [.., a, b] if a == b => Some(a.invert()),
            _ => None,
        }
    }

    /// The colour the player would like: the lower count, else alternation.
    fn preference(&self) -> Option<Colour> {
        match self.imbalance() {
            d if d > 0 => Some(Colour::Black),
            d if d < 0 => Some(Colour::White),
            _ => self.colours.last().map(|c| c.invert()),
        }
    }
}

/// Pairs round `round` approximately (NOT by the FIDE Dutch rules): players by
/// score then starting rank; a pairing-allocated bye for the lowest player
/// without one; each score group, with the players floated down from above,
/// split into a top and a bottom half and the top half's players paired in
/// order against the first free bottom-half player they may meet (starting
/// with the one in the same position); the rest paired greedily inside the
/// group or floated down; a last exchange with already made pairs if the
/// bottom group cannot be paired. A pair may be made when the players have not
/// met and their absolute colours do not clash; colours then follow absolute
/// colours, then preferences (the higher player's first), then alternation
/// from the initial colour.
pub fn approximate_round(t: &Tournament, round: usize) -> Result<Pairing, HistoryError> {
    let before = round - 1;
    let seen: Vec<Seen> = (0..t.players.len())
        .map(|i| Seen::of(t, i, before))
        .collect();
    // Indices into `t.players`, by score then starting rank.
    let mut order: Vec<usize> = (0..t.players.len())
        .filter(|&i| !t.players[i].withdrawn && t.players[i].entry(round).is_blank())
        .collect();
    let score = |i: usize| t.players[i].score_after(before, &t.scoring);
    let scores: Vec<u32> = (0..t.players.len()).map(score).collect();
    order.sort_by(|&a, &b| {
        scores[b]
            .cmp(&scores[a])
            .then(t.players[a].start_rank.cmp(&t.players[b].start_rank))
    });
    let mut bye = None;
    if order.len() % 2 == 1 {
        let at = order
            .iter()
            .rposition(|&i| !seen[i].had_bye)
            .ok_or(HistoryError::Stuck(round))?;
        bye = Some(order.remove(at));
    }
    let rank = |i: usize| t.players[i].start_rank;
    let may_meet = |a: usize, b: usize| {
        !seen[a].opponents.contains(&rank(b))
            && !matches!((seen[a].absolute(), seen[b].absolute()), (Some(x), Some(y)) if x == y)
    };
    let mut pairs: Vec<(usize, usize)> = Vec::with_capacity(order.len() / 2);
    let mut floaters: Vec<usize> = Vec::new();
    let mut start = 0;
    while start < order.len() {
        let mut end = start;
        while end < order.len() && scores[order[end]] == scores[order[start]] {
            end += 1;
        }
        let mut pool = std::mem::take(&mut floaters);
        pool.extend_from_slice(&order[start..end]);
        let half = pool.len() / 2;
        let mut used = vec![false; pool.len()];
        for i in 0..half {
            let found = (half + i..pool.len())
                .chain(half..half + i)
                .find(|&j| !used[j] && may_meet(pool[i], pool[j]));
            if let Some(j) = found {
                used[i] = true;
                used[j] = true;
                pairs.push((pool[i], pool[j]));
            }
        }
        for i in 0..pool.len() {
            if used[i] {
                continue;
            }
            if let Some(j) = (i + 1..pool.len()).find(|&j| !used[j] && may_meet(pool[i], pool[j])) {
                used[i] = true;
                used[j] = true;
                pairs.push((pool[i], pool[j]));
            } else {
                used[i] = true;
                floaters.push(pool[i]);
            }
        }
        start = end;
    }
    // The bottom group could not be paired: exchange partners with made pairs,
    // from the bottom up.
    while let Some(a) = floaters.pop() {
        let Some(b) = floaters.pop() else {
            return Err(HistoryError::Stuck(round));
        };
        if may_meet(a, b) {
            pairs.push((a, b));
            continue;
        }
        let swap = (0..pairs.len()).rev().find_map(|k| {
            let (c, d) = pairs[k];
            if may_meet(a, c) && may_meet(b, d) {
                Some((k, (a, c), (b, d)))
            } else if may_meet(a, d) && may_meet(b, c) {
                Some((k, (a, d), (b, c)))
            } else {
                None
            }
        });
        let (k, x, y) = swap.ok_or(HistoryError::Stuck(round))?;
        pairs[k] = x;
        pairs.push(y);
    }
    let initial = t.initial_colour.unwrap_or(Colour::White);
    let position = |i: usize| (std::cmp::Reverse(scores[i]), rank(i));
    pairs.sort_by_key(|&(a, b)| position(a).min(position(b)));
    let games = pairs
        .iter()
        .enumerate()
        .map(|(board, &(a, b))| {
            let (hi, lo) = if position(a) < position(b) {
                (a, b)
            } else {
                (b, a)
            };
            let (sh, sl) = (&seen[hi], &seen[lo]);
            let hi_colour = if let Some(c) = sh.absolute() {
                c
            } else if let Some(c) = sl.absolute() {
                c.invert()
            } else {
                match (sh.preference(), sl.preference()) {
                    (Some(x), Some(y)) if x == y && sl.imbalance().abs() > sh.imbalance().abs() => {
                        y.invert()
                    }
                    (Some(x), _) => x,
                    (None, Some(y)) => y.invert(),
                    (None, None) if board % 2 == 0 => initial,
                    (None, None) => initial.invert(),
                }
            };
            match hi_colour {
                Colour::White => (rank(hi), rank(lo)),
                Colour::Black => (rank(lo), rank(hi)),
            }
        })
        .collect();
    Ok(Pairing {
        games,
        bye: bye.map(rank),
    })
}

/// Checks that the played rounds of `t` are a history the Dutch rules accept
/// as input: both entries of each game agree, no two players met twice over
/// the board, no one had the same colour three times in a row or a colour
/// difference above two, and no one had two pairing-allocated byes.
pub fn check_history(t: &Tournament) -> Result<(), HistoryError> {
    let rounds = t.paired_rounds();
    for p in &t.players {
        let mut met = HashSet::new();
        let mut colours = Vec::new();
        let mut byes = 0;
        for r in 1..=rounds {
            let e = p.entry(r);
            byes += usize::from(e.is_pairing_bye());
            let Some(o) = e.opponent() else { continue };
            let back = t
                .player(o)
                .map(|q| q.entry(r))
                .ok_or(HistoryError::Inconsistent {
                    player: p.start_rank,
                    round: r,
                })?;
            if back.opponent() != Some(p.start_rank)
                || back.colour.colour().map(Colour::invert) != e.colour.colour()
            {
                return Err(HistoryError::Inconsistent {
                    player: p.start_rank,
                    round: r,
                });
            }
            if e.played() {
                if !met.insert(o) {
                    return Err(HistoryError::Rematch(p.start_rank, o));
                }
                colours.extend(e.colour.colour());
            }
        }
        if colours.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]) {
            return Err(HistoryError::ThreeInARow(p.start_rank));
        }
        let whites = colours.iter().filter(|&&c| c == Colour::White).count();
        if whites.abs_diff(colours.len() - whites) > 2 {
            return Err(HistoryError::Imbalance(p.start_rank));
        }
        if byes > 1 {
            return Err(HistoryError::TwoByes(p.start_rank));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_event() {
        let a = simulated_event(30, 3, 5, 7).unwrap();
        let b = simulated_event(30, 3, 5, 7).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.paired_rounds(), 3);
        // Every round paired everyone present: 30 players, a few byes.
        let scores: u32 = a.players.iter().map(|p| p.points).sum();
        assert!(scores > 0);
        // The event round-trips through TRF.
        let text = crate::trf::write(&a);
        assert_eq!(crate::trf::parse(&text).unwrap().players, a.players);
        check_history(&a).unwrap();
    }

    #[test]
    fn approximate_history_is_valid_and_pairs_exactly() {
        for (players, seed) in [(40, 1), (41, 2), (225, 225), (1000, 1000)] {
            let t = approximate_event(players, 6, 9, seed).unwrap();
            assert_eq!(t, approximate_event(players, 6, 9, seed).unwrap());
            assert_eq!(t.paired_rounds(), 6);
            check_history(&t).unwrap();
            // Everyone without a requested bye played or got the bye each round.
            for r in 1..=6 {
                for p in &t.players {
                    let e = p.entry(r);
                    assert!(e.participated() || e.result == ResultCode::HalfBye);
                }
            }
            // A Swiss history: most games join equal scores.
            let (mut games, mut level) = (0, 0);
            for r in 1..=6 {
                for p in &t.players {
                    let Some(o) = p.entry(r).opponent() else {
                        continue;
                    };
                    let q = t.player(o).unwrap();
                    games += 1;
                    level += usize::from(
                        p.score_after(r - 1, &t.scoring) == q.score_after(r - 1, &t.scoring),
                    );
                }
            }
            assert!(level * 5 > games * 4, "{level} of {games}");
            // The exact pairer accepts the history (the larger events are
            // the benchmark's).
            if players <= 225 {
                pair(&t).unwrap();
            }
        }
    }

    #[test]
    fn check_history_finds_rematches_and_colour_runs() {
        let mut t = Tournament::new(5, Colour::White);
        for i in 0..4 {
            t.add_player(&format!("P{i}"), Some(2000 - i));
        }
        t.record_game(1, 1, 2, ResultCode::Draw).unwrap();
        t.record_game(1, 3, 4, ResultCode::Draw).unwrap();
        t.record_game(2, 1, 3, ResultCode::Draw).unwrap();
        t.record_game(2, 2, 4, ResultCode::Draw).unwrap();
        assert_eq!(check_history(&t), Ok(()));
        t.record_game(3, 1, 4, ResultCode::Draw).unwrap();
        t.record_game(3, 2, 3, ResultCode::Draw).unwrap();
        assert_eq!(check_history(&t), Err(HistoryError::ThreeInARow(1)));
        let mut u = t.clone();
        u.record_game(3, 4, 1, ResultCode::Draw).unwrap();
        u.record_game(4, 2, 1, ResultCode::Draw).unwrap();
        u.record_game(4, 3, 4, ResultCode::Draw).unwrap();
        assert_eq!(check_history(&u), Err(HistoryError::Rematch(1, 2)));
    }
}
