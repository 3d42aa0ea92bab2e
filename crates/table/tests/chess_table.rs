//! The table with real chess: scripted games on a simulated clock.

mod common;

use common::*;
use qiyuan_chess::ChessGame;
use qiyuan_game::{Claim, EndReason, RecordMeta, Seat, SeatResult, Setup};
use qiyuan_table::{Command, Event, TableConfig, TableRefusalKind as K, TimeControl};

fn cfg(time: TimeControl) -> TableConfig {
    TableConfig::casual(time)
}

fn game(time: TimeControl) -> Script<ChessGame> {
    Script::<ChessGame>::started(cfg(time))
}

/// Plays UCI moves alternately from the seat to move, each taking `ms`.
fn moves(s: &mut Script<ChessGame>, ms: u64, list: &str) -> Vec<Event> {
    let mut last = Vec::new();
    for m in list.split_whitespace() {
        let seat = match s.table.game().map(qiyuan_game::Game::turn) {
            Some(qiyuan_game::Turn::Seat(seat)) => seat,
            t => panic!("no one to move: {t:?}"),
        };
        last = s.play(seat.0, ms, m);
    }
    last
}

#[test]
fn scholars_mate_with_clocks_in_the_record() {
    let mut s = game(TimeControl::fischer(3, 2));
    let ev = moves(&mut s, 2 * S, "e2e4 e7e5 f1c4 b8c6 d1h5 g8f6 h5f7");
    let (o, _) = ended(&ev).expect("mate");
    assert_eq!(o.reason, EndReason::Checkmate);
    assert_eq!(o.results, vec![SeatResult::Win, SeatResult::Loss]);
    let acted = ev.iter().find_map(|e| match e {
        Event::Acted { display, check, .. } => Some((display.clone(), *check)),
        _ => None,
    });
    assert_eq!(acted, Some(("Qxf7#".to_string(), true)));
    let pgn = s.table.record(RecordMeta::default()).unwrap();
    assert!(pgn.contains("Qxf7#"), "{pgn}");
    assert!(pgn.contains("alice") && pgn.contains("bob"), "{pgn}");
    // The table gives the time control as a value; PGN writes its own tag.
    assert!(pgn.contains("[TimeControl \"180+2\"]"), "{pgn}");
    s.check_replay();
}

#[test]
fn fischer_increment_is_added_after_each_move() {
    let mut s = game(TimeControl::fischer(3, 2));
    moves(&mut s, 5 * S, "e2e4 e7e5");
    moves(&mut s, 10 * S, "g1f3");
    let gs = s.table.state().game.clone().unwrap();
    assert_eq!(gs.clock.seat(0).unwrap().main, 3 * M - 10 * S + 2 * S);
    moves(&mut s, 20 * S, "b8c6 f1b5");
    let gs = s.table.state().game.clone().unwrap();
    assert_eq!(gs.clock.seat(1).unwrap().main, 3 * M - 20 * S + 2 * S);
    assert_eq!(gs.clock.seat(0).unwrap().main, 3 * M - 30 * S + 4 * S);
    s.check_replay();
}

#[test]
fn qq_example_with_chess() {
    let mut s = game(TimeControl::qq(30, 5, 180));
    moves(&mut s, S, "e2e4 e7e5");
    moves(&mut s, 4 * M, "g1f3");
    s.wait(5 * M);
    let (o, _) = ended(&s.tick()).unwrap();
    assert_eq!(
        (o.reason, o.results.clone()),
        (EndReason::Timeout, vec![SeatResult::Win, SeatResult::Loss])
    );
    s.check_replay();
}

#[test]
fn byo_yomi_periods_used_up_with_chess() {
    let mut s = game(TimeControl::byo_yomi(1, 2, 10));
    moves(&mut s, S, "e2e4 e7e5");
    // White uses the main minute and overruns one period.
    moves(&mut s, 75 * S, "g1f3");
    let gs = s.table.state().game.clone().unwrap();
    assert_eq!(gs.clock.seat(0).unwrap().periods, 1);
    moves(&mut s, S, "b8c6");
    // 9 s: within the last period, kept.
    moves(&mut s, 9 * S, "f1b5");
    moves(&mut s, S, "a7a6");
    s.wait(10 * S);
    let (o, _) = ended(&s.tick()).unwrap();
    assert_eq!(o.reason, EndReason::Timeout);
    assert_eq!(o.results, vec![SeatResult::Loss, SeatResult::Win]);
    s.check_replay();
}

#[test]
fn flag_fall_is_a_draw_when_the_opponent_cannot_mate() {
    let mut c = cfg(TimeControl::fischer(1, 0));
    // White: king and queen; black: a lone king.
    c.settings.setup = Setup::Position("4k3/8/8/8/8/8/8/3QK3 w - - 0 1".into());
    let mut s = Script::<ChessGame>::started(c.clone());
    moves(&mut s, S, "d1d2 e8f7");
    s.wait(60 * S);
    let (o, _) = ended(&s.tick()).unwrap();
    assert_eq!(o.reason, EndReason::Timeout);
    assert_eq!(o.results, vec![SeatResult::Draw, SeatResult::Draw]);
    s.check_replay();

    // The other way round, the flag loses.
    let mut s = Script::<ChessGame>::started(c);
    moves(&mut s, S, "d1d2 e8f7 d2d3");
    s.wait(60 * S);
    let (o, _) = ended(&s.tick()).unwrap();
    assert_eq!(o.results, vec![SeatResult::Win, SeatResult::Loss]);
}

#[test]
fn an_abort_before_both_sides_moved() {
    let mut c = cfg(TimeControl::fischer(5, 0));
    c.settings.rated = true;
    let mut s = Script::<ChessGame>::started(c);
    moves(&mut s, S, "e2e4");
    s.wait(30 * S);
    let (o, rated) = ended(&s.tick()).unwrap();
    assert_eq!(o.reason, EndReason::Aborted);
    assert_eq!(o.score, "*");
    assert!(!rated);
    s.check_replay();
}

#[test]
fn escape_after_the_grace_time_with_chess() {
    let mut c = cfg(TimeControl::fischer(5, 0));
    c.settings.rated = true;
    let mut s = Script::<ChessGame>::started(c);
    moves(&mut s, S, "e2e4 e7e5");
    s.ok(Command::Disconnect { user: user(0) });
    s.wait(60 * S);
    let (o, rated) = ended(&s.tick()).unwrap();
    assert_eq!(o.reason, EndReason::Escape);
    assert_eq!(o.score, "0-1");
    assert!(rated);
    s.check_replay();
}

#[test]
fn chess_draw_offers() {
    let mut s = game(TimeControl::fischer(5, 0));
    assert_eq!(
        s.refused(Command::OfferDraw { user: user(0) }).kind,
        K::NotAllowed
    );
    moves(&mut s, S, "e2e4");
    s.ok(Command::OfferDraw { user: user(0) });
    // Standing until the opponent moves.
    let ev = moves(&mut s, S, "e7e5");
    assert!(ev.contains(&Event::DrawDeclined { seat: Seat(1) }));
    s.ok(Command::OfferDraw { user: user(1) });
    s.ok(Command::DeclineDraw { user: user(0) });
    moves(&mut s, S, "g1f3");
    s.ok(Command::OfferDraw { user: user(0) });
    let (o, _) = ended(&s.ok(Command::AcceptDraw { user: user(1) })).unwrap();
    assert_eq!(
        (o.reason, o.score.as_str()),
        (EndReason::Agreement, "1/2-1/2")
    );
    s.check_replay();
}

#[test]
fn chess_takebacks() {
    let mut s = game(TimeControl::fischer(5, 0));
    moves(&mut s, S, "e2e4 e7e5 d1h5");
    s.ok(Command::RequestTakeback { user: user(0) });
    s.ok(Command::AcceptTakeback { user: user(1) });
    let fen = |s: &Script<ChessGame>| {
        s.table
            .view(qiyuan_game::Viewer::Spectator, s.now)
            .game
            .unwrap()
            .board
            .fen
    };
    assert_eq!(
        fen(&s),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    moves(&mut s, S, "g1f3");
    s.ok(Command::RequestTakeback { user: user(0) });
    s.ok(Command::DeclineTakeback { user: user(1) });
    assert_eq!(
        s.refused(Command::RequestTakeback { user: user(0) }).kind,
        K::TooSoon
    );
    assert!(fen(&s).contains("5N2"));
    s.check_replay();
}

#[test]
fn threefold_draws_by_itself_at_a_table_by_default() {
    let mut s = game(TimeControl::fischer(3, 2));
    moves(&mut s, S, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
    assert!(s.outcome().is_none());
    // The start position with white to move, a third time: drawn, nobody claims.
    let (o, rated) = ended(&moves(&mut s, S, "f6g8")).expect("drawn by the move");
    assert_eq!(o.reason, EndReason::ThreefoldRepetition);
    assert_eq!(o.results, vec![SeatResult::Draw, SeatResult::Draw]);
    assert!(!rated);
    assert_eq!(s.table.state().status, qiyuan_table::Status::Over);
    let pgn = s.table.record(RecordMeta::default()).unwrap();
    assert!(pgn.contains("[Result \"1/2-1/2\"]"), "{pgn}");
    s.check_replay();
}

#[test]
fn perpetual_check_is_drawn_at_a_table_by_default() {
    // 长将和: the queen checks from e8 and e4, the king shuttles h8-h7, until the
    // position after the first Qe8+ comes back a third time.
    let mut c = cfg(TimeControl::None);
    c.settings.setup = Setup::Position(PERPETUAL.into());
    let mut s = Script::<ChessGame>::started(c);
    let ev = moves(&mut s, S, PERPETUAL_LINE);
    let (o, _) = ended(&ev).expect("drawn by the third occurrence");
    assert_eq!(o.reason, EndReason::ThreefoldRepetition);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Acted { check: true, .. }))
    );
    s.check_replay();
}

/// Black threatens on the queenside; white's queen can check for ever.
const PERPETUAL: &str = "7k/6p1/7p/8/8/8/q4PPP/4Q1K1 w - - 0 1";
const PERPETUAL_LINE: &str = "e1e8 h8h7 e8e4 h7h8 e4e8 h8h7 e8e4 h7h8 e4e8";

#[test]
fn threefold_claim() {
    let mut c = cfg(TimeControl::None);
    c.settings.options = serde_json::json!({"repetition": "claim"});
    let mut s = Script::<ChessGame>::started(c);
    moves(&mut s, S, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
    assert_eq!(
        s.table
            .view(qiyuan_game::Viewer::Seat(Seat(0)), s.now)
            .game
            .unwrap()
            .claims,
        vec![Claim::ThreefoldRepetition]
    );
    assert!(matches!(
        s.refused(Command::Claim {
            user: user(1),
            claim: Claim::ThreefoldRepetition
        })
        .kind,
        K::Game(_)
    ));
    let (o, _) = ended(&s.ok(Command::Claim {
        user: user(0),
        claim: Claim::ThreefoldRepetition,
    }))
    .unwrap();
    assert_eq!(o.reason, EndReason::ThreefoldRepetition);
    s.check_replay();
}

#[test]
fn rematch_swaps_colours_in_chess() {
    let mut s = game(TimeControl::fischer(3, 2));
    moves(&mut s, S, "f2f3 e7e5 g2g4 d8h4");
    s.ok(Command::Rematch { user: user(0) });
    s.ok(Command::Rematch { user: user(1) });
    let gs = s.table.state().game.clone().unwrap();
    assert_eq!(gs.players, vec![user(1), user(0)]);
    // Bob has white now.
    s.play(1, S, "e2e4");
    assert_eq!(
        s.refused(Command::Act {
            user: user(1),
            action: "e7e5".into(),
            lag: 0
        })
        .kind,
        K::NotYourTurn
    );
    s.check_replay();
}

#[test]
fn games_from_a_loaded_position_are_not_rated() {
    let mut c = cfg(TimeControl::fischer(3, 2));
    c.settings.rated = true;
    c.settings.setup = Setup::Position("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".into());
    let mut s = Script::<ChessGame>::started(c);
    moves(&mut s, S, "e2e4 e8d7");
    let (_, rated) = ended(&s.ok(Command::Resign { user: user(1) })).unwrap();
    assert!(!rated);
}

#[test]
fn a_loaded_record_goes_on_from_its_last_position() {
    let mut c = cfg(TimeControl::fischer(3, 2));
    c.settings.setup = Setup::Position(
        "[Event \"?\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 *\n".into(),
    );
    let mut s = Script::<ChessGame>::started(c);
    let gs = s.table.state().game.clone().unwrap();
    assert_eq!(gs.preloaded.len(), 3);
    assert!(gs.actions.is_empty());
    // The move list shows them, in SAN, before the moves played.
    let view = s
        .table
        .view(qiyuan_game::Viewer::Spectator, s.now)
        .game
        .unwrap();
    let loaded: Vec<(&str, &str)> = view
        .loaded
        .iter()
        .map(|m| (m.action.as_str(), m.display.as_str()))
        .collect();
    assert_eq!(loaded, [("e2e4", "e4"), ("e7e5", "e5"), ("g1f3", "Nf3")]);
    assert!(view.moves.is_empty());
    // Black is to move: seat 1.
    assert_eq!(
        s.refused(Command::Act {
            user: user(0),
            action: "d2d4".into(),
            lag: 0
        })
        .kind,
        K::NotYourTurn
    );
    moves(&mut s, S, "b8c6 f1b5");
    // A takeback never goes into the loaded moves.
    s.ok(Command::RequestTakeback { user: user(1) });
    s.ok(Command::AcceptTakeback { user: user(0) });
    let fen = s
        .table
        .view(qiyuan_game::Viewer::Spectator, s.now)
        .game
        .unwrap()
        .board
        .fen;
    assert_eq!(
        fen,
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    );
    assert_eq!(
        s.refused(Command::RequestTakeback { user: user(0) }).kind,
        K::NotAllowed
    );
    s.check_replay();

    // A text that is neither a position nor a record is refused with the
    // position's error.
    let mut s = Script::<ChessGame>::new(cfg(TimeControl::None));
    s.ok(Command::Sit {
        user: user(0),
        seat: Seat(0),
    });
    let mut settings = qiyuan_table::Settings::casual(TimeControl::None);
    settings.setup = Setup::Position("not chess".into());
    assert_eq!(
        s.refused(Command::Propose {
            user: user(0),
            settings
        })
        .kind,
        K::BadSettings
    );
}

#[test]
fn a_misspelt_chess_option_is_refused() {
    let mut s = Script::<ChessGame>::new(cfg(TimeControl::None));
    s.ok(Command::Sit {
        user: user(0),
        seat: Seat(0),
    });
    let mut settings = s.table.state().proposal.settings.clone();
    settings.options = serde_json::json!({"repetition": "sometimes"});
    let r = s.refused(Command::Propose {
        user: user(0),
        settings,
    });
    assert_eq!(r.kind, K::BadSettings);
}

#[test]
fn a_loaded_records_moves_have_no_clock_in_the_pgn() {
    let mut c = cfg(TimeControl::fischer(3, 2));
    c.settings.setup = Setup::Position("1. e4 e5 *".into());
    let mut s = Script::<ChessGame>::started(c);
    moves(&mut s, 2 * S, "g1f3 b8c6");
    let pgn = s.table.record(RecordMeta::default()).unwrap();
    assert!(pgn.contains("1. e4 e5 2. Nf3 { [%clk 0:03:00] }"), "{pgn}");
    assert!(pgn.contains("2... Nc6 { [%clk 0:03:00] }"), "{pgn}");
    s.check_replay();
}

#[test]
fn a_proposed_position_is_shown_to_every_seat_before_the_game() {
    use qiyuan_game::Viewer;
    let mut s = Script::<ChessGame>::new(cfg(TimeControl::None));
    for i in 0..2 {
        s.ok(Command::Sit {
            user: user(i),
            seat: Seat(i),
        });
    }
    assert!(s.table.view(Viewer::Seat(Seat(1)), s.now).preview.is_none());
    let mut settings = qiyuan_table::Settings::casual(TimeControl::None);
    settings.setup = Setup::Position("1. e4 e5 2. Nf3 *".into());
    s.ok(Command::Propose {
        user: user(0),
        settings,
    });
    let after = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";
    for viewer in [
        Viewer::Seat(Seat(0)),
        Viewer::Seat(Seat(1)),
        Viewer::Spectator,
    ] {
        let v = s.table.view(viewer, s.now);
        assert_eq!(v.preview.expect("a preview").fen, after, "{viewer:?}");
    }
    s.check_replay();
    // Once the game starts, the game shows it; the preview is gone.
    for i in 0..2 {
        s.ok(Command::Ready {
            user: user(i),
            proposal: None,
        });
    }
    let v = s.table.view(Viewer::Seat(Seat(1)), s.now);
    assert!(v.preview.is_none());
    assert_eq!(v.game.unwrap().board.fen, after);
    // Back to the standard start: no preview.
    s.ok(Command::Abort { user: user(0) });
    s.ok(Command::Propose {
        user: user(1),
        settings: qiyuan_table::Settings::casual(TimeControl::None),
    });
    assert!(s.table.view(Viewer::Spectator, s.now).preview.is_none());
    s.check_replay();
}
