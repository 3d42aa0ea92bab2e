//! Every live table on this node, by id, and the tasks that run them; it also
//! holds the cap on open tables nobody plays at, per owner (tables being created
//! count, so that a burst of creations cannot pass it).

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::Ordering;

use tokio::task::JoinHandle;

use super::TableHandle;
use crate::error::ApiError;

/// Every live table on this node.
#[derive(Default)]
pub struct Registry {
    tables: Mutex<HashMap<String, TableHandle>>,
    tasks: Mutex<Vec<JoinHandle<()>>>,
    /// Tables being created, per owner, not yet in `tables`.
    creating: Mutex<HashMap<i64, usize>>,
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
        self.lock().get(id).cloned()
    }

    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, TableHandle>> {
        self.tables.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(super) fn insert(&self, handle: TableHandle, task: JoinHandle<()>) {
        self.lock().insert(handle.id.clone(), handle);
        let mut tasks = self.tasks.lock().unwrap_or_else(|e| e.into_inner());
        tasks.retain(|t| !t.is_finished());
        tasks.push(task);
    }

    pub(super) fn remove(&self, id: &str) {
        self.lock().remove(id);
    }

    /// How many open tables `owner` created at which no game has started yet.
    pub fn idle_tables_of(&self, owner: i64) -> usize {
        self.lock()
            .values()
            .filter(|h| h.owner == Some(owner) && !h.played.load(Ordering::Relaxed))
            .count()
    }

    /// Holds a place for one more table of `owner`, unless they already have
    /// `cap` open tables nobody plays at — where no game has started yet (tables
    /// being created count too, so that a burst of creations cannot pass the
    /// cap). `cap` 0: no cap.
    pub(super) fn reserve(&self, owner: i64, cap: usize) -> Result<Reservation<'_>, ApiError> {
        let tables = self.lock();
        let mut creating = self.creating.lock().unwrap_or_else(|e| e.into_inner());
        let idle = tables
            .values()
            .filter(|h| h.owner == Some(owner) && !h.played.load(Ordering::Relaxed))
            .count();
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
        let tasks: Vec<_> =
            std::mem::take(&mut *self.tasks.lock().unwrap_or_else(|e| e.into_inner()));
        for task in tasks {
            let _ = task.await;
        }
    }
}
