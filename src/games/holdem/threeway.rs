//! Three-way all-in equity of class triples (`holdem.threeway`): for three starting-hand
//! classes, each player's exact equity, outright wins and ties over every deal of the
//! classes' combinations that share no card and every board of the 46 cards left.
//!
//! A triple is stored once, its classes in increasing class index (pairs AA…22, then
//! suited AK…32, then offsuit), which is the order of `threeway.parquet`'s `class_a`,
//! `class_b`, `class_c`. Triples are listed as the runtime table stores them: for each
//! covered position `k`, each `j ≤ k`, each `i ≤ j`, at `C(k + 2, 3) + C(j + 1, 2) + i`.
//!
//! Each triple is one exact question to [`super::equity`]: the deals of the three classes'
//! combinations grouped by suit renaming, each group counted over every board by ranks
//! where suits cannot matter. Every count is an integer (equity in 60ths of a pot), so
//! results do not depend on the order of summation or the threads.

use cardtables::Range;
use serde::{Deserialize, Serialize};

use super::classes::class_name;
use super::equity::{equity, EquityError, Question};

/// Boards per deal of three holdings: C(46, 5).
pub const BOARDS: u64 = 1_370_754;

/// One triple's exact result, seats in increasing class index.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TripleResult {
    pub classes: [u8; 3],
    /// Deals of the three classes' holdings that share no card (0: none exists).
    pub deals: u32,
    /// Showdowns each seat wins outright, and ties (a pot split two or three ways).
    pub wins: [u64; 3],
    pub ties: [u64; 3],
    /// Each seat's equity: its wins plus its shares of split pots, over the showdowns.
    pub equity: [f64; 3],
    /// Showdowns by how the three hands finish, one count per weak order of [`ORDERS`]:
    /// what side pots need (who wins the main pot, and who of the other two the side
    /// pot). `None` only when read from a table written before these counts existed.
    pub orders: Option<[u64; 13]>,
}

/// The 13 ways three hands can finish (weak orders): each seat's place, 0 the best, seats
/// that tie sharing a place. Named in `threeway.parquet` by [`ORDER_NAMES`].
pub const ORDERS: [[u8; 3]; 13] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [2, 0, 1],
    [1, 2, 0],
    [2, 1, 0],
    [0, 1, 1],
    [1, 0, 1],
    [1, 1, 0],
    [0, 0, 1],
    [0, 1, 0],
    [1, 0, 0],
    [0, 0, 0],
];

/// Column names of [`ORDERS`]: the seats from the best hand to the worst, `_` between
/// places, tied seats together (`order_a_bc`: a wins, b and c tie below it).
pub const ORDER_NAMES: [&str; 13] = [
    "order_a_b_c",
    "order_a_c_b",
    "order_b_a_c",
    "order_b_c_a",
    "order_c_a_b",
    "order_c_b_a",
    "order_a_bc",
    "order_b_ac",
    "order_c_ab",
    "order_ab_c",
    "order_ac_b",
    "order_bc_a",
    "order_abc",
];

/// The weak order of an outcome code of the equity engine (the top holders' mask, and
/// how the other two compare below a lone top hand), as an index of [`ORDERS`].
pub(crate) fn order_of_outcome(code: usize) -> Option<usize> {
    let top = code & 7;
    let below = code >> 3;
    let mut places = [1u8; 3];
    match top.count_ones() {
        0 => return None,
        1 => {
            let p = top.trailing_zeros() as usize;
            places[p] = 0;
            let others: Vec<usize> = (0..3).filter(|&s| s != p).collect();
            match below {
                0 => {}
                1 => places[others[1]] = 2,
                2 => places[others[0]] = 2,
                _ => return None,
            }
        }
        _ if below == 0 => {
            for (s, place) in places.iter_mut().enumerate() {
                if top >> s & 1 == 1 {
                    *place = 0;
                }
            }
        }
        _ => return None,
    }
    ORDERS.iter().position(|o| *o == places)
}

/// The seats holding the best hand in a weak order.
pub fn order_winners(order: &[u8; 3]) -> impl Iterator<Item = usize> + '_ {
    (0..3).filter(|&s| order[s] == 0)
}

/// Every triple (with repeats) of the covered classes, in storage order.
pub fn triples(classes: &[u8]) -> Vec<[u8; 3]> {
    let mut out = Vec::with_capacity(cardtables::holdem_threeway::triples(classes.len()));
    for k in 0..classes.len() {
        for j in 0..=k {
            for i in 0..=j {
                out.push([classes[i], classes[j], classes[k]]);
            }
        }
    }
    out
}

/// The exact preflop question of some classes (indices below 169) all in against each
/// other: every deal of their combos, every board.
pub fn classes_question(classes: &[u8]) -> Question {
    exact_question(
        classes
            .iter()
            .map(|&c| Range::parse(&class_name(usize::from(c))).expect("a class name is a range"))
            .collect(),
    )
}

/// The exact preflop question of some ranges all in against each other: every deal of
/// their holdings, every board.
pub fn exact_question(ranges: Vec<Range>) -> Question {
    Question {
        ranges,
        board: vec![],
        dead: vec![],
        std_error: 0.0,
        max_trials: 0,
        max_draws: 0,
        seed: 0,
        // At most 12³ deals in at least 72 groups of suit renamings, each a bounded number
        // of showdowns: always exact.
        exact_budget: u64::MAX,
    }
}

/// The exact result of one triple of class indices (each below 169).
pub fn solve(classes: [u8; 3]) -> TripleResult {
    let question = classes_question(&classes);
    // Three classes always leave 46 cards and at least one holding each: the only
    // error is that no deal exists.
    let answer = match equity(&question) {
        Ok(a) => a,
        Err(EquityError::NoDeal) => {
            return TripleResult {
                classes,
                deals: 0,
                wins: [0; 3],
                ties: [0; 3],
                equity: [0.0; 3],
                orders: Some([0; 13]),
            }
        }
        Err(e) => panic!("three classes {classes:?} are always a valid question: {e}"),
    };
    assert!(
        answer.exact && answer.showdowns.is_multiple_of(BOARDS),
        "{classes:?} must be enumerated exactly over every board"
    );
    let deals = answer.showdowns / BOARDS;
    let showdowns = answer.showdowns as f64;
    // The shares are integer counts over the showdowns, each below 2^53: rounding their
    // products with the showdowns recovers the counts.
    let count = |share: f64| (share * showdowns).round() as u64;
    let mut orders = [0u64; 13];
    for (code, &share) in answer.outcomes.iter().enumerate() {
        if share > 0.0 {
            let o = order_of_outcome(code).expect("three players' outcome codes are weak orders");
            orders[o] += count(share);
        }
    }
    TripleResult {
        classes,
        deals: deals as u32, // at most 12³
        wins: std::array::from_fn(|s| count(answer.win[s])),
        ties: std::array::from_fn(|s| count(answer.tie[s])),
        equity: std::array::from_fn(|s| answer.equity[s]),
        orders: Some(orders),
    }
}

/// The deals of a triple of classes (each below 169): the triples of their combos, one
/// from each, that share no card, counted directly from [`super::classes::combo_masks`].
pub fn deals(masks: &[Vec<u64>], classes: [u8; 3]) -> u32 {
    let [a, b, c] = classes.map(|k| &masks[usize::from(k)]);
    let mut n = 0;
    for &x in a {
        for &y in b.iter().filter(|&&y| x & y == 0) {
            n += c.iter().filter(|&&z| (x | y) & z == 0).count() as u32;
        }
    }
    n
}

/// Checks a stored result against the triple it should hold and the bounds the outputs
/// rely on.
pub fn check(expected: [u8; 3], r: &TripleResult) -> Result<(), String> {
    let showdowns = u64::from(r.deals) * BOARDS;
    // The orders add up to the showdowns, and give each seat's wins and ties.
    let orders_agree = r.orders.is_none_or(|orders| {
        let mut wins = [0u64; 3];
        let mut ties = [0u64; 3];
        for (order, &n) in ORDERS.iter().zip(&orders) {
            let top = order_winners(order).count();
            for s in order_winners(order) {
                if top == 1 {
                    wins[s] += n;
                } else {
                    ties[s] += n;
                }
            }
        }
        orders.iter().sum::<u64>() == showdowns && wins == r.wins && ties == r.ties
    });
    let ok = r.classes == expected
        && r.deals <= cardtables::holdem_threeway::MAX_DEALS
        && orders_agree
        && if r.deals == 0 {
            r.equity == [0.0; 3]
        } else {
            r.equity.iter().all(|e| (0.0..=1.0).contains(e))
                && (r.equity.iter().sum::<f64>() - 1.0).abs() < 1e-9
        };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "not a result for the triple {expected:?} (classes, deals, counts or equities out of bounds)"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::holdem::classes::{class_of, CLASSES};
    use cardtables::{Card, HoldemThreeWay};

    fn class(name: &str) -> u8 {
        cardtables::holdem::class_of_text(name).unwrap() as u8
    }

    #[test]
    fn triples_are_listed_in_the_runtime_table_order() {
        let classes = [0u8, 5, 90, 168];
        let list = triples(&classes);
        assert_eq!(list.len(), 20);
        for (t, triple) in list.iter().enumerate() {
            let at = |c: u8| classes.iter().position(|&x| x == c).unwrap();
            let (i, j, k) = (at(triple[0]), at(triple[1]), at(triple[2]));
            assert!(i <= j && j <= k);
            assert_eq!(
                cardtables::holdem_threeway::triples(k) + (j + 1) * j / 2 + i,
                t
            );
        }
        assert_eq!(
            triples(&(0..CLASSES as u8).collect::<Vec<_>>()).len(),
            818_805
        );
    }

    /// The counts of a triple against a direct count: every deal of the three classes'
    /// combinations, every board, each hand evaluated on its own.
    #[test]
    #[cfg_attr(
        debug_assertions,
        ignore = "about 10^8 evaluations: run with --release"
    )]
    fn a_triple_agrees_with_a_direct_count() {
        use crate::games::holdem::eval::evaluate;
        let (a, b, c) = (class("AA"), class("KK"), class("72s"));
        let r = solve([a, b, c]);
        let combos = |k: u8| -> Vec<[Card; 2]> {
            let mut v = vec![];
            for x in 0..52u8 {
                for y in x + 1..52 {
                    let (p, q) = (Card::from_id(x).unwrap(), Card::from_id(y).unwrap());
                    if class_of(p, q) == usize::from(k) {
                        v.push([p, q]);
                    }
                }
            }
            v
        };
        let (mut deals, mut wins, mut ties, mut sixtieths) =
            (0u32, [0u64; 3], [0u64; 3], [0u64; 3]);
        for x in combos(a) {
            for y in combos(b) {
                for z in combos(c) {
                    let holes = [x, y, z];
                    let used: Vec<Card> = holes.iter().flatten().copied().collect();
                    if (1..6).any(|i| used[..i].contains(&used[i])) {
                        continue;
                    }
                    deals += 1;
                    let deck: Vec<Card> = (0..52)
                        .map(|i| Card::from_id(i).unwrap())
                        .filter(|c| !used.contains(c))
                        .collect();
                    let n = deck.len();
                    for p in 0..n {
                        for q in p + 1..n {
                            for u in q + 1..n {
                                for v in u + 1..n {
                                    for w in v + 1..n {
                                        let board = [deck[p], deck[q], deck[u], deck[v], deck[w]];
                                        let strength: [u16; 3] = std::array::from_fn(|s| {
                                            let [h0, h1] = holes[s];
                                            let [b0, b1, b2, b3, b4] = board;
                                            evaluate(&[h0, h1, b0, b1, b2, b3, b4])
                                        });
                                        let best = *strength.iter().max().unwrap();
                                        let winners =
                                            strength.iter().filter(|&&s| s == best).count() as u64;
                                        for s in 0..3 {
                                            if strength[s] == best {
                                                sixtieths[s] += 60 / winners;
                                                if winners == 1 {
                                                    wins[s] += 1;
                                                } else {
                                                    ties[s] += 1;
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(r.deals, deals);
        assert_eq!(r.wins, wins);
        assert_eq!(r.ties, ties);
        let showdowns = u64::from(deals) * BOARDS;
        for (equity, sixtieths) in r.equity.iter().zip(sixtieths) {
            assert_eq!(*equity, sixtieths as f64 / 60.0 / showdowns as f64);
        }
    }

    #[test]
    fn impossible_triples_have_no_deal_and_equal_classes_equal_equity() {
        let aa = class("AA");
        let none = solve([aa, aa, aa]);
        assert_eq!(none.deals, 0);
        check([aa, aa, aa], &none).unwrap();
        let kk = class("KK");
        let r = solve([aa, kk, kk]);
        // AA in 6 ways; the first KK takes 2 of the 4 kings (6 ways), the second the
        // other two.
        assert_eq!(r.deals, 6 * 6);
        assert_eq!(r.equity[1], r.equity[2]);
        assert_eq!(r.wins[1], r.wins[2]);
        check([aa, kk, kk], &r).unwrap();
        assert!(check([aa, kk, aa], &r).is_err());
    }

    /// The runtime table answers in any order what `solve` computed.
    #[test]
    fn the_runtime_table_answers_any_order() {
        let classes = vec![class("AA"), class("AKs"), class("T9s")];
        let results: Vec<TripleResult> = triples(&classes).into_iter().map(solve).collect();
        let bytes = HoldemThreeWay::to_bytes(1, &payload(&classes, &results, "")).unwrap();
        let table = HoldemThreeWay::from_bytes(bytes).unwrap();
        let r = results
            .iter()
            .find(|r| r.classes == [class("AA"), class("AKs"), class("T9s")])
            .unwrap();
        let got = table.equity("T9s", "AA", "AKs").unwrap();
        assert_eq!(got.combos, r.deals);
        assert_eq!(got.equities(), [r.equity[2], r.equity[0], r.equity[1]]);
    }

    use super::super::tables::threeway_payload as payload;
}
