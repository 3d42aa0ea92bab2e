//! Quick pairing across nodes: one seek pool per (game, time control, rated) in
//! Redis, a list of waiting seekers. A Lua script (atomic in Redis) takes the
//! first seeker of another user, or else queues this one: two seekers can never
//! both wait, nor one be taken twice. The node of the seeker who completes the
//! pair creates and owns the table; the one who waited is a socket of another
//! node, reached over the bus like any other.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::{Cluster, lock};
use crate::error::ApiError;
use crate::live::{Conn, ConnId, Env, UserInfo};
use crate::protocol::Seek;

/// A waiting seeker as the pool holds it.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Entry {
    node: String,
    /// The incarnation of `node` whose socket `conn` is.
    #[serde(default)]
    inc: u64,
    conn: ConnId,
    user: UserInfo,
}

/// KEYS[1] the pool; ARGV[1] this seeker's entry, ARGV[2] their user id,
/// ARGV[3] their node, ARGV[4] their socket. Returns the partner's entry, or
/// nil when this seeker now waits.
const TAKE_OR_WAIT: &str = r#"
local n = redis.call('LLEN', KEYS[1])
for i = 0, n - 1 do
  local e = redis.call('LINDEX', KEYS[1], i)
  local d = cjson.decode(e)
  if tostring(d.user.id) ~= ARGV[2] then
    redis.call('LREM', KEYS[1], 1, e)
    return e
  end
end
for i = n - 1, 0, -1 do
  local e = redis.call('LINDEX', KEYS[1], i)
  local d = cjson.decode(e)
  if d.node == ARGV[3] and tostring(d.conn) == ARGV[4] then
    redis.call('LREM', KEYS[1], 1, e)
  end
end
redis.call('RPUSH', KEYS[1], ARGV[1])
return false
"#;

/// Matches `seek` with a seeker on any node, or queues it (`None`); a pair's
/// table is made here, in the tables' environment `env`.
pub(crate) async fn seek(
    env: &Arc<Env>,
    cluster: &Arc<Cluster>,
    conn: Conn,
    seek: Seek,
    user: UserInfo,
) -> Result<Option<String>, ApiError> {
    let time = serde_json::to_string(&seek.time).map_err(ApiError::internal)?;
    let key = cluster.key(&format!("seeks:{}:{}:{time}", seek.game, seek.rated));
    let entry = Entry {
        node: cluster.node.clone(),
        inc: cluster.incarnation,
        conn: conn.id,
        user: user.clone(),
    };
    let text = serde_json::to_string(&entry).map_err(ApiError::internal)?;
    cluster.register_local(&conn);
    let script = redis::Script::new(TAKE_OR_WAIT);
    let mut redis = cluster.redis.clone();
    // A seeker whose node is gone (its presence lapsed, or it restarted) is
    // skipped.
    let (partner, remote) = loop {
        let mut invocation = script.key(&key);
        invocation
            .arg(&text)
            .arg(user.id.to_string())
            .arg(&cluster.node)
            .arg(conn.id.to_string());
        let taken: Option<String> = cluster
            .timed(invocation.invoke_async(&mut redis))
            .await
            .map_err(|e| ApiError::unavailable(format!("cannot reach the seek pool: {e}")))?;
        let Some(taken) = taken else {
            lock(&cluster.seeks).insert(conn.id, (key, text));
            return Ok(None);
        };
        let Ok(partner) = serde_json::from_str::<Entry>(&taken) else {
            continue;
        };
        if partner.node == cluster.node {
            if partner.inc != cluster.incarnation {
                continue;
            }
            let local = lock(&cluster.local_conns).get(&partner.conn).cloned();
            lock(&cluster.seeks).remove(&partner.conn);
            match local {
                Some(c) if !c.tx.is_closed() => break (c, None),
                _ => continue,
            }
        }
        if cluster.node_alive(&partner.node).await
            && cluster.claimed_incarnation(&partner.node).await == Some(partner.inc)
            && let Some(c) = cluster.remote_conn(
                &partner.node,
                partner.inc,
                partner.conn,
                Some(partner.user),
                None,
            )
        {
            break (c, Some((partner.node, partner.inc, partner.conn)));
        }
    };
    let table = crate::lobby::pair(env, &seek, [partner, conn]).await?;
    if let Some(remote) = remote {
        cluster.note_table(&remote, &table);
    }
    Ok(Some(table))
}

impl Cluster {
    /// Takes a socket's seek out of the pool (cancelled, or the socket closed).
    pub(crate) async fn cancel_seek(&self, conn: ConnId) -> bool {
        let Some((key, text)) = lock(&self.seeks).remove(&conn) else {
            return false;
        };
        let mut redis = self.redis.clone();
        let mut cmd = redis::cmd("LREM");
        cmd.arg(key).arg(0).arg(text);
        let removed: i64 = self.timed(cmd.query_async(&mut redis)).await.unwrap_or(0);
        removed > 0
    }
}
