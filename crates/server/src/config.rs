//! The server's configuration: defaults, then a TOML file, then the environment and
//! flags (applied by the `qiyuan serve` command on top of [`Config::load`]).

use std::net::{IpAddr, SocketAddr};
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
    /// A table nobody sits at or watches, with no game running, closes after
    /// this long.
    pub empty_table_secs: f64,
    /// The largest WebSocket message accepted, in bytes.
    pub max_message_bytes: usize,
    /// Failed logins allowed for one username from one address within a minute;
    /// past it the address waits, longer each time (1 min, 2, 4, … up to 1 h). The
    /// owner logging in from another address is not slowed.
    pub login_attempts_per_minute: u32,
    /// Failed logins allowed from one address (any usernames) within a minute,
    /// with the same growing waits.
    pub login_failures_per_address: u32,
    /// Password hashes (argon2, about 19 MiB each) computed at once; logins and
    /// registrations beyond wait up to `hash_queue_ms`, then get `429 busy`.
    pub password_hashes_at_once: usize,
    /// How long a login or registration waits for a free password hasher.
    pub hash_queue_ms: u64,
    /// How long a session lasts, in days.
    pub session_days: u32,
    /// Whether cookies carry the `Secure` flag (the site is served over https).
    /// A trusted proxy saying `X-Forwarded-Proto: https` sets it too.
    pub secure_cookies: bool,
    /// Addresses (`10.0.0.1`) or networks (`10.0.0.0/8`, `::1/128`) of reverse
    /// proxies whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed. From
    /// any other peer those headers are ignored.
    pub trusted_proxies: Vec<String>,
    /// Origins (`https://example.org`) allowed besides the site's own (the
    /// request's `Host`) on `/ws` and on cookie-authenticated state changes.
    pub allowed_origins: Vec<String>,
    /// Concurrent connections (HTTP and WebSocket) from one client address; 0 =
    /// no cap.
    pub max_sockets_per_address: u32,
    /// Guests one address may create within an hour; 0 = no limit.
    pub guests_per_address_per_hour: u32,
    /// Accounts one address may register within an hour; 0 = no limit.
    pub registrations_per_address_per_hour: u32,
    /// A connection must send a request's headers within this many seconds of
    /// opening (or of its previous answer), else it is closed (slowloris).
    pub header_read_timeout_secs: f64,
    /// The most tables one lobby reply lists (`GET /api/lobby/{game}`,
    /// `lobby.subscribe`); more are paged.
    pub lobby_page_size: usize,
    /// The site's name in records (PGN `Site`).
    pub site: String,
    /// How long a computer player "thinks" before it acts, in milliseconds.
    pub bot_think_ms: u64,
    /// Engine searches (computer players' moves, analysis, reviews) running at
    /// once on the whole server; unset: the cores less one, at least one
    /// (see [`crate::compute`]).
    pub compute_threads: Option<usize>,
    /// Of those, how many one person (or address) may hold while others wait.
    pub compute_per_person: usize,
    /// The longest a computer player thinks about one move, whatever its
    /// level and clock, in milliseconds.
    pub bot_move_max_ms: u64,
    /// How many open tables one user may have created at which no game has
    /// started yet (more are refused with `too_many_tables`); 0: no cap.
    pub max_idle_tables_per_user: usize,
    /// How many live tables one person may hold at once, of every kind: the
    /// tables they sit at (against people or the computer, public, private or
    /// hot-seat, through the web or the API) and those they opened where no
    /// game has started yet; more are refused with `too_many_tables`. Counted
    /// on each node. 0: no cap.
    pub max_tables_per_user: usize,
    /// This node's name in `/metrics` (the `node` label); unset: the host's name.
    pub node_name: Option<String>,
    /// Addresses or networks that may read `GET /metrics` (behind a trusted proxy,
    /// the forwarded client address counts); default: loopback only.
    pub metrics_allow: Vec<String>,
    /// A bearer token that may read `/metrics` from any address; unset: none.
    pub metrics_token: Option<String>,
    /// How often the events' schedule is looked at, in milliseconds (pairing,
    /// the late-arrival check, results).
    pub event_tick_ms: u64,
    /// External engines serving as computer players (`[[engines]]`; see
    /// [`crate::engines`] and `docs/engines.md`).
    pub engines: Vec<crate::engines::EngineConfig>,
    /// The Lichess-compatible API (`[api]`; see [`crate::lichess`]).
    pub api: ApiConfig,
    /// Several nodes on one PostgreSQL and one Redis (`[cluster]`; see
    /// [`crate::cluster`]). Without a Redis URL the server is one node, as always.
    pub cluster: ClusterConfig,
    /// Table chat and its moderation (`[chat]`; see [`crate::chat`]).
    pub chat: ChatConfig,
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
            empty_table_secs: 10.0,
            event_tick_ms: 1000,
            max_message_bytes: 16 * 1024,
            login_attempts_per_minute: 10,
            login_failures_per_address: 30,
            password_hashes_at_once: 2,
            hash_queue_ms: 2_000,
            session_days: 30,
            secure_cookies: false,
            trusted_proxies: Vec::new(),
            allowed_origins: Vec::new(),
            max_sockets_per_address: 50,
            guests_per_address_per_hour: 60,
            registrations_per_address_per_hour: 20,
            header_read_timeout_secs: 5.0,
            lobby_page_size: 100,
            site: "qiyuan".into(),
            bot_think_ms: 700,
            compute_threads: None,
            compute_per_person: 1,
            bot_move_max_ms: 5_000,
            max_idle_tables_per_user: 5,
            max_tables_per_user: 10,
            node_name: None,
            metrics_allow: vec!["127.0.0.0/8".into(), "::1".into()],
            metrics_token: None,
            engines: Vec::new(),
            api: ApiConfig::default(),
            cluster: ClusterConfig::default(),
            chat: ChatConfig::default(),
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

    /// Refuses settings that cannot work, with the key's name.
    pub fn check(&self) -> anyhow::Result<()> {
        if self.login_attempts_per_minute == 0 || self.login_failures_per_address == 0 {
            anyhow::bail!(
                "login_attempts_per_minute and login_failures_per_address must be at least 1"
            );
        }
        if self.password_hashes_at_once == 0 {
            anyhow::bail!("password_hashes_at_once must be at least 1");
        }
        if !(self.header_read_timeout_secs > 0.0 && self.header_read_timeout_secs <= 3600.0) {
            anyhow::bail!("header_read_timeout_secs must be between 0 and 3600");
        }
        if self.lobby_page_size == 0 {
            anyhow::bail!("lobby_page_size must be at least 1");
        }
        for proxy in &self.trusted_proxies {
            Network::parse(proxy).map_err(|e| anyhow::anyhow!("trusted_proxies: {e}"))?;
        }
        for network in &self.metrics_allow {
            Network::parse(network).map_err(|e| anyhow::anyhow!("metrics_allow: {e}"))?;
        }
        if self.metrics_token.as_ref().is_some_and(|t| t.len() < 16) {
            anyhow::bail!("metrics_token must have at least 16 characters");
        }
        for (i, engine) in self.engines.iter().enumerate() {
            engine.check()?;
            if self.engines[..i].iter().any(|e| e.name == engine.name) {
                anyhow::bail!("engines: two engines are called {}", engine.name);
            }
        }
        for origin in &self.allowed_origins {
            if !(origin.starts_with("http://") || origin.starts_with("https://")) {
                anyhow::bail!("allowed_origins: {origin:?} is not http(s)://host[:port]");
            }
        }
        if self.chat.burst == 0 || self.chat.max_chars == 0 {
            anyhow::bail!("chat: burst and max_chars must be at least 1");
        }
        if self.cluster.redis.is_some() {
            let url = self.database_url();
            if !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
                anyhow::bail!(
                    "cluster: several nodes share one PostgreSQL database (database = \"postgres://…\"), not a SQLite file"
                );
            }
            let c = &self.cluster;
            if c.renew_ms == 0 || c.scan_ms == 0 || c.lease_ttl_ms < 2 * c.renew_ms {
                anyhow::bail!(
                    "cluster: renew_ms and scan_ms must be above 0 and lease_ttl_ms at least twice renew_ms"
                );
            }
        }
        Ok(())
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

/// `[cluster]`: several nodes sharing one database and one Redis.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ClusterConfig {
    /// Redis URL (`redis://127.0.0.1:6379`); unset: one node, no Redis.
    pub redis: Option<String>,
    /// This node's id, unique among the nodes; unset: host name and port.
    pub node_id: Option<String>,
    /// Prefix of every Redis key and channel of this installation.
    pub prefix: String,
    /// How long a lease lasts unless renewed, in milliseconds.
    pub lease_ttl_ms: u64,
    /// How often a node renews its leases.
    pub renew_ms: u64,
    /// How often a node looks for tables whose owner is gone.
    pub scan_ms: u64,
    /// How long a call to another node waits for its answer.
    pub call_timeout_ms: u64,
    /// How long any one Redis command may take before it counts as failed.
    pub redis_timeout_ms: u64,
}

impl Default for ClusterConfig {
    fn default() -> Self {
        ClusterConfig {
            redis: None,
            node_id: None,
            prefix: "qiyuan:".into(),
            lease_ttl_ms: 6_000,
            renew_ms: 2_000,
            scan_ms: 1_000,
            call_timeout_ms: 5_000,
            redis_timeout_ms: 2_000,
        }
    }
}

/// `[chat]`: chat and its moderation, the same in every room (tables, games'
/// and events' rooms, private messages).
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ChatConfig {
    /// Lines one person may write at once before the rate applies.
    pub burst: u32,
    /// Milliseconds after which one more line may be written (the rate).
    pub every_ms: u64,
    /// The longest line, in characters.
    pub max_chars: usize,
    /// Words replaced by `***` in every line (case-insensitive).
    pub filter: Vec<String>,
    /// Days a line is kept for moderation (a line a report still names is
    /// kept until the report is resolved); 0: kept for ever.
    pub retention_days: u32,
}

impl Default for ChatConfig {
    fn default() -> Self {
        ChatConfig {
            burst: 5,
            every_ms: 1_000,
            max_chars: 200,
            filter: ["fuck", "shit", "操你", "傻逼", "他妈的"]
                .map(String::from)
                .to_vec(),
            retention_days: 30,
        }
    }
}

/// `[api]`: the Lichess-compatible API's settings (see [`crate::lichess`],
/// which serves by them).
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ApiConfig {
    /// Seconds between the keep-alive newlines of an idle stream (Lichess sends
    /// one about every 6–7 s).
    pub keepalive_secs: f64,
    /// Requests one token may make within a minute; past it `429` (0: no limit).
    pub requests_per_minute: u32,
    /// Whether bot accounts may play rated games with humans (Lichess: yes;
    /// here casual only unless the operator allows it).
    pub bots_rated_with_humans: bool,
    /// How long a challenge nobody answers stays open, in seconds.
    pub challenge_secs: f64,
    /// Challenges one account may have open at once (made, not yet answered);
    /// more are refused (`429`). 0: no cap.
    pub challenges_per_challenger: usize,
    /// Challenges one account may have waiting for its answer at once; more
    /// are refused to their challengers (`429`). 0: no cap.
    pub challenges_per_recipient: usize,
}

impl Default for ApiConfig {
    fn default() -> Self {
        ApiConfig {
            keepalive_secs: 6.0,
            requests_per_minute: 300,
            bots_rated_with_humans: false,
            challenge_secs: 600.0,
            challenges_per_challenger: 5,
            challenges_per_recipient: 20,
        }
    }
}

/// An address or a network (`10.0.0.0/8`, `fd00::/8`), as `trusted_proxies`
/// and `metrics_allow` name them: checked by [`Config::check`], matched by the
/// proxies ([`crate::auth::Proxies`]) and the metrics' readers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Network {
    addr: IpAddr,
    prefix: u8,
}

impl Network {
    pub fn parse(text: &str) -> Result<Network, String> {
        let (addr, prefix) = match text.trim().split_once('/') {
            Some((a, p)) => (a, Some(p)),
            None => (text.trim(), None),
        };
        let addr: IpAddr = addr
            .parse()
            .map_err(|_| format!("{text:?} is not an address or network"))?;
        let addr = addr.to_canonical();
        let max = if addr.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            Some(p) => p
                .parse::<u8>()
                .ok()
                .filter(|p| *p <= max)
                .ok_or_else(|| format!("{text:?}: the prefix is 0 to {max}"))?,
            None => max,
        };
        Ok(Network { addr, prefix })
    }

    pub fn contains(&self, ip: IpAddr) -> bool {
        match (self.addr, ip.to_canonical()) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = u32::MAX
                    .checked_shl(32 - u32::from(self.prefix))
                    .unwrap_or(0);
                u32::from(net) & mask == u32::from(ip) & mask
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.prefix))
                    .unwrap_or(0);
                u128::from(net) & mask == u128::from(ip) & mask
            }
            _ => false,
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
        let c: Config = toml::from_str(
            "max_sockets_per_address = 0\ntrusted_proxies = [\"10.0.0.0/8\", \"::1\"]",
        )
        .unwrap();
        assert_eq!(c.max_sockets_per_address, 0);
        assert!(c.check().is_ok());
        let bad: Config = toml::from_str("trusted_proxies = [\"10.0.0.0/40\"]").unwrap();
        assert!(bad.check().is_err());
    }

    #[test]
    fn several_nodes_are_configured_in_the_file_and_need_postgres() {
        let text = "database = \"postgres://db/q\"\n[cluster]\nredis = \"redis://r:6379\"\nnode_id = \"n1\"\nlease_ttl_ms = 8000\n";
        let c = Config::parse(text).unwrap();
        assert_eq!(c.cluster.redis.as_deref(), Some("redis://r:6379"));
        assert_eq!(c.cluster.node_id.as_deref(), Some("n1"));
        assert_eq!((c.cluster.lease_ttl_ms, c.cluster.renew_ms), (8000, 2000));
        assert_eq!(c.cluster.prefix, "qiyuan:");
        c.check().unwrap();
        assert!(
            Config::default().cluster.redis.is_none(),
            "one node by default"
        );
        let sqlite = Config::parse("[cluster]\nredis = \"redis://r\"\n").unwrap();
        assert!(
            sqlite.check().is_err(),
            "several nodes cannot share a SQLite file"
        );
        let short = Config::parse(&format!("{text}renew_ms = 5000\n")).unwrap();
        assert!(short.check().is_err(), "a lease must outlive two renewals");
    }

    #[test]
    fn engines_are_configured_in_the_file() {
        let c = Config::parse(
            r#"
            [[engines]]
            name = "stockfish"
            path = "/usr/games/stockfish"
            protocol = "uci"
            games = ["chess"]
            options = { Threads = 1, Hash = 16 }
            movetime_ms = 200
            [[engines.levels]]
            name = "weak"
            options = { "Skill Level" = 0 }
            [[engines.levels]]
            name = "full"
            depth = 12

            [[engines]]
            name = "gnugo"
            path = "/usr/games/gnugo"
            args = ["--mode", "gtp", "--level", "1"]
            protocol = "gtp"
            games = ["go"]
            "#,
        )
        .unwrap();
        assert!(c.check().is_ok());
        assert_eq!(c.engines.len(), 2);
        assert_eq!(c.engines[0].levels[1].depth, Some(12));
        assert_eq!(c.engines[1].movetime_ms, 1_000, "the default");
        assert_eq!(c.engines[1].protocol, crate::engines::Protocol::Gtp);
        let levels = crate::engines::Engines::levels_for(&c.engines, "chess");
        let keys: Vec<&str> = levels.iter().map(|l| l.key.as_ref()).collect();
        assert_eq!(keys, ["stockfish.weak", "stockfish.full"]);
        let bad = Config::parse(
            "[[engines]]\nname = \"Bad Name\"\npath = \"x\"\nprotocol = \"uci\"\ngames = [\"chess\"]",
        )
        .unwrap();
        assert!(bad.check().is_err());
        assert!(
            Config::parse(
                "[[engines]]\nname = \"x\"\npath = \"x\"\nprotocol = \"uxi\"\ngames = []"
            )
            .is_err(),
            "an unknown protocol is refused"
        );
    }
}
