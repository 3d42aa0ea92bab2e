//! One WebSocket connection: a reader that parses each message at the edge and
//! routes it (to the lobby or to a table's task), and a writer fed by a bounded
//! queue that tables and lobby rooms push into. Every bad message gets a typed
//! `error` and the connection stays open.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, State};
use axum::http::HeaderMap;
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use tokio::sync::{mpsc, oneshot};

use crate::App;
use crate::auth;
use crate::error::{ApiError, Query};
use crate::live::{Conn, UserInfo};
use crate::protocol::out::Hello;
use crate::protocol::{self, ServerMsg};

mod router;
mod sockets;

pub use crate::live::LagMeter;
pub use sockets::Sockets;

use router::Router;

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

/// The initial read buffer of a socket, and the most it reads at once. A
/// client's messages are a few hundred bytes (a move, a pong); the buffer grows
/// to the length a larger frame's header announces, so a message larger than it
/// still arrives whole (`tests/it/memory_bounds.rs`). 4 KiB cost every socket 3 KiB more.
const READ_BUFFER: usize = 1024;

/// How often the server pings a socket at a table: the pings keep the lag
/// estimate fresh (Lichess's client pings about as often) and show a dead
/// socket.
const PING_EVERY: std::time::Duration = std::time::Duration::from_secs(2);
/// How often it pings a socket at no table (a page's channel to its person):
/// no lag is wanted there, only a sign of life well within [`IDLE`]. At a
/// ping every 2 s, a hall's idle page sockets cost as much again as its
/// moves' frames (docs/benchmarks.md, "Chat and presence").
const QUIET_PING_EVERY: std::time::Duration = std::time::Duration::from_secs(20);
/// A socket silent this long (no message, no pong) is closed.
const IDLE: std::time::Duration = std::time::Duration::from_secs(60);

/// The close code of a socket whose session ended: reason `logged_out` (logout,
/// log out everywhere), `session_expired` or `banned`.
pub const CLOSE_LOGGED_OUT: u16 = 4001;

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
    // Every page's socket is a channel to its person (`crate::people`): what
    // happens to them is pushed here until the socket closes.
    let channel = conn
        .user
        .as_ref()
        .filter(|_| kick.is_some())
        .map(|user| app.people.open(user.id, conn.id, conn.tx.clone()));
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
        let mut first = true;
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
                    // At no table: the next ping when a quiet period has
                    // passed (a table's first frames bring one at once, above).
                    if !std::mem::take(&mut first)
                        && !meter.at_table()
                        && pinged.elapsed() < QUIET_PING_EVERY
                    {
                        ping.reset_at(pinged + QUIET_PING_EVERY);
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

    let mut router = Router::new(app.clone(), conn.clone());
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
                // Boxed: the handling of a message (its store calls, a
                // table's reply) is the largest state of this task, and an
                // idle socket's task would keep room for it for good.
                Box::pin(router.on_text(text.as_str())).await
            }
            Message::Binary(_) => router.reply_error(
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
    // Its sender too, or the writer would wait for the queue's end forever.
    drop(channel);
    if let Some(reason) = logged_out {
        let _ = close_tx.send(CloseFrame {
            code: CLOSE_LOGGED_OUT,
            reason: reason.into(),
        });
    }
    Box::pin(router.closed()).await;
    drop(router);
    drop(conn);
    let _ = writer.await;
}
