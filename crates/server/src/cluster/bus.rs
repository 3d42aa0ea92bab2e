//! The bus between nodes: Redis pub/sub on `{prefix}node:{id}` (what is for one
//! node) and `{prefix}all` (what is for every node). Each message is one JSON
//! envelope with its sender and when it was sent, for the bus lag in `/metrics`.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use futures_util::StreamExt;
use qiyuan_game::Seat;
use qiyuan_table::Command;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Cluster, Here, lock, now_us};
use crate::live::{ConnId, Registry, TableMsg, UserInfo};
use crate::protocol::{ServerMsg, TableAct};

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct Envelope {
    pub(super) from: String,
    /// The sender's incarnation ([`Cluster::incarnation`]).
    #[serde(default)]
    pub(super) inc: u64,
    pub(super) sent_us: u64,
    pub(super) msg: BusMsg,
}

/// What nodes tell each other.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum BusMsg {
    /// To a table's owner: a message of socket `conn` of the sending node.
    Forward {
        table: String,
        conn: ConnId,
        user: Option<UserInfo>,
        fwd: Forwarded,
        /// The socket's lag as its node measures it: the round trip and the
        /// client's last report ([`crate::live::LagMeter::estimate`]).
        #[serde(default)]
        lag: Option<(Option<u64>, Option<u64>)>,
    },
    /// To a socket's node: a message for it, as the table wrote it; `inc`
    /// is the incarnation of the node the socket belongs to (another one, a
    /// node since restarted, drops it: that socket is gone).
    Deliver {
        conn: ConnId,
        #[serde(default)]
        inc: u64,
        text: String,
    },
    /// To a table's owner: a call awaiting its answer.
    Call { id: u64, table: String, call: Call },
    /// The answer to a call.
    Answer { id: u64, answer: Value },
    /// To all: a node owns a table now (created or taken over).
    Owned { table: String, node: String },
    /// To all: a table changed in the lobby.
    Lobby { change: crate::lobby::Change },
    /// To all: an event for user `user`'s API event streams (`challenge`,
    /// `gameStart`, ...), on whichever node they are open.
    ApiEvent { user: i64, event: Value },
    /// To all: a chat line of an API game, for its game streams.
    ApiChat { table: String, line: Value },
    /// To all: a token was revoked or logged out, a user's sessions ended or
    /// a user was banned; the sockets and API streams it covers end.
    Ended { ended: crate::authority::Ended },
    /// To all: a message for every page socket of `user`, on whichever node
    /// they are open (`crate::people`).
    Notify { user: i64, text: String },
    /// To all: where `user` is as the sending node sees them (its sockets
    /// and tables), for their followers on every node (`crate::relations`).
    Presence {
        user: i64,
        presence: crate::protocol::relations::Presence,
    },
    /// To all: a chat line delivered on the sender's node, for the sockets
    /// at the same place on the others (`crate::chat`).
    Chat {
        at: crate::chat::ChatAt,
        text: String,
    },
    /// To all: a node is stopping and gave its tables' leases up; the others
    /// take them over now.
    HandedOver { node: String },
    /// To all: a game ended at a table the sender owns (its table event
    /// [`crate::live::TableEvent::Ended`]), for the features listening on the
    /// other nodes ([`super::Cluster::remote_ends`]).
    GameEnded {
        table: String,
        game: String,
        result: qiyuan_game::Outcome,
    },
}

/// A socket's message for a table, as forwarded.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "k", rename_all = "snake_case")]
pub enum Forwarded {
    Watch {
        since: Option<u64>,
        req: Option<Value>,
    },
    Unwatch,
    Closed,
    /// A follower of the table's typed feed (see [`crate::live::watch`]).
    Follow {
        present: bool,
    },
    Act {
        act: TableAct,
        req: Option<Value>,
        expect_seat: Option<Seat>,
    },
    /// Only the socket's lag changed (`Forward`'s `lag`).
    Lag,
}

/// The server's own calls to a table elsewhere.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "k", rename_all = "snake_case")]
pub enum Call {
    Internal { cmds: Vec<Command> },
    Snapshot,
    Record { number: u32 },
}

/// Subscribes (before returning, so nothing sent after it is missed) and
/// handles the bus's messages until shutdown, resubscribing after a failure;
/// what is for this node's tables goes to them, the rest to `here`.
pub(super) async fn listen(cluster: Arc<Cluster>, here: Here) -> anyhow::Result<()> {
    let channels = [cluster.node_channel(&cluster.node), cluster.all_channel()];
    let wait = std::time::Duration::from_millis(cluster.config.redis_timeout_ms.max(100));
    let mut pubsub = tokio::time::timeout(wait, cluster.client.get_async_pubsub())
        .await
        .map_err(|_| anyhow::anyhow!("Redis did not answer"))??;
    for c in &channels {
        pubsub.subscribe(c).await?;
    }
    cluster.subscribed.store(true, Ordering::Relaxed);
    tokio::spawn(async move {
        let shutdown = cluster.node_handles.shutdown.clone();
        loop {
            {
                let mut stream = pubsub.on_message();
                loop {
                    tokio::select! {
                        msg = stream.next() => match msg {
                            Some(msg) => {
                                let Ok(payload) = msg.get_payload::<String>() else { continue };
                                match serde_json::from_str::<Envelope>(&payload) {
                                    Ok(env) => handle(&cluster, &here, env).await,
                                    Err(e) => tracing::warn!("bad bus message: {e}"),
                                }
                            }
                            None => break,
                        },
                        _ = crate::stopped(shutdown.clone()) => return,
                    }
                }
            }
            tracing::warn!("bus connection lost; resubscribing");
            cluster.subscribed.store(false, Ordering::Relaxed);
            cluster.bus_failed();
            loop {
                tokio::select! {
                    _ = tokio::time::sleep(std::time::Duration::from_millis(250)) => {}
                    _ = crate::stopped(shutdown.clone()) => return,
                }
                let Ok(Ok(mut fresh)) =
                    tokio::time::timeout(wait, cluster.client.get_async_pubsub()).await
                else {
                    continue;
                };
                let mut ok = true;
                for c in &channels {
                    ok &= matches!(
                        tokio::time::timeout(wait, fresh.subscribe(c)).await,
                        Ok(Ok(()))
                    );
                }
                if ok {
                    pubsub = fresh;
                    cluster.subscribed.store(true, Ordering::Relaxed);
                    tracing::info!("bus subscribed again");
                    // Messages come in again: the outage ends (a publish
                    // that fails starts another).
                    cluster.bus_works();
                    break;
                }
            }
        }
    });
    Ok(())
}

async fn handle(cluster: &Arc<Cluster>, here: &Here, env: Envelope) {
    cluster.bus_received.fetch_add(1, Ordering::Relaxed);
    cluster.bus_works();
    cluster
        .bus_lag_us
        .store(now_us().saturating_sub(env.sent_us), Ordering::Relaxed);
    let from = env.from;
    let from_inc = env.inc;
    match env.msg {
        BusMsg::Deliver { conn, inc, text } => {
            if inc != cluster.incarnation {
                // For a socket of this node's previous process.
                return;
            }
            let local = lock(&cluster.local_conns).get(&conn).cloned();
            if let Some(c) = local
                && !c.send(text)
            {
                lock(&cluster.local_conns).remove(&conn);
            }
        }
        BusMsg::Forward {
            table,
            conn,
            user,
            fwd,
            lag,
        } => {
            let socket = (from.as_str(), from_inc, conn);
            forward(cluster, socket, table, user, fwd, lag).await
        }
        BusMsg::Call { id, table, call } => {
            let cluster = cluster.clone();
            // Calls wait on the table: not on the bus's loop.
            tokio::spawn(async move {
                let answer = answer(&cluster.node_handles.tables, &table, call).await;
                cluster.send_to(&from, &BusMsg::Answer { id, answer }).await;
            });
        }
        BusMsg::Answer { id, answer } => {
            if let Some(tx) = lock(&cluster.pending).remove(&id) {
                let _ = tx.send(answer);
            }
        }
        BusMsg::Owned { table, node } => {
            let proxy = lock(&cluster.proxies).get(&table).map(|p| p.owned.clone());
            if let Some(tx) = proxy {
                let _ = tx.send(node).await;
            }
        }
        BusMsg::Lobby { change } => {
            if from != cluster.node {
                match change {
                    crate::lobby::Change::Table(s) => {
                        cluster.seated_elsewhere(&s);
                        here.lobby.publish_remote(s);
                    }
                    crate::lobby::Change::Gone { game, id } => here.lobby.remove_remote(&game, &id),
                }
            }
        }
        // The sender delivered these to its own streams already.
        BusMsg::ApiEvent { user, event } => {
            if from != cluster.node {
                here.streams.tell_here(user, &event);
            }
        }
        BusMsg::Notify { user, text } => {
            if from != cluster.node {
                here.people.deliver(user, &text);
            }
        }
        BusMsg::Presence { user, presence } => {
            if from != cluster.node {
                here.people.presence_elsewhere(&from, user, presence);
            }
        }
        BusMsg::Chat { at, text } => {
            if from != cluster.node {
                here.chat.deliver_here(&at, &text);
            }
        }
        BusMsg::ApiChat { table, line } => {
            if from != cluster.node {
                here.streams.feed_chat(&table, line);
            }
        }
        BusMsg::Ended { ended } => {
            if from != cluster.node {
                crate::authority::end_here(&here.sockets, &here.streams, &ended);
            }
        }
        BusMsg::GameEnded {
            table,
            game,
            result,
        } => {
            if from != cluster.node {
                cluster.remote_ends.publish(crate::live::TableEvent::Ended {
                    table: table.into(),
                    game: game.into(),
                    result,
                });
            }
        }
        BusMsg::HandedOver { node } => {
            if node != cluster.node {
                // Its tables are not there any more: commands for them are
                // refused (to be sent again) until their new owner is known.
                lock(&cluster.dead).insert(node);
                cluster.nudge.notify_one();
            }
        }
    }
}

/// A socket of another node (its node, incarnation and connection id) at a
/// table here.
async fn forward(
    cluster: &Arc<Cluster>,
    socket: (&str, u64, ConnId),
    table: String,
    user: Option<UserInfo>,
    fwd: Forwarded,
    lag: Option<(Option<u64>, Option<u64>)>,
) {
    let (from, inc, conn) = socket;
    let refuse = |req: Option<&Value>, why: String| {
        let cluster = cluster.clone();
        let text = req.map(|req| {
            let err = crate::error::ApiError::not_found(why);
            ServerMsg::error(&err, Some(&table)).encode(Some(req))
        });
        let to = from.to_string();
        async move {
            if let Some(text) = text {
                cluster
                    .send_to(&to, &BusMsg::Deliver { conn, inc, text })
                    .await;
            }
        }
    };
    // The socket's lag first, so that a move forwarded with it is judged by it.
    if let Some((rtt, reported)) = lag {
        let same_user =
            |c: &crate::live::Conn| c.user.as_ref().map(|u| u.id) == user.as_ref().map(|u| u.id);
        match cluster.stand_in(from, inc, conn) {
            Some(c) if same_user(&c) => c.lag.relay(rtt, reported),
            Some(_) => {}
            None if matches!(
                fwd,
                Forwarded::Watch { .. } | Forwarded::Act { .. } | Forwarded::Follow { .. }
            ) =>
            {
                // The stand-in is made below; it starts with this estimate.
                if let Some(c) = cluster.remote_conn(from, inc, conn, user.clone(), None) {
                    c.lag.relay(rtt, reported);
                }
            }
            None => {}
        }
    }
    if matches!(fwd, Forwarded::Lag) {
        return;
    }
    let handle = cluster.node_handles.tables.get(&table);
    let Some(handle) = handle else {
        // Not ours (any more): a command is answered; the proxy learns the
        // new owner from its `Owned` message or the store.
        if let Forwarded::Act { req: Some(req), .. } = &fwd {
            let why = format!(
                "table {table} is not on node {} (any more); try again",
                cluster.node
            );
            refuse(Some(req), why).await;
        }
        return;
    };
    let msg = match fwd {
        Forwarded::Watch { since, req } => {
            match cluster.remote_conn(from, inc, conn, user, Some(&table)) {
                Some(conn) => TableMsg::Watch { conn, since, req },
                None => {
                    refuse(req.as_ref(), "this socket is another user's".into()).await;
                    return;
                }
            }
        }
        Forwarded::Follow { present } => {
            match cluster.remote_conn(from, inc, conn, user, Some(&table)) {
                Some(conn) => TableMsg::Follow { conn, present },
                None => return,
            }
        }
        Forwarded::Act {
            act,
            req,
            expect_seat,
        } => match cluster.remote_conn(from, inc, conn, user, Some(&table)) {
            Some(conn) => TableMsg::Act {
                conn,
                act,
                req,
                expect_seat,
            },
            None => {
                refuse(req.as_ref(), "this socket is another user's".into()).await;
                return;
            }
        },
        Forwarded::Unwatch => {
            // Only a socket the table knows leaves it.
            let Some(c) = cluster.stand_in(from, inc, conn) else {
                return;
            };
            TableMsg::Unwatch { conn: c.id }
        }
        Forwarded::Closed => {
            // Closed at every table here it went to (each proxy tells the
            // owner, and the first finds them all).
            let Some((c, mut tables)) = cluster.drop_remote(from, inc, conn) else {
                return;
            };
            tables.remove(&table);
            for other in tables {
                if let Some(h) = cluster.node_handles.tables.get(&other) {
                    let _ = h.tx.send(TableMsg::Closed { conn: c.id }).await;
                }
            }
            TableMsg::Closed { conn: c.id }
        }
        Forwarded::Lag => return,
    };
    let _ = handle.tx.send(msg).await;
}

async fn answer(tables: &Registry, table: &str, call: Call) -> Value {
    let Some(handle) = tables.get(table) else {
        return Value::Null;
    };
    match call {
        Call::Internal { cmds } => match handle.internal(cmds).await {
            Ok(Ok(())) => serde_json::json!({"ok": true}),
            Ok(Err(refused)) => serde_json::json!({"refused": refused}),
            Err(_) => Value::Null,
        },
        Call::Snapshot => {
            let (reply, wait) = tokio::sync::oneshot::channel();
            let _ = handle.tx.send(TableMsg::Snapshot { reply }).await;
            wait.await.unwrap_or(Value::Null)
        }
        Call::Record { number } => {
            let (reply, wait) = tokio::sync::oneshot::channel();
            let _ = handle.tx.send(TableMsg::Record { number, reply }).await;
            serde_json::to_value(wait.await.ok().flatten()).unwrap_or(Value::Null)
        }
    }
}

impl Cluster {
    /// Publishes to one node (false: the bus did not take it).
    pub(crate) async fn send_to(&self, node: &str, msg: &BusMsg) -> bool {
        let channel = self.node_channel(node);
        self.publish(&channel, msg).await
    }

    /// Publishes to every node (this one too; it skips its own).
    pub(crate) async fn send_all(&self, msg: &BusMsg) -> bool {
        let channel = self.all_channel();
        self.publish(&channel, msg).await
    }

    async fn publish(&self, channel: &str, msg: &BusMsg) -> bool {
        let envelope = Envelope {
            from: self.node.clone(),
            inc: self.incarnation,
            sent_us: now_us(),
            msg: msg.clone(),
        };
        let Ok(payload) = serde_json::to_string(&envelope) else {
            return false;
        };
        let mut redis = self.redis.clone();
        let sent: redis::RedisResult<i64> = self
            .timed(
                redis::cmd("PUBLISH")
                    .arg(channel)
                    .arg(payload)
                    .query_async(&mut redis),
            )
            .await;
        match sent {
            Ok(_) => true,
            Err(e) => {
                tracing::warn!(channel, "cannot publish on the bus: {e}");
                false
            }
        }
    }

    /// Calls another node and waits for its answer (`None`: no answer in time).
    pub(crate) async fn call(
        &self,
        node: &str,
        table: &str,
        call: Call,
    ) -> Option<serde_json::Value> {
        let id = self.next_call.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = tokio::sync::oneshot::channel();
        lock(&self.pending).insert(id, tx);
        let msg = BusMsg::Call {
            id,
            table: table.to_string(),
            call,
        };
        if !self.send_to(node, &msg).await {
            lock(&self.pending).remove(&id);
            return None;
        }
        let wait = std::time::Duration::from_millis(self.config.call_timeout_ms);
        let answer = tokio::time::timeout(wait, rx)
            .await
            .ok()
            .and_then(|r| r.ok());
        lock(&self.pending).remove(&id);
        answer
    }
}

impl Cluster {
    /// What `/metrics` tells of the cluster: the bus's last delay and its
    /// traffic, the leases held here, and the sockets online on every node.
    pub fn figures(&self) -> crate::metrics::ClusterFigures {
        crate::metrics::ClusterFigures {
            bus_lag_secs: self.bus_lag_us.load(Ordering::Relaxed) as f64 / 1e6,
            bus_messages: self.bus_received.load(Ordering::Relaxed),
            leases: self.leases_held(),
            sockets: self.online.load(Ordering::Relaxed),
        }
    }
}
