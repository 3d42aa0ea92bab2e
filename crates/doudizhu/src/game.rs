//! One hand of Doudizhu as the table drives it: the deal, bidding, play, scoring,
//! the views with hidden cards removed, and the JSON record.

use serde::{Deserialize, Serialize};

use qiyuan_game::{
    DrawOffers, Effects, EndReason, Game, GamePhase, Outcome, RecordMeta, Refusal, RefusalKind,
    Seat, SeatResult, Secret, Setup, SetupError, Turn, Viewer,
};

use crate::card::{Card, Counts, Hand, Lang};
use crate::combo::{Combo, classify};
use crate::enumerate::legal_plays;
use crate::rng::{SecretStream, SplitMix64, derive};

/// Rule options chosen at the table.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    /// The seat that bids first. `None`: drawn from the deal's seed. A table
    /// playing a match of several hands passes the next seat after each hand, so
    /// that the first bidder rotates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_bidder: Option<Seat>,
}

/// One deal: three hands of 17 and the three bottom cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deal {
    pub hands: [Hand; 3],
    pub bottom: Hand,
}

impl Deal {
    /// Shuffles the 54 cards with SplitMix64 from `seed` and deals 17 to each seat,
    /// three to the bottom. Reproducible by anyone who knows the seed: for offline
    /// play, tests and audit, never for a server's deal.
    pub fn from_seed(seed: u64) -> Deal {
        let mut deck: Vec<Card> = Card::deck().collect();
        SplitMix64::new(seed).shuffle(&mut deck);
        Deal::from_deck(&deck)
    }

    /// Deal `n` of a hand (0 first, then one per redeal after everyone passed),
    /// shuffled with ChaCha20 keyed by the 256-bit `secret`, stream `n`. Without
    /// the secret, no deal tells anything of another.
    pub fn from_secret(secret: &Secret, n: u64) -> Deal {
        let mut deck: Vec<Card> = Card::deck().collect();
        SecretStream::new(secret, n).shuffle(&mut deck);
        Deal::from_deck(&deck)
    }

    fn from_deck(deck: &[Card]) -> Deal {
        let hand = |i: usize| Hand::from_cards(deck[i * 17..(i + 1) * 17].iter().copied());
        Deal {
            hands: [hand(0), hand(1), hand(2)],
            bottom: Hand::from_cards(deck[51..].iter().copied()),
        }
    }

    /// The deal as ranks, `h0/h1/h2/bottom`, as [`Deal::from_ranks`] reads it.
    pub fn to_ranks(&self) -> String {
        let [a, b, c] = self.hands.map(|h| h.counts().to_string());
        format!("{a}/{b}/{c}/{}", self.bottom.counts())
    }

    /// A deal written as ranks, `h0/h1/h2/bottom`, 17/17/17/3 cards that make the
    /// whole deck; each rank's cards get their suits in order.
    pub fn from_ranks(text: &str) -> Result<Deal, SetupError> {
        let parts: Vec<&str> = text.split('/').collect();
        if parts.len() != 4 {
            return Err(SetupError::new(
                "a deal is written as four parts: hand0/hand1/hand2/bottom",
            ));
        }
        let mut left = Hand::FULL;
        let mut hands = [Hand::EMPTY; 4];
        for (i, part) in parts.iter().enumerate() {
            let counts = Counts::parse(part).map_err(|e| SetupError::new(e.to_string()))?;
            let want = if i == 3 { 3 } else { 17 };
            if counts.len() != want {
                return Err(SetupError::new(format!(
                    "part {} of the deal has {} cards, not {want}",
                    i + 1,
                    counts.len()
                )));
            }
            let taken = left.take(counts).ok_or_else(|| {
                SetupError::new("the deal uses a card more often than the deck has it")
            })?;
            left = left.minus(taken);
            hands[i] = taken;
        }
        Ok(Deal {
            hands: [hands[0], hands[1], hands[2]],
            bottom: hands[3],
        })
    }
}

/// A position text: a seed or deals in ranks (the first dealt first, the others
/// for the redeals after everyone passed), and maybe the first bidder.
struct PositionSpec {
    seed: Option<u64>,
    deals: Vec<String>,
    first: Option<Seat>,
}

impl PositionSpec {
    fn parse(text: &str) -> Result<PositionSpec, SetupError> {
        let mut spec = PositionSpec {
            seed: None,
            deals: Vec::new(),
            first: None,
        };
        let mut words = text.split_whitespace();
        while let Some(word) = words.next() {
            match word {
                "seed" => {
                    let n = words.next().and_then(|w| w.parse().ok());
                    spec.seed = Some(n.ok_or_else(|| SetupError::new("`seed` needs a number"))?);
                }
                "first" => {
                    let n = words
                        .next()
                        .and_then(|w| w.parse::<u8>().ok())
                        .filter(|&n| n < 3);
                    spec.first =
                        Some(Seat(n.ok_or_else(|| {
                            SetupError::new("`first` needs a seat 0, 1 or 2")
                        })?));
                }
                deal => spec.deals.push(deal.to_string()),
            }
        }
        Ok(spec)
    }
}

/// A bid in the bidding round: 1, 2 or 3, or 0 for a pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Bid {
    pub seat: Seat,
    pub bid: u8,
}

/// A turn of play: the cards played, or `None` for a pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Turned {
    pub seat: Seat,
    /// The cards as a string of ranks (`33344`).
    #[cfg_attr(feature = "ts", ts(type = "string | null"))]
    pub cards: Option<Counts>,
}

/// A deal that was passed out, kept for the record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PassedOut {
    pub deal: Deal,
    pub bids: Vec<Bid>,
}

/// Where the deals come from.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Source {
    /// A known seed (offline play, tests): SplitMix64.
    Seed(u64),
    /// The server's secret for this hand: ChaCha20.
    Secret(Secret),
    /// Deals given in ranks, in order (the text as given); redeals past the
    /// given ones draw from a seed hashed from the text.
    Ranks {
        text: String,
        deals: Vec<Deal>,
        hash: u64,
    },
}

impl Source {
    /// Deal `n` (0 first, then one per redeal).
    fn deal(&self, n: usize) -> Deal {
        match self {
            Source::Seed(s) => Deal::from_seed(deal_seed(*s, n)),
            Source::Secret(secret) => Deal::from_secret(secret, n as u64),
            Source::Ranks { deals, hash, .. } => deals
                .get(n)
                .copied()
                .unwrap_or_else(|| Deal::from_seed(deal_seed(*hash, n))),
        }
    }

    /// The first bidder when the options name none.
    fn first_bidder(&self) -> Seat {
        let n = match self {
            Source::Seed(s) | Source::Ranks { hash: s, .. } => derive(*s, FIRST_BIDDER_SALT) % 3,
            Source::Secret(secret) => SecretStream::new(secret, FIRST_BIDDER_STREAM).below(3),
        };
        Seat(n as u8)
    }
}

/// A hand of Doudizhu.
#[derive(Debug, Clone)]
pub struct Doudizhu {
    source: Source,
    first_bidder: Seat,
    passed_out: Vec<PassedOut>,
    deal: Deal,
    hands: [Hand; 3],
    bids: Vec<Bid>,
    landlord: Option<Seat>,
    bid: u8,
    to_act: Seat,
    plays: Vec<Turned>,
    /// The play to beat and who made it; `None` when the seat to act leads.
    last: Option<(Seat, Combo)>,
    passes: u8,
    bombs: u8,
    played: [u16; 3],
    actions: Vec<(Seat, String)>,
    winner: Option<Seat>,
}

/// Seeds for the deals: deal `n` (0 first, then one per redeal).
fn deal_seed(seed: u64, n: usize) -> u64 {
    if n == 0 { seed } else { derive(seed, n as u64) }
}

const FIRST_BIDDER_SALT: u64 = 0x5EA7;
/// The ChaCha20 stream of a secret that draws the first bidder (deals use the
/// streams from 0 up).
const FIRST_BIDDER_STREAM: u64 = u64::MAX;

fn hash_text(text: &str) -> u64 {
    text.bytes().fold(0xCBF2_9CE4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01B3)
    })
}

impl Doudizhu {
    fn start(source: Source, options: &Options) -> Doudizhu {
        let first_bidder = options
            .first_bidder
            .unwrap_or_else(|| source.first_bidder());
        let deal = source.deal(0);
        Doudizhu {
            source,
            first_bidder,
            passed_out: Vec::new(),
            deal,
            hands: deal.hands,
            bids: Vec::new(),
            landlord: None,
            bid: 0,
            to_act: first_bidder,
            plays: Vec::new(),
            last: None,
            passes: 0,
            bombs: 0,
            played: [0; 3],
            actions: Vec::new(),
            winner: None,
        }
    }

    /// The seat that bid first in this hand.
    pub fn first_bidder(&self) -> Seat {
        self.first_bidder
    }

    /// The landlord, once bidding is over.
    pub fn landlord(&self) -> Option<Seat> {
        self.landlord
    }

    /// The winning bid, or the highest bid so far during bidding.
    pub fn bid(&self) -> u8 {
        self.bid
    }

    /// A seat's cards now (hidden information: for the rules and tests, never for a
    /// client; clients get [`Game::view`]).
    pub fn hand(&self, seat: Seat) -> Hand {
        self.hands.get(seat.index()).copied().unwrap_or_default()
    }

    /// The current deal (hidden information, as [`Doudizhu::hand`]).
    pub fn deal(&self) -> &Deal {
        &self.deal
    }

    /// Bombs and rockets played so far.
    pub fn bombs(&self) -> u8 {
        self.bombs
    }

    /// The play to beat and who made it.
    pub fn last_play(&self) -> Option<(Seat, Combo)> {
        self.last
    }

    /// How many deals were passed out before this one.
    pub fn redeals(&self) -> usize {
        self.passed_out.len()
    }

    /// The multiplier now: ×2 per bomb or rocket, and ×2 for spring or anti-spring
    /// once the hand is over.
    pub fn multiplier(&self) -> i64 {
        let spring = if self.spring().is_some() { 2 } else { 1 };
        (1i64 << self.bombs.min(40)) * spring
    }

    /// Spring (春天: the landlord won and neither farmer played a card) or
    /// anti-spring (反春: the farmers won and the landlord played only its first
    /// lead); `None` otherwise or while the hand goes on.
    pub fn spring(&self) -> Option<Spring> {
        let (landlord, winner) = (self.landlord?, self.winner?);
        let farmers_played: u16 = (0..3)
            .filter(|&s| s != landlord.index())
            .map(|s| self.played[s])
            .sum();
        if winner == landlord && farmers_played == 0 {
            Some(Spring::Spring)
        } else if winner != landlord && self.played[landlord.index()] == 1 {
            Some(Spring::AntiSpring)
        } else {
            None
        }
    }

    fn other_farmer(&self, farmer: Seat) -> Option<Seat> {
        let landlord = self.landlord?;
        (0..3).map(Seat).find(|&s| s != landlord && s != farmer)
    }

    /// Points for a side's loss: `unit` to each of the winners' seats, landlord
    /// twice.
    fn points_for(&self, landlord: Seat, landlord_won: bool, unit: i64) -> Vec<i64> {
        (0..3)
            .map(|s| {
                let sign = if (s == landlord.index()) == landlord_won {
                    1
                } else {
                    -1
                };
                let share = if s == landlord.index() { 2 } else { 1 };
                sign * share * unit
            })
            .collect()
    }

    fn score_text(points: &[i64]) -> String {
        points
            .iter()
            .map(|p| format!("{p:+}"))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn refuse(kind: RefusalKind, message: impl Into<String>) -> Result<Effects, Refusal> {
        Err(Refusal::new(kind, message))
    }

    /// An accepted action: its canonical text, shown as players say it (in
    /// Chinese, the server's language for records: 叫3分, 不叫, 不出, 10 10 J).
    fn effects(canonical: String, bidding: bool) -> Effects {
        Effects {
            display: words(&canonical, bidding, Lang::Zh),
            canonical,
            capture: false,
            check: false,
        }
    }

    fn act_bid(&mut self, seat: Seat, bid: u8) -> Result<Effects, Refusal> {
        if bid > 3 {
            return Self::refuse(RefusalKind::Illegal, "a bid is 1, 2 or 3");
        }
        if bid != 0 && bid <= self.bid {
            return Self::refuse(
                RefusalKind::Illegal,
                format!("a bid must be higher than {}", self.bid),
            );
        }
        self.bids.push(Bid { seat, bid });
        let canonical = if bid == 0 {
            "pass".to_string()
        } else {
            format!("bid {bid}")
        };
        self.actions.push((seat, canonical.clone()));
        if bid > 0 {
            self.bid = bid;
        }
        if bid == 3 || self.bids.len() == 3 {
            if self.bid == 0 {
                self.redeal();
            } else {
                let landlord = self
                    .bids
                    .iter()
                    .rev()
                    .find(|b| b.bid == self.bid)
                    .map_or(seat, |b| b.seat);
                self.landlord = Some(landlord);
                self.hands[landlord.index()] = self.hands[landlord.index()].union(self.deal.bottom);
                self.to_act = landlord;
            }
        } else {
            self.to_act = seat.next(3);
        }
        Ok(Self::effects(canonical, true))
    }

    /// Everyone passed: the deal is kept for the record and a new one is drawn
    /// from a seed derived from the hand's seed; the same seat bids first.
    fn redeal(&mut self) {
        self.passed_out.push(PassedOut {
            deal: self.deal,
            bids: std::mem::take(&mut self.bids),
        });
        self.deal = self.source.deal(self.passed_out.len());
        self.hands = self.deal.hands;
        self.bid = 0;
        self.to_act = self.first_bidder;
    }

    fn act_play(&mut self, seat: Seat, cards: Option<Counts>) -> Result<Effects, Refusal> {
        let Some(cards) = cards else {
            if self.last.is_none() {
                return Self::refuse(RefusalKind::Illegal, "the leader must play, not pass");
            }
            self.plays.push(Turned { seat, cards: None });
            self.actions.push((seat, "pass".into()));
            self.passes += 1;
            if self.passes == 2 {
                self.last = None;
                self.passes = 0;
            }
            self.to_act = seat.next(3);
            return Ok(Self::effects("pass".into(), false));
        };
        let hand = self.hands[seat.index()];
        let Some(taken) = hand.take(cards) else {
            return Self::refuse(RefusalKind::Illegal, format!("{cards} is not in your hand"));
        };
        let Some(combo) = classify(cards) else {
            return Self::refuse(
                RefusalKind::Illegal,
                format!("{cards} is not a combination"),
            );
        };
        if let Some((_, last)) = &self.last
            && !combo.beats(last)
        {
            return Self::refuse(
                RefusalKind::Illegal,
                format!(
                    "{cards} ({}) does not beat {} ({})",
                    combo.kind, last.cards, last.kind
                ),
            );
        }
        self.hands[seat.index()] = hand.minus(taken);
        if combo.kind.is_bomb() {
            self.bombs += 1;
        }
        self.played[seat.index()] += 1;
        self.plays.push(Turned {
            seat,
            cards: Some(cards),
        });
        let canonical = cards.to_string();
        self.actions.push((seat, canonical.clone()));
        self.last = Some((seat, combo));
        self.passes = 0;
        if self.hands[seat.index()].is_empty() {
            self.winner = Some(seat);
        } else {
            self.to_act = seat.next(3);
        }
        Ok(Self::effects(canonical, false))
    }

    /// The canonical actions with their seats, in order (every bid of every deal,
    /// then the plays).
    pub fn actions(&self) -> &[(Seat, String)] {
        &self.actions
    }

    fn is_over(&self) -> bool {
        self.winner.is_some()
    }

    /// How many actions were bids (or passes while bidding), over every deal:
    /// they come before every play.
    fn bids_made(&self) -> usize {
        self.passed_out.iter().map(|p| p.bids.len()).sum::<usize>() + self.bids.len()
    }

    /// The full record: every deal, the bids and the plays, and the seed or the
    /// position the hand was set up from. A hand dealt from a secret names no
    /// secret: its deals are the record.
    pub fn record_data(&self, meta: &RecordMeta) -> Record {
        let (seed, position) = match &self.source {
            Source::Seed(s) => (Some(*s), None),
            Source::Secret(_) => (None, None),
            Source::Ranks { text, .. } => (None, Some(text.clone())),
        };
        Record {
            game: "doudizhu".into(),
            event: meta.event.clone(),
            site: meta.site.clone(),
            date: meta.date.clone(),
            round: meta.round.clone(),
            players: meta.players.clone(),
            seed,
            position,
            first_bidder: self.first_bidder,
            passed_out: self.passed_out.clone(),
            deal: self.deal,
            bids: self.bids.clone(),
            landlord: self.landlord,
            bid: self.bid,
            plays: self.plays.clone(),
            actions: self
                .actions
                .iter()
                .enumerate()
                .map(|(i, (seat, action))| {
                    let bidding = i < self.bids_made();
                    RecordedAction {
                        seat: *seat,
                        action: action.clone(),
                        zh: words(action, bidding, Lang::Zh),
                        en: words(action, bidding, Lang::En),
                    }
                })
                .collect(),
            bombs: self.bombs,
            multiplier: self.multiplier(),
            outcome: meta.outcome.clone().or_else(|| self.outcome()),
        }
    }
}

/// Spring or anti-spring, each doubling the score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Spring {
    /// 春天: the landlord went out before either farmer played.
    Spring,
    /// 反春: the farmers went out while the landlord had played only its first lead.
    AntiSpring,
}

/// An action in the record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedAction {
    pub seat: Seat,
    /// The canonical action, as [`Game::act`] takes it (`bid 3`, `pass`,
    /// `TTJJQ`, `BR`).
    pub action: String,
    /// The action as players say it in Chinese (叫3分, 不叫, 不出, `10 10 J`,
    /// 小王 大王); for reading only, never replayed.
    #[serde(default)]
    pub zh: String,
    /// The same in English (`Bid 3`, `No bid`, `Pass`, `10 10 J`, `Little
    /// Joker Big Joker`).
    #[serde(default)]
    pub en: String,
}

/// A canonical action (`bid 2`, `pass`, `TTJ`) as players say it in `lang`:
/// a bid is 叫2分 / `Bid 2`, a pass 不叫 / `No bid` while `bidding` and 不出 /
/// `Pass` in play, cards by their names (10, 小王, 大王; see [`Rank::name`]).
///
/// [`Rank::name`]: crate::Rank::name
pub fn words(action: &str, bidding: bool, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    if is_pass(action) {
        return match (bidding, zh) {
            (true, true) => "不叫",
            (true, false) => "No bid",
            (false, true) => "不出",
            (false, false) => "Pass",
        }
        .to_string();
    }
    // (A bare `2` is a bid while bidding, a two in play.)
    if bidding && let Some(n) = parse_bid(action) {
        return if zh {
            format!("叫{n}分")
        } else {
            format!("Bid {n}")
        };
    }
    match Counts::parse(action) {
        Ok(cards) => cards.spoken(lang),
        Err(_) => action.to_string(),
    }
}

/// The JSON record of a hand. It holds every deal: a server keeps it to itself
/// until the hand is over. A hand a server dealt from a secret has neither `seed`
/// nor `position`: its deals replay it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// Always `doudizhu`.
    pub game: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<String>,
    #[serde(default)]
    pub players: Vec<String>,
    /// The known seed the deals were drawn from (offline play and tests only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Deals given in ranks, `h0/h1/h2/bottom`, space-separated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    pub first_bidder: Seat,
    /// Deals that everyone passed, in order.
    #[serde(default)]
    pub passed_out: Vec<PassedOut>,
    /// The deal that was played.
    pub deal: Deal,
    /// The bidding of the deal that was played.
    pub bids: Vec<Bid>,
    pub landlord: Option<Seat>,
    pub bid: u8,
    pub plays: Vec<Turned>,
    /// Every accepted action in order, as [`Game::act`] takes it: replaying these
    /// on the setup rebuilds the hand.
    pub actions: Vec<RecordedAction>,
    pub bombs: u8,
    pub multiplier: i64,
    #[serde(default)]
    pub outcome: Option<Outcome>,
}

impl Record {
    /// The setup and options that replay this record.
    pub fn setup(&self) -> Result<(Options, Setup), SetupError> {
        let options = Options {
            first_bidder: Some(self.first_bidder),
        };
        let first = self.first_bidder.0;
        match (&self.seed, &self.position) {
            (Some(seed), _) => Ok((
                options,
                Setup::Position(format!("seed {seed} first {first}")),
            )),
            (None, Some(p)) => Ok((options, Setup::Position(format!("{p} first {first}")))),
            // Dealt from a secret: the deals themselves, in the order dealt.
            (None, None) => {
                let deals: Vec<String> = self
                    .passed_out
                    .iter()
                    .map(|p| p.deal.to_ranks())
                    .chain(std::iter::once(self.deal.to_ranks()))
                    .collect();
                Ok((
                    options,
                    Setup::Position(format!("{} first {first}", deals.join(" "))),
                ))
            }
        }
    }
}

/// The stages of a hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "DoudizhuPhase"))]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Bidding for the landlord (叫地主).
    Bidding,
    /// Playing cards, the landlord first.
    Play,
    /// A hand was emptied, or the hand was decided at the table.
    Over,
}

impl GamePhase for Phase {
    const ALL: &'static [Self] = &[Phase::Bidding, Phase::Play, Phase::Over];

    fn name(self) -> &'static str {
        match self {
            Phase::Bidding => "bidding",
            Phase::Play => "play",
            Phase::Over => "over",
        }
    }
}

/// What one viewer may see of a hand.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "DoudizhuView"))]
pub struct View {
    pub viewer: Viewer,
    pub phase: Phase,
    /// The seat to act, while the hand goes on.
    pub to_act: Option<Seat>,
    pub first_bidder: Seat,
    /// How many deals were passed out before this one.
    pub redeals: usize,
    /// The bidding of the current deal.
    pub bids: Vec<Bid>,
    /// The highest bid so far; the winning bid once the landlord is known.
    pub bid: u8,
    pub landlord: Option<Seat>,
    /// The bottom cards, once the landlord is known.
    #[cfg_attr(feature = "ts", ts(type = "Array<string> | null"))]
    pub bottom: Option<Hand>,
    /// The viewer's own cards (seats only).
    #[cfg_attr(feature = "ts", ts(type = "Array<string> | null"))]
    pub hand: Option<Hand>,
    /// How many cards each seat holds.
    pub counts: [u8; 3],
    /// Every seat's remaining cards, once the hand is over.
    #[cfg_attr(feature = "ts", ts(type = "Array<Array<string>> | null"))]
    pub hands: Option<[Hand; 3]>,
    /// Every turn of play, passes included.
    pub plays: Vec<Turned>,
    /// The play to beat and who made it; `None` when the seat to act leads.
    pub last: Option<Turned>,
    pub bombs: u8,
    pub multiplier: i64,
    /// The viewer's legal actions, when it is the viewer's turn.
    pub legal: Vec<String>,
    pub outcome: Option<Outcome>,
}

fn parse_bid(text: &str) -> Option<u8> {
    let t = text.trim();
    let n = t.strip_prefix("bid").map_or(t, str::trim);
    match n {
        "1" => Some(1),
        "2" => Some(2),
        "3" => Some(3),
        _ => None,
    }
}

fn is_pass(text: &str) -> bool {
    let t = text.trim();
    t.eq_ignore_ascii_case("pass") || t == "不叫" || t == "不要" || t == "过"
}

impl Game for Doudizhu {
    type Options = Options;
    type Phase = Phase;
    type View = View;
    const NAME: &'static str = "doudizhu";
    const RANDOM: bool = true;

    /// `Setup::Secret` deals from the server's secret for this hand (ChaCha20);
    /// `Setup::Seed` from a known seed (SplitMix64, offline play and tests).
    /// `Setup::Position` takes deals in ranks, `h0/h1/h2/bottom` (more than one:
    /// the redeals after everyone passed, in order), or `seed N`, either
    /// optionally followed by `first S` (the first bidder, over the options').
    /// `Setup::Standard` is refused: a deal anyone could predict would leak
    /// every hand.
    fn new(options: &Options, setup: &Setup) -> Result<Self, SetupError> {
        match setup {
            Setup::Secret(secret) => Ok(Doudizhu::start(Source::Secret(*secret), options)),
            Setup::Seed(seed) => Ok(Doudizhu::start(Source::Seed(*seed), options)),
            Setup::Position(text) => {
                let spec = PositionSpec::parse(text)?;
                let options = Options {
                    first_bidder: spec.first.or(options.first_bidder),
                };
                match (spec.seed, spec.deals.is_empty()) {
                    (Some(seed), true) => Ok(Doudizhu::start(Source::Seed(seed), &options)),
                    (None, false) => {
                        let deals = spec
                            .deals
                            .iter()
                            .map(|d| Deal::from_ranks(d))
                            .collect::<Result<Vec<_>, _>>()?;
                        let text = spec.deals.join(" ");
                        let hash = hash_text(&text);
                        Ok(Doudizhu::start(
                            Source::Ranks { text, deals, hash },
                            &options,
                        ))
                    }
                    _ => Err(SetupError::new(
                        "a position is a deal h0/h1/h2/bottom (or several) or `seed N`, optionally followed by `first S`",
                    )),
                }
            }
            Setup::Standard => Err(SetupError::new(
                "Doudizhu deals from a secret: start it with one, not the standard setup",
            )),
        }
    }

    fn seats(&self) -> u8 {
        3
    }

    fn turn(&self) -> Turn {
        if self.is_over() {
            Turn::Over
        } else {
            Turn::Seat(self.to_act)
        }
    }

    fn phase(&self) -> Phase {
        if self.is_over() {
            Phase::Over
        } else if self.landlord.is_none() {
            Phase::Bidding
        } else {
            Phase::Play
        }
    }

    fn act(&mut self, seat: Seat, action: &str) -> Result<Effects, Refusal> {
        if self.is_over() {
            return Self::refuse(RefusalKind::GameOver, "the hand is over");
        }
        if seat.0 >= 3 {
            return Self::refuse(
                RefusalKind::NoSuchSeat,
                format!("{seat} is not at this table"),
            );
        }
        if seat != self.to_act {
            return Self::refuse(
                RefusalKind::NotYourTurn,
                format!("it is {}'s turn", self.to_act),
            );
        }
        let pass = is_pass(action);
        let bid = parse_bid(action);
        if self.landlord.is_none() {
            if pass {
                return self.act_bid(seat, 0);
            }
            if let Some(b) = bid {
                return self.act_bid(seat, b);
            }
            if Counts::parse(action).is_ok_and(|c| !c.is_empty()) {
                return Self::refuse(
                    RefusalKind::WrongPhase,
                    "bidding first: bid 1, 2, 3 or pass",
                );
            }
            return Self::refuse(RefusalKind::Malformed, format!("`{action}` is not a bid"));
        }
        if pass {
            return self.act_play(seat, None);
        }
        if action.trim().starts_with("bid") {
            return Self::refuse(RefusalKind::WrongPhase, "bidding is over");
        }
        match Counts::parse(action) {
            Ok(c) if !c.is_empty() => self.act_play(seat, Some(c)),
            Ok(_) => Self::refuse(RefusalKind::Malformed, "no cards given"),
            Err(e) => Self::refuse(RefusalKind::Malformed, e.to_string()),
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<String> {
        if self.is_over() || seat != self.to_act {
            return Vec::new();
        }
        if self.landlord.is_none() {
            let mut v = vec!["pass".to_string()];
            v.extend((self.bid + 1..=3).map(|b| format!("bid {b}")));
            return v;
        }
        let last = self.last.map(|(_, c)| c);
        let mut v: Vec<String> = legal_plays(self.hands[seat.index()].counts(), last.as_ref())
            .iter()
            .map(|c| c.cards.to_string())
            .collect();
        if last.is_some() {
            v.push("pass".into());
        }
        v
    }

    fn outcome(&self) -> Option<Outcome> {
        let winner = self.winner?;
        let landlord = self.landlord?;
        let landlord_won = winner == landlord;
        let unit = i64::from(self.bid) * self.multiplier();
        let points = self.points_for(landlord, landlord_won, unit);
        let results = (0..3)
            .map(|s| {
                if (s == landlord.index()) == landlord_won {
                    SeatResult::Win
                } else {
                    SeatResult::Loss
                }
            })
            .collect();
        Some(Outcome {
            results,
            reason: EndReason::HandEmptied,
            score: Self::score_text(&points),
            points,
            deal: self.redeals() as u32,
        })
    }

    /// A seat leaves or loses at the table. The rule (QQ-like):
    /// - Escape or fouls: the leaver alone pays, and the escape doubles once more
    ///   (so leaving never costs less than losing): unit = bid × multiplier × 2,
    ///   the bid being at least 1 while bidding. A leaving landlord loses 2 units,
    ///   each farmer gains 1. A leaving farmer pays 2 units to the landlord; the
    ///   partner neither wins nor loses (its result is void). During bidding the
    ///   leaver pays 2 units, 1 to each other seat.
    /// - Resignation, time and the rest: the leaver's side loses as if the hand
    ///   were played out, at the current multiplier (both farmers pay if a farmer
    ///   resigns); during bidding as above without the extra doubling.
    fn conceded(&self, seat: Seat, reason: EndReason) -> Outcome {
        let escape = matches!(
            reason,
            EndReason::Escape | EndReason::Fouls | EndReason::Violations
        );
        let bid = i64::from(self.bid.max(1));
        let mut unit = bid * (1i64 << self.bombs.min(40));
        if escape {
            unit *= 2;
        }
        let seat_i = seat.index().min(2);
        let (results, points) = match self.landlord {
            None => {
                let points: Vec<i64> = (0..3)
                    .map(|s| if s == seat_i { -2 * unit } else { unit })
                    .collect();
                let results = (0..3)
                    .map(|s| {
                        if s == seat_i {
                            SeatResult::Loss
                        } else {
                            SeatResult::Win
                        }
                    })
                    .collect();
                (results, points)
            }
            Some(landlord) if landlord == seat || !escape => {
                let landlord_won = landlord != seat;
                let points = self.points_for(landlord, landlord_won, unit);
                let results = points
                    .iter()
                    .map(|&p| {
                        if p > 0 {
                            SeatResult::Win
                        } else {
                            SeatResult::Loss
                        }
                    })
                    .collect();
                (results, points)
            }
            Some(landlord) => {
                let partner = self.other_farmer(seat).map_or(3, |s| s.index());
                let points: Vec<i64> = (0..3)
                    .map(|s| {
                        if s == seat_i {
                            -2 * unit
                        } else if s == landlord.index() {
                            2 * unit
                        } else {
                            0
                        }
                    })
                    .collect();
                let results = (0..3)
                    .map(|s| {
                        if s == seat_i {
                            SeatResult::Loss
                        } else if s == partner {
                            SeatResult::Void
                        } else {
                            SeatResult::Win
                        }
                    })
                    .collect();
                (results, points)
            }
        };
        Outcome {
            results,
            reason,
            score: Self::score_text(&points),
            points,
            deal: self.redeals() as u32,
        }
    }

    fn draw_offers(&self) -> DrawOffers {
        DrawOffers::None
    }

    /// Every bid and every play has the turn's clock, the first ones too:
    /// a landlord who bid 3 at once is timed on the first play.
    const TIMED_FROM_FIRST_ACTION: bool = true;

    /// A missed bid is a pass (不叫), as QQ counts it; a hand is dealt again
    /// only when all three pass. A missed play has no such rule: the table's
    /// computer plays for the seat then (托管), or the time runs out.
    /// The deal being played: 0, then one more per deal everyone passed.
    fn deal_number(&self) -> u32 {
        self.redeals() as u32
    }

    fn time_out_action(&self, seat: Seat) -> Option<String> {
        (!self.is_over() && self.landlord.is_none() && seat == self.to_act)
            .then(|| "pass".to_string())
    }

    /// Never asked: Doudizhu has no draws by agreement ([`DrawOffers::None`]).
    /// Were a hand agreed drawn, it would score nothing: every seat draws, no
    /// points change hands.
    fn agreed_draw(&self) -> Outcome {
        let points = vec![0; 3];
        Outcome {
            results: vec![SeatResult::Draw; 3],
            reason: EndReason::Agreement,
            score: Self::score_text(&points),
            points,
            deal: self.redeals() as u32,
        }
    }

    fn view(&self, viewer: Viewer) -> View {
        let over = self.is_over();
        let own = match viewer {
            Viewer::Seat(s) if s.0 < 3 => Some(s),
            _ => None,
        };
        let counts = [0, 1, 2].map(|i| self.hands[i].len() as u8);
        View {
            viewer,
            phase: self.phase(),
            to_act: (!over).then_some(self.to_act),
            first_bidder: self.first_bidder,
            redeals: self.passed_out.len(),
            bids: self.bids.clone(),
            bid: self.bid,
            landlord: self.landlord,
            bottom: self.landlord.map(|_| self.deal.bottom),
            hand: own.map(|s| self.hands[s.index()]),
            counts,
            hands: over.then_some(self.hands),
            plays: self.plays.clone(),
            last: self.last.map(|(seat, c)| Turned {
                seat,
                cards: Some(c.cards),
            }),
            bombs: self.bombs,
            multiplier: self.multiplier(),
            legal: own.map(|s| self.legal_actions(s)).unwrap_or_default(),
            outcome: self.outcome(),
        }
    }

    fn record(&self, meta: &RecordMeta) -> String {
        serde_json::to_string_pretty(&self.record_data(meta))
            .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }

    /// Reads a JSON record: its setup and actions. The record names its first
    /// bidder, so the setup carries it: a record replays under any options.
    fn load(_options: &Options, text: &str) -> Result<(Setup, Vec<String>), SetupError> {
        let record: Record = serde_json::from_str(text)
            .map_err(|e| SetupError::new(format!("not a Doudizhu record: {e}")))?;
        let (_, setup) = record.setup()?;
        Ok((
            setup,
            record.actions.into_iter().map(|a| a.action).collect(),
        ))
    }
}
