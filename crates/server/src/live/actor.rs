//! A live table's task: its state ([`Live`]) and its loop, which only
//! dispatches — a message to its collaborator, a deadline to a tick, the
//! computer player to act to its move, an idle table to its closing. The work
//! itself lives in the sibling modules.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use qiyuan_game::Viewer;
use qiyuan_table::{Command, Status};
use tokio::sync::mpsc;

use super::fanout::Fanout;
use super::{Env, TableHandle, TableKind, TableMsg, TableSummary, now};
use crate::registry::AnyTable;

/// The task's state.
pub(super) struct Live {
    pub(super) env: Arc<Env>,
    pub(super) id: Arc<str>,
    /// What kind of table this is, chosen when it was made.
    pub(super) kind: TableKind,
    pub(super) table: Box<dyn AnyTable>,
    /// How many log entries are in the store.
    pub(super) persisted: u64,
    /// Who is subscribed, and the batches they may resume from.
    pub(super) fanout: Fanout,
    /// The current game's stored id and its players' ratings at the start.
    pub(super) game_id: Option<Arc<str>>,
    /// Who opened the table (see [`super::Owner`]).
    pub(super) owner: Option<Arc<super::Owner>>,
    /// The people seated here as the node's registry was last told (see
    /// `Live::hold_seats`).
    pub(super) held: Vec<String>,
    /// Whether a game has started, for the registry.
    pub(super) played: Arc<AtomicBool>,
    /// Who sits here, for the features (see [`super::Sitting`]).
    pub(super) sitting: Arc<super::Sitting>,
    /// What the computer players here remember between moves.
    pub(super) bots: crate::bots::Memory,
    /// The seats' lag as last sent in a `lag` message.
    pub(super) lags_sent: Vec<Option<qiyuan_table::Millis>>,
    /// Several nodes: the fencing token of this node's lease on the table,
    /// carried by every log append (see [`super::Ownership`]).
    pub(super) lease: Option<i64>,
    /// The store refused an append: another node owns the table now.
    pub(super) fenced: bool,
    /// The accounts (id, guest) of users who acted here from a socket, by name:
    /// an account never changes either, so a game's start and end look up no
    /// player who acted (see `Live::account`).
    pub(super) accounts: std::collections::HashMap<String, (i64, bool)>,
    /// The summary last given to the lobby (`Live::list`): a move changes
    /// nothing the lobby shows, so most batches publish nothing.
    pub(super) listed: Option<TableSummary>,
    /// Pauses ([`super::pauses`]) are credited up to this time.
    pub(super) credited: qiyuan_table::Millis,
    /// For the people invited alone (see [`TableHandle::invite_only`]).
    pub(super) invite_only: bool,
}

impl Live {
    pub(super) fn new(
        env: Arc<Env>,
        id: Arc<str>,
        kind: TableKind,
        table: Box<dyn AnyTable>,
        persisted: u64,
    ) -> Self {
        Live {
            env,
            id,
            kind,
            table,
            persisted,
            fanout: Fanout::default(),
            game_id: None,
            owner: None,
            held: Vec::new(),
            played: Arc::new(AtomicBool::new(false)),
            sitting: Arc::default(),
            bots: crate::bots::Memory::default(),
            lags_sent: Vec::new(),
            lease: None,
            fenced: false,
            accounts: Default::default(),
            listed: None,
            credited: now(),
            invite_only: false,
        }
    }

    pub(super) fn spawn(mut self) -> TableHandle {
        let (tx, rx) = super::TableTx::channel(1024);
        self.played.store(
            self.table.state().status != Status::Waiting,
            Ordering::Relaxed,
        );
        let handle = TableHandle {
            id: self.id.to_string(),
            game: self.table.game_name(),
            tx,
            owner: self.owner.clone(),
            played: self.played.clone(),
            sitting: self.sitting.clone(),
            invite_only: self.invite_only,
        };
        let env = self.env.clone();
        self.list();
        let task = tokio::spawn(self.run(rx));
        env.tables.insert(handle.clone(), task);
        handle
    }

    async fn run(mut self, mut rx: mpsc::Receiver<Box<TableMsg>>) {
        let shutdown = self.env.shutdown.clone();
        let idle_close = self.env.rules.idle_close;
        let empty_close = self.env.rules.empty_close;
        let think = self.env.rules.bot_think;
        // When the bot to act acts: a think after the table reached this version
        // (messages that change nothing do not put it off).
        let mut bot_due: Option<(u64, tokio::time::Instant)> = None;
        // The version at which the bot to act had nothing to do (Go's marking,
        // once it accepted): it is not asked again until the table changes.
        let mut bot_idle: Option<u64> = None;
        // The connection indicator: the seats' lag, looked at now and then.
        let mut lag_tick = tokio::time::interval(super::presence::LAG_EVERY);
        lag_tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        // The computer player's move being thought about, in a task of its
        // own: the table answers everyone meanwhile.
        let mut thinking: Option<super::computer::Thinking> = None;
        loop {
            // Computer players: bookkeeping at once, their turn after a think.
            Box::pin(self.bot_chores()).await;
            let v = self.table.version();
            // A think about a table that moved on is not wanted (dropping it
            // stops the search and frees its permit).
            if thinking.as_ref().is_some_and(|t| t.version != v) {
                thinking = None;
            }
            // (The table's own config too: it refuses 托管 without it.)
            let trusteeship = self.table.config().trusteeship
                && self
                    .env
                    .games
                    .get(self.table.game_name())
                    .is_some_and(|g| g.trusteeship);
            let bot =
                crate::bots::turn(&*self.table, now(), trusteeship).filter(|_| bot_idle != Some(v));
            // 托管: shortly before the player to act would flag, or once a
            // player has been away a while, the computer takes their seat over.
            let rescue = crate::bots::takeover(&*self.table).filter(|_| trusteeship);
            let rescue_in = rescue.as_ref().map(|(_, at)| until(*at));
            let bot_at = match (&bot, bot_due) {
                _ if thinking.is_some() => None,
                (None, _) => None,
                (Some(_), Some((due_v, at))) if due_v == v => Some(at),
                (Some(b), _) => Some(tokio::time::Instant::now() + b.bot.pause(think)),
            };
            bot_due = bot_at.map(|at| (v, at));
            let deadline = self.table.next_deadline();
            // While the bus to players on other nodes is down, their clocks
            // hold: no timer fires, and the outage is credited once it ends.
            let held = self.held_by_bus();
            // A deadline passes on the server's clock, to the microsecond: the
            // flag falls at its moment (the timer wheel's millisecond after
            // it at most), not a rounded millisecond early or late.
            let sleep = match deadline.map(until) {
                Some(d) if held => Some(d.max(HELD_RECHECK)),
                d => d,
            };
            let idle = self.fanout.is_empty() && self.table.state().status != Status::Playing;
            // Nobody left at all (no seat taken either): nothing to wait for
            // but a late comer, so sooner (a finished game's table, mostly).
            let close_in = if idle && self.table.state().seats.iter().all(|s| s.user.is_none()) {
                empty_close.min(idle_close)
            } else {
                idle_close
            };
            tokio::select! {
                msg = rx.recv() => match msg {
                    Some(msg) if matches!(*msg, TableMsg::Fenced) => self.fenced = true,
                    Some(msg) => Box::pin(self.credit_and_handle(*msg)).await,
                    None => break,
                },
                // A deadline passed: the timer's command fires it.
                _ = tokio::time::sleep(sleep.unwrap_or_default()), if sleep.is_some() => {
                    Box::pin(self.tick()).await;
                }
                _ = tokio::time::sleep_until(bot_at.unwrap_or_else(tokio::time::Instant::now)), if bot_at.is_some() => {
                    if let Some(bot) = bot {
                        thinking = Some(self.start_think(bot, v));
                    }
                }
                thought = async {
                    match thinking.as_mut() {
                        Some(t) => t.done().await,
                        None => std::future::pending().await,
                    }
                }, if thinking.is_some() => {
                    Box::pin(self.credit_pauses()).await;
                    if let Some(done) = thinking.take() {
                        match thought {
                            Some(thought) if done.version == self.table.version() => {
                                Box::pin(self.bot_apply(done.bot.clone(), thought)).await;
                            }
                            Some(_) => {}
                            None => bot_idle = Some(done.version),
                        }
                    }
                }
                _ = tokio::time::sleep(rescue_in.unwrap_or_default()), if rescue_in.is_some() => {
                    if let Some((user, _)) = rescue {
                        tracing::info!(table = %self.id, %user, "the computer plays for a player out of time or away (托管)");
                        let cmd = Command::Trusteeship { user, on: true };
                        let _ = Box::pin(self.apply_and_commit(cmd)).await;
                    }
                }
                _ = lag_tick.tick(), if !self.fanout.is_empty() => self.publish_lags(),
                _ = tokio::time::sleep(close_in), if idle => {
                    Box::pin(self.close()).await;
                    break;
                }
                _ = crate::stopped(shutdown.clone()) => break,
            }
            if self.fenced {
                // Another node owns the table: this one stops, writing nothing.
                tracing::warn!(table = %self.id, "fenced out; the table's task stops");
                self.env.tables.remove(&self.id);
                // This node's sockets and followers watch on at the new owner.
                let here = |c: &super::Conn| !super::is_remote(c.id);
                let conns: Vec<_> = self.fanout.drain().into_iter().filter(here).collect();
                let followers: Vec<_> = self.fanout.followers.drain();
                let followers: Vec<_> = followers.into_iter().filter(here).collect();
                if let Some(ownership) = &self.env.ownership {
                    ownership.lost(&self.id, conns, followers);
                }
                break;
            }
        }
    }

    /// A message, after the pauses are credited. The work of a message, a
    /// timer or a think is awaited boxed in [`Live::run`]: the largest state of
    /// the task, which would otherwise be kept with every idle table's task
    /// for good.
    async fn credit_and_handle(&mut self, msg: TableMsg) {
        self.credit_pauses().await;
        self.handle(msg).await
    }

    /// A deadline passed: the timer's command fires it.
    async fn tick(&mut self) {
        self.credit_pauses().await;
        if !self.held_by_bus() {
            let _ = self.apply_and_commit(Command::Tick).await;
        }
    }

    async fn handle(&mut self, msg: TableMsg) {
        match msg {
            TableMsg::Act {
                conn,
                act,
                req,
                expect_seat,
            } => self.act(conn, act, req, expect_seat).await,
            TableMsg::Watch { conn, since, req } => self.watch(conn, since, req).await,
            TableMsg::Follow { conn, present } => self.follow(conn, present).await,
            TableMsg::Unwatch { conn } | TableMsg::Closed { conn } => self.leave_socket(conn).await,
            TableMsg::Internal { cmds, done } => {
                let _ = done.send(self.internal(cmds).await);
            }
            TableMsg::Snapshot { reply } => {
                let view = self.table.view(Viewer::Spectator, now());
                let lags = self.fanout.seat_lags(&*self.table);
                let _ = reply.send(super::fanout::with_lags(view, &lags));
            }
            TableMsg::Record { number, reply } => {
                let _ = reply.send(self.record_of(number));
            }
            TableMsg::Fenced => self.fenced = true,
        }
    }

    /// Credits the time nobody could act here ([`super::pauses`]) before any
    /// timer fires or command applies: a stall of the server, or an outage of
    /// the bus while someone here is on another node.
    async fn credit_pauses(&mut self) {
        let now = now();
        let fanout = &self.fanout;
        let (due, upto) = self
            .env
            .pauses
            .due(self.credited, now, || fanout.has_remote());
        self.credited = upto;
        if due.is_empty() || self.table.state().status != Status::Playing {
            return;
        }
        for (from, to) in due {
            tracing::info!(table = %self.id, ms = to - from, "time nobody could act credited to the clocks");
            let _ = self.apply_and_commit(Command::Credit { from, to }).await;
        }
    }

    /// Whether the bus is down while someone here is on another node.
    fn held_by_bus(&self) -> bool {
        self.env.pauses.is_bus_down() && self.fanout.has_remote()
    }

    /// The server's own commands, in order, until one is refused.
    async fn internal(&mut self, cmds: Vec<Command>) -> Result<(), String> {
        for cmd in cmds {
            self.apply_and_commit(cmd).await.map_err(|e| e.message)?;
        }
        Ok(())
    }

    async fn close(&mut self) {
        tracing::info!(table = %self.id, "closing idle table");
        if let Err(e) = self.env.store.close_table(&self.id).await {
            tracing::error!(table = %self.id, "cannot close table: {e}");
        }
        self.env.tables.remove(&self.id);
        self.env.lobby.remove(self.table.game_name(), &self.id);
        if let Some(ownership) = &self.env.ownership {
            ownership.release(&self.id).await;
        }
    }
}

/// How often a table held by the bus's outage looks again.
const HELD_RECHECK: Duration = Duration::from_millis(500);

/// How long until `at` (milliseconds since the epoch, the server's clock), to
/// the microsecond; zero if it has passed.
fn until(at: qiyuan_table::Millis) -> Duration {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    Duration::from_millis(at).saturating_sub(now)
}
