//! Hold'em heads-up (`holdem_headsup.bin`, job kind `holdem.headsup`): the exact all-in
//! result of any two starting hands over every board, by cards or by class.

use std::ffi::c_char;

use cardtables::{HeadsUpQueryError, HoldemHeadsUp};

use crate::{
    card_id, guard, handle_functions, put, text, CtStatus, Failure, CT_CARD_ERROR, CT_QUERY_ERROR,
};

impl From<HeadsUpQueryError> for Failure {
    fn from(e: HeadsUpQueryError) -> Failure {
        let status = match e {
            HeadsUpQueryError::SharedCard => CT_CARD_ERROR,
            _ => CT_QUERY_ERROR,
        };
        Failure::new(status, e.to_string())
    }
}

/// An open heads-up table (opaque to C).
pub struct CtHoldemHeadsup {
    table: HoldemHeadsUp,
}

impl CtHoldemHeadsup {
    fn make(bytes: &[u8]) -> Result<CtHoldemHeadsup, Failure> {
        Ok(CtHoldemHeadsup {
            table: HoldemHeadsUp::from_bytes(bytes)?,
        })
    }

    fn result(
        &self,
        a: [cardtables::Card; 2],
        b: [cardtables::Card; 2],
    ) -> Result<CtHeadsupResult, Failure> {
        let r = self.table.cards(a, b)?;
        Ok(CtHeadsupResult {
            wins: r.wins,
            ties: r.ties,
            losses: r.losses,
            boards: r.boards,
            equity: r.equity,
        })
    }
}

/// The exact result of the first hand against the second over every board.
#[repr(C)]
pub struct CtHeadsupResult {
    pub wins: u32,
    pub ties: u32,
    pub losses: u32,
    /// Boards dealt: C(48, 5).
    pub boards: u32,
    /// Wins plus half the ties, over all boards.
    pub equity: f64,
}

handle_functions!(
    CtHoldemHeadsup,
    ct_holdem_headsup_open,
    ct_holdem_headsup_from_bytes,
    ct_holdem_headsup_free,
    CtHoldemHeadsup::make
);

/// Two cards from text.
fn two(text: &str) -> Result<[cardtables::Card; 2], Failure> {
    let cards = cardtables::card::parse_exact(text, 2)?;
    Ok([cards[0], cards[1]])
}

/// Hand `a` against hand `b`, two cards each as text ("As Ks", "Qd Qc").
///
/// # Safety
/// `table` is a live handle; `a` and `b` NUL-terminated strings; `out` valid for writing.
#[no_mangle]
pub unsafe extern "C" fn ct_holdem_headsup_cards(
    table: *const CtHoldemHeadsup,
    a: *const c_char,
    b: *const c_char,
    out: *mut CtHeadsupResult,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promises, forwarded.
        let (t, a, b) = unsafe { (crate::table(table)?, text(a, "a")?, text(b, "b")?) };
        let r = t.result(two(a)?, two(b)?)?;
        // SAFETY: the caller's promise, forwarded.
        unsafe { put(out, r) }
    })
}

/// The same with card ids.
///
/// # Safety
/// `table` is a live handle; `out` valid for writing.
#[no_mangle]
pub unsafe extern "C" fn ct_holdem_headsup_cards_ids(
    table: *const CtHoldemHeadsup,
    a1: u8,
    a2: u8,
    b1: u8,
    b2: u8,
    out: *mut CtHeadsupResult,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promise, forwarded.
        let t = unsafe { crate::table(table) }?;
        let r = t.result([card_id(a1)?, card_id(a2)?], [card_id(b1)?, card_id(b2)?])?;
        // SAFETY: the caller's promise, forwarded.
        unsafe { put(out, r) }
    })
}

/// Two ranges against each other over every board (Rust `RangeEquity`).
#[repr(C)]
pub struct CtRangeEquity {
    /// The first range's equity: wins plus half the ties.
    pub equity: f64,
    /// Its share of boards won outright, and tied.
    pub win: f64,
    pub tie: f64,
    /// Pairs of holdings that share no card.
    pub matchups: u64,
}

/// Range `a` against range `b` in the range notation ("QQ+, AKs", "random"), exact: each
/// pair of holdings that share no card weighs the product of their weights.
///
/// # Safety
/// `table` is a live handle; `a` and `b` NUL-terminated strings; `out` valid for writing.
#[no_mangle]
pub unsafe extern "C" fn ct_holdem_headsup_range_equity(
    table: *const CtHoldemHeadsup,
    a: *const c_char,
    b: *const c_char,
    out: *mut CtRangeEquity,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promises, forwarded.
        let (t, a, b) = unsafe { (crate::table(table)?, text(a, "a")?, text(b, "b")?) };
        let range = |s: &str| {
            cardtables::Range::parse(s).map_err(|e| Failure::new(CT_CARD_ERROR, e.to_string()))
        };
        let r = t.table.range_equity(&range(a)?, &range(b)?)?;
        let r = CtRangeEquity {
            equity: r.equity,
            win: r.win,
            tie: r.tie,
            matchups: r.matchups,
        };
        // SAFETY: the caller's promise, forwarded.
        unsafe { put(out, r) }
    })
}

/// Equity of class `a` against class `b` (classes as `ct_holdem_class_index` numbers
/// them), averaged over the combos that share no card.
///
/// # Safety
/// `table` is a live handle; `out` valid for writing.
#[no_mangle]
pub unsafe extern "C" fn ct_holdem_headsup_classes(
    table: *const CtHoldemHeadsup,
    a: u32,
    b: u32,
    out: *mut f64,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promise, forwarded.
        let t = unsafe { crate::table(table) }?;
        let equity = t.table.classes(a as usize, b as usize)?;
        // SAFETY: the caller's promise, forwarded.
        unsafe { put(out, equity) }
    })
}
