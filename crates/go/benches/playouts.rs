//! Random playouts on an empty 19x19 board: the speed of the board's move making
//! (chains, liberties, captures, simple ko). Each iteration is one playout to two
//! passes; divan reports the time per playout, so playouts per second = 1 / time.

use qiyuan_go::playout::{Rng, random_playout};
use qiyuan_go::{Board, Color};

fn main() {
    divan::main();
}

#[divan::bench(args = [9, 19])]
fn playout(bencher: divan::Bencher, size: u8) {
    let empty = Board::new(size).unwrap();
    let mut rng = Rng::new(42);
    bencher.bench_local(|| {
        let mut board = empty.clone();
        random_playout(&mut board, Color::Black, &mut rng, 1000)
    });
}

/// Moves per second on 19x19, for comparison with engines that report that figure.
#[divan::bench]
fn moves_19x19(bencher: divan::Bencher) {
    let empty = Board::new(19).unwrap();
    let mut rng = Rng::new(7);
    // Average playout length measured once, so throughput is in moves.
    let mut probe = Rng::new(7);
    let total: usize = (0..200)
        .map(|_| random_playout(&mut empty.clone(), Color::Black, &mut probe, 1000))
        .sum();
    bencher
        .counter(divan::counter::ItemsCount::new(total / 200))
        .bench_local(|| {
            let mut board = empty.clone();
            random_playout(&mut board, Color::Black, &mut rng, 1000)
        });
}
