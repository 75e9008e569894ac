//! Blackjack: rule sets and the exact dealer analysis (the player's EVs, strategy and the
//! simulator come next: see the open issue).

pub mod dealer;
pub mod player;
pub mod rules;
