//! The server's configuration: defaults, then a TOML file, then the environment and
//! flags (applied by the `qiyuan serve` command on top of [`Config::load`]).

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use serde::Deserialize;

/// Everything the server can be told. Every field has a default, so an empty file
/// (or none) runs a club server on 127.0.0.1:8080 with SQLite in `./data`.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Where to listen for HTTP and WebSocket.
    pub listen: SocketAddr,
    /// The data folder: holds the SQLite database.
    pub data_dir: PathBuf,
    /// A database URL (`postgres://...`, `sqlite://...`); default: SQLite in the
    /// data folder.
    pub database: Option<String>,
    /// How long a player may be gone from a started game before losing by escape;
    /// unset: by speed (30 s bullet, 1 min blitz, 2 min rapid, 5 min classical).
    pub escape_grace_secs: Option<f64>,
    /// Time for each seat's first move before the game is aborted; unset: 30 s.
    pub first_move_secs: Option<f64>,
    /// A table with nobody connected and no game running closes after this long.
    pub idle_table_secs: f64,
    /// The largest WebSocket message accepted, in bytes.
    pub max_message_bytes: usize,
    /// Login attempts allowed per username and per address within a minute.
    pub login_attempts_per_minute: u32,
    /// How long a session lasts, in days.
    pub session_days: u32,
    /// Whether cookies carry the `Secure` flag (behind HTTPS).
    pub secure_cookies: bool,
    /// The site's name in records (PGN `Site`).
    pub site: String,
    /// How long a computer player "thinks" before it acts, in milliseconds.
    pub bot_think_ms: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            data_dir: PathBuf::from("data"),
            database: None,
            escape_grace_secs: None,
            first_move_secs: None,
            idle_table_secs: 600.0,
            max_message_bytes: 16 * 1024,
            login_attempts_per_minute: 10,
            session_days: 30,
            secure_cookies: false,
            site: "qiyuan".into(),
            bot_think_ms: 700,
        }
    }
}

impl Config {
    /// The defaults overlaid with a TOML file, if given.
    pub fn load(file: Option<&Path>) -> anyhow::Result<Config> {
        let Some(file) = file else {
            return Ok(Config::default());
        };
        let text = std::fs::read_to_string(file)
            .map_err(|e| anyhow::anyhow!("cannot read config file {}: {e}", file.display()))?;
        Config::parse(&text)
            .map_err(|e| anyhow::anyhow!("config file {} is not valid: {e}", file.display()))
    }

    /// The defaults overlaid with a configuration file's text (TOML).
    pub fn parse(text: &str) -> Result<Config, toml::de::Error> {
        toml::from_str(text)
    }

    /// The database URL to open: the configured one, or SQLite in the data folder.
    pub fn database_url(&self) -> String {
        match &self.database {
            Some(url) => url.clone(),
            None => self
                .data_dir
                .join("qiyuan.db")
                .to_string_lossy()
                .into_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_overrides_some_defaults() {
        let c: Config = toml::from_str("listen = \"0.0.0.0:9000\"\nescape_grace_secs = 5").unwrap();
        assert_eq!(c.listen.port(), 9000);
        assert_eq!(c.escape_grace_secs, Some(5.0));
        assert_eq!(c.max_message_bytes, Config::default().max_message_bytes);
        assert!(
            toml::from_str::<Config>("lisen = 1").is_err(),
            "typos are reported"
        );
    }
}
