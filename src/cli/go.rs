//! `qiyuan go`: Go tools.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use qiyuan_go::{Counting, Point, Score, SgfGame, area};

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Count a finished game under Chinese rules (area scoring, the record's komi,
    /// 7.5 if it has none) and print the result as SGF writes it: `B+3.5`, `W+0.5`,
    /// `0` for a tie. The dead stones are those given with `--dead`, else those the
    /// record's count marks (stones inside the other colour's `TB`/`TW`
    /// territory), as qiyuan, CGoban, Sabaki and OGS write them.
    Score(ScoreArgs),
}

/// The seki counts `--count` chooses from.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum CountArg {
    /// The Chinese rules: seki eyes are their owner's, shared points half each.
    Chinese,
    /// GNU Go's `final_score`: seki eyes are no one's.
    Gnugo,
}

#[derive(Debug, clap::Args)]
pub struct ScoreArgs {
    /// The SGF record; its main line's final position is counted.
    pub file: PathBuf,
    /// Dead stones to lift before counting, as GTP vertices (`C3,D4` or repeated);
    /// without it, the record's own marking (`TB`/`TW`) is used.
    #[arg(long, value_delimiter = ',', value_name = "VERTEX,...")]
    pub dead: Vec<String>,
    /// How seki is counted.
    #[arg(long, value_enum, default_value = "chinese")]
    pub count: CountArg,
}

pub fn run(cmd: Command) -> anyhow::Result<ExitCode> {
    match cmd {
        Command::Score(args) => score(&args),
    }
}

fn score(args: &ScoreArgs) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let sgf = SgfGame::parse(&text).with_context(|| format!("{}", args.file.display()))?;
    let board = sgf
        .final_position()
        .with_context(|| format!("{}", args.file.display()))?;
    let mut dead = Vec::new();
    for vertex in args.dead.iter().map(|v| v.trim()).filter(|v| !v.is_empty()) {
        let p = Point::from_gtp_on(vertex, sgf.size)?;
        if board.get(p).is_none() {
            bail!("--dead {vertex}: there is no stone on {p} in the final position");
        }
        dead.push(p);
    }
    if args.dead.is_empty() {
        dead = sgf.dead_stones(&board);
    }
    let counting = match args.count {
        CountArg::Chinese => Counting::Chinese,
        CountArg::Gnugo => Counting::GnuGo,
    };
    let count = area(&board, &dead, counting);
    let compensation = if sgf.handicap >= 2 {
        f64::from(sgf.handicap)
    } else {
        0.0
    };
    let score = Score::new(&count, sgf.komi.unwrap_or(7.5), compensation);
    println!("{score}");
    Ok(ExitCode::SUCCESS)
}
