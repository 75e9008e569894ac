//! Every hand at a full table (`niuniu.multiway`): against 1 to 5 other players dealt from
//! the same deck, the chance of beating them all (通比牛牛: the best hand takes all) and
//! the spread of the banker's result against them (庄家 settles with each player).
//!
//! **Slots.** What a hand meets at the table depends only on its *slot*: its rank
//! multiset and the suit of its tie-break card. The others' categories depend on their
//! ranks alone, the ranks they can hold depend only on our rank counts, and a hand of our
//! category is beaten on the tie-break card when its top card is of a lower rank, or of
//! our top rank and a lower suit: the cards of our top rank left in the deck below our
//! suit number our suit's number minus our other cards of that rank, whatever their
//! suits. So every hand of a slot has the same results, and one representative hand per
//! slot (24,752 slots for 2,598,960 hands) stands for all.
//!
//! **Exact and sampled.** Against one player everything is exact (the `niuniu.hands`
//! counts), and so is the banker's EV against N players: N times the one-player EV (see
//! `bidding`). Beating all of N ≥ 2 players and the banker's standard deviation against
//! N players are seeded Monte Carlo: each slot plays `deals_per_slot` deals of five other
//! hands from the 47 unseen cards, the first N of which are the table of N, so one deal
//! serves every N.

use cardtables::colex::unrank;
use cardtables::niuniu::HANDS;
use cardtables::Card;
use rand::RngExt;
use rand_pcg::Pcg64;
use serde::{Deserialize, Serialize};

use super::bidding::{settle, Hand, Scorer};
use super::eval::{multiset_index, tie_card, MULTISETS};
use crate::cards::fill_unseen;

/// Most other players at the table.
pub const MAX_OTHERS: usize = 5;

/// Where a hand's results live, and how many hands share them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// `multiset_index · 4 + suit of the tie-break card`.
    pub id: u32,
    /// The first hand of the slot in colex order: the slot's representative.
    pub hand: u32,
    /// Hands in the slot.
    pub hands: u32,
}

/// Every slot that holds a hand, in slot-id order.
pub fn slots(categories: &[u8], ranking: &super::rules::Ranking) -> Vec<Slot> {
    let mut first = vec![u32::MAX; MULTISETS * 4];
    let mut count = vec![0u32; MULTISETS * 4];
    let mut cards = [Card::from_id(0).expect("card 0"); 5];
    for index in 0..HANDS as u32 {
        unrank(index, 5, &mut cards);
        let m = multiset_index(&cards);
        let tie = tie_card(&cards, categories[m], ranking);
        let id = m * 4 + usize::from(tie.suit());
        if first[id] == u32::MAX {
            first[id] = index;
        }
        count[id] += 1;
    }
    (0..MULTISETS * 4)
        .filter(|&id| count[id] > 0)
        .map(|id| Slot {
            id: id as u32,
            hand: first[id],
            hands: count[id],
        })
        .collect()
}

/// Sampled results of one slot against the first N of five other hands, N = 1..=5
/// (index N − 1).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SlotSample {
    pub deals: u64,
    /// Deals in which the hand beat all of the first N others.
    pub beat_all: [u64; MAX_OTHERS],
    /// The banker's summed result against the first N others, and its square, cube and
    /// fourth power, summed over the deals (in stakes at ×1): the higher moments give the
    /// standard error of the result's standard deviation.
    pub banker_sum: [i64; MAX_OTHERS],
    pub banker_sum_sq: [i128; MAX_OTHERS],
    pub banker_sum_cube: [i128; MAX_OTHERS],
    pub banker_sum_4th: [i128; MAX_OTHERS],
}

impl SlotSample {
    /// Share of deals in which the hand beat all of `others` players.
    pub fn p_beat_all(&self, others: usize) -> f64 {
        self.beat_all[others - 1] as f64 / self.deals as f64
    }

    /// The standard error of [`SlotSample::p_beat_all`].
    pub fn p_beat_all_se(&self, others: usize) -> f64 {
        let p = self.p_beat_all(others);
        (p * (1.0 - p) / (self.deals as f64 - 1.0)).sqrt()
    }

    /// Mean of the banker's result against `others` players, in stakes.
    pub fn banker_mean(&self, others: usize) -> f64 {
        self.banker_sum[others - 1] as f64 / self.deals as f64
    }

    /// Mean square of the banker's result against `others` players.
    pub fn banker_mean_sq(&self, others: usize) -> f64 {
        self.banker_sum_sq[others - 1] as f64 / self.deals as f64
    }

    /// The sampling covariance matrix of (mean result, mean square result) against
    /// `others` players: `[var x, cov(x, x²), var x²] / deals`, from the moments.
    pub fn banker_moment_covariance(&self, others: usize) -> [f64; 3] {
        let n = self.deals as f64;
        let i = others - 1;
        let m1 = self.banker_sum[i] as f64 / n;
        let m2 = self.banker_sum_sq[i] as f64 / n;
        let m3 = self.banker_sum_cube[i] as f64 / n;
        let m4 = self.banker_sum_4th[i] as f64 / n;
        [
            (m2 - m1 * m1).max(0.0) / n,
            (m3 - m1 * m2) / n,
            (m4 - m2 * m2).max(0.0) / n,
        ]
    }
}

/// Plays `deals` deals of five other hands against the slot's representative hand.
pub fn sample_slot(scorer: &Scorer, slot: &Slot, deals: u64, rng: &mut Pcg64) -> SlotSample {
    let mut mine = [Card::from_id(0).expect("card 0"); 5];
    unrank(slot.hand, 5, &mut mine);
    let me = scorer.play(&mine);
    let banker_wins_ties = scorer.ranking.rules.banker_wins_ties;
    let mut rest = [Card::from_id(0).expect("card 0"); 47];
    fill_unseen(&mine, &mut rest);
    let mut sample = SlotSample {
        deals,
        ..SlotSample::default()
    };
    let beats = |me: Hand, other: Hand| {
        me.rank > other.rank || (me.rank == other.rank && me.tie > other.tie)
    };
    for _ in 0..deals {
        for i in 0..5 * MAX_OTHERS {
            let j = rng.random_range(i..47);
            rest.swap(i, j);
        }
        let mut all = true;
        let mut banker = 0i64;
        for n in 0..MAX_OTHERS {
            let mut other: [Card; 5] = rest[5 * n..5 * n + 5].try_into().expect("five cards");
            other.sort_unstable();
            let them = scorer.play(&other);
            all &= beats(me, them);
            banker += settle(me, them, banker_wins_ties);
            sample.beat_all[n] += u64::from(all);
            sample.banker_sum[n] += banker;
            let square = i128::from(banker) * i128::from(banker);
            sample.banker_sum_sq[n] += square;
            sample.banker_sum_cube[n] += square * i128::from(banker);
            sample.banker_sum_4th[n] += square * square;
        }
    }
    sample
}
