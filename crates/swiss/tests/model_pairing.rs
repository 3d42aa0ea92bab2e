//! The tournament model through the pairing: late entries, withdrawals,
//! requested byes and the pairing-allocated bye.

use qiyuan_swiss::model::{Colour, ResultCode, Tournament};
use qiyuan_swiss::pair;

fn four_players() -> Tournament {
    let mut t = Tournament::new(5, Colour::White);
    for (name, rating) in [("A", 2400), ("B", 2300), ("C", 2200), ("D", 2100)] {
        t.add_player(name, Some(rating));
    }
    t
}

#[test]
fn round_one_pairs_top_half_against_bottom_half() {
    let t = four_players();
    let p = pair(&t).unwrap();
    // 1-3 and 4-2 (colours alternate from the top board, XXC white1).
    assert_eq!(p.games, vec![(1, 3), (4, 2)]);
    assert_eq!(p.bye, None);
}

#[test]
fn late_entry_withdrawal_and_byes() {
    let mut t = four_players();
    t.record_game(1, 1, 3, ResultCode::Win).unwrap();
    t.record_game(1, 4, 2, ResultCode::Draw).unwrap();
    t.update_points(1);
    // Round 2: player 5 joins, player 3 withdraws, player 2 asks for a
    // half-point bye: 1, 4 and 5 are paired, one of them gets the bye.
    let late = t.add_player("E", Some(2000));
    assert_eq!(late, 5);
    t.withdraw(3).unwrap();
    t.request_bye(2, 2, ResultCode::HalfBye).unwrap();
    let p = pair(&t).unwrap();
    let mut seen: Vec<u32> = p.games.iter().flat_map(|&(w, b)| [w, b]).collect();
    seen.extend(p.bye);
    seen.sort_unstable();
    assert_eq!(seen, vec![1, 4, 5]);
    // The bye goes to the lowest score: the late entrant (0 points).
    assert_eq!(p.bye, Some(5));
    assert_eq!(p.games.len(), 1);
    // Player 1 (white last round) now gets black.
    assert_eq!(p.games[0], (4, 1));
}

#[test]
fn no_rematch_and_pairing_text() {
    let mut t = four_players();
    t.record_game(1, 1, 3, ResultCode::Win).unwrap();
    t.record_game(1, 4, 2, ResultCode::Win).unwrap();
    let p = pair(&t).unwrap();
    for &(w, b) in &p.games {
        assert!(!matches!((w.min(b), w.max(b)), (1, 3) | (2, 4)));
    }
    assert!(p.to_pairs_text().starts_with("2\n"));
}
