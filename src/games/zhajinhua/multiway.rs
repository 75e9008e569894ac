//! Against three or more opponents: Monte Carlo, with the exact two-opponent results as
//! control variates.
//!
//! Winning against N opponents implies winning against the first two, whose probability
//! we know exactly, so `X = win vs N` is regressed on `Y = win vs the first two` and the
//! estimate is `x̄ − β (ȳ − E[Y])`; the same is done for the equity share. This typically
//! halves the trials a cell needs for a given standard error. Every sum is an integer
//! (equity shares are counted in 60ths, since 60 is divisible by 1..=6), so results are
//! bit-identical for a given (seed, unit), whatever the thread count.

use rand::RngExt;
use rand_pcg::Pcg64;
use serde::{Deserialize, Serialize};

use super::counts::Counts;
use super::eval::{Evaluator, HandInfo};
use super::rules::{Ties, ZhajinhuaRules};
use cardtables::colex::binomial;
use std::cmp::Ordering;

/// Trials drawn between two checks of the standard error.
const BATCH: u64 = 4096;

/// Integer sums over the trials of one (hand class, opponents) cell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sample {
    pub opponents: u8,
    pub trials: u64,
    /// Trials won against every opponent (X).
    pub wins: u64,
    /// Trials where nobody beat us and at least one opponent tied.
    pub ties: u64,
    /// Σ Y: wins against the first two opponents.
    pub sum_y: u64,
    /// Σ Z, Σ Z², Σ V, Σ V², Σ Z·V: equity share vs all (Z) and vs the first two (V), in 60ths.
    pub sum_z: u64,
    pub sum_z2: u64,
    pub sum_v: u64,
    pub sum_v2: u64,
    pub sum_zv: u64,
}

/// A cell's estimates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub win: f64,
    pub tie: f64,
    pub equity: f64,
    /// The larger of the standard errors of `win` and `equity`.
    pub std_error: f64,
}

/// Control-variate estimate of E[X] from sums, with `mean_y` = E[Y] known exactly.
/// Returns (estimate, standard error); the variance is floored at 1/n so a cell that never
/// saw an event does not claim zero error.
fn regress(n: f64, sx: f64, sx2: f64, sy: f64, sy2: f64, sxy: f64, mean_y: f64) -> (f64, f64) {
    let (xbar, ybar) = (sx / n, sy / n);
    let var_x = ((sx2 - n * xbar * xbar) / (n - 1.0)).max(0.0);
    let var_y = ((sy2 - n * ybar * ybar) / (n - 1.0)).max(0.0);
    let cov = (sxy - n * xbar * ybar) / (n - 1.0);
    let (beta, resid) = if var_y > 0.0 {
        (cov / var_y, (var_x - cov * cov / var_y).max(0.0))
    } else {
        (0.0, var_x)
    };
    let estimate = (xbar - beta * (ybar - mean_y)).clamp(0.0, 1.0);
    (estimate, (resid.max(1.0 / n) / n).sqrt())
}

impl Sample {
    /// Estimates, given the exact counts of the same hand and the job's rules. A hand that
    /// beats every pair of opponent hands beats every hand in a showdown of three or more,
    /// so it beats any number of them: its figures are certain (standard error 0), whatever
    /// the sample says.
    pub fn estimate(&self, exact: &Counts, rules: &ZhajinhuaRules) -> Estimate {
        if exact.win2 == super::counts::OPPONENT_PAIRS {
            return Estimate {
                win: 1.0,
                tie: 0.0,
                equity: 1.0,
                std_error: 0.0,
            };
        }
        let n = self.trials as f64;
        let two = exact.outcome(2, rules);
        let (win, se_win) = regress(
            n,
            self.wins as f64,
            self.wins as f64,
            self.sum_y as f64,
            self.sum_y as f64,
            self.wins as f64, // X ≤ Y, so X·Y = X
            two.win,
        );
        let k = 60.0;
        let (equity, se_equity) = regress(
            n,
            self.sum_z as f64 / k,
            self.sum_z2 as f64 / (k * k),
            self.sum_v as f64 / k,
            self.sum_v2 as f64 / (k * k),
            self.sum_zv as f64 / (k * k),
            two.equity,
        );
        Estimate {
            win,
            tie: self.ties as f64 / n,
            equity,
            std_error: se_win.max(se_equity),
        }
    }
}

/// Colex index of three distinct card ids in any order.
fn index3(a: u8, b: u8, c: u8) -> usize {
    let (mut x, mut y, mut z) = (a, b, c);
    if x > y {
        std::mem::swap(&mut x, &mut y);
    }
    if y > z {
        std::mem::swap(&mut y, &mut z);
    }
    if x > y {
        std::mem::swap(&mut x, &mut y);
    }
    (binomial(usize::from(x), 1) + binomial(usize::from(y), 2) + binomial(usize::from(z), 3))
        as usize
}

pub use crate::engine::stream;

/// Settings of a sampling run.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub target_std_error: f64,
    pub min_trials: u64,
    pub max_trials: u64,
}

/// Samples one hand against `opponents` (≥ 3) until the standard error meets the budget.
/// `eval` compares hands as a showdown of three or more does under the job's rules
/// ([`ZhajinhuaRules::against`]); `mine` is our hand in it.
pub fn sample(
    eval: &Evaluator,
    mine: &HandInfo,
    exact: &Counts,
    opponents: u8,
    budget: Budget,
    rng: &mut Pcg64,
) -> Sample {
    // rel[o]: 0 = o beats us, 1 = tie, 2 = we beat o.
    let rel: Vec<u8> = eval
        .hands
        .iter()
        .map(|o| match eval.compare(mine, o) {
            Ordering::Less => 0,
            Ordering::Equal => 1,
            Ordering::Greater => 2,
        })
        .collect();
    let mut deck: Vec<u8> = (0..52u8).filter(|id| mine.mask >> id & 1 == 0).collect();
    let caller_loses = eval.rules.ties == Ties::CallerLoses;
    let share = |tied: u64| {
        if caller_loses && tied > 0 {
            0
        } else {
            60 / (tied + 1)
        }
    };
    let mut s = Sample {
        opponents,
        ..Sample::default()
    };
    loop {
        for _ in 0..BATCH {
            let mut tied = 0u64;
            let mut lost = false;
            let (mut y, mut v) = (0u64, 0u64);
            for k in 0..usize::from(opponents) {
                for j in 3 * k..3 * k + 3 {
                    let r = rng.random_range(j..deck.len());
                    deck.swap(j, r);
                }
                match rel[index3(deck[3 * k], deck[3 * k + 1], deck[3 * k + 2])] {
                    0 => lost = true,
                    1 => tied += 1,
                    _ => {}
                }
                if k == 1 && !lost {
                    y = u64::from(tied == 0);
                    v = share(tied);
                }
                if lost {
                    break;
                }
            }
            s.trials += 1;
            s.sum_y += y;
            s.sum_v += v;
            s.sum_v2 += v * v;
            if !lost {
                let z = share(tied);
                s.wins += u64::from(tied == 0);
                s.ties += u64::from(tied > 0);
                s.sum_z += z;
                s.sum_z2 += z * z;
                s.sum_zv += z * v;
            }
        }
        if s.trials >= budget.max_trials
            || (s.trials >= budget.min_trials
                && s.estimate(exact, &eval.rules).std_error <= budget.target_std_error)
        {
            return s;
        }
    }
}
