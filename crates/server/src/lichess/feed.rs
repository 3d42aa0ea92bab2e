//! The API as a follower of live tables ([`crate::live::watch`]): a game stream
//! or the watch of a game's end follows its table's typed feed, and a request
//! that needs the table now takes one update of it. Also the API's own
//! connections, which subscribe it and carry its commands.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use serde::Deserialize;
use tokio::sync::mpsc;

use super::stream::{Error, Result};
use super::tokens::Caller;
use crate::live::watch::{Feed, Update};
use crate::live::{Conn, ConnId, TableHandle, TableMsg, UserInfo};
use crate::protocol::TableAct;

/// The API's connection ids: above sockets' and below those a node gives other
/// nodes' sockets ([`crate::live::is_remote`]), so that neither ever meets
/// one of the others at a table.
static NEXT_CONN: AtomicU64 = AtomicU64::new(1 << 47);

/// A connection of the API's own: an id of its range and a queue the API reads.
pub(super) fn api_conn(user: Option<UserInfo>) -> (Conn, mpsc::Receiver<Utf8Bytes>) {
    let (tx, rx) = mpsc::channel(256);
    (
        Conn {
            id: NEXT_CONN.fetch_add(1, Ordering::Relaxed),
            user,
            tx,
            // An HTTP client's round trip is not measured, so its moves are
            // charged without lag compensation.
            lag: Default::default(),
        },
        rx,
    )
}

/// A subscription to a table's typed feed.
pub(super) struct Following {
    handle: TableHandle,
    conn: ConnId,
    rx: mpsc::Receiver<Utf8Bytes>,
}

impl Following {
    /// Follows `handle`'s table as `user`, admitted as them; a `present`
    /// follower counts as their connection (a seated player following is
    /// present there, as with a socket).
    pub(super) async fn start(
        handle: &TableHandle,
        user: Option<UserInfo>,
        present: bool,
    ) -> Result<Following> {
        let (conn, rx) = api_conn(user);
        let id = conn.id;
        handle
            .tx
            .send(TableMsg::Follow { conn, present })
            .await
            .map_err(|_| Error::not_found("No such game"))?;
        Ok(Following {
            handle: handle.clone(),
            conn: id,
            rx,
        })
    }

    /// The table's id.
    pub(super) fn table(&self) -> &str {
        &self.handle.id
    }

    /// The next update; `None` once the table is gone or refused the follower.
    pub(super) async fn next(&mut self) -> Option<Update> {
        while let Some(text) = self.rx.recv().await {
            match Feed::read(text.as_str()) {
                Some(Feed::Update(update)) => return Some(*update),
                Some(Feed::Refused(_)) => return None,
                None => continue,
            }
        }
        None
    }

    /// Unsubscribes (with several nodes, both nodes forget the connection).
    pub(super) async fn stop(self) {
        let _ = self
            .handle
            .tx
            .send(TableMsg::Closed { conn: self.conn })
            .await;
    }
}

/// The table now, as a follower sees it, taken as `user` (a private table,
/// 单机, shows itself to its owner alone) without counting as their connection.
pub(super) async fn snapshot(handle: &TableHandle, user: Option<UserInfo>) -> Result<Update> {
    let mut following = Following::start(handle, user, false).await?;
    let update = following.next().await;
    following.stop().await;
    update.ok_or_else(|| Error::not_found("No such game"))
}

/// The request id the API's commands carry, to find the table's answer.
const REQUEST: &str = "api";

/// The table's answer to a command, among what its connection gets.
#[derive(Deserialize)]
struct Answer {
    t: AnswerKind,
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    d: Option<Refusal>,
}

#[derive(Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
enum AnswerKind {
    Ack,
    Error,
    #[serde(other)]
    Other,
}

/// What a refusal says.
#[derive(Deserialize)]
struct Refusal {
    #[serde(default)]
    message: Option<String>,
}

/// Sends `act` to the table for `caller` as a socket's command, waits for the
/// table's answer, and unsubscribes the one-off connection again.
pub(super) async fn act(handle: &TableHandle, caller: &Caller, act: TableAct) -> Result<()> {
    let (conn, mut rx) = api_conn(Some(caller.info()));
    let conn_id = conn.id;
    handle
        .tx
        .send(TableMsg::Act {
            conn,
            act,
            req: Some(REQUEST.into()),
            expect_seat: None,
        })
        .await
        .map_err(|_| Error::not_found("No such game"))?;
    let answer = tokio::time::timeout(Duration::from_secs(30), async {
        while let Some(text) = rx.recv().await {
            let Ok(answer) = serde_json::from_str::<Answer>(text.as_str()) else {
                continue;
            };
            if answer.id.as_deref() != Some(REQUEST) {
                continue;
            }
            return match answer.t {
                AnswerKind::Ack => Ok(()),
                _ => Err(Error::bad(
                    answer
                        .d
                        .and_then(|d| d.message)
                        .unwrap_or_else(|| "refused".into()),
                )),
            };
        }
        Err(Error::not_found("No such game"))
    })
    .await
    .unwrap_or_else(|_| Err(Error::internal("the table did not answer")));
    // The one-off connection is gone (with several nodes, both nodes forget it).
    let _ = handle.tx.send(TableMsg::Closed { conn: conn_id }).await;
    answer
}
