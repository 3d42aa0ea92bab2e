//! Game endings: the WXF rulebook cases of ../shared/data/xiangqi-repetition.tsv and
//! cases of our own (perpetual check and chase, the move limit, stalemate, ...).

use qiyuan_testkit::fs::read_shared_data;
use qiyuan_xiangqi::notation::parse_iccs_unchecked;
use qiyuan_xiangqi::{Color, EndReason, Ending, Options, Position, XiangqiGame};

/// Plays ICCS moves until the game ends.
fn play(options: Options, fen: &str, moves: &str) -> XiangqiGame {
    let pos = Position::from_fen_relaxed(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut g = XiangqiGame::from_position(options, pos);
    for (i, t) in moves.split_whitespace().enumerate() {
        if g.ending().is_some() {
            break;
        }
        let m = parse_iccs_unchecked(t).unwrap();
        g.play(m)
            .unwrap_or_else(|e| panic!("{fen} move {} {t}: {e}", i + 1));
    }
    g
}

fn ending(fen: &str, moves: &str) -> Option<Ending> {
    play(Options::default(), fen, moves).ending()
}

#[test]
fn wxf_rulebook_cases() {
    let text = read_shared_data("xiangqi-repetition.tsv");
    let mut failures = Vec::new();
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        assert!(cols.len() >= 3, "bad line {line}");
        let (fen, moves, expected) = (cols[0], cols[1], cols[2]);
        let got = ending(fen, moves).map_or("ongoing", |e| e.result_word());
        if got != expected {
            failures.push(format!(
                "{}: want {expected}, got {got}: {fen} | {moves}",
                cols.get(3).unwrap_or(&"")
            ));
        }
        n += 1;
    }
    assert!(n > 100);
    assert!(
        failures.is_empty(),
        "{} of {n} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn cycle(moves: &str, times: usize) -> String {
    vec![moves; times].join(" ")
}

#[test]
fn perpetual_check_loses() {
    // The red rook checks on ranks 9 and 8 in turn; the black general steps up and down.
    let e = ending(
        "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1",
        &format!("a0a9 {}", cycle("e9e8 a9a8 e8e9 a8a9", 3)),
    )
    .unwrap();
    assert_eq!(
        (e.winner, e.reason, e.ply),
        (Some(Color::Black), EndReason::PerpetualCheck, 9)
    );
}

#[test]
fn perpetual_chase_loses() {
    // The red rook keeps attacking the unprotected black cannon.
    let e = ending(
        "c3k4/1R7/9/9/9/9/9/9/9/3K5 w - - 0 1",
        &cycle("b8a8 a9b9 a8b8 b9a9", 3),
    )
    .unwrap();
    assert_eq!(
        (e.winner, e.reason),
        (Some(Color::Black), EndReason::PerpetualChase)
    );
}

#[test]
fn mutual_perpetual_check_is_a_draw() {
    let e = ending(
        "9/9/3k5/4c4/9/9/3p5/4C4/3R5/4K4 w - - 0 1",
        &cycle("e2d2 d3e3 d2e2 e3d3", 3),
    )
    .unwrap();
    assert_eq!((e.winner, e.reason), (None, EndReason::Repetition));
}

#[test]
fn idle_repetition_draws_on_the_third_occurrence() {
    let fen = "3k4r/9/9/9/9/9/9/9/9/R4K3 w - - 0 1";
    // Second occurrence after four plies: play goes on.
    assert_eq!(ending(fen, "a0a1 i9i8 a1a0 i8i9"), None);
    let e = ending(fen, &cycle("a0a1 i9i8 a1a0 i8i9", 3)).unwrap();
    assert_eq!(
        (e.winner, e.reason, e.ply),
        (None, EndReason::Repetition, 8)
    );
}

#[test]
fn checking_against_chasing_the_checker_loses() {
    // The red rook checks on ranks 9 and 8 in turn. Each step of the black general
    // makes it the screen of a black cannon (a9 over c9, a8 over c8) that then
    // attacks the rook: Black chases the rook with every move, Red checks with
    // every move, and the checker loses.
    let fen = "c1b1k4/c1n5R/9/9/9/9/9/9/9/5K3 w - - 0 1";
    let e = ending(fen, &cycle("i8i9 e9e8 i9i8 e8e9", 3)).unwrap();
    assert_eq!(
        (e.winner, e.reason, e.ply),
        (Some(Color::Black), EndReason::PerpetualCheck, 8)
    );
}

#[test]
fn chasing_against_check_and_idle_loses() {
    // Red's rook chases the black horse with every move; Black checks, then idles.
    let fen = "3akr3/n3a4/4b4/9/P1b6/9/1n7/4B4/3RA4/2BAK4 w - - 0 1";
    let e = ending(fen, &cycle("d1d3 b3c1 d3d1 c1b3", 4)).unwrap();
    // Red chases the horse with every move; Black checks then idles: Red loses.
    assert_eq!(
        (e.winner, e.reason),
        (Some(Color::Black), EndReason::PerpetualChase)
    );
}

#[test]
fn attacking_a_protected_piece_is_no_chase() {
    // The red rook attacks the black horse, which the black rook protects.
    let fen = "1r2k4/9/1n7/R8/9/9/9/9/9/3K5 w - - 0 1";
    let moves = cycle("a6a7 e9e8 a7a6 e8e9", 3);
    let e = ending(fen, &moves).unwrap();
    assert_eq!(
        (e.winner, e.reason, e.ply),
        (None, EndReason::Repetition, 8)
    );
}

#[test]
fn chasing_different_pieces_in_turn_draws() {
    // WXF diagram 26: one cannon chases two rooks on alternate moves (the
    // rulebook's reference case, from ../shared/data).
    let fen = "4k4/9/9/9/C8/9/pp5pp/4B4/9/r1BAKA2r w - - 0 1";
    let moves = format!(
        "a5i5 i0h0 i5a5 a0b0 a5h5 h0i0 h5b5 b0a0 {}",
        cycle("b5i5 i0h0 i5a5 a0b0 a5h5 h0i0 h5b5 b0a0", 3)
    );
    let e = ending(fen, &moves).unwrap();
    assert_eq!((e.winner, e.reason), (None, EndReason::Repetition));
}

#[test]
fn natural_move_limit() {
    let fen = "3k4r/9/9/9/9/9/9/9/9/R4K3 w - - 0 1";
    let g = play(Options { move_limit: 2 }, fen, "a0a1 i9i8 a1a2 i8i7 a2a3");
    let e = g.ending().unwrap();
    assert_eq!((e.winner, e.reason, e.ply), (None, EndReason::MoveLimit, 4));
    // The default is 40 moves, counted from the FEN's counter.
    let fen = "3k4r/9/9/9/9/9/9/9/9/R4K3 w - - 78 50";
    assert_eq!(ending(fen, "a0a1"), None);
    let e = ending(fen, "a0a1 i9i8").unwrap();
    assert_eq!(e.reason, EndReason::MoveLimit);
    // 60 as in the 2011 rules.
    assert_eq!(
        play(Options { move_limit: 60 }, fen, "a0a1 i9i8 a1a2").ending(),
        None
    );
}

#[test]
fn a_capture_resets_the_move_limit() {
    let fen = "3k4r/9/9/9/9/9/9/9/r8/R4K3 w - - 78 50";
    assert_eq!(ending(fen, "a0a1 i9i8"), None);
}

#[test]
fn stalemate_loses() {
    let g =
        XiangqiGame::from_fen(Options::default(), "3k5/R8/9/9/9/9/9/9/4R4/5K3 b - - 0 1").unwrap();
    let e = g.ending().unwrap();
    assert_eq!(
        (e.winner, e.reason),
        (Some(Color::Red), EndReason::Stalemate)
    );
}

#[test]
fn checkmate_loses() {
    // Two rooks: one on rank 9 gives check, the other holds rank 8.
    let e = ending("4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1", "b0b9").unwrap();
    assert_eq!(
        (e.winner, e.reason, e.ply),
        (Some(Color::Red), EndReason::Checkmate, 1)
    );
}

#[test]
fn insufficient_material_draws() {
    let g = XiangqiGame::from_fen(Options::default(), "3ak4/4a4/9/9/9/9/9/4B4/9/3K5 w - - 0 1")
        .unwrap();
    assert_eq!(g.ending().unwrap().reason, EndReason::InsufficientMaterial);
}

#[test]
fn flying_general_moves_are_refused() {
    let p = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1").unwrap();
    assert!(!p.is_legal(parse_iccs_unchecked("d0e0").unwrap()));
    assert!(p.is_legal(parse_iccs_unchecked("d0d1").unwrap()));
    let p = Position::from_fen("4k4/9/9/9/4C4/9/9/9/9/4K4 w - - 0 1").unwrap();
    assert!(!p.is_legal(parse_iccs_unchecked("e5d5").unwrap()));
    assert!(p.is_legal(parse_iccs_unchecked("e5e8").unwrap()));
    let mut g = XiangqiGame::from_position(Options::default(), p);
    assert!(g.play(parse_iccs_unchecked("e5d5").unwrap()).is_err());
    assert!(g.moves().is_empty());
}
