//! The matching state of one pairing: a symmetric weight matrix over the
//! players still to pair, solved from scratch with `integer-blossom` each time a
//! weight has changed. Fixed pairs leave the graph: their edge would be taken in
//! every maximum matching anyway.

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

    /// A maximum-weight matching: each vertex's partner, itself if unmatched.
    pub fn solve(&mut self) -> Vec<usize> {
        let live: Vec<usize> = (0..self.n).filter(|&v| self.fixed[v].is_none()).collect();
        let m = live.len();
        self.scratch.clear();
        self.scratch.resize(m * m, W::ZERO);
        for (i, &a) in live.iter().enumerate() {
            for (j, &b) in live.iter().enumerate().skip(i + 1) {
                self.scratch[i * m + j] = self.weights[a * self.n + b];
            }
        }
        let mates = integer_blossom::max_weight_matching(&self.scratch, m);
        let mut out: Vec<usize> = (0..self.n).map(|v| self.fixed[v].unwrap_or(v)).collect();
        for (i, &a) in live.iter().enumerate() {
            if let Some(j) = mates[i] {
                out[a] = live[j];
            }
        }
        out
    }
}
