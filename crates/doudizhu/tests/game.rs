//! Bidding, play, scoring, hidden information and the record, through the game
//! contract.

use qiyuan_doudizhu::{Counts, Doudizhu, Options, Phase, Spring};
use qiyuan_game::{
    EndReason, Game, RecordMeta, RefusalKind, Seat, SeatResult, Secret, Setup, Turn, Viewer, replay,
};

/// The landlord (seat 0) holds the rocket, three bombs and QQQ; JJJ is the bottom.
const SPRING_DEAL: &str = "BR2222AAAAKKKKQQQ/33334444555566667/77788889999TTTTJQ/JJJ";
/// Seat 1 holds the strong hand instead; seat 0 will be a weak landlord.
const ANTI_SPRING_DEAL: &str = "33334444555566667/BR2222AAAAKKKKQQQ/77788889999TTTTJQ/JJJ";

fn game(position: &str, first: u8) -> Doudizhu {
    let options = Options {
        first_bidder: Some(Seat(first)),
    };
    Doudizhu::new(&options, &Setup::Position(position.into())).expect("the deal is valid")
}

fn play(g: &mut Doudizhu, actions: &[(u8, &str)]) {
    for (seat, action) in actions {
        if let Err(e) = g.act(Seat(*seat), action) {
            panic!("seat {seat} `{action}` refused: {e}");
        }
    }
}

#[test]
fn deals_are_reproducible_and_complete() {
    let a = Doudizhu::new(&Options::default(), &Setup::Seed(42)).unwrap();
    let b = Doudizhu::new(&Options::default(), &Setup::Seed(42)).unwrap();
    let c = Doudizhu::new(&Options::default(), &Setup::Seed(43)).unwrap();
    assert_eq!(a.deal(), b.deal());
    assert_ne!(a.deal(), c.deal());
    let d = a.deal();
    let mut all = d.bottom;
    for h in d.hands {
        assert_eq!(h.len(), 17);
        assert!((all.0 & h.0) == 0, "hands overlap");
        all = all.union(h);
    }
    assert_eq!(d.bottom.len(), 3);
    assert_eq!(all.len(), 54);
    // The first bidder is drawn from the seed unless the options name one.
    assert_eq!(a.first_bidder(), b.first_bidder());
    let seats: std::collections::BTreeSet<u8> = (0..30)
        .map(|s| {
            Doudizhu::new(&Options::default(), &Setup::Seed(s))
                .unwrap()
                .first_bidder()
                .0
        })
        .collect();
    assert_eq!(
        seats.len(),
        3,
        "every seat is drawn as first bidder sometimes"
    );
    assert!(Doudizhu::new(&Options::default(), &Setup::Standard).is_err());
}

#[test]
fn all_pass_deals_again_from_the_seed() {
    let options = Options {
        first_bidder: Some(Seat(1)),
    };
    let mut g = Doudizhu::new(&options, &Setup::Seed(7)).unwrap();
    let first_deal = *g.deal();
    play(&mut g, &[(1, "pass"), (2, "pass"), (0, "pass")]);
    assert_eq!(g.phase(), Phase::Bidding);
    assert_eq!(g.redeals(), 1);
    assert_ne!(*g.deal(), first_deal);
    assert_eq!(
        g.turn(),
        Turn::Seat(Seat(1)),
        "the same seat bids first again"
    );
    assert_eq!(g.bid(), 0);
    // The redeal is a pure function of the seed too.
    let mut h = Doudizhu::new(&options, &Setup::Seed(7)).unwrap();
    play(&mut h, &[(1, "pass"), (2, "pass"), (0, "pass")]);
    assert_eq!(g.deal(), h.deal());
    play(&mut g, &[(1, "bid 1"), (2, "pass"), (0, "pass")]);
    assert_eq!(g.landlord(), Some(Seat(1)));
    assert_eq!(g.hand(Seat(1)).len(), 20);
}

#[test]
fn a_bid_of_three_ends_bidding_at_once() {
    let mut g = game(SPRING_DEAL, 2);
    play(&mut g, &[(2, "bid 1"), (0, "3")]);
    assert_eq!(g.landlord(), Some(Seat(0)));
    assert_eq!(g.bid(), 3);
    assert_eq!(g.phase(), Phase::Play);
    assert_eq!(g.turn(), Turn::Seat(Seat(0)), "the landlord leads");
    assert_eq!(g.hand(Seat(0)).counts().to_string(), "JJJQQQKKKKAAAA2222BR");
    // Straight away, from the first bidder.
    let mut g = game(SPRING_DEAL, 1);
    play(&mut g, &[(1, "bid 3")]);
    assert_eq!(g.landlord(), Some(Seat(1)));
}

#[test]
fn bids_must_rise_and_the_highest_bidder_is_landlord() {
    let mut g = game(SPRING_DEAL, 0);
    play(&mut g, &[(0, "bid 2")]);
    let before = g.view(Viewer::Spectator);
    for bad in ["bid 1", "bid 2"] {
        let e = g.act(Seat(1), bad).unwrap_err();
        assert_eq!(e.kind, RefusalKind::Illegal, "{bad}");
    }
    assert_eq!(
        g.act(Seat(2), "pass").unwrap_err().kind,
        RefusalKind::NotYourTurn
    );
    assert_eq!(
        g.act(Seat(1), "bid 4").unwrap_err().kind,
        RefusalKind::Malformed
    );
    assert_eq!(
        g.act(Seat(1), "33").unwrap_err().kind,
        RefusalKind::WrongPhase
    );
    assert_eq!(
        g.act(Seat(5), "pass").unwrap_err().kind,
        RefusalKind::NoSuchSeat
    );
    assert_eq!(g.view(Viewer::Spectator), before, "refusals change nothing");
    assert_eq!(g.legal_actions(Seat(1)), vec!["pass", "bid 3"]);
    play(&mut g, &[(1, "pass"), (2, "pass")]);
    assert_eq!(g.landlord(), Some(Seat(0)));
    assert_eq!(g.bid(), 2);
}

#[test]
fn play_follows_the_rules() {
    let mut g = game(SPRING_DEAL, 0);
    play(&mut g, &[(0, "bid 1"), (1, "pass"), (2, "pass")]);
    assert_eq!(
        g.act(Seat(0), "pass").unwrap_err().kind,
        RefusalKind::Illegal,
        "the leader must play"
    );
    assert_eq!(
        g.act(Seat(0), "bid 2").unwrap_err().kind,
        RefusalKind::WrongPhase
    );
    assert_eq!(
        g.act(Seat(0), "JQK").unwrap_err().kind,
        RefusalKind::Illegal,
        "no combination"
    );
    assert_eq!(
        g.act(Seat(0), "3").unwrap_err().kind,
        RefusalKind::Illegal,
        "not in hand"
    );
    assert_eq!(
        g.act(Seat(0), "JJX").unwrap_err().kind,
        RefusalKind::Malformed
    );
    let e = g.act(Seat(0), "J J J").unwrap();
    assert_eq!(e.canonical, "JJJ");
    // A trio is followed by a higher trio or a bomb.
    assert_eq!(
        g.act(Seat(1), "3334").unwrap_err().kind,
        RefusalKind::Illegal
    );
    let legal = g.legal_actions(Seat(1));
    assert!(legal.contains(&"3333".to_string()) && legal.contains(&"pass".to_string()));
    assert!(!legal.contains(&"333".to_string()));
    play(
        &mut g,
        &[(1, "pass"), (2, "8888"), (0, "pass"), (1, "pass")],
    );
    // Two passes: seat 2 leads anew.
    assert_eq!(g.turn(), Turn::Seat(Seat(2)));
    assert!(g.last_play().is_none());
    assert_eq!(
        g.act(Seat(2), "pass").unwrap_err().kind,
        RefusalKind::Illegal
    );
    play(&mut g, &[(2, "7")]);
    assert_eq!(
        g.act(Seat(0), "10").unwrap_err().kind,
        RefusalKind::Illegal,
        "no ten in hand"
    );
}

#[test]
fn spring_doubles_and_the_landlord_takes_twice() {
    let mut g = game(SPRING_DEAL, 0);
    play(&mut g, &[(0, "bid 3")]);
    play(
        &mut g,
        &[
            (0, "BR"),
            (1, "pass"),
            (2, "pass"),
            (0, "2222"),
            (1, "pass"),
            (2, "pass"),
            (0, "AAAA"),
            (1, "pass"),
            (2, "pass"),
            (0, "KKKK"),
            (1, "pass"),
            (2, "pass"),
            (0, "QQQJJJ"),
        ],
    );
    assert_eq!(g.turn(), Turn::Over);
    assert_eq!(g.spring(), Some(Spring::Spring));
    let o = g.outcome().expect("over");
    assert_eq!(o.reason, EndReason::HandEmptied);
    assert_eq!(
        o.results,
        vec![SeatResult::Win, SeatResult::Loss, SeatResult::Loss]
    );
    // Bid 3, four bombs (×16), spring (×2): 96 a farmer, twice that for the landlord.
    assert_eq!(g.multiplier(), 32);
    assert_eq!(o.points, vec![192, -96, -96]);
    assert_eq!(o.score, "+192 -96 -96");
    assert!(g.act(Seat(1), "3").is_err());
}

#[test]
fn anti_spring_doubles() {
    let mut g = game(ANTI_SPRING_DEAL, 0);
    play(&mut g, &[(0, "bid 1"), (1, "pass"), (2, "pass")]);
    play(
        &mut g,
        &[
            (0, "3"),
            (1, "BR"),
            (2, "pass"),
            (0, "pass"),
            (1, "2222"),
            (2, "pass"),
            (0, "pass"),
            (1, "AAAA"),
            (2, "pass"),
            (0, "pass"),
            (1, "KKKK"),
            (2, "pass"),
            (0, "pass"),
            (1, "QQQ"),
        ],
    );
    assert_eq!(g.spring(), Some(Spring::AntiSpring));
    let o = g.outcome().expect("over");
    assert_eq!(
        o.results,
        vec![SeatResult::Loss, SeatResult::Win, SeatResult::Win]
    );
    // Bid 1, four bombs (×16), anti-spring (×2).
    assert_eq!(o.points, vec![-64, 32, 32]);
}

#[test]
fn no_spring_when_both_sides_played() {
    let mut g = game(ANTI_SPRING_DEAL, 0);
    play(&mut g, &[(0, "bid 2"), (1, "pass"), (2, "pass")]);
    play(
        &mut g,
        &[
            (0, "3"),
            (1, "pass"),
            (2, "7"),
            (0, "J"),
            (1, "BR"),
            (2, "pass"),
            (0, "pass"),
            (1, "2222"),
            (2, "pass"),
            (0, "pass"),
            (1, "AAAA"),
            (2, "pass"),
            (0, "pass"),
            (1, "KKKK"),
            (2, "pass"),
            (0, "pass"),
            (1, "QQQ"),
        ],
    );
    assert_eq!(g.spring(), None);
    let o = g.outcome().expect("over");
    // Bid 2, four bombs (×16), no spring: 32 a farmer.
    assert_eq!(o.points, vec![-64, 32, 32]);
}

#[test]
fn escape_costs_the_leaver() {
    let mut g = game(SPRING_DEAL, 0);
    // During bidding: the leaver pays 2 units of (bid at least 1) × 2.
    let o = g.conceded(Seat(1), EndReason::Escape);
    assert_eq!(o.points, vec![2, -4, 2]);
    assert_eq!(o.results[1], SeatResult::Loss);
    play(&mut g, &[(0, "bid 2"), (1, "pass"), (2, "pass"), (0, "BR")]);
    // A farmer escapes: it alone pays the landlord; the partner's hand is void.
    let o = g.conceded(Seat(2), EndReason::Escape);
    assert_eq!(o.points, vec![16, 0, -16]);
    assert_eq!(
        o.results,
        vec![SeatResult::Win, SeatResult::Void, SeatResult::Loss]
    );
    // The landlord escapes: as a loss with the extra doubling.
    let o = g.conceded(Seat(0), EndReason::Escape);
    assert_eq!(o.points, vec![-16, 8, 8]);
    // A farmer resigns: the side loses as if played out, no extra doubling.
    let o = g.conceded(Seat(1), EndReason::Resignation);
    assert_eq!(o.points, vec![8, -4, -4]);
    assert_eq!(o.reason, EndReason::Resignation);
    for o in [
        g.conceded(Seat(0), EndReason::Escape),
        g.conceded(Seat(1), EndReason::Escape),
        g.conceded(Seat(2), EndReason::Timeout),
    ] {
        assert_eq!(o.points.iter().sum::<i64>(), 0, "zero-sum");
    }
}

/// Plays a whole hand with random legal actions (deterministic), returning the game.
fn random_hand(seed: u64) -> Doudizhu {
    let mut g = Doudizhu::new(&Options::default(), &Setup::Seed(seed)).unwrap();
    let mut rng = qiyuan_doudizhu::rng::SplitMix64::new(seed ^ 0xABCD);
    while let Turn::Seat(seat) = g.turn() {
        let legal = g.legal_actions(seat);
        // Prefer playing over passing so hands end.
        let pick = legal[rng.below(legal.len() as u64) as usize].clone();
        g.act(seat, &pick).unwrap();
    }
    g
}

#[test]
fn the_record_replays_to_the_same_end() {
    for seed in 0..20 {
        let g = random_hand(seed);
        let meta = RecordMeta {
            players: vec!["a".into(), "b".into(), "c".into()],
            ..RecordMeta::default()
        };
        let text = g.record(&meta);
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(json["seed"], seed);
        assert_eq!(json["deal"]["hands"][0].as_array().unwrap().len(), 17);
        assert_eq!(json["deal"]["bottom"].as_array().unwrap().len(), 3);
        // Loaded under other options, it still replays: the record names the first bidder.
        let other = Options {
            first_bidder: Some(g.first_bidder().next(3)),
        };
        let (setup, actions) = Doudizhu::load(&other, &text).unwrap();
        let mut r = Doudizhu::new(&other, &setup).unwrap();
        for a in &actions {
            let Turn::Seat(s) = r.turn() else {
                panic!("replay ended early")
            };
            r.act(s, a).unwrap();
        }
        assert_eq!(r.view(Viewer::Spectator), g.view(Viewer::Spectator));
        assert_eq!(r.outcome(), g.outcome());
        assert_eq!(r.record(&meta), text);
        // The contract's replay gives the same.
        let log: Vec<(Seat, String)> = g.actions().to_vec();
        let r2: Doudizhu = replay(&other, &setup, &log).unwrap();
        assert_eq!(r2.outcome(), g.outcome());
    }
}

#[test]
fn views_hold_only_what_the_viewer_may_see() {
    for seed in 0..10 {
        let mut g = Doudizhu::new(&Options::default(), &Setup::Seed(seed)).unwrap();
        let mut rng = qiyuan_doudizhu::rng::SplitMix64::new(seed);
        loop {
            let over = g.turn() == Turn::Over;
            let spectator = g.view(Viewer::Spectator);
            assert!(spectator.hand.is_none());
            assert_eq!(spectator.hands.is_some(), over);
            assert_eq!(spectator.bottom.is_some(), g.landlord().is_some());
            for s in 0..3u8 {
                let v = g.view(Viewer::Seat(Seat(s)));
                assert_eq!(v.hand, Some(g.hand(Seat(s))));
                assert_eq!(v.counts[s as usize] as usize, g.hand(Seat(s)).len());
                let json = serde_json::to_string(&v).unwrap();
                if !over {
                    assert!(v.hands.is_none());
                    // No card of another seat's hand appears, except the bottom
                    // cards, which are public once the landlord took them.
                    let public = v.bottom.unwrap_or_default();
                    for other in (0..3).filter(|&o| o != s) {
                        for card in g.hand(Seat(other)).minus(public).cards() {
                            assert!(
                                !json.contains(&format!("\"{card}\"")),
                                "seat {s}'s view shows {card} of seat {other}"
                            );
                        }
                    }
                    if g.landlord().is_none() {
                        for card in g.deal().bottom.cards() {
                            assert!(
                                !json.contains(&format!("\"{card}\""))
                                    || v.hand.unwrap().contains(card)
                            );
                        }
                    }
                }
            }
            let Turn::Seat(seat) = g.turn() else { break };
            let legal = g.legal_actions(seat);
            assert_eq!(g.view(Viewer::Seat(seat)).legal, legal);
            let pick = legal[rng.below(legal.len() as u64) as usize].clone();
            g.act(seat, &pick).unwrap();
        }
        let end = g.view(Viewer::Spectator);
        assert!(end.hands.is_some() && end.outcome.is_some());
    }
}

#[test]
fn hands_are_counted_as_ranks_in_any_notation() {
    let mut g = game(SPRING_DEAL, 0);
    play(&mut g, &[(0, "bid 1"), (1, "pass"), (2, "pass")]);
    // Cards in any order, either case.
    let e = g.act(Seat(0), "q j q j q j").unwrap();
    assert_eq!(e.canonical, "JJJQQQ");
    assert_eq!(Counts::parse(&e.canonical).unwrap().len(), 6);
}

#[test]
fn bots_decide_from_what_their_seat_sees() {
    use qiyuan_doudizhu::bot::{Strength, choose};
    // Seat 0's hand and the bottom are the same; seats 1 and 2 hold different cards.
    let a = "33445566778899TTJ/QQQQKKKAAAA2222BR/3345566778899TTJJ/JK4".to_string();
    let b = "33445566778899TTJ/3345566778899TTJJ/QQQQKKKAAAA2222BR/JK4".to_string();
    let ga = game(&a, 0);
    let gb = game(&b, 0);
    let (va, vb) = (
        ga.view(Viewer::Seat(Seat(0))),
        gb.view(Viewer::Seat(Seat(0))),
    );
    assert_eq!(va, vb, "the hidden hands differ, the views do not");
    for strength in [Strength::Basic, Strength::Strong] {
        assert_eq!(choose(&va, strength, 5), choose(&vb, strength, 5));
    }
    let (mut ga, mut gb) = (ga, gb);
    play(&mut ga, &[(0, "bid 3")]);
    play(&mut gb, &[(0, "bid 3")]);
    let (va, vb) = (
        ga.view(Viewer::Seat(Seat(0))),
        gb.view(Viewer::Seat(Seat(0))),
    );
    assert_eq!(va, vb);
    for strength in [Strength::Basic, Strength::Strong] {
        let x = choose(&va, strength, 9).unwrap();
        assert_eq!(Some(x.clone()), choose(&vb, strength, 9));
        ga.act(Seat(0), &x).expect("the bot's play is legal");
        ga = game(&a, 0);
        play(&mut ga, &[(0, "bid 3")]);
    }
}

/// A hand dealt from a secret, with random legal actions after `passes` deals
/// passed out by everyone.
fn secret_hand(secret: Secret, passes: usize, seed: u64) -> Doudizhu {
    let mut g = Doudizhu::new(&Options::default(), &Setup::Secret(secret)).unwrap();
    for _ in 0..passes {
        for _ in 0..3 {
            let Turn::Seat(s) = g.turn() else { panic!() };
            g.act(s, "pass").unwrap();
        }
    }
    let mut rng = qiyuan_doudizhu::rng::SplitMix64::new(seed);
    while let Turn::Seat(seat) = g.turn() {
        let legal = g.legal_actions(seat);
        let pick = legal[rng.below(legal.len() as u64) as usize].clone();
        g.act(seat, &pick).unwrap();
    }
    g
}

#[test]
fn secret_deals_are_reproducible_complete_and_apart() {
    let a = Doudizhu::new(&Options::default(), &Setup::Secret(Secret([1; 32]))).unwrap();
    let b = Doudizhu::new(&Options::default(), &Setup::Secret(Secret([1; 32]))).unwrap();
    let mut other = [1; 32];
    other[31] = 2;
    let c = Doudizhu::new(&Options::default(), &Setup::Secret(Secret(other))).unwrap();
    assert_eq!(a.deal(), b.deal(), "a secret deals the same on replay");
    assert_eq!(a.first_bidder(), b.first_bidder());
    assert_ne!(a.deal(), c.deal(), "one bit of the secret changes the deal");
    let d = a.deal();
    let all = d.hands.iter().fold(d.bottom, |all, h| {
        assert_eq!(h.len(), 17);
        assert_eq!(all.0 & h.0, 0, "hands overlap");
        all.union(*h)
    });
    assert_eq!(all.len(), 54);
    // Redeals come from the same secret, each different, the same on replay.
    let deals = |secret: Secret| {
        let mut g = Doudizhu::new(&Options::default(), &Setup::Secret(secret)).unwrap();
        let mut out = vec![*g.deal()];
        for _ in 0..3 {
            for _ in 0..3 {
                let Turn::Seat(s) = g.turn() else { panic!() };
                g.act(s, "pass").unwrap();
            }
            out.push(*g.deal());
        }
        out
    };
    let ds = deals(Secret([9; 32]));
    assert_eq!(ds, deals(Secret([9; 32])));
    for i in 0..ds.len() {
        for j in 0..i {
            assert_ne!(ds[i], ds[j], "deal {i} repeats deal {j}");
        }
    }
    // Every seat is drawn as first bidder for some secret.
    let seats: std::collections::BTreeSet<u8> = (0..30u8)
        .map(|i| {
            Doudizhu::new(&Options::default(), &Setup::Secret(Secret([i; 32])))
                .unwrap()
                .first_bidder()
                .0
        })
        .collect();
    assert_eq!(seats.len(), 3);
}

#[test]
fn a_secret_hand_records_its_deals_never_a_secret() {
    for (i, passes) in [0usize, 1, 2].into_iter().enumerate() {
        let secret = Secret([0x40 + i as u8; 32]);
        let g = secret_hand(secret, passes, i as u64);
        let meta = RecordMeta::default();
        let text = g.record(&meta);
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert!(json.get("seed").is_none(), "no seed in {text}");
        assert!(json.get("position").is_none(), "{text}");
        assert!(
            !text.contains(&secret.to_hex()),
            "the secret is not in the record"
        );
        assert_eq!(json["passed_out"].as_array().unwrap().len(), passes);
        // The deals replay the hand, redeals included.
        let (setup, actions) = Doudizhu::load(&Options::default(), &text).unwrap();
        let mut r = Doudizhu::new(&Options::default(), &setup).unwrap();
        for a in &actions {
            let Turn::Seat(s) = r.turn() else {
                panic!("replay ended early")
            };
            r.act(s, a).unwrap();
        }
        assert_eq!(r.outcome(), g.outcome());
        assert_eq!(r.redeals(), passes);
        assert_eq!(r.deal().to_ranks(), g.deal().to_ranks());
        assert_eq!(
            r.view(Viewer::Spectator).plays,
            g.view(Viewer::Spectator).plays
        );
    }
}

#[test]
fn cards_bids_and_passes_are_named_as_players_say_them() {
    use qiyuan_doudizhu::Lang;
    use qiyuan_doudizhu::game::words;
    assert_eq!(words("TTJ", false, Lang::Zh), "10 10 J");
    assert_eq!(words("BR", false, Lang::Zh), "小王 大王");
    assert_eq!(words("BR", false, Lang::En), "Little Joker Big Joker");
    assert_eq!(words("2R", false, Lang::En), "2 Big Joker");
    assert_eq!(words("bid 2", true, Lang::Zh), "叫2分");
    assert_eq!(words("bid 2", true, Lang::En), "Bid 2");
    assert_eq!(words("pass", true, Lang::Zh), "不叫");
    assert_eq!(words("pass", false, Lang::Zh), "不出");
    assert_eq!(words("pass", true, Lang::En), "No bid");
    assert_eq!(words("pass", false, Lang::En), "Pass");
}

#[test]
fn the_record_names_each_action_in_both_languages_and_only_a_missed_bid_times_out_to_a_pass() {
    // Seat 0 holds the rocket and bids first.
    let deal = "333344445555666BR/677788889999TTTTJ/JJJQQQQKKKKAAAA22/722 first 0";
    let mut g = Doudizhu::new(&Default::default(), &Setup::Position(deal.into())).unwrap();
    assert_eq!(g.time_out_action(Seat(0)).as_deref(), Some("pass"));
    assert_eq!(g.time_out_action(Seat(1)), None, "not its turn");
    let e = g.act(Seat(0), "bid 3").unwrap();
    assert_eq!(e.display, "叫3分");
    // In play the rules take no action for a seat out of time.
    assert_eq!(g.time_out_action(Seat(0)), None);
    let e = g.act(Seat(0), "BR").unwrap();
    assert_eq!(
        (e.canonical.as_str(), e.display.as_str()),
        ("BR", "小王 大王")
    );
    g.act(Seat(1), "pass").unwrap();
    g.act(Seat(2), "pass").unwrap();
    g.act(Seat(0), "2").unwrap();
    let record = g.record_data(&RecordMeta::default());
    let said: Vec<(&str, &str, &str)> = record
        .actions
        .iter()
        .map(|a| (a.action.as_str(), a.zh.as_str(), a.en.as_str()))
        .collect();
    assert_eq!(
        said,
        [
            ("bid 3", "叫3分", "Bid 3"),
            ("BR", "小王 大王", "Little Joker Big Joker"),
            ("pass", "不出", "Pass"),
            ("pass", "不出", "Pass"),
            ("2", "2", "2"),
        ]
    );
    // The words are for reading: the record replays from its actions.
    let text = g.record(&RecordMeta::default());
    let (_, actions) = Doudizhu::load(&Default::default(), &text).unwrap();
    assert_eq!(actions, ["bid 3", "BR", "pass", "pass", "2"]);
}
