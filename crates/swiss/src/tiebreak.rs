//! Standings and tiebreaks as FIDE's tiebreak regulations (C.07, 2023) define
//! them.
//!
//! Unplayed rounds (byes of every kind, forfeits, absence) follow the 2023
//! rule: for the opponent-based tiebreaks (Buchholz and its cuts,
//! Sonneborn-Berger) each unplayed round of a participant counts as a game
//! against a dummy opponent whose score is the participant's own final score,
//! and the participant's result in it is the points actually given for that
//! round. When values are cut (Buchholz cut-1, median), the rounds the
//! participant chose not to play — voluntary unplayed rounds: requested byes,
//! forfeit losses and absences — are cut first; a pairing-allocated bye and a
//! forfeit win are not voluntary.

use std::str::FromStr;

use crate::model::{Outcome, ResultCode, RoundEntry, Tournament};

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
    /// `de`: direct encounter, the points scored against the other tied players
    /// when all of them have met.
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

    /// Whether the value is a count rather than points.
    pub const fn is_count(self) -> bool {
        matches!(self, Tiebreak::Wins | Tiebreak::WinsOverTheBoard)
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
    /// 225), counts as they are.
    pub tiebreaks: Vec<u32>,
}

/// Whether an unplayed round was the participant's choice (C.07 2023: cut first).
fn voluntary(e: &RoundEntry) -> bool {
    !e.played()
        && !e.is_pairing_bye()
        && !matches!(e.result, ResultCode::ForfeitWin | ResultCode::PairingBye)
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

fn facts(t: &Tournament, rounds: usize) -> Facts {
    let scoring = t.scoring;
    let n = t.players.len();
    let scores: Vec<u32> = t
        .players
        .iter()
        .map(|p| p.score_after(rounds, &scoring))
        .collect();
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
                (true, Some(o)) => scores[o] * 10,
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
    ranking.sort_by(|&a, &b| {
        f.scores[b]
            .cmp(&f.scores[a])
            .then_with(|| values[b].cmp(&values[a]))
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

/// Points scored in games among the group, when every two of them have met
/// over the board; zero for all otherwise (C.07 2023, direct encounter).
fn direct_encounter(t: &Tournament, rounds: usize, group: &[usize]) -> Vec<u32> {
    let scoring = t.scoring;
    let ranks: Vec<u32> = group.iter().map(|&i| t.players[i].start_rank).collect();
    let mut met = vec![vec![false; group.len()]; group.len()];
    let mut points = vec![0; group.len()];
    for (a, &i) in group.iter().enumerate() {
        for r in 1..=rounds {
            let e = t.players[i].entry(r);
            if !e.played() {
                continue;
            }
            if let Some(b) = e
                .opponent()
                .and_then(|o| ranks.iter().position(|&x| x == o))
            {
                met[a][b] = true;
                points[a] += e.points(&scoring) * 10;
            }
        }
    }
    let all_met = (0..group.len()).all(|a| (0..group.len()).all(|b| a == b || met[a][b]));
    if all_met {
        points
    } else {
        vec![0; group.len()]
    }
}
