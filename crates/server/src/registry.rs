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

mod computer;
pub mod replay;
mod study;

pub use study::Study;

use std::marker::PhantomData;
use std::sync::Arc;

use qiyuan_game::{Game, GamePhase, RecordMeta, Seat, Secret, Turn, Viewer};
use qiyuan_table::{
    ActionRecord, Command, Event, LogEntry, Millis, MoveView, Preset, Rewritten, Speed, State,
    Table, TableConfig, TableRefusal, TableView, TimeControl,
};
use serde::Serialize;
use serde_json::Value;

use crate::bots::{Ask, BotLevel, Decision, Thought};
use crate::engines::{EnginePosition, Protocol};
use crate::protocol::flat::Flat;

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
    /// board: a [`crate::analysis::Line`] after each finished iteration, scored
    /// from the first seat's side, within `budget`.
    fn analyse(
        _view: &G::View,
        _budget: &crate::analysis::Budget,
        _report: &mut dyn FnMut(crate::analysis::Line),
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
trait SeatView: Send {
    fn think(&self, ask: &Ask) -> Option<Thought>;
    fn engine_position(&self, protocol: Protocol) -> Option<EnginePosition>;
}

struct ViewOf<G: Game, B> {
    view: G::View,
    seat: Seat,
    bots: PhantomData<fn() -> B>,
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
    view: Box<dyn SeatView>,
    legal: Vec<String>,
    /// Whether the seat must act now (its turn alone), rather than may (Go's
    /// marking, where every seat acts).
    must: bool,
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
) -> Result<Box<dyn Study>, crate::analysis::StudyError>;
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
    ) -> Result<Box<dyn Study>, crate::analysis::StudyError> {
        (self.study)(options, setup, moves)
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

/// The games one server hosts, in the order the clients list them.
#[derive(Debug, Clone)]
pub struct Games(Arc<Vec<Descriptor>>);

impl Default for Games {
    fn default() -> Self {
        Games::builtin()
    }
}

impl Games {
    /// The games compiled into this server (one cargo feature each).
    pub fn builtin() -> Self {
        let games: Vec<Descriptor> = vec![
            #[cfg(feature = "chess")]
            builtin::chess(),
            #[cfg(feature = "xiangqi")]
            builtin::xiangqi(),
            #[cfg(feature = "go")]
            builtin::go(),
            #[cfg(feature = "doudizhu")]
            builtin::doudizhu(),
        ];
        Games(Arc::new(games))
    }

    /// These games and one more (a game of the same name is replaced).
    pub fn with(self, game: Descriptor) -> Self {
        let mut games: Vec<Descriptor> = self
            .0
            .iter()
            .filter(|g| g.name != game.name)
            .cloned()
            .collect();
        games.push(game);
        Games(Arc::new(games))
    }

    /// These games with the operator's external engines' levels added to the
    /// games they play. An engine may play only a hosted game with built-in
    /// computer players (they stand in when the engine fails).
    pub fn with_engines(self, engines: &[crate::engines::EngineConfig]) -> anyhow::Result<Self> {
        let mut games: Vec<Descriptor> = self.0.as_ref().clone();
        for e in engines {
            for g in &e.games {
                let Some(d) = games.iter().find(|d| d.name == g.as_str()) else {
                    anyhow::bail!("engines: {} plays {g:?}, which is not hosted here", e.name);
                };
                if d.bot_levels.is_empty() {
                    anyhow::bail!(
                        "engines: {} plays {g}, which has no built-in computer players to stand in for it",
                        e.name
                    );
                }
            }
        }
        for d in &mut games {
            for level in crate::engines::Engines::levels_for(engines, d.name) {
                d.bots.push(level.key.to_string());
                d.bot_levels.push(level);
            }
        }
        Ok(Games(Arc::new(games)))
    }

    /// The descriptor of the game called `name`, if it is hosted here.
    pub fn get(&self, name: &str) -> Option<&Descriptor> {
        self.0.iter().find(|g| g.name == name)
    }

    /// The descriptor of `name`, or a message naming the games hosted here.
    pub fn find(&self, name: &str) -> Result<&Descriptor, String> {
        self.get(name).ok_or_else(|| {
            format!(
                "unknown game {name:?}; this server hosts {}",
                self.names().join(", ")
            )
        })
    }

    pub fn names(&self) -> Vec<&'static str> {
        self.0.iter().map(|g| g.name).collect()
    }

    pub fn all(&self) -> &[Descriptor] {
        &self.0
    }

    /// A new table of the named game.
    pub fn new_table(&self, game: &str, config: TableConfig) -> Result<Box<dyn AnyTable>, String> {
        self.find(game)?.new_table(config)
    }
}

/// The built-in games' entries.
mod builtin {
    #[allow(unused_imports)]
    use super::computer::*;
    #[allow(unused_imports)]
    use super::*;

    #[cfg(feature = "chess")]
    pub fn chess() -> Descriptor {
        Descriptor::new::<qiyuan_chess::ChessGame, ChessBots>(2)
            .label("国际象棋", "Chess", "♞")
            .seat_names(&["white", "black"])
            .presets(vec![
                TimePreset::of(Preset::Quick),
                TimePreset::of(Preset::Match),
                TimePreset::of(Preset::Bullet),
                TimePreset::of(Preset::Blitz),
                TimePreset::of(Preset::Rapid),
                TimePreset::of(Preset::Classical),
                TimePreset::of(Preset::Correspondence),
            ])
            .rating_pools(RatingPools::BySpeed)
            .api_variant(ApiVariant {
                key: "standard",
                name: "Standard",
                short: "Std",
                rank_offset: 0,
            })
    }

    #[cfg(feature = "xiangqi")]
    pub fn xiangqi() -> Descriptor {
        Descriptor::new::<qiyuan_xiangqi::Xiangqi, XiangqiBots>(2)
            .label("中国象棋", "Xiangqi", "帥")
            .seat_names(&["red", "black"])
            .notation("wxf", super::replay::xiangqi_wxf)
            .api_variant(ApiVariant {
                key: "xiangqi",
                name: "Xiangqi",
                short: "Xiangqi",
                rank_offset: 1,
            })
            .presets(vec![
                TimePreset::of(Preset::Quick),
                TimePreset::of(Preset::Match),
                TimePreset::of(Preset::Blitz),
                TimePreset::of(Preset::Rapid),
                TimePreset::of(Preset::Classical),
                TimePreset::of(Preset::Correspondence),
            ])
    }

    /// Go's quick and match modes are byo-yomi (QQ围棋 counts 3 periods of 30 s,
    /// or of 60 s in match mode).
    #[cfg(feature = "go")]
    pub fn go() -> Descriptor {
        let size = |key: &'static str, label: &'static str, size: u8| OptionPreset {
            key,
            zh: label,
            en: label,
            options: serde_json::json!({ "size": size, "komi": 7.5, "handicap": 0 }),
        };
        Descriptor::new::<qiyuan_go::Go, GoBots>(2)
            .label("围棋", "Go", "●")
            .seat_names(&["black", "white"])
            .option_presets(
                "棋盘",
                "Board",
                vec![
                    size("9", "9×9", 9),
                    size("13", "13×13", 13),
                    size("19", "19×19", 19),
                ],
            )
            .record(RecordFormat::SGF)
            .presets(vec![
                TimePreset::new(
                    "quick",
                    "快棋 读秒",
                    "Quick byo-yomi",
                    TimeControl::byo_yomi(10, 3, 30),
                ),
                TimePreset::new(
                    "match",
                    "比赛 读秒",
                    "Match byo-yomi",
                    TimeControl::byo_yomi(60, 3, 60),
                ),
                TimePreset::new(
                    "byo_yomi_fast",
                    "日本读秒 快",
                    "Byo-yomi fast",
                    Preset::ByoYomiFast.control(),
                ),
                TimePreset::new(
                    "byo_yomi_normal",
                    "日本读秒",
                    "Byo-yomi",
                    Preset::ByoYomiNormal.control(),
                ),
                TimePreset::new(
                    "byo_yomi_slow",
                    "日本读秒 慢",
                    "Byo-yomi slow",
                    Preset::ByoYomiSlow.control(),
                ),
                TimePreset::new(
                    "canadian",
                    "加拿大读秒",
                    "Canadian",
                    Preset::CanadianClub.control(),
                ),
                TimePreset::new(
                    "fischer",
                    "费舍尔 10+5",
                    "Fischer 10+5",
                    Preset::Rapid.control(),
                ),
                TimePreset::new("qq", "QQ 30/5/3", "QQ 30/5/3", Preset::Match.control()),
                TimePreset::new(
                    "correspondence",
                    "通讯棋 3天",
                    "Correspondence 3 days",
                    Preset::Correspondence.control(),
                ),
                TimePreset::new("none", "不限时", "No clock", TimeControl::None),
            ])
    }

    /// Doudizhu is played on a per-turn timer only.
    #[cfg(feature = "doudizhu")]
    pub fn doudizhu() -> Descriptor {
        const SECOND: Millis = 1_000;
        let per_turn = |s: Millis| TimeControl::Qq {
            game: 0,
            per_move: 0,
            countdown: s * SECOND,
        };
        Descriptor::new::<qiyuan_doudizhu::Doudizhu, DoudizhuBots>(3)
            .label("斗地主", "Doudizhu", "♠")
            .record(RecordFormat::JSON)
            .hides_information()
            .trusteeship()
            .points_titles(qiyuan_doudizhu::titles::title)
            .presets(vec![
                TimePreset::new("quick", "快速 每手20秒", "Quick, 20 s a turn", per_turn(20)),
                TimePreset::new("match", "比赛 每手30秒", "Match, 30 s a turn", per_turn(30)),
                TimePreset::new("none", "不限时", "No clock", TimeControl::None),
            ])
    }
}

fn make<G, B>(
    config: TableConfig,
    log: &[LogEntry],
    each: &mut dyn FnMut(usize, Vec<Event>),
) -> Result<Box<dyn AnyTable>, String>
where
    G: Game,
    G::View: Send + 'static,
    B: ComputerPlayers<G>,
{
    Ok(Box::new(Hosted::<G, B> {
        table: Table::replay_with(config, log, each).map_err(|e| match e {
            // A new table's refusal reads as before: the config's own message.
            qiyuan_table::ReplayError::Config(message) => message.to_string(),
            refused => refused.to_string(),
        })?,
        moves: Default::default(),
        bots: PhantomData,
    }))
}

/// A table of any game, as the live task drives it.
pub trait AnyTable: Send + Sync {
    fn game_name(&self) -> &'static str;
    fn seats(&self) -> u8;
    /// Applies a command; for a game that deals at random, with a fresh secret
    /// of the operating system's random source on offer (see
    /// [`Table::apply_with`]).
    fn apply(&mut self, cmd: Command, now: Millis) -> Result<Vec<Event>, TableRefusal>;
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
    /// The same view as JSON text (its keys in the typed view's order), each
    /// seat's `lag_ms` filled in from `lags`: what a `sync` sends.
    fn view_text(&self, viewer: Viewer, now: Millis, lags: &[Option<Millis>]) -> String;
    /// [`AnyTable::view_text`] for several viewers at once, in their order, and
    /// indexed, but each without the move list (its `game.moves` is empty):
    /// what the fan-out diffs. What every viewer sees alike is built and
    /// written once (the first viewer's view is written whole, each other's is
    /// the one before with the parts that differ written anew). Brings the
    /// move list the fan-out patches apart up to date ([`AnyTable::moves_at`]).
    fn flat_views(&self, viewers: &[Viewer], now: Millis, lags: &[Option<Millis>]) -> Vec<Flat>;
    /// Where the move list was when [`AnyTable::flat_views`] last took the views.
    fn moves_at(&self) -> MovesAt;
    /// Appends to `out` (after a comma if `comma`) the patch operations that
    /// turn the move list a client holds at `from` into the list at
    /// [`AnyTable::moves_at`]; whether it wrote any.
    fn moves_patch(&self, from: MovesAt, comma: bool, out: &mut String) -> bool;
    /// The current (or last) game's record.
    fn record(&self, meta: RecordMeta) -> Option<String>;
    /// The levels of the game's computer players (none: the game has none).
    fn bot_levels(&self) -> &'static [BotLevel];
    /// If a game is being played and `seat` is to act (alone, or with others as
    /// in Go's marking), the choice of a computer player at that seat, made from
    /// that seat's view only.
    fn bot_choice(&self, seat: Seat) -> Option<BotChoice>;
}

/// `view`'s text and index made from `before`, the same view as another viewer
/// saw it: `before` with the parts `rewritten` names written anew, and only
/// those read. `None` if one of them cannot be found in it (then the view is
/// written whole).
fn respliced<G: Game>(
    before: &Flat,
    view: &TableView<G::View>,
    rewritten: Rewritten,
) -> Option<Flat> {
    let mut parts: Vec<(&[&str], Flat)> = Vec::with_capacity(2);
    if rewritten.you {
        parts.push((&["you"], Flat::of_value(&view.you, 256)));
    }
    let member;
    if let Some(game) = &view.game {
        if rewritten.claims {
            parts.push((&["game", "claims"], Flat::of_value(&game.claims, 256)));
        }
        if rewritten.board {
            // Only the member the game rewrites for another viewer, where it
            // names one (chess: the claims, not the board's legal moves).
            match G::view_again_member(&game.board) {
                Some((key, text)) => {
                    member = ["game", "board", key];
                    parts.push((&member, Flat::new(text)));
                }
                None => parts.push((&["game", "board"], Flat::of_value(&game.board, 256))),
            }
        }
    }
    if rewritten.preview {
        parts.push((&["preview"], Flat::of_value(&view.preview, 256)));
    }
    let parts: Vec<(&[&str], &Flat)> = parts.iter().map(|(path, part)| (*path, part)).collect();
    before.replaced(&parts)
}

/// Where a client's copy of a table's move list (`game.moves`) is: the list as
/// it was after the table's `cuts`th cut (a takeback, a new game), `len` items
/// long. The fan-out keeps one per socket and patches the list from it
/// ([`AnyTable::moves_patch`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MovesAt {
    cuts: u64,
    len: usize,
}

impl MovesAt {
    /// The same list emptied: what a client holds after a view whose `game`
    /// was set whole (its list is left out of the views the fan-out diffs).
    pub fn emptied(self) -> MovesAt {
        MovesAt { len: 0, ..self }
    }
}

/// How many of the latest cuts a move list remembers: a client further behind
/// gets the whole list.
const REMEMBERED_CUTS: usize = 8;

/// The current game's move list (`game.moves` of a view) as indexed JSON
/// text, kept from one change to the next: a move writes its own item and
/// appends it. The views the fan-out diffs leave the list out (their
/// `game.moves` is empty), and each client gets the items after those it has
/// (or a cut back first), written from this text: at move 80 the list was
/// most of a chess view's text, copied into every view and compared again in
/// every patch. A takeback or a new game cuts the items that no longer match.
struct MoveList {
    shown: Vec<MoveView>,
    flat: Flat,
    /// Where each item starts in `flat`'s text (empty if not known).
    starts: Vec<u32>,
    /// The table's count of cuts when the list was last brought up to date
    /// ([`Table::action_cuts`]): the same count, and the list needs only the
    /// actions after its own.
    table_cuts: Option<u64>,
    /// Cuts so far, and the latest few: (the cut's number, the items it kept).
    cuts: u64,
    recent: std::collections::VecDeque<(u64, usize)>,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList {
            shown: Vec::new(),
            flat: Flat::empty_array(),
            starts: Vec::new(),
            table_cuts: None,
            cuts: 0,
            recent: Default::default(),
        }
    }
}

impl MoveList {
    /// Brings the list up to `actions`, which the table has cut `table_cuts`
    /// times.
    fn update(&mut self, actions: &[ActionRecord], table_cuts: u64) {
        let same = if self.table_cuts == Some(table_cuts) && actions.len() >= self.shown.len() {
            self.shown.len()
        } else {
            self.shown
                .iter()
                .zip(actions)
                .take_while(|(shown, action)| shown.shows(action))
                .count()
        };
        self.table_cuts = Some(table_cuts);
        if same < self.shown.len() {
            self.cut(same);
        }
        self.shown.truncate(same);
        self.starts.truncate(same);
        let mut indexed = self.flat.truncate_items(same);
        let added: Vec<MoveView> = actions[same..].iter().map(MoveView::of).collect();
        if !added.is_empty() {
            let items: Vec<Flat> = added.iter().map(|m| Flat::of_value(m, 64)).collect();
            indexed = indexed && self.flat.push_items(&items, &mut self.starts);
            self.shown.extend(added);
        }
        if !indexed {
            // (Not seen: our own items always index.) Written whole; a list
            // that does not index either is sent whole (`array_ops_into`).
            self.cut(0);
            self.flat = Flat::of_value(&self.shown, 4096);
            self.starts.clear();
        }
    }

    fn cut(&mut self, kept: usize) {
        self.cuts += 1;
        if self.recent.len() == REMEMBERED_CUTS {
            self.recent.pop_front();
        }
        self.recent.push_back((self.cuts, kept));
    }

    fn at(&self) -> MovesAt {
        MovesAt {
            cuts: self.cuts,
            len: self.shown.len(),
        }
    }

    /// How many of the items a client holds at `from` are still the list's;
    /// `None` if a cut it missed is forgotten.
    fn kept(&self, from: MovesAt) -> Option<usize> {
        if from.cuts == self.cuts {
            return Some(from.len);
        }
        let missed = self.recent.iter().filter(|(n, _)| *n > from.cuts);
        if from.cuts > self.cuts || missed.clone().count() as u64 != self.cuts - from.cuts {
            return None;
        }
        Some(missed.map(|(_, kept)| *kept).fold(from.len, usize::min))
    }

    fn patch(&self, from: MovesAt, comma: bool, out: &mut String) -> bool {
        // `usize::MAX`: more than the list has, so it is set whole.
        let kept = self.kept(from).unwrap_or(usize::MAX);
        let start = self.starts.get(kept).copied();
        crate::protocol::flat::array_ops_into(
            r#""game","moves""#,
            &self.flat,
            kept,
            start,
            from.len,
            comma,
            out,
        )
    }
}

/// A table of game `G` whose computer players are `B`.
struct Hosted<G: Game, B> {
    table: Table<G>,
    /// The move list's text, for [`AnyTable::flat_views`] (taken only there,
    /// by the table's one task).
    moves: std::sync::Mutex<MoveList>,
    bots: PhantomData<fn() -> B>,
}

impl<G, B> AnyTable for Hosted<G, B>
where
    G: Game,
    G::View: Send + 'static,
    B: ComputerPlayers<G>,
{
    fn game_name(&self) -> &'static str {
        G::NAME
    }
    fn seats(&self) -> u8 {
        self.table.seats()
    }
    fn apply(&mut self, cmd: Command, now: Millis) -> Result<Vec<Event>, TableRefusal> {
        let secret = if G::RANDOM { fresh_secret() } else { None };
        self.table.apply_with(cmd, now, secret)
    }
    fn watch(&mut self, user: &str) -> Result<Vec<Event>, TableRefusal> {
        self.table.watch(user)
    }
    fn unwatch(&mut self, user: &str) -> Result<Vec<Event>, TableRefusal> {
        self.table.unwatch(user)
    }
    fn is_watching(&self, user: &str) -> bool {
        self.table.spectators().any(|u| u == user)
    }
    fn spectator_count(&self) -> usize {
        self.table.spectators().count()
    }
    fn version(&self) -> u64 {
        self.table.version()
    }
    fn log(&self) -> &[LogEntry] {
        self.table.log()
    }
    fn next_deadline(&self) -> Option<Millis> {
        self.table.next_deadline()
    }
    fn state(&self) -> &State {
        self.table.state()
    }
    fn config(&self) -> &TableConfig {
        self.table.config()
    }
    fn seat_of(&self, user: &str) -> Option<Seat> {
        self.table.seat_of(user)
    }
    fn view(&self, viewer: Viewer, now: Millis) -> Value {
        serde_json::to_value(self.table.view(viewer, now)).unwrap_or(Value::Null)
    }
    fn view_text(&self, viewer: Viewer, now: Millis, lags: &[Option<Millis>]) -> String {
        let mut view = self.table.view(viewer, now);
        for (seat, lag) in view.seats.iter_mut().zip(lags) {
            seat.lag_ms = *lag;
        }
        serde_json::to_string(&view).unwrap_or_else(|_| "null".into())
    }
    fn flat_views(&self, viewers: &[Viewer], now: Millis, lags: &[Option<Millis>]) -> Vec<Flat> {
        self.moves
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .update(self.table.actions(), self.table.action_cuts());
        let Some((&first, others)) = viewers.split_first() else {
            return Vec::new();
        };
        let mut view = self.table.view_without_moves(first, now);
        for (seat, lag) in view.seats.iter_mut().zip(lags) {
            seat.lag_ms = *lag;
        }
        let mut flats = Vec::with_capacity(viewers.len());
        flats.push(Flat::of_value(&view, 4096));
        for &viewer in others {
            let rewritten = self.table.view_again(&mut view, viewer);
            let before = flats.last().expect("the first view is there");
            let flat = respliced::<G>(before, &view, rewritten)
                .unwrap_or_else(|| Flat::of_value(&view, 4096));
            flats.push(flat);
        }
        flats
    }
    fn moves_at(&self) -> MovesAt {
        self.moves.lock().unwrap_or_else(|e| e.into_inner()).at()
    }
    fn moves_patch(&self, from: MovesAt, comma: bool, out: &mut String) -> bool {
        self.moves
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .patch(from, comma, out)
    }
    fn record(&self, meta: RecordMeta) -> Option<String> {
        self.table.record(meta)
    }
    fn bot_levels(&self) -> &'static [BotLevel] {
        B::LEVELS
    }
    fn bot_choice(&self, seat: Seat) -> Option<BotChoice> {
        if B::LEVELS.is_empty() {
            return None;
        }
        let game = self.table.game()?;
        let must = match game.turn() {
            Turn::Seat(s) if s == seat => true,
            Turn::All(seats) if seats.contains(&seat) => false,
            _ => return None,
        };
        Some(BotChoice {
            view: Box::new(ViewOf::<G, B> {
                view: game.view(Viewer::Seat(seat)),
                seat,
                bots: PhantomData,
            }),
            legal: game.legal_actions(seat),
            must,
        })
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Chess's views taken together when one seat may claim a draw and the
    /// other may not (the load generator's knight moves): the second view has
    /// the board's claims written anew, and is still that viewer's own.
    #[test]
    fn chess_views_with_one_seats_claim_are_each_viewers_own() {
        let games = Games::builtin();
        let chess = games.find("chess").expect("chess is built in");
        let mut config = TableConfig::casual(chess.default_time());
        config.settings.options = serde_json::json!({"repetition": "claim"});
        let mut table = chess.new_table(config).unwrap();
        for (seat, user) in ["ann", "bob"].into_iter().enumerate() {
            let sit = Command::Sit {
                user: user.into(),
                seat: Seat(seat as u8),
            };
            table.apply(sit, 1000).unwrap();
        }
        for user in ["ann", "bob"] {
            let ready = Command::Ready {
                user: user.into(),
                proposal: None,
            };
            table.apply(ready, 1000).unwrap();
        }
        let viewers = [
            Viewer::Seat(Seat(0)),
            Viewer::Seat(Seat(1)),
            Viewer::Spectator,
        ];
        let lags = [Some(20), None];
        let mut differed = 0;
        for ply in 0..40 {
            let act = Command::Act {
                user: ["ann", "bob"][ply % 2].into(),
                action: crate::bench::move_at(ply).into(),
                lag: 0,
            };
            let now = 1000 + 100 * ply as u64;
            table.apply(act, now).unwrap();
            for order in [viewers.to_vec(), viewers.iter().rev().copied().collect()] {
                let views = table.flat_views(&order, now, &lags);
                for (v, flat) in order.iter().zip(&views) {
                    let mut alone: Value =
                        serde_json::from_str(&table.view_text(*v, now, &lags)).unwrap();
                    alone["game"]["moves"] = Value::Array(Vec::new());
                    let read: Value = serde_json::from_str(flat.text()).unwrap();
                    assert_eq!(read, alone, "ply {ply}, {v:?}");
                    assert!(flat.index_is_fresh(), "ply {ply}, {v:?}");
                }
                let claims: Vec<Value> = views
                    .iter()
                    .map(|f| serde_json::from_str::<Value>(f.text()).unwrap())
                    .map(|v| v["game"]["board"]["claims"].clone())
                    .collect();
                if claims[0] != claims[1] {
                    differed += 1;
                }
            }
        }
        assert!(differed > 0, "a seat could claim while the other could not");
    }

    /// A move list's patches bring a client from wherever it is to the list
    /// now: the items after its own; a cut back first after a takeback or a
    /// new game; the whole list when it missed more cuts than are remembered.
    #[test]
    fn a_move_list_patches_a_client_from_where_it_is() {
        let record = |i: usize, tag: &str| ActionRecord {
            seat: Seat((i % 2) as u8),
            action: format!("{tag}{i}"),
            display: format!("{tag}{i}!"),
            at: i as u64,
            clock: Some(1000 - i as u64),
            periods: None,
        };
        let list = |n: usize, tag: &str| -> Vec<ActionRecord> {
            (0..n)
                .map(|i| record(i, if i < 3 { "a" } else { tag }))
                .collect()
        };
        let whole = |actions: &[ActionRecord]| -> Value {
            let moves: Vec<MoveView> = actions.iter().map(MoveView::of).collect();
            serde_json::json!({"game": {"moves": moves}})
        };
        // Patches `client` (at `from`) to the list now; the ops it took.
        let patch = |ml: &MoveList, from: MovesAt, client: &mut Value| -> Vec<String> {
            let mut text = String::from("[");
            ml.patch(from, false, &mut text);
            text.push(']');
            let ops: Vec<crate::protocol::patch::PatchOp> = serde_json::from_str(&text).unwrap();
            crate::protocol::patch::apply(client, &ops).unwrap();
            let ops: Vec<Value> = serde_json::from_str(&text).unwrap();
            ops.iter()
                .map(|op| op["op"].as_str().unwrap().to_string())
                .collect()
        };
        let mut ml = MoveList::default();
        let mut cuts = 0;
        let five = list(5, "a");
        ml.update(&five, cuts);
        let at_five = ml.at();
        let mut client = whole(&five);
        // Two moves more: pushed.
        let seven = list(7, "a");
        ml.update(&seven, cuts);
        assert_eq!(patch(&ml, at_five, &mut client), ["push"]);
        assert_eq!(client, whole(&seven));
        let at_seven = ml.at();
        // Back to the third move, and two other moves: cut to three, then pushed.
        cuts += 1;
        let other = list(5, "b");
        ml.update(&other, cuts);
        let mut behind = whole(&five);
        assert_eq!(patch(&ml, at_seven, &mut client), ["trunc", "push"]);
        assert_eq!(client, whole(&other));
        // From before both changes: the same.
        assert_eq!(patch(&ml, at_five, &mut behind), ["trunc", "push"]);
        assert_eq!(behind, whole(&other));
        // Up to date: nothing.
        let mut same = whole(&other);
        assert!(patch(&ml, ml.at(), &mut same).is_empty());
        // More cuts than remembered since: the whole list.
        let at_other = ml.at();
        for k in 0..=REMEMBERED_CUTS {
            cuts += 1;
            ml.update(&list(4 + k % 2, if k % 2 == 0 { "c" } else { "d" }), cuts);
        }
        let now: Vec<ActionRecord> = list(4 + REMEMBERED_CUTS % 2, "c");
        let mut far = whole(&other);
        assert_eq!(patch(&ml, at_other, &mut far), ["set"]);
        assert_eq!(far, whole(&now));
        // A table that says nothing was cut while the list is shorter: read
        // again item by item (a new list object for the same table).
        let mut fresh = MoveList::default();
        fresh.update(&seven, 0);
        let at = fresh.at();
        fresh.update(&list(2, "a"), 0);
        let mut client = whole(&seven);
        assert_eq!(patch(&fresh, at, &mut client), ["trunc"]);
        assert_eq!(client, whole(&list(2, "a")));
    }

    /// Every game's views taken together (one built, the others rewritten from
    /// it) are each viewer's own view, through a game played by the first
    /// legal actions: no viewer sees another's part (Doudizhu's hands, the
    /// claims, the seat).
    #[test]
    fn views_taken_together_are_each_viewers_own() {
        for g in Games::builtin().all() {
            let mut table = g
                .new_table(TableConfig::casual(g.default_time()))
                .unwrap_or_else(|e| panic!("{}: {e}", g.name));
            let users: Vec<String> = (0..g.seats).map(|i| format!("user{i}")).collect();
            let mut viewers: Vec<Viewer> = (0..g.seats).map(|i| Viewer::Seat(Seat(i))).collect();
            viewers.push(Viewer::Spectator);
            let lags: Vec<Option<Millis>> = (0..g.seats).map(|i| Some(10 * i as u64)).collect();
            // What each viewer's client holds, patched as the fan-out patches
            // it: its last view without the move list, where its list is,
            // and the whole view it has made of the patches.
            let mut held: Vec<Option<(Flat, Option<MovesAt>, Value)>> =
                viewers.iter().map(|_| None).collect();
            let mut check = |table: &dyn AnyTable, now: Millis, why: &str| {
                // In both orders, so that each viewer is once the first.
                for order in [viewers.clone(), viewers.iter().rev().copied().collect()] {
                    let together = table.flat_views(&order, now, &lags);
                    for (v, flat) in order.iter().zip(together) {
                        let whole = table.view_text(*v, now, &lags);
                        let mut full: Value = serde_json::from_str(&whole).unwrap();
                        // The viewer's own view, without its move list.
                        let mut alone = full.clone();
                        if alone["game"].is_object() {
                            alone["game"]["moves"] = Value::Array(Vec::new());
                        }
                        let flat_value: Value = serde_json::from_str(flat.text()).unwrap();
                        assert_eq!(flat_value, alone, "{} {why}, {v:?}", g.name);
                        assert!(flat.index_is_fresh(), "{} {why}, {v:?}", g.name);
                        // The patch from the view it held, and the list's
                        // apart, make the whole view.
                        let at = viewers.iter().position(|x| x == v).unwrap();
                        let game = flat.is_object_at(&["game"]);
                        let moves_now = table.moves_at();
                        if let Some((old, moves, client)) = held[at].as_mut() {
                            let mut text = String::from("[");
                            crate::protocol::flat::diff_into(old, &flat, &mut text);
                            if game {
                                let from = moves.unwrap_or(moves_now.emptied());
                                let comma = text.len() > 1;
                                table.moves_patch(from, comma, &mut text);
                            }
                            text.push(']');
                            let ops: Vec<crate::protocol::patch::PatchOp> =
                                serde_json::from_str(&text)
                                    .unwrap_or_else(|e| panic!("{e}: {text}"));
                            crate::protocol::patch::apply(client, &ops).unwrap_or_else(|e| {
                                panic!("{} {why}, {v:?}: {e:?} in {text}", g.name)
                            });
                            assert_eq!(*client, full, "{} {why}, {v:?}: {text}", g.name);
                        }
                        held[at] = Some((flat, game.then_some(moves_now), full.clone()));
                        // The full text a `sync` sends is the typed view.
                        for seat in full["seats"].as_array_mut().unwrap() {
                            seat["lag_ms"] = Value::Null;
                        }
                        assert_eq!(full, table.view(*v, now), "{} {why}, {v:?}", g.name);
                    }
                }
            };
            let mut now = 1000;
            check(&*table, now, "before anyone sits");
            for (i, user) in users.iter().enumerate() {
                let sit = Command::Sit {
                    user: user.clone(),
                    seat: Seat(i as u8),
                };
                table.apply(sit, now).expect("seated");
            }
            for user in &users {
                let ready = Command::Ready {
                    user: user.clone(),
                    proposal: None,
                };
                table.apply(ready, now).expect("ready");
            }
            let mut acted = 0;
            for step in 0..60 {
                now += 500;
                check(&*table, now, &format!("at step {step}"));
                let choice = (0..g.seats).find_map(|i| {
                    let c = table.bot_choice(Seat(i))?;
                    (c.must && !c.legal.is_empty()).then_some((i, c))
                });
                let Some((seat, choice)) = choice else { break };
                let act = Command::Act {
                    user: users[seat as usize].clone(),
                    action: choice.legal[step % choice.legal.len()].clone(),
                    lag: 0,
                };
                table.apply(act, now).expect("a legal action");
                acted += 1;
            }
            assert!(acted > 5, "{}: only {acted} actions", g.name);
            check(&*table, now + 10, "at the end");
            // The kept move list cut back: a takeback (where the game has
            // them), then a new game.
            let moves = |table: &dyn AnyTable| {
                table.view(Viewer::Spectator, now)["game"]["moves"]
                    .as_array()
                    .map_or(0, Vec::len)
            };
            let played = moves(&*table);
            for asker in &users {
                let _ = table.apply(
                    Command::RequestTakeback {
                        user: asker.clone(),
                    },
                    now,
                );
                for other in users.iter().filter(|u| *u != asker) {
                    let _ = table.apply(
                        Command::AcceptTakeback {
                            user: other.clone(),
                        },
                        now,
                    );
                }
            }
            if g.name == "chess" {
                assert!(moves(&*table) < played, "chess takes back");
            }
            check(&*table, now + 20, "after a takeback");
            let resigned = table.apply(
                Command::Resign {
                    user: users[0].clone(),
                },
                now + 30,
            );
            match resigned {
                Ok(_) => {}
                // A Doudizhu hand can end within the steps above, all of a
                // player's cards played (its deal is random): then there is no
                // game left to resign.
                Err(refusal)
                    if g.name == "doudizhu"
                        && refusal.kind == qiyuan_table::TableRefusalKind::NoGame => {}
                Err(refusal) => panic!("{}: resigned: {refusal:?}", g.name),
            }
            check(&*table, now + 40, "after the game");
            for user in &users {
                let ready = Command::Ready {
                    user: user.clone(),
                    proposal: None,
                };
                table.apply(ready, now + 50).expect("ready again");
            }
            assert_eq!(moves(&*table), 0, "{}: a new game", g.name);
            check(&*table, now + 60, "in the next game");
        }
    }

    #[test]
    fn every_preset_validates_and_keys_are_unique() {
        for g in Games::builtin().all() {
            assert!(!g.presets.is_empty(), "{} has presets", g.name);
            for (i, p) in g.presets.iter().enumerate() {
                assert_eq!(p.time.validate(), Ok(()), "{} {}", g.name, p.key);
                assert!(
                    g.presets[..i].iter().all(|q| q.key != p.key),
                    "{} {} twice",
                    g.name,
                    p.key
                );
            }
            assert_eq!(g.default_time(), g.presets[0].time);
        }
    }

    #[test]
    fn every_entry_makes_a_table_of_its_seat_count() {
        for g in Games::builtin().all() {
            let table = g
                .new_table(TableConfig::casual(g.default_time()))
                .unwrap_or_else(|e| panic!("{}: {e}", g.name));
            assert_eq!(table.seats(), g.seats, "{}", g.name);
            assert_eq!(table.game_name(), g.name);
            assert_eq!(table.bot_levels(), g.bot_levels.as_slice(), "{}", g.name);
            assert!(
                table.bot_levels().iter().all(|l| l.key != "weird"),
                "a made-up level is no game's"
            );
            let keys: Vec<String> = table
                .bot_levels()
                .iter()
                .map(|l| l.key.to_string())
                .collect();
            assert_eq!(keys, g.bots, "{}", g.name);
        }
    }

    #[test]
    fn every_entry_names_itself_and_its_option_presets_are_its_games() {
        for g in Games::builtin().all() {
            assert!(!g.zh.is_empty() && !g.en.is_empty() && !g.icon.is_empty());
            assert_ne!(g.zh, g.name, "{} has a Chinese name", g.name);
            let json = serde_json::to_value(g).unwrap();
            assert_eq!(json["zh"], g.zh);
            assert_eq!(json["en"], g.en);
            assert_eq!(json["icon"], g.icon);
            let Some(options) = &g.option_presets else {
                assert!(json["option_presets"].is_null());
                continue;
            };
            assert!(!options.presets.is_empty(), "{}", g.name);
            for (i, p) in options.presets.iter().enumerate() {
                assert!(options.presets[..i].iter().all(|q| q.key != p.key));
                // The game's own rules take them.
                let study = g
                    .study(&p.options, &qiyuan_game::Setup::Standard, &[])
                    .unwrap_or_else(|e| panic!("{} {}: {}", g.name, p.key, e.message));
                assert!(study.position().to_move.is_some());
                assert_eq!(json["option_presets"]["presets"][i]["options"], p.options);
            }
            // A bad value is refused by the same rules: the check can fail.
            let mut bad = options.presets[0].options.clone();
            if let Some(o) = bad.as_object_mut() {
                for v in o.values_mut() {
                    *v = Value::String("?".into());
                }
            }
            assert!(g.study(&bad, &qiyuan_game::Setup::Standard, &[]).is_err());
        }
    }

    #[cfg(all(feature = "go", feature = "chess"))]
    #[test]
    fn go_offers_its_board_sizes_and_chess_none() {
        let games = Games::builtin();
        let go = games.find("go").unwrap();
        let presets = &go.option_presets.as_ref().unwrap().presets;
        let keys: Vec<&str> = presets.iter().map(|p| p.key).collect();
        assert_eq!(keys, ["9", "13", "19"]);
        let study = go
            .study(&presets[0].options, &qiyuan_game::Setup::Standard, &[])
            .unwrap();
        assert_eq!(study.position().view["size"], 9);
        assert!(games.find("chess").unwrap().option_presets.is_none());
        assert_eq!(games.find("go").unwrap().en, "Go");
    }

    #[cfg(all(feature = "chess", feature = "xiangqi", feature = "go"))]
    #[test]
    fn the_api_variant_is_told_without_its_rank_offset() {
        let games = Games::builtin();
        let json = |name: &str| serde_json::to_value(games.find(name).unwrap()).unwrap();
        assert_eq!(json("chess")["api_variant"]["key"], "standard");
        assert_eq!(json("xiangqi")["api_variant"]["key"], "xiangqi");
        assert!(json("xiangqi")["api_variant"].get("rank_offset").is_none());
        assert!(json("go")["api_variant"].is_null());
    }

    #[cfg(feature = "chess")]
    #[test]
    fn a_wrong_seat_count_is_refused() {
        let mut chess = Games::builtin().find("chess").unwrap().clone();
        chess.seats = 3;
        let err = chess
            .new_table(TableConfig::casual(chess.default_time()))
            .err()
            .expect("refused");
        assert!(err.contains("3 seats"), "{err}");
    }

    #[cfg(all(feature = "chess", feature = "xiangqi"))]
    #[test]
    fn chess_pools_are_split_by_speed() {
        let games = Games::builtin();
        assert_eq!(
            games.find("chess").unwrap().pool(Speed::Blitz),
            "chess:blitz"
        );
        assert_eq!(games.find("xiangqi").unwrap().pool(Speed::Blitz), "xiangqi");
    }

    #[cfg(all(feature = "go", feature = "doudizhu", feature = "xiangqi"))]
    #[test]
    fn the_quick_presets_are_the_games_own() {
        let games = Games::builtin();
        assert_eq!(
            games.find("go").unwrap().default_time(),
            TimeControl::byo_yomi(10, 3, 30)
        );
        assert_eq!(
            games.find("doudizhu").unwrap().default_time(),
            TimeControl::Qq {
                game: 0,
                per_move: 0,
                countdown: 20_000
            }
        );
        assert_eq!(
            games.find("xiangqi").unwrap().default_time(),
            TimeControl::qq(10, 1, 30)
        );
    }
}
