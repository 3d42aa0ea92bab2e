//! The table's vocabulary: configuration, settings, commands, events, refusals.

use std::fmt;

use qiyuan_clock::{ClockView, Millis, TimeControl};
use qiyuan_game::{Claim, Outcome, RefusalKind, Seat, Secret, Setup};
use serde::{Deserialize, Serialize};

/// A user, as the server identifies them. The table never authenticates: the server
/// puts the authenticated user into every command, and the table checks that the
/// user sits where the command needs them.
pub type UserId = String;

/// What the players agree on before a game: the time control and the rule options.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Settings {
    pub time: TimeControl,
    /// The game's rule options as JSON, the wire and log form of the game's
    /// `Options`; `null` for defaults. The table parses them once, when the
    /// table is created or the settings proposed, and refuses ones that are not
    /// the game's ([`SettingsError::Options`]).
    #[serde(default)]
    pub options: serde_json::Value,
    /// Where the game starts: the standard position or a loaded one (读入): a
    /// position in the game's format (FEN), or a whole record (PGN, SGF) whose
    /// moves are replayed and the game goes on from its last position. A seed or
    /// secret is never accepted from players; each deal comes from a fresh
    /// secret the server offers (see [`crate::Table::apply_with`]).
    #[serde(default = "standard")]
    pub setup: Setup,
    /// Whether the game counts for ratings.
    #[serde(default)]
    pub rated: bool,
    /// Whether takebacks (悔棋) may be requested.
    #[serde(default = "yes")]
    pub takebacks: bool,
}

fn standard() -> Setup {
    Setup::Standard
}

fn yes() -> bool {
    true
}

impl Settings {
    /// Casual settings with `time`, default options, the standard start.
    pub fn casual(time: TimeControl) -> Self {
        Settings {
            time,
            options: serde_json::Value::Null,
            setup: Setup::Standard,
            rated: false,
            takebacks: true,
        }
    }
}

/// A proposal of settings. Each new proposal gets the next id; accepting names the
/// id, so nobody accepts a proposal they have not seen.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Proposal {
    pub id: u32,
    pub by: Seat,
    pub settings: Settings,
}

/// How a table is set up when it is created. Not changed by commands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableConfig {
    /// The first proposal (seat 0's, until someone proposes otherwise).
    pub settings: Settings,
    /// A tournament table: the settings are fixed, takebacks are off, and a player
    /// who does not make their first move in time loses instead of aborting.
    #[serde(default)]
    pub tournament: bool,
    /// Time for a seat's first action; `None`: 30 s, or the time per move for
    /// correspondence.
    #[serde(default)]
    pub first_move: Option<Millis>,
    /// How long a disconnected player may stay away from a live game before losing
    /// by escape; `None`: by speed (see [`crate::default_grace`]).
    #[serde(default)]
    pub grace: Option<Millis>,
    /// 托管: the server plays for a player who is away during a game (the game's
    /// registry entry says it can), so being away is no escape; leaving still is,
    /// and between games an away player's seat is still freed after the grace.
    #[serde(default)]
    pub trusteeship: bool,
    /// Legacy: the one secret from which tables created before per-game secrets
    /// drew every game's deal (Doudizhu), kept so that their logs replay. A game
    /// started with a secret on offer ([`crate::Table::apply_with`]) deals from
    /// that instead; new tables have none. Never shown to anyone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal_seed: Option<u64>,
    /// The secret every game here deals from, given by the table's creator
    /// (an event's hand whose deal the event chose: a duplicate board), in
    /// place of a fresh secret per game (the server offers it with each
    /// command: [`crate::Table::apply_with`]). Kept in the table's private
    /// config and the game's log like any deal secret; never shown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal: Option<qiyuan_game::Secret>,
}

impl TableConfig {
    pub fn casual(time: TimeControl) -> Self {
        TableConfig {
            settings: Settings::casual(time),
            tournament: false,
            first_move: None,
            grace: None,
            trusteeship: false,
            deal_seed: None,
            deal: None,
        }
    }
}

/// Everything that can happen at a table. The server builds commands from client
/// messages (putting in the authenticated user) and from its own observations
/// (disconnects, timers, restarts), and gives each the time it happened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Command {
    /// Take an empty seat.
    Sit {
        user: UserId,
        seat: Seat,
    },
    /// Leave one's seat (not during a game: resign or leave instead).
    Stand {
        user: UserId,
    },
    /// Watch the table. Legacy: watching is live only now ([`crate::Table::watch`]);
    /// these entries are found only in old logs and replay as they did.
    Watch {
        user: UserId,
    },
    /// Stop watching (legacy, as `Watch`).
    Unwatch {
        user: UserId,
    },
    /// Propose settings (the first seat proposes; the others may counter-propose).
    Propose {
        user: UserId,
        settings: Settings,
    },
    /// Accept proposal `proposal`.
    Accept {
        user: UserId,
        proposal: u32,
    },
    /// Turn down proposal `proposal` (不同意): the proposer is told; nothing else
    /// changes (the decliner may counter-propose).
    Decline {
        user: UserId,
        proposal: u32,
    },
    /// Ready to start (开始); accepts the current proposal, which must be `proposal`
    /// when given. The game starts when every seat is taken and ready.
    Ready {
        user: UserId,
        #[serde(default)]
        proposal: Option<u32>,
    },
    /// No longer ready.
    Unready {
        user: UserId,
    },
    /// Ask to swap seats (and so colours) with `with` before the game (交换); an
    /// empty seat is simply taken, an occupied one swaps when both have asked.
    Swap {
        user: UserId,
        with: Seat,
    },
    /// Play an action in the game's notation. `lag` is the network lag the server
    /// measured for this message, compensated from the player's quota.
    Act {
        user: UserId,
        action: String,
        #[serde(default)]
        lag: Millis,
    },
    OfferDraw {
        user: UserId,
    },
    AcceptDraw {
        user: UserId,
    },
    DeclineDraw {
        user: UserId,
    },
    /// Ask to take back one's last action (悔棋).
    RequestTakeback {
        user: UserId,
    },
    AcceptTakeback {
        user: UserId,
    },
    DeclineTakeback {
        user: UserId,
    },
    /// Claim a draw the rules allow (threefold, fifty moves).
    Claim {
        user: UserId,
        claim: Claim,
    },
    Resign {
        user: UserId,
    },
    /// End the game without result while it may still be aborted (before every seat
    /// has acted).
    Abort {
        user: UserId,
    },
    /// The server lost the user's connection.
    Disconnect {
        user: UserId,
    },
    /// The user is back.
    Reconnect {
        user: UserId,
    },
    /// The user left on purpose: a seated player in a live game loses (escape) at
    /// once, then stands; a spectator stops watching.
    Leave {
        user: UserId,
    },
    /// Ask for (or agree to) a rematch with colours swapped.
    Rematch {
        user: UserId,
    },
    /// 托管: `on`, the player hands their seat to the server's computer for
    /// the rest of the game (or the server does, for a player out of time or
    /// away); off, the player takes it back (取消托管). Only during a game at a
    /// table whose config allows it ([`TableConfig::trusteeship`]).
    Trusteeship {
        user: UserId,
        on: bool,
    },
    /// Fire the timers due now (flag fall, first-move timer, disconnection grace).
    /// The server sends it at [`crate::Table::next_deadline`]; `apply` also fires due
    /// timers before any other command.
    Tick,
    /// The server restarted after being down since `down_since`: the time in
    /// between is not charged, and every seated player counts as disconnected from
    /// now until they reconnect.
    Restart {
        down_since: Millis,
    },
    /// Nobody could act at the table from `from` to `to` although the server ran
    /// (it stalled, or the bus to another node's players was down): that time
    /// is charged to no clock and no move timer. Unlike [`Command::Restart`] it
    /// changes nobody's presence, and fires no timer before it.
    Credit {
        from: Millis,
        to: Millis,
    },
    /// An arbiter decides the game.
    Adjudicate {
        outcome: Outcome,
    },
    /// An arbiter records a foul (犯规) against `seat`; the third loses the game.
    Foul {
        seat: Seat,
        /// Why, as the arbiter said it (older logs have none).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// An arbiter warns `seat` (警告); it changes nothing but the record.
    Warn {
        seat: Seat,
        reason: String,
    },
    /// An arbiter records a violation (违例) against `seat`; the third loses.
    Violation {
        seat: Seat,
        reason: String,
    },
    /// An arbiter ends the game: a seat loses (a forfeit, a disqualification,
    /// an adjudication), a draw, or no game (both absent). The game's own
    /// outcome for a concession or a draw, with the reason `adjudication`.
    Decide {
        decision: Decision,
    },
}

/// How an arbiter ends a game ([`Command::Decide`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Decision {
    /// `seat` loses. `forfeit`: the game does not count for ratings (it was
    /// not played out).
    Loses { seat: Seat, forfeit: bool },
    /// A draw.
    Draw,
    /// No result at the table: the game is void (both players forfeited).
    Void,
}

impl Command {
    /// The user the command is from, if it is from a user.
    pub fn user(&self) -> Option<&str> {
        use Command::*;
        match self {
            Sit { user, .. }
            | Stand { user }
            | Watch { user }
            | Unwatch { user }
            | Propose { user, .. }
            | Accept { user, .. }
            | Decline { user, .. }
            | Ready { user, .. }
            | Unready { user }
            | Swap { user, .. }
            | Act { user, .. }
            | OfferDraw { user }
            | AcceptDraw { user }
            | DeclineDraw { user }
            | RequestTakeback { user }
            | AcceptTakeback { user }
            | DeclineTakeback { user }
            | Claim { user, .. }
            | Resign { user }
            | Abort { user }
            | Disconnect { user }
            | Reconnect { user }
            | Leave { user }
            | Rematch { user }
            | Trusteeship { user, .. } => Some(user),
            Tick
            | Restart { .. }
            | Credit { .. }
            | Adjudicate { .. }
            | Foul { .. }
            | Warn { .. }
            | Violation { .. }
            | Decide { .. } => None,
        }
    }
}

/// What happened, for everyone at the table. Events never carry hidden information:
/// what a single viewer may see comes from [`crate::Table::view`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    Sat {
        seat: Seat,
        user: UserId,
    },
    Stood {
        seat: Seat,
        user: UserId,
    },
    Watching {
        user: UserId,
    },
    Unwatched {
        user: UserId,
    },
    Proposed {
        proposal: Proposal,
    },
    Accepted {
        seat: Seat,
        proposal: u32,
    },
    Ready {
        seat: Seat,
        ready: bool,
    },
    SwapRequested {
        seat: Seat,
        with: Seat,
    },
    /// The users in `a` and `b` changed places (one of them may be empty).
    Swapped {
        a: Seat,
        b: Seat,
    },
    /// A game began.
    Started {
        game: u32,
        /// Users by seat.
        players: Vec<UserId>,
        settings: Settings,
        clock: ClockView,
    },
    /// A seat acted.
    Acted {
        seat: Seat,
        /// Number of actions in the game so far, this one included.
        ply: u32,
        /// The action in canonical notation.
        action: String,
        /// The action as players read it.
        display: String,
        capture: bool,
        check: bool,
        clock: ClockView,
    },
    DrawOffered {
        seat: Seat,
    },
    /// The offer was declined, explicitly or by a move.
    DrawDeclined {
        seat: Seat,
    },
    TakebackRequested {
        seat: Seat,
    },
    TakebackDeclined {
        seat: Seat,
    },
    /// Actions were taken back; the game is `plies` actions shorter.
    TookBack {
        plies: u32,
        clock: ClockView,
    },
    Disconnected {
        seat: Seat,
        /// When the seat loses by escape unless it comes back.
        deadline: Option<Millis>,
    },
    Reconnected {
        seat: Seat,
    },
    RematchOffered {
        seat: Seat,
    },
    /// 托管 began (`on`) or ended for `seat`: the computer plays it, or its
    /// player does again.
    Trusteeship {
        seat: Seat,
        on: bool,
    },
    /// `seat` turned down proposal `proposal`.
    Declined {
        seat: Seat,
        proposal: u32,
    },
    /// The game ended. `rated` says whether it counts for ratings.
    Ended {
        outcome: Outcome,
        rated: bool,
    },
    /// The server came back; clocks continue from `clock`.
    Resumed {
        clock: Option<ClockView>,
    },
    /// An arbiter recorded a foul; `count` is the seat's fouls in this game.
    Fouled {
        seat: Seat,
        count: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// An arbiter warned a seat.
    Warned {
        seat: Seat,
        reason: String,
    },
    /// An arbiter recorded a violation; `count` is the seat's violations in
    /// this game.
    Violated {
        seat: Seat,
        count: u8,
        reason: String,
    },
}

/// How a game ended, where the outcome's reason alone does not say it: which
/// time limit ran out, or why a game was not counted. Shown to players in words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum EndDetail {
    /// A player aborted the game before every seat had moved.
    Abort,
    /// The first-move timer ran out.
    FirstMove,
    /// A seat ran out of time, resigned or left before every seat had moved: the
    /// game is not counted (只有一方走了棋，不计分).
    NotCounted,
    /// The main time ran out (局时; a Fischer clock's time).
    MainTime,
    /// The per-move limit ran out (步时).
    MoveTime,
    /// The count-down after the main time ran out (读秒).
    Countdown,
    /// The byo-yomi periods or the Canadian period ran out.
    Overtime,
}

impl From<qiyuan_clock::TimeLimit> for EndDetail {
    fn from(l: qiyuan_clock::TimeLimit) -> Self {
        use qiyuan_clock::TimeLimit as L;
        match l {
            L::Main => EndDetail::MainTime,
            L::Move => EndDetail::MoveTime,
            L::Countdown => EndDetail::Countdown,
            L::Overtime => EndDetail::Overtime,
        }
    }
}

/// Why the table refused a command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TableRefusalKind {
    /// The user is not seated (or not at this seat).
    NotSeated,
    /// The user already sits at the table.
    AlreadySeated,
    /// The seat is taken.
    SeatTaken,
    /// No such seat at this table.
    NoSuchSeat,
    /// The user is neither seated nor watching.
    NotAtTable,
    /// Not possible while a game is being played.
    GameInProgress,
    /// No game is being played.
    NoGame,
    /// The settings cannot be changed at this table.
    SettingsFixed,
    /// The settings are not valid for this game.
    BadSettings,
    /// The proposal named is not the current one.
    StaleProposal,
    /// It is not this seat's turn.
    NotYourTurn,
    /// No offer or request to answer.
    NothingToAnswer,
    /// The rules do not allow this now (a draw offer before one's own move, a second
    /// offer in a row, a takeback with nothing to take back, ...).
    NotAllowed,
    /// Asked again too soon (a draw offer or takeback after a decline).
    TooSoon,
    /// An outcome that does not fit the table: not one result per seat, or
    /// points for some seats only (an arbiter's, or a game's own bug).
    BadOutcome,
    /// The game refused the action.
    Game(RefusalKind),
}

/// A refused command. The table is unchanged, except that timers that fell due
/// before the command was considered have fired: their events are in `fired` and
/// must be sent out like any others (they are usually empty).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableRefusal {
    pub kind: TableRefusalKind,
    pub message: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fired: Vec<Event>,
}

impl TableRefusal {
    pub fn new(kind: TableRefusalKind, message: impl Into<String>) -> Self {
        TableRefusal {
            kind,
            message: message.into(),
            fired: Vec::new(),
        }
    }
}

impl fmt::Display for TableRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for TableRefusal {}

/// One accepted command and its time: the table's log. Replaying the log from a
/// new table with the same config reproduces the table exactly.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogEntry {
    pub at: Millis,
    pub command: Command,
    /// The secret the game this command started deals from (Doudizhu): the
    /// store keeps it so that a replay deals the same cards; no client may ever
    /// see it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal: Option<Secret>,
}

/// Settings that make no game, as [`crate::Table::new`] refuses them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SettingsError {
    /// The time control is not valid.
    Time(String),
    /// The options are not the game's ([`qiyuan_game::Game::Options`]).
    Options { game: &'static str, message: String },
    /// A seed or secret chosen by a player: deals are the table's to draw.
    RandomSetup,
    /// The game cannot start from the setup (a bad position or record).
    Setup(String),
}

impl fmt::Display for SettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingsError::Time(m) | SettingsError::Setup(m) => f.write_str(m),
            SettingsError::Options { game, message } => {
                write!(f, "bad options for {game}: {message}")
            }
            SettingsError::RandomSetup => f.write_str("deals are drawn by the table"),
        }
    }
}

impl std::error::Error for SettingsError {}

/// A log that does not replay.
#[derive(Debug, Clone, PartialEq)]
pub enum ReplayError {
    /// The table could not be created from its config.
    Config(SettingsError),
    /// Entry `index` was refused.
    Refused { index: usize, refusal: TableRefusal },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Config(m) => write!(f, "table config refused: {m}"),
            ReplayError::Refused { index, refusal } => {
                write!(f, "log entry {} refused: {refusal}", index + 1)
            }
        }
    }
}

impl std::error::Error for ReplayError {}
