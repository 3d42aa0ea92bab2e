//! One game of chess as the table plays it: the position, the moves, the history
//! that repetitions are counted on, and the outcome.

use qiyuan_game::{
    Claim, DrawOffers, Effects, EndReason, Game, Outcome, PlayPhase, RecordMeta, Refusal,
    RefusalKind, Seat, Setup, SetupError, Turn, Viewer,
};
use serde::{Deserialize, Serialize};
use shakmaty::{
    Chess, Color, EnPassantMode, Move, Position, fen::Fen, uci::UciMove, zobrist::Zobrist64,
};

use crate::{
    FenError, MoveError, can_checkmate,
    notation::{parse_move, play_san},
    parse_fen, pgn,
};

/// How a repeated position ends the game.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Repetition {
    /// The third occurrence of a position (same pieces, same side to move, same
    /// possible moves) is a draw at once, without a claim: the rule of 联众's hall
    /// ("对局中同一局面出现三次，而且每次都是同一方走的，判为和局", seed 004) and
    /// Lichess's default. Perpetual check (长将和) is drawn by it.
    #[default]
    Automatic,
    /// FIDE Laws 9.2: the player to move may claim the draw on the third
    /// occurrence; the game ends by itself only on the fifth (9.6.1).
    Claim,
}

/// Rule options for chess, chosen at the table as JSON: `{"repetition": "claim"}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ChessOptions {
    /// Whether the threefold repetition draws by itself (the default) or on a claim
    /// (FIDE, for tournaments that choose it).
    pub repetition: Repetition,
}

impl ChessOptions {
    /// The FIDE Laws as written: threefold repetition is claimed.
    pub fn fide() -> Self {
        ChessOptions {
            repetition: Repetition::Claim,
        }
    }
}

/// A move as it was played: both notations and what it did.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PlayedMove {
    /// UCI, the canonical form: `e2e4`, `e7e8q`, `e1g1`.
    pub uci: String,
    /// SAN with its check or mate suffix: `e4`, `e8=Q+`, `O-O`, `Qxf7#`.
    pub san: String,
    pub capture: bool,
    pub check: bool,
}

/// A game of chess between seat 0 (White) and seat 1 (Black).
#[derive(Debug, Clone)]
pub struct ChessGame {
    /// The position the game started from.
    start: Chess,
    /// The starting FEN when it is not the standard start (records need it).
    start_fen: Option<String>,
    pos: Chess,
    moves: Vec<PlayedMove>,
    /// Hash of every position so far, the start included: `keys[i]` is the position
    /// after `i` moves. Repetitions are counted on these.
    keys: Vec<u64>,
    /// Set by an automatic ending or an accepted claim.
    outcome: Option<Outcome>,
    /// The repetition rule this game is played under.
    repetition: Repetition,
}

/// A game from the standard start under the default options (the threefold
/// repetition draws by itself).
impl Default for ChessGame {
    fn default() -> Self {
        ChessGame::from_position(Chess::default(), None)
    }
}

/// The identity of a position for repetition (FIDE 9.2.3): the same pieces on the
/// same squares, the same side to move, and the same possible moves, which is why
/// castling rights count and an en passant square only when the capture is legal.
fn position_key(pos: &Chess) -> u64 {
    let key: Zobrist64 = pos.zobrist_hash(EnPassantMode::Legal);
    key.0
}

pub(crate) fn seat_of(color: Color) -> Seat {
    match color {
        Color::White => Seat::FIRST,
        Color::Black => Seat::SECOND,
    }
}

pub(crate) fn color_of(seat: Seat) -> Color {
    if seat == Seat::FIRST {
        Color::White
    } else {
        Color::Black
    }
}

fn win_for(color: Color, reason: EndReason) -> Outcome {
    let score = match color {
        Color::White => "1-0",
        Color::Black => "0-1",
    };
    Outcome::win(2, seat_of(color), reason, score)
}

fn draw(reason: EndReason) -> Outcome {
    Outcome::draw(2, reason, "1/2-1/2")
}

impl ChessGame {
    /// A game from the standard starting position.
    pub fn new_standard() -> Self {
        Self::default()
    }

    /// The same game under `options` (chosen before the first move: the rule is
    /// not applied to positions already played).
    pub fn with_options(mut self, options: &ChessOptions) -> Self {
        self.repetition = options.repetition;
        self
    }

    /// The repetition rule this game is played under.
    pub fn repetition_rule(&self) -> Repetition {
        self.repetition
    }

    /// A game from a FEN, under the default options. Illegal positions are refused
    /// with the reason.
    pub fn from_fen(fen: &str) -> Result<Self, FenError> {
        let pos = parse_fen(fen)?;
        let start_fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
        let standard =
            pos == Chess::default() && pos.halfmoves() == 0 && pos.fullmoves().get() == 1;
        Ok(Self::from_position(pos, (!standard).then_some(start_fen)))
    }

    fn from_position(pos: Chess, start_fen: Option<String>) -> Self {
        let mut game = ChessGame {
            keys: vec![position_key(&pos)],
            start: pos.clone(),
            start_fen,
            pos,
            moves: Vec::new(),
            outcome: None,
            repetition: Repetition::default(),
        };
        // A position may be over before anyone moves (a mate or a dead position
        // loaded from a FEN).
        game.outcome = game.automatic_outcome();
        game
    }

    /// The current position.
    pub fn position(&self) -> &Chess {
        &self.pos
    }

    /// The position the game started from.
    pub fn start_position(&self) -> &Chess {
        &self.start
    }

    /// The starting FEN, or `None` for the standard start.
    pub fn start_fen(&self) -> Option<&str> {
        self.start_fen.as_deref()
    }

    /// The current position as FEN.
    pub fn fen(&self) -> String {
        Fen::from_position(&self.pos, EnPassantMode::Legal).to_string()
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[PlayedMove] {
        &self.moves
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.pos.turn()
    }

    /// How many times the current position has occurred, this time included.
    pub fn repetitions(&self) -> usize {
        let Some((&current, earlier)) = self.keys.split_last() else {
            return 0;
        };
        // Only positions since the last capture or pawn move can repeat, and only
        // those with the same side to move (every second one).
        let window = (self.pos.halfmoves() as usize).min(earlier.len());
        1 + earlier[earlier.len() - window..]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .filter(|&&k| k == current)
            .count()
    }

    /// Whether `seat` could still checkmate, by the material on the board. See
    /// [`can_checkmate`].
    pub fn can_checkmate(&self, seat: Seat) -> bool {
        can_checkmate(&self.pos, color_of(seat))
    }

    /// Plays a move (UCI or SAN) for the side to move.
    pub fn play(&mut self, action: &str) -> Result<Effects, Refusal> {
        let seat = seat_of(self.pos.turn());
        self.act(seat, action)
    }

    /// A claim made together with the move that produces it (FIDE 9.2.1.1 and
    /// 9.3.1: the position is about to appear for the third time, or the move
    /// completes fifty moves). The move is played and the game drawn; if the claim
    /// does not hold after the move, it is refused and nothing changes. A move that
    /// ends the game by itself (a mate) ends it so, and that outcome is returned.
    pub fn claim_with_move(
        &mut self,
        seat: Seat,
        claim: Claim,
        action: &str,
    ) -> Result<Outcome, Refusal> {
        self.check_turn(seat)?;
        let mut next = self.clone();
        next.act(seat, action)?;
        if let Some(outcome) = next.outcome.clone() {
            *self = next;
            return Ok(outcome);
        }
        next.claimable(claim).map_err(|why| {
            Refusal::new(RefusalKind::ClaimRefused, format!("after that move {why}"))
        })?;
        let outcome = claim_outcome(claim);
        next.outcome = Some(outcome.clone());
        *self = next;
        Ok(outcome)
    }

    /// The ending the rules impose without anyone claiming it.
    fn automatic_outcome(&self) -> Option<Outcome> {
        let pos = &self.pos;
        if pos.legal_moves().is_empty() {
            return Some(if pos.is_check() {
                win_for(!pos.turn(), EndReason::Checkmate)
            } else {
                draw(EndReason::Stalemate)
            });
        }
        if pos.is_insufficient_material() {
            return Some(draw(EndReason::InsufficientMaterial));
        }
        let repeated = self.repetitions();
        if repeated >= 3 && self.repetition == Repetition::Automatic {
            return Some(draw(EndReason::ThreefoldRepetition));
        }
        if repeated >= 5 {
            return Some(draw(EndReason::FivefoldRepetition));
        }
        // 75 moves by each side; a mate on the last of them was caught above and
        // takes precedence (FIDE 9.6.2).
        if pos.halfmoves() >= 150 {
            return Some(draw(EndReason::SeventyFiveMoves));
        }
        None
    }

    fn check_turn(&self, seat: Seat) -> Result<(), Refusal> {
        if seat.0 >= 2 {
            return Err(Refusal::new(
                RefusalKind::NoSuchSeat,
                format!("chess has two seats, not {seat}"),
            ));
        }
        if self.outcome.is_some() {
            return Err(Refusal::new(RefusalKind::GameOver, "the game is over"));
        }
        if seat != seat_of(self.pos.turn()) {
            return Err(Refusal::new(
                RefusalKind::NotYourTurn,
                format!("it is {}'s move", color_name(self.pos.turn())),
            ));
        }
        Ok(())
    }

    fn apply(&mut self, m: Move) -> Effects {
        let uci = UciMove::from_standard(m).to_string();
        let san = play_san(&mut self.pos, m);
        let played = PlayedMove {
            uci,
            san: san.to_string(),
            capture: m.is_capture(),
            check: san.suffix.is_some(),
        };
        self.keys.push(position_key(&self.pos));
        self.moves.push(played.clone());
        self.outcome = self.automatic_outcome();
        Effects {
            canonical: played.uci,
            display: played.san,
            capture: played.capture,
            check: played.check,
        }
    }

    /// Whether `claim` may be made now (the side to move's turn aside).
    fn claim_met(&self, claim: Claim) -> bool {
        match claim {
            Claim::ThreefoldRepetition => self.repetitions() >= 3,
            Claim::FiftyMoves => self.pos.halfmoves() >= 100,
        }
    }

    /// [`Self::claim_met`], with why not in words.
    fn claimable(&self, claim: Claim) -> Result<(), String> {
        if self.claim_met(claim) {
            return Ok(());
        }
        Err(match claim {
            Claim::ThreefoldRepetition => match self.repetitions() {
                1 => "the position has occurred once only".into(),
                n => format!("the position has occurred {n} times only"),
            },
            Claim::FiftyMoves => format!(
                "only {} moves by each side without a capture or pawn move",
                self.pos.halfmoves() / 2
            ),
        })
    }
}

fn claim_outcome(claim: Claim) -> Outcome {
    draw(match claim {
        Claim::ThreefoldRepetition => EndReason::ThreefoldRepetition,
        Claim::FiftyMoves => EndReason::FiftyMoves,
    })
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// What a viewer sees of a chess game: everything is public.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ChessView {
    /// The current position.
    pub fen: String,
    /// The starting FEN when the game did not start from the standard position.
    pub start_fen: Option<String>,
    /// `white` or `black`.
    pub side_to_move: &'static str,
    /// The seat to move, `None` when the game is over.
    pub to_move: Option<Seat>,
    pub last_move: Option<PlayedMove>,
    /// The side to move is in check.
    pub check: bool,
    /// Every legal move in UCI (empty when the game is over).
    pub legal_moves: Vec<String>,
    /// The moves so far in UCI, for computer players and engines; not sent:
    /// the table's move list (`game.moves`) carries each move's UCI and SAN
    /// once, and writing them twice more in every view was a fifth of the
    /// fan-out's work at move 40 (docs/benchmarks.md, session 16).
    #[serde(skip)]
    pub uci_moves: Vec<String>,
    /// Half-moves since the last capture or pawn move (the fifty-move count).
    pub halfmove_clock: u32,
    pub fullmove_number: u32,
    /// How many times the current position has occurred.
    pub repetitions: usize,
    /// What the viewing seat may claim now.
    pub claims: Vec<Claim>,
    pub outcome: Option<Outcome>,
}

impl Game for ChessGame {
    type Options = ChessOptions;
    type Phase = PlayPhase;
    type View = ChessView;

    const NAME: &'static str = "chess";
    const HAS_CLAIMS: bool = true;

    fn new(options: &ChessOptions, setup: &Setup) -> Result<Self, SetupError> {
        let game = match setup {
            Setup::Standard => ChessGame::default(),
            Setup::Position(fen) => {
                ChessGame::from_fen(fen).map_err(|e| SetupError::new(e.to_string()))?
            }
            Setup::Seed(_) | Setup::Secret(_) => {
                return Err(SetupError::new(
                    "chess starts from the standard position or a FEN, not a random seed",
                ));
            }
        };
        Ok(game.with_options(options))
    }

    fn seats(&self) -> u8 {
        2
    }

    fn turn(&self) -> Turn {
        if self.outcome.is_some() {
            Turn::Over
        } else {
            Turn::Seat(seat_of(self.pos.turn()))
        }
    }

    fn phase(&self) -> PlayPhase {
        if self.outcome.is_some() {
            PlayPhase::Over
        } else {
            PlayPhase::Play
        }
    }

    fn act(&mut self, seat: Seat, action: &str) -> Result<Effects, Refusal> {
        self.check_turn(seat)?;
        let m = parse_move(&self.pos, action).map_err(|e| {
            let kind = match e {
                MoveError::Malformed(_) => RefusalKind::Malformed,
                MoveError::Illegal(_) | MoveError::Ambiguous(_) => RefusalKind::Illegal,
            };
            Refusal::new(kind, e.to_string())
        })?;
        Ok(self.apply(m))
    }

    fn legal_actions(&self, seat: Seat) -> Vec<String> {
        if self.check_turn(seat).is_err() {
            return Vec::new();
        }
        self.pos
            .legal_moves()
            .iter()
            .map(|&m| UciMove::from_standard(m).to_string())
            .collect()
    }

    fn claims(&self, seat: Seat) -> Vec<Claim> {
        if self.check_turn(seat).is_err() {
            return Vec::new();
        }
        [Claim::ThreefoldRepetition, Claim::FiftyMoves]
            .into_iter()
            .filter(|&c| self.claim_met(c))
            .collect()
    }

    fn claim(&mut self, seat: Seat, claim: Claim) -> Result<Outcome, Refusal> {
        self.check_turn(seat)?;
        self.claimable(claim)
            .map_err(|why| Refusal::new(RefusalKind::ClaimRefused, why))?;
        let outcome = claim_outcome(claim);
        self.outcome = Some(outcome.clone());
        Ok(outcome)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    fn conceded(&self, seat: Seat, reason: EndReason) -> Outcome {
        let winner = color_of(seat.next(2));
        // FIDE 6.9: a flag fall loses, unless the opponent cannot mate by any
        // series of legal moves; then it is a draw.
        if reason == EndReason::Timeout && !can_checkmate(&self.pos, winner) {
            return draw(EndReason::Timeout);
        }
        win_for(winner, reason)
    }

    fn agreed_draw(&self) -> Outcome {
        draw(EndReason::Agreement)
    }

    fn draw_offers(&self) -> DrawOffers {
        DrawOffers::AfterOwnMove
    }

    fn view_again(&self, view: &mut ChessView, viewer: Viewer) -> bool {
        // Only the claims depend on who looks.
        let claims = match viewer {
            Viewer::Seat(seat) => self.claims(seat),
            Viewer::Spectator => Vec::new(),
        };
        let changed = claims != view.claims;
        view.claims = claims;
        changed
    }

    fn view_again_member(view: &ChessView) -> Option<(&'static str, String)> {
        Some(("claims", serde_json::to_string(&view.claims).ok()?))
    }

    fn view(&self, viewer: Viewer) -> ChessView {
        let claims = match viewer {
            Viewer::Seat(seat) => self.claims(seat),
            Viewer::Spectator => Vec::new(),
        };
        let over = self.outcome.is_some();
        ChessView {
            fen: self.fen(),
            start_fen: self.start_fen.clone(),
            side_to_move: match self.pos.turn() {
                Color::White => "white",
                Color::Black => "black",
            },
            to_move: (!over).then(|| seat_of(self.pos.turn())),
            last_move: self.moves.last().cloned(),
            check: self.pos.is_check(),
            legal_moves: self.legal_actions(seat_of(self.pos.turn())),
            uci_moves: self.moves.iter().map(|m| m.uci.clone()).collect(),
            halfmove_clock: self.pos.halfmoves(),
            fullmove_number: self.pos.fullmoves().get(),
            repetitions: self.repetitions(),
            claims,
            outcome: self.outcome.clone(),
        }
    }

    fn record(&self, meta: &RecordMeta) -> String {
        pgn::write(self, meta)
    }

    fn load(_options: &ChessOptions, text: &str) -> Result<(Setup, Vec<String>), SetupError> {
        pgn::load(text).map_err(SetupError::new)
    }
}
