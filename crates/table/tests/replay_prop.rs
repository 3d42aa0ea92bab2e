//! Random sequences of commands, legal and not: a refusal never changes the table,
//! and replaying the log always gives the live table, clocks included.

mod common;

use common::*;
use proptest::prelude::*;
use qiyuan_game::{Claim, DrawOffers, Outcome, Seat};
use qiyuan_table::{Command, Settings, Table, TimeControl};

fn command(seats: u8) -> impl Strategy<Value = Command> {
    let u = move || (0..seats + 1).prop_map(user);
    prop_oneof![
        // "@turn" is resolved to the user whose turn it is, so games get played.
        40 => (prop_oneof![Just("1"), Just("2"), Just("3")], 0u64..2_000)
            .prop_map(|(a, lag)| Command::Act { user: "@turn".into(), action: a.into(), lag }),
        3 => (u(), prop_oneof![Just("1"), Just("2"), Just("3"), Just("9"), Just("x")], 0u64..2_000)
            .prop_map(|(user, a, lag)| Command::Act { user, action: a.into(), lag }),
        2 => (u(), 0..4u8).prop_map(|(user, s)| Command::Sit { user, seat: Seat(s) }),
        1 => u().prop_map(|user| Command::Stand { user }),
        1 => u().prop_map(|user| Command::Watch { user }),
        1 => u().prop_map(|user| Command::Unwatch { user }),
        4 => (u(), proptest::option::of(0..3u32)).prop_map(|(user, proposal)| Command::Ready { user, proposal }),
        1 => u().prop_map(|user| Command::Unready { user }),
        1 => (u(), prop_oneof![
                Just(TimeControl::fischer(1, 0)),
                Just(TimeControl::qq(1, 0, 10)),
                Just(TimeControl::byo_yomi(0, 2, 10)),
                Just(TimeControl::canadian(0, 2, 1)),
                Just(TimeControl::None),
            ]).prop_map(|(user, t)| Command::Propose { user, settings: Settings::casual(t) }),
        1 => (u(), 0..3u32).prop_map(|(user, proposal)| Command::Accept { user, proposal }),
        1 => (u(), 0..3u32).prop_map(|(user, proposal)| Command::Decline { user, proposal }),
        1 => (u(), 0..3u8).prop_map(|(user, s)| Command::Swap { user, with: Seat(s) }),
        3 => u().prop_map(|user| Command::OfferDraw { user }),
        2 => u().prop_map(|user| Command::AcceptDraw { user }),
        1 => u().prop_map(|user| Command::DeclineDraw { user }),
        3 => u().prop_map(|user| Command::RequestTakeback { user }),
        3 => u().prop_map(|user| Command::AcceptTakeback { user }),
        2 => u().prop_map(|user| Command::DeclineTakeback { user }),
        1 => u().prop_map(|user| Command::Claim { user, claim: Claim::FiftyMoves }),
        1 => u().prop_map(|user| Command::Resign { user }),
        1 => u().prop_map(|user| Command::Abort { user }),
        2 => u().prop_map(|user| Command::Disconnect { user }),
        2 => u().prop_map(|user| Command::Reconnect { user }),
        1 => u().prop_map(|user| Command::Leave { user }),
        4 => u().prop_map(|user| Command::Rematch { user }),
        3 => Just(Command::Tick),
        1 => (0u64..100_000).prop_map(|d| Command::Restart { down_since: d }),
        1 => (0u64..100_000, 0u64..100_000).prop_map(|(a, b)| Command::Credit { from: a.min(b), to: a.max(b) }),
        1 => Just(Command::Adjudicate { outcome: Outcome::aborted(seats) }),
        1 => (0..4u8).prop_map(|s| Command::Foul { seat: Seat(s), reason: None }),
        1 => (0..4u8).prop_map(|s| Command::Warn { seat: Seat(s), reason: "w".into() }),
        1 => (0..4u8).prop_map(|s| Command::Violation { seat: Seat(s), reason: "v".into() }),
        1 => (0..4u8, any::<bool>()).prop_map(|(s, forfeit)| Command::Decide {
            decision: qiyuan_table::Decision::Loses { seat: Seat(s), forfeit },
        }),
        1 => Just(Command::Decide { decision: qiyuan_table::Decision::Draw }),
        1 => Just(Command::Decide { decision: qiyuan_table::Decision::Void }),
    ]
}

fn script() -> impl Strategy<Value = (u8, DrawOffers, Vec<(u64, Command)>)> {
    (
        2u8..=3,
        prop_oneof![
            Just(DrawOffers::AfterOwnMove),
            Just(DrawOffers::AlternatingAfterOwnMove),
            Just(DrawOffers::OnOwnTurn),
            Just(DrawOffers::None),
        ],
    )
        .prop_flat_map(|(seats, rule)| {
            (
                Just(seats),
                Just(rule),
                proptest::collection::vec(
                    (
                        prop_oneof![15 => 0u64..3_000, 1 => 0u64..400_000],
                        command(seats),
                    ),
                    0..150,
                ),
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn replay_equals_live((seats, rule, cmds) in script()) {
        let mut config = count_config(
            TimeControl::fischer(5, 3),
            CountOptions { seats, target: 60, draw_offers: rule, ..CountOptions::default() },
        );
        config.first_move = Some(20_000);
        let mut table = Table::<Count>::new(config.clone()).unwrap();
        // A head start so that most scripts reach a game.
        let mut now = 0;
        for i in 0..seats {
            table.apply(Command::Sit { user: user(i), seat: Seat(i) }, now).unwrap();
            table.apply(Command::Ready { user: user(i), proposal: None }, now).unwrap();
        }
        for (wait, cmd) in cmds {
            now += wait;
            let cmd = match cmd {
                Command::Act { user, action, lag } if user == "@turn" => {
                    let to_move = table.game().and_then(|g| match qiyuan_game::Game::turn(g) {
                        qiyuan_game::Turn::Seat(s) => table.state().seats[s.index()].user.clone(),
                        _ => None,
                    });
                    Command::Act { user: to_move.unwrap_or(user), action, lag }
                }
                cmd => cmd,
            };
            let before = table.clone();
            if let Err(r) = table.apply(cmd.clone(), now)
                && r.fired.is_empty()
            {
                prop_assert!(table == before, "{cmd:?} was refused ({r}) but changed the table");
            }
        }
        let replayed = Table::<Count>::replay(config, table.log()).unwrap();
        prop_assert!(replayed == table);
        // The log survives JSON, as the server stores it.
        let json = serde_json::to_string(table.log()).unwrap();
        let back: Vec<qiyuan_table::LogEntry> = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(back.as_slice(), table.log());
    }
}
