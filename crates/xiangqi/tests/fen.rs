//! FEN: reading and writing, and a typed error for every impossible position.

use qiyuan_xiangqi::{Color, FenError, Position, Role, START_FEN, Square};

fn err(fen: &str) -> FenError {
    Position::from_fen(fen).expect_err(fen)
}

#[test]
fn start_position_round_trips() {
    let p = Position::from_fen(START_FEN).unwrap();
    assert_eq!(p.fen(), START_FEN);
    assert_eq!(p, Position::new());
    assert_eq!(p.legal_moves().len(), 44);
}

#[test]
fn red_may_be_written_r_and_counters_left_out() {
    let a = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r")
        .unwrap();
    assert_eq!(a.turn(), Color::Red);
    assert_eq!(a.fen(), START_FEN);
    let b =
        Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 3 7")
            .unwrap();
    assert_eq!(
        (b.turn(), b.halfmoves(), b.fullmoves()),
        (Color::Black, 3, 7)
    );
}

#[test]
fn malformed() {
    assert_eq!(err(""), FenError::Empty);
    assert_eq!(err("rnbakabnr/9/9 w"), FenError::RankCount(3));
    assert!(matches!(
        err("rnbakabnr/8/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
        FenError::RankLength { rank: 8 }
    ));
    assert!(matches!(
        err("rnbakabnr/91/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
        FenError::RankLength { .. }
    ));
    assert_eq!(
        err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w"),
        FenError::PieceLetter('X')
    );
    assert_eq!(
        err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x"),
        FenError::Side("x".into())
    );
    assert_eq!(
        err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - a 1"),
        FenError::Counter("a".into())
    );
    assert_eq!(
        err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 9"),
        FenError::TooManyFields
    );
}

#[test]
fn impossible() {
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/9 w"),
        FenError::NoGeneral(Color::Red)
    );
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/3KK4 w"),
        FenError::TooMany(Color::Red, Role::King)
    );
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/K8 w"),
        FenError::GeneralOutsidePalace(Color::Red, Square::new(0, 0))
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/3A5/4K4 w").to_string(),
        "red advisor on d1, a point it can never reach"
    );
    assert_eq!(
        err("3k5/9/9/9/9/9/4B4/9/9/4K4 w"),
        FenError::ElephantSquare(Color::Red, Square::new(4, 3))
    );
    assert_eq!(
        err("3k5/9/9/9/9/4b4/9/9/9/4K4 w"),
        FenError::ElephantSquare(Color::Black, Square::new(4, 4))
    );
    assert_eq!(
        err("3k5/9/9/9/9/9/1P7/9/9/4K4 w"),
        FenError::PawnSquare(Color::Red, Square::new(1, 3))
    );
    assert_eq!(
        err("3k5/9/9/9/9/9/9/P8/9/4K4 w"),
        FenError::PawnSquare(Color::Red, Square::new(0, 2))
    );
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/R3K2RR w"),
        FenError::TooMany(Color::Red, Role::Rook)
    );
    assert_eq!(
        err("3k5/P8/P8/P8/P8/P8/P8/9/9/4K4 w"),
        FenError::TooMany(Color::Red, Role::Pawn)
    );
    assert_eq!(err("4k4/9/9/9/9/9/9/9/9/4K4 w"), FenError::GeneralsFace);
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/3RK4 w"),
        FenError::OpponentInCheck(Color::Black)
    );
    // The relaxed reader takes soldiers behind their start, as diagrams draw them.
    assert!(Position::from_fen_relaxed("3k5/9/9/9/9/9/9/P8/9/4K4 w").is_ok());
}

#[test]
fn never_panics_on_garbage() {
    for s in [
        "/",
        "//////////",
        "9/9/9/9/9/9/9/9/9/9/9 w",
        "k",
        "4k4/9/9/9/9/9/9/9/9/4K4 w - - 99999999999 1",
        "😀/9/9/9/9/9/9/9/9/9",
        "0/9/9/9/9/9/9/9/9/9",
        "4k4/9/9/9/9/9/9/9/9/3K1 w",
    ] {
        let _ = Position::from_fen(s);
    }
}
