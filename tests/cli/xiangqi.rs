//! `qiyuan perft --game xiangqi`, `qiyuan xiangqi play` and `qiyuan xiangqi notation`
//! through the binary.
#![cfg(feature = "xiangqi")]

use qiyuan_testkit::fs::read_shared_data;

use crate::util::qiyuan;

#[test]
fn perft_prints_the_count_last() {
    let (ok, out, _) = qiyuan(&["perft", "--game", "xiangqi", "--depth", "3"]);
    assert!(ok);
    assert_eq!(out.split_whitespace().last(), Some("79666"));
    let fen = "1C1a2bn1/3cak3/2n1b4/9/2p1p1p2/4P2c1/2P3P1p/rR3r2N/4N4/2BAKAC2 w - - 4 33";
    let (ok, out, _) = qiyuan(&[
        "perft", "--game", "xiangqi", "--fen", fen, "--depth", "2", "--divide",
    ]);
    assert!(ok);
    assert_eq!(out.lines().count(), 39, "38 moves and the total:\n{out}");
    assert_eq!(out.split_whitespace().last(), Some("2316"));
}

#[test]
fn play_judges_every_rulebook_case() {
    let text = read_shared_data("xiangqi-repetition.tsv");
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        assert!(cols.len() >= 3, "malformed data line: {line}");
        let mut args = vec!["xiangqi", "play", "--fen", cols[0]];
        args.extend(cols[1].split_whitespace());
        let (ok, out, _) = qiyuan(&args);
        assert!(ok, "{line}");
        assert_eq!(
            out.split_whitespace().next(),
            Some(cols[2]),
            "{line}\n{out}"
        );
        checked += 1;
    }
    assert!(checked >= 100, "only {checked} cases in the data file");
    println!("qiyuan xiangqi play: {checked} rulebook cases agree");
}

/// The chase cases of issue 21 (crates/xiangqi/tests/chases.tsv): the whole
/// line `qiyuan xiangqi play` prints, result, reason and ply.
#[test]
fn play_judges_the_chase_cases() {
    let path = format!(
        "{}/crates/xiangqi/tests/chases.tsv",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut counts = [0, 0, 0];
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 5, "malformed line: {line}");
        counts[usize::from(cols[0].as_bytes()[0] - b'a')] += 1;
        let mut args = vec!["xiangqi", "play", "--fen", cols[1]];
        args.extend(cols[2].split_whitespace());
        let (ok, out, _) = qiyuan(&args);
        assert!(ok, "{line}");
        assert_eq!(out.trim(), cols[3], "{}", cols[4]);
    }
    assert!(counts[0] >= 5 && counts[1] >= 5, "{counts:?}");
}

#[test]
fn play_reports_reason_and_ply() {
    let (ok, out, _) = qiyuan(&[
        "xiangqi",
        "play",
        "--fen",
        "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1",
        "b0b9",
    ]);
    assert!(ok);
    assert_eq!(out.trim(), "red checkmate ply 1");
    let (ok, out, _) = qiyuan(&["xiangqi", "play", "h2e2", "h9g7"]);
    assert!(ok);
    assert_eq!(out.trim(), "ongoing ply 2");
    let (ok, _, _) = qiyuan(&["xiangqi", "play", "h2e3"]);
    assert!(!ok, "an illegal move is an error");
}

/// Issue 47: the hall's repetition rule (docs/engines.md, "Repetition"): a plain
/// cycle — both horses out and back, neither side forcing — ends nothing at
/// its position's second occurrence (Fairy-Stockfish plays on there too) and
/// is drawn at the third (不变作和).
#[test]
fn a_plain_cycle_is_drawn_at_the_third_occurrence_not_the_second() {
    let cycle = ["h0g2", "h9g7", "g2h0", "g7h9"];
    let mut args = vec!["xiangqi", "play"];
    args.extend(cycle);
    let (ok, out, _) = qiyuan(&args);
    assert!(ok);
    assert_eq!(out.trim(), "ongoing ply 4");
    args.extend(cycle);
    let (ok, out, _) = qiyuan(&args);
    assert!(ok);
    assert_eq!(out.trim(), "draw repetition ply 8");
}

#[test]
fn notation_prints_every_spelling() {
    let (ok, out, _) = qiyuan(&["xiangqi", "notation", "--move", "h2e2"]);
    assert!(ok);
    assert_eq!(out, "iccs h2e2\nwxf C2=5\nchinese 炮二平五\n");
    let (ok, out, _) = qiyuan(&["xiangqi", "notation", "--move", "马二进三"]);
    assert!(ok);
    assert!(out.starts_with("iccs h0g2\n"), "{out}");
}
