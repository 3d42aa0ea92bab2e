//! `qiyuan pgn`: chess records on the command line (check a PGN file, make a test
//! file of random games), and chess perft for `qiyuan perft --game chess`.

use std::{
    fs::File,
    io::{self, Write},
    path::PathBuf,
    process::ExitCode,
    time::Instant,
};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use qiyuan_chess::pgn::{PgnErrorKind, read_games};

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Check every game of a PGN file against the rules: prints the counts and each
    /// bad game's first error; exits with status 1 if any game is bad.
    Check {
        /// The PGN file.
        file: PathBuf,
    },
    /// Write random legal games as PGN (test material for `pgn check`).
    Generate {
        /// How many games.
        #[arg(long, default_value_t = 10_000)]
        games: usize,
        /// The seed; the same seed gives the same games.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Where to write; standard output when left out.
        #[arg(long, short)]
        output: Option<PathBuf>,
    },
}

pub fn run(cmd: Command) -> anyhow::Result<ExitCode> {
    match cmd {
        Command::Check { file } => check(&file),
        Command::Generate {
            games,
            seed,
            output,
        } => {
            let pgn = qiyuan_chess::sample::random_games_pgn(seed, games);
            match output {
                Some(path) => std::fs::write(&path, pgn)
                    .with_context(|| format!("cannot write {}", path.display()))?,
                None => io::stdout().lock().write_all(pgn.as_bytes())?,
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Files smaller than this are checked too fast for a progress bar to help.
const PROGRESS_BAR_BYTES: u64 = 1 << 20;

fn check(path: &PathBuf) -> anyhow::Result<ExitCode> {
    let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    // indicatif draws on stderr and hides itself when stderr is not a terminal.
    let bar = if size >= PROGRESS_BAR_BYTES {
        let bar = ProgressBar::with_draw_target(Some(size), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };

    let started = Instant::now();
    let (mut good, mut bad, mut moves) = (0usize, 0usize, 0usize);
    let mut out = io::stdout().lock();
    for result in read_games(bar.wrap_read(file)) {
        match result {
            Ok(game) => {
                good += 1;
                moves += game.moves.len();
            }
            Err(err) => {
                bad += 1;
                let line = format!("{}: {err}", path.display());
                bar.suspend(|| writeln!(out, "{line}"))?;
                if matches!(err.kind, PgnErrorKind::Io(_)) {
                    bar.finish_and_clear();
                    anyhow::bail!("reading stopped: {err}");
                }
            }
        }
        if (good + bad) % 1024 == 0 {
            bar.set_message(format!("{} games", good + bad));
        }
    }
    bar.finish_and_clear();

    let secs = started.elapsed().as_secs_f64();
    writeln!(
        out,
        "{} games: {good} good, {bad} bad; {moves} moves in good games; {secs:.2} s",
        good + bad
    )?;
    Ok(if bad == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `qiyuan perft --game chess`: the node count from `fen` (the start position when
/// `None`) at `depth`; with `divide`, each first move's count before the total.
pub fn perft(fen: Option<&str>, depth: u32, divide: bool) -> anyhow::Result<ExitCode> {
    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let fen = fen.unwrap_or(START);
    let started = Instant::now();
    let nodes = if divide {
        let split = qiyuan_chess::divide(fen, depth)?;
        let mut out = io::stdout().lock();
        for (m, n) in &split {
            writeln!(out, "{m}: {n}")?;
        }
        if depth == 0 {
            1
        } else {
            split.iter().map(|(_, n)| n).sum()
        }
    } else {
        qiyuan_chess::perft(fen, depth)?
    };
    let secs = started.elapsed().as_secs_f64();
    println!("nodes {nodes}");
    eprintln!("{secs:.3} s, {:.0} nodes/s", nodes as f64 / secs.max(1e-9));
    Ok(ExitCode::SUCCESS)
}
