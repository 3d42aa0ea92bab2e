//! The lease keeper: renews this node's leases every `renew_ms` (a table whose
//! lease was lost is stopped here: another node owns it), and every `scan_ms`
//! takes over the open tables nobody holds a live lease on — rebuilt from the
//! log, their clocks credited with the time since the last logged entry.
//! And the live tables' [`Ownership`] port, which the cluster fills: the
//! lease a new table is written under, and where a table's watchers go when
//! another node takes it.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::future::BoxFuture;

use super::bus::BusMsg;
use super::proxy;
use super::{Cluster, lock};
use crate::live::{Conn, Env, Ownership, TableHandle, TableMsg};

/// The cluster as the live tables' [`Ownership`].
pub struct TableLeases(pub Arc<Cluster>);

impl Ownership for TableLeases {
    fn lease_new<'a>(&'a self, table: &'a str) -> BoxFuture<'a, anyhow::Result<i64>> {
        Box::pin(self.0.lease_new(table))
    }

    fn release<'a>(&'a self, table: &'a str) -> BoxFuture<'a, ()> {
        Box::pin(self.0.release(table))
    }

    fn lost(&self, table: &str, watchers: Vec<Conn>, followers: Vec<Conn>) {
        self.0.forget(table);
        // The watchers go on at the new owner, through a proxy.
        let (cluster, id) = (self.0.clone(), table.to_string());
        tokio::spawn(async move {
            if let Some(handle) = cluster.route(&id).await {
                for conn in watchers {
                    let watch = TableMsg::Watch {
                        conn,
                        since: None,
                        req: None,
                    };
                    let _ = handle.tx.send(watch).await;
                }
                // (One that was not present follows as nobody already.)
                for conn in followers {
                    let follow = TableMsg::Follow {
                        conn,
                        present: true,
                    };
                    let _ = handle.tx.send(follow).await;
                }
            }
        });
    }
}

/// The lease keeper's loop, rebuilding tables into the node's tables' `env`.
pub(super) async fn keep(cluster: Arc<Cluster>, env: Arc<Env>) {
    let ttl = cluster.config.lease_ttl_ms as i64;
    let renew_every = Duration::from_millis(cluster.config.renew_ms.max(100));
    let scan_every = Duration::from_millis(cluster.config.scan_ms.max(100));
    let shutdown = env.shutdown.clone();
    // The first scan also takes back this node's own tables (it restarted).
    let mut first = true;
    let mut renewed = Instant::now();
    loop {
        if renewed.elapsed() >= renew_every || first {
            renewed = Instant::now();
            // One statement for all of this node's leases, so that a renewal
            // round takes one query however many tables (and a busy database
            // does not let leases expire one query at a time).
            // (Leases taken after this snapshot are judged next round.)
            let held: Vec<(String, i64)> = lock(&cluster.leases)
                .iter()
                .map(|(t, k)| (t.clone(), *k))
                .collect();
            match env.store.renew_leases(&cluster.node, ttl).await {
                Ok(fresh) => {
                    let fresh: std::collections::HashMap<String, i64> = fresh.into_iter().collect();
                    let lost: Vec<(String, i64)> = held
                        .into_iter()
                        .filter(|(t, k)| fresh.get(t) != Some(k))
                        .collect();
                    for (table, token) in lost {
                        tracing::warn!(table, token, "lease lost: another node owns the table");
                        cluster.forget(&table);
                        if let Some(h) = env.tables.get(&table) {
                            let _ = h.tx.send(crate::live::TableMsg::Fenced).await;
                        }
                    }
                }
                Err(e) => tracing::warn!("cannot renew leases: {e}"),
            }
        }
        scan(&cluster, &env, first).await;
        first = false;
        tokio::select! {
            _ = tokio::time::sleep(scan_every) => {}
            // Another node handed its tables over: take them now.
            _ = cluster.nudge.notified() => {}
            _ = crate::stopped(shutdown.clone()) => break,
        }
    }
    // Stopping: the server's task hands the leases over
    // ([`Cluster::hand_over`]) and waits for it before the process ends.
}

/// Takes over the open tables without a live lease.
async fn scan(cluster: &Arc<Cluster>, env: &Arc<Env>, first: bool) {
    let also = first.then_some(cluster.node.as_str());
    let orphans = match env.store.orphan_tables(also).await {
        Ok(o) => o,
        Err(e) => {
            tracing::warn!("cannot look for tables without an owner: {e}");
            return;
        }
    };
    let ttl = cluster.config.lease_ttl_ms as i64;
    for row in orphans {
        if env.tables.get(&row.id).is_some() || cluster.token(&row.id).is_some() {
            continue;
        }
        // How long the table's last owner was alive, read before the lease
        // names this node: its player to move is charged up to then.
        let alive_until = match env.store.lease(&row.id).await {
            Ok(Some(old)) if old.node == cluster.node => cluster.previous_beat,
            Ok(Some(old)) => crate::live::last_beat(&*env.store, &old.node).await,
            Ok(None) => None,
            Err(e) => {
                tracing::warn!(table = %row.id, "cannot read the lease: {e}");
                None
            }
        };
        let token = match env.store.acquire_lease(&row.id, &cluster.node, ttl).await {
            Ok(Some(token)) => token,
            Ok(None) => continue,
            Err(e) => {
                tracing::warn!(table = %row.id, "cannot take the lease: {e}");
                continue;
            }
        };
        lock(&cluster.leases).insert(row.id.clone(), token);
        let started = Instant::now();
        match crate::live::restore_leased(env, &row, Some(token), alive_until).await {
            Ok(()) => {
                tracing::info!(table = %row.id, token, ms = started.elapsed().as_millis() as u64, "table taken over");
                cluster
                    .send_all(&BusMsg::Owned {
                        table: row.id.clone(),
                        node: cluster.node.clone(),
                    })
                    .await;
            }
            Err(e) => {
                tracing::error!(table = %row.id, "cannot rebuild the table taken over: {e:#}");
                cluster.release(&row.id).await;
            }
        }
    }
}

impl Cluster {
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
    pub async fn lease_new(&self, table: &str) -> anyhow::Result<i64> {
        let token = self
            .node_handles
            .store
            .acquire_lease(table, &self.node, self.config.lease_ttl_ms as i64)
            .await?
            .ok_or_else(|| anyhow::anyhow!("table {table} is leased by another node"))?;
        lock(&self.leases).insert(table.to_string(), token);
        Ok(token)
    }

    /// A table here closed: its lease is given up.
    pub async fn release(&self, table: &str) {
        let token = lock(&self.leases).remove(table);
        if let Some(token) = token
            && let Err(e) = self.node_handles.store.release_lease(table, token).await
        {
            tracing::warn!(table, "cannot release lease: {e}");
        }
    }

    /// The node is stopping: its tables stop (their writes done), every lease
    /// is given up at once and the other nodes are told, so that they take
    /// the tables over within about a second rather than when the leases
    /// would have lapsed.
    pub async fn hand_over(&self) {
        self.node_handles.tables.stop_all().await;
        let held: Vec<(String, i64)> = lock(&self.leases).drain().collect();
        let n = held.len();
        for (table, token) in held {
            if let Err(e) = self.node_handles.store.release_lease(&table, token).await {
                tracing::warn!(table, "cannot release lease: {e}");
            }
        }
        self.send_all(&BusMsg::HandedOver {
            node: self.node.clone(),
        })
        .await;
        self.leave().await;
        tracing::info!(leases = n, "stopping: the tables are handed over");
    }

    /// A table here was fenced out (another node owns it now): forgotten.
    pub fn forget(&self, table: &str) {
        lock(&self.leases).remove(table);
    }

    /// The address of table `id` when another node owns it: a local proxy.
    pub async fn route(self: &Arc<Self>, id: &str) -> Option<TableHandle> {
        if let Some(p) = lock(&self.proxies).get(id) {
            return Some(p.handle.clone());
        }
        let node = &self.node_handles;
        let row = node.store.table(id).await.ok()??;
        if !row.open {
            return None;
        }
        let game = node.games.names().into_iter().find(|n| *n == row.game)?;
        let owner = node
            .store
            .lease(id)
            .await
            .ok()
            .flatten()
            .filter(|l| l.live)
            .map(|l| l.node);
        let handle = {
            let mut proxies = lock(&self.proxies);
            if let Some(p) = proxies.get(id) {
                return Some(p.handle.clone());
            }
            let p = proxy::Proxy::spawn(self.clone(), id.to_string(), game, owner);
            let handle = p.handle.clone();
            proxies.insert(id.to_string(), p);
            handle
        };
        // Who sits there, as the lobby last told: the table's chat tells its
        // players from its spectators by it (later changes come on the bus).
        let key = self.key(&format!("lobby:{game}"));
        let mut redis = self.redis.clone();
        let summary: redis::RedisResult<Option<String>> = self
            .timed(redis::cmd("HGET").arg(&key).arg(id).query_async(&mut redis))
            .await;
        if let Some(summary) = summary
            .ok()
            .flatten()
            .and_then(|s| serde_json::from_str::<crate::live::TableSummary>(&s).ok())
        {
            self.seated_elsewhere(&summary);
        }
        Some(handle)
    }

    /// A table another node owns changed (its lobby summary): the people
    /// sitting there, for its proxy here.
    pub(super) fn seated_elsewhere(&self, summary: &crate::live::TableSummary) {
        if let Some(p) = lock(&self.proxies).get(&summary.id) {
            p.handle.sitting.relay(
                summary
                    .seats
                    .iter()
                    .filter_map(|s| s.user.as_deref())
                    .filter(|u| crate::live::Occupant::of(u).is_person())
                    .map(str::to_string)
                    .collect(),
            );
        }
    }
}
