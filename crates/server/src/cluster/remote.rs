//! Sockets across nodes: this node's own sockets that tables elsewhere send
//! to, and the stand-ins of other nodes' sockets at the tables here (each a
//! local connection whose messages go back over the bus), named by node,
//! incarnation and connection id.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::bus::BusMsg;
use super::{Cluster, lock};
use crate::live::{Conn, ConnId};

/// One of another node's sockets as a table here knows it: a stand-in
/// connection, and the tables it went to (told when its node dies).
pub(super) struct Remote {
    pub(super) conn: Conn,
    pub(super) tables: HashSet<String>,
}

/// A socket of another node, as the bus names it: the node, its incarnation
/// and the socket's connection id there.
pub(crate) type RemoteKey = (String, u64, ConnId);

/// Connection ids for other nodes' sockets: from [`crate::live::REMOTE_CONNS`] up,
/// far above this node's own.
static NEXT_REMOTE: AtomicU64 = AtomicU64::new(crate::live::REMOTE_CONNS);

impl Cluster {
    /// Remembers one of this node's sockets, so that other nodes' tables can
    /// send to it.
    pub(crate) fn register_local(&self, conn: &Conn) {
        lock(&self.local_conns)
            .entry(conn.id)
            .or_insert_with(|| conn.clone());
    }

    /// Forgets one of this node's sockets (it closed), so that nothing here
    /// keeps its queue open.
    pub(crate) fn forget_local(&self, conn: ConnId) {
        lock(&self.local_conns).remove(&conn);
    }

    /// The local connection standing for socket `conn` of incarnation `inc`
    /// of node `node`, at `table` if any: what a table here sends it goes to
    /// that node over the bus, in order. `None` if the stand-in serves
    /// another user than `user` (a socket is one user's for its whole life: a
    /// command naming another is refused, never run as the stand-in's user).
    pub(crate) fn remote_conn(
        self: &Arc<Self>,
        node: &str,
        inc: u64,
        conn: ConnId,
        user: Option<crate::live::UserInfo>,
        table: Option<&str>,
    ) -> Option<Conn> {
        let mut conns = lock(&self.remote_conns);
        let key = (node.to_string(), inc, conn);
        if let Some(r) = conns.get_mut(&key)
            && !r.conn.tx.is_closed()
        {
            let same = r.conn.user.as_ref().map(|u| u.id) == user.as_ref().map(|u| u.id);
            if !same {
                tracing::warn!(
                    node,
                    inc,
                    conn,
                    "a command names another user than its socket's; refused"
                );
                return None;
            }
            if let Some(t) = table {
                r.tables.insert(t.to_string());
            }
            return Some(r.conn.clone());
        }
        let (tx, mut rx) = tokio::sync::mpsc::channel::<axum::extract::ws::Utf8Bytes>(1024);
        let local = Conn {
            id: NEXT_REMOTE.fetch_add(1, Ordering::Relaxed),
            user,
            tx,
            lag: Arc::new(crate::live::LagMeter::default()),
        };
        let tables = table
            .map(|t| HashSet::from([t.to_string()]))
            .unwrap_or_default();
        conns.insert(
            key,
            Remote {
                conn: local.clone(),
                tables,
            },
        );
        let me = self.clone();
        let to = node.to_string();
        tokio::spawn(async move {
            while let Some(text) = rx.recv().await {
                let msg = BusMsg::Deliver {
                    conn,
                    inc,
                    text: text.as_str().to_string(),
                };
                me.send_to(&to, &msg).await;
            }
        });
        Some(local)
    }

    /// Another node's socket was seated at `table` here (quick pairing).
    pub(crate) fn note_table(&self, socket: &RemoteKey, table: &str) {
        if let Some(r) = lock(&self.remote_conns).get_mut(socket) {
            r.tables.insert(table.to_string());
        }
    }

    /// The stand-in of another node's socket, if there is one.
    pub(crate) fn stand_in(&self, node: &str, inc: u64, conn: ConnId) -> Option<Conn> {
        lock(&self.remote_conns)
            .get(&(node.to_string(), inc, conn))
            .map(|r| r.conn.clone())
    }

    /// Forgets another node's socket (it closed): its stand-in and the tables
    /// it went to.
    pub(crate) fn drop_remote(
        &self,
        node: &str,
        inc: u64,
        conn: ConnId,
    ) -> Option<(Conn, HashSet<String>)> {
        lock(&self.remote_conns)
            .remove(&(node.to_string(), inc, conn))
            .map(|r| (r.conn, r.tables))
    }
}
