//! The fuzz targets' committed inputs replayed as ordinary tests, so that CI checks
//! every crash the fuzzers ever found without running libFuzzer (scripts/fuzz.sh
//! runs the fuzzers; fuzz/src/lib.rs states what each target checks).

use qiyuan_swiss::trf;

#[test]
fn swiss_trf_inputs() {
    for (path, text) in inputs("swiss_trf") {
        if let Ok(tournament) = trf::parse(&text) {
            let written = trf::write(&tournament);
            assert!(trf::parse(&written).is_ok(), "{path}: {written}");
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
    assert!(!found.is_empty(), "no committed inputs for the fuzz target {target}");
    found
}
