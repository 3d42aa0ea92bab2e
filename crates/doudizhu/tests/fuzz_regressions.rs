//! The fuzz targets' committed inputs replayed as ordinary tests, so that CI checks
//! every crash the fuzzers ever found without running libFuzzer (scripts/fuzz.sh
//! runs the fuzzers; fuzz/src/lib.rs states what each target checks).

use qiyuan_doudizhu::{Card, Counts, Doudizhu, Options, classify};
use qiyuan_game::{Game, Setup};

#[test]
fn doudizhu_cards_inputs() {
    for (path, text) in inputs("doudizhu_cards") {
        let _ = text.parse::<Card>();
        if let Ok(counts) = Counts::parse(&text) {
            assert_eq!(Counts::parse(&counts.to_string()), Ok(counts), "{path}");
            let _ = classify(counts);
        }
        let _ = Doudizhu::new(&Options::default(), &Setup::Position(text));
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
