//! A dense primal simplex for small linear programs of the form
//! maximize `c·x` subject to `A x ≤ b`, `x ≥ 0`, with `b ≥ 0` (so the all-slack basis is
//! feasible and no first phase is needed). The push/fold equilibrium is such a program
//! (338 variables); it returns the primal solution and the dual prices, which are the other
//! player's equilibrium strategy.
//!
//! Pivoting: Dantzig's rule (the most negative reduced cost), switching to Bland's rule
//! (lowest index) after a run of degenerate pivots, which rules out cycling; ratio-test ties
//! go to the lowest basic variable. Each pivot touches only rows whose entry in the pivot
//! column is non-zero. The tableau accumulates rounding over hundreds of pivots, so the
//! final solution and dual prices are recomputed from the optimal basis and the original
//! data (Gaussian elimination with partial pivoting).

/// Why a program could not be solved.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LpError {
    #[error("the program's shape is inconsistent: {0}")]
    Shape(String),
    #[error("the right-hand side must be finite and non-negative (row {0})")]
    Rhs(usize),
    #[error("the objective is unbounded")]
    Unbounded,
    #[error("no optimum after {0} pivots")]
    Stalled(usize),
}

/// An optimal solution.
#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    /// The primal variables.
    pub x: Vec<f64>,
    /// The dual price of each constraint row (≥ 0).
    pub duals: Vec<f64>,
    /// `c·x` at the optimum.
    pub objective: f64,
    /// Pivots taken.
    pub pivots: usize,
}

/// Reduced costs above `-ENTER` count as non-negative (optimal).
const ENTER: f64 = 1e-11;
/// Pivot elements at or below this are not used.
const PIVOT: f64 = 1e-10;
/// Degenerate pivots in a row before switching to Bland's rule.
const STALL: usize = 50;

/// Maximizes `c·x` subject to `a x ≤ b`, `x ≥ 0`. `a` is `b.len()` rows of `c.len()`
/// entries, row after row.
pub fn maximize(a: &[f64], b: &[f64], c: &[f64]) -> Result<Solution, LpError> {
    let (m, n) = (b.len(), c.len());
    if a.len() != m * n {
        return Err(LpError::Shape(format!(
            "{} coefficients for {m} rows of {n}",
            a.len()
        )));
    }
    if let Some(i) = b.iter().position(|v| !v.is_finite() || *v < 0.0) {
        return Err(LpError::Rhs(i));
    }
    if a.iter().chain(c).any(|v| !v.is_finite()) {
        return Err(LpError::Shape("a coefficient is not finite".into()));
    }
    // Tableau rows: [structural n | slack m | rhs]; the objective row holds reduced costs.
    let width = n + m + 1;
    let mut t = vec![0.0; (m + 1) * width];
    for i in 0..m {
        let row = &mut t[i * width..(i + 1) * width];
        row[..n].copy_from_slice(&a[i * n..(i + 1) * n]);
        row[n + i] = 1.0;
        row[width - 1] = b[i];
    }
    for j in 0..n {
        t[m * width + j] = -c[j];
    }
    let mut basis: Vec<usize> = (n..n + m).collect();
    let limit = 50 * (n + m) + 1000;
    let mut degenerate = 0;
    let mut pivots = 0;
    loop {
        let obj = &t[m * width..(m + 1) * width - 1];
        let entering = if degenerate >= STALL {
            obj.iter().position(|&d| d < -ENTER)
        } else {
            obj.iter()
                .enumerate()
                .filter(|(_, &d)| d < -ENTER)
                .min_by(|x, y| x.1.total_cmp(y.1).then(x.0.cmp(&y.0)))
                .map(|(j, _)| j)
        };
        let Some(j) = entering else { break };
        if pivots == limit {
            return Err(LpError::Stalled(pivots));
        }
        // Ratio test, ties to the lowest basic variable.
        let mut leave: Option<(usize, f64)> = None;
        for i in 0..m {
            let e = t[i * width + j];
            if e > PIVOT {
                let ratio = t[i * width + width - 1] / e;
                let better = match leave {
                    None => true,
                    Some((k, r)) => ratio < r || (ratio == r && basis[i] < basis[k]),
                };
                if better {
                    leave = Some((i, ratio));
                }
            }
        }
        let Some((r, ratio)) = leave else {
            return Err(LpError::Unbounded);
        };
        degenerate = if ratio == 0.0 { degenerate + 1 } else { 0 };
        pivot(&mut t, width, r, j);
        basis[r] = j;
        pivots += 1;
    }
    // The basis matrix: the columns of [A | I] of the basic variables.
    let column = |v: usize, i: usize| {
        if v < n {
            a[i * n + v]
        } else {
            f64::from(u8::from(v - n == i))
        }
    };
    let basis_matrix: Vec<f64> = (0..m)
        .flat_map(|i| basis.iter().map(move |&v| (i, v)))
        .map(|(i, v)| column(v, i))
        .collect();
    let transposed: Vec<f64> = (0..m)
        .flat_map(|k| (0..m).map(move |i| (i, k)))
        .map(|(i, k)| basis_matrix[i * m + k])
        .collect();
    let cost: Vec<f64> = basis
        .iter()
        .map(|&v| if v < n { c[v] } else { 0.0 })
        .collect();
    let (values, prices) = match (
        solve_dense(basis_matrix, b.to_vec()),
        solve_dense(transposed, cost),
    ) {
        (Some(values), Some(prices)) => (values, prices),
        // A basis the tableau pivoted to is never singular in exact arithmetic; should
        // rounding make it look so, keep the tableau's own values.
        _ => (
            (0..m).map(|i| t[i * width + width - 1]).collect(),
            (0..m).map(|i| t[m * width + n + i]).collect(),
        ),
    };
    let mut x = vec![0.0; n];
    for (i, &v) in basis.iter().enumerate() {
        if v < n {
            x[v] = values[i].max(0.0);
        }
    }
    let duals = prices.into_iter().map(|y| y.max(0.0)).collect();
    let objective = c.iter().zip(&x).map(|(c, x)| c * x).sum();
    Ok(Solution {
        x,
        duals,
        objective,
        pivots,
    })
}

/// Pivots the tableau on row `r`, column `j`.
fn pivot(t: &mut [f64], width: usize, r: usize, j: usize) {
    let inv = 1.0 / t[r * width + j];
    for v in &mut t[r * width..(r + 1) * width] {
        *v *= inv;
    }
    t[r * width + j] = 1.0;
    let (before, rest) = t.split_at_mut(r * width);
    let (pivot_row, after) = rest.split_at_mut(width);
    for row in before
        .chunks_exact_mut(width)
        .chain(after.chunks_exact_mut(width))
    {
        let f = row[j];
        if f != 0.0 {
            for (v, p) in row.iter_mut().zip(pivot_row.iter()) {
                *v -= f * p;
            }
            row[j] = 0.0;
        }
    }
}

/// Solves the square system `matrix · x = rhs` (row after row) by Gaussian elimination
/// with partial pivoting; `None` if it is singular.
fn solve_dense(mut matrix: Vec<f64>, mut rhs: Vec<f64>) -> Option<Vec<f64>> {
    let m = rhs.len();
    for k in 0..m {
        let p = (k..m).max_by(|&i, &j| {
            matrix[i * m + k]
                .abs()
                .total_cmp(&matrix[j * m + k].abs())
                .then(j.cmp(&i))
        })?;
        if matrix[p * m + k].abs() < 1e-300 {
            return None;
        }
        if p != k {
            for j in 0..m {
                matrix.swap(k * m + j, p * m + j);
            }
            rhs.swap(k, p);
        }
        let pivot = matrix[k * m + k];
        for i in k + 1..m {
            let f = matrix[i * m + k] / pivot;
            if f != 0.0 {
                for j in k..m {
                    matrix[i * m + j] -= f * matrix[k * m + j];
                }
                rhs[i] -= f * rhs[k];
            }
        }
    }
    let mut x = vec![0.0; m];
    for k in (0..m).rev() {
        let s: f64 = (k + 1..m).map(|j| matrix[k * m + j] * x[j]).sum();
        x[k] = (rhs[k] - s) / matrix[k * m + k];
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_textbook_program() {
        // max 3x + 5y s.t. x ≤ 4, 2y ≤ 12, 3x + 2y ≤ 18: optimum 36 at (2, 6), duals
        // (0, 3/2, 1).
        let s = maximize(
            &[1.0, 0.0, 0.0, 2.0, 3.0, 2.0],
            &[4.0, 12.0, 18.0],
            &[3.0, 5.0],
        )
        .unwrap();
        assert!((s.objective - 36.0).abs() < 1e-12);
        assert!((s.x[0] - 2.0).abs() < 1e-12 && (s.x[1] - 6.0).abs() < 1e-12);
        for (d, want) in s.duals.iter().zip([0.0, 1.5, 1.0]) {
            assert!((d - want).abs() < 1e-12, "{:?}", s.duals);
        }
    }

    #[test]
    fn dense_systems_are_solved_with_row_exchanges() {
        // The first pivot is zero: a row exchange is needed.
        let x = solve_dense(vec![0.0, 2.0, 3.0, 1.0], vec![4.0, 5.0]).unwrap();
        assert!(
            (x[0] - 1.0).abs() < 1e-15 && (x[1] - 2.0).abs() < 1e-15,
            "{x:?}"
        );
        assert_eq!(solve_dense(vec![1.0, 2.0, 2.0, 4.0], vec![1.0, 2.0]), None);
    }

    #[test]
    fn unbounded_and_malformed_programs_are_errors() {
        assert_eq!(
            maximize(&[1.0, -1.0], &[1.0], &[1.0, 1.0]),
            Err(LpError::Unbounded)
        );
        assert!(matches!(
            maximize(&[1.0], &[1.0], &[1.0, 1.0]),
            Err(LpError::Shape(_))
        ));
        assert_eq!(maximize(&[1.0], &[-1.0], &[1.0]), Err(LpError::Rhs(0)));
        assert!(maximize(&[f64::NAN], &[1.0], &[1.0]).is_err());
    }

    /// A small deterministic generator for the random programs.
    fn next(state: &mut u64) -> f64 {
        *state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((*state >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    }

    #[test]
    fn random_programs_meet_strong_duality_and_complementary_slackness() {
        let mut state = 7u64;
        for round in 0..200 {
            let (m, n) = (1 + round % 7, 1 + round % 5);
            // Zero right-hand sides make degenerate vertices, as in push/fold.
            let b: Vec<f64> = (0..m)
                .map(|i| {
                    if i % 2 == 0 {
                        0.0
                    } else {
                        1.0 + next(&mut state)
                    }
                })
                .collect();
            // A row x_j ≤ 1 per variable keeps every program bounded.
            let mut a: Vec<f64> = (0..m * n).map(|_| next(&mut state)).collect();
            let mut b = b;
            for j in 0..n {
                a.extend((0..n).map(|k| f64::from(u8::from(k == j))));
                b.push(1.0);
            }
            let c: Vec<f64> = (0..n).map(|_| next(&mut state)).collect();
            let s = maximize(&a, &b, &c).unwrap();
            let rows = b.len();
            // Primal feasibility.
            for i in 0..rows {
                let lhs: f64 = (0..n).map(|j| a[i * n + j] * s.x[j]).sum();
                assert!(lhs <= b[i] + 1e-9, "round {round} row {i}");
            }
            assert!(s.x.iter().all(|&x| x >= -1e-12));
            // Dual feasibility: Aᵀy ≥ c, and equal objectives.
            for j in 0..n {
                let lhs: f64 = (0..rows).map(|i| a[i * n + j] * s.duals[i]).sum();
                assert!(lhs >= c[j] - 1e-9, "round {round} column {j}");
            }
            let dual: f64 = (0..rows).map(|i| b[i] * s.duals[i]).sum();
            assert!((dual - s.objective).abs() < 1e-9, "round {round}");
        }
    }
}
