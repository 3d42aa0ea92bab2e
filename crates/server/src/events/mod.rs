//! Swiss events in the hall: an organiser creates one, players register, the
//! server pairs each round once with the FIDE Dutch engine (`qiyuan-swiss`),
//! creates tournament tables and seats the players, applies the late-arrival
//! rule, collects results into the standings, and arbiters act on its games.
//!
//! Everything an event is lives in the store ([`qiyuan_store::EventStore`]); the
//! [`director`] derives what to do next from it, at its tick and when it hears
//! that a game ended, so a restart loses nothing and a round is paired exactly
//! once (the round's primary key).
//! The tournament as the pairing and tiebreak code sees it is rebuilt from the
//! stored rows each time ([`EventData::tournament`]); the TRF export is that
//! same value written out, so `qiyuan swiss pair` on it pairs the same next
//! round as the server does.
//!
//! - [`api`]: the HTTP endpoints (events, registration, byes, arbiters, TRF);
//! - [`director`]: the schedule (pairing, tables, late arrival, results);
//! - [`arbiter`]: the two arbiter roles and their acts: warnings, fouls,
//!   violations, restored positions, clocks adjusted and stopped, referrals
//!   (table arbiters and the chief); adjudications, forfeits,
//!   disqualification and decided referrals (the chief);
//! - [`hall`]: what those two do to live tables and players' sockets;
//! - [`record`]: an event game's stored record and result kept in agreement
//!   with its board (event headers, forfeits, corrections and their ratings).
//! - [`follow`]: each event's open pages told when it changes.

use std::collections::HashMap;

use qiyuan_store::{
    EventActionRow, EventByeRow, EventGameRow, EventHandRow, EventPlayerRow, EventRoundRow,
    EventRow, EventTableRow, Store, StoreError, UserId,
};
use qiyuan_swiss::model::{ColourMark, OpponentField, RoundEntry};
use qiyuan_swiss::tiebreak::{self, Tiebreak};
use qiyuan_swiss::{Colour, ResultCode, Tournament};
use qiyuan_table::TimeControl;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::ApiError;
use crate::registry::Games;

pub mod api;
pub mod arbiter;
pub mod cards;
pub mod director;
pub mod duplicate;
pub mod follow;
pub mod hall;
pub mod record;

/// The roles an operator grants.
pub const ROLES: &[&str] = &["admin", "organiser", "arbiter", "banned", "muted"];

/// Grants `role` to the account `username` (the command line and tests use it).
pub async fn grant(store: &dyn Store, username: &str, role: &str) -> anyhow::Result<()> {
    if !ROLES.contains(&role) {
        anyhow::bail!("unknown role {role:?} (known: {})", ROLES.join(", "));
    }
    let user = store
        .user_by_name(username)
        .await?
        .ok_or_else(|| anyhow::anyhow!("no account {username:?}"))?;
    if user.guest {
        anyhow::bail!("{username} is a guest: roles are for accounts");
    }
    store.grant_role(user.id, role, crate::now_ms()).await?;
    if role == "banned" {
        // A banned account is logged out everywhere at once.
        store.delete_user_sessions(user.id).await?;
    }
    Ok(())
}

/// Takes `role` away from `username`; whether they had it.
pub async fn revoke(store: &dyn Store, username: &str, role: &str) -> anyhow::Result<bool> {
    let user = store
        .user_by_name(username)
        .await?
        .ok_or_else(|| anyhow::anyhow!("no account {username:?}"))?;
    Ok(store.revoke_role(user.id, role).await?)
}

/// When the rounds after the first are played.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Schedule {
    /// Each round as soon as the previous one ends, after a pause.
    AfterPrevious {
        #[serde(default = "default_pause")]
        pause_secs: f64,
    },
    /// Round `n` at `times[n - 1]` (ms since the epoch), and never before the
    /// previous round ended.
    Fixed { times: Vec<i64> },
}

fn default_pause() -> f64 {
    60.0
}

impl Default for Schedule {
    fn default() -> Self {
        Schedule::AfterPrevious {
            pause_secs: default_pause(),
        }
    }
}

/// Who may register.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Entry {
    /// Any account.
    #[default]
    Open,
    /// Accounts whose rating in the event's pool is within the range.
    Rating {
        #[serde(default)]
        min: Option<i64>,
        #[serde(default)]
        max: Option<i64>,
    },
    /// The accounts named.
    Invitation { users: Vec<String> },
}

/// What an event is: a Swiss event of a two-seat game, or an event at tables
/// of three of a three-seat game (the registry says a game's seats): a points
/// event (积分赛) or a duplicate event (复式). See docs/card-events.md.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    #[default]
    Swiss,
    Points,
    Duplicate,
}

impl EventKind {
    /// The seats of the games it is for.
    pub fn seats(self) -> u8 {
        match self {
            EventKind::Swiss => 2,
            EventKind::Points | EventKind::Duplicate => 3,
        }
    }

    /// Played at tables of three, hand after hand.
    pub fn at_tables_of_three(self) -> bool {
        self.seats() == 3
    }
}

/// The settings of an event at tables of three.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardConfig {
    /// Hands played in a row at each table in a (qualifying) round.
    pub hands_per_round: u32,
    /// Each player's chips at the start.
    #[serde(default = "default_chips")]
    pub starting_chips: i64,
    /// 打立出局: after each qualifying round, below a rising threshold a
    /// player is out.
    #[serde(default)]
    pub elimination: Option<cards::Elimination>,
    /// 定局积分: a last round of fixed hands for the top players.
    #[serde(default, rename = "final")]
    pub final_round: Option<cards::Final>,
}

fn default_chips() -> i64 {
    1000
}

/// An event's settings, as the organiser gives them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventConfig {
    pub name: String,
    /// `swiss` (default), `points`, `duplicate`.
    #[serde(default)]
    pub kind: EventKind,
    /// A game hosted here with the kind's seats (2 for Swiss, 3 otherwise).
    pub game: String,
    /// The settings of an event at tables of three (required for those).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cards: Option<CardConfig>,
    pub time: TimeControl,
    /// The game's rule options (null: defaults).
    #[serde(default)]
    pub options: Value,
    pub rounds: u32,
    /// When round 1 starts, ms since the epoch.
    pub starts_at: i64,
    #[serde(default)]
    pub schedule: Schedule,
    /// Registration opens (unset: at once) and closes (unset: at the start).
    #[serde(default)]
    pub registration_opens: Option<i64>,
    #[serde(default)]
    pub registration_closes: Option<i64>,
    /// Late entry: players may still register before this round is paired
    /// (unset: no late entry).
    #[serde(default)]
    pub late_entry_until_round: Option<u32>,
    #[serde(default)]
    pub rated: bool,
    #[serde(default)]
    pub entry: Entry,
    /// The late-arrival forfeit time (seed 002: 15 minutes).
    #[serde(default = "default_forfeit")]
    pub forfeit_secs: f64,
    /// Tiebreaks in order (`bh`, `bh-c1`, `bh-m1`, `sb`, `prog`, `de`, `win`,
    /// `won`); default the seed's: Buchholz, progressive, direct encounter, wins.
    #[serde(default = "default_tiebreaks")]
    pub tiebreaks: Vec<String>,
    /// Whether the players may chat: in their game's players' room and in the
    /// event's room (default on; the organiser may switch it off at any time;
    /// the arbiters' announcements are delivered either way). See
    /// [`crate::chat`].
    #[serde(default = "players_chat")]
    pub players_chat: bool,
    /// The schedule is paused: no round is paired while it is (a round being
    /// played goes on). Set by `POST /api/event/{id}/pause` and `/resume`
    /// only: a `PATCH` keeps the stored value whatever it sends.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub paused: bool,
}

fn players_chat() -> bool {
    true
}

const DAY_SECS: f64 = 86_400.0;

fn default_forfeit() -> f64 {
    900.0
}

fn default_tiebreaks() -> Vec<String> {
    ["bh", "prog", "de", "win"]
        .iter()
        .map(|s| s.to_string())
        .collect()
}

impl EventConfig {
    /// Checks the settings against the games hosted here.
    pub fn check(&self, games: &Games) -> Result<(), ApiError> {
        let bad = |m: String| Err(ApiError::bad_request("bad_event", m));
        if self.name.trim().is_empty() || self.name.chars().count() > 100 {
            return bad("the name has 1 to 100 characters".into());
        }
        match games.get(&self.game) {
            Some(d) if d.seats == self.kind.seats() => {}
            Some(_) if self.kind.seats() == 2 => {
                return bad(format!("{} is not a two-player game", self.game));
            }
            Some(_) => return bad(format!("{} is not a three-player game", self.game)),
            None => return bad(format!("no game {:?} here", self.game)),
        }
        match (&self.cards, self.kind.at_tables_of_three()) {
            (None, true) => return bad("the event needs its \"cards\" settings".into()),
            (Some(_), false) => return bad("\"cards\" settings are for three-player events".into()),
            (Some(c), true) => c
                .check()
                .map_err(|m| ApiError::bad_request("bad_event", m))?,
            (None, false) => {}
        }
        if self.kind == EventKind::Duplicate
            && let Some(c) = &self.cards
            && (self.rounds != 1 || c.elimination.is_some() || c.final_round.is_some())
        {
            return bad(
                "a duplicate event plays one round of boards (its hands per round), \
                 without elimination or final"
                    .into(),
            );
        }
        if self.rounds == 0 || self.rounds > 50 {
            return bad("1 to 50 rounds".into());
        }
        if !(self.forfeit_secs.is_finite()
            && self.forfeit_secs > 0.0
            && self.forfeit_secs <= DAY_SECS)
        {
            return bad("the forfeit time is more than 0 and at most a day".into());
        }
        if let Schedule::AfterPrevious { pause_secs } = self.schedule
            && !(pause_secs.is_finite() && (0.0..=7.0 * DAY_SECS).contains(&pause_secs))
        {
            return bad("the pause between rounds is 0 to 7 days".into());
        }
        if let Schedule::Fixed { times } = &self.schedule
            && times.len() > self.rounds as usize
        {
            return bad("more round times than rounds".into());
        }
        self.tiebreak_order()?;
        let settings = self.settings();
        games
            .new_table(
                &self.game,
                qiyuan_table::TableConfig {
                    settings,
                    tournament: true,
                    first_move: None,
                    grace: None,
                    trusteeship: false,
                    deal_seed: None,
                    deal: None,
                },
            )
            .map_err(|e| ApiError::bad_request("bad_settings", e))?;
        Ok(())
    }

    /// Every round the event plays: its rounds, and a final after them.
    pub fn total_rounds(&self) -> i64 {
        let finals = self.cards.as_ref().is_some_and(|c| c.final_round.is_some());
        i64::from(self.rounds) + i64::from(finals)
    }

    /// Hands at each table in round `round` (the final's own number).
    pub fn hands_in(&self, round: i64) -> i64 {
        let Some(c) = &self.cards else { return 1 };
        match c.final_round {
            Some(f) if round > i64::from(self.rounds) => i64::from(f.hands),
            _ => i64::from(c.hands_per_round),
        }
    }

    pub fn tiebreak_order(&self) -> Result<Vec<Tiebreak>, ApiError> {
        self.tiebreaks
            .iter()
            .map(|s| s.parse::<Tiebreak>())
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| ApiError::bad_request("bad_event", e.to_string()))
    }

    /// The settings of every table of the event: no takebacks (tournament mode).
    pub fn settings(&self) -> qiyuan_table::Settings {
        qiyuan_table::Settings {
            time: self.time,
            options: self.options.clone(),
            setup: qiyuan_game::Setup::Standard,
            rated: self.rated,
            takebacks: false,
        }
    }

    pub fn forfeit_ms(&self) -> i64 {
        (self.forfeit_secs * 1000.0) as i64
    }
}

impl CardConfig {
    fn check(&self) -> Result<(), String> {
        if !(1..=50).contains(&self.hands_per_round) {
            return Err("1 to 50 hands per round".into());
        }
        if !(0..=1_000_000_000).contains(&self.starting_chips) {
            return Err("the starting chips are 0 to 1000000000".into());
        }
        if let Some(e) = self.elimination
            && (e.threshold.abs() > 1_000_000_000 || e.rise.abs() > 1_000_000_000)
        {
            return Err("the elimination threshold and its rise are at most 1000000000".into());
        }
        if let Some(f) = self.final_round {
            if f.players == 0 || f.players % 3 != 0 || f.players > 999 {
                return Err("the final's players are a multiple of 3 (3 to 999)".into());
            }
            if !(1..=50).contains(&f.hands) {
                return Err("1 to 50 hands in the final".into());
            }
        }
        Ok(())
    }
}

/// Everything stored about one event.
#[derive(Debug, Clone)]
pub struct EventData {
    pub row: EventRow,
    pub config: EventConfig,
    pub players: Vec<EventPlayerRow>,
    pub byes: Vec<EventByeRow>,
    pub rounds: Vec<EventRoundRow>,
    pub games: Vec<EventGameRow>,
    pub arbiters: Vec<UserId>,
    /// Tables of three by round (events at tables of three; else none).
    pub tables: Vec<EventTableRow>,
    /// Their hands.
    pub hands: Vec<EventHandRow>,
    /// The arbiters named chief arbiter (裁判长); the others are table
    /// arbiters (监局裁判). At most one (naming another makes the previous
    /// one a table arbiter).
    pub chiefs: Vec<UserId>,
    /// A duplicate event's boards' deal secrets (hex), for the director to
    /// deal from; never shown.
    pub board_secrets: Vec<String>,
    /// A duplicate event's boards published (every table finished them).
    pub boards_published: Vec<bool>,
}

/// Loads an event.
pub async fn load(store: &dyn Store, id: &str) -> Result<Option<EventData>, ApiError> {
    let Some(row) = store.event(id).await? else {
        return Ok(None);
    };
    let config: EventConfig = serde_json::from_str(&row.config).map_err(ApiError::internal)?;
    let roles = store.arbiter_roles(id).await?;
    Ok(Some(EventData {
        chiefs: roles
            .iter()
            .filter(|(_, r)| r == "chief")
            .map(|(u, _)| *u)
            .collect(),
        players: store.event_players(id).await?,
        byes: store.event_byes(id).await?,
        rounds: store.event_rounds(id).await?,
        games: store.event_games(id).await?,
        arbiters: roles.iter().map(|(u, _)| *u).collect(),
        tables: if config.kind.at_tables_of_three() {
            store.event_tables(id).await?
        } else {
            Vec::new()
        },
        hands: if config.kind.at_tables_of_three() {
            store.event_hands(id).await?
        } else {
            Vec::new()
        },
        board_secrets: if config.kind == EventKind::Duplicate {
            store.board_secrets(id).await?
        } else {
            Vec::new()
        },
        boards_published: if config.kind == EventKind::Duplicate {
            store
                .event_boards(id)
                .await?
                .iter()
                .map(|b| b.published_at.is_some())
                .collect()
        } else {
            Vec::new()
        },
        row,
        config,
    }))
}

/// A TRF result character as stored.
fn code(s: Option<&str>) -> Option<ResultCode> {
    s.and_then(|s| s.chars().next())
        .and_then(ResultCode::from_char)
}

impl EventData {
    /// Rounds paired so far.
    pub fn paired(&self) -> i64 {
        self.rounds.last().map_or(0, |r| r.round)
    }

    /// The round being played, if one is.
    pub fn current(&self) -> Option<&EventRoundRow> {
        self.rounds.last().filter(|r| r.finished_at.is_none())
    }

    pub fn player(&self, user: UserId) -> Option<&EventPlayerRow> {
        self.players.iter().find(|p| p.user_id == user)
    }

    fn rank_of(&self, user: UserId) -> Option<u32> {
        self.player(user).map(|p| p.start_rank as u32)
    }

    /// A player's name; a computer place's (user 0 at a duplicate event's
    /// table) is `bot:basic`, as clients show computer players.
    pub fn name_of(&self, user: UserId) -> String {
        if user == 0 {
            return duplicate::computer_place();
        }
        self.player(user)
            .map(|p| p.username.clone())
            .unwrap_or_default()
    }

    /// The games of round `round`.
    pub fn games_of(&self, round: i64) -> impl Iterator<Item = &EventGameRow> {
        self.games.iter().filter(move |g| g.round == round)
    }

    /// The tournament as the pairing engine and the tiebreaks see it: every
    /// paired round with its results (a game still being played has a blank
    /// result), the requested byes up to the next round, and the players who
    /// will not be paired next (withdrawn, disqualified) with a zero-point
    /// entry for the next round, which is how a TRF file says so.
    pub fn tournament(&self) -> Tournament {
        let mut t = Tournament::new(self.config.rounds, Colour::White);
        for p in &self.players {
            let rank = t.add_player(&p.username, p.rating.and_then(|r| u32::try_from(r).ok()));
            debug_assert_eq!(i64::from(rank), p.start_rank);
        }
        let next = self.paired() + 1;
        let index: HashMap<u32, usize> = t
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| (p.start_rank, i))
            .collect();
        let set = |t: &mut Tournament, rank: u32, round: i64, entry: RoundEntry| {
            if let Some(&i) = index.get(&rank) {
                t.players[i].set_entry(round as usize, entry);
            }
        };
        for g in &self.games {
            let Some(w) = self.rank_of(g.white) else {
                continue;
            };
            match g.black.and_then(|b| self.rank_of(b)) {
                None => set(&mut t, w, g.round, RoundEntry::bye(ResultCode::PairingBye)),
                Some(b) => {
                    let wr = code(g.white_result.as_deref()).unwrap_or(ResultCode::Absent);
                    let br = code(g.black_result.as_deref()).unwrap_or(ResultCode::Absent);
                    set(&mut t, w, g.round, RoundEntry::game(b, Colour::White, wr));
                    set(&mut t, b, g.round, RoundEntry::game(w, Colour::Black, br));
                }
            }
        }
        for bye in self.byes.iter().filter(|b| b.round <= next) {
            let kind = code(Some(&bye.kind)).unwrap_or(ResultCode::ZeroBye);
            if let Some(rank) = self.rank_of(bye.user_id) {
                set(&mut t, rank, bye.round, RoundEntry::bye(kind));
            }
        }
        if next <= i64::from(self.config.rounds) {
            for p in self
                .players
                .iter()
                .filter(|p| p.withdrawn || p.disqualified)
            {
                let rank = p.start_rank as u32;
                if t.players[index[&rank]].entry(next as usize).is_blank() {
                    set(&mut t, rank, next, RoundEntry::bye(ResultCode::ZeroBye));
                }
            }
        }
        let paired = self.paired().max(0) as usize;
        t.update_points(paired);
        t
    }

    /// The standings with the event's tiebreaks after the rounds paired so far.
    pub fn standings(&self) -> Vec<StandingView> {
        let t = self.tournament();
        let order = self.config.tiebreak_order().unwrap_or_default();
        let rounds = self.paired().max(0) as usize;
        tiebreak::standings(&t, rounds, &order)
            .into_iter()
            .map(|s| StandingView {
                place: s.place,
                start_rank: s.start_rank,
                user: s.name,
                score: f64::from(s.score) / 10.0,
                tiebreaks: order
                    .iter()
                    .zip(&s.tiebreaks)
                    .map(|(tb, v)| TiebreakValue {
                        code: tb.code().to_string(),
                        value: if tb.is_count() {
                            f64::from(*v)
                        } else {
                            f64::from(*v) / 100.0
                        },
                    })
                    .collect(),
            })
            .collect()
    }

    /// The crosstable: each player's rounds as TRF writes them (`4w1`: against
    /// starting rank 4 with white, won; `U`, `H`, `Z` for byes).
    pub fn crosstable(&self) -> Vec<CrossRow> {
        let t = self.tournament();
        let rounds = self.paired().max(0) as usize;
        t.players
            .iter()
            .map(|p| CrossRow {
                start_rank: p.start_rank,
                user: p.name.clone(),
                score: f64::from(p.points) / 10.0,
                rounds: (1..=rounds)
                    .map(|r| {
                        let e = p.entry(r);
                        let opp = match e.opponent {
                            OpponentField::Player(o) => o.to_string(),
                            _ => String::new(),
                        };
                        let colour = match e.colour {
                            ColourMark::White => "w",
                            ColourMark::Black => "b",
                            _ => "",
                        };
                        format!("{opp}{colour}{}", e.result.as_char())
                            .trim()
                            .to_string()
                    })
                    .collect(),
            })
            .collect()
    }

    /// The players as the rules of tables of three see them.
    pub fn entrants(&self) -> Vec<cards::Entrant> {
        self.players
            .iter()
            .map(|p| cards::Entrant {
                user: p.user_id,
                start_rank: p.start_rank,
                gone: p.withdrawn || p.disqualified,
            })
            .collect()
    }

    /// The hands as those rules see them.
    pub fn card_hands(&self) -> Vec<cards::Hand> {
        self.hands
            .iter()
            .map(|h| cards::Hand {
                round: h.round,
                seats: seats_of(&h.seats),
                scores: h
                    .scores
                    .as_deref()
                    .and_then(|s| serde_json::from_str(s).ok()),
            })
            .collect()
    }

    /// The starting chips (0 for a Swiss event).
    pub fn starting_chips(&self) -> i64 {
        self.config.cards.as_ref().map_or(0, |c| c.starting_chips)
    }

    /// The players in round `round` of an event at tables of three.
    pub fn still_in(&self, round: i64) -> Vec<UserId> {
        let c = self.config.cards.as_ref();
        cards::still_in(
            &self.entrants(),
            self.starting_chips(),
            &self.card_hands(),
            round,
            i64::from(self.config.rounds),
            c.and_then(|c| c.elimination),
            c.and_then(|c| c.final_round),
        )
    }

    /// The standings of an event at tables of three.
    pub fn card_standings(&self) -> Vec<CardStandingView> {
        let c = self.config.cards.as_ref();
        cards::standings(
            &self.entrants(),
            self.starting_chips(),
            &self.card_hands(),
            self.paired(),
            i64::from(self.config.rounds),
            c.and_then(|c| c.elimination),
            c.and_then(|c| c.final_round),
        )
        .into_iter()
        .map(|s| CardStandingView {
            place: s.place,
            start_rank: s.start_rank,
            user: self.name_of(s.user),
            chips: s.chips,
            hands: s.hands,
            reached: s.reached,
            out: s.out,
        })
        .collect()
    }

    /// The event's TRF-16 file now.
    pub fn trf(&self) -> String {
        let mut t = self.tournament();
        t.records.insert(
            0,
            // One line: a name's control characters (a newline) become spaces.
            qiyuan_swiss::model::Record::Other(format!(
                "012 {}",
                self.config
                    .name
                    .chars()
                    .map(|c| if c.is_control() { ' ' } else { c })
                    .collect::<String>()
            )),
        );
        qiyuan_swiss::trf::write(&t)
    }
}

/// One line of the standings.
#[derive(Debug, Clone, Serialize)]
pub struct StandingView {
    pub place: usize,
    pub start_rank: u32,
    pub user: String,
    pub score: f64,
    pub tiebreaks: Vec<TiebreakValue>,
}

#[derive(Debug, Clone, Serialize)]
pub struct TiebreakValue {
    pub code: String,
    pub value: f64,
}

/// One line of the standings of an event at tables of three.
#[derive(Debug, Clone, Serialize)]
pub struct CardStandingView {
    pub place: usize,
    pub start_rank: i64,
    pub user: String,
    pub chips: i64,
    pub hands: u32,
    pub reached: i64,
    pub out: bool,
}

/// A stored seat list (`[3, 7, 12]`).
pub fn seats_of(seats: &str) -> Vec<UserId> {
    serde_json::from_str(seats).unwrap_or_default()
}

/// One line of the crosstable.
#[derive(Debug, Clone, Serialize)]
pub struct CrossRow {
    pub start_rank: u32,
    pub user: String,
    pub score: f64,
    pub rounds: Vec<String>,
}

/// The TRF of an event in a store (`qiyuan swiss export`).
pub async fn export_trf(store: &dyn Store, id: &str) -> anyhow::Result<String> {
    let data = load(store, id)
        .await
        .map_err(|e| anyhow::anyhow!("{}", e.message))?
        .ok_or_else(|| anyhow::anyhow!("no event {id:?}"))?;
    Ok(data.trf())
}

/// Records an arbiter's (or the server's) action in the event report.
pub(crate) async fn record_action(
    store: &dyn Store,
    event: &str,
    action: EventActionRow,
) -> Result<i64, StoreError> {
    store.add_event_action(event, &action).await
}
