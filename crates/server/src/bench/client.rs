//! A small client of the server's own protocol: a logged-in HTTP session and
//! its WebSockets, speaking the envelope protocol.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, anyhow, bail};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// A logged-in client: an HTTP session and its token.
#[derive(Debug, Clone)]
pub struct Client {
    pub http: reqwest::Client,
    /// `http://host:port`.
    pub base: String,
    pub token: String,
    pub name: String,
}

impl Client {
    /// A new guest.
    pub async fn guest(http: &reqwest::Client, base: &str) -> anyhow::Result<Client> {
        let r: Value = http
            .post(format!("{base}/api/account/guest"))
            .send()
            .await?
            .error_for_status()?
            .json()
            .await?;
        Ok(Client {
            http: http.clone(),
            base: base.to_string(),
            token: r["token"].as_str().context("no token")?.to_string(),
            name: r["user"]["username"]
                .as_str()
                .context("no name")?
                .to_string(),
        })
    }

    /// A new guest with its own HTTP client.
    pub async fn guest_at(base: &str) -> anyhow::Result<Client> {
        Client::guest(&reqwest::Client::new(), base).await
    }

    pub async fn get_json(&self, path: &str) -> anyhow::Result<Value> {
        Ok(self
            .http
            .get(format!("{}{path}", self.base))
            .bearer_auth(&self.token)
            .send()
            .await?
            .json()
            .await?)
    }

    /// Opens a WebSocket and reads its `hello`.
    pub async fn connect(&self) -> anyhow::Result<Socket> {
        let ws = self.base.replacen("http", "ws", 1);
        let url = format!("{ws}/ws?token={}", self.token);
        // A small read buffer, as the server's: tungstenite zeroes its whole
        // read buffer (128 KiB by default) before each read, which was a
        // quarter of the load generator's CPU time.
        let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
            .read_buffer_size(4096);
        let tcp = open_tcp(&self.base).await?;
        let (stream, _) = tokio_tungstenite::client_async_with_config(
            url,
            MaybeTlsStream::Plain(tcp),
            Some(config),
        )
        .await
        .context("cannot open the WebSocket")?;
        let mut socket = Socket {
            stream,
            next_id: 0,
            received: 0,
            patience: REPLY_WITHIN,
        };
        socket.expect("hello").await?;
        Ok(socket)
    }
}

/// A TCP connection to the server at `base` (`http://host:port`). On a
/// loopback server the connections are spread over the source addresses
/// 127.0.0.1–127.0.0.8: with 18,000 sockets to one address and port, every
/// connect from the one source address made the kernel search an almost
/// exhausted ephemeral port range (`__inet_hash_connect`), a third of the load
/// generator's CPU at 9,000 games (docs/benchmarks.md).
async fn open_tcp(base: &str) -> anyhow::Result<TcpStream> {
    static NEXT_SOURCE: AtomicU64 = AtomicU64::new(0);
    let url = reqwest::Url::parse(base).with_context(|| format!("not a URL: {base}"))?;
    let addrs: Vec<std::net::SocketAddr> = url
        .socket_addrs(|| Some(80))
        .with_context(|| format!("cannot resolve {base}"))?;
    let mut last = None;
    for addr in addrs {
        let opened = match addr {
            std::net::SocketAddr::V4(v4) if v4.ip().is_loopback() => {
                let k = NEXT_SOURCE.fetch_add(1, Ordering::Relaxed) % 8;
                let source = std::net::Ipv4Addr::new(127, 0, 0, 1 + k as u8);
                async {
                    let socket = tokio::net::TcpSocket::new_v4()?;
                    socket.bind((source, 0).into())?;
                    socket.connect(addr).await
                }
                .await
            }
            _ => TcpStream::connect(addr).await,
        };
        match opened {
            Ok(tcp) => {
                tcp.set_nodelay(true)?;
                return Ok(tcp);
            }
            Err(e) => last = Some(e),
        }
    }
    Err(match last {
        Some(e) => anyhow!(e).context(format!("cannot connect to {base}")),
        None => anyhow!("{base} resolves to no address"),
    })
}

/// Waits until a server answers `/api/health`.
pub async fn wait_ready(base: &str, within: Duration) -> anyhow::Result<()> {
    let http = reqwest::Client::new();
    let until = Instant::now() + within;
    loop {
        if let Ok(r) = http.get(format!("{base}/api/health")).send().await
            && r.status().is_success()
        {
            return Ok(());
        }
        if Instant::now() > until {
            bail!("no server at {base} after {within:?}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// How long a socket waits for the next text message by default.
pub const REPLY_WITHIN: Duration = Duration::from_secs(30);

/// One WebSocket speaking the envelope protocol.
pub struct Socket {
    stream: WebSocketStream<MaybeTlsStream<TcpStream>>,
    next_id: u64,
    /// Bytes of the text messages received so far.
    pub received: u64,
    /// How long [`Socket::recv`] waits for a text message. The server's pings
    /// (every 2 s) do not extend it: a wait that only pings answer is a failure.
    pub patience: Duration,
}

impl Socket {
    pub async fn send(&mut self, t: &str, d: Value) -> anyhow::Result<String> {
        self.next_id += 1;
        let id = format!("c{}", self.next_id);
        let text = json!({"t": t, "d": d, "id": id}).to_string();
        self.stream.send(Message::Text(text.into())).await?;
        Ok(id)
    }

    /// The next message's text, within [`Socket::patience`] (unparsed).
    /// Pings and other control frames do not restart the wait.
    pub async fn recv_text(&mut self) -> anyhow::Result<String> {
        Ok(self.recv_frame().await?.as_str().to_string())
    }

    /// The next text frame as it arrived (no copy), within [`Socket::patience`].
    async fn recv_frame(&mut self) -> anyhow::Result<tokio_tungstenite::tungstenite::Utf8Bytes> {
        let patience = self.patience;
        let until = tokio::time::Instant::now() + patience;
        loop {
            let msg = tokio::time::timeout_at(until, self.stream.next())
                .await
                .map_err(|_| anyhow!("no message within {patience:?}"))?
                .ok_or_else(|| anyhow!("the socket closed"))??;
            if let Message::Text(text) = msg {
                self.received += text.len() as u64;
                return Ok(text);
            }
        }
    }

    /// Reads messages until one that `wanted` accepts, each read only as far as
    /// [`Peek`] needs: the load generator checks every message it gets without
    /// building a `serde_json::Value` of it (its own parsing would otherwise
    /// cost about as much CPU as the server's work for the move).
    pub(super) async fn recv_until(
        &mut self,
        mut wanted: impl FnMut(&Peek<'_>) -> anyhow::Result<bool>,
    ) -> anyhow::Result<()> {
        loop {
            let text = self.recv_frame().await?;
            let head = event_without_patch(text.as_str());
            let peek: Peek<'_> = serde_json::from_str(head.as_deref().unwrap_or(text.as_str()))
                .with_context(|| format!("unreadable message: {}", text.as_str()))?;
            if wanted(&peek)? {
                return Ok(());
            }
        }
    }

    /// The next message, within [`Socket::patience`].
    pub async fn recv(&mut self) -> anyhow::Result<Value> {
        let text = self.recv_text().await?;
        Ok(serde_json::from_str(&text)?)
    }

    /// Skips messages until one of type `t`.
    pub async fn expect(&mut self, t: &str) -> anyhow::Result<Value> {
        loop {
            let v = self.recv().await?;
            if v["t"] == t {
                return Ok(v);
            }
        }
    }

    /// Sends a command and waits for its `ack`; an `error` is an error.
    /// The answer must come within [`Socket::patience`], however many other
    /// messages arrive meanwhile.
    pub async fn call(&mut self, t: &str, d: Value) -> anyhow::Result<Value> {
        let id = self.send(t, d).await?;
        let patience = self.patience;
        let until = tokio::time::Instant::now() + patience;
        loop {
            let v = tokio::time::timeout_at(until, self.recv())
                .await
                .map_err(|_| anyhow!("no answer to {t} within {patience:?}"))??;
            if v["id"] == id.as_str() {
                if v["t"] == "ack" {
                    return Ok(v);
                }
                bail!("{t} refused: {v}");
            }
        }
    }

    pub async fn close(mut self) {
        let _ = self.stream.close(None).await;
    }

    /// Holds the socket open, reading (and so answering the server's pings)
    /// until it closes: a page that only listens, as a page's channel to its
    /// person does.
    pub async fn hold(mut self) {
        while let Some(Ok(msg)) = self.stream.next().await {
            if let Message::Text(text) = msg {
                self.received += text.len() as u64;
            }
        }
    }
}

/// An `event` as the server writes it (`"patch"` last, after its events)
/// cut before its patch and closed, for [`Peek`]: the patch, most of the
/// bytes, is not even scanned (a quote inside a JSON string is escaped, so
/// the first `,"patch":[` is the message's own). `None` for any other message.
fn event_without_patch(text: &str) -> Option<String> {
    if !text.starts_with(r#"{"t":"event","#) || !text.ends_with("]}}") {
        return None;
    }
    let at = text.find(r#","patch":["#)?;
    Some(format!("{}}}}}", &text[..at]))
}

/// What the load generator reads of a server message: its type, the id of the
/// request it answers, and its events' types and plies (the rest, the patch
/// included, is skipped over unbuilt).
#[derive(serde::Deserialize)]
pub(super) struct Peek<'a> {
    #[serde(borrow)]
    pub(super) t: std::borrow::Cow<'a, str>,
    #[serde(borrow, default)]
    pub(super) id: Option<std::borrow::Cow<'a, str>>,
    #[serde(default)]
    pub(super) d: Option<PeekData<'a>>,
}

#[derive(serde::Deserialize)]
pub(super) struct PeekData<'a> {
    #[serde(borrow, default)]
    pub(super) events: Vec<PeekEvent<'a>>,
}

#[derive(serde::Deserialize)]
pub(super) struct PeekEvent<'a> {
    #[serde(borrow, rename = "type")]
    pub(super) kind: std::borrow::Cow<'a, str>,
    #[serde(default)]
    pub(super) ply: Option<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_is_peeked_at_without_its_patch() {
        let text = r#"{"t":"event","d":{"table":"T","from":1,"v":2,"events":[{"type":"acted","ply":3}],"patch":[{"op":"set","path":["a"],"value":"x\"]}}"}]}}"#;
        let head = event_without_patch(text).expect("an event");
        let peek: Peek<'_> = serde_json::from_str(&head).expect("it parses");
        assert_eq!(peek.t, "event");
        let events = peek.d.expect("its data").events;
        assert_eq!((events[0].kind.as_ref(), events[0].ply), ("acted", Some(3)));
        assert_eq!(event_without_patch(r#"{"t":"ack","d":{},"id":"1"}"#), None);
    }
}
