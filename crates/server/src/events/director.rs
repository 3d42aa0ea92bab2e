//! The schedule of every event, one task for the server. It does what is due
//! for each running event: start the event, pair the next round (once: the
//! round's primary key, in one transaction), create and seat the round's
//! tables, forfeit the players absent at the forfeit time, take finished
//! games' results, end the round, end the event. It keeps nothing in memory
//! that the store does not have (the index of open boards is rebuilt from it),
//! so a restart picks up exactly where it was.
//!
//! What is due by the clock (a start, a pause's end, the forfeit time) it sees
//! at its tick, from each event's rows alone. A game's result it takes when it
//! hears that the game ended ([`Heard::Ended`]), and advances the event at
//! once; a slow sweep reads every open board's game from the store as a safety
//! net ([`Heard::Sweep`]), for an end it did not hear. A tick costs the same
//! few queries whatever the number of boards (two lists, an event's six rows);
//! it used to read every open board's game as well, two queries a board a tick.
//!
//! Late arrival (seed 002, 迟到): a round's tables start their games at once
//! and their clocks run from the start (tournament tables), with both players
//! counted absent until their socket comes to the table. At the round's start
//! plus the forfeit time, a player who is neither at the table nor has moved
//! loses by forfeit; when both are absent both lose by forfeit. Before that no
//! flag falls for a player who has not come, whatever the clock (a per-move
//! limit 步时 or a countdown 读秒 would otherwise flag them in seconds): the
//! late rule governs absence. A player who arrives in time has their main time
//! charged from the game's start, whoever was to move (so when both are late,
//! each is charged their own lateness), and their per-move limit and countdown
//! start when they arrive; a player whose main time ran out while away has
//! only the countdown, or (a clock without one) loses on time when they come.
//! After a restart the forfeit time counts again from the restart for the
//! players still to come back.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use qiyuan_game::{Outcome, Seat, SeatResult};
use qiyuan_store::{EventActionRow, EventGameRow, EventRoundRow, Store};
use qiyuan_table::{Command, Decision, TableConfig};
use tokio::sync::{broadcast, mpsc, watch};
use tokio::time::{Instant, MissedTickBehavior};

mod tables;

pub use tables::{HandPlan, plan_hand};

use super::hall::Hall;
use super::{EventData, load};
use crate::cluster::Cluster;
use crate::config::Config;
use crate::error::ApiError;
use crate::live::TableEvent;
use crate::protocol::ServerMsg;
use crate::protocol::out::{EventEndedMsg, EventRoundMsg, Notification};

/// The site-wide role of running the schedule, with several nodes.
pub const ROLE: &str = "director";

/// Ticks between two sweeps: with the default tick of a second, every 30 s.
const SWEEP_TICKS: u32 = 30;

/// What the director hears besides its tick.
#[derive(Debug, Clone)]
pub enum Heard {
    /// The game at `table` ended with `outcome`.
    Ended { table: Arc<str>, outcome: Outcome },
    /// Ends may have gone unheard (the sweep's time, or a listener that fell
    /// behind): read every open board's game from the store.
    Sweep,
}

/// Runs the schedule until shutdown. With several nodes only the node holding
/// the director's role runs it (another takes the role over within the lease
/// time when it dies), so that no two nodes act on one event's round.
pub async fn run(director: Director) {
    let mut ends = vec![director.hall.env.events.subscribe()];
    if let Some(cluster) = &director.cluster {
        // Games ended at tables other nodes own.
        ends.push(cluster.remote_ends.subscribe());
    }
    let heard = listen(director.tick, ends, director.shutdown.clone());
    director.run(heard).await;
}

/// The director's ear, the one place where what it hears comes in: each game
/// that ends at a table (this node's, and with several nodes the others', as
/// the cluster relays them) as [`Heard::Ended`], and a sweep every
/// [`SWEEP_TICKS`] ticks as the safety net, or at once when a listener fell
/// behind and missed ends.
fn listen(
    tick: Duration,
    ends: Vec<broadcast::Receiver<TableEvent>>,
    shutdown: watch::Receiver<bool>,
) -> mpsc::Receiver<Heard> {
    let (heard, ear) = mpsc::channel(1024);
    for mut events in ends {
        let (heard, shutdown) = (heard.clone(), shutdown.clone());
        tokio::spawn(async move {
            loop {
                let told = tokio::select! {
                    event = events.recv() => match event {
                        Ok(TableEvent::Ended { table, result, .. }) => Heard::Ended {
                            table,
                            outcome: result,
                        },
                        Ok(_) => continue,
                        Err(broadcast::error::RecvError::Lagged(_)) => Heard::Sweep,
                        Err(broadcast::error::RecvError::Closed) => break,
                    },
                    _ = crate::stopped(shutdown.clone()) => break,
                };
                if heard.send(told).await.is_err() {
                    break;
                }
            }
        });
    }
    let every = tick * SWEEP_TICKS;
    tokio::spawn(async move {
        let mut sweeps = tokio::time::interval_at(Instant::now() + every, every);
        sweeps.set_missed_tick_behavior(MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = sweeps.tick() => {}
                _ = crate::stopped(shutdown.clone()) => break,
            }
            if heard.send(Heard::Sweep).await.is_err() {
                break;
            }
        }
    });
    ear
}

/// The schedule's runner, with what it uses: the store, the hall's tables and
/// sockets, the cluster's role, and its settings.
pub struct Director {
    store: Arc<dyn Store>,
    hall: Hall,
    cluster: Option<Arc<Cluster>>,
    tick: Duration,
    /// The configured escape grace (none: the time control's own), which a
    /// tournament table adds to the forfeit time.
    escape_grace_secs: Option<f64>,
    shutdown: watch::Receiver<bool>,
    /// When this director started: the forfeit time counts from here too.
    started: i64,
    /// The event of each board being played, by its table's id, as the
    /// events' last steps saw them: where a heard end's result goes. A table
    /// not here is no event's (or a restart has not stepped its event yet:
    /// the sweep finds it).
    boards: HashMap<String, String>,
    /// The event of each board of a round being played whose game's record
    /// has not been stamped yet ([`super::record::amend`]), by table: a board
    /// whose result was written before its game ended (a forfeit, an
    /// arbiter's decision) is no open board any more when its end is heard.
    stamps: HashMap<String, String>,
    /// The hands' tables this director has seen seated (set up, or checked
    /// once after a restart: [`tables`]).
    seated: std::collections::HashSet<String>,
}

impl Director {
    /// The director of the tables in `hall` (the store, the cluster and the
    /// shutdown signal are the hall's tables'), with the tick and the escape
    /// grace of `config`.
    pub fn new(hall: Hall, config: &Config) -> Self {
        Director {
            store: hall.env.store.clone(),
            cluster: hall.cluster.clone(),
            shutdown: hall.env.shutdown.clone(),
            hall,
            tick: Duration::from_millis(config.event_tick_ms.max(10)),
            escape_grace_secs: config.escape_grace_secs,
            started: crate::now_ms(),
            boards: HashMap::new(),
            stamps: HashMap::new(),
            seated: Default::default(),
        }
    }

    /// Ticks, and takes what it hears, until shutdown.
    pub async fn run(mut self, mut heard: mpsc::Receiver<Heard>) {
        let mut ticks = tokio::time::interval_at(Instant::now() + self.tick, self.tick);
        ticks.set_missed_tick_behavior(MissedTickBehavior::Delay);
        let shutdown = self.shutdown.clone();
        loop {
            let work = tokio::select! {
                _ = ticks.tick() => None,
                Some(h) = heard.recv() => Some(h),
                _ = crate::stopped(shutdown.clone()) => break,
            };
            if let Some(cluster) = &self.cluster
                && !cluster.hold(ROLE).await
            {
                // Another node directs: what it indexed here goes stale.
                self.boards.clear();
                continue;
            }
            let done = match work {
                None => {
                    let done = self.step_all().await;
                    // A full tick between two steps, however long one takes.
                    ticks.reset();
                    done
                }
                Some(Heard::Ended { table, outcome }) => self.game_ended(&table, &outcome).await,
                Some(Heard::Sweep) => self.sweep().await,
            };
            if let Err(e) = done {
                tracing::warn!("event schedule: {}", e.message);
            }
        }
        if let Some(cluster) = &self.cluster {
            cluster.release_role(ROLE).await;
        }
    }

    /// The tick: what is due by the clock for every event not finished.
    async fn step_all(&mut self) -> Result<(), ApiError> {
        for status in ["registering", "running"] {
            for row in self.store.events_list(Some(status), 1000).await? {
                if let Err(e) = self.step(&row.id).await {
                    tracing::warn!(event = %row.id, "event step failed: {}", e.message);
                }
            }
        }
        Ok(())
    }

    /// Does what is due for one event.
    async fn step(&mut self, id: &str) -> Result<(), ApiError> {
        match load(&*self.store, id).await? {
            Some(ev) => self.advance(ev).await,
            None => Ok(()),
        }
    }

    /// A game ended: its board's result, and what follows from it (the
    /// round's end, the next round's pairing when it is due at once).
    pub async fn game_ended(&mut self, table: &str, outcome: &Outcome) -> Result<(), ApiError> {
        if let Some(event) = self.boards.get(table).cloned() {
            return self
                .take_results(&event, &[(table.to_string(), outcome.clone())])
                .await;
        }
        // A board whose result was written before its game ended: its
        // record still gets the event's headers and the board's result.
        let Some(event) = self.stamps.remove(table) else {
            return Ok(());
        };
        let Some(ev) = load(&*self.store, &event).await? else {
            return Ok(());
        };
        if let Some(g) = ev
            .games
            .iter()
            .find(|g| g.table_id.as_deref() == Some(table))
        {
            super::record::amend(&*self.store, &self.hall.env.games, &ev, g).await?;
        }
        Ok(())
    }

    /// The safety net: every open board's game read from the store, and the
    /// ended ones taken as if their ends had been heard.
    async fn sweep(&mut self) -> Result<(), ApiError> {
        for row in self.store.events_list(Some("running"), 1000).await? {
            if let Err(e) = self.sweep_event(&row.id).await {
                tracing::warn!(event = %row.id, "event sweep failed: {}", e.message);
            }
        }
        Ok(())
    }

    async fn sweep_event(&mut self, id: &str) -> Result<(), ApiError> {
        let Some(ev) = load(&*self.store, id).await? else {
            return Ok(());
        };
        if ev.config.kind.at_tables_of_three() {
            return self.sweep_hands(ev).await;
        }
        let Some(round) = ev.current() else {
            return self.advance(ev).await;
        };
        let mut ends = Vec::new();
        for g in ev
            .games_of(round.round)
            .filter(|g| g.white_result.is_none())
        {
            if let Some(table) = &g.table_id
                && let Some(row) = self.store.game(table).await?
                && let Some(result) = &row.result
                && let Ok(outcome) = serde_json::from_str::<Outcome>(result)
            {
                ends.push((table.clone(), outcome));
            }
        }
        if ends.is_empty() {
            return self.advance(ev).await;
        }
        self.take_results(id, &ends).await
    }

    /// Writes the results of the ended games at `ends` (table, outcome) of
    /// event `id` whose boards have none yet, then advances the event.
    ///
    /// The event is loaded here, after the ends were seen. An arbiter's
    /// decision (an adjudication, a forfeit, a disqualification) and the
    /// absent players' forfeit write the board's result before they end the
    /// game, so their result is in what is loaded and stands: a forfeit's
    /// `-`/`+` never becomes the table's `0`/`1`. (When the director read
    /// every board's game at each tick against an event loaded before, it had
    /// to pass over adjudicated ends for fear of that overwrite; hearing of an
    /// end and loading after it leaves nothing to guard against.)
    async fn take_results(&mut self, id: &str, ends: &[(String, Outcome)]) -> Result<(), ApiError> {
        let Some(mut ev) = load(&*self.store, id).await? else {
            return Ok(());
        };
        if ev.config.kind.at_tables_of_three() {
            return self.take_hand_results(ev, ends).await;
        }
        let Some(round) = ev.current().map(|r| r.round) else {
            return self.advance(ev).await;
        };
        for (table, outcome) in ends {
            let Some(g) = ev
                .games
                .iter_mut()
                .find(|g| g.round == round && g.table_id.as_deref() == Some(table.as_str()))
            else {
                continue;
            };
            if g.white_result.is_none() {
                let (w, b) = results_of(outcome);
                self.store
                    .set_event_result(id, g.round, g.board, Some(w), Some(b))
                    .await?;
                g.white_result = Some(w.into());
                g.black_result = Some(b.into());
            }
        }
        // Each ended game's own record says the event, round and board, and
        // has the board's result (an arbiter's or the forfeit's).
        for (table, _) in ends {
            if let Some(g) = ev
                .games
                .iter()
                .find(|g| g.round == round && g.table_id.as_deref() == Some(table.as_str()))
                && let Err(e) = {
                    // Heard and stamped: no longer open, nothing to wait for.
                    self.stamps.remove(table.as_str());
                    self.boards.remove(table.as_str());
                    super::record::amend(&*self.store, &self.hall.env.games, &ev, g).await
                }
            {
                tracing::warn!(event = %id, %table, "cannot stamp the game's record: {}", e.message);
            }
        }
        self.advance(ev).await
    }

    /// Does what is due for one event, as loaded.
    async fn advance(&mut self, mut ev: EventData) -> Result<(), ApiError> {
        let id = ev.row.id.clone();
        let now = crate::now_ms();
        if ev.row.status == "registering" {
            if now < ev.config.starts_at {
                return Ok(());
            }
            self.store
                .update_event(&id, &ev.row.config, "running", now)
                .await?;
            ev.row.status = "running".into();
            tracing::info!(event = %id, "event started");
        }
        if let Some(round) = ev.current().cloned() {
            if !self.play_round(&ev, &round, now).await? {
                return Ok(());
            }
            // The round has just ended: the next one follows when it is due,
            // at once if that is now.
            if let Some(last) = ev.rounds.last_mut() {
                last.finished_at = Some(now);
            }
        }
        self.boards.retain(|_, event| *event != id);
        let done = ev.paired();
        if done >= ev.config.total_rounds() {
            let detail = format!("all {done} rounds were played");
            return self.end(&ev, "rounds_played", done, detail, now).await;
        }
        let last_end = ev.rounds.last().and_then(|r| r.finished_at);
        let due = next_due(&ev.config.schedule, ev.config.starts_at, done, last_end);
        if now < due {
            return Ok(());
        }
        let paired = if ev.config.kind.at_tables_of_three() {
            self.group_next(&ev, done + 1, now).await?
        } else {
            self.pair_next(&ev, done + 1, now).await?
        };
        match paired {
            Paired::Round => {
                // Set the round's tables up at once: the round has started.
                if let Some(ev) = load(&*self.store, &id).await?
                    && let Some(round) = ev.current().cloned()
                {
                    self.play_round(&ev, &round, now).await?;
                }
            }
            Paired::Nobody => {
                // Nobody to pair: before the first round the event waits for
                // entries, and so while late entries may still come; after
                // that nobody will come, and the event ends.
                let entries_may_come = done == 0
                    || ev
                        .config
                        .late_entry_until_round
                        .is_some_and(|r| i64::from(r) > done);
                if !entries_may_come {
                    let detail = format!("nobody is left to pair for round {}", done + 1);
                    return self.end(&ev, "no_players", done, detail, now).await;
                }
            }
            Paired::Impossible(why) => {
                // The pairing is a pure function of what is stored: what
                // cannot be paired now never will be (until a correction,
                // which only an arbiter makes, and the event has ended by
                // then). Ending it is what a director would do.
                let detail = format!("round {} cannot be paired: {why}", done + 1);
                return self.end(&ev, "no_pairing", done, detail, now).await;
            }
        }
        Ok(())
    }

    /// Ends event `ev` after `rounds` rounds for `reason`, stores why, and
    /// tells its players, organiser and arbiters (once: the store says
    /// whether this call ended it).
    async fn end(
        &mut self,
        ev: &EventData,
        reason: &str,
        rounds: i64,
        detail: String,
        now: i64,
    ) -> Result<(), ApiError> {
        let msg = EventEndedMsg {
            event: ev.row.id.clone(),
            name: ev.config.name.clone(),
            reason: reason.to_string(),
            rounds,
            detail,
            at: now,
        };
        let stored = serde_json::to_string(&msg).map_err(ApiError::internal)?;
        if !self.store.end_event(&ev.row.id, &stored, now).await? {
            return Ok(());
        }
        let detail = &msg.detail;
        tracing::info!(event = %ev.row.id, reason, rounds, detail = %detail, "event finished");
        let mut told: Vec<i64> = ev.players.iter().map(|p| p.user_id).collect();
        told.push(ev.row.organiser);
        told.extend(&ev.arbiters);
        told.sort_unstable();
        told.dedup();
        for user in told {
            self.hall
                .notify(user, Notification::EventEnded(msg.clone()));
        }
        Ok(())
    }

    /// Pairs round `round` and writes it (once).
    async fn pair_next(&self, ev: &EventData, round: i64, now: i64) -> Result<Paired, ApiError> {
        let t = ev.tournament();
        let pairing = match qiyuan_swiss::pair(&t) {
            Ok(pairing) => pairing,
            Err(e @ qiyuan_swiss::PairError::NoValidPairing) => {
                return Ok(Paired::Impossible(e.to_string()));
            }
            Err(e) => return Err(ApiError::bad_request("cannot_pair", e.to_string())),
        };
        if pairing.games.is_empty() && pairing.bye.is_none() {
            return Ok(Paired::Nobody);
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
        let paired = self.store.pair_round(&ev.row.id, &row, &games).await?;
        if paired {
            tracing::info!(event = %ev.row.id, round, boards = games.len(), "round paired");
        }
        // Not written: another step wrote it first; its tables are set up
        // by the next step, as this one's would be.
        Ok(Paired::Round)
    }

    /// A round being played: its tables, late arrivals, its end; whether it
    /// has ended (every board has its result).
    async fn play_round(
        &mut self,
        ev: &EventData,
        round: &EventRoundRow,
        now: i64,
    ) -> Result<bool, ApiError> {
        if ev.config.kind.at_tables_of_three() {
            return self.play_card_round(ev, round, now).await;
        }
        let games: Vec<EventGameRow> = ev.games_of(round.round).cloned().collect();
        let mut games_now = Vec::with_capacity(games.len());
        for g in games {
            let g = if g.table_id.is_none() && g.black.is_some() && g.white_result.is_none() {
                self.set_up_table(ev, g).await?
            } else {
                g
            };
            games_now.push(g);
        }
        let forfeit = ev.config.forfeit_ms();
        if round.checked_at.is_none()
            && now >= round.starts_at.saturating_add(forfeit)
            && now >= self.started.saturating_add(forfeit)
        {
            for g in games_now.iter_mut().filter(|g| g.white_result.is_none()) {
                self.forfeit_absent(ev, g).await?;
            }
            self.store
                .round_checked(&ev.row.id, round.round, now)
                .await?;
        }
        // A board open until now whose result was written before its end was
        // heard (a forfeit, an arbiter's decision): its end, when heard,
        // stamps its record.
        for g in &games_now {
            if let Some(table) = &g.table_id
                && g.white_result.is_some()
                && self.boards.contains_key(table)
            {
                self.stamps.insert(table.clone(), ev.row.id.clone());
            }
        }
        // The open boards' tables, where the ends heard are taken.
        self.boards.retain(|_, event| *event != ev.row.id);
        let mut open = 0;
        for g in games_now.iter().filter(|g| g.white_result.is_none()) {
            open += 1;
            if let Some(table) = &g.table_id {
                self.boards.insert(table.clone(), ev.row.id.clone());
            }
        }
        if open > 0 {
            return Ok(false);
        }
        self.store
            .round_finished(&ev.row.id, round.round, now)
            .await?;
        tracing::info!(event = %ev.row.id, round = round.round, "round finished");
        Ok(true)
    }

    /// Creates a board's tournament table, seats both players, starts the
    /// game (both counted absent until they come), and tells them.
    async fn set_up_table(
        &mut self,
        ev: &EventData,
        mut g: EventGameRow,
    ) -> Result<EventGameRow, ApiError> {
        let Some(black) = g.black else {
            return Ok(g);
        };
        let forfeit = ev.config.forfeit_ms().max(0) as u64;
        let grace = self
            .escape_grace_secs
            .map(|s| (s * 1000.0) as u64)
            .unwrap_or_else(|| qiyuan_table::default_grace(&ev.config.time));
        let config = TableConfig {
            settings: ev.config.settings(),
            tournament: true,
            // The clock runs from the start at a tournament table; the
            // first-move time is the late-arrival time: before it no flag
            // falls for a player who has not come (the forfeit governs
            // absence), and their per-move limit starts when they come.
            first_move: Some(forfeit),
            // An absent player is dealt with at the forfeit time, not by escape.
            grace: Some(forfeit + grace),
            trusteeship: false,
            deal_seed: None,
            deal: None,
        };
        let table = self.hall.create(&ev.config.game, config).await?;
        if !self
            .store
            .set_event_table(&ev.row.id, g.round, g.board, &table)
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
        self.hall.command(&table, cmds).await?;
        g.table_id = Some(table.clone());
        for (seat, user) in [(0usize, g.white), (1, black)] {
            let msg = EventRoundMsg {
                event: ev.row.id.clone(),
                name: ev.config.name.clone(),
                round: g.round,
                board: g.board,
                table: table.clone(),
                game: ev.config.game.clone(),
                seat,
                opponent: ev.name_of(if seat == 0 { black } else { g.white }),
            };
            self.hall.tell(user, &ServerMsg::EventRound(msg.clone()));
            self.hall.notify(user, Notification::Round(msg));
        }
        Ok(g)
    }

    /// At the forfeit time: who of a board's players has not come.
    async fn forfeit_absent(&self, ev: &EventData, g: &mut EventGameRow) -> Result<(), ApiError> {
        let (Some(table), Some(black)) = (g.table_id.clone(), g.black) else {
            return Ok(());
        };
        // The board's table may be owned by another node (after a takeover).
        let Some([w, b]) = self.hall.arrived(&table).await else {
            return Ok(());
        };
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
        self.store
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
        if let Err(e) = self
            .hall
            .command(&table, vec![Command::Decide { decision }])
            .await
        {
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
                // The server's own act (the late-arrival rule), in the
                // organiser's name as the event's row must have a person.
                detail: Some(
                    serde_json::json!({
                        "system": true,
                        "before": null,
                        "after": super::record::pgn_result(results.0, results.1).0,
                        "white": results.0,
                        "black": results.1,
                    })
                    .to_string(),
                ),
            };
            super::record_action(&*self.store, &ev.row.id, action).await?;
        }
        Ok(())
    }
}

/// What pairing the next round gave.
enum Paired {
    /// The round is paired (by this step or another).
    Round,
    /// Nobody to pair.
    Nobody,
    /// No pairing satisfies the absolute criteria.
    Impossible(String),
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
