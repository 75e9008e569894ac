//! Blackjack rule sets: one rule set (the `[rules]` of a blackjack job, with the defaults
//! and fields of `docs/rules/blackjack.md`), and the rule sets of a job file (`[rules]`
//! expanded by the lists in `[grid]`), each with a short id. Every combination that makes
//! no sense is refused with the reason, at its field.

use serde::{Deserialize, Serialize};

use crate::job::{JobError, JobSpec};

/// Number of decks: 1..=8, or an infinite shoe (every card drawn with fixed probability).
/// Written as a number or as `"infinite"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Decks {
    Finite(u8),
    Infinite(InfiniteWord),
}

impl<'de> Deserialize<'de> for Decks {
    /// Reads a number or `"infinite"`; anything else is an error that says what is
    /// allowed, located at the value (the range 1..=8 is checked by `validate`).
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Decks, D::Error> {
        struct Visitor;
        const EXPECTED: &str = "a number of decks, 1 to 8, or \"infinite\"";
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Decks;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(EXPECTED)
            }
            fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<Decks, E> {
                u8::try_from(n)
                    .map(Decks::Finite)
                    .map_err(|_| E::custom(format!("{n} decks: use {EXPECTED}")))
            }
            fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<Decks, E> {
                u8::try_from(n)
                    .map(Decks::Finite)
                    .map_err(|_| E::custom(format!("{n} decks: use {EXPECTED}")))
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Decks, E> {
                match s {
                    "infinite" => Ok(Decks::Infinite(InfiniteWord::Infinite)),
                    _ => Err(E::custom(format!("{s:?}: use {EXPECTED}"))),
                }
            }
        }
        d.deserialize_any(Visitor)
    }
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

/// How the hands of a split are played after their second card (every mode resplits
/// whenever the rules allow; the split EV is exact for the mode in force).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PostSplit {
    /// CDZ-: each hand is played as an unsplit hand of the same cards would be (the
    /// composition-dependent play for the shoe less the upcard and the hand's own cards).
    Cdz,
    /// CDP1: one strategy for every split hand, optimal for the shoe less the upcard, both
    /// pair cards of the split and the hand's own cards.
    Cdp1,
    /// CDP, Eric Farmer's definition as his calculator computes it: the split's sum of
    /// one-hand values, each played optimally for the shoe less the upcard, its number of
    /// pair cards out and its own cards; without resplits it is CDP1.
    Cdp,
}

impl PostSplit {
    /// Every mode, in the order tables and reports list them.
    pub const ALL: [PostSplit; 3] = [PostSplit::Cdz, PostSplit::Cdp1, PostSplit::Cdp];

    /// The job-file word (`cdz`, `cdp1`, `cdp`).
    pub fn word(self) -> &'static str {
        match self {
            PostSplit::Cdz => "cdz",
            PostSplit::Cdp1 => "cdp1",
            PostSplit::Cdp => "cdp",
        }
    }

    /// The name analysts use (`CDZ-`, `CDP1`, `CDP`).
    pub fn label(self) -> &'static str {
        match self {
            PostSplit::Cdz => "CDZ-",
            PostSplit::Cdp1 => "CDP1",
            PostSplit::Cdp => "CDP",
        }
    }
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
    pub post_split_strategy: PostSplit,
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
            post_split_strategy: PostSplit::Cdz,
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
        // At most four decimals (every payout a casino posts, 7:5 or 3:2), so the rule
        // set's id, which names its files, stays short and distinct.
        let scaled = self.blackjack_pays * 1e4;
        if !(self.blackjack_pays > 0.0
            && self.blackjack_pays <= 3.0
            && scaled.round() >= 1.0
            && (scaled - scaled.round()).abs() < 1e-6)
        {
            return Err((
                "rules.blackjack_pays",
                format!(
                    "{:?} is not a payout: use a number above 0 and at most 3 with at most four decimals, e.g. 1.5 (3:2), 1.2 (6:5) or 1.0",
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

/// Most rule sets one job may expand to.
const MAX_RULE_SETS: usize = 1_000;
/// Rule fields in the order a grid varies them (the first varies slowest).
pub const RULE_FIELDS: [&str; 11] = [
    "decks",
    "dealer_hits_soft_17",
    "blackjack_pays",
    "double",
    "double_after_split",
    "max_split_hands",
    "resplit_aces",
    "hit_split_aces",
    "surrender",
    "dealer_peeks",
    "post_split_strategy",
];

/// The `[simulation]` table of a `blackjack.strategy` job.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SimulationSettings {
    /// Rounds simulated per rule set (0: no simulation).
    pub rounds: u64,
    /// Shuffle when this fraction of the shoe is dealt; absent: before every round (what
    /// the exact analysis assumes, so the check is direct).
    pub penetration: Option<f64>,
    /// Also simulate the tutorial article's strategy chart ([`super::sim::article_chart`]), for
    /// comparison. Job files may still call it `compare_seed_strategy`.
    #[serde(alias = "compare_seed_strategy")]
    pub compare_article_strategy: bool,
}

impl Default for SimulationSettings {
    fn default() -> Self {
        SimulationSettings {
            rounds: 10_000_000,
            penetration: None,
            compare_article_strategy: false,
        }
    }
}

/// The `[analysis]` table of a `blackjack.strategy` job: results beyond the default ones.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AnalysisSettings {
    /// Also find the truly optimal split of every pair into two hands, where each decision
    /// may use every card seen (needs `max_split_hands = 2`; one to two CPU-minutes per rule
    /// set).
    pub optimal_split: bool,
    /// Post-split strategies to value besides each rule set's own `post_split_strategy`
    /// (each one costs about as much again as the rest of the analysis).
    pub post_split_strategies: Vec<PostSplit>,
}

/// The tables of a blackjack job file that hold rules and settings: `[rules]`, `[grid]`,
/// `[simulation]` and `[analysis]`.
#[derive(Deserialize)]
struct JobSections {
    #[serde(default)]
    rules: Option<toml::Table>,
    #[serde(default)]
    grid: Option<toml::Table>,
    #[serde(default)]
    simulation: Option<SimulationSettings>,
    #[serde(default)]
    analysis: Option<AnalysisSettings>,
}

/// A blackjack job file, read: its rule sets and settings.
pub struct Expanded {
    pub sets: Vec<RuleSetSpec>,
    pub simulation: SimulationSettings,
    pub analysis: AnalysisSettings,
    /// `[rules]` and `[grid]` as the outputs record them (TOML).
    pub rules_toml: String,
}

/// `[rules]` and `[grid]` as the outputs record them.
#[derive(Serialize)]
struct CanonicalRules {
    rules: toml::Table,
    grid: toml::Table,
}

/// One rule set of the job.
#[derive(Clone, Debug)]
pub struct RuleSetSpec {
    pub id: String,
    pub rules: BlackjackRules,
}

/// A short name for a rule set: decks, soft-17 rule, DAS, then whatever differs from the
/// defaults (e.g. `6d-s17-das`, `inf-h17-nodas-ls-6to5`).
pub fn rule_set_id(r: &BlackjackRules) -> String {
    let d = BlackjackRules::default();
    let mut id = match r.decks {
        Decks::Finite(n) => format!("{n}d"),
        Decks::Infinite(_) => "inf".to_string(),
    };
    id.push_str(if r.dealer_hits_soft_17 {
        "-h17"
    } else {
        "-s17"
    });
    id.push_str(if r.double_after_split {
        "-das"
    } else {
        "-nodas"
    });
    match r.surrender {
        Surrender::None => {}
        Surrender::Late => id.push_str("-ls"),
        Surrender::Early => id.push_str("-es"),
    }
    if r.blackjack_pays != d.blackjack_pays {
        if r.blackjack_pays == 1.2 {
            id.push_str("-6to5");
        } else if r.blackjack_pays == 1.0 {
            id.push_str("-1to1");
        } else {
            id.push_str(&format!("-bj{}", r.blackjack_pays));
        }
    }
    match r.double {
        Double::AnyTwo => {}
        Double::NineToEleven => id.push_str("-d9"),
        Double::TenOrEleven => id.push_str("-d10"),
    }
    if r.max_split_hands != d.max_split_hands {
        id.push_str(&format!("-sp{}", r.max_split_hands));
    }
    if r.resplit_aces {
        id.push_str("-rsa");
    }
    if r.hit_split_aces {
        id.push_str("-hsa");
    }
    if !r.dealer_peeks {
        id.push_str("-enhc");
    }
    if r.post_split_strategy != d.post_split_strategy {
        id.push('-');
        id.push_str(r.post_split_strategy.word());
    }
    id
}

/// Each rule of the set in words, in [`RULE_FIELDS`] order: how reports state a rule set.
pub fn rules_in_words(r: &BlackjackRules) -> [String; 11] {
    let pays = |p: f64| -> String {
        match p {
            1.5 => "3:2".into(),
            1.2 => "6:5".into(),
            1.0 => "1:1".into(),
            _ => format!("{p} to 1"),
        }
    };
    [
        match r.decks {
            Decks::Finite(1) => "1 deck".into(),
            Decks::Finite(n) => format!("{n} decks"),
            Decks::Infinite(_) => "an infinite shoe".into(),
        },
        if r.dealer_hits_soft_17 {
            "dealer hits soft 17 (H17)"
        } else {
            "dealer stands on soft 17 (S17)"
        }
        .into(),
        format!("blackjack pays {}", pays(r.blackjack_pays)),
        match r.double {
            Double::AnyTwo => "double on any first two cards",
            Double::NineToEleven => "double on a hard 9, 10 or 11 only",
            Double::TenOrEleven => "double on a hard 10 or 11 only",
        }
        .into(),
        if r.double_after_split {
            "double after split (DAS)"
        } else {
            "no double after split"
        }
        .into(),
        match r.max_split_hands {
            1 => "no splitting".into(),
            n => format!("split to {n} hands"),
        },
        if r.resplit_aces {
            "aces may be resplit"
        } else {
            "aces are not resplit"
        }
        .into(),
        if r.hit_split_aces {
            "split aces may be hit"
        } else {
            "split aces take one card each"
        }
        .into(),
        match r.surrender {
            Surrender::None => "no surrender",
            Surrender::Late => "late surrender (after the dealer checks for blackjack)",
            Surrender::Early => "early surrender (before the dealer checks for blackjack)",
        }
        .into(),
        if r.dealer_peeks {
            "the dealer checks for blackjack under an ace or ten (hole card)"
        } else {
            "no hole card: doubled and split bets are lost to a dealer blackjack"
        }
        .into(),
        format!(
            "split hands played {}",
            match r.post_split_strategy {
                PostSplit::Cdz => "CDZ- (as an unsplit hand of the same cards)",
                PostSplit::Cdp1 => "CDP1",
                PostSplit::Cdp => "CDP",
            }
        ),
    ]
}

/// Fields of the blackjack job tables that are not rules, by the table they belong in.
const SETTING_TABLES: [(&str, &[&str]); 2] = [
    (
        "simulation",
        &["rounds", "penetration", "compare_article_strategy"],
    ),
    ("analysis", &["optimal_split", "post_split_strategies"]),
];

/// The message for a key of `[rules]` or `[grid]` that is no rule field: where it belongs
/// when it is a field of another table, else the rule fields.
fn unknown_rule_field(key: &str) -> String {
    match SETTING_TABLES
        .iter()
        .find(|(_, fields)| fields.contains(&key))
    {
        Some((table, _)) => {
            format!("`{key}` is not a rule but a setting of [{table}]: move it under [{table}]")
        }
        None => format!(
            "unknown rule field: the fields are {}",
            RULE_FIELDS.join(", ")
        ),
    }
}

/// Expands `[rules]` and `[grid]` into rule sets, each validated, and reads the settings.
pub fn expand(spec: &JobSpec) -> Result<Expanded, JobError> {
    let sections: JobSections = spec.deserialize()?;
    let base = sections.rules.unwrap_or_default();
    for key in base.keys() {
        if !RULE_FIELDS.contains(&key.as_str()) {
            return Err(spec.field_error(&format!("rules.{key}"), unknown_rule_field(key)));
        }
    }
    let grid = sections.grid.unwrap_or_default();
    let mut axes: Vec<(&str, Vec<toml::Value>)> = Vec::new();
    for key in grid.keys() {
        if !RULE_FIELDS.contains(&key.as_str()) {
            return Err(spec.field_error(&format!("grid.{key}"), unknown_rule_field(key)));
        }
        if base.contains_key(key) {
            return Err(spec.field_error(
                &format!("grid.{key}"),
                format!("`{key}` is set in both [rules] and [grid]: keep one"),
            ));
        }
    }
    for field in RULE_FIELDS {
        if let Some(v) = grid.get(field) {
            match v {
                toml::Value::Array(values) if !values.is_empty() => {
                    axes.push((field, values.clone()))
                }
                _ => {
                    return Err(spec.field_error(
                        &format!("grid.{field}"),
                        "a grid field lists the values to try, e.g. [false, true]",
                    ))
                }
            }
        }
    }
    // Checked: a grid of a few long lists must not wrap around to a small count.
    let count = axes
        .iter()
        .try_fold(1usize, |n, (_, v)| n.checked_mul(v.len()))
        .filter(|&n| n <= MAX_RULE_SETS)
        .ok_or_else(|| {
            let sizes: Vec<String> = axes.iter().map(|(_, v)| v.len().to_string()).collect();
            spec.field_error(
                "grid",
                format!(
                    "{} rule sets: a job may analyse at most {MAX_RULE_SETS}",
                    sizes.join(" × ")
                ),
            )
        })?;
    let mut sets: Vec<RuleSetSpec> = Vec::with_capacity(count);
    for k in 0..count {
        let mut table = base.clone();
        let mut rest = k;
        let mut picks = vec![0; axes.len()];
        for (i, (_, values)) in axes.iter().enumerate().rev() {
            picks[i] = rest % values.len();
            rest /= values.len();
        }
        for (i, (field, values)) in axes.iter().enumerate() {
            table.insert(field.to_string(), values[picks[i]].clone());
        }
        let described = || {
            axes.iter()
                .enumerate()
                .map(|(i, (f, v))| format!("{f} = {}", v[picks[i]]))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let rules: BlackjackRules =
            toml::Value::Table(table.clone())
                .try_into()
                .map_err(|e: toml::de::Error| {
                    // Values read from a table lose their place in the file: name the
                    // field whose value fails on its own, in [grid] or [rules].
                    let culprit = table.iter().find(|(key, value)| {
                        let mut alone = toml::Table::new();
                        alone.insert(key.to_string(), (*value).clone());
                        toml::Value::Table(alone)
                            .try_into::<BlackjackRules>()
                            .is_err()
                    });
                    let field = match culprit {
                        Some((key, _)) if grid.contains_key(key) => format!("grid.{key}"),
                        Some((key, _)) => format!("rules.{key}"),
                        None => "rules".into(),
                    };
                    let message = if axes.is_empty() {
                        e.message().to_string()
                    } else {
                        format!("{} (in the grid combination {})", e.message(), described())
                    };
                    spec.field_error(&field, message)
                })?;
        if let Err((field, message)) = rules.validate() {
            let name = field.trim_start_matches("rules.");
            let located = if grid.contains_key(name) {
                format!("grid.{name}")
            } else {
                field.to_string()
            };
            let message = if axes.is_empty() {
                message
            } else {
                format!("{message} (in the grid combination {})", described())
            };
            return Err(spec.field_error(&located, message));
        }
        let id = rule_set_id(&rules);
        if sets.iter().any(|s| s.id == id) {
            return Err(spec.field_error(
                "grid",
                format!("rule set {id} appears twice: list each value once"),
            ));
        }
        sets.push(RuleSetSpec { id, rules });
    }
    let simulation = sections.simulation.unwrap_or_default();
    if let Some(p) = simulation.penetration {
        if !(p > 0.0 && p < 1.0) {
            return Err(spec.field_error(
                "simulation.penetration",
                format!("{p}: use the fraction of the shoe dealt before a shuffle, e.g. 0.75"),
            ));
        }
    }
    if simulation.rounds > 1_000_000_000_000 {
        return Err(spec.field_error(
            "simulation.rounds",
            format!("{}: at most 10^12 rounds per rule set", simulation.rounds),
        ));
    }
    let analysis = sections.analysis.unwrap_or_default();
    if analysis.optimal_split {
        if let Some(s) = sets.iter().find(|s| s.rules.max_split_hands != 2) {
            return Err(spec.field_error(
                "analysis.optimal_split",
                format!(
                    "the optimal split is found for two hands (no resplitting), but rule set {} \
                     splits to {}: set max_split_hands = 2",
                    s.id, s.rules.max_split_hands
                ),
            ));
        }
    }
    let mut rules_toml = String::from("# Blackjack: [rules] and [grid] of the job\n");
    rules_toml
        .push_str(&toml::to_string(&CanonicalRules { rules: base, grid }).unwrap_or_default());
    Ok(Expanded {
        sets,
        simulation,
        analysis,
        rules_toml,
    })
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
        assert_eq!(
            parse("post_split_strategy = \"cdp1\"")
                .unwrap()
                .post_split_strategy,
            PostSplit::Cdp1
        );
        assert_eq!(
            parse("").unwrap().post_split_strategy,
            PostSplit::Cdz,
            "CDZ- is the default"
        );
        assert!(parse("post_split_strategy = \"cdz-\"").is_err());
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
