//! The board: stones, chains with pseudo-liberty counts kept up to date move by
//! move, captures, simple ko and a Zobrist hash of the stones.
//!
//! A chain is a circular linked list of its stones (`next`), each stone knowing its
//! chain's head (`head`); the head holds the chain's size and its pseudo-liberties:
//! the number of (stone, empty neighbour) pairs. A chain is captured exactly when
//! that count is zero, and counting pairs instead of points needs no set per chain,
//! which keeps a move to a handful of array writes.

use crate::point::{Color, MAX_SIZE, MIN_SIZE, Move, Point};

const STRIDE_MAX: usize = MAX_SIZE as usize + 2;
/// Cells of the largest padded board (a border ring around 25x25).
const CELLS: usize = STRIDE_MAX * STRIDE_MAX;

const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;
const BORDER: u8 = 3;

const fn cell_of(color: Color) -> u8 {
    match color {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

/// Random keys for each (colour, cell), fixed at compile time so that hashes are
/// the same in every process (records and logs can be compared).
static ZOBRIST: [[u64; CELLS]; 2] = {
    let mut keys = [[0u64; CELLS]; 2];
    let mut state: u64 = 0x5179_7941_6e20_476f;
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < CELLS {
            // splitmix64
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            keys[c][i] = z ^ (z >> 31);
            i += 1;
        }
        c += 1;
    }
    keys
};

/// Why a stone may not be placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("{0} is not on the board")]
    OffBoard(Point),
    #[error("{0} is occupied")]
    Occupied(Point),
    #[error("{0} would retake the ko at once")]
    Ko(Point),
    #[error("{0} would be suicide")]
    Suicide(Point),
    #[error("{0} would repeat an earlier position (superko)")]
    Superko(Point),
}

/// A board size outside 2..=25.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a Go board is {MIN_SIZE} to {MAX_SIZE} points wide, not {0}")]
pub struct SizeError(pub u32);

/// A Go board with its stones, chains, ko point, captures and hash.
///
/// The board knows nothing of turns or history: it plays the colour it is told to.
/// Superko and the end of the game live in [`crate::Go`].
#[derive(Clone)]
pub struct Board {
    size: u8,
    stride: usize,
    cells: [u8; CELLS],
    head: [u16; CELLS],
    next: [u16; CELLS],
    /// Pseudo-liberties, valid at a chain's head.
    libs: [u16; CELLS],
    /// Stones in the chain, valid at a chain's head.
    stones: [u16; CELLS],
    /// The empty points, in the first `n_empty` entries (for random playouts).
    empties: [u16; CELLS],
    empty_pos: [u16; CELLS],
    n_empty: usize,
    hash: u64,
    /// The point the side to move may not play because it would retake a ko; 0 for
    /// none (cell 0 is always border).
    ko: usize,
    /// Stones captured by black and by white.
    captures: [u32; 2],
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "Board {}x{}", self.size, self.size)?;
        for row in self.rows() {
            writeln!(f, "{row}")?;
        }
        Ok(())
    }
}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.size == other.size
            && self.cells == other.cells
            && self.ko == other.ko
            && self.captures == other.captures
    }
}

impl Eq for Board {}

impl Board {
    /// An empty board of side `size` (2 to 25).
    pub fn new(size: u8) -> Result<Board, SizeError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(SizeError(size.into()));
        }
        let stride = size as usize + 2;
        let mut board = Board {
            size,
            stride,
            cells: [BORDER; CELLS],
            head: [0; CELLS],
            next: [0; CELLS],
            libs: [0; CELLS],
            stones: [0; CELLS],
            empties: [0; CELLS],
            empty_pos: [0; CELLS],
            n_empty: 0,
            hash: 0,
            ko: 0,
            captures: [0; 2],
        };
        for row in 0..size {
            for col in 0..size {
                let i = board.idx(Point::new(col, row));
                board.cells[i] = EMPTY;
                board.add_empty(i);
            }
        }
        Ok(board)
    }

    /// The side of the board.
    pub fn size(&self) -> u8 {
        self.size
    }

    /// The Zobrist hash of the stones alone (not the side to move nor the ko point):
    /// positional superko compares these.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Stones captured so far by `color`.
    pub fn captures(&self, color: Color) -> u32 {
        self.captures[color.index()]
    }

    /// The point the side to move may not play because it would retake a ko.
    pub fn ko_point(&self) -> Option<Point> {
        (self.ko != 0).then(|| self.point(self.ko))
    }

    /// The stone on `p`, if any (none off the board).
    pub fn get(&self, p: Point) -> Option<Color> {
        if !p.on_board(self.size) {
            return None;
        }
        match self.cells[self.idx(p)] {
            BLACK => Some(Color::Black),
            WHITE => Some(Color::White),
            _ => None,
        }
    }

    /// Every point of the board, row by row from the bottom.
    pub fn points(&self) -> impl Iterator<Item = Point> + use<> {
        let size = self.size;
        (0..size).flat_map(move |row| (0..size).map(move |col| Point::new(col, row)))
    }

    /// How many stones of `color` stand on the board.
    pub fn stone_count(&self, color: Color) -> usize {
        let c = cell_of(color);
        self.cells.iter().filter(|&&x| x == c).count()
    }

    /// The board as text rows from the top, `X` black, `O` white, `.` empty.
    pub fn rows(&self) -> Vec<String> {
        (0..self.size)
            .rev()
            .map(|row| {
                (0..self.size)
                    .map(|col| match self.get(Point::new(col, row)) {
                        Some(Color::Black) => 'X',
                        Some(Color::White) => 'O',
                        None => '.',
                    })
                    .collect()
            })
            .collect()
    }

    #[inline]
    pub(crate) fn idx(&self, p: Point) -> usize {
        (p.row as usize + 1) * self.stride + p.col as usize + 1
    }

    #[inline]
    pub(crate) fn point(&self, i: usize) -> Point {
        Point::new((i % self.stride) as u8 - 1, (i / self.stride) as u8 - 1)
    }

    #[inline]
    fn neighbours(&self, i: usize) -> [usize; 4] {
        [i - self.stride, i - 1, i + 1, i + self.stride]
    }

    fn add_empty(&mut self, i: usize) {
        self.empty_pos[i] = self.n_empty as u16;
        self.empties[self.n_empty] = i as u16;
        self.n_empty += 1;
    }

    fn remove_empty(&mut self, i: usize) {
        let pos = self.empty_pos[i] as usize;
        self.n_empty -= 1;
        let last = self.empties[self.n_empty];
        self.empties[pos] = last;
        self.empty_pos[last as usize] = pos as u16;
    }

    /// Whether `color` may place a stone on `p` under the simple ko rule: the point
    /// is empty, is not the ko point, and the stone is not suicide.
    pub fn check(&self, color: Color, p: Point) -> Result<(), IllegalMove> {
        if !p.on_board(self.size) {
            return Err(IllegalMove::OffBoard(p));
        }
        let i = self.idx(p);
        if self.cells[i] != EMPTY {
            return Err(IllegalMove::Occupied(p));
        }
        if i == self.ko {
            return Err(IllegalMove::Ko(p));
        }
        if !self.has_liberty_after(cell_of(color), i) {
            return Err(IllegalMove::Suicide(p));
        }
        Ok(())
    }

    /// Whether a stone of cell colour `me` on the empty cell `i` would have a
    /// liberty, counting the ones its captures make.
    #[inline]
    fn has_liberty_after(&self, me: u8, i: usize) -> bool {
        let nb = self.neighbours(i);
        for n in nb {
            let c = self.cells[n];
            if c == EMPTY {
                return true;
            }
            if c == BORDER {
                continue;
            }
            let h = self.head[n];
            // The pseudo-liberties this point gives the chain: one per adjacency.
            let k = nb
                .iter()
                .filter(|&&m| self.cells[m] == c && self.head[m] == h)
                .count() as u16;
            let libs = self.libs[h as usize];
            if c == me {
                if libs > k {
                    return true;
                }
            } else if libs == k {
                return true;
            }
        }
        false
    }

    /// Places a stone of `color` on `p`, removing the chains it captures. Returns the
    /// number of stones captured. A refused move changes nothing.
    pub fn play(&mut self, color: Color, p: Point) -> Result<u32, IllegalMove> {
        self.check(color, p)?;
        let i = self.idx(p);
        Ok(self.place(color, i))
    }

    /// Plays a move; a pass only clears the ko point.
    pub fn play_move(&mut self, color: Color, mv: Move) -> Result<u32, IllegalMove> {
        match mv {
            Move::Place(p) => self.play(color, p),
            Move::Pass => {
                self.pass();
                Ok(0)
            }
        }
    }

    /// A pass: the ko point is lifted.
    pub fn pass(&mut self) {
        self.ko = 0;
    }

    /// The hash the board would have after `color` plays the legal move `p`, without
    /// playing it (for superko checks).
    pub fn hash_after(&self, color: Color, p: Point) -> u64 {
        if !p.on_board(self.size) {
            return self.hash;
        }
        let i = self.idx(p);
        let them = cell_of(color.opponent());
        let mut hash = self.hash ^ ZOBRIST[color.index()][i];
        let nb = self.neighbours(i);
        for (j, &n) in nb.iter().enumerate() {
            if self.cells[n] != them {
                continue;
            }
            let h = self.head[n];
            if nb[..j]
                .iter()
                .any(|&m| self.cells[m] == them && self.head[m] == h)
            {
                continue; // that chain was seen through an earlier neighbour
            }
            let k = nb
                .iter()
                .filter(|&&m| self.cells[m] == them && self.head[m] == h)
                .count() as u16;
            if self.libs[h as usize] == k {
                let mut s = h as usize;
                loop {
                    hash ^= ZOBRIST[color.opponent().index()][s];
                    s = self.next[s] as usize;
                    if s == h as usize {
                        break;
                    }
                }
            }
        }
        hash
    }

    /// Places a stone on a legal empty cell and resolves captures and ko.
    fn place(&mut self, color: Color, i: usize) -> u32 {
        self.put_stone(color, i);
        let them = cell_of(color.opponent());
        let mut captured = 0;
        let mut last = 0;
        for n in self.neighbours(i) {
            if self.cells[n] == them && self.libs[self.head[n] as usize] == 0 {
                captured += self.remove_chain(self.head[n] as usize, color.opponent());
                last = n;
            }
        }
        self.captures[color.index()] += captured;
        let h = self.head[i] as usize;
        self.ko = if captured == 1 && self.stones[h] == 1 && self.libs[h] == 1 {
            last
        } else {
            0
        };
        captured
    }

    /// Puts a stone on an empty cell, merging chains, without captures.
    fn put_stone(&mut self, color: Color, i: usize) {
        let me = cell_of(color);
        self.cells[i] = me;
        self.head[i] = i as u16;
        self.next[i] = i as u16;
        self.stones[i] = 1;
        self.libs[i] = 0;
        self.hash ^= ZOBRIST[color.index()][i];
        self.remove_empty(i);
        let nb = self.neighbours(i);
        for n in nb {
            match self.cells[n] {
                EMPTY => self.libs[i] += 1,
                BORDER => {}
                _ => {
                    let h = self.head[n] as usize;
                    self.libs[h] -= 1;
                }
            }
        }
        for n in nb {
            if self.cells[n] == me && self.head[n] != self.head[i] {
                self.merge(self.head[i] as usize, self.head[n] as usize);
            }
        }
    }

    fn merge(&mut self, a: usize, b: usize) {
        let (big, small) = if self.stones[a] >= self.stones[b] {
            (a, b)
        } else {
            (b, a)
        };
        let mut s = small;
        loop {
            self.head[s] = big as u16;
            s = self.next[s] as usize;
            if s == small {
                break;
            }
        }
        self.libs[big] += self.libs[small];
        self.stones[big] += self.stones[small];
        self.next.swap(big, small);
    }

    /// Removes the chain with head `h`, giving its neighbours their liberties back.
    fn remove_chain(&mut self, h: usize, color: Color) -> u32 {
        let mut count = 0;
        let mut s = h;
        loop {
            self.cells[s] = EMPTY;
            self.hash ^= ZOBRIST[color.index()][s];
            self.add_empty(s);
            count += 1;
            s = self.next[s] as usize;
            if s == h {
                break;
            }
        }
        loop {
            for n in self.neighbours(s) {
                if self.cells[n] == BLACK || self.cells[n] == WHITE {
                    let hn = self.head[n] as usize;
                    self.libs[hn] += 1;
                }
            }
            s = self.next[s] as usize;
            if s == h {
                break;
            }
        }
        count
    }

    /// Puts setup stones (handicap, SGF `AB`/`AW`) on the board. Refuses an occupied
    /// point and a setup that leaves a chain without liberties.
    pub fn setup(&mut self, color: Color, p: Point) -> Result<(), IllegalMove> {
        if !p.on_board(self.size) {
            return Err(IllegalMove::OffBoard(p));
        }
        let i = self.idx(p);
        if self.cells[i] != EMPTY {
            return Err(IllegalMove::Occupied(p));
        }
        let mut trial = self.clone();
        trial.put_stone(color, i);
        let starved = std::iter::once(i).chain(trial.neighbours(i)).any(|n| {
            matches!(trial.cells[n], BLACK | WHITE) && trial.libs[trial.head[n] as usize] == 0
        });
        if starved {
            return Err(IllegalMove::Suicide(p));
        }
        trial.ko = 0;
        *self = trial;
        Ok(())
    }

    /// The board with the stones on `lifted` taken off (no captures, no checks):
    /// the position as it is counted once dead stones are removed. Lifting stones
    /// only adds liberties, so every chain left still has one.
    pub fn without(&self, lifted: &[Point]) -> Board {
        let mut out = Board::new(self.size).unwrap_or_else(|_| self.clone());
        for p in self.points() {
            if let Some(c) = self.get(p).filter(|_| !lifted.contains(&p)) {
                let i = out.idx(p);
                out.put_stone(c, i);
            }
        }
        out
    }

    /// The stones of the chain through `p` (empty if `p` holds no stone).
    pub fn chain(&self, p: Point) -> Vec<Point> {
        if self.get(p).is_none() {
            return Vec::new();
        }
        let h = self.head[self.idx(p)] as usize;
        let mut out = Vec::with_capacity(self.stones[h] as usize);
        let mut s = h;
        loop {
            out.push(self.point(s));
            s = self.next[s] as usize;
            if s == h {
                break;
            }
        }
        out
    }

    /// The distinct liberties of the chain through `p`.
    pub fn liberties(&self, p: Point) -> Vec<Point> {
        let mut seen = [false; CELLS];
        let mut out = Vec::new();
        for s in self.chain(p) {
            for n in self.neighbours(self.idx(s)) {
                if self.cells[n] == EMPTY && !seen[n] {
                    seen[n] = true;
                    out.push(self.point(n));
                }
            }
        }
        out
    }

    /// The points next to `p` on the board (none if `p` is off it).
    pub fn adjacent(&self, p: Point) -> impl Iterator<Item = Point> + '_ {
        // Cell 0 is border, so an off-board point has no neighbours.
        let nb = if p.on_board(self.size) {
            self.neighbours(self.idx(p))
        } else {
            [0; 4]
        };
        nb.into_iter()
            .filter(|&n| self.cells[n] != BORDER)
            .map(|n| self.point(n))
    }

    /// Every move `color` may make under the simple ko rule, pass excluded.
    pub fn legal_points(&self, color: Color) -> Vec<Point> {
        self.points()
            .filter(|&p| self.check(color, p).is_ok())
            .collect()
    }

    // Cell-level access for playouts and engines (`qiyuan-engine-go`): a cell is an
    // index into the padded board, with a ring of border cells around the points, so
    // that a neighbour is always an index away. These are the hot paths of Monte Carlo
    // search; the point-level methods above are the ones to use elsewhere.

    /// The distance between vertically adjacent cells (the board's side plus two).
    #[inline]
    pub fn stride(&self) -> usize {
        self.stride
    }

    /// How many cells the padded board has (every cell index is below this).
    #[inline]
    pub fn cell_count(&self) -> usize {
        self.stride * self.stride
    }

    /// The cell of a point on the board.
    #[inline]
    pub fn cell_of(&self, p: Point) -> usize {
        self.idx(p)
    }

    /// The point of a cell on the board.
    #[inline]
    pub fn point_of(&self, i: usize) -> Point {
        self.point(i)
    }

    /// What stands on cell `i`: 0 empty, 1 black, 2 white, 3 off the board.
    #[inline]
    pub fn cell_code(&self, i: usize) -> u8 {
        self.cells[i]
    }

    /// The stone on cell `i`, if any.
    #[inline]
    pub fn stone_at(&self, i: usize) -> Option<Color> {
        match self.cells[i] {
            BLACK => Some(Color::Black),
            WHITE => Some(Color::White),
            _ => None,
        }
    }

    /// Whether cell `i` is an empty point of the board.
    #[inline]
    pub fn is_empty_cell(&self, i: usize) -> bool {
        self.cells[i] == EMPTY
    }

    /// The four cells next to the on-board cell `i` (some may be border).
    #[inline]
    pub fn cell_neighbours(&self, i: usize) -> [usize; 4] {
        self.neighbours(i)
    }

    /// The head of the chain on the stone cell `i`: equal for every stone of a chain.
    #[inline]
    pub fn chain_head(&self, i: usize) -> usize {
        self.head[i] as usize
    }

    /// The number of stones of the chain on the stone cell `i`.
    #[inline]
    pub fn chain_len(&self, i: usize) -> usize {
        self.stones[self.head[i] as usize] as usize
    }

    /// The next stone of the chain on the stone cell `i` (the chain is a cycle).
    #[inline]
    pub fn chain_next(&self, i: usize) -> usize {
        self.next[i] as usize
    }

    /// Fills `out` with distinct liberties of the chain on the stone cell `i`, stopping
    /// once `out` is full, and returns how many it found. With `out` of length `n`, a
    /// result below `n` is the chain's exact liberty count.
    pub fn chain_liberties(&self, i: usize, out: &mut [usize]) -> usize {
        let mut found = 0;
        if out.is_empty() {
            return 0;
        }
        let h = self.head[i] as usize;
        let mut s = h;
        loop {
            for n in self.neighbours(s) {
                if self.cells[n] == EMPTY && !out[..found].contains(&n) {
                    out[found] = n;
                    found += 1;
                    if found == out.len() {
                        return found;
                    }
                }
            }
            s = self.next[s] as usize;
            if s == h {
                return found;
            }
        }
    }

    /// The cell the side to move may not play because it would retake a ko (0: none).
    #[inline]
    pub fn ko_cell(&self) -> usize {
        self.ko
    }

    /// How many empty points the board has.
    #[inline]
    pub fn empty_count(&self) -> usize {
        self.n_empty
    }

    /// The `k`th entry of the board's unordered list of empty cells (`k` below
    /// [`Board::empty_count`]).
    #[inline]
    pub fn empty_at(&self, k: usize) -> usize {
        self.empties[k] as usize
    }

    /// Swaps two entries of the list of empty cells: playouts set candidates aside
    /// this way without allocating.
    #[inline]
    pub fn swap_empties(&mut self, a: usize, b: usize) {
        let (ia, ib) = (self.empties[a], self.empties[b]);
        self.empties[a] = ib;
        self.empties[b] = ia;
        self.empty_pos[ib as usize] = a as u16;
        self.empty_pos[ia as usize] = b as u16;
    }

    /// Whether `color` may play on the empty cell `i` (simple ko, no suicide).
    #[inline]
    pub fn legal_at(&self, color: Color, i: usize) -> bool {
        i != self.ko && self.has_liberty_after(cell_of(color), i)
    }

    /// Plays on a cell [`Board::legal_at`] allowed; returns the stones captured.
    /// Playing anywhere else leaves the board inconsistent.
    #[inline]
    pub fn play_at(&mut self, color: Color, i: usize) -> u32 {
        self.place(color, i)
    }

    /// Whether the empty cell `i` looks like an eye of `color`: surrounded by its
    /// stones, with too few enemy stones on the diagonals to make it false. Playouts
    /// do not fill such points.
    #[inline]
    pub fn is_eyeish(&self, color: Color, i: usize) -> bool {
        let me = cell_of(color);
        if self
            .neighbours(i)
            .iter()
            .any(|&n| self.cells[n] != me && self.cells[n] != BORDER)
        {
            return false;
        }
        let s = self.stride;
        let them = cell_of(color.opponent());
        let mut bad = 0;
        let mut edge = 0;
        for d in [i - s - 1, i - s + 1, i + s - 1, i + s + 1] {
            match self.cells[d] {
                BORDER => edge = 1,
                c if c == them => bad += 1,
                _ => {}
            }
        }
        bad + edge < 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Point {
        Point::from_gtp(s).unwrap()
    }

    /// Recomputes every chain's pseudo-liberties and the hash from scratch.
    fn assert_consistent(b: &Board) {
        let mut hash = 0;
        for q in b.points() {
            let i = b.idx(q);
            match b.get(q) {
                Some(c) => {
                    hash ^= ZOBRIST[c.index()][i];
                    let chain = b.chain(q);
                    let h = b.head[i] as usize;
                    assert_eq!(b.stones[h] as usize, chain.len());
                    let pseudo: usize = chain
                        .iter()
                        .map(|&s| b.adjacent(s).filter(|&n| b.get(n).is_none()).count())
                        .sum();
                    assert_eq!(b.libs[h] as usize, pseudo, "{q} in {b:?}");
                    assert!(pseudo > 0);
                }
                None => assert_eq!(b.empties[b.empty_pos[i] as usize] as usize, i),
            }
        }
        assert_eq!(hash, b.hash);
        assert_eq!(
            b.n_empty,
            b.points().filter(|&q| b.get(q).is_none()).count()
        );
    }

    #[test]
    fn sizes() {
        assert!(Board::new(1).is_err());
        assert!(Board::new(26).is_err());
        assert_eq!(Board::new(25).unwrap().empty_count(), 625);
    }

    #[test]
    fn captures_and_liberties_stay_consistent_in_random_games() {
        let mut rng = crate::playout::Rng::new(7);
        for size in [5u8, 9, 19] {
            let mut b = Board::new(size).unwrap();
            let mut color = Color::Black;
            for _ in 0..400 {
                let legal = b.legal_points(color);
                if legal.is_empty() {
                    b.pass();
                } else {
                    let q = legal[rng.below(legal.len())];
                    let expected = b.hash_after(color, q);
                    b.play(color, q).unwrap();
                    assert_eq!(b.hash(), expected);
                }
                assert_consistent(&b);
                color = color.opponent();
            }
            // Lifting every third stone leaves a consistent board too.
            let lifted: Vec<Point> = b
                .points()
                .filter(|q| b.get(*q).is_some())
                .step_by(3)
                .collect();
            let w = b.without(&lifted);
            assert_consistent(&w);
            assert!(lifted.iter().all(|&q| w.get(q).is_none()));
        }
    }

    #[test]
    fn ko_is_marked_and_lifted_by_a_pass() {
        // . X O .
        // X O . O
        // . X O .
        let mut b = Board::new(5).unwrap();
        for (c, v) in [
            (Color::Black, "B3"),
            (Color::Black, "A2"),
            (Color::Black, "B1"),
            (Color::White, "C3"),
            (Color::White, "D2"),
            (Color::White, "C1"),
            (Color::White, "B2"),
        ] {
            b.setup(c, p(v)).unwrap();
        }
        assert_eq!(b.play(Color::Black, p("C2")), Ok(1));
        assert_eq!(b.ko_point(), Some(p("B2")));
        assert_eq!(
            b.check(Color::White, p("B2")),
            Err(IllegalMove::Ko(p("B2")))
        );
        b.pass();
        assert_eq!(b.play(Color::White, p("B2")), Ok(1));
        assert_consistent(&b);
    }
}
