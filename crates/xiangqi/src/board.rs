//! The board: a 16x16 mailbox (10x9 playing area with a border wide enough that
//! every horse and elephant jump from a real square lands inside the array), piece
//! lists for both sides, and legal move generation.
//!
//! Why a mailbox and not a 90-bit bitboard in a `u128`: chosen by measurement.
//! `benches/bitboard.rs` holds a `u128` generator (rays resolved with
//! `trailing_zeros`/`leading_zeros`, per-point tables for the short-range pieces,
//! the same legality shortcut) beside this one: perft(5) from the start took
//! 4.9 s there against 2.1 s here (same loaded 2-core machine). Sliding pieces
//! scan at most 9 points on this board, and the legality test below skips the
//! king-safety test for most moves, which is where a xiangqi generator spends its
//! time.

use crate::types::{Color, Move, Piece, Role, Square};

/// Cell contents: `0` empty, `RED|role` or `BLACK|role`, `OFF` outside the board.
pub(crate) const EMPTY: u8 = 0;
pub(crate) const RED: u8 = 0x10;
pub(crate) const BLACK: u8 = 0x20;
pub(crate) const OFF: u8 = 0x40;
const ROLE_MASK: u8 = 0x07;

pub(crate) const KING: u8 = 1;
pub(crate) const ADVISOR: u8 = 2;
pub(crate) const ELEPHANT: u8 = 3;
pub(crate) const HORSE: u8 = 4;
pub(crate) const ROOK: u8 = 5;
pub(crate) const CANNON: u8 = 6;
pub(crate) const PAWN: u8 = 7;

const ORTHO: [i16; 4] = [1, -1, 16, -16];
const DIAG: [i16; 4] = [17, 15, -15, -17];

/// The mailbox index of rank `r` (0 = Red's back rank), file `f` (0 = file a).
#[inline]
pub(crate) const fn idx(rank: u8, file: u8) -> u8 {
    (rank + 3) * 16 + file + 3
}

#[inline]
pub(crate) const fn rank_of(i: u8) -> u8 {
    (i >> 4) - 3
}

#[inline]
pub(crate) const fn file_of(i: u8) -> u8 {
    (i & 15) - 3
}

#[inline]
pub(crate) fn to_square(i: u8) -> Square {
    Square::new(file_of(i), rank_of(i))
}

#[inline]
pub(crate) fn from_square(s: Square) -> u8 {
    idx(s.rank(), s.file())
}

#[inline]
const fn color_bit(c: Color) -> u8 {
    match c {
        Color::Red => RED,
        Color::Black => BLACK,
    }
}

pub(crate) const fn encode(p: Piece) -> u8 {
    let c = color_bit(p.color);
    let r = match p.role {
        Role::King => KING,
        Role::Advisor => ADVISOR,
        Role::Elephant => ELEPHANT,
        Role::Horse => HORSE,
        Role::Rook => ROOK,
        Role::Cannon => CANNON,
        Role::Pawn => PAWN,
    };
    c | r
}

pub(crate) fn decode(cell: u8) -> Option<Piece> {
    let color = match cell & (RED | BLACK | OFF) {
        RED => Color::Red,
        BLACK => Color::Black,
        _ => return None,
    };
    let role = match cell & ROLE_MASK {
        KING => Role::King,
        ADVISOR => Role::Advisor,
        ELEPHANT => Role::Elephant,
        HORSE => Role::Horse,
        ROOK => Role::Rook,
        CANNON => Role::Cannon,
        PAWN => Role::Pawn,
        _ => return None,
    };
    Some(Piece { color, role })
}

/// Per-square flags: palace of each colour, half of each colour.
const PALACE_RED: u8 = 1;
const PALACE_BLACK: u8 = 2;
const HALF_RED: u8 = 4;
const HALF_BLACK: u8 = 8;

const fn make_flags() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut r = 0;
    while r < 10 {
        let mut f = 0;
        while f < 9 {
            let i = idx(r, f) as usize;
            let mut v = if r < 5 { HALF_RED } else { HALF_BLACK };
            if f >= 3 && f <= 5 {
                if r <= 2 {
                    v |= PALACE_RED;
                }
                if r >= 7 {
                    v |= PALACE_BLACK;
                }
            }
            t[i] = v;
            f += 1;
        }
        r += 1;
    }
    t
}

pub(crate) static FLAGS: [u8; 256] = make_flags();

#[inline]
const fn palace_flag(c: Color) -> u8 {
    match c {
        Color::Red => PALACE_RED,
        Color::Black => PALACE_BLACK,
    }
}

#[inline]
const fn half_flag(c: Color) -> u8 {
    match c {
        Color::Red => HALF_RED,
        Color::Black => HALF_BLACK,
    }
}

#[inline]
const fn forward(c: Color) -> i16 {
    match c {
        Color::Red => 16,
        Color::Black => -16,
    }
}

#[inline]
fn add(i: u8, d: i16) -> u8 {
    (i as i16 + d) as u8
}

/// A fixed-capacity list of moves; no allocation in the hot path.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; 192],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveList {
    pub fn new() -> Self {
        MoveList {
            moves: [Move::NULL; 192],
            len: 0,
        }
    }
    #[inline]
    fn push(&mut self, from: u8, to: u8) {
        // SAFETY-free bound: at most 5 pawns*3 + 2*17 rooks + 2*17 cannons + ... < 192.
        if self.len < self.moves.len() {
            self.moves[self.len] = Move::from_raw(from, to);
            self.len += 1;
        }
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

/// What [`Board::make_move`] returns for [`Board::unmake_move`]: the captured cell.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    captured: u8,
}

impl Undo {
    /// The piece the move captured.
    pub fn captured(&self) -> Option<Piece> {
        decode(self.captured)
    }
}

/// Pieces on the board and the side to move; no history.
#[derive(Clone)]
pub struct Board {
    pub(crate) cells: [u8; 256],
    pub(crate) side: Color,
    /// Mailbox index of each king (`0` if absent, only during set-up validation).
    pub(crate) kings: [u8; 2],
    /// Piece lists: the squares of each side's pieces; `slot` maps a square to its
    /// position in its list.
    list: [[u8; 16]; 2],
    count: [u8; 2],
    slot: [u8; 256],
}

impl PartialEq for Board {
    fn eq(&self, other: &Self) -> bool {
        self.cells == other.cells && self.side == other.side
    }
}
impl Eq for Board {}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Board({})", crate::position::board_fen(self))
    }
}

impl Board {
    /// An empty board, Red to move.
    pub fn empty() -> Board {
        let mut cells = [OFF; 256];
        for r in 0..10 {
            for f in 0..9 {
                cells[idx(r, f) as usize] = EMPTY;
            }
        }
        Board {
            cells,
            side: Color::Red,
            kings: [0; 2],
            list: [[0; 16]; 2],
            count: [0; 2],
            slot: [0; 256],
        }
    }

    pub fn side_to_move(&self) -> Color {
        self.side
    }

    pub(crate) fn set_side(&mut self, c: Color) {
        self.side = c;
    }

    /// The piece on `sq`.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        decode(self.cells[from_square(sq) as usize])
    }

    /// Every piece with its square, Red's first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        (0..90u8).filter_map(move |i| {
            let sq = Square::from_index(i)?;
            self.piece_at(sq).map(|p| (sq, p))
        })
    }

    /// Puts a piece on an empty square (set-up only). Returns false when the side
    /// already has 16 pieces or the square is taken.
    pub(crate) fn put(&mut self, sq: Square, p: Piece) -> bool {
        let i = from_square(sq);
        let c = p.color as usize;
        if self.cells[i as usize] != EMPTY || self.count[c] as usize >= 16 {
            return false;
        }
        self.cells[i as usize] = encode(p);
        self.slot[i as usize] = self.count[c];
        self.list[c][self.count[c] as usize] = i;
        self.count[c] += 1;
        if p.role == Role::King {
            self.kings[c] = i;
        }
        true
    }

    #[inline]
    fn list_remove(&mut self, c: usize, sq: u8) {
        let s = self.slot[sq as usize] as usize;
        let last = self.count[c] as usize - 1;
        let moved = self.list[c][last];
        self.list[c][s] = moved;
        self.slot[moved as usize] = s as u8;
        self.count[c] -= 1;
    }

    #[inline]
    fn list_add(&mut self, c: usize, sq: u8) {
        let n = self.count[c] as usize;
        self.list[c][n] = sq;
        self.slot[sq as usize] = n as u8;
        self.count[c] += 1;
    }

    /// Plays a move known to be pseudo-legal. Returns what `unmake` needs.
    #[inline]
    pub(crate) fn make(&mut self, m: Move) -> Undo {
        let (from, to) = (m.origin(), m.to_raw());
        let piece = self.cells[from as usize];
        let captured = self.cells[to as usize];
        let us = self.side as usize;
        if captured != EMPTY {
            self.list_remove(us ^ 1, to);
        }
        let s = self.slot[from as usize];
        self.list[us][s as usize] = to;
        self.slot[to as usize] = s;
        self.cells[to as usize] = piece;
        self.cells[from as usize] = EMPTY;
        if piece & ROLE_MASK == KING {
            self.kings[us] = to;
        }
        self.side = self.side.other();
        Undo { captured }
    }

    #[inline]
    pub(crate) fn unmake(&mut self, m: Move, u: Undo) {
        let (from, to) = (m.origin(), m.to_raw());
        self.side = self.side.other();
        let us = self.side as usize;
        let piece = self.cells[to as usize];
        let s = self.slot[to as usize];
        self.list[us][s as usize] = from;
        self.slot[from as usize] = s;
        self.cells[from as usize] = piece;
        self.cells[to as usize] = u.captured;
        if piece & ROLE_MASK == KING {
            self.kings[us] = from;
        }
        if u.captured != EMPTY {
            self.list_add(us ^ 1, to);
        }
    }

    /// Plays a legal move (one of [`Board::legal_moves_into`]'s) in place, for
    /// searches: make and unmake without copying the board.
    #[inline]
    pub fn make_move(&mut self, m: Move) -> Undo {
        self.make(m)
    }

    /// Takes back [`Board::make_move`].
    #[inline]
    pub fn unmake_move(&mut self, m: Move, u: Undo) {
        self.unmake(m, u)
    }

    /// Passes the move to the other side (a search's null move). Playing it
    /// twice restores the board.
    #[inline]
    pub fn make_null(&mut self) {
        self.side = self.side.other();
    }

    /// Is the side to move in check?
    #[inline]
    pub fn is_check(&self) -> bool {
        self.in_check()
    }

    /// Is the general of `c` attacked (flying general included)?
    #[inline]
    pub(crate) fn king_attacked(&self, c: Color) -> bool {
        let k = self.kings[c as usize];
        self.square_attacked_for_king(k, c)
    }

    /// Would a general of colour `c` standing on `k` be attacked? Counts the
    /// opposing general on an open file as an attacker.
    #[inline]
    fn square_attacked_for_king(&self, k: u8, c: Color) -> bool {
        let them = color_bit(c.other());
        let cells = &self.cells;
        // Lines: rook, facing general, cannon over one screen.
        for (n, &d) in ORTHO.iter().enumerate() {
            let mut s = add(k, d);
            while cells[s as usize] == EMPTY {
                s = add(s, d);
            }
            let p = cells[s as usize];
            if p == OFF {
                continue;
            }
            if p == them | ROOK || (n >= 2 && p == them | KING) {
                return true;
            }
            s = add(s, d);
            while cells[s as usize] == EMPTY {
                s = add(s, d);
            }
            if cells[s as usize] == them | CANNON {
                return true;
            }
        }
        // Horses: the leg of a horse attacking the general is diagonally next to it.
        let horse = them | HORSE;
        if cells[add(k, 17) as usize] == EMPTY
            && (cells[add(k, 33) as usize] == horse || cells[add(k, 18) as usize] == horse)
        {
            return true;
        }
        if cells[add(k, 15) as usize] == EMPTY
            && (cells[add(k, 31) as usize] == horse || cells[add(k, 14) as usize] == horse)
        {
            return true;
        }
        if cells[add(k, -15) as usize] == EMPTY
            && (cells[add(k, -31) as usize] == horse || cells[add(k, -14) as usize] == horse)
        {
            return true;
        }
        if cells[add(k, -17) as usize] == EMPTY
            && (cells[add(k, -33) as usize] == horse || cells[add(k, -18) as usize] == horse)
        {
            return true;
        }
        // Soldiers: from in front, or from the side once across the river (a soldier
        // beside a general in its palace has always crossed).
        let pawn = them | PAWN;
        cells[add(k, forward(c)) as usize] == pawn
            || cells[add(k, 1) as usize] == pawn
            || cells[add(k, -1) as usize] == pawn
    }

    /// Every pseudo-legal move of the side to move (may leave the general attacked).
    #[inline]
    pub(crate) fn pseudo_moves(&self, out: &mut MoveList) {
        let us = self.side;
        let n = self.count[us as usize] as usize;
        for k in 0..n {
            let from = self.list[us as usize][k];
            self.pseudo_moves_from(from, out);
        }
    }

    /// Pseudo-legal moves of the piece on `from` (which belongs to the side to move).
    #[inline]
    pub(crate) fn pseudo_moves_from(&self, from: u8, out: &mut MoveList) {
        let us = self.side;
        let own = color_bit(us) | OFF;
        let cells = &self.cells;
        let piece = cells[from as usize];
        match piece & ROLE_MASK {
            KING => {
                let pal = palace_flag(us);
                for d in ORTHO {
                    let t = add(from, d);
                    if cells[t as usize] & own == 0 && FLAGS[t as usize] & pal != 0 {
                        out.push(from, t);
                    }
                }
            }
            ADVISOR => {
                let pal = palace_flag(us);
                for d in DIAG {
                    let t = add(from, d);
                    if cells[t as usize] & own == 0 && FLAGS[t as usize] & pal != 0 {
                        out.push(from, t);
                    }
                }
            }
            ELEPHANT => {
                let half = half_flag(us);
                for d in DIAG {
                    let eye = add(from, d);
                    if cells[eye as usize] != EMPTY {
                        continue;
                    }
                    let t = add(eye, d);
                    if cells[t as usize] & own == 0 && FLAGS[t as usize] & half != 0 {
                        out.push(from, t);
                    }
                }
            }
            HORSE => {
                // Each leg (orthogonal step) leads to the two jumps beyond it.
                for (leg_d, a, b) in [
                    (16i16, 31i16, 33i16),
                    (-16, -31, -33),
                    (1, -14, 18),
                    (-1, 14, -18),
                ] {
                    if cells[add(from, leg_d) as usize] != EMPTY {
                        continue;
                    }
                    let t = add(from, a);
                    if cells[t as usize] & own == 0 {
                        out.push(from, t);
                    }
                    let t = add(from, b);
                    if cells[t as usize] & own == 0 {
                        out.push(from, t);
                    }
                }
            }
            ROOK => {
                let them = color_bit(us.other());
                for d in ORTHO {
                    let mut t = add(from, d);
                    while cells[t as usize] == EMPTY {
                        out.push(from, t);
                        t = add(t, d);
                    }
                    if cells[t as usize] & them != 0 && cells[t as usize] != OFF {
                        out.push(from, t);
                    }
                }
            }
            CANNON => {
                let them = color_bit(us.other());
                for d in ORTHO {
                    let mut t = add(from, d);
                    while cells[t as usize] == EMPTY {
                        out.push(from, t);
                        t = add(t, d);
                    }
                    if cells[t as usize] == OFF {
                        continue;
                    }
                    t = add(t, d);
                    while cells[t as usize] == EMPTY {
                        t = add(t, d);
                    }
                    if cells[t as usize] & them != 0 && cells[t as usize] != OFF {
                        out.push(from, t);
                    }
                }
            }
            PAWN => {
                let t = add(from, forward(us));
                if cells[t as usize] & own == 0 {
                    out.push(from, t);
                }
                if FLAGS[from as usize] & half_flag(us) == 0 {
                    for d in [1i16, -1] {
                        let t = add(from, d);
                        if cells[t as usize] & own == 0 {
                            out.push(from, t);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// Does the pseudo-legal move `m` leave the mover's general safe?
    #[inline]
    pub(crate) fn is_legal(&mut self, m: Move) -> bool {
        // Only the cells matter to the attack test: move the piece there and back
        // without touching the piece lists.
        let (from, to) = (m.origin() as usize, m.to_raw() as usize);
        let us = self.side;
        let piece = self.cells[from];
        let captured = self.cells[to];
        self.cells[to] = piece;
        self.cells[from] = EMPTY;
        let k = if piece & ROLE_MASK == KING {
            to as u8
        } else {
            self.kings[us as usize]
        };
        let ok = !self.square_attacked_for_king(k, us);
        self.cells[from] = piece;
        self.cells[to] = captured;
        ok
    }

    /// Every legal move of the side to move.
    #[inline]
    pub fn legal_moves_into(&mut self, out: &mut MoveList) {
        out.len = 0;
        self.filter_legal(|from, to| out.push(from, to));
    }

    /// Number of legal moves (the last ply of a perft), without listing them.
    #[inline]
    pub fn count_legal(&mut self) -> u64 {
        let mut n = 0;
        self.filter_legal(|_, _| n += 1);
        n
    }

    /// Generates the pseudo-legal moves and hands the legal ones to `keep`.
    #[inline(always)]
    fn filter_legal(&mut self, mut keep: impl FnMut(u8, u8)) {
        let mut pseudo = MoveList::new();
        self.pseudo_moves(&mut pseudo);
        let us = self.side;
        let k = self.kings[us as usize];
        if self.king_attacked(us) {
            for &m in pseudo.as_slice() {
                if self.is_legal(m) {
                    keep(m.origin(), m.to_raw());
                }
            }
            return;
        }
        // Not in check: only moves touching the general's lines (rank, file, or a
        // horse-leg square next to it) can expose it; a piece landing on the
        // general's rank or file can become a cannon's screen.
        let (kr, kf) = (k >> 4, k & 15);
        for &m in pseudo.as_slice() {
            let (from, to) = (m.origin(), m.to_raw());
            let risky = from == k
                || from >> 4 == kr
                || from & 15 == kf
                || to >> 4 == kr
                || to & 15 == kf
                || matches!((from as i16 - k as i16).abs(), 15 | 17);
            if !risky || self.is_legal(m) {
                keep(from, to);
            }
        }
    }

    pub(crate) fn in_check(&self) -> bool {
        self.king_attacked(self.side)
    }

    /// Are the two generals on one file with nothing between them?
    pub(crate) fn generals_face(&self) -> bool {
        let (r, b) = (self.kings[0], self.kings[1]);
        if r == 0 || b == 0 || r & 15 != b & 15 {
            return false;
        }
        let mut s = add(r, 16);
        while s != b {
            if self.cells[s as usize] != EMPTY {
                return false;
            }
            s = add(s, 16);
        }
        true
    }

    pub(crate) fn cell(&self, i: u8) -> u8 {
        self.cells[i as usize]
    }

    /// Squares of the pieces of `c`.
    pub(crate) fn squares_of(&self, c: Color) -> &[u8] {
        &self.list[c as usize][..self.count[c as usize] as usize]
    }
}

/// Count of leaf nodes `depth` plies below, counting the last ply in bulk.
pub fn perft_board(b: &mut Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return b.count_legal();
    }
    let mut list = MoveList::new();
    b.legal_moves_into(&mut list);
    let mut n = 0;
    for &m in list.as_slice() {
        let u = b.make(m);
        n += if depth == 2 {
            b.count_legal()
        } else {
            perft_board(b, depth - 1)
        };
        b.unmake(m, u);
    }
    n
}

pub(crate) fn role_bits(cell: u8) -> u8 {
    cell & ROLE_MASK
}

/// Has a soldier of colour `c` on `i` crossed the river?
pub(crate) fn crossed(i: u8, c: Color) -> bool {
    FLAGS[i as usize] & half_flag(c) == 0
}
