//! Fan-out: a table's subscribers, the history of the batches it broadcast, and
//! resuming from a version. Each subscriber gets every batch with what changed
//! in the table as its own seat sees it: a patch from the view it last received
//! to its view now (`protocol::patch` says what a patch is), computed and
//! serialised once per pair of (last view, viewer), not per socket; the whole
//! view goes out only in `sync` (and as the first patch of a socket subscribed
//! without one). Views are kept as indexed JSON text (`protocol::flat`): each
//! viewer's view is serialised once per batch and the patch written straight
//! from the two texts, and the event's text before its patch once per batch,
//! so a move builds no `serde_json::Value` tree. The views diffed leave the
//! move list out: each socket's patch ends with the list's own operations from
//! where its copy is (`AnyTable::moves_patch`). A socket too slow to take a
//! message is unsubscribed.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::Arc;

use axum::extract::ws::Utf8Bytes;
use qiyuan_game::Viewer;
use qiyuan_table::Millis;
use serde_json::Value;

use super::{Conn, ConnId, Delivery, TableKind, now};
use crate::protocol::ServerMsg;
use crate::protocol::flat::{self, Flat};
pub(super) use crate::protocol::out::Batch;
use crate::protocol::out::SyncMsg;
use crate::registry::{AnyTable, MovesAt};

/// How many event batches a table keeps for clients that resume: a reconnection
/// of a few seconds misses a few, and a client further behind gets the state
/// (`complete: false`), which is all the web client reads anyway. Each batch
/// keeps its events' text (about 370 bytes a chess move): 4,096 let an 80-ply
/// game keep every move's, about a fifth of its table's memory
/// (docs/benchmarks.md, "Memory a game and a socket hold").
pub(super) const MAX_HISTORY: usize = 32;

/// A table's subscribers and history.
#[derive(Default)]
pub(super) struct Fanout {
    subs: HashMap<ConnId, Sub>,
    /// Every batch since the task started (or, after a restart, since the table
    /// was created: the replay rebuilds them), for clients that resume.
    history: Vec<Batch>,
    /// Followers of the table's typed feed (see [`super::watch`]).
    pub(super) followers: super::watch::Followers,
}

/// A subscribed socket and the view it last received (none before its first
/// `sync` or event). Sockets that received the same view share it.
struct Sub {
    conn: Conn,
    view: Option<Arc<Flat>>,
    /// Where its move list is, which the views leave out: `None` if the view
    /// it last received has no game (or it has none).
    moves: Option<MovesAt>,
}

impl Fanout {
    pub(super) fn is_empty(&self) -> bool {
        self.subs.is_empty() && self.followers.is_empty()
    }

    /// Subscribes `conn` unless it is already.
    pub(super) fn subscribe(&mut self, conn: &Conn) {
        self.subs.entry(conn.id).or_insert_with(|| Sub {
            conn: conn.clone(),
            view: None,
            moves: None,
        });
    }

    /// Unsubscribes a socket or a follower; returns it if it was subscribed.
    pub(super) fn unsubscribe(&mut self, conn: ConnId) -> Option<Conn> {
        let socket = self.subs.remove(&conn).map(|s| s.conn);
        socket.or_else(|| self.followers.remove(conn))
    }

    /// Unsubscribes every socket, returning them (the table moved to another node).
    pub(super) fn drain(&mut self) -> Vec<Conn> {
        self.subs.drain().map(|(_, s)| s.conn).collect()
    }

    /// Whether another socket of `user` is still subscribed.
    /// Whether a socket of another node is subscribed.
    pub(super) fn has_remote(&self) -> bool {
        self.subs.keys().any(|id| super::is_remote(*id)) || self.followers.has_remote()
    }

    pub(super) fn has_user(&self, user: i64) -> bool {
        self.subs
            .values()
            .any(|s| s.conn.user.as_ref().is_some_and(|u| u.id == user))
            || self.followers.has_user(user)
    }

    /// The history a replay rebuilt, bounded.
    pub(super) fn restore_history(&mut self, mut history: Vec<Batch>) {
        if history.len() > MAX_HISTORY {
            history.drain(..history.len() - MAX_HISTORY);
        }
        // The replay made room for every entry of the log.
        history.shrink_to_fit();
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
    pub(super) fn broadcast(
        &mut self,
        id: &str,
        kind: TableKind,
        table: &dyn AnyTable,
        batch: &Batch,
    ) {
        let now = now();
        let lags = self.seat_lags(table);
        // Who each socket is, in the map's order (the loop below walks it in
        // the same order), and one view per viewer (two seats and the
        // spectators: a short list), taken together.
        let viewers: Vec<Viewer> = self
            .subs
            .values()
            .map(|sub| viewer_of(table, kind, &sub.conn))
            .collect();
        let mut distinct: Vec<Viewer> = Vec::with_capacity(4);
        for viewer in &viewers {
            if !distinct.contains(viewer) {
                distinct.push(*viewer);
            }
        }
        let flats = table.flat_views(&distinct, now, &lags);
        let moves_now = table.moves_at();
        let views: Vec<(Viewer, Arc<Flat>, bool)> = distinct
            .into_iter()
            .zip(flats)
            .map(|(viewer, flat)| {
                let game = flat.is_object_at(&["game"]);
                (viewer, Arc::new(flat), game)
            })
            .collect();
        // Keyed by the view the socket had (its address: sockets that got the
        // same view share one), where its move list was, and the viewer it is
        // now.
        type Key = (usize, Option<MovesAt>, Viewer);
        let mut texts: Vec<(Key, Utf8Bytes)> = Vec::new();
        let head = event_head(id, batch);
        let mut slow = Vec::new();
        // The views replaced stay alive until the end, so that no address in
        // `texts` is reused within the loop.
        let mut replaced = Vec::new();
        for ((conn_id, sub), viewer) in self.subs.iter_mut().zip(viewers) {
            let Some((view, game)) = views
                .iter()
                .find(|(v, _, _)| *v == viewer)
                .map(|(_, view, game)| (view.clone(), *game))
            else {
                continue;
            };
            let had = sub.view.as_ref().map_or(0, |v| Arc::as_ptr(v) as usize);
            let key = (had, sub.moves, viewer);
            let text = match texts.iter().find(|(k, _)| *k == key) {
                Some((_, text)) => text.clone(),
                None => {
                    // (Room for a patch of a third of the view: no growing.)
                    let mut text = String::with_capacity(head.len() + 64 + view.text().len() / 3);
                    text.push_str(&head);
                    match &sub.view {
                        Some(old) => {
                            flat::diff_into(old, &view, &mut text);
                            if game {
                                // A view that had no game got this one's
                                // set whole, with an empty list.
                                let from = sub.moves.unwrap_or(moves_now.emptied());
                                let comma = text.len() > head.len();
                                table.moves_patch(from, comma, &mut text);
                            }
                        }
                        None => flat::whole_into(&table.view_text(viewer, now, &lags), &mut text),
                    }
                    text.push_str("]}}");
                    let text = Utf8Bytes::from(text);
                    texts.push((key, text.clone()));
                    text
                }
            };
            match sub.conn.offer(text) {
                Delivery::Queued => {
                    replaced.extend(sub.view.replace(view));
                    sub.moves = game.then_some(moves_now);
                }
                failed => slow.push((*conn_id, failed)),
            }
        }
        for (conn_id, failed) in slow {
            // A connection whose reader has gone (an API request or stream that
            // ended without unsubscribing) is not slow: it is forgotten quietly.
            if failed == Delivery::Full {
                tracing::warn!(table = %id, conn = conn_id, "socket too slow; unsubscribed");
            } else {
                tracing::debug!(table = %id, conn = conn_id, "connection gone; unsubscribed");
            }
            self.subs.remove(&conn_id);
        }
        drop(replaced);
    }

    /// Subscribes `conn` after sending it a `sync`: the batches it missed since
    /// version `since` (whether they are all there), and the table as it sees it.
    pub(super) fn sync(
        &mut self,
        id: &str,
        kind: TableKind,
        table: &dyn AnyTable,
        conn: Conn,
        since: Option<u64>,
        req: Option<&Value>,
    ) {
        let v = table.version();
        let viewer = viewer_of(table, kind, &conn);
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
        let lags = self.seat_lags(table);
        let now = now();
        // What the socket's next patch is taken from: the view without its
        // move list, and where the list is.
        let flat = table.flat_views(&[viewer], now, &lags).pop();
        let game = flat.as_ref().is_some_and(|f| f.is_object_at(&["game"]));
        let sync = ServerMsg::Sync(SyncMsg {
            table: id.to_string(),
            v,
            since,
            complete,
            batches,
            state: serde_json::from_str(&table.view_text(viewer, now, &lags))
                .unwrap_or(Value::Null),
        });
        let sent = conn.reply(&sync, req);
        let view = flat.filter(|_| sent).map(Arc::new);
        let moves = (sent && game).then(|| table.moves_at());
        self.subs.insert(conn.id, Sub { conn, view, moves });
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

/// The text of an `event` for `batch` up to its patch's operations (the
/// caller appends them and `]}}`): as [`ServerMsg::encode`] writes an
/// [`crate::protocol::out::EventMsg`], written once per batch for every
/// subscriber's patch.
pub(super) fn event_head(id: &str, batch: &Batch) -> String {
    let mut head = String::with_capacity(256);
    head.push_str(r#"{"t":"event","d":{"table":"#);
    fn json(v: &impl serde::Serialize) -> String {
        serde_json::to_string(v).unwrap_or_else(|_| "null".into())
    }
    head.push_str(&json(&id));
    let _ = write!(head, r#","from":{},"v":{},"events":"#, batch.from, batch.v);
    head.push_str(batch.events.get());
    if let Some(ratings) = &batch.ratings {
        head.push_str(r#","ratings":"#);
        head.push_str(&json(ratings));
    }
    head.push_str(r#","patch":["#);
    head
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
pub(super) fn viewer_of(table: &dyn AnyTable, kind: TableKind, conn: &Conn) -> Viewer {
    // Hot-seat (单机): the user sees the table as the seat to act.
    if let Some(seat) = conn
        .user
        .as_ref()
        .and_then(|u| super::hotseat::acting_seat(table, kind, &u.username))
    {
        return Viewer::Seat(seat);
    }
    match conn.user.as_ref().and_then(|u| table.seat_of(&u.username)) {
        Some(seat) => Viewer::Seat(seat),
        None => Viewer::Spectator,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::out::{EventMsg, RatingChange};
    use crate::protocol::patch;
    use serde_json::json;

    #[test]
    fn an_event_written_in_parts_is_the_encoded_event() {
        let old = json!({"version": 5, "game": {"moves": [{"seat": 0, "action": "e2e4"}]}});
        let new = json!({"version": 6, "game": {"moves": [{"seat": 0, "action": "e2e4"},
            {"seat": 1, "action": "e7e5"}]}});
        for ratings in [
            None,
            Some(vec![RatingChange {
                seat: 0,
                user: "ann".into(),
                pool: "chess.blitz".into(),
                before: 1500,
                after: 1510,
                diff: 10,
                provisional: true,
            }]),
        ] {
            let batch = Batch {
                from: 5,
                v: 6,
                events: Batch::events_text(&json!([{"type": "acted", "ply": 2, "at": 17}])),
                ratings,
            };
            let mut text = event_head("Tab\"1", &batch);
            let (a, b) = (Flat::new(old.to_string()), Flat::new(new.to_string()));
            flat::diff_into(&a, &b, &mut text);
            text.push_str("]}}");
            let msg = ServerMsg::Event(EventMsg {
                table: "Tab\"1".into(),
                batch,
                patch: patch::diff(&old, &new),
            });
            assert_eq!(text, msg.encode(None));
        }
    }
}
