//! The Monte Carlo sampler of a starting hand against 3 to 9 random opponents. A deal
//! seats up to nine opponents and its first n of them are a trial against n
//! ([`sample_counts`]), so one deal serves every opponent count; sampling goes on until
//! every count's standard error meets the target.
//!
//! A trial deals the board and the opponents' hands from the 50 unseen cards (partial
//! Fisher–Yates) and scores each hand from additive card keys ([`Tables::key`]): the
//! board's keys are summed once per trial and each hand adds its own two.

use cardtables::Card;
use rand::RngExt;
use rand_pcg::Pcg64;
use serde::{Deserialize, Serialize};

use super::classes::class_ranks;
use super::eval::{tables, Tables};

/// Most opponents covered.
pub const MAX_OPPONENTS: usize = 9;
/// Pot shares are counted in units of 1/2520 (2520 is divisible by 1..=10), so every
/// split pot is a whole number and sums stay exact integers.
const SHARE: u64 = 2520;
/// Trials between standard-error checks.
const BATCH: u64 = 1 << 16;

/// What sampling one cell gathered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sample {
    pub trials: u64,
    /// Trials won outright, and trials split with one or more opponents.
    pub wins: u64,
    pub ties: u64,
    /// Sum of the hero's pot share (units of 1/2520) and of its square.
    pub share: u64,
    pub share_squared: u128,
}

impl Sample {
    pub fn equity(&self) -> f64 {
        self.share as f64 / SHARE as f64 / self.trials as f64
    }

    pub fn std_error(&self) -> f64 {
        let n = self.trials as f64;
        let mean = self.share as f64 / SHARE as f64 / n;
        let second = self.share_squared as f64 / (SHARE * SHARE) as f64 / n;
        ((second - mean * mean).max(0.0) / n).sqrt()
    }

    /// Counts one trial in which the hero's pot share was `share`.
    #[inline]
    fn add(&mut self, share: u64) {
        self.trials += 1;
        if share == SHARE {
            self.wins += 1;
        } else if share > 0 {
            self.ties += 1;
        }
        self.share += share;
        self.share_squared += u128::from(share * share);
    }
}

/// Samples `hero` against `opponents` random hands until the standard error is at most
/// `target` (after at least `min` trials) or `max` trials are drawn.
pub fn sample(
    hero: [Card; 2],
    opponents: usize,
    target: f64,
    min: u64,
    max: u64,
    rng: &mut Pcg64,
) -> Sample {
    sample_counts(hero, opponents..=opponents, target, min, max, rng)[0]
}

/// Samples `hero` against every number of random opponents in `counts` at once: each deal
/// seats the most opponents, and its first `n` of them are a deal against `n`. Sampling
/// stops when every count's standard error is at most `target` (after at least `min`
/// trials) or `max` trials are drawn; the counts' estimates are correlated with each
/// other, each one on its own is an ordinary Monte Carlo estimate.
pub fn sample_counts(
    hero: [Card; 2],
    counts: std::ops::RangeInclusive<usize>,
    target: f64,
    min: u64,
    max: u64,
    rng: &mut Pcg64,
) -> Vec<Sample> {
    let t = tables();
    let mut deck: Vec<Card> = (0..52u8)
        .map(|id| Card::from_id(id).expect("id < 52"))
        .filter(|c| !hero.contains(c))
        .collect();
    let hero_key = t.key(hero[0]) + t.key(hero[1]);
    let (first, last) = (*counts.start(), *counts.end());
    let mut cells = vec![Sample::default(); last + 1 - first];
    let mut dealer = Dealer {
        deck: &mut deck,
        draws: Draws::default(),
        rng,
    };
    loop {
        for _ in 0..BATCH {
            play(t, hero, hero_key, &mut dealer, first, &mut cells);
        }
        let trials = cells[0].trials;
        let worst = cells.iter().map(Sample::std_error).fold(0.0, f64::max);
        if trials >= max || (trials >= min && worst <= target) {
            return cells;
        }
    }
}

/// Uniform integers below a bound, two from each 64-bit draw (Lemire's multiply-shift
/// with rejection, so exactly uniform): card dealing is most of a trial's cost.
#[derive(Default)]
struct Draws {
    /// The high half of the last 64-bit draw, while `spare` says it is unused.
    high: u32,
    spare: bool,
}

impl Draws {
    #[inline]
    fn word(&mut self, rng: &mut Pcg64) -> u32 {
        if self.spare {
            self.spare = false;
            self.high
        } else {
            let x: u64 = rng.random();
            self.high = (x >> 32) as u32;
            self.spare = true;
            x as u32
        }
    }

    #[inline]
    fn below(&mut self, bound: u32, rng: &mut Pcg64) -> u32 {
        let mut m = u64::from(self.word(rng)) * u64::from(bound);
        if (m as u32) < bound {
            let threshold = bound.wrapping_neg() % bound;
            while (m as u32) < threshold {
                m = u64::from(self.word(rng)) * u64::from(bound);
            }
        }
        (m >> 32) as u32
    }
}

/// Deals cards without replacement from the unseen cards (partial Fisher–Yates: the
/// first `next` cards of `deck` are this trial's, and any order of the rest is uniform).
struct Dealer<'a> {
    deck: &'a mut [Card],
    draws: Draws,
    rng: &'a mut Pcg64,
}

impl Dealer<'_> {
    #[inline]
    fn deal(&mut self, next: usize) -> Card {
        let r = next + self.draws.below((self.deck.len() - next) as u32, self.rng) as usize;
        self.deck.swap(next, r);
        self.deck[next]
    }
}

/// One deal: the board, then the opponents' hands one at a time. The hero's pot share
/// (units of 1/2520) against the first `first + k` opponents goes to `cells[k]`; dealing
/// stops as soon as an opponent beats the hero, which loses every larger table too.
///
/// Hands are scored from additive card keys (see [`Tables::key`]): the board's five keys
/// are summed once, and each hand adds its two.
#[inline]
fn play(
    t: &Tables,
    hero: [Card; 2],
    hero_key: u64,
    dealer: &mut Dealer,
    first: usize,
    cells: &mut [Sample],
) {
    let mut board_key = 0u64;
    for j in 0..5 {
        board_key += t.key(dealer.deal(j));
    }
    let strength = |a: Card, b: Card, key: u64, dealer: &Dealer| -> u16 {
        match Tables::flush_suit(key) {
            None => t.non_flush_key(key),
            Some(suit) => {
                let mut mask = 0u16;
                for c in dealer.deck[..5].iter().chain([&a, &b]) {
                    if c.suit() == suit {
                        mask |= 1 << c.rank();
                    }
                }
                t.flush(mask)
            }
        }
    };
    let mine = strength(hero[0], hero[1], board_key + hero_key, dealer);
    let last = first + cells.len() - 1;
    let mut tied = 0usize;
    for k in 0..last {
        let (a, b) = (dealer.deal(5 + 2 * k), dealer.deal(6 + 2 * k));
        let theirs = strength(a, b, board_key + t.key(a) + t.key(b), dealer);
        if theirs > mine {
            for cell in &mut cells[(k + 1).saturating_sub(first)..] {
                cell.add(0);
            }
            return;
        }
        tied += usize::from(theirs == mine);
        if k + 1 >= first {
            cells[k + 1 - first].add(SPLIT_SHARES[tied]);
        }
    }
}

/// The share of a pot split `k + 1` ways, by k.
const SPLIT_SHARES: [u64; MAX_OPPONENTS + 1] = {
    let mut shares = [0; MAX_OPPONENTS + 1];
    let mut k = 0;
    while k <= MAX_OPPONENTS {
        shares[k] = SHARE / (k as u64 + 1);
        k += 1;
    }
    shares
};

/// A representative hand of a class.
pub fn representative(class: usize) -> [Card; 2] {
    let (hi, lo, suited) = class_ranks(class);
    [
        Card::new(hi, 3).expect("card"),
        Card::new(lo, if suited { 3 } else { 2 }).expect("card"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::stream;
    use crate::games::holdem::classes::{combos, parse_class, CLASSES};
    use crate::games::holdem::sweep::{self, DEALS_PER_COMBO};

    #[test]
    #[cfg_attr(debug_assertions, ignore = "Monte Carlo: run with --release")]
    fn sampling_one_opponent_agrees_with_the_exact_sweep() {
        let exact = sweep::all_class_counts();
        for (k, name) in ["AA", "AKs", "72o", "T9s", "22"].iter().enumerate() {
            let c = parse_class(name).unwrap();
            let deals = u64::from(combos(c)) * DEALS_PER_COMBO;
            let want = (exact.wins[c] as f64 + exact.ties[c] as f64 / 2.0) / deals as f64;
            let mut rng = stream(3, k as u64);
            let s = sample(representative(c), 1, 0.0, 0, 2_000_000, &mut rng);
            let z = (s.equity() - want) / s.std_error();
            assert!(
                z.abs() < 4.0,
                "{name}: {} ± {} vs exact {want}",
                s.equity(),
                s.std_error()
            );
        }
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore = "Monte Carlo: run with --release")]
    fn more_opponents_lower_the_equity_and_shares_add_up() {
        let aa = representative(0);
        let mut last = 1.0;
        for n in 1..=MAX_OPPONENTS {
            let s = sample(aa, n, 0.0, 0, 200_000, &mut stream(5, n as u64));
            assert!(s.equity() < last, "{n} opponents");
            last = s.equity();
            assert!(s.wins + s.ties <= s.trials);
        }
        // By symmetry, a random hand's equity against n others is 1 / (n + 1): averaged
        // over classes weighted by combos (a coarse sample each).
        let n = 2;
        let mut total = 0.0;
        for c in 0..CLASSES {
            let s = sample(
                representative(c),
                n,
                0.0,
                0,
                20_000,
                &mut stream(6, c as u64),
            );
            total += f64::from(combos(c)) / 1326.0 * s.equity();
        }
        assert!((total - 1.0 / 3.0).abs() < 3e-3, "{total}");
    }
}
