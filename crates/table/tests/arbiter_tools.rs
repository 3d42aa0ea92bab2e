//! An arbiter's tools at a tournament table with real chess: restoring a
//! position, adjusting a clock, stopping the clocks, and the cost of an
//! incorrect claim (FIDE 9.5.3).

mod common;

use common::*;
use qiyuan_chess::ChessGame;
use qiyuan_game::{Claim, Seat};
use qiyuan_table::{
    Command, Event, INCORRECT_CLAIM_BONUS, TableConfig, TableRefusalKind as K, TimeControl,
};

fn tournament() -> Script<ChessGame> {
    let mut config = TableConfig::casual(TimeControl::fischer(5, 0));
    config.tournament = true;
    config.first_move = Some(15 * M);
    Script::<ChessGame>::started(config)
}

fn main_of(s: &Script<ChessGame>, seat: usize) -> u64 {
    s.table
        .state()
        .game
        .as_ref()
        .unwrap()
        .clock
        .seat(seat)
        .unwrap()
        .main
}

#[test]
fn a_restored_position_is_the_replay_of_its_first_actions() {
    let mut s = tournament();
    for (i, m) in ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"].iter().enumerate() {
        s.play((i % 2) as u8, 10 * S, m);
    }
    // Only a position before the last action, and one time per seat.
    s.refused(Command::Restore {
        ply: 5,
        clocks: None,
    });
    s.refused(Command::Restore {
        ply: 2,
        clocks: Some(vec![M]),
    });
    s.wait(3 * S);
    let ev = s.ok(Command::Restore {
        ply: 2,
        clocks: None,
    });
    assert!(matches!(ev[..], [Event::Restored { ply: 2, .. }]), "{ev:?}");
    let gs = s.table.state().game.clone().unwrap();
    assert_eq!(gs.actions.len(), 2);
    // White to move again, its clock running; the 3 s Black used stay charged.
    assert_eq!(gs.clock.running_seat(), Some(0));
    assert_eq!(main_of(&s, 1), 5 * M - 20 * S - 3 * S);
    s.play(0, S, "d2d4");
    // The arbiter's clocks.
    s.ok(Command::Restore {
        ply: 1,
        clocks: Some(vec![4 * M, 3 * M]),
    });
    assert_eq!((main_of(&s, 0), main_of(&s, 1)), (4 * M, 3 * M));
    s.play(1, S, "c7c5");
    s.check_replay();
}

#[test]
fn time_added_and_removed_and_a_flag_after_removal() {
    let mut s = tournament();
    s.play(0, S, "e2e4");
    s.ok(Command::AdjustClock {
        seat: Seat(0),
        delta: (2 * M) as i64,
    });
    assert_eq!(main_of(&s, 0), 7 * M - S);
    // Black to move: removing all its time flags it at once.
    let ev = s.ok(Command::AdjustClock {
        seat: Seat(1),
        delta: -((10 * M) as i64),
    });
    s.wait(5 * S);
    let mut all = ev.clone();
    all.extend(s.tick());
    assert!(ended(&all).is_some(), "{all:?}");
    s.check_replay();
}

#[test]
fn a_paused_game_takes_no_move_and_no_flag_falls() {
    let mut s = tournament();
    s.play(0, S, "e2e4");
    s.wait(10 * S);
    s.ok(Command::Pause);
    s.refused(Command::Pause);
    let r = s.refused(Command::Act {
        user: user(1),
        action: "e7e5".into(),
        lag: 0,
    });
    assert_eq!(r.kind, K::NotAllowed);
    // An hour passes: nothing falls due.
    s.wait(60 * M);
    assert!(s.tick().is_empty());
    assert_eq!(s.table.next_deadline(), None);
    assert!(
        s.table
            .view(qiyuan_game::Viewer::Spectator, s.now)
            .game
            .unwrap()
            .paused
    );
    s.ok(Command::Unpause);
    s.refused(Command::Unpause);
    // Black had used 10 s before the pause: 4 min 50 s left.
    let flag = s.table.next_deadline().unwrap();
    assert!(
        (s.now + 5 * M - 10 * S..s.now + 5 * M).contains(&flag),
        "{flag} {}",
        s.now
    );
    s.play(1, S, "e7e5");
    s.check_replay();
}

#[test]
fn an_incorrect_claim_at_a_tournament_table_gives_the_opponent_two_minutes() {
    let mut s = tournament();
    s.play(0, S, "e2e4");
    s.play(1, S, "e7e5");
    let before = main_of(&s, 1);
    let ev = s.ok(Command::Claim {
        user: user(0),
        claim: Claim::FiftyMoves,
    });
    assert!(
        matches!(&ev[..], [Event::ClaimIncorrect { seat: Seat(0), opponent: Seat(1), added, .. }] if *added == INCORRECT_CLAIM_BONUS),
        "{ev:?}"
    );
    assert_eq!(main_of(&s, 1), before + 2 * M);
    assert!(s.outcome().is_none());
    // Out of turn it is no claim at all: refused, nothing given.
    s.refused(Command::Claim {
        user: user(1),
        claim: Claim::ThreefoldRepetition,
    });
    s.check_replay();
    // At a casual table an incorrect claim is only refused.
    let mut casual = Script::<ChessGame>::started(TableConfig::casual(TimeControl::fischer(5, 0)));
    casual.play(0, S, "e2e4");
    casual.play(1, S, "e7e5");
    casual.refused(Command::Claim {
        user: user(0),
        claim: Claim::FiftyMoves,
    });
}
