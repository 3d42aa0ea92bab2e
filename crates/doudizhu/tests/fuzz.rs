//! Nothing a client sends can panic the rules or change a game when refused.

use proptest::prelude::*;
use qiyuan_doudizhu::{Card, Counts, Doudizhu, Options, classify, legal_plays};
use qiyuan_game::{Game, Seat, Setup, Turn, Viewer};

proptest! {
    #[test]
    fn parsers_never_panic(text in "\\PC{0,40}") {
        let _ = Counts::parse(&text);
        let _ = text.parse::<Card>();
        let _ = Doudizhu::new(&Options::default(), &Setup::Position(text.clone()));
    }

    #[test]
    fn card_strings_never_panic(text in "[0-9TJQKABRbrshcdx ,]{0,30}") {
        if let Ok(c) = Counts::parse(&text) {
            // Whatever parses prints back to the same multiset.
            prop_assert_eq!(Counts::parse(&c.to_string()).unwrap(), c);
            if let Some(combo) = classify(c) {
                prop_assert_eq!(combo.cards, c);
            }
            let _ = legal_plays(c, None);
        }
    }

    #[test]
    fn refused_actions_change_nothing(seed in any::<u64>(), steps in 0usize..60, junk in "\\PC{0,12}") {
        let mut g = Doudizhu::new(&Options::default(), &Setup::Seed(seed)).unwrap();
        let mut i = 0;
        while let Turn::Seat(s) = g.turn() {
            if i == steps { break; }
            let legal = g.legal_actions(s);
            let pick = legal[(seed as usize).wrapping_add(i * 31) % legal.len()].clone();
            g.act(s, &pick).unwrap();
            i += 1;
        }
        let before = g.view(Viewer::Spectator);
        for seat in 0..4u8 {
            let mut h = g.clone();
            if h.act(Seat(seat), &junk).is_err() {
                prop_assert_eq!(h.view(Viewer::Spectator), before.clone());
            }
        }
    }
}
