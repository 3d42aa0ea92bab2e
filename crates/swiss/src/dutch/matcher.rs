//! The matching state of one pairing: a symmetric weight matrix over the
//! players still to pair, solved from scratch with `integer-blossom` on the
//! vertices a caller names. Fixed pairs leave the graph: their edge would be
//! taken in every maximum matching anyway.

use super::wide::EdgeWeight;

pub(crate) struct Matcher<W> {
    n: usize,
    weights: Vec<W>,
    /// The partner of a vertex whose pair is fixed.
    fixed: Vec<Option<usize>>,
    scratch: Vec<W>,
}

impl<W: EdgeWeight> Matcher<W> {
    pub fn new(n: usize) -> Self {
        Matcher {
            n,
            weights: vec![W::ZERO; n * n],
            fixed: vec![None; n],
            scratch: Vec::new(),
        }
    }

    pub fn set(&mut self, a: usize, b: usize, w: W) {
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
    pub fn solve_on(
        &mut self,
        vertices: &[usize],
        mut weigh: impl FnMut(usize, usize, W) -> W,
    ) -> Vec<Option<usize>> {
        let m = vertices.len();
        self.scratch.clear();
        self.scratch.resize(m * m, W::ZERO);
        for (i, &a) in vertices.iter().enumerate() {
            for (j, &b) in vertices.iter().enumerate().skip(i + 1) {
                let w = self.weights[a * self.n + b];
                self.scratch[i * m + j] = if w == W::ZERO { w } else { weigh(a, b, w) };
            }
        }
        integer_blossom::max_weight_matching(&self.scratch, m)
    }
}
