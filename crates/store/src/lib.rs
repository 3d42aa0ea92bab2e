//! qiyuan-store: persistence behind one trait, [`Store`], with two backends that
//! behave the same: SQLite (the default, one file in the data folder, WAL mode) and
//! PostgreSQL (selected by a `postgres://` URL).
//!
//! The store keeps accounts, sessions, ratings, games and each game's log: the list
//! of accepted table commands from which a live game is rebuilt after a restart. A
//! log entry is opaque text to the store; it knows nothing of games, tables, clocks
//! or sockets. Every write that the server acknowledges to a player has been
//! committed when the call returns.

mod backend;
mod beats;
mod chat;
mod duplicate;
mod events;
mod group;
mod invitations;
mod lease;
mod migrate;
mod relations;
mod types;

use std::sync::Arc;

use async_trait::async_trait;

pub use backend::{PostgresStore, SqliteStore};
pub use beats::BeatStore;
pub use chat::{ChatLineRow, ChatReportRow, ChatStore, NewChatLine, NewMute};
pub use duplicate::{DuplicateStore, EventBoardRow};
pub use events::*;
pub use group::{AppendPause, BATCH_SIZE_BOUNDS, WriterStats};
pub use invitations::{InvitationRow, InvitationStore, NewInvitation};
pub use lease::{Lease, LeaseStore};
pub use relations::{Blocked, Followed, Relation, RelationStore};
pub use types::*;

/// A failure of the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A unique key is taken: the username exists, the log version was written.
    #[error("already exists: {0}")]
    Conflict(String),
    /// The row the call refers to does not exist.
    #[error("not found: {0}")]
    NotFound(String),
    /// The database URL or options cannot be used.
    #[error("cannot use database {url}: {message}")]
    Config { url: String, message: String },
    /// A log append carried a fencing token that is not the table's lease's any
    /// more: another node owns the table now. Nothing was written.
    #[error("fenced out: {0}")]
    Fenced(String),
    /// The database failed or could not be reached.
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// A log append was written in one transaction with others (group commit) and
    /// that transaction failed: nothing of it was committed.
    #[error("the batch of log appends failed: {0}")]
    Batch(String),
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// Everything qiyuan keeps. Both backends implement it with the same behaviour; the
/// server holds an `Arc<dyn Store>`. Roles and Swiss events are [`EventStore`]'s,
/// follows and blocks [`RelationStore`]'s, nodes' heartbeats
/// [`BeatStore`]'s, table chat and its reports
/// [`ChatStore`]'s, invitations to tables [`InvitationStore`]'s, duplicate events'
/// boards [`DuplicateStore`]'s.
#[async_trait]
pub trait Store:
    EventStore
    + LeaseStore
    + BeatStore
    + RelationStore
    + ChatStore
    + InvitationStore
    + DuplicateStore
    + Send
    + Sync
    + 'static
{
    /// The backend's name, `sqlite` or `postgres`, for logs.
    fn backend(&self) -> &'static str;

    /// What the group writer of the table log has done since the store opened
    /// (its batches, their sizes and write time), for `/metrics`.
    fn writer_stats(&self) -> WriterStats;
    /// Whether a game's row written right behind its entry's append
    /// ([`Store::start_game_after`]) goes through the same writer and so
    /// finds the entry committed: SQLite's (one writer for every write);
    /// not PostgreSQL's, whose game rows go to a pooled connection.
    fn game_rows_follow_entries(&self) -> bool;

    // ---- accounts ----

    /// Creates an account or a guest. A username whose [`username_key`] or
    /// [`username_skeleton`] is taken is a [`StoreError::Conflict`].
    async fn create_user(&self, user: NewUser) -> Result<User>;
    async fn user(&self, id: UserId) -> Result<Option<User>>;
    async fn user_by_name(&self, username: &str) -> Result<Option<User>>;

    /// Records a session for a user, valid until `expires_at`. The server passes
    /// the SHA-256 of the token, never the token: a backup holds no live login.
    async fn create_session(
        &self,
        token_hash: &str,
        user: UserId,
        now: i64,
        expires_at: i64,
    ) -> Result<()>;
    /// The user whose session `token_hash` is, if it exists and has not expired at
    /// `now`, and the user is not banned (role `banned`): a ban refuses every
    /// token at once, whichever process granted it.
    async fn session_user(&self, token_hash: &str, now: i64) -> Result<Option<User>>;
    /// When the session `token_hash` expires, if it exists.
    async fn session_expires_at(&self, token_hash: &str) -> Result<Option<i64>>;
    async fn delete_session(&self, token_hash: &str) -> Result<()>;
    /// Ends every session of a user ("log out everywhere"); returns how many.
    async fn delete_user_sessions(&self, user: UserId) -> Result<u64>;
    /// Forgets the sessions expired at `now`; returns how many.
    async fn delete_expired_sessions(&self, now: i64) -> Result<u64>;

    // ---- ratings ----

    /// All of a user's ratings, one per pool.
    async fn ratings(&self, user: UserId) -> Result<Vec<RatingRow>>;
    async fn rating(&self, user: UserId, pool: &str) -> Result<Option<RatingRow>>;

    // ---- points (积分) ----

    /// A user's points for life in `game`, if they played a hand that counted.
    async fn points(&self, user: UserId, game: &str) -> Result<Option<PointsRow>>;
    /// The `limit` users with the most points in `game`, most first (ties: more
    /// hands first, then the name).
    async fn points_leaderboard(&self, game: &str, limit: i64) -> Result<Vec<PointsRow>>;

    // ---- client settings ----

    /// An account's client settings as the client wrote them (a JSON object), if
    /// it saved any.
    async fn user_settings(&self, user: UserId) -> Result<Option<String>>;
    /// Replaces an account's client settings.
    async fn set_user_settings(&self, user: UserId, settings: &str, now: i64) -> Result<()>;

    // ---- tables and games ----

    /// Creates a table with an id chosen by the caller.
    async fn create_table(&self, table: &TableRow) -> Result<()>;
    async fn table(&self, id: &str) -> Result<Option<TableRow>>;
    /// The open tables: those to rebuild after a restart.
    async fn open_tables(&self) -> Result<Vec<TableRow>>;
    /// Marks a table closed: it is not rebuilt any more.
    async fn close_table(&self, id: &str) -> Result<()>;

    /// Records a started game and who sits where. Recording the same game again
    /// (after a restart replayed its start) changes nothing.
    async fn start_game(&self, game: &NewGame) -> Result<()>;
    /// [`Store::start_game`], made only if the table's log holds `after` (the
    /// entry that started the game) when the write runs; false, writing
    /// nothing, if it does not. A table sends its start entry's append and
    /// this write to the group writer together, the append first: the
    /// writer commits a batch's appends before its other writes, so the
    /// game's row waits for no second batch, and is never stored for an
    /// entry that was not.
    async fn start_game_after(&self, game: &NewGame, after: &LogMark) -> Result<bool>;
    async fn game(&self, id: &str) -> Result<Option<GameRow>>;
    /// A table's games, in order.
    async fn games_of_table(&self, table: &str) -> Result<Vec<GameRow>>;
    /// A user's games, newest first, without private ones ([`NewGame::private`]).
    async fn games_of_user(&self, user: UserId, limit: i64) -> Result<Vec<GameRow>>;
    /// How many games [`Store::games_of_user`] lists without a limit: a
    /// `count(*)`, no row read.
    async fn count_games_of_user(&self, user: UserId) -> Result<i64>;
    /// Finishes a live game: its result, record, the players' rating changes,
    /// their new ratings and the points to add to theirs, in one transaction. Returns false, changing nothing, if
    /// the game was already finished (a restart replaying the end).
    async fn finish_game(&self, finish: &Finish) -> Result<bool>;
    /// [`Store::finish_game`], made only if the table's log holds `after`
    /// (the entry that ended the game) when the write runs, as
    /// [`Store::start_game_after`]; `None`, writing nothing, if it does not.
    async fn finish_game_after(&self, finish: &Finish, after: &LogMark) -> Result<Option<bool>>;
    /// Amends a finished game (an arbiter's correction, an event's headers):
    /// replaces its result and record and, where given, its players' rating
    /// changes and their ratings now (`points` are not used), in one
    /// transaction. Returns false, changing nothing, if the game is not
    /// finished.
    async fn amend_game(&self, amend: &Finish) -> Result<bool>;

    // ---- the table log ----

    /// Appends entry `version` (1, 2, ...) to a table's log. Writing a version that
    /// exists is a [`StoreError::Conflict`] and changes nothing, so two writers can
    /// never both believe they extended the log. Appends are group-committed: the
    /// ones waiting together share one transaction, and the call returns once it is
    /// committed; if it fails, every append in it fails ([`StoreError::Batch`]).
    async fn append(&self, table: &str, version: i64, at: i64, entry: &str) -> Result<()>;
    /// The log entries after `after` (0 for all), in order.
    async fn log(&self, table: &str, after: i64) -> Result<Vec<LogEntry>>;

    // ---- API tokens and bot accounts (the Lichess-compatible API) ----

    /// Stores a personal API token by its hash. A taken hash or id is a
    /// [`StoreError::Conflict`].
    async fn create_api_token(&self, token: &NewApiToken) -> Result<()>;
    /// The token with this hash and its user, unless the user is banned (as
    /// [`Store::session_user`]).
    async fn api_token(&self, token_hash: &str) -> Result<Option<(ApiTokenRow, User)>>;
    /// A user's tokens, newest first.
    async fn api_tokens_of(&self, user: UserId) -> Result<Vec<ApiTokenRow>>;
    /// Deletes a user's token by its id; the hash it had, if it existed.
    async fn delete_api_token(&self, user: UserId, id: &str) -> Result<Option<String>>;
    /// Marks an account as a bot account (for life); false if it already was.
    async fn make_bot(&self, user: UserId, now: i64) -> Result<bool>;
    async fn is_bot(&self, user: UserId) -> Result<bool>;
}

/// Opens the store a URL names: `sqlite://PATH` (or a plain path) or
/// `postgres://...`, and brings its schema up to date.
///
/// A PostgreSQL URL may carry `schema=NAME` among its query parameters: the store
/// then lives in that schema (created if missing), which lets tests and several
/// installations share one database.
pub async fn open(url: &str) -> Result<Arc<dyn Store>> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Ok(Arc::new(PostgresStore::open(url).await?))
    } else {
        Ok(Arc::new(SqliteStore::open(url).await?))
    }
}
