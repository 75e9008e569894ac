//! O(1) heads-up push/fold answers from a `pushfold.bin` table (job kind
//! `holdem.pushfold`): at each effective stack of the job's grid, how often the small
//! blind jams each starting-hand class and how often the big blind calls, with the EVs of
//! each action at the equilibrium, in big blinds.
//!
//! A stack between two grid stacks is answered at the nearest grid stack at or below it
//! (the answer says which); a stack below the first or above the last is an error.

use serde::{Deserialize, Serialize};

use crate::format::{self, Game, TableError, TableHeader};
use crate::holdem::{HandClass, CLASSES};

/// Most stacks a table may hold.
pub const MAX_STACKS: usize = 1 << 20;
/// Slack when placing a stack on the grid, relative to the step (so 8.5 is 8.5 although
/// 1.0 + 75 × 0.1 is not exactly 8.5 in binary).
const GRID_SLACK: f64 = 1e-9;

/// The payload of a push/fold table file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PushFoldPayload {
    pub rules: String,
    /// Ante each player posts, in big blinds.
    pub ante: f64,
    /// The grid: `stacks[k]` is `stack_min + k · stack_step`, rounded to the grid's
    /// decimals.
    pub stack_min: f64,
    pub stack_step: f64,
    #[serde(deserialize_with = "format::bounded_vec")]
    pub stacks: Vec<f64>,
    /// Per stack and class, `[k · 169 + class]`: the small blind's push frequency, the
    /// big blind's call frequency, the EV of pushing (small blind) and of calling (big
    /// blind, given a push), in big blinds.
    #[serde(deserialize_with = "format::bounded_vec")]
    pub push: Vec<f64>,
    #[serde(deserialize_with = "format::bounded_vec")]
    pub call: Vec<f64>,
    #[serde(deserialize_with = "format::bounded_vec")]
    pub ev_push: Vec<f64>,
    #[serde(deserialize_with = "format::bounded_vec")]
    pub ev_call: Vec<f64>,
    /// Per stack: the small blind's expected net at the equilibrium, and the
    /// exploitability of the stored strategies (both players' best-response gains).
    #[serde(deserialize_with = "format::bounded_vec")]
    pub value: Vec<f64>,
    #[serde(deserialize_with = "format::bounded_vec")]
    pub exploitability: Vec<f64>,
}

/// A class is in a push/fold chart's range at a stack when the equilibrium plays it at
/// least this often (our threshold: the published charts do not say how they count a
/// mixed hand), so a class mixed at a low frequency past its range does not widen its
/// cell.
pub const CHART_FREQUENCY: f64 = 0.5;

/// Whether a class played with frequency `freq` is in a chart's range
/// ([`CHART_FREQUENCY`]).
pub fn charted(freq: f64) -> bool {
    freq >= CHART_FREQUENCY
}

/// One player's play of a class at one stack: the small blind's push ([`PushFold::push`])
/// or the big blind's call of a push ([`PushFold::call`]). The same fields, by the same
/// names, as C's `ct_pushfold_play` and Python's `PushFoldPlay`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PushFoldPlay {
    /// The grid stack answered (the nearest at or below the one asked).
    pub stack: f64,
    /// How often the class plays (pushes, or calls a push), 0 to 1.
    pub frequency: f64,
    /// EV of playing, bb: pushing against the big blind's equilibrium calls, or calling
    /// against the small blind's equilibrium pushing range (`ev_push_bb`, `ev_call_bb` in
    /// `pushfold.parquet`).
    pub ev: f64,
    /// EV of folding, bb: −(0.5 + ante) for the small blind, −(1 + ante) for the big.
    pub ev_fold: f64,
}

impl PushFoldPlay {
    /// How much playing gains over folding, bb: 0 for a mixed (indifferent) class, and
    /// small wherever the decision is close.
    pub fn margin(&self) -> f64 {
        self.ev - self.ev_fold
    }
}

/// Why a push/fold question could not be answered.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum PushFoldQueryError {
    #[error("class {0} does not exist: classes are 0 to 168")]
    Class(usize),
    #[error("{0:?} is not a starting hand: give a class (AKs, QQ, T9o) or two cards (As Kd)")]
    NotAHand(String),
    #[error("the stack {stack} bb is outside this table's {min} to {max} bb")]
    Stack { stack: f64, min: f64, max: f64 },
}

/// A loaded, validated push/fold table.
#[derive(Clone, Debug)]
pub struct PushFold {
    header: TableHeader,
    payload: PushFoldPayload,
}

fn validate(p: &PushFoldPayload) -> Result<(), TableError> {
    let invalid = |m: &str| Err(TableError::Invalid(m.into()));
    let n = p.stacks.len();
    if n == 0 || n > MAX_STACKS {
        return invalid("a table holds 1 to 2^20 stacks");
    }
    if !(p.ante.is_finite() && p.ante >= 0.0) {
        return invalid("the ante must be finite and not negative");
    }
    if !(p.stack_step.is_finite() && p.stack_step > 0.0 && p.stack_min.is_finite()) {
        return invalid("the stack grid needs a finite first stack and a positive step");
    }
    if p.stacks.iter().enumerate().any(|(k, &s)| {
        !s.is_finite()
            || s < 1.0 + p.ante - 1e-9
            || ((s - p.stack_min) / p.stack_step - k as f64).abs() > 1e-6
    }) {
        return invalid("the stacks must be the grid stack_min + k · stack_step, each covering the blind and ante");
    }
    let cells = n * CLASSES;
    if [p.push.len(), p.call.len(), p.ev_push.len(), p.ev_call.len()]
        .iter()
        .any(|&l| l != cells)
        || p.value.len() != n
        || p.exploitability.len() != n
    {
        return invalid("every stack needs a value for each of the 169 classes");
    }
    if p.push
        .iter()
        .chain(&p.call)
        .any(|f| !(0.0..=1.0).contains(f))
    {
        return invalid("frequencies must lie between 0 and 1");
    }
    if p.ev_push
        .iter()
        .chain(&p.ev_call)
        .chain(&p.value)
        .chain(&p.exploitability)
        .any(|v| !v.is_finite())
    {
        return invalid("EVs must be finite");
    }
    Ok(())
}

format::table_file!(PushFold, PushFoldPayload, Game::HoldemPushFold);

impl PushFold {
    /// The ante each player posts, in big blinds.
    pub fn ante(&self) -> f64 {
        self.payload.ante
    }

    /// The grid of effective stacks, smallest first.
    pub fn stacks(&self) -> &[f64] {
        &self.payload.stacks
    }

    /// Index of the grid stack at or below `stack`.
    fn step(&self, stack: f64) -> Result<usize, PushFoldQueryError> {
        let p = &self.payload;
        let out = || PushFoldQueryError::Stack {
            stack,
            min: p.stacks[0],
            max: p.stacks[p.stacks.len() - 1],
        };
        let x = (stack - p.stack_min) / p.stack_step;
        if !(x.is_finite() && x >= -GRID_SLACK) {
            return Err(out());
        }
        let last = p.stacks.len() - 1;
        let k = (x + GRID_SLACK).floor();
        if k > last as f64 || stack > p.stacks[last] + GRID_SLACK * p.stack_step {
            return Err(out());
        }
        Ok(k as usize)
    }

    fn cell(&self, class: usize, stack: f64) -> Result<(usize, usize), PushFoldQueryError> {
        if class >= CLASSES {
            return Err(PushFoldQueryError::Class(class));
        }
        let k = self.step(stack)?;
        Ok((k, k * CLASSES + class))
    }

    /// The small blind's play of `hand` (a class index, a class name or two cards: see
    /// [`HandClass`]) at `stack` big blinds.
    pub fn push(
        &self,
        hand: impl HandClass,
        stack: f64,
    ) -> Result<PushFoldPlay, PushFoldQueryError> {
        let class = hand.class_index().map_err(PushFoldQueryError::NotAHand)?;
        let (k, i) = self.cell(class, stack)?;
        let p = &self.payload;
        Ok(PushFoldPlay {
            stack: p.stacks[k],
            frequency: p.push[i],
            ev: p.ev_push[i],
            ev_fold: -(0.5 + p.ante),
        })
    }

    /// The big blind's play of `hand` facing a push at `stack` big blinds.
    pub fn call(
        &self,
        hand: impl HandClass,
        stack: f64,
    ) -> Result<PushFoldPlay, PushFoldQueryError> {
        let class = hand.class_index().map_err(PushFoldQueryError::NotAHand)?;
        let (k, i) = self.cell(class, stack)?;
        let p = &self.payload;
        Ok(PushFoldPlay {
            stack: p.stacks[k],
            frequency: p.call[i],
            ev: p.ev_call[i],
            ev_fold: -(1.0 + p.ante),
        })
    }

    /// The small blind's expected net per hand at the equilibrium at `stack` (the big
    /// blind's is its negative), in big blinds.
    pub fn value(&self, stack: f64) -> Result<f64, PushFoldQueryError> {
        Ok(self.payload.value[self.step(stack)?])
    }

    /// How far from an equilibrium the stored strategies at `stack` are: what both
    /// players together could gain by best-responding, in big blinds.
    pub fn exploitability(&self, stack: f64) -> Result<f64, PushFoldQueryError> {
        Ok(self.payload.exploitability[self.step(stack)?])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> PushFold {
        let n = 3;
        let payload = PushFoldPayload {
            rules: String::new(),
            ante: 0.0,
            stack_min: 1.0,
            stack_step: 0.1,
            stacks: vec![1.0, 1.1, 1.2],
            push: (0..n * CLASSES).map(|i| (i % 2) as f64).collect(),
            call: vec![0.5; n * CLASSES],
            ev_push: (0..n * CLASSES).map(|i| i as f64).collect(),
            ev_call: vec![-0.25; n * CLASSES],
            value: vec![0.1, 0.2, 0.3],
            exploitability: vec![0.0; n],
        };
        PushFold::from_bytes(PushFold::to_bytes(1, &payload).unwrap()).unwrap()
    }

    #[test]
    fn stacks_are_answered_at_the_grid_stack_at_or_below() {
        let t = table();
        assert_eq!(t.push(3, 1.15).unwrap().stack, 1.1);
        assert_eq!(t.push(3, 1.15).unwrap().ev, (CLASSES + 3) as f64);
        // 1.2 is the third stack although (1.2 − 1.0) / 0.1 is 1.9999999999999996.
        assert_eq!(t.value(1.2).unwrap(), 0.3);
        assert_eq!(t.value(1.0).unwrap(), 0.1);
        assert_eq!(t.call(0, 1.0).unwrap().ev_fold, -1.0);
        assert_eq!(t.push(0, 1.0).unwrap().ev_fold, -0.5);
    }

    #[test]
    fn questions_outside_the_table_are_errors() {
        let t = table();
        for stack in [0.99, 1.25, 1.3, f64::NAN, f64::INFINITY, -1.0, 1e300] {
            assert!(
                matches!(t.value(stack), Err(PushFoldQueryError::Stack { .. })),
                "{stack}"
            );
        }
        assert_eq!(t.push(169, 1.0), Err(PushFoldQueryError::Class(169)));
        assert_eq!(
            t.call(usize::MAX, 1.0),
            Err(PushFoldQueryError::Class(usize::MAX))
        );
        assert_eq!(
            t.push("AKx", 1.0),
            Err(PushFoldQueryError::NotAHand("AKx".into()))
        );
    }

    /// A hand is a class index, a class name or two cards, as in C and Python.
    #[test]
    fn hands_are_taken_as_text_or_index() {
        let t = table();
        let aks = crate::holdem::class_of_text("AKs").unwrap();
        for hand in ["AKs", "aks", "Ah Kh", "♠A ♠K"] {
            assert_eq!(t.push(hand, 1.1), t.push(aks, 1.1), "{hand}");
            assert_eq!(t.call(hand, 1.1), t.call(aks, 1.1), "{hand}");
        }
        assert_eq!(t.push(&"AA".to_string(), 1.0), t.push(0, 1.0));
        assert_ne!(t.push("AKo", 1.1), t.push(aks, 1.1));
    }
}
