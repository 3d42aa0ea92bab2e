//! The table: commands in, events out. This module holds the table itself,
//! what it answers about itself, and [`Table::apply`], which fires due timers,
//! hands each command to the module of its concept and logs it; the rooms:
//!
//! * [`seating`]: seats and spectators;
//! * [`settings`]: proposals, acceptance and readiness;
//! * [`start`]: building a game from the settings, starting it, rematches;
//! * [`play`]: actions and the clock they press;
//! * [`offers`]: draw offers and takebacks;
//! * [`presence`]: disconnection, leaving, grace and downtime;
//! * [`timers`]: deadlines and the timers that fire at them;
//! * [`ending`]: claims, resignation, aborts and the end of a game;
//! * [`arbiter`]: an arbiter's fouls, warnings and decisions;
//! * [`record`]: the clock, the record and the comparison of tables.

mod arbiter;
mod ending;
mod offers;
mod play;
mod presence;
mod record;
mod seating;
mod settings;
mod start;
mod timers;

use std::collections::BTreeSet;
use std::fmt;

use qiyuan_clock::{Clock, ClockView, Millis, TimeControl};
use qiyuan_game::{Game, Seat, Secret};

use crate::state::{SeatState, State, Status};
use crate::types::{
    Command, Event, LogEntry, Proposal, ReplayError, SettingsError, TableConfig, TableRefusal,
    TableRefusalKind as K, UserId,
};

pub use ending::INCORRECT_CLAIM_BONUS;
pub use presence::default_grace;
use start::{TRIAL, build_game, loads_position, parse_options};

type R<T = Vec<Event>> = Result<T, TableRefusal>;

fn refuse<T>(kind: K, message: impl Into<String>) -> R<T> {
    Err(TableRefusal::new(kind, message))
}

/// One table: its seats, spectators, settings, the game and its clock, and the log
/// of every accepted command.
pub struct Table<G: Game> {
    config: TableConfig,
    seats_n: u8,
    state: State,
    game: Option<G>,
    /// The current game's options.
    options: Option<G::Options>,
    /// The current proposal's options, parsed once when it was made (the
    /// table's creation or a `Propose`): a game starts from these.
    proposed: G::Options,
    /// The position the current proposal loads (读入), shown to every seat
    /// before the game starts; `None` for a standard start and once it started.
    preview: Option<G>,
    log: Vec<LogEntry>,
    /// Who watches now, apart from the seated players: live only, never logged,
    /// so watching writes nothing and moves no version (see [`Table::watch`]).
    watchers: BTreeSet<UserId>,
    /// The secret offered for the command being applied (see
    /// [`Table::apply_with`]), and whether a game start took it.
    offered: Option<Secret>,
    dealt: Option<Secret>,
    /// How many times the actions were cut (a takeback, a new game) since the
    /// table was made (see [`Table::action_cuts`]).
    cuts: u64,
}

impl<G: Game> Clone for Table<G> {
    fn clone(&self) -> Self {
        Table {
            config: self.config.clone(),
            seats_n: self.seats_n,
            state: self.state.clone(),
            game: self.game.clone(),
            options: self.options.clone(),
            proposed: self.proposed.clone(),
            preview: self.preview.clone(),
            log: self.log.clone(),
            watchers: self.watchers.clone(),
            offered: None,
            dealt: None,
            cuts: self.cuts,
        }
    }
}

impl<G: Game> fmt::Debug for Table<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Table")
            .field("game", &G::NAME)
            .field("state", &self.state)
            .field("log", &self.log.len())
            .finish()
    }
}

/// Two tables are equal when their state, log and game agree; the games are
/// compared through every viewer's view (games need not be comparable). Who
/// watches is not compared: it is live, not part of what a log reproduces.
impl<G: Game> PartialEq for Table<G> {
    fn eq(&self, other: &Self) -> bool {
        self.config == other.config
            && self.state == other.state
            && self.log == other.log
            && self.game_fingerprint() == other.game_fingerprint()
    }
}

impl<G: Game> Table<G> {
    /// A new, empty table. Refused when the settings do not make a game: the
    /// game's options are parsed here, once, into [`Game::Options`].
    pub fn new(config: TableConfig) -> Result<Self, SettingsError> {
        config
            .settings
            .time
            .validate()
            .map_err(SettingsError::Time)?;
        if config.settings.setup.is_random() {
            return Err(SettingsError::RandomSetup);
        }
        let proposed = parse_options::<G>(&config.settings)?;
        let trial = build_game::<G>(&config.settings, &proposed, &config, 1, Some(TRIAL))
            .map_err(SettingsError::Setup)?
            .game;
        let seats_n = trial.seats();
        let preview = loads_position(&config.settings).then_some(trial);
        let state = State {
            seats: vec![SeatState::default(); seats_n as usize],
            spectators: Default::default(),
            proposal: Proposal {
                id: 0,
                by: Seat::FIRST,
                settings: config.settings.clone(),
            },
            status: Status::Waiting,
            games: 0,
            game: None,
            now: 0,
        };
        Ok(Table {
            config,
            seats_n,
            state,
            game: None,
            options: None,
            proposed,
            preview,
            log: Vec::new(),
            watchers: BTreeSet::new(),
            offered: None,
            dealt: None,
            cuts: 0,
        })
    }

    /// How many times [`Table::actions`] was cut (a takeback, a new game) since
    /// this table was made — a refused takeback that was put back may count
    /// too: while it is the same, the actions were only ever added to, and a
    /// copy of the first ones is still theirs.
    pub fn action_cuts(&self) -> u64 {
        self.cuts
    }

    /// Rebuilds a table from its log.
    pub fn replay(config: TableConfig, log: &[LogEntry]) -> Result<Self, ReplayError> {
        Self::replay_with(config, log, |_, _| {})
    }

    /// Rebuilds a table from its log, handing `each` every entry's index and the
    /// events it gave (a server rebuilds its broadcast history from them).
    pub fn replay_with(
        config: TableConfig,
        log: &[LogEntry],
        mut each: impl FnMut(usize, Vec<Event>),
    ) -> Result<Self, ReplayError> {
        let mut table = Table::new(config).map_err(ReplayError::Config)?;
        for (index, entry) in log.iter().enumerate() {
            let events = table
                .apply_entry(entry)
                .map_err(|refusal| ReplayError::Refused { index, refusal })?;
            each(index, events);
        }
        Ok(table)
    }

    /// Applies one entry of a log, with the secret it dealt from, if any: how a
    /// replay goes.
    pub fn apply_entry(&mut self, entry: &LogEntry) -> R {
        self.apply_with(entry.command.clone(), entry.at, entry.deal)
    }

    pub fn config(&self) -> &TableConfig {
        &self.config
    }

    pub fn state(&self) -> &State {
        &self.state
    }

    /// The current proposal's options, typed: what the next game starts with.
    pub fn proposed_options(&self) -> &G::Options {
        &self.proposed
    }

    /// The position the current proposal loads (读入), until its game starts.
    pub fn preview(&self) -> Option<&G> {
        self.preview.as_ref()
    }

    /// The current (or last) game.
    pub fn game(&self) -> Option<&G> {
        self.game.as_ref()
    }

    /// Every accepted command. It holds secrets (the deal secret of each game
    /// of a game that [`Game::RANDOM`]): for the store, never for a client.
    pub fn log(&self) -> &[LogEntry] {
        &self.log
    }

    /// The table's version: the number of log entries. Every accepted command
    /// raises it by one; the server tags events with it so clients can spot gaps.
    pub fn version(&self) -> u64 {
        self.log.len() as u64
    }

    pub fn seats(&self) -> u8 {
        self.seats_n
    }

    /// Fires the timers due at `now`. Shorthand for applying [`Command::Tick`].
    pub fn tick(&mut self, now: Millis) -> Vec<Event> {
        self.apply(Command::Tick, now).unwrap_or_default()
    }

    /// Applies a command at `now`. Timers due at `now` fire first. On success the
    /// command is logged and its events returned; a refusal changes nothing (but
    /// see [`TableRefusal::fired`]). A game that draws randomness
    /// ([`Game::RANDOM`]) cannot start through `apply`: see [`Table::apply_with`].
    pub fn apply(&mut self, cmd: Command, now: Millis) -> R {
        self.apply_with(cmd, now, None)
    }

    /// [`Table::apply`] with a fresh secret on offer: should the command start a
    /// game that draws randomness, the game deals from `secret` (its setup is
    /// [`Setup::Secret`]) and the command's log entry keeps it
    /// ([`LogEntry::deal`]) so that a replay deals the same. The server offers a
    /// new secret from the operating system's random source with every command;
    /// one not taken is forgotten. Without one, such a game cannot start (a table
    /// from before secrets, with a [`TableConfig::deal_seed`], still deals from it).
    pub fn apply_with(&mut self, cmd: Command, now: Millis, secret: Option<Secret>) -> R {
        self.offered = secret;
        self.dealt = None;
        let result = self.apply_inner(cmd, now);
        self.offered = None;
        self.dealt = None;
        result
    }

    fn apply_inner(&mut self, cmd: Command, now: Millis) -> R {
        let now = now.max(self.state.now);
        // A move by the seat whose flag is due settles that flag itself, with its
        // lag compensated, so a move sent in time is not pre-empted by the timer;
        // the other timers then fire after it. Otherwise due timers fire first,
        // exactly as a logged `Tick` at this moment would fire them on replay.
        // Timers that fall due through the command fire after it.
        let settles_flag = self.settles_own_flag(&cmd, now);
        let mut fired = Vec::new();
        if !matches!(cmd, Command::Restart { .. } | Command::Credit { .. }) && !settles_flag {
            fired = self.fire_and_log(now);
        }
        if matches!(cmd, Command::Tick) {
            return Ok(fired);
        }
        // A refused command changes nothing: the table is put back as it was.
        // A move (the command played most) puts back itself what it changed
        // before its refusal (`Table::act`), sparing a copy of the whole game.
        let backup = (!matches!(cmd, Command::Act { .. })).then(|| {
            (
                self.state.clone(),
                self.game.clone(),
                self.options.clone(),
                self.proposed.clone(),
                self.watchers.clone(),
            )
        });
        match self.handle(cmd.clone(), now) {
            Ok(events) => {
                self.state.now = now;
                self.log.push(LogEntry {
                    at: now,
                    command: cmd,
                    deal: self.dealt.take(),
                });
                fired.extend(events);
                // The command may have made a timer due (a reconnection makes an
                // absent opponent's escape count again): no timer is ever left
                // overdue after a call.
                fired.extend(self.fire_and_log(now));
                Ok(fired)
            }
            Err(mut refusal) => {
                if let Some(backup) = backup {
                    (
                        self.state,
                        self.game,
                        self.options,
                        self.proposed,
                        self.watchers,
                    ) = backup;
                }
                refusal.fired = fired;
                Err(refusal)
            }
        }
    }

    /// Whether `cmd` is an action by the seat whose clock runs and whose flag is
    /// due at `now`.
    fn settles_own_flag(&self, cmd: &Command, now: Millis) -> bool {
        let Command::Act { user, .. } = cmd else {
            return false;
        };
        let Some(gs) = self.state.game.as_ref().filter(|_| self.is_playing()) else {
            return false;
        };
        let running = gs.clock.running_seat();
        running.is_some()
            && self.seat_of(user).map(|s| s.index()) == running
            && gs.clock.flag_time().is_some_and(|t| t <= now)
    }

    /// Fires the timers due at `now` and logs a `Tick` if any fired.
    fn fire_and_log(&mut self, now: Millis) -> Vec<Event> {
        let fired = self.fire(now);
        if !fired.is_empty() {
            self.state.now = now;
            self.log.push(LogEntry {
                at: now,
                command: Command::Tick,
                deal: None,
            });
        }
        fired
    }

    fn handle(&mut self, cmd: Command, now: Millis) -> R {
        // While an arbiter has stopped the clocks the game stands: no move,
        // offer, takeback or claim (a resignation, presence and the arbiter's
        // own commands go on).
        if self.paused()
            && matches!(
                cmd,
                Command::Act { .. }
                    | Command::OfferDraw { .. }
                    | Command::AcceptDraw { .. }
                    | Command::RequestTakeback { .. }
                    | Command::AcceptTakeback { .. }
                    | Command::Claim { .. }
            )
        {
            return refuse(K::NotAllowed, "the game is paused by an arbiter");
        }
        match cmd {
            Command::Sit { user, seat } => self.sit(user, seat),
            Command::Stand { user } => self.stand(&user),
            Command::Watch { user } => self.logged_watch(user),
            Command::Unwatch { user } => self.logged_unwatch(&user),
            Command::Propose { user, settings } => self.propose(&user, settings),
            Command::Accept { user, proposal } => self.accept(&user, proposal, now),
            Command::Decline { user, proposal } => self.decline(&user, proposal),
            Command::Ready { user, proposal } => self.ready(&user, proposal, now),
            Command::Unready { user } => self.unready(&user),
            Command::Swap { user, with } => self.swap(&user, with),
            Command::Act { user, action, lag } => self.act(&user, &action, lag, now),
            Command::OfferDraw { user } => self.offer_draw(&user),
            Command::AcceptDraw { user } => self.accept_draw(&user, now),
            Command::DeclineDraw { user } => self.decline_draw(&user),
            Command::RequestTakeback { user } => self.request_takeback(&user),
            Command::AcceptTakeback { user } => self.accept_takeback(&user, now),
            Command::DeclineTakeback { user } => self.decline_takeback(&user),
            Command::Claim { user, claim } => self.claim(&user, claim, now),
            Command::Resign { user } => self.resign(&user, now),
            Command::Abort { user } => self.abort(&user, now),
            Command::Disconnect { user } => self.disconnect(&user, now),
            Command::Reconnect { user } => self.reconnect(&user, now),
            Command::Leave { user } => self.leave(&user, now),
            Command::Rematch { user } => self.rematch(&user, now),
            Command::Trusteeship { user, on } => self.trusteeship(&user, on),
            Command::Tick => Ok(Vec::new()),
            Command::Restart { down_since } => Ok(self.restart(down_since, now)),
            Command::Credit { from, to } => Ok(self.credit(from, to, now)),
            Command::Foul { seat, reason } => self.foul(seat, reason, now),
            Command::Adjudicate { outcome } => self.adjudicate(outcome, now),
            Command::Warn { seat, reason } => self.warn(seat, reason),
            Command::Violation { seat, reason } => self.violation(seat, reason, now),
            Command::Decide { decision } => self.decide(decision, now),
            Command::Restore { ply, clocks } => self.restore(ply, clocks, now),
            Command::AdjustClock { seat, delta } => self.adjust_clock(seat, delta, now),
            Command::Pause => self.pause(now),
            Command::Unpause => self.unpause(now),
        }
    }

    pub(crate) fn is_playing(&self) -> bool {
        self.state.status == Status::Playing
    }

    /// Whether an arbiter has stopped the game's clocks.
    pub fn paused(&self) -> bool {
        self.is_playing()
            && self
                .state
                .game
                .as_ref()
                .is_some_and(|g| g.paused_at.is_some())
    }
}

fn no_game() -> TableRefusal {
    TableRefusal::new(K::NoGame, "no game is being played")
}

fn game_refusal(r: qiyuan_game::Refusal) -> TableRefusal {
    TableRefusal::new(K::Game(r.kind), r.message)
}

fn empty_clock(now: Millis) -> ClockView {
    Clock::new(TimeControl::None, 0).view(now)
}
