//! Blackjack: rule sets, the exact combinatorial analysis (dealer outcomes, every action's
//! EV for every starting hand and upcard, basic strategy, house edge), the seeded shoe
//! simulator that checks it, count-index plays, a counter at the table, and their jobs. The rules and their
//! variants are in `docs/rules/blackjack.md`.
//!
//! - [`rules`]: one rule set, and the rule sets of a job file (`[rules]` × `[grid]`);
//! - the math: [`hands`] (player hand compositions), [`dealer`] (the dealer's final
//!   totals), `context` (one hand's stand, hit and double values from one shoe),
//!   [`split`] (exact split EVs under each post-split strategy, and the optimal split),
//!   [`analysis`] (every action's EV, the chart, the house edge), [`sim`] (the seeded
//!   shoe simulator), [`count`] (counting systems), [`indices`] (count-index plays),
//!   [`counting`] (a counter at the table: how it plays and bets, what it wins);
//! - [`job`]: the jobs (`blackjack.strategy`, `blackjack.indices`, `blackjack.counter`);
//!   `tables`: their Arrow batches and runtime payloads; `report`: their reports.

pub mod analysis;
mod context;
pub mod count;
pub mod count_law;
pub mod counting;
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
