//! The Niuniu evaluator: category, bull number, grouping and high card of a 5-card hand.
//!
//! A hand's category depends only on its multiset of ranks, so the fast path classifies
//! each of the C(17,5) = 6,188 rank multisets once and a hand costs one index computation
//! and one table read. The literal rule (try all ten 3-card groupings) lives in
//! [`literal_bull`] and is the oracle the tests hold the fast path to.

use cardtables::colex::binomial;
use cardtables::Card;

use super::rules::{Ranking, Special, BOMB, BULL_BULL, NO_BULL};

/// Number of rank multisets of size 5 over 13 ranks (13 of them, five of a kind, are
/// impossible with one deck). The runtime table is laid out by this index, so the pipeline
/// uses the runtime's definition.
pub use cardtables::niuniu::{tie_order, MULTISETS};

/// Niuniu rank of a card: 0 = A, 1 = 2, …, 9 = 10, 10 = J, 11 = Q, 12 = K.
pub fn niu_rank(card: Card) -> u8 {
    (card.rank() + 1) % 13
}

/// Points of a Niuniu rank: A = 1, 2..9 face value, 10/J/Q/K = 10.
pub fn points_of_rank(niu_rank: u8) -> u8 {
    (niu_rank + 1).min(10)
}

/// Points of a card.
pub use cardtables::niuniu::card_points as points;

/// The highest card of a hand in [`tie_order`] (K > … > A, then suit).
pub fn high_card(cards: &[Card; 5]) -> Card {
    *cards
        .iter()
        .max_by_key(|c| tie_order(**c))
        .expect("five cards")
}

/// The card that settles two hands of one category, for a hand of category `code` in
/// increasing id order: the highest card, but the ♠ of the four of a kind for a bomb when
/// the rules settle bombs by the four's rank.
pub fn tie_card(sorted: &[Card; 5], code: u8, ranking: &Ranking) -> Card {
    if code == BOMB && ranking.quad_rank_bombs() {
        // The middle of five sorted cards holding four of a kind is one of the four.
        Card::new(sorted[2].rank(), 3).expect("a rank and ♠")
    } else {
        high_card(sorted)
    }
}

/// Dense index of the rank multiset of a hand whose cards are in increasing id order.
pub use cardtables::niuniu::multiset_index;

/// Card-id ranks (0 = 2 … 12 = A, non-decreasing) of the five-rank multiset with this
/// index.
pub fn multiset_ranks(index: usize) -> [u8; 5] {
    rank_multiset(index)
}

/// Card-id ranks (non-decreasing) of the `K`-rank multiset with this index, the inverse
/// of `Σ C(r_i + i, i + 1)`: the colex decoder of the set `{r_i + i}` of `12 + K` values.
pub fn rank_multiset<const K: usize>(mut index: usize) -> [u8; K] {
    let mut ranks = [0u8; K];
    let mut n = 12 + K;
    for i in (1..=K).rev() {
        n -= 1;
        while binomial(n, i) as usize > index {
            n -= 1;
        }
        index -= binomial(n, i) as usize;
        ranks[i - 1] = (n - (i - 1)) as u8;
    }
    ranks
}

/// Ranks as people write them, high to low in Niuniu order (K high, A low): `KQJT5`.
pub fn ranks_text(card_ranks: &[u8]) -> String {
    let mut niu: Vec<u8> = card_ranks.iter().map(|&r| (r + 1) % 13).collect();
    niu.sort_unstable_by(|a, b| b.cmp(a));
    niu.iter()
        .map(|&r| cardtables::card::RANK_CHARS[usize::from((r + 12) % 13)])
        .collect()
}

/// Bull number from points alone: `None` for 无牛, else the total mod 10 (0 = 牛牛).
///
/// Three cards sum to a multiple of 10 exactly when the other two sum to the total mod
/// 10, so checking the ten pairs is the same rule as checking the ten triples.
pub fn bull_of_points(points: [u8; 5]) -> Option<u8> {
    let total: u8 = points.iter().sum();
    let target = total % 10;
    for i in 0..5 {
        for j in i + 1..5 {
            if (points[i] + points[j]) % 10 == target {
                return Some(target);
            }
        }
    }
    None
}

/// Category code of a rank multiset (Niuniu ranks, any order) under a rule set.
pub fn classify(niu_ranks: [u8; 5], ranking: &Ranking) -> u8 {
    for special in &ranking.rules.special_hands {
        let hit = match special {
            Special::FiveSmall => {
                niu_ranks.iter().all(|&r| r <= 3)
                    && niu_ranks.iter().map(|&r| points_of_rank(r)).sum::<u8>()
                        <= ranking.rules.five_small_max_total
            }
            Special::Bomb => niu_ranks
                .iter()
                .any(|r| niu_ranks.iter().filter(|&s| s == r).count() == 4),
            Special::FiveFace => niu_ranks.iter().all(|&r| r >= 10),
            Special::FourFace => {
                niu_ranks.iter().filter(|&&r| r >= 10).count() == 4 && niu_ranks.contains(&9)
            }
        };
        if hit {
            return special.code();
        }
    }
    match bull_of_points(niu_ranks.map(points_of_rank)) {
        None => NO_BULL,
        Some(0) => BULL_BULL,
        Some(b) => b,
    }
}

/// Category code of every rank multiset (`u8::MAX` for the impossible five of a kind).
pub fn category_table(ranking: &Ranking) -> Vec<u8> {
    (0..MULTISETS)
        .map(|i| {
            let ranks = multiset_ranks(i);
            if ranks.iter().all(|&r| r == ranks[0]) {
                u8::MAX
            } else {
                classify(ranks.map(|r| (r + 1) % 13), ranking)
            }
        })
        .collect()
}

/// Everything the tables say about one hand except head-to-head results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandFacts {
    pub code: u8,
    pub bull: Option<u8>,
    pub point_total: u8,
    /// Positions (into the sorted hand) of one valid 3-card grouping.
    pub grouping: Option<[u8; 3]>,
    pub high_card: Card,
}

/// Facts about a hand in increasing id order, using the precomputed category table.
pub fn facts(sorted: &[Card; 5], categories: &[u8]) -> HandFacts {
    let pts = sorted.map(points);
    let point_total = pts.iter().sum();
    HandFacts {
        code: categories[multiset_index(sorted)],
        bull: bull_of_points(pts),
        point_total,
        grouping: first_grouping(pts),
        high_card: high_card(sorted),
    }
}

/// The first (lexicographic) triple of positions whose points sum to a multiple of 10.
pub fn first_grouping(points: [u8; 5]) -> Option<[u8; 3]> {
    for i in 0..5 {
        for j in i + 1..5 {
            for k in j + 1..5 {
                if (points[i] + points[j] + points[k]).is_multiple_of(10) {
                    return Some([i as u8, j as u8, k as u8]);
                }
            }
        }
    }
    None
}

/// The literal rule of the tutorial: try all ten groupings; return every bull number found
/// (remaining two cards' sum mod 10, 0 = 牛牛) in grouping order.
pub fn literal_bull(cards: &[Card; 5]) -> Vec<u8> {
    let mut found = Vec::new();
    for i in 0..5 {
        for j in i + 1..5 {
            for k in j + 1..5 {
                let three = points(cards[i]) + points(cards[j]) + points(cards[k]);
                if three.is_multiple_of(10) {
                    let rest: u8 = (0..5)
                        .filter(|&m| m != i && m != j && m != k)
                        .map(|m| points(cards[m]))
                        .sum();
                    found.push(rest % 10);
                }
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::niuniu::rules::{NiuniuRules, FIVE_FACE, FIVE_SMALL, FOUR_FACE};
    use cardtables::parse_cards;

    fn hand(text: &str) -> [Card; 5] {
        let mut cards: [Card; 5] = parse_cards(text).unwrap().try_into().unwrap();
        cards.sort();
        cards
    }

    #[test]
    fn multiset_index_is_dense_and_invertible() {
        for i in 0..MULTISETS {
            let ranks = multiset_ranks(i);
            assert!(ranks.windows(2).all(|w| w[0] <= w[1]));
            let cards = ranks.map(|r| Card::new(r, 0).unwrap());
            assert_eq!(multiset_index(&cards), i);
        }
        assert_eq!(multiset_ranks(MULTISETS - 1), [12; 5]);
    }

    #[test]
    fn four_rank_multisets_invert_the_class_index() {
        use cardtables::niuniu_bidding::{class_of, CLASSES};
        for class in 0..CLASSES {
            let ranks = rank_multiset::<4>(class);
            assert!(ranks.windows(2).all(|w| w[0] <= w[1]));
            assert_eq!(class_of(&ranks.map(|r| Card::new(r, 0).unwrap())), class);
        }
        assert_eq!(rank_multiset::<4>(CLASSES - 1), [12; 4]);
        // A 2 K T J, written high to low with the ace lowest.
        assert_eq!(ranks_text(&[12, 0, 11, 8, 9]), "KJT2A");
    }

    #[test]
    fn tutorial_examples() {
        let ranking = Ranking::new(NiuniuRules::default()).unwrap();
        let table = category_table(&ranking);
        // The tutorial's hand1: 10 10 10 2 8 -> 牛牛.
        assert_eq!(facts(&hand("Ts Th Tc 2s 8h"), &table).code, BULL_BULL);
        // hand2: 7 8 5 3 7 -> total 30 -> 牛牛 (7+8+5 = 20, 3+7 = 10).
        assert_eq!(facts(&hand("7s 8h 5c 3s 7h"), &table).code, BULL_BULL);
        // 5 J Q K 4: J Q K is a grouping, 5 + 4 = 9 -> 牛9.
        let f = facts(&hand("5s Jh Qc Ks 4h"), &table);
        assert_eq!((f.code, f.bull, f.point_total), (9, Some(9), 39));
        // A 2 3 4 8: no three cards make a multiple of ten.
        let f = facts(&hand("As 2h 3c 4s 8h"), &table);
        assert_eq!((f.code, f.bull, f.grouping), (NO_BULL, None, None));
        assert_eq!(facts(&hand("Js Qh Kc Ks Qd"), &table).code, FIVE_FACE);
        assert_eq!(facts(&hand("Js Qh Kc Ks Td"), &table).code, FOUR_FACE);
        assert_eq!(
            high_card(&hand("Js Qh Kc Ks Td")),
            parse_cards("Ks").unwrap()[0]
        );
    }

    #[test]
    fn extended_specials_follow_list_order() {
        let ranking = Ranking::new(NiuniuRules {
            special_hands: vec![
                Special::FiveSmall,
                Special::Bomb,
                Special::FiveFace,
                Special::FourFace,
            ],
            payout_table: super::super::rules::PayoutTable::Common,
            ..NiuniuRules::default()
        })
        .unwrap();
        let table = category_table(&ranking);
        // A A A A 2: both a bomb and five small (total 6); five_small is listed first.
        assert_eq!(facts(&hand("As Ah Ac Ad 2s"), &table).code, FIVE_SMALL);
        assert_eq!(facts(&hand("Ks Kh Kc Kd Qs"), &table).code, BOMB);
        // 4 4 4 A A totals 14 > 10: not five small; 4+4+A+A... bull check applies.
        assert_ne!(facts(&hand("4s 4h 4c As Ah"), &table).code, FIVE_SMALL);
    }
}
