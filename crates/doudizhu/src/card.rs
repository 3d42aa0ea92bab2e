//! Ranks, physical cards, hands of physical cards and multisets of ranks.
//!
//! Suits never matter to the rules, so combinations work on [`Counts`] (how many
//! cards of each rank); the physical [`Card`]s exist so that a deal is a real
//! shuffle of a real 54-card deck that clients can draw with suits.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A rank, ordered as the game orders them: `3` lowest, then `4` … `A`, `2`, the
/// black joker `B` and the red joker `R`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl Rank {
    /// The letters of the ranks, lowest first.
    pub const LETTERS: &'static [u8; 15] = b"3456789TJQKA2BR";
    pub const THREE: Rank = Rank(0);
    pub const ACE: Rank = Rank(11);
    pub const TWO: Rank = Rank(12);
    pub const BLACK_JOKER: Rank = Rank(13);
    pub const RED_JOKER: Rank = Rank(14);
    /// How many ranks there are.
    pub const COUNT: usize = 15;

    /// The rank with this index (0 = `3` … 14 = red joker).
    pub const fn new(index: u8) -> Option<Rank> {
        if index < 15 { Some(Rank(index)) } else { None }
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The rank's letter in `3456789TJQKA2BR`.
    pub const fn letter(self) -> char {
        Rank::LETTERS[self.0 as usize] as char
    }

    /// Reads a rank letter (either case).
    pub fn from_letter(c: char) -> Option<Rank> {
        let c = c.to_ascii_uppercase();
        Rank::LETTERS
            .iter()
            .position(|&l| l as char == c)
            .map(|i| Rank(i as u8))
    }

    pub const fn is_joker(self) -> bool {
        self.0 >= 13
    }

    /// Every rank, lowest first.
    pub fn all() -> impl Iterator<Item = Rank> {
        (0..15).map(Rank)
    }
}

/// The language cards are named in for players: Chinese or English.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lang {
    Zh,
    En,
}

impl Rank {
    /// The rank as players say it: `10` for a ten, 小王 / Little Joker and
    /// 大王 / Big Joker for the jokers, the letter for the others (`3`, `J`,
    /// `A`, `2`). The letters `T`, `B` and `R` are for notation only.
    pub const fn name(self, lang: Lang) -> &'static str {
        const NAMES: [&str; 15] = [
            "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "", "",
        ];
        match (self.0, lang) {
            (13, Lang::Zh) => "小王",
            (13, Lang::En) => "Little Joker",
            (14, Lang::Zh) => "大王",
            (14, Lang::En) => "Big Joker",
            (i, _) => NAMES[i as usize],
        }
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// One physical card of the 54. Ids 0–51 are `rank * 4 + suit` for the ranks `3`
/// to `2`; 52 is the black joker and 53 the red joker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

/// The suit letters, in the order of the suit index: spades, hearts, clubs, diamonds.
const SUITS: &[u8; 4] = b"shcd";

impl Card {
    pub const BLACK_JOKER: Card = Card(52);
    pub const RED_JOKER: Card = Card(53);

    /// The card with this id (0–53).
    pub const fn from_id(id: u8) -> Option<Card> {
        if id < 54 { Some(Card(id)) } else { None }
    }

    pub const fn id(self) -> u8 {
        self.0
    }

    pub const fn rank(self) -> Rank {
        if self.0 >= 52 {
            Rank(self.0 - 52 + 13)
        } else {
            Rank(self.0 / 4)
        }
    }

    /// The suit index 0–3 (spades, hearts, clubs, diamonds); `None` for jokers.
    pub const fn suit(self) -> Option<u8> {
        if self.0 >= 52 { None } else { Some(self.0 % 4) }
    }

    /// All 54 cards in id order.
    pub fn deck() -> impl Iterator<Item = Card> {
        (0..54).map(Card)
    }
}

impl fmt::Display for Card {
    /// `3s`, `Th`, `2d`, and `B`/`R` for the jokers.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.suit() {
            Some(s) => write!(f, "{}{}", self.rank().letter(), SUITS[s as usize] as char),
            None => write!(f, "{}", self.rank().letter()),
        }
    }
}

/// A card written wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseCardError {
    #[error("`{0}` is not a card: write a rank of 3456789TJQKA2 and a suit of shcd, or B/R")]
    Invalid(String),
}

impl FromStr for Card {
    type Err = ParseCardError;
    fn from_str(s: &str) -> Result<Card, ParseCardError> {
        let bad = || ParseCardError::Invalid(s.to_string());
        let mut chars = s.chars();
        let rank = chars.next().and_then(Rank::from_letter).ok_or_else(bad)?;
        let suit = chars.next();
        if chars.next().is_some() {
            return Err(bad());
        }
        match (rank.is_joker(), suit) {
            (true, None) => Ok(Card(52 + (rank.0 - 13))),
            (false, Some(c)) => {
                let c = c.to_ascii_lowercase() as u8;
                let suit = SUITS.iter().position(|&x| x == c).ok_or_else(bad)? as u8;
                Ok(Card(rank.0 * 4 + suit))
            }
            _ => Err(bad()),
        }
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// A set of physical cards: bit `id` is set when the card is in the set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Hand(pub u64);

impl Hand {
    pub const EMPTY: Hand = Hand(0);
    /// All 54 cards.
    pub const FULL: Hand = Hand((1u64 << 54) - 1);

    pub fn from_cards(cards: impl IntoIterator<Item = Card>) -> Hand {
        Hand(cards.into_iter().fold(0, |m, c| m | 1 << c.0))
    }

    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub const fn contains(self, card: Card) -> bool {
        self.0 & (1 << card.0) != 0
    }

    /// The cards, lowest rank first.
    pub fn cards(self) -> impl Iterator<Item = Card> {
        let mut m = self.0;
        std::iter::from_fn(move || {
            if m == 0 {
                return None;
            }
            let id = m.trailing_zeros() as u8;
            m &= m - 1;
            Some(Card(id))
        })
    }

    /// How many cards of each rank.
    pub fn counts(self) -> Counts {
        let mut packed = 0u64;
        for r in 0..13 {
            packed |= (((self.0 >> (4 * r)) & 0xF).count_ones() as u64) << (4 * r);
        }
        packed |= ((self.0 >> 52) & 1) << 52;
        packed |= ((self.0 >> 53) & 1) << 56;
        Counts(packed)
    }

    /// The physical cards that a play of `counts` takes from this hand: for each
    /// rank, the cards of the lowest suits. `None` when the hand lacks them.
    pub fn take(self, counts: Counts) -> Option<Hand> {
        let mut taken = 0u64;
        for r in Rank::all() {
            let mut need = counts.get(r);
            let mut nibble = if r.0 < 13 {
                (self.0 >> (4 * r.0)) & 0xF
            } else {
                (self.0 >> (52 + r.0 - 13)) & 1
            };
            let base = if r.0 < 13 { 4 * r.0 } else { 52 + r.0 - 13 };
            while need > 0 {
                if nibble == 0 {
                    return None;
                }
                let bit = nibble.trailing_zeros();
                nibble &= nibble - 1;
                taken |= 1 << (base as u32 + bit);
                need -= 1;
            }
        }
        Some(Hand(taken))
    }

    pub const fn union(self, other: Hand) -> Hand {
        Hand(self.0 | other.0)
    }

    pub const fn minus(self, other: Hand) -> Hand {
        Hand(self.0 & !other.0)
    }
}

impl fmt::Display for Hand {
    /// The cards separated by spaces: `3s 3h 4d … B R`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.cards().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl Serialize for Hand {
    /// A list of card strings.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.cards())
    }
}

impl<'de> Deserialize<'de> for Hand {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Hand, D::Error> {
        let cards = Vec::<Card>::deserialize(d)?;
        Ok(Hand::from_cards(cards))
    }
}

/// A multiset of ranks: how many cards of each rank, packed four bits a rank (rank
/// `r` in bits `4r..4r+4`), so that sets compare, hash and subtract as one word.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Counts(u64);

/// The high bit of every rank's nibble: counts never exceed 4, so a nibble with
/// this bit set can take a subtraction of up to 4 without borrowing from its
/// neighbour, and the bit survives exactly when the count did not go negative.
const GUARDS: u64 = 0x0888_8888_8888_8888;

impl Counts {
    pub const EMPTY: Counts = Counts(0);

    pub const fn get(self, r: Rank) -> u8 {
        ((self.0 >> (4 * r.0)) & 0xF) as u8
    }

    /// Adds `n` cards of rank `r`. The caller keeps counts within 4 (1 for jokers).
    pub const fn with(self, r: Rank, n: u8) -> Counts {
        Counts(self.0 + ((n as u64) << (4 * r.0)))
    }

    /// `n` cards of rank `r`.
    pub const fn of(r: Rank, n: u8) -> Counts {
        Counts((n as u64) << (4 * r.0))
    }

    /// Every card of `other` is in `self`.
    pub const fn contains(self, other: Counts) -> bool {
        ((self.0 | GUARDS) - other.0) & GUARDS == GUARDS
    }

    /// `self` without `other`; only meaningful when `self.contains(other)`.
    pub const fn minus(self, other: Counts) -> Counts {
        Counts(self.0 - other.0)
    }

    pub const fn plus(self, other: Counts) -> Counts {
        Counts(self.0 + other.0)
    }

    /// How many cards in all.
    pub const fn len(self) -> usize {
        let mut x = self.0;
        let mut n = 0;
        while x != 0 {
            n += (x & 0xF) as usize;
            x >>= 4;
        }
        n
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The packed word (for tables and hashing).
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// The ranks present, lowest first, with their counts.
    pub fn iter(self) -> impl Iterator<Item = (Rank, u8)> {
        Rank::all().filter_map(move |r| {
            let n = self.get(r);
            (n > 0).then_some((r, n))
        })
    }

    /// Parses cards written as rank letters `3456789TJQKA2BR` in any order and
    /// either case; `10` is read as a ten; spaces and commas are ignored.
    pub fn parse(text: &str) -> Result<Counts, ParseCardsError> {
        let mut counts = Counts::EMPTY;
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            if c.is_whitespace() || c == ',' {
                continue;
            }
            let rank = if c == '1' && chars.peek() == Some(&'0') {
                chars.next();
                Rank(7)
            } else {
                Rank::from_letter(c).ok_or(ParseCardsError::Invalid(c))?
            };
            let limit = if rank.is_joker() { 1 } else { 4 };
            if counts.get(rank) >= limit {
                return Err(ParseCardsError::TooMany(rank.letter()));
            }
            counts = counts.with(rank, 1);
        }
        Ok(counts)
    }
}

impl Counts {
    /// The cards as players say them, lowest first, one word a card:
    /// `10 10 J`, `小王 大王` (`Little Joker Big Joker` in English).
    pub fn spoken(self, lang: Lang) -> String {
        let mut words = Vec::with_capacity(self.len());
        for (r, n) in self.iter() {
            for _ in 0..n {
                words.push(r.name(lang));
            }
        }
        words.join(" ")
    }
}

impl fmt::Display for Counts {
    /// The cards as rank letters, lowest first: `33344`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (r, n) in self.iter() {
            for _ in 0..n {
                write!(f, "{}", r.letter())?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Counts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Counts({self})")
    }
}

impl FromStr for Counts {
    type Err = ParseCardsError;
    fn from_str(s: &str) -> Result<Counts, ParseCardsError> {
        Counts::parse(s)
    }
}

impl Serialize for Counts {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Counts {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Counts, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Cards written wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseCardsError {
    #[error("`{0}` is not a card: write ranks with 3456789TJQKA2 (or 10), B and R for the jokers")]
    Invalid(char),
    #[error("too many cards of rank {0}: a deck has four of each rank and one of each joker")]
    TooMany(char),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_parse_and_print_sorted() {
        let c = Counts::parse("4 3 3 10 3 b r").unwrap();
        assert_eq!(c.to_string(), "3334TBR");
        assert_eq!(c.len(), 7);
        assert_eq!(Counts::parse("33333"), Err(ParseCardsError::TooMany('3')));
        assert_eq!(Counts::parse("BB"), Err(ParseCardsError::TooMany('B')));
        assert_eq!(Counts::parse("3x"), Err(ParseCardsError::Invalid('x')));
        assert_eq!(Counts::parse("1"), Err(ParseCardsError::Invalid('1')));
    }

    #[test]
    fn contains_and_minus() {
        let hand = Counts::parse("3334445BR").unwrap();
        assert!(hand.contains(Counts::parse("3334R").unwrap()));
        assert!(!hand.contains(Counts::parse("3333").unwrap()));
        assert!(!hand.contains(Counts::parse("55").unwrap()));
        assert_eq!(
            hand.minus(Counts::parse("34B").unwrap()).to_string(),
            "33445R"
        );
    }

    #[test]
    fn cards_round_trip_and_hands_count() {
        for c in Card::deck() {
            assert_eq!(c.to_string().parse::<Card>().unwrap(), c);
        }
        let full = Hand::FULL;
        assert_eq!(full.len(), 54);
        let counts = full.counts();
        assert_eq!(counts.len(), 54);
        assert_eq!(counts.get(Rank::TWO), 4);
        assert_eq!(counts.get(Rank::RED_JOKER), 1);
        let taken = full.take(Counts::parse("33R").unwrap()).unwrap();
        assert_eq!(taken.to_string(), "3s 3h R");
        assert!(Hand::EMPTY.take(Counts::parse("3").unwrap()).is_none());
        assert!("3x".parse::<Card>().is_err());
        assert!("Bs".parse::<Card>().is_err());
    }
}
