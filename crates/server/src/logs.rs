//! The server's logs: text for people or JSON for log collectors (one object per
//! line, the event's fields at the top level), and one line for each game that
//! starts and each that ends, under the target `qiyuan::game`.
//!
//! No secret is ever a field: the game lines name the table, the game, the players
//! and the result, never a deal secret (those stay in the store's log); sessions
//! and passwords are never logged; and a request's span names its path without the
//! query (a bearer client's `/ws?token=` stays out even at `debug`).

use qiyuan_game::Outcome;
use serde::Serialize;

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LogFormat {
    /// `tracing`'s human-readable lines.
    #[default]
    Text,
    /// One JSON object per line.
    Json,
}

impl std::str::FromStr for LogFormat {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "text" => Ok(LogFormat::Text),
            "json" => Ok(LogFormat::Json),
            other => Err(format!("log format {other:?}: use text or json")),
        }
    }
}

/// Logs to stderr in `format`, filtered by `RUST_LOG` or the given default
/// (`info`, or a filter such as `warn,qiyuan::game=info`).
pub fn init(default: &str, format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    // Colours only for a terminal: not in a file or the journal.
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(std::io::stderr);
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder
            .json()
            .flatten_event(true)
            .with_current_span(false)
            .with_span_list(false)
            .try_init(),
    };
}

/// The span of one HTTP request: its method and path, never its query.
pub fn request_span<B>(req: &axum::http::Request<B>) -> tracing::Span {
    tracing::debug_span!(
        "request",
        method = %req.method(),
        path = %req.uri().path(),
        version = ?req.version(),
    )
}

/// A game started at `table`: its stored id, the game, the players by seat.
pub fn game_started(table: &str, game_id: &str, game: &str, players: &[String]) {
    tracing::info!(
        target: "qiyuan::game",
        table,
        game_id,
        game,
        players = %players.join(","),
        "game started"
    );
}

/// A game ended at `table`: the players by seat, each seat's result, the reason
/// and the score as the record writes it.
pub fn game_ended(table: &str, game_id: &str, game: &str, players: &[String], outcome: &Outcome) {
    let results: Vec<String> = outcome.results.iter().map(snake).collect();
    tracing::info!(
        target: "qiyuan::game",
        table,
        game_id,
        game,
        players = %players.join(","),
        results = %results.join(","),
        reason = %snake(&outcome.reason),
        score = %outcome.score,
        "game ended"
    );
}

/// A unit enum's name as the protocol writes it (its serde name).
fn snake<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(other) => other.to_string(),
        Err(_) => String::new(),
    }
}
