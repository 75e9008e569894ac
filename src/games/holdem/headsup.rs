//! Exact heads-up all-in results of one Hold'em matchup over all C(48, 5) = 1,712,304
//! boards, without visiting the boards one by one.
//!
//! Suits matter only through flushes, and a flush needs three or more board cards of one
//! suit. So we first score every board as if flushes did not exist: a board's result then
//! depends only on its five ranks, and the boards sharing a rank multiset R number
//! `Π_r C(live cards of rank r, multiplicity of r in R)`, giving 6,175 comparisons instead
//! of 1.7 million. Then we correct the boards where some suit s has k ≥ 3 cards: for each
//! s, k, set T of k board ranks in suit s and multiset U of the other 5 − k ranks (from
//! other suits), we replace the rank-only result by the real one. A suit-s flush needs two
//! hole cards of s when k = 3 and one when k = 4, so most (s, k) pairs cannot change any
//! result and are skipped.

use std::sync::Arc;

use arrow_array::{ArrayRef, Float64Array, RecordBatch, StringArray, UInt32Array, UInt64Array};
use cardtables::colex::binomial;
use cardtables::holdem_headsup::HeadsUpPayload;
use cardtables::{Card, HoldemHeadsUp};

use super::classes::{class_name, class_of, parse_class, CLASSES};
use super::eval::{tables, Tables};
use super::preflop;
pub use crate::cards::matchups::HeadsUp;
use crate::cards::matchups::{matchups, two_cards, Matchup};
use crate::engine::{BinaryOutput, Job, Outputs, Progress};
use crate::job::{JobError, JobSpec};
use crate::report::{markdown_table, rank_grid, rank_grid_svg, Report};
use crate::sink::parquet::ParquetOutput;

/// Boards for one matchup: C(48, 5).
pub const BOARDS: u64 = 1_712_304;
/// Multisets of 5 of 13 ranks: C(17, 5) slots (6,175 of them respect four cards a rank).
const MULTISETS: usize = 6_188;

/// Reusable space for [`solve`].
pub struct Scratch {
    /// Rank-only strengths (first hand, second hand) by multiset index.
    strengths: Vec<(u16, u16)>,
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch {
            strengths: vec![(0, 0); MULTISETS],
        }
    }
}

/// Dense index of a sorted multiset of five ranks: r_i + i is strictly increasing, so the
/// colex rank of that 5-set of 0..17 numbers the multisets.
#[inline]
fn multiset_index(r: &[u8; 5]) -> usize {
    r.iter()
        .enumerate()
        .map(|(i, &x)| binomial(usize::from(x) + i, i + 1) as usize)
        .sum()
}

/// Win, tie and loss counts of `a` against `b` over every board.
pub fn solve(t: &Tables, a: [Card; 2], b: [Card; 2], scratch: &mut Scratch) -> HeadsUp {
    let dead: Vec<Card> = a.iter().chain(&b).copied().collect();
    let mut live = [4u8; 13];
    for c in &dead {
        live[usize::from(c.rank())] -= 1;
    }
    let (ra, rb) = ([a[0].rank(), a[1].rank()], [b[0].rank(), b[1].rank()]);
    let mut wins: i64 = 0;
    let mut ties: i64 = 0;
    // Every board scored by ranks alone.
    let mut board = [0u8; 5];
    rank_multisets(&live, 0, 0, 1, &mut board, &mut |ranks, count| {
        let sa = t.non_flush([
            ra[0], ra[1], ranks[0], ranks[1], ranks[2], ranks[3], ranks[4],
        ]);
        let sb = t.non_flush([
            rb[0], rb[1], ranks[0], ranks[1], ranks[2], ranks[3], ranks[4],
        ]);
        scratch.strengths[multiset_index(ranks)] = (sa, sb);
        match sa.cmp(&sb) {
            std::cmp::Ordering::Greater => wins += count as i64,
            std::cmp::Ordering::Equal => ties += count as i64,
            std::cmp::Ordering::Less => {}
        }
    });
    // The boards with three or more cards of one suit, where a flush can change things.
    for s in 0..4u8 {
        let suited = |h: &[Card; 2]| -> u16 {
            h.iter()
                .filter(|c| c.suit() == s)
                .fold(0, |m, c| m | 1 << c.rank())
        };
        let (ha, hb) = (suited(&a), suited(&b));
        let live_s: u16 = (0..13u8)
            .filter(|&r| !dead.iter().any(|c| c.rank() == r && c.suit() == s))
            .fold(0, |m, r| m | 1 << r);
        // Cards of each rank available outside suit s.
        let others: [u8; 13] = std::array::from_fn(|r| live[r] - u8::from(live_s >> r & 1 == 1));
        for k in 3..=5u32 {
            let can_flush = |h: u16| h.count_ones() + k >= 5;
            if !can_flush(ha) && !can_flush(hb) {
                continue;
            }
            for_each_subset(live_s, k, |suit_ranks| {
                let fa = (ha | suit_ranks).count_ones() >= 5;
                let fb = (hb | suit_ranks).count_ones() >= 5;
                let flush_a = if fa { t.flush(ha | suit_ranks) } else { 0 };
                let flush_b = if fb { t.flush(hb | suit_ranks) } else { 0 };
                let mut ranks = [0u8; 5];
                let mut n = 0;
                for r in 0..13u8 {
                    if suit_ranks >> r & 1 == 1 {
                        ranks[n] = r;
                        n += 1;
                    }
                }
                let mut correct = |ranks: &[u8; 5], count: u64| {
                    let mut sorted = *ranks;
                    sorted.sort_unstable();
                    let (na, nb) = scratch.strengths[multiset_index(&sorted)];
                    let sa = if fa { flush_a } else { na };
                    let sb = if fb { flush_b } else { nb };
                    let score = |x: u16, y: u16| match x.cmp(&y) {
                        std::cmp::Ordering::Greater => (1i64, 0i64),
                        std::cmp::Ordering::Equal => (0, 1),
                        std::cmp::Ordering::Less => (0, 0),
                    };
                    let (w1, t1) = score(sa, sb);
                    let (w0, t0) = score(na, nb);
                    wins += (w1 - w0) * count as i64;
                    ties += (t1 - t0) * count as i64;
                };
                match k {
                    5 => correct(&ranks, 1),
                    4 => {
                        for r in 0..13u8 {
                            let c = u64::from(others[usize::from(r)]);
                            if c > 0 {
                                ranks[4] = r;
                                correct(&ranks, c);
                            }
                        }
                    }
                    _ => {
                        for r1 in 0..13u8 {
                            let c1 = u64::from(others[usize::from(r1)]);
                            if c1 == 0 {
                                continue;
                            }
                            ranks[3] = r1;
                            // Two cards of one rank: C(c1, 2) ways.
                            if c1 >= 2 {
                                ranks[4] = r1;
                                correct(&ranks, c1 * (c1 - 1) / 2);
                            }
                            for r2 in r1 + 1..13u8 {
                                let c2 = u64::from(others[usize::from(r2)]);
                                if c2 > 0 {
                                    ranks[4] = r2;
                                    correct(&ranks, c1 * c2);
                                }
                            }
                        }
                    }
                }
            });
        }
    }
    HeadsUp {
        wins: wins as u64,
        ties: ties as u64,
        deals: BOARDS,
    }
}

/// Calls `f(ranks, boards)` for every multiset of five ranks (sorted) that the live cards
/// allow, with the number of boards that have exactly those ranks.
fn rank_multisets(
    live: &[u8; 13],
    rank: u8,
    depth: usize,
    ways: u64,
    ranks: &mut [u8; 5],
    f: &mut impl FnMut(&[u8; 5], u64),
) {
    if depth == 5 {
        f(ranks, ways);
        return;
    }
    if rank == 13 {
        return;
    }
    let available = live[usize::from(rank)];
    // Take m more cards of this rank (m = 0 moves on).
    rank_multisets(live, rank + 1, depth, ways, ranks, f);
    for m in 1..=usize::from(available).min(5 - depth) {
        for slot in ranks.iter_mut().skip(depth).take(m) {
            *slot = rank;
        }
        let w = ways * u64::from(binomial(usize::from(available), m));
        rank_multisets(live, rank + 1, depth + m, w, ranks, f);
    }
}

/// Calls `f` with every `k`-subset of the set bits of `mask`.
fn for_each_subset(mask: u16, k: u32, mut f: impl FnMut(u16)) {
    // Gosper's hack over 13-bit words, keeping those inside `mask`.
    if k == 0 {
        f(0);
        return;
    }
    let mut x: u32 = (1 << k) - 1;
    while x < 1 << 13 {
        if x as u16 & !mask == 0 {
            f(x as u16);
        }
        let c = x & x.wrapping_neg();
        let r = x + c;
        x = (((r ^ x) >> 2) / c) | r;
    }
}

/// The same counts by dealing every board and evaluating both hands (the oracle for tests).
pub fn brute_force(t: &Tables, a: [Card; 2], b: [Card; 2]) -> HeadsUp {
    let deck: Vec<Card> = (0..52u8)
        .map(|id| Card::from_id(id).expect("id < 52"))
        .filter(|c| !a.contains(c) && !b.contains(c))
        .collect();
    let mut result = HeadsUp::default();
    let n = deck.len();
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                for l in k + 1..n {
                    for m in l + 1..n {
                        let board = [deck[i], deck[j], deck[k], deck[l], deck[m]];
                        let hand = |h: [Card; 2]| {
                            t.evaluate(&[
                                h[0], h[1], board[0], board[1], board[2], board[3], board[4],
                            ])
                        };
                        let (sa, sb) = (hand(a), hand(b));
                        result.deals += 1;
                        if sa > sb {
                            result.wins += 1;
                        } else if sa == sb {
                            result.ties += 1;
                        }
                    }
                }
            }
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use cardtables::parse_cards;

    fn two(text: &str) -> [Card; 2] {
        parse_cards(text).unwrap().try_into().unwrap()
    }

    #[test]
    fn multiset_indices_are_dense_and_distinct() {
        let mut seen = vec![false; MULTISETS];
        let mut count = 0;
        rank_multisets(&[4; 13], 0, 0, 1, &mut [0; 5], &mut |r, _| {
            let i = multiset_index(r);
            assert!(!seen[i]);
            seen[i] = true;
            count += 1;
        });
        // 6,188 multisets of 5 from 13, less the 13 with five of one rank.
        assert_eq!(count, 6_175);
    }

    #[test]
    fn boards_are_all_counted() {
        let mut total = 0;
        let mut live = [4u8; 13];
        live[12] = 2;
        live[0] = 3;
        live[5] = 3;
        rank_multisets(&live, 0, 0, 1, &mut [0; 5], &mut |_, w| total += w);
        assert_eq!(total, BOARDS);
    }

    #[test]
    #[cfg_attr(
        debug_assertions,
        ignore = "deals 1.7 M boards per matchup: run with --release"
    )]
    fn counts_equal_dealing_every_board() {
        let t = tables();
        let mut scratch = Scratch::default();
        for (a, b) in [
            ("As Ks", "Qd Qc"),
            ("7h 2c", "8h 9h"),
            ("Ah Kh", "Qh Jh"),
            ("Td 9d", "Tc 9c"),
            ("2s 2h", "Ac Kd"),
            ("5c 4c", "6d 6h"),
        ] {
            let (a, b) = (two(a), two(b));
            let fast = solve(t, a, b, &mut scratch);
            assert_eq!(fast, brute_force(t, a, b), "{a:?} vs {b:?}");
            assert_eq!(fast.deals, BOARDS);
        }
    }
}

/// Matchup classes per work unit (a tenth of a second or so).
const MATCHUPS_PER_UNIT: usize = 256;

/// The `holdem.headsup` job: every matchup class solved exactly, then the 169 × 169 class
/// matrix, checked against an independent computation of every class against a random
/// hand.
pub struct HeadsUpJob {
    name: String,
    description: String,
    job_file: String,
    matchups: Vec<Matchup>,
}

impl HeadsUpJob {
    pub fn new(spec: &JobSpec) -> Result<HeadsUpJob, JobError> {
        #[derive(serde::Deserialize, Default)]
        #[serde(deny_unknown_fields)]
        struct NoRules {}
        let _: NoRules = spec.rules()?;
        Ok(HeadsUpJob {
            name: spec.name.clone(),
            description: spec.description.clone(),
            job_file: spec.file_name(),
            matchups: matchups(FULL_DECK),
        })
    }
}

/// Every card of a 52-card deck.
const FULL_DECK: u64 = (1 << 52) - 1;

/// The class matrix: per (class a, class b), the sums over all raw ordered matchups.
pub struct ClassMatrix {
    pub wins: Vec<u64>,
    pub ties: Vec<u64>,
    pub deals: Vec<u64>,
}

impl ClassMatrix {
    /// Sums matchup classes into class cells. A matchup class stands for `weight` raw
    /// unordered matchups; in each, the hand of class a (the first) wins `wins`.
    pub fn build(classes: &[Matchup], results: &[HeadsUp]) -> ClassMatrix {
        let n = CLASSES * CLASSES;
        let mut m = ClassMatrix {
            wins: vec![0; n],
            ties: vec![0; n],
            deals: vec![0; n],
        };
        for (mc, r) in classes.iter().zip(results) {
            let class = |i: u16| {
                let [x, y] = two_cards(i);
                class_of(x, y)
            };
            let (ca, cb) = (class(mc.a), class(mc.b));
            let w = u64::from(mc.weight);
            let mut add = |x: usize, y: usize, wins: u64, ties: u64, deals: u64| {
                m.wins[x * CLASSES + y] += w * wins;
                m.ties[x * CLASSES + y] += w * ties;
                m.deals[x * CLASSES + y] += w * deals;
            };
            add(ca, cb, r.wins, r.ties, r.deals);
            add(cb, ca, r.losses(), r.ties, r.deals);
        }
        m
    }

    pub fn equity(&self, a: usize, b: usize) -> f64 {
        let i = a * CLASSES + b;
        (self.wins[i] as f64 + self.ties[i] as f64 / 2.0) / self.deals[i] as f64
    }
}

impl Job for HeadsUpJob {
    type Unit = Vec<HeadsUp>;

    fn unit_count(&self) -> usize {
        self.matchups.len().div_ceil(MATCHUPS_PER_UNIT)
    }

    fn run_unit(&self, index: usize) -> Vec<HeadsUp> {
        let t = tables();
        let mut scratch = Scratch::default();
        let start = index * MATCHUPS_PER_UNIT;
        self.matchups[start..(start + MATCHUPS_PER_UNIT).min(self.matchups.len())]
            .iter()
            .map(|m| solve(t, two_cards(m.a), two_cards(m.b), &mut scratch))
            .collect()
    }

    fn finish(&self, units: Vec<Vec<HeadsUp>>, progress: &Progress) -> anyhow::Result<Outputs> {
        progress.phase("checking against the preflop sweep");
        let results: Vec<HeadsUp> = units.into_iter().flatten().collect();
        anyhow::ensure!(
            results.len() == self.matchups.len(),
            "internal error: {} results for {} matchups",
            results.len(),
            self.matchups.len()
        );
        let matrix = ClassMatrix::build(&self.matchups, &results);
        // Independent check: each class's row, summed over opponents, must equal its
        // exact result against one random hand from the board sweep of `holdem.preflop`.
        let random = preflop::all_class_counts();
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
        let text = |i: u16| {
            let [x, y] = two_cards(i);
            format!("{y}{x}")
        };
        let class = |i: u16| {
            let [x, y] = two_cards(i);
            class_of(x, y)
        };
        let u64s = |v: Vec<u64>| Arc::new(UInt64Array::from(v)) as ArrayRef;
        let matchups_batch = RecordBatch::try_from_iter(vec![
            (
                "hand_a",
                Arc::new(StringArray::from_iter_values(
                    self.matchups.iter().map(|m| text(m.a)),
                )) as ArrayRef,
            ),
            (
                "hand_b",
                Arc::new(StringArray::from_iter_values(
                    self.matchups.iter().map(|m| text(m.b)),
                )),
            ),
            (
                "class_a",
                Arc::new(StringArray::from_iter_values(
                    self.matchups.iter().map(|m| class_name(class(m.a))),
                )),
            ),
            (
                "class_b",
                Arc::new(StringArray::from_iter_values(
                    self.matchups.iter().map(|m| class_name(class(m.b))),
                )),
            ),
            (
                "matchups",
                Arc::new(UInt32Array::from_iter_values(
                    self.matchups.iter().map(|m| u32::from(m.weight)),
                )),
            ),
            ("wins", u64s(results.iter().map(|r| r.wins).collect())),
            ("ties", u64s(results.iter().map(|r| r.ties).collect())),
            ("losses", u64s(results.iter().map(|r| r.losses()).collect())),
            ("boards", u64s(results.iter().map(|r| r.deals).collect())),
            (
                "equity_a",
                Arc::new(Float64Array::from_iter_values(
                    results.iter().map(HeadsUp::equity),
                )),
            ),
        ])?;
        let cells: Vec<(usize, usize)> = (0..CLASSES)
            .flat_map(|a| (0..CLASSES).map(move |b| (a, b)))
            .collect();
        let classes_batch = RecordBatch::try_from_iter(vec![
            (
                "hand_a",
                Arc::new(StringArray::from_iter_values(
                    cells.iter().map(|&(a, _)| class_name(a)),
                )) as ArrayRef,
            ),
            (
                "hand_b",
                Arc::new(StringArray::from_iter_values(
                    cells.iter().map(|&(_, b)| class_name(b)),
                )),
            ),
            ("wins", u64s(matrix.wins.clone())),
            ("ties", u64s(matrix.ties.clone())),
            (
                "losses",
                u64s(
                    (0..cells.len())
                        .map(|i| matrix.deals[i] - matrix.wins[i] - matrix.ties[i])
                        .collect(),
                ),
            ),
            ("boards", u64s(matrix.deals.clone())),
            (
                "equity_a",
                Arc::new(Float64Array::from_iter_values(
                    cells.iter().map(|&(a, b)| matrix.equity(a, b)),
                )),
            ),
        ])?;
        let rules = String::from("# Texas Hold'em: standard rules, no variants\n");
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
            parquet: vec![
                ParquetOutput {
                    file: "headsup.parquet".into(),
                    batches: vec![classes_batch],
                    plain_columns: vec!["wins", "ties", "losses", "equity_a"],
                },
                ParquetOutput {
                    file: "matchups.parquet".into(),
                    batches: vec![matchups_batch],
                    plain_columns: vec!["wins", "ties", "losses", "equity_a"],
                },
            ],
            tables: vec![BinaryOutput {
                file: "holdem_headsup.bin".into(),
                bytes: table,
                entries: self.matchups.len() as u64,
            }],
            report: self.report(&matrix, &results),
            rules,
        })
    }
}

impl HeadsUpJob {
    fn report(&self, matrix: &ClassMatrix, results: &[HeadsUp]) -> Report {
        let mut md = format!("# Texas Hold'em heads-up: `{}`\n\n", self.name);
        if !self.description.is_empty() {
            md.push_str(&format!("{}\n\n", self.description));
        }
        let total: u64 = self.matchups.iter().map(|m| u64::from(m.weight)).sum();
        md.push_str(&format!(
            "Written by `pipeline run jobs/{}` (kind `holdem.headsup`). Exact: every pair of \
             starting hands over all {BOARDS} boards. The {} raw matchups (unordered pairs of \
             disjoint hands) fall into {} classes equal up to suit permutation and order; each \
             class is solved once by scoring the boards by rank multiset (6,175 of them) and \
             then correcting only the boards where a flush is possible. Every class's row of the \
             matrix, summed over opponents, equals its result against a random hand from the \
             independent board sweep of `holdem.preflop` (checked on every run).\n\n",
            self.job_file,
            total,
            self.matchups.len()
        ));
        let find = |a: &str, b: &str| -> Option<f64> {
            let (ca, cb) = (parse_class(a)?, parse_class(b)?);
            Some(matrix.equity(ca, cb))
        };
        let famous = [
            ("AA", "KK"),
            ("AKs", "QQ"),
            ("AKo", "22"),
            ("AKs", "AQs"),
            ("KK", "AKo"),
            ("JTs", "AKo"),
            ("72o", "AA"),
            ("22", "AKs"),
        ];
        let rows: Vec<Vec<String>> = famous
            .iter()
            .filter_map(|&(a, b)| {
                find(a, b).map(|e| vec![a.to_string(), b.to_string(), format!("{e:.4}")])
            })
            .collect();
        md.push_str("## Classic matchups\n\nClass against class, averaged over their combos that share no card.\n\n");
        md.push_str(&markdown_table(&["hand", "against", "equity"], &rows));
        // Each class is stored with its first hand the lower-numbered one, often the
        // underdog: show the favourite first.
        let show = |m: &Matchup, r: &HeadsUp| {
            let hand = |i: u16| {
                let [x, y] = two_cards(i);
                format!("{y}{x}")
            };
            let e = r.equity();
            if e >= 0.5 {
                format!("{} against {} ({e:.4})", hand(m.a), hand(m.b))
            } else {
                format!("{} against {} ({:.4})", hand(m.b), hand(m.a), 1.0 - e)
            }
        };
        let by = |key: &dyn Fn(&HeadsUp) -> f64| {
            results
                .iter()
                .zip(&self.matchups)
                .max_by(|x, y| key(x.0).total_cmp(&key(y.0)))
                .map(|(r, m)| show(m, r))
                .unwrap_or_default()
        };
        md.push_str(&format!(
            "\nMost lopsided matchup: {}. Closest to even without being a mirror: {}.\n",
            by(&|r| (r.equity() - 0.5).abs()),
            by(&|r| if r.wins == r.losses() {
                f64::NEG_INFINITY
            } else {
                -(r.equity() - 0.5).abs()
            })
        ));
        let ranks_high_first: Vec<u8> = (0..13u8).rev().collect();
        let mut charts = Vec::new();
        for hero in ["AA", "AKs", "72o"] {
            let Some(h) = parse_class(hero) else { continue };
            md.push_str(&format!(
                "\n## {hero} against every class\n\n![{hero} heads-up]({}/{hero}.svg)\n\n",
                self.name
            ));
            let cell = |hi: u8, lo: u8, suited: bool| {
                let c = class_of(
                    Card::new(hi, 0).expect("card"),
                    Card::new(lo, if suited { 0 } else { 1 }).expect("card"),
                );
                matrix.equity(h, c)
            };
            md.push_str(&rank_grid(&ranks_high_first, |hi, lo, suited| {
                format!("{:.3}", cell(hi, lo, suited))
            }));
            charts.push((
                format!("{hero}.svg"),
                rank_grid_svg(
                    &format!("Equity of {hero} against each class"),
                    cell,
                    0.0,
                    1.0,
                    |v| format!("{v:.3}"),
                ),
            ));
        }
        Report {
            markdown: md,
            charts,
        }
    }
}

#[cfg(test)]
mod matrix_tests {
    use super::*;

    #[test]
    fn matchup_classes_of_the_full_deck() {
        let m = matchups(FULL_DECK);
        assert_eq!(m.len(), 47_008);
        // Unordered pairs of disjoint 2-card hands: C(52,2) · C(50,2) / 2.
        let raw: u64 = m.iter().map(|c| u64::from(c.weight)).sum();
        assert_eq!(raw, 1326 * 1225 / 2);
    }

    #[test]
    #[cfg_attr(
        debug_assertions,
        ignore = "solves a few matchup classes: run with --release"
    )]
    fn class_cells_are_complementary_and_match_published_figures() {
        let t = tables();
        let mut scratch = Scratch::default();
        let (aa, kk) = (parse_class("AA").unwrap(), parse_class("KK").unwrap());
        let class = |i: u16| {
            let [x, y] = two_cards(i);
            class_of(x, y)
        };
        let chosen: Vec<Matchup> = matchups(FULL_DECK)
            .into_iter()
            .filter(|m| {
                let (a, b) = (class(m.a), class(m.b));
                (a, b) == (aa, kk) || (a, b) == (kk, aa)
            })
            .collect();
        // 6 × 6 raw matchups of aces against kings.
        assert_eq!(chosen.iter().map(|m| u32::from(m.weight)).sum::<u32>(), 36);
        let results: Vec<HeadsUp> = chosen
            .iter()
            .map(|m| solve(t, two_cards(m.a), two_cards(m.b), &mut scratch))
            .collect();
        let matrix = ClassMatrix::build(&chosen, &results);
        let (ab, ba) = (matrix.equity(aa, kk), matrix.equity(kk, aa));
        assert!((ab + ba - 1.0).abs() < 1e-15);
        assert_eq!(matrix.deals[aa * CLASSES + kk], 36 * BOARDS);
        // Aces against kings: the widely published 81.9 % (82 % rounded).
        assert!((ab - 0.8195).abs() < 5e-5, "{ab}");
        // The runtime table finds any aces-against-kings matchup by renaming suits and
        // swapping sides, and answers like dealing every board.
        let payload = HeadsUpPayload {
            rules: String::new(),
            boards: BOARDS as u32,
            rep_a: chosen.iter().map(|m| m.a).collect(),
            rep_b: chosen.iter().map(|m| m.b).collect(),
            wins: results.iter().map(|r| r.wins as u32).collect(),
            ties: results.iter().map(|r| r.ties as u32).collect(),
            class_equity: vec![0.5; CLASSES * CLASSES],
        };
        let table =
            HoldemHeadsUp::from_bytes(HoldemHeadsUp::to_bytes(0, &payload).unwrap()).unwrap();
        let two =
            |s: &str| -> [Card; 2] { cardtables::parse_cards(s).unwrap().try_into().unwrap() };
        for (a, b) in [("Ks Kd", "Ah Ac"), ("Ah Ad", "Kh Kc"), ("Ac As", "Kd Ks")] {
            let (a, b) = (two(a), two(b));
            let got = table.cards(a, b).unwrap();
            let want = brute_force(t, a, b);
            assert_eq!(
                (
                    u64::from(got.wins),
                    u64::from(got.ties),
                    u64::from(got.losses)
                ),
                (want.wins, want.ties, want.losses()),
                "{a:?} vs {b:?}"
            );
        }
        assert!(
            table.cards(two("Ks Kd"), two("Ks Ah")).is_err(),
            "shared card"
        );
        assert!(
            table.cards(two("Qs Qd"), two("Ah Ac")).is_err(),
            "not in this table"
        );
    }
}
