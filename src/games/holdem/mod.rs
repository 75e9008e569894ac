//! Texas Hold'em: the 7-card evaluator, the 169 starting-hand classes, and the exact
//! preflop and heads-up job kinds.

pub mod classes;
pub mod eval;
pub mod headsup;
pub mod preflop;
