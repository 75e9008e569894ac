//! Job kind `holdem.multiway`: every starting-hand class against 1 to 9 random opponents.
//! One and two opponents are exact (the board sweep of `holdem.preflop`, and its extension
//! in [`super::two_opponents`], share one ranking of each board's hands); three to nine are
//! Monte Carlo with a seeded PCG stream per class. A deal seats up to nine opponents and
//! its first n of them are a trial against n ([`sample_counts`]), so one deal serves every
//! opponent count; a class samples until every count's standard error meets the job's
//! target.
//!
//! A trial deals the board and the opponents' hands from the 50 unseen cards (partial
//! Fisher–Yates) and scores each hand from additive card keys ([`Tables::key`]): the
//! board's keys are summed once per trial and each hand adds its own two.

use std::sync::Arc;

use arrow_array::{ArrayRef, Float64Array, RecordBatch, StringArray, UInt64Array, UInt8Array};
use cardtables::holdem::HoldemPayload;
use cardtables::Card;
use rand::RngExt;
use rand_pcg::Pcg64;
use serde::{Deserialize, Serialize};

use super::classes::{class_name, class_ranks, combos, CLASSES};
use super::eval::{tables, Tables};
use super::preflop::{self, DEALS_PER_COMBO};
use super::two_opponents::{self, TwoOpponentCounts};
use crate::engine::{stream, BinaryOutput, Job, Outputs, Progress};
use crate::job::{JobError, JobSpec, MIN_TRIALS};
use crate::report::{markdown_table, Report};
use crate::sink::parquet::ParquetOutput;

/// Most opponents covered.
pub const MAX_OPPONENTS: usize = 9;
/// Pot shares are counted in units of 1/2520 (2520 is divisible by 1..=10), so every
/// split pot is a whole number and sums stay exact integers.
const SHARE: u64 = 2520;
/// Trials between standard-error checks.
const BATCH: u64 = 1 << 16;

/// What sampling one cell gathered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sample {
    pub trials: u64,
    /// Trials won outright, and trials split with one or more opponents.
    pub wins: u64,
    pub ties: u64,
    /// Sum of the hero's pot share (units of 1/2520) and of its square.
    pub share: u64,
    pub share_squared: u128,
}

impl Sample {
    pub fn equity(&self) -> f64 {
        self.share as f64 / SHARE as f64 / self.trials as f64
    }

    pub fn std_error(&self) -> f64 {
        let n = self.trials as f64;
        let mean = self.share as f64 / SHARE as f64 / n;
        let second = self.share_squared as f64 / (SHARE * SHARE) as f64 / n;
        ((second - mean * mean).max(0.0) / n).sqrt()
    }

    /// Counts one trial in which the hero's pot share was `share`.
    #[inline]
    fn add(&mut self, share: u64) {
        self.trials += 1;
        if share == SHARE {
            self.wins += 1;
        } else if share > 0 {
            self.ties += 1;
        }
        self.share += share;
        self.share_squared += u128::from(share * share);
    }
}

/// Samples `hero` against `opponents` random hands until the standard error is at most
/// `target` (after at least `min` trials) or `max` trials are drawn.
pub fn sample(
    hero: [Card; 2],
    opponents: usize,
    target: f64,
    min: u64,
    max: u64,
    rng: &mut Pcg64,
) -> Sample {
    sample_counts(hero, opponents..=opponents, target, min, max, rng)[0]
}

/// Samples `hero` against every number of random opponents in `counts` at once: each deal
/// seats the most opponents, and its first `n` of them are a deal against `n`. Sampling
/// stops when every count's standard error is at most `target` (after at least `min`
/// trials) or `max` trials are drawn; the counts' estimates are correlated with each
/// other, each one on its own is an ordinary Monte Carlo estimate.
pub fn sample_counts(
    hero: [Card; 2],
    counts: std::ops::RangeInclusive<usize>,
    target: f64,
    min: u64,
    max: u64,
    rng: &mut Pcg64,
) -> Vec<Sample> {
    let t = tables();
    let mut deck: Vec<Card> = (0..52u8)
        .map(|id| Card::from_id(id).expect("id < 52"))
        .filter(|c| !hero.contains(c))
        .collect();
    let hero_key = t.key(hero[0]) + t.key(hero[1]);
    let (first, last) = (*counts.start(), *counts.end());
    let mut cells = vec![Sample::default(); last + 1 - first];
    let mut dealer = Dealer {
        deck: &mut deck,
        draws: Draws::default(),
        rng,
    };
    loop {
        for _ in 0..BATCH {
            play(t, hero, hero_key, &mut dealer, first, &mut cells);
        }
        let trials = cells[0].trials;
        let worst = cells.iter().map(Sample::std_error).fold(0.0, f64::max);
        if trials >= max || (trials >= min && worst <= target) {
            return cells;
        }
    }
}

/// Uniform integers below a bound, two from each 64-bit draw (Lemire's multiply-shift
/// with rejection, so exactly uniform): card dealing is most of a trial's cost.
#[derive(Default)]
struct Draws {
    /// The high half of the last 64-bit draw, while `spare` says it is unused.
    high: u32,
    spare: bool,
}

impl Draws {
    #[inline]
    fn word(&mut self, rng: &mut Pcg64) -> u32 {
        if self.spare {
            self.spare = false;
            self.high
        } else {
            let x: u64 = rng.random();
            self.high = (x >> 32) as u32;
            self.spare = true;
            x as u32
        }
    }

    #[inline]
    fn below(&mut self, bound: u32, rng: &mut Pcg64) -> u32 {
        let mut m = u64::from(self.word(rng)) * u64::from(bound);
        if (m as u32) < bound {
            let threshold = bound.wrapping_neg() % bound;
            while (m as u32) < threshold {
                m = u64::from(self.word(rng)) * u64::from(bound);
            }
        }
        (m >> 32) as u32
    }
}

/// Deals cards without replacement from the unseen cards (partial Fisher–Yates: the
/// first `next` cards of `deck` are this trial's, and any order of the rest is uniform).
struct Dealer<'a> {
    deck: &'a mut [Card],
    draws: Draws,
    rng: &'a mut Pcg64,
}

impl Dealer<'_> {
    #[inline]
    fn deal(&mut self, next: usize) -> Card {
        let r = next + self.draws.below((self.deck.len() - next) as u32, self.rng) as usize;
        self.deck.swap(next, r);
        self.deck[next]
    }
}

/// One deal: the board, then the opponents' hands one at a time. The hero's pot share
/// (units of 1/2520) against the first `first + k` opponents goes to `cells[k]`; dealing
/// stops as soon as an opponent beats the hero, which loses every larger table too.
///
/// Hands are scored from additive card keys (see [`Tables::key`]): the board's five keys
/// are summed once, and each hand adds its two.
#[inline]
fn play(
    t: &Tables,
    hero: [Card; 2],
    hero_key: u64,
    dealer: &mut Dealer,
    first: usize,
    cells: &mut [Sample],
) {
    let mut board_key = 0u64;
    for j in 0..5 {
        board_key += t.key(dealer.deal(j));
    }
    let strength = |a: Card, b: Card, key: u64, dealer: &Dealer| -> u16 {
        match Tables::flush_suit(key) {
            None => t.non_flush_key(key),
            Some(suit) => {
                let mut mask = 0u16;
                for c in dealer.deck[..5].iter().chain([&a, &b]) {
                    if c.suit() == suit {
                        mask |= 1 << c.rank();
                    }
                }
                t.flush(mask)
            }
        }
    };
    let mine = strength(hero[0], hero[1], board_key + hero_key, dealer);
    let last = first + cells.len() - 1;
    let mut tied = 0usize;
    for k in 0..last {
        let (a, b) = (dealer.deal(5 + 2 * k), dealer.deal(6 + 2 * k));
        let theirs = strength(a, b, board_key + t.key(a) + t.key(b), dealer);
        if theirs > mine {
            for cell in &mut cells[(k + 1).saturating_sub(first)..] {
                cell.add(0);
            }
            return;
        }
        tied += usize::from(theirs == mine);
        if k + 1 >= first {
            cells[k + 1 - first].add(SPLIT_SHARES[tied]);
        }
    }
}

/// The share of a pot split `k + 1` ways, by k.
const SPLIT_SHARES: [u64; MAX_OPPONENTS + 1] = {
    let mut shares = [0; MAX_OPPONENTS + 1];
    let mut k = 0;
    while k <= MAX_OPPONENTS {
        shares[k] = SHARE / (k as u64 + 1);
        k += 1;
    }
    shares
};

/// Exact counts against one and two opponents over some canonical boards, ranking each
/// board's hands once for both.
fn exact_counts(boards: &[preflop::Board]) -> Unit {
    let mut one = preflop::ClassCounts {
        wins: vec![0; CLASSES],
        ties: vec![0; CLASSES],
    };
    let mut two = TwoOpponentCounts::default();
    let mut ranked = Vec::with_capacity(1081);
    let mut sweep = two_opponents::Sweep::default();
    let mut cards = [Card::from_id(0).expect("card 0"); 5];
    for board in boards {
        cardtables::colex::unrank(board.index, 5, &mut cards);
        preflop::rank_hands(cards, &mut ranked);
        let weight = u64::from(board.weight);
        preflop::credit_one_opponent(&ranked, weight, &mut one);
        two_opponents::credit(&mut sweep, &ranked, weight, &mut two);
    }
    Unit::Exact { one, two }
}

/// A representative hand of a class.
pub fn representative(class: usize) -> [Card; 2] {
    let (hi, lo, suited) = class_ranks(class);
    [
        Card::new(hi, 3).expect("card"),
        Card::new(lo, if suited { 3 } else { 2 }).expect("card"),
    ]
}

/// One unit's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Unit {
    /// Every class against one and against two opponents, exact (from a share of the
    /// boards).
    Exact {
        one: preflop::ClassCounts,
        two: TwoOpponentCounts,
    },
    /// One class against 3 to 9 opponents (index: opponents − 3), from shared deals.
    Sampled(Vec<Sample>),
}

/// The `holdem.multiway` job.
pub struct MultiwayJob {
    name: String,
    description: String,
    job_file: String,
    seed: u64,
    target: f64,
    max_trials: u64,
    boards: Vec<preflop::Board>,
}

/// Canonical boards per exact unit (about a quarter of a second each).
const BOARDS_PER_UNIT: usize = 1024;
/// Fewest opponents sampled by Monte Carlo (fewer are exact).
const FIRST_SAMPLED: usize = 3;
/// Sampled opponent counts per class.
const SAMPLED_COUNTS: usize = MAX_OPPONENTS + 1 - FIRST_SAMPLED;

impl MultiwayJob {
    pub fn new(spec: &JobSpec) -> Result<MultiwayJob, JobError> {
        #[derive(serde::Deserialize, Default)]
        #[serde(deny_unknown_fields)]
        struct NoRules {}
        let _: NoRules = spec.rules()?;
        Ok(MultiwayJob {
            name: spec.name.clone(),
            description: spec.description.clone(),
            job_file: spec.file_name(),
            seed: spec.run.seed,
            target: spec.run.target_std_error,
            max_trials: spec.run.max_trials,
            boards: preflop::canonical_boards(),
        })
    }

    fn exact_units(&self) -> usize {
        self.boards.len().div_ceil(BOARDS_PER_UNIT)
    }
}

impl Job for MultiwayJob {
    type Unit = Unit;

    fn unit_count(&self) -> usize {
        self.exact_units() + CLASSES
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

    fn finish(&self, units: Vec<Unit>, progress: &Progress) -> anyhow::Result<Outputs> {
        progress.phase("building tables");
        let mut exact = preflop::ClassCounts {
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
        let rules = String::from("# Texas Hold'em: standard rules, no variants\n");
        let payload = HoldemPayload {
            rules: rules.clone(),
            max_opponents: MAX_OPPONENTS as u8,
            win: rows.win.clone(),
            tie: rows.tie.clone(),
            equity: rows.equity.clone(),
            std_error: rows.std_error.clone(),
        };
        let table = cardtables::Holdem::to_bytes(crate::sink::rules_hash(&rules), &payload)?;
        let report = self.report(&rows, worst, deals);
        Ok(Outputs {
            parquet: vec![ParquetOutput {
                file: "multiway.parquet".into(),
                batches: vec![rows.batch()?],
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

/// The table's rows, column by column.
#[derive(Default)]
struct Rows {
    class: Vec<usize>,
    opponents: Vec<u8>,
    wins: Vec<u64>,
    ties: Vec<u64>,
    deals: Vec<u64>,
    win: Vec<f64>,
    tie: Vec<f64>,
    equity: Vec<f64>,
    std_error: Vec<f64>,
    method: Vec<&'static str>,
    trials: Vec<u64>,
}

impl Rows {
    #[allow(clippy::too_many_arguments)]
    fn push(
        &mut self,
        class: usize,
        opponents: usize,
        wins: u64,
        ties: u64,
        deals: u64,
        equity: f64,
        se: f64,
        method: &'static str,
        trials: u64,
    ) {
        self.class.push(class);
        self.opponents.push(opponents as u8);
        self.wins.push(wins);
        self.ties.push(ties);
        self.deals.push(deals);
        self.win.push(wins as f64 / deals as f64);
        self.tie.push(ties as f64 / deals as f64);
        self.equity.push(equity);
        self.std_error.push(se);
        self.method.push(method);
        self.trials.push(trials);
    }

    fn batch(&self) -> anyhow::Result<RecordBatch> {
        let f = |v: &Vec<f64>| Arc::new(Float64Array::from(v.clone())) as ArrayRef;
        let u = |v: &Vec<u64>| Arc::new(UInt64Array::from(v.clone())) as ArrayRef;
        Ok(RecordBatch::try_from_iter(vec![
            (
                "class",
                Arc::new(StringArray::from_iter_values(
                    self.class.iter().map(|&c| class_name(c)),
                )) as ArrayRef,
            ),
            (
                "combos",
                Arc::new(UInt8Array::from_iter_values(
                    self.class.iter().map(|&c| combos(c) as u8),
                )),
            ),
            (
                "opponents",
                Arc::new(UInt8Array::from(self.opponents.clone())),
            ),
            ("wins", u(&self.wins)),
            ("ties", u(&self.ties)),
            (
                "losses",
                u(&self
                    .deals
                    .iter()
                    .zip(&self.wins)
                    .zip(&self.ties)
                    .map(|((d, w), t)| d - w - t)
                    .collect()),
            ),
            ("deals", u(&self.deals)),
            ("win", f(&self.win)),
            ("tie", f(&self.tie)),
            ("equity", f(&self.equity)),
            ("std_error", f(&self.std_error)),
            ("method", Arc::new(StringArray::from(self.method.clone()))),
            ("trials", u(&self.trials)),
        ])?)
    }
}

impl MultiwayJob {
    fn report(&self, rows: &Rows, worst: f64, deals: u64) -> Report {
        let mut md = format!("# Texas Hold'em multiway: `{}`\n\n", self.name);
        if !self.description.is_empty() {
            md.push_str(&format!("{}\n\n", self.description));
        }
        md.push_str(&format!(
            "Written by `pipeline run jobs/{}` (kind `holdem.multiway`). Against one opponent \
             and two opponents the results are exact (every opponent hand, or every pair of \
             them, on every board); against 3 to 9 random opponents each class is sampled with its own seeded PCG-64 \
             stream. A deal seats up to nine opponents and its first n of them are one trial \
             against n, so every deal counts in each column (dealing stops once an opponent \
             beats the hero, who then loses every larger table too); sampling goes on until \
             every column's standard error is at most {:.0e} (largest: {worst:.2e}; {deals} \
             deals in all). Equity counts a split pot as the hero's share of it.\n\n",
            self.job_file, self.target
        ));
        let equity = |class: usize, n: usize| rows.equity[(n - 1) * CLASSES + class];
        let mut header = vec!["class".to_string()];
        header.extend((1..=MAX_OPPONENTS).map(|n| format!("{n} opp.")));
        let header: Vec<&str> = header.iter().map(String::as_str).collect();
        let shown = [
            "AA", "KK", "QQ", "AKs", "AKo", "JJ", "TT", "AQs", "KQs", "JTs", "77", "22", "T9s",
            "54s", "A2o", "72o",
        ];
        let table: Vec<Vec<String>> = shown
            .iter()
            .filter_map(|name| super::classes::parse_class(name))
            .map(|c| {
                let mut row = vec![class_name(c)];
                row.extend((1..=MAX_OPPONENTS).map(|n| format!("{:.4}", equity(c, n))));
                row
            })
            .collect();
        md.push_str("## Equity by number of opponents\n\n");
        md.push_str(&markdown_table(&header, &table));
        md.push_str("\nEvery class and opponent count is in `multiway.parquet`.\n");
        Report {
            markdown: md,
            charts: vec![],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg_attr(debug_assertions, ignore = "Monte Carlo: run with --release")]
    fn sampling_one_opponent_agrees_with_the_exact_sweep() {
        let exact = preflop::all_class_counts();
        for (k, name) in ["AA", "AKs", "72o", "T9s", "22"].iter().enumerate() {
            let c = super::super::classes::parse_class(name).unwrap();
            let deals = u64::from(combos(c)) * DEALS_PER_COMBO;
            let want = (exact.wins[c] as f64 + exact.ties[c] as f64 / 2.0) / deals as f64;
            let mut rng = stream(3, k as u64);
            let s = sample(representative(c), 1, 0.0, 0, 2_000_000, &mut rng);
            let z = (s.equity() - want) / s.std_error();
            assert!(
                z.abs() < 4.0,
                "{name}: {} ± {} vs exact {want}",
                s.equity(),
                s.std_error()
            );
        }
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore = "Monte Carlo: run with --release")]
    fn more_opponents_lower_the_equity_and_shares_add_up() {
        let aa = representative(0);
        let mut last = 1.0;
        for n in 1..=MAX_OPPONENTS {
            let s = sample(aa, n, 0.0, 0, 200_000, &mut stream(5, n as u64));
            assert!(s.equity() < last, "{n} opponents");
            last = s.equity();
            assert!(s.wins + s.ties <= s.trials);
        }
        // By symmetry, a random hand's equity against n others is 1 / (n + 1): averaged
        // over classes weighted by combos (a coarse sample each).
        let n = 2;
        let mut total = 0.0;
        for c in 0..CLASSES {
            let s = sample(
                representative(c),
                n,
                0.0,
                0,
                20_000,
                &mut stream(6, c as u64),
            );
            total += f64::from(combos(c)) / 1326.0 * s.equity();
        }
        assert!((total - 1.0 / 3.0).abs() < 3e-3, "{total}");
    }
}
