//! A table's typed feed, for the features that follow its games without being
//! a socket (the Lichess API's game streams and its watch of a game's end):
//! after each committed batch one [`Update`], the game-agnostic facts of the
//! table taken from its typed state, the same for every follower — where a
//! socket gets a patch of its view, which a follower would have to read back.
//!
//! A follower subscribes with [`super::TableMsg::Follow`]: a present one counts
//! as its user's connection as a socket does (a seated player whose stream
//! follows is present); it gets an update at once, then one after each batch. The update goes
//! through the follower's connection queue as JSON ([`Feed`]), so that a
//! follower on another node gets it over the bus as a socket gets its messages.

use std::collections::HashMap;

use qiyuan_game::{Outcome, Seat, Turn, Viewer};
use qiyuan_table::{Event, Millis, Status, TimeControl};
use serde::{Deserialize, Serialize};

use super::actor::Live;
use super::{Conn, ConnId, now};
use crate::registry::AnyTable;

/// What a follower's queue carries.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", content = "d", rename_all = "snake_case")]
pub enum Feed {
    /// The table now.
    Update(Box<Update>),
    /// The table does not admit the follower (a private table, 单机): nothing follows.
    Refused(String),
}

impl Feed {
    /// A message of a follower's queue; `None` for anything else.
    pub fn read(text: &str) -> Option<Feed> {
        serde_json::from_str(text).ok()
    }

    fn text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// A table as its followers know it after a batch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Update {
    pub table: String,
    /// The game's registry name (`chess`, `xiangqi`, ...).
    pub game_name: String,
    pub status: Status,
    /// When the update was taken (the server's clock): the clocks are as of then.
    pub at: Millis,
    /// The current (or last) game; none before the first.
    pub game: Option<GameFacts>,
    /// Seats that went away or came back in this batch.
    pub presence: Vec<Presence>,
}

/// The current (or last) game of a table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameFacts {
    /// 1 for the table's first game.
    pub number: u32,
    /// Users by seat when the game started.
    pub players: Vec<String>,
    /// The actions played, in the game's canonical notation.
    pub moves: Vec<Played>,
    pub time: TimeControl,
    pub rated: bool,
    pub started_at: Millis,
    /// Each seat's main time left at [`Update::at`].
    pub clocks: Vec<Millis>,
    /// The seat whose clock runs.
    pub running: Option<usize>,
    /// The seat to act, if one alone is.
    pub to_act: Option<Seat>,
    pub draw_offer: Option<Seat>,
    pub takeback_request: Option<Seat>,
    pub outcome: Option<Outcome>,
    /// The position now, for games that write one (FEN).
    pub fen: Option<String>,
    /// The position the game started from, where it is not the usual one.
    pub start_fen: Option<String>,
}

/// One action of a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Played {
    pub seat: Seat,
    pub action: String,
}

/// A seat's player going away or coming back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Presence {
    /// Gone; the seat loses by escape at `deadline` unless it comes back.
    Gone {
        seat: Seat,
        deadline: Option<Millis>,
    },
    Back {
        seat: Seat,
    },
}

impl Update {
    /// The table `id` now, with the presence changes among `events`.
    fn of(id: &str, table: &dyn AnyTable, events: &[Event], now: Millis) -> Update {
        let state = table.state();
        let game = state.game.as_ref().map(|gs| {
            let clock = gs.clock.view(now);
            let position = Position::of(table, now);
            GameFacts {
                number: gs.number,
                players: gs.players.clone(),
                moves: gs
                    .actions
                    .iter()
                    .map(|a| Played {
                        seat: a.seat,
                        action: a.action.clone(),
                    })
                    .collect(),
                time: gs.settings.time,
                rated: gs.rated,
                started_at: gs.started_at,
                clocks: clock.seats.iter().map(|s| s.main).collect(),
                running: clock.running,
                to_act: position.to_act,
                draw_offer: gs.draw.as_ref().map(|d| d.by),
                takeback_request: gs.takeback.as_ref().map(|t| t.by),
                outcome: gs.outcome.clone(),
                fen: position.fen,
                start_fen: position.start_fen,
            }
        });
        let presence = events
            .iter()
            .filter_map(|e| match e {
                Event::Disconnected { seat, deadline } => Some(Presence::Gone {
                    seat: *seat,
                    deadline: *deadline,
                }),
                Event::Reconnected { seat } => Some(Presence::Back { seat: *seat }),
                _ => None,
            })
            .collect();
        Update {
            table: id.to_string(),
            game_name: table.game_name().to_string(),
            status: state.status,
            at: now,
            game,
            presence,
        }
    }
}

/// What the table's state does not hold typed: whose turn it is and the
/// position, which only the game knows. Read from the game's own part of the
/// spectators' view, by the fields of the games that write a position.
#[derive(Default)]
struct Position {
    to_act: Option<Seat>,
    fen: Option<String>,
    start_fen: Option<String>,
}

impl Position {
    fn of(table: &dyn AnyTable, now: Millis) -> Position {
        #[derive(Deserialize)]
        struct View {
            game: Option<GameView>,
        }
        #[derive(Deserialize)]
        struct GameView {
            turn: Turn,
            board: Board,
        }
        #[derive(Deserialize)]
        struct Board {
            #[serde(default)]
            fen: Option<String>,
            #[serde(default)]
            start_fen: Option<String>,
        }
        match serde_json::from_value::<View>(table.view(Viewer::Spectator, now)) {
            Ok(View {
                game: Some(GameView { turn, board }),
            }) => Position {
                to_act: match turn {
                    Turn::Seat(seat) => Some(seat),
                    _ => None,
                },
                fen: board.fen,
                start_fen: board.start_fen,
            },
            _ => Position::default(),
        }
    }
}

/// A table's followers.
#[derive(Default)]
pub(super) struct Followers {
    conns: HashMap<ConnId, Conn>,
}

impl Followers {
    pub(super) fn is_empty(&self) -> bool {
        self.conns.is_empty()
    }

    pub(super) fn remove(&mut self, conn: ConnId) -> Option<Conn> {
        self.conns.remove(&conn)
    }

    pub(super) fn has_user(&self, user: i64) -> bool {
        self.conns
            .values()
            .any(|c| c.user.as_ref().is_some_and(|u| u.id == user))
    }

    pub(super) fn has_remote(&self) -> bool {
        self.conns.keys().any(|id| super::is_remote(*id))
    }

    /// Every follower, unsubscribed (the table moved to another node).
    pub(super) fn drain(&mut self) -> Vec<Conn> {
        self.conns.drain().map(|(_, c)| c).collect()
    }

    /// Tells every follower of the table after a batch with `events`; a
    /// follower too slow to take it is unsubscribed.
    pub(super) fn tell(&mut self, id: &str, table: &dyn AnyTable, events: &[Event]) {
        if self.conns.is_empty() {
            return;
        }
        let text = Feed::Update(Box::new(Update::of(id, table, events, now()))).text();
        self.conns
            .retain(|conn_id, conn| match conn.offer(text.clone()) {
                super::Delivery::Queued => true,
                super::Delivery::Full => {
                    tracing::warn!(table = %id, conn = conn_id, "follower too slow; unsubscribed");
                    false
                }
                super::Delivery::Gone => {
                    tracing::debug!(table = %id, conn = conn_id, "follower gone; unsubscribed");
                    false
                }
            });
    }
}

impl Live {
    /// Subscribes a follower, told the table now. A `present` one counts as its
    /// user's connection, as a socket does; any other (a request that needs the
    /// table now, a watch of the game's end) is admitted as its user and then
    /// followed as nobody, so that it changes nothing at the table.
    pub(super) async fn follow(&mut self, mut conn: Conn, present: bool) {
        if let Err(e) = self.admit(&conn) {
            conn.send(Feed::Refused(e.message).text());
            return;
        }
        if present {
            self.arrive(&conn).await;
        } else {
            conn.user = None;
        }
        let update = Update::of(&self.id, &*self.table, &[], now());
        if conn.send(Feed::Update(Box::new(update)).text()) {
            self.fanout.followers.conns.insert(conn.id, conn);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_feed_reads_back_what_it_wrote_and_nothing_else() {
        let update = Update {
            table: "T1".into(),
            game_name: "chess".into(),
            status: Status::Playing,
            at: 5,
            game: None,
            presence: vec![Presence::Gone {
                seat: Seat(1),
                deadline: Some(9),
            }],
        };
        let feed = Feed::Update(Box::new(update));
        assert_eq!(Feed::read(&feed.text()), Some(feed));
        let refused = Feed::Refused("private".into());
        assert_eq!(Feed::read(&refused.text()), Some(refused));
        assert_eq!(Feed::read(r#"{"t":"lag","d":{"table":"T1"}}"#), None);
    }
}
