//! The Go Text Protocol (GTP version 2) over stdin and stdout for the built-in Go
//! engine, so that GUIs, GNU Go and match tools can play it.
//!
//! Commands are read one line at a time (by a reader thread, so that an analysis
//! hears the next command) and answered in order (`=id answer` or `?id error`, then
//! a blank line). `genmove` searches on this thread while a timer thread sets the
//! engine's stop flag at the move's deadline: the level's longest think, cut to what
//! the clock of `time_settings` / `kgs-time_settings` / `time_left` allows.
//!
//! Beyond GTP's required commands: the handicap commands (`fixed_handicap`,
//! `place_free_handicap`, `set_free_handicap`; white gets one point per handicap
//! stone at the count, as the hall's Chinese rules give it), `kgs-time_settings`,
//! `kgs-genmove_cleanup`, `loadsgf`, and the analysis commands GUIs such as Sabaki
//! and Lizzie use, `lz-analyze` and `kata-analyze` (in KataGo's formats, see
//! docs/engines.md). A closed output (the controller has gone) ends the session
//! quietly.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use qiyuan_engine_go::{Analysis, Decision, Engine, Level, Settings};
use qiyuan_go::{Color, Move, Point, SgfGame, fixed_handicap, max_handicap};

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
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "kgs-time_settings",
    "kgs-genmove_cleanup",
    "loadsgf",
    "lz-analyze",
    "kata-analyze",
];

/// Playouts for `final_score` and `final_status_list`.
const ESTIMATE_PLAYOUTS: u64 = 2000;
/// Time kept back from every clock budget for the protocol's round trip.
const CLOCK_MARGIN: f64 = 0.3;

/// Time after the main time, as `time_settings` (Canadian) and
/// `kgs-time_settings` tell it.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
enum Overtime {
    /// Absolute time: the main time is all.
    #[default]
    None,
    /// `period` seconds for every `stones` moves.
    Canadian { period: f64, stones: u32 },
    /// `period` seconds for each move, `periods` times over.
    Byoyomi { period: f64, periods: u32 },
}

/// The clock as the controller tells it; no limit until it says otherwise.
#[derive(Debug, Clone, Copy, Default)]
struct Clock {
    limited: bool,
    main: f64,
    overtime: Overtime,
    /// From `time_left`, per colour: seconds, and the stones (Canadian) or periods
    /// (byo-yomi, as KGS sends them) left; 0 while in main time.
    left: [Option<(f64, u32)>; 2],
}

impl Clock {
    fn unlimited() -> Clock {
        Clock::default()
    }

    fn new(main: f64, overtime: Overtime) -> Clock {
        Clock {
            limited: true,
            main,
            overtime,
            left: [None; 2],
        }
    }

    /// `time_settings main byo stones`: Canadian; a period without stones means
    /// no limit (GTP 2, 4.2), no period absolute time.
    fn gtp(main: f64, byo: f64, stones: u32) -> Clock {
        if byo > 0.0 && stones == 0 {
            Clock::unlimited()
        } else if byo > 0.0 {
            Clock::new(
                main,
                Overtime::Canadian {
                    period: byo,
                    stones,
                },
            )
        } else {
            Clock::new(main, Overtime::None)
        }
    }

    /// `kgs-time_settings none | absolute main | byoyomi main period periods |
    /// canadian main period stones`.
    fn kgs(args: &[String]) -> Option<Clock> {
        let num = |k: usize| -> Option<f64> {
            args.get(k)
                .and_then(|a| a.parse::<f64>().ok())
                .filter(|x| x.is_finite() && *x >= 0.0)
        };
        let count = |k: usize| -> Option<u32> { args.get(k).and_then(|a| a.parse().ok()) };
        match args.first()?.to_ascii_lowercase().as_str() {
            "none" => Some(Clock::unlimited()),
            "absolute" => Some(Clock::new(num(1)?, Overtime::None)),
            "byoyomi" => {
                let (main, period, periods) = (num(1)?, num(2)?, count(3)?);
                Some(if periods == 0 || period <= 0.0 {
                    Clock::new(main, Overtime::None)
                } else {
                    Clock::new(main, Overtime::Byoyomi { period, periods })
                })
            }
            "canadian" => {
                let (main, period, stones) = (num(1)?, num(2)?, count(3)?);
                Some(if stones == 0 || period <= 0.0 {
                    Clock::new(main, Overtime::None)
                } else {
                    Clock::new(main, Overtime::Canadian { period, stones })
                })
            }
            _ => None,
        }
    }

    /// The longest the next move may think by the clock, if it is limited.
    fn budget(&self, color: Color, empties: usize) -> Option<f64> {
        if !self.limited {
            return None;
        }
        let (time, stones) = self.left[color.index()].unwrap_or((self.main, 0));
        let in_overtime = stones > 0 || (time <= 0.0 && self.main <= 0.0);
        let seconds = match self.overtime {
            Overtime::Canadian { period, stones: n } if in_overtime => {
                let (t, s) = if stones > 0 {
                    (time, stones)
                } else {
                    (period, n)
                };
                t / f64::from(s.max(1))
            }
            Overtime::Byoyomi { period, .. } if in_overtime => {
                if stones > 0 {
                    time
                } else {
                    period
                }
            }
            overtime => {
                let moves_left = (empties as f64 / 3.0).max(12.0);
                let share = match overtime {
                    Overtime::None => 0.0,
                    Overtime::Canadian { period, stones } => period / f64::from(stones.max(1)),
                    // Each move may use a period without losing it.
                    Overtime::Byoyomi { period, .. } => period,
                };
                time / moves_left + share
            }
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
    /// `lz-analyze` / `kata-analyze`: answered by [`Session::analyze`], which
    /// streams until the next command.
    Analyze(Analyze),
}

/// An analysis request.
#[derive(Debug, Clone, PartialEq)]
struct Analyze {
    kata: bool,
    color: Option<Color>,
    /// Between two lines of output.
    interval: Duration,
    max_moves: usize,
    ownership: bool,
}

/// Playouts between two looks at the input and the time during an analysis.
const ANALYSIS_SLICE: u64 = 100;
/// An analysis stops searching (and only answers) once the root has this many
/// visits, so that a GUI left open does not take a core for ever.
const ANALYSIS_MAX_VISITS: u32 = 1_000_000;

/// What the reader thread hands over: a line's bytes, or the end of the input.
type Input = mpsc::Receiver<Vec<u8>>;

/// Reads stdin line by line on a thread of its own; the channel closes at the end.
fn spawn_reader() -> Input {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        let mut input = std::io::stdin().lock();
        loop {
            let mut bytes = Vec::new();
            match input.read_until(b'\n', &mut bytes) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if tx.send(bytes).is_err() {
                        break;
                    }
                }
            }
        }
    });
    rx
}

/// A write to the controller; a closed pipe ends the session without an error
/// (the controller quit or went away), any other failure is one.
fn written(result: std::io::Result<()>) -> anyhow::Result<bool> {
    match result {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(false),
        Err(e) => Err(e.into()),
    }
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
    let input = spawn_reader();
    let mut out = std::io::stdout().lock();
    let mut pending: Option<Vec<u8>> = None;
    loop {
        let bytes = match pending.take() {
            Some(b) => b,
            None => match input.recv() {
                Ok(b) => b,
                Err(_) => break,
            },
        };
        // Bytes that are not UTF-8 cannot be a command; they become U+FFFD and fail.
        let line = String::from_utf8_lossy(&bytes);
        let Some((id, words)) = parse_line(&line) else {
            continue;
        };
        let id = id.unwrap_or_default();
        let reply = session.command(&words);
        let (mark, text, quit) = match reply {
            Reply::Ok(t) => ('=', t, false),
            Reply::Err(t) => ('?', t, false),
            Reply::Quit => ('=', String::new(), true),
            Reply::Analyze(request) => match session.analyze(&request, &id, &input, &mut out)? {
                Stream::Next(line) => {
                    pending = Some(line);
                    continue;
                }
                Stream::Waiting => continue,
                Stream::Closed => break,
            },
        };
        let sep = if text.is_empty() { "" } else { " " };
        let sent = written(write!(out, "{mark}{id}{sep}{text}\n\n").and_then(|()| out.flush()))?;
        if quit || !sent {
            break;
        }
    }
    Ok(())
}

/// How an analysis's stream ended.
enum Stream {
    /// A command came: it is the next to answer.
    Next(Vec<u8>),
    /// An empty line ended it; wait for the next command.
    Waiting,
    /// The input ended or the output closed.
    Closed,
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

/// `lz-analyze` / `kata-analyze` `[color] [interval] [key value …]`: the interval
/// in centiseconds (1 s when not given); `maxmoves`, `minmoves` (read, not
/// needed: every visited move is listed), `ownership` (kata); `allow` and `avoid`
/// are read and ignored.
fn parse_analyze(kata: bool, args: &[String]) -> Option<Analyze> {
    let mut request = Analyze {
        kata,
        color: None,
        interval: Duration::from_secs(1),
        max_moves: usize::MAX,
        ownership: false,
    };
    let centiseconds = |w: &str| -> Option<Duration> {
        let cs = w.parse::<u64>().ok()?;
        Some(Duration::from_millis(cs.clamp(1, 360_000) * 10))
    };
    let mut k = 0;
    if let Some(c) = args.first().and_then(|w| parse_color(w)) {
        request.color = Some(c);
        k = 1;
    }
    if let Some(d) = args.get(k).and_then(|w| centiseconds(w)) {
        request.interval = d;
        k += 1;
    }
    while k < args.len() {
        let value = args.get(k + 1).map(String::as_str);
        match args[k].to_ascii_lowercase().as_str() {
            "interval" => request.interval = centiseconds(value?)?,
            "maxmoves" => request.max_moves = value?.parse().ok()?,
            "minmoves" => {
                value?.parse::<usize>().ok()?;
            }
            "ownership" => request.ownership = value? == "true",
            "ownershipstdev" | "pvvisits" | "movesownership" | "rootinfo" => {}
            // `allow|avoid color vertices until_move`.
            "allow" | "avoid" => {
                k += 4;
                continue;
            }
            _ => return None,
        }
        k += 2;
    }
    Some(request)
}

/// One line of an analysis's output: an `info` group per move, most visited
/// first, in Leela Zero's format (win rates in ten-thousandths) or KataGo's
/// (fractions, and the expected lead in points); all for the side to move.
fn analysis_line(analysis: &Analysis, request: &Analyze, color: Color, size: u8) -> String {
    let sign = if color == Color::Black { 1.0 } else { -1.0 };
    let lead = sign * analysis.black_lead;
    let mut parts = Vec::new();
    for (order, line) in analysis.lines.iter().take(request.max_moves).enumerate() {
        let w = f64::from(line.winrate).clamp(0.0, 1.0);
        let n = f64::from(line.visits.max(1));
        let lcb = (w - 1.96 * (w * (1.0 - w) / n).sqrt()).clamp(0.0, 1.0);
        let prior = f64::from(line.prior).clamp(0.0, 1.0);
        let pv = line
            .pv
            .iter()
            .map(Move::to_string)
            .collect::<Vec<_>>()
            .join(" ");
        parts.push(if request.kata {
            format!(
                "info move {} visits {} utility {:.6} winrate {w:.6} scoreMean {lead:.3} \
                 scoreLead {lead:.3} prior {prior:.6} lcb {lcb:.6} order {order} pv {pv}",
                line.mv,
                line.visits,
                2.0 * w - 1.0,
            )
        } else {
            format!(
                "info move {} visits {} winrate {} prior {} lcb {} order {order} pv {pv}",
                line.mv,
                line.visits,
                (w * 10_000.0).round(),
                (prior * 10_000.0).round(),
                (lcb * 10_000.0).round(),
            )
        });
    }
    if request.kata && request.ownership && !parts.is_empty() {
        // From the top left (A19) row by row, for the side to move.
        let size = usize::from(size);
        let values: Vec<String> = (0..size)
            .rev()
            .flat_map(|row| (0..size).map(move |col| row * size + col))
            .map(|i| {
                format!(
                    "{:.4}",
                    sign as f32 * analysis.ownership.get(i).copied().unwrap_or(0.0)
                )
            })
            .collect();
        parts.push(format!("ownership {}", values.join(" ")));
    }
    parts.join(" ")
}

/// The points next to `p` on a board of side `size`.
fn adjacent(p: Point, size: u8) -> Vec<Point> {
    let mut out = Vec::with_capacity(4);
    if p.col > 0 {
        out.push(Point::new(p.col - 1, p.row));
    }
    if p.row > 0 {
        out.push(Point::new(p.col, p.row - 1));
    }
    if p.col + 1 < size {
        out.push(Point::new(p.col + 1, p.row));
    }
    if p.row + 1 < size {
        out.push(Point::new(p.col, p.row + 1));
    }
    out
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
                let nums: Vec<Option<f64>> = args
                    .iter()
                    .map(|a| a.parse().ok().filter(|x: &f64| x.is_finite() && *x >= 0.0))
                    .collect();
                match nums.as_slice() {
                    [Some(main), Some(byo), Some(stones)] => {
                        self.clock = Clock::gtp(*main, *byo, *stones as u32);
                        Reply::Ok(String::new())
                    }
                    _ => Reply::Err("syntax error".into()),
                }
            }
            "kgs-time_settings" => match Clock::kgs(args) {
                Some(clock) => {
                    self.clock = clock;
                    Reply::Ok(String::new())
                }
                None => Reply::Err("syntax error".into()),
            },
            "fixed_handicap" => self.fixed_handicap(arg(0)),
            "place_free_handicap" => self.fixed_handicap(arg(0)),
            "set_free_handicap" => self.set_free_handicap(args),
            "kgs-genmove_cleanup" => match parse_color(arg(0)) {
                Some(c) => self.genmove_cleanup(c),
                None => Reply::Err("syntax error".into()),
            },
            "loadsgf" => self.loadsgf(arg(0), args.get(1).map(String::as_str)),
            "lz-analyze" | "kata-analyze" => {
                match parse_analyze(words[0] == "kata-analyze", args) {
                    Some(request) => Reply::Analyze(request),
                    None => Reply::Err("syntax error".into()),
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
        let report = self.search(color);
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

    /// `kgs-genmove_cleanup`: as `genmove`, but neither passing nor resigning while
    /// stones of the opponent's stand on the board that the engine thinks dead
    /// (the players disagreed about them: they are captured instead).
    fn genmove_cleanup(&mut self, color: Color) -> Reply {
        let report = self.search(color);
        if let Decision::Play(p) = report.decision {
            return self.played(color, Move::Place(p));
        }
        let est = self
            .engine
            .estimate(ESTIMATE_PLAYOUTS, &AtomicBool::new(false));
        let board = self.engine.board();
        let dead_of_theirs = est
            .dead
            .iter()
            .any(|p| board.get(*p) == Some(color.opponent()));
        if dead_of_theirs {
            // The searched moves first, then any legal move next to a dead stone.
            let searched = report.candidates.iter().filter_map(|c| match c.mv {
                Move::Place(p) => Some(p),
                Move::Pass => None,
            });
            let near_dead = est
                .dead
                .iter()
                .filter(|p| board.get(**p) == Some(color.opponent()))
                .flat_map(|p| adjacent(*p, board.size()))
                .collect::<Vec<Point>>();
            let own_eye = |p: Point| {
                adjacent(p, board.size())
                    .into_iter()
                    .all(|q| board.get(q) == Some(color))
            };
            let choice = searched
                .chain(near_dead)
                .find(|&p| !own_eye(p) && self.engine.check(color, Move::Place(p)).is_ok());
            if let Some(p) = choice {
                return self.played(color, Move::Place(p));
            }
        }
        self.played(color, Move::Pass)
    }

    fn played(&mut self, color: Color, mv: Move) -> Reply {
        match self.engine.play(color, mv) {
            Ok(()) => Reply::Ok(mv.to_string()),
            Err(e) => Reply::Err(format!("the engine chose an illegal move: {e}")),
        }
    }

    /// The search for `color`'s move under the level and the clock.
    fn search(&mut self, color: Color) -> qiyuan_engine_go::Report {
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
        report
    }

    /// Whether no stone stands on the board and none was played.
    fn board_is_empty(&self) -> bool {
        self.engine.history().is_empty()
            && self.engine.setup().is_empty()
            && self.engine.board().empty_count() == self.engine.board().points().count()
    }

    /// `fixed_handicap n` (and `place_free_handicap n`, which places the same
    /// stones): black's stones on the usual points, white to move.
    fn fixed_handicap(&mut self, n: &str) -> Reply {
        let Ok(n) = n.parse::<u8>() else {
            return Reply::Err("syntax error".into());
        };
        if !self.board_is_empty() {
            return Reply::Err("board not empty".into());
        }
        let size = self.engine.size();
        if n < 2 || n > max_handicap(size) {
            return Reply::Err("invalid number of stones".into());
        }
        match fixed_handicap(size, n) {
            Ok(points) => self.handicap(&points),
            Err(_) => Reply::Err("invalid number of stones".into()),
        }
    }

    /// `set_free_handicap v1 v2 …`: black's stones where the controller says.
    fn set_free_handicap(&mut self, args: &[String]) -> Reply {
        if !self.board_is_empty() {
            return Reply::Err("board not empty".into());
        }
        let size = self.engine.size();
        let mut points = Vec::new();
        for a in args {
            match Point::from_gtp_on(a, size) {
                Ok(p) if !points.contains(&p) => points.push(p),
                _ => return Reply::Err("bad vertex list".into()),
            }
        }
        let cells = usize::from(size) * usize::from(size);
        if points.len() < 2 || points.len() >= cells {
            return Reply::Err("bad vertex list".into());
        }
        self.handicap(&points)
    }

    /// Black's handicap stones set up, white to move, and one point for white per
    /// stone at the count (the hall's Chinese rules: `qiyuan_go::Go::compensation`).
    fn handicap(&mut self, points: &[Point]) -> Reply {
        let stones: Vec<(Color, Point)> = points.iter().map(|&p| (Color::Black, p)).collect();
        match self
            .engine
            .set_up(&stones, Color::White, points.len() as f64)
        {
            Ok(()) => Reply::Ok(
                points
                    .iter()
                    .map(Point::to_string)
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            Err(_) => Reply::Err("bad vertex list".into()),
        }
    }

    /// `loadsgf file [move_number]`: the record's board, komi, setup stones and
    /// its main line up to (not including) `move_number`; answers who is to move.
    fn loadsgf(&mut self, file: &str, move_number: Option<&str>) -> Reply {
        let limit = match move_number.map(str::parse::<usize>) {
            None => usize::MAX,
            Some(Ok(n)) if n >= 1 => n - 1,
            Some(_) => return Reply::Err("syntax error".into()),
        };
        let text = match std::fs::read(file) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => return Reply::Err(format!("cannot load file: {e}")),
        };
        let sgf = match SgfGame::parse(&text) {
            Ok(sgf) => sgf,
            Err(e) => return Reply::Err(format!("cannot load file: {e}")),
        };
        let komi = sgf.komi.unwrap_or(self.engine.komi());
        let mut engine = match Engine::new(sgf.size, komi, self.options.seed) {
            Ok(e) => e,
            Err(e) => return Reply::Err(format!("cannot load file: {e}")),
        };
        let stones: Vec<(Color, Point)> = sgf
            .black_setup
            .iter()
            .map(|&p| (Color::Black, p))
            .chain(sgf.white_setup.iter().map(|&p| (Color::White, p)))
            .collect();
        let first = sgf
            .first
            .or_else(|| sgf.moves.first().map(|(c, _)| *c))
            .unwrap_or(if sgf.handicap >= 2 {
                Color::White
            } else {
                Color::Black
            });
        let compensation = if sgf.handicap >= 2 {
            f64::from(sgf.handicap)
        } else {
            0.0
        };
        if let Err(e) = engine.set_up(&stones, first, compensation) {
            return Reply::Err(format!("cannot load file: setup stone: {e}"));
        }
        for (k, &(c, m)) in sgf.moves.iter().take(limit).enumerate() {
            if let Err(e) = engine.play(c, m) {
                return Reply::Err(format!("cannot load file: move {} ({m}): {e}", k + 1));
            }
        }
        let to_move = engine.to_move();
        self.engine = engine;
        Reply::Ok(to_move.to_string())
    }

    /// Streams the analysis of the position for `request.color` (the side to move
    /// by default): `=id`, then a line of candidate moves every interval, until a
    /// command or an empty line arrives (the stream then ends with a blank line).
    fn analyze(
        &mut self,
        request: &Analyze,
        id: &str,
        input: &Input,
        out: &mut impl Write,
    ) -> anyhow::Result<Stream> {
        let color = request.color.unwrap_or_else(|| self.engine.to_move());
        if !written(writeln!(out, "={id}").and_then(|()| out.flush()))? {
            return Ok(Stream::Closed);
        }
        let policy = self.settings.policy;
        let never = AtomicBool::new(false);
        let mut next_line = Instant::now() + request.interval;
        let mut visits = 0;
        loop {
            let playouts = if visits >= ANALYSIS_MAX_VISITS {
                0
            } else {
                ANALYSIS_SLICE
            };
            let analysis = self.engine.analyze(color, playouts, &policy, &never);
            visits = analysis.visits;
            if Instant::now() >= next_line {
                next_line = Instant::now() + request.interval;
                let text = analysis_line(&analysis, request, color, self.engine.size());
                if !text.is_empty() && !written(writeln!(out, "{text}").and_then(|()| out.flush()))?
                {
                    return Ok(Stream::Closed);
                }
            }
            let next = if playouts == 0 {
                input.recv_timeout(request.interval.max(Duration::from_millis(10)))
            } else {
                input.try_recv().map_err(|e| match e {
                    mpsc::TryRecvError::Empty => mpsc::RecvTimeoutError::Timeout,
                    mpsc::TryRecvError::Disconnected => mpsc::RecvTimeoutError::Disconnected,
                })
            };
            match next {
                Ok(line) => {
                    if !written(writeln!(out).and_then(|()| out.flush()))? {
                        return Ok(Stream::Closed);
                    }
                    return Ok(if String::from_utf8_lossy(&line).trim().is_empty() {
                        Stream::Waiting
                    } else {
                        Stream::Next(line)
                    });
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    let _ = writeln!(out);
                    let _ = out.flush();
                    return Ok(Stream::Closed);
                }
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn kgs_time_settings_budget_each_kind() {
        assert!(Clock::kgs(&words("none")).is_some_and(|c| c.budget(Color::Black, 81).is_none()));
        // Absolute: a share of the main time, nothing after it.
        let c = Clock::kgs(&words("absolute 120")).unwrap();
        assert_eq!(c.overtime, Overtime::None);
        let b = c.budget(Color::Black, 81).unwrap();
        assert!((b - (120.0 / 27.0 - CLOCK_MARGIN)).abs() < 1e-9, "{b}");
        // Byo-yomi in overtime: the period left, whatever the periods.
        let mut c = Clock::kgs(&words("byoyomi 0 5 3")).unwrap();
        assert!((c.budget(Color::White, 81).unwrap() - (5.0 - CLOCK_MARGIN)).abs() < 1e-9);
        c.left[Color::White.index()] = Some((4.0, 2));
        assert!((c.budget(Color::White, 81).unwrap() - (4.0 - CLOCK_MARGIN)).abs() < 1e-9);
        // Canadian in overtime: the time left over the stones left.
        let mut c = Clock::kgs(&words("canadian 0 30 10")).unwrap();
        assert!((c.budget(Color::Black, 81).unwrap() - (3.0 - CLOCK_MARGIN)).abs() < 1e-9);
        c.left[Color::Black.index()] = Some((10.0, 2));
        assert!((c.budget(Color::Black, 81).unwrap() - (5.0 - CLOCK_MARGIN)).abs() < 1e-9);
        for bad in [
            "",
            "fischer 10 5",
            "absolute",
            "byoyomi 10 5",
            "canadian 10 x 5",
            "absolute -1",
        ] {
            assert!(Clock::kgs(&words(bad)).is_none(), "{bad}");
        }
        // GTP's own: a period without stones is no limit.
        assert!(Clock::gtp(0.0, 10.0, 0).budget(Color::Black, 81).is_none());
    }

    #[test]
    fn analysis_requests_read_their_arguments() {
        let r = parse_analyze(false, &words("b 50")).unwrap();
        assert_eq!(
            (r.color, r.interval, r.kata),
            (Some(Color::Black), Duration::from_millis(500), false)
        );
        let r = parse_analyze(true, &words("interval 20 maxmoves 4 ownership true")).unwrap();
        assert_eq!(
            (r.color, r.interval, r.max_moves, r.ownership),
            (None, Duration::from_millis(200), 4, true)
        );
        let r = parse_analyze(false, &words("w avoid b q16,r4 1 minmoves 2")).unwrap();
        assert_eq!(r.color, Some(Color::White));
        assert_eq!(r.interval, Duration::from_secs(1));
        for bad in ["b frob 3", "interval", "maxmoves x", "interval -5"] {
            assert!(parse_analyze(false, &words(bad)).is_none(), "{bad}");
        }
    }
}
