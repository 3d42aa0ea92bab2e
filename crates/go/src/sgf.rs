//! SGF FF[4] records of Go games: reading with `sgf-parse`, writing by hand.
//!
//! Only the main line of a record is read. Passes are written `B[]`; `tt` is read
//! as a pass on boards up to 19x19, as older programs wrote it. Any text gets a
//! typed [`SgfError`], never a panic.
//!
//! `sgf-parse` builds the tree as nested nodes (each node owns its children, so
//! a main line of n moves is n levels deep) and drops it recursively: a record
//! 150,000 nodes deep overflowed the stack. [`SgfGame::parse`] therefore
//! measures the depth with a scan of the text, written after `sgf-parse`'s
//! lexer, and refuses a record deeper than [`MAX_SGF_DEPTH`] before handing it over.

use sgf_parse::go::{Move as SgfMove, Prop};

use crate::board::{Board, IllegalMove};
use crate::point::{Color, MAX_SIZE, MIN_SIZE, Move, Point};

/// The most nodes on one line of a record's tree (the root, each move's node,
/// and a variation's nodes below the move it branches from). Games run to a few
/// hundred moves, rarely past 400; 5,000 levels of `sgf-parse`'s tree are
/// dropped in under 0.5 MiB of stack (a debug build; the test reads a record
/// at the limit on a 1 MiB thread), a quarter of a server thread's 2 MiB.
pub const MAX_SGF_DEPTH: usize = 5_000;

/// The most moves a record's main line may hold: one fewer than [`MAX_SGF_DEPTH`],
/// so that the record we write (a root, then a node per move) reads again.
pub const MAX_SGF_MOVES: usize = MAX_SGF_DEPTH - 1;

/// Why a text is not a Go record we can read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SgfError {
    #[error("not SGF: {0}")]
    Syntax(String),
    #[error(
        "the record's tree is more than {MAX_SGF_DEPTH} nodes deep; no game is that long, so it is not read"
    )]
    TooDeep,
    #[error(
        "the main line has more than {MAX_SGF_MOVES} moves; no game is that long, so it is not read"
    )]
    TooManyMoves,
    #[error("the file holds no game")]
    NoGame,
    #[error("the board is {0}x{1}: only square boards of {MIN_SIZE} to {MAX_SIZE} are played")]
    Size(u8, u8),
    #[error("{prop}[{value}] lies outside the {size}x{size} board")]
    OffBoard {
        prop: &'static str,
        value: String,
        size: u8,
    },
    #[error("bad value of {0}: {1:?}")]
    BadValue(String, Vec<String>),
    #[error("node {0} has setup stones after the first move; only setups before play are read")]
    SetupAfterMoves(usize),
    #[error("handicap HA[{0}] is not a number of stones we can place")]
    Handicap(i64),
    #[error("setup stone {0}: {1}")]
    Setup(Point, IllegalMove),
    #[error("move {number} ({color} {mv}): {error}")]
    Illegal {
        number: usize,
        color: Color,
        mv: Move,
        error: IllegalMove,
    },
}

/// A Go game record: the game information we keep and the main line's moves.
#[derive(Debug, Clone, PartialEq)]
pub struct SgfGame {
    /// `SZ`, 19 when absent.
    pub size: u8,
    /// `KM`.
    pub komi: Option<f64>,
    /// `HA`: the number of handicap stones (their points are in `black_setup`).
    pub handicap: u8,
    /// `RU`.
    pub rules: Option<String>,
    /// `AB`, sorted.
    pub black_setup: Vec<Point>,
    /// `AW`, sorted.
    pub white_setup: Vec<Point>,
    /// `PL`: who plays first after the setup.
    pub first: Option<Color>,
    /// `PB`.
    pub black: Option<String>,
    /// `PW`.
    pub white: Option<String>,
    /// `DT`.
    pub date: Option<String>,
    /// `RE`: `B+3.5`, `W+R`, `B+T`, `0`, ...
    pub result: Option<String>,
    /// `TM`: main time in seconds.
    pub main_time: Option<f64>,
    /// `OT`: overtime, as free text (`5x30 byo-yomi`).
    pub overtime: Option<String>,
    /// The main line.
    pub moves: Vec<(Color, Move)>,
    /// The time the mover had left after each move of the main line (`BL`/`WL`,
    /// `OB`/`OW`), by move; shorter than `moves` where the record stops telling.
    pub times: Vec<TimeLeft>,
    /// `TB`: black's territory at the end, the points of dead white stones
    /// included, sorted (as CGoban, Sabaki and OGS write and read it).
    pub black_territory: Vec<Point>,
    /// `TW`: white's territory, the points of dead black stones included, sorted.
    pub white_territory: Vec<Point>,
}

/// The mover's time after a move, as SGF writes it.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct TimeLeft {
    /// `BL`/`WL`: seconds left (in byo-yomi, of the current period).
    pub seconds: Option<f64>,
    /// `OB`/`OW`: byo-yomi periods (Canadian: moves) left.
    pub periods: Option<u32>,
}

impl SgfGame {
    /// The stones of the final position that lie in the other colour's territory
    /// (`TB`/`TW`): the dead stones of the record's count, sorted.
    pub fn dead_stones(&self, board: &Board) -> Vec<Point> {
        let mut dead: Vec<Point> = self
            .black_territory
            .iter()
            .filter(|&&p| board.get(p) == Some(Color::White))
            .chain(
                self.white_territory
                    .iter()
                    .filter(|&&p| board.get(p) == Some(Color::Black)),
            )
            .copied()
            .collect();
        dead.sort();
        dead
    }
}

impl Default for SgfGame {
    fn default() -> Self {
        SgfGame {
            size: 19,
            komi: None,
            handicap: 0,
            rules: None,
            black_setup: Vec::new(),
            white_setup: Vec::new(),
            first: None,
            black: None,
            white: None,
            date: None,
            result: None,
            main_time: None,
            overtime: None,
            moves: Vec::new(),
            times: Vec::new(),
            black_territory: Vec::new(),
            white_territory: Vec::new(),
        }
    }
}

fn text(t: &impl std::fmt::Display) -> String {
    // sgf-parse keeps the raw escaped text; its Display unescapes.
    t.to_string().trim().to_string()
}

impl SgfGame {
    /// Reads the first game of an SGF collection.
    pub fn parse(sgf: &str) -> Result<SgfGame, SgfError> {
        check_depth(sgf)?;
        let nodes = sgf_parse::go::parse(sgf).map_err(|e| SgfError::Syntax(e.to_string()))?;
        let root = nodes.first().ok_or(SgfError::NoGame)?;
        let mut game = SgfGame::default();
        // The size first: every point depends on it.
        if let Some(Prop::SZ((w, h))) = root.get_property("SZ") {
            if w != h || !(MIN_SIZE..=MAX_SIZE).contains(w) {
                return Err(SgfError::Size(*w, *h));
            }
            game.size = *w;
        } else if let Some(Prop::Invalid(id, values)) = root.get_property("SZ") {
            return Err(SgfError::BadValue(id.clone(), values.clone()));
        }
        let size = game.size;
        let point = |prop: &'static str, p: &sgf_parse::go::Point| {
            Point::from_sgf_xy(p.x, p.y, size).ok_or_else(|| SgfError::OffBoard {
                prop,
                value: format!("{}{}", (b'a' + p.x) as char, (b'a' + p.y) as char),
                size,
            })
        };
        let mut moved = false;
        for (n, node) in root.main_variation().enumerate() {
            for prop in node.properties() {
                match prop {
                    Prop::B(mv) | Prop::W(mv) => {
                        let color = if matches!(prop, Prop::B(_)) {
                            Color::Black
                        } else {
                            Color::White
                        };
                        let mv = match mv {
                            SgfMove::Pass => Move::Pass,
                            SgfMove::Move(p) if size <= 19 && p.x == 19 && p.y == 19 => Move::Pass,
                            SgfMove::Move(p) => Move::Place(point(
                                if color == Color::Black { "B" } else { "W" },
                                p,
                            )?),
                        };
                        if game.moves.len() == MAX_SGF_MOVES {
                            return Err(SgfError::TooManyMoves);
                        }
                        game.moves.push((color, mv));
                        moved = true;
                        // The mover's time left is on the move's node.
                        let (left, periods) = match color {
                            Color::Black => ("BL", "OB"),
                            Color::White => ("WL", "OW"),
                        };
                        let time = TimeLeft {
                            seconds: node.get_property(left).and_then(|p| match p {
                                Prop::BL(t) | Prop::WL(t) if t.is_finite() => Some(*t),
                                _ => None,
                            }),
                            periods: node.get_property(periods).and_then(|p| match p {
                                Prop::OB(n) | Prop::OW(n) => u32::try_from(*n).ok(),
                                _ => None,
                            }),
                        };
                        if time != TimeLeft::default() {
                            let i = game.moves.len() - 1;
                            game.times.resize(i, TimeLeft::default());
                            game.times.push(time);
                        }
                    }
                    Prop::TB(points) | Prop::TW(points) => {
                        let black = matches!(prop, Prop::TB(_));
                        let name = if black { "TB" } else { "TW" };
                        let list = points
                            .iter()
                            .map(|p| point(name, p))
                            .collect::<Result<Vec<_>, _>>()?;
                        if black {
                            game.black_territory.extend(list);
                        } else {
                            game.white_territory.extend(list);
                        }
                    }
                    Prop::AB(points) | Prop::AW(points) => {
                        if moved {
                            return Err(SgfError::SetupAfterMoves(n));
                        }
                        let black = matches!(prop, Prop::AB(_));
                        let name = if black { "AB" } else { "AW" };
                        let mut list = points
                            .iter()
                            .map(|p| point(name, p))
                            .collect::<Result<Vec<_>, _>>()?;
                        list.sort();
                        if black {
                            game.black_setup.extend(list);
                        } else {
                            game.white_setup.extend(list);
                        }
                    }
                    Prop::PL(c) if !moved => {
                        game.first = Some(match c {
                            sgf_parse::Color::Black => Color::Black,
                            sgf_parse::Color::White => Color::White,
                        });
                    }
                    Prop::KM(k) => {
                        if !k.is_finite() {
                            return Err(SgfError::BadValue("KM".into(), vec![k.to_string()]));
                        }
                        game.komi = Some(*k);
                    }
                    Prop::HA(h) => {
                        game.handicap = u8::try_from(*h).map_err(|_| SgfError::Handicap(*h))?;
                    }
                    Prop::RU(t) => game.rules = Some(text(t)),
                    Prop::PB(t) => game.black = Some(text(t)),
                    Prop::PW(t) => game.white = Some(text(t)),
                    Prop::DT(t) => game.date = Some(text(t)),
                    Prop::RE(t) => game.result = Some(text(t)),
                    Prop::OT(t) => game.overtime = Some(text(t)),
                    Prop::TM(t) if t.is_finite() => game.main_time = Some(*t),
                    Prop::Invalid(id, values)
                        if matches!(id.as_str(), "B" | "W" | "AB" | "AW" | "KM" | "HA") =>
                    {
                        return Err(SgfError::BadValue(id.clone(), values.clone()));
                    }
                    _ => {}
                }
            }
        }
        game.black_setup.sort();
        game.white_setup.sort();
        for list in [&mut game.black_territory, &mut game.white_territory] {
            list.sort();
            list.dedup();
        }
        Ok(game)
    }

    /// The position after the setup and every move of the main line, played with
    /// the simple ko rule (a record is counted, not judged: moves need not
    /// alternate, as edited records sometimes have it).
    pub fn final_position(&self) -> Result<Board, SgfError> {
        let mut board = Board::new(self.size).map_err(|_| SgfError::Size(self.size, self.size))?;
        for (color, points) in [
            (Color::Black, &self.black_setup),
            (Color::White, &self.white_setup),
        ] {
            for &p in points {
                board.setup(color, p).map_err(|e| SgfError::Setup(p, e))?;
            }
        }
        for (i, &(color, mv)) in self.moves.iter().enumerate() {
            board
                .play_move(color, mv)
                .map_err(|error| SgfError::Illegal {
                    number: i + 1,
                    color,
                    mv,
                    error,
                })?;
        }
        Ok(board)
    }

    /// Writes the record as SGF FF[4], one node per move, passes as `B[]`.
    pub fn to_sgf(&self) -> String {
        let mut out = String::from("(;GM[1]FF[4]CA[UTF-8]AP[qiyuan:");
        out.push_str(env!("CARGO_PKG_VERSION"));
        out.push(']');
        out.push_str(&format!("SZ[{}]", self.size));
        let mut info = |id: &str, value: &Option<String>| {
            if let Some(v) = value {
                out.push_str(id);
                out.push('[');
                out.push_str(&escape(v));
                out.push(']');
            }
        };
        info("RU", &self.rules);
        info("KM", &self.komi.map(|k| k.to_string()));
        info(
            "HA",
            &(self.handicap > 0).then(|| self.handicap.to_string()),
        );
        info("PB", &self.black);
        info("PW", &self.white);
        info("DT", &self.date);
        info("RE", &self.result);
        info("TM", &self.main_time.map(|t| t.to_string()));
        info("OT", &self.overtime);
        for (id, points) in [("AB", &self.black_setup), ("AW", &self.white_setup)] {
            if !points.is_empty() {
                out.push_str(id);
                for p in points {
                    out.push_str(&format!("[{}]", p.to_sgf(self.size)));
                }
            }
        }
        if let Some(c) = self.first {
            out.push_str(&format!("PL[{}]", c.letter()));
        }
        let territory = |out: &mut String| {
            for (id, points) in [("TB", &self.black_territory), ("TW", &self.white_territory)] {
                if !points.is_empty() {
                    out.push_str(id);
                    for p in points {
                        out.push_str(&format!("[{}]", p.to_sgf(self.size)));
                    }
                }
            }
        };
        if self.moves.is_empty() {
            territory(&mut out);
        }
        for (i, (color, mv)) in self.moves.iter().enumerate() {
            if i % 10 == 0 {
                out.push('\n');
            }
            let coord = match mv {
                Move::Place(p) => p.to_sgf(self.size),
                Move::Pass => String::new(),
            };
            out.push_str(&format!(";{}[{}]", color.letter(), coord));
            if let Some(time) = self.times.get(i) {
                let (left, periods) = match color {
                    Color::Black => ("BL", "OB"),
                    Color::White => ("WL", "OW"),
                };
                if let Some(t) = time.seconds {
                    out.push_str(&format!("{left}[{}]", seconds(t)));
                }
                if let Some(n) = time.periods {
                    out.push_str(&format!("{periods}[{n}]"));
                }
            }
            // The count's territory goes on the last node, after the passes.
            if i + 1 == self.moves.len() {
                territory(&mut out);
            }
        }
        out.push_str(")\n");
        out
    }
}

/// Refuses a text whose game tree, as `sgf-parse` would build it, is more than
/// [`MAX_SGF_DEPTH`] nodes deep. The scan follows that parser's lexer: outside a
/// property, `(`, `)` and `;` are tokens and any other character begins a
/// property identifier, which runs (`(`, `)` and `;` included) to its first `[`;
/// a value runs to the first `]` not escaped by `\`, and values may follow
/// one another with white space between. A node's depth is its parent's plus
/// one; `(` remembers the depth, `)` goes back to it. A text the lexer or the
/// parser refuses (an unbalanced `)`, a non-ASCII identifier) builds no tree,
/// so the scan leaves it to the parser's own error.
fn check_depth(text: &str) -> Result<(), SgfError> {
    enum State {
        Top,
        Identifier,
        Value { escaped: bool },
        AfterValue,
    }
    let mut state = State::Top;
    let mut depth = 0usize;
    let mut open: Vec<usize> = Vec::new();
    // The parser trims the text as `str::trim` does (any Unicode white space).
    for &b in text.trim().as_bytes() {
        // After a value: white space, another value, or back at the top level.
        if matches!(state, State::AfterValue) {
            if b.is_ascii_whitespace() {
                continue;
            }
            if b == b'[' {
                state = State::Value { escaped: false };
                continue;
            }
            state = State::Top;
        }
        match state {
            State::Top => match b {
                b'(' => open.push(depth),
                b')' => match open.pop() {
                    Some(d) => depth = d,
                    None => return Ok(()),
                },
                b';' => {
                    depth += 1;
                    if depth > MAX_SGF_DEPTH {
                        return Err(SgfError::TooDeep);
                    }
                }
                b'[' => state = State::Value { escaped: false },
                _ if b.is_ascii_whitespace() => {}
                _ if !b.is_ascii() => return Ok(()),
                _ => state = State::Identifier,
            },
            State::Identifier => match b {
                b'[' => state = State::Value { escaped: false },
                _ if !b.is_ascii() => return Ok(()),
                _ => {}
            },
            State::Value { escaped } => match b {
                b']' if !escaped => state = State::AfterValue,
                b'\\' if !escaped => state = State::Value { escaped: true },
                _ => state = State::Value { escaped: false },
            },
            State::AfterValue => {}
        }
    }
    Ok(())
}

/// Seconds as SGF reals: whole seconds without a fraction, else tenths.
fn seconds(t: f64) -> String {
    if t.fract() == 0.0 {
        format!("{t:.0}")
    } else {
        format!("{t:.1}")
    }
}

/// Escapes SGF text: `]` and `\` get a backslash.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c == ']' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_game_information_moves_and_passes() {
        let g = SgfGame::parse(
            "(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese]HA[2]AB[gc][cg]PB[Li]PW[Wang \\] Jr]\
             DT[2026-11-29]RE[B+3.5]TM[1800]OT[5x30 byo-yomi];W[ee]WL[1790.5];B[]BL[1800]OB[5]\
             ;W[tt]TB[aa][ab]TW[ii])",
        )
        .unwrap();
        assert_eq!(g.size, 9);
        assert_eq!(g.komi, Some(7.5));
        assert_eq!(g.handicap, 2);
        assert_eq!(
            g.black_setup,
            vec![
                Point::from_gtp("C3").unwrap(),
                Point::from_gtp("G7").unwrap()
            ]
        );
        assert_eq!(g.white.as_deref(), Some("Wang ] Jr"));
        assert_eq!(g.result.as_deref(), Some("B+3.5"));
        assert_eq!(g.main_time, Some(1800.0));
        assert_eq!(g.overtime.as_deref(), Some("5x30 byo-yomi"));
        assert_eq!(
            g.moves,
            vec![
                (Color::White, Move::Place(Point::from_gtp("E5").unwrap())),
                (Color::Black, Move::Pass),
                (Color::White, Move::Pass),
            ]
        );
        assert_eq!(
            g.times,
            vec![
                TimeLeft {
                    seconds: Some(1790.5),
                    periods: None
                },
                TimeLeft {
                    seconds: Some(1800.0),
                    periods: Some(5)
                },
            ]
        );
        assert_eq!(g.black_territory.len(), 2);
        assert_eq!(g.white_territory, vec![Point::from_gtp("J1").unwrap()]);
        let again = SgfGame::parse(&g.to_sgf()).unwrap();
        assert_eq!(again, g);
    }

    #[test]
    fn bad_records_get_typed_errors() {
        assert!(matches!(
            SgfGame::parse("not sgf"),
            Err(SgfError::Syntax(_))
        ));
        assert!(matches!(
            SgfGame::parse("(;SZ[30])"),
            Err(SgfError::Size(30, 30))
        ));
        assert!(matches!(
            SgfGame::parse("(;SZ[9]B[jj])"),
            Err(SgfError::OffBoard { .. })
        ));
        assert!(matches!(
            SgfGame::parse("(;SZ[9];B[aa];AB[bb])"),
            Err(SgfError::SetupAfterMoves(_))
        ));
        assert!(matches!(
            SgfGame::parse("(;SZ[19]B[xyz])"),
            Err(SgfError::BadValue(..))
        ));
    }
}
