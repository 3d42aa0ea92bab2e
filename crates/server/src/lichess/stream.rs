//! The API's answers: Lichess's error shape (`{"error": "…"}`), its forms (a
//! body is url-encoded or JSON, as its clients send either), and NDJSON streams
//! with keep-alive newlines.

use std::collections::HashMap;
use std::convert::Infallible;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use tokio::sync::mpsc;

use super::ApiConfig;
use crate::error::ApiError;

/// A refusal as Lichess words it: a status and `{"error": message}`.
#[derive(Debug)]
pub struct Error {
    pub status: StatusCode,
    pub message: String,
    pub retry_after: Option<u64>,
}

impl Error {
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        Error {
            status,
            message: message.into(),
            retry_after: None,
        }
    }
    pub fn bad(message: impl Into<String>) -> Self {
        Error::new(StatusCode::BAD_REQUEST, message)
    }
    pub fn not_found(message: impl Into<String>) -> Self {
        Error::new(StatusCode::NOT_FOUND, message)
    }
    pub fn forbidden(message: impl Into<String>) -> Self {
        Error::new(StatusCode::FORBIDDEN, message)
    }
    pub fn unauthorized() -> Self {
        Error::new(StatusCode::UNAUTHORIZED, "No such token")
    }
    pub fn internal(err: impl std::fmt::Display) -> Self {
        tracing::error!("api: {err}");
        Error::new(StatusCode::INTERNAL_SERVER_ERROR, "Internal error")
    }
}

impl From<ApiError> for Error {
    fn from(e: ApiError) -> Self {
        let status = e.status;
        Error {
            status,
            message: e.message.clone(),
            retry_after: None,
        }
    }
}

impl From<qiyuan_store::StoreError> for Error {
    fn from(e: qiyuan_store::StoreError) -> Self {
        Error::internal(e)
    }
}

/// Lichess's body of a refusal.
#[derive(Serialize)]
struct ErrorBody {
    error: String,
}

impl IntoResponse for Error {
    fn into_response(self) -> Response {
        let body = axum::Json(ErrorBody {
            error: self.message,
        });
        let mut r = (self.status, body).into_response();
        if let Some(secs) = self.retry_after
            && let Ok(v) = secs.to_string().parse()
        {
            r.headers_mut().insert(header::RETRY_AFTER, v);
        }
        r
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// `{"ok": true}`, Lichess's answer to a command.
pub fn ok() -> Response {
    axum::Json(serde_json::json!({"ok": true})).into_response()
}

/// A request body read into `T` (whose fields are text: `Option<String>`),
/// url-encoded (Lichess's form) or JSON (what berserk sends for challenges):
/// values as text, `null`s left out.
pub fn form<T: DeserializeOwned>(headers: &HeaderMap, body: &Bytes) -> Result<T> {
    let fields: Map<String, Value> = fields(headers, body)?
        .into_iter()
        .map(|(k, v)| (k, Value::String(v)))
        .collect();
    serde_json::from_value(Value::Object(fields)).map_err(|e| Error::bad(format!("bad form: {e}")))
}

/// A request body's fields as text (see [`form`]).
fn fields(headers: &HeaderMap, body: &Bytes) -> Result<HashMap<String, String>> {
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    let mut out = HashMap::new();
    if body.is_empty() {
        return Ok(out);
    }
    if json {
        let v: Value =
            serde_json::from_slice(body).map_err(|e| Error::bad(format!("bad JSON body: {e}")))?;
        let Value::Object(map) = v else {
            return Err(Error::bad("the body must be a JSON object"));
        };
        for (k, v) in map {
            let text = match v {
                Value::Null => continue,
                Value::String(s) => s,
                other => other.to_string(),
            };
            out.insert(k, text);
        }
    } else {
        let text = std::str::from_utf8(body).map_err(|_| Error::bad("the body is not UTF-8"))?;
        for pair in text.split('&').filter(|p| !p.is_empty()) {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            out.insert(decode(k)?, decode(v)?);
        }
    }
    Ok(out)
}

/// A request's query string (`a=1&b=x%2Cy`) as decoded fields; later
/// repeats of a name win.
pub fn query(raw: Option<&str>) -> Result<HashMap<String, String>> {
    let mut out = HashMap::new();
    for pair in raw.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        out.insert(decode(k)?, decode(v)?);
    }
    Ok(out)
}

/// Percent-decoding of a form field (`+` is a space).
fn decode(s: &str) -> Result<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = s
                    .get(i + 1..i + 3)
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or_else(|| Error::bad("bad percent-encoding in the form"))?;
                out.push(hex);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).map_err(|_| Error::bad("the form is not UTF-8"))
}

/// Where a stream's producer writes its lines.
#[derive(Clone)]
pub struct Lines {
    tx: mpsc::Sender<Bytes>,
}

impl Lines {
    /// Sends one value as a JSON line; false once the client is gone.
    pub async fn send(&self, v: &impl Serialize) -> bool {
        let Ok(mut text) = serde_json::to_string(v) else {
            return true;
        };
        text.push('\n');
        self.tx.send(Bytes::from(text)).await.is_ok()
    }

    /// A keep-alive: an empty line.
    pub async fn keepalive(&self) -> bool {
        self.tx.send(Bytes::from_static(b"\n")).await.is_ok()
    }

    /// Resolves when the client has gone.
    pub async fn closed(&self) {
        self.tx.closed().await
    }
}

/// An NDJSON response fed by `produce`, which runs until it returns or the
/// client goes away.
pub fn ndjson<F, Fut>(produce: F) -> Response
where
    F: FnOnce(Lines) -> Fut,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    let (tx, rx) = mpsc::channel::<Bytes>(64);
    tokio::spawn(produce(Lines { tx }));
    let body = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|b| (Ok::<_, Infallible>(b), rx))
    });
    (
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        Body::from_stream(body),
    )
        .into_response()
}

/// The keep-alive interval.
pub fn keepalive(config: &ApiConfig) -> Duration {
    Duration::from_secs_f64(config.keepalive_secs.max(0.05))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(kind: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::CONTENT_TYPE, kind.parse().unwrap());
        h
    }

    #[test]
    fn forms_are_url_encoded_or_json() {
        let f = fields(
            &headers("application/x-www-form-urlencoded"),
            &Bytes::from_static(b"clock.limit=300&text=hi+there%21&rated=true&x"),
        )
        .unwrap();
        assert_eq!(f.get("clock.limit").map(String::as_str), Some("300"));
        assert_eq!(f.get("text").map(String::as_str), Some("hi there!"));
        assert_eq!(f.get("x").map(String::as_str), Some(""));
        let f = fields(
            &headers("application/json"),
            &Bytes::from_static(
                br#"{"rated": false, "clock.limit": 60, "fen": null, "color": "white"}"#,
            ),
        )
        .unwrap();
        assert_eq!(f.get("rated").map(String::as_str), Some("false"));
        assert_eq!(f.get("clock.limit").map(String::as_str), Some("60"));
        assert_eq!(f.get("color").map(String::as_str), Some("white"));
        assert!(!f.contains_key("fen"));
        for bad in [&b"a=%zz"[..], b"a=%4", b"a=%", b"a=%ff%fe"] {
            assert!(fields(&headers("text/plain"), &Bytes::copy_from_slice(bad)).is_err());
        }
        assert!(fields(&headers("application/json"), &Bytes::from_static(b"[1]")).is_err());
        assert!(fields(&headers("application/json"), &Bytes::from_static(b"{")).is_err());
        #[derive(serde::Deserialize)]
        struct Seek {
            rated: Option<String>,
            #[serde(rename = "clock.limit")]
            limit: Option<String>,
            fen: Option<String>,
        }
        let f: Seek = form(
            &headers("application/json"),
            &Bytes::from_static(br#"{"rated": true, "clock.limit": 60, "fen": null, "x": 1}"#),
        )
        .unwrap();
        assert_eq!(f.rated.as_deref(), Some("true"));
        assert_eq!(f.limit.as_deref(), Some("60"));
        assert_eq!(f.fen, None);
    }
}
