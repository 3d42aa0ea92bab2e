//! The table as the lobby lists it: who sits, whether they are there, the time
//! control and whether the game counts; and who sits, as the node's registry
//! counts each person's tables.

use qiyuan_table::Status;

use super::actor::Live;
use crate::lobby::TableSummary;

impl Live {
    /// Gives the lobby the table's summary if it changed since the last one
    /// given: the lobby's own comparison takes a lock that every table of the
    /// node shares, and most batches (the moves) change nothing it shows.
    pub(super) fn list(&mut self) {
        self.hold_seats(false);
        let summary = self.summary();
        if self.listed.as_ref() != Some(&summary) {
            self.app.lobby.publish(summary.clone());
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
            id: self.id.clone(),
            game: self.table.game_name().to_string(),
            status: state.status,
            seats: state
                .seats
                .iter()
                .map(|s| crate::lobby::SeatSummary {
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
        let over = state.status == Status::Over;
        let people = state
            .seats
            .iter()
            .filter(|s| !over || s.ready || s.rematch)
            .filter_map(|s| s.user.as_deref())
            .filter(|u| super::tables::is_person(u));
        // (Compared in place: most batches are moves, which change nothing here.)
        if !again && people.clone().eq(self.held.iter().map(String::as_str)) {
            return;
        }
        let people: Vec<String> = people.map(str::to_string).collect();
        self.app.tables.set_seats(&self.id, people.clone());
        self.held = people;
    }
}
