//! Exact heads-up all-in equity of every pair of 2-card starting hands: each player then
//! receives 3 more cards from the same remaining deck.
//!
//! For one matchup we evaluate both players' 3-card completions once and, for each of the
//! first player's completions D, count the second player's weaker (and equal) completions
//! that avoid D by inclusion–exclusion over D's cards:
//! `#{E ∩ D = ∅, key(E) < s} = Σ_{S ⊆ D} (−1)^|S| · #{E ⊇ S, key(E) < s}`.
//! The four kinds of count (all completions, those holding a card, a pair of cards, D
//! itself) come from sorted key lists, swept with one pointer per list as the first
//! player's completions are taken in increasing strength — no pair of completions is ever
//! compared directly. Matchups are taken up to suit permutation and order.

use cardtables::colex::binomial;

use crate::cards::matchups::pair_index;
#[cfg(test)]
use crate::cards::matchups::{matchups, matchups_under};
use cardtables::{Card, CardSet};

use super::eval::Evaluator;
#[cfg(test)]
use super::rules::StudRules;

pub use crate::cards::matchups::MatchupResult;

/// Scratch space for [`solve`], reused across matchups to avoid allocation.
#[derive(Default)]
pub struct Scratch {
    first: Vec<(u32, [u8; 3])>,
    second: Vec<u32>,
    all: Vec<u32>,
    by_card: Vec<Vec<u32>>,
    by_pair: Vec<Vec<u32>>,
    second_key: std::collections::HashMap<[u8; 3], u32>,
}

/// Pointers into a sorted list: how many entries are < s and ≤ s for a rising s.
#[derive(Clone, Copy, Default)]
struct Sweep {
    below: usize,
    upto: usize,
}

impl Sweep {
    fn advance(&mut self, list: &[u32], s: u32) -> (i64, i64) {
        while self.below < list.len() && list[self.below] < s {
            self.below += 1;
        }
        if self.upto < self.below {
            self.upto = self.below;
        }
        while self.upto < list.len() && list[self.upto] <= s {
            self.upto += 1;
        }
        (self.below as i64, (self.upto - self.below) as i64)
    }
}

/// The exact result of hand `a` against hand `b` (2 cards each) under `eval`.
pub fn solve(eval: &Evaluator, a: [Card; 2], b: [Card; 2], scratch: &mut Scratch) -> MatchupResult {
    let deck = eval.rules.deck_mask();
    let used: CardSet = a.iter().chain(&b).copied().collect();
    let rest: Vec<u8> = CardSet(deck & !used.0).iter().map(|c| c.id()).collect();
    let n = rest.len();
    let card = |id: u8| Card::from_id(id).expect("id < 52");
    scratch.first.clear();
    scratch.second.clear();
    scratch.all.clear();
    scratch.second_key.clear();
    scratch.by_card.resize_with(52, Vec::new);
    scratch.by_pair.resize_with(1326, Vec::new);
    for list in scratch.by_card.iter_mut().chain(scratch.by_pair.iter_mut()) {
        list.clear();
    }
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                let d = [rest[i], rest[j], rest[k]];
                let ka = eval
                    .evaluate(&[a[0], a[1], card(d[0]), card(d[1]), card(d[2])])
                    .1;
                let kb = eval
                    .evaluate(&[b[0], b[1], card(d[0]), card(d[1]), card(d[2])])
                    .1;
                scratch.first.push((ka, d));
                scratch.all.push(kb);
                scratch.second_key.insert(d, kb);
                for c in d {
                    scratch.by_card[usize::from(c)].push(kb);
                }
                for (x, y) in [(d[0], d[1]), (d[0], d[2]), (d[1], d[2])] {
                    scratch.by_pair[pair_index(x, y)].push(kb);
                }
            }
        }
    }
    scratch.all.sort_unstable();
    for list in scratch.by_card.iter_mut().chain(scratch.by_pair.iter_mut()) {
        list.sort_unstable();
    }
    scratch.first.sort_unstable();
    let mut sweep_all = Sweep::default();
    let mut sweep_card = [Sweep::default(); 52];
    let mut sweep_pair = vec![Sweep::default(); 1326];
    let (mut wins, mut ties) = (0i64, 0i64);
    for &(s, d) in &scratch.first {
        let (mut below, mut equal) = sweep_all.advance(&scratch.all, s);
        for c in d {
            let (lt, eq) = sweep_card[usize::from(c)].advance(&scratch.by_card[usize::from(c)], s);
            below -= lt;
            equal -= eq;
        }
        for (x, y) in [(d[0], d[1]), (d[0], d[2]), (d[1], d[2])] {
            let p = pair_index(x, y);
            let (lt, eq) = sweep_pair[p].advance(&scratch.by_pair[p], s);
            below += lt;
            equal += eq;
        }
        let own = scratch.second_key[&d];
        below -= i64::from(own < s);
        equal -= i64::from(own == s);
        wins += below;
        ties += equal;
    }
    let deals = binomial(n, 3) as u64 * binomial(n - 3, 3) as u64;
    MatchupResult {
        wins: wins as u64,
        ties: ties as u64,
        deals,
    }
}

/// Brute force over every pair of completions (tests only: slow).
pub fn brute_force(eval: &Evaluator, a: [Card; 2], b: [Card; 2]) -> MatchupResult {
    let deck = eval.rules.deck_mask();
    let used: CardSet = a.iter().chain(&b).copied().collect();
    let rest: Vec<Card> = CardSet(deck & !used.0).iter().collect();
    let n = rest.len();
    let triples: Vec<[usize; 3]> = (0..n)
        .flat_map(|i| (i + 1..n).flat_map(move |j| (j + 1..n).map(move |k| [i, j, k])))
        .collect();
    let mut r = MatchupResult::default();
    for d in &triples {
        let ka = eval
            .evaluate(&[a[0], a[1], rest[d[0]], rest[d[1]], rest[d[2]]])
            .1;
        for e in &triples {
            if e.iter().any(|x| d.contains(x)) {
                continue;
            }
            let kb = eval
                .evaluate(&[b[0], b[1], rest[e[0]], rest[e[1]], rest[e[2]]])
                .1;
            r.deals += 1;
            r.wins += u64::from(ka > kb);
            r.ties += u64::from(ka == kb);
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use cardtables::parse_cards;

    fn two(t: &str) -> [Card; 2] {
        parse_cards(t).unwrap().try_into().unwrap()
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore = "brute force: run with --release")]
    fn inclusion_exclusion_matches_brute_force() {
        let short = Evaluator::new(StudRules {
            deck: 28,
            flush_beats_full_house: true,
            ace_low_straight: true,
            suit_order_breaks_ties: false,
        });
        let mut scratch = Scratch::default();
        for (a, b) in [("As Ah", "Ks Qs"), ("9h 8h", "Tc Td"), ("Ac Kd", "Ah Kc")] {
            let fast = solve(&short, two(a), two(b), &mut scratch);
            assert_eq!(fast, brute_force(&short, two(a), two(b)), "{a} vs {b}");
            let back = solve(&short, two(b), two(a), &mut scratch);
            assert_eq!((back.wins, back.ties), (fast.losses(), fast.ties));
        }
        let full = Evaluator::new(StudRules::default());
        let (a, b) = (two("As Ks"), two("2c 2d"));
        let fast = solve(&full, a, b, &mut scratch);
        assert_eq!(fast.deals, 17_296 * 14_190);
        assert_eq!(fast, brute_force(&full, a, b));
    }

    #[test]
    fn matchup_classes_cover_every_pair_once() {
        for (deck, hands) in [(28u8, 28 * 27 / 2), (32, 32 * 31 / 2)] {
            let rules = StudRules {
                deck,
                ..StudRules::default()
            };
            let total: u64 = matchups(rules.deck_mask())
                .iter()
                .map(|m| u64::from(m.weight))
                .sum();
            let raw = hands as u64 * (hands as u64 - 2 * (deck as u64) + 3) / 2;
            assert_eq!(total, raw, "deck {deck}");
            // When suits rank, no two matchups are alike: one class per unordered pair.
            let ranked = StudRules {
                suit_order_breaks_ties: true,
                ..rules
            };
            let classes = matchups_under(ranked.deck_mask(), &ranked.suit_symmetries());
            assert_eq!(classes.len() as u64, raw, "deck {deck}");
            assert!(classes.iter().all(|m| m.weight == 1));
        }
    }

    /// Traditional 梭哈 settled literally: hands of unequal rank by the plain order, equal
    /// ones by the best suit among the cards of the rank that leads the plain key (its
    /// first digit: the largest group's rank, or a straight's top).
    fn suit_settled(plain: &Evaluator, x: &[Card; 5], y: &[Card; 5]) -> std::cmp::Ordering {
        let (kx, ky) = (plain.evaluate(x).1, plain.evaluate(y).1);
        let top_suit = |hand: &[Card; 5], key: u32| {
            let lead = (key >> 16 & 0xF) as u8;
            hand.iter()
                .filter(|c| c.rank() == lead)
                .map(|c| c.suit())
                .max()
                .expect("the leading rank is in the hand")
        };
        kx.cmp(&ky)
            .then_with(|| top_suit(x, kx).cmp(&top_suit(y, ky)))
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore = "brute force: run with --release")]
    fn suit_order_settles_every_tie_and_changes_nothing_else() {
        let rules = StudRules {
            deck: 28,
            ..StudRules::default()
        };
        let plain = Evaluator::new(rules);
        let ranked = Evaluator::new(StudRules {
            suit_order_breaks_ties: true,
            ..rules
        });
        let mut scratch = Scratch::default();
        for (a, b) in [
            ("As Ah", "Ac Ad"),
            ("9h 8h", "9c 8c"),
            ("Ac Kd", "Ah Kc"),
            ("Ts Js", "Th Jd"),
        ] {
            let (a, b) = (two(a), two(b));
            let off = solve(&plain, a, b, &mut scratch);
            let on = solve(&ranked, a, b, &mut scratch);
            assert_eq!(on.ties, 0, "{a:?} {b:?}");
            assert_eq!(on.deals, off.deals);
            assert!(on.wins >= off.wins && on.losses() >= off.losses());
            // Every deal, settled literally.
            let deck = rules.deck_mask();
            let used: CardSet = a.iter().chain(&b).copied().collect();
            let rest: Vec<Card> = CardSet(deck & !used.0).iter().collect();
            let (mut wins, mut deals) = (0u64, 0u64);
            let n = rest.len();
            for i in 0..n {
                for j in i + 1..n {
                    for k in j + 1..n {
                        let x = [a[0], a[1], rest[i], rest[j], rest[k]];
                        for p in (0..n).filter(|p| ![i, j, k].contains(p)) {
                            for q in (p + 1..n).filter(|q| ![i, j, k].contains(q)) {
                                for r in (q + 1..n).filter(|r| ![i, j, k].contains(r)) {
                                    let y = [b[0], b[1], rest[p], rest[q], rest[r]];
                                    deals += 1;
                                    wins += u64::from(suit_settled(&plain, &x, &y).is_gt());
                                }
                            }
                        }
                    }
                }
            }
            assert_eq!((on.wins, on.deals), (wins, deals), "{a:?} {b:?}");
        }
        // Equal pairs of eights with equal kickers: the ♠ eight wins.
        let hand = |t: &str| -> [Card; 5] { parse_cards(t).unwrap().try_into().unwrap() };
        let (x, y) = (hand("8s 8d Ah Kc Qd"), hand("8h 8c As Kd Qh"));
        assert_eq!(plain.evaluate(&x).1, plain.evaluate(&y).1);
        assert!(ranked.evaluate(&x).1 > ranked.evaluate(&y).1);
    }
}
