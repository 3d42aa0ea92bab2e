//! The table with three seats and hidden hands: Doudizhu.

mod common;

use common::*;
use qiyuan_doudizhu::Doudizhu;
use qiyuan_game::{EndReason, Game, Seat, SeatResult, Setup, Turn, Viewer};
use qiyuan_table::{Command, Preset, TableConfig, TableRefusalKind as K};

fn config() -> TableConfig {
    let mut c = TableConfig::casual(Preset::Quick.control("doudizhu"));
    c.deal_seed = Some(0x5eed_1234);
    c
}

fn to_act(s: &Script<Doudizhu>) -> u8 {
    match s.table.game().unwrap().turn() {
        Turn::Seat(seat) => seat.0,
        t => panic!("{t:?}"),
    }
}

#[test]
fn doudizhu_needs_a_deal_seed() {
    assert!(
        qiyuan_table::Table::<Doudizhu>::new(TableConfig::casual(
            Preset::Quick.control("doudizhu")
        ))
        .is_err()
    );
}

#[test]
fn three_players_hidden_hands_and_a_seeded_deal() {
    let mut s = Script::<Doudizhu>::started(config());
    assert_eq!(s.table.seats(), 3);
    let gs = s.table.state().game.clone().unwrap();
    assert!(
        matches!(gs.setup, Setup::Seed(_)),
        "the deal comes from the table's secret"
    );
    // Each seat sees its own hand only; spectators see none.
    for i in 0..3 {
        let v = s.table.view(Viewer::Seat(Seat(i)), s.now);
        assert!(v.game.unwrap().board.hand.is_some());
    }
    let spectator = s.table.view(Viewer::Spectator, s.now).game.unwrap().board;
    assert!(spectator.hand.is_none() && spectator.bottom.is_none());
    // The secret seed is never in what a client receives.
    let seed = match gs.setup {
        Setup::Seed(seed) => seed,
        _ => unreachable!(),
    };
    let json = serde_json::to_string(&s.table.view(Viewer::Spectator, s.now)).unwrap();
    assert!(!json.contains(&seed.to_string()));

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

    // A rematch deals a different hand from the same secret, seats rotated.
    for i in 0..3 {
        s.ok(Command::Rematch { user: user(i) });
    }
    let gs2 = s.table.state().game.clone().unwrap();
    assert_ne!(gs2.setup, gs.setup);
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
    settings.setup = Setup::Seed(1);
    assert_eq!(
        s.refused(Command::Propose {
            user: user(0),
            settings
        })
        .kind,
        K::BadSettings
    );
}
