//! Standings and tiebreaks as FIDE's tiebreak regulations (C.07, 2023) define
//! them, with the figures of FIDE's own TieBreakServer (its values are the
//! expected ones in `tests/tiebreak_server.rs`).
//!
//! Unplayed rounds (byes of every kind, forfeits, absence) follow the 2023
//! rules (art. 16):
//! - for the opponent-based tiebreaks (Buchholz and its cuts,
//!   Sonneborn-Berger) each unplayed round of a participant counts as a game
//!   against a dummy opponent whose score is the participant's own final
//!   score, and the participant's result in it is the points actually given
//!   for that round (16.4);
//! - an opponent's score as it enters those tiebreaks is adjusted (16.3.2):
//!   the rounds after the opponent's last round that was not a voluntary
//!   unplayed round, in which they had no scheduled opponent (they had
//!   withdrawn, were disqualified, or took byes to the end), count as draws;
//! - when values are cut (Buchholz cut-1, median), voluntary unplayed rounds
//!   (16.2.5: requested half- and zero-point byes, forfeit losses, absences,
//!   rounds not paired) are cut first; a pairing-allocated bye, a full-point
//!   bye and a forfeit win are not voluntary (they give a win's points).

use std::str::FromStr;

use crate::model::{Outcome, RoundEntry, Tournament};

/// A tiebreak.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tiebreak {
    /// `bh`: the sum of the opponents' scores.
    Buchholz,
    /// `bh-c1`: Buchholz without its least significant value.
    BuchholzCut1,
    /// `bh-m1`: median Buchholz, without the highest and the lowest value.
    BuchholzMedian1,
    /// `sb`: Sonneborn-Berger, each opponent's score times the points scored
    /// against them.
    SonnebornBerger,
    /// `prog`: progressive (cumulative) score, the sum of the running scores.
    Progressive,
    /// `de`: direct encounter, the place within the group of tied players that
    /// the games among them give (1 the best, 0 when it separates nobody).
    DirectEncounter,
    /// `win`: the number of wins, played or not (byes and forfeits included).
    Wins,
    /// `won`: the number of games won over the board.
    WinsOverTheBoard,
}

/// The seed's order: Buchholz, progressive score, direct encounter, wins.
pub const DEFAULT_ORDER: [Tiebreak; 4] = [
    Tiebreak::Buchholz,
    Tiebreak::Progressive,
    Tiebreak::DirectEncounter,
    Tiebreak::Wins,
];

/// An unknown tiebreak name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown tiebreak {0:?} (known: bh, bh-c1, bh-m1, sb, prog, de, win, won)")]
pub struct UnknownTiebreak(pub String);

impl FromStr for Tiebreak {
    type Err = UnknownTiebreak;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s.trim().to_ascii_lowercase().as_str() {
            "bh" | "buchholz" => Tiebreak::Buchholz,
            "bh-c1" | "bhc1" | "cut1" => Tiebreak::BuchholzCut1,
            "bh-m1" | "bhm1" | "median" => Tiebreak::BuchholzMedian1,
            "sb" | "sonneborn-berger" => Tiebreak::SonnebornBerger,
            "prog" | "ps" | "progressive" | "cumulative" => Tiebreak::Progressive,
            "de" | "direct" => Tiebreak::DirectEncounter,
            "win" | "wins" => Tiebreak::Wins,
            "won" => Tiebreak::WinsOverTheBoard,
            other => return Err(UnknownTiebreak(other.to_string())),
        })
    }
}

impl Tiebreak {
    /// The short name used on the command line and in headers.
    pub const fn code(self) -> &'static str {
        match self {
            Tiebreak::Buchholz => "BH",
            Tiebreak::BuchholzCut1 => "BH-C1",
            Tiebreak::BuchholzMedian1 => "BH-M1",
            Tiebreak::SonnebornBerger => "SB",
            Tiebreak::Progressive => "PS",
            Tiebreak::DirectEncounter => "DE",
            Tiebreak::Wins => "WIN",
            Tiebreak::WinsOverTheBoard => "WON",
        }
    }

    /// Whether the value is a whole number (a count, or direct encounter's
    /// place) rather than points.
    pub const fn is_count(self) -> bool {
        matches!(
            self,
            Tiebreak::Wins | Tiebreak::WinsOverTheBoard | Tiebreak::DirectEncounter
        )
    }
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// The place, from 1; tied players share it.
    pub place: usize,
    pub start_rank: u32,
    pub name: String,
    /// Points, in tenths.
    pub score: u32,
    /// The tiebreak values in the order asked: points in hundredths (2.25 is
    /// 225), counts and direct encounter's place as they are.
    pub tiebreaks: Vec<u32>,
}

/// Whether a round is a voluntary unplayed round (C.07 2023, 16.2.5): not
/// played over the board and given less than a win's points.
fn voluntary(e: &RoundEntry) -> bool {
    !e.played() && e.result.class() != Outcome::Win
}

struct Facts {
    scores: Vec<u32>,
    /// Per player, per round: the value the round adds to Buchholz, and
    /// whether it is a voluntary unplayed round.
    bh_values: Vec<Vec<(u32, bool)>>,
    sb: Vec<u32>,
    progressive: Vec<u32>,
    wins: Vec<u32>,
    won: Vec<u32>,
}

/// Each player's score as their opponents' Buchholz and Sonneborn-Berger
/// count it (16.3.2): the rounds after their last round that was not a
/// voluntary unplayed round, without a scheduled opponent, count as draws.
fn adjusted_scores(t: &Tournament, rounds: usize) -> Vec<u32> {
    let scoring = t.scoring;
    t.players
        .iter()
        .map(|p| {
            let last = (1..=rounds)
                .rev()
                .find(|&r| !voluntary(&p.entry(r)))
                .unwrap_or(0);
            (1..=rounds)
                .map(|r| {
                    let e = p.entry(r);
                    if r <= last || e.opponent().is_some() {
                        e.points(&scoring)
                    } else {
                        scoring.draw
                    }
                })
                .sum()
        })
        .collect()
}

fn facts(t: &Tournament, rounds: usize) -> Facts {
    let scoring = t.scoring;
    let n = t.players.len();
    let scores: Vec<u32> = t
        .players
        .iter()
        .map(|p| p.score_after(rounds, &scoring))
        .collect();
    let adjusted = adjusted_scores(t, rounds);
    let index_of = |rank: u32| t.players.iter().position(|p| p.start_rank == rank);
    let mut f = Facts {
        scores: scores.clone(),
        bh_values: vec![Vec::new(); n],
        sb: vec![0; n],
        progressive: vec![0; n],
        wins: vec![0; n],
        won: vec![0; n],
    };
    for (i, p) in t.players.iter().enumerate() {
        let mut running = 0;
        for r in 1..=rounds {
            let e = p.entry(r);
            let pts = e.points(&scoring);
            running += pts;
            f.progressive[i] += running * 10;
            let outcome = e.result.class();
            if outcome == Outcome::Win {
                f.wins[i] += 1;
                if e.played() {
                    f.won[i] += 1;
                }
            }
            let opponent_score = match (e.played(), e.opponent().and_then(index_of)) {
                (true, Some(o)) => adjusted[o] * 10,
                // The dummy opponent has the participant's own score.
                _ => scores[i] * 10,
            };
            f.bh_values[i].push((opponent_score, voluntary(&e)));
            // Sonneborn-Berger: the opponent's score times the share of the
            // point scored against them.
            f.sb[i] += opponent_score * pts / scoring.win.max(1);
            // (hundredths times tenths over tenths: still hundredths)
        }
    }
    f
}

fn cut(values: &[(u32, bool)], low: usize, high: usize) -> u32 {
    let mut vs: Vec<(u32, bool)> = values.to_vec();
    // Voluntary unplayed rounds sort first so that they are the ones cut.
    vs.sort_by_key(|&(v, vur)| (!vur, v));
    let mut kept: Vec<u32> = vs.iter().skip(low).map(|&(v, _)| v).collect();
    kept.sort_unstable();
    let keep = kept.len().saturating_sub(high);
    kept[..keep].iter().sum()
}

/// The standings after `rounds` rounds with the tiebreaks in `order`.
pub fn standings(t: &Tournament, rounds: usize, order: &[Tiebreak]) -> Vec<Standing> {
    let f = facts(t, rounds);
    let n = t.players.len();
    let mut values: Vec<Vec<u32>> = vec![Vec::with_capacity(order.len()); n];
    // Players are ranked by score, then tiebreak by tiebreak: direct encounter
    // needs the groups still tied when it comes.
    let mut ranking: Vec<usize> = (0..n).collect();
    for (k, tb) in order.iter().enumerate() {
        for i in 0..n {
            let v = match tb {
                Tiebreak::Buchholz => f.bh_values[i].iter().map(|&(v, _)| v).sum(),
                Tiebreak::BuchholzCut1 => cut(&f.bh_values[i], 1, 0),
                Tiebreak::BuchholzMedian1 => cut(&f.bh_values[i], 1, 1),
                Tiebreak::SonnebornBerger => f.sb[i],
                Tiebreak::Progressive => f.progressive[i],
                Tiebreak::Wins => f.wins[i],
                Tiebreak::WinsOverTheBoard => f.won[i],
                Tiebreak::DirectEncounter => 0,
            };
            values[i].push(v);
        }
        if *tb == Tiebreak::DirectEncounter {
            let tied_key = |i: usize| (f.scores[i], values[i][..k].to_vec());
            let mut groups: std::collections::HashMap<(u32, Vec<u32>), Vec<usize>> =
                std::collections::HashMap::new();
            for i in 0..n {
                groups.entry(tied_key(i)).or_default().push(i);
            }
            for group in groups.values().filter(|g| g.len() > 1) {
                let de = direct_encounter(t, rounds, group);
                for (&i, v) in group.iter().zip(de) {
                    values[i][k] = v;
                }
            }
        }
    }
    // Higher values rank first, but a direct-encounter place lower.
    let key = |i: usize| -> Vec<i64> {
        order
            .iter()
            .zip(&values[i])
            .map(|(tb, &v)| match tb {
                Tiebreak::DirectEncounter => -i64::from(v),
                _ => i64::from(v),
            })
            .collect()
    };
    ranking.sort_by(|&a, &b| {
        f.scores[b]
            .cmp(&f.scores[a])
            .then_with(|| key(b).cmp(&key(a)))
            .then_with(|| t.players[a].start_rank.cmp(&t.players[b].start_rank))
    });
    let mut out: Vec<Standing> = Vec::with_capacity(n);
    for (pos, &i) in ranking.iter().enumerate() {
        let place = match out.last() {
            Some(prev) if prev.score == f.scores[i] && prev.tiebreaks == values[i] => prev.place,
            _ => pos + 1,
        };
        out.push(Standing {
            place,
            start_rank: t.players[i].start_rank,
            name: t.players[i].name.clone(),
            score: f.scores[i],
            tiebreaks: values[i].clone(),
        });
    }
    out
}

/// Direct encounter (C.07 2023, art. 6) among a group tied on points and the
/// tiebreaks before it: each player's place within the group, 1 the best
/// (0 for all when it separates nobody).
///
/// Only games played over the board count, a repeated encounter by its
/// average. When every two of the group have met, the points scored against
/// each other order them. When not (a Swiss event), a player is placed ahead
/// of the rest only when their points are more than any of the rest could
/// have had by winning the encounters they did not play; the first player not
/// so separated shares the place with everyone below. Each subgroup still
/// tied after a pass is taken again on its own, until nothing changes.
fn direct_encounter(t: &Tournament, rounds: usize, group: &[usize]) -> Vec<u32> {
    let n = group.len();
    let mut place = vec![1u32; n];
    let mut more = vec![true; n];
    loop {
        let mut changed = false;
        let mut places = place.clone();
        places.sort_unstable();
        places.dedup();
        for p in places {
            let members: Vec<usize> = (0..n).filter(|&a| place[a] == p).collect();
            if !more[members[0]] {
                continue;
            }
            if members.len() == 1 {
                more[members[0]] = false;
                continue;
            }
            let changes = encounter_pass(t, rounds, group, &members, &mut place);
            for &m in &members {
                more[m] = changes;
            }
            changed |= changes;
        }
        if !changed {
            break;
        }
    }
    if place.iter().all(|&p| p == place[0]) {
        vec![0; n]
    } else {
        place
    }
}

/// One pass of direct encounter over `members` (indices into `group`), who
/// share a place: their new places; whether any changed.
fn encounter_pass(
    t: &Tournament,
    rounds: usize,
    group: &[usize],
    members: &[usize],
    place: &mut [u32],
) -> bool {
    let scoring = t.scoring;
    let ranks: Vec<u32> = members
        .iter()
        .map(|&m| t.players[group[m]].start_rank)
        .collect();
    let met_max = members.len() - 1;
    let mut all_met = true;
    // Per member: points against the others (averaged per opponent), and the
    // most they could have had.
    let mut value = Vec::with_capacity(members.len());
    for &m in members {
        let mut against: Vec<(u32, u32, u32)> = Vec::new(); // (opponent, games, points)
        for r in 1..=rounds {
            let e = t.players[group[m]].entry(r);
            if !e.played() {
                continue;
            }
            if let Some(o) = e.opponent().filter(|o| ranks.contains(o)) {
                let pts = e.points(&scoring);
                match against.iter_mut().find(|a| a.0 == o) {
                    Some(a) => {
                        a.1 += 1;
                        a.2 += pts;
                    }
                    None => against.push((o, 1, pts)),
                }
            }
        }
        let points: f64 = against
            .iter()
            .map(|&(_, games, pts)| f64::from(pts) / f64::from(games))
            .sum();
        let unplayed = met_max - against.len();
        if unplayed > 0 {
            all_met = false;
        }
        let most = points + (unplayed as u32 * scoring.win) as f64;
        value.push((points, most));
    }
    let mut order: Vec<usize> = (0..members.len()).collect();
    order.sort_by(|&a, &b| {
        value[b]
            .0
            .total_cmp(&value[a].0)
            .then(value[b].1.total_cmp(&value[a].1))
            .then(ranks[a].cmp(&ranks[b]))
    });
    let base = place[members[order[0]]];
    let mut current = base;
    let mut changes = false;
    let mut separate = true;
    for (i, &k) in order.iter().enumerate().skip(1) {
        let before = value[order[i - 1]].0;
        let moved = if all_met {
            before != value[k].0
        } else {
            let best_rest = order[i..]
                .iter()
                .map(|&j| value[j].1)
                .fold(f64::MIN, f64::max);
            separate && before > best_rest
        };
        if moved {
            current = base + i as u32;
            changes = true;
        } else if !all_met {
            separate = false;
        }
        place[members[k]] = current;
    }
    changes
}
