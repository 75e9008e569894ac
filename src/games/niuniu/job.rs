//! Job kind `niuniu.hands`: every 5-card hand with its category, grouping, exact win
//! probability against one opponent and exact banker EV, as Parquet, a runtime table and
//! a report.
//!
//! Work units split the 6,188 rank multisets; each unit computes the exact head-to-head
//! [`Counts`] of its multisets. `finish` expands those to the 2,598,960 hands
//! ([`super::tables`]) and writes the report ([`super::report`]).

use cardtables::niuniu::{CategoryInfo, NiuniuPayload, HANDS, NO_CATEGORY, OPPONENT_HANDS, SLOTS};
use cardtables::Niuniu;
use rayon::prelude::*;

use super::eval::{category_table, MULTISETS};
use super::opponents::{counts, prepare, Counts, Multiset};
use super::report;
use super::rules::{code_name, Ranking, CODES};
use super::tables::{self, CategoryStats, Chunk, Outcome};
use crate::engine::{BinaryOutput, Job, JobMeta, Outputs, Progress};
use crate::job::{JobError, JobSpec};
use crate::sink::parquet::ParquetOutput;

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

    /// Exact per-(multiset, high-card suit) results from the head-to-head counts.
    pub(super) fn outcomes(&self, counts: &[Counts]) -> anyhow::Result<Vec<[Outcome; 4]>> {
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
                let banker = if banker_wins_ties {
                    my_mult * (below + same) - above_pay
                } else {
                    my_mult * wins - above_pay - my_mult * (same - lower_same)
                };
                *slot = Outcome {
                    wins: wins as u32,
                    banker_numerator: banker,
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
    ) -> anyhow::Result<Outputs> {
        let counts: Vec<Counts> = units.into_iter().flatten().collect();
        anyhow::ensure!(
            counts.len() == MULTISETS,
            "internal error: {} multiset results, expected {MULTISETS}",
            counts.len()
        );
        let outcomes = self.outcomes(&counts)?;
        progress.phase("building hand rows");
        let schema = tables::hands_schema();
        let names = tables::category_names(&self.ranking);
        let chunks: Vec<Chunk> = (0..HANDS.div_ceil(tables::HANDS_PER_CHUNK))
            .into_par_iter()
            .map(|i| {
                tables::chunk(
                    &self.ranking,
                    &self.categories,
                    i,
                    &outcomes,
                    &schema,
                    &names,
                )
            })
            .collect::<anyhow::Result<_>>()?;

        let mut stats = [CategoryStats::default(); CODES];
        let mut batches = Vec::with_capacity(chunks.len());
        for chunk in chunks {
            for (total, part) in stats.iter_mut().zip(chunk.stats) {
                total.hands += part.hands;
                total.wins += part.wins;
                total.banker += part.banker;
            }
            batches.push(chunk.batch);
        }
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
            wins: outcomes.iter().flatten().map(|o| o.wins).collect(),
            banker: outcomes
                .iter()
                .flatten()
                .map(|o| o.banker_numerator)
                .collect(),
            bomb_order: self.ranking.rules.bomb_order,
        };
        let table = Niuniu::to_bytes(rules_hash, &payload)?;

        Ok(Outputs {
            parquet: vec![
                ParquetOutput {
                    file: "hands.parquet".into(),
                    batches,
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
                    batches: vec![tables::categories_batch(&self.ranking, &stats)?],
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
