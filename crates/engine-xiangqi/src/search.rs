//! Principal-variation search with iterative deepening and aspiration windows, a
//! transposition table, null-move pruning, late-move reductions, killer and
//! history move ordering, MVV-LVA captures, quiescence and check extension.
//!
//! Xiangqi's endings in the tree: a side without a legal move has lost (checkmate
//! and 困毙 alike); a repeated position is a draw unless one side gave check with
//! every move of the cycle, and then that side has lost (the perpetual-check
//! rule; chases are not judged in the search); the natural move limit draws.
//!
//! Pure: the caller passes the limits and a stop flag it sets at its deadline;
//! the flag is read every [`CHECK_EVERY`] nodes.

use std::sync::atomic::{AtomicBool, Ordering};

use qiyuan_xiangqi::{Color, Move, MoveList, Position};

use crate::eval::{ORDER_VALUE, role_index};
use crate::pos::Pos;
use qiyuan_engine_core::{Bound, Tt};

pub const INF: i32 = 32_000;
pub use qiyuan_engine_core::{MATE, MATE_BOUND, Score};
/// A side that checks perpetually has lost: worse than any material, not a mate.
const PERPETUAL: i32 = MATE_BOUND - 200;
pub use qiyuan_engine_core::MAX_PLY;
/// Nodes between two looks at the stop flag and the node budget.
pub const CHECK_EVERY: u64 = 1024;

/// What bounds one search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration, in plies.
    pub depth: u32,
    /// Node budget; the search stops once it is spent.
    pub nodes: u64,
    /// Random points (0..noise) added to each root move's score; 0 for the best
    /// move. A noisy search scores every root move with a full window.
    pub noise: i32,
    /// Seed of the noise.
    pub seed: u64,
    /// Root moves not to consider (UCCI's `banmoves`).
    pub banned: Vec<Move>,
    /// The natural move limit in full moves without a capture (0: none).
    pub move_limit: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            depth: MAX_PLY as u32 - 1,
            nodes: u64::MAX,
            noise: 0,
            seed: 0,
            banned: Vec::new(),
            move_limit: 40,
        }
    }
}

impl qiyuan_engine_core::FromLevel for Limits {
    fn from_level(level: &qiyuan_engine_core::Level, seed: u64) -> Limits {
        Limits {
            depth: level.depth,
            nodes: level.nodes,
            noise: level.noise,
            seed,
            ..Limits::default()
        }
    }
}

/// The state after one finished iteration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    pub pv: Vec<Move>,
}

/// The outcome of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchResult {
    /// `None` only when the root has no legal (unbanned) move.
    pub best: Option<Move>,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<Move>,
}

type History = [[[i32; 90]; 7]; 2];

/// Search state kept between moves of a game: the transposition table and the
/// history counters.
pub struct Searcher {
    tt: Tt,
    history: Box<History>,
    lmr: [[u8; 64]; 64],
}

struct Run<'a> {
    tt: &'a mut Tt,
    history: &'a mut History,
    lmr: &'a [[u8; 64]; 64],
    stop: &'a AtomicBool,
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    /// The positions before the current one since the last capture: hash, and
    /// whether the side to move there was in check.
    stack: Vec<(u64, bool)>,
    nodes: u64,
    node_limit: u64,
    stopped: bool,
    seldepth: usize,
    move_limit_plies: u32,
}

fn lmr_table() -> [[u8; 64]; 64] {
    let mut t = [[0u8; 64]; 64];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (i, v) in row.iter_mut().enumerate().skip(1) {
            let r = 0.75 + (d as f64).ln() * (i as f64).ln() / 2.25;
            *v = r.max(0.0) as u8;
        }
    }
    t
}

/// A compact move key for the transposition table.
pub(crate) fn move_key(m: Move) -> u16 {
    m.from().index() as u16 | ((m.to().index() as u16) << 7)
}

struct SplitMix(u64);
impl SplitMix {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

impl Searcher {
    /// A searcher with a transposition table of about `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            tt: Tt::new(hash_mb),
            history: Box::new([[[0; 90]; 7]; 2]),
            lmr: lmr_table(),
        }
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        *self.history = [[[0; 90]; 7]; 2];
    }

    /// Resizes the transposition table (clears it).
    pub fn resize(&mut self, hash_mb: usize) {
        self.tt = Tt::new(hash_mb);
    }

    /// Searches the position reached from `start` by `moves` (which must be
    /// legal; the game so far, for the repetition rules). `on_iteration` sees
    /// every finished iteration and may end the search by returning false (the
    /// caller's soft time limit); `stop` ends it at once.
    pub fn search(
        &mut self,
        start: &Position,
        moves: &[Move],
        limits: &Limits,
        stop: &AtomicBool,
        on_iteration: &mut dyn FnMut(&Info) -> bool,
    ) -> SearchResult {
        for side in self.history.iter_mut() {
            for role in side.iter_mut() {
                for h in role.iter_mut() {
                    *h /= 8;
                }
            }
        }
        self.tt.new_search();
        let mut pos = Pos::new(start);
        let mut stack = Vec::with_capacity(moves.len() + MAX_PLY + 2);
        for &m in moves {
            stack.push((pos.hash, pos.in_check()));
            pos.make(m);
            if pos.halfmoves == 0 {
                stack.clear();
            }
        }
        let mut run = Run {
            tt: &mut self.tt,
            history: &mut self.history,
            lmr: &self.lmr,
            stop,
            killers: [[None; 2]; MAX_PLY + 1],
            stack,
            nodes: 0,
            node_limit: limits.nodes.max(1),
            stopped: false,
            seldepth: 0,
            move_limit_plies: 2 * limits.move_limit,
        };
        run.iterate(&mut pos, limits, on_iteration)
    }
}

impl Run<'_> {
    fn iterate(
        &mut self,
        root: &mut Pos,
        limits: &Limits,
        on_iteration: &mut dyn FnMut(&Info) -> bool,
    ) -> SearchResult {
        let mut list = MoveList::new();
        root.legal_moves(&mut list);
        let moves: Vec<Move> = list
            .iter()
            .copied()
            .filter(|m| !limits.banned.contains(m))
            .collect();
        if moves.is_empty() {
            return SearchResult {
                best: None,
                score: Score::from_internal(-MATE),
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
            };
        }
        let mut rng = SplitMix(limits.seed ^ root.hash);
        let mut order: Vec<(Move, i32)> = moves
            .iter()
            .map(|&m| {
                let n = if limits.noise > 0 {
                    (rng.next_u64() % limits.noise as u64) as i32
                } else {
                    0
                };
                (m, n)
            })
            .collect();
        order.sort_by_key(|(m, _)| -self.capture_score(root, *m));

        let mut best = order[0].0;
        let mut best_score = -INF;
        let mut best_pv = vec![best];
        let mut finished_depth = 0;
        let max_depth = limits.depth.clamp(1, MAX_PLY as u32 - 1);
        let mut prev = 0;
        for depth in 1..=max_depth {
            self.seldepth = 0;
            let (score, iter_best, pv) = if limits.noise > 0 {
                self.root_noisy(root, depth as i32, &order)
            } else {
                self.root_aspiration(root, depth as i32, prev, &mut order)
            };
            // A stopped iteration counts only in PVS, whose first root move is
            // the previous best: a move that beat it was fully searched. A noisy
            // iteration stopped early has scored only some root moves.
            let usable = !self.stopped || limits.noise == 0;
            if let Some(m) = iter_best.filter(|_| usable) {
                best = m;
                best_score = score;
                best_pv = pv;
                if best_pv.first() != Some(&best) {
                    best_pv = vec![best];
                }
            }
            if self.stopped {
                break;
            }
            finished_depth = depth;
            prev = score;
            let info = Info {
                depth,
                seldepth: self.seldepth as u32,
                score: Score::from_internal(best_score),
                nodes: self.nodes,
                pv: best_pv.clone(),
            };
            if !on_iteration(&info) {
                break;
            }
            if self.stop.load(Ordering::Relaxed) || self.nodes >= self.node_limit {
                break;
            }
            if best_score.abs() > MATE_BOUND && (MATE - best_score.abs()) as u32 <= depth {
                break;
            }
        }
        SearchResult {
            best: Some(best),
            score: Score::from_internal(if best_score == -INF { 0 } else { best_score }),
            depth: finished_depth,
            nodes: self.nodes,
            pv: best_pv,
        }
    }

    fn root_aspiration(
        &mut self,
        root: &mut Pos,
        depth: i32,
        prev: i32,
        order: &mut [(Move, i32)],
    ) -> (i32, Option<Move>, Vec<Move>) {
        let mut delta = 30;
        let (mut alpha, mut beta) = if depth >= 5 && prev.abs() < PERPETUAL - 100 {
            (prev - delta, prev + delta)
        } else {
            (-INF, INF)
        };
        loop {
            let (score, best, pv) = self.root_pvs(root, depth, alpha, beta, order);
            if self.stopped {
                return (score, best, pv);
            }
            if score <= alpha {
                alpha = (alpha - delta).max(-INF);
                delta *= 2;
            } else if score >= beta {
                beta = (beta + delta).min(INF);
                delta *= 2;
            } else {
                return (score, best, pv);
            }
            if delta > 600 {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    fn root_pvs(
        &mut self,
        root: &mut Pos,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        order: &mut [(Move, i32)],
    ) -> (i32, Option<Move>, Vec<Move>) {
        let mut best_score = -INF;
        let mut best = None;
        let mut best_pv = Vec::new();
        let mut best_index = 0;
        let root_check = root.in_check();
        for (i, &(m, _)) in order.iter().enumerate() {
            self.stack.push((root.hash, root_check));
            let u = root.make(m);
            let ext = i32::from(root.in_check());
            let mut pv = Vec::new();
            let score = if i == 0 {
                -self.pvs(root, depth - 1 + ext, -beta, -alpha, 1, &mut pv, true)
            } else {
                let mut s = -self.pvs(root, depth - 1 + ext, -alpha - 1, -alpha, 1, &mut pv, true);
                if s > alpha && s < beta && !self.stopped {
                    pv.clear();
                    s = -self.pvs(root, depth - 1 + ext, -beta, -alpha, 1, &mut pv, true);
                }
                s
            };
            root.unmake(m, u);
            self.stack.pop();
            if self.stopped {
                break;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best = Some(m);
                    best_index = i;
                    best_pv.clear();
                    best_pv.push(m);
                    best_pv.extend_from_slice(&pv);
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if best.is_some() {
            order[..=best_index].rotate_right(1);
        }
        (best_score, best, best_pv)
    }

    fn root_noisy(
        &mut self,
        root: &mut Pos,
        depth: i32,
        order: &[(Move, i32)],
    ) -> (i32, Option<Move>, Vec<Move>) {
        let mut best = None;
        let mut best_noisy = -INF * 2;
        let mut best_score = -INF;
        let mut best_pv = Vec::new();
        let root_check = root.in_check();
        for &(m, noise) in order {
            self.stack.push((root.hash, root_check));
            let u = root.make(m);
            let ext = i32::from(root.in_check());
            let mut pv = Vec::new();
            let score = -self.pvs(root, depth - 1 + ext, -INF, INF, 1, &mut pv, true);
            root.unmake(m, u);
            self.stack.pop();
            if self.stopped {
                break;
            }
            let noisy = if score.abs() > MATE_BOUND {
                score * 2
            } else {
                score + noise
            };
            if noisy > best_noisy {
                best_noisy = noisy;
                best_score = score;
                best = Some(m);
                best_pv = vec![m];
                best_pv.extend_from_slice(&pv);
            }
        }
        (best_score, best, best_pv)
    }

    fn check_limits(&mut self) {
        if self.nodes >= self.node_limit || self.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
    }

    fn capture_score(&self, pos: &Pos, m: Move) -> i32 {
        match pos.captured(m) {
            Some(v) => {
                ORDER_VALUE[role_index(v.role)] * 16 - ORDER_VALUE[role_index(pos.role_of(m))] / 16
            }
            None => 0,
        }
    }

    /// A repetition of an earlier position (same side to move) since the last
    /// capture: its score for the side to move, by the perpetual-check rule.
    fn repetition(&self, pos: &Pos, ply: usize) -> Option<i32> {
        let n = self.stack.len();
        let window = (pos.halfmoves as usize).min(n);
        let h = pos.hash;
        let in_check = pos.in_check();
        let mut k = 2;
        while k <= window {
            if self.stack[n - k].0 == h {
                let flag = |i: usize| if i == n { in_check } else { self.stack[i].1 };
                // Positions n-k+1, n-k+3, .. follow our moves: the opponent in
                // check there means we checked.
                let we_check = (n - k + 1..n).step_by(2).all(flag);
                let they_check = (n - k + 2..=n).step_by(2).all(flag);
                let lost = PERPETUAL - ply as i32;
                return Some(match (we_check, they_check) {
                    (true, false) => -lost,
                    (false, true) => lost,
                    _ => 0,
                });
            }
            k += 2;
        }
        None
    }

    #[allow(clippy::too_many_arguments)]
    fn pvs(
        &mut self,
        pos: &mut Pos,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv: &mut Vec<Move>,
        allow_null: bool,
    ) -> i32 {
        if depth <= 0 {
            return self.quiesce(pos, alpha, beta, ply);
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            self.check_limits();
        }
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let pv_node = beta - alpha > 1;

        if let Some(s) = self.repetition(pos, ply) {
            return s;
        }
        if (self.move_limit_plies > 0 && pos.halfmoves >= self.move_limit_plies)
            || pos.insufficient()
        {
            return 0;
        }
        if ply >= MAX_PLY {
            return pos.evaluate();
        }
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        let h = pos.hash;
        let mut tt_move = None;
        if let Some(e) = self.tt.probe(h) {
            tt_move = Some(e.mv);
            if !pv_node && e.depth as i32 >= depth {
                let s = from_tt(e.score as i32, ply);
                match e.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }

        let in_check = pos.in_check();
        let static_eval = if in_check { -INF } else { pos.evaluate() };

        if !pv_node && !in_check {
            if depth <= 4 && static_eval - 110 * depth >= beta && beta.abs() < MATE_BOUND {
                return static_eval;
            }
            if allow_null && depth >= 3 && static_eval >= beta && pos.has_big_pieces() {
                let r = 3 + depth / 6;
                self.stack.push((h, in_check));
                pos.make_null();
                let mut child_pv = Vec::new();
                let s = -self.pvs(
                    pos,
                    depth - 1 - r,
                    -beta,
                    -beta + 1,
                    ply + 1,
                    &mut child_pv,
                    false,
                );
                pos.make_null();
                self.stack.pop();
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    return if s > MATE_BOUND { beta } else { s };
                }
            }
        }

        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        if list.is_empty() {
            return -MATE + ply as i32;
        }
        let us = pos.turn();
        let mut scored = self.order_moves(pos, &list, tt_move, ply);
        let futile = !pv_node
            && !in_check
            && depth <= 2
            && static_eval + 120 * depth <= alpha
            && alpha.abs() < MATE_BOUND;

        let mut best_score = -INF;
        let mut best_move = None;
        let mut bound = Bound::Upper;
        let mut child_pv = Vec::new();
        let mut quiets_tried: Vec<Move> = Vec::new();
        for i in 0..scored.len() {
            pick_next(&mut scored, i);
            let m = scored[i].0;
            let quiet = pos.captured(m).is_none();
            let role = pos.role_of(m);
            self.stack.push((h, in_check));
            let u = pos.make(m);
            let gives_check = pos.in_check();
            let prune = (futile && quiet && !gives_check && i > 0)
                || (!pv_node
                    && !in_check
                    && quiet
                    && !gives_check
                    && depth <= 3
                    && i >= 4 + 4 * (depth * depth) as usize
                    && best_score > -MATE_BOUND);
            if prune {
                pos.unmake(m, u);
                self.stack.pop();
                continue;
            }
            let ext = i32::from(gives_check);
            let new_depth = depth - 1 + ext;
            child_pv.clear();
            let score = if i == 0 {
                -self.pvs(pos, new_depth, -beta, -alpha, ply + 1, &mut child_pv, true)
            } else {
                let mut r = 0;
                if depth >= 3 && quiet && !in_check && !gives_check && i >= 3 {
                    r = self.lmr[(depth as usize).min(63)][i.min(63)] as i32;
                    if pv_node {
                        r -= 1;
                    }
                    if self.killers[ply].contains(&Some(m)) {
                        r -= 1;
                    }
                    r = r.clamp(0, (new_depth - 1).max(0));
                }
                let mut s = -self.pvs(
                    pos,
                    new_depth - r,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    &mut child_pv,
                    true,
                );
                if s > alpha && r > 0 && !self.stopped {
                    child_pv.clear();
                    s = -self.pvs(
                        pos,
                        new_depth,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        &mut child_pv,
                        true,
                    );
                }
                if s > alpha && s < beta && !self.stopped {
                    child_pv.clear();
                    s = -self.pvs(pos, new_depth, -beta, -alpha, ply + 1, &mut child_pv, true);
                }
                s
            };
            pos.unmake(m, u);
            self.stack.pop();
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    bound = Bound::Exact;
                    pv.clear();
                    pv.push(m);
                    pv.extend_from_slice(&child_pv);
                    if score >= beta {
                        bound = Bound::Lower;
                        if quiet {
                            self.reward_quiet(
                                us,
                                m,
                                role_index(role),
                                &quiets_tried,
                                pos,
                                depth,
                                ply,
                            );
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets_tried.push(m);
            }
        }
        let Some(m) = best_move else {
            return alpha;
        };
        self.tt
            .store(h, move_key(m), to_tt(best_score, ply), depth, bound);
        best_score
    }

    #[allow(clippy::too_many_arguments)]
    fn reward_quiet(
        &mut self,
        us: Color,
        m: Move,
        role: usize,
        tried: &[Move],
        pos: &Pos,
        depth: i32,
        ply: usize,
    ) {
        if self.killers[ply][0] != Some(m) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(m);
        }
        let bonus = (depth * depth).min(400);
        let c = us as usize;
        let e = &mut self.history[c][role][m.to().index() as usize];
        *e += bonus - *e * bonus / 16_384;
        for &q in tried {
            let r = role_index(pos.role_of(q));
            let e = &mut self.history[c][r][q.to().index() as usize];
            *e -= bonus + *e * bonus / 16_384;
        }
    }

    fn order_moves(
        &self,
        pos: &Pos,
        list: &MoveList,
        tt_move: Option<u16>,
        ply: usize,
    ) -> Vec<(Move, i32)> {
        let c = pos.turn() as usize;
        list.iter()
            .map(|&m| {
                let s = if tt_move == Some(move_key(m)) {
                    1 << 30
                } else if pos.captured(m).is_some() {
                    (1 << 24) + self.capture_score(pos, m)
                } else if self.killers[ply][0] == Some(m) {
                    (1 << 23) + 1
                } else if self.killers[ply][1] == Some(m) {
                    1 << 23
                } else {
                    self.history[c][role_index(pos.role_of(m))][m.to().index() as usize]
                };
                (m, s)
            })
            .collect()
    }

    fn quiesce(&mut self, pos: &mut Pos, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            self.check_limits();
        }
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = pos.in_check();
        if ply >= MAX_PLY {
            return pos.evaluate();
        }
        let mut best = -INF;
        let stand = if in_check { -INF } else { pos.evaluate() };
        if !in_check {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        if list.is_empty() {
            return -MATE + ply as i32;
        }
        let mut scored: Vec<(Move, i32)> = list
            .iter()
            .filter(|&&m| in_check || pos.captured(m).is_some())
            .map(|&m| (m, self.capture_score(pos, m)))
            .collect();
        for i in 0..scored.len() {
            pick_next(&mut scored, i);
            let m = scored[i].0;
            if !in_check {
                let gain = pos
                    .captured(m)
                    .map_or(0, |p| ORDER_VALUE[role_index(p.role)]);
                if stand + gain + 200 <= alpha {
                    continue;
                }
            }
            let u = pos.make(m);
            let s = -self.quiesce(pos, -beta, -alpha, ply + 1);
            pos.unmake(m, u);
            if self.stopped {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

fn pick_next(list: &mut [(Move, i32)], i: usize) {
    let mut best = i;
    for j in i + 1..list.len() {
        if list[j].1 > list[best].1 {
            best = j;
        }
    }
    list.swap(i, best);
}

fn to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}
