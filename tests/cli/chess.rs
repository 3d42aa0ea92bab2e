//! The chess command line as a user runs it: `qiyuan perft --game chess` and
//! `qiyuan pgn check` on a generated file with good and bad games.
#![cfg(feature = "chess")]

use std::path::PathBuf;

use crate::util::qiyuan_exit;

/// The last number printed: the node count.
fn last_number(text: &str) -> u64 {
    text.split(|c: char| !c.is_ascii_digit())
        .rfind(|s| !s.is_empty())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no number in {text:?}"))
}

fn temp_file(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("chess_cli");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(format!("{}-{name}", std::process::id()))
}

#[test]
fn perft_counts_the_start_position() {
    let (code, out, err) = qiyuan_exit(&["perft", "--game", "chess", "--depth", "4"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(last_number(&out), 197_281);
}

#[test]
fn perft_counts_kiwipete_from_a_fen() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let (code, out, err) = qiyuan_exit(&["perft", "--game", "chess", "--fen", fen, "--depth", "3"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(last_number(&out), 97_862);
}

#[test]
fn perft_divide_lists_each_move() {
    let (code, out, err) = qiyuan_exit(&["perft", "--game", "chess", "--depth", "2", "--divide"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<_> = out.lines().collect();
    assert_eq!(lines.len(), 21, "{out}");
    assert!(lines.contains(&"e2e4: 20"), "{out}");
    assert_eq!(last_number(&out), 400);
}

#[test]
fn perft_refuses_an_illegal_fen() {
    let (code, _, err) = qiyuan_exit(&[
        "perft",
        "--fen",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "--depth",
        "1",
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("illegal position"), "{err}");
}

#[test]
fn pgn_check_counts_good_games_and_reports_bad_ones() {
    let path = temp_file("mixed.pgn");
    let (code, _, err) = qiyuan_exit(&[
        "pgn",
        "generate",
        "--games",
        "200",
        "--seed",
        "7",
        "--output",
        path.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let mut text = std::fs::read_to_string(&path).unwrap();
    // Two bad games among the good ones.
    text.push_str(
        "[Event \"bad one\"]\n[White \"X\"]\n[Black \"Y\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Ke3 *\n\n",
    );
    text.push_str("[Event \"bad two\"]\n\n1. d4 d5 2. c4 Kd6 *\n\n");
    text.push_str("[Event \"good\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n");
    std::fs::write(&path, &text).unwrap();

    let (code, out, err) = qiyuan_exit(&["pgn", "check", path.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("game 201 (X - Y): move 3. Ke3 is illegal"),
        "{out}"
    );
    assert!(out.contains("game 202: move 2... Kd6 is illegal"), "{out}");
    assert!(out.contains("203 games: 201 good, 2 bad"), "{out}");
    // No progress bar when stderr is not a terminal.
    assert!(err.is_empty(), "{err}");

    // Without the bad games the file passes.
    let good: String = text.split("[Event \"bad one\"]").next().unwrap().into();
    std::fs::write(&path, good).unwrap();
    let (code, out, _) = qiyuan_exit(&["pgn", "check", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("200 games: 200 good, 0 bad"), "{out}");
    std::fs::remove_file(&path).ok();
}

#[test]
fn pgn_check_of_a_missing_file_fails_clearly() {
    let (code, _, err) = qiyuan_exit(&["pgn", "check", "/nonexistent/file.pgn"]);
    assert_ne!(code, 0);
    assert!(err.contains("cannot open /nonexistent/file.pgn"), "{err}");
}
