//! Chess over UCI: the built-in engine's positions, moves and searches.

use super::*;
use qiyuan_engine_chess::shakmaty::fen::Fen;
use qiyuan_engine_chess::shakmaty::uci::UciMove;
use qiyuan_engine_chess::shakmaty::{CastlingMode, Chess, Color, Move, Position};
use qiyuan_engine_chess::{Limits, Score, Searcher, hash};

fn score_text(s: Score) -> String {
    match s {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(m) => format!("mate {m}"),
    }
}

/// `position startpos|fen … [moves …]`: the position and the hashes before it.
fn parse_position(words: &[&str]) -> Result<(Chess, Vec<u64>), String> {
    let mi = words
        .iter()
        .position(|w| *w == "moves")
        .unwrap_or(words.len());
    let mut pos = match words.get(1) {
        Some(&"startpos") => Chess::default(),
        Some(&"fen") => {
            let text = words[2..mi].join(" ");
            let fen: Fen = text.parse().map_err(|e| format!("bad FEN {text:?}: {e}"))?;
            fen.into_position(CastlingMode::Standard)
                .map_err(|e| format!("impossible position {text:?}: {e}"))?
        }
        _ => return Err("position needs startpos or fen".into()),
    };
    let mut history = Vec::new();
    for text in words.get(mi + 1..).unwrap_or(&[]) {
        let m = UciMove::from_ascii(text.as_bytes())
            .ok()
            .and_then(|u| u.to_move(&pos).ok())
            .ok_or_else(|| format!("illegal move {text}"))?;
        history.push(hash(&pos));
        pos.play_unchecked(m);
    }
    Ok((pos, history))
}

/// Chess over UCI: the position and the hashes of the game before it.
struct Game {
    pos: Chess,
    history: Vec<u64>,
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
        (command == "uci").then(|| {
            vec![
                "id name qiyuan chess",
                "id author the qiyuan authors",
                "option name Level type spin default 8 min 1 max 8",
                "option name Hash type spin default 64 min 1 max 4096",
                "option name MultiPV type spin default 1 min 1 max 64",
                "option name Ponder type check default false",
                "uciok",
            ]
        })
    }

    fn is_hash_option(name: &str) -> bool {
        name == "hash"
    }

    fn other_option(&self, name: &str, _value: &str) -> Option<String> {
        Some(format!("info string unknown option {name}"))
    }

    fn position(&mut self, words: &[&str]) -> Result<(), String> {
        (self.pos, self.history) = parse_position(words)?;
        Ok(())
    }

    fn command(&mut self, _words: &[&str]) -> bool {
        false
    }

    fn mover(&self) -> usize {
        usize::from(self.pos.turn() == Color::Black)
    }

    fn plies(&self) -> usize {
        self.history.len()
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
        narrowed(&mut limits.depth, &mut limits.nodes, depth, nodes);
        let (p, h) = (self.pos.clone(), self.history.clone());
        Box::new(move |s: &mut Searcher, stop: &AtomicBool, report| {
            let text = |m: &Move| UciMove::from_standard(*m).to_string();
            let mut excluded: Vec<Move> = Vec::new();
            let mut first = None;
            for multipv in 1..=lines.max(1) {
                if multipv > 1 && stop.load(Ordering::Relaxed) {
                    break;
                }
                let r = s.search_excluding(&p, &h, &excluded, &limits, stop, &mut |info| {
                    report(InfoLine {
                        multipv,
                        depth: info.depth,
                        seldepth: info.seldepth,
                        score: score_text(info.score),
                        nodes: info.nodes,
                        pv: info.pv.iter().map(text).collect(),
                    })
                });
                let Some(best) = r.best else { break };
                excluded.push(best);
                first.get_or_insert(r);
            }
            match first {
                Some(r) => match r.best {
                    Some(m) => bestmove_line(&text(&m), &r.pv.iter().map(text).collect::<Vec<_>>()),
                    None => "bestmove 0000".into(),
                },
                None => "bestmove 0000".into(),
            }
        })
    }

    fn farewell(&self) -> Option<&'static str> {
        None
    }
}

pub fn run(
    args: &Args,
    lines: impl Iterator<Item = std::io::Result<String>>,
) -> anyhow::Result<()> {
    let mut game = Game {
        pos: Chess::default(),
        history: Vec::new(),
    };
    serve(&mut game, args, lines)
}
