//! The GTP client: one Go engine process, each command answered by `= …` or
//! `? …` and a blank line, every read under a deadline.
//!
//! A move is `boardsize`, `clear_board`, `komi`, a `play` per stone and move so
//! far, `time_settings 0 T 1` (a hint: one move in T seconds; an engine that does
//! not know it is not asked again), then `genmove`.

use std::collections::BTreeMap;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout};

use super::process::Watched;
use tokio::time::Instant;

use super::{EngineError, EngineLevel, EnginePosition, decision, option_text};
use crate::bots::Thought;

pub struct Client {
    process: Watched,
    stdin: ChildStdin,
    lines: Lines<BufReader<ChildStdout>>,
    /// Whether the engine refused `time_settings`.
    no_time_settings: bool,
}

impl Client {
    /// Starts the session: checks the engine answers, then sends the options as
    /// commands (`level = 1` is `level 1`).
    pub async fn start(
        mut child: Child,
        on_death: impl FnOnce(String) + Send + 'static,
        options: &BTreeMap<String, toml::Value>,
        within: Duration,
    ) -> Result<Client, EngineError> {
        let stdin = child.stdin.take().ok_or(EngineError::Closed)?;
        let stdout = child.stdout.take().ok_or(EngineError::Closed)?;
        let mut c = Client {
            process: Watched::new(child, on_death),
            stdin,
            lines: BufReader::new(stdout).lines(),
            no_time_settings: false,
        };
        let deadline = Instant::now() + within;
        c.command("protocol_version", deadline).await?;
        for (name, value) in options {
            c.command(&format!("{name} {}", option_text(value)), deadline)
                .await?;
        }
        Ok(c)
    }

    pub fn pid(&self) -> Option<u32> {
        self.process.pid()
    }

    /// Whether the process still runs.
    pub fn alive(&self) -> bool {
        self.process.alive()
    }

    /// Sends one command and reads its answer: `Ok` for `= …`, `Refused` for `? …`.
    async fn command(&mut self, line: &str, deadline: Instant) -> Result<String, EngineError> {
        self.stdin.write_all(line.as_bytes()).await?;
        self.stdin.write_all(b"\n").await?;
        self.stdin.flush().await?;
        let mut answer: Option<(bool, String)> = None;
        loop {
            let line = tokio::time::timeout_at(deadline, self.lines.next_line())
                .await
                .map_err(|_| EngineError::Timeout)??
                .ok_or(EngineError::Closed)?;
            let line = line.trim();
            match &mut answer {
                None if line.is_empty() => continue,
                None => {
                    let ok = line.starts_with('=');
                    if !ok && !line.starts_with('?') {
                        continue;
                    }
                    answer = Some((ok, line[1..].trim().to_string()));
                }
                Some((ok, text)) => {
                    if line.is_empty() {
                        return if *ok {
                            Ok(std::mem::take(text))
                        } else {
                            Err(EngineError::Refused(std::mem::take(text)))
                        };
                    }
                    text.push('\n');
                    text.push_str(line);
                }
            }
        }
    }

    /// The engine's move in the position, within `movetime` (and `grace`).
    pub async fn think(
        &mut self,
        level: Option<&EngineLevel>,
        position: &EnginePosition,
        movetime: Duration,
        grace: Duration,
    ) -> Result<Thought, EngineError> {
        let EnginePosition::Gtp {
            size,
            komi,
            moves,
            black_to_move,
        } = position
        else {
            return Err(EngineError::NoPosition);
        };
        let deadline = Instant::now() + movetime + grace;
        self.command(&format!("boardsize {size}"), deadline).await?;
        self.command("clear_board", deadline).await?;
        self.command(&format!("komi {komi}"), deadline).await?;
        if let Some(level) = level {
            for (name, value) in &level.options {
                self.command(&format!("{name} {}", option_text(value)), deadline)
                    .await?;
            }
        }
        for (black, vertex) in moves {
            let color = if *black { "B" } else { "W" };
            self.command(&format!("play {color} {vertex}"), deadline)
                .await?;
        }
        if !self.no_time_settings {
            let secs = movetime.as_secs().max(1);
            let hint = format!("time_settings 0 {secs} 1");
            if let Err(EngineError::Refused(_)) = self.command(&hint, deadline).await {
                self.no_time_settings = true;
            }
        }
        let color = if *black_to_move { "B" } else { "W" };
        let answer = self.command(&format!("genmove {color}"), deadline).await?;
        let vertex = answer.trim();
        let mv = if vertex.eq_ignore_ascii_case("resign") {
            None
        } else if vertex.eq_ignore_ascii_case("pass") {
            Some("pass".to_string())
        } else if !vertex.is_empty() && vertex.chars().all(|c| c.is_ascii_alphanumeric()) {
            Some(vertex.to_ascii_uppercase())
        } else {
            return Err(EngineError::BadMove(vertex.to_string()));
        };
        Ok(Thought {
            decision: decision(mv),
            eval: None,
        })
    }
}
