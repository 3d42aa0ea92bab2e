//! Tiebreaks against FIDE's TieBreakServer (C.07, 2023): events with
//! withdrawals, disqualifications, byes of every kind, forfeits and double
//! forfeits, whose figures TieBreakServer computed (see
//! `tests/data/tiebreak_server/README.md`).

use qiyuan_swiss::tiebreak::{Tiebreak, standings};
use qiyuan_swiss::trf;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/tiebreak_server");

const EVENTS: usize = 6;

fn read(name: &str) -> String {
    std::fs::read_to_string(format!("{DIR}/{name}")).unwrap()
}

/// TieBreakServer's table: per starting rank, the figures after the header's
/// first two columns (start number, rank), in hundredths.
fn expected(text: &str) -> Vec<(u32, Vec<u32>)> {
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            let rank = cols[0].parse().unwrap();
            let values = cols[2..]
                .iter()
                .map(|v| (v.parse::<f64>().unwrap() * 100.0).round() as u32)
                .collect();
            (rank, values)
        })
        .collect()
}

fn rounds_of(text: &str) -> usize {
    text.lines()
        .find_map(|l| l.strip_prefix("XXR "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap()
}

#[test]
fn buchholz_sonneborn_berger_progressive_and_wins_equal_tiebreak_server() {
    let order = [
        Tiebreak::Buchholz,
        Tiebreak::BuchholzCut1,
        Tiebreak::BuchholzMedian1,
        Tiebreak::SonnebornBerger,
        Tiebreak::Progressive,
        Tiebreak::Wins,
        Tiebreak::WinsOverTheBoard,
    ];
    let mut differences = Vec::new();
    for n in 1..=EVENTS {
        let text = read(&format!("event{n}.trf"));
        let t = trf::parse(&text).unwrap();
        let rounds = rounds_of(&text);
        let ours = standings(&t, rounds, &order);
        for (rank, theirs) in expected(&read(&format!("event{n}.expected"))) {
            let s = ours.iter().find(|s| s.start_rank == rank).unwrap();
            // Points in tenths, tiebreaks in hundredths (counts as counts).
            let mut mine = vec![s.score * 10];
            for (tb, v) in order.iter().zip(&s.tiebreaks) {
                mine.push(if tb.is_count() { v * 100 } else { *v });
                // (no direct encounter in this order)
            }
            if mine != theirs {
                differences.push(format!(
                    "event {n}, player {rank}: ours {mine:?}, TieBreakServer {theirs:?}"
                ));
            }
        }
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}

#[test]
fn direct_encounter_equals_tiebreak_server() {
    let mut differences = Vec::new();
    for n in 1..=EVENTS {
        let text = read(&format!("event{n}.trf"));
        let t = trf::parse(&text).unwrap();
        let ours = standings(&t, rounds_of(&text), &[Tiebreak::DirectEncounter]);
        for (rank, theirs) in expected(&read(&format!("event{n}.de.expected"))) {
            let s = ours.iter().find(|s| s.start_rank == rank).unwrap();
            // The place within the tied group (0: not separated).
            let mine = vec![s.score * 10, s.tiebreaks[0] * 100];
            if mine != theirs {
                differences.push(format!(
                    "event {n}, player {rank}: ours {mine:?}, TieBreakServer {theirs:?}"
                ));
            }
        }
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}
