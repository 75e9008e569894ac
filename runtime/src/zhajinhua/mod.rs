//! O(1) answers for Zhajinhua (炸金花) from a `zhajinhua.bin` table written by `pipeline`.
//!
//! For each of the C(52,3) = 22,100 hands (colex index): category, strength, whether it is
//! the off-suit 2-3-5 that beats trips under `special_235`, and for 1..=`max_opponents`
//! opponents dealt from the 49 unseen cards: P(win), P(tie), equity and the standard error
//! (0 for exact values, positive for Monte Carlo estimates). Also, exactly, the equity
//! against one and two opponents who hold only the strongest share of hands, any share
//! (a calling range, [`Zhajinhua::calling_range`], computed from the table's strengths
//! and rules; see [`range`]).

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

use crate::card::{Card, CardError};
use crate::colex;
use crate::format::{self, Game, Layout, TableError, TableHeader};

pub mod range;
pub use range::{LevelSums, RangeCurve};

/// Number of 3-card hands.
pub const HANDS: usize = 22_100;
/// Most opponents any table may cover (a 52-card deck deals at most 16 hands of three).
pub const OPPONENTS_LIMIT: usize = 9;
/// Opponent counts the range equities cover: 1 and 2.
pub const RANGE_OPPONENTS: usize = 2;

/// The payload of a Zhajinhua table file. Per-opponent arrays are laid out as
/// `[(opponents − 1) · HANDS + hand]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ZhajinhuaPayload {
    /// The `[rules]` the table was computed under, as TOML.
    pub rules: String,
    /// Category names, weakest first.
    #[serde(deserialize_with = "format::bounded_vec")]
    pub categories: Vec<String>,
    /// Opponent counts covered: 1..=max_opponents.
    pub max_opponents: u8,
    #[serde(deserialize_with = "format::bounded_vec")]
    pub category: Vec<u8>,
    #[serde(deserialize_with = "format::bounded_vec")]
    pub strength: Vec<u16>,
    #[serde(deserialize_with = "format::bounded_vec")]
    pub beats_trips: Vec<bool>,
    #[serde(deserialize_with = "format::bounded_vec")]
    pub win: Vec<f64>,
    #[serde(deserialize_with = "format::bounded_vec")]
    pub tie: Vec<f64>,
    #[serde(deserialize_with = "format::bounded_vec")]
    pub equity: Vec<f64>,
    #[serde(deserialize_with = "format::bounded_vec")]
    pub std_error: Vec<f64>,
    /// Each hand's suit class (hands equal up to renaming suits share every figure).
    #[serde(deserialize_with = "format::bounded_vec")]
    pub suit_class: Vec<u16>,
    /// The rules a calling range is priced under: whether an exact tie heads-up is lost
    /// by us (`ties = "caller_loses"`) instead of split, and whether a showdown of three
    /// compares every hand at once in the ordinary order with split ties
    /// (`showdown = "simultaneous"`) instead of two at a time under the heads-up rules.
    pub caller_loses: bool,
    pub simultaneous_showdown: bool,
}

/// What the table says about one hand against some number of opponents.
#[derive(Clone, Debug, PartialEq)]
pub struct ZhajinhuaHand<'a> {
    /// The hand's colex index among the 22,100 three-card hands (`hand_index` in the
    /// Parquet tables), as [`hand_index`] computes it.
    pub index: u32,
    /// Category name, e.g. `pair` or `straight_flush`.
    pub category: &'a str,
    /// Its position in [`Zhajinhua::categories`] (0 = weakest).
    pub category_rank: u8,
    /// Rank among all hands under the table's rules: larger wins (see
    /// [`Zhajinhua::compare`] for the 2-3-5 exception).
    pub strength: u16,
    /// The number of opponents these figures are against.
    pub opponents: usize,
    /// Probability of beating every opponent (against two or more, as the table's
    /// `showdown` rule compares hands: two at a time, or all at once in the ordinary order).
    pub win: f64,
    /// Probability of tying for best (sharing the pot).
    pub tie: f64,
    /// `1 − win − tie`.
    pub loss: f64,
    /// Share of the pot: wins plus split ties (ties count 0 under `caller_loses`).
    pub equity: f64,
    /// Standard error of the figures: 0 where they are exact, else the Monte Carlo error.
    pub std_error: f64,
}

/// A loaded, validated Zhajinhua table.
///
/// Held in memory in lookup order rather than as its payload: a hand's facts in one small
/// record, and each (opponents, hand) cell's four figures side by side in one aligned
/// 32-byte record, so a lookup reads two cache lines instead of six arrays.
#[derive(Clone, Debug)]
pub struct Zhajinhua {
    header: TableHeader,
    rules: String,
    categories: Vec<String>,
    max_opponents: u8,
    /// Per hand, by colex index.
    facts: Vec<Facts>,
    /// Per `(opponents − 1) · HANDS + hand`.
    cells: Vec<Figures>,
    /// As in the payload.
    caller_loses: bool,
    simultaneous_showdown: bool,
    /// Each hand's card ids, increasing.
    ids: Vec<[u8; 3]>,
    /// Hands strongest first, and where each level of equal strength ends in that list.
    ranked: Vec<u16>,
    level_end: Vec<u32>,
}

/// What the table stores about one hand, whatever the opponents.
#[derive(Clone, Copy, Debug)]
struct Facts {
    strength: u16,
    suit_class: u16,
    category: u8,
    beats_trips: bool,
}

/// One hand's figures against one number of opponents.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
struct Figures {
    win: f64,
    tie: f64,
    equity: f64,
    std_error: f64,
}

/// Why a question could not be answered.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum QueryError {
    #[error(transparent)]
    Cards(#[from] CardError),
    #[error("{asked} opponents is not covered: this table answers for 1 to {max}")]
    Opponents { asked: usize, max: usize },
    #[error("a calling range of share {0} is not a range: shares run from above 0 to 1")]
    Share(f64),
    #[error(
        "no hand in the top {0} of hands is disjoint from this hand: the range cannot be dealt"
    )]
    EmptyRange(f64),
    #[error("hand index {0} is out of range: indices run from 0 to 22099")]
    Index(u32),
}

format::table_file!(Zhajinhua, ZhajinhuaPayload, Game::Zhajinhua, build = build);

/// Reads, validates and lays out the payload of a file of `version`.
fn build(header: TableHeader, payload: &[u8]) -> Result<Zhajinhua, TableError> {
    let p = read_payload(header.format_version, payload)?;
    validate(&p)?;
    let facts = (0..HANDS)
        .map(|i| Facts {
            strength: p.strength[i],
            suit_class: p.suit_class[i],
            category: p.category[i],
            beats_trips: p.beats_trips[i],
        })
        .collect();
    let cells = (0..p.win.len())
        .map(|k| Figures {
            win: p.win[k],
            tie: p.tie[k],
            equity: p.equity[k],
            std_error: p.std_error[k],
        })
        .collect();
    let ids = (0..HANDS as u32)
        .map(|i| {
            let mut cards = [Card::from_id(0).expect("card 0"); 3];
            colex::unrank(i, 3, &mut cards);
            cards.map(Card::id)
        })
        .collect();
    let (ranked, level_end) = range::levels(&p.strength);
    Ok(Zhajinhua {
        header,
        rules: p.rules,
        categories: p.categories,
        max_opponents: p.max_opponents,
        facts,
        cells,
        caller_loses: p.caller_loses,
        simultaneous_showdown: p.simultaneous_showdown,
        ids,
        ranked,
        level_end,
    })
}

/// The payload of a file of `version`, read field by field in its documented layout
/// (what [`format::decode`] reads, one bulk copy per array). Versions 4 and older price
/// calling ranges in whole percents (or not at all), so they are refused with what to do.
fn read_payload(version: u16, payload: &[u8]) -> Result<ZhajinhuaPayload, TableError> {
    if version < 5 {
        return Err(TableError::Invalid(format!(
            "a format version {version} Zhajinhua table holds no rules for pricing calling \
             ranges of any share: regenerate it with `pipeline run`"
        )));
    }
    let mut r = Layout::new(payload);
    // Fields in declaration order, as bincode writes them.
    let rules = r.string("rules")?;
    let categories = r.strings("categories")?;
    let max_opponents = r.u8("max_opponents")?;
    let category = r.u8s("category")?;
    let strength = r.u16s("strength")?;
    let beats_trips = r.bools("beats_trips")?;
    let win = r.f64s("win")?;
    let tie = r.f64s("tie")?;
    let equity = r.f64s("equity")?;
    let std_error = r.f64s("std_error")?;
    let suit_class = r.u16s("suit_class")?;
    let caller_loses = r.bool("caller_loses")?;
    let simultaneous_showdown = r.bool("simultaneous_showdown")?;
    r.finish()?;
    Ok(ZhajinhuaPayload {
        rules,
        categories,
        max_opponents,
        category,
        strength,
        beats_trips,
        win,
        tie,
        equity,
        std_error,
        suit_class,
        caller_loses,
        simultaneous_showdown,
    })
}

impl Zhajinhua {
    /// Category names, weakest first ([`ZhajinhuaHand::category`] is one of them).
    pub fn categories(&self) -> &[String] {
        &self.categories
    }

    /// Opponent counts covered: 1..=this.
    pub fn max_opponents(&self) -> usize {
        usize::from(self.max_opponents)
    }

    /// Category name of three distinct cards.
    pub fn category(&self, cards: &[Card]) -> Result<&str, CardError> {
        let i = hand_index(cards)? as usize;
        Ok(&self.categories[usize::from(self.facts[i].category)])
    }

    /// Strength of three distinct cards (larger wins; see [`Zhajinhua::compare`] for the
    /// 2-3-5 exception).
    pub fn strength(&self, cards: &[Card]) -> Result<u16, CardError> {
        Ok(self.facts[hand_index(cards)? as usize].strength)
    }

    /// The suit class of three distinct cards: hands equal up to renaming suits share a
    /// class and every figure (`suit_class` in the Parquet tables).
    pub fn suit_class(&self, cards: &[Card]) -> Result<u16, CardError> {
        Ok(self.facts[hand_index(cards)? as usize].suit_class)
    }

    /// How hand `a` fares against disjoint hand `b` (Greater = `a` wins).
    pub fn compare(&self, a: &[Card], b: &[Card]) -> Result<Ordering, CardError> {
        let (i, j) = (hand_index(a)? as usize, hand_index(b)? as usize);
        Ok(self.order(self.facts[i], self.facts[j]))
    }

    /// How a hand with facts `a` fares heads-up against one with facts `b`.
    fn order(&self, a: Facts, b: Facts) -> Ordering {
        let trips = (self.categories.len() - 1) as u8;
        if a.beats_trips && b.category == trips {
            Ordering::Greater
        } else if b.beats_trips && a.category == trips {
            Ordering::Less
        } else {
            a.strength.cmp(&b.strength)
        }
    }

    /// Win, tie, loss and equity of a hand against `opponents` players, in O(1).
    #[inline]
    pub fn win_rate(
        &self,
        cards: &[Card],
        opponents: usize,
    ) -> Result<ZhajinhuaHand<'_>, QueryError> {
        self.win_rate_at(hand_index(cards)?, opponents)
    }

    /// The same for the hand with colex index `index` (`hand_index` in the Parquet
    /// tables, as [`hand_index`] computes it), for callers that hold indices.
    #[inline]
    pub fn win_rate_at(
        &self,
        index: u32,
        opponents: usize,
    ) -> Result<ZhajinhuaHand<'_>, QueryError> {
        let i = index as usize;
        if i >= HANDS {
            return Err(QueryError::Index(index));
        }
        let max = self.max_opponents();
        if opponents == 0 || opponents > max {
            return Err(QueryError::Opponents {
                asked: opponents,
                max,
            });
        }
        let facts = self.facts[i];
        let f = self.cells[(opponents - 1) * HANDS + i];
        Ok(ZhajinhuaHand {
            index: i as u32,
            category: &self.categories[usize::from(facts.category)],
            category_rank: facts.category,
            strength: facts.strength,
            opponents,
            win: f.win,
            tie: f.tie,
            loss: 1.0 - f.win - f.tie,
            equity: f.equity,
            std_error: f.std_error,
        })
    }
}

/// Colex index of three distinct cards in any order.
#[inline]
pub fn hand_index(cards: &[Card]) -> Result<u32, CardError> {
    let three: [Card; 3] = cards.try_into().map_err(|_| CardError::WrongCount {
        expected: 3,
        found: cards.len(),
    })?;
    let [a, b, c] = colex::sort_cards(three);
    // Any repeated card is the middle one once sorted.
    if a == b || b == c {
        return Err(CardError::Duplicate { card: b });
    }
    Ok(colex::index_sorted(&[a, b, c]))
}

fn validate(p: &ZhajinhuaPayload) -> Result<(), TableError> {
    let invalid = |m: String| Err(TableError::Invalid(m));
    if p.categories.len() != 6 {
        return invalid(format!("{} categories, expected 6", p.categories.len()));
    }
    let per_hand = [p.category.len(), p.strength.len(), p.beats_trips.len()];
    if per_hand.iter().any(|&n| n != HANDS) {
        return invalid(format!(
            "per-hand arrays have lengths {per_hand:?}, expected {HANDS}"
        ));
    }
    let n = usize::from(p.max_opponents);
    if n == 0 || n > OPPONENTS_LIMIT {
        return invalid(format!(
            "max_opponents {n} is outside 1..={OPPONENTS_LIMIT}"
        ));
    }
    let cells = HANDS * n;
    let per_cell = [p.win.len(), p.tie.len(), p.equity.len(), p.std_error.len()];
    if per_cell.iter().any(|&n| n != cells) {
        return invalid(format!(
            "per-opponent arrays have lengths {per_cell:?}, expected {cells}"
        ));
    }
    if p.category.iter().any(|&c| c >= 6) {
        return invalid("a hand has a category beyond the 6".into());
    }
    let probability = |x: f64| (0.0..=1.0).contains(&x);
    if let Some(k) = (0..cells).find(|&k| {
        !(probability(p.win[k])
            && probability(p.tie[k])
            && probability(p.equity[k])
            && p.win[k] + p.tie[k] <= 1.0 + 1e-12
            && p.std_error[k].is_finite()
            && p.std_error[k] >= 0.0)
    }) {
        return invalid(format!("cell {k} holds probabilities outside [0, 1]"));
    }
    if p.suit_class.len() != HANDS {
        return invalid(format!(
            "{} suit classes given, expected one per hand",
            p.suit_class.len()
        ));
    }
    if p.suit_class.iter().any(|&c| usize::from(c) >= HANDS) {
        return invalid("a suit class number is beyond the hands".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_cards;

    const MAX_OPPONENTS: usize = 2;

    fn payload() -> ZhajinhuaPayload {
        let cells = HANDS * MAX_OPPONENTS;
        ZhajinhuaPayload {
            max_opponents: MAX_OPPONENTS as u8,
            rules: "a23 = \"lowest\"".into(),
            categories: [
                "high_card",
                "pair",
                "straight",
                "flush",
                "straight_flush",
                "trips",
            ]
            .iter()
            .map(|s| s.to_string())
            .collect(),
            category: (0..HANDS).map(|i| (i % 6) as u8).collect(),
            strength: (0..HANDS).map(|i| i as u16).collect(),
            beats_trips: vec![false; HANDS],
            win: (0..cells).map(|k| k as f64 / cells as f64 / 2.0).collect(),
            tie: vec![0.25; cells],
            equity: vec![0.5; cells],
            std_error: vec![0.0; cells],
            suit_class: (0..HANDS).map(|i| (i % 3) as u16).collect(),
            caller_loses: false,
            simultaneous_showdown: false,
        }
    }

    #[test]
    fn round_trip_and_lookups() {
        let bytes = Zhajinhua::to_bytes(9, &payload()).unwrap();
        let t = Zhajinhua::from_bytes(&bytes).unwrap();
        let hand = parse_cards("2d 2c 2h").unwrap(); // colex index 0
        let a = t.win_rate(&hand, 2).unwrap();
        assert_eq!((a.index, a.opponents, a.category), (0, 2, "high_card"));
        assert!((a.win - HANDS as f64 / (2 * HANDS) as f64 / 2.0).abs() < 1e-12);
        assert!((a.loss - (1.0 - a.win - 0.25)).abs() < 1e-12);
        assert_eq!(
            t.win_rate(&hand, 3),
            Err(QueryError::Opponents { asked: 3, max: 2 })
        );
        assert_eq!(
            t.win_rate(&hand, 0),
            Err(QueryError::Opponents { asked: 0, max: 2 })
        );
        let last = parse_cards("As Ah Ac").unwrap(); // the highest three ids
        assert_eq!(t.win_rate_at(22_099, 1), t.win_rate(&last, 1));
        assert_eq!(t.win_rate_at(22_100, 1), Err(QueryError::Index(22_100)));
        let other = parse_cards("As Ks Qs").unwrap();
        assert_eq!(t.compare(&other, &hand).unwrap(), Ordering::Greater);
        assert_eq!(t.suit_class(&hand), Ok(0));
        assert_eq!(t.range_equity(&hand, 2, 0.0), Err(QueryError::Share(0.0)));
        assert_eq!(t.range_equity(&hand, 1, 1.01), Err(QueryError::Share(1.01)));
        assert!(matches!(
            t.range_equity(&hand, 1, f64::NAN),
            Err(QueryError::Share(_))
        ));
        assert_eq!(
            t.range_equity(&hand, 3, 0.5),
            Err(QueryError::Opponents { asked: 3, max: 2 })
        );
    }

    #[test]
    fn the_layout_reader_reads_what_bincode_reads() {
        let mut p = payload();
        p.beats_trips[17] = true;
        p.rules = "a23 = \"second\" # ✓".into();
        format::check_layout_reader(&p, read_payload);
        // A bool that is neither 0 nor 1 is refused by both.
        let body = format::encode(&p).unwrap();
        // After beats_trips: four f64 arrays of 2 · HANDS, suit_class, two bools.
        let after = 4 * (8 + 8 * 2 * HANDS) + (8 + 2 * HANDS) + 2;
        let mut bad = body.clone();
        bad[body.len() - after - 1] = 2; // the last beats_trips entry
        assert!(read_payload(5, &bad).is_err());
        assert!(format::decode::<ZhajinhuaPayload>(&bad).is_err());
        let mut bad = body.clone();
        *bad.last_mut().unwrap() = 3; // simultaneous_showdown
        assert!(read_payload(5, &bad).is_err());
        assert!(format::decode::<ZhajinhuaPayload>(&bad).is_err());
        // A version 4 file priced ranges in whole percents: refused with what to do.
        let old = read_payload(4, &body).unwrap_err().to_string();
        assert!(old.contains("regenerate"), "{old}");
    }

    #[test]
    fn hand_index_sorts_three_cards_and_names_a_repeat() {
        let all: Vec<Card> = (0..52).map(|id| Card::from_id(id).unwrap()).collect();
        for (x, &a) in all.iter().enumerate().step_by(5) {
            for (y, &b) in all.iter().enumerate().skip(x + 1).step_by(3) {
                for &c in &all[y + 1..] {
                    let want = colex::index_of(&[a, b, c]);
                    for order in [
                        [a, b, c],
                        [a, c, b],
                        [b, a, c],
                        [b, c, a],
                        [c, a, b],
                        [c, b, a],
                    ] {
                        assert_eq!(hand_index(&order), Ok(want));
                    }
                }
            }
            assert_eq!(
                hand_index(&[a, all[51 - x], a]),
                Err(CardError::Duplicate { card: a })
            );
        }
        assert!(matches!(
            hand_index(&all[..2]),
            Err(CardError::WrongCount {
                expected: 3,
                found: 2
            })
        ));
    }

    #[test]
    fn invalid_payloads_are_refused() {
        let mut p = payload();
        p.win[5] = 1.5;
        assert!(matches!(
            Zhajinhua::to_bytes(1, &p),
            Err(TableError::Invalid(_))
        ));
        let mut p = payload();
        p.category.pop();
        assert!(matches!(
            Zhajinhua::to_bytes(1, &p),
            Err(TableError::Invalid(_))
        ));
        let mut p = payload();
        p.max_opponents = 3;
        assert!(matches!(
            Zhajinhua::to_bytes(1, &p),
            Err(TableError::Invalid(_))
        ));
        let mut p = payload();
        p.suit_class.pop();
        assert!(matches!(
            Zhajinhua::to_bytes(1, &p),
            Err(TableError::Invalid(_))
        ));
        let mut p = payload();
        p.suit_class[3] = u16::MAX;
        assert!(matches!(
            Zhajinhua::to_bytes(1, &p),
            Err(TableError::Invalid(_))
        ));
        let mut p = payload();
        p.category[0] = 6;
        let bytes = format::write_table(Game::Zhajinhua, 1, &p).unwrap();
        assert!(matches!(
            Zhajinhua::from_bytes(bytes),
            Err(TableError::Invalid(_))
        ));
    }
}
