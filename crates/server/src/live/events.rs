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

    /// A table's game, played through a running server: its start, a move
    /// and its end are told, in order, with the stored game's id.
    #[tokio::test]
    async fn a_table_tells_a_games_start_its_moves_and_its_end() {
        use qiyuan_game::Seat;
        use qiyuan_table::{Command, TableConfig};

        let dir = std::env::temp_dir().join(format!("qiyuan-events-{}", crate::live::new_id()));
        let config = crate::Config {
            listen: "127.0.0.1:0".parse().unwrap(),
            data_dir: dir.clone(),
            ..crate::Config::default()
        };
        let running = crate::start(config).await.unwrap();
        let app = running.app.clone();
        let mut heard = app.table_events.subscribe();
        let time = app.games.find("chess").unwrap().default_time();
        let table = crate::live::create_with(&app.live, "chess", TableConfig::casual(time))
            .await
            .unwrap();
        let mut cmds = Vec::new();
        for (seat, user) in ["ann", "bob"].into_iter().enumerate() {
            let user = user.to_string();
            let seat = Seat(seat as u8);
            cmds.push(Command::Sit { user, seat });
        }
        for user in ["ann", "bob"] {
            let user = user.to_string();
            cmds.push(Command::Ready {
                user,
                proposal: None,
            });
        }
        cmds.push(Command::Act {
            user: "ann".into(),
            action: "e2e4".into(),
            lag: 0,
        });
        cmds.push(Command::Resign { user: "bob".into() });
        table.internal(cmds).await.unwrap().unwrap();
        let id: &str = &table.id;
        let next = |event: TableEvent| {
            assert_eq!(event.table().as_ref(), id);
            assert_eq!(
                event.game().as_ref(),
                id,
                "the first game's id is the table's"
            );
            event
        };
        let started = next(heard.recv().await.unwrap());
        assert!(matches!(started, TableEvent::Started { .. }), "{started:?}");
        let moved = next(heard.recv().await.unwrap());
        assert!(matches!(moved, TableEvent::Moved { .. }), "{moved:?}");
        let TableEvent::Ended { result, .. } = next(heard.recv().await.unwrap()) else {
            panic!("the game's end was not told");
        };
        // The end is told once the store has it, with the result it keeps.
        let stored = app.store.game(id).await.unwrap().unwrap();
        assert_eq!(stored.result, Some(serde_json::to_string(&result).unwrap()));
        running.shutdown().await.unwrap();
        let _ = std::fs::remove_dir_all(dir);
    }
}
