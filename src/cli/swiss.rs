//! `qiyuan swiss` (being written).

use std::process::ExitCode;

#[derive(Debug, clap::Subcommand)]
pub enum Command {}

pub fn run(cmd: Command) -> anyhow::Result<ExitCode> {
    match cmd {}
}
