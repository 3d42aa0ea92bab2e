//! Applying a command and committing it: the table applies it, its log entries
//! go to the store, game rows are written, and only then is the batch broadcast
//! and kept in the history. If the store fails, the table is rebuilt from the
//! store (the one replay), so that memory never runs ahead of the disk.

use std::sync::atomic::Ordering;

use qiyuan_store::LogMark;
use qiyuan_table::{Command, Event, Status};

use super::actor::Live;
use super::events::TableEvent;
use super::fanout::Batch;
use super::{acting, now, replay};
use crate::error::ApiError;

impl Live {
    /// Applies a command, commits its log entries, writes game starts and ends, and
    /// broadcasts. Returns the new version, or the typed refusal.
    pub(super) async fn apply_and_commit(&mut self, cmd: Command) -> Result<u64, ApiError> {
        let (taken, is_move) = (
            std::time::Instant::now(),
            matches!(cmd, Command::Act { .. }),
        );
        let from = self.persisted;
        let result = self.table.apply(cmd, now());
        self.played.store(
            self.table.state().status != Status::Waiting,
            Ordering::Relaxed,
        );
        let (events, refusal) = match result {
            Ok(events) => (events, None),
            Err(mut refusal) => (std::mem::take(&mut refusal.fired), Some(refusal)),
        };
        if self.table.version() > self.persisted {
            let committing = std::time::Instant::now();
            // A game's start or end (one entry, one node): its row goes to
            // the group writer right behind the entry's append, written only
            // if the entry is stored, so that both commit in one round of the
            // writer instead of the row waiting for the next.
            let row = match (self.lease, self.table.log().last()) {
                (None, Some(last))
                    if self.table.version() == self.persisted + 1
                        && self.env.store.game_rows_follow_entries() =>
                {
                    self.prepare_row(&events)
                        .await
                        .map(|row| (row, last.at as i64))
                }
                _ => None,
            };
            let ratings = match row {
                None => {
                    self.persist().await?;
                    self.env.metrics.store_commit.observe(committing.elapsed());
                    self.game_rows(&events).await
                }
                Some((row, at)) => {
                    let after = LogMark {
                        table: self.id.to_string(),
                        version: self.table.version() as i64,
                        at,
                    };
                    let store = self.env.store.clone();
                    let (persisted, written) =
                        tokio::join!(self.persist(), row.write(&*store, &after));
                    persisted?;
                    self.env.metrics.store_commit.observe(committing.elapsed());
                    match written {
                        Ok(Some(first_time)) => self.row_stored(row, first_time),
                        // Not written with its entry: written after it, as
                        // any other (and its failure said there).
                        Ok(None) | Err(_) => self.game_rows(&events).await,
                    }
                }
            };
            // The features that listen hear of a move once it is stored (a
            // game's start and end are told by `game_rows`).
            if let Some(game) = &self.game_id
                && events
                    .iter()
                    .any(|e| matches!(e, Event::Acted { .. } | Event::TookBack { .. }))
            {
                self.env.events.publish(TableEvent::Moved {
                    table: self.id.clone(),
                    game: game.clone(),
                });
            }
            let batch = Batch {
                from,
                v: self.table.version(),
                events: Batch::events_text(&events),
                ratings,
            };
            self.fanout
                .broadcast(&self.id, self.kind, &*self.table, &batch);
            let followers = &mut self.fanout.followers;
            followers.tell(&self.id, &*self.table, &events);
            if is_move && refusal.is_none() {
                self.env
                    .metrics
                    .move_accepted(self.table.game_name(), taken);
            }
            self.fanout.remember(batch);
            self.list();
        }
        match refusal {
            Some(refusal) => Err(acting::refusal_error(&refusal)),
            None => Ok(self.table.version()),
        }
    }

    /// Writes the log entries the store does not have yet. On failure the table is
    /// rebuilt from the store, so that memory never runs ahead of the disk.
    async fn persist(&mut self) -> Result<(), ApiError> {
        // Serialised straight from the table's log (no copy of the entries); the
        // store's group writer commits them with the other tables' waiting ones.
        let entries = self.table.log()[self.persisted as usize..]
            .iter()
            .map(|e| Ok((e.at as i64, serde_json::to_string(e)?)))
            .collect::<Result<Vec<_>, serde_json::Error>>()
            .map_err(ApiError::internal)?;
        for (at, text) in entries {
            let version = self.persisted + 1;
            let stored = match self.lease {
                // Several nodes: refused if another node owns the table now.
                Some(token) => {
                    self.env
                        .store
                        .append_fenced(&self.id, version as i64, at, &text, token)
                        .await
                }
                None => {
                    self.env
                        .store
                        .append(&self.id, version as i64, at, &text)
                        .await
                }
            };
            if let Err(qiyuan_store::StoreError::Fenced(why)) = &stored {
                tracing::error!(table = %self.id, version, "fenced out: {why}");
                self.fenced = true;
                return Err(ApiError::internal(
                    "this node does not own the table any more",
                ));
            }
            if let Err(err) = stored {
                tracing::error!(table = %self.id, version, "cannot store log entry: {err}");
                self.rebuild().await;
                return Err(ApiError::internal(err));
            }
            self.persisted = version;
        }
        Ok(())
    }

    /// The table as the store has it. The history kept is the live one (its
    /// batches carry the rating changes a replay cannot rebuild).
    async fn rebuild(&mut self) {
        let game = self.table.game_name();
        let config = self.table.config().clone();
        match replay::replay(&self.env, &self.id, game, config).await {
            Ok(replayed) => {
                self.table = replayed.table;
                self.persisted = replayed.persisted;
            }
            Err(err) => {
                tracing::error!(table = %self.id, "cannot rebuild after a store failure: {err:#}")
            }
        }
    }
}
