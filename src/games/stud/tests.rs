//! Tests of the `stud.tables` job as a whole: its units and outputs, without the slow
//! heads-up tables. The evaluator, the outs engine and the starting-hand solver have
//! their own tests beside them.

use arrow_array::{Array, Int16Array, Int64Array};

use super::eval::VARIANTS;
use super::job::TablesJob;
use super::rules::StudTablesRules;
use crate::engine::{Job, JobMeta, Progress, Stash};

/// Rows of a Parquet output, over every batch.
fn rows(output: &crate::sink::parquet::ParquetOutput) -> usize {
    let batches = output.batches.collect().unwrap();
    batches.iter().map(|b| b.num_rows()).sum()
}

fn quick_job() -> TablesJob {
    TablesJob::from_rules(StudTablesRules {
        headsup_decks: vec![],
        ..StudTablesRules::default()
    })
}

#[test]
fn a_job_without_headsup_decks_counts_every_variant_and_writes_every_table() {
    let job = quick_job();
    assert_eq!(job.unit_count(), VARIANTS.len());
    let units: Vec<_> = (0..job.unit_count()).map(|u| job.run_unit(u)).collect();
    let outputs = job
        .finish(
            &JobMeta::named("showhand", "stud.tables"),
            units,
            &Progress::hidden(),
            &Stash::none(),
        )
        .unwrap();
    let files: Vec<&str> = outputs.parquet.iter().map(|p| p.file.as_str()).collect();
    assert_eq!(
        files,
        [
            "categories.parquet",
            "hit_probability.parquet",
            "break_even.parquet"
        ]
    );

    // Categories: 6 (deck, ace-low) variants × 2 orders × 9 categories, and every
    // variant's counts add up to C(deck, 5).
    let categories = &outputs.parquet[0].batches.collect().unwrap()[0];
    assert_eq!(categories.num_rows(), VARIANTS.len() * 2 * 9);
    let deck = categories
        .column_by_name("deck")
        .unwrap()
        .as_any()
        .downcast_ref::<Int16Array>()
        .unwrap();
    let count = categories
        .column_by_name("count")
        .unwrap()
        .as_any()
        .downcast_ref::<Int64Array>()
        .unwrap();
    for block in 0..VARIANTS.len() * 2 {
        let rows = block * 9..(block + 1) * 9;
        let n = u64::try_from(deck.value(rows.start)).unwrap();
        let total: u64 = rows.map(|r| u64::try_from(count.value(r)).unwrap()).sum();
        assert_eq!(
            total,
            n * (n - 1) * (n - 2) * (n - 3) * (n - 4) / 120,
            "block {block}"
        );
    }

    // Hit probabilities: outs 1–20 × unseen 20–47 × 1 or 2 cards to come.
    assert_eq!(rows(&outputs.parquet[1]), 20 * 28 * 2);
    // Break-even outs: 5 pots × 4 calls × 4 implied × 4 unseen × 2 cards.
    assert_eq!(rows(&outputs.parquet[2]), 5 * 4 * 4 * 4 * 2);

    // The report works the tutorial's example both ways and names its job file.
    let md = &outputs.report.markdown;
    assert!(
        md.contains("**11 outs of 44**") && md.contains("**11 outs of 45**"),
        "{md}"
    );
    assert!(md.contains("Written by `pipeline run jobs/showhand.toml` (kind `stud.tables`)"));
    // The rule of 4 against the exact two-card chance from 46 unseen: 8 outs hit with
    // 1 − C(38,2)/C(46,2) = 332/1035 = 0.3208 > 0.32, 9 outs with 369/1035 = 0.3565 < 0.36,
    // so the report says it understates up to 8 outs and overstates from 9.
    assert!(
        md.contains("understates the two-card chance up to 8 outs and overstates it from 9 on"),
        "{md}"
    );
    assert!(md.contains("the rule of 2 understates the one-card chance throughout"));
}
