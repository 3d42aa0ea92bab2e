//! The places to chat beyond the tables: each game's room (大厅, on its lobby
//! page), each event's room (on its page, with the announcements of its
//! arbiters and organiser marked), and the conversation between two people
//! (private messages).
//!
//! A socket joins a game's or an event's room (`chat.join`), is shown its
//! latest lines, and is sent each new one while it stays; anyone may read
//! them, and a person who is logged in writes there (`chat.post`) through the
//! same moderation as at a table. A private message goes between two
//! accounts that do not block each other (a block refuses them both ways) and
//! reaches every page either of them has open, on every node, through the page
//! channel; joining a conversation only reads its latest lines.
//!
//! In the store a place's lines are kept under its key — `lobby:{game}`,
//! `event:{id}`, `pm:{lower id}:{higher id}` — with the room `lobby`, `event`,
//! `announce` or `private`; table ids never hold a colon. The key is made and
//! read here alone.

use std::collections::HashMap;
use std::sync::Mutex;

use axum::extract::ws::Utf8Bytes;
use qiyuan_store::{ChatLineRow, NewChatLine, User, UserId};

use super::{Chat, ChatAt, HISTORY, lock, mentions};
use crate::error::ApiError;
use crate::live::{Conn, ConnId, UserInfo};
use crate::protocol::ServerMsg;
use crate::protocol::chat::{ChatPlace, ChatPost, MentionAt, PlaceLine};
use crate::protocol::out::Notification;

/// The sockets in each game's and event's room on this node.
pub struct Places {
    games: Vec<&'static str>,
    joined: Mutex<HashMap<String, HashMap<ConnId, Conn>>>,
}

/// A line's room in the store.
const LOBBY: &str = "lobby";
const EVENT: &str = "event";
const ANNOUNCE: &str = "announce";
const PRIVATE: &str = "private";

/// The store's key of a conversation between two people.
fn private_key(a: UserId, b: UserId) -> String {
    format!("pm:{}:{}", a.min(b), b.max(a))
}

/// Whether `user` is one of the two people of the conversation `key`.
pub(super) fn in_conversation(key: &str, user: UserId) -> bool {
    key.strip_prefix("pm:").is_some_and(|ids| {
        ids.split(':')
            .any(|id| id.parse::<UserId>().is_ok_and(|id| id == user))
    })
}

impl Places {
    pub fn new(games: Vec<&'static str>) -> Places {
        Places {
            games,
            joined: Mutex::default(),
        }
    }

    /// Sends `frame` to this node's sockets in the room `key`.
    pub(super) fn deliver(&self, key: &str, frame: &Utf8Bytes) {
        if let Some(conns) = lock(&self.joined).get(key) {
            for conn in conns.values() {
                conn.send(frame.clone());
            }
        }
    }

    fn has(&self, key: &str, conn: ConnId) -> bool {
        lock(&self.joined)
            .get(key)
            .is_some_and(|c| c.contains_key(&conn))
    }
}

/// The refusal of a line to a room the socket has not joined.
fn not_in_room() -> ApiError {
    ApiError::bad_request("not_in_room", "join the room (chat.join) to write there")
}

impl Chat {
    /// The key of a game's or event's room, checked to exist.
    async fn room_key(&self, place: &ChatPlace) -> Result<String, ApiError> {
        match place {
            ChatPlace::Lobby { game } => {
                if !self.places.games.iter().any(|g| g == game) {
                    return Err(ApiError::bad_request(
                        "unknown_game",
                        format!("no game {game:?} here"),
                    ));
                }
                Ok(format!("lobby:{game}"))
            }
            ChatPlace::Event { event } => {
                if self.store.event(event).await?.is_none() {
                    return Err(ApiError::not_found(format!("no event {event}")));
                }
                Ok(format!("event:{event}"))
            }
            ChatPlace::Private { .. } => Err(ApiError::bad_request(
                "bad_message",
                "a conversation is not a room",
            )),
        }
    }

    /// The other person of a conversation `user` opens with `with`: an account,
    /// not `user`.
    async fn partner(&self, user: &UserInfo, with: &str) -> Result<User, ApiError> {
        if user.guest {
            return Err(ApiError::forbidden(
                "guest_private",
                "guests send no private messages: register to write to people",
            ));
        }
        let other = self
            .store
            .user_by_name(&crate::auth::normalize_username(with))
            .await?
            .filter(|u| !u.guest)
            .ok_or_else(|| ApiError::not_found(format!("no account {with}")))?;
        if other.id == user.id {
            return Err(ApiError::bad_request(
                "self_message",
                "you cannot write to yourself",
            ));
        }
        Ok(other)
    }

    /// `chat.join`: `conn` enters a game's or an event's room (its latest
    /// lines first, then each new one), or reads its latest private messages
    /// with a person.
    pub async fn join_place(&self, conn: &Conn, place: &ChatPlace) -> Result<(), ApiError> {
        if let ChatPlace::Private { with } = place {
            let user = conn.user.as_ref().ok_or_else(ApiError::unauthorized)?;
            let other = self.partner(user, with).await?;
            let key = private_key(user.id, other.id);
            let place = ChatPlace::Private {
                with: other.username,
            };
            for line in self.store.recent_chat_lines(&key, HISTORY).await? {
                conn.reply(&ServerMsg::ChatLine(seen(&line, place.clone())), None);
            }
            return Ok(());
        }
        let key = self.room_key(place).await?;
        if self.places.has(&key, conn.id) {
            return Ok(());
        }
        let history = self.store.recent_chat_lines(&key, HISTORY).await?;
        for line in &history {
            conn.reply(&ServerMsg::ChatLine(seen(line, place.clone())), None);
        }
        lock(&self.places.joined)
            .entry(key)
            .or_default()
            .insert(conn.id, conn.clone());
        Ok(())
    }

    /// `chat.leave`: `conn` leaves a game's or an event's room.
    pub fn leave_place(&self, conn: ConnId, place: &ChatPlace) {
        let key = match place {
            ChatPlace::Lobby { game } => format!("lobby:{game}"),
            ChatPlace::Event { event } => format!("event:{event}"),
            ChatPlace::Private { .. } => return,
        };
        let mut joined = lock(&self.places.joined);
        if let Some(conns) = joined.get_mut(&key) {
            conns.remove(&conn);
            if conns.is_empty() {
                joined.remove(&key);
            }
        }
    }

    /// The socket closed: it leaves every room it joined.
    pub fn leave_places(&self, conn: ConnId) {
        lock(&self.places.joined).retain(|_, conns| {
            conns.remove(&conn);
            !conns.is_empty()
        });
    }

    /// `chat.post`: a line for a game's room, an event's room or a person:
    /// checked, kept, then delivered. The line's id.
    pub async fn post(&self, conn: &Conn, post: &ChatPost) -> Result<i64, ApiError> {
        let user = conn.user.as_ref().ok_or_else(ApiError::unauthorized)?;
        match &post.place {
            ChatPlace::Private { with } => self.private(user, with, &post.text).await,
            place => {
                let key = self.room_key(place).await?;
                if !self.places.has(&key, conn.id) {
                    return Err(not_in_room());
                }
                let mut room = LOBBY;
                let mut event = None;
                if let ChatPlace::Event { event: id } = place {
                    let ev = crate::events::load(&*self.store, id)
                        .await?
                        .ok_or_else(|| ApiError::not_found(format!("no event {id}")))?;
                    let roles = self.store.roles(user.id).await?;
                    let has = |role: &str| roles.iter().any(|r| r == role);
                    let staff = (ev.arbiters.contains(&user.id) && has("arbiter"))
                        || (ev.row.organiser == user.id && has("organiser"));
                    if post.announce && !staff {
                        return Err(ApiError::forbidden(
                            "not_arbiter",
                            "only the event's arbiters and organiser make announcements",
                        ));
                    }
                    if !staff {
                        self.event_policy(id, user).await?;
                    }
                    room = if post.announce { ANNOUNCE } else { EVENT };
                    event = Some(ev);
                } else if post.announce {
                    return Err(ApiError::bad_request(
                        "bad_message",
                        "announcements are made in an event's room",
                    ));
                }
                let text = self.check(user, &post.text).await?;
                let line = NewChatLine {
                    table: key.clone(),
                    room: room.into(),
                    user: user.id,
                    username: user.username.clone(),
                    text,
                    at: crate::now_ms(),
                };
                let id = self.keep(&line).await?;
                let msg = PlaceLine {
                    place: place.clone(),
                    id,
                    user: line.username.clone(),
                    text: line.text.clone(),
                    at: line.at,
                    announcement: room == ANNOUNCE,
                };
                let frame: Utf8Bytes = ServerMsg::ChatLine(msg).encode(None).into();
                self.places.deliver(&key, &frame);
                self.publish(ChatAt::Place { key: key.clone() }, &frame);
                if let Some(ev) = event.filter(|_| room == ANNOUNCE) {
                    for player in ev.players.iter().filter(|p| !p.withdrawn) {
                        self.notifier.notify(
                            player.user_id,
                            Notification::Announcement {
                                event: ev.row.id.clone(),
                                name: ev.config.name.clone(),
                                by: user.username.clone(),
                                text: line.text.clone(),
                                line: id,
                            },
                        );
                    }
                }
                let at = match place {
                    ChatPlace::Event { event } => MentionAt::Event {
                        event: event.clone(),
                    },
                    _ => MentionAt::Lobby {
                        game: key.trim_start_matches("lobby:").to_string(),
                    },
                };
                let mention = mentions::Mention {
                    by: user,
                    text: &line.text,
                    line: id,
                    at,
                };
                mentions::tell(&*self.store, &self.notifier, mention, |_| true).await;
                Ok(id)
            }
        }
    }

    /// A private message from `user` to the person named `with`: refused when
    /// either blocks the other; kept, then sent to every page of both.
    async fn private(&self, user: &UserInfo, with: &str, text: &str) -> Result<i64, ApiError> {
        let other = self.partner(user, with).await?;
        if self.store.is_blocked(other.id, user.id).await?
            || self.store.is_blocked(user.id, other.id).await?
        {
            return Err(crate::relations::blocked(&other.username));
        }
        let text = self.check(user, text).await?;
        let line = NewChatLine {
            table: private_key(user.id, other.id),
            room: PRIVATE.into(),
            user: user.id,
            username: user.username.clone(),
            text,
            at: crate::now_ms(),
        };
        let id = self.keep(&line).await?;
        let to = |with: &str| {
            ServerMsg::ChatLine(PlaceLine {
                place: ChatPlace::Private {
                    with: with.to_string(),
                },
                id,
                user: line.username.clone(),
                text: line.text.clone(),
                at: line.at,
                announcement: false,
            })
        };
        self.notifier.tell(other.id, &to(&user.username));
        self.notifier.tell(user.id, &to(&other.username));
        Ok(id)
    }
}

/// A kept line of a place as a socket in `place` is shown it.
fn seen(line: &ChatLineRow, place: ChatPlace) -> PlaceLine {
    PlaceLine {
        place,
        id: line.id,
        user: line.username.clone(),
        text: line.text.clone(),
        at: line.at,
        announcement: line.room == ANNOUNCE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_conversation_has_one_key_for_its_two_people() {
        assert_eq!(private_key(7, 3), private_key(3, 7));
        assert_eq!(private_key(7, 3), "pm:3:7");
        assert!(in_conversation("pm:3:7", 3) && in_conversation("pm:3:7", 7));
        assert!(!in_conversation("pm:3:7", 37) && !in_conversation("lobby:chess", 3));
    }
}
