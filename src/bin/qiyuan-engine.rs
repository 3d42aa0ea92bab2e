//! `qiyuan-engine`: `qiyuan engine` under a name of its own, for the tools that
//! take an engine by its path alone (match runners, GUIs, python-chess's
//! `popen_uci`): `qiyuan-engine --game chess`, or with the game in
//! `QIYUAN_ENGINE_GAME` and no argument at all. The same code as the subcommand
//! (`src/cli/engine/`, `src/cli/gtp.rs`), built without the server.

use std::process::ExitCode;

use clap::Parser;

#[path = "../cli/engine/mod.rs"]
mod engine;
#[cfg(feature = "go")]
#[path = "../cli/gtp.rs"]
mod gtp;

#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// 棋苑 qiyuan's built-in engines over UCI (chess), UCI or UCCI (xiangqi) and
/// GTP (Go): `qiyuan engine` as a program of its own.
#[derive(Debug, Parser)]
#[command(name = "qiyuan-engine", version, about)]
struct Cli {
    #[command(flatten)]
    args: engine::Args,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match engine::run(cli.args) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("qiyuan-engine: {err:#}");
            ExitCode::FAILURE
        }
    }
}
