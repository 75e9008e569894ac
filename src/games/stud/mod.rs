//! Five-card stud (梭哈, "show hand"): the evaluator for 52-, 32- and 28-card decks, the exact
//! outs engine, and the tables of job kind `stud.tables`.

pub mod eval;
pub mod headsup;
pub mod outs;
pub mod rules;
pub mod tables;
