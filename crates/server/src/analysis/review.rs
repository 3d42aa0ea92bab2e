//! "Analyse this game" (`GET` or `POST /api/game/{id}/analysis`): every
//! position of a finished, stored game evaluated by the game's engine, and each
//! move classed by the drop in the mover's winning chances as Lichess does
//! (lila's `Advice`: a drop of 0.1, 0.2 or 0.3 in winning chances on -1 … 1 is
//! an inaccuracy, a mistake or a blunder; see [`Line::winning_chances`]). The
//! last position is the stored result's where no seat is to move yet the moves
//! alone do not end the game (the count after Go's marking). Go's judgements are
//! only as steady as the Monte-Carlo engine's win rates at that time.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::{ConnectInfo, Path, State};
use serde::{Deserialize, Serialize};

use super::{Budget, Line};
use crate::App;
use crate::error::{ApiError, ApiResult, Query};

/// The time each position gets by default, and its bounds.
pub const DEFAULT_MS: u64 = 300;
const MIN_MS: u64 = 50;
const MAX_MS: u64 = 3_000;
/// A whole review takes at most about this long: longer games get less per position.
const MAX_TOTAL: Duration = Duration::from_secs(90);
/// At most this many moves are reviewed.
const MAX_PLIES: usize = 600;

#[derive(Debug, Default, Deserialize)]
pub struct ReviewQuery {
    /// Milliseconds per position.
    #[serde(default)]
    ms: Option<u64>,
    /// `false`: no evaluation, only the game's options, setup and moves (the
    /// analysis board opens on the game's last position with them at once).
    #[serde(default)]
    evaluate: Option<bool>,
}

/// A move's judgement (lila's names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Judgement {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Judgement {
    /// The judgement of a drop in the mover's winning chances (-1 … 1).
    pub fn of_drop(drop: f32) -> Option<Judgement> {
        if drop >= 0.3 {
            Some(Judgement::Blunder)
        } else if drop >= 0.2 {
            Some(Judgement::Mistake)
        } else if drop >= 0.1 {
            Some(Judgement::Inaccuracy)
        } else {
            None
        }
    }
}

/// One move of the reviewed game.
#[derive(Debug, Clone, Serialize)]
pub struct MoveReview {
    /// 1 for the first move.
    pub ply: usize,
    #[serde(rename = "move")]
    pub mv: String,
    pub seat: u8,
    /// The first seat's winning chances (-1 … 1) before and after the move.
    pub before: f32,
    pub after: f32,
    /// What the mover lost in winning chances (negative: gained).
    pub loss: f32,
    pub judgement: Option<Judgement>,
    /// The engine's move in the position before, when it was another.
    pub best: Option<String>,
    /// The same in the game's display notation (SAN, Chinese notation).
    pub best_display: Option<String>,
}

/// One position's evaluation.
#[derive(Debug, Clone, Serialize)]
pub struct PositionEval {
    /// The first seat's winning chances, -1 … 1.
    pub chances: f32,
    /// The engine's last line there (none at the game's end).
    pub line: Option<Line>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Review {
    pub id: String,
    pub game: String,
    /// The game's rule options and start, to replay its moves.
    pub options: serde_json::Value,
    pub setup: qiyuan_game::Setup,
    /// The game's moves in its notation, from the setup.
    pub played: Vec<String>,
    pub ms_per_position: u64,
    pub positions: Vec<PositionEval>,
    pub moves: Vec<MoveReview>,
    /// How many moves of each judgement each seat made.
    pub counts: Vec<Counts>,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct Counts {
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
}

/// `GET`/`POST /api/game/{id}/analysis?ms=N`.
pub async fn review(
    State(app): State<Arc<App>>,
    ConnectInfo(peer): ConnectInfo<std::net::SocketAddr>,
    headers: axum::http::HeaderMap,
    Path(id): Path<String>,
    Query(q): Query<ReviewQuery>,
) -> ApiResult<Json<Review>> {
    // A review needs no account: it counts against the client's address.
    let owner = crate::compute::Owner::addr(app.proxies.client_ip(peer.ip(), &headers));
    let row = app
        .store
        .game(&id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no stored game {id}")))?;
    let record = row.record.clone().ok_or_else(|| {
        ApiError::bad_request("not_finished", "only a finished game can be analysed")
    })?;
    let descriptor = app
        .games
        .get(&row.game)
        .ok_or_else(|| ApiError::not_found(format!("no game {:?} here", row.game)))?
        .clone();
    if !descriptor.analysis {
        return Err(ApiError::bad_request(
            "no_analysis",
            format!("there is no engine to analyse {}", descriptor.name),
        ));
    }
    let settings: qiyuan_table::Settings =
        serde_json::from_str(&row.settings).map_err(ApiError::internal)?;
    let (setup, moves) = descriptor
        .load_record(&settings.options, &record)
        .map_err(|e| ApiError::bad_request("bad_record", e))?;
    if moves.len() > MAX_PLIES {
        return Err(ApiError::bad_request(
            "too_long",
            format!("at most {MAX_PLIES} moves are analysed"),
        ));
    }
    if q.evaluate == Some(false) {
        return Ok(Json(Review {
            id,
            game: row.game.clone(),
            options: settings.options.clone(),
            setup,
            played: moves,
            ms_per_position: 0,
            positions: Vec::new(),
            moves: Vec::new(),
            counts: vec![Counts::default(); descriptor.seats as usize],
        }));
    }
    let positions = moves.len() + 1;
    let fair = (MAX_TOTAL.as_millis() as u64 / positions as u64).max(MIN_MS);
    let ms = q.ms.unwrap_or(DEFAULT_MS).clamp(MIN_MS, MAX_MS).min(fair);
    // The stored end (a count, a resignation, a flag) decides the last position
    // where the moves alone do not end the game.
    let end = row
        .result
        .as_deref()
        .and_then(|r| serde_json::from_str::<qiyuan_game::Outcome>(r).ok())
        .map(|o| match o.winner() {
            Some(s) if s.0 == 0 => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        });
    let options = settings.options.clone();
    let game = row.game.clone();
    let (shown_options, shown_setup, played) = (options.clone(), setup.clone(), moves.clone());
    let result = super::blocking(&app.compute, &owner, move |stop| {
        evaluate(&descriptor, &options, &setup, &moves, ms, end, stop).map(
            |(positions, reviewed)| {
                let mut counts = vec![Counts::default(); descriptor.seats as usize];
                for m in &reviewed {
                    if let (Some(j), Some(c)) = (m.judgement, counts.get_mut(m.seat as usize)) {
                        match j {
                            Judgement::Inaccuracy => c.inaccuracies += 1,
                            Judgement::Mistake => c.mistakes += 1,
                            Judgement::Blunder => c.blunders += 1,
                        }
                    }
                }
                (positions, reviewed, counts)
            },
        )
    })
    .await?;
    let (positions, moves, counts) =
        result.map_err(|e| ApiError::bad_request(e.code, e.message))?;
    Ok(Json(Review {
        id,
        game,
        options: shown_options,
        setup: shown_setup,
        played,
        ms_per_position: ms,
        positions,
        moves,
        counts,
    }))
}

/// Evaluates every position after 0 … n of `moves`, then judges each move.
fn evaluate(
    descriptor: &crate::registry::Descriptor,
    options: &serde_json::Value,
    setup: &qiyuan_game::Setup,
    moves: &[String],
    ms: u64,
    end: Option<f32>,
    stop: &AtomicBool,
) -> Result<(Vec<PositionEval>, Vec<MoveReview>), super::StudyError> {
    let mut evals = Vec::with_capacity(moves.len() + 1);
    let mut movers = Vec::with_capacity(moves.len());
    for i in 0..=moves.len() {
        let study = descriptor.study(options, setup, &moves[..i])?;
        let position = study.position();
        if i < moves.len() {
            movers.push(position.to_move.unwrap_or(0));
        }
        let last = i == moves.len();
        // Where no seat is to move yet the game is not over by its moves (Go's
        // marking), the stored result says how it ended; a resignation or a
        // flag leaves a position the engine evaluates.
        let counted = last && end.is_some() && position.to_move.is_none();
        if position.over || counted {
            let chances = match (position.over, position.winner) {
                (true, Some(0)) => 1.0,
                (true, Some(_)) => -1.0,
                (true, None) => 0.0,
                (false, _) => end.unwrap_or(0.0),
            };
            evals.push(PositionEval {
                chances,
                line: None,
            });
            continue;
        }
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            // Its client went away: nobody wants the rest.
            return Err(super::StudyError {
                code: "cancelled",
                message: "the review was cancelled".into(),
            });
        }
        // Each position's own hard bound (its timer sets it); the review's
        // cancellation is read between iterations and positions.
        let bound = AtomicBool::new(false);
        let budget = Budget {
            time: Duration::from_millis(ms),
            depth: None,
            stop: &bound,
            started: Instant::now(),
            cancel: Some(stop),
        };
        let mut last = None;
        study.analyse(&budget, &mut |line| last = Some(line));
        evals.push(PositionEval {
            chances: last.as_ref().map_or(0.0, Line::winning_chances),
            line: last,
        });
    }
    let reviewed = moves
        .iter()
        .enumerate()
        .map(|(i, mv)| {
            let seat = movers[i];
            let (before, after) = (evals[i].chances, evals[i + 1].chances);
            let sign = if seat == 0 { 1.0 } else { -1.0 };
            let loss = sign * (before - after);
            let line = evals[i].line.as_ref();
            let best = line.and_then(|l| l.best.clone()).filter(|b| b != mv);
            let best_display = best
                .as_ref()
                .and_then(|_| line.and_then(|l| l.pv_display.first().cloned()));
            MoveReview {
                ply: i + 1,
                mv: mv.clone(),
                seat,
                before,
                after,
                loss,
                judgement: Judgement::of_drop(loss),
                best,
                best_display,
            }
        })
        .collect();
    Ok((evals, reviewed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_are_judged_by_lilas_thresholds() {
        assert_eq!(Judgement::of_drop(0.05), None);
        assert_eq!(Judgement::of_drop(0.1), Some(Judgement::Inaccuracy));
        assert_eq!(Judgement::of_drop(0.25), Some(Judgement::Mistake));
        assert_eq!(Judgement::of_drop(0.9), Some(Judgement::Blunder));
        assert_eq!(Judgement::of_drop(-0.5), None);
    }
}
