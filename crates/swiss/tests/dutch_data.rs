//! Every FIDE Dutch case of the shared data: our pairing must equal bbpPairings
//! 6.0.0's, pairs and colours.

use std::path::{Path, PathBuf};

const SMALL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../shared/data/swiss-dutch"
);
const LARGE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../shared/data/swiss-dutch-large"
);

fn cases(dir: &str) -> Vec<PathBuf> {
    let dir = Path::new(dir);
    assert!(
        dir.is_dir(),
        "missing reference data folder {}",
        dir.display()
    );
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("readable data folder")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "trf"))
        .collect();
    v.sort();
    v
}

fn normalise(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = text.lines().skip(1).map(|l| l.trim().to_string()).collect();
    lines.sort();
    lines
}

/// Returns the names of the cases that differ.
fn check(dir: &str, filter: Option<&str>) -> (usize, Vec<String>) {
    let mut checked = 0;
    let mut failed = Vec::new();
    for trf in cases(dir) {
        let name = trf.file_name().unwrap().to_string_lossy().to_string();
        if filter.is_some_and(|f| !name.contains(f)) {
            continue;
        }
        let text = std::fs::read_to_string(&trf).expect("readable TRF");
        let want = std::fs::read_to_string(trf.with_extension("pairs")).expect("pairs file");
        let t = qiyuan_swiss::trf::parse(&text).expect("valid TRF");
        checked += 1;
        match qiyuan_swiss::pair(&t) {
            Ok(p) => {
                if normalise(&p.to_pairs_text()) != normalise(&want) {
                    failed.push(name);
                }
            }
            Err(e) => failed.push(format!("{name} ({e})")),
        }
    }
    (checked, failed)
}

#[test]
fn dutch_pairings_equal_bbppairings() {
    let filter = std::env::var("SWISS_CASE").ok();
    let (checked, failed) = check(SMALL, filter.as_deref());
    println!(
        "swiss-dutch: checked {checked} cases, {} differ",
        failed.len()
    );
    assert!(failed.is_empty(), "differing cases: {failed:?}");
    assert!(checked > 0);
}

/// The 1,000-player case (about 5 s of CPU).
#[test]
fn dutch_large_pairing_equals_bbppairings() {
    let (checked, failed) = check(LARGE, None);
    println!(
        "swiss-dutch-large: checked {checked} cases, {} differ",
        failed.len()
    );
    assert!(failed.is_empty(), "differing cases: {failed:?}");
}
