//! The table with Go: byo-yomi, and no clock while both players mark dead stones.

mod common;

use common::*;
use qiyuan_game::{EndReason, SeatResult};
use qiyuan_go::{Go, GoPhase as Phase};
use qiyuan_table::{Command, Event, TableConfig, TableRefusalKind as K, TimeControl};

fn config() -> TableConfig {
    let mut c = TableConfig::casual(TimeControl::byo_yomi(1, 3, 10));
    c.settings.options = serde_json::json!({"size": 9, "komi": 7.5, "handicap": 0,
        "ko": "positional_superko", "handicap_compensation": false});
    c
}

#[test]
fn marking_stops_the_clock_and_the_count_ends_the_game() {
    let mut s = Script::<Go>::started(config());
    s.play(0, S, "E5");
    s.play(1, S, "C3");
    // Go draw offers: on one's own turn.
    assert_eq!(
        s.refused(Command::OfferDraw { user: user(1) }).kind,
        K::NotAllowed
    );
    s.play(0, 70 * S, "pass");
    // Black overstepped the main minute by 10 s: one period gone.
    let gs = s.table.state().game.clone().unwrap();
    assert_eq!(gs.clock.seat(0).unwrap().periods, 2);
    s.play(1, S, "pass");
    assert_eq!(
        s.table.game().map(qiyuan_game::Game::phase),
        Some(Phase::Marking)
    );
    let gs = s.table.state().game.clone().unwrap();
    assert_eq!(gs.clock.running_seat(), None, "no clock while marking");
    assert_eq!(s.table.next_deadline(), None);
    s.wait(3_600 * S);
    assert!(s.tick().is_empty());
    s.play(1, 0, "accept");
    let ev = s.play(0, 0, "accept");
    let (o, _) = ended(&ev).expect("counted");
    assert_eq!(o.reason, EndReason::Counted);
    assert_eq!(
        o.results.iter().filter(|r| **r == SeatResult::Win).count(),
        1
    );
    // The record has the time control and each move's time left: black's pass
    // came in byo-yomi with two periods left, a fresh 10 s period ahead.
    let sgf = s.table.record(qiyuan_game::RecordMeta::default()).unwrap();
    for want in [
        "RU[Chinese]",
        "TM[60]",
        "OT[3x10 byo-yomi]",
        ";B[ee]BL[60]",
        ";W[cg]WL[60]",
        ";B[]BL[10]OB[2]",
        ";W[]WL[59]",
    ] {
        assert!(sgf.contains(want), "{want} missing: {sgf}");
    }
    s.check_replay();
}

#[test]
fn resuming_play_restarts_the_clock() {
    let mut s = Script::<Go>::started(config());
    s.play(0, S, "E5");
    s.play(1, S, "pass");
    s.play(0, S, "pass");
    s.play(1, S, "resume");
    let to_move = match s.table.game().map(qiyuan_game::Game::turn) {
        Some(qiyuan_game::Turn::Seat(seat)) => seat,
        t => panic!("{t:?}"),
    };
    let gs = s.table.state().game.clone().unwrap();
    assert_eq!(gs.clock.running_seat(), Some(to_move.index()));
    assert!(s.table.next_deadline().is_some());
    let ev = s.play(to_move.0, S, "D4");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Acted { seat, .. } if *seat == to_move))
    );
    s.check_replay();
}
