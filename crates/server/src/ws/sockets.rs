//! The open WebSockets of each session, so that ending a session (logout, a
//! ban, expiry) closes them at once, and a user's sockets can be told things.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::ws::Utf8Bytes;
use tokio::sync::{Notify, mpsc};

use crate::live;

/// The open WebSockets that belong to a session, so that ending the session
/// closes them at once.
#[derive(Debug, Default)]
pub struct Sockets {
    open: Mutex<HashMap<live::ConnId, SocketEntry>>,
}

#[derive(Debug)]
struct SocketEntry {
    user: i64,
    /// Where the socket's messages go (events tell players of their rounds).
    tx: mpsc::Sender<Utf8Bytes>,
    /// The SHA-256 of the session token the socket was opened with.
    session: String,
    kick: Arc<Kick>,
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
            },
        );
        kick
    }

    pub(super) fn remove(&self, conn: live::ConnId) {
        self.lock().remove(&conn);
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

    /// Sockets open with a session.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
