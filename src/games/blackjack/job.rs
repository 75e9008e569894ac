//! Job kinds `blackjack.strategy` ([`StrategyJob`]), `blackjack.indices` ([`IndicesJob`])
//! and `blackjack.counter` ([`CounterJob`]).
//!
//! `blackjack.strategy`: the exact analysis of every rule set of a grid, each
//! rule set's basic strategy chart played through the seeded simulator, and the tables,
//! runtime file and report built from them (`tables`, `report`).
//!
//! Units: one exact analysis per rule set, then the simulation of each rule set's chart
//! in chunks of [`ROUNDS_PER_UNIT`] rounds, each chunk with its own random stream (job
//! seed, unit index). Optionally the tutorial article's strategy is simulated too.
//!
//! `blackjack.indices`: per rule set and count, chunks of [`POINTS_PER_UNIT`] (under the
//! count at the decision, [`POINTS_PER_DECISION_UNIT`]) decision
//! points drawn at that count and valued exactly (the method is in `indices`); `finish`
//! finds the index plays.
//!
//! `blackjack.counter` ([`CounterJob`]): per rule set, chunks of [`ROUNDS_PER_UNIT`]
//! rounds of a counter at the table (`counting`), each chunk with its own stream; `finish`
//! sums them in unit order.

use std::sync::OnceLock;

use cardtables::blackjack::{BlackjackPayload, Cell, CHART_ROWS, RANKS};
use serde::{Deserialize, Serialize};

use super::analysis::{self, Analysis};
use super::count::Counter;
use super::count_law::{CountLaw, DecisionLaw};
use super::counting::{BettingSettings, CounterResult, PlaySettings};
use super::hands;
use super::indices::{self, CountAt, CountSample, IndicesSettings, Summary};
use super::report;
use super::rules::{expand, Expanded, PostSplit, RuleSetSpec, SimulationSettings};
use super::sim::{self, CounterTally, Counting, Player, Shuffle, Tally, ROUNDS_PER_UNIT};
use super::tables::{self, Results};
use crate::engine::plan::check_unit_total;
use crate::engine::{stream, BinaryOutput, Job, JobMeta, Outputs, Progress, Stash};
use crate::job::{JobError, JobSpec};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Strategy {
    Basic,
    /// The tutorial article's chart ([`sim::article_chart`]).
    Article,
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
    seed: u64,
    rules_toml: String,
    sets: Vec<RuleSetSpec>,
    simulation: SimulationSettings,
    /// What each analysis computes: split EVs under every post-split strategy, and the
    /// optimal split when the job asks.
    options: analysis::Options,
    plan: Vec<Plan>,
    /// Each rule set's analysis, computed once per process for the simulation units.
    analyses: Vec<OnceLock<Analysis>>,
}

impl StrategyJob {
    pub fn new(spec: &JobSpec) -> Result<StrategyJob, JobError> {
        let Expanded {
            sets,
            simulation,
            analysis: settings,
            rules_toml,
        } = expand(spec)?;
        let options = analysis::Options {
            modes: PostSplit::ALL.map(|m| settings.post_split_strategies.contains(&m)),
            optimal_split: settings.optimal_split,
        };
        let mut strategies = vec![Strategy::Basic];
        if simulation.compare_article_strategy {
            strategies.push(Strategy::Article);
        }
        let chunks = u128::from(simulation.rounds.div_ceil(ROUNDS_PER_UNIT));
        check_unit_total(sets.len() as u128 * (1 + chunks * strategies.len() as u128))
            .map_err(|e| spec.field_error("simulation.rounds", e))?;
        let mut plan: Vec<Plan> = (0..sets.len()).map(Plan::Analyze).collect();
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
            seed: spec.run.seed,
            rules_toml,
            analyses: (0..sets.len()).map(|_| OnceLock::new()).collect(),
            sets,
            simulation,
            options,
            plan,
        })
    }

    fn analysis(&self, set: usize) -> &Analysis {
        self.analyses[set]
            .get_or_init(|| analysis::analyze_with(&self.sets[set].rules, self.options))
    }
}

/// The cost model of `pipeline check`'s estimate, from `reports/BENCHMARKS.md` (one core
/// of the 2-core development machine): one rule set's exact analysis (61–99 ms for six
/// decks, every post-split mode), the optimal two-hand split (2 min 41 s of CPU for the
/// five rule sets of `jobs/blackjack_optimal_split.toml`), the shoe simulator (11.9–13.1 M rounds/s), the counter (9.4–9.7 M
/// rounds/s) and an index point (the six-deck indices job: 2,100 points at each of 21
/// counts in 10 min on 2 cores).
const ANALYSIS_SECONDS: f64 = 0.1;
const OPTIMAL_SPLIT_SECONDS: f64 = 32.0;
const SIMULATED_ROUNDS_PER_SECOND: f64 = 12e6;
const COUNTED_ROUNDS_PER_SECOND: f64 = 9.5e6;
const SECONDS_PER_INDEX_POINT: f64 = 0.046;

impl Job for StrategyJob {
    type Unit = Unit;

    fn cpu_seconds(&self) -> Option<f64> {
        let sets = self.sets.len() as f64;
        let strategies = if self.simulation.compare_article_strategy {
            2.0
        } else {
            1.0
        };
        let split = if self.options.optimal_split {
            OPTIMAL_SPLIT_SECONDS
        } else {
            0.0
        };
        Some(
            sets * (ANALYSIS_SECONDS
                + split
                + strategies * self.simulation.rounds as f64 / SIMULATED_ROUNDS_PER_SECOND),
        )
    }

    fn describe(&self) -> Vec<String> {
        let ids: Vec<&str> = self.sets.iter().map(|s| s.id.as_str()).collect();
        let shown = ids.iter().take(8).copied().collect::<Vec<_>>().join(", ");
        let more = ids.len().saturating_sub(8);
        let charts = if self.simulation.compare_article_strategy {
            "its chart and the tutorial article's"
        } else {
            "its chart"
        };
        vec![
            format!(
                "{} rule set{}, each analysed exactly: {shown}{}",
                ids.len(),
                if ids.len() == 1 { "" } else { "s" },
                if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                }
            ),
            match self.simulation.rounds {
                0 => "no simulation".to_string(),
                n => format!(
                    "{n} simulated rounds per rule set of {charts} ({} in all), {}",
                    n * self.sets.len() as u64
                        * if self.simulation.compare_article_strategy {
                            2
                        } else {
                            1
                        },
                    match self.simulation.penetration {
                        Some(p) => format!("cut card at {:.0} %", 100.0 * p),
                        None => "reshuffled every round".to_string(),
                    }
                ),
            },
        ]
    }

    fn unit_count(&self) -> usize {
        self.plan.len()
    }

    fn check_unit(&self, index: usize, unit: &Unit) -> Result<(), String> {
        match (self.plan.get(index), unit) {
            (Some(Plan::Analyze(_)), Unit::Analysis(a)) => {
                let starts = hands::starting_hands().count();
                let shaped = a.upcards.len() == RANKS
                    && a.chart.len() == CHART_ROWS * RANKS
                    && a.upcards
                        .iter()
                        .all(|u| u.hands.len() == starts && u.deal_probability.len() == starts);
                if shaped {
                    Ok(())
                } else {
                    Err("an analysis of the wrong shape".into())
                }
            }
            (Some(Plan::Simulate { rounds, .. }), Unit::Simulation(t)) => {
                if t.rounds == *rounds {
                    Ok(())
                } else {
                    Err(format!("{} rounds simulated, expected {rounds}", t.rounds))
                }
            }
            _ => Err("the wrong kind of result for its index".into()),
        }
    }

    /// Each rule set's analysis, then its simulation chunks (which play the analysis's
    /// chart), rule set by rule set: the plan lists every analysis first, and a thread
    /// taking the simulations from the plan's second half would wait on analyses the
    /// other thread is computing.
    fn start_order(&self, index: usize) -> usize {
        let set = match self.plan[index] {
            Plan::Analyze(set) | Plan::Simulate { set, .. } => set,
        };
        let simulation = usize::from(matches!(self.plan[index], Plan::Simulate { .. }));
        (set * 2 + simulation) * self.plan.len() + index
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
                let article_chart;
                let chart = match strategy {
                    Strategy::Basic => &self.analysis(set).chart,
                    Strategy::Article => {
                        article_chart = sim::article_chart();
                        &article_chart
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

    fn finish(
        &self,
        meta: &JobMeta,
        units: Vec<Unit>,
        progress: &Progress,
        _stash: &Stash,
    ) -> anyhow::Result<Outputs> {
        progress.phase("building tables");
        let n = self.sets.len();
        let mut analyses: Vec<Option<Analysis>> = vec![None; n];
        let mut basic = vec![Tally::default(); n];
        let mut article = vec![Tally::default(); n];
        for (plan, unit) in self.plan.iter().zip(units) {
            match (plan, unit) {
                (Plan::Analyze(set), Unit::Analysis(a)) => analyses[*set] = Some(*a),
                (Plan::Simulate { set, strategy, .. }, Unit::Simulation(t)) => match strategy {
                    Strategy::Basic => basic[*set].add(&t),
                    Strategy::Article => article[*set].add(&t),
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
            article: self
                .simulation
                .compare_article_strategy
                .then_some(&article[..]),
            optimal_split: self.options.optimal_split,
        };
        let payload = BlackjackPayload {
            rules: self.rules_toml.clone(),
            rule_sets: self
                .sets
                .iter()
                .zip(&analyses)
                .map(|(s, a)| tables::runtime_rule_set(s, a))
                .collect(),
        };
        let table =
            cardtables::Blackjack::to_bytes(crate::sink::rules_hash(&self.rules_toml), &payload)?;
        Ok(Outputs {
            later: None,
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
            report: report::build(meta, &self.simulation, &results)?,
            rules: self.rules_toml.clone(),
        })
    }
}

/// Decision points per unit of `blackjack.indices` (about 30 seconds on one core; a
/// unit's sums are some 650 kB, so units of a few points would make checkpoints and
/// parts large).
pub const POINTS_PER_UNIT: u32 = 700;

/// Decision points per unit under `count_at = "decision"` (about 95 seconds on one core):
/// its sums are kept per count at the decision and per shift of the decision's cards, a
/// few MB a unit whatever its points (the six-deck job's 21 units peak at 232 MB when it
/// finishes), so fewer, larger units keep checkpoints and parts small.
pub const POINTS_PER_DECISION_UNIT: u32 = 2_100;

/// About how much one unit's sums take in memory (an upper estimate from the shipped
/// six-deck job's peak memory ÷ its units), under each convention.
const DECISION_UNIT_BYTES: u128 = 12 << 20;
const ROUND_START_UNIT_BYTES: u128 = 1 << 20;
/// The most memory a `blackjack.indices` job's units may take together when it finishes.
const MAX_SUMS_BYTES: u128 = 16 << 30;

/// One unit of `blackjack.indices`: decision points of one rule set at one count.
#[derive(Clone, Copy, Debug)]
struct CountPlan {
    set: usize,
    /// Position of the count in the range.
    count: usize,
    points: u32,
}

/// The `blackjack.indices` job: count-index plays, EV by count and insurance by count for
/// every rule set of the grid, under one counting system (`indices` has the method).
pub struct IndicesJob {
    seed: u64,
    /// The job's name, and its `[count]` table as written (re-serialized): what a counter
    /// job that plays the indices found needs to count the same way.
    name: String,
    count_table: String,
    /// `[rules]`, `[grid]`, `[count]` and `[indices]` as the outputs record them.
    rules_toml: String,
    sets: Vec<RuleSetSpec>,
    counter: Counter,
    settings: IndicesSettings,
    plan: Vec<CountPlan>,
    /// Each rule set's basic strategy chart and its full-shoe EV, computed once per
    /// process.
    charts: Vec<OnceLock<(Vec<Cell>, f64)>>,
    /// Each rule set's exact law of the count at the decision points, computed once per
    /// process: units of a count that has no chance draw nothing.
    laws: Vec<OnceLock<CountLaw>>,
    /// Each rule set's joint laws of the count before the round and at the decision
    /// (under `count_at = "decision"`), computed once per process.
    decision_laws: Vec<OnceLock<Vec<DecisionLaw>>>,
}

impl IndicesJob {
    /// Validates the rules, `[count]` and `[indices]`.
    pub fn new(spec: &JobSpec) -> Result<IndicesJob, JobError> {
        let Expanded {
            sets, rules_toml, ..
        } = expand(spec)?;
        let counter = Counter::from_spec(spec)?;
        let rules: Vec<_> = sets.iter().map(|s| s.rules).collect();
        let settings = IndicesSettings::from_spec(spec, &rules)?;
        let per_unit = match settings.count_at {
            CountAt::Decision => POINTS_PER_DECISION_UNIT,
            CountAt::RoundStart => POINTS_PER_UNIT,
        };
        let chunks = u128::from(settings.points_per_count.div_ceil(per_unit));
        let units = sets.len() as u128 * counter.counts() as u128 * chunks;
        check_unit_total(units).map_err(|e| spec.field_error("indices.points_per_count", e))?;
        // Every unit's sums are held at once when the job finishes (or merges).
        let unit_bytes: u128 = match settings.count_at {
            CountAt::Decision => DECISION_UNIT_BYTES,
            CountAt::RoundStart => ROUND_START_UNIT_BYTES,
        };
        if units * unit_bytes > MAX_SUMS_BYTES {
            return Err(spec.field_error(
                "indices.points_per_count",
                format!(
                    "{units} units would hold about {} GiB of sums when the job finishes, and \
                     at most {} GiB is allowed: lower it, or split the grid into several jobs",
                    (units * unit_bytes) >> 30,
                    MAX_SUMS_BYTES >> 30
                ),
            ));
        }
        let mut plan = Vec::new();
        for set in 0..sets.len() {
            for count in 0..counter.counts() {
                let mut left = settings.points_per_count;
                while left > 0 {
                    let points = left.min(per_unit);
                    plan.push(CountPlan { set, count, points });
                    left -= points;
                }
            }
        }
        Ok(IndicesJob {
            seed: spec.run.seed,
            name: spec.name.clone(),
            count_table: count_table(spec),
            rules_toml: format!(
                "{rules_toml}{}{}",
                counter.canonical_toml(),
                settings.canonical_toml(),
            ),
            charts: (0..sets.len()).map(|_| OnceLock::new()).collect(),
            laws: (0..sets.len()).map(|_| OnceLock::new()).collect(),
            decision_laws: (0..sets.len()).map(|_| OnceLock::new()).collect(),
            sets,
            counter,
            settings,
            plan,
        })
    }

    fn law(&self, set: usize) -> &CountLaw {
        self.laws[set].get_or_init(|| {
            indices::law_at_cut(&self.sets[set].rules, &self.counter, &self.settings)
        })
    }

    fn decision_laws(&self, set: usize) -> Option<&[DecisionLaw]> {
        (self.settings.count_at == CountAt::Decision).then(|| {
            self.decision_laws[set]
                .get_or_init(|| {
                    indices::decision_laws(&self.sets[set].rules, &self.counter, &self.settings)
                })
                .as_slice()
        })
    }

    fn chart(&self, set: usize) -> &(Vec<Cell>, f64) {
        self.charts[set].get_or_init(|| {
            let a = analysis::analyze(&self.sets[set].rules);
            (a.chart, a.chart_ev)
        })
    }
}

impl Job for IndicesJob {
    type Unit = CountSample;

    fn cpu_seconds(&self) -> Option<f64> {
        let points = self.sets.len() as f64
            * self.counter.counts() as f64
            * f64::from(self.settings.points_per_count);
        Some(self.sets.len() as f64 * ANALYSIS_SECONDS + points * SECONDS_PER_INDEX_POINT)
    }

    fn describe(&self) -> Vec<String> {
        let c = &self.counter;
        vec![
            rule_sets_line(&self.sets),
            format!(
                "count system {} ({}), counts {} to {}; cut card at {:.0} %",
                c.name,
                c.axis(),
                c.low,
                c.high,
                100.0 * self.settings.penetration
            ),
            format!(
                "{} decision points per count valued exactly ({} in all, seed {})",
                self.settings.points_per_count,
                u64::from(self.settings.points_per_count)
                    * c.counts() as u64
                    * self.sets.len() as u64,
                self.seed
            ),
        ]
    }

    fn unit_count(&self) -> usize {
        self.plan.len()
    }

    fn check_unit(&self, index: usize, unit: &CountSample) -> Result<(), String> {
        let plan = self.plan.get(index).ok_or("no such unit")?;
        unit.check(self.counter.counts())?;
        if unit.points > u64::from(plan.points) {
            return Err(format!(
                "{} points, at most {} planned",
                unit.points, plan.points
            ));
        }
        Ok(())
    }

    fn run_unit(&self, index: usize) -> CountSample {
        let plan = self.plan[index];
        // A count the shoe cannot show at these depths would only be drawn for, up to the
        // attempt limit, and found nowhere.
        if self.law(plan.set).frequency[plan.count] == 0.0 {
            return CountSample::empty();
        }
        let mut rng = stream(self.seed, index as u64);
        indices::sample_count(
            &self.sets[plan.set].rules,
            &self.counter,
            &self.settings,
            &self.chart(plan.set).0,
            self.counter.low + plan.count as i32,
            plan.points,
            &mut rng,
        )
    }

    fn finish(
        &self,
        meta: &JobMeta,
        units: Vec<CountSample>,
        progress: &Progress,
        _stash: &Stash,
    ) -> anyhow::Result<Outputs> {
        progress.phase("index plays");
        let counts = self.counter.counts();
        let mut merged: Vec<Vec<CountSample>> = (0..self.sets.len())
            .map(|_| (0..counts).map(|_| CountSample::empty()).collect())
            .collect();
        for (plan, unit) in self.plan.iter().zip(&units) {
            merged[plan.set][plan.count].merge(unit);
        }
        let summaries: Vec<Summary> = merged
            .iter()
            .enumerate()
            .map(|(set, samples)| {
                indices::summarize(
                    &self.counter,
                    &self.chart(set).0,
                    samples,
                    self.law(set),
                    self.decision_laws(set),
                )
            })
            .collect();
        progress.phase("building tables");
        let results = tables::IndexResults {
            sets: &self.sets,
            counter: &self.counter,
            summaries: &summaries,
        };
        let charts: Vec<Vec<Cell>> = (0..self.sets.len())
            .map(|set| self.chart(set).0.clone())
            .collect();
        let payload = results.runtime_payload(self.rules_toml.clone(), &charts);
        let table = cardtables::BlackjackIndices::to_bytes(
            crate::sink::rules_hash(&self.rules_toml),
            &payload,
        )?;
        Ok(Outputs {
            later: None,
            parquet: vec![
                results.indices_table()?,
                results.by_count_table()?,
                results.cells_table()?,
            ],
            tables: vec![BinaryOutput {
                file: "blackjack_indices.bin".into(),
                bytes: table,
                entries: (self.sets.len() * indices::CELLS * self.counter.counts()) as u64,
            }],
            report: {
                let mut report = report::build_indices(meta, &self.settings, &results, &|set| {
                    self.chart(set).clone()
                })?;
                for (set, sum) in self.summaries_files(results.summaries) {
                    report.charts.push((report::counter_job_file(set), sum));
                }
                report
            },
            rules: self.rules_toml.clone(),
        })
    }
}

impl IndicesJob {
    /// Per rule set, the text of a `blackjack.counter` job that plays the index plays
    /// found: the set's rules, this job's count, its penetration and seed, the counter's
    /// default bet ramps.
    fn summaries_files<'a>(
        &'a self,
        summaries: &'a [Summary],
    ) -> impl Iterator<Item = (usize, String)> + 'a {
        summaries.iter().enumerate().map(move |(set, sum)| {
            let spec = &self.sets[set];
            let rules = toml::to_string(&spec.rules).expect("plain data serializes");
            let (play, plays) = report::play_table(sum);
            let play = play.replacen(
                "[play]\n",
                &format!("[play]\npenetration = {}\n", self.settings.penetration),
                1,
            );
            let text = format!(
                "# A `blackjack.counter` job that plays the {plays} index plays the \
                 `blackjack.indices` job `{name}` found\n# for rule set `{id}`: its rules, its \
                 count and penetration, the counter's default bet ramps.\n# Written by that \
                 job; run it with `pipeline run` and this file's path.\n\
                 [job]\nkind = \"blackjack.counter\"\nname = \"{name}_counter_{set}\"\n\
                 description = \"Counter playing the indices {name} found for {id}\"\n\n\
                 [rules]\n{rules}\n{count}\n{play}\n[betting]\nrounds = 100_000_000\n\n\
                 [run]\nseed = {seed}\n",
                name = self.name,
                id = spec.id,
                count = self.count_table,
                seed = self.seed,
            );
            (set, text)
        })
    }
}

/// The job's `[count]` table as written, re-serialized (empty when it has none: the
/// defaults).
fn count_table(spec: &JobSpec) -> String {
    let count = spec
        .text
        .parse::<toml::Table>()
        .ok()
        .and_then(|t| t.get("count").cloned())
        .unwrap_or_else(|| toml::Value::Table(toml::Table::new()));
    let mut out = toml::Table::new();
    out.insert("count".into(), count);
    toml::to_string(&out).expect("plain data serializes")
}

/// The rule sets of a job as `describe` lists them.
fn rule_sets_line(sets: &[RuleSetSpec]) -> String {
    format!(
        "{} rule set{}: {}",
        sets.len(),
        if sets.len() == 1 { "" } else { "s" },
        sets.iter()
            .map(|s| s.id.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// One unit of `blackjack.counter`: a chunk of rounds of one rule set.
#[derive(Clone, Copy, Debug)]
struct RoundsPlan {
    set: usize,
    rounds: u64,
}

/// The `blackjack.counter` job: a card counter at the table (`[count]`, `[play]`,
/// `[betting]`) simulated on every rule set of the grid; its win rate, deviation, SCORE,
/// N0, risks of ruin and result by count.
pub struct CounterJob {
    seed: u64,
    /// `[rules]`, `[grid]`, `[count]`, `[play]` and `[betting]` as the outputs record them.
    rules_toml: String,
    sets: Vec<RuleSetSpec>,
    counter: Counter,
    play: PlaySettings,
    betting: BettingSettings,
    plan: Vec<RoundsPlan>,
    /// Each rule set's basic strategy chart and its first-decision charts by count,
    /// computed once per process.
    charts: Vec<OnceLock<CounterCharts>>,
}

/// A rule set's basic strategy chart, and the chart of first decisions at each count.
type CounterCharts = (Vec<Cell>, Vec<Vec<Cell>>);

impl CounterJob {
    /// Validates the rules, `[count]`, `[play]` and `[betting]`.
    pub fn new(spec: &JobSpec) -> Result<CounterJob, JobError> {
        let Expanded {
            sets, rules_toml, ..
        } = expand(spec)?;
        let counter = Counter::from_spec(spec)?;
        let rules: Vec<_> = sets.iter().map(|s| s.rules).collect();
        let play = PlaySettings::from_spec(spec, &counter, &rules)?;
        let betting = BettingSettings::from_spec(spec, &counter)?;
        check_unit_total(sets.len() as u128 * u128::from(betting.rounds.div_ceil(ROUNDS_PER_UNIT)))
            .map_err(|e| spec.field_error("betting.rounds", e))?;
        let mut plan = Vec::new();
        for set in 0..sets.len() {
            let mut left = betting.rounds;
            while left > 0 {
                let rounds = left.min(ROUNDS_PER_UNIT);
                plan.push(RoundsPlan { set, rounds });
                left -= rounds;
            }
        }
        Ok(CounterJob {
            seed: spec.run.seed,
            rules_toml: format!(
                "{rules_toml}{}{}{}",
                counter.canonical_toml(),
                play.canonical_toml(),
                betting.canonical_toml()
            ),
            charts: (0..sets.len()).map(|_| OnceLock::new()).collect(),
            sets,
            counter,
            play,
            betting,
            plan,
        })
    }

    fn charts(&self, set: usize) -> &CounterCharts {
        self.charts[set].get_or_init(|| {
            let chart = analysis::analyze(&self.sets[set].rules).chart;
            let by_count = self.play.charts(&chart, &self.counter);
            (chart, by_count)
        })
    }
}

impl Job for CounterJob {
    type Unit = CounterTally;

    fn cpu_seconds(&self) -> Option<f64> {
        let sets = self.sets.len() as f64;
        Some(sets * (ANALYSIS_SECONDS + self.betting.rounds as f64 / COUNTED_ROUNDS_PER_SECOND))
    }

    fn describe(&self) -> Vec<String> {
        vec![
            rule_sets_line(&self.sets),
            format!(
                "count system {} ({}), counts {} to {}; cut card at {:.0} %; {} hand(s), {} other player(s); {} index play(s)",
                self.counter.name,
                self.counter.axis(),
                self.counter.low,
                self.counter.high,
                100.0 * self.play.penetration,
                self.play.hands,
                self.play.others,
                self.play.rules.len()
            ),
            format!(
                "{} simulated rounds per rule set, tallied for {} bet ramp(s) (seed {})",
                self.betting.rounds,
                self.betting.ramps.len(),
                self.seed
            ),
        ]
    }

    fn unit_count(&self) -> usize {
        self.plan.len()
    }

    fn check_unit(&self, index: usize, unit: &CounterTally) -> Result<(), String> {
        let plan = self.plan.get(index).ok_or("no such unit")?;
        if unit.by_count.len() != self.counter.counts() || unit.rounds() != plan.rounds {
            return Err(format!(
                "{} rounds by count, {} planned",
                unit.rounds(),
                plan.rounds
            ));
        }
        if unit.by_ramp.len() != self.betting.ramps.len() {
            return Err(format!(
                "{} ramps, {} in the job",
                unit.by_ramp.len(),
                self.betting.ramps.len()
            ));
        }
        if unit.trips != plan.rounds / self.betting.trip_rounds || unit.shoes_left > plan.rounds {
            return Err("its trips or shoes left are out of range".into());
        }
        for r in &unit.by_ramp {
            if r.won.rounds != plan.rounds || r.ruined > unit.trips {
                return Err("a ramp's rounds or ruined trips are out of range".into());
            }
            // Sessions start only while `session_rounds` remain, one round at least each.
            let started = plan.rounds.saturating_sub(self.betting.session_rounds) + 1;
            if r.sessions > started || r.session_ruins + r.session_caps > r.sessions {
                return Err("a ramp's sessions are out of range".into());
            }
            if [r.won.sum, r.won.sum_squares, r.bet]
                .iter()
                .any(|x| !x.is_finite())
            {
                return Err("a sum is not finite".into());
            }
        }
        Ok(())
    }

    fn run_unit(&self, index: usize) -> CounterTally {
        let plan = self.plan[index];
        let (chart, charts) = self.charts(plan.set);
        let ramps = self.betting.ramps();
        let counting = Counting {
            rules: &self.sets[plan.set].rules,
            counter: &self.counter,
            chart,
            charts,
            insure_from: self.play.insure_from,
            ramps: &ramps,
            penetration: self.play.penetration,
            hands: self.play.hands,
            others: self.play.others,
            wong_out: self.play.wong_out,
            bankroll: self.betting.bankroll,
            trip_rounds: self.betting.trip_rounds,
            ruin_goal: self.betting.ruin_goal,
            session_rounds: self.betting.session_rounds,
        };
        counting.simulate(plan.rounds, &mut stream(self.seed, index as u64))
    }

    fn finish(
        &self,
        meta: &JobMeta,
        units: Vec<CounterTally>,
        progress: &Progress,
        _stash: &Stash,
    ) -> anyhow::Result<Outputs> {
        progress.phase("building tables");
        let mut by_set: Vec<Vec<&CounterTally>> = vec![Vec::new(); self.sets.len()];
        for (plan, unit) in self.plan.iter().zip(&units) {
            by_set[plan.set].push(unit);
        }
        let results: Vec<Vec<CounterResult>> = by_set
            .iter()
            .map(|units| {
                (0..self.betting.ramps.len())
                    .map(|ramp| {
                        CounterResult::of_units(
                            units,
                            ramp,
                            self.betting.bankroll,
                            self.betting.trip_rounds,
                            self.betting.ruin_goal,
                        )
                    })
                    .collect()
            })
            .collect();
        let r = tables::CounterResults {
            sets: &self.sets,
            counter: &self.counter,
            play: &self.play,
            betting: &self.betting,
            results: &results,
        };
        Ok(Outputs {
            later: None,
            parquet: vec![r.counter_table()?, r.by_count_table()?],
            tables: vec![],
            report: report::build_counter(meta, &r)?,
            rules: self.rules_toml.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::blackjack::rules::{
        rule_set_id, BlackjackRules, Decks, Double, PostSplit, Surrender, RULE_FIELDS,
    };

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
        let Expanded {
            sets,
            simulation: sim,
            ..
        } = expand(&spec(
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
        let one = expand(&spec("")).unwrap().sets;
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
            post_split_strategy: PostSplit::Cdp1,
            ..BlackjackRules::default()
        };
        assert_eq!(rule_set_id(&r), "2d-h17-nodas-es-6to5-d10-sp3-rsa-hsa-cdp1");
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
        // A wrong value is named at its own field, in [rules] or in [grid].
        let e = error("[rules]\ndecks = \"six\"\n");
        assert!(
            e.contains("bj.toml:5:1: field `rules.decks`") && e.contains("1 to 8, or \"infinite\""),
            "{e}"
        );
        let e = error("[grid]\ndecks = [1, 2]\nsurrender = [\"none\", 3]\n");
        assert!(e.contains("field `grid.surrender`"), "{e}");
        // 256^8 = 2^64 rule sets: the count must not wrap around to 0.
        let list = format!("[{}]", vec!["0"; 256].join(", "));
        let grid: String = RULE_FIELDS[..8]
            .iter()
            .map(|f| format!("{f} = {list}\n"))
            .collect();
        let e = error(&format!("[grid]\n{grid}"));
        assert!(e.contains("256 × 256") && e.contains("at most 1000"), "{e}");
    }

    #[test]
    fn units_cover_analyses_then_simulation_chunks() {
        let job = StrategyJob::new(&spec(
            "[grid]\ndecks = [1, 2]\n[simulation]\nrounds = 25_000_000\ncompare_article_strategy = true\n",
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
