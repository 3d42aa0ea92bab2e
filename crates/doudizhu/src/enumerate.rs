//! Every legal play from a hand, leading or against the play to beat.
//!
//! Plays are generated kind by kind straight from the hand's rank counts, so that
//! following a play only builds plays of that kind and length (plus bombs and the
//! rocket); each generated set of cards is built once and reads as the combination
//! it was built as (see [`crate::combo`] for the kicker rules).

// Loops run over rank indices, which index the count array and name the rank.
#![allow(clippy::needless_range_loop)]

use crate::card::{Counts, Rank};
use crate::combo::{Combo, Kind, is_adjacent};

/// The longest chains a hand of at most 20 cards can hold.
const MAX_STRAIGHT: usize = 12;
const MAX_PAIR_CHAIN: usize = 10;
const MAX_AIRPLANE: usize = 6;
const MAX_AIRPLANE_SINGLES: usize = 5;
const MAX_AIRPLANE_PAIRS: usize = 4;
/// Chains use `3` to `A` only.
const CHAIN_END: usize = 12;

/// Every play of `hand` that may be made when `last` is the play to beat (`None`
/// when leading). Passing is not a play and is not listed.
pub fn legal_plays(hand: Counts, last: Option<&Combo>) -> Vec<Combo> {
    let mut out = Vec::new();
    for_each_play(hand, last, |c| out.push(c));
    out
}

/// Calls `f` with every play of `hand` against `last` (see [`legal_plays`]).
pub fn for_each_play(hand: Counts, last: Option<&Combo>, mut f: impl FnMut(Combo)) {
    let count = counts_array(hand);
    match last {
        None => {
            for kind in ALL_KINDS {
                generate(&count, kind, None, &mut f);
            }
        }
        Some(last) => {
            if last.kind == Kind::Rocket {
                return;
            }
            if last.kind != Kind::Bomb {
                generate(&count, last.kind, Some((last.rank, last.chain)), &mut f);
                generate(&count, Kind::Bomb, None, &mut f);
            } else {
                generate(&count, Kind::Bomb, Some((last.rank, 1)), &mut f);
            }
            generate(&count, Kind::Rocket, None, &mut f);
        }
    }
}

/// Every kind, in the order plays are listed when leading.
pub const ALL_KINDS: [Kind; 14] = [
    Kind::Single,
    Kind::Pair,
    Kind::Trio,
    Kind::TrioSingle,
    Kind::TrioPair,
    Kind::Straight,
    Kind::PairChain,
    Kind::Airplane,
    Kind::AirplaneSingles,
    Kind::AirplanePairs,
    Kind::FourTwoSingles,
    Kind::FourTwoPairs,
    Kind::Bomb,
    Kind::Rocket,
];

fn counts_array(hand: Counts) -> [u8; 15] {
    let mut count = [0u8; 15];
    for r in Rank::all() {
        count[r.index()] = hand.get(r);
    }
    count
}

fn rank(i: usize) -> Rank {
    // Indices come from loops bounded by 15.
    Rank::new(i as u8).unwrap_or(Rank::THREE)
}

/// Generates the plays of one kind. `above`: only plays whose main rank is higher
/// than this rank and whose chain has exactly this length.
fn generate(count: &[u8; 15], kind: Kind, above: Option<(Rank, u8)>, f: &mut impl FnMut(Combo)) {
    let first = above.map_or(0, |(r, _)| r.index() + 1);
    let fits_len = |len: usize| above.is_none_or(|(_, l)| l as usize == len);
    let mut emit = |kind, start: usize, chain: usize, cards: Counts| {
        f(Combo {
            kind,
            rank: rank(start),
            chain: chain as u8,
            cards,
        })
    };
    match kind {
        Kind::Single | Kind::Pair | Kind::Trio | Kind::Bomb => {
            let n = match kind {
                Kind::Single => 1,
                Kind::Pair => 2,
                Kind::Trio => 3,
                _ => 4,
            };
            for r in first..15 {
                if count[r] >= n {
                    emit(kind, r, 1, Counts::of(rank(r), n));
                }
            }
        }
        Kind::Rocket => {
            if count[13] == 1 && count[14] == 1 {
                let cards = Counts::of(Rank::BLACK_JOKER, 1).with(Rank::RED_JOKER, 1);
                emit(kind, 13, 1, cards);
            }
        }
        Kind::TrioSingle | Kind::TrioPair => {
            let kicker = if kind == Kind::TrioSingle { 1 } else { 2 };
            for t in first..13 {
                if count[t] < 3 {
                    continue;
                }
                let trio = Counts::of(rank(t), 3);
                for k in 0..15 {
                    if k != t && count[k] >= kicker {
                        emit(kind, t, 1, trio.with(rank(k), kicker));
                    }
                }
            }
        }
        Kind::FourTwoSingles | Kind::FourTwoPairs => {
            for q in first..13 {
                if count[q] != 4 {
                    continue;
                }
                let four = Counts::of(rank(q), 4);
                if kind == Kind::FourTwoSingles {
                    single_kickers(count, q, 1, 2, four, &mut |c| emit(kind, q, 1, c));
                } else {
                    pair_kickers(count, q, 1, 2, four, &mut |c| emit(kind, q, 1, c));
                }
            }
        }
        Kind::Straight | Kind::PairChain | Kind::Airplane => {
            let (n, min_len, max_len) = match kind {
                Kind::Straight => (1, 5, MAX_STRAIGHT),
                Kind::PairChain => (2, 3, MAX_PAIR_CHAIN),
                _ => (3, 2, MAX_AIRPLANE),
            };
            for start in first..CHAIN_END {
                let mut cards = Counts::EMPTY;
                let mut len = 0;
                while start + len < CHAIN_END && count[start + len] >= n && len < max_len {
                    cards = cards.with(rank(start + len), n);
                    len += 1;
                    if len >= min_len && fits_len(len) {
                        emit(kind, start, len, cards);
                    }
                }
            }
        }
        Kind::AirplaneSingles | Kind::AirplanePairs => {
            let max_len = if kind == Kind::AirplaneSingles {
                MAX_AIRPLANE_SINGLES
            } else {
                MAX_AIRPLANE_PAIRS
            };
            for start in first..CHAIN_END {
                let mut trios = Counts::EMPTY;
                let mut len = 0;
                while start + len < CHAIN_END && count[start + len] >= 3 && len < max_len {
                    trios = trios.with(rank(start + len), 3);
                    len += 1;
                    if len >= 2 && fits_len(len) {
                        if kind == Kind::AirplaneSingles {
                            single_kickers(count, start, len, len, trios, &mut |c| {
                                emit(kind, start, len, c)
                            });
                        } else {
                            pair_kickers(count, start, len, len, trios, &mut |c| {
                                emit(kind, start, len, c)
                            });
                        }
                    }
                }
            }
        }
    }
}

/// Every multiset of `size` single kickers for the main part `start..start+len`:
/// no rank of the main part, at most three of a rank (two next to the chain), not
/// both jokers.
fn single_kickers(
    count: &[u8; 15],
    start: usize,
    len: usize,
    size: usize,
    base: Counts,
    f: &mut impl FnMut(Counts),
) {
    let mut caps = [0u8; 15];
    for (r, cap) in caps.iter_mut().enumerate() {
        if (start..start + len).contains(&r) {
            continue;
        }
        let limit = if len > 1 && is_adjacent(r, start, len) {
            2
        } else {
            3
        };
        *cap = count[r].min(limit);
    }
    fn rec(caps: &[u8; 15], r: usize, left: usize, acc: Counts, f: &mut impl FnMut(Counts)) {
        if left == 0 {
            if !(acc.get(Rank::BLACK_JOKER) == 1 && acc.get(Rank::RED_JOKER) == 1) {
                f(acc);
            }
            return;
        }
        if r == 15 {
            return;
        }
        let take_max = (caps[r] as usize).min(left);
        for take in (0..=take_max).rev() {
            rec(caps, r + 1, left - take, acc.with(rank(r), take as u8), f);
        }
    }
    rec(&caps, 0, size, base, f);
}

/// Every set of `size` pair kickers of distinct ranks outside `start..start+len`.
fn pair_kickers(
    count: &[u8; 15],
    start: usize,
    len: usize,
    size: usize,
    base: Counts,
    f: &mut impl FnMut(Counts),
) {
    fn rec(
        count: &[u8; 15],
        skip: (usize, usize),
        r: usize,
        left: usize,
        acc: Counts,
        f: &mut impl FnMut(Counts),
    ) {
        if left == 0 {
            f(acc);
            return;
        }
        for k in r..13 {
            if (skip.0..skip.1).contains(&k) || count[k] < 2 {
                continue;
            }
            rec(count, skip, k + 1, left - 1, acc.with(rank(k), 2), f);
        }
    }
    rec(count, (start, start + len), 0, size, base, f);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combo::classify;

    #[test]
    fn every_generated_play_reads_as_itself() {
        let hand = Counts::parse("33344455566677789TJQKA22BR").ok();
        // 26 cards is more than a hand; trim to the deck limits by parsing smaller.
        assert!(hand.is_some());
        let hand = Counts::parse("3334445556667778TTJ2BR").unwrap();
        for play in legal_plays(hand, None) {
            let read = classify(play.cards).expect("generated play reads");
            assert_eq!(read, play, "{}", play.cards);
        }
    }
}
