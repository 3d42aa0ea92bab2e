//! `qiyuan serve`: the server. Settings come from the defaults, then a TOML file
//! (`--config`), then the environment (`QIYUAN_*`) and flags.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A TOML configuration file (keys as in qiyuan_server::Config).
    #[arg(long, env = "QIYUAN_CONFIG")]
    config: Option<PathBuf>,
    /// Address to listen on [default: 127.0.0.1:8080].
    #[arg(long, env = "QIYUAN_LISTEN")]
    listen: Option<SocketAddr>,
    /// Data folder holding the SQLite database [default: ./data].
    #[arg(long, env = "QIYUAN_DATA")]
    data: Option<PathBuf>,
    /// Database URL: postgres://... for PostgreSQL [default: SQLite in the data folder].
    #[arg(long, env = "QIYUAN_DATABASE")]
    database: Option<String>,
    /// Seconds a disconnected player may stay away from a live game before losing.
    #[arg(long, env = "QIYUAN_ESCAPE_GRACE")]
    escape_grace: Option<f64>,
    /// Seconds for each seat's first move before the game is aborted.
    #[arg(long, env = "QIYUAN_FIRST_MOVE")]
    first_move: Option<f64>,
    /// Concurrent connections (HTTP and WebSocket) from one client address; 0 = no
    /// cap [default: 50]. Load benchmarks from one loopback address use 0.
    #[arg(long, env = "QIYUAN_MAX_SOCKETS_PER_ADDRESS")]
    max_sockets_per_address: Option<u32>,
    /// Guests one address may create per hour; 0 = no limit [default: 60].
    #[arg(long, env = "QIYUAN_GUESTS_PER_ADDRESS")]
    guests_per_address_per_hour: Option<u32>,
    /// Accounts one address may register per hour; 0 = no limit [default: 20].
    #[arg(long, env = "QIYUAN_REGISTRATIONS_PER_ADDRESS")]
    registrations_per_address_per_hour: Option<u32>,
    /// Redis URL (redis://host:port): run as one of several nodes sharing the
    /// database (PostgreSQL) and this Redis [default: one node, no Redis].
    #[arg(long, env = "QIYUAN_REDIS")]
    redis: Option<String>,
    /// This node's id among several (unique per node) [default: host name and port].
    #[arg(long, env = "QIYUAN_NODE_ID")]
    node_id: Option<String>,
    /// Prefix of this installation's Redis keys and channels [default: qiyuan:].
    #[arg(long, env = "QIYUAN_REDIS_PREFIX")]
    redis_prefix: Option<String>,
    /// Log filter when RUST_LOG is unset.
    #[arg(long, env = "QIYUAN_LOG", default_value = "info")]
    log: String,
    /// Log lines as `text` or `json` (one object per line) [default: text].
    #[arg(long, env = "QIYUAN_LOG_FORMAT", default_value = "text")]
    log_format: qiyuan_server::logs::LogFormat,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let format = args.log_format;
    qiyuan_server::logs::init(&args.log, format);
    match serve(args) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        // Told through the log, so that JSON mode stays JSON to the last line.
        Err(e) => {
            qiyuan_server::logs::fatal(format, &format_args!("{e:#}"));
            Ok(ExitCode::FAILURE)
        }
    }
}

fn serve(args: Args) -> anyhow::Result<()> {
    let format = args.log_format;
    let mut config = qiyuan_server::Config::load(args.config.as_deref())?;
    if let Some(listen) = args.listen {
        config.listen = listen;
    }
    if let Some(data) = args.data {
        config.data_dir = data;
    }
    if let Some(database) = args.database {
        config.database = Some(database);
    }
    if args.escape_grace.is_some() {
        config.escape_grace_secs = args.escape_grace;
    }
    if args.first_move.is_some() {
        config.first_move_secs = args.first_move;
    }
    if let Some(n) = args.max_sockets_per_address {
        config.max_sockets_per_address = n;
    }
    if let Some(n) = args.guests_per_address_per_hour {
        config.guests_per_address_per_hour = n;
    }
    if let Some(n) = args.registrations_per_address_per_hour {
        config.registrations_per_address_per_hour = n;
    }
    if args.redis.is_some() {
        config.cluster.redis = args.redis;
    }
    if args.node_id.is_some() {
        config.cluster.node_id = args.node_id;
    }
    if let Some(prefix) = args.redis_prefix {
        config.cluster.prefix = prefix;
    }
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(async move {
        let running = qiyuan_server::start(config).await?;
        qiyuan_server::logs::serving(format, running.addr);
        let stop = running.stopper();
        tokio::spawn(async move {
            shutdown_signal().await;
            qiyuan_server::logs::shutting_down(format);
            let _ = stop.send(true);
        });
        running.wait().await
    })
}

async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(term) => term,
                Err(_) => {
                    let _ = ctrl_c.await;
                    return;
                }
            };
        tokio::select! {
            _ = ctrl_c => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    let _ = ctrl_c.await;
}
