//! External engines as computer players: the programs the operator configures
//! (`[[engines]]` in the config file: Stockfish, Fairy-Stockfish, GNU Go, ...),
//! each run in processes of its own and spoken to in its protocol ([`uci`] for
//! UCI and UCCI, [`gtp`] for GTP).
//!
//! Each engine keeps a small pool of processes (`processes` in its config, 2 by
//! default), started when first needed. A move is one request: the whole game is
//! sent each time (`position … moves …`, or `clear_board` and the moves), so any
//! idle process can answer for any table, and a restarted one knows as much as
//! the one it replaces.
//!
//! Nothing an engine does can stall the server: a request waits at most for its
//! move's time plus `grace_ms` (then `stop`, then the process is killed), every
//! read is under that deadline, and a process that died or garbled its answer is
//! dropped. A request that fails on a process is tried once more on a fresh one
//! (an engine killed mid-game is restarted, and the game goes on); if that fails
//! too, or every process is busy past the deadline, the live table falls back to
//! the game's built-in computer player for that move (see [`crate::live`]).
//!
//! Every process is watched by a task of its own ([`process`]): one that dies
//! while idle (killed, crashed) is reaped at once, counted as a crash (shown in
//! `/metrics` as `qiyuan_engine_crashes_total`) and left out of the pool, and a
//! fresh one is started when the engine is next needed. An analysis that fails
//! on a process before it said anything is tried once more on a fresh one.

pub mod gtp;
mod process;
pub mod uci;

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Deserialize;
use tokio::sync::Semaphore;

use crate::bots::{BotLevel, Decision, Thought, valid_key};

/// How long an engine that could not be started is left alone.
const DOWN_FOR: Duration = Duration::from_secs(30);

/// How an external engine is spoken to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Protocol {
    /// The Universal Chess Interface (Stockfish; Fairy-Stockfish for xiangqi with
    /// `UCI_Variant xiangqi`).
    Uci,
    /// The Universal Chinese Chess Protocol (ICCS coordinates).
    Ucci,
    /// The Go Text Protocol (GNU Go, KataGo).
    Gtp,
}

/// A game as an external engine is told it (the game's registry entry makes it
/// from a seat's view: [`crate::registry::ComputerPlayers::engine_position`]).
#[derive(Debug, Clone)]
pub enum EnginePosition {
    /// UCI and UCCI: the UCI variant (`UCI_Variant`, set when it changes), the
    /// start (`None`: the standard one) and the moves in the engine's
    /// coordinates; `to_game` turns the engine's move into the game's notation.
    Uci {
        variant: Option<&'static str>,
        fen: Option<String>,
        moves: Vec<String>,
        to_game: fn(&str) -> Option<String>,
    },
    /// GTP: the board size, komi, every stone and move so far (handicap stones
    /// first) as (black?, vertex or `pass`), and whose move it is.
    Gtp {
        size: u8,
        komi: f64,
        moves: Vec<(bool, String)>,
        black_to_move: bool,
    },
}

/// One external engine, as the operator configures it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineConfig {
    /// Its name: the level key players choose (`stockfish`), and the prefix of
    /// its levels' keys (`stockfish.1`). Lowercase letters, digits and `_`.
    pub name: String,
    /// The program.
    pub path: std::path::PathBuf,
    #[serde(default)]
    pub args: Vec<String>,
    pub protocol: Protocol,
    /// The games it plays (`chess`, `xiangqi`, `go`): each must be hosted here
    /// and have built-in computer players (its fallback).
    pub games: Vec<String>,
    /// Options set once the process starts: UCI/UCCI `setoption`, GTP commands
    /// (`level = 1` sends `level 1`).
    #[serde(default)]
    pub options: BTreeMap<String, toml::Value>,
    /// Its levels, each with options of its own; none: one level, the engine's
    /// name.
    #[serde(default)]
    pub levels: Vec<EngineLevel>,
    /// The longest a move may think, in milliseconds (the clock may give less).
    #[serde(default = "default_movetime")]
    pub movetime_ms: u64,
    /// How much longer than a move's time the engine may take to answer before
    /// it is stopped, and then killed.
    #[serde(default = "default_grace")]
    pub grace_ms: u64,
    /// How long a new process may take to say it is ready, in milliseconds.
    #[serde(default = "default_startup")]
    pub startup_ms: u64,
    /// Processes of this engine at once (moves beyond wait, within their time).
    #[serde(default = "default_processes")]
    pub processes: usize,
    /// Its names as the lobby shows them.
    #[serde(default)]
    pub zh: Option<String>,
    #[serde(default)]
    pub en: Option<String>,
}

/// One level of an external engine.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineLevel {
    /// The level's name, the key's tail (`stockfish.1`).
    pub name: String,
    #[serde(default)]
    pub options: BTreeMap<String, toml::Value>,
    /// The longest a move may think at this level (default: the engine's).
    #[serde(default)]
    pub movetime_ms: Option<u64>,
    /// UCI/UCCI: the deepest search, in plies.
    #[serde(default)]
    pub depth: Option<u32>,
}

fn default_movetime() -> u64 {
    1_000
}
fn default_grace() -> u64 {
    2_000
}
fn default_startup() -> u64 {
    10_000
}
fn default_processes() -> usize {
    2
}

/// An option's value as the protocols write it.
pub fn option_text(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

impl EngineConfig {
    /// Refuses an engine that cannot work, naming it.
    pub fn check(&self) -> anyhow::Result<()> {
        if !valid_key(&self.name) || self.name.contains('.') {
            anyhow::bail!(
                "engines: the name {:?} must be lowercase letters, digits and _",
                self.name
            );
        }
        if self.games.is_empty() {
            anyhow::bail!("engines: {} plays no game (games = [...])", self.name);
        }
        if self.processes == 0 {
            anyhow::bail!("engines: {} needs processes of at least 1", self.name);
        }
        for l in &self.levels {
            if !valid_key(&l.name) || l.name.contains('.') {
                anyhow::bail!(
                    "engines: {} has a level named {:?}: use lowercase letters, digits and _",
                    self.name,
                    l.name
                );
            }
        }
        Ok(())
    }

    /// The level keys it offers, with their settings.
    fn keys(&self) -> Vec<(String, Option<&EngineLevel>)> {
        if self.levels.is_empty() {
            vec![(self.name.clone(), None)]
        } else {
            self.levels
                .iter()
                .map(|l| (format!("{}.{}", self.name, l.name), Some(l)))
                .collect()
        }
    }
}

/// Why an engine gave no move.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("cannot start {0}: {1}")]
    Spawn(String, std::io::Error),
    #[error("the engine's pipe failed: {0}")]
    Io(#[from] std::io::Error),
    #[error("the engine closed its output")]
    Closed,
    #[error("the engine did not answer in time")]
    Timeout,
    #[error("the engine said {0:?}")]
    Refused(String),
    #[error("the engine's move {0:?} is not one the game knows")]
    BadMove(String),
    #[error("the engine plays no such game here")]
    NoPosition,
    #[error("the engine could not be started lately; it is tried again later")]
    Down,
    #[error("the engine's processes are playing at tables now; try again later")]
    Busy,
}

/// A running engine process: its pipes, in the protocol's client.
enum Process {
    Uci(uci::Client),
    Gtp(gtp::Client),
}

impl Process {
    fn pid(&self) -> Option<u32> {
        match self {
            Process::Uci(c) => c.pid(),
            Process::Gtp(c) => c.pid(),
        }
    }

    fn alive(&self) -> bool {
        match self {
            Process::Uci(c) => c.alive(),
            Process::Gtp(c) => c.alive(),
        }
    }
}

/// What `/metrics` shows of one engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineFigures {
    pub name: String,
    /// Processes started since the server started.
    pub started: u64,
    /// Processes that exited without being asked to (killed, crashed).
    pub crashed: u64,
    /// Processes running now.
    pub running: usize,
}

/// One configured engine and its pool of processes.
struct Engine {
    config: EngineConfig,
    /// Idle processes, ready for a request.
    idle: Mutex<Vec<Process>>,
    /// One permit per process that may run at once.
    permits: Semaphore,
    /// The pids of its live processes (idle or busy), for the operator and tests
    /// (shared with the processes' watchers, which take out a dead one's).
    pids: Arc<Mutex<Vec<u32>>>,
    /// Moves it has answered.
    served: std::sync::atomic::AtomicU64,
    /// Processes started.
    started: std::sync::atomic::AtomicU64,
    /// Processes that died unasked (shared with their watchers).
    crashed: Arc<std::sync::atomic::AtomicU64>,
    /// Until when it is not asked, after it could not be started: each move
    /// goes to the built-in player at once rather than wait for a start that
    /// fails again.
    down_until: Mutex<Option<tokio::time::Instant>>,
}

/// The operator's engines, by level key.
#[derive(Default)]
pub struct Engines {
    levels: HashMap<String, (Arc<Engine>, Option<EngineLevel>)>,
    engines: Vec<Arc<Engine>>,
}

/// A move asked of an engine.
pub struct Request {
    pub position: EnginePosition,
    /// The time the move may take (the engine's or level's limit applies too).
    pub movetime: Duration,
}

impl Engines {
    pub fn new(configs: &[EngineConfig]) -> Engines {
        let mut out = Engines::default();
        for c in configs {
            let engine = Arc::new(Engine {
                config: c.clone(),
                idle: Mutex::new(Vec::new()),
                permits: Semaphore::new(c.processes),
                pids: Default::default(),
                served: Default::default(),
                started: Default::default(),
                crashed: Default::default(),
                down_until: Mutex::new(None),
            });
            for (key, level) in c.keys() {
                out.levels.insert(key, (engine.clone(), level.cloned()));
            }
            out.engines.push(engine);
        }
        out
    }

    /// The levels the engines add to `game`, in the configured order.
    pub fn levels_for(configs: &[EngineConfig], game: &str) -> Vec<BotLevel> {
        configs
            .iter()
            .filter(|c| c.games.iter().any(|g| g == game))
            .flat_map(|c| {
                c.keys().into_iter().map(move |(key, level)| {
                    let label = |name: &Option<String>| {
                        let base = name.clone().unwrap_or_else(|| c.name.clone());
                        match level {
                            Some(l) => format!("{base} {}", l.name),
                            None => base,
                        }
                    };
                    BotLevel {
                        key: key.into(),
                        zh: label(&c.zh).into(),
                        en: label(&c.en).into(),
                        engine: Some(c.name.clone()),
                    }
                })
            })
            .collect()
    }

    /// Whether `key` is an external engine's level.
    pub fn has(&self, key: &str) -> bool {
        self.levels.contains_key(key)
    }

    /// The protocol of the engine playing level `key`.
    pub fn protocol(&self, key: &str) -> Option<Protocol> {
        self.levels.get(key).map(|(e, _)| e.config.protocol)
    }

    /// The pids of the processes of the engine called `name` now running.
    pub fn pids(&self, name: &str) -> Vec<u32> {
        self.engines
            .iter()
            .filter(|e| e.config.name == name)
            .flat_map(|e| lock(&e.pids).clone())
            .collect()
    }

    /// Each engine's processes started, crashed and running, for `/metrics`.
    pub fn figures(&self) -> Vec<EngineFigures> {
        use std::sync::atomic::Ordering::Relaxed;
        self.engines
            .iter()
            .map(|e| EngineFigures {
                name: e.config.name.clone(),
                started: e.started.load(Relaxed),
                crashed: e.crashed.load(Relaxed),
                running: lock(&e.pids).len(),
            })
            .collect()
    }

    /// How many moves the engine called `name` has answered.
    pub fn served(&self, name: &str) -> u64 {
        self.engines
            .iter()
            .filter(|e| e.config.name == name)
            .map(|e| e.served.load(std::sync::atomic::Ordering::Relaxed))
            .sum()
    }

    /// The move of the engine playing level `key`, within the request's time and
    /// the engine's grace; a failed process is replaced and asked once more.
    pub async fn think(&self, key: &str, request: &Request) -> Result<Thought, EngineError> {
        let (engine, level) = self.levels.get(key).ok_or(EngineError::NoPosition)?;
        let mut movetime = request
            .movetime
            .min(Duration::from_millis(engine.config.movetime_ms));
        if let Some(ms) = level.as_ref().and_then(|l| l.movetime_ms) {
            movetime = movetime.min(Duration::from_millis(ms));
        }
        let grace = Duration::from_millis(engine.config.grace_ms);
        if lock(&engine.down_until).is_some_and(|t| tokio::time::Instant::now() < t) {
            return Err(EngineError::Down);
        }
        let deadline = tokio::time::Instant::now() + movetime + grace;
        let _permit = tokio::time::timeout_at(deadline, engine.permits.acquire())
            .await
            .map_err(|_| EngineError::Timeout)?
            .map_err(|_| EngineError::Closed)?;
        let mut last = EngineError::Closed;
        for attempt in 0..2 {
            let idle = engine.take_idle();
            let mut process = match idle {
                Some(p) => p,
                None => match engine.start().await {
                    Ok(p) => p,
                    Err(e) => {
                        *lock(&engine.down_until) = Some(tokio::time::Instant::now() + DOWN_FOR);
                        return Err(e);
                    }
                },
            };
            let answer = match &mut process {
                Process::Uci(c) => {
                    c.think(level.as_ref(), &request.position, movetime, grace)
                        .await
                }
                Process::Gtp(c) => {
                    c.think(level.as_ref(), &request.position, movetime, grace)
                        .await
                }
            };
            match answer {
                Ok(thought) => {
                    lock(&engine.idle).push(process);
                    engine
                        .served
                        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    return Ok(thought);
                }
                // A process that failed is dropped (killed) and forgotten.
                Err(e) => {
                    tracing::warn!(engine = %engine.config.name, attempt, "engine failed: {e}");
                    engine.forget(&process);
                    last = e;
                    if matches!(last, EngineError::Timeout | EngineError::BadMove(_)) {
                        break;
                    }
                }
            }
        }
        Err(last)
    }
}

/// The engine playing a level, for the analysis board (see [`Engines::analyst`]).
#[derive(Clone)]
pub struct Analyst(Arc<Engine>);

impl Engines {
    /// The engine playing level `key`, to analyse with.
    pub fn analyst(&self, key: &str) -> Option<Analyst> {
        self.levels
            .get(key)
            .map(|(engine, _)| Analyst(engine.clone()))
    }
}

impl Analyst {
    /// The analysis board's search (UCI and UCCI engines): its `info` lines go
    /// to `on_info` until it ends after `time` or `stop` is set. It takes one
    /// of the engine's processes, but of an engine with several never the last
    /// one free (kept for the computer players' moves, which come first; an
    /// engine with a single process analyses when it is free), and never waits
    /// for one (`Busy`).
    pub async fn analyse(
        &self,
        position: &EnginePosition,
        time: Duration,
        stop: &std::sync::atomic::AtomicBool,
        on_info: &mut (dyn FnMut(&str) + Send),
    ) -> Result<(), EngineError> {
        let engine = &self.0;
        if lock(&engine.down_until).is_some_and(|t| tokio::time::Instant::now() < t) {
            return Err(EngineError::Down);
        }
        if engine.config.processes > 1 && engine.permits.available_permits() <= 1 {
            return Err(EngineError::Busy);
        }
        let _permit = engine
            .permits
            .try_acquire()
            .map_err(|_| EngineError::Busy)?;
        let mut said = false;
        let mut result = Err(EngineError::Closed);
        // A process that fails before it said anything (it died since it was
        // last used, or as it began) is replaced once.
        for attempt in 0..2 {
            let mut process = match engine.take_idle() {
                Some(p) => p,
                None => match engine.start().await {
                    Ok(p) => p,
                    Err(e) => {
                        *lock(&engine.down_until) = Some(tokio::time::Instant::now() + DOWN_FOR);
                        return Err(e);
                    }
                },
            };
            result = match &mut process {
                Process::Uci(c) => {
                    let mut seen = |line: &str| {
                        said = true;
                        on_info(line);
                    };
                    c.analyse(position, time, stop, &mut seen).await
                }
                Process::Gtp(_) => Err(EngineError::NoPosition),
            };
            match &result {
                Ok(()) | Err(EngineError::NoPosition) => {
                    lock(&engine.idle).push(process);
                    break;
                }
                Err(e) => {
                    tracing::warn!(engine = %engine.config.name, attempt, "engine failed analysing: {e}");
                    engine.forget(&process);
                    if said || matches!(e, EngineError::Timeout) {
                        break;
                    }
                }
            }
        }
        result
    }
}

impl Engine {
    /// An idle process that still runs; the dead ones (their watchers reaped
    /// and counted them) are dropped.
    fn take_idle(&self) -> Option<Process> {
        let mut idle = lock(&self.idle);
        while let Some(p) = idle.pop() {
            if p.alive() {
                return Some(p);
            }
        }
        None
    }

    async fn start(&self) -> Result<Process, EngineError> {
        let c = &self.config;
        let mut cmd = tokio::process::Command::new(&c.path);
        cmd.args(&c.args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .kill_on_drop(true);
        let child = cmd
            .spawn()
            .map_err(|e| EngineError::Spawn(c.path.display().to_string(), e))?;
        self.started
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let pid = child.id();
        if let Some(pid) = pid {
            lock(&self.pids).push(pid);
        }
        // Told by the process's watcher when it dies unasked, having reaped it.
        let on_death = {
            let (name, pids, crashed) = (c.name.clone(), self.pids.clone(), self.crashed.clone());
            move |status: String| {
                crashed.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if let Some(pid) = pid {
                    lock(&pids).retain(|p| *p != pid);
                }
                tracing::warn!(engine = %name, pid, %status, "engine exited");
            }
        };
        let startup = Duration::from_millis(c.startup_ms);
        let started = match c.protocol {
            Protocol::Uci | Protocol::Ucci => {
                uci::Client::start(child, on_death, c.protocol, &c.options, startup)
                    .await
                    .map(Process::Uci)
            }
            Protocol::Gtp => gtp::Client::start(child, on_death, &c.options, startup)
                .await
                .map(Process::Gtp),
        };
        let process = match started {
            Ok(p) => p,
            Err(e) => {
                if let Some(pid) = pid {
                    lock(&self.pids).retain(|p| *p != pid);
                }
                return Err(e);
            }
        };
        tracing::info!(engine = %c.name, pid, "engine started");
        Ok(process)
    }

    fn forget(&self, process: &Process) {
        if let Some(pid) = process.pid() {
            lock(&self.pids).retain(|p| *p != pid);
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// An engine's move as the game writes it, or its resignation.
fn decision(mv: Option<String>) -> Decision {
    match mv {
        Some(m) => Decision::Act(m),
        None => Decision::Resign,
    }
}
