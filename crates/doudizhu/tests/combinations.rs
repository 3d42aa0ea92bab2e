//! Every combination, its near misses, and comparisons across kinds.

use qiyuan_doudizhu::{Counts, Kind, classify, legal_plays};

fn kind(cards: &str) -> Option<Kind> {
    classify(Counts::parse(cards).expect("cards parse")).map(|c| c.kind)
}

fn beats(a: &str, b: &str) -> bool {
    let a = classify(Counts::parse(a).unwrap()).expect("a is a combination");
    let b = classify(Counts::parse(b).unwrap()).expect("b is a combination");
    a.beats(&b)
}

#[test]
fn every_kind_is_read() {
    use Kind::*;
    let cases = [
        ("3", Single),
        ("R", Single),
        ("33", Pair),
        ("22", Pair),
        ("333", Trio),
        ("3334", TrioSingle),
        ("333B", TrioSingle),
        ("2223", TrioSingle),
        ("33344", TrioPair),
        ("22233", TrioPair),
        ("34567", Straight),
        ("3456789TJQKA", Straight),
        ("TJQKA", Straight),
        ("334455", PairChain),
        ("33445566778899TTJJQQ", PairChain),
        ("QQKKAA", PairChain),
        ("333444", Airplane),
        ("333444555666777888", Airplane),
        ("KKKAAA", Airplane),
        ("33344456", AirplaneSingles),
        ("3334445B", AirplaneSingles),
        // Single wings may be one rank.
        ("33344455", AirplaneSingles),
        ("333444555777", AirplaneSingles),
        // Three 2s can never lengthen an airplane, so they may be wings.
        ("QQQKKKAAA222", AirplaneSingles),
        ("KKKAAA22", AirplaneSingles),
        ("333444555666888T", AirplaneSingles),
        ("3334445566", AirplanePairs),
        ("333444555667788", AirplanePairs),
        ("333444555666778899TT", AirplanePairs),
        ("333345", FourTwoSingles),
        // Two single kickers may be one rank (RLCard lists 332222).
        ("333344", FourTwoSingles),
        ("3B2222", FourTwoSingles),
        ("33334455", FourTwoPairs),
        ("33KK2222", FourTwoPairs),
        ("3333", Bomb),
        ("2222", Bomb),
        ("BR", Rocket),
    ];
    for (cards, want) in cases {
        assert_eq!(kind(cards), Some(want), "{cards}");
    }
}

#[test]
fn near_misses_read_as_nothing() {
    let misses = [
        // A straight through the 2, or wrapping round.
        "TJQKA2",
        "JQKA2",
        "A2345",
        "2345",
        // Too short.
        "3456",
        "3344",
        // Pairs of the jokers do not exist; the rocket is no pair.
        "BR3",
        // Not consecutive.
        "34568",
        "334466",
        "333555",
        // A chain may not hold the 2.
        "KKKAAA222",
        "KKAA22",
        // Four with two pair kickers of one rank would be two bombs.
        "33334444",
        // The two jokers are the rocket, never kickers.
        "3333BR",
        "333444BR",
        // A kicker never shares a rank with the trios or the four.
        "33334445",
        "3333444",
        "3333444455",
        // Three cards next to an airplane lengthen it; as wings they read as nothing.
        "3334445556",
        "333444555666777T",
        // Four of a rank are never wings.
        "3334445555",
        // Wrong number of wings.
        "333444567",
        "33344455667",
        "3333445",
        "",
    ];
    for cards in misses {
        let c = Counts::parse(cards).unwrap();
        assert_eq!(classify(c), None, "{cards} should read as nothing");
    }
}

#[test]
fn one_reading_bare_first() {
    // Four trios read as an airplane of four, never three trios with wings.
    let c = classify(Counts::parse("333444555666").unwrap()).unwrap();
    assert_eq!((c.kind, c.chain), (Kind::Airplane, 4));
    // Three trios next to each other and three of a fourth rank, not adjacent.
    let c = classify(Counts::parse("444555666888").unwrap()).unwrap();
    assert_eq!(
        (c.kind, c.chain, c.rank.letter()),
        (Kind::AirplaneSingles, 3, '4')
    );
}

#[test]
fn same_kind_and_length_beats_by_rank() {
    assert!(beats("4", "3"));
    assert!(beats("2", "A"));
    assert!(beats("B", "2"));
    assert!(beats("R", "B"));
    assert!(!beats("3", "3"));
    assert!(beats("45678", "34567"));
    assert!(
        !beats("456789", "34567"),
        "a longer straight is another length"
    );
    assert!(beats("44433", "33344"));
    assert!(!beats("33344", "3334"), "another kind");
    assert!(beats("444555", "333444"));
    assert!(!beats("444555666", "333444"));
    assert!(
        beats("44455536", "33344456"),
        "wings do not matter, the trios do"
    );
    assert!(beats("444435", "3333A2"));
    assert!(beats("44445566", "3333AA22"));
    assert!(!beats("4444AA", "33335566"));
}

#[test]
fn bombs_and_the_rocket() {
    for other in [
        "2",
        "22",
        "222B",
        "TJQKA",
        "3456789TJQKA",
        "333444555666",
        "AAAA23",
    ] {
        assert!(beats("3333", other), "a bomb beats {other}");
        assert!(beats("BR", other), "the rocket beats {other}");
        assert!(!beats(other, "3333"));
    }
    assert!(beats("4444", "3333"));
    assert!(!beats("3333", "4444"));
    assert!(beats("BR", "2222"));
    assert!(!beats("2222", "BR"));
    assert!(!beats("BR", "BR"));
}

#[test]
fn following_lists_only_beating_plays() {
    let hand = Counts::parse("445566778899TJ2222BR").unwrap();
    let last = classify(Counts::parse("334455").unwrap()).unwrap();
    let plays = legal_plays(hand, Some(&last));
    // 445566 … 778899 (four chains of three pairs), 2222 and the rocket.
    assert_eq!(plays.len(), 4 + 1 + 1);
    for play in plays {
        assert!(
            play.beats(&last),
            "{} does not beat {}",
            play.cards,
            last.cards
        );
    }
    let rocket = classify(Counts::parse("BR").unwrap()).unwrap();
    assert!(legal_plays(hand, Some(&rocket)).is_empty());
}
