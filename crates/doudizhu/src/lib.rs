//! qiyuan-doudizhu: the rules of Doudizhu (斗地主) for three seats — the 54-card
//! deck and a seeded deal, bidding for the landlord, every combination with its
//! kicker rules, the legal plays from a hand, QQ-style scoring, the hidden
//! information each seat and spectator may see, the JSON record, and computer
//! players at two strengths.
//!
//! The crate is pure: the deal's randomness comes only from the seed in the setup,
//! the bots' from a seed they are given. It knows nothing of tables, clocks,
//! users, sockets or storage; the table drives it through [`qiyuan_game::Game`].

pub mod bot;
pub mod card;
pub mod combo;
pub mod enumerate;
pub mod rng;

pub use card::{Card, Counts, Hand, ParseCardError, ParseCardsError, Rank};
pub use combo::{Combo, Kind, classify};
pub use enumerate::{for_each_play, legal_plays};
pub mod game;

pub use game::{Deal, Doudizhu, Options, Record, Spring, View};
