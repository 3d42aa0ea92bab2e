//! The fuzz targets' committed inputs replayed as ordinary tests, so that CI checks
//! every crash the fuzzers ever found without running libFuzzer (scripts/fuzz.sh
//! runs the fuzzers; fuzz/src/lib.rs states what each target checks).

use qiyuan_doudizhu::{Card, Counts, Doudizhu, Options, classify};
use qiyuan_game::{Game, Setup};
use qiyuan_testkit::fs::fuzz_texts;

#[test]
fn doudizhu_cards_inputs() {
    for (path, text) in fuzz_texts("doudizhu_cards") {
        let _ = text.parse::<Card>();
        if let Ok(counts) = Counts::parse(&text) {
            assert_eq!(Counts::parse(&counts.to_string()), Ok(counts), "{path}");
            let _ = classify(counts);
        }
        let _ = Doudizhu::new(&Options::default(), &Setup::Position(text));
    }
}
