//! The see-four-cards game (看牌抢庄): what four seen cards are worth, and what to bid.
//!
//! **Exact part** ([`four_stats`]). Given four seen cards, the fifth is one of the 48
//! unseen cards, each equally likely, and the other hands are dealt from the 47 cards
//! left. So the fifth-card distribution of the final category is a count over 48 cards,
//! and every EV is the mean over the 48 fifth cards of the five-card hand's exact EV
//! against one opponent hand from the 47 cards left (the `niuniu.hands` counts). Against a
//! table of N players the banker's EV is N times the one-player EV: the banker settles
//! with each player separately, and each player's hand, given the banker's five cards, is
//! a uniform draw of five of the 47 other cards whatever the other players hold (the
//! players are exchangeable), so each settlement has the one-player expectation.
//!
//! **Bidding model** ([`simulate_class`]). Every seat sees four cards and bids a banker
//! multiplier or nothing; the highest bid is the banker (ties drawn evenly); when nobody
//! bids, a seat drawn evenly is banker at ×1. Each player then settles with the banker
//! at one stake: the winner's category multiplier times the banker's bid. The other
//! seats bid by tables over the 1,820 four-card rank classes ([`Mixture`]). Round 0's
//! table bids the top multiplier exactly where the class's exact banker EV is positive.
//! Each round, a class's suggested bid is the level with the highest EV against the
//! average of every earlier round's table (fictitious play, which damps the cycles plain
//! best responses fall into), bidding only where a bid's gain over not bidding exceeds
//! [`SIGNIFICANT`] standard errors; the suggestions are the next table. A class's EVs
//! come from seeded simulated tables in which its four cards (their suits drawn evenly)
//! sit at one seat; every bid level is scored on the same tables, with each tie of bids
//! settled by its exact probability rather than a draw.

use cardtables::colex::unrank;
use cardtables::niuniu::{multiset_index, tie_order};
use cardtables::niuniu_bidding::{class_of, CLASSES};
use cardtables::Card;
use rand::RngExt;
use rand_pcg::Pcg64;

use super::eval::{rank_multiset, tie_card};
use super::opponents::Outcome;
use super::rules::{Ranking, CODES};
use crate::cards::fill_unseen;

/// A payoff in units of 1/60 stake: every share of a tie among at most six seats is a
/// whole number of them, so the simulated sums are exact integers.
pub const PAYOFF_UNIT: i64 = 60;

/// How many standard errors a bid's simulated gain over not bidding must exceed for the
/// model to suggest it.
pub const SIGNIFICANT: f64 = 2.0;

/// The exact results of one four-card hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FourStats {
    /// Fifth cards (of 48) giving each category rank.
    pub fifth_cards: [u8; CODES],
    /// The banker's summed result against one player, in stakes, over the 48 fifth cards
    /// and the C(47,5) player hands of each.
    pub banker: i64,
    /// The same as a player against a banker.
    pub player: i64,
}

/// Scores five-card hands under a rule set: category rank, tie-break position, multiplier.
pub struct Scorer<'a> {
    pub ranking: &'a Ranking,
    /// Category code of every rank multiset.
    pub categories: &'a [u8],
}

/// A [`Scorer`] with the exact one-opponent results of every slot, from the
/// `niuniu.hands` counts.
pub struct Valuer<'a> {
    pub scorer: Scorer<'a>,
    /// Exact results by (rank multiset, tie-break suit).
    pub outcomes: &'a [[Outcome; 4]],
}

/// What the simulations need of a five-card hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hand {
    /// Category rank (larger wins).
    pub rank: u8,
    /// [`tie_order`] of the tie-break card (larger wins within a category).
    pub tie: u8,
    pub multiplier: i64,
}

impl Scorer<'_> {
    /// The hand of five cards in increasing id order.
    pub fn play(&self, sorted: &[Card; 5]) -> Hand {
        let code = self.categories[multiset_index(sorted)];
        let tie = tie_card(sorted, code, self.ranking);
        Hand {
            rank: self.ranking.rank(code),
            tie: tie_order(tie),
            multiplier: i64::from(self.ranking.multiplier_of_code[usize::from(code)]),
        }
    }
}

impl Valuer<'_> {
    /// The hand of five cards in increasing id order, and its exact outcome.
    pub fn hand(&self, sorted: &[Card; 5]) -> (Hand, Outcome) {
        let hand = self.scorer.play(sorted);
        // The tie order is the card's Niuniu rank · 4 + its suit.
        let slot = &self.outcomes[multiset_index(sorted)];
        (hand, slot[usize::from(hand.tie % 4)])
    }
}

/// `four` (increasing ids) with `card` inserted in order.
fn with_fifth(four: &[Card; 4], card: Card) -> [Card; 5] {
    let mut out = [card; 5];
    let mut at = 0;
    for (i, &c) in four.iter().enumerate() {
        if c < card {
            out[i] = c;
            at = i + 1;
        } else {
            out[i + 1] = c;
        }
    }
    out[at] = card;
    out
}

/// The exact results of the four-card hand with colex index `index`.
pub fn four_stats(index: u32, valuer: &Valuer) -> FourStats {
    let mut four = [Card::from_id(0).expect("card 0"); 4];
    unrank(index, 4, &mut four);
    let mut stats = FourStats {
        fifth_cards: [0; CODES],
        banker: 0,
        player: 0,
    };
    for id in 0..52u8 {
        let card = Card::from_id(id).expect("52 cards");
        if four.contains(&card) {
            continue;
        }
        let (hand, outcome) = valuer.hand(&with_fifth(&four, card));
        stats.fifth_cards[usize::from(hand.rank)] += 1;
        stats.banker += outcome.banker_numerator;
        stats.player += outcome.player_numerator;
    }
    stats
}

/// The banker's result at ×1 against one player, in stakes: the winner's multiplier, a
/// category tie going to the banker when `banker_wins_ties`, else to the higher
/// tie-break card.
#[inline]
pub fn settle(banker: Hand, player: Hand, banker_wins_ties: bool) -> i64 {
    let banker_wins = banker.rank > player.rank
        || (banker.rank == player.rank && (banker_wins_ties || banker.tie > player.tie));
    if banker_wins {
        banker.multiplier
    } else {
        -player.multiplier
    }
}

/// One table of the bidding model, seen from the seat whose EV is measured.
pub struct Table<'a> {
    pub scorer: &'a Scorer<'a>,
    /// Players the banker faces (the table seats `players + 1`).
    pub players: usize,
    /// Bid multipliers; level `k ≥ 1` bids `bids[k − 1]`.
    pub bids: &'a [u32],
    /// How the other seats bid.
    pub rivals: &'a Mixture,
}

/// How the other seats bid: per class, how many of the tables played so far bid each
/// level, each table weighing the same (fictitious play: the rivals bid by the average of
/// every round's table). A seat draws its level in proportion to those counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mixture {
    levels: usize,
    /// `[class · levels + level]`: tables that bid `level` with `class`.
    counts: Vec<u32>,
    tables: u32,
}

impl Mixture {
    /// One table: every class bids its level in `table`.
    pub fn pure(table: &[u8], levels: usize) -> Mixture {
        let mut m = Mixture {
            levels,
            counts: vec![0; CLASSES * levels],
            tables: 0,
        };
        m.add(table);
        m
    }

    /// Adds a table to the average.
    pub fn add(&mut self, table: &[u8]) {
        for (class, &level) in table.iter().enumerate() {
            self.counts[class * self.levels + usize::from(level)] += 1;
        }
        self.tables += 1;
    }

    /// The share of tables in which `class` bids `level`.
    pub fn share(&self, class: usize, level: usize) -> f64 {
        f64::from(self.counts[class * self.levels + level]) / f64::from(self.tables)
    }

    /// A seat's level with `class`: drawn from the counts, with no draw when every table
    /// agrees.
    #[inline]
    fn draw(&self, class: usize, rng: &mut Pcg64) -> u8 {
        let counts = &self.counts[class * self.levels..(class + 1) * self.levels];
        if let Some(level) = counts.iter().position(|&n| n == self.tables) {
            return level as u8;
        }
        let mut pick = rng.random_range(0..self.tables);
        for (level, &n) in counts.iter().enumerate() {
            if pick < n {
                return level as u8;
            }
            pick -= n;
        }
        unreachable!("the counts of a class sum to the tables")
    }
}

/// Simulated results of one class: per bid level, in [`PAYOFF_UNIT`]s, the sums of the
/// payoffs and of their squares, and the sum of squares of each level's gain over no bid.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClassSample {
    pub deals: u64,
    pub sum: Vec<i64>,
    pub sum_sq: Vec<i128>,
    pub gain_sq: Vec<i128>,
}

/// Standard error of a mean from the sum and sum of squares of `n` values in
/// [`PAYOFF_UNIT`]s, per stake.
fn std_error(sum: i64, sum_sq: i128, n: u64) -> f64 {
    let n = n as f64;
    let mean = sum as f64 / n;
    let var = (sum_sq as f64 / n - mean * mean).max(0.0) * n / (n - 1.0);
    (var / n).sqrt() / PAYOFF_UNIT as f64
}

impl ClassSample {
    /// Mean payoff per stake of bid level `level`.
    pub fn ev(&self, level: usize) -> f64 {
        self.sum[level] as f64 / (PAYOFF_UNIT as f64 * self.deals as f64)
    }

    /// Standard error of [`ClassSample::ev`].
    pub fn ev_se(&self, level: usize) -> f64 {
        std_error(self.sum[level], self.sum_sq[level], self.deals)
    }

    /// Standard error of the mean gain of `level` over no bid, per stake.
    pub fn gain_se(&self, level: usize) -> f64 {
        std_error(
            self.sum[level] - self.sum[0],
            self.gain_sq[level],
            self.deals,
        )
    }

    /// The break-even level: the lowest bid whose gain over not bidding exceeds
    /// [`SIGNIFICANT`] standard errors (0 when none does).
    pub fn break_even(&self) -> u8 {
        (1..self.sum.len())
            .find(|&level| self.significant(level))
            .unwrap_or(0) as u8
    }

    /// Whether bidding `level` beats not bidding by more than [`SIGNIFICANT`] standard
    /// errors.
    fn significant(&self, level: usize) -> bool {
        let gain =
            (self.sum[level] - self.sum[0]) as f64 / (PAYOFF_UNIT as f64 * self.deals as f64);
        gain > SIGNIFICANT * self.gain_se(level)
    }

    /// The suggested level: no bid unless some bid's gain over not bidding exceeds
    /// [`SIGNIFICANT`] standard errors; then, of those bids, the one with the highest EV
    /// (the lowest on an exact tie). So noise alone never makes a class bid.
    pub fn best(&self) -> u8 {
        let mut best = 0;
        for level in 1..self.sum.len() {
            if self.significant(level) && (best == 0 || self.sum[level] > self.sum[best]) {
                best = level;
            }
        }
        best as u8
    }
}

/// Four cards in increasing id order from class `class`, their suits drawn evenly.
fn deal_class(class: usize, rng: &mut Pcg64) -> [Card; 4] {
    // For each rank the class holds k times, k of its four suits drawn evenly.
    let ranks = class_ranks(class);
    let mut four = [Card::from_id(0).expect("card 0"); 4];
    let mut i = 0;
    while i < 4 {
        let r = ranks[i];
        let k = ranks[i..].iter().take_while(|&&x| x == r).count();
        let mut suits = [0u8, 1, 2, 3];
        for j in 0..k {
            let pick = rng.random_range(j..4);
            suits.swap(j, pick);
        }
        suits[..k].sort_unstable();
        for (j, &s) in suits[..k].iter().enumerate() {
            four[i + j] = Card::new(r, s).expect("rank and suit");
        }
        i += k;
    }
    four
}

/// The four ranks (card-id ranks, non-decreasing) of class `class`: the inverse of
/// `class_of`.
pub fn class_ranks(class: usize) -> [u8; 4] {
    rank_multiset(class)
}

/// Plays `deals` simulated tables with a four-card hand of class `class` at the measured
/// seat, scoring every bid level on each.
pub fn simulate_class(table: &Table, class: usize, deals: u64, rng: &mut Pcg64) -> ClassSample {
    let levels = table.bids.len() + 1;
    let n = table.players;
    let banker_wins_ties = table.scorer.ranking.rules.banker_wins_ties;
    let mut sample = ClassSample {
        deals,
        sum: vec![0; levels],
        sum_sq: vec![0; levels],
        gain_sq: vec![0; levels],
    };
    let multiplier = |level: u8| -> i64 {
        if level == 0 {
            1
        } else {
            i64::from(table.bids[usize::from(level) - 1])
        }
    };
    let mut payoff = vec![0i64; levels];
    let mut rest = [Card::from_id(0).expect("card 0"); 48];
    for _ in 0..deals {
        let four = deal_class(class, rng);
        fill_unseen(&four, &mut rest);
        // Rivals' four cards, then every seat's fifth card: 5n + 1 draws.
        let draws = 5 * n + 1;
        for i in 0..draws {
            let j = rng.random_range(i..48);
            rest.swap(i, j);
        }
        let me = table.scorer.play(&with_fifth(&four, rest[4 * n]));
        let mut rival_level = [0u8; 5];
        let mut rival_hand = [me; 5];
        for r in 0..n {
            let mut seen: [Card; 4] = rest[4 * r..4 * r + 4].try_into().expect("four cards");
            seen.sort_unstable();
            rival_level[r] = table.rivals.draw(class_of(&seen), rng);
            rival_hand[r] = table.scorer.play(&with_fifth(&seen, rest[4 * n + 1 + r]));
        }
        // As banker: the sum over every player. As a player: against each rival banker.
        let as_banker: i64 = (0..n)
            .map(|r| settle(me, rival_hand[r], banker_wins_ties))
            .sum();
        let as_player = |r: usize| -settle(rival_hand[r], me, banker_wins_ties);
        let top = *rival_level[..n].iter().max().expect("at least one rival");
        let at_top = rival_level[..n].iter().filter(|&&l| l == top).count() as i64;
        let top_players: i64 = (0..n)
            .filter(|&r| rival_level[r] == top)
            .map(as_player)
            .sum();
        for (level, slot) in payoff.iter_mut().enumerate() {
            let level = level as u8;
            *slot = if level > top {
                PAYOFF_UNIT * multiplier(level) * as_banker
            } else if level == top && top > 0 {
                PAYOFF_UNIT / (at_top + 1) * multiplier(top) * (as_banker + top_players)
            } else if level == top {
                // Nobody bids: every seat is banker at ×1 with one chance in n + 1.
                let all_players: i64 = (0..n).map(as_player).sum();
                PAYOFF_UNIT / (n as i64 + 1) * (as_banker + all_players)
            } else {
                PAYOFF_UNIT / at_top * multiplier(top) * top_players
            };
        }
        for level in 0..levels {
            sample.sum[level] += payoff[level];
            sample.sum_sq[level] += i128::from(payoff[level]) * i128::from(payoff[level]);
            let gain = i128::from(payoff[level] - payoff[0]);
            sample.gain_sq[level] += gain * gain;
        }
    }
    sample
}

/// The number of four-card hands in each class.
pub fn class_sizes() -> Vec<u32> {
    let mut sizes = vec![0u32; CLASSES];
    let mut four = [Card::from_id(0).expect("card 0"); 4];
    for index in 0..cardtables::niuniu_bidding::FOUR_HANDS as u32 {
        unrank(index, 4, &mut four);
        sizes[class_of(&four)] += 1;
    }
    sizes
}

/// The bull number already made by four cards: `Some(total mod 10)` when three of them
/// total a multiple of 10 (the fifth card then only moves the number), else `None`.
pub fn made_base(four: &[Card; 4]) -> Option<u8> {
    let pts = four.map(cardtables::niuniu::card_points);
    let total: u8 = pts.iter().sum();
    (0..4)
        .any(|skip| (total - pts[skip]).is_multiple_of(10))
        .then_some(total % 10)
}
