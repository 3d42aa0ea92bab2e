//! Running the `qiyuan` binary that cargo builds for these tests.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_qiyuan"))
        .args(args)
        .output()
        .expect("the qiyuan binary runs")
}

/// `qiyuan ARGS` run to its end: whether it succeeded, its standard output and
/// its standard error.
pub fn qiyuan(args: &[&str]) -> (bool, String, String) {
    let out = run(args);
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `qiyuan ARGS` run to its end: its exit code (-1 if a signal ended it), its
/// standard output and its standard error.
pub fn qiyuan_exit(args: &[&str]) -> (i32, String, String) {
    let out = run(args);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
