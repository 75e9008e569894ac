//! Zhajinhua (炸金花) rule variants, as `[rules]` fields (see `docs/rules/zhajinhua.md`).

use cardtables::decision::Betting;
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

/// How a showdown of three or more hands is settled. With one opponent both are the same
/// comparison; they differ only under `special_235` or `caller_loses`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Showdown {
    /// As 比牌 works: two hands at a time, ours asking each opponent in turn; we take the
    /// pot by surviving every comparison (tied hands both survive and split it), and
    /// `special_235` and `ties` apply to each comparison (default).
    #[default]
    Sequential,
    /// Every hand is shown at once and the strongest in the ordinary order takes the pot,
    /// tied hands splitting it: `special_235` and `caller_loses` apply only heads-up (with
    /// three or more hands the circular order may have no strongest hand, and nobody asked).
    Simultaneous,
}

/// The `[rules]` table of a Zhajinhua job.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct ZhajinhuaRules {
    pub a23: A23,
    /// Off-suit 2-3-5 beats trips (豹子) and loses to everything else.
    pub special_235: bool,
    pub ties: Ties,
    /// How showdowns against two or more opponents are settled.
    pub showdown: Showdown,
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

    /// The rules two hands are compared under in a showdown against `opponents`: these
    /// rules heads-up or in sequential showdowns; the ordinary order with split ties in a
    /// simultaneous showdown of three or more hands.
    pub fn against(&self, opponents: u8) -> ZhajinhuaRules {
        if opponents <= 1 || self.showdown == Showdown::Sequential {
            *self
        } else {
            ZhajinhuaRules {
                special_235: false,
                ties: Ties::Split,
                ..*self
            }
        }
    }
}

/// The `[betting]` table: the stakes a decision is priced with (`docs/rules/zhajinhua.md`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BettingRules {
    /// What a seen player pays per chip a blind player pays for the same stake.
    pub seen_multiplier: f64,
    /// What asking for a comparison (比牌) costs, as a multiple of the call.
    pub showdown_cost: f64,
    /// Who pays that cost.
    pub showdown_paid_by: Payer,
    /// The largest total a raise may bring the bet to, as a multiple of the pot.
    pub raise_cap: f64,
}

/// Who pays for a comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Payer {
    /// The player asking for it (default).
    #[default]
    Asker,
    /// Both players compared, each at its own rate.
    Both,
}

impl Default for BettingRules {
    fn default() -> Self {
        BettingRules {
            seen_multiplier: 2.0,
            showdown_cost: 1.0,
            showdown_paid_by: Payer::Asker,
            raise_cap: 5.0,
        }
    }
}

/// Bounds of the `[betting]` fields.
const MAX_SEEN_MULTIPLIER: f64 = 10.0;
const MAX_SHOWDOWN_COST: f64 = 100.0;
const MAX_RAISE_CAP: f64 = 100.0;

impl BettingRules {
    /// Reads and checks `[betting]` (absent: the defaults).
    pub fn from_spec(spec: &JobSpec) -> Result<BettingRules, JobError> {
        #[derive(Deserialize)]
        struct Sections {
            #[serde(default)]
            betting: Option<BettingRules>,
        }
        let b = spec.deserialize::<Sections>()?.betting.unwrap_or_default();
        let field =
            |name: &str, message: String| spec.field_error(&format!("betting.{name}"), message);
        if !(b.seen_multiplier.is_finite()
            && (1.0..=MAX_SEEN_MULTIPLIER).contains(&b.seen_multiplier))
        {
            return Err(field(
                "seen_multiplier",
                format!(
                    "seen_multiplier is {}: a seen player pays 1 to {MAX_SEEN_MULTIPLIER} times what a blind player pays",
                    b.seen_multiplier
                ),
            ));
        }
        if !(b.showdown_cost.is_finite() && (0.0..=MAX_SHOWDOWN_COST).contains(&b.showdown_cost)) {
            return Err(field(
                "showdown_cost",
                format!(
                    "showdown_cost is {}: a comparison costs 0 to {MAX_SHOWDOWN_COST} times the call",
                    b.showdown_cost
                ),
            ));
        }
        if !(b.raise_cap.is_finite() && b.raise_cap > 0.0 && b.raise_cap <= MAX_RAISE_CAP) {
            return Err(field(
                "raise_cap",
                format!(
                    "raise_cap is {}: the largest raise-to is above 0 and at most {MAX_RAISE_CAP} pots",
                    b.raise_cap
                ),
            ));
        }
        Ok(b)
    }

    /// The decision model's conventions, against one blind or seen opponent.
    pub fn betting(&self, opponents_blind: bool) -> Betting {
        Betting {
            seen_multiplier: self.seen_multiplier,
            opponents_blind,
            showdown_cost: self.showdown_cost,
            showdown_both_pay: self.showdown_paid_by == Payer::Both,
            callers: 1,
        }
    }

    /// The `[betting]` table as TOML, for the report.
    pub fn canonical_toml(&self) -> String {
        toml::to_string(self).expect("plain data serializes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(tables: &str) -> JobSpec {
        JobSpec::parse(
            "z.toml",
            format!("[job]\nkind = \"zhajinhua.hands\"\nname = \"z\"\n{tables}"),
        )
        .unwrap()
    }

    #[test]
    fn showdown_rules_apply_heads_up_always_and_multiway_as_chosen() {
        let r: ZhajinhuaRules = spec(
            "[rules]\nspecial_235 = true\nties = \"caller_loses\"\nshowdown = \"simultaneous\"\n",
        )
        .rules()
        .unwrap();
        assert_eq!(r.against(1), r);
        let multi = r.against(2);
        assert!(!multi.special_235 && multi.ties == Ties::Split);
        assert_eq!(multi.showdown, Showdown::Simultaneous);
        let seq = ZhajinhuaRules {
            showdown: Showdown::Sequential,
            ..r
        };
        assert_eq!(seq.against(5), seq);
        assert_eq!(ZhajinhuaRules::default().showdown, Showdown::Sequential);
        let e = spec("[rules]\nshowdown = \"all_in\"\n")
            .rules::<ZhajinhuaRules>()
            .unwrap_err();
        assert!(e.to_string().contains("sequential"), "{e}");
    }

    #[test]
    fn betting_is_read_with_defaults_and_checked_at_its_field() {
        assert_eq!(
            BettingRules::from_spec(&spec("")),
            Ok(BettingRules::default())
        );
        let b = BettingRules::from_spec(&spec(
            "[betting]\nseen_multiplier = 1\nshowdown_cost = 2\nshowdown_paid_by = \"both\"\n",
        ))
        .unwrap();
        let blind = b.betting(true);
        assert_eq!(blind.opponent_rate(), 1.0);
        assert!(blind.showdown_both_pay && blind.showdown_cost == 2.0);
        for (text, field) in [
            ("seen_multiplier = 0.5", "betting.seen_multiplier"),
            ("showdown_cost = -1", "betting.showdown_cost"),
            ("raise_cap = 0", "betting.raise_cap"),
            ("raise_cap = inf", "betting.raise_cap"),
        ] {
            let e = BettingRules::from_spec(&spec(&format!("[betting]\n{text}\n"))).unwrap_err();
            assert_eq!(e.field.as_deref(), Some(field), "{e}");
            assert_eq!(e.location.map(|l| l.0), Some(5), "{e}");
        }
        let e = BettingRules::from_spec(&spec("[betting]\nblind = true\n")).unwrap_err();
        assert!(e.to_string().contains("blind"), "{e}");
    }
}
