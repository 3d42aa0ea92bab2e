//! What one viewer sees of a table.

use qiyuan_clock::{ClockView, Millis};
use qiyuan_game::{Claim, Game, GamePhase, Outcome, Seat, Turn, Viewer};
use serde::Serialize;

use crate::state::{ActionRecord, Status};
use crate::table::Table;
use crate::types::{EndDetail, Proposal, Settings, UserId};

/// A seat as everyone sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SeatView {
    pub user: Option<UserId>,
    pub connected: bool,
    pub accepted: Option<u32>,
    pub ready: bool,
    pub swap_with: Option<Seat>,
    pub rematch: bool,
    /// When a disconnected player loses by escape (during a game) or loses the
    /// seat (between games).
    pub escape_at: Option<Millis>,
    /// The player's network lag (their best socket's round trip, ms) for the
    /// connection indicator. The table measures nothing, so it is `None` here;
    /// the server's fan-out fills it in from its sockets.
    pub lag_ms: Option<Millis>,
    /// 托管: the computer plays this seat for its player until they take it
    /// back ([`crate::Command::Trusteeship`]).
    pub trustee: bool,
}

/// An action in the move list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MoveView {
    pub seat: Seat,
    pub action: String,
    pub display: String,
    /// The mover's main time left after it.
    pub clock: Option<Millis>,
}

impl MoveView {
    /// How the move list shows `action`.
    pub fn of(action: &ActionRecord) -> MoveView {
        MoveView {
            seat: action.seat,
            action: action.action.clone(),
            display: action.display.clone(),
            clock: action.clock,
        }
    }

    /// Whether this is how the move list shows `action` (`Self::of` without
    /// building it).
    pub fn shows(&self, action: &ActionRecord) -> bool {
        self.seat == action.seat
            && self.clock == action.clock
            && self.action == action.action
            && self.display == action.display
    }
}

/// The current (or last) game as a viewer sees it.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct GameView<V> {
    pub number: u32,
    pub settings: Settings,
    pub players: Vec<UserId>,
    /// The moves read in with a record (读入) before the game started: part of
    /// the game, before `moves` in its move list, never taken back.
    pub loaded: Vec<MoveView>,
    pub moves: Vec<MoveView>,
    pub turn: Turn,
    /// The game's own phase, by name ([`GamePhase::name`]: `play`, `marking`, ...).
    pub phase: &'static str,
    pub clock: ClockView,
    /// The game itself, with what this viewer may not see removed.
    pub board: V,
    pub draw_offer: Option<Seat>,
    pub takeback_request: Option<Seat>,
    /// What the viewer may claim now.
    pub claims: Vec<Claim>,
    /// When the seat to make its first move aborts (or loses) the game.
    pub first_move_deadline: Option<Millis>,
    pub outcome: Option<Outcome>,
    /// How the game ended where `outcome.reason` does not say it: the limit that
    /// ran out (`main_time`, `move_time`, `countdown`, `overtime`), or why it was not
    /// counted (`abort`, `first_move`, `not_counted`).
    pub end_detail: Option<EndDetail>,
    pub rated: bool,
    /// An arbiter's warnings, fouls and violations in this game, per seat.
    pub warnings: Vec<u8>,
    pub fouls: Vec<u8>,
    pub violations: Vec<u8>,
    /// An arbiter has stopped the clocks.
    pub paused: bool,
}

/// The parts of a [`TableView`] that [`Table::view_again`] may have changed
/// (`false`: the same as before).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Rewritten {
    /// `you`.
    pub you: bool,
    /// `game.claims`.
    pub claims: bool,
    /// `game.board`.
    pub board: bool,
    /// `preview`.
    pub preview: bool,
}

/// A table as one viewer sees it.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TableView<V> {
    /// The table's version (log length) this view reflects.
    pub version: u64,
    pub game_name: &'static str,
    pub seats: Vec<SeatView>,
    pub spectators: Vec<UserId>,
    pub proposal: Proposal,
    pub status: Status,
    /// The viewer's seat, if seated.
    pub you: Option<Seat>,
    pub game: Option<GameView<V>>,
    /// The position the current proposal loads (读入) as this viewer sees it,
    /// until that game starts: every seat sees the loaded position at once.
    pub preview: Option<V>,
    /// A tournament table (an event's board): one game with fixed settings,
    /// no takebacks, no rematch.
    pub tournament: bool,
    /// The moment the view was taken.
    pub at: Millis,
}

impl<G: Game> Table<G> {
    /// The table as `viewer` sees it at `now`. Hidden information is removed by
    /// the game's own view.
    pub fn view(&self, viewer: Viewer, now: Millis) -> TableView<G::View> {
        self.view_of(viewer, now, true)
    }

    /// [`Self::view`] with `game.moves` left empty: for a caller that keeps
    /// the move list's text itself (from [`Self::actions`]), so
    /// that a change does not copy every move played so far.
    pub fn view_without_moves(&self, viewer: Viewer, now: Millis) -> TableView<G::View> {
        self.view_of(viewer, now, false)
    }

    /// The current (or last) game's actions, each as `game.moves` shows it
    /// through [`MoveView::of`] (empty without a game).
    pub fn actions(&self) -> &[ActionRecord] {
        self.state().game.as_ref().map_or(&[], |gs| &gs.actions[..])
    }

    fn view_of(&self, viewer: Viewer, now: Millis, moves: bool) -> TableView<G::View> {
        let state = self.state();
        let grace = self.absence_limit();
        let seats = state
            .seats
            .iter()
            .map(|s| SeatView {
                user: s.user.clone(),
                connected: s.absent_since.is_none(),
                accepted: s.accepted,
                ready: s.ready,
                swap_with: s.swap_with,
                rematch: s.rematch,
                escape_at: s.absent_since.zip(grace).map(|(t, g)| t.saturating_add(g)),
                lag_ms: None,
                trustee: s.trustee,
            })
            .collect();
        let game = match (self.game(), state.game.as_ref()) {
            (Some(game), Some(gs)) => {
                let claims = match viewer {
                    Viewer::Seat(s) if self.is_playing() => game.claims(s),
                    _ => Vec::new(),
                };
                Some(GameView {
                    number: gs.number,
                    settings: gs.settings.clone(),
                    players: gs.players.clone(),
                    loaded: gs
                        .preloaded
                        .iter()
                        .enumerate()
                        .map(|(i, (seat, action))| MoveView {
                            seat: *seat,
                            action: action.clone(),
                            display: gs
                                .preloaded_displays
                                .get(i)
                                .cloned()
                                .unwrap_or_else(|| action.clone()),
                            clock: None,
                        })
                        .collect(),
                    moves: if moves {
                        gs.actions.iter().map(MoveView::of).collect()
                    } else {
                        Vec::new()
                    },
                    turn: game.turn(),
                    phase: game.phase().name(),
                    clock: gs.clock.view(now),
                    board: game.view(viewer),
                    draw_offer: gs.draw.as_ref().map(|d| d.by),
                    takeback_request: gs.takeback.as_ref().map(|t| t.by),
                    claims,
                    first_move_deadline: self.first_move_deadline(),
                    outcome: gs.outcome.clone(),
                    end_detail: gs.end_detail,
                    rated: gs.rated,
                    warnings: gs.warnings.clone(),
                    fouls: gs.fouls.clone(),
                    violations: gs.violations.clone(),
                    paused: gs.paused_at.is_some(),
                })
            }
            _ => None,
        };
        TableView {
            version: self.version(),
            game_name: G::NAME,
            seats,
            spectators: self.spectators().cloned().collect(),
            proposal: state.proposal.clone(),
            status: state.status,
            you: match viewer {
                Viewer::Seat(s) => Some(s),
                Viewer::Spectator => None,
            },
            game,
            preview: self.preview().map(|g| g.view(viewer)),
            tournament: self.config().tournament,
            at: now,
        }
    }

    /// Turns `view`, taken by [`Self::view`] for another viewer at the same
    /// moment (and state), into `viewer`'s: afterwards it equals
    /// `self.view(viewer, view.at)`. Only what depends on the viewer is built
    /// again (the seat, the claims, and the game's own part as
    /// [`Game::view_again`] rewrites it): the fan-out takes one view per viewer
    /// of every change. Returns which of those parts may have changed.
    pub fn view_again(&self, view: &mut TableView<G::View>, viewer: Viewer) -> Rewritten {
        let you = match viewer {
            Viewer::Seat(s) => Some(s),
            Viewer::Spectator => None,
        };
        let mut rewritten = Rewritten {
            you: you != view.you,
            ..Rewritten::default()
        };
        view.you = you;
        if let (Some(game), Some(gv)) = (self.game(), view.game.as_mut()) {
            let claims = match viewer {
                Viewer::Seat(s) if self.is_playing() => game.claims(s),
                _ => Vec::new(),
            };
            rewritten.claims = claims != gv.claims;
            gv.claims = claims;
            rewritten.board = game.view_again(&mut gv.board, viewer);
        }
        if let (Some(game), Some(preview)) = (self.preview(), view.preview.as_mut()) {
            rewritten.preview = game.view_again(preview, viewer);
        }
        rewritten
    }

    /// The table as `user` sees it: from their seat if seated, else as a spectator.
    pub fn view_for(&self, user: &str, now: Millis) -> TableView<G::View> {
        let viewer = match self.seat_of(user) {
            Some(seat) => Viewer::Seat(seat),
            None => Viewer::Spectator,
        };
        self.view(viewer, now)
    }
}
