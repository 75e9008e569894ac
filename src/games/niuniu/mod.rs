//! Niuniu (斗牛): every five-card hand, its category under a rule set, and exact
//! head-to-head results. The rules and their variants are in `docs/rules/niuniu.md`.
//!
//! - [`rules`]: the rule set (`[rules]`), its validation and the category ranking;
//! - [`eval`]: card points, bulls and categories; [`opponents`]: exact counts of the
//!   opponent hands each rank multiset beats;
//! - `bidding`: the see-four-cards game (看牌抢庄): exact four-card results and the
//!   simulated bidding model;
//! - `multiway`: every hand against 1 to 5 other players, by slot;
//! - [`job`]: the `niuniu.hands`, `niuniu.bidding` and `niuniu.multiway` jobs; `tables`: their Arrow batches
//!   and runtime payloads; `report`: their reports.

mod bidding;
mod equilibrium;
pub mod eval;
pub mod job;
mod multiway;
pub mod opponents;
mod report;
pub mod rules;
mod tables;

#[cfg(test)]
mod tests;
