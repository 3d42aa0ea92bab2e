//! Parsers never panic on any input, and random games keep the notations
//! consistent.

use proptest::prelude::*;
use qiyuan_xiangqi::notation::{format_chinese, format_wxf, parse_any, parse_chinese, parse_wxf};
use qiyuan_xiangqi::{Options, Position, XiangqiGame, pgn};

proptest! {
    #[test]
    fn fen_never_panics(s in "\\PC{0,80}") {
        let _ = Position::from_fen(&s);
        let _ = Position::from_fen_relaxed(&s);
    }

    #[test]
    fn fen_like_text_never_panics(s in "[rnbakcpRNBAKCP0-9/]{10,90}( [wbr])?( - - [0-9]{1,3} [0-9]{1,3})?") {
        if let Ok(p) = Position::from_fen(&s) {
            prop_assert_eq!(Position::from_fen(&p.fen()).unwrap(), p);
        }
    }

    #[test]
    fn move_parsers_never_panic(s in "\\PC{0,12}") {
        let p = Position::new();
        let _ = parse_any(&p, &s);
    }

    #[test]
    fn pgn_never_panics(s in "\\PC{0,200}") {
        let _ = pgn::read(&s);
    }

    #[test]
    fn random_games_round_trip(choices in proptest::collection::vec(0usize..1000, 0..120)) {
        let mut g = XiangqiGame::new(Options::default());
        for c in choices {
            if g.ending().is_some() {
                break;
            }
            let pos = g.position().clone();
            let moves = pos.legal_moves();
            let m = moves[c % moves.len()];
            prop_assert_eq!(parse_wxf(&pos, &format_wxf(&pos, m)), Ok(m));
            prop_assert_eq!(parse_chinese(&pos, &format_chinese(&pos, m)), Ok(m));
            g.play(m).unwrap();
        }
        let text = pgn::write(&[], g.start(), g.moves(), "*", qiyuan_xiangqi::Notation::Chinese);
        let rec = pgn::read(&text).unwrap();
        prop_assert_eq!(rec.moves.as_slice(), g.moves());
    }
}
