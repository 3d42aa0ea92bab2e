//! `qiyuan xiangqi`: play ICCS moves from a position and print the result, show a
//! move in every notation; and the xiangqi side of `qiyuan perft`.

use std::process::ExitCode;

use qiyuan_xiangqi::Position;

#[derive(Debug, clap::Subcommand)]
pub enum Command {}

pub fn run(cmd: Command) -> anyhow::Result<ExitCode> {
    match cmd {}
}

/// Prints the perft count (the last number printed), below each move with `divide`.
pub fn perft(fen: Option<&str>, depth: u32, divide: bool) -> anyhow::Result<ExitCode> {
    let pos = match fen {
        Some(f) => Position::from_fen(f)?,
        None => Position::new(),
    };
    let start = std::time::Instant::now();
    let total = if divide {
        let mut total = 0;
        for (m, n) in pos.divide(depth) {
            println!("{m}: {n}");
            total += n;
        }
        total
    } else {
        pos.perft(depth)
    };
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "{:.3} s, {:.1} M nodes/s",
        secs,
        total as f64 / secs.max(1e-9) / 1e6
    );
    println!("{total}");
    Ok(ExitCode::SUCCESS)
}
