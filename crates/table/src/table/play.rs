//! Play: a seat's action handed to the game with the mover's clock pressed,
//! and the clock started for the seat to act next.

use qiyuan_clock::{Millis, TimeControl};
use qiyuan_game::{EndReason, Game, Seat, Turn};

use super::{K, R, Table, empty_clock, game_refusal, no_game, refuse};
use crate::state::ActionRecord;
use crate::types::{Event, TableRefusal};

impl<G: Game> Table<G> {
    /// A move. Refused, it changes nothing: it puts the clock back itself (the
    /// caller keeps no copy of the table for a move), the game's own refusal
    /// changes nothing ([`Game::act`]), and the game's verdict is checked before
    /// anything else changes.
    pub(super) fn act(&mut self, user: &str, action: &str, lag: Millis, now: Millis) -> R {
        let seat = self.playing_seat(user)?;
        let game = self.game.as_ref().ok_or_else(no_game)?;
        match game.turn() {
            Turn::Seat(s) if s == seat => {}
            Turn::All(list) if list.contains(&seat) => {}
            Turn::Over => return refuse(K::NoGame, "the game is over"),
            _ => return refuse(K::NotYourTurn, "it is not your turn"),
        }
        let gs = self.state.game.as_mut().ok_or_else(no_game)?;
        // Charge the mover's clock first: a move made after the flag fell loses.
        let mover_clock = gs.clock.running().map(|r| r.seat) == Some(seat.index());
        let limit = gs.clock.limit_kind(seat.index());
        let clock_before = mover_clock.then(|| gs.clock.clone());
        if mover_clock && let Err(flag) = gs.clock.press(now, lag) {
            let seat = Seat(flag.seat as u8);
            let ended = self.end_by_table(seat, EndReason::Timeout, limit, now);
            // (Refused only for a verdict the table cannot take, before it
            // changed anything but the clock.)
            if ended.is_err()
                && let (Some(clock), Some(gs)) = (clock_before, self.state.game.as_mut())
            {
                gs.clock = clock;
            }
            return ended;
        }
        let game = self.game.as_mut().ok_or_else(no_game)?;
        let played = game
            .act(seat, action)
            .map_err(game_refusal)
            .and_then(|effects| {
                let outcome = game.outcome();
                match &outcome {
                    Some(o) => o
                        .check(self.seats_n)
                        .map_err(|e| TableRefusal::new(K::BadOutcome, format!("{}: {e}", G::NAME))),
                    None => Ok(()),
                }
                .map(|()| (effects, game.turn(), outcome))
            });
        let (effects, turn, outcome) = match played {
            Ok(played) => played,
            Err(refusal) => {
                if let Some(gs) = self.state.game.as_mut() {
                    if let Some(clock) = clock_before {
                        gs.clock = clock;
                    }
                    // A verdict the table cannot take is the game's bug, found
                    // after its move: the game as it was is played again.
                    if refusal.kind == K::BadOutcome
                        && let Some(options) = self.options.as_ref()
                        && let Ok(game) = qiyuan_game::replay::<G>(options, &gs.setup, &gs.played())
                    {
                        self.game = Some(game);
                    }
                }
                return Err(refusal);
            }
        };
        self.acted(seat, effects, turn, outcome, now)
    }

    /// The action the rules take for `seat`, whose time for the turn ran out
    /// ([`Game::time_out_action`]): the turn's time is used up without a
    /// flag, and the action is played as the seat's. A refusal (a game that
    /// named an action it does not take) changes nothing.
    pub(super) fn act_by_rule(&mut self, seat: Seat, action: &str, now: Millis) -> R {
        let game = self.game.as_ref().ok_or_else(no_game)?;
        let mut after = game.clone();
        let effects = after.act(seat, action).map_err(game_refusal)?;
        let outcome = after.outcome();
        if let Some(o) = &outcome {
            o.check(self.seats_n)
                .map_err(|e| TableRefusal::new(K::BadOutcome, format!("{}: {e}", G::NAME)))?;
        }
        let turn = after.turn();
        self.game = Some(after);
        if let Some(gs) = self.state.game.as_mut() {
            gs.clock.expire(now);
        }
        self.acted(seat, effects, turn, outcome, now)
    }

    /// The bookkeeping of an accepted action: the move list, who has acted,
    /// offers it cancels, the next seat's clock, and the game's end.
    fn acted(
        &mut self,
        seat: Seat,
        effects: qiyuan_game::Effects,
        turn: Turn,
        outcome: Option<qiyuan_game::Outcome>,
        now: Millis,
    ) -> R {
        let gs = self.state.game.as_mut().ok_or_else(no_game)?;
        let clock_after = match gs.settings.time {
            TimeControl::None => None,
            _ => Some(gs.clock.remaining(seat.index(), now)),
        };
        let periods = match gs.settings.time {
            TimeControl::ByoYomi { .. } | TimeControl::Canadian { .. } => gs
                .clock
                .view(now)
                .seats
                .get(seat.index())
                .filter(|v| v.overtime)
                .map(|v| match gs.settings.time {
                    TimeControl::ByoYomi { .. } => v.periods,
                    _ => v.moves_left,
                }),
            _ => None,
        };
        gs.actions.push(ActionRecord {
            seat,
            action: effects.canonical.clone(),
            display: effects.display.clone(),
            at: now,
            clock: clock_after,
            periods,
        });
        gs.acted[seat.index()] = true;
        gs.takeback_blocked[seat.index()] = false;
        let mut events = Vec::new();
        if let Some(offer) = &gs.draw
            && offer.by != seat
        {
            gs.draw = None;
            events.push(Event::DrawDeclined { seat });
        }
        // Any action cancels a pending takeback request.
        if gs.takeback.take().is_some() {
            events.push(Event::TakebackDeclined { seat });
        }
        gs.turn_since = now;
        self.run_clock(&turn, now);
        events.insert(
            0,
            Event::Acted {
                seat,
                ply: self.ply() as u32,
                action: effects.canonical,
                display: effects.display,
                capture: effects.capture,
                check: effects.check,
                clock: self.clock_view(now).unwrap_or_else(|| empty_clock(now)),
            },
        );
        if let Some(outcome) = outcome {
            let rated = self.state.game.as_ref().is_some_and(|g| g.rated);
            events.extend(self.end(outcome, rated, now)?);
        }
        Ok(events)
    }

    /// Starts the clock of the seat to act, once every seat has made its first
    /// action (before that the first-move timer applies and no clock runs), or at
    /// once for a clock whose per-move limit (步时) governs the first moves too,
    /// at a tournament table, and in a game timed from its first action. No
    /// clock runs while several seats may act (Go's marking).
    pub(super) fn run_clock(&mut self, turn: &Turn, now: Millis) {
        let Some(gs) = self.state.game.as_mut() else {
            return;
        };
        gs.clock.halt();
        // At a tournament table the clock runs from the round's start: an absent
        // player's time is used up while they are away (seed 002, 迟到).
        let limits_first_moves = gs.settings.time.per_move_limit().is_some()
            || self.config.tournament
            || G::TIMED_FROM_FIRST_ACTION;
        if let Turn::Seat(s) = turn
            && (limits_first_moves || gs.acted.iter().all(|a| *a))
        {
            gs.clock.start(s.index(), now);
        }
    }

    fn ply(&self) -> usize {
        self.state.game.as_ref().map_or(0, |g| g.actions.len())
    }
}
