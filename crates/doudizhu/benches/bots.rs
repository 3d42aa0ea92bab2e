//! Whole hands between the bots, and single decisions. The 1,000-game match with
//! win rates is the example `bot_match`.

use divan::{Bencher, black_box};
use qiyuan_doudizhu::bot::{Strength, choose};
use qiyuan_doudizhu::{Doudizhu, Options};
use qiyuan_game::{Game, Seat, Setup, Turn, Viewer};

fn main() {
    divan::main();
}

fn play(seed: u64, strengths: [Strength; 3]) -> i64 {
    let mut g = Doudizhu::new(&Options::default(), &Setup::Seed(seed)).expect("a deal");
    let mut n = 0u64;
    while let Turn::Seat(s) = g.turn() {
        let a =
            choose(&g.view(Viewer::Seat(s)), strengths[s.index()], seed + n).expect("an action");
        g.act(s, &a).expect("a legal action");
        n += 1;
    }
    g.outcome().map_or(0, |o| o.points[0])
}

#[divan::bench(args = [Strength::Basic, Strength::Strong], sample_count = 20, sample_size = 1)]
fn whole_hand(bencher: Bencher, strength: Strength) {
    let mut seed = 0u64;
    bencher.bench_local(|| {
        seed += 1;
        let s = [strength, Strength::Basic, Strength::Basic];
        black_box(play(seed, s))
    });
}

#[divan::bench(args = [Strength::Basic, Strength::Strong], sample_count = 20, sample_size = 1)]
fn landlord_first_lead(bencher: Bencher, strength: Strength) {
    let options = Options {
        first_bidder: Some(Seat(0)),
    };
    let mut g = Doudizhu::new(&options, &Setup::Seed(99)).expect("a deal");
    g.act(Seat(0), "bid 3").expect("a bid");
    let view = g.view(Viewer::Seat(Seat(0)));
    bencher.bench_local(|| choose(black_box(&view), strength, 1));
}
