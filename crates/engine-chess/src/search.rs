//! Principal-variation search with iterative deepening and aspiration windows, a
//! transposition table, null-move pruning, late-move reductions, killer and
//! history move ordering, MVV-LVA captures, quiescence and check extension.
//!
//! Pure: the caller passes the limits (depth, nodes) and a stop flag it sets when
//! its clock says so; the flag is read every [`CHECK_EVERY`] nodes.

use std::sync::atomic::{AtomicBool, Ordering};

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, Color, EnPassantMode, Move, MoveList, Position};

use crate::eval::{ORDER_VALUE, evaluate, role_index};
use crate::see::{captures, leaves_king_safe, see};
use qiyuan_engine_core::{Bound, Tt};

pub const INF: i32 = 32_000;
pub use qiyuan_engine_core::MAX_PLY;
pub use qiyuan_engine_core::{MATE, MATE_BOUND, Score};
/// Nodes between two looks at the stop flag and the node budget.
pub const CHECK_EVERY: u64 = 1024;

/// The position's Zobrist key (what repetition detection compares).
pub fn hash(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// What bounds one search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration, in plies (1..=MAX_PLY).
    pub depth: u32,
    /// Node budget; the search stops once it is spent.
    pub nodes: u64,
    /// Random centipawns (0..noise) added to each root move's score; 0 for the
    /// best move. A noisy search scores every root move with a full window.
    pub noise: i32,
    /// Seed of the noise.
    pub seed: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            depth: MAX_PLY as u32 - 1,
            nodes: u64::MAX,
            noise: 0,
            seed: 0,
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
    /// `None` only when the root has no legal move.
    pub best: Option<Move>,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<Move>,
}

/// Search state kept between moves of a game: the transposition table and the
/// history counters.
pub struct Searcher {
    tt: Tt,
    history: Box<History>,
    counter: Box<Counter>,
    lmr: [[u8; 64]; 64],
}

type History = [[[i32; 64]; 6]; 2];
/// The quiet move that last refuted a move, by that move's colour, role and target.
type Counter = [[[Option<Move>; 64]; 6]; 2];

/// One search's working state.
struct Run<'a> {
    tt: &'a mut Tt,
    history: &'a mut History,
    counter: &'a mut Counter,
    lmr: &'a [[u8; 64]; 64],
    /// The move that led to each ply (`None` at the root and after a null move).
    path: [Option<Move>; MAX_PLY + 2],
    stop: &'a AtomicBool,
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    /// The static evaluation at each ply of the current path (`-INF` in check).
    evals: [i32; MAX_PLY + 2],
    /// Hashes of the game before the root and of the current path.
    stack: Vec<u64>,
    nodes: u64,
    node_limit: u64,
    stopped: bool,
    seldepth: usize,
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

/// A compact move key for the transposition table and move comparison.
pub(crate) fn move_key(m: Move) -> u16 {
    let from = m.from().map_or(0, |s| usize::from(s) as u16);
    let to = usize::from(m.to()) as u16;
    let promo = m.promotion().map_or(0, |r| role_index(r) as u16);
    from | (to << 6) | (promo << 12)
}

/// Tiny deterministic generator (SplitMix64) for root noise.
pub(crate) struct SplitMix(u64);
impl SplitMix {
    pub(crate) fn new(seed: u64) -> Self {
        SplitMix(seed)
    }
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next_u64() % n }
    }
}

impl Searcher {
    /// A searcher with a transposition table of about `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            tt: Tt::new(hash_mb),
            history: Box::new([[[0; 64]; 6]; 2]),
            counter: Box::new([[[None; 64]; 6]; 2]),
            lmr: lmr_table(),
        }
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        *self.history = [[[0; 64]; 6]; 2];
        *self.counter = [[[None; 64]; 6]; 2];
    }

    /// Resizes the transposition table (clears it).
    pub fn resize(&mut self, hash_mb: usize) {
        self.tt = Tt::new(hash_mb);
    }

    /// Searches `root`. `history` holds the hashes ([`hash`]) of the game's
    /// positions before the root, oldest first, for repetition detection.
    /// `on_iteration` sees every finished iteration and may end the search by
    /// returning false (the caller's soft time limit). `stop` ends it at once.
    pub fn search(
        &mut self,
        root: &Chess,
        history: &[u64],
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
        let keep = (root.halfmoves() as usize).min(history.len());
        let mut stack = Vec::with_capacity(keep + MAX_PLY + 2);
        stack.extend_from_slice(&history[history.len() - keep..]);
        let mut run = Run {
            tt: &mut self.tt,
            history: &mut self.history,
            counter: &mut self.counter,
            lmr: &self.lmr,
            path: [None; MAX_PLY + 2],
            stop,
            killers: [[None; 2]; MAX_PLY + 1],
            evals: [-INF; MAX_PLY + 2],
            stack,
            nodes: 0,
            node_limit: limits.nodes.max(1),
            stopped: false,
            seldepth: 0,
        };
        run.iterate(root, limits, on_iteration)
    }
}

impl Run<'_> {
    fn iterate(
        &mut self,
        root: &Chess,
        limits: &Limits,
        on_iteration: &mut dyn FnMut(&Info) -> bool,
    ) -> SearchResult {
        let moves: Vec<Move> = root.legal_moves().into_iter().collect();
        if moves.is_empty() {
            let score = if root.is_check() { -MATE } else { 0 };
            return SearchResult {
                best: None,
                score: Score::from_internal(score),
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
            };
        }
        let root_hash = hash(root);
        let mut rng = SplitMix::new(limits.seed ^ root_hash);
        let noise: Vec<i32> = moves
            .iter()
            .map(|_| {
                if limits.noise > 0 {
                    rng.below(limits.noise as u64) as i32
                } else {
                    0
                }
            })
            .collect();
        let mut order: Vec<(Move, i32)> = moves.iter().copied().zip(noise).collect();
        // Captures first in the first iteration.
        order.sort_by_key(|(m, _)| -self.capture_score(m));

        let mut best = order[0].0;
        let mut best_score = -INF;
        let mut best_pv = vec![best];
        let mut finished_depth = 0;
        let max_depth = limits.depth.clamp(1, MAX_PLY as u32 - 1);
        let mut prev = 0;
        for depth in 1..=max_depth {
            self.seldepth = 0;
            let (score, iter_best, pv) = if limits.noise > 0 {
                self.root_noisy(root, root_hash, depth as i32, &mut order)
            } else {
                self.root_aspiration(root, root_hash, depth as i32, prev, &mut order)
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
            // A forced mate found within this depth will not change.
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

    /// One iteration at the root: aspiration window around the previous score,
    /// widened on failure.
    fn root_aspiration(
        &mut self,
        root: &Chess,
        root_hash: u64,
        depth: i32,
        prev: i32,
        order: &mut [(Move, i32)],
    ) -> (i32, Option<Move>, Vec<Move>) {
        let mut delta = 30;
        let (mut alpha, mut beta) = if depth >= 5 && prev.abs() < MATE_BOUND {
            (prev - delta, prev + delta)
        } else {
            (-INF, INF)
        };
        loop {
            let (score, best, pv) = self.root_pvs(root, root_hash, depth, alpha, beta, order);
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
        root: &Chess,
        root_hash: u64,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        order: &mut [(Move, i32)],
    ) -> (i32, Option<Move>, Vec<Move>) {
        let mut best_score = -INF;
        let mut best = None;
        let mut best_pv = Vec::new();
        let mut best_index = 0;
        self.stack.push(root_hash);
        for (i, &(m, _)) in order.iter().enumerate() {
            let mut child = root.clone();
            let child_hash = root
                .update_zobrist_hash::<Zobrist64>(Zobrist64(root_hash), m, EnPassantMode::Legal)
                .map_or_else(|| 0, |z| z.0);
            child.play_unchecked(m);
            let child_hash = if child_hash == 0 {
                hash(&child)
            } else {
                child_hash
            };
            let ext = i32::from(child.is_check());
            self.path[1] = Some(m);
            let mut pv = Vec::new();
            let score = if i == 0 {
                -self.pvs(
                    &child,
                    child_hash,
                    depth - 1 + ext,
                    -beta,
                    -alpha,
                    1,
                    &mut pv,
                    true,
                )
            } else {
                let mut s = -self.pvs(
                    &child,
                    child_hash,
                    depth - 1 + ext,
                    -alpha - 1,
                    -alpha,
                    1,
                    &mut pv,
                    true,
                );
                if s > alpha && s < beta && !self.stopped {
                    pv.clear();
                    s = -self.pvs(
                        &child,
                        child_hash,
                        depth - 1 + ext,
                        -beta,
                        -alpha,
                        1,
                        &mut pv,
                        true,
                    );
                }
                s
            };
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
        self.stack.pop();
        // Move the best to the front for the next iteration.
        if best.is_some() {
            order[..=best_index].rotate_right(1);
        }
        if best.is_none() && !self.stopped {
            // Failed low: report the first move with the bound.
            best = None;
        }
        (best_score, best, best_pv)
    }

    /// A noisy iteration: every root move gets a full-window score, plus its noise.
    fn root_noisy(
        &mut self,
        root: &Chess,
        root_hash: u64,
        depth: i32,
        order: &mut [(Move, i32)],
    ) -> (i32, Option<Move>, Vec<Move>) {
        let mut best = None;
        let mut best_noisy = -INF * 2;
        let mut best_score = -INF;
        let mut best_pv = Vec::new();
        self.stack.push(root_hash);
        for &(m, noise) in order.iter() {
            let mut child = root.clone();
            child.play_unchecked(m);
            let h = hash(&child);
            let ext = i32::from(child.is_check());
            self.path[1] = Some(m);
            let mut pv = Vec::new();
            let score = -self.pvs(&child, h, depth - 1 + ext, -INF, INF, 1, &mut pv, true);
            if self.stopped {
                break;
            }
            // Noise never hides a mate.
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
        self.stack.pop();
        (best_score, best, best_pv)
    }

    fn check_limits(&mut self) {
        if self.nodes >= self.node_limit || self.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
    }

    fn capture_score(&self, m: &Move) -> i32 {
        let victim = m.capture().map_or(0, |r| ORDER_VALUE[role_index(r)]);
        let promo = m.promotion().map_or(0, |r| ORDER_VALUE[role_index(r)]);
        if victim == 0 && promo == 0 {
            return 0;
        }
        victim * 16 + promo - ORDER_VALUE[role_index(m.role())] / 16
    }

    fn is_repetition(&self, h: u64, halfmoves: u32) -> bool {
        let n = self.stack.len();
        let window = (halfmoves as usize).min(n);
        let mut k = 2;
        while k <= window {
            if self.stack[n - k] == h {
                return true;
            }
            k += 2;
        }
        false
    }

    #[allow(clippy::too_many_arguments)]
    fn pvs(
        &mut self,
        pos: &Chess,
        h: u64,
        mut depth: i32,
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

        // Draws: fifty moves, repetition, bare material.
        if pos.halfmoves() >= 100 || self.is_repetition(h, pos.halfmoves()) {
            return 0;
        }
        if pos.board().occupied().count() <= 4 && pos.is_insufficient_material() {
            return 0;
        }
        if ply >= MAX_PLY {
            return evaluate(pos);
        }
        // Mate distance pruning.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

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

        let in_check = pos.is_check();
        let static_eval = if in_check { -INF } else { evaluate(pos) };
        self.evals[ply] = static_eval;
        // Better than two plies ago: the position is getting better for the mover.
        let improving = !in_check && ply >= 2 && static_eval > self.evals[ply - 2];
        // Internal iterative reduction: no move from the table, search shallower.
        if tt_move.is_none() && depth >= 4 {
            depth -= 1;
        }

        if !pv_node && !in_check {
            // Reverse futility.
            if depth <= 6
                && static_eval - 90 * (depth - i32::from(improving)) >= beta
                && beta.abs() < MATE_BOUND
            {
                return static_eval;
            }
            // Razoring: far below alpha, only captures can help.
            if depth <= 2 && static_eval + 250 * depth <= alpha && alpha.abs() < MATE_BOUND {
                let q = self.quiesce(pos, alpha, alpha + 1, ply);
                if self.stopped {
                    return 0;
                }
                if q <= alpha {
                    return q;
                }
            }
            // Null move: give the opponent a free move; still winning means cut.
            let us = pos.turn();
            let big = pos.board().by_color(us) & !(pos.board().pawns() | pos.board().kings());
            if allow_null
                && depth >= 3
                && static_eval >= beta
                && big.any()
                && let Ok(null) = pos.clone().swap_turn()
            {
                {
                    let nh = hash(&null);
                    let r = 3 + depth / 6 + ((static_eval - beta) / 200).min(2);
                    self.stack.push(h);
                    self.path[ply + 1] = None;
                    let mut child_pv = Vec::new();
                    let s = -self.pvs(
                        &null,
                        nh,
                        depth - 1 - r,
                        -beta,
                        -beta + 1,
                        ply + 1,
                        &mut child_pv,
                        false,
                    );
                    self.stack.pop();
                    if self.stopped {
                        return 0;
                    }
                    if s >= beta {
                        return if s > MATE_BOUND { beta } else { s };
                    }
                }
            }
        }

        let list = pos.legal_moves();
        if list.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        let mut scored = self.order_moves(pos, &list, tt_move, ply);

        let futile = !pv_node
            && !in_check
            && depth <= 4
            && static_eval + 30 + 100 * depth <= alpha
            && alpha.abs() < MATE_BOUND;

        let mut best_score = -INF;
        let mut best_move = None;
        let mut bound = Bound::Upper;
        let mut child_pv = Vec::new();
        let mut quiets_tried: Vec<Move> = Vec::new();
        self.stack.push(h);
        for i in 0..scored.len() {
            pick_next(&mut scored, i);
            let m = scored[i].0;
            let quiet = !m.is_capture() && m.promotion().is_none();
            let mut child = pos.clone();
            let ch = pos
                .update_zobrist_hash::<Zobrist64>(Zobrist64(h), m, EnPassantMode::Legal)
                .map(|z| z.0);
            child.play_unchecked(m);
            let ch = ch.unwrap_or_else(|| hash(&child));
            let gives_check = child.is_check();
            if futile && quiet && !gives_check && i > 0 {
                continue;
            }
            // Late-move pruning of quiet moves at shallow depth.
            if !pv_node
                && !in_check
                && quiet
                && !gives_check
                && depth <= 4
                && i >= (3 + depth as usize * depth as usize) / if improving { 1 } else { 2 }
                && best_score > -MATE_BOUND
            {
                continue;
            }
            // Moves that lose material by the static exchange, at shallow depth.
            if !pv_node
                && !in_check
                && depth <= 4
                && i > 0
                && best_score > -MATE_BOUND
                && !gives_check
                && see(pos, m) < if quiet { -60 * depth } else { -100 * depth }
            {
                continue;
            }
            let ext = i32::from(gives_check);
            let new_depth = depth - 1 + ext;
            self.path[ply + 1] = Some(m);
            child_pv.clear();
            let score = if i == 0 {
                -self.pvs(
                    &child,
                    ch,
                    new_depth,
                    -beta,
                    -alpha,
                    ply + 1,
                    &mut child_pv,
                    true,
                )
            } else {
                let mut r = 0;
                if depth >= 3 && quiet && !in_check && !gives_check && i >= 3 {
                    r = self.lmr[(depth as usize).min(63)][i.min(63)] as i32;
                    if pv_node {
                        r -= 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    if self.killers[ply].contains(&Some(m)) {
                        r -= 1;
                    }
                    r -= self.history[pos.turn() as usize][role_index(m.role())]
                        [usize::from(m.to())]
                        / 6000;
                    r = r.clamp(0, new_depth - 1);
                }
                let mut s = -self.pvs(
                    &child,
                    ch,
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
                        &child,
                        ch,
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
                    s = -self.pvs(
                        &child,
                        ch,
                        new_depth,
                        -beta,
                        -alpha,
                        ply + 1,
                        &mut child_pv,
                        true,
                    );
                }
                s
            };
            if self.stopped {
                self.stack.pop();
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
                            self.reward_quiet(pos.turn(), m, &quiets_tried, depth, ply);
                            if let Some(p) = self.path[ply] {
                                self.counter[!pos.turn() as usize][role_index(p.role())]
                                    [usize::from(p.to())] = Some(m);
                            }
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets_tried.push(m);
            }
        }
        self.stack.pop();
        if best_move.is_none() {
            // Everything was pruned: fail low with the static bound.
            return alpha;
        }
        if let Some(m) = best_move {
            self.tt
                .store(h, move_key(m), to_tt(best_score, ply), depth, bound);
        }
        best_score
    }

    fn reward_quiet(&mut self, us: Color, m: Move, tried: &[Move], depth: i32, ply: usize) {
        if self.killers[ply][0] != Some(m) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(m);
        }
        let bonus = (depth * depth).min(400);
        let c = us as usize;
        let entry = &mut self.history[c][role_index(m.role())][usize::from(m.to())];
        *entry += bonus - *entry * bonus / 16_384;
        for &q in tried {
            let e = &mut self.history[c][role_index(q.role())][usize::from(q.to())];
            *e -= bonus + *e * bonus / 16_384;
        }
    }

    fn order_moves(
        &self,
        pos: &Chess,
        list: &MoveList,
        tt_move: Option<u16>,
        ply: usize,
    ) -> Vec<(Move, i32)> {
        let c = pos.turn() as usize;
        let counter = self.path[ply]
            .and_then(|p| self.counter[1 - c][role_index(p.role())][usize::from(p.to())]);
        list.iter()
            .map(|&m| {
                let s = if tt_move == Some(move_key(m)) {
                    1 << 30
                } else if m.is_capture() || m.promotion().is_some() {
                    // Losing captures after the quiet moves.
                    let base = if m.promotion().is_none()
                        && ORDER_VALUE[role_index(m.role())]
                            > m.capture().map_or(100, |r| ORDER_VALUE[role_index(r)])
                        && see(pos, m) < 0
                    {
                        -(1 << 24)
                    } else {
                        1 << 24
                    };
                    base + self.capture_score(&m)
                } else if self.killers[ply][0] == Some(m) {
                    (1 << 23) + 2
                } else if self.killers[ply][1] == Some(m) {
                    (1 << 23) + 1
                } else if counter == Some(m) {
                    1 << 23
                } else {
                    self.history[c][role_index(m.role())][usize::from(m.to())]
                };
                (m, s)
            })
            .collect()
    }

    fn quiesce(&mut self, pos: &Chess, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            self.check_limits();
        }
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = pos.is_check();
        if ply >= MAX_PLY {
            return if in_check { 0 } else { evaluate(pos) };
        }
        if in_check {
            // Every evasion, no standing pat.
            let list = pos.legal_moves();
            if list.is_empty() {
                return -MATE + ply as i32;
            }
            let mut scored: Vec<(Move, i32)> =
                list.iter().map(|&m| (m, self.capture_score(&m))).collect();
            let mut best = -INF;
            for i in 0..scored.len() {
                pick_next(&mut scored, i);
                let mut child = pos.clone();
                child.play_unchecked(scored[i].0);
                let s = -self.quiesce(&child, -beta, -alpha, ply + 1);
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
            return best;
        }
        let stand = evaluate(pos);
        if stand >= beta {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        // Pseudo-legal captures and queen promotions; legality is checked after
        // each is played.
        let mut list = MoveList::new();
        captures(pos, &mut list);
        let mut scored: Vec<(Move, i32)> =
            list.iter().map(|&m| (m, self.capture_score(&m))).collect();
        for i in 0..scored.len() {
            pick_next(&mut scored, i);
            let m = scored[i].0;
            if m.promotion().is_none() {
                let gain = m.capture().map_or(0, |r| ORDER_VALUE[role_index(r)]);
                // Delta pruning: even the captured piece and a margin do not reach alpha.
                if stand + gain + 200 <= alpha {
                    continue;
                }
                // Captures that lose material in the exchange.
                if ORDER_VALUE[role_index(m.role())] > gain && see(pos, m) < 0 {
                    continue;
                }
            }
            let mut child = pos.clone();
            child.play_unchecked(m);
            if !leaves_king_safe(&child) {
                continue;
            }
            let s = -self.quiesce(&child, -beta, -alpha, ply + 1);
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

/// Selection sort step: brings the best-scored remaining move to `i`.
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
