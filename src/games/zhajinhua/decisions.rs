//! The EV decision model over a grid of situations, and the raise-size EV curve.
//!
//! The model is the corrected one of `docs/rules/zhajinhua.md`, implemented once in `cardtables::decision` and
//! shared by every game; this module only lays it out as tables and a chart.

use arrow_array::RecordBatch;
use cardtables::decision::{
    curved_fold, ev_call, ev_raise_article, ev_raise_vs_callers, required_equity, Betting, Style,
    EV_FOLD,
};

use super::rules::BettingRules;
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

/// Opponents as the grid prices them: seen (they have looked at their cards) or blind.
pub const OPPONENTS: [(&str, bool); 2] = [("seen", false), ("blind", true)];

/// One priced situation.
struct Row {
    equity: f64,
    pot: f64,
    call: f64,
    raise_to: f64,
    fold: f64,
    betting: Betting,
    evs: [(&'static str, f64); 4],
}

impl Row {
    fn new(equity: f64, pot: f64, call: f64, raise_to: f64, fold: f64, betting: Betting) -> Row {
        Row {
            equity,
            pot,
            call,
            raise_to,
            fold,
            betting,
            evs: [
                ("fold", EV_FOLD),
                ("call", ev_call(equity, pot, call)),
                ("raise", betting.ev_raise(equity, pot, call, raise_to, fold)),
                // Heads-up, equity is the share of the pot a comparison wins.
                (
                    "compare",
                    betting.ev_compare(equity, pot, betting.showdown_chips(call)),
                ),
            ],
        }
    }

    /// The best action a style takes: the highest-EV action it accepts, else fold.
    fn choice(&self, style: Style) -> &'static str {
        let fold = style.fold_rate(self.fold);
        let priced = Row::new(
            self.equity,
            self.pot,
            self.call,
            self.raise_to,
            fold,
            self.betting,
        );
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

/// `decisions.parquet`: every grid point, against seen and against blind opponents, with
/// each action's EV under the job's `[betting]`, the best action, what each style would do
/// and the required equity. Raises above the cap (`raise_cap` pots) are left out. (No
/// Kelly fraction: Kelly sizes a stake one chooses as a share of a bankroll, and a call's
/// size is fixed by the bet.)
pub fn grid_batch(stakes: &BettingRules) -> anyhow::Result<RecordBatch> {
    let mut rows = Vec::new();
    for (_, blind) in OPPONENTS {
        let betting = stakes.betting(blind);
        for &equity in &EQUITIES {
            for &pot in &POTS {
                for &call in &CALLS {
                    for &m in &RAISE_MULTIPLES {
                        if m * call > stakes.raise_cap * pot {
                            continue;
                        }
                        for &fold in &FOLD_RATES {
                            rows.push(Row::new(equity, pot, call, m * call, fold, betting));
                        }
                    }
                }
            }
        }
    }
    let r = &rows;
    let opponents = |b: &Betting| if b.opponents_blind { "blind" } else { "seen" };
    Columns::new()
        .str("caller_view", r.iter().map(|r| opponents(&r.betting)))
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
        .f64(
            "compare_cost",
            r.iter().map(|r| r.betting.showdown_chips(r.call)),
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
        .batch()
}

/// Raise-to amounts the curve tables and charts show: 101 from the call to `cap`.
pub fn curve_raises(call: f64, cap: f64) -> Vec<f64> {
    (0..=100)
        .map(|i| call + (cap - call) * f64::from(i) / 100.0)
        .collect()
}

/// One point of a hand's raise-size curve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CurvePoint {
    pub raise_to: f64,
    pub fold: f64,
    /// EV if the callers held random hands (equity against a random hand; the EV itself
    /// when the opponents play blind).
    pub ev_random_callers: f64,
    /// The calling range (the top share of hands), our equity against it and the EV with
    /// it.
    pub calling_share: f64,
    pub calling_equity: f64,
    pub ev: f64,
    /// The tutorial article's formula with the random-hand equity.
    pub ev_article: f64,
}

/// A hand's raise-size curve from the call to `cap` under the fold curve with limit
/// `max_fold`; `equity_vs` gives its equity against the top share of hands (1: a random
/// hand; `None` where that range cannot be dealt beside it).
pub fn raise_curve(
    pot: f64,
    call: f64,
    max_fold: f64,
    cap: f64,
    betting: &Betting,
    equity_vs: &dyn Fn(f64) -> Option<f64>,
) -> Vec<CurvePoint> {
    let w = equity_vs(1.0).unwrap_or(0.0);
    curve_raises(call, cap)
        .into_iter()
        .map(|r| {
            let f = curved_fold(r, call, pot, max_fold);
            let called = ev_raise_vs_callers(pot, call, r, max_fold, betting, equity_vs);
            CurvePoint {
                raise_to: r,
                fold: f,
                ev_random_callers: betting.ev_raise(w, pot, call, r, f),
                calling_share: called.calling_share,
                calling_equity: called.equity,
                ev: called.ev,
                ev_article: ev_raise_article(w, pot, r, f),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEEN: Betting = Betting::SEEN;

    #[test]
    fn grid_covers_every_combination_and_picks_the_max() {
        let batch = grid_batch(&BettingRules::default()).unwrap();
        assert_eq!(batch.num_rows(), 2 * 9 * 3 * 3 * 3 * 4);
        // At equity 0.1 against a big call, folding is best; at 0.9 raising is.
        let weak = Row::new(0.1, 50.0, 50.0, 100.0, 0.0, SEEN);
        assert_eq!(weak.best(), "fold");
        let strong = Row::new(0.9, 100.0, 20.0, 100.0, 0.1, SEEN);
        assert_eq!(strong.best(), "raise");
        assert_eq!(strong.choice(Style::Tight), "raise");
        // A cap of one pot keeps the raises-to (20, 30, 50, 40, 60, 100, 100, 150, 250)
        // at most the pot: 4 of 9 in a pot of 50, 7 in 100, 8 in 200.
        let capped = BettingRules {
            raise_cap: 1.0,
            ..BettingRules::default()
        };
        let kept: usize = POTS
            .iter()
            .map(|&p| {
                CALLS
                    .iter()
                    .flat_map(|&c| RAISE_MULTIPLES.map(|m| m * c))
                    .filter(|&r| r <= p)
                    .count()
            })
            .sum();
        assert_eq!(kept, 4 + 7 + 8);
        let batch = grid_batch(&capped).unwrap();
        assert_eq!(batch.num_rows(), 2 * 9 * kept * 4);
    }

    #[test]
    fn the_grid_prices_blind_opponents_and_the_showdown_cost_by_the_betting_table() {
        // Both pay a comparison of twice the call: with blind opponents (seen pays
        // double) equity 0.5 in a pot of 100 facing 20 gets 0.5·(100 + 40 + 20) − 40 = 40.
        let stakes = BettingRules {
            showdown_cost: 2.0,
            showdown_paid_by: super::super::rules::Payer::Both,
            ..BettingRules::default()
        };
        let row = Row::new(0.5, 100.0, 20.0, 60.0, 0.0, stakes.betting(true));
        assert!((row.evs[3].1 - 40.0).abs() < 1e-12);
        // Called without folds, a blind caller adds 20 to our 60: 0.5·180 − 60 = 30; a seen
        // one 40: 0.5·200 − 60 = 40.
        assert!((row.evs[2].1 - 30.0).abs() < 1e-12);
        let seen = Row::new(0.5, 100.0, 20.0, 60.0, 0.0, stakes.betting(false));
        assert!((seen.evs[2].1 - 40.0).abs() < 1e-12);
    }

    #[test]
    fn curves_use_the_calling_range_and_meet_the_random_model_at_a_call() {
        // Equity 0.8 against a random hand, falling as the callers tighten.
        let w = |x: f64| Some(0.3 + 0.5 * x);
        let curve = raise_curve(100.0, 20.0, 0.6, 500.0, &SEEN, &w);
        assert_eq!(curve.len(), 101);
        // A raise to the call is a call: nobody folds and the callers are every hand.
        assert_eq!(curve[0].calling_share, 1.0);
        assert_eq!(curve[0].ev, curve[0].ev_random_callers);
        for p in &curve[1..] {
            assert_eq!(p.calling_share, 1.0 - p.fold);
            // Tighter callers, lower equity: never better than random callers.
            assert!(p.ev <= p.ev_random_callers + 1e-12);
        }
        // Blind callers hold random hands whatever the raise.
        let blind = Betting {
            opponents_blind: true,
            ..SEEN
        };
        for p in raise_curve(100.0, 20.0, 0.6, 500.0, &blind, &w) {
            assert_eq!(p.calling_share, 1.0);
            assert_eq!(p.ev, p.ev_random_callers);
        }
    }
}
