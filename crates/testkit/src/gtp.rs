//! A GTP (Go Text Protocol) client for the tests that play Go programs — ours
//! (`qiyuan engine --game go`) and GNU Go — against each other or themselves.

use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// GNU Go, as Debian installs it (`apt-get install gnugo`), which must be there.
pub fn gnugo() -> PathBuf {
    ["/usr/games/gnugo", "/usr/bin/gnugo"]
        .into_iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
        .unwrap_or_else(|| {
            panic!("GNU Go is not installed (this test needs it): apt-get install gnugo")
        })
}

/// A GTP engine running as a child process; told `quit` and waited for when
/// dropped.
pub struct Gtp {
    /// The program's name in failures.
    pub name: &'static str,
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Gtp {
    /// Starts `program` with `args`; `name` names it in failures.
    pub fn start(
        name: &'static str,
        program: impl AsRef<OsStr>,
        args: impl IntoIterator<Item = impl AsRef<OsStr>>,
    ) -> Gtp {
        let program = program.as_ref();
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("start {}: {e}", program.display()));
        let input = child.stdin.take().expect("piped stdin");
        let output = BufReader::new(child.stdout.take().expect("piped stdout"));
        Gtp {
            name,
            child,
            input,
            output,
        }
    }

    /// Sends a command; Ok(answer) for `=`, Err(message) for `?`. The lines of
    /// a multi-line answer are joined by `\n`.
    pub fn send(&mut self, command: &str) -> Result<String, String> {
        writeln!(self.input, "{command}").unwrap();
        self.input.flush().unwrap();
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            let n = self.output.read_line(&mut line).unwrap();
            assert!(n > 0, "{} closed its output after {command:?}", self.name);
            let line = line.trim_end();
            if line.is_empty() {
                if lines.is_empty() {
                    continue;
                }
                break;
            }
            lines.push(line.to_string());
        }
        let answer = lines.join("\n");
        match answer.as_bytes().first() {
            Some(b'=') => Ok(answer[1..].trim().to_string()),
            Some(b'?') => Err(answer[1..].trim().to_string()),
            _ => panic!("{} answered {command:?} with {answer:?}", self.name),
        }
    }

    /// Sends a command that must succeed; its answer.
    pub fn ask(&mut self, command: &str) -> String {
        self.send(command)
            .unwrap_or_else(|e| panic!("{} refused {command:?}: {e}", self.name))
    }
}

impl Drop for Gtp {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        let _ = self.child.wait();
    }
}
