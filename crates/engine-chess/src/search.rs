//! The chess position for qiyuan-engine-core's search ([`SearchPosition`]):
//! shakmaty's `Chess` made by copy (with its Zobrist key updated per move), the
//! draws of chess (stalemate, repetition, fifty moves, bare material), static
//! exchange for ordering and pruning, quiescence's own capture generator, and the
//! chess margins of the pruning ([`PARAMS`]).
//!
//! Pure: the caller passes the limits (depth, nodes) and a stop flag it sets when
//! its clock says so; the flag is read every [`CHECK_EVERY`] nodes.

use std::sync::atomic::AtomicBool;

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, Color, EnPassantMode, Move, MoveList, Position};

use crate::eval::{ORDER_VALUE, evaluate, role_index};
use crate::see::{captures, leaves_king_safe, see};
use qiyuan_engine_core::{Params, SearchLimits, SearchPosition};

pub use qiyuan_engine_core::{CHECK_EVERY, MATE, MATE_BOUND, MAX_PLY, Score};

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
pub type Info = qiyuan_engine_core::Info<Move>;
/// The outcome of a search.
pub type SearchResult = qiyuan_engine_core::SearchResult<Move>;

/// The chess margins of the search.
pub const PARAMS: Params = Params {
    iir: true,
    rfp_depth: 6,
    rfp_margin: 90,
    rfp_improving: true,
    razor_margin: Some(250),
    null_margin_reduction: true,
    futility_depth: 4,
    futility_base: 30,
    futility_margin: 100,
    lmp_depth: 4,
    lmp_base: 3,
    lmp_factor: 1,
    lmp_improving: true,
    see_pruning: true,
    countermoves: true,
    lmr_improving: true,
    lmr_history_divisor: 6000,
    aspiration_bound: MATE_BOUND,
    // Off: measured worse against Stockfish at 10 s + 0.1 s (docs/engines.md).
};

/// The position the search walks and its hash; a move is played on a copy.
pub(crate) struct Node {
    pos: Chess,
    hash: u64,
}

/// A compact move key for the transposition table and move comparison.
pub(crate) fn move_key(m: Move) -> u16 {
    let from = m.from().map_or(0, |s| usize::from(s) as u16);
    let to = usize::from(m.to()) as u16;
    let promo = m.promotion().map_or(0, |r| role_index(r) as u16);
    from | (to << 6) | (promo << 12)
}

impl SearchPosition for Node {
    type Move = Move;
    const HISTORY_SLOTS: usize = 6 * 64;
    const PARAMS: Params = PARAMS;
    const PERPETUAL_CHECK_LOSES: bool = false;

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    #[inline]
    fn side(&self) -> usize {
        usize::from(self.pos.turn() == Color::Black)
    }

    #[inline]
    fn in_check(&self) -> bool {
        self.pos.is_check()
    }

    #[inline]
    fn halfmoves(&self) -> u32 {
        self.pos.halfmoves()
    }

    fn rule_draw(&self) -> bool {
        self.pos.halfmoves() >= 100
            || (self.pos.board().occupied().count() <= 4 && self.pos.is_insufficient_material())
    }

    #[inline]
    fn evaluate(&self) -> i32 {
        evaluate(&self.pos)
    }

    fn no_moves(&self, in_check: bool) -> i32 {
        if in_check { -MATE } else { 0 }
    }

    fn legal_moves(&mut self, out: &mut Vec<(Move, i32)>) {
        let list = self.pos.legal_moves();
        out.reserve_exact(list.len());
        out.extend(list.iter().map(|&m| (m, 0)));
    }

    fn noisy_moves(&mut self, out: &mut Vec<(Move, i32)>) -> bool {
        let mut list = MoveList::new();
        captures(&self.pos, &mut list);
        out.reserve_exact(list.len());
        out.extend(list.iter().map(|&m| (m, 0)));
        true
    }

    #[inline]
    fn was_legal(&self) -> bool {
        leaves_king_safe(&self.pos)
    }

    #[inline]
    fn with_move<R>(&mut self, m: Move, f: impl FnOnce(&mut Self) -> R) -> R {
        let h = self
            .pos
            .update_zobrist_hash::<Zobrist64>(Zobrist64(self.hash), m, EnPassantMode::Legal)
            .map(|z| z.0);
        let mut child = Node {
            pos: self.pos.clone(),
            hash: 0,
        };
        child.pos.play_unchecked(m);
        child.hash = h.unwrap_or_else(|| hash(&child.pos));
        f(&mut child)
    }

    #[inline]
    fn with_move_quiescent<R>(&mut self, m: Move, f: impl FnOnce(&mut Self) -> R) -> R {
        let mut child = Node {
            pos: self.pos.clone(),
            hash: 0,
        };
        child.pos.play_unchecked(m);
        f(&mut child)
    }

    fn with_null<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> Option<R> {
        let board = self.pos.board();
        let big = board.by_color(self.pos.turn()) & !(board.pawns() | board.kings());
        if !big.any() {
            return None;
        }
        let pos = self.pos.clone().swap_turn().ok()?;
        let hash = hash(&pos);
        Some(f(&mut Node { pos, hash }))
    }

    #[inline]
    fn is_quiet(&self, m: Move) -> bool {
        !m.is_capture() && m.promotion().is_none()
    }

    #[inline]
    fn capture_order(&self, m: Move) -> i32 {
        let victim = m.capture().map_or(0, |r| ORDER_VALUE[role_index(r)]);
        let promo = m.promotion().map_or(0, |r| ORDER_VALUE[role_index(r)]);
        if victim == 0 && promo == 0 {
            return 0;
        }
        victim * 16 + promo - ORDER_VALUE[role_index(m.role())] / 16
    }

    #[inline]
    fn losing_capture(&self, m: Move) -> bool {
        m.promotion().is_none()
            && ORDER_VALUE[role_index(m.role())]
                > m.capture().map_or(100, |r| ORDER_VALUE[role_index(r)])
            && see(&self.pos, m) < 0
    }

    #[inline]
    fn capture_gain(&self, m: Move) -> Option<i32> {
        if m.promotion().is_some() {
            return None;
        }
        Some(m.capture().map_or(0, |r| ORDER_VALUE[role_index(r)]))
    }

    #[inline]
    fn see(&self, m: Move) -> i32 {
        see(&self.pos, m)
    }

    #[inline]
    fn history_slot(&self, m: Move) -> usize {
        role_index(m.role()) * 64 + usize::from(m.to())
    }

    #[inline]
    fn move_key(m: Move) -> u16 {
        move_key(m)
    }
}

/// Search state kept between moves of a game: the transposition table and the
/// history counters.
pub struct Searcher(qiyuan_engine_core::Searcher<Node>);

impl Searcher {
    /// A searcher with a transposition table of about `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher(qiyuan_engine_core::Searcher::new(hash_mb))
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// Resizes the transposition table (clears it).
    pub fn resize(&mut self, hash_mb: usize) {
        self.0.resize(hash_mb);
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
        self.search_excluding(root, history, &[], limits, stop, on_iteration)
    }

    /// [`Searcher::search`] without the root moves `excluded` (the lines already
    /// given of a multi-line analysis, UCI's `MultiPV`); `best` is `None` when no
    /// other move is legal.
    pub fn search_excluding(
        &mut self,
        root: &Chess,
        history: &[u64],
        excluded: &[Move],
        limits: &Limits,
        stop: &AtomicBool,
        on_iteration: &mut dyn FnMut(&Info) -> bool,
    ) -> SearchResult {
        let keep = (root.halfmoves() as usize).min(history.len());
        let stack = history[history.len() - keep..]
            .iter()
            .map(|&h| (h, false))
            .collect();
        let mut node = Node {
            pos: root.clone(),
            hash: hash(root),
        };
        let limits = SearchLimits {
            depth: limits.depth,
            nodes: limits.nodes,
            noise: limits.noise,
            seed: limits.seed,
        };
        self.0
            .search(&mut node, stack, excluded, &limits, stop, on_iteration)
    }
}
