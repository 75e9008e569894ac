//! Niuniu (斗牛): every five-card hand, its category under a rule set, and exact
//! head-to-head results. The rules and their variants are in `docs/rules/niuniu.md`.
//!
//! - [`rules`]: the rule set (`[rules]`), its validation and the category ranking;
//! - [`eval`]: card points, bulls and categories; [`opponents`]: exact counts of the
//!   opponent hands each rank multiset beats;
//! - `bidding`: the see-four-cards game (看牌抢庄): exact four-card results and the
//!   simulated bidding model;
//! - [`job`]: the `niuniu.hands` and `niuniu.bidding` jobs; `tables`: their Arrow batches
//!   and runtime payloads; `report`: their reports.

mod bidding;
pub mod eval;
pub mod job;
pub mod opponents;
mod report;
pub mod rules;
mod tables;

#[cfg(test)]
mod tests;
