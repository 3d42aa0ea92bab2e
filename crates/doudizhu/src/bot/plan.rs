//! Splitting a hand into the fewest plays: the measure both bots use for "how far
//! is this hand from going out".

// Loops run over rank indices, which index the count array and name the rank.
#![allow(clippy::needless_range_loop)]

use crate::card::{Counts, Rank};
use crate::combo::{Combo, Kind, classify};

/// How a hand would be played out: its groups (kickers not yet attached) and a
/// score, lower being better.
#[derive(Debug, Clone)]
pub struct Plan {
    pub groups: Vec<Combo>,
    pub score: u32,
    /// Plays needed to go out, kickers riding with trios.
    pub plays: u32,
}

/// One unit of score per play needed; weak loose cards break ties.
const PLAY: u32 = 32;
/// The search stops growing after this many nodes; the best split found counts.
const NODE_LIMIT: u32 = 4000;
/// The highest rank a chain may use (`A`).
const CHAIN_TOP: usize = 11;

/// The best split of `hand` found.
pub fn plan(hand: Counts) -> Plan {
    let mut count = [0u8; 15];
    for (r, n) in hand.iter() {
        count[r.index()] = n;
    }
    let mut fixed = Vec::new();
    // Bombs and the rocket stay whole: breaking them is never part of a plan.
    if count[13] == 1 && count[14] == 1 {
        fixed.push(group(Kind::Rocket, 13, 1, 1));
        count[13] = 0;
        count[14] = 0;
    }
    for r in 0..13 {
        if count[r] == 4 {
            fixed.push(group(Kind::Bomb, r, 1, 4));
            count[r] = 0;
        }
    }
    let mut search = Search {
        count,
        groups: fixed,
        best: None,
        nodes: 0,
    };
    search.run(0);
    let (score, plays, groups) = search.best.unwrap_or((0, 0, Vec::new()));
    Plan {
        groups,
        score,
        plays,
    }
}

/// The score of the best split of `hand` (see [`plan`]).
pub fn score(hand: Counts) -> u32 {
    plan(hand).score
}

fn group(kind: Kind, start: usize, chain: usize, per_rank: u8) -> Combo {
    let mut cards = Counts::EMPTY;
    if kind == Kind::Rocket {
        cards = Counts::of(Rank::BLACK_JOKER, 1).with(Rank::RED_JOKER, 1);
    } else {
        for r in start..start + chain {
            cards = cards.with(rank(r), per_rank);
        }
    }
    Combo {
        kind,
        rank: rank(start),
        chain: chain as u8,
        cards,
    }
}

fn rank(i: usize) -> Rank {
    Rank::new(i as u8).unwrap_or(Rank::THREE)
}

type Best = Option<(u32, u32, Vec<Combo>)>;

struct Search {
    count: [u8; 15],
    groups: Vec<Combo>,
    best: Best,
    nodes: u32,
}

impl Search {
    fn run(&mut self, from: usize) {
        self.nodes += 1;
        let mut r = from;
        while r <= CHAIN_TOP && self.count[r] == 0 {
            r += 1;
        }
        if r > CHAIN_TOP {
            self.leaf();
            return;
        }
        let c = self.count[r];
        // Chains starting here first: they are what a split is for.
        for (n, min_len, max_len, kind) in [
            (3u8, 2usize, 6usize, Kind::Airplane),
            (2, 3, 10, Kind::PairChain),
            (1, 5, 12, Kind::Straight),
        ] {
            if c < n {
                continue;
            }
            let mut len = 0;
            while r + len <= CHAIN_TOP && self.count[r + len] >= n && len < max_len {
                len += 1;
            }
            for l in (min_len..=len).rev() {
                if self.nodes > NODE_LIMIT {
                    return;
                }
                for x in r..r + l {
                    self.count[x] -= n;
                }
                self.groups.push(group(kind, r, l, n));
                self.run(r);
                self.groups.pop();
                for x in r..r + l {
                    self.count[x] += n;
                }
            }
        }
        if self.nodes > NODE_LIMIT && self.best.is_some() {
            return;
        }
        let kind = match c {
            1 => Kind::Single,
            2 => Kind::Pair,
            _ => Kind::Trio,
        };
        self.count[r] = 0;
        self.groups.push(group(kind, r, 1, c));
        self.run(r + 1);
        self.groups.pop();
        self.count[r] = c;
    }

    fn leaf(&mut self) {
        // The 2s and jokers left are sets of their own.
        let mut extra = Vec::new();
        for r in 12..15 {
            let c = self.count[r];
            if c > 0 {
                let kind = match c {
                    1 => Kind::Single,
                    2 => Kind::Pair,
                    _ => Kind::Trio,
                };
                extra.push(group(kind, r, 1, c));
            }
        }
        let (score, plays) = evaluate(self.groups.iter().chain(extra.iter()));
        if self.best.as_ref().is_none_or(|b| score < b.0) {
            let mut groups = self.groups.clone();
            groups.extend(extra);
            self.best = Some((score, plays, groups));
        }
    }
}

/// Plays needed (trios and airplanes carry loose singles or pairs as kickers) and
/// the score: plays first, then loose low cards that will be hard to get rid of.
fn evaluate<'a>(groups: impl Iterator<Item = &'a Combo>) -> (u32, u32) {
    let mut plays = 0u32;
    let mut trios = 0u32;
    let mut airplanes: [u32; 7] = [0; 7];
    let mut loose = 0u32;
    let mut weak = 0u32;
    for g in groups {
        plays += 1;
        match g.kind {
            Kind::Trio => trios += 1,
            Kind::Airplane => airplanes[usize::from(g.chain).min(6)] += 1,
            Kind::Single | Kind::Pair => {
                loose += 1;
                // Loose cards below a queen are the hard ones to shed.
                if g.rank.index() < 9 {
                    weak += 10 - g.rank.index() as u32;
                }
            }
            _ => {}
        }
    }
    // An airplane of k takes exactly k wings, a trio one.
    let mut left = loose;
    for k in (2..7).rev() {
        for _ in 0..airplanes[k] {
            if left >= k as u32 {
                left -= k as u32;
            }
        }
    }
    left = left.saturating_sub(trios);
    let carried = loose - left;
    plays -= carried;
    // Carried cards are shed for free: their weakness is gone (roughly).
    let weak = weak.saturating_sub(carried * 8);
    (plays * PLAY + weak.min(PLAY - 1), plays)
}

/// The plan's groups as plays, kickers attached: each trio takes the lowest loose
/// single (or pair) below a `2`, airplanes take as many as they have trios.
pub fn leads(plan: &Plan) -> Vec<Combo> {
    let mut singles: Vec<Combo> = Vec::new();
    let mut pairs: Vec<Combo> = Vec::new();
    let mut out = Vec::new();
    let mut carriers: Vec<Combo> = Vec::new();
    for g in &plan.groups {
        match g.kind {
            Kind::Single => singles.push(*g),
            Kind::Pair => pairs.push(*g),
            Kind::Trio | Kind::Airplane => carriers.push(*g),
            _ => out.push(*g),
        }
    }
    singles.sort_by_key(|c| c.rank);
    pairs.sort_by_key(|c| c.rank);
    carriers.sort_by_key(|c| c.rank);
    let mut used_s = 0;
    let mut used_p = 0;
    for c in carriers {
        let k = c.chain as usize;
        let free_s: Vec<&Combo> = singles[used_s..]
            .iter()
            .filter(|s| s.rank < Rank::TWO)
            .collect();
        let free_p: Vec<&Combo> = pairs[used_p..]
            .iter()
            .filter(|s| s.rank < Rank::TWO)
            .collect();
        let mut with = None;
        if free_s.len() >= k && (free_p.len() < k || free_s[k - 1].rank <= free_p[k - 1].rank) {
            let cards = free_s[..k].iter().fold(c.cards, |a, s| a.plus(s.cards));
            with = classify(cards).map(|x| (x, k, 0));
        }
        if with.is_none() && free_p.len() >= k {
            let cards = free_p[..k].iter().fold(c.cards, |a, s| a.plus(s.cards));
            with = classify(cards).map(|x| (x, 0, k));
        }
        match with {
            Some((x, s, p)) => {
                // Free lists are the unused tails below a 2, in order.
                used_s += s;
                used_p += p;
                out.push(x);
            }
            None => out.push(c),
        }
    }
    out.extend(singles[used_s..].iter().copied());
    out.extend(pairs[used_p..].iter().copied());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plays(s: &str) -> u32 {
        plan(Counts::parse(s).unwrap()).plays
    }

    #[test]
    fn finds_chains_and_carries_kickers() {
        assert_eq!(plays("34567"), 1);
        assert_eq!(plays("3456789"), 1);
        assert_eq!(plays("33344"), 1);
        assert_eq!(plays("333444555666"), 1);
        assert_eq!(plays("3334445"), 2);
        assert_eq!(plays("33344456"), 1);
        assert_eq!(plays("3344556677"), 1);
        assert_eq!(plays("3456789TJQKA2BR"), 3);
        assert_eq!(plays("3333"), 1);
    }

    #[test]
    fn leads_are_real_plays_covering_the_hand() {
        for s in [
            "33344456789TJ22BR",
            "3334445559TTJQKA2",
            "3456677889TTJQQKA",
        ] {
            let hand = Counts::parse(s).unwrap();
            let p = plan(hand);
            let leads = leads(&p);
            let total = leads.iter().fold(Counts::EMPTY, |a, c| a.plus(c.cards));
            assert_eq!(total, hand, "{s}");
            for l in leads {
                assert_eq!(
                    classify(l.cards).map(|c| c.kind),
                    Some(l.kind),
                    "{}",
                    l.cards
                );
            }
        }
    }
}
