//! `qiyuan bench-load --url` against a real `qiyuan serve`: a short run exits by
//! itself and reports its moves, latency and the server's CPU and memory.
#![cfg(feature = "server")]

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use qiyuan_testkit::net::free_port;
use qiyuan_testkit::process::serve_command;

/// Runs `qiyuan bench-load` with `args` against a fresh `qiyuan serve` and
/// returns what it printed, once it exited successfully.
fn bench_load(args: &[&str]) -> String {
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let dir = std::env::temp_dir().join(format!("qiyuan-bench-test-{}-{port}", std::process::id()));
    let mut server = serve_command(env!("CARGO_BIN_EXE_qiyuan"), port, &dir)
        .args([
            "--max-sockets-per-address",
            "0",
            "--guests-per-address-per-hour",
            "0",
        ])
        .spawn()
        .expect("the server starts");
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(qiyuan_server::bench::wait_ready(
        &base,
        Duration::from_secs(60),
    ))
    .expect("the server is up");

    let mut bench = Command::new(env!("CARGO_BIN_EXE_qiyuan"))
        .args(["bench-load", "--url", &base])
        .args(args)
        .args(["--server-pid", &server.id().to_string()])
        // The single-threaded generator the curve in docs/benchmarks.md uses.
        .args(["--threads", "1"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("bench-load starts");
    // A second's ramp and a few measured; the games stop at once after it. A
    // minute is far more than a loaded machine needs.
    let started = Instant::now();
    let status = loop {
        if let Some(status) = bench.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > Duration::from_secs(60) {
            break None;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let mut out = String::new();
    if status.is_none() {
        let _ = bench.kill();
    }
    bench
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&dir);
    let status = status.unwrap_or_else(|| panic!("bench-load did not exit within 60 s:\n{out}"));
    assert!(status.success(), "bench-load failed: {status}\n{out}");
    out
}

/// The line of `out` that starts with `prefix`.
fn line(out: &str, prefix: &str) -> String {
    out.lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no {prefix:?} line in:\n{out}"))
        .to_string()
}

/// The games that began and ended in the measured part, as reported.
fn measured_starts_and_ends(out: &str) -> (u64, u64) {
    let l = line(out, "in the measured part:");
    let number_before = |word: &str| -> u64 {
        let at = l
            .find(word)
            .unwrap_or_else(|| panic!("no {word:?} in {l:?}"));
        l[..at]
            .split_whitespace()
            .last()
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("a count before {word:?} in {l:?}"))
    };
    (number_before(" games began"), number_before(" ended"))
}

#[test]
fn bench_load_against_a_running_server_exits_and_reports() {
    let out = bench_load(&[
        "--games",
        "4",
        "--duration",
        "3",
        "--ramp",
        "1",
        "--think-ms",
        "100",
        // Past the knight cycles: the pawn moves after ply 24 are played too.
        "--plies",
        "40",
        "--timeline",
    ]);
    let line = |prefix: &str| line(&out, prefix);
    assert!(
        line("games started").contains("failed 0 "),
        "no game failed:\n{out}"
    );
    // The measured part waits (up to `--settle`, 30 s) for every pair to play.
    assert!(
        line("pairs playing when the measured part began:").contains(": 4 of 4 "),
        "every pair played in the measured part:\n{out}"
    );
    let moves: u64 = line("accepted moves:")
        .split_whitespace()
        .nth(2)
        .and_then(|n| n.parse().ok())
        .expect("a move count");
    assert!(moves > 0, "moves were played in the measured part:\n{out}");
    // The timeline: a line a measured second, whose moves add up to the samples.
    let seconds: Vec<u64> = out
        .lines()
        .filter(|l| l.trim_start().starts_with("second "))
        .map(|l| {
            l.split_whitespace()
                .nth(2)
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("a move count in {l:?}"))
        })
        .collect();
    assert_eq!(seconds.len(), 3, "one line a measured second:\n{out}");
    let samples: u64 = line("move-to-opponent latency:")
        .rsplit('(')
        .next()
        .and_then(|s| s.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("a sample count");
    assert_eq!(seconds.iter().sum::<u64>(), samples, "{out}");
    assert!(
        !line("move-to-opponent latency:").contains("(0 samples)"),
        "latencies were measured:\n{out}"
    );
    assert!(line("server CPU per move:").ends_with("(user + system)"));
    assert!(line("server CPU:").contains("server RSS"));
    // Where the server's time went, by thread: its runtime's workers at least
    // (the other threads of so short a run may not reach one 10 ms tick).
    let threads = line("server CPU per move by thread:");
    assert!(threads.contains("tokio-rt-worker"), "{threads:?}:\n{out}");
}

/// With `--stagger` the pairs' first games are cut short, so that games end
/// (and the next ones begin) in the measured part even when a whole game is
/// longer than the run: pair i's first game resigns after 1 + i plies here.
#[test]
fn staggered_first_games_end_and_start_while_measured() {
    // 60 plies at 200 ms: a whole game takes 12 s, longer than the ramp
    // and the measured part together.
    let args = [
        "--games",
        "8",
        "--duration",
        "3",
        "--ramp",
        "1",
        "--think-ms",
        "200",
        "--plies",
        "60",
    ];
    let out = bench_load(&args);
    assert_eq!(
        measured_starts_and_ends(&out),
        (0, 0),
        "unstaggered, no game began or ended while measured:\n{out}"
    );
    let staggered = [&args[..], &["--stagger"]].concat();
    let out = bench_load(&staggered);
    assert!(
        line(&out, "bench-load:").contains("the first ones staggered"),
        "{out}"
    );
    let (starts, ends) = measured_starts_and_ends(&out);
    // Pairs 4 to 7 began at 0.5 to 0.9 s and end their first games 1 to 1.6
    // s later, within the measured part (from 1 s, once every pair plays, to
    // 4 s), then begin their next.
    assert!(ends >= 1, "games ended while measured:\n{out}");
    assert!(starts >= 1, "games began while measured:\n{out}");
    assert!(
        line(&out, "games started").contains("failed 0 "),
        "no game failed:\n{out}"
    );
}
