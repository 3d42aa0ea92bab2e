//! Simulates an event and writes it as TRF: `simulate PLAYERS PLAYED TOTAL SEED`.

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numbers: players played total seed"))
        .collect();
    let [players, played, total, seed] = args[..] else {
        panic!("usage: simulate PLAYERS PLAYED TOTAL SEED");
    };
    let start = std::time::Instant::now();
    let t = qiyuan_swiss::simulate::simulated_event(
        players as usize,
        played as usize,
        total as u32,
        seed,
    )
    .expect("a simulated event");
    eprintln!("simulated in {:?}", start.elapsed());
    print!("{}", qiyuan_swiss::trf::write(&t));
}
