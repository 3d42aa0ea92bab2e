//! One node id, one process: a node claims its id in Redis at start
//! (`{prefix}claim:{id}`, an expiring key holding its incarnation, its host and
//! its process id), renews the claim with its presence and gives it back when
//! it stops. A second process with the same id refuses to start while the
//! first lives: at once when the holder is a live process on the same host,
//! else once the claim has failed to lapse for longer than a claim lasts. A
//! claim left by a process that died on this host is taken over at once, so
//! that a restart after a crash is not slowed.

use std::collections::HashSet;
use std::sync::Mutex;
use std::time::Duration;

use super::Cluster;

/// The node ids this process holds (by Redis key): a claim with this
/// process's id on it is live only if listed here.
static HELD: Mutex<Option<HashSet<String>>> = Mutex::new(None);

fn held() -> std::sync::MutexGuard<'static, Option<HashSet<String>>> {
    HELD.lock().unwrap_or_else(|e| e.into_inner())
}

/// This machine's host name.
pub(super) fn host() -> String {
    std::fs::read_to_string("/etc/hostname")
        .map(|h| h.trim().to_string())
        .ok()
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "node".into())
}

/// A claim's value: `incarnation host pid`.
pub(super) fn value(incarnation: u64) -> String {
    format!("{incarnation} {} {}", host(), std::process::id())
}

/// A claim's parts: incarnation, host, process id.
fn parse(value: &str) -> Option<(u64, &str, u32)> {
    let mut parts = value.split(' ');
    let inc = parts.next()?.parse().ok()?;
    let host = parts.next()?;
    let pid = parts.next()?.parse().ok()?;
    Some((inc, host, pid))
}

/// Whether the process that wrote claim `value` (for key `key`) is certainly
/// gone: it ran on this host and no such process runs (or it is this very
/// process, which does not hold that id).
fn holder_gone(key: &str, value: &str) -> Option<bool> {
    let (_, on, pid) = parse(value)?;
    if on != host() {
        return None;
    }
    if pid == std::process::id() {
        return Some(!held().as_ref().is_some_and(|h| h.contains(key)));
    }
    Some(!std::path::Path::new(&format!("/proc/{pid}")).exists())
}

/// KEYS[1] the claim; ARGV[1] the value expected there, ARGV[2] the new one,
/// ARGV[3] how long it holds: replaces the expected (or no) claim.
const REPLACE: &str = r#"
local v = redis.call('GET', KEYS[1])
if v == ARGV[1] or not v then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0
"#;

/// KEYS[1] the claim; ARGV[1] this process's value, ARGV[2] how long it
/// holds: renews it (or takes it back after it lapsed); 0 if another holds it.
const RENEW: &str = r#"
local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
elseif not v then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"#;

/// KEYS[1] the claim; ARGV[1] this process's value: deletes it if it is ours.
const RELEASE: &str = r#"
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"#;

impl Cluster {
    fn claim_key(&self, node: &str) -> String {
        self.key(&format!("claim:{node}"))
    }

    fn claim_ttl(&self) -> u64 {
        self.config.lease_ttl_ms.max(1000)
    }

    /// Claims this node's id, or says why not.
    pub(super) async fn claim_id(&self) -> anyhow::Result<()> {
        let key = self.claim_key(&self.node);
        let ttl = self.claim_ttl();
        // A claim lapses unless renewed: one that outlives its time is live.
        let give_up = tokio::time::Instant::now()
            + Duration::from_millis(ttl + self.config.renew_ms.max(100) + 500);
        let mut redis = self.redis.clone();
        loop {
            let mut set = redis::cmd("SET");
            set.arg(&key).arg(&self.claim).arg("NX").arg("PX").arg(ttl);
            let taken: Option<String> = self
                .timed(set.query_async(&mut redis))
                .await
                .map_err(|e| anyhow::anyhow!("cannot claim node id {} in Redis: {e}", self.node))?;
            if taken.is_some() {
                break;
            }
            let mut get = redis::cmd("GET");
            get.arg(&key);
            let holder: Option<String> = self
                .timed(get.query_async(&mut redis))
                .await
                .map_err(|e| anyhow::anyhow!("cannot claim node id {} in Redis: {e}", self.node))?;
            let Some(holder) = holder else { continue };
            match holder_gone(&key, &holder) {
                Some(true) => {
                    // Left by a process of this host that died: taken over.
                    let script = redis::Script::new(REPLACE);
                    let mut invocation = script.key(&key);
                    invocation.arg(&holder).arg(&self.claim).arg(ttl);
                    let replaced: i64 = self
                        .timed(invocation.invoke_async(&mut redis))
                        .await
                        .unwrap_or(0);
                    if replaced == 1 {
                        break;
                    }
                }
                Some(false) => {
                    let pid = parse(&holder).map(|(_, _, p)| p).unwrap_or_default();
                    anyhow::bail!(
                        "node id {} is in use by another running server on this host \
                         (process {pid}); each process needs its own node id (--node-id)",
                        self.node
                    );
                }
                None => {}
            }
            if tokio::time::Instant::now() >= give_up {
                let on = parse(&holder)
                    .map(|(_, h, _)| h.to_string())
                    .unwrap_or_default();
                anyhow::bail!(
                    "node id {} is in use by another running server (on host {on}); \
                     each process needs its own node id (--node-id)",
                    self.node
                );
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
        held().get_or_insert_with(HashSet::new).insert(key);
        tracing::info!(node = %self.node, incarnation = self.incarnation, "node id claimed");
        Ok(())
    }

    /// Renews the claim (with the node's presence).
    pub(super) async fn renew_claim(&self) {
        let mut redis = self.redis.clone();
        let script = redis::Script::new(RENEW);
        let mut invocation = script.key(self.claim_key(&self.node));
        invocation.arg(&self.claim).arg(self.claim_ttl());
        match self.timed(invocation.invoke_async::<i64>(&mut redis)).await {
            Ok(1) => {}
            Ok(_) => tracing::error!(
                node = %self.node,
                "another process has claimed this node's id: two processes must not share one \
                 (--node-id); this one goes on, but messages for the node reach both"
            ),
            Err(e) => tracing::warn!("cannot renew the node's claim in Redis: {e}"),
        }
    }

    /// Gives the claim back (the node stops).
    pub(super) async fn release_claim(&self) {
        let key = self.claim_key(&self.node);
        let mut redis = self.redis.clone();
        let script = redis::Script::new(RELEASE);
        let mut invocation = script.key(&key);
        invocation.arg(&self.claim);
        let _: redis::RedisResult<i64> = self.timed(invocation.invoke_async(&mut redis)).await;
        if let Some(h) = held().as_mut() {
            h.remove(&key);
        }
    }

    /// The incarnation that holds node `node`'s id now, if any.
    pub(super) async fn claimed_incarnation(&self, node: &str) -> Option<u64> {
        let mut redis = self.redis.clone();
        let mut get = redis::cmd("GET");
        get.arg(self.claim_key(node));
        let holder: Option<String> = self.timed(get.query_async(&mut redis)).await.ok()?;
        holder.as_deref().and_then(parse).map(|(inc, _, _)| inc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_claim_names_its_process() {
        let v = value(42);
        let (inc, on, pid) = parse(&v).unwrap();
        assert_eq!((inc, on, pid), (42, host().as_str(), std::process::id()));
        assert_eq!(parse("x y z"), None);
        // This process holds no such key: its own old claim is stale.
        assert_eq!(holder_gone("k-not-held", &v), Some(true));
        held()
            .get_or_insert_with(HashSet::new)
            .insert("k-held".into());
        assert_eq!(holder_gone("k-held", &v), Some(false));
        // Another host's claim cannot be judged from here.
        assert_eq!(holder_gone("k", "7 elsewhere.example 1"), None);
    }
}
