//! Pairing a late round (round 7 of 9) of large events, with bbpPairings timed
//! beside it when `BBP_PAIRINGS` names its binary.
//!
//! The 225- and 5,000-player events are simulated from a seed with our own
//! pairing and random results; the 1,000-player one is the shared reference
//! case (bbpPairings' own generator, seed 7). Simulating the 5,000-player event
//! (six rounds of 5,000 players, starting from one score group of 5,000) takes
//! far longer than the benchmark itself, so it runs only when
//! `QIYUAN_BENCH_5000` is set.

use std::path::PathBuf;

use divan::Bencher;
use qiyuan_swiss::{Tournament, pair, simulate::simulated_event, trf};

fn main() {
    divan::main();
}

const LARGE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../shared/data/swiss-dutch-large/t1000-r07.trf"
);

fn wanted(players: usize) -> bool {
    players < 5000 || std::env::var_os("QIYUAN_BENCH_5000").is_some()
}

fn event(players: usize) -> Tournament {
    if players == 1000 {
        let text = std::fs::read_to_string(LARGE).expect("the shared 1,000-player case");
        return trf::parse(&text).expect("valid TRF");
    }
    simulated_event(players, 6, 9, players as u64).expect("a simulated event")
}

#[divan::bench(args = [225, 1000, 5000], sample_count = 3, sample_size = 1)]
fn round_7(bencher: Bencher, players: usize) {
    if !wanted(players) {
        return;
    }
    let t = event(players);
    bencher.bench(|| pair(divan::black_box(&t)).expect("a pairing"));
}

/// bbpPairings on the same file (skipped without `BBP_PAIRINGS`).
#[divan::bench(args = [225, 1000, 5000], sample_count = 1, sample_size = 1)]
fn round_7_bbppairings(bencher: Bencher, players: usize) {
    let Some(bbp) = std::env::var_os("BBP_PAIRINGS") else {
        return;
    };
    if !wanted(players) {
        return;
    }
    let t = event(players);
    let dir = std::env::temp_dir();
    let input: PathBuf = dir.join(format!("qiyuan-bench-{players}.trf"));
    let output: PathBuf = dir.join(format!("qiyuan-bench-{players}.pairs"));
    std::fs::write(&input, trf::write(&t)).expect("temporary TRF");
    bencher.bench(|| {
        let status = std::process::Command::new(&bbp)
            .arg("--dutch")
            .arg(&input)
            .arg("-p")
            .arg(&output)
            .status()
            .expect("bbpPairings runs");
        assert!(status.success());
    });
}
