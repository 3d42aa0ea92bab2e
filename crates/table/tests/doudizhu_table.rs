//! The table with three seats and hidden hands: Doudizhu.

mod common;

use common::*;
use qiyuan_doudizhu::Doudizhu;
use qiyuan_game::{EndReason, Game, Seat, SeatResult, Secret, Setup, Turn, Viewer};
use qiyuan_table::{Command, Table, TableConfig, TableRefusalKind as K, TimeControl};

fn config() -> TableConfig {
    // Doudizhu's quick preset (the server's registry): 20 s a turn.
    TableConfig::casual(TimeControl::Qq {
        game: 0,
        per_move: 0,
        countdown: 20_000,
    })
}

fn to_act(s: &Script<Doudizhu>) -> u8 {
    match s.table.game().unwrap().turn() {
        Turn::Seat(seat) => seat.0,
        t => panic!("{t:?}"),
    }
}

#[test]
fn a_hand_starts_only_with_a_secret_on_offer() {
    let mut t = Table::<Doudizhu>::new(config()).unwrap();
    for i in 0..3 {
        t.apply(
            Command::Sit {
                user: user(i),
                seat: Seat(i),
            },
            1,
        )
        .unwrap();
    }
    for i in 0..2 {
        t.apply(
            Command::Ready {
                user: user(i),
                proposal: None,
            },
            2,
        )
        .unwrap();
    }
    let last = Command::Ready {
        user: user(2),
        proposal: None,
    };
    let before = t.clone();
    let refused = t.apply(last.clone(), 3).unwrap_err();
    assert_eq!(refused.kind, K::BadSettings, "{refused:?}");
    assert!(t == before, "the refusal changed nothing");
    let secret = Secret([0xA7; 32]);
    t.apply_with(last, 3, Some(secret)).unwrap();
    assert_eq!(
        t.state().game.as_ref().unwrap().setup,
        Setup::Secret(secret)
    );
    // The command that started the hand keeps its secret, and no other entry does.
    let dealt: Vec<usize> = (0..t.log().len())
        .filter(|&i| t.log()[i].deal.is_some())
        .collect();
    assert_eq!(dealt, vec![t.log().len() - 1]);
    assert_eq!(t.log().last().unwrap().deal, Some(secret));
    // A secret offered to a command that starts nothing is forgotten.
    let mut u = t.clone();
    u.apply_with(Command::Tick, 4, Some(Secret([1; 32])))
        .unwrap();
    assert!(u.log().iter().filter(|e| e.deal.is_some()).count() == 1);
    // The log replays the same deal.
    let replayed = Table::<Doudizhu>::replay(config(), t.log()).unwrap();
    assert!(replayed == t);
    assert_eq!(replayed.game().unwrap().deal(), t.game().unwrap().deal());
}

#[test]
fn a_legacy_table_seed_still_replays() {
    // Tables created before per-hand secrets kept one seed for every hand; their
    // logs (entries without secrets) still replay from it.
    let mut c = config();
    c.deal_seed = Some(0x5eed_1234);
    let mut t = Table::<Doudizhu>::new(c.clone()).unwrap();
    for i in 0..3 {
        t.apply(
            Command::Sit {
                user: user(i),
                seat: Seat(i),
            },
            1,
        )
        .unwrap();
    }
    for i in 0..3 {
        t.apply(
            Command::Ready {
                user: user(i),
                proposal: None,
            },
            2,
        )
        .unwrap();
    }
    assert!(matches!(
        t.state().game.as_ref().unwrap().setup,
        Setup::Seed(_)
    ));
    let replayed = Table::<Doudizhu>::replay(c, t.log()).unwrap();
    assert_eq!(replayed.game().unwrap().deal(), t.game().unwrap().deal());
}

#[test]
fn three_players_hidden_hands_and_a_secret_deal() {
    let mut s = Script::<Doudizhu>::started(config());
    assert_eq!(s.table.seats(), 3);
    let gs = s.table.state().game.clone().unwrap();
    assert!(
        matches!(gs.setup, Setup::Secret(_)),
        "the deal comes from a secret of its own"
    );
    // Each seat sees its own hand only; spectators see none.
    for i in 0..3 {
        let v = s.table.view(Viewer::Seat(Seat(i)), s.now);
        assert!(v.game.unwrap().board.hand.is_some());
    }
    let spectator = s.table.view(Viewer::Spectator, s.now).game.unwrap().board;
    assert!(spectator.hand.is_none() && spectator.bottom.is_none());
    // The secret is never in what a client receives.
    let Setup::Secret(secret) = gs.setup else {
        unreachable!()
    };
    for viewer in [Viewer::Spectator, Viewer::Seat(Seat(0))] {
        let json = serde_json::to_string(&s.table.view(viewer, s.now)).unwrap();
        assert!(!json.contains(&secret.to_hex()));
    }

    // Bidding: every seat passes, except the last who bids 3.
    let mut events = Vec::new();
    for _ in 0..2 {
        let i = to_act(&s);
        events.extend(s.play(i, S, "pass"));
    }
    let i = to_act(&s);
    events.extend(s.play(i, S, "bid 3"));
    let json = serde_json::to_string(&events).unwrap();
    for seat in 0..3 {
        let hand = s
            .table
            .view(Viewer::Seat(Seat(seat)), s.now)
            .game
            .unwrap()
            .board
            .hand
            .unwrap();
        assert!(!json.contains(&format!("{hand}")), "an event leaked a hand");
    }
    // Every seat has acted: the landlord's clock runs (20 s count-down).
    let landlord = to_act(&s);
    assert_eq!(landlord, i);
    assert_eq!(s.table.next_deadline(), Some(s.now + 20 * S));
    s.wait(20 * S);
    let (o, _) = ended(&s.tick()).unwrap();
    assert_eq!(o.reason, EndReason::Timeout);
    assert_eq!(o.results[landlord as usize], SeatResult::Loss);
    assert_eq!(
        o.results.iter().filter(|r| **r == SeatResult::Win).count(),
        2
    );
    s.check_replay();

    // A rematch deals from a new secret, seats rotated.
    for i in 0..3 {
        s.ok(Command::Rematch { user: user(i) });
    }
    let gs2 = s.table.state().game.clone().unwrap();
    assert!(matches!(gs2.setup, Setup::Secret(s2) if s2 != secret));
    assert_eq!(gs2.players, vec![user(2), user(0), user(1)]);
    s.check_replay();
}

#[test]
fn no_draw_offers_and_no_chosen_deals_in_doudizhu() {
    let mut s = Script::<Doudizhu>::started(config());
    let i = to_act(&s);
    s.play(i, S, "pass");
    assert_eq!(
        s.refused(Command::OfferDraw { user: user(i) }).kind,
        K::NotAllowed
    );
    let mut s = Script::<Doudizhu>::new(config());
    s.ok(Command::Sit {
        user: user(0),
        seat: Seat(0),
    });
    let mut settings = s.table.state().proposal.settings.clone();
    for setup in [Setup::Seed(1), Setup::Secret(Secret([3; 32]))] {
        settings.setup = setup;
        assert_eq!(
            s.refused(Command::Propose {
                user: user(0),
                settings: settings.clone()
            })
            .kind,
            K::BadSettings
        );
    }
}

#[test]
fn a_missed_bid_is_a_pass_and_only_three_deal_again() {
    let mut s = Script::<Doudizhu>::started(config());
    let first = to_act(&s);
    // The first bid is timed by the turn's clock, not a first-move timer.
    let gv = s.table.view(Viewer::Spectator, s.now).game.unwrap();
    assert_eq!(gv.clock.running, Some(first as usize));
    assert_eq!(gv.first_move_deadline, None);
    assert_eq!(s.table.next_deadline(), Some(s.now + 20 * S));
    // Missed: a pass (不叫), and the next seat bids on its own clock.
    s.wait(20 * S);
    let events = s.tick();
    assert!(ended(&events).is_none(), "{events:?}");
    let board = s.table.view(Viewer::Spectator, s.now).game.unwrap().board;
    let bids: Vec<(Seat, u8)> = board.bids.iter().map(|b| (b.seat, b.bid)).collect();
    assert_eq!(bids, vec![(Seat(first), 0)]);
    let moves = &s.table.state().game.as_ref().unwrap().actions;
    assert_eq!(
        (moves[0].action.as_str(), moves[0].display.as_str()),
        ("pass", "不叫")
    );
    let second = to_act(&s);
    assert_eq!(second, (first + 1) % 3);
    assert_eq!(s.table.next_deadline(), Some(s.now + 20 * S));
    // The two others miss theirs too: only then is the deal void, and dealt
    // again with the same first bidder.
    s.wait(20 * S);
    s.tick();
    assert_eq!(s.table.game().unwrap().redeals(), 0);
    s.wait(20 * S);
    s.tick();
    let g = s.table.game().unwrap();
    assert_eq!(g.redeals(), 1);
    assert_eq!(s.table.state().status, qiyuan_table::Status::Playing);
    assert_eq!(s.table.state().game.as_ref().unwrap().end_detail, None);
    assert_eq!(to_act(&s), first);
    // The hand's outcome says which deal was played, whoever ends it (here
    // the table: the landlord's flag), for a duplicate event's comparison.
    s.play(first, S, "bid 3");
    s.wait(20 * S);
    let (o, _) = ended(&s.tick()).expect("the flag fell");
    assert_eq!(o.deal, 1);
    s.check_replay();
}

#[test]
fn the_landlord_who_bid_three_at_once_is_timed_on_the_first_play() {
    let mut s = Script::<Doudizhu>::started(config());
    let first = to_act(&s);
    s.play(first, S, "bid 3");
    let gv = s.table.view(Viewer::Spectator, s.now).game.unwrap();
    assert_eq!(gv.board.landlord, Some(Seat(first)));
    assert_eq!(gv.clock.running, Some(first as usize));
    assert_eq!(s.table.next_deadline(), Some(s.now + 20 * S));
    // No rule plays for a landlord out of time: at a table without 托管
    // the flag ends the hand (not counted: the farmers have not acted).
    s.wait(20 * S);
    let (o, _) = ended(&s.tick()).expect("the flag fell");
    assert_eq!(o.reason, EndReason::Aborted);
    assert_eq!(
        s.table.state().game.as_ref().unwrap().end_detail,
        Some(qiyuan_table::EndDetail::NotCounted)
    );
    s.check_replay();
}

#[test]
fn without_a_clock_a_missed_first_bid_is_a_pass_too() {
    let mut s = Script::<Doudizhu>::started(TableConfig::casual(TimeControl::None));
    let first = to_act(&s);
    let at = s.table.first_move_deadline().expect("the first-move timer");
    s.now = at;
    let events = s.tick();
    assert!(ended(&events).is_none(), "{events:?}");
    assert_eq!(to_act(&s), (first + 1) % 3);
    s.check_replay();
}

#[test]
fn trusteeship_is_handed_over_and_taken_back_by_its_player() {
    let mut c = config();
    c.trusteeship = true;
    let mut s = Script::<Doudizhu>::started(c);
    s.ok(Command::Trusteeship {
        user: user(1),
        on: true,
    });
    let seats = s.table.view(Viewer::Spectator, s.now).seats;
    assert_eq!(
        seats.iter().map(|x| x.trustee).collect::<Vec<_>>(),
        [false, true, false]
    );
    assert_eq!(
        s.refused(Command::Trusteeship {
            user: user(1),
            on: true
        })
        .kind,
        K::NotAllowed
    );
    s.ok(Command::Trusteeship {
        user: user(1),
        on: false,
    });
    assert!(!s.table.state().seats[1].trustee);
    assert_eq!(
        s.refused(Command::Trusteeship {
            user: user(1),
            on: false
        })
        .kind,
        K::NotAllowed
    );
    // The mark lasts the game it was given for.
    s.ok(Command::Trusteeship {
        user: user(2),
        on: true,
    });
    s.ok(Command::Resign { user: user(0) });
    assert!(s.table.state().seats.iter().all(|x| !x.trustee));
    assert_eq!(
        s.refused(Command::Trusteeship {
            user: user(2),
            on: true
        })
        .kind,
        K::NoGame
    );
    s.check_replay();
    // A table where the computer plays for no one refuses it.
    let mut s = Script::<Doudizhu>::started(config());
    assert_eq!(
        s.refused(Command::Trusteeship {
            user: user(0),
            on: true
        })
        .kind,
        K::NotAllowed
    );
}
