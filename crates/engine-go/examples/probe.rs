//! Prints the engine's candidates for a position given as rows on stdin (top row
//! first, `X` black, `O` white), with the colour to move and playouts as arguments.

use std::io::Read;
use std::sync::atomic::AtomicBool;

use qiyuan_engine_go::{Engine, Level};
use qiyuan_go::{Color, Move, Point};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let color = if args.get(1).map(String::as_str) == Some("w") {
        Color::White
    } else {
        Color::Black
    };
    let playouts: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(4000);
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).unwrap();
    let rows: Vec<String> = text
        .lines()
        .map(|l| l.replace(' ', ""))
        .filter(|l| !l.is_empty())
        .collect();
    let size = rows.len() as u8;
    let komi: f64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(7.5);
    let seed: u64 = std::env::var("SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(7);
    let mut engine = Engine::new(size, komi, seed).unwrap();
    let order = if args.get(4).map(String::as_str) == Some("wfirst") {
        [('O', Color::White), ('X', Color::Black)]
    } else {
        [('X', Color::Black), ('O', Color::White)]
    };
    for (ch, c) in order {
        for (r, row) in rows.iter().enumerate() {
            for (k, x) in row.chars().enumerate() {
                if x == ch {
                    engine
                        .play(c, Move::Place(Point::new(k as u8, size - 1 - r as u8)))
                        .unwrap();
                }
            }
        }
    }
    let mut s = Level::MAX.settings();
    s.playouts = playouts;
    let r = engine.genmove(color, &s, &AtomicBool::new(false));
    println!("{:?} win {:.3}", r.decision, r.winrate);
    for c in r.candidates.iter().take(8) {
        println!("  {} {} {:.3}", c.mv, c.visits, c.winrate);
    }
    let size = size as usize;
    for row in (0..size).rev() {
        let line: Vec<String> = (0..size)
            .map(|c| format!("{:+.1}", r.ownership[row * size + c]))
            .collect();
        println!("{}", line.join(" "));
    }
}
