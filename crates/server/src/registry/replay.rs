//! A game replayed ply by ply for the replay viewer (`GET /api/game/{id}/replay`):
//! the table's stored log is applied to a fresh table until the game asked for
//! is over (or, for a game hiding nothing, to the end of the log), and that
//! game's own moves are then played again on a new game value, each position
//! taken as the game's own `view`. The client draws those views and applies no
//! rules of its own.
//!
//! A game that hides information (Doudizhu) is shown with one view per seat,
//! which together show every hand, as the record does; the endpoint serves it
//! only once the game is over.

use std::collections::BTreeMap;

use qiyuan_game::{Game, Outcome, Seat, Viewer};
use qiyuan_table::{GameState, LogEntry, Millis, Table, TableConfig, UserId};
use serde::Serialize;
use serde_json::Value;

/// A further notation of an action, made from the spectator's view of the
/// position before it and the canonical action (xiangqi's WXF); `None` when it
/// cannot be written.
pub type Notation = fn(before: &Value, action: &str) -> Option<String>;

/// One game of a table, ply by ply.
#[derive(Debug, Clone, Serialize)]
pub struct GameReplay {
    /// The game's number at its table (1 for the first).
    pub number: u32,
    /// Users by seat.
    pub players: Vec<UserId>,
    pub settings: qiyuan_table::Settings,
    pub rated: bool,
    pub started_at: Millis,
    pub ended_at: Option<Millis>,
    pub outcome: Option<Outcome>,
    /// The position before the first ply (`positions[0]`) and after each ply:
    /// one view per seat for a game hiding information, else the spectator's.
    pub positions: Vec<Vec<Value>>,
    pub plies: Vec<ReplayPly>,
}

/// One accepted action of the game.
#[derive(Debug, Clone, Serialize)]
pub struct ReplayPly {
    pub seat: Seat,
    /// The canonical notation (UCI, ICCS, a GTP vertex, Doudizhu cards).
    pub action: String,
    /// The game's display notation (SAN, Chinese notation, ...).
    pub display: String,
    /// Further notations by name (`wxf`).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub notations: BTreeMap<&'static str, String>,
    /// The mover's main time left after it, where the clock kept one.
    pub clock: Option<Millis>,
}

/// Replays game `number` of a table of `G` from its log. `None`: the log holds
/// no such game. `per_seat`: the game hides information, so each position is
/// one view per seat.
pub(super) fn replay_game<G: Game>(
    config: TableConfig,
    log: &[LogEntry],
    number: u32,
    per_seat: bool,
    notations: &[(&'static str, Notation)],
) -> Result<Option<GameReplay>, String> {
    let mut table = Table::<G>::new(config).map_err(|e| e.to_string())?;
    let mut found: Option<GameState> = None;
    for (index, entry) in log.iter().enumerate() {
        table
            .apply_entry(entry)
            .map_err(|refusal| format!("log entry {} refused: {refusal}", index + 1))?;
        match table.state().game.as_ref() {
            Some(gs) if gs.number == number && gs.outcome.is_some() => {
                found = Some(gs.clone());
                break;
            }
            Some(gs) if gs.number > number => break,
            _ => {}
        }
    }
    let game_state = match found {
        Some(gs) => gs,
        // Still being played: as it stands.
        None => match table.state().game.as_ref() {
            Some(gs) if gs.number == number => gs.clone(),
            _ => return Ok(None),
        },
    };
    let options: G::Options = if game_state.settings.options.is_null() {
        G::Options::default()
    } else {
        serde_json::from_value(game_state.settings.options.clone()).map_err(|e| e.to_string())?
    };
    let mut game = G::new(&options, &game_state.setup).map_err(|e| e.to_string())?;
    for (seat, action) in &game_state.preloaded {
        game.act(*seat, action)
            .map_err(|r| format!("a loaded action refused: {r}"))?;
    }
    let views = |game: &G| -> Vec<Value> {
        let viewers: Vec<Viewer> = if per_seat {
            (0..game.seats()).map(|s| Viewer::Seat(Seat(s))).collect()
        } else {
            vec![Viewer::Spectator]
        };
        viewers
            .into_iter()
            .map(|v| serde_json::to_value(game.view(v)).unwrap_or(Value::Null))
            .collect()
    };
    let mut positions = vec![views(&game)];
    let mut plies = Vec::with_capacity(game_state.actions.len());
    for a in &game_state.actions {
        let before = serde_json::to_value(game.view(Viewer::Spectator)).unwrap_or(Value::Null);
        let effects = game
            .act(a.seat, &a.action)
            .map_err(|r| format!("ply {} refused: {r}", plies.len() + 1))?;
        let mut more = BTreeMap::new();
        for (name, write) in notations {
            if let Some(text) = write(&before, &effects.canonical) {
                more.insert(*name, text);
            }
        }
        positions.push(views(&game));
        plies.push(ReplayPly {
            seat: a.seat,
            action: effects.canonical,
            display: a.display.clone(),
            notations: more,
            clock: a.clock,
        });
    }
    Ok(Some(GameReplay {
        number,
        players: game_state.players.clone(),
        settings: game_state.settings.clone(),
        rated: game_state.rated,
        started_at: game_state.started_at,
        ended_at: game_state.ended_at,
        outcome: game_state.outcome.clone(),
        positions,
        plies,
    }))
}

/// Xiangqi's WXF notation of an ICCS move, from the position before it.
#[cfg(feature = "xiangqi")]
pub(super) fn xiangqi_wxf(before: &Value, action: &str) -> Option<String> {
    use qiyuan_xiangqi::{Position, notation};
    let pos = Position::from_fen(before.get("fen")?.as_str()?).ok()?;
    let m = notation::parse_iccs(&pos, action).ok()?;
    Some(notation::format_wxf(&pos, m))
}
