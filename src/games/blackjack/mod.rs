//! Blackjack: rule sets, the exact combinatorial analysis (dealer outcomes, every action's
//! EV for every starting hand and upcard, basic strategy, house edge), the seeded shoe
//! simulator that checks it, and the `blackjack.strategy` job. The rules and their
//! variants are in `docs/rules/blackjack.md`.
//!
//! - [`rules`]: one rule set, and the rule sets of a job file (`[rules]` × `[grid]`);
//! - the math: [`hands`] (player hand compositions), [`dealer`] (the dealer's final
//!   totals), `context` (one hand's stand, hit and double values from one shoe),
//!   [`split`] (exact split EVs under each post-split strategy, and the optimal split),
//!   [`analysis`] (every action's EV, the chart, the house edge), [`sim`] (the seeded
//!   shoe simulator);
//! - [`job`]: the job; `tables`: its Arrow batches and runtime payload; `report`: its report.

pub mod analysis;
mod context;
pub mod count;
pub mod dealer;
pub mod hands;
pub mod indices;
pub mod job;
mod report;
pub mod rules;
pub mod sim;
pub mod split;
mod tables;

#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;
