//! One module per subcommand; each owns its arguments and its output.

#[cfg(feature = "server")]
pub mod admin;
#[cfg(feature = "server")]
pub mod bench_load;
#[cfg(feature = "doudizhu")]
pub mod doudizhu;
pub mod engine;
#[cfg(feature = "go")]
pub mod go;
#[cfg(feature = "go")]
pub mod gtp;
pub mod perft;
#[cfg(feature = "chess")]
pub mod pgn;
#[cfg(feature = "server")]
pub mod serve;
#[cfg(feature = "swiss")]
pub mod swiss;
#[cfg(feature = "xiangqi")]
pub mod xiangqi;
