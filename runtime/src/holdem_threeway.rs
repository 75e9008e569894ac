//! O(1) Texas Hold'em three-way answers from a `holdem_threeway.bin` table: the exact
//! all-in equity of three starting-hand classes against each other (AKs against QQ
//! against JTs), averaged over every deal of their combinations that share no card and
//! every board.
//!
//! A table covers the triples of a list of classes (all 169 for the full job, a few for a
//! quick one). Each triple is stored once, its classes in increasing class index; a
//! question in any order is answered in the order asked.

use serde::{Deserialize, Serialize};

use crate::format::{self, Game, TableError, TableHeader};
use crate::holdem::{HandClass, CLASSES};

/// Most deals of three holdings of given classes: 12 combinations each.
pub const MAX_DEALS: u32 = 12 * 12 * 12;

/// The payload of a three-way table file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ThreeWayPayload {
    pub rules: String,
    /// The classes covered, increasing class indices: the table holds every triple of
    /// them (with repeats).
    #[serde(deserialize_with = "format::bounded_vec")]
    pub classes: Vec<u8>,
    /// Deals of the triple's holdings that share no card, per triple (0: the cards do not
    /// allow the triple, as AA AA AA). Triples of covered positions `i ≤ j ≤ k` are at
    /// `C(k + 2, 3) + C(j + 1, 2) + i`.
    #[serde(deserialize_with = "format::bounded_vec")]
    pub deals: Vec<u32>,
    /// Equity of the three classes, in increasing class index, `[3 · triple + seat]`.
    #[serde(deserialize_with = "format::bounded_vec")]
    pub equity: Vec<f64>,
}

/// Three classes' exact equities against each other, in the order asked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ThreeWayResult {
    pub equity_a: f64,
    pub equity_b: f64,
    pub equity_c: f64,
    /// Deals of the three classes' holdings that share no card (each weighs the same).
    pub combos: u32,
}

impl ThreeWayResult {
    /// The three equities, in the order asked.
    pub fn equities(&self) -> [f64; 3] {
        [self.equity_a, self.equity_b, self.equity_c]
    }
}

/// Why a three-way question could not be answered.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ThreeWayQueryError {
    #[error("class {0} does not exist: classes are 0 to 168")]
    Class(usize),
    #[error("{0:?} is not a starting hand: give a class (AKs, QQ, T9o) or two cards (As Kd)")]
    NotAHand(String),
    #[error("this table does not cover class {0}: it was computed for a list of classes (see its rules)")]
    NotCovered(usize),
    #[error("no deal gives the three classes holdings that share no card")]
    Impossible,
}

/// Triples (with repeats) of `n` classes: C(n + 2, 3).
pub const fn triples(n: usize) -> usize {
    (n + 2) * (n + 1) * n / 6
}

/// Where the triple of covered positions `i ≤ j ≤ k` is stored.
fn triple_index(i: usize, j: usize, k: usize) -> usize {
    triples(k) + (j + 1) * j / 2 + i
}

/// A loaded, validated three-way table.
#[derive(Clone, Debug)]
pub struct HoldemThreeWay {
    header: TableHeader,
    payload: ThreeWayPayload,
}

fn validate(p: &ThreeWayPayload) -> Result<(), TableError> {
    let invalid = |what: &str| Err(TableError::Invalid(what.into()));
    crate::holdem::check_class_list(&p.classes)?;
    let n = triples(p.classes.len());
    if p.deals.len() != n || p.equity.len() != 3 * n {
        return invalid("deals and equities must hold one entry (three equities) per triple");
    }
    for (t, &deals) in p.deals.iter().enumerate() {
        let e = &p.equity[3 * t..3 * t + 3];
        if deals > MAX_DEALS {
            return invalid("a triple counts more deals than three classes have");
        }
        let ok = if deals == 0 {
            e.iter().all(|x| *x == 0.0)
        } else {
            e.iter().all(|x| (0.0..=1.0).contains(x)) && (e.iter().sum::<f64>() - 1.0).abs() < 1e-9
        };
        if !ok {
            return invalid(
                "a triple's equities must lie in [0, 1] and sum to 1 (0 where no deal exists)",
            );
        }
    }
    Ok(())
}

format::table_file!(HoldemThreeWay, ThreeWayPayload, Game::HoldemThreeWay);

impl HoldemThreeWay {
    /// The class indices covered, increasing.
    pub fn classes(&self) -> &[u8] {
        &self.payload.classes
    }

    /// Number of triples stored (the possible and the impossible ones).
    pub fn triples(&self) -> usize {
        self.payload.deals.len()
    }

    /// The exact equities of classes `a`, `b` and `c` against each other, in that order
    /// (each a class index, a class name or two cards, see [`HandClass`]), and the deals
    /// of their holdings counted.
    pub fn equity(
        &self,
        a: impl HandClass,
        b: impl HandClass,
        c: impl HandClass,
    ) -> Result<ThreeWayResult, ThreeWayQueryError> {
        let mut asked = [0usize; 3];
        for (slot, hand) in
            asked
                .iter_mut()
                .zip([a.class_index(), b.class_index(), c.class_index()])
        {
            let class = hand.map_err(ThreeWayQueryError::NotAHand)?;
            if class >= CLASSES {
                return Err(ThreeWayQueryError::Class(class));
            }
            *slot = class;
        }
        let mut at = [0usize; 3];
        for (p, &class) in at.iter_mut().zip(&asked) {
            *p = self
                .payload
                .classes
                .binary_search(&(class as u8))
                .map_err(|_| ThreeWayQueryError::NotCovered(class))?;
        }
        // Seats sorted by covered position (the stored order), stably.
        let mut order = [0usize, 1, 2];
        order.sort_by_key(|&s| at[s]);
        let t = triple_index(at[order[0]], at[order[1]], at[order[2]]);
        let deals = self.payload.deals[t];
        if deals == 0 {
            return Err(ThreeWayQueryError::Impossible);
        }
        let stored = &self.payload.equity[3 * t..3 * t + 3];
        let mut equity = [0.0; 3];
        for (rank, &seat) in order.iter().enumerate() {
            equity[seat] = stored[rank];
        }
        Ok(ThreeWayResult {
            equity_a: equity[0],
            equity_b: equity[1],
            equity_c: equity[2],
            combos: deals,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn payload(classes: Vec<u8>) -> ThreeWayPayload {
        let n = triples(classes.len());
        ThreeWayPayload {
            rules: String::new(),
            classes,
            deals: (0..n as u32).map(|t| 1 + t % MAX_DEALS).collect(),
            // Distinct equities per triple and seat that sum to 1.
            equity: (0..n)
                .flat_map(|t| {
                    let x = t as f64 / n as f64 / 2.0;
                    [x, 0.25, 0.75 - x]
                })
                .collect(),
        }
    }

    #[test]
    fn triple_indices_are_dense() {
        let mut seen = vec![false; triples(5)];
        for k in 0..5 {
            for j in 0..=k {
                for i in 0..=j {
                    let t = triple_index(i, j, k);
                    assert!(!seen[t]);
                    seen[t] = true;
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(triples(169), 818_805);
    }

    #[test]
    fn any_order_gives_the_same_triple_permuted() {
        let table = HoldemThreeWay::from_bytes(
            HoldemThreeWay::to_bytes(1, &payload(vec![0, 13, 40, 168])).unwrap(),
        )
        .unwrap();
        let r = table.equity("AKs", "AA", "32o").unwrap();
        let s = table.equity(168usize, 0usize, 13usize).unwrap();
        assert_eq!(r.combos, s.combos);
        let (e, f) = (r.equities(), s.equities());
        assert_eq!([e[0], e[1], e[2]], [f[2], f[1], f[0]]);
        assert!((e.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert_eq!(
            table.equity("AA", "KK", "QQ"),
            Err(ThreeWayQueryError::NotCovered(1))
        );
        assert_eq!(
            table.equity(169usize, 0usize, 0usize),
            Err(ThreeWayQueryError::Class(169))
        );
        assert_eq!(
            table.equity("AX", "AA", "AA"),
            Err(ThreeWayQueryError::NotAHand("AX".into()))
        );
    }

    #[test]
    fn bad_payloads_are_refused() {
        let good = payload(vec![0, 1]);
        let mut unsorted = good.clone();
        unsorted.classes = vec![1, 0];
        let mut short = good.clone();
        short.deals.pop();
        let mut sum = good.clone();
        sum.equity[0] += 0.5;
        let mut nan = good.clone();
        nan.equity[1] = f64::NAN;
        let mut many = good.clone();
        many.deals[0] = MAX_DEALS + 1;
        for bad in [unsorted, short, sum, nan, many] {
            assert!(HoldemThreeWay::to_bytes(1, &bad).is_err());
        }
        assert!(HoldemThreeWay::to_bytes(1, &good).is_ok());
    }
}
