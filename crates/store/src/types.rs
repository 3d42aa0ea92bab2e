//! The rows the store reads and writes. Those it reads map themselves from
//! their columns by name (`sqlx::FromRow`), one struct for both backends.

use serde::{Deserialize, Serialize};

pub type UserId = i64;

/// An account or a guest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct User {
    pub id: UserId,
    pub username: String,
    /// Guests play casual games only and have no password.
    pub guest: bool,
    #[serde(skip)]
    pub password_hash: Option<String>,
    pub created_at: i64,
}

#[derive(Debug, Clone)]
pub struct NewUser {
    pub username: String,
    pub password_hash: Option<String>,
    pub guest: bool,
    pub created_at: i64,
}

/// The key under which usernames are unique: case-insensitive, so that `Magnus`
/// and `magnus` are one name.
pub fn username_key(username: &str) -> String {
    username.to_lowercase()
}

/// The key under which usernames are unique by look (Unicode TS #39): the
/// confusable skeleton of the NFKC, lower-case name with its marks taken off,
/// so that Cyrillic `аdmin`, fullwidth `ａｄｍｉｎ`, `admin`, `adrnin` and
/// `admiń` are one name.
///
/// The marks are those that sit on a letter: after NFKD, every character of
/// a canonical combining class other than 0 — accents, cedillas, tone marks,
/// dakuten, Hebrew and Arabic points. A skeleton alone keeps them (`ń` is no
/// look-alike of `n` to TS #39), yet beside `admin` an `admiń` is one. Han
/// characters have none, so CJK names are as before; Indic vowel signs
/// (class 0) are letters of their own and stay.
pub fn username_skeleton(username: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    use unicode_normalization::char::canonical_combining_class;
    let folded: String = username.nfkc().collect::<String>().to_lowercase();
    let bare: String = folded
        .nfkd()
        .filter(|&c| canonical_combining_class(c) == 0)
        .collect();
    unicode_security::skeleton(&bare)
        .collect::<String>()
        .to_lowercase()
}

/// A Glicko-2 rating in one pool (`chess:blitz`, `xiangqi`, ...).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, sqlx::FromRow)]
pub struct RatingRow {
    pub user_id: UserId,
    pub pool: String,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: i64,
    pub updated_at: i64,
}

/// A table as the lobby created it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct TableRow {
    pub id: String,
    /// The game's name: `chess`, `xiangqi`, ...
    pub game: String,
    /// The table's configuration as JSON; opaque here.
    pub config: String,
    /// Open tables are rebuilt when the server starts.
    pub open: bool,
    pub created_at: i64,
}

/// Where a game is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameStatus {
    Live,
    Finished,
}

impl GameStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Live => "live",
            GameStatus::Finished => "finished",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "live" => Some(GameStatus::Live),
            "finished" => Some(GameStatus::Finished),
            _ => None,
        }
    }
}

/// A status is stored as its text ([`GameStatus::as_str`]).
impl<DB: sqlx::Database> sqlx::Type<DB> for GameStatus
where
    String: sqlx::Type<DB>,
{
    fn type_info() -> DB::TypeInfo {
        <String as sqlx::Type<DB>>::type_info()
    }

    fn compatible(ty: &DB::TypeInfo) -> bool {
        <String as sqlx::Type<DB>>::compatible(ty)
    }
}

/// A status read back: `live`, or else finished (the store writes no other).
impl<'r, DB: sqlx::Database> sqlx::Decode<'r, DB> for GameStatus
where
    String: sqlx::Decode<'r, DB>,
{
    fn decode(value: DB::ValueRef<'r>) -> Result<Self, sqlx::error::BoxDynError> {
        let text = <String as sqlx::Decode<'r, DB>>::decode(value)?;
        Ok(GameStatus::parse(&text).unwrap_or(GameStatus::Finished))
    }
}

/// A seated player of a started game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct Player {
    pub seat: i64,
    pub user_id: Option<UserId>,
    pub name: String,
    /// The rating at the start, where the game is rated.
    pub rating: Option<i64>,
    /// The rating change the game brought, once finished.
    pub rating_diff: Option<i64>,
}

/// A table's log entry as the write of a game's start or end names it
/// ([`crate::Store::start_game_after`], [`crate::Store::finish_game_after`]):
/// the entry whose commit started or ended the game, by its version and time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogMark {
    pub table: String,
    pub version: i64,
    pub at: i64,
}

/// A game that started at a table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NewGame {
    pub id: String,
    pub table_id: String,
    /// 1 for the table's first game, then rematches.
    pub number: i64,
    pub game: String,
    /// The agreed settings as JSON; opaque here.
    pub settings: String,
    pub rated: bool,
    pub started_at: i64,
    pub players: Vec<Player>,
    /// A private game (单机: a table of one user's alone): kept, and served by
    /// id to its owner, but in no list ([`crate::Store::games_of_user`]).
    #[serde(default)]
    pub private: bool,
}

/// A game as stored, with its players (read apart from the game's own row).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, sqlx::FromRow)]
pub struct GameRow {
    pub id: String,
    pub table_id: String,
    pub number: i64,
    pub game: String,
    pub settings: String,
    pub status: GameStatus,
    pub rated: bool,
    pub started_at: i64,
    pub ended_at: Option<i64>,
    /// The outcome as JSON, once finished.
    pub result: Option<String>,
    /// The record (PGN, ...), once finished.
    pub record: Option<String>,
    #[sqlx(skip)]
    pub players: Vec<Player>,
}

/// The end of a game, written at once.
#[derive(Debug, Clone)]
pub struct Finish {
    pub game_id: String,
    pub at: i64,
    pub result: String,
    pub record: String,
    /// Rating changes by seat.
    pub rating_diffs: Vec<(i64, i64)>,
    /// New ratings to store.
    pub ratings: Vec<RatingRow>,
    /// Points (积分) to add to the players' totals, one hand each.
    pub points: Vec<PointsChange>,
}

/// One player's points from one finished hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PointsChange {
    pub user_id: UserId,
    /// The game's name (`doudizhu`).
    pub game: String,
    pub diff: i64,
}

/// A user's points (积分) for life in one game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct PointsRow {
    pub user_id: UserId,
    pub username: String,
    pub game: String,
    pub points: i64,
    /// The hands that counted.
    pub hands: i64,
    pub updated_at: i64,
}

/// One entry of a table's log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct LogEntry {
    pub version: i64,
    #[sqlx(rename = "at_ms")]
    pub at: i64,
    pub entry: String,
}

/// A personal API token to store (its hash, never the token).
#[derive(Debug, Clone)]
pub struct NewApiToken {
    pub token_hash: String,
    pub id: String,
    pub user_id: UserId,
    pub description: String,
    /// Space-separated scopes.
    pub scopes: String,
    pub created_at: i64,
}

/// A stored API token, without its hash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct ApiTokenRow {
    pub id: String,
    #[serde(skip)]
    pub token_hash: String,
    pub user_id: UserId,
    pub description: String,
    pub scopes: String,
    pub created_at: i64,
}
