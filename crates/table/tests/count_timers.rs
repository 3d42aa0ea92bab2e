//! Clocks, first-move timers, aborts, disconnection and escape, restarts, with the
//! counting game on a simulated clock.

mod common;

use common::*;
use qiyuan_game::{EndReason, Seat, SeatResult};
use qiyuan_table::{
    Command, EndDetail, Event, Status, TableConfig, TableRefusalKind as K, TimeControl,
};

fn cfg(time: TimeControl) -> TableConfig {
    count_config(time, CountOptions::default())
}

fn both_moved(s: &mut Script<Count>) {
    s.play(0, S, "1");
    s.play(1, S, "1");
}

#[test]
fn no_clock_runs_before_every_seat_has_moved() {
    let mut s = Script::<Count>::started(cfg(TimeControl::fischer(1, 0)));
    let gs = s.table.state().game.clone().unwrap();
    assert_eq!(gs.clock.running_seat(), None);
    assert_eq!(s.table.next_deadline(), Some(s.now + 30 * S));
    s.play(0, 20 * S, "1");
    assert_eq!(
        s.table.state().game.as_ref().unwrap().clock.running_seat(),
        None
    );
    s.play(1, 20 * S, "1");
    let gs = s.table.state().game.clone().unwrap();
    assert_eq!(gs.clock.running_seat(), Some(0));
    assert_eq!(
        gs.clock.seat(0).unwrap().main,
        60 * S,
        "first moves are free"
    );
    assert_eq!(s.table.next_deadline(), Some(s.now + 60 * S));
}

#[test]
fn first_move_timer_aborts_a_casual_game() {
    let mut s = Script::<Count>::started(cfg(TimeControl::fischer(3, 2)));
    s.wait(30 * S - 1);
    assert!(s.tick().is_empty());
    s.wait(1);
    let ev = s.tick();
    let (o, rated) = ended(&ev).expect("aborted");
    assert_eq!(o.reason, EndReason::Aborted);
    assert_eq!(o.results, vec![SeatResult::Void; 2]);
    assert!(!rated);
    s.check_replay();
}

#[test]
fn first_move_timer_for_the_second_seat_too() {
    let mut s = Script::<Count>::started(cfg(TimeControl::fischer(3, 2)));
    s.play(0, 10 * S, "1");
    s.wait(30 * S);
    let (o, _) = ended(&s.tick()).expect("aborted");
    assert_eq!(o.reason, EndReason::Aborted);
    s.check_replay();
}

#[test]
fn first_move_timer_loses_at_a_tournament_table() {
    let mut c = cfg(TimeControl::fischer(3, 2));
    c.tournament = true;
    c.settings.rated = true;
    c.first_move = Some(60 * S);
    let mut s = Script::<Count>::started(c);
    // Neither has come: the late-arrival limit (the first-move time and a
    // grace time after the start; the server forfeits them before) ends it,
    // against the player to move.
    s.ok(Command::Disconnect { user: user(0) });
    s.ok(Command::Disconnect { user: user(1) });
    let grace = qiyuan_table::default_grace(&TimeControl::fischer(3, 2));
    s.wait(60 * S + grace - S);
    assert!(ended(&s.tick()).is_none());
    s.wait(S);
    let (o, _) = ended(&s.tick()).expect("lost");
    assert_eq!(o.results, vec![SeatResult::Loss, SeatResult::Win]);
    s.check_replay();
}

/// Seed 002's late arrival at a tournament table with a per-move limit
/// (步时): a player who has not come is not flagged before the late limit;
/// when they come their main time is charged from the game's start and
/// their per-move limit starts; when both are late, each is charged their
/// own lateness (Black from the start, not from White's move).
#[test]
fn late_arrivals_at_a_tournament_table() {
    let mut c = cfg(TimeControl::qq(10, 1, 30));
    c.tournament = true;
    c.settings.rated = true;
    c.first_move = Some(5 * M);
    // As the server sets an event's tables: nobody escapes before the late
    // limit.
    c.grace = Some(10 * M);
    let mut s = Script::<Count>::started(c);
    let start = s.now;
    s.ok(Command::Disconnect { user: user(0) });
    s.ok(Command::Disconnect { user: user(1) });
    // Three minutes: three times the per-move limit, nobody flagged.
    s.wait(3 * M);
    assert!(
        ended(&s.tick()).is_none(),
        "an absent player is not flagged"
    );
    s.ok(Command::Reconnect { user: user(0) });
    let main = |s: &Script<Count>, seat: usize| {
        s.table
            .state()
            .game
            .as_ref()
            .unwrap()
            .clock
            .seat(seat)
            .unwrap()
            .main
    };
    assert_eq!(main(&s, 0), 7 * M, "charged from the start");
    // Alice's minute per move runs from her arrival: 55 s is in time.
    s.play(0, 55 * S, "1");
    assert_eq!(main(&s, 0), 7 * M - 55 * S);
    // Bob, still away, is not flagged by his minute either.
    s.wait(2 * M);
    assert!(ended(&s.tick()).is_none());
    s.ok(Command::Reconnect { user: user(1) });
    let late = s.now - start;
    assert_eq!(main(&s, 1), 10 * M - late, "Bob's own lateness");
    s.play(1, 59 * S, "1");
    assert_eq!(main(&s, 1), 10 * M - late - 59 * S);
    assert!(s.outcome().is_none());
    // Once both have come the per-move limit is the clock's as ever.
    s.wait(M + 5 * S);
    let (o, _) = ended(&s.tick()).expect("flagged");
    assert_eq!(o.reason, EndReason::Timeout);
    assert_eq!(o.results, vec![SeatResult::Loss, SeatResult::Win]);
    s.check_replay();
}

#[test]
fn resignation_before_both_moved_loses_at_a_tournament_table() {
    for moved in [false, true] {
        let mut c = cfg(TimeControl::fischer(3, 2));
        c.tournament = true;
        c.settings.rated = true;
        let mut s = Script::<Count>::started(c);
        if moved {
            s.play(0, S, "1");
        }
        // Black resigns before their first move (White moved or not).
        let (o, rated) = ended(&s.ok(Command::Resign { user: user(1) })).unwrap();
        assert_eq!(o.reason, EndReason::Resignation, "moved: {moved}");
        assert_eq!(o.results, vec![SeatResult::Win, SeatResult::Loss]);
        assert!(!rated);
        // Tournament tables keep their settings.
        let r = s.refused(Command::Propose {
            user: user(0),
            settings: qiyuan_table::Settings::casual(TimeControl::None),
        });
        assert_eq!(r.kind, K::SettingsFixed);
        s.check_replay();
    }
}

#[test]
fn resignation_before_both_moved_aborts() {
    let mut c = cfg(TimeControl::fischer(3, 2));
    c.settings.rated = true;
    let mut s = Script::<Count>::started(c);
    s.play(0, S, "1");
    let (o, rated) = ended(&s.ok(Command::Resign { user: user(1) })).unwrap();
    assert_eq!(o.reason, EndReason::Aborted);
    assert!(!rated);
    s.check_replay();
}

#[test]
fn resignation_after_both_moved_counts() {
    let mut c = cfg(TimeControl::fischer(3, 2));
    c.settings.rated = true;
    let mut s = Script::<Count>::started(c);
    both_moved(&mut s);
    let (o, rated) = ended(&s.ok(Command::Resign { user: user(1) })).unwrap();
    assert_eq!(o.reason, EndReason::Resignation);
    assert_eq!(o.results, vec![SeatResult::Win, SeatResult::Loss]);
    assert!(rated);
    s.check_replay();
}

#[test]
fn abort_command_only_while_abortable() {
    let mut s = Script::<Count>::started(cfg(TimeControl::None));
    s.play(0, S, "1");
    let (o, _) = ended(&s.ok(Command::Abort { user: user(0) })).unwrap();
    assert_eq!(o.reason, EndReason::Aborted);
    let mut s = Script::<Count>::started(cfg(TimeControl::None));
    both_moved(&mut s);
    assert_eq!(
        s.refused(Command::Abort { user: user(0) }).kind,
        K::NotAllowed
    );
}

#[test]
fn leaving_before_both_moved_aborts_and_after_loses_by_escape() {
    let mut s = Script::<Count>::started(cfg(TimeControl::None));
    let ev = s.ok(Command::Leave { user: user(0) });
    assert_eq!(ended(&ev).unwrap().0.reason, EndReason::Aborted);
    assert!(ev.contains(&Event::Stood {
        seat: Seat(0),
        user: user(0)
    }));

    let mut s = Script::<Count>::started(cfg(TimeControl::None));
    both_moved(&mut s);
    let ev = s.ok(Command::Leave { user: user(0) });
    let (o, _) = ended(&ev).unwrap();
    assert_eq!(o.reason, EndReason::Escape);
    assert_eq!(o.results, vec![SeatResult::Loss, SeatResult::Win]);
    assert_eq!(s.table.seat_of("alice"), None);
    s.check_replay();
}

#[test]
fn a_flag_falls_on_tick_and_on_a_late_move() {
    let mut s = Script::<Count>::started(cfg(TimeControl::fischer(1, 0)));
    both_moved(&mut s);
    s.wait(60 * S - 1);
    assert!(s.tick().is_empty());
    s.wait(1);
    let (o, _) = ended(&s.tick()).unwrap();
    assert_eq!(o.reason, EndReason::Timeout);
    assert_eq!(o.results, vec![SeatResult::Loss, SeatResult::Win]);
    s.check_replay();

    // No tick was sent: the late move itself finds the flag.
    let mut s = Script::<Count>::started(cfg(TimeControl::fischer(1, 0)));
    both_moved(&mut s);
    s.wait(61 * S);
    let ev = s.ok(Command::Act {
        user: user(0),
        action: "1".into(),
        lag: 0,
    });
    assert_eq!(ended(&ev).unwrap().0.reason, EndReason::Timeout);
    assert!(
        !ev.iter().any(|e| matches!(e, Event::Acted { .. })),
        "the move is not played"
    );
    s.check_replay();

    // A command from the other seat fires the flag first, then is refused.
    let mut s = Script::<Count>::started(cfg(TimeControl::fischer(1, 0)));
    both_moved(&mut s);
    s.wait(61 * S);
    let r = s.apply(Command::OfferDraw { user: user(1) }).unwrap_err();
    assert_eq!(r.kind, K::NoGame);
    assert_eq!(ended(&r.fired).unwrap().0.reason, EndReason::Timeout);
    s.check_replay();
}

#[test]
fn lag_compensation_saves_a_move_sent_in_time() {
    let mut s = Script::<Count>::started(cfg(TimeControl::fischer(1, 0)));
    both_moved(&mut s);
    // The move left the player's machine at 59.8 s and arrived at 60.3 s.
    s.wait(60 * S + 300);
    let ev = s.ok(Command::Act {
        user: user(0),
        action: "1".into(),
        lag: 500,
    });
    assert!(ended(&ev).is_none());
    let gs = s.table.state().game.clone().unwrap();
    assert_eq!(gs.clock.seat(0).unwrap().main, 200);
    s.check_replay();
}

#[test]
fn qq_clock_at_the_table_move_time_and_countdown() {
    // The seed's example: 30 min / 5 min / 3 min.
    let mut s = Script::<Count>::started(cfg(TimeControl::qq(30, 5, 180)));
    both_moved(&mut s);
    s.play(0, 4 * M + 59 * S, "1");
    // Bob thinks 5 minutes: loses on move time though 30 minutes of game time remain.
    s.wait(5 * M);
    let (o, _) = ended(&s.tick()).unwrap();
    assert_eq!(o.reason, EndReason::Timeout);
    assert_eq!(o.results, vec![SeatResult::Win, SeatResult::Loss]);
    s.check_replay();

    let mut s = Script::<Count>::started(cfg(TimeControl::qq(30, 5, 180)));
    both_moved(&mut s);
    for _ in 0..7 {
        s.play(0, 4 * M + 30 * S, "1");
        s.play(1, S, "1");
    }
    let gs = s.table.state().game.clone().unwrap();
    assert_eq!(gs.clock.seat(0).unwrap().main, 0, "game time is gone");
    // Now 3 minutes per move: 2:59 is fine, 3:00 loses.
    s.play(0, 2 * M + 59 * S, "1");
    s.play(1, S, "1");
    s.wait(3 * M);
    let (o, _) = ended(&s.tick()).unwrap();
    assert_eq!(o.reason, EndReason::Timeout);
    assert_eq!(o.results, vec![SeatResult::Loss, SeatResult::Win]);
    s.check_replay();
}

#[test]
fn escape_after_the_grace_time() {
    let mut c = cfg(TimeControl::fischer(10, 0));
    c.settings.rated = true;
    let mut s = Script::<Count>::started(c);
    both_moved(&mut s);
    // Rapid: two minutes of grace by default.
    let ev = s.ok(Command::Disconnect { user: user(1) });
    assert_eq!(
        ev,
        vec![Event::Disconnected {
            seat: Seat(1),
            deadline: Some(s.now + 2 * M)
        }]
    );
    s.wait(M);
    s.ok(Command::Reconnect { user: user(1) });
    s.wait(5 * M);
    assert!(s.tick().is_empty(), "came back in time");
    s.play(0, S, "1");
    s.ok(Command::Disconnect { user: user(1) });
    s.wait(2 * M - 1);
    assert!(s.tick().is_empty());
    s.wait(1);
    let (o, rated) = ended(&s.tick()).unwrap();
    assert_eq!(o.reason, EndReason::Escape);
    assert_eq!(o.results, vec![SeatResult::Win, SeatResult::Loss]);
    assert!(rated);
    s.check_replay();
}

#[test]
fn grace_is_configurable_and_longer_for_slow_games() {
    assert!(
        qiyuan_table::default_grace(&TimeControl::fischer(1, 0))
            < qiyuan_table::default_grace(&TimeControl::fischer(30, 20))
    );
    let mut c = cfg(TimeControl::fischer(10, 0));
    c.grace = Some(10 * S);
    let mut s = Script::<Count>::started(c);
    both_moved(&mut s);
    s.ok(Command::Disconnect { user: user(0) });
    s.wait(10 * S);
    assert_eq!(ended(&s.tick()).unwrap().0.reason, EndReason::Escape);
}

#[test]
fn escape_before_both_moved_aborts() {
    let mut c = cfg(TimeControl::fischer(10, 0));
    c.first_move = Some(5 * M);
    let mut s = Script::<Count>::started(c);
    s.play(0, S, "1");
    s.ok(Command::Disconnect { user: user(1) });
    s.wait(2 * M);
    assert_eq!(ended(&s.tick()).unwrap().0.reason, EndReason::Aborted);
}

#[test]
fn a_restart_does_not_charge_the_downtime() {
    let mut s = Script::<Count>::started(cfg(TimeControl::fischer(5, 0)));
    both_moved(&mut s);
    s.wait(10 * S);
    let down = s.now;
    // The server is down for an hour, then rebuilt from its log.
    s.wait(60 * M);
    let mut table =
        qiyuan_table::Table::<Count>::replay(s.table.config().clone(), s.table.log()).unwrap();
    let ev = table
        .apply(Command::Restart { down_since: down }, s.now)
        .unwrap();
    // Blitz: a minute's grace to reconnect.
    assert!(ev.contains(&Event::Disconnected {
        seat: Seat(0),
        deadline: Some(s.now + M)
    }));
    s.table = table;
    // Everyone is away: only the clock runs, from where it stopped.
    assert_eq!(s.table.next_deadline(), Some(s.now + 5 * M - 10 * S));
    s.ok(Command::Reconnect { user: user(0) });
    assert_eq!(s.table.next_deadline(), Some(s.now + M), "bob's grace");
    s.ok(Command::Reconnect { user: user(1) });
    assert_eq!(s.table.next_deadline(), Some(s.now + 5 * M - 10 * S));
    s.play(0, 20 * S, "1");
    let gs = s.table.state().game.clone().unwrap();
    assert_eq!(gs.clock.seat(0).unwrap().main, 5 * M - 30 * S);
    s.check_replay();
}

#[test]
fn rematch_swaps_colours() {
    let mut s = Script::<Count>::started(cfg(TimeControl::None));
    both_moved(&mut s);
    s.ok(Command::Resign { user: user(0) });
    assert_eq!(
        s.refused(Command::Rematch { user: user(2) }).kind,
        K::NotSeated
    );
    s.ok(Command::Rematch { user: user(1) });
    let ev = s.ok(Command::Rematch { user: user(0) });
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Started { game: 2, .. }))
    );
    assert_eq!(s.table.seat_of("bob"), Some(Seat(0)));
    assert_eq!(s.table.state().status, Status::Playing);
    s.play(1, S, "2");
    s.check_replay();
}

#[test]
fn three_seats() {
    let mut s = Script::<Count>::started(count_config(
        TimeControl::fischer(1, 0),
        CountOptions {
            seats: 3,
            ..CountOptions::default()
        },
    ));
    assert_eq!(s.table.seats(), 3);
    s.play(0, S, "1");
    s.play(1, S, "1");
    assert_eq!(
        s.table.state().game.as_ref().unwrap().clock.running_seat(),
        None
    );
    s.play(2, S, "1");
    assert_eq!(
        s.table.state().game.as_ref().unwrap().clock.running_seat(),
        Some(0)
    );
    s.wait(60 * S);
    let (o, _) = ended(&s.tick()).unwrap();
    assert_eq!(
        o.results,
        vec![SeatResult::Loss, SeatResult::Win, SeatResult::Win]
    );
    s.ok(Command::Rematch { user: user(0) });
    s.ok(Command::Rematch { user: user(1) });
    s.ok(Command::Rematch { user: user(2) });
    assert_eq!(s.table.seat_of("carol"), Some(Seat(0)));
    s.check_replay();
}

/// Found by the replay property: a move by a seat whose flag and escape timer
/// are both due settles its own flag; the log must replay to the same result.
#[test]
fn a_late_move_with_an_escape_due_replays() {
    let mut s = Script::<Count>::started(cfg(TimeControl::fischer(5, 3)));
    both_moved(&mut s);
    s.play(0, 244_207, "1");
    s.ok(Command::Disconnect { user: user(0) });
    s.play(1, 0, "1");
    s.wait(60 * S);
    let ev = s.ok(Command::Act {
        user: user(0),
        action: "1".into(),
        lag: 0,
    });
    assert_eq!(ended(&ev).unwrap().0.reason, EndReason::Timeout);
    s.check_replay();
}

#[test]
fn an_absent_player_loses_the_seat_between_games() {
    let mut s = Script::<Count>::new(cfg(TimeControl::fischer(10, 0)));
    s.ok(Command::Sit {
        user: user(0),
        seat: Seat(0),
    });
    s.ok(Command::Disconnect { user: user(0) });
    assert_eq!(s.table.next_deadline(), Some(s.now + 2 * M));
    s.wait(2 * M);
    assert_eq!(
        s.tick(),
        vec![Event::Stood {
            seat: Seat(0),
            user: user(0)
        }]
    );
    assert_eq!(s.table.seat_of("alice"), None);
    s.check_replay();
}

#[test]
fn canadian_overtime_at_the_table() {
    let mut s = Script::<Count>::started(cfg(TimeControl::canadian(1, 2, 1)));
    both_moved(&mut s);
    // Alice's main minute runs out in this move, 20 s into her first period.
    s.play(0, 80 * S, "1");
    s.play(1, S, "1");
    // One more move in the 40 s left of the period.
    assert_eq!(s.table.next_deadline(), Some(s.now + 40 * S));
    s.play(0, 39 * S, "1");
    s.play(1, S, "1");
    // A fresh period: two moves in a minute.
    assert_eq!(s.table.next_deadline(), Some(s.now + 60 * S));
    s.play(0, 30 * S, "1");
    s.play(1, S, "1");
    s.wait(30 * S);
    let (o, _) = ended(&s.tick()).unwrap();
    assert_eq!(o.reason, EndReason::Timeout);
    assert_eq!(o.results, vec![SeatResult::Loss, SeatResult::Win]);
    s.check_replay();
}

#[test]
fn correspondence_days_per_move() {
    let day = qiyuan_table::clock::DAY;
    let mut s = Script::<Count>::started(cfg(TimeControl::Correspondence { days: 2 }));
    // The first-move timer is the time per move.
    assert_eq!(s.table.next_deadline(), Some(s.now + 2 * day));
    both_moved(&mut s);
    s.play(0, 2 * day - 1, "1");
    s.play(1, day, "1");
    assert_eq!(s.table.next_deadline(), Some(s.now + 2 * day));
    s.wait(2 * day);
    assert_eq!(ended(&s.tick()).unwrap().0.reason, EndReason::Timeout);
}

/// Found by the replay property: an escape ends the game and then frees the
/// absent player's seat in the same tick, so a command after it replays the same.
#[test]
fn escape_then_seat_freed_in_one_tick() {
    let mut s = Script::<Count>::started(cfg(TimeControl::fischer(5, 3)));
    s.ok(Command::Disconnect { user: user(0) });
    s.wait(60 * S);
    let r = s
        .apply(Command::Propose {
            user: user(0),
            settings: qiyuan_table::Settings::casual(TimeControl::fischer(1, 0)),
        })
        .unwrap_err();
    assert_eq!(r.kind, K::NotSeated);
    assert_eq!(ended(&r.fired).unwrap().0.reason, EndReason::Aborted);
    assert!(r.fired.contains(&Event::Stood {
        seat: Seat(0),
        user: user(0)
    }));
    s.check_replay();
}

#[test]
fn correspondence_players_may_be_away() {
    let day = qiyuan_table::clock::DAY;
    let mut s = Script::<Count>::started(cfg(TimeControl::Correspondence { days: 3 }));
    both_moved(&mut s);
    let ev = s.ok(Command::Disconnect { user: user(1) });
    assert_eq!(
        ev,
        vec![Event::Disconnected {
            seat: Seat(1),
            deadline: None
        }]
    );
    s.play(0, day, "1");
    // Bob is away for two days, then moves: only the time per move counts.
    s.wait(2 * day);
    assert!(s.tick().is_empty());
    s.ok(Command::Reconnect { user: user(1) });
    s.play(1, 0, "1");
    assert_eq!(s.table.state().status, Status::Playing);
    s.check_replay();
}

#[test]
fn nobody_wins_by_escape_while_away_too() {
    let mut s = Script::<Count>::started(cfg(TimeControl::fischer(10, 0)));
    both_moved(&mut s);
    s.ok(Command::Disconnect { user: user(0) });
    s.wait(S);
    s.ok(Command::Disconnect { user: user(1) });
    s.wait(5 * M);
    assert!(s.tick().is_empty(), "both away: no escape");
    // Bob comes back: Alice has been away longer than the grace and loses.
    let ev = s.ok(Command::Reconnect { user: user(1) });
    let (o, _) = ended(&ev).unwrap();
    assert_eq!(o.reason, EndReason::Escape);
    assert_eq!(o.results, vec![SeatResult::Loss, SeatResult::Win]);
    s.check_replay();
}

// ----- the QQ clock's move time (步时) on the first moves ---------------------------

#[test]
fn qq_move_time_runs_from_the_first_move_instead_of_the_first_move_timer() {
    // QQ's quick mode: 10 min game time, 1 min per move, 30 s count-down.
    let mut c = cfg(TimeControl::qq(10, 1, 30));
    c.settings.rated = true;
    let mut s = Script::<Count>::started(c);
    let gs = s.table.state().game.clone().unwrap();
    assert_eq!(gs.clock.running_seat(), Some(0), "the clock runs at once");
    assert_eq!(s.table.first_move_deadline(), None);
    assert_eq!(s.table.next_deadline(), Some(s.now + M));
    // 40 s on the first move: past the 30 s first-move timer, within 步时, and
    // charged to game time (局时) like any move.
    s.play(0, 40 * S, "1");
    let gs = s.table.state().game.clone().unwrap();
    assert!(gs.outcome.is_none());
    assert_eq!(gs.clock.seat(0).unwrap().main, 10 * M - 40 * S);
    assert_eq!(gs.clock.running_seat(), Some(1));
    assert_eq!(s.table.next_deadline(), Some(s.now + M));
    // Bob's first move takes the whole minute: only one side had moved, so the
    // game ends without counting (seed 002: 分数将不会进行计算).
    s.wait(M - 1);
    assert!(s.tick().is_empty());
    s.wait(1);
    let (o, rated) = ended(&s.tick()).expect("over on move time");
    assert_eq!(o.reason, EndReason::Aborted);
    assert_eq!(o.results, vec![SeatResult::Void; 2]);
    assert!(!rated);
    s.check_replay();
}

#[test]
fn qq_move_time_ends_a_game_on_its_very_first_move() {
    let mut s = Script::<Count>::started(cfg(TimeControl::qq(10, 1, 30)));
    // A first move that arrives after the minute is too late, without a tick.
    let ev = s.play(0, M, "1");
    let (o, rated) = ended(&ev).expect("too late");
    assert_eq!(o.reason, EndReason::Aborted);
    assert!(!rated);
    assert!(!ev.iter().any(|e| matches!(e, Event::Acted { .. })));
    s.check_replay();
}

#[test]
fn qq_move_time_on_a_first_move_loses_at_a_tournament_table() {
    let mut c = cfg(TimeControl::qq(10, 1, 30));
    c.tournament = true;
    c.settings.rated = true;
    let mut s = Script::<Count>::started(c);
    s.play(0, 10 * S, "1");
    s.wait(M);
    let (o, rated) = ended(&s.tick()).expect("lost");
    assert_eq!(o.reason, EndReason::Timeout);
    assert_eq!(o.results, vec![SeatResult::Win, SeatResult::Loss]);
    assert!(!rated, "a game decided on a first move is not rated");
    s.check_replay();
}

#[test]
fn qq_move_time_after_both_first_moves_loses_as_before() {
    let mut c = cfg(TimeControl::qq(10, 1, 30));
    c.settings.rated = true;
    let mut s = Script::<Count>::started(c);
    both_moved(&mut s);
    // Alice is to move again and thinks a minute.
    s.wait(M);
    let (o, rated) = ended(&s.tick()).expect("lost");
    assert_eq!(o.reason, EndReason::Timeout);
    assert_eq!(o.results, vec![SeatResult::Loss, SeatResult::Win]);
    assert!(rated);
    s.check_replay();
}

#[test]
fn qq_move_time_survives_a_takeback_and_a_restart_before_both_moved() {
    let mut s = Script::<Count>::started(cfg(TimeControl::qq(10, 1, 30)));
    s.play(0, 10 * S, "1");
    s.ok(Command::RequestTakeback { user: user(0) });
    s.wait(5 * S);
    s.ok(Command::AcceptTakeback { user: user(1) });
    // Alice is to move again and her clock runs again.
    let gs = s.table.state().game.clone().unwrap();
    assert_eq!(gs.clock.running_seat(), Some(0));
    assert_eq!(s.table.next_deadline(), Some(s.now + M));
    // The server is down for ten minutes: not charged.
    let down = s.now + 20 * S;
    s.wait(10 * M);
    s.ok(Command::Restart { down_since: down });
    s.ok(Command::Reconnect { user: user(0) });
    s.ok(Command::Reconnect { user: user(1) });
    let ev = s.play(0, S, "1");
    assert!(ended(&ev).is_none(), "{ev:?}");
    s.check_replay();
}

#[test]
fn a_qq_clock_without_move_time_keeps_the_first_move_timer() {
    let mut s = Script::<Count>::started(cfg(TimeControl::qq(10, 0, 30)));
    let gs = s.table.state().game.clone().unwrap();
    assert_eq!(gs.clock.running_seat(), None);
    assert_eq!(s.table.first_move_deadline(), Some(s.now + 30 * S));
    s.wait(30 * S);
    let (o, _) = ended(&s.tick()).expect("aborted");
    assert_eq!(o.reason, EndReason::Aborted);
    s.check_replay();
}

fn end_detail(s: &Script<Count>) -> Option<EndDetail> {
    s.table.state().game.as_ref().and_then(|g| g.end_detail)
}

fn qq(game: u64, per_move: u64, countdown: u64) -> TimeControl {
    TimeControl::Qq {
        game,
        per_move,
        countdown,
    }
}

#[test]
fn the_end_says_which_limit_ran_out_and_why_a_game_did_not_count() {
    // The first-move timer.
    let mut s = Script::<Count>::started(cfg(TimeControl::fischer(3, 2)));
    s.wait(30 * S);
    ended(&s.tick()).expect("aborted");
    assert_eq!(end_detail(&s), Some(EndDetail::FirstMove));
    s.check_replay();
    // A player's abort.
    let mut s = Script::<Count>::started(cfg(TimeControl::fischer(3, 2)));
    s.play(0, S, "1");
    s.ok(Command::Abort { user: user(1) });
    assert_eq!(end_detail(&s), Some(EndDetail::Abort));
    // Only one side had moved when the second one's 步时 ran out: not counted.
    let mut s = Script::<Count>::started(cfg(qq(M, 20 * S, 10 * S)));
    s.play(0, S, "1");
    s.wait(20 * S);
    let (o, _) = ended(&s.tick()).expect("ended");
    assert_eq!(o.reason, EndReason::Aborted);
    assert_eq!(end_detail(&s), Some(EndDetail::NotCounted));
    s.check_replay();
    // 步时 once both have moved, flagged by the timer.
    let mut s = Script::<Count>::started(cfg(qq(M, 20 * S, 10 * S)));
    both_moved(&mut s);
    s.wait(20 * S);
    let (o, _) = ended(&s.tick()).expect("ended");
    assert_eq!(o.reason, EndReason::Timeout);
    assert_eq!(end_detail(&s), Some(EndDetail::MoveTime));
    s.check_replay();
    // A move arriving after 步时 ran out loses the same way.
    let mut s = Script::<Count>::started(cfg(qq(M, 20 * S, 10 * S)));
    both_moved(&mut s);
    s.play(0, 21 * S, "1");
    assert_eq!(s.outcome().unwrap().reason, EndReason::Timeout);
    assert_eq!(end_detail(&s), Some(EndDetail::MoveTime));
    // 局时 ran into 读秒, which ran out.
    let mut s = Script::<Count>::started(cfg(qq(20 * S, 0, 10 * S)));
    both_moved(&mut s);
    s.wait(29 * S);
    assert!(s.tick().is_empty());
    s.wait(S);
    ended(&s.tick()).expect("ended");
    assert_eq!(end_detail(&s), Some(EndDetail::Countdown));
    // No 读秒: 局时 itself.
    let mut s = Script::<Count>::started(cfg(qq(20 * S, 0, 0)));
    both_moved(&mut s);
    s.wait(20 * S);
    ended(&s.tick()).expect("ended");
    assert_eq!(end_detail(&s), Some(EndDetail::MainTime));
    // A resignation says it all by its reason.
    let mut s = Script::<Count>::started(cfg(TimeControl::fischer(3, 2)));
    both_moved(&mut s);
    s.ok(Command::Resign { user: user(0) });
    assert_eq!(end_detail(&s), None);
    // Resigning before the other side moved does not count.
    let mut s = Script::<Count>::started(cfg(TimeControl::fischer(3, 2)));
    s.play(0, S, "1");
    s.ok(Command::Resign { user: user(1) });
    assert_eq!(s.outcome().unwrap().reason, EndReason::Aborted);
    assert_eq!(end_detail(&s), Some(EndDetail::NotCounted));
    s.check_replay();
}

#[test]
fn a_declined_proposal_is_told_to_the_proposer_and_changes_nothing_else() {
    let mut s = Script::<Count>::new(cfg(TimeControl::fischer(3, 2)));
    for i in 0..2 {
        s.ok(Command::Sit {
            user: user(i),
            seat: Seat(i),
        });
    }
    let mut settings = s.table.state().proposal.settings.clone();
    settings.time = TimeControl::fischer(10, 0);
    s.ok(Command::Propose {
        user: user(0),
        settings,
    });
    let id = s.table.state().proposal.id;
    assert_eq!(
        s.refused(Command::Decline {
            user: user(0),
            proposal: id
        })
        .kind,
        K::NotAllowed,
        "one's own proposal"
    );
    assert_eq!(
        s.refused(Command::Decline {
            user: user(1),
            proposal: id + 1
        })
        .kind,
        K::StaleProposal
    );
    assert_eq!(
        s.refused(Command::Decline {
            user: user(2),
            proposal: id
        })
        .kind,
        K::NotSeated
    );
    let ev = s.ok(Command::Decline {
        user: user(1),
        proposal: id,
    });
    assert_eq!(
        ev,
        vec![Event::Declined {
            seat: Seat(1),
            proposal: id
        }]
    );
    assert_eq!(s.table.state().proposal.id, id, "the proposal stands");
    assert_eq!(s.table.state().seats[1].accepted, None);
    // Changing one's mind: accept it after all, then it cannot be declined.
    s.ok(Command::Accept {
        user: user(1),
        proposal: id,
    });
    assert_eq!(
        s.refused(Command::Decline {
            user: user(1),
            proposal: id
        })
        .kind,
        K::NotAllowed
    );
    s.check_replay();
}

#[test]
fn no_rematch_once_the_opponent_left() {
    let mut s = Script::<Count>::started(cfg(TimeControl::None));
    both_moved(&mut s);
    s.ok(Command::Resign { user: user(0) });
    s.ok(Command::Rematch { user: user(0) });
    assert!(s.table.state().seats[0].rematch);
    s.ok(Command::Leave { user: user(1) });
    // The offer went with the opponent, and a new one is refused.
    assert!(!s.table.state().seats[0].rematch);
    assert_eq!(
        s.refused(Command::Rematch { user: user(0) }).kind,
        K::NotAllowed
    );
    // Someone new sits down: asking is possible again.
    s.ok(Command::Sit {
        user: user(2),
        seat: Seat(1),
    });
    s.ok(Command::Rematch { user: user(0) });
    s.check_replay();
}

#[test]
fn a_credit_gives_back_a_stall_without_touching_presence() {
    let mut s = Script::<Count>::started(cfg(TimeControl::fischer(5, 0)));
    both_moved(&mut s);
    s.wait(10 * S);
    let from = s.now;
    // The server stalls for 20 s; the flag would have fallen had it been
    // five minutes, and the credit comes before any timer fires.
    s.wait(20 * S);
    let to = s.now;
    s.wait(2 * S);
    let ev = s.table.apply(Command::Credit { from, to }, s.now).unwrap();
    assert!(matches!(ev.as_slice(), [Event::Resumed { .. }]), "{ev:?}");
    // Nobody was marked away.
    assert!(
        s.table
            .state()
            .seats
            .iter()
            .all(|x| x.absent_since.is_none())
    );
    // 10 s before the stall and 2 s after it are charged; the 20 s are not.
    assert_eq!(s.table.next_deadline(), Some(s.now + 5 * M - 12 * S));
    // A credit of a time before the turn began gives nothing back.
    s.play(0, S, "1");
    let before = s.table.next_deadline();
    s.ok(Command::Credit { from, to });
    assert_eq!(s.table.next_deadline(), before);
    s.check_replay();
}
