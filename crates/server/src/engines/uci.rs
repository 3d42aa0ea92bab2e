//! The UCI and UCCI client: one engine process spoken to line by line, every read
//! under a deadline.
//!
//! A move is `position [startpos | fen …] [moves …]`, then `go`: UCI gets `go
//! movetime T` (and `depth D` where the level sets one); UCCI, which has no
//! per-move time, gets `go time 30·T` (or `go depth D`) and is stopped at the
//! deadline like any engine. At the deadline (the move's time and the grace) the
//! client sends `stop` and waits half a second more for `bestmove`; then it
//! gives up and the process is dropped (killed).

use std::collections::BTreeMap;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout};

use super::process::Watched;
use tokio::time::Instant;

use super::{EngineError, EngineLevel, EnginePosition, Protocol, decision, option_text};
use crate::bots::Thought;
use qiyuan_engine_core::expected_of_cp;

/// How long after `stop` an engine may still answer.
const AFTER_STOP: Duration = Duration::from_millis(500);

pub struct Client {
    process: Watched,
    stdin: ChildStdin,
    lines: Lines<BufReader<ChildStdout>>,
    protocol: Protocol,
    /// The `UCI_Variant` set last.
    variant: Option<&'static str>,
}

impl Client {
    /// Starts the session (`uci` … `uciok`, or `ucci` … `ucciok`), sets the
    /// options and waits for `readyok`.
    pub async fn start(
        mut child: Child,
        on_death: impl FnOnce(String) + Send + 'static,
        protocol: Protocol,
        options: &BTreeMap<String, toml::Value>,
        within: Duration,
    ) -> Result<Client, EngineError> {
        let stdin = child.stdin.take().ok_or(EngineError::Closed)?;
        let stdout = child.stdout.take().ok_or(EngineError::Closed)?;
        let mut c = Client {
            process: Watched::new(child, on_death),
            stdin,
            lines: BufReader::new(stdout).lines(),
            protocol,
            variant: None,
        };
        let deadline = Instant::now() + within;
        let (hello, ok) = match protocol {
            Protocol::Ucci => ("ucci", "ucciok"),
            _ => ("uci", "uciok"),
        };
        c.send(hello).await?;
        c.read_until(deadline, |l| l == ok).await?;
        for (name, value) in options {
            c.set_option(name, &option_text(value)).await?;
        }
        c.ready(deadline).await?;
        Ok(c)
    }

    pub fn pid(&self) -> Option<u32> {
        self.process.pid()
    }

    /// Whether the process still runs.
    pub fn alive(&self) -> bool {
        self.process.alive()
    }

    async fn send(&mut self, line: &str) -> Result<(), EngineError> {
        self.stdin.write_all(line.as_bytes()).await?;
        self.stdin.write_all(b"\n").await?;
        self.stdin.flush().await?;
        Ok(())
    }

    async fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        let line = match self.protocol {
            Protocol::Ucci => format!("setoption {name} {value}"),
            _ => format!("setoption name {name} value {value}"),
        };
        self.send(&line).await
    }

    async fn ready(&mut self, deadline: Instant) -> Result<(), EngineError> {
        self.send("isready").await?;
        self.read_until(deadline, |l| l == "readyok").await?;
        Ok(())
    }

    /// Reads lines until one for which `done` holds (returned), calling `seen`
    /// on the others.
    async fn read_until(
        &mut self,
        deadline: Instant,
        done: impl Fn(&str) -> bool,
    ) -> Result<String, EngineError> {
        self.read_seeing(deadline, done, |_| {}).await
    }

    async fn read_seeing(
        &mut self,
        deadline: Instant,
        done: impl Fn(&str) -> bool,
        mut seen: impl FnMut(&str),
    ) -> Result<String, EngineError> {
        loop {
            let line = tokio::time::timeout_at(deadline, self.lines.next_line())
                .await
                .map_err(|_| EngineError::Timeout)??
                .ok_or(EngineError::Closed)?;
            let line = line.trim();
            if done(line) {
                return Ok(line.to_string());
            }
            seen(line);
        }
    }

    /// The engine's analysis of the position for the analysis board: every
    /// `info` line it writes goes to `on_info`, until its `bestmove` after
    /// `time`, or after `stop` is set (the client then sends `stop`).
    pub async fn analyse(
        &mut self,
        position: &EnginePosition,
        time: Duration,
        stop: &std::sync::atomic::AtomicBool,
        on_info: &mut (dyn FnMut(&str) + Send),
    ) -> Result<(), EngineError> {
        let deadline = Instant::now() + time + AFTER_STOP * 2;
        self.prepare(None, position, deadline).await?;
        let ms = time.as_millis().max(1);
        let go = match self.protocol {
            Protocol::Ucci => format!("go time {} increment 0", ms * 30),
            _ => format!("go movetime {ms}"),
        };
        self.send(&go).await?;
        let stop_at = Instant::now() + time;
        let mut stopped = false;
        loop {
            let line = tokio::select! {
                line = self.lines.next_line() => line?.ok_or(EngineError::Closed)?,
                _ = tokio::time::sleep(Duration::from_millis(50)), if !stopped => {
                    if stop.load(std::sync::atomic::Ordering::Relaxed) || Instant::now() >= stop_at {
                        self.send("stop").await?;
                        stopped = true;
                    }
                    continue;
                }
                _ = tokio::time::sleep_until(deadline) => return Err(EngineError::Timeout),
            };
            let line = line.trim();
            if line.starts_with("bestmove") || line.starts_with("nobestmove") {
                return Ok(());
            }
            on_info(line);
        }
    }

    /// Sets the variant and the level's options and tells the position.
    async fn prepare(
        &mut self,
        level: Option<&EngineLevel>,
        position: &EnginePosition,
        deadline: Instant,
    ) -> Result<(), EngineError> {
        let EnginePosition::Uci {
            variant,
            fen,
            moves,
            ..
        } = position
        else {
            return Err(EngineError::NoPosition);
        };
        if self.protocol == Protocol::Uci
            && let Some(v) = variant
            && *variant != self.variant
        {
            self.set_option("UCI_Variant", v).await?;
            self.variant = *variant;
        }
        if let Some(level) = level {
            for (name, value) in &level.options {
                self.set_option(name, &option_text(value)).await?;
            }
        }
        self.ready(deadline).await?;
        let mut line = match fen {
            Some(fen) => format!("position fen {fen}"),
            None => "position startpos".to_string(),
        };
        if !moves.is_empty() {
            line.push_str(" moves ");
            line.push_str(&moves.join(" "));
        }
        self.send(&line).await
    }

    /// The engine's move in the position, within `movetime` (and `grace`).
    pub async fn think(
        &mut self,
        level: Option<&EngineLevel>,
        position: &EnginePosition,
        movetime: Duration,
        grace: Duration,
    ) -> Result<Thought, EngineError> {
        let EnginePosition::Uci { to_game, .. } = position else {
            return Err(EngineError::NoPosition);
        };
        let deadline = Instant::now() + movetime + grace;
        self.prepare(level, position, deadline).await?;
        let ms = movetime.as_millis().max(1);
        let depth = level.and_then(|l| l.depth);
        let go = match (self.protocol, depth) {
            (Protocol::Ucci, Some(d)) => format!("go depth {d}"),
            (Protocol::Ucci, None) => format!("go time {} increment 0", ms * 30),
            (_, Some(d)) => format!("go depth {d} movetime {ms}"),
            (_, None) => format!("go movetime {ms}"),
        };
        self.send(&go).await?;
        let mut score = None;
        let is_best = |l: &str| l.starts_with("bestmove") || l.starts_with("nobestmove");
        let note = |l: &str, score: &mut Option<f32>| {
            if let Some(s) = info_score(l) {
                *score = Some(s);
            }
        };
        let answer = match self
            .read_seeing(deadline, is_best, |l| note(l, &mut score))
            .await
        {
            Ok(a) => a,
            Err(EngineError::Timeout) => {
                self.send("stop").await?;
                self.read_seeing(Instant::now() + AFTER_STOP, is_best, |l| {
                    note(l, &mut score)
                })
                .await?
            }
            Err(e) => return Err(e),
        };
        let mv = answer.split_whitespace().nth(1);
        let mv = match mv {
            _ if answer.starts_with("nobestmove") => None,
            None | Some("(none)") | Some("0000") => None,
            Some(m) => Some(to_game(m).ok_or_else(|| EngineError::BadMove(m.to_string()))?),
        };
        Ok(Thought {
            decision: decision(mv),
            eval: score,
        })
    }
}

/// The expected score of an `info` line's `score cp N` / `score mate N` (UCCI:
/// `score N`), for the side to move.
fn info_score(line: &str) -> Option<f32> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    let words: Vec<&str> = words.collect();
    let i = words.iter().position(|w| *w == "score")?;
    match (words.get(i + 1), words.get(i + 2)) {
        (Some(&"cp"), Some(n)) => n.parse().ok().map(expected_of_cp),
        (Some(&"mate"), Some(n)) => n.parse::<i32>().ok().map(|n| if n > 0 { 1.0 } else { 0.0 }),
        (Some(n), _) => n.parse().ok().map(expected_of_cp),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::info_score;

    #[test]
    fn scores_are_read_from_info_lines() {
        assert_eq!(
            info_score("info depth 5 score cp 0 nodes 10 pv e2e4"),
            Some(0.5)
        );
        assert_eq!(info_score("info depth 9 score mate -3 pv a1a2"), Some(0.0));
        assert_eq!(info_score("info depth 9 score mate 2"), Some(1.0));
        assert!(info_score("info depth 3 score cp -700").unwrap() < 0.03);
        assert_eq!(info_score("info string hello"), None);
        assert_eq!(info_score("bestmove e2e4"), None);
        assert_eq!(info_score("info score cp"), None);
    }
}
