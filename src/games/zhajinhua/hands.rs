//! Job kinds `zhajinhua.hands` (exact, against one and two opponents) and
//! `zhajinhua.multiway` (adds three to five opponents by Monte Carlo, see [`super::multiway`]):
//! win / tie / loss of every 3-card hand against opponents dealt from the 49 unseen cards,
//! under one rule variant.
//!
//! Suits never break ties in Zhajinhua, so a hand's results are shared by its whole suit
//! class (hands equal up to renaming suits); units compute one representative per class.
//! Against one opponent we scan the 18,424 opponent hands. Against two we count ordered
//! pairs of *disjoint* opponent hands from the sets W (hands we beat) and E (hands we tie)
//! by inclusion–exclusion over shared cards:
//! `D(X, Y) = |X||Y| − Σ_c x_c y_c + Σ_p x_p y_p − |X ∩ Y|`, where `x_c` counts hands of X
//! holding card c and `x_p` those holding the pair p.

use std::cmp::Ordering;
use std::sync::Arc;

use arrow_array::types::UInt8Type;
use arrow_array::{
    ArrayRef, BooleanArray, DictionaryArray, Float64Array, RecordBatch, StringArray, UInt16Array,
    UInt32Array, UInt64Array, UInt8Array,
};
use cardtables::colex::binomial;
use cardtables::zhajinhua::ZhajinhuaPayload;
use cardtables::Card;
use serde::{Deserialize, Serialize};

use super::decisions;
use super::eval::{
    index_of, Evaluator, HandInfo, CATEGORIES, CATEGORIES_ZH, HANDS, OPPONENT_HANDS,
};
use super::multiway::{self, Budget, Estimate, Sample};
use super::rules::{Ties, ZhajinhuaRules, A23};
use crate::cards::matchups::suit_permutations;
use crate::engine::{BinaryOutput, Job, Outputs, Progress};
use crate::job::{JobError, JobSpec, MIN_TRIALS};
use crate::sink::parquet::ParquetOutput;

/// Suit classes per exact work unit.
const CLASSES_PER_UNIT: usize = 40;
/// Opponents covered exactly.
pub(super) const EXACT_OPPONENTS: u8 = 2;
/// Opponents covered by `zhajinhua.multiway`.
pub const MULTIWAY_OPPONENTS: u8 = 5;

/// What one work unit computes: exact counts for a run of suit classes, or the Monte
/// Carlo sample of one suit class against one number of opponents.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Unit {
    Exact(Vec<Counts>),
    Sampled(Sample),
}
/// Ordered pairs of disjoint opponent hands: C(49,3) · C(46,3).
pub const OPPONENT_PAIRS: u64 = 18_424 * 15_180;

/// Exact counts for one hand (shared by its suit class).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Opponent hands beaten / tied (of 18,424).
    pub win1: u64,
    pub tie1: u64,
    /// Ordered pairs of disjoint opponent hands (of [`OPPONENT_PAIRS`]) where we beat both,
    /// tie one and beat the other, and tie both.
    pub win2: u64,
    pub tie2_two_way: u64,
    pub tie2_three_way: u64,
}

/// The `zhajinhua.hands` job.
pub struct HandsJob {
    pub(super) name: String,
    pub(super) kind: &'static str,
    pub(super) description: String,
    pub(super) job_file: String,
    pub(super) eval: Evaluator,
    /// Opponent counts covered: 1..=max_opponents (2 = exact only).
    pub(super) max_opponents: u8,
    seed: u64,
    pub(super) budget: Budget,
    /// Representative hand index of each suit class, increasing.
    classes: Vec<usize>,
    /// Class number of each hand.
    class_of: Vec<u32>,
}

impl HandsJob {
    /// The exact job (`zhajinhua.hands`): one and two opponents.
    pub fn new(spec: &JobSpec) -> Result<HandsJob, JobError> {
        let rules = ZhajinhuaRules::from_spec(spec)?;
        Ok(HandsJob::from_rules(
            rules,
            &spec.name,
            &spec.description,
            &spec.file_name(),
        ))
    }

    /// The multiway job (`zhajinhua.multiway`): adds 3..=5 opponents by Monte Carlo,
    /// sampled to `[run] target_std_error` with at most `[run] max_trials` per cell.
    pub fn multiway(spec: &JobSpec) -> Result<HandsJob, JobError> {
        let mut job = HandsJob::new(spec)?.with_monte_carlo(
            MULTIWAY_OPPONENTS,
            spec.run.seed,
            Budget {
                target_std_error: spec.run.target_std_error,
                min_trials: MIN_TRIALS,
                max_trials: spec.run.max_trials,
            },
        );
        job.kind = "zhajinhua.multiway";
        Ok(job)
    }

    /// Adds the Monte Carlo part: 3..=`max_opponents` opponents sampled with `budget`.
    pub fn with_monte_carlo(mut self, max_opponents: u8, seed: u64, budget: Budget) -> Self {
        self.max_opponents = max_opponents;
        self.seed = seed;
        self.budget = budget;
        self
    }

    pub fn from_rules(
        rules: ZhajinhuaRules,
        name: &str,
        description: &str,
        job_file: &str,
    ) -> Self {
        let eval = Evaluator::new(rules);
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
            name: name.to_string(),
            kind: "zhajinhua.hands",
            description: description.to_string(),
            job_file: job_file.to_string(),
            eval,
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

/// Colex index of the pair of two distinct card ids.
fn pair_index(a: u8, b: u8) -> usize {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    (binomial(usize::from(lo), 1) + binomial(usize::from(hi), 2)) as usize
}

/// Card and pair incidence counts of a set of hands.
struct Incidence {
    size: i64,
    cards: [i64; 52],
    pairs: Vec<i64>,
}

impl Incidence {
    fn new() -> Self {
        Incidence {
            size: 0,
            cards: [0; 52],
            pairs: vec![0; 1326],
        }
    }

    fn add(&mut self, h: &HandInfo) {
        let [a, b, c] = h.cards.map(Card::id);
        self.size += 1;
        for id in [a, b, c] {
            self.cards[usize::from(id)] += 1;
        }
        for (x, y) in [(a, b), (a, c), (b, c)] {
            self.pairs[pair_index(x, y)] += 1;
        }
    }

    /// Ordered pairs (x ∈ self, y ∈ other) of disjoint hands; `common` = |self ∩ other|.
    fn disjoint_pairs(&self, other: &Incidence, common: i64) -> u64 {
        let cards: i64 = self
            .cards
            .iter()
            .zip(&other.cards)
            .map(|(x, y)| x * y)
            .sum();
        let pairs: i64 = self
            .pairs
            .iter()
            .zip(&other.pairs)
            .map(|(x, y)| x * y)
            .sum();
        (self.size * other.size - cards + pairs - common) as u64
    }
}

/// Exact counts for one hand against every opponent hand and every pair of them.
pub fn exact_counts(eval: &Evaluator, mine: &HandInfo) -> Counts {
    let mut wins = Incidence::new();
    let mut ties = Incidence::new();
    for theirs in &eval.hands {
        if theirs.mask & mine.mask != 0 {
            continue;
        }
        match eval.compare(mine, theirs) {
            Ordering::Greater => wins.add(theirs),
            Ordering::Equal => ties.add(theirs),
            Ordering::Less => {}
        }
    }
    Counts {
        win1: wins.size as u64,
        tie1: ties.size as u64,
        win2: wins.disjoint_pairs(&wins, wins.size),
        tie2_two_way: 2 * wins.disjoint_pairs(&ties, 0),
        tie2_three_way: ties.disjoint_pairs(&ties, ties.size),
    }
}

/// Win, tie and equity of a hand against `n` opponents from its exact counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    pub wins: u64,
    pub ties: u64,
    pub total: u64,
    pub win: f64,
    pub tie: f64,
    pub loss: f64,
    pub equity: f64,
}

impl Counts {
    pub fn outcome(&self, opponents: u8, ties_rule: Ties) -> Outcome {
        let (wins, ties, total, shared) = match opponents {
            1 => (
                self.win1,
                self.tie1,
                u64::from(OPPONENT_HANDS),
                self.tie1 as f64 / 2.0,
            ),
            _ => (
                self.win2,
                self.tie2_two_way + self.tie2_three_way,
                OPPONENT_PAIRS,
                self.tie2_two_way as f64 / 2.0 + self.tie2_three_way as f64 / 3.0,
            ),
        };
        let t = total as f64;
        let equity = match ties_rule {
            Ties::Split => (wins as f64 + shared) / t,
            Ties::CallerLoses => wins as f64 / t,
        };
        Outcome {
            wins,
            ties,
            total,
            win: wins as f64 / t,
            tie: ties as f64 / t,
            loss: (total - wins - ties) as f64 / t,
            equity,
        }
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
        let ties_rule = self.eval.rules.ties;
        if n <= EXACT_OPPONENTS {
            let o = counts[i].outcome(n, ties_rule);
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
                estimate: s.estimate(&counts[i], ties_rule),
                wins: s.wins,
                ties: s.ties,
                deals: s.trials,
                exact: false,
            }
        }
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

    fn unit_count(&self) -> usize {
        let sampled = usize::from(self.max_opponents.saturating_sub(EXACT_OPPONENTS));
        self.exact_units() + sampled * self.classes.len()
    }

    fn run_unit(&self, index: usize) -> Unit {
        if index < self.exact_units() {
            let start = index * CLASSES_PER_UNIT;
            let end = (start + CLASSES_PER_UNIT).min(self.classes.len());
            return Unit::Exact(
                self.classes[start..end]
                    .iter()
                    .map(|&h| exact_counts(&self.eval, &self.eval.hands[h]))
                    .collect(),
            );
        }
        let k = index - self.exact_units();
        let opponents = EXACT_OPPONENTS + 1 + (k / self.classes.len()) as u8;
        let mine = &self.eval.hands[self.classes[k % self.classes.len()]];
        let exact = exact_counts(&self.eval, mine);
        let mut rng = multiway::stream(self.seed, index as u64);
        Unit::Sampled(multiway::sample(
            &self.eval,
            mine,
            &exact,
            opponents,
            self.budget,
            &mut rng,
        ))
    }

    fn finish(&self, units: Vec<Unit>, progress: &Progress) -> anyhow::Result<Outputs> {
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
        let payload = ZhajinhuaPayload {
            rules: rules.clone(),
            max_opponents: self.max_opponents,
            categories: CATEGORIES.iter().map(|s| s.to_string()).collect(),
            category: self.eval.hands.iter().map(|h| h.category).collect(),
            strength: self.eval.hands.iter().map(|h| h.strength).collect(),
            beats_trips: self.eval.hands.iter().map(|h| h.beats_trips).collect(),
            std_error,
            win,
            tie,
            equity,
        };
        let table = cardtables::Zhajinhua::to_bytes(rules_hash, &payload)?;
        Ok(Outputs {
            parquet: vec![
                ParquetOutput {
                    file: "hands.parquet".into(),
                    batches: vec![self.hands_batch(&counts, &samples)?],
                    plain_columns: vec!["hand", "cards"],
                },
                ParquetOutput {
                    file: "categories.parquet".into(),
                    batches: vec![self.categories_batch()?],
                    plain_columns: vec![],
                },
                ParquetOutput {
                    file: "decisions.parquet".into(),
                    batches: vec![decisions::grid_batch()?],
                    plain_columns: vec![],
                },
                ParquetOutput {
                    file: "raise_curve.parquet".into(),
                    batches: vec![self.raise_curve_batch(&counts)?],
                    plain_columns: vec![],
                },
            ],
            tables: vec![BinaryOutput {
                file: "zhajinhua.bin".into(),
                bytes: table,
                entries: HANDS as u64,
            }],
            report: self.report(&counts, &samples, &rules)?,
            rules,
        })
    }
}

impl HandsJob {
    pub(super) fn category_counts(&self) -> [u32; 6] {
        let mut c = [0u32; 6];
        for h in &self.eval.hands {
            c[usize::from(h.category)] += 1;
        }
        c
    }

    fn hands_batch(
        &self,
        counts: &[Counts],
        samples: &[Vec<Sample>],
    ) -> anyhow::Result<RecordBatch> {
        let rows = HANDS * usize::from(self.max_opponents);
        let mut hand = Vec::with_capacity(rows);
        let mut cards = Vec::with_capacity(rows);
        let mut c = [(); 3].map(|_| Vec::with_capacity(rows));
        let mut category = Vec::with_capacity(rows);
        let mut strength = Vec::with_capacity(rows);
        let mut opponents = Vec::with_capacity(rows);
        let (mut wins, mut ties, mut total) = (vec![], vec![], vec![]);
        let (mut win, mut tie, mut loss, mut equity) = (vec![], vec![], vec![], vec![]);
        let (mut std_error, mut method) = (vec![], vec![]);
        for n in 1..=self.max_opponents {
            for (i, info) in self.eval.hands.iter().enumerate() {
                let cell = self.cell(i, n, counts, samples);
                let o = cell.estimate;
                hand.push(i as u16);
                cards.push(
                    info.cards
                        .iter()
                        .map(|c| c.to_string())
                        .collect::<Vec<_>>()
                        .join(" "),
                );
                for (k, card) in info.cards.iter().enumerate() {
                    c[k].push(card.id());
                }
                category.push(info.category);
                strength.push(info.strength);
                opponents.push(n);
                wins.push(cell.wins);
                ties.push(cell.ties);
                total.push(cell.deals);
                win.push(o.win);
                tie.push(o.tie);
                loss.push((1.0 - o.win - o.tie).max(0.0));
                equity.push(o.equity);
                std_error.push(o.std_error);
                method.push(u8::from(!cell.exact));
            }
        }
        let names = Arc::new(StringArray::from_iter_values(CATEGORIES));
        let method = DictionaryArray::<UInt8Type>::try_new(
            UInt8Array::from(method),
            Arc::new(StringArray::from_iter_values(["exact", "monte_carlo"])),
        )?;
        let [c1, c2, c3] = c;
        let batch = RecordBatch::try_from_iter(vec![
            ("hand", Arc::new(UInt16Array::from(hand)) as ArrayRef),
            ("cards", Arc::new(StringArray::from(cards))),
            ("c1", Arc::new(UInt8Array::from(c1))),
            ("c2", Arc::new(UInt8Array::from(c2))),
            ("c3", Arc::new(UInt8Array::from(c3))),
            (
                "category",
                Arc::new(DictionaryArray::<UInt8Type>::try_new(
                    UInt8Array::from(category.clone()),
                    names,
                )?),
            ),
            ("category_rank", Arc::new(UInt8Array::from(category))),
            ("strength", Arc::new(UInt16Array::from(strength))),
            ("opponents", Arc::new(UInt8Array::from(opponents))),
            ("wins", Arc::new(UInt64Array::from(wins))),
            ("ties", Arc::new(UInt64Array::from(ties))),
            ("deals", Arc::new(UInt64Array::from(total))),
            ("win", Arc::new(Float64Array::from(win))),
            ("tie", Arc::new(Float64Array::from(tie))),
            ("loss", Arc::new(Float64Array::from(loss))),
            ("equity", Arc::new(Float64Array::from(equity))),
            ("std_error", Arc::new(Float64Array::from(std_error))),
            ("method", Arc::new(method)),
        ])?;
        Ok(batch)
    }

    fn categories_batch(&self) -> anyhow::Result<RecordBatch> {
        let counts = self.category_counts();
        let rules = self.eval.rules;
        let a23 = match rules.a23 {
            A23::Lowest => "lowest",
            A23::Second => "second",
            A23::None => "none",
        };
        let n = CATEGORIES.len();
        Ok(RecordBatch::try_from_iter(vec![
            ("a23", Arc::new(StringArray::from(vec![a23; n])) as ArrayRef),
            (
                "special_235",
                Arc::new(BooleanArray::from(vec![rules.special_235; n])),
            ),
            (
                "category",
                Arc::new(StringArray::from_iter_values(CATEGORIES)),
            ),
            (
                "category_zh",
                Arc::new(StringArray::from_iter_values(CATEGORIES_ZH)),
            ),
            (
                "category_rank",
                Arc::new(UInt8Array::from_iter_values(0..n as u8)),
            ),
            ("count", Arc::new(UInt32Array::from(counts.to_vec()))),
            (
                "probability",
                Arc::new(Float64Array::from_iter_values(
                    counts.iter().map(|&c| f64::from(c) / HANDS as f64),
                )),
            ),
        ])?)
    }
}
