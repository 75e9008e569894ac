//! Texas Hold'em: the 7-card evaluator, the 169 starting-hand classes, and the exact
//! preflop, heads-up, multiway and push/fold job kinds. The rules are in `docs/rules/holdem.md`.
//!
//! - [`rules`]: the (variant-free) rule set; [`eval`]: the 7-card evaluator;
//!   [`classes`]: the 169 starting-hand classes;
//! - the solvers: [`sweep`] (every class against one random hand, board by board),
//!   [`matchup`] (one matchup over every board), [`two_opponents`] (every class against
//!   two random hands), [`sampler`] (Monte Carlo against 3 to 9), [`equity`] (ranges
//!   against ranges, 2 to 6 players, any board);
//! - [`pushfold`]: the heads-up jam-or-fold equilibrium from the exact matchups, by
//!   linear programming ([`simplex`]); [`icm`]: prize equity of tournament stacks
//!   (Malmuth–Harville);
//! - [`threeway`]: every triple of classes all in three ways, exactly; [`postflop`]: hand
//!   strength on the flop, turn and river;
//! - [`job`]: the job kinds; `tables`: their Arrow batches; `report`: their reports.

pub mod classes;
pub mod equity;
pub mod eval;
pub mod icm;
pub mod job;
pub mod matchup;
pub mod postflop;
pub mod pushfold;
pub mod pushfold3;
mod report;
pub mod rules;
pub mod sampler;
pub mod simplex;
pub mod sweep;
mod tables;
pub mod threeway;
pub mod two_opponents;

#[cfg(test)]
mod tests;
