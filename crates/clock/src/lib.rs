//! qiyuan-clock: game clocks as pure values.
//!
//! A [`Clock`] holds one [`TimeControl`] and the time of every seat, and changes
//! only when it is stepped with an explicit time (milliseconds since an epoch the
//! caller chooses). It never reads a wall clock, so a live game and its replay
//! agree to the millisecond. It knows nothing of games, tables, users or sockets:
//! seats are plain indices, and whoever drives the clock decides whose turn it is.
//!
//! The caller (the table) starts a seat's clock when that seat is to act,
//! [`Clock::press`]es it when the seat has acted (with the lag the server measured,
//! compensated from a per-seat quota in the manner of Lichess), asks
//! [`Clock::flag_time`] when to check for a flag fall, and pauses the clock when no
//! seat's time should run (Go's dead-stone marking, server downtime).
//!
//! # Lag compensation (the rules, after Lichess)
//!
//! The rules are those of Lichess (scalachess `Clock.scala` and `LagTracker.scala`,
//! and its client's `lag` reports through lila-ws); only the facts are taken.
//!
//! * A move's *lag* is the network time the player did not have to think: the
//!   round trip between the server starting the seat's clock and the move reaching
//!   it. The server measures each socket's round trip ([`LagEstimate`], a decaying
//!   mean of its samples, each capped at [`LagEstimate::MAX_SAMPLE`]); a client
//!   may also report its own, which is believed only up to the same cap, and the
//!   larger of the two is the move's lag. Nothing else limits what a client may
//!   claim: the quota does.
//! * Each seat has a *quota* ([`LagQuota`]): it starts at three *gains* and holds
//!   at most seven. The gain is 0.35 s for games estimated at 15 s or less (base
//!   plus 40 increments), 1 s for 3 minutes or more, and in between a third of the
//!   estimated seconds plus 40, in centiseconds (1+0: 0.6 s; 2+0: 0.8 s).
//! * On every move the compensation is `min(lag, quota, time used)`; the move is
//!   charged the time used less the compensation; the quota then loses the
//!   compensation and gains one gain, up to its maximum. So a player whose lag is
//!   under the gain is always wholly compensated, and one claiming ten seconds a
//!   move gains the gain a move (and the first quota once), never more.
//! * The flag grace: the server declares a flag only once the seat's time is
//!   spent *and* the lag compensated on its previous move (at most the quota) has
//!   passed too, so that a move already on its way is not flagged. A move that
//!   arrives in that window is charged with its compensation like any other and
//!   stands if its compensated time is within the limit.
//! * The compensation is part of the logged move (the table's `Act` command
//!   carries the lag the server used), so a replay charges exactly the same.

mod control;

use serde::{Deserialize, Serialize};

pub use control::{DAY, Preset, Speed, TimeControl};

/// Milliseconds since an epoch chosen by the caller.
pub type Millis = u64;

/// Lag compensation in the manner of Lichess: each seat holds a quota that every
/// move tops up by `gain` (capped at `max`); a move's reported lag is forgiven up to
/// the quota, and the quota pays for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LagQuota {
    pub quota: Millis,
    pub gain: Millis,
    pub max: Millis,
    /// The lag compensated on the seat's last move; the flag check waits this long
    /// (at most the quota) so that a move already on its way is not flagged.
    pub last: Millis,
}

impl LagQuota {
    /// Lichess's numbers (its `LagTracker`): a gain of 0.35 s per move for games
    /// of 15 s or less, rising by a third of the estimated seconds to 1 s for games
    /// of 3 minutes or more; the quota starts at three gains and holds seven.
    pub fn for_control(control: &TimeControl) -> Self {
        let gain = match control.estimated_seconds() {
            None => 1_000,
            Some(s) if s >= 180 => 1_000,
            Some(s) if s <= 15 => 350,
            Some(s) => (s / 3 + 40) * 10,
        };
        LagQuota {
            quota: gain * 3,
            gain,
            max: gain * 7,
            last: 0,
        }
    }

    /// Forgives up to `lag` from the quota and returns what was forgiven.
    fn compensate(&mut self, lag: Millis) -> Millis {
        let comp = lag.min(self.quota);
        self.quota = (self.quota - comp + self.gain).min(self.max);
        self.last = comp;
        comp
    }

    /// How long the flag check waits for a move that may be on its way.
    fn grace(&self) -> Millis {
        self.last.min(self.quota)
    }
}

/// A running estimate of one connection's lag (its round trip, in milliseconds),
/// as Lichess's lag tracker keeps one: a decaying mean and mean deviation of the
/// samples, each capped at [`LagEstimate::MAX_SAMPLE`]. The first samples weigh
/// more (`1/n`) until the decay takes over, so that a new connection's estimate
/// is right after a sample or two. Pure: the caller measures.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct LagEstimate {
    mean: f64,
    deviation: f64,
    samples: u32,
}

impl LagEstimate {
    /// How much of the previous estimate each new sample keeps.
    pub const DECAY: f64 = 0.85;
    /// No sample (and no client's report) counts for more than this.
    pub const MAX_SAMPLE: Millis = 10_000;

    /// Records one sample.
    pub fn record(&mut self, sample: Millis) {
        let x = sample.min(Self::MAX_SAMPLE) as f64;
        self.samples = self.samples.saturating_add(1);
        let mix = (1.0 / f64::from(self.samples)).max(1.0 - Self::DECAY);
        let delta = x - self.mean;
        if self.samples == 1 {
            self.mean = x;
            self.deviation = 0.0;
        } else {
            self.mean += mix * delta;
            self.deviation += mix * (delta.abs() - self.deviation);
        }
    }

    /// The estimate, once there is a sample.
    pub fn mean(&self) -> Option<Millis> {
        (self.samples > 0).then(|| self.mean.round().max(0.0) as Millis)
    }

    /// How much the samples stray from the mean, on average.
    pub fn deviation(&self) -> Option<Millis> {
        (self.samples > 0).then(|| self.deviation.round().max(0.0) as Millis)
    }

    /// How many samples were recorded.
    pub fn samples(&self) -> u32 {
        self.samples
    }
}

/// One seat's time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatTime {
    /// Main time left (局时, base, main time); for correspondence the time per move.
    pub main: Millis,
    /// Byo-yomi periods left.
    pub periods: u32,
    /// Canadian: moves left to make in the current period.
    pub moves_left: u32,
    /// Canadian: time left in the current period.
    pub period_left: Millis,
    /// Canadian: main time is used up and periods are being played.
    pub overtime: bool,
    /// The seat ran out of time.
    pub flagged: bool,
    /// Moves made on this clock.
    pub moves: u32,
    /// Lag compensation for this seat.
    pub lag: LagQuota,
}

/// Whose clock runs, since when, and how much of the current move was used before a
/// pause.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Running {
    pub seat: usize,
    /// When the clock last started running; `None` while paused.
    pub since: Option<Millis>,
    /// Time of the current move already used before the last pause.
    pub banked: Millis,
}

/// A seat ran out of time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Flagged {
    pub seat: usize,
    /// When the time ran out (without the lag grace).
    pub at: Millis,
}

/// Which of a clock's limits a seat's current move runs against: the one that
/// flags it if the move is not made in time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimeLimit {
    /// The main time (局时, a Fischer or correspondence clock's time).
    Main,
    /// The QQ clock's per-move limit (步时).
    Move,
    /// The QQ clock's count-down after the main time (读秒).
    Countdown,
    /// Byo-yomi periods, a Canadian period.
    Overtime,
}

/// What a press charged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Press {
    pub seat: usize,
    /// The move's time after lag compensation.
    pub charged: Millis,
    /// The lag forgiven.
    pub compensated: Millis,
}

/// A seat's clock as players see it at a moment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SeatClockView {
    /// Main time left now.
    pub main: Millis,
    /// Time left for the current move (or for the next one, for a seat not to move)
    /// before the seat flags; `None` with no clock.
    pub move_left: Option<Millis>,
    /// Byo-yomi periods left / Canadian moves left in the period.
    pub periods: u32,
    pub moves_left: u32,
    /// The seat is in its count-down / byo-yomi / Canadian overtime.
    pub overtime: bool,
    pub flagged: bool,
}

/// The whole clock as players and spectators see it at a moment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ClockView {
    pub control: TimeControl,
    /// The seat whose time runs, if any.
    pub running: Option<usize>,
    pub paused: bool,
    pub seats: Vec<SeatClockView>,
    /// The moment the view was taken.
    pub at: Millis,
}

/// The clocks of all seats at a table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    control: TimeControl,
    seats: Vec<SeatTime>,
    running: Option<Running>,
}

impl Clock {
    /// A stopped clock for `seats` seats with their full time.
    pub fn new(control: TimeControl, seats: usize) -> Self {
        let lag = LagQuota::for_control(&control);
        let (periods, moves_left, period_left) = match control {
            TimeControl::ByoYomi {
                periods, period, ..
            } => (periods, 0, period),
            TimeControl::Canadian { moves, period, .. } => (0, moves, period),
            _ => (0, 0, 0),
        };
        let seat = SeatTime {
            main: control.initial_main(),
            periods,
            moves_left,
            period_left,
            overtime: false,
            flagged: false,
            moves: 0,
            lag,
        };
        Clock {
            control,
            seats: vec![seat; seats],
            running: None,
        }
    }

    pub fn control(&self) -> &TimeControl {
        &self.control
    }

    pub fn seat(&self, seat: usize) -> Option<&SeatTime> {
        self.seats.get(seat)
    }

    pub fn running(&self) -> Option<Running> {
        self.running
    }

    /// The seat whose time runs now (not while paused).
    pub fn running_seat(&self) -> Option<usize> {
        self.running.filter(|r| r.since.is_some()).map(|r| r.seat)
    }

    pub fn is_paused(&self) -> bool {
        self.running.is_some_and(|r| r.since.is_none())
    }

    /// How much of the current move `seat` may use in all before it flags, or
    /// `None` when it cannot flag.
    fn limit(&self, seat: usize) -> Option<Millis> {
        let t = self.seats.get(seat)?;
        match self.control {
            TimeControl::None => None,
            TimeControl::Fischer { .. } | TimeControl::Correspondence { .. } => Some(t.main),
            TimeControl::Qq {
                per_move,
                countdown,
                ..
            } => {
                if t.main == 0 {
                    Some(countdown)
                } else if per_move > 0 && per_move < t.main {
                    Some(per_move)
                } else {
                    Some(t.main + countdown)
                }
            }
            TimeControl::ByoYomi { period, .. } => Some(t.main + u64::from(t.periods) * period),
            TimeControl::Canadian { period, .. } => {
                if t.overtime {
                    Some(t.period_left)
                } else {
                    Some(t.main + period)
                }
            }
        }
    }

    /// The limit `seat`'s current (or next) move runs against: which one flags it
    /// when the move is not made in time. `None` when it cannot flag.
    pub fn limit_kind(&self, seat: usize) -> Option<TimeLimit> {
        let t = self.seats.get(seat)?;
        match self.control {
            TimeControl::None => None,
            TimeControl::Fischer { .. } | TimeControl::Correspondence { .. } => {
                Some(TimeLimit::Main)
            }
            TimeControl::Qq {
                per_move,
                countdown,
                ..
            } => Some(if t.main == 0 {
                TimeLimit::Countdown
            } else if per_move > 0 && per_move < t.main {
                TimeLimit::Move
            } else if countdown > 0 {
                TimeLimit::Countdown
            } else {
                TimeLimit::Main
            }),
            TimeControl::ByoYomi { .. } => Some(if t.periods > 0 {
                TimeLimit::Overtime
            } else {
                TimeLimit::Main
            }),
            TimeControl::Canadian { .. } => Some(TimeLimit::Overtime),
        }
    }

    /// Time used so far in the running seat's current move.
    fn elapsed(&self, now: Millis) -> Millis {
        match self.running {
            Some(Running {
                since: Some(since),
                banked,
                ..
            }) => banked.saturating_add(now.saturating_sub(since)),
            Some(Running { banked, .. }) => banked,
            None => 0,
        }
    }

    /// Starts `seat`'s time at `now`. Whatever ran before is stopped without charge
    /// (use [`Clock::press`] or [`Clock::stop`] to charge it).
    pub fn start(&mut self, seat: usize, now: Millis) {
        if seat < self.seats.len() {
            self.running = Some(Running {
                seat,
                since: Some(now),
                banked: 0,
            });
        }
    }

    /// `seat`, away since the game started and yet to make its first move,
    /// arrives at `now`, `late` after the start (a tournament's late arrival,
    /// seed 002): its main time is the control's less `late`, as if its clock
    /// had run from the start, and if its clock is running the move it is to
    /// make starts now, so that a per-move limit (步时) or a countdown (读秒)
    /// runs from its arrival, not from the start.
    pub fn arrive(&mut self, seat: usize, late: Millis, now: Millis) {
        let initial = self.control.initial_main();
        let Some(t) = self.seats.get_mut(seat) else {
            return;
        };
        t.main = initial.saturating_sub(late);
        if let Some(r) = self
            .running
            .as_mut()
            .filter(|r| r.seat == seat && r.since.is_some())
        {
            r.since = Some(now);
            r.banked = 0;
        }
    }

    /// The running seat has moved at `now`; the server measured `lag` for the move.
    /// Charges the move (less the compensated lag), applies increments and periods,
    /// and stops the clock. Returns `Err` when the seat had already run out of time:
    /// then the seat is marked flagged and the clock stops.
    pub fn press(&mut self, now: Millis, lag: Millis) -> Result<Option<Press>, Flagged> {
        let Some(running) = self.running else {
            return Ok(None);
        };
        let raw = self.elapsed(now);
        let seat = running.seat;
        // The quota pays only for what it forgives: never more than the time used.
        let compensated = self.seats[seat].lag.compensate(lag.min(raw));
        let charged = raw - compensated;
        self.charge(seat, charged, true, running_started(&running, now, raw))?;
        self.running = None;
        Ok(Some(Press {
            seat,
            charged,
            compensated,
        }))
    }

    /// Stops the running clock at `now`, charging the time used like a move but
    /// without increment or move count (a takeback, or the end of play).
    pub fn stop(&mut self, now: Millis) -> Result<(), Flagged> {
        let Some(running) = self.running else {
            return Ok(());
        };
        let raw = self.elapsed(now);
        let r = self.charge(
            running.seat,
            raw,
            false,
            running_started(&running, now, raw),
        );
        self.running = None;
        r
    }

    /// The running seat's time for its move ran out and the rules acted for
    /// it (Doudizhu: a missed bid is a pass): the move is charged all the
    /// time it had but the last millisecond, which would flag it, and the
    /// clock stops. Whatever is left (a QQ clock's countdown, which each move
    /// has afresh) is the seat's for its next move. Returns the seat.
    pub fn expire(&mut self, now: Millis) -> Option<usize> {
        let running = self.running?;
        let seat = running.seat;
        if let Some(limit) = self.limit(seat) {
            let raw = self.elapsed(now);
            // Below the limit: never a flag.
            let _ = self.charge(
                seat,
                limit.saturating_sub(1),
                false,
                running_started(&running, now, raw),
            );
        }
        self.running = None;
        Some(seat)
    }

    /// Stops the running clock without charging anything (the game ended by
    /// something other than a move, and the time does not matter any more).
    pub fn halt(&mut self) {
        self.running = None;
    }

    fn charge(
        &mut self,
        seat: usize,
        e: Millis,
        is_move: bool,
        started: Millis,
    ) -> Result<(), Flagged> {
        if let Some(limit) = self.limit(seat)
            && e >= limit
        {
            let t = &mut self.seats[seat];
            t.flagged = true;
            t.main = 0;
            t.period_left = 0;
            t.periods = 0;
            return Err(Flagged {
                seat,
                at: started.saturating_add(limit),
            });
        }
        let control = self.control;
        let t = &mut self.seats[seat];
        match control {
            TimeControl::None | TimeControl::Correspondence { .. } => {}
            TimeControl::Qq { .. } => t.main = t.main.saturating_sub(e),
            TimeControl::Fischer { increment, .. } => {
                t.main -= e;
                if is_move {
                    t.main += increment;
                }
            }
            TimeControl::ByoYomi { period, .. } => {
                if e <= t.main {
                    t.main -= e;
                } else {
                    let over = e - t.main;
                    t.main = 0;
                    // Periods wholly overstepped are gone; the one the move was
                    // made in is kept and starts afresh next move.
                    let used = over.checked_div(period).unwrap_or(0);
                    t.periods -= used.min(u64::from(t.periods)) as u32;
                }
            }
            TimeControl::Canadian { moves, period, .. } => {
                let mut e = e;
                if !t.overtime {
                    if e < t.main {
                        t.main -= e;
                        e = 0;
                    } else {
                        e -= t.main;
                        t.main = 0;
                        t.overtime = true;
                        t.period_left = period;
                        t.moves_left = moves;
                    }
                }
                if t.overtime {
                    t.period_left -= e;
                    if is_move {
                        t.moves_left = t.moves_left.saturating_sub(1);
                        if t.moves_left == 0 {
                            t.moves_left = moves;
                            t.period_left = period;
                        }
                    }
                }
            }
        }
        if is_move {
            t.moves += 1;
        }
        Ok(())
    }

    /// Pauses the running clock at `now`; the move's time so far is kept.
    pub fn pause(&mut self, now: Millis) {
        if let Some(r) = self.running
            && let Some(since) = r.since
        {
            self.running = Some(Running {
                seat: r.seat,
                since: None,
                banked: r.banked.saturating_add(now.saturating_sub(since)),
            });
        }
    }

    /// Resumes a paused clock at `now`.
    pub fn resume(&mut self, now: Millis) {
        if let Some(r) = self.running
            && r.since.is_none()
        {
            self.running = Some(Running {
                since: Some(now),
                ..r
            });
        }
    }

    /// An arbiter adds (`delta` > 0) or removes time from `seat`'s main time
    /// (never below zero); a seat out of time that is given some is no longer
    /// flagged. The running move's time so far stays charged to it.
    pub fn adjust(&mut self, seat: usize, delta: i64) {
        if let Some(t) = self.seats.get_mut(seat) {
            t.main = if delta >= 0 {
                t.main.saturating_add(delta.unsigned_abs())
            } else {
                t.main.saturating_sub(delta.unsigned_abs())
            };
            if t.main > 0 {
                t.flagged = false;
            }
        }
    }

    /// An arbiter sets `seat`'s main time (a restored position's clocks).
    pub fn set_main(&mut self, seat: usize, main: Millis) {
        if let Some(t) = self.seats.get_mut(seat) {
            t.main = main;
            t.flagged = false;
        }
    }

    /// Credits the time between `down_since` and `now` back to the running seat:
    /// the server was down and nobody could move. `down_since` is clamped to the
    /// running clock's start.
    pub fn credit_downtime(&mut self, down_since: Millis, now: Millis) {
        if let Some(r) = self.running
            && let Some(since) = r.since
        {
            let down_since = down_since.clamp(since, now.max(since));
            self.pause(down_since);
            self.resume(now.max(down_since));
        }
    }

    /// Credits the time between `from` and `to` back to the running seat, as far
    /// as its clock ran then (a stall, or players cut off): `from` is clamped to
    /// the running clock's start, and nothing is credited when it started after
    /// `to`.
    pub fn credit_between(&mut self, from: Millis, to: Millis) {
        if let Some(r) = self.running
            && let Some(since) = r.since
            && since < to
        {
            let from = from.max(since);
            if from < to {
                self.pause(from);
                self.resume(to);
            }
        }
    }

    /// When the running seat flags, including the lag grace; `None` when no clock
    /// runs or it cannot flag.
    pub fn flag_time(&self) -> Option<Millis> {
        let r = self.running?;
        let since = r.since?;
        let limit = self.limit(r.seat)?;
        let grace = self.seats[r.seat].lag.grace();
        Some(
            since
                .saturating_add(limit.saturating_sub(r.banked))
                .saturating_add(grace),
        )
    }

    /// The seat that has run out of time by `now` (with the lag grace), if any.
    pub fn flagged(&self, now: Millis) -> Option<usize> {
        match self.flag_time() {
            Some(t) if now >= t => self.running.map(|r| r.seat),
            _ => None,
        }
    }

    /// Marks the running seat flagged (the table saw [`Clock::flagged`]) and stops.
    pub fn flag(&mut self, now: Millis) -> Option<Flagged> {
        let seat = self.flagged(now)?;
        let running = self.running?;
        let raw = self.elapsed(now);
        let at = running_started(&running, now, raw).saturating_add(self.limit(seat).unwrap_or(0));
        let t = &mut self.seats[seat];
        t.flagged = true;
        t.main = 0;
        t.period_left = 0;
        t.periods = 0;
        self.running = None;
        Some(Flagged { seat, at })
    }

    /// The clock as seen at `now`.
    pub fn view(&self, now: Millis) -> ClockView {
        let running = self.running.map(|r| r.seat);
        let seats = (0..self.seats.len())
            .map(|i| {
                let t = &self.seats[i];
                let e = if running == Some(i) {
                    self.elapsed(now)
                } else {
                    0
                };
                let limit = self.limit(i);
                let (main, overtime) = match self.control {
                    TimeControl::Qq { .. } => (t.main.saturating_sub(e), t.main <= e),
                    TimeControl::ByoYomi { .. } => (t.main.saturating_sub(e), t.main <= e),
                    TimeControl::Canadian { .. } => {
                        (t.main.saturating_sub(e), t.overtime || t.main <= e)
                    }
                    TimeControl::Correspondence { .. } => (t.main.saturating_sub(e), false),
                    _ => (t.main.saturating_sub(e), false),
                };
                SeatClockView {
                    main,
                    move_left: limit.map(|l| l.saturating_sub(e)),
                    periods: t.periods,
                    moves_left: t.moves_left,
                    overtime,
                    flagged: t.flagged,
                }
            })
            .collect();
        ClockView {
            control: self.control,
            running: self.running_seat(),
            paused: self.is_paused(),
            seats,
            at: now,
        }
    }

    /// Remaining main time of `seat` at `now` (for records' `[%clk]`).
    pub fn remaining(&self, seat: usize, now: Millis) -> Millis {
        self.view(now).seats.get(seat).map_or(0, |s| s.main)
    }
}

/// When the running move started, on the caller's time line, ignoring pauses: used
/// only to say when a flag fell.
fn running_started(_r: &Running, now: Millis, elapsed: Millis) -> Millis {
    now.saturating_sub(elapsed)
}

#[cfg(test)]
mod tests;
