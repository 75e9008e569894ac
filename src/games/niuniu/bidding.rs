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
//! **The table, simulated** ([`simulate_class`]). Every seat sees four cards and bids a
//! banker multiplier or nothing; the highest bid is the banker (ties drawn evenly); when
//! nobody bids, a seat drawn evenly is banker at ×1. Each player then settles with the
//! banker at one stake: the winner's category multiplier times the banker's bid. The
//! other seats bid by a mixed strategy over the 1,820 four-card rank classes
//! ([`Mixture`]). The equilibrium itself is computed exactly with independent seats
//! (`equilibrium`); this simulation deals every seat from one deck, to measure what that
//! leaves out, and with [`Deck::PerSeat`] checks the exact values. Every bid level is
//! scored on the same tables, each tie of bids settled by its exact probability rather
//! than a draw.

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
pub fn with_fifth(four: &[Card; 4], card: Card) -> [Card; 5] {
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
/// tie-break card. Two hands of one category with the same tie-break card, possible only
/// when seats have decks of their own ([`Deck::PerSeat`]), push.
#[inline]
pub fn settle(banker: Hand, player: Hand, banker_wins_ties: bool) -> i64 {
    if !banker_wins_ties && banker.rank == player.rank && banker.tie == player.tie {
        return 0;
    }
    let banker_wins = banker.rank > player.rank
        || (banker.rank == player.rank && (banker_wins_ties || banker.tie > player.tie));
    if banker_wins {
        banker.multiplier
    } else {
        -player.multiplier
    }
}

/// How the seats' cards are dealt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deck {
    /// Every seat from one 52-card deck, as at a real table.
    Shared,
    /// Each seat from a deck of its own: the seats' hands are independent (the exact
    /// model of `equilibrium`, which the tests check with it).
    #[cfg_attr(not(test), allow(dead_code))]
    PerSeat,
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
    pub deck: Deck,
}

/// How the other seats bid: per class, the share of the time each level is bid. A seat
/// draws its level by those shares, with no draw where one level has them all.
#[derive(Clone, Debug, PartialEq)]
pub struct Mixture {
    levels: usize,
    /// `[class · levels + level]`: the share of levels up to and including `level`.
    cumulative: Vec<f64>,
    /// Per class, the one level it always bids, or `u8::MAX` when it mixes.
    pure: Vec<u8>,
}

impl Mixture {
    /// Every class bids its level in `table`.
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn pure(table: &[u8], levels: usize) -> Mixture {
        let mut strategy = vec![0.0; table.len() * levels];
        for (class, &level) in table.iter().enumerate() {
            strategy[class * levels + usize::from(level)] = 1.0;
        }
        Mixture::from_strategy(&strategy, levels)
    }

    /// Shares `[class · levels + level]`, each class's summing to 1.
    pub fn from_strategy(strategy: &[f64], levels: usize) -> Mixture {
        let mut cumulative = Vec::with_capacity(strategy.len());
        let mut pure = Vec::with_capacity(strategy.len() / levels);
        for row in strategy.chunks(levels) {
            let mut sum = 0.0;
            for &s in row {
                sum += s;
                cumulative.push(sum);
            }
            pure.push(
                row.iter()
                    .position(|&s| s == 1.0)
                    .map_or(u8::MAX, |l| l as u8),
            );
        }
        Mixture {
            levels,
            cumulative,
            pure,
        }
    }

    /// A seat's level with `class`.
    #[inline]
    fn draw(&self, class: usize, rng: &mut Pcg64) -> u8 {
        if self.pure[class] != u8::MAX {
            return self.pure[class];
        }
        let row = &self.cumulative[class * self.levels..(class + 1) * self.levels];
        let u: f64 = rng.random::<f64>() * row[self.levels - 1];
        row.iter().position(|&c| u < c).unwrap_or(self.levels - 1) as u8
    }
}

/// Simulated results of one class: per bid level, in [`PAYOFF_UNIT`]s, the sums of the
/// payoffs and of their squares, and the sum of squares of each level's gain over the
/// `base` level (on the same tables).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ClassSample {
    pub deals: u64,
    pub base: usize,
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
    /// Checks a sample read back from a checkpoint or part against what
    /// [`simulate_class`] produces for `levels` levels and `deals` tables: its lengths,
    /// its base level, and sums small enough that every figure derived from them is
    /// computed without overflow.
    pub fn validate(&self, levels: usize, deals: u64) -> Result<(), String> {
        if self.deals != deals {
            return Err(format!("{} tables, expected {deals}", self.deals));
        }
        if self.base >= levels {
            return Err(format!("base level {} of {levels}", self.base));
        }
        for (name, len) in [
            ("sum", self.sum.len()),
            ("sum_sq", self.sum_sq.len()),
            ("gain_sq", self.gain_sq.len()),
        ] {
            if len != levels {
                return Err(format!("{len} {name} values, expected {levels}"));
            }
        }
        if self
            .sum
            .iter()
            .any(|s| s.unsigned_abs() > (i64::MAX / 4) as u64)
            || self.sum_sq.iter().chain(&self.gain_sq).any(|&q| q < 0)
        {
            return Err("sums out of range".into());
        }
        Ok(())
    }

    /// Mean payoff per stake of bid level `level`.
    pub fn ev(&self, level: usize) -> f64 {
        self.sum[level] as f64 / (PAYOFF_UNIT as f64 * self.deals as f64)
    }

    /// Standard error of [`ClassSample::ev`].
    pub fn ev_se(&self, level: usize) -> f64 {
        std_error(self.sum[level], self.sum_sq[level], self.deals)
    }

    /// Mean gain per stake of `level` over the base level.
    pub fn gain(&self, level: usize) -> f64 {
        self.ev(level) - self.ev(self.base)
    }

    /// Standard error of [`ClassSample::gain`] (0 for the base level itself).
    pub fn gain_se(&self, level: usize) -> f64 {
        std_error(
            self.sum[level] - self.sum[self.base],
            self.gain_sq[level],
            self.deals,
        )
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
/// seat, scoring every bid level on each, and every level's gain over `base`.
pub fn simulate_class(
    table: &Table,
    class: usize,
    base: usize,
    deals: u64,
    rng: &mut Pcg64,
) -> ClassSample {
    let levels = table.bids.len() + 1;
    let n = table.players;
    let banker_wins_ties = table.scorer.ranking.rules.banker_wins_ties;
    let mut sample = ClassSample {
        deals,
        base,
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
    let mut deck: [Card; 52] = std::array::from_fn(|i| Card::from_id(i as u8).expect("52 cards"));
    for _ in 0..deals {
        let four = deal_class(class, rng);
        fill_unseen(&four, &mut rest);
        // Shared deck: the rivals' four cards, then every seat's fifth card, 5n + 1 draws
        // from the 48 unseen. Per seat: our fifth card from our 48, each rival's five
        // from a full deck of its own.
        let draws = match table.deck {
            Deck::Shared => 5 * n + 1,
            Deck::PerSeat => 1,
        };
        for i in 0..draws {
            let j = rng.random_range(i..48);
            rest.swap(i, j);
        }
        let me_fifth = match table.deck {
            Deck::Shared => rest[4 * n],
            Deck::PerSeat => rest[0],
        };
        let me = table.scorer.play(&with_fifth(&four, me_fifth));
        let mut rival_level = [0u8; 5];
        let mut rival_hand = [me; 5];
        for r in 0..n {
            let (mut seen, fifth): ([Card; 4], Card) = match table.deck {
                Deck::Shared => (
                    rest[4 * r..4 * r + 4].try_into().expect("four cards"),
                    rest[4 * n + 1 + r],
                ),
                Deck::PerSeat => {
                    for i in 0..5 {
                        let j = rng.random_range(i..52);
                        deck.swap(i, j);
                    }
                    (deck[..4].try_into().expect("four cards"), deck[4])
                }
            };
            seen.sort_unstable();
            rival_level[r] = table.rivals.draw(class_of(&seen), rng);
            rival_hand[r] = table.scorer.play(&with_fifth(&seen, fifth));
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
            let gain = i128::from(payoff[level] - payoff[base]);
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
