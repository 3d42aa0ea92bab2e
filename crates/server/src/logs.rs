//! The server's logs: text for people or JSON for log collectors (one object per
//! line, the event's fields at the top level), and one line for each game that
//! starts and each that ends, under the target `qiyuan::game`.
//!
//! No secret is ever a field: the game lines name the table, the game, the players
//! and the result, never a deal secret (those stay in the store's log); sessions
//! and passwords are never logged; and a request's span names its path without the
//! query (a bearer client's `/ws?token=` stays out even at `debug`).
//!
//! No line shows what a socket carries, at any level: a frame may hold a
//! Doudizhu hand. Our own code logs a frame only by its type and length (`ws/mod.rs`,
//! at `trace`) and never a view, and the WebSocket crates,
//! which print every frame at `trace` (tungstenite's `writing frame`, in hex,
//! and `Sending frame`, as text), are held at `debug` whatever `RUST_LOG` asks
//! ([`QUIET`], a filter of its own beside the user's).
//!
//! In JSON mode every line the server writes is JSON, on both streams: the
//! address it serves on goes to stdout as an object ([`serving`]), its shutdown
//! to stderr ([`shutting_down`]), and a panic's message through the log.

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

/// The crates whose lines below `debug` print the frames a socket sends and
/// receives, whole: they are never shown below `debug`, whatever `RUST_LOG`
/// says (`trace`, `tungstenite=trace` and `tungstenite::protocol=trace` alike).
pub const QUIET: &[&str] = &["tungstenite", "tokio_tungstenite"];

/// The filter that holds [`QUIET`]'s crates at `debug` and lets everything
/// else through (to the user's filter).
fn quiet() -> tracing_subscriber::filter::Targets {
    use tracing_subscriber::filter::LevelFilter;
    QUIET.iter().fold(
        tracing_subscriber::filter::Targets::new().with_default(LevelFilter::TRACE),
        |targets, name| targets.with_target(*name, LevelFilter::DEBUG),
    )
}

/// The target of the lines written to stdout, which scripts read (the address
/// the server serves on): never on stderr, and shown whatever the filter says.
const STDOUT: &str = "qiyuan::stdout";

/// Logs to stderr in `format`, filtered by `RUST_LOG` or the given default
/// (`info`, or a filter such as `warn,qiyuan::game=info`), and by [`QUIET`].
pub fn init(default: &str, format: LogFormat) {
    use tracing_subscriber::filter::FilterExt;
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    use tracing_subscriber::{EnvFilter, Layer};
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new(default))
        .and(quiet());
    // Colours only for a terminal: not in a file or the journal.
    let layer = tracing_subscriber::fmt::layer()
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(std::io::stderr);
    let not_stdout = tracing_subscriber::filter::filter_fn(|m| m.target() != STDOUT);
    let filter = filter.and(not_stdout);
    let layers = match format {
        LogFormat::Text => vec![layer.with_filter(filter).boxed()],
        LogFormat::Json => {
            let stdout = tracing_subscriber::fmt::layer()
                .with_ansi(false)
                .with_writer(std::io::stdout)
                .json()
                .flatten_event(true)
                .with_current_span(false)
                .with_span_list(false)
                .with_filter(tracing_subscriber::filter::filter_fn(|m| {
                    m.target() == STDOUT
                }))
                .boxed();
            let stderr = layer
                .json()
                .flatten_event(true)
                .with_current_span(false)
                .with_span_list(false)
                .with_filter(filter)
                .boxed();
            // A panic's message is a log line too, not plain text on stderr.
            std::panic::set_hook(Box::new(|info| {
                tracing::error!(target: "qiyuan::panic", "{info}");
            }));
            vec![stdout, stderr]
        }
    };
    let _ = tracing_subscriber::registry().with(layers).try_init();
}

/// Says where the server serves, on stdout: a line of text, or in JSON mode an
/// object with the address (`{"message": "qiyuan is serving on …", "address": …}`).
pub fn serving(format: LogFormat, addr: std::net::SocketAddr) {
    let url = format!("http://{addr}");
    match format {
        LogFormat::Text => println!("qiyuan is serving on {url}"),
        LogFormat::Json => {
            tracing::info!(target: STDOUT, address = %url, "qiyuan is serving on {url}");
        }
    }
}

/// Says the server is shutting down, on stderr (a log line in JSON mode).
pub fn shutting_down(format: LogFormat) {
    match format {
        LogFormat::Text => eprintln!("qiyuan: shutting down"),
        LogFormat::Json => tracing::info!("qiyuan: shutting down"),
    }
}

/// A failure that stops the server, on stderr (a log line in JSON mode).
pub fn fatal(format: LogFormat, error: &dyn std::fmt::Display) {
    match format {
        LogFormat::Text => eprintln!("qiyuan: {error}"),
        LogFormat::Json => tracing::error!("qiyuan: {error}"),
    }
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
