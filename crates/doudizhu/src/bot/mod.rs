//! Computer players at two strengths.
//!
//! Both take only what their seat may see: a [`View`] for that seat (its own hand,
//! the others' card counts, the bidding, the bottom cards once public, and every
//! play so far) and a seed. They never see another hand: where a bot needs the
//! unknown cards it deals them at random, consistently with what it knows
//! (determinization).
//!
//! - [`Strength::Basic`]: rules of thumb. It splits its hand into the fewest
//!   plays, leads its lowest group, follows with plays that do not break its
//!   groups, lets its partner win tricks, and keeps bombs for when they matter.
//! - [`Strength::Strong`]: determinized Monte Carlo. For each candidate play it
//!   deals the unknown cards many times and plays each deal out with the basic
//!   policy for all three seats, then chooses the play that wins most often. It
//!   bids by the same sampling of the bottom cards and the other hands.

pub mod plan;
pub mod sim;

use serde::{Deserialize, Serialize};

use qiyuan_game::{Seat, Viewer};

use crate::Phase;

use crate::card::{Counts, Hand, Rank};
use crate::combo::{Combo, classify};
use crate::enumerate::legal_plays;
use crate::game::View;
use crate::rng::{SplitMix64, derive};
use sim::{Table, basic_play};

/// How well a computer player plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Strength {
    /// Rule-based.
    Basic,
    /// Determinized Monte Carlo over the unknown cards, basic play-outs.
    Strong,
}

/// The action the bot takes for the seat whose view this is, in the game's
/// canonical notation (`bid 2`, `pass`, `33344`); `None` when it is not that
/// seat's turn or the hand is over. Pure: the same view, strength and seed give
/// the same action.
pub fn choose(view: &View, strength: Strength, seed: u64) -> Option<String> {
    let Viewer::Seat(me) = view.viewer else {
        return None;
    };
    if view.to_act != Some(me) {
        return None;
    }
    let hand = view.hand?.counts();
    match view.phase {
        Phase::Bidding => {
            let want = match strength {
                Strength::Basic => basic_bid(hand),
                Strength::Strong => strong_bid(hand, seed),
            };
            Some(if want > view.bid {
                format!("bid {want}")
            } else {
                "pass".to_string()
            })
        }
        Phase::Play => {
            let k = Knowledge::from_view(view, me)?;
            let play = match strength {
                Strength::Basic => basic_play(&k.determinize(seed)),
                Strength::Strong => strong_play(&k, seed),
            };
            Some(play.map_or_else(|| "pass".to_string(), |c| c.cards.to_string()))
        }
        _ => None,
    }
}

/// A quick count of a hand's strength: jokers, 2s and bombs, and few plays.
fn basic_bid(hand: Counts) -> u8 {
    let mut s = 0u32;
    s += 4 * u32::from(hand.get(Rank::RED_JOKER));
    s += 3 * u32::from(hand.get(Rank::BLACK_JOKER));
    s += 2 * u32::from(hand.get(Rank::TWO));
    s += hand
        .iter()
        .filter(|&(r, n)| n == 4 && r < Rank::TWO)
        .count() as u32
        * 5;
    let plays = plan::plan(hand).plays;
    if plays <= 6 {
        s += 2;
    }
    match s {
        10.. => 3,
        7..=9 => 2,
        5..=6 => 1,
        _ => 0,
    }
}

/// Samples for the strong bot's bidding.
const BID_SAMPLES: u64 = 24;

/// Plays the hand out as landlord over random bottoms and other hands: the bid
/// follows the share of wins.
fn strong_bid(hand: Counts, seed: u64) -> u8 {
    let unseen = Hand::FULL.counts().minus(hand);
    let mut wins = 0;
    for i in 0..BID_SAMPLES {
        let mut rng = SplitMix64::new(derive(seed, i));
        let mut pool = ranks_of(unseen);
        rng.shuffle(&mut pool);
        let bottom = counts_of(&pool[..3]);
        let t = Table {
            hands: [
                hand.plus(bottom),
                counts_of(&pool[3..20]),
                counts_of(&pool[20..37]),
            ],
            landlord: 0,
            to_act: 0,
            last: None,
            passes: 0,
        };
        if t.clone().play_out() == 0 {
            wins += 1;
        }
    }
    let rate = wins as f64 / BID_SAMPLES as f64;
    // Play-outs by the basic policy favour the landlord (it wins about half the
    // random deals), so a bid asks for clearly more than that.
    match rate {
        r if r >= 0.8 => 3,
        r if r >= 0.7 => 2,
        r if r >= 0.6 => 1,
        _ => 0,
    }
}

fn ranks_of(c: Counts) -> Vec<Rank> {
    c.iter()
        .flat_map(|(r, n)| std::iter::repeat_n(r, n as usize))
        .collect()
}

fn counts_of(ranks: &[Rank]) -> Counts {
    ranks.iter().fold(Counts::EMPTY, |c, &r| c.with(r, 1))
}

/// What one seat knows during play.
#[derive(Debug, Clone)]
struct Knowledge {
    me: u8,
    hand: Counts,
    landlord: u8,
    counts: [usize; 3],
    last: Option<(u8, Combo)>,
    passes: u8,
    /// Cards in the other two hands (everything neither mine nor played).
    unseen: Counts,
    /// Bottom cards the landlord must still hold (it took them in public).
    landlord_holds: Counts,
}

impl Knowledge {
    fn from_view(view: &View, me: Seat) -> Option<Knowledge> {
        let hand = view.hand?.counts();
        let landlord = view.landlord?;
        let mut played = Counts::EMPTY;
        let mut by_landlord = Counts::EMPTY;
        let mut passes = 0u8;
        for t in &view.plays {
            match t.cards {
                Some(c) => {
                    played = played.plus(c);
                    if t.seat == landlord {
                        by_landlord = by_landlord.plus(c);
                    }
                    passes = 0;
                }
                None => passes = (passes + 1) % 2,
            }
        }
        let unseen = Hand::FULL.counts().minus(hand).minus(played);
        let mut landlord_holds = Counts::EMPTY;
        if landlord != me
            && let Some(bottom) = view.bottom
        {
            for (r, n) in bottom.counts().iter() {
                let left = n.saturating_sub(by_landlord.get(r)).min(unseen.get(r));
                landlord_holds = landlord_holds.with(r, left);
            }
        }
        let last = match &view.last {
            Some(t) => Some((t.seat.0, classify(t.cards?)?)),
            None => None,
        };
        Some(Knowledge {
            me: me.0,
            hand,
            landlord: landlord.0,
            counts: view.counts.map(usize::from),
            last,
            passes: if last.is_some() { passes } else { 0 },
            unseen,
            landlord_holds,
        })
    }

    /// A table with the unknown cards dealt at random to the other two seats,
    /// consistently with their counts and with the bottom cards the landlord holds.
    fn determinize(&self, seed: u64) -> Table {
        let mut rng = SplitMix64::new(seed);
        let mut pool = ranks_of(self.unseen.minus(self.landlord_holds));
        rng.shuffle(&mut pool);
        let mut hands = [Counts::EMPTY; 3];
        hands[self.me as usize] = self.hand;
        if self.landlord != self.me {
            hands[self.landlord as usize] = self.landlord_holds;
        }
        let mut next = pool.into_iter();
        for (s, hand) in hands.iter_mut().enumerate() {
            if s == self.me as usize {
                continue;
            }
            while hand.len() < self.counts[s] {
                match next.next() {
                    Some(r) => *hand = hand.with(r, 1),
                    None => break,
                }
            }
        }
        Table {
            hands,
            landlord: self.landlord,
            to_act: self.me,
            last: self.last,
            passes: self.passes,
        }
    }
}

/// Deals sampled for each strong decision.
const PLAY_SAMPLES: u64 = 48;
/// Wins (of the samples) another play needs over the basic choice: with few
/// samples the best-looking play is often only the luckiest.
const MARGIN: u32 = 4;
/// Candidate plays the strong bot weighs.
const CANDIDATES: usize = 8;

fn strong_play(k: &Knowledge, seed: u64) -> Option<Combo> {
    let last = k.last.map(|(_, c)| c);
    let legal = legal_plays(k.hand, last.as_ref());
    if legal.is_empty() {
        return None;
    }
    if let Some(out) = legal.iter().find(|c| c.cards == k.hand) {
        return Some(*out);
    }
    // Candidates: the basic choice first (it wins ties), then the plays that
    // leave the best-split hands, and passing when allowed.
    let first = basic_play(&k.determinize(seed));
    let mut candidates: Vec<Option<Combo>> = vec![first];
    let mut ranked: Vec<(u32, Combo)> = legal
        .iter()
        .map(|c| (plan::score(k.hand.minus(c.cards)), *c))
        .collect();
    ranked.sort_by_key(|(s, c)| (*s, c.rank));
    if k.last.is_none() {
        for c in plan::leads(&plan::plan(k.hand)) {
            if !candidates.contains(&Some(c)) {
                candidates.push(Some(c));
            }
        }
    } else if !candidates.contains(&None) {
        candidates.push(None);
    }
    for (_, c) in ranked {
        if candidates.len() > CANDIDATES {
            break;
        }
        if !candidates.contains(&Some(c)) {
            candidates.push(Some(c));
        }
    }
    candidates.truncate(CANDIDATES + 2);
    if candidates.len() == 1 {
        return first;
    }
    let my_side = |w: u8| (w == k.landlord) == (k.me == k.landlord);
    let mut wins = vec![0u32; candidates.len()];
    for i in 0..PLAY_SAMPLES {
        let deal = k.determinize(derive(seed, i + 1));
        for (j, c) in candidates.iter().enumerate() {
            let mut t = deal.clone();
            let winner = match t.apply(*c) {
                Some(w) => w,
                None => t.play_out(),
            };
            if my_side(winner) {
                wins[j] += 1;
            }
        }
    }
    let best = (0..candidates.len()).max_by_key(|&j| (wins[j], std::cmp::Reverse(j)))?;
    if wins[best] >= wins[0] + MARGIN {
        candidates[best]
    } else {
        candidates[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Doudizhu, Options};
    use qiyuan_game::{Game, Setup, Turn};

    #[test]
    fn bots_play_whole_hands_legally() {
        for seed in 0..6 {
            let mut g = Doudizhu::new(&Options::default(), &Setup::Seed(seed)).unwrap();
            let mut n = 0;
            while let Turn::Seat(s) = g.turn() {
                let strength = if s.0 == 0 {
                    Strength::Strong
                } else {
                    Strength::Basic
                };
                let a = choose(&g.view(Viewer::Seat(s)), strength, seed * 1000 + n).unwrap();
                g.act(s, &a).unwrap_or_else(|e| panic!("{a}: {e}"));
                n += 1;
                assert!(n < 400);
            }
            assert!(g.outcome().is_some());
        }
    }

    #[test]
    fn bids_follow_hand_strength() {
        let strong = Counts::parse("BR22223334445556A").unwrap();
        let weak = Counts::parse("3345567899TJJQKKA").unwrap();
        assert_eq!(basic_bid(strong), 3);
        assert_eq!(basic_bid(weak), 0);
        assert_eq!(strong_bid(strong, 1), 3);
        assert_eq!(strong_bid(weak, 1), 0);
    }

    #[test]
    fn not_my_turn_is_none() {
        let g = Doudizhu::new(&Options::default(), &Setup::Seed(1)).unwrap();
        let Turn::Seat(s) = g.turn() else { panic!() };
        let other = s.next(3);
        assert_eq!(
            choose(&g.view(Viewer::Seat(other)), Strength::Basic, 0),
            None
        );
        assert_eq!(choose(&g.view(Viewer::Spectator), Strength::Basic, 0), None);
    }
}
