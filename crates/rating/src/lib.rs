//! qiyuan-rating: Glicko-2 ratings for two-player games, one rating pool per game
//! and, for chess, per speed (bullet, blitz, rapid, classical, correspondence),
//! and the settlement of a finished game of any seat count.
//!
//! A rating is provisional while its deviation is high. Only rated games between two
//! accounts that were not aborted change ratings; [`rate_game`] says whether a game
//! counts and what it does. The arithmetic is skillratings' Glicko-2. [`settle`]
//! is the whole of a game's end: per seat, the result, the rating change and
//! the points (积分) kept for life, for two seats or three. This crate knows
//! nothing of storage, users or tables: the server reads ratings, asks here, and
//! writes the answer.

use qiyuan_game::{EndReason, Outcome, OutcomeError, Seat, SeatResult};
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

/// One seat of a finished game, as settlement sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SeatHolder {
    /// Whether an account holds the seat. A guest, a computer player or an
    /// empty seat does not: it is neither rated nor keeps points.
    pub account: bool,
    /// The account's rating in the game's pool before the game (the default
    /// for a player new to the pool); unused without an account.
    pub rating: Rating,
}

/// What a finished game settles.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GameEnd<'a> {
    pub outcome: &'a Outcome,
    /// Whether the game counts for ratings, as the table decided.
    pub rated: bool,
    /// Whether players keep the game's points (积分) for life (Doudizhu).
    pub keeps_points: bool,
    /// Who held each seat, in seat order: one per result of the outcome.
    pub seats: &'a [SeatHolder],
}

/// One seat's part of a settled game.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SeatSettlement {
    pub seat: Seat,
    pub result: SeatResult,
    /// What the game did to the seat's rating, where it was rated.
    pub rating: Option<RatingChange>,
    /// The points this game adds to the seat's total, where the game keeps
    /// points, an account holds the seat and its result counted (not void: an
    /// escaped farmer's partner keeps its total).
    pub points: Option<i64>,
}

/// A settled game: every seat's part, and what the record shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Settlement {
    /// One per seat, in seat order.
    pub seats: Vec<SeatSettlement>,
    /// Why no rating changed, when none did.
    pub unrated: Option<Unrated>,
    /// The ratings the record names by seat (PGN `WhiteElo`): the account
    /// seats' ratings before a rated game; empty for a casual one.
    pub record_ratings: Vec<Option<i32>>,
}

/// Settles a finished game of any seat count: each seat's result, its rating
/// change (two-seat rated games between accounts, by [`rate_game`]; Glicko-2
/// is a two-player model, so a game of three seats changes no rating) and its
/// points where the game keeps them. An outcome that does not have one result
/// per seat (or points for some seats only) is refused.
pub fn settle(end: GameEnd<'_>) -> Result<Settlement, OutcomeError> {
    let GameEnd {
        outcome,
        rated,
        keeps_points,
        seats,
    } = end;
    outcome.check(u8::try_from(seats.len()).unwrap_or(u8::MAX))?;
    let held = |h: &SeatHolder| h.account.then_some(h.rating);
    let (changes, unrated) = match seats {
        [a, b] => match rate_game(rated, outcome, [held(a), held(b)]) {
            Ok(changes) => (changes.map(Some).to_vec(), None),
            Err(why) => (vec![None; 2], Some(why)),
        },
        _ if !rated => (vec![None; seats.len()], Some(Unrated::Casual)),
        _ => (vec![None; seats.len()], Some(Unrated::NotTwoPlayers)),
    };
    let settled = seats
        .iter()
        .zip(&outcome.results)
        .zip(changes)
        .enumerate()
        .map(|(i, ((holder, &result), change))| SeatSettlement {
            seat: Seat(i as u8),
            result,
            // An empty seat or a guest is never rated, whatever rate_game says.
            rating: change.filter(|_| holder.account),
            points: (keeps_points && holder.account && result != SeatResult::Void)
                .then(|| outcome.points.get(i).copied())
                .flatten(),
        })
        .collect();
    let record_ratings = if rated {
        seats
            .iter()
            .map(|h| held(h).map(|r| r.rating.round() as i32))
            .collect()
    } else {
        Vec::new()
    };
    Ok(Settlement {
        seats: settled,
        unrated,
        record_ratings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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

    fn account(rating: f64) -> SeatHolder {
        SeatHolder {
            account: true,
            rating: Rating {
                rating,
                ..Rating::default()
            },
        }
    }

    const GUEST: SeatHolder = SeatHolder {
        account: false,
        rating: Rating {
            rating: DEFAULT_RATING,
            deviation: DEFAULT_DEVIATION,
            volatility: DEFAULT_VOLATILITY,
            games: 0,
        },
    };

    fn end<'a>(outcome: &'a Outcome, rated: bool, seats: &'a [SeatHolder]) -> GameEnd<'a> {
        GameEnd {
            outcome,
            rated,
            keeps_points: false,
            seats,
        }
    }

    #[test]
    fn two_seats_rated_settle_as_rate_game_rates() {
        let seats = [account(1600.0), account(1500.0)];
        let outcome = win(1);
        let s = settle(end(&outcome, true, &seats)).unwrap();
        let [a, b] = rate_game(
            true,
            &outcome,
            [Some(seats[0].rating), Some(seats[1].rating)],
        )
        .unwrap();
        assert_eq!(s.unrated, None);
        assert_eq!(s.seats.len(), 2);
        assert_eq!(s.seats[0].seat, Seat(0));
        assert_eq!(s.seats[0].result, SeatResult::Loss);
        assert_eq!(s.seats[1].result, SeatResult::Win);
        assert_eq!(s.seats[0].rating, Some(a));
        assert_eq!(s.seats[1].rating, Some(b));
        assert!(a.diff < 0 && b.diff > 0);
        assert_eq!(s.seats[0].points, None, "chess keeps no points");
        assert_eq!(s.record_ratings, vec![Some(1600), Some(1500)]);
    }

    #[test]
    fn two_seats_unrated_or_with_a_guest_change_no_rating() {
        let outcome = win(0);
        let accounts = [account(1500.0), account(1500.0)];
        let casual = settle(end(&outcome, false, &accounts)).unwrap();
        assert_eq!(casual.unrated, Some(Unrated::Casual));
        assert!(casual.seats.iter().all(|s| s.rating.is_none()));
        assert!(
            casual.record_ratings.is_empty(),
            "a casual record names no ratings"
        );
        assert_eq!(casual.seats[0].result, SeatResult::Win);

        let with_guest = [account(1700.0), GUEST];
        let s = settle(end(&outcome, true, &with_guest)).unwrap();
        assert_eq!(s.unrated, Some(Unrated::NotTwoAccounts));
        assert!(s.seats.iter().all(|s| s.rating.is_none()));
        assert_eq!(s.record_ratings, vec![Some(1700), None]);

        let aborted = Outcome::aborted(2);
        let s = settle(end(&aborted, true, &accounts)).unwrap();
        assert_eq!(s.unrated, Some(Unrated::Aborted));
        assert!(s.seats.iter().all(|s| s.result == SeatResult::Void));
    }

    /// A Doudizhu hand: the landlord (seat 0) lost to the farmers.
    fn hand(results: [SeatResult; 3], points: [i64; 3]) -> Outcome {
        Outcome {
            results: results.to_vec(),
            reason: EndReason::HandEmptied,
            score: "-4 +2 +2".into(),
            points: points.to_vec(),
            deal: 0,
        }
    }

    #[test]
    fn three_seats_settle_points_for_accounts_and_no_rating() {
        use SeatResult::*;
        let outcome = hand([Loss, Win, Win], [-4, 2, 2]);
        // Seat 2 is a computer player: it keeps no points.
        let seats = [account(1500.0), account(1500.0), GUEST];
        for rated in [false, true] {
            let s = settle(GameEnd {
                outcome: &outcome,
                rated,
                keeps_points: true,
                seats: &seats,
            })
            .unwrap();
            let points: Vec<_> = s.seats.iter().map(|s| s.points).collect();
            assert_eq!(points, vec![Some(-4), Some(2), None], "rated: {rated}");
            assert_eq!(
                s.seats.iter().map(|s| s.result).collect::<Vec<_>>(),
                vec![Loss, Win, Win]
            );
            assert!(s.seats.iter().all(|s| s.rating.is_none()));
            let why = if rated {
                Unrated::NotTwoPlayers
            } else {
                Unrated::Casual
            };
            assert_eq!(s.unrated, Some(why));
            assert_eq!(s.record_ratings.len(), if rated { 3 } else { 0 });
        }
        // A game that keeps no points settles none.
        let s = settle(GameEnd {
            outcome: &outcome,
            rated: false,
            keeps_points: false,
            seats: &seats,
        })
        .unwrap();
        assert!(s.seats.iter().all(|s| s.points.is_none()));
    }

    #[test]
    fn an_escaped_farmers_partner_keeps_its_total() {
        use SeatResult::*;
        // Seat 1 (a farmer) escaped: it pays the landlord; its partner is void.
        let outcome = hand([Win, Loss, Void], [4, -4, 0]);
        let seats = [account(1500.0); 3];
        let s = settle(GameEnd {
            outcome: &outcome,
            rated: false,
            keeps_points: true,
            seats: &seats,
        })
        .unwrap();
        let points: Vec<_> = s.seats.iter().map(|s| s.points).collect();
        assert_eq!(points, vec![Some(4), Some(-4), None]);
    }

    #[test]
    fn an_outcome_of_another_seat_count_is_refused() {
        let seats = [account(1500.0); 3];
        assert_eq!(
            settle(end(&win(0), true, &seats)),
            Err(OutcomeError::Results {
                results: 2,
                seats: 3
            })
        );
        let mut short = hand(
            [SeatResult::Win, SeatResult::Loss, SeatResult::Loss],
            [2, -1, -1],
        );
        short.points.pop();
        assert_eq!(
            settle(end(&short, false, &seats)),
            Err(OutcomeError::Points {
                points: 2,
                seats: 3
            })
        );
    }
}
