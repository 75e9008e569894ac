//! Job kind `holdem.multiway`: every starting-hand class against 1 to 9 random opponents.
//! One opponent is exact (the board sweep of `holdem.preflop`); two to nine are Monte
//! Carlo with seeded PCG streams, each (class, opponents) cell sampling until its standard
//! error meets the job's target.
//!
//! A trial deals the board and the opponents' hands from the 50 unseen cards (partial
//! Fisher–Yates). Without a flush a hand's strength depends only on the board's rank
//! multiset and its own two ranks, so one table indexed by (board multiset, hole rank pair)
//! — 6,188 × 91 strengths, about a megabyte — answers every hand with one read; a flush
//! (three or more board cards of a suit) is looked up from the suit's rank mask.

use std::sync::{Arc, OnceLock};

use arrow_array::{ArrayRef, Float64Array, RecordBatch, StringArray, UInt64Array, UInt8Array};
use cardtables::colex::binomial;
use cardtables::holdem::HoldemPayload;
use cardtables::Card;
use rand::RngExt;
use rand_pcg::Pcg64;
use serde::{Deserialize, Serialize};

use super::classes::{class_name, class_ranks, combos, CLASSES};
use super::eval::{tables, Tables};
use super::preflop::{self, DEALS_PER_COMBO};
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

/// Non-flush strengths by (board rank multiset, hole rank pair), and the term table of the
/// multiset index.
pub struct RankTable {
    strengths: Vec<u16>,
    term: [[u16; 13]; 5],
}

impl RankTable {
    /// The shared table (built on first use, in tens of milliseconds).
    pub fn get() -> &'static RankTable {
        static TABLE: OnceLock<RankTable> = OnceLock::new();
        TABLE.get_or_init(RankTable::build)
    }

    fn build() -> RankTable {
        let t = tables();
        let term: [[u16; 13]; 5] =
            std::array::from_fn(|i| std::array::from_fn(|r| binomial(r + i, i + 1) as u16));
        let mut strengths = vec![0u16; 6188 * 91];
        let mut board = [0u8; 5];
        fn boards(depth: usize, from: u8, board: &mut [u8; 5], f: &mut impl FnMut(&[u8; 5])) {
            if depth == 5 {
                f(board);
                return;
            }
            for r in from..13 {
                board[depth] = r;
                boards(depth + 1, r, board, f);
            }
        }
        boards(0, 0, &mut board, &mut |b| {
            let index: usize = (0..5)
                .map(|i| usize::from(term[i][usize::from(b[i])]))
                .sum();
            for y in 0..13u8 {
                for x in 0..=y {
                    let count = |r: u8| {
                        b.iter().filter(|&&v| v == r).count()
                            + usize::from(x == r)
                            + usize::from(y == r)
                    };
                    if count(x) > 4 || count(y) > 4 {
                        continue;
                    }
                    strengths[index * 91 + pair_slot(x, y)] =
                        t.non_flush([b[0], b[1], b[2], b[3], b[4], x, y]);
                }
            }
        });
        RankTable { strengths, term }
    }
}

/// Slot of the rank pair x ≤ y among the 91.
#[inline]
fn pair_slot(x: u8, y: u8) -> usize {
    let (x, y) = if x <= y { (x, y) } else { (y, x) };
    usize::from(y) * (usize::from(y) + 1) / 2 + usize::from(x)
}

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
    let t = tables();
    let table = RankTable::get();
    let mut deck: Vec<Card> = (0..52u8)
        .map(|id| Card::from_id(id).expect("id < 52"))
        .filter(|c| !hero.contains(c))
        .collect();
    let hero_slot = pair_slot(hero[0].rank(), hero[1].rank());
    let mut s = Sample::default();
    let mut dealer = Dealer {
        deck: &mut deck,
        draws: Draws::default(),
        rng,
    };
    loop {
        for _ in 0..BATCH {
            let share = play(t, table, hero, hero_slot, &mut dealer, opponents);
            s.trials += 1;
            if share == SHARE {
                s.wins += 1;
            } else if share > 0 {
                s.ties += 1;
            }
            s.share += share;
            s.share_squared += u128::from(share * share);
        }
        if s.trials >= max || (s.trials >= min && s.std_error() <= target) {
            return s;
        }
    }
}

/// Uniform integers below a bound, two from each 64-bit draw (Lemire's multiply-shift
/// with rejection, so exactly uniform): card dealing is most of a trial's cost.
#[derive(Default)]
struct Draws {
    spare: Option<u32>,
}

impl Draws {
    #[inline]
    fn word(&mut self, rng: &mut Pcg64) -> u32 {
        match self.spare.take() {
            Some(x) => x,
            None => {
                let x: u64 = rng.random();
                self.spare = Some((x >> 32) as u32);
                x as u32
            }
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

/// The hero's pot share (units of 1/2520) on one deal: the board, then the opponents' hands
/// one at a time, stopping as soon as one beats the hero.
#[inline]
fn play(
    t: &Tables,
    table: &RankTable,
    hero: [Card; 2],
    hero_slot: usize,
    dealer: &mut Dealer,
    opponents: usize,
) -> u64 {
    let cards: [Card; 5] = std::array::from_fn(|j| dealer.deal(j));
    let mut ranks = cards.map(|c| c.rank());
    // Sorting network for five.
    for (i, j) in [
        (0, 1),
        (3, 4),
        (2, 4),
        (2, 3),
        (0, 3),
        (0, 2),
        (1, 4),
        (1, 3),
        (1, 2),
    ] {
        if ranks[i] > ranks[j] {
            ranks.swap(i, j);
        }
    }
    let board: usize = (0..5)
        .map(|i| usize::from(table.term[i][usize::from(ranks[i])]))
        .sum::<usize>()
        * 91;
    let mut suit_count = [0u8; 4];
    let mut suit_mask = [0u16; 4];
    for c in &cards {
        suit_count[usize::from(c.suit())] += 1;
        suit_mask[usize::from(c.suit())] |= 1 << c.rank();
    }
    let flush_suit = (0..4).find(|&s| suit_count[s] >= 3);
    let strength = |a: Card, b: Card| -> u16 {
        if let Some(s) = flush_suit {
            let (ina, inb) = (usize::from(a.suit()) == s, usize::from(b.suit()) == s);
            if usize::from(suit_count[s]) + usize::from(ina) + usize::from(inb) >= 5 {
                let mut mask = suit_mask[s];
                if ina {
                    mask |= 1 << a.rank();
                }
                if inb {
                    mask |= 1 << b.rank();
                }
                return t.flush(mask);
            }
        }
        table.strengths[board + pair_slot(a.rank(), b.rank())]
    };
    let mine = if flush_suit.is_some() {
        strength(hero[0], hero[1])
    } else {
        table.strengths[board + hero_slot]
    };
    let mut tied = 0u64;
    for k in 0..opponents {
        let (a, b) = (dealer.deal(5 + 2 * k), dealer.deal(6 + 2 * k));
        let theirs = strength(a, b);
        if theirs > mine {
            return 0;
        }
        tied += u64::from(theirs == mine);
    }
    SHARE / (tied + 1)
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
    /// Every class against one opponent, exact (from a share of the boards).
    Exact(preflop::ClassCounts),
    /// One (class, opponents) cell.
    Sampled(Sample),
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

/// Canonical boards per exact unit.
const BOARDS_PER_UNIT: usize = 4096;

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

    /// (class, opponents) of a sampled unit.
    fn cell(&self, index: usize) -> (usize, usize) {
        let k = index - self.exact_units();
        (k % CLASSES, 2 + k / CLASSES)
    }
}

impl Job for MultiwayJob {
    type Unit = Unit;

    fn unit_count(&self) -> usize {
        self.exact_units() + CLASSES * (MAX_OPPONENTS - 1)
    }

    fn run_unit(&self, index: usize) -> Unit {
        if index < self.exact_units() {
            let start = index * BOARDS_PER_UNIT;
            let chunk = &self.boards[start..(start + BOARDS_PER_UNIT).min(self.boards.len())];
            return Unit::Exact(preflop::class_counts(chunk));
        }
        let (class, opponents) = self.cell(index);
        let mut rng = stream(self.seed, index as u64);
        Unit::Sampled(sample(
            representative(class),
            opponents,
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
        let mut cells = vec![Sample::default(); CLASSES * (MAX_OPPONENTS - 1)];
        for (i, unit) in units.into_iter().enumerate() {
            match unit {
                Unit::Exact(c) => {
                    for k in 0..CLASSES {
                        exact.wins[k] += c.wins[k];
                        exact.ties[k] += c.ties[k];
                    }
                }
                Unit::Sampled(s) => cells[i - self.exact_units()] = s,
            }
        }
        // Rows: opponents 1 (exact), then 2..=9 (sampled), each over all classes.
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
        for (k, s) in cells.iter().enumerate() {
            let (c, n) = (k % CLASSES, 2 + k / CLASSES);
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
        let trials: u64 = cells.iter().map(|s| s.trials).sum();
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
        let report = self.report(&rows, worst, trials);
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
    fn report(&self, rows: &Rows, worst: f64, trials: u64) -> Report {
        let mut md = format!("# Texas Hold'em multiway: `{}`\n\n", self.name);
        if !self.description.is_empty() {
            md.push_str(&format!("{}\n\n", self.description));
        }
        md.push_str(&format!(
            "Written by `pipeline run jobs/{}` (kind `holdem.multiway`). Against one opponent \
             the results are exact (every opponent hand on every board); against 2 to 9 random \
             opponents each (class, opponents) cell is sampled with its own seeded PCG-64 stream \
             until its standard error is at most {:.0e} (largest: {worst:.2e}; {trials} trials \
             in all). Equity counts a split pot as the hero's share of it.\n\n",
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

    #[test]
    fn the_rank_table_agrees_with_the_evaluator() {
        let t = tables();
        let table = RankTable::get();
        let hand = |s: &str| -> Vec<Card> { cardtables::parse_cards(s).unwrap() };
        for (hole, board) in [
            ("As Kd", "2c 7h 9s Td Jc"),
            ("2c 2d", "2h 2s 3c 3d 4h"),
            ("Qh Qs", "Ac Kc 5d 5s 9h"),
        ] {
            let (h, b) = (hand(hole), hand(board));
            let mut cards = h.clone();
            cards.extend(&b);
            let all: [Card; 7] = cards.try_into().unwrap();
            let mut ranks = [0u8; 5];
            for (r, c) in ranks.iter_mut().zip(&b) {
                *r = c.rank();
            }
            ranks.sort_unstable();
            let index: usize = (0..5)
                .map(|i| usize::from(table.term[i][usize::from(ranks[i])]))
                .sum();
            assert_eq!(
                table.strengths[index * 91 + pair_slot(h[0].rank(), h[1].rank())],
                t.evaluate(&all)
            );
        }
    }
}
