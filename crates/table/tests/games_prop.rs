//! Random chess and xiangqi at the table, legal moves and not, with offers,
//! takebacks and timers in between: replaying the log gives the live table.

mod common;

use common::*;
use proptest::prelude::*;
use qiyuan_chess::ChessGame;
use qiyuan_game::{Claim, Game, Seat, Turn};
use qiyuan_table::{Command, Table, TableConfig, TimeControl};
use qiyuan_xiangqi::Xiangqi;

#[derive(Debug, Clone)]
enum Step {
    /// The seat to move plays its legal move number `n` (modulo their count).
    Legal(usize),
    /// Someone sends something.
    Other(Command),
}

fn step() -> impl Strategy<Value = Step> {
    let u = || (0..3u8).prop_map(user);
    prop_oneof![
        30 => any::<usize>().prop_map(Step::Legal),
        2 => (u(), prop_oneof![Just("e2e4"), Just("e7e5"), Just("zz"), Just("a1a8"), Just("h2e2"), Just("h9g7")])
            .prop_map(|(user, a)| Step::Other(Command::Act { user, action: a.into(), lag: 0 })),
        2 => u().prop_map(|user| Step::Other(Command::OfferDraw { user })),
        1 => u().prop_map(|user| Step::Other(Command::AcceptDraw { user })),
        1 => u().prop_map(|user| Step::Other(Command::DeclineDraw { user })),
        2 => u().prop_map(|user| Step::Other(Command::RequestTakeback { user })),
        2 => u().prop_map(|user| Step::Other(Command::AcceptTakeback { user })),
        1 => u().prop_map(|user| Step::Other(Command::DeclineTakeback { user })),
        1 => u().prop_map(|user| Step::Other(Command::Claim { user, claim: Claim::ThreefoldRepetition })),
        1 => u().prop_map(|user| Step::Other(Command::Disconnect { user })),
        1 => u().prop_map(|user| Step::Other(Command::Reconnect { user })),
        1 => u().prop_map(|user| Step::Other(Command::Rematch { user })),
        1 => Just(Step::Other(Command::Tick)),
    ]
}

fn run<G: Game>(steps: Vec<(u64, Step)>) -> Result<(), TestCaseError> {
    let config = TableConfig::casual(TimeControl::fischer(3, 2));
    let mut table = Table::<G>::new(config.clone()).unwrap();
    let mut now = 0;
    for i in 0..2 {
        table
            .apply(
                Command::Sit {
                    user: user(i),
                    seat: Seat(i),
                },
                now,
            )
            .unwrap();
        table
            .apply(
                Command::Ready {
                    user: user(i),
                    proposal: None,
                },
                now,
            )
            .unwrap();
    }
    for (wait, step) in steps {
        now += wait;
        let cmd = match step {
            Step::Other(cmd) => cmd,
            Step::Legal(n) => {
                let Some(game) = table.game() else { continue };
                let Turn::Seat(seat) = game.turn() else {
                    continue;
                };
                let legal = game.legal_actions(seat);
                if legal.is_empty() {
                    continue;
                }
                Command::Act {
                    user: user(seat.0),
                    action: legal[n % legal.len()].clone(),
                    lag: (n % 700) as u64,
                }
            }
        };
        let before = table.clone();
        if let Err(r) = table.apply(cmd.clone(), now)
            && r.fired.is_empty()
        {
            prop_assert!(
                table == before,
                "{cmd:?} was refused ({r}) but changed the table"
            );
        }
    }
    let replayed = Table::<G>::replay(config, table.log()).unwrap();
    prop_assert!(replayed == table);
    Ok(())
}

fn steps() -> impl Strategy<Value = Vec<(u64, Step)>> {
    proptest::collection::vec(
        (prop_oneof![20 => 0u64..5_000, 1 => 0u64..200_000], step()),
        0..120,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn chess_replay_equals_live(steps in steps()) {
        run::<ChessGame>(steps)?;
    }

    #[test]
    fn xiangqi_replay_equals_live(steps in steps()) {
        run::<Xiangqi>(steps)?;
    }
}
