//! Random legal games from a seed: test and benchmark material (a 10,000-game PGN
//! for `qiyuan pgn check`) that needs no file in the repository. Pure: the same
//! seed always gives the same games.

use qiyuan_game::{Game, RecordMeta};
use shakmaty::Position;

use crate::ChessGame;

/// A small, fast, seedable generator (SplitMix64); quality is ample for picking
/// moves, and it keeps the crate free of a dependency.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// A random game of at most `max_plies` moves. Captures are preferred half of the
/// time, so that material comes off and games reach real endings (mates, dead
/// positions, repetitions, the seventy-five-move rule) as well as running out.
pub fn random_game(rng: &mut Rng, max_plies: usize) -> ChessGame {
    let mut game = ChessGame::default();
    while game.outcome().is_none() && game.moves().len() < max_plies {
        let moves = game.position().legal_moves();
        let captures: Vec<_> = moves.iter().filter(|m| m.is_capture()).collect();
        let m = if !captures.is_empty() && rng.below(2) == 0 {
            *captures[rng.below(captures.len())]
        } else {
            moves[rng.below(moves.len())]
        };
        let uci = shakmaty::uci::UciMove::from_standard(m).to_string();
        if game.play(&uci).is_err() {
            break;
        }
    }
    game
}

/// `games` random games as one PGN text, with tags, clock comments and results as
/// a server would write them.
pub fn random_games_pgn(seed: u64, games: usize) -> String {
    let mut rng = Rng::new(seed);
    let mut out = String::new();
    for i in 0..games {
        let max_plies = 40 + rng.below(160);
        let game = random_game(&mut rng, max_plies);
        let mut remaining = [300_000u64, 300_000];
        let clocks = (0..game.moves().len())
            .map(|ply| {
                let side = &mut remaining[ply % 2];
                *side = side.saturating_sub(rng.below(4000) as u64) + 2000;
                Some(*side)
            })
            .collect();
        let meta = RecordMeta {
            event: Some("qiyuan random games".into()),
            site: Some("qiyuan".into()),
            date: Some("2026.01.01".into()),
            round: Some((i + 1).to_string()),
            players: vec![
                format!("Random {}", 2 * i + 1),
                format!("Random {}", 2 * i + 2),
            ],
            ratings: vec![Some(1500), Some(1500)],
            time_control: Some(qiyuan_game::RecordTime::Fischer {
                main: 300,
                increment: 2,
            }),
            clocks,
            ..RecordMeta::default()
        };
        out.push_str(&game.record(&meta));
    }
    out
}
