//! Every way a game of chess ends under the FIDE Laws, one test each, and the
//! hall's automatic threefold repetition (the default option).

use qiyuan_chess::{ChessGame, ChessOptions, Repetition, can_checkmate, parse_fen};
use qiyuan_game::{
    Claim, EndReason, Game, Outcome, PlayPhase as Phase, RefusalKind, Seat, SeatResult, Setup, Turn,
};
use shakmaty::{Color, Position};

const WHITE: Seat = Seat::FIRST;
const BLACK: Seat = Seat::SECOND;

/// A position under the FIDE Laws (threefold repetition claimed).
fn from_fen(fen: &str) -> ChessGame {
    ChessGame::new(&ChessOptions::fide(), &Setup::Position(fen.into())).unwrap()
}

/// The standard start under the FIDE Laws.
fn fide_game() -> ChessGame {
    ChessGame::new(&ChessOptions::fide(), &Setup::Standard).unwrap()
}

fn play(game: &mut ChessGame, moves: &str) {
    for m in moves.split_whitespace() {
        game.play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

fn assert_draw(game: &ChessGame, reason: EndReason) {
    let outcome = game.outcome().expect("the game should be over");
    assert_eq!(outcome, Outcome::draw(2, reason, "1/2-1/2"));
    assert_eq!(game.turn(), Turn::Over);
    assert_eq!(game.phase(), Phase::Over);
    assert!(game.legal_actions(WHITE).is_empty());
    assert!(game.legal_actions(BLACK).is_empty());
}

#[test]
fn checkmate_wins() {
    let mut game = fide_game();
    play(&mut game, "f3 e5 g4");
    let effects = game.act(BLACK, "Qh4").unwrap();
    assert_eq!(effects.canonical, "d8h4");
    assert_eq!(effects.display, "Qh4#");
    assert!(effects.check);
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.reason, EndReason::Checkmate);
    assert_eq!(outcome.score, "0-1");
    assert_eq!(outcome.winner(), Some(BLACK));
    assert_eq!(game.turn(), Turn::Over);
    // Nothing more can be played.
    let refusal = game.act(WHITE, "a3").unwrap_err();
    assert_eq!(refusal.kind, RefusalKind::GameOver);
}

#[test]
fn stalemate_draws() {
    let mut game = from_fen("k7/8/8/2Q5/8/8/8/7K w - - 0 1");
    game.act(WHITE, "Qc7").unwrap();
    assert_draw(&game, EndReason::Stalemate);
}

#[test]
fn king_against_king_is_dead() {
    let mut game = from_fen("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1");
    assert!(game.outcome().is_none());
    game.act(WHITE, "Kxd2").unwrap();
    assert_draw(&game, EndReason::InsufficientMaterial);
}

#[test]
fn king_and_minor_piece_against_king_is_dead() {
    for fen in [
        "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", // K+B v K
        "4k3/8/8/8/8/8/8/1N2K3 b - - 0 1", // K+N v K
        "4k3/8/8/8/8/8/8/1n2K3 w - - 0 1", // K v K+N
    ] {
        assert_draw(&from_fen(fen), EndReason::InsufficientMaterial);
    }
}

#[test]
fn bishops_on_one_colour_are_dead_but_not_on_two() {
    // c1 and f8 are both dark squares.
    let mut game = from_fen("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1");
    assert_draw(&game, EndReason::InsufficientMaterial);
    // A capture that leaves same-coloured bishops ends the game at once.
    game = from_fen("4kb2/8/8/8/8/8/4n3/2B1K3 w - - 0 1");
    assert!(game.outcome().is_none());
    game.act(WHITE, "Kxe2").unwrap();
    assert_draw(&game, EndReason::InsufficientMaterial);
    // c8 is light: a mate is possible with help, so play goes on.
    let game = from_fen("2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1");
    assert!(game.outcome().is_none());
}

#[test]
fn threefold_repetition_is_claimed_by_the_player_to_move() {
    let mut game = fide_game();
    play(&mut game, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
    // The position after 2.Ng1 has occurred twice: nothing to claim yet.
    assert_eq!(game.repetitions(), 2);
    assert!(game.claims(BLACK).is_empty());
    play(&mut game, "Ng8");
    assert_eq!(game.repetitions(), 3);
    assert_eq!(game.claims(WHITE), vec![Claim::ThreefoldRepetition]);
    assert!(game.claims(BLACK).is_empty());
    // It is not automatic.
    assert!(game.outcome().is_none());
    let refusal = game.claim(BLACK, Claim::ThreefoldRepetition).unwrap_err();
    assert_eq!(refusal.kind, RefusalKind::NotYourTurn);
    let refusal = game.claim(WHITE, Claim::FiftyMoves).unwrap_err();
    assert_eq!(refusal.kind, RefusalKind::ClaimRefused);
    assert!(game.outcome().is_none());

    let outcome = game.claim(WHITE, Claim::ThreefoldRepetition).unwrap();
    assert_eq!(outcome.reason, EndReason::ThreefoldRepetition);
    assert_draw(&game, EndReason::ThreefoldRepetition);
}

#[test]
fn a_claim_too_early_is_refused_and_changes_nothing() {
    let mut game = fide_game();
    play(&mut game, "Nf3 Nf6 Ng1 Ng8");
    let before = serde_json::to_string(&game.view(qiyuan_game::Viewer::Spectator)).unwrap();
    let refusal = game.claim(WHITE, Claim::ThreefoldRepetition).unwrap_err();
    assert_eq!(refusal.kind, RefusalKind::ClaimRefused);
    assert!(refusal.message.contains("2 times"), "{}", refusal.message);
    let after = serde_json::to_string(&game.view(qiyuan_game::Viewer::Spectator)).unwrap();
    assert_eq!(before, after);
    assert!(game.outcome().is_none());
}

#[test]
fn lost_castling_rights_make_a_different_position() {
    // After 1.e4 e5 the kings walk out and back: the board is as it was after
    // 1.e4 e5, but without castling rights that position does not count again.
    let mut game = fide_game();
    play(&mut game, "e4 e5 Ke2 Ke7 Ke1 Ke8 Ke2 Ke7 Ke1 Ke8");
    assert_eq!(game.repetitions(), 2);
    play(&mut game, "Ke2 Ke7 Ke1 Ke8");
    assert_eq!(game.repetitions(), 3);
}

#[test]
fn fivefold_repetition_ends_the_game() {
    let mut game = fide_game();
    for _ in 0..3 {
        play(&mut game, "Nf3 Nf6 Ng1 Ng8");
    }
    // Four occurrences: a claim is possible, the game goes on.
    assert_eq!(game.repetitions(), 4);
    assert!(game.outcome().is_none());
    play(&mut game, "Nf3 Nf6 Ng1 Ng8");
    assert_draw(&game, EndReason::FivefoldRepetition);
}

#[test]
fn fifty_moves_are_claimed_by_the_player_to_move() {
    let mut game = from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 98 80");
    assert!(game.claims(WHITE).is_empty());
    game.act(WHITE, "Ra2").unwrap();
    assert!(game.claims(BLACK).is_empty());
    let refusal = game.claim(BLACK, Claim::FiftyMoves).unwrap_err();
    assert_eq!(refusal.kind, RefusalKind::ClaimRefused);
    game.act(BLACK, "Kd7").unwrap();
    // 100 half-moves without a capture or pawn move.
    assert_eq!(game.claims(WHITE), vec![Claim::FiftyMoves]);
    assert!(game.outcome().is_none());
    let outcome = game.claim(WHITE, Claim::FiftyMoves).unwrap();
    assert_eq!(outcome.reason, EndReason::FiftyMoves);
    assert_draw(&game, EndReason::FiftyMoves);
}

#[test]
fn a_capture_resets_the_fifty_move_count() {
    let mut game = from_fen("4k3/8/8/8/8/8/r7/R3K3 w - - 99 80");
    game.act(WHITE, "Rxa2").unwrap();
    assert!(game.claims(BLACK).is_empty());
    assert_eq!(game.position().halfmoves(), 0);
}

#[test]
fn seventy_five_moves_end_the_game() {
    let mut game = from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 149 100");
    assert!(game.outcome().is_none());
    game.act(WHITE, "Ra2").unwrap();
    assert_draw(&game, EndReason::SeventyFiveMoves);
}

#[test]
fn a_mate_on_the_seventy_fifth_move_counts() {
    let mut game = from_fen("k7/8/1K6/8/8/8/8/7R w - - 149 100");
    game.act(WHITE, "Rh8").unwrap();
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.reason, EndReason::Checkmate);
    assert_eq!(outcome.winner(), Some(WHITE));
}

#[test]
fn a_flag_against_a_bare_king_is_a_draw() {
    // White's flag falls; Black has only a king and cannot mate.
    let game = from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 40");
    let outcome = game.conceded(WHITE, EndReason::Timeout);
    assert_eq!(outcome, Outcome::draw(2, EndReason::Timeout, "1/2-1/2"));
    // Black's flag falls; White has a rook and wins.
    let outcome = game.conceded(BLACK, EndReason::Timeout);
    assert_eq!(outcome.winner(), Some(WHITE));
    assert_eq!(outcome.score, "1-0");
    // A resignation loses whatever the material.
    let outcome = game.conceded(WHITE, EndReason::Resignation);
    assert_eq!(outcome.results, vec![SeatResult::Loss, SeatResult::Win]);
    assert_eq!(outcome.score, "0-1");
}

#[test]
fn a_flag_against_king_and_knight_is_a_draw_unless_a_mate_is_possible() {
    // King and knight cannot mate a king and queen.
    let game = from_fen("4k3/8/8/8/8/8/5n2/Q3K3 w - - 0 40");
    assert_eq!(
        game.conceded(WHITE, EndReason::Timeout).reason,
        EndReason::Timeout
    );
    assert_eq!(game.conceded(WHITE, EndReason::Timeout).winner(), None);
    assert!(!game.can_checkmate(BLACK));
    assert!(game.can_checkmate(WHITE));
    // Against a rook they can (the rook may block its own king's escape), so the
    // flag loses.
    let game = from_fen("4k3/8/8/8/8/8/5n2/R3K3 w - - 0 40");
    assert!(game.can_checkmate(BLACK));
    assert_eq!(
        game.conceded(WHITE, EndReason::Timeout).winner(),
        Some(BLACK)
    );
}

#[test]
fn who_can_still_checkmate() {
    let cases = [
        // (FEN, white can mate, black can mate)
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", false, false),
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", true, false),
        ("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", false, false),
        ("4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1", true, false),
        ("4k3/8/8/8/8/8/7p/4K3 w - - 0 1", false, true),
        // Bishops on both colours can mate.
        ("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", true, false),
        // A knight can mate if the bare king's side has a piece to block with.
        ("4k3/4p3/8/8/8/8/8/1N2K3 w - - 0 1", true, true),
    ];
    for (fen, white, black) in cases {
        let pos = parse_fen(fen).unwrap();
        assert_eq!(can_checkmate(&pos, Color::White), white, "{fen} white");
        assert_eq!(can_checkmate(&pos, Color::Black), black, "{fen} black");
    }
}

#[test]
fn threefold_may_be_claimed_with_the_move_that_makes_it() {
    let mut game = fide_game();
    play(&mut game, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
    // Ng8 would bring the start position a third time.
    let mut wrong = game.clone();
    let refusal = wrong
        .claim_with_move(BLACK, Claim::ThreefoldRepetition, "Nc6")
        .unwrap_err();
    assert_eq!(refusal.kind, RefusalKind::ClaimRefused);
    assert_eq!(wrong.fen(), game.fen());
    assert_eq!(wrong.moves().len(), 7);
    let outcome = game
        .claim_with_move(BLACK, Claim::ThreefoldRepetition, "Ng8")
        .unwrap();
    assert_eq!(outcome.reason, EndReason::ThreefoldRepetition);
    assert_eq!(game.moves().len(), 8);
    assert_draw(&game, EndReason::ThreefoldRepetition);
}

#[test]
fn fifty_moves_may_be_claimed_with_the_fiftieth_move() {
    let mut game = from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    assert!(game.claims(WHITE).is_empty());
    // A pawn move or capture would reset the count; a rook move completes it.
    let outcome = game
        .claim_with_move(WHITE, Claim::FiftyMoves, "Ra2")
        .unwrap();
    assert_eq!(outcome.reason, EndReason::FiftyMoves);
}

#[test]
fn an_en_passant_capture_makes_a_different_position() {
    // After e2-e4 the pawn on d4 may take en passant: that position never recurs,
    // though the board does.
    let mut game = from_fen("1n2k3/8/8/8/3p4/8/4P3/4K1N1 w - - 0 1");
    play(&mut game, "e4 Nc6 Nf3 Nb8 Ng1 Nc6 Nf3 Nb8 Ng1");
    assert_eq!(game.repetitions(), 2);
    assert!(game.claims(BLACK).is_empty());
    play(&mut game, "Nc6 Nf3 Nb8 Ng1");
    assert_eq!(game.claims(BLACK), vec![Claim::ThreefoldRepetition]);
}

#[test]
fn an_en_passant_square_nobody_can_use_does_not_count() {
    let mut game = fide_game();
    play(&mut game, "e4 Nf6 Nf3 Ng8 Ng1 Nf6 Nf3 Ng8 Ng1");
    assert_eq!(game.repetitions(), 3);
    assert_eq!(game.claims(BLACK), vec![Claim::ThreefoldRepetition]);
}

#[test]
fn by_default_the_third_occurrence_draws_without_a_claim() {
    let mut game = ChessGame::new(&ChessOptions::default(), &Setup::Standard).unwrap();
    assert_eq!(game.repetition_rule(), Repetition::Automatic);
    play(&mut game, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
    assert_eq!(game.repetitions(), 2);
    assert!(game.outcome().is_none());
    play(&mut game, "Ng8");
    assert_eq!(game.repetitions(), 3);
    assert_draw(&game, EndReason::ThreefoldRepetition);
    // Nothing is left to claim or play.
    assert!(game.claims(WHITE).is_empty());
    assert_eq!(game.play("Nf3").unwrap_err().kind, RefusalKind::GameOver);
}

#[test]
fn by_default_a_perpetual_check_is_drawn_on_the_third_occurrence() {
    // 长将和 (seed 004): white's queen checks from e8 and e4, the king shuttles
    // between h8 and h7. After the third Qe8+ the position has stood three times
    // with black to move: drawn, with no claim.
    let line = "Qe8+ Kh7 Qe4+ Kh8 Qe8+ Kh7 Qe4+ Kh8 Qe8+";
    let setup = Setup::Position(PERPETUAL.into());
    let mut game = ChessGame::new(&ChessOptions::default(), &setup).unwrap();
    let mut fide = ChessGame::new(&ChessOptions::fide(), &setup).unwrap();
    let last = line.split_whitespace().count() - 1;
    for (i, m) in line.split_whitespace().enumerate() {
        let effects = game.play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        fide.play(m).unwrap();
        assert_eq!(effects.check, i % 2 == 0, "{m}");
        assert_eq!(game.outcome().is_some(), i == last, "after {m}");
    }
    assert_eq!(game.repetitions(), 3);
    assert_draw(&game, EndReason::ThreefoldRepetition);
    // Under the FIDE option the checks may go on until someone claims.
    assert!(fide.outcome().is_none());
    assert_eq!(fide.claims(BLACK), vec![Claim::ThreefoldRepetition]);
}

/// Black threatens on the queenside; white's queen can check for ever.
const PERPETUAL: &str = "7k/6p1/7p/8/8/8/q4PPP/4Q1K1 w - - 0 1";

#[test]
fn the_fide_option_leaves_the_threefold_to_a_claim() {
    let options: ChessOptions = serde_json::from_str(r#"{"repetition": "claim"}"#).unwrap();
    assert_eq!(options, ChessOptions::fide());
    let mut game = ChessGame::new(&options, &Setup::Standard).unwrap();
    play(&mut game, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8");
    assert_eq!(game.repetitions(), 3);
    assert!(game.outcome().is_none());
    assert_eq!(game.claims(WHITE), vec![Claim::ThreefoldRepetition]);
    // A typo in an option is refused rather than ignored.
    assert!(serde_json::from_str::<ChessOptions>(r#"{"repetiton": "claim"}"#).is_err());
    assert!(serde_json::from_str::<ChessOptions>(r#"{"repetition": "never"}"#).is_err());
    assert_eq!(
        serde_json::from_str::<ChessOptions>("{}").unwrap(),
        ChessOptions::default()
    );
}
