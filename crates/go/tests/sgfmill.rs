//! An independent reader, sgfmill, reads the SGF we write for a finished game:
//! `RU[Chinese]`, `TM` and a proper `OT`, each move's time left (`BL`/`WL`,
//! `OB`/`OW`), and the count's territory with the dead stones (`TB`/`TW`).
//!
//! The Python comes from `$QIYUAN_PYTHON`, else the repository's `.venv` (CI
//! creates it with `pip install chess sgfmill`); without either the test fails
//! and says how to make one.

use qiyuan_game::{Game, RecordMeta, Seat, Setup};
use qiyuan_go::{Go, Options, Point, SgfGame};

/// Runs `script` with `input` on stdin and returns its stdout.
fn run_python(script: &str, input: &str) -> String {
    qiyuan_testkit::run_python("sgfmill", script, input)
        .unwrap_or_else(|e| panic!("python failed: {e}"))
}

/// The root's properties and each node's moves, times and territory, as JSON;
/// points as GTP vertices.
const READ: &str = r#"
import json, sys
from sgfmill import sgf
game = sgf.Sgf_game.from_bytes(sys.stdin.buffer.read())
size = game.get_size()
cols = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
def vertex(p):
    row, col = p
    return "%s%d" % (cols[col], row + 1)
root = game.get_root()
out = {"size": size, "root": {}, "nodes": []}
for prop in ["RU", "TM", "OT", "KM", "RE", "PB", "PW", "DT"]:
    if root.has_property(prop):
        out["root"][prop] = root.get(prop)
for node in game.get_main_sequence():
    n = {}
    colour, move = node.get_move()
    if colour is not None:
        n["move"] = [colour, vertex(move) if move else "pass"]
    for prop in ["BL", "WL", "OB", "OW"]:
        if node.has_property(prop):
            n[prop] = node.get(prop)
    for prop in ["TB", "TW"]:
        if node.has_property(prop):
            n[prop] = sorted(vertex(p) for p in node.get(prop))
    out["nodes"].append(n)
print(json.dumps(out))
"#;

/// A finished 9x9 position with a seki with eyes in the lower left (white's
/// two-point eye A1 A2, black's eye E1, the shared liberty C1) and a dead black
/// stone on F7 in white's area.
const SEKI: &str = "(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese]\
    AB[ba][ab][bb][bc][fc][ad][bd][be][af][bf][cg][ch][dh][eh][fh][di][fi]\
    AW[ca][cb][cc][cd][ce][cf][df][ef][ff][gf][hf][if][ag][bg][dg][eg][fg][gg][hg][ig]\
    [bh][gh][bi][gi])";

#[test]
fn sgfmill_reads_territory_times_overtime_and_rules() {
    let options = Options {
        size: 9,
        ..Options::default()
    };
    let mut go = Go::new(&options, &Setup::Position(SEKI.into())).unwrap();
    go.act(Seat(0), "pass").unwrap();
    go.act(Seat(1), "pass").unwrap();
    let f7 = Point::from_gtp("F7").unwrap();
    let mut actions = 2;
    for p in go.board().points() {
        if go.board().get(p).is_some() && go.is_dead(p) != (p == f7) {
            let word = if p == f7 { "dead" } else { "alive" };
            go.act(Seat(0), &format!("{word} {p}")).unwrap();
            actions += 1;
        }
    }
    go.act(Seat(0), "accept").unwrap();
    go.act(Seat(1), "accept").unwrap();
    actions += 2;
    let score = go.outcome().unwrap().score;
    assert_eq!(score, "W+47.5");
    // The table's clock after each action: black passed in main time, white in
    // byo-yomi with 2 periods left; then the marking actions.
    let mut clocks = vec![Some(412_300), Some(0)];
    let mut periods = vec![None, Some(2)];
    clocks.resize(actions, Some(0));
    periods.resize(actions, None);
    let record = go.record(&RecordMeta {
        players: vec!["alice".into(), "bob".into()],
        start: Some(qiyuan_game::UtcDateTime::from_unix_millis(
            1_796_109_975_000,
        )),
        time_control: Some(qiyuan_game::RecordTime::ByoYomi {
            main: 600,
            periods: 3,
            period: 30,
        }),
        clocks,
        periods,
        ..RecordMeta::default()
    });

    let out = run_python(READ, &record);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let root = &v["root"];
    assert_eq!(root["RU"], "Chinese", "{record}");
    assert_eq!(root["OT"], "3x30 byo-yomi");
    assert_eq!(root["TM"], 600.0);
    assert_eq!(root["KM"], 7.5);
    assert_eq!(root["RE"], "W+47.5");
    assert_eq!(root["DT"], "2026-12-01");
    let nodes = v["nodes"].as_array().unwrap();
    let black = &nodes[1];
    assert_eq!(black["move"], serde_json::json!(["b", "pass"]));
    assert_eq!(black["BL"], 412.3);
    let white = &nodes[2];
    assert_eq!(white["move"], serde_json::json!(["w", "pass"]));
    assert_eq!(white["WL"], 30.0, "the period starts afresh");
    assert_eq!(white["OW"], 2);
    // The count: black's eye in the seki is black's; white's area holds its eye
    // A1 A2 and the dead black stone F7; the shared C1 is nobody's.
    let tb: Vec<String> = serde_json::from_value(white["TB"].clone()).unwrap();
    let tw: Vec<String> = serde_json::from_value(white["TW"].clone()).unwrap();
    assert_eq!(tb, ["A5", "A7", "A9", "E1"]);
    assert!(tw.contains(&"F7".to_string()) && tw.contains(&"A1".to_string()));
    assert!(tw.contains(&"A2".to_string()));
    assert!(!tw.contains(&"C1".to_string()) && !tb.contains(&"C1".to_string()));
    assert_eq!(tw.len(), 30 + 4 + 2, "{tw:?}");

    // And we read it back: the dead stone from the territory, the times.
    let back = SgfGame::parse(&record).unwrap();
    let board = back.final_position().unwrap();
    assert_eq!(back.dead_stones(&board), [f7]);
    assert_eq!(back.times[1].periods, Some(2));
}
