//! The lobby: a room per game listing its live tables, pushed to subscribers as
//! they change, and quick pairing (seeks matched by game, time control and rated).
//!
//! Not every live table is listed: a private one (单机) nowhere, and a game
//! against the computer (every seat taken, at most one person among them, see
//! [`TableSummary::against_computer`](crate::live::TableSummary::against_computer)) is kept apart — nobody can join it, and
//! one person's games against the computer would crowd out the tables people
//! can join. Those kept apart are known to the server (an API player's games
//! in progress), never sent to the lobby's subscribers.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use axum::extract::ws::Utf8Bytes;
use qiyuan_table::{Command, Settings};
use serde::{Deserialize, Serialize};
use tokio::sync::{broadcast, mpsc};

use crate::cluster::Cluster;
use crate::error::ApiError;
use crate::live::{self, Conn, ConnId, TableMsg, TableSummary};
use crate::protocol::{Seek, ServerMsg};

struct Room {
    /// The tables listed.
    tables: BTreeMap<String, TableSummary>,
    /// Games against the computer: known, not listed.
    apart: BTreeMap<String, TableSummary>,
    tx: broadcast::Sender<Utf8Bytes>,
}

impl Room {
    fn new() -> Self {
        Room {
            tables: BTreeMap::new(),
            apart: BTreeMap::new(),
            tx: broadcast::channel(1024).0,
        }
    }

    /// Takes table `id` off the list, telling the subscribers.
    fn unlist(&mut self, game: &str, id: &str) -> bool {
        let listed = self.tables.remove(id).is_some();
        if listed && self.tx.receiver_count() > 0 {
            let msg = ServerMsg::LobbyGone {
                game: game.to_string(),
                id: id.to_string(),
            };
            let _ = self.tx.send(msg.encode(None).into());
        }
        listed
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

/// The live tables' summaries come here.
impl live::LobbySink for Lobby {
    fn publish(&self, summary: TableSummary) {
        Lobby::publish(self, summary);
    }

    fn remove(&self, game: &str, id: &str) {
        Lobby::remove(self, game, id);
    }
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
        let mut rooms = self.rooms();
        let room = rooms.entry(summary.game.clone()).or_insert_with(Room::new);
        if summary.against_computer() {
            if room.apart.get(&summary.id) == Some(&summary) {
                return false;
            }
            room.unlist(&summary.game, &summary.id);
            room.apart.insert(summary.id.clone(), summary);
            return true;
        }
        room.apart.remove(&summary.id);
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
        if let Some(room) = rooms.get_mut(game) {
            room.apart.remove(id);
            room.unlist(game, id);
        }
    }

    /// The tables of `game` where `name` sits, listed or kept apart (games
    /// against the computer), this node's and the others'.
    pub fn tables_of(&self, game: &str, name: &str) -> Vec<TableSummary> {
        let rooms = self.rooms();
        let Some(room) = rooms.get(game) else {
            return Vec::new();
        };
        room.tables
            .values()
            .chain(room.apart.values())
            .filter(|t| t.seats.iter().any(|s| s.user.as_deref() == Some(name)))
            .cloned()
            .collect()
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
/// a table is created in the tables' environment `env` with both seated and
/// ready, so the game starts at once, and both sockets get `paired` and are
/// subscribed to the table. The seeks wait in `lobby`, or with several nodes
/// in the `cluster`'s pool.
pub async fn seek(
    env: &Arc<live::Env>,
    lobby: &Lobby,
    cluster: Option<&Arc<Cluster>>,
    conn: Conn,
    seek: Seek,
) -> Result<Option<String>, ApiError> {
    let user = conn.user.clone().ok_or_else(ApiError::unauthorized)?;
    if env.games.get(&seek.game).is_none() {
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
    if seek.rated && !env.rules.bots_rated_with_humans && env.store.is_bot(user.id).await? {
        return Err(ApiError::forbidden(
            "bot_rated",
            "bot accounts play casual games only with humans here",
        ));
    }
    seek.time
        .validate()
        .map_err(|e| ApiError::bad_request("bad_settings", e))?;
    // A pairing would be one table more (checked again when it is made).
    env.tables
        .check_held(&user.username, env.rules.max_tables_per_user)?;
    if let Some(cluster) = cluster {
        return crate::cluster::pairing::seek(env, cluster, conn, seek, user).await;
    }
    let partner = {
        let mut seeks = lobby.seeks.lock().unwrap_or_else(|e| e.into_inner());
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
    pair(env, &seek, [partner.conn, conn]).await.map(Some)
}

/// Creates the table of a pair, seats both (the first takes the first seat)
/// and readies them, so the game starts at once; both sockets get `paired` and
/// are subscribed to the table. Refused, making nothing, when one of them
/// holds the most tables one person may.
pub(crate) async fn pair(
    env: &Arc<live::Env>,
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
    let names: Vec<String> = players
        .iter()
        .map(|c| {
            c.user
                .as_ref()
                .map(|u| u.username.clone())
                .unwrap_or_default()
        })
        .collect();
    let seating: Vec<&str> = names.iter().map(String::as_str).collect();
    let (handle, _places) = live::create_seating(env, &seek.game, settings, &seating).await?;
    let mut cmds = Vec::new();
    for (seat, name) in names.iter().enumerate() {
        cmds.push(Command::Sit {
            user: name.clone(),
            seat: qiyuan_game::Seat(seat as u8),
        });
    }
    for name in &names {
        cmds.push(Command::Ready {
            user: name.clone(),
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
