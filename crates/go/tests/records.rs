//! Records and the end of the game: SGF round trips, whole games replayed from SGF
//! files, the dead-stone phase, and every game of GNU Go's in the shared data
//! counted as GNU Go counted it.

use std::fs;
use std::path::PathBuf;

use proptest::prelude::*;
use qiyuan_game::{
    EndReason, Game, Outcome, RecordMeta, RefusalKind, Seat, SeatResult, Setup, Turn, Viewer,
    replay,
};
use qiyuan_go::{
    Color, Counting, Go, GoPhase as Phase, Move, Options, Point, Score, SgfGame, area,
};
use qiyuan_testkit::fs::shared_data;

/// Every game of the data folder: (name, SGF text, dead stones, GNU Go's result).
fn gnugo_games() -> Vec<(String, String, Vec<String>, String)> {
    let dir = shared_data("go-gnugo");
    let mut names: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sgf"))
        .collect();
    names.sort();
    assert!(
        names.len() >= 20,
        "expected the GNU Go games in {}",
        dir.display()
    );
    names
        .into_iter()
        .map(|sgf| {
            let text = fs::read_to_string(&sgf).unwrap();
            let dead = fs::read_to_string(sgf.with_extension("dead"))
                .unwrap()
                .split_whitespace()
                .map(String::from)
                .collect();
            let result = fs::read_to_string(sgf.with_extension("result"))
                .unwrap()
                .trim()
                .to_string();
            let name = sgf.file_name().unwrap().to_string_lossy().into_owned();
            (name, text, dead, result)
        })
        .collect()
}

fn seat_to_move(go: &Go) -> Seat {
    Seat(go.to_move().index() as u8)
}

#[test]
fn every_gnugo_game_replays_and_counts_as_gnugo_counted_it() {
    // GNU Go's count of seki; the Chinese rules' count differs where a seki has
    // eyes (g0051).
    let options = Options {
        counting: Counting::GnuGo,
        ..Options::default()
    };
    let mut differ = Vec::new();
    for (name, text, dead, result) in gnugo_games() {
        // The table's way: load the record, replay its actions on a new game.
        let (setup, actions) = Go::load(&options, &text).unwrap();
        let log: Vec<(Seat, String)> = actions
            .iter()
            .enumerate()
            .map(|(i, a)| (Seat((i % 2) as u8), a.clone()))
            .collect();
        let mut go: Go = replay(&options, &setup, &log).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(go.phase(), Phase::Marking, "{name}");
        assert_eq!(go.turn(), Turn::All(vec![Seat(0), Seat(1)]));
        // Both players mark GNU Go's dead stones, group by group.
        let mut want: Vec<Point> = dead.iter().map(|v| Point::from_gtp(v).unwrap()).collect();
        want.sort();
        for p in go.board().points() {
            if go.board().get(p).is_some() && go.is_dead(p) != want.binary_search(&p).is_ok() {
                let word = if go.is_dead(p) { "alive" } else { "dead" };
                go.act(Seat(1), &format!("{word} {p}")).unwrap();
            }
        }
        assert_eq!(go.dead(), want.as_slice(), "{name}");
        go.act(Seat(0), "accept").unwrap();
        assert_eq!(go.outcome(), None);
        go.act(Seat(1), "accept").unwrap();
        let outcome = go.outcome().unwrap();
        assert_eq!(outcome.score, result, "{name}");
        assert_eq!(outcome.reason, EndReason::Counted);
        assert_eq!(go.turn(), Turn::Over);
        let chinese = Score::new(&area(go.board(), &want, Counting::Chinese), 7.5, 0.0);
        if chinese.to_string() != result {
            differ.push(name);
        }
    }
    assert_eq!(differ, ["g0051.sgf"], "games whose seki eyes count");
}

#[test]
fn the_estimator_suggests_gnugo_marking_in_most_games() {
    let games = gnugo_games();
    let mut agree = 0;
    for (_, text, dead, _) in &games {
        let go = Go::new(&Options::default(), &Setup::Position(text.clone())).unwrap();
        let mut want: Vec<Point> = dead.iter().map(|v| Point::from_gtp(v).unwrap()).collect();
        want.sort();
        agree += usize::from(go.dead() == want.as_slice());
    }
    // A suggestion, not a judge: it should still be right most of the time.
    assert!(
        agree * 4 >= games.len() * 3,
        "{agree}/{} agree",
        games.len()
    );
}

#[test]
fn records_round_trip_through_sgf() {
    let (_, text, _, _) = gnugo_games().into_iter().next().unwrap();
    let go = Go::new(&Options::default(), &Setup::Position(text)).unwrap();
    let meta = RecordMeta {
        players: vec!["黑 Black".into(), "White]".into()],
        date: Some("2026.11.29".into()),
        time_control: Some(qiyuan_game::RecordTime::Fischer {
            main: 1800,
            increment: 30,
        }),
        outcome: Some(go.conceded(Seat(1), EndReason::Resignation)),
        ..RecordMeta::default()
    };
    let sgf = go.record(&meta);
    assert!(
        sgf.contains("RU[Chinese]") && sgf.contains("KM[7.5]"),
        "{sgf}"
    );
    assert!(
        sgf.contains("RE[B+R]") && sgf.contains("DT[2026-11-29]"),
        "{sgf}"
    );
    assert!(
        sgf.contains("TM[1800]") && sgf.contains("PW[White\\]]"),
        "{sgf}"
    );
    assert!(
        sgf.contains(";B[]") && sgf.contains(";W[]"),
        "passes are written empty"
    );
    let read = SgfGame::parse(&sgf).unwrap();
    assert_eq!(read.black.as_deref(), Some("黑 Black"));
    assert_eq!(read.white.as_deref(), Some("White]"));
    assert_eq!(read.result.as_deref(), Some("B+R"));
    assert_eq!(read.moves, go.moves());
    // Written again, it is the same text.
    assert_eq!(read.to_sgf(), sgf);
    // Loaded, the same game.
    let again = Go::new(&Options::default(), &Setup::Position(sgf)).unwrap();
    assert_eq!(again.board(), go.board());
    assert_eq!(again.moves(), go.moves());
}

#[test]
fn handicap_records_keep_their_stones_and_komi() {
    let options = Options {
        size: 13,
        handicap: 4,
        komi: 0.5,
        ..Options::default()
    };
    let mut go = Go::new(&options, &Setup::Standard).unwrap();
    go.act(Seat(1), "G7").unwrap();
    go.act(Seat(0), "pass").unwrap();
    let sgf = go.record(&RecordMeta::default());
    assert!(
        sgf.contains("HA[4]") && sgf.contains("AB[") && sgf.contains("PL[W]"),
        "{sgf}"
    );
    let (setup, actions) = Go::load(&Options::default(), &sgf).unwrap();
    assert_eq!(actions, vec!["G7", "pass"]);
    let mut loaded = Go::new(&Options::default(), &setup).unwrap();
    assert_eq!(loaded.to_move(), Color::White);
    assert_eq!(loaded.options().komi, 0.5);
    assert_eq!(loaded.options().handicap, 4);
    loaded.act(Seat(1), "G7").unwrap();
    loaded.act(Seat(0), "pass").unwrap();
    assert_eq!(loaded.board(), go.board());
}

#[test]
fn tt_is_a_pass_on_small_boards() {
    let sgf = "(;GM[1]FF[4]SZ[19];B[dd];W[tt];B[pp])";
    let game = SgfGame::parse(sgf).unwrap();
    assert_eq!(game.moves[1], (Color::White, Move::Pass));
    let go = Go::new(&Options::default(), &Setup::Position(sgf.into())).unwrap();
    assert_eq!(go.moves().len(), 3);
    // On a larger board `tt` is a point.
    let big = SgfGame::parse("(;GM[1]FF[4]SZ[21];B[tt])").unwrap();
    assert_eq!(big.moves[0].1, Move::Place(Point::new(19, 1)));
}

#[test]
fn loading_refuses_illegal_records_with_a_message() {
    let occupied = "(;GM[1]FF[4]SZ[9];B[ee];W[ee])";
    let err = Go::load(&Options::default(), occupied).unwrap_err();
    assert!(err.message.contains("move 2"), "{}", err.message);
    assert!(Go::load(&Options::default(), "(;GM[1]SZ[9];B[zz])").is_err());
    assert!(Go::load(&Options::default(), "((").is_err());
}

/// A 9x9 game to two passes: black lives on the left, white on the right, with a
/// black stone left inside white's area.
fn finished_game() -> Go {
    let mut go = Go::new(
        &Options {
            size: 9,
            ..Options::default()
        },
        &Setup::Standard,
    )
    .unwrap();
    let moves = [
        "D1", "F1", "D2", "F2", "D3", "F3", "D4", "F4", "D5", "F5", "D6", "F6", "D7", "F7", "D8",
        "F8", "D9", "F9", "H5", "pass", "pass",
    ];
    for mv in moves {
        let seat = seat_to_move(&go);
        go.act(seat, mv).unwrap();
    }
    go
}

#[test]
fn two_passes_start_the_marking_and_both_accept_the_count() {
    let mut go = finished_game();
    assert_eq!(go.phase(), Phase::Marking);
    assert_eq!(go.turn(), Turn::All(vec![Seat(0), Seat(1)]));
    // The estimator suggests the lone stone.
    assert_eq!(go.dead(), &[Point::from_gtp("H5").unwrap()]);
    let view = go.view(Viewer::Spectator);
    let marking = view.marking.as_ref().unwrap();
    assert_eq!(marking.dead, vec!["H5"]);
    assert_eq!(marking.score, "W+7.5");
    // Moves belong to play; marking words to the marking.
    assert_eq!(
        go.act(Seat(0), "E5").unwrap_err().kind,
        RefusalKind::WrongPhase
    );
    assert_eq!(
        go.act(Seat(0), "dead Z9").unwrap_err().kind,
        RefusalKind::Malformed
    );
    assert_eq!(
        go.act(Seat(0), "dead E5").unwrap_err().kind,
        RefusalKind::Illegal
    );
    // White accepts; black marks the stone alive, which clears white's acceptance.
    go.act(Seat(1), "accept").unwrap();
    assert_eq!(
        go.act(Seat(1), "accept").unwrap_err().kind,
        RefusalKind::Illegal
    );
    let fx = go.act(Seat(0), "toggle H5").unwrap();
    assert_eq!(fx.canonical, "alive H5");
    assert_eq!(
        go.view(Viewer::Seat(Seat(0))).marking.unwrap().accepted,
        [false, false]
    );
    go.act(Seat(0), "accept").unwrap();
    go.act(Seat(1), "dead H5").unwrap();
    assert_eq!(
        go.view(Viewer::Seat(Seat(0))).marking.unwrap().accepted,
        [false, false]
    );
    go.act(Seat(0), "accept").unwrap();
    go.act(Seat(1), "accept").unwrap();
    // 36 points each (the E column is dame), komi 7.5.
    assert_eq!(
        go.outcome(),
        Some(Outcome::win(2, Seat(1), EndReason::Counted, "W+7.5"))
    );
    assert_eq!(
        go.act(Seat(0), "resume").unwrap_err().kind,
        RefusalKind::GameOver
    );
    assert_eq!(go.view(Viewer::Spectator).result.as_deref(), Some("W+7.5"));
}

#[test]
fn resuming_returns_to_play() {
    let mut go = finished_game();
    go.act(Seat(1), "accept").unwrap();
    go.act(Seat(0), "resume").unwrap();
    assert_eq!(go.phase(), Phase::Play);
    assert!(go.dead().is_empty());
    // The opponent of the one who resumed moves first.
    assert_eq!(go.turn(), Turn::Seat(Seat(1)));
    assert_eq!(
        go.act(Seat(1), "accept").unwrap_err().kind,
        RefusalKind::WrongPhase
    );
    go.act(Seat(1), "H4").unwrap();
    go.act(Seat(0), "pass").unwrap();
    go.act(Seat(1), "pass").unwrap();
    assert_eq!(go.phase(), Phase::Marking);
}

#[test]
fn the_contract_faces() {
    let go = Go::new(&Options::default(), &Setup::Standard).unwrap();
    assert_eq!(go.seats(), 2);
    assert_eq!(go.turn(), Turn::Seat(Seat(0)));
    assert_eq!(go.legal_actions(Seat(0)).len(), 362);
    assert!(go.legal_actions(Seat(1)).is_empty());
    assert_eq!(go.conceded(Seat(0), EndReason::Resignation).score, "W+R");
    assert_eq!(go.conceded(Seat(1), EndReason::Timeout).score, "B+T");
    assert_eq!(
        go.conceded(Seat(1), EndReason::Timeout).results,
        vec![SeatResult::Win, SeatResult::Loss]
    );
    assert_eq!(go.agreed_draw().score, "0");
    let mut go = go;
    assert_eq!(
        go.act(Seat(2), "D4").unwrap_err().kind,
        RefusalKind::NoSuchSeat
    );
    assert_eq!(
        go.act(Seat(1), "D4").unwrap_err().kind,
        RefusalKind::NotYourTurn
    );
    assert_eq!(
        go.act(Seat(0), "I4").unwrap_err().kind,
        RefusalKind::Malformed
    );
    assert_eq!(
        go.act(Seat(0), "D4 D5").unwrap_err().kind,
        RefusalKind::Malformed
    );
    let fx = go.act(Seat(0), "d4").unwrap();
    assert_eq!(fx.canonical, "D4");
    let fx = go.act(Seat(1), "PASS").unwrap();
    assert_eq!(fx.canonical, "pass");
    let view = go.view(Viewer::Spectator);
    assert_eq!(view.last_move.as_deref(), Some("pass"));
    assert_eq!(view.moves, vec!["D4", "pass"]);
    assert_eq!(view.board[15].chars().nth(3), Some('X'));
    let json = serde_json::to_value(&view).unwrap();
    assert_eq!(json["phase"], "play");
    assert_eq!(json["to_move"], "black");
}

proptest! {
    #[test]
    fn sgf_reading_never_panics(text in "\\PC{0,200}") {
        let _ = SgfGame::parse(&text);
    }

    #[test]
    fn sgf_like_text_never_panics(
        props in proptest::collection::vec(
            ("(B|W|AB|AW|SZ|KM|HA|PL|RE|TM)", "[a-zA-Z0-9.:+\\-]{0,4}"),
            0..12,
        )
    ) {
        let mut text = String::from("(;GM[1]FF[4]");
        for (id, value) in props {
            text.push_str(&format!(";{id}[{value}]"));
        }
        text.push(')');
        if let Ok(game) = SgfGame::parse(&text) {
            let _ = Go::from_sgf(&Options::default(), &game);
        }
        let _ = Go::load(&Options::default(), &text);
    }

    #[test]
    fn actions_never_panic_and_refusals_change_nothing(
        actions in proptest::collection::vec("(pass|accept|resume|dead |alive |toggle )?[A-Za-z]{0,2}[0-9]{0,2}", 0..40)
    ) {
        let mut go = Go::new(&Options { size: 5, ..Options::default() }, &Setup::Standard).unwrap();
        for (i, action) in actions.iter().enumerate() {
            let before = go.view(Viewer::Spectator);
            if go.act(Seat((i % 2) as u8), action).is_err() {
                prop_assert_eq!(go.view(Viewer::Spectator), before);
            }
        }
    }
}
