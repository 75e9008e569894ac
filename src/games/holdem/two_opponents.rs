//! Exact counts of every starting hand against two random opponents, over every board and
//! every pair of opponent hands (C(50,5) × C(45,2) × C(43,2) / 2 deals per combo).
//!
//! The board sweep of [`super::sweep`] extends to two opponents. On one board the hero
//! wins outright against the unordered pairs of card-disjoint hands that are both weaker;
//! it splits two ways when one opponent ties and the other is weaker, three ways when both
//! tie. All three are counts of disjoint pairs in a set of hands: with `n` hands and `x_c`
//! of them holding card `c`, a set has `(n² − Σ x_c² + n) / 2` disjoint unordered pairs
//! (two hands share at most one card; a hand shares two with itself).
//!
//! Hands are the edges of a graph on the 52 cards ([`HandGraph`]), filled in strength
//! order. Its counters give the disjoint-pair count of the hands avoiding any hero's two
//! cards in constant time, so each hand on each board costs a few reads and each insertion
//! one pass over two neighbour masks.

use serde::{Deserialize, Serialize};

use super::classes::{class_of, CLASSES};
use super::sweep::{rank_hands, unpack, Board};
use cardtables::colex::unrank;
use cardtables::Card;

/// Deals per combo: C(50,5) boards × C(45,2) · C(43,2) / 2 unordered opponent pairs.
pub const DEALS_PER_COMBO: u64 = 2_118_760 * 446_985;

/// Per-class sums over boards (weighted by board orbits) against two opponents.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TwoOpponentCounts {
    /// Deals where the hero beats both opponents.
    pub wins: Vec<u64>,
    /// Deals where one opponent ties the hero and the other is weaker (pot split two ways).
    pub split_two: Vec<u64>,
    /// Deals where both opponents tie the hero (pot split three ways).
    pub split_three: Vec<u64>,
}

impl Default for TwoOpponentCounts {
    fn default() -> Self {
        TwoOpponentCounts {
            wins: vec![0; CLASSES],
            split_two: vec![0; CLASSES],
            split_three: vec![0; CLASSES],
        }
    }
}

impl TwoOpponentCounts {
    /// Adds another share of boards.
    pub fn add(&mut self, other: &TwoOpponentCounts) {
        for c in 0..CLASSES {
            self.wins[c] += other.wins[c];
            self.split_two[c] += other.split_two[c];
            self.split_three[c] += other.split_three[c];
        }
    }

    /// A class's equity (pot share) over its `deals`.
    pub fn equity(&self, class: usize, deals: u64) -> f64 {
        // In sixths of a pot, so every share is a whole number.
        let sixths = 6 * u128::from(self.wins[class])
            + 3 * u128::from(self.split_two[class])
            + 2 * u128::from(self.split_three[class]);
        sixths as f64 / (6.0 * deals as f64)
    }
}

/// A set of hole-card hands seen as edges between cards, with the counters that count
/// card-disjoint pairs among the hands avoiding two given cards.
#[derive(Clone)]
pub struct HandGraph {
    hands: i64,
    /// Hands holding each card.
    degree: [i64; 52],
    /// Σ degree².
    squares: i64,
    /// Cards paired with each card in some hand of the set.
    neighbours: [u64; 52],
    /// Σ of the neighbours' degrees, per card.
    neighbour_degrees: [i64; 52],
}

impl Default for HandGraph {
    fn default() -> Self {
        HandGraph {
            hands: 0,
            degree: [0; 52],
            squares: 0,
            neighbours: [0; 52],
            neighbour_degrees: [0; 52],
        }
    }
}

impl HandGraph {
    /// Adds the hand of cards `u` and `v` (not yet in the set).
    #[inline]
    pub fn insert(&mut self, u: usize, v: usize) {
        self.squares += 2 * (self.degree[u] + self.degree[v]) + 2;
        // Every card already paired with u (or v) sees one more hand on its neighbour.
        for card in bits(self.neighbours[u]).chain(bits(self.neighbours[v])) {
            self.neighbour_degrees[card] += 1;
        }
        self.degree[u] += 1;
        self.degree[v] += 1;
        self.neighbour_degrees[u] += self.degree[v];
        self.neighbour_degrees[v] += self.degree[u];
        self.neighbours[u] |= 1 << v;
        self.neighbours[v] |= 1 << u;
        self.hands += 1;
    }

    /// Unordered pairs of card-disjoint hands in the set that avoid cards `a` and `b`.
    #[inline]
    pub fn disjoint_pairs_avoiding(&self, a: usize, b: usize) -> u64 {
        let (da, db) = (self.degree[a], self.degree[b]);
        // Whether the hand {a, b} itself is in the set.
        let ab = (self.neighbours[a] >> b & 1) as i64;
        let n = self.hands - da - db + ab;
        // Σ over the other cards c of (hands holding c but neither a nor b)²: a card's
        // count loses its hands with a and with b.
        let common = i64::from((self.neighbours[a] & self.neighbours[b]).count_ones());
        let squares = self.squares
            - da * da
            - db * db
            - 2 * (self.neighbour_degrees[a] - ab * db + self.neighbour_degrees[b] - ab * da)
            + (da - ab)
            + (db - ab)
            + 2 * common;
        let pairs = (n * n - squares + n) / 2;
        debug_assert!(pairs >= 0);
        pairs as u64
    }

    /// Empties the set, given every hand in it (cheaper than clearing all 52 cards).
    fn clear(&mut self, hands: &[u32]) {
        for &hand in hands {
            let (_, a, b) = unpack(hand);
            for card in [usize::from(a), usize::from(b)] {
                self.degree[card] = 0;
                self.neighbours[card] = 0;
                self.neighbour_degrees[card] = 0;
            }
        }
        self.hands = 0;
        self.squares = 0;
    }
}

/// The set bits of a mask, lowest first.
#[inline]
fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let bit = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            bit
        })
    })
}

/// Reusable state of the per-board sweep, so boards allocate nothing.
#[derive(Default)]
pub struct Sweep {
    /// Disjoint weaker pairs of each hand of the current strength.
    weaker: Vec<u64>,
}

impl Sweep {
    /// Visits every hand of one board, `ranked` weakest first from [`rank_hands`], with its
    /// first and second card ids and its counts against two opponents:
    /// `[wins, two-way splits, three-way splits]`.
    pub fn for_each_hand(&mut self, ranked: &[u32], mut f: impl FnMut(u8, u8, [u64; 3])) {
        let mut below = HandGraph::default();
        let mut level = HandGraph::default();
        let mut i = 0;
        while i < ranked.len() {
            let strength = unpack(ranked[i]).0;
            let mut j = i;
            while j < ranked.len() && unpack(ranked[j]).0 == strength {
                j += 1;
            }
            let group = &ranked[i..j];
            // Pairs of weaker hands, before this strength joins the set.
            self.weaker.clear();
            for &hand in group {
                let (_, a, b) = unpack(hand);
                self.weaker
                    .push(below.disjoint_pairs_avoiding(usize::from(a), usize::from(b)));
            }
            for &hand in group {
                let (_, a, b) = unpack(hand);
                below.insert(usize::from(a), usize::from(b));
                level.insert(usize::from(a), usize::from(b));
            }
            for (&hand, &weaker) in group.iter().zip(&self.weaker) {
                let (_, a, b) = unpack(hand);
                let at_most = below.disjoint_pairs_avoiding(usize::from(a), usize::from(b));
                let both_level = level.disjoint_pairs_avoiding(usize::from(a), usize::from(b));
                f(a, b, [weaker, at_most - weaker - both_level, both_level]);
            }
            level.clear(group);
            i = j;
        }
    }
}

/// Credits every hand of one board (ranked weakest first, from [`rank_hands`]) to its class,
/// times the board's `weight`.
pub fn credit(sweep: &mut Sweep, ranked: &[u32], weight: u64, into: &mut TwoOpponentCounts) {
    sweep.for_each_hand(ranked, |a, b, [wins, two, three]| {
        let class = class_of(Card::from_id(a).expect("id"), Card::from_id(b).expect("id"));
        into.wins[class] += wins * weight;
        into.split_two[class] += two * weight;
        into.split_three[class] += three * weight;
    });
}

/// Exact counts of every class against two random hands over some canonical boards.
pub fn class_counts(boards: &[Board]) -> TwoOpponentCounts {
    let mut counts = TwoOpponentCounts::default();
    let mut ranked = Vec::with_capacity(1081);
    let mut sweep = Sweep::default();
    let mut cards = [Card::from_id(0).expect("card 0"); 5];
    for board in boards {
        unrank(board.index, 5, &mut cards);
        rank_hands(cards, &mut ranked);
        credit(&mut sweep, &ranked, u64::from(board.weight), &mut counts);
    }
    counts
}

/// Every class's exact counts against two random hands, from every canonical board (on
/// every core).
pub fn all_class_counts() -> TwoOpponentCounts {
    use rayon::prelude::*;
    super::sweep::canonical_boards()
        .par_chunks(1024)
        .map(class_counts)
        .reduce(TwoOpponentCounts::default, |mut a, b| {
            a.add(&b);
            a
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::holdem::eval::tables;
    use cardtables::parse_cards;

    /// For one board and hero, every unordered pair of disjoint opponent hands compared
    /// directly: (wins, two-way splits, three-way splits).
    fn brute_force(board: &[Card], hero: [Card; 2]) -> (u64, u64, u64) {
        let t = tables();
        let strength = |a: Card, b: Card| {
            let mut seven = [a; 7];
            seven[1] = b;
            seven[2..].copy_from_slice(board);
            t.evaluate(&seven)
        };
        let mine = strength(hero[0], hero[1]);
        let unseen: Vec<Card> = (0..52)
            .map(|i| Card::from_id(i).unwrap())
            .filter(|c| !board.contains(c) && !hero.contains(c))
            .collect();
        let mut hands = vec![];
        for (i, &a) in unseen.iter().enumerate() {
            for &b in &unseen[i + 1..] {
                hands.push((a, b, strength(a, b)));
            }
        }
        let (mut wins, mut two, mut three) = (0, 0, 0);
        for (i, x) in hands.iter().enumerate() {
            for y in &hands[i + 1..] {
                if x.0 == y.0 || x.0 == y.1 || x.1 == y.0 || x.1 == y.1 {
                    continue;
                }
                let (sx, sy) = (x.2, y.2);
                if sx > mine || sy > mine {
                    continue;
                }
                match (sx == mine, sy == mine) {
                    (false, false) => wins += 1,
                    (true, true) => three += 1,
                    _ => two += 1,
                }
            }
        }
        (wins, two, three)
    }

    #[test]
    fn the_board_sweep_equals_comparing_every_pair_of_opponents() {
        for (board, heroes) in [
            ("2c 7h 9s Td Jc", vec!["As Kd", "8h 8d", "3c 4c", "Qd Kh"]),
            ("As Ks Qs Js Ts", vec!["2c 3d", "9s 2d"]),
            ("5h 5d 5c 9h 9d", vec!["Ah Kh", "5s 2c", "9c 9s", "2c 3c"]),
            ("2h 4h 6h 8c Kh", vec!["Ah 3d", "3h 5h", "Kc Kd", "7c 7d"]),
        ] {
            let board = parse_cards(board).unwrap();
            let mut ranked = vec![];
            rank_hands(board.clone().try_into().unwrap(), &mut ranked);
            let mut found = std::collections::HashMap::new();
            Sweep::default().for_each_hand(&ranked, |a, b, counts| {
                found.insert((a, b), counts);
            });
            assert_eq!(found.len(), 1081);
            for hero in heroes {
                let h = parse_cards(hero).unwrap();
                let (lo, hi) = (h[0].min(h[1]), h[0].max(h[1]));
                let (wins, two, three) = brute_force(&board, [lo, hi]);
                assert_eq!(
                    found[&(lo.id(), hi.id())],
                    [wins, two, three],
                    "{hero} on {board:?}"
                );
            }
        }
    }

    #[test]
    #[cfg_attr(
        debug_assertions,
        ignore = "sweeps every board and samples millions of deals: run with --release"
    )]
    fn every_pot_is_shared_out_and_sampling_agrees() {
        use crate::engine::stream;
        use crate::games::holdem::classes::{combos, parse_class};
        use crate::games::holdem::sampler::{representative, sample_counts};
        let counts = all_class_counts();
        // Each deal of three hands and a board is counted once per player as hero, and the
        // three shares make one pot: Σ over hands of (sixths of a pot) = 6 × deals / 3.
        // Class counts already sum over the class's combos.
        let sixths: u128 = (0..CLASSES)
            .map(|c| {
                6 * u128::from(counts.wins[c])
                    + 3 * u128::from(counts.split_two[c])
                    + 2 * u128::from(counts.split_three[c])
            })
            .sum();
        assert_eq!(sixths, 2 * 1326 * u128::from(DEALS_PER_COMBO));
        // Monte Carlo with the multiway job's sampler agrees within 4 standard errors, with
        // one deal serving one and two opponents (its first opponent alone, then both).
        let one = crate::games::holdem::sweep::all_class_counts();
        for (k, name) in ["AA", "AKs", "72o", "T9s", "22"].iter().enumerate() {
            let c = parse_class(name).unwrap();
            let exact_two = counts.equity(c, u64::from(combos(c)) * DEALS_PER_COMBO);
            let deals_one = u64::from(combos(c)) * crate::games::holdem::sweep::DEALS_PER_COMBO;
            let exact_one = (one.wins[c] as f64 + one.ties[c] as f64 / 2.0) / deals_one as f64;
            let hero = representative(c);
            let cells = sample_counts(hero, 1..=2, 0.0, 0, 2_000_000, &mut stream(11, k as u64));
            for (s, exact) in cells.iter().zip([exact_one, exact_two]) {
                let z = (s.equity() - exact) / s.std_error();
                assert!(
                    z.abs() < 4.0,
                    "{name}: {} ± {} vs {exact}",
                    s.equity(),
                    s.std_error()
                );
            }
            assert_eq!(cells[0].trials, cells[1].trials);
        }
        // Published three-handed all-in equity of aces: 73.4 %.
        let aa = counts.equity(0, 6 * DEALS_PER_COMBO);
        assert!((aa - 0.7344).abs() < 5e-4, "{aa}");
    }
}
