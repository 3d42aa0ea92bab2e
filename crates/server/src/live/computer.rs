//! The computer players at a table: their bookkeeping (what `crate::bots::chore`
//! asks for: accepting a start, leaving when alone) and their moves — a built-in
//! player thinking off the async threads, or an external engine (see
//! [`crate::engines`]) with the built-in player standing in when it fails.
//!
//! A move is thought about in a task of its own ([`Thinking`]) under a permit
//! of the server's compute budget ([`crate::compute`]): the table's task goes
//! on answering its players meanwhile (a resignation, a draw offer, an
//! arbiter's or admin's close are answered at once), and a think whose table
//! moved on, or whose table stopped, is cancelled (its stop flag set, its task
//! and permit dropped).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::Env;
use super::actor::Live;
use crate::bots::{Bot, Thought, Turn};
use crate::compute::{Class, Owner};

/// A computer player's move being thought about.
pub(super) struct Thinking {
    /// The table's version when it began: a table that moved on no longer
    /// wants it.
    pub(super) version: u64,
    pub(super) bot: Bot,
    stop: Arc<AtomicBool>,
    task: tokio::task::JoinHandle<Option<Thought>>,
}

impl Thinking {
    /// The thought, when it is ready (`None`: nothing to do).
    pub(super) async fn done(&mut self) -> Option<Thought> {
        (&mut self.task).await.ok().flatten()
    }
}

impl Drop for Thinking {
    fn drop(&mut self) {
        // Cancelled, or done: the search stops, its permit goes to the next.
        self.stop.store(true, Ordering::Relaxed);
        self.task.abort();
    }
}

impl Live {
    /// Applies what the computer players want done now (see [`crate::bots::chore`]).
    pub(super) async fn bot_chores(&mut self) {
        for _ in 0..16 {
            let Some(cmd) = crate::bots::chore(&*self.table, &self.bots) else {
                break;
            };
            if self.apply_and_commit(cmd).await.is_err() {
                break;
            }
        }
    }

    /// Who the table's searches count against in the compute budget: its
    /// creator, else the first person seated who acted here.
    fn compute_owner(&self) -> Owner {
        if let Some(owner) = &self.owner {
            return Owner::user(owner.id);
        }
        self.table
            .state()
            .seats
            .iter()
            .filter_map(|s| s.user.as_deref())
            .find_map(|u| self.accounts.get(u))
            .map(|(id, _)| Owner::user(*id))
            .unwrap_or_default()
    }

    /// Starts thinking about the bot's move, at the table's version `version`.
    pub(super) fn start_think(&self, turn: Turn, version: u64) -> Thinking {
        let bot = turn.bot.clone();
        let stop = Arc::new(AtomicBool::new(false));
        let builtin_level = self
            .env
            .engines
            .has(&bot.level)
            .then(|| self.table.bot_levels().last().map(|l| l.key.to_string()))
            .flatten();
        tracing::debug!(table = %self.id, bot = %bot.user, version, "a computer player thinks");
        let task = tokio::spawn(think(
            self.env.clone(),
            self.id.clone(),
            turn,
            self.compute_owner(),
            builtin_level,
            stop.clone(),
        ));
        Thinking {
            version,
            bot,
            stop,
            task,
        }
    }

    /// Applies a computer player's thought like a player's action.
    pub(super) async fn bot_apply(&mut self, bot: Bot, thought: Thought) {
        let cmd = bot.command(thought, &mut self.bots);
        if let Err(e) = self.apply_and_commit(cmd).await {
            tracing::error!(table = %self.id, "a computer player's action was refused: {}", e.message);
        }
    }
}

/// A computer player's decision. It waits for a permit of the compute budget
/// (a move before analysis, the earliest flag first), then a built-in one
/// thinks off the async threads (`spawn_blocking`) within its time, with a
/// backstop that sets its stop flag; an external engine answers within its
/// time and grace (see [`crate::engines`]), and when it cannot, the game's
/// built-in computer player at its strongest level (`builtin_level`) plays
/// that move instead. Whatever the clock and level, no move is thought about
/// longer than `bot_move_max_ms`.
async fn think(
    env: Arc<Env>,
    table: Arc<str>,
    turn: Turn,
    owner: Owner,
    builtin_level: Option<String>,
    stop: Arc<AtomicBool>,
) -> Option<Thought> {
    let Turn { bot, choice } = turn;
    let asked = Instant::now();
    let deadline = bot.time_left.map(|t| asked + t);
    let _permit = env.compute.acquire(Class::Move, &owner, deadline).await;
    let cap = env.rules.bot_move_max;
    let mut ask = bot.ask(rand::random(), cap);
    ask.stop = stop;
    // The wait for a permit came off the clock.
    ask.time_left = ask.time_left.map(|t| t.saturating_sub(asked.elapsed()));
    let engines = &env.engines;
    if engines.has(&bot.level) {
        let position = engines
            .protocol(&bot.level)
            .and_then(|p| choice.engine_position(p));
        if let Some(position) = position {
            let request = crate::engines::Request {
                position,
                movetime: ask.allot(None),
            };
            match engines.think(&bot.level, &request).await {
                Ok(t) if choice.allows(&t.decision) => return Some(t),
                Ok(t) => tracing::warn!(
                    table = %table,
                    "engine {} chose {:?}, not a legal action; the built-in player stands in",
                    bot.level,
                    t.decision
                ),
                Err(e) => tracing::warn!(
                    table = %table,
                    "engine {} failed ({e}); the built-in player stands in",
                    bot.level
                ),
            }
        }
        if let Some(level) = builtin_level {
            ask.level = level;
        }
    }
    // What an engine that failed used of the clock is gone.
    ask.time_left = ask.time_left.map(|t| t.saturating_sub(asked.elapsed()));
    let flag = ask.stop.clone();
    let backstop = bot.backstop().min(cap + Duration::from_secs(1));
    let mut search = tokio::task::spawn_blocking(move || choice.think(&ask));
    tokio::select! {
        done = &mut search => done.ok().flatten(),
        _ = tokio::time::sleep(backstop) => {
            flag.store(true, Ordering::Relaxed);
            search.await.ok().flatten()
        }
    }
}
