//! A live table's environment: everything a table's task needs from the
//! server, and nothing more. The composition root ([`crate::start_with`])
//! builds one for the node and every table holds it; features reach the
//! tables only through what is here, and the tables reach features only
//! through the ports defined here, which the features implement:
//! - [`LobbySink`]: where a table's summary goes when it changes (the lobby);
//! - [`Ownership`]: with several nodes, the lease under which a table is
//!   written, and where its watchers go when another node takes it (the
//!   cluster).
//!
//! What a table tells the features that listen goes out on
//! [`TableEvents`](super::TableEvents).

use std::sync::Arc;
use std::time::Duration;

use futures_util::future::BoxFuture;
use qiyuan_store::Store;
use qiyuan_table::Millis;
use tokio::sync::watch;

use super::{Conn, Pauses, Registry, TableEvents, TableSummary};
use crate::compute::Compute;
use crate::config::Config;
use crate::engines::Engines;
use crate::metrics::Metrics;
use crate::registry::Games;

/// What every live table of the node shares.
pub struct Env {
    pub store: Arc<dyn Store>,
    /// The games hosted here.
    pub games: Games,
    /// Every live table on this node, and each person's caps.
    pub tables: Arc<Registry>,
    pub metrics: Arc<Metrics>,
    /// Time nobody could act, credited to the clocks.
    pub pauses: Arc<Pauses>,
    /// Where the tables tell the features that listen what happened.
    pub events: TableEvents,
    /// The operator's rules for tables.
    pub rules: Rules,
    /// Where the tables' summaries go.
    pub lobby: Arc<dyn LobbySink>,
    /// Several nodes: the tables' leases; `None`: this is the only node.
    pub ownership: Option<Arc<dyn Ownership>>,
    /// The compute budget the computer players think under.
    pub compute: Arc<Compute>,
    /// The operator's external engines, for computer players of their levels.
    pub engines: Arc<Engines>,
    /// Flips to true when the server is shutting down.
    pub shutdown: watch::Receiver<bool>,
}

/// The operator's rules for live tables, from the configuration.
#[derive(Debug, Clone)]
pub struct Rules {
    /// The site's name in records.
    pub site: String,
    /// The first-move timer of a new table's games.
    pub first_move: Option<Millis>,
    /// How long a player who left may come back before it is an escape.
    pub grace: Option<Millis>,
    /// How many tables one person may hold at once.
    pub max_tables_per_user: usize,
    /// How many open tables nobody plays at one person may have opened.
    pub max_idle_tables_per_user: usize,
    /// An idle table (nobody watching, no game on) closes after this long.
    pub idle_close: Duration,
    /// An idle table nobody sits at closes after this long.
    pub empty_close: Duration,
    /// How long a computer player seems to think before it acts.
    pub bot_think: Duration,
    /// The longest any computer player thinks about one move.
    pub bot_move_max: Duration,
    /// Whether bot accounts may play rated games against people.
    pub bots_rated_with_humans: bool,
}

impl Rules {
    pub fn of(config: &Config) -> Self {
        let millis = |secs: f64| (secs * 1000.0) as Millis;
        Rules {
            site: config.site.clone(),
            first_move: config.first_move_secs.map(millis),
            grace: config.escape_grace_secs.map(millis),
            max_tables_per_user: config.max_tables_per_user,
            max_idle_tables_per_user: config.max_idle_tables_per_user,
            idle_close: Duration::from_secs_f64(config.idle_table_secs.max(1.0)),
            empty_close: Duration::from_secs_f64(config.empty_table_secs.max(0.0)),
            bot_think: Duration::from_millis(config.bot_think_ms),
            bot_move_max: Duration::from_millis(config.bot_move_max_ms.max(10)),
            bots_rated_with_humans: config.api.bots_rated_with_humans,
        }
    }
}

/// Where a table's summary goes (the lobby): a new or changed one, and the
/// table's closing. Called from the tables' tasks, so it must not wait.
pub trait LobbySink: Send + Sync {
    fn publish(&self, summary: TableSummary);
    fn remove(&self, game: &str, id: &str);
}

/// Several nodes: which node owns a table. A table takes its lease before it
/// is stored and writes under it; a table fenced out (another node owns it
/// now) stops, and its watchers on this node follow it to the new owner.
pub trait Ownership: Send + Sync {
    /// Takes the lease of a new table; its fencing token.
    fn lease_new<'a>(&'a self, table: &'a str) -> BoxFuture<'a, anyhow::Result<i64>>;
    /// A table here closed (or was never made): its lease is given up.
    fn release<'a>(&'a self, table: &'a str) -> BoxFuture<'a, ()>;
    /// Table `table` was fenced out: its lease is forgotten, and `watchers`
    /// (this node's sockets) watch on at its new owner, as do `followers`
    /// (this node's typed followers, [`super::watch`]), present there.
    fn lost(&self, table: &str, watchers: Vec<Conn>, followers: Vec<Conn>);
}
