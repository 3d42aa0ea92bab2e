//! The game contract ([`qiyuan_game::Game`]) for xiangqi: seat 0 is Red. Actions
//! are moves in any notation; the canonical form is ICCS, the display form
//! Chinese notation.

use qiyuan_game::{
    DrawOffers, Effects, EndReason, Game, Outcome, PlayPhase, RecordMeta, Refusal, RefusalKind,
    Seat, Setup, SetupError, Turn, Viewer,
};
use serde::Serialize;

use crate::notation::{self, Notation, NotationError};
use crate::pgn;
use crate::position::Position;
use crate::rules::{Ending, Options, XiangqiGame};
use crate::types::{Color, Move};

/// A xiangqi game at a table.
#[derive(Debug, Clone)]
pub struct Xiangqi {
    game: XiangqiGame,
}

/// The last move, as a view shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct LastMove {
    pub iccs: String,
    pub chinese: String,
    pub wxf: String,
    pub from: String,
    pub to: String,
}

/// What every viewer sees (xiangqi hides nothing).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct XiangqiView {
    pub fen: String,
    /// `red` or `black`.
    pub turn: Color,
    pub last_move: Option<LastMove>,
    /// The side to move is in check.
    pub check: bool,
    /// Legal moves of the side to move, ICCS (empty once the game is over).
    pub legal_moves: Vec<String>,
    /// The moves so far, ICCS.
    pub moves: Vec<String>,
    /// The moves so far in WXF (`C2=5`), for clients that show that notation.
    pub wxf_moves: Vec<String>,
    pub ending: Option<Ending>,
}

fn seat_of(c: Color) -> Seat {
    Seat(c as u8)
}

fn color_of(seat: Seat) -> Option<Color> {
    match seat.0 {
        0 => Some(Color::Red),
        1 => Some(Color::Black),
        _ => None,
    }
}

fn outcome_of(e: Ending) -> Outcome {
    match e.winner {
        Some(c) => Outcome::win(2, seat_of(c), e.reason, e.score()),
        None => Outcome::draw(2, e.reason, "1/2-1/2"),
    }
}

impl Xiangqi {
    pub fn game(&self) -> &XiangqiGame {
        &self.game
    }
    pub fn position(&self) -> &Position {
        self.game.position()
    }
}

impl Game for Xiangqi {
    type Options = Options;
    type Phase = PlayPhase;
    type View = XiangqiView;
    const NAME: &'static str = "xiangqi";

    fn new(options: &Options, setup: &Setup) -> Result<Self, SetupError> {
        let start = match setup {
            Setup::Standard => Position::new(),
            Setup::Position(fen) => {
                Position::from_fen(fen).map_err(|e| SetupError::new(e.to_string()))?
            }
            Setup::Seed(_) | Setup::Secret(_) => {
                return Err(SetupError::new("xiangqi has no random set-up"));
            }
        };
        Ok(Xiangqi {
            game: XiangqiGame::from_position(options.clone(), start),
        })
    }

    fn seats(&self) -> u8 {
        2
    }

    fn turn(&self) -> Turn {
        if self.game.ending().is_some() {
            Turn::Over
        } else {
            Turn::Seat(seat_of(self.game.position().turn()))
        }
    }

    fn phase(&self) -> PlayPhase {
        if self.game.ending().is_some() {
            PlayPhase::Over
        } else {
            PlayPhase::Play
        }
    }

    fn act(&mut self, seat: Seat, action: &str) -> Result<Effects, Refusal> {
        let color = color_of(seat)
            .ok_or_else(|| Refusal::new(RefusalKind::NoSuchSeat, format!("no {seat} here")))?;
        if self.game.ending().is_some() {
            return Err(Refusal::new(RefusalKind::GameOver, "the game is over"));
        }
        if self.game.position().turn() != color {
            return Err(Refusal::new(
                RefusalKind::NotYourTurn,
                "it is not your move",
            ));
        }
        let pos = self.game.position().clone();
        let m = notation::parse_any(&pos, action).map_err(|e| match e {
            NotationError::Malformed(_) => Refusal::new(RefusalKind::Malformed, e.to_string()),
            _ => Refusal::new(RefusalKind::Illegal, e.to_string()),
        })?;
        let capture = pos.is_capture(m);
        let display = notation::format_chinese(&pos, m);
        self.game
            .play(m)
            .map_err(|e| Refusal::new(RefusalKind::Illegal, e.to_string()))?;
        Ok(Effects {
            canonical: m.to_string(),
            display,
            capture,
            check: self.game.position().is_check(),
        })
    }

    fn legal_actions(&self, seat: Seat) -> Vec<String> {
        if self.game.ending().is_some() || color_of(seat) != Some(self.game.position().turn()) {
            return Vec::new();
        }
        self.game
            .position()
            .legal_moves()
            .iter()
            .map(Move::to_string)
            .collect()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.ending().map(outcome_of)
    }

    fn conceded(&self, seat: Seat, reason: EndReason) -> Outcome {
        let winner = seat.next(2);
        Outcome::win(
            2,
            winner,
            reason,
            if winner == Seat::FIRST { "1-0" } else { "0-1" },
        )
    }

    fn agreed_draw(&self) -> Outcome {
        Outcome::draw(2, EndReason::Agreement, "1/2-1/2")
    }

    fn draw_offers(&self) -> DrawOffers {
        DrawOffers::AlternatingAfterOwnMove
    }

    fn view_again(&self, _view: &mut XiangqiView, _viewer: Viewer) -> bool {
        // Everyone sees the same.
        false
    }

    fn view(&self, _viewer: Viewer) -> XiangqiView {
        let pos = self.game.position();
        // Each move is spelt in the position before it.
        let mut before = self.game.start().clone();
        let mut wxf_moves = Vec::with_capacity(self.game.moves().len());
        let mut last_move = None;
        for (i, &m) in self.game.moves().iter().enumerate() {
            let wxf = notation::format_wxf(&before, m);
            if i + 1 == self.game.moves().len() {
                last_move = Some(LastMove {
                    iccs: m.to_string(),
                    chinese: notation::format_chinese(&before, m),
                    wxf: wxf.clone(),
                    from: m.from().to_string(),
                    to: m.to().to_string(),
                });
            }
            wxf_moves.push(wxf);
            before.play_unchecked(m);
        }
        XiangqiView {
            fen: pos.fen(),
            turn: pos.turn(),
            last_move,
            check: pos.is_check(),
            legal_moves: if self.game.ending().is_some() {
                Vec::new()
            } else {
                pos.legal_moves().iter().map(Move::to_string).collect()
            },
            moves: self.game.moves().iter().map(Move::to_string).collect(),
            wxf_moves,
            ending: self.game.ending(),
        }
    }

    fn record(&self, meta: &RecordMeta) -> String {
        let mut tags: Vec<(String, String)> = Vec::new();
        let mut tag = |k: &str, v: Option<&String>| {
            tags.push((k.to_string(), v.cloned().unwrap_or_else(|| "?".into())));
        };
        tag("Event", meta.event.as_ref());
        tag("Site", meta.site.as_ref());
        tag("Date", meta.date.as_ref());
        tag("Round", meta.round.as_ref());
        tag("Red", meta.players.first());
        tag("Black", meta.players.get(1));
        if let Some(tc) = &meta.time_control {
            tags.push(("TimeControl".into(), tc.pgn_tag()));
            if let Some((name, value)) = tc.pgn_detail_tag() {
                tags.push((name.into(), value));
            }
        }
        let result = match (&meta.outcome, self.game.ending()) {
            (Some(o), _) => o.score.clone(),
            (None, Some(e)) => e.score().to_string(),
            (None, None) => "*".to_string(),
        };
        pgn::write(
            &tags,
            self.game.start(),
            self.game.moves(),
            &result,
            Notation::Iccs,
        )
    }

    fn load(_options: &Options, text: &str) -> Result<(Setup, Vec<String>), SetupError> {
        let t = text.trim();
        // A bare FEN: one line whose first field has ten ranks.
        if !t.contains('[')
            && t.split_whitespace()
                .next()
                .is_some_and(|f| f.matches('/').count() == 9)
        {
            let pos = Position::from_fen(t).map_err(|e| SetupError::new(e.to_string()))?;
            return Ok((Setup::Position(pos.fen()), Vec::new()));
        }
        let rec = pgn::read(t).map_err(|e| SetupError::new(e.to_string()))?;
        let setup = if rec.start == Position::new() {
            Setup::Standard
        } else {
            Setup::Position(rec.start.fen())
        };
        Ok((setup, rec.moves.iter().map(Move::to_string).collect()))
    }
}
