//! Job kind `zhajinhua.hands`: exact win / tie / loss of every 3-card hand against one and
//! two opponents dealt from the 49 unseen cards, under one rule variant.
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
use cardtables::zhajinhua::{ZhajinhuaPayload, MAX_OPPONENTS};
use cardtables::Card;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::decisions;
use super::eval::{
    index_of, Evaluator, HandInfo, CATEGORIES, CATEGORIES_ZH, HANDS, OPPONENT_HANDS,
};
use super::rules::{Ties, ZhajinhuaRules, A23};
use crate::engine::{BinaryOutput, Job, Outputs, Progress};
use crate::job::{JobError, JobSpec};
use crate::report::{line_chart_svg, markdown_table, Report};
use crate::sink::parquet::ParquetOutput;

/// Suit classes per work unit.
const CLASSES_PER_UNIT: usize = 40;
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
    name: String,
    description: String,
    job_file: String,
    eval: Evaluator,
    /// Representative hand index of each suit class, increasing.
    classes: Vec<usize>,
    /// Class number of each hand.
    class_of: Vec<u32>,
}

/// The 24 permutations of four suits.
fn suit_permutations() -> Vec<[u8; 4]> {
    let mut out = Vec::with_capacity(24);
    for a in 0..4u8 {
        for b in 0..4u8 {
            for c in 0..4u8 {
                let d = 6 - a - b - c;
                if a != b && a != c && b != c {
                    out.push([a, b, c, d]);
                }
            }
        }
    }
    out
}

impl HandsJob {
    pub fn new(spec: &JobSpec) -> Result<HandsJob, JobError> {
        let rules = ZhajinhuaRules::from_spec(spec)?;
        Ok(HandsJob::from_rules(
            rules,
            &spec.name,
            &spec.description,
            &spec.file_name(),
        ))
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
            description: description.to_string(),
            job_file: job_file.to_string(),
            eval,
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

impl Job for HandsJob {
    type Unit = Vec<Counts>;

    fn unit_count(&self) -> usize {
        self.classes.len().div_ceil(CLASSES_PER_UNIT)
    }

    fn run_unit(&self, index: usize) -> Vec<Counts> {
        let start = index * CLASSES_PER_UNIT;
        let end = (start + CLASSES_PER_UNIT).min(self.classes.len());
        self.classes[start..end]
            .iter()
            .map(|&h| exact_counts(&self.eval, &self.eval.hands[h]))
            .collect()
    }

    fn finish(&self, units: Vec<Vec<Counts>>, progress: &Progress) -> anyhow::Result<Outputs> {
        let by_class: Vec<Counts> = units.into_iter().flatten().collect();
        anyhow::ensure!(
            by_class.len() == self.classes.len(),
            "internal error: {} class results for {} classes",
            by_class.len(),
            self.classes.len()
        );
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
        let rules_hash = u64::from_le_bytes(
            Sha256::digest(rules.as_bytes())[..8]
                .try_into()
                .expect("8 bytes"),
        );
        let ties_rule = self.eval.rules.ties;
        let mut win = Vec::with_capacity(HANDS * MAX_OPPONENTS);
        let mut tie = Vec::with_capacity(HANDS * MAX_OPPONENTS);
        let mut equity = Vec::with_capacity(HANDS * MAX_OPPONENTS);
        for n in 1..=MAX_OPPONENTS as u8 {
            for c in &counts {
                let o = c.outcome(n, ties_rule);
                win.push(o.win);
                tie.push(o.tie);
                equity.push(o.equity);
            }
        }
        let payload = ZhajinhuaPayload {
            rules: rules.clone(),
            categories: CATEGORIES.iter().map(|s| s.to_string()).collect(),
            category: self.eval.hands.iter().map(|h| h.category).collect(),
            strength: self.eval.hands.iter().map(|h| h.strength).collect(),
            beats_trips: self.eval.hands.iter().map(|h| h.beats_trips).collect(),
            std_error: vec![0.0; win.len()],
            win,
            tie,
            equity,
        };
        let table = cardtables::Zhajinhua::to_bytes(rules_hash, &payload)?;
        Ok(Outputs {
            parquet: vec![
                ParquetOutput {
                    file: "hands.parquet".into(),
                    batches: vec![self.hands_batch(&counts)?],
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
            report: self.report(&counts, &rules)?,
            rules,
        })
    }
}

/// Hands whose raise-size EV curves the report draws (a strong and a weak one), the
/// situation they face, and the fold model's saturation.
const CURVE_HANDS: [&str; 2] = ["Ks Kh Qd", "Qh 8d 4c"];
const CURVE_POT: f64 = 100.0;
const CURVE_CALL: f64 = 20.0;
const CURVE_MAX_FOLD: f64 = 0.6;

impl HandsJob {
    /// Heads-up equity of a hand given as text (the report's fixed example hands).
    fn equity_of(&self, counts: &[Counts], text: &str) -> f64 {
        let cards: [Card; 3] = cardtables::parse_cards(text)
            .expect("example hands parse")
            .try_into()
            .expect("three cards");
        counts[index_of(&cards)]
            .outcome(1, self.eval.rules.ties)
            .equity
    }

    fn raise_curve_batch(&self, counts: &[Counts]) -> anyhow::Result<RecordBatch> {
        let (mut hand, mut equity, mut raise_to, mut fold, mut ev, mut seed) =
            (vec![], vec![], vec![], vec![], vec![], vec![]);
        for text in CURVE_HANDS {
            let w = self.equity_of(counts, text);
            for (r, f, e, s) in decisions::raise_curve(w, CURVE_POT, CURVE_CALL, CURVE_MAX_FOLD) {
                hand.push(text);
                equity.push(w);
                raise_to.push(r);
                fold.push(f);
                ev.push(e);
                seed.push(s);
            }
        }
        let n = hand.len();
        Ok(RecordBatch::try_from_iter(vec![
            ("hand", Arc::new(StringArray::from(hand)) as ArrayRef),
            ("equity", Arc::new(Float64Array::from(equity))),
            ("pot", Arc::new(Float64Array::from(vec![CURVE_POT; n]))),
            ("call", Arc::new(Float64Array::from(vec![CURVE_CALL; n]))),
            ("raise_to", Arc::new(Float64Array::from(raise_to))),
            ("fold_rate", Arc::new(Float64Array::from(fold))),
            ("ev_raise", Arc::new(Float64Array::from(ev))),
            ("ev_raise_seed_formula", Arc::new(Float64Array::from(seed))),
        ])?)
    }

    /// The report's decision-model section and its raise-size chart.
    fn decision_report(&self, counts: &[Counts]) -> anyhow::Result<(String, String)> {
        let mut md = String::from(
            "\n## Decisions\n\n\
             `decisions.parquet` prices fold, call, raise and compare over a grid of equity \
             (0.1–0.9), pot (50, 100, 200), call (10, 20, 50), raise-to (2×, 3×, 5× the call) \
             and opponent fold rate (0, 0.1, 0.25, 0.5), with the model of RULES.md (P = pot \
             before our decision including the opponent's bet, C = call, w = equity, R = raise-to, \
             f = fold rate):\n\n\
             - EV(fold) = 0; EV(call) = w·(P + C) − C; required equity = C / (P + C)\n\
             - EV(raise to R) = f·P + (1 − f)·(w·(P + 2R − C) − R); the seed's \
             f·P + (1 − f)·(w·(P + R) − R) forgets the opponent's R − C and is in \
             `ev_raise_seed_formula` only to show the gap\n\
             - EV(compare at cost K) = w·(P + K) − K, with K = C on the grid\n\
             - Kelly fraction of the call at odds b = P / C: f* = (b·w − (1 − w)) / b, and \
             half-Kelly\n\
             - styles (seed §4.3): tight acts only on EV > 5 % of the pot, loose on EV > −2 % \
             of the pot, steady on EV > 0 but prices raises with a fold rate of at most 0.1; \
             `*_action` is the best action each style accepts, else fold.\n\n",
        );
        md.push_str(&format!(
            "### Raise size\n\nThe seed suggests tabulating EV against the raise size to find \
             its peak. With a constant fold rate EV is linear in R, so there is a peak only if \
             folds grow with the raise. We use f(R) = {max} · (R − C) / (R − C + P), which \
             rises from 0 towards {max}, for pot {pot} and call {call}, heads-up:\n\n",
            max = CURVE_MAX_FOLD,
            pot = CURVE_POT,
            call = CURVE_CALL
        ));
        let mut rows = Vec::new();
        let mut series = Vec::new();
        let mut findings = Vec::new();
        for text in CURVE_HANDS {
            let w = self.equity_of(counts, text);
            let curve = decisions::raise_curve(w, CURVE_POT, CURVE_CALL, CURVE_MAX_FOLD);
            let (at, ev) = decisions::peak(&curve, false);
            let (seed_at, seed_ev) = decisions::peak(&curve, true);
            let (first, last) = (curve[0].0, curve[curve.len() - 1].0);
            let shape = |r: f64| {
                if r >= last {
                    format!(
                        "rises across the whole range, so its best raise is the largest ({r:.0})"
                    )
                } else if r <= first {
                    format!("falls from the start, so its best is not to raise beyond the call ({r:.0})")
                } else {
                    format!("peaks at a raise to {r:.0}")
                }
            };
            findings.push(format!(
                "- `{text}` (equity {w:.3}): the corrected EV {}; the seed's formula {}.",
                shape(at),
                shape(seed_at)
            ));
            rows.push(vec![
                format!("`{text}`"),
                format!("{w:.4}"),
                format!("{at:.0}"),
                format!("{ev:+.2}"),
                format!("{seed_at:.0}"),
                format!("{seed_ev:+.2}"),
            ]);
            series.push((
                format!("{text} (w={w:.3})"),
                curve.iter().map(|p| (p.0, p.2)).collect(),
            ));
            series.push((
                format!("{text}, seed's formula"),
                curve.iter().map(|p| (p.0, p.3)).collect(),
            ));
        }
        md.push_str(&markdown_table(
            &[
                "hand",
                "equity vs 1",
                "best raise-to",
                "EV there",
                "seed formula's best",
                "seed EV there",
            ],
            &rows,
        ));
        md.push_str(&format!(
            "\n![EV against raise size]({}/raise_curve.svg)\n\n{}\n\n\
             With equity above 1/2 every chip a caller adds is worth more to us than it costs, \
             so only fold equity against the cost of being called can make a peak. The seed's \
             formula undercounts what a called raise wins (it leaves out the caller's R − C), \
             which pushes its best raise down. The curves are in `raise_curve.parquet`.\n",
            self.name,
            findings.join("\n")
        ));
        let chart = line_chart_svg(
            "EV of raising, by raise-to amount (pot 100, call 20)",
            "raise to (chips)",
            "EV (chips)",
            &series,
        )?;
        Ok((md, chart))
    }

    fn category_counts(&self) -> [u32; 6] {
        let mut c = [0u32; 6];
        for h in &self.eval.hands {
            c[usize::from(h.category)] += 1;
        }
        c
    }

    fn hands_batch(&self, counts: &[Counts]) -> anyhow::Result<RecordBatch> {
        let rows = HANDS * MAX_OPPONENTS;
        let mut hand = Vec::with_capacity(rows);
        let mut cards = Vec::with_capacity(rows);
        let mut c = [(); 3].map(|_| Vec::with_capacity(rows));
        let mut category = Vec::with_capacity(rows);
        let mut strength = Vec::with_capacity(rows);
        let mut opponents = Vec::with_capacity(rows);
        let (mut wins, mut ties, mut total) = (vec![], vec![], vec![]);
        let (mut win, mut tie, mut loss, mut equity) = (vec![], vec![], vec![], vec![]);
        for n in 1..=MAX_OPPONENTS as u8 {
            for (i, info) in self.eval.hands.iter().enumerate() {
                let o = counts[i].outcome(n, self.eval.rules.ties);
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
                wins.push(o.wins);
                ties.push(o.ties);
                total.push(o.total);
                win.push(o.win);
                tie.push(o.tie);
                loss.push(o.loss);
                equity.push(o.equity);
            }
        }
        let names = Arc::new(StringArray::from_iter_values(CATEGORIES));
        let method = DictionaryArray::<UInt8Type>::try_new(
            UInt8Array::from(vec![0u8; rows]),
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
            ("std_error", Arc::new(Float64Array::from(vec![0.0; rows]))),
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

    fn report(&self, counts: &[Counts], rules: &str) -> anyhow::Result<Report> {
        let category_counts = self.category_counts();
        let mut md = format!("# Zhajinhua (炸金花): `{}`\n\n", self.name);
        if !self.description.is_empty() {
            md.push_str(&format!("{}\n\n", self.description));
        }
        md.push_str(&format!(
            "Written by `pipeline run jobs/{}` (kind `zhajinhua.hands`). Every figure is \
             exact: each of the 22,100 hands is compared with all 18,424 opponent hands from \
             the 49 unseen cards, and with all {} ordered pairs of disjoint opponent hands.\n\n",
            self.job_file, OPPONENT_PAIRS
        ));
        md.push_str("## Rules\n\n```toml\n");
        md.push_str(rules);
        md.push_str(
            "```\n\nCategories, strongest first: 豹子 trips > 同花顺 straight flush > 同花 flush > \
             顺子 straight > 对子 pair > 散牌 high card. Within a category: trips by rank, \
             straights by top card, flush and high card by ranks from the top down, pair by \
             its rank then the kicker; suits never break ties. Against several opponents a \
             hand wins when it beats each of them, ties when none beats it and at least one \
             ties it, and the equity splits ties.\n\n",
        );
        md.push_str("## Categories\n\n");
        let rows: Vec<Vec<String>> = (0..CATEGORIES.len())
            .rev()
            .map(|c| {
                vec![
                    format!("`{}`", CATEGORIES[c]),
                    CATEGORIES_ZH[c].to_string(),
                    category_counts[c].to_string(),
                    format!("{:.6}", f64::from(category_counts[c]) / HANDS as f64),
                ]
            })
            .collect();
        md.push_str(&markdown_table(
            &["category", "中文", "hands", "probability"],
            &rows,
        ));

        // Win probability against the hand's strength percentile, weakest first.
        let mut order: Vec<usize> = (0..HANDS).collect();
        order.sort_by_key(|&i| (self.eval.hands[i].strength, i));
        let mut series = Vec::new();
        for n in 1..=MAX_OPPONENTS as u8 {
            let points: Vec<(f64, f64)> = order
                .iter()
                .enumerate()
                .map(|(rank, &i)| {
                    (
                        100.0 * (rank as f64 + 0.5) / HANDS as f64,
                        counts[i].outcome(n, self.eval.rules.ties).win,
                    )
                })
                .collect();
            series.push((
                format!("{n} opponent{}", if n > 1 { "s" } else { "" }),
                points,
            ));
        }
        let chart = line_chart_svg(
            "Exact win probability by strength percentile",
            "strength percentile (weakest = 0)",
            "P(win)",
            &series,
        )?;
        md.push_str(&format!(
            "\n## Win probability by strength\n\n![Win probability by strength percentile]({}/win_by_percentile.svg)\n\n",
            self.name
        ));
        let sample = [
            "Ks Kh Qd", "As Ah Ad", "2s 3h 5d", "As Ks Js", "Ah Kd 9c", "7s 7d 2c",
        ];
        let rows: Vec<Vec<String>> = sample
            .iter()
            .map(|text| {
                let cards: [Card; 3] = cardtables::parse_cards(text)
                    .expect("sample hands parse")
                    .try_into()
                    .expect("three cards");
                let i = index_of(&cards);
                let one = counts[i].outcome(1, self.eval.rules.ties);
                let two = counts[i].outcome(2, self.eval.rules.ties);
                vec![
                    format!("`{text}`"),
                    CATEGORIES[usize::from(self.eval.hands[i].category)].to_string(),
                    format!("{:.6}", one.win),
                    format!("{:.6}", one.tie),
                    format!("{:.6}", one.equity),
                    format!("{:.6}", two.win),
                    format!("{:.6}", two.equity),
                ]
            })
            .collect();
        md.push_str(&markdown_table(
            &[
                "hand",
                "category",
                "win vs 1",
                "tie vs 1",
                "equity vs 1",
                "win vs 2",
                "equity vs 2",
            ],
            &rows,
        ));
        md.push_str(
            "\nChecks asserted when this table is built: every ordered pair of disjoint hands \
             is counted once as a win for one side or a tie for both.\n",
        );
        let (decision_md, raise_chart) = self.decision_report(counts)?;
        md.push_str(&decision_md);
        Ok(Report {
            markdown: md,
            charts: vec![
                ("win_by_percentile.svg".into(), chart),
                ("raise_curve.svg".into(), raise_chart),
            ],
        })
    }
}
