//! Texas Hold'em: the 7-card evaluator, the 169 starting-hand classes, and the exact
//! preflop, heads-up and multiway job kinds.

pub mod classes;
pub mod eval;
pub mod headsup;
pub mod multiway;
pub mod preflop;
pub mod two_opponents;
