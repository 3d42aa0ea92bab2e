//! The fuzz targets' committed inputs replayed as ordinary tests, so that CI checks
//! every crash the fuzzers ever found without running libFuzzer (scripts/fuzz.sh
//! runs the fuzzers; fuzz/src/lib.rs states what each target checks).

use qiyuan_swiss::trf::{self, TrfError, TrfErrorKind};
use qiyuan_testkit::fs::fuzz_texts;

#[test]
fn swiss_trf_inputs() {
    for (path, text) in fuzz_texts("swiss_trf") {
        if let Ok(tournament) = trf::parse(&text) {
            let written = trf::write(&tournament);
            assert!(trf::parse(&written).is_ok(), "{path}: {written}");
        }
    }
}

/// Found by `swiss_trf` (fuzz/regressions/swiss_trf/points-wider-than-their-columns):
/// points written `692` read as 692.0, which TRF writes in five characters, so the
/// file written back no longer read. Points above 99.9 do not fit columns 81-84 and
/// are refused; 99.9 still reads and writes back.
#[test]
fn points_wider_than_their_columns_are_refused() {
    let line = |points: &str| {
        format!(
            "001    1      Test0001 Player0001               1990                            {points}    1"
        )
    };
    assert_eq!(
        trf::parse(&format!("012 Club\n{}\n", line(" 692"))),
        Err(TrfError {
            line: 2,
            kind: TrfErrorKind::Points
        })
    );
    assert!(trf::parse(&line("100.")).is_err());
    let fits = trf::parse(&line("99.9")).unwrap();
    assert_eq!(fits.players[0].points, 999);
    assert_eq!(trf::parse(&trf::write(&fits)), Ok(fits));
}
