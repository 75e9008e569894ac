//! The five-card evaluator: category and a strength key for any 5 cards, under a deck
//! and ranking variant. Keys compare like hands: larger wins, equal ties.
//!
//! Bitmask design: one 13-bit rank mask, per-rank counts, and a flush test on suits; the
//! key is the category's rank in the variant's order followed by the deciding ranks, four
//! bits each, most important first, and under `suit_order_breaks_ties` the suit of the top
//! card (two bits, ♦ = 0 … ♠ = 3) last.

use cardtables::colex::{binomial, unrank};
use cardtables::Card;

use super::rules::StudRules;

/// Categories in textbook order, weakest first (the variant may swap flush and full house).
pub const CATEGORIES: [&str; 9] = [
    "high_card",
    "pair",
    "two_pair",
    "trips",
    "straight",
    "flush",
    "full_house",
    "quads",
    "straight_flush",
];
/// Chinese names, same order (as 梭哈 players say them).
pub const CATEGORIES_ZH: [&str; 9] = [
    "散牌",
    "对子",
    "两对",
    "三条",
    "顺子",
    "同花",
    "葫芦",
    "铁支",
    "同花顺",
];
pub const FLUSH: u8 = 5;
pub const FULL_HOUSE: u8 = 6;

/// A variant's evaluator.
#[derive(Clone, Copy, Debug)]
pub struct Evaluator {
    pub rules: StudRules,
    /// The ranks an ace-low straight uses besides the ace, as a rank mask.
    wheel_low: u16,
}

impl Evaluator {
    pub fn new(rules: StudRules) -> Evaluator {
        let low = rules.lowest_rank();
        Evaluator {
            rules,
            wheel_low: 0b1111 << low,
        }
    }

    /// Position of a category in the variant's order (0 = weakest).
    pub fn category_rank(&self, category: u8) -> u8 {
        match category {
            FLUSH if self.rules.flush_beats_full_house => FULL_HOUSE,
            FULL_HOUSE if self.rules.flush_beats_full_house => FLUSH,
            c => c,
        }
    }

    /// Top rank of the straight in a rank mask, if there is one (ace-low straights rank
    /// below every other straight: their top is the fourth-lowest rank of the deck).
    fn straight_top(&self, ranks: u16) -> Option<u8> {
        for top in (4..13u8).rev() {
            let need = 0b11111u16 << (top - 4);
            if ranks & need == need && top - 4 >= self.rules.lowest_rank() {
                return Some(top);
            }
        }
        let wheel = self.wheel_low | 1 << 12;
        (self.rules.ace_low_straight && ranks & wheel == wheel)
            .then(|| self.rules.lowest_rank() + 3)
    }

    /// (category, key) of five distinct cards.
    pub fn evaluate(&self, cards: &[Card; 5]) -> (u8, u32) {
        let mut counts = [0u8; 13];
        let mut ranks = 0u16;
        for c in cards {
            counts[usize::from(c.rank())] += 1;
            ranks |= 1 << c.rank();
        }
        let flush = cards.iter().all(|c| c.suit() == cards[0].suit());
        let straight = if ranks.count_ones() == 5 {
            self.straight_top(ranks)
        } else {
            None
        };
        // Ranks ordered by (count, rank), most important first; no allocation.
        let mut order = [(0u8, 0u8); 5];
        let mut len = 0;
        for r in (0..13u8).rev() {
            if counts[usize::from(r)] > 0 {
                order[len] = (counts[usize::from(r)], r);
                len += 1;
            }
        }
        let order = &mut order[..len];
        order.sort_unstable_by(|a, b| b.cmp(a));
        let mut shape = [0u8; 5];
        for (slot, &(n, _)) in shape.iter_mut().zip(order.iter()) {
            *slot = n;
        }
        let category = match (straight, flush, &shape[..len]) {
            (Some(_), true, _) => 8,
            (_, _, [4, 1]) => 7,
            (_, _, [3, 2]) => 6,
            (_, true, _) => 5,
            (Some(_), false, _) => 4,
            (_, _, [3, 1, 1]) => 3,
            (_, _, [2, 2, 1]) => 2,
            (_, _, [2, 1, 1, 1]) => 1,
            _ => 0,
        };
        let mut key = u32::from(self.category_rank(category));
        match (category, straight) {
            (4 | 8, Some(top)) => key = key << 4 | u32::from(top),
            _ => {
                for &(_, r) in order.iter() {
                    key = key << 4 | u32::from(r);
                }
            }
        }
        // Left-align so every key has the category in the same bits.
        let digits = match (category, straight) {
            (4 | 8, Some(_)) => 1,
            _ => order.len(),
        };
        key <<= 4 * (5 - digits);
        if self.rules.suit_order_breaks_ties {
            // The top card: the best suit among the cards of the rank that leads the key
            // (a straight's top rank, else the rank of the largest group, highest first).
            let lead = match (category, straight) {
                (4 | 8, Some(top)) => top,
                _ => order[0].1,
            };
            let suit = cards
                .iter()
                .filter(|c| c.rank() == lead)
                .map(|c| c.suit())
                .max()
                .unwrap_or(0);
            key = key << 2 | u32::from(suit);
        }
        (category, key)
    }
}

/// The (deck, ace_low_straight) pairs whose categories are counted, one unit each.
pub const VARIANTS: [(u8, bool); 6] = [
    (52, true),
    (52, false),
    (32, true),
    (32, false),
    (28, true),
    (28, false),
];
/// Category counts of every 5-card hand of a deck (flush/full-house order does not
/// change the counts, only the ranking).
pub fn category_counts(deck: u8, ace_low_straight: bool) -> [u64; 9] {
    let rules = StudRules {
        deck,
        ace_low_straight,
        ..StudRules::default()
    };
    let eval = Evaluator::new(rules);
    let low = rules.lowest_rank() * 4;
    let mut counts = [0u64; 9];
    let mut cards = [Card::from_id(0).expect("card 0"); 5];
    for i in 0..binomial(usize::from(deck), 5) {
        unrank(i, 5, &mut cards);
        let hand = cards.map(|c| Card::from_id(c.id() + low).expect("in the deck"));
        counts[usize::from(eval.evaluate(&hand).0)] += 1;
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use cardtables::colex::{binomial, unrank};
    use cardtables::parse_cards;

    fn hand(t: &str) -> [Card; 5] {
        parse_cards(t).unwrap().try_into().unwrap()
    }

    /// Category counts by enumerating every hand of the deck.
    fn enumerate(rules: StudRules) -> ([u64; 9], usize) {
        let e = Evaluator::new(rules);
        let low = rules.lowest_rank() * 4;
        let size = 52 - usize::from(low);
        let mut counts = [0u64; 9];
        let mut keys = std::collections::HashSet::new();
        let mut cards = [Card::from_id(0).unwrap(); 5];
        for i in 0..binomial(size, 5) {
            unrank(i, 5, &mut cards);
            let shifted = cards.map(|c| Card::from_id(c.id() + low).unwrap());
            let (cat, key) = e.evaluate(&shifted);
            counts[usize::from(cat)] += 1;
            keys.insert(key);
        }
        (counts, keys.len())
    }

    /// The same counts by counting rank patterns, independently of the evaluator.
    fn by_formula(ranks: u64, ace_low: bool) -> [u64; 9] {
        let c = |n: u64, k: u64| -> u64 {
            if k > n {
                0
            } else {
                (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
            }
        };
        let runs = ranks - 4 + u64::from(ace_low);
        let sf = 4 * runs;
        [
            (c(ranks, 5) - runs) * (1024 - 4),
            ranks * 6 * c(ranks - 1, 3) * 64,
            c(ranks, 2) * 36 * (ranks - 2) * 4,
            ranks * 4 * c(ranks - 1, 2) * 16,
            runs * (1024 - 4),
            4 * c(ranks, 5) - sf,
            ranks * 4 * (ranks - 1) * 6,
            ranks * (4 * ranks - 4),
            sf,
        ]
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore = "enumerates every hand: run with --release")]
    fn category_counts_match_textbook_and_rank_pattern_counts() {
        let (counts, distinct) = enumerate(StudRules::default());
        assert_eq!(
            counts,
            [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40]
        );
        assert_eq!(distinct, 7_462, "distinct 5-card hand values");
        for (deck, ranks) in [(52u8, 13u64), (32, 8), (28, 7)] {
            for ace_low in [true, false] {
                let rules = StudRules {
                    deck,
                    ace_low_straight: ace_low,
                    flush_beats_full_house: deck != 52,
                    ..StudRules::default()
                };
                let (counts, _) = enumerate(rules);
                assert_eq!(counts, by_formula(ranks, ace_low), "{rules:?}");
                let total: u64 = counts.iter().sum();
                assert_eq!(total, u64::from(binomial(usize::from(deck), 5)));
            }
        }
    }

    #[test]
    fn order_follows_the_variant() {
        let e = Evaluator::new(StudRules::default());
        let k = |t: &str| e.evaluate(&hand(t)).1;
        assert!(k("As Ks Qs Js Ts") > k("9h 9d 9c 9s 2d"));
        assert!(k("2h 2d 2c 3s 3d") > k("Ah Jh 9h 5h 3h"));
        assert!(k("5s 4d 3c 2h Ad") < k("6s 5d 4c 3h 2d"));
        assert!(k("5s 4d 3c 2h Ad") > k("As Kd Qc Jh 9d"));
        assert!(k("Ah Ad Kc Ks 2d") > k("Ah Ad Qc Qs Kd"));
        assert!(k("Ah Ad 9c 8s 2d") > k("Ah Ad 9c 7s 6d"));
        assert_eq!(k("Ah Kd 9c 8s 2d"), k("As Kc 9d 8h 2c"));
        let short = Evaluator::new(StudRules {
            deck: 32,
            flush_beats_full_house: true,
            ace_low_straight: true,
            ..StudRules::default()
        });
        let s = |t: &str| short.evaluate(&hand(t)).1;
        assert!(s("Ah Jh 9h 8h 7h") > s("7h 7d 7c 8s 8d"));
        // The short deck's ace-low straight is A-7-8-9-10, below 7-8-9-10-J.
        assert_eq!(short.evaluate(&hand("As 7d 8c 9h Td")).0, 4);
        assert!(s("As 7d 8c 9h Td") < s("7s 8d 9c Th Jd"));
    }
}
