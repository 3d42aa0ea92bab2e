//! Move generation against the published perft numbers of the usual suite
//! (chessprogramming.org "Perft Results": the start position, "Kiwipete" and
//! positions 3 to 6).

use qiyuan_chess::{divide, perft};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POSITION_3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const POSITION_4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
const POSITION_4_MIRRORED: &str =
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1";
const POSITION_5: &str = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
const POSITION_6: &str = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

fn check(fen: &str, expected: &[u64]) {
    for (depth, &nodes) in (1..).zip(expected) {
        assert_eq!(perft(fen, depth).unwrap(), nodes, "{fen} at depth {depth}");
    }
}

#[test]
fn start_position_to_depth_5() {
    check(START, &[20, 400, 8_902, 197_281, 4_865_609]);
}

#[test]
fn kiwipete_to_depth_4() {
    check(KIWIPETE, &[48, 2_039, 97_862, 4_085_603]);
}

#[test]
fn position_3_to_depth_5() {
    check(POSITION_3, &[14, 191, 2_812, 43_238, 674_624]);
}

#[test]
fn position_4_and_its_mirror_to_depth_4() {
    check(POSITION_4, &[6, 264, 9_467, 422_333]);
    check(POSITION_4_MIRRORED, &[6, 264, 9_467, 422_333]);
}

#[test]
fn position_5_to_depth_4() {
    check(POSITION_5, &[44, 1_486, 62_379, 2_103_487]);
}

#[test]
fn position_6_to_depth_4() {
    check(POSITION_6, &[46, 2_079, 89_890, 3_894_594]);
}

#[test]
fn depth_zero_is_one_node() {
    assert_eq!(perft(START, 0).unwrap(), 1);
}

#[test]
fn divide_adds_up_to_perft() {
    let split = divide(KIWIPETE, 3).unwrap();
    assert_eq!(split.len(), 48);
    assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), 97_862);
    // Castling is written the UCI way, the king's two-square step.
    assert!(split.iter().any(|(m, _)| m == "e1g1"));
    assert!(split.iter().any(|(m, _)| m == "e1c1"));
}

#[test]
fn perft_refuses_a_bad_fen() {
    assert!(perft("not a fen", 1).is_err());
    assert!(perft("8/8/8/8/8/8/8/8 w - - 0 1", 1).is_err());
}
