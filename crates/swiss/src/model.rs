//! The tournament: players, their round-by-round entries, and the scoring.
//!
//! Entries keep the TRF-16 vocabulary (a result character, a colour mark and an
//! opponent) so that a file read and written again is unchanged; the methods
//! give the meanings the pairing and the tiebreaks need (was the game played,
//! did the player take part in the pairing, how many points did it give).

use std::fmt;

/// A piece colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Colour {
    White,
    Black,
}

impl Colour {
    /// The other colour.
    pub const fn invert(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// The result column of one round entry (TRF-16, field "result").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ResultCode {
    /// `1`: a game won over the board.
    Win,
    /// `=`: a drawn game.
    Draw,
    /// `0`: a game lost over the board.
    Loss,
    /// `+`: won by forfeit (the opponent did not play).
    ForfeitWin,
    /// `-`: lost by forfeit.
    ForfeitLoss,
    /// `W`: an unrated game won.
    UnratedWin,
    /// `D`: an unrated game drawn.
    UnratedDraw,
    /// `L`: an unrated game lost.
    UnratedLoss,
    /// `H`: a half-point bye (requested).
    HalfBye,
    /// `F`: a full-point bye (requested).
    FullBye,
    /// `U`: the pairing-allocated bye.
    PairingBye,
    /// `Z`: a zero-point bye (requested absence).
    ZeroBye,
    /// ` `: no result: not paired (absent, withdrawn, not yet entered).
    Absent,
}

impl ResultCode {
    /// Reads a TRF result character.
    pub fn from_char(c: char) -> Option<ResultCode> {
        Some(match c {
            '1' => ResultCode::Win,
            '=' => ResultCode::Draw,
            '0' => ResultCode::Loss,
            '+' => ResultCode::ForfeitWin,
            '-' => ResultCode::ForfeitLoss,
            'W' | 'w' => ResultCode::UnratedWin,
            'D' | 'd' => ResultCode::UnratedDraw,
            'L' | 'l' => ResultCode::UnratedLoss,
            'H' | 'h' => ResultCode::HalfBye,
            'F' | 'f' => ResultCode::FullBye,
            'U' | 'u' => ResultCode::PairingBye,
            'Z' | 'z' => ResultCode::ZeroBye,
            ' ' => ResultCode::Absent,
            _ => return None,
        })
    }

    /// The TRF result character.
    pub const fn as_char(self) -> char {
        match self {
            ResultCode::Win => '1',
            ResultCode::Draw => '=',
            ResultCode::Loss => '0',
            ResultCode::ForfeitWin => '+',
            ResultCode::ForfeitLoss => '-',
            ResultCode::UnratedWin => 'W',
            ResultCode::UnratedDraw => 'D',
            ResultCode::UnratedLoss => 'L',
            ResultCode::HalfBye => 'H',
            ResultCode::FullBye => 'F',
            ResultCode::PairingBye => 'U',
            ResultCode::ZeroBye => 'Z',
            ResultCode::Absent => ' ',
        }
    }

    /// Whether the code means a game played over the board.
    pub const fn is_over_the_board(self) -> bool {
        matches!(
            self,
            ResultCode::Win
                | ResultCode::Draw
                | ResultCode::Loss
                | ResultCode::UnratedWin
                | ResultCode::UnratedDraw
                | ResultCode::UnratedLoss
        )
    }

    /// The outcome class: a win, a draw or a loss (byes and forfeits included).
    pub const fn class(self) -> Outcome {
        match self {
            ResultCode::Win
            | ResultCode::ForfeitWin
            | ResultCode::UnratedWin
            | ResultCode::FullBye
            | ResultCode::PairingBye => Outcome::Win,
            ResultCode::Draw | ResultCode::UnratedDraw | ResultCode::HalfBye => Outcome::Draw,
            ResultCode::Loss
            | ResultCode::ForfeitLoss
            | ResultCode::UnratedLoss
            | ResultCode::ZeroBye
            | ResultCode::Absent => Outcome::Loss,
        }
    }
}

/// Win, draw or loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

/// The colour column of a round entry: `w`, `b`, `-` or blank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ColourMark {
    White,
    Black,
    /// `-`: no colour (a bye or a forfeit without a game).
    Dash,
    /// Blank.
    Blank,
}

impl ColourMark {
    /// The colour, if one is marked.
    pub const fn colour(self) -> Option<Colour> {
        match self {
            ColourMark::White => Some(Colour::White),
            ColourMark::Black => Some(Colour::Black),
            ColourMark::Dash | ColourMark::Blank => None,
        }
    }
}

impl From<Colour> for ColourMark {
    fn from(c: Colour) -> Self {
        match c {
            Colour::White => ColourMark::White,
            Colour::Black => ColourMark::Black,
        }
    }
}

/// The opponent column of a round entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum OpponentField {
    /// Blank.
    Blank,
    /// `0000`: no opponent (a bye).
    None,
    /// The opponent's starting rank.
    Player(u32),
}

/// What one player did in one round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct RoundEntry {
    pub opponent: OpponentField,
    pub colour: ColourMark,
    pub result: ResultCode,
}

impl RoundEntry {
    /// A round the player was not in at all (blank in the TRF).
    pub const BLANK: RoundEntry = RoundEntry {
        opponent: OpponentField::Blank,
        colour: ColourMark::Blank,
        result: ResultCode::Absent,
    };

    /// A bye of the given kind (`H`, `F`, `Z`, `U`).
    pub const fn bye(result: ResultCode) -> RoundEntry {
        RoundEntry {
            opponent: OpponentField::None,
            colour: ColourMark::Dash,
            result,
        }
    }

    /// A game (or forfeit) against `opponent` with `colour`.
    pub const fn game(opponent: u32, colour: Colour, result: ResultCode) -> RoundEntry {
        RoundEntry {
            opponent: OpponentField::Player(opponent),
            colour: match colour {
                Colour::White => ColourMark::White,
                Colour::Black => ColourMark::Black,
            },
            result,
        }
    }

    /// Whether the entry is entirely blank (trailing blanks are not written).
    pub fn is_blank(&self) -> bool {
        *self == RoundEntry::BLANK
    }

    /// The opponent's starting rank, if there was one.
    pub const fn opponent(&self) -> Option<u32> {
        match self.opponent {
            OpponentField::Player(p) => Some(p),
            _ => None,
        }
    }

    /// Whether a game was played over the board.
    pub fn played(&self) -> bool {
        self.opponent().is_some()
            && self.colour.colour().is_some()
            && self.result.is_over_the_board()
    }

    /// Whether the player took part in the pairing of this round (was paired
    /// against someone, or was given the pairing-allocated bye).
    pub fn participated(&self) -> bool {
        self.opponent().is_some()
            || matches!(self.result, ResultCode::PairingBye | ResultCode::ForfeitWin)
    }

    /// Whether this is a pairing-allocated bye (or a forfeit win without an
    /// opponent, which FIDE scores alike).
    pub fn is_pairing_bye(&self) -> bool {
        self.opponent().is_none()
            && matches!(self.result, ResultCode::PairingBye | ResultCode::ForfeitWin)
    }

    /// The points this entry gives, in tenths.
    pub fn points(&self, scoring: &Scoring) -> u32 {
        match self.result.class() {
            Outcome::Loss => {
                if self.participated() {
                    if self.played() {
                        scoring.loss
                    } else {
                        scoring.forfeit_loss
                    }
                } else {
                    scoring.zero_bye
                }
            }
            Outcome::Win => {
                if self.is_pairing_bye() {
                    scoring.pairing_bye
                } else if self.result == ResultCode::FullBye {
                    scoring.full_bye
                } else {
                    scoring.win
                }
            }
            Outcome::Draw => {
                if self.result == ResultCode::HalfBye {
                    scoring.half_bye
                } else {
                    scoring.draw
                }
            }
        }
    }
}

/// Points for each kind of result, in tenths of a point (win 10 = 1 point).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Scoring {
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
    pub forfeit_loss: u32,
    pub pairing_bye: u32,
    pub full_bye: u32,
    pub half_bye: u32,
    pub zero_bye: u32,
}

impl Default for Scoring {
    /// The seed's scoring: win 1, draw ½, loss 0; byes score as FIDE says.
    fn default() -> Self {
        Scoring {
            win: 10,
            draw: 5,
            loss: 0,
            forfeit_loss: 0,
            pairing_bye: 10,
            full_bye: 10,
            half_bye: 5,
            zero_bye: 0,
        }
    }
}

/// Points in tenths, shown as `2.5`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Points(pub u32);

impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = format!("{}.{}", self.0 / 10, self.0 % 10);
        f.pad(&s)
    }
}

/// One registered player.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Player {
    /// Starting rank (pairing number), from 1.
    pub start_rank: u32,
    /// TRF sex column (`m`, `w` or blank).
    pub sex: char,
    /// TRF title column (`GM`, `IM`, ..., or blank).
    pub title: String,
    pub name: String,
    /// FIDE rating, if any.
    pub rating: Option<u32>,
    pub federation: String,
    pub fide_id: String,
    pub birth_date: String,
    /// The points column as written in the file, in tenths.
    pub points: u32,
    /// The rank column as written in the file.
    pub rank: Option<u32>,
    /// Entries by round, from round 1; later rounds may be missing.
    pub rounds: Vec<RoundEntry>,
    /// Withdrawn: no longer paired (not a TRF column).
    #[serde(default)]
    pub withdrawn: bool,
}

impl Player {
    /// A new player with the given starting rank, name and rating.
    pub fn new(start_rank: u32, name: &str, rating: Option<u32>) -> Player {
        Player {
            start_rank,
            sex: ' ',
            title: String::new(),
            name: name.to_string(),
            rating,
            federation: String::new(),
            fide_id: String::new(),
            birth_date: String::new(),
            points: 0,
            rank: None,
            rounds: Vec::new(),
            withdrawn: false,
        }
    }

    /// The entry of a round (1-based), blank if there is none.
    pub fn entry(&self, round: usize) -> RoundEntry {
        round
            .checked_sub(1)
            .and_then(|i| self.rounds.get(i))
            .copied()
            .unwrap_or(RoundEntry::BLANK)
    }

    /// Sets the entry of a round (1-based), padding earlier rounds with blanks.
    pub fn set_entry(&mut self, round: usize, entry: RoundEntry) {
        if round == 0 {
            return;
        }
        if self.rounds.len() < round {
            self.rounds.resize(round, RoundEntry::BLANK);
        }
        self.rounds[round - 1] = entry;
    }

    /// Points from the first `rounds` rounds, in tenths.
    pub fn score_after(&self, rounds: usize, scoring: &Scoring) -> u32 {
        (1..=rounds).map(|r| self.entry(r).points(scoring)).sum()
    }
}

/// A non-player line of a TRF file, kept as written.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Record {
    /// The index of a player in [`Tournament::players`].
    Player(usize),
    /// Any other line.
    Other(String),
}

/// A Swiss tournament.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Tournament {
    /// The number of rounds of the event (TRF `XXR`).
    pub total_rounds: Option<u32>,
    /// The colour the top player of round 1 gets (TRF `XXC white1`/`black1`).
    pub initial_colour: Option<Colour>,
    pub players: Vec<Player>,
    /// The lines of the file in order, for writing it back unchanged.
    pub records: Vec<Record>,
    pub scoring: Scoring,
}

/// A mistake in a change to the tournament.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TournamentError {
    #[error("there is no player with starting rank {0}")]
    UnknownPlayer(u32),
    #[error("round numbers start at 1")]
    RoundZero,
}

impl Tournament {
    /// An empty tournament of `total_rounds` rounds.
    pub fn new(total_rounds: u32, initial_colour: Colour) -> Tournament {
        let mut t = Tournament {
            total_rounds: Some(total_rounds),
            initial_colour: Some(initial_colour),
            ..Tournament::default()
        };
        t.records.push(Record::Other(format!("XXR {total_rounds}")));
        t.records.push(Record::Other(
            match initial_colour {
                Colour::White => "XXC white1",
                Colour::Black => "XXC black1",
            }
            .to_string(),
        ));
        t
    }

    /// Registers a player (a late entry when rounds have already been played:
    /// the earlier rounds stay blank, which scores as absent).
    pub fn add_player(&mut self, name: &str, rating: Option<u32>) -> u32 {
        let start_rank = self.players.iter().map(|p| p.start_rank).max().unwrap_or(0) + 1;
        self.players.push(Player::new(start_rank, name, rating));
        self.records.push(Record::Player(self.players.len() - 1));
        start_rank
    }

    /// The player with the given starting rank.
    pub fn player(&self, start_rank: u32) -> Option<&Player> {
        self.players.iter().find(|p| p.start_rank == start_rank)
    }

    fn player_mut(&mut self, start_rank: u32) -> Result<&mut Player, TournamentError> {
        self.players
            .iter_mut()
            .find(|p| p.start_rank == start_rank)
            .ok_or(TournamentError::UnknownPlayer(start_rank))
    }

    /// Records a requested bye (`H`, `F` or `Z`) for a round before it is paired.
    pub fn request_bye(
        &mut self,
        start_rank: u32,
        round: usize,
        kind: ResultCode,
    ) -> Result<(), TournamentError> {
        if round == 0 {
            return Err(TournamentError::RoundZero);
        }
        self.player_mut(start_rank)?
            .set_entry(round, RoundEntry::bye(kind));
        Ok(())
    }

    /// Withdraws a player: not paired any more.
    pub fn withdraw(&mut self, start_rank: u32) -> Result<(), TournamentError> {
        self.player_mut(start_rank)?.withdrawn = true;
        Ok(())
    }

    /// Records a game of `round` (1-based): `result` is White's.
    pub fn record_game(
        &mut self,
        round: usize,
        white: u32,
        black: u32,
        result: ResultCode,
    ) -> Result<(), TournamentError> {
        if round == 0 {
            return Err(TournamentError::RoundZero);
        }
        let black_result = match result {
            ResultCode::Win => ResultCode::Loss,
            ResultCode::Loss => ResultCode::Win,
            ResultCode::ForfeitWin => ResultCode::ForfeitLoss,
            ResultCode::ForfeitLoss => ResultCode::ForfeitWin,
            ResultCode::UnratedWin => ResultCode::UnratedLoss,
            ResultCode::UnratedLoss => ResultCode::UnratedWin,
            other => other,
        };
        self.player_mut(black)?;
        self.player_mut(white)?
            .set_entry(round, RoundEntry::game(black, Colour::White, result));
        self.player_mut(black)?
            .set_entry(round, RoundEntry::game(white, Colour::Black, black_result));
        Ok(())
    }

    /// Records the pairing-allocated bye of `round`.
    pub fn record_pairing_bye(
        &mut self,
        round: usize,
        start_rank: u32,
    ) -> Result<(), TournamentError> {
        if round == 0 {
            return Err(TournamentError::RoundZero);
        }
        self.player_mut(start_rank)?
            .set_entry(round, RoundEntry::bye(ResultCode::PairingBye));
        Ok(())
    }

    /// Rewrites every player's points column from the entries of the first
    /// `rounds` rounds.
    pub fn update_points(&mut self, rounds: usize) {
        let scoring = self.scoring;
        for p in &mut self.players {
            p.points = p.score_after(rounds, &scoring);
        }
    }

    /// The number of rounds already paired: the last round in which anyone took
    /// part in a pairing (a requested bye alone does not pair a round).
    pub fn paired_rounds(&self) -> usize {
        let mut rounds = 0;
        for p in &self.players {
            for (i, e) in p.rounds.iter().enumerate() {
                if e.is_blank() {
                    continue;
                }
                // An entry after earlier ones means those rounds were paired.
                rounds = rounds.max(i);
                if e.participated() {
                    rounds = rounds.max(i + 1);
                }
            }
        }
        rounds
    }
}
