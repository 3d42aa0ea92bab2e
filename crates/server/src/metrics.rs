//! Operations metrics, served at `GET /metrics` in Prometheus's text format (0.0.4).
//!
//! The hot path only touches atomics: a move adds one to its game's counter and one
//! to a histogram bucket; a commit adds one to another. Everything else (live
//! tables, memory) is read when a scrape comes. Every sample carries the node's
//! name (`node`: [`crate::Config::node_name`], else the host's name) so that
//! several nodes can be scraped into one Prometheus.
//!
//! Errors are counted by their stable code where they are made into an answer (an
//! HTTP error body or a WebSocket `error`), process-wide: a process is one node.
//!
//! Who may read it: clients whose address (behind a trusted proxy, the forwarded
//! one) is in `metrics_allow` (default loopback only), or who send
//! `Authorization: Bearer <metrics_token>`. Anyone else gets `403 forbidden`, and so
//! does a request forwarded (`X-Forwarded-For`, `Forwarded`) by a proxy that is not
//! in `trusted_proxies`, whose client nobody knows.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::net::IpAddr;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use qiyuan_store::{BATCH_SIZE_BOUNDS, WriterStats};
use sha2::{Digest, Sha256};

use crate::config::Network;

/// Upper bounds of the latency histograms' buckets, in microseconds (the last,
/// `+Inf`, is implicit): from a quarter of a millisecond to ten seconds.
const BUCKETS_US: [u64; 14] = [
    250, 500, 1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000,
    2_500_000, 10_000_000,
];

/// A latency histogram of atomics: one count per bucket (not cumulative; the
/// scrape adds them up), the sum in microseconds.
#[derive(Default)]
pub struct Histogram {
    buckets: [AtomicU64; BUCKETS_US.len() + 1],
    sum_us: AtomicU64,
}

impl Histogram {
    pub fn observe(&self, took: Duration) {
        let us = u64::try_from(took.as_micros()).unwrap_or(u64::MAX);
        let i = BUCKETS_US.partition_point(|&bound| bound < us);
        self.buckets[i].fetch_add(1, Ordering::Relaxed);
        self.sum_us.fetch_add(us, Ordering::Relaxed);
    }

    fn render(&self, out: &mut String, name: &str, help: &str, node: &str) {
        let buckets = self.buckets.iter().enumerate().map(|(i, bucket)| {
            let le = match BUCKETS_US.get(i) {
                Some(us) => format!("{}", *us as f64 / 1e6),
                None => "+Inf".into(),
            };
            (le, bucket.load(Ordering::Relaxed))
        });
        let sum = self.sum_us.load(Ordering::Relaxed) as f64 / 1e6;
        write_histogram(out, name, help, node, buckets, &sum.to_string());
    }
}

/// A histogram in the text format from its buckets' upper bounds (`le`, the last
/// `+Inf`) and counts (each bucket's own: they are added up here), and its sum.
fn write_histogram(
    out: &mut String,
    name: &str,
    help: &str,
    node: &str,
    buckets: impl Iterator<Item = (String, u64)>,
    sum: &str,
) {
    let _ = writeln!(out, "# HELP {name} {help}");
    let _ = writeln!(out, "# TYPE {name} histogram");
    let mut count = 0;
    for (le, n) in buckets {
        count += n;
        let _ = writeln!(out, "{name}_bucket{{node=\"{node}\",le=\"{le}\"}} {count}");
    }
    let _ = writeln!(out, "{name}_sum{{node=\"{node}\"}} {sum}");
    let _ = writeln!(out, "{name}_count{{node=\"{node}\"}} {count}");
}

/// Several nodes: what the cluster tells of itself for `/metrics`.
#[derive(Debug, Clone, Copy)]
pub struct ClusterFigures {
    /// The last bus message's delay from publishing to handling.
    pub bus_lag_secs: f64,
    /// Bus messages handled.
    pub bus_messages: u64,
    /// Table leases this node holds.
    pub leases: usize,
    /// Open WebSockets on every node.
    pub sockets: u64,
}

/// This node's metrics, kept by the server and handed to the tables.
pub struct Metrics {
    /// The `node` label's value, escaped for the text format.
    node: String,
    started: Instant,
    /// Open WebSockets.
    sockets: AtomicI64,
    /// Moves accepted, per hosted game (a handful: looked up by a short scan).
    moves: Vec<(&'static str, AtomicU64)>,
    /// From the table task taking a move to its event queued for every subscriber:
    /// apply, commit, game rows, views and broadcast.
    pub move_broadcast: Histogram,
    /// One command's log entries written to the store.
    pub store_commit: Histogram,
    /// Who may read `/metrics` without the token.
    allow: Vec<Network>,
    /// SHA-256 of `metrics_token`.
    token: Option<[u8; 32]>,
}

impl Metrics {
    /// For the hosted `games`, named `node` (unset: the host's name), readable from
    /// `allow` (refused entries were caught by [`crate::Config::check`]) and with
    /// `token`.
    pub fn new(
        games: &[&'static str],
        node: Option<&str>,
        allow: &[String],
        token: Option<&str>,
    ) -> Metrics {
        let node = node.map(str::to_string).unwrap_or_else(host_name);
        Metrics {
            node: escape(&node),
            started: Instant::now(),
            sockets: AtomicI64::new(0),
            moves: games.iter().map(|g| (*g, AtomicU64::new(0))).collect(),
            move_broadcast: Histogram::default(),
            store_commit: Histogram::default(),
            allow: allow
                .iter()
                .filter_map(|n| Network::parse(n).ok())
                .collect(),
            token: token.map(|t| Sha256::digest(t.as_bytes()).into()),
        }
    }

    /// A move of `game` was committed and broadcast; it was taken up at `since`.
    pub fn move_accepted(&self, game: &str, since: Instant) {
        if let Some((_, n)) = self.moves.iter().find(|(g, _)| *g == game) {
            n.fetch_add(1, Ordering::Relaxed);
        }
        self.move_broadcast.observe(since.elapsed());
    }

    /// Counts an open WebSocket for as long as the guard lives.
    pub fn socket_open(self: &Arc<Self>) -> SocketGuard {
        self.sockets.fetch_add(1, Ordering::Relaxed);
        SocketGuard(self.clone())
    }

    /// Whether a client at `client` (`None`: unknown) that sent the bearer
    /// token `bearer` may read the metrics.
    pub fn may_read(&self, client: Option<IpAddr>, bearer: Option<&str>) -> bool {
        if let (Some(want), Some(given)) = (&self.token, bearer) {
            let given: [u8; 32] = Sha256::digest(given.as_bytes()).into();
            // Compared in full, so the time taken tells nothing of the token.
            if want.iter().zip(given).fold(0u8, |d, (a, b)| d | (a ^ b)) == 0 {
                return true;
            }
        }
        client.is_some_and(|ip| self.allow.iter().any(|n| n.contains(ip)))
    }

    /// Several nodes: the bus's lag and traffic, the leases held, and the
    /// sockets online on every node.
    pub fn render_cluster(&self, figures: &ClusterFigures) -> String {
        let node = &self.node;
        let mut out = String::new();
        let ClusterFigures {
            bus_lag_secs: lag,
            bus_messages: received,
            leases,
            sockets,
        } = *figures;
        let mut metric = |name: &str, kind: &str, help: &str, value: String| {
            let _ = writeln!(out, "# HELP {name} {help}");
            let _ = writeln!(out, "# TYPE {name} {kind}");
            let _ = writeln!(out, "{name}{{node=\"{node}\"}} {value}");
        };
        metric(
            "qiyuan_bus_lag_seconds",
            "gauge",
            "Delay of the last bus message from its publishing node to its handling here.",
            format!("{lag:.6}"),
        );
        metric(
            "qiyuan_bus_messages_total",
            "counter",
            "Bus messages handled by this node.",
            received.to_string(),
        );
        metric(
            "qiyuan_leases",
            "gauge",
            "Table leases this node holds.",
            leases.to_string(),
        );
        metric(
            "qiyuan_cluster_sockets",
            "gauge",
            "Open WebSockets on every node, as the nodes' presence keys last said.",
            sockets.to_string(),
        );
        out
    }

    /// The server's stalls (a gap in the watchdog's beats, charged to no clock).
    pub fn render_stalls(&self, pauses: &crate::live::Pauses) -> String {
        let node = &self.node;
        let mut out = String::new();
        for (name, help, value) in [
            (
                "qiyuan_stalls_total",
                "Stalls of the whole server (a gap of over 3 s between the watchdog's beats).",
                pauses.stalls.load(Ordering::Relaxed),
            ),
            (
                "qiyuan_stalled_ms_total",
                "Milliseconds the server stalled, credited to the clocks.",
                pauses.stalled_ms.load(Ordering::Relaxed),
            ),
        ] {
            let _ = writeln!(out, "# HELP {name} {help}");
            let _ = writeln!(out, "# TYPE {name} counter");
            let _ = writeln!(out, "{name}{{node=\"{node}\"}} {value}");
        }
        out
    }

    /// The operator's external engines: processes started, those that died
    /// unasked (killed, crashed), and those running now, per engine.
    pub fn render_engines(&self, engines: &[crate::engines::EngineFigures]) -> String {
        let node = &self.node;
        let mut out = String::new();
        if engines.is_empty() {
            return out;
        }
        for (name, kind, help, value) in [
            (
                "qiyuan_engine_starts_total",
                "counter",
                "External engine processes started.",
                (|e: &crate::engines::EngineFigures| e.started.to_string())
                    as fn(&crate::engines::EngineFigures) -> String,
            ),
            (
                "qiyuan_engine_crashes_total",
                "counter",
                "External engine processes that exited without being asked to (killed, crashed).",
                |e| e.crashed.to_string(),
            ),
            (
                "qiyuan_engine_processes",
                "gauge",
                "External engine processes running now.",
                |e| e.running.to_string(),
            ),
        ] {
            let _ = writeln!(out, "# HELP {name} {help}");
            let _ = writeln!(out, "# TYPE {name} {kind}");
            for e in engines {
                let _ = writeln!(
                    out,
                    "{name}{{node=\"{node}\",engine=\"{}\"}} {}",
                    escape(&e.name),
                    value(e)
                );
            }
        }
        out
    }

    /// The compute budget: its size, the searches running and waiting now,
    /// the most that ran at once, and the permits granted by class.
    pub fn render_compute(&self, compute: &crate::compute::Compute) -> String {
        let node = &self.node;
        let mut out = String::new();
        let mut metric = |name: &str, kind: &str, help: &str, value: String| {
            let _ = writeln!(out, "# HELP {name} {help}");
            let _ = writeln!(out, "# TYPE {name} {kind}");
            let _ = writeln!(out, "{name}{{node=\"{node}\"}} {value}");
        };
        metric(
            "qiyuan_compute_threads",
            "gauge",
            "Engine searches the compute budget lets run at once.",
            compute.max().to_string(),
        );
        metric(
            "qiyuan_searches_running",
            "gauge",
            "Engine searches (computer moves, analysis, reviews) running now.",
            compute.running().to_string(),
        );
        metric(
            "qiyuan_searches_waiting",
            "gauge",
            "Engine searches waiting for the compute budget.",
            compute.waiting().to_string(),
        );
        metric(
            "qiyuan_searches_peak",
            "gauge",
            "The most engine searches that ran at once since the server started.",
            compute.peak().to_string(),
        );
        let (moves, analysis) = compute.granted();
        let _ = writeln!(
            out,
            "# HELP qiyuan_searches_total Engine searches begun, by kind."
        );
        let _ = writeln!(out, "# TYPE qiyuan_searches_total counter");
        let _ = writeln!(
            out,
            "qiyuan_searches_total{{node=\"{node}\",kind=\"move\"}} {moves}"
        );
        let _ = writeln!(
            out,
            "qiyuan_searches_total{{node=\"{node}\",kind=\"analysis\"}} {analysis}"
        );
        out
    }

    /// The store's group writer in the text format: its batches as a histogram
    /// of their sizes (the sum is the appends written) and the time spent
    /// writing them.
    pub fn render_store(&self, stats: &WriterStats) -> String {
        let node = &self.node;
        let mut out = String::with_capacity(1024);
        let buckets = stats.sizes.iter().enumerate().map(|(i, n)| {
            let le = match BATCH_SIZE_BOUNDS.get(i) {
                Some(bound) => bound.to_string(),
                None => "+Inf".into(),
            };
            (le, *n)
        });
        write_histogram(
            &mut out,
            "qiyuan_store_batch_size",
            "Log appends per transaction of the store's group writer.",
            node,
            buckets,
            &stats.appends.to_string(),
        );
        let name = "qiyuan_store_batch_write_seconds_total";
        let _ = writeln!(
            out,
            "# HELP {name} Time the group writer spent writing its batches, from the first statement to the commit."
        );
        let _ = writeln!(out, "# TYPE {name} counter");
        let _ = writeln!(
            out,
            "{name}{{node=\"{node}\"}} {}",
            stats.write_us as f64 / 1e6
        );
        for (name, help, value) in [
            (
                "qiyuan_store_jobs_total",
                "Writes other than log appends that the group writer made in its batches (SQLite).",
                stats.jobs,
            ),
            (
                "qiyuan_store_job_batches_total",
                "Batches of the group writer that held such writes.",
                stats.job_batches,
            ),
        ] {
            let _ = writeln!(out, "# HELP {name} {help}");
            let _ = writeln!(out, "# TYPE {name} counter");
            let _ = writeln!(out, "{name}{{node=\"{node}\"}} {value}");
        }
        out
    }

    /// The text format, with the live tables' count given.
    pub fn render(&self, live_tables: usize) -> String {
        let node = &self.node;
        let mut out = String::with_capacity(4096);
        let gauge = |out: &mut String, name: &str, help: &str, value: String| {
            let _ = writeln!(out, "# HELP {name} {help}");
            let _ = writeln!(out, "# TYPE {name} gauge");
            let _ = writeln!(out, "{name}{{node=\"{node}\"}} {value}");
        };
        let _ = writeln!(out, "# HELP qiyuan_build_info The running version.");
        let _ = writeln!(out, "# TYPE qiyuan_build_info gauge");
        let _ = writeln!(
            out,
            "qiyuan_build_info{{node=\"{node}\",version=\"{}\"}} 1",
            env!("CARGO_PKG_VERSION")
        );
        gauge(
            &mut out,
            "qiyuan_uptime_seconds",
            "Seconds since the server started.",
            format!("{:.3}", self.started.elapsed().as_secs_f64()),
        );
        gauge(
            &mut out,
            "qiyuan_live_tables",
            "Live tables owned by this node.",
            live_tables.to_string(),
        );
        gauge(
            &mut out,
            "qiyuan_sockets",
            "Open WebSockets on this node.",
            self.sockets.load(Ordering::Relaxed).max(0).to_string(),
        );
        if let Some(rss) = resident_bytes() {
            gauge(
                &mut out,
                "process_resident_memory_bytes",
                "Resident memory of the server process.",
                rss.to_string(),
            );
        }
        let name = "qiyuan_moves_accepted_total";
        let _ = writeln!(out, "# HELP {name} Moves committed and broadcast, by game.");
        let _ = writeln!(out, "# TYPE {name} counter");
        for (game, n) in &self.moves {
            let _ = writeln!(
                out,
                "{name}{{node=\"{node}\",game=\"{}\"}} {}",
                escape(game),
                n.load(Ordering::Relaxed)
            );
        }
        self.move_broadcast.render(
            &mut out,
            "qiyuan_move_broadcast_seconds",
            "From the table taking a move to its event queued for every subscriber.",
            node,
        );
        self.store_commit.render(
            &mut out,
            "qiyuan_store_commit_seconds",
            "Writing one command's log entries to the store.",
            node,
        );
        let name = "qiyuan_errors_total";
        let _ = writeln!(
            out,
            "# HELP {name} Errors answered to clients (HTTP and WebSocket), by code."
        );
        let _ = writeln!(out, "# TYPE {name} counter");
        for (code, n) in errors().iter() {
            let _ = writeln!(
                out,
                "{name}{{node=\"{node}\",code=\"{}\"}} {n}",
                escape(code)
            );
        }
        out
    }
}

/// Holds one open WebSocket in [`Metrics`]'s count.
pub struct SocketGuard(Arc<Metrics>);

impl Drop for SocketGuard {
    fn drop(&mut self) {
        self.0.sockets.fetch_sub(1, Ordering::Relaxed);
    }
}

static ERRORS: Mutex<BTreeMap<&'static str, u64>> = Mutex::new(BTreeMap::new());

fn errors() -> std::sync::MutexGuard<'static, BTreeMap<&'static str, u64>> {
    ERRORS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Counts an error answered to a client, by its stable code.
pub fn count_error(code: &'static str) {
    *errors().entry(code).or_insert(0) += 1;
}

/// A label value as the text format writes it.
fn escape(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

/// The host's name, for a node that was given none.
fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "qiyuan".into())
}

/// The process's resident memory (Linux: `VmRSS` of /proc/self/status).
fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histograms_are_cumulative_and_labels_escaped() {
        let m = Metrics::new(&["chess"], Some("a \"b\"\n"), &[], None);
        m.move_broadcast.observe(Duration::from_micros(100));
        m.move_broadcast.observe(Duration::from_micros(250));
        m.move_broadcast.observe(Duration::from_millis(3));
        m.move_broadcast.observe(Duration::from_secs(20));
        let text = m.render(0);
        let node = r#"node="a \"b\"\n""#;
        for line in [
            format!("qiyuan_move_broadcast_seconds_bucket{{{node},le=\"0.00025\"}} 2"),
            format!("qiyuan_move_broadcast_seconds_bucket{{{node},le=\"0.0025\"}} 2"),
            format!("qiyuan_move_broadcast_seconds_bucket{{{node},le=\"0.005\"}} 3"),
            format!("qiyuan_move_broadcast_seconds_bucket{{{node},le=\"10\"}} 3"),
            format!("qiyuan_move_broadcast_seconds_bucket{{{node},le=\"+Inf\"}} 4"),
            format!("qiyuan_move_broadcast_seconds_count{{{node}}} 4"),
            format!("qiyuan_move_broadcast_seconds_sum{{{node}}} 20.00335"),
        ] {
            assert!(text.lines().any(|l| l == line), "{line} in\n{text}");
        }
    }

    #[test]
    fn the_writers_batches_are_a_histogram_of_sizes() {
        let m = Metrics::new(&[], Some("n"), &[], None);
        let mut stats = WriterStats {
            batches: 4,
            appends: 1 + 1 + 3 + 5000,
            write_us: 2_500_000,
            ..WriterStats::default()
        };
        stats.sizes[0] = 2;
        stats.sizes[1] = 1;
        stats.sizes[BATCH_SIZE_BOUNDS.len()] = 1;
        let text = m.render_store(&stats);
        for line in [
            r#"qiyuan_store_batch_size_bucket{node="n",le="1"} 2"#,
            r#"qiyuan_store_batch_size_bucket{node="n",le="4"} 3"#,
            r#"qiyuan_store_batch_size_bucket{node="n",le="1024"} 3"#,
            r#"qiyuan_store_batch_size_bucket{node="n",le="+Inf"} 4"#,
            r#"qiyuan_store_batch_size_sum{node="n"} 5005"#,
            r#"qiyuan_store_batch_size_count{node="n"} 4"#,
            r#"qiyuan_store_batch_write_seconds_total{node="n"} 2.5"#,
        ] {
            assert!(text.lines().any(|l| l == line), "{line} in\n{text}");
        }
    }

    #[test]
    fn readers_come_from_the_allow_list_or_bring_the_token() {
        let m = Metrics::new(&[], None, &["127.0.0.1".into()], Some("s3cret"));
        let none = None;
        let ip = |s: &str| Some(s.parse().unwrap());
        assert!(m.may_read(ip("127.0.0.1"), none));
        assert!(!m.may_read(ip("10.0.0.1"), none));
        assert!(
            !m.may_read(None, none),
            "an unknown address is no one allowed"
        );
        let bearer = Some("s3cret");
        assert!(m.may_read(ip("10.0.0.1"), bearer));
        assert!(m.may_read(None, bearer));
        let bearer = Some("s3cre");
        assert!(!m.may_read(ip("10.0.0.1"), bearer));
    }
}
