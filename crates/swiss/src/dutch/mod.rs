//! FIDE Dutch system pairing (C.04.3, rules of 2025 in force in 2026), by
//! weighted maximum matching.
//!
//! Every pairing criterion is a field of one integer edge weight, the absolute
//! ones (C1-C3, completion) highest, then the quality criteria C5-C21 in their
//! order, each field wide enough to hold its sum over a whole matching, so a
//! maximum-weight matching is the lexicographically best pairing. Brackets are
//! processed from the top score group down: the matching always covers every
//! player still unpaired (which keeps the pairing completable), the moved-down
//! players of the bracket are chosen and paired first, then the exchanges
//! between the two halves of the remainder are settled and its pairs fixed one
//! at a time in the order of the Dutch transposition rules. This is the way the
//! endorsed engine bbpPairings structures it, and the results agree with it.

mod blossom;
mod entrant;
mod matcher;
mod weights;
pub mod wide;

use std::collections::HashMap;

use blossom::WarmMatching;
pub use entrant::FieldError;
use entrant::{Entrant, Field};
use matcher::{Change, Matcher, Recipe};
use weights::Layout;
use wide::{EdgeWeight, Wide};

use crate::model::{Colour, Tournament};

/// The pairing of one round.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pairing {
    /// `(white, black)` by starting rank.
    pub games: Vec<(u32, u32)>,
    /// The player given the pairing-allocated bye.
    pub bye: Option<u32>,
}

impl Pairing {
    /// The `.pairs` text: the number of pairs, then `white black` lines and
    /// `N 0` for the bye.
    pub fn to_pairs_text(&self) -> String {
        let mut out = format!("{}\n", self.games.len() + usize::from(self.bye.is_some()));
        for (w, b) in &self.games {
            out.push_str(&format!("{w} {b}\n"));
        }
        if let Some(p) = self.bye {
            out.push_str(&format!("{p} 0\n"));
        }
        out
    }
}

/// Why no pairing could be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PairError {
    #[error(transparent)]
    Field(#[from] FieldError),
    #[error("no pairing satisfies the absolute criteria (C1-C3)")]
    NoValidPairing,
    #[error("the event is too large for the pairing's weights")]
    TooLarge,
    #[error("the event has only {0} rounds, all paired")]
    Finished(usize),
}

/// Pairs the next round of the tournament by the FIDE Dutch system.
pub fn pair(t: &Tournament) -> Result<Pairing, PairError> {
    let field = Field::new(t)?;
    if let Some(total) = t.total_rounds
        && field.played_rounds >= total as usize
    {
        return Err(PairError::Finished(total as usize));
    }
    let mut players: Vec<usize> = (0..field.entrants.len())
        .filter(|&k| field.entrants[k].to_pair)
        .collect();
    players.sort_by(|&a, &b| {
        let (ea, eb) = (&field.entrants[a], &field.entrants[b]);
        eb.score.cmp(&ea.score).then(ea.rank.cmp(&eb.rank))
    });
    if players.is_empty() {
        return Ok(Pairing::default());
    }
    let layout = Layout::new(&field, &players);
    let mates = match Dutch::new(&field, players.clone(), layout).run() {
        Ok(m) => m,
        Err(Stop::Pair(e)) => return Err(e),
        Err(Stop::TooLarge) => return Err(PairError::TooLarge),
    };
    let mut pairing = Pairing::default();
    for (v, &k) in players.iter().enumerate() {
        match mates[v] {
            Some(m) if m == v => pairing.bye = Some(field.entrants[k].start_rank),
            Some(m) => {
                let o = players[m];
                let (a, b) = if field.entrants[k].start_rank < field.entrants[o].start_rank {
                    (k, o)
                } else {
                    continue;
                };
                let colour = choose_colour(&field, a, b);
                let (w, bl) = match colour {
                    Colour::White => (a, b),
                    Colour::Black => (b, a),
                };
                pairing
                    .games
                    .push((field.entrants[w].start_rank, field.entrants[bl].start_rank));
            }
            None => pairing.bye = Some(field.entrants[k].start_rank),
        }
    }
    // Publish boards in the order of the higher player of each game.
    let by_rank: HashMap<u32, usize> = field
        .entrants
        .iter()
        .enumerate()
        .rev()
        .map(|(k, e)| (e.start_rank, k))
        .collect();
    let key = |r: u32| {
        let k = by_rank.get(&r).copied().unwrap_or(0);
        (
            std::cmp::Reverse(field.entrants[k].score),
            field.entrants[k].rank,
        )
    };
    pairing
        .games
        .sort_by_key(|&(w, b)| std::cmp::min(key(w), key(b)));
    Ok(pairing)
}

/// The colour of `a` against `b` (C.04.3 E, with C.04.1's rules).
fn choose_colour(field: &Field, a: usize, b: usize) -> Colour {
    let (p, o) = (&field.entrants[a], &field.entrants[b]);
    if let Some(c) = neutral_colour(field, p, o) {
        return c;
    }
    // `p` ranks below `o`: the higher-ranked player decides.
    let p_lower = (p.score, o.rank) < (o.score, p.rank);
    match p.preference {
        None => {
            if p_lower {
                if o.rank & 1 == 1 {
                    field.initial_colour
                } else {
                    field.initial_colour.invert()
                }
            } else if p.rank & 1 == 1 {
                field.initial_colour.invert()
            } else {
                field.initial_colour
            }
        }
        Some(pref) => {
            if p_lower {
                o.preference.map_or(pref, Colour::invert)
            } else {
                pref
            }
        }
    }
}

fn compatible_preferences(a: Option<Colour>, b: Option<Colour>) -> bool {
    a != b || a.is_none() || b.is_none()
}

/// The colour for `p` when the rules settle it without the ranking, or `None`.
fn neutral_colour(field: &Field, p: &Entrant, o: &Entrant) -> Option<Colour> {
    if compatible_preferences(p.preference, o.preference) {
        return p.preference.or(o.preference.map(Colour::invert));
    }
    if p.absolute_preference() && (p.imbalance > o.imbalance || !o.absolute_preference()) {
        return p.preference;
    }
    if o.absolute_preference() && (o.imbalance > p.imbalance || !p.absolute_preference()) {
        return o.preference.map(Colour::invert);
    }
    if p.strong && !o.strong {
        return p.preference;
    }
    if o.strong && !p.strong {
        return o.preference.map(Colour::invert);
    }
    // The latest round in which their colours differed (E.4).
    let played = |e: &Entrant| -> Vec<Colour> {
        e.history
            .iter()
            .rev()
            .filter(|h| h.played)
            .filter_map(|h| h.colour)
            .collect()
    };
    let (hp, ho) = (played(p), played(o));
    let _ = field;
    for (cp, co) in hp.iter().zip(ho.iter()) {
        if cp != co {
            return Some(*co);
        }
    }
    None
}

/// Two players may meet: they have not played each other, and their absolute
/// colour preferences do not clash (C.04.3 C1, C3; top scorers exempt in the
/// last round).
fn compatible(field: &Field, a: usize, b: usize) -> bool {
    let (p, o) = (&field.entrants[a], &field.entrants[b]);
    if p.forbidden.contains(&b) {
        return false;
    }
    let threshold = (field.played_rounds as u32 * field.win.max(field.draw)) >> 1;
    !p.absolute_preference()
        || !o.absolute_preference()
        || p.preference != o.preference
        || (field.played_rounds + 1 >= field.expected_rounds
            && (p.score > threshold || o.score > threshold))
}

/// Why a run of the pairing stopped short.
enum Stop {
    Pair(PairError),
    /// The weights would need more than 4,096 bits.
    TooLarge,
}

impl From<PairError> for Stop {
    fn from(e: PairError) -> Self {
        Stop::Pair(e)
    }
}

/// Turns an edge's [`Recipe`] into its integer weight under the layout of the
/// bracket being paired.
struct Encoder<'a> {
    field: &'a Field,
    sorted: Vec<usize>,
    layout: Layout,
    /// 1 for a player who could not take the bye (for the completion field).
    not_bye_candidate: Vec<u64>,
    bye_score: u32,
    unplayed_ranks: HashMap<u32, u64>,
    /// While S1 is paired: the digit position of each S1 player of the chunk,
    /// the rank of every opponent (higher is preferred), the bits of a digit
    /// and of all digits.
    lex_slot: Vec<Option<u32>>,
    lex_rank: Vec<u64>,
    lex_digit: u32,
    lex_bits: u32,
}

impl Encoder<'_> {
    /// The preference of the S1 player among `a`, `b` for the other.
    fn lex<W: EdgeWeight>(&self, a: usize, b: usize) -> W {
        if self.lex_bits == 0 {
            return W::ZERO;
        }
        let (p, o) = match (self.lex_slot[a], self.lex_slot[b]) {
            (Some(slot), _) if a < b => (slot, b),
            (_, Some(slot)) if b < a => (slot, a),
            _ => return W::ZERO,
        };
        W::from_u64(self.lex_rank[o]).shl(self.lex_digit * p)
    }

    fn encode<W: EdgeWeight>(&self, a: usize, b: usize, r: Recipe, completion: bool) -> W {
        let (h, l) = (a.min(b), a.max(b));
        let w: W = weights::edge_weight(
            &self.layout,
            self.field,
            &self.field.entrants[self.sorted[h]],
            &self.field.entrants[self.sorted[l]],
            weights::EdgeContext {
                completion: completion
                    .then(|| 1 + self.not_bye_candidate[h] + self.not_bye_candidate[l]),
                in_current: r.current,
                in_next: r.next,
                bye_score: self.bye_score,
                single_downfloater_bye: r.bye_rule,
                unplayed_ranks: &self.unplayed_ranks,
            },
        );
        if r.low >= 0 {
            w.add_u64(r.low as u64)
        } else {
            w - W::from_u64(u64::from(r.low.unsigned_abs()))
        }
    }
}

struct Dutch<'a> {
    field: &'a Field,
    /// Entrant indices in pairing order (score, then rank); a vertex is a
    /// position in this list.
    sorted: Vec<usize>,
    /// The layout over every score group, whose G width the exchange
    /// preferences are measured in.
    global: Layout,
    enc: Encoder<'a>,
    m: Matcher,
    region: Option<Region>,
    /// Which bracket's layout the weights are encoded under.
    epoch: usize,
    /// The matchings kept between solves, on the bracket's region and on
    /// the whole field: a solve repairs them from the matcher's log.
    warm_region: Option<Warm>,
    warm_all: Option<Warm>,
    /// [`compatible`] for every two vertices, a bit each (row-major): it is
    /// asked for every edge of every bracket, and a hash lookup each time
    /// showed in the profile.
    compat: Vec<u64>,
}

/// Bits kept below every criterion for the lexicographic choices of S1
/// (`digit × chunk` never exceeds it), so that the weights keep their scale
/// whether or not a chunk is being chosen.
const LEX_BITS: u32 = 64;

/// A matching kept between solves.
struct Warm {
    epoch: usize,
    completion: bool,
    vertices: Vec<usize>,
    /// Each vertex's position in `vertices`, or `usize::MAX`.
    local: Vec<usize>,
    /// How much of the matcher's log it has taken in.
    consumed: usize,
    /// Some edge's weight (completion left out) was not positive.
    unrepresentable: bool,
    matching: Box<dyn std::any::Any>,
}

/// The bracket being paired, for solving on its players only.
///
/// Edges to players below the next score group carry nothing but the
/// completion field, and that field is the same for every complete pairing.
/// So the best pairing is the best matching of the bracket and the next score
/// group alone (completion left out), provided the players it leaves unpaired
/// can still be paired with those below; that is checked, and the whole graph
/// solved when it fails.
struct Region {
    /// Players of the current bracket and the next score group.
    upper: Vec<usize>,
    /// The first vertex below them.
    lower_start: usize,
    /// A complete matching of the players below, once computed.
    lower_matching: Option<Vec<Option<usize>>>,
    /// Whether a set of players left unpaired above can be paired below, and
    /// with whom.
    absorbed: HashMap<Vec<usize>, Option<Vec<usize>>>,
}

impl<'a> Dutch<'a> {
    fn new(field: &'a Field, sorted: Vec<usize>, global: Layout) -> Self {
        let n = sorted.len();
        let mut compat = vec![0u64; (n * n).div_ceil(64)];
        for a in 0..n {
            for b in 0..n {
                if compatible(field, sorted[a], sorted[b]) {
                    let bit = a * n + b;
                    compat[bit / 64] |= 1 << (bit % 64);
                }
            }
        }
        Dutch {
            compat,
            field,
            sorted: sorted.clone(),
            enc: Encoder {
                field,
                sorted,
                layout: global.clone(),
                not_bye_candidate: vec![0; n],
                bye_score: 0,
                unplayed_ranks: HashMap::new(),
                lex_slot: vec![None; n],
                lex_rank: vec![0; n],
                lex_digit: 0,
                lex_bits: 0,
            },
            global,
            m: Matcher::new(n),
            region: None,
            epoch: 0,
            warm_region: None,
            warm_all: None,
        }
    }

    /// A maximum-weight matching: each vertex's partner, itself if unpaired.
    fn solve(&mut self) -> Vec<usize> {
        match self.solve_region() {
            Some(m) => m,
            None => self.solve_all(),
        }
    }

    fn solve_all(&mut self) -> Vec<usize> {
        let n = self.sorted.len();
        let all: Vec<usize> = (0..n).collect();
        let (local, _) = self.solve_encoded(&all, true, false);
        let mut mate: Vec<usize> = (0..n).map(|v| self.m.fixed(v).unwrap_or(v)).collect();
        for (i, &a) in all.iter().enumerate() {
            if let Some(j) = local[i]
                && self.m.fixed(a).is_none()
            {
                mate[a] = all[j];
            }
        }
        mate
    }

    /// Solves on `vertices` (fixed ones left out) with the narrowest integer
    /// that holds the weights of the bracket's layout; with `completion`
    /// false the completion field is left out, and the flag returned says
    /// whether every edge kept a positive weight. The matching of the last
    /// solve on the same vertices and layout is repaired, not solved anew.
    fn solve_encoded(
        &mut self,
        vertices: &[usize],
        completion: bool,
        region: bool,
    ) -> (Vec<Option<usize>>, bool) {
        let bits = self.enc.layout.total_bits() + LEX_BITS + 2;
        match bits {
            0..=126 => self.solve_as::<i128>(vertices, completion, region),
            127..=190 => self.solve_as::<Wide<3>>(vertices, completion, region),
            191..=254 => self.solve_as::<Wide<4>>(vertices, completion, region),
            255..=318 => self.solve_as::<Wide<5>>(vertices, completion, region),
            319..=382 => self.solve_as::<Wide<6>>(vertices, completion, region),
            383..=510 => self.solve_as::<Wide<8>>(vertices, completion, region),
            511..=766 => self.solve_as::<Wide<12>>(vertices, completion, region),
            767..=1022 => self.solve_as::<Wide<16>>(vertices, completion, region),
            1023..=2046 => self.solve_as::<Wide<32>>(vertices, completion, region),
            _ => self.solve_as::<Wide<64>>(vertices, completion, region),
        }
    }

    fn solve_as<W: EdgeWeight>(
        &mut self,
        vertices: &[usize],
        completion: bool,
        region: bool,
    ) -> (Vec<Option<usize>>, bool) {
        let slot = if region {
            self.warm_region.take()
        } else {
            self.warm_all.take()
        };
        let (enc, m) = (&self.enc, &self.m);
        let mut unrepresentable = false;
        let mut weigh = |a: usize, b: usize| -> W {
            let r = m.get(a, b);
            if r.is_none() || m.fixed(a).is_some() || m.fixed(b).is_some() {
                return W::ZERO;
            }
            let w = enc.encode::<W>(a, b, r, completion);
            if w <= W::ZERO {
                unrepresentable = true;
                return W::ZERO;
            }
            w.shl(LEX_BITS) + enc.lex::<W>(a, b)
        };
        let reusable = slot.filter(|w| {
            w.epoch == self.epoch
                && w.completion == completion
                && w.vertices == vertices
                && w.matching.is::<WarmMatching<W>>()
        });
        let mut warm = match reusable {
            Some(mut warm) => {
                let (changes, end) = m.changes_since(warm.consumed);
                let local = &warm.local;
                let Some(matching) = warm.matching.downcast_mut::<WarmMatching<W>>() else {
                    unreachable!("checked above")
                };
                for &c in changes {
                    match c {
                        Change::Edge(a, b) => {
                            let (la, lb) = (local[a], local[b]);
                            if la != usize::MAX && lb != usize::MAX {
                                matching.set(la, lb, weigh(a, b));
                            }
                        }
                        Change::Row(a) => {
                            let la = local[a];
                            if la != usize::MAX {
                                for (lb, &b) in vertices.iter().enumerate() {
                                    if lb != la {
                                        matching.set(la, lb, weigh(a, b));
                                    }
                                }
                            }
                        }
                        Change::Fixed(a) => {
                            if local[a] != usize::MAX {
                                matching.remove(local[a]);
                            }
                        }
                    }
                }
                warm.consumed = end;
                warm
            }
            None => {
                let mut local = vec![usize::MAX; self.sorted.len()];
                for (i, &v) in vertices.iter().enumerate() {
                    local[v] = i;
                }
                let mut matching = WarmMatching::<W>::new(vertices.len());
                matching.cold(|i, j| weigh(vertices[i], vertices[j]));
                for (i, &v) in vertices.iter().enumerate() {
                    if m.fixed(v).is_some() {
                        matching.remove(i);
                    }
                }
                Warm {
                    epoch: self.epoch,
                    completion,
                    vertices: vertices.to_vec(),
                    local,
                    consumed: m.changes_since(0).1,
                    unrepresentable: false,
                    matching: Box::new(matching),
                }
            }
        };
        warm.unrepresentable |= unrepresentable;
        let Some(matching) = warm.matching.downcast_mut::<WarmMatching<W>>() else {
            unreachable!("built above")
        };
        let local = matching.mates();
        let representable = !warm.unrepresentable;
        if region {
            self.warm_region = Some(warm);
        } else {
            self.warm_all = Some(warm);
        }
        (local, representable)
    }

    /// Solves on the bracket and the next score group only (see [`Region`]).
    fn solve_region(&mut self) -> Option<Vec<usize>> {
        let upper: Vec<usize> = self.region.as_ref()?.upper.clone();
        let (local, representable) = self.solve_encoded(&upper, false, true);
        if !representable {
            return None;
        }
        let n = self.sorted.len();
        let mut mate: Vec<usize> = (0..n).map(|v| self.m.fixed(v).unwrap_or(v)).collect();
        let mut left = Vec::new();
        for (i, &a) in upper.iter().enumerate() {
            if self.m.fixed(a).is_some() {
                continue;
            }
            match local[i] {
                Some(j) => mate[a] = upper[j],
                None => left.push(a),
            }
        }
        let partners = self.absorb(&left)?;
        for (&x, &y) in left.iter().zip(&partners) {
            mate[x] = y;
            mate[y] = x;
        }
        Some(mate)
    }

    fn is_bye_candidate(&self, v: usize) -> bool {
        self.bye_candidate(v, self.enc.bye_score)
    }

    /// Pairs the players `left` unpaired above with players below, so that
    /// all are paired but at most one bye candidate; returns each one's
    /// partner (itself for the bye), or `None` if that cannot be done.
    fn absorb(&mut self, left: &[usize]) -> Option<Vec<usize>> {
        let key = left.to_vec();
        if let Some(known) = self.region.as_ref()?.absorbed.get(&key) {
            return known.clone();
        }
        let n = self.sorted.len();
        let lower_start = self.region.as_ref()?.lower_start;
        if self.region.as_ref()?.lower_matching.is_none() {
            let lower: Vec<usize> = (lower_start..n).collect();
            let m = self.cardinality_matching(&lower, lower_start);
            if let Some(r) = self.region.as_mut() {
                r.lower_matching = Some(m);
            }
        }
        let mut mate: Vec<Option<usize>> = self.region.as_ref()?.lower_matching.clone()?;
        let mut free: Vec<usize> = (lower_start..n).filter(|&v| mate[v].is_none()).collect();
        // Short augmenting paths first: x-z, or x-a with a's partner b to z.
        for &x in left {
            let direct = free.iter().position(|&z| self.compatible(x, z));
            if let Some(i) = direct {
                let z = free.swap_remove(i);
                mate[x] = Some(z);
                mate[z] = Some(x);
                continue;
            }
            let mut found = None;
            'search: for a in lower_start..n {
                if !self.compatible(x, a) {
                    continue;
                }
                let Some(b) = mate[a] else { continue };
                for (i, &z) in free.iter().enumerate() {
                    if z != b && self.compatible(b, z) {
                        found = Some((a, b, i));
                        break 'search;
                    }
                }
            }
            match found {
                Some((a, b, i)) => {
                    let z = free.swap_remove(i);
                    mate[x] = Some(a);
                    mate[a] = Some(x);
                    mate[b] = Some(z);
                    mate[z] = Some(b);
                }
                None => free.push(x),
            }
        }
        let done = free.len() <= 1 && free.iter().all(|&v| self.is_bye_candidate(v));
        let answer = if done {
            Some(left.iter().map(|&x| mate[x].unwrap_or(x)).collect())
        } else {
            // The exact question, on all the players below and those left.
            let mut vertices: Vec<usize> = left.to_vec();
            vertices.extend(lower_start..n);
            let m = self.cardinality_matching(&vertices, lower_start);
            let unpaired: Vec<usize> = vertices
                .iter()
                .copied()
                .filter(|&v| m[v].is_none())
                .collect();
            if unpaired.len() > 1 || unpaired.iter().any(|&v| !self.is_bye_candidate(v)) {
                None
            } else {
                Some(left.iter().map(|&x| m[x].unwrap_or(x)).collect())
            }
        };
        if let Some(r) = self.region.as_mut() {
            r.absorbed.insert(key, answer.clone());
        }
        answer
    }

    /// A matching of `vertices` pairing as many as possible and leaving a bye
    /// candidate unpaired where it can (the completion field alone); two
    /// players above `lower_start` never meet here.
    fn cardinality_matching(&self, vertices: &[usize], lower_start: usize) -> Vec<Option<usize>> {
        let nb = &self.enc.not_bye_candidate;
        let mut matching = WarmMatching::<i64>::new(vertices.len());
        matching.cold(|i, j| {
            let (a, b) = (vertices[i], vertices[j]);
            if (a < lower_start && b < lower_start) || !self.compatible(a, b) {
                0
            } else {
                1 + (nb[a] + nb[b]) as i64
            }
        });
        let local = matching.mates();
        let mut out = vec![None; self.sorted.len()];
        for (i, &a) in vertices.iter().enumerate() {
            out[a] = local[i].map(|j| vertices[j]);
        }
        out
    }

    fn e(&self, v: usize) -> &Entrant {
        &self.field.entrants[self.sorted[v]]
    }

    fn score(&self, v: usize) -> u32 {
        self.e(v).score
    }

    fn compatible(&self, a: usize, b: usize) -> bool {
        let bit = a * self.sorted.len() + b;
        self.compat[bit / 64] >> (bit % 64) & 1 == 1
    }

    fn bye_candidate(&self, v: usize, bye_score: u32) -> bool {
        self.e(v).bye_eligible && self.e(v).score <= bye_score
    }

    /// The edge between `h` and `l` where they may meet.
    fn edge(&self, h: usize, l: usize, current: bool, next: bool, bye_rule: bool) -> Recipe {
        if self.compatible(h, l) {
            Recipe::edge(current, next, bye_rule)
        } else {
            Recipe::NONE
        }
    }

    /// Returns, for every vertex, its partner (itself for the bye).
    fn run(mut self) -> Result<Vec<Option<usize>>, Stop> {
        let n = self.sorted.len();
        let odd = n % 2 == 1;
        let top = self.score(0);
        // First: is a pairing possible at all, and who can get the bye? The
        // bye goes to the lowest score possible: maximise the completion,
        // then the score groups of the paired players, then the pairs within
        // the top group.
        let first_mate: Vec<usize> = {
            let mut groups: Vec<u32> = (0..n).map(|v| self.score(v)).collect();
            groups.dedup();
            let group_of = |s: u32| {
                (groups.len() - 1 - groups.iter().position(|&g| g == s).unwrap_or(0)) as i64
            };
            let low_bits = weights::bits(n as u64 / 2 + 1);
            let mid_bits = weights::bits(2 * n as u64 * groups.len() as u64 + 1);
            let mut matching = WarmMatching::<i64>::new(n);
            matching.cold(|o, p| {
                if !self.compatible(p, o) {
                    return 0;
                }
                let c = 1 + i64::from(!self.e(p).bye_eligible) + i64::from(!self.e(o).bye_eligible);
                let ranks = group_of(self.score(p)) + group_of(self.score(o));
                (((c << mid_bits) + ranks) << low_bits) + i64::from(self.score(p) >= top)
            });
            let local = matching.mates();
            (0..n).map(|v| local[v].unwrap_or(v)).collect()
        };
        let mate = first_mate;
        let mut unmatched = (0..n).filter(|&v| mate[v] == v);
        let first = unmatched.next();
        if unmatched.next().is_some() || first.is_some_and(|v| !self.e(v).bye_eligible) {
            return Err(PairError::NoValidPairing.into());
        }
        let mut bye_score = 0;
        let mut sdba = false;
        if odd {
            let Some(b) = first else {
                return Err(PairError::NoValidPairing.into());
            };
            bye_score = self.score(b);
            if bye_score >= top {
                sdba = true;
                for v in 0..n {
                    if self.score(v) < top {
                        break;
                    }
                    if self.score(mate[v]) < top {
                        sdba = false;
                        break;
                    }
                }
            }
            let mut counts: Vec<u32> = (0..n)
                .filter(|&v| self.score(v) == bye_score)
                .map(|v| self.e(v).played_games)
                .collect();
            counts.sort_unstable_by(|a, b| b.cmp(a));
            for (rank, c) in counts.into_iter().enumerate() {
                self.enc.unplayed_ranks.insert(c, rank as u64);
            }
        }
        self.enc.bye_score = bye_score;
        for v in 0..n {
            self.enc.not_bye_candidate[v] = u64::from(!self.bye_candidate(v, bye_score));
        }
        for p in 0..n {
            for o in 0..p {
                let r = self.edge(o, p, false, false, sdba);
                self.m.set(p, o, r);
            }
        }
        self.brackets(sdba)
    }

    fn brackets(mut self, mut sdba: bool) -> Result<Vec<Option<usize>>, Stop> {
        let n = self.sorted.len();
        let odd = n % 2 == 1;
        let g = self.global.g;
        let bye_score = self.enc.bye_score;
        let first_sdba = sdba;
        let mut result: Vec<Option<usize>> = vec![None; n];
        let mut matched = vec![false; n];
        // Vertices of the current bracket (moved-down players first) and the next.
        let mut pbi: Vec<usize> = Vec::new();
        let mut next_it = 0;
        let top = self.score(0);
        while next_it < n && self.score(next_it) >= top {
            pbi.push(next_it);
            next_it += 1;
        }
        let mut sgb = 0usize;
        let mut sgbv = 0usize;
        let mut mate: Vec<usize>;
        while pbi.len() > 1 || next_it != n {
            let nsgb = pbi.len();
            let nsgbv = sgbv + (nsgb - sgb);
            let sg_it = next_it;
            while next_it < n && self.score(next_it) >= self.score(sg_it) {
                pbi.push(next_it);
                next_it += 1;
            }
            // Score sub-fields only for the scores in play here: every edge
            // that counts scores joins two of these players.
            let scores: Vec<u32> = pbi.iter().map(|&v| self.score(v)).collect();
            self.enc.layout = self.global.with_scores(&scores);
            self.epoch += 1;
            if self.enc.layout.total_bits() > 4094 {
                return Err(Stop::TooLarge);
            }
            // Solving on this bracket alone is exact unless the bye rules (C9)
            // look below it.
            let local =
                !(first_sdba || sdba || (odd && sg_it != n && bye_score >= self.score(sg_it)));
            self.region = local.then(|| Region {
                upper: pbi.clone(),
                lower_start: next_it,
                lower_matching: None,
                absorbed: HashMap::new(),
            });
            // Base weights: base[larger][smaller] over positions in `pbi`.
            let mut base: Vec<Vec<Recipe>> = vec![Vec::new(); pbi.len()];
            for larger in sgb..pbi.len() {
                let row: Vec<Recipe> = (0..larger)
                    .map(|smaller| {
                        self.edge(
                            pbi[smaller],
                            pbi[larger],
                            larger < nsgb,
                            larger >= nsgb,
                            sdba,
                        )
                    })
                    .collect();
                base[larger] = row;
            }
            for larger in sgb..pbi.len() {
                for smaller in 0..larger {
                    self.m.set(pbi[larger], pbi[smaller], base[larger][smaller]);
                }
            }
            let exchange_weight =
                |base: &Vec<Vec<Recipe>>, s: usize, l: usize, sri: usize, rp: usize| -> Recipe {
                    let w = base[l][s];
                    if w.is_none() {
                        return w;
                    }
                    let hi = i64::from(sri < rp) << (2 * g);
                    w.plus((hi - sri as i64) << 1)
                };
            mate = self.solve();
            let in_bracket = |mate: &Vec<usize>, v: usize| mate[v] >= sgbv && mate[v] < nsgbv;

            // Which moved-down players are paired in this bracket.
            let mut md_score = 0;
            let mut rem_md = 0usize;
            let mut rem_matched_md = 0usize;
            for pi in 0..sgb {
                if pi == 0 || self.score(pbi[pi]) < md_score {
                    md_score = self.score(pbi[pi]);
                    rem_matched_md = 0;
                    rem_md = 0;
                    let mut mi = pi;
                    while mi < pbi.len() && self.score(pbi[mi]) >= md_score {
                        rem_md += 1;
                        if in_bracket(&mate, pbi[mi]) {
                            rem_matched_md += 1;
                        }
                        mi += 1;
                    }
                }
                if rem_matched_md == 0 {
                    continue;
                }
                let pv = pbi[pi];
                if rem_md <= rem_matched_md {
                    matched[pv] = true;
                    continue;
                }
                rem_md -= 1;
                if !in_bracket(&mate, pv) {
                    for oi in sgb..nsgb {
                        let w = base[oi][pi];
                        if !w.is_none() {
                            self.m.set(pv, pbi[oi], w.plus(1));
                        }
                    }
                    mate = self.solve();
                }
                if in_bracket(&mate, pv) {
                    matched[pv] = true;
                    rem_matched_md -= 1;
                    for oi in sgb..nsgb {
                        let w = base[oi][pi];
                        if !w.is_none() {
                            self.m
                                .set(pv, pbi[oi], w.plus(((nsgb - sgb) as u64 + 1) as i64));
                        }
                    }
                }
            }

            // Their opponents, in order.
            for pi in 0..sgb {
                let pv = pbi[pi];
                if !matched[pv] {
                    continue;
                }
                let mut addend = pbi.len() as u64;
                let mut favourite = None;
                for oi in (sgb..nsgb).rev() {
                    let ov = pbi[oi];
                    if matched[ov] {
                        continue;
                    }
                    let w = base[oi][pi];
                    if !w.is_none() {
                        self.m.set(pv, ov, w.plus(addend as i64));
                        addend += 1;
                        favourite = Some(ov);
                    }
                }
                // Raising the favourite's edge most keeps a matching that
                // already uses it optimal.
                if favourite != Some(mate[pv]) {
                    mate = self.solve();
                }
                let mv = mate[pv];
                matched[mv] = true;
                self.m.fix(pv, mv);
            }

            // The remainder: S1 (first `rp`) and S2.
            let mut remainder: Vec<usize> = Vec::new();
            let mut rp = 0usize;
            for pi in sgb..nsgb {
                let pv = pbi[pi];
                if mate[pv] < sgbv {
                    continue;
                }
                remainder.push(pi);
                if mate[pv] < pv {
                    rp += 1;
                }
            }
            for (oit, &oi) in remainder.iter().enumerate() {
                for (pri, &pi) in remainder[..oit].iter().enumerate() {
                    let w = exchange_weight(&base, pi, oi, pri, rp);
                    self.m.set(pbi[pi], pbi[oi], w);
                }
            }
            mate = self.solve();
            let forward = |mate: &Vec<usize>, v: usize| mate[v] > v && mate[v] < nsgbv;
            let first_group_end = remainder.get(rp).copied();
            let mut exchange_count = 0usize;
            for &pi in &remainder {
                if first_group_end.is_some_and(|f| pi >= f) {
                    break;
                }
                exchange_count += usize::from(!forward(&mate, pbi[pi]));
            }

            // Exchange the lowest players of S1 where possible.
            let mut left = exchange_count;
            let mut pri = rp;
            let mut pit = rp;
            while pit != 0 && left != 0 {
                let from = pit;
                pri -= 1;
                pit -= 1;
                let pi = remainder[pit];
                let pv = pbi[pi];
                if forward(&mate, pv) {
                    for &oi in &remainder[from..] {
                        let w = exchange_weight(&base, pi, oi, pri, rp);
                        if !w.is_none() {
                            self.m.set(pv, pbi[oi], w.plus(-1));
                        }
                    }
                    mate = self.solve();
                }
                let exchange = !forward(&mate, pv);
                left -= usize::from(exchange);
                for &oi in &remainder[pit + 1..] {
                    if exchange {
                        base[oi][pi] = Recipe::NONE;
                    }
                    let w = exchange_weight(&base, pi, oi, pri, rp);
                    self.m.set(pv, pbi[oi], w);
                }
            }

            // Exchange the highest players of S2 where possible.
            let mut left = exchange_count;
            let mut ri = rp;
            let mut pit = rp;
            while pit < remainder.len() && left > 1 {
                let pi = remainder[pit];
                let pv = pbi[pi];
                let already = forward(&mate, pv);
                if !already {
                    for &oi in &remainder[pit + 1..] {
                        let w = exchange_weight(&base, pi, oi, ri, rp);
                        if !w.is_none() {
                            self.m.set(pv, pbi[oi], w.plus(1));
                        }
                    }
                    mate = self.solve();
                }
                if forward(&mate, pv) {
                    left -= 1;
                    for &oi in &remainder[..pit] {
                        base[pi][oi] = Recipe::NONE;
                        self.m.set(pv, pbi[oi], Recipe::NONE);
                    }
                    for oi in nsgb..pbi.len() {
                        base[oi][pi] = Recipe::NONE;
                        self.m.set(pv, pbi[oi], Recipe::NONE);
                    }
                }
                if !already {
                    for &oi in &remainder[pit + 1..] {
                        let w = exchange_weight(&base, pi, oi, ri, rp);
                        self.m.set(pv, pbi[oi], w);
                    }
                }
                ri += 1;
                pit += 1;
            }

            // Fix who is in S1 and who in S2.
            for (pit, &pi) in remainder.iter().enumerate() {
                let pv = pbi[pi];
                for &oi in &remainder[pit + 1..] {
                    let ov = pbi[oi];
                    if !forward(&mate, pv) || forward(&mate, ov) {
                        base[oi][pi] = Recipe::NONE;
                    }
                    self.m.set(pv, ov, base[oi][pi]);
                }
            }

            // Pair S1 in order, each with the first possible player of S2.
            // Each player's choice, given those of the players before, is
            // the lexicographic best: a chunk of S1 at a time gets it from
            // one solve, each player's preference for the higher opponents
            // weighed in positional digits below every criterion.
            let s1: Vec<usize> = remainder
                .iter()
                .map(|&pi| pbi[pi])
                .filter(|&v| forward(&mate, v))
                .collect();
            let digit = weights::bits(remainder.len() as u64 + 1);
            let chunk = (LEX_BITS / digit).max(1) as usize;
            for (pos, &oi) in remainder.iter().enumerate() {
                self.enc.lex_rank[pbi[oi]] = (remainder.len() - pos) as u64;
            }
            // Where the matching in hand already gives a player the highest
            // opponent still free, that is its choice: nothing can beat it.
            let position: HashMap<usize, usize> = remainder
                .iter()
                .enumerate()
                .map(|(k, &oi)| (pbi[oi], k))
                .collect();
            let mut next = 0;
            while next < s1.len() {
                while next < s1.len() {
                    let pv = s1[next];
                    let from = position.get(&pv).map_or(remainder.len(), |&k| k + 1);
                    let top = remainder[from..]
                        .iter()
                        .map(|&oi| (oi, pbi[oi]))
                        .find(|&(oi, ov)| {
                            !matched[ov]
                                && base
                                    .get(oi)
                                    .and_then(|row| {
                                        position.get(&pv).and_then(|&k| row.get(remainder[k]))
                                    })
                                    .is_some_and(|w| !w.is_none())
                        })
                        .map(|(_, ov)| ov);
                    if top != Some(mate[pv]) {
                        break;
                    }
                    matched[pv] = true;
                    matched[mate[pv]] = true;
                    self.m.fix(pv, mate[pv]);
                    next += 1;
                }
                if next == s1.len() {
                    break;
                }
                let part = &s1[next..(next + chunk).min(s1.len())];
                for (slot, &pv) in part.iter().enumerate() {
                    self.enc.lex_slot[pv] = Some((part.len() - 1 - slot) as u32);
                    self.m.touch(pv);
                }
                self.enc.lex_digit = digit;
                self.enc.lex_bits = digit * part.len() as u32;
                mate = self.solve();
                for &pv in part {
                    self.enc.lex_slot[pv] = None;
                }
                self.enc.lex_bits = 0;
                for &pv in part {
                    let mv = mate[pv];
                    matched[pv] = true;
                    matched[mv] = true;
                    self.m.fix(pv, mv);
                }
                next += part.len();
            }
            for &oi in &remainder {
                self.enc.lex_rank[pbi[oi]] = 0;
            }

            // The next bracket: the unpaired players move down.
            let mut new_pbi = Vec::new();
            sgb = 0;
            sdba = odd && sg_it != n && bye_score >= self.score(sg_it);
            for (pi, &pv) in pbi.iter().enumerate() {
                if pi < nsgb && matched[pv] {
                    result[pv] = Some(mate[pv]);
                    result[mate[pv]] = Some(pv);
                } else {
                    new_pbi.push(pv);
                    if pi < nsgb {
                        sgb += 1;
                    }
                    if sdba && self.score(mate[pv]) < self.score(sg_it) {
                        sdba = false;
                    }
                }
            }
            pbi = new_pbi;
            sgbv = nsgbv;
        }
        for v in pbi {
            if result[v].is_none() {
                result[v] = Some(v);
            }
        }
        Ok(result)
    }
}
