//! The fuzz targets' committed inputs replayed as ordinary tests, so that CI checks
//! every crash the fuzzers ever found without running libFuzzer (scripts/fuzz.sh
//! runs the fuzzers; fuzz/src/lib.rs states what each target checks).

use qiyuan_game::{Game, Setup, Turn};
use qiyuan_go::{Go, MAX_SGF_DEPTH, MAX_SGF_MOVES, Options, SgfError, SgfGame};
use qiyuan_testkit::fs::fuzz_texts;

#[test]
fn go_sgf_inputs() {
    for (path, text) in fuzz_texts("go_sgf") {
        if let Ok(game) = SgfGame::parse(&text) {
            let _ = game.final_position();
            let written = game.to_sgf();
            assert!(SgfGame::parse(&written).is_ok(), "{path}: {written}");
        }
        // What the table's load accepts replays.
        if let Ok((setup, moves)) = Go::load(&Options::default(), &text) {
            let mut game =
                Go::new(&Options::default(), &setup).unwrap_or_else(|e| panic!("{path}: {e}"));
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

/// Issue 41: `qiyuan go score` overflowed the stack on a record nested 150,000
/// deep (`sgf-parse` drops its tree of nested nodes recursively). Such records,
/// as variations in parentheses or as one long line, are refused with
/// `TooDeep` before the parser builds anything, and so is the table's load and
/// a game set up from one (fuzz/regressions/go_sgf/nested-past-the-depth-limit
/// is the same one step past the limit).
#[test]
fn records_nested_past_the_limit_are_refused() {
    let nested = format!("{}{}", "(;".repeat(150_000), ")".repeat(150_000));
    let line = format!("(;GM[1]SZ[9]{})", ";".repeat(150_000));
    let moves = format!("(;GM[1]SZ[9]{})", ";B[aa];W[]".repeat(75_000));
    for text in [&nested, &line, &moves] {
        assert_eq!(SgfGame::parse(text), Err(SgfError::TooDeep));
        let options = Options::default();
        assert!(Go::load(&options, text).is_err());
        assert!(Go::new(&options, &Setup::Position(text.clone())).is_err());
    }
    let err = SgfGame::parse(&line).unwrap_err().to_string();
    assert!(err.contains("5000 nodes deep"), "{err}");
}

/// The depth is counted as `sgf-parse` would build the tree: `;`, `(` and `)`
/// inside values (escaped `]` included) and identifiers count for nothing, a
/// variation goes back to the depth it branched from, and leading Unicode
/// white space (which the parser trims) hides nothing.
#[test]
fn the_depth_scan_reads_as_the_parser_does() {
    // Deep-looking text inside a comment, also behind an escaped bracket.
    let comment = format!("(;GM[1]SZ[9]C[{0}] [\\]{0}\\]];B[aa])", "(;".repeat(20_000));
    assert_eq!(SgfGame::parse(&comment).map(|g| g.moves.len()), Ok(1));
    // Many short variations side by side are shallow.
    let wide = format!("(;GM[1]SZ[9]{})", "(;B[aa];W[bb])".repeat(20_000));
    assert!(SgfGame::parse(&wide).is_ok());
    // A line hidden after a property whose identifier holds `)`: still deep.
    let hidden = format!("(;GM[1]SZ[9]X)[1]{})", ";".repeat(MAX_SGF_DEPTH));
    assert_eq!(SgfGame::parse(&hidden), Err(SgfError::TooDeep));
    let spaced = format!("\u{3000}(;GM[1]SZ[9]{})", ";".repeat(MAX_SGF_DEPTH));
    assert_eq!(SgfGame::parse(&spaced), Err(SgfError::TooDeep));
}

/// A record at the limit reads, and its tree is dropped well within a small
/// thread's stack (1 MiB; a server thread has 2 MiB); a main line of the most
/// moves read is written back and reads again, one more move is refused.
#[test]
fn records_at_the_limit_read_on_a_small_stack() {
    let at_limit = format!("(;GM[1]SZ[9]{})", ";".repeat(MAX_SGF_DEPTH - 1));
    let read = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || SgfGame::parse(&at_limit).map(|g| g.moves.len()))
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(read, Ok(0));
    let most = format!("(;GM[1]SZ[9]{})", ";B[]".repeat(MAX_SGF_MOVES));
    let game = SgfGame::parse(&most).unwrap();
    assert_eq!(game.moves.len(), MAX_SGF_MOVES);
    assert_eq!(SgfGame::parse(&game.to_sgf()), Ok(game));
    // More moves than that fit in fewer nodes (several moves a node).
    let too_many = format!("(;GM[1]SZ[9];{})", "B[]".repeat(MAX_SGF_MOVES + 1));
    assert_eq!(SgfGame::parse(&too_many), Err(SgfError::TooManyMoves));
}
