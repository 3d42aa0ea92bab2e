//! Authority everywhere: what a ban, a mute, a logout and a revoked role reach,
//! on every route and every node.
//!
//! - Tokens are checked on every request, and the store refuses a banned
//!   user's sessions and API tokens (`Store::session_user`, `Store::api_token`),
//!   so a ban refuses them at once on every route (the web's HTTP API, a new
//!   WebSocket, the Lichess-compatible API), whoever wrote it.
//! - Connections authenticated once — WebSockets and the API's streams — are
//!   ended: [`Authority::end`] on this node and, over the bus, on the others. A ban that
//!   this node did not see being given (`qiyuan admin ban` writes the
//!   database; another node's admin API) is found by [`watch`], which reads
//!   the banned accounts every [`POLL`] on every node.
//! - Roles (organiser, arbiter, admin) are read from the store at each act,
//!   never kept from a login or a socket's opening (`events::api`).
//! - A muted account's chat lines are refused ([`is_muted`]).

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use qiyuan_store::{Store, StoreError, User, UserId};
use serde::{Deserialize, Serialize};

use crate::cluster::{BusMsg, Cluster};
use crate::error::ApiError;
use crate::lichess::Hub;
use crate::ws::Sockets;

/// How often each node reads the banned accounts from the store.
pub const POLL: Duration = Duration::from_secs(1);

/// What ends: the connections opened with one token, or a user's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Ended {
    /// One token (its SHA-256): a session logged out, an API token revoked.
    Token { hash: String },
    /// Every session of a user (logged out everywhere); the user's personal
    /// API tokens live on.
    Sessions { user: UserId },
    /// Everything of a user: banned.
    Banned { user: UserId },
}

/// Ends, on this node, the WebSockets and API streams `ended` covers; the
/// number of WebSockets closed.
pub fn end_here(sockets: &Sockets, streams: &Hub, ended: &Ended) -> usize {
    let closed = match ended {
        Ended::Token { hash } => sockets.close_session(hash),
        Ended::Sessions { user } => sockets.close_user(*user),
        Ended::Banned { user } => sockets.close_banned(*user),
    };
    streams.end(ended);
    closed
}

/// What an end of authority reaches: this node's WebSockets and API streams,
/// and, with several nodes, the others over the bus.
#[derive(Clone)]
pub struct Authority {
    pub sockets: Arc<Sockets>,
    pub streams: Arc<Hub>,
    /// Several nodes; `None`: this is the only node.
    pub cluster: Option<Arc<Cluster>>,
}

impl Authority {
    /// Ends what `ended` covers on every node; the number of WebSockets
    /// closed on this one.
    pub async fn end(&self, ended: Ended) -> usize {
        let sockets = end_here(&self.sockets, &self.streams, &ended);
        if let Some(cluster) = &self.cluster {
            cluster.send_all(&BusMsg::Ended { ended }).await;
        }
        sockets
    }
}

/// The banned accounts now, to start [`watch`] from (read before the server
/// serves, so that no connection opens between this look and the next).
pub async fn banned_now(store: &dyn Store) -> HashSet<UserId> {
    match store.users_with_role("banned").await {
        Ok(users) => users.into_iter().collect(),
        Err(e) => {
            tracing::warn!("cannot read the banned accounts: {e}");
            HashSet::new()
        }
    }
}

/// Reads the banned accounts every [`POLL`] and ends, on this node, the
/// connections of each account banned since the last look: a ban given
/// anywhere (the command line on the database, another node) reaches this
/// node's sockets and streams within a second or so. Stops when `shutdown`
/// flips.
pub async fn watch(
    authority: Authority,
    store: Arc<dyn Store>,
    shutdown: tokio::sync::watch::Receiver<bool>,
    mut banned: HashSet<UserId>,
) {
    let mut tick = tokio::time::interval(POLL);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut failing = false;
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = crate::stopped(shutdown.clone()) => break,
        }
        let now: HashSet<UserId> = match store.users_with_role("banned").await {
            Ok(users) => {
                failing = false;
                users.into_iter().collect()
            }
            Err(e) => {
                if !failing {
                    tracing::warn!("cannot read the banned accounts: {e}");
                }
                failing = true;
                continue;
            }
        };
        for user in now.difference(&banned) {
            let ended = Ended::Banned { user: *user };
            let sockets = end_here(&authority.sockets, &authority.streams, &ended);
            tracing::info!(user, sockets, "banned: connections closed");
        }
        banned = now;
    }
}

/// Whether `user` is muted (the role `muted`, or a timed mute running): a
/// chat line of theirs is delivered to nobody. Read from the store each time,
/// so a mute, its end or its lift holds at once.
pub async fn is_muted(store: &dyn Store, user: UserId) -> Result<bool, StoreError> {
    Ok(muted_until(store, user).await?.is_some())
}

/// Until when `user` is muted: `Some(i64::MAX)` under the `muted` role (until
/// it is taken away), else the end of their latest timed mute still running
/// (an admin's or an event arbiter's, `crate::chat::mutes`); `None`: not muted.
pub async fn muted_until(store: &dyn Store, user: UserId) -> Result<Option<i64>, StoreError> {
    store.muted_until(user, crate::now_ms()).await
}

/// Whether `user` holds `role` (`admin`, `organiser`, `arbiter`, `banned`, …),
/// read from the store at each act.
pub async fn has_role(store: &dyn Store, user: &User, role: &str) -> Result<bool, ApiError> {
    Ok(store.roles(user.id).await?.iter().any(|r| r == role))
}

/// Refuses `user` (`403 not_admin`) unless they hold the admin role.
pub async fn admin_only(store: &dyn Store, user: &User) -> Result<(), ApiError> {
    if !has_role(store, user, "admin").await? {
        return Err(ApiError::forbidden(
            "not_admin",
            "only an admin may do that",
        ));
    }
    Ok(())
}
