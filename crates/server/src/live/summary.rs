//! The table as the lobby lists it: who sits, whether they are there, the time
//! control and whether the game counts.

use qiyuan_table::Status;

use super::actor::Live;
use crate::lobby::TableSummary;

impl Live {
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
