//! The events' hands in the hall: what the director and the arbiters do to the
//! live tables and the players' sockets — make a tournament table, give a
//! table the server's commands, see who has come to it, tell a player.
//!
//! It holds what it acts on, made in the composition root: the tables'
//! environment (to make tables, and this node's tables), the cluster (to find
//! a table another node owns), and the people's channels (to tell players, on
//! whichever node their pages are open).

use std::sync::Arc;

use qiyuan_store::UserId;
use qiyuan_table::{Command, TableConfig};
use tokio::sync::oneshot;

use crate::cluster::Cluster;
use crate::error::ApiError;
use crate::live::{self, Env, TableMsg};
use crate::people::Notifier;
use crate::protocol::ServerMsg;
use crate::protocol::out::Notification;

/// The live tables and sockets, as the events' code acts on them.
#[derive(Clone)]
pub struct Hall {
    /// The tables' environment; its registry is this node's tables.
    pub(super) env: Arc<Env>,
    /// Several nodes: where the tables other nodes own are found.
    pub(super) cluster: Option<Arc<Cluster>>,
    people: Notifier,
}

impl Hall {
    pub fn new(env: Arc<Env>, cluster: Option<Arc<Cluster>>, people: Notifier) -> Self {
        Hall {
            env,
            cluster,
            people,
        }
    }

    /// Creates a table of `game` owned by the server; its id.
    pub async fn create(&self, game: &str, config: TableConfig) -> Result<String, ApiError> {
        Ok(live::create_with(&self.env, game, config).await?.id)
    }

    /// Sends the server's commands to a table of this node and waits for them.
    pub async fn command(&self, table: &str, cmds: Vec<Command>) -> Result<(), ApiError> {
        internal(&self.env.tables, table, cmds).await
    }

    /// Whether each of the two seats' players has come to a table whose game is
    /// being played (their socket is there, or they have moved); none if the
    /// table is not live (on this node or, with several, on its owner) or is
    /// not playing.
    pub async fn arrived(&self, table: &str) -> Option<[bool; 2]> {
        let handle = match self.env.tables.get(table) {
            Some(handle) => handle,
            None => self.cluster.as_ref()?.route(table).await?,
        };
        let (reply, wait) = oneshot::channel();
        handle.tx.send(TableMsg::Snapshot { reply }).await.ok()?;
        let view = wait.await.ok()?;
        if view["status"] != "playing" {
            return None;
        }
        let came = |seat: usize| {
            view["seats"][seat]["connected"] == true
                || view["game"]["moves"]
                    .as_array()
                    .is_some_and(|m| m.iter().any(|m| m["seat"] == seat))
        };
        Some([came(0), came(1)])
    }

    /// The table's status (`waiting`, `playing`, `over`) as a spectator sees
    /// it; none if the table is not live.
    pub async fn status(&self, table: &str) -> Option<String> {
        let handle = match self.env.tables.get(table) {
            Some(handle) => handle,
            None => self.cluster.as_ref()?.route(table).await?,
        };
        let (reply, wait) = oneshot::channel();
        handle.tx.send(TableMsg::Snapshot { reply }).await.ok()?;
        let view = wait.await.ok()?;
        view["status"].as_str().map(str::to_string)
    }

    /// How many moves the game being played at a table has (none if the
    /// table is not live or not playing).
    pub async fn moves(&self, table: &str) -> Option<usize> {
        let handle = match self.env.tables.get(table) {
            Some(handle) => handle,
            None => self.cluster.as_ref()?.route(table).await?,
        };
        let (reply, wait) = oneshot::channel();
        handle.tx.send(TableMsg::Snapshot { reply }).await.ok()?;
        let view = wait.await.ok()?;
        if view["status"] != "playing" {
            return None;
        }
        Some(view["game"]["moves"].as_array().map_or(0, Vec::len))
    }

    /// Sends a server message to every page socket of the user, on every node.
    pub fn tell(&self, user: UserId, msg: &ServerMsg) {
        self.people.tell(user, msg);
    }

    /// Notifies the user on every page they have open.
    pub fn notify(&self, user: UserId, note: Notification) {
        self.people.notify(user, note);
    }
}

/// Sends the server's commands to a live table of this node and waits for
/// them; a refusal is a conflict.
pub(crate) async fn internal(
    tables: &live::Registry,
    table: &str,
    cmds: Vec<Command>,
) -> Result<(), ApiError> {
    let handle = tables
        .get(table)
        .ok_or_else(|| ApiError::not_found(format!("table {table} is not live")))?;
    handle
        .internal(cmds)
        .await?
        .map_err(|m| ApiError::new(axum::http::StatusCode::CONFLICT, "refused", m))
}
