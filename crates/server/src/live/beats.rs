//! The node's heartbeat: the time it is alive, written into the store about
//! every second ([`qiyuan_store::BeatStore`], one row per node). When a table
//! is rebuilt after its node died — a restart after a crash, or another node's
//! takeover — the player to move is charged what his clock ran from his turn's
//! start up to that node's last heartbeat (never more than the time since), and
//! the time after it, when nobody could move, goes to no clock
//! ([`super::restore_leased`]'s `alive_until`).

use std::sync::Arc;
use std::time::Duration;

use qiyuan_store::Store;
use qiyuan_table::Millis;
use tokio::sync::watch;

/// How often a node writes its heartbeat: the most a crash can leave
/// uncharged of the time the player to move had used.
pub const BEAT_EVERY: Duration = Duration::from_secs(1);

/// The node name under which a server that is the only node (no `[cluster]`)
/// writes its heartbeat.
pub const ONE_NODE: &str = "-";

/// `node`'s last heartbeat before this process wrote any: what its previous
/// run said last (read before [`heartbeat`] starts).
pub async fn last_beat(store: &dyn Store, node: &str) -> Option<Millis> {
    match store.last_beat(node).await {
        Ok(at) => at.map(|at| at.max(0) as Millis),
        Err(e) => {
            tracing::warn!(node, "cannot read the node's last heartbeat: {e}");
            None
        }
    }
}

/// Writes `node`'s heartbeat every [`BEAT_EVERY`] until the server stops, and
/// once more then.
pub async fn heartbeat(store: Arc<dyn Store>, node: String, shutdown: watch::Receiver<bool>) {
    let mut every = tokio::time::interval(BEAT_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let stopping = tokio::select! {
            _ = every.tick() => false,
            _ = crate::stopped(shutdown.clone()) => true,
        };
        if let Err(e) = store.beat(&node, crate::now_ms()).await {
            tracing::warn!(node, "cannot write the node's heartbeat: {e}");
        }
        if stopping {
            break;
        }
    }
}
