//! The Python that runs the independent programs the tests compare with —
//! python-chess, sgfmill, Prometheus's text parser, berserk, lichess-bot.
//!
//! The Python is `$QIYUAN_PYTHON`, else the repository's `.venv`
//! (`scripts/test.sh` creates it with `pip install chess sgfmill
//! prometheus-client berserk` and lichess-bot's `requirements.txt`); without
//! either a test fails and says how to make one.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The Python to run; `needs` names the package the calling test uses, for the
/// message when there is none.
pub fn python(needs: &str) -> PathBuf {
    if let Some(p) = std::env::var_os("QIYUAN_PYTHON") {
        return p.into();
    }
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.venv/bin/python");
    assert!(
        venv.exists(),
        "this test needs {needs}: set QIYUAN_PYTHON to a Python that has it, or create {} \
         (python3 -m venv .venv && .venv/bin/pip install chess sgfmill prometheus-client berserk \
         -r ../shared/vendor/lichess-bot/requirements.txt)",
        venv.display()
    );
    venv
}

/// Runs `script` (`python -c`) with `input` on its stdin: its stdout, or its
/// stderr when it fails.
pub fn run_python(needs: &str, script: &str, input: &str) -> Result<String, String> {
    let mut child = Command::new(python(needs))
        .arg("-c")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start python: {e}"))?;
    child
        .stdin
        .take()
        .expect("piped stdin")
        .write_all(input.as_bytes())
        .map_err(|e| format!("cannot write to python: {e}"))?;
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    String::from_utf8(out.stdout).map_err(|e| e.to_string())
}
