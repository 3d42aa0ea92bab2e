//! The load generator (`qiyuan bench-load`): N concurrent chess games between
//! simulated players over real WebSockets, measuring accepted moves per second
//! and the time from a player's move to the opponent receiving it; with
//! [`LoadConfig::chat_every`], the players chat at their tables and hold their
//! pages' channels too.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, anyhow, bail};
use serde_json::json;

use super::client::{Client, REPLY_WITHIN};
use super::moves::{GAME, MAX_PLIES, move_at};
use super::proc_stats::{process_cpu, process_rss, threads_cpu};

/// The load generator's settings.
#[derive(Debug, Clone)]
pub struct LoadConfig {
    pub base: String,
    /// Further nodes of the same site (several nodes): the sockets are spread
    /// over `base` and these, round robin, so each game's two players are on
    /// different nodes.
    pub others: Vec<String>,
    pub games: usize,
    pub duration: Duration,
    /// Pause between a player receiving the opponent's move and answering it.
    pub think: Duration,
    /// Spread of the game starts, so that the load ramps up.
    pub ramp: Duration,
    /// After the ramp, how long at most to wait for every pair to have begun
    /// its first game before the measured part begins (a server that starts
    /// games slower than the ramp would otherwise be measured with fewer
    /// games than asked for, its backlog of starts inside the measured part).
    pub settle: Duration,
    /// The server's process on this machine, whose CPU time is measured.
    pub server_pid: Option<u32>,
    /// Plies per game (at most [`MAX_PLIES`]); then the pair resigns, leaves
    /// and starts the next game.
    pub plies: usize,
    /// Whether the pairs' first games are cut short, pair `i`'s after
    /// `1 + i % plies` plies, so that games end and start all through the run
    /// as in a hall that has been open a while. Otherwise every first game is
    /// `plies` long, and with games longer than the ramp and the measured part
    /// together none ends while it is measured.
    pub stagger: bool,
    /// Chat and presence (issue #43): each game's players take turns to write
    /// a line at their table every this long (the first at a time of the
    /// pair's own), and each player holds a second socket, their page's
    /// channel (registered for notifications, counted in presence).
    pub chat_every: Option<Duration>,
}

/// What a run measured.
#[derive(Debug, Clone)]
pub struct LoadReport {
    pub games_started: u64,
    /// Pairs that had begun their first game when the measured part began
    /// (after the ramp and the settling): at most `games`.
    pub playing_at_start: u64,
    /// How long after the ramp the measured part began: until every pair
    /// was playing, or [`LoadConfig::settle`].
    pub settled: Duration,
    /// Mean time of a pair's setup (two guests, two sockets), in milliseconds.
    pub setup_ms: f64,
    /// Mean time of each call: create, sit, ready (first, second), resign,
    /// leave, unwatch.
    pub calls_ms: [f64; 7],
    pub games_finished: u64,
    /// Games that began, and games that ended, during the measured part.
    pub measured_starts: u64,
    pub measured_ends: u64,
    /// The mean time of a game's start (its four calls: create, sit, ready,
    /// ready) and of its end (resign, then leave and unwatch for both),
    /// over those that began or ended in the measured part, in milliseconds.
    pub measured_start_ms: f64,
    pub measured_end_ms: f64,
    pub moves: u64,
    pub errors: u64,
    /// Games that had not stopped well after the run and were stopped (counted
    /// in `errors` too).
    pub stuck: u64,
    pub elapsed: Duration,
    pub latencies_us: Vec<u64>,
    /// When each latency in `latencies_us` was measured (the opponent read the
    /// move), in milliseconds since the measured part began.
    pub latencies_at_ms: Vec<u32>,
    /// Bytes both players' sockets received for the measured moves (the
    /// opponent's and the mover's `event`, the mover's `ack`).
    pub move_bytes: u64,
    /// Bytes of the measured moves' `event` as the opponent received it.
    pub event_bytes: u64,
    /// The server process's CPU time (user + system) over the measured part.
    pub server_cpu: Option<Duration>,
    /// The server's CPU time over the measured part by thread name (the
    /// runtime's workers, sqlx's SQLite threads, the store's writer).
    pub server_threads: BTreeMap<String, Duration>,
    /// The server process's resident memory at the end of the measured part.
    pub server_rss: Option<u64>,
    /// The load generator's own CPU time (user + system) over the measured part.
    pub own_cpu: Option<Duration>,
    /// Chat lines acknowledged during the measured part, and lines refused or
    /// unanswered over the whole run (with [`LoadConfig::chat_every`]).
    pub chat_lines: u64,
    pub chat_errors: u64,
}

impl LoadReport {
    /// Mean time of the four calls that start a game, in milliseconds.
    pub fn start_ms(&self) -> f64 {
        self.calls_ms[..4].iter().sum()
    }

    /// Mean time of the five calls that end a game (leave and unwatch once
    /// per player), in milliseconds.
    pub fn end_ms(&self) -> f64 {
        self.calls_ms[4] + 2.0 * (self.calls_ms[5] + self.calls_ms[6])
    }

    /// Bytes on the wire per measured move, both sockets together.
    pub fn bytes_per_move(&self) -> f64 {
        self.move_bytes as f64 / self.latencies_us.len().max(1) as f64
    }

    /// Bytes of one move's `event` to the opponent, on average.
    pub fn event_bytes_per_move(&self) -> f64 {
        self.event_bytes as f64 / self.latencies_us.len().max(1) as f64
    }

    /// The load generator's CPU time per accepted move, in microseconds.
    pub fn own_cpu_us_per_move(&self) -> Option<f64> {
        self.own_cpu
            .map(|c| c.as_secs_f64() * 1e6 / self.moves.max(1) as f64)
    }

    /// The server's CPU time per accepted move, in microseconds.
    pub fn server_cpu_us_per_move(&self) -> Option<f64> {
        self.server_cpu
            .map(|c| c.as_secs_f64() * 1e6 / self.moves.max(1) as f64)
    }

    pub fn moves_per_sec(&self) -> f64 {
        self.moves as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// The `q`-quantile of the move-to-opponent latency, in milliseconds.
    pub fn latency_ms(&self, q: f64) -> f64 {
        let mut all = self.latencies_us.clone();
        all.sort_unstable();
        quantile_ms(&all, q)
    }

    /// The measured part second by second: for each, the moves whose
    /// opponent read them then, with their latency's p50, p99 and max in
    /// milliseconds (a stall shows as a second of few moves and a long tail).
    pub fn timeline(&self) -> Vec<(usize, f64, f64, f64)> {
        let seconds = self.elapsed.as_secs_f64().round() as usize;
        let mut buckets = vec![Vec::new(); seconds.max(1)];
        for (&us, &at) in self.latencies_us.iter().zip(&self.latencies_at_ms) {
            let k = (at as usize / 1000).min(buckets.len() - 1);
            buckets[k].push(us);
        }
        buckets
            .into_iter()
            .map(|mut b| {
                b.sort_unstable();
                let q = |q| quantile_ms(&b, q);
                (b.len(), q(0.5), q(0.99), q(1.0))
            })
            .collect()
    }
}

/// The `q`-quantile of `v` (microseconds, sorted), in milliseconds; NaN if
/// empty.
fn quantile_ms(v: &[u64], q: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    let i = ((v.len() as f64 - 1.0) * q).round() as usize;
    v[i.min(v.len() - 1)] as f64 / 1000.0
}

#[derive(Default)]
struct Counters {
    started: AtomicU64,
    finished: AtomicU64,
    moves: AtomicU64,
    errors: AtomicU64,
    move_bytes: AtomicU64,
    event_bytes: AtomicU64,
    /// Sockets opened, for spreading them over several nodes.
    sockets: AtomicU64,
    /// Pairs that have begun their first game.
    playing: AtomicU64,
    /// Where a pair's time goes besides its moves, in microseconds summed over
    /// all pairs: making the two guests and opening their sockets; the calls
    /// that start a game (create, sit, ready ×2); those that end it (resign,
    /// leave ×2, unwatch ×2).
    setup_us: AtomicU64,
    starts: AtomicU64,
    ends: AtomicU64,
    /// Each call's microseconds (as in [`LoadReport::calls_ms`]).
    calls: [AtomicU64; 7],
    /// Games begun and ended in the measured part, and their starts' and
    /// ends' microseconds.
    measured_starts: AtomicU64,
    measured_ends: AtomicU64,
    measured_start_us: AtomicU64,
    measured_end_us: AtomicU64,
    /// Chat lines acknowledged in the measured part, and refused at any time.
    chat_lines: AtomicU64,
    chat_errors: AtomicU64,
}

fn mean_ms(sum: &AtomicU64, n: u64) -> f64 {
    sum.load(Ordering::Relaxed) as f64 / 1000.0 / n.max(1) as f64
}

/// Runs N games at once until the duration is over; measures only the steady
/// part (after every game has started).
pub async fn run_load(cfg: LoadConfig) -> anyhow::Result<LoadReport> {
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(64)
        .build()?;
    let counters = Arc::new(Counters::default());
    let latencies = Arc::new(std::sync::Mutex::new(Vec::<(u64, Instant)>::new()));
    let measuring = Arc::new(std::sync::atomic::AtomicBool::new(false));
    // Every pair stops at the end of the measured part, known once it begins;
    // until then, at the latest it could be.
    let deadline = Arc::new(Deadline::new(cfg.ramp + cfg.settle + cfg.duration));
    let mut tasks = Vec::new();
    for i in 0..cfg.games {
        let http = http.clone();
        let cfg = cfg.clone();
        let counters = counters.clone();
        let latencies = latencies.clone();
        let measuring = measuring.clone();
        let deadline = deadline.clone();
        let delay = cfg.ramp.mul_f64(i as f64 / cfg.games.max(1) as f64);
        tasks.push(tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            let first_plies = if cfg.stagger {
                1 + i % cfg.plies.max(1)
            } else {
                cfg.plies
            };
            let result = pair(
                &http,
                &cfg,
                i,
                first_plies,
                &deadline,
                &counters,
                &latencies,
                &measuring,
            )
            .await;
            if let Err(err) = result {
                counters.errors.fetch_add(1, Ordering::Relaxed);
                tracing::warn!("simulated game failed: {err:#}");
            }
        }));
    }
    tokio::time::sleep(cfg.ramp).await;
    let ramped = Instant::now();
    while ramped.elapsed() < cfg.settle
        && counters.playing.load(Ordering::Relaxed) + counters.errors.load(Ordering::Relaxed)
            < cfg.games as u64
    {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let settled = ramped.elapsed();
    deadline.set(cfg.duration);
    measuring.store(true, Ordering::Relaxed);
    let playing_at_start = counters.playing.load(Ordering::Relaxed);
    let moves_at_start = counters.moves.load(Ordering::Relaxed);
    let cpu_at_start = cfg.server_pid.and_then(process_cpu);
    let threads_at_start = cfg.server_pid.map(threads_cpu).unwrap_or_default();
    let own_at_start = process_cpu(std::process::id());
    let t0 = Instant::now();
    tokio::time::sleep(cfg.duration).await;
    let elapsed = t0.elapsed();
    let moves = counters.moves.load(Ordering::Relaxed) - moves_at_start;
    let server_cpu = cfg
        .server_pid
        .and_then(process_cpu)
        .zip(cpu_at_start)
        .map(|(end, start)| end.saturating_sub(start));
    // Threads that ended during the run are left out; new ones count whole.
    let server_threads = cfg
        .server_pid
        .map(threads_cpu)
        .unwrap_or_default()
        .into_iter()
        .map(|(name, end)| {
            let start = threads_at_start.get(&name).copied().unwrap_or_default();
            (name, end.saturating_sub(start))
        })
        .filter(|(_, cpu)| !cpu.is_zero())
        .collect();
    let own_cpu = process_cpu(std::process::id())
        .zip(own_at_start)
        .map(|(end, start)| end.saturating_sub(start));
    let server_rss = cfg.server_pid.and_then(process_rss);
    measuring.store(false, Ordering::Relaxed);
    // Every game stops at the deadline: it finishes its move in progress and
    // leaves its table. One still running after a patience more (plus its
    // thinking) is stuck: it is stopped and counted, so that the run always ends.
    let grace = tokio::time::Instant::now() + REPLY_WITHIN * 2 + cfg.think;
    let mut stuck = 0;
    for mut t in tasks {
        if tokio::time::timeout_at(grace, &mut t).await.is_err() {
            t.abort();
            stuck += 1;
        }
    }
    if stuck > 0 {
        tracing::warn!("{stuck} simulated games had not stopped after the run: stopped them");
    }
    let samples = std::mem::take(&mut *latencies.lock().unwrap_or_else(|e| e.into_inner()));
    let latencies_us = samples.iter().map(|(us, _)| *us).collect();
    let latencies_at_ms = samples
        .iter()
        .map(|(_, at)| at.saturating_duration_since(t0).as_millis() as u32)
        .collect();
    Ok(LoadReport {
        games_started: counters.started.load(Ordering::Relaxed),
        playing_at_start,
        settled,
        setup_ms: mean_ms(&counters.setup_us, counters.playing.load(Ordering::Relaxed)),
        calls_ms: {
            let (s, e) = (
                counters.starts.load(Ordering::Relaxed),
                counters.ends.load(Ordering::Relaxed),
            );
            [
                mean_ms(&counters.calls[0], s),
                mean_ms(&counters.calls[1], s),
                mean_ms(&counters.calls[2], s),
                mean_ms(&counters.calls[3], s),
                mean_ms(&counters.calls[4], e),
                mean_ms(&counters.calls[5], 2 * e),
                mean_ms(&counters.calls[6], 2 * e),
            ]
        },
        games_finished: counters.finished.load(Ordering::Relaxed),
        measured_starts: counters.measured_starts.load(Ordering::Relaxed),
        measured_ends: counters.measured_ends.load(Ordering::Relaxed),
        measured_start_ms: mean_ms(
            &counters.measured_start_us,
            counters.measured_starts.load(Ordering::Relaxed),
        ),
        measured_end_ms: mean_ms(
            &counters.measured_end_us,
            counters.measured_ends.load(Ordering::Relaxed),
        ),
        moves,
        errors: counters.errors.load(Ordering::Relaxed) + stuck,
        stuck,
        elapsed,
        latencies_us,
        latencies_at_ms,
        move_bytes: counters.move_bytes.load(Ordering::Relaxed),
        event_bytes: counters.event_bytes.load(Ordering::Relaxed),
        server_cpu,
        server_threads,
        server_rss,
        own_cpu,
        chat_lines: counters.chat_lines.load(Ordering::Relaxed),
        chat_errors: counters.chat_errors.load(Ordering::Relaxed),
    })
}

fn add_us(sum: &AtomicU64, since: Instant) {
    sum.fetch_add(since.elapsed().as_micros() as u64, Ordering::Relaxed);
}

/// When the simulated pairs stop: a time from the run's start, moved once the
/// measured part begins.
#[derive(Debug)]
struct Deadline {
    start: Instant,
    /// Microseconds after `start`.
    at_us: AtomicU64,
}

impl Deadline {
    fn new(after: Duration) -> Deadline {
        Deadline {
            start: Instant::now(),
            at_us: AtomicU64::new(after.as_micros() as u64),
        }
    }

    /// The deadline becomes `after` from now.
    fn set(&self, after: Duration) {
        let at = self.start.elapsed() + after;
        self.at_us.store(at.as_micros() as u64, Ordering::Relaxed);
    }

    fn passed(&self) -> bool {
        self.start.elapsed().as_micros() as u64 >= self.at_us.load(Ordering::Relaxed)
    }
}

/// Two simulated players playing game after game until the deadline.
#[allow(clippy::too_many_arguments)]
async fn pair(
    http: &reqwest::Client,
    cfg: &LoadConfig,
    index: usize,
    first_plies: usize,
    deadline: &Deadline,
    counters: &Counters,
    latencies: &std::sync::Mutex<Vec<(u64, Instant)>>,
    measuring: &std::sync::atomic::AtomicBool,
) -> anyhow::Result<()> {
    let began = Instant::now();
    let white = Client::guest(http, &cfg.base).await?;
    let black = Client::guest(http, &cfg.base).await?;
    // Several nodes: socket k on node k mod n (sessions are shared).
    let nodes: Vec<&String> = std::iter::once(&cfg.base).chain(&cfg.others).collect();
    let k = counters.sockets.fetch_add(2, Ordering::Relaxed) as usize;
    let on = |c: &Client, i: usize| Client {
        base: nodes[i % nodes.len()].clone(),
        ..c.clone()
    };
    let mut ws = [
        on(&white, k).connect().await?,
        on(&black, k + 1).connect().await?,
    ];
    // With chat: each player's page channel, held open and read.
    let mut pages = Vec::new();
    if cfg.chat_every.is_some() {
        for (c, i) in [(&white, k), (&black, k + 1)] {
            let page = on(c, i).connect().await?;
            pages.push(tokio::spawn(page.hold()));
        }
    }
    // The pair's first line at a time of its own within the period.
    let mut next_line = cfg
        .chat_every
        .map(|every| Instant::now() + every.mul_f64((index % 101) as f64 / 101.0));
    add_us(&counters.setup_us, began);
    let mut first = true;
    while !deadline.passed() {
        // Repetitions are claimed (FIDE), not drawn at the third occurrence:
        // the knight cycle repeats the start position every 8 plies.
        let create = json!({"game": GAME, "seat": 0,
            "options": {"repetition": "claim"},
            "time": {"kind": "fischer", "base": 3_600_000, "increment": 0}});
        let starting = Instant::now();
        let r = ws[0].call("create", create).await?;
        add_us(&counters.calls[0], starting);
        let table = r["d"]["table"].as_str().context("no table id")?.to_string();
        let t = Instant::now();
        ws[1]
            .call("sit", json!({"table": table, "seat": 1}))
            .await?;
        add_us(&counters.calls[1], t);
        let t = Instant::now();
        ws[0].call("ready", json!({"table": table})).await?;
        add_us(&counters.calls[2], t);
        let t = Instant::now();
        ws[1].call("ready", json!({"table": table})).await?;
        add_us(&counters.calls[3], t);
        counters.started.fetch_add(1, Ordering::Relaxed);
        counters.starts.fetch_add(1, Ordering::Relaxed);
        if measuring.load(Ordering::Relaxed) {
            counters.measured_starts.fetch_add(1, Ordering::Relaxed);
            add_us(&counters.measured_start_us, starting);
        }
        let plies = if std::mem::take(&mut first) {
            counters.playing.fetch_add(1, Ordering::Relaxed);
            first_plies
        } else {
            cfg.plies
        };
        for ply in 0..plies.min(MAX_PLIES) {
            if deadline.passed() {
                break;
            }
            let (mover, other) = if ply % 2 == 0 { (0, 1) } else { (1, 0) };
            let action = move_at(ply);
            let sent = Instant::now();
            let before = ws[0].received + ws[1].received;
            let other_before = ws[other].received;
            let id = ws[mover]
                .send("move", json!({"table": table, "action": action}))
                .await?;
            // The opponent receives the move ... (within one patience in all,
            // whatever else arrives meanwhile)
            let until = tokio::time::Instant::now() + REPLY_WITHIN;
            let ply_now = ply as u64 + 1;
            tokio::time::timeout_at(
                until,
                ws[other].recv_until(|m| {
                    Ok(m.t == "event"
                        && m.d.as_ref().is_some_and(|d| {
                            d.events
                                .iter()
                                .any(|e| e.kind == "acted" && e.ply == Some(ply_now))
                        }))
                }),
            )
            .await
            .map_err(|_| anyhow!("the opponent did not receive ply {} in time", ply + 1))??;
            let latency = sent.elapsed();
            let event_bytes = ws[other].received - other_before;
            // ... and the mover its acknowledgement.
            tokio::time::timeout_at(
                until,
                ws[mover].recv_until(|m| {
                    if m.id.as_deref() != Some(id.as_str()) {
                        return Ok(false);
                    }
                    if m.t != "ack" {
                        bail!("move refused: {}", m.t);
                    }
                    Ok(true)
                }),
            )
            .await
            .map_err(|_| anyhow!("no answer to ply {} in time", ply + 1))??;
            counters.moves.fetch_add(1, Ordering::Relaxed);
            if measuring.load(Ordering::Relaxed) {
                // Kept at once: a game that fails later keeps its measured moves.
                latencies
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((latency.as_micros() as u64, Instant::now()));
                let bytes = ws[0].received + ws[1].received - before;
                counters.move_bytes.fetch_add(bytes, Ordering::Relaxed);
                counters
                    .event_bytes
                    .fetch_add(event_bytes, Ordering::Relaxed);
            }
            if let (Some(every), Some(at)) = (cfg.chat_every, next_line.as_mut())
                && Instant::now() >= *at
            {
                *at += every;
                let line = json!({"table": table, "text": format!("gl hf {ply}")});
                match ws[mover].call("chat", line).await {
                    Ok(_) if measuring.load(Ordering::Relaxed) => {
                        counters.chat_lines.fetch_add(1, Ordering::Relaxed);
                    }
                    Ok(_) => {}
                    Err(e) => {
                        counters.chat_errors.fetch_add(1, Ordering::Relaxed);
                        tracing::warn!("a chat line failed: {e:#}");
                    }
                }
            }
            if !cfg.think.is_zero() {
                tokio::time::sleep(cfg.think).await;
            }
        }
        let ending = Instant::now();
        let _ = ws[0].call("resign", json!({"table": table})).await;
        add_us(&counters.calls[4], ending);
        for s in &mut ws {
            let t = Instant::now();
            s.call("leave", json!({"table": table})).await.ok();
            add_us(&counters.calls[5], t);
            let t = Instant::now();
            s.call("unwatch", json!({"table": table})).await.ok();
            add_us(&counters.calls[6], t);
        }
        counters.finished.fetch_add(1, Ordering::Relaxed);
        counters.ends.fetch_add(1, Ordering::Relaxed);
        if measuring.load(Ordering::Relaxed) {
            counters.measured_ends.fetch_add(1, Ordering::Relaxed);
            add_us(&counters.measured_end_us, ending);
        }
    }
    for s in ws {
        s.close().await;
    }
    for page in pages {
        page.abort();
    }
    Ok(())
}
