//! What the Lichess-compatible API shares between nodes (see
//! [`crate::lichess`]): open challenges in one Redis hash (a challenge made on
//! one node is answered on another; taking one is one `HDEL`, which only one
//! node wins), each API game's chat in a capped Redis list, and which node
//! watches a game's end for `gameFinish` (a role per table, held like the
//! director's). Events for a user's event streams, chat lines and token
//! revocations travel on the bus (`BusMsg::ApiEvent`, `ApiChat`, `Ended`).

use std::collections::HashMap;

use super::Cluster;

/// How many chat lines of a game are kept (as on one node).
const CHAT_LINES: isize = 200;
/// How long a game's chat outlives its last line (a finished game's chat is
/// deleted when its end is seen; this bounds one whose watcher died).
const CHAT_TTL_MS: u64 = 24 * 3600 * 1000;

impl Cluster {
    fn challenges_key(&self) -> String {
        self.key("api:challenges")
    }

    fn chat_key(&self, table: &str) -> String {
        self.key(&format!("api:chat:{table}"))
    }

    /// Stores an open challenge (its JSON) under its id.
    pub(crate) async fn challenge_put(&self, id: &str, json: &str) {
        let mut redis = self.redis.clone();
        let done: redis::RedisResult<i64> = redis::cmd("HSET")
            .arg(self.challenges_key())
            .arg(id)
            .arg(json)
            .query_async(&mut redis)
            .await;
        if let Err(e) = done {
            tracing::warn!(id, "cannot store the challenge in Redis: {e}");
        }
    }

    /// An open challenge's JSON.
    pub(crate) async fn challenge_get(&self, id: &str) -> Option<String> {
        let mut redis = self.redis.clone();
        redis::cmd("HGET")
            .arg(self.challenges_key())
            .arg(id)
            .query_async(&mut redis)
            .await
            .ok()
            .flatten()
    }

    /// Removes an open challenge; true for the one caller that removed it.
    pub(crate) async fn challenge_del(&self, id: &str) -> bool {
        let mut redis = self.redis.clone();
        let n: redis::RedisResult<i64> = redis::cmd("HDEL")
            .arg(self.challenges_key())
            .arg(id)
            .query_async(&mut redis)
            .await;
        matches!(n, Ok(1))
    }

    /// Every open challenge's JSON, by id.
    pub(crate) async fn challenges_all(&self) -> HashMap<String, String> {
        let mut redis = self.redis.clone();
        redis::cmd("HGETALL")
            .arg(self.challenges_key())
            .query_async(&mut redis)
            .await
            .unwrap_or_default()
    }

    /// Appends a chat line of an API game.
    pub(crate) async fn chat_push(&self, table: &str, line: &str) {
        let key = self.chat_key(table);
        let mut redis = self.redis.clone();
        let done: redis::RedisResult<()> = redis::pipe()
            .cmd("RPUSH")
            .arg(&key)
            .arg(line)
            .ignore()
            .cmd("LTRIM")
            .arg(&key)
            .arg(-CHAT_LINES)
            .arg(-1)
            .ignore()
            .cmd("PEXPIRE")
            .arg(&key)
            .arg(CHAT_TTL_MS)
            .ignore()
            .query_async(&mut redis)
            .await;
        if let Err(e) = done {
            tracing::warn!(table, "cannot store the chat line in Redis: {e}");
        }
    }

    /// An API game's chat lines, oldest first.
    pub(crate) async fn chat_lines(&self, table: &str) -> Vec<String> {
        let mut redis = self.redis.clone();
        redis::cmd("LRANGE")
            .arg(self.chat_key(table))
            .arg(0)
            .arg(-1)
            .query_async(&mut redis)
            .await
            .unwrap_or_default()
    }

    /// A finished game's chat is forgotten.
    pub(crate) async fn chat_forget(&self, table: &str) {
        let mut redis = self.redis.clone();
        let _: redis::RedisResult<i64> = redis::cmd("DEL")
            .arg(self.chat_key(table))
            .query_async(&mut redis)
            .await;
    }
}
