//! The outputs of `blackjack.strategy` as Arrow batches (`dealer`, `hands`, `strategy`,
//! `summary`) and the runtime payload of each rule set; and those of `blackjack.indices`
//! (`indices`, `by_count`, `cells`).

use std::sync::Arc;

use arrow_array::{
    ArrayRef, BooleanArray, Float64Array, Int16Array, Int64Array, RecordBatch, StringArray,
};
use cardtables::blackjack::{cell_code, Action, Row, RuleSet, ACTIONS, NO_ACTION, RANKS};

use super::analysis::{self, Analysis};
use super::count::Counter;
use super::counting::{BettingSettings, CounterResult, PlaySettings};
use super::dealer::OUTCOME_BLACKJACK;
use super::hands::{self, rank_name, Hands};
use super::indices::{Decision, Direction, Summary, CELLS};
use super::rules::{BlackjackRules, Decks, Double, RuleSetSpec, Surrender};
use super::sim::Tally;
use crate::sink::columns::Columns;
use crate::sink::parquet::ParquetOutput;
use cardtables::blackjack_indices::{BlackjackIndicesPayload, IndexPlay, IndexRuleSet};

/// One rule set of the runtime table: every two-card hand's EVs and the chart.
pub(super) fn runtime_rule_set(s: &RuleSetSpec, a: &Analysis) -> RuleSet {
    let mut evs = Vec::with_capacity(55 * RANKS * ACTIONS);
    for hand in 0..hands::starting_hands().count() {
        for up in &a.upcards {
            evs.extend_from_slice(&up.hands[hand]);
        }
    }
    RuleSet {
        id: s.id.clone(),
        rules: toml::to_string(&s.rules).unwrap_or_default(),
        conditioned_on_no_blackjack: s.rules.dealer_peeks,
        max_split_hands: s.rules.max_split_hands,
        house_edge: -a.optimal_ev,
        basic_strategy_ev: a.chart_ev,
        evs,
        chart: a.chart.clone(),
    }
}

pub struct Results<'a> {
    pub sets: &'a [RuleSetSpec],
    pub analyses: &'a [Analysis],
    pub basic: &'a [Tally],
    /// The tutorial article's chart simulated, when the job asks for it.
    pub article: Option<&'a [Tally]>,
    /// Whether the analyses hold the optimal two-hand split (`[analysis] optimal_split`).
    pub optimal_split: bool,
}

/// `hands.parquet`'s split EV under each post-split strategy, in `PostSplit::ALL` order.
const SPLIT_COLUMNS: [&str; analysis::MODES] = ["ev_split_cdz", "ev_split_cdp1", "ev_split_cdp"];

/// `summary.parquet`'s house edge under each post-split strategy, in `PostSplit::ALL`
/// order.
const HOUSE_EDGE_COLUMNS: [&str; analysis::MODES] =
    ["house_edge_cdz", "house_edge_cdp1", "house_edge_cdp"];

/// Upcards in the order charts print them: 2..9, T, A.
pub const UPCARD_ORDER: [usize; RANKS] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 0];

/// A row's label: `hard 16`, `soft 18`, `pair 8`.
pub fn row_label(row: Row) -> String {
    match row {
        Row::Hard(t) => format!("hard {t}"),
        Row::Soft(t) => format!("soft {t}"),
        Row::Pair(r) => format!("pair {}", rank_name(r)),
    }
}

fn strings<I: IntoIterator<Item = String>>(v: I) -> ArrayRef {
    Arc::new(StringArray::from_iter_values(v))
}

fn floats(v: Vec<f64>) -> ArrayRef {
    Arc::new(Float64Array::from(v))
}

fn optional_floats(v: Vec<f64>) -> ArrayRef {
    Arc::new(Float64Array::from_iter(
        v.into_iter().map(|x| (!x.is_nan()).then_some(x)),
    ))
}

/// The dealer's upcard as two columns: `upcard`, its value 2..=11 (11 = ace), which sorts
/// and filters as numbers, and `upcard_label` (`2`..`9`, `T`, `A`).
fn upcard_columns(ups: &[usize]) -> [(&'static str, ArrayRef); 2] {
    [
        (
            "upcard",
            Arc::new(Int16Array::from_iter_values(
                ups.iter().map(|&u| i16::from(hands::upcard_value(u))),
            )),
        ),
        (
            "upcard_label",
            strings(ups.iter().map(|&u| rank_name(u).to_string())),
        ),
    ]
}

/// The rule columns every per-rule-set table repeats.
fn rule_columns(rows: &[&BlackjackRules]) -> Vec<(&'static str, ArrayRef)> {
    let text = |f: &dyn Fn(&BlackjackRules) -> String| strings(rows.iter().map(|r| f(r)));
    let flag = |f: &dyn Fn(&BlackjackRules) -> bool| -> ArrayRef {
        Arc::new(BooleanArray::from(
            rows.iter().map(|r| f(r)).collect::<Vec<_>>(),
        ))
    };
    vec![
        (
            "decks",
            Arc::new(Int16Array::from_iter(rows.iter().map(|r| match r.decks {
                Decks::Finite(n) => Some(i16::from(n)),
                Decks::Infinite(_) => None,
            }))),
        ),
        ("dealer_hits_soft_17", flag(&|r| r.dealer_hits_soft_17)),
        (
            "blackjack_pays",
            floats(rows.iter().map(|r| r.blackjack_pays).collect()),
        ),
        (
            "double",
            text(&|r| match r.double {
                Double::AnyTwo => "any_two".into(),
                Double::NineToEleven => "9_11".into(),
                Double::TenOrEleven => "10_11".into(),
            }),
        ),
        ("double_after_split", flag(&|r| r.double_after_split)),
        (
            "max_split_hands",
            Arc::new(Int16Array::from_iter_values(
                rows.iter().map(|r| i16::from(r.max_split_hands)),
            )),
        ),
        ("resplit_aces", flag(&|r| r.resplit_aces)),
        ("hit_split_aces", flag(&|r| r.hit_split_aces)),
        (
            "surrender",
            text(&|r| match r.surrender {
                Surrender::None => "none".into(),
                Surrender::Late => "late".into(),
                Surrender::Early => "early".into(),
            }),
        ),
        ("dealer_peeks", flag(&|r| r.dealer_peeks)),
        (
            "post_split_strategy",
            text(&|r| r.post_split_strategy.word().into()),
        ),
    ]
}

fn batch(columns: Vec<(&'static str, ArrayRef)>) -> anyhow::Result<RecordBatch> {
    Ok(RecordBatch::try_from_iter(columns)?)
}

impl Results<'_> {
    pub(super) fn dealer_table(&self) -> anyhow::Result<ParquetOutput> {
        let (mut set, mut up, mut conditioned) = (vec![], vec![], vec![]);
        let mut p: Vec<Vec<f64>> = vec![vec![]; 7];
        for (s, a) in self.sets.iter().zip(self.analyses) {
            for &u in &UPCARD_ORDER {
                let ua = &a.upcards[u];
                for (cond, outcomes) in [(false, ua.dealer), (true, ua.dealer_no_blackjack)] {
                    if cond && u != hands::ACE && u != hands::TEN {
                        continue;
                    }
                    set.push(s.id.clone());
                    up.push(u);
                    conditioned.push(cond);
                    for (col, v) in p.iter_mut().zip(outcomes) {
                        col.push(v);
                    }
                }
            }
        }
        let names = ["p17", "p18", "p19", "p20", "p21", "bust", "blackjack"];
        let mut columns: Vec<(&'static str, ArrayRef)> = vec![("rule_set", strings(set))];
        columns.extend(upcard_columns(&up));
        columns.extend([(
            "conditioned_on_no_blackjack",
            Arc::new(BooleanArray::from(conditioned)) as ArrayRef,
        )]);
        for (name, col) in names.into_iter().zip(p) {
            columns.push((name, floats(col)));
        }
        debug_assert_eq!(names[OUTCOME_BLACKJACK], "blackjack");
        Ok(ParquetOutput {
            file: "dealer.parquet".into(),
            batches: vec![batch(columns)?].into(),
            plain_columns: vec![],
        })
    }

    pub(super) fn hands_table(&self) -> anyhow::Result<ParquetOutput> {
        let g = Hands::get();
        let mut rules: Vec<&BlackjackRules> = vec![];
        let (mut set, mut hand, mut cards, mut up, mut best_action, mut conditioned) =
            (vec![], vec![], vec![], vec![], vec![], vec![]);
        let (mut kind, mut total) = (vec![], vec![]);
        let mut ev: Vec<Vec<f64>> = vec![vec![]; ACTIONS];
        let mut split_by_mode: Vec<Vec<f64>> = vec![vec![]; analysis::MODES];
        let (mut optimal, mut gain) = (vec![], vec![]);
        let (mut best_ev, mut deal) = (vec![], vec![]);
        for (s, a) in self.sets.iter().zip(self.analyses) {
            for (i, (x, y)) in hands::starting_hands().enumerate() {
                let h = g.hand(g.pair(x, y));
                let (k, label) = if x == y {
                    ("pair", format!("pair {}", rank_name(x)))
                } else if (x, y) == (hands::ACE, hands::TEN) {
                    ("blackjack", "blackjack".to_string())
                } else if h.soft {
                    ("soft", format!("soft {}", h.total))
                } else {
                    ("hard", format!("hard {}", h.total))
                };
                // High card first, as people write hands (A above T).
                let (hi, lo) = if x == hands::ACE { (x, y) } else { (y, x) };
                for &u in &UPCARD_ORDER {
                    let evs = &a.upcards[u].hands[i];
                    rules.push(&s.rules);
                    set.push(s.id.clone());
                    hand.push(label.clone());
                    kind.push(k.to_string());
                    total.push(h.total);
                    cards.push(format!("{} {}", rank_name(hi), rank_name(lo)));
                    up.push(u);
                    for (col, &v) in ev.iter_mut().zip(evs) {
                        col.push(v);
                    }
                    for (col, &v) in split_by_mode.iter_mut().zip(&a.upcards[u].split_by_mode[i]) {
                        col.push(v);
                    }
                    let best_split = a.upcards[u].optimal_split[i];
                    optimal.push(best_split);
                    gain.push(best_split - a.upcards[u].split_by_mode[i][0]);
                    let (action, v) = analysis::best(evs);
                    best_action.push(if v.is_finite() { action.name() } else { "" }.to_string());
                    best_ev.push(v);
                    deal.push(a.upcards[u].deal_probability[i]);
                    conditioned.push(s.rules.dealer_peeks);
                }
            }
        }
        let mut columns = vec![("rule_set", strings(set))];
        columns.extend(rule_columns(&rules));
        columns.push(("hand_label", strings(hand)));
        columns.push(("hand_kind", strings(kind)));
        columns.push((
            "total",
            Arc::new(Int16Array::from_iter_values(
                total.into_iter().map(i16::from),
            )),
        ));
        columns.push(("cards", strings(cards)));
        columns.extend(upcard_columns(&up));
        for (name, col) in [
            "ev_stand",
            "ev_hit",
            "ev_double",
            "ev_split",
            "ev_surrender",
        ]
        .into_iter()
        .zip(ev)
        {
            columns.push((name, optional_floats(col)));
        }
        for (name, col) in SPLIT_COLUMNS.into_iter().zip(split_by_mode) {
            columns.push((name, optional_floats(col)));
        }
        // Float columns of distinct values: no dictionary.
        let mut plain_columns = vec!["ev_stand", "ev_hit", "ev_double", "ev_split"];
        plain_columns.extend(SPLIT_COLUMNS);
        plain_columns.push("best_ev");
        if self.optimal_split {
            columns.push(("ev_split_optimal", optional_floats(optimal)));
            columns.push(("optimal_split_gain", optional_floats(gain)));
            plain_columns.extend(["ev_split_optimal", "optimal_split_gain"]);
        }
        columns.push(("best_action", strings(best_action)));
        columns.push(("best_ev", optional_floats(best_ev)));
        columns.push(("deal_probability", floats(deal)));
        columns.push((
            "conditioned_on_no_blackjack",
            Arc::new(BooleanArray::from(conditioned)),
        ));
        Ok(ParquetOutput {
            file: "hands.parquet".into(),
            batches: vec![batch(columns)?].into(),
            plain_columns,
        })
    }

    pub(super) fn strategy_table(&self) -> anyhow::Result<ParquetOutput> {
        let (mut set, mut row, mut kind, mut value, mut up, mut code, mut first) =
            (vec![], vec![], vec![], vec![], vec![], vec![], vec![]);
        for (s, a) in self.sets.iter().zip(self.analyses) {
            for r in Row::all() {
                let i = r.index().unwrap_or(0);
                for &u in &UPCARD_ORDER {
                    let cell = &a.chart[i * RANKS + u];
                    set.push(s.id.clone());
                    row.push(row_label(r));
                    let (k, v) = match r {
                        Row::Hard(t) => ("hard", t),
                        Row::Soft(t) => ("soft", t),
                        // The pair's total, as in hands.parquet (A-A is soft 12).
                        Row::Pair(p) if p == hands::ACE => ("pair", 12),
                        Row::Pair(p) => ("pair", 2 * hands::points(p)),
                    };
                    kind.push(k.to_string());
                    value.push(v);
                    up.push(u);
                    code.push(cell_code(cell));
                    first.push(
                        Action::from_code(cell[0])
                            .map(|a| a.name())
                            .unwrap_or("stand")
                            .to_string(),
                    );
                }
            }
        }
        Ok(ParquetOutput {
            file: "strategy.parquet".into(),
            batches: vec![batch(
                [
                    ("rule_set", strings(set)),
                    ("hand_label", strings(row)),
                    ("hand_kind", strings(kind)),
                    (
                        "total",
                        Arc::new(Int16Array::from_iter_values(
                            value.into_iter().map(i16::from),
                        )) as ArrayRef,
                    ),
                ]
                .into_iter()
                .chain(upcard_columns(&up))
                .chain([("action", strings(code)), ("first_choice", strings(first))])
                .collect(),
            )?]
            .into(),
            plain_columns: vec![],
        })
    }

    pub(super) fn summary_table(&self) -> anyhow::Result<ParquetOutput> {
        let rules: Vec<&BlackjackRules> = self.sets.iter().map(|s| &s.rules).collect();
        let mut columns = vec![("rule_set", strings(self.sets.iter().map(|s| s.id.clone())))];
        columns.extend(rule_columns(&rules));
        let nan_if_empty =
            |t: &Tally, f: fn(&Tally) -> f64| if t.rounds == 0 { f64::NAN } else { f(t) };
        columns.extend([
            (
                "overall_ev",
                floats(self.analyses.iter().map(|a| a.optimal_ev).collect()),
            ),
            (
                "house_edge",
                floats(self.analyses.iter().map(|a| -a.optimal_ev).collect()),
            ),
            (
                "basic_strategy_ev",
                floats(self.analyses.iter().map(|a| a.chart_ev).collect()),
            ),
        ]);
        for (m, name) in HOUSE_EDGE_COLUMNS.into_iter().enumerate() {
            // Null for a strategy the job did not value.
            columns.push((
                name,
                optional_floats(
                    self.analyses
                        .iter()
                        .map(|a| -a.optimal_ev_by_mode[m])
                        .collect(),
                ),
            ));
        }
        if self.optimal_split {
            columns.push((
                "house_edge_optimal_split",
                floats(self.analyses.iter().map(|a| -a.optimal_split_ev).collect()),
            ));
        }
        columns.extend([
            (
                "simulated_ev",
                optional_floats(
                    self.basic
                        .iter()
                        .map(|t| nan_if_empty(t, Tally::mean))
                        .collect(),
                ),
            ),
            (
                "simulated_std_error",
                optional_floats(
                    self.basic
                        .iter()
                        .map(|t| nan_if_empty(t, Tally::std_error))
                        .collect(),
                ),
            ),
            (
                "rounds",
                Arc::new(Int64Array::from_iter_values(
                    self.basic.iter().map(|t| t.rounds as i64),
                )),
            ),
        ]);
        if let Some(article) = self.article {
            columns.extend([
                (
                    "article_strategy_simulated_ev",
                    optional_floats(
                        article
                            .iter()
                            .map(|t| nan_if_empty(t, Tally::mean))
                            .collect(),
                    ),
                ),
                (
                    "article_strategy_std_error",
                    optional_floats(
                        article
                            .iter()
                            .map(|t| nan_if_empty(t, Tally::std_error))
                            .collect(),
                    ),
                ),
            ]);
        }
        Ok(ParquetOutput {
            file: "summary.parquet".into(),
            batches: vec![batch(columns)?].into(),
            plain_columns: vec![],
        })
    }
}

/// The results of `blackjack.indices`, for its tables and report.
pub struct IndexResults<'a> {
    pub sets: &'a [RuleSetSpec],
    pub counter: &'a Counter,
    pub summaries: &'a [Summary],
}

/// The results of `blackjack.counter`, for its tables and report.
pub struct CounterResults<'a> {
    pub sets: &'a [RuleSetSpec],
    pub counter: &'a Counter,
    pub play: &'a PlaySettings,
    pub betting: &'a BettingSettings,
    /// The simulated counter of each rule set, as each ramp bet it.
    pub results: &'a [Vec<CounterResult>],
}

/// What an index's decision is called, its upcard, and the chart's play and the
/// deviation's, as tables print them.
pub fn decision_words(d: &Decision) -> (String, usize, &'static str, &'static str) {
    match *d {
        Decision::Cell { cell, chart, play } => {
            let row = Row::all().nth(cell / RANKS).unwrap_or(Row::Hard(4));
            (row_label(row), cell % RANKS, chart.name(), play.name())
        }
        Decision::Insurance => (
            "insurance".to_string(),
            hands::ACE,
            "no insurance",
            "insure",
        ),
    }
}

impl IndexResults<'_> {
    fn per_set<T>(&self, f: impl Fn(&Summary) -> Vec<T>) -> Vec<(usize, T)> {
        self.summaries
            .iter()
            .enumerate()
            .flat_map(|(s, sum)| f(sum).into_iter().map(move |x| (s, x)))
            .collect()
    }

    /// `indices.parquet`: one row per index play, most valuable first within a rule set.
    pub fn indices_table(&self) -> anyhow::Result<ParquetOutput> {
        let rows = self.per_set(|s| s.indices.iter().cloned().enumerate().collect());
        let words: Vec<_> = rows
            .iter()
            .map(|(_, (_, x))| decision_words(&x.decision))
            .collect();
        let ups: Vec<usize> = words.iter().map(|w| w.1).collect();
        let [upcard, upcard_label] = upcard_columns(&ups);
        let batch = Columns::new()
            .str(
                "rule_set",
                rows.iter().map(|(s, _)| self.sets[*s].id.as_str()),
            )
            .str("system", rows.iter().map(|_| self.counter.name.as_str()))
            .u32("rank", rows.iter().map(|(_, (i, _))| *i as u32 + 1))
            .str("hand_label", words.iter().map(|w| w.0.as_str()))
            .array(upcard.0, upcard.1)
            .array(upcard_label.0, upcard_label.1)
            .str("chart_play", words.iter().map(|w| w.2))
            .str("play", words.iter().map(|w| w.3))
            .str(
                "direction",
                rows.iter().map(|(_, (_, x))| x.direction.word()),
            )
            .i32("index", rows.iter().map(|(_, (_, x))| x.index))
            .f64("crossing", rows.iter().map(|(_, (_, x))| x.crossing))
            .f64("crossing_se", rows.iter().map(|(_, (_, x))| x.crossing_se))
            .f64(
                "gain_per_100",
                rows.iter().map(|(_, (_, x))| x.gain_per_100),
            )
            .f64(
                "gain_per_100_se",
                rows.iter().map(|(_, (_, x))| x.gain_per_100_se),
            )
            .batch()?;
        Ok(ParquetOutput {
            file: "indices.parquet".into(),
            batches: vec![batch].into(),
            plain_columns: vec!["crossing", "crossing_se", "gain_per_100", "gain_per_100_se"],
        })
    }

    /// `by_count.parquet`: one row per rule set and count.
    pub fn by_count_table(&self) -> anyhow::Result<ParquetOutput> {
        let rows = self.per_set(|s| s.rows.clone());
        let opt = |x: f64| (!x.is_nan()).then_some(x);
        let batch = Columns::new()
            .str(
                "rule_set",
                rows.iter().map(|(s, _)| self.sets[*s].id.as_str()),
            )
            .str("system", rows.iter().map(|_| self.counter.name.as_str()))
            .i32("count", rows.iter().map(|(_, r)| r.count))
            .f64("frequency", rows.iter().map(|(_, r)| r.frequency))
            .u64("points", rows.iter().map(|(_, r)| r.points))
            .f64_or_null("chart_ev", rows.iter().map(|(_, r)| opt(r.chart_ev.0)))
            .f64_or_null("chart_ev_se", rows.iter().map(|(_, r)| opt(r.chart_ev.1)))
            .f64_or_null("indices_ev", rows.iter().map(|(_, r)| opt(r.indices_ev)))
            .f64_or_null(
                "indices_ev_se",
                rows.iter().map(|(_, r)| opt(r.indices_ev_se)),
            )
            .f64_or_null(
                "insurance_ev",
                rows.iter().map(|(_, r)| opt(r.insurance_ev.0)),
            )
            .f64_or_null(
                "insurance_ev_se",
                rows.iter().map(|(_, r)| opt(r.insurance_ev.1)),
            )
            .batch()?;
        Ok(ParquetOutput {
            file: "by_count.parquet".into(),
            batches: vec![batch].into(),
            plain_columns: vec![],
        })
    }

    /// `cells.parquet`: one row per rule set, count, chart cell played at that count and
    /// allowed first action.
    pub fn cells_table(&self) -> anyhow::Result<ParquetOutput> {
        struct Out {
            set: usize,
            count: i32,
            row: Row,
            up: usize,
            chart: Action,
            action: Action,
            weight: f64,
            ev: f64,
            gain: (f64, f64),
        }
        let mut out = Vec::new();
        for (set, s) in self.summaries.iter().enumerate() {
            for r in s.rows.iter().filter(|r| r.points > 0) {
                for (cell, c) in r.cells.iter().enumerate() {
                    if c.weight.is_nan() || c.weight <= 0.0 {
                        continue;
                    }
                    let row = Row::all().nth(cell / RANKS).unwrap_or(Row::Hard(4));
                    for action in Action::ALL {
                        let k = action as usize;
                        if c.ev[k].is_nan() {
                            continue;
                        }
                        out.push(Out {
                            set,
                            count: r.count,
                            row,
                            up: cell % RANKS,
                            chart: c.chart,
                            action,
                            weight: c.weight,
                            ev: c.ev[k],
                            gain: c.gain[k],
                        });
                    }
                }
            }
        }
        let ups: Vec<usize> = out.iter().map(|o| o.up).collect();
        let [upcard, upcard_label] = upcard_columns(&ups);
        let batch = Columns::new()
            .str("rule_set", out.iter().map(|o| self.sets[o.set].id.as_str()))
            .i32("count", out.iter().map(|o| o.count))
            .str("hand_label", out.iter().map(|o| row_label(o.row)))
            .array(upcard.0, upcard.1)
            .array(upcard_label.0, upcard_label.1)
            .str("chart_play", out.iter().map(|o| o.chart.name()))
            .str("play", out.iter().map(|o| o.action.name()))
            .f64("cell_probability", out.iter().map(|o| o.weight))
            .f64("ev", out.iter().map(|o| o.ev))
            .f64("gain", out.iter().map(|o| o.gain.0))
            .f64("gain_se", out.iter().map(|o| o.gain.1))
            .batch()?;
        Ok(ParquetOutput {
            file: "cells.parquet".into(),
            batches: vec![batch].into(),
            plain_columns: vec!["cell_probability", "ev", "gain", "gain_se"],
        })
    }
}

impl IndexResults<'_> {
    /// The runtime table's payload: per rule set, the chart, each cell's play at every
    /// count, the index plays and the insurance index.
    pub fn runtime_payload(
        &self,
        rules: String,
        charts: &[Vec<cardtables::blackjack::Cell>],
    ) -> BlackjackIndicesPayload {
        let rule_sets = self
            .sets
            .iter()
            .zip(self.summaries)
            .zip(charts)
            .map(|((s, sum), chart)| {
                let counts = sum.rows.len();
                let mut plays = vec![NO_ACTION; CELLS * counts];
                let mut chart_plays = vec![NO_ACTION; CELLS];
                for (t, row) in sum.rows.iter().enumerate() {
                    for (cell, &code) in row.plays.iter().enumerate() {
                        plays[cell * counts + t] = code;
                        if code != NO_ACTION {
                            chart_plays[cell] = row.cells[cell].chart as u8;
                        }
                    }
                }
                let indices = sum
                    .indices
                    .iter()
                    .filter_map(|x| match x.decision {
                        Decision::Cell { cell, play, .. } => Some(IndexPlay {
                            cell: cell as u16,
                            play: play as u8,
                            below: x.direction == Direction::AtOrBelow,
                            index: x.index,
                            gain_per_100: x.gain_per_100,
                        }),
                        Decision::Insurance => None,
                    })
                    .collect();
                IndexRuleSet {
                    id: s.id.clone(),
                    rules: toml::to_string(&s.rules).unwrap_or_default(),
                    system: self.counter.name.clone(),
                    true_count: self.counter.balanced,
                    low: self.counter.low,
                    high: self.counter.high,
                    max_split_hands: s.rules.max_split_hands,
                    chart: chart.clone(),
                    chart_plays,
                    plays,
                    indices,
                    insure_from: sum.insure_from(),
                }
            })
            .collect();
        BlackjackIndicesPayload { rules, rule_sets }
    }
}

impl CounterResults<'_> {
    /// `counter.parquet`: one row per rule set and bet ramp.
    pub fn counter_table(&self) -> anyhow::Result<ParquetOutput> {
        let rows: Vec<(usize, usize, &CounterResult)> = self
            .results
            .iter()
            .enumerate()
            .flat_map(|(s, by_ramp)| by_ramp.iter().enumerate().map(move |(r, c)| (s, r, c)))
            .collect();
        let nan_null = |x: f64| Some(x).filter(|x| !x.is_nan());
        let batch = Columns::new()
            .str(
                "rule_set",
                rows.iter().map(|(s, _, _)| self.sets[*s].id.as_str()),
            )
            .str("system", rows.iter().map(|_| self.counter.name.as_str()))
            .str(
                "ramp",
                rows.iter().map(|(_, r, _)| self.betting.ramp_text(*r)),
            )
            .f64("penetration", rows.iter().map(|_| self.play.penetration))
            .u64("hands", rows.iter().map(|_| self.play.hands as u64))
            .u64("others", rows.iter().map(|_| self.play.others as u64))
            .i32_or_null("wong_out", rows.iter().map(|_| self.play.wong_out))
            .i32_or_null("insure_from", rows.iter().map(|_| self.play.insure_from))
            .u64(
                "index_plays",
                rows.iter().map(|_| self.play.rules.len() as u64),
            )
            .u64("rounds", rows.iter().map(|(_, _, c)| c.rounds))
            .f64("win_rate", rows.iter().map(|(_, _, c)| c.win_rate.0))
            .f64("win_rate_se", rows.iter().map(|(_, _, c)| c.win_rate.1))
            .f64("sd", rows.iter().map(|(_, _, c)| c.sd))
            .f64_or_null("sd_se", rows.iter().map(|(_, _, c)| nan_null(c.errors.sd)))
            .f64("mean_bet", rows.iter().map(|(_, _, c)| c.mean_bet))
            .f64_or_null(
                "mean_bet_se",
                rows.iter().map(|(_, _, c)| nan_null(c.errors.mean_bet)),
            )
            .f64("score", rows.iter().map(|(_, _, c)| c.score.0))
            .f64("score_se", rows.iter().map(|(_, _, c)| c.score.1))
            .f64("n0", rows.iter().map(|(_, _, c)| c.n0))
            .f64_or_null("n0_se", rows.iter().map(|(_, _, c)| nan_null(c.errors.n0)))
            .f64("bankroll", rows.iter().map(|_| self.betting.bankroll))
            .f64("risk_of_ruin", rows.iter().map(|(_, _, c)| c.risk_of_ruin))
            .f64_or_null(
                "risk_of_ruin_se",
                rows.iter().map(|(_, _, c)| nan_null(c.errors.risk_of_ruin)),
            )
            .u64("trip_rounds", rows.iter().map(|_| self.betting.trip_rounds))
            .u64("trips", rows.iter().map(|(_, _, c)| c.trips))
            .f64_or_null(
                "ruin_in_trip",
                rows.iter().map(|(_, _, c)| nan_null(c.ruin_in_trip.0)),
            )
            .f64_or_null(
                "ruin_in_trip_se",
                rows.iter().map(|(_, _, c)| nan_null(c.ruin_in_trip.1)),
            )
            .f64(
                "ruin_in_trip_formula",
                rows.iter().map(|(_, _, c)| c.ruin_in_trip_formula),
            )
            .f64_or_null(
                "ruin_in_trip_formula_se",
                rows.iter()
                    .map(|(_, _, c)| nan_null(c.errors.ruin_in_trip_formula)),
            )
            .f64("ruin_goal", rows.iter().map(|_| self.betting.ruin_goal))
            .u64(
                "session_rounds",
                rows.iter().map(|_| self.betting.session_rounds),
            )
            .u64("sessions", rows.iter().map(|(_, _, c)| c.sessions))
            .u64("session_caps", rows.iter().map(|(_, _, c)| c.session_caps))
            .f64_or_null(
                "ruin_simulated",
                rows.iter().map(|(_, _, c)| nan_null(c.ruin_simulated.0)),
            )
            .f64_or_null(
                "ruin_simulated_se",
                rows.iter().map(|(_, _, c)| nan_null(c.ruin_simulated.1)),
            )
            .f64(
                "ruin_beyond_goal",
                rows.iter().map(|(_, _, c)| c.ruin_beyond_goal),
            )
            .f64_or_null(
                "ruin_beyond_goal_se",
                rows.iter()
                    .map(|(_, _, c)| nan_null(c.errors.ruin_beyond_goal)),
            )
            .u64("shoes_left", rows.iter().map(|(_, _, c)| c.shoes_left))
            .batch()?;
        Ok(ParquetOutput {
            file: "counter.parquet".into(),
            batches: vec![batch].into(),
            plain_columns: vec![],
        })
    }

    /// `counter_by_count.parquet`: one row per rule set and count of the range.
    pub fn by_count_table(&self) -> anyhow::Result<ParquetOutput> {
        let mut rows = Vec::new();
        // The result by count is the hands', the same for every ramp.
        for (set, k) in self.results.iter().filter_map(|r| r.first()).enumerate() {
            for (i, &(rounds, ev, se)) in k.by_count.iter().enumerate() {
                let (share, share_se) = k.frequency(i);
                rows.push((
                    set,
                    self.counter.low + i as i32,
                    rounds,
                    ev,
                    se,
                    share,
                    share_se,
                ));
            }
        }
        let nan_null = |x: f64| Some(x).filter(|x| !x.is_nan());
        let batch = Columns::new()
            .str("rule_set", rows.iter().map(|r| self.sets[r.0].id.as_str()))
            .str("system", rows.iter().map(|_| self.counter.name.as_str()))
            .i32("count", rows.iter().map(|r| r.1))
            .u64("rounds", rows.iter().map(|r| r.2))
            .f64("frequency", rows.iter().map(|r| r.5))
            .f64_or_null("frequency_se", rows.iter().map(|r| nan_null(r.6)))
            .f64_or_null("ev", rows.iter().map(|r| nan_null(r.3)))
            .f64_or_null("ev_se", rows.iter().map(|r| nan_null(r.4)))
            .batch()?;
        Ok(ParquetOutput {
            file: "counter_by_count.parquet".into(),
            batches: vec![batch].into(),
            plain_columns: vec![],
        })
    }
}
