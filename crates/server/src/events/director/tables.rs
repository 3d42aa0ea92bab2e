//! Rounds at tables of three (points and duplicate events): the round's
//! tables grouped once (the round's primary key, as a Swiss round's pairs),
//! then at each table the round's hands one after another, each a game of its
//! own at a tournament table with 托管, each dealt once (the hand's primary
//! key), its seats' scores stored when its end is heard. A restart resumes a
//! round where it was: a hand written but without a table gets its table, a
//! hand being played is watched, the next hand follows a scored one.
//!
//! Absence: a player who has not come (or has gone) is played for by the
//! computer (托管) after the away time, from the hand's start, so a table is
//! never stuck; there is no late-arrival forfeit at these tables. Leaving the
//! table (认输/逃跑) ends the hand as the game's rules score it.

use std::collections::{HashMap, HashSet};

use qiyuan_game::{Outcome, Seat, Secret};
use qiyuan_store::{EventHandRow, EventRoundRow, EventTableRow, UserId};
use qiyuan_table::{Command, TableConfig};

use super::{Director, Paired};
use crate::error::ApiError;
use crate::events::{EventData, EventKind, cards, duplicate, seats_of};
use crate::protocol::ServerMsg;
use crate::protocol::out::{EventRoundMsg, Notification};

/// A hand's plan: who sits where, and the deal (`None`: a fresh secret one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandPlan {
    pub seats: Vec<UserId>,
    pub deal: Option<Secret>,
}

/// What hand `hand` (from 1) at `table` is: the hook where the kinds of
/// events differ. A points event turns the seats by one each hand (each
/// player bids first in turn) and deals from a fresh secret; a duplicate
/// event gives its board's deal and seat rotation here.
pub fn plan_hand(ev: &EventData, table: &EventTableRow, hand: i64) -> HandPlan {
    match ev.config.kind {
        EventKind::Duplicate => {
            let (seats, deal) = duplicate::plan(ev, table, hand);
            HandPlan { seats, deal }
        }
        EventKind::Swiss | EventKind::Points => HandPlan {
            seats: cards::rotate(&seats_of(&table.seats), hand),
            deal: None,
        },
    }
}

/// The commands that seat a hand's players (`names` in seat order), start
/// its game, and count them absent until they come. A computer player (a
/// duplicate event's computer place) is ready by itself and never away.
fn seating(names: &[String]) -> Vec<Command> {
    let mut cmds = Vec::new();
    for (i, user) in names.iter().enumerate() {
        cmds.push(Command::Sit {
            user: user.clone(),
            seat: Seat(i as u8),
        });
    }
    let people = names.iter().filter(|n| !crate::bots::is_bot(n));
    for user in people.clone() {
        cmds.push(Command::Ready {
            user: user.clone(),
            proposal: None,
        });
    }
    for user in people {
        cmds.push(Command::Disconnect { user: user.clone() });
    }
    cmds
}

/// The names a hand's seats are taken by: the players', and for a computer
/// place (user 0) a computer player of [`duplicate::COMPUTER_LEVEL`].
fn seat_names(ev: &EventData, seats: &[UserId]) -> Vec<String> {
    seats
        .iter()
        .map(|u| match u {
            0 => crate::bots::new_name(duplicate::COMPUTER_LEVEL),
            u => ev.name_of(*u),
        })
        .collect()
}

impl Director {
    /// Groups round `round` at tables of three by score and writes it (once).
    pub(super) async fn group_next(
        &self,
        ev: &EventData,
        round: i64,
        now: i64,
    ) -> Result<Paired, ApiError> {
        let players = ev.still_in(round);
        if players.len() < 3 {
            return Ok(Paired::Nobody);
        }
        if ev.config.kind == EventKind::Duplicate {
            return self.group_duplicate(ev, round, &players, now).await;
        }
        let entrants = ev.entrants();
        let chips = cards::chips(&entrants, ev.starting_chips(), &ev.card_hands(), None);
        let mut sat_out: HashMap<UserId, u32> = HashMap::new();
        let mut met: HashSet<[UserId; 3]> = HashSet::new();
        for r in 1..round {
            let seated: HashSet<UserId> = ev
                .tables
                .iter()
                .filter(|t| t.round == r)
                .flat_map(|t| seats_of(&t.seats))
                .collect();
            for u in ev.still_in(r) {
                if !seated.contains(&u) {
                    *sat_out.entry(u).or_default() += 1;
                }
            }
        }
        for t in &ev.tables {
            if let [a, b, c] = seats_of(&t.seats)[..] {
                let mut k = [a, b, c];
                k.sort_unstable();
                met.insert(k);
            }
        }
        let grouping = cards::group(&players, &entrants, &chips, &sat_out, &met);
        let tables: Vec<EventTableRow> = grouping
            .tables
            .iter()
            .enumerate()
            .map(|(i, t)| EventTableRow {
                round,
                board: i as i64 + 1,
                seats: serde_json::to_string(t).unwrap_or_default(),
            })
            .collect();
        let row = EventRoundRow {
            round,
            starts_at: now,
            checked_at: None,
            finished_at: None,
        };
        if self.store.group_round(&ev.row.id, &row, &tables).await? {
            tracing::info!(
                event = %ev.row.id,
                round,
                tables = tables.len(),
                sitting_out = grouping.sitting_out.len(),
                "round grouped"
            );
        }
        Ok(Paired::Round)
    }

    /// A duplicate event's one round: the boards' secrets drawn (once), then
    /// the tables by the schedule's positions (once).
    async fn group_duplicate(
        &self,
        ev: &EventData,
        round: i64,
        players: &[UserId],
        now: i64,
    ) -> Result<Paired, ApiError> {
        let Some((users, schedule)) = duplicate::field(ev, players) else {
            return Ok(Paired::Nobody);
        };
        let secrets = duplicate::fresh_secrets(schedule.boards())?;
        self.store.put_board_secrets(&ev.row.id, &secrets).await?;
        let tables = duplicate::tables(round, &users, &schedule);
        let row = EventRoundRow {
            round,
            starts_at: now,
            checked_at: None,
            finished_at: None,
        };
        if self.store.group_round(&ev.row.id, &row, &tables).await? {
            tracing::info!(
                event = %ev.row.id,
                round,
                tables = tables.len(),
                boards = schedule.boards(),
                "duplicate round grouped"
            );
        }
        Ok(Paired::Round)
    }

    /// A round at tables of three being played: each table's next hand dealt
    /// when the one before it ended; whether the round has ended (every table
    /// has played its hands).
    pub(super) async fn play_card_round(
        &mut self,
        ev: &EventData,
        round: &EventRoundRow,
        now: i64,
    ) -> Result<bool, ApiError> {
        let id = ev.row.id.clone();
        let needed = ev.config.hands_in(round.round);
        if ev.config.kind == EventKind::Duplicate {
            if ev.board_secrets.len() < needed as usize {
                return Err(ApiError::internal(
                    "a duplicate event's boards have no deals",
                ));
            }
            for (index, done) in ev.finished_boards().into_iter().enumerate() {
                if done && !ev.published(index) {
                    self.store.publish_board(&id, index as i64, now).await?;
                    tracing::info!(event = %id, board_number = index + 1, "board published");
                }
            }
        }
        self.boards.retain(|_, event| *event != id);
        let mut open = 0;
        for t in ev.tables.iter().filter(|t| t.round == round.round) {
            let last = ev
                .hands
                .iter()
                .filter(|h| h.round == t.round && h.board == t.board)
                .max_by_key(|h| h.hand)
                .cloned();
            let hand = match last {
                Some(h) if h.scores.is_none() => h,
                Some(h) if h.hand >= needed => continue,
                prev => {
                    let number = prev.map_or(1, |h| h.hand + 1);
                    let plan = plan_hand(ev, t, number);
                    let row = EventHandRow {
                        round: t.round,
                        board: t.board,
                        hand: number,
                        seats: serde_json::to_string(&plan.seats).unwrap_or_default(),
                        deal: plan.deal.map(|d| d.to_hex()),
                        table_id: None,
                        scores: None,
                        started_at: now,
                        played_deal: 0,
                    };
                    if !self.store.add_hand(&id, &row).await? {
                        // Another step wrote it: the next step sets it up.
                        open += 1;
                        continue;
                    }
                    row
                }
            };
            let table = match &hand.table_id {
                Some(table) => {
                    self.seat_again(ev, &hand, table).await;
                    Some(table.clone())
                }
                None => self.set_up_hand(ev, &hand).await?,
            };
            if let Some(table) = table {
                self.boards.insert(table, id.clone());
            }
            open += 1;
        }
        if open > 0 {
            return Ok(false);
        }
        self.store.round_finished(&id, round.round, now).await?;
        tracing::info!(event = %id, round = round.round, "round finished");
        Ok(true)
    }

    /// Creates a hand's tournament table (托管 on), seats its three players
    /// in the hand's order, starts the game (all counted absent until they
    /// come) and tells them; the table's id, unless another step set one.
    async fn set_up_hand(
        &mut self,
        ev: &EventData,
        hand: &EventHandRow,
    ) -> Result<Option<String>, ApiError> {
        let seats = seats_of(&hand.seats);
        let deal = match hand.deal.as_deref().map(Secret::from_hex) {
            None => None,
            Some(Ok(secret)) => Some(secret),
            Some(Err(_)) => return Err(ApiError::internal("a hand's stored deal is unreadable")),
        };
        let grace = self
            .escape_grace_secs
            .map(|s| (s * 1000.0) as u64)
            .unwrap_or_else(|| qiyuan_table::default_grace(&ev.config.time));
        let config = TableConfig {
            settings: ev.config.settings(),
            tournament: true,
            first_move: None,
            // Away: the computer plays for the player (托管) after this at
            // most, never an escape.
            grace: Some(grace),
            trusteeship: true,
            deal_seed: None,
            deal,
        };
        let table = self.hall.create(&ev.config.game, config).await?;
        if !self
            .store
            .set_hand_table(&ev.row.id, hand.round, hand.board, hand.hand, &table)
            .await?
        {
            return Ok(None);
        }
        let names = seat_names(ev, &seats);
        // Refused or cut short (a shutdown): the next step seats them again.
        self.hall.command(&table, seating(&names)).await?;
        self.seated.insert(table.clone());
        for (seat, user) in seats.iter().enumerate().filter(|(_, u)| **u != 0) {
            // A computer place by its level (`bot:basic`), not its id.
            let others: Vec<String> = seats
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != seat)
                .map(|(_, u)| ev.name_of(*u))
                .collect();
            let msg = EventRoundMsg {
                event: ev.row.id.clone(),
                name: ev.config.name.clone(),
                round: hand.round,
                board: hand.board,
                table: table.clone(),
                game: ev.config.game.clone(),
                seat,
                opponent: others.join(", "),
            };
            self.hall.tell(*user, &ServerMsg::EventRound(msg.clone()));
            if hand.hand == 1 {
                self.hall.notify(*user, Notification::Round(msg));
            }
        }
        Ok(Some(table))
    }

    /// A hand's table found after a restart: if its game never started (the
    /// server stopped between recording the table and seating the players),
    /// its players are seated again, one command at a time (those done before
    /// are refused and change nothing). Checked once per table.
    async fn seat_again(&mut self, ev: &EventData, hand: &EventHandRow, table: &str) {
        if !self.seated.insert(table.to_string()) {
            return;
        }
        if self.hall.status(table).await.as_deref() != Some("waiting") {
            return;
        }
        let number = hand.hand;
        tracing::info!(event = %ev.row.id, %table, hand_number = number, "seating a hand's players again");
        // A computer place's seat taken before is refused again (the seat is
        // not free), as a player's is.
        let names = seat_names(ev, &seats_of(&hand.seats));
        for cmd in seating(&names) {
            let _ = self.hall.command(table, vec![cmd]).await;
        }
    }

    /// Stores the scores of the hands ended at `ends` (table, outcome) that
    /// have none yet, then advances the event: the table's next hand, or the
    /// round's end.
    pub(super) async fn take_hand_results(
        &mut self,
        mut ev: EventData,
        ends: &[(String, Outcome)],
    ) -> Result<(), ApiError> {
        let id = ev.row.id.clone();
        for (table, outcome) in ends {
            self.boards.remove(table.as_str());
            let Some(h) = ev
                .hands
                .iter_mut()
                .find(|h| h.table_id.as_deref() == Some(table.as_str()) && h.scores.is_none())
            else {
                continue;
            };
            let seats = seats_of(&h.seats).len();
            // A hand without points (void: nobody played) scores nothing.
            let scores: Vec<i64> = if outcome.points.len() == seats {
                outcome.points.clone()
            } else {
                vec![0; seats]
            };
            let text = serde_json::to_string(&scores).map_err(ApiError::internal)?;
            let played_deal = i64::from(outcome.deal);
            self.store
                .set_hand_scores(&id, h.round, h.board, h.hand, &text, played_deal)
                .await?;
            h.scores = Some(text);
            h.played_deal = played_deal;
        }
        crate::events::record::stamp_hands(&*self.store, &ev, ends).await;
        self.advance(ev).await
    }

    /// The sweep of an event at tables of three: its open hands' games read
    /// from the store.
    pub(super) async fn sweep_hands(&mut self, ev: EventData) -> Result<(), ApiError> {
        let mut ends = Vec::new();
        for h in ev.hands.iter().filter(|h| h.scores.is_none()) {
            if let Some(table) = &h.table_id
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
        self.take_hand_results(ev, &ends).await
    }
}
