//! TRF-16: every file of the data folders reads and writes back unchanged, and
//! no input at all makes the reader panic.

use std::path::Path;

use proptest::prelude::*;

const DIRS: [&str; 2] = [
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data/swiss-dutch"
    ),
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data/swiss-dutch-large"
    ),
];

#[test]
fn every_data_file_round_trips() {
    let mut checked = 0;
    for dir in DIRS {
        let dir = Path::new(dir);
        assert!(
            dir.is_dir(),
            "missing reference data folder {}",
            dir.display()
        );
        for entry in std::fs::read_dir(dir).expect("readable data folder") {
            let path = entry.expect("directory entry").path();
            if path.extension().is_none_or(|e| e != "trf") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("readable TRF");
            let normalised: String = text
                .lines()
                .map(|l| format!("{}\n", l.trim_end()))
                .collect();
            let t = qiyuan_swiss::trf::parse(&text)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let written = qiyuan_swiss::trf::write(&t);
            assert_eq!(written, normalised, "{} changed on writing", path.display());
            let again = qiyuan_swiss::trf::parse(&written).expect("written file reads");
            assert_eq!(again, t, "{} reads differently", path.display());
            checked += 1;
        }
    }
    println!("TRF round trip: {checked} files");
    assert!(checked >= 832);
}

proptest! {
    #[test]
    fn arbitrary_text_never_panics(s in ".{0,400}") {
        let _ = qiyuan_swiss::trf::parse(&s);
    }

    #[test]
    fn arbitrary_player_lines_never_panic(tail in "[ 0-9wbWBLDHFUZ=+\\-.x]{0,200}") {
        let line = format!("001 {tail}");
        if let Ok(t) = qiyuan_swiss::trf::parse(&line) {
            // Whatever was read can be written and read again, and paired
            // without a panic.
            let again = qiyuan_swiss::trf::parse(&qiyuan_swiss::trf::write(&t));
            prop_assert!(again.is_ok());
            let _ = qiyuan_swiss::pair(&t);
        }
    }
}

/// A player line with `rounds` rounds against the next starting rank, all won
/// with white.
fn player(rank: usize, rounds: usize) -> String {
    let mut line = format!("001 {rank:>4}      {:<33} 1500", format!("Player{rank}"));
    line = format!("{line:<89}");
    for _ in 0..rounds {
        line.push_str(&format!("  {:>4} w 1", rank % 5_000 + 1));
    }
    line
}

/// Issue 41: `qiyuan swiss pair` on a 10,000-player file ran past a minute with
/// no limit. A file holds at most 5,000 players, 100 rounds and 8 MiB; past a
/// bound the error names the line that crosses it.
#[test]
fn files_are_bounded_in_players_rounds_and_bytes() {
    use qiyuan_swiss::trf::{self, MAX_BYTES, MAX_PLAYERS, MAX_ROUNDS, TrfError, TrfErrorKind};
    let field = |players: usize| -> String {
        let mut text = String::from("012 Big open\nXXR 9\n");
        for rank in 1..=players {
            text.push_str(&player(rank, 1));
            text.push('\n');
        }
        text
    };
    assert_eq!(
        trf::parse(&field(MAX_PLAYERS)).unwrap().players.len(),
        5_000
    );
    assert_eq!(
        trf::parse(&field(MAX_PLAYERS + 1)),
        Err(TrfError {
            line: 5_003,
            kind: TrfErrorKind::TooManyPlayers
        })
    );
    let err = trf::parse(&field(10_000)).unwrap_err().to_string();
    assert!(
        err.starts_with("line 5003: more than 5000 players"),
        "{err}"
    );

    // Rounds: XXR and a player's line.
    assert!(trf::parse(&format!("XXR {MAX_ROUNDS}")).is_ok());
    assert_eq!(
        trf::parse("012 Long\nXXR 101").unwrap_err(),
        TrfError {
            line: 2,
            kind: TrfErrorKind::TooManyRounds
        }
    );
    let long = trf::parse(&player(1, MAX_ROUNDS)).unwrap();
    assert_eq!(long.players[0].rounds.len(), 100);
    assert_eq!(
        trf::parse(&player(1, MAX_ROUNDS + 1)).unwrap_err().kind,
        TrfErrorKind::TooManyRounds
    );
    // Blank columns past the last round are no round.
    let padded = format!("{}{}", player(1, MAX_ROUNDS), " ".repeat(50));
    assert!(trf::parse(&padded).is_ok());

    // Bytes: 8 MiB read (comment lines), one more refused at its line.
    let comment = format!("{}\n", "x".repeat(1023));
    let full = comment.repeat(MAX_BYTES / 1024);
    assert_eq!(full.len(), MAX_BYTES);
    assert!(trf::parse(&full).is_ok());
    assert_eq!(
        trf::parse(&format!("{full}y")),
        Err(TrfError {
            line: 8_193,
            kind: TrfErrorKind::TooLarge
        })
    );
}
