//! Offers between the players: draw offers (by the game's own rule of when one
//! may offer) and takebacks (悔棋), each answered by every other seat.

use qiyuan_clock::Millis;
use qiyuan_game::{DrawOffers, EndReason, Game, Seat, Turn};

use super::{K, R, Table, empty_clock, no_game, refuse};
use crate::state::{DrawOffer, TakebackRequest};
use crate::types::{Event, TableRefusal};

impl<G: Game> Table<G> {
    pub(super) fn offer_draw(&mut self, user: &str) -> R {
        let seat = self.playing_seat(user)?;
        let game = self.game.as_ref().ok_or_else(no_game)?;
        let rule = game.draw_offers();
        let turn = game.turn();
        let gs = self.state.game.as_mut().ok_or_else(no_game)?;
        if gs.draw.is_some() {
            return refuse(K::NotAllowed, "a draw offer is standing");
        }
        let last_mover = gs.actions.last().map(|a| a.seat);
        let ply = gs.actions.len();
        match rule {
            DrawOffers::None => return refuse(K::NotAllowed, "no draws by agreement here"),
            DrawOffers::AfterOwnMove | DrawOffers::AlternatingAfterOwnMove => {
                if last_mover != Some(seat) {
                    return refuse(
                        K::NotAllowed,
                        "a draw is offered right after one's own move",
                    );
                }
            }
            DrawOffers::OnOwnTurn => {
                let mine = match &turn {
                    Turn::Seat(s) => *s == seat,
                    Turn::All(list) => list.contains(&seat),
                    Turn::Over => false,
                };
                if !mine {
                    return refuse(K::NotAllowed, "a draw is offered on one's own turn");
                }
            }
        }
        if rule == DrawOffers::AlternatingAfterOwnMove && gs.last_offer_by == Some(seat) {
            return refuse(
                K::TooSoon,
                "draw offers alternate: no second offer in a row",
            );
        }
        if gs.offered_at[seat.index()] == Some(ply) {
            return refuse(K::TooSoon, "one draw offer per move");
        }
        gs.offered_at[seat.index()] = Some(ply);
        gs.last_offer_by = Some(seat);
        gs.draw = Some(DrawOffer {
            by: seat,
            accepted: Vec::new(),
        });
        Ok(vec![Event::DrawOffered { seat }])
    }

    pub(super) fn accept_draw(&mut self, user: &str, now: Millis) -> R {
        let seat = self.playing_seat(user)?;
        let n = self.seats_n as usize;
        let gs = self.state.game.as_mut().ok_or_else(no_game)?;
        let Some(offer) = gs.draw.as_mut().filter(|o| o.by != seat) else {
            return refuse(K::NothingToAnswer, "no draw offer to accept");
        };
        if !offer.accepted.contains(&seat) {
            offer.accepted.push(seat);
        }
        if offer.accepted.len() + 1 < n {
            return Ok(Vec::new());
        }
        let game = self.game.as_ref().ok_or_else(no_game)?;
        let outcome = game.agreed_draw();
        let rated = gs.rated;
        self.end(outcome, rated, now)
    }

    pub(super) fn decline_draw(&mut self, user: &str) -> R {
        let seat = self.playing_seat(user)?;
        let gs = self.state.game.as_mut().ok_or_else(no_game)?;
        if gs.draw.as_ref().is_none_or(|o| o.by == seat) {
            return refuse(K::NothingToAnswer, "no draw offer to decline");
        }
        gs.draw = None;
        Ok(vec![Event::DrawDeclined { seat }])
    }

    pub(super) fn request_takeback(&mut self, user: &str) -> R {
        let seat = self.playing_seat(user)?;
        let gs = self.state.game.as_mut().ok_or_else(no_game)?;
        if !gs.settings.takebacks {
            return refuse(K::NotAllowed, "takebacks are off in this game");
        }
        if gs.takeback.is_some() {
            return refuse(K::NotAllowed, "a takeback request is pending");
        }
        if gs.takeback_blocked[seat.index()] {
            return refuse(K::TooSoon, "your last request was declined: move first");
        }
        let Some(last) = gs.actions.iter().rposition(|a| a.seat == seat) else {
            return refuse(K::NotAllowed, "you have nothing to take back");
        };
        let plies = (gs.actions.len() - last) as u32;
        gs.takeback = Some(TakebackRequest {
            by: seat,
            plies,
            accepted: Vec::new(),
        });
        Ok(vec![Event::TakebackRequested { seat }])
    }

    pub(super) fn accept_takeback(&mut self, user: &str, now: Millis) -> R {
        let seat = self.playing_seat(user)?;
        let n = self.seats_n as usize;
        let gs = self.state.game.as_mut().ok_or_else(no_game)?;
        let Some(req) = gs.takeback.as_mut().filter(|r| r.by != seat) else {
            return refuse(K::NothingToAnswer, "no takeback request to accept");
        };
        if !req.accepted.contains(&seat) {
            req.accepted.push(seat);
        }
        if req.accepted.len() + 1 < n {
            return Ok(Vec::new());
        }
        let plies = req.plies;
        gs.takeback = None;
        // The time used so far in this turn is charged, without increment; a seat
        // already out of time loses by the flag instead.
        let limit = gs.clock.running_seat().and_then(|s| gs.clock.limit_kind(s));
        if let Err(flag) = gs.clock.stop(now) {
            return self.end_by_table(Seat(flag.seat as u8), EndReason::Timeout, limit, now);
        }
        let keep = gs.actions.len() - plies as usize;
        gs.actions.truncate(keep);
        self.cuts += 1;
        let options = self.options.as_ref().ok_or_else(no_game)?;
        let game = qiyuan_game::replay::<G>(options, &gs.setup, &gs.played()).map_err(|e| {
            TableRefusal::new(K::NotAllowed, format!("the game does not replay: {e}"))
        })?;
        for (i, acted) in gs.acted.iter_mut().enumerate() {
            *acted = gs.actions.iter().any(|a| a.seat.index() == i);
        }
        gs.draw = None;
        gs.turn_since = now;
        let turn = game.turn();
        self.game = Some(game);
        self.run_clock(&turn, now);
        Ok(vec![Event::TookBack {
            plies,
            clock: self.clock_view(now).unwrap_or_else(|| empty_clock(now)),
        }])
    }

    pub(super) fn decline_takeback(&mut self, user: &str) -> R {
        let seat = self.playing_seat(user)?;
        let gs = self.state.game.as_mut().ok_or_else(no_game)?;
        let Some(req) = gs.takeback.take().filter(|r| r.by != seat) else {
            return refuse(K::NothingToAnswer, "no takeback request to decline");
        };
        gs.takeback_blocked[req.by.index()] = true;
        Ok(vec![Event::TakebackDeclined { seat }])
    }
}
