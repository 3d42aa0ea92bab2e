//! `qiyuan engine --game chess|xiangqi|go`: a built-in engine over the field's
//! protocols on stdin/stdout, so GUIs, match tools and other engines can play it.
//!
//! - chess: UCI.
//! - xiangqi: UCI as Fairy-Stockfish speaks it (ranks `1`–`10`, `h3e3` for ICCS
//!   `h2e2`; `UCI_Variant xiangqi`) after `uci`, or UCCI (ICCS coordinates,
//!   `banmoves`, `go time … increment …`) after `ucci`; the first command decides.
//! - go: GTP version 2, in `cli::gtp`.
//!
//! This module is the shell around the pure engines: it reads commands, runs each
//! search on a thread of its own, and keeps the clock — a timer sets the search's
//! stop flag at the hard deadline, and the per-iteration callback declines a new
//! iteration past the soft one.

use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Game {
    Chess,
    Xiangqi,
    Go,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Which game's engine to run.
    #[arg(long, value_enum, env = "QIYUAN_ENGINE_GAME")]
    pub game: Game,
    /// The level, 1 (weakest) to 8 (strongest); the protocol's `Level` option
    /// changes it.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u8).range(1..=8))]
    pub level: u8,
    /// Seed of the engine's randomness: the same seed and commands give the same
    /// moves. Chess and xiangqi mix the move number in (default 0); Go's default
    /// comes from the clock.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Chess and xiangqi: transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Go: playouts per move instead of the level's.
    #[arg(long)]
    pub playouts: Option<u64>,
    /// Go: one line per move on stderr (playouts, win rate, time, best moves).
    #[arg(long)]
    pub verbose: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // Chess and xiangqi read stdin here; GTP reads it itself (stdin's lock is not
    // reentrant, so it is taken only where it is read).
    let lines = || std::io::stdin().lock().lines();
    match args.game {
        #[cfg(feature = "chess")]
        Game::Chess => chess::run(&args, lines()),
        #[cfg(feature = "xiangqi")]
        Game::Xiangqi => xiangqi::run(&args, lines()),
        #[cfg(feature = "go")]
        Game::Go => go(&args),
        #[allow(unreachable_patterns)]
        _ => anyhow::bail!("this binary was built without that game"),
    }?;
    Ok(ExitCode::SUCCESS)
}

/// Go over GTP (the loop is in `cli::gtp`).
#[cfg(feature = "go")]
fn go(args: &Args) -> anyhow::Result<()> {
    use anyhow::Context;
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    let level = qiyuan_engine_go::Level::new(u32::from(args.level)).context("--level")?;
    super::gtp::run(super::gtp::Options {
        level,
        seed,
        playouts: args.playouts,
        verbose: args.verbose,
    })
}

/// Prints one protocol line and flushes it.
fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    // A closed stdout means the GUI has gone; the read loop ends soon after.
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// The parameters of a `go` command (UCI names; UCCI's are mapped onto them).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct Go {
    /// Time left of the first player (White, Red) and the second, in ms.
    time: [Option<u64>; 2],
    inc: [Option<u64>; 2],
    movestogo: Option<u64>,
    movetime: Option<u64>,
    depth: Option<u32>,
    nodes: Option<u64>,
    infinite: bool,
    /// `go ponder`: search the opponent's time until `ponderhit` (then the clock
    /// of this command runs) or `stop`.
    ponder: bool,
}

fn parse_number<T: std::str::FromStr>(words: &[&str], i: usize) -> Option<T> {
    words.get(i + 1).and_then(|w| w.parse().ok())
}

/// Reads `go …`. UCCI's `time`/`increment` are the side to move's: `mover` is 0
/// for the first player, 1 for the second.
fn parse_go(words: &[&str], mover: usize) -> Go {
    let mut go = Go::default();
    for (i, w) in words.iter().enumerate() {
        match *w {
            "wtime" => go.time[0] = parse_number(words, i),
            "btime" => go.time[1] = parse_number(words, i),
            "winc" => go.inc[0] = parse_number(words, i),
            "binc" => go.inc[1] = parse_number(words, i),
            "time" => go.time[mover] = parse_number(words, i),
            "increment" => go.inc[mover] = parse_number(words, i),
            "opptime" => go.time[1 - mover] = parse_number(words, i),
            "oppincrement" => go.inc[1 - mover] = parse_number(words, i),
            "movestogo" => go.movestogo = parse_number(words, i),
            "movetime" => go.movetime = parse_number(words, i),
            "depth" => go.depth = parse_number(words, i),
            "nodes" => go.nodes = parse_number(words, i),
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            _ => {}
        }
    }
    go
}

/// Soft and hard thinking time for one move. The soft limit ends the search
/// between iterations, the hard one through the stop flag.
fn plan_time(
    go: &Go,
    mover: usize,
    level_cap: Option<u64>,
) -> (Option<Duration>, Option<Duration>) {
    const OVERHEAD: u64 = 30;
    // A fixed movetime is not a clock that can be lost: keep back only the
    // stop flag's latency and the pipe (about 1-2 ms unloaded).
    const MOVETIME_MARGIN: u64 = 5;
    let (mut soft, mut hard) = (None, None);
    if let Some(mt) = go.movetime {
        let t = mt.saturating_sub(MOVETIME_MARGIN).max(1);
        soft = Some(t);
        hard = Some(t);
    } else if let Some(left) = go.time[mover] {
        let inc = go.inc[mover].unwrap_or(0);
        let moves = go.movestogo.unwrap_or(30).clamp(1, 50);
        let usable = left.saturating_sub(OVERHEAD);
        let alloc = usable / moves + inc * 3 / 4;
        let cap = usable / 3;
        soft = Some((alloc * 6 / 10).min(cap).max(1));
        hard = Some((alloc * 5 / 2).min(cap).max(1));
    }
    if go.infinite {
        return (None, None);
    }
    if let Some(c) = level_cap {
        soft = Some(soft.map_or(c, |s| s.min(c)));
        hard = Some(hard.map_or(c, |h| h.min(c)));
    }
    (
        soft.map(Duration::from_millis),
        hard.map(Duration::from_millis),
    )
}

/// The search thread: owns the searcher while it thinks and hands it back.
struct Worker<S> {
    searcher: Option<S>,
    running: Option<(JoinHandle<S>, Arc<AtomicBool>)>,
}

impl<S: Send + 'static> Worker<S> {
    fn new(s: S) -> Self {
        Worker {
            searcher: Some(s),
            running: None,
        }
    }

    /// Waits for a running search to end (without stopping it).
    fn wait(&mut self) {
        if let Some((h, _)) = self.running.take() {
            match h.join() {
                Ok(s) => self.searcher = Some(s),
                Err(_) => say("info string the search thread panicked"),
            }
        }
    }

    /// Stops a running search and waits for its `bestmove`.
    fn stop(&mut self) {
        if let Some((_, flag)) = &self.running {
            flag.store(true, Ordering::Relaxed);
        }
        self.wait();
    }

    /// The idle searcher (stops a running search first: a GUI that changes
    /// options or starts a new game mid-search has given up on it).
    fn idle(&mut self) -> Option<&mut S> {
        self.stop();
        self.searcher.as_mut()
    }

    /// Sets the running search's stop flag after `d` (the clock starts at
    /// `ponderhit`).
    fn arm(&self, d: Duration) {
        if let Some((_, flag)) = &self.running {
            let timer = Arc::clone(flag);
            std::thread::spawn(move || {
                std::thread::sleep(d);
                timer.store(true, Ordering::Relaxed);
            });
        }
    }

    /// Starts `f` on a thread with the searcher and a fresh stop flag; a timer
    /// sets the flag after `hard`.
    fn start(
        &mut self,
        hard: Option<Duration>,
        f: impl FnOnce(&mut S, &AtomicBool) + Send + 'static,
    ) {
        self.wait();
        let Some(mut s) = self.searcher.take() else {
            return;
        };
        let flag = Arc::new(AtomicBool::new(false));
        if let Some(d) = hard {
            let timer = Arc::clone(&flag);
            std::thread::spawn(move || {
                std::thread::sleep(d);
                timer.store(true, Ordering::Relaxed);
            });
        }
        let f_flag = Arc::clone(&flag);
        let h = std::thread::spawn(move || {
            f(&mut s, &f_flag);
            s
        });
        self.running = Some((h, flag));
    }
}

/// After an infinite search, and a ponder search before `ponderhit`, `bestmove`
/// waits for `stop` (or the hit).
fn wait_for_stop(infinite: bool, pondering: &AtomicBool, stop: &AtomicBool) {
    while (infinite || pondering.load(Ordering::Relaxed)) && !stop.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// The most lines `MultiPV` gives.
const MAX_LINES: usize = 64;

/// The `bestmove` line: the move, and the reply the engine expects as the move
/// to ponder on when its line has one.
#[cfg(any(feature = "chess", feature = "xiangqi"))]
fn bestmove_line(best: &str, pv: &[String]) -> String {
    match pv.get(1) {
        Some(reply) if pv.first().map(String::as_str) == Some(best) => {
            format!("bestmove {best} ponder {reply}")
        }
        _ => format!("bestmove {best}"),
    }
}

fn nps(nodes: u64, since: Instant) -> u64 {
    let ms = since.elapsed().as_millis().max(1) as u64;
    nodes * 1000 / ms
}

/// The value of `setoption name <Name> value <v>` (UCI) or `setoption <name> <v>`
/// (UCCI), with the name lower-cased.
fn parse_setoption(words: &[&str]) -> Option<(String, String)> {
    if words.get(1) == Some(&"name") {
        let vi = words.iter().position(|w| *w == "value");
        let name = words[2..vi.unwrap_or(words.len())]
            .join(" ")
            .to_ascii_lowercase();
        let value = vi.map(|i| words[i + 1..].join(" ")).unwrap_or_default();
        Some((name, value))
    } else {
        Some((words.get(1)?.to_ascii_lowercase(), words[2..].join(" ")))
    }
}

#[cfg(any(feature = "chess", feature = "xiangqi"))]
/// One `info` line of a finished iteration, in the protocol's words.
struct InfoLine {
    /// Which line of a `MultiPV` analysis, from 1.
    multipv: usize,
    depth: u32,
    seldepth: u32,
    score: String,
    nodes: u64,
    pv: Vec<String>,
}

#[cfg(any(feature = "chess", feature = "xiangqi"))]
/// A search to run on the worker thread: it reports each iteration of each line
/// (which answers whether to go on) and returns the `bestmove` line.
type Job<S> =
    Box<dyn FnOnce(&mut S, &AtomicBool, &mut dyn FnMut(InfoLine) -> bool) -> String + Send>;

#[cfg(any(feature = "chess", feature = "xiangqi"))]
/// What the UCI loop ([`serve`]) needs of a game: its searcher, its position
/// commands and coordinates, and the commands only it knows.
trait UciGame {
    type Searcher: Send + 'static;
    fn searcher(hash_mb: usize) -> Self::Searcher;
    fn clear(s: &mut Self::Searcher);
    fn resize(s: &mut Self::Searcher, hash_mb: usize);
    /// The answer to a greeting (`uci`, `ucci`), which also picks the dialect;
    /// `None` if `command` is not one.
    fn greet(&mut self, command: &str) -> Option<Vec<&'static str>>;
    /// Is `name` (lower case) the option of the table size?
    fn is_hash_option(name: &str) -> bool;
    /// A game option other than the level and the table size: `Some(line)` to
    /// answer with an `info string`.
    fn other_option(&self, name: &str, value: &str) -> Option<String>;
    /// `position …`.
    fn position(&mut self, words: &[&str]) -> Result<(), String>;
    /// A command only this game knows; false if it is not one.
    fn command(&mut self, words: &[&str]) -> bool;
    /// 0 if the first player (White, Red) is to move, else 1.
    fn mover(&self) -> usize;
    /// Plies played since the position's start (mixed into the seed).
    fn plies(&self) -> usize;
    /// The search of the current position with these limits, `lines` best
    /// moves (`MultiPV`): each line searched in turn without the moves of the
    /// lines before it.
    fn job(
        &mut self,
        level: Level,
        seed: u64,
        depth: Option<u32>,
        nodes: Option<u64>,
        lines: usize,
    ) -> Job<Self::Searcher>;
    /// Said on `quit`, if anything.
    fn farewell(&self) -> Option<&'static str>;
}

#[cfg(feature = "chess")]
use qiyuan_engine_chess::Level;
#[cfg(all(feature = "xiangqi", not(feature = "chess")))]
use qiyuan_engine_xiangqi::Level;

#[cfg(any(feature = "chess", feature = "xiangqi"))]
/// The UCI loop of chess and xiangqi (UCCI too): reads commands, runs each
/// search on the worker thread, keeps the clock.
fn serve<G: UciGame>(
    game: &mut G,
    args: &Args,
    lines: impl Iterator<Item = std::io::Result<String>>,
) -> anyhow::Result<()> {
    let mut worker = Worker::new(G::searcher(args.hash));
    let mut level = args.level;
    let mut lines_wanted = 1;
    // The running `go ponder`: whether it still ponders, when (ms after its
    // start) `ponderhit` came, and its hard limit, which starts at the hit.
    let mut pondering = Arc::new(AtomicBool::new(false));
    let mut hit_ms = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let mut ponder_started = Instant::now();
    let mut ponder_hard: Option<Duration> = None;
    for line in lines {
        let line = line?;
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&first) = words.first() else {
            continue;
        };
        if let Some(answer) = game.greet(first) {
            for a in answer {
                say(a);
            }
            continue;
        }
        match first {
            "isready" => say("readyok"),
            "ucinewgame" => {
                if let Some(s) = worker.idle() {
                    G::clear(s);
                }
            }
            "setoption" => {
                let Some((name, value)) = parse_setoption(&words) else {
                    continue;
                };
                if name == "level" {
                    match value.parse::<u8>() {
                        Ok(n) if (1..=8).contains(&n) => level = n,
                        _ => say(&format!("info string level must be 1..8, not {value}")),
                    }
                } else if name == "multipv" {
                    match value.parse::<usize>() {
                        Ok(n) if (1..=MAX_LINES).contains(&n) => lines_wanted = n,
                        _ => say(&format!(
                            "info string MultiPV must be 1..{MAX_LINES}, not {value}"
                        )),
                    }
                } else if name == "ponder" {
                    // Pondering needs nothing set: `go ponder` is enough.
                } else if G::is_hash_option(&name) {
                    if let (Ok(mb), Some(s)) = (value.parse::<usize>(), worker.idle()) {
                        G::resize(s, mb.clamp(1, 4096));
                    }
                } else if let Some(answer) = game.other_option(&name, &value) {
                    say(&answer);
                }
            }
            "position" => {
                if let Err(e) = game.position(&words) {
                    say(&format!("info string {e}"));
                }
            }
            "go" => {
                let mover = game.mover();
                let go = parse_go(&words, mover);
                let lv = Level::get(level);
                let (soft, hard) = plan_time(&go, mover, lv.movetime_ms);
                let seed = args.seed.unwrap_or(0) ^ (game.plies() as u64).wrapping_mul(0x9E37_79B9);
                let job = game.job(lv, seed, go.depth, go.nodes, lines_wanted);
                let infinite = go.infinite;
                let line_count = lines_wanted;
                pondering = Arc::new(AtomicBool::new(go.ponder));
                hit_ms = Arc::new(std::sync::atomic::AtomicU64::new(0));
                ponder_started = Instant::now();
                ponder_hard = if go.ponder { hard } else { None };
                let (ponder, hit) = (Arc::clone(&pondering), Arc::clone(&hit_ms));
                let t0 = ponder_started;
                worker.start(if go.ponder { None } else { hard }, move |s, stop| {
                    // With several lines, each has its share of the soft limit.
                    let mut current = 0;
                    let mut line_start = t0;
                    let best = job(s, stop, &mut |info| {
                        if info.multipv != current {
                            current = info.multipv;
                            line_start = Instant::now();
                        }
                        let multipv = if line_count > 1 {
                            format!(" multipv {}", info.multipv)
                        } else {
                            String::new()
                        };
                        say(&format!(
                            "info depth {} seldepth {}{multipv} score {} nodes {} nps {} time {} pv {}",
                            info.depth,
                            info.seldepth,
                            info.score,
                            info.nodes,
                            nps(info.nodes, t0),
                            t0.elapsed().as_millis(),
                            info.pv.join(" ")
                        ));
                        if ponder.load(Ordering::Relaxed) {
                            return true;
                        }
                        // The clock runs from the ponderhit, if there was one.
                        let since = Duration::from_millis(hit.load(Ordering::Relaxed));
                        let clock_start = (t0 + since).max(if line_count > 1 {
                            line_start
                        } else {
                            t0
                        });
                        soft.is_none_or(|d| {
                            Instant::now().saturating_duration_since(clock_start)
                                < d / line_count as u32
                        })
                    });
                    wait_for_stop(infinite, &ponder, stop);
                    say(&best);
                });
            }
            "stop" => {
                pondering.store(false, Ordering::Relaxed);
                worker.stop();
            }
            "ponderhit" => {
                if pondering.swap(false, Ordering::Relaxed) {
                    hit_ms.store(
                        ponder_started.elapsed().as_millis() as u64,
                        Ordering::Relaxed,
                    );
                    if let Some(d) = ponder_hard {
                        worker.arm(d);
                    }
                }
            }
            "quit" => {
                pondering.store(false, Ordering::Relaxed);
                worker.stop();
                if let Some(bye) = game.farewell() {
                    say(bye);
                }
                break;
            }
            _ if game.command(&words) => {}
            other => say(&format!("info string unknown command {other}")),
        }
    }
    pondering.store(false, Ordering::Relaxed);
    worker.stop();
    Ok(())
}

#[cfg(any(feature = "chess", feature = "xiangqi"))]
/// The limits of a level, narrowed by `go depth` / `go nodes`.
fn narrowed(depth: &mut u32, nodes: &mut u64, go_depth: Option<u32>, go_nodes: Option<u64>) {
    if let Some(d) = go_depth {
        *depth = (*depth).min(d.max(1));
    }
    if let Some(n) = go_nodes {
        *nodes = (*nodes).min(n.max(1));
    }
}

#[cfg(feature = "chess")]
mod chess;

#[cfg(feature = "xiangqi")]
mod xiangqi;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_time_is_split_over_the_remaining_moves() {
        let go = parse_go(
            &[
                "go", "wtime", "60000", "btime", "1000", "winc", "600", "binc", "0",
            ],
            0,
        );
        let (soft, hard) = plan_time(&go, 0, None);
        assert_eq!(
            soft,
            Some(Duration::from_millis((59_970 / 30 + 450) * 6 / 10))
        );
        assert_eq!(
            hard,
            Some(Duration::from_millis((59_970 / 30 + 450) * 5 / 2))
        );
        // Black has a second left for its last move before the control: never
        // more than a third of it.
        let last = parse_go(
            &["go", "wtime", "60000", "btime", "1000", "movestogo", "1"],
            0,
        );
        let (_, hard) = plan_time(&last, 1, None);
        assert_eq!(hard, Some(Duration::from_millis(970 / 3)));
        // A level's cap bounds both.
        let (soft, hard) = plan_time(&go, 0, Some(100));
        assert_eq!(
            (soft, hard),
            (
                Some(Duration::from_millis(100)),
                Some(Duration::from_millis(100))
            )
        );
    }

    #[test]
    fn ucci_time_is_the_side_to_move_s() {
        let go = parse_go(
            &["go", "time", "5000", "increment", "100", "opptime", "9000"],
            1,
        );
        assert_eq!(go.time, [Some(9000), Some(5000)]);
        assert_eq!(go.inc, [None, Some(100)]);
        assert_eq!(
            plan_time(&parse_go(&["go", "infinite"], 0), 0, Some(100)),
            (None, None)
        );
    }
}
