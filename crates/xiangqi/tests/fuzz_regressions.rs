//! The fuzz targets' committed inputs replayed as ordinary tests, so that CI checks
//! every crash the fuzzers ever found without running libFuzzer (scripts/fuzz.sh
//! runs the fuzzers; fuzz/src/lib.rs states what each target checks).

use qiyuan_game::{Game, Setup, Turn};
use qiyuan_testkit::fs::fuzz_texts;
use qiyuan_xiangqi::{Notation, Options, Position, Xiangqi, notation, pgn};

#[test]
fn xiangqi_fen_inputs() {
    for (path, text) in fuzz_texts("xiangqi_fen") {
        for read in [Position::from_fen, Position::from_fen_relaxed] {
            if let Ok(pos) = read(&text) {
                let again = Position::from_fen_relaxed(&pos.fen());
                assert_eq!(again.as_ref(), Ok(&pos), "{path}");
            }
        }
        let _ = Xiangqi::new(&Options::default(), &Setup::Position(text));
    }
}

#[test]
fn xiangqi_notation_inputs() {
    const ALL: [Notation; 3] = [Notation::Iccs, Notation::Wxf, Notation::Chinese];
    for (path, text) in fuzz_texts("xiangqi_notation") {
        let mut lines = text.lines();
        let mut pos = lines
            .next()
            .and_then(|l| Position::from_fen_relaxed(l).ok())
            .unwrap_or_default();
        for line in lines {
            let read = ALL
                .iter()
                .find_map(|n| n.parse(&pos, line).ok())
                .or_else(|| notation::parse_any(&pos, line).ok());
            if let Some(m) = read {
                for n in ALL {
                    let written = n.format(&pos, m);
                    assert_eq!(n.parse(&pos, &written), Ok(m), "{path}: {n:?} {written}");
                }
                pos.play_unchecked(m);
            }
        }
    }
}

#[test]
fn xiangqi_pgn_inputs() {
    for (path, text) in fuzz_texts("xiangqi_pgn") {
        if let Ok(record) = pgn::read(&text) {
            let mut pos = record.start.clone();
            for m in record.moves {
                assert!(pos.play(m).is_ok(), "{path}: {m}");
            }
        }
        // What the table's load accepts replays.
        if let Ok((setup, moves)) = Xiangqi::load(&Options::default(), &text) {
            let mut game =
                Xiangqi::new(&Options::default(), &setup).unwrap_or_else(|e| panic!("{path}: {e}"));
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

/// Found after `game_actions` overflowed chess's move number: a FEN may set both
/// counters to their largest value, and playing on overflowed them. They now stay
/// at their largest (fuzz/regressions/game_actions/xiangqi-move-counters-overflow).
#[test]
fn move_counters_at_their_largest_stay_there() {
    let mut pos =
        Position::from_fen("3k5/9/9/9/9/9/9/9/4R4/4K4 b - - 4294967295 4294967295").unwrap();
    for m in ["d9d8", "e1e2"] {
        let m = notation::parse_iccs(&pos, m).unwrap();
        pos.play(m).unwrap();
    }
    assert_eq!((pos.halfmoves(), pos.fullmoves()), (u32::MAX, u32::MAX));
    assert!(
        pos.fen().ends_with(" 4294967295 4294967295"),
        "{}",
        pos.fen()
    );
}
