//! The outputs of the Hold'em jobs as Arrow batches: `preflop.parquet` and
//! `preflop_combos.parquet`, `headsup.parquet` and `matchups.parquet`, and the rows of
//! `multiway.parquet`.

use arrow_array::RecordBatch;
use cardtables::Card;

use super::classes::{class_name, class_of, combos, CLASSES};
use super::matchup::{ClassMatrix, MatchupResult};
use super::sweep::DEALS_PER_COMBO;
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
