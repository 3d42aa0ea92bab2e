//! A game's computer players as the registry knows them: the contract a game's
//! players fill ([`ComputerPlayers`]), and a choice still to be made from one
//! seat's view ([`BotChoice`]), which the live table hands to the compute
//! budget.

use std::marker::PhantomData;

use qiyuan_game::{Game, Seat};

use crate::bots::{Ask, BotLevel, Decision, Thought};
use crate::engines::{EnginePosition, Protocol};

/// A game's computer players: how one decides from its own seat's view (the view
/// a player at that seat gets, never the table's state or log, which hold the
/// deal secret), and how the game is told to an external engine.
pub trait ComputerPlayers<G: Game>: 'static {
    /// The levels it plays at; none means the game has no computer players.
    const LEVELS: &'static [BotLevel];
    /// What a bot at `seat`, whose view this is, does now: an action in the
    /// game's notation (one of the seat's legal ones) or resigning, with its
    /// evaluation when it has one. `ask` holds its level, a seed for any
    /// randomness, its clock and the stop flag (see [`Ask::allot`] and
    /// [`Ask::bounded`] for keeping within its time). `None`: nothing to do.
    fn think(view: &G::View, seat: Seat, ask: &Ask) -> Option<Thought>;
    /// The game as an engine speaking `protocol` is told it, if this game can be
    /// played by such an engine; none by default.
    fn engine_position(_view: &G::View, _protocol: Protocol) -> Option<EnginePosition> {
        None
    }
    /// Whether [`Self::analyse`] analyses (the analysis board's engine).
    const ANALYSES: bool = false;
    /// Analyses the position of `view` (its seat to move) for the analysis
    /// board: a [`crate::protocol::analysis::Line`] after each finished iteration, scored
    /// from the first seat's side, within `budget`.
    fn analyse(
        _view: &G::View,
        _budget: &crate::registry::Budget,
        _report: &mut dyn FnMut(crate::protocol::analysis::Line),
    ) {
    }
}

/// The computer players of a game that has none.
pub struct NoBots;

impl<G: Game> ComputerPlayers<G> for NoBots {
    const LEVELS: &'static [BotLevel] = &[];
    fn think(_: &G::View, _: Seat, _: &Ask) -> Option<Thought> {
        None
    }
}

/// One seat's view, kept for a computer player's decision.
pub(super) trait SeatView: Send {
    fn think(&self, ask: &Ask) -> Option<Thought>;
    fn engine_position(&self, protocol: Protocol) -> Option<EnginePosition>;
}

pub(super) struct ViewOf<G: Game, B> {
    pub(super) view: G::View,
    pub(super) seat: Seat,
    pub(super) bots: PhantomData<fn() -> B>,
}

impl<G, B> SeatView for ViewOf<G, B>
where
    G: Game,
    G::View: Send + 'static,
    B: ComputerPlayers<G>,
{
    fn think(&self, ask: &Ask) -> Option<Thought> {
        B::think(&self.view, self.seat, ask)
    }
    fn engine_position(&self, protocol: Protocol) -> Option<EnginePosition> {
        B::engine_position(&self.view, protocol)
    }
}

/// A bot's choice still to be made (CPU-bound: run it off the async threads),
/// from its seat's view: always one of the seat's legal actions, or resigning.
pub struct BotChoice {
    pub(super) view: Box<dyn SeatView>,
    pub(super) legal: Vec<String>,
    /// Whether the seat must act now (its turn alone), rather than may (Go's
    /// marking, where every seat acts).
    pub(super) must: bool,
}

impl BotChoice {
    /// The built-in computer player's decision. Should it ever be no legal
    /// action on its own turn, the first legal one is played instead of
    /// stalling.
    pub fn think(&self, ask: &Ask) -> Option<Thought> {
        let thought = self.view.think(ask).filter(|t| self.allows(&t.decision));
        match thought {
            Some(t) => Some(t),
            None if self.must => self.legal.first().cloned().map(Thought::act),
            None => None,
        }
    }

    /// The game as an engine speaking `protocol` is told it.
    pub fn engine_position(&self, protocol: Protocol) -> Option<EnginePosition> {
        self.view.engine_position(protocol)
    }

    /// Whether the decision is the seat's to make: resigning, or a legal action.
    pub fn allows(&self, decision: &Decision) -> bool {
        match decision {
            Decision::Resign => true,
            Decision::Act(a) => self.legal.contains(a),
        }
    }
}
