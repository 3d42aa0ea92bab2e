//! The table as the lobby lists it: who sits, whether they are there, the time
//! control and whether the game counts.

use qiyuan_table::Status;

use super::actor::Live;
use crate::lobby::TableSummary;

impl Live {
    /// Gives the lobby the table's summary if it changed since the last one
    /// given: the lobby's own comparison takes a lock that every table of the
    /// node shares, and most batches (the moves) change nothing it shows.
    pub(super) fn list(&mut self) {
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
