//! Seats and spectators: sitting down, standing up, swapping seats and
//! watching; who sits where, and the checks a seated player's command starts with.

use qiyuan_game::{Game, Seat};

use super::{K, R, Table, refuse};
use crate::state::SeatState;
use crate::types::{Event, TableRefusal, UserId};

impl<G: Game> Table<G> {
    /// Who watches the table now (live only; seated players are not listed).
    pub fn spectators(&self) -> impl Iterator<Item = &UserId> {
        self.state.spectators.union(&self.watchers)
    }

    /// `user` starts watching. Watching is live only: it is not logged and does
    /// not change the version, so spectators never write to anyone's game. The
    /// event is for the live broadcast.
    pub fn watch(&mut self, user: &str) -> R {
        if self.seat_of(user).is_some() {
            return refuse(K::AlreadySeated, "you sit at this table");
        }
        if self.state.spectators.contains(user) || !self.watchers.insert(user.to_string()) {
            return refuse(K::NotAllowed, "you are already watching");
        }
        Ok(vec![Event::Watching { user: user.into() }])
    }

    /// `user` stops watching (live only, as [`Table::watch`]).
    pub fn unwatch(&mut self, user: &str) -> R {
        if !self.watchers.remove(user) {
            return refuse(K::NotAtTable, "you are not watching");
        }
        Ok(vec![Event::Unwatched { user: user.into() }])
    }

    /// The seat `user` sits at.
    pub fn seat_of(&self, user: &str) -> Option<Seat> {
        self.state
            .seats
            .iter()
            .position(|s| s.user.as_deref() == Some(user))
            .map(|i| Seat(i as u8))
    }

    pub(super) fn sit(&mut self, user: UserId, seat: Seat) -> R {
        if seat.0 >= self.seats_n {
            return refuse(K::NoSuchSeat, format!("there is no {seat}"));
        }
        if self.seat_of(&user).is_some() {
            return refuse(K::AlreadySeated, "you already sit at this table");
        }
        if self.is_playing() {
            return refuse(K::GameInProgress, "a game is being played");
        }
        let s = &mut self.state.seats[seat.index()];
        if s.user.is_some() {
            return refuse(K::SeatTaken, format!("{seat} is taken"));
        }
        *s = SeatState {
            user: Some(user.clone()),
            ..SeatState::default()
        };
        self.state.spectators.remove(&user);
        self.watchers.remove(&user);
        self.clear_rematch();
        Ok(vec![Event::Sat { seat, user }])
    }

    pub(super) fn stand(&mut self, user: &str) -> R {
        let seat = self.seated(user)?;
        if self.is_playing() {
            return refuse(K::GameInProgress, "resign or leave the game first");
        }
        Ok(self.vacate(seat))
    }

    pub(super) fn vacate(&mut self, seat: Seat) -> Vec<Event> {
        let s = std::mem::take(&mut self.state.seats[seat.index()]);
        for other in &mut self.state.seats {
            if other.swap_with == Some(seat) {
                other.swap_with = None;
            }
        }
        self.clear_rematch();
        match s.user {
            Some(user) => vec![Event::Stood { seat, user }],
            None => Vec::new(),
        }
    }

    /// A logged `Watch`: only in logs written before watching became live only
    /// (see [`Table::watch`]); replayed as it was then.
    pub(super) fn logged_watch(&mut self, user: UserId) -> R {
        if self.seat_of(&user).is_some() {
            return refuse(K::AlreadySeated, "you sit at this table");
        }
        if !self.state.spectators.insert(user.clone()) {
            return refuse(K::NotAllowed, "you are already watching");
        }
        Ok(vec![Event::Watching { user }])
    }

    /// A logged `Unwatch`, as [`Table::logged_watch`].
    pub(super) fn logged_unwatch(&mut self, user: &str) -> R {
        if !self.state.spectators.remove(user) {
            return refuse(K::NotAtTable, "you are not watching");
        }
        Ok(vec![Event::Unwatched { user: user.into() }])
    }

    pub(super) fn swap(&mut self, user: &str, with: Seat) -> R {
        let seat = self.seated(user)?;
        if self.is_playing() {
            return refuse(K::GameInProgress, "seats are swapped before the game");
        }
        if with.0 >= self.seats_n || with == seat {
            return refuse(K::NoSuchSeat, format!("cannot swap with {with}"));
        }
        let other = &self.state.seats[with.index()];
        if other.user.is_some() && other.swap_with != Some(seat) {
            self.state.seats[seat.index()].swap_with = Some(with);
            return Ok(vec![Event::SwapRequested { seat, with }]);
        }
        self.state.seats.swap(seat.index(), with.index());
        // Each player keeps their agreement to the settings (a swap changes sides,
        // not the clock), and a proposal stays its proposer's: nobody is asked
        // again. Both press 开始 again on their new side.
        let by = &mut self.state.proposal.by;
        if *by == seat {
            *by = with;
        } else if *by == with {
            *by = seat;
        }
        for s in &mut self.state.seats {
            s.swap_with = None;
            s.ready = false;
        }
        self.clear_rematch();
        Ok(vec![Event::Swapped { a: seat, b: with }])
    }

    pub(super) fn seated(&self, user: &str) -> R<Seat> {
        self.seat_of(user)
            .ok_or_else(|| TableRefusal::new(K::NotSeated, "you do not sit at this table"))
    }

    pub(super) fn playing_seat(&self, user: &str) -> R<Seat> {
        let seat = self.seated(user)?;
        if !self.is_playing() {
            return refuse(K::NoGame, "no game is being played");
        }
        Ok(seat)
    }

    pub(super) fn clear_rematch(&mut self) {
        for s in &mut self.state.seats {
            s.rematch = false;
        }
    }
}
