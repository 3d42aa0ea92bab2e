//! A game hall hosting the built-in games and the toy counting game
//! (`qiyuan-count`), registered through the registry's public API as
//! `tests/toy_game.rs` registers it. The browser tests open the count game with
//! it (web/e2e/toy_game.test.mjs): a further game takes its crate, one registry
//! entry here, and one folder in the web client.
//!
//! It is configured as `qiyuan serve` is: the defaults, then a TOML file
//! (`--config`), then the environment (`QIYUAN_*`) and flags; it takes the
//! flags the e2e harness passes (`serve --listen ADDR --data DIR`) and
//! `--database URL`.
//!
//! ```text
//! cargo run -p qiyuan-server --example toy_hall -- serve --listen 127.0.0.1:8080
//! ```

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::{Context, bail};
use qiyuan_count::Count;
use qiyuan_server::registry::{Descriptor, Games, NoBots, RecordFormat, TimePreset};
use qiyuan_table::TimeControl;

/// The count game's registry entry (the same as `tests/toy_game.rs`'s).
fn count_entry() -> Descriptor {
    Descriptor::new::<Count, NoBots>(2)
        .record(RecordFormat {
            extension: "txt",
            mime: "text/plain; charset=utf-8",
        })
        .presets(vec![TimePreset::new(
            "quick",
            "快棋",
            "quick",
            TimeControl::fischer(5, 0),
        )])
}

/// What the command line and the environment set.
#[derive(Debug, Default)]
struct Args {
    config: Option<PathBuf>,
    listen: Option<SocketAddr>,
    data: Option<PathBuf>,
    database: Option<String>,
}

impl Args {
    /// The environment first, then the flags over it.
    fn parse() -> anyhow::Result<Args> {
        let env = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        let mut args = Args {
            config: env("QIYUAN_CONFIG").map(PathBuf::from),
            listen: env("QIYUAN_LISTEN")
                .map(|v| v.parse().context("QIYUAN_LISTEN is an address (host:port)"))
                .transpose()?,
            data: env("QIYUAN_DATA").map(PathBuf::from),
            database: env("QIYUAN_DATABASE"),
        };
        let mut it = std::env::args().skip(1);
        while let Some(flag) = it.next() {
            if flag == "serve" {
                continue;
            }
            let mut value = || it.next().with_context(|| format!("{flag} takes a value"));
            match flag.as_str() {
                "--config" => args.config = Some(value()?.into()),
                "--listen" => {
                    args.listen = Some(
                        value()?
                            .parse()
                            .context("--listen takes an address (host:port)")?,
                    )
                }
                "--data" => args.data = Some(value()?.into()),
                "--database" => args.database = Some(value()?),
                _ => bail!(
                    "unknown argument {flag}; toy_hall takes [serve] [--listen ADDR] \
                     [--data DIR] [--database URL] [--config FILE]"
                ),
            }
        }
        Ok(args)
    }
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse()?;
    let log = std::env::var("QIYUAN_LOG").unwrap_or_else(|_| "info".into());
    qiyuan_server::logs::init(&log, qiyuan_server::logs::LogFormat::Text);
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
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(async move {
        let games = Games::builtin().with(count_entry());
        let running = qiyuan_server::start_with(config, games).await?;
        println!("toy_hall is serving on http://{}", running.addr);
        let stop = running.stopper();
        tokio::spawn(async move {
            shutdown_signal().await;
            let _ = stop.send(true);
        });
        running.wait().await
    })
}

/// Ctrl-C, or SIGTERM (how the e2e harness stops a server).
async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}
