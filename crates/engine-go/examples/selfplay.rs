//! Plays the engine against itself at a level and prints the moves, the result and
//! the speed: `cargo run --release -p qiyuan-engine-go --example selfplay -- 9 5`.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use qiyuan_engine_go::{Decision, Engine, Level};
use qiyuan_go::Move;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let size: u8 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(9);
    let level = Level::new(args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5)).unwrap();
    let seed: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let settings = level.settings();
    let stop = AtomicBool::new(false);
    let mut engine = Engine::new(size, 7.5, seed).unwrap();
    let start = Instant::now();
    let mut playouts = 0;
    let mut passes = 0;
    let mut line = Vec::new();
    while passes < 2 && engine.history().len() < 3 * usize::from(size) * usize::from(size) {
        let color = engine.to_move();
        let report = engine.genmove(color, &settings, &stop);
        playouts += report.playouts;
        let mv = match report.decision {
            Decision::Play(p) => Move::Place(p),
            Decision::Pass => Move::Pass,
            Decision::Resign => {
                line.push(format!("{}:resign", color.letter()));
                break;
            }
        };
        passes = if mv == Move::Pass { passes + 1 } else { 0 };
        line.push(format!("{}{:.2}", mv, report.winrate));
        engine.play(color, mv).unwrap();
    }
    let secs = start.elapsed().as_secs_f64();
    println!("{}", line.join(" "));
    println!("{:?}", engine.board());
    let est = engine.estimate(500, &stop);
    println!(
        "result {} ({} moves), {} playouts in {:.1}s: {:.0}/s",
        est.score,
        engine.history().len(),
        playouts,
        secs,
        playouts as f64 / secs
    );
}
