//! Simulated events for benchmarks and tests: players with ratings, rounds
//! paired by the Dutch system and results drawn from a seeded generator.
//!
//! Everything follows from the seed, so the same call gives the same event.

use crate::dutch::{PairError, pair};
use crate::model::{Colour, ResultCode, Tournament};

/// A small deterministic generator (SplitMix64).
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    pub fn new(seed: u64) -> Self {
        SplitMix(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// An event of `players` players and `total_rounds` rounds with the first
/// `played` rounds paired and played. Ratings run from about 2700 down to
/// 1000; a few players ask for half-point byes; results follow the rating
/// difference (Elo expectation, with draws around it).
pub fn simulated_event(
    players: usize,
    played: usize,
    total_rounds: u32,
    seed: u64,
) -> Result<Tournament, PairError> {
    let mut rng = SplitMix::new(seed);
    let mut ratings: Vec<u32> = (0..players)
        .map(|_| 1000 + (rng.unit() * 1700.0) as u32)
        .collect();
    ratings.sort_unstable_by(|a, b| b.cmp(a));
    let mut t = Tournament::new(
        total_rounds,
        if seed.is_multiple_of(2) {
            Colour::White
        } else {
            Colour::Black
        },
    );
    for (i, r) in ratings.iter().enumerate() {
        t.add_player(&format!("Player {:05}", i + 1), Some(*r));
    }
    for round in 1..=played {
        for p in 1..=players as u32 {
            if rng.unit() < 0.01 {
                // Requests are checked by construction: the player exists.
                let _ = t.request_bye(p, round, ResultCode::HalfBye);
            }
        }
        let pairing = pair(&t)?;
        for &(w, b) in &pairing.games {
            let rating = |p: u32| f64::from(t.player(p).and_then(|x| x.rating).unwrap_or(1500));
            let expected = 1.0 / (1.0 + 10f64.powf((rating(b) - rating(w)) / 400.0));
            let x = rng.unit();
            let result = if x < expected - 0.15 {
                ResultCode::Win
            } else if x < expected + 0.15 {
                ResultCode::Draw
            } else {
                ResultCode::Loss
            };
            let _ = t.record_game(round, w, b, result);
        }
        if let Some(p) = pairing.bye {
            let _ = t.record_pairing_bye(round, p);
        }
        t.update_points(round);
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_event() {
        let a = simulated_event(30, 3, 5, 7).unwrap();
        let b = simulated_event(30, 3, 5, 7).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.paired_rounds(), 3);
        // Every round paired everyone present: 30 players, a few byes.
        let scores: u32 = a.players.iter().map(|p| p.points).sum();
        assert!(scores > 0);
        // The event round-trips through TRF.
        let text = crate::trf::write(&a);
        assert_eq!(crate::trf::parse(&text).unwrap().players, a.players);
    }
}
