//! The xiangqi PGN dialects in use read to the same game: the game named by
//! `[Game "Chinese Chess"]` or `[Variant "xiangqi"]`, moves in ICCS (`h2e2`,
//! `H2-E2`), WXF (`C2=5`, `C2.5`) or Chinese notation; and records with tandem
//! pieces written and read back.

use qiyuan_xiangqi::notation::parse_iccs;
use qiyuan_xiangqi::pgn::{self, PgnError};
use qiyuan_xiangqi::{Move, Notation, Position, XiangqiGame};

/// 1. 炮二平五 马８进７ 2. 马二进三 车９平８ 3. 车一平二 卒７进１
const OPENING: [&str; 6] = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "g6g5"];

fn opening() -> Vec<Move> {
    let mut p = Position::new();
    OPENING
        .iter()
        .map(|t| {
            let m = parse_iccs(&p, t).unwrap();
            p.play_unchecked(m);
            m
        })
        .collect()
}

fn moves_of(text: &str) -> Vec<Move> {
    pgn::read(text)
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
        .moves
}

#[test]
fn every_dialect_reads_the_same_game() {
    let dialects = [
        // The hall's own and XQStudio-style records.
        "[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n\n1. H2-E2 H9-G7 2. H0-G2 I9-H9 3. I0-H0 G6-G5 *\n",
        // Fairy-Stockfish and pychess: [Variant "xiangqi"], lower-case ICCS, numbers without a space.
        "[Event \"MoonRiver game\"]\n[Variant \"xiangqi\"]\n[Result \"*\"]\n\n1.h2e2 h9g7 {E: Central Cannon} 2.h0g2 i9h9\n3.i0h0 g6g5 *\n",
        "[Variant \"Xiangqi\"]\n\n1. h2-e2 h9-g7 2. h0-g2 i9-h9 3. i0-h0 g6-g5\n",
        // WXF, with the rules' `.` and with `=`, black moves in lower case.
        "[Game \"Chinese Chess\"]\n[Format \"WXF\"]\n\n1. C2.5 H8+7 2. H2+3 R9.8 3. R1.2 P7+1 1/2-1/2\n",
        "[Game \"Xiangqi\"]\n\n1. C2=5 h8+7 2. H2+3 r9=8 3. R1=2 p7+1\n",
        // Chinese, simplified and traditional, full-width digits and numbers.
        "[Game \"Chinese Chess\"]\n[Format \"Chinese\"]\n\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ 3. 车一平二 卒７进１ *\n",
        "[Game \"象棋\"]\n\n１．炮二平五 馬8進7\n２．傌二進三 車9平8\n３．俥一平二 卒7進1\n",
        // No tags at all, a byte order mark, annotation glyphs and a variation.
        "\u{feff}1. h2e2! h9g7 (1... b7e7) 2. h0g2 i9h9?! 3. i0h0 $1 g6g5 *\n",
    ];
    let want = opening();
    for text in dialects {
        assert_eq!(moves_of(text), want, "{text}");
    }
}

#[test]
fn other_games_are_refused() {
    assert!(matches!(
        pgn::read("[Variant \"Standard\"]\n\n1. e4 e5 *\n"),
        Err(PgnError::WrongVariant(_))
    ));
    assert!(matches!(
        pgn::read("[Game \"Chess\"]\n\n1. e4 e5 *\n"),
        Err(PgnError::WrongGame(_))
    ));
}

#[test]
fn tandem_pieces_write_and_read_back() {
    // Red soldiers: three on file 3 (g5, g6, g7), two on file 7 (c5, c6); two
    // red rooks on file 5; Black answers with its general.
    let fen = "3k5/9/6P2/2P3P2/2P3P2/4R4/9/4R4/9/5K3 w - - 0 1";
    let start = Position::from_fen(fen).unwrap();
    let mut g = XiangqiGame::from_position(Default::default(), start.clone());
    for t in ["g6f6", "d9d8", "e4e3", "d8d9", "c6d6", "d9d8", "e2c2"] {
        let m = parse_iccs(g.position(), t).unwrap();
        g.play(m).unwrap();
    }
    let text = pgn::write(&[], &start, g.moves(), "*", Notation::Wxf);
    // As the WXF rules write them: the middle soldier of file 3, the front rook,
    // the front soldier of file 7, then the rear rook (e2, behind e3).
    for spelling in ["33=4", "R+-1", "7+=6", "R-=7"] {
        assert!(text.contains(spelling), "{spelling} in\n{text}");
    }
    assert_eq!(moves_of(&text), g.moves());
    // The rules' own spelling with `.` reads the same.
    assert_eq!(moves_of(&text.replace('=', ".")), g.moves());
    let chinese = pgn::write(&[], &start, g.moves(), "*", Notation::Chinese);
    assert!(chinese.contains("中三平四"), "{chinese}");
    assert_eq!(moves_of(&chinese), g.moves());
}
