//! `qiyuan xiangqi` (being written).

use std::process::ExitCode;

#[derive(Debug, clap::Subcommand)]
pub enum Command {}

pub fn run(cmd: Command) -> anyhow::Result<ExitCode> {
    match cmd {}
}

pub fn perft(_fen: Option<&str>, _depth: u32, _divide: bool) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not yet built")
}
