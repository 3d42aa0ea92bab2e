//! The table's side of a move, as the fan-out does it for each batch: the table
//! applies the move, then each seat's view is written as JSON text, indexed and
//! diffed against the view that seat last received (`live::fanout`). A whole
//! 30-ply chess game (the load generator's moves, `bench::move_at`) per iteration, so that
//! the views grow as they do in `qiyuan bench-load`.
//!
//! `cargo bench -p qiyuan-server --bench fanout`

use divan::{Bencher, black_box, counter::ItemsCount};
use qiyuan_game::{Seat, Viewer};
use qiyuan_server::bench::{PLIES_PER_GAME, move_at};
use qiyuan_server::protocol::flat::{self, Flat};
use qiyuan_server::registry::{AnyTable, Games};
use qiyuan_table::{Command, TableConfig};

// The server's allocator (the `qiyuan` binary's).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    divan::main();
}

/// A chess table whose game has just started (at `t` = 1000).
fn started() -> Box<dyn AnyTable> {
    let games = Games::builtin();
    let chess = games.find("chess").expect("chess is built in");
    // As the load generator's tables: the knight cycle's repetitions are
    // claimed, not drawn at the third occurrence.
    let mut config = TableConfig::casual(chess.default_time());
    config.settings.options = serde_json::json!({"repetition": "claim"});
    let mut table = chess.new_table(config).expect("a chess table");
    for (seat, user) in ["ann", "bob"].into_iter().enumerate() {
        let sit = Command::Sit {
            user: user.into(),
            seat: Seat(seat as u8),
        };
        table.apply(sit, 1000).expect("seated");
    }
    for user in ["ann", "bob"] {
        let ready = Command::Ready {
            user: user.into(),
            proposal: None,
        };
        table.apply(ready, 1000).expect("ready");
    }
    assert!(
        table.state().game.is_some(),
        "the game started: {:?}",
        table.state()
    );
    table
}

fn act(table: &mut dyn AnyTable, ply: usize) {
    let user = if ply.is_multiple_of(2) { "ann" } else { "bob" };
    let cmd = Command::Act {
        user: user.into(),
        action: move_at(ply).into(),
        lag: 0,
    };
    table
        .apply(cmd, 1000 + 100 * ply as u64)
        .expect("a legal move");
}

/// The moves alone, through the table.
#[divan::bench(sample_count = 200)]
fn table_moves(bencher: Bencher) {
    bencher
        .counter(ItemsCount::new(PLIES_PER_GAME))
        .with_inputs(started)
        .bench_local_values(|mut table| {
            game_moves(&mut *table);
            table
        });
}

/// A whole game's moves (see [`game_and_patches`] on counting them).
#[inline(never)]
fn game_moves(table: &mut dyn AnyTable) {
    for ply in 0..PLIES_PER_GAME {
        act(table, ply);
    }
}

/// The viewers of a game without spectators.
const SEATS: [Viewer; 2] = [Viewer::Seat(Seat(0)), Viewer::Seat(Seat(1))];

/// The seats' lags the views show.
const LAGS: [Option<u64>; 2] = [Some(20), Some(30)];

/// Each move and what the fan-out does for it: both seats' views, taken
/// together, and their patches.
#[divan::bench(sample_count = 200)]
fn moves_and_patches(bencher: Bencher) {
    games_and_patches(bencher, PLIES_PER_GAME);
}

/// As [`moves_and_patches`], for a game of 80 plies (the load curve's games in
/// docs/benchmarks.md): the move list grows longer.
#[divan::bench(sample_count = 100)]
fn long_game_patches(bencher: Bencher) {
    games_and_patches(bencher, LONG_GAME);
}

/// The plies of the load curve's games.
const LONG_GAME: usize = 80;

/// Games of `plies` from their start, each an iteration.
fn games_and_patches(bencher: Bencher, plies: usize) {
    bencher
        .counter(ItemsCount::new(plies))
        .with_inputs(|| {
            let table = started();
            let views = table.flat_views(&SEATS, 1000, &LAGS);
            (table, views)
        })
        .bench_local_values(|(mut table, mut views)| {
            game_and_patches(&mut *table, &mut views, plies)
        });
}

/// A whole game's moves and both seats' patches after each; the bytes of the
/// patches. A function of its own so that `valgrind --tool=callgrind
/// --toggle-collect=*game_and_patches*` counts its instructions alone
/// (docs/benchmarks.md).
#[inline(never)]
fn game_and_patches(table: &mut dyn AnyTable, views: &mut [Flat], plies: usize) -> usize {
    let mut bytes = 0;
    for ply in 0..plies {
        act(table, ply);
        let now = 1000 + 100 * ply as u64;
        let had = table.moves_at();
        let flats = table.flat_views(&SEATS, now, &LAGS);
        for (old, new) in views.iter_mut().zip(flats) {
            let mut patch = String::with_capacity(64 + new.text().len() / 3);
            flat::diff_into(old, &new, &mut patch);
            // The move list, left out of the views, patched apart.
            let comma = !patch.is_empty();
            table.moves_patch(had, comma, &mut patch);
            bytes += patch.len();
            *old = new;
        }
    }
    black_box(bytes)
}
