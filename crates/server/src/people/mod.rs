//! People in the hall: a channel to each person on every page.
//!
//! Every WebSocket a logged-in person opens (each page has one) is registered
//! in this node's [`Hub`] under its user for as long as it is open. What
//! happens to a person — a challenge made, accepted or declined, their
//! tournament round paired, an arbiter's word — is pushed the moment it
//! happens through the [`Notifier`]: to their sockets here, and with several
//! nodes over the bus (`BusMsg::Notify`) to those on every other node, whose
//! bus listener hands it to its own hub. Nothing is stored: a page that was
//! closed learns what it missed from the HTTP API when it opens.
//!
//! With several nodes the hub also keeps where each person is as the other
//! nodes see them (`BusMsg::Presence`), for the relations' presence. And it
//! keeps the sockets that follow a page's subject (an event's page:
//! `event.follow`), which the feature that owns the subject tells of its
//! changes (`events::follow`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::ws::Utf8Bytes;
use qiyuan_store::UserId;
use tokio::sync::mpsc;

use crate::cluster::{BusMsg, Cluster};
use crate::live::ConnId;
use crate::protocol::ServerMsg;
use crate::protocol::out::Notification;
use crate::protocol::relations::Presence;

/// A person's open page sockets: each one's id and where its frames go.
type Pages = Vec<(ConnId, mpsc::Sender<Utf8Bytes>)>;

/// This node's open page sockets, by person; and, with several nodes, where
/// each person is as the other nodes see them (their presence, told over the
/// bus), which the relations merge with this node's.
#[derive(Debug, Default)]
pub struct Hub {
    open: Mutex<HashMap<UserId, Pages>>,
    /// Each person's presence by node, for the other nodes that see them
    /// anywhere (a node that sees them offline is forgotten).
    elsewhere: Mutex<HashMap<UserId, HashMap<String, Presence>>>,
    /// Told of each person whose presence elsewhere changed.
    changed: Mutex<Option<mpsc::UnboundedSender<UserId>>>,
    /// The sockets following a page's subject (`event:{id}`: an event's
    /// page), by subject.
    subjects: Mutex<HashMap<String, Pages>>,
}

/// A socket's following of a subject: it ends when this is dropped.
#[derive(Debug)]
pub struct Follow {
    hub: Arc<Hub>,
    subject: String,
    conn: ConnId,
}

impl Drop for Follow {
    fn drop(&mut self) {
        let mut subjects = self.hub.subjects_lock();
        if let Some(conns) = subjects.get_mut(&self.subject) {
            conns.retain(|(c, _)| *c != self.conn);
            if conns.is_empty() {
                subjects.remove(&self.subject);
            }
        }
    }
}

/// A socket's place in the hub: it leaves when this is dropped (the socket
/// closed).
#[derive(Debug)]
pub struct Channel {
    hub: Arc<Hub>,
    user: UserId,
    conn: ConnId,
}

impl Drop for Channel {
    fn drop(&mut self) {
        let mut open = self.hub.lock();
        if let Some(conns) = open.get_mut(&self.user) {
            conns.retain(|(c, _)| *c != self.conn);
            if conns.is_empty() {
                open.remove(&self.user);
            }
        }
    }
}

impl Hub {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<UserId, Pages>> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Registers socket `conn` of `user`, whose frames go to `tx`, until the
    /// returned [`Channel`] is dropped.
    pub fn open(
        self: &Arc<Self>,
        user: UserId,
        conn: ConnId,
        tx: mpsc::Sender<Utf8Bytes>,
    ) -> Channel {
        self.lock().entry(user).or_default().push((conn, tx));
        Channel {
            hub: self.clone(),
            user,
            conn,
        }
    }

    /// Queues `text` on every socket of `user` on this node; how many took it
    /// (a socket whose queue is full misses it, as it would a table's event).
    pub fn deliver(&self, user: UserId, text: &str) -> usize {
        let open = self.lock();
        let Some(conns) = open.get(&user) else {
            return 0;
        };
        let text = Utf8Bytes::from(text.to_string());
        conns
            .iter()
            .filter(|(_, tx)| tx.try_send(text.clone()).is_ok())
            .count()
    }

    /// How many sockets `user` has open on this node.
    pub fn open_for(&self, user: UserId) -> usize {
        self.lock().get(&user).map_or(0, Vec::len)
    }

    fn elsewhere_lock(
        &self,
    ) -> std::sync::MutexGuard<'_, HashMap<UserId, HashMap<String, Presence>>> {
        self.elsewhere.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Node `node` sees `user` so now (told over the bus); whoever listens
    /// ([`Hub::on_elsewhere`]) hears of it.
    pub fn presence_elsewhere(&self, node: &str, user: UserId, presence: Presence) {
        {
            let mut elsewhere = self.elsewhere_lock();
            let nodes = elsewhere.entry(user).or_default();
            if presence == Presence::Offline {
                nodes.remove(node);
            } else {
                nodes.insert(node.to_string(), presence);
            }
            if nodes.is_empty() {
                elsewhere.remove(&user);
            }
        }
        let changed = self.changed.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tx) = changed.as_ref() {
            let _ = tx.send(user);
        }
    }

    /// Where `user` is as the other nodes see them: the most any of them
    /// sees ([`Presence::merge`]).
    pub fn elsewhere(&self, user: UserId) -> Presence {
        self.elsewhere_lock()
            .get(&user)
            .into_iter()
            .flat_map(|nodes| nodes.values().cloned())
            .fold(Presence::Offline, Presence::merge)
    }

    fn subjects_lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Pages>> {
        self.subjects.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Socket `conn`, whose frames go to `tx`, follows `subject` until the
    /// returned [`Follow`] is dropped.
    pub fn follow(
        self: &Arc<Self>,
        subject: String,
        conn: ConnId,
        tx: mpsc::Sender<Utf8Bytes>,
    ) -> Follow {
        self.subjects_lock()
            .entry(subject.clone())
            .or_default()
            .push((conn, tx));
        Follow {
            hub: self.clone(),
            subject,
            conn,
        }
    }

    /// The subjects some socket here follows.
    pub fn subjects(&self) -> Vec<String> {
        self.subjects_lock().keys().cloned().collect()
    }

    /// Queues `text` on every socket here following `subject`.
    pub fn tell_followers(&self, subject: &str, text: &str) -> usize {
        let subjects = self.subjects_lock();
        let Some(conns) = subjects.get(subject) else {
            return 0;
        };
        let text = Utf8Bytes::from(text.to_string());
        conns
            .iter()
            .filter(|(_, tx)| tx.try_send(text.clone()).is_ok())
            .count()
    }

    /// Tells `tx` of every person whose presence elsewhere changes.
    pub fn on_elsewhere(&self, tx: mpsc::UnboundedSender<UserId>) {
        *self.changed.lock().unwrap_or_else(|e| e.into_inner()) = Some(tx);
    }
}

/// Tells a person things on every page they have open, on every node: the
/// narrow handle the features that notify (challenges, events) are given.
#[derive(Clone)]
pub struct Notifier {
    hub: Arc<Hub>,
    cluster: Option<Arc<Cluster>>,
}

impl Notifier {
    pub fn new(hub: Arc<Hub>, cluster: Option<Arc<Cluster>>) -> Self {
        Notifier { hub, cluster }
    }

    /// Sends `notify` to every page socket of `user`.
    pub fn notify(&self, user: UserId, note: Notification) {
        self.tell(user, &ServerMsg::Notify(note));
    }

    /// Sends a server message to every page socket of `user`: here at once,
    /// and to the other nodes over the bus (they deliver it to theirs).
    pub fn tell(&self, user: UserId, msg: &ServerMsg) {
        let text = msg.encode(None);
        self.hub.deliver(user, &text);
        if let Some(cluster) = self.cluster.clone() {
            tokio::spawn(async move {
                cluster.send_all(&BusMsg::Notify { user, text }).await;
            });
        }
    }
}
