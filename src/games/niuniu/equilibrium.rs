//! The bidding equilibrium of the see-four-cards table (看牌抢庄), computed exactly and
//! certified by its exploitability.
//!
//! **The model.** A banker and `players` players: every seat is dealt five cards, sees
//! four of them and bids a banker multiplier or nothing, all at once. The highest bid is
//! the banker (equal top bids are settled by an even draw); when nobody bids, a seat
//! drawn evenly is banker at ×1. Then each player settles one stake with the banker: the
//! winner's category multiplier times the banker's bid. A seat bids by its four cards'
//! rank class (one of 1,820), drawing its level from a mixed strategy.
//!
//! **Independent seats.** Each seat's five cards are dealt from a deck of its own, so the
//! seats' hands are independent (a hand's four seen cards are uniform over the
//! C(52,4) four-card hands and its fifth card uniform over the other 48). Dealt from one
//! deck the hands would be dependent through the 25 cards they share out, and a seat's
//! value would be a sum over every way of dealing the other four seats: out of reach
//! exactly, and a simulation's noise (about 0.5 stakes per class at 10⁴ tables) is far
//! above any certificate worth the name. With independent seats a seat's value is a
//! polynomial in what one rival does, so every value below is exact up to floating-point
//! rounding. Two hands of one category with the *same* tie-break card (possible only
//! across decks) push; under `banker_wins_ties` the banker wins as always.
//!
//! **Values.** For a rival bidding by strategy σ, with `P_l(h)` the chance that it bids
//! level `l` and ends with strength `h`, let `a_l(x)` be our banker result against it
//! when we hold `x` and it bids `l` (weighted by that chance), `b_l(x)` our result as a
//! player when it is banker, and `q_l` its chance of bidding `l`. With `n` independent
//! rivals, the value of bidding `ℓ` holding `x` is a sum over the highest rival level
//! `t` and how many rivals `k` bid it (see [`BidGame::strength_values`]).
//!
//! **The solve.** Fictitious play on the exact values, from no class bidding: each round
//! every class's best response to the current strategy (the lowest level of equal values)
//! is averaged into it with weight [`AVERAGING`]` / (t + `[`AVERAGING`]`)`.
//! The run stops when the exploitability of the average — the most a single seat gains,
//! per hand, by changing its own bids while every other seat keeps the strategy —
//! reaches the job's target, or after the job's most rounds. The certificate is computed
//! against every deviation a seat can make with its four cards (suits included), not only
//! class-by-class ones.

use cardtables::colex::unrank;
use cardtables::niuniu_bidding::{class_of, CLASSES, FIFTH_CARDS, FOUR_HANDS, MAX_BIDS};
use cardtables::Card;

use super::bidding::{with_fifth, Scorer};

/// Tie-break positions per category: one per card.
const TIES: usize = 52;

/// Round `t`'s best response enters the average with weight `AVERAGING / (t + AVERAGING)`:
/// 1/t is plain fictitious play; 4 weighs later rounds more (as `t³`), which forgets the
/// early rounds' poor responses sooner (the default game reaches 1e-9 in about 1,200
/// rounds rather than millions).
pub const AVERAGING: f64 = 4.0;

/// The bidding game of one rule set and table, reduced to what the values need.
pub struct BidGame {
    /// Rivals of a seat: the players a banker faces.
    rivals: usize,
    /// Multiplier of each level: level 0 (nobody bid) ×1, level `k` the `k`-th bid.
    level_multiplier: Vec<f64>,
    banker_wins_ties: bool,
    /// Category multiplier of each strength (`rank · 52 + tie order`).
    payout: Vec<f64>,
    /// Per class, the strengths its (four cards, fifth card) deals end with and how many
    /// deals end with each: `entries[offsets[c]..offsets[c + 1]]`.
    offsets: Vec<usize>,
    entries: Vec<(u16, u32)>,
    /// Deals per class (four-card hands × 48).
    class_deals: Vec<u32>,
}

/// The result of a solve: the strategy and its certificate.
#[derive(Clone, Debug, PartialEq)]
pub struct Solve {
    /// Levels per class.
    pub levels: usize,
    /// `[class · levels + level]`: the share of the time a class bids that level.
    pub strategy: Vec<f64>,
    /// `[class · levels + level]`: the exact value per stake of bidding that level
    /// against the strategy.
    pub values: Vec<f64>,
    /// Fictitious-play rounds run.
    pub rounds: u32,
    /// Exploitability after each round, by class-level deviations (stakes per hand).
    pub history: Vec<f64>,
    /// The most a seat gains per hand by any deviation with its four cards (suits
    /// included), in stakes: the mean of `hand_regret`.
    pub exploitability: f64,
    /// Per four-card hand (colex index): what its own best level gains over its class's
    /// strategy, in stakes.
    pub hand_regret: Vec<f64>,
    /// The same over class-by-class deviations only.
    pub class_exploitability: f64,
}

impl Solve {
    /// The value of a class under the strategy.
    pub fn class_value(&self, class: usize) -> f64 {
        let l = self.levels;
        (0..l)
            .map(|k| self.strategy[class * l + k] * self.values[class * l + k])
            .sum()
    }

    /// What a class loses by following the strategy instead of its best level.
    pub fn class_regret(&self, class: usize) -> f64 {
        let l = self.levels;
        let best = self.values[class * l..(class + 1) * l]
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max);
        (best - self.class_value(class)).max(0.0)
    }

    /// The level a class bids most often (the lowest of equal shares).
    pub fn main_level(&self, class: usize) -> u8 {
        let l = self.levels;
        let row = &self.strategy[class * l..(class + 1) * l];
        let mut best = 0;
        for k in 1..l {
            if row[k] > row[best] {
                best = k;
            }
        }
        best as u8
    }
}

/// A five-card strength: category rank · 52 + tie-break order.
fn strength(scorer: &Scorer, five: &[Card; 5]) -> u16 {
    let hand = scorer.play(five);
    u16::from(hand.rank) * TIES as u16 + u16::from(hand.tie)
}

/// The strengths of the 48 fifth cards of the four-card hand with colex index `index`,
/// and its class.
fn fifth_strengths(scorer: &Scorer, index: u32) -> (usize, [u16; FIFTH_CARDS as usize]) {
    let mut four = [Card::from_id(0).expect("card 0"); 4];
    unrank(index, 4, &mut four);
    let mut out = [0u16; FIFTH_CARDS as usize];
    let mut i = 0;
    for id in 0..52u8 {
        let card = Card::from_id(id).expect("52 cards");
        if !four.contains(&card) {
            out[i] = strength(scorer, &with_fifth(&four, card));
            i += 1;
        }
    }
    (class_of(&four), out)
}

/// `Σ_{k=1..n} C(n,k) · q^(k−1) · r^(n−k)`, the sum over how many of `n`
/// rivals bid the top level `t` (chance `q` each) while the rest bid below it (chance
/// `r` together).
fn over_ties(n: usize, q: f64, r: f64) -> f64 {
    let mut sum = 0.0;
    let mut choose = 1.0;
    for k in 1..=n {
        choose = choose * (n + 1 - k) as f64 / k as f64;
        sum += choose * q.powi(k as i32 - 1) * r.powi((n - k) as i32);
    }
    sum
}

impl BidGame {
    /// The game of `players` players, bids `bids` and the rule set of `scorer`: every
    /// four-card hand and fifth card scored once.
    pub fn new(scorer: &Scorer, players: usize, bids: &[u32]) -> BidGame {
        let cats = scorer.ranking.codes_by_rank.len();
        let strengths = cats * TIES;
        let mut counts = vec![0u32; CLASSES * strengths];
        for index in 0..FOUR_HANDS as u32 {
            let (class, fifth) = fifth_strengths(scorer, index);
            for &h in &fifth {
                counts[class * strengths + usize::from(h)] += 1;
            }
        }
        let mut offsets = Vec::with_capacity(CLASSES + 1);
        let mut entries = Vec::new();
        let mut class_deals = Vec::with_capacity(CLASSES);
        for class in 0..CLASSES {
            offsets.push(entries.len());
            let row = &counts[class * strengths..(class + 1) * strengths];
            entries.extend(
                row.iter()
                    .enumerate()
                    .filter(|(_, &n)| n > 0)
                    .map(|(h, &n)| (h as u16, n)),
            );
            class_deals.push(row.iter().sum());
        }
        offsets.push(entries.len());
        let payout = (0..strengths)
            .map(|h| {
                let code = scorer.ranking.codes_by_rank[h / TIES];
                f64::from(scorer.ranking.multiplier_of_code[usize::from(code)])
            })
            .collect();
        let mut level_multiplier = vec![1.0];
        level_multiplier.extend(bids.iter().map(|&b| f64::from(b)));
        BidGame {
            rivals: players,
            level_multiplier,
            banker_wins_ties: scorer.ranking.rules.banker_wins_ties,
            payout,
            offsets,
            entries,
            class_deals,
        }
    }

    /// A game over `payout.len()` strengths (`rank · 52 + tie`) with no classes, for
    /// checking [`BidGame::strength_values`] against a direct sum.
    #[cfg(test)]
    pub fn synthetic(
        rivals: usize,
        level_multiplier: Vec<f64>,
        banker_wins_ties: bool,
        payout: Vec<f64>,
    ) -> BidGame {
        BidGame {
            rivals,
            level_multiplier,
            banker_wins_ties,
            payout,
            offsets: vec![0],
            entries: Vec::new(),
            class_deals: Vec::new(),
        }
    }

    /// Bid levels, no bid included.
    pub fn levels(&self) -> usize {
        self.level_multiplier.len()
    }

    fn strengths(&self) -> usize {
        self.payout.len()
    }

    /// The chance of each class: its share of all deals.
    pub fn class_weight(&self, class: usize) -> f64 {
        f64::from(self.class_deals[class]) / (FOUR_HANDS as f64 * f64::from(FIFTH_CARDS))
    }

    /// `[level · strengths + h]`: the chance that a rival playing `strategy` bids `level`
    /// and ends with strength `h`.
    fn rival(&self, strategy: &[f64]) -> Vec<f64> {
        let (levels, strengths) = (self.levels(), self.strengths());
        let mut p = vec![0.0; levels * strengths];
        let deals = FOUR_HANDS as f64 * f64::from(FIFTH_CARDS);
        for class in 0..CLASSES {
            let row = &strategy[class * levels..(class + 1) * levels];
            for &(h, n) in &self.entries[self.offsets[class]..self.offsets[class + 1]] {
                let w = f64::from(n) / deals;
                for (level, &s) in row.iter().enumerate() {
                    p[level * strengths + usize::from(h)] += w * s;
                }
            }
        }
        p
    }

    /// `[h · levels + ℓ]`: the exact value per stake of bidding `ℓ` while holding the
    /// five-card strength `h`, against `rivals` independent seats each bidding and ending
    /// as `rival` says.
    ///
    /// With `q_t` a rival's chance of bidding `t`, `Q_t = Σ_{s<t} q_s`, `a_t(h)` our
    /// result as banker against a rival that bid `t` (weighted by that chance),
    /// `A_t = Σ_{s<t} a_s`, `b_t(h)` our result as a player against it as banker, `m_t`
    /// the level's multiplier and `n` rivals:
    /// - a rival level `t > ℓ` is top: `m_t · b_t · Σ_k C(n,k) q_t^(k−1) Q_t^(n−k)` (the
    ///   `k` rivals at `t` each banker with chance `1/k`);
    /// - `ℓ ≥ 1` is above every rival: `m_ℓ · n · A_ℓ · Q_ℓ^(n−1)`;
    /// - `ℓ ≥ 1` ties `k` rivals: `m_ℓ · Σ_k C(n,k)/(k+1) · (k(a_ℓ+b_ℓ) q_ℓ^(k−1) Q_ℓ^(n−k)
    ///   + (n−k) A_ℓ q_ℓ^k Q_ℓ^(n−k−1))` (banker with chance `1/(k+1)`);
    /// - nobody bids: `n/(n+1) · (a_0 + b_0) · q_0^(n−1)`.
    pub fn strength_values(&self, rival: &[f64]) -> Vec<f64> {
        let (levels, strengths, n) = (self.levels(), self.strengths(), self.rivals);
        let mut q = vec![0.0; levels];
        for (level, slot) in q.iter_mut().enumerate() {
            *slot = rival[level * strengths..(level + 1) * strengths]
                .iter()
                .sum();
        }
        let below: Vec<f64> = (0..levels).map(|t| q[..t].iter().sum()).collect();
        // Per level, over strengths: the chance of a weaker rival (by our settling rule
        // as banker and as player) and the payout-weighted chance of a stronger one.
        let mut a = vec![0.0; levels * strengths];
        let mut b = vec![0.0; levels * strengths];
        for level in 0..levels {
            let p = &rival[level * strengths..(level + 1) * strengths];
            // prefix[h] = Σ_{h' < h} p; paid_above[h] = Σ_{h' > h} p · payout.
            let mut prefix = vec![0.0; strengths + 1];
            for h in 0..strengths {
                prefix[h + 1] = prefix[h] + p[h];
            }
            let mut paid = vec![0.0; strengths + 1];
            for h in (0..strengths).rev() {
                paid[h] = paid[h + 1] + p[h] * self.payout[h];
            }
            for h in 0..strengths {
                let m = self.payout[h];
                let (a_lh, b_lh) = if self.banker_wins_ties {
                    // The category decides; a tie goes to the banker.
                    let (lo, hi) = (h / TIES * TIES, h / TIES * TIES + TIES);
                    (m * prefix[hi] - paid[hi], m * prefix[lo] - paid[lo])
                } else {
                    // Category, then tie-break card; the same card pushes.
                    let v = m * prefix[h] - paid[h + 1];
                    (v, v)
                };
                a[level * strengths + h] = a_lh;
                b[level * strengths + h] = b_lh;
            }
        }
        let mut values = vec![0.0; strengths * levels];
        let mut above = vec![0.0; levels + 1];
        for h in 0..strengths {
            let a_at = |t: usize| a[t * strengths + h];
            let b_at = |t: usize| b[t * strengths + h];
            above[levels] = 0.0;
            for t in (1..levels).rev() {
                let top = self.level_multiplier[t] * b_at(t) * over_ties(n, q[t], below[t]);
                above[t] = above[t + 1] + top;
            }
            above[0] = above[1];
            let out = &mut values[h * levels..(h + 1) * levels];
            out[0] = n as f64 / (n as f64 + 1.0) * (a_at(0) + b_at(0)) * q[0].powi(n as i32 - 1)
                + above[1];
            let mut a_below = a_at(0);
            for level in 1..levels {
                let (ql, r, m) = (q[level], below[level], self.level_multiplier[level]);
                let alone = n as f64 * a_below * r.powi(n as i32 - 1);
                let ab = a_at(level) + b_at(level);
                let mut tied = 0.0;
                let mut choose = 1.0;
                for k in 1..=n {
                    choose = choose * (n + 1 - k) as f64 / k as f64;
                    let mut term = k as f64 * ab * ql.powi(k as i32 - 1) * r.powi((n - k) as i32);
                    if k < n {
                        term += (n - k) as f64
                            * a_below
                            * ql.powi(k as i32)
                            * r.powi((n - k - 1) as i32);
                    }
                    tied += choose * term / (k + 1) as f64;
                }
                out[level] = m * (alone + tied) + above[level + 1];
                a_below += a_at(level);
            }
        }
        values
    }

    /// `[class · levels + ℓ]`: the exact value per stake of each class bidding `ℓ`
    /// against rivals playing `strategy`, and the per-strength values they come from.
    pub fn class_values(&self, strategy: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let levels = self.levels();
        let by_strength = self.strength_values(&self.rival(strategy));
        let mut values = vec![0.0; CLASSES * levels];
        for class in 0..CLASSES {
            let out = &mut values[class * levels..(class + 1) * levels];
            for &(h, n) in &self.entries[self.offsets[class]..self.offsets[class + 1]] {
                let v = &by_strength[usize::from(h) * levels..(usize::from(h) + 1) * levels];
                for (o, &x) in out.iter_mut().zip(v) {
                    *o += f64::from(n) * x;
                }
            }
            let deals = f64::from(self.class_deals[class]);
            out.iter_mut().for_each(|o| *o /= deals);
        }
        (values, by_strength)
    }

    /// Exploitability over class-by-class deviations: `Σ_c weight_c · (max_ℓ V(c,ℓ) −
    /// Σ_ℓ σ(c,ℓ) V(c,ℓ))`.
    fn class_exploitability(&self, strategy: &[f64], values: &[f64]) -> f64 {
        let levels = self.levels();
        (0..CLASSES)
            .map(|c| {
                let v = &values[c * levels..(c + 1) * levels];
                let s = &strategy[c * levels..(c + 1) * levels];
                let best = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let played: f64 = v.iter().zip(s).map(|(v, s)| v * s).sum();
                self.class_weight(c) * (best - played).max(0.0)
            })
            .sum()
    }

    /// The best level of each class against `values` (the lowest of equal values).
    fn best_responses(&self, values: &[f64]) -> Vec<usize> {
        let levels = self.levels();
        (0..CLASSES)
            .map(|c| {
                let v = &values[c * levels..(c + 1) * levels];
                let mut best = 0;
                for k in 1..levels {
                    if v[k] > v[best] {
                        best = k;
                    }
                }
                best
            })
            .collect()
    }

    /// Fictitious play from `start` (a level per class) until the class-level
    /// exploitability is at most `target` or `max_rounds` rounds have run; `progress`
    /// hears each round and its exploitability. The certificate of the result is then
    /// computed over every four-card deviation.
    pub fn solve(
        &self,
        scorer: &Scorer,
        start: &[u8],
        target: f64,
        max_rounds: u32,
        mut progress: impl FnMut(u32, f64),
    ) -> Solve {
        let levels = self.levels();
        let mut strategy = vec![0.0; CLASSES * levels];
        for (c, &l) in start.iter().enumerate() {
            strategy[c * levels + usize::from(l)] = 1.0;
        }
        let mut history = Vec::new();
        let mut rounds = 0;
        let (mut values, mut by_strength) = self.class_values(&strategy);
        loop {
            let exploit = self.class_exploitability(&strategy, &values);
            history.push(exploit);
            progress(rounds, exploit);
            if exploit <= target || rounds >= max_rounds {
                break;
            }
            rounds += 1;
            let best = self.best_responses(&values);
            let step = AVERAGING / (f64::from(rounds) + AVERAGING);
            for (c, &b) in best.iter().enumerate() {
                for k in 0..levels {
                    let s = &mut strategy[c * levels + k];
                    *s = (1.0 - step) * *s + if k == b { step } else { 0.0 };
                }
            }
            (values, by_strength) = self.class_values(&strategy);
        }
        let hand_regret = self.hand_regrets(scorer, &strategy, &by_strength);
        let exploitability = hand_regret.iter().sum::<f64>() / FOUR_HANDS as f64;
        Solve {
            hand_regret,
            levels,
            class_exploitability: *history.last().expect("one round at least"),
            strategy,
            values,
            rounds,
            history,
            exploitability,
        }
    }

    /// Per four-card hand: `max_ℓ V(hand,ℓ) − Σ_ℓ σ(class,ℓ) V(hand,ℓ)`, `V(hand, ℓ)` the
    /// mean over its 48 fifth cards; their mean over C(52,4) hands is the exploitability.
    fn hand_regrets(&self, scorer: &Scorer, strategy: &[f64], by_strength: &[f64]) -> Vec<f64> {
        use rayon::prelude::*;
        let levels = self.levels();
        (0..FOUR_HANDS as u32)
            .into_par_iter()
            .map(|index| {
                let (class, fifth) = fifth_strengths(scorer, index);
                let mut buffer = [0.0f64; MAX_BIDS + 1];
                let v = &mut buffer[..levels];
                for &h in &fifth {
                    let row = &by_strength[usize::from(h) * levels..(usize::from(h) + 1) * levels];
                    for (o, &x) in v.iter_mut().zip(row) {
                        *o += x;
                    }
                }
                let best = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let s = &strategy[class * levels..(class + 1) * levels];
                let played: f64 = v.iter().zip(s).map(|(v, s)| v * s).sum();
                (best - played).max(0.0) / f64::from(FIFTH_CARDS)
            })
            .collect()
    }
}
