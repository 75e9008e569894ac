//! O(1) Texas Hold'em heads-up answers from a `holdem_headsup.bin` table: the exact all-in
//! result of any two starting hands over every board, by combo (two exact hands) or by
//! class (AKs against QQ, averaged over the combos that do not share a card).

use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::format::{self, Game, TableError, TableHeader};
use crate::holdem::{HandClass, CLASSES};

/// Two-card sets: C(52, 2).
pub const COMBOS: usize = 1326;

/// The payload of a heads-up table file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeadsUpPayload {
    pub rules: String,
    /// Boards per matchup: C(48, 5).
    pub boards: u32,
    /// Matchup classes (equal up to suit permutation and order), sorted by (a, b): each
    /// representative's two hands as colex indices of 2-card sets.
    #[serde(deserialize_with = "format::bounded_vec")]
    pub rep_a: Vec<u16>,
    #[serde(deserialize_with = "format::bounded_vec")]
    pub rep_b: Vec<u16>,
    /// Boards the first hand wins and ties, per matchup class.
    #[serde(deserialize_with = "format::bounded_vec")]
    pub wins: Vec<u32>,
    #[serde(deserialize_with = "format::bounded_vec")]
    pub ties: Vec<u32>,
    /// Equity of class a against class b, `[a · 169 + b]`.
    #[serde(deserialize_with = "format::bounded_vec")]
    pub class_equity: Vec<f64>,
}

/// The exact result of one hand against another.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeadsUpResult {
    pub wins: u32,
    pub ties: u32,
    pub losses: u32,
    pub boards: u32,
    pub equity: f64,
}

/// Why a heads-up question could not be answered.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum HeadsUpQueryError {
    #[error("the two hands share a card")]
    SharedCard,
    #[error("this table has no entry for the matchup (is it complete?)")]
    Missing,
    #[error("class {0} does not exist: classes are 0 to 168")]
    Class(usize),
    #[error("{0:?} is not a starting hand: give a class (AKs, QQ, T9o) or two cards (As Kd)")]
    NotAHand(String),
    #[error(
        "no holding of the first range can be dealt beside one of the second (they share cards)"
    )]
    NoMatchup,
    /// Every matchup's product of weights rounds to 0.
    #[error("the range weights are too far apart to weigh the matchups against each other (every product rounds to 0)")]
    Underflow,
}

/// Two ranges against each other over every board (C `ct_range_equity`, Python
/// `RangeEquity`): each pair of holdings that share no card weighs the product of their
/// weights, and every board the same.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RangeEquity {
    /// The first range's equity: its wins plus half the ties (the second's is `1 − equity`).
    pub equity: f64,
    /// The first range's share of boards won outright, and of boards tied.
    pub win: f64,
    pub tie: f64,
    /// Pairs of disjoint holdings counted (each once, whatever its weight).
    pub matchups: u64,
}

/// A loaded, validated heads-up table.
#[derive(Clone, Debug)]
pub struct HoldemHeadsUp {
    header: TableHeader,
    payload: HeadsUpPayload,
}

fn validate(p: &HeadsUpPayload) -> Result<(), TableError> {
    let n = p.rep_a.len();
    if [p.rep_b.len(), p.wins.len(), p.ties.len()]
        .iter()
        .any(|&l| l != n)
    {
        return Err(TableError::Invalid(
            "matchup arrays differ in length".into(),
        ));
    }
    if p.class_equity.len() != CLASSES * CLASSES {
        return Err(TableError::Invalid(format!(
            "class matrix must hold {} cells",
            CLASSES * CLASSES
        )));
    }
    let reps: Vec<(u16, u16)> = p
        .rep_a
        .iter()
        .copied()
        .zip(p.rep_b.iter().copied())
        .collect();
    if reps.windows(2).any(|w| w[0] >= w[1])
        || reps
            .iter()
            .any(|&(a, b)| usize::from(a) >= COMBOS || usize::from(b) >= COMBOS)
    {
        return Err(TableError::Invalid(
            "matchups must be sorted, distinct 2-card set indices".into(),
        ));
    }
    if p.wins
        .iter()
        .zip(&p.ties)
        .any(|(&w, &t)| u64::from(w) + u64::from(t) > u64::from(p.boards))
    {
        return Err(TableError::Invalid(
            "a matchup counts more boards than exist".into(),
        ));
    }
    Ok(())
}

format::table_file!(HoldemHeadsUp, HeadsUpPayload, Game::HoldemHeadsUp);

/// Colex index of the 2-card set {x, y}.
fn pair_index(x: Card, y: Card) -> u16 {
    let (lo, hi) = if x.id() < y.id() {
        (x.id(), y.id())
    } else {
        (y.id(), x.id())
    };
    (u16::from(lo)) + u16::from(hi) * (u16::from(hi) - 1) / 2
}

impl HoldemHeadsUp {
    /// Boards counted per matchup: C(48, 5) = 1,712,304.
    pub fn boards(&self) -> u32 {
        self.payload.boards
    }

    /// Number of matchup classes in the table.
    pub fn matchups(&self) -> usize {
        self.payload.rep_a.len()
    }

    /// The exact result of hand `a` against hand `b`: the matchup's class is found by
    /// renaming suits (24 ways) and swapping the hands, then by binary search. Each hand
    /// is two [`Card`]s or their text (see [`TwoCards`]).
    pub fn cards(
        &self,
        a: impl TwoCards,
        b: impl TwoCards,
    ) -> Result<HeadsUpResult, HeadsUpQueryError> {
        let a = a.two_cards().map_err(HeadsUpQueryError::NotAHand)?;
        let b = b.two_cards().map_err(HeadsUpQueryError::NotAHand)?;
        if a[0] == a[1] || b[0] == b[1] || a.iter().any(|c| b.contains(c)) {
            return Err(HeadsUpQueryError::SharedCard);
        }
        let mut best: Option<((u16, u16), bool)> = None;
        for p in PERMUTATIONS {
            let rename = |c: Card| {
                Card::new(c.rank(), p[usize::from(c.suit())]).expect("rank and suit stay valid")
            };
            let x = pair_index(rename(a[0]), rename(a[1]));
            let y = pair_index(rename(b[0]), rename(b[1]));
            for (key, swapped) in [((x, y), false), ((y, x), true)] {
                if best.is_none_or(|(k, _)| key < k) {
                    best = Some((key, swapped));
                }
            }
        }
        let (key, swapped) = best.expect("24 permutations");
        let p = &self.payload;
        // Binary search over the sorted (rep_a, rep_b) pairs.
        let (mut lo, mut hi) = (0, p.rep_a.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            if (p.rep_a[mid], p.rep_b[mid]) < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if lo == p.rep_a.len() || (p.rep_a[lo], p.rep_b[lo]) != key {
            return Err(HeadsUpQueryError::Missing);
        }
        let i = lo;
        let (w, t) = (p.wins[i], p.ties[i]);
        let l = p.boards - w - t;
        let (wins, losses) = if swapped { (l, w) } else { (w, l) };
        Ok(HeadsUpResult {
            wins,
            ties: t,
            losses,
            boards: p.boards,
            equity: (f64::from(wins) + f64::from(t) / 2.0) / f64::from(p.boards),
        })
    }

    /// Range `a` against range `b` over every board, exact: a sum over every pair of
    /// holdings that share no card (|a| · |b| lookups, each as [`HoldemHeadsUp::cards`]).
    pub fn range_equity(
        &self,
        a: &crate::range::Range,
        b: &crate::range::Range,
    ) -> Result<RangeEquity, HeadsUpQueryError> {
        // Each range's weights over its heaviest: the answer is the same, and products
        // of tiny weights (1e-200 each) do not underflow to 0.
        let top = |r: &crate::range::Range| r.holdings().map(|(_, w)| w).fold(0.0, f64::max);
        let (top_a, top_b) = (top(a), top(b));
        let second: Vec<([Card; 2], f64)> = b.holdings().map(|(h, w)| (h, w / top_b)).collect();
        let (mut weight, mut wins, mut ties, mut matchups) = (0.0, 0.0, 0.0, 0u64);
        for (x, wx) in a.holdings().map(|(h, w)| (h, w / top_a)) {
            for &(y, wy) in &second {
                if x.iter().any(|c| y.contains(c)) {
                    continue;
                }
                let r = self.cards(x, y)?;
                let w = wx * wy;
                weight += w;
                wins += w * f64::from(r.wins);
                ties += w * f64::from(r.ties);
                matchups += 1;
            }
        }
        if matchups == 0 {
            return Err(HeadsUpQueryError::NoMatchup);
        }
        if !(weight > 0.0 && weight.is_finite()) {
            return Err(HeadsUpQueryError::Underflow);
        }
        let boards = weight * f64::from(self.payload.boards);
        Ok(RangeEquity {
            equity: (wins + ties / 2.0) / boards,
            win: wins / boards,
            tie: ties / boards,
            matchups,
        })
    }

    /// Equity of class `a` against class `b`, each a class index, a class name or two
    /// cards (see [`HandClass`]).
    pub fn classes(&self, a: impl HandClass, b: impl HandClass) -> Result<f64, HeadsUpQueryError> {
        let a = a.class_index().map_err(HeadsUpQueryError::NotAHand)?;
        let b = b.class_index().map_err(HeadsUpQueryError::NotAHand)?;
        for class in [a, b] {
            if class >= CLASSES {
                return Err(HeadsUpQueryError::Class(class));
            }
        }
        Ok(self.payload.class_equity[a * CLASSES + b])
    }
}

/// Two hole cards as the heads-up table's questions take them, in Rust as in C and
/// Python: two [`Card`]s, or their text (`"As Ks"`, suits required).
pub trait TwoCards {
    /// The two cards, or the text that is not two cards.
    fn two_cards(&self) -> Result<[Card; 2], String>;
}

impl TwoCards for [Card; 2] {
    fn two_cards(&self) -> Result<[Card; 2], String> {
        Ok(*self)
    }
}

impl TwoCards for &str {
    fn two_cards(&self) -> Result<[Card; 2], String> {
        crate::card::parse_exact(self, 2)
            .map(|c| [c[0], c[1]])
            .map_err(|_| self.to_string())
    }
}

/// The 24 permutations of four suits.
const PERMUTATIONS: [[u8; 4]; 24] = {
    let mut out = [[0u8; 4]; 24];
    let mut n = 0;
    let mut a = 0;
    while a < 4 {
        let mut b = 0;
        while b < 4 {
            let mut c = 0;
            while c < 4 {
                if a != b && a != c && b != c {
                    out[n] = [a, b, c, 6 - a - b - c];
                    n += 1;
                }
                c += 1;
            }
            b += 1;
        }
        a += 1;
    }
    out
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_cards_are_taken_as_cards_or_text() {
        let cards = crate::card::parse_exact("As Ks", 2).unwrap();
        let pair = [cards[0], cards[1]];
        assert_eq!("As Ks".two_cards(), Ok(pair));
        assert_eq!("♠A ♠K".two_cards(), Ok(pair));
        assert_eq!(pair.two_cards(), Ok(pair));
        for bad in ["As", "As Ks Qs", "AK", "As As"] {
            assert_eq!(bad.two_cards(), Err(bad.to_string()), "{bad}");
        }
    }
}
