//! Zhajinhua (炸金花, three-card poker): every 3-card hand under each rule variant, exact
//! win / tie / loss against opponents dealt from the same deck, and the EV decision model.

pub mod decisions;
pub mod eval;
pub mod hands;
pub mod multiway;
mod report;
pub mod rules;

#[cfg(test)]
mod tests;
