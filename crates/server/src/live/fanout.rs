//! Fan-out: a table's subscribers, the history of the batches it broadcast, and
//! resuming from a version. Each subscriber gets every batch with what changed
//! in the table as its own seat sees it: a patch from the view it last received
//! to its view now (`protocol::patch`), computed and serialised once per pair of
//! (last view, viewer), not per socket; the whole view goes out only in `sync`
//! (and as the first patch of a socket subscribed without one). A socket too
//! slow to take a message is unsubscribed.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::ws::Utf8Bytes;
use qiyuan_game::Viewer;
use qiyuan_table::Millis;
use serde_json::Value;

use super::{Conn, ConnId, now};
use crate::protocol::ServerMsg;
pub(super) use crate::protocol::out::Batch;
use crate::protocol::out::{EventMsg, SyncMsg};
use crate::protocol::patch;
use crate::registry::AnyTable;

/// How many event batches a table keeps for clients that resume.
pub(super) const MAX_HISTORY: usize = 4096;

/// A table's subscribers and history.
#[derive(Default)]
pub(super) struct Fanout {
    subs: HashMap<ConnId, Sub>,
    /// Every batch since the task started (or, after a restart, since the table
    /// was created: the replay rebuilds them), for clients that resume.
    history: Vec<Batch>,
}

/// A subscribed socket and the view it last received (none before its first
/// `sync` or event). Sockets that received the same view share it.
struct Sub {
    conn: Conn,
    view: Option<Arc<Value>>,
}

impl Fanout {
    pub(super) fn is_empty(&self) -> bool {
        self.subs.is_empty()
    }

    /// Subscribes `conn` unless it is already.
    pub(super) fn subscribe(&mut self, conn: &Conn) {
        self.subs.entry(conn.id).or_insert_with(|| Sub {
            conn: conn.clone(),
            view: None,
        });
    }

    /// Unsubscribes a socket; returns it if it was subscribed.
    pub(super) fn unsubscribe(&mut self, conn: ConnId) -> Option<Conn> {
        self.subs.remove(&conn).map(|s| s.conn)
    }

    /// Unsubscribes every socket, returning them (the table moved to another node).
    pub(super) fn drain(&mut self) -> Vec<Conn> {
        self.subs.drain().map(|(_, s)| s.conn).collect()
    }

    /// Whether another socket of `user` is still subscribed.
    pub(super) fn has_user(&self, user: i64) -> bool {
        self.subs
            .values()
            .any(|s| s.conn.user.as_ref().is_some_and(|u| u.id == user))
    }

    /// The history a replay rebuilt, bounded.
    pub(super) fn restore_history(&mut self, mut history: Vec<Batch>) {
        if history.len() > MAX_HISTORY {
            history.drain(..history.len() - MAX_HISTORY);
        }
        self.history = history;
    }

    /// Keeps a committed batch for clients that resume. Bounded: a client
    /// further behind than this gets the state alone.
    pub(super) fn remember(&mut self, batch: Batch) {
        if self.history.len() >= MAX_HISTORY {
            self.history.drain(..MAX_HISTORY / 4);
        }
        self.history.push(batch);
    }

    /// Sends `batch` to every subscriber with what changed in the table as it
    /// sees it since the view it last received.
    pub(super) fn broadcast(&mut self, id: &str, table: &dyn AnyTable, batch: &Batch) {
        let now = now();
        let lags = self.seat_lags(table);
        let mut views: HashMap<Viewer, Arc<Value>> = HashMap::new();
        // Keyed by the view the socket had (its address: sockets that got the
        // same view share one) and the viewer it is now.
        let mut texts: HashMap<(usize, Viewer), Utf8Bytes> = HashMap::new();
        let mut slow = Vec::new();
        // The views replaced stay alive until the end, so that no address in
        // `texts` is reused within the loop.
        let mut replaced = Vec::new();
        for (conn_id, sub) in &mut self.subs {
            let viewer = viewer_of(table, id, &sub.conn);
            let view = views
                .entry(viewer)
                .or_insert_with(|| Arc::new(with_lags(table.view(viewer, now), &lags)))
                .clone();
            let had = sub.view.as_ref().map_or(0, |v| Arc::as_ptr(v) as usize);
            let text = texts
                .entry((had, viewer))
                .or_insert_with(|| {
                    let patch = match &sub.view {
                        Some(old) => patch::diff(old, &view),
                        None => patch::whole((*view).clone()),
                    };
                    let msg = ServerMsg::Event(EventMsg {
                        table: id.to_string(),
                        batch: batch.clone(),
                        patch,
                    });
                    msg.encode(None).into()
                })
                .clone();
            if sub.conn.send(text) {
                replaced.extend(sub.view.replace(view));
            } else {
                slow.push(*conn_id);
            }
        }
        for conn_id in slow {
            tracing::warn!(table = %id, conn = conn_id, "socket too slow; unsubscribed");
            self.subs.remove(&conn_id);
        }
        drop(replaced);
    }

    /// Subscribes `conn` after sending it a `sync`: the batches it missed since
    /// version `since` (whether they are all there), and the table as it sees it.
    pub(super) fn sync(
        &mut self,
        id: &str,
        table: &dyn AnyTable,
        conn: Conn,
        since: Option<u64>,
        req: Option<&Value>,
    ) {
        let v = table.version();
        let viewer = viewer_of(table, id, &conn);
        let (batches, complete) = match since {
            Some(since) if since <= v => {
                let missed: Vec<Batch> = self
                    .history
                    .iter()
                    .filter(|b| b.v > since)
                    .cloned()
                    .collect();
                let complete = missed.first().is_none_or(|b| b.from <= since);
                (missed, complete)
            }
            _ => (Vec::new(), since.is_none()),
        };
        let view = Arc::new(with_lags(table.view(viewer, now()), &self.seat_lags(table)));
        let sync = ServerMsg::Sync(SyncMsg {
            table: id.to_string(),
            v,
            since,
            complete,
            batches,
            state: (*view).clone(),
        });
        let view = conn.reply(&sync, req).then_some(view);
        self.subs.insert(conn.id, Sub { conn, view });
    }
}

impl Fanout {
    /// Each seat's lag for the connection indicator: the round trip of its
    /// player's best socket subscribed here (`None`: empty, a computer, no
    /// socket, or none measured yet).
    pub(super) fn seat_lags(&self, table: &dyn AnyTable) -> Vec<Option<Millis>> {
        table
            .state()
            .seats
            .iter()
            .map(|seat| {
                let user = seat.user.as_ref()?;
                self.subs
                    .values()
                    .filter(|s| s.conn.user.as_ref().is_some_and(|u| &u.username == user))
                    .filter_map(|s| s.conn.lag.rtt())
                    .min()
            })
            .collect()
    }

    /// Sends a message to every subscriber (live only: no version, no history).
    pub(super) fn send_all(&mut self, msg: &ServerMsg) {
        let text: Utf8Bytes = msg.encode(None).into();
        for sub in self.subs.values() {
            sub.conn.send(text.clone());
        }
    }
}

/// A table view with each seat's `lag_ms` (see [`Fanout::seat_lags`]).
pub(super) fn with_lags(mut state: Value, lags: &[Option<Millis>]) -> Value {
    if let Some(seats) = state.get_mut("seats").and_then(Value::as_array_mut) {
        for (seat, lag) in seats.iter_mut().zip(lags) {
            if let Some(seat) = seat.as_object_mut() {
                seat.insert("lag_ms".into(), serde_json::json!(lag));
            }
        }
    }
    state
}

/// Who a socket is at a table: its user's seat, or a spectator.
pub(super) fn viewer_of(table: &dyn AnyTable, id: &str, conn: &Conn) -> Viewer {
    // Hot-seat (单机): the user sees the table as the seat to act.
    if let Some(seat) = conn
        .user
        .as_ref()
        .and_then(|u| crate::solo::acting_seat(table, id, &u.username))
    {
        return Viewer::Seat(seat);
    }
    match conn.user.as_ref().and_then(|u| table.seat_of(&u.username)) {
        Some(seat) => Viewer::Seat(seat),
        None => Viewer::Spectator,
    }
}
