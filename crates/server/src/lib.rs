//! qiyuan-server: the shell around qiyuan's pure core. It serves HTTP and WebSocket
//! with axum, keeps accounts and sessions, runs the lobby, and owns every live table
//! in a tokio task of its own that drives a `qiyuan_table::Table`: commands come in
//! from sockets, the table decides, the store records, and only then do events go
//! out to the players and spectators.
//!
//! Nothing here decides a game: rules, clocks and the table's state machine live in
//! the pure crates below. This crate knows sockets, SQL (through `qiyuan-store`),
//! wall-clock time and tasks, and nothing of any game's rules.
//!
//! # Layers
//! The crate is in two layers, and the rule between them is one-way:
//! - **Core**: [`live`] (the live tables, their environment [`live::Env`] and
//!   their events [`live::TableEvents`]), [`registry`], [`protocol`], [`error`],
//!   [`logs`], [`metrics`], [`config`], the computer players the tables drive
//!   themselves ([`bots`], [`compute`], [`engines`], [`computer`]), and the
//!   store port (`qiyuan_store::Store`).
//! - **Features**: [`solo`] (private and hot-seat tables), [`lobby`],
//!   [`cluster`], [`lichess`], [`events`], [`ws`], [`api`], [`accounts`],
//!   [`auth`], [`authority`], [`analysis`], [`bench`], [`chat`], [`relations`],
//!   [`invites`].
//!
//! A core module imports no feature module. What the core needs of a feature
//! it asks through a port the core defines ([`live::LobbySink`],
//! [`live::Ownership`]), which the feature implements; features hear of the
//! tables through [`live::TableEvents`]. This file is the composition root:
//! [`start_with`] builds the parts and plugs the features into the core's
//! ports, and [`App`] is what the route handlers share — nothing below them
//! takes it.

pub mod accounts;
pub mod analysis;
pub mod api;
pub mod auth;
pub mod authority;
pub mod bench;
pub mod bots;
pub mod chat;
pub mod cluster;
pub mod compute;
pub mod computer;
pub mod config;
pub mod engines;
pub mod error;
pub mod events;
pub mod invites;
#[cfg(test)]
mod layers;
pub mod lichess;
pub mod live;
pub mod lobby;
pub mod logs;
pub mod metrics;
pub mod people;
pub mod protocol;
pub mod registry;
pub mod relations;
pub mod solo;
pub(crate) mod web;
pub mod ws;

use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context as TaskContext, Poll};
use std::time::Duration;

use anyhow::Context;
use axum::Router;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::Method;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use hyper_util::rt::{TokioIo, TokioTimer};
use qiyuan_store::Store;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, watch};
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
    /// The games hosted here (see [`registry`]).
    pub games: registry::Games,
    pub store: Arc<dyn Store>,
    pub proxies: auth::Proxies,
    /// Connections per client address (see [`Config::max_sockets_per_address`]).
    pub address_cap: Arc<auth::AddressCap>,
    /// Open WebSockets by session and user, for logging out.
    pub sockets: Arc<ws::Sockets>,
    /// This node's page sockets by person: each page's channel to its person.
    pub people: Arc<people::Hub>,
    pub tables: Arc<live::Registry>,
    pub lobby: Arc<lobby::Lobby>,
    /// What `GET /metrics` shows.
    pub metrics: Arc<metrics::Metrics>,
    /// The operator's external engines (see [`engines`]).
    pub engines: Arc<engines::Engines>,
    /// The Lichess-compatible API's streams, challenges and limits.
    pub lichess: Arc<lichess::Hub>,
    /// What the Lichess-compatible API's handlers share.
    pub api: Arc<lichess::Api>,
    /// The accounts and sessions: who a request comes from.
    pub accounts: Arc<accounts::Accounts>,
    /// What a logout, a revoked token or a ban ends, on every node.
    pub authority: authority::Authority,
    /// Flips to true when the server is shutting down; sockets and tables watch it.
    pub shutdown: watch::Receiver<bool>,
    /// Several nodes (`[cluster]` with a Redis URL); `None`: this is the only node.
    pub cluster: Option<Arc<cluster::Cluster>>,
    /// Time nobody could act at the tables (the server stalled, the bus was
    /// down), which the tables credit to their clocks.
    pub pauses: Arc<live::Pauses>,
    /// The compute budget every engine search runs under.
    pub compute: Arc<compute::Compute>,
    /// What the live tables need of the node (the same store, games, tables,
    /// ... as above, and the features' ports): given to the tables instead
    /// of the `App`.
    pub live: Arc<live::Env>,
    /// What the live tables tell the features that listen (a game started,
    /// a move, a game ended with its result).
    pub table_events: live::TableEvents,
    /// What the Swiss events' director and arbiters act on: the live tables
    /// and the players' sockets.
    pub hall: events::hall::Hall,
    /// Each table's chat rooms and their moderation.
    pub chat: Arc<chat::Chat>,
}

impl App {
    /// A live table's address: this node's, or with several nodes the local
    /// proxy of the node that owns it.
    pub async fn table(self: &Arc<Self>, id: &str) -> Option<live::TableHandle> {
        if let Some(handle) = self.tables.get(id) {
            return Some(handle);
        }
        let cluster = self.cluster.as_ref()?;
        cluster.route(id).await
    }
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
    start_with(config, registry::Games::builtin()).await
}

/// [`start`] hosting `games` (the built-in ones and any registered with
/// [`registry::Games::with`]).
pub async fn start_with(config: Config, games: registry::Games) -> anyhow::Result<Running> {
    config.check()?;
    let games = games.with_engines(&config.engines)?;
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

    match store.delete_expired_sessions(now_ms()).await {
        Ok(n) if n > 0 => tracing::info!(n, "expired sessions forgotten"),
        Ok(_) => {}
        Err(e) => tracing::warn!("cannot forget expired sessions: {e}"),
    }

    let compute = compute::Compute::new(
        config
            .compute_threads
            .unwrap_or_else(compute::Compute::default_threads),
        config.compute_per_person,
    );
    let pauses = Arc::new(live::Pauses::default());
    live::Pauses::watch(&pauses);
    let (stop, shutdown) = watch::channel(false);
    let tables = Arc::new(live::Registry::default());
    let cluster = cluster::Cluster::connect(
        &config.cluster,
        addr,
        pauses.clone(),
        cluster::Handles {
            store: store.clone(),
            games: games.clone(),
            tables: tables.clone(),
            shutdown: shutdown.clone(),
        },
    )
    .await?;
    let lobby = Arc::new(lobby::Lobby::default());
    let metrics = Arc::new(metrics::Metrics::new(
        &games.names(),
        config.node_name.as_deref(),
        &config.metrics_allow,
        config.metrics_token.as_deref(),
    ));
    let engines = Arc::new(engines::Engines::new(&config.engines));
    let table_events = live::TableEvents::default();
    // The live tables' environment: the core's handles, and the features
    // plugged into its ports.
    let env = Arc::new(live::Env {
        store: store.clone(),
        games: games.clone(),
        tables: tables.clone(),
        metrics: metrics.clone(),
        pauses: pauses.clone(),
        events: table_events.clone(),
        rules: live::Rules::of(&config),
        lobby: lobby.clone(),
        ownership: cluster
            .clone()
            .map(|c| Arc::new(cluster::TableLeases(c)) as Arc<dyn live::Ownership>),
        compute: compute.clone(),
        engines: engines.clone(),
        shutdown: shutdown.clone(),
    });
    let sockets = Arc::new(ws::Sockets::default());
    let hub = Arc::new(lichess::Hub::new(&config.api));
    let people = Arc::new(people::Hub::default());
    let notifier = people::Notifier::new(people.clone(), cluster.clone());
    let hall = events::hall::Hall::new(env.clone(), cluster.clone(), notifier.clone());
    let authority = authority::Authority {
        sockets: sockets.clone(),
        streams: hub.clone(),
        cluster: cluster.clone(),
    };
    let api = Arc::new(lichess::Api {
        store: store.clone(),
        games: games.clone(),
        hub: hub.clone(),
        config: config.api.clone(),
        cluster: cluster.clone(),
        live: env.clone(),
        lobby: lobby.clone(),
        tables: api::TableFinder {
            tables: tables.clone(),
            cluster: cluster.clone(),
        },
        authority: authority.clone(),
        people: notifier.clone(),
    });
    const HOUR: Duration = Duration::from_secs(3600);
    let chat = Arc::new(chat::Chat::new(
        store.clone(),
        &config.chat,
        games.names(),
        notifier,
        cluster.clone(),
    ));
    tokio::spawn(chat::prune(
        store.clone(),
        config.chat.retention_days,
        shutdown.clone(),
    ));
    let app = Arc::new(App {
        proxies: auth::Proxies::new(&config.trusted_proxies),
        address_cap: auth::AddressCap::new(config.max_sockets_per_address),
        sockets: sockets.clone(),
        people: people.clone(),
        tables,
        lobby: lobby.clone(),
        metrics,
        engines,
        lichess: hub,
        api,
        accounts: Arc::new(accounts::Accounts::new(
            &config,
            store.clone(),
            games.clone(),
            authority.clone(),
        )),
        authority,
        config,
        games,
        store,
        shutdown: shutdown.clone(),
        cluster,
        pauses,
        compute,
        live: env.clone(),
        table_events,
        hall,
        chat,
    });
    let restored = match app.cluster.clone() {
        // Several nodes: the lease keeper takes this node's tables back and
        // those whose owner is gone.
        Some(cluster) => {
            let (relay, mut changes) = tokio::sync::mpsc::unbounded_channel();
            app.lobby.relay_to(relay);
            let relaying = cluster.clone();
            tokio::spawn(async move {
                while let Some(change) = changes.recv().await {
                    relaying.lobby_changed(change).await;
                }
            });
            let here = cluster::Here {
                live: env.clone(),
                lobby,
                sockets,
                streams: app.lichess.clone(),
                people,
                chat: app.chat.clone(),
            };
            cluster.start(here).await?;
            tracing::info!(node = %cluster.node, "one of several nodes");
            0
        }
        None => {
            let alive_until = live::last_beat(&*app.store, live::ONE_NODE).await;
            live::restore(&env, alive_until).await?
        }
    };
    // The node's heartbeat, from now on (its previous run's last one was read
    // above, or by the cluster, before the tables were rebuilt).
    let beat_node = app
        .cluster
        .as_ref()
        .map_or_else(|| live::ONE_NODE.to_string(), |c| c.node.clone());
    tokio::spawn(live::heartbeat(
        app.store.clone(),
        beat_node,
        app.shutdown.clone(),
    ));
    tracing::info!(%addr, restored, "listening");

    let director = events::director::Director::new(app.hall.clone(), &app.config);
    tokio::spawn(events::director::run(director));
    tokio::spawn(events::follow::run(
        app.store.clone(),
        app.people.clone(),
        app.shutdown.clone(),
    ));
    // Bans given elsewhere (the command line, another node) end connections here.
    let banned = authority::banned_now(&*app.store).await;
    tokio::spawn(authority::watch(
        app.authority.clone(),
        app.store.clone(),
        app.shutdown.clone(),
        banned,
    ));
    // Presence pushed to followers as sockets come and go and games start.
    let (changes, changed) = mpsc::unbounded_channel();
    app.sockets.tell_changes(changes);
    let (elsewhere_tx, elsewhere) = mpsc::unbounded_channel();
    app.people.on_elsewhere(elsewhere_tx);
    tokio::spawn(relations::tell_presence(
        relations_of(&app),
        changed,
        elsewhere,
        app.table_events.clone(),
        app.shutdown.clone(),
    ));
    let router = router(app.clone());
    let sessions = (app.store.clone(), app.shutdown.clone());
    tokio::spawn(async move {
        let (store, shutdown) = sessions;
        loop {
            tokio::select! {
                _ = tokio::time::sleep(HOUR) => {}
                _ = stopped(shutdown.clone()) => break,
            }
            if let Err(e) = store.delete_expired_sessions(now_ms()).await {
                tracing::warn!("cannot forget expired sessions: {e}");
            }
        }
    });
    let serving = app.clone();
    let (tables, cluster) = (app.tables.clone(), app.cluster.clone());
    let task = tokio::spawn(async move {
        // Several nodes: on stopping, the tables are handed over at once (not
        // after the sockets have closed), and the process waits for it.
        let handing = cluster.map(|cluster| {
            let shutdown = shutdown.clone();
            tokio::spawn(async move {
                stopped(shutdown).await;
                cluster.hand_over().await;
            })
        });
        serve(listener, router, serving, shutdown.clone()).await;
        if let Some(handing) = handing {
            let _ = handing.await;
        }
        tables.stop_all().await;
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

/// The accept loop: hyper's HTTP/1 server with a header read timeout (a client
/// must send each request's headers within `header_read_timeout_secs` of
/// connecting or of the previous answer: slowloris connections are closed), and
/// the per-address connection cap. Stops accepting on shutdown, asks open
/// connections to finish, and waits for them (at most 10 s).
async fn serve(
    listener: TcpListener,
    router: Router,
    app: Arc<App>,
    shutdown: watch::Receiver<bool>,
) {
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(Duration::from_secs_f64(app.config.header_read_timeout_secs));
    let (alive, mut all_done) = mpsc::channel::<()>(1);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of file descriptors, most likely: let some close.
                    tracing::warn!("accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = stopped(shutdown.clone()) => break,
        };
        // Behind a trusted proxy every connection comes from the proxy: the cap
        // then applies to WebSockets by forwarded address (see ws::upgrade).
        let guard = if app.proxies.trusts(peer.ip()) {
            None
        } else {
            match app.address_cap.enter(peer.ip()) {
                Some(guard) => Some(guard),
                None => {
                    tokio::spawn(refuse(stream, app.config.max_sockets_per_address));
                    continue;
                }
            }
        };
        let _ = stream.set_nodelay(true);
        let io = TokioIo::new(Counted {
            stream,
            _guard: guard,
        });
        let router = router.clone();
        let service =
            hyper::service::service_fn(move |mut req: hyper::Request<hyper::body::Incoming>| {
                req.extensions_mut().insert(ConnectInfo(peer));
                tower::ServiceExt::oneshot(router.clone(), req)
            });
        let conn = http.serve_connection(io, service).with_upgrades();
        let stop = shutdown.clone();
        let alive = alive.clone();
        tokio::spawn(async move {
            let _alive = alive;
            tokio::pin!(conn);
            tokio::select! {
                done = conn.as_mut() => {
                    if let Err(e) = done {
                        tracing::debug!(%peer, "connection ended: {e}");
                    }
                    return;
                }
                _ = stopped(stop) => {}
            }
            conn.as_mut().graceful_shutdown();
            let _ = tokio::time::timeout(Duration::from_secs(10), conn).await;
        });
    }
    drop(listener);
    drop(alive);
    let _ = all_done.recv().await;
}

/// Answers a connection over the per-address cap with `429 too_many_sockets`
/// and closes it.
async fn refuse(mut stream: TcpStream, max: u32) {
    let body = format!(
        "{{\"error\":{{\"code\":\"too_many_sockets\",\"message\":\"at most {max} connections from one address at once\"}}}}"
    );
    let answer = format!(
        "HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(Duration::from_secs(2), async {
        let _ = stream.write_all(answer.as_bytes()).await;
        let _ = stream.shutdown().await;
    })
    .await;
}

/// A connection's stream with its place under the per-address cap: the place is
/// held as long as the stream, WebSockets included (an upgrade keeps the stream).
struct Counted {
    stream: TcpStream,
    _guard: Option<auth::CapGuard>,
}

impl AsyncRead for Counted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut TaskContext<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut TaskContext<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut TaskContext<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(
        mut self: Pin<&mut Self>,
        cx: &mut TaskContext<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// Cookie-authenticated (or anonymous) state changes must come from the site's
/// own pages or an allowed origin; bearer-token clients without a cookie are not
/// asked (a foreign page cannot make a browser send a bearer token).
async fn check_origin(State(app): State<Arc<App>>, req: Request, next: Next) -> Response {
    let safe = matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if !safe {
        let headers = req.headers();
        let bearer_only =
            auth::bearer_token(headers).is_some() && auth::cookie_token(headers).is_none();
        if !bearer_only && !auth::origin_allowed(headers, &app.config.allowed_origins) {
            return auth::bad_origin().into_response();
        }
    }
    next.run(req).await
}

/// `GET /metrics`: the node's metrics (see [`metrics`]), to the addresses and
/// token the operator allows.
async fn serve_metrics(
    State(app): State<Arc<App>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: axum::http::HeaderMap,
) -> Response {
    // A forwarded request from a proxy nobody declared trusted comes from an
    // address nobody knows: a proxy on loopback must not open the metrics to all.
    let forwarded = headers.contains_key("x-forwarded-for") || headers.contains_key("forwarded");
    let client = (app.proxies.trusts(peer.ip()) || !forwarded)
        .then(|| app.proxies.client_ip(peer.ip(), &headers));
    if !app
        .metrics
        .may_read(client, auth::bearer_token(&headers).as_deref())
    {
        return error::ApiError::forbidden(
            "forbidden",
            "metrics are readable from metrics_allow or with metrics_token",
        )
        .into_response();
    }
    let mut text = app.metrics.render(app.tables.len());
    text.push_str(&app.metrics.render_store(&app.store.writer_stats()));
    text.push_str(&app.metrics.render_compute(&app.compute));
    text.push_str(&app.metrics.render_engines(&app.engines.figures()));
    text.push_str(&app.metrics.render_stalls(&app.pauses));
    if let Some(cluster) = &app.cluster {
        text.push_str(&app.metrics.render_cluster(&cluster.figures()));
    }
    let mut response = text.into_response();
    response.headers_mut().insert(
        axum::http::header::CONTENT_TYPE,
        axum::http::HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"),
    );
    response
}

/// What the relations' routes and presence share.
pub(crate) fn relations_of(app: &App) -> Arc<relations::Relations> {
    Arc::new(relations::Relations {
        store: app.store.clone(),
        accounts: app.accounts.clone(),
        sockets: app.sockets.clone(),
        tables: app.tables.clone(),
        people: app.people.clone(),
        cluster: app.cluster.clone(),
    })
}

/// Every route.
pub fn router(app: Arc<App>) -> Router {
    // The routes that serve a game or table by id: a private table's are its
    // owner's alone (see `solo`).
    let by_id = Router::new()
        .route("/api/game/{id}", get(api::game))
        .route("/api/game/{id}/log", get(api::game_log))
        .route("/api/game/{id}/replay", get(api::game_replay))
        .route(
            "/api/game/{id}/analysis",
            get(analysis::review::review).post(analysis::review::review),
        )
        .route("/game/{file}", get(api::record))
        .route_layer(middleware::from_fn_with_state(
            app.clone(),
            solo::only_owner,
        ));
    Router::new()
        .route("/api/health", get(api::health))
        .route("/api/games", get(api::games))
        .route("/api/lobby/{game}", get(api::lobby))
        .route("/api/leaderboard/{game}", get(api::leaderboard))
        .route("/api/tables", post(api::create_table_http))
        .route(
            "/api/events",
            get(events::api::list).post(events::api::create),
        )
        .route(
            "/api/event/{id}",
            get(events::api::show).patch(events::api::change),
        )
        .route("/api/events/my-game", get(events::api::my_game))
        .route("/api/events/me", get(events::api::my_roles))
        .route("/api/event/{id}/register", post(events::api::register))
        .route("/api/event/{id}/withdraw", post(events::api::withdraw))
        .route("/api/event/{id}/bye", post(events::api::bye))
        .route("/api/event/{id}/arbiters", post(events::api::add_arbiter))
        .route("/api/event/{id}/action", post(events::api::action))
        .route("/api/event/{id}/open", post(events::api::open_registration))
        .route("/api/event/{id}/start", post(events::api::start))
        .route("/api/event/{id}/pause", post(events::api::pause))
        .route("/api/event/{id}/resume", post(events::api::resume))
        .route("/api/event/{id}/rounds", post(events::api::add_round))
        .route("/api/event/{id}/end", post(events::api::end))
        .route("/api/event/{id}/presence", get(events::api::presence))
        .route("/event/{file}", get(events::api::trf))
        .route("/api/admin/role", post(events::api::admin_role))
        .route(
            "/api/admin/table/{id}/close",
            post(events::api::admin_close_table),
        )
        .route("/api/admin/reports", get(chat::api::reports))
        .route("/api/admin/reports/{id}/resolve", post(chat::api::resolve))
        .route("/api/report/{name}", post(chat::api::report_person))
        .route("/api/admin/mute", post(chat::mutes::admin_mute))
        .route("/api/admin/unmute", post(chat::mutes::admin_unmute))
        .route("/api/event/{id}/mute", post(chat::mutes::event_mute))
        .route("/api/event/{id}/unmute", post(chat::mutes::event_unmute))
        .route("/ws", get(ws::upgrade))
        .route("/metrics", get(serve_metrics))
        .merge(by_id)
        .merge(accounts::routes(app.accounts.clone()))
        .merge(relations::routes(relations_of(&app)))
        .merge(invites::routes(app.clone()))
        .merge(lichess::routes(app.api.clone()))
        .merge(
            lichess::by_id(app.api.clone()).route_layer(middleware::from_fn_with_state(
                app.clone(),
                lichess::only_owner,
            )),
        )
        .fallback(web::serve)
        .layer(middleware::from_fn_with_state(app.clone(), check_origin))
        .layer(tower_http::limit::RequestBodyLimitLayer::new(64 * 1024))
        .layer(middleware::from_fn(error::json_errors))
        .layer(tower_http::trace::TraceLayer::new_for_http().make_span_with(logs::request_span))
        .with_state(app)
}

/// Logs to stderr as text, filtered by `RUST_LOG` or the given default (`info`).
/// See [`logs::init`] for the JSON format.
pub fn init_tracing(default: &str) {
    logs::init(default, logs::LogFormat::Text);
}
