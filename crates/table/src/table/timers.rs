//! Timers: flag falls, the first-move timer and escape after the grace time,
//! each a deadline the table reports and fires when a command or a tick
//! reaches it.

use qiyuan_clock::{DAY, Millis, TimeControl};
use qiyuan_game::{EndReason, Game, Seat, Turn};

use super::Table;
use crate::types::{EndDetail, Event};

impl<G: Game> Table<G> {
    /// The earliest moment a timer falls due (flag, first-move timer,
    /// disconnection grace): the server must send [`Command::Tick`] then (or call
    /// [`Table::tick`]).
    pub fn next_deadline(&self) -> Option<Millis> {
        self.deadlines().into_iter().map(|(t, _)| t).min()
    }

    /// When the seat to make its first move aborts (or, at a tournament table,
    /// loses) the game.
    pub fn first_move_deadline(&self) -> Option<Millis> {
        self.deadlines()
            .into_iter()
            .find(|(_, (_, timer))| *timer == Timer::FirstMove)
            .map(|(t, _)| t)
    }

    /// At a tournament table: until when a player who has not come is
    /// neither flagged nor loses for a first move not made. The first-move
    /// time is the event's late-arrival time, at which the server forfeits
    /// the absent; the table's own timer waits a grace time more, so that
    /// it only ends a game the server did not (it ends it as a first move
    /// not made).
    fn late_limit(&self, started_at: Millis, time: &TimeControl) -> Millis {
        started_at
            .saturating_add(self.first_move_time(time))
            .saturating_add(self.grace())
    }

    fn first_move_time(&self, time: &TimeControl) -> Millis {
        self.config.first_move.unwrap_or(match time {
            TimeControl::Correspondence { days } => u64::from(*days) * DAY,
            _ => 30_000,
        })
    }

    /// Every pending timer: when it falls due and which seat it ends the game
    /// against, with the reason.
    fn deadlines(&self) -> Vec<(Millis, (Seat, Timer))> {
        let mut out = Vec::new();
        let grace = self.grace();
        if !self.is_playing() {
            // Between games an absent player's seat is freed after the grace time,
            // so that a lost connection does not block the table.
            for (i, s) in self.state.seats.iter().enumerate() {
                if let Some(since) = s.absent_since {
                    out.push((since.saturating_add(grace), (Seat(i as u8), Timer::Vacate)));
                }
            }
            return out;
        }
        let Some(gs) = self.state.game.as_ref() else {
            return out;
        };
        // An arbiter stopped the clocks: nothing falls due until they run.
        if gs.paused_at.is_some() {
            return out;
        }
        if let (Some(t), Some(r)) = (gs.clock.flag_time(), gs.clock.running()) {
            // At a tournament table a player who has not come (away and yet
            // to make a first move) is not flagged before the late-arrival
            // time: the late rule (a forfeit) governs absence.
            let away = self.config.tournament
                && !gs.acted[r.seat]
                && self.state.seats[r.seat].absent_since.is_some();
            let t = if away {
                t.max(self.late_limit(gs.started_at, &gs.settings.time))
            } else {
                t
            };
            out.push((t, (Seat(r.seat as u8), Timer::Flag)));
        }
        // A clock with a per-move limit (步时) runs from the first move and limits
        // it, and so does any clock in a game timed from its first action;
        // only other clocks (and no clock) leave the first moves to this timer.
        // At a tournament table the clock runs from the start and governs a
        // player who is there; the timer is only for one who has not come
        // (at the late-arrival limit, whatever the clock).
        let clock_times_first = gs.settings.time.per_move_limit().is_some()
            || (G::TIMED_FROM_FIRST_ACTION && !gs.settings.time.is_unlimited());
        if let Some(Turn::Seat(s)) = self.game.as_ref().map(|g| g.turn())
            && !gs.acted[s.index()]
        {
            if self.config.tournament {
                if self.state.seats[s.index()].absent_since.is_some() {
                    let t = self.late_limit(gs.started_at, &gs.settings.time);
                    out.push((t, (s, Timer::FirstMove)));
                }
            } else if !clock_times_first {
                let t = gs
                    .turn_since
                    .saturating_add(self.first_move_time(&gs.settings.time));
                out.push((t, (s, Timer::FirstMove)));
            }
        }
        // Nobody wins by escape while away too: if every seat is absent, the
        // clocks decide.
        let someone_here = self.state.seats.iter().any(|s| s.absent_since.is_none());
        for (i, s) in self.state.seats.iter().enumerate().filter(|_| someone_here) {
            if let (Some(since), Some(grace)) = (s.absent_since, self.absence_limit()) {
                out.push((since.saturating_add(grace), (Seat(i as u8), Timer::Escape)));
            }
        }
        out
    }

    /// Fires every timer due at `now`, earliest first; one may make another due
    /// (an escape ends the game, and the absent player's seat is then freed).
    pub(super) fn fire(&mut self, now: Millis) -> Vec<Event> {
        let mut events = Vec::new();
        // Each timer that fires removes itself; the bound is only a safeguard.
        for _ in 0..16 {
            let fired = self.fire_one(now);
            if fired.is_empty() {
                break;
            }
            events.extend(fired);
        }
        events
    }

    fn fire_one(&mut self, now: Millis) -> Vec<Event> {
        let due = self
            .deadlines()
            .into_iter()
            .filter(|(t, _)| *t <= now)
            .min_by_key(|(t, (s, _))| (*t, *s));
        let Some((at, (seat, timer))) = due else {
            return Vec::new();
        };
        // Where the rules act for a seat out of time (a missed bid is a pass),
        // they do, and the game goes on.
        if matches!(timer, Timer::Flag | Timer::FirstMove)
            && let Some(action) = self.game.as_ref().and_then(|g| g.time_out_action(seat))
            && let Ok(events) = self.act_by_rule(seat, &action, now)
        {
            return events;
        }
        let ended = match timer {
            Timer::Flag => {
                let mut limit = None;
                if let Some(gs) = self.state.game.as_mut() {
                    limit = gs.clock.limit_kind(seat.index());
                    gs.clock.flag(now);
                }
                self.end_by_table(seat, EndReason::Timeout, limit, at)
            }
            Timer::FirstMove => {
                let ended = if self.config.tournament {
                    let outcome = self.conceded(seat, EndReason::Timeout);
                    self.end(outcome, false, at)
                } else {
                    Ok(self.abort_game(at))
                };
                self.set_end_detail(EndDetail::FirstMove);
                ended
            }
            Timer::Escape => self.end_by_table(seat, EndReason::Escape, None, at),
            Timer::Vacate => return self.vacate(seat),
        };
        // A timer cannot be refused: should the game concede with an outcome
        // that does not fit the table (a bug in the game), the game is aborted
        // rather than left with a timer that can never fire.
        ended.unwrap_or_else(|_| self.abort_game(at))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Timer {
    Flag,
    FirstMove,
    Escape,
    Vacate,
}
