//! The WebSocket protocol's messages (see docs/protocol.md). Every message is one
//! envelope, `{"t": type, "d": data, "id": optional}`; a client's `id` comes back on
//! the reply (`ack` or `error`) so it can match them. Parsing happens here, at the
//! edge: anything malformed becomes a typed error and never reaches a table.

use qiyuan_game::{Claim, Seat};
use qiyuan_table::{Settings, TimeControl};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::ApiError;

pub mod flat;
pub mod out;
pub mod patch;

pub use out::{Ack, ServerMsg};

/// The protocol's version, sent in `hello`.
pub const VERSION: u32 = 1;

#[derive(Debug, Deserialize)]
struct Envelope {
    t: String,
    #[serde(default)]
    d: Value,
    #[serde(default)]
    id: Option<Value>,
}

/// A parsed client message.
#[derive(Debug, Clone, PartialEq)]
pub enum ClientMsg {
    /// A ping; `lag` is the client's own estimate of its round trip, in
    /// milliseconds (as Lichess's client reports it), believed only up to the cap
    /// of [`qiyuan_table::clock::LagEstimate::MAX_SAMPLE`] and the quota.
    Ping {
        lag: Option<u64>,
    },
    LobbySubscribe {
        game: String,
    },
    LobbyUnsubscribe {
        game: String,
    },
    Create(CreateTable),
    /// Play the computer: a new table with the user and computer players seated
    /// and the game started (see [`crate::computer`]).
    PlayComputer(PlayComputer),
    /// 单机 hot-seat: a private table where the user plays every seat (see
    /// [`crate::solo`]).
    Hotseat(crate::solo::Hotseat),
    Seek(Seek),
    SeekCancel,
    /// The analysis board: a position, its legal moves and the engine's lines
    /// (see [`crate::analysis`]).
    Analyse(crate::analysis::Analyse),
    AnalyseStop,
    Watch {
        table: String,
        since: Option<u64>,
    },
    Unwatch {
        table: String,
    },
    /// A command for a table, acting as the connection's user.
    Table {
        table: String,
        act: TableAct,
    },
}

/// What a user can do at a table. (Serialised only between nodes, see
/// [`crate::cluster`]; clients send [`ClientMsg::Table`].)
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
}

/// `create`: a new table.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateTable {
    pub game: String,
    #[serde(default)]
    pub time: Option<TimeControl>,
    #[serde(default)]
    pub rated: bool,
    #[serde(default)]
    pub options: Value,
    /// Sit down at once at this seat.
    #[serde(default)]
    pub seat: Option<Seat>,
    #[serde(default = "yes")]
    pub takebacks: bool,
    /// Where the game starts (读入): `"standard"` or `{"position": FEN}`.
    #[serde(default)]
    pub setup: Option<qiyuan_game::Setup>,
}

fn yes() -> bool {
    true
}

/// A computer player's level as a client names it: its key (`"3"`, `"strong"`,
/// `"stockfish"`) or, for the numbered levels, the number (`3`).
#[derive(Debug, Clone, PartialEq, Eq)]
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
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum Colour {
    /// A seat by number (Doudizhu: 0, 1 or 2).
    Seat(Seat),
    /// `first`, `second`, `random`, or a side the game names (`white`, `red`,
    /// `black`: see the game's `seat_names`).
    Named(String),
}

/// `play_computer`: a table against the computer, the game started at once.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayComputer {
    pub game: String,
    /// The computer player's level (default: the game's first).
    #[serde(default)]
    pub level: Option<LevelKey>,
    /// The player's seat (default: random).
    #[serde(default)]
    pub colour: Option<Colour>,
    /// The clock (default: the game's first preset).
    #[serde(default)]
    pub time: Option<TimeControl>,
    /// The game's rule options (board size, komi, ...).
    #[serde(default)]
    pub options: Value,
    #[serde(default)]
    pub setup: Option<qiyuan_game::Setup>,
    /// 单机: a private table, listed nowhere (see [`crate::solo`]).
    #[serde(default)]
    pub private: bool,
}

/// `seek`: quick pairing with someone who wants the same game and time.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Seek {
    pub game: String,
    pub time: TimeControl,
    #[serde(default)]
    pub rated: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GameOnly {
    game: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WatchData {
    table: String,
    #[serde(default)]
    since: Option<u64>,
}

/// The fields every table command shares: which table, and optionally which game
/// and which seat the client believes it is acting for (checked, never trusted).
#[derive(Deserialize)]
struct TableData {
    table: String,
    #[serde(default)]
    game: Option<String>,
    #[serde(default)]
    seat: Option<Seat>,
    #[serde(default)]
    action: Option<String>,
    #[serde(default)]
    settings: Option<Settings>,
    #[serde(default)]
    proposal: Option<u32>,
    #[serde(default)]
    with: Option<Seat>,
    #[serde(default)]
    claim: Option<Claim>,
    /// `add_bot`: the computer player's strength.
    #[serde(default)]
    level: Option<LevelKey>,
    /// `move`: the client's report of its lag, in milliseconds.
    #[serde(default)]
    lag: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PingData {
    #[serde(default)]
    lag: Option<u64>,
}

/// A message that parsed, with the client's request id.
#[derive(Debug)]
pub struct Request {
    pub msg: ClientMsg,
    pub id: Option<Value>,
    /// For table commands: the game and seat the client named, to be checked.
    pub expect_game: Option<String>,
    pub expect_seat: Option<Seat>,
}

/// Parses one text frame. The error carries the request id when it could be read.
pub fn parse(text: &str) -> Result<Request, (ApiError, Option<Value>)> {
    let env: Envelope = serde_json::from_str(text).map_err(|e| {
        (
            ApiError::bad_request("malformed_json", format!("not a message envelope: {e}")),
            None,
        )
    })?;
    let id = env.id.clone();
    let fail = |e: ApiError| (e, id.clone());
    let mut expect_game = None;
    let mut expect_seat = None;
    let msg = match env.t.as_str() {
        "ping" => ClientMsg::Ping {
            lag: data::<PingData>(&env.d).map_err(fail)?.lag,
        },
        "lobby.subscribe" => ClientMsg::LobbySubscribe {
            game: data::<GameOnly>(&env.d).map_err(fail)?.game,
        },
        "lobby.unsubscribe" => ClientMsg::LobbyUnsubscribe {
            game: data::<GameOnly>(&env.d).map_err(fail)?.game,
        },
        "create" => ClientMsg::Create(data(&env.d).map_err(fail)?),
        "play_computer" => ClientMsg::PlayComputer(data(&env.d).map_err(fail)?),
        "hotseat" => ClientMsg::Hotseat(data(&env.d).map_err(fail)?),
        "seek" => ClientMsg::Seek(data(&env.d).map_err(fail)?),
        "seek.cancel" => ClientMsg::SeekCancel,
        "analyse" => ClientMsg::Analyse(data(&env.d).map_err(fail)?),
        "analyse.stop" => ClientMsg::AnalyseStop,
        "watch" => {
            let w: WatchData = data(&env.d).map_err(fail)?;
            ClientMsg::Watch {
                table: w.table,
                since: w.since,
            }
        }
        "unwatch" => ClientMsg::Unwatch {
            table: data::<WatchData>(&env.d).map_err(fail)?.table,
        },
        t => {
            let Some(kind) = TABLE_TYPES.iter().find(|k| **k == t) else {
                return Err(fail(ApiError::bad_request(
                    "unknown_type",
                    format!("unknown message type {t:?}"),
                )));
            };
            let d: TableData = data(&env.d).map_err(fail)?;
            expect_game = d.game.clone();
            // `sit` names the seat wanted; every other command may name the seat
            // the client believes it acts for, which is checked.
            expect_seat = if matches!(*kind, "sit" | "add_bot" | "remove_bot") {
                None
            } else {
                d.seat
            };
            let act = table_act(kind, &d).map_err(fail)?;
            ClientMsg::Table {
                table: d.table,
                act,
            }
        }
    };
    Ok(Request {
        msg,
        id,
        expect_game,
        expect_seat,
    })
}

/// Every client message type that is not a table command.
pub const CLIENT_TYPES: &[&str] = &[
    "ping",
    "lobby.subscribe",
    "lobby.unsubscribe",
    "create",
    "seek",
    "seek.cancel",
    "watch",
    "unwatch",
    "play_computer",
    "hotseat",
    "analyse",
    "analyse.stop",
];

/// Every table command's type name.
pub const TABLE_TYPES: &[&str] = &[
    "sit",
    "stand",
    "propose",
    "accept",
    "ready",
    "unready",
    "swap",
    "move",
    "draw.offer",
    "draw.accept",
    "draw.decline",
    "takeback.request",
    "takeback.accept",
    "takeback.decline",
    "claim",
    "resign",
    "abort",
    "leave",
    "rematch",
    "add_bot",
    "remove_bot",
    // Last: the fuzz target numbers the types in this order, and its committed
    // seeds keep their numbers.
    "decline",
];

fn table_act(kind: &str, d: &TableData) -> Result<TableAct, ApiError> {
    fn need<T: Clone>(v: &Option<T>, field: &str, kind: &str) -> Result<T, ApiError> {
        v.clone().ok_or_else(|| {
            ApiError::bad_request("bad_message", format!("{kind} needs the field {field:?}"))
        })
    }
    Ok(match kind {
        "sit" => TableAct::Sit {
            seat: need(&d.seat, "seat", kind)?,
        },
        "stand" => TableAct::Stand,
        "propose" => TableAct::Propose {
            settings: need(&d.settings, "settings", kind)?,
        },
        "accept" => TableAct::Accept {
            proposal: need(&d.proposal, "proposal", kind)?,
        },
        "decline" => TableAct::Decline {
            proposal: need(&d.proposal, "proposal", kind)?,
        },
        "ready" => TableAct::Ready {
            proposal: d.proposal,
        },
        "unready" => TableAct::Unready,
        "swap" => TableAct::Swap {
            with: need(&d.with, "with", kind)?,
        },
        "move" => TableAct::Move {
            action: need(&d.action, "action", kind)?,
            lag: d.lag,
        },
        "draw.offer" => TableAct::DrawOffer,
        "draw.accept" => TableAct::DrawAccept,
        "draw.decline" => TableAct::DrawDecline,
        "takeback.request" => TableAct::TakebackRequest,
        "takeback.accept" => TableAct::TakebackAccept,
        "takeback.decline" => TableAct::TakebackDecline,
        "claim" => TableAct::Claim {
            claim: need(&d.claim, "claim", kind)?,
        },
        "resign" => TableAct::Resign,
        "abort" => TableAct::Abort,
        "leave" => TableAct::Leave,
        "add_bot" => TableAct::AddBot {
            seat: need(&d.seat, "seat", kind)?,
            level: d.level.clone().map(|l| l.0),
        },
        "remove_bot" => TableAct::RemoveBot {
            seat: need(&d.seat, "seat", kind)?,
        },
        _ => TableAct::Rematch,
    })
}

fn data<T: DeserializeOwned>(d: &Value) -> Result<T, ApiError> {
    let d = if d.is_null() {
        &Value::Object(Default::default())
    } else {
        d
    };
    T::deserialize(d).map_err(|e| ApiError::bad_request("bad_message", e.to_string()))
}

/// An `error` message, serialised (see [`ServerMsg::error`]).
pub fn error(err: &ApiError, table: Option<&str>, id: Option<&Value>) -> String {
    ServerMsg::error(err, table).encode(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelopes_parse_into_typed_messages() {
        let r = parse(r#"{"t":"move","d":{"table":"abc","action":"e2e4"},"id":7}"#).unwrap();
        assert_eq!(
            r.msg,
            ClientMsg::Table {
                table: "abc".into(),
                act: TableAct::Move {
                    action: "e2e4".into(),
                    lag: None,
                }
            }
        );
        assert_eq!(r.id, Some(Value::from(7)));
        assert_eq!(
            parse(r#"{"t":"ping"}"#).unwrap().msg,
            ClientMsg::Ping { lag: None }
        );
        assert_eq!(
            parse(r#"{"t":"ping","d":{"lag":120}}"#).unwrap().msg,
            ClientMsg::Ping { lag: Some(120) }
        );
        let r = parse(r#"{"t":"move","d":{"table":"a","action":"e2e4","lag":90}}"#).unwrap();
        assert!(matches!(
            r.msg,
            ClientMsg::Table {
                act: TableAct::Move { lag: Some(90), .. },
                ..
            }
        ));
        // A lag that is not a count of milliseconds is refused, typed.
        assert_eq!(
            parse(r#"{"t":"ping","d":{"lag":-5}}"#).unwrap_err().0.code,
            "bad_message"
        );
    }

    #[test]
    fn bad_input_gets_typed_errors() {
        assert_eq!(parse("{not json").unwrap_err().0.code, "malformed_json");
        let (e, id) = parse(r#"{"t":"fly","id":"x"}"#).unwrap_err();
        assert_eq!((e.code, id), ("unknown_type", Some(Value::from("x"))));
        assert_eq!(
            parse(r#"{"t":"move","d":{"table":"a"}}"#)
                .unwrap_err()
                .0
                .code,
            "bad_message"
        );
        assert_eq!(
            parse(r#"{"t":"move","d":[1]}"#).unwrap_err().0.code,
            "bad_message"
        );
        assert_eq!(
            parse(r#"{"t":"sit","d":{"table":"a","seat":-1}}"#)
                .unwrap_err()
                .0
                .code,
            "bad_message"
        );
    }
}
