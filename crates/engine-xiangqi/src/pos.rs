//! The search's position: the board with its Zobrist key, the incremental
//! evaluation sums and piece counts, and the halfmove clock, kept up to date by
//! make and unmake.

use qiyuan_xiangqi::{Board, Color, Move, MoveList, Piece, Position, Role, Undo};

use crate::eval::{self, piece_index, role_index};

struct Keys {
    piece: [[u64; 90]; 14],
    black: u64,
}

fn keys() -> &'static Keys {
    use std::sync::OnceLock;
    static K: OnceLock<Keys> = OnceLock::new();
    K.get_or_init(|| {
        let mut s = 0x5851_F42D_4C95_7F2Du64;
        let mut next = || {
            s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let mut piece = [[0; 90]; 14];
        for p in piece.iter_mut() {
            for k in p.iter_mut() {
                *k = next();
            }
        }
        Keys {
            piece,
            black: next(),
        }
    })
}

/// What [`Pos::make`] returns for [`Pos::unmake`].
#[derive(Clone, Copy)]
pub struct PosUndo {
    undo: Undo,
    hash: u64,
    mg: [i32; 2],
    eg: [i32; 2],
    halfmoves: u32,
}

#[derive(Clone)]
pub struct Pos {
    pub board: Board,
    pub hash: u64,
    mg: [i32; 2],
    eg: [i32; 2],
    pub counts: [[u8; 7]; 2],
    /// Plies since the last capture.
    pub halfmoves: u32,
}

impl Pos {
    pub fn new(p: &Position) -> Pos {
        let board = p.board().clone();
        let t = eval::tables();
        let k = keys();
        let mut pos = Pos {
            hash: 0,
            mg: [0; 2],
            eg: [0; 2],
            counts: [[0; 7]; 2],
            halfmoves: p.halfmoves(),
            board,
        };
        for (sq, piece) in pos.board.pieces() {
            let pi = piece_index(piece);
            let s = sq.index() as usize;
            let c = piece.color as usize;
            pos.hash ^= k.piece[pi][s];
            pos.mg[c] += t.mg[pi][s];
            pos.eg[c] += t.eg[pi][s];
            pos.counts[c][role_index(piece.role)] += 1;
        }
        if pos.board.side_to_move() == Color::Black {
            pos.hash ^= k.black;
        }
        pos
    }

    #[inline]
    pub fn turn(&self) -> Color {
        self.board.side_to_move()
    }

    #[inline]
    pub fn in_check(&self) -> bool {
        self.board.is_check()
    }

    #[inline]
    pub fn legal_moves(&mut self, out: &mut MoveList) {
        self.board.legal_moves_into(out);
    }

    #[inline]
    pub fn captured(&self, m: Move) -> Option<Piece> {
        self.board.piece_at(m.to())
    }

    pub fn evaluate(&self) -> i32 {
        eval::evaluate(self.mg, self.eg, &self.counts, self.turn())
    }

    /// Does the side to move have a piece that makes a null move safe to try?
    pub fn has_big_pieces(&self) -> bool {
        let c = &self.counts[self.turn() as usize];
        c[3] + c[4] + c[5] > 0
    }

    /// Neither side can attack (no rook, horse, cannon or soldier): a draw.
    pub fn insufficient(&self) -> bool {
        self.counts.iter().all(|c| c[3] + c[4] + c[5] + c[6] == 0)
    }

    /// Plays a legal move.
    #[inline]
    pub fn make(&mut self, m: Move) -> PosUndo {
        let t = eval::tables();
        let k = keys();
        let (hash, mg, eg, halfmoves) = (self.hash, self.mg, self.eg, self.halfmoves);
        let (from, to) = (m.from().index() as usize, m.to().index() as usize);
        let mover = self.board.piece_at(m.from());
        let captured = self.board.piece_at(m.to());
        if let Some(p) = mover {
            let pi = piece_index(p);
            let c = p.color as usize;
            self.hash ^= k.piece[pi][from] ^ k.piece[pi][to];
            self.mg[c] += t.mg[pi][to] - t.mg[pi][from];
            self.eg[c] += t.eg[pi][to] - t.eg[pi][from];
        }
        if let Some(p) = captured {
            let pi = piece_index(p);
            let c = p.color as usize;
            self.hash ^= k.piece[pi][to];
            self.mg[c] -= t.mg[pi][to];
            self.eg[c] -= t.eg[pi][to];
            self.counts[c][role_index(p.role)] -= 1;
            self.halfmoves = 0;
        } else {
            self.halfmoves += 1;
        }
        self.hash ^= k.black;
        let undo = self.board.make_move(m);
        PosUndo {
            undo,
            hash,
            mg,
            eg,
            halfmoves,
        }
    }

    #[inline]
    pub fn unmake(&mut self, m: Move, u: PosUndo) {
        self.board.unmake_move(m, u.undo);
        if let Some(p) = u.undo.captured() {
            self.counts[p.color as usize][role_index(p.role)] += 1;
        }
        self.hash = u.hash;
        self.mg = u.mg;
        self.eg = u.eg;
        self.halfmoves = u.halfmoves;
    }

    /// Passes; call again to take it back.
    #[inline]
    pub fn make_null(&mut self) {
        self.board.make_null();
        self.hash ^= keys().black;
    }

    /// Is `role` on the move's origin?
    #[inline]
    pub fn role_of(&self, m: Move) -> Role {
        self.board.piece_at(m.from()).map_or(Role::Pawn, |p| p.role)
    }
}
