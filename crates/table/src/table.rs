//! The table: commands in, events out.

use std::fmt;

use qiyuan_clock::{Clock, ClockView, DAY, Millis, Speed, TimeControl};
use std::collections::BTreeSet;

use qiyuan_game::{
    DrawOffers, EndReason, Game, Outcome, RecordMeta, RecordTime, Seat, SeatResult, Secret, Setup,
    Turn, Viewer,
};

use crate::state::{ActionRecord, DrawOffer, GameState, SeatState, State, Status, TakebackRequest};
use crate::types::{
    Command, Decision, EndDetail, Event, LogEntry, Proposal, ReplayError, Settings, SettingsError,
    TableConfig, TableRefusal, TableRefusalKind as K, UserId,
};

type R<T = Vec<Event>> = Result<T, TableRefusal>;

fn refuse<T>(kind: K, message: impl Into<String>) -> R<T> {
    Err(TableRefusal::new(kind, message))
}

/// How long a disconnected player may stay away by default: 30 s for bullet, 60 s
/// for blitz, 2 min for rapid, 5 min for classical or no clock. Correspondence
/// players come and go: during a correspondence game absence is not timed at all
/// (unless the table sets a grace), only the time per move; between games their
/// seat is kept for a day.
pub fn default_grace(time: &TimeControl) -> Millis {
    match (time, time.speed()) {
        (TimeControl::Correspondence { .. }, _) => DAY,
        (_, Speed::UltraBullet | Speed::Bullet) => 30_000,
        (_, Speed::Blitz) => 60_000,
        (_, Speed::Rapid) => 120_000,
        (_, Speed::Classical | Speed::Correspondence) => 300_000,
    }
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

    /// The table's version: the number of log entries. Every accepted command
    /// raises it by one; the server tags events with it so clients can spot gaps.
    pub fn version(&self) -> u64 {
        self.log.len() as u64
    }

    pub fn seats(&self) -> u8 {
        self.seats_n
    }

    /// The seat `user` sits at.
    pub fn seat_of(&self, user: &str) -> Option<Seat> {
        self.state
            .seats
            .iter()
            .position(|s| s.user.as_deref() == Some(user))
            .map(|i| Seat(i as u8))
    }

    /// The earliest moment a timer falls due (flag, first-move timer,
    /// disconnection grace): the server must send [`Command::Tick`] then (or call
    /// [`Table::tick`]).
    pub fn next_deadline(&self) -> Option<Millis> {
        self.deadlines().into_iter().map(|(t, _)| t).min()
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
            Command::Claim { user, claim } => {
                let seat = self.playing_seat(&user)?;
                let game = self.game.as_mut().ok_or_else(no_game)?;
                let outcome = game.claim(seat, claim).map_err(game_refusal)?;
                // A claimed draw counts exactly when the game does: not in a
                // casual game, nor from a loaded position.
                let rated = self.state.game.as_ref().is_some_and(|g| g.rated);
                self.end(outcome, rated, now)
            }
            Command::Resign { user } => {
                let seat = self.playing_seat(&user)?;
                self.end_by_table(seat, EndReason::Resignation, None, now)
            }
            Command::Abort { user } => {
                self.playing_seat(&user)?;
                if self.config.tournament {
                    return refuse(K::NotAllowed, "a tournament game cannot be aborted");
                }
                if !self.abortable() {
                    return refuse(K::NotAllowed, "every seat has moved: resign instead");
                }
                let events = self.abort_game(now);
                self.set_end_detail(EndDetail::Abort);
                Ok(events)
            }
            Command::Disconnect { user } => self.disconnect(&user, now),
            Command::Reconnect { user } => self.reconnect(&user),
            Command::Leave { user } => self.leave(&user, now),
            Command::Rematch { user } => self.rematch(&user, now),
            Command::Tick => Ok(Vec::new()),
            Command::Restart { down_since } => Ok(self.restart(down_since, now)),
            Command::Credit { from, to } => Ok(self.credit(from, to, now)),
            Command::Foul { seat, reason } => {
                if !self.is_playing() {
                    return refuse(K::NoGame, "no game is being played");
                }
                if seat.0 >= self.seats_n {
                    return refuse(K::NoSuchSeat, format!("there is no {seat}"));
                }
                let gs = self.state.game.as_mut().ok_or_else(no_game)?;
                let count = gs.fouls[seat.index()].saturating_add(1);
                gs.fouls[seat.index()] = count;
                let mut events = vec![Event::Fouled {
                    seat,
                    count,
                    reason,
                }];
                if count >= 3 {
                    // Three fouls lose, whoever has moved: an arbiter's decision,
                    // not an abort.
                    let outcome = self.conceded(seat, EndReason::Fouls);
                    let rated = self.state.game.as_ref().is_some_and(|g| g.rated);
                    events.extend(self.end(outcome, rated, now)?);
                }
                Ok(events)
            }
            Command::Adjudicate { outcome } => {
                if !self.is_playing() {
                    return refuse(K::NoGame, "no game is being played");
                }
                let rated = self.state.game.as_ref().is_some_and(|g| g.rated);
                self.end(outcome, rated, now)
            }
            Command::Warn { seat, reason } => {
                self.arbiter_seat(seat)?;
                Ok(vec![Event::Warned { seat, reason }])
            }
            Command::Violation { seat, reason } => {
                self.arbiter_seat(seat)?;
                let gs = self.state.game.as_mut().ok_or_else(no_game)?;
                if gs.violations.len() < gs.fouls.len() {
                    gs.violations.resize(gs.fouls.len(), 0);
                }
                let slot = gs.violations.get_mut(seat.index()).ok_or_else(no_game)?;
                let count = slot.saturating_add(1);
                *slot = count;
                let mut events = vec![Event::Violated {
                    seat,
                    count,
                    reason,
                }];
                if count >= 3 {
                    // 违例三次者判负 (seed 002), like three fouls.
                    let outcome = self.conceded(seat, EndReason::Fouls);
                    let rated = self.state.game.as_ref().is_some_and(|g| g.rated);
                    events.extend(self.end(outcome, rated, now)?);
                }
                Ok(events)
            }
            Command::Decide { decision } => {
                if !self.is_playing() {
                    return refuse(K::NoGame, "no game is being played");
                }
                let rated = self.state.game.as_ref().is_some_and(|g| g.rated);
                let (outcome, rated) = match decision {
                    Decision::Loses { seat, forfeit } => {
                        if seat.0 >= self.seats_n {
                            return refuse(K::NoSuchSeat, format!("there is no {seat}"));
                        }
                        (
                            self.conceded(seat, EndReason::Adjudication),
                            rated && !forfeit && !self.abortable(),
                        )
                    }
                    Decision::Draw => {
                        let mut outcome = match &self.game {
                            Some(g) => g.agreed_draw(),
                            None => Outcome::aborted(self.seats_n),
                        };
                        outcome.reason = EndReason::Adjudication;
                        (outcome, rated && !self.abortable())
                    }
                    Decision::Void => (Outcome::aborted(self.seats_n), false),
                };
                self.end(outcome, rated, now)
            }
        }
    }

    // ----- seats and spectators -------------------------------------------------

    fn sit(&mut self, user: UserId, seat: Seat) -> R {
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

    fn stand(&mut self, user: &str) -> R {
        let seat = self.seated(user)?;
        if self.is_playing() {
            return refuse(K::GameInProgress, "resign or leave the game first");
        }
        Ok(self.vacate(seat))
    }

    fn vacate(&mut self, seat: Seat) -> Vec<Event> {
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
    fn logged_watch(&mut self, user: UserId) -> R {
        if self.seat_of(&user).is_some() {
            return refuse(K::AlreadySeated, "you sit at this table");
        }
        if !self.state.spectators.insert(user.clone()) {
            return refuse(K::NotAllowed, "you are already watching");
        }
        Ok(vec![Event::Watching { user }])
    }

    /// A logged `Unwatch`, as [`Table::logged_watch`].
    fn logged_unwatch(&mut self, user: &str) -> R {
        if !self.state.spectators.remove(user) {
            return refuse(K::NotAtTable, "you are not watching");
        }
        Ok(vec![Event::Unwatched { user: user.into() }])
    }

    fn swap(&mut self, user: &str, with: Seat) -> R {
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
        for s in &mut self.state.seats {
            s.swap_with = None;
            s.ready = false;
            s.accepted = None;
        }
        self.clear_rematch();
        Ok(vec![Event::Swapped { a: seat, b: with }])
    }

    // ----- settings and start ---------------------------------------------------

    fn propose(&mut self, user: &str, settings: Settings) -> R {
        let seat = self.seated(user)?;
        if self.is_playing() {
            return refuse(K::GameInProgress, "settings are changed between games");
        }
        if self.config.tournament {
            return refuse(K::SettingsFixed, "a tournament table's settings are fixed");
        }
        if settings.setup.is_random() {
            return refuse(K::BadSettings, "deals are drawn by the table");
        }
        settings
            .time
            .validate()
            .map_err(|m| TableRefusal::new(K::BadSettings, m))?;
        let options = parse_options::<G>(&settings)
            .map_err(|e| TableRefusal::new(K::BadSettings, e.to_string()))?;
        let trial = build_game::<G>(
            &settings,
            &options,
            &self.config,
            self.state.games + 1,
            Some(TRIAL),
        )
        .map_err(|m| TableRefusal::new(K::BadSettings, m))?
        .game;
        self.preview = loads_position(&settings).then_some(trial);
        self.proposed = options;
        let proposal = Proposal {
            id: self.state.proposal.id + 1,
            by: seat,
            settings,
        };
        for s in &mut self.state.seats {
            s.ready = false;
            s.accepted = None;
        }
        self.state.seats[seat.index()].accepted = Some(proposal.id);
        self.state.proposal = proposal.clone();
        self.clear_rematch();
        Ok(vec![Event::Proposed { proposal }])
    }

    fn accept(&mut self, user: &str, proposal: u32, now: Millis) -> R {
        let seat = self.seated(user)?;
        if self.is_playing() {
            return refuse(K::GameInProgress, "a game is being played");
        }
        if proposal != self.state.proposal.id {
            return refuse(K::StaleProposal, "that proposal has been replaced");
        }
        if self.state.seats[seat.index()].accepted == Some(proposal) {
            return refuse(K::NotAllowed, "you have accepted it already");
        }
        self.state.seats[seat.index()].accepted = Some(proposal);
        let mut events = vec![Event::Accepted { seat, proposal }];
        events.extend(self.maybe_start(now)?);
        Ok(events)
    }

    fn decline(&mut self, user: &str, proposal: u32) -> R {
        let seat = self.seated(user)?;
        if self.is_playing() {
            return refuse(K::GameInProgress, "a game is being played");
        }
        if proposal != self.state.proposal.id {
            return refuse(K::StaleProposal, "that proposal has been replaced");
        }
        if self.state.proposal.by == seat {
            return refuse(K::NotAllowed, "that is your own proposal");
        }
        let s = &mut self.state.seats[seat.index()];
        if s.accepted == Some(proposal) {
            return refuse(K::NotAllowed, "you have accepted it already");
        }
        s.ready = false;
        Ok(vec![Event::Declined { seat, proposal }])
    }

    fn ready(&mut self, user: &str, proposal: Option<u32>, now: Millis) -> R {
        let seat = self.seated(user)?;
        if self.is_playing() {
            return refuse(K::GameInProgress, "a game is being played");
        }
        let current = self.state.proposal.id;
        if proposal.is_some_and(|p| p != current) {
            return refuse(K::StaleProposal, "that proposal has been replaced");
        }
        let s = &mut self.state.seats[seat.index()];
        if s.ready {
            return refuse(K::NotAllowed, "you are ready already");
        }
        let mut events = Vec::new();
        if s.accepted != Some(current) {
            s.accepted = Some(current);
            events.push(Event::Accepted {
                seat,
                proposal: current,
            });
        }
        s.ready = true;
        events.push(Event::Ready { seat, ready: true });
        events.extend(self.maybe_start(now)?);
        Ok(events)
    }

    fn unready(&mut self, user: &str) -> R {
        let seat = self.seated(user)?;
        let playing = self.is_playing();
        let s = &mut self.state.seats[seat.index()];
        if !s.ready || playing {
            return refuse(K::NotAllowed, "you are not waiting to start");
        }
        s.ready = false;
        Ok(vec![Event::Ready { seat, ready: false }])
    }

    /// Starts the game when every seat is taken, ready, and agrees to the proposal.
    fn maybe_start(&mut self, now: Millis) -> R {
        let id = self.state.proposal.id;
        let all = self
            .state
            .seats
            .iter()
            .all(|s| s.user.is_some() && s.ready && s.accepted == Some(id));
        if !all {
            return Ok(Vec::new());
        }
        self.start_game(now)
    }

    fn start_game(&mut self, now: Millis) -> R {
        if self.config.tournament && self.state.games > 0 {
            return refuse(K::NotAllowed, "a tournament table plays one game");
        }
        let number = self.state.games + 1;
        let mut settings = self.state.proposal.settings.clone();
        if self.config.tournament {
            settings.takebacks = false;
        }
        let Built {
            game,
            options,
            setup,
            preloaded,
        } = build_game::<G>(
            &settings,
            &self.proposed,
            &self.config,
            number,
            self.offered,
        )
        .map_err(|m| TableRefusal::new(K::BadSettings, m))?;
        if let Setup::Secret(secret) = setup {
            // The entry of the command that started the game keeps the secret.
            self.dealt = Some(secret);
        }
        self.preview = None;
        let n = self.seats_n as usize;
        let players: Vec<UserId> = self
            .state
            .seats
            .iter()
            .map(|s| s.user.clone().unwrap_or_default())
            .collect();
        let clock = Clock::new(settings.time, n);
        // A game from a position someone chose (读入) does not count: the chooser
        // may know it too well, and in Doudizhu would know every hand.
        let rated = settings.rated && settings.setup == Setup::Standard;
        self.state.games = number;
        self.state.status = Status::Playing;
        for s in &mut self.state.seats {
            s.ready = false;
            s.rematch = false;
            s.swap_with = None;
            // Absence counts from the start of the game, not from before it.
            if s.absent_since.is_some() {
                s.absent_since = Some(now);
            }
        }
        self.cuts += 1;
        self.state.game = Some(GameState {
            number,
            settings: settings.clone(),
            setup,
            preloaded,
            players: players.clone(),
            started_at: now,
            actions: Vec::new(),
            clock,
            acted: vec![false; n],
            turn_since: now,
            draw: None,
            last_offer_by: None,
            offered_at: vec![None; n],
            takeback: None,
            takeback_blocked: vec![false; n],
            outcome: None,
            rated,
            ended_at: None,
            end_detail: None,
            fouls: vec![0; n],
            violations: vec![0; n],
        });
        let turn = game.turn();
        self.game = Some(game);
        self.options = Some(options);
        // Only a clock with a per-move limit runs before the first move.
        self.run_clock(&turn, now);
        let mut events = vec![Event::Started {
            game: number,
            players,
            settings,
            clock: self.clock_view(now).unwrap_or_else(|| empty_clock(now)),
        }];
        // A loaded position may already be decided.
        if let Some(outcome) = self.game.as_ref().and_then(|g| g.outcome()) {
            events.extend(self.end(outcome, false, now)?);
        }
        Ok(events)
    }

    fn rematch(&mut self, user: &str, now: Millis) -> R {
        let seat = self.seated(user)?;
        if self.config.tournament {
            return refuse(
                K::NotAllowed,
                "a tournament table plays one game: no rematch",
            );
        }
        if self.state.status != Status::Over {
            return refuse(K::NotAllowed, "a rematch follows a finished game");
        }
        if self.state.seats[seat.index()].rematch {
            return refuse(K::NotAllowed, "you asked already");
        }
        // An opponent who left the table cannot be asked (QQ and Lichess offer no
        // rematch then); whoever sits down next starts a new game the usual way.
        if self.state.seats.iter().any(|s| s.user.is_none()) {
            return refuse(
                K::NotAllowed,
                "a seat is empty: nobody to play a rematch with",
            );
        }
        self.state.seats[seat.index()].rematch = true;
        let mut events = vec![Event::RematchOffered { seat }];
        let all = self
            .state
            .seats
            .iter()
            .all(|s| s.user.is_some() && s.rematch);
        if all {
            // Colours change: every user moves one seat on (seat 0 gets the user
            // who sat last), which for two seats is a swap.
            self.state.seats.rotate_right(1);
            for s in &mut self.state.seats {
                s.accepted = Some(self.state.proposal.id);
                s.ready = true;
            }
            if self.seats_n == 2 {
                events.push(Event::Swapped {
                    a: Seat::FIRST,
                    b: Seat::SECOND,
                });
            } else {
                for (i, s) in self.state.seats.iter().enumerate() {
                    if let Some(u) = &s.user {
                        events.push(Event::Sat {
                            seat: Seat(i as u8),
                            user: u.clone(),
                        });
                    }
                }
            }
            events.extend(self.start_game(now)?);
        }
        Ok(events)
    }

    // ----- play -------------------------------------------------------------------

    /// A move. Refused, it changes nothing: it puts the clock back itself (the
    /// caller keeps no copy of the table for a move), the game's own refusal
    /// changes nothing ([`Game::act`]), and the game's verdict is checked before
    /// anything else changes.
    fn act(&mut self, user: &str, action: &str, lag: Millis, now: Millis) -> R {
        let seat = self.playing_seat(user)?;
        let game = self.game.as_ref().ok_or_else(no_game)?;
        match game.turn() {
            Turn::Seat(s) if s == seat => {}
            Turn::All(list) if list.contains(&seat) => {}
            Turn::Over => return refuse(K::NoGame, "the game is over"),
            _ => return refuse(K::NotYourTurn, "it is not your turn"),
        }
        let gs = self.state.game.as_mut().ok_or_else(no_game)?;
        // Charge the mover's clock first: a move made after the flag fell loses.
        let mover_clock = gs.clock.running().map(|r| r.seat) == Some(seat.index());
        let limit = gs.clock.limit_kind(seat.index());
        let clock_before = mover_clock.then(|| gs.clock.clone());
        if mover_clock && let Err(flag) = gs.clock.press(now, lag) {
            let seat = Seat(flag.seat as u8);
            let ended = self.end_by_table(seat, EndReason::Timeout, limit, now);
            // (Refused only for a verdict the table cannot take, before it
            // changed anything but the clock.)
            if ended.is_err()
                && let (Some(clock), Some(gs)) = (clock_before, self.state.game.as_mut())
            {
                gs.clock = clock;
            }
            return ended;
        }
        let game = self.game.as_mut().ok_or_else(no_game)?;
        let played = game
            .act(seat, action)
            .map_err(game_refusal)
            .and_then(|effects| {
                let outcome = game.outcome();
                match &outcome {
                    Some(o) => o
                        .check(self.seats_n)
                        .map_err(|e| TableRefusal::new(K::BadOutcome, format!("{}: {e}", G::NAME))),
                    None => Ok(()),
                }
                .map(|()| (effects, game.turn(), outcome))
            });
        let (effects, turn, outcome) = match played {
            Ok(played) => played,
            Err(refusal) => {
                if let Some(gs) = self.state.game.as_mut() {
                    if let Some(clock) = clock_before {
                        gs.clock = clock;
                    }
                    // A verdict the table cannot take is the game's bug, found
                    // after its move: the game as it was is played again.
                    if refusal.kind == K::BadOutcome
                        && let Some(options) = self.options.as_ref()
                        && let Ok(game) = qiyuan_game::replay::<G>(options, &gs.setup, &gs.played())
                    {
                        self.game = Some(game);
                    }
                }
                return Err(refusal);
            }
        };
        let gs = self.state.game.as_mut().ok_or_else(no_game)?;
        let clock_after = match gs.settings.time {
            TimeControl::None => None,
            _ => Some(gs.clock.remaining(seat.index(), now)),
        };
        let periods = match gs.settings.time {
            TimeControl::ByoYomi { .. } | TimeControl::Canadian { .. } => gs
                .clock
                .view(now)
                .seats
                .get(seat.index())
                .filter(|v| v.overtime)
                .map(|v| match gs.settings.time {
                    TimeControl::ByoYomi { .. } => v.periods,
                    _ => v.moves_left,
                }),
            _ => None,
        };
        gs.actions.push(ActionRecord {
            seat,
            action: effects.canonical.clone(),
            display: effects.display.clone(),
            at: now,
            clock: clock_after,
            periods,
        });
        gs.acted[seat.index()] = true;
        gs.takeback_blocked[seat.index()] = false;
        let mut events = Vec::new();
        if let Some(offer) = &gs.draw
            && offer.by != seat
        {
            gs.draw = None;
            events.push(Event::DrawDeclined { seat });
        }
        // Any action cancels a pending takeback request.
        if gs.takeback.take().is_some() {
            events.push(Event::TakebackDeclined { seat });
        }
        gs.turn_since = now;
        self.run_clock(&turn, now);
        events.insert(
            0,
            Event::Acted {
                seat,
                ply: self.ply() as u32,
                action: effects.canonical,
                display: effects.display,
                capture: effects.capture,
                check: effects.check,
                clock: self.clock_view(now).unwrap_or_else(|| empty_clock(now)),
            },
        );
        if let Some(outcome) = outcome {
            let rated = self.state.game.as_ref().is_some_and(|g| g.rated);
            events.extend(self.end(outcome, rated, now)?);
        }
        Ok(events)
    }

    /// Starts the clock of the seat to act, once every seat has made its first
    /// action (before that the first-move timer applies and no clock runs), or at
    /// once for a clock whose per-move limit (步时) governs the first moves too. No
    /// clock runs while several seats may act (Go's marking).
    fn run_clock(&mut self, turn: &Turn, now: Millis) {
        let Some(gs) = self.state.game.as_mut() else {
            return;
        };
        gs.clock.halt();
        // At a tournament table the clock runs from the round's start: an absent
        // player's time is used up while they are away (seed 002, 迟到).
        let limits_first_moves =
            gs.settings.time.per_move_limit().is_some() || self.config.tournament;
        if let Turn::Seat(s) = turn
            && (limits_first_moves || gs.acted.iter().all(|a| *a))
        {
            gs.clock.start(s.index(), now);
        }
    }

    fn ply(&self) -> usize {
        self.state.game.as_ref().map_or(0, |g| g.actions.len())
    }

    fn offer_draw(&mut self, user: &str) -> R {
        let seat = self.playing_seat(user)?;
        let game = self.game.as_ref().ok_or_else(no_game)?;
        let rule = game.draw_offers();
        let turn = game.turn();
        let gs = self.state.game.as_mut().ok_or_else(no_game)?;
        if gs.draw.is_some() {
            return refuse(K::NotAllowed, "a draw offer is standing");
        }
        let last_mover = gs.actions.last().map(|a| a.seat);
        let ply = gs.actions.len();
        match rule {
            DrawOffers::None => return refuse(K::NotAllowed, "no draws by agreement here"),
            DrawOffers::AfterOwnMove | DrawOffers::AlternatingAfterOwnMove => {
                if last_mover != Some(seat) {
                    return refuse(
                        K::NotAllowed,
                        "a draw is offered right after one's own move",
                    );
                }
            }
            DrawOffers::OnOwnTurn => {
                let mine = match &turn {
                    Turn::Seat(s) => *s == seat,
                    Turn::All(list) => list.contains(&seat),
                    Turn::Over => false,
                };
                if !mine {
                    return refuse(K::NotAllowed, "a draw is offered on one's own turn");
                }
            }
        }
        if rule == DrawOffers::AlternatingAfterOwnMove && gs.last_offer_by == Some(seat) {
            return refuse(
                K::TooSoon,
                "draw offers alternate: no second offer in a row",
            );
        }
        if gs.offered_at[seat.index()] == Some(ply) {
            return refuse(K::TooSoon, "one draw offer per move");
        }
        gs.offered_at[seat.index()] = Some(ply);
        gs.last_offer_by = Some(seat);
        gs.draw = Some(DrawOffer {
            by: seat,
            accepted: Vec::new(),
        });
        Ok(vec![Event::DrawOffered { seat }])
    }

    fn accept_draw(&mut self, user: &str, now: Millis) -> R {
        let seat = self.playing_seat(user)?;
        let n = self.seats_n as usize;
        let gs = self.state.game.as_mut().ok_or_else(no_game)?;
        let Some(offer) = gs.draw.as_mut().filter(|o| o.by != seat) else {
            return refuse(K::NothingToAnswer, "no draw offer to accept");
        };
        if !offer.accepted.contains(&seat) {
            offer.accepted.push(seat);
        }
        if offer.accepted.len() + 1 < n {
            return Ok(Vec::new());
        }
        let game = self.game.as_ref().ok_or_else(no_game)?;
        let outcome = game.agreed_draw();
        let rated = gs.rated;
        self.end(outcome, rated, now)
    }

    fn decline_draw(&mut self, user: &str) -> R {
        let seat = self.playing_seat(user)?;
        let gs = self.state.game.as_mut().ok_or_else(no_game)?;
        if gs.draw.as_ref().is_none_or(|o| o.by == seat) {
            return refuse(K::NothingToAnswer, "no draw offer to decline");
        }
        gs.draw = None;
        Ok(vec![Event::DrawDeclined { seat }])
    }

    fn request_takeback(&mut self, user: &str) -> R {
        let seat = self.playing_seat(user)?;
        let gs = self.state.game.as_mut().ok_or_else(no_game)?;
        if !gs.settings.takebacks {
            return refuse(K::NotAllowed, "takebacks are off in this game");
        }
        if gs.takeback.is_some() {
            return refuse(K::NotAllowed, "a takeback request is pending");
        }
        if gs.takeback_blocked[seat.index()] {
            return refuse(K::TooSoon, "your last request was declined: move first");
        }
        let Some(last) = gs.actions.iter().rposition(|a| a.seat == seat) else {
            return refuse(K::NotAllowed, "you have nothing to take back");
        };
        let plies = (gs.actions.len() - last) as u32;
        gs.takeback = Some(TakebackRequest {
            by: seat,
            plies,
            accepted: Vec::new(),
        });
        Ok(vec![Event::TakebackRequested { seat }])
    }

    fn accept_takeback(&mut self, user: &str, now: Millis) -> R {
        let seat = self.playing_seat(user)?;
        let n = self.seats_n as usize;
        let gs = self.state.game.as_mut().ok_or_else(no_game)?;
        let Some(req) = gs.takeback.as_mut().filter(|r| r.by != seat) else {
            return refuse(K::NothingToAnswer, "no takeback request to accept");
        };
        if !req.accepted.contains(&seat) {
            req.accepted.push(seat);
        }
        if req.accepted.len() + 1 < n {
            return Ok(Vec::new());
        }
        let plies = req.plies;
        gs.takeback = None;
        // The time used so far in this turn is charged, without increment; a seat
        // already out of time loses by the flag instead.
        let limit = gs.clock.running_seat().and_then(|s| gs.clock.limit_kind(s));
        if let Err(flag) = gs.clock.stop(now) {
            return self.end_by_table(Seat(flag.seat as u8), EndReason::Timeout, limit, now);
        }
        let keep = gs.actions.len() - plies as usize;
        gs.actions.truncate(keep);
        self.cuts += 1;
        let options = self.options.as_ref().ok_or_else(no_game)?;
        let game = qiyuan_game::replay::<G>(options, &gs.setup, &gs.played()).map_err(|e| {
            TableRefusal::new(K::NotAllowed, format!("the game does not replay: {e}"))
        })?;
        for (i, acted) in gs.acted.iter_mut().enumerate() {
            *acted = gs.actions.iter().any(|a| a.seat.index() == i);
        }
        gs.draw = None;
        gs.turn_since = now;
        let turn = game.turn();
        self.game = Some(game);
        self.run_clock(&turn, now);
        Ok(vec![Event::TookBack {
            plies,
            clock: self.clock_view(now).unwrap_or_else(|| empty_clock(now)),
        }])
    }

    fn decline_takeback(&mut self, user: &str) -> R {
        let seat = self.playing_seat(user)?;
        let gs = self.state.game.as_mut().ok_or_else(no_game)?;
        let Some(req) = gs.takeback.take().filter(|r| r.by != seat) else {
            return refuse(K::NothingToAnswer, "no takeback request to decline");
        };
        gs.takeback_blocked[req.by.index()] = true;
        Ok(vec![Event::TakebackDeclined { seat }])
    }

    // ----- connections --------------------------------------------------------------

    fn disconnect(&mut self, user: &str, now: Millis) -> R {
        if self.state.spectators.remove(user) {
            return Ok(vec![Event::Unwatched { user: user.into() }]);
        }
        let seat = self.seated(user)?;
        if self.state.seats[seat.index()].absent_since.is_some() {
            return refuse(K::NotAllowed, "already disconnected");
        }
        self.state.seats[seat.index()].absent_since = Some(now);
        let deadline = self
            .absence_limit()
            .filter(|_| self.is_playing())
            .map(|g| now.saturating_add(g));
        Ok(vec![Event::Disconnected { seat, deadline }])
    }

    fn reconnect(&mut self, user: &str) -> R {
        let seat = self.seated(user)?;
        if self.state.seats[seat.index()].absent_since.take().is_none() {
            return refuse(K::NotAllowed, "not disconnected");
        }
        Ok(vec![Event::Reconnected { seat }])
    }

    fn leave(&mut self, user: &str, now: Millis) -> R {
        if self.state.spectators.remove(user) {
            return Ok(vec![Event::Unwatched { user: user.into() }]);
        }
        let seat = self.seated(user)?;
        let mut events = Vec::new();
        if self.is_playing() {
            events.extend(self.end_by_table(seat, EndReason::Escape, None, now)?);
        }
        events.extend(self.vacate(seat));
        Ok(events)
    }

    /// How long an absent seat may stay away before it loses the game (during a
    /// game) or its seat (between games); `None` when absence is not timed
    /// during a game: a correspondence game, unless the table sets a grace, and
    /// a table where the server plays for an away player (托管).
    pub(crate) fn absence_limit(&self) -> Option<Millis> {
        let correspondence = self
            .state
            .game
            .as_ref()
            .is_some_and(|g| matches!(g.settings.time, TimeControl::Correspondence { .. }));
        let played_for = self.config.trusteeship;
        if self.is_playing() && (played_for || correspondence && self.config.grace.is_none()) {
            None
        } else {
            Some(self.grace())
        }
    }

    /// When the seat to make its first move aborts (or, at a tournament table,
    /// loses) the game.
    pub fn first_move_deadline(&self) -> Option<Millis> {
        self.deadlines()
            .into_iter()
            .find(|(_, (_, timer))| *timer == Timer::FirstMove)
            .map(|(t, _)| t)
    }

    fn grace(&self) -> Millis {
        let time = self
            .state
            .game
            .as_ref()
            .map_or(self.state.proposal.settings.time, |g| g.settings.time);
        self.config.grace.unwrap_or_else(|| default_grace(&time))
    }

    fn first_move_time(&self, time: &TimeControl) -> Millis {
        self.config.first_move.unwrap_or(match time {
            TimeControl::Correspondence { days } => u64::from(*days) * DAY,
            _ => 30_000,
        })
    }

    fn restart(&mut self, down_since: Millis, now: Millis) -> Vec<Event> {
        let playing = self.is_playing();
        let mut events = Vec::new();
        if let Some(gs) = self.state.game.as_mut().filter(|_| playing) {
            gs.clock.credit_downtime(down_since, now);
            let down = now.saturating_sub(down_since.max(gs.turn_since));
            gs.turn_since += down;
        }
        let deadline = self
            .absence_limit()
            .filter(|_| playing)
            .map(|g| now.saturating_add(g));
        for (i, s) in self.state.seats.iter_mut().enumerate() {
            if s.user.is_some() {
                s.absent_since = Some(now);
                events.push(Event::Disconnected {
                    seat: Seat(i as u8),
                    deadline,
                });
            }
        }
        self.state.spectators.clear();
        self.watchers.clear();
        events.insert(
            0,
            Event::Resumed {
                clock: self.clock_view(now),
            },
        );
        events
    }

    /// [`Command::Credit`]: the interval `from..to` (clamped to `now`) is given
    /// back to the running clock and to the turn's timers.
    fn credit(&mut self, from: Millis, to: Millis, now: Millis) -> Vec<Event> {
        let to = to.min(now);
        if from >= to || !self.is_playing() {
            return Vec::new();
        }
        let Some(gs) = self.state.game.as_mut() else {
            return Vec::new();
        };
        gs.clock.credit_between(from, to);
        let down = to.saturating_sub(from.max(gs.turn_since));
        gs.turn_since += down;
        vec![Event::Resumed {
            clock: self.clock_view(now),
        }]
    }

    // ----- timers -----------------------------------------------------------------

    /// Every pending timer: when it falls due and which seat it ends the game
    /// against, with the reason.
    fn deadlines(&self) -> Vec<(Millis, (Seat, Timer))> {
        let mut out = Vec::new();
        let grace = self.grace();
        if !self.is_playing() {
            // Between games an absent player's seat is freed after the grace time,
            // so that a lost connection does not block the table.
            for (i, s) in self.state.seats.iter().enumerate() {
                if let Some(since) = s.absent_since {
                    out.push((since.saturating_add(grace), (Seat(i as u8), Timer::Vacate)));
                }
            }
            return out;
        }
        let Some(gs) = self.state.game.as_ref() else {
            return out;
        };
        if let (Some(t), Some(r)) = (gs.clock.flag_time(), gs.clock.running()) {
            out.push((t, (Seat(r.seat as u8), Timer::Flag)));
        }
        // A clock with a per-move limit (步时) runs from the first move and limits
        // it; only clocks without one leave the first moves to this timer.
        if let Some(Turn::Seat(s)) = self.game.as_ref().map(|g| g.turn())
            && !gs.acted[s.index()]
            && gs.settings.time.per_move_limit().is_none()
        {
            let t = gs
                .turn_since
                .saturating_add(self.first_move_time(&gs.settings.time));
            out.push((t, (s, Timer::FirstMove)));
        }
        // Nobody wins by escape while away too: if every seat is absent, the
        // clocks decide.
        let someone_here = self.state.seats.iter().any(|s| s.absent_since.is_none());
        for (i, s) in self.state.seats.iter().enumerate().filter(|_| someone_here) {
            if let (Some(since), Some(grace)) = (s.absent_since, self.absence_limit()) {
                out.push((since.saturating_add(grace), (Seat(i as u8), Timer::Escape)));
            }
        }
        out
    }

    /// Fires every timer due at `now`, earliest first; one may make another due
    /// (an escape ends the game, and the absent player's seat is then freed).
    fn fire(&mut self, now: Millis) -> Vec<Event> {
        let mut events = Vec::new();
        // Each timer that fires removes itself; the bound is only a safeguard.
        for _ in 0..16 {
            let fired = self.fire_one(now);
            if fired.is_empty() {
                break;
            }
            events.extend(fired);
        }
        events
    }

    fn fire_one(&mut self, now: Millis) -> Vec<Event> {
        let due = self
            .deadlines()
            .into_iter()
            .filter(|(t, _)| *t <= now)
            .min_by_key(|(t, (s, _))| (*t, *s));
        let Some((at, (seat, timer))) = due else {
            return Vec::new();
        };
        let ended = match timer {
            Timer::Flag => {
                let mut limit = None;
                if let Some(gs) = self.state.game.as_mut() {
                    limit = gs.clock.limit_kind(seat.index());
                    gs.clock.flag(now);
                }
                self.end_by_table(seat, EndReason::Timeout, limit, at)
            }
            Timer::FirstMove => {
                let ended = if self.config.tournament {
                    let outcome = self.conceded(seat, EndReason::Timeout);
                    self.end(outcome, false, at)
                } else {
                    Ok(self.abort_game(at))
                };
                self.set_end_detail(EndDetail::FirstMove);
                ended
            }
            Timer::Escape => self.end_by_table(seat, EndReason::Escape, None, at),
            Timer::Vacate => return self.vacate(seat),
        };
        // A timer cannot be refused: should the game concede with an outcome
        // that does not fit the table (a bug in the game), the game is aborted
        // rather than left with a timer that can never fire.
        ended.unwrap_or_else(|_| self.abort_game(at))
    }

    /// Ends the game without result (an abort always fits the table).
    fn abort_game(&mut self, now: Millis) -> Vec<Event> {
        let outcome = Outcome::aborted(self.seats_n);
        self.end(outcome, false, now).unwrap_or_default()
    }

    // ----- endings ----------------------------------------------------------------

    /// Whether the game may still end without counting: some seat has not acted.
    fn abortable(&self) -> bool {
        self.state
            .game
            .as_ref()
            .is_some_and(|g| g.acted.iter().any(|a| !a))
    }

    fn conceded(&self, seat: Seat, reason: EndReason) -> Outcome {
        match &self.game {
            Some(g) => g.conceded(seat, reason),
            None => Outcome::aborted(self.seats_n),
        }
    }

    /// Records how the game that just ended ended (if it has, and nothing said
    /// so already).
    fn set_end_detail(&mut self, detail: EndDetail) {
        if let Some(gs) = self.state.game.as_mut()
            && gs.outcome.is_some()
            && gs.end_detail.is_none()
        {
            gs.end_detail = Some(detail);
        }
    }

    /// `seat` loses for a reason decided at the table (`limit`: the time limit
    /// that ran out, for a timeout); before every seat has acted the game is
    /// aborted instead.
    fn end_by_table(
        &mut self,
        seat: Seat,
        reason: EndReason,
        limit: Option<qiyuan_clock::TimeLimit>,
        now: Millis,
    ) -> R {
        let events = self.end_by_table_inner(seat, reason, now)?;
        let counted = self
            .state
            .game
            .as_ref()
            .and_then(|g| g.outcome.as_ref())
            .is_some_and(|o| o.reason != EndReason::Aborted);
        match limit {
            _ if !counted => self.set_end_detail(EndDetail::NotCounted),
            Some(l) if reason == EndReason::Timeout => self.set_end_detail(l.into()),
            _ => {}
        }
        Ok(events)
    }

    fn end_by_table_inner(&mut self, seat: Seat, reason: EndReason, now: Millis) -> R {
        if self.abortable() {
            // A first move over its per-move limit (步时) is the first-move timer's
            // case: at a tournament table it loses, unrated, like a missed first
            // move; elsewhere the game does not count ("如果只有一方走了一步棋...
            // 那么分数将不会进行计算", seed 002).
            // Leaving (an escape) counts alike: a tournament game is lost, not void;
            // and so does a resignation, whatever the number of moves (a game
            // one side resigned is played and lost; only both absent is void).
            // Not rated: a player who has not moved played no rated game (FIDE).
            if matches!(
                reason,
                EndReason::Timeout | EndReason::Escape | EndReason::Resignation
            ) && self.config.tournament
            {
                let outcome = self.conceded(seat, reason);
                return self.end(outcome, false, now);
            }
            return Ok(self.abort_game(now));
        }
        let outcome = self.conceded(seat, reason);
        let rated = self.state.game.as_ref().is_some_and(|g| g.rated);
        self.end(outcome, rated, now)
    }

    /// Ends the game with `outcome`, which must fit the table (one result per
    /// seat, points for all or none): the boundary where a game's or an
    /// arbiter's outcome is checked. One that does not fit is refused
    /// ([`K::BadOutcome`]) and changes nothing.
    fn end(&mut self, outcome: Outcome, rated: bool, now: Millis) -> R {
        outcome
            .check(self.seats_n)
            .map_err(|e| TableRefusal::new(K::BadOutcome, format!("{}: {e}", G::NAME)))?;
        let rated = rated && !outcome.results.iter().all(|r| *r == SeatResult::Void);
        if let Some(gs) = self.state.game.as_mut() {
            gs.clock.halt();
            gs.draw = None;
            gs.takeback = None;
            gs.outcome = Some(outcome.clone());
            gs.rated = rated;
            gs.ended_at = Some(now);
        }
        self.state.status = Status::Over;
        for s in &mut self.state.seats {
            s.ready = false;
            s.rematch = false;
        }
        Ok(vec![Event::Ended { outcome, rated }])
    }

    // ----- helpers ----------------------------------------------------------------

    /// An arbiter's command about `seat` needs a game being played and the seat.
    fn arbiter_seat(&self, seat: Seat) -> Result<(), TableRefusal> {
        if !self.is_playing() {
            return refuse(K::NoGame, "no game is being played");
        }
        if seat.0 >= self.seats_n {
            return refuse(K::NoSuchSeat, format!("there is no {seat}"));
        }
        Ok(())
    }

    pub(crate) fn is_playing(&self) -> bool {
        self.state.status == Status::Playing
    }

    fn seated(&self, user: &str) -> R<Seat> {
        self.seat_of(user)
            .ok_or_else(|| TableRefusal::new(K::NotSeated, "you do not sit at this table"))
    }

    fn playing_seat(&self, user: &str) -> R<Seat> {
        let seat = self.seated(user)?;
        if !self.is_playing() {
            return refuse(K::NoGame, "no game is being played");
        }
        Ok(seat)
    }

    fn clear_rematch(&mut self) {
        for s in &mut self.state.seats {
            s.rematch = false;
        }
    }

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
    fn game_fingerprint(&self) -> Vec<String> {
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

/// Whether `settings` load a position or a record (读入) rather than start
/// from the game's standard setup.
fn loads_position(settings: &Settings) -> bool {
    matches!(settings.setup, Setup::Position(_))
}

fn view_json<G: Game>(game: &G, viewer: Viewer) -> String {
    serde_json::to_string(&game.view(viewer)).unwrap_or_else(|e| e.to_string())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Timer {
    Flag,
    FirstMove,
    Escape,
    Vacate,
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

/// The secret the settings are checked with before a game starts (a proposal, a
/// new table): the game built from it is thrown away, never played.
const TRIAL: Secret = Secret([0; 32]);

/// The setup game `number` starts from: the agreed one, or for a game that draws
/// randomness and a standard start, the secret on offer. Without one, a table
/// from before secrets deals from a seed derived from its `deal_seed` (as it
/// always did, so that its logs replay); any other table cannot start the game.
fn game_setup<G: Game>(
    settings: &Settings,
    config: &TableConfig,
    number: u32,
    secret: Option<Secret>,
) -> Result<Setup, String> {
    match (&settings.setup, secret, config.deal_seed) {
        (Setup::Standard, Some(secret), _) if G::RANDOM => Ok(Setup::Secret(secret)),
        (Setup::Standard, None, Some(seed)) if G::RANDOM => {
            Ok(Setup::Seed(splitmix(seed ^ u64::from(number))))
        }
        (Setup::Standard, None, None) if G::RANDOM => {
            Err("no secret to deal from: the server offers one with each command".into())
        }
        (setup, _, _) => Ok(setup.clone()),
    }
}

/// SplitMix64: spreads a legacy table seed into one seed per game.
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A game built from settings, with its options, the setup it started from and
/// the actions loaded from a record.
struct Built<G: Game> {
    game: G,
    options: G::Options,
    setup: Setup,
    preloaded: Vec<(Seat, String)>,
}

/// The settings' options as the game's own type: `null` is the defaults.
fn parse_options<G: Game>(settings: &Settings) -> Result<G::Options, SettingsError> {
    if settings.options.is_null() {
        return Ok(G::Options::default());
    }
    serde_json::from_value(settings.options.clone()).map_err(|e| SettingsError::Options {
        game: G::NAME,
        message: e.to_string(),
    })
}

fn build_game<G: Game>(
    settings: &Settings,
    options: &G::Options,
    config: &TableConfig,
    number: u32,
    secret: Option<Secret>,
) -> Result<Built<G>, String> {
    let options = options.clone();
    let setup = game_setup::<G>(settings, config, number, secret)?;
    let new_error = match G::new(&options, &setup) {
        Ok(game) => {
            return Ok(Built {
                game,
                options,
                setup,
                preloaded: Vec::new(),
            });
        }
        Err(e) => e.message,
    };
    // Not a position: perhaps a whole record (读入), to go on from its end.
    let Setup::Position(record) = &setup else {
        return Err(new_error);
    };
    let Ok((setup, actions)) = G::load(&options, record) else {
        return Err(new_error);
    };
    if setup.is_random() {
        return Err("a record cannot choose the deal".into());
    }
    let mut game = G::new(&options, &setup).map_err(|e| e.message)?;
    let mut preloaded = Vec::with_capacity(actions.len());
    for (i, action) in actions.into_iter().enumerate() {
        let Turn::Seat(seat) = game.turn() else {
            return Err(format!("the record goes on after move {i}"));
        };
        let effects = game
            .act(seat, &action)
            .map_err(|r| format!("move {} of the record: {r}", i + 1))?;
        preloaded.push((seat, effects.canonical));
    }
    if game.outcome().is_some() {
        return Err("the recorded game is already over".into());
    }
    Ok(Built {
        game,
        options,
        setup,
        preloaded,
    })
}
