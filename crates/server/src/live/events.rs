//! What the live tables tell the features that listen (the Swiss director, the
//! Lichess streams, ratings and points): a game started, a move was made, a
//! game ended with its result. This is the one subscriber interface: a feature
//! subscribes to [`TableEvents`] and never asks a table, nor polls the store,
//! for what a table already knows.
//!
//! A table's task publishes each event once the store has what it says (the
//! game's row, the batch's log entries, the game's end), so a subscriber that
//! reads the store on an event finds it there. Publishing never waits: a
//! subscriber that falls more than the channel's capacity behind is told it
//! lagged (`RecvError::Lagged`) and has missed events, so a feature that must
//! see every end keeps a slow sweep of the store as its safety net.

use std::sync::Arc;

use qiyuan_game::Outcome;
use tokio::sync::broadcast;

/// Something that happened at a live table, after the store recorded it. Ids
/// are shared (`Arc<str>`), so an event costs no allocation but its own.
#[derive(Debug, Clone, PartialEq)]
pub enum TableEvent {
    /// A game began at `table`; `game` is its stored id.
    Started { table: Arc<str>, game: Arc<str> },
    /// The game `game` at `table` moved on (an action, or a takeback).
    Moved { table: Arc<str>, game: Arc<str> },
    /// The game `game` at `table` ended with `result`.
    Ended {
        table: Arc<str>,
        game: Arc<str>,
        result: Outcome,
    },
}

impl TableEvent {
    /// The table the event happened at.
    pub fn table(&self) -> &Arc<str> {
        match self {
            TableEvent::Started { table, .. }
            | TableEvent::Moved { table, .. }
            | TableEvent::Ended { table, .. } => table,
        }
    }

    /// The stored id of the game the event is about.
    pub fn game(&self) -> &Arc<str> {
        match self {
            TableEvent::Started { game, .. }
            | TableEvent::Moved { game, .. }
            | TableEvent::Ended { game, .. } => game,
        }
    }
}

/// How many events a subscriber may fall behind before it misses some.
const CAPACITY: usize = 4096;

/// The hub every table of the node publishes to and every listening feature
/// subscribes to. Cloning it gives another handle to the same hub.
#[derive(Clone)]
pub struct TableEvents {
    tx: broadcast::Sender<TableEvent>,
}

impl Default for TableEvents {
    fn default() -> Self {
        TableEvents {
            tx: broadcast::channel(CAPACITY).0,
        }
    }
}

impl TableEvents {
    /// Every event published from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<TableEvent> {
        self.tx.subscribe()
    }

    /// Tells every subscriber; nobody listening is no error.
    pub fn publish(&self, event: TableEvent) {
        let _ = self.tx.send(event);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn subscribers_hear_what_is_published_after_they_subscribed() {
        let hub = TableEvents::default();
        let table: Arc<str> = Arc::from("t1");
        let game: Arc<str> = Arc::from("t1-2");
        hub.publish(TableEvent::Started {
            table: table.clone(),
            game: game.clone(),
        });
        let mut rx = hub.subscribe();
        hub.publish(TableEvent::Moved {
            table: table.clone(),
            game: game.clone(),
        });
        let heard = rx.recv().await.unwrap();
        assert_eq!(heard.table().as_ref(), "t1");
        assert_eq!(heard.game().as_ref(), "t1-2");
        assert!(matches!(heard, TableEvent::Moved { .. }));
    }
}
