//! The rules of play: captures, snapback, suicide, ko, superko, seki, handicap.

use qiyuan_game::{Game, RefusalKind, Seat, Setup};
use qiyuan_go::{Board, Color, Counting, Go, IllegalMove, KoRule, Options, Point, SgfGame, area};

fn p(v: &str) -> Point {
    Point::from_gtp(v).unwrap()
}

/// A game from a diagram: rows from the top, `X` black, `O` white.
fn position(rows: &[&str], first: Color, ko: KoRule) -> Go {
    let size = rows.len() as u8;
    let mut sgf = SgfGame {
        size,
        first: Some(first),
        ..SgfGame::default()
    };
    for (r, line) in rows.iter().enumerate() {
        for (c, ch) in line.chars().enumerate() {
            let q = Point::new(c as u8, size - 1 - r as u8);
            match ch {
                'X' => sgf.black_setup.push(q),
                'O' => sgf.white_setup.push(q),
                _ => {}
            }
        }
    }
    let options = Options {
        ko,
        ..Options::default()
    };
    Go::from_sgf_setup(&options, &sgf).unwrap()
}

fn seat(go: &Go) -> Seat {
    Seat(go.to_move().index() as u8)
}

/// Plays a sequence for whoever is to move.
fn play(go: &mut Go, moves: &[&str]) {
    for mv in moves {
        let s = seat(go);
        go.act(s, mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
}

#[test]
fn a_surrounded_stone_is_captured() {
    let mut go = position(
        &[
            ".....", //
            "..X..", //
            ".XO..", //
            "..X..", //
            ".....",
        ],
        Color::Black,
        KoRule::PositionalSuperko,
    );
    let fx = go.act(Seat(0), "D3").unwrap();
    assert!(fx.capture);
    assert_eq!(go.board().get(p("C3")), None);
    assert_eq!(go.board().captures(Color::Black), 1);
    // A chain of two goes too, and the edge counts as a wall.
    let mut b = Board::new(5).unwrap();
    for v in ["A1", "B1"] {
        b.setup(Color::White, p(v)).unwrap();
    }
    b.setup(Color::Black, p("A2")).unwrap();
    b.setup(Color::Black, p("B2")).unwrap();
    assert_eq!(b.play(Color::Black, p("C1")), Ok(2));
    assert_eq!(b.get(p("A1")), None);
}

#[test]
fn snapback() {
    let mut go = position(
        &[
            ".....", //
            ".....", //
            "XX...", //
            "OOX..", //
            "..X..",
        ],
        Color::Black,
        KoRule::PositionalSuperko,
    );
    // Black throws in; white takes; black takes back three.
    let fx = go.act(Seat(0), "A1").unwrap();
    assert!(!fx.capture);
    assert!(go.act(Seat(1), "B1").unwrap().capture);
    assert_eq!(go.board().get(p("A1")), None);
    // Not a ko: three stones are captured at once.
    let fx = go.act(Seat(0), "A1").unwrap();
    assert!(fx.capture);
    assert_eq!(go.board().captures(Color::Black), 3);
    for v in ["A2", "B2", "B1"] {
        assert_eq!(go.board().get(p(v)), None, "{v}");
    }
}

#[test]
fn suicide_is_refused_and_changes_nothing() {
    let mut go = position(
        &[
            ".....", //
            ".....", //
            "O....", //
            "XO...", //
            ".O...",
        ],
        Color::Black,
        KoRule::PositionalSuperko,
    );
    let before = go.view(qiyuan_game::Viewer::Spectator);
    // A1 would leave the black chain A1-A2 without liberties.
    let refusal = go.act(Seat(0), "A1").unwrap_err();
    assert_eq!(refusal.kind, RefusalKind::Illegal);
    assert!(refusal.message.contains("suicide"), "{}", refusal.message);
    assert_eq!(go.view(qiyuan_game::Viewer::Spectator), before);
    assert!(!go.legal_actions(Seat(0)).contains(&"A1".to_string()));
    // A lone stone in an eye is suicide too; a move that captures is not.
    let mut b = Board::new(5).unwrap();
    b.setup(Color::White, p("A2")).unwrap();
    b.setup(Color::White, p("B1")).unwrap();
    assert_eq!(
        b.play(Color::Black, p("A1")),
        Err(IllegalMove::Suicide(p("A1")))
    );
    b.setup(Color::Black, p("A3")).unwrap();
    b.setup(Color::Black, p("B2")).unwrap();
    b.setup(Color::Black, p("C1")).unwrap();
    assert_eq!(b.play(Color::Black, p("A1")), Ok(2));
}

#[test]
fn a_ko_cannot_be_retaken_at_once() {
    let mut go = position(
        &[
            ".....", //
            ".XO..", //
            "XO.O.", //
            ".XO..", //
            ".....",
        ],
        Color::Black,
        KoRule::Simple,
    );
    play(&mut go, &["C3"]);
    assert_eq!(go.board().ko_point(), Some(p("B3")));
    let refusal = go.act(Seat(1), "B3").unwrap_err();
    assert_eq!(refusal.kind, RefusalKind::Illegal);
    assert!(refusal.message.contains("ko"), "{}", refusal.message);
    // A threat elsewhere, an answer, and the ko may be taken back.
    play(&mut go, &["E5", "E4", "B3"]);
    assert_eq!(go.board().get(p("C3")), None);
    assert_eq!(go.board().ko_point(), Some(p("C3")));
}

/// Three kos side by side on the first line of a 19x19 board. In each, black can
/// take (column c+2) or white can (column c+1).
fn triple_ko(ko: KoRule) -> Go {
    let mut sgf = SgfGame {
        size: 19,
        first: Some(Color::Black),
        ..SgfGame::default()
    };
    for (c, white_holds) in [(0u8, true), (6, false), (12, true)] {
        sgf.black_setup.push(Point::new(c, 0));
        sgf.black_setup.push(Point::new(c + 1, 1));
        sgf.white_setup.push(Point::new(c + 2, 1));
        sgf.white_setup.push(Point::new(c + 3, 0));
        if white_holds {
            sgf.white_setup.push(Point::new(c + 1, 0));
        } else {
            sgf.black_setup.push(Point::new(c + 2, 0));
        }
    }
    Go::from_sgf_setup(
        &Options {
            ko,
            ..Options::default()
        },
        &sgf,
    )
    .unwrap()
}

#[test]
fn positional_superko_stops_a_triple_ko_cycle() {
    let cycle = ["C1", "H1", "P1", "B1", "J1"];
    let mut go = triple_ko(KoRule::PositionalSuperko);
    let start = go.board().clone();
    play(&mut go, &cycle);
    // Every move took a ko; white's retaking of the third would recreate the start.
    assert_eq!(go.board().captures(Color::Black), 3);
    let refusal = go.act(Seat(1), "O1").unwrap_err();
    assert_eq!(refusal.kind, RefusalKind::Illegal);
    assert!(refusal.message.contains("superko"), "{}", refusal.message);
    assert!(!go.legal_actions(Seat(1)).contains(&"O1".to_string()));
    // Under the simple ko rule the cycle goes on and the position recurs.
    let mut simple = triple_ko(KoRule::Simple);
    play(&mut simple, &cycle);
    play(&mut simple, &["O1"]);
    assert_eq!(simple.board().rows(), start.rows());
    assert_eq!(simple.board().hash(), start.hash());
}

#[test]
fn seki_points_are_shared() {
    // The black chain at the bottom and the white chain above it share A2 and B2
    // and neither has an eye: seki. Row 5 is black's territory.
    let go = position(
        &[
            ".....", //
            "XXXXX", //
            "OOOOX", //
            "..XOX", //
            "XXXOX",
        ],
        Color::Black,
        KoRule::PositionalSuperko,
    );
    for counting in [Counting::Chinese, Counting::GnuGo] {
        let count = area(go.board(), &[], counting);
        assert_eq!((count.black, count.white), (17, 6));
    }
    // Under the Chinese rules the shared points are half each's.
    assert_eq!(area(go.board(), &[], Counting::Chinese).shared, 2);
    assert_eq!(go.score().to_string(), "B+3.5");
    // Eye against eye: each side has one eye and they share A3 and B3. The eyes
    // (A1 for black, E2 for white) are neutral too, as GNU Go counts them; under
    // the Chinese rules each eye is its owner's.
    let go = position(
        &[
            "......", //
            "XXXXXX", //
            "OOOOOX", //
            "..XOOX", //
            "XXXO.O", //
            ".XXOOO",
        ],
        Color::Black,
        KoRule::PositionalSuperko,
    );
    let count = area(go.board(), &[], Counting::GnuGo);
    let owner = |count: &qiyuan_go::AreaCount, v: &str| {
        let q = p(v);
        count.owner[usize::from(q.row) * 6 + usize::from(q.col)]
    };
    for v in ["A1", "E2", "A3", "B3"] {
        assert_eq!(owner(&count, v), None, "{v}");
    }
    assert_eq!(owner(&count, "A6"), Some(Color::Black));
    assert_eq!((count.black, count.white), (20, 12));
    let count = area(go.board(), &[], Counting::Chinese);
    assert_eq!(owner(&count, "A1"), Some(Color::Black));
    assert_eq!(owner(&count, "E2"), Some(Color::White));
    for v in ["A3", "B3"] {
        assert_eq!(owner(&count, v), None, "{v}");
    }
    assert_eq!((count.black, count.white, count.shared), (21, 13, 2));
}

#[test]
fn handicap_stones_are_placed_and_white_moves_first() {
    let options = Options {
        size: 19,
        handicap: 9,
        ..Options::default()
    };
    let go = Go::new(&options, &Setup::Standard).unwrap();
    assert_eq!(go.to_move(), Color::White);
    assert_eq!(go.board().stone_count(Color::Black), 9);
    for v in ["D4", "K10", "Q16", "D16", "Q4", "K4", "K16", "D10", "Q10"] {
        assert_eq!(go.board().get(p(v)), Some(Color::Black), "{v}");
    }
    // Chinese counting gives white a point per handicap stone: the empty board with
    // nine black stones is 361 - 7.5 - 9, as GNU Go's final_score says.
    assert_eq!(go.score().to_string(), "B+344.5");
    let mut go = go;
    assert_eq!(
        go.act(Seat(0), "C3").unwrap_err().kind,
        RefusalKind::NotYourTurn
    );
    go.act(Seat(1), "C3").unwrap();
    // An impossible handicap is refused at setup.
    let bad = Options {
        size: 9,
        handicap: 10,
        ..Options::default()
    };
    assert!(Go::new(&bad, &Setup::Standard).is_err());
}

proptest::proptest! {
    /// No point, on the board or off it, makes the board panic.
    #[test]
    fn any_point_is_answered_without_panic(col in 0u8..=255, row in 0u8..=255, size in 2u8..=25) {
        let mut b = Board::new(size).unwrap();
        let q = Point::new(col, row);
        let _ = b.get(q);
        let _ = b.check(Color::Black, q);
        let _ = b.hash_after(Color::Black, q);
        let _ = b.adjacent(q).count();
        let _ = b.chain(q);
        let _ = b.liberties(q);
        let _ = qiyuan_go::marking_group(&b, q);
        let _ = q.to_string();
        let _ = q.to_sgf(size);
        let _ = b.setup(Color::White, q);
        let _ = b.play(Color::Black, q);
        let _ = area(&b, &[q], Counting::Chinese);
    }
}
