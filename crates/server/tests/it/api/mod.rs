//! A client of the Lichess-compatible API for the tests: a bearer token, the
//! server it talks to, and its NDJSON streams read line by line as the bytes
//! arrive, and personal tokens made for a signed-in client.

use std::time::Duration;

use serde_json::{Value, json};

use crate::common::Client;

/// An API client: a bearer token and the server's (or node's) address.
#[derive(Clone)]
pub struct Api {
    pub http: reqwest::Client,
    pub base: String,
    pub token: String,
}

impl Api {
    pub async fn post(&self, path: &str, form: &[(&str, &str)]) -> reqwest::Response {
        self.http
            .post(format!("{}{path}", self.base))
            .bearer_auth(&self.token)
            .form(form)
            .send()
            .await
            .unwrap()
    }

    /// A command without a form that must succeed (`{"ok": true}`).
    pub async fn ok(&self, path: &str) {
        self.ok_with(path, &[]).await
    }

    /// A command that must succeed (`{"ok": true}`).
    pub async fn ok_with(&self, path: &str, form: &[(&str, &str)]) {
        let r = self.post(path, form).await;
        let status = r.status();
        let body: Value = r.json().await.unwrap();
        assert_eq!(status, 200, "{path}: {body}");
        assert_eq!(body, json!({"ok": true}), "{path}");
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.http
            .get(format!("{}{path}", self.base))
            .bearer_auth(&self.token)
            .send()
            .await
            .unwrap()
    }

    pub async fn stream(&self, path: &str) -> Lines {
        let r = self.get(path).await;
        assert_eq!(r.status(), 200, "{path}");
        assert_eq!(
            r.headers()["content-type"].to_str().unwrap(),
            "application/x-ndjson"
        );
        Lines::new(r)
    }
}

/// A personal token of `client` with `scopes`.
pub async fn token(client: &Client, scopes: &str) -> Api {
    let r = client
        .http
        .post(format!("{}/api/token", client.base))
        .bearer_auth(&client.token)
        .form(&[("description", "test"), ("scopes", scopes)])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["token_type"], "Bearer");
    let token = body["access_token"].as_str().unwrap();
    assert!(token.starts_with("lip_"));
    Api {
        http: reqwest::Client::new(),
        base: client.base.clone(),
        token: token.to_string(),
    }
}

/// An NDJSON stream read line by line as the bytes arrive.
pub struct Lines {
    resp: reqwest::Response,
    buf: Vec<u8>,
    /// Keep-alive (empty) lines seen so far.
    pub keepalives: usize,
    ended: bool,
}

impl Lines {
    pub fn new(resp: reqwest::Response) -> Self {
        Lines {
            resp,
            buf: Vec::new(),
            keepalives: 0,
            ended: false,
        }
    }

    /// The next raw line (empty for a keep-alive); `None` when the stream ends.
    pub async fn line(&mut self) -> Option<String> {
        loop {
            if let Some(i) = self.buf.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.buf.drain(..=i).collect();
                return Some(String::from_utf8(line[..line.len() - 1].to_vec()).unwrap());
            }
            if self.ended {
                return None;
            }
            let chunk = tokio::time::timeout(Duration::from_secs(15), self.resp.chunk())
                .await
                .expect("a line within 15 s")
                .expect("the stream readable");
            match chunk {
                Some(bytes) => self.buf.extend_from_slice(&bytes),
                None => self.ended = true,
            }
        }
    }

    /// The next JSON line, skipping keep-alives; `None` at the end.
    pub async fn next(&mut self) -> Option<Value> {
        loop {
            let line = self.line().await?;
            if line.is_empty() {
                self.keepalives += 1;
                continue;
            }
            return Some(serde_json::from_str(&line).expect("a JSON line"));
        }
    }

    /// Skips lines until one `pick` accepts.
    pub async fn until(&mut self, what: &str, pick: impl Fn(&Value) -> bool) -> Value {
        loop {
            let v = self
                .next()
                .await
                .unwrap_or_else(|| panic!("the stream ended before {what}"));
            if pick(&v) {
                return v;
            }
        }
    }

    /// Skips to the game state (a `gameState`, or a `gameFull`'s state) that
    /// `pick` accepts, and gives that state.
    pub async fn state_where(&mut self, what: &str, pick: impl Fn(&Value) -> bool) -> Value {
        let state = |v: &Value| {
            if v["type"] == "gameFull" {
                v["state"].clone()
            } else {
                v.clone()
            }
        };
        let v = self
            .until(what, |v| {
                let s = state(v);
                s["type"] == "gameState" && pick(&s)
            })
            .await;
        state(&v)
    }

    /// Skips to the state with `n` moves.
    pub async fn state_with(&mut self, n: usize) -> Value {
        self.state_where(&format!("a state with {n} moves"), |s| {
            s["moves"].as_str().unwrap_or("").split_whitespace().count() == n
        })
        .await
    }

    /// Skips to the state with exactly these moves (UCI, space-separated).
    pub async fn moves(&mut self, moves: &str) -> Value {
        self.state_where(&format!("the moves {moves:?}"), |s| s["moves"] == moves)
            .await
    }
}
