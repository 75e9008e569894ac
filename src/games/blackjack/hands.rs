//! Every player hand that can still act, as a composition (cards per rank, order
//! forgotten), numbered once so the analysis can keep its values in flat arrays.
//!
//! Ranks are indexed 0 = ace, 1..=8 = 2..9, 9 = ten-valued. A composition's value never
//! depends on the order its cards came in, so a hit from hand `h` to `h + r` is an edge of
//! a small graph (about three thousand hands with a hard total of 21 or less) that every
//! rule set shares.

use std::collections::HashMap;
use std::sync::OnceLock;

/// Ranks: ace, 2..9, ten-valued.
pub const RANKS: usize = 10;
/// Rank index of the ace and of ten-valued cards.
pub const ACE: usize = 0;
pub const TEN: usize = 9;
/// Marks a child that busts.
pub const BUSTED: u32 = u32::MAX;

/// Points of a rank index (ace counted 1).
pub fn points(rank: usize) -> u8 {
    rank as u8 + 1
}

/// One composition.
#[derive(Clone, Copy, Debug)]
pub struct Hand {
    pub counts: [u8; RANKS],
    /// Sum with every ace counted 1.
    pub hard: u8,
    /// Best total: an ace counts 11 when that does not pass 21.
    pub total: u8,
    /// `total` counts an ace as 11.
    pub soft: bool,
    pub cards: u8,
}

/// The graph of compositions with a hard total of at most 21.
pub struct Hands {
    hands: Vec<Hand>,
    /// `children[h][r]`: the hand after drawing rank `r`, or [`BUSTED`].
    children: Vec<[u32; RANKS]>,
    index: HashMap<[u8; RANKS], u32>,
}

impl Hands {
    /// The shared graph (built on first use, in about a millisecond).
    pub fn get() -> &'static Hands {
        static HANDS: OnceLock<Hands> = OnceLock::new();
        HANDS.get_or_init(Hands::build)
    }

    fn build() -> Hands {
        let mut hands = Vec::new();
        let mut index = HashMap::new();
        // Every multiset of ranks with hard total <= 21, in order of increasing hard total
        // so that a hand's children come after it.
        fn extend(counts: &mut [u8; RANKS], from: usize, hard: u8, out: &mut Vec<[u8; RANKS]>) {
            for r in from..RANKS {
                let h = hard + points(r);
                if h > 21 {
                    break;
                }
                counts[r] += 1;
                out.push(*counts);
                extend(counts, r, h, out);
                counts[r] -= 1;
            }
        }
        let mut all = Vec::new();
        extend(&mut [0; RANKS], 0, 0, &mut all);
        let hard_of = |c: &[u8; RANKS]| -> u8 {
            c.iter()
                .enumerate()
                .map(|(r, &n)| points(r) * n)
                .sum::<u8>()
        };
        all.sort_by_key(|c| (hard_of(c), *c));
        for counts in all {
            let hard = hard_of(&counts);
            let soft = counts[ACE] > 0 && hard + 10 <= 21;
            index.insert(counts, hands.len() as u32);
            hands.push(Hand {
                counts,
                hard,
                total: if soft { hard + 10 } else { hard },
                soft,
                cards: counts.iter().sum(),
            });
        }
        let children = hands
            .iter()
            .map(|h| {
                let mut next = [BUSTED; RANKS];
                for (r, slot) in next.iter_mut().enumerate() {
                    let mut c = h.counts;
                    c[r] += 1;
                    if let Some(&i) = index.get(&c) {
                        *slot = i;
                    }
                }
                next
            })
            .collect();
        Hands {
            hands,
            children,
            index,
        }
    }

    pub fn len(&self) -> usize {
        self.hands.len()
    }

    pub fn is_empty(&self) -> bool {
        self.hands.is_empty()
    }

    pub fn hand(&self, h: u32) -> &Hand {
        &self.hands[h as usize]
    }

    /// The hand after drawing `rank`, or [`BUSTED`].
    pub fn child(&self, h: u32, rank: usize) -> u32 {
        self.children[h as usize][rank]
    }

    /// The hand of the given ranks, if its hard total is at most 21.
    pub fn of(&self, ranks: &[usize]) -> Option<u32> {
        let mut c = [0u8; RANKS];
        for &r in ranks {
            c[r] += 1;
        }
        self.index.get(&c).copied()
    }

    /// The one-card hand of `rank`.
    pub fn single(&self, rank: usize) -> u32 {
        self.of(&[rank]).expect("one card never busts")
    }

    /// The two-card hand of `a` and `b`.
    pub fn pair(&self, a: usize, b: usize) -> u32 {
        self.of(&[a, b]).expect("two cards never bust")
    }
}

/// The 55 two-card starting hands (tens merged) as (low rank, high rank), in a fixed
/// order: by first rank then second, ace first.
pub fn starting_hands() -> impl Iterator<Item = (usize, usize)> {
    (0..RANKS).flat_map(|a| (a..RANKS).map(move |b| (a, b)))
}

/// Position of the starting hand (a, b) in [`starting_hands`].
pub fn starting_index(a: usize, b: usize) -> usize {
    let (a, b) = if a <= b { (a, b) } else { (b, a) };
    // Hands before row a: 10 + 9 + ... + (10 - a + 1).
    a * RANKS - a * (a.saturating_sub(1)) / 2 + (b - a)
}

/// A rank's value as the tables' `upcard` column gives it: 2..10, and 11 for an ace (so it
/// sorts above the ten and filters as a number).
pub fn upcard_value(rank: usize) -> u8 {
    if rank == ACE {
        11
    } else {
        points(rank)
    }
}

/// Rank text: A, 2..9, T.
pub fn rank_name(rank: usize) -> &'static str {
    ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T"][rank]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn graph_counts_and_edges() {
        let g = Hands::get();
        // Multisets of {1..10} with sum n, summed over n = 1..21 (partitions into parts of
        // at most 10): counted independently by a generating-function recurrence.
        let mut ways = [0u64; 22];
        ways[0] = 1;
        for part in 1..=10 {
            for n in part..=21 {
                ways[n] += ways[n - part];
            }
        }
        assert_eq!(g.len() as u64, ways[1..].iter().sum::<u64>());
        for h in 0..g.len() as u32 {
            let hand = g.hand(h);
            for r in 0..RANKS {
                let c = g.child(h, r);
                if hand.hard + points(r) > 21 {
                    assert_eq!(c, BUSTED);
                } else {
                    assert!(c > h, "children come later");
                    assert_eq!(g.hand(c).cards, hand.cards + 1);
                }
            }
        }
        let soft17 = g.pair(ACE, 5);
        assert_eq!((g.hand(soft17).total, g.hand(soft17).soft), (17, true));
        let aa = g.pair(ACE, ACE);
        assert_eq!((g.hand(aa).total, g.hand(aa).soft), (12, true));
    }

    #[test]
    fn starting_hand_order() {
        let all: Vec<_> = starting_hands().collect();
        assert_eq!(all.len(), 55);
        for (i, &(a, b)) in all.iter().enumerate() {
            assert_eq!(starting_index(a, b), i);
            assert_eq!(starting_index(b, a), i);
        }
    }
}
