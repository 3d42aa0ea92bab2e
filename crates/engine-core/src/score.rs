//! A search's score as the protocols report it, and the internal mate scores it
//! comes from (the same for every alpha-beta engine).

/// The internal score of a mate at the root; a mate in `n` plies scores
/// `MATE - n`.
pub const MATE: i32 = 31_000;
/// Scores beyond this (either sign) are mates.
pub const MATE_BOUND: i32 = MATE - 1000;

/// A score as UCI and UCCI report it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl Score {
    /// The score an internal value (centipawns, or beyond [`MATE_BOUND`] a
    /// mate) reports.
    pub fn from_internal(s: i32) -> Score {
        if s > MATE_BOUND {
            Score::Mate((MATE - s + 1) / 2)
        } else if s < -MATE_BOUND {
            Score::Mate(-((MATE + s) / 2))
        } else {
            Score::Cp(s)
        }
    }

    /// The expected score (0 … 1) of the side it is for: a mate is certain,
    /// centipawns count as Elo points do, 1 / (1 + 10^(−cp/400)).
    pub fn expected(self) -> f32 {
        match self {
            Score::Cp(cp) => expected_of_cp(cp),
            Score::Mate(n) if n > 0 => 1.0,
            Score::Mate(_) => 0.0,
        }
    }
}

/// The expected score of an evaluation of `cp` centipawns.
pub fn expected_of_cp(cp: i32) -> f32 {
    1.0 / (1.0 + 10f32.powf(-(cp as f32) / 400.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mates_and_centipawns() {
        assert_eq!(Score::from_internal(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_internal(-(MATE - 2)), Score::Mate(-1));
        assert_eq!(Score::from_internal(35), Score::Cp(35));
        assert_eq!(Score::Mate(3).expected(), 1.0);
        assert_eq!(Score::Mate(-2).expected(), 0.0);
        assert_eq!(Score::Cp(0).expected(), 0.5);
        assert!((Score::Cp(400).expected() - 10.0 / 11.0).abs() < 1e-6);
    }
}
