//! Tiebreaks on small tournaments computed by hand (FIDE C.07, 2023): a
//! pairing-allocated bye, a forfeit, a half-point bye and a withdrawal.

use qiyuan_swiss::model::{Colour, ResultCode, Tournament};
use qiyuan_swiss::tiebreak::{DEFAULT_ORDER, Standing, Tiebreak, standings};

/// Five players, three rounds.
/// R1: 1-2 1-0, 3-4 ½-½, 5 gets the pairing-allocated bye.
/// R2: 1-3 won by 1 by forfeit, 2-5 0-1, 4 takes a half-point bye.
/// R3: 5-1 0-1, 2-4 1-0, 3 has withdrawn.
/// Scores: 1: 3, 2: 1, 3: ½, 4: 1, 5: 2.
fn event() -> Tournament {
    let mut t = Tournament::new(3, Colour::White);
    for (name, rating) in [
        ("A", 2000),
        ("B", 1900),
        ("C", 1800),
        ("D", 1700),
        ("E", 1600),
    ] {
        t.add_player(name, Some(rating));
    }
    t.record_game(1, 1, 2, ResultCode::Win).unwrap();
    t.record_game(1, 3, 4, ResultCode::Draw).unwrap();
    t.record_pairing_bye(1, 5).unwrap();
    t.record_game(2, 1, 3, ResultCode::ForfeitWin).unwrap();
    t.record_game(2, 2, 5, ResultCode::Loss).unwrap();
    t.request_bye(4, 2, ResultCode::HalfBye).unwrap();
    t.record_game(3, 5, 1, ResultCode::Loss).unwrap();
    t.record_game(3, 2, 4, ResultCode::Win).unwrap();
    t.withdraw(3).unwrap();
    t.update_points(3);
    t
}

fn by_player(table: &[Standing]) -> Vec<(u32, u32, Vec<u32>)> {
    let mut v: Vec<_> = table
        .iter()
        .map(|s| (s.start_rank, s.score, s.tiebreaks.clone()))
        .collect();
    v.sort();
    v
}

#[test]
fn buchholz_family_with_unplayed_rounds() {
    let t = event();
    let order = [
        Tiebreak::Buchholz,
        Tiebreak::BuchholzCut1,
        Tiebreak::BuchholzMedian1,
        Tiebreak::SonnebornBerger,
    ];
    let table = standings(&t, 3, &order);
    // Unplayed rounds count the participant's own score (the dummy opponent);
    // the cuts remove voluntary unplayed rounds first (C's forfeit loss and
    // absence, D's half-point bye), never the bye or the forfeit win.
    assert_eq!(
        by_player(&table),
        vec![
            // 1: B 1, forfeit win (dummy 3), E 2.
            (1, 30, vec![600, 500, 200, 600]),
            // 2: A 3, E 2, D 1. SB: only the win over D.
            (2, 10, vec![600, 500, 200, 100]),
            // 3: D 1, forfeit loss (dummy ½), absent (dummy ½).
            (3, 5, vec![200, 150, 50, 50]),
            // 4: C, half-point bye (dummy 1), B 1. C withdrew after round 2
            // (16.3.2): their absence in round 3, after their last round
            // that was not voluntary, counts as a draw, so C counts 1 (½
            // + 0 for the forfeit loss + ½), not ½. Cut-1 removes the bye
            // (voluntary), the median also a 1. SB: ½·1 + ½·1.
            (4, 10, vec![300, 200, 100, 100]),
            // 5: bye (dummy 2), B 1, A 3. SB: 2 + 1.
            (5, 20, vec![600, 500, 200, 300]),
        ]
    );
}

#[test]
fn progressive_and_wins() {
    let t = event();
    let order = [
        Tiebreak::Progressive,
        Tiebreak::Wins,
        Tiebreak::WinsOverTheBoard,
    ];
    let table = standings(&t, 3, &order);
    assert_eq!(
        by_player(&table),
        vec![
            (1, 30, vec![600, 3, 2]),
            (2, 10, vec![100, 1, 1]),
            (3, 5, vec![150, 0, 0]),
            (4, 10, vec![250, 0, 0]),
            (5, 20, vec![500, 2, 1]),
        ]
    );
}

#[test]
fn default_order_ranks_the_event() {
    let table = standings(&event(), 3, &DEFAULT_ORDER);
    let order: Vec<u32> = table.iter().map(|s| s.start_rank).collect();
    // 1 (3), 5 (2), then 2 and 4 on 1 point split by Buchholz 6 to 3, then 3.
    assert_eq!(order, vec![1, 5, 2, 4, 3]);
    let places: Vec<usize> = table.iter().map(|s| s.place).collect();
    assert_eq!(places, vec![1, 2, 3, 4, 5]);
}

/// Four players, two rounds: 3 beat 1 and 2 beat 4; then 1 beat 4 and 2 beat 3.
/// 1 and 3 tie on one point; 3 won their game.
#[test]
fn direct_encounter() {
    let mut t = Tournament::new(2, Colour::White);
    for name in ["A", "B", "C", "D"] {
        t.add_player(name, None);
    }
    t.record_game(1, 3, 1, ResultCode::Win).unwrap();
    t.record_game(1, 2, 4, ResultCode::Win).unwrap();
    t.record_game(2, 1, 4, ResultCode::Win).unwrap();
    t.record_game(2, 2, 3, ResultCode::Win).unwrap();
    let table = standings(&t, 2, &[Tiebreak::DirectEncounter]);
    let order: Vec<(u32, Vec<u32>)> = table
        .iter()
        .map(|s| (s.start_rank, s.tiebreaks.clone()))
        .collect();
    assert_eq!(
        order,
        vec![(2, vec![0]), (3, vec![1]), (1, vec![2]), (4, vec![0])]
    );
    // The place within the tied group: 3 first, 1 second; alone, 0.
    // With Buchholz first (1: 1+0, 3: 1+2) the tie is already broken and
    // direct encounter compares no one.
    let table = standings(&t, 2, &[Tiebreak::Buchholz, Tiebreak::DirectEncounter]);
    let ranks: Vec<u32> = table.iter().map(|s| s.start_rank).collect();
    assert_eq!(ranks, vec![2, 3, 1, 4]);
}

#[test]
fn tiebreak_names() {
    assert_eq!("bh".parse(), Ok(Tiebreak::Buchholz));
    assert_eq!("BH-C1".parse(), Ok(Tiebreak::BuchholzCut1));
    assert_eq!("prog".parse(), Ok(Tiebreak::Progressive));
    assert!("xyz".parse::<Tiebreak>().is_err());
}
