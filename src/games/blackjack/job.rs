//! Job kind `blackjack.strategy`: the exact analysis of every rule set of a grid, each
//! rule set's basic strategy chart played through the seeded simulator, and the tables,
//! runtime file and report built from them.
//!
//! Units: one exact analysis per rule set, then the simulation of each rule set's chart
//! in chunks of [`ROUNDS_PER_UNIT`] rounds, each chunk with its own random stream (job
//! seed, unit index). Optionally the seed article's strategy is simulated too.

use std::sync::{Arc, OnceLock};

use arrow_array::{
    ArrayRef, BooleanArray, Float64Array, RecordBatch, StringArray, UInt64Array, UInt8Array,
};
use cardtables::blackjack::{cell_code, Action, BlackjackPayload, Row, RuleSet, ACTIONS, RANKS};
use serde::{Deserialize, Serialize};

use super::analysis::{self, Analysis};
use super::dealer::BLACKJACK;
use super::hands::{self, rank_name, Hands};
use super::report;
use super::rules::{BlackjackRules, Decks, Double, Surrender};
use super::sim::{self, Player, Shuffle, Tally};
use crate::engine::{stream, BinaryOutput, Job, Outputs, Progress};
use crate::job::{JobError, JobSpec};
use crate::sink::parquet::ParquetOutput;

/// Simulated rounds per work unit (about a second on one core).
pub const ROUNDS_PER_UNIT: u64 = 10_000_000;
/// Most rule sets one job may expand to.
const MAX_RULE_SETS: usize = 1_000;
/// Rule fields in the order a grid varies them (the first varies slowest).
pub const RULE_FIELDS: [&str; 10] = [
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
];

/// The `[simulation]` table.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SimulationSettings {
    /// Rounds simulated per rule set (0: no simulation).
    pub rounds: u64,
    /// Shuffle when this fraction of the shoe is dealt; absent: before every round (what
    /// the exact analysis assumes, so the check is direct).
    pub penetration: Option<f64>,
    /// Also simulate the seed article's strategy chart, for comparison.
    pub compare_seed_strategy: bool,
}

impl Default for SimulationSettings {
    fn default() -> Self {
        SimulationSettings {
            rounds: 10_000_000,
            penetration: None,
            compare_seed_strategy: false,
        }
    }
}

#[derive(Deserialize)]
struct Sections {
    #[serde(default)]
    rules: Option<toml::Table>,
    #[serde(default)]
    grid: Option<toml::Table>,
    #[serde(default)]
    simulation: Option<SimulationSettings>,
}

/// One rule set of the job.
#[derive(Clone, Debug)]
pub struct RuleSetSpec {
    pub id: String,
    pub rules: BlackjackRules,
}

/// Which chart a simulation unit plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Strategy {
    Basic,
    Seed,
}

#[derive(Clone, Copy, Debug)]
enum Plan {
    Analyze(usize),
    Simulate {
        set: usize,
        strategy: Strategy,
        rounds: u64,
    },
}

/// What one unit computes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Unit {
    Analysis(Box<Analysis>),
    Simulation(Tally),
}

/// The `blackjack.strategy` job.
pub struct StrategyJob {
    name: String,
    description: String,
    job_file: String,
    seed: u64,
    rules_toml: String,
    sets: Vec<RuleSetSpec>,
    simulation: SimulationSettings,
    plan: Vec<Plan>,
    /// Each rule set's analysis, computed once per process for the simulation units.
    analyses: Vec<OnceLock<Analysis>>,
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
    id
}

/// Expands `[rules]` and `[grid]` into rule sets, each validated.
pub fn expand(spec: &JobSpec) -> Result<(Vec<RuleSetSpec>, SimulationSettings, String), JobError> {
    let sections: Sections = spec.deserialize()?;
    let base = sections.rules.unwrap_or_default();
    for key in base.keys() {
        if !RULE_FIELDS.contains(&key.as_str()) {
            return Err(spec.field_error(
                &format!("rules.{key}"),
                format!(
                    "unknown rule field: the fields are {}",
                    RULE_FIELDS.join(", ")
                ),
            ));
        }
    }
    let grid = sections.grid.unwrap_or_default();
    let mut axes: Vec<(&str, Vec<toml::Value>)> = Vec::new();
    for key in grid.keys() {
        if !RULE_FIELDS.contains(&key.as_str()) {
            return Err(spec.field_error(
                &format!("grid.{key}"),
                format!(
                    "unknown rule field: the fields are {}",
                    RULE_FIELDS.join(", ")
                ),
            ));
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
    let count: usize = axes.iter().map(|(_, v)| v.len()).product();
    if count > MAX_RULE_SETS {
        return Err(spec.field_error(
            "grid",
            format!("{count} rule sets: a job may analyse at most {MAX_RULE_SETS}"),
        ));
    }
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
                    let field = axes
                        .first()
                        .map(|(f, _)| format!("grid.{f}"))
                        .unwrap_or_else(|| "rules".into());
                    spec.field_error(&field, format!("{} ({})", e.message(), described()))
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
    let mut rules_toml = String::from("# Blackjack: [rules] and [grid] of the job\n");
    rules_toml.push_str(&toml::to_string(&Sections2 { rules: base, grid }).unwrap_or_default());
    Ok((sets, simulation, rules_toml))
}

#[derive(Serialize)]
struct Sections2 {
    rules: toml::Table,
    grid: toml::Table,
}

impl StrategyJob {
    pub fn new(spec: &JobSpec) -> Result<StrategyJob, JobError> {
        let (sets, simulation, rules_toml) = expand(spec)?;
        let mut plan: Vec<Plan> = (0..sets.len()).map(Plan::Analyze).collect();
        let mut strategies = vec![Strategy::Basic];
        if simulation.compare_seed_strategy {
            strategies.push(Strategy::Seed);
        }
        for &strategy in &strategies {
            for set in 0..sets.len() {
                let mut left = simulation.rounds;
                while left > 0 {
                    let rounds = left.min(ROUNDS_PER_UNIT);
                    plan.push(Plan::Simulate {
                        set,
                        strategy,
                        rounds,
                    });
                    left -= rounds;
                }
            }
        }
        Ok(StrategyJob {
            name: spec.name.clone(),
            description: spec.description.clone(),
            job_file: spec.file_name(),
            seed: spec.run.seed,
            rules_toml,
            analyses: (0..sets.len()).map(|_| OnceLock::new()).collect(),
            sets,
            simulation,
            plan,
        })
    }

    fn analysis(&self, set: usize) -> &Analysis {
        self.analyses[set].get_or_init(|| analysis::analyze(&self.sets[set].rules))
    }
}

impl Job for StrategyJob {
    type Unit = Unit;

    fn unit_count(&self) -> usize {
        self.plan.len()
    }

    fn run_unit(&self, index: usize) -> Unit {
        match self.plan[index] {
            Plan::Analyze(set) => Unit::Analysis(Box::new(self.analysis(set).clone())),
            Plan::Simulate {
                set,
                strategy,
                rounds,
            } => {
                let rules = &self.sets[set].rules;
                let seed_chart;
                let chart = match strategy {
                    Strategy::Basic => &self.analysis(set).chart,
                    Strategy::Seed => {
                        seed_chart = sim::seed_chart();
                        &seed_chart
                    }
                };
                let shuffle = match self.simulation.penetration {
                    Some(p) => Shuffle::Penetration(p),
                    None => Shuffle::EveryRound,
                };
                let mut rng = stream(self.seed, index as u64);
                Unit::Simulation(Player::new(rules, chart).simulate(rounds, shuffle, &mut rng))
            }
        }
    }

    fn finish(&self, units: Vec<Unit>, progress: &Progress) -> anyhow::Result<Outputs> {
        progress.phase("building tables");
        let n = self.sets.len();
        let mut analyses: Vec<Option<Analysis>> = vec![None; n];
        let mut basic = vec![Tally::default(); n];
        let mut seed = vec![Tally::default(); n];
        for (plan, unit) in self.plan.iter().zip(units) {
            match (plan, unit) {
                (Plan::Analyze(set), Unit::Analysis(a)) => analyses[*set] = Some(*a),
                (Plan::Simulate { set, strategy, .. }, Unit::Simulation(t)) => match strategy {
                    Strategy::Basic => basic[*set].add(&t),
                    Strategy::Seed => seed[*set].add(&t),
                },
                _ => anyhow::bail!("internal error: a unit result does not match its plan"),
            }
        }
        let analyses: Vec<Analysis> = analyses
            .into_iter()
            .map(|a| {
                a.ok_or_else(|| anyhow::anyhow!("internal error: a rule set was not analysed"))
            })
            .collect::<anyhow::Result<_>>()?;
        let results = Results {
            sets: &self.sets,
            analyses: &analyses,
            basic: &basic,
            seed: self.simulation.compare_seed_strategy.then_some(&seed[..]),
        };
        let payload = BlackjackPayload {
            rules: self.rules_toml.clone(),
            rule_sets: self
                .sets
                .iter()
                .zip(&analyses)
                .map(|(s, a)| runtime_rule_set(s, a))
                .collect(),
        };
        let table =
            cardtables::Blackjack::to_bytes(crate::sink::rules_hash(&self.rules_toml), &payload)?;
        Ok(Outputs {
            parquet: vec![
                results.dealer_table()?,
                results.hands_table()?,
                results.strategy_table()?,
                results.summary_table()?,
            ],
            tables: vec![BinaryOutput {
                file: "blackjack.bin".into(),
                bytes: table,
                entries: (n * hands::starting_hands().count() * RANKS) as u64,
            }],
            report: report::build(&report::Context {
                name: &self.name,
                description: &self.description,
                job_file: &self.job_file,
                simulation: &self.simulation,
                results: &results,
            })?,
            rules: self.rules_toml.clone(),
        })
    }
}

fn runtime_rule_set(s: &RuleSetSpec, a: &Analysis) -> RuleSet {
    let mut evs = Vec::with_capacity(55 * RANKS * ACTIONS);
    for hand in 0..hands::starting_hands().count() {
        for up in &a.upcards {
            evs.extend_from_slice(&up.hands[hand]);
        }
    }
    RuleSet {
        id: s.id.clone(),
        rules: toml::to_string(&s.rules).unwrap_or_default(),
        conditioned_on_no_blackjack: s.rules.dealer_peeks,
        max_split_hands: s.rules.max_split_hands,
        house_edge: -a.optimal_ev,
        basic_strategy_ev: a.chart_ev,
        evs,
        chart: a.chart.clone(),
    }
}

/// Everything the tables and the report are built from.
pub struct Results<'a> {
    pub sets: &'a [RuleSetSpec],
    pub analyses: &'a [Analysis],
    pub basic: &'a [Tally],
    pub seed: Option<&'a [Tally]>,
}

/// Upcards in the order charts print them: 2..9, T, A.
pub const UPCARD_ORDER: [usize; RANKS] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 0];

/// A row's label: `hard 16`, `soft 18`, `pair 8`.
pub fn row_label(row: Row) -> String {
    match row {
        Row::Hard(t) => format!("hard {t}"),
        Row::Soft(t) => format!("soft {t}"),
        Row::Pair(r) => format!("pair {}", rank_name(r)),
    }
}

fn strings<I: IntoIterator<Item = String>>(v: I) -> ArrayRef {
    Arc::new(StringArray::from_iter_values(v))
}

fn floats(v: Vec<f64>) -> ArrayRef {
    Arc::new(Float64Array::from(v))
}

fn optional_floats(v: Vec<f64>) -> ArrayRef {
    Arc::new(Float64Array::from_iter(
        v.into_iter().map(|x| (!x.is_nan()).then_some(x)),
    ))
}

/// The rule columns every per-rule-set table repeats.
fn rule_columns(rows: &[&BlackjackRules]) -> Vec<(&'static str, ArrayRef)> {
    let text = |f: &dyn Fn(&BlackjackRules) -> String| strings(rows.iter().map(|r| f(r)));
    let flag = |f: &dyn Fn(&BlackjackRules) -> bool| -> ArrayRef {
        Arc::new(BooleanArray::from(
            rows.iter().map(|r| f(r)).collect::<Vec<_>>(),
        ))
    };
    vec![
        (
            "decks",
            text(&|r| match r.decks {
                Decks::Finite(n) => n.to_string(),
                Decks::Infinite(_) => "infinite".into(),
            }),
        ),
        ("dealer_hits_soft_17", flag(&|r| r.dealer_hits_soft_17)),
        (
            "blackjack_pays",
            floats(rows.iter().map(|r| r.blackjack_pays).collect()),
        ),
        (
            "double",
            text(&|r| match r.double {
                Double::AnyTwo => "any_two".into(),
                Double::NineToEleven => "9_11".into(),
                Double::TenOrEleven => "10_11".into(),
            }),
        ),
        ("double_after_split", flag(&|r| r.double_after_split)),
        (
            "max_split_hands",
            Arc::new(UInt8Array::from_iter_values(
                rows.iter().map(|r| r.max_split_hands),
            )),
        ),
        ("resplit_aces", flag(&|r| r.resplit_aces)),
        ("hit_split_aces", flag(&|r| r.hit_split_aces)),
        (
            "surrender",
            text(&|r| match r.surrender {
                Surrender::None => "none".into(),
                Surrender::Late => "late".into(),
                Surrender::Early => "early".into(),
            }),
        ),
        ("dealer_peeks", flag(&|r| r.dealer_peeks)),
    ]
}

fn batch(columns: Vec<(&'static str, ArrayRef)>) -> anyhow::Result<RecordBatch> {
    Ok(RecordBatch::try_from_iter(columns)?)
}

impl Results<'_> {
    fn dealer_table(&self) -> anyhow::Result<ParquetOutput> {
        let (mut set, mut up, mut conditioned) = (vec![], vec![], vec![]);
        let mut p: Vec<Vec<f64>> = vec![vec![]; 7];
        for (s, a) in self.sets.iter().zip(self.analyses) {
            for &u in &UPCARD_ORDER {
                let ua = &a.upcards[u];
                for (cond, outcomes) in [(false, ua.dealer), (true, ua.dealer_no_blackjack)] {
                    if cond && u != hands::ACE && u != hands::TEN {
                        continue;
                    }
                    set.push(s.id.clone());
                    up.push(rank_name(u).to_string());
                    conditioned.push(cond);
                    for (col, v) in p.iter_mut().zip(outcomes) {
                        col.push(v);
                    }
                }
            }
        }
        let names = ["p17", "p18", "p19", "p20", "p21", "bust", "blackjack"];
        let mut columns: Vec<(&'static str, ArrayRef)> = vec![
            ("rule_set", strings(set)),
            ("upcard", strings(up)),
            (
                "conditioned_on_no_blackjack",
                Arc::new(BooleanArray::from(conditioned)),
            ),
        ];
        for (name, col) in names.into_iter().zip(p) {
            columns.push((name, floats(col)));
        }
        debug_assert_eq!(names[BLACKJACK], "blackjack");
        Ok(ParquetOutput {
            file: "dealer.parquet".into(),
            batches: vec![batch(columns)?],
            plain_columns: vec![],
        })
    }

    fn hands_table(&self) -> anyhow::Result<ParquetOutput> {
        let g = Hands::get();
        let mut rules: Vec<&BlackjackRules> = vec![];
        let (mut set, mut hand, mut cards, mut up, mut best_action, mut conditioned) =
            (vec![], vec![], vec![], vec![], vec![], vec![]);
        let mut ev: Vec<Vec<f64>> = vec![vec![]; ACTIONS];
        let (mut best_ev, mut deal) = (vec![], vec![]);
        for (s, a) in self.sets.iter().zip(self.analyses) {
            for (i, (x, y)) in hands::starting_hands().enumerate() {
                let h = g.hand(g.pair(x, y));
                let label = if x == y {
                    format!("pair {}", rank_name(x))
                } else if (x, y) == (hands::ACE, hands::TEN) {
                    "blackjack".to_string()
                } else if h.soft {
                    format!("soft {}", h.total)
                } else {
                    format!("hard {}", h.total)
                };
                for &u in &UPCARD_ORDER {
                    let evs = &a.upcards[u].hands[i];
                    rules.push(&s.rules);
                    set.push(s.id.clone());
                    hand.push(label.clone());
                    cards.push(format!("{} {}", rank_name(x), rank_name(y)));
                    up.push(rank_name(u).to_string());
                    for (col, &v) in ev.iter_mut().zip(evs) {
                        col.push(v);
                    }
                    let (action, v) = analysis::best(evs);
                    best_action.push(if v.is_finite() { action.name() } else { "" }.to_string());
                    best_ev.push(v);
                    deal.push(a.upcards[u].deal_probability[i]);
                    conditioned.push(s.rules.dealer_peeks);
                }
            }
        }
        let mut columns = vec![("rule_set", strings(set))];
        columns.extend(rule_columns(&rules));
        columns.push(("hand", strings(hand)));
        columns.push(("cards", strings(cards)));
        columns.push(("upcard", strings(up)));
        for (name, col) in [
            "ev_stand",
            "ev_hit",
            "ev_double",
            "ev_split",
            "ev_surrender",
        ]
        .into_iter()
        .zip(ev)
        {
            columns.push((name, optional_floats(col)));
        }
        columns.push(("best_action", strings(best_action)));
        columns.push(("best_ev", optional_floats(best_ev)));
        columns.push(("deal_probability", floats(deal)));
        columns.push((
            "conditioned_on_no_blackjack",
            Arc::new(BooleanArray::from(conditioned)),
        ));
        Ok(ParquetOutput {
            file: "hands.parquet".into(),
            batches: vec![batch(columns)?],
            plain_columns: vec!["ev_stand", "ev_hit", "ev_double", "ev_split", "best_ev"],
        })
    }

    fn strategy_table(&self) -> anyhow::Result<ParquetOutput> {
        let (mut set, mut row, mut kind, mut value, mut up, mut code, mut first) =
            (vec![], vec![], vec![], vec![], vec![], vec![], vec![]);
        for (s, a) in self.sets.iter().zip(self.analyses) {
            for r in Row::all() {
                let i = r.index().unwrap_or(0);
                for &u in &UPCARD_ORDER {
                    let cell = &a.chart[i * RANKS + u];
                    set.push(s.id.clone());
                    row.push(row_label(r));
                    let (k, v) = match r {
                        Row::Hard(t) => ("hard", t),
                        Row::Soft(t) => ("soft", t),
                        Row::Pair(p) => ("pair", hands::points(p)),
                    };
                    kind.push(k.to_string());
                    value.push(v);
                    up.push(rank_name(u).to_string());
                    code.push(cell_code(cell));
                    first.push(
                        Action::from_code(cell[0])
                            .map(|a| a.name())
                            .unwrap_or("stand")
                            .to_string(),
                    );
                }
            }
        }
        Ok(ParquetOutput {
            file: "strategy.parquet".into(),
            batches: vec![batch(vec![
                ("rule_set", strings(set)),
                ("row", strings(row)),
                ("row_kind", strings(kind)),
                ("row_value", Arc::new(UInt8Array::from(value))),
                ("upcard", strings(up)),
                ("action", strings(code)),
                ("first_choice", strings(first)),
            ])?],
            plain_columns: vec![],
        })
    }

    fn summary_table(&self) -> anyhow::Result<ParquetOutput> {
        let rules: Vec<&BlackjackRules> = self.sets.iter().map(|s| &s.rules).collect();
        let mut columns = vec![("rule_set", strings(self.sets.iter().map(|s| s.id.clone())))];
        columns.extend(rule_columns(&rules));
        let nan_if_empty =
            |t: &Tally, f: fn(&Tally) -> f64| if t.rounds == 0 { f64::NAN } else { f(t) };
        columns.extend([
            (
                "overall_ev",
                floats(self.analyses.iter().map(|a| a.optimal_ev).collect()),
            ),
            (
                "house_edge",
                floats(self.analyses.iter().map(|a| -a.optimal_ev).collect()),
            ),
            (
                "basic_strategy_ev",
                floats(self.analyses.iter().map(|a| a.chart_ev).collect()),
            ),
            (
                "simulated_ev",
                optional_floats(
                    self.basic
                        .iter()
                        .map(|t| nan_if_empty(t, Tally::mean))
                        .collect(),
                ),
            ),
            (
                "simulated_std_error",
                optional_floats(
                    self.basic
                        .iter()
                        .map(|t| nan_if_empty(t, Tally::std_error))
                        .collect(),
                ),
            ),
            (
                "rounds",
                Arc::new(UInt64Array::from_iter_values(
                    self.basic.iter().map(|t| t.rounds),
                )),
            ),
        ]);
        if let Some(seed) = self.seed {
            columns.extend([
                (
                    "seed_strategy_simulated_ev",
                    optional_floats(seed.iter().map(|t| nan_if_empty(t, Tally::mean)).collect()),
                ),
                (
                    "seed_strategy_std_error",
                    optional_floats(
                        seed.iter()
                            .map(|t| nan_if_empty(t, Tally::std_error))
                            .collect(),
                    ),
                ),
            ]);
        }
        Ok(ParquetOutput {
            file: "summary.parquet".into(),
            batches: vec![batch(columns)?],
            plain_columns: vec![],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(text: &str) -> JobSpec {
        JobSpec::parse(
            "bj.toml",
            format!("[job]\nkind = \"blackjack.strategy\"\nname = \"bj\"\n{text}"),
        )
        .unwrap()
    }

    fn error(text: &str) -> String {
        StrategyJob::new(&spec(text))
            .err()
            .expect("the job file is refused")
            .to_string()
    }

    #[test]
    fn a_grid_expands_every_combination_in_field_order() {
        let (sets, sim, _) = expand(&spec(
            "[grid]\nsurrender = [\"none\", \"late\"]\ndecks = [1, \"infinite\"]\n[simulation]\nrounds = 0\n",
        ))
        .unwrap();
        let ids: Vec<&str> = sets.iter().map(|s| s.id.as_str()).collect();
        // decks comes before surrender in RULE_FIELDS, so it varies slowest.
        assert_eq!(
            ids,
            [
                "1d-s17-das",
                "1d-s17-das-ls",
                "inf-s17-das",
                "inf-s17-das-ls"
            ]
        );
        assert_eq!(sim.rounds, 0);
        let (one, _, _) = expand(&spec("")).unwrap();
        assert_eq!(one.len(), 1);
        assert_eq!(one[0].id, "6d-s17-das");
        assert_eq!(one[0].rules, BlackjackRules::default());
    }

    #[test]
    fn ids_name_what_differs_from_the_defaults() {
        let r = BlackjackRules {
            decks: Decks::Finite(2),
            dealer_hits_soft_17: true,
            double_after_split: false,
            blackjack_pays: 1.2,
            double: Double::TenOrEleven,
            max_split_hands: 3,
            resplit_aces: true,
            hit_split_aces: true,
            surrender: Surrender::Early,
            ..BlackjackRules::default()
        };
        assert_eq!(rule_set_id(&r), "2d-h17-nodas-es-6to5-d10-sp3-rsa-hsa");
    }

    #[test]
    fn bad_grids_are_located_and_explained() {
        assert!(error("[grid]\ncolour = [1]\n")
            .contains("bj.toml:5:1: field `grid.colour`: unknown rule field"));
        assert!(error("[rules]\ndecks = 2\n[grid]\ndecks = [1, 2]\n")
            .contains("`decks` is set in both [rules] and [grid]"));
        assert!(error("[grid]\ndecks = 6\n").contains("lists the values to try"));
        let e = error("[grid]\ndecks = [1, 9]\n");
        assert!(
            e.contains("field `grid.decks`") && e.contains("9 decks"),
            "{e}"
        );
        let e = error("[grid]\nmax_split_hands = [1, 4]\n");
        assert!(e.contains("max_split_hands = 1 means no splitting"), "{e}");
        assert!(error("[grid]\ndecks = [1, 1]\n").contains("appears twice"));
        assert!(
            error("[simulation]\npenetration = 1.5\n").contains("field `simulation.penetration`")
        );
        assert!(error("[simulation]\nspeed = 1\n").contains("unknown field `speed`"));
    }

    #[test]
    fn units_cover_analyses_then_simulation_chunks() {
        let job = StrategyJob::new(&spec(
            "[grid]\ndecks = [1, 2]\n[simulation]\nrounds = 25_000_000\ncompare_seed_strategy = true\n",
        ))
        .unwrap();
        // 2 analyses, then 3 chunks (10M, 10M, 5M) per rule set and chart.
        assert_eq!(Job::unit_count(&job), 2 + 2 * 2 * 3);
        let rounds: u64 = job
            .plan
            .iter()
            .map(|p| match p {
                Plan::Simulate { rounds, .. } => *rounds,
                Plan::Analyze(_) => 0,
            })
            .sum();
        assert_eq!(rounds, 4 * 25_000_000);
    }
}
