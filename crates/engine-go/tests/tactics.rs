//! The engine on small problems with known answers: ladders that work and ladders
//! that a stone breaks, a corner group killed or saved on its vital point, a chain
//! in atari captured, a self-atari refused, and passes (or resignation) at the end.
//! Every search is seeded, so each test plays the same moves every time.

use std::sync::atomic::AtomicBool;

use qiyuan_engine_go::{Decision, Engine, Level, Settings};
use qiyuan_go::{Color, Move, Point};

fn p(s: &str) -> Point {
    Point::from_gtp(s).unwrap()
}

/// A 9x9 game with the stones of `rows` (top row first, `X` black, `O` white)
/// placed by moves, `first`'s stones first: the engine sees them as played, the
/// last stone of the other colour as the last move.
fn position(rows: &[&str], komi: f64, first: Color) -> Engine {
    position_seeded(rows, komi, first, 7)
}

fn position_seeded(rows: &[&str], komi: f64, first: Color, seed: u64) -> Engine {
    let size = rows.len() as u8;
    let mut engine = Engine::new(size, komi, seed).unwrap();
    let mut stones = [Vec::new(), Vec::new()];
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().filter(|c| !c.is_whitespace()).enumerate() {
            let q = Point::new(c as u8, size - 1 - r as u8);
            match ch {
                'X' => stones[0].push(q),
                'O' => stones[1].push(q),
                _ => {}
            }
        }
    }
    for color in [first, first.opponent()] {
        for &q in &stones[color.index()] {
            engine.play(color, Move::Place(q)).unwrap();
        }
    }
    engine
}

fn settings(playouts: u64) -> Settings {
    let mut s = Level::MAX.settings();
    s.playouts = playouts;
    s
}

fn best(engine: &mut Engine, color: Color, playouts: u64) -> Decision {
    let report = engine.genmove(color, &settings(playouts), &AtomicBool::new(false));
    report.decision
}

/// White's chain E5-E7, in atari from black's last move, would run down a ladder to
/// the lower left; `breaker` adds a white stone on the ladder's path (B3).
fn ladder(breaker: bool, seed: u64) -> Engine {
    let mut rows = [
        ". . . . . . . . .",
        ". . . . X . . . .",
        ". . . X O X . . .",
        ". . . X O X . . .",
        ". . . X O X . . .",
        ". . . . . X . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
    ];
    if breaker {
        rows[6] = ". O . . . . . . .";
    }
    position_seeded(&rows, 7.5, Color::White, seed)
}

#[test]
fn the_ladder_reader_sees_a_working_ladder_and_a_broken_one() {
    use qiyuan_engine_go::tactics::ladder_captures;
    for (breaker, dies) in [(false, true), (true, false)] {
        let engine = ladder(breaker, 1);
        let b = engine.board();
        assert_eq!(
            ladder_captures(b, b.cell_of(p("E5"))),
            dies,
            "breaker {breaker}"
        );
    }
}

#[test]
fn playouts_run_from_a_broken_ladder_and_not_into_a_working_one() {
    use qiyuan_engine_go::playout::atari_moves;
    for (breaker, runs) in [(false, false), (true, true)] {
        let engine = ladder(breaker, 1);
        let b = engine.board();
        let mut moves = Vec::new();
        atari_moves(b, Color::White, b.cell_of(p("F5")), &mut moves);
        assert_eq!(
            moves.contains(&b.cell_of(p("E4"))),
            runs,
            "breaker {breaker}: {moves:?}"
        );
    }
}

#[test]
fn the_engine_does_not_run_into_a_working_ladder() {
    for seed in 1..=3 {
        let mut engine = ladder(false, seed);
        let d = best(&mut engine, Color::White, 4000);
        assert_ne!(
            d,
            Decision::Play(p("E4")),
            "seed {seed}: ran into the ladder"
        );
    }
}

/// A white corner group whose eye space is the straight three A1-B1-C1, inside a
/// living black wall, on a board otherwise settled: B1 is the vital point for both,
/// and the game turns on it (black wins by 1.5 if the corner dies, white by 14.5 if
/// it lives). Playouts must kill it by nakade for the engine to see that.
fn straight_three() -> Engine {
    let rows = [
        ". X . X X O . O .",
        "X . X . X O O O O",
        "X X X X X O . O O",
        ". X . X X O O . O",
        "X X X X X O O O O",
        ". . . X X O . O .",
        "X X X X X O O O O",
        "O O O O X O . O O",
        ". . . O X O O . O",
    ];
    position(&rows, 7.5, Color::Black)
}

#[test]
fn black_kills_the_corner_on_its_vital_point() {
    let mut engine = straight_three();
    assert_eq!(
        best(&mut engine, Color::Black, 4000),
        Decision::Play(p("B1"))
    );
}

#[test]
fn white_lives_in_the_corner_on_its_vital_point() {
    let mut engine = straight_three();
    assert_eq!(
        best(&mut engine, Color::White, 4000),
        Decision::Play(p("B1"))
    );
}

/// White's last move was E3; its four stones C6-F6 are in atari at G6.
#[test]
fn a_chain_in_atari_is_captured() {
    let rows = [
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . X X X X . . .",
        ". X O O O O . . .",
        ". . X X X X . . .",
        ". . . . . . . . .",
        ". . . . O . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
    ];
    let mut engine = position(&rows, 7.5, Color::Black);
    assert_eq!(
        best(&mut engine, Color::Black, 2000),
        Decision::Play(p("G6"))
    );
}

#[test]
fn a_self_atari_is_refused_for_the_move_that_saves() {
    // Black's B5-E5 has two liberties: A5 would leave it one, F5 gives it four.
    let rows = [
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        "O O O O O . . . .",
        ". X X X X . . . .",
        "O O O O O . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
    ];
    let mut engine = position(&rows, 7.5, Color::White);
    assert_eq!(
        best(&mut engine, Color::Black, 2000),
        Decision::Play(p("F5"))
    );
}

/// Black owns columns A-E, white F-J; every point is settled. Black wins by 1.5.
fn finished() -> Engine {
    let rows = [
        ". X . X X O . O .",
        "X . X . X O O . O",
        ". X . X X O . O O",
        "X X X X X O O . O",
        ". X . X X O . O O",
        "X . X . X O O O .",
        ". X . X X O . O O",
        "X X . X X O O . O",
        ". X X X X O . O .",
    ];
    position(&rows, 7.5, Color::Black)
}

#[test]
fn the_engine_passes_when_the_count_is_settled() {
    let mut engine = finished();
    assert_eq!(best(&mut engine, Color::Black, 2000), Decision::Pass);
    engine.play(Color::White, Move::Pass).unwrap();
    assert_eq!(best(&mut engine, Color::Black, 2000), Decision::Pass);
}

#[test]
fn the_engine_resigns_a_lost_game() {
    let mut engine = finished();
    engine.set_komi(9.5);
    assert_eq!(best(&mut engine, Color::Black, 2000), Decision::Resign);
}

#[test]
fn a_search_is_deterministic_given_its_seed_and_stops_on_its_flag() {
    let run = || {
        let mut engine = Engine::new(9, 7.5, 42).unwrap();
        let mut moves = Vec::new();
        for _ in 0..6 {
            let c = engine.to_move();
            let r = engine.genmove(c, &settings(500), &AtomicBool::new(false));
            moves.push((r.decision, r.playouts, r.candidates[0].visits));
            if let Decision::Play(q) = r.decision {
                engine.play(c, Move::Place(q)).unwrap();
            }
        }
        moves
    };
    assert_eq!(run(), run());
    let mut engine = Engine::new(19, 7.5, 1).unwrap();
    let report = engine.genmove(Color::Black, &settings(1_000_000), &AtomicBool::new(true));
    assert_eq!(report.playouts, 0);
    assert!(matches!(report.decision, Decision::Play(_)));
}

#[test]
fn the_engine_plays_legal_games_on_13x13_and_19x19() {
    for size in [13u8, 19] {
        let mut engine = Engine::new(size, 7.5, 3).unwrap();
        for _ in 0..8 {
            let c = engine.to_move();
            let report = engine.genmove(c, &settings(300), &AtomicBool::new(false));
            assert_eq!(
                report.ownership.len(),
                usize::from(size) * usize::from(size)
            );
            let Decision::Play(q) = report.decision else {
                panic!("{size}x{size}: {:?} in the opening", report.decision);
            };
            engine.play(c, Move::Place(q)).unwrap();
        }
    }
}
