//! The load generator's client (`qiyuan_server::bench`) against a fake server
//! over a real socket: waits end by themselves.

use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use qiyuan_server::bench::Client;
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

/// A server that says `hello`, then only pings (as the real one does every
/// 2 s) and never answers a command: a call must fail within the socket's
/// patience instead of waiting forever (the pings used to restart the wait).
#[tokio::test]
async fn pings_do_not_keep_a_call_waiting() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let (tcp, _) = listener.accept().await.unwrap();
        let mut ws = tokio_tungstenite::accept_async(tcp).await.unwrap();
        ws.send(Message::Text(r#"{"t":"hello","d":{}}"#.into()))
            .await
            .unwrap();
        loop {
            tokio::select! {
                _ = tokio::time::sleep(Duration::from_millis(50)) => {
                    if ws.send(Message::Ping(vec![1].into())).await.is_err() { return; }
                }
                msg = ws.next() => if msg.is_none() { return; },
            }
        }
    });
    let client = Client {
        http: reqwest::Client::new(),
        base: format!("http://{addr}"),
        token: "t".into(),
        name: "n".into(),
    };
    let mut socket = client.connect().await.unwrap();
    socket.patience = Duration::from_millis(500);
    let started = Instant::now();
    let answer = tokio::time::timeout(
        Duration::from_secs(10),
        socket.call("ready", json!({"table": "x"})),
    )
    .await
    .expect("the call gives up by itself");
    let err = answer.expect_err("no answer is an error");
    assert!(err.to_string().contains("within 500ms"), "{err:#}");
    assert!(started.elapsed() < Duration::from_secs(3));
}
