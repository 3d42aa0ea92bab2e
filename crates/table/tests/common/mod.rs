//! A tiny game for testing the table: players in turn add 1, 2 or 3 to a running
//! total; whoever brings it to the target wins. Each seat holds a secret number
//! that only it may see (hidden information), and the draw-offer rule and the
//! number of seats are options, so that every table rule can be tried without a
//! real game.

#![allow(dead_code)]

use qiyuan_game::{
    Claim, DrawOffers, Effects, EndReason, Game, Outcome, PlayPhase, RecordMeta, Refusal,
    RefusalKind, Seat, SeatResult, Secret, Setup, SetupError, Turn, Viewer,
};
use qiyuan_table::{Command, Event, Millis, Table, TableConfig, TableRefusal, TimeControl};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CountOptions {
    pub seats: u8,
    pub target: u32,
    pub draw_offers: DrawOffers,
    /// A buggy game: `conceded` builds a two-seat outcome whatever the seat
    /// count (what the contract's old default did), for the table to catch.
    pub two_seat_concession: bool,
    /// A buggy game: the win at the target has two results whatever the seat
    /// count, found by the table only after the game played the move.
    pub two_seat_win: bool,
}

impl Default for CountOptions {
    fn default() -> Self {
        CountOptions {
            seats: 2,
            target: 1000,
            draw_offers: DrawOffers::AfterOwnMove,
            two_seat_concession: false,
            two_seat_win: false,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Count {
    options: CountOptions,
    total: u32,
    to_move: Seat,
    secrets: Vec<u64>,
    claimed: Option<Outcome>,
}

#[derive(Debug, Clone, Serialize)]
pub struct CountView {
    pub total: u32,
    pub to_move: Seat,
    /// Only the viewer's own secret.
    pub secret: Option<u64>,
}

impl Game for Count {
    type Options = CountOptions;
    type Phase = PlayPhase;
    type View = CountView;
    const NAME: &'static str = "count";

    fn new(options: &CountOptions, setup: &Setup) -> Result<Self, SetupError> {
        if !(2..=3).contains(&options.seats) {
            return Err(SetupError::new("2 or 3 seats"));
        }
        let (total, seed) = match setup {
            Setup::Standard => (0, 7),
            Setup::Position(p) => (
                p.parse()
                    .map_err(|_| SetupError::new("a position is a number"))?,
                7,
            ),
            Setup::Seed(s) => (0, *s),
            Setup::Secret(secret) => (0, u64::from_le_bytes(secret.0[..8].try_into().unwrap())),
        };
        Ok(Count {
            options: options.clone(),
            total,
            to_move: Seat::FIRST,
            secrets: (0..options.seats as u64)
                .map(|i| seed.wrapping_mul(31).wrapping_add(i))
                .collect(),
            claimed: None,
        })
    }

    fn seats(&self) -> u8 {
        self.options.seats
    }

    fn turn(&self) -> Turn {
        if self.outcome().is_some() {
            Turn::Over
        } else {
            Turn::Seat(self.to_move)
        }
    }

    fn phase(&self) -> PlayPhase {
        if self.outcome().is_some() {
            PlayPhase::Over
        } else {
            PlayPhase::Play
        }
    }

    fn act(&mut self, seat: Seat, action: &str) -> Result<Effects, Refusal> {
        if self.outcome().is_some() {
            return Err(Refusal::new(RefusalKind::GameOver, "over"));
        }
        if seat != self.to_move {
            return Err(Refusal::new(RefusalKind::NotYourTurn, "not your turn"));
        }
        let n: u32 = action
            .trim()
            .parse()
            .map_err(|_| Refusal::new(RefusalKind::Malformed, "a number"))?;
        if !(1..=3).contains(&n) {
            return Err(Refusal::new(RefusalKind::Illegal, "1, 2 or 3"));
        }
        self.total += n;
        self.to_move = self.to_move.next(self.options.seats);
        Ok(Effects {
            canonical: n.to_string(),
            display: format!("+{n}"),
            capture: false,
            check: false,
        })
    }

    fn legal_actions(&self, seat: Seat) -> Vec<String> {
        if seat == self.to_move && self.outcome().is_none() {
            vec!["1".into(), "2".into(), "3".into()]
        } else {
            Vec::new()
        }
    }

    fn claims(&self, _seat: Seat) -> Vec<Claim> {
        if self.total > 0 && self.total.is_multiple_of(10) && self.outcome().is_none() {
            vec![Claim::FiftyMoves]
        } else {
            Vec::new()
        }
    }

    fn claim(&mut self, seat: Seat, claim: Claim) -> Result<Outcome, Refusal> {
        if !self.claims(seat).contains(&claim) {
            return Err(Refusal::new(RefusalKind::ClaimRefused, "not now"));
        }
        let o = Outcome::draw(self.options.seats, EndReason::FiftyMoves, "1/2-1/2");
        self.claimed = Some(o.clone());
        Ok(o)
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = &self.claimed {
            return Some(o.clone());
        }
        if self.total >= self.options.target {
            // The seat that just moved wins.
            let n = self.options.seats;
            let winner = Seat((self.to_move.0 + n - 1) % n);
            let results_n = if self.options.two_seat_win { 2 } else { n };
            let mut results = vec![SeatResult::Loss; results_n as usize];
            if let Some(r) = results.get_mut(winner.index()) {
                *r = SeatResult::Win;
            }
            return Some(Outcome {
                results,
                reason: EndReason::Checkmate,
                score: format!("{winner}"),
                points: Vec::new(),
                deal: 0,
            });
        }
        None
    }

    fn conceded(&self, seat: Seat, reason: EndReason) -> Outcome {
        let n = if self.options.two_seat_concession {
            2
        } else {
            self.options.seats
        };
        // Its seat count is its options' (a proposal without options plays
        // the default two seats even at a table of three): an outcome that
        // does not fit is the table's to refuse, not a panic here.
        let mut results = vec![SeatResult::Win; n as usize];
        if let Some(r) = results.get_mut(seat.index()) {
            *r = SeatResult::Loss;
        }
        Outcome {
            results,
            reason,
            score: format!("{seat} lost"),
            points: Vec::new(),
            deal: 0,
        }
    }

    fn agreed_draw(&self) -> Outcome {
        Outcome::draw(self.options.seats, EndReason::Agreement, "1/2-1/2")
    }

    fn draw_offers(&self) -> DrawOffers {
        self.options.draw_offers
    }

    fn view(&self, viewer: Viewer) -> CountView {
        CountView {
            total: self.total,
            to_move: self.to_move,
            secret: match viewer {
                Viewer::Seat(s) => self.secrets.get(s.index()).copied(),
                Viewer::Spectator => None,
            },
        }
    }

    fn record(&self, meta: &RecordMeta) -> String {
        format!("count {} {:?}", self.total, meta.players)
    }
}

pub const S: Millis = 1_000;
pub const M: Millis = 60 * S;

/// A scripted table on a simulated clock.
pub struct Script<G: Game> {
    pub table: Table<G>,
    pub now: Millis,
    /// How many secrets were offered: every command gets a new one, as the
    /// server's do (games that draw no randomness ignore it).
    pub secrets: u64,
}

pub fn user(i: u8) -> String {
    ["alice", "bob", "carol", "dave"][i as usize].to_string()
}

impl<G: Game> Script<G> {
    pub fn new(config: TableConfig) -> Self {
        Script {
            table: Table::new(config).expect("config"),
            now: 1_000_000,
            secrets: 0,
        }
    }

    /// A table with every seat taken by `user(i)` and the game started.
    pub fn started(config: TableConfig) -> Self {
        let mut s = Script::new(config);
        let n = s.table.seats();
        for i in 0..n {
            s.ok(Command::Sit {
                user: user(i),
                seat: Seat(i),
            });
        }
        for i in 0..n {
            s.ok(Command::Ready {
                user: user(i),
                proposal: None,
            });
        }
        assert_eq!(s.table.state().status, qiyuan_table::Status::Playing);
        s
    }

    pub fn wait(&mut self, ms: Millis) -> &mut Self {
        self.now += ms;
        self
    }

    /// A new secret for the next command (distinct for every command).
    pub fn next_secret(&mut self) -> Secret {
        self.secrets += 1;
        let mut bytes = [0x5a; 32];
        bytes[..8].copy_from_slice(&self.secrets.to_le_bytes());
        Secret(bytes)
    }

    pub fn apply(&mut self, cmd: Command) -> Result<Vec<Event>, TableRefusal> {
        let secret = self.next_secret();
        self.table.apply_with(cmd, self.now, Some(secret))
    }

    #[track_caller]
    pub fn ok(&mut self, cmd: Command) -> Vec<Event> {
        match self.apply(cmd.clone()) {
            Ok(e) => e,
            Err(r) => panic!("{cmd:?} refused: {r:?}"),
        }
    }

    /// Applies a command that must be refused, and checks it changed nothing.
    #[track_caller]
    pub fn refused(&mut self, cmd: Command) -> TableRefusal {
        let before = self.table.clone();
        match self.apply(cmd.clone()) {
            Ok(e) => panic!("{cmd:?} accepted: {e:?}"),
            Err(r) => {
                assert!(r.fired.is_empty(), "timers fired: {:?}", r.fired);
                assert!(self.table == before, "a refusal changed the table");
                r
            }
        }
    }

    /// Seat `i`'s user plays `action` after thinking `ms`.
    #[track_caller]
    pub fn play(&mut self, i: u8, ms: Millis, action: &str) -> Vec<Event> {
        self.now += ms;
        self.ok(Command::Act {
            user: user(i),
            action: action.into(),
            lag: 0,
        })
    }

    pub fn tick(&mut self) -> Vec<Event> {
        self.table.tick(self.now)
    }

    /// Replaying the log gives the live table.
    #[track_caller]
    pub fn check_replay(&self) {
        let replayed = Table::<G>::replay(self.table.config().clone(), self.table.log())
            .expect("the log replays");
        assert!(
            replayed == self.table,
            "replay differs:\n{:?}\n{:?}",
            replayed.state(),
            self.table.state()
        );
    }

    pub fn outcome(&self) -> Option<qiyuan_game::Outcome> {
        self.table
            .state()
            .game
            .as_ref()
            .and_then(|g| g.outcome.clone())
    }
}

pub fn count_config(time: TimeControl, options: CountOptions) -> TableConfig {
    let mut c = TableConfig::casual(time);
    c.settings.options = serde_json::to_value(options).unwrap();
    c
}

pub fn ended(events: &[Event]) -> Option<(Outcome, bool)> {
    events.iter().find_map(|e| match e {
        Event::Ended { outcome, rated } => Some((outcome.clone(), *rated)),
        _ => None,
    })
}
