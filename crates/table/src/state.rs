//! The table's state apart from the game value itself: plain data, comparable and
//! serialisable, so that a replay can be checked against the live table.

use std::collections::BTreeSet;

use qiyuan_clock::{Clock, Millis};
use qiyuan_game::{Outcome, Seat, Setup};
use serde::{Deserialize, Serialize};

use crate::types::{EndDetail, Proposal, Settings, UserId};

/// Where the table is between and during games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// No game yet.
    Waiting,
    /// A game is being played.
    Playing,
    /// The last game is over; its result is shown until the next one starts.
    Over,
}

/// One seat.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatState {
    pub user: Option<UserId>,
    /// The seat's connection; a disconnected seat carries the time it went away.
    pub absent_since: Option<Millis>,
    /// The proposal this seat has accepted.
    pub accepted: Option<u32>,
    pub ready: bool,
    /// A pending swap request with another seat.
    pub swap_with: Option<Seat>,
    /// Asked for a rematch after the last game.
    pub rematch: bool,
    /// 托管: the server's computer plays this seat for its player during the
    /// game (handed over by the player, or by the server when the player's
    /// time ran out or they stayed away), until the player takes it back.
    #[serde(default)]
    pub trustee: bool,
}

/// One accepted action in the current game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionRecord {
    pub seat: Seat,
    pub action: String,
    pub display: String,
    pub at: Millis,
    /// The mover's main time left after the action (for `[%clk]`).
    pub clock: Option<Millis>,
    /// Byo-yomi periods (Canadian: moves in the period) the mover has left after
    /// the action, once in overtime (for SGF `OB`/`OW`).
    #[serde(default)]
    pub periods: Option<u32>,
}

/// A standing draw offer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawOffer {
    pub by: Seat,
    /// The seats that have accepted so far (all others must).
    pub accepted: Vec<Seat>,
}

/// A pending takeback request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TakebackRequest {
    pub by: Seat,
    /// How many actions it would take back.
    pub plies: u32,
    pub accepted: Vec<Seat>,
}

/// The game being played (or the last one played).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameState {
    /// 1 for the table's first game.
    pub number: u32,
    pub settings: Settings,
    /// The setup the game really started from (with the deal secret, if any:
    /// never for a client).
    pub setup: Setup,
    /// Actions loaded from a record before the game started (读入): part of the
    /// game, but not of the table's move list, and never taken back.
    #[serde(default)]
    pub preloaded: Vec<(Seat, String)>,
    /// How the move list shows each of `preloaded` (SAN, Chinese notation).
    #[serde(default)]
    pub preloaded_displays: Vec<String>,
    /// Users by seat when the game started.
    pub players: Vec<UserId>,
    pub started_at: Millis,
    pub actions: Vec<ActionRecord>,
    pub clock: Clock,
    /// Whether each seat has made at least one action (the abort rule and the
    /// first-move timer).
    pub acted: Vec<bool>,
    /// When the current turn began (the first-move timer counts from here).
    pub turn_since: Millis,
    pub draw: Option<DrawOffer>,
    /// The seat that made the last draw offer in this game (xiangqi alternation).
    pub last_offer_by: Option<Seat>,
    /// The number of actions at each seat's last draw offer (one offer per move).
    pub offered_at: Vec<Option<usize>>,
    pub takeback: Option<TakebackRequest>,
    /// Seats whose takeback was declined and who have not acted since.
    pub takeback_blocked: Vec<bool>,
    pub outcome: Option<Outcome>,
    pub rated: bool,
    /// When the game ended (for a flag: when the time ran out).
    pub ended_at: Option<Millis>,
    /// How it ended, where the outcome's reason does not say (which limit ran
    /// out, why it was not counted).
    #[serde(default)]
    pub end_detail: Option<EndDetail>,
    /// Fouls recorded by an arbiter, per seat.
    #[serde(default)]
    pub fouls: Vec<u8>,
    /// Violations (违例) recorded by an arbiter, per seat.
    #[serde(default)]
    pub violations: Vec<u8>,
    /// Warnings (警告) given by an arbiter, per seat.
    #[serde(default)]
    pub warnings: Vec<u8>,
    /// Since when an arbiter has stopped the clocks (none: they run).
    #[serde(default)]
    pub paused_at: Option<Millis>,
}

impl GameState {
    /// The actions that make the game, in order: those loaded from a record
    /// before it started, then those played (what a replay of the game plays).
    pub fn played(&self) -> Vec<(Seat, String)> {
        self.preloaded
            .iter()
            .cloned()
            .chain(self.actions.iter().map(|a| (a.seat, a.action.clone())))
            .collect()
    }
}

/// Everything at the table but the game value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub seats: Vec<SeatState>,
    /// Spectators added by logged `Watch` entries of old logs (see
    /// [`crate::Command::Watch`]); those watching now are in
    /// [`crate::Table::spectators`].
    pub spectators: BTreeSet<UserId>,
    pub proposal: Proposal,
    pub status: Status,
    /// Games started at this table.
    pub games: u32,
    pub game: Option<GameState>,
    /// The time of the last accepted command; time never runs backwards.
    pub now: Millis,
}
