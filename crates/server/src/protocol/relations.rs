//! Relations' wire types: the people one follows with their presence
//! (`GET /api/rel/following`), where one stands with another (the profile's
//! follow and block buttons) and a followed person's presence pushed as it
//! changes (`rel.presence`). They are the core's, so that the wire types name
//! no feature; the relations feature speaks them.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Where a person is: not connected, on some page, seated at a table where a
/// game is played, or watching a table they do not sit at. Read from this
/// node's sockets and live tables.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "state", rename_all = "lowercase")]
pub enum Presence {
    Offline,
    Online,
    Playing { table: String },
    Watching { table: String },
}

impl Presence {
    /// How much it says: playing over watching over online over offline,
    /// so that what several nodes each see of a person is one presence
    /// (the most any of them sees).
    pub fn rank(&self) -> u8 {
        match self {
            Presence::Offline => 0,
            Presence::Online => 1,
            Presence::Watching { .. } => 2,
            Presence::Playing { .. } => 3,
        }
    }

    /// The one presence of what several nodes see.
    pub fn merge(self, other: Presence) -> Presence {
        if other.rank() > self.rank() {
            other
        } else {
            self
        }
    }
}

/// One person someone follows, with their presence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct FollowedPerson {
    pub username: String,
    /// They follow back: the two are friends (好友).
    pub friend: bool,
    /// When the follow began (ms since the epoch).
    pub since: i64,
    pub presence: Presence,
}

/// `GET /api/rel/following`: the people the caller follows, by name, and the
/// names of those they block.
#[derive(Debug, Clone, Serialize, TS)]
pub struct Following {
    pub following: Vec<FollowedPerson>,
    pub blocked: Vec<String>,
}

/// Where the caller stands with a person (`GET /api/rel/with/{name}`, and
/// the answer to each follow, unfollow, block and unblock).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct RelationView {
    pub following: bool,
    pub followed_by: bool,
    /// Both follow: friends (好友).
    pub friend: bool,
    pub blocking: bool,
    pub blocked_by: bool,
}

impl From<qiyuan_store::Relation> for RelationView {
    fn from(r: qiyuan_store::Relation) -> Self {
        RelationView {
            following: r.following,
            followed_by: r.followed_by,
            friend: r.friends(),
            blocking: r.blocking,
            blocked_by: r.blocked_by,
        }
    }
}

/// `rel.presence`: a person the socket's user follows changed presence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct PresenceMsg {
    pub username: String,
    pub presence: Presence,
}
