//! Blackjack: rule sets, the exact combinatorial analysis (dealer outcomes, every action's
//! EV for every starting hand and upcard, basic strategy, house edge), the seeded shoe
//! simulator that checks it, and the `blackjack.strategy` job.

pub mod analysis;
pub mod dealer;
pub mod hands;
pub mod job;
pub mod player;
mod report;
pub mod rules;
pub mod sim;

#[cfg(test)]
mod tests;
