//! `cardtables`: the small runtime that apps embed to answer card-game questions in O(1)
//! from the exact tables that the `pipeline` binary computes.
//!
//! It holds the shared card encoding ([`Card`], [`CardSet`], the card grammar of
//! [`parse_cards`]), the dense colex index of a card set ([`colex`]), the versioned table
//! file format ([`format`](mod@format)), one loader per table, and the closed-form decision helpers
//! ([`decision`]). It depends on serde, bincode, a checksum and thiserror only, so it stays
//! cheap to build into any application.
//!
//! Every loader checks the whole file (header, checksum, lengths, values) and every query
//! checks its inputs: a bad file or a question outside the table is an error, never a
//! panic or a neighbouring cell. Each call returns its own precise error type; all of
//! them convert into [`Error`].
//!
//! The tables, each with the job that writes it (the examples are compiled, not run:
//! they need the table files):
//!
//! - [`Niuniu`] (`tables/niuniu/niuniu.bin`, job kind `niuniu.hands`): category, strength
//!   head-to-head win probability and banker EV of all 2,598,960 five-card hands.
//!   ```no_run
//!   let table = cardtables::Niuniu::open("tables/niuniu/niuniu.bin")?;
//!   let hand = table.lookup(&cardtables::parse_cards("Ks Qh Jd Tc 9s")?)?;
//!   println!("{} wins {:.4}, banker EV {:+.4}", hand.category, hand.win_probability, hand.banker_ev);
//!   # Ok::<(), cardtables::Error>(())
//!   ```
//! - [`NiuniuBidding`] (`tables/niuniu_bidding/niuniu_bidding.bin`, `niuniu.bidding`):
//!   for every four seen cards (看牌抢庄), the fifth-card category distribution, the exact
//!   EVs as player and banker, and the suggested bid.
//!   ```no_run
//!   let table = cardtables::NiuniuBidding::open("tables/niuniu_bidding/niuniu_bidding.bin")?;
//!   let four = table.lookup(&cardtables::parse_cards("Ks Qh Jd Tc")?)?;
//!   println!("banker EV {:+.4}, bid ×{}", four.banker_ev, four.bid);
//!   # Ok::<(), cardtables::Error>(())
//!   ```
//! - [`Zhajinhua`] (`tables/zhajinhua/zhajinhua.bin`, `zhajinhua.hands`): category,
//!   strength and win rates of all 22,100 three-card hands against 1..N opponents.
//!   ```no_run
//!   let table = cardtables::Zhajinhua::open("tables/zhajinhua/zhajinhua.bin")?;
//!   let hand = table.win_rate(&cardtables::parse_cards("Ks Kh Qd")?, 2)?;
//!   println!("{}: equity {:.4}", hand.category, hand.equity);
//!   # Ok::<(), cardtables::Error>(())
//!   ```
//! - [`Holdem`] (`tables/holdem_preflop/holdem.bin`, `holdem.preflop`; also
//!   `holdem.multiway`): each of the 169 starting classes against 1..N random hands.
//!   ```no_run
//!   use cardtables::holdem::class_of_text;
//!   let table = cardtables::Holdem::open("tables/holdem_preflop/holdem.bin")?;
//!   let aks = table.preflop(class_of_text("AKs")?, 1)?;
//!   println!("AKs: equity {:.4}", aks.equity);
//!   # Ok::<(), cardtables::Error>(())
//!   ```
//! - [`HoldemHeadsUp`] (`tables/holdem_headsup/holdem_headsup.bin`, `holdem.headsup`):
//!   every heads-up matchup of two 2-card hands, exact.
//!   ```no_run
//!   let table = cardtables::HoldemHeadsUp::open("tables/holdem_headsup/holdem_headsup.bin")?;
//!   // Hands as text, as in C and Python (or as two `Card`s each).
//!   let r = table.cards("As Ks", "Qd Qc")?;
//!   println!("wins {} of {} boards", r.wins, r.boards);
//!   # Ok::<(), cardtables::Error>(())
//!   ```
//! - [`PushFold`] (`tables/holdem_pushfold/pushfold.bin`, `holdem.pushfold`): the
//!   heads-up jam-or-fold equilibrium at every stack of a grid.
//!   ```no_run
//!   let table = cardtables::PushFold::open("tables/holdem_pushfold/pushfold.bin")?;
//!   // A class name, two cards ("Kh 9c") or a class index.
//!   let push = table.push("K9o", 8.5)?;
//!   println!("push {:.0}% (EV {:+.3} bb)", 100.0 * push.frequency, push.ev);
//!   # Ok::<(), cardtables::Error>(())
//!   ```
//! - [`HoldemStrength`] (`tables/holdem_postflop/holdem_flop.bin`, and `_preflop`,
//!   `_turn`, `_river`; `holdem.postflop`): the hand strength of any hole cards on any
//!   board of the table's street, E[HS], E[HS²] and the histogram over the runouts.
//!   ```no_run
//!   use cardtables::parse_cards;
//!   let table = cardtables::HoldemStrength::open("tables/holdem_postflop/holdem_flop.bin")?;
//!   let s = table.strength(&parse_cards("Ah Kh")?, &parse_cards("Qh Jh 2c")?)?;
//!   println!("E[HS] {:.4}, E[HS²] {:.4}", s.ehs, s.ehs2);
//!   # Ok::<(), cardtables::Error>(())
//!   ```
//! - [`HoldemThreeWay`] (`tables/holdem_threeway/holdem_threeway.bin`, `holdem.threeway`):
//!   the exact all-in equity of any three starting-hand classes against each other.
//!   ```no_run
//!   let table = cardtables::HoldemThreeWay::open("tables/holdem_threeway/holdem_threeway.bin")?;
//!   // Classes in any order (names, two cards or class indices); equities in that order.
//!   let r = table.equity("AKs", "QQ", "JTs")?;
//!   println!("AKs {:.4}, QQ {:.4}, JTs {:.4} over {} deals", r.equity_a, r.equity_b, r.equity_c, r.combos);
//!   # Ok::<(), cardtables::Error>(())
//!   ```
//! - [`PushFold3`] (`tables/holdem_pushfold3/pushfold3.bin`, `holdem.pushfold3`): the
//!   three-handed jam-or-fold equilibrium (button, small blind, big blind) at every spot
//!   of the job, in chip EV and ICM.
//!   ```no_run
//!   use cardtables::pushfold3::Decision;
//!   let table = cardtables::PushFold3::open("tables/holdem_pushfold3/pushfold3.bin")?;
//!   let spot = table.equal_spot(10.0, None)?; // chip EV at 10 bb each
//!   let play = table.play(spot, Decision::SbCall, "AKo")?;
//!   println!("SB calls a push {:.0}% of the time", 100.0 * play.frequency);
//!   # Ok::<(), cardtables::Error>(())
//!   ```
//! - [`Stud`] (`tables/showhand/stud.bin`, `stud.showhand`): five-card stud starting
//!   hands against each other, per deck size.
//!   ```no_run
//!   let table = cardtables::Stud::open("tables/showhand/stud.bin")?;
//!   let (a, b) = (cardtables::parse_cards("As Ah")?, cardtables::parse_cards("Ks Qs")?);
//!   let r = table.starting_hands(table.decks()[0], &a, &b)?;
//!   println!("equity {:.4}", r.equity);
//!   # Ok::<(), cardtables::Error>(())
//!   ```
//! - [`Blackjack`] (`tables/blackjack/blackjack.bin`, `blackjack.strategy`): per rule set,
//!   the exact EV of every action for every two-card hand against every upcard, and the
//!   basic strategy chart.
//!   ```no_run
//!   use cardtables::blackjack::{parse_hand, parse_rank};
//!   let table = cardtables::Blackjack::open("tables/blackjack/blackjack.bin")?;
//!   let set = table.rule_set("6d-s17-das")?;
//!   let advice = table.best_action(set, &parse_hand("8s 8h")?, parse_rank("T")?)?;
//!   println!("{} {:?}", advice.action.name(), advice.ev);
//!   # Ok::<(), cardtables::Error>(())
//!   ```
//! - [`BlackjackIndices`] (`tables/blackjack_indices/blackjack_indices.bin`,
//!   `blackjack.indices`): per rule set and counting system, the play of every chart cell
//!   at every count, the index plays, and the insurance index.
//!   ```no_run
//!   use cardtables::blackjack::{parse_hand, parse_rank};
//!   let table = cardtables::BlackjackIndices::open("tables/blackjack_indices/blackjack_indices.bin")?;
//!   let set = table.rule_set("6d-s17-das")?;
//!   let play = table.best_action_at_count(set, &parse_hand("T 6")?, parse_rank("T")?, 2)?;
//!   println!("{} (chart: {})", play.action.name(), play.chart.name());
//!   # Ok::<(), cardtables::Error>(())
//!   ```

pub mod blackjack;
pub mod blackjack_chart;
pub mod blackjack_indices;
pub mod card;
pub mod colex;
pub mod decision;
pub mod format;
pub mod holdem;
pub mod holdem_headsup;
pub mod holdem_strength;
pub mod holdem_threeway;
pub mod indexer;
pub mod niuniu;
pub mod niuniu_bidding;
pub mod pushfold;
pub mod pushfold3;
pub mod range;
pub mod stud;
pub mod zhajinhua;

pub use blackjack::{Blackjack, BlackjackQueryError};
pub use blackjack_indices::BlackjackIndices;
pub use card::{parse_cards, Card, CardError, CardSet};
pub use format::{Game, TableError, TableHeader};
pub use holdem::{Holdem, HoldemQueryError};
pub use holdem_headsup::{HeadsUpQueryError, HoldemHeadsUp};
pub use holdem_strength::{HoldemStrength, StrengthQueryError};
pub use holdem_threeway::{HoldemThreeWay, ThreeWayQueryError, ThreeWayResult};
pub use niuniu::Niuniu;
pub use niuniu_bidding::NiuniuBidding;
pub use pushfold::{PushFold, PushFoldQueryError};
pub use pushfold3::{PushFold3, PushFold3QueryError};
pub use range::{Range, RangeError, Ranking};
pub use stud::{Stud, StudQueryError};
pub use zhajinhua::{QueryError as ZhajinhuaQueryError, Zhajinhua};

/// Every error this crate returns, by kind. Each call returns its own precise type (a
/// table that will not load is a [`TableError`], bad card text a [`CardError`], a
/// question a table cannot answer its game's query error); all of them convert into
/// `Error` with `?`, so an app that uses several tables handles one type.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Table(#[from] TableError),
    #[error(transparent)]
    Card(#[from] CardError),
    #[error(transparent)]
    Holdem(#[from] HoldemQueryError),
    #[error(transparent)]
    HeadsUp(#[from] HeadsUpQueryError),
    #[error(transparent)]
    PushFold(#[from] PushFoldQueryError),
    #[error(transparent)]
    Stud(#[from] StudQueryError),
    #[error(transparent)]
    Zhajinhua(#[from] ZhajinhuaQueryError),
    #[error(transparent)]
    Blackjack(#[from] BlackjackQueryError),
    #[error(transparent)]
    Range(#[from] RangeError),
    #[error(transparent)]
    Strength(#[from] StrengthQueryError),
    #[error(transparent)]
    ThreeWay(#[from] ThreeWayQueryError),
    #[error(transparent)]
    PushFold3(#[from] PushFold3QueryError),
}
