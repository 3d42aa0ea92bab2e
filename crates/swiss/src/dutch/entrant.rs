//! What the pairing needs to know about each player: score, colour history and
//! preference (C.04.1 and the Dutch colour rules), floats, bye eligibility.

use std::collections::HashSet;

use crate::model::{Colour, Tournament};

/// A player's history in one past round, as the pairing reads it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PastRound {
    /// A game played over the board (forfeits and byes are not).
    pub played: bool,
    /// Paired by the system (a game, a forfeit or the pairing-allocated bye).
    pub participated: bool,
    /// The opponent's index among the entrants, if any.
    pub opponent: Option<usize>,
    pub colour: Option<Colour>,
    pub points: u32,
}

/// The float of a player in an earlier round (C.04.3 A.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Float {
    Down,
    Up,
    None,
}

/// A player known to the pairing of the next round.
#[derive(Clone, Debug)]
pub(crate) struct Entrant {
    pub start_rank: u32,
    /// The effective pairing number, from 0, among players in the event.
    pub rank: usize,
    pub score: u32,
    pub history: Vec<PastRound>,
    /// Takes part in the round being paired.
    pub to_pair: bool,
    pub preference: Option<Colour>,
    pub imbalance: u32,
    /// The colour of the last two games when it was the same both times.
    pub repeated: Option<Colour>,
    pub strong: bool,
    pub played_games: u32,
    pub bye_eligible: bool,
    pub floats: [Float; 3],
    pub forbidden: HashSet<usize>,
}

impl Entrant {
    /// |whites - blacks| > 1: the colour is absolute (C.04.1 A.6.a).
    pub fn absolute_imbalance(&self) -> bool {
        self.imbalance > 1
    }

    /// An absolute colour preference: imbalance above one, or the same colour
    /// in the last two games.
    pub fn absolute_preference(&self) -> bool {
        self.absolute_imbalance() || self.repeated.is_some()
    }
}

/// Everything the pairing of the next round reads from the tournament.
#[derive(Clone, Debug)]
pub(crate) struct Field {
    pub entrants: Vec<Entrant>,
    pub played_rounds: usize,
    pub expected_rounds: usize,
    pub initial_colour: Colour,
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
}

/// Why the field could not be built from the tournament.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FieldError {
    #[error("player {player}, round {round}: opponent {opponent} is not in the tournament")]
    UnknownOpponent {
        player: u32,
        round: usize,
        opponent: u32,
    },
    #[error("player {player}, round {round}: the opponent's entry does not agree")]
    Inconsistent { player: u32, round: usize },
}

impl Field {
    pub fn new(t: &Tournament) -> Result<Field, FieldError> {
        let scoring = t.scoring;
        let played_rounds = t.paired_rounds();
        let mut order: Vec<usize> = (0..t.players.len()).collect();
        order.sort_by_key(|&i| t.players[i].start_rank);
        let mut by_rank = std::collections::HashMap::new();
        for (k, &i) in order.iter().enumerate() {
            by_rank.insert(t.players[i].start_rank, k);
        }
        let mut entrants = Vec::with_capacity(order.len());
        let mut next_rank = 0;
        for &i in &order {
            let p = &t.players[i];
            let mut history = Vec::with_capacity(played_rounds);
            let mut any_participation = false;
            for r in 0..played_rounds {
                let e = p.entry(r + 1);
                let opponent = match e.opponent() {
                    Some(o) => Some(*by_rank.get(&o).ok_or(FieldError::UnknownOpponent {
                        player: p.start_rank,
                        round: r + 1,
                        opponent: o,
                    })?),
                    None => None,
                };
                any_participation |= e.participated();
                history.push(PastRound {
                    played: e.played(),
                    participated: e.participated(),
                    opponent,
                    colour: e.colour.colour(),
                    points: e.points(&scoring),
                });
            }
            let extra = p.rounds.iter().skip(played_rounds).any(|e| !e.is_blank());
            let valid = !extra || any_participation;
            let rank = next_rank;
            if valid {
                next_rank += 1;
            }
            let score = history.iter().map(|h| h.points).sum();
            let mut e = Entrant {
                start_rank: p.start_rank,
                rank,
                score,
                history,
                to_pair: valid && !extra && !p.withdrawn,
                preference: None,
                imbalance: 0,
                repeated: None,
                strong: false,
                played_games: 0,
                bye_eligible: true,
                floats: [Float::None; 3],
                forbidden: HashSet::new(),
            };
            colour_data(&mut e);
            e.bye_eligible = !e.history.iter().any(|h| {
                !h.played && (h.points >= scoring.win || (h.participated && h.opponent.is_none()))
            });
            entrants.push(e);
        }
        // Games played forbid a rematch; forfeited games do not.
        for k in 0..entrants.len() {
            for r in 0..played_rounds {
                let h = entrants[k].history[r];
                if let Some(o) = h.opponent {
                    let back = entrants[o].history[r];
                    if h.played
                        && (back.opponent != Some(k) || !back.played || back.colour == h.colour)
                    {
                        return Err(FieldError::Inconsistent {
                            player: entrants[k].start_rank,
                            round: r + 1,
                        });
                    }
                    if h.played {
                        entrants[k].forbidden.insert(o);
                        entrants[o].forbidden.insert(k);
                    }
                }
            }
        }
        let mut field = Field {
            entrants,
            played_rounds,
            expected_rounds: t.total_rounds.map_or(played_rounds + 1, |r| r as usize),
            initial_colour: t.initial_colour.unwrap_or(Colour::White),
            win: scoring.win,
            draw: scoring.draw,
            loss: scoring.loss,
        };
        for k in 0..field.entrants.len() {
            for back in 1..=2 {
                if back <= played_rounds {
                    let f = field.float(k, back);
                    field.entrants[k].floats[back] = f;
                }
            }
        }
        Ok(field)
    }

    /// The score before the last `back` rounds.
    pub fn score_before(&self, k: usize, back: usize) -> u32 {
        let e = &self.entrants[k];
        let n = e.history.len();
        e.score - e.history[n - back..].iter().map(|h| h.points).sum::<u32>()
    }

    fn float(&self, k: usize, back: usize) -> Float {
        let h = self.entrants[k].history[self.played_rounds - back];
        if !h.played {
            return if h.points > self.loss {
                Float::Down
            } else {
                Float::None
            };
        }
        let Some(o) = h.opponent else {
            return Float::None;
        };
        let mine = self.score_before(k, back);
        let theirs = self.score_before(o, back);
        match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => Float::Down,
            std::cmp::Ordering::Less => Float::Up,
            std::cmp::Ordering::Equal => Float::None,
        }
    }
}

/// Colour difference, the last colours and the preference (C.04.1 A.6-A.7).
fn colour_data(e: &mut Entrant) {
    let mut whites = 0u32;
    let mut blacks = 0u32;
    let mut consecutive = 0u32;
    let mut last: Option<Colour> = None;
    let mut played = 0;
    for h in &e.history {
        if !h.played {
            continue;
        }
        let Some(c) = h.colour else { continue };
        played += 1;
        match c {
            Colour::White => whites += 1,
            Colour::Black => blacks += 1,
        }
        if consecutive == 0 || Some(c) != last {
            consecutive = 1;
        } else {
            consecutive += 1;
        }
        last = Some(c);
    }
    e.played_games = played;
    let lower = if whites > blacks {
        Colour::Black
    } else {
        Colour::White
    };
    e.imbalance = whites.abs_diff(blacks);
    e.preference = if e.imbalance > 1 {
        Some(lower)
    } else if consecutive > 1 {
        last.map(Colour::invert)
    } else if e.imbalance > 0 {
        Some(lower)
    } else if consecutive > 0 {
        last.map(Colour::invert)
    } else {
        None
    };
    e.repeated = if consecutive > 1 { last } else { None };
    e.strong = !e.absolute_preference() && e.imbalance > 0;
}
