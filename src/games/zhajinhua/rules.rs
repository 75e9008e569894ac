//! Zhajinhua (炸金花) rule variants, as `[rules]` fields (see `docs/rules/zhajinhua.md`).

use serde::{Deserialize, Serialize};

use crate::job::{JobError, JobSpec};

/// Where A-2-3 ranks among straights.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum A23 {
    /// A-2-3 is the lowest straight (default).
    #[default]
    Lowest,
    /// A-2-3 ranks just below A-K-Q.
    Second,
    /// A-2-3 is not a straight (the tutorial's code).
    None,
}

/// Who wins an exact tie.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Ties {
    /// Tied hands split the pot (default).
    #[default]
    Split,
    /// The player who asks for the comparison loses an exact tie; our tables take our
    /// hand to be the one asking, so a tie is worth nothing to us.
    CallerLoses,
}

/// The `[rules]` table of a Zhajinhua job.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct ZhajinhuaRules {
    pub a23: A23,
    /// Off-suit 2-3-5 beats trips (豹子) and loses to everything else.
    pub special_235: bool,
    pub ties: Ties,
}

impl ZhajinhuaRules {
    /// Reads and validates `[rules]` (every combination of the fields is valid).
    pub fn from_spec(spec: &JobSpec) -> Result<ZhajinhuaRules, JobError> {
        spec.rules()
    }

    /// The rule set as TOML, for tables and reports.
    pub fn canonical_toml(&self) -> String {
        toml::to_string(self).expect("plain data serializes")
    }
}
