//! A table owned by another node, as this node's sockets see it: a task with a
//! table's address ([`TableHandle`]) that forwards each message to the owner
//! over the bus. It remembers which of its sockets watch, and when the table
//! moves (its owner died and another node took it over: an `Owned` message, or
//! the store's lease seen every scan) it subscribes them again at the new
//! owner, which sends each a fresh `sync`.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use tokio::sync::mpsc;

use super::bus::{BusMsg, Call, Forwarded};
use super::{Cluster, lock};
use crate::error::ApiError;
use crate::live::{Conn, ConnId, TableHandle, TableMsg};
use crate::protocol::ServerMsg;

pub(super) struct Proxy {
    pub(super) handle: TableHandle,
    /// New owners of the table, from the bus.
    pub(super) owned: mpsc::Sender<String>,
    /// The owning node, as last known.
    owner: Arc<std::sync::Mutex<Option<String>>>,
}

impl Proxy {
    pub(super) fn spawn(
        cluster: Arc<Cluster>,
        id: String,
        game: &'static str,
        owner: Option<String>,
    ) -> Proxy {
        let (tx, rx) = crate::live::TableTx::channel(1024);
        let (owned, owned_rx) = mpsc::channel(16);
        let shared_owner = Arc::new(std::sync::Mutex::new(owner.clone()));
        let handle = TableHandle {
            id: id.clone(),
            game,
            tx,
            owner: None,
            played: Arc::new(AtomicBool::new(true)),
            // Who sits there, kept from the lobby's summaries of the table
            // (`Cluster::seated_elsewhere`).
            sitting: Arc::default(),
            // Nor whether it is for the invited: its task refuses the others.
            invite_only: false,
        };
        let task = Task {
            cluster,
            id,
            owner,
            watchers: HashMap::new(),
            followers: HashMap::new(),
            lags_sent: HashMap::new(),
            shared_owner: shared_owner.clone(),
        };
        tokio::spawn(task.run(rx, owned_rx));
        Proxy {
            handle,
            owned,
            owner: shared_owner,
        }
    }

    /// The owning node, as last known.
    pub(super) fn owner(&self) -> Option<String> {
        lock(&self.owner).clone()
    }
}

struct Task {
    cluster: Arc<Cluster>,
    id: String,
    /// The owning node, as last known.
    owner: Option<String>,
    /// This node's sockets watching the table (or playing at it).
    watchers: HashMap<ConnId, Conn>,
    /// Those of the watchers that follow the table's typed feed (and
    /// whether each is present, see [`TableMsg::Follow`]).
    followers: HashMap<ConnId, bool>,
    /// Each watcher's lag as the owner was last told it.
    lags_sent: HashMap<ConnId, (Option<u64>, Option<u64>)>,
    /// `owner`, for the node's sweep.
    shared_owner: Arc<std::sync::Mutex<Option<String>>>,
}

impl Task {
    async fn run(
        mut self,
        mut rx: mpsc::Receiver<Box<TableMsg>>,
        mut owned: mpsc::Receiver<String>,
    ) {
        let every = std::time::Duration::from_millis(self.cluster.config.scan_ms.max(100));
        let mut check = tokio::time::interval(every);
        check.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        let shutdown = self.cluster.node_handles.shutdown.clone();
        loop {
            tokio::select! {
                msg = rx.recv() => match msg {
                    Some(msg) => self.handle(*msg).await,
                    None => break,
                },
                node = owned.recv() => {
                    // The new owner's table is running: subscribe again even if
                    // the store's lease already told us (that was maybe early).
                    if let Some(node) = node {
                        self.moved(Some(node), true).await;
                    }
                }
                _ = check.tick() => {
                    if !self.check().await {
                        break;
                    }
                    self.relay_lags().await;
                }
                _ = crate::stopped(shutdown.clone()) => break,
            }
        }
        lock(&self.cluster.proxies).remove(&self.id);
    }

    /// Looks at the store's lease: a new owner, or the table closed (false: the
    /// proxy ends).
    async fn check(&mut self) -> bool {
        match self.cluster.node_handles.store.lease(&self.id).await {
            Ok(Some(lease)) if lease.live => {
                if lease.node == self.cluster.node {
                    // Taken over by this very node: the local table answers now.
                    return self.handover().await;
                }
                if self.owner.as_deref() != Some(lease.node.as_str()) {
                    self.moved(Some(lease.node), false).await;
                }
                true
            }
            Ok(_) => match self.cluster.node_handles.store.table(&self.id).await {
                Ok(Some(row)) if row.open => true,
                Ok(_) => false,
                Err(_) => true,
            },
            Err(_) => true,
        }
    }

    /// This node owns the table now: its watchers go to the local table, and
    /// the proxy ends.
    async fn handover(&mut self) -> bool {
        let Some(local) = self.cluster.node_handles.tables.get(&self.id) else {
            return true;
        };
        for (_, conn) in self.watchers.drain() {
            let msg = match self.followers.remove(&conn.id) {
                Some(present) => TableMsg::Follow { conn, present },
                None => TableMsg::Watch {
                    conn,
                    since: None,
                    req: None,
                },
            };
            let _ = local.tx.send(msg).await;
        }
        false
    }

    async fn moved(&mut self, node: Option<String>, again: bool) {
        if node.as_deref() == Some(self.cluster.node.as_str()) {
            self.handover().await;
            return;
        }
        if node == self.owner && !again {
            return;
        }
        tracing::info!(table = %self.id, owner = ?node, "table moved");
        self.owner = node;
        *lock(&self.shared_owner) = self.owner.clone();
        let watchers: Vec<Conn> = self.watchers.values().cloned().collect();
        for conn in watchers {
            let fwd = match self.followers.get(&conn.id) {
                Some(&present) => Forwarded::Follow { present },
                None => Forwarded::Watch {
                    since: None,
                    req: None,
                },
            };
            self.forward(&conn, fwd).await;
        }
    }

    async fn forward(&self, conn: &Conn, fwd: Forwarded) -> bool {
        let Some(owner) = &self.owner else {
            return false;
        };
        // Deliveries for the socket find it (until it closes).
        if matches!(
            fwd,
            Forwarded::Watch { .. } | Forwarded::Act { .. } | Forwarded::Follow { .. }
        ) {
            self.cluster.register_local(conn);
        }
        let msg = BusMsg::Forward {
            table: self.id.clone(),
            conn: conn.id,
            user: conn.user.clone(),
            fwd,
            lag: Some(conn.lag.estimate()),
        };
        self.cluster.send_to(owner, &msg).await
    }

    /// Tells the owner of each watcher's lag that moved since last told (the
    /// owner's seats' indicator and the compensation of their moves use it).
    async fn relay_lags(&mut self) {
        let mut moved = Vec::new();
        for (id, conn) in &self.watchers {
            if conn.user.is_none() {
                continue;
            }
            let now = conn.lag.estimate();
            if self.lags_sent.get(id) != Some(&now) {
                moved.push(conn.clone());
            }
        }
        self.lags_sent
            .retain(|id, _| self.watchers.contains_key(id));
        for conn in moved {
            if self.forward(&conn, Forwarded::Lag).await {
                self.lags_sent.insert(conn.id, conn.lag.estimate());
            }
        }
    }

    async fn handle(&mut self, msg: TableMsg) {
        if self.owner.is_none() {
            let _ = self.check().await;
        }
        match msg {
            TableMsg::Watch { conn, since, req } => {
                self.watchers.insert(conn.id, conn.clone());
                self.forward(&conn, Forwarded::Watch { since, req }).await;
            }
            TableMsg::Follow { conn, present } => {
                self.watchers.insert(conn.id, conn.clone());
                self.followers.insert(conn.id, present);
                self.forward(&conn, Forwarded::Follow { present }).await;
            }
            TableMsg::Act {
                conn,
                act,
                req,
                expect_seat,
            } => {
                self.watchers.insert(conn.id, conn.clone());
                // An owner found dead is not sent to: the command is refused
                // at once, to be sent again once another node has the table.
                let dead = self
                    .owner
                    .as_ref()
                    .is_some_and(|o| self.cluster.seems_dead(o));
                let sent = !dead
                    && self
                        .forward(
                            &conn,
                            Forwarded::Act {
                                act,
                                req: req.clone(),
                                expect_seat,
                            },
                        )
                        .await;
                if !sent {
                    let err = ApiError::unavailable(format!(
                        "table {} cannot be reached now (its node is being replaced, or the \
                         link between nodes is down); try again",
                        self.id
                    ));
                    conn.reply(&ServerMsg::error(&err, Some(&self.id)), req.as_ref());
                }
            }
            TableMsg::Unwatch { conn } => {
                self.followers.remove(&conn);
                if let Some(c) = self.watchers.remove(&conn) {
                    self.forward(&c, Forwarded::Unwatch).await;
                }
            }
            TableMsg::Closed { conn } => {
                // (Also for a connection that came to the table another way:
                // a seeker whose partner's node made the table.)
                self.watchers.remove(&conn);
                self.followers.remove(&conn);
                if let Some(owner) = &self.owner {
                    let msg = BusMsg::Forward {
                        table: self.id.clone(),
                        conn,
                        user: None,
                        fwd: Forwarded::Closed,
                        lag: None,
                    };
                    self.cluster.send_to(owner, &msg).await;
                }
                // Nothing is delivered to a closed connection any more (an API
                // request's one-off connection, or a socket that closed).
                self.cluster.forget_local(conn);
            }
            TableMsg::Internal { cmds, done } => {
                let answer = self.call(Call::Internal { cmds }).await;
                let result = match answer {
                    Some(a) if a.get("ok").is_some() => Ok(()),
                    Some(a) => Err(a
                        .get("refused")
                        .and_then(|r| r.as_str())
                        .unwrap_or("the table's node did not answer")
                        .to_string()),
                    None => Err("the table's node did not answer".to_string()),
                };
                let _ = done.send(result);
            }
            TableMsg::Snapshot { reply } => {
                let answer = self.call(Call::Snapshot).await;
                let _ = reply.send(answer.unwrap_or_default());
            }
            TableMsg::Record { number, reply } => {
                let answer = self.call(Call::Record { number }).await;
                let _ = reply.send(answer.and_then(|a| serde_json::from_value(a).ok()));
            }
            // A proxy holds no lease.
            TableMsg::Fenced => {}
        }
    }

    async fn call(&self, call: Call) -> Option<serde_json::Value> {
        let owner = self.owner.as_ref()?;
        if self.cluster.seems_dead(owner) {
            // No answer would come: none is waited for.
            return None;
        }
        self.cluster
            .call(owner, &self.id, call)
            .await
            .filter(|a| !a.is_null())
    }
}
