//! The server's WebSocket pings (docs/protocol.md, "the server pings"): a
//! socket at a table is pinged every 2 s (its lag is wanted at the clock); a
//! socket at no table (a page's channel to its person) only every 20 s, so a
//! hall's idle page sockets cost no ping traffic of their own; its first ping
//! goes at once, and a table it comes to brings its pings back.

use std::time::Duration;

use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

use crate::common::{self, Backend, Ws};

/// The ping frames `ws` receives over `span` (other frames read and kept
/// aside; the library answers each ping by itself).
async fn pings_over(ws: &mut Ws, span: Duration) -> usize {
    let end = tokio::time::Instant::now() + span;
    let mut pings = 0;
    loop {
        let next =
            tokio::time::timeout_at(end, futures_util::StreamExt::next(&mut ws.stream)).await;
        match next {
            Err(_) => return pings,
            Ok(Some(Ok(Message::Ping(_)))) => pings += 1,
            Ok(Some(Ok(_))) => {}
            other => panic!("the socket ended: {other:?}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_socket_at_no_table_is_pinged_seldom_and_one_at_a_table_often() {
    let server = common::start(Backend::Sqlite).await;
    let host = server.guest().await;
    let mut host_ws = host.ws().await;
    let created = host_ws.act("create", json!({"game": "chess"})).await;
    let table = created["d"]["table"].as_str().unwrap().to_string();

    let page = server.guest().await;
    let mut ws = page.ws().await;
    // The first ping goes at once; then nothing for a while.
    assert!(pings_over(&mut ws, Duration::from_millis(1500)).await >= 1);
    assert_eq!(pings_over(&mut ws, Duration::from_secs(5)).await, 0);
    // Watching a table: pinged every 2 s again.
    ws.send("watch", json!({"table": table})).await;
    let at_table = pings_over(&mut ws, Duration::from_millis(4500)).await;
    assert!(at_table >= 2, "{at_table} pings in 4.5 s at a table");
    // Gone from the table: quiet again (a ping already due may still come).
    ws.send("unwatch", json!({"table": table})).await;
    let _ = pings_over(&mut ws, Duration::from_millis(2500)).await;
    assert_eq!(pings_over(&mut ws, Duration::from_secs(5)).await, 0);
}
