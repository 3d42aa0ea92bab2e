//! Nodes per second of the xiangqi search: fixed-node searches from a few
//! positions (`cargo bench -p qiyuan-engine-xiangqi`). The node count divided by
//! divan's time per search is the engine's nodes/s; docs/engines.md compares it
//! with Fairy-Stockfish's `bench`.

use std::sync::atomic::AtomicBool;

use qiyuan_engine_xiangqi::qiyuan_xiangqi::Position;
use qiyuan_engine_xiangqi::{Limits, Searcher};

const NODES: u64 = 200_000;

const FENS: [&str; 3] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R w - - 0 1",
    "4k4/4a4/4ba3/9/2b6/9/9/4B4/3RA4/3AK4 w - - 0 1",
];

fn main() {
    divan::main();
}

#[divan::bench(args = FENS, sample_count = 5, sample_size = 1)]
fn search_200k_nodes(fen: &str) -> u64 {
    let pos = Position::from_fen(fen).expect("fen");
    let mut s = Searcher::new(16);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        nodes: NODES,
        ..Limits::default()
    };
    s.search(&pos, &[], &limits, &stop, &mut |_| true).nodes
}
