//! Combinations: what a set of cards reads as, and which play beats which.
//!
//! The kicker rules (SPEC, and RLCard's variant, which the tests check against):
//! a kicker never shares a rank with the trios or the four it goes with; single
//! kickers may repeat a rank (`333444+55`) but never all four cards of a rank (a
//! bomb is not a kicker), nor three cards of a rank right next to an airplane's
//! trios (those would lengthen the airplane; a trio of `2`s can never do that, so
//! it may); the two jokers together are the rocket and never kickers; pair kickers
//! are of distinct ranks. Under these rules every set of cards has at most one
//! reading, and where a bare reading exists it is the one
//! (`333444555666` is an airplane of four trios).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::card::{Counts, Rank};

/// The type of a combination.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Single,
    Pair,
    Trio,
    /// A trio and one single kicker (三带一).
    TrioSingle,
    /// A trio and a pair (三带二).
    TrioPair,
    /// Five to twelve consecutive single ranks from `3` to `A` (顺子).
    Straight,
    /// Three or more consecutive pairs (连对).
    PairChain,
    /// Two or more consecutive trios without wings (飞机).
    Airplane,
    /// An airplane with one single kicker per trio (飞机带单).
    AirplaneSingles,
    /// An airplane with one pair kicker per trio (飞机带对).
    AirplanePairs,
    /// Four of a rank with two single kickers (四带二).
    FourTwoSingles,
    /// Four of a rank with two pairs (四带两对).
    FourTwoPairs,
    /// Four of a rank (炸弹).
    Bomb,
    /// Both jokers (王炸).
    Rocket,
}

impl Kind {
    /// The kind's name for people.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Single => "single",
            Kind::Pair => "pair",
            Kind::Trio => "trio",
            Kind::TrioSingle => "trio with a single",
            Kind::TrioPair => "trio with a pair",
            Kind::Straight => "straight",
            Kind::PairChain => "consecutive pairs",
            Kind::Airplane => "airplane",
            Kind::AirplaneSingles => "airplane with single wings",
            Kind::AirplanePairs => "airplane with pair wings",
            Kind::FourTwoSingles => "four with two singles",
            Kind::FourTwoPairs => "four with two pairs",
            Kind::Bomb => "bomb",
            Kind::Rocket => "rocket",
        }
    }

    /// Bombs and the rocket: they beat other kinds, and each one played doubles.
    pub const fn is_bomb(self) -> bool {
        matches!(self, Kind::Bomb | Kind::Rocket)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of cards read as a combination.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Combo {
    pub kind: Kind,
    /// The lowest rank of the main part (the chain, the trio, the four).
    pub rank: Rank,
    /// How many ranks the main part spans: 1 except for straights, pair chains and
    /// airplanes.
    pub chain: u8,
    /// The cards, kickers included.
    pub cards: Counts,
}

impl Combo {
    /// Whether `self` may be played on `last`: the same kind and length at a higher
    /// rank, or a bomb on anything but a higher bomb or the rocket, or the rocket.
    pub fn beats(&self, last: &Combo) -> bool {
        match (self.kind, last.kind) {
            (_, Kind::Rocket) => false,
            (Kind::Rocket, _) => true,
            (Kind::Bomb, Kind::Bomb) => self.rank > last.rank,
            (Kind::Bomb, _) => true,
            (a, b) => a == b && self.chain == last.chain && self.rank > last.rank,
        }
    }

    /// How many cards.
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }
}

impl fmt::Display for Combo {
    /// The cards, lowest rank first (`33344`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.cards)
    }
}

/// Counts of the ranks `3`..`A` as an array, jokers and `2` excluded: the ranks a
/// chain may use.
const CHAIN_TOP: u8 = 11;

/// Reads a set of cards as its one combination, or `None` if it is none.
pub fn classify(cards: Counts) -> Option<Combo> {
    let n = cards.len();
    if n == 0 {
        return None;
    }
    let mut count = [0u8; 15];
    let mut present = 0usize;
    let mut low = 15u8;
    let mut high = 0u8;
    let mut by_count = [0usize; 5];
    for (r, c) in cards.iter() {
        count[r.index()] = c;
        present += 1;
        low = low.min(r.index() as u8);
        high = high.max(r.index() as u8);
        by_count[c as usize] += 1;
    }
    let combo = |kind, rank: u8, chain| {
        Some(Combo {
            kind,
            rank: Rank::new(rank)?,
            chain,
            cards,
        })
    };
    let bj = count[13] == 1;
    let rj = count[14] == 1;
    if n == 2 && bj && rj {
        return combo(Kind::Rocket, 13, 1);
    }
    if present == 1 {
        return match n {
            1 => combo(Kind::Single, low, 1),
            2 => combo(Kind::Pair, low, 1),
            3 => combo(Kind::Trio, low, 1),
            4 => combo(Kind::Bomb, low, 1),
            _ => None,
        };
    }
    let consecutive = (high - low + 1) as usize == present && high <= CHAIN_TOP;
    // Bare readings first: a set that reads without kickers reads so.
    if consecutive {
        if by_count[1] == present && n >= 5 {
            return combo(Kind::Straight, low, present as u8);
        }
        if by_count[2] == present && present >= 3 {
            return combo(Kind::PairChain, low, present as u8);
        }
        if by_count[3] == present && present >= 2 {
            return combo(Kind::Airplane, low, present as u8);
        }
    }
    let rank_with = |c: u8| (0..15u8).find(|&r| count[r as usize] == c);
    match n {
        4 if by_count[3] == 1 => return combo(Kind::TrioSingle, rank_with(3)?, 1),
        5 if by_count[3] == 1 && by_count[2] == 1 => {
            return combo(Kind::TrioPair, rank_with(3)?, 1);
        }
        6 if by_count[4] == 1 && !(bj && rj) => {
            return combo(Kind::FourTwoSingles, rank_with(4)?, 1);
        }
        8 if by_count[4] == 1 && by_count[2] == 2 => {
            return combo(Kind::FourTwoPairs, rank_with(4)?, 1);
        }
        _ => {}
    }
    if n.is_multiple_of(4) && (8..=20).contains(&n) {
        let k = n / 4;
        if let Some(start) = airplane_with_singles(&count, k, bj && rj) {
            return combo(Kind::AirplaneSingles, start, k as u8);
        }
    }
    if n.is_multiple_of(5) && (10..=20).contains(&n) {
        let k = n / 5;
        if let Some(start) = airplane_with_pairs(&count, k) {
            return combo(Kind::AirplanePairs, start, k as u8);
        }
    }
    None
}

/// The start of a chain of `k` trios (each rank exactly three, `3`..`A`) whose other
/// cards are `k` valid single kickers.
fn airplane_with_singles(count: &[u8; 15], k: usize, rocket: bool) -> Option<u8> {
    if rocket {
        return None;
    }
    'starts: for start in 0..=(CHAIN_TOP as usize + 1).checked_sub(k)? {
        if (start..start + k).any(|r| count[r] != 3) {
            continue;
        }
        for (r, &c) in count.iter().enumerate() {
            if (start..start + k).contains(&r) {
                continue;
            }
            if c == 4 || (c == 3 && is_adjacent(r, start, k)) {
                continue 'starts;
            }
        }
        return Some(start as u8);
    }
    None
}

/// Whether rank `r` sits right next to the chain `start..start+k` and could
/// lengthen it (the `2` never can).
pub(crate) fn is_adjacent(r: usize, start: usize, k: usize) -> bool {
    r != Rank::TWO.index() && (r + 1 == start || r == start + k)
}

/// The start of a chain of `k` trios whose other cards are `k` pairs of distinct
/// ranks.
fn airplane_with_pairs(count: &[u8; 15], k: usize) -> Option<u8> {
    'starts: for start in 0..=(CHAIN_TOP as usize + 1).checked_sub(k)? {
        if (start..start + k).any(|r| count[r] != 3) {
            continue;
        }
        for (r, &c) in count.iter().enumerate() {
            if !(start..start + k).contains(&r) && c != 0 && c != 2 {
                continue 'starts;
            }
        }
        return Some(start as u8);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(s: &str) -> Option<Kind> {
        classify(Counts::parse(s).unwrap()).map(|c| c.kind)
    }

    #[test]
    fn bare_reading_wins() {
        assert_eq!(kind("333444555666"), Some(Kind::Airplane));
    }

    #[test]
    fn two_of_rank_not_in_chains() {
        assert_eq!(kind("JQKA2"), None);
        assert_eq!(kind("QQKKAA22"), None);
        assert_eq!(kind("KKKAAA222"), None);
    }
}
