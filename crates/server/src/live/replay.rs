//! The one replay of a table's stored log, shared by a restart and by a rebuild
//! after a store failure: the log read from the store, replayed through the
//! game's registry entry ([`crate::registry::Descriptor::replay`], which is
//! `Table::replay_with`), and the broadcast history rebuilt from its events.

use qiyuan_table::{LogEntry, Millis, TableConfig};

use super::Env;
use super::fanout::Batch;
use crate::registry::AnyTable;

/// A table rebuilt from the store.
pub(super) struct Replayed {
    pub(super) table: Box<dyn AnyTable>,
    /// How many log entries the store holds (the table's version).
    pub(super) persisted: u64,
    /// A batch per log entry.
    pub(super) history: Vec<Batch>,
    /// When the last entry was written.
    pub(super) last_at: Option<Millis>,
}

/// Replays table `id`'s stored log on a new table of `game` with `config`.
pub(super) async fn replay(
    env: &Env,
    id: &str,
    game: &str,
    config: TableConfig,
) -> anyhow::Result<Replayed> {
    let log = env.store.log(id, 0).await?;
    let entries = log
        .iter()
        .map(|e| serde_json::from_str::<LogEntry>(&e.entry))
        .collect::<Result<Vec<_>, _>>()?;
    let mut history = Vec::with_capacity(entries.len());
    let table = env
        .games
        .find(game)
        .map_err(anyhow::Error::msg)?
        .replay(config, &entries, &mut |index, events| {
            history.push(Batch {
                from: index as u64,
                v: index as u64 + 1,
                events: Batch::events_text(&events),
                ratings: None,
            });
        })
        .map_err(|e| anyhow::anyhow!("on replay: {e}"))?;
    if table.version() != log.len() as u64 {
        anyhow::bail!(
            "replaying {} entries gave version {}",
            log.len(),
            table.version()
        );
    }
    Ok(Replayed {
        table,
        persisted: log.len() as u64,
        history,
        last_at: log.last().map(|e| e.at.max(0) as Millis),
    })
}
