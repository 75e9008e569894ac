//! O(1) Texas Hold'em preflop answers from a `holdem.bin` table: the exact equity of each
//! of the 169 starting-hand classes against random opponents.

use serde::{Deserialize, Serialize};

use crate::card::{Card, CardError, RANK_CHARS};
use crate::format::{self, Game, TableError, TableHeader};

/// Number of starting-hand classes.
pub const CLASSES: usize = 169;

/// The payload of a Hold'em table file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HoldemPayload {
    pub rules: String,
    /// Opponent counts covered: 1..=max_opponents.
    pub max_opponents: u8,
    /// `[(opponents − 1) · 169 + class]`.
    #[serde(deserialize_with = "format::bounded_vec")]
    pub win: Vec<f64>,
    #[serde(deserialize_with = "format::bounded_vec")]
    pub tie: Vec<f64>,
    #[serde(deserialize_with = "format::bounded_vec")]
    pub equity: Vec<f64>,
    #[serde(deserialize_with = "format::bounded_vec")]
    pub std_error: Vec<f64>,
}

/// A class's result against some number of opponents.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HoldemEquity {
    /// The class index (pairs AA…22, then suited AK…32, then offsuit).
    pub class_index: usize,
    pub opponents: usize,
    pub win: f64,
    pub tie: f64,
    pub equity: f64,
    pub std_error: f64,
}

/// Why a preflop question could not be answered.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum HoldemQueryError {
    #[error(transparent)]
    Cards(#[from] CardError),
    #[error("{0:?} is not a starting hand: write a class (AA, AKs, AKo) or two cards (As Kd)")]
    NotAHand(String),
    #[error("{asked} opponents is not covered: this table answers for 1 to {max}")]
    Opponents { asked: usize, max: usize },
    #[error("class {0} does not exist: classes are 0 to 168")]
    Class(usize),
}

/// A loaded, validated Hold'em table.
#[derive(Clone, Debug)]
pub struct Holdem {
    header: TableHeader,
    payload: HoldemPayload,
}

format::table_file!(Holdem, HoldemPayload, Game::Holdem);

impl Holdem {
    pub fn max_opponents(&self) -> usize {
        usize::from(self.payload.max_opponents)
    }

    /// Exact (or estimated, with its standard error) result of a class against
    /// `opponents` random hands, in O(1).
    pub fn preflop(
        &self,
        hand: impl HandClass,
        opponents: usize,
    ) -> Result<HoldemEquity, HoldemQueryError> {
        let class = hand.class_index().map_err(HoldemQueryError::NotAHand)?;
        let max = self.max_opponents();
        if opponents == 0 || opponents > max {
            return Err(HoldemQueryError::Opponents {
                asked: opponents,
                max,
            });
        }
        if class >= CLASSES {
            return Err(HoldemQueryError::Class(class));
        }
        let k = (opponents - 1) * CLASSES + class;
        let p = &self.payload;
        Ok(HoldemEquity {
            class_index: class,
            opponents,
            win: p.win[k],
            tie: p.tie[k],
            equity: p.equity[k],
            std_error: p.std_error[k],
        })
    }
}

/// A starting hand as the hold'em tables' questions take it, in Rust as in C and Python:
/// a class index (`usize`: pairs AA…22 = 0…12, then suited AK…32, then offsuit), a class
/// name (`"AKs"`, `"qq"`, `"T9o"`) or two cards (`"As Kd"`).
pub trait HandClass {
    /// The class index, or the text that names no hand. A `usize` is passed through
    /// (the question checks its range).
    fn class_index(&self) -> Result<usize, String>;
}

impl HandClass for usize {
    fn class_index(&self) -> Result<usize, String> {
        Ok(*self)
    }
}

impl HandClass for &str {
    fn class_index(&self) -> Result<usize, String> {
        class_of_text(self).map_err(|_| self.to_string())
    }
}

impl HandClass for &String {
    fn class_index(&self) -> Result<usize, String> {
        self.as_str().class_index()
    }
}

/// Checks a table's list of covered classes: not empty, increasing class indices below 169
/// (so a class is found by binary search).
pub(crate) fn check_class_list(classes: &[u8]) -> Result<(), crate::format::TableError> {
    if classes.is_empty()
        || classes.windows(2).any(|w| w[0] >= w[1])
        || classes.iter().any(|&c| usize::from(c) >= CLASSES)
    {
        return Err(crate::format::TableError::Invalid(
            "classes must be increasing class indices below 169".into(),
        ));
    }
    Ok(())
}

/// Class index (pairs AA…22, then suited AK…32, then offsuit) of a hand given as a class
/// name (`AKs`, `qq`, `T9o`) or as two cards (`As Kd`).
pub fn class_of_text(text: &str) -> Result<usize, HoldemQueryError> {
    if let Ok(cards) = crate::card::parse_exact(text, 2) {
        return Ok(class_of(cards[0], cards[1]));
    }
    let t = text.trim().replace("10", "T").to_ascii_uppercase();
    let chars: Vec<char> = t.chars().collect();
    let rank = |c: Option<&char>| c.and_then(|c| RANK_CHARS.iter().position(|r| r == c));
    let bad = || HoldemQueryError::NotAHand(text.to_string());
    let (a, b) = (
        rank(chars.first()).ok_or_else(bad)?,
        rank(chars.get(1)).ok_or_else(bad)?,
    );
    let (hi, lo) = (a.max(b) as u8, a.min(b) as u8);
    let card = |r: u8, s: u8| Card::new(r, s).expect("valid card");
    match (hi == lo, chars.get(2), chars.len()) {
        (true, None, 2) => Ok(class_of(card(hi, 0), card(lo, 1))),
        (false, Some('S'), 3) => Ok(class_of(card(hi, 0), card(lo, 0))),
        (false, Some('O'), 3) => Ok(class_of(card(hi, 0), card(lo, 1))),
        _ => Err(bad()),
    }
}

/// Class index of two distinct cards.
pub fn class_of(a: Card, b: Card) -> usize {
    let (hi, lo) = if a.rank() >= b.rank() {
        (a.rank(), b.rank())
    } else {
        (b.rank(), a.rank())
    };
    if hi == lo {
        return usize::from(12 - hi);
    }
    let before: usize = (hi + 1..13).map(usize::from).sum();
    let k = before + usize::from(hi - 1 - lo);
    13 + k + if a.suit() == b.suit() { 0 } else { 78 }
}

fn validate(p: &HoldemPayload) -> Result<(), TableError> {
    let n = usize::from(p.max_opponents);
    if n == 0 || n > 9 {
        return Err(TableError::Invalid(format!(
            "max_opponents {n} outside 1..=9"
        )));
    }
    let cells = CLASSES * n;
    if [p.win.len(), p.tie.len(), p.equity.len(), p.std_error.len()]
        .iter()
        .any(|&l| l != cells)
    {
        return Err(TableError::Invalid(format!(
            "arrays must hold {cells} cells"
        )));
    }
    let probability = |x: f64| (0.0..=1.0).contains(&x);
    let valid = |k: usize| {
        probability(p.win[k])
            && probability(p.tie[k])
            && probability(p.equity[k])
            && p.std_error[k] >= 0.0
            && p.std_error[k].is_finite()
    };
    if !(0..cells).all(valid) {
        return Err(TableError::Invalid(
            "a probability lies outside [0, 1]".into(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_from_names_and_cards() {
        assert_eq!(class_of_text("AA"), Ok(0));
        assert_eq!(class_of_text("AKs"), Ok(13));
        assert_eq!(class_of_text("As Ks"), Ok(13));
        assert_eq!(class_of_text("Kd As"), Ok(13 + 78));
        assert_eq!(class_of_text("32o"), Ok(168));
        assert!(class_of_text("AKx").is_err());
        assert!(class_of_text("As As").is_err());
    }

    #[test]
    fn round_trip_and_bounds() {
        let p = HoldemPayload {
            rules: String::new(),
            max_opponents: 1,
            win: vec![0.5; CLASSES],
            tie: vec![0.01; CLASSES],
            equity: vec![0.505; CLASSES],
            std_error: vec![0.0; CLASSES],
        };
        let t = Holdem::from_bytes(Holdem::to_bytes(1, &p).unwrap()).unwrap();
        assert_eq!(t.preflop(0, 1).unwrap().equity, 0.505);
        assert_eq!(
            t.preflop(0, 2),
            Err(HoldemQueryError::Opponents { asked: 2, max: 1 })
        );
        let mut bad = p.clone();
        bad.win[3] = 2.0;
        assert!(Holdem::to_bytes(1, &bad).is_err());
    }
}
