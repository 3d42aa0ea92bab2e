//! `qiyuan bench-load`: N concurrent chess games between simulated players over
//! real WebSockets, against a running server (`--url`) or one started in-process on
//! loopback with SQLite in a temporary folder. Reports accepted moves per second and
//! the move-to-opponent latency (p50, p99). Each game uses two sockets: raise
//! `ulimit -n` for large runs.

use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Concurrent games (two sockets each).
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Seconds to measure, after the ramp-up.
    #[arg(long, default_value_t = 30.0)]
    duration: f64,
    /// Seconds over which the games start.
    #[arg(long, default_value_t = 10.0)]
    ramp: f64,
    /// After the ramp, the longest wait (seconds) for every pair to have
    /// begun its first game before the measured part begins.
    #[arg(long, default_value_t = 30.0)]
    settle: f64,
    /// Milliseconds a simulated player thinks before each move.
    #[arg(long, default_value_t = 1000)]
    think_ms: u64,
    /// A running server (`http://127.0.0.1:8080`); default: start one in-process.
    /// Repeated: several nodes of one site, the sockets spread over them (each
    /// game's two players on different nodes).
    #[arg(long)]
    url: Vec<String>,
    /// For the in-process server: a database URL instead of a temporary SQLite file.
    #[arg(long)]
    database: Option<String>,
    /// The running server's process id (with `--url`, on this machine): its CPU
    /// time per move is reported (Linux).
    #[arg(long)]
    server_pid: Option<u32>,
    /// Instead of games: open this many idle sockets (one guest each, made first)
    /// and report the server's CPU per socket opened and memory per idle socket
    /// (needs `--server-pid`).
    #[arg(long)]
    idle_sockets: Option<usize>,
    /// The load generator's worker threads (default: one per core; 1: a
    /// single-threaded runtime, no work stealing). With `--url` only.
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    threads: Option<usize>,
    /// Plies per game before the pair resigns and starts another (three
    /// knight cycles, then a pawn move each, and again).
    #[arg(long, default_value_t = qiyuan_server::bench::PLIES_PER_GAME,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new()
              .range(1..=qiyuan_server::bench::MAX_PLIES as u64))]
    plies: usize,
    /// Also print the measured part second by second (moves, p50, p99, max).
    #[arg(long)]
    timeline: bool,
    /// Cut each pair's first game short (pair i's after 1 + i mod --plies
    /// plies), so that games end and start all through the run, as in a hall
    /// open for a while, the measured part included.
    #[arg(long)]
    stagger: bool,
    /// Chat and presence: each game's players take turns to write a line at
    /// their table every this many seconds, and each holds a second socket,
    /// their page's channel (the "a chat line per game every 10 s":
    /// `--chat-every 10`).
    #[arg(long)]
    chat_every: Option<f64>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    qiyuan_server::init_tracing("warn");
    let runtime = match args.threads {
        Some(_) if args.url.is_empty() => {
            anyhow::bail!("--threads is for the load generator against a running server (--url)")
        }
        Some(1) => tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build(),
        Some(n) => tokio::runtime::Builder::new_multi_thread()
            .worker_threads(n)
            .enable_all()
            .build(),
        None => tokio::runtime::Runtime::new(),
    }
    .context("cannot start the async runtime")?;
    runtime.block_on(async move {
        let dir = std::env::temp_dir().join(format!("qiyuan-bench-{}", std::process::id()));
        let mut urls = args.url.iter().map(|u| u.trim_end_matches('/').to_string());
        let (base, server) = match urls.next() {
            Some(url) => (url, None),
            None => {
                let config = qiyuan_server::Config {
                    listen: "127.0.0.1:0".parse()?,
                    data_dir: dir.clone(),
                    database: args.database.clone(),
                    // Thousands of guests and sockets from one loopback address.
                    max_sockets_per_address: 0,
                    guests_per_address_per_hour: 0,
                    ..qiyuan_server::Config::default()
                };
                let running = qiyuan_server::start(config).await?;
                (format!("http://{}", running.addr), Some(running))
            }
        };
        if let Some(n) = args.idle_sockets {
            let r = qiyuan_server::bench::idle_sockets(
                &base,
                n,
                64,
                Duration::from_secs(3),
                args.server_pid,
            )
            .await?;
            println!(
                "idle sockets: {} opened in {:.1} s",
                r.sockets,
                r.elapsed.as_secs_f64()
            );
            if let (Some(cpu), Some(mem)) = (r.cpu_us_per_socket(), r.bytes_per_socket()) {
                println!(
                    "server CPU per socket opened: {cpu:.0} µs; memory per idle socket: {:.1} KB (RSS {:.0} -> {:.0} MB)",
                    mem / 1000.0,
                    r.rss_before.unwrap_or(0) as f64 / 1e6,
                    r.rss_after.unwrap_or(0) as f64 / 1e6
                );
            }
            if let Some(server) = server {
                server.shutdown().await?;
                let _ = std::fs::remove_dir_all(&dir);
            }
            return anyhow::Ok(());
        }
        println!(
            "bench-load: {} games ({} sockets, {} plies each{}) against {base}{}, think {} ms, {} s ramp, {} s measured",
            args.games,
            args.games * 2,
            args.plies,
            if args.stagger { ", the first ones staggered" } else { "" },
            args.url
                .iter()
                .skip(1)
                .map(|u| format!(" and {u}"))
                .collect::<String>(),
            args.think_ms,
            args.ramp,
            args.duration
        );
        let others: Vec<String> = urls.collect();
        let report = qiyuan_server::bench::run_load(qiyuan_server::bench::LoadConfig {
            base,
            others,
            games: args.games,
            duration: Duration::from_secs_f64(args.duration),
            think: Duration::from_millis(args.think_ms),
            ramp: Duration::from_secs_f64(args.ramp),
            settle: Duration::from_secs_f64(args.settle),
            server_pid: args.server_pid,
            plies: args.plies,
            stagger: args.stagger,
            chat_every: args.chat_every.map(Duration::from_secs_f64),
        })
        .await?;
        if let Some(every) = args.chat_every {
            println!(
                "chat: a line per game every {every} s and a page socket per player; \
                 {} lines in the measured part, {} refused or unanswered",
                report.chat_lines, report.chat_errors
            );
        }
        println!(
            "games started {}, finished {}, failed {} ({} stopped after the run)",
            report.games_started, report.games_finished, report.errors, report.stuck
        );
        println!(
            "pairs playing when the measured part began: {} of {} ({:.1} s after the ramp); \
             mean setup {:.1} ms, game start {:.1} ms, game end {:.1} ms",
            report.playing_at_start,
            args.games,
            report.settled.as_secs_f64(),
            report.setup_ms,
            report.start_ms(),
            report.end_ms()
        );
        let c = report.calls_ms;
        println!(
            "mean call: create {:.1} ms, sit {:.1}, ready {:.1} and {:.1}, resign {:.1}, \
             leave {:.1}, unwatch {:.1}",
            c[0], c[1], c[2], c[3], c[4], c[5], c[6]
        );
        println!(
            "in the measured part: {} games began (their four calls {:.1} ms on average), \
             {} ended (their five {:.1} ms)",
            report.measured_starts,
            report.measured_start_ms,
            report.measured_ends,
            report.measured_end_ms
        );
        println!(
            "accepted moves: {} in {:.1} s = {:.0} moves/s",
            report.moves,
            report.elapsed.as_secs_f64(),
            report.moves_per_sec()
        );
        println!(
            "move-to-opponent latency: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms ({} samples)",
            report.latency_ms(0.5),
            report.latency_ms(0.99),
            report.latency_ms(1.0),
            report.latencies_us.len()
        );
        if args.timeline {
            for (k, (n, p50, p99, max)) in report.timeline().into_iter().enumerate() {
                println!(
                    "  second {:>3}: {n:>6} moves, p50 {p50:.1} ms, p99 {p99:.1} ms, max {max:.1} ms",
                    k + 1
                );
            }
        }
        println!(
            "wire bytes per move: {:.0} on both sockets, {:.0} in the opponent's event",
            report.bytes_per_move(),
            report.event_bytes_per_move()
        );
        if let Some(us) = report.server_cpu_us_per_move() {
            println!("server CPU per move: {us:.0} µs (user + system)");
        }
        if let (Some(cpu), Some(rss)) = (report.server_cpu, report.server_rss) {
            println!(
                "server CPU: {:.2} cores over the measured part; server RSS {:.0} MB",
                cpu.as_secs_f64() / report.elapsed.as_secs_f64().max(1e-9),
                rss as f64 / 1e6
            );
        }
        if !report.server_threads.is_empty() {
            // Where the server's time went, by thread: the runtime's workers
            // (sockets, tables, fan-out), sqlx's SQLite threads, the store's writer.
            let moves = report.moves.max(1) as f64;
            let parts: Vec<String> = report
                .server_threads
                .iter()
                .map(|(name, cpu)| format!("{name} {:.0} µs", cpu.as_secs_f64() * 1e6 / moves))
                .collect();
            println!("server CPU per move by thread: {}", parts.join(", "));
        }
        if let (Some(us), Some(cpu)) = (report.own_cpu_us_per_move(), report.own_cpu) {
            println!(
                "load generator CPU per move: {us:.0} µs, {:.2} cores",
                cpu.as_secs_f64() / report.elapsed.as_secs_f64().max(1e-9)
            );
        }
        if let Some(server) = server {
            server.shutdown().await?;
            let _ = std::fs::remove_dir_all(&dir);
        }
        anyhow::Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}
