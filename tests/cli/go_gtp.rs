//! `qiyuan engine --game go` over GTP against GNU Go: a small referee starts both
//! programs, relays each `genmove` to the other side as `play`, checks every move
//! with our rules (the game contract, positional superko), and ends the game on two
//! passes in a row or a resignation. Then both count: our rules' count with GNU Go's
//! dead stones must equal GNU Go's `final_score`, and our engine's own `final_score`
//! must name the same winner.
//!
//! Needs Debian's `gnugo` (3.8). Two whole 9x9 games, one with each colour; the
//! engine plays its top level with its playouts cut to 2000 so the test stays quick.
#![cfg(feature = "go")]

use qiyuan_game::{Game, Seat, Setup};
use qiyuan_go::GoPhase as Phase;
use qiyuan_go::{Counting, Go, Options, Point, Score, area};
use qiyuan_testkit::gtp::{Gtp, gnugo};

fn winner(score: &str) -> Option<char> {
    score.chars().next().filter(|c| *c == 'B' || *c == 'W')
}

/// Plays one game, qiyuan taking `ours` ("b" or "w"); returns how it ended.
fn referee(ours: &str, seed: u64) -> String {
    let seed_text = seed.to_string();
    let mut qiyuan = Gtp::start(
        "qiyuan",
        env!("CARGO_BIN_EXE_qiyuan"),
        [
            "engine",
            "--game",
            "go",
            "--level",
            "8",
            "--playouts",
            "2000",
            "--seed",
            &seed_text,
        ],
    );
    let mut gnugo = Gtp::start(
        "gnugo",
        gnugo(),
        [
            "--mode",
            "gtp",
            "--chinese-rules",
            "--level",
            "1",
            "--seed",
            &seed_text,
        ],
    );
    assert_eq!(qiyuan.ask("protocol_version"), "2");
    assert_eq!(qiyuan.ask("name"), "qiyuan");
    assert_eq!(qiyuan.ask("known_command genmove"), "true");
    assert_eq!(qiyuan.ask("known_command frobnicate"), "false");
    assert!(qiyuan.send("frobnicate").is_err());
    assert!(qiyuan.send("boardsize 99").is_err());
    for e in [&mut qiyuan, &mut gnugo] {
        e.ask("boardsize 9");
        e.ask("clear_board");
        e.ask("komi 7.5");
        e.ask("time_settings 300 0 0");
    }
    let options = Options {
        size: 9,
        komi: 7.5,
        ..Options::default()
    };
    let mut game = Go::new(&options, &Setup::Standard).unwrap();
    let mut color = "b";
    let mut passes = 0;
    let mut moves = 0;
    let ended = loop {
        let (mover, other) = if color == ours {
            (&mut qiyuan, &mut gnugo)
        } else {
            (&mut gnugo, &mut qiyuan)
        };
        let mv = mover.ask(&format!("genmove {color}")).to_lowercase();
        if mv == "resign" {
            break format!("{} resigned", mover.name);
        }
        let seat = Seat(if color == "b" { 0 } else { 1 });
        game.act(seat, &mv).unwrap_or_else(|e| {
            panic!(
                "{} played {mv} illegally (move {}): {e}",
                mover.name,
                moves + 1
            )
        });
        other.ask(&format!("play {color} {mv}"));
        moves += 1;
        passes = if mv == "pass" { passes + 1 } else { 0 };
        if passes == 2 {
            break "two passes".to_string();
        }
        assert!(moves < 3 * 81, "the game does not end");
        color = if color == "b" { "w" } else { "b" };
    };
    // Both sides' boards agree with the referee's.
    let theirs = gnugo.ask("final_score");
    let mine = qiyuan.ask("final_score");
    if ended == "two passes" {
        assert_eq!(game.phase(), Phase::Marking);
        let dead: Vec<Point> = gnugo
            .ask("final_status_list dead")
            .split_whitespace()
            .map(|v| Point::from_gtp(v).unwrap())
            .collect();
        let counted = Score::new(&area(game.board(), &dead, Counting::GnuGo), 7.5, 0.0).to_string();
        assert_eq!(counted, theirs, "our count of GNU Go's marking");
        // Our engine's dead stones are GTP vertices on the board.
        for v in qiyuan.ask("final_status_list dead").split_whitespace() {
            let p = Point::from_gtp(v).unwrap();
            assert!(game.board().get(p).is_some(), "qiyuan calls empty {v} dead");
        }
        assert_eq!(
            winner(&mine),
            winner(&theirs),
            "qiyuan counts {mine}, GNU Go {theirs}"
        );
    } else if ended == "qiyuan resigned" {
        let gnugo_color = if ours == "b" { 'W' } else { 'B' };
        assert_eq!(
            winner(&theirs),
            Some(gnugo_color),
            "qiyuan resigned a game GNU Go counts {theirs}"
        );
    }
    format!("qiyuan {ours}: {ended} after {moves} moves, GNU Go counts {theirs}, qiyuan {mine}")
}

#[test]
fn gnu_go_plays_whole_9x9_games_against_qiyuan_over_gtp() {
    for (ours, seed) in [("b", 1), ("w", 2)] {
        eprintln!("{}", referee(ours, seed));
    }
}
