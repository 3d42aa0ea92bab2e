//! Enumerating every legal play of random 20-card hands (a landlord's hand after
//! taking the bottom), leading and following; counts plays per second.

use divan::{Bencher, black_box, counter::ItemsCount};
use qiyuan_doudizhu::{Combo, Counts, Deal, classify, for_each_play, legal_plays};

fn main() {
    divan::main();
}

/// 1,000 landlord hands: 17 cards and the bottom, from seeded deals.
fn hands() -> Vec<Counts> {
    (0..1000u64)
        .map(|seed| {
            let d = Deal::from_seed(seed);
            d.hands[0].union(d.bottom).counts()
        })
        .collect()
}

#[divan::bench]
fn lead_20_cards(bencher: Bencher) {
    let hands = hands();
    let plays: usize = hands.iter().map(|h| legal_plays(*h, None).len()).sum();
    bencher.counter(ItemsCount::new(plays)).bench(|| {
        let mut n = 0usize;
        for h in &hands {
            for_each_play(black_box(*h), None, |c| {
                n += c.cards.len();
            });
        }
        n
    });
}

#[divan::bench]
fn follow_20_cards(bencher: Bencher) {
    let hands = hands();
    // Each hand follows a play that another hand of the set leads with.
    let lasts: Vec<Combo> = (0..hands.len())
        .map(|i| {
            let leads = legal_plays(hands[(i + 1) % hands.len()], None);
            let pick = leads[(i * 7919) % leads.len()];
            classify(pick.cards).unwrap_or(pick)
        })
        .collect();
    let plays: usize = hands
        .iter()
        .zip(&lasts)
        .map(|(h, l)| legal_plays(*h, Some(l)).len())
        .sum();
    bencher.counter(ItemsCount::new(plays.max(1))).bench(|| {
        let mut n = 0usize;
        for (h, l) in hands.iter().zip(&lasts) {
            for_each_play(black_box(*h), Some(l), |c| n += c.cards.len());
        }
        n
    });
}

#[divan::bench]
fn classify_plays(bencher: Bencher) {
    let hands = hands();
    let plays: Vec<Counts> = hands
        .iter()
        .take(100)
        .flat_map(|h| legal_plays(*h, None).into_iter().map(|c| c.cards))
        .collect();
    bencher.counter(ItemsCount::new(plays.len())).bench(|| {
        plays
            .iter()
            .filter(|p| classify(black_box(**p)).is_some())
            .count()
    });
}
