//! The fuzz targets' committed inputs replayed as ordinary tests, so that CI checks
//! every crash the fuzzers ever found without running libFuzzer (scripts/fuzz.sh
//! runs the fuzzers; fuzz/src/lib.rs states what each target checks).

use qiyuan_server::Config;
use qiyuan_server::protocol::{self, table_types};
use qiyuan_testkit::fs::fuzz_inputs;
use serde_json::Value;

/// The message types that are not table commands, in the order the
/// `protocol_command` target numbers them (before [`table_types`]).
const OTHER_TYPES: &[&str] = &[
    "ping",
    "lobby.subscribe",
    "lobby.unsubscribe",
    "create",
    "seek",
    "seek.cancel",
    "watch",
    "unwatch",
];

/// A frame parses, or its error goes back as a valid `error` envelope.
fn check_frame(path: &str, frame: &str) {
    if let Err((err, id)) = protocol::parse(frame) {
        let reply = protocol::error(&err, None, id.as_ref());
        let value: Value =
            serde_json::from_str(&reply).unwrap_or_else(|e| panic!("{path}: {reply}: {e}"));
        assert_eq!(value["t"], "error", "{path}: {reply}");
    }
}

#[test]
fn protocol_envelope_inputs() {
    for (path, bytes) in fuzz_inputs("protocol_envelope") {
        check_frame(&path, &String::from_utf8_lossy(&bytes));
    }
}

#[test]
fn protocol_command_inputs() {
    let mut parsed = 0;
    for (path, bytes) in fuzz_inputs("protocol_command") {
        let Some((&pick, rest)) = bytes.split_first() else {
            continue;
        };
        let i = usize::from(pick) % (OTHER_TYPES.len() + table_types().len());
        let t = OTHER_TYPES
            .get(i)
            .unwrap_or_else(|| &table_types()[i - OTHER_TYPES.len()]);
        let frame = format!(
            r#"{{"t":"{t}","id":7,"d":{}}}"#,
            String::from_utf8_lossy(rest)
        );
        check_frame(&path, &frame);
        parsed += usize::from(protocol::parse(&frame).is_ok());
    }
    // The seeds are one valid command of every type.
    assert!(
        parsed >= OTHER_TYPES.len() + table_types().len(),
        "{parsed}"
    );
}

#[test]
fn config_toml_inputs() {
    for (path, bytes) in fuzz_inputs("config_toml") {
        if let Ok(config) = Config::parse(&String::from_utf8_lossy(&bytes)) {
            assert!(!config.database_url().is_empty(), "{path}");
            let _ = config.check();
        }
    }
}
