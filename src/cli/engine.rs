//! `qiyuan engine`: a built-in engine over its game's protocol (GTP for Go).

use std::process::ExitCode;

use anyhow::Context;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Game {
    /// Go over GTP version 2.
    #[cfg(feature = "go")]
    Go,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Which game's engine to run.
    #[arg(long, value_enum)]
    pub game: Game,
    /// Strength, 1 (a beginner beats it) to 8 (the strongest); see docs/engines.md.
    #[arg(long, default_value_t = 8)]
    pub level: u32,
    /// Random seed: the same seed and commands give the same moves (default: from
    /// the clock).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Go: playouts per move instead of the level's.
    #[arg(long)]
    pub playouts: Option<u64>,
    /// Go: one line per move on stderr (playouts, win rate, time, best moves).
    #[arg(long)]
    pub verbose: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    match args.game {
        #[cfg(feature = "go")]
        Game::Go => {
            let level = qiyuan_engine_go::Level::new(args.level).context("--level")?;
            super::gtp::run(super::gtp::Options {
                level,
                seed,
                playouts: args.playouts,
                verbose: args.verbose,
            })?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
