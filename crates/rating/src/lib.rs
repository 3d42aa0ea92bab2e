//! qiyuan-rating: Glicko-2 ratings for two-player games, one rating pool per game
//! and, for chess, per speed (bullet, blitz, rapid, classical, correspondence).
//!
//! A rating is provisional while its deviation is high. Only rated games between two
//! accounts that were not aborted change ratings; [`rate_game`] says whether a game
//! counts and what it does. The arithmetic is skillratings' Glicko-2. This crate
//! knows nothing of storage, users or tables: the server reads ratings, asks here,
//! and writes the answer.

use qiyuan_game::{EndReason, Outcome, SeatResult};
use serde::{Deserialize, Serialize};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

/// A new player's rating.
pub const DEFAULT_RATING: f64 = 1500.0;
/// A new player's deviation: as uncertain as Glicko-2 allows.
pub const DEFAULT_DEVIATION: f64 = 350.0;
pub const DEFAULT_VOLATILITY: f64 = 0.06;
/// Above this deviation a rating is provisional (shown with a `?`), as on Lichess.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// Deviations never shrink below this, so that ratings stay responsive.
pub const MIN_DEVIATION: f64 = 45.0;

/// One player's rating in one pool.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// Rated games played in the pool.
    pub games: i64,
}

impl Default for Rating {
    fn default() -> Self {
        Rating {
            rating: DEFAULT_RATING,
            deviation: DEFAULT_DEVIATION,
            volatility: DEFAULT_VOLATILITY,
            games: 0,
        }
    }
}

impl Rating {
    /// Whether the rating is still too uncertain to be trusted.
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// The rating as players see it: rounded.
    pub fn shown(&self) -> i64 {
        self.rating.round() as i64
    }

    fn glicko(&self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }
}

/// The pool a game's ratings live in: `xiangqi`, `go`, or, for a game split by
/// speed (the server's registry says which: chess, because one player's bullet
/// and classical strengths differ), `chess:blitz`. `speed` is the time control's
/// speed class (`blitz`, ...; see qiyuan-clock), or `None` for one pool.
pub fn pool(game: &str, speed: Option<&str>) -> String {
    match speed {
        Some(speed) => format!("{game}:{speed}"),
        None => game.to_string(),
    }
}

/// What a finished game does to the two players' ratings.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RatingChange {
    pub before: Rating,
    pub after: Rating,
    /// The shown rating's change.
    pub diff: i64,
}

/// Why a game changes no rating.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unrated {
    /// The table was casual.
    Casual,
    /// A seat was not held by an account (a guest, an empty seat).
    NotTwoAccounts,
    /// The game was aborted, or its outcome is void.
    Aborted,
    /// Not a two-player game.
    NotTwoPlayers,
}

/// Rates a finished two-player game. `ratings` are the seats' ratings in the game's
/// pool, `None` for a seat not held by an account.
pub fn rate_game(
    rated: bool,
    outcome: &Outcome,
    ratings: [Option<Rating>; 2],
) -> Result<[RatingChange; 2], Unrated> {
    if !rated {
        return Err(Unrated::Casual);
    }
    if outcome.results.len() != 2 {
        return Err(Unrated::NotTwoPlayers);
    }
    if outcome.reason == EndReason::Aborted || outcome.results.contains(&SeatResult::Void) {
        return Err(Unrated::Aborted);
    }
    let [Some(a), Some(b)] = ratings else {
        return Err(Unrated::NotTwoAccounts);
    };
    let first = match outcome.results[0] {
        SeatResult::Win => Outcomes::WIN,
        SeatResult::Loss => Outcomes::LOSS,
        SeatResult::Draw => Outcomes::DRAW,
        SeatResult::Void => return Err(Unrated::Aborted),
    };
    let (na, nb) = glicko2(&a.glicko(), &b.glicko(), &first, &Glicko2Config::new());
    let change = |before: Rating, g: Glicko2Rating| {
        let after = Rating {
            rating: g.rating,
            deviation: g.deviation.max(MIN_DEVIATION),
            volatility: g.volatility,
            games: before.games + 1,
        };
        RatingChange {
            before,
            after,
            diff: after.shown() - before.shown(),
        }
    };
    Ok([change(a, na), change(b, nb)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiyuan_game::Seat;

    fn win(seat: u8) -> Outcome {
        Outcome::win(
            2,
            Seat(seat),
            EndReason::Checkmate,
            if seat == 0 { "1-0" } else { "0-1" },
        )
    }

    #[test]
    fn the_winner_gains_what_the_loser_loses_between_equals() {
        let [a, b] = rate_game(true, &win(0), [Some(Rating::default()); 2]).unwrap();
        assert!(a.diff > 0 && b.diff < 0);
        assert_eq!(a.diff, -b.diff);
        assert_eq!(a.after.games, 1);
        assert!(a.after.deviation < DEFAULT_DEVIATION);
        assert!(a.after.provisional(), "one game is not enough");
    }

    #[test]
    fn an_upset_moves_ratings_more_than_an_expected_result() {
        let strong = Rating {
            rating: 1900.0,
            deviation: 60.0,
            games: 100,
            ..Rating::default()
        };
        let weak = Rating {
            rating: 1500.0,
            deviation: 60.0,
            games: 100,
            ..Rating::default()
        };
        let [expected, _] = rate_game(true, &win(0), [Some(strong), Some(weak)]).unwrap();
        let [upset, _] = rate_game(true, &win(1), [Some(strong), Some(weak)]).unwrap();
        assert!(expected.diff > 0 && expected.diff < 10, "{expected:?}");
        assert!(upset.diff < -15, "{upset:?}");
        assert!(!strong.provisional());
    }

    #[test]
    fn a_draw_between_equals_changes_no_rating() {
        let draw = Outcome::draw(2, EndReason::Agreement, "1/2-1/2");
        let [a, b] = rate_game(true, &draw, [Some(Rating::default()); 2]).unwrap();
        assert_eq!((a.diff, b.diff), (0, 0));
    }

    #[test]
    fn only_rated_complete_games_between_accounts_count() {
        let r = Some(Rating::default());
        assert_eq!(rate_game(false, &win(0), [r, r]), Err(Unrated::Casual));
        assert_eq!(
            rate_game(true, &win(0), [r, None]),
            Err(Unrated::NotTwoAccounts)
        );
        assert_eq!(
            rate_game(true, &Outcome::aborted(2), [r, r]),
            Err(Unrated::Aborted)
        );
    }

    #[test]
    fn pools_split_by_speed_are_named_by_it() {
        // Which games are split is the server registry's (see its test
        // `chess_pools_are_split_by_speed`: xiangqi's blitz is `xiangqi`).
        assert_eq!(pool("chess", Some("blitz")), "chess:blitz");
        assert_eq!(pool("chess", None), "chess");
        assert_eq!(pool("xiangqi", None), "xiangqi");
    }
}
