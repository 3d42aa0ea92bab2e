//! Every live table on this node, by id, and the tasks that run them; it also
//! holds each person's caps: the tables one person holds at once, of every kind
//! (`max_tables_per_user`), and the open tables nobody plays at that they
//! opened (`max_idle_tables_per_user`). Tables being created count, so that a
//! burst of creations cannot pass either.
//!
//! A person holds a table while they sit at it and a game is played or
//! awaited there (once it is over, while they ask for the next: see
//! `Live::hold_seats`), and one they opened while no game has started there.
//! People are known by name, as seats name them; computer players and
//! hot-seat stand-ins ([`Occupant`]) are nobody.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;
use std::sync::atomic::Ordering;

use axum::http::StatusCode;
use tokio::task::JoinHandle;

use super::{Occupant, TableHandle};
use crate::error::ApiError;

/// Every live table on this node.
#[derive(Default)]
pub struct Registry {
    tables: Mutex<Live>,
    tasks: Mutex<Tasks>,
    /// Places held for tables being created, per person, not yet in `tables`.
    creating: Mutex<HashMap<String, Creating>>,
}

/// A person's places for tables being created.
#[derive(Default, Clone, Copy)]
struct Creating {
    /// Tables they will hold.
    held: usize,
    /// Of those, tables they open (for the cap on idle tables).
    opened: usize,
}

/// The live tables by id, and each person's: the caps count a person's tables
/// without a walk over every table on the node (a busy node holds tens of
/// thousands, and tables are created many times a second).
#[derive(Default)]
struct Live {
    by_id: HashMap<String, TableHandle>,
    /// The tables each person opened.
    by_owner: HashMap<String, HashSet<String>>,
    /// The tables where each person holds a seat.
    seated: HashMap<String, HashSet<String>>,
    /// The people holding a seat at each table (what `seated` was last told).
    seats: HashMap<String, Vec<String>>,
}

impl Live {
    /// The tables `owner` opened where no game has started yet.
    fn idle_of(&self, owner: &str) -> impl Iterator<Item = &String> {
        self.by_owner.get(owner).into_iter().flatten().filter(|id| {
            self.by_id
                .get(*id)
                .is_some_and(|h| !h.played.load(Ordering::Relaxed))
        })
    }

    /// How many tables `person` holds: those they sit at, and those they
    /// opened where no game has started.
    fn held_by(&self, person: &str) -> usize {
        let seated = self.seated.get(person);
        let sits = |id: &String| seated.is_some_and(|s| s.contains(id));
        seated.map_or(0, HashSet::len) + self.idle_of(person).filter(|id| !sits(id)).count()
    }

    /// Whether `person` holds table `id` already.
    fn holds(&self, person: &str, id: &str) -> bool {
        self.seated.get(person).is_some_and(|s| s.contains(id))
            || self.idle_of(person).any(|t| t == id)
    }

    /// Tells `seated` who sits at table `id` now.
    fn set_seats(&mut self, id: &str, people: Vec<String>) {
        let old = if people.is_empty() {
            self.seats.remove(id).unwrap_or_default()
        } else {
            self.seats
                .insert(id.to_string(), people.clone())
                .unwrap_or_default()
        };
        for gone in old.iter().filter(|p| !people.contains(p)) {
            forget(&mut self.seated, gone, id);
        }
        for person in people {
            self.seated
                .entry(person)
                .or_default()
                .insert(id.to_string());
        }
    }
}

/// The tables' tasks; the finished ones are dropped whenever the list has
/// doubled since it was last swept, so that keeping one costs O(1) on average.
#[derive(Default)]
struct Tasks {
    running: Vec<JoinHandle<()>>,
    swept: usize,
}

/// Places for one more table, held by the people it is made for while it is
/// being created and they are being seated; dropping it gives them up.
pub struct Reservation<'a> {
    registry: &'a Registry,
    people: Vec<String>,
    owner: Option<String>,
}

impl Drop for Reservation<'_> {
    fn drop(&mut self) {
        let mut creating = self.registry.creating();
        for person in &self.people {
            if let Some(c) = creating.get_mut(person) {
                c.held = c.held.saturating_sub(1);
                if self.owner.as_ref() == Some(person) {
                    c.opened = c.opened.saturating_sub(1);
                }
                if c.held == 0 && c.opened == 0 {
                    creating.remove(person);
                }
            }
        }
    }
}

/// Who a new table is for, and the caps that apply.
pub(super) struct Claim<'a> {
    /// The person who opens the table (they hold it until a game starts).
    pub owner: Option<&'a str>,
    /// Whether the owner's cap on idle tables applies (a table the server
    /// starts a game at straight away, against the computer or hot-seat, is
    /// never idle for long).
    pub idle_cap: bool,
    /// The people the server seats at once (quick pairing, a challenge).
    pub players: &'a [&'a str],
}

impl Claim<'_> {
    /// A table the server makes and seats by itself (an event's).
    pub fn server() -> Self {
        Claim {
            owner: None,
            idle_cap: false,
            players: &[],
        }
    }
}

/// Whether `name` is a person's (not a computer player's or a stand-in's).
fn is_person(name: &str) -> bool {
    Occupant::of(name).is_person()
}

impl Registry {
    pub fn get(&self, id: &str) -> Option<TableHandle> {
        self.lock().by_id.get(id).cloned()
    }

    pub fn len(&self) -> usize {
        self.lock().by_id.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Live> {
        self.tables.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn creating(&self) -> std::sync::MutexGuard<'_, HashMap<String, Creating>> {
        self.creating.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(super) fn insert(&self, handle: TableHandle, task: JoinHandle<()>) {
        {
            let mut live = self.lock();
            if let Some(owner) = &handle.owner {
                live.by_owner
                    .entry(owner.name.clone())
                    .or_default()
                    .insert(handle.id.clone());
            }
            if let Some(old) = live.by_id.insert(handle.id.clone(), handle)
                && let Some(owner) = &old.owner
                && live
                    .by_id
                    .get(&old.id)
                    .and_then(|h| h.owner.as_ref())
                    .is_none_or(|o| o.name != owner.name)
            {
                forget(&mut live.by_owner, &owner.name, &old.id);
            }
        }
        let mut tasks = self.tasks.lock().unwrap_or_else(|e| e.into_inner());
        if tasks.running.len() >= 2 * tasks.swept.max(64) {
            tasks.running.retain(|t| !t.is_finished());
            tasks.swept = tasks.running.len();
        }
        tasks.running.push(task);
    }

    pub(super) fn remove(&self, id: &str) {
        let mut live = self.lock();
        if let Some(owner) = live.by_id.remove(id).and_then(|h| h.owner) {
            forget(&mut live.by_owner, &owner.name, id);
        }
        live.set_seats(id, Vec::new());
    }

    /// Who holds a seat at table `id` now (people only), as its task sees it.
    pub(super) fn set_seats(&self, id: &str, people: Vec<String>) {
        self.lock().set_seats(id, people);
    }

    /// The tables where `person` holds a seat on this node, each with whether
    /// a game has started there (a person's presence: playing).
    pub fn seats_of(&self, person: &str) -> Vec<(String, bool)> {
        let live = self.lock();
        let mut seats: Vec<(String, bool)> = live
            .seated
            .get(person)
            .into_iter()
            .flatten()
            .map(|id| {
                let played = live
                    .by_id
                    .get(id)
                    .is_some_and(|h| h.played.load(Ordering::Relaxed));
                (id.clone(), played)
            })
            .collect();
        seats.sort();
        seats
    }

    /// The people holding a seat at table `id` on this node.
    pub fn people_at(&self, id: &str) -> Vec<String> {
        self.lock().seats.get(id).cloned().unwrap_or_default()
    }

    /// How many open tables `owner` opened at which no game has started yet.
    pub fn idle_tables_of(&self, owner: &str) -> usize {
        self.lock().idle_of(owner).count()
    }

    /// How many tables `person` holds at once on this node: those they sit
    /// at, and those they opened where no game has started.
    pub fn tables_held_by(&self, person: &str) -> usize {
        self.lock().held_by(person)
    }

    /// Refuses `person` one more table if they hold `cap` already (0: no cap).
    pub fn check_held(&self, person: &str, cap: usize) -> Result<(), ApiError> {
        let held = self.lock().held_by(person);
        let creating = self.creating().get(person).map_or(0, |c| c.held);
        if cap > 0 && held + creating >= cap {
            return Err(too_many_held(person, cap));
        }
        Ok(())
    }

    /// Holds places for one more table for the people of `claim`, unless one
    /// of them holds `cap` tables already, or the owner has `idle_cap` open
    /// tables nobody plays at (tables being created count too, so that a
    /// burst of creations cannot pass a cap). A cap of 0: no cap.
    pub(super) fn reserve(
        &self,
        claim: &Claim<'_>,
        cap: usize,
        idle_cap: usize,
    ) -> Result<Reservation<'_>, ApiError> {
        let live = self.lock();
        let mut creating = self.creating();
        let mut people: Vec<String> = Vec::new();
        for p in claim.owner.iter().chain(claim.players).copied() {
            if is_person(p) && !people.iter().any(|q| q == p) {
                people.push(p.to_string());
            }
        }
        let pending = |p: &str| creating.get(p).copied().unwrap_or_default();
        if let Some(owner) = claim.owner.filter(|_| claim.idle_cap && idle_cap > 0)
            && live.idle_of(owner).count() + pending(owner).opened >= idle_cap
        {
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "too_many_tables",
                format!(
                    "you have {idle_cap} open tables where no game has started: play at one or let one close first"
                ),
            ));
        }
        if cap > 0
            && let Some(full) = people
                .iter()
                .find(|p| live.held_by(p) + pending(p).held >= cap)
        {
            return Err(too_many_held(full, cap));
        }
        let owner = claim.owner.filter(|o| is_person(o)).map(str::to_string);
        for p in &people {
            let c = creating.entry(p.clone()).or_default();
            c.held += 1;
            if owner.as_ref() == Some(p) {
                c.opened += 1;
            }
        }
        Ok(Reservation {
            registry: self,
            people,
            owner,
        })
    }

    /// `person` is about to sit at table `id`, or ask for its next game:
    /// refused if that would make more than `cap` tables they hold (0: no
    /// cap); else they hold it from now on (until the table's task says who
    /// holds its seats, see [`Registry::set_seats`]).
    pub(super) fn hold_seat(&self, person: &str, id: &str, cap: usize) -> Result<(), ApiError> {
        if !is_person(person) {
            return Ok(());
        }
        let mut live = self.lock();
        if live.holds(person, id) {
            return Ok(());
        }
        let creating = self.creating().get(person).map_or(0, |c| c.held);
        if cap > 0 && live.held_by(person) + creating >= cap {
            return Err(too_many_held(person, cap));
        }
        live.seats
            .entry(id.to_string())
            .or_default()
            .push(person.to_string());
        live.seated
            .entry(person.to_string())
            .or_default()
            .insert(id.to_string());
        Ok(())
    }

    /// Waits for every table task to finish (they stop on the shutdown signal).
    pub async fn stop_all(&self) {
        let tasks =
            std::mem::take(&mut self.tasks.lock().unwrap_or_else(|e| e.into_inner()).running);
        for task in tasks {
            let _ = task.await;
        }
    }
}

/// The refusal of one more table to a person who holds `cap` of them.
fn too_many_held(person: &str, cap: usize) -> ApiError {
    ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        "too_many_tables",
        format!(
            "{person} is at {cap} tables at once (the most one person may hold, \
             against people or the computer): finish or leave one first"
        ),
    )
}

/// Drops `id` from `person`'s tables (and the person, once they have none).
fn forget(by_person: &mut HashMap<String, HashSet<String>>, person: &str, id: &str) {
    if let Some(ids) = by_person.get_mut(person) {
        ids.remove(id);
        if ids.is_empty() {
            by_person.remove(person);
        }
    }
}
