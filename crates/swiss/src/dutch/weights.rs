//! The edge weight: the Dutch criteria as fields of one integer.
//!
//! From the most significant field down: completion and bye eligibility (C1-C4),
//! the number of pairs and the scores paired in the current bracket (C6, C7),
//! the same for the next bracket (so that this bracket leaves the next one
//! pairable), the unplayed games of the bye assignee (C9), the four colour
//! criteria (C10-C13), the repeated floats of the last two rounds (C14-C17) and
//! their scores (C18-C21), and finally room for the exchange and transposition
//! preferences set bracket by bracket. A field whose values are counted per
//! score group has one sub-field per score group, higher scores higher.

use std::collections::HashMap;

use super::entrant::{Entrant, Field, Float};
use super::wide::EdgeWeight;

/// Bits needed to write `x`.
pub(crate) fn bits(x: u64) -> u32 {
    64 - x.leading_zeros()
}

/// The widths of the fields for one pairing.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    /// Bits for a count within one score group.
    pub g: u32,
    /// Bits for all per-score-group sub-fields together.
    pub s: u32,
    /// The offset of each score's sub-field, by score (a short list: a
    /// hash lookup per edge weight showed in the profile).
    shifts: Vec<(u32, u32)>,
    /// Players per score.
    counts: HashMap<u32, u64>,
    rounds: usize,
    players: usize,
}

impl Layout {
    pub fn new(field: &Field, sorted: &[usize]) -> Layout {
        let mut shifts = Vec::new();
        let mut counts = HashMap::new();
        let mut s = 0;
        let mut max_group = 0u64;
        let mut i = sorted.len();
        while i > 0 {
            let score = field.entrants[sorted[i - 1]].score;
            let mut count = 0u64;
            while i > 0 && field.entrants[sorted[i - 1]].score == score {
                count += 1;
                i -= 1;
            }
            shifts.push((score, s));
            counts.insert(score, count);
            s += bits(count);
            max_group = max_group.max(count);
        }
        Layout {
            g: bits(max_group),
            s,
            shifts,
            counts,
            rounds: field.played_rounds,
            players: sorted.len(),
        }
    }

    /// The same G, with score sub-fields for the given scores only.
    pub fn with_scores(&self, scores: &[u32]) -> Layout {
        let mut distinct: Vec<u32> = scores.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        let mut shifts = Vec::new();
        let mut s = 0;
        for score in distinct {
            shifts.push((score, s));
            s += bits(self.counts.get(&score).copied().unwrap_or(1));
        }
        Layout {
            g: self.g,
            s,
            shifts,
            counts: self.counts.clone(),
            rounds: self.rounds,
            players: self.players,
        }
    }

    pub fn shift(&self, score: u32) -> u32 {
        self.shifts
            .iter()
            .find(|&&(sc, _)| sc == score)
            .map_or(0, |&(_, s)| s)
    }

    /// The position of the completion field: the width of all fields below it.
    pub fn completion_shift(&self) -> u32 {
        let (g, s) = (self.g, self.s);
        let mut below = g + s + g + s + 2 * g + 4 * g + 3 * g + 1;
        if self.rounds >= 1 {
            below += 2 * g + 2 * s;
        }
        if self.rounds >= 2 {
            below += 2 * g + 2 * s;
        }
        below
    }

    /// Bits of the whole weight summed over a matching, with room for the
    /// solver's doubled duals.
    pub fn total_bits(&self) -> u32 {
        let (g, s) = (self.g, self.s);
        let top = bits(3 * self.players as u64 + 3);
        // The first (bye) weights put the score shifts above a G field.
        let first = s + g + bits(2 * u64::from(s) * self.players as u64 + 1);
        top + self.completion_shift().max(first) + 4
    }
}

/// Where an edge lies in the bracket being paired.
pub(crate) struct EdgeContext<'a> {
    /// The lower player is in the current bracket.
    pub in_current: bool,
    /// The lower player is in the next bracket.
    pub in_next: bool,
    /// The completion field: 1 plus how many of the two players could not
    /// take the bye; `None` leaves the field out.
    pub completion: Option<u64>,
    pub bye_score: u32,
    /// C9 applies: the bye goes to a player of this bracket's score.
    pub single_downfloater_bye: bool,
    pub unplayed_ranks: &'a HashMap<u32, u64>,
}

/// The weight of the edge between `h` (earlier in the pairing order) and `l`,
/// who may meet.
pub(crate) fn edge_weight<W: EdgeWeight>(
    layout: &Layout,
    field: &Field,
    h: &Entrant,
    l: &Entrant,
    ctx: EdgeContext<'_>,
) -> W {
    let (g, s) = (layout.g, layout.s);
    let cur = ctx.in_current;
    let one_at = |score: u32| W::ONE.shl(layout.shift(score));
    let b = |x: bool| u64::from(x);

    let mut r = W::from_u64(ctx.completion.unwrap_or(0));
    // C6, C7: pairs and scores in this bracket.
    r = r.shl(g).add_u64(b(cur));
    r = r.shl(s);
    if cur {
        r += one_at(h.score);
    }
    // The same for the next bracket.
    r = r.shl(g).add_u64(b(ctx.in_next));
    r = r.shl(s);
    if ctx.in_next {
        r += one_at(h.score);
    }
    // C9: the bye assignee has as few unplayed games as possible.
    r = r.shl(g).shl(g);
    if ctx.single_downfloater_bye {
        let rank = |e: &Entrant| {
            ctx.unplayed_ranks
                .get(&e.played_games)
                .copied()
                .unwrap_or(0)
        };
        if h.score == ctx.bye_score {
            r = r.add_u64(rank(h));
        }
        if l.score == ctx.bye_score {
            r = r.add_u64(rank(l));
        }
    }
    // C10-C13: colours.
    let (p, o) = (l, h);
    r = r.shl(g).add_u64(b(cur
        && (!p.absolute_imbalance()
            || !o.absolute_imbalance()
            || p.preference != o.preference)));
    let c11 = !p.absolute_preference()
        || !o.absolute_preference()
        || p.preference != o.preference
        || if p.imbalance == o.imbalance {
            p.repeated.is_none() || p.repeated != o.repeated
        } else {
            let side = if p.imbalance > o.imbalance { o } else { p };
            side.repeated != p.preference.map(|c| c.invert())
        };
    r = r.shl(g).add_u64(b(cur && c11));
    r = r.shl(g).add_u64(b(
        cur && super::compatible_preferences(p.preference, o.preference)
    ));
    r = r.shl(g).add_u64(b(cur
        && ((!p.strong && !p.absolute_preference())
            || (!o.strong && !o.absolute_preference())
            || (p.absolute_preference() && o.absolute_preference())
            || p.preference != o.preference)));
    // C14-C17: repeated floats.
    for back in 1..=2 {
        if field.played_rounds < back {
            continue;
        }
        r = r.shl(g);
        if cur {
            r = r.add_u64(
                b(l.floats[back] == Float::Down)
                    + b(h.score <= l.score && h.floats[back] == Float::Down),
            );
        }
        r = r.shl(g);
        if cur {
            r = r.add_u64(b(!(h.score > l.score && l.floats[back] == Float::Up)));
        }
    }
    // C18-C21: scores of repeated floaters.
    for back in 1..=2 {
        if field.played_rounds < back {
            continue;
        }
        r = r.shl(s);
        if cur {
            if l.floats[back] == Float::Down {
                r += one_at(l.score);
            }
            if h.floats[back] == Float::Down {
                r += one_at(h.score);
            }
        }
        r = r.shl(s);
        if cur && !(l.floats[back] == Float::Up && h.score > l.score) {
            r += one_at(h.score);
        }
    }
    // Room for the exchange and transposition preferences.
    r.shl(g).shl(g).shl(g).shl(1)
}
