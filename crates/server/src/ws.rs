//! One WebSocket connection: a reader that parses each message at the edge and
//! routes it (to the lobby or to a table's task), and a writer fed by a bounded
//! queue that tables and lobby rooms push into. Every bad message gets a typed
//! `error` and the connection stays open.

use std::collections::{HashMap, HashSet};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, State};
use axum::http::HeaderMap;
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::Value;
use tokio::sync::{Notify, mpsc, oneshot};
use tokio::task::JoinHandle;

use crate::App;
use crate::auth;
use crate::error::{ApiError, Query};
use crate::live::{self, Conn, TableMsg, UserInfo};
use crate::protocol::out::{Hello, LobbyPage};
use crate::protocol::{self, Ack, ClientMsg, HallMsg, Request, ServerMsg};
use qiyuan_table::Millis;
use qiyuan_table::clock::LagEstimate;

static NEXT_CONN: AtomicU64 = AtomicU64::new(1);

/// Messages larger than this close the socket unread (tungstenite's limit, from
/// the frame's header); those larger than the configured `max_message_bytes` but
/// under it are read and get a `too_large` error. Four times the largest message,
/// at least 64 KiB: a socket's read buffer grows to the largest frame it read
/// and keeps that size for good, so a limit of 1 MiB let every socket keep a
/// mebibyte after one large frame.
fn hard_limit(max_message_bytes: usize) -> usize {
    max_message_bytes.saturating_mul(4).max(64 * 1024)
}

/// The initial read buffer of a socket.
const READ_BUFFER: usize = 4 * 1024;

/// How often the server pings each socket: the pings keep the lag estimate
/// fresh (Lichess's client pings about as often) and show a dead socket.
const PING_EVERY: std::time::Duration = std::time::Duration::from_secs(2);
/// A socket silent this long (no message, no pong) is closed.
const IDLE: std::time::Duration = std::time::Duration::from_secs(60);

/// The close code of a socket whose session ended: reason `logged_out` (logout,
/// log out everywhere), `session_expired` or `banned`.
pub const CLOSE_LOGGED_OUT: u16 = 4001;

/// The open WebSockets that belong to a session, so that ending the session
/// closes them at once.
#[derive(Debug, Default)]
pub struct Sockets {
    open: Mutex<HashMap<live::ConnId, SocketEntry>>,
}

#[derive(Debug)]
struct SocketEntry {
    user: i64,
    /// Where the socket's messages go (events tell players of their rounds).
    tx: mpsc::Sender<Utf8Bytes>,
    /// The SHA-256 of the session token the socket was opened with.
    session: String,
    kick: Arc<Kick>,
}

/// How a socket is told that its session ended, and why (its close frame's
/// reason; the first reason given stands).
#[derive(Debug, Default)]
struct Kick {
    notify: Notify,
    reason: std::sync::OnceLock<&'static str>,
}

impl Kick {
    fn kick(&self, reason: &'static str) {
        let _ = self.reason.set(reason);
        // A stored permit: the socket acts on it before any further message.
        self.notify.notify_one();
    }

    fn reason(&self) -> &'static str {
        self.reason.get().copied().unwrap_or("logged_out")
    }
}

impl Sockets {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<live::ConnId, SocketEntry>> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn add(
        &self,
        conn: live::ConnId,
        user: i64,
        session: String,
        tx: mpsc::Sender<Utf8Bytes>,
    ) -> Arc<Kick> {
        let kick = Arc::new(Kick::default());
        self.lock().insert(
            conn,
            SocketEntry {
                user,
                tx,
                session,
                kick: kick.clone(),
            },
        );
        kick
    }

    fn remove(&self, conn: live::ConnId) {
        self.lock().remove(&conn);
    }

    fn close_where(&self, reason: &'static str, pick: impl Fn(&SocketEntry) -> bool) -> usize {
        let open = self.lock();
        let mut n = 0;
        for entry in open.values().filter(|e| pick(e)) {
            entry.kick.kick(reason);
            n += 1;
        }
        n
    }

    /// Closes the sockets opened with the session `token_hash`; how many.
    pub fn close_session(&self, token_hash: &str) -> usize {
        self.close_where("logged_out", |e| e.session == token_hash)
    }

    /// Closes every socket of a user; how many.
    pub fn close_user(&self, user: i64) -> usize {
        self.close_where("logged_out", |e| e.user == user)
    }

    /// Closes every socket of a banned user (reason `banned`); how many.
    pub fn close_banned(&self, user: i64) -> usize {
        self.close_where("banned", |e| e.user == user)
    }

    /// Queues a message on every socket of a user; how many took it.
    pub fn send_to_user(&self, user: i64, text: &str) -> usize {
        let open = self.lock();
        open.values()
            .filter(|e| e.user == user)
            .filter(|e| e.tx.try_send(Utf8Bytes::from(text.to_string())).is_ok())
            .count()
    }

    /// Sockets open with a session.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One socket's lag: the round trip of the server's WebSocket pings (each
/// carries when it was sent, in microseconds of this process's monotonic clock;
/// only the answer to the ping outstanding counts, once), kept as a running
/// estimate ([`LagEstimate`]), and the lag its client last reported (`ping`'s
/// `lag`). A move's lag is the larger of the two, the report capped at
/// [`LagEstimate::MAX_SAMPLE`]; the clock's quota bounds what it is worth.
#[derive(Debug, Default)]
pub struct LagMeter {
    inner: Mutex<LagInner>,
}

#[derive(Debug, Default)]
struct LagInner {
    rtt: LagEstimate,
    /// The payload of the ping not yet answered.
    outstanding: Option<u64>,
    /// The client's last report.
    reported: Option<u64>,
    /// Several nodes: the round trip the socket's own node measured, for the
    /// stand-in of another node's socket at a table here (see
    /// [`LagMeter::relay`]).
    relayed: Option<Millis>,
}

/// Microseconds since this process first asked.
fn monotonic_micros() -> u64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    let start = START.get_or_init(std::time::Instant::now);
    u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX)
}

impl LagMeter {
    fn lock(&self) -> std::sync::MutexGuard<'_, LagInner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The payload of a new ping, which becomes the one outstanding.
    fn ping(&self) -> [u8; 8] {
        let stamp = monotonic_micros();
        self.lock().outstanding = Some(stamp);
        stamp.to_be_bytes()
    }

    /// A pong arrived: if it answers the ping outstanding, its round trip is a
    /// sample. Anything else (an unsolicited pong, a payload never sent) is
    /// ignored.
    fn pong(&self, payload: &[u8]) {
        let Ok(bytes) = <[u8; 8]>::try_from(payload) else {
            return;
        };
        let stamp = u64::from_be_bytes(bytes);
        let mut inner = self.lock();
        if inner.outstanding != Some(stamp) {
            return;
        }
        inner.outstanding = None;
        let rtt_ms = (monotonic_micros().saturating_sub(stamp) + 500) / 1000;
        inner.rtt.record(rtt_ms);
    }

    /// The client reported its lag (`ping`'s `lag`).
    pub fn report(&self, lag: u64) {
        self.lock().reported = Some(lag.min(LagEstimate::MAX_SAMPLE));
    }

    /// The measured round trip, once there is a sample (or the one relayed
    /// from the socket's node).
    pub fn rtt(&self) -> Option<Millis> {
        let inner = self.lock();
        inner.rtt.mean().or(inner.relayed)
    }

    /// What another node needs to judge this socket's moves: the measured
    /// round trip and the client's last report.
    pub fn estimate(&self) -> (Option<Millis>, Option<u64>) {
        let inner = self.lock();
        (inner.rtt.mean().or(inner.relayed), inner.reported)
    }

    /// Several nodes: another node's socket, standing in at a table here, takes
    /// the estimate its own node measured ([`LagMeter::estimate`]), so that the
    /// connection indicator and the compensation are as for a socket here.
    pub fn relay(&self, rtt: Option<Millis>, reported: Option<u64>) {
        let mut inner = self.lock();
        inner.relayed = rtt.map(|r| r.min(LagEstimate::MAX_SAMPLE));
        if let Some(r) = reported {
            inner.reported = Some(r.min(LagEstimate::MAX_SAMPLE));
        }
    }

    /// The lag of a move from this socket: the measured round trip or the
    /// client's report (this move's, else its last), whichever is larger, the
    /// report capped.
    pub fn for_move(&self, reported: Option<u64>) -> Millis {
        let inner = self.lock();
        let reported = reported
            .or(inner.reported)
            .unwrap_or(0)
            .min(LagEstimate::MAX_SAMPLE);
        inner
            .rtt
            .mean()
            .or(inner.relayed)
            .unwrap_or(0)
            .max(reported)
    }
}

#[derive(Debug, Deserialize)]
pub struct WsQuery {
    #[serde(default)]
    token: Option<String>,
}

/// `GET /ws`. A socket authenticated by the browser's cookie (or not at all) must
/// come from the site's own origin or an allowed one; one that names its token
/// (`?token=`) is a bearer client. Behind a trusted proxy, the per-address cap
/// is applied here by forwarded address.
pub async fn upgrade(
    State(app): State<Arc<App>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Query(q): Query<WsQuery>,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    if q.token.is_none() && !auth::origin_allowed(&headers, &app.config.allowed_origins) {
        return Err(auth::bad_origin());
    }
    let guard = if app.proxies.trusts(peer.ip()) {
        let client = app.proxies.client_ip(peer.ip(), &headers);
        Some(
            app.address_cap
                .enter(client)
                .ok_or_else(|| auth::too_many_sockets(app.config.max_sockets_per_address))?,
        )
    } else {
        None
    };
    let token = q.token.or_else(|| auth::token_from_headers(&headers));
    let mut session = None;
    let mut user = None;
    if let Some(token) = token
        && token.len() <= 128
    {
        let hash = auth::hash_token(&token);
        if let Some(u) = app.store.session_user(&hash, crate::now_ms()).await? {
            user = Some(UserInfo {
                id: u.id,
                username: u.username,
                guest: u.guest,
            });
            let expires_at = app.store.session_expires_at(&hash).await?.unwrap_or(0);
            session = Some((hash, expires_at));
        }
    }
    Ok(ws
        .max_message_size(hard_limit(app.config.max_message_bytes))
        .max_frame_size(hard_limit(app.config.max_message_bytes))
        // Messages are small (16 KiB by default): a small read buffer, grown
        // only for a large frame, keeps an idle socket cheap (the default
        // 128 KiB made it cost that much).
        .read_buffer_size(READ_BUFFER)
        .on_upgrade(move |socket| async move {
            let _guard = guard;
            connection(app, socket, user, session).await
        }))
}

/// A text frame going out, logged at `trace` by its type and length: never by
/// its text, which may hold a player's hidden cards.
fn outgoing(conn: u64, frame: Utf8Bytes) -> Message {
    let (kind, bytes) = frame_summary(frame.as_str());
    tracing::trace!(conn, kind, bytes, "frame sent");
    Message::Text(frame)
}

/// What a log line may say of a frame the server wrote: its type (the
/// envelope's `t`, which comes first, when it is a plain name) and its length.
fn frame_summary(frame: &str) -> (&str, usize) {
    let kind = frame
        .strip_prefix(r#"{"t":""#)
        .and_then(|rest| rest.split_once('"'))
        .map(|(kind, _)| kind)
        .filter(|kind| {
            kind.len() <= 32
                && kind
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b == b'_' || b == b'.')
        })
        .unwrap_or("?");
    (kind, frame.len())
}

/// One socket; `session`: the token hash it was opened with and when that
/// session expires (the socket closes then).
async fn connection(
    app: Arc<App>,
    socket: WebSocket,
    user: Option<UserInfo>,
    session: Option<(String, i64)>,
) {
    let _counted = app.metrics.socket_open();
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::channel::<Utf8Bytes>(1024);
    let conn = Conn {
        id: NEXT_CONN.fetch_add(1, Ordering::Relaxed),
        user,
        tx,
        lag: Arc::new(LagMeter::default()),
    };
    let meter = conn.lag.clone();
    let conn_id = conn.id;
    // Whether the reader still reads: once it stopped (the socket is closing),
    // no more pings go out.
    let reading = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let still_reading = reading.clone();
    let (kick, expires_at) = match (&conn.user, session) {
        (Some(user), Some((hash, expires_at))) => {
            let kick = app
                .sockets
                .add(conn.id, user.id, hash.clone(), conn.tx.clone());
            // A logout between the upgrade's check and this registration would
            // have missed the socket: look again now that it is registered.
            if !matches!(app.store.session_expires_at(&hash).await, Ok(Some(_))) {
                kick.kick("logged_out");
            }
            (Some(kick), Some(expires_at))
        }
        _ => (None, None),
    };
    // The hello is the first frame: queued before the writer (and its first
    // ping) starts. A temporary, dropped once written: held in a variable, its
    // copy of every game's descriptor (7 KiB) stayed in the socket's task for
    // as long as the socket lived.
    conn.reply(
        &ServerMsg::Hello(Hello {
            protocol: protocol::VERSION,
            user: conn.user.clone(),
            games: app.games.names().iter().map(|n| n.to_string()).collect(),
            game_info: app.games.all().to_vec(),
            server_time: crate::now_ms(),
        }),
        None,
    );
    // Told to close with a frame (the session ended): the writer says so and stops.
    let (close_tx, mut close_rx) = oneshot::channel::<CloseFrame>();
    let writer = tokio::spawn(async move {
        // Pings make clients answer (browsers do it by themselves), so a silent
        // socket is a dead one (see IDLE below), and their round trips are the
        // socket's lag. The first goes at once.
        let mut ping = tokio::time::interval(PING_EVERY);
        ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        // A ping due within a quarter of a period rides with the frames going
        // out (in front of them, so the client answers it before it reads
        // them): a busy socket's pings mostly cost no write of their own, and
        // come at most a third more often (each ping is also a pong to read).
        let mut pinged = tokio::time::Instant::now();
        loop {
            let sent = tokio::select! {
                biased;
                frame = &mut close_rx => {
                    if let Ok(frame) = frame {
                        let _ = sink.send(Message::Close(Some(frame))).await;
                        break;
                    }
                    // No close frame will come: wait for the queue to end.
                    std::future::pending::<()>().await;
                    continue;
                }
                text = rx.recv() => match text {
                    // Every frame already queued goes out with this one, in
                    // one flush: one write to the socket, one wake-up (a
                    // move's event and its ack usually arrive together).
                    Some(text) => {
                        let mut sent = Ok(());
                        if pinged.elapsed() >= PING_EVERY * 3 / 4
                            && still_reading.load(Ordering::Relaxed)
                        {
                            sent = sink.feed(Message::Ping(meter.ping().to_vec().into())).await;
                            ping.reset();
                            pinged = tokio::time::Instant::now();
                        }
                        if sent.is_ok() {
                            sent = sink.feed(outgoing(conn_id, text)).await;
                        }
                        while sent.is_ok()
                            && let Ok(text) = rx.try_recv()
                        {
                            sent = sink.feed(outgoing(conn_id, text)).await;
                        }
                        match sent {
                            Ok(()) => sink.flush().await,
                            err => err,
                        }
                    }
                    None => break,
                },
                _ = ping.tick() => {
                    if !still_reading.load(Ordering::Relaxed) {
                        continue;
                    }
                    pinged = tokio::time::Instant::now();
                    let payload = meter.ping();
                    sink.send(Message::Ping(payload.to_vec().into())).await
                }
            };
            if sent.is_err() {
                break;
            }
        }
        let _ = sink.close().await;
    });

    let mut session = Session {
        app: app.clone(),
        conn: conn.clone(),
        tables: HashSet::new(),
        lobbies: HashMap::new(),
        analysis: Default::default(),
    };
    let shutdown = app.shutdown.clone();
    let kicked = async {
        match &kick {
            Some(kick) => {
                kick.notify.notified().await;
                kick.reason()
            }
            None => std::future::pending().await,
        }
    };
    let expired = async {
        match expires_at {
            Some(at) => {
                let left = u64::try_from(at - crate::now_ms()).unwrap_or(0);
                tokio::time::sleep(std::time::Duration::from_millis(left)).await;
            }
            None => std::future::pending().await,
        }
    };
    tokio::pin!(expired);
    tokio::pin!(kicked);
    let mut logged_out = None;
    loop {
        let msg = tokio::select! {
            // First: once the session has ended, no further message is acted on.
            biased;
            reason = &mut kicked => {
                logged_out = Some(reason);
                break;
            }
            _ = &mut expired => {
                logged_out = Some("session_expired");
                break;
            }
            _ = crate::stopped(shutdown.clone()) => break,
            msg = tokio::time::timeout(IDLE, stream.next()) => msg,
        };
        // Nothing for IDLE, not even a pong: the peer is gone without closing.
        let Ok(Some(Ok(msg))) = msg else { break };
        match msg {
            Message::Text(text) => {
                // Its length only: what a client sends is no business of a log.
                let bytes = text.len();
                tracing::trace!(conn = conn.id, bytes, "frame received");
                session.on_text(text.as_str()).await
            }
            Message::Binary(_) => session.reply_error(
                &ApiError::bad_request(
                    "malformed_json",
                    "binary frames are not understood; send JSON text",
                ),
                None,
            ),
            Message::Close(_) => break,
            Message::Pong(payload) => conn.lag.pong(&payload),
            Message::Ping(_) => {}
        }
    }
    reading.store(false, Ordering::Relaxed);
    app.sockets.remove(conn.id);
    if let Some(reason) = logged_out {
        let _ = close_tx.send(CloseFrame {
            code: CLOSE_LOGGED_OUT,
            reason: reason.into(),
        });
    }
    session.closed().await;
    drop(session);
    drop(conn);
    let _ = writer.await;
}

/// What one connection is subscribed to.
struct Session {
    app: Arc<App>,
    conn: Conn,
    tables: HashSet<String>,
    lobbies: HashMap<String, JoinHandle<()>>,
    /// The analysis board's search, stopped when the socket closes.
    analysis: crate::analysis::Running,
}

impl Session {
    fn reply_error(&self, err: &ApiError, id: Option<&Value>) {
        self.conn.reply(&ServerMsg::error(err, None), id);
    }

    async fn on_text(&mut self, text: &str) {
        if text.len() > self.app.config.max_message_bytes {
            let err = ApiError::bad_request(
                "too_large",
                format!(
                    "a message may have at most {} bytes; this one has {}",
                    self.app.config.max_message_bytes,
                    text.len()
                ),
            );
            self.reply_error(&err, None);
            return;
        }
        match protocol::parse(text) {
            Ok(req) => {
                if let Err(err) = self.on_request(&req).await {
                    let table = match &req.msg {
                        ClientMsg::Table(cmd) => Some(cmd.table()),
                        ClientMsg::Hall(HallMsg::Watch(w) | HallMsg::Unwatch(w)) => {
                            Some(w.table.as_str())
                        }
                        ClientMsg::Hall(_) => None,
                    };
                    self.conn
                        .reply(&ServerMsg::error(&err, table), req.id.as_ref());
                }
            }
            Err((err, id)) => self.reply_error(&err, id.as_ref()),
        }
    }

    async fn table(&self, id: &str) -> Result<live::TableHandle, ApiError> {
        // Several nodes: a table another node owns, through its proxy here.
        self.app
            .table(id)
            .await
            .ok_or_else(|| ApiError::not_found(format!("no live table {id}")))
    }

    async fn send_table(&self, handle: &live::TableHandle, msg: TableMsg) -> Result<(), ApiError> {
        handle
            .tx
            .send(msg)
            .await
            .map_err(|_| ApiError::not_found(format!("table {} has closed", handle.id)))
    }

    async fn on_request(&mut self, req: &Request) -> Result<(), ApiError> {
        let id = req.id.as_ref();
        let msg = match &req.msg {
            ClientMsg::Hall(msg) => msg,
            ClientMsg::Table(cmd) => return self.on_command(cmd.clone(), req.id.clone()).await,
        };
        match msg {
            HallMsg::Ping(protocol::client::Ping { lag }) => {
                if let Some(lag) = lag {
                    self.conn.lag.report(*lag);
                }
                let pong = ServerMsg::Pong {
                    server_time: crate::now_ms(),
                };
                self.conn.reply(&pong, id);
            }
            HallMsg::LobbySubscribe(protocol::client::LobbyRoom { game }) => {
                if self.app.games.get(game).is_none() {
                    return Err(ApiError::bad_request(
                        "unknown_game",
                        format!("no game {game:?} here"),
                    ));
                }
                let (tables, more, mut rx) = self
                    .app
                    .lobby
                    .subscribe(game, self.app.config.lobby_page_size);
                let page = ServerMsg::Lobby(LobbyPage {
                    game: game.clone(),
                    tables,
                    more,
                });
                self.conn.reply(&page, id);
                let conn = self.conn.clone();
                let forward = tokio::spawn(async move {
                    loop {
                        match rx.recv().await {
                            Ok(text) => {
                                if !conn.send(text) {
                                    break;
                                }
                            }
                            Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                            Err(_) => break,
                        }
                    }
                });
                if let Some(old) = self.lobbies.insert(game.clone(), forward) {
                    old.abort();
                }
            }
            HallMsg::LobbyUnsubscribe(protocol::client::LobbyRoom { game }) => {
                if let Some(task) = self.lobbies.remove(game) {
                    task.abort();
                }
                self.ack(id, Ack::Game { game: game.clone() });
            }
            HallMsg::Create(create) => {
                let user = self.conn.user.clone().ok_or_else(ApiError::unauthorized)?;
                let handle = crate::api::create_table(&self.app, &user, create.clone()).await?;
                self.ack(
                    id,
                    Ack::Created {
                        table: handle.id.clone(),
                        invite: format!("/table/{}", handle.id),
                    },
                );
                if let Some(seat) = create.seat {
                    self.tables.insert(handle.id.clone());
                    self.send_table(
                        &handle,
                        TableMsg::Act {
                            conn: self.conn.clone(),
                            act: protocol::TableAct::Sit { seat },
                            req: None,
                            expect_seat: None,
                        },
                    )
                    .await?;
                }
            }
            HallMsg::PlayComputer(play) => {
                let (handle, seat) =
                    crate::computer::play(&self.app, &self.conn, play.clone()).await?;
                self.ack(
                    id,
                    Ack::Seated {
                        table: handle.id.clone(),
                        seat: seat.0,
                    },
                );
                self.tables.insert(handle.id.clone());
                self.send_table(
                    &handle,
                    TableMsg::Watch {
                        conn: self.conn.clone(),
                        since: None,
                        req: None,
                    },
                )
                .await?;
            }
            HallMsg::Hotseat(hotseat) => {
                let handle = crate::solo::hotseat(&self.app, &self.conn, hotseat.clone()).await?;
                self.ack(
                    id,
                    Ack::Seated {
                        table: handle.id.clone(),
                        seat: 0,
                    },
                );
                self.tables.insert(handle.id.clone());
                self.send_table(
                    &handle,
                    TableMsg::Watch {
                        conn: self.conn.clone(),
                        since: None,
                        req: None,
                    },
                )
                .await?;
            }
            HallMsg::Seek(seek) => {
                match crate::lobby::seek(&self.app, self.conn.clone(), seek.clone()).await? {
                    Some(table) => {
                        self.tables.insert(table.clone());
                        self.ack(id, Ack::Table { table });
                    }
                    None => self.ack(id, Ack::Seeking { seeking: true }),
                }
            }
            HallMsg::Analyse(analyse) => {
                crate::analysis::analyse(
                    &self.app,
                    &self.conn,
                    &mut self.analysis,
                    analyse.clone(),
                    req.id.clone(),
                )?;
            }
            HallMsg::AnalyseStop => {
                let cancelled = self.analysis.stop();
                self.ack(id, Ack::Cancelled { cancelled });
            }
            HallMsg::SeekCancel => {
                let mut cancelled = self.app.lobby.cancel_seeks(self.conn.id);
                if let Some(cluster) = &self.app.cluster {
                    cancelled |= cluster.cancel_seek(self.conn.id).await;
                }
                self.ack(id, Ack::Cancelled { cancelled });
            }
            HallMsg::Watch(protocol::client::Watch { table, since }) => {
                let handle = self.table(table).await?;
                self.tables.insert(table.clone());
                self.send_table(
                    &handle,
                    TableMsg::Watch {
                        conn: self.conn.clone(),
                        since: *since,
                        req: req.id.clone(),
                    },
                )
                .await?;
            }
            HallMsg::Unwatch(protocol::client::Watch { table, .. }) => {
                let handle = self.table(table).await?;
                self.tables.remove(table);
                self.send_table(&handle, TableMsg::Unwatch { conn: self.conn.id })
                    .await?;
                self.ack(
                    id,
                    Ack::Table {
                        table: table.clone(),
                    },
                );
            }
        }
        Ok(())
    }

    /// A table command, for its table's task (after checking the game the
    /// client believes the table plays).
    async fn on_command(
        &mut self,
        cmd: protocol::TableCommand,
        id: Option<Value>,
    ) -> Result<(), ApiError> {
        let (at, act) = cmd.into_parts();
        let table = at.table;
        let handle = self.table(&table).await?;
        if let Some(game) = &at.game
            && game != handle.game
        {
            return Err(ApiError::bad_request(
                "wrong_game",
                format!("table {table} plays {}, not {game}", handle.game),
            ));
        }
        self.tables.insert(table);
        self.send_table(
            &handle,
            TableMsg::Act {
                conn: self.conn.clone(),
                act,
                req: id,
                expect_seat: at.expect_seat,
            },
        )
        .await
    }

    fn ack(&self, id: Option<&Value>, ack: Ack) {
        self.conn.reply(&ServerMsg::Ack(ack), id);
    }

    /// The socket is gone: tables learn it (a seated player may now be absent),
    /// seeks are dropped, lobby forwarding stops.
    async fn closed(&mut self) {
        self.analysis.stop();
        self.app.lobby.cancel_seeks(self.conn.id);
        if let Some(cluster) = &self.app.cluster {
            cluster.cancel_seek(self.conn.id).await;
        }
        for (_, task) in self.lobbies.drain() {
            task.abort();
        }
        for table in std::mem::take(&mut self.tables) {
            if let Ok(handle) = self.table(&table).await {
                let _ = handle
                    .tx
                    .send(TableMsg::Closed { conn: self.conn.id })
                    .await;
            }
        }
        if let Some(cluster) = &self.app.cluster {
            cluster.forget_local(self.conn.id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_outstanding_ping_is_a_sample_and_reports_are_capped() {
        let meter = LagMeter::default();
        assert_eq!(meter.rtt(), None);
        assert_eq!(meter.for_move(None), 0);
        // A pong nobody asked for, or not 8 bytes: nothing.
        meter.pong(&42u64.to_be_bytes());
        meter.pong(b"short");
        assert_eq!(meter.rtt(), None);
        let payload = meter.ping();
        std::thread::sleep(std::time::Duration::from_millis(5));
        meter.pong(&payload);
        let rtt = meter.rtt().expect("a sample");
        assert!((5..1_000).contains(&rtt), "{rtt}");
        assert!(rtt > 0);
        // The same pong again counts no more.
        meter.pong(&payload);
        assert_eq!(meter.lock().rtt.samples(), 1);
        // A move's lag: the larger of the measured and the reported, the
        // report capped; a move's own report first, else the last ping's.
        assert_eq!(meter.for_move(Some(0)), rtt);
        assert_eq!(meter.for_move(Some(50_000)), LagEstimate::MAX_SAMPLE);
        meter.report(2_000);
        assert_eq!(meter.for_move(None), 2_000.max(rtt));
        assert_eq!(meter.for_move(Some(1)), rtt);
    }
}
