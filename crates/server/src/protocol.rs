//! The WebSocket protocol's messages (see docs/protocol.md). Every message is one
//! envelope, `{"t": type, "d": data, "id": optional}`; a client's `id` comes back on
//! the reply (`ack` or `error`) so it can match them. Parsing happens here, at the
//! edge: anything malformed becomes a typed error and never reaches a table.

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde::de::value::MapDeserializer;
use serde_json::Value;

use crate::error::ApiError;

pub mod analysis;
pub mod chat;
pub mod client;
pub mod flat;
pub mod invitations;
pub mod out;
pub mod patch;
pub mod relations;

pub use client::{
    Addressed, ClientMsg, Colour, CreateTable, HallMsg, Hotseat, LevelKey, PlayComputer, Seek,
    TableAct, TableCommand,
};
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

/// A message that parsed, with the client's request id.
#[derive(Debug)]
pub struct Request {
    pub msg: ClientMsg,
    pub id: Option<Value>,
}

/// Parses one text frame. The error carries the request id when it could be read.
pub fn parse(text: &str) -> Result<Request, (ApiError, Option<Value>)> {
    let Envelope { t, d, id } = serde_json::from_str(text).map_err(|e| {
        (
            ApiError::bad_request("malformed_json", format!("not a message envelope: {e}")),
            None,
        )
    })?;
    let msg = match read::<TableCommand>(&t, d) {
        Read::Msg(cmd) => Ok(ClientMsg::Table(cmd)),
        Read::Bad(e) => Err(e),
        Read::Unknown(d) => match read::<HallMsg>(&t, d) {
            Read::Msg(msg) => Ok(ClientMsg::Hall(msg)),
            Read::Bad(e) => Err(e),
            Read::Unknown(_) => Err(ApiError::bad_request(
                "unknown_type",
                format!("unknown message type {t:?}"),
            )),
        },
    };
    match msg {
        Ok(msg) => Ok(Request { msg, id }),
        Err(e) => Err((e, id)),
    }
}

/// Every message type that is not a table command, in [`HallMsg`]'s order.
pub fn client_types() -> &'static [&'static str] {
    variants::<HallMsg>()
}

/// Every table command's type, in [`TableCommand`]'s order (the fuzz target
/// numbers them so).
pub fn table_types() -> &'static [&'static str] {
    variants::<TableCommand>()
}

/// A message read as one of the enums `T`.
enum Read<T> {
    Msg(T),
    /// Its data does not fit its type.
    Bad(ApiError),
    /// `T` has no such type: the data, handed back.
    Unknown(Value),
}

/// Reads a message of type `t` with data `d` as a `T`, tagged as the wire is
/// (`{"t", "d"}`). The tag is read alone first: that tells a type `T` does not
/// know from bad data, and reads a type that carries no data (its `d`, if any,
/// is ignored). Missing or `null` data is `{}`.
fn read<T: DeserializeOwned>(t: &str, d: Value) -> Read<T> {
    match T::deserialize(MapDeserializer::<_, TagError>::new(std::iter::once((
        "t", t,
    )))) {
        Ok(msg) => return Read::Msg(msg),
        Err(TagError::Unknown(_)) => return Read::Unknown(d),
        Err(TagError::Other) => {}
    }
    let d = if d.is_null() {
        Value::Object(Default::default())
    } else {
        d
    };
    let tagged = [("t", Value::String(t.to_owned())), ("d", d)];
    match T::deserialize(MapDeserializer::<_, serde_json::Error>::new(
        tagged.into_iter(),
    )) {
        Ok(msg) => Read::Msg(msg),
        Err(e) => Read::Bad(ApiError::bad_request("bad_message", e.to_string())),
    }
}

/// The types an enum tagged as the wire is knows, in its order: serde names
/// them when asked for one it does not know.
fn variants<T: DeserializeOwned>() -> &'static [&'static str] {
    match T::deserialize(MapDeserializer::<_, TagError>::new(std::iter::once((
        "t", "",
    )))) {
        Err(TagError::Unknown(types)) => types,
        _ => &[],
    }
}

/// An error that tells a tag the enum does not know (with the tags it does)
/// from any other.
#[derive(Debug)]
enum TagError {
    Unknown(&'static [&'static str]),
    Other,
}

impl std::fmt::Display for TagError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TagError::Unknown(_) => f.write_str("unknown message type"),
            TagError::Other => f.write_str("the message needs its data"),
        }
    }
}

impl std::error::Error for TagError {}

impl serde::de::Error for TagError {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        TagError::Other
    }

    fn unknown_variant(_: &str, expected: &'static [&'static str]) -> Self {
        TagError::Unknown(expected)
    }
}

/// An `error` message, serialised (see [`ServerMsg::error`]).
pub fn error(err: &ApiError, table: Option<&str>, id: Option<&Value>) -> String {
    ServerMsg::error(err, table).encode(id)
}

#[cfg(test)]
mod tests {
    use qiyuan_game::Seat;

    use super::*;

    /// A parsed table command's table and what it asks.
    fn command(msg: ClientMsg) -> Option<(String, TableAct)> {
        match msg {
            ClientMsg::Table(cmd) => {
                let (at, act) = cmd.into_parts();
                Some((at.table, act))
            }
            ClientMsg::Hall(_) => None,
        }
    }

    #[test]
    fn envelopes_parse_into_typed_messages() {
        let r = parse(r#"{"t":"move","d":{"table":"abc","action":"e2e4"},"id":7}"#).unwrap();
        assert_eq!(
            command(r.msg),
            Some((
                "abc".into(),
                TableAct::Move {
                    action: "e2e4".into(),
                    lag: None,
                }
            ))
        );
        assert_eq!(r.id, Some(Value::from(7)));
        assert_eq!(
            parse(r#"{"t":"ping"}"#).unwrap().msg,
            ClientMsg::Hall(HallMsg::Ping(client::Ping { lag: None }))
        );
        assert_eq!(
            parse(r#"{"t":"ping","d":{"lag":120}}"#).unwrap().msg,
            ClientMsg::Hall(HallMsg::Ping(client::Ping { lag: Some(120) }))
        );
        let r = parse(r#"{"t":"move","d":{"table":"a","action":"e2e4","lag":90}}"#).unwrap();
        assert!(matches!(
            command(r.msg),
            Some((_, TableAct::Move { lag: Some(90), .. }))
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

    #[test]
    fn the_type_lists_come_from_the_enums() {
        let hall = client_types();
        let table = table_types();
        assert_eq!((hall.len(), table.len()), (21, 24));
        // The fuzz target numbers these first, then the table commands.
        assert_eq!(
            hall[..8],
            [
                "ping",
                "lobby.subscribe",
                "lobby.unsubscribe",
                "create",
                "seek",
                "seek.cancel",
                "watch",
                "unwatch"
            ]
        );
        assert_eq!(
            (table[0], table[21], table[23]),
            ("sit", "decline", "trusteeship.off")
        );
        for t in hall.iter().chain(table) {
            let text = format!(r#"{{"t":"{t}","d":{{}}}}"#);
            if let Err((e, _)) = parse(&text) {
                assert_eq!(e.code, "bad_message", "{t}");
            }
        }
    }

    #[test]
    fn table_commands_say_which_seat_is_checked() {
        let parts = |text: &str| match parse(text).unwrap().msg {
            ClientMsg::Table(cmd) => cmd.into_parts(),
            ClientMsg::Hall(msg) => panic!("{msg:?}"),
        };
        let (at, act) = parts(r#"{"t":"sit","d":{"table":"a","seat":1,"game":"chess"}}"#);
        assert_eq!((at.expect_seat, at.game.as_deref()), (None, Some("chess")));
        assert_eq!(act, TableAct::Sit { seat: Seat(1) });
        let (at, act) = parts(r#"{"t":"resign","d":{"table":"a","seat":1,"other":[]}}"#);
        assert_eq!((at.expect_seat, act), (Some(Seat(1)), TableAct::Resign));
        let (at, _) = parts(r#"{"t":"add_bot","d":{"table":"a","seat":1,"level":3}}"#);
        assert_eq!(at.expect_seat, None);
    }

    #[test]
    fn data_is_read_as_it_always_was() {
        // No data, or `null`, is `{}`; a type that carries none ignores it.
        assert!(parse(r#"{"t":"ping","d":null}"#).is_ok());
        assert!(parse(r#"{"t":"seek.cancel","d":5}"#).is_ok());
        assert_eq!(
            parse(r#"{"t":"analyse.stop"}"#).unwrap().msg,
            ClientMsg::Hall(HallMsg::AnalyseStop)
        );
        // Unknown fields: refused outside table commands.
        assert_eq!(
            parse(r#"{"t":"watch","d":{"table":"a","x":1}}"#)
                .unwrap_err()
                .0
                .code,
            "bad_message"
        );
        // The enum read whole agrees with the parser on a well-formed message.
        let text = r#"{"t":"move","d":{"table":"a","action":"e2e4","lag":3}}"#;
        assert_eq!(
            serde_json::from_str::<ClientMsg>(text).unwrap(),
            parse(text).unwrap().msg
        );
    }
}
