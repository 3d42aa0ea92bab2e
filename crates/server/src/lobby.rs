//! The lobby: a room per game listing its live tables, pushed to subscribers as
//! they change, and quick pairing (seeks matched by game, time control and rated).

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use axum::extract::ws::Utf8Bytes;
use qiyuan_table::{Command, Settings, Status, TimeControl};
use serde::{Deserialize, Serialize};
use tokio::sync::{broadcast, mpsc};

use crate::App;
use crate::error::ApiError;
use crate::live::{self, Conn, ConnId, TableMsg};
use crate::protocol::{Seek, ServerMsg};

/// A table as the lobby lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct TableSummary {
    pub id: String,
    pub game: String,
    pub status: Status,
    pub seats: Vec<SeatSummary>,
    pub time: TimeControl,
    pub rated: bool,
    pub spectators: usize,
    /// The path of the table's invitation link.
    pub invite: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct SeatSummary {
    pub user: Option<String>,
    pub connected: bool,
    pub ready: bool,
}

struct Room {
    tables: BTreeMap<String, TableSummary>,
    tx: broadcast::Sender<Utf8Bytes>,
}

impl Room {
    fn new() -> Self {
        Room {
            tables: BTreeMap::new(),
            tx: broadcast::channel(1024).0,
        }
    }
}

fn page(room: &Room, after: Option<&str>, limit: usize) -> (Vec<TableSummary>, bool) {
    use std::ops::Bound;
    let from = match after {
        Some(id) => Bound::Excluded(id.to_string()),
        None => Bound::Unbounded,
    };
    let mut iter = room.tables.range((from, Bound::Unbounded));
    let tables: Vec<TableSummary> = iter.by_ref().take(limit).map(|(_, t)| t.clone()).collect();
    (tables, iter.next().is_some())
}

struct Waiting {
    conn: Conn,
    seek: Seek,
}

#[derive(Default)]
pub struct Lobby {
    rooms: Mutex<HashMap<String, Room>>,
    seeks: Mutex<Vec<Waiting>>,
    /// With several nodes: where this node's own changes go, for the others
    /// (see [`crate::cluster`]).
    relay: Mutex<Option<mpsc::UnboundedSender<Change>>>,
}

/// A change of a table in the lobby, as nodes tell each other.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "k", rename_all = "snake_case")]
pub enum Change {
    Table(TableSummary),
    Gone { game: String, id: String },
}

impl Lobby {
    fn rooms(&self) -> std::sync::MutexGuard<'_, HashMap<String, Room>> {
        self.rooms.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sends this node's lobby changes to `relay` too (several nodes).
    pub fn relay_to(&self, relay: mpsc::UnboundedSender<Change>) {
        *self.relay.lock().unwrap_or_else(|e| e.into_inner()) = Some(relay);
    }

    fn relay(&self, change: impl FnOnce() -> Change) {
        if let Some(relay) = &*self.relay.lock().unwrap_or_else(|e| e.into_inner()) {
            let _ = relay.send(change());
        }
    }

    /// A table changed: update the room and tell its subscribers.
    pub fn publish(&self, summary: TableSummary) {
        if self.publish_remote(summary.clone()) {
            self.relay(|| Change::Table(summary));
        }
    }

    /// A table of another node changed (or of this one: [`Lobby::publish`]);
    /// whether anything changed.
    pub fn publish_remote(&self, summary: TableSummary) -> bool {
        // Private tables (单机) are listed nowhere.
        if crate::solo::is_private(&summary.id) {
            return false;
        }
        let mut rooms = self.rooms();
        let room = rooms.entry(summary.game.clone()).or_insert_with(Room::new);
        if room.tables.get(&summary.id) == Some(&summary) {
            return false;
        }
        if room.tx.receiver_count() > 0 {
            let msg = ServerMsg::LobbyTable(summary.clone());
            let _ = room.tx.send(msg.encode(None).into());
        }
        room.tables.insert(summary.id.clone(), summary);
        true
    }

    /// A table closed.
    pub fn remove(&self, game: &str, id: &str) {
        self.remove_remote(game, id);
        self.relay(|| Change::Gone {
            game: game.to_string(),
            id: id.to_string(),
        });
    }

    /// A table of another node closed.
    pub fn remove_remote(&self, game: &str, id: &str) {
        let mut rooms = self.rooms();
        if let Some(room) = rooms.get_mut(game)
            && room.tables.remove(id).is_some()
            && room.tx.receiver_count() > 0
        {
            let msg = ServerMsg::LobbyGone {
                game: game.to_string(),
                id: id.to_string(),
            };
            let _ = room.tx.send(msg.encode(None).into());
        }
    }

    /// A room's first `limit` tables, whether there are more, and a receiver of
    /// its changes from now on.
    pub fn subscribe(
        &self,
        game: &str,
        limit: usize,
    ) -> (Vec<TableSummary>, bool, broadcast::Receiver<Utf8Bytes>) {
        let mut rooms = self.rooms();
        let room = rooms.entry(game.to_string()).or_insert_with(Room::new);
        let (tables, more) = page(room, None, limit);
        (tables, more, room.tx.subscribe())
    }

    /// A page of a room's tables: at most `limit` after the id `after`, in id
    /// order, and whether there are more.
    pub fn tables(
        &self,
        game: &str,
        after: Option<&str>,
        limit: usize,
    ) -> (Vec<TableSummary>, bool) {
        self.rooms()
            .get(game)
            .map(|room| page(room, after, limit))
            .unwrap_or_default()
    }

    /// Drops a socket's seeks (cancelled or closed).
    pub fn cancel_seeks(&self, conn: ConnId) -> bool {
        let mut seeks = self.seeks.lock().unwrap_or_else(|e| e.into_inner());
        let before = seeks.len();
        seeks.retain(|w| w.conn.id != conn);
        seeks.len() != before
    }
}

/// Quick pairing: matches `seek` with a waiting one, or queues it. When matched,
/// a table is created with both seated and ready, so the game starts at once, and
/// both sockets get `paired` and are subscribed to the table.
pub async fn seek(app: &Arc<App>, conn: Conn, seek: Seek) -> Result<Option<String>, ApiError> {
    let user = conn.user.clone().ok_or_else(ApiError::unauthorized)?;
    if app.games.get(&seek.game).is_none() {
        return Err(ApiError::bad_request(
            "unknown_game",
            format!("no game {:?} here", seek.game),
        ));
    }
    if seek.rated && user.guest {
        return Err(ApiError::forbidden(
            "guest_rated",
            "guests play casual games only",
        ));
    }
    if seek.rated && !app.config.api.bots_rated_with_humans && app.store.is_bot(user.id).await? {
        return Err(ApiError::forbidden(
            "bot_rated",
            "bot accounts play casual games only with humans here",
        ));
    }
    seek.time
        .validate()
        .map_err(|e| ApiError::bad_request("bad_settings", e))?;
    if let Some(cluster) = &app.cluster {
        return crate::cluster::pairing::seek(app, cluster, conn, seek, user).await;
    }
    let partner = {
        let mut seeks = app.lobby.seeks.lock().unwrap_or_else(|e| e.into_inner());
        seeks.retain(|w| !w.conn.tx.is_closed());
        let found = seeks
            .iter()
            .position(|w| w.seek == seek && w.conn.user.as_ref().is_some_and(|u| u.id != user.id));
        match found {
            Some(i) => Some(seeks.remove(i)),
            None => {
                seeks.retain(|w| w.conn.id != conn.id);
                seeks.push(Waiting {
                    conn: conn.clone(),
                    seek: seek.clone(),
                });
                None
            }
        }
    };
    let Some(partner) = partner else {
        return Ok(None);
    };
    pair(app, &seek, [partner.conn, conn]).await.map(Some)
}

/// Creates the table of a pair, seats both (the first takes the first seat)
/// and readies them, so the game starts at once; both sockets get `paired` and
/// are subscribed to the table.
pub(crate) async fn pair(
    app: &Arc<App>,
    seek: &Seek,
    players: [Conn; 2],
) -> Result<String, ApiError> {
    let seek = seek.clone();
    let settings = Settings {
        time: seek.time,
        options: serde_json::Value::Null,
        setup: qiyuan_game::Setup::Standard,
        rated: seek.rated,
        takebacks: !seek.rated,
    };
    let handle = live::create(app, &seek.game, settings).await?;
    let mut cmds = Vec::new();
    for (seat, c) in players.iter().enumerate() {
        let name = c
            .user
            .as_ref()
            .map(|u| u.username.clone())
            .unwrap_or_default();
        cmds.push(Command::Sit {
            user: name,
            seat: qiyuan_game::Seat(seat as u8),
        });
    }
    for c in &players {
        let name = c
            .user
            .as_ref()
            .map(|u| u.username.clone())
            .unwrap_or_default();
        cmds.push(Command::Ready {
            user: name,
            proposal: None,
        });
    }
    handle.internal(cmds).await?.map_err(ApiError::internal)?;
    for (seat, c) in players.iter().enumerate() {
        let paired = ServerMsg::Paired {
            table: handle.id.clone(),
            game: seek.game.clone(),
            seat,
        };
        c.send(paired.encode(None));
        let _ = handle
            .tx
            .send(TableMsg::Watch {
                conn: c.clone(),
                since: None,
                req: None,
            })
            .await;
    }
    Ok(handle.id)
}
