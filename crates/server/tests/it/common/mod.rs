//! A real server on loopback and real clients: reqwest for HTTP, tokio-tungstenite
//! for WebSocket. Every scenario runs on SQLite and on PostgreSQL
//! (`QIYUAN_TEST_POSTGRES`, default `postgres://root@127.0.0.1:5432/test`, each run
//! in a schema of its own).
// Also a module of the binaries `lag` and `memory`, which use only some of it.
#![allow(dead_code)]

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use qiyuan_server::{Config, Running};
use qiyuan_testkit::accounts::{self, PASSWORD, Session};
use qiyuan_testkit::db;
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

#[derive(Debug, Clone, Copy)]
pub enum Backend {
    Sqlite,
    Postgres,
}

pub struct TestServer {
    pub running: Option<Running>,
    pub base: String,
    pub ws: String,
    pub dir: tempfile::TempDir,
    /// The configuration it runs with (a restart uses it again: same data folder,
    /// same database).
    pub config: Config,
}

pub fn config(backend: Backend, dir: &std::path::Path) -> Config {
    let mut config = Config {
        listen: "127.0.0.1:0".parse().unwrap(),
        data_dir: dir.to_path_buf(),
        escape_grace_secs: Some(1.0),
        login_attempts_per_minute: 3,
        ..Config::default()
    };
    if let Backend::Postgres = backend {
        config.database = Some(db::postgres_schema("srv"));
    }
    config
}

pub async fn start(backend: Backend) -> TestServer {
    start_with(backend, |_| {}).await
}

pub async fn start_with(backend: Backend, tweak: impl FnOnce(&mut Config)) -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    let mut config = config(backend, dir.path());
    tweak(&mut config);
    let running = qiyuan_server::start(config.clone())
        .await
        .unwrap_or_else(|e| {
            panic!("the server did not start on {backend:?} (is PostgreSQL up?): {e:#}")
        });
    let addr = running.addr;
    TestServer {
        running: Some(running),
        base: format!("http://{addr}"),
        ws: format!("ws://{addr}/ws"),
        dir,
        config,
    }
}

impl TestServer {
    /// Shuts the server down and starts it again on the same data (a new port:
    /// clients follow with [`Client::follow`]). Open tables are rebuilt from
    /// their logs.
    pub async fn restart(&mut self) {
        if let Some(running) = self.running.take() {
            running.shutdown().await.expect("a clean shutdown");
        }
        let running = qiyuan_server::start(self.config.clone())
            .await
            .expect("the server starts again");
        let addr = running.addr;
        self.base = format!("http://{addr}");
        self.ws = format!("ws://{addr}/ws");
        self.running = Some(running);
    }

    pub async fn guest(&self) -> Client {
        let http = reqwest::Client::new();
        let session = accounts::guest(&http, &self.base).await;
        Client::from_session(self, http, session)
    }

    pub async fn register(&self, name: &str) -> Client {
        let http = reqwest::Client::new();
        let session = accounts::register(&http, &self.base, name, PASSWORD).await;
        Client::from_session(self, http, session)
    }
}

/// A new session of the account `name` (registered with the tests' password).
pub async fn login(server: &TestServer, name: &str) -> Client {
    let http = reqwest::Client::new();
    let session = accounts::login(&http, &server.base, name, PASSWORD).await;
    Client::from_session(server, http, session)
}

pub struct Client {
    pub http: reqwest::Client,
    pub base: String,
    pub ws_url: String,
    pub token: String,
    pub name: String,
}

impl Client {
    /// Points the client at `server` again after a restart (its session stays).
    pub fn follow(&mut self, server: &TestServer) {
        self.base = server.base.clone();
        self.ws_url = server.ws.clone();
    }

    fn from_session(server: &TestServer, http: reqwest::Client, session: Session) -> Client {
        Client {
            http,
            base: server.base.clone(),
            ws_url: server.ws.clone(),
            token: session.token,
            name: session.name,
        }
    }

    pub async fn ws(&self) -> Ws {
        let url = format!("{}?token={}", self.ws_url, self.token);
        let (stream, _) = tokio_tungstenite::connect_async(url).await.unwrap();
        let mut ws = Ws {
            stream,
            seen: Vec::new(),
            views: Views::default(),
        };
        let hello = ws.expect("hello").await;
        assert_eq!(hello["d"]["user"]["username"], self.name.as_str());
        ws
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.http
            .get(format!("{}{path}", self.base))
            .bearer_auth(&self.token)
            .send()
            .await
            .unwrap()
    }
}

/// `GET path` as `c`: the status and the JSON answer (null if none).
pub async fn get_json(c: &Client, path: &str) -> (u16, Value) {
    let r = c.get(path).await;
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

/// `PATCH path` with a JSON body as `c`: the status and the JSON answer.
pub async fn patch(c: &Client, path: &str, body: Value) -> (u16, Value) {
    send_json(c, reqwest::Method::PATCH, path, body).await
}

/// `GET /api/event/{id}`, which must answer.
pub async fn event(c: &Client, id: &str) -> Value {
    let (status, v) = get_json(c, &format!("/api/event/{id}")).await;
    assert_eq!(status, 200, "{v}");
    v
}

/// An arbiter's act `d` at event `id` (`POST /api/event/{id}/action`).
pub async fn arbiter_act(by: &Client, id: &str, d: Value) -> (u16, Value) {
    post(by, &format!("/api/event/{id}/action"), d).await
}

/// `by`'s act `d` at event `id` is refused with `status` and `code`; the answer.
pub async fn act_refused(by: &Client, id: &str, d: Value, status: u16, code: &str) -> Value {
    let (got, body) = arbiter_act(by, id, d).await;
    assert_eq!(
        (got, body["error"]["code"].clone()),
        (status, json!(code)),
        "{body}"
    );
    body
}

/// A new account `name` that may organise events.
pub async fn organiser(server: &TestServer, name: &str) -> Client {
    let c = server.register(name).await;
    let store = server.running.as_ref().unwrap().app.store.clone();
    qiyuan_server::events::grant(&*store, name, "organiser")
        .await
        .unwrap();
    c
}

/// `org` creates an event of `config` (its start an hour away), and every one
/// of `players` registers; the event's id.
pub async fn event_with(org: &Client, config: Value, players: &[Client]) -> String {
    let (status, created) = post(org, "/api/events", config).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    for p in players {
        let (status, r) = post(p, &format!("/api/event/{id}/register"), json!({})).await;
        assert_eq!(status, 200, "{r}");
    }
    id
}

/// `POST path` with a JSON body as `c`: the status and the JSON answer (null if
/// none).
pub async fn post(c: &Client, path: &str, body: Value) -> (u16, Value) {
    send_json(c, reqwest::Method::POST, path, body).await
}

async fn send_json(c: &Client, method: reqwest::Method, path: &str, body: Value) -> (u16, Value) {
    let r = c
        .http
        .request(method, format!("{}{path}", c.base))
        .bearer_auth(&c.token)
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

pub struct Ws {
    pub stream: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// Every message received, in order; each `event` with the `state` this
    /// client holds after applying its `patch` (see [`Views`]).
    pub seen: Vec<Value>,
    /// The table views this socket holds, as a client keeps them.
    pub views: Views,
}

/// A client's copy of each table's view: a `sync`'s `state`, then every
/// `event`'s `patch` applied to it as docs/protocol.md says (written here from
/// the document, apart from the server's own code).
#[derive(Default)]
pub struct Views {
    pub tables: std::collections::HashMap<String, Value>,
}

impl Views {
    /// Takes in a message; for an `event`, returns the view after its patch.
    pub fn take(&mut self, msg: &Value) -> Option<Value> {
        let table = msg["d"]["table"].as_str()?.to_string();
        match msg["t"].as_str()? {
            "sync" => {
                self.tables.insert(table, msg["d"]["state"].clone());
                None
            }
            "event" => {
                let ops = msg["d"]["patch"].as_array().expect("an event has a patch");
                let mut view = self.tables.get(&table).cloned();
                for op in ops {
                    view = Some(patch_op(view, op));
                }
                let view = view.expect("a patch sets the view of a socket that has none");
                self.tables.insert(table, view.clone());
                Some(view)
            }
            _ => None,
        }
    }
}

fn patch_op(view: Option<Value>, op: &Value) -> Value {
    let path = op["path"].as_array().expect("a path");
    if path.is_empty() {
        assert_eq!(op["op"], "set", "only `set` has the empty path: {op}");
        return op["value"].clone();
    }
    let mut view = view.unwrap_or_else(|| panic!("{op} without a view"));
    let (last, parent) = path.split_last().unwrap();
    let mut at = &mut view;
    for key in parent {
        at = match key {
            Value::String(k) => at.get_mut(k.as_str()),
            Value::Number(i) => at.get_mut(i.as_u64().unwrap() as usize),
            _ => None,
        }
        .unwrap_or_else(|| panic!("{op}: no {key}"));
    }
    fn target<'a>(at: &'a mut Value, last: &Value, op: &Value) -> &'a mut Value {
        match last {
            Value::String(k) => {
                let obj = at
                    .as_object_mut()
                    .unwrap_or_else(|| panic!("{op}: no object"));
                obj.entry(k.clone()).or_insert(Value::Null)
            }
            Value::Number(i) => at
                .get_mut(i.as_u64().unwrap() as usize)
                .unwrap_or_else(|| panic!("{op}: no element")),
            _ => panic!("{op}: a bad path"),
        }
    }
    match op["op"].as_str().unwrap() {
        "set" => *target(at, last, op) = op["value"].clone(),
        "push" => target(at, last, op)
            .as_array_mut()
            .unwrap_or_else(|| panic!("{op}: push to no array"))
            .extend(op["values"].as_array().unwrap().iter().cloned()),
        "trunc" => {
            let items = target(at, last, op)
                .as_array_mut()
                .unwrap_or_else(|| panic!("{op}: trunc of no array"));
            let len = op["len"].as_u64().unwrap() as usize;
            assert!(len <= items.len(), "{op}: trunc beyond the end");
            items.truncate(len);
        }
        "del" => {
            let k = last.as_str().expect("del names a key");
            at.as_object_mut()
                .unwrap()
                .remove(k)
                .expect("del of a present key");
        }
        other => panic!("unknown patch op {other}"),
    }
    view
}

impl Ws {
    pub async fn send_raw(&mut self, text: &str) {
        self.stream.send(Message::Text(text.into())).await.unwrap();
    }

    pub async fn send(&mut self, t: &str, d: Value) {
        self.send_raw(&json!({"t": t, "d": d}).to_string()).await;
    }

    /// The next message, within 10 s.
    pub async fn recv(&mut self) -> Value {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(10), self.stream.next())
                .await
                .expect("a message within 10 s")
                .expect("the socket open")
                .expect("a frame");
            if let Message::Text(text) = msg {
                let mut v: Value = serde_json::from_str(&text).unwrap();
                assert!(
                    !(v["t"] == "event" && v["d"].get("state").is_some()),
                    "an event carries a patch, not the view: {v}"
                );
                if let Some(view) = self.views.take(&v) {
                    v["d"]["state"] = view;
                }
                self.seen.push(v.clone());
                return v;
            }
        }
    }

    /// Skips messages until one of type `t`.
    pub async fn expect(&mut self, t: &str) -> Value {
        loop {
            let v = self.recv().await;
            if v["t"] == t {
                return v;
            }
            if v["t"] == "error" && t != "error" {
                panic!("expected {t}, got error {v}");
            }
        }
    }

    /// Skips messages until an event batch holding an event of type `ty`.
    pub async fn event(&mut self, ty: &str) -> Value {
        loop {
            let v = self.recv().await;
            if v["t"] == "error" {
                panic!("expected event {ty}, got error {v}");
            }
            if v["t"] == "event" && has_event(&v, ty) {
                return v;
            }
        }
    }

    /// Sends a table command and waits for its ack (or error), skipping events.
    pub async fn act(&mut self, t: &str, d: Value) -> Value {
        let id = json!(format!("r{}", self.seen.len()));
        self.send_raw(&json!({"t": t, "d": d, "id": id}).to_string())
            .await;
        loop {
            let v = self.recv().await;
            if (v["t"] == "ack" || v["t"] == "error") && v["id"] == id {
                return v;
            }
        }
    }

    pub async fn ok(&mut self, t: &str, d: Value) -> Value {
        let r = self.act(t, d.clone()).await;
        assert_eq!(r["t"], "ack", "{t} {d} was refused: {r}");
        r
    }

    /// Creates a table with the settings `d` and returns its id.
    pub async fn create(&mut self, d: Value) -> String {
        let r = self.ok("create", d).await;
        r["d"]["table"].as_str().expect("a table id").to_string()
    }

    /// The latest table state this socket has received.
    pub fn state(&self) -> &Value {
        self.seen
            .iter()
            .rev()
            .find(|m| !m["d"]["state"].is_null())
            .map(|m| &m["d"]["state"])
            .expect("a state")
    }

    /// Reads until the socket has seen version `v` of the table.
    pub async fn catch_up(&mut self, v: u64) {
        while self.state()["version"].as_u64().unwrap_or(0) < v {
            self.recv().await;
        }
    }

    pub async fn close(mut self) {
        let _ = self.stream.close(None).await;
    }
}

pub fn has_event(v: &Value, ty: &str) -> bool {
    v["d"]["events"]
        .as_array()
        .is_some_and(|es| es.iter().any(|e| e["type"] == ty))
}

pub fn events_of<'a>(msgs: &'a [Value], ty: &str) -> Vec<&'a Value> {
    msgs.iter()
        .filter(|m| m["t"] == "event")
        .flat_map(|m| m["d"]["events"].as_array().into_iter().flatten())
        .filter(|e| e["type"] == ty)
        .collect()
}

/// Five minutes a side, no increment.
pub fn blitz() -> Value {
    json!({"kind": "fischer", "base": 300_000, "increment": 0})
}

/// `play_computer`, answered with the table and the player's seat; waits for the
/// table's state.
pub async fn play_computer(ws: &mut Ws, d: Value) -> (String, u64) {
    let r = ws.ok("play_computer", d).await;
    let t = r["d"]["table"].as_str().expect("a table").to_string();
    let seat = r["d"]["seat"].as_u64().expect("a seat");
    while ws.seen.iter().all(|m| m["d"]["state"].is_null()) {
        ws.recv().await;
    }
    (t, seat)
}

/// The cards of a Doudizhu hand as a view writes them (`["3s", "3h", …, "R"]`).
pub fn cards(hand: &Value) -> std::collections::BTreeSet<String> {
    hand.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|c| c.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Two players at a new table of `game` with `time`, both seated and ready: the
/// game has started. Returns (table id, first seat's socket, second seat's socket).
pub async fn table_with_game(
    server: &TestServer,
    a: &Client,
    b: &Client,
    game: &str,
    time: Value,
) -> (String, Ws, Ws) {
    let mut wa = a.ws().await;
    let mut wb = b.ws().await;
    let table = wa
        .create(json!({"game": game, "time": time, "seat": 0}))
        .await;
    wa.event("sat").await;
    wb.send("watch", json!({"table": table})).await;
    wb.expect("sync").await;
    wb.ok("sit", json!({"table": table, "seat": 1})).await;
    wa.ok("ready", json!({"table": table})).await;
    wb.ok("ready", json!({"table": table})).await;
    wa.event("started").await;
    let _ = server;
    (table, wa, wb)
}

/// Runs a scenario on both backends, as two tests.
#[macro_export]
macro_rules! both {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name($crate::common::Backend::Sqlite).await
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name($crate::common::Backend::Postgres).await
                }
            )*
        }
    };
}

/// A server hosting `games` (the built-in ones and any registered with
/// [`qiyuan_server::registry::Games::with`]). A restart hosts the built-in ones.
pub async fn start_hosting(backend: Backend, games: qiyuan_server::registry::Games) -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    let config = config(backend, dir.path());
    let running = qiyuan_server::start_with(config.clone(), games)
        .await
        .unwrap_or_else(|e| {
            panic!("the server did not start on {backend:?} (is PostgreSQL up?): {e:#}")
        });
    let addr = running.addr;
    TestServer {
        running: Some(running),
        base: format!("http://{addr}"),
        ws: format!("ws://{addr}/ws"),
        dir,
        config,
    }
}
