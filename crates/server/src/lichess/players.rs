//! The people behind the API's games, as its replies name them: a player of
//! `gameFull`, the opponent of `gameStart`, the challenger and the challenged of
//! a challenge, each an account (its rating in the game's pool, `BOT` for bot
//! accounts) or a built-in engine. Looked up in the store, with the games'
//! rating pools from the registry.

use qiyuan_store::Store;
use qiyuan_table::TimeControl;
use serde::Serialize;

use super::state::{GamePlayer, engine_level};
use crate::registry::Games;

/// What the lookups need: the store and the games' rating pools.
#[derive(Clone, Copy)]
pub(super) struct Players<'a> {
    pub store: &'a dyn Store,
    pub games: &'a Games,
}

/// A user of a challenge (`challenger`, `destUser`).
#[derive(Debug, Clone, Serialize)]
pub(super) struct ChallengeUser {
    pub id: String,
    pub name: String,
    pub rating: i64,
    pub provisional: bool,
    pub title: Option<&'static str>,
    pub online: bool,
}

/// The opponent of a `gameStart`/`gameFinish` game.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub(super) enum Opponent {
    /// A built-in engine (`ai`: its level, where it is a number).
    Engine {
        id: Option<String>,
        username: String,
        ai: Option<u32>,
    },
    Account {
        id: String,
        username: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        rating: Option<i64>,
    },
}

/// Lichess's title of a bot account.
fn title(bot: bool) -> Option<&'static str> {
    bot.then_some("BOT")
}

impl<'a> Players<'a> {
    /// A user's rating (rounded) in the pool game `game` with `time` counts in,
    /// and whether it is provisional (1500, provisional, where none).
    pub(super) async fn rating(self, user: i64, game: &str, time: &TimeControl) -> (i64, bool) {
        let pool = match self.games.get(game) {
            Some(g) => g.pool(time.speed()),
            None => game.to_string(),
        };
        match self.store.rating(user, &pool).await {
            Ok(Some(r)) => (
                r.rating.round() as i64,
                r.deviation > qiyuan_rating::PROVISIONAL_DEVIATION,
            ),
            _ => (1500, true),
        }
    }

    /// The player seated as `name` in a game of `game` with `time`.
    pub(super) async fn in_game(self, name: &str, game: &str, time: &TimeControl) -> GamePlayer {
        if let Some(level) = engine_level(name) {
            return match level.parse::<u32>() {
                Ok(n) => GamePlayer::Engine {
                    ai_level: n,
                    name: None,
                },
                Err(_) => GamePlayer::Engine {
                    ai_level: 8,
                    name: Some(level.to_string()),
                },
            };
        }
        let Ok(Some(user)) = self.store.user_by_name(name).await else {
            return GamePlayer::Account {
                id: name.to_lowercase(),
                name: name.to_string(),
                title: None,
                rating: None,
                provisional: None,
            };
        };
        let bot = self.store.is_bot(user.id).await.unwrap_or(false);
        let (rating, provisional) = self.rating(user.id, game, time).await;
        GamePlayer::Account {
            id: user.username.to_lowercase(),
            name: user.username,
            title: title(bot),
            rating: Some(rating),
            provisional: Some(provisional),
        }
    }

    /// The account `id` (named `name`) in a challenge to a game of `game`.
    pub(super) async fn challenging(
        self,
        id: i64,
        name: &str,
        game: &str,
        time: &TimeControl,
    ) -> ChallengeUser {
        let (rating, provisional) = self.rating(id, game, time).await;
        let bot = self.store.is_bot(id).await.unwrap_or(false);
        ChallengeUser {
            id: name.to_lowercase(),
            name: name.to_string(),
            rating,
            provisional,
            title: title(bot),
            online: true,
        }
    }

    /// The opponent seated as `name` in a game of `game` with `time`.
    pub(super) async fn opponent(self, name: &str, game: &str, time: &TimeControl) -> Opponent {
        if let Some(level) = engine_level(name) {
            return Opponent::Engine {
                id: None,
                username: format!("AI level {level}"),
                ai: level.parse().ok(),
            };
        }
        match self.store.user_by_name(name).await {
            Ok(Some(u)) => {
                let (rating, _) = self.rating(u.id, game, time).await;
                Opponent::Account {
                    id: u.username.to_lowercase(),
                    username: u.username,
                    rating: Some(rating),
                }
            }
            _ => Opponent::Account {
                id: name.to_lowercase(),
                username: name.to_string(),
                rating: None,
            },
        }
    }

    /// The accounts among a game's players (by seat), as (id, name).
    pub(super) async fn accounts(self, players: &[String]) -> Vec<(i64, String)> {
        let mut out = Vec::new();
        for name in players {
            if let Ok(Some(u)) = self.store.user_by_name(name).await
                && &u.username == name
            {
                out.push((u.id, u.username));
            }
        }
        out
    }
}
