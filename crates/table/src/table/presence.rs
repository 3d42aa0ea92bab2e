//! Presence: disconnection, reconnection and leaving, how long an absent
//! player may stay away (the grace), and the downtime of a restarted server
//! or a stalled table given back to the clocks.

use qiyuan_clock::{DAY, Millis, Speed, TimeControl};
use qiyuan_game::{EndReason, Game, Seat};

use super::{K, R, Table, refuse};
use crate::types::Event;

/// How long a disconnected player may stay away by default: 30 s for bullet, 60 s
/// for blitz, 2 min for rapid, 5 min for classical or no clock. Correspondence
/// players come and go: during a correspondence game absence is not timed at all
/// (unless the table sets a grace), only the time per move; between games their
/// seat is kept for a day.
pub fn default_grace(time: &TimeControl) -> Millis {
    match (time, time.speed()) {
        (TimeControl::Correspondence { .. }, _) => DAY,
        (_, Speed::UltraBullet | Speed::Bullet) => 30_000,
        (_, Speed::Blitz) => 60_000,
        (_, Speed::Rapid) => 120_000,
        (_, Speed::Classical | Speed::Correspondence) => 300_000,
    }
}

impl<G: Game> Table<G> {
    pub(super) fn disconnect(&mut self, user: &str, now: Millis) -> R {
        if self.state.spectators.remove(user) {
            return Ok(vec![Event::Unwatched { user: user.into() }]);
        }
        let seat = self.seated(user)?;
        if self.state.seats[seat.index()].absent_since.is_some() {
            return refuse(K::NotAllowed, "already disconnected");
        }
        self.state.seats[seat.index()].absent_since = Some(now);
        let deadline = self
            .absence_limit()
            .filter(|_| self.is_playing())
            .map(|g| now.saturating_add(g));
        Ok(vec![Event::Disconnected { seat, deadline }])
    }

    pub(super) fn reconnect(&mut self, user: &str, now: Millis) -> R {
        let seat = self.seated(user)?;
        if self.state.seats[seat.index()].absent_since.take().is_none() {
            return refuse(K::NotAllowed, "not disconnected");
        }
        // A late arrival at a tournament table (seed 002, 迟到): the player's
        // time ran from the game's start while they were away, whoever was to
        // move, and their per-move limit (步时) starts when they come.
        let playing = self.is_playing();
        if self.config.tournament
            && let Some(gs) = self.state.game.as_mut().filter(|_| playing)
            && !gs.acted[seat.index()]
        {
            let late = now.saturating_sub(gs.started_at);
            gs.clock.arrive(seat.index(), late, now);
        }
        Ok(vec![Event::Reconnected { seat }])
    }

    /// 托管 on or off for `user`'s seat: during a game, at a table where the
    /// server may play for a player; turning on what is on (or off what is
    /// off) is refused.
    pub(super) fn trusteeship(&mut self, user: &str, on: bool) -> R {
        let seat = self.seated(user)?;
        if !self.config.trusteeship {
            return refuse(K::NotAllowed, "the computer does not play for players here");
        }
        if !self.is_playing() {
            return refuse(K::NoGame, "托管 is for a game being played");
        }
        let s = &mut self.state.seats[seat.index()];
        if s.trustee == on {
            return refuse(
                K::NotAllowed,
                if on {
                    "the computer already plays for you (托管)"
                } else {
                    "the computer does not play for you"
                },
            );
        }
        s.trustee = on;
        Ok(vec![Event::Trusteeship { seat, on }])
    }

    pub(super) fn leave(&mut self, user: &str, now: Millis) -> R {
        if self.state.spectators.remove(user) {
            return Ok(vec![Event::Unwatched { user: user.into() }]);
        }
        let seat = self.seated(user)?;
        let mut events = Vec::new();
        if self.is_playing() {
            events.extend(self.end_by_table(seat, EndReason::Escape, None, now)?);
        }
        events.extend(self.vacate(seat));
        Ok(events)
    }

    /// How long an absent seat may stay away before it loses the game (during a
    /// game) or its seat (between games); `None` when absence is not timed
    /// during a game: a correspondence game, unless the table sets a grace, and
    /// a table where the server plays for an away player (托管).
    pub(crate) fn absence_limit(&self) -> Option<Millis> {
        let correspondence = self
            .state
            .game
            .as_ref()
            .is_some_and(|g| matches!(g.settings.time, TimeControl::Correspondence { .. }));
        let played_for = self.config.trusteeship;
        if self.is_playing() && (played_for || correspondence && self.config.grace.is_none()) {
            None
        } else {
            Some(self.grace())
        }
    }

    pub(super) fn grace(&self) -> Millis {
        let time = self
            .state
            .game
            .as_ref()
            .map_or(self.state.proposal.settings.time, |g| g.settings.time);
        self.config.grace.unwrap_or_else(|| default_grace(&time))
    }

    pub(super) fn restart(&mut self, down_since: Millis, now: Millis) -> Vec<Event> {
        let playing = self.is_playing();
        let mut events = Vec::new();
        if let Some(gs) = self.state.game.as_mut().filter(|_| playing) {
            gs.clock.credit_downtime(down_since, now);
            let down = now.saturating_sub(down_since.max(gs.turn_since));
            gs.turn_since += down;
        }
        let deadline = self
            .absence_limit()
            .filter(|_| playing)
            .map(|g| now.saturating_add(g));
        for (i, s) in self.state.seats.iter_mut().enumerate() {
            if s.user.is_some() {
                s.absent_since = Some(now);
                events.push(Event::Disconnected {
                    seat: Seat(i as u8),
                    deadline,
                });
            }
        }
        self.state.spectators.clear();
        self.watchers.clear();
        events.insert(
            0,
            Event::Resumed {
                clock: self.clock_view(now),
            },
        );
        events
    }

    /// [`Command::Credit`]: the interval `from..to` (clamped to `now`) is given
    /// back to the running clock and to the turn's timers.
    pub(super) fn credit(&mut self, from: Millis, to: Millis, now: Millis) -> Vec<Event> {
        let to = to.min(now);
        if from >= to || !self.is_playing() {
            return Vec::new();
        }
        let Some(gs) = self.state.game.as_mut() else {
            return Vec::new();
        };
        gs.clock.credit_between(from, to);
        let down = to.saturating_sub(from.max(gs.turn_since));
        gs.turn_since += down;
        vec![Event::Resumed {
            clock: self.clock_view(now),
        }]
    }
}
