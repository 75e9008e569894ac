//! The Hold'em job kinds, each planned from a job file into numbered units:
//!
//! - `holdem.preflop` ([`PreflopJob`]): exact win / tie / loss of every class against one
//!   random hand, by the board sweep ([`super::sweep`]);
//! - `holdem.headsup` ([`HeadsUpJob`]): every matchup class solved exactly
//!   ([`super::matchup`]), then the 169 × 169 class matrix, checked against the sweep;
//! - `holdem.multiway` ([`MultiwayJob`]): every class against 1 to 9 random opponents,
//!   exact against one and two ([`super::sweep`], [`super::two_opponents`]), seeded Monte
//!   Carlo against 3 to 9 ([`super::sampler`]);
//! - `holdem.pushfold` ([`PushFoldJob`]): the matchup classes as in `holdem.headsup`
//!   (recomputed: the job reads no other job's output), then the push/fold equilibrium at
//!   every stack of its grid ([`super::pushfold`]), the stacks solved in parallel;
//! - `holdem.threeway` ([`ThreeWayJob`]): every triple of classes (of a list, or all 169)
//!   all in three ways, exact ([`super::threeway`]).
//!
//! - `holdem.pushfold3` ([`PushFold3Job`]): the triples and pairs of its classes, exact
//!   (recomputed, as above), then the three-handed push/fold equilibrium at every equal
//!   stack, in chip EV and optionally ICM ([`super::pushfold3`]).
//!
//! Arrow batches are in `tables`, the reports in `report`.

use cardtables::holdem::HoldemPayload;
use cardtables::holdem_headsup::HeadsUpPayload;
use cardtables::indexer::HoldemIndexer;
use cardtables::{Card, HoldemHeadsUp};
use serde::{Deserialize, Serialize};

use super::classes::{class_name, combos, CLASSES};
use super::eval::tables;
use super::matchup::{solve, ClassMatrix, MatchupResult, Scratch, BOARDS, FULL_DECK};
use super::postflop::{
    self, check_river_unit, river_unit, RiverBoards, RiverScores, RiverUnit, Strength,
    RIVER_BOARDS_PER_UNIT,
};
use super::pushfold::{solve_stacks, PushFoldGame};
use super::pushfold3::{self, SolvedSpot};
use super::rules::HoldemRules;
use super::rules::{
    PostflopSettings, PushFold3Settings, PushFoldRules, PushFoldSettings, StackGrid,
    ThreeWaySettings,
};
use super::sampler::{representative, sample_counts, Sample, MAX_OPPONENTS};
use super::sweep::{
    self, canonical_boards, class_counts, Board, ClassCounts, BOARDS_PER_UNIT, DEALS_PER_COMBO,
};
use super::tables::{self as batches, Rows};
use super::threeway::{self, TripleResult};
use super::two_opponents::{self, TwoOpponentCounts};
use crate::cards::matchups::{matchups, two_cards, Matchup};
use crate::engine::{
    stream, BinaryOutput, Job, JobMeta, Outputs, Progress, Stash, Step, StreamedTable,
};
use crate::job::{JobError, JobSpec, MIN_TRIALS};
use crate::report::Report;
use crate::sink::parquet::ParquetOutput;
use cardtables::holdem_strength::StrengthPayload;

/// The `holdem.preflop` job.
pub struct PreflopJob {
    pub(super) boards: Vec<Board>,
}

impl PreflopJob {
    pub fn new(spec: &JobSpec) -> Result<PreflopJob, JobError> {
        HoldemRules::from_spec(spec)?;
        Ok(PreflopJob {
            boards: canonical_boards(),
        })
    }
}

impl Job for PreflopJob {
    type Unit = ClassCounts;

    fn unit_count(&self) -> usize {
        self.boards.len().div_ceil(BOARDS_PER_UNIT)
    }

    fn check_unit(&self, _: usize, unit: &ClassCounts) -> Result<(), String> {
        check_class_counts(unit)
    }

    fn run_unit(&self, index: usize) -> ClassCounts {
        let start = index * BOARDS_PER_UNIT;
        class_counts(&self.boards[start..(start + BOARDS_PER_UNIT).min(self.boards.len())])
    }

    fn finish(
        &self,
        meta: &JobMeta,
        units: Vec<ClassCounts>,
        progress: &Progress,
        _stash: &Stash,
    ) -> anyhow::Result<Outputs> {
        progress.phase("building tables");
        let mut wins = vec![0u64; CLASSES];
        let mut ties = vec![0u64; CLASSES];
        for u in &units {
            for c in 0..CLASSES {
                wins[c] += u.wins[c];
                ties[c] += u.ties[c];
            }
        }
        let deals: Vec<u64> = (0..CLASSES)
            .map(|c| u64::from(combos(c)) * DEALS_PER_COMBO)
            .collect();
        // Every ordered pair of disjoint hands on every board is a win for one and a loss
        // for the other, or a tie for both.
        let all: u64 = deals.iter().sum();
        let score: u64 = (0..CLASSES).map(|c| 2 * wins[c] + ties[c]).sum();
        anyhow::ensure!(
            score == all,
            "internal error: wins and ties do not cover every deal"
        );
        anyhow::ensure!(
            (0..CLASSES).all(|c| wins[c].is_multiple_of(u64::from(combos(c)))
                && ties[c].is_multiple_of(u64::from(combos(c)))),
            "internal error: a class's combos do not share its counts evenly"
        );
        let equity = |c: usize| (wins[c] as f64 + ties[c] as f64 / 2.0) / deals[c] as f64;
        let rules = HoldemRules::default().canonical_toml();
        let payload = cardtables::holdem::HoldemPayload {
            rules: rules.clone(),
            max_opponents: 1,
            win: (0..CLASSES)
                .map(|c| wins[c] as f64 / deals[c] as f64)
                .collect(),
            tie: (0..CLASSES)
                .map(|c| ties[c] as f64 / deals[c] as f64)
                .collect(),
            equity: (0..CLASSES).map(equity).collect(),
            std_error: vec![0.0; CLASSES],
        };
        let table = cardtables::Holdem::to_bytes(crate::sink::rules_hash(&rules), &payload)?;
        Ok(Outputs {
            later: None,
            parquet: vec![
                ParquetOutput {
                    file: "preflop.parquet".into(),
                    batches: vec![batches::preflop_batch(&wins, &ties, &deals)?].into(),
                    plain_columns: vec![],
                },
                ParquetOutput {
                    file: "preflop_combos.parquet".into(),
                    batches: vec![batches::combos_batch(&wins, &ties, &deals)?].into(),
                    plain_columns: vec![],
                },
            ],
            tables: vec![BinaryOutput {
                file: "holdem.bin".into(),
                bytes: table,
                entries: CLASSES as u64,
            }],
            report: self.report(meta, &wins, &ties, &deals)?,
            rules,
        })
    }
}

/// A sweep's counts have one entry per class.
fn check_class_counts(c: &ClassCounts) -> Result<(), String> {
    if c.wins.len() == CLASSES && c.ties.len() == CLASSES {
        Ok(())
    } else {
        Err(format!(
            "{} / {} class counts, expected {CLASSES}",
            c.wins.len(),
            c.ties.len()
        ))
    }
}

/// Matchup classes per work unit (a tenth of a second or so).
const MATCHUPS_PER_UNIT: usize = 256;

/// The `holdem.headsup` job: every matchup class solved exactly, then the 169 × 169 class
/// matrix, checked against an independent computation of every class against a random
/// hand.
pub struct HeadsUpJob {
    pub(super) matchups: Vec<Matchup>,
}

impl HeadsUpJob {
    pub fn new(spec: &JobSpec) -> Result<HeadsUpJob, JobError> {
        HoldemRules::from_spec(spec)?;
        Ok(HeadsUpJob {
            matchups: matchups(FULL_DECK),
        })
    }
}

impl Job for HeadsUpJob {
    type Unit = Vec<MatchupResult>;

    fn unit_count(&self) -> usize {
        matchup_unit_count(&self.matchups)
    }

    fn check_unit(&self, index: usize, unit: &Vec<MatchupResult>) -> Result<(), String> {
        check_matchup_unit(&self.matchups, index, unit)
    }

    fn run_unit(&self, index: usize) -> Vec<MatchupResult> {
        run_matchup_unit(&self.matchups, index)
    }

    fn finish(
        &self,
        meta: &JobMeta,
        units: Vec<Vec<MatchupResult>>,
        progress: &Progress,
        _stash: &Stash,
    ) -> anyhow::Result<Outputs> {
        progress.phase("checking against the preflop sweep");
        let (results, matrix) = class_matrix(&self.matchups, units)?;
        // Independent check: each class's row, summed over opponents, must equal its
        // exact result against one random hand from the board sweep of `holdem.preflop`.
        let random = sweep::all_class_counts();
        for c in 0..CLASSES {
            let row = c * CLASSES..(c + 1) * CLASSES;
            let (wins, ties): (u64, u64) = (
                matrix.wins[row.clone()].iter().sum(),
                matrix.ties[row.clone()].iter().sum(),
            );
            anyhow::ensure!(
                (wins, ties) == (random.wins[c], random.ties[c]),
                "internal error: {} wins {wins} ties {ties} over the matrix, {} {} against a random hand",
                class_name(c),
                random.wins[c],
                random.ties[c]
            );
        }
        progress.phase("building tables");
        let cells = batches::class_cells();
        let rules = HoldemRules::default().canonical_toml();
        let payload = HeadsUpPayload {
            rules: rules.clone(),
            boards: BOARDS as u32,
            rep_a: self.matchups.iter().map(|m| m.a).collect(),
            rep_b: self.matchups.iter().map(|m| m.b).collect(),
            wins: results.iter().map(|r| r.wins as u32).collect(),
            ties: results.iter().map(|r| r.ties as u32).collect(),
            class_equity: cells.iter().map(|&(a, b)| matrix.equity(a, b)).collect(),
        };
        let table = HoldemHeadsUp::to_bytes(crate::sink::rules_hash(&rules), &payload)?;
        Ok(Outputs {
            later: None,
            parquet: vec![
                ParquetOutput {
                    file: "headsup.parquet".into(),
                    batches: vec![batches::headsup_batch(&matrix)?].into(),
                    plain_columns: vec!["wins", "ties", "losses", "equity_a"],
                },
                ParquetOutput {
                    file: "matchups.parquet".into(),
                    batches: vec![batches::matchups_batch(&self.matchups, &results)?].into(),
                    plain_columns: vec!["wins", "ties", "losses", "equity_a"],
                },
            ],
            tables: vec![BinaryOutput {
                file: "holdem_headsup.bin".into(),
                bytes: table,
                entries: self.matchups.len() as u64,
            }],
            report: self.report(meta, &matrix, &results)?,
            rules,
        })
    }
}

/// The matchup units of `holdem.headsup` and `holdem.pushfold`: how many there are.
fn matchup_unit_count(matchups: &[Matchup]) -> usize {
    matchups.len().div_ceil(MATCHUPS_PER_UNIT)
}

/// Unit `index` solves its share of the matchup classes exactly.
fn run_matchup_unit(matchups: &[Matchup], index: usize) -> Vec<MatchupResult> {
    let t = tables();
    let mut scratch = Scratch::default();
    let start = index * MATCHUPS_PER_UNIT;
    matchups[start..(start + MATCHUPS_PER_UNIT).min(matchups.len())]
        .iter()
        .map(|m| solve(t, two_cards(m.a), two_cards(m.b), &mut scratch))
        .collect()
}

/// A matchup unit read back from a checkpoint or part must hold its share of results,
/// each over every board.
fn check_matchup_unit(
    matchups: &[Matchup],
    index: usize,
    unit: &[MatchupResult],
) -> Result<(), String> {
    let start = index * MATCHUPS_PER_UNIT;
    let want = (start + MATCHUPS_PER_UNIT)
        .min(matchups.len())
        .saturating_sub(start);
    if unit.len() != want {
        return Err(format!("{} matchups, expected {want}", unit.len()));
    }
    match unit
        .iter()
        .find(|r| r.deals != BOARDS || !r.is_consistent())
    {
        Some(r) => Err(format!("impossible matchup counts {r:?}")),
        None => Ok(()),
    }
}

/// Every matchup unit's results in order, and the class matrix they sum to.
fn class_matrix(
    matchups: &[Matchup],
    units: Vec<Vec<MatchupResult>>,
) -> anyhow::Result<(Vec<MatchupResult>, ClassMatrix)> {
    let results: Vec<MatchupResult> = units.into_iter().flatten().collect();
    anyhow::ensure!(
        results.len() == matchups.len(),
        "internal error: {} results for {} matchups",
        results.len(),
        matchups.len()
    );
    let matrix = ClassMatrix::build(matchups, &results);
    Ok((results, matrix))
}

/// The `holdem.pushfold` job: the exact heads-up matchups, then the jam-or-fold
/// equilibrium at every stack of the grid.
pub struct PushFoldJob {
    pub(super) matchups: Vec<Matchup>,
    pub(super) rules: PushFoldRules,
    pub(super) settings: PushFoldSettings,
    pub(super) grid: StackGrid,
}

impl PushFoldJob {
    pub fn new(spec: &JobSpec) -> Result<PushFoldJob, JobError> {
        let rules = PushFoldRules::from_spec(spec)?;
        let (settings, grid) = PushFoldSettings::from_spec(spec, &rules)?;
        Ok(PushFoldJob {
            matchups: matchups(FULL_DECK),
            rules,
            settings,
            grid,
        })
    }
}

impl Job for PushFoldJob {
    type Unit = Vec<MatchupResult>;

    fn describe(&self) -> Vec<String> {
        let g = &self.grid;
        vec![format!(
            "{} stacks from {} to {} big blinds in steps of {}, ante {}; each solution's exploitability at most {:e} bb",
            g.count,
            g.label(g.stack(0)),
            g.label(g.stack(g.count - 1)),
            g.step,
            self.rules.ante,
            self.settings.target_exploitability
        )]
    }

    fn unit_count(&self) -> usize {
        matchup_unit_count(&self.matchups)
    }

    fn check_unit(&self, index: usize, unit: &Vec<MatchupResult>) -> Result<(), String> {
        check_matchup_unit(&self.matchups, index, unit)
    }

    fn run_unit(&self, index: usize) -> Vec<MatchupResult> {
        run_matchup_unit(&self.matchups, index)
    }

    fn finish(
        &self,
        meta: &JobMeta,
        units: Vec<Vec<MatchupResult>>,
        progress: &Progress,
        _stash: &Stash,
    ) -> anyhow::Result<Outputs> {
        let (_, matrix) = class_matrix(&self.matchups, units)?;
        let game = PushFoldGame::new(&matrix);
        progress.phase(&format!("solving {} stacks", self.grid.count));
        let ante = self.rules.ante;
        let solutions = solve_stacks(&game, ante, &self.grid.stacks())?;
        let target = self.settings.target_exploitability;
        for e in &solutions {
            let x = e.evaluation.exploitability();
            anyhow::ensure!(
                x <= target,
                "the equilibrium at {} bb is exploitable by {x:e} bb, above the target {target:e}",
                e.stakes.stack
            );
            anyhow::ensure!(
                e.evaluation.ev_call.iter().all(|v| v.is_finite()),
                "internal error: a call EV at {} bb is undefined",
                e.stakes.stack
            );
        }
        // Whether each stack's equilibrium is the only one (the charts then do not depend
        // on the solver).
        let unique: Vec<bool> = solutions.iter().map(|e| e.unique(&game)).collect();
        progress.phase("building tables");
        let rules = self.rules.canonical_toml();
        let payload = batches::pushfold_payload(&rules, ante, &self.grid, &solutions);
        let table = cardtables::PushFold::to_bytes(crate::sink::rules_hash(&rules), &payload)?;
        Ok(Outputs {
            later: None,
            parquet: vec![
                ParquetOutput {
                    file: "pushfold.parquet".into(),
                    batches: vec![batches::pushfold_batch(&solutions)?].into(),
                    plain_columns: vec![
                        "ev_push_bb",
                        "ev_call_bb",
                        "push_margin_bb",
                        "call_margin_bb",
                    ],
                },
                ParquetOutput {
                    file: "thresholds.parquet".into(),
                    batches: vec![batches::thresholds_batch(&self.grid, &solutions)?].into(),
                    plain_columns: vec![],
                },
                ParquetOutput {
                    file: "summary.parquet".into(),
                    batches: vec![batches::summary_batch(&solutions, &unique)?].into(),
                    plain_columns: vec!["sb_value_bb", "exploitability_bb"],
                },
            ],
            tables: vec![BinaryOutput {
                file: "pushfold.bin".into(),
                bytes: table,
                entries: (self.grid.count * CLASSES) as u64,
            }],
            report: self.report(meta, &matrix, &solutions, &unique)?,
            rules,
        })
    }
}

/// Exact counts against one and two opponents over some canonical boards, ranking each
/// board's hands once for both.
fn exact_counts(boards: &[sweep::Board]) -> Unit {
    let mut one = sweep::ClassCounts {
        wins: vec![0; CLASSES],
        ties: vec![0; CLASSES],
    };
    let mut two = TwoOpponentCounts::default();
    let mut ranked = Vec::with_capacity(1081);
    let mut sweep = two_opponents::Sweep::default();
    let mut cards = [Card::from_id(0).expect("card 0"); 5];
    for board in boards {
        cardtables::colex::unrank(board.index, 5, &mut cards);
        sweep::rank_hands(cards, &mut ranked);
        let weight = u64::from(board.weight);
        sweep::credit_one_opponent(&ranked, weight, &mut one);
        two_opponents::credit(&mut sweep, &ranked, weight, &mut two);
    }
    Unit::Exact { one, two }
}

/// One unit's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Unit {
    /// Every class against one and against two opponents, exact (from a share of the
    /// boards).
    Exact {
        one: sweep::ClassCounts,
        two: TwoOpponentCounts,
    },
    /// One class against 3 to 9 opponents (index: opponents − 3), from shared deals.
    Sampled(Vec<Sample>),
}

/// The `holdem.multiway` job.
pub struct MultiwayJob {
    seed: u64,
    pub(super) target: f64,
    max_trials: u64,
    boards: Vec<sweep::Board>,
}

/// Fewest opponents sampled by Monte Carlo (fewer are exact).
const FIRST_SAMPLED: usize = 3;
/// Sampled opponent counts per class.
const SAMPLED_COUNTS: usize = MAX_OPPONENTS + 1 - FIRST_SAMPLED;

impl MultiwayJob {
    pub fn new(spec: &JobSpec) -> Result<MultiwayJob, JobError> {
        HoldemRules::from_spec(spec)?;
        Ok(MultiwayJob {
            seed: spec.run.seed,
            target: spec.run.target_std_error,
            max_trials: spec.run.max_trials,
            boards: sweep::canonical_boards(),
        })
    }

    fn exact_units(&self) -> usize {
        self.boards.len().div_ceil(BOARDS_PER_UNIT)
    }
}

impl Job for MultiwayJob {
    type Unit = Unit;

    fn describe(&self) -> Vec<String> {
        vec![
            "1 and 2 opponents exact over every board".to_string(),
            format!(
                "3 to {MAX_OPPONENTS} opponents by Monte Carlo (seed {}): every class until each \
                 column's standard error is at most {:e}, at most {} deals per class",
                self.seed, self.target, self.max_trials
            ),
        ]
    }

    fn warnings(&self) -> Vec<String> {
        crate::engine::monte_carlo_warning(self.target, self.max_trials)
            .into_iter()
            .collect()
    }

    fn unit_count(&self) -> usize {
        self.exact_units() + CLASSES
    }

    fn check_unit(&self, index: usize, unit: &Unit) -> Result<(), String> {
        match unit {
            Unit::Exact { one, two } if index < self.exact_units() => {
                check_class_counts(one)?;
                if [&two.wins, &two.split_two, &two.split_three]
                    .iter()
                    .any(|v| v.len() != CLASSES)
                {
                    return Err("two-opponent counts do not cover every class".into());
                }
                Ok(())
            }
            Unit::Sampled(samples) if index >= self.exact_units() => {
                if samples.len() != SAMPLED_COUNTS {
                    return Err(format!(
                        "{} opponent counts sampled, expected {SAMPLED_COUNTS}",
                        samples.len()
                    ));
                }
                match samples
                    .iter()
                    .find(|s| s.wins.saturating_add(s.ties) > s.trials)
                {
                    Some(s) => Err(format!("impossible sample {s:?}")),
                    None => Ok(()),
                }
            }
            _ => Err("the wrong kind of result for its index".into()),
        }
    }

    fn run_unit(&self, index: usize) -> Unit {
        if index < self.exact_units() {
            let start = index * BOARDS_PER_UNIT;
            let chunk = &self.boards[start..(start + BOARDS_PER_UNIT).min(self.boards.len())];
            return exact_counts(chunk);
        }
        let class = index - self.exact_units();
        let mut rng = stream(self.seed, index as u64);
        Unit::Sampled(sample_counts(
            representative(class),
            FIRST_SAMPLED..=MAX_OPPONENTS,
            self.target,
            MIN_TRIALS,
            self.max_trials,
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
        progress.phase("building tables");
        let mut exact = sweep::ClassCounts {
            wins: vec![0; CLASSES],
            ties: vec![0; CLASSES],
        };
        let mut exact_two = TwoOpponentCounts::default();
        // By (opponents − 3) × CLASSES + class.
        let mut cells = vec![Sample::default(); SAMPLED_COUNTS * CLASSES];
        for (i, unit) in units.into_iter().enumerate() {
            match unit {
                Unit::Exact { one, two } => {
                    for k in 0..CLASSES {
                        exact.wins[k] += one.wins[k];
                        exact.ties[k] += one.ties[k];
                    }
                    exact_two.add(&two);
                }
                Unit::Sampled(samples) => {
                    let class = i - self.exact_units();
                    for (k, s) in samples.into_iter().enumerate() {
                        cells[k * CLASSES + class] = s;
                    }
                }
            }
        }
        // Rows: opponents 1 and 2 (exact), then 3..=9 (sampled), each over all classes.
        let mut rows = Rows::default();
        for c in 0..CLASSES {
            let deals = u64::from(combos(c)) * DEALS_PER_COMBO;
            let (w, t) = (exact.wins[c], exact.ties[c]);
            rows.push(
                c,
                1,
                w,
                t,
                deals,
                (w as f64 + t as f64 / 2.0) / deals as f64,
                0.0,
                "exact",
                0,
            );
        }
        for c in 0..CLASSES {
            let deals = u64::from(combos(c)) * two_opponents::DEALS_PER_COMBO;
            rows.push(
                c,
                2,
                exact_two.wins[c],
                exact_two.split_two[c] + exact_two.split_three[c],
                deals,
                exact_two.equity(c, deals),
                0.0,
                "exact",
                0,
            );
        }
        for (k, s) in cells.iter().enumerate() {
            let (c, n) = (k % CLASSES, FIRST_SAMPLED + k / CLASSES);
            rows.push(
                c,
                n,
                s.wins,
                s.ties,
                s.trials,
                s.equity(),
                s.std_error(),
                "monte_carlo",
                s.trials,
            );
        }
        let worst = cells.iter().map(Sample::std_error).fold(0.0, f64::max);
        // Every deal is one trial in each opponent count's column.
        let deals: u64 = cells[..CLASSES].iter().map(|s| s.trials).sum();
        let rules = HoldemRules::default().canonical_toml();
        let payload = HoldemPayload {
            rules: rules.clone(),
            max_opponents: MAX_OPPONENTS as u8,
            win: rows.win.clone(),
            tie: rows.tie.clone(),
            equity: rows.equity.clone(),
            std_error: rows.std_error.clone(),
        };
        let table = cardtables::Holdem::to_bytes(crate::sink::rules_hash(&rules), &payload)?;
        let report = self.report(meta, &rows, worst, deals)?;
        Ok(Outputs {
            later: None,
            parquet: vec![ParquetOutput {
                file: "multiway.parquet".into(),
                batches: vec![rows.batch()?].into(),
                plain_columns: vec![
                    "wins",
                    "ties",
                    "losses",
                    "equity",
                    "std_error",
                    "win",
                    "tie",
                ],
            }],
            tables: vec![BinaryOutput {
                file: "holdem.bin".into(),
                bytes: table,
                entries: (CLASSES * MAX_OPPONENTS) as u64,
            }],
            report,
            rules,
        })
    }
}

/// The `holdem.postflop` job: every river board's results as units, then the turn, flop
/// and preflop strength tables summed from them, written for the streets asked for.
pub struct PostflopJob {
    pub(super) boards: Vec<Board>,
    pub(super) settings: PostflopSettings,
}

impl PostflopJob {
    pub fn new(spec: &JobSpec) -> Result<PostflopJob, JobError> {
        HoldemRules::from_spec(spec)?;
        Ok(PostflopJob {
            boards: sweep::canonical_boards(),
            settings: PostflopSettings::from_spec(spec)?,
        })
    }

    fn unit_boards(&self, index: usize) -> &[Board] {
        let start = index * RIVER_BOARDS_PER_UNIT;
        &self.boards[start..(start + RIVER_BOARDS_PER_UNIT).min(self.boards.len())]
    }
}

impl Job for PostflopJob {
    type Unit = RiverUnit;

    fn describe(&self) -> Vec<String> {
        let names: Vec<String> = self
            .settings
            .streets
            .iter()
            .map(|s| format!("{s:?}").to_lowercase())
            .collect();
        vec![format!(
            "writes the {} tables ({} histogram bins); every street is computed from the {} river boards up to suit permutation",
            names.join(", "),
            self.settings.bins,
            self.boards.len()
        )]
    }

    fn unit_count(&self) -> usize {
        self.boards.len().div_ceil(RIVER_BOARDS_PER_UNIT)
    }

    fn check_unit(&self, index: usize, unit: &RiverUnit) -> Result<(), String> {
        check_river_unit(unit, self.unit_boards(index).len())
    }

    fn run_unit(&self, index: usize) -> RiverUnit {
        river_unit(self.unit_boards(index))
    }

    fn finish(
        &self,
        meta: &JobMeta,
        units: Vec<RiverUnit>,
        progress: &Progress,
        _stash: &Stash,
    ) -> anyhow::Result<Outputs> {
        use super::rules::StreetName;
        use std::sync::Arc;
        anyhow::ensure!(
            units.len() == self.unit_count(),
            "internal error: {} river units of {}",
            units.len(),
            self.unit_count()
        );
        // The streets are built and written one after another (engine steps), so that at
        // most the river results and one street's tables are held at a time.
        let ix = Arc::new(HoldemIndexer::new());
        let rules = self.settings.canonical_toml();
        let hash = crate::sink::rules_hash(&rules);
        let river_boards = RiverBoards::new(&self.boards, &units);
        let example = |t: &str| cardtables::parse_cards(t).expect("example cards");
        let (hole, board) = (example("As Ad"), example("Kc 8h 5d 3s 2c"));
        let river_example = river_boards.lookup(
            [hole[0], hole[1]],
            [board[0], board[1], board[2], board[3], board[4]],
        );
        let mut river_step = Step {
            parquet: Vec::new(),
            tables: Vec::new(),
            streamed: Vec::new(),
            report: None,
            later: None,
        };
        if self.settings.writes(StreetName::River) {
            progress.phase("river: indexing every state");
            let river = postflop::river_by_state(&river_boards, &ix)?;
            let payload = StrengthPayload {
                rules: rules.clone(),
                street: postflop::RIVER as u8,
                bins: 0,
                wins: river.wins,
                ties: river.ties,
                sum: vec![],
                sum_sq: vec![],
                hist_width: 1,
                hist: vec![],
            };
            add_street(&mut river_step, "river", payload, hash, &ix);
        }
        let scores = RiverScores::from_units(&self.boards, units);
        crate::engine::release_freed_memory();
        let (settings, meta, boards) = (self.settings.clone(), meta.clone(), self.boards.len());
        river_step.later = Some(Box::new(move |progress: &Progress| {
            progress.phase("turn: summing 46 rivers per state");
            let turn = postflop::turn_strength(&scores, &ix, settings.bins as usize)?;
            drop(scores);
            crate::engine::release_freed_memory();
            progress.phase("flop: summing 49 turns per state");
            let flop = postflop::flop_strength(&turn, &ix)?;
            let preflop = postflop::preflop_strength(&flop, &ix)?;
            postflop::check_half(&preflop, &ix)?;
            postflop::check_half(&flop, &ix)?;
            crate::engine::release_freed_memory();
            let report = settings.report(&meta, boards, river_example, &preflop, &flop, &turn)?;
            // The turn's tables are written (and dropped) before the flop's and preflop's.
            let rules = settings.canonical_toml();
            let mut turn_step = Step {
                parquet: Vec::new(),
                tables: Vec::new(),
                streamed: Vec::new(),
                report: Some(report),
                later: None,
            };
            if settings.writes(StreetName::Turn) {
                add_street(
                    &mut turn_step,
                    "turn",
                    strength_payload(&rules, turn, 1),
                    hash,
                    &ix,
                );
            } else {
                drop(turn);
            }
            turn_step.later = Some(Box::new(move |_: &Progress| {
                let mut step = Step {
                    parquet: Vec::new(),
                    tables: Vec::new(),
                    streamed: Vec::new(),
                    report: None,
                    later: None,
                };
                if settings.writes(StreetName::Preflop) {
                    let payload = strength_payload(&rules, preflop, 4);
                    add_street(&mut step, "preflop", payload, hash, &ix);
                }
                if settings.writes(StreetName::Flop) {
                    add_street(
                        &mut step,
                        "flop",
                        strength_payload(&rules, flop, 2),
                        hash,
                        &ix,
                    );
                }
                Ok(step)
            }));
            Ok(turn_step)
        }));
        Ok(Outputs {
            rules,
            parquet: Vec::new(),
            tables: Vec::new(),
            report: Report::default(),
            later: Some(Box::new(move |_: &Progress| Ok(river_step))),
        })
    }
}

/// Adds a street's Parquet table and runtime table (written straight from the payload,
/// which both share) to a step.
fn add_street(
    step: &mut Step,
    name: &str,
    payload: cardtables::holdem_strength::StrengthPayload,
    hash: u64,
    ix: &std::sync::Arc<HoldemIndexer>,
) {
    let states = cardtables::indexer::STATES[usize::from(payload.street)];
    let plain_columns = if usize::from(payload.street) == postflop::RIVER {
        vec!["index", "hole", "board", "hs"]
    } else {
        vec!["index", "hole", "board", "ehs", "ehs2"]
    };
    let payload = std::sync::Arc::new(payload);
    step.parquet.push(ParquetOutput {
        file: format!("{name}.parquet"),
        batches: batches::strength_batches(payload.clone(), ix.clone()),
        plain_columns,
    });
    step.streamed.push(StreamedTable {
        file: format!("strength_{name}.bin"),
        entries: states,
        write: Box::new(move |out| Ok(cardtables::HoldemStrength::write_to(hash, &payload, out)?)),
    });
}

/// A street's strength table as its runtime payload, histogram counts `width` bytes each.
fn strength_payload<H: Copy + Into<u64>>(
    rules: &str,
    s: Strength<H>,
    width: u8,
) -> cardtables::holdem_strength::StrengthPayload {
    let hist = if width == 1 {
        s.hist.into_iter().map(|n| n.into() as u8).collect()
    } else {
        s.hist
            .iter()
            .flat_map(|&n| n.into().to_le_bytes().into_iter().take(usize::from(width)))
            .collect()
    };
    cardtables::holdem_strength::StrengthPayload {
        rules: rules.to_string(),
        street: s.street as u8,
        bins: s.bins as u32,
        wins: vec![],
        ties: vec![],
        sum: s.sum,
        sum_sq: s.sum_sq,
        hist_width: width,
        hist,
    }
}

/// Class triples per work unit: about a second on one core (a triple takes 10 to 80 ms).
const TRIPLES_PER_UNIT: usize = 32;

/// One core's seconds for a triple: a fixed part, and a part per deal of its classes'
/// combinations (the product of their combos: 64 for three suited classes, 1,728 for
/// three offsuit ones). Fitted on one thread of the idle 2-core development VM, whole
/// process, to 120 triples of 8 suited classes (2.2 ms a triple) and 120 of 8 offsuit
/// ones (2.9 ms); 120 of 8 pairs took 1.3 ms, the model says 2.1 (pairs' deals share more
/// of their work). reports/BENCHMARKS.md has the runs.
const SECONDS_PER_TRIPLE: f64 = 2.0e-3;
const SECONDS_PER_COMBO_PRODUCT: f64 = 4.2e-7;

/// One core's seconds to solve one spot of a `holdem.pushfold3` job, per triple of its
/// classes (each evaluation visits every triple). Fitted to the full shipped job on the
/// 2-core development VM (`jobs/holdem_pushfold3.toml`, counts read from a table, 2
/// threads): 62 spots on the 818,805 triples of 169 classes in about 1,740 CPU-seconds
/// besides the units and the report, 28 a spot (16.6 min wall in all).
/// reports/BENCHMARKS.md has the runs.
const SOLVE_SECONDS_PER_TRIPLE: f64 = 3.4e-5;

/// What the triples cost to compute on one core, by the fitted model: per triple, a fixed
/// part and a part in proportion to the product of its classes' combos.
fn triples_cpu_seconds(triples: &[[u8; 3]]) -> f64 {
    let products: f64 = triples
        .iter()
        .map(|t| {
            t.iter()
                .map(|&c| f64::from(combos(usize::from(c))))
                .product::<f64>()
        })
        .sum();
    triples.len() as f64 * SECONDS_PER_TRIPLE + products * SECONDS_PER_COMBO_PRODUCT
}

/// The `holdem.threeway` job: the exact three-way all-in equity of every triple of the
/// covered classes.
pub struct ThreeWayJob {
    pub(super) settings: ThreeWaySettings,
    /// Every triple, in the runtime table's order.
    pub(super) triples: Vec<[u8; 3]>,
}

impl ThreeWayJob {
    pub fn new(spec: &JobSpec) -> Result<ThreeWayJob, JobError> {
        HoldemRules::from_spec(spec)?;
        let settings = ThreeWaySettings::from_spec(spec)?;
        let triples = threeway::triples(&settings.classes);
        Ok(ThreeWayJob { settings, triples })
    }

    fn unit_triples(&self, index: usize) -> &[[u8; 3]] {
        let start = index * TRIPLES_PER_UNIT;
        &self.triples[start..(start + TRIPLES_PER_UNIT).min(self.triples.len())]
    }
}

impl Job for ThreeWayJob {
    type Unit = Vec<TripleResult>;

    fn unit_count(&self) -> usize {
        self.triples.len().div_ceil(TRIPLES_PER_UNIT)
    }

    fn describe(&self) -> Vec<String> {
        vec![format!(
            "{} classes: {} triples (with repeats), each exact over every deal of its \
             holdings and every board",
            self.settings.classes.len(),
            self.triples.len()
        )]
    }

    fn cpu_seconds(&self) -> Option<f64> {
        Some(triples_cpu_seconds(&self.triples))
    }

    fn run_unit(&self, index: usize) -> Vec<TripleResult> {
        self.unit_triples(index)
            .iter()
            .map(|&t| threeway::solve(t))
            .collect()
    }

    fn check_unit(&self, index: usize, unit: &Vec<TripleResult>) -> Result<(), String> {
        let expected = self.unit_triples(index);
        if unit.len() != expected.len() {
            return Err(format!(
                "{} triples, expected {}",
                unit.len(),
                expected.len()
            ));
        }
        expected
            .iter()
            .zip(unit)
            .try_for_each(|(&t, r)| threeway::check(t, r))
    }

    fn finish(
        &self,
        meta: &JobMeta,
        units: Vec<Vec<TripleResult>>,
        progress: &Progress,
        _stash: &Stash,
    ) -> anyhow::Result<Outputs> {
        progress.phase("building tables");
        let results: Vec<TripleResult> = units.into_iter().flatten().collect();
        anyhow::ensure!(
            results.len() == self.triples.len(),
            "internal error: {} triples computed, {} planned",
            results.len(),
            self.triples.len()
        );
        let rules = self.settings.canonical_toml();
        let payload = batches::threeway_payload(&self.settings.classes, &results, &rules);
        let table =
            cardtables::HoldemThreeWay::to_bytes(crate::sink::rules_hash(&rules), &payload)?;
        Ok(Outputs {
            later: None,
            parquet: vec![ParquetOutput {
                file: "threeway.parquet".into(),
                batches: vec![batches::threeway_batch(&results)?].into(),
                plain_columns: vec![],
            }],
            tables: vec![BinaryOutput {
                file: "holdem_threeway.bin".into(),
                bytes: table,
                entries: results.len() as u64,
            }],
            report: self.report(meta, &results)?,
            rules,
        })
    }
}

/// Class pairs per unit of a `holdem.pushfold3` job (each a few milliseconds).
const PAIRS_PER_UNIT: usize = 64;

/// A unit of `holdem.pushfold3`: a block of triples, or a block of pairs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ShowdownUnit {
    Triples(Vec<TripleResult>),
    Pairs(Vec<pushfold3::PairCounts>),
}

/// The `holdem.pushfold3` job: the exact three-way and heads-up showdowns of its classes,
/// then the three-handed jam-or-fold equilibrium at every stack, chip EV and ICM.
pub struct PushFold3Job {
    pub(super) rules: PushFoldRules,
    pub(super) settings: PushFold3Settings,
    pub(super) triples: Vec<[u8; 3]>,
    /// Unordered pairs of covered classes, `a ≤ b`, `b` major.
    pub(super) pairs: Vec<[u8; 2]>,
}

impl PushFold3Job {
    pub fn new(spec: &JobSpec) -> Result<PushFold3Job, JobError> {
        let rules = PushFoldRules::from_spec(spec)?;
        let settings = PushFold3Settings::from_spec(spec, &rules)?;
        if let Some(path) = &settings.threeway {
            if !path.is_file() {
                return Err(spec.field_error(
                    "pushfold3.threeway",
                    format!(
                        "{} is not a file: give the threeway.parquet a holdem.threeway job wrote (a path relative to the working directory), or leave the field out to compute the three-way counts",
                        path.display()
                    ),
                ));
            }
        }
        let triples = threeway::triples(&settings.classes);
        let c = &settings.classes;
        let pairs = (0..c.len())
            .flat_map(|b| (0..=b).map(move |a| [c[a], c[b]]))
            .collect();
        Ok(PushFold3Job {
            rules,
            settings,
            triples,
            pairs,
        })
    }

    /// Units of triples: none when the three-way counts are read from a table.
    fn triple_units(&self) -> usize {
        match self.settings.threeway {
            Some(_) => 0,
            None => self.triples.len().div_ceil(TRIPLES_PER_UNIT),
        }
    }

    /// The triples or pairs of unit `index`.
    fn unit_work(&self, index: usize) -> Result<&[[u8; 3]], &[[u8; 2]]> {
        let t = self.triple_units();
        if index < t {
            let start = index * TRIPLES_PER_UNIT;
            Ok(&self.triples[start..(start + TRIPLES_PER_UNIT).min(self.triples.len())])
        } else {
            let start = (index - t) * PAIRS_PER_UNIT;
            Err(&self.pairs[start..(start + PAIRS_PER_UNIT).min(self.pairs.len())])
        }
    }

    /// The spots: every equal stack of the grid and then every listed spot at unequal
    /// stacks in chip EV, then (with payouts) the same in ICM.
    fn spots(&self) -> Vec<pushfold3::Spot> {
        let models = std::iter::once(None).chain(self.settings.payouts.clone().map(Some));
        let stacks: Vec<[f64; 3]> = self
            .settings
            .grid
            .stacks()
            .into_iter()
            .map(|s| [s; 3])
            .chain(self.settings.spots.iter().copied())
            .collect();
        models
            .flat_map(|payouts| {
                stacks.iter().map(move |&stacks| pushfold3::Spot {
                    stacks,
                    ante: self.rules.ante,
                    payouts: payouts.clone(),
                })
            })
            .collect()
    }
}

impl Job for PushFold3Job {
    type Unit = ShowdownUnit;

    fn unit_count(&self) -> usize {
        self.triple_units() + self.pairs.len().div_ceil(PAIRS_PER_UNIT)
    }

    fn describe(&self) -> Vec<String> {
        let g = &self.settings.grid;
        vec![
            format!(
                "{} classes: {} triples and {} pairs of classes, each exact over every deal and board{}",
                self.settings.classes.len(),
                self.triples.len(),
                self.pairs.len(),
                match &self.settings.threeway {
                    Some(path) => format!(" (the triples read from {})", path.display()),
                    None => String::new(),
                }
            ),
            format!(
                "{} equal stacks from {} to {} big blinds in steps of {}{}, ante {}, chip EV{}; each solution's exploitability at most {:e} bb",
                g.count,
                g.label(g.stack(0)),
                g.label(g.stack(g.count - 1)),
                g.step,
                match self.settings.spots.len() {
                    0 => String::new(),
                    k => format!(" and {k} spots at unequal stacks"),
                },
                self.rules.ante,
                match &self.settings.payouts {
                    Some(p) => format!(" and ICM for payouts {p:?}"),
                    None => String::new(),
                },
                self.settings.target_exploitability
            ),
        ]
    }

    /// The triples (unless read from a table), then every spot's solve, and on fewer
    /// than 169 classes the report's check (the forced-fold game solved at each equal
    /// stack).
    fn cpu_seconds(&self) -> Option<f64> {
        let counts = match self.settings.threeway {
            Some(_) => 0.0,
            None => triples_cpu_seconds(&self.triples),
        };
        let checks = if self.settings.classes.len() < CLASSES {
            self.settings.grid.count
        } else {
            0
        };
        let solves = (self.spots().len() + checks) as f64
            * self.triples.len() as f64
            * SOLVE_SECONDS_PER_TRIPLE;
        Some(counts + solves)
    }

    fn run_unit(&self, index: usize) -> ShowdownUnit {
        match self.unit_work(index) {
            Ok(triples) => {
                ShowdownUnit::Triples(triples.iter().map(|&t| threeway::solve(t)).collect())
            }
            Err(pairs) => ShowdownUnit::Pairs(
                pairs
                    .iter()
                    .map(|&[a, b]| pushfold3::pair_counts(a, b))
                    .collect(),
            ),
        }
    }

    fn check_unit(&self, index: usize, unit: &ShowdownUnit) -> Result<(), String> {
        match (self.unit_work(index), unit) {
            (Ok(expected), ShowdownUnit::Triples(got)) => {
                if got.len() != expected.len() {
                    return Err(format!(
                        "{} triples, expected {}",
                        got.len(),
                        expected.len()
                    ));
                }
                expected
                    .iter()
                    .zip(got)
                    .try_for_each(|(&t, r)| threeway::check(t, r))
            }
            (Err(expected), ShowdownUnit::Pairs(got)) => {
                if got.len() != expected.len() {
                    return Err(format!("{} pairs, expected {}", got.len(), expected.len()));
                }
                match got.iter().position(|p| !p.is_consistent()) {
                    Some(i) => Err(format!("impossible heads-up counts {:?}", got[i])),
                    None => Ok(()),
                }
            }
            _ => Err("a unit of the wrong kind (triples for pairs, or pairs for triples)".into()),
        }
    }

    fn finish(
        &self,
        meta: &JobMeta,
        units: Vec<ShowdownUnit>,
        progress: &Progress,
        stash: &Stash,
    ) -> anyhow::Result<Outputs> {
        let (mut triples, mut pairs) = (vec![], vec![]);
        if let Some(path) = &self.settings.threeway {
            progress.phase("reading the three-way counts");
            triples = batches::read_threeway(path, &self.triples, !self.settings.spots.is_empty())?;
        }
        for unit in units {
            match unit {
                ShowdownUnit::Triples(t) => triples.extend(t),
                ShowdownUnit::Pairs(p) => pairs.extend(p),
            }
        }
        anyhow::ensure!(
            triples.len() == self.triples.len() && pairs.len() == self.pairs.len(),
            "internal error: {} triples and {} pairs computed, {} and {} planned",
            triples.len(),
            pairs.len(),
            self.triples.len(),
            self.pairs.len()
        );
        let counts: Vec<pushfold3::TripleCounts> = triples
            .iter()
            .map(pushfold3::TripleCounts::from_result)
            .collect();
        let showdowns = pushfold3::Showdowns::new(self.settings.classes.clone(), &counts, &pairs)?;
        let spots = self.spots();
        let count = spots.len();
        let mut solved = Vec::with_capacity(count);
        // Each solve is kept in the stash as it is done (minutes each on the full deck),
        // so a run stopped here resumes with the next spot.
        for (i, spot) in spots.into_iter().enumerate() {
            let stacks = spot.stacks.map(|s| s.to_string()).join("/");
            let game = pushfold3::Game::new(&showdowns, spot.clone())?;
            let target = self.settings.target_exploitability * spot.bb_value();
            let key = format!("spot-{i}");
            let kept = stash
                .load::<pushfold3::Stashed>(&key)
                .and_then(|kept| game.recertify(kept, target));
            let solution = match kept {
                Some(solution) => {
                    progress.phase(&format!(
                        "spot {} of {count} ({stacks} bb) solved by the stopped run",
                        i + 1
                    ));
                    solution
                }
                None => {
                    progress.phase(&format!("solving spot {} of {count} ({stacks} bb)", i + 1));
                    let solution = game.solve(&pushfold3::SolveOptions::new(target));
                    if solution.exploitability <= target {
                        stash.save(&key, &pushfold3::Stashed::of(&solution))?;
                    }
                    solution
                }
            };
            anyhow::ensure!(
                solution.exploitability <= target,
                "the equilibrium at {stacks} bb{} is exploitable by {:e}, above the target {target:e}",
                if spot.payouts.is_some() { " (ICM)" } else { "" },
                solution.exploitability
            );
            solved.push(SolvedSpot { spot, solution });
        }
        progress.phase("building tables");
        let rules = self.settings.canonical_toml(&self.rules);
        let classes = &self.settings.classes;
        let payload = batches::pushfold3_payload(
            &rules,
            self.rules.ante,
            classes,
            self.settings.payouts.as_deref(),
            &solved,
        );
        let table = cardtables::PushFold3::to_bytes(crate::sink::rules_hash(&rules), &payload)?;
        let entries = (payload.frequency.len()) as u64;
        Ok(Outputs {
            later: None,
            parquet: vec![
                ParquetOutput {
                    file: "pushfold3.parquet".into(),
                    batches: vec![batches::pushfold3_batch(classes, &solved)?].into(),
                    plain_columns: vec!["ev_act", "ev_fold"],
                },
                ParquetOutput {
                    file: "summary.parquet".into(),
                    batches: vec![batches::pushfold3_summary_batch(&solved)?].into(),
                    plain_columns: vec!["exploitability"],
                },
            ],
            tables: vec![BinaryOutput {
                file: "pushfold3.bin".into(),
                bytes: table,
                entries,
            }],
            report: self.report(meta, &showdowns, &solved)?,
            rules,
        })
    }
}
