//! The table as the lobby lists it ([`TableSummary`]): who sits, whether they
//! are there, the time control and whether the game counts, given to the
//! lobby sink when it changes; and who sits, as the node's registry counts
//! each person's tables.

use qiyuan_table::{Status, TimeControl};
use serde::{Deserialize, Serialize};

use super::Occupant;
use super::actor::Live;

/// A table as the lobby lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct TableSummary {
    pub id: String,
    pub game: String,
    pub status: Status,
    pub seats: Vec<SeatSummary>,
    pub time: TimeControl,
    pub rated: bool,
    pub spectators: usize,
    /// The path of the table's invitation link.
    pub invite: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct SeatSummary {
    pub user: Option<String>,
    pub connected: bool,
    pub ready: bool,
}

impl TableSummary {
    /// A game against the computer: every seat taken, and at most one person
    /// among them (the others computer players).
    pub fn against_computer(&self) -> bool {
        self.seats.iter().all(|s| s.user.is_some())
            && self
                .seats
                .iter()
                .filter(|s| {
                    s.user
                        .as_deref()
                        .is_some_and(|u| !Occupant::of(u).is_computer())
                })
                .count()
                <= 1
    }
}

impl Live {
    /// Gives the lobby the table's summary if it changed since the last one
    /// given: the lobby's own comparison takes a lock that every table of the
    /// node shares, and most batches (the moves) change nothing it shows.
    pub(super) fn list(&mut self) {
        self.hold_seats(false);
        // A private table (单机) is listed nowhere, nor one for the invited.
        if !self.kind.listed() || self.invite_only {
            return;
        }
        let summary = self.summary();
        if self.listed.as_ref() != Some(&summary) {
            self.env.lobby.publish(summary.clone());
            self.listed = Some(summary);
        }
    }

    pub(super) fn summary(&self) -> TableSummary {
        let state = self.table.state();
        let playing = state
            .game
            .as_ref()
            .filter(|_| state.status == Status::Playing);
        let settings = playing
            .map(|g| &g.settings)
            .unwrap_or(&state.proposal.settings);
        // What counts: the game's own verdict, or what the proposal would give (a
        // loaded position is never rated).
        let rated = playing.map_or(
            settings.rated && settings.setup == qiyuan_game::Setup::Standard,
            |g| g.rated,
        );
        TableSummary {
            id: self.id.to_string(),
            game: self.table.game_name().to_string(),
            status: state.status,
            seats: state
                .seats
                .iter()
                .map(|s| SeatSummary {
                    user: s.user.clone(),
                    connected: s.absent_since.is_none(),
                    ready: s.ready,
                })
                .collect(),
            time: settings.time,
            rated,
            spectators: self.table.spectator_count(),
            invite: format!("/table/{}", self.id),
        }
    }
}

impl Live {
    /// Tells the node's registry who holds a seat here, for each person's cap
    /// on tables: the people (not computer players or stand-ins) sitting here
    /// while a game is played or awaited — once the game is over, only those
    /// who asked for the next (ready, or a rematch); a finished game's table
    /// one has not left yet holds nothing. Told when it changed since it was
    /// last told, or with `again` whatever it was (a seat held for a command
    /// the table refused is given back).
    pub(super) fn hold_seats(&mut self, again: bool) {
        let state = self.table.state();
        self.sitting.tell(
            state
                .seats
                .iter()
                .filter_map(|s| s.user.as_deref())
                .filter(|u| Occupant::of(u).is_person()),
        );
        let over = state.status == Status::Over;
        let people = state
            .seats
            .iter()
            .filter(|s| !over || s.ready || s.rematch)
            .filter_map(|s| s.user.as_deref())
            .filter(|u| Occupant::of(u).is_person());
        // (Compared in place: most batches are moves, which change nothing here.)
        if !again && people.clone().eq(self.held.iter().map(String::as_str)) {
            return;
        }
        let people: Vec<String> = people.map(str::to_string).collect();
        self.env.tables.set_seats(&self.id, people.clone());
        self.held = people;
    }
}
