//! `qiyuan doudizhu`: Doudizhu tools — the legal plays from a hand, what a set of
//! cards reads as, and a seeded deal.

use std::process::ExitCode;

use anyhow::Context;
use qiyuan_doudizhu::{Counts, Deal, classify, legal_plays};

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// List the legal plays from a hand, one a line, cards sorted by rank (passing
    /// is not listed). Cards are written 3456789TJQKA2 (or 10), B and R for the
    /// black and red joker.
    Plays {
        /// The hand, e.g. 3334455579TTJQKA2.
        #[arg(long)]
        hand: String,
        /// The play to beat; leave out when leading.
        #[arg(long)]
        last: Option<String>,
        /// Also print each play's combination type.
        #[arg(long)]
        kinds: bool,
    },
    /// Say what a set of cards reads as (e.g. 33344 is a trio with a pair).
    Classify {
        /// The cards.
        cards: String,
    },
    /// Show the deal a seed produces: three hands and the bottom cards.
    Deal {
        /// The seed.
        #[arg(long)]
        seed: u64,
    },
}

pub fn run(cmd: Command) -> anyhow::Result<ExitCode> {
    match cmd {
        Command::Plays { hand, last, kinds } => {
            let hand = Counts::parse(&hand).context("reading --hand")?;
            let last = match last.as_deref().map(str::trim) {
                None | Some("") => None,
                Some(text) => {
                    let cards = Counts::parse(text).context("reading --last")?;
                    Some(classify(cards).with_context(|| {
                        format!("--last {cards} is not a combination, so nothing can follow it")
                    })?)
                }
            };
            let mut plays = legal_plays(hand, last.as_ref());
            plays.sort_by_key(|p| (p.kind, p.chain, p.rank, p.cards));
            let mut out = String::new();
            for p in plays {
                if kinds {
                    out.push_str(&format!("{}\t{}\n", p.cards, p.kind));
                } else {
                    out.push_str(&format!("{}\n", p.cards));
                }
            }
            print!("{out}");
            Ok(ExitCode::SUCCESS)
        }
        Command::Classify { cards } => {
            let counts = Counts::parse(&cards).context("reading the cards")?;
            match classify(counts) {
                Some(c) => {
                    println!("{}\t{}", c.cards, c.kind);
                    Ok(ExitCode::SUCCESS)
                }
                None => {
                    println!("{counts}\tnot a combination");
                    Ok(ExitCode::FAILURE)
                }
            }
        }
        Command::Deal { seed } => {
            let deal = Deal::from_seed(seed);
            for (i, h) in deal.hands.iter().enumerate() {
                println!("seat {i}: {}", h.counts());
            }
            println!("bottom: {}", deal.bottom.counts());
            Ok(ExitCode::SUCCESS)
        }
    }
}
