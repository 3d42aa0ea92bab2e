//! A small client of the server's own protocol, and the load generator built on
//! it (`qiyuan bench-load`): N concurrent chess games between simulated players
//! over real WebSockets, measuring accepted moves per second and the time from a
//! player's move to the opponent receiving it.

mod client;
mod idle;
mod load;
mod moves;
mod proc_stats;

pub use client::{Client, REPLY_WITHIN, Socket, wait_ready};
pub use idle::{IdleReport, idle_sockets};
pub use load::{LoadConfig, LoadReport, run_load};
pub use moves::{KNIGHT_CYCLE, MAX_PLIES, PLIES_PER_GAME, move_at};
