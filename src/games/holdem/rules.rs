//! Hold'em rules: the standard game, with no variants. Every Hold'em job takes an empty
//! (or absent) `[rules]` table, except `holdem.pushfold`, whose `[rules]` holds the ante
//! ([`PushFoldRules`]) and whose `[pushfold]` table the stacks to solve
//! ([`PushFoldSettings`]); any other key is an error at its line.

use serde::Deserialize;

use super::classes::CLASSES;
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

/// Largest ante a push/fold job takes, in big blinds.
pub const MAX_ANTE: f64 = 10.0;
/// Largest effective stack a push/fold job solves, in big blinds.
pub const MAX_STACK: f64 = 1000.0;
/// Most stacks one push/fold job solves.
pub const MAX_STACKS: usize = 20_000;
/// Most decimal places of a stack grid's first stack and step.
const MAX_DECIMALS: u32 = 6;

/// The `[rules]` of a `holdem.pushfold` job: standard Hold'em, blinds 0.5 and 1 big
/// blind, and an ante each player posts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PushFoldRules {
    /// Ante per player, in big blinds (0 to 10).
    pub ante: f64,
}

impl PushFoldRules {
    pub fn from_spec(spec: &JobSpec) -> Result<PushFoldRules, JobError> {
        let rules: PushFoldRules = spec.rules()?;
        if !(rules.ante.is_finite() && (0.0..=MAX_ANTE).contains(&rules.ante)) {
            return Err(spec.field_error(
                "rules.ante",
                format!(
                    "the ante is {} big blinds: it must be between 0 and {MAX_ANTE}",
                    rules.ante
                ),
            ));
        }
        Ok(rules)
    }

    /// The rule set as the outputs record it.
    pub fn canonical_toml(&self) -> String {
        format!(
            "{}# push/fold: small blind 0.5, big blind 1, every amount in big blinds\nante = {:?}\n",
            HoldemRules::default().canonical_toml(),
            self.ante
        )
    }
}

/// The smallest exploitability target accepted: 1e-12 big blinds, far above the
/// 1e-16-scale rounding of the solutions the shipped jobs reach (6.1e-16 bb at worst over
/// 241 stacks).
pub const MIN_TARGET_EXPLOITABILITY: f64 = 1e-12;

/// The `[pushfold]` table: the stacks to solve (`stack_min`, `stack_min + stack_step`, …
/// up to `stack_max`) and the exploitability every solution must reach.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PushFoldSettings {
    pub stack_min: f64,
    pub stack_max: f64,
    pub stack_step: f64,
    /// Largest acceptable exploitability (both players' best-response gains), big blinds.
    pub target_exploitability: f64,
}

impl Default for PushFoldSettings {
    fn default() -> Self {
        PushFoldSettings {
            stack_min: 1.0,
            stack_max: 25.0,
            stack_step: 0.1,
            target_exploitability: 1e-9,
        }
    }
}

/// The effective stacks a push/fold job solves: `min + k · step` for k < `count`, each
/// rounded to `decimals` places (so 0.1 steps give 2.3, not 2.3000000000000003).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StackGrid {
    pub min: f64,
    pub step: f64,
    pub count: usize,
    pub decimals: u32,
}

impl StackGrid {
    /// The `k`-th stack.
    pub fn stack(&self, k: usize) -> f64 {
        let scale = 10f64.powi(self.decimals as i32);
        ((self.min + k as f64 * self.step) * scale).round() / scale
    }

    /// Every stack, smallest first.
    pub fn stacks(&self) -> Vec<f64> {
        (0..self.count).map(|k| self.stack(k)).collect()
    }

    /// A stack as text with the grid's decimals.
    pub fn label(&self, stack: f64) -> String {
        format!("{stack:.*}", self.decimals as usize)
    }
}

/// Places needed to write `v` exactly to 1e-9, if at most [`MAX_DECIMALS`].
fn decimals(v: f64) -> Option<u32> {
    (0..=MAX_DECIMALS).find(|&d| {
        let scaled = v * 10f64.powi(d as i32);
        (scaled - scaled.round()).abs() < 1e-9 * scaled.abs().max(1.0)
    })
}

impl PushFoldSettings {
    /// Reads and checks `[pushfold]` against the ante: every stack must cover the blind
    /// and ante the big blind posts.
    pub fn from_spec(
        spec: &JobSpec,
        rules: &PushFoldRules,
    ) -> Result<(PushFoldSettings, StackGrid), JobError> {
        #[derive(Deserialize)]
        struct Sections {
            #[serde(default)]
            pushfold: Option<PushFoldSettings>,
        }
        let s = spec.deserialize::<Sections>()?.pushfold.unwrap_or_default();
        let grid = stack_grid(
            spec,
            "pushfold",
            [s.stack_min, s.stack_max, s.stack_step],
            rules.ante,
            MAX_STACKS,
        )?;
        check_target(spec, "pushfold", s.target_exploitability)?;
        Ok((s, grid))
    }
}

/// Most stacks one `holdem.pushfold3` job solves (each spot is a solve over every ordered
/// triple of classes, seconds with all 169).
pub const MAX_STACKS3: usize = 1_000;

/// The `[pushfold3]` table as written: the classes dealt, the equal stacks to solve, the
/// certificate's bound, and the payouts of the ICM spots.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct PushFold3Section {
    classes: Option<Vec<String>>,
    stack_min: f64,
    stack_max: f64,
    stack_step: f64,
    target_exploitability: f64,
    payouts: Option<Vec<f64>>,
    threeway: Option<String>,
    spots: Vec<Vec<f64>>,
}

impl Default for PushFold3Section {
    fn default() -> Self {
        PushFold3Section {
            classes: None,
            stack_min: 1.0,
            stack_max: 25.0,
            stack_step: 1.0,
            target_exploitability: 1e-4,
            payouts: None,
            threeway: None,
            spots: vec![],
        }
    }
}

/// A `holdem.pushfold3` job's settings, checked.
#[derive(Debug, Clone, PartialEq)]
pub struct PushFold3Settings {
    /// The classes the three hands are dealt from (all 169 unless restricted), increasing.
    pub classes: Vec<u8>,
    pub grid: StackGrid,
    /// Largest acceptable exploitability per spot, in big blinds (in ICM, the prize a big
    /// blind is worth on average times this).
    pub target_exploitability: f64,
    /// The ICM payouts; `None`: chip EV only.
    pub payouts: Option<Vec<f64>>,
    /// A finished `holdem.threeway` table (`threeway.parquet`) to read the three-way
    /// counts from instead of computing them (hours with all 169 classes); `None`: the
    /// job computes them.
    pub threeway: Option<std::path::PathBuf>,
    /// Spots at unequal stacks besides the equal-stack grid: each seat's stack (BTN, SB,
    /// BB) before posting, in big blinds.
    pub spots: Vec<[f64; 3]>,
}

impl PushFold3Settings {
    pub fn from_spec(spec: &JobSpec, rules: &PushFoldRules) -> Result<PushFold3Settings, JobError> {
        #[derive(Deserialize)]
        struct Sections {
            #[serde(default)]
            pushfold3: Option<PushFold3Section>,
        }
        let s = spec
            .deserialize::<Sections>()?
            .pushfold3
            .unwrap_or_default();
        let classes = match &s.classes {
            None => (0..CLASSES as u8).collect(),
            Some(names) => class_list(spec, "pushfold3.classes", names)?,
        };
        let grid = stack_grid(
            spec,
            "pushfold3",
            [s.stack_min, s.stack_max, s.stack_step],
            rules.ante,
            MAX_STACKS3,
        )?;
        check_target(spec, "pushfold3", s.target_exploitability)?;
        if let Some(p) = &s.payouts {
            super::icm::validate_payouts(p)
                .map_err(|e| spec.field_error("pushfold3.payouts", e.to_string()))?;
            if p.len() > 3 {
                return Err(spec.field_error(
                    "pushfold3.payouts",
                    format!("{} payouts for three players: give at most 3", p.len()),
                ));
            }
        }
        if s.spots.len() + grid.count > MAX_STACKS3 {
            return Err(spec.field_error(
                "pushfold3.spots",
                format!(
                    "{} spots and {} equal stacks: a job solves at most {MAX_STACKS3} spots",
                    s.spots.len(),
                    grid.count
                ),
            ));
        }
        let mut spots = Vec::with_capacity(s.spots.len());
        for (i, spot) in s.spots.iter().enumerate() {
            let at = "pushfold3.spots";
            let [b, sb, bb] = spot[..] else {
                return Err(spec.field_error(
                    at,
                    format!(
                        "spot {}: {} stacks: give the three seats' stacks, [BTN, SB, BB] in big blinds",
                        i + 1,
                        spot.len()
                    ),
                ));
            };
            for (seat, x) in ["BTN", "SB", "BB"].iter().zip([b, sb, bb]) {
                if !(x.is_finite() && x >= 1.0 + rules.ante && x <= MAX_STACK) {
                    return Err(spec.field_error(
                        at,
                        format!(
                            "spot {}: the {seat}'s stack {x} bb: each stack must cover the big blind and ante ({} bb) and be at most {MAX_STACK}",
                            i + 1,
                            1.0 + rules.ante
                        ),
                    ));
                }
            }
            if spots.contains(&[b, sb, bb]) || (b == sb && sb == bb && grid.stacks().contains(&b)) {
                return Err(spec.field_error(
                    at,
                    format!("spot {}: {b}/{sb}/{bb} is already a spot", i + 1),
                ));
            }
            spots.push([b, sb, bb]);
        }
        let threeway = match s.threeway.as_deref() {
            None => None,
            Some(path) if path.trim().is_empty() => {
                return Err(spec.field_error(
                    "pushfold3.threeway",
                    "an empty path: give a holdem.threeway job's threeway.parquet, or leave the field out to compute the three-way counts",
                ))
            }
            Some(path) => Some(std::path::PathBuf::from(path)),
        };
        Ok(PushFold3Settings {
            classes,
            grid,
            target_exploitability: s.target_exploitability,
            payouts: s.payouts,
            threeway,
            spots,
        })
    }

    /// The settings as the outputs record them, after the ante's rules.
    pub fn canonical_toml(&self, rules: &PushFoldRules) -> String {
        let names: Vec<String> = self
            .classes
            .iter()
            .map(|&c| format!("{:?}", super::classes::class_name(usize::from(c))))
            .collect();
        let payouts = match &self.payouts {
            None => String::from("# chip EV only\n"),
            Some(p) => format!(
                "payouts = [{}]\n",
                p.iter()
                    .map(|x| format!("{x:?}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        // Written only when there are some, so equal-stack jobs keep their rules hash.
        let spots = if self.spots.is_empty() {
            String::new()
        } else {
            format!(
                "# spots at unequal stacks: BTN, SB, BB\nspots = [{}]\n",
                self.spots
                    .iter()
                    .map(|s| format!("[{:?}, {:?}, {:?}]", s[0], s[1], s[2]))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        format!(
            "{}# three-handed push/fold at equal stacks; hands dealt from these classes\nclasses = [{}]\n{payouts}{spots}",
            rules.canonical_toml(),
            names.join(", ")
        )
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

    fn pushfold(tables: &str) -> JobSpec {
        JobSpec::parse(
            "p.toml",
            format!("[job]\nkind = \"holdem.pushfold\"\nname = \"p\"\n{tables}"),
        )
        .unwrap()
    }

    fn settings(tables: &str) -> Result<(PushFoldSettings, StackGrid), JobError> {
        let spec = pushfold(tables);
        PushFoldSettings::from_spec(&spec, &PushFoldRules::from_spec(&spec)?)
    }

    #[test]
    fn the_default_grid_is_241_stacks_in_tenths() {
        let (s, grid) = settings("").unwrap();
        assert_eq!(s, PushFoldSettings::default());
        assert_eq!(grid.count, 241);
        assert_eq!(grid.decimals, 1);
        assert_eq!(grid.stack(13), 2.3);
        assert_eq!(grid.stack(240), 25.0);
        assert_eq!(grid.label(grid.stack(90)), "10.0");
        let (_, grid) =
            settings("[pushfold]\nstack_min = 2\nstack_max = 3\nstack_step = 0.25\n").unwrap();
        assert_eq!(grid.stacks(), vec![2.0, 2.25, 2.5, 2.75, 3.0]);
    }

    #[test]
    fn bad_push_fold_fields_are_errors_at_their_line() {
        let at = |tables: &str| {
            let e = settings(tables).unwrap_err();
            (
                e.field.clone().unwrap_or_default(),
                e.location.map(|l| l.0),
                e.message,
            )
        };
        let (field, line, message) = at("[rules]\nante = -0.5\n");
        assert_eq!((field.as_str(), line), ("rules.ante", Some(5)), "{message}");
        // The big blind must be able to post its blind and ante.
        let (field, _, message) = at("[rules]\nante = 0.5\n");
        assert_eq!(field, "pushfold.stack_min", "{message}");
        assert!(message.contains("1.5"), "{message}");
        let (field, line, _) = at("[pushfold]\nstack_max = 0.5\n");
        assert_eq!((field.as_str(), line), ("pushfold.stack_max", Some(5)));
        let (field, _, _) = at("[pushfold]\nstack_step = 0\n");
        assert_eq!(field, "pushfold.stack_step");
        let (field, _, message) = at("[pushfold]\nstack_step = 1e-5\nstack_max = 1000\n");
        assert_eq!(field, "pushfold.stack_step");
        assert!(message.contains("at most 20000"), "{message}");
        let (field, _, _) = at("[pushfold]\nstack_step = 0.1234567\n");
        assert_eq!(field, "pushfold.stack_step");
        let (field, _, _) = at("[pushfold]\ntarget_exploitability = 0\n");
        assert_eq!(field, "pushfold.target_exploitability");
        let (field, line, _) = at("[pushfold]\nstacks = 3\n");
        assert_eq!(line, Some(5), "{field}");
        assert!(settings("[pushfold]\nstack_max = nan\n").is_err());
    }
}

/// A street of a `holdem.postflop` job, as `[postflop] streets` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StreetName {
    Preflop,
    Flop,
    Turn,
    River,
}

/// The `[postflop]` table of a `holdem.postflop` job: which streets' tables to write (all
/// are computed: each street is summed from the next) and the histogram's bins.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PostflopSettings {
    pub streets: Vec<StreetName>,
    pub bins: u32,
}

impl Default for PostflopSettings {
    fn default() -> Self {
        PostflopSettings {
            streets: vec![
                StreetName::Preflop,
                StreetName::Flop,
                StreetName::Turn,
                StreetName::River,
            ],
            bins: 50,
        }
    }
}

impl PostflopSettings {
    pub fn from_spec(spec: &JobSpec) -> Result<PostflopSettings, JobError> {
        #[derive(Deserialize)]
        struct Sections {
            #[serde(default)]
            postflop: Option<PostflopSettings>,
        }
        let s = spec.deserialize::<Sections>()?.postflop.unwrap_or_default();
        let max = super::postflop::MAX_BINS;
        if !(1..=max as u32).contains(&s.bins) {
            return Err(spec.field_error(
                "postflop.bins",
                format!("bins is {}: a histogram has 1 to {max} bins", s.bins),
            ));
        }
        if s.streets.is_empty() {
            return Err(spec.field_error(
                "postflop.streets",
                "no street asked for: name one or more of \"preflop\", \"flop\", \"turn\", \"river\"",
            ));
        }
        let mut sorted = s.streets.clone();
        sorted.sort_unstable();
        if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
            return Err(spec.field_error(
                "postflop.streets",
                format!("{:?} is named twice", w[0]).to_lowercase(),
            ));
        }
        Ok(PostflopSettings {
            streets: sorted,
            bins: s.bins,
        })
    }

    /// Whether the job writes this street's tables.
    pub fn writes(&self, street: StreetName) -> bool {
        self.streets.contains(&street)
    }

    /// The settings as the outputs record them: the bins change the histograms.
    pub fn canonical_toml(&self) -> String {
        format!(
            "{}# post-flop hand strength against one random hand; HS histograms of equal bins\nbins = {}\n",
            HoldemRules::default().canonical_toml(),
            self.bins
        )
    }
}

/// The stacks `[min, max, step]` of a push/fold section: from the big blind plus the
/// ante up to [`MAX_STACK`], at most `max_stacks` of them, with at most [`MAX_DECIMALS`]
/// places; errors name `section.stack_*`.
fn stack_grid(
    spec: &JobSpec,
    section: &str,
    values: [f64; 3],
    ante: f64,
    max_stacks: usize,
) -> Result<StackGrid, JobError> {
    let [stack_min, stack_max, stack_step] = values;
    let posted = 1.0 + ante;
    let field =
        |name: &str, message: String| spec.field_error(&format!("{section}.{name}"), message);
    if !(stack_min.is_finite() && stack_min >= posted - 1e-12 && stack_min <= MAX_STACK) {
        return Err(field(
            "stack_min",
            format!(
                "stack_min is {}: stacks run from the big blind plus the ante ({posted}) to {MAX_STACK} big blinds",
                stack_min
            ),
        ));
    }
    if !(stack_max.is_finite() && stack_max >= stack_min && stack_max <= MAX_STACK) {
        return Err(field(
            "stack_max",
            format!(
                "stack_max is {}: it must be between stack_min ({}) and {MAX_STACK}",
                stack_max, stack_min
            ),
        ));
    }
    if !(stack_step.is_finite() && stack_step > 0.0) {
        return Err(field(
            "stack_step",
            format!("stack_step is {}: it must be positive", stack_step),
        ));
    }
    let places = match (decimals(stack_min), decimals(stack_step)) {
        (Some(a), Some(b)) => a.max(b),
        _ => {
            return Err(field(
                "stack_step",
                format!("stack_min and stack_step may have at most {MAX_DECIMALS} decimal places"),
            ))
        }
    };
    let span = (stack_max - stack_min) / stack_step;
    if span >= max_stacks as f64 {
        return Err(field(
            "stack_step",
            format!(
                "{:.0} stacks from {} to {} in steps of {}: a job solves at most {max_stacks}",
                span.floor() + 1.0,
                stack_min,
                stack_max,
                stack_step
            ),
        ));
    }
    Ok(StackGrid {
        min: stack_min,
        step: stack_step,
        count: (span + 1e-9).floor() as usize + 1,
        decimals: places,
    })
}

/// A section's `target_exploitability`, in big blinds.
fn check_target(spec: &JobSpec, section: &str, target: f64) -> Result<(), JobError> {
    // Below MIN_TARGET_EXPLOITABILITY the rounding of the payoffs' sums (1e-16 of
    // stacks up to 1000 bb) can exceed the target: a run could compute for minutes
    // and then fail a target no f64 solution can be certified to meet.
    if !(target.is_finite() && (MIN_TARGET_EXPLOITABILITY..=1.0).contains(&target)) {
        return Err(spec.field_error(
            &format!("{section}.target_exploitability"),
            format!(
                "target_exploitability is {:?}: use {MIN_TARGET_EXPLOITABILITY:e} to 1 big blind (below, double-precision rounding alone can exceed it)",
                target
            ),
        ));
    }
    Ok(())
}

/// A list of class names (`"AKs"`, `"QQ"`) as increasing class indices, each named
/// once; errors name `field`.
fn class_list(spec: &JobSpec, field: &str, names: &[String]) -> Result<Vec<u8>, JobError> {
    if names.is_empty() {
        return Err(spec.field_error(
                field,
                "the list is empty: name one or more classes (\"AKs\", \"QQ\", \"T9o\"), or leave it out for all 169",
            ));
    }
    let mut classes = Vec::with_capacity(names.len());
    for (i, name) in names.iter().enumerate() {
        // Class names only: two cards would name one combination, not its class.
        let class = match cardtables::card::parse_exact(name, 2) {
            Ok(_) => None,
            Err(_) => cardtables::holdem::class_of_text(name).ok(),
        };
        let Some(class) = class else {
            return Err(spec.field_error(
                field,
                format!(
                    "entry {} ({name:?}) is not a starting-hand class: write a pair (\"QQ\"), \
                         suited (\"AKs\") or offsuit (\"T9o\") class",
                    i + 1
                ),
            ));
        };
        if classes.contains(&(class as u8)) {
            return Err(spec.field_error(
                field,
                format!("entry {} ({name:?}) names a class already listed", i + 1),
            ));
        }
        classes.push(class as u8);
    }
    classes.sort_unstable();
    Ok(classes)
}

/// The `[threeway]` table of a `holdem.threeway` job: the classes whose triples the job
/// computes (every one of the 169 when left out), as class names (`"AKs"`, `"QQ"`).
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct ThreeWaySection {
    classes: Option<Vec<String>>,
}

/// The classes a `holdem.threeway` job covers, as increasing class indices.
#[derive(Debug, Clone, PartialEq)]
pub struct ThreeWaySettings {
    pub classes: Vec<u8>,
}

impl ThreeWaySettings {
    pub fn from_spec(spec: &JobSpec) -> Result<ThreeWaySettings, JobError> {
        #[derive(Deserialize)]
        struct Sections {
            #[serde(default)]
            threeway: Option<ThreeWaySection>,
        }
        let section = spec.deserialize::<Sections>()?.threeway.unwrap_or_default();
        let Some(names) = section.classes else {
            return Ok(ThreeWaySettings {
                classes: (0..CLASSES as u8).collect(),
            });
        };
        Ok(ThreeWaySettings {
            classes: class_list(spec, "threeway.classes", &names)?,
        })
    }

    /// The settings as the outputs record them: the classes change which triples exist.
    pub fn canonical_toml(&self) -> String {
        let names: Vec<String> = self
            .classes
            .iter()
            .map(|&c| format!("{:?}", super::classes::class_name(usize::from(c))))
            .collect();
        format!(
            "{}# three-way all-in equity of every triple of these classes, exact\nclasses = [{}]\n",
            HoldemRules::default().canonical_toml(),
            names.join(", ")
        )
    }
}
