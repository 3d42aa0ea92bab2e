//! Perft speed: the start position to depth 5 (133,312,995 leaves, the depth-5
//! line of ../shared/data/xiangqi-perft-published.tsv), and depth 4 of a few
//! middlegame positions. Run with `cargo bench -p qiyuan-xiangqi`; divan prints
//! the time and the leaves per second. `benches/fairy-stockfish.sh` times
//! fairy-stockfish on the same count for comparison.

use divan::Bencher;
use divan::counter::ItemsCount;
use qiyuan_xiangqi::Position;

fn main() {
    divan::main();
}

/// The depth-5 lines of the reference data (FEN, nodes).
fn depth5() -> Vec<(String, u64)> {
    let mut out = Vec::new();
    for name in ["xiangqi-perft-published.tsv", "xiangqi-perft.tsv"] {
        let path = format!("{}/../../../shared/data/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for line in text.lines() {
            let c: Vec<&str> = line.split('\t').collect();
            if c.len() == 3 && c[1] == "5" {
                out.push((c[0].to_string(), c[2].parse().expect("nodes")));
            }
        }
    }
    out
}

#[divan::bench(sample_count = 3, sample_size = 1)]
fn start_depth_5(bencher: Bencher) {
    let cases = depth5();
    let (fen, nodes) = cases.first().expect("a depth-5 line").clone();
    let pos = Position::from_fen(&fen).expect("fen");
    bencher
        .counter(ItemsCount::new(nodes))
        .bench(|| assert_eq!(pos.perft(5), nodes));
}

#[divan::bench(sample_count = 5, sample_size = 1)]
fn middlegames_depth_4(bencher: Bencher) {
    let fens = [
        (
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            1339047u64,
        ),
        (
            "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
            4485547,
        ),
    ];
    let positions: Vec<(Position, u64)> = fens
        .iter()
        .map(|(f, n)| (Position::from_fen(f).expect("fen"), *n))
        .collect();
    let total: u64 = fens.iter().map(|(_, n)| n).sum();
    bencher.counter(ItemsCount::new(total)).bench(|| {
        for (p, n) in &positions {
            assert_eq!(p.perft(4), *n);
        }
    });
}
