//! Hold'em hand strength by street (`strength_<street>.bin`, job kind `holdem.postflop`):
//! any hole cards on any board of the table's street, E[HS], E[HS²] and the histogram
//! (HS on the river).

use std::ffi::c_char;

use cardtables::holdem_strength::StrengthQueryError;
use cardtables::HoldemStrength;

use crate::{
    guard, handle_functions, put, text, CtStatus, Failure, CT_INVALID_ARGUMENT, CT_QUERY_ERROR,
};

impl From<StrengthQueryError> for Failure {
    fn from(e: StrengthQueryError) -> Failure {
        match e {
            StrengthQueryError::State(e) => e.into(),
            StrengthQueryError::Street { .. } => Failure::new(CT_QUERY_ERROR, e.to_string()),
            StrengthQueryError::Bin { .. } => Failure::new(CT_INVALID_ARGUMENT, e.to_string()),
        }
    }
}

/// An open strength table (opaque to C).
pub struct CtHoldemStrength {
    table: HoldemStrength,
}

impl CtHoldemStrength {
    fn make(bytes: &[u8]) -> Result<CtHoldemStrength, Failure> {
        Ok(CtHoldemStrength {
            table: HoldemStrength::from_bytes(bytes)?,
        })
    }
}

/// The strength of one state against one random hand.
#[repr(C)]
pub struct CtHandStrength {
    /// 0 preflop, 1 flop, 2 turn, 3 river.
    pub street: u32,
    /// The state's canonical index on its street.
    pub index: u64,
    /// Runouts averaged over (1 on the river).
    pub runouts: u64,
    /// E[HS] (HS on the river).
    pub ehs: f64,
    /// E[HS²] (HS² on the river).
    pub ehs2: f64,
    /// Σ score and Σ score² over the runouts (score = 2·wins + ties).
    pub score_sum: u64,
    pub score_sq_sum: u64,
    /// River only (0 before): opponent holdings beaten, tied and lost to, of 990.
    pub wins: u32,
    pub ties: u32,
    pub losses: u32,
}

handle_functions!(
    CtHoldemStrength,
    ct_holdem_strength_open,
    ct_holdem_strength_from_bytes,
    ct_holdem_strength_free,
    CtHoldemStrength::make
);

/// The table behind a handle and the cards of a state given as text.
///
/// # Safety
/// `table` is a live handle; `hole` and `board` NUL-terminated strings.
unsafe fn state<'a>(
    table: *const CtHoldemStrength,
    hole: *const c_char,
    board: *const c_char,
) -> Result<
    (
        &'a CtHoldemStrength,
        Vec<cardtables::Card>,
        Vec<cardtables::Card>,
    ),
    Failure,
> {
    // SAFETY: the caller's promises, forwarded.
    let (t, hole, board) = unsafe {
        (
            crate::table(table)?,
            text(hole, "hole")?,
            text(board, "board")?,
        )
    };
    Ok((
        t,
        cardtables::parse_cards(hole)?,
        cardtables::parse_cards(board)?,
    ))
}

/// The table's street (0 preflop … 3 river) and histogram bins (0 on the river).
///
/// # Safety
/// `table` is a live handle; `street` and `bins` valid for writing.
#[no_mangle]
pub unsafe extern "C" fn ct_holdem_strength_street(
    table: *const CtHoldemStrength,
    street: *mut u32,
    bins: *mut u32,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promise, forwarded.
        let t = unsafe { crate::table(table) }?;
        // SAFETY: the caller's promises, forwarded.
        unsafe {
            put(street, t.table.street() as u32)?;
            put(bins, t.table.bins() as u32)
        }
    })
}

/// The strength of `hole` (two cards, as text) on `board` (as many cards as the table's
/// street: "" preflop, 3, 4 or 5), cards in any order.
///
/// # Safety
/// `table` is a live handle; `hole` and `board` NUL-terminated strings; `out` valid for
/// writing.
#[no_mangle]
pub unsafe extern "C" fn ct_holdem_strength_lookup(
    table: *const CtHoldemStrength,
    hole: *const c_char,
    board: *const c_char,
    out: *mut CtHandStrength,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promises, forwarded.
        let (t, hole, board) = unsafe { state(table, hole, board) }?;
        let s = t.table.strength(&hole, &board)?;
        let answer = CtHandStrength {
            street: s.street as u32,
            index: s.index,
            runouts: s.runouts,
            ehs: s.ehs,
            ehs2: s.ehs2,
            score_sum: s.score_sum,
            score_sq_sum: s.score_sq_sum,
            wins: s.wins,
            ties: s.ties,
            losses: s.losses,
        };
        // SAFETY: the caller's promise, forwarded.
        unsafe { put(out, answer) }
    })
}

/// The runouts of `hole` on `board` per HS bin, lowest first, into `counts[0..bins]`
/// (`bins` from `ct_holdem_strength_street`; a river table has none).
///
/// # Safety
/// `table` is a live handle; `hole` and `board` NUL-terminated strings; `counts` valid for
/// writing `bins` values.
#[no_mangle]
pub unsafe extern "C" fn ct_holdem_strength_histogram(
    table: *const CtHoldemStrength,
    hole: *const c_char,
    board: *const c_char,
    counts: *mut u64,
    bins: usize,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promises, forwarded.
        let (t, hole, board) = unsafe { state(table, hole, board) }?;
        if counts.is_null() {
            return Err(Failure::new(CT_INVALID_ARGUMENT, "counts is NULL"));
        }
        // SAFETY: non-NULL, and the caller promises `bins` writable values.
        let out = unsafe { std::slice::from_raw_parts_mut(counts, bins) };
        t.table.histogram(&hole, &board, out)?;
        Ok(())
    })
}
