//! Bad input: impossible positions, malformed and illegal moves, actions out of
//! turn. Every refusal is typed, says why, and leaves the game as it was.

use qiyuan_chess::{ChessGame, ChessOptions, FenError, MoveError, parse_move};
use qiyuan_game::{Game, RefusalKind, Seat, Setup, Viewer};

fn new(setup: Setup) -> Result<ChessGame, String> {
    ChessGame::new(&ChessOptions::default(), &setup).map_err(|e| e.message)
}

#[test]
fn a_fen_that_is_not_fen_is_refused() {
    for bad in [
        "",
        "hello",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -3 1",
    ] {
        let err = new(Setup::Position(bad.into())).unwrap_err();
        assert!(err.starts_with("not a FEN"), "{bad:?}: {err}");
    }
    assert!(matches!(
        ChessGame::from_fen("hello"),
        Err(FenError::Syntax { .. })
    ));
}

#[test]
fn an_impossible_position_is_refused_with_the_reason() {
    let cases = [
        ("8/8/8/8/8/8/8/4K3 w - - 0 1", "missing king"),
        ("4k3/8/8/8/8/8/8/4KK2 w - - 0 1", "too many kings"),
        ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "pawns on backrank"),
        // Black is in check but it is White's move.
        ("4k3/8/8/8/8/8/8/3KR3 w - - 0 1", "opposite check"),
        ("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "opposite check"),
        // Castling rights without a rook in the corner.
        ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", "castling"),
    ];
    for (fen, why) in cases {
        let err = new(Setup::Position(fen.into()))
            .err()
            .unwrap_or_else(|| panic!("{fen} accepted"));
        assert!(err.contains("illegal position"), "{fen}: {err}");
        assert!(err.contains(why), "{fen}: {err}");
        assert!(matches!(
            ChessGame::from_fen(fen),
            Err(FenError::Illegal { .. })
        ));
    }
    let err = new(Setup::Seed(7)).unwrap_err();
    assert!(err.contains("FEN"), "{err}");
}

#[test]
fn legal_fens_start_a_game() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let game = new(Setup::Position(fen.into())).unwrap();
    assert_eq!(game.fen(), fen);
    assert_eq!(game.legal_actions(Seat(0)).len(), 48);
    // The standard start given as FEN is the standard start.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(
        new(Setup::Position(start.into())).unwrap().start_fen(),
        None
    );
}

#[test]
fn moves_are_read_in_uci_and_san() {
    let pos = shakmaty::Chess::default();
    for (text, uci) in [
        ("e2e4", "e2e4"),
        ("e4", "e2e4"),
        ("Nf3", "g1f3"),
        ("g1f3", "g1f3"),
        (" Nc3 ", "b1c3"),
    ] {
        let m = parse_move(&pos, text).unwrap();
        assert_eq!(shakmaty::uci::UciMove::from_standard(m).to_string(), uci);
    }
    let mut game = ChessGame::from_fen("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    assert_eq!(game.play("0-0").unwrap().canonical, "e1g1");
    assert_eq!(game.play("Rh6").unwrap().canonical, "h8h6");
    let effects = game.play("bxa8=N").unwrap();
    assert_eq!(
        (effects.canonical.as_str(), effects.display.as_str()),
        ("b7a8n", "bxa8=N")
    );
    assert!(effects.capture);
    // Castling as the king taking its rook (the Chess960 way of writing UCI).
    let mut game = ChessGame::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    assert_eq!(game.play("e1h1").unwrap().display, "O-O");
    assert_eq!(game.play("O-O-O").unwrap().canonical, "e8c8");
}

#[test]
fn en_passant_only_right_after_the_double_step() {
    let mut game = ChessGame::default();
    for m in ["e4", "a6", "e5", "d5"] {
        game.play(m).unwrap();
    }
    let mut later = game.clone();
    let effects = game.play("exd6").unwrap();
    assert_eq!(effects.canonical, "e5d6");
    assert!(effects.capture);
    later.play("a3").unwrap();
    later.play("a5").unwrap();
    assert_eq!(later.play("e5d6").unwrap_err().kind, RefusalKind::Illegal);
}

#[test]
fn bad_moves_are_refused_with_their_kind() {
    let pos = shakmaty::Chess::default();
    assert_eq!(parse_move(&pos, "e5"), Err(MoveError::Illegal("e5".into())));
    assert_eq!(
        parse_move(&pos, "e2e5"),
        Err(MoveError::Illegal("e2e5".into()))
    );
    assert_eq!(
        parse_move(&pos, "zz"),
        Err(MoveError::Malformed("zz".into()))
    );
    assert_eq!(parse_move(&pos, ""), Err(MoveError::Malformed("".into())));
    assert_eq!(
        parse_move(&pos, "0000"),
        Err(MoveError::Illegal("0000".into()))
    );

    let mut game = ChessGame::from_fen("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1").unwrap();
    let refusal = game.act(Seat(0), "Nd2").unwrap_err();
    assert_eq!(refusal.kind, RefusalKind::Illegal);
    assert!(refusal.message.contains("ambiguous"), "{}", refusal.message);
    assert_eq!(game.act(Seat(0), "Nbd2").unwrap().canonical, "b1d2");

    let mut game = ChessGame::default();
    let cases = [
        (Seat(0), "e5", RefusalKind::Illegal),
        (Seat(0), "Ke2", RefusalKind::Illegal),
        (Seat(0), "e7e8q", RefusalKind::Illegal),
        (Seat(0), "hello", RefusalKind::Malformed),
        (Seat(0), "e2e4e6", RefusalKind::Malformed),
        (Seat(1), "e5", RefusalKind::NotYourTurn),
        (Seat(2), "e4", RefusalKind::NoSuchSeat),
    ];
    for (seat, action, kind) in cases {
        assert_eq!(game.act(seat, action).unwrap_err().kind, kind, "{action}");
    }
}

#[test]
fn a_refused_action_changes_nothing() {
    let mut game = ChessGame::default();
    for m in ["e4", "e5", "Nf3", "Nc6", "Bb5"] {
        game.play(m).unwrap();
    }
    let snapshot = |g: &ChessGame| {
        (
            serde_json::to_string(&g.view(Viewer::Seat(Seat(1)))).unwrap(),
            g.fen(),
            g.moves().to_vec(),
            g.repetitions(),
            g.turn(),
            g.outcome(),
        )
    };
    let before = snapshot(&game);
    for (seat, action) in [
        (Seat(1), "Bb5"),
        (Seat(0), "a3"),
        (Seat(1), "Ke6"),
        (Seat(1), "!!"),
        (Seat(5), "a6"),
        (Seat(1), "a6a5"),
    ] {
        assert!(game.act(seat, action).is_err());
        assert_eq!(snapshot(&game), before, "after {action}");
    }
    assert!(game.claim(Seat(1), qiyuan_game::Claim::FiftyMoves).is_err());
    assert_eq!(snapshot(&game), before);
    // And the game goes on as if nothing happened.
    assert_eq!(game.act(Seat(1), "a6").unwrap().canonical, "a7a6");
}

#[test]
fn the_view_shows_the_position_and_the_moves() {
    let mut game = ChessGame::default();
    for m in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7"] {
        game.play(m).unwrap();
    }
    let view = game.view(Viewer::Spectator);
    assert_eq!(view.last_move.as_ref().unwrap().san, "Qxf7#");
    assert_eq!(view.uci_moves.last().unwrap(), "h5f7");
    assert_eq!(view.last_move.as_ref().unwrap().uci, "h5f7");
    assert!(view.check);
    assert!(view.legal_moves.is_empty());
    assert_eq!(view.to_move, None);
    assert_eq!(view.outcome.as_ref().unwrap().score, "1-0");
    assert_eq!(
        view.fen,
        "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4"
    );

    let game = ChessGame::default();
    let view = game.view(Viewer::Seat(Seat(0)));
    assert_eq!(view.legal_moves.len(), 20);
    assert_eq!(view.to_move, Some(Seat(0)));
    assert_eq!(view.side_to_move, "white");
    let json = serde_json::to_value(&view).unwrap();
    assert_eq!(
        json["fen"],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
}
