//! How a game ends: a claim, a resignation, an abort, a loss decided at the
//! table (time, escape) under the abort rule, and the end itself, where every
//! outcome is checked against the table.

use qiyuan_clock::Millis;
use qiyuan_game::{Claim, EndReason, Game, Outcome, Seat, SeatResult};

use super::{K, R, Table, empty_clock, game_refusal, no_game, refuse};
use crate::state::Status;
use crate::types::{EndDetail, Event, TableRefusal};

/// What an incorrect claim at a tournament table gives the opponent (FIDE
/// 9.5.3: two minutes).
pub const INCORRECT_CLAIM_BONUS: Millis = 120_000;

impl<G: Game> Table<G> {
    /// A draw claimed as the rules allow (threefold, fifty moves).
    pub(super) fn claim(&mut self, user: &str, claim: Claim, now: Millis) -> R {
        let seat = self.playing_seat(user)?;
        let game = self.game.as_mut().ok_or_else(no_game)?;
        let outcome = match game.claim(seat, claim) {
            Ok(outcome) => outcome,
            // At a tournament table an incorrect claim costs (FIDE 9.5.3):
            // the opponent gets two more minutes and the game goes on.
            Err(r)
                if self.config.tournament
                    && G::HAS_CLAIMS
                    && r.kind == qiyuan_game::RefusalKind::ClaimRefused =>
            {
                return self.incorrect_claim(seat, r.message, now);
            }
            Err(r) => return Err(game_refusal(r)),
        };
        // A claimed draw counts exactly when the game does: not in a
        // casual game, nor from a loaded position.
        let rated = self.state.game.as_ref().is_some_and(|g| g.rated);
        self.end(outcome, rated, now)
    }

    /// `seat`'s claim was incorrect: its opponent (the next seat; events are
    /// two-player games) gets [`INCORRECT_CLAIM_BONUS`] more main time.
    fn incorrect_claim(&mut self, seat: Seat, reason: String, now: Millis) -> R {
        let opponent = seat.next(self.seats_n);
        let gs = self.state.game.as_mut().ok_or_else(no_game)?;
        let added = if gs.settings.time.is_unlimited() {
            0
        } else {
            INCORRECT_CLAIM_BONUS
        };
        gs.clock.adjust(opponent.index(), added as i64);
        Ok(vec![Event::ClaimIncorrect {
            seat,
            opponent,
            added,
            reason,
            clock: self.clock_view(now).unwrap_or_else(|| empty_clock(now)),
        }])
    }

    /// A resignation: the game is lost (or aborted before every seat has acted).
    pub(super) fn resign(&mut self, user: &str, now: Millis) -> R {
        let seat = self.playing_seat(user)?;
        self.end_by_table(seat, EndReason::Resignation, None, now)
    }

    /// A player's abort, allowed until every seat has acted, never at a
    /// tournament table.
    pub(super) fn abort(&mut self, user: &str, now: Millis) -> R {
        self.playing_seat(user)?;
        if self.config.tournament {
            return refuse(K::NotAllowed, "a tournament game cannot be aborted");
        }
        if !self.abortable() {
            return refuse(K::NotAllowed, "every seat has moved: resign instead");
        }
        let events = self.abort_game(now);
        self.set_end_detail(EndDetail::Abort);
        Ok(events)
    }

    /// Ends the game without result (an abort always fits the table).
    pub(super) fn abort_game(&mut self, now: Millis) -> Vec<Event> {
        let outcome = Outcome::aborted(self.seats_n);
        self.end(outcome, false, now).unwrap_or_default()
    }

    /// Whether the game may still end without counting: some seat has not acted.
    pub(super) fn abortable(&self) -> bool {
        self.state
            .game
            .as_ref()
            .is_some_and(|g| g.acted.iter().any(|a| !a))
    }

    pub(super) fn conceded(&self, seat: Seat, reason: EndReason) -> Outcome {
        match &self.game {
            Some(g) => g.conceded(seat, reason),
            None => Outcome::aborted(self.seats_n),
        }
    }

    /// Records how the game that just ended ended (if it has, and nothing said
    /// so already).
    pub(super) fn set_end_detail(&mut self, detail: EndDetail) {
        if let Some(gs) = self.state.game.as_mut()
            && gs.outcome.is_some()
            && gs.end_detail.is_none()
        {
            gs.end_detail = Some(detail);
        }
    }

    /// `seat` loses for a reason decided at the table (`limit`: the time limit
    /// that ran out, for a timeout); before every seat has acted the game is
    /// aborted instead.
    pub(super) fn end_by_table(
        &mut self,
        seat: Seat,
        reason: EndReason,
        limit: Option<qiyuan_clock::TimeLimit>,
        now: Millis,
    ) -> R {
        let events = self.end_by_table_inner(seat, reason, now)?;
        let counted = self
            .state
            .game
            .as_ref()
            .and_then(|g| g.outcome.as_ref())
            .is_some_and(|o| o.reason != EndReason::Aborted);
        match limit {
            _ if !counted => self.set_end_detail(EndDetail::NotCounted),
            Some(l) if reason == EndReason::Timeout => self.set_end_detail(l.into()),
            _ => {}
        }
        Ok(events)
    }

    fn end_by_table_inner(&mut self, seat: Seat, reason: EndReason, now: Millis) -> R {
        if self.abortable() {
            // A first move over its per-move limit (步时) is the first-move timer's
            // case: at a tournament table it loses, unrated, like a missed first
            // move; elsewhere the game does not count ("如果只有一方走了一步棋...
            // 那么分数将不会进行计算", seed 002).
            // Leaving (an escape) counts alike: a tournament game is lost, not void;
            // and so does a resignation, whatever the number of moves (a game
            // one side resigned is played and lost; only both absent is void).
            // Not rated: a player who has not moved played no rated game (FIDE).
            if matches!(
                reason,
                EndReason::Timeout | EndReason::Escape | EndReason::Resignation
            ) && self.config.tournament
            {
                let outcome = self.conceded(seat, reason);
                return self.end(outcome, false, now);
            }
            return Ok(self.abort_game(now));
        }
        let outcome = self.conceded(seat, reason);
        let rated = self.state.game.as_ref().is_some_and(|g| g.rated);
        self.end(outcome, rated, now)
    }

    /// Ends the game with `outcome`, which must fit the table (one result per
    /// seat, points for all or none): the boundary where a game's or an
    /// arbiter's outcome is checked. One that does not fit is refused
    /// ([`K::BadOutcome`]) and changes nothing.
    pub(super) fn end(&mut self, mut outcome: Outcome, rated: bool, now: Millis) -> R {
        // Whoever ended it (the rules, a clock, an arbiter), the outcome says
        // which deal of the hand was played.
        if let Some(game) = &self.game {
            outcome.deal = game.deal_number();
        }
        outcome
            .check(self.seats_n)
            .map_err(|e| TableRefusal::new(K::BadOutcome, format!("{}: {e}", G::NAME)))?;
        let rated = rated && !outcome.results.iter().all(|r| *r == SeatResult::Void);
        if let Some(gs) = self.state.game.as_mut() {
            gs.clock.halt();
            gs.draw = None;
            gs.takeback = None;
            gs.outcome = Some(outcome.clone());
            gs.rated = rated;
            gs.ended_at = Some(now);
        }
        self.state.status = Status::Over;
        for s in &mut self.state.seats {
            s.ready = false;
            s.rematch = false;
            // 托管 lasts the game it was given for.
            s.trustee = false;
        }
        Ok(vec![Event::Ended { outcome, rated }])
    }
}
