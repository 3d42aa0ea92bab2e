//! Draw offers and takebacks, with the counting game.

mod common;

use common::*;
use qiyuan_game::{DrawOffers, EndReason, Seat, SeatResult};
use qiyuan_table::{Command, Event, TableRefusalKind as K, TimeControl};

fn with_rule(rule: DrawOffers) -> Script<Count> {
    Script::<Count>::started(count_config(
        TimeControl::fischer(3, 2),
        CountOptions {
            draw_offers: rule,
            ..CountOptions::default()
        },
    ))
}

fn offer(i: u8) -> Command {
    Command::OfferDraw { user: user(i) }
}

#[test]
fn chess_offers_after_own_move_and_stand_until_the_opponent_moves() {
    let mut s = with_rule(DrawOffers::AfterOwnMove);
    // Not before one's own move.
    assert_eq!(s.refused(offer(0)).kind, K::NotAllowed);
    s.play(0, S, "1");
    assert_eq!(s.refused(offer(1)).kind, K::NotAllowed, "bob is to move");
    s.ok(offer(0));
    assert_eq!(s.refused(offer(0)).kind, K::NotAllowed, "already standing");
    assert_eq!(
        s.refused(Command::AcceptDraw { user: user(0) }).kind,
        K::NothingToAnswer
    );
    // Bob moves: the offer lapses.
    let ev = s.play(1, S, "1");
    assert!(ev.contains(&Event::DrawDeclined { seat: Seat(1) }));
    assert!(s.table.state().game.as_ref().unwrap().draw.is_none());
    // Bob may offer after his move, and Alice declines.
    s.ok(offer(1));
    s.ok(Command::DeclineDraw { user: user(0) });
    // Not again before another move of his own.
    assert_eq!(s.refused(offer(1)).kind, K::TooSoon, "one offer per move");
    s.play(0, S, "1");
    // Chess allows Alice's offer right after her move, even twice in a row.
    s.ok(offer(0));
    s.play(1, S, "1");
    s.play(0, S, "1");
    s.ok(offer(0));
    let ev = s.ok(Command::AcceptDraw { user: user(1) });
    let (o, _) = ended(&ev).unwrap();
    assert_eq!(o.reason, EndReason::Agreement);
    assert_eq!(o.results, vec![SeatResult::Draw; 2]);
    s.check_replay();
}

#[test]
fn one_offer_per_move_in_chess() {
    let mut s = with_rule(DrawOffers::AfterOwnMove);
    s.play(0, S, "1");
    s.ok(offer(0));
    s.ok(Command::DeclineDraw { user: user(1) });
    assert_eq!(s.refused(offer(0)).kind, K::TooSoon);
}

#[test]
fn xiangqi_offers_alternate_and_cannot_be_withdrawn() {
    let mut s = with_rule(DrawOffers::AlternatingAfterOwnMove);
    assert_eq!(s.refused(offer(0)).kind, K::NotAllowed);
    s.play(0, S, "1");
    s.ok(offer(0));
    // A move refuses it.
    let ev = s.play(1, S, "1");
    assert!(ev.contains(&Event::DrawDeclined { seat: Seat(1) }));
    s.play(0, S, "1");
    // No second offer in a row: it is Bob's turn to offer.
    assert_eq!(s.refused(offer(0)).kind, K::TooSoon);
    s.play(1, S, "1");
    s.ok(offer(1));
    s.ok(Command::DeclineDraw { user: user(0) });
    s.play(0, S, "1");
    // Now Alice may offer again.
    s.ok(offer(0));
    let ev = s.ok(Command::AcceptDraw { user: user(1) });
    assert_eq!(ended(&ev).unwrap().0.reason, EndReason::Agreement);
    s.check_replay();
}

fn takeback(i: u8) -> Command {
    Command::RequestTakeback { user: user(i) }
}

fn total(s: &Script<Count>) -> u32 {
    s.table
        .game()
        .map(|g| qiyuan_game::Game::view(g, qiyuan_game::Viewer::Spectator).total)
        .unwrap()
}

#[test]
fn takeback_accepted_restores_the_position() {
    let mut s = with_rule(DrawOffers::AfterOwnMove);
    assert_eq!(
        s.refused(takeback(0)).kind,
        K::NotAllowed,
        "nothing to take back"
    );
    s.play(0, S, "1");
    s.play(1, S, "2");
    s.play(0, S, "3");
    assert_eq!(total(&s), 6);
    // Alice takes back her last move (Bob to move now).
    s.ok(takeback(0));
    assert_eq!(
        s.refused(takeback(0)).kind,
        K::NotAllowed,
        "one request at a time"
    );
    assert_eq!(
        s.refused(Command::AcceptTakeback { user: user(0) }).kind,
        K::NothingToAnswer
    );
    let ev = s.ok(Command::AcceptTakeback { user: user(1) });
    assert!(matches!(ev[0], Event::TookBack { plies: 1, .. }));
    assert_eq!(total(&s), 3);
    assert_eq!(
        s.table.state().game.as_ref().unwrap().clock.running_seat(),
        Some(0)
    );
    // Bob, on Alice's turn, takes back his move.
    s.ok(takeback(1));
    let ev = s.ok(Command::AcceptTakeback { user: user(0) });
    assert!(matches!(ev[0], Event::TookBack { plies: 1, .. }));
    assert_eq!(total(&s), 1);
    // Alice, on Bob's turn, takes back her reply and his move before it: two
    // plies... here only her first move: one ply, and the game is back at the start.
    s.ok(takeback(0));
    let ev = s.ok(Command::AcceptTakeback { user: user(1) });
    assert!(matches!(ev[0], Event::TookBack { plies: 1, .. }));
    assert_eq!(total(&s), 0);
    s.play(0, S, "2");
    // Bob has not moved any more: his first-move timer runs again and no clock.
    assert_eq!(
        s.table.state().game.as_ref().unwrap().clock.running_seat(),
        None
    );
    s.play(1, S, "1");
    s.check_replay();
}

#[test]
fn takeback_declined_blocks_the_requester_until_they_move() {
    let mut s = with_rule(DrawOffers::AfterOwnMove);
    s.play(0, S, "1");
    s.play(1, S, "2");
    s.play(0, S, "3");
    s.ok(takeback(0));
    let ev = s.ok(Command::DeclineTakeback { user: user(1) });
    assert_eq!(ev, vec![Event::TakebackDeclined { seat: Seat(1) }]);
    assert_eq!(total(&s), 6);
    assert_eq!(s.refused(takeback(0)).kind, K::TooSoon);
    s.play(1, S, "1");
    assert_eq!(
        s.refused(takeback(0)).kind,
        K::TooSoon,
        "alice has not moved yet"
    );
    s.play(0, S, "1");
    s.ok(takeback(0));
    // A move by the opponent cancels the request.
    let ev = s.play(1, S, "1");
    assert!(ev.contains(&Event::TakebackDeclined { seat: Seat(1) }));
    s.check_replay();
}

#[test]
fn takebacks_can_be_off() {
    let mut c = count_config(TimeControl::None, CountOptions::default());
    c.settings.takebacks = false;
    let mut s = Script::<Count>::started(c);
    s.play(0, S, "1");
    assert_eq!(s.refused(takeback(0)).kind, K::NotAllowed);
}

#[test]
fn takeback_charges_the_time_used_without_increment() {
    let mut s = with_rule(DrawOffers::AfterOwnMove);
    s.play(0, S, "1");
    s.play(1, S, "1");
    s.play(0, 10 * S, "1");
    // Bob's clock runs; he thinks 20 s, then Alice asks and Bob agrees.
    s.wait(20 * S);
    s.ok(takeback(0));
    s.ok(Command::AcceptTakeback { user: user(1) });
    let gs = s.table.state().game.clone().unwrap();
    assert_eq!(gs.clock.seat(1).unwrap().main, 3 * M - 20 * S);
    assert_eq!(gs.clock.seat(0).unwrap().main, 3 * M - 10 * S + 2 * S);
    assert_eq!(gs.clock.running_seat(), Some(0));
    s.check_replay();
}

#[test]
fn takeback_on_ones_own_turn_takes_back_two_plies() {
    let mut s = with_rule(DrawOffers::AfterOwnMove);
    s.play(0, S, "1");
    s.play(1, S, "2");
    // Alice to move; she takes back her move and Bob's reply.
    s.ok(takeback(0));
    let ev = s.ok(Command::AcceptTakeback { user: user(1) });
    assert!(matches!(ev[0], Event::TookBack { plies: 2, .. }));
    assert_eq!(total(&s), 0);
    s.check_replay();
}
