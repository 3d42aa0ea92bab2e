//! Computer players (电脑) as seat occupants of live tables, for the games whose
//! registry entry has them (all four). This module knows no game: it reaches
//! the game through the table's hooks ([`AnyTable::bot_levels`],
//! [`AnyTable::bot_choice`]), which the registry fills in per game.
//!
//! A bot is a seated "user" whose id has the reserved form `bot:<level>-xxxxxx`
//! (`bot:strong-k3x9q2`, `bot:3-k3x9q2`; [`Occupant::Computer`] reads and writes
//! it): a colon can never be in an account's name, so no account can take or
//! impersonate one.
//! The table itself knows nothing of bots: the live table task (see
//! [`crate::live`]) asks this module, after every change, what the bots at the
//! table want to do, and applies it as commands from those users through the same
//! path as a player's (stored before broadcast).
//!
//! A bot chooses its action from its own seat's view only
//! ([`qiyuan_game::Game::view`] for its seat, the view a player at that seat
//! gets), never from the table's state or log, which hold the hand's deal secret.
//! Bots always accept the current settings and are ready, as long as a human sits
//! at the table (so that bots alone never play on forever), and come back at once
//! after a server restart.
//!
//! 托管 (games whose entry says so: Doudizhu): the computer plays a player's
//! seat, as them, while the table marks the seat `trustee` — handed over by
//! the player (`trusteeship.on`), or by the server ([`takeover`]) shortly
//! before the player's time for a turn runs out (unless the rules act for the
//! seat then: a missed bid is a pass) or once they have been away for
//! [`AWAY_TAKEOVER`] — until the player takes it back (`trusteeship.off`, or
//! any other command of theirs). A timeout no longer ends the hand, and a
//! player whose socket is replaced by another within [`AWAY_TAKEOVER`] (a
//! page that opens the table after the dialog that started it closed) is
//! never played for.
//!
//! Escape: the table ends a hand at once when a player leaves (being away is no
//! escape where the computer plays for the away player: the table's
//! `trusteeship`); the result stands as the rules set it and the hand does not
//! go on. For the next hand, the leaver's empty seat is taken by a bot, as long
//! as a human still sits at the table.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use qiyuan_game::{EndReason, Seat};
use qiyuan_table::{Command, Status, TimeControl};
use serde::Serialize;

use crate::error::ApiError;
use crate::live::Occupant;
use crate::registry::{AnyTable, BotChoice};

/// One strength of a game's computer players, as the protocol names it: the
/// game's registry entry lists them ([`crate::registry::ComputerPlayers::LEVELS`]),
/// and the operator's external engines add theirs (see [`crate::engines`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct BotLevel {
    /// The protocol's name (`basic`, `strong`, `1` … `8`, `stockfish`): letters,
    /// digits, `_` and `.`.
    pub key: Cow<'static, str>,
    pub zh: Cow<'static, str>,
    pub en: Cow<'static, str>,
    /// The external engine playing it, if it is one (its configured name).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
}

impl BotLevel {
    pub const fn builtin(key: &'static str, zh: &'static str, en: &'static str) -> Self {
        BotLevel {
            key: Cow::Borrowed(key),
            zh: Cow::Borrowed(zh),
            en: Cow::Borrowed(en),
            engine: None,
        }
    }
}

/// The eight levels of the alpha-beta and Go engines (`qiyuan_engine_core::LEVELS`,
/// `qiyuan_engine_go::Level`), keyed `1` (weakest) … `8`.
pub const ENGINE_LEVELS: &[BotLevel] = &[
    BotLevel::builtin("1", "1级 入门", "Level 1"),
    BotLevel::builtin("2", "2级", "Level 2"),
    BotLevel::builtin("3", "3级", "Level 3"),
    BotLevel::builtin("4", "4级", "Level 4"),
    BotLevel::builtin("5", "5级", "Level 5"),
    BotLevel::builtin("6", "6级", "Level 6"),
    BotLevel::builtin("7", "7级", "Level 7"),
    BotLevel::builtin("8", "8级 最强", "Level 8"),
];

/// Whether `key` can name a level (and so sit in a bot's user id).
pub fn valid_key(key: &str) -> bool {
    !key.is_empty()
        && key.len() <= 32
        && key
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'.')
}

/// Whether `user` is a bot.
pub fn is_bot(user: &str) -> bool {
    Occupant::of(user).is_computer()
}

/// The level key of a bot's user id (`bot:strong-k3x9q2` → `strong`).
pub fn level_of(user: &str) -> Option<&str> {
    match Occupant::of(user) {
        Occupant::Computer { level } => level,
        _ => None,
    }
}

/// A seat's occupant as records name it: an account by its name, a computer
/// player as 电脑 with its level's name (`电脑（高手）`, `电脑（3级）`), a hot-seat
/// stand-in as its owner at that seat (`amy（2号位）`: one person plays every seat),
/// never by its id; `levels` are the game's.
pub fn record_name(user: &str, levels: &[BotLevel]) -> String {
    if let Occupant::StandIn { seat, owner } = Occupant::of(user) {
        return format!("{owner}（{}号位）", seat.0 + 1);
    }
    let Some(key) = level_of(user) else {
        return user.to_string();
    };
    let level = match levels.iter().find(|l| l.key == key) {
        // The built-in levels' names carry a note after the level (`1级 入门`).
        Some(l) if key.bytes().all(|b| b.is_ascii_digit()) => {
            l.zh.split(' ').next().unwrap_or(&l.zh).to_string()
        }
        Some(l) => l.zh.to_string(),
        None => key.to_string(),
    };
    format!("电脑（{level}）")
}

/// The seats' marks that name computer players apart: 甲, 乙, 丙, … by seat.
const SEAT_MARKS: [&str; 8] = ["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛"];

/// The occupants of a game's seats (in seat order) as records name them
/// ([`record_name`]); where two computer players or more sit, each is named
/// apart by its seat's mark: 电脑（普通）乙, 电脑（普通）丙.
pub fn record_names(players: &[String], levels: &[BotLevel]) -> Vec<String> {
    let computers = players.iter().filter(|p| is_bot(p)).count();
    players
        .iter()
        .enumerate()
        .map(|(seat, p)| {
            let name = record_name(p, levels);
            match SEAT_MARKS.get(seat) {
                Some(mark) if computers > 1 && is_bot(p) => format!("{name}{mark}"),
                _ => name,
            }
        })
        .collect()
}

/// A new bot user id of the level `key`: `bot:strong-k3x9q2`. The random tail
/// keeps two bots of the same level at one table apart.
pub fn new_name(key: &str) -> String {
    use rand::Rng;
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let mut rng = rand::thread_rng();
    let tail: String = (0..6)
        .map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())] as char)
        .collect();
    Occupant::computer_name(key, &tail)
}

/// Whether the games at this table can have bots.
pub fn plays(table: &dyn AnyTable) -> bool {
    !table.bot_levels().is_empty()
}

/// `add_bot`: the bot's `sit`, if `user` may seat a bot now (see [`may_change`]).
/// `levels` are the game's levels (its registry entry's and the operator's
/// engines'); none named means the first. The seat itself is checked by the
/// table's `sit`.
pub fn add(
    table: &dyn AnyTable,
    levels: &[BotLevel],
    user: &str,
    seat: Seat,
    level: Option<&str>,
) -> Result<Command, ApiError> {
    may_change(table, user)?;
    let level = match level {
        None => levels.first(),
        Some(key) => levels.iter().find(|l| l.key == key),
    }
    .ok_or_else(|| {
        let known: Vec<&str> = levels.iter().map(|l| l.key.as_ref()).collect();
        ApiError::bad_request(
            "bad_message",
            format!(
                "no computer player {:?} for {}; its levels are {}",
                level.unwrap_or_default(),
                table.game_name(),
                known.join(", ")
            ),
        )
    })?;
    Ok(Command::Sit {
        user: new_name(&level.key),
        seat,
    })
}

/// `remove_bot`: the bot's `stand`, if `user` may change the bots now and a bot
/// sits at `seat`.
pub fn remove(table: &dyn AnyTable, user: &str, seat: Seat) -> Result<Command, ApiError> {
    may_change(table, user)?;
    let bot = table
        .state()
        .seats
        .get(seat.index())
        .and_then(|s| s.user.clone())
        .filter(|u| is_bot(u))
        .ok_or_else(|| {
            ApiError::bad_request(
                "no_bot",
                format!("no computer player sits at seat {}", seat.0),
            )
        })?;
    Ok(Command::Stand { user: bot })
}

/// Checks that `user` may add or remove bots now: a table of a game with
/// computer players, between games, and `user` seated at it.
pub fn may_change(table: &dyn AnyTable, user: &str) -> Result<(), ApiError> {
    if !plays(table) {
        return Err(ApiError::bad_request(
            "no_bots",
            format!("there are no computer players for {}", table.game_name()),
        ));
    }
    if table.seat_of(user).is_none() {
        return Err(ApiError::forbidden(
            "not_seated",
            "only a player seated at the table may add a computer player",
        ));
    }
    if table.state().status == Status::Playing {
        return Err(ApiError::forbidden(
            "game_in_progress",
            "computer players are added between games",
        ));
    }
    Ok(())
}

fn human_seated(table: &dyn AnyTable) -> bool {
    table
        .state()
        .seats
        .iter()
        .any(|s| s.user.as_deref().is_some_and(|u| !is_bot(u)))
}

/// A bot resigns once this many of its evaluations in a row are hopeless.
pub const RESIGN_AFTER: usize = 4;
/// Hopeless: an expected score (0 lost … 1 won) below this, about −6 pawns in
/// chess, a rook and more in xiangqi, a Go win rate under 3%.
pub const RESIGN_BELOW: f32 = 0.03;
/// A bot accepts a draw offer when its expected score is at most this (it is not
/// better, about +0.35 pawns at most), and declines otherwise, or when it has not
/// judged the game yet.
pub const DRAW_ACCEPT_BELOW: f32 = 0.55;

/// What the bots at one table remember between moves: their evaluations in the
/// current game (for resigning and for answering draw offers). Held by the live
/// table task; lost with it, which costs only a few moves' patience.
#[derive(Debug, Default)]
pub struct Memory {
    /// By bot: the game number and the bot's evaluations in it, oldest first.
    evals: HashMap<String, (u32, Vec<f32>)>,
}

impl Memory {
    fn record(&mut self, user: &str, game: u32, eval: f32) {
        let entry = self.evals.entry(user.to_string()).or_default();
        if entry.0 != game {
            *entry = (game, Vec::new());
        }
        entry.1.push(eval);
    }

    fn evals(&self, user: &str, game: u32) -> &[f32] {
        match self.evals.get(user) {
            Some((g, evals)) if *g == game => evals,
            _ => &[],
        }
    }

    /// The bot's latest evaluation in game `game`.
    pub fn last(&self, user: &str, game: u32) -> Option<f32> {
        self.evals(user, game).last().copied()
    }

    /// Whether the bot's last [`RESIGN_AFTER`] evaluations were all hopeless.
    pub fn hopeless(&self, user: &str, game: u32) -> bool {
        let evals = self.evals(user, game);
        evals.len() >= RESIGN_AFTER
            && evals[evals.len() - RESIGN_AFTER..]
                .iter()
                .all(|&e| e < RESIGN_BELOW)
    }
}

/// The bookkeeping the bots want now, at once and in order: coming back after a
/// restart, answering a takeback request or a draw offer, taking an escaped
/// player's empty seat, and being ready for the next game. Empty when there is
/// nothing to do. The task applies these one at a time and asks again, so each
/// command sees the table as the last one left it.
pub fn chore(table: &dyn AnyTable, memory: &Memory) -> Option<Command> {
    if !plays(table) {
        return None;
    }
    let state = table.state();
    // Bots never disconnect; a restart marks every seat absent.
    for s in &state.seats {
        if let Some(user) = s.user.as_deref().filter(|u| is_bot(u))
            && s.absent_since.is_some()
        {
            return Some(Command::Reconnect { user: user.into() });
        }
    }
    if state.status == Status::Playing
        && let Some(game) = &state.game
    {
        let bot_at = |seat: Seat| {
            state
                .seats
                .get(seat.index())
                .and_then(|s| s.user.clone())
                .filter(|u| is_bot(u))
        };
        // A takeback is granted in a casual game and refused in a rated one.
        if let Some(request) = &game.takeback {
            for i in 0..state.seats.len() {
                let seat = Seat(i as u8);
                if let Some(user) = bot_at(seat)
                    && seat != request.by
                    && !request.accepted.contains(&seat)
                {
                    return Some(if game.rated {
                        Command::DeclineTakeback { user }
                    } else {
                        Command::AcceptTakeback { user }
                    });
                }
            }
        }
        // A draw offer is answered by the bot's latest evaluation.
        if let Some(offer) = &game.draw {
            for i in 0..state.seats.len() {
                let seat = Seat(i as u8);
                if let Some(user) = bot_at(seat)
                    && seat != offer.by
                    && !offer.accepted.contains(&seat)
                {
                    let content = memory
                        .last(&user, game.number)
                        .is_some_and(|e| e <= DRAW_ACCEPT_BELOW);
                    return Some(if content {
                        Command::AcceptDraw { user }
                    } else {
                        Command::DeclineDraw { user }
                    });
                }
            }
        }
    }
    if state.status == Status::Playing || !human_seated(table) {
        return None;
    }
    // Escape takeover: the last game ended by escape; its empty seats get a bot,
    // each once (a bot taken off again with `remove_bot` is not put back).
    let escaped_at = state
        .game
        .as_ref()
        .filter(|g| {
            g.outcome
                .as_ref()
                .is_some_and(|o| o.reason == EndReason::Escape)
        })
        .and_then(|g| g.ended_at);
    // A seat a bot has sat at since the end (and maybe was taken off) is done.
    let taken_over = |end: u64, seat: Seat| {
        table.log().iter().rev().take_while(|e| e.at >= end).any(
            |e| matches!(&e.command, Command::Sit { user, seat: s } if is_bot(user) && *s == seat),
        )
    };
    if state.status == Status::Over
        && let Some(end) = escaped_at
    {
        let free = (0..state.seats.len())
            .map(|i| Seat(i as u8))
            .find(|&seat| state.seats[seat.index()].user.is_none() && !taken_over(end, seat));
        if let Some(seat) = free
            && let Some(level) = strongest(table)
        {
            return Some(Command::Sit {
                user: new_name(&level),
                seat,
            });
        }
    }
    // A rematch (再来一局) asked for by a player is agreed to.
    let rematch = state.status == Status::Over && state.seats.iter().any(|s| s.rematch);
    for s in &state.seats {
        if let Some(user) = s.user.as_deref().filter(|u| is_bot(u))
            && rematch
            && !s.rematch
        {
            return Some(Command::Rematch { user: user.into() });
        }
    }
    for s in &state.seats {
        if let Some(user) = s.user.as_deref().filter(|u| is_bot(u))
            && !s.ready
        {
            return Some(Command::Ready {
                user: user.into(),
                proposal: Some(state.proposal.id),
            });
        }
    }
    None
}

/// The level for a bot taking an escaped seat: the strongest built-in level
/// already at the table (a table that chose strong bots gets a strong one),
/// else the game's first.
fn strongest(table: &dyn AnyTable) -> Option<String> {
    let levels = table.bot_levels();
    let rank = |key: &str| levels.iter().position(|l| l.key == key);
    table
        .state()
        .seats
        .iter()
        .filter_map(|s| s.user.as_deref().and_then(level_of))
        .filter_map(rank)
        .max()
        .or((!levels.is_empty()).then_some(0))
        .map(|i| levels[i].key.to_string())
}

/// What a computer player is asked when it is its turn: its level, a seed for
/// its randomness, its clock, and a stop flag its caller sets at the latest
/// moment it may answer.
#[derive(Debug, Clone)]
pub struct Ask {
    /// The level key (`3`, `strong`).
    pub level: String,
    pub seed: u64,
    /// Until the seat's flag falls if it does not move; `None` without a clock.
    pub time_left: Option<Duration>,
    /// What a move adds to the clock (Fischer), else zero.
    pub increment: Duration,
    /// The server's cap on one move's think, whatever the level and clock
    /// (`bot_move_max_ms`).
    pub cap: Duration,
    pub stop: Arc<AtomicBool>,
}

/// A move's think when there is no clock and the level has no cap of its own.
pub const NO_CLOCK_THINK: Duration = Duration::from_secs(2);
/// The least a move is given.
const MIN_THINK: Duration = Duration::from_millis(10);

impl Ask {
    /// The time this move may take for a level whose cap is `cap` (`None`: only
    /// the clock): a thirtieth of the time left and ¾ of the increment, never
    /// more than a third of the time left, nor the server's cap.
    pub fn allot(&self, cap: Option<Duration>) -> Duration {
        let cap = Some(cap.map_or(self.cap, |c| c.min(self.cap)));
        let clock = self
            .time_left
            .map(|left| (left / 30 + self.increment * 3 / 4).min(left / 3));
        let t = match (cap, clock) {
            (Some(c), Some(k)) => c.min(k),
            (Some(c), None) => c,
            (None, Some(k)) => k,
            (None, None) => NO_CLOCK_THINK,
        };
        t.max(MIN_THINK)
    }

    /// Runs `search` with the stop flag set, at the latest, after `limit`.
    pub fn bounded<T>(&self, limit: Duration, search: impl FnOnce(&AtomicBool) -> T) -> T {
        let (done, wait) = std::sync::mpsc::channel::<()>();
        std::thread::scope(|scope| {
            let stop = &*self.stop;
            scope.spawn(move || {
                // Wakes at the deadline, or early when the search ends and drops `done`.
                if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(limit) {
                    stop.store(true, Ordering::Relaxed);
                }
            });
            let result = search(stop);
            drop(done);
            result
        })
    }
}

/// What a computer player decided.
#[derive(Debug, Clone, PartialEq)]
pub enum Decision {
    /// An action in the game's notation.
    Act(String),
    Resign,
}

/// A computer player's decision, with its evaluation of the game when it has one:
/// its expected score, 0 (lost) … 1 (won).
#[derive(Debug, Clone, PartialEq)]
pub struct Thought {
    pub decision: Decision,
    pub eval: Option<f32>,
}

impl Thought {
    pub fn act(action: String) -> Thought {
        Thought {
            decision: Decision::Act(action),
            eval: None,
        }
    }
}

/// The bot whose turn it is, as the live task knows it.
#[derive(Debug, Clone)]
pub struct Bot {
    pub user: String,
    pub level: String,
    pub seat: Seat,
    /// The game's number at the table (what its evaluations belong to).
    pub game: u32,
    pub time_left: Option<Duration>,
    pub increment: Duration,
}

impl Bot {
    /// What this bot is asked, with a fresh stop flag; `cap`: the server's
    /// longest think for one move.
    pub fn ask(&self, seed: u64, cap: Duration) -> Ask {
        Ask {
            level: self.level.clone(),
            seed,
            time_left: self.time_left,
            increment: self.increment,
            cap,
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    /// How long it waits before it starts thinking: the configured pause, but
    /// never more than a fiftieth of its time left (a bot does not lose on time
    /// by pausing).
    pub fn pause(&self, configured: Duration) -> Duration {
        match self.time_left {
            Some(left) => configured.min(left / 50),
            None => configured,
        }
    }

    /// The latest its caller lets a search run before setting the stop flag: a
    /// backstop behind each computer player's own limit.
    pub fn backstop(&self) -> Duration {
        match self.time_left {
            Some(left) => (left / 2).max(MIN_THINK),
            None => NO_CLOCK_THINK * 10,
        }
    }

    /// The command for this bot's thought: its action, or its resignation when
    /// it resigned or has judged the game hopeless [`RESIGN_AFTER`] times in a
    /// row. Remembers the evaluation.
    pub fn command(&self, thought: Thought, memory: &mut Memory) -> Command {
        if let Some(eval) = thought.eval {
            memory.record(&self.user, self.game, eval);
        }
        let resign = thought.decision == Decision::Resign
            || (thought.eval.is_some() && memory.hopeless(&self.user, self.game));
        match thought.decision {
            Decision::Act(action) if !resign => Command::Act {
                user: self.user.clone(),
                action,
                lag: 0,
            },
            _ => Command::Resign {
                user: self.user.clone(),
            },
        }
    }
}

/// A bot whose turn it is, and its choice still to make (from what its seat
/// sees).
pub struct Turn {
    pub bot: Bot,
    pub choice: BotChoice,
}

/// The bot to act now, if the seat to act in a game being played is a bot's;
/// in a game with 托管 (`trusteeship`), also a player's whom the computer plays
/// for (the seat is marked `trustee`). Such a seat is played at the game's
/// first level, as its user. `now` is the table's time (for the clock).
pub fn turn(table: &dyn AnyTable, now: u64, trusteeship: bool) -> Option<Turn> {
    if !plays(table) || table.state().status != Status::Playing {
        return None;
    }
    let game = table.state().game.as_ref()?;
    for (i, s) in table.state().seats.iter().enumerate() {
        let Some(user) = s.user.as_deref() else {
            continue;
        };
        let level = if is_bot(user) {
            level_of(user).unwrap_or_default().to_string()
        } else if trusteeship && s.trustee {
            table.bot_levels().first()?.key.to_string()
        } else {
            continue;
        };
        let seat = Seat(i as u8);
        if let Some(choice) = table.bot_choice(seat) {
            let clock = &game.clock;
            let time_left = match (clock.running_seat(), clock.flag_time()) {
                (Some(r), Some(flag)) if r == seat.index() => {
                    Some(Duration::from_millis(flag.saturating_sub(now)))
                }
                _ => None,
            };
            let increment = match clock.control() {
                TimeControl::Fischer { increment, .. } => Duration::from_millis(*increment),
                _ => Duration::ZERO,
            };
            return Some(Turn {
                bot: Bot {
                    user: user.to_string(),
                    level,
                    seat,
                    game: game.number,
                    time_left,
                    increment,
                },
                choice,
            });
        }
    }
    None
}

/// How long before a player's flag would fall the computer takes over (托管).
pub const RESCUE_MARGIN: u64 = 1_000;

/// How long a player may be away during a game before the computer plays for
/// them (托管), at most: long enough for a page to hand the table over to the
/// next (the 人机对弈 dialog's socket closes before the table page's opens) or
/// a dropped connection to come back, short enough that the others do not
/// wait long on an absent player. An operator's shorter grace for absence
/// (`escape_grace_secs`) shortens it.
pub const AWAY_TAKEOVER: u64 = 10_000;

/// In a game with 托管, the next player the computer takes over (not a bot,
/// not yet played for) and when, on the table's time: the player to act
/// shortly before their flag would fall — unless the rules act for them then
/// (a missed bid is a pass) —, so that a timeout never ends the hand; and a
/// player away for [`AWAY_TAKEOVER`] (or the table's shorter grace for
/// absence). The earliest of these.
pub fn takeover(table: &dyn AnyTable) -> Option<(String, u64)> {
    if !plays(table) || table.state().status != Status::Playing {
        return None;
    }
    let state = table.state();
    let person = |seat: usize| {
        state
            .seats
            .get(seat)
            .filter(|s| !s.trustee)
            .and_then(|s| s.user.as_deref())
            .filter(|u| !is_bot(u))
    };
    let game = state.game.as_ref()?;
    let clock = &game.clock;
    let grace = table
        .config()
        .grace
        .unwrap_or_else(|| qiyuan_table::default_grace(&game.settings.time));
    let away_for = AWAY_TAKEOVER.min(grace);
    let flag = clock.running_seat().and_then(|seat| {
        let user = person(seat)?;
        if table.acts_on_time_out(Seat(seat as u8)) {
            return None;
        }
        let at = clock.flag_time()?.saturating_sub(RESCUE_MARGIN);
        Some((user.to_string(), at))
    });
    let away = (0..state.seats.len()).filter_map(|seat| {
        let user = person(seat)?;
        let since = state.seats[seat].absent_since?;
        Some((user.to_string(), since.saturating_add(away_for)))
    });
    flag.into_iter().chain(away).min_by_key(|(_, at)| *at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bot_names_are_never_account_names() {
        for level in ["basic", "strong", "1", "8", "stockfish.3"] {
            let name = new_name(level);
            assert!(is_bot(&name));
            assert_eq!(level_of(&name), Some(level));
            assert!(crate::auth::validate_username(&name).is_err(), "{name}");
        }
        assert!(!is_bot("botany"));
        assert_eq!(level_of("bot:Weird-abc"), None);
        assert_eq!(record_name("bot:3-k3x9q2", ENGINE_LEVELS), "电脑（3级）");
        assert_eq!(record_name("bot:1-k3x9q2", ENGINE_LEVELS), "电脑（1级）");
        assert_eq!(record_name("bot:x.y-k3x9q2", ENGINE_LEVELS), "电脑（x.y）");
        assert_eq!(record_name("alice", ENGINE_LEVELS), "alice");
        let stand_in = Occupant::stand_in_name("amy", Seat(1));
        assert_eq!(record_name(&stand_in, ENGINE_LEVELS), "amy（2号位）");
        assert_eq!(level_of("bot:nodash"), None);
    }

    #[test]
    fn computer_players_at_one_table_are_named_apart() {
        let levels = &[BotLevel::builtin("basic", "普通", "Basic")];
        let names = |p: &[&str]| {
            let p: Vec<String> = p.iter().map(|s| s.to_string()).collect();
            record_names(&p, levels)
        };
        assert_eq!(
            names(&["alice", "bot:basic-aaaaaa", "bot:basic-bbbbbb"]),
            ["alice", "电脑（普通）乙", "电脑（普通）丙"]
        );
        // One computer player needs no mark.
        assert_eq!(
            names(&["bot:basic-aaaaaa", "alice", "bob"]),
            ["电脑（普通）", "alice", "bob"]
        );
    }
}
