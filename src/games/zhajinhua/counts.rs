//! Exact counts of one Zhajinhua hand against every opponent hand and every ordered
//! pair of disjoint opponent hands dealt from the same deck.
//!
//! Against one opponent we scan the 18,424 opponent hands. Against two we count ordered
//! pairs of *disjoint* opponent hands from the sets W (hands we beat) and E (hands we tie)
//! by inclusion–exclusion over shared cards:
//! `D(X, Y) = |X||Y| − Σ_c x_c y_c + Σ_p x_p y_p − |X ∩ Y|`, where `x_c` counts hands of X
//! holding card c and `x_p` those holding the pair p. Heads-up the hands compare under
//! the job's rules; against two, under the rules its showdown rule gives three hands
//! ([`ZhajinhuaRules::against`]), so a simultaneous showdown counts in the ordinary order.
//!
//! Against a calling range (the strongest share of hands) the runtime counts the same way:
//! `cardtables::zhajinhua::range`.

use std::cmp::Ordering;

use cardtables::colex::binomial;
use cardtables::Card;
use serde::{Deserialize, Serialize};

use super::eval::{Evaluator, HandInfo, OPPONENT_HANDS};
use super::rules::{Ties, ZhajinhuaRules};

/// Ordered pairs of disjoint opponent hands: C(49,3) · C(46,3).
pub const OPPONENT_PAIRS: u64 = 18_424 * 15_180;

/// Exact counts for one hand (shared by its suit class).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Opponent hands beaten / tied (of 18,424).
    pub win1: u64,
    pub tie1: u64,
    /// Ordered pairs of disjoint opponent hands (of [`OPPONENT_PAIRS`]) where we beat both,
    /// tie one and beat the other, and tie both.
    pub win2: u64,
    pub tie2_two_way: u64,
    pub tie2_three_way: u64,
}

/// Colex index of the pair of two distinct card ids.
fn pair_index(a: u8, b: u8) -> usize {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    (binomial(usize::from(lo), 1) + binomial(usize::from(hi), 2)) as usize
}

/// Card and pair incidence counts of a set of hands.
struct Incidence {
    size: i64,
    cards: [i64; 52],
    pairs: Vec<i64>,
}

impl Incidence {
    fn new() -> Self {
        Incidence {
            size: 0,
            cards: [0; 52],
            pairs: vec![0; 1326],
        }
    }

    fn add(&mut self, h: &HandInfo) {
        let [a, b, c] = h.cards.map(Card::id);
        self.size += 1;
        for id in [a, b, c] {
            self.cards[usize::from(id)] += 1;
        }
        for (x, y) in [(a, b), (a, c), (b, c)] {
            self.pairs[pair_index(x, y)] += 1;
        }
    }

    /// Ordered pairs (x ∈ self, y ∈ other) of disjoint hands; `common` = |self ∩ other|.
    fn disjoint_pairs(&self, other: &Incidence, common: i64) -> u64 {
        let cards: i64 = self
            .cards
            .iter()
            .zip(&other.cards)
            .map(|(x, y)| x * y)
            .sum();
        let pairs: i64 = self
            .pairs
            .iter()
            .zip(&other.pairs)
            .map(|(x, y)| x * y)
            .sum();
        (self.size * other.size - cards + pairs - common) as u64
    }
}

/// The one-opponent counters and the two-opponent win / tie sets of one hand, filled one
/// opponent hand at a time: heads-up the hands compare under `heads_up`, in a showdown of
/// three under `multi` (the rules [`ZhajinhuaRules::against`] two opponents).
struct Tally<'a> {
    heads_up: &'a Evaluator,
    multi: &'a Evaluator,
    hand: usize,
    win1: u64,
    tie1: u64,
    wins: Incidence,
    ties: Incidence,
}

impl<'a> Tally<'a> {
    fn new(heads_up: &'a Evaluator, multi: &'a Evaluator, hand: usize) -> Self {
        Tally {
            heads_up,
            multi,
            hand,
            win1: 0,
            tie1: 0,
            wins: Incidence::new(),
            ties: Incidence::new(),
        }
    }

    /// Adds opponent hand `j` (disjoint from ours).
    fn add(&mut self, j: usize) {
        let (h, m) = (&self.heads_up.hands, &self.multi.hands);
        match self.heads_up.compare(&h[self.hand], &h[j]) {
            Ordering::Greater => self.win1 += 1,
            Ordering::Equal => self.tie1 += 1,
            Ordering::Less => {}
        }
        match self.multi.compare(&m[self.hand], &m[j]) {
            Ordering::Greater => self.wins.add(&m[j]),
            Ordering::Equal => self.ties.add(&m[j]),
            Ordering::Less => {}
        }
    }

    fn counts(&self) -> Counts {
        let (wins, ties) = (&self.wins, &self.ties);
        Counts {
            win1: self.win1,
            tie1: self.tie1,
            win2: wins.disjoint_pairs(wins, wins.size),
            tie2_two_way: 2 * wins.disjoint_pairs(ties, 0),
            tie2_three_way: ties.disjoint_pairs(ties, ties.size),
        }
    }
}

/// Exact counts for hand `hand` (colex index) against every opponent hand, compared under
/// `heads_up`'s rules, and every pair of them, under `multi`'s (see `Tally`).
pub fn exact_counts(heads_up: &Evaluator, multi: &Evaluator, hand: usize) -> Counts {
    let mine = heads_up.hands[hand].mask;
    let mut tally = Tally::new(heads_up, multi, hand);
    for (j, theirs) in heads_up.hands.iter().enumerate() {
        if theirs.mask & mine == 0 {
            tally.add(j);
        }
    }
    tally.counts()
}

/// Win, tie and equity of a hand against `n` opponents from its exact counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    pub wins: u64,
    pub ties: u64,
    pub total: u64,
    pub win: f64,
    pub tie: f64,
    pub loss: f64,
    pub equity: f64,
}

impl Counts {
    /// Against `opponents` (1 or 2) random hands, under `rules`.
    pub fn outcome(&self, opponents: u8, rules: &ZhajinhuaRules) -> Outcome {
        let total = match opponents {
            1 => u64::from(OPPONENT_HANDS),
            _ => OPPONENT_PAIRS,
        };
        self.outcome_of(opponents, total, rules)
    }

    /// Against `opponents` (1 or 2) hands from a set of `total` deals (hands, or ordered
    /// pairs of disjoint hands) that these counts were taken over; a tie is worth what
    /// the rules [`ZhajinhuaRules::against`] that many opponents say.
    pub fn outcome_of(&self, opponents: u8, total: u64, rules: &ZhajinhuaRules) -> Outcome {
        let ties_rule = rules.against(opponents).ties;
        let (wins, ties, shared) = match opponents {
            1 => (self.win1, self.tie1, self.tie1 as f64 / 2.0),
            _ => (
                self.win2,
                self.tie2_two_way + self.tie2_three_way,
                self.tie2_two_way as f64 / 2.0 + self.tie2_three_way as f64 / 3.0,
            ),
        };
        let t = total as f64;
        let equity = match ties_rule {
            Ties::Split => (wins as f64 + shared) / t,
            Ties::CallerLoses => wins as f64 / t,
        };
        Outcome {
            wins,
            ties,
            total,
            win: wins as f64 / t,
            tie: ties as f64 / t,
            loss: (total - wins - ties) as f64 / t,
            equity,
        }
    }
}
