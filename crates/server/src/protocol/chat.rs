//! Chat's wire types beyond a table's rooms: a game's room (大厅), an event's
//! room with its arbiters' announcements, and private messages — each a
//! [`ChatPlace`] —, their lines ([`PlaceLine`]), and where a mention was
//! written ([`MentionAt`]). A table's rooms keep their own messages (`chat`,
//! `chat.spectators`, in [`super::client`] and [`super::out`]); `chat.report`
//! reports a line of any place. They are the core's, so that the wire types
//! name no feature; the chat feature speaks them.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::out::ChatRoom;

/// Where a line is written beyond the tables.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ChatPlace {
    /// A game's room (大厅), on its lobby page.
    Lobby { game: String },
    /// An event's room, on its page.
    Event { event: String },
    /// The conversation with one person (by name): private messages.
    Private { with: String },
}

/// `chat.join` / `chat.leave`: enter a place (its latest lines come first,
/// then each new one) or leave it. Joining a conversation only reads its
/// latest lines: private messages reach every page of their two people
/// whether or not it joined.
#[derive(Debug, Clone, PartialEq, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct ChatJoin {
    pub place: ChatPlace,
}

/// `chat.post`: a line for a place (never read as markup). `announce`: an
/// event's arbiter or organiser posts an announcement, marked and pushed to
/// every player of the event.
#[derive(Debug, Clone, PartialEq, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct ChatPost {
    pub place: ChatPlace,
    pub text: String,
    #[serde(default)]
    #[ts(optional = nullable)]
    pub announce: bool,
}

/// `chat.line`: one line of a place, as the word filter left it. Plain text:
/// a client shows it as text, never as markup. A private message's `place`
/// names the other person of the conversation, as the receiving page sees it.
#[derive(Debug, Clone, Serialize, TS)]
pub struct PlaceLine {
    pub place: ChatPlace,
    /// The line's id, which `chat.report` names.
    pub id: i64,
    pub user: String,
    pub text: String,
    pub at: i64,
    /// An announcement of the event's arbiters or organiser.
    pub announcement: bool,
}

/// Where a line that mentions someone (`@name`) was written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MentionAt {
    /// A table's room.
    Table {
        table: String,
        room: ChatRoom,
    },
    Lobby {
        game: String,
    },
    Event {
        event: String,
    },
}
