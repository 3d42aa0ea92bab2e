//! A game of Go under Chinese rules as the table plays it: turns, passes, superko,
//! the dead-stone phase and the count, behind the [`qiyuan_game::Game`] contract.

use std::collections::HashSet;

use qiyuan_game::{
    DrawOffers, Effects, EndReason, Game, GamePhase, Outcome, RecordMeta, RecordTime, Refusal,
    RefusalKind, Seat, Setup, SetupError, Turn, Viewer,
};
use serde::{Deserialize, Serialize};

use crate::board::{Board, IllegalMove};
use crate::handicap::fixed_handicap;
use crate::marking::{marking_group, suggest_dead};
use crate::point::{Color, Move, Point};
use crate::score::{AreaCount, Counting, Score, area};
use crate::sgf::{SgfGame, TimeLeft};

/// The stages of a game of Go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum GoPhase {
    /// Moves and passes.
    Play,
    /// After two passes: marking dead stones until both accept (a resume goes
    /// back to play).
    Marking,
    /// Counted, or decided at the table.
    Over,
}

impl GamePhase for GoPhase {
    const ALL: &'static [Self] = &[GoPhase::Play, GoPhase::Marking, GoPhase::Over];

    fn name(self) -> &'static str {
        match self {
            GoPhase::Play => "play",
            GoPhase::Marking => "marking",
            GoPhase::Over => "over",
        }
    }
}

/// Which repetitions are forbidden.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KoRule {
    /// Only the immediate retaking of a ko is forbidden.
    Simple,
    /// No move may recreate an earlier position of the stones, whoever is to move
    /// (the Chinese rules' 全局同形禁止).
    #[default]
    PositionalSuperko,
}

/// The rule options chosen at the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Options {
    /// The side of the board, 2 to 25 (9, 13 and 19 are usual).
    pub size: u8,
    /// Points white receives: 7.5 (3¾ stones) under Chinese rules.
    pub komi: f64,
    /// Fixed handicap stones for black (0, or 2 to 9); white then moves first.
    pub handicap: u8,
    /// The ko rule.
    pub ko: KoRule,
    /// Chinese rules give white one point per handicap stone at the count (as GNU
    /// Go's `--chinese-rules` scores).
    pub handicap_compensation: bool,
    /// How seki is counted: the Chinese rules' count (the default), or GNU Go's,
    /// for comparisons with it (`{"counting": "gnugo"}`).
    pub counting: Counting,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            size: 19,
            komi: 7.5,
            handicap: 0,
            ko: KoRule::PositionalSuperko,
            handicap_compensation: true,
            counting: Counting::Chinese,
        }
    }
}

/// A game of Go: the board, whose turn it is, the positions seen, and the marking.
#[derive(Debug, Clone)]
pub struct Go {
    options: Options,
    board: Board,
    to_move: Color,
    first: Color,
    black_setup: Vec<Point>,
    white_setup: Vec<Point>,
    /// Hashes of every position of the stones so far (positional superko).
    seen: HashSet<u64>,
    moves: Vec<(Color, Move)>,
    passes: u8,
    phase: GoPhase,
    /// Stones marked dead, sorted.
    dead: Vec<Point>,
    /// Which seats accepted the current marking.
    accepted: [bool; 2],
    outcome: Option<Outcome>,
    /// Actions accepted through [`Game::act`] so far.
    acts: usize,
    /// For each move, the index of the action that made it (`None` for moves
    /// replayed from a record's main line): how a record finds each move's clock.
    move_acts: Vec<Option<usize>>,
}

/// Why the game refused a move or a marking action.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GoError {
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
    #[error("it is {0}'s turn")]
    NotYourTurn(Color),
    #[error("{0} is not allowed now: {1}")]
    WrongPhase(String, &'static str),
    #[error("{0}")]
    Marking(String),
}

/// What each seat sees of a Go game (there is no hidden information in Go).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct GoView {
    pub size: u8,
    /// Rows from the top (row `size`) down, `X` black, `O` white, `.` empty.
    pub board: Vec<String>,
    pub phase: GoPhase,
    /// Who moves, during play.
    pub to_move: Option<Color>,
    /// Stones captured by black and by white.
    pub captures: Captures,
    /// The last move, `D4` or `pass`.
    pub last_move: Option<String>,
    /// The point the side to move may not take back at once.
    pub ko: Option<String>,
    pub komi: f64,
    pub handicap: u8,
    /// Every move so far, canonical notation.
    pub moves: Vec<String>,
    /// The dead-stone marking, during the marking phase and after the count.
    pub marking: Option<MarkingView>,
    /// The result once counted or decided (`B+3.5`).
    pub result: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Captures {
    pub black: u32,
    pub white: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MarkingView {
    /// Stones marked dead, GTP vertices.
    pub dead: Vec<String>,
    /// Whether seat 0 (black) and seat 1 (white) accepted this marking.
    pub accepted: [bool; 2],
    /// Points counting for black (stones and territory) under this marking.
    pub black_area: Vec<String>,
    /// Points counting for white.
    pub white_area: Vec<String>,
    /// The result if this marking were accepted.
    pub score: String,
}

fn seat_of(color: Color) -> Seat {
    Seat(color.index() as u8)
}

fn color_of(seat: Seat) -> Option<Color> {
    match seat.0 {
        0 => Some(Color::Black),
        1 => Some(Color::White),
        _ => None,
    }
}

impl Go {
    /// A new game on an empty board, with the options' handicap placed.
    pub fn with_options(options: &Options) -> Result<Go, SetupError> {
        let mut board = Board::new(options.size).map_err(|e| SetupError::new(e.to_string()))?;
        let mut handicap = Vec::new();
        if options.handicap > 0 {
            handicap = fixed_handicap(options.size, options.handicap)
                .map_err(|e| SetupError::new(e.to_string()))?;
            for &p in &handicap {
                board
                    .setup(Color::Black, p)
                    .map_err(|e| SetupError::new(e.to_string()))?;
            }
        }
        handicap.sort();
        let first = if options.handicap > 0 {
            Color::White
        } else {
            Color::Black
        };
        Ok(Go::from_parts(
            options.clone(),
            board,
            first,
            handicap,
            Vec::new(),
        ))
    }

    fn from_parts(
        options: Options,
        board: Board,
        first: Color,
        black_setup: Vec<Point>,
        white_setup: Vec<Point>,
    ) -> Go {
        let mut seen = HashSet::new();
        seen.insert(board.hash());
        Go {
            options,
            board,
            to_move: first,
            first,
            black_setup,
            white_setup,
            seen,
            moves: Vec::new(),
            passes: 0,
            phase: GoPhase::Play,
            dead: Vec::new(),
            accepted: [false; 2],
            outcome: None,
            acts: 0,
            move_acts: Vec::new(),
        }
    }

    /// The game set up from a record's root (size, `AB`/`AW`, `PL`, `HA`, `KM`; the
    /// record's komi and handicap override the options'), without its moves.
    pub fn from_sgf_setup(options: &Options, sgf: &SgfGame) -> Result<Go, SetupError> {
        let mut options = options.clone();
        options.size = sgf.size;
        options.handicap = sgf.handicap;
        if let Some(k) = sgf.komi {
            options.komi = k;
        }
        let mut board = Board::new(sgf.size).map_err(|e| SetupError::new(e.to_string()))?;
        for (color, points) in [
            (Color::Black, &sgf.black_setup),
            (Color::White, &sgf.white_setup),
        ] {
            for &p in points {
                board
                    .setup(color, p)
                    .map_err(|e| SetupError::new(format!("setup stone: {e}")))?;
            }
        }
        // Who starts: PL, else the first move's colour, else white after a handicap.
        let first = sgf
            .first
            .or_else(|| sgf.moves.first().map(|(c, _)| *c))
            .unwrap_or(if sgf.handicap >= 2 {
                Color::White
            } else {
                Color::Black
            });
        Ok(Go::from_parts(
            options,
            board,
            first,
            sgf.black_setup.clone(),
            sgf.white_setup.clone(),
        ))
    }

    /// The game of a record: its setup and every move of its main line replayed.
    /// Moves must alternate; an illegal move is refused with its number.
    pub fn from_sgf(options: &Options, sgf: &SgfGame) -> Result<Go, SetupError> {
        let mut go = Go::from_sgf_setup(options, sgf)?;
        for (i, &(color, mv)) in sgf.moves.iter().enumerate() {
            if color != go.to_move && go.phase == GoPhase::Play {
                return Err(SetupError::new(format!(
                    "move {}: {color} plays out of turn",
                    i + 1
                )));
            }
            go.play(mv)
                .map_err(|e| SetupError::new(format!("move {} ({mv}): {e}", i + 1)))?;
        }
        Ok(go)
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Who moves next (during play).
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    pub fn moves(&self) -> &[(Color, Move)] {
        &self.moves
    }

    /// Stones marked dead in the marking phase.
    pub fn dead(&self) -> &[Point] {
        &self.dead
    }

    /// The game's phase: play, marking, or over.
    pub fn game_phase(&self) -> GoPhase {
        self.phase
    }

    /// Whether the side to move may play `mv` now.
    pub fn check(&self, mv: Move) -> Result<(), GoError> {
        if self.phase != GoPhase::Play {
            return Err(GoError::WrongPhase(
                mv.to_string(),
                "moves are made during play",
            ));
        }
        let Move::Place(p) = mv else { return Ok(()) };
        self.board.check(self.to_move, p)?;
        if self.options.ko == KoRule::PositionalSuperko
            && self.seen.contains(&self.board.hash_after(self.to_move, p))
        {
            return Err(IllegalMove::Superko(p).into());
        }
        Ok(())
    }

    /// Plays `mv` for the side to move; returns the stones captured. Two passes in a
    /// row end play and start the marking phase with the estimator's suggestion.
    pub fn play(&mut self, mv: Move) -> Result<u32, GoError> {
        self.check(mv)?;
        let color = self.to_move;
        let captured = self.board.play_move(color, mv)?;
        self.moves.push((color, mv));
        self.move_acts.push(None);
        self.to_move = color.opponent();
        match mv {
            Move::Place(_) => {
                self.passes = 0;
                self.seen.insert(self.board.hash());
            }
            Move::Pass => {
                self.passes += 1;
                if self.passes >= 2 {
                    self.phase = GoPhase::Marking;
                    self.dead = suggest_dead(&self.board);
                    self.accepted = [false; 2];
                }
            }
        }
        Ok(captured)
    }

    fn marking_only(&self, what: &str) -> Result<(), GoError> {
        if self.phase == GoPhase::Marking {
            Ok(())
        } else {
            Err(GoError::WrongPhase(
                what.to_string(),
                "the dead-stone marking starts after two passes",
            ))
        }
    }

    /// Marks the group through `p` dead (or alive again). Any change clears both
    /// acceptances; marking a group as it already is is refused.
    pub fn mark(&mut self, p: Point, dead: bool) -> Result<(), GoError> {
        self.marking_only(if dead { "dead" } else { "alive" })?;
        if !p.on_board(self.board.size()) {
            return Err(IllegalMove::OffBoard(p).into());
        }
        let group = marking_group(&self.board, p);
        if group.is_empty() {
            return Err(GoError::Marking(format!("{p} holds no stone")));
        }
        let is_dead = group.iter().all(|q| self.dead.binary_search(q).is_ok());
        if is_dead == dead {
            return Err(GoError::Marking(format!(
                "the group at {p} is already marked {}",
                if dead { "dead" } else { "alive" }
            )));
        }
        if dead {
            self.dead.extend(group);
            self.dead.sort();
            self.dead.dedup();
        } else {
            self.dead.retain(|q| group.binary_search(q).is_err());
        }
        self.accepted = [false; 2];
        Ok(())
    }

    /// Whether the group through `p` is marked dead.
    pub fn is_dead(&self, p: Point) -> bool {
        self.dead.binary_search(&p).is_ok()
    }

    /// `color` accepts the current marking; when both have, the game is counted.
    pub fn accept(&mut self, color: Color) -> Result<(), GoError> {
        self.marking_only("accept")?;
        if self.accepted[color.index()] {
            return Err(GoError::Marking(format!(
                "{color} has already accepted this marking"
            )));
        }
        self.accepted[color.index()] = true;
        if self.accepted == [true, true] {
            let score = self.score();
            self.phase = GoPhase::Over;
            self.outcome = Some(match score.winner() {
                Some(c) => Outcome::win(2, seat_of(c), EndReason::Counted, score.to_string()),
                None => Outcome::draw(2, EndReason::Counted, score.to_string()),
            });
        }
        Ok(())
    }

    /// `color` resumes play instead of accepting: the marking is dropped and the
    /// opponent of the player who resumed moves first (as in the Japanese rules'
    /// resumption, so that the one who disputes does not also gain a move).
    pub fn resume(&mut self, color: Color) -> Result<(), GoError> {
        self.marking_only("resume")?;
        self.phase = GoPhase::Play;
        self.passes = 0;
        self.dead.clear();
        self.accepted = [false; 2];
        self.to_move = color.opponent();
        Ok(())
    }

    /// The area count with the current marking.
    pub fn area(&self) -> AreaCount {
        area(&self.board, &self.dead, self.options.counting)
    }

    /// The points white gets for black's handicap stones.
    pub fn compensation(&self) -> f64 {
        if self.options.handicap_compensation && self.options.handicap >= 2 {
            f64::from(self.options.handicap)
        } else {
            0.0
        }
    }

    /// The result of counting the current position with the current marking.
    pub fn score(&self) -> Score {
        Score::new(&self.area(), self.options.komi, self.compensation())
    }

    /// The record's information and moves, without players or result.
    pub fn to_sgf_game(&self) -> SgfGame {
        SgfGame {
            size: self.board.size(),
            komi: Some(self.options.komi),
            handicap: self.options.handicap,
            rules: Some("Chinese".into()),
            black_setup: self.black_setup.clone(),
            white_setup: self.white_setup.clone(),
            first: (self.first == Color::White).then_some(Color::White),
            moves: self.moves.clone(),
            ..SgfGame::default()
        }
    }

    fn refusal(&self, err: GoError) -> Refusal {
        let kind = match err {
            GoError::Illegal(_) | GoError::Marking(_) => RefusalKind::Illegal,
            GoError::NotYourTurn(_) => RefusalKind::NotYourTurn,
            GoError::WrongPhase(..) => RefusalKind::WrongPhase,
        };
        Refusal::new(kind, err.to_string())
    }
}

/// A time control as SGF writes it: main time `TM` in seconds, the overtime
/// `OT` as the usual free text (`3x30 byo-yomi`, `25/600 Canadian`), and the
/// byo-yomi period in seconds.
struct SgfTime {
    main: Option<f64>,
    overtime: Option<String>,
    period: Option<u64>,
}

/// The time control as SGF writes it: `TM` the main time, `OT` what follows
/// it, and for byo-yomi the period (a move's time left in overtime is the
/// period's).
fn sgf_time(tc: &RecordTime) -> SgfTime {
    let none = SgfTime {
        main: None,
        overtime: None,
        period: None,
    };
    match *tc {
        RecordTime::Untimed => none,
        RecordTime::ByoYomi {
            main,
            periods,
            period,
        } => SgfTime {
            main: Some(main as f64),
            overtime: Some(format!("{periods}x{period} byo-yomi")),
            period: Some(period),
        },
        RecordTime::Canadian {
            main,
            moves,
            period,
        } => SgfTime {
            main: Some(main as f64),
            overtime: Some(format!("{moves}/{period} Canadian")),
            period: None,
        },
        RecordTime::Qq {
            game,
            per_move,
            countdown,
        } => {
            // 读秒 is one byo-yomi period; 步时 a limit per move within main time.
            let mut over = Vec::new();
            if countdown > 0 {
                over.push(format!("1x{countdown} byo-yomi"));
            }
            if per_move > 0 {
                over.push(format!("{per_move}s per move"));
            }
            SgfTime {
                main: Some(game as f64),
                overtime: (!over.is_empty()).then(|| over.join(", ")),
                period: None,
            }
        }
        RecordTime::PerMove { limit } => SgfTime {
            overtime: Some(format!("{limit}s per move")),
            ..none
        },
        RecordTime::Fischer { main, increment: 0 } => SgfTime {
            main: Some(main as f64),
            ..none
        },
        RecordTime::Fischer { main, increment } => SgfTime {
            main: Some(main as f64),
            overtime: Some(format!("{increment}s Fischer increment")),
            period: None,
        },
    }
}

/// The marking phase's words.
const MARKING_WORDS: [&str; 5] = ["dead", "alive", "toggle", "accept", "resume"];

/// The SGF reason letter for a result decided at the table.
fn reason_letter(reason: EndReason) -> &'static str {
    match reason {
        EndReason::Resignation => "R",
        EndReason::Timeout => "T",
        EndReason::Escape | EndReason::Fouls | EndReason::Violations => "F",
        _ => "",
    }
}

fn effects(canonical: String, capture: bool) -> Effects {
    Effects {
        display: canonical.clone(),
        canonical,
        capture,
        check: false,
    }
}

impl Game for Go {
    type Options = Options;
    type Phase = GoPhase;
    type View = GoView;

    const NAME: &'static str = "go";

    /// `Setup::Position` takes an SGF record: its root sets the board up and its
    /// main line is replayed.
    fn new(options: &Options, setup: &Setup) -> Result<Go, SetupError> {
        match setup {
            Setup::Standard => Go::with_options(options),
            Setup::Position(text) => {
                let sgf = SgfGame::parse(text).map_err(|e| SetupError::new(e.to_string()))?;
                Go::from_sgf(options, &sgf)
            }
            Setup::Seed(_) | Setup::Secret(_) => Err(SetupError::new("Go has no random setup")),
        }
    }

    fn seats(&self) -> u8 {
        2
    }

    fn turn(&self) -> Turn {
        match self.phase {
            GoPhase::Play => Turn::Seat(seat_of(self.to_move)),
            GoPhase::Marking => Turn::All(vec![Seat::FIRST, Seat::SECOND]),
            GoPhase::Over => Turn::Over,
        }
    }

    fn phase(&self) -> GoPhase {
        self.phase
    }

    fn act(&mut self, seat: Seat, action: &str) -> Result<Effects, Refusal> {
        let color = color_of(seat).ok_or_else(|| {
            Refusal::new(
                RefusalKind::NoSuchSeat,
                format!("{seat} is not at a Go table"),
            )
        })?;
        if self.phase == GoPhase::Over {
            return Err(Refusal::new(RefusalKind::GameOver, "the game is over"));
        }
        let mut words = action.split_whitespace();
        let word = words.next().unwrap_or("").to_ascii_lowercase();
        let arg = words.next();
        if words.next().is_some() {
            return Err(Refusal::new(
                RefusalKind::Malformed,
                format!("{action:?}: too many words"),
            ));
        }
        let size = self.board.size();
        if MARKING_WORDS.contains(&word.as_str()) {
            if self.phase != GoPhase::Marking {
                return Err(self.refusal(GoError::WrongPhase(
                    word,
                    "the dead-stone marking starts after two passes",
                )));
            }
            let point = |arg: Option<&str>| -> Result<Point, Refusal> {
                let arg = arg.ok_or_else(|| {
                    Refusal::new(
                        RefusalKind::Malformed,
                        format!("{word} needs a vertex, like {word} D4"),
                    )
                })?;
                Point::from_gtp_on(arg, size)
                    .map_err(|e| Refusal::new(RefusalKind::Malformed, e.to_string()))
            };
            let canonical = match word.as_str() {
                "dead" | "alive" | "toggle" => {
                    let p = point(arg)?;
                    let dead = match word.as_str() {
                        "dead" => true,
                        "alive" => false,
                        _ => !self.is_dead(p),
                    };
                    self.mark(p, dead).map_err(|e| self.refusal(e))?;
                    format!("{} {p}", if dead { "dead" } else { "alive" })
                }
                _ if arg.is_some() => {
                    return Err(Refusal::new(
                        RefusalKind::Malformed,
                        format!("{word} takes no vertex"),
                    ));
                }
                "accept" => {
                    self.accept(color).map_err(|e| self.refusal(e))?;
                    "accept".to_string()
                }
                _ => {
                    self.resume(color).map_err(|e| self.refusal(e))?;
                    "resume".to_string()
                }
            };
            self.acts += 1;
            return Ok(effects(canonical, false));
        }
        if arg.is_some() {
            return Err(Refusal::new(
                RefusalKind::Malformed,
                format!("{action:?} is not a move"),
            ));
        }
        let mv = Move::parse(&word, size)
            .map_err(|e| Refusal::new(RefusalKind::Malformed, e.to_string()))?;
        if self.phase != GoPhase::Play {
            return Err(self.refusal(GoError::WrongPhase(
                mv.to_string(),
                "mark dead stones, accept, or resume play",
            )));
        }
        if color != self.to_move {
            return Err(self.refusal(GoError::NotYourTurn(self.to_move)));
        }
        let captured = self.play(mv).map_err(|e| self.refusal(e))?;
        if let Some(last) = self.move_acts.last_mut() {
            *last = Some(self.acts);
        }
        self.acts += 1;
        Ok(effects(mv.to_string(), captured > 0))
    }

    fn legal_actions(&self, seat: Seat) -> Vec<String> {
        let Some(color) = color_of(seat) else {
            return Vec::new();
        };
        match self.phase {
            GoPhase::Play => {
                if color != self.to_move {
                    return Vec::new();
                }
                let mut out: Vec<String> = self
                    .board
                    .points()
                    .filter(|&p| self.check(Move::Place(p)).is_ok())
                    .map(|p| p.to_string())
                    .collect();
                out.push("pass".into());
                out
            }
            GoPhase::Marking => {
                let mut out = Vec::new();
                if !self.accepted[color.index()] {
                    out.push("accept".to_string());
                }
                out.push("resume".to_string());
                let size = self.board.size() as usize;
                let mut seen = vec![false; size * size];
                for p in self.board.points() {
                    if self.board.get(p).is_none() || seen[p.row as usize * size + p.col as usize] {
                        continue;
                    }
                    for q in marking_group(&self.board, p) {
                        seen[q.row as usize * size + q.col as usize] = true;
                    }
                    let word = if self.is_dead(p) { "alive" } else { "dead" };
                    out.push(format!("{word} {p}"));
                }
                out
            }
            GoPhase::Over => Vec::new(),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    /// `W+R`, `B+T`, `W+F` (escape, fouls) as SGF writes results decided at the table.
    fn conceded(&self, seat: Seat, reason: EndReason) -> Outcome {
        let winner = seat.next(2);
        let letter = if winner == Seat::FIRST { 'B' } else { 'W' };
        Outcome::win(
            2,
            winner,
            reason,
            format!("{letter}+{}", reason_letter(reason)),
        )
    }

    fn agreed_draw(&self) -> Outcome {
        Outcome::draw(2, EndReason::Agreement, "0")
    }

    fn draw_offers(&self) -> DrawOffers {
        DrawOffers::OnOwnTurn
    }

    fn view_again(&self, _view: &mut GoView, _viewer: Viewer) -> bool {
        // Everyone sees the same.
        false
    }

    fn view(&self, _viewer: Viewer) -> GoView {
        let marking = (self.phase == GoPhase::Marking
            || self
                .outcome
                .as_ref()
                .is_some_and(|o| o.reason == EndReason::Counted))
        .then(|| {
            let count = self.area();
            let owned = |c: Color| -> Vec<String> {
                self.board
                    .points()
                    .zip(&count.owner)
                    .filter(|(_, o)| **o == Some(c))
                    .map(|(p, _)| p.to_string())
                    .collect()
            };
            MarkingView {
                dead: self.dead.iter().map(|p| p.to_string()).collect(),
                accepted: self.accepted,
                black_area: owned(Color::Black),
                white_area: owned(Color::White),
                score: self.score().to_string(),
            }
        });
        GoView {
            size: self.board.size(),
            board: self.board.rows(),
            phase: self.phase,
            to_move: (self.phase == GoPhase::Play).then_some(self.to_move),
            captures: Captures {
                black: self.board.captures(Color::Black),
                white: self.board.captures(Color::White),
            },
            last_move: self.moves.last().map(|(_, m)| m.to_string()),
            ko: self.board.ko_point().map(|p| p.to_string()),
            komi: self.options.komi,
            handicap: self.options.handicap,
            moves: self.moves.iter().map(|(_, m)| m.to_string()).collect(),
            marking,
            result: self.outcome.as_ref().map(|o| o.score.clone()),
        }
    }

    /// SGF FF[4] with `RU[Chinese]`, the players, `DT`, `RE`, `TM` and `OT` from
    /// the time control, each move's time left (`BL`/`WL`, `OB`/`OW`), and for a
    /// counted game the count's territory with the dead stones in it (`TB`/`TW`).
    fn record(&self, meta: &RecordMeta) -> String {
        let mut sgf = self.to_sgf_game();
        sgf.black = meta.players.first().cloned();
        sgf.white = meta.players.get(1).cloned();
        sgf.date = meta
            .date
            .as_ref()
            .map(|d| d.replace('.', "-"))
            .or_else(|| meta.start.map(|t| t.iso_date()));
        let outcome = meta.outcome.as_ref().or(self.outcome.as_ref());
        sgf.result = outcome.map(|o| o.score.clone());
        let mut period = None;
        if let Some(tc) = &meta.time_control {
            let time = sgf_time(tc);
            sgf.main_time = time.main;
            sgf.overtime = time.overtime;
            period = time.period;
        }
        // Each move's clock: the table gives one per action it saw (marking
        // actions included, a loaded record's moves not), so actions are matched
        // from the end.
        let offset = self.acts.saturating_sub(meta.clocks.len());
        sgf.times = self
            .move_acts
            .iter()
            .map(|act| {
                let Some(i) = act.and_then(|a| a.checked_sub(offset)) else {
                    return TimeLeft::default();
                };
                let main = meta.clocks.get(i).copied().flatten();
                let periods = meta.periods.get(i).copied().flatten();
                // In byo-yomi the time left is that of the period, which starts
                // afresh after each move.
                let seconds = match (main, periods, period) {
                    (Some(0), Some(_), Some(p)) => Some(p as f64),
                    (Some(ms), _, _) => Some(ms as f64 / 1000.0),
                    (None, _, _) => None,
                };
                TimeLeft { seconds, periods }
            })
            .collect();
        while sgf.times.last() == Some(&TimeLeft::default()) {
            sgf.times.pop();
        }
        if outcome.is_some_and(|o| o.reason == EndReason::Counted) {
            let count = self.area();
            for (p, owner) in self.board.points().zip(&count.owner) {
                match owner {
                    Some(Color::Black) if self.board.get(p) != Some(Color::Black) => {
                        sgf.black_territory.push(p)
                    }
                    Some(Color::White) if self.board.get(p) != Some(Color::White) => {
                        sgf.white_territory.push(p)
                    }
                    _ => {}
                }
            }
            sgf.black_territory.sort();
            sgf.white_territory.sort();
        }
        sgf.to_sgf()
    }

    /// Reads an SGF record: its setup (root only) and its moves as actions.
    fn load(options: &Options, text: &str) -> Result<(Setup, Vec<String>), SetupError> {
        let sgf = SgfGame::parse(text).map_err(|e| SetupError::new(e.to_string()))?;
        // Replaying checks every move before the table sees them.
        let game = Go::from_sgf(options, &sgf)?;
        let root = SgfGame {
            moves: Vec::new(),
            times: Vec::new(),
            black_territory: Vec::new(),
            white_territory: Vec::new(),
            result: None,
            first: Some(game.first),
            ..sgf.clone()
        };
        let actions = game.moves.iter().map(|(_, m)| m.to_string()).collect();
        Ok((Setup::Position(root.to_sgf()), actions))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sgf(tc: RecordTime) -> (Option<f64>, Option<String>, Option<u64>) {
        let t = sgf_time(&tc);
        (t.main, t.overtime, t.period)
    }

    #[test]
    fn time_controls_become_tm_and_ot() {
        assert_eq!(
            sgf(RecordTime::ByoYomi {
                main: 600,
                periods: 3,
                period: 30
            }),
            (Some(600.0), Some("3x30 byo-yomi".into()), Some(30))
        );
        assert_eq!(
            sgf(RecordTime::Canadian {
                main: 1200,
                moves: 25,
                period: 600
            }),
            (Some(1200.0), Some("25/600 Canadian".into()), None)
        );
        assert_eq!(
            sgf(RecordTime::Fischer {
                main: 600,
                increment: 5
            }),
            (Some(600.0), Some("5s Fischer increment".into()), None)
        );
        assert_eq!(
            sgf(RecordTime::Fischer {
                main: 600,
                increment: 0
            }),
            (Some(600.0), None, None)
        );
        assert_eq!(
            sgf(RecordTime::Qq {
                game: 600,
                per_move: 60,
                countdown: 30
            }),
            (
                Some(600.0),
                Some("1x30 byo-yomi, 60s per move".into()),
                None
            )
        );
        assert_eq!(
            sgf(RecordTime::PerMove { limit: 259_200 }),
            (None, Some("259200s per move".into()), None)
        );
        assert_eq!(sgf(RecordTime::Untimed), (None, None, None));
    }
}
