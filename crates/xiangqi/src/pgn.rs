//! Records in the xiangqi PGN dialects: written with `[Game "Chinese Chess"]`, a
//! `[Format]` tag naming the move notation (`ICCS`, `WXF` or `Chinese`), and
//! `[FEN]` for games from a set-up position.
//!
//! Read as the programs in use write them: the game named by `[Game "Chinese
//! Chess"]` (or `Xiangqi`, `象棋`) or by `[Variant "xiangqi"]` (Fairy-Stockfish,
//! pychess), or not named at all; moves in ICCS (`h2e2`, `H2-E2`), WXF (`C2=5`,
//! `C2.5`, tandem pieces as the WXF writes them: `R+.3`, `P3.4`, `33.4`, `++.4`)
//! or Chinese (`炮二平五`, traditional characters and full-width digits too),
//! with or without a `[Format]` tag; move numbers with or without a space
//! (`1. h2e2`, `1.h2e2`, `1...h9g7`, `１．`), annotation glyphs (`!`, `?`, `$1`),
//! comments and variations, and a byte order mark at the start.

use crate::notation::{self, Notation, NotationError};
use crate::position::{FenError, Position};
use crate::types::Move;

/// A record read from PGN: the tags, the start position and the moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// Tags in file order (`Game`, `Format` and `FEN` included).
    pub tags: Vec<(String, String)>,
    pub start: Position,
    pub moves: Vec<Move>,
    /// The result token at the end of the movetext (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub result: Option<String>,
}

impl Record {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Why a record was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PgnError {
    #[error("line {line}: malformed tag")]
    Tag { line: usize },
    #[error("the game is {0:?}, not Chinese Chess")]
    WrongGame(String),
    #[error("the variant is {0:?}, not xiangqi")]
    WrongVariant(String),
    #[error("unknown move format {0:?} (ICCS, WXF or Chinese)")]
    Format(String),
    #[error("bad FEN tag: {0}")]
    Fen(#[from] FenError),
    #[error("move {ply} ({text}): {error}")]
    Move {
        /// 1 for the first move of the record.
        ply: usize,
        text: String,
        error: NotationError,
    },
    #[error("unclosed comment or variation")]
    Unclosed,
}

fn notation_of(format: Option<&str>) -> Result<Option<Notation>, PgnError> {
    let Some(f) = format else { return Ok(None) };
    let f = f.trim();
    let head = f.split([',', ' ']).next().unwrap_or("");
    Ok(Some(match head.to_ascii_uppercase().as_str() {
        "ICCS" => Notation::Iccs,
        "WXF" | "AXF" => Notation::Wxf,
        "CHINESE" | "中文" => Notation::Chinese,
        _ => return Err(PgnError::Format(f.to_string())),
    }))
}

fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.trim().strip_prefix('[')?.strip_suffix(']')?.trim();
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let value = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some((
        name.to_string(),
        value.replace("\\\"", "\"").replace("\\\\", "\\"),
    ))
}

/// Reads one game.
pub fn read(text: &str) -> Result<Record, PgnError> {
    let mut tags = Vec::new();
    let mut movetext = String::new();
    let mut in_moves = false;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if !in_moves && t.starts_with('[') {
            tags.push(parse_tag(t).ok_or(PgnError::Tag { line: i + 1 })?);
        } else if !t.is_empty() || in_moves {
            in_moves |= !t.is_empty();
            movetext.push_str(line);
            movetext.push('\n');
        }
    }
    let find = |n: &str| {
        tags.iter()
            .find(|(k, _): &&(String, String)| k.eq_ignore_ascii_case(n))
            .map(|(_, v)| v.clone())
    };
    if let Some(g) = find("Game") {
        let gl = g.to_ascii_lowercase();
        if !(gl.contains("chinese") || gl.contains("xiangqi") || g.contains("象棋")) {
            return Err(PgnError::WrongGame(g));
        }
    }
    if let Some(v) = find("Variant") {
        let vl = v.trim().to_ascii_lowercase();
        if !(vl.is_empty()
            || vl.contains("xiangqi")
            || vl.contains("chinese")
            || v.contains("象棋"))
        {
            return Err(PgnError::WrongVariant(v));
        }
    }
    let format = notation_of(find("Format").as_deref())?;
    let start = match find("FEN") {
        Some(f) => Position::from_fen(&f)?,
        None => Position::new(),
    };
    let mut pos = start.clone();
    let mut moves = Vec::new();
    let mut result = None;
    for token in tokens(&movetext)? {
        if matches!(token.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
            result = Some(token);
            break;
        }
        if token.starts_with('$') || is_move_number(&token) {
            continue;
        }
        let text = strip_glyphs(strip_number(&token));
        if text.is_empty() {
            continue;
        }
        let parsed = match format {
            Some(n) => n.parse(&pos, text),
            None => notation::parse_any(&pos, text),
        };
        let m = parsed.map_err(|error| PgnError::Move {
            ply: moves.len() + 1,
            text: text.to_string(),
            error,
        })?;
        pos.play_unchecked(m);
        moves.push(m);
    }
    Ok(Record {
        tags,
        start,
        moves,
        result,
    })
}

fn is_move_number(t: &str) -> bool {
    let t = t.trim_end_matches(['.', '．', '。']);
    !t.is_empty()
        && t.chars()
            .all(|c| c.is_ascii_digit() || ('０'..='９').contains(&c))
}

/// `12.h2e2` written without a space: the move after the number. A WXF move
/// that starts with digits and a dot (`33.4`, the middle one of three soldiers
/// on file 3) is a move, not a number.
fn strip_number(t: &str) -> &str {
    if notation::normalize_wxf(t).is_some() {
        return t;
    }
    let rest = t.trim_start_matches(|c: char| c.is_ascii_digit() || ('０'..='９').contains(&c));
    if rest.len() == t.len() {
        return t;
    }
    let moves = rest.trim_start_matches(['.', '．', '。']);
    if moves.len() == rest.len() { t } else { moves }
}

/// Annotation glyphs after a move (`h2e2!`, `C2.5?!`); a WXF check mark stays
/// for the notation to read.
fn strip_glyphs(t: &str) -> &str {
    t.trim_end_matches(['!', '?'])
}

/// Splits movetext into tokens, dropping comments and variations.
fn tokens(text: &str) -> Result<Vec<String>, PgnError> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut depth = 0usize;
    let mut comment = false;
    let mut line_comment = false;
    for ch in text.chars() {
        if line_comment {
            if ch == '\n' {
                line_comment = false;
            }
            continue;
        }
        if comment {
            if ch == '}' {
                comment = false;
            }
            continue;
        }
        match ch {
            '{' => comment = true,
            ';' => line_comment = true,
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            c if c.is_whitespace() => {
                if !cur.is_empty() && depth == 0 {
                    out.push(std::mem::take(&mut cur));
                }
                cur.clear();
            }
            c if depth == 0 => cur.push(c),
            _ => {}
        }
    }
    if comment || depth > 0 {
        return Err(PgnError::Unclosed);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    Ok(out)
}

/// Writes a game. `tags` come first (in order; `Game`, `Format`, `FEN` and
/// `Result` are written by this function and skipped there).
pub fn write(
    tags: &[(String, String)],
    start: &Position,
    moves: &[Move],
    result: &str,
    format: Notation,
) -> String {
    let mut s = String::new();
    s.push_str("[Game \"Chinese Chess\"]\n");
    for (k, v) in tags {
        if ["game", "format", "fen", "result"].contains(&k.to_ascii_lowercase().as_str()) {
            continue;
        }
        s.push_str(&format!(
            "[{k} \"{}\"]\n",
            v.replace('\\', "\\\\").replace('"', "\\\"")
        ));
    }
    s.push_str(&format!("[Result \"{result}\"]\n"));
    if *start != Position::new() {
        s.push_str(&format!("[FEN \"{}\"]\n", start.fen()));
    }
    let fmt = match format {
        Notation::Iccs => "ICCS",
        Notation::Wxf => "WXF",
        Notation::Chinese => "Chinese",
    };
    s.push_str(&format!("[Format \"{fmt}\"]\n\n"));
    let mut pos = start.clone();
    let mut line = String::new();
    for (i, &m) in moves.iter().enumerate() {
        let mut word = String::new();
        if pos.turn() == crate::types::Color::Red {
            word.push_str(&format!("{}. ", pos.fullmoves()));
        } else if i == 0 {
            word.push_str(&format!("{}... ", pos.fullmoves()));
        }
        word.push_str(&match format {
            Notation::Iccs => {
                let t = m.to_string().to_ascii_uppercase();
                format!("{}-{}", &t[..2], &t[2..])
            }
            other => other.format(&pos, m),
        });
        if line.chars().count() + word.chars().count() > 78 {
            s.push_str(line.trim_end());
            s.push('\n');
            line.clear();
        }
        line.push_str(&word);
        line.push(' ');
        pos.play_unchecked(m);
    }
    line.push_str(result);
    s.push_str(line.trim_end());
    s.push('\n');
    s
}
