//! Zhajinhua (炸金花, three-card poker): every 3-card hand under each rule variant, exact
//! win / tie / loss against opponents dealt from the same deck, and the EV decision model.
//! The rules and variants are in `docs/rules/zhajinhua.md`.
//!
//! - [`rules`]: the variant (`[rules]`); [`eval`]: the 3-card evaluator;
//! - [`counts`]: exact counts against one and two opponents; [`multiway`]: the seeded
//!   Monte Carlo against three to five; [`decisions`]: the EV model;
//! - [`job`]: the `zhajinhua.hands` and `zhajinhua.multiway` jobs; `tables`: their Arrow
//!   batches; `report`: their report.

pub mod counts;
pub mod decisions;
pub mod eval;
pub mod job;
pub mod multiway;
mod report;
pub mod rules;
mod tables;

#[cfg(test)]
mod tests;
