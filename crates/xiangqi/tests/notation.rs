//! Every legal move of every position in the perft files reads back from its ICCS,
//! WXF and Chinese spelling; hand-checked spellings of tandem pieces.

use qiyuan_testkit::fs::read_shared_data;
use qiyuan_xiangqi::notation::{
    format_chinese, format_iccs, format_wxf, parse_any, parse_chinese, parse_iccs, parse_wxf,
};
use qiyuan_xiangqi::{Move, NotationError, Position, Square};

fn positions() -> Vec<Position> {
    let mut fens: Vec<String> = Vec::new();
    for name in ["xiangqi-perft.tsv", "xiangqi-perft-published.tsv"] {
        for line in read_shared_data(name).lines() {
            let fen = line.split('\t').next().unwrap_or("").to_string();
            if !fen.is_empty() && !fens.contains(&fen) {
                fens.push(fen);
            }
        }
    }
    fens.iter()
        .map(|f| Position::from_fen(f).expect(f))
        .collect()
}

fn iccs(s: &str) -> Move {
    let b = s.as_bytes();
    Move::new(
        Square::from_ascii(&b[0..2]).unwrap(),
        Square::from_ascii(&b[2..4]).unwrap(),
    )
}

#[test]
fn every_legal_move_round_trips() {
    let mut moves = 0;
    let all = positions();
    assert!(all.len() > 100);
    for pos in &all {
        // Also the positions one ply later, for more tandem pieces and both colours.
        let mut family = vec![pos.clone()];
        for m in pos.legal_moves().into_iter().take(6) {
            let mut p = pos.clone();
            p.play_unchecked(m);
            family.push(p);
        }
        for p in &family {
            for m in p.legal_moves() {
                let i = format_iccs(m);
                assert_eq!(parse_iccs(p, &i), Ok(m), "{p:?} {i}");
                let w = format_wxf(p, m);
                assert_eq!(parse_wxf(p, &w), Ok(m), "{p:?} {m} as {w}");
                let c = format_chinese(p, m);
                assert_eq!(parse_chinese(p, &c), Ok(m), "{p:?} {m} as {c}");
                assert_eq!(parse_any(p, &c), Ok(m));
                moves += 1;
            }
        }
    }
    assert!(moves > 10_000, "{moves}");
}

#[test]
fn opening_moves() {
    let p = Position::new();
    let m = iccs("h2e2");
    assert_eq!(format_wxf(&p, m), "C2=5");
    assert_eq!(format_chinese(&p, m), "炮二平五");
    assert_eq!(parse_wxf(&p, "C2.5"), Ok(m));
    assert_eq!(parse_iccs(&p, "h2-e2"), Ok(m));
    assert_eq!(parse_iccs(&p, "H2-E2"), Ok(m));
    let h = iccs("h0g2");
    assert_eq!(format_wxf(&p, h), "H2+3");
    assert_eq!(format_chinese(&p, h), "马二进三");
    assert_eq!(parse_chinese(&p, "傌二進三"), Ok(h));
    let mut p = p;
    p.play_unchecked(m);
    let b = iccs("h9g7");
    assert_eq!(format_wxf(&p, b), "H8+7");
    assert_eq!(format_chinese(&p, b), "马8进7");
    assert_eq!(parse_chinese(&p, "馬８進７"), Ok(b));
    assert_eq!(parse_chinese(&p, "马８进７"), Ok(b));
    assert!(matches!(
        parse_chinese(&p, "马8进6"),
        Err(NotationError::Illegal(_))
    ));
    assert!(matches!(
        parse_wxf(&p, "Q8+7"),
        Err(NotationError::Malformed(_))
    ));
    assert!(matches!(
        parse_iccs(&p, "z9z9"),
        Err(NotationError::Malformed(_))
    ));
}

#[test]
fn front_and_rear_rooks() {
    // Two red rooks on file e (WXF file 5).
    let p = Position::from_fen("3k5/9/9/9/9/4R4/9/4R4/9/4K4 w - - 0 1").unwrap();
    assert_eq!(format_wxf(&p, iccs("e4e8")), "R++4");
    assert_eq!(format_chinese(&p, iccs("e4e8")), "前车进四");
    assert_eq!(format_wxf(&p, iccs("e2d2")), "R-=6");
    assert_eq!(format_chinese(&p, iccs("e2d2")), "后车平六");
    assert_eq!(parse_chinese(&p, "後車平六"), Ok(iccs("e2d2")));
    assert_eq!(parse_chinese(&p, "後俥平六"), Ok(iccs("e2d2")));
}

#[test]
fn three_soldiers_on_one_file() {
    // Red soldiers on c5, c6, c7 (WXF file 7).
    let p = Position::from_fen("3k5/9/2P6/2P6/2P6/9/9/9/9/4K4 w - - 0 1").unwrap();
    assert_eq!(format_wxf(&p, iccs("c7d7")), "P+=6");
    assert_eq!(format_wxf(&p, iccs("c6d6")), "P7=6");
    assert_eq!(format_wxf(&p, iccs("c5d5")), "P-=6");
    assert_eq!(format_chinese(&p, iccs("c7d7")), "前兵平六");
    assert_eq!(format_chinese(&p, iccs("c6d6")), "中兵平六");
    assert_eq!(format_chinese(&p, iccs("c5b5")), "后兵平八");
    assert_eq!(parse_chinese(&p, "中兵平六"), Ok(iccs("c6d6")));
    // Black: soldiers on g4, g3, g2 (Black's file 7).
    let p = Position::from_fen("3k5/9/9/9/9/6p2/6p2/6p2/9/5K3 b - - 0 1").unwrap();
    assert_eq!(format_chinese(&p, iccs("g2f2")), "前卒平6");
    assert_eq!(format_chinese(&p, iccs("g3f3")), "中卒平6");
    assert_eq!(format_wxf(&p, iccs("g4h4")), "P-=8");
}

#[test]
fn five_soldiers_on_one_file() {
    let p = Position::from_fen("2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1").unwrap();
    let wxf: Vec<String> = ["c8d8", "c7d7", "c6d6", "c5d5", "c9d9"]
        .iter()
        .map(|m| format_wxf(&p, iccs(m)))
        .collect();
    assert_eq!(wxf, ["P+=6", "P7=6", "P-=6", "--=6", "++=6"]);
    assert_eq!(parse_wxf(&p, "--.6"), Ok(iccs("c5d5")));
    assert_eq!(format_chinese(&p, iccs("c9d9")), "一兵平六");
    assert_eq!(format_chinese(&p, iccs("c7d7")), "三兵平六");
    assert_eq!(format_chinese(&p, iccs("c5d5")), "五兵平六");
}

#[test]
fn two_soldiers_on_each_of_two_files() {
    // Red soldiers c5, c6 (file 7) and g5, g6 (file 3).
    let p = Position::from_fen("3k5/9/9/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1").unwrap();
    assert_eq!(format_wxf(&p, iccs("c6d6")), "7+=6");
    assert_eq!(format_wxf(&p, iccs("c5b5")), "7-=8");
    assert_eq!(format_wxf(&p, iccs("c6c7")), "7++1");
    assert_eq!(format_wxf(&p, iccs("g6g7")), "3++1");
    assert_eq!(format_chinese(&p, iccs("c6d6")), "前七平六");
    assert_eq!(format_chinese(&p, iccs("g5f5")), "后三平四");
    assert_eq!(parse_wxf(&p, "3-.4"), Ok(iccs("g5f5")));
    // Black soldiers on c4, c3 and g4, g3.
    let p = Position::from_fen("3k5/9/9/9/9/2p3p2/2p3p2/9/9/4K4 b - - 0 1").unwrap();
    assert_eq!(format_chinese(&p, iccs("c3d3")), "前3平4");
    assert_eq!(format_wxf(&p, iccs("g3g2")), "7++1");
    assert_eq!(format_wxf(&p, iccs("c4b4")), "3-=2");
}

/// A move in ICCS, as written here, and as the rules write it.
type Spellings<'a> = &'a [(&'a str, &'a str, &'a str)];

/// The examples of the WXF notation rules (wxf.org, "Official xiangqi piece
/// names and notation"): tandem pieces, written here with `=` for a sideways
/// move, read back in the rules' own spelling with `.`.
#[test]
fn wxf_rulebook_tandem_examples_both_ways() {
    let cases: [(&str, Spellings); 4] = [
        // Two rooks on file 5 and two cannons on file 8: 車前平三 R+.3, 炮後退一 C--1.
        (
            "3k5/9/9/9/4R4/1C7/4R4/1C7/9/5K3 w - - 0 1",
            &[
                ("e5g5", "R+=3", "R+.3"),
                ("e3d3", "R-=6", "R-.6"),
                ("b2b1", "C--1", "C--1"),
                ("b4b5", "C++1", "C++1"),
            ],
        ),
        // Three soldiers on file 3 and two on file 7 (tandem pawns in two files):
        // the first digit is the file, the middle one is written 33.4.
        (
            "3k5/9/6P2/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1",
            &[
                ("g7f7", "3+=4", "3+.4"),
                ("g6f6", "33=4", "33.4"),
                ("g5f5", "3-=4", "3-.4"),
                ("c6d6", "7+=6", "7+.6"),
                ("c5d5", "7-=6", "7-.6"),
            ],
        ),
        // Four soldiers on file 3: ++, P+, P-, -- (no middle one).
        (
            "3k5/6P2/6P2/6P2/6P2/9/9/9/9/4K4 w - - 0 1",
            &[
                ("g8f8", "++=4", "++.4"),
                ("g7f7", "P+=4", "P+.4"),
                ("g6f6", "P-=4", "P-.4"),
                ("g5f5", "--=4", "--.4"),
            ],
        ),
        // Five soldiers on file 3: ++, P+, P3 (the middle one), P-, --.
        (
            "3k2P2/6P2/6P2/6P2/6P2/9/9/9/9/4K4 w - - 0 1",
            &[
                ("g9f9", "++=4", "++.4"),
                ("g8f8", "P+=4", "P+.4"),
                ("g7f7", "P3=4", "P3.4"),
                ("g6f6", "P-=4", "P-.4"),
                ("g5f5", "--=4", "--.4"),
            ],
        ),
    ];
    for (fen, moves) in cases {
        let p = Position::from_fen(fen).unwrap();
        for &(m, written, rulebook) in moves {
            let m = iccs(m);
            assert_eq!(format_wxf(&p, m), written, "{fen} {m}");
            assert_eq!(parse_wxf(&p, written), Ok(m), "{fen} {written}");
            assert_eq!(parse_wxf(&p, rulebook), Ok(m), "{fen} {rulebook}");
        }
    }
}

#[test]
fn tandem_advisors_and_elephants() {
    // Two red advisors on file 6: the WXF rules write A-+5 for the rear one; the
    // file form A6+5, common because only one of them can make the move, reads
    // the same.
    let p = Position::from_fen("3k5/9/9/9/9/9/9/3A5/9/3A1K3 w - - 0 1").unwrap();
    let rear = iccs("d0e1");
    assert_eq!(format_wxf(&p, rear), "A-+5");
    assert_eq!(format_chinese(&p, rear), "后仕进五");
    for text in ["A-+5", "A6+5", "a6+5"] {
        assert_eq!(parse_wxf(&p, text), Ok(rear), "{text}");
    }
    assert_eq!(parse_chinese(&p, "仕六进五"), Ok(rear));
    let front = iccs("d2e1");
    assert_eq!(format_wxf(&p, front), "A+-5");
    assert_eq!(parse_wxf(&p, "A6-5"), Ok(front));
    // Two elephants on file 3 (g0, g4): E-+5 / E+-5, or by file.
    let p = Position::from_fen("3k5/9/9/9/9/6B2/9/9/9/4K1B2 w - - 0 1").unwrap();
    assert_eq!(format_wxf(&p, iccs("g0e2")), "E-+5");
    assert_eq!(format_wxf(&p, iccs("g4e2")), "E+-5");
    assert_eq!(parse_wxf(&p, "E3+5"), Ok(iccs("g0e2")));
    assert_eq!(parse_wxf(&p, "B3-5"), Ok(iccs("g4e2")));
}
