//! TRF-16: every file of the data folders reads and writes back unchanged, and
//! no input at all makes the reader panic.

use std::path::Path;

use proptest::prelude::*;

const DIRS: [&str; 2] = [
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data/swiss-dutch"
    ),
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data/swiss-dutch-large"
    ),
];

#[test]
fn every_data_file_round_trips() {
    let mut checked = 0;
    for dir in DIRS {
        let dir = Path::new(dir);
        assert!(
            dir.is_dir(),
            "missing reference data folder {}",
            dir.display()
        );
        for entry in std::fs::read_dir(dir).expect("readable data folder") {
            let path = entry.expect("directory entry").path();
            if path.extension().is_none_or(|e| e != "trf") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("readable TRF");
            let normalised: String = text
                .lines()
                .map(|l| format!("{}\n", l.trim_end()))
                .collect();
            let t = qiyuan_swiss::trf::parse(&text)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let written = qiyuan_swiss::trf::write(&t);
            assert_eq!(written, normalised, "{} changed on writing", path.display());
            let again = qiyuan_swiss::trf::parse(&written).expect("written file reads");
            assert_eq!(again, t, "{} reads differently", path.display());
            checked += 1;
        }
    }
    println!("TRF round trip: {checked} files");
    assert!(checked >= 832);
}

proptest! {
    #[test]
    fn arbitrary_text_never_panics(s in ".{0,400}") {
        let _ = qiyuan_swiss::trf::parse(&s);
    }

    #[test]
    fn arbitrary_player_lines_never_panic(tail in "[ 0-9wbWBLDHFUZ=+\\-.x]{0,200}") {
        let line = format!("001 {tail}");
        if let Ok(t) = qiyuan_swiss::trf::parse(&line) {
            // Whatever was read can be written and read again, and paired
            // without a panic.
            let again = qiyuan_swiss::trf::parse(&qiyuan_swiss::trf::write(&t));
            prop_assert!(again.is_ok());
            let _ = qiyuan_swiss::pair(&t);
        }
    }
}
