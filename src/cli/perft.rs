//! `qiyuan perft --game G --fen FEN --depth N`: prints the node count.

use std::process::ExitCode;

use clap::ValueEnum;

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum PerftGame {
    Chess,
    Xiangqi,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Which game's rules to count with.
    #[arg(long, value_enum, default_value = "chess")]
    game: PerftGame,
    /// The position; the game's start position when left out.
    #[arg(long)]
    fen: Option<String>,
    /// How many plies deep to count.
    #[arg(long)]
    depth: u32,
    /// Also print the count below each legal move of the position.
    #[arg(long)]
    divide: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.game {
        #[cfg(feature = "chess")]
        PerftGame::Chess => super::pgn::perft(args.fen.as_deref(), args.depth, args.divide),
        #[cfg(feature = "xiangqi")]
        PerftGame::Xiangqi => super::xiangqi::perft(args.fen.as_deref(), args.depth, args.divide),
        #[allow(unreachable_patterns)]
        other => anyhow::bail!("this build of qiyuan has no {other:?} rules"),
    }
}
