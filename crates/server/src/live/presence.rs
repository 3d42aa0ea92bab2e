//! Sockets and spectators coming and going: a socket that watches gets its
//! `sync` and is subscribed; a seated player's socket coming back or the last
//! one closing is the game's business (reconnect, disconnect); a spectator's is
//! live only — nothing logged, no new version. And the seats' connection
//! indicator: a live `lag` message when a seat's measured lag moves.

use qiyuan_table::{Command, Event};
use serde_json::Value;

use super::actor::Live;
use super::fanout::Batch;
use super::{Conn, ConnId, hotseat, now};
use crate::error::ApiError;
use crate::protocol::ServerMsg;
use crate::protocol::out::LagMsg;
use qiyuan_table::Millis;

impl Live {
    pub(super) async fn watch(&mut self, conn: Conn, since: Option<u64>, req: Option<Value>) {
        if let Err(e) = self.admit(&conn) {
            conn.reply(&ServerMsg::error(&e, Some(&self.id)), req.as_ref());
            return;
        }
        self.arrive(&conn).await;
        self.fanout
            .sync(&self.id, self.kind, &*self.table, conn, since, req.as_ref());
    }

    /// Whether the table admits a socket's or a follower's user: a private
    /// table (单机) is its owner's alone; one for the invited, its owner's and
    /// its seated people's.
    pub(super) fn admit(&self, conn: &Conn) -> Result<(), ApiError> {
        hotseat::admits(
            &*self.table,
            self.kind,
            self.owner.as_deref(),
            conn.user.as_ref(),
        )?;
        self.admit_invited(conn.user.as_ref())
    }

    /// At a table for the invited alone: its owner, or someone seated there
    /// (an invitation or a link seats them).
    pub(super) fn admit_invited(&self, user: Option<&super::UserInfo>) -> Result<(), ApiError> {
        if !self.invite_only {
            return Ok(());
        }
        let admitted = user.is_some_and(|u| {
            self.owner.as_ref().is_some_and(|o| o.id == u.id)
                || self.table.seat_of(&u.username).is_some()
        });
        if admitted {
            Ok(())
        } else {
            Err(super::TableKind::invited_only())
        }
    }

    /// A socket or a follower comes: a seated player back from away
    /// reconnects, a spectator is counted (live only).
    pub(super) async fn arrive(&mut self, conn: &Conn) {
        if let Some(user) = &conn.user {
            let name = user.username.clone();
            let state = self.table.state();
            match self.table.seat_of(&name) {
                // A seated player who was away is back: that is the game's business.
                Some(seat) if state.seats[seat.index()].absent_since.is_some() => {
                    let cmd = Command::Reconnect { user: name };
                    let _ = self.apply_and_commit(cmd).await;
                }
                Some(_) => {}
                // A spectator writes nothing: watching is live only.
                None => {
                    if let Ok(events) = self.table.watch(&name) {
                        self.broadcast_live(&events);
                    }
                }
            }
        }
    }

    pub(super) async fn leave_socket(&mut self, conn_id: ConnId) {
        let Some(conn) = self.fanout.unsubscribe(conn_id) else {
            return;
        };
        let Some(user) = conn.user else { return };
        if self.fanout.has_user(user.id) {
            return;
        }
        let name = user.username;
        let state = self.table.state();
        let seated_present = self
            .table
            .seat_of(&name)
            .is_some_and(|s| state.seats[s.index()].absent_since.is_none());
        if seated_present {
            let _ = self
                .apply_and_commit(Command::Disconnect { user: name })
                .await;
        } else if self.table.is_watching(&name) {
            self.unwatch_live(&name);
        }
    }

    /// A spectator stops watching: live only.
    pub(super) fn unwatch_live(&mut self, name: &str) {
        if let Ok(events) = self.table.unwatch(name) {
            self.broadcast_live(&events);
        }
    }

    /// Sends live-only events (spectators coming and going) to every subscriber:
    /// a batch that moves no version (`from` = `v`), kept out of the history
    /// (a client that resumes gets the spectators in its state).
    fn broadcast_live(&mut self, events: &[Event]) {
        let v = self.table.version();
        let batch = Batch {
            from: v,
            v,
            events: Batch::events_text(&events),
            ratings: None,
        };
        self.fanout
            .broadcast(&self.id, self.kind, &*self.table, &batch);
        self.list();
    }
}

/// How often a table looks whether its seats' lag changed.
pub(super) const LAG_EVERY: std::time::Duration = std::time::Duration::from_secs(2);

/// Whether a seat's lag moved enough to tell everyone: appearing or going, or
/// by 20 ms and a fifth.
fn lag_moved(old: Option<Millis>, new: Option<Millis>) -> bool {
    match (old, new) {
        (Some(a), Some(b)) => a.abs_diff(b) >= 20.max(a / 5),
        (a, b) => a.is_some() != b.is_some(),
    }
}

impl Live {
    /// Sends a `lag` message when a seat's lag moved (see [`lag_moved`]).
    pub(super) fn publish_lags(&mut self) {
        let lags = self.fanout.seat_lags(&*self.table);
        // (Nothing sent yet counts as nothing measured.)
        let moved = lags
            .iter()
            .enumerate()
            .any(|(i, new)| lag_moved(self.lags_sent.get(i).copied().flatten(), *new));
        if !moved {
            return;
        }
        let msg = ServerMsg::Lag(LagMsg {
            table: self.id.to_string(),
            at: now(),
            seats: lags.clone(),
        });
        self.fanout.send_all(&msg);
        self.lags_sent = lags;
    }
}
