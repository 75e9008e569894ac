//! A plain reference implementation of the player's composition-dependent stand, hit
//! and double EVs: hash maps over hands and the dealer's full draw tree, written for
//! clarity rather than speed. The analysis in [`super::analysis`] is tested against it.
//!
//! EVs are in units of the initial bet. When the dealer peeks they are conditioned on the
//! dealer not having blackjack (the usual convention for per-hand tables); without a peek a
//! dealer blackjack beats every hand but a player's natural, and doubled bets lose double.

use std::collections::HashMap;

use super::dealer::{self, Outcomes, Shoe, ACE, OUTCOME_BLACKJACK, OUTCOME_BUST};
use super::rules::BlackjackRules;

/// A player hand by rank counts (index 0 = ace … 9 = ten-valued).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct RefHand {
    pub counts: [u8; 10],
}

impl RefHand {
    /// A hand of the given rank indices.
    pub fn of(ranks: &[usize]) -> RefHand {
        let mut h = RefHand::default();
        for &r in ranks {
            h.counts[r] += 1;
        }
        h
    }

    /// (best total, soft): an ace counts 11 when that does not bust.
    pub fn total(&self) -> (u8, bool) {
        let hard: u8 = self
            .counts
            .iter()
            .enumerate()
            .map(|(r, &n)| (r as u8 + 1) * n)
            .sum();
        if self.counts[ACE] > 0 && hard + 10 <= 21 {
            (hard + 10, true)
        } else {
            (hard, false)
        }
    }

    fn with(&self, rank: usize) -> RefHand {
        let mut h = *self;
        h.counts[rank] += 1;
        h
    }
}

/// Exact EVs of every decision against one upcard, memoised by hand composition.
pub struct Analyzer {
    rules: BlackjackRules,
    upcard: usize,
    /// The shoe less the upcard (None for an infinite shoe).
    shoe: Option<[u32; 10]>,
    dealer: HashMap<RefHand, Outcomes>,
    best: HashMap<RefHand, f64>,
}

impl Analyzer {
    pub fn new(rules: BlackjackRules, upcard: usize) -> Analyzer {
        let shoe = rules.shoe().map(|mut c| {
            c[upcard] -= 1;
            c
        });
        Analyzer::with_shoe(rules, upcard, shoe)
    }

    /// An analyzer whose player draws from `shoe` (already less the upcard; `None`: an
    /// infinite shoe) instead of the rules' full shoe.
    pub fn with_shoe(rules: BlackjackRules, upcard: usize, shoe: Option<[u32; 10]>) -> Analyzer {
        Analyzer {
            rules,
            upcard,
            shoe,
            dealer: HashMap::new(),
            best: HashMap::new(),
        }
    }

    fn shoe_for(&self, hand: &RefHand) -> Shoe {
        match self.shoe {
            Some(mut c) => {
                for (slot, &n) in c.iter_mut().zip(&hand.counts) {
                    *slot -= u32::from(n);
                }
                Shoe::Finite(c)
            }
            None => Shoe::Infinite,
        }
    }

    /// Probability that the next card is `rank`, given the hand.
    fn draw(&self, hand: &RefHand, rank: usize) -> f64 {
        self.shoe_for(hand).probability(rank)
    }

    fn dealer(&mut self, hand: &RefHand) -> Outcomes {
        if let Some(o) = self.dealer.get(hand) {
            return *o;
        }
        let o = dealer::outcomes(
            self.shoe_for(hand),
            self.upcard,
            self.rules.dealer_hits_soft_17,
        );
        self.dealer.insert(*hand, o);
        o
    }

    /// The dealer's blackjack chance once `hand` has left the shoe (0 without a peek,
    /// where nothing is conditioned).
    fn blackjack_chance(&mut self, hand: &RefHand) -> f64 {
        if self.rules.dealer_peeks {
            self.dealer(hand)[OUTCOME_BLACKJACK]
        } else {
            0.0
        }
    }

    /// Standing, as E[result · 1(no dealer blackjack)] when the dealer peeks (a dealer
    /// blackjack would have ended the round before any decision).
    fn stand_raw(&mut self, hand: &RefHand) -> f64 {
        let (total, _) = hand.total();
        if total > 21 {
            // Lost, unless a dealer blackjack had ended the round before (weight 0).
            return -(1.0 - self.blackjack_chance(hand));
        }
        let d = self.dealer(hand);
        let mut ev = d[OUTCOME_BUST];
        if !self.rules.dealer_peeks {
            ev -= d[OUTCOME_BLACKJACK];
        }
        for (k, &p) in d[..OUTCOME_BUST].iter().enumerate() {
            let dealer_total = 17 + k as u8;
            ev += match total.cmp(&dealer_total) {
                std::cmp::Ordering::Greater => p,
                std::cmp::Ordering::Less => -p,
                std::cmp::Ordering::Equal => 0.0,
            };
        }
        ev
    }

    /// EV of standing, given no dealer blackjack when the dealer peeks (a bust hand is −1).
    pub fn stand(&mut self, hand: &RefHand) -> f64 {
        if hand.total().0 > 21 {
            return -1.0;
        }
        self.stand_raw(hand) / (1.0 - self.blackjack_chance(hand))
    }

    /// The best play (stand or keep hitting) from this hand on, unconditioned.
    fn best_play(&mut self, hand: &RefHand) -> f64 {
        if let Some(&v) = self.best.get(hand) {
            return v;
        }
        let stand = self.stand_raw(hand);
        let v = if hand.total().0 >= 21 {
            stand
        } else {
            stand.max(self.hit_raw(hand))
        };
        self.best.insert(*hand, v);
        v
    }

    fn hit_raw(&mut self, hand: &RefHand) -> f64 {
        let mut ev = 0.0;
        for rank in 0..10 {
            let p = self.draw(hand, rank);
            if p > 0.0 {
                ev += p * self.best_play(&hand.with(rank));
            }
        }
        ev
    }

    /// EV of taking one card and then playing on optimally (conditioned like `stand`).
    pub fn hit(&mut self, hand: &RefHand) -> f64 {
        self.hit_raw(hand) / (1.0 - self.blackjack_chance(hand))
    }

    /// EV of doubling: one more card, then stand, at twice the stake.
    pub fn double(&mut self, hand: &RefHand) -> f64 {
        let mut ev = 0.0;
        for rank in 0..10 {
            let p = self.draw(hand, rank);
            if p > 0.0 {
                ev += p * self.stand_raw(&hand.with(rank));
            }
        }
        2.0 * ev / (1.0 - self.blackjack_chance(hand))
    }

    /// EV of surrendering: half the bet back.
    pub fn surrender(&self) -> f64 {
        -0.5
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::blackjack::dealer::TEN;
    use crate::games::blackjack::rules::{Decks, InfiniteWord};
    use rand::{RngExt, SeedableRng};
    use rand_pcg::Pcg64;

    fn one_deck() -> BlackjackRules {
        BlackjackRules {
            decks: Decks::Finite(1),
            ..BlackjackRules::default()
        }
    }

    #[test]
    fn hand_totals() {
        assert_eq!(RefHand::of(&[ACE, 5]).total(), (17, true));
        assert_eq!(RefHand::of(&[ACE, 5, TEN]).total(), (17, false));
        assert_eq!(RefHand::of(&[ACE, ACE]).total(), (12, true));
        assert_eq!(RefHand::of(&[TEN, 5, 9]).total(), (26, false));
    }

    #[test]
    fn obvious_decisions() {
        let mut a = Analyzer::new(BlackjackRules::default(), 5); // dealer shows 6
        let twenty = RefHand::of(&[TEN, TEN]);
        assert!(
            a.stand(&twenty) > 0.6,
            "standing on 20 against a 6 wins big"
        );
        assert!(a.stand(&twenty) > a.hit(&twenty));
        let eleven = RefHand::of(&[4, 5]); // 5 + 6
        assert!(a.double(&eleven) > a.hit(&eleven), "double 11 against 6");
        assert!(a.hit(&eleven) > a.stand(&eleven));
        assert_eq!(a.surrender(), -0.5);
        // A busted hand loses its bet whatever the dealer does.
        assert_eq!(a.stand(&RefHand::of(&[TEN, TEN, 5])), -1.0);
        // Infinite shoe: 16 against a ten is a loser either way, and close.
        let mut inf = Analyzer::new(
            BlackjackRules {
                decks: Decks::Infinite(InfiniteWord::Infinite),
                ..BlackjackRules::default()
            },
            TEN,
        );
        let sixteen = RefHand::of(&[TEN, 5]);
        let (s, h) = (inf.stand(&sixteen), inf.hit(&sixteen));
        assert!(s < -0.5 && h < -0.5 && (s - h).abs() < 0.01, "{s} {h}");
    }

    /// Plays `hand` against `upcard` from a 1-deck shoe: `double` takes one card at twice
    /// the stake, otherwise the hand stands. Conditioned on no dealer blackjack (peek).
    fn simulate(hand: &[usize], upcard: usize, double: bool, trials: u32, seed: u64) -> (f64, f64) {
        let mut left = one_deck().shoe().unwrap();
        left[upcard] -= 1;
        for &r in hand {
            left[r] -= 1;
        }
        let mut cards: Vec<usize> = (0..10)
            .flat_map(|r| std::iter::repeat_n(r, left[r] as usize))
            .collect();
        let mut rng = Pcg64::seed_from_u64(seed);
        let (mut sum, mut sum2, mut n) = (0.0, 0.0, 0u32);
        while n < trials {
            let mut next = 0;
            let mut deal = |rng: &mut Pcg64| {
                let j = rng.random_range(next..cards.len());
                cards.swap(next, j);
                next += 1;
                cards[next - 1]
            };
            let mut player = RefHand::of(hand);
            if double {
                player = player.with(deal(&mut rng));
            }
            let mut dealer = RefHand::of(&[upcard]);
            let hole = deal(&mut rng);
            dealer = dealer.with(hole);
            if dealer.total().0 == 21 {
                continue; // the dealer peeked: condition on no blackjack
            }
            while dealer.total().0 < 17 {
                dealer = dealer.with(deal(&mut rng));
            }
            let (p, d) = (player.total().0, dealer.total().0);
            let result = if p > 21 {
                -1.0
            } else if d > 21 || p > d {
                1.0
            } else if p < d {
                -1.0
            } else {
                0.0
            } * if double { 2.0 } else { 1.0 };
            sum += result;
            sum2 += result * result;
            n += 1;
        }
        let mean = sum / f64::from(n);
        (
            mean,
            ((sum2 / f64::from(n) - mean * mean) / f64::from(n)).sqrt(),
        )
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore = "Monte Carlo: run with --release")]
    fn stand_and_double_match_a_seeded_one_deck_simulation() {
        for (k, (hand, up)) in [(vec![TEN, 7], 9usize), (vec![4, 5], 5), (vec![ACE, 6], ACE)]
            .into_iter()
            .enumerate()
        {
            let mut a = Analyzer::new(one_deck(), up);
            let h = RefHand::of(&hand);
            let (stand, se) = simulate(&hand, up, false, 300_000, 10 + k as u64);
            assert!(
                (stand - a.stand(&h)).abs() < 4.0 * se,
                "stand {hand:?} v {up}: {stand} vs {}",
                a.stand(&h)
            );
            let (double, se) = simulate(&hand, up, true, 300_000, 20 + k as u64);
            assert!(
                (double - a.double(&h)).abs() < 4.0 * se,
                "double {hand:?} v {up}: {double} vs {}",
                a.double(&h)
            );
        }
    }
}
