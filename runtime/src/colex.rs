//! Dense indices of card sets: the colex rank (combinatorial number system).
//!
//! A k-card set `c1 < c2 < … < ck` (card ids) has index `Σ C(c_i, i)` in `0..C(52, k)`.
//! Runtime tables store one entry per index, so a lookup is one array access.

use crate::card::Card;

/// Largest set size the binomial table covers.
pub const MAX_K: usize = 7;

/// `BINOMIAL[n][k] = C(n, k)` for `n <= 52`, `k <= MAX_K`.
pub const BINOMIAL: [[u32; MAX_K + 1]; 53] = {
    let mut table = [[0u32; MAX_K + 1]; 53];
    let mut n = 0;
    while n <= 52 {
        table[n][0] = 1;
        let mut k = 1;
        while k <= MAX_K {
            table[n][k] = if n == 0 {
                0
            } else {
                table[n - 1][k - 1] + table[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    table
};

/// `C(n, k)` for `n <= 52`, `k <= MAX_K`.
pub const fn binomial(n: usize, k: usize) -> u32 {
    BINOMIAL[n][k]
}

/// Colex index of cards given in strictly increasing id order.
///
/// Callers that hold unsorted cards sort them first; [`index_of`] does that for them.
#[inline]
pub fn index_sorted(sorted: &[Card]) -> u32 {
    debug_assert!(sorted.windows(2).all(|w| w[0] < w[1]));
    sorted
        .iter()
        .enumerate()
        .map(|(i, c)| BINOMIAL[c.id() as usize][i + 1])
        .sum()
}

/// Colex index of a set of distinct cards in any order (at most [`MAX_K`] cards).
///
/// ```
/// use cardtables::{colex, parse_cards};
/// // The five lowest cards are the first hand; the five highest the last.
/// assert_eq!(colex::index_of(&parse_cards("2d 2c 2h 2s 3d").unwrap()), 0);
/// assert_eq!(colex::index_of(&parse_cards("As Ah Ac Ad Ks").unwrap()), 2_598_959);
/// ```
pub fn index_of(cards: &[Card]) -> u32 {
    fn of<const N: usize>(cards: &[Card]) -> u32 {
        let array: [Card; N] = cards.try_into().expect("N cards");
        index_sorted(&sort_cards(array))
    }
    match cards.len() {
        2 => of::<2>(cards),
        3 => of::<3>(cards),
        4 => of::<4>(cards),
        5 => of::<5>(cards),
        _ => {
            let mut sorted = [Card::from_id(0).expect("0 is a card"); MAX_K];
            let sorted = &mut sorted[..cards.len()];
            sorted.copy_from_slice(cards);
            sorted.sort_unstable();
            index_sorted(sorted)
        }
    }
}

/// Comparators of optimal sorting networks for two to five elements.
const NETWORK_2: [(usize, usize); 1] = [(0, 1)];
const NETWORK_3: [(usize, usize); 3] = [(0, 1), (1, 2), (0, 1)];
const NETWORK_4: [(usize, usize); 5] = [(0, 1), (2, 3), (0, 2), (1, 3), (1, 2)];
const NETWORK_5: [(usize, usize); 9] = [
    (0, 1),
    (3, 4),
    (2, 4),
    (2, 3),
    (0, 3),
    (0, 2),
    (1, 4),
    (1, 3),
    (1, 2),
];

/// `cards` in increasing id order: by a sorting network for two to five cards (a fixed
/// sequence of compare-exchanges, no branches on the cards), by a general sort otherwise.
#[inline]
pub fn sort_cards<const N: usize>(mut cards: [Card; N]) -> [Card; N] {
    let network: &[(usize, usize)] = match N {
        0 | 1 => return cards,
        2 => &NETWORK_2,
        3 => &NETWORK_3,
        4 => &NETWORK_4,
        5 => &NETWORK_5,
        _ => {
            cards.sort_unstable();
            return cards;
        }
    };
    for &(i, j) in network {
        let (a, b) = (cards[i], cards[j]);
        cards[i] = a.min(b);
        cards[j] = a.max(b);
    }
    cards
}

/// The `k` cards (increasing ids) whose colex index is `index`; `index < C(52, k)`.
pub fn unrank(mut index: u32, k: usize, out: &mut [Card]) {
    debug_assert!(k <= MAX_K && out.len() >= k && index < BINOMIAL[52][k]);
    let mut n = 52usize;
    for i in (1..=k).rev() {
        // Largest n with C(n, i) <= index.
        n -= 1;
        while BINOMIAL[n][i] > index {
            n -= 1;
        }
        index -= BINOMIAL[n][i];
        out[i - 1] = Card::from_id(n as u8).expect("n < 52");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials_match_known_values() {
        assert_eq!(binomial(52, 5), 2_598_960);
        assert_eq!(binomial(47, 5), 1_533_939);
        assert_eq!(binomial(52, 7), 133_784_560);
        assert_eq!(binomial(4, 5), 0);
    }

    #[test]
    fn unrank_inverts_index_for_three_card_sets() {
        let mut cards = [Card::from_id(0).unwrap(); 3];
        for index in 0..binomial(52, 3) {
            unrank(index, 3, &mut cards);
            assert!(cards.windows(2).all(|w| w[0] < w[1]));
            assert_eq!(index_sorted(&cards), index);
        }
    }

    /// Every ordering of `cards` (Heap's algorithm), sorted by [`sort_cards`], is the
    /// sorted set.
    fn check_every_order<const N: usize>(cards: [Card; N]) {
        let mut want = cards;
        want.sort_unstable();
        let mut a = cards;
        let mut c = [0usize; N];
        assert_eq!(sort_cards(a), want);
        let mut i = 0;
        while i < N {
            if c[i] < i {
                a.swap(if i % 2 == 0 { 0 } else { c[i] }, i);
                assert_eq!(sort_cards(a), want, "{a:?}");
                assert_eq!(index_of(&a), index_sorted(&want));
                c[i] += 1;
                i = 0;
            } else {
                c[i] = 0;
                i += 1;
            }
        }
    }

    #[test]
    fn sorting_networks_sort_every_order() {
        let card = |i: u8| Card::from_id(i).unwrap();
        for base in [0u8, 7, 23, 44] {
            check_every_order([card(base + 3), card(base)]);
            check_every_order([card(base + 5), card(base), card(base + 2)]);
            check_every_order([card(base + 1), card(base + 7), card(base), card(base + 4)]);
            check_every_order([2, 0, 7, 5, 3].map(|d| card(base + d)));
            check_every_order([6, 1, 3, 0, 4, 2].map(|d| card(base + d)));
            check_every_order([1, 6, 0, 7, 3, 5, 2].map(|d| card(base % 40 + d)));
        }
    }

    #[test]
    fn index_of_ignores_order() {
        let a: Vec<Card> = [51u8, 0, 17, 3, 9]
            .iter()
            .map(|&i| Card::from_id(i).unwrap())
            .collect();
        let mut b = a.clone();
        b.sort();
        assert_eq!(index_of(&a), index_sorted(&b));
        assert_eq!(
            index_sorted(&b),
            binomial(0, 1) + binomial(3, 2) + binomial(9, 3) + binomial(17, 4) + binomial(51, 5)
        );
    }
}
