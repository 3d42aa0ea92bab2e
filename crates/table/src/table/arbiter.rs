//! An arbiter's commands: fouls (犯规) and violations (违例), the third of which
//! loses, warnings, and games decided or adjudicated outright.

use qiyuan_clock::Millis;
use qiyuan_game::{EndReason, Game, Outcome, Seat};

use super::{K, R, Table, empty_clock, no_game, refuse};
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
        let gs = self.state.game.as_mut().ok_or_else(no_game)?;
        if gs.warnings.len() < self.seats_n as usize {
            gs.warnings.resize(self.seats_n as usize, 0);
        }
        gs.warnings[seat.index()] = gs.warnings[seat.index()].saturating_add(1);
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

    /// Restores the position after the first `ply` actions (seed 002 第3条8):
    /// the time of the turn under way is charged as a takeback charges it, the
    /// game is replayed from its actions up to `ply`, and the clocks are the
    /// arbiter's `clocks` or stand as they are. A paused game stays paused.
    pub(super) fn restore(&mut self, ply: u32, clocks: Option<Vec<Millis>>, now: Millis) -> R {
        if !self.is_playing() {
            return refuse(K::NoGame, "no game is being played");
        }
        let n = self.seats_n as usize;
        let gs = self.state.game.as_mut().ok_or_else(no_game)?;
        if ply as usize >= gs.actions.len() {
            return refuse(
                K::NotAllowed,
                format!(
                    "the game has {} actions: a position before the last one is restored",
                    gs.actions.len()
                ),
            );
        }
        if clocks.as_ref().is_some_and(|c| c.len() != n) {
            return refuse(K::NotAllowed, format!("one time per seat ({n})"));
        }
        let limit = gs.clock.running_seat().and_then(|s| gs.clock.limit_kind(s));
        if let Err(flag) = gs.clock.stop(now) {
            return self.end_by_table(Seat(flag.seat as u8), EndReason::Timeout, limit, now);
        }
        gs.actions.truncate(ply as usize);
        self.cuts += 1;
        let options = self.options.as_ref().ok_or_else(no_game)?;
        let game = qiyuan_game::replay::<G>(options, &gs.setup, &gs.played()).map_err(|e| {
            TableRefusal::new(K::NotAllowed, format!("the game does not replay: {e}"))
        })?;
        for (i, acted) in gs.acted.iter_mut().enumerate() {
            *acted = gs.actions.iter().any(|a| a.seat.index() == i);
        }
        for o in gs.offered_at.iter_mut() {
            if o.is_some_and(|at| at > ply as usize) {
                *o = None;
            }
        }
        gs.draw = None;
        gs.takeback = None;
        gs.turn_since = now;
        if let Some(clocks) = clocks {
            for (i, main) in clocks.into_iter().enumerate() {
                gs.clock.set_main(i, main);
            }
        }
        let paused = gs.paused_at.is_some();
        let turn = game.turn();
        self.game = Some(game);
        self.run_clock(&turn, now);
        if paused && let Some(gs) = self.state.game.as_mut() {
            gs.clock.pause(now);
        }
        Ok(vec![Event::Restored {
            ply,
            clock: self.clock_view(now).unwrap_or_else(|| empty_clock(now)),
        }])
    }

    /// Adds or removes main time for `seat`. Time taken away from the seat to
    /// move may flag it at once (the timers fire after the command).
    pub(super) fn adjust_clock(&mut self, seat: Seat, delta: i64, now: Millis) -> R {
        self.arbiter_seat(seat)?;
        let gs = self.state.game.as_mut().ok_or_else(no_game)?;
        if gs.settings.time.is_unlimited() {
            return refuse(K::NotAllowed, "this game has no clock");
        }
        gs.clock.adjust(seat.index(), delta);
        Ok(vec![Event::ClockAdjusted {
            seat,
            delta,
            clock: self.clock_view(now).unwrap_or_else(|| empty_clock(now)),
        }])
    }

    /// Stops the clocks (the move under way keeps the time it used).
    pub(super) fn pause(&mut self, now: Millis) -> R {
        if !self.is_playing() {
            return refuse(K::NoGame, "no game is being played");
        }
        let gs = self.state.game.as_mut().ok_or_else(no_game)?;
        if gs.paused_at.is_some() {
            return refuse(K::NotAllowed, "the game is already paused");
        }
        gs.paused_at = Some(now);
        gs.clock.pause(now);
        Ok(vec![Event::Paused {
            paused: true,
            clock: self.clock_view(now).unwrap_or_else(|| empty_clock(now)),
        }])
    }

    /// Starts the clocks again. The pause is charged to no timer: the
    /// first-move timer and an absent player's grace count on from where
    /// they stood.
    pub(super) fn unpause(&mut self, now: Millis) -> R {
        if !self.is_playing() {
            return refuse(K::NoGame, "no game is being played");
        }
        let gs = self.state.game.as_mut().ok_or_else(no_game)?;
        let Some(since) = gs.paused_at.take() else {
            return refuse(K::NotAllowed, "the game is not paused");
        };
        let stopped = now.saturating_sub(since);
        gs.turn_since = gs.turn_since.saturating_add(stopped).min(now);
        gs.clock.resume(now);
        for s in self.state.seats.iter_mut() {
            if let Some(a) = s.absent_since.as_mut() {
                *a = (*a).saturating_add(stopped).min(now);
            }
        }
        Ok(vec![Event::Paused {
            paused: false,
            clock: self.clock_view(now).unwrap_or_else(|| empty_clock(now)),
        }])
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
