//! The game as it leaves the table: the clock at a moment, the record in the
//! game's standard format, and the fingerprint tables are compared by.

use qiyuan_clock::{ClockView, Millis, TimeControl};
use qiyuan_game::{Game, RecordMeta, RecordTime, Seat, Viewer};

use super::Table;

impl<G: Game> Table<G> {
    /// The clock as seen at `now`, if a game has been started.
    pub fn clock_view(&self, now: Millis) -> Option<ClockView> {
        self.state.game.as_ref().map(|g| g.clock.view(now))
    }

    /// The current game's record in its standard format, with the players, the time
    /// control, the clock after each action and the table's result.
    pub fn record(&self, mut meta: RecordMeta) -> Option<String> {
        let gs = self.state.game.as_ref()?;
        let game = self.game.as_ref()?;
        if meta.players.is_empty() {
            meta.players = gs.players.clone();
        }
        meta.time_control = Some(record_time(&gs.settings.time));
        meta.clocks = gs.actions.iter().map(|a| a.clock).collect();
        meta.periods = gs.actions.iter().map(|a| a.periods).collect();
        meta.outcome = gs.outcome.clone();
        Some(game.record(&meta))
    }

    /// What the game looks like to every viewer, as JSON: how tables compare their
    /// games.
    pub(super) fn game_fingerprint(&self) -> Vec<String> {
        let Some(game) = &self.game else {
            return Vec::new();
        };
        let mut out: Vec<String> = (0..self.seats_n)
            .map(|i| view_json::<G>(game, Viewer::Seat(Seat(i))))
            .collect();
        out.push(view_json::<G>(game, Viewer::Spectator));
        out.push(format!("{:?}", game.turn()));
        out.push(format!("{:?}", game.outcome()));
        out
    }
}

fn view_json<G: Game>(game: &G, viewer: Viewer) -> String {
    serde_json::to_string(&game.view(viewer)).unwrap_or_else(|e| e.to_string())
}

/// The time control as records describe it, in whole seconds.
fn record_time(time: &TimeControl) -> RecordTime {
    let s = |ms: Millis| ms / 1000;
    match *time {
        TimeControl::None => RecordTime::Untimed,
        TimeControl::Fischer { base, increment } => RecordTime::Fischer {
            main: s(base),
            increment: s(increment),
        },
        TimeControl::Correspondence { days } => RecordTime::PerMove {
            limit: u64::from(days) * 86_400,
        },
        TimeControl::Qq {
            game,
            per_move,
            countdown,
        } => RecordTime::Qq {
            game: s(game),
            per_move: s(per_move),
            countdown: s(countdown),
        },
        TimeControl::ByoYomi {
            main,
            periods,
            period,
        } => RecordTime::ByoYomi {
            main: s(main),
            periods,
            period: s(period),
        },
        TimeControl::Canadian {
            main,
            moves,
            period,
        } => RecordTime::Canadian {
            main: s(main),
            moves,
            period: s(period),
        },
    }
}
