//! PGN: famous games read, replayed under the rules, written and read back; the
//! shapes of real-world files (comments, variations, NAGs, FEN games); errors.

use qiyuan_chess::{
    ChessGame, ChessOptions,
    pgn::{ImportedGame, PgnErrorKind, read_games},
};
use qiyuan_game::{EndReason, Game, Outcome, RecordMeta, Seat, Setup, UtcDateTime};
use shakmaty::{Color, Position};

/// Morphy v the Duke of Brunswick and Count Isouard, Paris opera house, 1858.
const OPERA: &str = r#"[Event "Paris"]
[Site "Paris FRA"]
[Date "1858.??.??"]
[Round "?"]
[White "Paul Morphy"]
[Black "Duke Karl / Count Isouard"]
[Result "1-0"]

1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7
8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7
14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0
"#;

/// Anderssen v Kieseritzky, the "Immortal Game", London 1851.
const IMMORTAL: &str = r#"[Event "London"]
[Site "London ENG"]
[Date "1851.06.21"]
[Round "?"]
[White "Adolf Anderssen"]
[Black "Lionel Kieseritzky"]
[Result "1-0"]

1. e4 e5 2. f4 exf4 3. Bc4 Qh4+ 4. Kf1 b5 5. Bxb5 Nf6 6. Nf3 Qh6 7. d3 Nh5
8. Nh4 Qg5 9. Nf5 c6 10. g4 Nf6 11. Rg1 cxb5 12. h4 Qg6 13. h5 Qg5 14. Qf3 Ng8
15. Bxf4 Qf6 16. Nc3 Bc5 17. Nd5 Qxb2 18. Bd6 Bxg1 19. e5 Qxa1+ 20. Ke2 Na6
21. Nxg7+ Kd8 22. Qf6+ Nxf6 23. Be7# 1-0
"#;

/// Anderssen v Dufresne, the "Evergreen Game", Berlin 1852.
const EVERGREEN: &str = r#"[Event "Berlin"]
[Site "Berlin GER"]
[Date "1852.??.??"]
[Round "?"]
[White "Adolf Anderssen"]
[Black "Jean Dufresne"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. b4 Bxb4 5. c3 Ba5 6. d4 exd4 7. O-O d3
8. Qb3 Qf6 9. e5 Qg6 10. Re1 Nge7 11. Ba3 b5 12. Qxb5 Rb8 13. Qa4 Bb6 14. Nbd2
Bb7 15. Ne4 Qf5 16. Bxd3 Qh5 17. Nf6+ gxf6 18. exf6 Rg8 19. Rad1 Qxf3 20. Rxe7+
Nxe7 21. Qxd7+ Kxd7 22. Bf5+ Ke8 23. Bd7+ Kf8 24. Bxe7# 1-0
"#;

/// D. Byrne v R. Fischer, "The Game of the Century", New York 1956.
const CENTURY: &str = r#"[Event "Third Rosenwald Trophy"]
[Site "New York, NY USA"]
[Date "1956.10.17"]
[Round "8"]
[White "Donald Byrne"]
[Black "Robert James Fischer"]
[Result "0-1"]

1. Nf3 Nf6 2. c4 g6 3. Nc3 Bg7 4. d4 O-O 5. Bf4 d5 6. Qb3 dxc4 7. Qxc4 c6
8. e4 Nbd7 9. Rd1 Nb6 10. Qc5 Bg4 11. Bg5 Na4 12. Qa3 Nxc3 13. bxc3 Nxe4
14. Bxe7 Qb6 15. Bc4 Nxc3 16. Bc5 Rfe8+ 17. Kf1 Be6 18. Bxb6 Bxc4+ 19. Kg1 Ne2+
20. Kf1 Nxd4+ 21. Kg1 Ne2+ 22. Kf1 Nc3+ 23. Kg1 axb6 24. Qb4 Ra4 25. Qxb6 Nxd1
26. h3 Rxa2 27. Kh2 Nxf2 28. Re1 Rxe1 29. Qd8+ Bf8 30. Nxe1 Bd5 31. Nf3 Ne4
32. Qb8 b5 33. h4 h5 34. Ne5 Kg7 35. Kg1 Bc5+ 36. Kf1 Ng3+ 37. Ke1 Bb4+ 38. Kd1
Bb3+ 39. Kc1 Ne2+ 40. Kb1 Nc3+ 41. Kc1 Rc2# 0-1
"#;

fn read_one(text: &str) -> ImportedGame {
    let mut games: Vec<_> = read_games(text.as_bytes()).collect();
    assert_eq!(games.len(), 1, "expected one game");
    games.remove(0).unwrap_or_else(|e| panic!("{e}"))
}

fn meta_from(game: &ImportedGame, clocks: Vec<Option<u64>>) -> RecordMeta {
    let tag = |n: &str| game.tag(n).map(str::to_owned);
    RecordMeta {
        event: tag("Event"),
        site: tag("Site"),
        date: tag("Date"),
        round: tag("Round"),
        players: vec![tag("White").unwrap(), tag("Black").unwrap()],
        ratings: Vec::new(),
        time_control: None,
        clocks,
        ..RecordMeta::default()
    }
}

/// Reads a famous game, replays it move by move through the table's contract (so
/// every move is checked again as an action), exports it and reads it back.
fn round_trip(text: &str, plies: usize, winner: Color) {
    let imported = read_one(text);
    assert_eq!(imported.moves.len(), plies);
    assert_eq!(imported.setup, Setup::Standard);

    let mut game = ChessGame::new(&ChessOptions::default(), &Setup::Standard).unwrap();
    for (i, m) in imported.moves.iter().enumerate() {
        let seat = Seat((i % 2) as u8);
        // Alternate the notations the table accepts.
        let action = if i % 2 == 0 { &m.san } else { &m.uci };
        let effects = game.act(seat, action).unwrap();
        assert_eq!(effects.canonical, m.uci);
        assert_eq!(effects.display, m.san);
    }
    let outcome = game.outcome().expect("these games end in mate");
    assert_eq!(outcome.reason, EndReason::Checkmate);
    assert_eq!(outcome.score, imported.result);
    assert_eq!(
        outcome.winner(),
        Some(if winner == Color::White {
            Seat(0)
        } else {
            Seat(1)
        })
    );

    let clocks: Vec<_> = (0..plies)
        .map(|i| Some(600_000 - 1_000 * i as u64))
        .collect();
    let pgn = game.record(&meta_from(&imported, clocks));
    assert!(pgn.contains("[Termination \"normal\"]"), "{pgn}");
    assert!(pgn.contains("{ [%clk 0:10:00] }"), "{pgn}");
    assert!(pgn.lines().all(|l| l.len() < 80), "{pgn}");
    let again = read_one(&pgn);
    assert_eq!(again.moves, imported.moves);
    assert_eq!(again.result, imported.result);
    for name in ["Event", "Site", "Date", "Round", "White", "Black", "Result"] {
        assert_eq!(again.tag(name), imported.tag(name), "{name}");
    }
    let replayed = again.to_game().unwrap();
    assert_eq!(replayed.fen(), game.fen());
    assert_eq!(replayed.outcome(), game.outcome());
}

#[test]
fn opera_game_round_trips() {
    round_trip(OPERA, 33, Color::White);
}

#[test]
fn immortal_game_round_trips() {
    round_trip(IMMORTAL, 45, Color::White);
}

#[test]
fn evergreen_game_round_trips() {
    round_trip(EVERGREEN, 47, Color::White);
}

#[test]
fn game_of_the_century_round_trips() {
    round_trip(CENTURY, 82, Color::Black);
}

#[test]
fn several_games_in_one_file() {
    let file = [OPERA, IMMORTAL, EVERGREEN, CENTURY].join("\n");
    let games: Vec<_> = read_games(file.as_bytes()).map(Result::unwrap).collect();
    assert_eq!(games.len(), 4);
    assert_eq!(games[3].tag("Black"), Some("Robert James Fischer"));
    assert_eq!(games[3].result, "0-1");
}

#[test]
fn comments_variations_and_nags_are_skipped() {
    let text = r#"[Event "Annotated"]
[White "A"]
[Black "B"]
[Result "1/2-1/2"]

{ A comment before the moves. } 1. e4 $1 e5!? (1... c5 2. Nf3 (2. c3) d6) 2. Nf3
{ [%clk 0:05:00] [%eval 0.3] } 2... Nc6 ; a rest-of-line comment
3. Bb5 a6?! 4. Ba4 (4. Bxc6 dxc6 { the exchange variation }) Nf6 1/2-1/2
"#;
    let game = read_one(text);
    assert_eq!(
        game.san_moves(),
        ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6"]
    );
    assert_eq!(game.result, "1/2-1/2");
}

#[test]
fn games_from_a_fen_keep_their_setup_and_numbering() {
    let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 30";
    let mut game = ChessGame::from_fen(fen).unwrap();
    game.play("Kd7").unwrap();
    game.play("e4").unwrap();
    let pgn = game.record(&RecordMeta::default());
    assert!(pgn.contains("[SetUp \"1\"]"));
    assert!(pgn.contains(&format!("[FEN \"{fen}\"]")));
    assert!(pgn.contains("30... Kd7 31. e4 *"), "{pgn}");
    let again = read_one(&pgn);
    assert_eq!(again.setup, Setup::Position(fen.into()));
    assert_eq!(again.uci_moves(), ["e8d7", "e2e4"]);
    assert_eq!(again.result, "*");
}

#[test]
fn export_writes_the_seven_tag_roster_first() {
    let mut game = ChessGame::default();
    game.play("e4").unwrap();
    let meta = RecordMeta {
        players: vec!["Li \"Xiao\" Long".into(), "Wang".into()],
        ratings: vec![Some(1800), None],
        time_control: Some(qiyuan_game::RecordTime::Fischer {
            main: 600,
            increment: 5,
        }),
        clocks: vec![Some(3_725_400)],
        outcome: Some(game.conceded(Seat(1), EndReason::Resignation)),
        ..RecordMeta::default()
    };
    let pgn = game.record(&meta);
    let expected = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
        [White \"Li \\\"Xiao\\\" Long\"]\n[Black \"Wang\"]\n[Result \"1-0\"]\n\
        [WhiteElo \"1800\"]\n[TimeControl \"600+5\"]\n[Termination \"normal\"]\n\n\
        1. e4 { [%clk 1:02:05] } 1-0\n\n";
    assert_eq!(pgn, expected);
    let again = read_one(&pgn);
    assert_eq!(again.tag("White"), Some("Li \"Xiao\" Long"));
}

#[test]
fn export_of_a_flag_fall_and_an_unfinished_game() {
    let mut game = ChessGame::default();
    game.play("e4").unwrap();
    game.play("e5").unwrap();
    let pgn = game.record(&RecordMeta::default());
    assert!(pgn.contains("[Result \"*\"]"));
    assert!(pgn.contains("[Termination \"unterminated\"]"));
    assert!(pgn.contains("[TimeControl \"-\"]"));
    let meta = RecordMeta {
        outcome: Some(game.conceded(Seat(0), EndReason::Timeout)),
        ..RecordMeta::default()
    };
    let pgn = game.record(&meta);
    assert!(pgn.contains("[Termination \"time forfeit\"]"));
    assert!(pgn.ends_with("1. e4 e5 0-1\n\n"), "{pgn}");
}

#[test]
fn the_first_illegal_move_is_reported_with_its_number() {
    let text = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 Ke6 4. O-O Nf6 *\n";
    let err = read_games(text.as_bytes()).next().unwrap().unwrap_err();
    assert_eq!(err.game, 1);
    assert_eq!(
        err.kind,
        PgnErrorKind::IllegalMove {
            number: 3,
            color: Color::Black,
            san: "Ke6".into(),
            ambiguous: false,
        }
    );
    assert_eq!(err.to_string(), "game 1 (A - B): move 3... Ke6 is illegal");
}

#[test]
fn a_white_move_is_numbered_with_one_dot_and_ambiguity_is_named() {
    // Both knights can reach d2.
    let text = "1. d4 d5 2. Nf3 Nf6 3. Nbd2 Nbd7 4. e4 e6 5. Nb3 Nb6 6. Nd2 *";
    let err = read_games(text.as_bytes()).next().unwrap().unwrap_err();
    assert_eq!(err.to_string(), "game 1: move 6. Nd2 is ambiguous");
}

#[test]
fn a_bad_game_does_not_stop_the_file() {
    let bad = "[Event \"bad\"]\n\n1. e4 e5 2. Ke3 *\n";
    let file = format!("{OPERA}\n{bad}\n{IMMORTAL}");
    let results: Vec<_> = read_games(file.as_bytes()).collect();
    assert_eq!(results.len(), 3);
    assert!(results[0].is_ok());
    let err = results[1].as_ref().unwrap_err();
    assert_eq!(err.game, 2);
    assert!(err.to_string().contains("move 2. Ke3 is illegal"), "{err}");
    assert_eq!(results[2].as_ref().unwrap().moves.len(), 45);
}

#[test]
fn moves_after_mate_are_illegal() {
    let text = "1. f3 e5 2. g4 Qh4# 3. a3 0-1";
    let err = read_games(text.as_bytes()).next().unwrap().unwrap_err();
    assert!(err.to_string().contains("move 3. a3 is illegal"), "{err}");
}

#[test]
fn bad_fen_tags_and_variants_are_errors() {
    let text = "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n[SetUp \"1\"]\n\n*\n\n\
        [Variant \"Chess960\"]\n\n1. e4 *\n\n\
        [Variant \"Standard\"]\n\n1. e4 *\n";
    let results: Vec<_> = read_games(text.as_bytes()).collect();
    assert_eq!(results.len(), 3);
    assert!(matches!(
        &results[0].as_ref().unwrap_err().kind,
        PgnErrorKind::Fen(_)
    ));
    assert_eq!(
        results[1].as_ref().unwrap_err().kind,
        PgnErrorKind::Variant("Chess960".into())
    );
    assert_eq!(results[2].as_ref().unwrap().uci_moves(), ["e2e4"]);
}

#[test]
fn load_reads_a_fen_or_the_first_game_of_a_pgn() {
    let options = ChessOptions::default();
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    assert_eq!(
        ChessGame::load(&options, fen).unwrap(),
        (Setup::Position(fen.into()), Vec::new())
    );
    let (setup, moves) = ChessGame::load(&options, OPERA).unwrap();
    assert_eq!(setup, Setup::Standard);
    assert_eq!(moves.len(), 33);
    assert_eq!(moves[22], "e1c1"); // 12. O-O-O
    // The table rebuilds the game from what load returns.
    let actions: Vec<_> = moves
        .iter()
        .enumerate()
        .map(|(i, m)| (Seat((i % 2) as u8), m.clone()))
        .collect();
    let game: ChessGame = qiyuan_game::replay(&options, &setup, &actions).unwrap();
    assert_eq!(game.outcome().unwrap().reason, EndReason::Checkmate);

    for bad in ["", "hello", "8/8/8/8/8/8/8/8 w - - 0 1", "1. e4 e5 2. Ke3"] {
        assert!(ChessGame::load(&options, bad).is_err(), "{bad:?}");
    }
}

#[test]
fn real_world_noise_is_tolerated() {
    // A byte order mark, CRLF line ends, a `%` escape line, castling with zeros,
    // a result written as a tag only, and a trailing game without tags.
    let text = "\u{feff}[Event \"x\"]\r\n[Result \"1-0\"]\r\n\r\n% exported by something\r\n\
        1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 Nf6\r\n\r\n1. d4 d5 *\r\n";
    let games: Vec<_> = read_games(text.as_bytes()).map(Result::unwrap).collect();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].moves[6].san, "O-O");
    assert_eq!(games[0].result, "1-0");
    assert_eq!(games[1].uci_moves(), ["d2d4", "d7d5"]);
}

#[test]
fn the_outcome_of_a_record_is_the_tables_when_given() {
    let game = ChessGame::default();
    let meta = RecordMeta {
        outcome: Some(Outcome::draw(2, EndReason::Agreement, "1/2-1/2")),
        ..RecordMeta::default()
    };
    let pgn = game.record(&meta);
    assert!(pgn.contains("[Result \"1/2-1/2\"]"));
    assert!(pgn.ends_with("\n1/2-1/2\n\n"), "{pgn:?}");
    // Imported games report the side to move from their FEN.
    assert!(
        read_one(&pgn)
            .to_game()
            .unwrap()
            .position()
            .turn()
            .is_white()
    );
}

#[test]
fn the_record_carries_ratings_utc_start_annotator_and_variant() {
    let mut game = ChessGame::new(
        &ChessOptions::default(),
        &Setup::Position("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".into()),
    )
    .unwrap();
    game.play("e4").unwrap();
    let meta = RecordMeta {
        players: vec!["alice".into(), "bob".into()],
        ratings: vec![Some(1612), Some(1498)],
        start: Some(UtcDateTime::from_unix_millis(1_796_109_975_000)),
        annotator: Some("qiyuan".into()),
        ..RecordMeta::default()
    };
    let pgn = game.record(&meta);
    for tag in [
        "[Date \"2026.12.01\"]",
        "[WhiteElo \"1612\"]",
        "[BlackElo \"1498\"]",
        "[UTCDate \"2026.12.01\"]",
        "[UTCTime \"07:26:15\"]",
        "[Annotator \"qiyuan\"]",
        "[Variant \"From Position\"]",
        "[SetUp \"1\"]",
        "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]",
    ] {
        assert!(pgn.contains(tag), "{tag} missing:\n{pgn}");
    }
    // We read our own tags back, the game from its position.
    let back = read_one(&pgn);
    assert_eq!(back.tag("WhiteElo"), Some("1612"));
    assert_eq!(back.tag("Variant"), Some("From Position"));
    assert_eq!(back.uci_moves(), ["e2e4"]);
    // Casual games (no ratings given) and standard starts have none of these.
    let pgn = ChessGame::default().record(&RecordMeta::default());
    for tag in ["Elo", "UTCDate", "Annotator", "Variant", "SetUp"] {
        assert!(!pgn.contains(tag), "{tag} in\n{pgn}");
    }
}

#[test]
fn a_tag_with_unescaped_quotes_is_read_to_its_last_quote() {
    let text = "[Event \"The \"Big\" Open\"]\n[White \"O\"Brien, \\\"Pat\\\"\"]\n\
        [Black \"b\"] [Result \"1-0\"]\n\n1. e4 e5 1-0\n\n\
        [Event \"next\"]\n\n1. d4 *\n";
    let games: Vec<_> = read_games(text.as_bytes()).map(Result::unwrap).collect();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].tag("Event"), Some("The \"Big\" Open"));
    assert_eq!(games[0].tag("White"), Some("O\"Brien, \"Pat\""));
    // Two tags on one line stay two tags.
    assert_eq!(games[0].tag("Black"), Some("b"));
    assert_eq!(games[0].tag("Result"), Some("1-0"));
    assert_eq!(games[0].uci_moves(), ["e2e4", "e7e5"]);
    assert_eq!(games[1].tag("Event"), Some("next"));
}

#[test]
fn a_null_move_is_reported_as_one() {
    let text = "[White \"a\"]\n[Black \"b\"]\n\n1. e4 -- 2. d4 *\n\n1. Nf3 *\n";
    let results: Vec<_> = read_games(text.as_bytes()).collect();
    assert_eq!(results.len(), 2);
    let err = results[0].as_ref().unwrap_err();
    assert_eq!(
        err.kind,
        PgnErrorKind::NullMove {
            number: 1,
            color: Color::Black
        }
    );
    assert!(err.to_string().contains("1... is a null move"), "{err}");
    assert_eq!(results[1].as_ref().unwrap().uci_moves(), ["g1f3"]);
    // Loading such a record at a table is refused with the same words.
    let refused = ChessGame::load(&ChessOptions::default(), "1. e4 e5 2. -- Nf6 *").unwrap_err();
    assert!(refused.message.contains("2. is a null move"), "{refused}");
}

#[test]
fn imported_games_replay_under_fide_repetition() {
    // Real-world games go on after an unclaimed threefold repetition.
    let text = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 *";
    let game = read_one(text).to_game().unwrap();
    assert_eq!(game.moves().len(), 9);
    assert!(game.outcome().is_none());
}
