//! The clients' messages (see docs/protocol.md): [`ClientMsg`], a table command
//! ([`TableCommand`]) or one of the rest ([`HallMsg`]), each a serde enum tagged
//! as the wire is, `{"t": type, "d": data}`. Their TypeScript twin is generated
//! next to the server's messages (see [`declarations`]). What a table is asked
//! to do, whoever asks, is a [`TableAct`].

use qiyuan_game::{Claim, Seat};
use qiyuan_table::{Settings, TimeControl};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use super::analysis;

/// A message from a client. The wire's tag `t` says which of the two enums it
/// belongs to (their tags are distinct); [`super::parse`] reads it that way.
#[derive(Debug, Clone, PartialEq, Deserialize, TS)]
#[serde(untagged)]
pub enum ClientMsg {
    /// A command for a table, acting as the connection's user.
    Table(TableCommand),
    /// Everything else: pings, lobby rooms, new tables, seeks, analysis, watching.
    Hall(HallMsg),
}

/// The messages that are not a table's commands.
#[derive(Debug, Clone, PartialEq, Deserialize, TS)]
#[serde(tag = "t", content = "d")]
pub enum HallMsg {
    /// A ping, with the client's own estimate of its round trip.
    #[serde(rename = "ping")]
    Ping(Ping),
    #[serde(rename = "lobby.subscribe")]
    LobbySubscribe(LobbyRoom),
    #[serde(rename = "lobby.unsubscribe")]
    LobbyUnsubscribe(LobbyRoom),
    #[serde(rename = "create")]
    Create(CreateTable),
    #[serde(rename = "seek")]
    Seek(Seek),
    #[serde(rename = "seek.cancel")]
    SeekCancel,
    #[serde(rename = "watch")]
    Watch(Watch),
    /// Stop watching (`since` is read and ignored).
    #[serde(rename = "unwatch")]
    Unwatch(Watch),
    /// Play the computer: a new table with the user and computer players seated
    /// and the game started (see [`crate::computer`]).
    #[serde(rename = "play_computer")]
    PlayComputer(PlayComputer),
    /// 单机 hot-seat: a private table where the user plays every seat (see
    /// [`crate::solo`]).
    #[serde(rename = "hotseat")]
    Hotseat(Hotseat),
    /// The analysis board: a position, its legal moves and the engine's lines
    /// (see [`crate::analysis`]).
    #[serde(rename = "analyse")]
    Analyse(analysis::Analyse),
    #[serde(rename = "analyse.stop")]
    AnalyseStop,
    /// A line of chat at a table the socket watches or plays at: into the
    /// players' room for a player, the spectators' for anyone else (see
    /// [`crate::chat`]).
    #[serde(rename = "chat")]
    Chat(ChatSay),
    /// A player's choice to read the spectators' room of a table too.
    #[serde(rename = "chat.spectators")]
    ChatSpectators(ChatSpectators),
    /// The table's owner or a player there asks the table's players' room
    /// closed, or no more.
    #[serde(rename = "chat.players")]
    ChatPlayers(ChatPlayers),
    /// A report of a chat line, for the admins' queue.
    #[serde(rename = "chat.report")]
    ChatReport(ChatReport),
    /// Be told (`notify` `event_changed`) when an event changes: its page
    /// is open.
    #[serde(rename = "event.follow")]
    EventFollow(EventRef),
    #[serde(rename = "event.unfollow")]
    EventUnfollow(EventRef),
    /// Enter a game's room, an event's room or a conversation (see
    /// [`super::chat`]).
    #[serde(rename = "chat.join")]
    ChatJoin(super::chat::ChatJoin),
    #[serde(rename = "chat.leave")]
    ChatLeave(super::chat::ChatJoin),
    /// A line for a game's room, an event's room or a person.
    #[serde(rename = "chat.post")]
    ChatPost(super::chat::ChatPost),
}

/// The commands a client sends to a table. Every one names its table and may
/// name the game the client believes it plays; all but `sit`, `add_bot` and
/// `remove_bot` (whose seat is the one they act on) may name the seat the client
/// believes it acts for. Both are checked, never trusted.
///
/// The order is the fuzz target's numbering (see [`super::table_types`]): its
/// committed seeds keep their numbers, so a new command goes last.
#[derive(Debug, Clone, PartialEq, Deserialize, TS)]
#[serde(tag = "t", content = "d")]
pub enum TableCommand {
    #[serde(rename = "sit")]
    Sit(AtSeat),
    #[serde(rename = "stand")]
    Stand(Acting),
    #[serde(rename = "propose")]
    Propose(Propose),
    #[serde(rename = "accept")]
    Accept(Answer),
    #[serde(rename = "ready")]
    Ready(Ready),
    #[serde(rename = "unready")]
    Unready(Acting),
    #[serde(rename = "swap")]
    Swap(Swap),
    #[serde(rename = "move")]
    Move(Move),
    #[serde(rename = "draw.offer")]
    DrawOffer(Acting),
    #[serde(rename = "draw.accept")]
    DrawAccept(Acting),
    #[serde(rename = "draw.decline")]
    DrawDecline(Acting),
    #[serde(rename = "takeback.request")]
    TakebackRequest(Acting),
    #[serde(rename = "takeback.accept")]
    TakebackAccept(Acting),
    #[serde(rename = "takeback.decline")]
    TakebackDecline(Acting),
    #[serde(rename = "claim")]
    Claim(MakeClaim),
    #[serde(rename = "resign")]
    Resign(Acting),
    #[serde(rename = "abort")]
    Abort(Acting),
    #[serde(rename = "leave")]
    Leave(Acting),
    #[serde(rename = "rematch")]
    Rematch(Acting),
    /// Seat a computer player at an empty seat; see [`crate::bots`].
    #[serde(rename = "add_bot")]
    AddBot(AddBot),
    /// Take a computer player off its seat (between games).
    #[serde(rename = "remove_bot")]
    RemoveBot(AtSeat),
    #[serde(rename = "decline")]
    Decline(Answer),
    /// 托管: the computer plays the sender's seat for the rest of the game, as
    /// them, until they take it back (only where the game has it: Doudizhu).
    #[serde(rename = "trusteeship.on")]
    TrusteeshipOn(Acting),
    /// 取消托管: the sender takes their seat back from the computer.
    #[serde(rename = "trusteeship.off")]
    TrusteeshipOff(Acting),
}

/// Where a table command goes, and what the client believes of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Addressed {
    pub table: String,
    /// The game the client believes the table plays (`wrong_game` otherwise).
    pub game: Option<String>,
    /// The seat the client believes it acts for (`not_your_seat` otherwise).
    pub expect_seat: Option<Seat>,
}

impl TableCommand {
    /// The table the command is for.
    pub fn table(&self) -> &str {
        self.fields().0
    }

    /// The fields every command carries: its table, the game the client
    /// believes it plays and the seat it believes it acts for (never the seat
    /// `sit` and the computer players' commands act on).
    fn fields(&self) -> (&str, Option<&String>, Option<Seat>) {
        use TableCommand as C;
        match self {
            C::Sit(d) | C::RemoveBot(d) => (&d.table, d.game.as_ref(), None),
            C::AddBot(d) => (&d.table, d.game.as_ref(), None),
            C::Stand(d)
            | C::Unready(d)
            | C::DrawOffer(d)
            | C::DrawAccept(d)
            | C::DrawDecline(d)
            | C::TakebackRequest(d)
            | C::TakebackAccept(d)
            | C::TakebackDecline(d)
            | C::Resign(d)
            | C::Abort(d)
            | C::Leave(d)
            | C::Rematch(d)
            | C::TrusteeshipOn(d)
            | C::TrusteeshipOff(d) => (&d.table, d.game.as_ref(), d.seat),
            C::Propose(d) => (&d.table, d.game.as_ref(), d.seat),
            C::Accept(d) | C::Decline(d) => (&d.table, d.game.as_ref(), d.seat),
            C::Ready(d) => (&d.table, d.game.as_ref(), d.seat),
            C::Swap(d) => (&d.table, d.game.as_ref(), d.seat),
            C::Move(d) => (&d.table, d.game.as_ref(), d.seat),
            C::Claim(d) => (&d.table, d.game.as_ref(), d.seat),
        }
    }

    /// Where the command goes, and what the table is asked to do.
    pub fn into_parts(self) -> (Addressed, TableAct) {
        use TableCommand as C;
        let (table, game, expect_seat) = self.fields();
        let addressed = Addressed {
            table: table.to_owned(),
            game: game.cloned(),
            expect_seat,
        };
        let act = match self {
            C::Sit(d) => TableAct::Sit { seat: d.seat },
            C::Stand(_) => TableAct::Stand,
            C::Propose(d) => TableAct::Propose {
                settings: d.settings,
            },
            C::Accept(d) => TableAct::Accept {
                proposal: d.proposal,
            },
            C::Decline(d) => TableAct::Decline {
                proposal: d.proposal,
            },
            C::Ready(d) => TableAct::Ready {
                proposal: d.proposal,
            },
            C::Unready(_) => TableAct::Unready,
            C::Swap(d) => TableAct::Swap { with: d.with },
            C::Move(d) => TableAct::Move {
                action: d.action,
                lag: d.lag,
            },
            C::DrawOffer(_) => TableAct::DrawOffer,
            C::DrawAccept(_) => TableAct::DrawAccept,
            C::DrawDecline(_) => TableAct::DrawDecline,
            C::TakebackRequest(_) => TableAct::TakebackRequest,
            C::TakebackAccept(_) => TableAct::TakebackAccept,
            C::TakebackDecline(_) => TableAct::TakebackDecline,
            C::Claim(d) => TableAct::Claim { claim: d.claim },
            C::Resign(_) => TableAct::Resign,
            C::Abort(_) => TableAct::Abort,
            C::Leave(_) => TableAct::Leave,
            C::Rematch(_) => TableAct::Rematch,
            C::AddBot(d) => TableAct::AddBot {
                seat: d.seat,
                level: d.level.map(|l| l.0),
            },
            C::RemoveBot(d) => TableAct::RemoveBot { seat: d.seat },
            C::TrusteeshipOn(_) => TableAct::Trusteeship { on: true },
            C::TrusteeshipOff(_) => TableAct::Trusteeship { on: false },
        };
        (addressed, act)
    }
}

// The table commands' data. Each has the table, and optionally the game and
// (but for those that name the seat they act on) the seat the client believes
// in; fields other than a command's own are ignored.

/// The commands with no data of their own.
#[derive(Debug, Clone, PartialEq, Deserialize, TS)]
pub struct Acting {
    pub table: String,
    #[serde(default)]
    #[ts(optional)]
    pub game: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub seat: Option<Seat>,
}

/// `sit`, `remove_bot`: the seat acted on.
#[derive(Debug, Clone, PartialEq, Deserialize, TS)]
pub struct AtSeat {
    pub table: String,
    #[serde(default)]
    #[ts(optional)]
    pub game: Option<String>,
    pub seat: Seat,
}

/// `add_bot`: the seat, and the computer player's level (default: the game's
/// first).
#[derive(Debug, Clone, PartialEq, Deserialize, TS)]
pub struct AddBot {
    pub table: String,
    #[serde(default)]
    #[ts(optional)]
    pub game: Option<String>,
    pub seat: Seat,
    #[serde(default)]
    #[ts(optional)]
    pub level: Option<LevelKey>,
}

/// `propose`: the settings proposed.
#[derive(Debug, Clone, PartialEq, Deserialize, TS)]
pub struct Propose {
    pub table: String,
    #[serde(default)]
    #[ts(optional)]
    pub game: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub seat: Option<Seat>,
    pub settings: Settings,
}

/// `accept`, `decline`: the proposal answered.
#[derive(Debug, Clone, PartialEq, Deserialize, TS)]
pub struct Answer {
    pub table: String,
    #[serde(default)]
    #[ts(optional)]
    pub game: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub seat: Option<Seat>,
    pub proposal: u32,
}

/// `ready`: optionally, the proposal accepted with it.
#[derive(Debug, Clone, PartialEq, Deserialize, TS)]
pub struct Ready {
    pub table: String,
    #[serde(default)]
    #[ts(optional)]
    pub game: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub seat: Option<Seat>,
    #[serde(default)]
    #[ts(optional)]
    pub proposal: Option<u32>,
}

/// `swap`: the seat to swap with.
#[derive(Debug, Clone, PartialEq, Deserialize, TS)]
pub struct Swap {
    pub table: String,
    #[serde(default)]
    #[ts(optional)]
    pub game: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub seat: Option<Seat>,
    pub with: Seat,
}

/// `move`: an action in the game's notation.
#[derive(Debug, Clone, PartialEq, Deserialize, TS)]
pub struct Move {
    pub table: String,
    #[serde(default)]
    #[ts(optional)]
    pub game: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub seat: Option<Seat>,
    pub action: String,
    /// The client's report of its lag for this move, in milliseconds.
    #[serde(default)]
    #[ts(optional)]
    pub lag: Option<u64>,
}

/// `claim`: what is claimed.
#[derive(Debug, Clone, PartialEq, Deserialize, TS)]
pub struct MakeClaim {
    pub table: String,
    #[serde(default)]
    #[ts(optional)]
    pub game: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub seat: Option<Seat>,
    pub claim: Claim,
}

/// What a user can do at a table, whoever asks: a socket's [`TableCommand`], the
/// Lichess API, a hot-seat stand-in. (Serialised only between nodes, see
/// [`crate::cluster`].)
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum TableAct {
    Sit {
        seat: Seat,
    },
    Stand,
    Propose {
        settings: Settings,
    },
    Accept {
        proposal: u32,
    },
    Decline {
        proposal: u32,
    },
    Ready {
        proposal: Option<u32>,
    },
    Unready,
    Swap {
        with: Seat,
    },
    Move {
        action: String,
        /// The client's own report of its lag for this move, in milliseconds.
        lag: Option<u64>,
    },
    DrawOffer,
    DrawAccept,
    DrawDecline,
    TakebackRequest,
    TakebackAccept,
    TakebackDecline,
    Claim {
        claim: Claim,
    },
    Resign,
    Abort,
    Leave,
    Rematch,
    /// Seat a computer player at an empty seat; see [`crate::bots`]. No level:
    /// the game's first.
    AddBot {
        seat: Seat,
        level: Option<String>,
    },
    /// Take a computer player off its seat (between games).
    RemoveBot {
        seat: Seat,
    },
    /// 托管 on or off (取消托管) for the player's own seat.
    Trusteeship {
        on: bool,
    },
}

/// `ping`: the client's own estimate of its round trip, in milliseconds (as
/// Lichess's client reports it), believed only up to the cap of
/// [`qiyuan_table::clock::LagEstimate::MAX_SAMPLE`] and the quota.
#[derive(Debug, Clone, PartialEq, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct Ping {
    #[serde(default)]
    #[ts(optional)]
    pub lag: Option<u64>,
}

/// `lobby.subscribe`, `lobby.unsubscribe`: a game's lobby room.
#[derive(Debug, Clone, PartialEq, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct LobbyRoom {
    pub game: String,
}

/// `watch`, `unwatch`: a table, and the version the client last saw.
#[derive(Debug, Clone, PartialEq, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct Watch {
    pub table: String,
    #[serde(default)]
    #[ts(optional)]
    pub since: Option<u64>,
}

/// `create`: a new table.
#[derive(Debug, Clone, PartialEq, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct CreateTable {
    pub game: String,
    #[serde(default)]
    #[ts(optional)]
    pub time: Option<TimeControl>,
    #[serde(default)]
    #[ts(optional = nullable)]
    pub rated: bool,
    #[serde(default)]
    #[ts(optional = nullable)]
    pub options: Value,
    /// Sit down at once at this seat.
    #[serde(default)]
    #[ts(optional)]
    pub seat: Option<Seat>,
    #[serde(default = "yes")]
    #[ts(optional = nullable)]
    pub takebacks: bool,
    /// Where the game starts (读入): `"standard"` or `{"position": FEN}`.
    #[serde(default)]
    #[ts(optional)]
    pub setup: Option<qiyuan_game::Setup>,
    /// A table for the people invited to it (by name or by link) alone:
    /// listed nowhere; nobody else watches it, sits there or reads its chat.
    #[serde(default)]
    #[ts(optional = nullable)]
    pub invite_only: bool,
}

fn yes() -> bool {
    true
}

/// A computer player's level as a client names it: its key (`"3"`, `"strong"`,
/// `"stockfish"`) or, for the numbered levels, the number (`3`).
#[derive(Debug, Clone, PartialEq, Eq, TS)]
#[ts(type = "string | number")]
pub struct LevelKey(pub String);

impl<'de> Deserialize<'de> for LevelKey {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Text(String),
            Number(u32),
        }
        let key = match Raw::deserialize(d)? {
            Raw::Text(s) => s,
            Raw::Number(n) => n.to_string(),
        };
        if !crate::bots::valid_key(&key) {
            return Err(serde::de::Error::custom(format!(
                "{key:?} is not a computer player's level"
            )));
        }
        Ok(LevelKey(key))
    }
}

/// Which seat the player takes when playing the computer.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, TS)]
#[serde(untagged)]
pub enum Colour {
    /// A seat by number (Doudizhu: 0, 1 or 2).
    Seat(Seat),
    /// `first`, `second`, `random`, or a side the game names (`white`, `red`,
    /// `black`: see the game's `seat_names`).
    Named(String),
}

/// `play_computer`: a table against the computer, the game started at once.
#[derive(Debug, Clone, PartialEq, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct PlayComputer {
    pub game: String,
    /// The computer player's level (default: the game's first).
    #[serde(default)]
    #[ts(optional)]
    pub level: Option<LevelKey>,
    /// The player's seat (default: random).
    #[serde(default)]
    #[ts(optional)]
    pub colour: Option<Colour>,
    /// The clock (default: the game's first preset).
    #[serde(default)]
    #[ts(optional)]
    pub time: Option<TimeControl>,
    /// The game's rule options (board size, komi, ...).
    #[serde(default)]
    #[ts(optional = nullable)]
    pub options: Value,
    #[serde(default)]
    #[ts(optional)]
    pub setup: Option<qiyuan_game::Setup>,
    /// 单机: a private table, listed nowhere (see [`crate::solo`]).
    #[serde(default)]
    #[ts(optional = nullable)]
    pub private: bool,
}

/// `hotseat`: a private table where the user plays every seat.
#[derive(Debug, Clone, PartialEq, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct Hotseat {
    pub game: String,
    /// The clock (default: none).
    #[serde(default)]
    #[ts(optional)]
    pub time: Option<TimeControl>,
    #[serde(default)]
    #[ts(optional = nullable)]
    pub options: Value,
    #[serde(default)]
    #[ts(optional)]
    pub setup: Option<qiyuan_game::Setup>,
}

/// `seek`: quick pairing with someone who wants the same game and time.
#[derive(Debug, Clone, PartialEq, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct Seek {
    pub game: String,
    pub time: TimeControl,
    #[serde(default)]
    #[ts(optional = nullable)]
    pub rated: bool,
}

/// `chat`: a line of text for a table's room (never read as markup).
#[derive(Debug, Clone, PartialEq, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct ChatSay {
    pub table: String,
    pub text: String,
}

/// `chat.spectators`: whether a player reads the spectators' room too.
#[derive(Debug, Clone, PartialEq, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct ChatSpectators {
    pub table: String,
    pub on: bool,
}

/// `chat.players`: `on: false` asks the players' room of a table closed (by
/// its owner or a player seated there); `on: true` takes the ask back. The
/// room is closed while anyone whose ask holds asks it.
#[derive(Debug, Clone, PartialEq, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct ChatPlayers {
    pub table: String,
    pub on: bool,
}

/// `chat.report`: a line (its id, from the `chat` message) and why.
#[derive(Debug, Clone, PartialEq, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct ChatReport {
    pub line: i64,
    #[serde(default)]
    #[ts(optional)]
    pub reason: Option<String>,
}

/// `event.follow`, `event.unfollow`: an event's id.
#[derive(Debug, Clone, PartialEq, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct EventRef {
    pub event: String,
}

/// The TypeScript declarations of every client message and what it carries
/// (the types it shares with the server's messages are declared there).
pub fn declarations(cfg: &ts_rs::Config) -> Vec<String> {
    vec![
        ClientMsg::decl(cfg),
        HallMsg::decl(cfg),
        TableCommand::decl(cfg),
        Acting::decl(cfg),
        AtSeat::decl(cfg),
        AddBot::decl(cfg),
        Propose::decl(cfg),
        Answer::decl(cfg),
        Ready::decl(cfg),
        Swap::decl(cfg),
        Move::decl(cfg),
        MakeClaim::decl(cfg),
        Ping::decl(cfg),
        LobbyRoom::decl(cfg),
        Watch::decl(cfg),
        CreateTable::decl(cfg),
        LevelKey::decl(cfg),
        Colour::decl(cfg),
        PlayComputer::decl(cfg),
        Hotseat::decl(cfg),
        Seek::decl(cfg),
        analysis::Analyse::decl(cfg),
        ChatSay::decl(cfg),
        ChatSpectators::decl(cfg),
        ChatPlayers::decl(cfg),
        ChatReport::decl(cfg),
        EventRef::decl(cfg),
        super::chat::ChatJoin::decl(cfg),
        super::chat::ChatPost::decl(cfg),
    ]
}
