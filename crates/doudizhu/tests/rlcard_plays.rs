//! Every case of ../shared/data/doudizhu-plays.jsonl (RLCard 1.2.0's enumeration of
//! the legal plays) through the library's classifier and enumerator.

use std::collections::BTreeSet;

use qiyuan_doudizhu::{Counts, classify, legal_plays};

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../shared/data/doudizhu-plays.jsonl"
);

#[derive(serde::Deserialize)]
struct Case {
    hand: String,
    last: String,
    plays: Vec<String>,
}

#[test]
fn every_rlcard_case_agrees() {
    let text = std::fs::read_to_string(DATA)
        .unwrap_or_else(|e| panic!("reference data {DATA} is missing ({e})"));
    let mut cases = 0;
    let mut failures = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: Case = serde_json::from_str(line).expect("a JSON case");
        cases += 1;
        let hand = Counts::parse(&case.hand).expect("hand parses");
        let last = if case.last.is_empty() {
            None
        } else {
            let cards = Counts::parse(&case.last).expect("last parses");
            Some(classify(cards).unwrap_or_else(|| panic!("{} is a combination", case.last)))
        };
        let got: BTreeSet<String> = legal_plays(hand, last.as_ref())
            .iter()
            .map(|p| p.cards.to_string())
            .collect();
        let want: BTreeSet<String> = case.plays.iter().cloned().collect();
        // Every play the reference lists must read as a combination of its own.
        for p in &want {
            let cards = Counts::parse(p).expect("play parses");
            assert!(classify(cards).is_some(), "{p} reads as nothing");
        }
        if got != want {
            let missing: Vec<_> = want.difference(&got).take(8).collect();
            let extra: Vec<_> = got.difference(&want).take(8).collect();
            failures.push(format!(
                "hand {} last {:?}: missing {missing:?} extra {extra:?}",
                case.hand, case.last
            ));
        }
    }
    assert!(
        cases >= 300,
        "expected the 300 reference cases, read {cases}"
    );
    assert!(
        failures.is_empty(),
        "{} cases differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
