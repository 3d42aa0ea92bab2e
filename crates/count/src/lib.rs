//! A toy game, the smallest a qiyuan server can host: two players in turn add 1,
//! 2 or 3 to a running total, and whoever brings it to the target (21 unless the
//! table says otherwise) wins. It exists to show (and test) that a further game
//! takes this crate and one registry entry in the server, nothing else.
//!
//! Pure: no I/O, no clock, no randomness.

use qiyuan_game::{
    DrawOffers, Effects, EndReason, Game, Outcome, PlayPhase, RecordMeta, Refusal, RefusalKind,
    Seat, SeatResult, Setup, SetupError, Turn, Viewer,
};
use serde::{Deserialize, Serialize};

/// The table's options: the total that wins.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CountOptions {
    pub target: u32,
}

impl Default for CountOptions {
    fn default() -> Self {
        CountOptions { target: 21 }
    }
}

/// A game of counting to the target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Count {
    target: u32,
    total: u32,
    to_move: Seat,
    /// The canonical actions so far.
    moves: Vec<String>,
}

/// What every viewer sees (nothing is hidden).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CountView {
    pub total: u32,
    pub target: u32,
    /// `None` once the game is over.
    pub to_move: Option<Seat>,
    pub moves: Vec<String>,
}

impl Count {
    pub fn total(&self) -> u32 {
        self.total
    }

    /// The seat that moved last (the winner, once the target is reached).
    fn last_mover(&self) -> Seat {
        self.to_move.next(2)
    }

    fn won(&self, winner: Seat, reason: EndReason) -> Outcome {
        let mut results = vec![SeatResult::Loss; 2];
        results[winner.index()] = SeatResult::Win;
        Outcome {
            results,
            reason,
            score: if winner == Seat::FIRST { "1-0" } else { "0-1" }.into(),
            points: Vec::new(),
            deal: 0,
        }
    }
}

impl Game for Count {
    type Options = CountOptions;
    type Phase = PlayPhase;
    type View = CountView;
    const NAME: &'static str = "count";

    fn new(options: &CountOptions, setup: &Setup) -> Result<Self, SetupError> {
        if !(1..=1000).contains(&options.target) {
            return Err(SetupError::new("the target is 1 to 1000"));
        }
        let total = match setup {
            Setup::Standard => 0,
            Setup::Position(p) => p
                .trim()
                .parse()
                .ok()
                .filter(|&t| t < options.target)
                .ok_or_else(|| SetupError::new("a position is a total below the target"))?,
            Setup::Seed(_) | Setup::Secret(_) => {
                return Err(SetupError::new("counting deals nothing"));
            }
        };
        Ok(Count {
            target: options.target,
            total,
            to_move: Seat::FIRST,
            moves: Vec::new(),
        })
    }

    fn seats(&self) -> u8 {
        2
    }

    fn turn(&self) -> Turn {
        if self.total >= self.target {
            Turn::Over
        } else {
            Turn::Seat(self.to_move)
        }
    }

    fn phase(&self) -> PlayPhase {
        if self.total >= self.target {
            PlayPhase::Over
        } else {
            PlayPhase::Play
        }
    }

    fn act(&mut self, seat: Seat, action: &str) -> Result<Effects, Refusal> {
        if self.total >= self.target {
            return Err(Refusal::new(RefusalKind::GameOver, "the game is over"));
        }
        if seat != self.to_move {
            return Err(Refusal::new(RefusalKind::NotYourTurn, "not your turn"));
        }
        let n: u32 = action
            .trim()
            .parse()
            .map_err(|_| Refusal::new(RefusalKind::Malformed, "an action is 1, 2 or 3"))?;
        if !(1..=3).contains(&n) {
            return Err(Refusal::new(RefusalKind::Illegal, "add 1, 2 or 3"));
        }
        self.total += n;
        self.to_move = self.to_move.next(2);
        self.moves.push(n.to_string());
        Ok(Effects {
            canonical: n.to_string(),
            display: format!("+{n} = {}", self.total),
            capture: false,
            check: false,
        })
    }

    fn legal_actions(&self, seat: Seat) -> Vec<String> {
        if seat == self.to_move && self.total < self.target {
            ["1", "2", "3"].map(String::from).to_vec()
        } else {
            Vec::new()
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.total >= self.target).then(|| self.won(self.last_mover(), EndReason::Counted))
    }

    fn conceded(&self, seat: Seat, reason: EndReason) -> Outcome {
        self.won(seat.next(2), reason)
    }

    fn agreed_draw(&self) -> Outcome {
        Outcome {
            results: vec![SeatResult::Draw; 2],
            reason: EndReason::Agreement,
            score: "1/2-1/2".into(),
            points: Vec::new(),
            deal: 0,
        }
    }

    fn draw_offers(&self) -> DrawOffers {
        DrawOffers::AfterOwnMove
    }

    fn view(&self, _viewer: Viewer) -> CountView {
        CountView {
            total: self.total,
            target: self.target,
            to_move: (self.total < self.target).then_some(self.to_move),
            moves: self.moves.clone(),
        }
    }

    /// One line: the players, the moves, the result.
    fn record(&self, meta: &RecordMeta) -> String {
        let result = meta
            .outcome
            .clone()
            .or_else(|| self.outcome())
            .map_or_else(|| "*".to_string(), |o| o.score);
        format!(
            "count to {}: {} | {} | {result}\n",
            self.target,
            meta.players.join(" - "),
            self.moves.join(" ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whoever_reaches_the_target_wins() {
        let mut g = Count::new(&CountOptions { target: 5 }, &Setup::Standard).unwrap();
        assert_eq!(g.turn(), Turn::Seat(Seat::FIRST));
        g.act(Seat::FIRST, "3").unwrap();
        assert_eq!(
            g.act(Seat::FIRST, "1").unwrap_err().kind,
            RefusalKind::NotYourTurn
        );
        assert_eq!(g.act(Seat(1), "4").unwrap_err().kind, RefusalKind::Illegal);
        assert_eq!(
            g.act(Seat(1), "x").unwrap_err().kind,
            RefusalKind::Malformed
        );
        g.act(Seat(1), "2").unwrap();
        assert_eq!(g.turn(), Turn::Over);
        let o = g.outcome().unwrap();
        assert_eq!(o.results, vec![SeatResult::Loss, SeatResult::Win]);
        assert_eq!(o.score, "0-1");
        assert!(g.legal_actions(Seat::FIRST).is_empty());
    }

    #[test]
    fn bad_setups_are_refused() {
        let o = CountOptions::default();
        assert!(Count::new(&o, &Setup::Position("21".into())).is_err());
        assert!(Count::new(&o, &Setup::Position("x".into())).is_err());
        assert!(Count::new(&o, &Setup::Seed(1)).is_err());
        assert_eq!(
            Count::new(&o, &Setup::Position("20".into()))
                .unwrap()
                .total(),
            20
        );
        assert!(Count::new(&CountOptions { target: 0 }, &Setup::Standard).is_err());
    }
}
