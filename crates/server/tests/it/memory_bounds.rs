//! What a socket and a table keep is bounded (docs/benchmarks.md, "Memory a
//! game and a socket hold"), and the bounds lose nothing a client needs:
//!
//! - A socket's read buffer starts at 1 KiB, which every idle socket keeps: a
//!   client's message larger than that (up to the message limit, 16 KiB by
//!   default) still arrives whole, several in a row too, and the socket and its
//!   game go on.
//! - A table keeps its last 32 batches for clients that resume: one that missed
//!   fewer gets them all (`complete`), one that missed more gets the state.

use serde_json::json;

use crate::common::*;

/// A ping whose `id` (echoed in the `pong`) is `n` characters long.
fn long_id(n: usize, salt: u8) -> String {
    (0..n)
        .map(|i| char::from(b'a' + ((i + salt as usize) % 26) as u8))
        .collect()
}

async fn messages_larger_than_the_read_buffer_arrive_whole(backend: Backend) {
    let server = start(backend).await;
    let a = server.guest().await;
    let b = server.guest().await;
    let (t, mut wa, mut wb) = table_with_game(&server, &a, &b, "chess", blitz()).await;
    // One at a time: 1.5 KiB, 8 KB and 16,000 bytes (the whole message just
    // under the 16 KiB limit), each echoed whole.
    for (salt, n) in [1_500, 8_000, 15_900].into_iter().enumerate() {
        let id = long_id(n, salt as u8);
        let raw = json!({"t": "ping", "id": id}).to_string();
        assert!(raw.len() > 1024 && raw.len() <= 16 * 1024, "{}", raw.len());
        wa.send_raw(&raw).await;
        let pong = wa.expect("pong").await;
        assert_eq!(pong["id"].as_str(), Some(id.as_str()), "a {n}-byte id");
    }
    // Three sent back to back, read from the buffer together: each whole, in
    // order.
    let ids: Vec<String> = (0..3)
        .map(|i| long_id(5_000 + i * 1_000, i as u8))
        .collect();
    for id in &ids {
        wb.send_raw(&json!({"t": "ping", "id": id}).to_string())
            .await;
    }
    for id in &ids {
        let pong = wb.expect("pong").await;
        assert_eq!(pong["id"].as_str(), Some(id.as_str()));
    }
    // The game goes on over both sockets.
    wa.ok("move", json!({"table": t, "action": "e2e4"})).await;
    wb.event("acted").await;
    wb.ok("move", json!({"table": t, "action": "e7e5"})).await;
    wa.event("acted").await;
}

/// 40 plies without a check, a capture or a repetition.
const PLIES: &str = "a2a3 c7c6 g1h3 a7a5 e2e3 f7f6 e3e4 d8b6 a1a2 b6b3 f1c4 b3c3 d1e2 g7g5 \
    g2g3 c3b4 e1d1 h7h6 e4e5 e8d8 h1g1 a8a7 c4d5 d8c7 a2a1 b4b3 e2g4 f8g7 g4c4 b7b5 a1a2 c6c5 \
    c4d3 c8b7 f2f4 b3b4 d5h1 f6f5 d1e1 a5a4";

async fn resuming_from_far_back_gets_the_state(backend: Backend) {
    let server = start(backend).await;
    let a = server.guest().await;
    let b = server.guest().await;
    let (t, mut wa, mut wb) = table_with_game(&server, &a, &b, "chess", blitz()).await;
    let plies: Vec<&str> = PLIES.split_whitespace().collect();
    let mut versions = Vec::new();
    for (i, ply) in plies.iter().enumerate() {
        let ws = if i % 2 == 0 { &mut wa } else { &mut wb };
        let r = ws.ok("move", json!({"table": t, "action": ply})).await;
        versions.push(r["d"]["v"].as_u64().unwrap());
    }
    let v = *versions.last().unwrap();
    let c = server.guest().await;
    let resume = async |since: u64| {
        let mut wc = c.ws().await;
        wc.send("watch", json!({"table": t, "since": since})).await;
        let sync = wc.expect("sync").await;
        let d = &sync["d"];
        assert_eq!(d["v"], v);
        // The state is whole either way.
        assert_eq!(d["state"]["game"]["moves"].as_array().unwrap().len(), 40);
        let batches: Vec<(u64, u64)> = d["batches"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| (b["from"].as_u64().unwrap(), b["v"].as_u64().unwrap()))
            .collect();
        (d["complete"].as_bool().unwrap(), batches)
    };
    // Ten plies behind: every batch since, in order, from where it was.
    let since = versions[29];
    let (complete, batches) = resume(since).await;
    assert!(complete);
    assert_eq!(batches.len(), 10);
    assert_eq!(batches[0].0, since);
    assert_eq!(batches.last().unwrap().1, v);
    // From before the game's first move: more than 32 batches missed, so the
    // newest 32 at most and not complete; the client relies on the state.
    let (complete, batches) = resume(versions[0] - 1).await;
    assert!(!complete);
    assert!(
        !batches.is_empty() && batches.len() <= 32,
        "{}",
        batches.len()
    );
    assert_eq!(batches.last().unwrap().1, v);
}

both!(
    messages_larger_than_the_read_buffer_arrive_whole,
    resuming_from_far_back_gets_the_state
);
