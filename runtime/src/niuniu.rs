//! O(1) answers for Niuniu (斗牛) from a `niuniu.bin` table written by `pipeline`.
//!
//! The table holds, for each of the C(52,5) = 2,598,960 hands by colex index, the hand's
//! strength and its exact number of wins against one opponent dealt 5 of the 47 unseen
//! cards. Strength is `category_rank * 52 + high_card`, where the high card is ranked
//! K > Q > … > A then by suit ♠ > ♥ > ♣ > ♦; two disjoint hands never tie.

use serde::{Deserialize, Serialize};

use crate::card::{Card, CardError, CardSet};
use crate::colex;
use crate::format::{self, Game, TableError, TableHeader};

/// Number of 5-card hands.
pub const HANDS: usize = 2_598_960;
/// Number of opponent hands from the 47 cards left: every win probability's denominator.
pub const OPPONENT_HANDS: u32 = 1_533_939;

/// One category of the rule set the table was computed under.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CategoryInfo {
    /// Stable snake_case name, e.g. `bull_7`, `bull_bull`, `five_face`.
    pub name: String,
    /// Payout multiplier of a hand that wins with this category.
    pub multiplier: u32,
}

/// The payload of a Niuniu table file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NiuniuPayload {
    /// The `[rules]` the table was computed under, as TOML text.
    pub rules: String,
    /// Categories from weakest to strongest: a category's rank is its index here.
    #[serde(deserialize_with = "format::bounded_vec")]
    pub categories: Vec<CategoryInfo>,
    /// Strength of each hand by colex index.
    #[serde(deserialize_with = "format::bounded_vec")]
    pub strength: Vec<u16>,
    /// Opponent hands (of [`OPPONENT_HANDS`]) that each hand beats, by colex index.
    #[serde(deserialize_with = "format::bounded_vec")]
    pub wins: Vec<u32>,
}

/// Everything the table knows about one hand.
#[derive(Clone, Debug, PartialEq)]
pub struct NiuniuHand<'a> {
    /// Colex index of the hand.
    pub index: u32,
    /// Category name (see [`CategoryInfo::name`]).
    pub category: &'a str,
    /// Category rank: 0 is the weakest category of the rule set.
    pub category_rank: u8,
    /// Strength: larger wins.
    pub strength: u16,
    /// Payout multiplier when this hand wins.
    pub multiplier: u32,
    /// Exact probability of beating one opponent dealt from the 47 unseen cards.
    pub win_probability: f64,
    /// Number of the 1,533,939 opponent hands this hand beats.
    pub wins: u32,
}

/// A loaded, validated Niuniu table.
#[derive(Clone, Debug)]
pub struct Niuniu {
    header: TableHeader,
    payload: NiuniuPayload,
}

format::table_file!(Niuniu, NiuniuPayload, Game::Niuniu);

impl Niuniu {
    /// Categories from weakest to strongest.
    pub fn categories(&self) -> &[CategoryInfo] {
        &self.payload.categories
    }

    /// Strength of the hand with colex index `index`, or `None` when out of range.
    pub fn strength_at(&self, index: u32) -> Option<u16> {
        self.payload.strength.get(index as usize).copied()
    }

    /// Win probability of the hand with colex index `index`, or `None` when out of range.
    pub fn win_probability_at(&self, index: u32) -> Option<f64> {
        let wins = *self.payload.wins.get(index as usize)?;
        Some(f64::from(wins) / f64::from(OPPONENT_HANDS))
    }

    /// Opponent hands (of [`OPPONENT_HANDS`]) beaten by the hand with colex index `index`.
    pub fn wins_at(&self, index: u32) -> Option<u32> {
        self.payload.wins.get(index as usize).copied()
    }

    /// Category of the hand with colex index `index`, or `None` when out of range.
    pub fn category_at(&self, index: u32) -> Option<&CategoryInfo> {
        let strength = self.strength_at(index)?;
        self.payload.categories.get(usize::from(strength / 52))
    }

    /// Everything about a hand of five distinct cards, in O(1).
    pub fn lookup(&self, cards: &[Card]) -> Result<NiuniuHand<'_>, CardError> {
        let index = hand_index(cards)?;
        let i = index as usize;
        let strength = self.payload.strength[i];
        let rank = strength / 52;
        let info = &self.payload.categories[usize::from(rank)];
        let wins = self.payload.wins[i];
        Ok(NiuniuHand {
            index,
            category: &info.name,
            category_rank: rank as u8,
            strength,
            multiplier: info.multiplier,
            win_probability: f64::from(wins) / f64::from(OPPONENT_HANDS),
            wins,
        })
    }

    /// Category name of a hand of five distinct cards.
    pub fn category(&self, cards: &[Card]) -> Result<&str, CardError> {
        Ok(self.lookup(cards)?.category)
    }

    /// Strength of a hand of five distinct cards: larger wins.
    pub fn strength(&self, cards: &[Card]) -> Result<u16, CardError> {
        Ok(self.lookup(cards)?.strength)
    }

    /// Exact probability that the hand beats one opponent dealt from the 47 unseen cards.
    pub fn win_probability(&self, cards: &[Card]) -> Result<f64, CardError> {
        Ok(self.lookup(cards)?.win_probability)
    }
}

/// What the cards of a Niuniu hand make, computed from the cards alone (the rules do not
/// enter, so no table is needed): the fields of `hands.parquet` that are not stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Points {
    /// Sum of the points (A = 1, 2..9 face value, 10/J/Q/K = 10).
    pub point_total: u8,
    /// The bull number, `point_total mod 10` (0 = 牛牛), when three cards make a multiple
    /// of 10; `None` otherwise (无牛).
    pub bull: Option<u8>,
    /// The first three cards, in increasing card id, whose points make a multiple of 10.
    pub grouping: Option<[Card; 3]>,
    /// The tie-break card: highest by K > Q > … > A, then ♠ > ♥ > ♣ > ♦.
    pub high_card: Card,
}

/// Points of a card: A = 1, 2..9 face value, 10/J/Q/K = 10.
pub fn card_points(card: Card) -> u8 {
    // Niuniu ranks the ace low: A = 0, 2 = 1, …, K = 12.
    let niu_rank = (card.rank() + 1) % 13;
    (niu_rank + 1).min(10)
}

/// The points, bull number, grouping and tie-break card of five distinct cards in any
/// order.
///
/// ```
/// use cardtables::{niuniu, parse_cards};
/// let p = niuniu::points(&parse_cards("Ks Qh 5d 3c 2s").unwrap()).unwrap();
/// assert_eq!((p.point_total, p.bull), (30, Some(0))); // 5 + 3 + 2 = 10, K + Q = 20: 牛牛
/// ```
pub fn points(cards: &[Card]) -> Result<Points, CardError> {
    hand_index(cards)?; // five distinct cards
    let mut sorted = [cards[0]; 5];
    sorted.copy_from_slice(cards);
    sorted.sort_unstable();
    let pts = sorted.map(card_points);
    let point_total: u8 = pts.iter().sum();
    let mut grouping = None;
    'search: for i in 0..5 {
        for j in i + 1..5 {
            for k in j + 1..5 {
                if (pts[i] + pts[j] + pts[k]) % 10 == 0 {
                    grouping = Some([sorted[i], sorted[j], sorted[k]]);
                    break 'search;
                }
            }
        }
    }
    let tie_order = |c: &Card| ((c.rank() + 1) % 13) * 4 + c.suit();
    let high_card = *sorted
        .iter()
        .max_by_key(|c| tie_order(c))
        .unwrap_or(&sorted[4]);
    Ok(Points {
        point_total,
        bull: grouping.map(|_| point_total % 10),
        grouping,
        high_card,
    })
}

/// Colex index of five distinct cards in any order.
pub fn hand_index(cards: &[Card]) -> Result<u32, CardError> {
    if cards.len() != 5 {
        return Err(CardError::WrongCount {
            expected: 5,
            found: cards.len(),
        });
    }
    let mut seen = CardSet::EMPTY;
    for &card in cards {
        if seen.contains(card) {
            return Err(CardError::Duplicate { card });
        }
        seen = seen.with(card);
    }
    Ok(colex::index_of(cards))
}

fn validate(p: &NiuniuPayload) -> Result<(), TableError> {
    let invalid = |msg: String| Err(TableError::Invalid(msg));
    if p.categories.is_empty() || p.categories.len() > 64 {
        return invalid(format!(
            "{} categories (expected 1 to 64)",
            p.categories.len()
        ));
    }
    if p.strength.len() != HANDS || p.wins.len() != HANDS {
        return invalid(format!(
            "{} strengths and {} win counts, expected {HANDS} of each",
            p.strength.len(),
            p.wins.len()
        ));
    }
    let limit = p.categories.len() * 52;
    if let Some(i) = p.strength.iter().position(|&s| usize::from(s) >= limit) {
        return invalid(format!(
            "hand {i} has strength {} beyond the {} categories",
            p.strength[i],
            p.categories.len()
        ));
    }
    if let Some(i) = p.wins.iter().position(|&w| w > OPPONENT_HANDS) {
        return invalid(format!(
            "hand {i} beats {} opponents, more than {OPPONENT_HANDS}",
            p.wins[i]
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny_payload() -> NiuniuPayload {
        NiuniuPayload {
            rules: "special_hands = []".into(),
            categories: vec![
                CategoryInfo {
                    name: "low".into(),
                    multiplier: 1,
                },
                CategoryInfo {
                    name: "high".into(),
                    multiplier: 2,
                },
            ],
            strength: (0..HANDS).map(|i| (i % 104) as u16).collect(),
            wins: (0..HANDS).map(|i| (i % 1000) as u32).collect(),
        }
    }

    #[test]
    fn round_trip_and_lookup() {
        let bytes = Niuniu::to_bytes(42, &tiny_payload()).unwrap();
        let table = Niuniu::from_bytes(&bytes).unwrap();
        assert_eq!(table.header().rules_hash, 42);
        let cards = crate::parse_cards("2d 2c 2h 2s 3d").unwrap();
        // Cards 0..=4 are the colex-first hand.
        let hand = table.lookup(&cards).unwrap();
        assert_eq!(hand.index, 0);
        assert_eq!(hand.strength, 0);
        assert_eq!(hand.category, "low");
        let last = crate::parse_cards("As Ah Ac Ad Ks").unwrap();
        let hand = table.lookup(&last).unwrap();
        assert_eq!(hand.index as usize, HANDS - 1);
        assert_eq!(hand.wins, ((HANDS - 1) % 1000) as u32);
        assert!(table.win_probability_at(HANDS as u32).is_none());
    }

    #[test]
    fn lookup_rejects_bad_hands() {
        let bytes = Niuniu::to_bytes(1, &tiny_payload()).unwrap();
        let table = Niuniu::from_bytes(&bytes).unwrap();
        let dup = [Card::from_id(3).unwrap(); 5];
        assert!(matches!(
            table.lookup(&dup),
            Err(CardError::Duplicate { .. })
        ));
        assert!(matches!(
            table.lookup(&dup[..4]),
            Err(CardError::WrongCount { .. })
        ));
    }

    #[test]
    fn invalid_payloads_are_refused() {
        let mut p = tiny_payload();
        p.strength[7] = 104;
        assert!(matches!(
            Niuniu::to_bytes(1, &p),
            Err(TableError::Invalid(_))
        ));
        let mut p = tiny_payload();
        p.wins.pop();
        let bytes = format::write_table(Game::Niuniu, 1, &p).unwrap();
        assert!(matches!(
            Niuniu::from_bytes(&bytes),
            Err(TableError::Invalid(_))
        ));
    }
}
