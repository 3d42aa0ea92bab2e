//! Like Stockfish's `bench`: fixed-depth searches of a few positions on one
//! thread, then the total nodes and nodes/s. docs/engines.md compares the two.
//! `cargo run --release -p qiyuan-engine-chess --example chess-bench [depth]`

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use qiyuan_engine_chess::shakmaty::fen::Fen;
use qiyuan_engine_chess::shakmaty::{CastlingMode, Chess};
use qiyuan_engine_chess::{Limits, Searcher};

const FENS: [&str; 8] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    "r1bbk1nr/pp3p1p/2n5/1N4p1/2Np1B2/8/PPP2PPP/2KR1B1R w kq - 0 13",
    "r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16",
    "4k3/3q1r2/1N2r1b1/3ppN2/2nPP3/1B1R2n1/2R1Q3/3K4 w - - 5 1",
    "6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/3N4 b - - 0 1",
];

fn start_position() -> Chess {
    Chess::default()
}

fn main() {
    let depth = std::env::args()
        .nth(1)
        .and_then(|d| d.parse().ok())
        .unwrap_or(10);
    let t0 = Instant::now();
    let mut nodes = 0;
    for fen in FENS {
        let f: Fen = fen.parse().expect("fen");
        let pos: Chess = f.into_position(CastlingMode::Standard).expect("position");
        let mut s = Searcher::new(16);
        let stop = AtomicBool::new(false);
        let r = s.search(
            &pos,
            &[],
            &Limits {
                depth,
                ..Limits::default()
            },
            &stop,
            &mut |_| true,
        );
        nodes += r.nodes;
    }
    let ms = t0.elapsed().as_millis().max(1) as u64;
    println!("Total time (ms) : {ms}");
    println!("Nodes searched  : {nodes}");
    println!("Nodes/second    : {}", nodes * 1000 / ms);
    stop_latency();
}

/// How long a search takes to return once another thread sets its stop flag:
/// 20 searches of the first position, each stopped after 50 ms.
fn stop_latency() {
    use std::sync::Arc;
    use std::sync::atomic::Ordering;
    let mut late: Vec<u128> = Vec::new();
    for _ in 0..20 {
        let pos = start_position();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let set_at = Arc::new(std::sync::Mutex::new(None));
        let set_at2 = Arc::clone(&set_at);
        let timer = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(50));
            *set_at2.lock().expect("lock") = Some(Instant::now());
            flag.store(true, Ordering::Relaxed);
        });
        let mut s = Searcher::new(16);
        s.search(&pos, &[], &Limits::default(), &stop, &mut |_| true);
        let done = Instant::now();
        timer.join().expect("timer");
        let at = set_at.lock().expect("lock").expect("set");
        late.push(done.duration_since(at).as_micros());
    }
    late.sort_unstable();
    println!(
        "Stop latency    : median {} us, max {} us (20 searches stopped at 50 ms)",
        late[late.len() / 2],
        late[late.len() - 1]
    );
}
