//! `qiyuan xiangqi`: play ICCS moves from a position and print the result, show a
//! move in every notation; and the xiangqi side of `qiyuan perft`.

use std::process::ExitCode;

use qiyuan_xiangqi::notation::{self, parse_iccs_unchecked};
use qiyuan_xiangqi::{Options, Position, XiangqiGame};

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Plays ICCS moves from a position, stops at the first end of the game, and
    /// prints `red`, `black`, `draw` (then the reason and the ply) or `ongoing`.
    Play {
        /// The start position; the usual one when left out.
        #[arg(long)]
        fen: Option<String>,
        /// The natural move limit in moves without a capture (0: none).
        #[arg(long, default_value_t = 40)]
        move_limit: u32,
        /// The moves, ICCS (`h2e2` or `h2-e2`).
        moves: Vec<String>,
    },
    /// Prints a move in every notation.
    Notation {
        #[arg(long)]
        fen: Option<String>,
        /// The move in ICCS, WXF or Chinese notation.
        #[arg(long = "move")]
        mv: String,
    },
}

/// Reads a position for `play` and `notation`: rulebook diagrams may put a soldier
/// behind its starting point, so that one check is relaxed here.
fn position(fen: Option<&str>) -> anyhow::Result<Position> {
    Ok(match fen {
        Some(f) => Position::from_fen_relaxed(f)?,
        None => Position::new(),
    })
}

pub fn run(cmd: Command) -> anyhow::Result<ExitCode> {
    match cmd {
        Command::Play {
            fen,
            move_limit,
            moves,
        } => {
            let options = Options { move_limit };
            let mut game = XiangqiGame::from_position(options, position(fen.as_deref())?);
            for (i, text) in moves.iter().enumerate() {
                if game.ending().is_some() {
                    break;
                }
                let m = parse_iccs_unchecked(text)?;
                if let Err(e) = game.play(m) {
                    anyhow::bail!("move {} ({text}): {e}", i + 1);
                }
            }
            match game.ending() {
                Some(e) => println!(
                    "{} {} ply {}",
                    e.result_word(),
                    serde_json::to_value(e.reason)?.as_str().unwrap_or("?"),
                    e.ply
                ),
                None => println!("ongoing ply {}", game.moves().len()),
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Notation { fen, mv } => {
            let pos = position(fen.as_deref())?;
            let m = notation::parse_any(&pos, &mv)?;
            println!("iccs {}", notation::format_iccs(m));
            println!("wxf {}", notation::format_wxf(&pos, m));
            println!("chinese {}", notation::format_chinese(&pos, m));
            Ok(ExitCode::SUCCESS)
        }
    }
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
