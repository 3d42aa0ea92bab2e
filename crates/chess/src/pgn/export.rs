//! Writing a game as PGN in export format: the seven tag roster first, then the
//! tags that say more, then the movetext wrapped under 80 columns.

use std::fmt::Write as _;

use qiyuan_game::{EndReason, Game, Outcome, RecordMeta};
use shakmaty::Position;

use crate::ChessGame;

/// The results PGN knows; anything else is written as unknown.
const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Writes `game` as PGN. The outcome is the table's (`meta.outcome`: resignation,
/// time, agreement) when given, else the rules' own; `meta.clocks` become
/// `[%clk h:mm:ss]` comments after each move. Tags beyond the seven: `WhiteElo`
/// and `BlackElo` where ratings are given, `UTCDate`/`UTCTime` from `meta.start`,
/// `Annotator`, `TimeControl`, `Termination`, and `Variant "From Position"` with
/// `SetUp`/`FEN` for a game from another position.
pub fn write(game: &ChessGame, meta: &RecordMeta) -> String {
    let outcome = meta.outcome.clone().or_else(|| game.outcome());
    let result = outcome
        .as_ref()
        .map(|o| o.score.as_str())
        .filter(|s| RESULTS.contains(s))
        .unwrap_or("*");

    let mut out = String::new();
    let unknown = |v: &Option<String>| v.clone().unwrap_or_else(|| "?".into());
    let player = |i: usize| {
        meta.players
            .get(i)
            .filter(|p| !p.is_empty())
            .cloned()
            .unwrap_or_else(|| "?".into())
    };
    tag(&mut out, "Event", &unknown(&meta.event));
    tag(&mut out, "Site", &unknown(&meta.site));
    let date = meta
        .date
        .clone()
        .or_else(|| meta.start.map(|t| t.pgn_date()))
        .unwrap_or_else(|| "????.??.??".into());
    tag(&mut out, "Date", &date);
    tag(&mut out, "Round", &unknown(&meta.round));
    tag(&mut out, "White", &player(0));
    tag(&mut out, "Black", &player(1));
    tag(&mut out, "Result", result);
    for (name, i) in [("WhiteElo", 0), ("BlackElo", 1)] {
        if let Some(Some(elo)) = meta.ratings.get(i) {
            tag(&mut out, name, &elo.to_string());
        }
    }
    if let Some(start) = meta.start {
        tag(&mut out, "UTCDate", &start.pgn_date());
        tag(&mut out, "UTCTime", &start.time());
    }
    if let Some(annotator) = meta.annotator.as_deref().filter(|a| !a.is_empty()) {
        tag(&mut out, "Annotator", annotator);
    }
    // "-" is PGN's word for a game without a time control.
    tag(
        &mut out,
        "TimeControl",
        &meta
            .time_control
            .map_or_else(|| "-".to_string(), |t| t.pgn_tag()),
    );
    // A clock PGN has no form for (QQ's): `?` above, its settings here.
    if let Some((name, value)) = meta.time_control.and_then(|t| t.pgn_detail_tag()) {
        tag(&mut out, name, &value);
    }
    tag(&mut out, "Termination", termination(outcome.as_ref()));
    if let Some(fen) = game.start_fen() {
        // Standard chess from another position, as Lichess and python-chess write
        // it: `Variant` says so, `SetUp` and `FEN` give the position.
        tag(&mut out, "Variant", "From Position");
        tag(&mut out, "SetUp", "1");
        tag(&mut out, "FEN", fen);
    }
    out.push('\n');

    let start = game.start_position();
    // Wider than the position's counter: a FEN may start at move 4294967295.
    let mut number = u64::from(start.fullmoves().get());
    let mut white = start.turn().is_white();
    let mut tokens: Vec<String> = Vec::with_capacity(game.moves().len() * 2 + 1);
    // Black's move needs its number after a comment or at the very start.
    let mut needs_number = true;
    // The table gives a clock for each move it saw; the moves of a loaded record
    // come before those and have none.
    let offset = game.moves().len().saturating_sub(meta.clocks.len());
    for (ply, m) in game.moves().iter().enumerate() {
        // A move number stays on the line of its move.
        tokens.push(if white {
            format!("{number}. {}", m.san)
        } else if needs_number {
            format!("{number}... {}", m.san)
        } else {
            m.san.clone()
        });
        needs_number = false;
        if let Some(Some(ms)) = ply.checked_sub(offset).and_then(|i| meta.clocks.get(i)) {
            tokens.push(format!("{{ [%clk {}] }}", clock(*ms)));
            needs_number = true;
        }
        if !white {
            number += 1;
        }
        white = !white;
    }
    tokens.push(result.to_owned());

    let mut line_len = 0;
    for token in tokens {
        if line_len > 0 && line_len + 1 + token.len() > 79 {
            out.push('\n');
            line_len = 0;
        }
        if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(&token);
        line_len += token.len();
    }
    out.push_str("\n\n");
    out
}

fn tag(out: &mut String, name: &str, value: &str) {
    let mut escaped = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' | '"' => {
                escaped.push('\\');
                escaped.push(c);
            }
            // A tag pair is one line.
            '\n' | '\r' | '\t' => escaped.push(' '),
            c => escaped.push(c),
        }
    }
    let _ = writeln!(out, "[{name} \"{escaped}\"]");
}

/// The PGN `Termination` tag's words (PGN standard 9.8.1).
fn termination(outcome: Option<&Outcome>) -> &'static str {
    let Some(outcome) = outcome else {
        return "unterminated";
    };
    match outcome.reason {
        EndReason::Timeout => "time forfeit",
        EndReason::Escape | EndReason::Aborted => "abandoned",
        EndReason::Adjudication => "adjudication",
        EndReason::Fouls | EndReason::Violations => "rules infraction",
        _ => "normal",
    }
}

/// Milliseconds as `h:mm:ss`, rounded down as clocks are read.
fn clock(ms: u64) -> String {
    let s = ms / 1000;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_are_hours_minutes_seconds() {
        assert_eq!(clock(0), "0:00:00");
        assert_eq!(clock(59_999), "0:00:59");
        assert_eq!(clock(3_600_000 + 61_000), "1:01:01");
    }

    #[test]
    fn tags_escape_quotes_and_backslashes() {
        let mut s = String::new();
        tag(&mut s, "White", "a \"b\" \\ c\nd");
        assert_eq!(s, "[White \"a \\\"b\\\" \\\\ c d\"]\n");
    }
}
