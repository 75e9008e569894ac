//! Job kind `stud.tables`: category counts for every deck and ranking variant, the exact
//! hit-probability table against the rule of 2 and 4, break-even outs with implied odds,
//! and the seed's worked example done right.

use std::sync::Arc;

use arrow_array::{
    ArrayRef, BooleanArray, Float64Array, RecordBatch, StringArray, UInt32Array, UInt8Array,
};
use cardtables::colex::{binomial, unrank};
use cardtables::decision::{break_even_outs, hit_probability, rule_of_2_and_4};
use cardtables::{parse_cards, Card, CardSet};

use super::eval::{Evaluator, CATEGORIES};
use super::headsup::{solve, HeadsUp, Scratch};
use super::outs::{analyse, Situation};
use super::rules::{StudRules, StudTablesRules};
use crate::cards::matchups::{matchups, suit_permutations, two_cards, Matchup};
use crate::engine::{BinaryOutput, Job, Outputs, Progress};
use crate::job::{JobError, JobSpec};
use crate::report::{line_chart_svg, markdown_table, rank_grid, Report};
use crate::sink::parquet::ParquetOutput;
use cardtables::stud::{HeadsUpTable, StudPayload};

/// The (deck, ace_low_straight) pairs whose categories are counted, one unit each.
const VARIANTS: [(u8, bool); 6] = [
    (52, true),
    (52, false),
    (32, true),
    (32, false),
    (28, true),
    (28, false),
];
/// Grid of the break-even table.
const POTS: [f64; 5] = [20.0, 50.0, 100.0, 200.0, 400.0];
const CALLS: [f64; 4] = [10.0, 20.0, 50.0, 100.0];
const IMPLIED: [f64; 4] = [0.0, 50.0, 100.0, 200.0];
const UNSEEN: [u32; 4] = [20, 30, 40, 45];

/// Matchup classes per heads-up work unit.
const MATCHUPS_PER_UNIT: usize = 48;

/// The `stud.tables` job.
pub struct TablesJob {
    name: String,
    description: String,
    job_file: String,
    rules: StudTablesRules,
    /// Matchup classes of each heads-up deck, in `rules.headsup_decks` order.
    matchups: Vec<Vec<Matchup>>,
}

/// What one unit computes.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Unit {
    Categories([u64; 9]),
    HeadsUp(Vec<HeadsUp>),
}

impl TablesJob {
    pub fn new(spec: &JobSpec) -> Result<TablesJob, JobError> {
        let rules = StudTablesRules::from_spec(spec)?;
        Ok(TablesJob::from_rules(
            rules,
            &spec.name,
            &spec.description,
            &spec.file_name(),
        ))
    }

    pub fn from_rules(
        rules: StudTablesRules,
        name: &str,
        description: &str,
        job_file: &str,
    ) -> Self {
        let matchups = rules
            .headsup_decks
            .iter()
            .map(|&d| matchups(rules.variant(d).deck_mask()))
            .collect();
        TablesJob {
            name: name.to_string(),
            description: description.to_string(),
            job_file: job_file.to_string(),
            rules,
            matchups,
        }
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

/// Category counts of every 5-card hand of a deck (flush/full-house order does not
/// change the counts, only the ranking).
pub fn category_counts(deck: u8, ace_low_straight: bool) -> [u64; 9] {
    let rules = StudRules {
        deck,
        ace_low_straight,
        flush_beats_full_house: false,
    };
    let eval = Evaluator::new(rules);
    let low = rules.lowest_rank() * 4;
    let mut counts = [0u64; 9];
    let mut cards = [Card::from_id(0).expect("card 0"); 5];
    for i in 0..binomial(usize::from(deck), 5) {
        unrank(i, 5, &mut cards);
        let hand = cards.map(|c| Card::from_id(c.id() + low).expect("in the deck"));
        counts[usize::from(eval.evaluate(&hand).0)] += 1;
    }
    counts
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

impl Job for TablesJob {
    type Unit = Unit;

    fn unit_count(&self) -> usize {
        VARIANTS.len() + self.headsup_units().len()
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
            Unit::HeadsUp(
                self.matchups[d][start..end]
                    .iter()
                    .map(|m| solve(&eval, two_cards(m.a), two_cards(m.b), &mut scratch))
                    .collect(),
            )
        })
    }

    fn finish(&self, all: Vec<Unit>, progress: &Progress) -> anyhow::Result<Outputs> {
        progress.phase("building tables");
        let mut units = Vec::new();
        let mut results: Vec<Vec<HeadsUp>> = vec![Vec::new(); self.matchups.len()];
        for (i, unit) in all.into_iter().enumerate() {
            match unit {
                Unit::Categories(c) if i < VARIANTS.len() => units.push(c),
                Unit::HeadsUp(r) if i >= VARIANTS.len() => {
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
            .map(|((&deck, classes), r)| headsup_table(self.rules.variant(deck), classes, r))
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
                batches: vec![self.headsup_batch(&results)?],
                plain_columns: vec![],
            });
        }
        let mut report = self.report(units, &rules)?;
        report.markdown.push_str(&self.grid_report(&table)?);
        Ok(Outputs {
            parquet: vec![
                ParquetOutput {
                    file: "categories.parquet".into(),
                    batches: vec![categories_batch(units)?],
                    plain_columns: vec![],
                },
                ParquetOutput {
                    file: "hit_probability.parquet".into(),
                    batches: vec![hit_batch()?],
                    plain_columns: vec![],
                },
                ParquetOutput {
                    file: "break_even.parquet".into(),
                    batches: vec![break_even_batch()?],
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

/// The runtime index of one deck: every ordered pair of 2-card sets → its class.
fn headsup_table(rules: StudRules, classes: &[Matchup], results: &[HeadsUp]) -> HeadsUpTable {
    use rayon::prelude::*;
    let deck = rules.deck_mask();
    let perms = suit_permutations();
    let rename = |i: u16, p: &[u8; 4]| -> u16 {
        let [x, y] =
            two_cards(i).map(|c| Card::new(c.rank(), p[usize::from(c.suit())]).expect("valid"));
        cardtables::colex::index_of(&[x, y]) as u16
    };
    let n = cardtables::stud::TWO_CARD_SETS;
    let class_of: Vec<i32> = (0..n * n)
        .into_par_iter()
        .map(|k| {
            let (a, b) = ((k / n) as u16, (k % n) as u16);
            let (ca, cb) = (two_cards(a), two_cards(b));
            let mask_a = ca.iter().fold(0u64, |m, c| m | 1 << c.id());
            let mask_b = cb.iter().fold(0u64, |m, c| m | 1 << c.id());
            if mask_a & mask_b != 0 || (mask_a | mask_b) & !deck != 0 {
                return 0;
            }
            let (rep, swapped) = perms
                .iter()
                .flat_map(|p| {
                    let (x, y) = (rename(a, p), rename(b, p));
                    [((x, y), false), ((y, x), true)]
                })
                .min()
                .expect("24 permutations");
            let i = classes
                .binary_search_by_key(&rep, |m| (m.a, m.b))
                .expect("every matchup has a class") as i32;
            if swapped && rep.0 != rep.1 {
                -(i + 1)
            } else {
                i + 1
            }
        })
        .collect();
    HeadsUpTable {
        deck: rules.deck,
        class_of,
        wins: results.iter().map(|r| r.wins).collect(),
        ties: results.iter().map(|r| r.ties).collect(),
        deals: results.iter().map(|r| r.deals).collect(),
    }
}

fn categories_batch(units: &[[u64; 9]]) -> anyhow::Result<RecordBatch> {
    let (mut deck, mut ace_low, mut flush_beats) = (vec![], vec![], vec![]);
    let (mut category, mut rank, mut count, mut probability) = (vec![], vec![], vec![], vec![]);
    for (&(d, low), counts) in VARIANTS.iter().zip(units) {
        let total: u64 = counts.iter().sum();
        for beats in [false, true] {
            let eval = Evaluator::new(StudRules {
                deck: d,
                ace_low_straight: low,
                flush_beats_full_house: beats,
            });
            for (c, &n) in counts.iter().enumerate() {
                deck.push(d);
                ace_low.push(low);
                flush_beats.push(beats);
                category.push(CATEGORIES[c]);
                rank.push(eval.category_rank(c as u8));
                count.push(n as u32);
                probability.push(n as f64 / total as f64);
            }
        }
    }
    Ok(RecordBatch::try_from_iter(vec![
        ("deck", Arc::new(UInt8Array::from(deck)) as ArrayRef),
        ("ace_low_straight", Arc::new(BooleanArray::from(ace_low))),
        (
            "flush_beats_full_house",
            Arc::new(BooleanArray::from(flush_beats)),
        ),
        ("category", Arc::new(StringArray::from(category))),
        ("category_rank", Arc::new(UInt8Array::from(rank))),
        ("count", Arc::new(UInt32Array::from(count))),
        ("probability", Arc::new(Float64Array::from(probability))),
    ])?)
}

fn hit_batch() -> anyhow::Result<RecordBatch> {
    let (mut outs, mut unseen, mut cards) = (vec![], vec![], vec![]);
    let (mut exact, mut rule, mut error) = (vec![], vec![], vec![]);
    for k in 1..=2u32 {
        for u in 20..=47u32 {
            for o in 1..=20u32 {
                let p = hit_probability(o, u, k);
                let r = rule_of_2_and_4(o, k);
                outs.push(o as u8);
                unseen.push(u as u8);
                cards.push(k as u8);
                exact.push(p);
                rule.push(r);
                error.push(r - p);
            }
        }
    }
    Ok(RecordBatch::try_from_iter(vec![
        ("outs", Arc::new(UInt8Array::from(outs)) as ArrayRef),
        ("unseen", Arc::new(UInt8Array::from(unseen))),
        ("cards_to_come", Arc::new(UInt8Array::from(cards))),
        ("exact", Arc::new(Float64Array::from(exact))),
        ("rule_of_2_and_4", Arc::new(Float64Array::from(rule))),
        ("rule_error", Arc::new(Float64Array::from(error))),
    ])?)
}

fn break_even_batch() -> anyhow::Result<RecordBatch> {
    let mut cols: [Vec<f64>; 3] = [vec![], vec![], vec![]];
    let (mut unseen, mut cards, mut outs, mut prob) = (vec![], vec![], vec![], vec![]);
    for &pot in &POTS {
        for &call in &CALLS {
            for &implied in &IMPLIED {
                for &u in &UNSEEN {
                    for k in 1..=2u32 {
                        let o = break_even_outs(pot, call, implied, u, k);
                        cols[0].push(pot);
                        cols[1].push(call);
                        cols[2].push(implied);
                        unseen.push(u as u8);
                        cards.push(k as u8);
                        outs.push(o.map(|o| o as u8));
                        // The hit probability at which calling breaks even: C / (P + I + C).
                        prob.push(call / (pot + implied + call));
                    }
                }
            }
        }
    }
    let [pot, call, implied] = cols;
    Ok(RecordBatch::try_from_iter(vec![
        ("pot", Arc::new(Float64Array::from(pot)) as ArrayRef),
        ("call", Arc::new(Float64Array::from(call))),
        ("implied", Arc::new(Float64Array::from(implied))),
        ("unseen", Arc::new(UInt8Array::from(unseen))),
        ("cards_to_come", Arc::new(UInt8Array::from(cards))),
        ("break_even_outs", Arc::new(UInt8Array::from(outs))),
        ("break_even_probability", Arc::new(Float64Array::from(prob))),
    ])?)
}

/// Best five of up to seven cards (for the Hold'em reading of the seed's example).
fn best_of(eval: &Evaluator, cards: &[Card]) -> u32 {
    let n = cards.len();
    let mut best = 0;
    for skip in 0u32..1 << n {
        if skip.count_ones() as usize != n - 5 {
            continue;
        }
        let five: Vec<Card> = (0..n)
            .filter(|i| skip >> i & 1 == 0)
            .map(|i| cards[i])
            .collect();
        best = best.max(eval.evaluate(&five.try_into().expect("five cards")).1);
    }
    best
}

impl TablesJob {
    fn headsup_batch(&self, results: &[Vec<HeadsUp>]) -> anyhow::Result<RecordBatch> {
        let text = |i: u16| two_cards(i).map(|c| c.to_string()).join(" ");
        let (mut deck, mut a, mut b, mut weight) = (vec![], vec![], vec![], vec![]);
        let (mut wins, mut ties, mut losses, mut deals, mut equity) =
            (vec![], vec![], vec![], vec![], vec![]);
        for ((&d, classes), r) in self
            .rules
            .headsup_decks
            .iter()
            .zip(&self.matchups)
            .zip(results)
        {
            for (m, h) in classes.iter().zip(r) {
                deck.push(d);
                a.push(text(m.a));
                b.push(text(m.b));
                weight.push(u32::from(m.weight));
                wins.push(h.wins);
                ties.push(h.ties);
                losses.push(h.losses());
                deals.push(h.deals);
                equity.push(h.equity());
            }
        }
        Ok(RecordBatch::try_from_iter(vec![
            ("deck", Arc::new(UInt8Array::from(deck)) as ArrayRef),
            ("hand_a", Arc::new(StringArray::from(a))),
            ("hand_b", Arc::new(StringArray::from(b))),
            ("matchups", Arc::new(UInt32Array::from(weight))),
            ("wins", Arc::new(arrow_array::UInt64Array::from(wins))),
            ("ties", Arc::new(arrow_array::UInt64Array::from(ties))),
            ("losses", Arc::new(arrow_array::UInt64Array::from(losses))),
            ("deals", Arc::new(arrow_array::UInt64Array::from(deals))),
            ("equity_a", Arc::new(Float64Array::from(equity))),
        ])?)
    }

    /// Equity of each starting-hand class (pair, suited, offsuit) against a random
    /// starting hand, as a rank × rank grid per deck.
    fn grid_report(&self, table: &cardtables::Stud) -> anyhow::Result<String> {
        let mut md = String::new();
        for &deck in &self.rules.headsup_decks {
            let rules = self.rules.variant(deck);
            let low = rules.lowest_rank();
            let ranks: Vec<u8> = (low..13).rev().collect();
            // sums[hi][lo][suited]: total equity and count over every opponent hand.
            let mut sum = vec![[0f64; 2]; 13 * 13];
            let mut count = vec![[0u64; 2]; 13 * 13];
            let cards: Vec<Card> = CardSet(rules.deck_mask()).iter().collect();
            for (i, &a1) in cards.iter().enumerate() {
                for &a2 in &cards[i + 1..] {
                    let (hi, lo) = if a1.rank() >= a2.rank() {
                        (a1, a2)
                    } else {
                        (a2, a1)
                    };
                    let suited = usize::from(hi.suit() == lo.suit());
                    let cell = usize::from(hi.rank()) * 13 + usize::from(lo.rank());
                    for (j, &b1) in cards.iter().enumerate() {
                        for &b2 in &cards[j + 1..] {
                            if let Ok(r) = table.starting_hands(deck, &[a1, a2], &[b1, b2]) {
                                sum[cell][suited] += r.equity;
                                count[cell][suited] += 1;
                            }
                        }
                    }
                }
            }
            let grid = rank_grid(&ranks, |hi, lo, suited| {
                let cell = usize::from(hi) * 13 + usize::from(lo);
                let k = usize::from(suited);
                match count[cell][k] {
                    0 => "—".into(),
                    c => format!("{:.3}", sum[cell][k] / c as f64),
                }
            });
            md.push_str(&format!(
                "\n## Starting hands, {deck}-card deck\n\nExact all-in equity of each two-card start \
                 against a random two-card start (both then receive three cards from the same \
                 deck), averaged over every opponent hand: pairs on the diagonal, suited hands \
                 above it, offsuit below. From `headsup.parquet`, which has every matchup up to \
                 suit permutation ({} classes).\n\n",
                self.matchups[self.rules.headsup_decks.iter().position(|&d| d == deck).expect("listed")].len()
            ));
            md.push_str(&grid);
        }
        Ok(md)
    }

    /// The seed's worked example three ways: as the seed ran it, as the Hold'em flop it
    /// really is, and as a stud hand. Returns Markdown.
    fn seed_example(&self) -> anyhow::Result<String> {
        let eval = Evaluator::new(StudRules::default());
        let cards = |t: &str| parse_cards(t).expect("fixed example cards");
        let hole = cards("As Ks");
        let board = cards("Qs Js 2h");
        let opp = cards("2c 2d");
        // Hold'em reading: 7 known cards, the turn card gives us a 6-card hand.
        let known: Vec<Card> = hole.iter().chain(&board).chain(&opp).copied().collect();
        let count = |removed: &[Card]| {
            let mut outs = 0;
            let mut unseen = 0;
            for id in 0..52u8 {
                let c = Card::from_id(id).expect("id < 52");
                if known.contains(&c) || removed.contains(&c) {
                    continue;
                }
                unseen += 1;
                let mine: Vec<Card> = hole.iter().chain(&board).copied().chain([c]).collect();
                let theirs: Vec<Card> = opp.iter().chain(&board).copied().chain([c]).collect();
                if best_of(&eval, &mine) > best_of(&eval, &theirs) {
                    outs += 1;
                }
            }
            (outs, unseen)
        };
        let (right_outs, right_unseen) = count(&[]);
        // The seed's array has one slot too many; the empty slot is card 0, 2♠.
        let two_spades = cards("2s");
        let (seed_outs, seed_unseen) = count(&two_spades);
        // Stud reading (the query example): our four spades, their 2c 2d, 2h seen.
        let stud = analyse(&Situation {
            mine: cards("As Ks Qs Js"),
            theirs: cards("2c 2d"),
            seen: cards("2h"),
            rules: StudRules::default(),
        })?;
        let pr = |o: u32, u: u32| f64::from(o) / f64::from(u);
        let mut md = String::from("## The seed's worked example\n\n");
        md.push_str(&format!(
            "The seed's example holds A♠ K♠ with Q♠ J♠ 2♥ against 2♣ 2♦ — a Hold'em flop, not \
             five-card stud. Its known-cards array has one slot more than it fills, and the \
             empty slot is card 0, 2♠: a card silently taken out of the deck. It then feeds \
             six cards to its five-card evaluator.\n\n\
             - As the seed runs it (2♠ missing): **{seed_outs} outs of {seed_unseen}** unseen \
             cards, P(hit on the turn) = {:.4}.\n\
             - Done right (best five of six cards, 2♠ in the deck): **{right_outs} outs of \
             {right_unseen}**, P = {:.4}. {} The seed's probability is off by {:+.4}.\n\
             - As a five-card stud hand (`pipeline query stud --mine \"As Ks Qs Js\" --theirs \
             \"2c 2d\" --seen \"2h\"`): our fifth card against the opponent's three unknown \
             cards, enumerated jointly over {} deals: P(win) = {:.4}, P(tie) = {:.4}, with {} \
             cards that make us the favourite.\n\n",
            pr(seed_outs, seed_unseen),
            pr(right_outs, right_unseen),
            if right_outs == seed_outs {
                format!(
                    "The outs agree (2♠ is no out: it gives the opponent four of a kind), but \
                     the seed counts {} unseen card{} too few.",
                    right_unseen - seed_unseen,
                    if right_unseen - seed_unseen == 1 {
                        ""
                    } else {
                        "s"
                    }
                )
            } else {
                format!(
                    "The seed miscounts the outs by {} and the unseen cards by {}.",
                    right_outs.abs_diff(seed_outs),
                    right_unseen - seed_unseen
                )
            },
            pr(seed_outs, seed_unseen) - pr(right_outs, right_unseen),
            stud.deals,
            stud.win(),
            stud.tie(),
            stud.outs.len()
        ));
        Ok(md)
    }

    fn report(&self, units: &[[u64; 9]], rules: &str) -> anyhow::Result<Report> {
        let mut md = format!("# Five-card stud (梭哈): `{}`\n\n", self.name);
        if !self.description.is_empty() {
            md.push_str(&format!("{}\n\n", self.description));
        }
        md.push_str(&format!(
            "Written by `pipeline run jobs/{}` (kind `stud.tables`). Category counts enumerate \
             every 5-card hand of each deck; probabilities are exact.\n\n## Rules\n\n```toml\n{rules}```\n\n",
            self.job_file
        ));
        md.push_str("## Categories by deck\n\n");
        let rows: Vec<Vec<String>> = (0..CATEGORIES.len())
            .rev()
            .map(|c| {
                let mut row = vec![format!("`{}`", CATEGORIES[c])];
                for (i, counts) in units.iter().enumerate() {
                    if VARIANTS[i].1 {
                        let total: u64 = counts.iter().sum();
                        row.push(format!(
                            "{} ({:.4} %)",
                            counts[c],
                            100.0 * counts[c] as f64 / total as f64
                        ));
                    }
                }
                row
            })
            .collect();
        md.push_str(&markdown_table(
            &["category", "52 cards", "32 cards (7–A)", "28 cards (8–A)"],
            &rows,
        ));
        md.push_str(
            "\nWith the ace also low (A-2-3-4-5, or A with the deck's four lowest ranks). In the \
             short decks a flush is rarer than a full house (and than four of a kind), which is \
             why `flush_beats_full_house = true` is common there; `categories.parquet` has every \
             deck, with and without ace-low straights, in both orders.\n\n",
        );
        md.push_str("## Exact hit probability against the rule of 2 and 4\n\n");
        let mut series = Vec::new();
        for (k, u) in [(1u32, 45u32), (2, 46)] {
            series.push((
                format!(
                    "exact, {k} card{} to come ({u} unseen)",
                    if k > 1 { "s" } else { "" }
                ),
                (1..=20)
                    .map(|o| (f64::from(o), hit_probability(o, u, k)))
                    .collect(),
            ));
            series.push((
                format!("rule of {}", 2 * k),
                (1..=20)
                    .map(|o| (f64::from(o), rule_of_2_and_4(o, k)))
                    .collect(),
            ));
        }
        let chart = line_chart_svg(
            "P(hit) by outs: exact vs rule of 2 and 4",
            "outs",
            "probability",
            &series,
        )?;
        let rows: Vec<Vec<String>> = [4u32, 8, 9, 12, 15, 20]
            .iter()
            .map(|&o| {
                let (one, two) = (hit_probability(o, 45, 1), hit_probability(o, 46, 2));
                vec![
                    o.to_string(),
                    format!("{one:.4}"),
                    format!("{:+.4}", rule_of_2_and_4(o, 1) - one),
                    format!("{two:.4}"),
                    format!("{:+.4}", rule_of_2_and_4(o, 2) - two),
                ]
            })
            .collect();
        md.push_str(&format!(
            "![exact vs rule of 2 and 4]({}/hit_probability.svg)\n\n",
            self.name
        ));
        md.push_str(&markdown_table(
            &[
                "outs",
                "exact, 1 card (45 unseen)",
                "rule of 2 error",
                "exact, 2 cards (46 unseen)",
                "rule of 4 error",
            ],
            &rows,
        ));
        md.push_str(
            "\nThe rule of 4 overstates the two-card chance more the more outs there are (it \
             counts hitting twice as two hits). `hit_probability.parquet` has outs 1–20 × 20–47 \
             unseen × 1 or 2 cards; `break_even.parquet` the fewest outs that make a call \
             profitable, EV(call) = p·(P + I) − (1 − p)·C, over pot, call, implied win, unseen \
             cards and cards to come.\n\n",
        );
        md.push_str(&self.seed_example()?);
        Ok(Report {
            markdown: md,
            charts: vec![("hit_probability.svg".into(), chart)],
        })
    }
}
