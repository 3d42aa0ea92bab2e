//! The fuzz targets' committed inputs replayed as ordinary tests, so that CI checks
//! every crash the fuzzers ever found without running libFuzzer (scripts/fuzz.sh
//! runs the fuzzers; fuzz/src/lib.rs states what each target checks).

use qiyuan_chess::shakmaty::{EnPassantMode, Position, fen::Fen};
use qiyuan_chess::{ChessGame, ChessOptions, parse_fen, pgn::read_games};
use qiyuan_game::{Game, Setup, Turn};
use qiyuan_testkit::fs::fuzz_texts;

#[test]
fn chess_fen_inputs() {
    for (path, text) in fuzz_texts("chess_fen") {
        if let Ok(pos) = parse_fen(&text) {
            let fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
            let again = parse_fen(&fen).unwrap_or_else(|e| panic!("{path}: {fen:?}: {e}"));
            assert_eq!(again.board(), pos.board(), "{path}");
        }
        let _ = ChessGame::new(&ChessOptions::default(), &Setup::Position(text));
    }
}

#[test]
fn chess_pgn_inputs() {
    for (path, text) in fuzz_texts("chess_pgn") {
        for game in read_games(text.as_bytes()).flatten() {
            assert!(game.to_game().is_ok(), "{path}");
        }
        // What the table's load accepts replays.
        if let Ok((setup, moves)) = ChessGame::load(&ChessOptions::default(), &text) {
            let mut game = ChessGame::new(&ChessOptions::default(), &setup)
                .unwrap_or_else(|e| panic!("{path}: {e}"));
            for m in moves {
                let Turn::Seat(seat) = game.turn() else {
                    panic!("{path}: {m} after the end");
                };
                game.act(seat, &m)
                    .unwrap_or_else(|e| panic!("{path}: {m}: {e}"));
            }
        }
    }
}

/// Found by `game_actions` (fuzz/regressions/game_actions/chess-pgn-move-number-overflow):
/// a game set up at move 4294967295, the largest a FEN counter holds, overflowed the
/// record's move number after Black's move. The record now numbers on and reads back.
#[test]
fn a_record_from_the_last_move_number_numbers_on() {
    let fen = "4k3/P7/8/8/8/8/8/4K3 w - - 0 4294967295";
    let mut game = ChessGame::new(&ChessOptions::default(), &Setup::Position(fen.into())).unwrap();
    for (seat, m) in [(0, "a8=Q+"), (1, "Kd7"), (0, "Qb7+")] {
        game.act(qiyuan_game::Seat(seat), m).unwrap();
    }
    let pgn = game.record(&qiyuan_game::RecordMeta::default());
    assert!(
        pgn.contains("4294967295. a8=Q+ Kd7 4294967296. Qb7+"),
        "{pgn}"
    );
    let (setup, moves) = ChessGame::load(&ChessOptions::default(), &pgn).unwrap();
    assert_eq!(setup, Setup::Position(fen.into()));
    assert_eq!(moves, ["a7a8q", "e8d7", "a8b7"]);
}
