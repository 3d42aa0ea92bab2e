//! The game contract: how a table plays any of qiyuan's games.
//!
//! A game is a pure value. It is created from its options and a [`Setup`], and
//! changes only through [`Game::act`], which takes an action written in the game's
//! own text notation. A refused action returns a [`Refusal`] and leaves the game
//! exactly as it was. Randomness (the Doudizhu deal) enters only through the setup
//! ([`Setup::Secret`], fresh for every game a server deals),
//! so a game is a pure function of its setup and the list of its accepted actions:
//! a takeback is a replay of that list without its last entries.
//!
//! This crate knows nothing of clocks, users, sockets or storage. The table
//! (`qiyuan-table`) owns those and drives a game through this trait.

use std::fmt;

use serde::{Deserialize, Serialize, de::DeserializeOwned};

/// A seat at the table. Seat 0 moves first: white in chess, red in xiangqi, black in
/// Go; in Doudizhu the seats are the three players in turn order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
// A newtype struct is written as its number either way; `transparent` is left
// out where ts-rs reads the attributes, which it does not know.
#[cfg_attr(not(feature = "ts"), serde(transparent))]
pub struct Seat(pub u8);

impl Seat {
    pub const FIRST: Seat = Seat(0);
    pub const SECOND: Seat = Seat(1);
    pub const THIRD: Seat = Seat(2);

    /// The seat's index, for indexing per-seat vectors.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The next seat in turn order among `seats` seats.
    pub const fn next(self, seats: u8) -> Seat {
        Seat((self.0 + 1) % seats)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

/// Who is looking at a game. Hidden information is removed for every viewer but the
/// one it belongs to; spectators see only what is public.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Viewer {
    Seat(Seat),
    Spectator,
}

/// Who must act now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Turn {
    /// One seat is to act; its clock runs.
    Seat(Seat),
    /// Several seats may act in any order (Go's dead-stone marking, where both must
    /// accept). No clock runs.
    All(Vec<Seat>),
    /// The game is over.
    Over,
}

/// The stages a game goes through, as the game itself names them: each game
/// declares its own ([`Game::Phase`]): Go plays, then marks dead stones;
/// Doudizhu bids, then plays; chess and xiangqi only play ([`PlayPhase`]).
/// Clients read a phase by its [`name`](GamePhase::name), which is also its
/// serde form.
pub trait GamePhase: Copy + Eq + fmt::Debug + Serialize + Send + Sync + 'static {
    /// Every phase, in the order a game goes through them (the last one is the
    /// game over): what a client shows.
    const ALL: &'static [Self];

    /// The phase's name as clients read it: `play`, `marking`, `bidding`, `over`.
    fn name(self) -> &'static str;
}

/// The phases of a game with no stages of its own: play, then over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayPhase {
    Play,
    Over,
}

impl GamePhase for PlayPhase {
    const ALL: &'static [Self] = &[PlayPhase::Play, PlayPhase::Over];

    fn name(self) -> &'static str {
        match self {
            PlayPhase::Play => "play",
            PlayPhase::Over => "over",
        }
    }
}

/// Where a game starts from. The table's "load" (读入) produces one of these.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Setup {
    /// The game's usual starting position.
    Standard,
    /// A position in the game's own format (FEN for chess and xiangqi; for Go a
    /// position understood by the Go crate).
    Position(String),
    /// A seed from which the game draws its randomness (the Doudizhu deal), for
    /// offline play, tests and audit: reproducible by anyone who knows it. A
    /// server deals from [`Setup::Secret`] instead.
    Seed(u64),
    /// A fresh secret from the operating system's random source, one per game,
    /// from which the game draws its randomness (the Doudizhu deal). The table
    /// keeps it in its private state and log; it is never shown to anyone.
    Secret(#[cfg_attr(feature = "ts", ts(type = "string"))] Secret),
}

impl Setup {
    /// Whether the setup is randomness the table chooses (a seed or a secret),
    /// which players may never propose.
    pub fn is_random(&self) -> bool {
        matches!(self, Setup::Seed(_) | Setup::Secret(_))
    }
}

/// 32 bytes of secret randomness (256 bits), written as 64 hex digits. Its
/// `Debug` form hides the bytes, so that no log line or error message can carry
/// it by accident.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Secret(pub [u8; 32]);

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(..)")
    }
}

impl Secret {
    /// The hex form (for storage only).
    pub fn to_hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Reads the hex form: exactly 64 hex digits.
    pub fn from_hex(text: &str) -> Result<Secret, SetupError> {
        let bytes = text.as_bytes();
        if bytes.len() != 64 {
            return Err(SetupError::new("a secret is 64 hex digits"));
        }
        let digit = |c: u8| match c {
            b'0'..=b'9' => Ok(c - b'0'),
            b'a'..=b'f' => Ok(c - b'a' + 10),
            b'A'..=b'F' => Ok(c - b'A' + 10),
            _ => Err(SetupError::new("a secret is 64 hex digits")),
        };
        let mut out = [0u8; 32];
        for (i, pair) in bytes.chunks_exact(2).enumerate() {
            out[i] = digit(pair[0])? << 4 | digit(pair[1])?;
        }
        Ok(Secret(out))
    }
}

impl Serialize for Secret {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_hex())
    }
}

impl<'de> Deserialize<'de> for Secret {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Secret::from_hex(&text).map_err(serde::de::Error::custom)
    }
}

/// Why an action was refused. Every refusal leaves the game unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RefusalKind {
    /// It is not this seat's turn.
    NotYourTurn,
    /// The text is not an action in any notation this game accepts.
    Malformed,
    /// A well-formed action that the rules do not allow here.
    Illegal,
    /// The action belongs to another phase (a bid during play, a move while marking).
    WrongPhase,
    /// The game is over.
    GameOver,
    /// The seat does not exist at this game.
    NoSuchSeat,
    /// A claim that the position does not support.
    ClaimRefused,
}

/// A refused action: a kind for programs and a message for people.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refusal {
    pub kind: RefusalKind,
    pub message: String,
}

impl Refusal {
    pub fn new(kind: RefusalKind, message: impl Into<String>) -> Self {
        Refusal {
            kind,
            message: message.into(),
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Refusal {}

/// What an accepted action did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Effects {
    /// The action in the game's canonical notation (UCI for chess, ICCS for
    /// xiangqi, a GTP vertex or `pass` for Go, `bid N`/cards/`pass` for Doudizhu).
    /// The table logs this text; replaying it reproduces the game.
    pub canonical: String,
    /// The action as players read it in a move list (SAN for chess, Chinese
    /// notation for xiangqi). Must not reveal hidden information.
    pub display: String,
    /// Something was captured (for sounds and counters).
    pub capture: bool,
    /// The opponent is now in check (chess, xiangqi).
    pub check: bool,
}

/// A seat's result in a finished game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum SeatResult {
    Win,
    Loss,
    Draw,
    /// The game did not count (aborted).
    Void,
}

/// Why a game ended. Reasons decided by the rules and reasons decided at the table
/// (resignation, time, agreement, escape) share one list, so that every record and
/// event names its reason the same way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    Checkmate,
    /// Chess: a draw. Xiangqi: 困毙, a loss for the side without a move.
    Stalemate,
    InsufficientMaterial,
    /// Chess: the third occurrence of a position; a draw at once by default, or
    /// claimed by the player to move under the FIDE option.
    ThreefoldRepetition,
    /// Automatic (chess).
    FivefoldRepetition,
    /// Claimed by the player to move (chess).
    FiftyMoves,
    /// Automatic (chess).
    SeventyFiveMoves,
    /// Xiangqi: perpetual check (长将) loses.
    PerpetualCheck,
    /// Xiangqi: perpetual chase (长捉) loses.
    PerpetualChase,
    /// Xiangqi: a repetition with neither (or both) sides forcing is a draw.
    Repetition,
    /// Xiangqi: the natural move limit without a capture.
    MoveLimit,
    /// Go: counted after both accepted the marking.
    Counted,
    /// Doudizhu: a hand was emptied.
    HandEmptied,
    Resignation,
    Timeout,
    Agreement,
    /// Left the game and did not come back in time (逃跑).
    Escape,
    /// Ended before both sides moved: does not count.
    Aborted,
    /// Decided by an arbiter.
    Adjudication,
    /// Lost for three recorded fouls.
    Fouls,
    /// Lost for three violations (违例, seed 002).
    Violations,
}

/// A finished game's outcome.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Outcome {
    /// One result per seat, indexed by [`Seat::index`].
    pub results: Vec<SeatResult>,
    pub reason: EndReason,
    /// The result as the game's records write it: `1-0`, `B+3.5`, `W+R`, ...
    pub score: String,
    /// Points per seat where the game scores in points (Doudizhu), else empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub points: Vec<i64>,
    /// Which deal of the hand was played where the game deals again after
    /// everyone passed (Doudizhu): 0 the first, then one more per redeal; 0
    /// in every other game. The table sets it from [`Game::deal_number`]
    /// when the game ends, whoever ended it. Duplicate events compare only
    /// results of the same deal.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub deal: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Outcome {
    /// An outcome among `seats` seats in which `winner` wins and every other
    /// seat loses.
    pub fn win(seats: u8, winner: Seat, reason: EndReason, score: impl Into<String>) -> Self {
        let mut results = vec![SeatResult::Loss; seats as usize];
        if let Some(r) = results.get_mut(winner.index()) {
            *r = SeatResult::Win;
        }
        Outcome {
            results,
            reason,
            score: score.into(),
            points: Vec::new(),
            deal: 0,
        }
    }

    /// An outcome in which every one of `seats` seats draws.
    pub fn draw(seats: u8, reason: EndReason, score: impl Into<String>) -> Self {
        Outcome {
            results: vec![SeatResult::Draw; seats as usize],
            reason,
            score: score.into(),
            points: Vec::new(),
            deal: 0,
        }
    }

    /// An aborted game: nothing counts.
    pub fn aborted(seats: u8) -> Self {
        Outcome {
            results: vec![SeatResult::Void; seats as usize],
            reason: EndReason::Aborted,
            score: "*".into(),
            points: Vec::new(),
            deal: 0,
        }
    }

    /// Whether the outcome fits a game of `seats` seats: one result per seat, and
    /// points for every seat or none. The table checks every outcome it is given
    /// (by a game or an arbiter) with this before it ends a game.
    pub fn check(&self, seats: u8) -> Result<(), OutcomeError> {
        let seats = seats as usize;
        if self.results.len() != seats {
            return Err(OutcomeError::Results {
                results: self.results.len(),
                seats,
            });
        }
        if !self.points.is_empty() && self.points.len() != seats {
            return Err(OutcomeError::Points {
                points: self.points.len(),
                seats,
            });
        }
        Ok(())
    }

    /// The seat that won, where exactly one did.
    pub fn winner(&self) -> Option<Seat> {
        let mut winners = self
            .results
            .iter()
            .enumerate()
            .filter(|(_, r)| **r == SeatResult::Win);
        match (winners.next(), winners.next()) {
            (Some((i, _)), None) => Some(Seat(i as u8)),
            _ => None,
        }
    }
}

/// An outcome that does not fit its game's seats (see [`Outcome::check`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OutcomeError {
    /// The number of results is not the number of seats.
    Results { results: usize, seats: usize },
    /// Points are given, but not one per seat.
    Points { points: usize, seats: usize },
}

impl fmt::Display for OutcomeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutcomeError::Results { results, seats } => write!(
                f,
                "an outcome with {results} results for a game of {seats} seats"
            ),
            OutcomeError::Points { points, seats } => write!(
                f,
                "an outcome with points for {points} seats in a game of {seats} seats"
            ),
        }
    }
}

impl std::error::Error for OutcomeError {}

/// Something a seat may claim instead of (or before) moving.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Claim {
    /// Chess: the position has occurred three times (or will, after the claimant's move).
    ThreefoldRepetition,
    /// Chess: fifty moves by each side without a capture or pawn move.
    FiftyMoves,
}

/// How draw offers work in a game (the table enforces these rules).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DrawOffers {
    /// No draws by agreement (Doudizhu).
    None,
    /// Chess: offered right after one's own move; stands until accepted, declined or
    /// the opponent moves.
    AfterOwnMove,
    /// Xiangqi: after one's own move; the players alternate, no second offer in a row,
    /// no withdrawal, a move declines it.
    AlternatingAfterOwnMove,
    /// Go: at any time on one's own turn.
    OnOwnTurn,
}

/// What the record of a game needs besides the moves.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RecordMeta {
    pub event: Option<String>,
    pub site: Option<String>,
    /// `YYYY.MM.DD`, the date as the site keeps it.
    pub date: Option<String>,
    /// When the game started, in UTC (PGN `UTCDate`/`UTCTime`).
    #[serde(default)]
    pub start: Option<UtcDateTime>,
    pub round: Option<String>,
    /// Player names by seat.
    pub players: Vec<String>,
    /// Ratings by seat before the game, for rated games (PGN `WhiteElo`/`BlackElo`).
    pub ratings: Vec<Option<i32>>,
    /// Who annotated the record, where someone did (PGN `Annotator`).
    #[serde(default)]
    pub annotator: Option<String>,
    /// The time control, which each record format writes its own way (PGN's
    /// `TimeControl` tag, SGF's `TM` and `OT`).
    pub time_control: Option<RecordTime>,
    /// Remaining time of the mover after each action, in milliseconds.
    pub clocks: Vec<Option<u64>>,
    /// Overtime periods (byo-yomi) or moves (Canadian) the mover has left after
    /// each action, where the clock has them (SGF `OB`/`OW`).
    #[serde(default)]
    pub periods: Vec<Option<u32>>,
    /// The outcome, if the table decided it (resignation, time, agreement, ...);
    /// otherwise the game's own outcome is used.
    pub outcome: Option<Outcome>,
}

/// A game's time control as its record describes it, in whole seconds. The
/// table fills it in from its clock; each record format writes it its own way
/// (PGN through [`RecordTime::pgn_tag`], SGF as `TM` and `OT`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecordTime {
    /// No clock.
    Untimed,
    /// Main time, and an increment after each move (sudden death when 0).
    Fischer { main: u64, increment: u64 },
    /// A limit per move and nothing else (correspondence).
    PerMove { limit: u64 },
    /// QQ's clock: the game time (局时), a limit per move while it lasts (步时,
    /// 0 for none), then a countdown for each move (读秒).
    Qq {
        game: u64,
        per_move: u64,
        countdown: u64,
    },
    /// Main time, then `periods` periods of `period` (byo-yomi).
    ByoYomi {
        main: u64,
        periods: u32,
        period: u64,
    },
    /// Main time, then `moves` moves in each period of `period` (Canadian).
    Canadian { main: u64, moves: u32, period: u64 },
}

impl RecordTime {
    /// The PGN `TimeControl` tag's value in the PGN standard's own forms
    /// (section 9.6.1): `-` for no clock, `600` for sudden death, `600+5` with an
    /// increment, `1/86400` for one move per period of seconds. A clock the
    /// standard has no form for (QQ's 局时/步时/读秒, byo-yomi, Canadian) is `?`,
    /// the standard's "unknown", and its settings go in a tag of their own
    /// ([`RecordTime::pgn_detail_tag`]), so that no reader misreads them.
    pub fn pgn_tag(&self) -> String {
        match *self {
            RecordTime::Untimed => "-".into(),
            RecordTime::Fischer { main, increment: 0 } => main.to_string(),
            RecordTime::Fischer { main, increment } => format!("{main}+{increment}"),
            RecordTime::PerMove { limit } => format!("1/{limit}"),
            RecordTime::Qq { .. } | RecordTime::ByoYomi { .. } | RecordTime::Canadian { .. } => {
                "?".into()
            }
        }
    }

    /// The tag that carries a clock the PGN `TimeControl` cannot say, in
    /// seconds: `TimeControlQQ` `600/60/30` (局时/步时/读秒), `TimeControlByoYomi`
    /// `600+3x30` (main time + periods × period), `TimeControlCanadian`
    /// `1200+25/600` (main time + moves / period). None for the others.
    pub fn pgn_detail_tag(&self) -> Option<(&'static str, String)> {
        match *self {
            RecordTime::Untimed | RecordTime::Fischer { .. } | RecordTime::PerMove { .. } => None,
            RecordTime::Qq {
                game,
                per_move,
                countdown,
            } => Some(("TimeControlQQ", format!("{game}/{per_move}/{countdown}"))),
            RecordTime::ByoYomi {
                main,
                periods,
                period,
            } => Some(("TimeControlByoYomi", format!("{main}+{periods}x{period}"))),
            RecordTime::Canadian {
                main,
                moves,
                period,
            } => Some(("TimeControlCanadian", format!("{main}+{moves}/{period}"))),
        }
    }
}

/// A moment in UTC to the second, as records write it. Made from milliseconds
/// since the Unix epoch; nothing here reads a clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct UtcDateTime {
    pub year: i32,
    /// 1 to 12.
    pub month: u8,
    /// 1 to 31.
    pub day: u8,
    pub hour: u8,
    pub minute: u8,
    pub second: u8,
}

impl UtcDateTime {
    /// The moment `ms` milliseconds after 1970-01-01T00:00:00Z (the proleptic
    /// Gregorian calendar, by Howard Hinnant's `civil_from_days`).
    pub fn from_unix_millis(ms: u64) -> Self {
        let secs = ms / 1000;
        let days = (secs / 86_400) as i64;
        let rem = secs % 86_400;
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = doy - (153 * mp + 2) / 5 + 1;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        let year = yoe + era * 400 + i64::from(month <= 2);
        UtcDateTime {
            year: year as i32,
            month: month as u8,
            day: day as u8,
            hour: (rem / 3600) as u8,
            minute: (rem / 60 % 60) as u8,
            second: (rem % 60) as u8,
        }
    }

    /// `YYYY.MM.DD`, as PGN writes dates.
    pub fn pgn_date(&self) -> String {
        format!("{:04}.{:02}.{:02}", self.year, self.month, self.day)
    }

    /// `YYYY-MM-DD`, as SGF and file names write dates.
    pub fn iso_date(&self) -> String {
        format!("{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }

    /// `HH:MM:SS`.
    pub fn time(&self) -> String {
        format!("{:02}:{:02}:{:02}", self.hour, self.minute, self.second)
    }
}

/// A game among seated players, as the table drives it.
pub trait Game: Clone + Send + Sync + 'static {
    /// Rule options chosen at the table (komi, move limit, board size, ...).
    type Options: Clone + Default + fmt::Debug + Serialize + DeserializeOwned + Send + Sync;
    /// The state as one viewer may see it; hidden information removed.
    type View: Clone + fmt::Debug + Serialize;
    /// The game's own stages ([`PlayPhase`] for a game without any).
    type Phase: GamePhase;

    /// The game's name as the lobby and records use it: `chess`, `xiangqi`, `go`,
    /// `doudizhu`.
    const NAME: &'static str;

    /// Whether the game draws randomness at its start (the Doudizhu deal). For
    /// such a game the table turns the standard start into [`Setup::Secret`] with
    /// a fresh secret per game, which the server takes from the operating system.
    const RANDOM: bool = false;

    /// Whether the rules give players draws to claim ([`Game::claim`]: chess's
    /// threefold repetition and fifty moves). Where they do, a claim the game
    /// refuses at a tournament table is an incorrect claim and costs time
    /// (FIDE 9.5.3); where they do not, a claim is only refused.
    const HAS_CLAIMS: bool = false;

    /// A new game. An impossible position is refused with a message saying why.
    fn new(options: &Self::Options, setup: &Setup) -> Result<Self, SetupError>;

    /// How many seats: 2, or 3 for Doudizhu.
    fn seats(&self) -> u8;

    /// Who must act now.
    fn turn(&self) -> Turn;

    /// The stage of the game.
    fn phase(&self) -> Self::Phase;

    /// Plays `action` for `seat`. Accepts every notation the game reads; returns the
    /// canonical form in [`Effects::canonical`]. A refusal changes nothing.
    fn act(&mut self, seat: Seat, action: &str) -> Result<Effects, Refusal>;

    /// Every action `seat` may take now, canonical notation.
    fn legal_actions(&self, seat: Seat) -> Vec<String>;

    /// What `seat` may claim now.
    fn claims(&self, _seat: Seat) -> Vec<Claim> {
        Vec::new()
    }

    /// Makes a claim; on success the game is over with a draw.
    fn claim(&mut self, _seat: Seat, claim: Claim) -> Result<Outcome, Refusal> {
        Err(Refusal::new(
            RefusalKind::ClaimRefused,
            format!("{claim:?} cannot be claimed in this game"),
        ))
    }

    /// The outcome decided by the rules, or `None` while the game goes on.
    fn outcome(&self) -> Option<Outcome>;

    /// The outcome when `seat` loses for a reason decided at the table: resignation,
    /// time, escape, fouls. Every game says what that means for it (chess: a flag
    /// fall is a draw when the opponent cannot mate; Doudizhu: the loss is shared
    /// by a side), with one result per seat: the table refuses an outcome of
    /// another length ([`Outcome::check`]).
    fn conceded(&self, seat: Seat, reason: EndReason) -> Outcome;

    /// The outcome of a draw agreed at the table, one result per seat, with the
    /// score the game's records write. Asked only of a game whose
    /// [`Game::draw_offers`] allows offers.
    fn agreed_draw(&self) -> Outcome;

    /// How draw offers work here.
    fn draw_offers(&self) -> DrawOffers;

    /// Whether every turn is timed by the clock from the first action of the
    /// game (a game of many short turns, such as Doudizhu's bidding and play):
    /// then the clock starts with the first turn and no first-move timer
    /// applies while a clock runs. Otherwise (chess, xiangqi, Go) each seat's
    /// first move has the table's first-move timer and the clock starts once
    /// every seat has moved.
    const TIMED_FROM_FIRST_ACTION: bool = false;

    /// The action the rules take for `seat` when its time for the turn runs
    /// out (its clock, or the first-move timer), where they take one instead
    /// of ending the game: Doudizhu counts a missed bid as a pass (不叫).
    /// `None` (the default): running out of time loses, or aborts a game
    /// whose first moves are not all made.
    fn time_out_action(&self, _seat: Seat) -> Option<String> {
        None
    }

    /// Which deal of the hand is being played where the rules deal again
    /// after everyone passed (Doudizhu): 0 the first, one more per redeal.
    /// Games without redeals keep the default, 0.
    fn deal_number(&self) -> u32 {
        0
    }

    /// The state as `viewer` may see it.
    fn view(&self, viewer: Viewer) -> Self::View;

    /// Turns `view`, this state's view for another viewer, into `viewer`'s:
    /// afterwards it must equal `self.view(viewer)`. Returns whether it may
    /// have changed (`false`: the two viewers see the same). The server takes
    /// one view per viewer of every change, and a game whose view depends on
    /// the viewer in a part only (or not at all) rewrites that part instead of
    /// building the whole view again. By default the view is taken anew.
    fn view_again(&self, view: &mut Self::View, viewer: Viewer) -> bool {
        *view = self.view(viewer);
        true
    }

    /// Where [`Game::view_again`] changes one member of the view only (chess:
    /// its claims), that member's key and its value in `view` as JSON text:
    /// the server then writes that member anew in the view's text instead of
    /// the whole view. `None` (the default): the whole view is written again.
    fn view_again_member(_view: &Self::View) -> Option<(&'static str, String)> {
        None
    }

    /// The game in its standard record format (PGN, xiangqi PGN, SGF, JSON).
    fn record(&self, meta: &RecordMeta) -> String;

    /// Reads a record or position (the table's "load"): the setup and the canonical
    /// actions to replay. Games that cannot load records refuse.
    fn load(_options: &Self::Options, _text: &str) -> Result<(Setup, Vec<String>), SetupError> {
        Err(SetupError::new("this game cannot load records"))
    }
}

/// A setup the game cannot start from, with a message for the user.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetupError {
    pub message: String,
}

impl SetupError {
    pub fn new(message: impl Into<String>) -> Self {
        SetupError {
            message: message.into(),
        }
    }
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SetupError {}

/// Replays canonical actions on a new game: the way takebacks, restarts and
/// record loading rebuild a game.
pub fn replay<G: Game>(
    options: &G::Options,
    setup: &Setup,
    actions: &[(Seat, String)],
) -> Result<G, ReplayError> {
    let mut game = G::new(options, setup).map_err(ReplayError::Setup)?;
    for (i, (seat, action)) in actions.iter().enumerate() {
        game.act(*seat, action)
            .map_err(|refusal| ReplayError::Action { index: i, refusal })?;
    }
    Ok(game)
}

/// A log that does not replay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplayError {
    Setup(SetupError),
    Action { index: usize, refusal: Refusal },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Setup(e) => write!(f, "setup refused: {e}"),
            ReplayError::Action { index, refusal } => {
                write!(f, "action {} refused: {refusal}", index + 1)
            }
        }
    }
}

impl std::error::Error for ReplayError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winner_is_the_single_winning_seat() {
        let o = Outcome::win(2, Seat::SECOND, EndReason::Checkmate, "0-1");
        assert_eq!(o.winner(), Some(Seat::SECOND));
        assert_eq!(o.results, vec![SeatResult::Loss, SeatResult::Win]);
        assert_eq!(
            Outcome::draw(2, EndReason::Agreement, "1/2-1/2").winner(),
            None
        );
    }

    #[test]
    fn outcomes_are_checked_against_the_seat_count() {
        let three = Outcome::win(3, Seat::THIRD, EndReason::HandEmptied, "x");
        assert_eq!(three.results.len(), 3);
        assert_eq!(three.winner(), Some(Seat::THIRD));
        assert_eq!(three.check(3), Ok(()));
        assert_eq!(
            three.check(2),
            Err(OutcomeError::Results {
                results: 3,
                seats: 2
            })
        );
        let mut pointed = three.clone();
        pointed.points = vec![2, -1];
        assert_eq!(
            pointed.check(3),
            Err(OutcomeError::Points {
                points: 2,
                seats: 3
            })
        );
        pointed.points.push(-1);
        assert_eq!(pointed.check(3), Ok(()));
        assert!(
            Outcome::aborted(2)
                .check(3)
                .unwrap_err()
                .to_string()
                .contains("2 results for a game of 3 seats")
        );
    }

    #[test]
    fn secrets_round_trip_as_hex_and_never_debug_print() {
        let mut bytes = [0u8; 32];
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = (i as u8).wrapping_mul(37);
        }
        let secret = Secret(bytes);
        let setup = Setup::Secret(secret);
        let json = serde_json::to_string(&setup).unwrap();
        assert_eq!(serde_json::from_str::<Setup>(&json).unwrap(), setup);
        assert_eq!(
            Secret::from_hex(&secret.to_hex().to_uppercase()),
            Ok(secret)
        );
        assert!(!format!("{setup:?}").contains(&secret.to_hex()[..8]));
        assert!(Secret::from_hex("00").is_err());
        assert!(Secret::from_hex(&"g".repeat(64)).is_err());
        assert!(serde_json::from_str::<Setup>(r#"{"secret": "ab"}"#).is_err());
        assert!(setup.is_random() && Setup::Seed(1).is_random() && !Setup::Standard.is_random());
    }

    #[test]
    fn utc_moments_from_unix_milliseconds() {
        let t = UtcDateTime::from_unix_millis(0);
        assert_eq!(
            (t.pgn_date(), t.time()),
            ("1970.01.01".into(), "00:00:00".into())
        );
        // 2026-12-01T07:26:15.999Z
        let t = UtcDateTime::from_unix_millis(1_796_109_975_999);
        assert_eq!(t.iso_date(), "2026-12-01");
        assert_eq!(t.time(), "07:26:15");
        // A leap day.
        let t = UtcDateTime::from_unix_millis(951_782_400_000);
        assert_eq!(t.iso_date(), "2000-02-29");
    }

    #[test]
    fn phase_names_are_their_serde_form() {
        for p in PlayPhase::ALL {
            assert_eq!(
                serde_json::to_string(p).unwrap(),
                format!("\"{}\"", p.name())
            );
        }
        assert_eq!(PlayPhase::ALL.last(), Some(&PlayPhase::Over));
    }

    #[test]
    fn time_controls_become_pgn_tags() {
        let tag = |t: RecordTime| t.pgn_tag();
        assert_eq!(tag(RecordTime::Untimed), "-");
        assert_eq!(
            tag(RecordTime::Fischer {
                main: 600,
                increment: 5
            }),
            "600+5"
        );
        assert_eq!(
            tag(RecordTime::Fischer {
                main: 60,
                increment: 0
            }),
            "60"
        );
        assert_eq!(tag(RecordTime::PerMove { limit: 86_400 }), "1/86400");
        assert_eq!(
            tag(RecordTime::Qq {
                game: 600,
                per_move: 60,
                countdown: 30
            }),
            "?"
        );
        // Only the standard's forms: `-`, `?`, seconds, seconds+increment,
        // moves/seconds (periods joined by `:`, which we never need).
        let standard = |v: &str| {
            v == "-"
                || v == "?"
                || v.split(':').all(|d| {
                    let digits = |x: &str| !x.is_empty() && x.bytes().all(|b| b.is_ascii_digit());
                    match (d.split_once('+'), d.split_once('/')) {
                        (Some((a, b)), None) | (None, Some((a, b))) => digits(a) && digits(b),
                        (None, None) => digits(d) || d.strip_prefix('*').is_some_and(digits),
                        _ => false,
                    }
                })
        };
        let all = [
            RecordTime::Untimed,
            RecordTime::Fischer {
                main: 180,
                increment: 2,
            },
            RecordTime::Fischer {
                main: 60,
                increment: 0,
            },
            RecordTime::PerMove { limit: 259_200 },
            RecordTime::Qq {
                game: 1800,
                per_move: 300,
                countdown: 180,
            },
            RecordTime::ByoYomi {
                main: 600,
                periods: 3,
                period: 30,
            },
            RecordTime::Canadian {
                main: 1200,
                moves: 25,
                period: 600,
            },
        ];
        for t in all {
            assert!(standard(&t.pgn_tag()), "{t:?}: {}", t.pgn_tag());
            // What the standard cannot say is said in a tag of its own.
            assert_eq!(t.pgn_tag() == "?", t.pgn_detail_tag().is_some(), "{t:?}");
        }
        let detail = |t: RecordTime| t.pgn_detail_tag().unwrap();
        assert_eq!(
            detail(RecordTime::Qq {
                game: 600,
                per_move: 60,
                countdown: 30
            }),
            ("TimeControlQQ", "600/60/30".into())
        );
        assert_eq!(
            detail(RecordTime::ByoYomi {
                main: 600,
                periods: 3,
                period: 30
            }),
            ("TimeControlByoYomi", "600+3x30".into())
        );
        assert_eq!(
            detail(RecordTime::Canadian {
                main: 1200,
                moves: 25,
                period: 600
            }),
            ("TimeControlCanadian", "1200+25/600".into())
        );
        assert!(RecordTime::Untimed.pgn_detail_tag().is_none());
    }

    #[test]
    fn seats_rotate() {
        assert_eq!(Seat(2).next(3), Seat(0));
        assert_eq!(Seat(0).next(2), Seat(1));
    }

    #[test]
    fn serde_names_are_snake_case() {
        let json = serde_json::to_string(&EndReason::PerpetualCheck).unwrap();
        assert_eq!(json, "\"perpetual_check\"");
        let v: Viewer = serde_json::from_str("{\"seat\":1}").unwrap();
        assert_eq!(v, Viewer::Seat(Seat(1)));
    }
}
