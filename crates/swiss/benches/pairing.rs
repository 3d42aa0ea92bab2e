//! Pairing a late round (round 7 of 9) of large events with the exact Dutch
//! pairer, with bbpPairings timed beside it when `BBP_PAIRINGS` names its
//! binary.
//!
//! Two kinds of event:
//! - `round_7`: the reference figures. The 1,000-player event is the shared
//!   reference case swiss-dutch-large/t1000-r07 (bbpPairings' own generator,
//!   seed 7); the 225-player one is simulated from a seed with rounds 1-6
//!   paired by our exact pairer.
//! - `round_7_approximate_history`: 225, 1,000 and 5,000 players whose rounds
//!   1-6 are paired by the fast approximate pairer of
//!   `qiyuan_swiss::simulate::approximate_event` (score groups, top half
//!   against bottom half, no rematches, absolute colours respected; NOT the
//!   Dutch rules) with seeded Elo-based results, so the three sizes are built
//!   alike. Pairing six exact rounds of 5,000 players would take far longer
//!   than the benchmark itself; the approximate history takes under a second
//!   and is checked by `check_history` before timing. Only round 7 is timed
//!   and it is paired exactly.
//!
//! The 5,000-player round takes minutes, so it runs only when
//! `QIYUAN_BENCH_5000` is set:
//!
//! ```text
//! QIYUAN_BENCH_5000=1 cargo bench -p qiyuan-swiss --bench pairing
//! ```
//!
//! Figures (before and after the repairing matcher of `dutch/blossom.rs`) are
//! in `docs/benchmarks.md`: on the loaded 2-core machine, 1,000 players 1.2 s
//! CPU and 71 MB, 2,000 players 8.7 s CPU and 161 MB (were 2.1 s / 243 MB and
//! 33 s / 1.1 GB).
//!
//! (`cargo test` never runs benchmarks.) For wall time and peak memory of one
//! round on its own, write the event and pair it under `/usr/bin/time -v`:
//!
//! ```text
//! cargo run --release -p qiyuan-swiss --example simulate -- --approximate 5000 6 9 5000 > a5000.trf
//! /usr/bin/time -v target/release/examples/pair_file a5000.trf > a5000.pairs
//! ```

use std::path::PathBuf;

use divan::Bencher;
use qiyuan_swiss::simulate::{approximate_event, check_history, simulated_event};
use qiyuan_swiss::{Tournament, pair, trf};

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

/// The reference event: the shared 1,000-player case, or one simulated with
/// exact pairings.
fn reference_event(players: usize) -> Tournament {
    if players == 1000 {
        let text = std::fs::read_to_string(LARGE).expect("the shared 1,000-player case");
        return trf::parse(&text).expect("valid TRF");
    }
    simulated_event(players, 6, 9, players as u64).expect("a simulated event")
}

/// Six rounds paired approximately, checked to be valid Dutch input.
fn approximate(players: usize) -> Tournament {
    let t = approximate_event(players, 6, 9, players as u64).expect("an approximate history");
    check_history(&t).expect("a valid history");
    t
}

#[divan::bench(args = [225, 1000], sample_count = 3, sample_size = 1)]
fn round_7(bencher: Bencher, players: usize) {
    let t = reference_event(players);
    bencher.bench(|| pair(divan::black_box(&t)).expect("a pairing"));
}

#[divan::bench(args = [225, 1000], sample_count = 3, sample_size = 1)]
fn round_7_approximate_history(bencher: Bencher, players: usize) {
    let t = approximate(players);
    bencher.bench(|| pair(divan::black_box(&t)).expect("a pairing"));
}

/// One sample only: a single 5,000-player round takes minutes.
#[divan::bench(args = [5000], sample_count = 1, sample_size = 1)]
fn round_7_approximate_history_5000(bencher: Bencher, players: usize) {
    if !wanted(players) {
        return;
    }
    let t = approximate(players);
    bencher.bench(|| pair(divan::black_box(&t)).expect("a pairing"));
}

/// bbpPairings on the same file (skipped without `BBP_PAIRINGS`).
fn bbppairings(bencher: Bencher, players: usize, t: &Tournament, kind: &str) {
    let Some(bbp) = std::env::var_os("BBP_PAIRINGS") else {
        return;
    };
    let dir = std::env::temp_dir();
    let input: PathBuf = dir.join(format!("qiyuan-bench-{kind}-{players}.trf"));
    let output: PathBuf = dir.join(format!("qiyuan-bench-{kind}-{players}.pairs"));
    std::fs::write(&input, trf::write(t)).expect("temporary TRF");
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

#[divan::bench(args = [225, 1000], sample_count = 1, sample_size = 1)]
fn round_7_bbppairings(bencher: Bencher, players: usize) {
    if std::env::var_os("BBP_PAIRINGS").is_some() {
        bbppairings(bencher, players, &reference_event(players), "reference");
    }
}

#[divan::bench(args = [225, 1000, 5000], sample_count = 1, sample_size = 1)]
fn round_7_approximate_history_bbppairings(bencher: Bencher, players: usize) {
    if std::env::var_os("BBP_PAIRINGS").is_some() && wanted(players) {
        bbppairings(bencher, players, &approximate(players), "approximate");
    }
}
