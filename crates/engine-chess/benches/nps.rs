//! Nodes per second of the chess search: fixed-node searches from a few
//! positions (`cargo bench -p qiyuan-engine-chess`). The node count divided by
//! divan's time per search is the engine's nodes/s; docs/engines.md compares it
//! with Stockfish's `bench`.

use std::sync::atomic::AtomicBool;

use qiyuan_engine_chess::shakmaty::fen::Fen;
use qiyuan_engine_chess::shakmaty::{CastlingMode, Chess};
use qiyuan_engine_chess::{Limits, Searcher};

const NODES: u64 = 200_000;

const FENS: [&str; 3] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

fn main() {
    divan::main();
}

#[divan::bench(args = FENS, sample_count = 5, sample_size = 1)]
fn search_200k_nodes(fen: &str) -> u64 {
    let f: Fen = fen.parse().expect("fen");
    let pos: Chess = f.into_position(CastlingMode::Standard).expect("pos");
    let mut s = Searcher::new(16);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        nodes: NODES,
        ..Limits::default()
    };
    s.search(&pos, &[], &limits, &stop, &mut |_| true).nodes
}
