//! The schedule of every event, one task for the server. At each tick it reads
//! each running event from the store and does what is due: start the event,
//! pair the next round (once: the round's primary key, in one transaction),
//! create and seat the round's tables, forfeit the players absent at the
//! forfeit time, take finished games' results, end the round, end the event.
//! It keeps nothing in memory that the store does not have, so a restart picks
//! up exactly where it was.
//!
//! Late arrival (seed 002, 迟到): a round's tables start their games at once
//! and their clocks run from the start (tournament tables), with both players
//! counted absent until their socket comes to the table. At the round's start
//! plus the forfeit time, a player who is neither at the table nor has moved
//! loses by forfeit; when both are absent both lose by forfeit. A player who
//! arrived in time plays on with the time left. After a restart the forfeit
//! time counts again from the restart for the players still to come back.

use std::sync::Arc;
use std::time::Duration;

use qiyuan_game::{EndReason, Outcome, Seat, SeatResult};
use qiyuan_store::{EventActionRow, EventGameRow, EventRoundRow};
use qiyuan_table::{Command, Decision, TableConfig};
use tokio::sync::oneshot;

use super::{EventData, load};
use crate::App;
use crate::error::ApiError;
use crate::live::{self, TableMsg};
use crate::protocol::ServerMsg;
use crate::protocol::out::EventRoundMsg;

/// The site-wide role of running the schedule, with several nodes.
pub const ROLE: &str = "director";

/// Runs the schedule until shutdown. With several nodes only the node holding
/// the director's role runs it (another takes the role over within the lease
/// time when it dies), so that no two nodes act on one event's round.
pub async fn run(app: Arc<App>) {
    let started = crate::now_ms();
    let tick = Duration::from_millis(app.config.event_tick_ms.max(10));
    let shutdown = app.shutdown.clone();
    loop {
        tokio::select! {
            _ = tokio::time::sleep(tick) => {}
            _ = crate::stopped(shutdown.clone()) => break,
        }
        if let Some(cluster) = &app.cluster
            && !cluster.hold(ROLE).await
        {
            continue;
        }
        if let Err(e) = step_all(&app, started).await {
            tracing::warn!("event schedule: {}", e.message);
        }
    }
    if let Some(cluster) = &app.cluster {
        cluster.release_role(ROLE).await;
    }
}

async fn step_all(app: &Arc<App>, started: i64) -> Result<(), ApiError> {
    for status in ["registering", "running"] {
        for row in app.store.events_list(Some(status), 1000).await? {
            if let Err(e) = step(app, &row.id, started).await {
                tracing::warn!(event = %row.id, "event step failed: {}", e.message);
            }
        }
    }
    Ok(())
}

/// Does what is due for one event.
pub async fn step(app: &Arc<App>, id: &str, started: i64) -> Result<(), ApiError> {
    let Some(mut ev) = load(&*app.store, id).await? else {
        return Ok(());
    };
    let now = crate::now_ms();
    if ev.row.status == "registering" {
        if now < ev.config.starts_at {
            return Ok(());
        }
        app.store
            .update_event(id, &ev.row.config, "running", now)
            .await?;
        ev.row.status = "running".into();
        tracing::info!(event = %id, "event started");
    }
    match ev.current().cloned() {
        Some(round) => play_round(app, &ev, &round, now, started).await,
        None => {
            let done = ev.paired();
            if done >= i64::from(ev.config.rounds) {
                app.store
                    .update_event(id, &ev.row.config, "finished", now)
                    .await?;
                tracing::info!(event = %id, "event finished");
                return Ok(());
            }
            let last_end = ev.rounds.last().and_then(|r| r.finished_at);
            let due = next_due(&ev.config.schedule, ev.config.starts_at, done, last_end);
            if now >= due && pair_next(app, &ev, done + 1, now).await? {
                // Set the round's tables up at once: the round has started.
                if let Some(ev) = load(&*app.store, id).await?
                    && let Some(round) = ev.current().cloned()
                {
                    play_round(app, &ev, &round, now, started).await?;
                }
            }
            Ok(())
        }
    }
}

/// When the round after `done` paired rounds is due: round 1 at the start;
/// then `pause` after the previous round ended, or at its fixed time but never
/// before the previous round ended.
pub fn next_due(
    schedule: &super::Schedule,
    starts_at: i64,
    done: i64,
    last_end: Option<i64>,
) -> i64 {
    if done == 0 {
        return match schedule {
            super::Schedule::Fixed { times } => {
                times.first().copied().unwrap_or(starts_at).max(starts_at)
            }
            super::Schedule::AfterPrevious { .. } => starts_at,
        };
    }
    // A round that has not ended is not followed.
    let Some(end) = last_end else {
        return i64::MAX;
    };
    match schedule {
        super::Schedule::AfterPrevious { pause_secs } => {
            end.saturating_add((pause_secs * 1000.0) as i64)
        }
        super::Schedule::Fixed { times } => {
            times.get(done as usize).copied().unwrap_or(end).max(end)
        }
    }
}

/// Pairs round `round` and writes it (once), then sets up its tables.
async fn pair_next(app: &Arc<App>, ev: &EventData, round: i64, now: i64) -> Result<bool, ApiError> {
    let t = ev.tournament();
    let pairing =
        qiyuan_swiss::pair(&t).map_err(|e| ApiError::bad_request("cannot_pair", e.to_string()))?;
    if pairing.games.is_empty() && pairing.bye.is_none() {
        // Nobody to pair (no players yet): the round waits for entries.
        return Ok(false);
    }
    let user_of = |rank: u32| {
        ev.players
            .iter()
            .find(|p| p.start_rank == i64::from(rank))
            .map(|p| p.user_id)
    };
    let mut games = Vec::new();
    for (w, b) in &pairing.games {
        let (Some(white), Some(black)) = (user_of(*w), user_of(*b)) else {
            return Err(ApiError::internal("the pairing names an unknown player"));
        };
        games.push(EventGameRow {
            round,
            board: games.len() as i64 + 1,
            white,
            black: Some(black),
            table_id: None,
            white_result: None,
            black_result: None,
        });
    }
    if let Some(bye) = pairing.bye.and_then(user_of) {
        games.push(EventGameRow {
            round,
            board: games.len() as i64 + 1,
            white: bye,
            black: None,
            table_id: None,
            white_result: Some("U".into()),
            black_result: None,
        });
    }
    let row = EventRoundRow {
        round,
        starts_at: now,
        checked_at: None,
        finished_at: None,
    };
    let paired = app.store.pair_round(&ev.row.id, &row, &games).await?;
    if paired {
        tracing::info!(event = %ev.row.id, round, boards = games.len(), "round paired");
    }
    Ok(paired)
}

/// A round being played: tables, late arrivals, results, its end.
async fn play_round(
    app: &Arc<App>,
    ev: &EventData,
    round: &EventRoundRow,
    now: i64,
    started: i64,
) -> Result<(), ApiError> {
    let games: Vec<EventGameRow> = ev.games_of(round.round).cloned().collect();
    let mut games_now = Vec::with_capacity(games.len());
    for g in games {
        let g = if g.table_id.is_none() && g.black.is_some() && g.white_result.is_none() {
            set_up_table(app, ev, g).await?
        } else {
            g
        };
        games_now.push(g);
    }
    let forfeit = ev.config.forfeit_ms();
    if round.checked_at.is_none()
        && now >= round.starts_at.saturating_add(forfeit)
        && now >= started.saturating_add(forfeit)
    {
        for g in games_now.iter_mut().filter(|g| g.white_result.is_none()) {
            forfeit_absent(app, ev, g).await?;
        }
        app.store
            .round_checked(&ev.row.id, round.round, now)
            .await?;
    }
    let mut open = 0;
    for g in games_now.iter_mut().filter(|g| g.white_result.is_none()) {
        if let Some(table) = &g.table_id
            && let Some(row) = app.store.game(table).await?
            && let Some(result) = &row.result
            && let Ok(outcome) = serde_json::from_str::<Outcome>(result)
        {
            // An arbiter's decision (an adjudication, a forfeit, a
            // disqualification) or the absent players' forfeit wrote the
            // board's result before it ended the game, and this round's
            // snapshot of the event may be older than that write: a forfeit's
            // `-`/`+` must not become the table's `0`/`1`.
            if outcome.reason != EndReason::Adjudication {
                let (w, b) = results_of(&outcome);
                app.store
                    .set_event_result(&ev.row.id, g.round, g.board, Some(w), Some(b))
                    .await?;
                g.white_result = Some(w.into());
            }
            continue;
        }
        open += 1;
    }
    if open == 0 {
        app.store
            .round_finished(&ev.row.id, round.round, now)
            .await?;
        tracing::info!(event = %ev.row.id, round = round.round, "round finished");
    }
    Ok(())
}

/// TRF results (white's, black's) of a game the table ended.
fn results_of(outcome: &Outcome) -> (&'static str, &'static str) {
    let r = |s: Option<&SeatResult>| match s {
        Some(SeatResult::Win) => "1",
        Some(SeatResult::Draw) => "=",
        Some(SeatResult::Loss) => "0",
        // A void game (both absent): both forfeit.
        Some(SeatResult::Void) | None => "-",
    };
    (r(outcome.results.first()), r(outcome.results.get(1)))
}

/// Sends the server's commands to a table and waits for them.
pub(crate) async fn internal(
    app: &Arc<App>,
    table: &str,
    cmds: Vec<Command>,
) -> Result<(), ApiError> {
    let handle = app
        .tables
        .get(table)
        .ok_or_else(|| ApiError::not_found(format!("table {table} is not live")))?;
    handle
        .internal(cmds)
        .await?
        .map_err(|m| ApiError::new(axum::http::StatusCode::CONFLICT, "refused", m))
}

/// Creates a board's tournament table, seats both players, starts the game
/// (both counted absent until they come), and tells them.
async fn set_up_table(
    app: &Arc<App>,
    ev: &EventData,
    mut g: EventGameRow,
) -> Result<EventGameRow, ApiError> {
    let Some(black) = g.black else {
        return Ok(g);
    };
    let forfeit = ev.config.forfeit_ms().max(0) as u64;
    let grace = app
        .config
        .escape_grace_secs
        .map(|s| (s * 1000.0) as u64)
        .unwrap_or_else(|| qiyuan_table::default_grace(&ev.config.time));
    let config = TableConfig {
        settings: ev.config.settings(),
        tournament: true,
        // The clock runs from the start at a tournament table: the first-move
        // timer would only duplicate the late-arrival rule.
        first_move: Some(qiyuan_table::clock::DAY),
        // An absent player is dealt with at the forfeit time, not by escape.
        grace: Some(forfeit + grace),
        trusteeship: false,
        deal_seed: None,
    };
    let handle = live::create_with(&app.live, &ev.config.game, config).await?;
    if !app
        .store
        .set_event_table(&ev.row.id, g.round, g.board, &handle.id)
        .await?
    {
        return Ok(g);
    }
    let white_name = ev.name_of(g.white);
    let black_name = ev.name_of(black);
    let mut cmds = vec![
        Command::Sit {
            user: white_name.clone(),
            seat: Seat(0),
        },
        Command::Sit {
            user: black_name.clone(),
            seat: Seat(1),
        },
    ];
    for user in [&white_name, &black_name] {
        cmds.push(Command::Ready {
            user: user.clone(),
            proposal: None,
        });
    }
    for user in [&white_name, &black_name] {
        cmds.push(Command::Disconnect { user: user.clone() });
    }
    internal(app, &handle.id, cmds).await?;
    g.table_id = Some(handle.id.clone());
    for (seat, user) in [(0usize, g.white), (1, black)] {
        let msg = ServerMsg::EventRound(EventRoundMsg {
            event: ev.row.id.clone(),
            name: ev.config.name.clone(),
            round: g.round,
            board: g.board,
            table: handle.id.clone(),
            game: ev.config.game.clone(),
            seat,
            opponent: ev.name_of(if seat == 0 { black } else { g.white }),
        });
        super::tell(app, user, &msg);
    }
    Ok(g)
}

/// At the forfeit time: who of a board's players has not come.
async fn forfeit_absent(
    app: &Arc<App>,
    ev: &EventData,
    g: &mut EventGameRow,
) -> Result<(), ApiError> {
    let (Some(table), Some(black)) = (g.table_id.clone(), g.black) else {
        return Ok(());
    };
    // The board's table may be owned by another node (after a takeover).
    let Some(handle) = app.table(&table).await else {
        return Ok(());
    };
    let (reply, wait) = oneshot::channel();
    if handle.tx.send(TableMsg::Snapshot { reply }).await.is_err() {
        return Ok(());
    }
    let Ok(view) = wait.await else { return Ok(()) };
    if view["status"] != "playing" {
        return Ok(());
    }
    let arrived = |seat: usize| {
        view["seats"][seat]["connected"] == true
            || view["game"]["moves"]
                .as_array()
                .is_some_and(|m| m.iter().any(|m| m["seat"] == seat))
    };
    let (w, b) = (arrived(0), arrived(1));
    let (decision, results, absent) = match (w, b) {
        (true, true) => return Ok(()),
        (false, false) => (Decision::Void, ("-", "-"), vec![g.white, black]),
        (false, true) => (
            Decision::Loses {
                seat: Seat(0),
                forfeit: true,
            },
            ("-", "+"),
            vec![g.white],
        ),
        (true, false) => (
            Decision::Loses {
                seat: Seat(1),
                forfeit: true,
            },
            ("+", "-"),
            vec![black],
        ),
    };
    app.store
        .set_event_result(
            &ev.row.id,
            g.round,
            g.board,
            Some(results.0),
            Some(results.1),
        )
        .await?;
    g.white_result = Some(results.0.into());
    g.black_result = Some(results.1.into());
    if let Err(e) = internal(app, &table, vec![Command::Decide { decision }]).await {
        tracing::warn!(event = %ev.row.id, %table, "cannot end a forfeited game: {}", e.message);
    }
    for user in absent {
        let action = EventActionRow {
            id: 0,
            round: Some(g.round),
            board: Some(g.board),
            user_id: user,
            arbiter: ev.row.organiser,
            kind: "forfeit".into(),
            reason: format!(
                "absent {} s after the round's start (迟到判负)",
                ev.config.forfeit_secs
            ),
            at: crate::now_ms(),
        };
        super::record_action(&*app.store, &ev.row.id, action).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::next_due;
    use crate::events::Schedule;

    #[test]
    fn rounds_follow_the_schedule() {
        let after = Schedule::AfterPrevious { pause_secs: 60.0 };
        assert_eq!(next_due(&after, 1_000, 0, None), 1_000);
        assert_eq!(next_due(&after, 1_000, 1, Some(50_000)), 110_000);
        assert_eq!(next_due(&after, 1_000, 1, None), i64::MAX);
        let fixed = Schedule::Fixed {
            times: vec![5_000, 100_000, 200_000],
        };
        assert_eq!(next_due(&fixed, 1_000, 0, None), 5_000);
        // Round 2 at its time, or when round 1 ends if that is later.
        assert_eq!(next_due(&fixed, 1_000, 1, Some(50_000)), 100_000);
        assert_eq!(next_due(&fixed, 1_000, 1, Some(150_000)), 150_000);
        // A round without a time follows the previous one at once.
        assert_eq!(next_due(&fixed, 1_000, 3, Some(250_000)), 250_000);
    }
}
