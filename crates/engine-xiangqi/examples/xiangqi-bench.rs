//! Like Fairy-Stockfish's `bench`: fixed-depth searches of a few positions on
//! one thread, then the total nodes and nodes/s. docs/engines.md compares them.
//! `cargo run --release -p qiyuan-engine-xiangqi --example xiangqi-bench [depth]`

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use qiyuan_engine_xiangqi::qiyuan_xiangqi::Position;
use qiyuan_engine_xiangqi::{Limits, Searcher};

const FENS: [&str; 6] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R w - - 0 1",
    "r2akab1r/9/1cn1b1nc1/p1p1p3p/6p2/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 0 1",
    "2bakab2/9/2n1c1n2/p3p1p1p/2p6/9/P1P1P1P1P/2N1C1N2/9/2BAKAB2 w - - 0 1",
    "4k4/4a4/4ba3/9/2b6/9/9/4B4/3RA4/3AK4 w - - 0 1",
    "4kab2/4a4/4b4/p3p1p1p/9/2P6/P3P1P1P/4B4/4A4/2BAK4 w - - 0 1",
];

fn start_position() -> Position {
    Position::new()
}

fn main() {
    let depth = std::env::args()
        .nth(1)
        .and_then(|d| d.parse().ok())
        .unwrap_or(9);
    let t0 = Instant::now();
    let mut nodes = 0;
    for fen in FENS {
        let pos = Position::from_fen(fen).expect("fen");
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
