//! Job kinds `niuniu.hands` ([`HandsJob`]) and `niuniu.bidding` ([`BiddingJob`]).
//!
//! `niuniu.hands`: every 5-card hand with its category, grouping, exact win
//! probability against one opponent and exact banker EV, as Parquet, a runtime table and
//! a report.
//!
//! Work units split the 6,188 rank multisets; each unit computes the exact head-to-head
//! [`Counts`] of its multisets. `finish` expands those to the 2,598,960 hands
//! (`super::tables`) and writes the report (`super::report`).

use std::sync::{Arc, OnceLock};

use cardtables::niuniu::{CategoryInfo, NiuniuPayload, HANDS, NO_CATEGORY, OPPONENT_HANDS, SLOTS};
use cardtables::niuniu_bidding::{CLASSES, FIFTH_CARDS, FOUR_HANDS};
use cardtables::{Niuniu, NiuniuBidding};
use rayon::prelude::*;

use super::bidding::{
    class_sizes, four_stats, simulate_class, ClassSample, Deck, FourStats, Mixture, Scorer, Table,
    Valuer,
};
use super::equilibrium::{BidGame, Solve};
use super::eval::{category_table, MULTISETS};
use super::multiway::{self, sample_slot, Slot, SlotSample};
use super::opponents::{counts, prepare, Counts, Multiset, Outcome};
use super::report;
use super::rules::{code_name, BiddingSettings, MultiwaySettings, Ranking, CODES};
use super::tables::{self, Bidding, CategoryStats, HandRows};
use crate::engine::{stream, BinaryOutput, Job, JobMeta, Outputs, Progress, Stash};
use crate::job::{JobError, JobSpec};
use crate::sink::parquet::{Batches, ParquetOutput};

/// Rank multisets per work unit: 64 units in all.
const MULTISETS_PER_UNIT: usize = 97;

/// The `niuniu.hands` job, planned from a job file.
pub struct HandsJob {
    pub(super) ranking: Ranking,
    /// Category code of every rank multiset.
    pub(super) categories: Vec<u8>,
    multisets: Vec<Option<Multiset>>,
}

impl HandsJob {
    /// Validates the rules and prepares the per-multiset category table.
    pub fn new(spec: &JobSpec) -> Result<HandsJob, JobError> {
        let ranking = Ranking::from_spec(spec)?;
        Ok(HandsJob::from_ranking(ranking))
    }

    /// The job for an already validated rule set.
    pub fn from_ranking(ranking: Ranking) -> Self {
        let categories = category_table(&ranking);
        let multisets = prepare(&categories, ranking.quad_rank_bombs());
        HandsJob {
            ranking,
            categories,
            multisets,
        }
    }

    /// Exact per-(multiset, high-card suit) results from the count units in index order.
    pub(super) fn outcomes_of_units(
        &self,
        units: Vec<Vec<Counts>>,
    ) -> anyhow::Result<Vec<[Outcome; 4]>> {
        let counts: Vec<Counts> = units.into_iter().flatten().collect();
        anyhow::ensure!(
            counts.len() == MULTISETS,
            "internal error: {} multiset results, expected {MULTISETS}",
            counts.len()
        );
        self.outcomes(&counts)
    }

    /// Exact per-(multiset, high-card suit) results from the head-to-head counts.
    fn outcomes(&self, counts: &[Counts]) -> anyhow::Result<Vec<[Outcome; 4]>> {
        let mult = &self.ranking.multiplier_of_code;
        let banker_wins_ties = self.ranking.rules.banker_wins_ties;
        let mut out = vec![[Outcome::default(); 4]; MULTISETS];
        for (m, ms) in self.multisets.iter().enumerate() {
            let Some(ms) = ms else { continue };
            let c = &counts[m];
            let total: u64 = c.by_code.iter().map(|&n| u64::from(n)).sum();
            if total != u64::from(OPPONENT_HANDS) {
                anyhow::bail!(
                    "internal error: rank multiset {m} sees {total} opponent hands, not {OPPONENT_HANDS}"
                );
            }
            let my_rank = self.ranking.rank(ms.code);
            let mut below = 0i64; // opponents in weaker categories
            let mut above_pay = 0i64; // Σ multipliers of opponents in stronger categories
            for code in 0..CODES as u8 {
                let n = i64::from(c.by_code[usize::from(code)]);
                if n == 0 {
                    continue;
                }
                let rank = self.ranking.rank(code);
                if rank < my_rank {
                    below += n;
                } else if rank > my_rank {
                    above_pay += n * i64::from(mult[usize::from(code)]);
                }
            }
            let same = i64::from(c.by_code[usize::from(ms.code)]);
            let my_mult = i64::from(mult[usize::from(ms.code)]);
            for (suit, slot) in out[m].iter_mut().enumerate() {
                let lower_same = i64::from(c.below_high[suit]);
                let wins = below + lower_same;
                let (banker, player) = if banker_wins_ties {
                    (
                        my_mult * (below + same) - above_pay,
                        my_mult * below - above_pay - my_mult * same,
                    )
                } else {
                    let settled = my_mult * wins - above_pay - my_mult * (same - lower_same);
                    (settled, settled)
                };
                *slot = Outcome {
                    wins: wins as u32,
                    banker_numerator: banker,
                    player_numerator: player,
                };
            }
        }
        Ok(out)
    }
}

impl Job for HandsJob {
    type Unit = Vec<Counts>;

    fn unit_count(&self) -> usize {
        MULTISETS.div_ceil(MULTISETS_PER_UNIT)
    }

    fn check_unit(&self, index: usize, unit: &Vec<Counts>) -> Result<(), String> {
        let start = index * MULTISETS_PER_UNIT;
        let want = (start + MULTISETS_PER_UNIT)
            .min(MULTISETS)
            .saturating_sub(start);
        if unit.len() != want {
            return Err(format!("{} multisets, expected {want}", unit.len()));
        }
        Ok(())
    }

    fn run_unit(&self, index: usize) -> Vec<Counts> {
        let start = index * MULTISETS_PER_UNIT;
        let end = (start + MULTISETS_PER_UNIT).min(MULTISETS);
        (start..end)
            .map(|m| match &self.multisets[m] {
                Some(ms) => counts(ms, &self.multisets),
                None => Counts {
                    by_code: [0; CODES],
                    below_high: [0; 4],
                },
            })
            .collect()
    }

    fn finish(
        &self,
        meta: &JobMeta,
        units: Vec<Vec<Counts>>,
        progress: &Progress,
        _stash: &Stash,
    ) -> anyhow::Result<Outputs> {
        let outcomes = self.outcomes_of_units(units)?;
        progress.phase("summing categories");
        let rows = Arc::new(HandRows::new(
            self.ranking.clone(),
            self.categories.clone(),
            outcomes,
        ));
        let stats = (0..rows.chunks())
            .into_par_iter()
            .map(|i| rows.stats(i))
            .reduce(
                || [CategoryStats::default(); CODES],
                |mut total, part| {
                    for (t, p) in total.iter_mut().zip(part) {
                        t.hands += p.hands;
                        t.wins += p.wins;
                        t.banker += p.banker;
                    }
                    total
                },
            );
        let total_wins: u64 = stats.iter().map(|s| s.wins).sum();
        anyhow::ensure!(
            2 * total_wins == HANDS as u64 * u64::from(OPPONENT_HANDS),
            "internal error: win counts do not sum to half of all hand pairs"
        );

        let rules = self.ranking.canonical_toml();
        let rules_hash = crate::sink::rules_hash(&rules);
        let payload = NiuniuPayload {
            rules: rules.clone(),
            categories: self
                .ranking
                .codes_by_rank
                .iter()
                .map(|&c| CategoryInfo {
                    name: code_name(c).to_string(),
                    multiplier: self.ranking.multiplier_of_code[usize::from(c)],
                })
                .collect(),
            multiset_category: self
                .categories
                .iter()
                .map(|&code| match code {
                    u8::MAX => NO_CATEGORY,
                    code => self.ranking.rank(code),
                })
                .collect(),
            wins: rows.outcomes.iter().flatten().map(|o| o.wins).collect(),
            banker: rows
                .outcomes
                .iter()
                .flatten()
                .map(|o| o.banker_numerator)
                .collect(),
            bomb_order: self.ranking.rules.bomb_order,
        };
        let table = Niuniu::to_bytes(rules_hash, &payload)?;

        Ok(Outputs {
            later: None,
            parquet: vec![
                ParquetOutput {
                    file: "hands.parquet".into(),
                    // Built while the file is written: a row group at a time, never
                    // all 2.6 M rows at once.
                    batches: {
                        let rows = Arc::clone(&rows);
                        Batches::streamed(rows.chunks(), move |i| rows.batch(i))
                    },
                    plain_columns: vec![
                        "hand_index",
                        "cards",
                        "grouping",
                        "banker_ev",
                        "win_probability",
                        "wins",
                    ],
                },
                ParquetOutput {
                    file: "categories.parquet".into(),
                    batches: vec![tables::categories_batch(&self.ranking, &stats)?].into(),
                    plain_columns: vec![],
                },
            ],
            tables: vec![BinaryOutput {
                file: "niuniu.bin".into(),
                bytes: table,
                entries: SLOTS as u64,
            }],
            report: report::build(&self.ranking, meta, &stats, &rules)?,
            rules,
        })
    }
}

/// First stream selector of the one-deck check: class `c` draws from
/// `stream(seed, BIDDING_STREAMS + c)`, apart from every unit's stream.
const BIDDING_STREAMS: u64 = 1 << 40;

/// Four-rank classes per one-deck check unit: 35 units of 52 classes.
const CLASSES_PER_CHECK_UNIT: usize = 52;

/// A unit result of `niuniu.bidding`.
#[derive(serde::Serialize, serde::Deserialize)]
pub enum BiddingUnit {
    /// Head-to-head counts of a range of rank multisets, as `niuniu.hands`.
    Counts(Vec<Counts>),
    /// The one-deck check of a range of four-rank classes, in class order.
    Check(Vec<ClassSample>),
}

/// The exact part of `niuniu.bidding`: what the one-deck check and the outputs start from.
#[derive(Clone)]
pub(super) struct Solved {
    /// Exact results by (rank multiset, tie-break suit), from the head-to-head counts.
    outcomes: Vec<[Outcome; 4]>,
    stats: Vec<FourStats>,
    weights: Vec<f64>,
    solve: Solve,
}

/// The `niuniu.bidding` job, planned from a job file.
///
/// Its units are the `niuniu.hands` head-to-head counts, then (when `check_deals_per_class`
/// is not 0) the one-deck check of the equilibrium, 52 classes per unit. A check unit
/// needs the equilibrium, and a unit sees only the rules: so the first check unit a
/// process runs computes the counts, the four-card results and the equilibrium itself
/// (about 2 s of CPU, once per process, shared by its other check units and its
/// `finish`). The checks, which grow to hours with `check_deals_per_class`, are then
/// checkpointed and sharded like any units; a merge computes the equilibrium once more
/// and no simulation.
pub struct BiddingJob {
    pub(super) hands: HandsJob,
    pub(super) settings: BiddingSettings,
    seed: u64,
    /// The exact part, once a check unit of this process has computed it.
    solved: OnceLock<Solved>,
}

impl BiddingJob {
    /// Validates the rules and the `[bidding]` table.
    pub fn new(spec: &JobSpec) -> Result<BiddingJob, JobError> {
        let hands = HandsJob::new(spec)?;
        let settings = BiddingSettings::from_spec(spec)?;
        Ok(BiddingJob {
            hands,
            settings,
            seed: spec.run.seed,
            solved: OnceLock::new(),
        })
    }

    /// The job for validated rules and settings (tests).
    pub fn from_parts(ranking: Ranking, settings: BiddingSettings, seed: u64) -> BiddingJob {
        BiddingJob {
            hands: HandsJob::from_ranking(ranking),
            settings,
            seed,
            solved: OnceLock::new(),
        }
    }

    fn scorer(&self) -> Scorer<'_> {
        Scorer {
            ranking: &self.hands.ranking,
            categories: &self.hands.categories,
        }
    }

    /// Units of the one-deck check.
    fn check_units(&self) -> usize {
        if self.settings.check_deals_per_class == 0 {
            0
        } else {
            CLASSES.div_ceil(CLASSES_PER_CHECK_UNIT)
        }
    }

    /// The classes check unit `unit` (counted from the first check unit) simulates.
    fn check_classes(unit: usize) -> std::ops::Range<usize> {
        let start = unit * CLASSES_PER_CHECK_UNIT;
        start..(start + CLASSES_PER_CHECK_UNIT).min(CLASSES)
    }

    /// The exact four-card results and the bidding equilibrium, from the exact outcomes
    /// of every five-card slot.
    fn solve_outcomes(&self, outcomes: Vec<[Outcome; 4]>, progress: &Progress) -> Solved {
        let valuer = Valuer {
            scorer: self.scorer(),
            outcomes: &outcomes,
        };
        progress.phase("four-card hands");
        let stats: Vec<FourStats> = (0..FOUR_HANDS as u32)
            .into_par_iter()
            .map(|i| four_stats(i, &valuer))
            .collect();
        progress.phase("bidding equilibrium");
        let game = BidGame::new(
            &valuer.scorer,
            usize::from(self.settings.players),
            &self.settings.bids,
        );
        let start = vec![0u8; CLASSES];
        let solve = game.solve(
            &valuer.scorer,
            &start,
            self.settings.target_exploitability,
            self.settings.max_rounds,
            |round, exploitability| {
                if round % 100 == 0 {
                    progress.phase(&format!(
                        "bidding equilibrium, round {round}: exploitability {exploitability:.2e}"
                    ));
                }
            },
        );
        Solved {
            weights: (0..CLASSES).map(|c| game.class_weight(c)).collect(),
            outcomes,
            stats,
            solve,
        }
    }

    /// The exact part for a check unit: computed by the first one this process runs.
    ///
    /// It is computed on a thread of its own, in a pool of as many threads as the unit's:
    /// a unit's own thread waiting inside a parallel loop could otherwise pick up another
    /// check unit and wait for itself.
    fn solved_for_units(&self) -> &Solved {
        self.solved.get_or_init(|| {
            let threads = rayon::current_num_threads();
            let compute = || {
                let units = (0..self.hands.unit_count())
                    .into_par_iter()
                    .map(|u| self.hands.run_unit(u))
                    .collect();
                let outcomes = self
                    .hands
                    .outcomes_of_units(units)
                    .expect("the counts of run_unit are complete");
                self.solve_outcomes(outcomes, &Progress::hidden())
            };
            std::thread::scope(|scope| {
                let worker = scope.spawn(|| {
                    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
                        Ok(pool) => pool.install(compute),
                        // No pool of its own: the global one (at most one thread a core).
                        Err(_) => compute(),
                    }
                });
                match worker.join() {
                    Ok(solved) => solved,
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            })
        })
    }

    /// The one-deck check of `classes`, against the equilibrium of `solved`.
    fn check(&self, solved: &Solved, classes: std::ops::Range<usize>) -> Vec<ClassSample> {
        let rivals = Mixture::from_strategy(&solved.solve.strategy, solved.solve.levels);
        let table = Table {
            scorer: &self.scorer(),
            players: usize::from(self.settings.players),
            bids: &self.settings.bids,
            rivals: &rivals,
            deck: Deck::Shared,
        };
        classes
            .into_par_iter()
            .map(|class| {
                let mut rng = stream(self.seed, BIDDING_STREAMS + class as u64);
                simulate_class(
                    &table,
                    class,
                    usize::from(solved.solve.main_level(class)),
                    u64::from(self.settings.check_deals_per_class),
                    &mut rng,
                )
            })
            .collect()
    }

    /// Everything the outputs need, from the units in index order.
    pub(super) fn bidding(
        &self,
        units: Vec<BiddingUnit>,
        progress: &Progress,
    ) -> anyhow::Result<Bidding> {
        let mut counts = Vec::new();
        let mut one_deck = Vec::new();
        for unit in units {
            match unit {
                BiddingUnit::Counts(c) => counts.push(c),
                BiddingUnit::Check(c) => one_deck.extend(c),
            }
        }
        let outcomes = self.hands.outcomes_of_units(counts)?;
        let solved = match self.solved.get() {
            Some(solved) => {
                anyhow::ensure!(
                    solved.outcomes == outcomes,
                    "internal error: the check units' outcomes differ from the units'"
                );
                solved.clone()
            }
            None => self.solve_outcomes(outcomes, progress),
        };
        Ok(Bidding {
            weights: solved.weights,
            stats: solved.stats,
            sizes: class_sizes(),
            solve: solved.solve,
            one_deck,
        })
    }
}

impl Job for BiddingJob {
    type Unit = BiddingUnit;

    fn describe(&self) -> Vec<String> {
        let s = &self.settings;
        vec![
            format!(
                "exact: all {FOUR_HANDS} four-card hands, their 48 fifth cards, EV as player and as banker against {} players",
                s.players
            ),
            format!(
                "bidding equilibrium: bids {:?}, solved to exploitability {:e} (at most {} rounds); one-deck check {} tables per class (seed {}), {} units",
                s.bids,
                s.target_exploitability,
                s.max_rounds,
                s.check_deals_per_class,
                self.seed,
                self.check_units()
            ),
        ]
    }

    fn unit_count(&self) -> usize {
        self.hands.unit_count() + self.check_units()
    }

    fn check_unit(&self, index: usize, unit: &BiddingUnit) -> Result<(), String> {
        let counts = self.hands.unit_count();
        match unit {
            BiddingUnit::Counts(c) if index < counts => self.hands.check_unit(index, c),
            BiddingUnit::Check(samples) if index >= counts => {
                let classes = Self::check_classes(index - counts);
                if samples.len() != classes.len() {
                    return Err(format!(
                        "{} checked classes, expected {}",
                        samples.len(),
                        classes.len()
                    ));
                }
                let levels = self.settings.bids.len() + 1;
                for (class, s) in classes.zip(samples) {
                    s.validate(levels, u64::from(self.settings.check_deals_per_class))
                        .map_err(|e| format!("class {class}: {e}"))?;
                }
                Ok(())
            }
            BiddingUnit::Counts(_) => {
                Err("head-to-head counts where a one-deck check belongs".into())
            }
            BiddingUnit::Check(_) => {
                Err("a one-deck check where head-to-head counts belong".into())
            }
        }
    }

    fn run_unit(&self, index: usize) -> BiddingUnit {
        let counts = self.hands.unit_count();
        if index < counts {
            return BiddingUnit::Counts(self.hands.run_unit(index));
        }
        let solved = self.solved_for_units();
        BiddingUnit::Check(self.check(solved, Self::check_classes(index - counts)))
    }

    fn finish(
        &self,
        meta: &JobMeta,
        units: Vec<BiddingUnit>,
        progress: &Progress,
        _stash: &Stash,
    ) -> anyhow::Result<Outputs> {
        let bidding = self.bidding(units, progress)?;
        let ranking = &self.hands.ranking;
        for (index, s) in bidding.stats.iter().enumerate() {
            let total: u32 = s.fifth_cards.iter().map(|&n| u32::from(n)).sum();
            anyhow::ensure!(
                total == u32::from(FIFTH_CARDS),
                "internal error: four-card hand {index} has {total} fifth cards"
            );
        }
        progress.phase("building tables");
        let rules = format!(
            "{}{}",
            ranking.canonical_toml(),
            self.settings.canonical_toml()
        );
        let rules_hash = crate::sink::rules_hash(&rules);
        let payload = tables::bidding_payload(ranking, &self.settings, rules.clone(), &bidding);
        let table = NiuniuBidding::to_bytes(rules_hash, &payload)?;
        Ok(Outputs {
            later: None,
            parquet: vec![
                ParquetOutput {
                    file: "four_cards.parquet".into(),
                    batches: vec![tables::four_cards_batch(ranking, &self.settings, &bidding)?]
                        .into(),
                    plain_columns: vec![
                        "hand_index",
                        "cards",
                        "player_ev",
                        "banker_ev",
                        "banker_ev_table",
                    ],
                },
                ParquetOutput {
                    file: "bidding.parquet".into(),
                    batches: vec![tables::bidding_batch(&self.settings, &bidding)?].into(),
                    plain_columns: vec![],
                },
                ParquetOutput {
                    file: "equilibrium.parquet".into(),
                    batches: vec![tables::equilibrium_batch(&self.settings, &bidding)?].into(),
                    plain_columns: vec![],
                },
            ],
            tables: vec![BinaryOutput {
                file: "niuniu_bidding.bin".into(),
                bytes: table,
                entries: FOUR_HANDS as u64,
            }],
            report: report::build_bidding(ranking, &self.settings, meta, &bidding, &rules)?,
            rules,
        })
    }
}

/// Slot ids (`multiset · 4 + suit`) per sampled unit of `niuniu.multiway`: 64 units of
/// about 387 slots (24,752 ids, some empty).
const SLOT_IDS_PER_UNIT: usize = 387;

/// A unit result of `niuniu.multiway`.
#[derive(serde::Serialize, serde::Deserialize)]
pub enum MultiwayUnit {
    /// Head-to-head counts of a range of rank multisets, as `niuniu.hands`.
    Counts(Vec<Counts>),
    /// The sampled slots of a range of slot ids, with their ids.
    Sampled(Vec<(u32, SlotSample)>),
}

/// The `niuniu.multiway` job: the `niuniu.hands` counts, then every slot's deals.
pub struct MultiwayJob {
    pub(super) hands: HandsJob,
    pub(super) settings: MultiwaySettings,
    seed: u64,
    slots: std::sync::OnceLock<Vec<Slot>>,
}

impl MultiwayJob {
    /// Validates the rules and the `[multiway]` table.
    pub fn new(spec: &JobSpec) -> Result<MultiwayJob, JobError> {
        Ok(MultiwayJob::from_parts(
            Ranking::from_spec(spec)?,
            MultiwaySettings::from_spec(spec)?,
            spec.run.seed,
        ))
    }

    /// The job for validated rules and settings (tests).
    pub fn from_parts(ranking: Ranking, settings: MultiwaySettings, seed: u64) -> MultiwayJob {
        MultiwayJob {
            hands: HandsJob::from_ranking(ranking),
            settings,
            seed,
            slots: std::sync::OnceLock::new(),
        }
    }

    /// Every slot that holds a hand (computed once, on first use).
    pub(super) fn slots(&self) -> &[Slot] {
        self.slots
            .get_or_init(|| multiway::slots(&self.hands.categories, &self.hands.ranking))
    }

    fn count_units(&self) -> usize {
        self.hands.unit_count()
    }

    /// The slots of sampled unit `index` (counting from the first sampled unit).
    fn unit_slots(&self, index: usize) -> &[Slot] {
        let (start, end) = (
            (index * SLOT_IDS_PER_UNIT) as u32,
            ((index + 1) * SLOT_IDS_PER_UNIT) as u32,
        );
        let slots = self.slots();
        let from = slots.partition_point(|s| s.id < start);
        let to = slots.partition_point(|s| s.id < end);
        &slots[from..to]
    }
}

impl Job for MultiwayJob {
    type Unit = MultiwayUnit;

    fn describe(&self) -> Vec<String> {
        vec![
            "against 1 player: exact (the niuniu.hands counts); banker EV against N: N × that, exact".to_string(),
            format!(
                "against 2 to 5 players, and the banker's spread: {} deals per slot (rank multiset × tie-break suit), seed {}",
                self.settings.deals_per_slot, self.seed
            ),
        ]
    }

    fn unit_count(&self) -> usize {
        self.count_units() + (MULTISETS * 4).div_ceil(SLOT_IDS_PER_UNIT)
    }

    fn check_unit(&self, index: usize, unit: &MultiwayUnit) -> Result<(), String> {
        match unit {
            MultiwayUnit::Counts(c) if index < self.count_units() => {
                self.hands.check_unit(index, c)
            }
            MultiwayUnit::Sampled(samples) if index >= self.count_units() => {
                let want = self.unit_slots(index - self.count_units());
                let deals = u64::from(self.settings.deals_per_slot);
                if samples.len() != want.len()
                    || samples.iter().zip(want).any(|((id, s), slot)| {
                        *id != slot.id
                            || s.deals != deals
                            || s.beat_all.iter().any(|&w| w > deals)
                            || s.banker_sum_sq
                                .iter()
                                .chain(&s.banker_sum_4th)
                                .any(|&v| v < 0)
                    })
                {
                    return Err("sampled slots differ from the unit's slots".into());
                }
                Ok(())
            }
            _ => Err("the wrong kind of result for its index".into()),
        }
    }

    fn run_unit(&self, index: usize) -> MultiwayUnit {
        if index < self.count_units() {
            return MultiwayUnit::Counts(self.hands.run_unit(index));
        }
        let scorer = Scorer {
            ranking: &self.hands.ranking,
            categories: &self.hands.categories,
        };
        let mut rng = stream(self.seed, index as u64);
        let deals = u64::from(self.settings.deals_per_slot);
        MultiwayUnit::Sampled(
            self.unit_slots(index - self.count_units())
                .iter()
                .map(|slot| (slot.id, sample_slot(&scorer, slot, deals, &mut rng)))
                .collect(),
        )
    }

    fn finish(
        &self,
        meta: &JobMeta,
        units: Vec<MultiwayUnit>,
        progress: &Progress,
        _stash: &Stash,
    ) -> anyhow::Result<Outputs> {
        let mut counts = Vec::new();
        let mut samples = Vec::with_capacity(self.slots().len());
        for unit in units {
            match unit {
                MultiwayUnit::Counts(c) => counts.push(c),
                MultiwayUnit::Sampled(s) => samples.extend(s.into_iter().map(|(_, s)| s)),
            }
        }
        anyhow::ensure!(
            samples.len() == self.slots().len(),
            "internal error: {} slots sampled, expected {}",
            samples.len(),
            self.slots().len()
        );
        let outcomes = self.hands.outcomes_of_units(counts)?;
        progress.phase("building tables");
        let ranking = &self.hands.ranking;
        let results = tables::multiway_results(
            ranking,
            &self.hands.categories,
            self.slots(),
            &outcomes,
            samples,
        );
        let rules = format!(
            "{}{}",
            ranking.canonical_toml(),
            self.settings.canonical_toml()
        );
        Ok(Outputs {
            later: None,
            parquet: vec![
                ParquetOutput {
                    file: "slots.parquet".into(),
                    batches: vec![tables::slots_batch(ranking, &results)?].into(),
                    plain_columns: vec!["p_beat_all", "std_error", "banker_ev", "banker_sd"],
                },
                ParquetOutput {
                    file: "summary.parquet".into(),
                    batches: vec![tables::multiway_summary_batch(
                        ranking,
                        &results,
                        self.settings.strength_bands,
                    )?]
                    .into(),
                    plain_columns: vec![],
                },
            ],
            tables: vec![],
            report: report::build_multiway(ranking, &self.settings, meta, &results, &rules)?,
            rules,
        })
    }
}
