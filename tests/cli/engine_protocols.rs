//! `qiyuan engine` as GUIs and other engines use it: UCI sessions for chess, UCI
//! (Fairy-Stockfish's dialect) and UCCI sessions for xiangqi, and whole games
//! refereed by scripts/engine-match.py — python-chess's `chess.engine` against
//! the chess engine (Stockfish as the opponent), Fairy-Stockfish against the
//! xiangqi engine with every move checked by our rules.
//!
//! Needs Debian's `stockfish` and `fairy-stockfish` (in /usr/games) and a Python
//! with python-chess: `$QIYUAN_PYTHON`, else `.venv/bin/python` at the repo root
//! (`.ci/run` makes it: `python3 -m venv .venv && .venv/bin/pip install chess`).
#![cfg(all(feature = "chess", feature = "xiangqi"))]

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use qiyuan_engine_chess::shakmaty::uci::UciMove;
use qiyuan_engine_chess::shakmaty::{Chess, Position as _};
use qiyuan_xiangqi::{Move, Position, Square};

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
}

impl Engine {
    fn start(game: &str) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_qiyuan"))
            .args(["engine", "--game", game, "--hash", "8"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("qiyuan engine starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout: ChildStdout = child.stdout.take().expect("stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("engine reads");
        self.stdin.flush().expect("flush");
    }

    /// Lines up to and including the first that starts with `word`.
    fn until(&mut self, word: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("no {word:?} from the engine; it said {seen:?}"));
            let done = line.split_whitespace().next() == Some(word);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    fn bestmove(&mut self) -> String {
        let lines = self.until("bestmove");
        lines
            .last()
            .and_then(|l| l.split_whitespace().nth(1))
            .expect("a move")
            .to_string()
    }

    fn quit(mut self) -> std::process::ExitStatus {
        self.send("quit");
        self.child.wait().expect("engine exits")
    }
}

#[test]
fn chess_uci_session() {
    let mut e = Engine::start("chess");
    e.send("uci");
    let hello = e.until("uciok");
    assert!(
        hello.iter().any(|l| l.starts_with("id name qiyuan")),
        "{hello:?}"
    );
    assert!(
        hello.iter().any(|l| l.contains("option name Level")),
        "{hello:?}"
    );
    e.send("isready");
    e.until("readyok");
    e.send("ucinewgame");
    e.send("position startpos moves e2e4 e7e5 g1f3");
    e.send("go depth 5");
    let lines = e.until("bestmove");
    let info = lines
        .iter()
        .find(|l| l.starts_with("info depth 5"))
        .expect("an info line at depth 5");
    for word in [" score cp ", " nodes ", " nps ", " pv "] {
        assert!(info.contains(word), "{info}");
    }
    let best = lines
        .last()
        .and_then(|l| l.split_whitespace().nth(1))
        .expect("move");
    let mut pos = Chess::default();
    for m in ["e2e4", "e7e5", "g1f3"] {
        let m = UciMove::from_ascii(m.as_bytes())
            .unwrap()
            .to_move(&pos)
            .unwrap();
        pos.play_unchecked(m);
    }
    assert!(
        UciMove::from_ascii(best.as_bytes())
            .unwrap()
            .to_move(&pos)
            .is_ok(),
        "{best}"
    );

    // Mate in one from a FEN, at the weakest level too: a mate is never noise.
    e.send("setoption name Level value 1");
    e.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    e.send("go movetime 200");
    assert_eq!(e.bestmove(), "d1d8");

    // An infinite search answers only after stop.
    e.send("setoption name Level value 8");
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        e.lines.try_iter().all(|l| !l.starts_with("bestmove")),
        "bestmove before stop"
    );
    e.send("stop");
    e.bestmove();

    // Errors are reported, not fatal.
    e.send("position startpos moves e2e5");
    e.send("isready");
    let lines = e.until("readyok");
    assert!(
        lines.iter().any(|l| l.contains("illegal move e2e5")),
        "{lines:?}"
    );
    assert!(e.quit().success());
}

fn xq_move(iccs: &str) -> Move {
    let b = iccs.as_bytes();
    Move::new(
        Square::from_ascii(&b[..2]).unwrap(),
        Square::from_ascii(&b[2..]).unwrap(),
    )
}

#[test]
fn xiangqi_uci_session_uses_fairy_stockfish_coordinates() {
    let mut e = Engine::start("xiangqi");
    e.send("uci");
    let hello = e.until("uciok");
    assert!(hello.iter().any(|l| l.contains("UCI_Variant")), "{hello:?}");
    e.send("setoption name UCI_Variant value xiangqi");
    e.send("isready");
    e.until("readyok");
    // h3e3 is ICCS h2e2 (central cannon); the engine answers in ranks 1-10.
    e.send("position startpos moves h3e3");
    e.send("go depth 4");
    let best = e.bestmove();
    let (from, to) = best.split_at(best[1..].find(|c: char| c.is_ascii_lowercase()).unwrap() + 1);
    let iccs = |s: &str| format!("{}{}", &s[..1], s[1..].parse::<u8>().unwrap() - 1);
    let m = xq_move(&format!("{}{}", iccs(from), iccs(to)));
    let mut pos = Position::new();
    pos.play(xq_move("h2e2")).unwrap();
    assert!(pos.is_legal(m), "{best}");
    // Black's reply moves down the board: its from-rank is 6..=10 in these ranks.
    let rank: u8 = from[1..].parse().unwrap();
    assert!((6..=10).contains(&rank), "{best}");
    assert!(e.quit().success());
}

#[test]
fn xiangqi_ucci_session_with_banned_moves() {
    let mut e = Engine::start("xiangqi");
    e.send("ucci");
    e.until("ucciok");
    e.send("isready");
    e.until("readyok");
    // Black's horse h9 hangs to the cannon: h2h9 wins it, unless banned.
    let fen = "rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    e.send(&format!("position fen {fen}"));
    e.send("go depth 4");
    assert_eq!(e.bestmove(), "h2h9");
    e.send(&format!("position fen {fen}"));
    e.send("banmoves h2h9");
    e.send("go time 5000 increment 0");
    let best = e.bestmove();
    assert_ne!(best, "h2h9");
    assert!(
        Position::from_fen(fen).unwrap().is_legal(xq_move(&best)),
        "{best}"
    );
    e.send("quit");
    e.until("bye");
    assert!(e.child.wait().expect("exit").success());
}

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The Python that has python-chess: `$QIYUAN_PYTHON` or the repo's `.venv`.
fn python() -> PathBuf {
    qiyuan_testkit::python("python-chess")
}

fn need(engine: &str) -> &str {
    assert!(
        Path::new(engine).exists(),
        "{engine} is missing: apt-get install stockfish fairy-stockfish"
    );
    engine
}

/// Runs one refereed game and returns the referee's report.
fn referee(args: &[&str]) -> String {
    let out = Command::new(python())
        .arg(repo().join("scripts/engine-match.py"))
        .args([
            "--qiyuan",
            env!("CARGO_BIN_EXE_qiyuan"),
            "--games",
            "1",
            "--seed",
            "3",
        ])
        .args(args)
        .output()
        .expect("the referee runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// The game line: ended by the rules (not by an illegal move or a crash), and long.
fn assert_whole_game(report: &str) {
    let game = report
        .lines()
        .find(|l| l.starts_with("game 1:"))
        .expect("a game line");
    for bad in ["illegal", "no move", "time"] {
        assert!(!game.contains(bad), "{report}");
    }
    assert!(report.contains("result: "), "{report}");
    let plies: usize = game
        .rsplit(", ")
        .next()
        .and_then(|s| s.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("ply count");
    assert!(plies >= 10, "{report}");
}

#[test]
fn python_chess_plays_a_whole_game_against_the_chess_engine() {
    let sf = need("/usr/games/stockfish");
    let report = referee(&[
        "--game",
        "chess",
        "--level",
        "8",
        "--movetime",
        "30",
        "--opponent",
        sf,
        "--opt",
        "Skill Level=0",
    ]);
    assert_whole_game(&report);
}

#[test]
fn fairy_stockfish_plays_a_whole_xiangqi_game_over_uci() {
    let fs = need("/usr/games/fairy-stockfish");
    let report = referee(&[
        "--game",
        "xiangqi",
        "--level",
        "8",
        "--movetime",
        "30",
        "--opponent",
        fs,
        "--opt",
        "UCI_Variant=xiangqi",
        "--opt",
        "Skill Level=-20",
    ]);
    assert_whole_game(&report);
}

/// python-chess takes `qiyuan-engine` by its path alone (the game from
/// `QIYUAN_ENGINE_GAME`), reads three lines of a `MultiPV` analysis, and gets a
/// move to ponder on with the engine's move.
#[test]
fn python_chess_reads_three_lines_from_qiyuan_engine_by_path() {
    let script = r#"
import sys, chess, chess.engine
engine = chess.engine.SimpleEngine.popen_uci(sys.argv[1])
board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
infos = engine.analyse(board, chess.engine.Limit(depth=6), multipv=3)
for info in infos:
    print("line", info["multipv"], info["pv"][0].uci(), len(info["pv"]), info["score"].white())
played = engine.play(board, chess.engine.Limit(time=0.3), ponder=True)
print("play", played.move.uci(), played.ponder.uci() if played.ponder else "none")
board.push(played.move)
if played.ponder:
    print("ponder legal", played.ponder in board.legal_moves)
engine.quit()
"#;
    let out = Command::new(python())
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_qiyuan-engine"))
        .env("QIYUAN_ENGINE_GAME", "chess")
        .output()
        .expect("python runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<Vec<&str>> = text
        .lines()
        .filter(|l| l.starts_with("line "))
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(lines.len(), 3, "{text}");
    for (k, line) in lines.iter().enumerate() {
        assert_eq!(line[1], (k + 1).to_string(), "{text}");
        let pv_len: usize = line[3].parse().unwrap();
        assert!(pv_len >= 2, "{text}");
    }
    let firsts: std::collections::HashSet<&str> = lines.iter().map(|l| l[2]).collect();
    assert_eq!(firsts.len(), 3, "three different moves: {text}");
    let play = text.lines().find(|l| l.starts_with("play ")).expect(&text);
    assert!(!play.ends_with(" none"), "no move to ponder on: {text}");
    assert!(text.contains("ponder legal True"), "{text}");
}

/// `go ponder` thinks until `ponderhit` (then the clock runs) or `stop`; the
/// `bestmove` names the reply to ponder on.
#[test]
fn ponder_waits_for_ponderhit_or_stop() {
    let mut e = Engine::start("chess");
    e.send("uci");
    let hello = e.until("uciok");
    for option in ["option name MultiPV", "option name Ponder"] {
        assert!(hello.iter().any(|l| l.starts_with(option)), "{hello:?}");
    }
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder wtime 2000 btime 2000");
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        e.lines.try_iter().all(|l| !l.starts_with("bestmove")),
        "bestmove while pondering"
    );
    let hit = std::time::Instant::now();
    e.send("ponderhit");
    let lines = e.until("bestmove");
    // The clock's share of 2 s, after the hit.
    assert!(
        hit.elapsed() < Duration::from_millis(1500),
        "{:?}",
        hit.elapsed()
    );
    let last = lines.last().unwrap();
    let words: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(words.len(), 4, "{last}");
    assert_eq!(words[2], "ponder", "{last}");

    e.send("position startpos");
    e.send("go ponder wtime 60000 btime 60000");
    std::thread::sleep(Duration::from_millis(200));
    e.send("stop");
    e.bestmove();

    // MultiPV over the raw protocol: each line numbered.
    e.send("setoption name MultiPV value 2");
    e.send("position startpos");
    e.send("go depth 4");
    let lines = e.until("bestmove");
    for k in ["multipv 1", "multipv 2"] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info depth 4") && l.contains(k)),
            "{lines:?}"
        );
    }
    e.send("setoption name MultiPV value 0");
    e.send("isready");
    let lines = e.until("readyok");
    assert!(
        lines.iter().any(|l| l.contains("MultiPV must be")),
        "{lines:?}"
    );
    assert!(e.quit().success());
}
