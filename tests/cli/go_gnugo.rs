//! Agreement with GNU Go: GNU Go plays itself to two passes over GTP under Chinese
//! rules; we replay the same moves through the game contract, mark the stones GNU
//! Go calls dead (`final_status_list dead`), accept, and our count must equal its
//! `final_score`.
//!
//! Needs Debian's `gnugo` (3.8): `apt-get install gnugo`. Many 9x9 games at level 0
//! (each opened with a random stone per side, for variety) and two 19x19 games with GNU Go's reading cut short (they would take minutes
//! each otherwise); two games run at a time.
#![cfg(feature = "go")]

use std::sync::Mutex;
use std::time::Instant;

use qiyuan_game::{EndReason, Game, Seat, Setup};
use qiyuan_go::GoPhase as Phase;
use qiyuan_go::playout::Rng;
use qiyuan_go::{Counting, Go, KoRule, Options, Point, Score, area};
use qiyuan_testkit::gtp::{Gtp, gnugo};

const GAMES_9X9: u64 = 52;
const GAMES_19X19: u64 = 2;

/// GNU Go on a board of `size` playing with `seed` (its reading cut short on
/// boards above 13x13).
fn start_gnugo(size: u8, seed: u64) -> Gtp {
    let mut args: Vec<String> = [
        "--mode",
        "gtp",
        "--chinese-rules",
        "--komi",
        "7.5",
        "--never-resign",
        "--level",
        "0",
    ]
    .map(String::from)
    .to_vec();
    args.extend(["--boardsize".into(), size.to_string()]);
    args.extend(["--seed".into(), seed.to_string()]);
    if size > 13 {
        // Shallow reading: a 19x19 game in about half a minute instead of two.
        args.extend(
            [
                "--owl-node-limit",
                "10",
                "--depth",
                "1",
                "--backfill-depth",
                "1",
                "--fourlib-depth",
                "1",
                "--ko-depth",
                "1",
                "--branch-depth",
                "1",
                "--aa-depth",
                "1",
                "--superstring-depth",
                "1",
                "--nofusekidb",
                "--nojosekidb",
            ]
            .map(String::from),
        );
    }
    Gtp::start("gnugo", gnugo(), args)
}

struct Played {
    size: u8,
    seed: u64,
    moves: Vec<String>,
    dead: Vec<String>,
    score: String,
}

fn self_play(size: u8, seed: u64) -> Played {
    let mut gtp = start_gnugo(size, seed);
    let mut moves = Vec::new();
    let mut passes = 0;
    let mut color = "b";
    if size == 9 {
        // GNU Go at level 0 varies little with its seed: open each 9x9 game with
        // one random stone of each colour, then let it play itself.
        let mut rng = Rng::new(seed);
        while moves.len() < 2 {
            let p = Point::new(1 + rng.below(7) as u8, 1 + rng.below(7) as u8).to_string();
            if !moves.contains(&p) {
                gtp.ask(&format!("play {color} {p}"));
                moves.push(p);
                color = if color == "b" { "w" } else { "b" };
            }
        }
    }
    while passes < 2 {
        let mv = gtp.ask(&format!("genmove {color}"));
        assert!(
            !mv.eq_ignore_ascii_case("resign"),
            "gnugo resigned despite --never-resign"
        );
        passes = if mv.eq_ignore_ascii_case("pass") {
            passes + 1
        } else {
            0
        };
        moves.push(mv);
        color = if color == "b" { "w" } else { "b" };
        assert!(moves.len() < 2000, "game {seed} does not end");
    }
    let dead = gtp
        .ask("final_status_list dead")
        .split_whitespace()
        .map(String::from)
        .collect();
    let score = gtp.ask("final_score");
    Played {
        size,
        seed,
        moves,
        dead,
        score,
    }
}

/// How our side went: the result, and whether our estimator agreed with GNU Go.
struct Checked {
    ours: String,
    estimator_agreed: bool,
    /// Counted through the marking phase (not directly, for a split group).
    through_marking: bool,
}

fn check(game: &Played) -> Checked {
    // GNU Go plays by simple ko; replay so, lest a rare superko repetition refuse.
    let options = Options {
        size: game.size,
        komi: 7.5,
        ko: KoRule::Simple,
        // GNU Go's own count of seki, which the Chinese rules' count may differ from.
        counting: Counting::GnuGo,
        ..Options::default()
    };
    let mut go = Go::new(&options, &Setup::Standard).unwrap();
    for (i, mv) in game.moves.iter().enumerate() {
        let seat = Seat((i % 2) as u8);
        go.act(seat, mv)
            .unwrap_or_else(|e| panic!("seed {}: move {} {mv}: {e}", game.seed, i + 1));
    }
    assert_eq!(go.phase(), Phase::Marking);
    let mut want: Vec<Point> = game
        .dead
        .iter()
        .map(|v| Point::from_gtp(v).unwrap())
        .collect();
    want.sort();
    let estimator_agreed = go.dead() == want.as_slice();
    // Mark GNU Go's dead stones group by group, as players would.
    for p in go.board().points() {
        if go.board().get(p).is_none() {
            continue;
        }
        let should = want.binary_search(&p).is_ok();
        if go.is_dead(p) != should {
            let action = format!("{} {p}", if should { "dead" } else { "alive" });
            go.act(Seat(0), &action).unwrap();
        }
    }
    if go.dead() != want.as_slice() {
        // GNU Go split a group we mark as one: count its marking directly.
        let score = Score::new(&area(go.board(), &want, Counting::GnuGo), 7.5, 0.0);
        return Checked {
            ours: score.to_string(),
            estimator_agreed,
            through_marking: false,
        };
    }
    go.act(Seat(1), "accept").unwrap();
    go.act(Seat(0), "accept").unwrap();
    let outcome = go.outcome().expect("counted after both accepted");
    assert_eq!(outcome.reason, EndReason::Counted);
    Checked {
        ours: outcome.score,
        estimator_agreed,
        through_marking: true,
    }
}

#[test]
fn our_count_agrees_with_gnu_go_on_its_own_games() {
    gnugo();
    let started = Instant::now();
    // The slow 19x19 games first, so that the two workers finish together.
    let queue: Vec<(u8, u64)> = (0..GAMES_19X19)
        .map(|s| (19, 1000 + s))
        .chain((0..GAMES_9X9).map(|s| (9, 1 + s)))
        .collect();
    let queue = Mutex::new(queue.into_iter());
    let results = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                loop {
                    let Some((size, seed)) = queue.lock().unwrap().next() else {
                        break;
                    };
                    let t = Instant::now();
                    let played = self_play(size, seed);
                    let checked = check(&played);
                    results.lock().unwrap().push((played, checked, t.elapsed()));
                }
            });
        }
    });
    let results = results.into_inner().unwrap();
    let mut disagreements = Vec::new();
    let mut estimator = 0;
    let mut marked = 0;
    for (played, checked, took) in &results {
        if checked.ours != played.score {
            disagreements.push(format!(
                "{}x{} seed {}: GNU Go {} ours {} (dead {:?}, {} moves)",
                played.size,
                played.size,
                played.seed,
                played.score,
                checked.ours,
                played.dead,
                played.moves.len()
            ));
        }
        estimator += usize::from(checked.estimator_agreed);
        marked += usize::from(checked.through_marking);
        if played.size == 19 {
            eprintln!(
                "19x19 seed {}: {} moves, {} in {:.1?}",
                played.seed,
                played.moves.len(),
                played.score,
                took
            );
        }
    }
    eprintln!(
        "{} games against GNU Go in {:.1?}; {} counted through the marking phase; \
         our estimator's first marking matched GNU Go's in {}",
        results.len(),
        started.elapsed(),
        marked,
        estimator
    );
    assert_eq!(results.len() as u64, GAMES_9X9 + GAMES_19X19);
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}
