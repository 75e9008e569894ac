//! Card types shared by every game. They live in the runtime crate (`cardtables`) so that
//! apps reading our tables encode cards exactly as we do; this module re-exports them.

pub use cardtables::card::{parse_cards, parse_exact, Card, CardError, CardSet};
pub use cardtables::colex;

pub mod matchups;
