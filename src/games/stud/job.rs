//! Job kind `stud.tables`: category counts for every deck and ranking variant, the exact
//! hit-probability table against the rule of 2 and 4, break-even outs with implied odds,
//! the exact heads-up starting-hand tables, and the tutorial article's worked example
//! done right. Arrow batches and the runtime payload are in `tables`, the report in
//! `report`.

use super::eval::{category_counts, Evaluator, VARIANTS};
use super::rules::StudTablesRules;
use super::starting_hands::{solve, Scratch};
use super::tables;
use crate::cards::matchups::{matchups_under, two_cards, Matchup, MatchupResult};
use crate::engine::{BinaryOutput, Job, JobMeta, Outputs, Progress, Stash};
use crate::job::{JobError, JobSpec};
use crate::sink::parquet::ParquetOutput;
use cardtables::stud::{HeadsUpTable, StudPayload};

/// Matchup classes per heads-up work unit.
const MATCHUPS_PER_UNIT: usize = 48;

/// The `stud.tables` job.
pub struct TablesJob {
    pub(super) rules: StudTablesRules,
    /// Matchup classes of each heads-up deck, in `rules.headsup_decks` order.
    pub(super) matchups: Vec<Vec<Matchup>>,
}

/// What one unit computes.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Unit {
    Categories([u64; 9]),
    StartingHands(Vec<MatchupResult>),
}

impl TablesJob {
    pub fn new(spec: &JobSpec) -> Result<TablesJob, JobError> {
        let rules = StudTablesRules::from_spec(spec)?;
        Ok(TablesJob::from_rules(rules))
    }

    pub fn from_rules(rules: StudTablesRules) -> Self {
        let matchups = rules
            .headsup_decks
            .iter()
            .map(|&d| {
                let variant = rules.variant(d);
                matchups_under(variant.deck_mask(), &variant.suit_symmetries())
            })
            .collect();
        TablesJob { rules, matchups }
    }

    /// (deck position, first class, last class) of each heads-up unit.
    fn headsup_units(&self) -> Vec<(usize, usize, usize)> {
        let mut units = Vec::new();
        for (d, classes) in self.matchups.iter().enumerate() {
            for start in (0..classes.len()).step_by(MATCHUPS_PER_UNIT) {
                units.push((d, start, (start + MATCHUPS_PER_UNIT).min(classes.len())));
            }
        }
        units
    }
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

impl Job for TablesJob {
    type Unit = Unit;

    fn describe(&self) -> Vec<String> {
        let decks: Vec<String> = self.rules.headsup_decks.iter().map(u8::to_string).collect();
        vec![format!(
            "category counts for every deck; exact heads-up tables for {} ({} matchup classes)",
            if decks.is_empty() {
                "no deck".to_string()
            } else {
                format!("the {}-card deck(s)", decks.join(" and "))
            },
            self.matchups.iter().map(Vec::len).sum::<usize>()
        )]
    }

    fn unit_count(&self) -> usize {
        VARIANTS.len() + self.headsup_units().len()
    }

    fn check_unit(&self, index: usize, unit: &Unit) -> Result<(), String> {
        match unit {
            Unit::Categories(_) if index < VARIANTS.len() => Ok(()),
            Unit::StartingHands(results) if index >= VARIANTS.len() => {
                let units = self.headsup_units();
                let (_, start, end) = units
                    .get(index - VARIANTS.len())
                    .ok_or("a unit beyond the plan")?;
                if results.len() != end - start {
                    return Err(format!(
                        "{} matchups, expected {}",
                        results.len(),
                        end - start
                    ));
                }
                match results.iter().find(|r| !r.is_consistent()) {
                    Some(r) => Err(format!("impossible matchup counts {r:?}")),
                    None => Ok(()),
                }
            }
            _ => Err("the wrong kind of result for its index".into()),
        }
    }

    fn run_unit(&self, index: usize) -> Unit {
        if index < VARIANTS.len() {
            let (deck, ace_low) = VARIANTS[index];
            return Unit::Categories(category_counts(deck, ace_low));
        }
        let (d, start, end) = self.headsup_units()[index - VARIANTS.len()];
        let eval = Evaluator::new(self.rules.variant(self.rules.headsup_decks[d]));
        SCRATCH.with(|scratch| {
            let mut scratch = scratch.borrow_mut();
            Unit::StartingHands(
                self.matchups[d][start..end]
                    .iter()
                    .map(|m| solve(&eval, two_cards(m.a), two_cards(m.b), &mut scratch))
                    .collect(),
            )
        })
    }

    fn finish(
        &self,
        meta: &JobMeta,
        all: Vec<Unit>,
        progress: &Progress,
        _stash: &Stash,
    ) -> anyhow::Result<Outputs> {
        progress.phase("building tables");
        let mut units = Vec::new();
        let mut results: Vec<Vec<MatchupResult>> = vec![Vec::new(); self.matchups.len()];
        for (i, unit) in all.into_iter().enumerate() {
            match unit {
                Unit::Categories(c) if i < VARIANTS.len() => units.push(c),
                Unit::StartingHands(r) if i >= VARIANTS.len() => {
                    let (d, _, _) = self.headsup_units()[i - VARIANTS.len()];
                    results[d].extend(r);
                }
                _ => anyhow::bail!("internal error: unit {i} holds the wrong kind of result"),
            }
        }
        anyhow::ensure!(
            results
                .iter()
                .zip(&self.matchups)
                .all(|(r, m)| r.len() == m.len()),
            "internal error: heads-up results do not cover every matchup"
        );
        let units = &units;
        let rules = self.rules.canonical_toml();
        let tables: Vec<HeadsUpTable> = self
            .rules
            .headsup_decks
            .iter()
            .zip(&self.matchups)
            .zip(&results)
            .map(|((&deck, classes), r)| {
                tables::headsup_table(self.rules.variant(deck), classes, r)
            })
            .collect();
        let rules_hash = crate::sink::rules_hash(&rules);
        let payload = StudPayload {
            rules: rules.clone(),
            decks: tables,
        };
        let table_bytes = cardtables::Stud::to_bytes(rules_hash, &payload)?;
        let table = cardtables::Stud::from_bytes(&table_bytes)?;
        let mut parquet = Vec::new();
        if !self.matchups.is_empty() {
            parquet.push(ParquetOutput {
                file: "headsup.parquet".into(),
                batches: vec![tables::headsup_batch(
                    &self.rules.headsup_decks,
                    &self.matchups,
                    &results,
                )?]
                .into(),
                plain_columns: vec![],
            });
        }
        let mut report = self.report(meta, units, &rules)?;
        report.markdown.push_str(&self.grid_report(&table)?);
        Ok(Outputs {
            later: None,
            parquet: vec![
                ParquetOutput {
                    file: "categories.parquet".into(),
                    batches: vec![tables::categories_batch(units)?].into(),
                    plain_columns: vec![],
                },
                ParquetOutput {
                    file: "hit_probability.parquet".into(),
                    batches: vec![tables::hit_batch()?].into(),
                    plain_columns: vec![],
                },
                ParquetOutput {
                    file: "break_even.parquet".into(),
                    batches: vec![tables::break_even_batch()?].into(),
                    plain_columns: vec![],
                },
            ]
            .into_iter()
            .chain(parquet)
            .collect(),
            tables: vec![BinaryOutput {
                file: "stud.bin".into(),
                bytes: table_bytes,
                entries: self.matchups.iter().map(|m| m.len() as u64).sum(),
            }],
            report,
            rules,
        })
    }
}
