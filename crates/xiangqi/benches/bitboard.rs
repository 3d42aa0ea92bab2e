//! The measurement behind the board's design: a 90-bit bitboard (`u128`) move
//! generator, written only for this benchmark, against the library's mailbox.
//! Both count perft(4) and perft(5) from the start position with the same
//! legality shortcut (only moves touching the general's lines are tested).
//! Rays find their first blocker with `trailing_zeros`/`leading_zeros`; horse,
//! elephant, advisor, general and soldier moves come from per-point tables.

use divan::Bencher;
use divan::counter::ItemsCount;
use qiyuan_xiangqi::Position;

fn main() {
    divan::main();
}

const KING: usize = 0;
const ADVISOR: usize = 1;
const ELEPHANT: usize = 2;
const HORSE: usize = 3;
const ROOK: usize = 4;
const CANNON: usize = 5;
const PAWN: usize = 6;
const NONE: u8 = 255;

fn sq(f: i32, r: i32) -> Option<usize> {
    ((0..9).contains(&f) && (0..10).contains(&r)).then(|| (r * 9 + f) as usize)
}

struct Tables {
    /// Rays north, east, south, west (excluding the point itself).
    ray: [[u128; 90]; 4],
    king: [[u128; 90]; 2],
    advisor: [[u128; 90]; 2],
    /// (eye, target) pairs per point and colour.
    elephant: [[Vec<(usize, usize)>; 90]; 2],
    /// (leg, target) pairs per point.
    horse: Vec<Vec<(usize, usize)>>,
    /// Points a soldier of colour c on the point may move to.
    pawn: [[u128; 90]; 2],
    /// Horse attackers of a point: (leg next to the point, horse point).
    horse_to: Vec<Vec<(usize, usize)>>,
    /// Points from which an enemy soldier attacks a general of colour c here.
    pawn_to: [[u128; 90]; 2],
}

fn tables() -> Tables {
    let mut t = Tables {
        ray: [[0; 90]; 4],
        king: [[0; 90]; 2],
        advisor: [[0; 90]; 2],
        elephant: std::array::from_fn(|_| std::array::from_fn(|_| Vec::new())),
        horse: vec![Vec::new(); 90],
        pawn: [[0; 90]; 2],
        horse_to: vec![Vec::new(); 90],
        pawn_to: [[0; 90]; 2],
    };
    let palace =
        |c: usize, f: i32, r: i32| (3..=5).contains(&f) && if c == 0 { r <= 2 } else { r >= 7 };
    let half = |c: usize, r: i32| if c == 0 { r <= 4 } else { r >= 5 };
    for r in 0..10 {
        for f in 0..9 {
            let s = (r * 9 + f) as usize;
            for (d, (df, dr)) in [(0, 1), (1, 0), (0, -1), (-1, 0)].iter().enumerate() {
                let (mut x, mut y) = (f + df, r + dr);
                while let Some(t2) = sq(x, y) {
                    t.ray[d][s] |= 1 << t2;
                    x += df;
                    y += dr;
                }
            }
            for c in 0..2 {
                for (df, dr) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                    if let Some(to) = sq(f + df, r + dr).filter(|_| palace(c, f + df, r + dr)) {
                        t.king[c][s] |= 1 << to;
                    }
                }
                for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                    if let Some(to) = sq(f + df, r + dr).filter(|_| palace(c, f + df, r + dr)) {
                        t.advisor[c][s] |= 1 << to;
                    }
                    if let (Some(e), Some(to)) = (sq(f + df, r + dr), sq(f + 2 * df, r + 2 * dr))
                        && half(c, r + 2 * dr)
                    {
                        t.elephant[c][s].push((e, to));
                    }
                }
                let fwd = if c == 0 { 1 } else { -1 };
                if let Some(to) = sq(f, r + fwd) {
                    t.pawn[c][s] |= 1 << to;
                }
                if !half(c, r) {
                    for df in [-1, 1] {
                        if let Some(to) = sq(f + df, r) {
                            t.pawn[c][s] |= 1 << to;
                        }
                    }
                }
                // Enemy soldiers attacking a general of colour c standing here.
                for (df, dr) in [(0, fwd), (1, 0), (-1, 0)] {
                    if let Some(from) = sq(f + df, r + dr) {
                        t.pawn_to[c][s] |= 1 << from;
                    }
                }
            }
            for (lf, lr, a, b) in [
                (0, 1, (-1, 2), (1, 2)),
                (0, -1, (-1, -2), (1, -2)),
                (1, 0, (2, 1), (2, -1)),
                (-1, 0, (-2, 1), (-2, -1)),
            ] {
                if let Some(leg) = sq(f + lf, r + lr) {
                    for (df, dr) in [a, b] {
                        if let Some(to) = sq(f + df, r + dr) {
                            t.horse[s].push((leg, to));
                        }
                    }
                }
            }
            for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                if let Some(leg) = sq(f + df, r + dr) {
                    for (hf, hr) in [(f + 2 * df, r + dr), (f + df, r + 2 * dr)] {
                        if let Some(h) = sq(hf, hr) {
                            t.horse_to[s].push((leg, h));
                        }
                    }
                }
            }
        }
    }
    t
}

/// A move list on the stack, as the mailbox uses.
struct List {
    moves: [(u8, u8); 192],
    len: usize,
}

impl List {
    fn new() -> List {
        List {
            moves: [(0, 0); 192],
            len: 0,
        }
    }
    #[inline]
    fn push(&mut self, m: (u8, u8)) {
        if self.len < 192 {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }
    fn as_slice(&self) -> &[(u8, u8)] {
        &self.moves[..self.len]
    }
}

#[derive(Clone)]
struct Bb {
    pieces: [[u128; 7]; 2],
    occ: [u128; 2],
    /// Colour*8 + role per point, NONE when empty.
    board: [u8; 90],
    side: usize,
}

#[inline]
fn first(ray: u128, occ: u128, dir: usize) -> Option<usize> {
    let b = ray & occ;
    if b == 0 {
        None
    } else if dir < 2 {
        Some(b.trailing_zeros() as usize)
    } else {
        Some(127 - b.leading_zeros() as usize)
    }
}

impl Bb {
    fn from_position(p: &Position) -> Bb {
        let mut b = Bb {
            pieces: [[0; 7]; 2],
            occ: [0; 2],
            board: [NONE; 90],
            side: p.turn() as usize,
        };
        for (s, pc) in p.board().pieces() {
            let role = pc.role as usize;
            let c = pc.color as usize;
            b.pieces[c][role] |= 1 << s.index();
            b.occ[c] |= 1 << s.index();
            b.board[s.index() as usize] = (c * 8 + role) as u8;
        }
        b
    }

    #[inline]
    fn attacked(&self, t: &Tables, k: usize, c: usize) -> bool {
        let them = c ^ 1;
        let occ = self.occ[0] | self.occ[1];
        for dir in 0..4 {
            if let Some(s1) = first(t.ray[dir][k], occ, dir) {
                let p = self.board[s1];
                if p == (them * 8 + ROOK) as u8 || (dir % 2 == 0 && p == (them * 8 + KING) as u8) {
                    return true;
                }
                if let Some(s2) = first(t.ray[dir][s1], occ, dir)
                    && self.board[s2] == (them * 8 + CANNON) as u8
                {
                    return true;
                }
            }
        }
        let horses = self.pieces[them][HORSE];
        if horses != 0 {
            for &(leg, h) in &t.horse_to[k] {
                if occ & (1 << leg) == 0 && horses & (1 << h) != 0 {
                    return true;
                }
            }
        }
        t.pawn_to[c][k] & self.pieces[them][PAWN] != 0
    }

    #[inline]
    fn legal(&mut self, t: &Tables, from: usize, to: usize) -> bool {
        let us = self.side;
        let p = self.board[from];
        let cap = self.board[to];
        let (fb, tb) = (1u128 << from, 1u128 << to);
        let role = (p % 8) as usize;
        self.occ[us] ^= fb | tb;
        self.pieces[us][role] ^= fb | tb;
        if cap != NONE {
            self.occ[us ^ 1] ^= tb;
            self.pieces[us ^ 1][(cap % 8) as usize] ^= tb;
        }
        self.board[to] = p;
        self.board[from] = NONE;
        let k = self.pieces[us][KING].trailing_zeros() as usize;
        let ok = !self.attacked(t, k, us);
        self.board[from] = p;
        self.board[to] = cap;
        self.occ[us] ^= fb | tb;
        self.pieces[us][role] ^= fb | tb;
        if cap != NONE {
            self.occ[us ^ 1] ^= tb;
            self.pieces[us ^ 1][(cap % 8) as usize] ^= tb;
        }
        ok
    }

    fn pseudo(&self, t: &Tables, out: &mut List) {
        let us = self.side;
        let own = self.occ[us];
        let enemy = self.occ[us ^ 1];
        let occ = own | enemy;
        let mut push = |from: usize, mut targets: u128| {
            while targets != 0 {
                let to = targets.trailing_zeros();
                targets &= targets - 1;
                out.push((from as u8, to as u8));
            }
        };
        for role in 0..7 {
            let mut bb = self.pieces[us][role];
            while bb != 0 {
                let s = bb.trailing_zeros() as usize;
                bb &= bb - 1;
                let targets = match role {
                    KING => t.king[us][s] & !own,
                    ADVISOR => t.advisor[us][s] & !own,
                    ELEPHANT => {
                        t.elephant[us][s]
                            .iter()
                            .filter(|(e, _)| occ & (1 << e) == 0)
                            .fold(0, |a, (_, to)| a | 1 << to)
                            & !own
                    }
                    HORSE => {
                        t.horse[s]
                            .iter()
                            .filter(|(l, _)| occ & (1 << l) == 0)
                            .fold(0, |a, (_, to)| a | 1 << to)
                            & !own
                    }
                    ROOK | CANNON => {
                        let mut a = 0u128;
                        for dir in 0..4 {
                            let ray = t.ray[dir][s];
                            match first(ray, occ, dir) {
                                None => a |= ray,
                                Some(b1) => {
                                    a |= ray & !t.ray[dir][b1] & !(1 << b1);
                                    if role == ROOK {
                                        a |= (1 << b1) & enemy;
                                    } else if let Some(b2) = first(t.ray[dir][b1], occ, dir) {
                                        a |= (1 << b2) & enemy;
                                    }
                                }
                            }
                        }
                        a
                    }
                    _ => t.pawn[us][s] & !own,
                };
                push(s, targets);
            }
        }
    }

    fn make(&mut self, from: usize, to: usize) -> u8 {
        let us = self.side;
        let p = self.board[from];
        let cap = self.board[to];
        let (fb, tb) = (1u128 << from, 1u128 << to);
        self.occ[us] ^= fb | tb;
        self.pieces[us][(p % 8) as usize] ^= fb | tb;
        if cap != NONE {
            self.occ[us ^ 1] ^= tb;
            self.pieces[us ^ 1][(cap % 8) as usize] ^= tb;
        }
        self.board[to] = p;
        self.board[from] = NONE;
        self.side ^= 1;
        cap
    }

    fn unmake(&mut self, from: usize, to: usize, cap: u8) {
        self.side ^= 1;
        let us = self.side;
        let p = self.board[to];
        let (fb, tb) = (1u128 << from, 1u128 << to);
        self.occ[us] ^= fb | tb;
        self.pieces[us][(p % 8) as usize] ^= fb | tb;
        if cap != NONE {
            self.occ[us ^ 1] ^= tb;
            self.pieces[us ^ 1][(cap % 8) as usize] ^= tb;
        }
        self.board[from] = p;
        self.board[to] = cap;
    }

    fn legal_moves(&mut self, t: &Tables, out: &mut List) {
        let mut pseudo = List::new();
        self.pseudo(t, &mut pseudo);
        out.len = 0;
        let us = self.side;
        let k = self.pieces[us][KING].trailing_zeros() as usize;
        let in_check = self.attacked(t, k, us);
        let (kr, kf) = (k / 9, k % 9);
        for &(from, to) in pseudo.as_slice() {
            let (f, tt) = (from as usize, to as usize);
            let risky = in_check
                || f == k
                || f / 9 == kr
                || f % 9 == kf
                || tt / 9 == kr
                || tt % 9 == kf
                || ((f / 9).abs_diff(kr) == 1 && (f % 9).abs_diff(kf) == 1);
            if !risky || self.legal(t, f, tt) {
                out.push((from, to));
            }
        }
    }

    fn perft(&mut self, t: &Tables, depth: u32) -> u64 {
        let mut list = List::new();
        self.legal_moves(t, &mut list);
        if depth == 1 {
            return list.len as u64;
        }
        let mut n = 0;
        for &(f, to) in list.as_slice() {
            let cap = self.make(f as usize, to as usize);
            n += self.perft(t, depth - 1);
            self.unmake(f as usize, to as usize, cap);
        }
        n
    }
}

#[divan::bench(args = [4, 5], sample_count = 3, sample_size = 1)]
fn bitboard_u128(bencher: Bencher, depth: u32) {
    let t = tables();
    let b = Bb::from_position(&Position::new());
    let nodes = [1, 44, 1920, 79666, 3290240, 133312995][depth as usize];
    bencher
        .counter(ItemsCount::new(nodes))
        .bench(|| assert_eq!(b.clone().perft(&t, depth), nodes));
}

#[divan::bench(args = [4, 5], sample_count = 3, sample_size = 1)]
fn mailbox(bencher: Bencher, depth: u32) {
    let p = Position::new();
    let nodes = [1, 44, 1920, 79666, 3290240, 133312995][depth as usize];
    bencher
        .counter(ItemsCount::new(nodes))
        .bench(|| assert_eq!(p.perft(depth), nodes));
}
