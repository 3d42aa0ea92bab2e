//! Tactics with known best moves (each checked with Fairy-Stockfish 11.1 at depth
//! 14, MultiPV 2: the first move is the only one that keeps the stated result),
//! and the perpetual-check rule in the tree. Fixed-depth searches: deterministic.

use std::sync::atomic::AtomicBool;

use qiyuan_engine_xiangqi::qiyuan_xiangqi::{Move, Position};
use qiyuan_engine_xiangqi::{Level, Limits, Score, Searcher};

fn mv(s: &str) -> Move {
    let b = s.as_bytes();
    let from = qiyuan_engine_xiangqi::qiyuan_xiangqi::Square::from_ascii(&b[..2]).expect("square");
    let to = qiyuan_engine_xiangqi::qiyuan_xiangqi::Square::from_ascii(&b[2..]).expect("square");
    Move::new(from, to)
}

fn solve_after(fen: &str, moves: &[&str], depth: u32) -> (String, Score) {
    let start = Position::from_fen(fen).expect("fen");
    let moves: Vec<Move> = moves.iter().map(|m| mv(m)).collect();
    let mut p = start.clone();
    for &m in &moves {
        p.play(m).expect("legal");
    }
    let mut s = Searcher::new(16);
    let stop = AtomicBool::new(false);
    let r = s.search(
        &start,
        &moves,
        &Limits {
            depth,
            ..Limits::default()
        },
        &stop,
        &mut |_| true,
    );
    let best = r.best.expect("a move");
    assert!(p.is_legal(best));
    (best.to_string(), r.score)
}

fn solve(fen: &str, depth: u32) -> (String, Score) {
    solve_after(fen, &[], depth)
}

#[test]
fn mate_in_one() {
    // c0c9 mates; c0d0 leaves Black without a legal move (困毙), which loses too.
    let (m, score) = solve("4ka3/4a4/9/9/9/9/9/9/9/2R1KR3 w - - 0 1", 3);
    assert!(m == "c0c9" || m == "c0d0", "{m}");
    assert_eq!(score, Score::Mate(1));
}

#[test]
fn mates_in_two() {
    assert_eq!(
        solve("3a1k3/9/5a3/1N7/9/9/2C6/1N7/3K5/9 w - - 0 1", 5),
        ("b6d7".into(), Score::Mate(2))
    );
    // Two first moves mate in two here; either will do.
    let (m, score) = solve("2bak4/9/3P5/2C6/9/9/9/9/C8/5K3 w - - 0 1", 5);
    assert!(m == "c6e6" || m == "a1e1", "{m}");
    assert_eq!(score, Score::Mate(2));
}

#[test]
fn mate_in_three() {
    assert_eq!(
        solve("9/9/P4k3/9/6b2/8N/9/5N3/4K4/9 w - - 0 1", 7),
        ("i4g5".into(), Score::Mate(3))
    );
}

#[test]
fn wins_the_undefended_horse() {
    let (m, score) = solve(
        "rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        5,
    );
    assert_eq!(m, "h2h9");
    assert!(matches!(score, Score::Cp(cp) if cp > 200), "{score:?}");
}

#[test]
fn a_lost_side_repeats_for_a_draw_when_it_is_not_checking() {
    // Red is two rooks down and soon mated. The rook has gone a7-a6, a6-a7 (no
    // checks) twice while the general stepped d9-d8-d9: a7a6 now makes its
    // position's third occurrence, a draw by the hall's rules.
    let cycle = ["a7a6", "d9d8", "a6a7", "d8d9"];
    let (m, score) = solve_after(
        "3k5/9/R8/9/9/7rr/9/9/9/5K3 w - - 0 1",
        &[cycle, cycle].concat(),
        5,
    );
    assert_eq!((m.as_str(), score), ("a7a6", Score::Cp(0)));
}

#[test]
fn a_second_occurrence_of_a_game_position_is_not_a_draw() {
    // The same, after one cycle only: a7a6 repeats a position of the game for the
    // second time, which ends nothing under the hall's rules (nor Fairy-Stockfish's):
    // the search scores it as the lost position it is, not as a draw.
    let start = Position::from_fen("3k5/9/R8/9/9/7rr/9/9/9/5K3 w - - 0 1").expect("fen");
    let moves: Vec<Move> = ["a7a6", "d9d8", "a6a7", "d8d9"]
        .iter()
        .map(|m| mv(m))
        .collect();
    let mut p = start.clone();
    for &m in &moves {
        p.play(m).expect("legal");
    }
    let banned: Vec<Move> = p
        .legal_moves()
        .into_iter()
        .filter(|&m| m != mv("a7a6"))
        .collect();
    let r = Searcher::new(16).search(
        &start,
        &moves,
        &Limits {
            depth: 3,
            banned,
            ..Limits::default()
        },
        &AtomicBool::new(false),
        &mut |_| true,
    );
    assert_eq!(r.best, Some(mv("a7a6")));
    assert!(
        matches!(r.score, Score::Cp(cp) if cp < -300) || matches!(r.score, Score::Mate(m) if m < 0),
        "{:?}",
        r.score
    );
}

#[test]
fn a_perpetual_check_is_not_taken_for_a_draw() {
    // Red is a rook down (its guards at home, no mate in sight) and every rook
    // move gave check: repeating a8a9+ would be a perpetual check, which loses;
    // the engine plays on a rook down instead.
    let (m, score) = solve_after(
        "3k5/R8/9/9/9/7rr/9/9/9/2BAKAB2 w - - 0 1",
        &["a8a9", "d9d8", "a9a8", "d8d9"],
        5,
    );
    assert_ne!(m, "a8a9", "{score:?}");
    assert!(
        matches!(score, Score::Cp(cp) if (-5_000..0).contains(&cp)),
        "{score:?}"
    );
}

#[test]
fn same_seed_same_move_at_every_level() {
    let p = Position::new();
    for n in 1..=6 {
        let level = Level::get(n);
        let stop = AtomicBool::new(false);
        let a = Searcher::new(4).search(&p, &[], &level.limits(3), &stop, &mut |_| true);
        let b = Searcher::new(4).search(&p, &[], &level.limits(3), &stop, &mut |_| true);
        assert_eq!((a.best, a.nodes), (b.best, b.nodes), "level {n}");
        assert!(p.is_legal(a.best.expect("move")));
    }
}

#[test]
fn noisy_levels_vary_with_the_seed() {
    let p = Position::new();
    let stop = AtomicBool::new(false);
    let moves: std::collections::HashSet<_> = (0..20)
        .map(|seed| {
            Searcher::new(1)
                .search(&p, &[], &Level::get(1).limits(seed), &stop, &mut |_| true)
                .best
        })
        .collect();
    assert!(moves.len() >= 4, "{moves:?}");
}

#[test]
fn banned_moves_are_not_played() {
    let fen = "rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    let p = Position::from_fen(fen).expect("fen");
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: 4,
        banned: vec![mv("h2h9")],
        ..Limits::default()
    };
    let r = Searcher::new(4).search(&p, &[], &limits, &stop, &mut |_| true);
    assert_ne!(r.best, Some(mv("h2h9")));
    assert!(r.best.is_some_and(|m| p.is_legal(m)));
}

#[test]
fn a_set_stop_flag_ends_the_search_at_once() {
    let p = Position::new();
    let stop = AtomicBool::new(true);
    let r = Searcher::new(16).search(&p, &[], &Limits::default(), &stop, &mut |_| true);
    assert!(r.best.is_some());
    assert!(
        r.nodes <= 4 * qiyuan_engine_xiangqi::CHECK_EVERY,
        "{}",
        r.nodes
    );
}

#[test]
fn a_noisy_search_cut_short_keeps_its_last_whole_iteration() {
    let p = Position::new();
    let stop = AtomicBool::new(false);
    for seed in 0..8 {
        let cut = Limits {
            depth: 8,
            nodes: 3_000,
            noise: 200,
            seed,
            ..Limits::default()
        };
        let r = Searcher::new(4).search(&p, &[], &cut, &stop, &mut |_| true);
        assert!(r.depth >= 1 && r.depth < 8, "{}", r.depth);
        let whole = Limits {
            depth: r.depth,
            noise: 200,
            seed,
            ..Limits::default()
        };
        let w = Searcher::new(4).search(&p, &[], &whole, &stop, &mut |_| true);
        assert_eq!(r.best, w.best, "seed {seed}");
    }
}
