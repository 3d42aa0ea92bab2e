//! Child processes of a test: the `qiyuan` binary and its `serve` command line, and a guard that kills a
//! child however the test ends (a leaked server would hold the test's output
//! open and its port taken).

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// The `qiyuan` binary that tests of other crates than the root one run
/// (`$QIYUAN_BIN`, else the workspace's debug build), which must be there. The
/// root package's own tests use `env!("CARGO_BIN_EXE_qiyuan")`, which cargo
/// builds for them.
pub fn qiyuan_bin() -> PathBuf {
    let bin = match std::env::var_os("QIYUAN_BIN") {
        Some(p) => p.into(),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/debug/qiyuan"),
    };
    assert!(
        bin.exists(),
        "{} is missing: build it with `cargo build -p qiyuan --bin qiyuan` or set QIYUAN_BIN",
        bin.display()
    );
    bin
}

/// A child process killed (and reaped) when dropped.
pub struct KillOnDrop(pub Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `bin serve` on 127.0.0.1:`port` with its data in `data`, not yet started:
/// logging warnings only, its standard output discarded, and no database from
/// the test's environment (`QIYUAN_DATABASE`), so that it uses what the caller
/// adds or SQLite in `data`.
pub fn serve_command(bin: impl AsRef<OsStr>, port: u16, data: &Path) -> Command {
    let mut cmd = Command::new(bin);
    cmd.args(["serve", "--listen", &format!("127.0.0.1:{port}")])
        .arg("--data")
        .arg(data)
        .env("QIYUAN_LOG", "warn")
        .env_remove("QIYUAN_DATABASE")
        .stdout(Stdio::null());
    cmd
}
