//! The table with xiangqi: the seed's QQ clock example, the xiangqi draw-offer
//! rule, takebacks, aborts and escape, on a simulated clock.

mod common;

use common::*;
use qiyuan_game::{EndReason, Seat, SeatResult, Viewer};
use qiyuan_table::{Command, Event, Preset, TableConfig, TableRefusalKind as K, TimeControl};
use qiyuan_xiangqi::Xiangqi;

/// A quiet opening, red and black in turn, with no capture, check or repetition.
const OPENING: [&str; 20] = [
    "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "a9b9", "a0b0", "c6c5", "g3g4", "g6g5",
    "c3c4", "a6a5", "a3a4", "i6i5", "i3i4", "b7b6", "b2b3", "h7h6",
];

fn game(time: TimeControl) -> Script<Xiangqi> {
    Script::<Xiangqi>::started(TableConfig::casual(time))
}

/// Plays opening moves `from..to`, each taking `ms`; move i is red's when i is even.
fn opening(s: &mut Script<Xiangqi>, range: std::ops::Range<usize>, ms: u64) -> Vec<Event> {
    let mut last = Vec::new();
    for i in range {
        last = s.play((i % 2) as u8, ms, OPENING[i]);
    }
    last
}

#[test]
fn moves_are_shown_in_chinese_notation() {
    let mut s = game(TimeControl::qq(10, 1, 30));
    let ev = opening(&mut s, 0..1, S);
    let acted = ev.iter().find_map(|e| match e {
        Event::Acted {
            action, display, ..
        } => Some((action.clone(), display.clone())),
        _ => None,
    });
    assert_eq!(acted, Some(("h2e2".into(), "炮二平五".into())));
    opening(&mut s, 1..20, S);
    s.check_replay();
}

#[test]
fn qq_example_a_move_over_five_minutes_loses_while_game_time_remains() {
    // The seed: 局时 30 min, 步时 5 min, 读秒 3 min (QQ's match mode).
    let time = Preset::Match.control();
    assert_eq!(time, TimeControl::qq(30, 5, 180));
    let mut s = game(time);
    opening(&mut s, 0..2, S);
    opening(&mut s, 2..3, 4 * M + 59 * S);
    // Black has all 30 minutes of game time but thinks 5 minutes.
    s.wait(5 * M);
    let (o, _) = ended(&s.tick()).unwrap();
    assert_eq!(o.reason, EndReason::Timeout);
    assert_eq!(o.results, vec![SeatResult::Win, SeatResult::Loss]);
    assert_eq!(o.score, "1-0");
    s.check_replay();
}

#[test]
fn qq_example_once_game_time_is_gone_a_move_over_three_minutes_loses() {
    let mut s = game(Preset::Match.control());
    opening(&mut s, 0..2, S);
    // Red spends 4.5 minutes on each of seven moves: 31.5 minutes, the last move
    // running 1.5 minutes into the count-down.
    for i in 0..7 {
        s.play(0, 4 * M + 30 * S, OPENING[2 + 2 * i]);
        s.play(1, S, OPENING[3 + 2 * i]);
    }
    let red = s
        .table
        .view(Viewer::Spectator, s.now)
        .game
        .unwrap()
        .clock
        .seats[0]
        .clone();
    assert_eq!(red.main, 0);
    assert!(red.overtime);
    assert_eq!(red.move_left, Some(3 * M));
    // 2:59 is in time (5 minutes no longer matter, 3 do).
    s.play(0, 2 * M + 59 * S, OPENING[16]);
    s.play(1, S, OPENING[17]);
    // 3:00 is not: flagged whether the timer fires or the move arrives late.
    s.wait(3 * M);
    let ev = s.ok(Command::Act {
        user: user(0),
        action: OPENING[18].into(),
        lag: 0,
    });
    let (o, _) = ended(&ev).unwrap();
    assert_eq!(o.reason, EndReason::Timeout);
    assert_eq!(o.results, vec![SeatResult::Loss, SeatResult::Win]);
    s.check_replay();
}

#[test]
fn fischer_and_byo_yomi_with_xiangqi() {
    let mut s = game(TimeControl::fischer(5, 3));
    opening(&mut s, 0..4, 10 * S);
    let gs = s.table.state().game.clone().unwrap();
    assert_eq!(gs.clock.seat(0).unwrap().main, 5 * M - 10 * S + 3 * S);

    let mut s = game(TimeControl::byo_yomi(0, 2, 20));
    opening(&mut s, 0..2, S);
    // 30 s: one 20-second period overstepped and gone; the move is in time.
    opening(&mut s, 2..3, 30 * S);
    assert_eq!(
        s.table
            .state()
            .game
            .as_ref()
            .unwrap()
            .clock
            .seat(0)
            .unwrap()
            .periods,
        1
    );
    opening(&mut s, 3..4, S);
    s.wait(20 * S);
    let (o, _) = ended(&s.tick()).unwrap();
    assert_eq!(o.reason, EndReason::Timeout);
    assert_eq!(o.results, vec![SeatResult::Loss, SeatResult::Win]);
    s.check_replay();
}

#[test]
fn xiangqi_draw_offers_alternate_no_second_offer_in_a_row() {
    let mut s = game(TimeControl::qq(10, 1, 30));
    // Only after one's own move.
    assert_eq!(
        s.refused(Command::OfferDraw { user: user(0) }).kind,
        K::NotAllowed
    );
    opening(&mut s, 0..1, S);
    assert_eq!(
        s.refused(Command::OfferDraw { user: user(1) }).kind,
        K::NotAllowed
    );
    s.ok(Command::OfferDraw { user: user(0) });
    // Black refuses by moving.
    let ev = opening(&mut s, 1..2, S);
    assert!(ev.contains(&Event::DrawDeclined { seat: Seat(1) }));
    opening(&mut s, 2..3, S);
    // Red may not offer twice in a row.
    assert_eq!(
        s.refused(Command::OfferDraw { user: user(0) }).kind,
        K::TooSoon
    );
    opening(&mut s, 3..4, S);
    s.ok(Command::OfferDraw { user: user(1) });
    s.ok(Command::DeclineDraw { user: user(0) });
    opening(&mut s, 4..5, S);
    s.ok(Command::OfferDraw { user: user(0) });
    let (o, rated) = ended(&s.ok(Command::AcceptDraw { user: user(1) })).unwrap();
    assert_eq!(
        (o.reason, o.score.as_str()),
        (EndReason::Agreement, "1/2-1/2")
    );
    assert!(!rated);
    s.check_replay();
}

#[test]
fn xiangqi_takeback_accepted_and_declined() {
    let mut s = game(TimeControl::qq(10, 1, 30));
    opening(&mut s, 0..3, S);
    let fen = |s: &Script<Xiangqi>| {
        s.table
            .view(Viewer::Spectator, s.now)
            .game
            .unwrap()
            .board
            .fen
    };
    let before = fen(&s);
    opening(&mut s, 3..4, S);
    // 悔棋: black asks, red agrees.
    s.ok(Command::RequestTakeback { user: user(1) });
    let ev = s.ok(Command::AcceptTakeback { user: user(0) });
    assert!(matches!(ev[0], Event::TookBack { plies: 1, .. }));
    assert_eq!(fen(&s), before);
    assert_eq!(
        s.table
            .view(Viewer::Spectator, s.now)
            .game
            .unwrap()
            .moves
            .len(),
        3
    );
    // Black plays again and asks again; red declines.
    opening(&mut s, 3..4, S);
    s.ok(Command::RequestTakeback { user: user(1) });
    s.ok(Command::DeclineTakeback { user: user(0) });
    assert_ne!(fen(&s), before);
    // Asking again at once is refused until black has moved.
    assert_eq!(
        s.refused(Command::RequestTakeback { user: user(1) }).kind,
        K::TooSoon
    );
    opening(&mut s, 4..6, S);
    s.ok(Command::RequestTakeback { user: user(1) });
    s.check_replay();
}

#[test]
fn xiangqi_abort_and_escape() {
    let mut c = TableConfig::casual(Preset::Quick.control());
    c.settings.rated = true;
    // Red leaves after the first move, before black has moved: aborted.
    let mut s = Script::<Xiangqi>::started(c.clone());
    opening(&mut s, 0..1, S);
    let (o, rated) = ended(&s.ok(Command::Leave { user: user(0) })).unwrap();
    assert_eq!(o.reason, EndReason::Aborted);
    assert!(!rated);
    s.check_replay();

    // After both moved, black's connection drops and stays away: escape (逃跑).
    // (The default grace for 10 min / 1 min / 30 s is two minutes, longer than
    // the move time: this table sets 30 s.)
    assert_eq!(qiyuan_table::default_grace(&c.settings.time), 2 * M);
    c.grace = Some(30 * S);
    let mut s = Script::<Xiangqi>::started(c);
    opening(&mut s, 0..3, S);
    let ev = s.ok(Command::Disconnect { user: user(1) });
    let deadline = match ev[0] {
        Event::Disconnected {
            deadline: Some(d), ..
        } => d,
        ref e => panic!("{e:?}"),
    };
    assert_eq!(deadline, s.now + 30 * S);
    s.wait(30 * S);
    let (o, rated) = ended(&s.tick()).unwrap();
    assert_eq!(o.reason, EndReason::Escape);
    assert_eq!(o.results, vec![SeatResult::Win, SeatResult::Loss]);
    assert!(rated);
    s.check_replay();
}

#[test]
fn xiangqi_record_after_resignation() {
    let mut s = game(TimeControl::qq(10, 1, 30));
    opening(&mut s, 0..4, S);
    s.ok(Command::Resign { user: user(1) });
    let record = s.table.record(qiyuan_game::RecordMeta::default()).unwrap();
    assert!(record.contains("1-0"), "{record}");
    assert!(record.contains("alice"), "{record}");
    // QQ's clock has no form in the PGN standard: `?`, and its settings in a tag of their own.
    assert!(record.contains("[TimeControl \"?\"]"), "{record}");
    assert!(record.contains("[TimeControlQQ \"600/60/30\"]"), "{record}");
}

#[test]
fn three_fouls_lose() {
    let mut s = game(TimeControl::qq(10, 1, 30));
    opening(&mut s, 0..2, S);
    assert_eq!(
        s.ok(Command::Foul {
            seat: Seat(1),
            reason: None,
        }),
        vec![Event::Fouled {
            seat: Seat(1),
            count: 1,
            reason: None,
        }]
    );
    s.ok(Command::Foul {
        seat: Seat(1),
        reason: None,
    });
    assert_eq!(
        s.refused(Command::Foul {
            seat: Seat(2),
            reason: None,
        })
        .kind,
        K::NoSuchSeat
    );
    let (o, _) = ended(&s.ok(Command::Foul {
        seat: Seat(1),
        reason: None,
    }))
    .unwrap();
    assert_eq!(o.reason, EndReason::Fouls);
    assert_eq!(o.results, vec![SeatResult::Win, SeatResult::Loss]);
    s.check_replay();
}

fn tournament(time: TimeControl) -> Script<Xiangqi> {
    let mut config = TableConfig::casual(time);
    config.tournament = true;
    config.first_move = Some(24 * 60 * M);
    Script::<Xiangqi>::started(config)
}

#[test]
fn three_violations_lose_and_a_warning_changes_nothing() {
    let mut s = tournament(TimeControl::qq(10, 0, 30));
    opening(&mut s, 0..2, S);
    let warned = s.ok(Command::Warn {
        seat: Seat(0),
        reason: "spoke".into(),
    });
    assert_eq!(
        warned,
        vec![Event::Warned {
            seat: Seat(0),
            reason: "spoke".into()
        }]
    );
    for count in 1..=2 {
        assert_eq!(
            s.ok(Command::Violation {
                seat: Seat(0),
                reason: "连续提和".into()
            }),
            vec![Event::Violated {
                seat: Seat(0),
                count,
                reason: "连续提和".into()
            }]
        );
    }
    let (o, _) = ended(&s.ok(Command::Violation {
        seat: Seat(0),
        reason: "连续提和".into(),
    }))
    .unwrap();
    assert_eq!(o.results, vec![SeatResult::Loss, SeatResult::Win]);
    // Said as what it is, not as fouls.
    assert_eq!(o.reason, qiyuan_game::EndReason::Violations);
    // Nothing more at a tournament table: no rematch, no second game.
    assert_eq!(
        s.refused(Command::Rematch { user: user(0) }).kind,
        K::NotAllowed
    );
    s.check_replay();
}

#[test]
fn tournament_clock_runs_from_the_start_and_a_forfeit_is_unrated() {
    let mut s = tournament(TimeControl::Fischer {
        base: 60 * S,
        increment: 0,
    });
    // Red is late: its clock has run since the start.
    s.wait(10 * S);
    assert_eq!(
        s.refused(Command::Abort { user: user(0) }).kind,
        K::NotAllowed
    );
    let ev = s.play(0, 0, OPENING[0]);
    let main = ev
        .iter()
        .find_map(|e| match e {
            Event::Acted { clock, .. } => Some(clock.seats[0].main),
            _ => None,
        })
        .unwrap();
    assert_eq!(main, 50 * S);
    // Black never comes: the arbiter (the server) forfeits it.
    let (o, rated) = ended(&s.ok(Command::Decide {
        decision: qiyuan_table::Decision::Loses {
            seat: Seat(1),
            forfeit: true,
        },
    }))
    .unwrap();
    assert_eq!(o.reason, EndReason::Adjudication);
    assert_eq!(o.results, vec![SeatResult::Win, SeatResult::Loss]);
    assert!(!rated);
    s.check_replay();
}

#[test]
fn both_absent_is_a_void_game() {
    let mut s = tournament(TimeControl::qq(10, 0, 30));
    s.wait(15 * S);
    let (o, rated) = ended(&s.ok(Command::Decide {
        decision: qiyuan_table::Decision::Void,
    }))
    .unwrap();
    assert_eq!(o.results, vec![SeatResult::Void, SeatResult::Void]);
    assert!(!rated);
    assert_eq!(
        s.refused(Command::Decide {
            decision: qiyuan_table::Decision::Draw
        })
        .kind,
        K::NoGame
    );
    s.check_replay();
}
