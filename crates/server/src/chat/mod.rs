//! Chat, with moderation (issue #43): at each table, in each game's room
//! (大厅), in each event's room, and between two people.
//!
//! A table has two rooms: its players' and its spectators'. Who is who is the
//! table's own knowledge, read when a line is written and when it is delivered
//! ([`live::Sitting`]; for a table another node owns, its proxy's copy, kept
//! from the lobby's summaries): a person sitting at the table is a player,
//! anyone else at it a spectator. A player writes into the players' room and a
//! spectator into the spectators'; a spectator never reads the players' room,
//! and a player reads the spectators' only after asking to
//! (`chat.spectators`). Lines do not pass through the table's log: the sockets
//! that watch or play at a table join its rooms here (the socket router tells
//! [`Chat::join`] and [`Chat::leave`]), and a line goes to those of them that
//! may read it. The rooms beyond the tables and private messages are
//! [`places`].
//!
//! Moderation, the same in every room: a muted person's line is refused
//! (the `muted` role, or a timed mute of an admin's or an event arbiter's,
//! [`mutes`], read by the line's own insert: a line is refused when its
//! insert kept nothing, [`Chat::keep`]; a mute holds from the moment it is
//! stored); each person may write `burst` lines at once and one more every
//! `every_ms`, across all rooms ([`limit`]); the configured words become `***`
//! ([`filter`]); every line is kept in the store before it is delivered, for
//! `retention_days`, and a report of a line or of a person files a row in the
//! queue that admins list and resolve ([`api`]). Lines are plain text: control
//! characters become spaces, and clients never render them as markup.
//!
//! The chat policy: the players of an event's game write in their table's
//! players' room only while the event's `players_chat` is on (its default;
//! the organiser may switch it off, as FIDE arbiters forbid talking during a
//! game), and then not in the event's room either (its arbiters' and
//! organiser's announcements are always delivered). At any table, the
//! person who opened it and the players seated there may each ask its
//! players' room closed (`chat.players`, as a FIDE arbiter forbids talking
//! during a rated game); the room is closed while anyone whose ask holds —
//! the owner, or a person seated there now — asks it, so no player can open
//! it against another's wish, and a player who leaves the seat no longer
//! keeps it closed for the next. The asks are kept in the store and copied
//! on each node that has the table's rooms (read when they open, told across
//! nodes on each change); the spectators' room is never closed this way.
//!
//! With several nodes a line is delivered here and published on the bus
//! ([`BusMsg::Chat`]); each other node delivers it to its own sockets in the
//! room ([`Chat::deliver_here`]). Private messages, mentions (`@name`,
//! [`mentions`]) and announcements reach a person's every page through the
//! page channel ([`crate::people::Notifier`]), which crosses nodes itself.

pub mod api;
mod filter;
mod limit;
mod mentions;
pub mod mutes;
pub mod places;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::ws::Utf8Bytes;
use axum::http::StatusCode;
use qiyuan_store::{ChatLineRow, NewChatLine, Store, StoreError, UserId};

use serde::{Deserialize, Serialize};

use crate::cluster::{BusMsg, Cluster};
use crate::config::ChatConfig;
use crate::error::ApiError;
use crate::live::{self, Conn, ConnId, UserInfo};
use crate::people::Notifier;
use crate::protocol::ServerMsg;
use crate::protocol::chat::MentionAt;
use crate::protocol::client::{ChatReport, ChatSay};
use crate::protocol::out::{ChatMsg, ChatPlayersMsg, ChatRoom};

pub use filter::Filter;

/// The lines a socket joining a table's rooms is shown, at most.
const HISTORY: i64 = 50;
/// The longest reason a report may give, in characters.
const MAX_REASON: usize = 500;

/// The chat on this node: the sockets in each table's rooms and in each
/// place beyond the tables, the moderation every line passes, and the ways a
/// line leaves this node.
pub struct Chat {
    store: Arc<dyn Store>,
    filter: Filter,
    limiter: limit::Limiter,
    max_chars: usize,
    rooms: Mutex<HashMap<String, Rooms>>,
    /// The game's rooms and events' rooms: their sockets here, by place key.
    places: places::Places,
    /// Each table's event (`None`: none), for the tables with rooms here.
    events_of: Mutex<HashMap<String, Option<String>>>,
    /// Pushes to a person's every page (private messages, mentions,
    /// announcements, mutes).
    notifier: Notifier,
    /// Several nodes: where a line goes to reach the others' sockets.
    cluster: Option<Arc<Cluster>>,
}

/// Where a line delivered on one node goes on the others (the bus's
/// [`BusMsg::Chat`]).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "k", rename_all = "snake_case")]
pub enum ChatAt {
    /// A table's room: the sockets at the table that read it.
    Table { table: String, room: ChatRoom },
    /// A game's or event's room, by its key: the sockets that joined it.
    Place { key: String },
    /// A table's players' room was asked closed or open: who asks it closed
    /// now (ids and names, from the store), for this node's copy; the frame
    /// goes to every socket at the table.
    Players {
        table: String,
        off: Vec<(UserId, String)>,
    },
}

/// One table's rooms: who is in them.
struct Rooms {
    /// Who sits at the table: its players.
    sitting: Arc<live::Sitting>,
    /// Who opened the table (`None`: the server did).
    owner: Option<UserId>,
    /// The people who asked the players' room closed (ids and names), in
    /// the order they asked; an ask holds while its person owns the table
    /// or sits there ([`Rooms::closed_by`]).
    off: Vec<(UserId, String)>,
    members: HashMap<ConnId, Member>,
}

struct Member {
    conn: Conn,
    /// A player who reads the spectators' room too.
    spectators: bool,
}

impl Rooms {
    /// Whether someone whose ask holds keeps the players' room closed: the
    /// table's owner, or a person seated there now.
    fn closed(&self) -> bool {
        self.off.iter().any(|ask| self.holds(ask))
    }

    /// The people who keep the players' room closed now.
    fn closed_by(&self) -> Vec<String> {
        let holding = self.off.iter().filter(|ask| self.holds(ask));
        holding.map(|(_, name)| name.clone()).collect()
    }

    fn holds(&self, (id, name): &(UserId, String)) -> bool {
        self.owner == Some(*id) || self.sitting.has(name)
    }

    /// Whether `member` reads `room` now.
    fn reads(&self, member: &Member, room: ChatRoom) -> bool {
        let player = member
            .conn
            .user
            .as_ref()
            .is_some_and(|u| self.sitting.has(&u.username));
        match room {
            ChatRoom::Players => player,
            ChatRoom::Spectators => !player || member.spectators,
        }
    }
}

impl Chat {
    /// The chat of this node: its `games` have a room each.
    pub fn new(
        store: Arc<dyn Store>,
        config: &ChatConfig,
        games: Vec<&'static str>,
        notifier: Notifier,
        cluster: Option<Arc<Cluster>>,
    ) -> Chat {
        Chat {
            store,
            filter: Filter::new(&config.filter),
            limiter: limit::Limiter::new(config.burst, Duration::from_millis(config.every_ms)),
            max_chars: config.max_chars,
            rooms: Mutex::default(),
            places: places::Places::new(games),
            events_of: Mutex::default(),
            notifier,
            cluster,
        }
    }

    /// Checks a line `user` writes anywhere: plain text on one line, not
    /// empty, not too long; the writer within the rate (whether they are
    /// muted is [`Chat::keep`]'s). The text as it is kept and delivered
    /// (filtered).
    async fn check(&self, user: &UserInfo, text: &str) -> Result<String, ApiError> {
        let text = plain(text);
        if text.is_empty() {
            return Err(ApiError::bad_request("bad_message", "a chat line has text"));
        }
        if text.chars().count() > self.max_chars {
            return Err(ApiError::bad_request(
                "too_large",
                format!("a chat line has at most {} characters", self.max_chars),
            ));
        }
        if let Err(wait) = self.limiter.take(user.id, Instant::now()) {
            let ms = wait.as_millis() + 1;
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "chat_too_fast",
                format!("too many chat lines; the next in {ms} ms"),
            ));
        }
        Ok(self.filter.apply(&text))
    }

    /// Keeps a checked line, unless its writer is muted: the mute is read in
    /// the insert's own statement (the store's `add_chat_line`), so a line
    /// costs one write and no read, and a mute holds from the moment it is
    /// stored, on every node. The line's id; a muted writer's refusal (the
    /// mute's end read only then).
    async fn keep(&self, line: &NewChatLine) -> Result<i64, ApiError> {
        if let Some(id) = self.store.add_chat_line(line).await? {
            return Ok(id);
        }
        // Nothing kept: muted at the line's time. The end, for the refusal
        // (a mute lifted since: the line's own time, "1 s more").
        let until = crate::authority::muted_until(&*self.store, line.user)
            .await?
            .unwrap_or(line.at);
        Err(mutes::refusal(until))
    }

    /// The event whose game `table` plays, if any: read once, at the table's
    /// first players' line on this node, and kept while the table has rooms
    /// here. A table plays for an event from before anyone sits there (the
    /// event's director registers the table it creates, then seats the
    /// players), and a players' line is written by someone seated, so the
    /// first read is already the answer for good.
    async fn event_of(&self, table: &str) -> Result<Option<String>, ApiError> {
        if let Some(event) = lock(&self.events_of).get(table) {
            return Ok(event.clone());
        }
        let event = self.store.event_of_table(table).await?;
        // Kept only while the table's rooms are open here (closing them
        // forgets it, [`Chat::leave`]).
        if self.rooms().contains_key(table) {
            lock(&self.events_of).insert(table.to_string(), event.clone());
        }
        Ok(event)
    }

    /// Refuses `user`'s line in a players' room of event `event`, or in its
    /// room, while the event's players' chat is off and they play in it.
    async fn event_policy(&self, event: &str, user: &UserInfo) -> Result<(), ApiError> {
        let Some(ev) = crate::events::load(&*self.store, event).await? else {
            return Ok(());
        };
        let plays = ev
            .player(user.id)
            .is_some_and(|p| !p.withdrawn && !p.disqualified);
        if !ev.config.players_chat && plays {
            return Err(ApiError::forbidden(
                "chat_off",
                "the organiser has switched the players' chat off for this event",
            ));
        }
        Ok(())
    }

    /// Sends `frame` to the other nodes, for their sockets at `at`.
    fn publish(&self, at: ChatAt, frame: &Utf8Bytes) {
        if let Some(cluster) = self.cluster.clone() {
            let text = frame.to_string();
            tokio::spawn(async move {
                cluster.send_all(&BusMsg::Chat { at, text }).await;
            });
        }
    }

    /// A line another node delivered: to this node's sockets at `at` that
    /// read it.
    pub fn deliver_here(&self, at: &ChatAt, text: &str) {
        let frame = Utf8Bytes::from(text.to_string());
        match at {
            ChatAt::Table { table, room } => {
                let rooms = self.rooms();
                if let Some(r) = rooms.get(table) {
                    for member in r.members.values().filter(|m| r.reads(m, *room)) {
                        member.conn.send(frame.clone());
                    }
                }
            }
            ChatAt::Place { key } => self.places.deliver(key, &frame),
            ChatAt::Players { table, off } => {
                let mut rooms = self.rooms();
                if let Some(r) = rooms.get_mut(table) {
                    r.off.clone_from(off);
                    for member in r.members.values() {
                        member.conn.send(frame.clone());
                    }
                }
            }
        }
    }

    fn rooms(&self) -> std::sync::MutexGuard<'_, HashMap<String, Rooms>> {
        self.rooms.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `conn` watches or plays at `table` (its seats: `sitting`; opened by
    /// `owner`): it joins the table's rooms and is shown their latest lines
    /// it may read, and who keeps the players' room closed if anyone does.
    /// Joining again changes nothing.
    pub async fn join(
        &self,
        table: &str,
        sitting: &Arc<live::Sitting>,
        owner: Option<UserId>,
        conn: &Conn,
    ) {
        let known = match self.rooms().get(table) {
            Some(r) if r.members.contains_key(&conn.id) => return,
            Some(_) => true,
            None => false,
        };
        let history = match self.store.recent_chat_lines(table, HISTORY).await {
            Ok(lines) => lines,
            Err(e) => {
                tracing::warn!(table, "cannot read the chat's history: {e}");
                Vec::new()
            }
        };
        // The asks to close the players' room: read when the table's rooms
        // open on this node, then kept here (and told across nodes).
        let off = if known {
            Vec::new()
        } else {
            self.store.table_chat_off(table).await.unwrap_or_else(|e| {
                tracing::warn!(table, "cannot read the table's chat switch: {e}");
                Vec::new()
            })
        };
        let mut rooms = self.rooms();
        let rooms = rooms.entry(table.to_string()).or_insert_with(|| Rooms {
            sitting: sitting.clone(),
            owner,
            off,
            members: HashMap::new(),
        });
        if rooms.members.contains_key(&conn.id) {
            return;
        }
        let member = Member {
            conn: conn.clone(),
            spectators: false,
        };
        let players = rooms.sitting.people();
        for line in &history {
            let Some(room) = room_of(&line.room) else {
                continue;
            };
            // The players' room of earlier games is not for whoever sits
            // there now: only lines of the people seated now are shown.
            let shown = rooms.reads(&member, room)
                && (room == ChatRoom::Spectators || players.contains(&line.username));
            if shown {
                conn.reply(&ServerMsg::Chat(message(line, room)), None);
            }
        }
        let closed_by = rooms.closed_by();
        if !closed_by.is_empty() {
            let msg = ChatPlayersMsg {
                table: table.to_string(),
                off: closed_by,
            };
            conn.reply(&ServerMsg::ChatPlayers(msg), None);
        }
        rooms.members.insert(conn.id, member);
    }

    /// `conn` no longer watches `table`.
    pub fn leave(&self, table: &str, conn: ConnId) {
        let mut rooms = self.rooms();
        if let Some(r) = rooms.get_mut(table) {
            r.members.remove(&conn);
            if r.members.is_empty() {
                rooms.remove(table);
                lock(&self.events_of).remove(table);
            }
        }
    }

    /// A line from `conn` at a table it watches or plays at: checked, kept,
    /// then delivered to every socket at the table that reads its room, on
    /// every node. The line's id.
    pub async fn say(&self, conn: &Conn, say: &ChatSay) -> Result<i64, ApiError> {
        let user = conn.user.as_ref().ok_or_else(ApiError::unauthorized)?;
        let (room, sitting) = {
            let rooms = self.rooms();
            let r = rooms
                .get(&say.table)
                .filter(|r| r.members.contains_key(&conn.id))
                .ok_or_else(not_at_table)?;
            let room = if r.sitting.has(&user.username) {
                ChatRoom::Players
            } else {
                ChatRoom::Spectators
            };
            if room == ChatRoom::Players && r.closed() {
                return Err(ApiError::forbidden(
                    "table_chat_off",
                    "the players' chat at this table is switched off",
                ));
            }
            (room, r.sitting.clone())
        };
        if room == ChatRoom::Players
            && let Some(event) = self.event_of(&say.table).await?
        {
            self.event_policy(&event, user).await?;
        }
        let text = self.check(user, &say.text).await?;
        let line = NewChatLine {
            table: say.table.clone(),
            room: room.as_str().into(),
            user: user.id,
            username: user.username.clone(),
            text,
            at: crate::now_ms(),
        };
        let id = self.keep(&line).await?;
        let msg = ChatMsg {
            table: line.table,
            room,
            id,
            user: line.username,
            text: line.text,
            at: line.at,
        };
        let mention = mentions::Mention {
            by: user,
            text: &msg.text,
            line: id,
            at: MentionAt::Table {
                table: msg.table.clone(),
                room,
            },
        };
        let frame: Utf8Bytes = ServerMsg::Chat(msg.clone()).encode(None).into();
        self.deliver_here(
            &ChatAt::Table {
                table: say.table.clone(),
                room,
            },
            frame.as_str(),
        );
        self.publish(
            ChatAt::Table {
                table: say.table.clone(),
                room,
            },
            &frame,
        );
        // A line of the players' room is for the players alone.
        let may_read = |name: &str| room == ChatRoom::Spectators || sitting.has(name);
        mentions::tell(&*self.store, &self.notifier, mention, may_read).await;
        Ok(id)
    }

    /// A player at `table` reads the spectators' room too (`on`), or no more.
    /// Turned on, the room's latest lines are shown.
    pub async fn spectators(&self, conn: &Conn, table: &str, on: bool) -> Result<(), ApiError> {
        {
            let mut rooms = self.rooms();
            let member = rooms
                .get_mut(table)
                .and_then(|r| r.members.get_mut(&conn.id))
                .ok_or_else(not_at_table)?;
            let was = member.spectators;
            member.spectators = on;
            if was || !on {
                return Ok(());
            }
        }
        let history = self.store.recent_chat_lines(table, HISTORY).await?;
        for line in history
            .iter()
            .filter(|l| l.room == ChatRoom::Spectators.as_str())
        {
            conn.reply(&ServerMsg::Chat(message(line, ChatRoom::Spectators)), None);
        }
        Ok(())
    }

    /// `chat.players`: the table's owner or a player seated there asks the
    /// table's players' room closed (`on` false), or takes the ask back. The
    /// ask is kept in the store (it outlives a restart and reaches the other
    /// nodes' copies) and the sockets at the table, on every node, are told
    /// who keeps the room closed now. The spectators' room is not touched.
    pub async fn players(&self, conn: &Conn, table: &str, on: bool) -> Result<(), ApiError> {
        let user = conn.user.as_ref().ok_or_else(ApiError::unauthorized)?;
        {
            let rooms = self.rooms();
            let r = rooms
                .get(table)
                .filter(|r| r.members.contains_key(&conn.id))
                .ok_or_else(not_at_table)?;
            if r.owner != Some(user.id) && !r.sitting.has(&user.username) {
                return Err(ApiError::forbidden(
                    "not_seated",
                    "only the table's owner or a player seated there switches its players' chat",
                ));
            }
        }
        self.store
            .set_table_chat_off(table, user.id, !on, crate::now_ms())
            .await?;
        // Read back: another node's ask made meanwhile is in it too.
        let off = self.store.table_chat_off(table).await?;
        let closed_by = {
            let mut rooms = self.rooms();
            let Some(r) = rooms.get_mut(table) else {
                return Ok(());
            };
            r.off.clone_from(&off);
            r.closed_by()
        };
        let msg = ChatPlayersMsg {
            table: table.to_string(),
            off: closed_by,
        };
        let frame: Utf8Bytes = ServerMsg::ChatPlayers(msg).encode(None).into();
        let at = ChatAt::Players {
            table: table.to_string(),
            off,
        };
        self.deliver_here(&at, frame.as_str());
        self.publish(at, &frame);
        Ok(())
    }

    /// `conn`'s user reports a line: a row in the admins' queue. The report's id.
    pub async fn report(&self, conn: &Conn, report: &ChatReport) -> Result<i64, ApiError> {
        let user = conn.user.as_ref().ok_or_else(ApiError::unauthorized)?;
        let reason = plain(report.reason.as_deref().unwrap_or(""));
        if reason.chars().count() > MAX_REASON {
            return Err(ApiError::bad_request(
                "too_large",
                format!("a report's reason has at most {MAX_REASON} characters"),
            ));
        }
        // A private message is reported by its two people alone.
        let line = self.store.chat_line(report.line).await?;
        if !line.is_some_and(|l| l.room != "private" || places::in_conversation(&l.table, user.id))
        {
            return Err(ApiError::not_found(format!("no chat line {}", report.line)));
        }
        self.store
            .report_chat_line(report.line, user.id, &reason, crate::now_ms())
            .await
            .map_err(|e| match e {
                StoreError::Conflict(_) => {
                    ApiError::bad_request("already_reported", "you have reported this line already")
                }
                e => e.into(),
            })
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn not_at_table() -> ApiError {
    ApiError::bad_request(
        "not_at_table",
        "watch the table (or play at it) to chat there",
    )
}

fn room_of(name: &str) -> Option<ChatRoom> {
    match name {
        "players" => Some(ChatRoom::Players),
        "spectators" => Some(ChatRoom::Spectators),
        _ => None,
    }
}

fn message(line: &ChatLineRow, room: ChatRoom) -> ChatMsg {
    ChatMsg {
        table: line.table.clone(),
        room,
        id: line.id,
        user: line.username.clone(),
        text: line.text.clone(),
        at: line.at,
    }
}

/// A line as plain text on one line: control characters (new lines, bidi
/// controls among the format characters are left to the client's text
/// rendering) become spaces, and the ends are trimmed.
fn plain(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_string()
}

/// Forgets, every hour, the lines older than `retention_days` (a line that an
/// open report names is kept); 0: lines are kept for ever. Stops when
/// `shutdown` flips.
pub async fn prune(
    store: Arc<dyn Store>,
    retention_days: u32,
    shutdown: tokio::sync::watch::Receiver<bool>,
) {
    if retention_days == 0 {
        return;
    }
    const EVERY: Duration = Duration::from_secs(3600);
    let keep = i64::from(retention_days) * 24 * 3600 * 1000;
    loop {
        match store.prune_chat(crate::now_ms() - keep).await {
            Ok(n) if n > 0 => tracing::info!(n, "old chat lines forgotten"),
            Ok(_) => {}
            Err(e) => tracing::warn!("cannot forget old chat lines: {e}"),
        }
        tokio::select! {
            _ = tokio::time::sleep(EVERY) => {}
            _ = crate::stopped(shutdown.clone()) => break,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_plain_text_on_one_line() {
        assert_eq!(plain("  gg\nwp\t "), "gg wp");
        assert_eq!(plain("<script>x</script>"), "<script>x</script>");
        assert_eq!(plain("\u{7}"), "");
    }
}
