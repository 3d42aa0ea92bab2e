//! The registry of games: one [`Descriptor`] per game the server hosts, and the
//! object-safe [`AnyTable`] the live table task drives for every game alike.
//!
//! A game is one registry entry: its name, seat count, the phases the client
//! shows, its record format, whether it hides information and deals from a
//! secret, its clock presets (the first is the default and what quick pairing
//! seeks), how its ratings are pooled, and its computer players. Nothing outside
//! this module matches on a game's name: the rest of the server asks the
//! descriptor (`app.games.get(name)`) or the table ([`AnyTable`]). The built-in
//! games are the compiled ones (one cargo feature each, see [`Games::builtin`]); a
//! further game is registered with [`Games::with`] and passed to
//! [`crate::start_with`].

mod choice;
mod computer;
mod games;
pub mod replay;
mod study;
mod table;

pub use choice::{BotChoice, ComputerPlayers, NoBots};
pub use games::Games;
pub use study::{Budget, Study, StudyError};
use table::make;
pub use table::{AnyTable, MovesAt};

use qiyuan_game::{Game, GamePhase, Seat};
use qiyuan_table::{Event, LogEntry, Preset, Speed, TableConfig, TimeControl};
use serde::Serialize;
use serde_json::Value;

use crate::bots::BotLevel;

/// A game's record format: the file extension of `/game/{id}.{ext}` and the
/// media type it is served as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct RecordFormat {
    pub extension: &'static str,
    pub mime: &'static str,
}

impl RecordFormat {
    /// PGN (chess, and xiangqi's PGN dialect).
    pub const PGN: RecordFormat = RecordFormat {
        extension: "pgn",
        mime: "application/x-chess-pgn; charset=utf-8",
    };
    /// SGF (Go).
    pub const SGF: RecordFormat = RecordFormat {
        extension: "sgf",
        mime: "application/x-go-sgf",
    };
    /// The game's own JSON (Doudizhu).
    pub const JSON: RecordFormat = RecordFormat {
        extension: "json",
        mime: "application/json",
    };
}

/// A clock preset a game offers, with its label in both languages.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct TimePreset {
    /// A short name, unique within the game (`quick`, `match`, `blitz`, ...).
    pub key: &'static str,
    pub zh: &'static str,
    pub en: &'static str,
    pub time: TimeControl,
}

impl TimePreset {
    pub const fn new(
        key: &'static str,
        zh: &'static str,
        en: &'static str,
        time: TimeControl,
    ) -> Self {
        TimePreset { key, zh, en, time }
    }

    /// One of the clock's own game-agnostic presets, with its labels.
    pub fn of(preset: Preset) -> Self {
        let (zh, en) = preset.label();
        TimePreset {
            key: preset.key(),
            zh,
            en,
            time: preset.control(),
        }
    }
}

/// How a game's ratings are pooled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum RatingPools {
    /// One pool for the game (`xiangqi`).
    One,
    /// One pool per speed class (`chess:blitz`): one player's bullet and
    /// classical strengths differ.
    BySpeed,
}

/// Builds a table of one game by replaying a log (empty: a new table), handing
/// each entry's index and events to the callback.
type MakeTable = fn(
    TableConfig,
    &[LogEntry],
    &mut dyn FnMut(usize, Vec<Event>),
) -> Result<Box<dyn AnyTable>, String>;

/// Replays one game of a table from the table's log (see [`replay`]).
type ReplayGame = fn(
    TableConfig,
    &[LogEntry],
    u32,
    bool,
    &[(&'static str, replay::Notation)],
) -> Result<Option<replay::GameReplay>, String>;
/// A game as the Lichess-compatible API names it: Lichess's variant (chess is
/// `standard`; xiangqi is pychess-variants' `xiangqi`), and how its UCI moves'
/// ranks differ from the game's canonical actions (xiangqi's ICCS counts ranks
/// 0–9, Fairy-Stockfish's UCI 1–10: `rank_offset` 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct ApiVariant {
    /// The challenge's `variant` (`standard`, `xiangqi`).
    pub key: &'static str,
    pub name: &'static str,
    pub short: &'static str,
    #[serde(skip)]
    #[ts(skip)]
    pub rank_offset: u8,
}

/// A choice of a game's table options that the quick forms offer (play the
/// computer, 单机's hot-seat), with its label in both languages: Go's board
/// sizes. The first is the forms' default.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct OptionPreset {
    /// Unique within the game (`9`, `13`, `19`).
    pub key: &'static str,
    pub zh: &'static str,
    pub en: &'static str,
    /// The table's options, as `create`, `play_computer` and `hotseat` take them.
    #[ts(type = "Record<string, unknown>")]
    pub options: Value,
}

/// The option presets of a game, and what the forms call the choice.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct OptionPresets {
    /// The choice's label (`棋盘`, `Board`).
    pub zh: &'static str,
    pub en: &'static str,
    pub presets: Vec<OptionPreset>,
}

/// Everything the server and its clients know of one game.
#[derive(Clone, Serialize, ts_rs::TS)]
pub struct Descriptor {
    /// The name the lobby, the protocol and the records use (the rules crate's
    /// `Game::NAME`).
    pub name: &'static str,
    /// The game's name as people read it, in Chinese and in English.
    pub zh: &'static str,
    pub en: &'static str,
    /// A glyph standing for the game on cards and lists (`♞`).
    pub icon: &'static str,
    pub seats: u8,
    /// The phases a client shows, in order: the game's own
    /// ([`Game::Phase`]), by name.
    #[ts(type = "Array<string>")]
    pub phases: Vec<&'static str>,
    /// The sides' names by seat (`white`, `black`), where the game has sides;
    /// `play_computer` takes them as colours.
    pub seat_names: Vec<&'static str>,
    pub record: RecordFormat,
    /// Whether some viewers are kept from some information (Doudizhu's hands):
    /// the record, which shows everything, waits for the end.
    pub hides_information: bool,
    /// Whether each game deals from a fresh secret (`Game::RANDOM`).
    pub secret_deal: bool,
    /// The clock presets offered; the first is the default and quick pairing's.
    pub presets: Vec<TimePreset>,
    pub rating_pools: RatingPools,
    /// The computer players' level keys; empty when the game has none.
    pub bots: Vec<String>,
    /// The computer players' levels with their names, the built-in ones first,
    /// then the operator's external engines' (see [`Games::with_engines`]).
    pub bot_levels: Vec<BotLevel>,
    /// 托管: the computer plays for a player whose time is running out or who is
    /// away, until they act again (see [`crate::bots`]), so that a timeout never
    /// ends the game.
    pub trusteeship: bool,
    /// Whether players keep points (积分) for life from the game's scored hands
    /// (`Outcome::points`), shown with a title on profiles and a leaderboard.
    pub points: bool,
    /// Whether the analysis board's engine analyses this game's positions.
    pub analysis: bool,
    /// The table options the quick forms choose among (none: the game's
    /// defaults, with nothing to choose).
    pub option_presets: Option<OptionPresets>,
    /// The title of a points total, where the game keeps points.
    #[serde(skip)]
    points_title: Option<fn(i64) -> &'static str>,
    /// How the Lichess-compatible API ([`crate::lichess`]) names the game, for
    /// the games it plays; `None`: not through that API.
    pub api_variant: Option<ApiVariant>,
    #[serde(skip)]
    make: MakeTable,
    #[serde(skip)]
    replay_game: ReplayGame,
    /// Further notations the replay viewer shows beside the game's display one.
    #[serde(skip)]
    notations: Vec<(&'static str, replay::Notation)>,
    #[serde(skip)]
    study: StudyFn,
    #[serde(skip)]
    load: LoadFn,
}

/// A position of one game for the analysis board (see [`study`]).
type StudyFn = fn(
    &Value,
    &qiyuan_game::Setup,
    &[String],
    &[(&'static str, replay::Notation)],
) -> Result<Box<dyn Study>, StudyError>;
/// A record's setup and moves (see [`Game::load`]).
type LoadFn = fn(&Value, &str) -> Result<(qiyuan_game::Setup, Vec<String>), String>;

impl std::fmt::Debug for Descriptor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Descriptor")
            .field("name", &self.name)
            .field("seats", &self.seats)
            .finish_non_exhaustive()
    }
}

impl Descriptor {
    /// The entry of game `G` with computer players `B` ([`NoBots`] for none):
    /// the game's phases, PGN records, nothing hidden, no presets, one
    /// rating pool; the builder methods below change these.
    pub fn new<G, B>(seats: u8) -> Self
    where
        G: Game,
        G::View: Send + 'static,
        B: ComputerPlayers<G>,
    {
        Descriptor {
            name: G::NAME,
            zh: G::NAME,
            en: G::NAME,
            icon: "◆",
            seats,
            phases: G::Phase::ALL.iter().map(|p| p.name()).collect(),
            seat_names: Vec::new(),
            record: RecordFormat::PGN,
            hides_information: false,
            secret_deal: G::RANDOM,
            presets: Vec::new(),
            rating_pools: RatingPools::One,
            bots: B::LEVELS.iter().map(|l| l.key.to_string()).collect(),
            bot_levels: B::LEVELS.to_vec(),
            trusteeship: false,
            points: false,
            analysis: B::ANALYSES,
            option_presets: None,
            points_title: None,
            api_variant: None,
            make: make::<G, B>,
            replay_game: replay::replay_game::<G>,
            notations: Vec::new(),
            study: study::study::<G, B>,
            load: study::load::<G>,
        }
    }

    /// The game's name in Chinese and in English, and its glyph.
    pub fn label(mut self, zh: &'static str, en: &'static str, icon: &'static str) -> Self {
        self.zh = zh;
        self.en = en;
        self.icon = icon;
        self
    }

    /// The table options the quick forms offer, under the label `zh`/`en`.
    pub fn option_presets(
        mut self,
        zh: &'static str,
        en: &'static str,
        presets: Vec<OptionPreset>,
    ) -> Self {
        self.option_presets = Some(OptionPresets { zh, en, presets });
        self
    }

    pub fn seat_names(mut self, names: &[&'static str]) -> Self {
        self.seat_names = names.to_vec();
        self
    }

    /// The seat of a side named `first`, `second`, or one of [`Self::seat_names`].
    pub fn seat_named(&self, name: &str) -> Option<Seat> {
        let i = match name {
            "first" => 0,
            "second" => 1,
            _ => self.seat_names.iter().position(|n| *n == name)?,
        };
        (i < self.seats as usize).then_some(Seat(i as u8))
    }

    /// Offers the game through the Lichess-compatible API under this variant.
    pub fn api_variant(mut self, variant: ApiVariant) -> Self {
        self.api_variant = Some(variant);
        self
    }

    pub fn record(mut self, record: RecordFormat) -> Self {
        self.record = record;
        self
    }

    /// The computer plays for players who time out or are away (托管).
    pub fn trusteeship(mut self) -> Self {
        self.trusteeship = true;
        self
    }

    pub fn hides_information(mut self) -> Self {
        self.hides_information = true;
        self
    }

    pub fn presets(mut self, presets: Vec<TimePreset>) -> Self {
        self.presets = presets;
        self
    }

    pub fn rating_pools(mut self, pools: RatingPools) -> Self {
        self.rating_pools = pools;
        self
    }

    /// Players keep points for life from this game's hands, titled by `title`.
    pub fn points_titles(mut self, title: fn(i64) -> &'static str) -> Self {
        self.points = true;
        self.points_title = Some(title);
        self
    }

    /// The title of a points total, where the game keeps points.
    pub fn points_title(&self, points: i64) -> Option<&'static str> {
        self.points_title.map(|title| title(points))
    }

    /// The position after `moves` from `setup` by the game's rules, for the
    /// analysis board (see [`crate::analysis`]).
    pub fn study(
        &self,
        options: &Value,
        setup: &qiyuan_game::Setup,
        moves: &[String],
    ) -> Result<Box<dyn Study>, StudyError> {
        (self.study)(options, setup, moves, &self.notations)
    }

    /// A record's setup and moves, read by the game (for a game's review).
    pub fn load_record(
        &self,
        options: &Value,
        record: &str,
    ) -> Result<(qiyuan_game::Setup, Vec<String>), String> {
        (self.load)(options, record)
    }

    /// A new table of this game. An entry whose seat count is not the game's
    /// makes none.
    pub fn new_table(&self, config: TableConfig) -> Result<Box<dyn AnyTable>, String> {
        self.replay(config, &[], &mut |_, _| {})
    }

    /// A table of this game rebuilt from its log ([`Table::replay_with`], the one
    /// replay: a restart and a rebuild after a store failure both go through it);
    /// `each` gets every entry's index and the events it gave.
    pub fn replay(
        &self,
        config: TableConfig,
        log: &[LogEntry],
        each: &mut dyn FnMut(usize, Vec<Event>),
    ) -> Result<Box<dyn AnyTable>, String> {
        let table = (self.make)(config, log, each)?;
        if table.seats() != self.seats {
            return Err(format!(
                "the registry gives {} {} seats; its game has {}",
                self.name,
                self.seats,
                table.seats()
            ));
        }
        Ok(table)
    }

    /// Shows a further notation of every action in the replay viewer.
    pub fn notation(mut self, name: &'static str, write: replay::Notation) -> Self {
        self.notations.push((name, write));
        self
    }

    /// Game `number` of a table rebuilt from its log, ply by ply, for the replay
    /// viewer; `None` when the log has no such game.
    pub fn replay_game(
        &self,
        config: TableConfig,
        log: &[LogEntry],
        number: u32,
    ) -> Result<Option<replay::GameReplay>, String> {
        (self.replay_game)(config, log, number, self.hides_information, &self.notations)
    }

    /// The time control a table gets when its creator names none, and the one
    /// quick pairing seeks: the first preset (no clock if there is none).
    pub fn default_time(&self) -> TimeControl {
        self.presets.first().map_or(TimeControl::None, |p| p.time)
    }

    /// The rating pool of a game played at `speed`.
    pub fn pool(&self, speed: Speed) -> String {
        match self.rating_pools {
            RatingPools::One => qiyuan_rating::pool(self.name, None),
            RatingPools::BySpeed => qiyuan_rating::pool(self.name, Some(speed.as_str())),
        }
    }
}
