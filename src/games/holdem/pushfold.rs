//! Heads-up push/fold: the exact jam-or-fold equilibrium at one effective stack.
//!
//! **The game.** Two players; each posts an ante `a` (in big blinds, possibly 0), the small
//! blind (SB) posts 0.5 and the big blind (BB) 1. Both start with the effective stack `S`
//! (before blinds and antes, so `S ≥ 1 + a`). The SB either folds (net −(0.5 + a)) or goes
//! all-in for `S`; the BB then folds (SB nets +(1 + a)) or calls, and the board is dealt:
//! the SB nets `2S·eq − S`, where `eq` is its all-in equity (P(win) + P(tie)/2), the
//! exact heads-up result over all 1,712,304 boards. Payoffs are chip EV in big blinds,
//! and the game is zero-sum.
//!
//! **Card removal, exactly.** A deal is an ordered pair of disjoint 2-card hands, all
//! 1,326 × 1,225 equally likely. Strategies are per starting-hand class: the game is
//! unchanged by renaming suits, so some equilibrium treats every combo of a class alike,
//! and against such a strategy every combo of a class has the same EV. So the payoffs
//! need, for each (SB class, BB class), only the number of disjoint combo pairs and the
//! sum of the SB's equity over them — the class matrix of `holdem.headsup`, summed from
//! the 47,008 exact matchup classes. This is the full 1,326 × 1,326 computation, grouped;
//! it is not an average over classes (AA against AKs counts the 12 of its 24 combo pairs
//! that share no ace). A test checks push EVs against sums over the 1,225 opposing combos
//! one by one.
//!
//! **The solution.** With `p` the SB's push frequencies and `c` the BB's call
//! frequencies, the SB's value is `V(p, c) = F + (α·p + pᵀ M c) / 1326`, bilinear over
//! the boxes [0, 1]¹⁶⁹. The SB's maximin strategy is the linear program
//! maximize `α·p − Σ u` subject to `−(Mᵀp)_B − u_B ≤ 0`, `p ≤ 1`, `p, u ≥ 0` (so
//! `u_B = max(0, −(Mᵀp)_B)` is what the BB gains by calling B), solved by the simplex
//! ([`super::simplex`]); its dual prices on the first 169 rows are the BB's minimax call
//! frequencies. Frequencies within 1e-9 of 0 or 1 are rounded there, and the
//! exploitability of the strategies as published — what the SB gains by a best response
//! plus what the BB gains by one, `max_p' V(p', c) − min_c' V(p, c')` — is computed
//! directly from the payoffs, not taken from the solver.
//!
//! **Which equilibrium.** Where the game has several equilibria an LP returns one vertex
//! of them, and the frequencies of the classes that mix would be a property of the solver.
//! [`Equilibrium::unique`] certifies that there is only one: every class whose action EVs
//! are equal (within 1e-9 bb) is mixed and every mixed class has equal EVs (strict
//! complementarity), both players mix the same number k of classes, and the k × k matrix
//! of what the BB's mixed classes gain by calling against the SB's mixed classes is
//! non-singular. Then any other equilibrium differs only in the mixed frequencies, and
//! keeping the other player's mixed classes indifferent pins them (a non-singular linear
//! system), so the equilibrium is unique and every solver that converges, fictitious play
//! included, converges to these frequencies. Unique, that is, among strategies that play
//! every combo of a class alike, the game this solver solves: in the game where each of
//! the 1,326 combos is its own choice, a mixed class's frequency can be split among its
//! combos in many ways (pushing some combos always and others never) with the same value,
//! so that game has many equilibria, one of which is this one.
//!
//! **The charts' threshold.** The published push/fold charts give, per class, the largest
//! stack at which the hand is played, and do not say how they count a hand the
//! equilibrium mixes. Our charts list a class where the equilibrium plays it at least half
//! the time ([`CHART_FREQUENCY`], our choice), so a class mixed at 12 % over a few stacks
//! past its pure range does not widen its cell; the tables give the bound at every
//! frequency and the pure bound beside it.

use super::classes::{combos, CLASSES};
use super::matchup::{ClassMatrix, BOARDS};
use super::simplex::{self, LpError};

/// Starting hands: C(52, 2).
pub const COMBOS: f64 = 1326.0;
/// Hands the other player can hold against one known hand: C(50, 2).
pub const OPPONENT_COMBOS: f64 = 1225.0;

/// Frequencies this close to 0 or 1 are published as 0 or 1.
const SNAP: f64 = 1e-9;

pub use cardtables::pushfold::{charted, CHART_FREQUENCY};

/// EV margins this close to 0 count as indifferent in [`Equilibrium::unique`].
pub const INDIFFERENT: f64 = 1e-9;

/// The blinds, the ante and the stack of one push/fold game, in big blinds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stakes {
    /// Effective stack before blinds and antes.
    pub stack: f64,
    pub ante: f64,
}

impl Stakes {
    /// The SB's net when it folds: −(0.5 + ante).
    pub fn sb_fold(&self) -> f64 {
        -(0.5 + self.ante)
    }

    /// The BB's net when it folds to the push: −(1 + ante); the SB nets the opposite.
    pub fn bb_fold(&self) -> f64 {
        -(1.0 + self.ante)
    }
}

/// The exact heads-up results the game needs, by (SB class, BB class), `[a · 169 + b]`.
#[derive(Clone, Debug)]
pub struct PushFoldGame {
    /// Ordered pairs of disjoint combos.
    pairs: Vec<f64>,
    /// The SB hand's all-in equity summed over those pairs.
    equity: Vec<f64>,
}

/// Both players' strategies at one stack and what they are worth.
#[derive(Clone, Debug, PartialEq)]
pub struct Equilibrium {
    pub stakes: Stakes,
    /// SB push frequency per class.
    pub push: Vec<f64>,
    /// BB call frequency per class (facing a push).
    pub call: Vec<f64>,
    pub evaluation: Evaluation,
    /// Simplex pivots taken.
    pub pivots: usize,
}

/// What a pair of strategies is worth: every action's EV per class and both players'
/// best-response values, in big blinds.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// The SB's EV of pushing each class, against the BB's strategy.
    pub ev_push: Vec<f64>,
    /// The BB's EV of calling a push with each class, against the SB's pushing range
    /// (NaN if the SB pushes no hand that the class does not block).
    pub ev_call: Vec<f64>,
    /// The SB's expected net per deal (the game value at equilibrium).
    pub value: f64,
    /// The SB's value when it best-responds to the BB's strategy.
    pub sb_best: f64,
    /// The SB's value when the BB best-responds to the SB's strategy.
    pub bb_best: f64,
}

impl Equilibrium {
    /// The SB's EV margin of pushing each class over folding, bb.
    pub fn push_margin(&self, class: usize) -> f64 {
        self.evaluation.ev_push[class] - self.stakes.sb_fold()
    }

    /// The BB's EV margin of calling a push with each class over folding, bb (NaN where the
    /// SB pushes no hand the class does not block).
    pub fn call_margin(&self, class: usize) -> f64 {
        self.evaluation.ev_call[class] - self.stakes.bb_fold()
    }

    /// Whether this equilibrium is the only one among strategies that play every combo of a
    /// class alike (the module doc's certificate).
    pub fn unique(&self, game: &PushFoldGame) -> bool {
        let mixed = |f: f64| f > 0.0 && f < 1.0;
        let indifferent = |m: f64| m.abs() <= INDIFFERENT;
        let strict = (0..CLASSES).all(|c| {
            mixed(self.push[c]) == indifferent(self.push_margin(c))
                && mixed(self.call[c]) == indifferent(self.call_margin(c))
        });
        let sb: Vec<usize> = (0..CLASSES).filter(|&c| mixed(self.push[c])).collect();
        let bb: Vec<usize> = (0..CLASSES).filter(|&c| mixed(self.call[c])).collect();
        if !strict || sb.len() != bb.len() {
            return false;
        }
        // What a BB call with class b adds to the SB's net against SB class a.
        let m: Vec<Vec<f64>> = sb
            .iter()
            .map(|&a| {
                bb.iter()
                    .map(|&b| game.call_gain(&self.stakes, a, b))
                    .collect()
            })
            .collect();
        nonsingular(m)
    }
}

/// Whether a square matrix is non-singular: Gaussian elimination with partial pivoting,
/// a pivot below 1e-12 of the largest entry counting as zero.
fn nonsingular(mut m: Vec<Vec<f64>>) -> bool {
    let n = m.len();
    let scale = m.iter().flatten().fold(0.0f64, |a, &x| a.max(x.abs()));
    for col in 0..n {
        let Some(pivot) = (col..n).max_by(|&i, &j| m[i][col].abs().total_cmp(&m[j][col].abs()))
        else {
            return false;
        };
        if m[pivot][col].abs() <= 1e-12 * scale {
            return false;
        }
        m.swap(col, pivot);
        let (top, rest) = m.split_at_mut(col + 1);
        let pivot_row = &top[col];
        for row in rest {
            let factor = row[col] / pivot_row[col];
            for (x, &p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= factor * p;
            }
        }
    }
    true
}

impl Evaluation {
    /// What the two players together gain by best-responding: 0 at an equilibrium. The
    /// difference is never negative in exact arithmetic; one rounded a few 1e-16 below 0
    /// is published as 0.
    pub fn exploitability(&self) -> f64 {
        (self.sb_best - self.bb_best).max(0.0)
    }
}

impl PushFoldGame {
    /// The game from the heads-up class matrix.
    pub fn new(matrix: &ClassMatrix) -> PushFoldGame {
        let boards = BOARDS as f64;
        let n = CLASSES * CLASSES;
        PushFoldGame {
            pairs: (0..n).map(|i| matrix.deals[i] as f64 / boards).collect(),
            equity: (0..n)
                .map(|i| (2 * matrix.wins[i] + matrix.ties[i]) as f64 / (2.0 * boards))
                .collect(),
        }
    }

    /// The game from the heads-up counts of a three-handed job covering all 169 classes
    /// (the same numbers as the class matrix: every deal of two classes over every board).
    pub fn from_pairs(showdowns: &super::pushfold3::Showdowns) -> PushFoldGame {
        let n = CLASSES * CLASSES;
        let (mut pairs, mut equity) = (vec![0.0; n], vec![0.0; n]);
        for a in 0..CLASSES {
            for b in 0..CLASSES {
                // Both already sums over the deals, as `new` keeps them.
                let (deals, equity_sum) = showdowns.heads_up(a, b);
                pairs[a * CLASSES + b] = deals;
                equity[a * CLASSES + b] = equity_sum;
            }
        }
        PushFoldGame { pairs, equity }
    }

    /// Disjoint combo pairs of SB class `a` and BB class `b`.
    pub fn pairs(&self, a: usize, b: usize) -> f64 {
        self.pairs[a * CLASSES + b]
    }

    /// What a BB call of class `b` adds to the SB's net, summed over the pairs with SB
    /// class `a`, per opposing combo: `(2S·Σeq − (S + 1 + ante)·pairs) / 1225`.
    fn call_gain(&self, s: &Stakes, a: usize, b: usize) -> f64 {
        let i = a * CLASSES + b;
        (2.0 * s.stack * self.equity[i] + (s.bb_fold() - s.stack) * self.pairs[i]) / OPPONENT_COMBOS
    }

    /// The payoff matrix M, `[a · 169 + b]`.
    fn gains(&self, s: &Stakes) -> Vec<f64> {
        (0..CLASSES * CLASSES)
            .map(|i| self.call_gain(s, i / CLASSES, i % CLASSES))
            .collect()
    }

    /// Every action's EV and both best-response values for the strategies `push` (SB)
    /// and `call` (BB).
    pub fn evaluate(&self, s: &Stakes, push: &[f64], call: &[f64]) -> Evaluation {
        self.evaluate_with(s, &self.gains(s), push, call)
    }

    /// [`PushFoldGame::evaluate`] with the payoff matrix `m` of these stakes already built.
    fn evaluate_with(&self, s: &Stakes, m: &[f64], push: &[f64], call: &[f64]) -> Evaluation {
        let ev_push: Vec<f64> = (0..CLASSES)
            .map(|a| {
                let called: f64 = (0..CLASSES).map(|b| m[a * CLASSES + b] * call[b]).sum();
                -s.bb_fold() + called / f64::from(combos(a))
            })
            .collect();
        let ev_call: Vec<f64> = (0..CLASSES)
            .map(|b| {
                let (mut gain, mut weight) = (0.0, 0.0);
                for a in 0..CLASSES {
                    gain += push[a] * m[a * CLASSES + b] * OPPONENT_COMBOS;
                    weight += push[a] * self.pairs(a, b);
                }
                if weight > 0.0 {
                    s.bb_fold() - gain / weight
                } else {
                    f64::NAN
                }
            })
            .collect();
        let fold = s.sb_fold();
        let average = |f: &dyn Fn(usize) -> f64| {
            (0..CLASSES)
                .map(|a| f64::from(combos(a)) * f(a))
                .sum::<f64>()
                / COMBOS
        };
        let value = average(&|a| push[a] * ev_push[a] + (1.0 - push[a]) * fold);
        let sb_best = average(&|a| ev_push[a].max(fold));
        // The BB calls exactly when that lowers the SB's value.
        let bb_best = average(&|a| push[a] * (-s.bb_fold()) + (1.0 - push[a]) * fold)
            + (0..CLASSES)
                .map(|b| {
                    (0..CLASSES)
                        .map(|a| push[a] * m[a * CLASSES + b])
                        .sum::<f64>()
                        .min(0.0)
                })
                .sum::<f64>()
                / COMBOS;
        Evaluation {
            ev_push,
            ev_call,
            value,
            sb_best,
            bb_best,
        }
    }

    /// The equilibrium at one stack, by linear programming (see the module doc).
    pub fn solve(&self, s: &Stakes) -> Result<Equilibrium, LpError> {
        let m = self.gains(s);
        let n = 2 * CLASSES;
        // Rows 0..169: −(Mᵀp)_b − u_b ≤ 0; rows 169..338: p_a ≤ 1.
        let mut a = vec![0.0; n * n];
        for b in 0..CLASSES {
            let row = &mut a[b * n..(b + 1) * n];
            for (x, p) in row.iter_mut().zip(0..CLASSES) {
                *x = -m[p * CLASSES + b];
            }
            row[CLASSES + b] = -1.0;
        }
        for p in 0..CLASSES {
            a[(CLASSES + p) * n + p] = 1.0;
        }
        let mut rhs = vec![0.0; n];
        rhs[CLASSES..].fill(1.0);
        let steal = -s.bb_fold() - s.sb_fold();
        let objective: Vec<f64> = (0..n)
            .map(|j| {
                if j < CLASSES {
                    f64::from(combos(j)) * steal
                } else {
                    -1.0
                }
            })
            .collect();
        let solution = simplex::maximize(&a, &rhs, &objective)?;
        let snap = |v: f64| {
            if v < SNAP {
                0.0
            } else if v > 1.0 - SNAP {
                1.0
            } else {
                v
            }
        };
        let push: Vec<f64> = solution.x[..CLASSES].iter().map(|&v| snap(v)).collect();
        let call: Vec<f64> = solution.duals[..CLASSES].iter().map(|&v| snap(v)).collect();
        let evaluation = self.evaluate_with(s, &m, &push, &call);
        Ok(Equilibrium {
            stakes: *s,
            push,
            call,
            evaluation,
            pivots: solution.pivots,
        })
    }
}

/// The equilibrium at every stack, solved in parallel on the current rayon pool; the
/// results do not depend on the number of threads.
pub fn solve_stacks(
    game: &PushFoldGame,
    ante: f64,
    stacks: &[f64],
) -> Result<Vec<Equilibrium>, LpError> {
    use rayon::prelude::*;
    // One task per stack: solves take from milliseconds to a tenth of a second, and
    // rayon's default halving left one thread with most of them (measured: 87 % of the
    // simplex time on one of two threads).
    stacks
        .par_iter()
        .with_max_len(1)
        .map(|&stack| game.solve(&Stakes { stack, ante }))
        .collect()
}

/// The runs of consecutive indices below `count` where `played` holds, as (first, last).
pub fn intervals(count: usize, played: impl Fn(usize) -> bool) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for k in (0..count).filter(|&k| played(k)) {
        match out.last_mut() {
            Some(last) if last.1 + 1 == k => last.1 = k,
            _ => out.push((k, k)),
        }
    }
    out
}

/// The share of all 1,326 starting hands that `freq` (per class) plays.
pub fn range_share(freq: &[f64]) -> f64 {
    (0..CLASSES)
        .map(|c| f64::from(combos(c)) * freq[c])
        .sum::<f64>()
        / COMBOS
}
