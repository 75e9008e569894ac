//! Blackjack (`blackjack.bin`, job kind `blackjack.strategy`): per rule set, the exact EV
//! of every action for every two-card hand against every upcard, and the basic strategy
//! chart for longer hands.

use std::ffi::{c_char, CString};

use cardtables::blackjack::{parse_hand, parse_rank, Action, ACTIONS};
use cardtables::{Blackjack, BlackjackQueryError};

use crate::{
    c_names, guard, handle_functions, put, rule_set_functions, text, CtStatus, Failure,
    CT_CARD_ERROR, CT_QUERY_ERROR,
};

impl From<BlackjackQueryError> for Failure {
    fn from(e: BlackjackQueryError) -> Failure {
        let status = match e {
            BlackjackQueryError::Card(_)
            | BlackjackQueryError::RankOutOfRange(_)
            | BlackjackQueryError::NotOneRank(_)
            | BlackjackQueryError::TooFewCards(_)
            | BlackjackQueryError::Bust(_) => CT_CARD_ERROR,
            _ => CT_QUERY_ERROR,
        };
        Failure::new(status, e.to_string())
    }
}

/// An open blackjack table (opaque to C).
pub struct CtBlackjack {
    table: Blackjack,
    /// Rule set ids, in table order, NUL-terminated.
    ids: Vec<CString>,
}

impl CtBlackjack {
    fn make(bytes: &[u8]) -> Result<CtBlackjack, Failure> {
        let table = Blackjack::from_bytes(bytes)?;
        let ids = c_names(table.rule_sets().iter().map(|s| s.id.as_str()));
        Ok(CtBlackjack { table, ids })
    }

    fn advice(
        &self,
        rule_set: usize,
        hand: &[u8],
        upcard: u8,
    ) -> Result<CtBlackjackAdvice, Failure> {
        let advice = self.table.best_action(rule_set, hand, upcard)?;
        let evs = if hand.len() == 2 {
            self.table.evs(rule_set, hand, upcard)?
        } else {
            [f64::NAN; ACTIONS]
        };
        Ok(CtBlackjackAdvice {
            action: advice.action as u32,
            ev: advice.ev.unwrap_or(f64::NAN),
            evs,
        })
    }
}

/// Blackjack actions, as `CtBlackjackAdvice::action` and the `evs` index give them:
/// 0 stand, 1 hit, 2 double, 3 split, 4 surrender.
#[repr(C)]
pub struct CtBlackjackAdvice {
    /// The best action.
    pub action: u32,
    /// Its exact EV per unit bet for a two-card hand; NaN for longer hands (answered
    /// from the basic strategy chart).
    pub ev: f64,
    /// Every action's exact EV for a two-card hand (NaN where the rules do not allow it,
    /// and for longer hands).
    pub evs: [f64; ACTIONS],
}

handle_functions!(
    CtBlackjack,
    ct_blackjack_open,
    ct_blackjack_from_bytes,
    ct_blackjack_free,
    CtBlackjack::make
);

rule_set_functions!(
    CtBlackjack,
    ct_blackjack_rule_set_count,
    ct_blackjack_rule_set_id,
    ct_blackjack_rule_set
);

/// The best action for a hand given as text ("8 8", "As 7d", "T 2 4") against an upcard
/// ("T"), under rule set `rule_set`.
///
/// # Safety
/// `table` is a live handle; `hand` and `upcard` NUL-terminated strings; `out` valid for
/// writing.
#[no_mangle]
pub unsafe extern "C" fn ct_blackjack_best_action(
    table: *const CtBlackjack,
    rule_set: usize,
    hand: *const c_char,
    upcard: *const c_char,
    out: *mut CtBlackjackAdvice,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promises, forwarded.
        let (t, hand, upcard) = unsafe {
            (
                crate::table(table)?,
                text(hand, "hand")?,
                text(upcard, "upcard")?,
            )
        };
        let advice = t.advice(rule_set, &parse_hand(hand)?, parse_rank(upcard)?)?;
        // SAFETY: the caller's promise, forwarded.
        unsafe { put(out, advice) }
    })
}

/// The same for a hand given as `count` ranks (0 = 2 … 8 = T, 9 = J, 10 = Q, 11 = K,
/// 12 = A: a card id divided by 4) and an upcard rank.
///
/// # Safety
/// `table` is a live handle; `ranks` points to `count` bytes; `out` valid for writing.
#[no_mangle]
pub unsafe extern "C" fn ct_blackjack_best_action_ranks(
    table: *const CtBlackjack,
    rule_set: usize,
    ranks: *const u8,
    count: usize,
    upcard: u8,
    out: *mut CtBlackjackAdvice,
) -> CtStatus {
    guard(|| {
        if count > 21 {
            return Err(Failure::new(
                CT_CARD_ERROR,
                format!("a hand of {count} cards is bust"),
            ));
        }
        // SAFETY: the caller's promises, forwarded.
        let (t, ranks) = unsafe { (crate::table(table)?, crate::bytes(ranks, count, "ranks")?) };
        let advice = t.advice(rule_set, ranks, upcard)?;
        // SAFETY: the caller's promise, forwarded.
        unsafe { put(out, advice) }
    })
}

/// The lower-case name of action `action` ("stand", "hit", "double", "split",
/// "surrender"; static), or NULL for a number that is not an action.
#[no_mangle]
pub extern "C" fn ct_blackjack_action_name(action: u32) -> *const c_char {
    const NAMES: [&str; ACTIONS] = ["stand\0", "hit\0", "double\0", "split\0", "surrender\0"];
    match u8::try_from(action).ok().and_then(Action::from_code) {
        Some(a) => NAMES[a as usize].as_ptr().cast(),
        None => std::ptr::null(),
    }
}
