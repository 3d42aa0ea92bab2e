//! Chess speed: PGN checking in games per second over a 10,000-game file of random
//! legal games (generated from a fixed seed, not stored), perft in nodes per second,
//! and moves per second through the table's contract.
//!
//! `cargo bench -p qiyuan-chess`

use std::sync::OnceLock;

use divan::{Bencher, black_box, counter::ItemsCount};
use qiyuan_chess::{ChessGame, perft, pgn::read_games, sample::random_games_pgn};
use qiyuan_game::Game;

fn main() {
    divan::main();
}

const GAMES: usize = 10_000;
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// The 10,000-game file, made once per run.
fn pgn() -> &'static str {
    static PGN: OnceLock<String> = OnceLock::new();
    PGN.get_or_init(|| random_games_pgn(2026, GAMES))
}

/// Reading and checking every move of every game: what `qiyuan pgn check` does.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn pgn_check_10000_games(bencher: Bencher) {
    let text = pgn();
    bencher.counter(ItemsCount::new(GAMES)).bench(|| {
        let mut good = 0;
        for game in read_games(black_box(text.as_bytes())) {
            good += usize::from(game.is_ok());
        }
        assert_eq!(good, GAMES);
        good
    });
}

/// The same from a file in a temporary directory, as `qiyuan pgn check` reads it.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn pgn_check_10000_games_from_file(bencher: Bencher) {
    let path = std::env::temp_dir().join(format!("qiyuan-chess-bench-{}.pgn", std::process::id()));
    std::fs::write(&path, pgn()).expect("write the PGN file to the temporary directory");
    bencher.counter(ItemsCount::new(GAMES)).bench(|| {
        let file = std::fs::File::open(&path).unwrap();
        let good = read_games(file).filter(Result::is_ok).count();
        assert_eq!(good, GAMES);
        good
    });
    std::fs::remove_file(&path).ok();
}

/// Writing 10,000 games as PGN.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn pgn_export_10000_games(bencher: Bencher) {
    let games: Vec<ChessGame> = read_games(pgn().as_bytes())
        .map(|g| g.unwrap().to_game().unwrap())
        .collect();
    bencher.counter(ItemsCount::new(GAMES)).bench(|| {
        games
            .iter()
            .map(|g| g.record(&Default::default()).len())
            .sum::<usize>()
    });
}

/// Moves played through `Game::act` (SAN and UCI parsing, repetition and ending
/// checks included), counted per move.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn act_moves(bencher: Bencher) {
    let games: Vec<Vec<String>> = read_games(pgn().as_bytes())
        .take(1000)
        .map(|g| g.unwrap().uci_moves())
        .collect();
    let moves: usize = games.iter().map(Vec::len).sum();
    bencher.counter(ItemsCount::new(moves)).bench(|| {
        for game in &games {
            let mut g = ChessGame::default();
            for m in game {
                g.play(m).unwrap();
            }
            black_box(&g);
        }
    });
}

#[divan::bench(args = [4, 5], sample_count = 5, sample_size = 1)]
fn perft_start(bencher: Bencher, depth: u32) {
    let nodes = perft(START, depth).unwrap();
    bencher
        .counter(ItemsCount::new(nodes))
        .bench(|| perft(black_box(START), black_box(depth)));
}

#[divan::bench(args = [3, 4], sample_count = 5, sample_size = 1)]
fn perft_kiwipete(bencher: Bencher, depth: u32) {
    let nodes = perft(KIWIPETE, depth).unwrap();
    bencher
        .counter(ItemsCount::new(nodes))
        .bench(|| perft(black_box(KIWIPETE), black_box(depth)));
}
