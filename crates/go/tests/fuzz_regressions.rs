//! The fuzz targets' committed inputs replayed as ordinary tests, so that CI checks
//! every crash the fuzzers ever found without running libFuzzer (scripts/fuzz.sh
//! runs the fuzzers; fuzz/src/lib.rs states what each target checks).

use qiyuan_game::{Game, Turn};
use qiyuan_go::{Go, Options, SgfGame};

#[test]
fn go_sgf_inputs() {
    for (path, text) in inputs("go_sgf") {
        if let Ok(game) = SgfGame::parse(&text) {
            let _ = game.final_position();
            let written = game.to_sgf();
            assert!(SgfGame::parse(&written).is_ok(), "{path}: {written}");
        }
        // What the table's load accepts replays.
        if let Ok((setup, moves)) = Go::load(&Options::default(), &text) {
            let mut game =
                Go::new(&Options::default(), &setup).unwrap_or_else(|e| panic!("{path}: {e}"));
            for m in moves {
                let Turn::Seat(seat) = game.turn() else {
                    panic!("{path}: {m} after the end");
                };
                game.act(seat, &m)
                    .unwrap_or_else(|e| panic!("{path}: {m}: {e}"));
            }
        }
    }
}

/// Every committed input of a fuzz target: its seeds (`fuzz/seeds/TARGET/`) and the
/// inputs it once crashed on (`fuzz/regressions/TARGET/`), with their paths.
fn inputs(target: &str) -> Vec<(String, String)> {
    let fuzz = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut found = Vec::new();
    for dir in ["seeds", "regressions"] {
        let Ok(entries) = std::fs::read_dir(fuzz.join(dir).join(target)) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            let bytes = std::fs::read(&path).unwrap();
            found.push((
                path.display().to_string(),
                String::from_utf8_lossy(&bytes).into_owned(),
            ));
        }
    }
    assert!(
        !found.is_empty(),
        "no committed inputs for the fuzz target {target}"
    );
    found
}
