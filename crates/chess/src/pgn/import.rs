//! Reading PGN files as they come from the world: many games, comments, NAGs,
//! variations, games from a FEN. Every mainline move is checked against the rules;
//! the first one that is not legal ends that game with an error, and reading goes
//! on with the next game.

use std::{
    fmt,
    io::{self, BufRead, BufReader, Read},
    ops::ControlFlow,
};

use pgn_reader::{Outcome as PgnOutcome, RawTag, Reader, SanPlus, Skip, Visitor};
use qiyuan_game::Setup;
use shakmaty::{
    Chess, Color, Position,
    san::{San, SanError},
    uci::UciMove,
};

use crate::{ChessGame, ChessOptions, FenError, PlayedMove, notation::play_san, parse_fen};

/// One game read from PGN, its mainline checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportedGame {
    /// The tag pairs in file order, values unescaped.
    pub tags: Vec<(String, String)>,
    /// Where the game starts: the standard position, or the `FEN` tag's.
    pub setup: Setup,
    /// The mainline; every move legal.
    pub moves: Vec<PlayedMove>,
    /// The result written after the moves (`1-0`, `0-1`, `1/2-1/2`, `*`), or the
    /// `Result` tag's when the movetext has none.
    pub result: String,
}

impl ImportedGame {
    /// The value of a tag, by case-sensitive name.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The moves in UCI, as the table replays them.
    pub fn uci_moves(&self) -> Vec<String> {
        self.moves.iter().map(|m| m.uci.clone()).collect()
    }

    /// The moves in SAN.
    pub fn san_moves(&self) -> Vec<String> {
        self.moves.iter().map(|m| m.san.clone()).collect()
    }

    /// The game replayed to its last position, with the rules' outcome. Records
    /// from the world follow the FIDE Laws, where a threefold repetition goes on
    /// until claimed, so the game is replayed under [`ChessOptions::fide`].
    pub fn to_game(&self) -> Result<ChessGame, String> {
        let game = match &self.setup {
            Setup::Position(fen) => ChessGame::from_fen(fen).map_err(|e| e.to_string())?,
            _ => ChessGame::default(),
        };
        let mut game = game.with_options(&ChessOptions::fide());
        for m in &self.moves {
            game.play(&m.uci).map_err(|e| e.to_string())?;
        }
        Ok(game)
    }
}

/// A game in a PGN file that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnError {
    /// The game's number in the file, from 1.
    pub game: usize,
    /// `White - Black` from the tags, to help find the game.
    pub players: Option<String>,
    pub kind: PgnErrorKind,
}

/// What went wrong in a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PgnErrorKind {
    /// The file could not be read; nothing after this is read.
    Io(String),
    /// The `FEN` tag holds no legal position.
    Fen(FenError),
    /// A variant this crate does not play (Chess960, Crazyhouse, ...).
    Variant(String),
    /// A null move (`--`, `Z0`) in the mainline, as engines and editors write
    /// them for analysis: it is no move in chess, so the game cannot be replayed.
    NullMove { number: u32, color: Color },
    /// The first mainline move that is not legal. `number` is the move number as
    /// the movetext writes it, `color` the side that was to move.
    IllegalMove {
        number: u32,
        color: Color,
        san: String,
        ambiguous: bool,
    },
}

impl fmt::Display for PgnErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnErrorKind::Io(e) => write!(f, "cannot read the file: {e}"),
            PgnErrorKind::Fen(e) => write!(f, "bad FEN tag: {e}"),
            PgnErrorKind::Variant(v) => write!(f, "unsupported variant {v:?}"),
            PgnErrorKind::NullMove { number, color } => {
                let dots = if color.is_white() { "." } else { "..." };
                write!(
                    f,
                    "move {number}{dots} is a null move (--), which chess does not have"
                )
            }
            PgnErrorKind::IllegalMove {
                number,
                color,
                san,
                ambiguous,
            } => {
                let dots = if color.is_white() { "." } else { "..." };
                let why = if *ambiguous { "ambiguous" } else { "illegal" };
                write!(f, "move {number}{dots} {san} is {why}")
            }
        }
    }
}

impl std::error::Error for PgnErrorKind {}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}", self.game)?;
        if let Some(players) = &self.players {
            write!(f, " ({players})")?;
        }
        write!(f, ": {}", self.kind)
    }
}

impl std::error::Error for PgnError {}

/// The longest tag line read (pgn-reader's supported length).
const MAX_TAG_LINE: usize = 4096;

/// Reads every game of a PGN file, one item per game. Variations, comments and
/// NAGs are skipped. Bad games are errors and reading goes on with the next; after
/// an I/O error the iterator ends. A tag value with quotes left unescaped
/// (`[Event "The "Big" Open"]`) is read to its last quote, as python-chess and
/// other readers take it.
pub fn read_games<R: Read>(reader: R) -> Games<R> {
    Games {
        reader: Reader::build(TagQuotes::new(reader))
            .set_supported_tag_line_length(MAX_TAG_LINE)
            .finish(),
        importer: Importer::default(),
        failed: false,
    }
}

/// The games of a PGN file: see [`read_games`].
#[derive(Debug)]
pub struct Games<R> {
    reader: Reader<TagQuotes<R>>,
    importer: Importer,
    failed: bool,
}

/// A reader that escapes the quotes inside tag values that writers forgot to
/// escape, and passes everything else through unchanged. pgn-reader ends a value
/// at its first unescaped quote; the PGN standard (8.1.1) asks writers to escape
/// inner quotes, and readers in the wild take the value to the line's last quote.
#[derive(Debug)]
pub struct TagQuotes<R> {
    inner: BufReader<R>,
    /// A rewritten tag line not yet handed out.
    pending: Vec<u8>,
    pos: usize,
    /// The next byte starts a line.
    line_start: bool,
}

impl<R: Read> TagQuotes<R> {
    fn new(reader: R) -> Self {
        TagQuotes {
            inner: BufReader::new(reader),
            pending: Vec::new(),
            pos: 0,
            line_start: true,
        }
    }
}

impl<R: Read> Read for TagQuotes<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if out.is_empty() {
            return Ok(0);
        }
        if self.pos < self.pending.len() {
            let n = (self.pending.len() - self.pos).min(out.len());
            out[..n].copy_from_slice(&self.pending[self.pos..self.pos + n]);
            self.pos += n;
            return Ok(n);
        }
        let buf = self.inner.fill_buf()?;
        let Some(&first) = buf.first() else {
            return Ok(0);
        };
        if self.line_start && first == b'[' {
            let mut line = Vec::new();
            (&mut self.inner)
                .take(MAX_TAG_LINE as u64)
                .read_until(b'\n', &mut line)?;
            self.line_start = line.ends_with(b"\n");
            self.pending = escape_inner_quotes(line);
            self.pos = 0;
            return self.read(out);
        }
        // A byte order mark before the first tag leaves the line's start there.
        if self.line_start && buf.starts_with(b"\xef\xbb\xbf") {
            let n = 3.min(out.len());
            out[..n].copy_from_slice(&buf[..n]);
            self.inner.consume(n);
            return Ok(n);
        }
        // Anything else passes through, a line (or a buffer) at a time.
        let end = buf
            .iter()
            .position(|&b| b == b'\n')
            .map_or(buf.len(), |i| i + 1)
            .min(out.len());
        out[..end].copy_from_slice(&buf[..end]);
        self.line_start = buf[end - 1] == b'\n';
        self.inner.consume(end);
        Ok(end)
    }
}

/// `[Name "a "b" c"]` becomes `[Name "a \"b\" c"]`; any other line is returned as
/// it is, including lines with several tags (`[White "a"] [Black "b"]`).
fn escape_inner_quotes(line: Vec<u8>) -> Vec<u8> {
    let Some(open) = line.iter().position(|&b| b == b'"') else {
        return line;
    };
    let Some(ket) = line.iter().rposition(|&b| b == b']') else {
        return line;
    };
    let Some(close) = line[..ket].iter().rposition(|&b| b == b'"') else {
        return line;
    };
    let blank = |bytes: &[u8]| bytes.iter().all(u8::is_ascii_whitespace);
    if close <= open || !blank(&line[close + 1..ket]) || !blank(&line[ket + 1..]) {
        return line;
    }
    let value = &line[open + 1..close];
    // Several tags on one line: a quote, a bracket, another tag.
    let several = value.windows(2).enumerate().any(|(i, w)| {
        w[0] == b'"' && {
            let rest = &value[i + 1..];
            let rest = &rest[rest.iter().take_while(|b| b.is_ascii_whitespace()).count()..];
            rest.starts_with(b"]")
        }
    });
    if several {
        return line;
    }
    let mut fixed = Vec::with_capacity(line.len() + 4);
    fixed.extend_from_slice(&line[..=open]);
    let mut escaped = false;
    let mut changed = false;
    for &b in value {
        if b == b'"' && !escaped {
            fixed.push(b'\\');
            changed = true;
        }
        escaped = b == b'\\' && !escaped;
        fixed.push(b);
    }
    if !changed {
        return line;
    }
    fixed.extend_from_slice(&line[close..]);
    fixed
}

impl<R: Read> Iterator for Games<R> {
    type Item = Result<ImportedGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        match self.reader.read_game(&mut self.importer) {
            Ok(game) => game,
            Err(e) => {
                self.failed = true;
                Some(Err(PgnError {
                    game: self.importer.games + 1,
                    players: None,
                    kind: PgnErrorKind::Io(e.to_string()),
                }))
            }
        }
    }
}

#[derive(Debug, Default)]
struct Importer {
    /// Games begun so far.
    games: usize,
}

#[derive(Debug, Default)]
struct Tags {
    tags: Vec<(String, String)>,
    error: Option<PgnErrorKind>,
}

impl Tags {
    fn get(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn players(&self) -> Option<String> {
        match (self.get("White"), self.get("Black")) {
            (None, None) => None,
            (w, b) => Some(format!("{} - {}", w.unwrap_or("?"), b.unwrap_or("?"))),
        }
    }
}

#[derive(Debug)]
struct Movetext {
    tags: Vec<(String, String)>,
    setup: Setup,
    pos: Chess,
    moves: Vec<PlayedMove>,
    result: Option<String>,
    players: Option<String>,
}

/// Variant tag values that mean ordinary chess.
fn is_standard_variant(v: &str) -> bool {
    let v = v.trim().to_ascii_lowercase();
    matches!(
        v.as_str(),
        "" | "standard" | "chess" | "normal" | "from position" | "fromposition"
    )
}

impl Importer {
    fn error(&self, players: Option<String>, kind: PgnErrorKind) -> Result<ImportedGame, PgnError> {
        Err(PgnError {
            game: self.games,
            players,
            kind,
        })
    }
}

impl Visitor for Importer {
    type Tags = Tags;
    type Movetext = Movetext;
    type Output = Result<ImportedGame, PgnError>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Tags> {
        self.games += 1;
        ControlFlow::Continue(Tags::default())
    }

    fn tag(
        &mut self,
        tags: &mut Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        let name = String::from_utf8_lossy(name).into_owned();
        let value = value.decode_utf8_lossy().into_owned();
        // Remember the first problem and report it once all tags (and so the
        // players' names) are known.
        if tags.error.is_none() && name == "Variant" && !is_standard_variant(&value) {
            tags.error = Some(PgnErrorKind::Variant(value.clone()));
        }
        tags.tags.push((name, value));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Tags) -> ControlFlow<Self::Output, Movetext> {
        let players = tags.players();
        if let Some(kind) = tags.error {
            return ControlFlow::Break(self.error(players, kind));
        }
        let (setup, pos) = match tags.get("FEN") {
            Some(fen) => match parse_fen(fen) {
                Ok(pos) => (Setup::Position(fen.trim().to_owned()), pos),
                Err(e) => return ControlFlow::Break(self.error(players, PgnErrorKind::Fen(e))),
            },
            None => (Setup::Standard, Chess::default()),
        };
        ControlFlow::Continue(Movetext {
            tags: tags.tags,
            setup,
            pos,
            moves: Vec::new(),
            result: None,
            players,
        })
    }

    fn san(&mut self, movetext: &mut Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        let pos = &mut movetext.pos;
        if san_plus.san == San::Null {
            let kind = PgnErrorKind::NullMove {
                number: pos.fullmoves().get(),
                color: pos.turn(),
            };
            return ControlFlow::Break(self.error(movetext.players.take(), kind));
        }
        match san_plus.san.to_move(pos) {
            Ok(m) => {
                let uci = UciMove::from_standard(m).to_string();
                let played = play_san(pos, m);
                movetext.moves.push(PlayedMove {
                    uci,
                    san: played.to_string(),
                    capture: m.is_capture(),
                    check: played.suffix.is_some(),
                });
                ControlFlow::Continue(())
            }
            Err(e) => {
                let kind = PgnErrorKind::IllegalMove {
                    number: pos.fullmoves().get(),
                    color: pos.turn(),
                    san: san_plus.to_string(),
                    ambiguous: e == SanError::AmbiguousSan,
                };
                ControlFlow::Break(self.error(movetext.players.take(), kind))
            }
        }
    }

    fn begin_variation(&mut self, _movetext: &mut Movetext) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn outcome(
        &mut self,
        movetext: &mut Movetext,
        outcome: PgnOutcome,
    ) -> ControlFlow<Self::Output> {
        movetext.result = Some(outcome.as_str().to_owned());
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, movetext: Movetext) -> Self::Output {
        let result = movetext
            .result
            .or_else(|| {
                movetext
                    .tags
                    .iter()
                    .find(|(n, _)| n == "Result")
                    .map(|(_, v)| v.trim().to_owned())
            })
            .unwrap_or_else(|| "*".to_owned());
        Ok(ImportedGame {
            tags: movetext.tags,
            setup: movetext.setup,
            moves: movetext.moves,
            result,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixed(line: &str) -> String {
        String::from_utf8(escape_inner_quotes(line.as_bytes().to_vec())).unwrap()
    }

    #[test]
    fn inner_quotes_of_a_tag_value_are_escaped() {
        assert_eq!(
            fixed("[Event \"The \"Big\" Open\"]\n"),
            "[Event \"The \\\"Big\\\" Open\"]\n"
        );
        // Already escaped, well formed, several tags, not a tag: unchanged.
        for line in [
            "[Event \"The \\\"Big\\\" Open\"]\n",
            "[Event \"Open\"]\r\n",
            "[White \"a\"] [Black \"b\"]\n",
            "[White \"a\" ] [Black \"b\"]\n",
            "[%clk 0:01:00] }\n",
            "[Event \"unterminated\n",
        ] {
            assert_eq!(fixed(line), line);
        }
    }
}
