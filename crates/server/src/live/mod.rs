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
//! - [`tables`]: every live table on this node, and each person's caps on tables;
//! - `actor`: the task's loop, which only dispatches;
//! - `acting`: a user's command at a table (checks, the table command, refusals);
//! - `presence`: sockets and spectators coming and going;
//! - `commit`: apply, commit to the store, then broadcast; a rebuild on failure;
//! - `replay`: the one replay of a stored log (restart and rebuild);
//! - `fanout`: subscribers, the history of batches, resuming from a version;
//! - `settlement`: the stored game rows of games that start and end;
//! - `record`: the current game's record;
//! - `summary`: the table as the lobby lists it;
//! - `pauses`: time nobody could act (a stall, the bus down), credited to the clocks;
//! - `hotseat`: who may come to a private table, who a hot-seat user acts as;
//! - `kind`: a table's kind ([`TableKind`]) and a seat's occupant
//!   ([`Occupant`]), the one reader and writer of their persisted forms;
//! - `lag`: a socket's lag ([`LagMeter`]), fed by the socket, read by the table;
//! - [`events`]: what the tables tell the features that listen;
//! - [`env`]: what a table needs from the server, and the ports features fill.
//!
//! This module is the core of the server: it imports no feature (solo,
//! lobby, cluster, lichess, events, ws, api, ...). What it needs it gets
//! through its [`Env`]; features hear of it through [`TableEvents`] and the
//! ports in [`env`].

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use axum::extract::ws::Utf8Bytes;
use qiyuan_game::Seat;
use qiyuan_store::TableRow;
use qiyuan_table::{Command, Millis, Settings, TableConfig};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

use crate::error::ApiError;
use crate::protocol::{ServerMsg, TableAct};

mod acting;
mod actor;
mod commit;
mod computer;
pub mod env;
pub mod events;
mod fanout;
mod hotseat;
mod kind;
mod lag;
mod pauses;
mod presence;
mod record;
pub(crate) use record::ymd_of;
mod replay;
mod settlement;
mod summary;
pub mod tables;
pub mod watch;

pub use env::{Env, LobbySink, Ownership, Rules};
pub use events::{TableEvent, TableEvents};
pub use kind::{Occupant, TableKind};
pub use lag::LagMeter;
pub use pauses::Pauses;
pub use summary::{SeatSummary, TableSummary};
pub use tables::Registry;

use actor::Live;
use tables::Claim;

pub type ConnId = u64;

/// Connection ids from here up name stand-ins of other nodes' sockets (the
/// cluster makes them); a node's own sockets count up from 1, far below.
pub const REMOTE_CONNS: ConnId = 1 << 48;

/// Whether a connection stands for another node's socket.
pub fn is_remote(conn: ConnId) -> bool {
    conn >= REMOTE_CONNS
}

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
    pub lag: Arc<LagMeter>,
}

/// What became of a message queued for a connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delivery {
    Queued,
    /// The queue is full: the connection does not keep up.
    Full,
    /// Nobody reads the queue any more: the connection has gone (a socket
    /// closed, an API request or stream that ended).
    Gone,
}

impl Conn {
    /// Queues a message; a socket too slow to take it is dropped by its caller.
    pub fn send(&self, text: impl Into<Utf8Bytes>) -> bool {
        self.offer(text) == Delivery::Queued
    }

    /// Queues a message, saying why it was not.
    pub fn offer(&self, text: impl Into<Utf8Bytes>) -> Delivery {
        match self.tx.try_send(text.into()) {
            Ok(()) => Delivery::Queued,
            Err(mpsc::error::TrySendError::Full(_)) => Delivery::Full,
            Err(mpsc::error::TrySendError::Closed(_)) => Delivery::Gone,
        }
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
    /// Subscribe a follower of the table's typed feed ([`watch`]); a
    /// `present` one counts as its user's connection.
    Follow {
        conn: Conn,
        present: bool,
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

/// The person who opened a table: they hold it while no game has started
/// there (see [`tables`]), and a private table (单机) is theirs alone. Kept
/// with the table's stored configuration ([`Stored`]), so that a restart or
/// another node knows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Owner {
    pub id: i64,
    pub name: String,
}

impl Owner {
    pub fn of(user: &UserInfo) -> Self {
        Owner {
            id: user.id,
            name: user.username.clone(),
        }
    }
}

/// A table's configuration as its stored row keeps it: the table's own, and
/// who opened it. (Readers of the row that want the table's configuration
/// alone read it as a `TableConfig`, which passes `owner` over.)
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Stored {
    #[serde(flatten)]
    pub config: TableConfig,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<Owner>,
    /// For the people invited alone (see [`TableHandle::invite_only`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub invite_only: bool,
}

/// A live table's address.
#[derive(Clone)]
pub struct TableHandle {
    pub id: String,
    pub game: &'static str,
    pub tx: mpsc::Sender<TableMsg>,
    /// The person who opened the table (`None`: the server did).
    pub owner: Option<Arc<Owner>>,
    /// Whether a game has started there (kept by the table's task): until then
    /// the table counts towards its owner's cap of idle tables.
    pub played: Arc<AtomicBool>,
    /// Who sits there now (kept by the table's task), for the features that
    /// tell players from spectators.
    pub sitting: Arc<Sitting>,
    /// The table is for the people invited to it alone (an invitation or a
    /// link seats them): listed nowhere, and only its owner and those seated
    /// there watch it, act there or join its chat (a table another node owns
    /// is not known so here: its task still refuses).
    pub invite_only: bool,
}

/// The people sitting at a table now, by name, as its task last saw them
/// (computer players and hot-seat stand-ins are nobody): the players, as
/// opposed to the spectators. Written by the table's task when its seats
/// change, read by whoever routes by who is who at the table.
#[derive(Debug, Default)]
pub struct Sitting(std::sync::RwLock<Vec<String>>);

impl Sitting {
    /// Whether `person` sits at the table.
    pub fn has(&self, person: &str) -> bool {
        self.read().iter().any(|p| p == person)
    }

    /// The people sitting there.
    pub fn people(&self) -> Vec<String> {
        self.read().clone()
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, Vec<String>> {
        self.0.read().unwrap_or_else(|e| e.into_inner())
    }

    /// Who sits at a table another node owns, as its summary last told: a
    /// proxy's copy.
    pub fn relay(&self, people: Vec<String>) {
        if *self.read() != people {
            *self.0.write().unwrap_or_else(|e| e.into_inner()) = people;
        }
    }

    /// Tells who sits there now; a write only when it changed (most batches
    /// are moves, which change nobody).
    pub(super) fn tell<'a>(&self, people: impl Iterator<Item = &'a str> + Clone) {
        if people.clone().eq(self.read().iter().map(String::as_str)) {
            return;
        }
        *self.0.write().unwrap_or_else(|e| e.into_inner()) = people.map(str::to_string).collect();
    }
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

/// Creates a table for the server to seat `players` at straight away (quick
/// pairing, an accepted challenge): refused, making nothing, when one of them
/// holds the most tables one person may (`max_tables_per_user`). Their places
/// are held until the returned reservation is dropped, once they are seated.
pub async fn create_seating<'a>(
    env: &'a Arc<Env>,
    game: &str,
    settings: Settings,
    players: &[&str],
) -> Result<(TableHandle, tables::Reservation<'a>), ApiError> {
    create_seating_as(env, new_id(), game, settings, players).await
}

/// [`create_seating`] under a given id (an accepted API challenge's game has
/// the challenge's id, as on Lichess): the caller makes sure no table has it.
pub async fn create_seating_as<'a>(
    env: &'a Arc<Env>,
    id: String,
    game: &str,
    settings: Settings,
    players: &[&str],
) -> Result<(TableHandle, tables::Reservation<'a>), ApiError> {
    let claim = Claim {
        owner: None,
        idle_cap: false,
        players,
    };
    let config = table_config(env, game, settings);
    let made = Made {
        id,
        kind: TableKind::Public,
        owner: None,
        invite_only: false,
    };
    create_configured(env, game, config, claim, made, None).await
}

/// Creates a table: checked, stored, then its task starts. With an `owner`,
/// the table counts towards their cap of open tables nobody plays at, where no
/// game has started yet (`max_idle_tables_per_user`), and they hold it until
/// then (`max_tables_per_user`). With a `seat`, it must be one of the game's
/// seats: a refused creation leaves nothing behind.
pub async fn create_for(
    env: &Arc<Env>,
    game: &str,
    settings: Settings,
    owner: Option<&UserInfo>,
    seat: Option<Seat>,
    invite_only: bool,
) -> Result<TableHandle, ApiError> {
    let claim = Claim {
        owner: owner.map(|u| u.username.as_str()),
        idle_cap: true,
        players: &[],
    };
    let config = table_config(env, game, settings);
    let made = Made {
        id: new_id(),
        kind: TableKind::Public,
        owner: owner.map(Owner::of),
        invite_only,
    };
    let (handle, _) = create_configured(env, game, config, claim, made, seat).await?;
    Ok(handle)
}

/// Creates a table of `owner`'s where the server starts the game at once
/// (against the computer, or hot-seat): it counts towards the tables they hold
/// (`max_tables_per_user`), not towards their idle ones. A private or
/// hot-seat one ([`TableKind::Private`], [`TableKind::HotSeat`], 单机) is
/// listed nowhere and is theirs alone.
pub async fn create_started(
    env: &Arc<Env>,
    game: &str,
    settings: Settings,
    owner: &UserInfo,
    kind: TableKind,
) -> Result<TableHandle, ApiError> {
    let claim = Claim {
        owner: Some(&owner.username),
        idle_cap: false,
        players: &[],
    };
    let config = table_config(env, game, settings);
    let made = Made {
        id: kind.new_id(),
        kind,
        owner: Some(Owner::of(owner)),
        invite_only: false,
    };
    let (handle, _) = create_configured(env, game, config, claim, made, None).await?;
    Ok(handle)
}

/// A new table's configuration: the server's settings with `settings`.
fn table_config(env: &Env, game: &str, settings: Settings) -> TableConfig {
    TableConfig {
        settings,
        tournament: false,
        first_move: env.rules.first_move,
        grace: env.rules.grace,
        // 托管: where the computer can play for an away player, being away
        // is no escape (bots.rs plays for them until they are back).
        trusteeship: env.games.get(game).is_some_and(|g| g.trusteeship),
        // Each game's deal draws from a fresh secret of its own (see `registry`).
        deal_seed: None,
        deal: None,
    }
}

/// Creates a table with the server's own configuration (an event's tournament
/// table): stored, then its task starts.
pub async fn create_with(
    env: &Arc<Env>,
    game: &str,
    config: TableConfig,
) -> Result<TableHandle, ApiError> {
    let made = Made {
        id: new_id(),
        kind: TableKind::Public,
        owner: None,
        invite_only: false,
    };
    let (handle, _) = create_configured(env, game, config, Claim::server(), made, None).await?;
    Ok(handle)
}

/// What a new table is: its id, its kind, and who opened it.
struct Made {
    id: String,
    kind: TableKind,
    owner: Option<Owner>,
    invite_only: bool,
}

async fn create_configured<'a>(
    env: &'a Arc<Env>,
    game: &str,
    config: TableConfig,
    claim: Claim<'_>,
    made: Made,
    seat: Option<Seat>,
) -> Result<(TableHandle, tables::Reservation<'a>), ApiError> {
    let table = env
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
    let reservation = env.tables.reserve(
        &claim,
        env.rules.max_tables_per_user,
        env.rules.max_idle_tables_per_user,
    )?;
    let Made {
        id,
        kind,
        owner,
        invite_only,
    } = made;
    let stored = Stored {
        config,
        owner: owner.clone(),
        invite_only,
    };
    let row = TableRow {
        id: id.clone(),
        game: table.game_name().to_string(),
        config: serde_json::to_string(&stored).map_err(ApiError::internal)?,
        open: true,
        created_at: crate::now_ms(),
    };
    // Several nodes: the lease first, so that no node sees an open table
    // without an owner.
    let lease = match &env.ownership {
        Some(ownership) => Some(ownership.lease_new(&id).await.map_err(ApiError::internal)?),
        None => None,
    };
    if let Err(e) = env.store.create_table(&row).await {
        if let Some(ownership) = &env.ownership {
            ownership.release(&id).await;
        }
        return Err(e.into());
    }
    let mut live = Live::new(env.clone(), id.into(), kind, table, 0);
    live.lease = lease;
    live.owner = owner.map(Arc::new);
    live.invite_only = invite_only;
    Ok((live.spawn(), reservation))
}

/// Rebuilds every open table from its log; returns how many.
pub async fn restore(env: &Arc<Env>) -> anyhow::Result<usize> {
    let rows = env.store.open_tables().await?;
    let mut restored = 0;
    for row in rows {
        match restore_leased(env, &row, None).await {
            Ok(()) => restored += 1,
            Err(err) => tracing::error!(table = %row.id, "cannot rebuild table: {err:#}"),
        }
    }
    Ok(restored)
}

/// Rebuilds one table from its log and resumes it; with several nodes, under
/// the `lease` this node took (a restart, or a takeover from a node that died).
/// The time since the last logged entry is charged to no clock (the `Restart`
/// entry, which replays the same way). The table's kind is decoded here, once,
/// from its stored id and its seats.
pub async fn restore_leased(
    env: &Arc<Env>,
    row: &TableRow,
    lease: Option<i64>,
) -> anyhow::Result<()> {
    let Stored {
        config,
        owner,
        invite_only,
    } = serde_json::from_str(&row.config)?;
    let replayed = replay::replay(env, &row.id, &row.game, config).await?;
    let down_since = replayed.last_at.unwrap_or_else(now);
    let mut live = Live::new(
        env.clone(),
        row.id.as_str().into(),
        TableKind::of_table(&row.id, &*replayed.table),
        replayed.table,
        replayed.persisted,
    );
    live.lease = lease;
    live.owner = owner.map(Arc::new);
    live.invite_only = invite_only;
    live.fanout.restore_history(replayed.history);
    // Games that ended before the crash but whose end was not yet written.
    live.restore_game_rows().await;
    let _ = live.apply_and_commit(Command::Restart { down_since }).await;
    live.spawn();
    Ok(())
}
