//! The Zhajinhua evaluator: category and strength of every 3-card hand under a rule set,
//! and the pairwise "beats" relation, which is not transitive under `special_235`.
//!
//! Strength is a dense integer over the ordinary order (larger wins, equal ties). The one
//! exception, an off-suit 2-3-5 beating trips, is a flag on the hand that [`Evaluator::compare`]
//! consults, so counting wins over the relation stays exact.

use std::cmp::Ordering;

use cardtables::colex::{binomial, unrank};
use cardtables::Card;

use super::rules::{ZhajinhuaRules, A23};

/// Number of 3-card hands.
pub const HANDS: usize = 22_100;
/// Opponent hands from the 49 unseen cards.
pub const OPPONENT_HANDS: u32 = 18_424;

/// Categories from weakest to strongest.
pub const CATEGORIES: [&str; 6] = [
    "high_card",
    "pair",
    "straight",
    "flush",
    "straight_flush",
    "trips",
];
/// Chinese names, same order.
pub const CATEGORIES_ZH: [&str; 6] = ["散牌", "对子", "顺子", "同花", "同花顺", "豹子"];
/// Index of trips in [`CATEGORIES`].
pub const TRIPS: u8 = 5;

/// Category and ordering key of a hand (cards in any order). Keys compare like hands.
pub fn classify(cards: &[Card; 3], rules: &ZhajinhuaRules) -> (u8, u32) {
    let mut r = cards.map(|c| c.rank());
    r.sort_unstable_by(|a, b| b.cmp(a)); // high to low; ranks 0 = 2 … 12 = A
    let flush = cards[0].suit() == cards[1].suit() && cards[1].suit() == cards[2].suit();
    let distinct = r[0] != r[1] && r[1] != r[2];
    // Straight height in half-steps: 2 × top rank; A-2-3 is 2 (below 2-3-4 = 4) when
    // lowest, 23 (between K-Q-J = 22 and A-K-Q = 24) when second.
    let straight = if distinct && r[0] == r[2] + 2 {
        Some(2 * u32::from(r[0]))
    } else if distinct && r == [12, 1, 0] {
        match rules.a23 {
            A23::Lowest => Some(2),
            A23::Second => Some(23),
            A23::None => None,
        }
    } else {
        None
    };
    let high = |r: [u8; 3]| u32::from(r[0]) * 169 + u32::from(r[1]) * 13 + u32::from(r[2]);
    let (category, sub) = if r[0] == r[2] {
        (5, u32::from(r[0]))
    } else if let (Some(h), true) = (straight, flush) {
        (4, h)
    } else if flush {
        (3, high(r))
    } else if let Some(h) = straight {
        (2, h)
    } else if r[0] == r[1] || r[1] == r[2] {
        let (pair, kicker) = if r[0] == r[1] {
            (r[0], r[2])
        } else {
            (r[1], r[0])
        };
        (1, u32::from(pair) * 13 + u32::from(kicker))
    } else {
        (0, high(r))
    };
    (category, u32::from(category) * 10_000 + sub)
}

/// True for the off-suit 2-3-5 that `special_235` promotes over trips.
pub fn is_special_235(cards: &[Card; 3]) -> bool {
    let mut r = cards.map(|c| c.rank());
    r.sort_unstable();
    let flush = cards[0].suit() == cards[1].suit() && cards[1].suit() == cards[2].suit();
    r == [0, 1, 3] && !flush
}

/// One hand's facts under a rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandInfo {
    pub cards: [Card; 3],
    /// Bitmask of the three cards.
    pub mask: u64,
    pub category: u8,
    /// Dense strength: 0 is the weakest key; equal strength ties.
    pub strength: u16,
    /// Off-suit 2-3-5 under `special_235` (beats trips).
    pub beats_trips: bool,
}

/// Every hand, by colex index, evaluated under one rule set.
pub struct Evaluator {
    pub rules: ZhajinhuaRules,
    pub hands: Vec<HandInfo>,
    /// Number of distinct strengths.
    pub levels: u16,
}

impl Evaluator {
    pub fn new(rules: ZhajinhuaRules) -> Evaluator {
        let mut cards = [Card::from_id(0).expect("card 0"); 3];
        let raw: Vec<([Card; 3], u8, u32)> = (0..HANDS as u32)
            .map(|i| {
                unrank(i, 3, &mut cards);
                let (category, key) = classify(&cards, &rules);
                (cards, category, key)
            })
            .collect();
        let mut keys: Vec<u32> = raw.iter().map(|h| h.2).collect();
        keys.sort_unstable();
        keys.dedup();
        let hands = raw
            .into_iter()
            .map(|(cards, category, key)| HandInfo {
                cards,
                mask: cards.iter().fold(0, |m, c| m | 1 << c.id()),
                category,
                strength: keys.binary_search(&key).expect("key present") as u16,
                beats_trips: rules.special_235 && is_special_235(&cards),
            })
            .collect();
        Evaluator {
            rules,
            hands,
            levels: keys.len() as u16,
        }
    }

    /// How hand `a` fares against hand `b`: Greater = a wins, Equal = tie.
    pub fn compare(&self, a: &HandInfo, b: &HandInfo) -> Ordering {
        if a.beats_trips && b.category == TRIPS {
            Ordering::Greater
        } else if b.beats_trips && a.category == TRIPS {
            Ordering::Less
        } else {
            a.strength.cmp(&b.strength)
        }
    }
}

/// Colex index of three distinct cards in any order.
pub fn index_of(cards: &[Card; 3]) -> usize {
    let mut s = *cards;
    s.sort_unstable();
    (binomial(usize::from(s[0].id()), 1)
        + binomial(usize::from(s[1].id()), 2)
        + binomial(usize::from(s[2].id()), 3)) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::zhajinhua::rules::Ties;
    use cardtables::parse_cards;

    fn hand(text: &str) -> [Card; 3] {
        parse_cards(text).unwrap().try_into().unwrap()
    }

    fn counts(rules: ZhajinhuaRules) -> [u32; 6] {
        let e = Evaluator::new(rules);
        let mut c = [0u32; 6];
        for h in &e.hands {
            c[usize::from(h.category)] += 1;
        }
        c
    }

    #[test]
    fn category_counts_match_hand_derived_counts() {
        // Straight sequences: 11 from 2-3-4 to Q-K-A, plus A-2-3 unless a23 = none.
        for (a23, sequences) in [(A23::Lowest, 12), (A23::Second, 12), (A23::None, 11)] {
            let c = counts(ZhajinhuaRules {
                a23,
                ..ZhajinhuaRules::default()
            });
            let straight_flush = sequences * 4;
            let straight = sequences * (4 * 4 * 4 - 4);
            let flush = 4 * 286 - straight_flush; // C(13,3) rank sets per suit
            let trips = 13 * 4;
            let pair = 13 * 6 * 12 * 4;
            let high = 22_100 - straight_flush - straight - flush - trips - pair;
            assert_eq!(
                c,
                [high, pair, straight, flush, straight_flush, trips],
                "{a23:?}"
            );
            assert_eq!(c.iter().sum::<u32>(), 22_100);
        }
    }

    #[test]
    fn pair_rank_beats_kicker() {
        let e = Evaluator::new(ZhajinhuaRules::default());
        let info = |t: &str| e.hands[index_of(&hand(t))];
        // The tutorial compares sorted rank lists and lets 2-2-A beat K-K-Q: wrong.
        assert_eq!(
            e.compare(&info("Ks Kh Qd"), &info("2s 2h Ad")),
            Ordering::Greater
        );
        // Flushes and high cards compare from the top card down; suits never break ties.
        assert_eq!(
            e.compare(&info("As 9s 2s"), &info("Kh Qh Jh")),
            Ordering::Less,
            "K-Q-J suited is a straight flush"
        );
        assert_eq!(
            e.compare(&info("As 9d 2s"), &info("Ah 9c 2h")),
            Ordering::Equal
        );
    }

    #[test]
    fn a23_variants_place_the_wheel() {
        for (a23, vs_234, vs_kqj_akq) in [
            (
                A23::Lowest,
                Ordering::Less,
                (Ordering::Less, Ordering::Less),
            ),
            (
                A23::Second,
                Ordering::Greater,
                (Ordering::Greater, Ordering::Less),
            ),
        ] {
            let e = Evaluator::new(ZhajinhuaRules {
                a23,
                ..ZhajinhuaRules::default()
            });
            let info = |t: &str| e.hands[index_of(&hand(t))];
            let wheel = info("As 2d 3c");
            assert_eq!(wheel.category, 2);
            assert_eq!(e.compare(&wheel, &info("2s 3d 4c")), vs_234);
            assert_eq!(e.compare(&wheel, &info("Ks Qd Jc")), vs_kqj_akq.0);
            assert_eq!(e.compare(&wheel, &info("As Kd Qc")), vs_kqj_akq.1);
        }
        let none = Evaluator::new(ZhajinhuaRules {
            a23: A23::None,
            ..ZhajinhuaRules::default()
        });
        assert_eq!(none.hands[index_of(&hand("As 2d 3c"))].category, 0);
    }

    #[test]
    fn special_235_beats_trips_and_only_trips() {
        let e = Evaluator::new(ZhajinhuaRules {
            special_235: true,
            ties: Ties::Split,
            ..ZhajinhuaRules::default()
        });
        let info = |t: &str| e.hands[index_of(&hand(t))];
        let s235 = info("2s 3h 5d");
        assert!(s235.beats_trips);
        assert_eq!(e.compare(&s235, &info("As Ah Ad")), Ordering::Greater);
        assert_eq!(e.compare(&info("As Ah Ad"), &s235), Ordering::Less);
        assert_eq!(e.compare(&s235, &info("2c 3d 6s")), Ordering::Less);
        assert_eq!(e.compare(&s235, &info("2d 2c 3s")), Ordering::Less);
        assert_eq!(e.compare(&s235, &info("2c 3c 5h")), Ordering::Equal);
        // Suited 2-3-5 is a flush, not the special hand.
        assert!(!info("2s 3s 5s").beats_trips);
        // The relation is not transitive: trips > pair > 2-3-5 > trips.
        assert_eq!(
            e.compare(&info("Ks Kh Kd"), &info("2d 2c 3s")),
            Ordering::Greater
        );
        // Without the rule 2-3-5 loses to trips.
        let plain = Evaluator::new(ZhajinhuaRules::default());
        let p = |t: &str| plain.hands[index_of(&hand(t))];
        assert_eq!(
            plain.compare(&p("2s 3h 5d"), &p("As Ah Ad")),
            Ordering::Less
        );
    }
}
