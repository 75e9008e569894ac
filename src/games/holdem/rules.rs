//! Hold'em rules: the standard game, with no variants. Every Hold'em job takes an empty
//! (or absent) `[rules]` table; a key there is an error at its line.

use serde::Deserialize;

use crate::job::{JobError, JobSpec};

/// The rule set of every Hold'em job: standard Texas Hold'em (52 cards, best five of
/// seven, suits never break ties). It has no fields; it exists so that a misplaced
/// `[rules]` key is refused like in every other game.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HoldemRules {}

impl HoldemRules {
    /// Reads `[rules]`, which must be empty.
    pub fn from_spec(spec: &JobSpec) -> Result<HoldemRules, JobError> {
        spec.rules()
    }

    /// The rule set as the text the outputs carry (TOML: one comment line).
    pub fn canonical_toml(&self) -> String {
        String::from("# Texas Hold'em: standard rules, no variants\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_must_be_empty() {
        let spec = |rules: &str| {
            JobSpec::parse(
                "h.toml",
                format!("[job]\nkind = \"holdem.preflop\"\nname = \"h\"\n{rules}"),
            )
            .unwrap()
        };
        assert_eq!(HoldemRules::from_spec(&spec("")), Ok(HoldemRules {}));
        assert_eq!(
            HoldemRules::from_spec(&spec("[rules]\n")),
            Ok(HoldemRules {})
        );
        let e = HoldemRules::from_spec(&spec("[rules]\ndecks = 2\n")).unwrap_err();
        assert_eq!(e.location.map(|l| l.0), Some(5), "{e}");
    }
}
