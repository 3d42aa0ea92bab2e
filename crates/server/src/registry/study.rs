//! The analysis board's positions, for every game alike: the game's own rules
//! replay the moves from the setup (so the board's legal moves are the game's),
//! and the game's computer players analyse (see [`ComputerPlayers::analyse`]).

use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use qiyuan_game::{Game, Seat, Setup, Turn, Viewer};
use serde_json::Value;

use super::ComputerPlayers;
use super::replay::Notation;
use crate::protocol::analysis::{Line, Position};

/// A position of some game on the analysis board.
pub trait Study: Send + Sync {
    fn position(&self) -> Position;
    /// Writes `line`'s moves as players read them: `pv_display` in the game's
    /// display notation and `pv_notations` in its further ones (the replay
    /// viewer's), up to the first move that cannot be played.
    fn describe(&self, line: &mut Line);
    /// The engine's lines as it deepens, within `budget`; nothing for a game
    /// its computer players cannot analyse.
    fn analyse(&self, budget: &Budget, report: &mut dyn FnMut(Line));
    /// The position as an external engine speaking `protocol` is told it.
    fn engine_position(
        &self,
        protocol: crate::engines::Protocol,
    ) -> Option<crate::engines::EnginePosition>;
}

/// What bounds one analysis: a time, optionally a depth (plies; playouts'
/// doublings for Go), and the stop flag.
pub struct Budget<'a> {
    pub time: Duration,
    pub depth: Option<u32>,
    pub stop: &'a AtomicBool,
    pub started: Instant,
    /// Set when nobody wants the search any more (a review's client hung up);
    /// read between iterations, where `stop` is the position's own hard bound.
    pub cancel: Option<&'a AtomicBool>,
}

impl Budget<'_> {
    /// Whether the search may go on: time left, not stopped or cancelled.
    pub fn go_on(&self) -> bool {
        !self.stop.load(Ordering::Relaxed)
            && !self.cancel.is_some_and(|c| c.load(Ordering::Relaxed))
            && self.started.elapsed() < self.time
    }
}

/// Why a position could not be studied.
#[derive(Debug, Clone)]
pub struct StudyError {
    pub code: &'static str,
    pub message: String,
}

impl StudyError {
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
        StudyError {
            code,
            message: message.into(),
        }
    }
}

struct StudyOf<G: Game, B> {
    game: G,
    moves: Vec<String>,
    /// The moves in the game's display notation.
    displays: Vec<String>,
    /// The game's further notations (xiangqi's WXF), for the lines.
    notations: Vec<(&'static str, Notation)>,
    bots: PhantomData<fn() -> B>,
}

/// The game's options from JSON (null: the defaults).
fn options<G: Game>(options: &Value) -> Result<G::Options, StudyError> {
    if options.is_null() {
        return Ok(G::Options::default());
    }
    serde_json::from_value(options.clone())
        .map_err(|e| StudyError::new("bad_settings", format!("bad options: {e}")))
}

/// Replays `moves` from `setup` by the game's rules.
pub(super) fn study<G, B>(
    opts: &Value,
    setup: &Setup,
    moves: &[String],
    notations: &[(&'static str, Notation)],
) -> Result<Box<dyn Study>, StudyError>
where
    G: Game,
    G::View: Send + 'static,
    B: ComputerPlayers<G>,
{
    let opts = options::<G>(opts)?;
    let mut game = G::new(&opts, setup).map_err(|e| StudyError::new("bad_setup", e.message))?;
    let mut displays = Vec::with_capacity(moves.len());
    for (i, m) in moves.iter().enumerate() {
        let seat = match game.turn() {
            Turn::Seat(s) => s,
            _ => {
                return Err(StudyError::new(
                    "illegal",
                    format!("move {} ({m}): no one is to move", i + 1),
                ));
            }
        };
        let effects = game
            .act(seat, m)
            .map_err(|e| StudyError::new("illegal", format!("move {} ({m}): {e}", i + 1)))?;
        displays.push(effects.display);
    }
    Ok(Box::new(StudyOf::<G, B> {
        game,
        moves: moves.to_vec(),
        displays,
        notations: notations.to_vec(),
        bots: PhantomData,
    }))
}

/// A stored record's setup and moves, read by the game.
pub(super) fn load<G: Game>(opts: &Value, record: &str) -> Result<(Setup, Vec<String>), String> {
    let opts = options::<G>(opts).map_err(|e| e.message)?;
    G::load(&opts, record).map_err(|e| e.message)
}

impl<G, B> Study for StudyOf<G, B>
where
    G: Game,
    G::View: Send + 'static,
    B: ComputerPlayers<G>,
{
    fn position(&self) -> Position {
        let to_move = match self.game.turn() {
            Turn::Seat(s) => Some(s),
            _ => None,
        };
        let outcome = self.game.outcome();
        Position {
            game: G::NAME.to_string(),
            moves: self.moves.clone(),
            displays: self.displays.clone(),
            to_move: to_move.map(|s| s.0),
            legal: to_move
                .map(|s| self.game.legal_actions(s))
                .unwrap_or_default(),
            over: outcome.is_some(),
            winner: outcome.as_ref().and_then(|o| o.winner()).map(|s| s.0),
            analysable: B::ANALYSES,
            view: serde_json::to_value(self.game.view(Viewer::Seat(to_move.unwrap_or(Seat(0)))))
                .unwrap_or(Value::Null),
        }
    }

    fn describe(&self, line: &mut Line) {
        let mut game = self.game.clone();
        let mut display = Vec::with_capacity(line.pv.len());
        let mut more: Vec<Vec<String>> = vec![Vec::new(); self.notations.len()];
        for mv in &line.pv {
            let Turn::Seat(seat) = game.turn() else {
                break;
            };
            // The further notations are written from the position before the move.
            let before = (!self.notations.is_empty())
                .then(|| serde_json::to_value(game.view(Viewer::Spectator)).unwrap_or(Value::Null));
            let Ok(effects) = game.act(seat, mv) else {
                break;
            };
            if let Some(before) = &before {
                for ((_, write), list) in self.notations.iter().zip(more.iter_mut()) {
                    list.push(
                        write(before, &effects.canonical)
                            .unwrap_or_else(|| effects.display.clone()),
                    );
                }
            }
            display.push(effects.display);
        }
        line.pv_display = display;
        line.pv_notations = (!self.notations.is_empty()).then(|| {
            self.notations
                .iter()
                .map(|(name, _)| name.to_string())
                .zip(more)
                .collect()
        });
    }

    fn engine_position(
        &self,
        protocol: crate::engines::Protocol,
    ) -> Option<crate::engines::EnginePosition> {
        let Turn::Seat(seat) = self.game.turn() else {
            return None;
        };
        B::engine_position(&self.game.view(Viewer::Seat(seat)), protocol)
    }

    fn analyse(&self, budget: &Budget, report: &mut dyn FnMut(Line)) {
        if !B::ANALYSES || self.game.outcome().is_some() {
            return;
        }
        let Turn::Seat(seat) = self.game.turn() else {
            return;
        };
        let view = self.game.view(Viewer::Seat(seat));
        // The hard bound: the stop flag is set once the time is up, whatever
        // the engine is doing (its iterations also end on time by themselves).
        let (done, wait) = std::sync::mpsc::channel::<()>();
        std::thread::scope(|scope| {
            let stop = budget.stop;
            let limit = budget.time.saturating_sub(budget.started.elapsed());
            scope.spawn(move || {
                if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(limit) {
                    stop.store(true, std::sync::atomic::Ordering::Relaxed);
                }
            });
            B::analyse(&view, budget, &mut |mut line| {
                self.describe(&mut line);
                report(line);
            });
            drop(done);
        });
    }
}
