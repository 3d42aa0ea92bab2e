//! The stored game rows of a table's games: a game's row when it starts (its
//! players and their ratings then), and its end (result, record, rating changes,
//! points) when it ends, or after a restart when the end was not yet written.

use std::sync::Arc;

use qiyuan_game::Outcome;
use qiyuan_store::{Finish, LogMark, NewGame, Player, PointsChange, RatingRow};
use qiyuan_table::{Event, Settings};

use super::Occupant;
use super::actor::Live;
use super::events::TableEvent;
use crate::protocol::out::RatingChange;

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
                    match self.started(*game, players, settings).await {
                        Ok(id) => self.env.events.publish(TableEvent::Started {
                            table: self.id.clone(),
                            game: id,
                        }),
                        Err(e) => tracing::error!(table = %self.id, "cannot store game start: {e}"),
                    }
                    let id = self.game_id_of(*game);
                    crate::logs::game_started(&self.id, &id, self.table.game_name(), players);
                }
                Event::Ended { outcome, rated } => {
                    if let Some(g) = &self.table.state().game {
                        let id = self.game_id_of(g.number);
                        let game = self.table.game_name();
                        crate::logs::game_ended(&self.id, &id, game, &g.players, outcome);
                    }
                    match self.ended(outcome, *rated).await {
                        Ok(r) => ratings = r,
                        Err(e) => tracing::error!(table = %self.id, "cannot store game end: {e}"),
                    }
                }
                _ => {}
            }
        }
        ratings
    }

    /// The account (id, guest) of the user `name`: known if they acted here,
    /// none for anyone but a person (a computer player, a stand-in), else from
    /// the store.
    async fn account(&self, name: &str) -> anyhow::Result<Option<(i64, bool)>> {
        if let Some(&known) = self.accounts.get(name) {
            return Ok(Some(known));
        }
        if !Occupant::of(name).is_person() {
            return Ok(None);
        }
        Ok(self
            .env
            .store
            .user_by_name(name)
            .await?
            .map(|u| (u.id, u.guest)))
    }

    fn game_id_of(&self, number: u32) -> String {
        if number <= 1 {
            self.id.to_string()
        } else {
            format!("{}-{number}", self.id)
        }
    }

    fn pool(&self, settings: &Settings) -> String {
        let speed = settings.time.speed();
        match self.env.games.get(self.table.game_name()) {
            Some(game) => game.pool(speed),
            // A table exists only for a hosted game.
            None => qiyuan_rating::pool(self.table.game_name(), None),
        }
    }

    /// Game `number`'s row as the store will have it: its players and, in a
    /// rated game, their ratings then (read from the store).
    async fn start_row(
        &self,
        number: u32,
        players: &[String],
        settings: &Settings,
    ) -> anyhow::Result<NewGame> {
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
            let user = self.account(name).await?;
            let rating = match user {
                Some((id, false)) if rated => Some(
                    self.env
                        .store
                        .rating(id, &pool)
                        .await?
                        .map(|r| r.rating.round() as i64)
                        .unwrap_or(qiyuan_rating::DEFAULT_RATING as i64),
                ),
                _ => None,
            };
            rows.push(Player {
                seat: seat as i64,
                user_id: user.map(|(id, _)| id),
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
        Ok(NewGame {
            id,
            table_id: self.id.to_string(),
            number: i64::from(number),
            game: self.table.game_name().to_string(),
            settings: serde_json::to_string(settings)?,
            rated,
            started_at,
            players: rows,
            // Private games (单机) are in no list.
            private: !self.kind.games_listed(),
        })
    }

    /// Stores game `number`'s start; returns its stored id.
    async fn started(
        &mut self,
        number: u32,
        players: &[String],
        settings: &Settings,
    ) -> anyhow::Result<Arc<str>> {
        let game = self.start_row(number, players, settings).await?;
        self.env.store.start_game(&game).await?;
        let id: Arc<str> = Arc::from(game.id);
        self.game_id = Some(id.clone());
        Ok(id)
    }

    /// A finished game's end as the store will have it: loads who held each
    /// seat and their ratings, settles the game ([`qiyuan_rating::settle`]:
    /// ratings, points, per-seat rows); with the rating changes to show
    /// (none for a game that changes no rating). None without a game.
    async fn end_row(&self, outcome: &Outcome, rated: bool) -> anyhow::Result<Option<Ended>> {
        let Some(gs) = self.table.state().game.clone() else {
            return Ok(None);
        };
        let id = self.game_id_of(gs.number);
        let pool = self.pool(&gs.settings);
        let mut users = Vec::new();
        let mut holders = Vec::new();
        for name in &gs.players {
            let user = self
                .account(name)
                .await?
                .filter(|&(_, guest)| !guest)
                .map(|(id, _)| id);
            let rating = match user {
                Some(id) => match self.env.store.rating(id, &pool).await? {
                    Some(r) => qiyuan_rating::Rating {
                        rating: r.rating,
                        deviation: r.deviation,
                        volatility: r.volatility,
                        games: r.games,
                    },
                    None => qiyuan_rating::Rating::default(),
                },
                None => qiyuan_rating::Rating::default(),
            };
            holders.push(qiyuan_rating::SeatHolder {
                account: user.is_some(),
                rating,
            });
            users.push(user.map(|id| (id, name)));
        }
        let game = self.table.game_name();
        let settled = qiyuan_rating::settle(qiyuan_rating::GameEnd {
            outcome,
            rated,
            // Points (积分) are kept for hands dealt from the server's fresh
            // randomness only: not at a private table (单机), and not for a
            // chosen deal (a loaded `seed N` or deals written out), which
            // colluding players could otherwise replay for points.
            keeps_points: self.env.games.get(game).is_some_and(|g| g.points)
                && self.kind.keeps_points()
                && gs.settings.setup == qiyuan_game::Setup::Standard,
            seats: &holders,
        })?;
        let at = crate::now_ms();
        let mut finish = Finish {
            game_id: id,
            at,
            result: serde_json::to_string(outcome)?,
            record: self
                .record(settled.record_ratings.clone())
                .unwrap_or_default(),
            rating_diffs: Vec::new(),
            ratings: Vec::new(),
            points: Vec::new(),
        };
        let mut changes = Vec::new();
        for (seat, user) in settled.seats.iter().zip(&users) {
            let Some((user_id, username)) = user else {
                continue;
            };
            if let Some(change) = seat.rating {
                finish
                    .rating_diffs
                    .push((i64::from(seat.seat.0), change.diff));
                finish.ratings.push(RatingRow {
                    user_id: *user_id,
                    pool: pool.clone(),
                    rating: change.after.rating,
                    deviation: change.after.deviation,
                    volatility: change.after.volatility,
                    games: change.after.games,
                    updated_at: at,
                });
                changes.push(RatingChange {
                    seat: seat.seat.index(),
                    user: username.to_string(),
                    pool: pool.clone(),
                    before: change.before.shown(),
                    after: change.after.shown(),
                    diff: change.diff,
                    provisional: change.after.provisional(),
                });
            }
            // Points (积分) for life, where the game keeps them.
            if let Some(diff) = seat.points {
                finish.points.push(PointsChange {
                    user_id: *user_id,
                    game: game.to_string(),
                    diff,
                });
            }
        }
        let changes = settled.unrated.is_none().then_some(changes);
        Ok(Some(Ended { finish, changes }))
    }

    /// Stores a finished game ([`Live::end_row`]) and tells the listeners
    /// ([`TableEvent::Ended`]); returns its rating changes the first time.
    async fn ended(
        &mut self,
        outcome: &Outcome,
        rated: bool,
    ) -> anyhow::Result<Option<Vec<RatingChange>>> {
        let Some(Ended { finish, changes }) = self.end_row(outcome, rated).await? else {
            return Ok(None);
        };
        let first_time = self.env.store.finish_game(&finish).await?;
        self.publish_ended(finish.game_id, outcome);
        Ok(if first_time { changes } else { None })
    }

    fn publish_ended(&self, game: String, outcome: &Outcome) {
        self.env.events.publish(TableEvent::Ended {
            table: self.id.clone(),
            game: Arc::from(game),
            result: outcome.clone(),
        });
    }

    /// The row of the game that `events` start or end, when they start or
    /// end exactly one (else none, and [`Live::game_rows`] writes them after
    /// the entry): prepared before the command's log entry is stored, so
    /// that its write goes to the group writer with the entry
    /// ([`RowWrite::write`]).
    pub(super) async fn prepare_row(&self, events: &[Event]) -> Option<RowWrite> {
        let mut rows = events
            .iter()
            .filter(|e| matches!(e, Event::Started { .. } | Event::Ended { .. }));
        let (Some(event), None) = (rows.next(), rows.next()) else {
            return None;
        };
        let prepared = match event {
            Event::Started {
                game,
                players,
                settings,
                ..
            } => self
                .start_row(*game, players, settings)
                .await
                .map(|row| Some(RowWrite::Start(row, players.clone()))),
            Event::Ended { outcome, rated } => self
                .end_row(outcome, *rated)
                .await
                .map(|ended| ended.map(|ended| RowWrite::End(ended, outcome.clone()))),
            _ => Ok(None),
        };
        // On a failure, the ordinary path tries again and says why.
        prepared.ok().flatten()
    }

    /// What follows a game's row stored with its entry (`first_time`: the
    /// end was not stored before), as [`Live::game_rows`] does after writing
    /// it: the log line, the listeners told; an end's rating changes.
    pub(super) fn row_stored(
        &mut self,
        row: RowWrite,
        first_time: bool,
    ) -> Option<Vec<RatingChange>> {
        match row {
            RowWrite::Start(game, players) => {
                let id: Arc<str> = Arc::from(game.id);
                self.game_id = Some(id.clone());
                self.env.events.publish(TableEvent::Started {
                    table: self.id.clone(),
                    game: id.clone(),
                });
                crate::logs::game_started(&self.id, &id, self.table.game_name(), &players);
                None
            }
            RowWrite::End(Ended { finish, changes }, outcome) => {
                if let Some(g) = &self.table.state().game {
                    let game = self.table.game_name();
                    crate::logs::game_ended(&self.id, &finish.game_id, game, &g.players, &outcome);
                }
                self.publish_ended(finish.game_id, &outcome);
                if first_time { changes } else { None }
            }
        }
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

/// A settled end as the store will have it, with the rating changes to show.
pub(super) struct Ended {
    finish: Finish,
    changes: Option<Vec<RatingChange>>,
}

/// A game's start (its row, its players' names) or end (with its outcome),
/// prepared before its entry is stored ([`Live::prepare_row`]).
pub(super) enum RowWrite {
    Start(NewGame, Vec<String>),
    End(Ended, Outcome),
}

impl RowWrite {
    /// Writes the row, made only if the log holds `after` (the entry that
    /// started or ended the game) when the group writer runs it: sent right
    /// after the entry's append, it commits in the same round of the writer
    /// (the batch's appends, then its other writes). `Some(first_time)` once
    /// stored; `None` if the entry was not there (nothing written).
    pub(super) async fn write(
        &self,
        store: &dyn qiyuan_store::Store,
        after: &LogMark,
    ) -> qiyuan_store::Result<Option<bool>> {
        match self {
            RowWrite::Start(game, _) => {
                Ok(store.start_game_after(game, after).await?.then_some(true))
            }
            RowWrite::End(ended, _) => store.finish_game_after(&ended.finish, after).await,
        }
    }
}
