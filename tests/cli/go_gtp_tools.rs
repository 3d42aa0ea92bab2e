//! `qiyuan engine --game go` with what GUIs and match tools send beyond GTP's
//! required commands: a handicap game against GNU Go refereed here (the stones
//! placed by `fixed_handicap`, copied to GNU Go with `set_free_handicap`, checked
//! on both boards; GNU Go's own free placement copied to ours), the count with
//! the handicap compensation, `kgs-time_settings`, `kgs-genmove_cleanup`,
//! `loadsgf`, `lz-analyze` / `kata-analyze` streams as Sabaki and Lizzie read
//! them, and a quit whose answer nobody reads.
//!
//! Needs Debian's `gnugo` (3.8).
#![cfg(feature = "go")]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use qiyuan_game::{Game, Seat, Setup};
use qiyuan_go::GoPhase as Phase;
use qiyuan_go::{Counting, Go, Options, Point, Score, area, fixed_handicap};
use qiyuan_testkit::gtp::{Gtp, gnugo};

fn qiyuan(playouts: &str, seed: &str) -> Gtp {
    Gtp::start(
        "qiyuan",
        env!("CARGO_BIN_EXE_qiyuan"),
        [
            "engine",
            "--game",
            "go",
            "--level",
            "8",
            "--playouts",
            playouts,
            "--seed",
            seed,
        ],
    )
}

fn sorted(vertices: &str) -> Vec<Point> {
    let mut v: Vec<Point> = vertices
        .split_whitespace()
        .map(|w| Point::from_gtp(w).unwrap_or_else(|e| panic!("{w}: {e}")))
        .collect();
    v.sort();
    v
}

/// A 9x9 game with two handicap stones: qiyuan takes black, GNU Go white.
#[test]
fn gnu_go_gives_qiyuan_two_stones_and_both_count_the_compensation() {
    let mut ours = qiyuan("1500", "5");
    let mut theirs = Gtp::start(
        "gnugo",
        gnugo(),
        [
            "--mode",
            "gtp",
            "--chinese-rules",
            "--level",
            "1",
            "--seed",
            "5",
        ],
    );
    for e in [&mut ours, &mut theirs] {
        e.ask("boardsize 9");
        e.ask("clear_board");
        e.ask("komi 0.5");
    }
    assert!(
        ours.send("fixed_handicap 1").is_err(),
        "one stone is no handicap"
    );
    assert!(ours.send("fixed_handicap 10").is_err(), "too many for 9x9");
    let placed = ours.ask("fixed_handicap 2");
    let mut expected = fixed_handicap(9, 2).unwrap();
    expected.sort();
    assert_eq!(
        sorted(&placed),
        expected,
        "qiyuan's stones are the usual ones"
    );
    assert_eq!(
        ours.send("fixed_handicap 2"),
        Err("board not empty".to_string())
    );
    theirs.ask(&format!("set_free_handicap {placed}"));
    assert_eq!(sorted(&theirs.ask("list_stones black")), expected);
    // The stones stand on our board: black cannot play there.
    for p in &expected {
        assert!(ours.send(&format!("play b {p}")).is_err(), "{p} is empty");
    }

    let options = Options {
        size: 9,
        komi: 0.5,
        handicap: 2,
        ..Options::default()
    };
    let mut game = Go::new(&options, &Setup::Standard).unwrap();
    let mut color = "w";
    let (mut passes, mut moves) = (0, 0);
    let ended = loop {
        let (mover, other) = if color == "b" {
            (&mut ours, &mut theirs)
        } else {
            (&mut theirs, &mut ours)
        };
        let mv = mover.ask(&format!("genmove {color}")).to_lowercase();
        if mv == "resign" {
            break format!("{} resigned", mover.name);
        }
        let seat = Seat(if color == "b" { 0 } else { 1 });
        game.act(seat, &mv).unwrap_or_else(|e| {
            panic!(
                "{} played {mv} illegally (move {}): {e}",
                mover.name,
                moves + 1
            )
        });
        other.ask(&format!("play {color} {mv}"));
        moves += 1;
        passes = if mv == "pass" { passes + 1 } else { 0 };
        if passes == 2 {
            break "two passes".to_string();
        }
        assert!(moves < 3 * 81, "the game does not end");
        color = if color == "b" { "w" } else { "b" };
    };
    let their_count = theirs.ask("final_score");
    let our_count = ours.ask("final_score");
    eprintln!(
        "handicap game: {ended} after {moves} moves; GNU Go {their_count}, qiyuan {our_count}"
    );
    assert!(moves >= 10, "{ended} after {moves} moves");
    if ended == "two passes" {
        assert_eq!(game.phase(), Phase::Marking);
        let dead: Vec<Point> = sorted(&theirs.ask("final_status_list dead"));
        // Two points for white for the two stones, as GNU Go's Chinese rules and
        // the hall count.
        let counted = Score::new(&area(game.board(), &dead, Counting::GnuGo), 0.5, 2.0);
        assert_eq!(
            counted.to_string(),
            their_count,
            "our count of GNU Go's marking"
        );
        assert_eq!(
            our_count.chars().next(),
            their_count.chars().next(),
            "qiyuan counts {our_count}, GNU Go {their_count}"
        );
    }

    // GNU Go's free placement, set on our board.
    theirs.ask("clear_board");
    ours.ask("clear_board");
    let free = theirs.ask("place_free_handicap 3");
    assert_eq!(free.split_whitespace().count(), 3);
    assert!(
        ours.send("set_free_handicap A1 A1").is_err(),
        "a point twice"
    );
    assert!(
        ours.send("set_free_handicap Z9 A1").is_err(),
        "off the board"
    );
    assert_eq!(
        sorted(&ours.ask(&format!("set_free_handicap {free}"))),
        sorted(&free)
    );
    for p in sorted(&free) {
        assert!(ours.send(&format!("play w {p}")).is_err(), "{p} is empty");
    }
    // White moves first after a handicap, and our engine answers.
    let reply = ours.ask("genmove w");
    assert!(
        Point::from_gtp(&reply).is_ok() || reply == "pass",
        "{reply}"
    );
    // Our own free placement is the usual one.
    ours.ask("clear_board");
    assert_eq!(sorted(&ours.ask("place_free_handicap 4")), {
        let mut v = fixed_handicap(9, 4).unwrap();
        v.sort();
        v
    });
}

#[test]
fn kgs_time_settings_and_cleanup() {
    let mut e = qiyuan("200000", "1");
    e.ask("boardsize 9");
    for ok in [
        "kgs-time_settings none",
        "kgs-time_settings absolute 600",
        "kgs-time_settings canadian 0 10 5",
        "kgs-time_settings byoyomi 0 1 3",
    ] {
        e.ask(ok);
    }
    for bad in [
        "kgs-time_settings",
        "kgs-time_settings sudden 10",
        "kgs-time_settings absolute",
        "kgs-time_settings byoyomi 10 x 3",
        "kgs-time_settings canadian -5 10 5",
    ] {
        assert!(e.send(bad).is_err(), "{bad} accepted");
    }
    // Byo-yomi of one second a move: 200,000 playouts would take far longer.
    e.ask("kgs-time_settings byoyomi 0 1 3");
    e.ask("time_left b 1 3");
    let t = Instant::now();
    e.ask("genmove b");
    assert!(
        t.elapsed() < Duration::from_millis(1500),
        "{:?}",
        t.elapsed()
    );
    // Absolute time: the move takes a share of what is left.
    e.ask("kgs-time_settings absolute 12");
    let t = Instant::now();
    e.ask("genmove w");
    assert!(
        t.elapsed() < Duration::from_millis(1500),
        "{:?}",
        t.elapsed()
    );

    // Cleanup: white's two stones inside black's solid area are dead, and black
    // captures them instead of passing.
    e.ask("clear_board");
    e.ask("kgs-time_settings absolute 30");
    for (c, v) in [
        ("b", "C3"),
        ("b", "D3"),
        ("b", "E3"),
        ("b", "F3"),
        ("b", "G3"),
        ("b", "C4"),
        ("b", "G4"),
        ("b", "C5"),
        ("b", "G5"),
        ("b", "C6"),
        ("b", "G6"),
        ("b", "C7"),
        ("b", "D7"),
        ("b", "E7"),
        ("b", "F7"),
        ("b", "G7"),
        ("w", "E5"),
        ("w", "E4"),
    ] {
        e.ask(&format!("play {c} {v}"));
    }
    let mv = e.ask("kgs-genmove_cleanup b").to_uppercase();
    assert_ne!(
        mv, "PASS",
        "cleanup passes with dead white stones on the board"
    );
    assert_ne!(mv, "RESIGN");
    assert!(e.send("kgs-genmove_cleanup x").is_err());
}

/// Black's margin in a GTP score (`B+3.5`, `W+0.5`, `0`).
fn margin(score: &str) -> f64 {
    match score.split_once('+') {
        Some(("B", x)) => x.parse().unwrap(),
        Some(("W", x)) => -x.parse::<f64>().unwrap(),
        _ if score == "0" => 0.0,
        _ => panic!("score {score:?}"),
    }
}

fn temp_sgf(name: &str, text: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("qiyuan-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn loadsgf_sets_the_board_the_komi_and_the_compensation() {
    let mut e = qiyuan("300", "1");
    let sgf = temp_sgf(
        "h2.sgf",
        "(;FF[4]GM[1]SZ[9]KM[0.5]HA[2]RU[Chinese]AB[gc][cg];W[ee];B[cc];W[gg])",
    );
    let path = sgf.display().to_string();
    assert_eq!(e.ask(&format!("loadsgf {path}")), "black");
    // The setup stones (C3, G7), and the three moves, stand on the board.
    for v in ["C3", "G7", "E5", "C7", "G3"] {
        assert!(e.send(&format!("play b {v}")).is_err(), "{v} is empty");
    }
    // Up to, not including, move 2: white's E5 only.
    assert_eq!(e.ask(&format!("loadsgf {path} 2")), "black");
    assert!(e.send("play b C7").is_ok(), "C7 is move 2");
    e.ask("undo");
    assert_eq!(e.ask(&format!("loadsgf {path} 1")), "white");
    assert!(e.send("play b E5").is_ok(), "E5 is move 1");
    // The same record without `HA`: the same playouts (the same seed) count two
    // points more for black, the compensation white gets for two handicap stones.
    let plain = temp_sgf(
        "h0.sgf",
        "(;FF[4]GM[1]SZ[9]KM[0.5]RU[Chinese]AB[gc][cg];W[ee];B[cc];W[gg])",
    );
    e.ask(&format!("loadsgf {path} 1"));
    let with_handicap = margin(&e.ask("final_score"));
    e.ask(&format!("loadsgf {} 1", plain.display()));
    let without = margin(&e.ask("final_score"));
    assert_eq!(without - with_handicap, 2.0, "{without} {with_handicap}");
    let _ = std::fs::remove_file(plain);

    assert!(e.send("loadsgf /nonexistent/file.sgf").is_err());
    let bad = temp_sgf("bad.sgf", "(;FF[4]SZ[9];B[ee];W[ee])");
    assert!(
        e.send(&format!("loadsgf {}", bad.display())).is_err(),
        "an illegal move loads"
    );
    assert!(e.send(&format!("loadsgf {path} x")).is_err());
    let _ = std::fs::remove_file(sgf);
    let _ = std::fs::remove_file(bad);
}

/// The engine as a GUI runs it, lines read by a thread so that a stream can be
/// followed with a timeout.
struct Raw {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    lines: mpsc::Receiver<String>,
}

impl Raw {
    fn start() -> Raw {
        let mut child = Command::new(env!("CARGO_BIN_EXE_qiyuan"))
            .args(["engine", "--game", "go", "--seed", "3"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("qiyuan engine starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Raw {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn line(&mut self) -> String {
        self.lines
            .recv_timeout(Duration::from_secs(30))
            .expect("a line from the engine")
    }
}

/// The `info` groups of one analysis line: each group's key-value pairs, and its pv.
fn infos(line: &str) -> Vec<(std::collections::HashMap<String, String>, Vec<String>)> {
    let line = line.split(" ownership ").next().unwrap_or(line);
    line.split("info ")
        .filter(|g| !g.trim().is_empty())
        .map(|g| {
            let (head, pv) = g.split_once(" pv ").expect("a pv");
            let words: Vec<&str> = head.split_whitespace().collect();
            let pairs = words
                .chunks(2)
                .map(|kv| (kv[0].to_string(), kv[1].to_string()))
                .collect();
            (pairs, pv.split_whitespace().map(String::from).collect())
        })
        .collect()
}

#[test]
fn lz_analyze_and_kata_analyze_stream_until_the_next_command() {
    let mut e = Raw::start();
    e.send("boardsize 9");
    assert_eq!(e.line(), "=");
    assert_eq!(e.line(), "");
    e.send("play b E5");
    assert_eq!(e.line(), "=");
    assert_eq!(e.line(), "");

    // Leela Zero's format: win rates and priors in ten-thousandths, for white.
    e.send("7 lz-analyze 10");
    assert_eq!(e.line(), "=7");
    let mut seen = 0;
    while seen < 3 {
        let line = e.line();
        assert!(line.starts_with("info move "), "{line:?}");
        let groups = infos(&line);
        assert!(!groups.is_empty());
        for (order, (kv, pv)) in groups.iter().enumerate() {
            let mv = &kv["move"];
            assert!(Point::from_gtp(mv).is_ok() || mv == "pass", "{mv}");
            assert_ne!(mv, "E5", "an occupied point analysed");
            let visits: u32 = kv["visits"].parse().unwrap();
            assert!(visits > 0);
            let winrate: u32 = kv["winrate"].parse().unwrap();
            assert!(winrate <= 10_000, "{winrate}");
            let _: u32 = kv["prior"].parse().unwrap();
            let lcb: u32 = kv["lcb"].parse().unwrap();
            assert!(lcb <= winrate);
            assert_eq!(kv["order"], order.to_string());
            assert_eq!(pv.first(), Some(mv), "the pv starts with the move");
        }
        let visits: Vec<u32> = groups
            .iter()
            .map(|(kv, _)| kv["visits"].parse().unwrap())
            .collect();
        assert!(
            visits.windows(2).all(|w| w[0] >= w[1]),
            "by visits: {visits:?}"
        );
        seen += 1;
    }
    // Any command ends the stream with a blank line, then is answered.
    e.send("8 name");
    let mut line = e.line();
    while line.starts_with("info") {
        line = e.line();
    }
    assert_eq!(line, "");
    assert_eq!(e.line(), "=8 qiyuan");
    assert_eq!(e.line(), "");

    // KataGo's format, with the lead in points and the ownership of 81 points.
    e.send("kata-analyze b interval 10 ownership true maxmoves 3");
    assert_eq!(e.line(), "=");
    let line = e.line();
    let (head, ownership) = line.split_once(" ownership ").expect("ownership");
    let owned: Vec<f64> = ownership
        .split_whitespace()
        .map(|x| x.parse().unwrap())
        .collect();
    assert_eq!(owned.len(), 81);
    assert!(owned.iter().all(|o| (-1.0..=1.0).contains(o)));
    let groups = infos(head);
    assert!(!groups.is_empty() && groups.len() <= 3, "{}", groups.len());
    for (kv, _) in &groups {
        let w: f64 = kv["winrate"].parse().unwrap();
        assert!((0.0..=1.0).contains(&w));
        let _: f64 = kv["scoreLead"].parse().unwrap();
        let _: f64 = kv["scoreMean"].parse().unwrap();
        let _: f64 = kv["utility"].parse().unwrap();
    }
    // An empty line ends it too; the engine then waits for the next command.
    e.send("");
    let mut line = e.line();
    while line.starts_with("info") {
        line = e.line();
    }
    assert_eq!(line, "");
    e.send("genmove w");
    let answer = e.line();
    assert!(answer.starts_with("= "), "{answer}");
    assert_eq!(e.line(), "");
    assert!(matches!(e.send_err("lz-analyze b frob 3"), Some(l) if l.starts_with('?')));
    e.send("quit");
    assert_eq!(e.line(), "=");
    assert!(e.child.wait().unwrap().success());
}

impl Raw {
    fn send_err(&mut self, line: &str) -> Option<String> {
        self.send(line);
        let answer = self.line();
        assert_eq!(self.line(), "");
        Some(answer)
    }
}

/// A controller that sends `quit` and goes without reading the answer: the engine
/// exits at once, successfully and silently (no "Broken pipe").
#[test]
fn quit_into_a_closed_pipe_is_clean() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_qiyuan"))
        .args(["engine", "--game", "go"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("qiyuan engine starts");
    // Nobody reads the answers: the pipe's read end is closed.
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    let _ = writeln!(stdin, "name\nboardsize 9\nquit");
    drop(stdin);
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(status.success(), "{status}: {err}");
    assert!(err.is_empty(), "{err}");
}
