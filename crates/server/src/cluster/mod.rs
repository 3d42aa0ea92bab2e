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
//!   from its log with the one replay; the player to move is charged up to the
//!   dead owner's last heartbeat and the table's `Restart` entry credits the
//!   clocks with the time since, so the takeover is charged to nobody, and
//!   replays the same way. The live tables reach the leases only
//!   through the core's [`crate::live::Ownership`] port ([`TableLeases`]).
//! - **The bus** (`bus`): Redis pub/sub, one channel per node and one for all.
//!   A socket's command for a table owned elsewhere goes through a local proxy
//!   of the table (`proxy`) to the owner, which treats the socket as one of its
//!   own whose messages are delivered back over the bus (`remote`) — each socket gets
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
//! - **Identity.** Each process is one *incarnation* of its node (a random
//!   number drawn at start): a socket is named on the bus by its node, the
//!   incarnation and its connection id, so that a node that restarts (its
//!   connection ids start again at 1) never inherits the stand-ins other
//!   owners keep for its old sockets, and a stand-in serves only the user it
//!   was made for. A node claims its id in Redis at start (`claim:{id}`, with
//!   its incarnation, renewed with its presence) and refuses to start while
//!   another live process holds it. When a node's presence lapses or its id
//!   is claimed by a new incarnation, every owner treats its sockets as
//!   closed (`presence`): disconnect and escape rules apply as for any socket.
//! - **Outages.** Every Redis call has a timeout, the connection manager
//!   retries every second or so, and while the bus is down the tables with
//!   players on other nodes hold their clocks ([`crate::live::Pauses`]).
//!
//! Redis client: the `redis` crate (tokio, `ConnectionManager` reconnects by
//! itself, scripts are built in); its pub/sub is all the bus needs.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::live::{Conn, ConnId};

mod api;
mod bus;
mod claim;
mod leases;
pub mod pairing;
mod presence;
mod proxy;
mod remote;

pub use crate::config::ClusterConfig;
pub use bus::BusMsg;
pub use leases::TableLeases;
use remote::Remote;
pub(crate) use remote::RemoteKey;

/// What the cluster needs of its node: the store (leases), the games hosted,
/// the node's live tables, and the shutdown signal.
pub struct Handles {
    pub store: Arc<dyn qiyuan_store::Store>,
    pub games: crate::registry::Games,
    pub tables: Arc<crate::live::Registry>,
    pub shutdown: tokio::sync::watch::Receiver<bool>,
}

/// What the cluster serves on this node besides its [`Handles`]: the tables'
/// environment (the lease keeper rebuilds tables with it, and its table events
/// are told to the other nodes), and what the bus delivers other nodes'
/// news to. Made after the cluster (the environment holds the cluster's
/// leases), so given to [`Cluster::start`].
#[derive(Clone)]
pub struct Here {
    pub live: Arc<crate::live::Env>,
    /// Other nodes' tables are listed here too.
    pub lobby: Arc<crate::lobby::Lobby>,
    /// This node's WebSockets: counted for the presence, closed on a ban.
    pub sockets: Arc<crate::ws::Sockets>,
    /// The Lichess-compatible API's streams on this node.
    pub streams: Arc<crate::lichess::Hub>,
    /// This node's page sockets by person, for notifications from elsewhere.
    pub people: Arc<crate::people::Hub>,
    /// This node's chat rooms, for lines written elsewhere.
    pub chat: Arc<crate::chat::Chat>,
}

/// This node among several.
pub struct Cluster {
    pub node: String,
    /// This process's incarnation of the node (random, never 0).
    pub incarnation: u64,
    pub config: ClusterConfig,
    redis: redis::aio::ConnectionManager,
    client: redis::Client,
    /// Tables this node owns, with their fencing tokens.
    leases: Mutex<HashMap<String, i64>>,
    /// Sockets of this node that tables elsewhere send to, by id.
    local_conns: Mutex<HashMap<ConnId, Conn>>,
    /// Sockets of other nodes at tables here, as local connections.
    remote_conns: Mutex<HashMap<RemoteKey, Remote>>,
    /// Nodes whose presence lapsed, as last seen (a command for a table they
    /// own is refused at once, to be tried again).
    dead: Mutex<HashSet<String>>,
    /// The value of this node's claim on its id in Redis.
    claim: String,
    /// This node's last heartbeat before this process started (its previous
    /// run's): how far the tables it owned then are charged when taken back.
    pub(crate) previous_beat: Option<qiyuan_table::Millis>,
    /// Whether the bus's subscription is up.
    subscribed: AtomicBool,
    /// Since when the bus has been up without a failure (0: down), on the
    /// server's clock: nodes are judged dead only on a bus that has been up
    /// longer than a presence lasts.
    up_since: AtomicU64,
    /// Time nobody could act (the bus's outages are recorded there).
    pauses: Arc<crate::live::Pauses>,
    /// What the cluster needs of this node.
    pub(crate) node_handles: Handles,
    /// Woken when another node hands its tables over (it is stopping).
    pub(crate) nudge: tokio::sync::Notify,
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
    /// The games that ended at tables other nodes own, as they told them
    /// ([`BusMsg::GameEnded`]): with [`crate::live::TableEvents`] of this node,
    /// what a feature that must hear of every end (the Swiss director)
    /// subscribes to. (The other table events stay on their node.)
    pub remote_ends: crate::live::TableEvents,
}

/// Tells the other nodes of each game that ends at a table here
/// ([`BusMsg::GameEnded`]), for their [`Cluster::remote_ends`]. One that is
/// missed (the listener fell behind) is found by the listeners' own sweeps.
async fn tell_ends(
    cluster: Arc<Cluster>,
    mut events: tokio::sync::broadcast::Receiver<crate::live::TableEvent>,
) {
    use tokio::sync::broadcast::error::RecvError;
    let shutdown = cluster.node_handles.shutdown.clone();
    loop {
        let event = tokio::select! {
            event = events.recv() => event,
            _ = crate::stopped(shutdown.clone()) => break,
        };
        match event {
            Ok(crate::live::TableEvent::Ended {
                table,
                game,
                result,
            }) => {
                let ended = BusMsg::GameEnded {
                    table: table.to_string(),
                    game: game.to_string(),
                    result,
                };
                cluster.send_all(&ended).await;
            }
            Ok(_) => {}
            Err(RecvError::Lagged(missed)) => {
                tracing::warn!(missed, "game ends not told to the other nodes");
            }
            Err(RecvError::Closed) => break,
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Cluster {
    /// Connects to Redis, if the configuration names one, and claims the
    /// node's id (an error if another live process holds it).
    pub async fn connect(
        config: &ClusterConfig,
        listen: std::net::SocketAddr,
        pauses: Arc<crate::live::Pauses>,
        node_handles: Handles,
    ) -> anyhow::Result<Option<Arc<Cluster>>> {
        let Some(url) = &config.redis else {
            return Ok(None);
        };
        let client = redis::Client::open(url.as_str())
            .map_err(|e| anyhow::anyhow!("cannot use Redis at {url}: {e}"))?;
        let timeout = Duration::from_millis(config.redis_timeout_ms.max(100));
        // Retries about every second while Redis is away (the crate's default
        // backoff grew a hundredfold each time: minutes after a short outage).
        let manager = redis::aio::ConnectionManagerConfig::new()
            .set_exponent_base(1)
            .set_factor(1)
            .set_max_delay(1_000)
            .set_number_of_retries(5)
            .set_connection_timeout(timeout)
            .set_response_timeout(timeout);
        let redis = tokio::time::timeout(
            timeout * 3,
            redis::aio::ConnectionManager::new_with_config(client.clone(), manager),
        )
        .await
        .map_err(|_| anyhow::anyhow!("cannot reach Redis at {url}: no answer"))?
        .map_err(|e| anyhow::anyhow!("cannot reach Redis at {url}: {e}"))?;
        let node = config
            .node_id
            .clone()
            .unwrap_or_else(|| format!("{}:{}", claim::host(), listen.port()));
        let incarnation = loop {
            let n: u64 = rand::random();
            if n != 0 {
                break n;
            }
        };
        let claim = claim::value(incarnation);
        let previous_beat = crate::live::last_beat(&*node_handles.store, &node).await;
        let cluster = Arc::new(Cluster {
            node,
            incarnation,
            config: config.clone(),
            redis,
            client,
            leases: Mutex::default(),
            local_conns: Mutex::default(),
            remote_conns: Mutex::default(),
            dead: Mutex::default(),
            claim,
            previous_beat,
            subscribed: AtomicBool::new(false),
            up_since: AtomicU64::new(crate::now_ms() as u64),
            pauses,
            node_handles,
            nudge: tokio::sync::Notify::new(),
            proxies: Mutex::default(),
            pending: Mutex::default(),
            next_call: AtomicU64::new(1),
            seeks: Mutex::default(),
            bus_lag_us: AtomicU64::new(0),
            bus_received: AtomicU64::new(0),
            online: AtomicU64::new(0),
            remote_ends: crate::live::TableEvents::default(),
        });
        cluster.claim_id().await?;
        Ok(Some(cluster))
    }

    /// Runs a Redis command with this installation's timeout; a failure
    /// counts against the bus.
    pub(crate) async fn timed<T>(
        &self,
        call: impl std::future::Future<Output = redis::RedisResult<T>>,
    ) -> redis::RedisResult<T> {
        let wait = Duration::from_millis(self.config.redis_timeout_ms.max(100));
        let result = match tokio::time::timeout(wait, call).await {
            Ok(r) => r,
            Err(_) => Err(redis::RedisError::from((
                redis::ErrorKind::IoError,
                "no answer from Redis in time",
            ))),
        };
        match &result {
            Ok(_) => self.bus_works(),
            Err(e) if e.is_io_error() || e.is_timeout() || e.is_connection_dropped() => {
                self.bus_failed()
            }
            Err(_) => {}
        }
        result
    }

    /// Something on the bus failed: an outage begins (if none is going on).
    pub(crate) fn bus_failed(&self) {
        self.up_since.store(0, Ordering::Relaxed);
        self.pauses.bus_down(crate::now_ms() as u64);
    }

    /// A command went through, or a message came in: if the subscription is
    /// up, the bus is (a forwarded move that arrives ends the outage before
    /// its table takes it, so that the outage is credited first).
    pub(crate) fn bus_works(&self) {
        if !self.subscribed.load(Ordering::Relaxed) {
            return;
        }
        if self.pauses.is_bus_down() {
            self.pauses.bus_up(crate::now_ms() as u64);
        }
        if self.up_since.load(Ordering::Relaxed) == 0 {
            let now = crate::now_ms() as u64;
            let _ = self
                .up_since
                .compare_exchange(0, now, Ordering::Relaxed, Ordering::Relaxed);
        }
    }

    /// Whether the bus has been up for longer than a node's presence lasts:
    /// only then is a node whose presence lapsed taken for dead (after an
    /// outage every presence has lapsed).
    fn bus_settled(&self) -> bool {
        let since = self.up_since.load(Ordering::Relaxed);
        let hold = self.config.lease_ttl_ms.max(1000) + self.config.renew_ms.max(100);
        since != 0 && (crate::now_ms() as u64).saturating_sub(since) > hold
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
    pub async fn start(self: &Arc<Self>, here: Here) -> anyhow::Result<()> {
        bus::listen(self.clone(), here.clone()).await?;
        self.load_lobby(&here.lobby).await;
        tokio::spawn(leases::keep(self.clone(), here.live.clone()));
        tokio::spawn(presence::presence(self.clone(), here.sockets));
        tokio::spawn(presence::sweep(self.clone()));
        tokio::spawn(tell_ends(self.clone(), here.live.events.subscribe()));
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
        let script = redis::Script::new(HOLD);
        let mut invocation = script.key(self.key(&format!("role:{role}")));
        invocation
            .arg(&self.node)
            .arg(self.config.lease_ttl_ms.max(1000));
        let held: redis::RedisResult<i64> = self.timed(invocation.invoke_async(&mut redis)).await;
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
        let mut cmd = redis::cmd("GET");
        cmd.arg(self.key(&format!("role:{role}")));
        self.timed(cmd.query_async(&mut redis)).await.ok().flatten()
    }

    /// Gives up role `role` if this node holds it (a node stopping), so that
    /// another takes it at once.
    pub async fn release_role(&self, role: &str) {
        const RELEASE: &str = "if redis.call('GET', KEYS[1]) == ARGV[1] then \
              return redis.call('DEL', KEYS[1]) else return 0 end";
        let mut redis = self.redis.clone();
        let script = redis::Script::new(RELEASE);
        let mut invocation = script.key(self.key(&format!("role:{role}")));
        invocation.arg(&self.node);
        let _: redis::RedisResult<i64> = self.timed(invocation.invoke_async(&mut redis)).await;
    }

    /// Loads every table the lobby hash lists (a node starting among others).
    async fn load_lobby(&self, lobby: &crate::lobby::Lobby) {
        let mut redis = self.redis.clone();
        for game in self.node_handles.games.names() {
            let mut cmd = redis::cmd("HGETALL");
            cmd.arg(self.key(&format!("lobby:{game}")));
            let all: redis::RedisResult<HashMap<String, String>> =
                self.timed(cmd.query_async(&mut redis)).await;
            for text in all.unwrap_or_default().values() {
                if let Ok(summary) = serde_json::from_str(text) {
                    lobby.publish_remote(summary);
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
        let cmd = match &change {
            crate::lobby::Change::Table(s) => {
                let mut cmd = redis::cmd("HSET");
                cmd.arg(&key)
                    .arg(&id)
                    .arg(serde_json::to_string(s).unwrap_or_default());
                cmd
            }
            crate::lobby::Change::Gone { .. } => {
                let mut cmd = redis::cmd("HDEL");
                cmd.arg(&key).arg(&id);
                cmd
            }
        };
        let done: redis::RedisResult<i64> = self.timed(cmd.query_async(&mut redis)).await;
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
