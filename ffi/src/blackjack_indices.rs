//! Blackjack count indices (`blackjack_indices.bin`, job kind `blackjack.indices`): per
//! rule set and counting system, the play of every hand at every count, and insurance.

use std::ffi::{c_char, CString};

use cardtables::blackjack::{parse_hand, parse_rank};
use cardtables::BlackjackIndices;

use crate::{
    c_names, guard, handle_functions, put, rule_set_functions, text, CtStatus, Failure,
    CT_CARD_ERROR,
};

/// An open count-index table (opaque to C).
pub struct CtBlackjackIndices {
    table: BlackjackIndices,
    /// Rule set ids, in table order, NUL-terminated.
    ids: Vec<CString>,
}

impl CtBlackjackIndices {
    fn make(bytes: &[u8]) -> Result<CtBlackjackIndices, Failure> {
        let table = BlackjackIndices::from_bytes(bytes)?;
        let ids = c_names(table.rule_sets().iter().map(|s| s.id.as_str()));
        Ok(CtBlackjackIndices { table, ids })
    }

    fn advice(
        &self,
        rule_set: usize,
        hand: &[u8],
        upcard: u8,
        count: i32,
    ) -> Result<CtCountAdvice, Failure> {
        let a = self
            .table
            .best_action_at_count(rule_set, hand, upcard, count)?;
        Ok(CtCountAdvice {
            action: a.action as u32,
            chart: a.chart as u32,
            has_index: u8::from(a.index.is_some()),
            below: a.index.map_or(0, |x| u8::from(x.below)),
            index: a.index.map_or(0, |x| x.index),
            gain_per_100: a.index.map_or(f64::NAN, |x| x.gain_per_100),
        })
    }
}

/// The play of a hand at a count (actions numbered as for `ct_blackjack_advice`).
#[repr(C)]
pub struct CtCountAdvice {
    /// What to do.
    pub action: u32,
    /// What the basic strategy chart does.
    pub chart: u32,
    /// 1 when an index play changed the chart's action (the fields below describe it).
    pub has_index: u8,
    /// 1 when the index play applies at or below `index`, 0 at or above.
    pub below: u8,
    /// The count at which the play changes.
    pub index: i32,
    /// The EV the index play adds per 100 rounds, in initial bets (NaN without one).
    pub gain_per_100: f64,
}

handle_functions!(
    CtBlackjackIndices,
    ct_blackjack_indices_open,
    ct_blackjack_indices_from_bytes,
    ct_blackjack_indices_free,
    CtBlackjackIndices::make
);

rule_set_functions!(
    CtBlackjackIndices,
    ct_blackjack_indices_rule_set_count,
    ct_blackjack_indices_rule_set_id,
    ct_blackjack_indices_rule_set
);

/// The play for a hand given as text ("T 6") against an upcard ("T") at `count` (the
/// table's count: the true count of a balanced system, the running count of KO).
///
/// # Safety
/// `table` is a live handle; `hand` and `upcard` NUL-terminated strings; `out` valid for
/// writing.
#[no_mangle]
pub unsafe extern "C" fn ct_blackjack_indices_best_action(
    table: *const CtBlackjackIndices,
    rule_set: usize,
    hand: *const c_char,
    upcard: *const c_char,
    count: i32,
    out: *mut CtCountAdvice,
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
        let a = t.advice(rule_set, &parse_hand(hand)?, parse_rank(upcard)?, count)?;
        // SAFETY: the caller's promise, forwarded.
        unsafe { put(out, a) }
    })
}

/// The same for a hand given as `len` ranks (a card id divided by 4) and an upcard rank.
///
/// # Safety
/// `table` is a live handle; `ranks` points to `len` bytes; `out` valid for writing.
#[no_mangle]
pub unsafe extern "C" fn ct_blackjack_indices_best_action_ranks(
    table: *const CtBlackjackIndices,
    rule_set: usize,
    ranks: *const u8,
    len: usize,
    upcard: u8,
    count: i32,
    out: *mut CtCountAdvice,
) -> CtStatus {
    guard(|| {
        if len > 21 {
            return Err(Failure::new(
                CT_CARD_ERROR,
                format!("a hand of {len} cards is bust"),
            ));
        }
        // SAFETY: the caller's promises, forwarded.
        let (t, ranks) = unsafe { (crate::table(table)?, crate::bytes(ranks, len, "ranks")?) };
        let a = t.advice(rule_set, ranks, upcard, count)?;
        // SAFETY: the caller's promise, forwarded.
        unsafe { put(out, a) }
    })
}

/// Whether to take insurance (an ace showing) at `count`: `*out` is 1 or 0.
///
/// # Safety
/// `table` is a live handle; `out` valid for writing.
#[no_mangle]
pub unsafe extern "C" fn ct_blackjack_indices_insure(
    table: *const CtBlackjackIndices,
    rule_set: usize,
    count: i32,
    out: *mut u8,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promise, forwarded.
        let t = unsafe { crate::table(table) }?;
        let insure = t.table.insure(rule_set, count)?;
        // SAFETY: the caller's promise, forwarded.
        unsafe { put(out, u8::from(insure)) }
    })
}
