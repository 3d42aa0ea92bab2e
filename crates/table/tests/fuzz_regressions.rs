//! The `game_actions` fuzz target's committed inputs replayed as ordinary tests, so
//! that CI checks every crash it ever found without running libFuzzer
//! (scripts/fuzz.sh runs the fuzzers; fuzz/src/lib.rs states what each checks).
//!
//! An input's first byte picks the game; then come lines `options JSON`,
//! `setup TEXT`, and actions, each for the seat to act or for seat N as `@N action`.

use qiyuan_chess::ChessGame;
use qiyuan_doudizhu::Doudizhu;
use qiyuan_game::{Game, RecordMeta, Seat, Setup, Turn, Viewer};
use qiyuan_go::Go;
use qiyuan_testkit::fs::fuzz_inputs;
use qiyuan_xiangqi::Xiangqi;

#[test]
fn game_actions_inputs() {
    for (path, bytes) in fuzz_inputs("game_actions") {
        let Some((&pick, rest)) = bytes.split_first() else {
            continue;
        };
        let text = String::from_utf8_lossy(rest);
        match pick % 4 {
            0 => drive::<ChessGame>(&path, &text, Setup::Standard),
            1 => drive::<Xiangqi>(&path, &text, Setup::Standard),
            2 => drive::<Go>(&path, &text, Setup::Standard),
            _ => drive::<Doudizhu>(&path, &text, Setup::Seed(u64::from(pick))),
        }
    }
}

/// Plays the input's actions: a refusal changes nothing a spectator sees, and an
/// accepted action's canonical form is accepted from the state before.
fn drive<G: Game>(path: &str, text: &str, mut setup: Setup) {
    let mut lines = text.lines().peekable();
    let mut options = G::Options::default();
    while let Some(line) = lines.peek() {
        if let Some(json) = line.strip_prefix("options ") {
            options = serde_json::from_str(json).unwrap_or(options);
        } else if let Some(position) = line.strip_prefix("setup ") {
            setup = Setup::Position(position.to_owned());
        } else {
            break;
        }
        lines.next();
    }
    let Ok(mut game) = G::new(&options, &setup) else {
        return;
    };
    let seen = |g: &G| serde_json::to_string(&g.view(Viewer::Spectator)).unwrap();
    for line in lines {
        let explicit = line
            .strip_prefix('@')
            .and_then(|l| l.split_once(' '))
            .and_then(|(n, a)| Some((Seat(n.parse().ok()?), a)));
        let (seat, action) = match (explicit, game.turn()) {
            (Some(explicit), _) => explicit,
            (None, Turn::Seat(s)) => (s, line),
            (None, Turn::All(seats)) => (seats[0], line),
            (None, Turn::Over) => break,
        };
        let before = game.clone();
        let view = seen(&game);
        match game.act(seat, action) {
            Err(_) => assert_eq!(
                seen(&game),
                view,
                "{path}: refused {action:?} changed the game"
            ),
            Ok(effects) => {
                let again = before.clone().act(seat, &effects.canonical);
                assert!(
                    again.is_ok(),
                    "{path}: canonical {:?} refused",
                    effects.canonical
                );
            }
        }
    }
    let _ = game.record(&RecordMeta::default());
}
