//! Monte Carlo tree search with RAVE (all moves as first) and heuristic priors, in
//! the form of MoGo (Gelly & Silver, 2011) and Michi.
//!
//! Each simulation walks down the tree from the root, choosing at each node the child
//! with the best blend of its own win rate and its AMAF win rate (the results of
//! every simulation in which the child's move was played later by the same side),
//! weighted towards AMAF while a child has few visits. A node's children are created
//! once it has been visited a few times, each seeded with prior wins and visits from
//! cheap knowledge (captures, escapes, ladders, shapes, closeness to the last move,
//! self-atari, the third line in open areas). The walk ends in a heavy playout, whose
//! area count decides the winner, and the result is backed up along the path.

use std::sync::atomic::{AtomicBool, Ordering};

use qiyuan_go::playout::Rng;
use qiyuan_go::{Board, Color};

use crate::pattern;
use crate::playout::{PASS, Policy, owner, playout};
use crate::tactics::{after_move, atari_captures, atari_liberty, is_self_atari};

/// Visits before a node's children are created.
const EXPAND_VISITS: u32 = 8;
/// The RAVE equivalence: around this many visits, a child's own win rate and its
/// AMAF rate weigh the same.
const RAVE_EQUIV: f32 = 3500.0;

/// The UCB exploration coefficient: small, since priors and RAVE already spread the
/// early visits.
const EXPLORE: f32 = 0.0;

/// Prior visits and wins (Michi's values).
const PRIOR_EVEN: f32 = 10.0;
const PRIOR_SELF_ATARI: f32 = 10.0;
const PRIOR_CAPTURE_ONE: f32 = 15.0;
const PRIOR_CAPTURE_MANY: f32 = 30.0;
const PRIOR_LADDER: f32 = 20.0;
/// Visits without wins for running into a ladder that works.
const PRIOR_LADDER_RUN: f32 = 60.0;
const PRIOR_PATTERN: f32 = 10.0;
const PRIOR_NEAR: [f32; 3] = [24.0, 22.0, 8.0];
const PRIOR_EMPTY_AREA: f32 = 10.0;

#[derive(Debug, Clone, Copy)]
pub(crate) struct Node {
    /// The move into this node (a cell, or [`PASS`]).
    pub mv: u16,
    pub n_children: u16,
    /// Index of the first child; children are contiguous. 0 until expanded.
    pub first_child: u32,
    /// Real simulations through this node.
    pub n: u32,
    /// Visits and wins, priors included, for the side that played `mv`.
    pub v: f32,
    pub w: f32,
    /// AMAF visits and wins, priors included.
    pub av: f32,
    pub aw: f32,
}

impl Node {
    fn new(mv: usize, prior_v: f32, prior_w: f32) -> Node {
        Node {
            mv: mv as u16,
            n_children: 0,
            first_child: 0,
            n: 0,
            v: prior_v,
            w: prior_w,
            av: prior_v,
            aw: prior_w,
        }
    }

    /// The win rate for the side that played `mv`.
    pub fn winrate(&self) -> f32 {
        if self.v > 0.0 { self.w / self.v } else { 0.5 }
    }

    fn urgency(&self, explore: f32) -> f32 {
        let (v, av) = (self.v, self.av);
        if v + av <= 0.0 {
            return 0.5;
        }
        let beta = av / (av + v + v * av / RAVE_EQUIV);
        let own = if v > 0.0 { self.w / v } else { 0.0 };
        let amaf = if av > 0.0 { self.aw / av } else { 0.0 };
        (1.0 - beta) * own + beta * amaf + explore / (1.0 + self.n as f32).sqrt()
    }

    pub fn children(&self) -> std::ops::Range<usize> {
        let f = self.first_child as usize;
        f..f + self.n_children as usize
    }
}

/// The position a search starts from, and which root moves the game forbids.
pub(crate) struct Root<'a> {
    pub board: &'a Board,
    pub to_move: Color,
    /// The last two moves, newest first (cells, [`PASS`] for a pass or none).
    pub last: [usize; 2],
    pub komi: f32,
    /// Cells the side to move may not play at the root (positional superko).
    pub forbidden: &'a [usize],
}

/// A search tree, kept between moves.
pub(crate) struct Tree {
    pub nodes: Vec<Node>,
    pub max_nodes: usize,
    /// Ownership sums over the playouts since the tree's root was set, per cell:
    /// +1 black, -1 white.
    pub own_sum: Vec<f32>,
    pub own_count: u32,
    amaf: Vec<u8>,
    seq: Vec<(u16, Color)>,
    scratch: Vec<usize>,
}

impl Tree {
    pub fn new(cells: usize, max_nodes: usize) -> Tree {
        Tree {
            nodes: vec![Node::new(PASS, 0.0, 0.0)],
            max_nodes,
            own_sum: vec![0.0; cells],
            own_count: 0,
            amaf: vec![0; cells],
            seq: Vec::new(),
            scratch: Vec::new(),
        }
    }

    pub fn root(&self) -> &Node {
        &self.nodes[0]
    }

    /// Makes the child of the root reached by `mv` the new root, keeping its subtree;
    /// false (and an empty tree) if there is no such child.
    pub fn advance(&mut self, mv: usize) -> bool {
        let child = self.nodes[0]
            .children()
            .find(|&c| self.nodes[c].mv as usize == mv);
        self.own_sum.iter_mut().for_each(|o| *o = 0.0);
        self.own_count = 0;
        let Some(child) = child else {
            self.clear();
            return false;
        };
        // Copy the subtree breadth first so children stay contiguous.
        let mut out = Vec::with_capacity(self.nodes.len() / 2);
        out.push(self.nodes[child]);
        let mut k = 0;
        while k < out.len() {
            let old = out[k];
            if old.n_children > 0 {
                let first = out.len();
                out.extend_from_slice(&self.nodes[old.children()]);
                out[k].first_child = first as u32;
            }
            k += 1;
        }
        self.nodes = out;
        true
    }

    pub fn clear(&mut self) {
        self.nodes.clear();
        self.nodes.push(Node::new(PASS, 0.0, 0.0));
        self.own_sum.iter_mut().for_each(|o| *o = 0.0);
        self.own_count = 0;
    }

    /// Runs simulations until `budget` of them ran in this call or `stop` is set
    /// (checked between simulations). Returns how many ran.
    pub fn search(
        &mut self,
        root: &Root,
        budget: u64,
        policy: &Policy,
        rng: &mut Rng,
        stop: &AtomicBool,
    ) -> u64 {
        if self.nodes[0].n_children == 0 {
            self.expand(0, root.board, root.to_move, root.last, root.forbidden);
        } else {
            // A reused root was expanded without the game's superko: drop what it forbids.
            let range = self.nodes[0].children();
            let mut keep: Vec<Node> = self.nodes[range.clone()]
                .iter()
                .filter(|c| !root.forbidden.contains(&(c.mv as usize)))
                .copied()
                .collect();
            let n = keep.len();
            keep.resize(range.len(), Node::new(PASS, 0.0, 0.0));
            self.nodes[range].copy_from_slice(&keep);
            self.nodes[0].n_children = n as u16;
            if n == 0 {
                self.clear();
                self.expand(0, root.board, root.to_move, root.last, root.forbidden);
            }
        }
        let mut done = 0;
        while done < budget && !stop.load(Ordering::Relaxed) {
            self.simulate(root, policy, rng);
            done += 1;
        }
        done
    }

    fn simulate(&mut self, root: &Root, policy: &Policy, rng: &mut Rng) {
        let mut b = root.board.clone();
        let mut color = root.to_move;
        let mut last = root.last;
        let mut path = [0u32; 512];
        let mut depth = 1;
        let mut node = 0usize;
        let mut passes = 0;
        self.seq.clear();
        loop {
            if self.nodes[node].n_children == 0 {
                if node != 0 && self.nodes[node].n >= EXPAND_VISITS {
                    self.expand(node, &b, color, last, &[]);
                }
                if self.nodes[node].n_children == 0 {
                    break;
                }
            }
            let child = self.select(node);
            let mv = self.nodes[child].mv as usize;
            if mv == PASS {
                b.pass();
                passes += 1;
            } else {
                b.play_at(color, mv);
                passes = 0;
            }
            self.seq.push((mv as u16, color));
            last = [mv, last[0]];
            color = color.opponent();
            node = child;
            path[depth] = child as u32;
            depth += 1;
            if passes >= 2 || depth == path.len() {
                break;
            }
        }
        if passes < 2 {
            playout(
                &mut b,
                color,
                last,
                policy,
                rng,
                &mut self.seq,
                &mut self.scratch,
            );
        }
        // The count, with ownership.
        let size = b.size() as usize;
        let s = b.stride();
        let mut score = -root.komi;
        for row in 0..size {
            for col in 0..size {
                let i = (row + 1) * s + col + 1;
                match owner(&b, i) {
                    Some(Color::Black) => {
                        score += 1.0;
                        self.own_sum[i] += 1.0;
                    }
                    Some(Color::White) => {
                        score -= 1.0;
                        self.own_sum[i] -= 1.0;
                    }
                    None => {}
                }
            }
        }
        self.own_count += 1;
        let black_wins = score > 0.0;
        let win_for = |c: Color| -> f32 {
            if (c == Color::Black) == black_wins {
                1.0
            } else {
                0.0
            }
        };
        // Back up: the node at path depth d was reached by the move seq[d - 1].
        self.amaf.iter_mut().for_each(|a| *a = 0);
        let mut j = self.seq.len();
        for d in (0..depth).rev() {
            // Mark the moves from seq[d..]: first plays win (walking backwards).
            while j > d {
                j -= 1;
                let (m, c) = self.seq[j];
                if m as usize != PASS {
                    self.amaf[m as usize] = 1 + c.index() as u8;
                }
            }
            let nd = path[d] as usize;
            let mover = if d == 0 {
                root.to_move.opponent()
            } else {
                self.seq[d - 1].1
            };
            let to_play = mover.opponent();
            let r = win_for(mover);
            let node = &mut self.nodes[nd];
            node.n += 1;
            node.v += 1.0;
            node.w += r;
            let rc = win_for(to_play);
            let mark = 1 + to_play.index() as u8;
            for c in self.nodes[nd].children() {
                let m = self.nodes[c].mv as usize;
                if m != PASS && self.amaf[m] == mark {
                    self.nodes[c].av += 1.0;
                    self.nodes[c].aw += rc;
                }
            }
        }
    }

    fn select(&self, node: usize) -> usize {
        let mut best = usize::MAX;
        let mut best_u = f32::NEG_INFINITY;
        let explore = EXPLORE * (1.0 + self.nodes[node].n as f32).ln().sqrt();
        for c in self.nodes[node].children() {
            let u = self.nodes[c].urgency(explore);
            if u > best_u {
                best_u = u;
                best = c;
            }
        }
        best
    }

    /// Creates the children of `node`: every legal move that fills no own eye (a
    /// pass when there is none), with priors.
    fn expand(
        &mut self,
        node: usize,
        b: &Board,
        color: Color,
        last: [usize; 2],
        forbidden: &[usize],
    ) {
        let size = b.size() as usize;
        if self.nodes.len() + size * size + 1 > self.max_nodes {
            return;
        }
        let first = self.nodes.len();
        let s = b.stride();
        for row in 0..size {
            for col in 0..size {
                let i = (row + 1) * s + col + 1;
                if !b.is_empty_cell(i)
                    || b.is_eyeish(color, i)
                    || !b.legal_at(color, i)
                    || forbidden.contains(&i)
                {
                    continue;
                }
                let (v, w) = prior(b, color, i, last, row, col, size);
                self.nodes.push(Node::new(i, v, w));
            }
        }
        if self.nodes.len() == first {
            self.nodes
                .push(Node::new(PASS, PRIOR_EVEN, PRIOR_EVEN / 2.0));
        }
        let n = self.nodes.len() - first;
        self.nodes[node].first_child = first as u32;
        self.nodes[node].n_children = n as u16;
    }
}

/// Prior (visits, wins) for `color` playing the legal cell `i`.
fn prior(
    b: &Board,
    color: Color,
    i: usize,
    last: [usize; 2],
    row: usize,
    col: usize,
    size: usize,
) -> (f32, f32) {
    let mut v = PRIOR_EVEN;
    let mut w = PRIOR_EVEN / 2.0;
    let bonus = |v: &mut f32, w: &mut f32, x: f32| {
        *v += x;
        *w += x;
    };
    let after = after_move(b, color, i);
    // Captures and escapes.
    for n in b.cell_neighbours(i) {
        let Some(c) = b.stone_at(n) else { continue };
        let len = b.chain_len(n);
        let big = if len > 1 {
            PRIOR_CAPTURE_MANY
        } else {
            PRIOR_CAPTURE_ONE
        };
        if let Some(lib) = atari_liberty(b, n) {
            debug_assert_eq!(lib, i);
            if c != color || after.liberties >= 3 {
                bonus(&mut v, &mut w, big);
            } else if after.liberties == 2 {
                let mut run = b.clone();
                run.play_at(color, i);
                let mut libs = [0usize; 2];
                run.chain_liberties(n, &mut libs);
                let dies = libs
                    .iter()
                    .any(|&a| atari_captures(&run, color.opponent(), a, n));
                if dies {
                    v += PRIOR_LADDER_RUN;
                } else {
                    bonus(&mut v, &mut w, big);
                }
            }
        } else if c != color {
            // An atari on a two-liberty chain that the ladder then captures.
            let mut libs = [0usize; 3];
            if b.chain_liberties(n, &mut libs) == 2 && atari_captures(b, color, i, n) {
                bonus(&mut v, &mut w, PRIOR_LADDER + big);
            }
        }
    }
    if after.captures == 0 && after.liberties <= 1 {
        v += PRIOR_SELF_ATARI;
    } else if is_self_atari(b, color, i) {
        v += PRIOR_SELF_ATARI / 2.0;
    }
    if pattern::matches_at(b, i) {
        bonus(&mut v, &mut w, PRIOR_PATTERN);
    }
    if last[0] != PASS {
        let st = b.stride();
        let (lr, lc) = (last[0] / st, last[0] % st);
        let d = (lr as i32 - row as i32 - 1).unsigned_abs()
            + (lc as i32 - col as i32 - 1).unsigned_abs();
        if (1..=3).contains(&d) {
            bonus(&mut v, &mut w, PRIOR_NEAR[d as usize - 1]);
        }
    }
    // Open areas: the first two lines are slow, the third is good.
    let line = row.min(col).min(size - 1 - row).min(size - 1 - col);
    if line <= 2 && empty_around(b, row, col, size, 3) {
        if line == 2 {
            bonus(&mut v, &mut w, PRIOR_EMPTY_AREA);
        } else {
            v += PRIOR_EMPTY_AREA;
        }
    }
    (v, w)
}

/// Whether no stone stands within Manhattan distance `r` of (row, col).
fn empty_around(b: &Board, row: usize, col: usize, size: usize, r: i32) -> bool {
    let s = b.stride();
    for dr in -r..=r {
        let left = r - dr.abs();
        for dc in -left..=left {
            let (rr, cc) = (row as i32 + dr, col as i32 + dc);
            if rr < 0 || cc < 0 || rr >= size as i32 || cc >= size as i32 {
                continue;
            }
            let i = (rr as usize + 1) * s + cc as usize + 1;
            if b.stone_at(i).is_some() {
                return false;
            }
        }
    }
    true
}
