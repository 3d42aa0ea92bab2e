//! The stored game rows of a table's games: a game's row when it starts (its
//! players and their ratings then), and its end (result, record, rating changes,
//! points) when it ends, or after a restart when the end was not yet written.

use crate::protocol::out::RatingChange;
use qiyuan_game::{Outcome, SeatResult};
use qiyuan_store::{Finish, NewGame, Player, PointsChange, RatingRow};
use qiyuan_table::{Event, Settings};

use super::actor::Live;

impl Live {
    /// Writes the stored game rows for games that started or ended in `events`;
    /// returns the rating changes of an ended game.
    pub(super) async fn game_rows(&mut self, events: &[Event]) -> Option<Vec<RatingChange>> {
        let mut ratings = None;
        for event in events {
            match event {
                Event::Started {
                    game,
                    players,
                    settings,
                    ..
                } => {
                    if let Err(e) = self.started(*game, players, settings).await {
                        tracing::error!(table = %self.id, "cannot store game start: {e}");
                    }
                }
                Event::Ended { outcome, rated } => match self.ended(outcome, *rated).await {
                    Ok(r) => ratings = r,
                    Err(e) => tracing::error!(table = %self.id, "cannot store game end: {e}"),
                },
                _ => {}
            }
        }
        ratings
    }

    fn game_id_of(&self, number: u32) -> String {
        if number <= 1 {
            self.id.clone()
        } else {
            format!("{}-{number}", self.id)
        }
    }

    fn pool(&self, settings: &Settings) -> String {
        let speed = settings.time.speed();
        match self.app.games.get(self.table.game_name()) {
            Some(game) => game.pool(speed),
            // A table exists only for a hosted game.
            None => qiyuan_rating::pool(self.table.game_name(), None),
        }
    }

    async fn started(
        &mut self,
        number: u32,
        players: &[String],
        settings: &Settings,
    ) -> anyhow::Result<()> {
        let id = self.game_id_of(number);
        let pool = self.pool(settings);
        // Whether the game counts, as the table decided at its start (a game from
        // a loaded position never does, whatever its settings say).
        let rated = self
            .table
            .state()
            .game
            .as_ref()
            .filter(|g| g.number == number)
            .is_some_and(|g| g.rated);
        let mut rows = Vec::new();
        for (seat, name) in players.iter().enumerate() {
            let user = self.app.store.user_by_name(name).await?;
            let rating = match &user {
                Some(u) if rated && !u.guest => Some(
                    self.app
                        .store
                        .rating(u.id, &pool)
                        .await?
                        .map(|r| r.rating.round() as i64)
                        .unwrap_or(qiyuan_rating::DEFAULT_RATING as i64),
                ),
                _ => None,
            };
            rows.push(Player {
                seat: seat as i64,
                user_id: user.map(|u| u.id),
                name: name.clone(),
                rating,
                rating_diff: None,
            });
        }
        let started_at = self
            .table
            .state()
            .game
            .as_ref()
            .map(|g| g.started_at as i64)
            .unwrap_or_else(crate::now_ms);
        self.app
            .store
            .start_game(&NewGame {
                id: id.clone(),
                table_id: self.id.clone(),
                number: i64::from(number),
                game: self.table.game_name().to_string(),
                settings: serde_json::to_string(settings)?,
                rated,
                started_at,
                players: rows,
            })
            .await?;
        self.game_id = Some(id);
        Ok(())
    }

    async fn ended(
        &mut self,
        outcome: &Outcome,
        rated: bool,
    ) -> anyhow::Result<Option<Vec<RatingChange>>> {
        let Some(gs) = self.table.state().game.clone() else {
            return Ok(None);
        };
        let id = self.game_id_of(gs.number);
        let pool = self.pool(&gs.settings);
        let mut users = Vec::new();
        let mut current = Vec::new();
        for name in &gs.players {
            let user = self
                .app
                .store
                .user_by_name(name)
                .await?
                .filter(|u| !u.guest);
            let rating = match &user {
                Some(u) => Some(match self.app.store.rating(u.id, &pool).await? {
                    Some(r) => qiyuan_rating::Rating {
                        rating: r.rating,
                        deviation: r.deviation,
                        volatility: r.volatility,
                        games: r.games,
                    },
                    None => qiyuan_rating::Rating::default(),
                }),
                None => None,
            };
            users.push(user);
            current.push(rating);
        }
        let at = crate::now_ms();
        let mut finish = Finish {
            game_id: id,
            at,
            result: serde_json::to_string(outcome)?,
            record: self
                .record(if rated {
                    current
                        .iter()
                        .map(|r| r.map(|r| r.rating.round() as i32))
                        .collect()
                } else {
                    Vec::new()
                })
                .unwrap_or_default(),
            rating_diffs: Vec::new(),
            ratings: Vec::new(),
            points: Vec::new(),
        };
        let mut changes = None;
        if let [a, b] = current.as_slice()
            && let Ok(result) = qiyuan_rating::rate_game(rated, outcome, [*a, *b])
        {
            let mut out = Vec::new();
            for (seat, change) in result.iter().enumerate() {
                let Some(user) = &users[seat] else { continue };
                finish.rating_diffs.push((seat as i64, change.diff));
                finish.ratings.push(RatingRow {
                    user_id: user.id,
                    pool: pool.clone(),
                    rating: change.after.rating,
                    deviation: change.after.deviation,
                    volatility: change.after.volatility,
                    games: change.after.games,
                    updated_at: at,
                });
                out.push(RatingChange {
                    seat,
                    user: user.username.clone(),
                    pool: pool.clone(),
                    before: change.before.shown(),
                    after: change.after.shown(),
                    diff: change.diff,
                    provisional: change.after.provisional(),
                });
            }
            changes = Some(out);
        }
        // Points (积分) for life, where the game keeps them: each account seat
        // whose result counted adds the hand's points (an escaped farmer's partner
        // is void and keeps its total; bots and guests keep none).
        if self
            .app
            .games
            .get(self.table.game_name())
            .is_some_and(|g| g.points)
        {
            for (seat, user) in users.iter().enumerate() {
                let (Some(user), Some(diff)) = (user, outcome.points.get(seat)) else {
                    continue;
                };
                if outcome.results.get(seat) == Some(&SeatResult::Void) {
                    continue;
                }
                finish.points.push(PointsChange {
                    user_id: user.id,
                    game: self.table.game_name().to_string(),
                    diff: *diff,
                });
            }
        }
        let first_time = self.app.store.finish_game(&finish).await?;
        Ok(if first_time { changes } else { None })
    }

    /// After a restart: make sure the stored rows agree with the replayed table
    /// (a crash may have come between the log entry and the game row).
    pub(super) async fn restore_game_rows(&mut self) {
        let Some(gs) = self.table.state().game.clone() else {
            return;
        };
        if let Err(e) = self.started(gs.number, &gs.players, &gs.settings).await {
            tracing::error!(table = %self.id, "cannot restore game row: {e}");
        }
        if let Some(outcome) = &gs.outcome
            && let Err(e) = self.ended(outcome, gs.rated).await
        {
            tracing::error!(table = %self.id, "cannot restore game end: {e}");
        }
    }
}
