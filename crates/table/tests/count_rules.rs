//! The table's rules, scripted with the counting game on a simulated clock.

mod common;

use common::*;
use qiyuan_game::{Claim, DrawOffers, EndReason, Outcome, Seat, SeatResult, Setup, Viewer};
use qiyuan_table::{
    Command, Event, Settings, SettingsError, Status, Table, TableConfig, TableRefusalKind as K,
    TimeControl,
};

fn cfg(time: TimeControl) -> TableConfig {
    count_config(time, CountOptions::default())
}

fn act(i: u8, a: &str) -> Command {
    Command::Act {
        user: user(i),
        action: a.into(),
        lag: 0,
    }
}

#[test]
fn a_game_is_played_and_replays() {
    let mut s = Script::<Count>::started(count_config(
        TimeControl::fischer(3, 2),
        CountOptions {
            target: 10,
            ..CountOptions::default()
        },
    ));
    s.play(0, 5 * S, "3");
    s.play(1, 5 * S, "3");
    s.play(0, 5 * S, "3");
    let ev = s.play(1, 5 * S, "1");
    let (outcome, rated) = ended(&ev).expect("ended");
    assert_eq!(outcome.results, vec![SeatResult::Loss, SeatResult::Win]);
    assert!(!rated);
    assert_eq!(s.table.state().status, Status::Over);
    s.check_replay();
}

#[test]
fn seats_and_spectators() {
    let mut s = Script::<Count>::new(cfg(TimeControl::None));
    s.ok(Command::Sit {
        user: user(0),
        seat: Seat(0),
    });
    assert_eq!(
        s.refused(Command::Sit {
            user: user(1),
            seat: Seat(0)
        })
        .kind,
        K::SeatTaken
    );
    assert_eq!(
        s.refused(Command::Sit {
            user: user(0),
            seat: Seat(1)
        })
        .kind,
        K::AlreadySeated
    );
    assert_eq!(
        s.refused(Command::Sit {
            user: user(1),
            seat: Seat(2)
        })
        .kind,
        K::NoSuchSeat
    );
    s.ok(Command::Watch { user: user(2) });
    assert_eq!(
        s.refused(Command::Watch { user: user(2) }).kind,
        K::NotAllowed
    );
    assert_eq!(
        s.refused(Command::Watch { user: user(0) }).kind,
        K::AlreadySeated
    );
    s.ok(Command::Sit {
        user: user(2),
        seat: Seat(1),
    });
    assert!(
        s.table.state().spectators.is_empty(),
        "sitting stops watching"
    );
    s.ok(Command::Stand { user: user(2) });
    assert_eq!(
        s.refused(Command::Stand { user: user(2) }).kind,
        K::NotSeated
    );
    s.check_replay();
}

#[test]
fn first_seat_proposes_others_accept_or_counter() {
    let mut s = Script::<Count>::new(cfg(TimeControl::None));
    s.ok(Command::Sit {
        user: user(0),
        seat: Seat(0),
    });
    s.ok(Command::Sit {
        user: user(1),
        seat: Seat(1),
    });
    let quick = Settings::casual(TimeControl::qq(10, 1, 30));
    s.ok(Command::Propose {
        user: user(0),
        settings: quick.clone(),
    });
    // Bob counter-proposes the match mode.
    let matchmode = Settings::casual(TimeControl::qq(30, 5, 180));
    s.ok(Command::Propose {
        user: user(1),
        settings: matchmode.clone(),
    });
    // Alice cannot accept the stale proposal 1.
    assert_eq!(
        s.refused(Command::Accept {
            user: user(0),
            proposal: 1
        })
        .kind,
        K::StaleProposal
    );
    s.ok(Command::Ready {
        user: user(1),
        proposal: Some(2),
    });
    assert_eq!(s.table.state().status, Status::Waiting);
    s.ok(Command::Accept {
        user: user(0),
        proposal: 2,
    });
    let ev = s.ok(Command::Ready {
        user: user(0),
        proposal: Some(2),
    });
    assert!(ev.iter().any(|e| matches!(e, Event::Started { .. })));
    assert_eq!(s.table.state().game.as_ref().unwrap().settings, matchmode);
    // Settings cannot change mid-game.
    assert_eq!(
        s.refused(Command::Propose {
            user: user(0),
            settings: quick
        })
        .kind,
        K::GameInProgress
    );
    s.check_replay();
}

#[test]
fn bad_settings_are_refused() {
    let mut s = Script::<Count>::new(cfg(TimeControl::None));
    s.ok(Command::Sit {
        user: user(0),
        seat: Seat(0),
    });
    let mut bad = Settings::casual(TimeControl::None);
    bad.options = serde_json::json!({"seats": 7});
    assert_eq!(
        s.refused(Command::Propose {
            user: user(0),
            settings: bad
        })
        .kind,
        K::BadSettings
    );
    let mut seed = Settings::casual(TimeControl::None);
    seed.setup = Setup::Seed(3);
    assert_eq!(
        s.refused(Command::Propose {
            user: user(0),
            settings: seed
        })
        .kind,
        K::BadSettings
    );
    let zero = Settings::casual(TimeControl::Fischer {
        base: 0,
        increment: 0,
    });
    assert_eq!(
        s.refused(Command::Propose {
            user: user(0),
            settings: zero
        })
        .kind,
        K::BadSettings
    );
}

#[test]
fn swap_before_the_start() {
    let mut s = Script::<Count>::new(cfg(TimeControl::None));
    s.ok(Command::Sit {
        user: user(0),
        seat: Seat(0),
    });
    // An empty seat is simply taken.
    s.ok(Command::Swap {
        user: user(0),
        with: Seat(1),
    });
    assert_eq!(s.table.seat_of("alice"), Some(Seat(1)));
    s.ok(Command::Sit {
        user: user(1),
        seat: Seat(0),
    });
    let ev = s.ok(Command::Swap {
        user: user(1),
        with: Seat(1),
    });
    assert_eq!(
        ev,
        vec![Event::SwapRequested {
            seat: Seat(0),
            with: Seat(1)
        }]
    );
    s.ok(Command::Swap {
        user: user(0),
        with: Seat(0),
    });
    assert_eq!(s.table.seat_of("alice"), Some(Seat(0)));
    assert_eq!(s.table.seat_of("bob"), Some(Seat(1)));
    s.ok(Command::Ready {
        user: user(0),
        proposal: None,
    });
    s.ok(Command::Ready {
        user: user(1),
        proposal: None,
    });
    assert_eq!(
        s.refused(Command::Swap {
            user: user(0),
            with: Seat(1)
        })
        .kind,
        K::GameInProgress
    );
    s.check_replay();
}

#[test]
fn a_swap_keeps_the_settings_agreed_and_their_proposer() {
    let mut s = Script::<Count>::new(cfg(TimeControl::None));
    s.ok(Command::Sit {
        user: user(0),
        seat: Seat(0),
    });
    s.ok(Command::Sit {
        user: user(1),
        seat: Seat(1),
    });
    s.ok(Command::Propose {
        user: user(0),
        settings: Settings::casual(TimeControl::qq(10, 1, 30)),
    });
    let proposal = s.table.state().proposal.id;
    s.ok(Command::Accept {
        user: user(1),
        proposal,
    });
    s.ok(Command::Swap {
        user: user(0),
        with: Seat(1),
    });
    s.ok(Command::Swap {
        user: user(1),
        with: Seat(0),
    });
    assert_eq!(s.table.seat_of("alice"), Some(Seat(1)));
    // Alice's proposal is still hers; Bob's agreement went with him.
    let st = s.table.state();
    assert_eq!(st.proposal.by, Seat(1));
    assert_eq!(st.proposal.id, proposal);
    assert_eq!(st.seats[0].accepted, Some(proposal));
    assert!(st.seats.iter().all(|x| !x.ready));
    // Both press 开始 on their new sides, and nobody is asked again.
    s.ok(Command::Ready {
        user: user(1),
        proposal: Some(proposal),
    });
    let ev = s.ok(Command::Ready {
        user: user(0),
        proposal: Some(proposal),
    });
    assert!(
        ev.iter().any(|e| matches!(e, Event::Started { .. })),
        "{ev:?}"
    );
    s.check_replay();
}

#[test]
fn refusals_change_nothing() {
    let mut s = Script::<Count>::started(cfg(TimeControl::fischer(3, 2)));
    assert_eq!(s.refused(act(1, "1")).kind, K::NotYourTurn);
    assert_eq!(
        s.refused(act(0, "x")).kind,
        K::Game(qiyuan_game::RefusalKind::Malformed)
    );
    assert_eq!(
        s.refused(act(0, "9")).kind,
        K::Game(qiyuan_game::RefusalKind::Illegal)
    );
    assert_eq!(s.refused(act(3, "1")).kind, K::NotSeated);
    assert_eq!(
        s.refused(Command::AcceptDraw { user: user(1) }).kind,
        K::NothingToAnswer
    );
    assert_eq!(
        s.refused(Command::Claim {
            user: user(0),
            claim: Claim::FiftyMoves
        })
        .kind,
        K::Game(qiyuan_game::RefusalKind::ClaimRefused)
    );
    s.check_replay();
}

#[test]
fn views_hide_other_seats_secrets() {
    let s = Script::<Count>::started(cfg(TimeControl::None));
    let v0 = s.table.view(Viewer::Seat(Seat(0)), s.now);
    let spectator = s.table.view(Viewer::Spectator, s.now);
    assert!(v0.game.as_ref().unwrap().board.secret.is_some());
    assert!(spectator.game.as_ref().unwrap().board.secret.is_none());
    let json = serde_json::to_string(&s.table.view_for("bob", s.now)).unwrap();
    assert!(json.contains("\"you\":1"), "{json}");
}

#[test]
fn claims_end_in_a_draw() {
    let mut s = Script::<Count>::started(cfg(TimeControl::None));
    for (i, a) in [(0, "3"), (1, "3"), (0, "3"), (1, "1")] {
        s.play(i, S, a);
    }
    let ev = s.ok(Command::Claim {
        user: user(0),
        claim: Claim::FiftyMoves,
    });
    let (o, rated) = ended(&ev).unwrap();
    assert_eq!(o.reason, EndReason::FiftyMoves);
    assert!(!rated, "a claim in a casual game is not rated");
    s.check_replay();
}

/// Every way a game ends counts for ratings exactly when the game does: rated
/// settings and the standard start. A loaded position (读入) never counts.
#[test]
fn every_end_is_rated_only_in_a_rated_standard_game() {
    let kinds = [
        ("casual", false, false),
        ("rated", true, false),
        ("loaded", true, true),
    ];
    let ends = [
        "claim",
        "agreement",
        "resignation",
        "timeout",
        "rules",
        "abort",
        "adjudicated",
    ];
    for (kind, rated_settings, loaded) in kinds {
        for end in ends {
            let mut c = cfg(TimeControl::fischer(1, 0));
            c.settings.rated = rated_settings;
            if loaded {
                c.settings.setup = Setup::Position("0".into());
            }
            if end == "rules" {
                c.settings.options = serde_json::json!({"target": 10});
            }
            let mut s = Script::<Count>::started(c);
            let counts = rated_settings && !loaded;
            assert_eq!(s.table.state().game.as_ref().unwrap().rated, counts);
            if end != "abort" {
                for (i, a) in [(0, "3"), (1, "3"), (0, "3")] {
                    s.play(i, S, a);
                }
            }
            let ev = match end {
                "claim" => {
                    s.play(1, S, "1");
                    s.ok(Command::Claim {
                        user: user(0),
                        claim: Claim::FiftyMoves,
                    })
                }
                "agreement" => {
                    s.ok(Command::OfferDraw { user: user(0) });
                    s.ok(Command::AcceptDraw { user: user(1) })
                }
                "resignation" => s.ok(Command::Resign { user: user(1) }),
                "timeout" => {
                    s.wait(61 * S);
                    s.tick()
                }
                "rules" => s.play(1, S, "1"),
                "abort" => s.ok(Command::Abort { user: user(0) }),
                _ => s.ok(Command::Adjudicate {
                    outcome: qiyuan_game::Outcome::draw(2, EndReason::Adjudication, "1/2-1/2"),
                }),
            };
            let (o, rated) = ended(&ev).unwrap_or_else(|| panic!("{kind} {end}: {ev:?}"));
            let expect = counts && end != "abort";
            assert_eq!(rated, expect, "{kind} game ended by {end} ({:?})", o.reason);
            assert_eq!(s.table.state().game.as_ref().unwrap().rated, expect);
            s.check_replay();
        }
    }
}

#[test]
fn watching_is_live_only() {
    let mut s = Script::<Count>::started(cfg(TimeControl::None));
    let (v, log) = (s.table.version(), s.table.log().to_vec());
    for _ in 0..200 {
        assert!(!s.table.watch("dave").unwrap().is_empty());
        assert!(s.table.unwatch("dave").is_ok());
    }
    assert_eq!(s.table.version(), v, "watching moves no version");
    assert_eq!(s.table.log(), &log[..], "watching writes no log entry");
    s.table.watch("dave").unwrap();
    assert_eq!(s.table.watch("dave").unwrap_err().kind, K::NotAllowed);
    assert_eq!(s.table.watch(&user(0)).unwrap_err().kind, K::AlreadySeated);
    let view = s.table.view(Viewer::Spectator, s.now);
    assert_eq!(view.spectators, vec!["dave".to_string()], "shown live");
    s.check_replay();
    // A restart forgets who watched.
    s.ok(Command::Restart { down_since: s.now });
    assert_eq!(s.table.spectators().count(), 0);
    assert_eq!(s.table.unwatch("dave").unwrap_err().kind, K::NotAtTable);
}

#[test]
fn draw_offer_rule_go_on_own_turn() {
    let mut s = Script::<Count>::started(count_config(
        TimeControl::None,
        CountOptions {
            draw_offers: DrawOffers::OnOwnTurn,
            ..CountOptions::default()
        },
    ));
    assert_eq!(
        s.refused(Command::OfferDraw { user: user(1) }).kind,
        K::NotAllowed
    );
    s.ok(Command::OfferDraw { user: user(0) });
    s.play(0, S, "1");
    // The offer stands after the offerer's own move; the opponent's move declines it.
    assert!(s.table.state().game.as_ref().unwrap().draw.is_some());
    let ev = s.play(1, S, "1");
    assert!(ev.contains(&Event::DrawDeclined { seat: Seat(1) }));
    s.check_replay();
}

#[test]
fn no_draw_offers_in_games_without_them() {
    let mut s = Script::<Count>::started(count_config(
        TimeControl::None,
        CountOptions {
            draw_offers: DrawOffers::None,
            ..CountOptions::default()
        },
    ));
    s.play(0, S, "1");
    assert_eq!(
        s.refused(Command::OfferDraw { user: user(0) }).kind,
        K::NotAllowed
    );
}

/// The JSON shapes the server and the web client rely on.
#[test]
fn json_shapes() {
    let cmd: Command =
        serde_json::from_str(r#"{"type":"act","user":"alice","action":"e2e4"}"#).unwrap();
    assert_eq!(
        cmd,
        Command::Act {
            user: "alice".into(),
            action: "e2e4".into(),
            lag: 0
        }
    );
    let cmd: Command = serde_json::from_str(
        r#"{"type":"propose","user":"alice","settings":{"time":{"kind":"qq","game":1800000,"per_move":300000,"countdown":180000}}}"#,
    )
    .unwrap();
    let Command::Propose { settings, .. } = cmd else {
        panic!()
    };
    assert_eq!(settings.time, TimeControl::qq(30, 5, 180));
    assert!(settings.takebacks && !settings.rated);
    assert_eq!(settings.setup, Setup::Standard);
    let tick: Command = serde_json::from_str(r#"{"type":"tick"}"#).unwrap();
    assert_eq!(tick, Command::Tick);

    let mut s = Script::<Count>::started(cfg(TimeControl::fischer(3, 2)));
    let ev = s.play(0, S, "2");
    let json = serde_json::to_value(&ev[0]).unwrap();
    assert_eq!(json["type"], "acted");
    assert_eq!(json["seat"], 0);
    assert_eq!(json["action"], "2");
    assert_eq!(json["display"], "+2");
    assert_eq!(json["clock"]["control"]["kind"], "fischer");
    let ev = s.ok(Command::Resign { user: user(1) });
    let json = serde_json::to_value(&ev[0]).unwrap();
    assert_eq!(json["type"], "ended");
    assert_eq!(json["outcome"]["reason"], "aborted");
    let r = s.refused(Command::Resign { user: user(1) });
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["kind"], "no_game");
    let r = s.refused(Command::Sit {
        user: user(3),
        seat: Seat(0),
    });
    assert_eq!(r.kind, K::SeatTaken);
    let view = serde_json::to_value(s.table.view(Viewer::Spectator, s.now)).unwrap();
    assert_eq!(view["status"], "over");
    assert_eq!(view["game_name"], "count");
    assert_eq!(view["seats"][0]["user"], "alice");
}

#[test]
fn a_move_whose_verdict_does_not_fit_the_seats_is_refused_and_changes_nothing() {
    // The game has played the move when the table finds its verdict bad: the
    // refusal puts back the game (played again from the record) and the clock.
    let options = CountOptions {
        seats: 3,
        target: 5,
        two_seat_win: true,
        ..CountOptions::default()
    };
    let mut s = Script::<Count>::started(count_config(TimeControl::fischer(60, 0), options));
    s.play(0, S, "2");
    s.play(1, S, "1");
    // Seat 2's clock runs; 1 more would reach the target and end with a
    // two-result verdict in a three-seat game.
    s.now += S;
    let r = s.refused(Command::Act {
        user: user(2),
        action: "2".into(),
        lag: 0,
    });
    assert_eq!(r.kind, K::BadOutcome);
    assert_eq!(s.table.state().status, Status::Playing);
    // A move that does not end the game is played as usual.
    s.play(2, 0, "1");
    assert_eq!(s.table.state().game.as_ref().unwrap().actions.len(), 3);
}

#[test]
fn an_outcome_that_does_not_fit_the_seats_is_refused() {
    // A three-seat game whose concession has two results (the contract's old
    // two-seat default): resigning is refused with a typed error and changes
    // nothing; an arbiter's outcome is checked the same way; a timer, which
    // cannot be refused, aborts the game instead of ending it with a bad outcome.
    let options = CountOptions {
        seats: 3,
        two_seat_concession: true,
        ..CountOptions::default()
    };
    let mut s = Script::<Count>::started(count_config(TimeControl::fischer(1, 0), options));
    s.play(0, S, "1");
    s.play(1, S, "1");
    s.play(2, S, "1");
    let r = s.refused(Command::Resign { user: user(1) });
    assert_eq!(r.kind, K::BadOutcome);
    assert!(
        r.message.contains("2 results for a game of 3 seats"),
        "{}",
        r.message
    );
    let bad = Outcome::draw(2, EndReason::Adjudication, "draw");
    assert_eq!(
        s.refused(Command::Adjudicate { outcome: bad }).kind,
        K::BadOutcome
    );
    let mut pointed = Outcome::draw(3, EndReason::Adjudication, "draw");
    pointed.points = vec![1, -1];
    assert_eq!(
        s.refused(Command::Adjudicate { outcome: pointed }).kind,
        K::BadOutcome
    );
    assert_eq!(s.table.state().status, Status::Playing);
    // Seat 0's flag falls: its concession does not fit, so the game is void.
    s.wait(2 * M);
    let (outcome, rated) = ended(&s.tick()).expect("ended by the flag");
    assert_eq!(outcome.reason, EndReason::Aborted);
    assert_eq!(outcome.results, vec![SeatResult::Void; 3]);
    assert!(!rated);
    s.check_replay();
    // A well-formed three-seat outcome is taken as it is.
    let mut s = Script::<Count>::started(count_config(
        TimeControl::None,
        CountOptions {
            seats: 3,
            ..CountOptions::default()
        },
    ));
    let ok = Outcome::win(3, Seat(2), EndReason::Adjudication, "seat 2");
    let (outcome, _) = ended(&s.ok(Command::Adjudicate {
        outcome: ok.clone(),
    }))
    .unwrap();
    assert_eq!(outcome, ok);
    s.check_replay();
}

#[test]
fn options_are_typed_once_at_the_boundary() {
    // A table's options are parsed into the game's own type when it is created
    // (a typed error if they are not the game's) and when settings are proposed.
    let mut bad = cfg(TimeControl::None);
    bad.settings.options = serde_json::json!({"seats": "three"});
    match Table::<Count>::new(bad) {
        Err(SettingsError::Options { game, message }) => {
            assert_eq!(game, "count");
            assert!(message.contains("expected u8"), "{message}");
        }
        other => panic!("not refused as options: {other:?}"),
    }
    let mut s = Script::<Count>::new(count_config(
        TimeControl::None,
        CountOptions {
            target: 30,
            ..CountOptions::default()
        },
    ));
    assert_eq!(s.table.proposed_options().target, 30);
    s.ok(Command::Sit {
        user: user(0),
        seat: Seat(0),
    });
    let mut settings = Settings::casual(TimeControl::None);
    settings.options = serde_json::json!({"target": "many"});
    let r = s.refused(Command::Propose {
        user: user(0),
        settings: settings.clone(),
    });
    assert_eq!(r.kind, K::BadSettings);
    assert!(
        r.message.starts_with("bad options for count"),
        "{}",
        r.message
    );
    settings.options = serde_json::json!({"target": 12});
    s.ok(Command::Propose {
        user: user(0),
        settings,
    });
    assert_eq!(s.table.proposed_options().target, 12);
    s.ok(Command::Sit {
        user: user(1),
        seat: Seat(1),
    });
    for i in 0..2 {
        s.ok(Command::Ready {
            user: user(i),
            proposal: None,
        });
    }
    for (i, a) in ["3", "3", "3"].iter().enumerate() {
        s.play(i as u8 % 2, S, a);
    }
    let ev = s.play(1, S, "3");
    let (outcome, _) = ended(&ev).expect("the proposed target of 12 ends the game");
    assert_eq!(outcome.results, vec![SeatResult::Loss, SeatResult::Win]);
    s.check_replay();
}
