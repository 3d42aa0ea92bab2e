//! The matching state of one pairing: a symmetric table of edge recipes over
//! the players still to pair, and a log of what changed in it, so that a
//! matching solved before can be repaired rather than solved again. Fixed
//! pairs leave the graph: their edge would be taken in every maximum matching
//! anyway.

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

/// One entry of the change log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Change {
    /// The recipe of an edge changed.
    Edge(usize, usize),
    /// Every edge at a vertex may weigh differently (its encoding changed).
    Row(usize),
    /// The vertex's pair was fixed: it leaves the graph.
    Fixed(usize),
}

pub(crate) struct Matcher {
    n: usize,
    weights: Vec<Recipe>,
    /// The partner of a vertex whose pair is fixed.
    fixed: Vec<Option<usize>>,
    log: Vec<Change>,
}

impl Matcher {
    pub fn new(n: usize) -> Self {
        Matcher {
            n,
            weights: vec![Recipe::NONE; n * n],
            fixed: vec![None; n],
            log: Vec::new(),
        }
    }

    pub fn set(&mut self, a: usize, b: usize, w: Recipe) {
        if self.weights[a * self.n + b] == w {
            return;
        }
        self.weights[a * self.n + b] = w;
        self.weights[b * self.n + a] = w;
        self.log.push(Change::Edge(a, b));
    }

    pub fn get(&self, a: usize, b: usize) -> Recipe {
        self.weights[a * self.n + b]
    }

    /// Notes that the weights of the edges at `v` changed outside the table.
    pub fn touch(&mut self, v: usize) {
        self.log.push(Change::Row(v));
    }

    /// Fixes the pair `a`-`b`: both leave the graph.
    pub fn fix(&mut self, a: usize, b: usize) {
        self.fixed[a] = Some(b);
        self.fixed[b] = Some(a);
        self.log.push(Change::Fixed(a));
        self.log.push(Change::Fixed(b));
    }

    pub fn fixed(&self, v: usize) -> Option<usize> {
        self.fixed[v]
    }

    /// The changes from position `from` of the log on, and the log's end.
    pub fn changes_since(&self, from: usize) -> (&[Change], usize) {
        (&self.log[from..], self.log.len())
    }
}
