//! Live tables: one tokio task per table owns its `qiyuan_table::Table` and is the
//! only code that touches it, so there are no locks around game state. Commands
//! arrive through a channel; each accepted command's log entries are committed to
//! the store before anything is acknowledged or broadcast; timers (flags, the
//! first-move timer, escape) fire from the task itself at the table's next
//! deadline, with no client message needed.
//!
//! This module owns a table's address and messages ([`TableMsg`],
//! [`TableHandle`]) and how a table comes to life (created, or rebuilt after a
//! restart). The task's work is split by concern, one collaborator each:
//! - [`tables`]: every live table on this node, and the cap on idle tables;
//! - `actor`: the task's loop, which only dispatches;
//! - `acting`: a user's command at a table (checks, the table command, refusals);
//! - `presence`: sockets and spectators coming and going;
//! - `commit`: apply, commit to the store, then broadcast; a rebuild on failure;
//! - `replay`: the one replay of a stored log (restart and rebuild);
//! - `fanout`: subscribers, the history of batches, resuming from a version;
//! - `settlement`: the stored game rows of games that start and end;
//! - `record`: the current game's record;
//! - `summary`: the table as the lobby lists it;
//! - `pauses`: time nobody could act (a stall, the bus down), credited to the clocks.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use axum::extract::ws::Utf8Bytes;
use qiyuan_game::Seat;
use qiyuan_store::TableRow;
use qiyuan_table::{Command, Millis, Settings, TableConfig};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

use crate::App;
use crate::error::ApiError;
use crate::protocol::{ServerMsg, TableAct};

mod acting;
mod actor;
mod commit;
mod computer;
mod fanout;
mod pauses;
mod presence;
mod record;
mod replay;
mod settlement;
mod summary;
pub mod tables;

pub use pauses::Pauses;
pub use tables::Registry;

use actor::Live;

pub type ConnId = u64;

/// The user behind a connection.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
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
    /// The socket's measured lag (its round trip) and its client's report.
    pub lag: Arc<crate::ws::LagMeter>,
}

impl Conn {
    /// Queues a message; a socket too slow to take it is dropped by its caller.
    pub fn send(&self, text: impl Into<Utf8Bytes>) -> bool {
        self.tx.try_send(text.into()).is_ok()
    }

    /// Queues a server message, answering request `id` if given.
    pub fn reply(&self, msg: &ServerMsg, id: Option<&Value>) -> bool {
        self.send(msg.encode(id))
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
    /// Several nodes: this node lost the table's lease (another node owns it
    /// now); the task stops without writing anything.
    Fenced,
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

impl TableHandle {
    /// Applies commands the server itself issues (seating, readying, an
    /// arbiter's decision) and waits until they are stored. The outer error: the
    /// table's task is gone; the inner one: the table refused them (nothing of
    /// them was applied), in the table's words.
    pub async fn internal(&self, cmds: Vec<Command>) -> Result<Result<(), String>, ApiError> {
        let (done, wait) = oneshot::channel();
        let gone = || ApiError::internal("table task gone");
        self.tx
            .send(TableMsg::Internal { cmds, done })
            .await
            .map_err(|_| gone())?;
        wait.await.map_err(|_| gone())
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
    create_with_id(app, game, settings, owner, seat, new_id()).await
}

/// Creates a private table (单机, see [`crate::solo`]) of `owner`: listed nowhere.
pub async fn create_private(
    app: &Arc<App>,
    game: &str,
    settings: Settings,
    owner: &UserInfo,
) -> Result<TableHandle, ApiError> {
    let id = crate::solo::new_private_id();
    create_with_id(app, game, settings, Some(owner), None, id).await
}

async fn create_with_id(
    app: &Arc<App>,
    game: &str,
    settings: Settings,
    owner: Option<&UserInfo>,
    seat: Option<Seat>,
    id: String,
) -> Result<TableHandle, ApiError> {
    let config = TableConfig {
        settings,
        tournament: false,
        first_move: app.config.first_move_secs.map(|s| (s * 1000.0) as Millis),
        grace: app.config.escape_grace_secs.map(|s| (s * 1000.0) as Millis),
        // 托管: where the computer can play for an away player, being away
        // is no escape (bots.rs plays for them until they are back).
        trusteeship: app.games.get(game).is_some_and(|g| g.trusteeship),
        // Each game's deal draws from a fresh secret of its own (see `registry`).
        deal_seed: None,
    };
    create_configured(app, game, config, owner, seat, id).await
}

/// Creates a table with the server's own configuration (an event's tournament
/// table): stored, then its task starts.
pub async fn create_with(
    app: &Arc<App>,
    game: &str,
    config: TableConfig,
) -> Result<TableHandle, ApiError> {
    create_configured(app, game, config, None, None, new_id()).await
}

async fn create_configured(
    app: &Arc<App>,
    game: &str,
    config: TableConfig,
    owner: Option<&UserInfo>,
    seat: Option<Seat>,
    id: String,
) -> Result<TableHandle, ApiError> {
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
    let row = TableRow {
        id: id.clone(),
        game: table.game_name().to_string(),
        config: serde_json::to_string(&config).map_err(ApiError::internal)?,
        open: true,
        created_at: crate::now_ms(),
    };
    // Several nodes: the lease first, so that no node sees an open table
    // without an owner.
    let lease = match &app.cluster {
        Some(cluster) => Some(
            cluster
                .lease_new(app, &id)
                .await
                .map_err(ApiError::internal)?,
        ),
        None => None,
    };
    if let Err(e) = app.store.create_table(&row).await {
        if let Some(cluster) = &app.cluster {
            cluster.release(app, &id).await;
        }
        return Err(e.into());
    }
    let mut live = Live::new(app.clone(), id, table, 0);
    live.lease = lease;
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
    restore_leased(app, row, None).await
}

/// Rebuilds one table from its log and resumes it; with several nodes, under
/// the `lease` this node took (a restart, or a takeover from a node that died).
/// The time since the last logged entry is charged to no clock (the `Restart`
/// entry, which replays the same way).
pub(crate) async fn restore_leased(
    app: &Arc<App>,
    row: &TableRow,
    lease: Option<i64>,
) -> anyhow::Result<()> {
    let config: TableConfig = serde_json::from_str(&row.config)?;
    let replayed = replay::replay(app, &row.id, &row.game, config).await?;
    let down_since = replayed.last_at.unwrap_or_else(now);
    let mut live = Live::new(
        app.clone(),
        row.id.clone(),
        replayed.table,
        replayed.persisted,
    );
    live.lease = lease;
    live.fanout.restore_history(replayed.history);
    // Games that ended before the crash but whose end was not yet written.
    live.restore_game_rows().await;
    let _ = live.apply_and_commit(Command::Restart { down_since }).await;
    live.spawn();
    Ok(())
}
