//! Nothing a client or a file sends can panic the parsers, and a refused action
//! never changes the game.

use proptest::prelude::*;
use qiyuan_chess::{ChessGame, ChessOptions, parse_fen, pgn::read_games};
use qiyuan_game::{Game, Seat, Viewer};

/// Text built from the characters that PGN, FEN, SAN and UCI use, so that the
/// parsers get past their first byte.
fn chess_text() -> impl Strategy<Value = String> {
    proptest::string::string_regex(r#"[\[\]"a-hKQRBNPkqrbnp1-8/ wW\-+#=xO0.{}();$!?*\n%]{0,200}"#)
        .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn pgn_import_never_panics(text in chess_text(), bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        // Whatever was accepted replays.
        for game in read_games(text.as_bytes()).flatten() {
            prop_assert!(game.to_game().is_ok());
        }
        let _ = read_games(bytes.as_slice()).count();
    }

    #[test]
    fn fen_and_load_never_panic(text in chess_text()) {
        let _ = parse_fen(&text);
        if let Ok((setup, moves)) = ChessGame::load(&ChessOptions::default(), &text) {
            let mut game = ChessGame::new(&ChessOptions::default(), &setup).unwrap();
            for m in moves {
                prop_assert!(game.play(&m).is_ok());
            }
        }
    }

    #[test]
    fn refused_actions_change_nothing(text in chess_text(), seat in 0u8..3, plies in 0usize..30) {
        let mut game = qiyuan_chess::sample::random_game(&mut qiyuan_chess::sample::Rng::new(plies as u64), plies);
        let before = serde_json::to_string(&game.view(Viewer::Spectator)).unwrap();
        let copy = game.clone();
        match game.act(Seat(seat), &text) {
            Ok(effects) => {
                // Accepted: the canonical form is one of the legal actions before.
                prop_assert!(copy.legal_actions(Seat(seat)).contains(&effects.canonical));
            }
            Err(_) => {
                let after = serde_json::to_string(&game.view(Viewer::Spectator)).unwrap();
                prop_assert_eq!(before, after);
            }
        }
    }
}
