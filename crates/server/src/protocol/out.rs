//! The server's messages (see docs/protocol.md), one enum serialised in one
//! place ([`encode`]): `{"t": type, "d": data, "id": the request's id?}`. Their
//! TypeScript twin, `web/src/net/generated/protocol.ts`, is generated from these
//! types and the clients' ([`super::client`]) (see [`typescript`]); a test fails
//! when the committed file differs.

use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;
use ts_rs::TS;

use crate::error::ApiError;
use crate::live::TableSummary;
use crate::live::UserInfo;
use crate::protocol::analysis;
use crate::protocol::invitations;
use crate::protocol::patch::{PatchOp, PathKey};
use crate::protocol::relations;
use crate::registry::Descriptor;

/// A message from the server.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(tag = "t", content = "d")]
pub enum ServerMsg {
    /// The first message on every socket.
    #[serde(rename = "hello")]
    Hello(Hello),
    #[serde(rename = "pong")]
    Pong { server_time: i64 },
    /// A request was carried out.
    #[serde(rename = "ack")]
    Ack(Ack),
    /// A request was refused, or a message could not be read.
    #[serde(rename = "error")]
    Error(ErrorMsg),
    /// The answer to `watch`: what was missed, and the table as this viewer sees it.
    #[serde(rename = "sync")]
    Sync(SyncMsg),
    /// One accepted command (and the timers that fired with it), or spectators
    /// coming and going.
    #[serde(rename = "event")]
    Event(EventMsg),
    /// A lobby room's first page.
    #[serde(rename = "lobby")]
    Lobby(LobbyPage),
    /// A table of a subscribed room changed.
    #[serde(rename = "lobby.table")]
    LobbyTable(TableSummary),
    /// A table of a subscribed room closed.
    #[serde(rename = "lobby.gone")]
    LobbyGone { game: String, id: String },
    /// The seats' lag changed (the connection indicator); live only.
    #[serde(rename = "lag")]
    Lag(LagMsg),
    /// Quick pairing matched this socket's seek: the table and its seat.
    #[serde(rename = "paired")]
    Paired {
        table: String,
        game: String,
        seat: usize,
    },
    /// The answer to `analyse`: the analysis board's position and its legal moves.
    #[serde(rename = "position")]
    Position(analysis::Position),
    /// One of the engine's lines on the position of an `analyse` request (its id).
    #[serde(rename = "analysis")]
    Analysis(analysis::AnalysisMsg),
    /// An event's round was paired: this player's table and seat.
    #[serde(rename = "event.round")]
    EventRound(EventRoundMsg),
    /// An arbiter acted on this player or their game.
    #[serde(rename = "event.action")]
    EventAction(EventActionMsg),
    /// A line of chat in a room of a table this socket is at.
    #[serde(rename = "chat")]
    Chat(ChatMsg),
    /// Who keeps the players' room of a table this socket is at closed now
    /// (sent on joining the table's rooms while someone does, and to every
    /// socket there at each change).
    #[serde(rename = "chat.players")]
    ChatPlayers(ChatPlayersMsg),
    /// A person this socket's user follows came, went, sat down to play or
    /// began to watch.
    #[serde(rename = "rel.presence")]
    RelPresence(relations::PresenceMsg),
    /// Something for this person, pushed the moment it happens to every page
    /// they have open, on every node.
    #[serde(rename = "notify")]
    Notify(Notification),
    /// A line of a game's room or an event's room this socket joined, or a
    /// private message to or from this person (on every page they have open).
    #[serde(rename = "chat.line")]
    ChatLine(super::chat::PlaceLine),
}

/// A table's two chat rooms: its players' and its spectators'.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum ChatRoom {
    Players,
    Spectators,
}

impl ChatRoom {
    /// The room's name, as the wire and the store write it.
    pub fn as_str(self) -> &'static str {
        match self {
            ChatRoom::Players => "players",
            ChatRoom::Spectators => "spectators",
        }
    }
}

/// `chat`: one line, as the word filter left it. Plain text: a client shows
/// it as text, never as markup.
#[derive(Debug, Clone, Serialize, TS)]
pub struct ChatMsg {
    pub table: String,
    pub room: ChatRoom,
    /// The line's id, which `chat.report` names.
    pub id: i64,
    pub user: String,
    pub text: String,
    pub at: i64,
}

/// `chat.players`: the people who keep a table's players' room closed
/// (its owner, or players seated there, who asked); empty: it is open.
#[derive(Debug, Clone, Serialize, TS)]
pub struct ChatPlayersMsg {
    pub table: String,
    pub off: Vec<String>,
}

/// `notify`: what a person is told on every open page (`kind` says what).
/// A challenge's notifications go to both its sides: `from` made it, `to`
/// was challenged.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Notification {
    /// A challenge was made.
    Challenge(ChallengeNote),
    /// The challenged accepted: the game is at `table`.
    ChallengeAccepted(ChallengeNote),
    /// The challenged declined, for `reason`.
    ChallengeDeclined(ChallengeNote),
    /// The challenger withdrew it.
    ChallengeCanceled(ChallengeNote),
    /// An event's round was paired: this person's table, to go to now.
    Round(EventRoundMsg),
    /// An event's arbiter acted on this person or their game (`action`'s
    /// own `kind` says how).
    Arbiter { action: EventActionMsg },
    /// An event this person plays in, organises or arbitrates has ended.
    EventEnded(EventEndedMsg),
    /// `from` invites `to` to a table (told to both).
    Invitation(invitations::InvitationNote),
    /// The invited person took their seat (told to both; for a link, `to`
    /// is whoever opened it).
    InvitationAccepted(invitations::InvitationNote),
    /// The invited person declined, for `reason` (told to both).
    InvitationDeclined(invitations::InvitationNote),
    /// An event whose page this socket has open changed: its standings,
    /// rounds or players are to be read again (`event.follow`).
    EventChanged { event: String },
    /// `by` mentioned this person (`@name`) in a line written `at`.
    Mention {
        by: String,
        text: String,
        at: super::chat::MentionAt,
        line: i64,
    },
    /// An announcement of an event this person plays in, by its arbiter or
    /// organiser `by`.
    Announcement {
        event: String,
        name: String,
        by: String,
        text: String,
        line: i64,
    },
    /// This person was muted until `until` (ms since the epoch) by an admin
    /// or an event's arbiter: no chat line of theirs is delivered till then.
    Muted { until: i64, reason: String },
}

/// A challenge as a notification tells it.
#[derive(Debug, Clone, Serialize, TS)]
pub struct ChallengeNote {
    /// The challenge's id (its game's once accepted).
    pub id: String,
    /// The challenger's name.
    pub from: String,
    /// The challenged person's name.
    pub to: String,
    pub game: String,
    pub rated: bool,
    pub time: qiyuan_table::TimeControl,
    /// The challenger's colour: `white`, `black` or `random`.
    pub color: String,
    /// `challenge_accepted`: the game's table.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub table: Option<String>,
    /// `challenge_declined`: the reason given (Lichess's keys: `generic`,
    /// `later`, `tooFast`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub reason: Option<String>,
}

/// `event.round`: sent to both players of each board when a round is set up.
#[derive(Debug, Clone, Serialize, TS)]
pub struct EventRoundMsg {
    pub event: String,
    pub name: String,
    pub round: i64,
    pub board: i64,
    pub table: String,
    pub game: String,
    pub seat: usize,
    pub opponent: String,
}

/// An event's end, as its players, organiser and arbiters are told.
#[derive(Debug, Clone, Serialize, TS)]
pub struct EventEndedMsg {
    pub event: String,
    pub name: String,
    /// `rounds_played`: all its rounds were played; `no_pairing`: no legal
    /// pairing (FIDE C.04 absolute criteria) remains for the next round;
    /// `no_players`: nobody is left to pair.
    pub reason: String,
    /// The rounds played.
    pub rounds: i64,
    /// In words (English), for a log or an organiser.
    pub detail: String,
    pub at: i64,
}

/// `event.action`: an arbiter's action, sent to both players of the game.
#[derive(Debug, Clone, Serialize, TS)]
pub struct EventActionMsg {
    pub event: String,
    /// `warning`, `foul`, `violation`, `restore`, `clock`, `pause`, `resume`,
    /// `refer`, `adjudicate`, `forfeit`, `disqualify`, `decide`.
    pub kind: String,
    pub player: String,
    pub arbiter: String,
    pub reason: String,
    pub round: Option<i64>,
    pub board: Option<i64>,
    pub table: Option<String>,
    pub at: i64,
}

/// `hello`: the protocol's version, who this socket is, and every game hosted
/// here with its descriptor.
#[derive(Debug, Clone, Serialize, TS)]
pub struct Hello {
    pub protocol: u32,
    pub user: Option<UserInfo>,
    pub games: Vec<String>,
    pub game_info: Vec<Descriptor>,
    pub server_time: i64,
}

/// `ack`: what the request did.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(untagged)]
pub enum Ack {
    /// A table command: the table's version after it.
    Version { table: String, v: u64 },
    /// `play_computer`: the new table and the player's seat at it.
    Seated { table: String, seat: u8 },
    /// `create`: the new table and its invitation link.
    Created { table: String, invite: String },
    /// `unwatch`, or a `seek` matched at once: the table.
    Table { table: String },
    /// `lobby.unsubscribe`.
    Game { game: String },
    /// `seek` waiting for a match.
    Seeking { seeking: bool },
    /// `seek.cancel`: whether a seek was waiting; `analyse.stop`: whether a
    /// search was running.
    Cancelled { cancelled: bool },
    /// `chat`, `chat.post`: the line's id.
    Line { line: i64 },
    /// `chat.join` (true), `chat.leave` (false).
    Joined { joined: bool },
    /// `chat.report`: the report's id.
    Report { report: i64 },
    /// `event.follow`, `event.unfollow`: the event.
    Event { event: String },
}

/// `error`: a typed code, a message for people, and the table it concerns.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct ErrorMsg {
    pub code: String,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub table: Option<String>,
}

impl ErrorMsg {
    pub fn new(err: &ApiError, table: Option<&str>) -> Self {
        ErrorMsg {
            code: err.code.to_string(),
            message: err.message.clone(),
            table: table.map(str::to_string),
        }
    }
}

/// One batch of events as a table broadcast it: the version before and after.
#[derive(Debug, Clone, Serialize, TS)]
pub struct Batch {
    pub from: u64,
    pub v: u64,
    /// The table's events (`qiyuan_table::Event`), serialised once: kept as
    /// their JSON text (one allocation a batch in a table's history, where a
    /// `Value` tree took dozens) and written out as it is.
    #[ts(type = "Array<Event>")]
    pub events: Box<RawValue>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub ratings: Option<Vec<RatingChange>>,
}

impl Batch {
    /// A batch's events as their JSON text (`null` should they not serialise).
    pub fn events_text(events: &impl Serialize) -> Box<RawValue> {
        serde_json::value::to_raw_value(events)
            .unwrap_or_else(|_| RawValue::from_string("null".into()).expect("null is JSON"))
    }
}

/// A player's rating change when a rated game ends.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct RatingChange {
    pub seat: usize,
    pub user: String,
    pub pool: String,
    pub before: i64,
    pub after: i64,
    pub diff: i64,
    pub provisional: bool,
}

/// `sync`: the batches missed since `since`, and the table now.
#[derive(Debug, Clone, Serialize, TS)]
pub struct SyncMsg {
    pub table: String,
    pub v: u64,
    pub since: Option<u64>,
    /// Whether `batches` holds everything after `since`.
    pub complete: bool,
    pub batches: Vec<Batch>,
    /// The table as this viewer sees it at version `v` (`qiyuan_table::TableView`
    /// with the game's own view as `board`).
    #[ts(type = "TableView<BoardView>")]
    pub state: Value,
}

/// `event`: a batch, and what it changed in the table as this viewer sees it:
/// the patch from the view this socket last received to its view after the
/// batch (see [`crate::protocol::patch`]).
#[derive(Debug, Clone, Serialize, TS)]
pub struct EventMsg {
    pub table: String,
    #[serde(flatten)]
    pub batch: Batch,
    pub patch: Vec<PatchOp>,
}

/// `lag`: each seat's measured lag (round trip, ms; `null`: no player, a
/// computer, or nothing measured yet) at server time `at`, as `seats[i].lag_ms`
/// in table views has it.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct LagMsg {
    pub table: String,
    pub at: u64,
    pub seats: Vec<Option<u64>>,
}

/// `lobby`.
#[derive(Debug, Clone, Serialize, TS)]
pub struct LobbyPage {
    pub game: String,
    pub tables: Vec<TableSummary>,
    /// Whether further tables can be listed over HTTP.
    pub more: bool,
}

impl ServerMsg {
    /// An `error` about `table`, if it concerns one.
    pub fn error(err: &ApiError, table: Option<&str>) -> Self {
        crate::metrics::count_error(err.code);
        ServerMsg::Error(ErrorMsg::new(err, table))
    }

    /// Serialised, with the id of the request it answers.
    pub fn encode(&self, id: Option<&Value>) -> String {
        encode(self, id)
    }
}

/// Serialises a server message, with the id of the request it answers.
pub fn encode(msg: &ServerMsg, id: Option<&Value>) -> String {
    #[derive(Serialize)]
    struct Envelope<'a> {
        #[serde(flatten)]
        msg: &'a ServerMsg,
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<&'a Value>,
    }
    serde_json::to_string(&Envelope { msg, id }).unwrap_or_else(|_| {
        r#"{"t":"error","d":{"code":"internal","message":"unserialisable message"}}"#.into()
    })
}

/// The TypeScript declaration of the server's message union.
pub fn server_msg_decl() -> String {
    ServerMsg::decl(&ts_rs::Config::new().with_large_int("number"))
}

/// The TypeScript declarations of every server and client message and what it
/// carries, as committed in `web/src/net/generated/protocol.ts`.
pub fn typescript() -> String {
    let cfg = ts_rs::Config::new().with_large_int("number");
    let decls = [
        ServerMsg::decl(&cfg),
        Hello::decl(&cfg),
        Ack::decl(&cfg),
        ErrorMsg::decl(&cfg),
        SyncMsg::decl(&cfg),
        EventMsg::decl(&cfg),
        Batch::decl(&cfg),
        PatchOp::decl(&cfg),
        PathKey::decl(&cfg),
        RatingChange::decl(&cfg),
        LagMsg::decl(&cfg),
        LobbyPage::decl(&cfg),
        EventRoundMsg::decl(&cfg),
        EventActionMsg::decl(&cfg),
        EventEndedMsg::decl(&cfg),
        ChatMsg::decl(&cfg),
        ChatPlayersMsg::decl(&cfg),
        ChatRoom::decl(&cfg),
        super::chat::ChatPlace::decl(&cfg),
        super::chat::PlaceLine::decl(&cfg),
        super::chat::MentionAt::decl(&cfg),
        Notification::decl(&cfg),
        ChallengeNote::decl(&cfg),
        TableSummary::decl(&cfg),
        crate::live::SeatSummary::decl(&cfg),
        UserInfo::decl(&cfg),
        Descriptor::decl(&cfg),
        crate::registry::RecordFormat::decl(&cfg),
        crate::registry::TimePreset::decl(&cfg),
        crate::registry::OptionPresets::decl(&cfg),
        crate::registry::OptionPreset::decl(&cfg),
        crate::registry::ApiVariant::decl(&cfg),
        crate::registry::RatingPools::decl(&cfg),
        crate::bots::BotLevel::decl(&cfg),
        analysis::Position::decl(&cfg),
        analysis::AnalysisMsg::decl(&cfg),
        analysis::Line::decl(&cfg),
        relations::Presence::decl(&cfg),
        relations::FollowedPerson::decl(&cfg),
        relations::Following::decl(&cfg),
        relations::RelationView::decl(&cfg),
        relations::PresenceMsg::decl(&cfg),
        invitations::InvitationNote::decl(&cfg),
        invitations::InviteLink::decl(&cfg),
        invitations::LinkView::decl(&cfg),
        invitations::SeatedAt::decl(&cfg),
        qiyuan_table::Status::decl(&cfg),
        qiyuan_table::EndDetail::decl(&cfg),
        qiyuan_table::TimeControl::decl(&cfg),
        // The table's views (`sync`'s `state`, and what patches apply to).
        qiyuan_table::Event::decl(&cfg),
        qiyuan_table::TableView::<()>::decl(&cfg),
        qiyuan_table::GameView::<()>::decl(&cfg),
        qiyuan_table::SeatView::decl(&cfg),
        qiyuan_table::MoveView::decl(&cfg),
        qiyuan_table::Proposal::decl(&cfg),
        qiyuan_table::Settings::decl(&cfg),
        qiyuan_table::ClockView::decl(&cfg),
        qiyuan_table::clock::SeatClockView::decl(&cfg),
        qiyuan_game::Seat::decl(&cfg),
        qiyuan_game::Viewer::decl(&cfg),
        qiyuan_game::Turn::decl(&cfg),
        qiyuan_game::Setup::decl(&cfg),
        qiyuan_game::SeatResult::decl(&cfg),
        qiyuan_game::EndReason::decl(&cfg),
        qiyuan_game::Outcome::decl(&cfg),
        qiyuan_game::Claim::decl(&cfg),
    ];
    let mut decls: Vec<String> = decls.into();
    decls.extend(super::client::declarations(&cfg));
    // Each compiled game's own view (the `board` of a game's view).
    let mut boards: Vec<String> = Vec::new();
    #[cfg(feature = "chess")]
    {
        use qiyuan_chess::{ChessView, PlayedMove};
        decls.extend([ChessView::decl(&cfg), PlayedMove::decl(&cfg)]);
        boards.push(ChessView::name(&cfg));
    }
    #[cfg(feature = "xiangqi")]
    {
        use qiyuan_xiangqi::{Color, Ending, LastMove, XiangqiView};
        decls.extend([
            XiangqiView::decl(&cfg),
            LastMove::decl(&cfg),
            Ending::decl(&cfg),
        ]);
        decls.push(Color::decl(&cfg));
        boards.push(XiangqiView::name(&cfg));
    }
    #[cfg(feature = "go")]
    {
        use qiyuan_go::{Captures, GoPhase, GoView, MarkingView};
        decls.extend([
            GoView::decl(&cfg),
            GoPhase::decl(&cfg),
            Captures::decl(&cfg),
            MarkingView::decl(&cfg),
        ]);
        decls.push(qiyuan_go::Color::decl(&cfg));
        boards.push(GoView::name(&cfg));
    }
    #[cfg(feature = "doudizhu")]
    {
        use qiyuan_doudizhu::game::{Bid, Phase, Turned, View};
        decls.extend([
            View::decl(&cfg),
            Bid::decl(&cfg),
            Turned::decl(&cfg),
            Phase::decl(&cfg),
        ]);
        boards.push(View::name(&cfg));
    }
    if boards.is_empty() {
        boards.push("never".into());
    }
    // The game's own view in a table view: one per game hosted.
    decls.push(format!("type BoardView = {};", boards.join(" | ")));
    decls.push(<Value as TS>::decl(&cfg));
    let mut out = String::from(
        "// Generated from the server's Rust types (crates/server/src/protocol/):\n\
         // do not edit. `QIYUAN_BLESS=1 cargo test -p qiyuan-server --test it protocol_types`\n\
         // writes it again; that test fails when this file is out of date.\n",
    );
    for decl in decls {
        out.push_str("\nexport ");
        out.push_str(&decl);
        out.push('\n');
    }
    out.push_str(
        "\n/** A server message as it arrives: with the id of the request it answers. */\n\
         export type Envelope = ServerMsg & { id?: string | number };\n\
         \n/** A client message as it is sent: with an id for its reply to carry. */\n\
         export type Outgoing = ClientMsg & { id?: string | number };\n",
    );
    out
}
