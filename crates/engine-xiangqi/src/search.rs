//! The xiangqi position for qiyuan-engine-core's search ([`SearchPosition`]):
//! qiyuan-xiangqi's board made and unmade in place ([`Pos`]), and the xiangqi
//! margins of the pruning ([`PARAMS`]).
//!
//! Xiangqi's endings in the tree: a side without a legal move has lost (checkmate
//! and 困毙 alike); a repeated position is a draw unless one side gave check with
//! every move of the cycle, and then that side has lost (the perpetual-check
//! rule; chases are not judged in the search); the natural move limit draws.
//!
//! Pure: the caller passes the limits and a stop flag it sets at its deadline;
//! the flag is read every [`CHECK_EVERY`] nodes.

use std::sync::atomic::AtomicBool;

use qiyuan_xiangqi::{Color, Move, MoveList, Position};

use crate::eval::{ORDER_VALUE, role_index};
use crate::pos::Pos;
use qiyuan_engine_core::{MATE, PERPETUAL, Params, SearchLimits, SearchPosition};

pub use qiyuan_engine_core::{CHECK_EVERY, MAX_PLY, Score};

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
pub type Info = qiyuan_engine_core::Info<Move>;
/// The outcome of a search.
pub type SearchResult = qiyuan_engine_core::SearchResult<Move>;

/// The xiangqi margins of the search (points: a soldier is 30).
pub const PARAMS: Params = Params {
    iir: false,
    rfp_depth: 4,
    rfp_margin: 110,
    rfp_improving: false,
    razor_margin: None,
    null_margin_reduction: false,
    futility_depth: 2,
    futility_base: 0,
    futility_margin: 120,
    lmp_depth: 3,
    lmp_base: 4,
    lmp_factor: 4,
    lmp_improving: false,
    see_pruning: false,
    countermoves: false,
    lmr_improving: false,
    lmr_history_divisor: 0,
    aspiration_bound: PERPETUAL - 100,
};

/// The position the search walks, with the game's natural move limit.
pub(crate) struct Node {
    pos: Pos,
    move_limit_plies: u32,
}

/// A compact move key for the transposition table.
pub(crate) fn move_key(m: Move) -> u16 {
    m.from().index() as u16 | ((m.to().index() as u16) << 7)
}

impl SearchPosition for Node {
    type Move = Move;
    const HISTORY_SLOTS: usize = 7 * 90;
    const PARAMS: Params = PARAMS;
    const PERPETUAL_CHECK_LOSES: bool = true;

    #[inline]
    fn hash(&self) -> u64 {
        self.pos.hash
    }

    #[inline]
    fn side(&self) -> usize {
        usize::from(self.pos.turn() == Color::Black)
    }

    #[inline]
    fn in_check(&self) -> bool {
        self.pos.in_check()
    }

    #[inline]
    fn halfmoves(&self) -> u32 {
        self.pos.halfmoves
    }

    fn rule_draw(&self) -> bool {
        (self.move_limit_plies > 0 && self.pos.halfmoves >= self.move_limit_plies)
            || self.pos.insufficient()
    }

    #[inline]
    fn evaluate(&self) -> i32 {
        self.pos.evaluate()
    }

    fn no_moves(&self, _in_check: bool) -> i32 {
        -MATE
    }

    fn legal_moves(&mut self, out: &mut Vec<(Move, i32)>) {
        let mut list = MoveList::new();
        self.pos.legal_moves(&mut list);
        out.extend(list.iter().map(|&m| (m, 0)));
    }

    fn noisy_moves(&mut self, out: &mut Vec<(Move, i32)>) -> bool {
        let mut list = MoveList::new();
        self.pos.legal_moves(&mut list);
        let pos = &self.pos;
        out.extend(
            list.iter()
                .filter(|&&m| pos.captured(m).is_some())
                .map(|&m| (m, 0)),
        );
        !list.is_empty()
    }

    #[inline]
    fn with_move<R>(&mut self, m: Move, f: impl FnOnce(&mut Self) -> R) -> R {
        let u = self.pos.make(m);
        let r = f(self);
        self.pos.unmake(m, u);
        r
    }

    fn with_null<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> Option<R> {
        if !self.pos.has_big_pieces() {
            return None;
        }
        self.pos.make_null();
        let r = f(self);
        self.pos.make_null();
        Some(r)
    }

    #[inline]
    fn is_quiet(&self, m: Move) -> bool {
        self.pos.captured(m).is_none()
    }

    #[inline]
    fn capture_order(&self, m: Move) -> i32 {
        match self.pos.captured(m) {
            Some(v) => {
                ORDER_VALUE[role_index(v.role)] * 16
                    - ORDER_VALUE[role_index(self.pos.role_of(m))] / 16
            }
            None => 0,
        }
    }

    #[inline]
    fn capture_gain(&self, m: Move) -> Option<i32> {
        Some(
            self.pos
                .captured(m)
                .map_or(0, |p| ORDER_VALUE[role_index(p.role)]),
        )
    }

    #[inline]
    fn history_slot(&self, m: Move) -> usize {
        role_index(self.pos.role_of(m)) * 90 + m.to().index() as usize
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
        let mut pos = Pos::new(start);
        let mut stack = Vec::with_capacity(moves.len() + MAX_PLY + 2);
        for &m in moves {
            stack.push((pos.hash, pos.in_check()));
            pos.make(m);
            if pos.halfmoves == 0 {
                stack.clear();
            }
        }
        let mut node = Node {
            pos,
            move_limit_plies: 2 * limits.move_limit,
        };
        let core = SearchLimits {
            depth: limits.depth,
            nodes: limits.nodes,
            noise: limits.noise,
            seed: limits.seed,
        };
        self.0
            .search(&mut node, stack, &limits.banned, &core, stop, on_iteration)
    }
}
