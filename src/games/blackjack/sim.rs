//! A seeded shoe simulator that plays a strategy chart under every rule of a rule set:
//! splits and resplits (with DAS, resplit and hit-split-aces rules), doubles, late and
//! early surrender, the dealer's peek or the no-hole-card game, and either a reshuffle
//! before every round or a cut card at a given penetration.
//!
//! It is the independent check of the exact analysis: with a reshuffle every round, the
//! mean result of playing the basic strategy chart must lie within a few standard errors
//! of the chart's exact EV.

use cardtables::blackjack::{Action, Cell, Row, RANKS};
use rand::RngExt;
use rand_pcg::Pcg64;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

use super::count::Counter;
use super::hands::{points, ACE, TEN};
use super::rules::{BlackjackRules, Double, Surrender};

/// Simulated rounds per work unit of a job (about a second on one core): the strategy
/// simulation's and the counter's.
pub const ROUNDS_PER_UNIT: u64 = 10_000_000;

/// When the shoe is shuffled.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shuffle {
    /// Before every round: each round is dealt from a full shoe, as the exact analysis
    /// assumes.
    EveryRound,
    /// When this fraction of the shoe has been dealt (a cut card), checked between rounds.
    Penetration(f64),
}

/// Sums of round results, mergeable in a fixed order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    pub rounds: u64,
    /// Sum of results (units of the initial bet) and of their squares.
    pub sum: f64,
    pub sum_squares: f64,
}

impl Tally {
    pub fn add(&mut self, other: &Tally) {
        self.rounds += other.rounds;
        self.sum += other.sum;
        self.sum_squares += other.sum_squares;
    }

    pub fn mean(&self) -> f64 {
        self.sum / self.rounds as f64
    }

    /// Standard error of the mean.
    pub fn std_error(&self) -> f64 {
        let n = self.rounds as f64;
        let mean = self.mean();
        ((self.sum_squares / n - mean * mean).max(0.0) / n).sqrt()
    }
}

/// The cards: a finite shoe dealt by partial Fisher–Yates, or an infinite one.
///
/// `cards[..next]` have been dealt since the last shuffle, `cards[round_start..next]` in
/// the round being played (they are on the table). When a round needs a card and the
/// shoe is empty, the discards (`cards[..round_start]`) are shuffled back in and the
/// round goes on, as a dealer does with a cut card placed too deep; the cut card stays
/// the normal trigger, checked between rounds.
enum Cards {
    Finite {
        cards: Vec<u8>,
        next: usize,
        round_start: usize,
        /// What a dealt card of each rank adds to `twice_seen` (zero unless counted).
        tags: [i64; RANKS],
        /// Twice the running count of `cards[..next]`, the cards dealt since the shuffle,
        /// kept as they are dealt.
        twice_seen: i64,
    },
    Infinite,
    /// Tests only: these ranks, dealt in this order.
    #[cfg(test)]
    Stacked(std::collections::VecDeque<usize>),
}

impl Cards {
    fn new(rules: &BlackjackRules) -> Cards {
        Cards::counted(rules, [0; RANKS])
    }

    /// A shoe whose dealt cards are counted by `tags` (twice a system's tags).
    fn counted(rules: &BlackjackRules, tags: [i64; RANKS]) -> Cards {
        match rules.shoe() {
            Some(counts) => Cards::Finite {
                cards: (0..RANKS)
                    .flat_map(|r| std::iter::repeat_n(r as u8, counts[r] as usize))
                    .collect(),
                next: 0,
                round_start: 0,
                tags,
                twice_seen: 0,
            },
            None => Cards::Infinite,
        }
    }

    /// Deals one card uniformly from those not yet dealt since the last shuffle.
    fn deal(&mut self, rng: &mut Pcg64) -> usize {
        match self {
            Cards::Finite {
                cards,
                next,
                round_start,
                tags,
                twice_seen,
            } => {
                if *next == cards.len() {
                    // The shoe ran dry mid-round: keep the table's cards at the front and
                    // deal on from the discards behind them. (A round cannot use a whole
                    // shoe: its cards' points stay far below one deck's 340.)
                    cards.rotate_left(*round_start);
                    *next -= *round_start;
                    *round_start = 0;
                    if *next == cards.len() {
                        *next = 0; // no discards: unreachable, see above
                    }
                    // The discards went back in: only the table's cards are seen now.
                    *twice_seen = cards[..*next].iter().map(|&c| tags[usize::from(c)]).sum();
                }
                let j = rng.random_range(*next..cards.len());
                cards.swap(*next, j);
                *next += 1;
                let card = usize::from(cards[*next - 1]);
                *twice_seen += tags[card];
                card
            }
            Cards::Infinite => (rng.random_range(0..13u32) as usize).min(TEN),
            #[cfg(test)]
            Cards::Stacked(ranks) => ranks.pop_front().expect("a stacked card left"),
        }
    }

    /// Puts every card back. The array stays a permutation of the shoe, so the next
    /// partial Fisher–Yates draws are uniform again.
    fn shuffle(&mut self) {
        if let Cards::Finite {
            next,
            round_start,
            twice_seen,
            ..
        } = self
        {
            *next = 0;
            *round_start = 0;
            *twice_seen = 0;
        }
    }

    /// Marks the start of a round: cards dealt from now on are on the table.
    fn start_round(&mut self) {
        if let Cards::Finite {
            next, round_start, ..
        } = self
        {
            *round_start = *next;
        }
    }

    /// Twice the running count of the cards dealt since the last shuffle, and how many
    /// they are (none for an infinite shoe).
    fn twice_seen_and_dealt(&self) -> (i64, u32) {
        match self {
            Cards::Finite {
                twice_seen, next, ..
            } => (*twice_seen, *next as u32),
            _ => (0, 0),
        }
    }

    /// Cards dealt since the last shuffle (none for an infinite shoe).
    fn dealt(&self) -> usize {
        match self {
            Cards::Finite { next, .. } => *next,
            _ => 0,
        }
    }

    /// The fewest dealt cards that make `fraction` of the shoe (`usize::MAX` when no
    /// number does, as for an infinite shoe): the shuffle point of a cut card placed at
    /// that fraction, found once rather than dividing before every round.
    fn cut_at(&self, fraction: f64) -> usize {
        match self {
            Cards::Finite { cards, .. } => (0..=cards.len())
                .find(|&n| n as f64 / cards.len() as f64 >= fraction)
                .unwrap_or(usize::MAX),
            _ if fraction <= 0.0 => 0,
            _ => usize::MAX,
        }
    }
}

/// A hand being played.
#[derive(Clone, Copy, Debug, Default)]
struct PlayedHand {
    hard: u8,
    aces: bool,
    cards: u8,
    /// Rank of the first card (for pairs).
    first: u8,
    second: u8,
    bet: f64,
    /// Dealt from a split.
    split: bool,
    done: bool,
}

impl PlayedHand {
    fn of(card: usize, split: bool) -> PlayedHand {
        PlayedHand {
            hard: points(card),
            aces: card == ACE,
            cards: 1,
            first: card as u8,
            second: card as u8,
            bet: 1.0,
            split,
            done: false,
        }
    }

    fn add(&mut self, card: usize) {
        if self.cards == 1 {
            self.second = card as u8;
        }
        self.hard += points(card);
        self.aces |= card == ACE;
        self.cards += 1;
    }

    fn soft(&self) -> bool {
        self.aces && self.hard + 10 <= 21
    }

    fn total(&self) -> u8 {
        if self.soft() {
            self.hard + 10
        } else {
            self.hard
        }
    }

    fn is_pair(&self) -> bool {
        self.cards == 2 && self.first == self.second
    }
}

/// A chart's decision for every cell and every set of optional actions a hand may take
/// (bit 0 double, bit 1 split, bit 2 surrender): the cell's first action the hand may
/// take, else stand. Looked up, a decision is one read instead of a walk along the cell.
type Decisions = Arc<[[Action; 8]]>;

fn decisions(chart: &[Cell]) -> Decisions {
    chart
        .iter()
        .map(|cell| {
            std::array::from_fn(|may| {
                cell.iter()
                    .filter_map(|&c| Action::from_code(c))
                    .find(|&a| match a {
                        Action::Stand | Action::Hit => true,
                        Action::Double => may & 1 != 0,
                        Action::Split => may & 2 != 0,
                        Action::Surrender => may & 4 != 0,
                    })
                    .unwrap_or(Action::Stand)
            })
        })
        .collect()
}

/// A strategy chart with the rules it is played under.
pub struct Player<'a> {
    rules: &'a BlackjackRules,
    chart: Decisions,
    /// The decisions on the two dealt cards, when they differ (a counter's chart at the
    /// round's count).
    first: Decisions,
}

impl<'a> Player<'a> {
    pub fn new(rules: &'a BlackjackRules, chart: &[Cell]) -> Player<'a> {
        let chart = decisions(chart);
        Player {
            rules,
            first: chart.clone(),
            chart,
        }
    }

    /// This player deciding on the two dealt cards by `first` instead, every later
    /// decision (hits, split hands) as before.
    pub fn with_first(&self, first: &[Cell]) -> Player<'a> {
        Player {
            rules: self.rules,
            chart: self.chart.clone(),
            first: decisions(first),
        }
    }

    fn may_double(&self, hand: &PlayedHand) -> bool {
        if hand.cards != 2 || (hand.split && !self.rules.double_after_split) {
            return false;
        }
        match self.rules.double {
            Double::AnyTwo => true,
            Double::NineToEleven => !hand.soft() && (9..=11).contains(&hand.total()),
            Double::TenOrEleven => !hand.soft() && (10..=11).contains(&hand.total()),
        }
    }

    /// The chart's decision for a hand, given how many hands the round has.
    fn decide(
        &self,
        hand: &PlayedHand,
        upcard: usize,
        hands: usize,
        surrender_now: bool,
    ) -> Action {
        let may_split = hand.is_pair()
            && hands < usize::from(self.rules.max_split_hands)
            && (usize::from(hand.first) != ACE || !hand.split || self.rules.resplit_aces);
        let row = if may_split {
            Row::Pair(usize::from(hand.first))
        } else if hand.soft() {
            Row::Soft(hand.total())
        } else {
            Row::Hard(hand.total().max(4))
        };
        let may_surrender = surrender_now
            && self.rules.surrender != Surrender::None
            && hand.cards == 2
            && !hand.split;
        let may = usize::from(self.may_double(hand))
            | usize::from(may_split) << 1
            | usize::from(may_surrender) << 2;
        let first = hand.cards == 2 && !hand.split;
        let chart = if first { &self.first } else { &self.chart };
        chart[row.index().unwrap_or(0) * RANKS + upcard][may]
    }

    /// Plays `rounds` rounds from `rng`, shuffling as `shuffle` says.
    pub fn simulate(&self, rounds: u64, shuffle: Shuffle, rng: &mut Pcg64) -> Tally {
        let mut cards = Cards::new(self.rules);
        let mut hands: Vec<PlayedHand> = Vec::with_capacity(4);
        let mut tally = Tally::default();
        let cut = match shuffle {
            Shuffle::EveryRound => 0,
            Shuffle::Penetration(f) => cards.cut_at(f),
        };
        for _ in 0..rounds {
            if cards.dealt() >= cut {
                cards.shuffle();
            }
            cards.start_round();
            let result = self.round(&mut cards, &mut hands, rng);
            tally.rounds += 1;
            tally.sum += result;
            tally.sum_squares += result * result;
        }
        tally
    }

    fn round(&self, cards: &mut Cards, hands: &mut Vec<PlayedHand>, rng: &mut Pcg64) -> f64 {
        let mut result = [0.0];
        play_table(&[self], cards, hands, &mut result, rng);
        result[0]
    }
}

/// Most seats at a table (the counter's hands and the other players').
pub const MAX_SEATS: usize = 7;

/// Deals and plays one round at a table: each seat's first card in seat order, the
/// upcard, each seat's second card, the hole card; then each seat plays its hand (and its
/// split hands) in turn, and the dealer plays out unless no seat has a hand left standing.
/// `results[s]` is seat `s`'s result in units of its initial bet; returns the upcard and
/// the hole card.
fn play_table(
    seats: &[&Player],
    cards: &mut Cards,
    hands: &mut Vec<PlayedHand>,
    results: &mut [f64],
    rng: &mut Pcg64,
) -> (usize, usize) {
    let n = seats.len();
    let mut dealt = [PlayedHand::default(); MAX_SEATS];
    for hand in &mut dealt[..n] {
        *hand = PlayedHand::of(cards.deal(rng), false);
    }
    let up = cards.deal(rng);
    for hand in &mut dealt[..n] {
        hand.add(cards.deal(rng));
    }
    let hole = cards.deal(rng);
    let r = seats[0].rules;
    let dealer_blackjack = (up == ACE && hole == TEN) || (up == TEN && hole == ACE);
    // Seats still in the round after naturals and surrenders, and where their hands start.
    let mut playing = [false; MAX_SEATS];
    for s in 0..n {
        let first = &dealt[s];
        let natural = first.total() == 21;
        results[s] = if r.surrender == Surrender::Early
            && !natural
            && seats[s].decide(first, up, 1, true) == Action::Surrender
        {
            -0.5
        } else if r.dealer_peeks && dealer_blackjack {
            if natural {
                0.0
            } else {
                -1.0
            }
        } else if natural {
            if dealer_blackjack {
                0.0
            } else {
                r.blackjack_pays
            }
        } else if r.surrender == Surrender::Late
            && seats[s].decide(first, up, 1, true) == Action::Surrender
        {
            -0.5
        } else {
            playing[s] = true;
            0.0
        };
    }
    let mut starts = [0usize; MAX_SEATS + 1];
    hands.clear();
    for s in 0..n {
        starts[s] = hands.len();
        if playing[s] {
            seats[s].play_hands(dealt[s], up, cards, hands, rng);
        }
    }
    starts[n] = hands.len();
    if hands.is_empty() {
        return (up, hole);
    }
    if !r.dealer_peeks && dealer_blackjack {
        // Seats that surrendered or had a natural keep their result.
        for s in (0..n).filter(|&s| playing[s]) {
            results[s] = -hands[starts[s]..starts[s + 1]]
                .iter()
                .map(|h| h.bet)
                .sum::<f64>();
        }
        return (up, hole);
    }
    // The dealer plays out unless every hand is bust.
    let live = hands.iter().any(|h| h.total() <= 21);
    let mut dealer = PlayedHand::of(up, false);
    dealer.add(hole);
    if live {
        while dealer.total() < 17
            || (dealer.total() == 17 && dealer.soft() && r.dealer_hits_soft_17)
        {
            dealer.add(cards.deal(rng));
        }
    }
    let d = dealer.total();
    for s in 0..n {
        if !playing[s] {
            continue;
        }
        results[s] = hands[starts[s]..starts[s + 1]]
            .iter()
            .map(|h| {
                let t = h.total();
                if t > 21 {
                    -h.bet
                } else if d > 21 || t > d {
                    h.bet
                } else if t < d {
                    -h.bet
                } else {
                    0.0
                }
            })
            .sum();
    }
    (up, hole)
}

impl Player<'_> {
    /// Plays one seat's two-card hand, and the hands split from it, appending them to
    /// `hands` (which holds the earlier seats' hands).
    fn play_hands(
        &self,
        first: PlayedHand,
        up: usize,
        cards: &mut Cards,
        hands: &mut Vec<PlayedHand>,
        rng: &mut Pcg64,
    ) {
        let r = self.rules;
        let start = hands.len();
        hands.push(first);
        let mut i = start;
        while i < hands.len() {
            let mine = hands.len() - start;
            // A split hand gets its second card when its turn comes.
            if hands[i].cards == 1 {
                let c = cards.deal(rng);
                hands[i].add(c);
                if usize::from(hands[i].first) == ACE && !r.hit_split_aces {
                    // Split aces: one card each, unless a further ace is split again.
                    let may_resplit = c == ACE
                        && r.resplit_aces
                        && mine < usize::from(r.max_split_hands)
                        && self.decide(&hands[i], up, mine, false) == Action::Split;
                    if !may_resplit {
                        hands[i].done = true;
                        i += 1;
                        continue;
                    }
                }
            }
            let hand = hands[i];
            if hand.done || hand.total() >= 21 {
                i += 1;
                continue;
            }
            match self.decide(&hand, up, mine, false) {
                Action::Stand | Action::Surrender => {
                    hands[i].done = true;
                    i += 1;
                }
                Action::Hit => hands[i].add(cards.deal(rng)),
                Action::Double => {
                    hands[i].bet = 2.0;
                    hands[i].add(cards.deal(rng));
                    hands[i].done = true;
                    i += 1;
                }
                Action::Split => {
                    let p = usize::from(hand.first);
                    hands[i] = PlayedHand::of(p, true);
                    hands.push(PlayedHand::of(p, true));
                }
            }
        }
    }
}

/// A bet ramp: from each step's count up, that many units (one unit below every step).
#[derive(Clone, Debug, PartialEq)]
pub struct Ramp {
    /// (count, units), counts increasing.
    pub steps: Vec<(i32, f64)>,
}

impl Ramp {
    /// The bet at `count`, in units.
    pub fn bet(&self, count: i32) -> f64 {
        self.steps
            .iter()
            .rev()
            .find(|s| s.0 <= count)
            .map_or(1.0, |s| s.1)
    }
}

/// What one bet ramp won over a counter's rounds: the sums of units won per round, of
/// their squares, and of units bet; the trips in which the bankroll was lost; and the
/// sessions of an unlimited game (see [`Sessions`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RampTally {
    pub won: Tally,
    pub bet: f64,
    pub ruined: u64,
    /// Sessions ended, and of them those that lost the bankroll and those stopped at the
    /// round limit.
    pub sessions: u64,
    pub session_ruins: u64,
    pub session_caps: u64,
}

/// The risk of ruin of an unlimited game, simulated: sessions, each from the full
/// bankroll, that end when the bankroll is lost, when it has grown to `safe` (where the
/// unlimited game's remaining risk is that of the larger bankroll: the bankroll's own
/// risk raised to the power `safe ÷ bankroll`, by the diffusion formula), or after `cap`
/// rounds. A session starts only while at least `cap` rounds remain, so every session
/// started ends inside the rounds played: none is cut short by the end of a unit, which
/// would favour the long (surviving) sessions being dropped.
#[derive(Clone, Copy, Debug)]
pub struct Sessions {
    bankroll: f64,
    safe: f64,
    cap: u64,
    /// The session in play: its balance and rounds so far.
    open: Option<(f64, u64)>,
}

impl Sessions {
    pub fn new(bankroll: f64, safe: f64, cap: u64) -> Sessions {
        Sessions {
            bankroll,
            safe,
            cap,
            open: None,
        }
    }

    /// Plays one round's result, `remaining` rounds being left including this one, and
    /// counts into `tally` each session that ends.
    #[inline]
    pub fn round(&mut self, result: f64, remaining: u64, tally: &mut RampTally) {
        if self.open.is_none() && remaining >= self.cap {
            self.open = Some((self.bankroll, 0));
        }
        let Some((balance, length)) = &mut self.open else {
            return;
        };
        *balance += result;
        *length += 1;
        let (ruined, safe, capped) = (*balance <= 0.0, *balance >= self.safe, *length == self.cap);
        if ruined || safe || capped {
            tally.sessions += 1;
            tally.session_ruins += u64::from(ruined);
            tally.session_caps += u64::from(capped && !ruined && !safe);
            self.open = None;
        }
    }
}

/// A counter's results: per bet ramp, units won and bet (the same rounds, played the same
/// way, bet by each ramp); and by count, the result of a hand per unit bet.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CounterTally {
    /// One per ramp, in the settings' order.
    pub by_ramp: Vec<RampTally>,
    /// By count of the counter's range (lowest first): rounds and results per unit bet.
    pub by_count: Vec<Tally>,
    /// Trips played (blocks of `trip_rounds` rounds, each from the full bankroll).
    pub trips: u64,
    /// Shoes the counter left before the cut card (wonging out).
    pub shoes_left: u64,
}

impl CounterTally {
    /// Rounds played.
    pub fn rounds(&self) -> u64 {
        self.by_count.iter().map(|t| t.rounds).sum()
    }

    pub fn add(&mut self, other: &CounterTally) {
        self.trips += other.trips;
        self.shoes_left += other.shoes_left;
        if self.by_ramp.len() < other.by_ramp.len() {
            self.by_ramp
                .resize(other.by_ramp.len(), RampTally::default());
        }
        for (a, b) in self.by_ramp.iter_mut().zip(&other.by_ramp) {
            a.won.add(&b.won);
            a.bet += b.bet;
            a.ruined += b.ruined;
            a.sessions += b.sessions;
            a.session_ruins += b.session_ruins;
            a.session_caps += b.session_caps;
        }
        if self.by_count.len() < other.by_count.len() {
            self.by_count.resize(other.by_count.len(), Tally::default());
        }
        for (a, b) in self.by_count.iter_mut().zip(&other.by_count) {
            a.add(b);
        }
    }
}

/// A card counter at the table: each round's count is taken before it is dealt; the
/// counter leaves a shoe whose count has fallen below `wong_out` (and plays on from a
/// fresh shuffle), bets each of its `hands` seats by each ramp, makes the first decision on
/// each seat's two dealt cards by the chart for that count (the basic strategy with the
/// index plays that apply there) and every later one by the basic strategy, and insures
/// every hand from `insure_from`. `others` more seats play the basic strategy after the
/// counter's; their cards are dealt and seen, their results are not the counter's.
pub struct Counting<'a> {
    pub rules: &'a BlackjackRules,
    pub counter: &'a Counter,
    /// The basic strategy chart.
    pub chart: &'a [Cell],
    /// The chart of first decisions at each count of the counter's range, lowest first.
    pub charts: &'a [Vec<Cell>],
    pub insure_from: Option<i32>,
    /// Bet ramps: the same rounds are tallied as each would have bet them.
    pub ramps: &'a [Ramp],
    /// Shuffle when this fraction of the shoe has been dealt (checked between rounds).
    pub penetration: f64,
    /// Seats the counter plays, and seats of other players; together at most
    /// [`MAX_SEATS`].
    pub hands: usize,
    pub others: usize,
    /// Leave the shoe when the count before a round is below this.
    pub wong_out: Option<i32>,
    /// Bankroll in units, and rounds per trip: each block of `trip_rounds` rounds starts
    /// from the bankroll and counts as ruined if the bankroll is lost within it.
    pub bankroll: f64,
    pub trip_rounds: u64,
    /// Sessions of an unlimited game ([`Sessions`]): safe once the bankroll has grown to
    /// `ruin_goal` times its start, stopped after `session_rounds` rounds.
    pub ruin_goal: f64,
    pub session_rounds: u64,
}

impl Counting<'_> {
    /// Plays `rounds` rounds from `rng`, from a freshly shuffled shoe.
    pub fn simulate(&self, rounds: u64, rng: &mut Pcg64) -> CounterTally {
        let mut cards = Cards::counted(self.rules, self.counter.twice_tags());
        let cut = cards.cut_at(self.penetration);
        let total: u32 = self.rules.shoe().map_or(0, |s| s.iter().sum());
        let decks = total / 52;
        let basic = Player::new(self.rules, self.chart);
        let players: Vec<Player> = self.charts.iter().map(|c| basic.with_first(c)).collect();
        let (mine, seats) = (self.hands, self.hands + self.others);
        assert!(
            mine >= 1 && seats <= MAX_SEATS,
            "seats checked by the settings"
        );
        let mut hands: Vec<PlayedHand> = Vec::with_capacity(4 * seats);
        let mut results = [0.0; MAX_SEATS];
        let mut tally = CounterTally {
            by_ramp: vec![RampTally::default(); self.ramps.len()],
            by_count: vec![Tally::default(); self.counter.counts()],
            ..CounterTally::default()
        };
        let count_now = |cards: &Cards| {
            let (twice_seen, dealt) = cards.twice_seen_and_dealt();
            self.counter
                .count_of_twice(twice_seen, total - dealt, decks)
        };
        // Each ramp's bet at each count of the range, and its bankroll on this trip.
        let bets: Vec<Vec<f64>> = self
            .ramps
            .iter()
            .map(|ramp| {
                (self.counter.low..=self.counter.high)
                    .map(|c| ramp.bet(c))
                    .collect()
            })
            .collect();
        let mut bankrolls: Vec<(f64, bool)> = vec![(self.bankroll, false); self.ramps.len()];
        let mut sessions = vec![
            Sessions::new(
                self.bankroll,
                self.ruin_goal * self.bankroll,
                self.session_rounds
            );
            self.ramps.len()
        ];
        let mut played = 0u64;
        for round in 0..rounds {
            if cards.dealt() >= cut {
                cards.shuffle();
            }
            let mut count = count_now(&cards);
            if self.wong_out.is_some_and(|w| count < w) && cards.dealt() > 0 {
                // Leave for a fresh shoe (the settings check that its count is not below
                // the wong-out count).
                tally.shoes_left += 1;
                cards.shuffle();
                count = count_now(&cards);
            }
            cards.start_round();
            let at = (count - self.counter.low) as usize;
            let mut table = [&basic; MAX_SEATS];
            table[..mine].fill(&players[at]);
            let (up, hole) = play_table(&table[..seats], &mut cards, &mut hands, &mut results, rng);
            // Insurance is half a bet, paid 2 to 1 when the hole card is ten-valued.
            let insured = up == ACE && self.insure_from.is_some_and(|f| count >= f);
            let side = match (insured, hole == TEN) {
                (false, _) => 0.0,
                (true, true) => 1.0,
                (true, false) => -0.5,
            };
            let per_unit = results[..mine].iter().map(|r| side + r).sum::<f64>();
            let per_hand = if mine == 1 {
                per_unit
            } else {
                per_unit / mine as f64
            };
            let here = &mut tally.by_count[at];
            here.rounds += 1;
            here.sum += per_hand;
            here.sum_squares += per_hand * per_hand;
            played += 1;
            let trip_over = played == self.trip_rounds;
            for (((t, bets), (balance, ruined)), session) in tally
                .by_ramp
                .iter_mut()
                .zip(&bets)
                .zip(&mut bankrolls)
                .zip(&mut sessions)
            {
                let bet = bets[at];
                let result = bet * per_unit;
                t.won.rounds += 1;
                t.won.sum += result;
                t.won.sum_squares += result * result;
                t.bet += bet * mine as f64;
                if !*ruined {
                    *balance += result;
                    *ruined = *balance <= 0.0;
                }
                if trip_over {
                    t.ruined += u64::from(*ruined);
                    (*balance, *ruined) = (self.bankroll, false);
                }
                session.round(result, rounds - round, t);
            }
            if trip_over {
                tally.trips += 1;
                played = 0;
            }
        }
        tally
    }
}

/// The tutorial article's "basic strategy" as a chart: split aces and eights, never tens, the
/// rest by its soft and hard tables (its doubles become "double, else hit", except soft 18
/// which it stands on otherwise). Kept to show what its wrong cells cost.
pub fn article_chart() -> Vec<Cell> {
    use cardtables::blackjack::{CHART_ROWS, NO_ACTION};
    let code = |actions: &[Action]| {
        let mut c = [NO_ACTION; 5];
        for (slot, &a) in c.iter_mut().zip(actions) {
            *slot = a as u8;
        }
        c
    };
    use Action::{Double as D, Hit as H, Split as P, Stand as S};
    let mut chart = vec![code(&[S]); CHART_ROWS * RANKS];
    for row in Row::all() {
        for up in 0..RANKS {
            // The article values an ace upcard 11 and tens 10.
            let v = if up == ACE { 11 } else { up as u8 + 1 };
            let between = |lo: u8, hi: u8| (lo..=hi).contains(&v);
            let soft = |t: u8| match t {
                19.. => code(&[S]),
                18 if between(2, 6) => code(&[D, S]),
                18 => code(&[S]),
                17 if between(3, 6) => code(&[D, H]),
                15 | 16 if between(4, 6) => code(&[D, H]),
                13 | 14 if between(5, 6) => code(&[D, H]),
                _ => code(&[H]),
            };
            let hard = |t: u8| match t {
                17.. => code(&[S]),
                13..=16 if between(2, 6) => code(&[S]),
                12 if between(4, 6) => code(&[S]),
                11 => code(&[D, H]),
                10 if between(2, 9) => code(&[D, H]),
                9 if between(3, 6) => code(&[D, H]),
                _ => code(&[H]),
            };
            let cell = match row {
                Row::Hard(t) => hard(t),
                Row::Soft(t) => soft(t),
                Row::Pair(p) if p == ACE || p == 7 => code(&[P]),
                Row::Pair(TEN) => code(&[S]),
                Row::Pair(p) => hard(2 * points(p)),
            };
            chart[row.index().unwrap_or(0) * RANKS + up] = cell;
        }
    }
    chart
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::stream;
    use crate::games::blackjack::analysis::analyze;
    use crate::games::blackjack::count::CountSettings;
    use crate::games::blackjack::rules::Decks;

    /// Without the peek, a dealer blackjack beats every hand still in play, and only
    /// those: a seat that surrendered keeps its −0.5 and a natural its push, also when
    /// another seat at the table played on (a case a one-seat table never reaches).
    #[test]
    fn without_the_peek_a_dealer_blackjack_leaves_surrendered_seats_their_half_bet() {
        let rules = BlackjackRules {
            dealer_peeks: false,
            surrender: Surrender::Late,
            ..BlackjackRules::default()
        };
        let chart = analyze(&rules).chart;
        let player = Player::new(&rules, &chart);
        let mut sixteen = PlayedHand::of(TEN, false);
        sixteen.add(5); // rank index 5 is a 6
        assert_eq!(
            player.decide(&sixteen, TEN, 1, true),
            Action::Surrender,
            "the chart surrenders 16 against a ten"
        );
        // Seats: 16 (surrenders), 20 (stands), a natural; the dealer: T up, A in the hole.
        // Dealing order: each seat's first card, the upcard, each seat's second, the hole.
        let mut cards = Cards::Stacked([TEN, TEN, ACE, TEN, 5, TEN, TEN, ACE].into());
        let mut hands = Vec::new();
        let mut results = [9.0; 3];
        let (up, hole) = play_table(
            &[&player, &player, &player],
            &mut cards,
            &mut hands,
            &mut results,
            &mut stream(1, 0),
        );
        assert_eq!((up, hole), (TEN, ACE));
        assert_eq!(results, [-0.5, -1.0, 0.0]);
    }

    #[test]
    fn a_shoe_that_runs_dry_mid_round_reshuffles_its_discards() {
        let rules = BlackjackRules {
            decks: Decks::Finite(1),
            ..BlackjackRules::default()
        };
        let shoe = rules.shoe().unwrap();
        // Counted by Hi-Lo: the count kept as cards are dealt must equal a recount of the
        // dealt cards, through every mid-round reshuffle and every shuffle.
        let hi_lo = Counter::new(&CountSettings::default()).unwrap();
        let mut cards = Cards::counted(&rules, hi_lo.twice_tags());
        let mut rng = stream(7, 0);
        // Seven cards a round and never a shuffle between rounds: the 52-card shoe runs
        // dry inside a round again and again. No card may come twice within a round, and
        // every round's cards are a sub-multiset of the shoe.
        for round in 0..2_000 {
            if round % 97 == 96 {
                cards.shuffle();
            }
            cards.start_round();
            let mut seen = [0u32; RANKS];
            for _ in 0..7 {
                seen[cards.deal(&mut rng)] += 1;
            }
            for r in 0..RANKS {
                assert!(
                    seen[r] <= shoe[r],
                    "round {round}: rank {r} dealt {} times",
                    seen[r]
                );
            }
            let Cards::Finite {
                cards: order,
                next,
                twice_seen,
                ..
            } = &cards
            else {
                unreachable!("a one-deck shoe")
            };
            let mut dealt = [0u32; RANKS];
            for &c in &order[..*next] {
                dealt[usize::from(c)] += 1;
            }
            let (left, decks) = (52 - *next as u32, 1);
            assert_eq!(
                hi_lo.count_of_twice(*twice_seen, left, decks),
                hi_lo.count(&dealt, left, decks),
                "round {round}"
            );
            let recount: i64 = dealt
                .iter()
                .zip(hi_lo.twice_tags())
                .map(|(&n, t)| i64::from(n) * t)
                .sum();
            assert_eq!(*twice_seen, recount, "round {round}");
        }
    }

    #[test]
    fn simulated_sessions_match_the_gamblers_ruin_of_a_biased_walk() {
        // A ±1 walk up with probability 0.55, from 10 units, safe at 50: the chance of
        // ruin first is ((q/p)^10 − (q/p)^50) ÷ (1 − (q/p)^50), about 0.1344.
        let (p, q) = (0.55f64, 0.45f64);
        let r = q / p;
        let exact = (r.powi(10) - r.powi(50)) / (1.0 - r.powi(50));
        let mut sessions = Sessions::new(10.0, 50.0, 1_000_000);
        let mut tally = RampTally::default();
        let mut rng = stream(5, 0);
        let rounds = 3_000_000u64;
        for round in 0..rounds {
            let step = if rng.random_bool(p) { 1.0 } else { -1.0 };
            sessions.round(step, rounds + 1_000_000 - round, &mut tally);
        }
        let n = tally.sessions as f64;
        let got = tally.session_ruins as f64 / n;
        let se = (exact * (1.0 - exact) / n).sqrt();
        assert!(tally.sessions > 5_000, "{}", tally.sessions);
        assert_eq!(tally.session_caps, 0);
        assert!((got - exact).abs() < 4.0 * se, "{got} vs {exact} ± {se}");
    }

    #[test]
    fn a_session_starts_only_while_its_round_limit_fits() {
        // +1 a round, never safe: 250 rounds with a 100-round limit hold two whole
        // sessions, both stopped at the limit; the last 50 rounds start none.
        let mut sessions = Sessions::new(5.0, 1e9, 100);
        let mut tally = RampTally::default();
        for round in 0..250u64 {
            sessions.round(1.0, 250 - round, &mut tally);
        }
        assert_eq!(
            (tally.sessions, tally.session_caps, tally.session_ruins),
            (2, 2, 0)
        );
        // −1 a round from 5: ruined on the fifth round, again and again; a ruin on the
        // limit's last round is a ruin, not a stop.
        let mut sessions = Sessions::new(5.0, 1e9, 5);
        let mut tally = RampTally::default();
        for round in 0..20u64 {
            sessions.round(-1.0, 20 - round, &mut tally);
        }
        assert_eq!(
            (tally.sessions, tally.session_caps, tally.session_ruins),
            (4, 0, 4)
        );
    }

    #[test]
    fn a_deep_cut_card_in_a_single_deck_plays_on() {
        let rules = BlackjackRules {
            decks: Decks::Finite(1),
            max_split_hands: 4,
            ..BlackjackRules::default()
        };
        let chart = crate::games::blackjack::analysis::analyze(&rules).chart;
        let tally = Player::new(&rules, &chart).simulate(
            200_000,
            Shuffle::Penetration(0.99),
            &mut stream(3, 1),
        );
        assert_eq!(tally.rounds, 200_000);
        assert!(tally.mean().abs() < 0.05, "{}", tally.mean());
    }
}
