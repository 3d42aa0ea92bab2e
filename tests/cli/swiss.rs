//! `qiyuan swiss pair` and `qiyuan swiss standings` on the shared data.
#![cfg(feature = "swiss")]

use crate::util::qiyuan;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/swiss-dutch");

fn sorted_pairs(text: &str) -> Vec<String> {
    let mut v: Vec<String> = text.lines().skip(1).map(str::to_string).collect();
    v.sort();
    v
}

#[test]
fn pair_prints_the_pairs_file() {
    for case in ["t0001-r04", "t0002-r01", "t0050-r05"] {
        let trf = format!("{DATA}/{case}.trf");
        let want = std::fs::read_to_string(format!("{DATA}/{case}.pairs"))
            .unwrap_or_else(|e| panic!("missing reference data {case}.pairs: {e}"));
        let (ok, got, err) = qiyuan(&["swiss", "pair", &trf]);
        assert!(ok, "{case}: {err}");
        assert_eq!(got.lines().next(), want.lines().next(), "{case}: count");
        assert_eq!(sorted_pairs(&got), sorted_pairs(&want), "{case}");
    }
}

#[test]
fn standings_with_chosen_tiebreaks() {
    let trf = format!("{DATA}/t0001-r04.trf");
    let (ok, out, err) = qiyuan(&["swiss", "standings", &trf, "--tiebreaks", "bh,sb,won"]);
    assert!(ok, "{err}");
    let header = out.lines().next().unwrap_or_default();
    assert!(
        header.contains("BH") && header.contains("SB") && header.contains("WON"),
        "{header}"
    );
    // Thirteen players, one line each.
    assert_eq!(out.lines().count(), 14);
    // Player 1 (2.5 points) is on top: opponents 7 (2), 4 (1.5) and 6 (1).
    let first = out.lines().nth(1).unwrap_or_default();
    assert!(
        first.contains("Player0001") && first.contains("4.50"),
        "{first}"
    );
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let dir = std::env::temp_dir().join(format!("qiyuan-swiss-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bad = dir.join("bad.trf");
    std::fs::write(&bad, "001    x      broken\n").expect("write temp file");
    let (ok, _, err) = qiyuan(&["swiss", "pair", bad.to_str().unwrap_or_default()]);
    assert!(!ok);
    assert!(err.contains("starting rank"), "{err}");
    let (ok, _, err) = qiyuan(&[
        "swiss",
        "standings",
        bad.to_str().unwrap_or_default(),
        "--tiebreaks",
        "nope",
    ]);
    assert!(!ok, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 41: a 10,000-player file ran past a minute with no limit. Past 5,000
/// players (or 100 rounds, or 8 MiB) `pair` and `standings` refuse the file at
/// once and say which bound it crossed.
#[test]
fn files_past_the_bounds_are_refused_at_once() {
    let dir = std::env::temp_dir().join(format!("qiyuan-swiss-bounds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut field = String::from("012 Big open\nXXR 9\n");
    for rank in 1..=10_000 {
        let line = format!("001 {rank:>4}      {:<33} 1500", format!("Player{rank}"));
        field.push_str(&format!("{line:<89}  {:>4} w 1\n", rank % 10_000 + 1));
    }
    let big = dir.join("big.trf");
    std::fs::write(&big, &field).expect("write temp file");
    let huge = dir.join("huge.trf");
    std::fs::write(&huge, "x".repeat(9 << 20)).expect("write temp file");
    for (file, why) in [
        (&big, "line 5003: more than 5000 players"),
        (&huge, "larger than 8 MiB"),
    ] {
        for command in ["pair", "standings"] {
            let start = std::time::Instant::now();
            let (ok, _, err) = qiyuan(&["swiss", command, file.to_str().unwrap_or_default()]);
            assert!(!ok, "{command} {}", file.display());
            assert!(err.contains(why), "{err}");
            assert!(start.elapsed().as_secs() < 10, "{:?}", start.elapsed());
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
