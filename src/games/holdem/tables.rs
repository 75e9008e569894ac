//! The outputs of the Hold'em jobs as Arrow batches: `preflop.parquet` and
//! `preflop_combos.parquet`, `headsup.parquet` and `matchups.parquet`, the rows of
//! `multiway.parquet`, and push/fold's `pushfold.parquet`, `thresholds.parquet`,
//! `summary.parquet` and runtime payload, the three-way `threeway.parquet` and runtime
//! payload, and three-handed push/fold's `pushfold3.parquet` and `summary.parquet`.

use std::path::Path;

use anyhow::Context;
use arrow_array::RecordBatch;
use cardtables::Card;

use super::classes::{class_name, class_of, combos, CLASSES};
use super::matchup::{ClassMatrix, MatchupResult};
use super::pushfold::{charted, intervals, range_share, Equilibrium};
use super::pushfold3::{Decision, SolvedSpot, BB, BTN, SB};
use super::rules::StackGrid;
use super::sweep::DEALS_PER_COMBO;
use super::threeway::{TripleResult, BOARDS as THREEWAY_BOARDS, ORDER_NAMES};
use crate::cards::matchups::{two_cards, Matchup};
use crate::sink::columns::Columns;

/// `preflop.parquet`: every class against one random hand, exact.
pub(super) fn preflop_batch(
    wins: &[u64],
    ties: &[u64],
    deals: &[u64],
) -> anyhow::Result<RecordBatch> {
    let equity = |c: usize| (wins[c] as f64 + ties[c] as f64 / 2.0) / deals[c] as f64;
    Columns::new()
        .str("class", (0..CLASSES).map(class_name))
        .u8("combos", (0..CLASSES).map(|c| combos(c) as u8))
        .u8("opponents", [1u8; CLASSES])
        .u64("wins", wins.iter().copied())
        .u64("ties", ties.iter().copied())
        .u64("losses", (0..CLASSES).map(|c| deals[c] - wins[c] - ties[c]))
        .u64("deals", deals.iter().copied())
        .f64(
            "win",
            (0..CLASSES).map(|c| wins[c] as f64 / deals[c] as f64),
        )
        .f64(
            "tie",
            (0..CLASSES).map(|c| ties[c] as f64 / deals[c] as f64),
        )
        .f64("equity", (0..CLASSES).map(equity))
        .f64("std_error", [0.0; CLASSES])
        .str("method", ["exact"; CLASSES])
        .u64("trials", [0u64; CLASSES])
        .batch()
}

/// `preflop_combos.parquet`: every one of the 1,326 combos has its class's results
/// exactly (suit symmetry).
pub(super) fn combos_batch(
    wins: &[u64],
    ties: &[u64],
    deals: &[u64],
) -> anyhow::Result<RecordBatch> {
    let equity = |c: usize| (wins[c] as f64 + ties[c] as f64 / 2.0) / deals[c] as f64;
    let (mut combo, mut class, mut cw, mut ct, mut ce) = (vec![], vec![], vec![], vec![], vec![]);
    for a in 0..52u8 {
        for b in a + 1..52 {
            let (x, y) = (Card::from_id(b).expect("id"), Card::from_id(a).expect("id"));
            let c = class_of(x, y);
            let n = u64::from(combos(c));
            combo.push(crate::cards::text(&[x, y]));
            class.push(class_name(c));
            cw.push(wins[c] / n);
            ct.push(ties[c] / n);
            ce.push(equity(c));
        }
    }
    Columns::new()
        .str("cards", combo)
        .str("class", class)
        .u64("wins", cw)
        .u64("ties", ct)
        .u64("deals", [DEALS_PER_COMBO; 1326])
        .f64("equity", ce)
        .batch()
}

/// `matchups.parquet`: every matchup class with its exact result.
pub(super) fn matchups_batch(
    matchups: &[Matchup],
    results: &[MatchupResult],
) -> anyhow::Result<RecordBatch> {
    let text = |i: u16| crate::cards::text(&two_cards(i));
    let class = |i: u16| {
        let [x, y] = two_cards(i);
        class_of(x, y)
    };
    Columns::new()
        .str("cards_a", matchups.iter().map(|m| text(m.a)))
        .str("cards_b", matchups.iter().map(|m| text(m.b)))
        .str("class_a", matchups.iter().map(|m| class_name(class(m.a))))
        .str("class_b", matchups.iter().map(|m| class_name(class(m.b))))
        .u32("matchups", matchups.iter().map(|m| u32::from(m.weight)))
        .u64("wins", results.iter().map(|r| r.wins))
        .u64("ties", results.iter().map(|r| r.ties))
        .u64("losses", results.iter().map(|r| r.losses()))
        .u64("boards", results.iter().map(|r| r.deals))
        .f64("equity_a", results.iter().map(MatchupResult::equity))
        .batch()
}

/// Every (class a, class b) cell of the 169 × 169 matrix, row by row.
pub(super) fn class_cells() -> Vec<(usize, usize)> {
    (0..CLASSES)
        .flat_map(|a| (0..CLASSES).map(move |b| (a, b)))
        .collect()
}

/// `headsup.parquet`: the 169 × 169 class matrix.
pub(super) fn headsup_batch(matrix: &ClassMatrix) -> anyhow::Result<RecordBatch> {
    let cells = class_cells();
    Columns::new()
        .str("class_a", cells.iter().map(|&(a, _)| class_name(a)))
        .str("class_b", cells.iter().map(|&(_, b)| class_name(b)))
        .u64("wins", matrix.wins.iter().copied())
        .u64("ties", matrix.ties.iter().copied())
        .u64(
            "losses",
            (0..cells.len()).map(|i| matrix.deals[i] - matrix.wins[i] - matrix.ties[i]),
        )
        .u64("boards", matrix.deals.iter().copied())
        .f64("equity_a", cells.iter().map(|&(a, b)| matrix.equity(a, b)))
        .batch()
}

/// The table's rows, column by column.
#[derive(Default)]
pub(super) struct Rows {
    pub(super) class: Vec<usize>,
    pub(super) opponents: Vec<u8>,
    pub(super) wins: Vec<u64>,
    pub(super) ties: Vec<u64>,
    pub(super) deals: Vec<u64>,
    pub(super) win: Vec<f64>,
    pub(super) tie: Vec<f64>,
    pub(super) equity: Vec<f64>,
    pub(super) std_error: Vec<f64>,
    pub(super) method: Vec<&'static str>,
    pub(super) trials: Vec<u64>,
}

impl Rows {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn push(
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

    /// `multiway.parquet`.
    pub(super) fn batch(&self) -> anyhow::Result<RecordBatch> {
        let losses = self
            .deals
            .iter()
            .zip(&self.wins)
            .zip(&self.ties)
            .map(|((d, w), t)| d - w - t);
        Columns::new()
            .str("class", self.class.iter().map(|&c| class_name(c)))
            .u8("combos", self.class.iter().map(|&c| combos(c) as u8))
            .u8("opponents", self.opponents.iter().copied())
            .u64("wins", self.wins.iter().copied())
            .u64("ties", self.ties.iter().copied())
            .u64("losses", losses)
            .u64("deals", self.deals.iter().copied())
            .f64("win", self.win.iter().copied())
            .f64("tie", self.tie.iter().copied())
            .f64("equity", self.equity.iter().copied())
            .f64("std_error", self.std_error.iter().copied())
            .str("method", self.method.iter().copied())
            .u64("trials", self.trials.iter().copied())
            .batch()
    }
}

/// `pushfold.parquet`: both players' equilibrium frequency and EVs for every class at
/// every stack, stack by stack.
pub(super) fn pushfold_batch(solutions: &[Equilibrium]) -> anyhow::Result<RecordBatch> {
    let each = |f: &dyn Fn(&Equilibrium, usize) -> f64| -> Vec<f64> {
        solutions
            .iter()
            .flat_map(|e| (0..CLASSES).map(move |c| (e, c)))
            .map(|(e, c)| f(e, c))
            .collect()
    };
    let rows = solutions.len() * CLASSES;
    Columns::new()
        .f64("stack", each(&|e, _| e.stakes.stack))
        .f64("ante", each(&|e, _| e.stakes.ante))
        .str("class", (0..rows).map(|i| class_name(i % CLASSES)))
        .u8("combos", (0..rows).map(|i| combos(i % CLASSES) as u8))
        .f64("push_freq", each(&|e, c| e.push[c]))
        .f64("call_freq", each(&|e, c| e.call[c]))
        .f64("ev_push_bb", each(&|e, c| e.evaluation.ev_push[c]))
        .f64("ev_fold_bb", each(&|e, _| e.stakes.sb_fold()))
        .f64("ev_call_bb", each(&|e, c| e.evaluation.ev_call[c]))
        .f64("push_margin_bb", each(&|e, c| e.push_margin(c)))
        .f64("call_margin_bb", each(&|e, c| e.call_margin(c)))
        .batch()
}

/// A player's frequency of playing class c in a solution.
pub(super) type Frequency = fn(&Equilibrium, usize) -> f64;

/// The two roles of `thresholds.parquet`: (name, frequency).
pub(super) const ROLES: [(&str, Frequency); 2] =
    [("sb_push", |e, c| e.push[c]), ("bb_call", |e, c| e.call[c])];

/// `thresholds.parquet`: for each class and role, every interval of stacks where the
/// chart plays the hand (at least half the time, [`charted`]), one row each, with the
/// largest such stack and the largest stack played at any frequency; a hand the chart
/// never plays has one row with interval 0 and nulls.
pub(super) fn thresholds_batch(
    grid: &StackGrid,
    solutions: &[Equilibrium],
) -> anyhow::Result<RecordBatch> {
    let (mut class, mut role, mut max_stack, mut interval, mut from, mut to) =
        (vec![], vec![], vec![], vec![], vec![], vec![]);
    let mut max_any = vec![];
    for c in 0..CLASSES {
        for (name, freq) in ROLES {
            let runs = intervals(grid.count, |k| charted(freq(&solutions[k], c)));
            let top = runs.last().map(|&(_, last)| grid.stack(last));
            let any = (0..grid.count)
                .rev()
                .find(|&k| freq(&solutions[k], c) > 0.0)
                .map(|k| grid.stack(k));
            let rows: Vec<(u32, Option<f64>, Option<f64>)> = if runs.is_empty() {
                vec![(0, None, None)]
            } else {
                runs.iter()
                    .zip(1..)
                    .map(|(&(a, b), i)| (i, Some(grid.stack(a)), Some(grid.stack(b))))
                    .collect()
            };
            for (i, a, b) in rows {
                class.push(class_name(c));
                role.push(name);
                max_stack.push(top);
                max_any.push(any);
                interval.push(i);
                from.push(a);
                to.push(b);
            }
        }
    }
    Columns::new()
        .str("class", class)
        .str("role", role)
        .f64_or_null("max_stack", max_stack)
        .f64_or_null("max_stack_any", max_any)
        .u32("interval", interval)
        .f64_or_null("from_stack", from)
        .f64_or_null("to_stack", to)
        .batch()
}

/// `summary.parquet`: one row per stack; `unique` from [`Equilibrium::unique`].
pub(super) fn summary_batch(
    solutions: &[Equilibrium],
    unique: &[bool],
) -> anyhow::Result<RecordBatch> {
    let each = |f: &dyn Fn(&Equilibrium) -> f64| solutions.iter().map(f).collect::<Vec<f64>>();
    Columns::new()
        .f64("stack", each(&|e| e.stakes.stack))
        .f64("ante", each(&|e| e.stakes.ante))
        .f64("sb_push_share", each(&|e| range_share(&e.push)))
        .f64("bb_call_share", each(&|e| range_share(&e.call)))
        .f64("sb_value_bb", each(&|e| e.evaluation.value))
        .f64(
            "exploitability_bb",
            each(&|e| e.evaluation.exploitability()),
        )
        .bool("unique_equilibrium", unique.iter().copied())
        .batch()
}

/// The runtime table's payload: every stack's strategies and EVs.
pub(super) fn pushfold_payload(
    rules: &str,
    ante: f64,
    grid: &StackGrid,
    solutions: &[Equilibrium],
) -> cardtables::pushfold::PushFoldPayload {
    let flat = |f: &dyn Fn(&Equilibrium) -> &[f64]| -> Vec<f64> {
        solutions
            .iter()
            .flat_map(|e| f(e).iter().copied())
            .collect()
    };
    cardtables::pushfold::PushFoldPayload {
        rules: rules.to_string(),
        ante,
        stack_min: grid.min,
        stack_step: grid.step,
        stacks: grid.stacks(),
        push: flat(&|e| &e.push),
        call: flat(&|e| &e.call),
        ev_push: flat(&|e| &e.evaluation.ev_push),
        ev_call: flat(&|e| &e.evaluation.ev_call),
        value: solutions.iter().map(|e| e.evaluation.value).collect(),
        exploitability: solutions
            .iter()
            .map(|e| e.evaluation.exploitability())
            .collect(),
    }
}

/// Rows per batch of a post-flop strength table.
const STRENGTH_ROWS_PER_BATCH: u64 = 1 << 16;

/// A post-flop strength table (`preflop.parquet` … `river.parquet`), one row per state in
/// index order, built batch by batch from the runtime payload while it is written.
pub(super) fn strength_batches(
    payload: std::sync::Arc<cardtables::holdem_strength::StrengthPayload>,
    ix: std::sync::Arc<cardtables::indexer::HoldemIndexer>,
) -> crate::sink::parquet::Batches {
    use super::postflop::{deals, FULL_SCORE, OPPONENT_HANDS, RIVER, RUNOUTS};
    let street = usize::from(payload.street);
    let states = cardtables::indexer::STATES[street];
    let count = states.div_ceil(STRENGTH_ROWS_PER_BATCH) as usize;
    // Row groups of 2¹⁷ rows: a turn row holds a 50-bin histogram, so a group of the usual
    // 2¹⁹ rows would hold 150 MB of Arrow data while it is encoded.
    crate::sink::parquet::Batches::streamed_in_groups(count, 1 << 17, move |b| {
        let start = b as u64 * STRENGTH_ROWS_PER_BATCH;
        let rows = start..(start + STRENGTH_ROWS_PER_BATCH).min(states);
        let n = (rows.end - rows.start) as usize;
        let (mut hole, mut board, mut dealt) = (
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
        );
        let mut class = Vec::new();
        for i in rows.clone() {
            let s = ix.unindex(street, i)?;
            hole.push(crate::cards::text(&s.hole));
            board.push(crate::cards::text(s.board()));
            dealt.push(deals(&s.hole, s.board()));
            if street == 0 {
                class.push(class_name(class_of(s.hole[0], s.hole[1])));
            }
        }
        let idx = |i: u64| i as usize;
        let mut columns = Columns::new().u64("index", rows.clone());
        if street == 0 {
            columns = columns.str("class", class);
        }
        columns = columns
            .str("hole", hole)
            .str("board", board)
            .u32("raw_deals", dealt);
        let full = f64::from(FULL_SCORE);
        if street == RIVER {
            let score =
                |i: u64| 2 * u32::from(payload.wins[idx(i)]) + u32::from(payload.ties[idx(i)]);
            columns = columns
                .u16("wins", rows.clone().map(|i| payload.wins[idx(i)]))
                .u16("ties", rows.clone().map(|i| payload.ties[idx(i)]))
                .u16(
                    "losses",
                    rows.clone().map(|i| {
                        (OPPONENT_HANDS
                            - u32::from(payload.wins[idx(i)])
                            - u32::from(payload.ties[idx(i)])) as u16
                    }),
                )
                .f64("hs", rows.map(|i| f64::from(score(i)) / full));
        } else {
            let runouts = RUNOUTS[street];
            let bins = payload.bins as usize;
            columns = columns
                .u64("runouts", std::iter::repeat_n(runouts, n))
                .u32("score_sum", rows.clone().map(|i| payload.sum[idx(i)]))
                .u64("score_sq_sum", rows.clone().map(|i| payload.sum_sq[idx(i)]))
                .f64(
                    "ehs",
                    rows.clone()
                        .map(|i| f64::from(payload.sum[idx(i)]) / (runouts as f64 * full)),
                )
                .f64(
                    "ehs2",
                    rows.clone()
                        .map(|i| payload.sum_sq[idx(i)] as f64 / (runouts as f64 * full * full)),
                )
                .counts_list(
                    "histogram",
                    bins,
                    rows.flat_map(|i| (0..bins).map(move |k| idx(i) * bins + k))
                        .map(|cell| payload.count(cell)),
                );
        }
        columns.batch()
    })
}

/// `threeway.parquet`: one row per triple of covered classes (the impossible ones, as
/// AA AA AA, with 0 deals and null equities), classes in increasing class index.
pub(super) fn threeway_batch(results: &[TripleResult]) -> anyhow::Result<RecordBatch> {
    let name = |s: usize| {
        results
            .iter()
            .map(move |r| class_name(usize::from(r.classes[s])))
    };
    let count = |f: fn(&TripleResult) -> [u64; 3], s: usize| results.iter().map(move |r| f(r)[s]);
    let equity = |s: usize| {
        results
            .iter()
            .map(move |r| (r.deals > 0).then_some(r.equity[s]))
    };
    let columns = Columns::new()
        .str("class_a", name(0))
        .str("class_b", name(1))
        .str("class_c", name(2))
        .f64_or_null("equity_a", equity(0))
        .f64_or_null("equity_b", equity(1))
        .f64_or_null("equity_c", equity(2))
        .u64("wins_a", count(|r| r.wins, 0))
        .u64("wins_b", count(|r| r.wins, 1))
        .u64("wins_c", count(|r| r.wins, 2))
        .u64("ties_a", count(|r| r.ties, 0))
        .u64("ties_b", count(|r| r.ties, 1))
        .u64("ties_c", count(|r| r.ties, 2))
        .u32("combos", results.iter().map(|r| r.deals))
        .u64(
            "showdowns",
            results.iter().map(|r| u64::from(r.deals) * THREEWAY_BOARDS),
        );
    // The job computes every order count (`None` only comes from reading an old table).
    ORDER_NAMES
        .iter()
        .enumerate()
        .fold(columns, |c, (o, name)| {
            c.u64(
                name,
                results.iter().map(move |r| r.orders.map_or(0, |x| x[o])),
            )
        })
        .batch()
}

/// The three-way runtime payload: per triple in storage order, its deals and equities.
pub(super) fn threeway_payload(
    classes: &[u8],
    results: &[TripleResult],
    rules: &str,
) -> cardtables::holdem_threeway::ThreeWayPayload {
    cardtables::holdem_threeway::ThreeWayPayload {
        rules: rules.to_string(),
        classes: classes.to_vec(),
        deals: results.iter().map(|r| r.deals).collect(),
        equity: results.iter().flat_map(|r| r.equity).collect(),
    }
}

/// The payoff model's name in the three-handed tables.
pub(super) fn payoff_name(s: &SolvedSpot) -> &'static str {
    if s.spot.payouts.is_some() {
        "icm"
    } else {
        "chip_ev"
    }
}

/// `pushfold3.parquet`: per spot, decision and covered class, the frequency of pushing or
/// calling, each action's EV where the decision is reached, and how often it is.
pub(super) fn pushfold3_batch(classes: &[u8], spots: &[SolvedSpot]) -> anyhow::Result<RecordBatch> {
    let rows: Vec<(&SolvedSpot, Decision, usize)> = spots
        .iter()
        .flat_map(|s| {
            Decision::ALL
                .into_iter()
                .flat_map(move |d| (0..classes.len()).map(move |k| (s, d, k)))
        })
        .collect();
    let ev = |act: bool| {
        rows.iter().map(move |&(s, d, k)| {
            let (a, f) = s.solution.values.ev(d, k);
            let v = if act { a } else { f };
            v.is_finite().then_some(v)
        })
    };
    let seat = |d: Decision| ["btn", "sb", "bb"][d.seat()];
    Columns::new()
        .f64("btn_stack_bb", rows.iter().map(|r| r.0.spot.stacks[BTN]))
        .f64("sb_stack_bb", rows.iter().map(|r| r.0.spot.stacks[SB]))
        .f64("bb_stack_bb", rows.iter().map(|r| r.0.spot.stacks[BB]))
        .str("payoff", rows.iter().map(|r| payoff_name(r.0)))
        .str("seat", rows.iter().map(|r| seat(r.1)))
        .str("decision", rows.iter().map(|r| r.1.name()))
        .str(
            "class",
            rows.iter().map(|r| class_name(usize::from(classes[r.2]))),
        )
        .f64(
            "frequency",
            rows.iter()
                .map(|&(s, d, k)| s.solution.strategy[d as usize][k]),
        )
        .f64_or_null("ev_act", ev(true))
        .f64_or_null("ev_fold", ev(false))
        .f64(
            "p_faced",
            rows.iter().map(|&(s, d, k)| s.solution.faced(d, k)),
        )
        .batch()
}

/// The three-handed `summary.parquet`: per spot, each decision's range (a share of the
/// hands dealt), each seat's
/// value and best-response gain, the exploitability, and the solver's work.
pub(super) fn pushfold3_summary_batch(spots: &[SolvedSpot]) -> anyhow::Result<RecordBatch> {
    let range = |d: Decision| spots.iter().map(move |s| s.solution.range(d));
    let value = |seat: usize| spots.iter().map(move |s| s.solution.values.value[seat]);
    let gain = |seat: usize| spots.iter().map(move |s| s.solution.gains[seat]);
    Columns::new()
        .f64("btn_stack_bb", spots.iter().map(|s| s.spot.stacks[BTN]))
        .f64("sb_stack_bb", spots.iter().map(|s| s.spot.stacks[SB]))
        .f64("bb_stack_bb", spots.iter().map(|s| s.spot.stacks[BB]))
        .str("payoff", spots.iter().map(payoff_name))
        .f64("btn_push_share", range(Decision::BtnPush))
        .f64("sb_push_share", range(Decision::SbPush))
        .f64("sb_call_share", range(Decision::SbCall))
        .f64("bb_call_sb_share", range(Decision::BbCallSb))
        .f64("bb_call_btn_share", range(Decision::BbCallBtn))
        .f64("bb_call_both_share", range(Decision::BbCallBoth))
        .f64("value_btn", value(BTN))
        .f64("value_sb", value(SB))
        .f64("value_bb", value(BB))
        .f64("gain_btn", gain(BTN))
        .f64("gain_sb", gain(SB))
        .f64("gain_bb", gain(BB))
        .f64(
            "exploitability",
            spots.iter().map(|s| s.solution.exploitability),
        )
        .f64(
            "exploitability_bb",
            spots
                .iter()
                .map(|s| s.solution.exploitability / s.spot.bb_value()),
        )
        .u32(
            "iterations",
            spots.iter().map(|s| s.solution.iterations as u32),
        )
        .u32(
            "newton_steps",
            spots.iter().map(|s| s.solution.newton_steps as u32),
        )
        .batch()
}

/// The runtime payload of `pushfold3.bin`: every spot's strategies, EVs (0 where a
/// decision cannot be reached), chances, values and certificate.
pub(super) fn pushfold3_payload(
    rules: &str,
    ante: f64,
    classes: &[u8],
    payouts: Option<&[f64]>,
    spots: &[SolvedSpot],
) -> cardtables::pushfold3::PushFold3Payload {
    let cells = || {
        spots.iter().flat_map(|s| {
            Decision::ALL
                .into_iter()
                .flat_map(move |d| (0..classes.len()).map(move |k| (s, d, k)))
        })
    };
    let ev = |act: bool| -> Vec<f64> {
        cells()
            .map(|(s, d, k)| {
                let (a, f) = s.solution.values.ev(d, k);
                let v = if act { a } else { f };
                if v.is_finite() {
                    v
                } else {
                    0.0
                }
            })
            .collect()
    };
    cardtables::pushfold3::PushFold3Payload {
        rules: rules.to_string(),
        ante,
        classes: classes.to_vec(),
        payouts: payouts.map(<[f64]>::to_vec).unwrap_or_default(),
        stacks: spots.iter().flat_map(|s| s.spot.stacks).collect(),
        icm: spots
            .iter()
            .map(|s| u8::from(s.spot.payouts.is_some()))
            .collect(),
        frequency: cells()
            .map(|(s, d, k)| s.solution.strategy[d as usize][k])
            .collect(),
        ev_act: ev(true),
        ev_fold: ev(false),
        faced: cells().map(|(s, d, k)| s.solution.faced(d, k)).collect(),
        value: spots.iter().flat_map(|s| s.solution.values.value).collect(),
        exploitability: spots.iter().map(|s| s.solution.exploitability).collect(),
        bb_value: spots.iter().map(|s| s.spot.bb_value()).collect(),
    }
}

/// Most rows a `threeway.parquet` may hold: one per triple of the 169 classes.
const THREEWAY_MAX_ROWS: i64 = 818_805;

/// Largest `threeway.parquet` read back (the full table is about 40 MB).
const THREEWAY_MAX_BYTES: u64 = 1 << 30;

/// The results of `triples` (in their order) read back from a finished `holdem.threeway`
/// job's `threeway.parquet`, each checked against the bounds of [`super::threeway::check`]
/// and its deals against a direct count. A file that is not such a table, lacks a triple,
/// holds one twice or holds impossible counts is an error naming the file and the row.
pub(super) fn read_threeway(
    path: &Path,
    triples: &[[u8; 3]],
    need_orders: bool,
) -> anyhow::Result<Vec<TripleResult>> {
    let shown = path.display();
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    // The Parquet decoder panics on some damaged inputs: such a file is an error too.
    let read = std::panic::catch_unwind(|| read_threeway_rows(path, triples, need_orders));
    std::panic::set_hook(hook);
    read.unwrap_or_else(|_| {
        Err(anyhow::anyhow!(
            "the Parquet decoder failed on a damaged page"
        ))
    })
    .with_context(|| format!("{shown}: not a usable holdem.threeway table"))
}

fn read_threeway_rows(
    path: &Path,
    triples: &[[u8; 3]],
    need_orders: bool,
) -> anyhow::Result<Vec<TripleResult>> {
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Float64Type, Int64Type};
    use arrow_array::Array;
    use parquet::arrow::arrow_reader::{ArrowReaderOptions, ParquetRecordBatchReaderBuilder};
    use parquet::arrow::ProjectionMask;

    let file = std::fs::File::open(path)?;
    let bytes = file.metadata()?.len();
    anyhow::ensure!(
        bytes <= THREEWAY_MAX_BYTES,
        "{bytes} bytes, more than any three-way table ({THREEWAY_MAX_BYTES} at most)"
    );
    // The embedded Arrow schema is not needed (the columns' Parquet types suffice) and is
    // not trusted.
    let options = ArrowReaderOptions::new().with_skip_arrow_metadata(true);
    let builder = ParquetRecordBatchReaderBuilder::try_new_with_options(file, options)?;
    let meta = builder.metadata().file_metadata();
    let kind = meta
        .key_value_metadata()
        .and_then(|kv| kv.iter().find(|e| e.key == "pipeline.kind"))
        .and_then(|e| e.value.clone());
    anyhow::ensure!(
        kind.as_deref() == Some("holdem.threeway"),
        "written by a {} job, not holdem.threeway",
        kind.as_deref().unwrap_or("unknown")
    );
    let rows = meta.num_rows();
    anyhow::ensure!(
        (0..=THREEWAY_MAX_ROWS).contains(&rows),
        "{rows} rows, more than the {THREEWAY_MAX_ROWS} triples there are"
    );
    const COLUMNS: [&str; 13] = [
        "class_a", "class_b", "class_c", "equity_a", "equity_b", "equity_c", "wins_a", "wins_b",
        "wins_c", "ties_a", "ties_b", "ties_c", "combos",
    ];
    // A table written before the order counts existed has none: it serves equal stacks.
    let schema = builder.parquet_schema();
    let has_orders = (0..schema.num_columns()).any(|i| schema.column(i).name() == ORDER_NAMES[0]);
    anyhow::ensure!(
        has_orders || !need_orders,
        "it has no order counts (order_a_b_c, …), which unequal stacks need: it was written before holdem.threeway counted them; run holdem.threeway again"
    );
    let wanted = COLUMNS
        .iter()
        .chain(if has_orders { &ORDER_NAMES[..] } else { &[] })
        .copied();
    let mask = ProjectionMask::columns(schema, wanted);
    let reader = builder
        .with_projection(mask)
        .with_batch_size(8192)
        .build()?;

    // Where each wanted triple goes.
    let mut slot = std::collections::HashMap::with_capacity(triples.len());
    for (i, t) in triples.iter().enumerate() {
        slot.insert(*t, i);
    }
    let mut found: Vec<Option<TripleResult>> = vec![None; triples.len()];
    let masks = super::classes::combo_masks();
    let mut row = 0usize;
    for batch in reader {
        let batch = batch?;
        let column = |name: &str| {
            batch
                .column_by_name(name)
                .ok_or_else(|| anyhow::anyhow!("no column {name:?}"))
        };
        let names = [column("class_a")?, column("class_b")?, column("class_c")?];
        let names = names
            .iter()
            .map(|c| {
                c.as_string_opt::<i32>()
                    .ok_or_else(|| anyhow::anyhow!("class columns must be strings"))
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        let int = |name: &str| -> anyhow::Result<_> {
            column(name)?
                .as_primitive_opt::<Int64Type>()
                .ok_or_else(|| anyhow::anyhow!("column {name:?} must be 64-bit integers"))
        };
        let float = |name: &str| -> anyhow::Result<_> {
            column(name)?
                .as_primitive_opt::<Float64Type>()
                .ok_or_else(|| anyhow::anyhow!("column {name:?} must be 64-bit floats"))
        };
        let wins = [int("wins_a")?, int("wins_b")?, int("wins_c")?];
        let ties = [int("ties_a")?, int("ties_b")?, int("ties_c")?];
        let equity = [float("equity_a")?, float("equity_b")?, float("equity_c")?];
        let combos = int("combos")?;
        let orders = if has_orders {
            Some(
                ORDER_NAMES
                    .iter()
                    .map(|name| int(name))
                    .collect::<anyhow::Result<Vec<_>>>()?,
            )
        } else {
            None
        };
        for i in 0..batch.num_rows() {
            let at = row + i + 1;
            let class = |s: usize| -> anyhow::Result<u8> {
                let text = if names[s].is_valid(i) {
                    names[s].value(i)
                } else {
                    ""
                };
                cardtables::holdem::class_of_text(text)
                    .map(|c| c as u8)
                    .map_err(|_| anyhow::anyhow!("row {at}: {text:?} is not a class"))
            };
            let classes = [class(0)?, class(1)?, class(2)?];
            let Some(&k) = slot.get(&classes) else {
                continue;
            };
            let count = |a: &arrow_array::Int64Array| -> anyhow::Result<u64> {
                u64::try_from(a.value(i)).map_err(|_| anyhow::anyhow!("row {at}: a negative count"))
            };
            let deals = u32::try_from(count(combos)?)
                .map_err(|_| anyhow::anyhow!("row {at}: too many deals"))?;
            let r = TripleResult {
                classes,
                deals,
                wins: [count(wins[0])?, count(wins[1])?, count(wins[2])?],
                ties: [count(ties[0])?, count(ties[1])?, count(ties[2])?],
                equity: std::array::from_fn(|s| {
                    if equity[s].is_valid(i) {
                        equity[s].value(i)
                    } else {
                        0.0
                    }
                }),
                orders: match &orders {
                    Some(columns) => {
                        let mut o = [0u64; 13];
                        for (slot, column) in o.iter_mut().zip(columns) {
                            *slot = count(column)?;
                        }
                        Some(o)
                    }
                    None => None,
                },
            };
            let direct = super::threeway::deals(&masks, classes);
            anyhow::ensure!(
                r.deals == direct,
                "row {at}: {} deals for {}, which has {direct}",
                r.deals,
                triple_name(classes)
            );
            super::threeway::check(classes, &r).map_err(|e| anyhow::anyhow!("row {at}: {e}"))?;
            anyhow::ensure!(
                found[k].is_none(),
                "row {at}: {} a second time",
                triple_name(classes)
            );
            found[k] = Some(r);
        }
        row += batch.num_rows();
    }
    found
        .into_iter()
        .zip(triples)
        .map(|(r, &t)| {
            r.ok_or_else(|| {
                anyhow::anyhow!(
                    "no row for {} (run holdem.threeway with every class this job deals)",
                    triple_name(t)
                )
            })
        })
        .collect()
}

/// A triple of classes as text: `AA KK 72o`.
fn triple_name(classes: [u8; 3]) -> String {
    classes.map(|c| class_name(usize::from(c))).join(" ")
}
