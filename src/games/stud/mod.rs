//! Five-card stud (梭哈, "show hand"). The rules and variants are in
//! `docs/rules/stud.md`.
//!
//! - [`rules`]: decks and ranking switches (`[rules]`); [`eval`]: the 5-card evaluator
//!   and category counts;
//! - [`outs`]: the exact outs engine; [`starting_hands`]: exact heads-up results of two
//!   starting hands over every deal;
//! - [`job`]: the `stud.tables` job; `tables`: its Arrow batches and runtime payload;
//!   `report`: its report; `tests`: the job as a whole.

pub mod eval;
pub mod job;
pub mod outs;
mod report;
pub mod rules;
pub mod starting_hands;
mod tables;

#[cfg(test)]
mod tests;
