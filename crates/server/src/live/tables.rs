//! Every live table on this node, by id, and the tasks that run them; it also
//! holds the cap on open tables nobody plays at, per owner (tables being created
//! count, so that a burst of creations cannot pass it).

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;
use std::sync::atomic::Ordering;

use tokio::task::JoinHandle;

use super::TableHandle;
use crate::error::ApiError;

/// Every live table on this node.
#[derive(Default)]
pub struct Registry {
    tables: Mutex<Live>,
    tasks: Mutex<Tasks>,
    /// Tables being created, per owner, not yet in `tables`.
    creating: Mutex<HashMap<i64, usize>>,
}

/// The live tables by id, and the ids of each owner's: the cap counts an
/// owner's tables without a walk over every table on the node (a busy node
/// holds tens of thousands, and tables are created many times a second).
#[derive(Default)]
struct Live {
    by_id: HashMap<String, TableHandle>,
    by_owner: HashMap<i64, HashSet<String>>,
}

impl Live {
    fn idle_of(&self, owner: i64) -> usize {
        self.by_owner.get(&owner).map_or(0, |ids| {
            ids.iter()
                .filter_map(|id| self.by_id.get(id))
                .filter(|h| !h.played.load(Ordering::Relaxed))
                .count()
        })
    }
}

/// The tables' tasks; the finished ones are dropped whenever the list has
/// doubled since it was last swept, so that keeping one costs O(1) on average.
#[derive(Default)]
struct Tasks {
    running: Vec<JoinHandle<()>>,
    swept: usize,
}

/// A place for one more table of `owner`, held while it is being created.
pub(super) struct Reservation<'a> {
    registry: &'a Registry,
    owner: i64,
}

impl Drop for Reservation<'_> {
    fn drop(&mut self) {
        let mut creating = self
            .registry
            .creating
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some(n) = creating.get_mut(&self.owner) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                creating.remove(&self.owner);
            }
        }
    }
}

impl Registry {
    pub fn get(&self, id: &str) -> Option<TableHandle> {
        self.lock().by_id.get(id).cloned()
    }

    pub fn len(&self) -> usize {
        self.lock().by_id.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Live> {
        self.tables.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(super) fn insert(&self, handle: TableHandle, task: JoinHandle<()>) {
        {
            let mut live = self.lock();
            if let Some(owner) = handle.owner {
                live.by_owner
                    .entry(owner)
                    .or_default()
                    .insert(handle.id.clone());
            }
            if let Some(old) = live.by_id.insert(handle.id.clone(), handle)
                && let Some(owner) = old.owner
                && live.by_id.get(&old.id).and_then(|h| h.owner) != Some(owner)
            {
                forget_owned(&mut live.by_owner, owner, &old.id);
            }
        }
        let mut tasks = self.tasks.lock().unwrap_or_else(|e| e.into_inner());
        if tasks.running.len() >= 2 * tasks.swept.max(64) {
            tasks.running.retain(|t| !t.is_finished());
            tasks.swept = tasks.running.len();
        }
        tasks.running.push(task);
    }

    pub(super) fn remove(&self, id: &str) {
        let mut live = self.lock();
        if let Some(owner) = live.by_id.remove(id).and_then(|h| h.owner) {
            forget_owned(&mut live.by_owner, owner, id);
        }
    }

    /// How many open tables `owner` created at which no game has started yet.
    pub fn idle_tables_of(&self, owner: i64) -> usize {
        self.lock().idle_of(owner)
    }

    /// Holds a place for one more table of `owner`, unless they already have
    /// `cap` open tables nobody plays at — where no game has started yet (tables
    /// being created count too, so that a burst of creations cannot pass the
    /// cap). `cap` 0: no cap.
    pub(super) fn reserve(&self, owner: i64, cap: usize) -> Result<Reservation<'_>, ApiError> {
        let tables = self.lock();
        let mut creating = self.creating.lock().unwrap_or_else(|e| e.into_inner());
        let idle = tables.idle_of(owner);
        let pending = creating.get(&owner).copied().unwrap_or(0);
        if cap > 0 && idle + pending >= cap {
            return Err(ApiError::new(
                axum::http::StatusCode::TOO_MANY_REQUESTS,
                "too_many_tables",
                format!(
                    "you have {cap} open tables where no game has started: play at one or let one close first"
                ),
            ));
        }
        *creating.entry(owner).or_insert(0) += 1;
        Ok(Reservation {
            registry: self,
            owner,
        })
    }

    /// Waits for every table task to finish (they stop on the shutdown signal).
    pub async fn stop_all(&self) {
        let tasks =
            std::mem::take(&mut self.tasks.lock().unwrap_or_else(|e| e.into_inner()).running);
        for task in tasks {
            let _ = task.await;
        }
    }
}

/// Drops `id` from `owner`'s tables (and the owner, once it has none).
fn forget_owned(by_owner: &mut HashMap<i64, HashSet<String>>, owner: i64, id: &str) {
    if let Some(ids) = by_owner.get_mut(&owner) {
        ids.remove(id);
        if ids.is_empty() {
            by_owner.remove(&owner);
        }
    }
}
