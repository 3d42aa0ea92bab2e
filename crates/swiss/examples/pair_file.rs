//! Pairs the next round of a TRF file and prints the pairing and the time taken.

fn main() {
    let path = std::env::args().nth(1).expect("usage: pair_file FILE.trf");
    let text = std::fs::read_to_string(&path).expect("readable file");
    let t = qiyuan_swiss::trf::parse(&text).expect("valid TRF");
    let start = std::time::Instant::now();
    let p = qiyuan_swiss::pair(&t).expect("a pairing");
    eprintln!("paired in {:?}", start.elapsed());
    print!("{}", p.to_pairs_text());
}
