//! The matching state of one pairing: a symmetric weight matrix over the
//! players still to pair, solved from scratch with `integer-blossom` on the
//! vertices a caller names. Fixed pairs leave the graph: their edge would be
//! taken in every maximum matching anyway.

use super::wide::EdgeWeight;

/// What an edge's weight is made of: which bracket fields it counts in, and
/// the adjustments of the exchange and transposition steps. The integer weight
/// is made from it for each solve, under the layout of the bracket in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Recipe {
    /// No edge: the players may not meet, or the step excludes the pair.
    none: bool,
    /// The lower player is in the current bracket.
    pub current: bool,
    /// The lower player is in the next bracket.
    pub next: bool,
    /// C9 applies (the bye goes to this bracket's score).
    pub bye_rule: bool,
    /// Added to the lowest bits.
    pub low: i32,
}

impl Recipe {
    pub const NONE: Recipe = Recipe {
        none: true,
        current: false,
        next: false,
        bye_rule: false,
        low: 0,
    };

    pub const fn edge(current: bool, next: bool, bye_rule: bool) -> Recipe {
        Recipe {
            none: false,
            current,
            next,
            bye_rule,
            low: 0,
        }
    }

    pub const fn is_none(&self) -> bool {
        self.none
    }

    /// The same edge with `d` added to its lowest bits.
    pub fn plus(self, d: i64) -> Recipe {
        if self.none {
            return self;
        }
        Recipe {
            low: (i64::from(self.low) + d) as i32,
            ..self
        }
    }
}

pub(crate) struct Matcher {
    n: usize,
    weights: Vec<Recipe>,
    /// The partner of a vertex whose pair is fixed.
    fixed: Vec<Option<usize>>,
}

impl Matcher {
    pub fn new(n: usize) -> Self {
        Matcher {
            n,
            weights: vec![Recipe::NONE; n * n],
            fixed: vec![None; n],
        }
    }

    pub fn set(&mut self, a: usize, b: usize, w: Recipe) {
        self.weights[a * self.n + b] = w;
        self.weights[b * self.n + a] = w;
    }

    /// Fixes the pair `a`-`b`: both leave the graph.
    pub fn fix(&mut self, a: usize, b: usize) {
        self.fixed[a] = Some(b);
        self.fixed[b] = Some(a);
    }

    pub fn fixed(&self, v: usize) -> Option<usize> {
        self.fixed[v]
    }

    /// A maximum-weight matching of the `vertices`, each edge weighed by
    /// `weigh(a, b, stored weight)`: for each vertex (by position in
    /// `vertices`), the position of its partner.
    pub fn solve_on<W: EdgeWeight>(
        &self,
        vertices: &[usize],
        mut weigh: impl FnMut(usize, usize, Recipe) -> W,
    ) -> Vec<Option<usize>> {
        let m = vertices.len();
        let mut scratch = vec![W::ZERO; m * m];
        for (i, &a) in vertices.iter().enumerate() {
            for (j, &b) in vertices.iter().enumerate().skip(i + 1) {
                let w = self.weights[a * self.n + b];
                scratch[i * m + j] = if w.is_none() { W::ZERO } else { weigh(a, b, w) };
            }
        }
        integer_blossom::max_weight_matching(&scratch, m)
    }
}
