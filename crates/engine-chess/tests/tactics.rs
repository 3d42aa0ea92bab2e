//! Tactics with known best moves (checked with Stockfish 15.1 at depth 18, MultiPV 2: each
//! first move is the only one that keeps the stated result), solved by fixed-depth
//! searches, which are deterministic.

use std::sync::atomic::AtomicBool;

use qiyuan_engine_chess::shakmaty::fen::Fen;
use qiyuan_engine_chess::shakmaty::uci::UciMove;
use qiyuan_engine_chess::shakmaty::{CastlingMode, Chess, Position};
use qiyuan_engine_chess::{Level, Limits, Score, Searcher};

fn pos(fen: &str) -> Chess {
    let f: Fen = fen.parse().expect("fen");
    f.into_position(CastlingMode::Standard).expect("position")
}

fn solve(fen: &str, depth: u32) -> (String, Score) {
    let p = pos(fen);
    let mut s = Searcher::new(16);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth,
        ..Limits::default()
    };
    let r = s.search(&p, &[], &limits, &stop, &mut |_| true);
    let m = r.best.expect("a move");
    (UciMove::from_standard(m).to_string(), r.score)
}

#[test]
fn mates_in_one() {
    for (fen, best) in [
        (
            "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 1",
            "f3f7",
        ),
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "d1d8"),
        ("6rk/6pp/8/6N1/8/8/8/6QK w - - 0 1", "g5f7"),
    ] {
        assert_eq!(solve(fen, 3), (best.to_string(), Score::Mate(1)), "{fen}");
    }
}

#[test]
fn mates_in_two() {
    for (fen, best) in [
        (
            "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
            "d5f6",
        ),
        (
            "r1b2k1r/ppppq3/5N1p/4P2Q/4PP2/1B6/PP5P/n2K2R1 w - - 1 1",
            "h5h6",
        ),
    ] {
        assert_eq!(solve(fen, 5), (best.to_string(), Score::Mate(2)), "{fen}");
    }
}

#[test]
fn mate_in_three() {
    let (m, score) = solve("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 7);
    assert_eq!((m.as_str(), score), ("f6a6", Score::Mate(3)));
}

#[test]
fn wins_the_hanging_queen() {
    let (m, score) = solve(
        "rnb1kbnr/pppp1ppp/8/4p1q1/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 1",
        5,
    );
    assert_eq!(m, "f3g5");
    assert!(matches!(score, Score::Cp(cp) if cp > 500), "{score:?}");
}

#[test]
fn avoids_mate_when_being_mated_is_the_alternative() {
    // Black to move must parry Qxf7#: the search must not choose a move that allows it.
    let p = pos("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR b KQkq - 0 1");
    let mut s = Searcher::new(16);
    let stop = AtomicBool::new(false);
    let r = s.search(
        &p,
        &[],
        &Limits {
            depth: 4,
            ..Limits::default()
        },
        &stop,
        &mut |_| true,
    );
    let mut after = p.clone();
    after.play_unchecked(r.best.expect("a move"));
    let threat = UciMove::from_ascii(b"f3f7").expect("uci").to_move(&after);
    if let Ok(m) = threat {
        let mut mated = after.clone();
        mated.play_unchecked(m);
        assert!(!mated.is_checkmate(), "{:?} allows Qxf7#", r.best);
    }
}

#[test]
fn same_seed_same_move_at_every_level() {
    let p = pos("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
    for n in 1..=6 {
        let level = Level::get(n);
        let stop = AtomicBool::new(false);
        let a = Searcher::new(4).search(&p, &[], &level.limits(7), &stop, &mut |_| true);
        let b = Searcher::new(4).search(&p, &[], &level.limits(7), &stop, &mut |_| true);
        assert_eq!(a.best, b.best, "level {n}");
        assert_eq!(a.nodes, b.nodes, "level {n}");
        assert!(p.is_legal(a.best.expect("move")));
    }
}

#[test]
fn noisy_levels_vary_with_the_seed() {
    let p = Chess::default();
    let level = Level::get(1);
    let stop = AtomicBool::new(false);
    let moves: std::collections::HashSet<_> = (0..20)
        .map(|seed| {
            Searcher::new(1)
                .search(&p, &[], &level.limits(seed), &stop, &mut |_| true)
                .best
        })
        .collect();
    assert!(moves.len() >= 4, "{moves:?}");
}

#[test]
fn a_set_stop_flag_ends_the_search_at_once() {
    let p = Chess::default();
    let mut s = Searcher::new(16);
    let stop = AtomicBool::new(true);
    let r = s.search(&p, &[], &Limits::default(), &stop, &mut |_| true);
    assert!(r.best.is_some());
    // One check interval of nodes, at most one iteration reported.
    assert!(
        r.nodes <= 4 * qiyuan_engine_chess::CHECK_EVERY,
        "{}",
        r.nodes
    );
}

#[test]
fn repeating_the_game_is_a_draw_the_lost_side_takes() {
    // White is a queen and a rook down; Ng5 Kg8 Nf3 Kh8 has been played twice,
    // so Ng5 now makes the position after the first Ng5 occur a third time: a
    // draw (threefold repetition, which the hall applies), which beats losing.
    let start = pos("7k/qr6/8/8/8/5N2/5PPP/6K1 w - - 0 1");
    let mut history = Vec::new();
    let mut p = start.clone();
    let cycle = ["f3g5", "h8g8", "g5f3", "g8h8"];
    for uci in cycle.iter().chain(&cycle) {
        history.push(qiyuan_engine_chess::hash(&p));
        let m = UciMove::from_ascii(uci.as_bytes())
            .expect("uci")
            .to_move(&p)
            .expect("legal");
        p.play_unchecked(m);
    }
    assert_eq!(
        qiyuan_engine_chess::hash(&p),
        qiyuan_engine_chess::hash(&start)
    );
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: 5,
        ..Limits::default()
    };
    let with = Searcher::new(16).search(&p, &history, &limits, &stop, &mut |_| true);
    let best = UciMove::from_standard(with.best.expect("move")).to_string();
    assert_eq!((best.as_str(), with.score), ("f3g5", Score::Cp(0)));
    // Without the history the position is simply lost.
    let without = Searcher::new(16).search(&p, &[], &limits, &stop, &mut |_| true);
    assert!(
        matches!(without.score, Score::Cp(cp) if cp < -500),
        "{:?}",
        without.score
    );
}

#[test]
fn a_noisy_search_cut_short_keeps_its_last_whole_iteration() {
    let p = pos("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
    let stop = AtomicBool::new(false);
    for seed in 0..8 {
        let cut = Limits {
            depth: 8,
            nodes: 3_000,
            noise: 200,
            seed,
        };
        let r = Searcher::new(4).search(&p, &[], &cut, &stop, &mut |_| true);
        assert!(r.depth >= 1 && r.depth < 8, "{}", r.depth);
        let whole = Limits {
            depth: r.depth,
            nodes: u64::MAX,
            noise: 200,
            seed,
        };
        let w = Searcher::new(4).search(&p, &[], &whole, &stop, &mut |_| true);
        assert_eq!(r.best, w.best, "seed {seed}");
    }
}
