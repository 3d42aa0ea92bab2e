//! The Go Text Protocol (GTP version 2) over stdin and stdout for the built-in Go
//! engine, so that GUIs, GNU Go and match tools can play it.
//!
//! Commands are read one line at a time and answered in order (`=id answer` or
//! `?id error`, then a blank line). `genmove` searches on this thread while a timer
//! thread sets the engine's stop flag at the move's deadline: the level's longest
//! think, cut to what the clock of `time_settings` / `time_left` allows.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use qiyuan_engine_go::{Decision, Engine, Level, Settings};
use qiyuan_go::{Color, Move, Point};

/// How the engine plays.
#[derive(Debug, Clone)]
pub struct Options {
    pub level: Level,
    pub seed: u64,
    /// Playouts per move instead of the level's.
    pub playouts: Option<u64>,
    /// A line on stderr per move: playouts, win rate, time.
    pub verbose: bool,
}

const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "final_score",
    "final_status_list",
    "time_settings",
    "time_left",
    "showboard",
    "quit",
];

/// Playouts for `final_score` and `final_status_list`.
const ESTIMATE_PLAYOUTS: u64 = 2000;
/// Time kept back from every clock budget for the protocol's round trip.
const CLOCK_MARGIN: f64 = 0.3;

/// The clock as GTP tells it: Canadian byo-yomi (`byo` seconds for `stones` moves
/// after `main`); no limit until `time_settings` says otherwise.
#[derive(Debug, Clone, Copy, Default)]
struct Clock {
    main: f64,
    byo: f64,
    stones: u32,
    /// From `time_left`, per colour: seconds, and stones left in the period (0 while
    /// in main time).
    left: [Option<(f64, u32)>; 2],
}

impl Clock {
    /// The longest the next move may think by the clock, if it is limited.
    fn budget(&self, color: Color, empties: usize) -> Option<f64> {
        if self.main <= 0.0 && self.byo <= 0.0 {
            return None;
        }
        let (time, stones) = self.left[color.index()].unwrap_or((self.main, 0));
        let seconds = if stones > 0 {
            time / f64::from(stones)
        } else {
            let moves_left = (empties as f64 / 3.0).max(12.0);
            let byo_share = if self.stones > 0 {
                self.byo / f64::from(self.stones)
            } else {
                0.0
            };
            time / moves_left + byo_share
        };
        Some((seconds - CLOCK_MARGIN).max(0.05))
    }
}

struct Session {
    engine: Engine,
    options: Options,
    settings: Settings,
    clock: Clock,
}

enum Reply {
    Ok(String),
    Err(String),
    Quit,
}

pub fn run(options: Options) -> anyhow::Result<()> {
    let mut settings = options.level.settings();
    if let Some(n) = options.playouts {
        settings.playouts = n.max(1);
    }
    let mut session = Session {
        engine: Engine::new(19, 7.5, options.seed)?,
        options,
        settings,
        clock: Clock::default(),
    };
    let mut input = std::io::stdin().lock();
    let mut out = std::io::stdout().lock();
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        if input.read_until(b'\n', &mut bytes)? == 0 {
            break;
        }
        // Bytes that are not UTF-8 cannot be a command; they become U+FFFD and fail.
        let line = String::from_utf8_lossy(&bytes);
        let Some((id, words)) = parse_line(&line) else {
            continue;
        };
        let reply = session.command(&words);
        let (mark, text, quit) = match reply {
            Reply::Ok(t) => ('=', t, false),
            Reply::Err(t) => ('?', t, false),
            Reply::Quit => ('=', String::new(), true),
        };
        let sep = if text.is_empty() { "" } else { " " };
        write!(out, "{mark}{}{sep}{text}\n\n", id.unwrap_or_default())?;
        out.flush()?;
        if quit {
            break;
        }
    }
    Ok(())
}

/// A command line without its comment and control characters: the optional id and
/// the words; None for a line with no command.
fn parse_line(line: &str) -> Option<(Option<String>, Vec<String>)> {
    let line = line.split('#').next().unwrap_or("");
    let clean: String = line
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    let mut words: Vec<String> = clean.split_whitespace().map(str::to_string).collect();
    if words.is_empty() {
        return None;
    }
    let id = if words[0].bytes().all(|b| b.is_ascii_digit()) {
        Some(words.remove(0))
    } else {
        None
    };
    if words.is_empty() {
        return None;
    }
    Some((id, words))
}

fn parse_color(word: &str) -> Option<Color> {
    match word.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(Color::Black),
        "w" | "white" => Some(Color::White),
        _ => None,
    }
}

impl Session {
    fn command(&mut self, words: &[String]) -> Reply {
        let args = &words[1..];
        let arg = |k: usize| args.get(k).map(String::as_str).unwrap_or("");
        match words[0].as_str() {
            "protocol_version" => Reply::Ok("2".into()),
            "name" => Reply::Ok("qiyuan".into()),
            "version" => Reply::Ok(env!("CARGO_PKG_VERSION").into()),
            "known_command" => Reply::Ok(COMMANDS.contains(&arg(0)).to_string()),
            "list_commands" => Reply::Ok(COMMANDS.join("\n")),
            "quit" => Reply::Quit,
            "boardsize" => match arg(0).parse::<u8>() {
                Ok(size) if (qiyuan_go::MIN_SIZE..=qiyuan_go::MAX_SIZE).contains(&size) => {
                    match Engine::new(size, self.engine.komi(), self.options.seed) {
                        Ok(engine) => {
                            self.engine = engine;
                            Reply::Ok(String::new())
                        }
                        Err(e) => Reply::Err(format!("unacceptable size: {e}")),
                    }
                }
                _ => Reply::Err("unacceptable size".into()),
            },
            "clear_board" => {
                self.engine.clear();
                Reply::Ok(String::new())
            }
            "komi" => match arg(0).parse::<f64>() {
                Ok(k) if k.is_finite() => {
                    self.engine.set_komi(k);
                    Reply::Ok(String::new())
                }
                _ => Reply::Err("syntax error".into()),
            },
            "play" => self.play(arg(0), arg(1)),
            "genmove" => match parse_color(arg(0)) {
                Some(c) => self.genmove(c),
                None => Reply::Err("syntax error".into()),
            },
            "undo" => {
                if self.engine.undo() {
                    Reply::Ok(String::new())
                } else {
                    Reply::Err("cannot undo".into())
                }
            }
            "final_score" => {
                let est = self
                    .engine
                    .estimate(ESTIMATE_PLAYOUTS, &AtomicBool::new(false));
                Reply::Ok(est.score.to_string())
            }
            "final_status_list" => self.status_list(arg(0)),
            "time_settings" => {
                let nums: Vec<Option<f64>> = args.iter().map(|a| a.parse().ok()).collect();
                match nums.as_slice() {
                    [Some(main), Some(byo), Some(stones)] if *stones >= 0.0 => {
                        self.clock = Clock {
                            main: *main,
                            byo: *byo,
                            stones: *stones as u32,
                            left: [None; 2],
                        };
                        Reply::Ok(String::new())
                    }
                    _ => Reply::Err("syntax error".into()),
                }
            }
            "time_left" => match (
                parse_color(arg(0)),
                arg(1).parse::<f64>(),
                arg(2).parse::<u32>(),
            ) {
                (Some(c), Ok(t), Ok(s)) => {
                    self.clock.left[c.index()] = Some((t, s));
                    Reply::Ok(String::new())
                }
                _ => Reply::Err("syntax error".into()),
            },
            "showboard" => {
                let rows = self.engine.board().rows();
                Reply::Ok(format!("\n{}", rows.join("\n")))
            }
            _ => Reply::Err("unknown command".into()),
        }
    }

    fn play(&mut self, color: &str, vertex: &str) -> Reply {
        let Some(color) = parse_color(color) else {
            return Reply::Err("syntax error".into());
        };
        let mv = match Move::parse(vertex, self.engine.size()) {
            Ok(mv) => mv,
            Err(_) => return Reply::Err("syntax error".into()),
        };
        match self.engine.play(color, mv) {
            Ok(()) => Reply::Ok(String::new()),
            Err(_) => Reply::Err("illegal move".into()),
        }
    }

    fn genmove(&mut self, color: Color) -> Reply {
        let empties = self.engine.board().empty_count();
        let mut seconds = self.settings.max_seconds;
        if let Some(clock) = self.clock.budget(color, empties) {
            seconds = seconds.min(clock);
        }
        let stop = AtomicBool::new(false);
        let (done, wait) = mpsc::channel::<()>();
        let start = Instant::now();
        let report = std::thread::scope(|scope| {
            let stop = &stop;
            scope.spawn(move || {
                // Wakes at the deadline, or early when the search ends and drops `done`.
                if let Err(mpsc::RecvTimeoutError::Timeout) =
                    wait.recv_timeout(Duration::from_secs_f64(seconds))
                {
                    stop.store(true, Ordering::Relaxed);
                }
            });
            let report = self.engine.genmove(color, &self.settings, stop);
            drop(done);
            report
        });
        if self.options.verbose {
            let best: Vec<String> = report
                .candidates
                .iter()
                .take(4)
                .map(|c| format!("{} {} {:.2}", c.mv, c.visits, c.winrate))
                .collect();
            eprintln!(
                "qiyuan: {} {:?} win {:.2}, {} playouts in {:.2}s; {}",
                color,
                report.decision,
                report.winrate,
                report.playouts,
                start.elapsed().as_secs_f64(),
                best.join(", ")
            );
        }
        let mv = match report.decision {
            Decision::Resign => return Reply::Ok("resign".into()),
            Decision::Pass => Move::Pass,
            Decision::Play(p) => Move::Place(p),
        };
        match self.engine.play(color, mv) {
            Ok(()) => Reply::Ok(mv.to_string()),
            Err(e) => Reply::Err(format!("the engine chose an illegal move: {e}")),
        }
    }

    fn status_list(&mut self, which: &str) -> Reply {
        let est = self
            .engine
            .estimate(ESTIMATE_PLAYOUTS, &AtomicBool::new(false));
        let board = self.engine.board();
        let stones: Vec<Point> = match which {
            "dead" => est.dead.clone(),
            "alive" => board
                .points()
                .filter(|p| board.get(*p).is_some() && !est.dead.contains(p))
                .collect(),
            "seki" => Vec::new(),
            _ => return Reply::Err("syntax error".into()),
        };
        // One line per chain, as GNU Go answers.
        let mut lines = Vec::new();
        let mut done = Vec::new();
        for p in stones {
            if done.contains(&p) {
                continue;
            }
            let chain: Vec<Point> = board.chain(p);
            lines.push(
                chain
                    .iter()
                    .map(Point::to_string)
                    .collect::<Vec<_>>()
                    .join(" "),
            );
            done.extend(chain);
        }
        Reply::Ok(lines.join("\n"))
    }
}
