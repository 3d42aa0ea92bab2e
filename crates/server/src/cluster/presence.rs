//! Which nodes are alive: each node counts its sockets into a shared hash
//! that lapses unless renewed (its presence), and a sweep takes a node whose
//! presence lapsed, or whose id a new incarnation claimed, for dead — its
//! sockets count as closed at the tables here.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::remote::{Remote, RemoteKey};
use super::{Cluster, lock};

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
        let script = redis::Script::new(ALIVE);
        let mut invocation = script.key(self.online_until_key());
        invocation.arg(node);
        let alive: redis::RedisResult<i64> = self.timed(invocation.invoke_async(&mut redis)).await;
        matches!(alive, Ok(1))
    }
}

/// Online sockets: each node's count in one hash, beside a sorted set of when
/// each count lapses unless renewed; each round writes this node's and sums
/// the live ones (one script, no `KEYS`). The same round renews the node's
/// claim on its id. On stopping, both are taken back at once, so that the
/// other nodes know this one gone without waiting for it to lapse.
pub(super) async fn presence(cluster: Arc<Cluster>, sockets: Arc<crate::ws::Sockets>) {
    let every = std::time::Duration::from_millis(cluster.config.renew_ms.max(100));
    let ttl = cluster.config.lease_ttl_ms.max(1000);
    let mut redis = cluster.redis.clone();
    let shutdown = cluster.node_handles.shutdown.clone();
    let script = redis::Script::new(PRESENCE);
    loop {
        cluster.renew_claim().await;
        let mut invocation = script.key(cluster.online_key());
        invocation
            .key(cluster.online_until_key())
            .arg(&cluster.node)
            .arg(sockets.len())
            .arg(ttl);
        let total: redis::RedisResult<u64> =
            cluster.timed(invocation.invoke_async(&mut redis)).await;
        match total {
            Ok(total) => cluster.online.store(total, Ordering::Relaxed),
            Err(e) => tracing::warn!("cannot count the sockets online in Redis: {e}"),
        }
        tokio::select! {
            _ = tokio::time::sleep(every) => {}
            _ = crate::stopped(shutdown.clone()) => break,
        }
    }
    // Stopping: `Cluster::hand_over` takes the presence and the claim back.
}

impl Cluster {
    /// The node's presence and its claim on its id are taken back (it stops).
    pub(super) async fn leave(&self) {
        let mut redis = self.redis.clone();
        let mut pipe = redis::pipe();
        pipe.cmd("HDEL")
            .arg(self.online_key())
            .arg(&self.node)
            .ignore()
            .cmd("ZREM")
            .arg(self.online_until_key())
            .arg(&self.node)
            .ignore();
        let _: redis::RedisResult<()> = self.timed(pipe.query_async(&mut redis)).await;
        self.release_claim().await;
    }
}

/// Every `scan_ms`: the sockets of nodes that died (their presence lapsed)
/// or restarted (their id claimed by a new incarnation) are closed at the
/// tables here, so that the disconnection and escape rules apply to them as
/// to any socket that closed; and the nodes found dead are remembered, so
/// that a command for a table one of them owned is answered at once.
pub(super) async fn sweep(cluster: Arc<Cluster>) {
    let every = std::time::Duration::from_millis(cluster.config.scan_ms.max(100));
    let shutdown = cluster.node_handles.shutdown.clone();
    loop {
        tokio::select! {
            _ = tokio::time::sleep(every) => {}
            _ = crate::stopped(shutdown.clone()) => break,
        }
        if !cluster.bus_settled() {
            continue;
        }
        let mut nodes: HashMap<String, HashSet<u64>> = HashMap::new();
        for (node, inc, _) in lock(&cluster.remote_conns).keys() {
            nodes.entry(node.clone()).or_default().insert(*inc);
        }
        let owners: Vec<String> = lock(&cluster.proxies)
            .values()
            .filter_map(|p| p.owner())
            .collect();
        for owner in owners {
            nodes.entry(owner).or_default();
        }
        nodes.remove(&cluster.node);
        let mut dead = HashSet::new();
        let mut gone: Vec<(String, u64)> = Vec::new();
        for (node, incs) in nodes {
            let alive = cluster.node_alive(&node).await;
            let current = cluster.claimed_incarnation(&node).await;
            if !cluster.bus_settled() {
                break;
            }
            if !alive {
                dead.insert(node.clone());
            }
            for inc in incs {
                if !alive || current.is_some_and(|c| c != inc) {
                    gone.push((node.clone(), inc));
                }
            }
        }
        *lock(&cluster.dead) = dead;
        for (node, inc) in gone {
            cluster.close_remote_sockets(&node, inc).await;
        }
    }
}

impl Cluster {
    /// Every stand-in of incarnation `inc` of node `node` is closed at its
    /// tables: that process is gone.
    async fn close_remote_sockets(&self, node: &str, inc: u64) {
        let closed: Vec<Remote> = {
            let mut conns = lock(&self.remote_conns);
            let keys: Vec<RemoteKey> = conns
                .keys()
                .filter(|(n, i, _)| n == node && *i == inc)
                .cloned()
                .collect();
            keys.into_iter().filter_map(|k| conns.remove(&k)).collect()
        };
        if closed.is_empty() {
            return;
        }
        tracing::warn!(
            node,
            inc,
            sockets = closed.len(),
            "a node is gone: its sockets count as closed at the tables here"
        );
        for remote in closed {
            for table in &remote.tables {
                if let Some(handle) = self.node_handles.tables.get(table) {
                    let _ = handle
                        .tx
                        .send(crate::live::TableMsg::Closed {
                            conn: remote.conn.id,
                        })
                        .await;
                }
            }
        }
    }
}

impl Cluster {
    /// Whether node `node` was found dead at the last sweep.
    pub(crate) fn seems_dead(&self, node: &str) -> bool {
        lock(&self.dead).contains(node)
    }
}
