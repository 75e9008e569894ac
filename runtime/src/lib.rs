//! `cardtables`: the small runtime that apps embed to answer card-game questions in O(1)
//! from the exact tables that the `pipeline` binary computes.
//!
//! It holds the shared card encoding ([`Card`], [`CardSet`]), the dense colex index of a
//! card set ([`colex`]), the versioned table file format ([`format`]), one loader per
//! table — [`Niuniu`], [`Zhajinhua`], [`Holdem`] (preflop and multiway equities),
//! [`HoldemHeadsUp`] (every heads-up matchup), [`Stud`] (five-card stud starting hands)
//! and [`Blackjack`] (EVs and charts per rule set) — and the closed-form decision helpers
//! ([`decision`]). It depends on serde, bincode and a checksum only, so it stays
//! cheap to build into any application.

pub mod blackjack;
pub mod card;
pub mod colex;
pub mod decision;
pub mod format;
pub mod holdem;
pub mod holdem_headsup;
pub mod niuniu;
pub mod stud;
pub mod zhajinhua;

pub use blackjack::Blackjack;
pub use card::{parse_cards, Card, CardError, CardSet};
pub use format::{Game, TableError, TableHeader};
pub use holdem::Holdem;
pub use holdem_headsup::HoldemHeadsUp;
pub use niuniu::Niuniu;
pub use stud::Stud;
pub use zhajinhua::Zhajinhua;
