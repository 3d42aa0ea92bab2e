//! `qiyuan go score` on every game GNU Go played in the shared data: the printed
//! result must be GNU Go's `final_score` with its dead stones removed, counted
//! with GNU Go's seki count (`--count gnugo`). And on a record qiyuan exported
//! from a finished game, the count read from the file is the game's result.
#![cfg(feature = "go")]

use std::path::PathBuf;
use std::process::Command;

use qiyuan_testkit::fs::shared_data;

use crate::util::qiyuan;

fn score(args: &[&str]) -> (bool, String, String) {
    let (ok, out, err) = qiyuan(&[&["go", "score"], args].concat());
    (ok, out.trim().to_string(), err.trim().to_string())
}

#[test]
fn go_score_agrees_with_gnu_go_on_every_game() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(shared_data("go-gnugo"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sgf"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let mut differ = Vec::new();
    for sgf in &files {
        let want = std::fs::read_to_string(sgf.with_extension("result")).unwrap();
        let dead: Vec<String> = std::fs::read_to_string(sgf.with_extension("dead"))
            .unwrap()
            .split_whitespace()
            .map(String::from)
            .collect();
        let mut args = vec![sgf.to_str().unwrap().to_string(), "--count=gnugo".into()];
        if !dead.is_empty() {
            args.push("--dead".into());
            args.push(dead.join(","));
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (ok, got, err) = score(&args);
        if !ok || got != want.trim() {
            differ.push(format!(
                "{}: want {} got {got} {err}",
                sgf.display(),
                want.trim()
            ));
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

#[test]
fn go_score_explains_bad_input() {
    let dir = shared_data("go-gnugo");
    let sgf = dir.join("g0001.sgf");
    let (ok, _, err) = score(&[sgf.to_str().unwrap(), "--dead", "Z99"]);
    assert!(!ok);
    assert!(err.contains("Z99"), "{err}");
    let (ok, _, err) = score(&[dir.join("missing.sgf").to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("cannot read"), "{err}");
    // Without dead stones the count still comes out, as an SGF result.
    let (ok, out, _) = score(&[sgf.to_str().unwrap()]);
    assert!(ok);
    assert!(
        out.starts_with("B+") || out.starts_with("W+") || out == "0",
        "{out}"
    );
}

/// Issue 41: a record nested 150,000 deep overflowed the stack (an abort, no
/// message). It is refused with an error that says why, as one long line is.
#[test]
fn go_score_refuses_a_record_nested_150000_deep() {
    let dir = std::env::temp_dir().join(format!("qiyuan-go-score-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let nested = dir.join("nested.sgf");
    std::fs::write(
        &nested,
        format!("{}{}", "(;".repeat(150_000), ")".repeat(150_000)),
    )
    .unwrap();
    let line = dir.join("line.sgf");
    std::fs::write(&line, format!("(;GM[1]SZ[9]{})", ";B[]".repeat(150_000))).unwrap();
    for file in [&nested, &line] {
        let out = Command::new(env!("CARGO_BIN_EXE_qiyuan"))
            .args(["go", "score"])
            .arg(file)
            .output()
            .expect("run qiyuan");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{}: {err}", file.display());
        assert!(err.contains("more than 5000 nodes deep"), "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A finished 9x9 position with a seki with eyes in the lower left (white's two-
/// point eye A1 A2, black's eye E1, the shared liberty C1) and a dead black stone
/// on F7 in white's area.
const SEKI: &str = "(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese]\
    AB[ba][ab][bb][bc][fc][ad][bd][be][af][bf][cg][ch][dh][eh][fh][di][fi]\
    AW[ca][cb][cc][cd][ce][cf][df][ef][ff][gf][hf][if][ag][bg][dg][eg][fg][gg][hg][ig]\
    [bh][gh][bi][gi])";

/// Plays the position to its end through the game's contract: two passes, F7
/// marked dead (and nothing else), both accept. Returns the game.
fn counted(counting: qiyuan_go::Counting) -> qiyuan_go::Go {
    use qiyuan_game::{Game, Seat, Setup};
    use qiyuan_go::{Go, Options, Point};
    let options = Options {
        size: 9,
        counting,
        ..Options::default()
    };
    let mut go = Go::new(&options, &Setup::Position(SEKI.into())).unwrap();
    go.act(Seat(0), "pass").unwrap();
    go.act(Seat(1), "pass").unwrap();
    let f7 = Point::from_gtp("F7").unwrap();
    for p in go.board().points() {
        if go.board().get(p).is_some() && go.is_dead(p) != (p == f7) {
            let word = if p == f7 { "dead" } else { "alive" };
            go.act(Seat(0), &format!("{word} {p}")).unwrap();
        }
    }
    assert_eq!(go.dead(), [f7]);
    go.act(Seat(0), "accept").unwrap();
    go.act(Seat(1), "accept").unwrap();
    go
}

#[test]
fn go_score_reads_the_count_of_an_exported_finished_game() {
    use qiyuan_game::{Game, RecordMeta};
    let dir = std::env::temp_dir().join(format!("qiyuan-go-score-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (counting, want, flag) in [
        (qiyuan_go::Counting::Chinese, "W+47.5", "--count=chinese"),
        (qiyuan_go::Counting::GnuGo, "W+46.5", "--count=gnugo"),
    ] {
        let go = counted(counting);
        let outcome = go.outcome().expect("counted");
        assert_eq!(outcome.score, want);
        let record = go.record(&RecordMeta {
            players: vec!["alice".into(), "bob".into()],
            ..RecordMeta::default()
        });
        assert!(record.contains("RE[W+"), "{record}");
        let file = dir.join(format!("{flag}.sgf"));
        std::fs::write(&file, &record).unwrap();
        // No --dead: the dead stone comes from the record's TW.
        let (ok, got, err) = score(&[file.to_str().unwrap(), flag]);
        assert!(ok, "{err}");
        assert_eq!(got, want, "{record}");
        // Without the marking (the dead stone counted alive) the count differs.
        let (_, alive, _) = score(&[file.to_str().unwrap(), flag, "--dead", "B9"]);
        assert_ne!(alive, want);
    }
    // The Chinese rules' count is the default, at tables and here.
    let go = counted(qiyuan_go::Counting::Chinese);
    let file = dir.join("default.sgf");
    std::fs::write(&file, go.record(&RecordMeta::default())).unwrap();
    let (ok, got, err) = score(&[file.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert_eq!(got, "W+47.5");
    std::fs::remove_dir_all(&dir).ok();
}
