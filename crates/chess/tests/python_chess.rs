//! An independent reader, python-chess, reads the PGN we write: the tags of a
//! rated game (`WhiteElo`, `BlackElo`, `UTCDate`, `UTCTime`, `Annotator`), a game
//! from a position (`Variant`, `SetUp`, `FEN`), the clock comments and the moves.
//!
//! The Python comes from `$QIYUAN_PYTHON`, else the repository's `.venv` (CI
//! creates it with `pip install chess sgfmill`); without either the test fails
//! and says how to make one.

use qiyuan_chess::{ChessGame, ChessOptions};
use qiyuan_game::{EndReason, Game, RecordMeta, Seat, Setup, UtcDateTime};

/// Runs `script` with `input` on stdin and returns its stdout.
fn run_python(script: &str, input: &str) -> String {
    qiyuan_testkit::run_python("python-chess", script, input)
        .unwrap_or_else(|e| panic!("python failed: {e}"))
}

/// Every game's headers, errors, UCI mainline, clocks and final FEN, as JSON.
const READ: &str = r#"
import io, json, sys
import chess.pgn
text = io.StringIO(sys.stdin.read())
games = []
while True:
    g = chess.pgn.read_game(text)
    if g is None:
        break
    node, moves, clocks = g, [], []
    for node in g.mainline():
        moves.append(node.move.uci())
        clocks.append(node.clock())
    games.append({
        "headers": dict(g.headers),
        "errors": [str(e) for e in g.errors],
        "moves": moves,
        "clocks": clocks,
        "fen": g.end().board().fen(),
    })
print(json.dumps(games))
"#;

#[test]
fn python_chess_reads_our_new_tags() {
    // A rated game between two rated players, resigned.
    let mut rated = ChessGame::new(&ChessOptions::default(), &Setup::Standard).unwrap();
    for m in ["e4", "e5", "Nf3", "Nc6", "Bb5"] {
        rated.play(m).unwrap();
    }
    let rated_pgn = rated.record(&RecordMeta {
        event: Some("qiyuan rated".into()),
        site: Some("qiyuan".into()),
        players: vec!["alice".into(), "bob".into()],
        ratings: vec![Some(1612), Some(1498)],
        start: Some(UtcDateTime::from_unix_millis(1_796_109_975_000)),
        annotator: Some("qiyuan".into()),
        time_control: Some(qiyuan_game::RecordTime::Fischer {
            main: 180,
            increment: 2,
        }),
        clocks: vec![
            Some(179_000),
            Some(178_500),
            Some(175_000),
            Some(170_000),
            Some(160_000),
        ],
        outcome: Some(rated.conceded(Seat(1), EndReason::Resignation)),
        ..RecordMeta::default()
    });
    // A casual game from a position.
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    let mut from = ChessGame::new(&ChessOptions::default(), &Setup::Position(fen.into())).unwrap();
    from.play("e4").unwrap();
    from.play("Kd7").unwrap();
    let from_pgn = from.record(&RecordMeta::default());

    let out = run_python(READ, &format!("{rated_pgn}{from_pgn}"));
    let games: serde_json::Value = serde_json::from_str(&out).unwrap();
    let games = games.as_array().unwrap();
    assert_eq!(games.len(), 2, "{out}");

    let g = &games[0];
    assert_eq!(g["errors"], serde_json::json!([]), "{out}");
    let h = &g["headers"];
    assert_eq!(h["White"], "alice");
    assert_eq!(h["WhiteElo"], "1612");
    assert_eq!(h["BlackElo"], "1498");
    assert_eq!(h["UTCDate"], "2026.12.01");
    assert_eq!(h["UTCTime"], "07:26:15");
    assert_eq!(h["Date"], "2026.12.01");
    assert_eq!(h["Annotator"], "qiyuan");
    assert_eq!(h["Result"], "1-0");
    assert_eq!(h["TimeControl"], "180+2");
    assert!(h.get("Variant").is_none());
    assert_eq!(
        g["moves"],
        serde_json::json!(["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"])
    );
    assert_eq!(
        g["clocks"],
        serde_json::json!([179.0, 178.0, 175.0, 170.0, 160.0])
    );

    let g = &games[1];
    assert_eq!(g["errors"], serde_json::json!([]), "{out}");
    let h = &g["headers"];
    assert_eq!(h["Variant"], "From Position");
    assert_eq!(h["SetUp"], "1");
    assert_eq!(h["FEN"], fen);
    assert!(h.get("WhiteElo").is_none() && h.get("UTCDate").is_none());
    assert_eq!(g["moves"], serde_json::json!(["e2e4", "e8d7"]));
    assert_eq!(g["fen"], from.fen().as_str());
}

#[test]
fn we_read_what_python_chess_reads_from_unescaped_quotes_and_null_moves() {
    // python-chess takes a tag value to its last quote; so do we now.
    let text = "[Event \"The \"Big\" Open\"]\n[White \"a\"]\n[Black \"b\"]\n\n1. e4 e5 *\n\n";
    let out = run_python(READ, text);
    let games: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(games[0]["headers"]["Event"], "The \"Big\" Open");
    let ours = qiyuan_chess::pgn::read_games(text.as_bytes())
        .next()
        .unwrap()
        .unwrap();
    assert_eq!(ours.tag("Event"), Some("The \"Big\" Open"));
    // python-chess records `--` as a null move; we report it as one.
    let text = "1. e4 -- 2. d4 *\n";
    let out = run_python(READ, text);
    let games: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        games[0]["moves"],
        serde_json::json!(["e2e4", "0000", "d2d4"])
    );
    let err = qiyuan_chess::pgn::read_games(text.as_bytes())
        .next()
        .unwrap()
        .unwrap_err();
    assert!(err.to_string().contains("null move"), "{err}");
}
