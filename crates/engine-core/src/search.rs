//! The alpha-beta search both engines run, generic over the game's position
//! ([`SearchPosition`]): principal-variation search with iterative deepening and
//! aspiration windows, a transposition table, null-move pruning, late-move
//! reductions, killer, countermove and history ordering, quiescence, check
//! extension and mate-distance pruning. What differs between the games — the
//! rules at the leaves (stalemate, perpetual check), the evaluation, static
//! exchange and the pruning margins — comes from the position type and its
//! [`Params`].
//!
//! Pure: the caller passes the limits (depth, nodes) and a stop flag it sets when
//! its clock says so; the flag is read every [`CHECK_EVERY`] nodes.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::{Bound, MATE, MATE_BOUND, MAX_PLY, Score, Tt};

/// A score beyond every evaluation and mate.
pub const INF: i32 = 32_000;
/// A side that checks perpetually has lost (xiangqi): worse than any material,
/// not a mate.
pub const PERPETUAL: i32 = MATE_BOUND - 200;
/// Nodes between two looks at the stop flag and the node budget.
pub const CHECK_EVERY: u64 = 1024;

/// Which of the search's prunings and reductions a game uses, and their margins
/// (in the game's evaluation units).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Params {
    /// Internal iterative reduction: one ply less at depth ≥ 4 without a table move.
    pub iir: bool,
    /// Reverse futility: a non-PV node at depth ≤ `rfp_depth` whose static
    /// evaluation beats beta by `rfp_margin` a ply returns it.
    pub rfp_depth: i32,
    pub rfp_margin: i32,
    /// … one ply less of margin when the position is improving.
    pub rfp_improving: bool,
    /// Razoring at depth ≤ 2: this margin a ply below alpha, only quiescence.
    pub razor_margin: Option<i32>,
    /// Null move's reduction grows by up to 2 plies with the margin over beta
    /// (a ply per 200).
    pub null_margin_reduction: bool,
    /// Futility of quiet moves at depth ≤ `futility_depth` when the static
    /// evaluation plus `futility_base + futility_margin · depth` does not reach alpha.
    pub futility_depth: i32,
    pub futility_base: i32,
    pub futility_margin: i32,
    /// Late-move pruning of quiet moves at depth ≤ `lmp_depth` from move number
    /// `lmp_base + lmp_factor · depth²` (halved when not improving, if `lmp_improving`).
    pub lmp_depth: i32,
    pub lmp_base: usize,
    pub lmp_factor: usize,
    pub lmp_improving: bool,
    /// Prune moves at depth ≤ 4 that lose more than 60 (quiet) or 100 (captures)
    /// a ply by the static exchange ([`SearchPosition::see`]).
    pub see_pruning: bool,
    /// Order the quiet move that last refuted the previous move after the killers.
    pub countermoves: bool,
    /// Late-move reductions: one ply more when not improving.
    pub lmr_improving: bool,
    /// … one ply less per this much history (0: history does not count).
    pub lmr_history_divisor: i32,
    /// Aspiration windows only while the previous score is within this bound.
    pub aspiration_bound: i32,
}

/// A game's position as the search walks it: made and unmade in place.
pub trait SearchPosition {
    type Move: Copy + Eq;
    /// History slots per side (role × square).
    const HISTORY_SLOTS: usize;
    const PARAMS: Params;
    /// Does a repetition in which one side gave check with every move lose for
    /// that side (xiangqi), or is every repetition a draw (chess)?
    const PERPETUAL_CHECK_LOSES: bool;

    fn hash(&self) -> u64;
    /// 0 for the first player, 1 for the second.
    fn side(&self) -> usize;
    fn in_check(&self) -> bool;
    /// Plies since the last irreversible move: how far back a repetition can be.
    fn halfmoves(&self) -> u32;
    /// A draw by the game's rules other than repetition (move limits, material).
    fn rule_draw(&self) -> bool;
    /// The static evaluation for the side to move.
    fn evaluate(&self) -> i32;
    /// The score (for the side to move) of a position without a legal move, at
    /// the root; the search adds the distance.
    fn no_moves(&self, in_check: bool) -> i32;
    /// Appends every legal move with score 0.
    fn legal_moves(&mut self, out: &mut Vec<(Self::Move, i32)>);
    /// Appends the captures (and promotions) quiescence tries, with score 0; they
    /// may be pseudo-legal ([`was_legal`](Self::was_legal)). Returns false when the
    /// game knows there is no legal move at all.
    fn noisy_moves(&mut self, out: &mut Vec<(Self::Move, i32)>) -> bool;
    /// After making a move from [`noisy_moves`](Self::noisy_moves): was it legal?
    fn was_legal(&self) -> bool {
        true
    }
    /// Runs `f` on the position after the legal move `m` (made and unmade in
    /// place, or played on a copy: the game's choice).
    fn with_move<R>(&mut self, m: Self::Move, f: impl FnOnce(&mut Self) -> R) -> R;
    /// [`with_move`](Self::with_move) in quiescence, where no hash is needed; `m`
    /// may be pseudo-legal.
    fn with_move_quiescent<R>(&mut self, m: Self::Move, f: impl FnOnce(&mut Self) -> R) -> R {
        self.with_move(m, f)
    }
    /// Runs `f` after a pass, if the side to move has pieces that make a null
    /// move safe to try.
    fn with_null<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> Option<R>;
    /// Neither a capture nor a promotion.
    fn is_quiet(&self, m: Self::Move) -> bool;
    /// MVV-LVA order of a capture or promotion; 0 for a quiet move.
    fn capture_order(&self, m: Self::Move) -> i32;
    /// A capture that loses material by the static exchange (ordered after the
    /// quiet moves, skipped in quiescence).
    fn losing_capture(&self, _m: Self::Move) -> bool {
        false
    }
    /// The captured piece's value for delta pruning in quiescence; `None` for a
    /// move never pruned so (a promotion).
    fn capture_gain(&self, m: Self::Move) -> Option<i32>;
    /// The static exchange of the move (used with [`Params::see_pruning`]).
    fn see(&self, _m: Self::Move) -> i32 {
        0
    }
    /// The move's history slot, `0..HISTORY_SLOTS` (by the moving piece and target).
    fn history_slot(&self, m: Self::Move) -> usize;
    /// The move packed into 16 bits for the transposition table.
    fn move_key(m: Self::Move) -> u16;
}

/// What bounds one search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchLimits {
    /// Deepest iteration, in plies (1..=MAX_PLY).
    pub depth: u32,
    /// Node budget; the search stops once it is spent.
    pub nodes: u64,
    /// Random points (0..noise) added to each root move's score; 0 for the best
    /// move. A noisy search scores every root move with a full window.
    pub noise: i32,
    /// Seed of the noise.
    pub seed: u64,
}

/// The state after one finished iteration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Info<M> {
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    pub pv: Vec<M>,
}

/// The outcome of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// `None` only when the root has no legal (unbanned) move.
    pub best: Option<M>,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<M>,
}

/// Search state kept between moves of a game: the transposition table, the
/// history and countermove tables.
pub struct Searcher<P: SearchPosition> {
    tt: Tt,
    history: Vec<i32>,
    counter: Vec<Option<P::Move>>,
    lmr: Box<[[u8; 64]; 64]>,
}

fn lmr_table() -> Box<[[u8; 64]; 64]> {
    let mut t = Box::new([[0u8; 64]; 64]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (i, v) in row.iter_mut().enumerate().skip(1) {
            let r = 0.75 + (d as f64).ln() * (i as f64).ln() / 2.25;
            *v = r.max(0.0) as u8;
        }
    }
    t
}

/// Tiny deterministic generator (SplitMix64) for root noise.
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
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next_u64() % n }
    }
}

impl<P: SearchPosition> Searcher<P> {
    /// A searcher with a transposition table of about `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> Self {
        Searcher {
            tt: Tt::new(hash_mb),
            history: vec![0; 2 * P::HISTORY_SLOTS],
            counter: vec![None; 2 * P::HISTORY_SLOTS],
            lmr: lmr_table(),
        }
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.fill(0);
        self.counter.fill(None);
    }

    /// Resizes the transposition table (clears it).
    pub fn resize(&mut self, hash_mb: usize) {
        self.tt = Tt::new(hash_mb);
    }

    /// Searches `root`. `stack` holds the positions before the root since the
    /// last irreversible move, oldest first: hash, and whether the side to move
    /// there was in check. `banned` root moves are not considered.
    /// `on_iteration` sees every finished iteration and may end the search by
    /// returning false (the caller's soft time limit). `stop` ends it at once.
    pub fn search(
        &mut self,
        root: &mut P,
        stack: Vec<(u64, bool)>,
        banned: &[P::Move],
        limits: &SearchLimits,
        stop: &AtomicBool,
        on_iteration: &mut dyn FnMut(&Info<P::Move>) -> bool,
    ) -> SearchResult<P::Move> {
        for h in self.history.iter_mut() {
            *h /= 8;
        }
        self.tt.new_search();
        let mut stack = stack;
        let root_len = stack.len();
        stack.reserve(MAX_PLY + 2);
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
            root_len,
            nodes: 0,
            node_limit: limits.nodes.max(1),
            stopped: false,
            seldepth: 0,
        };
        run.iterate(root, banned, limits, on_iteration)
    }
}

/// One search's working state.
struct Run<'a, P: SearchPosition> {
    tt: &'a mut Tt,
    history: &'a mut [i32],
    counter: &'a mut [Option<P::Move>],
    lmr: &'a [[u8; 64]; 64],
    /// The move that led to each ply with its history slot (`None` at the root
    /// and after a null move).
    path: [Option<(P::Move, usize)>; MAX_PLY + 2],
    stop: &'a AtomicBool,
    killers: [[Option<P::Move>; 2]; MAX_PLY + 1],
    /// The static evaluation at each ply of the current path (`-INF` in check).
    evals: [i32; MAX_PLY + 2],
    /// The positions before the current one since the last irreversible move:
    /// hash, and whether the side to move there was in check.
    stack: Vec<(u64, bool)>,
    /// How many entries of `stack` are the game's positions before the root.
    root_len: usize,
    nodes: u64,
    node_limit: u64,
    stopped: bool,
    seldepth: usize,
}

type RootIteration<M> = (i32, Option<M>, Vec<M>);

impl<P: SearchPosition> Run<'_, P> {
    fn iterate(
        &mut self,
        root: &mut P,
        banned: &[P::Move],
        limits: &SearchLimits,
        on_iteration: &mut dyn FnMut(&Info<P::Move>) -> bool,
    ) -> SearchResult<P::Move> {
        let mut all = Vec::new();
        root.legal_moves(&mut all);
        let moves: Vec<P::Move> = all
            .iter()
            .map(|&(m, _)| m)
            .filter(|m| !banned.contains(m))
            .collect();
        if moves.is_empty() {
            let score = if all.is_empty() {
                root.no_moves(root.in_check())
            } else {
                -MATE
            };
            return SearchResult {
                best: None,
                score: Score::from_internal(score),
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
            };
        }
        let mut rng = SplitMix::new(limits.seed ^ root.hash());
        let mut order: Vec<(P::Move, i32)> = moves
            .iter()
            .map(|&m| {
                let n = if limits.noise > 0 {
                    rng.below(limits.noise as u64) as i32
                } else {
                    0
                };
                (m, n)
            })
            .collect();
        // Captures first in the first iteration.
        order.sort_by_key(|(m, _)| -root.capture_order(*m));

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
        root: &mut P,
        depth: i32,
        prev: i32,
        order: &mut [(P::Move, i32)],
    ) -> RootIteration<P::Move> {
        let mut delta = 30;
        let (mut alpha, mut beta) = if depth >= 5 && prev.abs() < P::PARAMS.aspiration_bound {
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
        root: &mut P,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        order: &mut [(P::Move, i32)],
    ) -> RootIteration<P::Move> {
        let mut best_score = -INF;
        let mut best = None;
        let mut best_pv = Vec::new();
        let mut best_index = 0;
        self.stack.push((root.hash(), root.in_check()));
        for (i, &(m, _)) in order.iter().enumerate() {
            self.path[1] = Some((m, root.history_slot(m)));
            let mut pv = Vec::new();
            let score = root.with_move(m, |child| {
                let ext = i32::from(child.in_check());
                if i == 0 {
                    -self.pvs(child, depth - 1 + ext, -beta, -alpha, 1, &mut pv, true)
                } else {
                    let mut s =
                        -self.pvs(child, depth - 1 + ext, -alpha - 1, -alpha, 1, &mut pv, true);
                    if s > alpha && s < beta && !self.stopped {
                        pv.clear();
                        s = -self.pvs(child, depth - 1 + ext, -beta, -alpha, 1, &mut pv, true);
                    }
                    s
                }
            });
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
        // The best to the front for the next iteration.
        if best.is_some() {
            order[..=best_index].rotate_right(1);
        }
        (best_score, best, best_pv)
    }

    /// A noisy iteration: every root move gets a full-window score, plus its noise.
    fn root_noisy(
        &mut self,
        root: &mut P,
        depth: i32,
        order: &[(P::Move, i32)],
    ) -> RootIteration<P::Move> {
        let mut best = None;
        let mut best_noisy = -INF * 2;
        let mut best_score = -INF;
        let mut best_pv = Vec::new();
        self.stack.push((root.hash(), root.in_check()));
        for &(m, noise) in order {
            self.path[1] = Some((m, root.history_slot(m)));
            let mut pv = Vec::new();
            let score = root.with_move(m, |child| {
                let ext = i32::from(child.in_check());
                -self.pvs(child, depth - 1 + ext, -INF, INF, 1, &mut pv, true)
            });
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

    /// A repetition of an earlier position (same side to move) since the last
    /// irreversible move: its score for the side to move (a draw, or by the
    /// perpetual-check rule).
    ///
    /// A position first seen inside the search repeats at its second occurrence
    /// (the side that can repeat once can repeat again). A position of the game
    /// before the root counts only at its third occurrence, as the rules judge a
    /// game: chess's threefold repetition, and xiangqi's cycles, which the hall
    /// rules on at the third occurrence (`qiyuan_xiangqi::rules`; a game that comes
    /// back to a position once more goes on, as Fairy-Stockfish plays it too).
    fn repetition(&self, pos: &P, h: u64, ply: usize) -> Option<i32> {
        let n = self.stack.len();
        let window = (pos.halfmoves() as usize).min(n);
        let mut k = 2;
        let mut nearest = None;
        let mut before_root = 0;
        while k <= window {
            let j = n - k;
            if self.stack[j].0 == h {
                nearest.get_or_insert(k);
                if j >= self.root_len {
                    break;
                }
                before_root += 1;
                if before_root >= 2 {
                    break;
                }
            }
            k += 2;
        }
        let k = nearest?;
        if n - k < self.root_len && before_root < 2 {
            return None;
        }
        if !P::PERPETUAL_CHECK_LOSES {
            return Some(0);
        }
        let in_check = pos.in_check();
        let flag = |i: usize| if i == n { in_check } else { self.stack[i].1 };
        // Positions n-k+1, n-k+3, .. follow our moves: the opponent in
        // check there means we checked.
        let we_check = (n - k + 1..n).step_by(2).all(flag);
        let they_check = (n - k + 2..=n).step_by(2).all(flag);
        let lost = PERPETUAL - ply as i32;
        Some(match (we_check, they_check) {
            (true, false) => -lost,
            (false, true) => lost,
            _ => 0,
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn pvs(
        &mut self,
        pos: &mut P,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv: &mut Vec<P::Move>,
        allow_null: bool,
    ) -> i32 {
        let params = P::PARAMS;
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
        let h = pos.hash();

        // Ends by the rules: repetition, move limits, material.
        if let Some(s) = self.repetition(pos, h, ply) {
            return s;
        }
        if pos.rule_draw() {
            return 0;
        }
        if ply >= MAX_PLY {
            return pos.evaluate();
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

        let in_check = pos.in_check();
        let static_eval = if in_check { -INF } else { pos.evaluate() };
        self.evals[ply] = static_eval;
        // Better than two plies ago: the position is getting better for the mover.
        let improving = !in_check && ply >= 2 && static_eval > self.evals[ply - 2];
        // Internal iterative reduction: no move from the table, search shallower.
        if params.iir && tt_move.is_none() && depth >= 4 {
            depth -= 1;
        }

        if !pv_node && !in_check {
            // Reverse futility.
            let rfp_depth = depth - i32::from(params.rfp_improving && improving);
            if depth <= params.rfp_depth
                && static_eval - params.rfp_margin * rfp_depth >= beta
                && beta.abs() < MATE_BOUND
            {
                return static_eval;
            }
            // Razoring: far below alpha, only captures can help.
            if let Some(margin) = params.razor_margin
                && depth <= 2
                && static_eval + margin * depth <= alpha
                && alpha.abs() < MATE_BOUND
            {
                let q = self.quiesce(pos, alpha, alpha + 1, ply);
                if self.stopped {
                    return 0;
                }
                if q <= alpha {
                    return q;
                }
            }
            // Null move: give the opponent a free move; still winning means cut.
            let mut r = 3 + depth / 6;
            if params.null_margin_reduction {
                r += ((static_eval - beta) / 200).min(2);
            }
            if allow_null
                && depth >= 3
                && static_eval >= beta
                && let Some(s) = pos.with_null(|null| {
                    self.stack.push((h, in_check));
                    self.path[ply + 1] = None;
                    let mut child_pv = Vec::new();
                    let s = -self.pvs(
                        null,
                        depth - 1 - r,
                        -beta,
                        -beta + 1,
                        ply + 1,
                        &mut child_pv,
                        false,
                    );
                    self.stack.pop();
                    s
                })
            {
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    return if s > MATE_BOUND { beta } else { s };
                }
            }
        }

        let mut scored = Vec::new();
        pos.legal_moves(&mut scored);
        if scored.is_empty() {
            let s = pos.no_moves(in_check);
            return if s < 0 { s + ply as i32 } else { s };
        }
        self.order_moves(pos, &mut scored, tt_move, ply);

        let futile = !pv_node
            && !in_check
            && depth <= params.futility_depth
            && static_eval + params.futility_base + params.futility_margin * depth <= alpha
            && alpha.abs() < MATE_BOUND;
        let lmp_from = if !pv_node && !in_check && depth <= params.lmp_depth {
            let n = params.lmp_base + params.lmp_factor * (depth * depth) as usize;
            if params.lmp_improving && !improving {
                n / 2
            } else {
                n
            }
        } else {
            usize::MAX
        };
        let side = pos.side();

        let mut best_score = -INF;
        let mut best_move = None;
        let mut bound = Bound::Upper;
        let mut child_pv = Vec::new();
        let mut quiets_tried: Vec<usize> = Vec::new();
        self.stack.push((h, in_check));
        for i in 0..scored.len() {
            pick_next(&mut scored, i);
            let m = scored[i].0;
            let quiet = pos.is_quiet(m);
            let slot = pos.history_slot(m);
            // Pruned unless the move gives check (known after it is made):
            // futility and late moves, quiet ones at shallow depth …
            let mut prune =
                quiet && ((futile && i > 0) || (i >= lmp_from && best_score > -MATE_BOUND));
            // … and moves that lose material by the static exchange.
            if !prune
                && params.see_pruning
                && !pv_node
                && !in_check
                && depth <= 4
                && i > 0
                && best_score > -MATE_BOUND
            {
                prune = pos.see(m) < if quiet { -60 * depth } else { -100 * depth };
            }
            self.path[ply + 1] = Some((m, slot));
            let searched = pos.with_move(m, |child| {
                let gives_check = child.in_check();
                if prune && !gives_check {
                    return None;
                }
                let ext = i32::from(gives_check);
                let new_depth = depth - 1 + ext;
                child_pv.clear();
                if i == 0 {
                    return Some(-self.pvs(
                        child,
                        new_depth,
                        -beta,
                        -alpha,
                        ply + 1,
                        &mut child_pv,
                        true,
                    ));
                }
                let mut r = 0;
                if depth >= 3 && quiet && !in_check && !gives_check && i >= 3 {
                    r = self.lmr[(depth as usize).min(63)][i.min(63)] as i32;
                    if pv_node {
                        r -= 1;
                    }
                    if params.lmr_improving && !improving {
                        r += 1;
                    }
                    if self.killers[ply].contains(&Some(m)) {
                        r -= 1;
                    }
                    if params.lmr_history_divisor > 0 {
                        r -= self.history[side * P::HISTORY_SLOTS + slot]
                            / params.lmr_history_divisor;
                    }
                    r = r.clamp(0, (new_depth - 1).max(0));
                }
                let mut s = -self.pvs(
                    child,
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
                        child,
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
                        child,
                        new_depth,
                        -beta,
                        -alpha,
                        ply + 1,
                        &mut child_pv,
                        true,
                    );
                }
                Some(s)
            });
            let Some(score) = searched else {
                continue;
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
                            self.reward_quiet(side, m, slot, &quiets_tried, depth, ply);
                            if params.countermoves
                                && let Some((_, p)) = self.path[ply]
                            {
                                self.counter[(1 - side) * P::HISTORY_SLOTS + p] = Some(m);
                            }
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets_tried.push(slot);
            }
        }
        self.stack.pop();
        let Some(m) = best_move else {
            // Everything was pruned: fail low with the static bound.
            return alpha;
        };
        self.tt
            .store(h, P::move_key(m), to_tt(best_score, ply), depth, bound);
        best_score
    }

    fn reward_quiet(
        &mut self,
        side: usize,
        m: P::Move,
        slot: usize,
        tried: &[usize],
        depth: i32,
        ply: usize,
    ) {
        if self.killers[ply][0] != Some(m) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(m);
        }
        let bonus = (depth * depth).min(400);
        let base = side * P::HISTORY_SLOTS;
        let e = &mut self.history[base + slot];
        *e += bonus - *e * bonus / 16_384;
        for &q in tried {
            let e = &mut self.history[base + q];
            *e -= bonus + *e * bonus / 16_384;
        }
    }

    fn order_moves(&self, pos: &P, list: &mut [(P::Move, i32)], tt_move: Option<u16>, ply: usize) {
        let side = pos.side();
        let base = side * P::HISTORY_SLOTS;
        let counter = if P::PARAMS.countermoves {
            self.path[ply].and_then(|(_, p)| self.counter[(1 - side) * P::HISTORY_SLOTS + p])
        } else {
            None
        };
        for (m, s) in list.iter_mut() {
            let m = *m;
            *s = if tt_move == Some(P::move_key(m)) {
                1 << 30
            } else if !pos.is_quiet(m) {
                // Losing captures after the quiet moves.
                let base = if pos.losing_capture(m) {
                    -(1 << 24)
                } else {
                    1 << 24
                };
                base + pos.capture_order(m)
            } else if self.killers[ply][0] == Some(m) {
                (1 << 23) + 2
            } else if self.killers[ply][1] == Some(m) {
                (1 << 23) + 1
            } else if counter == Some(m) {
                1 << 23
            } else {
                self.history[base + pos.history_slot(m)]
            };
        }
    }

    fn quiesce(&mut self, pos: &mut P, mut alpha: i32, beta: i32, ply: usize) -> i32 {
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
        let mut scored = Vec::new();
        if in_check {
            // Every evasion, no standing pat.
            pos.legal_moves(&mut scored);
            if scored.is_empty() {
                return -MATE + ply as i32;
            }
            for (m, s) in scored.iter_mut() {
                *s = pos.capture_order(*m);
            }
            let mut best = -INF;
            for i in 0..scored.len() {
                pick_next(&mut scored, i);
                let m = scored[i].0;
                let s = pos
                    .with_move_quiescent(m, |child| -self.quiesce(child, -beta, -alpha, ply + 1));
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
        let stand = pos.evaluate();
        if stand >= beta {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        if !pos.noisy_moves(&mut scored) {
            // No legal move at all (the game knows it here).
            let s = pos.no_moves(false);
            return if s < 0 { s + ply as i32 } else { s };
        }
        for (m, s) in scored.iter_mut() {
            *s = pos.capture_order(*m);
        }
        for i in 0..scored.len() {
            pick_next(&mut scored, i);
            let m = scored[i].0;
            if let Some(gain) = pos.capture_gain(m) {
                // Delta pruning: even the captured piece and a margin do not reach alpha.
                if stand + gain + 200 <= alpha {
                    continue;
                }
                // Captures that lose material in the exchange.
                if pos.losing_capture(m) {
                    continue;
                }
            }
            let searched = pos.with_move_quiescent(m, |child| {
                child
                    .was_legal()
                    .then(|| -self.quiesce(child, -beta, -alpha, ply + 1))
            });
            let Some(s) = searched else {
                continue;
            };
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
fn pick_next<M>(list: &mut [(M, i32)], i: usize) {
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
