//! The open WebSockets of each session, so that ending a session (logout, a
//! ban, expiry) closes them at once, and a user's sockets can be told things.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use axum::extract::ws::Utf8Bytes;
use tokio::sync::{Notify, mpsc};

use crate::live;

/// The open WebSockets that belong to a session, so that ending the session
/// closes them at once.
#[derive(Debug, Default)]
pub struct Sockets {
    open: Mutex<HashMap<live::ConnId, SocketEntry>>,
    /// Where the users whose sockets came, went or began or stopped watching
    /// are told (the relations' presence), once someone listens.
    changes: std::sync::OnceLock<mpsc::UnboundedSender<i64>>,
}

#[derive(Debug)]
struct SocketEntry {
    user: i64,
    /// Where the socket's messages go (events tell players of their rounds).
    tx: mpsc::Sender<Utf8Bytes>,
    /// The SHA-256 of the session token the socket was opened with.
    session: String,
    kick: Arc<Kick>,
    /// The tables the socket watches (a person's presence: watching).
    watching: HashSet<String>,
}

/// How a socket is told that its session ended, and why (its close frame's
/// reason; the first reason given stands).
#[derive(Debug, Default)]
pub(super) struct Kick {
    pub(super) notify: Notify,
    reason: std::sync::OnceLock<&'static str>,
}

impl Kick {
    pub(super) fn kick(&self, reason: &'static str) {
        let _ = self.reason.set(reason);
        // A stored permit: the socket acts on it before any further message.
        self.notify.notify_one();
    }

    pub(super) fn reason(&self) -> &'static str {
        self.reason.get().copied().unwrap_or("logged_out")
    }
}

impl Sockets {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<live::ConnId, SocketEntry>> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(super) fn add(
        &self,
        conn: live::ConnId,
        user: i64,
        session: String,
        tx: mpsc::Sender<Utf8Bytes>,
    ) -> Arc<Kick> {
        let kick = Arc::new(Kick::default());
        self.lock().insert(
            conn,
            SocketEntry {
                user,
                tx,
                session,
                kick: kick.clone(),
                watching: HashSet::new(),
            },
        );
        self.changed(user);
        kick
    }

    pub(super) fn remove(&self, conn: live::ConnId) {
        let gone = self.lock().remove(&conn);
        if let Some(entry) = gone {
            self.changed(entry.user);
        }
    }

    /// Tells `changes` of every user whose sockets come, go, or begin or stop
    /// watching a table from now on (only the first call is heard).
    pub fn tell_changes(&self, changes: mpsc::UnboundedSender<i64>) {
        let _ = self.changes.set(changes);
    }

    fn changed(&self, user: i64) {
        if let Some(changes) = self.changes.get() {
            let _ = changes.send(user);
        }
    }

    fn close_where(&self, reason: &'static str, pick: impl Fn(&SocketEntry) -> bool) -> usize {
        let open = self.lock();
        let mut n = 0;
        for entry in open.values().filter(|e| pick(e)) {
            entry.kick.kick(reason);
            n += 1;
        }
        n
    }

    /// Closes the sockets opened with the session `token_hash`; how many.
    pub fn close_session(&self, token_hash: &str) -> usize {
        self.close_where("logged_out", |e| e.session == token_hash)
    }

    /// Closes every socket of a user; how many.
    pub fn close_user(&self, user: i64) -> usize {
        self.close_where("logged_out", |e| e.user == user)
    }

    /// Closes every socket of a banned user (reason `banned`); how many.
    pub fn close_banned(&self, user: i64) -> usize {
        self.close_where("banned", |e| e.user == user)
    }

    /// Queues a message on every socket of a user; how many took it.
    pub fn send_to_user(&self, user: i64, text: &str) -> usize {
        let open = self.lock();
        open.values()
            .filter(|e| e.user == user)
            .filter(|e| e.tx.try_send(Utf8Bytes::from(text.to_string())).is_ok())
            .count()
    }

    /// The socket `conn` watches table `table` (`on`), or not any more.
    pub(super) fn watching(&self, conn: live::ConnId, table: &str, on: bool) {
        let user = {
            let mut open = self.lock();
            let Some(entry) = open.get_mut(&conn) else {
                return;
            };
            let changed = if on {
                entry.watching.insert(table.to_string())
            } else {
                entry.watching.remove(table)
            };
            changed.then_some(entry.user)
        };
        if let Some(user) = user {
            self.changed(user);
        }
    }

    /// Which of `users` have a socket open here, each with the tables their
    /// sockets watch (in order, without repeats).
    pub fn online_among(&self, users: &HashSet<i64>) -> HashMap<i64, Vec<String>> {
        let mut online: HashMap<i64, Vec<String>> = HashMap::new();
        for entry in self.lock().values().filter(|e| users.contains(&e.user)) {
            let tables = online.entry(entry.user).or_default();
            tables.extend(entry.watching.iter().cloned());
        }
        for tables in online.values_mut() {
            tables.sort();
            tables.dedup();
        }
        online
    }

    /// Whether `user` has a socket open here.
    pub fn is_online(&self, user: i64) -> bool {
        self.lock().values().any(|e| e.user == user)
    }

    /// Sockets open with a session.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
