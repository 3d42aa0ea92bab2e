//! qiyuan-doudizhu: the rules of Doudizhu (斗地主) for three seats — the 54-card
//! deck and a seeded deal, bidding for the landlord, every combination with its
//! kicker rules, the legal plays from a hand, QQ-style scoring, the hidden
//! information each seat and spectator may see, the JSON record, and computer
//! players at two strengths.
//!
//! The crate is pure: the deal's randomness comes only from the setup, the bots'
//! from a seed they are given. It knows nothing of tables, clocks, users, sockets
//! or storage; the table drives it through [`qiyuan_game::Game`].
//!
//! - Deal: a server deals each hand from a fresh 256-bit secret
//!   ([`qiyuan_game::Setup::Secret`]): ChaCha20 keyed by it shuffles the 54
//!   cards, 17 to each seat, 3 to the bottom; when all three pass, the next deal
//!   is the key's next stream, and the first bidder comes from a stream of its
//!   own, so no deal shown tells anything of another. Offline play and tests may
//!   deal from a known seed (`Setup::Seed`, SplitMix64) or from deals written in
//!   ranks. A hand replays from its setup and actions. [`Options::first_bidder`]
//!   overrides the drawn first bidder (the table rotates it between hands).
//! - Scoring (QQ): unit = winning bid × 2 per bomb or rocket × 2 for spring or
//!   anti-spring; the landlord wins or loses 2 units, each farmer 1.
//! - Leaving ([`qiyuan_game::Game::conceded`] with `Escape`): the leaver alone
//!   pays, as a loss at the current multiplier doubled once more; a leaving
//!   farmer's partner neither wins nor loses. See [`Doudizhu`]'s `conceded`.
//! - Hidden information: [`Doudizhu`]'s views hold the viewer's own hand and the
//!   others' counts only; the bottom after the landlord is known; every hand at
//!   the end. The record ([`Record`]) holds every deal (never a secret): it is
//!   for after the hand.

pub mod bot;
pub mod card;
pub mod combo;
pub mod enumerate;
pub mod rng;
pub mod titles;

pub use card::{Card, Counts, Hand, Lang, ParseCardError, ParseCardsError, Rank};
pub use combo::{Combo, Kind, classify};
pub use enumerate::{for_each_play, legal_plays};
pub mod game;

pub use game::{Deal, Doudizhu, Options, Phase, Record, Spring, View};
