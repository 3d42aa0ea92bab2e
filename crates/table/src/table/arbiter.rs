//! An arbiter's commands: fouls (犯规) and violations (违例), the third of which
//! loses, warnings, and games decided or adjudicated outright.

use qiyuan_clock::Millis;
use qiyuan_game::{EndReason, Game, Outcome, Seat};

use super::{K, R, Table, no_game, refuse};
use crate::types::{Decision, Event, TableRefusal};

impl<G: Game> Table<G> {
    /// A foul (犯规) against `seat`; the third loses.
    pub(super) fn foul(&mut self, seat: Seat, reason: Option<String>, now: Millis) -> R {
        if !self.is_playing() {
            return refuse(K::NoGame, "no game is being played");
        }
        if seat.0 >= self.seats_n {
            return refuse(K::NoSuchSeat, format!("there is no {seat}"));
        }
        let gs = self.state.game.as_mut().ok_or_else(no_game)?;
        let count = gs.fouls[seat.index()].saturating_add(1);
        gs.fouls[seat.index()] = count;
        let mut events = vec![Event::Fouled {
            seat,
            count,
            reason,
        }];
        if count >= 3 {
            // Three fouls lose, whoever has moved: an arbiter's decision,
            // not an abort.
            let outcome = self.conceded(seat, EndReason::Fouls);
            let rated = self.state.game.as_ref().is_some_and(|g| g.rated);
            events.extend(self.end(outcome, rated, now)?);
        }
        Ok(events)
    }

    /// The arbiter's outcome, taken as it is.
    pub(super) fn adjudicate(&mut self, outcome: Outcome, now: Millis) -> R {
        if !self.is_playing() {
            return refuse(K::NoGame, "no game is being played");
        }
        let rated = self.state.game.as_ref().is_some_and(|g| g.rated);
        self.end(outcome, rated, now)
    }

    /// A warning (警告): it changes nothing but the record.
    pub(super) fn warn(&mut self, seat: Seat, reason: String) -> R {
        self.arbiter_seat(seat)?;
        Ok(vec![Event::Warned { seat, reason }])
    }

    /// A violation (违例) against `seat`; the third loses.
    pub(super) fn violation(&mut self, seat: Seat, reason: String, now: Millis) -> R {
        self.arbiter_seat(seat)?;
        let gs = self.state.game.as_mut().ok_or_else(no_game)?;
        if gs.violations.len() < gs.fouls.len() {
            gs.violations.resize(gs.fouls.len(), 0);
        }
        let slot = gs.violations.get_mut(seat.index()).ok_or_else(no_game)?;
        let count = slot.saturating_add(1);
        *slot = count;
        let mut events = vec![Event::Violated {
            seat,
            count,
            reason,
        }];
        if count >= 3 {
            // 违例三次者判负 (seed 002), like three fouls, and said so.
            let outcome = self.conceded(seat, EndReason::Violations);
            let rated = self.state.game.as_ref().is_some_and(|g| g.rated);
            events.extend(self.end(outcome, rated, now)?);
        }
        Ok(events)
    }

    /// The arbiter's decision: a seat loses, a draw, or no game.
    pub(super) fn decide(&mut self, decision: Decision, now: Millis) -> R {
        if !self.is_playing() {
            return refuse(K::NoGame, "no game is being played");
        }
        let rated = self.state.game.as_ref().is_some_and(|g| g.rated);
        let (outcome, rated) = match decision {
            Decision::Loses { seat, forfeit } => {
                if seat.0 >= self.seats_n {
                    return refuse(K::NoSuchSeat, format!("there is no {seat}"));
                }
                (
                    self.conceded(seat, EndReason::Adjudication),
                    rated && !forfeit && !self.abortable(),
                )
            }
            Decision::Draw => {
                let mut outcome = match &self.game {
                    Some(g) => g.agreed_draw(),
                    None => Outcome::aborted(self.seats_n),
                };
                outcome.reason = EndReason::Adjudication;
                (outcome, rated && !self.abortable())
            }
            Decision::Void => (Outcome::aborted(self.seats_n), false),
        };
        self.end(outcome, rated, now)
    }

    /// An arbiter's command about `seat` needs a game being played and the seat.
    fn arbiter_seat(&self, seat: Seat) -> Result<(), TableRefusal> {
        if !self.is_playing() {
            return refuse(K::NoGame, "no game is being played");
        }
        if seat.0 >= self.seats_n {
            return refuse(K::NoSuchSeat, format!("there is no {seat}"));
        }
        Ok(())
    }
}
