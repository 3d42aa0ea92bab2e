//! qiyuan-server: the shell around qiyuan's pure core. It serves HTTP and WebSocket
//! with axum, keeps accounts and sessions, runs the lobby, and owns every live table
//! in a tokio task of its own that drives a `qiyuan_table::Table`: commands come in
//! from sockets, the table decides, the store records, and only then do events go
//! out to the players and spectators.
//!
//! Nothing here decides a game: rules, clocks and the table's state machine live in
//! the pure crates below. This crate knows sockets, SQL (through `qiyuan-store`),
//! wall-clock time and tasks, and nothing of any game's rules.

pub mod accounts;
pub mod api;
pub mod auth;
pub mod bench;
pub mod bots;
pub mod config;
pub mod error;
pub mod games;
pub mod live;
pub mod lobby;
pub mod protocol;
mod web;
pub mod ws;

use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::Context;
use axum::Router;
use axum::routing::{get, post};
use qiyuan_store::Store;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;

pub use config::Config;

/// Milliseconds since the Unix epoch: the server's wall clock. Only the shell reads
/// it; tables are handed the time.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// Resolves when the shutdown signal is given.
pub async fn stopped(mut shutdown: watch::Receiver<bool>) {
    let _ = shutdown.wait_for(|stop| *stop).await;
}

/// What every handler shares.
pub struct App {
    pub config: Config,
    pub store: Arc<dyn Store>,
    pub limiter: auth::LoginLimiter,
    pub tables: live::Registry,
    pub lobby: lobby::Lobby,
    /// Flips to true when the server is shutting down; sockets and tables watch it.
    pub shutdown: watch::Receiver<bool>,
}

/// A running server.
pub struct Running {
    pub addr: SocketAddr,
    pub app: Arc<App>,
    stop: watch::Sender<bool>,
    task: JoinHandle<anyhow::Result<()>>,
}

impl Running {
    /// Stops accepting, closes sockets, lets tables finish their writes, and waits.
    pub async fn shutdown(self) -> anyhow::Result<()> {
        let _ = self.stop.send(true);
        self.task.await.context("server task panicked")?
    }

    /// Waits until the server stops by itself (it does not, unless it fails).
    pub async fn wait(self) -> anyhow::Result<()> {
        self.task.await.context("server task panicked")?
    }

    /// A handle that asks the server to stop.
    pub fn stopper(&self) -> watch::Sender<bool> {
        self.stop.clone()
    }
}

/// Opens the store, rebuilds the live tables from their logs, binds the listener and
/// starts serving.
pub async fn start(config: Config) -> anyhow::Result<Running> {
    if config.database.is_none() {
        std::fs::create_dir_all(&config.data_dir).with_context(|| {
            format!(
                "cannot create the data folder {}",
                config.data_dir.display()
            )
        })?;
    }
    let url = config.database_url();
    let store = qiyuan_store::open(&url)
        .await
        .with_context(|| format!("cannot open the database {url}"))?;
    tracing::info!(backend = store.backend(), "store open");
    let listener = TcpListener::bind(config.listen)
        .await
        .with_context(|| format!("cannot listen on {}", config.listen))?;
    let addr = listener.local_addr()?;

    let (stop, shutdown) = watch::channel(false);
    let app = Arc::new(App {
        limiter: auth::LoginLimiter::new(config.login_attempts_per_minute),
        tables: live::Registry::default(),
        lobby: lobby::Lobby::default(),
        config,
        store,
        shutdown: shutdown.clone(),
    });
    let restored = live::restore(&app).await?;
    tracing::info!(%addr, restored, "listening");

    let router = router(app.clone());
    let mut signal = shutdown.clone();
    let tables_app = app.clone();
    let task = tokio::spawn(async move {
        axum::serve(
            listener,
            router.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(async move {
            let _ = signal.wait_for(|stop| *stop).await;
        })
        .await
        .context("the HTTP server failed")?;
        tables_app.tables.stop_all().await;
        tracing::info!("stopped");
        Ok(())
    });
    Ok(Running {
        addr,
        app,
        stop,
        task,
    })
}

/// Every route.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/api/health", get(api::health))
        .route("/api/account/register", post(accounts::register))
        .route("/api/account/login", post(accounts::login))
        .route("/api/account/logout", post(accounts::logout))
        .route("/api/account/guest", post(accounts::guest))
        .route("/api/account/me", get(accounts::me))
        .route("/api/user/{name}", get(accounts::profile))
        .route("/api/lobby/{game}", get(api::lobby))
        .route("/api/tables", post(api::create_table_http))
        .route("/api/game/{id}", get(api::game))
        .route("/api/game/{id}/log", get(api::game_log))
        .route("/game/{file}", get(api::record))
        .route("/ws", get(ws::upgrade))
        .fallback(web::serve)
        .layer(tower_http::trace::TraceLayer::new_for_http())
        .layer(tower_http::limit::RequestBodyLimitLayer::new(64 * 1024))
        .with_state(app)
}

/// Logs to stderr, filtered by `RUST_LOG` or the given default (`info`).
pub fn init_tracing(default: &str) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    let _ = tracing_subscriber::fmt().with_env_filter(filter).try_init();
}
