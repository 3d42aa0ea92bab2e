//! Simulates an event and writes it as TRF:
//! `simulate [--approximate] PLAYERS PLAYED TOTAL SEED`.
//!
//! Without `--approximate` every simulated round is paired by the exact Dutch
//! pairer (slow for large events); with it the rounds are paired by the fast
//! approximate pairer of `qiyuan_swiss::simulate`, and the history is checked
//! to be valid input for the exact pairing of the next round.

fn main() {
    let mut approximate = false;
    let mut args: Vec<u64> = Vec::new();
    for a in std::env::args().skip(1) {
        if a == "--approximate" {
            approximate = true;
        } else {
            args.push(a.parse().expect("numbers: players played total seed"));
        }
    }
    let [players, played, total, seed] = args[..] else {
        panic!("usage: simulate [--approximate] PLAYERS PLAYED TOTAL SEED");
    };
    let start = std::time::Instant::now();
    let t = if approximate {
        let t = qiyuan_swiss::simulate::approximate_event(
            players as usize,
            played as usize,
            total as u32,
            seed,
        )
        .expect("an approximate history");
        qiyuan_swiss::simulate::check_history(&t).expect("a valid history");
        t
    } else {
        qiyuan_swiss::simulate::simulated_event(
            players as usize,
            played as usize,
            total as u32,
            seed,
        )
        .expect("a simulated event")
    };
    eprintln!("simulated in {:?}", start.elapsed());
    print!("{}", qiyuan_swiss::trf::write(&t));
}
