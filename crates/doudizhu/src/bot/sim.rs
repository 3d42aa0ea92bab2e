//! A bare table for the bots' look-ahead (hands as rank counts, no record, no
//! views) and the rule-based policy that plays it.

use crate::bot::plan::{leads, plan, score};
use crate::card::Counts;
use crate::combo::{Combo, Kind};
use crate::enumerate::legal_plays;

/// The play phase as the bots see or imagine it.
#[derive(Debug, Clone)]
pub struct Table {
    pub hands: [Counts; 3],
    pub landlord: u8,
    pub to_act: u8,
    /// The play to beat and its seat.
    pub last: Option<(u8, Combo)>,
    pub passes: u8,
}

impl Table {
    pub fn counts(&self) -> [usize; 3] {
        [0, 1, 2].map(|i| self.hands[i].len())
    }

    /// Plays `play` (or passes) for the seat to act; returns the winner if the hand
    /// is over.
    pub fn apply(&mut self, play: Option<Combo>) -> Option<u8> {
        let seat = self.to_act;
        match play {
            None => {
                self.passes += 1;
                if self.passes == 2 {
                    self.last = None;
                    self.passes = 0;
                }
            }
            Some(c) => {
                let h = &mut self.hands[seat as usize];
                *h = h.minus(c.cards);
                self.last = Some((seat, c));
                self.passes = 0;
                if h.is_empty() {
                    return Some(seat);
                }
            }
        }
        self.to_act = (seat + 1) % 3;
        None
    }

    /// Plays the hand out with the rule-based policy; the winning seat.
    pub fn play_out(&mut self) -> u8 {
        // Every turn either plays a card or passes, and two passes in a row give
        // the lead, which must play: the loop ends within 3 × 54 turns.
        for _ in 0..200 {
            let play = basic_play(self);
            if let Some(w) = self.apply(play) {
                return w;
            }
        }
        self.landlord
    }

    fn is_partner(&self, a: u8, b: u8) -> bool {
        a != self.landlord && b != self.landlord
    }
}

/// The rule-based policy's play for the seat to act (`None`: pass).
pub fn basic_play(t: &Table) -> Option<Combo> {
    let me = t.to_act;
    let hand = t.hands[me as usize];
    let last = t.last.map(|(_, c)| c);
    let legal = legal_plays(hand, last.as_ref());
    if legal.is_empty() {
        return None;
    }
    // Going out wins.
    if let Some(out) = legal.iter().find(|c| c.cards == hand) {
        return Some(*out);
    }
    let counts = t.counts();
    let opponents: Vec<u8> = (0..3)
        .filter(|&s| s != me && !t.is_partner(s, me))
        .collect();
    let danger = opponents
        .iter()
        .map(|&s| counts[s as usize])
        .min()
        .unwrap_or(20);
    match t.last {
        None => Some(lead(t, hand, danger)),
        Some((by, last)) => follow(t, hand, by, &last, &legal, danger),
    }
}

fn lead(t: &Table, hand: Counts, danger: usize) -> Combo {
    let me = t.to_act;
    let p = plan(hand);
    let mut options = leads(&p);
    options.sort_by_key(|c| (c.kind.is_bomb(), c.rank, std::cmp::Reverse(c.cards.len())));
    // Two plays left and one is a bomb: bomb first, then the rest goes out.
    if p.plays == 2
        && let Some(b) = options.iter().find(|c| c.kind.is_bomb())
    {
        return *b;
    }
    let partner = (0..3).find(|&s| s != me && t.is_partner(s, me));
    if let Some(partner) = partner
        && t.hands[partner as usize].len() == 1
    {
        // Let the partner out with its last card.
        if let Some(s) = options.iter().find(|c| c.kind == Kind::Single) {
            return *s;
        }
    }
    if danger <= 2 {
        // An opponent about to go out: lead what it cannot follow with so few cards.
        if let Some(c) = options
            .iter()
            .find(|c| !c.kind.is_bomb() && c.cards.len() > danger)
        {
            return *c;
        }
        if let Some(c) = options
            .iter()
            .filter(|c| !c.kind.is_bomb())
            .max_by_key(|c| c.rank)
        {
            return *c;
        }
    }
    options
        .iter()
        .find(|c| !c.kind.is_bomb())
        .or(options.first())
        .copied()
        .unwrap_or_else(|| fallback(hand))
}

/// Any play at all (never reached with a non-empty hand: a single always exists).
fn fallback(hand: Counts) -> Combo {
    legal_plays(hand, None).into_iter().next().unwrap_or(Combo {
        kind: Kind::Single,
        rank: crate::card::Rank::THREE,
        chain: 1,
        cards: hand,
    })
}

fn follow(
    t: &Table,
    hand: Counts,
    by: u8,
    last: &Combo,
    legal: &[Combo],
    danger: usize,
) -> Option<Combo> {
    let me = t.to_act;
    if t.is_partner(by, me) {
        // The partner is winning the trick: let it be.
        return None;
    }
    let base = plan(hand);
    let by_left = t.hands[by as usize].len();
    let mut best: Option<(u32, Combo)> = None;
    for c in legal.iter().filter(|c| !c.kind.is_bomb()) {
        let s = score(hand.minus(c.cards));
        if best.as_ref().is_none_or(|(bs, _)| s < *bs) {
            best = Some((s, *c));
        }
    }
    // A natural play lowers the plan by one play; allow worse when the opponent
    // is close to going out.
    let allowance = if danger <= 5 { 2 * PLAY_UNIT } else { 0 };
    if let Some((s, c)) = best
        && s <= base.score.saturating_sub(PLAY_UNIT) + allowance + slack(last)
    {
        return Some(c);
    }
    // Bombs: when the opponent is close, or when they leave us nearly out.
    let bomb = legal
        .iter()
        .filter(|c| c.kind.is_bomb())
        .min_by_key(|c| (c.kind, c.rank));
    if let Some(b) = bomb {
        let after = plan(hand.minus(b.cards)).plays;
        if by_left <= 4 || danger <= 3 || after <= 1 {
            return Some(*b);
        }
    }
    None
}

/// Score unit of one play (see `plan`).
const PLAY_UNIT: u32 = 32;

/// Small leads may be topped a little more freely (a single from a pair costs
/// little when the single is the 2 or a joker taking control).
fn slack(last: &Combo) -> u32 {
    if matches!(last.kind, Kind::Single | Kind::Pair) && last.rank.index() >= 9 {
        PLAY_UNIT / 2
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(h: [&str; 3], landlord: u8) -> Table {
        Table {
            hands: h.map(|s| Counts::parse(s).unwrap()),
            landlord,
            to_act: landlord,
            last: None,
            passes: 0,
        }
    }

    #[test]
    fn goes_out_when_it_can() {
        let t = table(["33344", "3", "4"], 0);
        assert_eq!(basic_play(&t).unwrap().cards.to_string(), "33344");
    }

    #[test]
    fn plays_out_to_a_winner() {
        let mut t = table(
            [
                "3456789TJQKA2BR333",
                "44556677889TJQKA2",
                "55667789TTJQKKA22",
            ],
            0,
        );
        let w = t.play_out();
        assert!(w < 3);
        assert!(t.hands[w as usize].is_empty());
    }
}
