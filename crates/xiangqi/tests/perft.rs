//! Perft against fairy-stockfish's counts and published counts (depth <= 4).

use qiyuan_testkit::fs::read_shared_data;
use qiyuan_xiangqi::Position;

fn check(name: &str) {
    let text = read_shared_data(name);
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (fen, depth, nodes): (&str, u32, u64) = (
            cols[0],
            cols[1].parse().expect("depth"),
            cols[2].parse().expect("nodes"),
        );
        if depth > 4 {
            continue;
        }
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(pos.perft(depth), nodes, "{fen} depth {depth}");
        checked += 1;
    }
    assert!(checked > 0, "no cases in {name}");
}

#[test]
fn published_counts() {
    check("xiangqi-perft-published.tsv");
}

#[test]
fn fairy_stockfish_counts() {
    check("xiangqi-perft.tsv");
}

#[test]
fn divide_sums_to_perft() {
    let pos = Position::new();
    let d = pos.divide(3);
    assert_eq!(d.len(), 44);
    assert_eq!(d.iter().map(|(_, n)| n).sum::<u64>(), 79666);
}
