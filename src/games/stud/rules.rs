//! Five-card stud (梭哈) rule variants: the deck and the two ranking switches, and the
//! `[rules]` of a `stud.tables` job.

use serde::{Deserialize, Serialize};

use crate::job::{JobError, JobSpec};

/// A ranking variant: which deck, and the two ranking switches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct StudRules {
    /// 52 (2–A), 32 (7–A) or 28 (8–A) cards.
    pub deck: u8,
    /// A flush outranks a full house (common with short decks, where flushes are rarer).
    pub flush_beats_full_house: bool,
    /// The ace also plays low: A-2-3-4-5 (or A with the deck's four lowest ranks).
    pub ace_low_straight: bool,
    /// Equal hands are settled by suit, ♠ > ♥ > ♣ > ♦, of the hand's top card (traditional
    /// 梭哈), instead of splitting.
    pub suit_order_breaks_ties: bool,
}

impl Default for StudRules {
    fn default() -> Self {
        StudRules {
            deck: 52,
            flush_beats_full_house: false,
            ace_low_straight: true,
            suit_order_breaks_ties: false,
        }
    }
}

impl StudRules {
    /// The suit permutations that leave every result unchanged: all 24, or only the
    /// identity when suits rank.
    pub fn suit_symmetries(&self) -> Vec<[u8; 4]> {
        if self.suit_order_breaks_ties {
            crate::cards::matchups::NO_SUIT_SYMMETRY.to_vec()
        } else {
            crate::cards::matchups::suit_permutations()
        }
    }

    /// Lowest card-id rank in the deck (0 = 2, 5 = 7, 6 = 8).
    pub fn lowest_rank(&self) -> u8 {
        match self.deck {
            32 => 5,
            28 => 6,
            _ => 0,
        }
    }

    /// Every card of the deck as a bitmask.
    pub fn deck_mask(&self) -> u64 {
        let low = u32::from(self.lowest_rank()) * 4;
        (!0u64 >> (64 - 52)) & !((1u64 << low) - 1)
    }
}

/// The `[rules]` of a `stud.tables` job: the ranking switches, plus the decks whose
/// heads-up starting-hand tables are computed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct StudTablesRules {
    /// The deck of the worked examples (the category table covers every deck).
    pub deck: u8,
    pub flush_beats_full_house: bool,
    pub ace_low_straight: bool,
    /// Written only when set, so that tables computed without it keep their rules text.
    #[serde(skip_serializing_if = "is_false")]
    pub suit_order_breaks_ties: bool,
    /// Decks whose exact heads-up starting-hand equity table is computed (52 takes minutes;
    /// with `suit_order_breaks_ties` about 24 times longer, as suits no longer permute).
    pub headsup_decks: Vec<u8>,
}

fn is_false(b: &bool) -> bool {
    !b
}

impl Default for StudTablesRules {
    fn default() -> Self {
        let v = StudRules::default();
        StudTablesRules {
            deck: v.deck,
            flush_beats_full_house: v.flush_beats_full_house,
            ace_low_straight: v.ace_low_straight,
            suit_order_breaks_ties: v.suit_order_breaks_ties,
            headsup_decks: vec![52, 32],
        }
    }
}

/// Checks a deck size, naming the field when it is wrong.
pub fn check_deck(deck: u8) -> Result<(), String> {
    if [52, 32, 28].contains(&deck) {
        Ok(())
    } else {
        Err(format!(
            "{deck} is not a deck this game uses: use 52, 32 (7 to A) or 28 (8 to A)"
        ))
    }
}

impl StudTablesRules {
    /// Reads `[rules]` and checks every deck named.
    pub fn from_spec(spec: &JobSpec) -> Result<StudTablesRules, JobError> {
        let rules: StudTablesRules = spec.rules()?;
        check_deck(rules.deck).map_err(|m| spec.field_error("rules.deck", m))?;
        for (i, &d) in rules.headsup_decks.iter().enumerate() {
            check_deck(d).map_err(|m| spec.field_error("rules.headsup_decks", m))?;
            if rules.headsup_decks[..i].contains(&d) {
                return Err(
                    spec.field_error("rules.headsup_decks", format!("deck {d} is listed twice"))
                );
            }
        }
        Ok(rules)
    }

    /// The ranking variant for one deck.
    pub fn variant(&self, deck: u8) -> StudRules {
        StudRules {
            deck,
            flush_beats_full_house: self.flush_beats_full_house,
            ace_low_straight: self.ace_low_straight,
            suit_order_breaks_ties: self.suit_order_breaks_ties,
        }
    }

    /// The rule set as TOML.
    pub fn canonical_toml(&self) -> String {
        toml::to_string(self).expect("plain data serializes")
    }
}
