//! Job kinds `zhajinhua.hands` (exact, against one and two opponents) and
//! `zhajinhua.multiway` (adds three to five opponents by Monte Carlo, see [`super::multiway`]):
//! win / tie / loss of every 3-card hand against opponents dealt from the 49 unseen cards,
//! under one rule variant.
//!
//! Suits never break ties in Zhajinhua, so a hand's results are shared by its whole suit
//! class (hands equal up to renaming suits); units compute one representative per class
//! with [`super::counts`]. Arrow batches are in `tables`, the report in `report`.

use cardtables::zhajinhua::ZhajinhuaPayload;
use cardtables::Card;
use serde::{Deserialize, Serialize};

use super::counts::{exact_counts, Counts, OPPONENT_PAIRS};
use super::decisions;
use super::eval::{index_of, Evaluator, CATEGORIES, HANDS, OPPONENT_HANDS};
use super::multiway::{self, Budget, Estimate, Sample};
use super::rules::{BettingRules, ZhajinhuaRules};
use crate::cards::matchups::suit_permutations;
use crate::engine::{BinaryOutput, Job, JobMeta, Outputs, Progress, Stash};
use crate::job::{JobError, JobSpec, MIN_TRIALS};
use crate::sink::parquet::ParquetOutput;

/// Suit classes per exact work unit.
const CLASSES_PER_UNIT: usize = 40;
/// Opponents covered exactly.
pub(super) const EXACT_OPPONENTS: u8 = 2;
/// Opponents covered by `zhajinhua.multiway`.
pub const MULTIWAY_OPPONENTS: u8 = 5;

/// What one work unit computes: exact counts against one and two random opponents for a
/// run of suit classes, or the Monte Carlo sample of one suit class against one number of
/// opponents. (Equities against calling ranges come from the finished table's
/// [`cardtables::zhajinhua::RangeCurve`]s.)
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Unit {
    Exact(Vec<Counts>),
    Sampled(Sample),
}

/// The `zhajinhua.hands` job.
pub struct HandsJob {
    pub(super) eval: Evaluator,
    /// The hands compared as a showdown of three or more compares them
    /// ([`ZhajinhuaRules::against`]).
    pub(super) multi: Evaluator,
    /// The stakes of the decision tables.
    pub(super) betting: BettingRules,
    /// Opponent counts covered: 1..=max_opponents (2 = exact only).
    pub(super) max_opponents: u8,
    seed: u64,
    pub(super) budget: Budget,
    /// Representative hand index of each suit class, increasing.
    pub(super) classes: Vec<usize>,
    /// Class number of each hand.
    pub(super) class_of: Vec<u32>,
}

impl HandsJob {
    /// The exact job (`zhajinhua.hands`): one and two opponents.
    pub fn new(spec: &JobSpec) -> Result<HandsJob, JobError> {
        let rules = ZhajinhuaRules::from_spec(spec)?;
        let betting = BettingRules::from_spec(spec)?;
        Ok(HandsJob::from_rules(rules).with_betting(betting))
    }

    /// The multiway job (`zhajinhua.multiway`): adds 3..=5 opponents by Monte Carlo,
    /// sampled to `[run] target_std_error` with at most `[run] max_trials` per cell.
    pub fn multiway(spec: &JobSpec) -> Result<HandsJob, JobError> {
        let job = HandsJob::new(spec)?.with_monte_carlo(
            MULTIWAY_OPPONENTS,
            spec.run.seed,
            Budget {
                target_std_error: spec.run.target_std_error,
                min_trials: MIN_TRIALS,
                max_trials: spec.run.max_trials,
            },
        );
        Ok(job)
    }

    /// Adds the Monte Carlo part: 3..=`max_opponents` opponents sampled with `budget`.
    pub fn with_monte_carlo(mut self, max_opponents: u8, seed: u64, budget: Budget) -> Self {
        self.max_opponents = max_opponents;
        self.seed = seed;
        self.budget = budget;
        self
    }

    /// Prices decisions with `betting` instead of the default stakes.
    pub fn with_betting(mut self, betting: BettingRules) -> Self {
        self.betting = betting;
        self
    }

    /// The exact job for an already validated rule set, with the default stakes.
    pub fn from_rules(rules: ZhajinhuaRules) -> Self {
        let eval = Evaluator::new(rules);
        let multi = Evaluator::new(rules.against(EXACT_OPPONENTS));
        let perms = suit_permutations();
        // A hand's class representative: the smallest colex index over suit renamings.
        let rep_of: Vec<usize> = eval
            .hands
            .iter()
            .map(|h| {
                perms
                    .iter()
                    .map(|p| {
                        let renamed = h.cards.map(|c| {
                            Card::new(c.rank(), p[usize::from(c.suit())]).expect("valid card")
                        });
                        index_of(&renamed)
                    })
                    .min()
                    .expect("24 permutations")
            })
            .collect();
        let mut classes: Vec<usize> = rep_of.clone();
        classes.sort_unstable();
        classes.dedup();
        let class_of = rep_of
            .iter()
            .map(|r| classes.binary_search(r).expect("representative listed") as u32)
            .collect();
        HandsJob {
            eval,
            multi,
            betting: BettingRules::default(),
            max_opponents: EXACT_OPPONENTS,
            seed: 0,
            budget: Budget {
                target_std_error: 1e-4,
                min_trials: MIN_TRIALS,
                max_trials: MIN_TRIALS,
            },
            classes,
            class_of,
        }
    }

    /// Number of suit classes.
    pub fn class_count(&self) -> usize {
        self.classes.len()
    }

    /// Every hand's counts (by colex index) from its suit class's counts.
    pub fn counts_by_hand(&self, by_class: &[Counts]) -> Vec<Counts> {
        self.class_of
            .iter()
            .map(|&c| by_class[c as usize])
            .collect()
    }
}

impl HandsJob {
    fn exact_units(&self) -> usize {
        self.classes.len().div_ceil(CLASSES_PER_UNIT)
    }

    /// Splits unit results into exact counts by class and samples by (opponents, class).
    fn split_units(&self, units: Vec<Unit>) -> anyhow::Result<(Vec<Counts>, Vec<Vec<Sample>>)> {
        let mut exact = Vec::with_capacity(self.classes.len());
        let mut sampled = vec![
            Vec::with_capacity(self.classes.len());
            usize::from(self.max_opponents.saturating_sub(EXACT_OPPONENTS))
        ];
        for (i, unit) in units.into_iter().enumerate() {
            match unit {
                Unit::Exact(counts) if i < self.exact_units() => exact.extend(counts),
                Unit::Sampled(s) if i >= self.exact_units() => {
                    sampled[usize::from(s.opponents - EXACT_OPPONENTS - 1)].push(s)
                }
                _ => anyhow::bail!("internal error: unit {i} holds the wrong kind of result"),
            }
        }
        anyhow::ensure!(
            exact.len() == self.classes.len()
                && sampled.iter().all(|s| s.len() == self.classes.len()),
            "internal error: unit results do not cover every suit class"
        );
        Ok((exact, sampled))
    }

    /// Win, tie, equity, standard error, wins, ties and deals of hand `i` against `n`.
    pub(super) fn cell(&self, i: usize, n: u8, counts: &[Counts], samples: &[Vec<Sample>]) -> Cell {
        let rules = &self.eval.rules;
        if n <= EXACT_OPPONENTS {
            let o = counts[i].outcome(n, rules);
            Cell {
                estimate: Estimate {
                    win: o.win,
                    tie: o.tie,
                    equity: o.equity,
                    std_error: 0.0,
                },
                wins: o.wins,
                ties: o.ties,
                deals: o.total,
                exact: true,
            }
        } else {
            let s = &samples[usize::from(n - EXACT_OPPONENTS - 1)][self.class_of[i] as usize];
            Cell {
                estimate: s.estimate(&counts[i], rules),
                wins: s.wins,
                ties: s.ties,
                deals: s.trials,
                exact: false,
            }
        }
    }
}

/// Counts read back from a checkpoint or part must be possible: each within its deals.
fn check_counts(c: &Counts) -> Result<(), String> {
    let heads_up = c.win1.checked_add(c.tie1);
    let two = c
        .win2
        .checked_add(c.tie2_two_way)
        .and_then(|n| n.checked_add(c.tie2_three_way));
    if heads_up.is_none_or(|n| n > u64::from(OPPONENT_HANDS))
        || two.is_none_or(|n| n > OPPONENT_PAIRS)
    {
        return Err("counts exceed their deals".into());
    }
    Ok(())
}

impl HandsJob {
    /// The runtime table's payload with these per-(opponents, hand) figures: everything
    /// else, the calling-range rules included, comes from the job's rules.
    pub(super) fn payload(
        &self,
        rules: String,
        win: Vec<f64>,
        tie: Vec<f64>,
        equity: Vec<f64>,
        std_error: Vec<f64>,
    ) -> ZhajinhuaPayload {
        ZhajinhuaPayload {
            rules,
            max_opponents: self.max_opponents,
            categories: CATEGORIES.iter().map(|s| s.to_string()).collect(),
            category: self.eval.hands.iter().map(|h| h.category).collect(),
            strength: self.eval.hands.iter().map(|h| h.strength).collect(),
            beats_trips: self.eval.hands.iter().map(|h| h.beats_trips).collect(),
            std_error,
            win,
            tie,
            equity,
            suit_class: self.class_of.iter().map(|&c| c as u16).collect(),
            caller_loses: self.eval.rules.ties == super::rules::Ties::CallerLoses,
            simultaneous_showdown: self.eval.rules.showdown == super::rules::Showdown::Simultaneous,
        }
    }

    /// Every suit class's calling-range curve (in class order), read from the finished
    /// table: the one implementation the runtime answers with.
    pub(super) fn curves(
        &self,
        table: &cardtables::Zhajinhua,
    ) -> anyhow::Result<Vec<cardtables::zhajinhua::RangeCurve>> {
        use rayon::prelude::*;
        self.classes
            .par_iter()
            .map(|&h| Ok(table.calling_range(&self.eval.hands[h].cards)?))
            .collect()
    }

    /// The curve of a hand given as text.
    pub(super) fn curve_of<'a>(
        &self,
        curves: &'a [cardtables::zhajinhua::RangeCurve],
        text: &str,
    ) -> &'a cardtables::zhajinhua::RangeCurve {
        let cards: [Card; 3] = cardtables::parse_cards(text)
            .expect("example hands parse")
            .try_into()
            .expect("three cards");
        &curves[self.class_of[index_of(&cards)] as usize]
    }
}

/// One (hand, opponents) result, exact or sampled.
#[derive(Clone, Copy, Debug)]
pub(super) struct Cell {
    pub estimate: Estimate,
    pub wins: u64,
    pub ties: u64,
    /// Opponent deals counted (exact) or sampled (Monte Carlo).
    pub deals: u64,
    pub exact: bool,
}

impl Job for HandsJob {
    type Unit = Unit;

    fn describe(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "every hand against 1 and {EXACT_OPPONENTS} opponents, exact"
        )];
        if self.max_opponents > EXACT_OPPONENTS {
            lines.push(format!(
                "{} to {} opponents by Monte Carlo (seed {}): every suit class until its standard \
                 error is at most {:e}, at most {} trials per cell",
                EXACT_OPPONENTS + 1,
                self.max_opponents,
                self.seed,
                self.budget.target_std_error,
                self.budget.max_trials
            ));
        }
        lines
    }

    fn warnings(&self) -> Vec<String> {
        if self.max_opponents <= EXACT_OPPONENTS {
            return Vec::new();
        }
        crate::engine::monte_carlo_warning(self.budget.target_std_error, self.budget.max_trials)
            .into_iter()
            .collect()
    }

    fn unit_count(&self) -> usize {
        let sampled = usize::from(self.max_opponents.saturating_sub(EXACT_OPPONENTS));
        self.exact_units() + sampled * self.classes.len()
    }

    fn check_unit(&self, index: usize, unit: &Unit) -> Result<(), String> {
        match unit {
            Unit::Exact(counts) if index < self.exact_units() => {
                let start = index * CLASSES_PER_UNIT;
                let want = (start + CLASSES_PER_UNIT).min(self.classes.len()) - start;
                if counts.len() != want {
                    return Err(format!("{} suit classes, expected {want}", counts.len()));
                }
                counts.iter().try_for_each(check_counts)
            }
            Unit::Sampled(s) if index >= self.exact_units() => {
                let k = index - self.exact_units();
                let opponents = EXACT_OPPONENTS as usize + 1 + k / self.classes.len();
                if usize::from(s.opponents) != opponents {
                    Err(format!("{} opponents, expected {opponents}", s.opponents))
                } else if s.wins.saturating_add(s.ties) > s.trials {
                    Err(format!(
                        "{} wins and {} ties in {} trials",
                        s.wins, s.ties, s.trials
                    ))
                } else {
                    Ok(())
                }
            }
            _ => Err("the wrong kind of result for its index".into()),
        }
    }

    fn run_unit(&self, index: usize) -> Unit {
        if index < self.exact_units() {
            let start = index * CLASSES_PER_UNIT;
            let end = (start + CLASSES_PER_UNIT).min(self.classes.len());
            return Unit::Exact(
                self.classes[start..end]
                    .iter()
                    .map(|&h| exact_counts(&self.eval, &self.multi, h))
                    .collect(),
            );
        }
        let k = index - self.exact_units();
        let opponents = EXACT_OPPONENTS + 1 + (k / self.classes.len()) as u8;
        let hand = self.classes[k % self.classes.len()];
        let exact = exact_counts(&self.eval, &self.multi, hand);
        let mut rng = multiway::stream(self.seed, index as u64);
        Unit::Sampled(multiway::sample(
            &self.multi,
            &self.multi.hands[hand],
            &exact,
            opponents,
            self.budget,
            &mut rng,
        ))
    }

    fn finish(
        &self,
        meta: &JobMeta,
        units: Vec<Unit>,
        progress: &Progress,
        _stash: &Stash,
    ) -> anyhow::Result<Outputs> {
        let (by_class, samples) = self.split_units(units)?;
        progress.phase("building tables");
        let counts = self.counts_by_hand(&by_class);
        // Every ordered pair of disjoint hands is a win for one side or a tie for both.
        let win_total: u64 = counts.iter().map(|c| c.win1).sum();
        let tie_total: u64 = counts.iter().map(|c| c.tie1).sum();
        // (The relation stays antisymmetric under special_235, so this holds there too.)
        anyhow::ensure!(
            2 * win_total + tie_total == HANDS as u64 * u64::from(OPPONENT_HANDS),
            "internal error: wins and ties do not account for every pair of hands"
        );
        let rules = self.eval.rules.canonical_toml();
        let rules_hash = crate::sink::rules_hash(&rules);
        let cells = HANDS * usize::from(self.max_opponents);
        let (mut win, mut tie) = (Vec::with_capacity(cells), Vec::with_capacity(cells));
        let (mut equity, mut std_error) = (Vec::with_capacity(cells), Vec::with_capacity(cells));
        for n in 1..=self.max_opponents {
            for i in 0..HANDS {
                let e = self.cell(i, n, &counts, &samples).estimate;
                win.push(e.win);
                tie.push(e.tie);
                equity.push(e.equity);
                std_error.push(e.std_error);
            }
        }
        let payload = self.payload(rules.clone(), win, tie, equity, std_error);
        let table = cardtables::Zhajinhua::to_bytes(rules_hash, &payload)?;
        let curves = self.curves(&cardtables::Zhajinhua::from_bytes(&table)?)?;
        Ok(Outputs {
            later: None,
            parquet: vec![
                ParquetOutput {
                    file: "hands.parquet".into(),
                    batches: vec![self.hands_batch(&counts, &samples)?].into(),
                    plain_columns: vec!["hand_index", "cards"],
                },
                ParquetOutput {
                    file: "range_equity.parquet".into(),
                    batches: vec![self.range_equity_batch(&curves)?].into(),
                    plain_columns: vec!["calling_share", "equity"],
                },
                ParquetOutput {
                    file: "categories.parquet".into(),
                    batches: vec![self.categories_batch()?].into(),
                    plain_columns: vec![],
                },
                ParquetOutput {
                    file: "decisions.parquet".into(),
                    batches: vec![decisions::grid_batch(&self.betting)?].into(),
                    plain_columns: vec![],
                },
                ParquetOutput {
                    file: "raise_curve.parquet".into(),
                    batches: vec![self.raise_curve_batch(&curves)?].into(),
                    plain_columns: vec![],
                },
            ],
            tables: vec![BinaryOutput {
                file: "zhajinhua.bin".into(),
                bytes: table,
                entries: HANDS as u64,
            }],
            report: self.report(meta, &counts, &samples, &curves, &rules)?,
            rules,
        })
    }
}
