//! A position: the board plus the counters a FEN carries; FEN reading and writing.

use std::fmt;

use crate::board::{self, Board, MoveList};
use crate::types::{Color, Move, Piece, Role, Square};

/// The start position, as UCCI engines write it.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Why a FEN was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    #[error("empty FEN")]
    Empty,
    #[error("the board has {0} ranks; it needs 10")]
    RankCount(usize),
    #[error("rank {rank} of the FEN does not have 9 points")]
    RankLength { rank: u8 },
    #[error("unknown piece letter {0:?}")]
    PieceLetter(char),
    #[error("unknown side to move {0:?} (w, r or b)")]
    Side(String),
    #[error("bad move counter {0:?}")]
    Counter(String),
    #[error("too many fields")]
    TooManyFields,
    #[error("{} has no general", .0.as_str())]
    NoGeneral(Color),
    #[error("{side} has too many of {role:?}", side = .0.as_str(), role = .1)]
    TooMany(Color, Role),
    #[error("{side} general outside its palace at {sq}", side = .0.as_str(), sq = .1)]
    GeneralOutsidePalace(Color, Square),
    #[error("{side} advisor on {sq}, a point it can never reach", side = .0.as_str(), sq = .1)]
    AdvisorSquare(Color, Square),
    #[error("{side} elephant on {sq}, a point it can never reach", side = .0.as_str(), sq = .1)]
    ElephantSquare(Color, Square),
    #[error("{side} soldier on {sq}, a point it can never reach", side = .0.as_str(), sq = .1)]
    PawnSquare(Color, Square),
    #[error("the generals face each other on an open file")]
    GeneralsFace,
    #[error("the side not to move ({}) is in check", .0.as_str())]
    OpponentInCheck(Color),
}

/// A move that is not legal in the position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {0}")]
pub struct IllegalMove(pub Move);

/// A xiangqi position with the side to move and FEN's counters.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    pub(crate) board: Board,
    /// Plies since the last capture (FEN's fifth field).
    pub(crate) halfmoves: u32,
    /// Full moves, starting at 1, counted after Black's move.
    pub(crate) fullmoves: u32,
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fen())
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::new()
    }
}

impl std::str::FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Position::from_fen(s)
    }
}

fn advisor_ok(c: Color, s: Square) -> bool {
    let r = rel_rank(c, s);
    matches!((s.file(), r), (3, 0) | (5, 0) | (4, 1) | (3, 2) | (5, 2))
}

fn elephant_ok(c: Color, s: Square) -> bool {
    let r = rel_rank(c, s);
    matches!(
        (s.file(), r),
        (2, 0) | (6, 0) | (0, 2) | (4, 2) | (8, 2) | (2, 4) | (6, 4)
    )
}

fn pawn_ok(c: Color, s: Square) -> bool {
    let r = rel_rank(c, s);
    r >= 5 || (r >= 3 && s.file().is_multiple_of(2))
}

fn palace_ok(c: Color, s: Square) -> bool {
    rel_rank(c, s) <= 2 && (3..=5).contains(&s.file())
}

/// The rank counted from `c`'s own back rank.
pub(crate) fn rel_rank(c: Color, s: Square) -> u8 {
    match c {
        Color::Red => s.rank(),
        Color::Black => 9 - s.rank(),
    }
}

impl Position {
    /// The start position.
    pub fn new() -> Position {
        // The start FEN is valid; the fallback is never taken.
        Position::from_fen(START_FEN).unwrap_or_else(|_| Position {
            board: Board::empty(),
            halfmoves: 0,
            fullmoves: 1,
        })
    }

    /// Reads a FEN as UCCI engines write it: ranks from Black's back rank down,
    /// then `w` (or `r`) or `b`, then two `-` fields and the counters, which may be
    /// left out.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Self::parse_fen(fen, true)
    }

    /// Like [`Position::from_fen`] but lets soldiers stand behind their starting
    /// points: study diagrams (the WXF rulebook's among them) sometimes place them
    /// where no game could. Everything else is still checked.
    pub fn from_fen_relaxed(fen: &str) -> Result<Position, FenError> {
        Self::parse_fen(fen, false)
    }

    fn parse_fen(fen: &str, strict: bool) -> Result<Position, FenError> {
        let fen = fen.trim();
        let fen = fen.strip_prefix("fen ").unwrap_or(fen).trim();
        let mut fields = fen.split_ascii_whitespace();
        let placement = fields.next().ok_or(FenError::Empty)?;
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != 10 {
            return Err(FenError::RankCount(ranks.len()));
        }
        let mut board = Board::empty();
        let mut counts = [[0usize; 7]; 2];
        for (i, text) in ranks.iter().enumerate() {
            let rank = 9 - i as u8;
            let mut file = 0u8;
            for ch in text.chars() {
                if let Some(d) = ch.to_digit(10) {
                    if d == 0 {
                        return Err(FenError::RankLength { rank });
                    }
                    file = file.saturating_add(d as u8);
                    if file > 9 {
                        return Err(FenError::RankLength { rank });
                    }
                    continue;
                }
                let piece = Piece::from_fen_char(ch).ok_or(FenError::PieceLetter(ch))?;
                let sq = Square::try_new(file, rank).ok_or(FenError::RankLength { rank })?;
                let role_i = Role::ALL.iter().position(|r| *r == piece.role).unwrap_or(0);
                let n = &mut counts[piece.color as usize][role_i];
                *n += 1;
                if *n > piece.role.max_count() {
                    return Err(FenError::TooMany(piece.color, piece.role));
                }
                let ok = match piece.role {
                    Role::King => palace_ok(piece.color, sq),
                    Role::Advisor => advisor_ok(piece.color, sq),
                    Role::Elephant => elephant_ok(piece.color, sq),
                    Role::Pawn => !strict || pawn_ok(piece.color, sq),
                    _ => true,
                };
                if !ok {
                    return Err(match piece.role {
                        Role::King => FenError::GeneralOutsidePalace(piece.color, sq),
                        Role::Advisor => FenError::AdvisorSquare(piece.color, sq),
                        Role::Elephant => FenError::ElephantSquare(piece.color, sq),
                        _ => FenError::PawnSquare(piece.color, sq),
                    });
                }
                if !board.put(sq, piece) {
                    return Err(FenError::TooMany(piece.color, piece.role));
                }
                file += 1;
            }
            if file != 9 {
                return Err(FenError::RankLength { rank });
            }
        }
        for c in [Color::Red, Color::Black] {
            if counts[c as usize][0] == 0 {
                return Err(FenError::NoGeneral(c));
            }
        }
        let side = match fields.next() {
            None | Some("w") | Some("r") | Some("W") | Some("R") => Color::Red,
            Some("b") | Some("B") => Color::Black,
            Some(other) => return Err(FenError::Side(other.to_string())),
        };
        board.set_side(side);
        // Castling and en passant fields: always `-` in xiangqi; tolerate anything.
        let _ = fields.next();
        let _ = fields.next();
        let halfmoves = match fields.next() {
            None => 0,
            Some(t) => t.parse().map_err(|_| FenError::Counter(t.to_string()))?,
        };
        let fullmoves = match fields.next() {
            None => 1,
            Some(t) => t
                .parse::<u32>()
                .map_err(|_| FenError::Counter(t.to_string()))?
                .max(1),
        };
        if fields.next().is_some() {
            return Err(FenError::TooManyFields);
        }
        if board.generals_face() {
            return Err(FenError::GeneralsFace);
        }
        if board.king_attacked(side.other()) {
            return Err(FenError::OpponentInCheck(side.other()));
        }
        Ok(Position {
            board,
            halfmoves,
            fullmoves,
        })
    }

    /// The FEN, as UCCI engines write it (`w`/`b`).
    pub fn fen(&self) -> String {
        format!(
            "{} {} - - {} {}",
            board_fen(&self.board),
            match self.turn() {
                Color::Red => 'w',
                Color::Black => 'b',
            },
            self.halfmoves,
            self.fullmoves
        )
    }

    pub fn turn(&self) -> Color {
        self.board.side_to_move()
    }

    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board.piece_at(sq)
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Plies since the last capture.
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// Is the side to move in check?
    pub fn is_check(&self) -> bool {
        self.board.in_check()
    }

    /// Every legal move.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut b = self.board.clone();
        let mut l = MoveList::new();
        b.legal_moves_into(&mut l);
        l.as_slice().to_vec()
    }

    /// Does the side to move have a legal move?
    pub fn has_legal_move(&self) -> bool {
        !self.legal_moves().is_empty()
    }

    /// Is `m` legal here?
    pub fn is_legal(&self, m: Move) -> bool {
        let piece = self.board.cell(m.origin());
        if board::decode(piece).map(|p| p.color) != Some(self.turn()) {
            return false;
        }
        let mut l = MoveList::new();
        self.board.pseudo_moves_from(m.origin(), &mut l);
        if !l.as_slice().contains(&m) {
            return false;
        }
        let mut b = self.board.clone();
        b.is_legal(m)
    }

    /// Plays a legal move.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        if !self.is_legal(m) {
            return Err(IllegalMove(m));
        }
        self.play_unchecked(m);
        Ok(())
    }

    /// Plays a move already known to be legal.
    pub fn play_unchecked(&mut self, m: Move) {
        let capture = self.board.cell(m.to_raw()) != board::EMPTY;
        // The counters come from a FEN, which may set them to their largest value.
        if self.turn() == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.board.make(m);
        self.halfmoves = if capture {
            0
        } else {
            self.halfmoves.saturating_add(1)
        };
    }

    /// Would `m` capture something?
    pub fn is_capture(&self, m: Move) -> bool {
        self.board.cell(m.to_raw()) != board::EMPTY
    }

    /// The position's identity for repetition: pieces and side to move.
    pub fn hash(&self) -> u64 {
        let mut h: u64 = match self.turn() {
            Color::Red => 0,
            Color::Black => 0x9E37_79B9_7F4A_7C15,
        };
        for (sq, p) in self.board.pieces() {
            let k = (sq.index() as u64) * 16 + crate::board::encode(p) as u64;
            h ^= splitmix(k.wrapping_add(0x1234_5678));
        }
        h
    }

    /// Neither side has a piece that can cross the river and attack: no rook,
    /// horse, cannon or soldier.
    pub fn insufficient_material(&self) -> bool {
        !self
            .board
            .pieces()
            .any(|(_, p)| matches!(p.role, Role::Rook | Role::Horse | Role::Cannon | Role::Pawn))
    }

    /// Leaf count `depth` plies below.
    pub fn perft(&self, depth: u32) -> u64 {
        let mut b = self.board.clone();
        board::perft_board(&mut b, depth)
    }

    /// The perft count below each legal move.
    pub fn divide(&self, depth: u32) -> Vec<(Move, u64)> {
        let mut b = self.board.clone();
        let mut l = MoveList::new();
        b.legal_moves_into(&mut l);
        l.iter()
            .map(|&m| {
                let u = b.make(m);
                let n = if depth <= 1 {
                    1
                } else {
                    board::perft_board(&mut b, depth - 1)
                };
                b.unmake(m, u);
                (m, n)
            })
            .collect()
    }
}

fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The placement field of a FEN.
pub(crate) fn board_fen(b: &Board) -> String {
    let mut s = String::with_capacity(90);
    for rank in (0..10u8).rev() {
        let mut empty = 0;
        for file in 0..9u8 {
            match b.piece_at(Square::new(file, rank)) {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        s.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    s.push(p.fen_char());
                }
            }
        }
        if empty > 0 {
            s.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s
}

/// Perft of a FEN, for the command line.
pub fn perft(fen: &str, depth: u32) -> Result<u64, FenError> {
    Ok(Position::from_fen(fen)?.perft(depth))
}
