//! The chase cases of `tests/chases.tsv`: (a) a move that takes real protection
//! away from an attacked piece is a chase; (b) pieces taking turns to chase one
//! piece are ruled on as soon as the cycle recurs; (c) other chapters of the
//! rules (the general and soldier exemptions, a pinned protector). Each line
//! holds the verdict of the AXF/WXF rules; the root test `xiangqi_cli` plays the
//! same file through `qiyuan xiangqi play`.

use qiyuan_xiangqi::notation::parse_iccs_unchecked;
use qiyuan_xiangqi::{Options, Position, XiangqiGame};

/// What `qiyuan xiangqi play` prints for the game after these moves.
fn outcome(fen: &str, moves: &str) -> String {
    let pos = Position::from_fen_relaxed(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut g = XiangqiGame::from_position(Options::default(), pos);
    for t in moves.split_whitespace() {
        if g.ending().is_some() {
            break;
        }
        let m = parse_iccs_unchecked(t).unwrap();
        g.play(m).unwrap_or_else(|e| panic!("{fen} {t}: {e}"));
    }
    match g.ending() {
        Some(e) => format!(
            "{} {} ply {}",
            e.result_word(),
            serde_json::to_value(e.reason).unwrap().as_str().unwrap(),
            e.ply
        ),
        None => format!("ongoing ply {}", g.moves().len()),
    }
}

#[test]
fn rulebook_verdicts_on_chases() {
    let text = include_str!("chases.tsv");
    let mut counts = [0, 0, 0];
    let mut failures = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 5, "bad line {line}");
        let (kind, fen, moves, want, rule) = (cols[0], cols[1], cols[2], cols[3], cols[4]);
        counts[usize::from(kind.as_bytes()[0] - b'a')] += 1;
        let got = outcome(fen, moves);
        if got != want {
            failures.push(format!("want {want}, got {got}: {rule}"));
        }
    }
    // At least five positions of each kind, each with its verdict.
    assert!(counts[0] >= 5 && counts[1] >= 5, "{counts:?}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn taking_away_protection_counts_only_for_the_chasing_side() {
    // WXF diagram 39 (shared data): each black advisor move takes a screen or a
    // line away from the red horse's protectors, but it answers the attack on
    // the black rook: Red, whose cannon and rook take turns chasing the rook,
    // loses (as soon as the cycle recurs).
    let fen = "2bak4/RC2arN2/4b1n2/2p5p/6p2/2P6/4p1P1c/4B4/4A4/4KAB2 b - - 0 1";
    let cycle = "e8f9 b8b9 f9e8 b9b8";
    assert_eq!(
        outcome(fen, &[cycle; 3].join(" ")),
        "black perpetual_chase ply 4"
    );
}
