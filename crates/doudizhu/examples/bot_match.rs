//! Games between the bots: the strong bot against the rule-based one, as landlord
//! and as the two farmers, on the same deals.
//!
//! `cargo run --release -p qiyuan-doudizhu --example bot_match -- [DEALS]`
//!
//! Each deal (seed 1..=DEALS) is played three times with seat 0 bidding 3 (so the
//! roles are fixed): the strong landlord against basic farmers, the basic landlord
//! against strong farmers, and basic against basic as the baseline. DEALS = 500
//! gives the 1,000 games between the two strengths.

use std::time::Instant;

use qiyuan_doudizhu::bot::{Strength, choose};
use qiyuan_doudizhu::{Doudizhu, Options};
use qiyuan_game::{Game, Seat, Setup, Turn, Viewer};

/// Plays one deal with seat 0 as landlord (bid 3); `strengths[s]` plays seat s.
/// Returns the landlord's points.
fn play(seed: u64, strengths: [Strength; 3]) -> i64 {
    let options = Options {
        first_bidder: Some(Seat(0)),
    };
    let mut g = Doudizhu::new(&options, &Setup::Seed(seed)).expect("a seeded deal");
    g.act(Seat(0), "bid 3").expect("the first bid");
    let mut n = 0u64;
    while let Turn::Seat(s) = g.turn() {
        let view = g.view(Viewer::Seat(s));
        let action = choose(&view, strengths[s.index()], seed.wrapping_mul(1009) + n)
            .expect("the seat to act has an action");
        g.act(s, &action).expect("bots play legal actions");
        n += 1;
    }
    g.outcome().expect("the hand is over").points[0]
}

/// Plays a whole hand with bidding, the strong bot at `seat` and basic bots
/// elsewhere: whether the strong bot was landlord and whether its side won.
fn play_with_bidding(seed: u64, seat: Seat) -> (bool, bool) {
    let mut g = Doudizhu::new(&Options::default(), &Setup::Seed(seed)).expect("a seeded deal");
    let mut n = 0u64;
    while let Turn::Seat(s) = g.turn() {
        let strength = if s == seat {
            Strength::Strong
        } else {
            Strength::Basic
        };
        let view = g.view(Viewer::Seat(s));
        let action = choose(&view, strength, seed.wrapping_mul(7919) + n).expect("an action");
        g.act(s, &action).expect("bots play legal actions");
        n += 1;
    }
    let outcome = g.outcome().expect("the hand is over");
    (
        g.landlord() == Some(seat),
        outcome.results[seat.index()] == qiyuan_game::SeatResult::Win,
    )
}

fn main() {
    let deals: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(500);
    use Strength::{Basic, Strong};
    let mut wins = [0u64; 3];
    let mut points = [0i64; 3];
    let mut time = [0f64; 3];
    let setups = [
        ("strong landlord v basic farmers", [Strong, Basic, Basic]),
        ("basic landlord v strong farmers", [Basic, Strong, Strong]),
        ("basic v basic (baseline)", [Basic, Basic, Basic]),
    ];
    for seed in 1..=deals {
        for (i, (_, s)) in setups.iter().enumerate() {
            let t = Instant::now();
            let p = play(seed, *s);
            time[i] += t.elapsed().as_secs_f64();
            points[i] += p;
            if p > 0 {
                wins[i] += 1;
            }
        }
    }
    let d = deals as f64;
    println!("{deals} deals, seat 0 landlord at bid 3; each deal played by every pairing");
    for (i, (name, _)) in setups.iter().enumerate() {
        println!(
            "{name:34} landlord wins {:5.1}%  farmers win {:5.1}%  landlord points/hand {:+7.2}  {:.1} ms/game",
            100.0 * wins[i] as f64 / d,
            100.0 * (deals - wins[i]) as f64 / d,
            points[i] as f64 / d,
            1000.0 * time[i] / d
        );
    }
    let base = wins[2] as f64 / d;
    println!(
        "strong bot as landlord: wins {:.1}% (basic landlord on the same deals: {:.1}%)",
        100.0 * wins[0] as f64 / d,
        100.0 * base
    );
    println!(
        "strong bots as farmers: win {:.1}% (basic farmers on the same deals: {:.1}%)",
        100.0 * (deals - wins[1]) as f64 / d,
        100.0 * (1.0 - base)
    );

    // Whole hands with bidding: one strong bot, its seat rotating, two basic bots.
    let mut landlord = (0u64, 0u64);
    let mut farmer = (0u64, 0u64);
    for seed in 1..=deals {
        let seat = Seat((seed % 3) as u8);
        let (was_landlord, won) = play_with_bidding(seed + 1_000_000, seat);
        let tally = if was_landlord {
            &mut landlord
        } else {
            &mut farmer
        };
        tally.0 += 1;
        tally.1 += u64::from(won);
    }
    let pct = |(n, w): (u64, u64)| 100.0 * w as f64 / n.max(1) as f64;
    println!(
        "with bidding, one strong bot v two basic ({deals} hands): landlord in {} and won {:.1}%, farmer in {} and its side won {:.1}%",
        landlord.0,
        pct(landlord),
        farmer.0,
        pct(farmer)
    );
}
