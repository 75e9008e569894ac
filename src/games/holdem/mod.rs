//! Texas Hold'em: the 7-card evaluator (job kinds come next: see the open issue).

pub mod classes;
pub mod eval;
pub mod preflop;
