//! Xiangqi over UCI (Fairy-Stockfish's dialect) or UCCI: the built-in engine's
//! positions, moves and searches, and the two dialects' notations.

use super::*;
use qiyuan_engine_xiangqi::qiyuan_xiangqi::{Color, Move, Position, Square};
use qiyuan_engine_xiangqi::{Limits, Score, Searcher};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dialect {
    /// Fairy-Stockfish's UCI: ranks 1–10.
    Uci,
    /// UCCI: ICCS, ranks 0–9.
    Ucci,
}

/// A square in the dialect's coordinates: `e1`..`e10` (UCI) or `e0`..`e9`.
fn parse_square(text: &str, d: Dialect) -> Option<(Square, usize)> {
    let b = text.as_bytes();
    let file = b.first()?.to_ascii_lowercase().checked_sub(b'a')?;
    let digits = b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 || digits > 2 {
        return None;
    }
    let n: u8 = text[1..1 + digits].parse().ok()?;
    let rank = match d {
        Dialect::Uci => n.checked_sub(1)?,
        Dialect::Ucci => n,
    };
    Some((Square::try_new(file, rank)?, 1 + digits))
}

fn parse_move(text: &str, d: Dialect) -> Option<Move> {
    let (from, used) = parse_square(text, d)?;
    let (to, used2) = parse_square(&text[used..], d)?;
    (used + used2 == text.len()).then(|| Move::new(from, to))
}

fn move_text(m: Move, d: Dialect) -> String {
    match d {
        Dialect::Ucci => m.to_string(),
        Dialect::Uci => {
            let sq = |s: Square| format!("{}{}", (b'a' + s.file()) as char, s.rank() + 1);
            format!("{}{}", sq(m.from()), sq(m.to()))
        }
    }
}

fn score_text(s: Score, d: Dialect) -> String {
    match (s, d) {
        (Score::Cp(cp), Dialect::Uci) => format!("cp {cp}"),
        (Score::Mate(m), Dialect::Uci) => format!("mate {m}"),
        (Score::Cp(cp), Dialect::Ucci) => format!("{cp}"),
        // UCCI has no mate score: a large number, by distance.
        (Score::Mate(m), Dialect::Ucci) => {
            format!("{}", if m > 0 { 30_000 - m } else { -30_000 - m })
        }
    }
}

/// `position startpos|fen … [moves …]`: the start and the moves after it.
fn parse_position(words: &[&str], d: Dialect) -> Result<(Position, Vec<Move>), String> {
    let mi = words
        .iter()
        .position(|w| *w == "moves")
        .unwrap_or(words.len());
    let start = match words.get(1) {
        Some(&"startpos") => Position::new(),
        Some(&"fen") => {
            let text = words[2..mi].join(" ");
            Position::from_fen(&text).map_err(|e| format!("bad FEN {text:?}: {e}"))?
        }
        _ => return Err("position needs startpos or fen".into()),
    };
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for text in words.get(mi + 1..).unwrap_or(&[]) {
        let m = parse_move(text, d).ok_or_else(|| format!("bad move {text}"))?;
        pos.play(m).map_err(|_| format!("illegal move {text}"))?;
        moves.push(m);
    }
    Ok((start, moves))
}

/// Xiangqi over UCI (Fairy-Stockfish's) or UCCI: the game's start, its
/// moves, and the root moves `banmoves` forbids.
struct Game {
    dialect: Dialect,
    start: Position,
    moves: Vec<Move>,
    banned: Vec<Move>,
}

impl UciGame for Game {
    type Searcher = Searcher;

    fn searcher(hash_mb: usize) -> Searcher {
        Searcher::new(hash_mb)
    }

    fn clear(s: &mut Searcher) {
        s.clear();
    }

    fn resize(s: &mut Searcher, hash_mb: usize) {
        s.resize(hash_mb);
    }

    fn greet(&mut self, command: &str) -> Option<Vec<&'static str>> {
        match command {
            "uci" => {
                self.dialect = Dialect::Uci;
                Some(vec![
                    "id name qiyuan xiangqi",
                    "id author the qiyuan authors",
                    "option name UCI_Variant type combo default xiangqi var xiangqi",
                    "option name Level type spin default 8 min 1 max 8",
                    "option name Hash type spin default 64 min 1 max 4096",
                    "option name MultiPV type spin default 1 min 1 max 64",
                    "option name Ponder type check default false",
                    "uciok",
                ])
            }
            "ucci" => {
                self.dialect = Dialect::Ucci;
                Some(vec![
                    "id name qiyuan xiangqi",
                    "id author the qiyuan authors",
                    "option level type spin min 1 max 8 default 8",
                    "option hashsize type spin min 1 max 4096 default 64",
                    "ucciok",
                ])
            }
            _ => None,
        }
    }

    fn is_hash_option(name: &str) -> bool {
        name == "hash" || name == "hashsize"
    }

    fn other_option(&self, name: &str, value: &str) -> Option<String> {
        // Fairy-Stockfish's variant key is the game's name.
        (name == "uci_variant" && value != <qiyuan_xiangqi::Xiangqi as qiyuan_game::Game>::NAME)
            .then(|| format!("info string only xiangqi, not {value}"))
    }

    fn position(&mut self, words: &[&str]) -> Result<(), String> {
        (self.start, self.moves) = parse_position(words, self.dialect)?;
        self.banned.clear();
        Ok(())
    }

    fn command(&mut self, words: &[&str]) -> bool {
        match words[0] {
            "banmoves" => {
                self.banned = words[1..]
                    .iter()
                    .filter_map(|t| parse_move(t, self.dialect))
                    .collect();
                true
            }
            "probe" => true,
            _ => false,
        }
    }

    fn mover(&self) -> usize {
        let black_first = self.start.turn() == Color::Black;
        usize::from(black_first != self.moves.len().is_multiple_of(2))
    }

    fn plies(&self) -> usize {
        self.moves.len()
    }

    fn job(
        &mut self,
        level: Level,
        seed: u64,
        depth: Option<u32>,
        nodes: Option<u64>,
        lines: usize,
    ) -> Job<Searcher> {
        let mut limits: Limits = level.limits(seed);
        limits.banned = std::mem::take(&mut self.banned);
        narrowed(&mut limits.depth, &mut limits.nodes, depth, nodes);
        let (s0, ms, d) = (self.start.clone(), self.moves.clone(), self.dialect);
        Box::new(move |s: &mut Searcher, stop: &AtomicBool, report| {
            let mut first = None;
            for multipv in 1..=lines.max(1) {
                if multipv > 1 && stop.load(Ordering::Relaxed) {
                    break;
                }
                let r = s.search(&s0, &ms, &limits, stop, &mut |info| {
                    report(InfoLine {
                        multipv,
                        depth: info.depth,
                        seldepth: info.seldepth,
                        score: score_text(info.score, d),
                        nodes: info.nodes,
                        pv: info.pv.iter().map(|m| move_text(*m, d)).collect(),
                    })
                });
                // The next line leaves out this one's move, as `banmoves` does.
                let Some(best) = r.best else { break };
                limits.banned.push(best);
                first.get_or_insert(r);
            }
            match (first.and_then(|r| r.best.map(|b| (b, r.pv))), d) {
                (Some((m, pv)), _) => bestmove_line(
                    &move_text(m, d),
                    &pv.iter().map(|m| move_text(*m, d)).collect::<Vec<_>>(),
                ),
                (None, Dialect::Ucci) => "nobestmove".into(),
                (None, Dialect::Uci) => "bestmove (none)".into(),
            }
        })
    }

    fn farewell(&self) -> Option<&'static str> {
        (self.dialect == Dialect::Ucci).then_some("bye")
    }
}

pub fn run(
    args: &Args,
    lines: impl Iterator<Item = std::io::Result<String>>,
) -> anyhow::Result<()> {
    let mut game = Game {
        dialect: Dialect::Uci,
        start: Position::new(),
        moves: Vec::new(),
        banned: Vec::new(),
    };
    serve(&mut game, args, lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fairy_stockfish_ranks_are_one_above_iccs() {
        let m = parse_move("h3e3", Dialect::Uci).expect("move");
        assert_eq!(m.to_string(), "h2e2");
        assert_eq!(move_text(m, Dialect::Uci), "h3e3");
        let top = parse_move("a10a9", Dialect::Uci).expect("move");
        assert_eq!(top.to_string(), "a9a8");
        assert_eq!(move_text(top, Dialect::Uci), "a10a9");
        assert_eq!(
            parse_move("h2e2", Dialect::Ucci).map(|m| m.to_string()),
            Some("h2e2".into())
        );
        assert_eq!(parse_move("a0a10", Dialect::Ucci), None);
        assert_eq!(parse_move("a11a1", Dialect::Uci), None);
        assert_eq!(parse_move("a0a1", Dialect::Uci), None);
        assert_eq!(parse_move("j1a1", Dialect::Uci), None);
        assert_eq!(parse_move("a1a", Dialect::Uci), None);
    }
}
