//! O(1) heads-up starting-hand equities for five-card stud from a `stud.bin` table.
//!
//! For each deck in the table, every ordered pair of disjoint 2-card hands maps (through a
//! flat index over all 1,326 × 1,326 pairs of 2-card sets) to its matchup class — equal up
//! to suit permutation — whose exact wins, ties and deals are stored once.

use serde::{Deserialize, Serialize};

use crate::card::{Card, CardError};
use crate::colex;
use crate::format::{self, Game, Layout, TableError, TableHeader};

/// Number of 2-card sets of a 52-card deck.
pub const TWO_CARD_SETS: usize = 1326;

/// One deck's heads-up table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeadsUpTable {
    /// 52, 32 or 28.
    pub deck: u8,
    /// `class_of[a · 1326 + b]` for 2-card colex indices a, b: `k + 1` when (a, b) is class
    /// k as stored, `−(k + 1)` when it is class k with the hands swapped, 0 when a and b
    /// share a card or use a card outside the deck.
    #[serde(deserialize_with = "format::bounded_vec")]
    pub class_of: Vec<i32>,
    #[serde(deserialize_with = "format::bounded_vec")]
    pub wins: Vec<u64>,
    #[serde(deserialize_with = "format::bounded_vec")]
    pub ties: Vec<u64>,
    #[serde(deserialize_with = "format::bounded_vec")]
    pub deals: Vec<u64>,
}

/// The payload of a stud table file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StudPayload {
    /// The `[rules]` the table was computed under, as TOML.
    pub rules: String,
    #[serde(deserialize_with = "format::bounded_vec")]
    pub decks: Vec<HeadsUpTable>,
}

/// The exact all-in result of one starting hand against another.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StartingHands {
    pub wins: u64,
    pub ties: u64,
    pub losses: u64,
    pub deals: u64,
    /// Wins plus half the ties, over all deals.
    pub equity: f64,
}

/// Why a starting-hand question could not be answered.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum StudQueryError {
    #[error(transparent)]
    Cards(#[from] CardError),
    #[error("this table has no {0}-card deck")]
    NoDeck(u8),
    #[error("the hands share a card or use a card outside the {0}-card deck")]
    NotAMatchup(u8),
}

/// A loaded, validated stud table.
#[derive(Clone, Debug)]
pub struct Stud {
    header: TableHeader,
    payload: StudPayload,
}

format::table_file!(Stud, StudPayload, Game::Stud, read_payload);

/// The payload, read field by field in its documented layout (what [`format::decode`]
/// reads, one bulk copy per array); the same in every format version.
fn read_payload(_version: u16, payload: &[u8]) -> Result<StudPayload, TableError> {
    let mut r = Layout::new(payload);
    let rules = r.string("rules")?;
    // A deck's table is at least its deck byte and four 8-byte lengths.
    let decks = r.list("decks", 33, |r| {
        Ok(HeadsUpTable {
            deck: r.u8("deck")?,
            class_of: r.i32s("class_of")?,
            wins: r.u64s("wins")?,
            ties: r.u64s("ties")?,
            deals: r.u64s("deals")?,
        })
    })?;
    r.finish()?;
    Ok(StudPayload { rules, decks })
}

impl Stud {
    /// Decks covered.
    pub fn decks(&self) -> Vec<u8> {
        self.payload.decks.iter().map(|t| t.deck).collect()
    }

    /// Exact result of starting hand `a` against `b` (2 cards each) in `deck`, in O(1).
    pub fn starting_hands(
        &self,
        deck: u8,
        a: &[Card],
        b: &[Card],
    ) -> Result<StartingHands, StudQueryError> {
        let table = self
            .payload
            .decks
            .iter()
            .find(|t| t.deck == deck)
            .ok_or(StudQueryError::NoDeck(deck))?;
        let (ia, ib) = (two_card_index(a)?, two_card_index(b)?);
        let code = table.class_of[ia * TWO_CARD_SETS + ib];
        if code == 0 {
            return Err(StudQueryError::NotAMatchup(deck));
        }
        let k = (code.unsigned_abs() - 1) as usize;
        let (wins, ties, deals) = (table.wins[k], table.ties[k], table.deals[k]);
        let losses = deals - wins - ties;
        let (wins, losses) = if code > 0 {
            (wins, losses)
        } else {
            (losses, wins)
        };
        Ok(StartingHands {
            wins,
            ties,
            losses,
            deals,
            equity: (wins as f64 + ties as f64 / 2.0) / deals as f64,
        })
    }
}

/// Colex index of two distinct cards.
pub fn two_card_index(cards: &[Card]) -> Result<usize, CardError> {
    if cards.len() != 2 {
        return Err(CardError::WrongCount {
            expected: 2,
            found: cards.len(),
        });
    }
    if cards[0] == cards[1] {
        return Err(CardError::Duplicate { card: cards[0] });
    }
    Ok(colex::index_of(cards) as usize)
}

fn validate(p: &StudPayload) -> Result<(), TableError> {
    let invalid = |m: String| Err(TableError::Invalid(m));
    if p.decks.len() > 3 {
        return invalid(format!("{} decks, at most 3", p.decks.len()));
    }
    for t in &p.decks {
        if ![52, 32, 28].contains(&t.deck) {
            return invalid(format!("deck {} is not 52, 32 or 28", t.deck));
        }
        let classes = t.wins.len();
        if t.ties.len() != classes || t.deals.len() != classes {
            return invalid(format!("deck {}: class arrays differ in length", t.deck));
        }
        if t.class_of.len() != TWO_CARD_SETS * TWO_CARD_SETS {
            return invalid(format!(
                "deck {}: index has {} entries",
                t.deck,
                t.class_of.len()
            ));
        }
        if t.class_of
            .iter()
            .any(|&c| c.unsigned_abs() as usize > classes)
        {
            return invalid(format!(
                "deck {}: index names a class that does not exist",
                t.deck
            ));
        }
        if (0..classes).any(|k| t.deals[k] == 0 || t.wins[k].saturating_add(t.ties[k]) > t.deals[k])
        {
            return invalid(format!(
                "deck {}: a class has more wins and ties than deals",
                t.deck
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_cards;

    /// A table whose only classes are "As Ks vs Qh Jh" stored one way round.
    fn payload() -> StudPayload {
        let mut class_of = vec![0i32; TWO_CARD_SETS * TWO_CARD_SETS];
        let a = two_card_index(&parse_cards("As Ks").unwrap()).unwrap();
        let b = two_card_index(&parse_cards("Qh Jh").unwrap()).unwrap();
        class_of[a * TWO_CARD_SETS + b] = 1;
        class_of[b * TWO_CARD_SETS + a] = -1;
        StudPayload {
            rules: String::new(),
            decks: vec![HeadsUpTable {
                deck: 52,
                class_of,
                wins: vec![60],
                ties: vec![10],
                deals: vec![100],
            }],
        }
    }

    #[test]
    fn the_layout_reader_reads_what_bincode_reads() {
        format::check_layout_reader(&payload(), read_payload);
    }

    #[test]
    fn lookups_are_symmetric() {
        let t = Stud::from_bytes(Stud::to_bytes(1, &payload()).unwrap()).unwrap();
        let (a, b) = (parse_cards("Ks As").unwrap(), parse_cards("Jh Qh").unwrap());
        let ab = t.starting_hands(52, &a, &b).unwrap();
        let ba = t.starting_hands(52, &b, &a).unwrap();
        assert_eq!((ab.wins, ab.ties, ab.losses), (60, 10, 30));
        assert_eq!((ba.wins, ba.losses), (ab.losses, ab.wins));
        assert!((ab.equity + ba.equity - 1.0).abs() < 1e-15);
        assert_eq!(
            t.starting_hands(32, &a, &b),
            Err(StudQueryError::NoDeck(32))
        );
        let other = parse_cards("2c 2d").unwrap();
        assert_eq!(
            t.starting_hands(52, &a, &other),
            Err(StudQueryError::NotAMatchup(52))
        );
    }

    #[test]
    fn invalid_tables_are_refused() {
        let mut p = payload();
        p.decks[0].wins[0] = 95;
        assert!(matches!(Stud::to_bytes(1, &p), Err(TableError::Invalid(_))));
        let mut p = payload();
        p.decks[0].class_of[5] = 7;
        assert!(matches!(Stud::to_bytes(1, &p), Err(TableError::Invalid(_))));
    }
}
