//! A TCP proxy for the tests: it holds every chunk, each way, for a delay (with
//! jitter if asked), never reordering them — a player far from their node.

use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::Instant;

/// A TCP proxy in front of `upstream` that holds every chunk, each way, for
/// `delay` give or take up to `jitter` (uniformly), never reordering them.
pub async fn delaying_proxy(upstream: SocketAddr, delay: Duration, jitter: Duration) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        while let Ok((client, _)) = listener.accept().await {
            let Ok(server) = TcpStream::connect(upstream).await else {
                continue;
            };
            client.set_nodelay(true).unwrap();
            server.set_nodelay(true).unwrap();
            let (cr, cw) = client.into_split();
            let (sr, sw) = server.into_split();
            seed = seed.wrapping_add(1);
            tokio::spawn(pipe(cr, sw, delay, jitter, seed));
            seed = seed.wrapping_add(1);
            tokio::spawn(pipe(sr, cw, delay, jitter, seed));
        }
    });
    addr
}

async fn pipe(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    delay: Duration,
    jitter: Duration,
    mut seed: u64,
) {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<(Instant, Vec<u8>)>();
    let writer = tokio::spawn(async move {
        while let Some((at, chunk)) = rx.recv().await {
            tokio::time::sleep_until(at).await;
            if to.write_all(&chunk).await.is_err() {
                break;
            }
        }
        let _ = to.shutdown().await;
    });
    let mut last = Instant::now();
    let mut buf = vec![0u8; 64 * 1024];
    let spread = jitter.as_micros() as u64;
    loop {
        let n = match from.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        // xorshift: jitter in [-spread, +spread] microseconds.
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let j = (seed % (2 * spread + 1)) as i64 - spread as i64;
        let hold = Duration::from_micros((delay.as_micros() as i64 + j).max(0) as u64);
        let at = (Instant::now() + hold).max(last);
        last = at;
        if tx.send((at, buf[..n].to_vec())).is_err() {
            break;
        }
    }
    drop(tx);
    let _ = writer.await;
}
