//! `qiyuan`: the game hall's one binary — the server and the command-line tools.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cli;

#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// 棋苑 qiyuan: a self-hosted online game hall for chess, xiangqi, Go and Doudizhu.
#[derive(Debug, Parser)]
#[command(name = "qiyuan", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the server: HTTP, WebSocket and the web client.
    #[cfg(feature = "server")]
    Serve(cli::serve::Args),
    /// The operator's commands: roles, bans, mutes, closing a table.
    #[cfg(feature = "server")]
    #[command(subcommand)]
    Admin(cli::admin::Command),
    /// Load generator: simulated players over real WebSockets against a server.
    #[cfg(feature = "server")]
    BenchLoad(cli::bench_load::Args),
    /// A built-in engine over UCI (chess), UCI or UCCI (xiangqi) or GTP (Go).
    Engine(cli::engine::Args),
    /// Count the leaf nodes of the legal move tree from a position.
    Perft(cli::perft::Args),
    /// Chess records.
    #[cfg(feature = "chess")]
    #[command(subcommand)]
    Pgn(cli::pgn::Command),
    /// Chinese chess tools.
    #[cfg(feature = "xiangqi")]
    #[command(subcommand)]
    Xiangqi(cli::xiangqi::Command),
    /// Go tools.
    #[cfg(feature = "go")]
    #[command(subcommand)]
    Go(cli::go::Command),
    /// Doudizhu tools.
    #[cfg(feature = "doudizhu")]
    #[command(subcommand)]
    Doudizhu(cli::doudizhu::Command),
    /// Swiss tournaments: pairing and standings from TRF files, an event's TRF.
    #[cfg(feature = "swiss")]
    #[command(subcommand)]
    Swiss(cli::swiss::Command),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        #[cfg(feature = "server")]
        Command::Serve(args) => cli::serve::run(args),
        #[cfg(feature = "server")]
        Command::Admin(cmd) => cli::admin::run(cmd),
        #[cfg(feature = "server")]
        Command::BenchLoad(args) => cli::bench_load::run(args),
        Command::Engine(args) => cli::engine::run(args),
        Command::Perft(args) => cli::perft::run(args),
        #[cfg(feature = "chess")]
        Command::Pgn(cmd) => cli::pgn::run(cmd),
        #[cfg(feature = "xiangqi")]
        Command::Xiangqi(cmd) => cli::xiangqi::run(cmd),
        #[cfg(feature = "go")]
        Command::Go(cmd) => cli::go::run(cmd),
        #[cfg(feature = "doudizhu")]
        Command::Doudizhu(cmd) => cli::doudizhu::run(cmd),
        #[cfg(feature = "swiss")]
        Command::Swiss(cmd) => cli::swiss::run(cmd),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("qiyuan: {err:#}");
            ExitCode::FAILURE
        }
    }
}
