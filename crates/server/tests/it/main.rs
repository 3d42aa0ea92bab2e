//! The server's integration tests, in one binary (as ripgrep's are): each
//! former test file is a module, and the helpers they share are the modules
//! `common` (a server in this process and its HTTP and WebSocket clients),
//! `api` (a Lichess API client), `nodes` (several nodes of one installation)
//! and `proxy` (a delaying TCP proxy). One binary links the server once instead
//! of once per file.
//!
//! Two files stay binaries of their own because they need the machine or the
//! process to themselves: `tests/lag.rs` (clock and flag timings, run one at a
//! time) and `tests/memory.rs` (the process's resident set). They include
//! `common` and `proxy` from here.
//!
//! Run one module's tests with a filter: `cargo test -p qiyuan-server --test it
//! -- swiss_event::`.

mod api;
#[macro_use]
mod common;
mod nodes;
mod proxy;

mod analysis;
mod api_game_logs;
mod authority;
mod bad_input;
mod begin_end;
mod bench_client;
mod card_arbiters;
mod card_events;
mod chat;
mod chat_rooms;
mod chess_rules;
mod compute_budget;
mod computer_players;
mod deal_secrets;
mod doudizhu_bots;
mod doudizhu_leak;
mod doudizhu_points;
mod doudizhu_table;
mod doudizhu_trusteeship;
mod duplicate_event;
mod empty_tables;
mod event_arbiters;
mod event_organiser;
mod event_results;
mod external_engines;
mod fuzz_regressions;
mod go_play;
mod http_errors;
mod invitations;
mod lichess_api;
mod lichess_berserk;
mod lichess_bot;
mod limits;
mod login_attacks;
mod memory_bounds;
mod metrics;
mod multinode;
mod multinode_api;
mod no_game_names;
mod node_faults;
mod origins;
mod people_notify;
mod pings;
mod play;
mod protocol_types;
mod rated_ends;
mod relations;
mod replay_settings;
mod sessions;
mod solo;
mod swiss_event;
mod table_feedback;
mod toy_game;
mod usernames;
mod view_patches;
mod web_assets;
