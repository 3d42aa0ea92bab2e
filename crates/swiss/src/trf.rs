//! FIDE's Tournament Report File (TRF-16) with the `XXR` (number of rounds) and
//! `XXC` (initial colour) extensions that pairing programs read.
//!
//! Player lines (`001`) are read by column as TRF-16 defines them; every other
//! line is kept as written so that a file read and written again is unchanged.
//! Bad input gives a [`TrfError`] naming the line, never a panic.
//!
//! A file is bounded ([`MAX_BYTES`], [`MAX_PLAYERS`], [`MAX_ROUNDS`]) so that
//! what reads it ends in a time and memory one can wait for: pairing is
//! quadratic or worse in the players (measured on the 2-core build machine,
//! round 9 of 11: 1,000 players in 0.4 s and 38 MB, 2,000 in 1.6 s and 125 MB,
//! 5,000 in 19 s and 700 MB; 10,000 ran past a minute).

use crate::model::{
    Colour, ColourMark, OpponentField, Player, Record, ResultCode, RoundEntry, Tournament,
};

/// Why a TRF file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}")]
pub struct TrfError {
    /// The line, from 1.
    pub line: usize,
    pub kind: TrfErrorKind,
}

/// What was wrong with a line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TrfErrorKind {
    #[error("the starting rank (columns 5-8) is not a positive number")]
    StartRank,
    #[error("the rating (columns 49-52) is not a number")]
    Rating,
    #[error("the points (columns 81-84) are not a number like 2.5, at most 99.9")]
    Points,
    #[error("the rank (columns 86-89) is not a number")]
    Rank,
    #[error("round {0}: the opponent is not a starting rank")]
    Opponent(usize),
    #[error("round {0}: the colour must be w, b, - or blank")]
    Colour(usize),
    #[error("round {0}: unknown result code")]
    Result(usize),
    #[error("round {0}: a player cannot meet themselves")]
    SelfOpponent(usize),
    #[error("round {0}: text between the round columns")]
    Layout(usize),
    #[error("starting rank {0} appears twice")]
    DuplicateStartRank(u32),
    #[error("XXR must give the number of rounds")]
    Rounds,
    #[error(
        "more than {MAX_PLAYERS} players: larger fields are not read (pairing them takes minutes and gigabytes)"
    )]
    TooManyPlayers,
    #[error("more than {MAX_ROUNDS} rounds: longer events are not read")]
    TooManyRounds,
    #[error("the file is larger than {} MiB: larger files are not read", MAX_BYTES >> 20)]
    TooLarge,
}

/// The most players a file may hold: more than any Swiss section we know of
/// (large opens have hundreds, a few a couple of thousand), while a round of
/// 5,000 still pairs in about 20 s and under 1 GB (see the module's note).
pub const MAX_PLAYERS: usize = 5_000;

/// The most rounds a file may hold, in `XXR` or in a player's line: Lichess's
/// Swiss events go to 100 rounds (the hall's own, to 50).
pub const MAX_ROUNDS: usize = 100;

/// The most bytes a file may hold: 5,000 players' lines of 100 rounds are
/// 5.4 MB, so 8 MiB leaves room for the other lines.
pub const MAX_BYTES: usize = 8 << 20;

/// Reads a TRF-16 file of at most [`MAX_BYTES`], [`MAX_PLAYERS`] and
/// [`MAX_ROUNDS`]; past a bound the error names the line that crosses it.
pub fn parse(text: &str) -> Result<Tournament, TrfError> {
    let mut t = Tournament::default();
    if text.len() > MAX_BYTES {
        // The line that holds the first byte too many.
        let newlines = text.as_bytes()[..MAX_BYTES]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        return Err(TrfError {
            line: newlines + 1,
            kind: TrfErrorKind::TooLarge,
        });
    }
    let mut ranks = std::collections::HashSet::new();
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let err = |kind| TrfError {
            line: line_no,
            kind,
        };
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if line.starts_with("001") {
            if t.players.len() == MAX_PLAYERS {
                return Err(err(TrfErrorKind::TooManyPlayers));
            }
            let player = parse_player(line).map_err(err)?;
            if !ranks.insert(player.start_rank) {
                return Err(err(TrfErrorKind::DuplicateStartRank(player.start_rank)));
            }
            t.players.push(player);
            t.records.push(Record::Player(t.players.len() - 1));
            continue;
        }
        if let Some(rest) = line.strip_prefix("XXR") {
            let n: u32 = rest.trim().parse().map_err(|_| err(TrfErrorKind::Rounds))?;
            if n as usize > MAX_ROUNDS {
                return Err(err(TrfErrorKind::TooManyRounds));
            }
            t.total_rounds = Some(n);
        } else if let Some(rest) = line.strip_prefix("XXC") {
            for token in rest.split_whitespace() {
                match token {
                    "white1" => t.initial_colour = Some(Colour::White),
                    "black1" => t.initial_colour = Some(Colour::Black),
                    _ => {}
                }
            }
        }
        t.records.push(Record::Other(line.to_string()));
    }
    Ok(t)
}

/// The characters of `line` from column `from` (0-based) for `len` characters,
/// blank-padded past the end.
fn field(chars: &[char], from: usize, len: usize) -> String {
    (from..from + len)
        .map(|i| chars.get(i).copied().unwrap_or(' '))
        .collect()
}

fn parse_number(s: &str) -> Option<Option<u32>> {
    let s = s.trim();
    if s.is_empty() {
        return Some(None);
    }
    if !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok().map(Some)
}

/// Reads points such as `2`, `2.5` or `2.50` into tenths.
pub(crate) fn parse_points(s: &str) -> Option<u32> {
    let s = s.trim();
    if s.is_empty() {
        return Some(0);
    }
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i, f),
        None => (s, ""),
    };
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    if !int.bytes().all(|b| b.is_ascii_digit()) || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let whole: u32 = if int.is_empty() { 0 } else { int.parse().ok()? };
    let mut digits = frac.bytes();
    let tenth = digits.next().map_or(0, |b| u32::from(b - b'0'));
    if digits.any(|b| b != b'0') {
        return None;
    }
    whole.checked_mul(10)?.checked_add(tenth)
}

/// The most points the four columns 81-84 hold as TRF writes them (`11.5`), in
/// tenths: 99.9. More (a bare `692`) would read but could not be written back.
const MAX_POINTS: u32 = 999;

fn parse_player(line: &str) -> Result<Player, TrfErrorKind> {
    let chars: Vec<char> = line.chars().collect();
    let start_rank = match parse_number(&field(&chars, 4, 4)) {
        Some(Some(n)) if n > 0 => n,
        _ => return Err(TrfErrorKind::StartRank),
    };
    let rating = parse_number(&field(&chars, 48, 4)).ok_or(TrfErrorKind::Rating)?;
    let points = parse_points(&field(&chars, 80, 4))
        .filter(|&p| p <= MAX_POINTS)
        .ok_or(TrfErrorKind::Points)?;
    let rank = parse_number(&field(&chars, 85, 4)).ok_or(TrfErrorKind::Rank)?;
    let mut rounds = Vec::new();
    let mut at = 89;
    let mut round = 1;
    while at < chars.len() {
        let block = field(&chars, at, 10);
        if round > MAX_ROUNDS && !block.trim().is_empty() {
            return Err(TrfErrorKind::TooManyRounds);
        }
        let b: Vec<char> = block.chars().collect();
        if b[0] != ' ' || b[1] != ' ' || b[6] != ' ' || b[8] != ' ' {
            return Err(TrfErrorKind::Layout(round));
        }
        let opp_text: String = b[2..6].iter().collect();
        let opponent = if opp_text.trim().is_empty() {
            OpponentField::Blank
        } else {
            match parse_number(&opp_text) {
                Some(Some(0)) => OpponentField::None,
                Some(Some(n)) if n == start_rank => return Err(TrfErrorKind::SelfOpponent(round)),
                Some(Some(n)) => OpponentField::Player(n),
                _ => return Err(TrfErrorKind::Opponent(round)),
            }
        };
        let colour = match b[7] {
            'w' | 'W' => ColourMark::White,
            'b' | 'B' => ColourMark::Black,
            '-' => ColourMark::Dash,
            ' ' => ColourMark::Blank,
            _ => return Err(TrfErrorKind::Colour(round)),
        };
        let result = ResultCode::from_char(b[9]).ok_or(TrfErrorKind::Result(round))?;
        rounds.push(RoundEntry {
            opponent,
            colour,
            result,
        });
        at += 10;
        round += 1;
    }
    while rounds.last().is_some_and(RoundEntry::is_blank) {
        rounds.pop();
    }
    let text = |from, len| field(&chars, from, len).trim().to_string();
    Ok(Player {
        start_rank,
        sex: chars.get(9).copied().unwrap_or(' '),
        title: text(10, 3),
        name: text(14, 33),
        rating,
        federation: text(53, 3),
        fide_id: text(57, 11),
        birth_date: text(69, 10),
        points,
        rank,
        rounds,
        withdrawn: false,
    })
}

/// Writes the tournament as a TRF-16 file.
pub fn write(t: &Tournament) -> String {
    let mut out = String::new();
    let mut written = vec![false; t.players.len()];
    for record in &t.records {
        match record {
            Record::Other(line) => out.push_str(line),
            Record::Player(i) => match t.players.get(*i) {
                Some(p) => {
                    written[*i] = true;
                    out.push_str(&player_line(p));
                }
                None => continue,
            },
        }
        out.push('\n');
    }
    // Players added without a record still belong in the file.
    for (p, done) in t.players.iter().zip(written) {
        if !done {
            out.push_str(&player_line(p));
            out.push('\n');
        }
    }
    out
}

fn player_line(p: &Player) -> String {
    let opt = |v: Option<u32>| v.map(|n| n.to_string()).unwrap_or_default();
    let mut s = format!(
        "001 {:>4} {}{:>3} {:<33} {:>4} {:>3} {:>11} {:>10} {:>4} {:>4}",
        p.start_rank,
        p.sex,
        p.title,
        p.name,
        opt(p.rating),
        p.federation,
        p.fide_id,
        p.birth_date,
        crate::model::Points(p.points),
        opt(p.rank),
    );
    let last = p
        .rounds
        .iter()
        .rposition(|e| !e.is_blank())
        .map_or(0, |i| i + 1);
    for e in &p.rounds[..last] {
        let opp = match e.opponent {
            OpponentField::Blank => "    ".to_string(),
            OpponentField::None => "0000".to_string(),
            OpponentField::Player(n) => format!("{n:>4}"),
        };
        let colour = match e.colour {
            ColourMark::White => 'w',
            ColourMark::Black => 'b',
            ColourMark::Dash => '-',
            ColourMark::Blank => ' ',
        };
        s.push_str(&format!("  {opp} {colour} {}", e.result.as_char()));
    }
    s.truncate(s.trim_end().len());
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "012 Test\nXXR 3\nXXC white1\n\
001    1      A                                 2000                             1.0    1     2 w 1\n\
001    2      B                                 1900                             0.0    2     1 b 0\n";

    #[test]
    fn reads_and_writes_back() {
        let t = parse(SMALL).unwrap();
        assert_eq!(t.total_rounds, Some(3));
        assert_eq!(t.initial_colour, Some(Colour::White));
        assert_eq!(t.players.len(), 2);
        assert_eq!(t.players[0].points, 10);
        assert_eq!(t.players[1].rounds[0].opponent(), Some(1));
        assert_eq!(write(&t), SMALL);
    }

    #[test]
    fn typed_errors() {
        let bad = "001    x      A";
        assert_eq!(parse(bad).unwrap_err().kind, TrfErrorKind::StartRank);
        let bad = "001    1      A                                 2000                             1.0    1     1 w 1";
        assert_eq!(parse(bad).unwrap_err().kind, TrfErrorKind::SelfOpponent(1));
        let bad = "001    1      A                                 2000                             1.0    1     2 x 1";
        assert_eq!(parse(bad).unwrap_err().kind, TrfErrorKind::Colour(1));
        assert_eq!(parse("XXR x").unwrap_err().kind, TrfErrorKind::Rounds);
    }

    #[test]
    fn points() {
        assert_eq!(parse_points("2.5"), Some(25));
        assert_eq!(parse_points(" 10"), Some(100));
        assert_eq!(parse_points("1.50"), Some(15));
        assert_eq!(parse_points("1.55"), None);
        assert_eq!(parse_points("."), None);
    }
}
