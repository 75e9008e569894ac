//! Five-card stud (梭哈) rule variants: the deck and the two ranking switches.

use serde::{Deserialize, Serialize};

use crate::job::{JobError, JobSpec};

/// The `[rules]` table of a stud job.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct StudRules {
    /// 52 (2–A), 32 (7–A) or 28 (8–A) cards.
    pub deck: u8,
    /// A flush outranks a full house (common with short decks, where flushes are rarer).
    pub flush_beats_full_house: bool,
    /// The ace also plays low: A-2-3-4-5 (or A with the deck's four lowest ranks).
    pub ace_low_straight: bool,
}

impl Default for StudRules {
    fn default() -> Self {
        StudRules {
            deck: 52,
            flush_beats_full_house: false,
            ace_low_straight: true,
        }
    }
}

impl StudRules {
    /// Reads `[rules]` and checks the deck size.
    pub fn from_spec(spec: &JobSpec) -> Result<StudRules, JobError> {
        let rules: StudRules = spec.rules()?;
        if ![52, 32, 28].contains(&rules.deck) {
            return Err(spec.field_error(
                "rules.deck",
                format!(
                    "{} is not a deck this game uses: use 52, 32 (7 to A) or 28 (8 to A)",
                    rules.deck
                ),
            ));
        }
        Ok(rules)
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

    /// The rule set as TOML.
    pub fn canonical_toml(&self) -> String {
        toml::to_string(self).expect("plain data serializes")
    }
}
