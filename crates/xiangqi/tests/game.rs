//! The game contract and PGN records.

use qiyuan_game::{
    DrawOffers, EndReason, Game, PlayPhase as Phase, RecordMeta, RefusalKind, Seat, SeatResult,
    Setup, Turn, Viewer,
};
use qiyuan_xiangqi::notation::parse_iccs_unchecked;
use qiyuan_xiangqi::pgn::{self, PgnError};
use qiyuan_xiangqi::{Notation, NotationError, Options, Position, Xiangqi};

const OPENING: [&str; 8] = [
    "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "h0h6", "c6c5",
];

fn moves(list: &[&str]) -> Vec<qiyuan_xiangqi::Move> {
    list.iter()
        .map(|m| parse_iccs_unchecked(m).unwrap())
        .collect()
}

#[test]
fn plays_through_the_contract() {
    let mut g = Xiangqi::new(&Options::default(), &Setup::Standard).unwrap();
    assert_eq!(g.seats(), 2);
    assert_eq!(g.turn(), Turn::Seat(Seat(0)));
    assert_eq!(g.draw_offers(), DrawOffers::AlternatingAfterOwnMove);
    assert_eq!(g.legal_actions(Seat(0)).len(), 44);
    assert!(g.legal_actions(Seat(1)).is_empty());
    let e = g.act(Seat(0), "炮二平五").unwrap();
    assert_eq!(
        (e.canonical.as_str(), e.display.as_str(), e.capture, e.check),
        ("h2e2", "炮二平五", false, false)
    );
    assert_eq!(
        g.act(Seat(0), "h9g7").unwrap_err().kind,
        RefusalKind::NotYourTurn
    );
    assert_eq!(
        g.act(Seat(1), "h9h5").unwrap_err().kind,
        RefusalKind::Illegal
    );
    assert_eq!(
        g.act(Seat(1), "hello").unwrap_err().kind,
        RefusalKind::Malformed
    );
    assert_eq!(
        g.act(Seat(2), "h9g7").unwrap_err().kind,
        RefusalKind::NoSuchSeat
    );
    let e = g.act(Seat(1), "H8+7").unwrap();
    assert_eq!(
        (e.canonical.as_str(), e.display.as_str()),
        ("h9g7", "马8进7")
    );
    let v = g.view(Viewer::Spectator);
    assert_eq!(
        v.fen,
        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"
    );
    assert_eq!(v.last_move.as_ref().unwrap().chinese, "马8进7");
    assert_eq!(v.moves, ["h2e2", "h9g7"]);
    assert!(!v.check);
    assert_eq!(g.phase(), Phase::Play);
    assert!(g.outcome().is_none());
    let json = serde_json::to_value(&v).unwrap();
    assert_eq!(json["turn"], "red");
}

#[test]
fn checkmate_through_the_contract() {
    let fen = "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1";
    let mut g = Xiangqi::new(&Options::default(), &Setup::Position(fen.into())).unwrap();
    let e = g.act(Seat(0), "b0b9").unwrap();
    assert!(e.check);
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.results.clone(), o.reason, o.score.as_str()),
        (
            vec![SeatResult::Win, SeatResult::Loss],
            EndReason::Checkmate,
            "1-0"
        )
    );
    assert_eq!(g.turn(), Turn::Over);
    assert_eq!(
        g.act(Seat(1), "e9e8").unwrap_err().kind,
        RefusalKind::GameOver
    );
    assert!(Xiangqi::new(&Options::default(), &Setup::Position("bad".into())).is_err());
    assert!(Xiangqi::new(&Options::default(), &Setup::Seed(1)).is_err());
}

#[test]
fn pgn_round_trips_in_every_format() {
    let start = Position::new();
    let ms = moves(&OPENING);
    for format in [Notation::Iccs, Notation::Wxf, Notation::Chinese] {
        let tags = vec![
            ("Event".to_string(), "Club \"open\"".to_string()),
            ("Red".into(), "甲".into()),
        ];
        let text = pgn::write(&tags, &start, &ms, "*", format);
        assert!(text.starts_with("[Game \"Chinese Chess\"]\n"), "{text}");
        let rec = pgn::read(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(rec.moves, ms, "{text}");
        assert_eq!(rec.start, start);
        assert_eq!(rec.tag("Event"), Some("Club \"open\""));
        assert_eq!(rec.tag("Red"), Some("甲"));
        assert_eq!(rec.result.as_deref(), Some("*"));
    }
}

#[test]
fn pgn_from_a_set_up_position() {
    let start = Position::from_fen("3k4r/9/9/9/9/9/9/9/9/R4K3 b - - 0 1").unwrap();
    let ms = moves(&["i9i8", "a0a1", "i8i9"]);
    let text = pgn::write(&[], &start, &ms, "1/2-1/2", Notation::Chinese);
    assert!(
        text.contains("[FEN \"3k4r/9/9/9/9/9/9/9/9/R4K3 b - - 0 1\"]"),
        "{text}"
    );
    assert!(text.contains("1... 车9进1"), "{text}");
    let rec = pgn::read(&text).unwrap();
    assert_eq!((rec.start, rec.moves), (start, ms));
}

#[test]
fn pgn_reads_comments_variations_and_reports_the_first_illegal_move() {
    let text = "[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n\n1. H2-E2 {centre cannon} H9-G7 (1... H7-E7) 2. H0-G2 $1 I9-H9 *\n";
    let rec = pgn::read(text).unwrap();
    assert_eq!(rec.moves, moves(&OPENING[..4]));
    let bad = "[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n\n1. h2e2 h9g7 2. h0g2 a9a0 *";
    match pgn::read(bad) {
        Err(PgnError::Move {
            ply: 4,
            text,
            error: NotationError::Illegal(_),
        }) => assert_eq!(text, "a9a0"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        pgn::read("[Game \"Chess\"]\n\n1. e4 *"),
        Err(PgnError::WrongGame(_))
    ));
    assert!(matches!(
        pgn::read("[Format \"SAN\"]\n\n1. e4 *"),
        Err(PgnError::Format(_))
    ));
    assert!(matches!(
        pgn::read("[Game \"Chinese Chess\"\n"),
        Err(PgnError::Tag { line: 1 })
    ));
    assert!(matches!(
        pgn::read("1. h2e2 {open"),
        Err(PgnError::Unclosed)
    ));
    assert!(matches!(
        pgn::read("[FEN \"x\"]\n\n*"),
        Err(PgnError::Fen(_))
    ));
}

#[test]
fn record_and_load_through_the_contract() {
    let mut g = Xiangqi::new(&Options::default(), &Setup::Standard).unwrap();
    for (i, m) in OPENING.iter().enumerate() {
        g.act(Seat((i % 2) as u8), m).unwrap();
    }
    let meta = RecordMeta {
        event: Some("Test".into()),
        players: vec!["Red player".into(), "Black player".into()],
        ..Default::default()
    };
    let text = g.record(&meta);
    assert!(
        text.contains("[Red \"Red player\"]") && text.contains("[Format \"ICCS\"]"),
        "{text}"
    );
    let (setup, actions) = Xiangqi::load(&Options::default(), &text).unwrap();
    assert_eq!(setup, Setup::Standard);
    assert_eq!(actions, OPENING);
    let (setup, actions) =
        Xiangqi::load(&Options::default(), "3k4r/9/9/9/9/9/9/9/9/R4K3 w").unwrap();
    assert_eq!(
        setup,
        Setup::Position("3k4r/9/9/9/9/9/9/9/9/R4K3 w - - 0 1".into())
    );
    assert!(actions.is_empty());
    assert!(Xiangqi::load(&Options::default(), "4k4/9/9/9/9/9/9/9/9/4K4 w").is_err());
}
