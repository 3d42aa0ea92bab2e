//! The CSV export for clubs.

use std::fmt::Write;

use crate::{Occupant, SeatScore, Standing};

/// One line per seat of every hand scored: `board,table,seat,player,deal,points,matchpoints,top`
/// (boards and tables counted from 1, seats from 0 as the game numbers them),
/// with a header line. `name` names an occupant.
pub fn csv(scores: &[SeatScore], name: impl Fn(Occupant) -> String) -> String {
    let mut out = String::from("board,table,seat,player,deal,points,matchpoints,top\n");
    for s in scores {
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{}",
            s.board + 1,
            s.table + 1,
            s.seat,
            field(&name(s.occupant)),
            s.deal,
            s.points,
            s.matchpoints,
            s.top
        );
    }
    out
}

/// One line per player in rank order: `rank,player,matchpoints,top,percent,points,boards`.
pub fn csv_standings(standings: &[Standing], name: impl Fn(usize) -> String) -> String {
    let mut out = String::from("rank,player,matchpoints,top,percent,points,boards\n");
    for s in standings {
        let _ = writeln!(
            out,
            "{},{},{},{},{:.2},{},{}",
            s.rank,
            field(&name(s.player)),
            s.matchpoints,
            s.top,
            s.percent(),
            s.points,
            s.boards
        );
    }
    out
}

/// A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line
/// break, quotes doubled; a leading `=`, `+`, `-` or `@` is prefixed with `'` so
/// that a spreadsheet does not take a name for a formula.
fn field(text: &str) -> String {
    let text = if text.starts_with(['=', '+', '-', '@']) {
        format!("'{text}")
    } else {
        text.to_string()
    };
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_quoted_and_defused() {
        assert_eq!(field("李雷"), "李雷");
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(field("=SUM(A1)"), "'=SUM(A1)");
    }

    #[test]
    fn lines() {
        let s = SeatScore {
            board: 0,
            table: 1,
            seat: 2,
            occupant: Occupant::Computer,
            deal: 0,
            points: -4,
            matchpoints: 1,
            top: 2,
        };
        let text = csv(&[s], |o| match o {
            Occupant::Player(i) => format!("p{i}"),
            Occupant::Computer => "computer, seat 2".into(),
        });
        assert_eq!(
            text,
            "board,table,seat,player,deal,points,matchpoints,top\n1,2,2,\"computer, seat 2\",0,-4,1,2\n"
        );
    }
}
