//! What the API keeps between requests, in memory on this node: each user's
//! open event streams, the open challenges, each API game's chat, the tables
//! whose end is being watched for `gameFinish`, and the revocations that end
//! the streams of a token.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;
use std::time::Duration;

use qiyuan_table::TimeControl;
use serde_json::Value;
use tokio::sync::{broadcast, mpsc};

use super::ApiConfig;
use crate::auth::RateLimit;

/// A challenge waiting for its answer.
#[derive(Debug, Clone)]
pub struct Challenge {
    pub id: String,
    pub game: &'static str,
    pub challenger: (i64, String),
    pub dest: (i64, String),
    pub rated: bool,
    pub time: TimeControl,
    /// `white`, `black` or `random`: the challenger's colour.
    pub color: String,
    /// The challenger's seat once chosen (a random colour is drawn at once).
    pub challenger_seat: u8,
    pub created_at: i64,
}

/// The API's state on this node.
pub struct Hub {
    pub(super) limiter: RateLimit,
    /// Each user's open event streams.
    events: Mutex<HashMap<i64, Vec<mpsc::Sender<Value>>>>,
    pub(super) challenges: Mutex<HashMap<String, Challenge>>,
    /// Chat lines per table, and a feed of new ones (table, line).
    chats: Mutex<HashMap<String, Vec<Value>>>,
    chat_feed: broadcast::Sender<(String, Value)>,
    /// Tables whose end a task watches (for `gameFinish`), and their players.
    pub(super) watched: Mutex<HashSet<String>>,
    /// Each user's API games in progress (table ids), for `gameStart` on a new
    /// event stream.
    pub(super) playing: Mutex<HashMap<i64, Vec<String>>>,
    revocations: broadcast::Sender<String>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Hub {
    pub fn new(config: &ApiConfig) -> Self {
        Hub {
            limiter: RateLimit::new(config.requests_per_minute, Duration::from_secs(60)),
            events: Mutex::default(),
            challenges: Mutex::default(),
            chats: Mutex::default(),
            chat_feed: broadcast::channel(256).0,
            watched: Mutex::default(),
            playing: Mutex::default(),
            revocations: broadcast::channel(64).0,
        }
    }

    /// Registers an event stream of `user`.
    pub(super) fn listen(&self, user: i64) -> mpsc::Receiver<Value> {
        let (tx, rx) = mpsc::channel(64);
        let mut events = lock(&self.events);
        let list = events.entry(user).or_default();
        list.retain(|t| !t.is_closed());
        list.push(tx);
        rx
    }

    /// Sends an event to every event stream of `user`.
    pub(super) fn tell(&self, user: i64, event: &Value) {
        let mut events = lock(&self.events);
        if let Some(list) = events.get_mut(&user) {
            list.retain(|t| t.try_send(event.clone()).is_ok());
            if list.is_empty() {
                events.remove(&user);
            }
        }
    }

    pub(super) fn chat(&self, table: &str, line: Value) {
        let mut chats = lock(&self.chats);
        let lines = chats.entry(table.to_string()).or_default();
        if lines.len() >= 200 {
            lines.remove(0);
        }
        lines.push(line.clone());
        let _ = self.chat_feed.send((table.to_string(), line));
    }

    /// A finished game's chat is forgotten (its streams have ended).
    pub(super) fn forget_chat(&self, table: &str) {
        lock(&self.chats).remove(table);
    }

    pub(super) fn chat_of(&self, table: &str) -> Vec<Value> {
        lock(&self.chats).get(table).cloned().unwrap_or_default()
    }

    pub(super) fn chat_feed(&self) -> broadcast::Receiver<(String, Value)> {
        self.chat_feed.subscribe()
    }

    pub(super) fn start_playing(&self, user: i64, table: &str) {
        let mut playing = lock(&self.playing);
        let list = playing.entry(user).or_default();
        if !list.iter().any(|t| t == table) {
            list.push(table.to_string());
        }
    }

    pub(super) fn stop_playing(&self, user: i64, table: &str) {
        let mut playing = lock(&self.playing);
        if let Some(list) = playing.get_mut(&user) {
            list.retain(|t| t != table);
            if list.is_empty() {
                playing.remove(&user);
            }
        }
    }

    pub(super) fn playing_of(&self, user: i64) -> Vec<String> {
        lock(&self.playing).get(&user).cloned().unwrap_or_default()
    }

    /// Whether a task already watches `table`'s end; marks it watched if not.
    pub(super) fn watch_once(&self, table: &str) -> bool {
        !lock(&self.watched).insert(table.to_string())
    }

    pub(super) fn unwatch(&self, table: &str) {
        lock(&self.watched).remove(table);
    }

    /// A token was revoked: its streams end.
    pub fn revoked(&self, token_hash: &str) {
        let _ = self.revocations.send(token_hash.to_string());
    }

    pub(super) fn revocations(&self) -> broadcast::Receiver<String> {
        self.revocations.subscribe()
    }

    /// The open challenges that involve `user`.
    pub(super) fn challenges_of(&self, user: i64) -> Vec<Challenge> {
        let mut list: Vec<Challenge> = lock(&self.challenges)
            .values()
            .filter(|c| c.challenger.0 == user || c.dest.0 == user)
            .cloned()
            .collect();
        list.sort_by_key(|c| c.created_at);
        list
    }

    pub(super) fn challenges(&self) -> std::sync::MutexGuard<'_, HashMap<String, Challenge>> {
        lock(&self.challenges)
    }

    /// Takes challenge `id` out of the open ones if `may` allows the caller to
    /// answer it (the challenged accepts or declines, the challenger cancels).
    pub(super) fn take_challenge(
        &self,
        id: &str,
        may: impl Fn(&Challenge) -> bool,
    ) -> Option<Challenge> {
        let mut all = lock(&self.challenges);
        match all.get(id) {
            Some(c) if may(c) => all.remove(id),
            _ => None,
        }
    }
}

/// Resolves when `token_hash` is revoked (or, if revocations were missed,
/// when the store no longer has it).
pub(super) async fn until_revoked(app: &crate::App, token_hash: &str) {
    let mut rx = app.lichess.revocations();
    loop {
        match rx.recv().await {
            Ok(h) if h == token_hash => return,
            Ok(_) => {}
            Err(broadcast::error::RecvError::Lagged(_)) => {
                let exists = app.store.api_token(token_hash).await.map(|t| t.is_some());
                let session = app
                    .store
                    .session_user(token_hash, crate::now_ms())
                    .await
                    .map(|u| u.is_some());
                if matches!((exists, session), (Ok(false), Ok(false))) {
                    return;
                }
            }
            Err(broadcast::error::RecvError::Closed) => std::future::pending::<()>().await,
        }
    }
}
