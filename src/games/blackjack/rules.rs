//! Blackjack rule sets (the `[rules]` of a blackjack job), with the defaults and fields of
//! `shared/RULES.md`. Every combination that makes no sense is refused with the reason.

use serde::{Deserialize, Serialize};

/// Number of decks: 1..=8, or an infinite shoe (every card drawn with fixed probability).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Decks {
    Finite(u8),
    Infinite(InfiniteWord),
}

/// The word `"infinite"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InfiniteWord {
    Infinite,
}

/// Which first two cards may be doubled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Double {
    #[serde(rename = "any_two")]
    AnyTwo,
    #[serde(rename = "9_11")]
    NineToEleven,
    #[serde(rename = "10_11")]
    TenOrEleven,
}

/// Surrender: none, late (after the dealer checks for blackjack) or early (before).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Surrender {
    None,
    Late,
    Early,
}

/// A blackjack rule set.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BlackjackRules {
    pub decks: Decks,
    pub dealer_hits_soft_17: bool,
    pub blackjack_pays: f64,
    pub double: Double,
    pub double_after_split: bool,
    pub max_split_hands: u8,
    pub resplit_aces: bool,
    pub hit_split_aces: bool,
    pub surrender: Surrender,
    pub dealer_peeks: bool,
}

impl Default for BlackjackRules {
    fn default() -> Self {
        BlackjackRules {
            decks: Decks::Finite(6),
            dealer_hits_soft_17: false,
            blackjack_pays: 1.5,
            double: Double::AnyTwo,
            double_after_split: true,
            max_split_hands: 4,
            resplit_aces: false,
            hit_split_aces: false,
            surrender: Surrender::None,
            dealer_peeks: true,
        }
    }
}

impl BlackjackRules {
    /// Checks the rule set; an error names the field and says what is allowed or why the
    /// combination cannot be played.
    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        if let Decks::Finite(n) = self.decks {
            if !(1..=8).contains(&n) {
                return Err((
                    "rules.decks",
                    format!("{n} decks: use 1 to 8, or \"infinite\""),
                ));
            }
        }
        if !(self.blackjack_pays > 0.0 && self.blackjack_pays <= 3.0) {
            return Err((
                "rules.blackjack_pays",
                format!(
                    "{} is not a payout: use e.g. 1.5 (3:2), 1.2 (6:5) or 1.0",
                    self.blackjack_pays
                ),
            ));
        }
        if !(1..=4).contains(&self.max_split_hands) {
            return Err((
                "rules.max_split_hands",
                format!("{}: use 1 (no splitting) to 4", self.max_split_hands),
            ));
        }
        if self.max_split_hands == 1
            && (self.resplit_aces || self.double_after_split || self.hit_split_aces)
        {
            return Err((
                "rules.max_split_hands",
                "max_split_hands = 1 means no splitting, so resplit_aces, double_after_split and hit_split_aces must be false".into(),
            ));
        }
        if self.resplit_aces && self.max_split_hands < 3 {
            return Err((
                "rules.resplit_aces",
                "resplitting aces needs max_split_hands of 3 or more".into(),
            ));
        }
        if self.surrender == Surrender::Early && !self.dealer_peeks {
            // Early surrender is defined against the hole card check it precedes; without a
            // hole card the usual European rule has no surrender before the dealer draws.
            return Err((
                "rules.surrender",
                "early surrender is offered before the dealer checks for blackjack; with dealer_peeks = false use \"late\" or \"none\"".into(),
            ));
        }
        Ok(())
    }

    /// Cards per rank in the full shoe (index 0 = ace, 1..=8 = 2..9, 9 = ten-valued), or
    /// `None` for an infinite shoe.
    pub fn shoe(&self) -> Option<[u32; 10]> {
        match self.decks {
            Decks::Finite(n) => {
                let n = u32::from(n);
                let mut counts = [4 * n; 10];
                counts[9] = 16 * n;
                Some(counts)
            }
            Decks::Infinite(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize)]
    struct Wrapper {
        rules: BlackjackRules,
    }

    fn parse(text: &str) -> Result<BlackjackRules, String> {
        toml::from_str::<Wrapper>(&format!("[rules]\n{text}"))
            .map(|w| w.rules)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn fields_parse_with_their_documented_spelling() {
        let r = parse("decks = \"infinite\"\ndouble = \"9_11\"\nsurrender = \"late\"").unwrap();
        assert_eq!(r.decks, Decks::Infinite(InfiniteWord::Infinite));
        assert_eq!(r.double, Double::NineToEleven);
        assert!(r.validate().is_ok());
        assert_eq!(parse("decks = 2").unwrap().shoe().unwrap()[9], 32);
        assert!(parse("decks = \"many\"").is_err());
        assert!(parse("double = \"any\"").is_err());
    }

    #[test]
    fn contradictions_are_refused_with_the_reason() {
        let bad = |r: BlackjackRules| r.validate().unwrap_err().0;
        let base = BlackjackRules::default();
        assert_eq!(
            bad(BlackjackRules {
                decks: Decks::Finite(9),
                ..base
            }),
            "rules.decks"
        );
        assert_eq!(
            bad(BlackjackRules {
                max_split_hands: 5,
                ..base
            }),
            "rules.max_split_hands"
        );
        assert_eq!(
            bad(BlackjackRules {
                max_split_hands: 1,
                ..base
            }),
            "rules.max_split_hands",
            "DAS is on by default, which needs splitting"
        );
        assert_eq!(
            bad(BlackjackRules {
                resplit_aces: true,
                max_split_hands: 2,
                ..base
            }),
            "rules.resplit_aces"
        );
        assert_eq!(
            bad(BlackjackRules {
                surrender: Surrender::Early,
                dealer_peeks: false,
                ..base
            }),
            "rules.surrender"
        );
        assert_eq!(
            bad(BlackjackRules {
                blackjack_pays: 0.0,
                ..base
            }),
            "rules.blackjack_pays"
        );
    }
}
