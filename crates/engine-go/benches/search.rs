//! Search speed: simulations (tree walk plus heavy playout) per second from the
//! empty 9x9 and 19x19 boards. Each iteration is one search of 200 simulations;
//! divan's time per iteration / 200 is the time per playout.

use std::sync::atomic::AtomicBool;

use qiyuan_engine_go::{Engine, Level};
use qiyuan_go::Color;

fn main() {
    divan::main();
}

#[divan::bench(args = [9, 19])]
fn search_200(bencher: divan::Bencher, size: u8) {
    let stop = AtomicBool::new(false);
    let mut settings = Level::MAX.settings();
    settings.playouts = 200;
    let mut seed = 0;
    bencher.bench_local(|| {
        seed += 1;
        let mut engine = Engine::new(size, 7.5, seed).unwrap();
        engine.genmove(Color::Black, &settings, &stop).playouts
    });
}
