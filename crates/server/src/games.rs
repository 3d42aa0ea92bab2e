//! The games the server can host, behind one object-safe trait, so that a live
//! table task is written once for every game. Adding a game is one line in
//! [`new_table`] (and a cargo feature).

use qiyuan_game::{Game, RecordMeta, Seat, Secret, Viewer};
use qiyuan_table::{Command, Event, LogEntry, Millis, State, Table, TableConfig, TableRefusal};
use serde_json::Value;

/// The games compiled into this server, by name.
pub const GAMES: &[&str] = &[
    #[cfg(feature = "chess")]
    "chess",
    #[cfg(feature = "xiangqi")]
    "xiangqi",
    #[cfg(feature = "go")]
    "go",
    #[cfg(feature = "doudizhu")]
    "doudizhu",
];

/// A table of any game, as the live task drives it.
pub trait AnyTable: Send + Sync {
    fn game_name(&self) -> &'static str;
    fn seats(&self) -> u8;
    /// Applies a command; for a game that deals at random, with a fresh secret
    /// of the operating system's random source on offer (see
    /// [`Table::apply_with`]).
    fn apply(&mut self, cmd: Command, now: Millis) -> Result<Vec<Event>, TableRefusal>;
    /// Applies a stored log entry (a replay), with the secret it dealt from.
    fn apply_entry(&mut self, entry: &LogEntry) -> Result<Vec<Event>, TableRefusal>;
    /// A spectator comes or goes: live only, nothing logged, no new version.
    fn watch(&mut self, user: &str) -> Result<Vec<Event>, TableRefusal>;
    fn unwatch(&mut self, user: &str) -> Result<Vec<Event>, TableRefusal>;
    fn is_watching(&self, user: &str) -> bool;
    fn spectator_count(&self) -> usize;
    fn version(&self) -> u64;
    fn log(&self) -> &[LogEntry];
    fn next_deadline(&self) -> Option<Millis>;
    fn state(&self) -> &State;
    fn config(&self) -> &TableConfig;
    fn seat_of(&self, user: &str) -> Option<Seat>;
    /// The table as `viewer` sees it, as JSON.
    fn view(&self, viewer: Viewer, now: Millis) -> Value;
    /// The current (or last) game's record.
    fn record(&self, meta: RecordMeta) -> Option<String>;
    /// The table itself, for code that knows its game (the computer players).
    fn as_any(&self) -> &dyn std::any::Any;
}

impl<G: Game> AnyTable for Table<G> {
    fn game_name(&self) -> &'static str {
        G::NAME
    }
    fn seats(&self) -> u8 {
        Table::seats(self)
    }
    fn apply(&mut self, cmd: Command, now: Millis) -> Result<Vec<Event>, TableRefusal> {
        let secret = if G::RANDOM { fresh_secret() } else { None };
        Table::apply_with(self, cmd, now, secret)
    }
    fn apply_entry(&mut self, entry: &LogEntry) -> Result<Vec<Event>, TableRefusal> {
        Table::apply_entry(self, entry)
    }
    fn watch(&mut self, user: &str) -> Result<Vec<Event>, TableRefusal> {
        Table::watch(self, user)
    }
    fn unwatch(&mut self, user: &str) -> Result<Vec<Event>, TableRefusal> {
        Table::unwatch(self, user)
    }
    fn is_watching(&self, user: &str) -> bool {
        Table::spectators(self).any(|u| u == user)
    }
    fn spectator_count(&self) -> usize {
        Table::spectators(self).count()
    }
    fn version(&self) -> u64 {
        Table::version(self)
    }
    fn log(&self) -> &[LogEntry] {
        Table::log(self)
    }
    fn next_deadline(&self) -> Option<Millis> {
        Table::next_deadline(self)
    }
    fn state(&self) -> &State {
        Table::state(self)
    }
    fn config(&self) -> &TableConfig {
        Table::config(self)
    }
    fn seat_of(&self, user: &str) -> Option<Seat> {
        Table::seat_of(self, user)
    }
    fn view(&self, viewer: Viewer, now: Millis) -> Value {
        serde_json::to_value(Table::view(self, viewer, now)).unwrap_or(Value::Null)
    }
    fn record(&self, meta: RecordMeta) -> Option<String> {
        Table::record(self, meta)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// 32 bytes from the operating system's random source: each game's deal secret.
/// Should the source fail, there is none, and the game refuses to start (the
/// command is refused and changes nothing).
fn fresh_secret() -> Option<Secret> {
    use rand::RngCore;
    let mut bytes = [0u8; 32];
    match rand::rngs::OsRng.try_fill_bytes(&mut bytes) {
        Ok(()) => Some(Secret(bytes)),
        Err(err) => {
            tracing::error!("the operating system's random source failed: {err}");
            None
        }
    }
}

/// A new table of the named game.
pub fn new_table(game: &str, config: TableConfig) -> Result<Box<dyn AnyTable>, String> {
    fn make<G: Game>(config: TableConfig) -> Result<Box<dyn AnyTable>, String> {
        Ok(Box::new(Table::<G>::new(config)?))
    }
    match game {
        #[cfg(feature = "chess")]
        "chess" => make::<qiyuan_chess::ChessGame>(config),
        #[cfg(feature = "xiangqi")]
        "xiangqi" => make::<qiyuan_xiangqi::Xiangqi>(config),
        #[cfg(feature = "go")]
        "go" => make::<qiyuan_go::Go>(config),
        #[cfg(feature = "doudizhu")]
        "doudizhu" => make::<qiyuan_doudizhu::Doudizhu>(config),
        other => Err(format!(
            "unknown game {other:?}; this server hosts {}",
            GAMES.join(", ")
        )),
    }
}

/// Whether a game keeps information from some viewers (Doudizhu's hands): its
/// record, which shows everything, waits for the end.
pub fn hides_information(game: &str) -> bool {
    game == "doudizhu"
}

/// The file extension of a game's records.
pub fn record_extension(game: &str) -> &'static str {
    match game {
        "go" => "sgf",
        "doudizhu" => "json",
        _ => "pgn",
    }
}
