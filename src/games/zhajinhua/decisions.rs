//! The EV decision model over a grid of situations, and the raise-size EV curve.
//!
//! The model is the corrected one of `docs/rules/zhajinhua.md`, implemented once in `cardtables::decision` and
//! shared by every game; this module only lays it out as tables and a chart.

use arrow_array::RecordBatch;
use cardtables::decision::{
    ev_call, ev_compare, ev_raise, ev_raise_article, half_kelly, kelly, required_equity, Style,
    EV_FOLD,
};

use crate::sink::columns::Columns;
/// Equities on the grid.
pub const EQUITIES: [f64; 9] = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
/// Pots (before our decision, including the opponent's bet).
pub const POTS: [f64; 3] = [50.0, 100.0, 200.0];
/// Amounts to call.
pub const CALLS: [f64; 3] = [10.0, 20.0, 50.0];
/// Raise-to amounts as multiples of the call.
pub const RAISE_MULTIPLES: [f64; 3] = [2.0, 3.0, 5.0];
/// Opponent fold rates against a raise.
pub const FOLD_RATES: [f64; 4] = [0.0, 0.1, 0.25, 0.5];

/// One priced situation.
struct Row {
    equity: f64,
    pot: f64,
    call: f64,
    raise_to: f64,
    fold: f64,
    evs: [(&'static str, f64); 4],
}

impl Row {
    fn new(equity: f64, pot: f64, call: f64, raise_to: f64, fold: f64) -> Row {
        Row {
            equity,
            pot,
            call,
            raise_to,
            fold,
            evs: [
                ("fold", EV_FOLD),
                ("call", ev_call(equity, pot, call)),
                ("raise", ev_raise(equity, pot, call, raise_to, fold)),
                // Comparing costs what calling costs; heads-up, equity is the win share.
                ("compare", ev_compare(equity, pot, call)),
            ],
        }
    }

    /// The best action a style takes: the highest-EV action it accepts, else fold.
    fn choice(&self, style: Style) -> &'static str {
        let fold = style.fold_rate(self.fold);
        let priced = Row::new(self.equity, self.pot, self.call, self.raise_to, fold);
        priced.evs[1..]
            .iter()
            .filter(|(_, ev)| style.accepts(*ev, self.pot))
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map_or("fold", |(name, _)| *name)
    }

    fn best(&self) -> &'static str {
        self.evs
            .iter()
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(name, _)| *name)
            .expect("four actions")
    }
}

/// `decisions.parquet`: every grid point with each action's EV, the best action, what each
/// style would do, the required equity and the Kelly fractions of the call.
pub fn grid_batch() -> anyhow::Result<RecordBatch> {
    let mut rows = Vec::new();
    for &equity in &EQUITIES {
        for &pot in &POTS {
            for &call in &CALLS {
                for &m in &RAISE_MULTIPLES {
                    for &fold in &FOLD_RATES {
                        rows.push(Row::new(equity, pot, call, m * call, fold));
                    }
                }
            }
        }
    }
    let r = &rows;
    Columns::new()
        .f64("equity", r.iter().map(|r| r.equity))
        .f64("pot", r.iter().map(|r| r.pot))
        .f64("call", r.iter().map(|r| r.call))
        .f64("raise_to", r.iter().map(|r| r.raise_to))
        .f64("fold_rate", r.iter().map(|r| r.fold))
        .f64("ev_fold", r.iter().map(|r| r.evs[0].1))
        .f64("ev_call", r.iter().map(|r| r.evs[1].1))
        .f64("ev_raise", r.iter().map(|r| r.evs[2].1))
        .f64(
            "ev_raise_article_formula",
            r.iter()
                .map(|r| ev_raise_article(r.equity, r.pot, r.raise_to, r.fold)),
        )
        .f64("ev_compare", r.iter().map(|r| r.evs[3].1))
        .str("best_action", r.iter().map(|r| r.best()))
        .str("tight_action", r.iter().map(|r| r.choice(Style::Tight)))
        .str("loose_action", r.iter().map(|r| r.choice(Style::Loose)))
        .str("steady_action", r.iter().map(|r| r.choice(Style::Steady)))
        .f64(
            "required_equity",
            r.iter().map(|r| required_equity(r.pot, r.call)),
        )
        .f64("kelly", r.iter().map(|r| kelly(r.pot / r.call, r.equity)))
        .f64(
            "half_kelly",
            r.iter().map(|r| half_kelly(r.pot / r.call, r.equity)),
        )
        .batch()
}

/// Fold rate against a raise to `raise_to`: grows with the raise relative to the pot and
/// saturates at `max`. The tutorial argues fold rates rise with the raise; this is the
/// simplest such model, stated in the report.
pub fn fold_rate(raise_to: f64, call: f64, pot: f64, max: f64) -> f64 {
    let extra = (raise_to - call).max(0.0);
    max * extra / (extra + pot)
}

/// The raise-size EV curve of one hand: `(raise_to, fold_rate, corrected EV, the article's EV)`.
pub fn raise_curve(equity: f64, pot: f64, call: f64, max_fold: f64) -> Vec<(f64, f64, f64, f64)> {
    (0..=100)
        .map(|i| {
            let r = call + (5.0 * pot - call) * f64::from(i) / 100.0;
            let f = fold_rate(r, call, pot, max_fold);
            (
                r,
                f,
                ev_raise(equity, pot, call, r, f),
                ev_raise_article(equity, pot, r, f),
            )
        })
        .collect()
}

/// The raise that maximises a curve's column (`2` corrected, `3` the article's formula).
pub fn peak(curve: &[(f64, f64, f64, f64)], article: bool) -> (f64, f64) {
    curve
        .iter()
        .map(|p| (p.0, if article { p.3 } else { p.2 }))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .expect("non-empty curve")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_covers_every_combination_and_picks_the_max() {
        let batch = grid_batch().unwrap();
        assert_eq!(batch.num_rows(), 9 * 3 * 3 * 3 * 4);
        // At equity 0.1 against a big call, folding is best; at 0.9 raising is.
        let weak = Row::new(0.1, 50.0, 50.0, 100.0, 0.0);
        assert_eq!(weak.best(), "fold");
        let strong = Row::new(0.9, 100.0, 20.0, 100.0, 0.1);
        assert_eq!(strong.best(), "raise");
        assert_eq!(strong.choice(Style::Tight), "raise");
    }

    #[test]
    fn raise_curve_peaks_inside_for_a_weak_hand() {
        let curve = raise_curve(0.35, 100.0, 20.0, 0.6);
        let (at, ev) = peak(&curve, false);
        assert!(at > 20.0 && at < 500.0, "peak at {at}");
        assert!(ev > curve[0].2 && ev > curve[100].2);
        // With equity above 1/2 the corrected EV only grows with the raise.
        let strong = raise_curve(0.8, 100.0, 20.0, 0.6);
        assert_eq!(peak(&strong, false).0, strong[100].0);
    }
}
