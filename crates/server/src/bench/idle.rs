//! What idle sockets cost the server: opened, held, measured.

use std::time::{Duration, Instant};

use futures_util::StreamExt;

use super::client::Client;
use super::proc_stats::{process_cpu, process_rss};

/// What opening idle sockets cost the server.
#[derive(Debug, Clone)]
pub struct IdleReport {
    pub sockets: usize,
    /// Time to open them all (each reads its `hello`), `concurrency` at a time.
    pub elapsed: Duration,
    /// The server's CPU time (user + system) while they were opened.
    pub server_cpu: Option<Duration>,
    /// The server's resident memory before and after (the sockets still open).
    pub rss_before: Option<u64>,
    pub rss_after: Option<u64>,
}

impl IdleReport {
    /// Server CPU per socket opened, in microseconds.
    pub fn cpu_us_per_socket(&self) -> Option<f64> {
        self.server_cpu
            .map(|c| c.as_secs_f64() * 1e6 / self.sockets.max(1) as f64)
    }

    /// Resident memory per idle socket, in bytes.
    pub fn bytes_per_socket(&self) -> Option<f64> {
        let (b, a) = (self.rss_before?, self.rss_after?);
        Some((a as f64 - b as f64) / self.sockets.max(1) as f64)
    }
}

/// Opens `sockets` WebSockets of `sockets` guests made first (the guests' HTTP
/// requests are not measured), `concurrency` at a time, then holds them idle
/// for `settle` and measures the server's CPU for the opening and its memory
/// growth per socket.
pub async fn idle_sockets(
    base: &str,
    sockets: usize,
    concurrency: usize,
    settle: Duration,
    server_pid: Option<u32>,
) -> anyhow::Result<IdleReport> {
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(64)
        .build()?;
    let mut guests = Vec::with_capacity(sockets);
    let mut made = futures_util::stream::iter((0..sockets).map(|_| Client::guest(&http, base)))
        .buffer_unordered(concurrency.max(1));
    while let Some(guest) = made.next().await {
        guests.push(guest?);
    }
    drop(made);
    tokio::time::sleep(Duration::from_secs(1)).await;
    let rss_before = server_pid.and_then(process_rss);
    let cpu_before = server_pid.and_then(process_cpu);
    let t0 = Instant::now();
    let mut open = Vec::with_capacity(sockets);
    let mut connecting = futures_util::stream::iter(guests.iter().map(|g| g.connect()))
        .buffer_unordered(concurrency.max(1));
    while let Some(socket) = connecting.next().await {
        open.push(socket?);
    }
    drop(connecting);
    let elapsed = t0.elapsed();
    let server_cpu = server_pid
        .and_then(process_cpu)
        .zip(cpu_before)
        .map(|(end, start)| end.saturating_sub(start));
    tokio::time::sleep(settle).await;
    let rss_after = server_pid.and_then(process_rss);
    for s in open {
        s.close().await;
    }
    Ok(IdleReport {
        sockets,
        elapsed,
        server_cpu,
        rss_before,
        rss_after,
    })
}
