//! What the API keeps between requests, in memory on this node: each user's
//! open event streams, the open challenges, each API game's chat, the tables
//! whose end is being watched for `gameFinish`, the draw offers made on one's
//! own turn (waiting for one's move, on this node only), and the revocations that end
//! streams (a token revoked, a session logged out, a user's sessions ended, a
//! user banned: [`crate::authority::Ended`]).
//!
//! With several nodes [`Share`] shares what must be shared (see
//! `crate::cluster::api`): challenges and chat in Redis, events for a user's
//! streams, chat lines and revocations over the bus to every node, and one
//! node at a time watching a game's end. The event streams themselves stay on
//! the node serving them. Events travel as the JSON of the typed events the
//! API builds (the bus carries them as such); chat lines as [`ChatLine`].

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use qiyuan_store::Store;
use qiyuan_table::TimeControl;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::{broadcast, mpsc};

use super::ApiConfig;
use crate::auth::RateLimit;
use crate::authority::{Authority, Ended};
use crate::cluster::{BusMsg, Cluster};

/// The room of a game's chat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Room {
    Player,
    Spectator,
}

/// Lichess's `chatLine`, as game streams send it and the hub keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatLine {
    #[serde(rename = "type")]
    kind: ChatLineType,
    pub room: Room,
    pub username: String,
    pub text: String,
}

/// The one `type` a [`ChatLine`] has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
enum ChatLineType {
    #[serde(rename = "chatLine")]
    ChatLine,
}

impl ChatLine {
    pub fn new(room: Room, username: &str, text: &str) -> Self {
        ChatLine {
            kind: ChatLineType::ChatLine,
            room,
            username: username.to_string(),
            text: text.to_string(),
        }
    }
}

/// A challenge waiting for its answer.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Challenge {
    pub id: String,
    pub game: String,
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
    /// One node: the open challenges.
    challenges: Mutex<HashMap<String, Challenge>>,
    /// Chat lines per table, and a feed of new ones (table, line).
    chats: Mutex<HashMap<String, Vec<ChatLine>>>,
    chat_feed: broadcast::Sender<(String, ChatLine)>,
    /// Tables whose end a task here watches (for `gameFinish`).
    watched: Mutex<HashSet<String>>,
    /// Each user's API games in progress (table ids), for `gameStart` on a new
    /// event stream.
    pub(super) playing: Mutex<HashMap<i64, Vec<String>>>,
    /// Draw offers made on one's own turn, standing until one's next move
    /// there: (table, user) → the table's game number then.
    drawing: Mutex<HashMap<(String, String), u32>>,
    revocations: broadcast::Sender<Ended>,
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
            drawing: Mutex::default(),
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

    /// Whether `user` has an event stream open on this node (how Lichess
    /// tells a bot online).
    pub(super) fn listening(&self, user: i64) -> bool {
        lock(&self.events)
            .get(&user)
            .is_some_and(|list| list.iter().any(|t| !t.is_closed()))
    }

    /// The users with an event stream open on this node.
    pub(super) fn listeners(&self) -> Vec<i64> {
        lock(&self.events)
            .iter()
            .filter(|(_, list)| list.iter().any(|t| !t.is_closed()))
            .map(|(user, _)| *user)
            .collect()
    }

    /// `user` offers a draw on their own turn in game `number` of `table`:
    /// the offer is made with their next move there.
    pub(super) fn offer_with_next_move(&self, table: &str, user: &str, number: u32) {
        lock(&self.drawing).insert((table.to_string(), user.to_string()), number);
    }

    /// The game number of `user`'s draw offer waiting for their move at
    /// `table`, if any (taken: it is made once).
    pub(super) fn pending_offer(&self, table: &str, user: &str) -> Option<u32> {
        let key = (table.to_string(), user.to_string());
        lock(&self.drawing).remove(&key)
    }

    /// The draw offers waiting at `table` are forgotten (its game ended).
    pub(super) fn forget_offers(&self, table: &str) {
        lock(&self.drawing).retain(|(t, _), _| t != table);
    }

    /// Sends an event to every event stream of `user` on this node (see
    /// [`Share::tell`] for every node).
    pub(crate) fn tell_here(&self, user: i64, event: &Value) {
        let mut events = lock(&self.events);
        if let Some(list) = events.get_mut(&user) {
            list.retain(|t| t.try_send(event.clone()).is_ok());
            if list.is_empty() {
                events.remove(&user);
            }
        }
    }

    fn chat(&self, table: &str, line: ChatLine) {
        let mut chats = lock(&self.chats);
        let lines = chats.entry(table.to_string()).or_default();
        if lines.len() >= 200 {
            lines.remove(0);
        }
        lines.push(line.clone());
        let _ = self.chat_feed.send((table.to_string(), line));
    }

    /// A chat line (stored elsewhere, come over the bus) for this node's game
    /// streams; anything but a chat line is dropped.
    pub(crate) fn feed_chat(&self, table: &str, line: Value) {
        if let Ok(line) = serde_json::from_value::<ChatLine>(line) {
            let _ = self.chat_feed.send((table.to_string(), line));
        }
    }

    fn chat_of(&self, table: &str) -> Vec<ChatLine> {
        lock(&self.chats).get(table).cloned().unwrap_or_default()
    }

    pub(super) fn chat_feed(&self) -> broadcast::Receiver<(String, ChatLine)> {
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

    /// The streams on this node that `ended` covers end (see
    /// [`crate::authority::end`] for every node).
    pub fn end(&self, ended: &Ended) {
        let _ = self.revocations.send(ended.clone());
    }

    pub(super) fn revocations(&self) -> broadcast::Receiver<Ended> {
        self.revocations.subscribe()
    }
}

/// What the API shares between requests and, with several nodes, between
/// nodes: this node's hub, the cluster if any, and the API's settings.
#[derive(Clone, Copy)]
pub(super) struct Share<'a> {
    pub hub: &'a Hub,
    pub cluster: Option<&'a Arc<Cluster>>,
    pub config: &'a ApiConfig,
}

impl<'a> Share<'a> {
    /// Sends an event to every event stream of `user`, on every node.
    pub(super) async fn tell(self, user: i64, event: &impl Serialize) {
        let Ok(event) = serde_json::to_value(event) else {
            return;
        };
        self.hub.tell_here(user, &event);
        if let Some(cluster) = self.cluster {
            cluster.send_all(&BusMsg::ApiEvent { user, event }).await;
        }
    }

    /// A chat line of API game `table`, for its streams on every node.
    pub(super) async fn chat(self, table: &str, line: ChatLine) {
        let Some(cluster) = self.cluster else {
            self.hub.chat(table, line);
            return;
        };
        let Ok(json) = serde_json::to_value(&line) else {
            return;
        };
        cluster.chat_push(table, &json.to_string()).await;
        let _ = self.hub.chat_feed.send((table.to_string(), line));
        let msg = BusMsg::ApiChat {
            table: table.to_string(),
            line: json,
        };
        cluster.send_all(&msg).await;
    }

    /// An API game's chat so far.
    pub(super) async fn chat_of(self, table: &str) -> Vec<ChatLine> {
        match self.cluster {
            Some(cluster) => cluster
                .chat_lines(table)
                .await
                .iter()
                .filter_map(|l| serde_json::from_str(l).ok())
                .collect(),
            None => self.hub.chat_of(table),
        }
    }

    /// A finished game's chat is forgotten (its streams have ended).
    pub(super) async fn forget_chat(self, table: &str) {
        lock(&self.hub.chats).remove(table);
        if let Some(cluster) = self.cluster {
            cluster.chat_forget(table).await;
        }
    }

    /// A new open challenge.
    pub(super) async fn put_challenge(self, c: &Challenge) {
        match self.cluster {
            Some(cluster) => {
                let json = serde_json::to_string(c).unwrap_or_default();
                cluster.challenge_put(&c.id, &json).await;
            }
            None => {
                lock(&self.hub.challenges).insert(c.id.clone(), c.clone());
            }
        }
    }

    /// Whether a challenge `id` is open (or stored, and not yet found expired).
    pub(super) async fn challenge_open(self, id: &str) -> bool {
        match self.cluster {
            Some(cluster) => cluster.challenge_get(id).await.is_some(),
            None => lock(&self.hub.challenges).contains_key(id),
        }
    }

    /// A challenge nobody answered in time goes away.
    pub(super) async fn expire_challenge(self, id: &str) {
        match self.cluster {
            Some(cluster) => {
                cluster.challenge_del(id).await;
            }
            None => {
                lock(&self.hub.challenges).remove(id);
            }
        }
    }

    /// Whether a challenge is past its time (with several nodes, the node that
    /// would have removed it may be gone).
    fn expired(self, c: &Challenge) -> bool {
        let life = (self.config.challenge_secs.max(1.0) * 1000.0) as i64;
        c.created_at + life < crate::now_ms()
    }

    /// The open challenges that involve `user`, oldest first.
    pub(super) async fn challenges_of(self, user: i64) -> Vec<Challenge> {
        let mut list: Vec<Challenge> = match self.cluster {
            Some(cluster) => {
                let mut out = Vec::new();
                for (id, json) in cluster.challenges_all().await {
                    match serde_json::from_str::<Challenge>(&json) {
                        Ok(c) if !self.expired(&c) => out.push(c),
                        _ => {
                            cluster.challenge_del(&id).await;
                        }
                    }
                }
                out
            }
            None => lock(&self.hub.challenges).values().cloned().collect(),
        };
        list.retain(|c| c.challenger.0 == user || c.dest.0 == user);
        list.sort_by_key(|c| c.created_at);
        list
    }

    /// Takes challenge `id` out of the open ones if `may` allows the caller to
    /// answer it (the challenged accepts or declines, the challenger cancels).
    /// With several nodes, of two nodes taking one challenge at once only one
    /// gets it.
    pub(super) async fn take_challenge(
        self,
        id: &str,
        may: impl Fn(&Challenge) -> bool,
    ) -> Option<Challenge> {
        let Some(cluster) = self.cluster else {
            let mut all = lock(&self.hub.challenges);
            return match all.get(id) {
                Some(c) if may(c) => all.remove(id),
                _ => None,
            };
        };
        let c: Challenge = serde_json::from_str(&cluster.challenge_get(id).await?).ok()?;
        if !may(&c) || self.expired(&c) {
            return None;
        }
        cluster.challenge_del(id).await.then_some(c)
    }

    /// Whether a task (on any node) already watches `table`'s end; marks it
    /// watched by this node if not.
    pub(super) async fn watch_once(self, table: &str) -> bool {
        if !lock(&self.hub.watched).insert(table.to_string()) {
            return true;
        }
        if let Some(cluster) = self.cluster
            && !cluster.hold(&watch_role(table)).await
        {
            lock(&self.hub.watched).remove(table);
            return true;
        }
        false
    }

    /// The watching task renews its claim on `table` (several nodes: it lapses
    /// if its node dies, and another node's stream takes it up).
    pub(super) async fn still_watching(self, table: &str) {
        if let Some(cluster) = self.cluster {
            cluster.hold(&watch_role(table)).await;
        }
    }

    pub(super) async fn unwatch(self, table: &str) {
        lock(&self.hub.watched).remove(table);
        if let Some(cluster) = self.cluster {
            cluster.release_role(&watch_role(table)).await;
        }
    }
}

/// A token was revoked: its streams end, on every node.
pub(super) async fn revoked(authority: &Authority, token_hash: &str) {
    let hash = token_hash.to_string();
    authority.end(Ended::Token { hash }).await;
}

/// The role of watching a table's end for `gameFinish`, with several nodes.
fn watch_role(table: &str) -> String {
    format!("api-watch:{table}")
}

/// Resolves when the stream opened with `token_hash` must end: the token is
/// revoked or logged out, its user's sessions end (a session token), or its
/// user is banned — or, if revocations were missed, when the store no longer
/// accepts it. Subscribed before the token is looked up, so that nothing
/// between the request's check and the stream's start is missed.
pub(super) async fn until_revoked(hub: &Hub, store: &dyn Store, token_hash: &str) {
    let mut rx = hub.revocations();
    // `None`: the store could not say; asked again at the next revocation.
    let mut known = match holder(store, token_hash).await {
        Ok(None) => return,
        Ok(holder) => holder,
        Err(_) => None,
    };
    loop {
        let ends = match (rx.recv().await, known) {
            (Ok(Ended::Token { hash }), _) => hash == token_hash,
            (Ok(Ended::Sessions { user }), Some((holder, session))) => session && user == holder,
            (Ok(Ended::Banned { user }), Some((holder, _))) => user == holder,
            (Err(broadcast::error::RecvError::Closed), _) => std::future::pending().await,
            // Revocations missed, or the holder not known: the store says.
            _ => match holder(store, token_hash).await {
                Ok(None) => true,
                Ok(holder) => {
                    known = holder;
                    false
                }
                Err(_) => false,
            },
        };
        if ends {
            return;
        }
    }
}

/// Whose token `token_hash` is and whether it is a session (else a personal
/// token), while the store accepts it.
async fn holder(
    store: &dyn Store,
    token_hash: &str,
) -> Result<Option<(i64, bool)>, qiyuan_store::StoreError> {
    if let Some((_, user)) = store.api_token(token_hash).await? {
        return Ok(Some((user.id, false)));
    }
    let session = store.session_user(token_hash, crate::now_ms()).await?;
    Ok(session.map(|user| (user.id, true)))
}
