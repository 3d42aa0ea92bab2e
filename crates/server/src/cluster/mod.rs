//! Several nodes: any number of `qiyuan serve` processes sharing one PostgreSQL
//! database and one Redis, like Lichess's processes over Redis. Without a Redis
//! URL none of this runs and the server is the one node it always was.
//!
//! - **Ownership.** Each live table is owned by one node through a lease with a
//!   fencing token in the store ([`qiyuan_store::LeaseStore`]): a node takes a
//!   lease before it creates a table or rebuilds one, renews its leases every
//!   `renew_ms`, and every log append carries the token, so a node that lost its
//!   lease can write nothing (`leases`).
//! - **Takeover.** Every node looks each `scan_ms` for open tables nobody holds a
//!   live lease on (their owner died), takes the lease and rebuilds the table
//!   from its log with the one replay; the table's `Restart` entry credits the
//!   clocks with the time since the last logged entry, so the takeover is charged
//!   to nobody, and replays the same way.
//! - **The bus** (`bus`): Redis pub/sub, one channel per node and one for all.
//!   A socket's command for a table owned elsewhere goes through a local proxy
//!   of the table (`proxy`) to the owner, which treats the socket as one of its
//!   own whose messages are delivered back over the bus — each socket gets
//!   exactly what it would get on the owner (its own view, so hidden cards stay
//!   hidden). The server's own calls (seating a pair, snapshots) are
//!   request/reply with a timeout.
//! - **Lobby and pairing.** Owners publish their tables' lobby summaries to every
//!   node and into a Redis hash a starting node reads; quick pairing is one seek
//!   pool per (game, time, rated) in Redis, matched atomically by a script
//!   (`pairing`). Online sockets are counted per node in one hash, each
//!   count lapsing unless renewed (a sorted set of lapse times), and summed
//!   with no scan of the keyspace.
//! - **The API** (`api`): the Lichess-compatible API's challenges and chat
//!   in Redis, its events and chat lines over the bus (see [`crate::lichess`]).
//!
//! Redis client: the `redis` crate (tokio, `ConnectionManager` reconnects by
//! itself, scripts are built in); its pub/sub is all the bus needs.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use serde::Deserialize;

use crate::App;
use crate::live::{Conn, ConnId, TableHandle};

mod api;
mod bus;
mod leases;
pub mod pairing;
mod proxy;

pub use bus::BusMsg;

/// `[cluster]`: several nodes.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ClusterConfig {
    /// Redis URL (`redis://127.0.0.1:6379`); unset: one node, no Redis.
    pub redis: Option<String>,
    /// This node's id, unique among the nodes; unset: host name and port.
    pub node_id: Option<String>,
    /// Prefix of every Redis key and channel of this installation.
    pub prefix: String,
    /// How long a lease lasts unless renewed, in milliseconds.
    pub lease_ttl_ms: u64,
    /// How often a node renews its leases.
    pub renew_ms: u64,
    /// How often a node looks for tables whose owner is gone.
    pub scan_ms: u64,
    /// How long a call to another node waits for its answer.
    pub call_timeout_ms: u64,
}

impl Default for ClusterConfig {
    fn default() -> Self {
        ClusterConfig {
            redis: None,
            node_id: None,
            prefix: "qiyuan:".into(),
            lease_ttl_ms: 6_000,
            renew_ms: 2_000,
            scan_ms: 1_000,
            call_timeout_ms: 5_000,
        }
    }
}

/// This node among several.
pub struct Cluster {
    pub node: String,
    pub config: ClusterConfig,
    redis: redis::aio::ConnectionManager,
    client: redis::Client,
    /// Tables this node owns, with their fencing tokens.
    leases: Mutex<HashMap<String, i64>>,
    /// Sockets of this node that tables elsewhere send to, by id.
    local_conns: Mutex<HashMap<ConnId, Conn>>,
    /// Sockets of other nodes at tables here, as local connections.
    remote_conns: Mutex<HashMap<(String, ConnId), Conn>>,
    /// Proxies of tables owned elsewhere.
    proxies: Mutex<HashMap<String, proxy::Proxy>>,
    /// Calls to other nodes waiting for their answer.
    pending: Mutex<HashMap<u64, tokio::sync::oneshot::Sender<serde_json::Value>>>,
    next_call: AtomicU64,
    /// Our seeks in the shared pool, by socket: (key, entry).
    seeks: Mutex<HashMap<ConnId, (String, String)>>,
    /// The last bus message's delay from publishing to handling, in microseconds.
    pub bus_lag_us: AtomicU64,
    /// Bus messages handled.
    pub bus_received: AtomicU64,
    /// Sockets online on every node (the sum of the nodes' live counts), as
    /// last counted.
    pub online: AtomicU64,
}

/// Connection ids for other nodes' sockets: far above this node's own.
static NEXT_REMOTE: AtomicU64 = AtomicU64::new(1 << 48);

/// Whether a connection id stands for another node's socket.
pub fn is_remote(conn: ConnId) -> bool {
    conn >= 1 << 48
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Cluster {
    /// Connects to Redis, if the configuration names one.
    pub async fn connect(
        config: &ClusterConfig,
        listen: std::net::SocketAddr,
    ) -> anyhow::Result<Option<Arc<Cluster>>> {
        let Some(url) = &config.redis else {
            return Ok(None);
        };
        let client = redis::Client::open(url.as_str())
            .map_err(|e| anyhow::anyhow!("cannot use Redis at {url}: {e}"))?;
        let redis = redis::aio::ConnectionManager::new(client.clone())
            .await
            .map_err(|e| anyhow::anyhow!("cannot reach Redis at {url}: {e}"))?;
        let node = config.node_id.clone().unwrap_or_else(|| {
            let host = std::fs::read_to_string("/etc/hostname")
                .map(|h| h.trim().to_string())
                .unwrap_or_else(|_| "node".into());
            format!("{host}:{}", listen.port())
        });
        Ok(Some(Arc::new(Cluster {
            node,
            config: config.clone(),
            redis,
            client,
            leases: Mutex::default(),
            local_conns: Mutex::default(),
            remote_conns: Mutex::default(),
            proxies: Mutex::default(),
            pending: Mutex::default(),
            next_call: AtomicU64::new(1),
            seeks: Mutex::default(),
            bus_lag_us: AtomicU64::new(0),
            bus_received: AtomicU64::new(0),
            online: AtomicU64::new(0),
        })))
    }

    fn key(&self, name: &str) -> String {
        format!("{}{name}", self.config.prefix)
    }

    fn node_channel(&self, node: &str) -> String {
        self.key(&format!("node:{node}"))
    }

    fn all_channel(&self) -> String {
        self.key("all")
    }

    /// Starts the bus listener and the lease keeper.
    pub async fn start(self: &Arc<Self>, app: &Arc<App>) -> anyhow::Result<()> {
        bus::listen(self.clone(), app.clone()).await?;
        self.load_lobby(app).await;
        tokio::spawn(leases::keep(self.clone(), app.clone()));
        tokio::spawn(presence(self.clone(), app.clone()));
        Ok(())
    }

    /// Whether this node holds the site-wide role `role` (one node at a time:
    /// Swiss events' director), taking it if nobody does and renewing it if this
    /// node does. A holder that stops renewing loses it after the lease time, and
    /// the next node to ask takes it.
    pub async fn hold(&self, role: &str) -> bool {
        const HOLD: &str = "if redis.call('GET', KEYS[1]) == ARGV[1] then \
              redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 \
            elseif redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 \
            else return 0 end";
        let mut redis = self.redis.clone();
        let held: redis::RedisResult<i64> = redis::Script::new(HOLD)
            .key(self.key(&format!("role:{role}")))
            .arg(&self.node)
            .arg(self.config.lease_ttl_ms.max(1000))
            .invoke_async(&mut redis)
            .await;
        match held {
            Ok(n) => n == 1,
            Err(e) => {
                tracing::warn!(role, "cannot reach Redis for the role: {e}");
                false
            }
        }
    }

    /// The node holding role `role` now, if any.
    pub async fn holder(&self, role: &str) -> Option<String> {
        let mut redis = self.redis.clone();
        redis::cmd("GET")
            .arg(self.key(&format!("role:{role}")))
            .query_async(&mut redis)
            .await
            .ok()
            .flatten()
    }

    /// Gives up role `role` if this node holds it (a node stopping), so that
    /// another takes it at once.
    pub async fn release_role(&self, role: &str) {
        const RELEASE: &str = "if redis.call('GET', KEYS[1]) == ARGV[1] then \
              return redis.call('DEL', KEYS[1]) else return 0 end";
        let mut redis = self.redis.clone();
        let _: redis::RedisResult<i64> = redis::Script::new(RELEASE)
            .key(self.key(&format!("role:{role}")))
            .arg(&self.node)
            .invoke_async(&mut redis)
            .await;
    }

    /// How many table leases this node holds.
    pub fn leases_held(&self) -> usize {
        lock(&self.leases).len()
    }

    /// The fencing token of a table this node owns.
    pub fn token(&self, table: &str) -> Option<i64> {
        lock(&self.leases).get(table).copied()
    }

    /// Takes the lease of a new table (before it is stored, so that no other
    /// node sees it without an owner).
    pub async fn lease_new(&self, app: &App, table: &str) -> anyhow::Result<i64> {
        let token = app
            .store
            .acquire_lease(table, &self.node, self.config.lease_ttl_ms as i64)
            .await?
            .ok_or_else(|| anyhow::anyhow!("table {table} is leased by another node"))?;
        lock(&self.leases).insert(table.to_string(), token);
        Ok(token)
    }

    /// A table here closed: its lease is given up.
    pub async fn release(&self, app: &App, table: &str) {
        let token = lock(&self.leases).remove(table);
        if let Some(token) = token
            && let Err(e) = app.store.release_lease(table, token).await
        {
            tracing::warn!(table, "cannot release lease: {e}");
        }
    }

    /// A table here was fenced out (another node owns it now): forgotten.
    pub fn forget(&self, table: &str) {
        lock(&self.leases).remove(table);
    }

    /// The address of table `id` when another node owns it: a local proxy.
    pub async fn route(self: &Arc<Self>, app: &Arc<App>, id: &str) -> Option<TableHandle> {
        if let Some(p) = lock(&self.proxies).get(id) {
            return Some(p.handle.clone());
        }
        let row = app.store.table(id).await.ok()??;
        if !row.open {
            return None;
        }
        let game = app.games.names().into_iter().find(|n| *n == row.game)?;
        let owner = app
            .store
            .lease(id)
            .await
            .ok()
            .flatten()
            .filter(|l| l.live)
            .map(|l| l.node);
        let mut proxies = lock(&self.proxies);
        if let Some(p) = proxies.get(id) {
            return Some(p.handle.clone());
        }
        let p = proxy::Proxy::spawn(self.clone(), app.clone(), id.to_string(), game, owner);
        let handle = p.handle.clone();
        proxies.insert(id.to_string(), p);
        Some(handle)
    }

    /// Remembers one of this node's sockets, so that other nodes' tables can
    /// send to it.
    pub(crate) fn register_local(&self, conn: &Conn) {
        lock(&self.local_conns)
            .entry(conn.id)
            .or_insert_with(|| conn.clone());
    }

    /// Forgets one of this node's sockets (it closed), so that nothing here
    /// keeps its queue open.
    pub(crate) fn forget_local(&self, conn: ConnId) {
        lock(&self.local_conns).remove(&conn);
    }

    /// The local connection standing for socket `conn` of node `node`: what a
    /// table here sends it goes to that node over the bus, in order.
    pub(crate) fn remote_conn(
        self: &Arc<Self>,
        node: &str,
        conn: ConnId,
        user: Option<crate::live::UserInfo>,
    ) -> Conn {
        let mut conns = lock(&self.remote_conns);
        if let Some(c) = conns.get(&(node.to_string(), conn))
            && !c.tx.is_closed()
        {
            return c.clone();
        }
        let (tx, mut rx) = tokio::sync::mpsc::channel::<axum::extract::ws::Utf8Bytes>(1024);
        let local = Conn {
            id: NEXT_REMOTE.fetch_add(1, Ordering::Relaxed),
            user,
            tx,
            lag: Arc::new(crate::ws::LagMeter::default()),
        };
        conns.insert((node.to_string(), conn), local.clone());
        let me = self.clone();
        let to = node.to_string();
        tokio::spawn(async move {
            while let Some(text) = rx.recv().await {
                let msg = BusMsg::Deliver {
                    conn,
                    text: text.as_str().to_string(),
                };
                me.send_to(&to, &msg).await;
            }
        });
        local
    }

    /// Forgets another node's socket (it closed).
    pub(crate) fn drop_remote(&self, node: &str, conn: ConnId) -> Option<Conn> {
        lock(&self.remote_conns).remove(&(node.to_string(), conn))
    }

    /// Publishes to one node.
    pub(crate) async fn send_to(&self, node: &str, msg: &BusMsg) {
        let channel = self.node_channel(node);
        self.publish(&channel, msg).await;
    }

    /// Publishes to every node (this one too; it skips its own).
    pub(crate) async fn send_all(&self, msg: &BusMsg) {
        let channel = self.all_channel();
        self.publish(&channel, msg).await;
    }

    async fn publish(&self, channel: &str, msg: &BusMsg) {
        let envelope = bus::Envelope {
            from: self.node.clone(),
            sent_us: now_us(),
            msg: msg.clone(),
        };
        let Ok(payload) = serde_json::to_string(&envelope) else {
            return;
        };
        let mut redis = self.redis.clone();
        let sent: redis::RedisResult<i64> = redis::cmd("PUBLISH")
            .arg(channel)
            .arg(payload)
            .query_async(&mut redis)
            .await;
        if let Err(e) = sent {
            tracing::warn!(channel, "cannot publish on the bus: {e}");
        }
    }

    /// Calls another node and waits for its answer (`None`: no answer in time).
    pub(crate) async fn call(
        &self,
        node: &str,
        table: &str,
        call: bus::Call,
    ) -> Option<serde_json::Value> {
        let id = self.next_call.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = tokio::sync::oneshot::channel();
        lock(&self.pending).insert(id, tx);
        let msg = BusMsg::Call {
            id,
            table: table.to_string(),
            call,
        };
        self.send_to(node, &msg).await;
        let wait = std::time::Duration::from_millis(self.config.call_timeout_ms);
        let answer = tokio::time::timeout(wait, rx)
            .await
            .ok()
            .and_then(|r| r.ok());
        lock(&self.pending).remove(&id);
        answer
    }

    /// Loads every table the lobby hash lists (a node starting among others).
    async fn load_lobby(&self, app: &App) {
        let mut redis = self.redis.clone();
        for game in app.games.names() {
            let all: redis::RedisResult<HashMap<String, String>> = redis::cmd("HGETALL")
                .arg(self.key(&format!("lobby:{game}")))
                .query_async(&mut redis)
                .await;
            for text in all.unwrap_or_default().values() {
                if let Ok(summary) = serde_json::from_str(text) {
                    app.lobby.publish_remote(summary);
                }
            }
        }
    }

    /// A lobby change of a table here: into the hash, then to every node.
    pub(crate) async fn lobby_changed(&self, change: crate::lobby::Change) {
        let mut redis = self.redis.clone();
        let (game, id) = match &change {
            crate::lobby::Change::Table(s) => (s.game.clone(), s.id.clone()),
            crate::lobby::Change::Gone { game, id } => (game.clone(), id.clone()),
        };
        let key = self.key(&format!("lobby:{game}"));
        let done: redis::RedisResult<i64> = match &change {
            crate::lobby::Change::Table(s) => {
                redis::cmd("HSET")
                    .arg(&key)
                    .arg(&id)
                    .arg(serde_json::to_string(s).unwrap_or_default())
                    .query_async(&mut redis)
                    .await
            }
            crate::lobby::Change::Gone { .. } => {
                redis::cmd("HDEL")
                    .arg(&key)
                    .arg(&id)
                    .query_async(&mut redis)
                    .await
            }
        };
        if let Err(e) = done {
            tracing::warn!("cannot write the lobby to Redis: {e}");
        }
        self.send_all(&BusMsg::Lobby { change }).await;
    }
}

pub(crate) fn now_us() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_micros() as u64)
        .unwrap_or(0)
}

/// KEYS[1] the nodes' counts (a hash), KEYS[2] when each node's count lapses
/// (a sorted set scored by that time, in Redis's milliseconds); ARGV[1] this
/// node, ARGV[2] its count, ARGV[3] how long it holds. Drops the lapsed
/// nodes' counts and returns the sum of the rest: no scan of the keyspace.
const PRESENCE: &str = r#"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[3]), ARGV[1])
local gone = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)
for _, n in ipairs(gone) do
  redis.call('HDEL', KEYS[1], n)
end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local total = 0
for _, v in ipairs(redis.call('HVALS', KEYS[1])) do
  total = total + tonumber(v)
end
return total
"#;

/// KEYS[1] the nodes' lapse times; ARGV[1] a node: 1 if its count has not
/// lapsed (the node is alive), else 0.
const ALIVE: &str = r#"
local s = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not s then return 0 end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if tonumber(s) > now then return 1 else return 0 end
"#;

impl Cluster {
    fn online_key(&self) -> String {
        self.key("online")
    }

    fn online_until_key(&self) -> String {
        self.key("online:until")
    }

    /// Whether node `node` is alive: it renewed its presence within the lease
    /// time.
    pub(crate) async fn node_alive(&self, node: &str) -> bool {
        let mut redis = self.redis.clone();
        let alive: redis::RedisResult<i64> = redis::Script::new(ALIVE)
            .key(self.online_until_key())
            .arg(node)
            .invoke_async(&mut redis)
            .await;
        matches!(alive, Ok(1))
    }
}

/// Online sockets: each node's count in one hash, beside a sorted set of when
/// each count lapses unless renewed; each round writes this node's and sums
/// the live ones (one script, no `KEYS`).
async fn presence(cluster: Arc<Cluster>, app: Arc<App>) {
    let every = std::time::Duration::from_millis(cluster.config.renew_ms.max(100));
    let ttl = cluster.config.lease_ttl_ms.max(1000);
    let mut redis = cluster.redis.clone();
    let shutdown = app.shutdown.clone();
    let script = redis::Script::new(PRESENCE);
    loop {
        let total: redis::RedisResult<u64> = script
            .key(cluster.online_key())
            .key(cluster.online_until_key())
            .arg(&cluster.node)
            .arg(app.sockets.len())
            .arg(ttl)
            .invoke_async(&mut redis)
            .await;
        match total {
            Ok(total) => cluster.online.store(total, Ordering::Relaxed),
            Err(e) => tracing::warn!("cannot count the sockets online in Redis: {e}"),
        }
        tokio::select! {
            _ = tokio::time::sleep(every) => {}
            _ = crate::stopped(shutdown.clone()) => break,
        }
    }
    let _: redis::RedisResult<()> = redis::pipe()
        .cmd("HDEL")
        .arg(cluster.online_key())
        .arg(&cluster.node)
        .ignore()
        .cmd("ZREM")
        .arg(cluster.online_until_key())
        .arg(&cluster.node)
        .ignore()
        .query_async(&mut redis)
        .await;
}
