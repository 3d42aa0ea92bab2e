//! The tests of the `qiyuan` binary, in one binary (as the server's are): each
//! file is a module — the offline commands (perft, PGN, scoring, pairing), the
//! engines over UCI, UCCI and GTP against other programs, and `qiyuan serve`
//! run as an operator runs it (crashes, backups, logs, limits, the load
//! generator). `util` runs the binary; the rest comes from qiyuan-testkit.
//!
//! Run one module's tests with a filter: `cargo test -p qiyuan --test cli --
//! operations::`.

mod util;

mod admin;
mod bench_load;
mod chess;
mod doudizhu;
mod engine_protocols;
mod go_gnugo;
mod go_gtp;
mod go_gtp_tools;
mod go_score;
mod operations;
mod serve_limits;
mod server_crash;
mod swiss;
mod xiangqi;
