//! Maximum-weight matching on a general graph that re-solves from its last
//! solution.
//!
//! The primal-dual blossom method (Edmonds; the stage structure of Galil,
//! Micali and Gabow, 1986), written so that a solution can be kept and
//! repaired: when the edges at a vertex change, the blossoms holding it are
//! dissolved (their duals moved onto their vertices, which keeps every edge
//! feasible), the vertex is unmatched and given the least dual that keeps its
//! edges feasible, and only the vertices left free with a positive dual are
//! grown into alternating trees again. A change at `k` vertices costs about
//! `k` stages of `O(n²)` instead of a solve from scratch.
//!
//! Duals are doubled (an edge's slack is `y(u) + y(v) - 2w + 2 Σ z(B)`), so
//! every quantity is an integer. A stage grows trees only from roots whose
//! duals share one parity: then all labelled vertices share it, and the slack
//! between two of them is even and can be halved exactly.
//!
//! Optimality, kept at the end of every solve: every slack is at least zero,
//! matched edges and the edges of every blossom's cycle have zero slack,
//! every dual is at least zero, and every free vertex has a zero dual.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

use integer_blossom::Weight;

const NONE: usize = usize::MAX;
const FREE: u8 = 0;
const S: u8 = 1;
const T: u8 = 2;

/// An edge as (a vertex outside, a vertex inside), or the reverse for
/// blossom cycle edges: see the fields.
type Edge = (usize, usize);
const NO_EDGE: Edge = (NONE, NONE);

/// A multiply-and-rotate hash for the weight table's keys (whole limbs):
/// the default SipHash showed in the profile of a cold solve.
#[derive(Default)]
struct LimbHasher(u64);

impl Hasher for LimbHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    fn write_i64(&mut self, x: i64) {
        self.write_u64(x as u64);
    }
    fn write_i128(&mut self, x: i128) {
        self.write_u64(x as u64);
        self.write_u64((x >> 64) as u64);
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
}

pub(crate) struct WarmMatching<W> {
    n: usize,
    /// `n × n`: each edge's doubled weight as an index into `values`
    /// (0: no edge). A bracket's weights take a few thousand distinct
    /// values, so the table stays in cache while the rows the scans read
    /// are a twelfth of the wide weights' size.
    codes: Vec<u32>,
    values: Vec<W>,
    value_code: HashMap<W, u32, BuildHasherDefault<LimbHasher>>,
    /// The last weight coded, and its code: neighbouring edges often weigh
    /// the same.
    last_code: (W, u32),
    removed: Vec<bool>,
    /// The vertices not removed, in order: the scans skip the others.
    live: Vec<usize>,
    /// The partner of each vertex, or `NONE`.
    mate: Vec<usize>,
    /// Vertex duals (`0..n`) and blossom duals (`n..2n`).
    dual: Vec<W>,
    /// Labels of top-level blossoms, and of vertices inside T-blossoms that
    /// a tight edge reached.
    label: Vec<u8>,
    /// The edge a label came through: (the vertex outside, the vertex inside).
    labelend: Vec<Edge>,
    inblossom: Vec<usize>,
    parent: Vec<usize>,
    childs: Vec<Vec<usize>>,
    base: Vec<usize>,
    /// `endps[b][i]` joins `childs[b][i]` (first) and `childs[b][i + 1]`.
    endps: Vec<Vec<Edge>>,
    bestedge: Vec<Edge>,
    bestedges: Vec<Option<Vec<Edge>>>,
    /// The slack of `bestedge[x]` as last computed: valid while the edge is
    /// the same and no dual has changed since (`dual_epoch`), which saves
    /// the scans from recomputing it (a random access) at every comparison.
    best_slack: Vec<W>,
    best_slack_edge: Vec<Edge>,
    best_slack_epoch: Vec<u64>,
    /// Bumped whenever a dual may have changed.
    dual_epoch: u64,
    unused: Vec<usize>,
    queue: Vec<usize>,
    mark: Vec<bool>,
    /// Vertices that must be grown from again.
    pending: bool,
}

impl<W: Weight + Hash> WarmMatching<W> {
    /// An empty matching over `n` vertices with no edges.
    pub fn new(n: usize) -> Self {
        WarmMatching {
            n,
            codes: vec![0; n * n],
            values: vec![W::ZERO],
            value_code: HashMap::default(),
            last_code: (W::ZERO, 0),
            removed: vec![false; n],
            live: (0..n).collect(),
            mate: vec![NONE; n],
            dual: vec![W::ZERO; 2 * n],
            label: vec![FREE; 2 * n],
            labelend: vec![NO_EDGE; 2 * n],
            inblossom: (0..n).collect(),
            parent: vec![NONE; 2 * n],
            childs: vec![Vec::new(); 2 * n],
            base: (0..n).chain(std::iter::repeat_n(NONE, n)).collect(),
            endps: vec![Vec::new(); 2 * n],
            bestedge: vec![NO_EDGE; 2 * n],
            bestedges: vec![None; 2 * n],
            best_slack: vec![W::ZERO; 2 * n],
            best_slack_edge: vec![NO_EDGE; 2 * n],
            best_slack_epoch: vec![0; 2 * n],
            dual_epoch: 1,
            unused: (n..2 * n).rev().collect(),
            queue: Vec::new(),
            mark: vec![false; 2 * n],
            pending: false,
        }
    }

    #[inline(always)]
    fn w(&self, u: usize, v: usize) -> W {
        self.values[self.codes[u * self.n + v] as usize]
    }

    /// The code of a doubled weight (zero or less: no edge).
    fn code(&mut self, w: W) -> u32 {
        if w <= W::ZERO {
            return 0;
        }
        if self.last_code.0 == w {
            return self.last_code.1;
        }
        if let Some(&c) = self.value_code.get(&w) {
            self.last_code = (w, c);
            return c;
        }
        let c = u32::try_from(self.values.len()).expect("fewer than 2^32 distinct weights");
        self.values.push(w);
        self.value_code.insert(w, c);
        self.last_code = (w, c);
        c
    }

    /// Sets the weights from scratch (zero or less: no edge) and gives every
    /// vertex the least dual for its heaviest edge, matching greedily along
    /// the edges that are then tight.
    pub fn cold(&mut self, mut weight: impl FnMut(usize, usize) -> W) {
        let n = self.n;
        for u in 0..n {
            for v in u + 1..n {
                let w = weight(u, v);
                let c = if w > W::ZERO {
                    self.code(w.double())
                } else {
                    0
                };
                self.codes[u * n + v] = c;
                self.codes[v * n + u] = c;
            }
        }
        for v in 0..n {
            let mut best = W::ZERO;
            for u in 0..n {
                let w = self.w(v, u);
                if w > best {
                    best = w;
                }
            }
            // y(v) = max w, half the doubled weight: y(u) + y(v) >= 2w.
            self.dual[v] = best.half();
        }
        // Lower each dual to the least that keeps its edges feasible, twice
        // over: for weights that are nearly a sum of a value per vertex
        // (the Swiss ones are), this leaves most edges of a good matching
        // tight, and the stages little to do.
        for _ in 0..2 {
            for v in 0..n {
                let mut need = W::ZERO;
                for u in 0..n {
                    let w = self.w(v, u);
                    if u != v && w > W::ZERO {
                        let d = w - self.dual[u];
                        if d > need {
                            need = d;
                        }
                    }
                }
                self.dual[v] = need;
            }
        }
        for v in 0..n {
            if self.mate[v] != NONE || self.dual[v] == W::ZERO {
                continue;
            }
            for u in 0..n {
                if u != v
                    && self.mate[u] == NONE
                    && self.w(v, u) > W::ZERO
                    && self.slack(v, u) == W::ZERO
                {
                    self.mate[v] = u;
                    self.mate[u] = v;
                    break;
                }
            }
        }
        self.pending = true;
    }

    /// Changes the weight of `u`-`v`, repairing the solution where it no
    /// longer holds.
    pub fn set(&mut self, u: usize, v: usize, weight: W) {
        let n = self.n;
        let w = if weight > W::ZERO {
            weight.double()
        } else {
            W::ZERO
        };
        let c = self.code(w);
        if self.codes[u * n + v] == c {
            return;
        }
        self.codes[u * n + v] = c;
        self.codes[v * n + u] = c;
        if self.removed[u] || self.removed[v] {
            return;
        }
        let inside = self.common_blossom(u, v);
        if self.mate[u] == v || inside || self.slack(u, v) < W::ZERO {
            self.reset(u);
        }
    }

    /// Takes `v` out of the graph for good.
    pub fn remove(&mut self, v: usize) {
        if self.removed[v] {
            return;
        }
        self.dissolve_around(v);
        let m = self.mate[v];
        if m != NONE {
            self.mate[m] = NONE;
            self.mate[v] = NONE;
        }
        self.removed[v] = true;
        self.live.retain(|&u| u != v);
        self.dual[v] = W::ZERO;
        self.pending = true;
    }

    /// The partner of each vertex.
    pub fn mates(&mut self) -> Vec<Option<usize>> {
        if self.pending {
            self.solve();
            self.pending = false;
        }
        self.mate
            .iter()
            .map(|&m| (m != NONE).then_some(m))
            .collect()
    }

    fn common_blossom(&self, u: usize, v: usize) -> bool {
        let bu = self.inblossom[u];
        bu != u && bu == self.inblossom[v]
    }

    /// Slack of an edge between two different top-level blossoms.
    #[inline(always)]
    fn slack(&self, u: usize, v: usize) -> W {
        self.dual[u] + self.dual[v] - self.w(u, v)
    }

    /// Dissolves the blossoms holding `v`, unmatches it, and gives it the
    /// least feasible dual.
    fn reset(&mut self, v: usize) {
        self.dissolve_around(v);
        let m = self.mate[v];
        if m != NONE {
            self.mate[m] = NONE;
            self.mate[v] = NONE;
        }
        let mut need = W::ZERO;
        for u in 0..self.n {
            if u == v || self.removed[u] {
                continue;
            }
            let w = self.w(v, u);
            if w > W::ZERO {
                let d = w - self.dual[u];
                if d > need {
                    need = d;
                }
            }
        }
        self.dual[v] = need;
        self.pending = true;
    }

    /// Dissolves, outermost first, every blossom that holds `v`: each
    /// blossom's dual moves onto its vertices (no slack falls), and its
    /// base's outside edge, no longer tight, is unmatched.
    fn dissolve_around(&mut self, v: usize) {
        while self.inblossom[v] != v {
            let b = self.inblossom[v];
            let z = self.dual[b];
            let leaves = self.leaves(b);
            if z != W::ZERO {
                for &u in &leaves {
                    self.dual[u] += z;
                }
                let bb = self.base[b];
                let m = self.mate[bb];
                if m != NONE {
                    self.mate[m] = NONE;
                    self.mate[bb] = NONE;
                }
            }
            let childs = std::mem::take(&mut self.childs[b]);
            for &s in &childs {
                self.parent[s] = NONE;
                if s < self.n {
                    self.inblossom[s] = s;
                } else {
                    for u in self.leaves(s) {
                        self.inblossom[u] = s;
                    }
                }
            }
            self.recycle(b);
        }
    }

    fn recycle(&mut self, b: usize) {
        self.label[b] = FREE;
        self.labelend[b] = NO_EDGE;
        self.childs[b] = Vec::new();
        self.endps[b] = Vec::new();
        self.base[b] = NONE;
        self.bestedges[b] = None;
        self.bestedge[b] = NO_EDGE;
        self.dual[b] = W::ZERO;
        self.parent[b] = NONE;
        self.unused.push(b);
    }

    fn leaves(&self, b: usize) -> Vec<usize> {
        if b < self.n {
            return vec![b];
        }
        let mut out = Vec::new();
        let mut stack = vec![b];
        while let Some(x) = stack.pop() {
            if x < self.n {
                out.push(x);
            } else {
                stack.extend(self.childs[x].iter().copied());
            }
        }
        out
    }

    fn is_odd(d: W) -> bool {
        d.half().double() != d
    }

    fn solve(&mut self) {
        let n = self.n;
        loop {
            // Roots: free vertices with a positive dual, of one parity.
            let mut parity = None;
            for v in 0..n {
                if !self.removed[v] && self.mate[v] == NONE && self.dual[v] > W::ZERO {
                    parity = Some(Self::is_odd(self.dual[v]));
                    break;
                }
            }
            let Some(parity) = parity else { break };
            for x in 0..2 * n {
                self.label[x] = FREE;
                self.bestedge[x] = NO_EDGE;
                self.labelend[x] = NO_EDGE;
            }
            for b in n..2 * n {
                self.bestedges[b] = None;
            }
            self.queue.clear();
            for v in 0..n {
                if !self.removed[v]
                    && self.mate[v] == NONE
                    && self.dual[v] > W::ZERO
                    && Self::is_odd(self.dual[v]) == parity
                    && self.label[self.inblossom[v]] == FREE
                {
                    self.assign_label(v, S, NONE);
                }
            }
            self.stage();
            // Blossoms whose dual reached zero as S-blossoms are no longer
            // needed.
            for b in n..2 * n {
                if self.parent[b] == NONE
                    && self.base[b] != NONE
                    && self.label[b] == S
                    && self.dual[b] == W::ZERO
                {
                    self.expand(b, true);
                }
            }
        }
        for x in 0..2 * n {
            self.label[x] = FREE;
        }
    }

    /// One stage: grows the trees until an augmentation, or until a dual
    /// reaches zero.
    fn stage(&mut self) {
        let n = self.n;
        // Duals may have changed since the last stage (repairs, blossoms
        // dissolved): no cached slack survives.
        self.dual_epoch += 1;
        loop {
            while let Some(v) = self.queue.pop() {
                // No dual changes during the scan: `v`'s is read once.
                let yv = self.dual[v];
                let row = v * n;
                for idx in 0..self.live.len() {
                    let w = self.live[idx];
                    if w == v {
                        continue;
                    }
                    let bv = self.inblossom[v];
                    let bw = self.inblossom[w];
                    // Nothing to learn from an edge inside a blossom, or to
                    // a vertex of a T-blossom already reached (the labels
                    // first: they are cheaper to read than the weight).
                    if bv == bw || (self.label[bw] == T && self.label[w] == T) {
                        continue;
                    }
                    let code = self.codes[row + w];
                    if code == 0 {
                        continue;
                    }
                    let weight = self.values[code as usize];
                    let k = yv + self.dual[w] - weight;
                    if k == W::ZERO {
                        if self.label[bw] == FREE {
                            if self.mate[self.base[bw]] == NONE {
                                self.augment_to_free(v, w);
                                return;
                            }
                            self.assign_label(w, T, v);
                        } else if self.label[bw] == S {
                            let b = self.scan_blossom(v, w);
                            if b != NONE {
                                self.add_blossom(b, v, w);
                            } else {
                                self.augment(v, w);
                                return;
                            }
                        } else if self.label[w] == FREE {
                            self.label[w] = T;
                            self.labelend[w] = (v, w);
                        }
                    } else if self.label[bw] == S {
                        if self.improves_best(bv, k) {
                            self.set_best(bv, (v, w), k);
                        }
                    } else if self.label[w] == FREE && self.improves_best(w, k) {
                        self.set_best(w, (v, w), k);
                    }
                }
            }
            // The dual change.
            let mut delta: Option<W> = None;
            let mut kind = 0u8;
            let mut at = NONE;
            let mut edge = NO_EDGE;
            for &v in &self.live {
                if self.label[self.inblossom[v]] == S && delta.is_none_or(|d| self.dual[v] < d) {
                    delta = Some(self.dual[v]);
                    kind = 1;
                    at = v;
                }
            }
            for &v in &self.live {
                if self.label[self.inblossom[v]] != FREE {
                    continue;
                }
                let be = self.bestedge[v];
                if be != NO_EDGE {
                    let d = self.slack(be.0, be.1);
                    if delta.is_none_or(|x| d < x) {
                        delta = Some(d);
                        kind = 2;
                        edge = be;
                    }
                }
            }
            for b in 0..2 * n {
                if self.parent[b] == NONE
                    && self.base[b] != NONE
                    && self.label[b] == S
                    && self.bestedge[b] != NO_EDGE
                {
                    let be = self.bestedge[b];
                    let d = self.slack(be.0, be.1).half();
                    if delta.is_none_or(|x| d < x) {
                        delta = Some(d);
                        kind = 3;
                        edge = be;
                    }
                }
            }
            for b in n..2 * n {
                if self.base[b] != NONE
                    && self.parent[b] == NONE
                    && self.label[b] == T
                    && delta.is_none_or(|x| self.dual[b] < x)
                {
                    delta = Some(self.dual[b]);
                    kind = 4;
                    at = b;
                }
            }
            let Some(delta) = delta else { return };
            self.dual_epoch += 1;
            for &v in &self.live {
                match self.label[self.inblossom[v]] {
                    S => self.dual[v] -= delta,
                    T => self.dual[v] += delta,
                    _ => {}
                }
            }
            for b in n..2 * n {
                if self.base[b] != NONE && self.parent[b] == NONE {
                    match self.label[b] {
                        S => self.dual[b] += delta,
                        T => self.dual[b] -= delta,
                        _ => {}
                    }
                }
            }
            match kind {
                1 => {
                    // A root reached zero: it may stay free. A matched
                    // vertex reached zero: it becomes free instead of its
                    // root.
                    if self.mate[at] != NONE {
                        self.walk_to_root(at, NONE);
                    }
                    return;
                }
                2 => {
                    let (i, j) = edge;
                    let s = if self.label[self.inblossom[i]] == S {
                        i
                    } else {
                        j
                    };
                    self.queue.push(s);
                }
                3 => self.queue.push(edge.0),
                _ => self.expand(at, false),
            }
        }
    }

    /// Whether an edge of slack `k` beats `bestedge[x]` (or there is none).
    #[inline(always)]
    fn improves_best(&mut self, x: usize, k: W) -> bool {
        let be = self.bestedge[x];
        if be == NO_EDGE {
            return true;
        }
        if self.best_slack_epoch[x] != self.dual_epoch || self.best_slack_edge[x] != be {
            self.best_slack[x] = self.slack(be.0, be.1);
            self.best_slack_edge[x] = be;
            self.best_slack_epoch[x] = self.dual_epoch;
        }
        k < self.best_slack[x]
    }

    #[inline(always)]
    fn set_best(&mut self, x: usize, e: Edge, k: W) {
        self.bestedge[x] = e;
        self.best_slack[x] = k;
        self.best_slack_edge[x] = e;
        self.best_slack_epoch[x] = self.dual_epoch;
    }

    fn assign_label(&mut self, w: usize, t: u8, from: usize) {
        let b = self.inblossom[w];
        self.label[w] = t;
        self.label[b] = t;
        let end = if from == NONE { NO_EDGE } else { (from, w) };
        self.labelend[w] = end;
        self.labelend[b] = end;
        self.bestedge[w] = NO_EDGE;
        self.bestedge[b] = NO_EDGE;
        if t == S {
            if b < self.n {
                self.queue.push(b);
            } else {
                let leaves = self.leaves(b);
                self.queue.extend(leaves);
            }
        } else {
            let base = self.base[b];
            let m = self.mate[base];
            self.assign_label(m, S, base);
        }
    }

    /// The base of the blossom a tight edge between two S-vertices closes,
    /// or `NONE` if they are in different trees.
    fn scan_blossom(&mut self, v: usize, w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        let (mut v, mut w) = (v, w);
        while v != NONE || w != NONE {
            if v != NONE {
                let b = self.inblossom[v];
                if self.mark[b] {
                    base = self.base[b];
                    break;
                }
                path.push(b);
                self.mark[b] = true;
                let (out, _) = self.labelend[b];
                if out == NONE {
                    v = NONE;
                } else {
                    let bt = self.inblossom[out];
                    v = self.labelend[bt].0;
                }
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.mark[b] = false;
        }
        base
    }

    fn add_blossom(&mut self, base: usize, v: usize, w: usize) {
        let n = self.n;
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let b = self.unused.pop().expect("at most n blossoms");
        self.base[b] = base;
        self.parent[b] = NONE;
        self.parent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.parent[bv] = b;
            path.push(bv);
            endps.push(self.labelend[bv]);
            bv = self.inblossom[self.labelend[bv].0];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push((v, w));
        while bw != bb {
            self.parent[bw] = b;
            path.push(bw);
            let (o, i) = self.labelend[bw];
            endps.push((i, o));
            bw = self.inblossom[o];
        }
        self.childs[b] = path.clone();
        self.endps[b] = endps;
        self.label[b] = S;
        self.labelend[b] = self.labelend[bb];
        self.dual[b] = W::ZERO;
        for u in self.leaves(b) {
            if self.label[self.inblossom[u]] == T {
                self.queue.push(u);
            }
            self.inblossom[u] = b;
        }
        // The least-slack edges from the new blossom to other S-blossoms.
        // Their slacks are kept beside them: no dual changes meanwhile.
        let mut bestto: Vec<Edge> = vec![NO_EDGE; 2 * n];
        let mut bestto_slack: Vec<W> = vec![W::ZERO; 2 * n];
        let consider =
            |this: &Self, bestto: &mut [Edge], bestto_slack: &mut [W], i: usize, j: usize| {
                let bj = this.inblossom[j];
                if bj != b && this.label[bj] == S {
                    let k = this.slack(i, j);
                    if bestto[bj] == NO_EDGE || k < bestto_slack[bj] {
                        bestto[bj] = (i, j);
                        bestto_slack[bj] = k;
                    }
                }
            };
        for &c in &path {
            match self.bestedges[c].take() {
                Some(l) => {
                    for (i, j) in l {
                        consider(self, &mut bestto, &mut bestto_slack, i, j);
                    }
                }
                None => {
                    // Every edge of the child, in the order of the other
                    // end (`live` is in vertex order), straight from the
                    // rows.
                    // Only the edges to other S-blossoms count: their
                    // labels are checked before the weight is read.
                    let mut scan = |i: usize| {
                        let row = i * n;
                        let yi = self.dual[i];
                        for &j in &self.live {
                            if j == i {
                                continue;
                            }
                            let bj = self.inblossom[j];
                            if bj == b || self.label[bj] != S {
                                continue;
                            }
                            let code = self.codes[row + j];
                            if code == 0 {
                                continue;
                            }
                            let k = yi + self.dual[j] - self.values[code as usize];
                            if bestto[bj] == NO_EDGE || k < bestto_slack[bj] {
                                bestto[bj] = (i, j);
                                bestto_slack[bj] = k;
                            }
                        }
                    };
                    if c < n {
                        scan(c);
                    } else {
                        for i in self.leaves(c) {
                            scan(i);
                        }
                    }
                }
            }
            self.bestedge[c] = NO_EDGE;
        }
        let mut list: Vec<Edge> = Vec::new();
        let mut best = NO_EDGE;
        let mut best_slack = W::ZERO;
        for (x, &e) in bestto.iter().enumerate() {
            if e != NO_EDGE {
                list.push(e);
                if best == NO_EDGE || bestto_slack[x] < best_slack {
                    best = e;
                    best_slack = bestto_slack[x];
                }
            }
        }
        self.bestedge[b] = best;
        self.bestedges[b] = Some(list);
    }

    /// The edge from child `j` towards child `j + step`, as (in child `j`,
    /// in the next).
    fn step_edge(&self, b: usize, j: isize, forward: bool) -> Edge {
        let len = self.childs[b].len() as isize;
        if forward {
            self.endps[b][j.rem_euclid(len) as usize]
        } else {
            let (x, y) = self.endps[b][(j - 1).rem_euclid(len) as usize];
            (y, x)
        }
    }

    fn child(&self, b: usize, j: isize) -> usize {
        let len = self.childs[b].len() as isize;
        self.childs[b][j.rem_euclid(len) as usize]
    }

    fn expand(&mut self, b: usize, endstage: bool) {
        let n = self.n;
        let childs = self.childs[b].clone();
        for &s in &childs {
            self.parent[s] = NONE;
            if s < n {
                self.inblossom[s] = s;
            } else if endstage && self.dual[s] == W::ZERO {
                self.expand(s, endstage);
            } else {
                for u in self.leaves(s) {
                    self.inblossom[u] = s;
                }
            }
        }
        if !endstage && self.label[b] == T {
            let entry = self.inblossom[self.labelend[b].1];
            let mut j = childs
                .iter()
                .position(|&c| c == entry)
                .expect("entry child") as isize;
            let forward = j & 1 == 1;
            let step: isize = if forward { 1 } else { -1 };
            if forward {
                j -= childs.len() as isize;
            }
            let mut p = self.labelend[b];
            while j != 0 {
                self.label[p.1] = FREE;
                let q = self.step_edge(b, j, forward);
                self.label[q.1] = FREE;
                self.assign_label(p.1, T, p.0);
                j += step;
                p = self.step_edge(b, j, forward);
                j += step;
            }
            let bv = self.child(b, j);
            self.label[p.1] = T;
            self.label[bv] = T;
            self.labelend[p.1] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NO_EDGE;
            j += step;
            while self.child(b, j) != entry {
                let bv = self.child(b, j);
                if self.label[bv] == S {
                    j += step;
                    continue;
                }
                let reached = self.leaves(bv).into_iter().find(|&v| self.label[v] != FREE);
                if let Some(v) = reached {
                    self.label[v] = FREE;
                    let m = self.mate[self.base[bv]];
                    self.label[m] = FREE;
                    let from = self.labelend[v].0;
                    self.assign_label(v, T, from);
                }
                j += step;
            }
        }
        self.recycle(b);
    }

    /// Rematches blossom `b` so that its vertex `v` becomes its base.
    fn augment_blossom(&mut self, b: usize, v: usize) {
        let n = self.n;
        let mut t = v;
        while self.parent[t] != b {
            t = self.parent[t];
        }
        if t >= n {
            self.augment_blossom(t, v);
        }
        let len = self.childs[b].len() as isize;
        let i = self.childs[b].iter().position(|&c| c == t).expect("child") as isize;
        let forward = i & 1 == 1;
        let step: isize = if forward { 1 } else { -1 };
        let mut j = if forward { i - len } else { i };
        while j != 0 {
            j += step;
            let (x, y) = self.step_edge(b, j, forward);
            let t1 = self.child(b, j);
            if t1 >= n {
                self.augment_blossom(t1, x);
            }
            j += step;
            let t2 = self.child(b, j);
            if t2 >= n {
                self.augment_blossom(t2, y);
            }
            self.mate[x] = y;
            self.mate[y] = x;
        }
        let i = i as usize;
        self.childs[b].rotate_left(i);
        self.endps[b].rotate_left(i);
        self.base[b] = self.base[self.childs[b][0]];
        debug_assert_eq!(self.base[b], v);
    }

    /// Flips the alternating path from the S-vertex `s` to its root; `s`
    /// is then matched to `partner` (or left free).
    fn walk_to_root(&mut self, s: usize, partner: usize) {
        let n = self.n;
        let (mut s, mut partner) = (s, partner);
        loop {
            let bs = self.inblossom[s];
            if bs >= n {
                self.augment_blossom(bs, s);
            }
            self.mate[s] = partner;
            let (t, _) = self.labelend[bs];
            if t == NONE {
                break;
            }
            let bt = self.inblossom[t];
            let (s2, j) = self.labelend[bt];
            if bt >= n {
                self.augment_blossom(bt, j);
            }
            self.mate[j] = s2;
            s = s2;
            partner = j;
        }
    }

    /// Augments along the tight edge `v`-`w` between two trees.
    fn augment(&mut self, v: usize, w: usize) {
        self.walk_to_root(v, w);
        self.walk_to_root(w, v);
    }

    /// Augments along the tight edge from the S-vertex `v` to `w`, in an
    /// unlabelled blossom whose base is free.
    fn augment_to_free(&mut self, v: usize, w: usize) {
        let bw = self.inblossom[w];
        if bw >= self.n {
            self.augment_blossom(bw, w);
        }
        self.mate[w] = v;
        self.walk_to_root(v, w);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force: the best total weight of a matching.
    fn best(n: usize, w: &[i64]) -> i64 {
        fn go(n: usize, w: &[i64], used: &mut Vec<bool>, from: usize) -> i64 {
            let Some(u) = (from..n).find(|&u| !used[u]) else {
                return 0;
            };
            used[u] = true;
            let mut b = go(n, w, used, u + 1);
            for v in u + 1..n {
                if !used[v] && w[u * n + v] > 0 {
                    used[v] = true;
                    b = b.max(w[u * n + v] + go(n, w, used, u + 1));
                    used[v] = false;
                }
            }
            used[u] = false;
            b
        }
        go(n, w, &mut vec![false; n], 0)
    }

    fn total(n: usize, w: &[i64], m: &[Option<usize>], removed: &[bool]) -> i64 {
        let mut t = 0;
        for u in 0..n {
            if let Some(v) = m[u] {
                assert_eq!(m[v], Some(u));
                assert!(!removed[u] && !removed[v]);
                assert!(w[u * n + v] > 0, "matched along a missing edge");
                if u < v {
                    t += w[u * n + v];
                }
            }
        }
        t
    }

    #[test]
    fn warm_solutions_are_optimal_after_every_change() {
        let mut rng = crate::simulate::SplitMix::new(19);
        for case in 0..1500 {
            let n = 2 + (rng.next_u64() % 9) as usize;
            let range = [3u64, 10, 1000][case % 3];
            let mut w = vec![0i64; n * n];
            for u in 0..n {
                for v in u + 1..n {
                    let x = (rng.next_u64() % range) as i64 - (range / 4) as i64;
                    w[u * n + v] = x.max(0);
                    w[v * n + u] = x.max(0);
                }
            }
            let mut m = WarmMatching::<i64>::new(n);
            m.cold(|u, v| w[u * n + v]);
            let mut removed = vec![false; n];
            for _round in 0..6 {
                let got = m.mates();
                let mut live = w.clone();
                for u in 0..n {
                    for v in 0..n {
                        if removed[u] || removed[v] {
                            live[u * n + v] = 0;
                        }
                    }
                }
                assert_eq!(
                    total(n, &live, &got, &removed),
                    best(n, &live),
                    "case {case}"
                );
                // Change the edges at one vertex, or remove a matched pair.
                let v = (rng.next_u64() % n as u64) as usize;
                if rng.next_u64().is_multiple_of(4) {
                    if let Some(u) = got[v] {
                        m.remove(u);
                        m.remove(v);
                        removed[u] = true;
                        removed[v] = true;
                    }
                    continue;
                }
                for u in 0..n {
                    if u != v && rng.next_u64().is_multiple_of(2) {
                        let x = (rng.next_u64() % range) as i64 - (range / 4) as i64;
                        w[u * n + v] = x.max(0);
                        w[v * n + u] = x.max(0);
                        m.set(u, v, x);
                    }
                }
            }
        }
    }
}
