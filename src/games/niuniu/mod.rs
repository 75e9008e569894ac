//! Niuniu (斗牛): every five-card hand, its category under a rule set, and exact
//! head-to-head results. See `shared/RULES.md` for the rules and their variants.

pub mod eval;
pub mod hands;
pub mod headsup;
pub mod rules;

#[cfg(test)]
mod tests;
