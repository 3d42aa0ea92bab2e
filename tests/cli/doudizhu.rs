//! `qiyuan doudizhu plays` through the binary, against a few cases of RLCard's
//! enumeration (../shared/data/doudizhu-plays.jsonl).
#![cfg(feature = "doudizhu")]

use std::collections::BTreeSet;
use std::process::Command;

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../shared/data/doudizhu-plays.jsonl"
);

fn plays(hand: &str, last: &str) -> BTreeSet<String> {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_qiyuan"));
    cmd.args(["doudizhu", "plays", "--hand", hand]);
    if !last.is_empty() {
        cmd.args(["--last", last]);
    }
    let out = cmd.output().expect("qiyuan runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("utf-8 output")
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn plays_match_rlcard_on_sampled_cases() {
    let text = std::fs::read_to_string(DATA)
        .unwrap_or_else(|e| panic!("reference data {DATA} is missing ({e})"));
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    assert!(lines.len() >= 300, "expected 300 cases");
    // Every 25th case: leads and follows alike, a dozen runs of the binary.
    for line in lines.iter().step_by(25) {
        let case: serde_json::Value = serde_json::from_str(line).expect("a JSON case");
        let hand = case["hand"].as_str().expect("hand");
        let last = case["last"].as_str().expect("last");
        let want: BTreeSet<String> = case["plays"]
            .as_array()
            .expect("plays")
            .iter()
            .map(|p| p.as_str().expect("a play").to_string())
            .collect();
        assert_eq!(plays(hand, last), want, "hand {hand} last {last:?}");
    }
}

#[test]
fn accepts_any_order_and_ten_written_10() {
    let got = plays("10 J Q K A 9", "56789");
    let want: BTreeSet<String> = ["9TJQK", "TJQKA"].iter().map(|s| s.to_string()).collect();
    assert_eq!(got, want);
}

#[test]
fn refuses_bad_cards_with_a_message() {
    let out = Command::new(env!("CARGO_BIN_EXE_qiyuan"))
        .args(["doudizhu", "plays", "--hand", "33333"])
        .output()
        .expect("qiyuan runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("too many cards"));
    let out = Command::new(env!("CARGO_BIN_EXE_qiyuan"))
        .args(["doudizhu", "plays", "--hand", "345", "--last", "34"])
        .output()
        .expect("qiyuan runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a combination"));
}
