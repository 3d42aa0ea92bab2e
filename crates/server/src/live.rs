//! Live tables: one tokio task per table owns its `qiyuan_table::Table` and is the
//! only code that touches it, so there are no locks around game state. Commands
//! arrive through a channel; each accepted command's log entries are committed to
//! the store before anything is acknowledged or broadcast; timers (flags, the
//! first-move timer, escape) fire from the task itself at the table's next
//! deadline, with no client message needed.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use qiyuan_game::{Outcome, RecordMeta, Seat, UtcDateTime, Viewer};
use qiyuan_store::{Finish, NewGame, Player, PointsChange, RatingRow, TableRow};
use qiyuan_table::{
    Command, Event, Millis, Settings, Status, TableConfig, TableRefusal, TableRefusalKind,
};
use serde::Serialize;
use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

use crate::App;
use crate::error::ApiError;
use crate::lobby::TableSummary;
use crate::protocol::{self, TableAct};
use crate::registry::AnyTable;

pub type ConnId = u64;

/// How many event batches a table keeps for clients that resume.
const MAX_HISTORY: usize = 4096;

/// The user behind a connection.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UserInfo {
    pub id: i64,
    pub username: String,
    pub guest: bool,
}

/// A socket as tables see it: where to send its messages.
#[derive(Debug, Clone)]
pub struct Conn {
    pub id: ConnId,
    pub user: Option<UserInfo>,
    pub tx: mpsc::Sender<Utf8Bytes>,
}

impl Conn {
    /// Queues a message; a socket too slow to take it is dropped by its caller.
    pub fn send(&self, text: impl Into<Utf8Bytes>) -> bool {
        self.tx.try_send(text.into()).is_ok()
    }
}

/// What a table task is asked to do.
pub enum TableMsg {
    /// A user's command from a socket.
    Act {
        conn: Conn,
        act: TableAct,
        req: Option<Value>,
        expect_seat: Option<Seat>,
    },
    /// Subscribe a socket, replaying what it missed since version `since`.
    Watch {
        conn: Conn,
        since: Option<u64>,
        req: Option<Value>,
    },
    Unwatch {
        conn: ConnId,
    },
    /// The socket closed.
    Closed {
        conn: ConnId,
    },
    /// Commands the server itself issues (quick pairing seats and readies both).
    Internal {
        cmds: Vec<Command>,
        done: oneshot::Sender<Result<(), String>>,
    },
    /// The table as a spectator sees it, for the HTTP API.
    Snapshot {
        reply: oneshot::Sender<Value>,
    },
    /// The record of game `number` if it is the current (or last) one: the
    /// game's name, the record, and whether the game is over.
    Record {
        number: u32,
        reply: oneshot::Sender<Option<(String, String, bool)>>,
    },
}

/// A live table's address.
#[derive(Clone)]
pub struct TableHandle {
    pub id: String,
    pub game: &'static str,
    pub tx: mpsc::Sender<TableMsg>,
    /// The user who created the table (`None`: the server did, or the table was
    /// rebuilt after a restart).
    pub owner: Option<i64>,
    /// Whether a game has started there (kept by the table's task): until then
    /// the table counts towards its owner's cap of idle tables.
    pub played: Arc<AtomicBool>,
}

/// Every live table on this node.
#[derive(Default)]
pub struct Registry {
    tables: Mutex<HashMap<String, TableHandle>>,
    tasks: Mutex<Vec<JoinHandle<()>>>,
    /// Tables being created, per owner, not yet in `tables`.
    creating: Mutex<HashMap<i64, usize>>,
}

/// A place for one more table of `owner`, held while it is being created.
struct Reservation<'a> {
    registry: &'a Registry,
    owner: i64,
}

impl Drop for Reservation<'_> {
    fn drop(&mut self) {
        let mut creating = self
            .registry
            .creating
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some(n) = creating.get_mut(&self.owner) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                creating.remove(&self.owner);
            }
        }
    }
}

impl Registry {
    pub fn get(&self, id: &str) -> Option<TableHandle> {
        self.lock().get(id).cloned()
    }

    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, TableHandle>> {
        self.tables.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn insert(&self, handle: TableHandle, task: JoinHandle<()>) {
        self.lock().insert(handle.id.clone(), handle);
        let mut tasks = self.tasks.lock().unwrap_or_else(|e| e.into_inner());
        tasks.retain(|t| !t.is_finished());
        tasks.push(task);
    }

    fn remove(&self, id: &str) {
        self.lock().remove(id);
    }

    /// How many open tables `owner` created at which no game has started yet.
    pub fn idle_tables_of(&self, owner: i64) -> usize {
        self.lock()
            .values()
            .filter(|h| h.owner == Some(owner) && !h.played.load(Ordering::Relaxed))
            .count()
    }

    /// Holds a place for one more table of `owner`, unless they already have
    /// `cap` open tables nobody plays at — where no game has started yet (tables
    /// being created count too, so that a burst of creations cannot pass the
    /// cap). `cap` 0: no cap.
    fn reserve(&self, owner: i64, cap: usize) -> Result<Reservation<'_>, ApiError> {
        let tables = self.lock();
        let mut creating = self.creating.lock().unwrap_or_else(|e| e.into_inner());
        let idle = tables
            .values()
            .filter(|h| h.owner == Some(owner) && !h.played.load(Ordering::Relaxed))
            .count();
        let pending = creating.get(&owner).copied().unwrap_or(0);
        if cap > 0 && idle + pending >= cap {
            return Err(ApiError::new(
                axum::http::StatusCode::TOO_MANY_REQUESTS,
                "too_many_tables",
                format!(
                    "you have {cap} open tables where no game has started: play at one or let one close first"
                ),
            ));
        }
        *creating.entry(owner).or_insert(0) += 1;
        Ok(Reservation {
            registry: self,
            owner,
        })
    }

    /// Waits for every table task to finish (they stop on the shutdown signal).
    pub async fn stop_all(&self) {
        let tasks: Vec<_> =
            std::mem::take(&mut *self.tasks.lock().unwrap_or_else(|e| e.into_inner()));
        for task in tasks {
            let _ = task.await;
        }
    }
}

fn now() -> Millis {
    crate::now_ms().max(0) as Millis
}

/// A new table id: 8 letters and digits.
pub fn new_id() -> String {
    use rand::Rng;
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut rng = rand::thread_rng();
    (0..8)
        .map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())] as char)
        .collect()
}

/// Creates a table for the server itself (quick pairing): stored first, then its
/// task starts.
pub async fn create(
    app: &Arc<App>,
    game: &str,
    settings: Settings,
) -> Result<TableHandle, ApiError> {
    create_for(app, game, settings, None, None).await
}

/// Creates a table: checked, stored, then its task starts. With an `owner`, the
/// table counts towards their cap of open tables nobody plays at, where no game
/// has started yet (`max_idle_tables_per_user`). With a `seat`, it must be one of the game's
/// seats: a refused creation leaves nothing behind.
pub async fn create_for(
    app: &Arc<App>,
    game: &str,
    settings: Settings,
    owner: Option<&UserInfo>,
    seat: Option<Seat>,
) -> Result<TableHandle, ApiError> {
    let config = TableConfig {
        settings,
        tournament: false,
        first_move: app.config.first_move_secs.map(|s| (s * 1000.0) as Millis),
        grace: app.config.escape_grace_secs.map(|s| (s * 1000.0) as Millis),
        // Each game's deal draws from a fresh secret of its own (see `registry`).
        deal_seed: None,
    };
    let table = app
        .games
        .new_table(game, config.clone())
        .map_err(|e| ApiError::bad_request("bad_settings", e))?;
    if let Some(seat) = seat
        && seat.0 >= table.seats()
    {
        return Err(ApiError::bad_request(
            "no_such_seat",
            format!("a {game} table has seats 0 to {}", table.seats() - 1),
        ));
    }
    let _reservation = match owner {
        Some(user) => Some(
            app.tables
                .reserve(user.id, app.config.max_idle_tables_per_user)?,
        ),
        None => None,
    };
    let id = new_id();
    let row = TableRow {
        id: id.clone(),
        game: table.game_name().to_string(),
        config: serde_json::to_string(&config).map_err(ApiError::internal)?,
        open: true,
        created_at: crate::now_ms(),
    };
    app.store.create_table(&row).await?;
    let mut live = Live::new(app.clone(), id, table, 0);
    live.owner = owner.map(|u| u.id);
    Ok(live.spawn())
}

/// Rebuilds every open table from its log; returns how many.
pub async fn restore(app: &Arc<App>) -> anyhow::Result<usize> {
    let rows = app.store.open_tables().await?;
    let mut restored = 0;
    for row in rows {
        match restore_one(app, &row).await {
            Ok(()) => restored += 1,
            Err(err) => tracing::error!(table = %row.id, "cannot rebuild table: {err:#}"),
        }
    }
    Ok(restored)
}

async fn restore_one(app: &Arc<App>, row: &TableRow) -> anyhow::Result<()> {
    let config: TableConfig = serde_json::from_str(&row.config)?;
    let mut table = app
        .games
        .new_table(&row.game, config)
        .map_err(anyhow::Error::msg)?;
    let log = app.store.log(&row.id, 0).await?;
    let mut history = Vec::new();
    for entry in &log {
        let logged: qiyuan_table::LogEntry = serde_json::from_str(&entry.entry)?;
        let from = table.version();
        let events = table
            .apply_entry(&logged)
            .map_err(|r| anyhow::anyhow!("log entry {} refused on replay: {r}", entry.version))?;
        history.push(Batch {
            from,
            v: table.version(),
            events: serde_json::to_value(&events)?,
            ratings: None,
        });
    }
    if table.version() != log.len() as u64 {
        anyhow::bail!(
            "replaying {} entries gave version {}",
            log.len(),
            table.version()
        );
    }
    let down_since = log
        .last()
        .map(|e| e.at.max(0) as Millis)
        .unwrap_or_else(now);
    let mut live = Live::new(app.clone(), row.id.clone(), table, log.len() as u64);
    if history.len() > MAX_HISTORY {
        history.drain(..history.len() - MAX_HISTORY);
    }
    live.history = history;
    // Games that ended before the crash but whose end was not yet written.
    live.restore_game_rows().await;
    let _ = live
        .apply_and_commit(Command::Restart { down_since }, None, None)
        .await;
    live.spawn();
    Ok(())
}

/// One batch of events, as broadcast: the version before and after.
#[derive(Debug, Clone, Serialize)]
struct Batch {
    from: u64,
    v: u64,
    events: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    ratings: Option<Value>,
}

/// The task's state.
struct Live {
    app: Arc<App>,
    id: String,
    table: Box<dyn AnyTable>,
    /// How many log entries are in the store.
    persisted: u64,
    subs: HashMap<ConnId, Conn>,
    /// Every batch since the task started (or, after a restart, since the table
    /// was created: the replay rebuilds them), for clients that resume.
    history: Vec<Batch>,
    /// The current game's stored id and its players' ratings at the start.
    game_id: Option<String>,
    /// Who created the table (for the cap on idle tables).
    owner: Option<i64>,
    /// Whether a game has started, for the registry.
    played: Arc<AtomicBool>,
    /// What the computer players here remember between moves.
    bots: crate::bots::Memory,
}

impl Live {
    fn new(app: Arc<App>, id: String, table: Box<dyn AnyTable>, persisted: u64) -> Self {
        Live {
            app,
            id,
            table,
            persisted,
            subs: HashMap::new(),
            history: Vec::new(),
            game_id: None,
            owner: None,
            played: Arc::new(AtomicBool::new(false)),
            bots: crate::bots::Memory::default(),
        }
    }

    fn spawn(self) -> TableHandle {
        let (tx, rx) = mpsc::channel(1024);
        self.played.store(
            self.table.state().status != Status::Waiting,
            Ordering::Relaxed,
        );
        let handle = TableHandle {
            id: self.id.clone(),
            game: self.table.game_name(),
            tx,
            owner: self.owner,
            played: self.played.clone(),
        };
        let app = self.app.clone();
        app.lobby.publish(self.summary());
        let task = tokio::spawn(self.run(rx));
        app.tables.insert(handle.clone(), task);
        handle
    }

    async fn run(mut self, mut rx: mpsc::Receiver<TableMsg>) {
        let shutdown = self.app.shutdown.clone();
        let idle_close = Duration::from_secs_f64(self.app.config.idle_table_secs.max(1.0));
        let think = Duration::from_millis(self.app.config.bot_think_ms);
        // When the bot to act acts: a think after the table reached this version
        // (messages that change nothing do not put it off).
        let mut bot_due: Option<(u64, tokio::time::Instant)> = None;
        // The version at which the bot to act had nothing to do (Go's marking,
        // once it accepted): it is not asked again until the table changes.
        let mut bot_idle: Option<u64> = None;
        loop {
            // Computer players: bookkeeping at once, their turn after a think.
            self.bot_chores().await;
            let v = self.table.version();
            let trusteeship = self
                .app
                .games
                .get(self.table.game_name())
                .is_some_and(|g| g.trusteeship);
            let bot = crate::bots::turn(&*self.table, now(), &self.bots, trusteeship)
                .filter(|_| bot_idle != Some(v));
            // 托管: shortly before the player to act would flag, the computer
            // takes their seat over.
            let rescue = crate::bots::rescue(&*self.table, &self.bots).filter(|_| trusteeship);
            let rescue_in = rescue
                .as_ref()
                .map(|(_, at)| Duration::from_millis(at.saturating_sub(now())));
            let bot_at = match (&bot, bot_due) {
                (None, _) => None,
                (Some(_), Some((due_v, at))) if due_v == v => Some(at),
                (Some(b), _) => Some(tokio::time::Instant::now() + b.bot.pause(think)),
            };
            bot_due = bot_at.map(|at| (v, at));
            let deadline = self.table.next_deadline();
            let sleep = deadline.map(|d| Duration::from_millis(d.saturating_sub(now())));
            let idle = self.subs.is_empty() && self.table.state().status != Status::Playing;
            tokio::select! {
                msg = rx.recv() => match msg {
                    Some(msg) => self.handle(msg).await,
                    None => break,
                },
                _ = tokio::time::sleep(sleep.unwrap_or_default()), if sleep.is_some() => {
                    let _ = self.apply_and_commit(Command::Tick, None, None).await;
                }
                _ = tokio::time::sleep_until(bot_at.unwrap_or_else(tokio::time::Instant::now)), if bot_at.is_some() => {
                    if let Some(bot) = bot
                        && !self.bot_act(bot).await
                    {
                        bot_idle = Some(v);
                    }
                }
                _ = tokio::time::sleep(rescue_in.unwrap_or_default()), if rescue_in.is_some() => {
                    if let Some((user, _)) = &rescue {
                        tracing::info!(table = %self.id, %user, "the computer plays for a player out of time (托管)");
                        self.bots.trust(user);
                    }
                }
                _ = tokio::time::sleep(idle_close), if idle => {
                    self.close().await;
                    break;
                }
                _ = crate::stopped(shutdown.clone()) => break,
            }
        }
    }

    /// Applies what the computer players want done now (see [`crate::bots::chore`]).
    async fn bot_chores(&mut self) {
        for _ in 0..16 {
            let Some(cmd) = crate::bots::chore(&*self.table, &self.bots) else {
                break;
            };
            if self.apply_and_commit(cmd, None, None).await.is_err() {
                break;
            }
        }
    }

    /// A computer player's decision, then applied like a player's action; false
    /// if it had nothing to do. A built-in one thinks off the async threads
    /// (`spawn_blocking`) within its time, with a backstop that sets its stop
    /// flag; an external engine answers within its time and grace (see
    /// [`crate::engines`]), and when it cannot, the game's built-in computer
    /// player at its strongest level plays that move instead.
    async fn bot_act(&mut self, turn: crate::bots::Turn) -> bool {
        let crate::bots::Turn { bot, choice } = turn;
        let ask = bot.ask(rand::random());
        let asked = std::time::Instant::now();
        let engines = &self.app.engines;
        let mut thought = None;
        let mut builtin_level = None;
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
                    Ok(t) if choice.allows(&t.decision) => thought = Some(t),
                    Ok(t) => tracing::warn!(
                        table = %self.id,
                        "engine {} chose {:?}, not a legal action; the built-in player stands in",
                        bot.level,
                        t.decision
                    ),
                    Err(e) => tracing::warn!(
                        table = %self.id,
                        "engine {} failed ({e}); the built-in player stands in",
                        bot.level
                    ),
                }
            }
            builtin_level = self.table.bot_levels().last().map(|l| l.key.to_string());
        }
        if thought.is_none() {
            let mut ask = ask.clone();
            if let Some(level) = builtin_level {
                ask.level = level;
            }
            // What an engine that failed used of the clock is gone.
            ask.time_left = ask.time_left.map(|t| t.saturating_sub(asked.elapsed()));
            let stop = ask.stop.clone();
            let mut search = tokio::task::spawn_blocking(move || choice.think(&ask));
            thought = tokio::select! {
                done = &mut search => done.ok().flatten(),
                _ = tokio::time::sleep(bot.backstop()) => {
                    stop.store(true, Ordering::Relaxed);
                    search.await.ok().flatten()
                }
            };
        }
        let Some(thought) = thought else {
            return false;
        };
        let cmd = bot.command(thought, &mut self.bots);
        if let Err(e) = self.apply_and_commit(cmd, None, None).await {
            tracing::error!(table = %self.id, "a computer player's action was refused: {}", e.message);
        }
        true
    }

    async fn close(&mut self) {
        tracing::info!(table = %self.id, "closing idle table");
        if let Err(e) = self.app.store.close_table(&self.id).await {
            tracing::error!(table = %self.id, "cannot close table: {e}");
        }
        self.app.tables.remove(&self.id);
        self.app.lobby.remove(self.table.game_name(), &self.id);
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
            TableMsg::Unwatch { conn } | TableMsg::Closed { conn } => self.leave_socket(conn).await,
            TableMsg::Internal { cmds, done } => {
                let mut result = Ok(());
                for cmd in cmds {
                    if let Err(e) = self.apply_and_commit(cmd, None, None).await {
                        result = Err(e.message);
                        break;
                    }
                }
                let _ = done.send(result);
            }
            TableMsg::Snapshot { reply } => {
                let _ = reply.send(self.table.view(Viewer::Spectator, now()));
            }
            TableMsg::Record { number, reply } => {
                // Only the game asked for: the live one, or the last one played.
                let current = self.table.state().game.as_ref().map(|g| g.number);
                let record = self.record(Vec::new()).filter(|_| current == Some(number));
                let over = self.table.state().status != Status::Playing;
                let _ = reply.send(record.map(|r| (self.table.game_name().to_string(), r, over)));
            }
        }
    }

    /// The current game's record; `ratings` (by seat, before the game) for a
    /// rated game's `WhiteElo`/`BlackElo`.
    fn record(&self, ratings: Vec<Option<i32>>) -> Option<String> {
        let gs = self.table.state().game.as_ref()?;
        let meta = RecordMeta {
            site: Some(self.app.config.site.clone()),
            date: Some(date_of(gs.started_at)),
            start: Some(UtcDateTime::from_unix_millis(gs.started_at)),
            players: gs.players.clone(),
            ratings,
            event: Some(format!("{} table {}", self.app.config.site, self.id)),
            ..RecordMeta::default()
        };
        self.table.record(meta)
    }

    async fn act(&mut self, conn: Conn, act: TableAct, req: Option<Value>, expect: Option<Seat>) {
        let Some(user) = conn.user.clone() else {
            conn.send(protocol::error(
                &ApiError::unauthorized(),
                Some(&self.id),
                req.as_ref(),
            ));
            return;
        };
        let name = user.username.clone();
        // A player the computer played for (托管) takes their seat back by acting.
        self.bots.take_back(&name);
        if let Some(seat) = expect
            && self.table.seat_of(&name) != Some(seat)
        {
            let err = ApiError::forbidden(
                "not_your_seat",
                format!("you ({name}) do not sit at seat {}", seat.0),
            );
            conn.send(protocol::error(&err, Some(&self.id), req.as_ref()));
            return;
        }
        // Guests play casual games only: no seat at a rated table, no rated proposal.
        let rated = match &act {
            TableAct::Sit { .. } | TableAct::Ready { .. } | TableAct::Accept { .. } => {
                self.table.state().proposal.settings.rated
            }
            TableAct::Propose { settings } => settings.rated,
            _ => false,
        };
        if user.guest && rated {
            let err = ApiError::forbidden("guest_rated", "guests play casual games only");
            conn.send(protocol::error(&err, Some(&self.id), req.as_ref()));
            return;
        }
        // Acting at a table subscribes the socket to it, and a seated player who
        // was counted absent (a dropped socket, a restart) is back.
        self.subs.entry(conn.id).or_insert_with(|| conn.clone());
        if let Some(seat) = self.table.seat_of(&name)
            && self.table.state().seats[seat.index()]
                .absent_since
                .is_some()
        {
            let _ = self
                .apply_and_commit(Command::Reconnect { user: name.clone() }, None, None)
                .await;
        }
        // A spectator who leaves stops watching: live only, like watching.
        if matches!(act, TableAct::Leave) && self.table.is_watching(&name) {
            self.unwatch_live(&name);
            conn.send(protocol::out(
                "ack",
                json!({"table": self.id, "v": self.table.version()}),
                req.as_ref(),
            ));
            return;
        }
        let cmd = match act {
            TableAct::AddBot { seat, level } => {
                let levels = self
                    .app
                    .games
                    .get(self.table.game_name())
                    .map_or(&[][..], |g| &g.bot_levels[..]);
                crate::bots::add(&*self.table, levels, &name, seat, level.as_deref())
            }
            TableAct::RemoveBot { seat } => crate::bots::remove(&*self.table, &name, seat),
            act => Ok(command(act, name)),
        };
        let cmd = match cmd {
            Ok(cmd) => cmd,
            Err(err) => {
                conn.send(protocol::error(&err, Some(&self.id), req.as_ref()));
                return;
            }
        };
        match self.apply_and_commit(cmd, Some(&conn), req.as_ref()).await {
            Ok(v) => {
                conn.send(protocol::out(
                    "ack",
                    json!({"table": self.id, "v": v}),
                    req.as_ref(),
                ));
            }
            Err(err) => {
                conn.send(protocol::error(&err, Some(&self.id), req.as_ref()));
            }
        }
    }

    async fn watch(&mut self, conn: Conn, since: Option<u64>, req: Option<Value>) {
        if let Some(user) = &conn.user {
            let name = user.username.clone();
            let state = self.table.state();
            match self.table.seat_of(&name) {
                // A seated player who was away is back: that is the game's business.
                Some(seat) if state.seats[seat.index()].absent_since.is_some() => {
                    let cmd = Command::Reconnect { user: name };
                    let _ = self.apply_and_commit(cmd, None, None).await;
                }
                Some(_) => {}
                // A spectator writes nothing: watching is live only.
                None => {
                    if let Ok(events) = self.table.watch(&name) {
                        self.broadcast_live(&events);
                    }
                }
            }
        }
        let v = self.table.version();
        let viewer = self.viewer_of(&conn);
        let (events, complete) = match since {
            Some(since) if since <= v => {
                let missed: Vec<&Batch> = self.history.iter().filter(|b| b.v > since).collect();
                let complete = missed.first().is_none_or(|b| b.from <= since);
                (missed, complete)
            }
            _ => (Vec::new(), since.is_none()),
        };
        let sync = json!({
            "table": self.id,
            "v": v,
            "since": since,
            "complete": complete,
            "batches": events,
            "state": self.table.view(viewer, now()),
        });
        conn.send(protocol::out("sync", sync, req.as_ref()));
        self.subs.insert(conn.id, conn);
    }

    async fn leave_socket(&mut self, conn_id: ConnId) {
        let Some(conn) = self.subs.remove(&conn_id) else {
            return;
        };
        let Some(user) = conn.user else { return };
        let still_here = self
            .subs
            .values()
            .any(|c| c.user.as_ref().is_some_and(|u| u.id == user.id));
        if still_here {
            return;
        }
        let name = user.username;
        let state = self.table.state();
        let seated_present = self
            .table
            .seat_of(&name)
            .is_some_and(|s| state.seats[s.index()].absent_since.is_none());
        if seated_present {
            let _ = self
                .apply_and_commit(Command::Disconnect { user: name }, None, None)
                .await;
        } else if self.table.is_watching(&name) {
            self.unwatch_live(&name);
        }
    }

    /// A spectator stops watching: live only.
    fn unwatch_live(&mut self, name: &str) {
        if let Ok(events) = self.table.unwatch(name) {
            self.broadcast_live(&events);
        }
    }

    /// Sends live-only events (spectators coming and going) to every subscriber:
    /// a batch that moves no version (`from` = `v`), kept out of the history
    /// (a client that resumes gets the spectators in its state).
    fn broadcast_live(&mut self, events: &[Event]) {
        let v = self.table.version();
        let batch = Batch {
            from: v,
            v,
            events: serde_json::to_value(events).unwrap_or(Value::Null),
            ratings: None,
        };
        self.broadcast(&batch);
        self.app.lobby.publish(self.summary());
    }

    fn viewer_of(&self, conn: &Conn) -> Viewer {
        match conn
            .user
            .as_ref()
            .and_then(|u| self.table.seat_of(&u.username))
        {
            Some(seat) => Viewer::Seat(seat),
            None => Viewer::Spectator,
        }
    }

    /// Applies a command, commits its log entries, writes game starts and ends, and
    /// broadcasts. Returns the new version, or the typed refusal.
    async fn apply_and_commit(
        &mut self,
        cmd: Command,
        _from: Option<&Conn>,
        _req: Option<&Value>,
    ) -> Result<u64, ApiError> {
        let (taken, is_move) = (
            std::time::Instant::now(),
            matches!(cmd, Command::Act { .. }),
        );
        let from = self.persisted;
        let result = self.table.apply(cmd, now());
        self.played.store(
            self.table.state().status != Status::Waiting,
            Ordering::Relaxed,
        );
        let (events, refusal) = match result {
            Ok(events) => (events, None),
            Err(mut refusal) => (std::mem::take(&mut refusal.fired), Some(refusal)),
        };
        if self.table.version() > self.persisted {
            let committing = std::time::Instant::now();
            self.persist().await?;
            self.app.metrics.store_commit.observe(committing.elapsed());
            let ratings = self.game_rows(&events).await;
            let batch = Batch {
                from,
                v: self.table.version(),
                events: serde_json::to_value(&events).unwrap_or(Value::Null),
                ratings,
            };
            self.broadcast(&batch);
            if is_move && refusal.is_none() {
                self.app
                    .metrics
                    .move_accepted(self.table.game_name(), taken);
            }
            // Bounded: a client further behind than this gets the state alone.
            if self.history.len() >= MAX_HISTORY {
                self.history.drain(..MAX_HISTORY / 4);
            }
            self.history.push(batch);
            self.app.lobby.publish(self.summary());
        }
        match refusal {
            Some(refusal) => Err(refusal_error(&refusal)),
            None => Ok(self.table.version()),
        }
    }

    /// Writes the log entries the store does not have yet. On failure the table is
    /// rebuilt from the store, so that memory never runs ahead of the disk.
    async fn persist(&mut self) -> Result<(), ApiError> {
        let entries: Vec<(u64, qiyuan_table::LogEntry)> = self.table.log()
            [self.persisted as usize..]
            .iter()
            .enumerate()
            .map(|(i, e)| (self.persisted + i as u64 + 1, e.clone()))
            .collect();
        for (version, entry) in entries {
            let text = serde_json::to_string(&entry).map_err(ApiError::internal)?;
            let stored = self
                .app
                .store
                .append(&self.id, version as i64, entry.at as i64, &text)
                .await;
            if let Err(err) = stored {
                tracing::error!(table = %self.id, version, "cannot store log entry: {err}");
                self.rebuild().await;
                return Err(ApiError::internal(err));
            }
            self.persisted = version;
        }
        Ok(())
    }

    async fn rebuild(&mut self) {
        let rebuilt = async {
            let log = self.app.store.log(&self.id, 0).await?;
            let mut table = self
                .app
                .games
                .new_table(self.table.game_name(), self.table.config().clone())
                .map_err(anyhow::Error::msg)?;
            for entry in &log {
                let logged: qiyuan_table::LogEntry = serde_json::from_str(&entry.entry)?;
                table
                    .apply_entry(&logged)
                    .map_err(|r| anyhow::anyhow!("{r}"))?;
            }
            anyhow::Ok((table, log.len() as u64))
        }
        .await;
        match rebuilt {
            Ok((table, persisted)) => {
                self.table = table;
                self.persisted = persisted;
            }
            Err(err) => {
                tracing::error!(table = %self.id, "cannot rebuild after a store failure: {err:#}")
            }
        }
    }

    fn broadcast(&mut self, batch: &Batch) {
        let now = now();
        let mut cache: HashMap<Viewer, Utf8Bytes> = HashMap::new();
        let mut slow = Vec::new();
        for (id, conn) in &self.subs {
            let viewer = self.viewer_of(conn);
            let text = cache
                .entry(viewer)
                .or_insert_with(|| {
                    let mut d = serde_json::to_value(batch).unwrap_or(Value::Null);
                    if let Value::Object(map) = &mut d {
                        map.insert("table".into(), Value::from(self.id.clone()));
                        map.insert("state".into(), self.table.view(viewer, now));
                    }
                    protocol::out("event", d, None).into()
                })
                .clone();
            if !conn.send(text) {
                slow.push(*id);
            }
        }
        for id in slow {
            tracing::warn!(table = %self.id, conn = id, "socket too slow; unsubscribed");
            self.subs.remove(&id);
        }
    }

    /// Writes the stored game rows for games that started or ended in `events`;
    /// returns the rating changes of an ended game.
    async fn game_rows(&mut self, events: &[Event]) -> Option<Value> {
        let mut ratings = None;
        for event in events {
            match event {
                Event::Started {
                    game,
                    players,
                    settings,
                    ..
                } => {
                    if let Err(e) = self.started(*game, players, settings).await {
                        tracing::error!(table = %self.id, "cannot store game start: {e}");
                    }
                    let id = self.game_id_of(*game);
                    crate::logs::game_started(&self.id, &id, self.table.game_name(), players);
                }
                Event::Ended { outcome, rated } => {
                    if let Some(g) = &self.table.state().game {
                        let id = self.game_id_of(g.number);
                        let game = self.table.game_name();
                        crate::logs::game_ended(&self.id, &id, game, &g.players, outcome);
                    }
                    match self.ended(outcome, *rated).await {
                        Ok(r) => ratings = r,
                        Err(e) => tracing::error!(table = %self.id, "cannot store game end: {e}"),
                    }
                }
                _ => {}
            }
        }
        ratings
    }

    fn game_id_of(&self, number: u32) -> String {
        if number <= 1 {
            self.id.clone()
        } else {
            format!("{}-{number}", self.id)
        }
    }

    fn pool(&self, settings: &Settings) -> String {
        let speed = settings.time.speed();
        match self.app.games.get(self.table.game_name()) {
            Some(game) => game.pool(speed),
            // A table exists only for a hosted game.
            None => qiyuan_rating::pool(self.table.game_name(), None),
        }
    }

    async fn started(
        &mut self,
        number: u32,
        players: &[String],
        settings: &Settings,
    ) -> anyhow::Result<()> {
        let id = self.game_id_of(number);
        let pool = self.pool(settings);
        // Whether the game counts, as the table decided at its start (a game from
        // a loaded position never does, whatever its settings say).
        let rated = self
            .table
            .state()
            .game
            .as_ref()
            .filter(|g| g.number == number)
            .is_some_and(|g| g.rated);
        let mut rows = Vec::new();
        for (seat, name) in players.iter().enumerate() {
            let user = self.app.store.user_by_name(name).await?;
            let rating = match &user {
                Some(u) if rated && !u.guest => Some(
                    self.app
                        .store
                        .rating(u.id, &pool)
                        .await?
                        .map(|r| r.rating.round() as i64)
                        .unwrap_or(qiyuan_rating::DEFAULT_RATING as i64),
                ),
                _ => None,
            };
            rows.push(Player {
                seat: seat as i64,
                user_id: user.map(|u| u.id),
                name: name.clone(),
                rating,
                rating_diff: None,
            });
        }
        let started_at = self
            .table
            .state()
            .game
            .as_ref()
            .map(|g| g.started_at as i64)
            .unwrap_or_else(crate::now_ms);
        self.app
            .store
            .start_game(&NewGame {
                id: id.clone(),
                table_id: self.id.clone(),
                number: i64::from(number),
                game: self.table.game_name().to_string(),
                settings: serde_json::to_string(settings)?,
                rated,
                started_at,
                players: rows,
            })
            .await?;
        self.game_id = Some(id);
        Ok(())
    }

    /// Stores a finished game: loads who held each seat and their ratings,
    /// settles the game ([`qiyuan_rating::settle`]: ratings, points, per-seat
    /// rows), and writes what it says.
    async fn ended(&mut self, outcome: &Outcome, rated: bool) -> anyhow::Result<Option<Value>> {
        let Some(gs) = self.table.state().game.clone() else {
            return Ok(None);
        };
        let id = self.game_id_of(gs.number);
        let pool = self.pool(&gs.settings);
        let mut users = Vec::new();
        let mut holders = Vec::new();
        for name in &gs.players {
            let user = self
                .app
                .store
                .user_by_name(name)
                .await?
                .filter(|u| !u.guest);
            let rating = match &user {
                Some(u) => match self.app.store.rating(u.id, &pool).await? {
                    Some(r) => qiyuan_rating::Rating {
                        rating: r.rating,
                        deviation: r.deviation,
                        volatility: r.volatility,
                        games: r.games,
                    },
                    None => qiyuan_rating::Rating::default(),
                },
                None => qiyuan_rating::Rating::default(),
            };
            holders.push(qiyuan_rating::SeatHolder {
                account: user.is_some(),
                rating,
            });
            users.push(user);
        }
        let game = self.table.game_name();
        let settled = qiyuan_rating::settle(qiyuan_rating::GameEnd {
            outcome,
            rated,
            keeps_points: self.app.games.get(game).is_some_and(|g| g.points),
            seats: &holders,
        })?;
        let at = crate::now_ms();
        let mut finish = Finish {
            game_id: id,
            at,
            result: serde_json::to_string(outcome)?,
            record: self
                .record(settled.record_ratings.clone())
                .unwrap_or_default(),
            rating_diffs: Vec::new(),
            ratings: Vec::new(),
            points: Vec::new(),
        };
        let mut changes = Vec::new();
        for (seat, user) in settled.seats.iter().zip(&users) {
            let Some(user) = user else { continue };
            if let Some(change) = seat.rating {
                finish
                    .rating_diffs
                    .push((i64::from(seat.seat.0), change.diff));
                finish.ratings.push(RatingRow {
                    user_id: user.id,
                    pool: pool.clone(),
                    rating: change.after.rating,
                    deviation: change.after.deviation,
                    volatility: change.after.volatility,
                    games: change.after.games,
                    updated_at: at,
                });
                changes.push(json!({
                    "seat": seat.seat,
                    "user": user.username,
                    "pool": pool,
                    "before": change.before.shown(),
                    "after": change.after.shown(),
                    "diff": change.diff,
                    "provisional": change.after.provisional(),
                }));
            }
            // Points (积分) for life, where the game keeps them.
            if let Some(diff) = seat.points {
                finish.points.push(PointsChange {
                    user_id: user.id,
                    game: game.to_string(),
                    diff,
                });
            }
        }
        let changes = (settled.unrated.is_none()).then(|| Value::from(changes));
        let first_time = self.app.store.finish_game(&finish).await?;
        Ok(if first_time { changes } else { None })
    }

    /// After a restart: make sure the stored rows agree with the replayed table
    /// (a crash may have come between the log entry and the game row).
    async fn restore_game_rows(&mut self) {
        let Some(gs) = self.table.state().game.clone() else {
            return;
        };
        if let Err(e) = self.started(gs.number, &gs.players, &gs.settings).await {
            tracing::error!(table = %self.id, "cannot restore game row: {e}");
        }
        if let Some(outcome) = &gs.outcome
            && let Err(e) = self.ended(outcome, gs.rated).await
        {
            tracing::error!(table = %self.id, "cannot restore game end: {e}");
        }
    }

    fn summary(&self) -> TableSummary {
        let state = self.table.state();
        let playing = state
            .game
            .as_ref()
            .filter(|_| state.status == Status::Playing);
        let settings = playing
            .map(|g| &g.settings)
            .unwrap_or(&state.proposal.settings);
        // What counts: the game's own verdict, or what the proposal would give (a
        // loaded position is never rated).
        let rated = playing.map_or(
            settings.rated && settings.setup == qiyuan_game::Setup::Standard,
            |g| g.rated,
        );
        TableSummary {
            id: self.id.clone(),
            game: self.table.game_name().to_string(),
            status: state.status,
            seats: state
                .seats
                .iter()
                .map(|s| crate::lobby::SeatSummary {
                    user: s.user.clone(),
                    connected: s.absent_since.is_none(),
                    ready: s.ready,
                })
                .collect(),
            time: settings.time,
            rated,
            spectators: self.table.spectator_count(),
            version: self.table.version(),
            invite: format!("/table/{}", self.id),
        }
    }
}

/// A protocol table action as the table's command, for `user`.
fn command(act: TableAct, user: String) -> Command {
    match act {
        TableAct::Sit { seat } => Command::Sit { user, seat },
        TableAct::Stand => Command::Stand { user },
        TableAct::Propose { settings } => Command::Propose { user, settings },
        TableAct::Accept { proposal } => Command::Accept { user, proposal },
        TableAct::Ready { proposal } => Command::Ready { user, proposal },
        TableAct::Unready => Command::Unready { user },
        TableAct::Swap { with } => Command::Swap { user, with },
        TableAct::Move { action } => Command::Act {
            user,
            action,
            lag: 0,
        },
        TableAct::DrawOffer => Command::OfferDraw { user },
        TableAct::DrawAccept => Command::AcceptDraw { user },
        TableAct::DrawDecline => Command::DeclineDraw { user },
        TableAct::TakebackRequest => Command::RequestTakeback { user },
        TableAct::TakebackAccept => Command::AcceptTakeback { user },
        TableAct::TakebackDecline => Command::DeclineTakeback { user },
        TableAct::Claim { claim } => Command::Claim { user, claim },
        TableAct::Resign => Command::Resign { user },
        TableAct::Abort => Command::Abort { user },
        TableAct::Leave => Command::Leave { user },
        TableAct::Rematch => Command::Rematch { user },
        // Turned into the bot's own commands by `bots` in `act`; a tick changes
        // nothing.
        TableAct::AddBot { .. } | TableAct::RemoveBot { .. } => Command::Tick,
    }
}

/// A table's refusal as a typed client error; the code names the refusal kind
/// (for a game's refusal, the game's kind: `illegal`, `not_your_turn`, ...).
fn refusal_error(refusal: &TableRefusal) -> ApiError {
    use TableRefusalKind as K;
    use qiyuan_game::RefusalKind as G;
    let code = match &refusal.kind {
        K::NotSeated => "not_seated",
        K::AlreadySeated => "already_seated",
        K::SeatTaken => "seat_taken",
        K::NoSuchSeat => "no_such_seat",
        K::NotAtTable => "not_at_table",
        K::GameInProgress => "game_in_progress",
        K::NoGame => "no_game",
        K::SettingsFixed => "settings_fixed",
        K::BadSettings => "bad_settings",
        K::StaleProposal => "stale_proposal",
        K::NotYourTurn => "not_your_turn",
        K::NothingToAnswer => "nothing_to_answer",
        K::NotAllowed => "not_allowed",
        K::TooSoon => "too_soon",
        K::BadOutcome => "bad_outcome",
        K::Game(G::NotYourTurn) => "not_your_turn",
        K::Game(G::Malformed) => "malformed_action",
        K::Game(G::Illegal) => "illegal",
        K::Game(G::WrongPhase) => "wrong_phase",
        K::Game(G::GameOver) => "game_over",
        K::Game(G::NoSuchSeat) => "no_such_seat",
        K::Game(G::ClaimRefused) => "claim_refused",
    };
    ApiError::new(
        axum::http::StatusCode::CONFLICT,
        code,
        refusal.message.clone(),
    )
}

/// `YYYY.MM.DD` of a Unix time in milliseconds (civil-from-days, proleptic
/// Gregorian).
fn date_of(ms: Millis) -> String {
    let days = (ms / 86_400_000) as i64;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn dates() {
        assert_eq!(super::date_of(0), "1970.01.01");
        assert_eq!(super::date_of(1_700_000_000_000), "2023.11.14");
    }
}
