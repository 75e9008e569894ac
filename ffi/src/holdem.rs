//! Hold'em preflop (`holdem.bin`, job kinds `holdem.preflop` and `holdem.multiway`): each
//! of the 169 starting classes against 1..N random hands.

use std::ffi::c_char;

use cardtables::{Holdem, HoldemQueryError};

use crate::{guard, handle_functions, put, text, CtStatus, Failure, CT_CARD_ERROR, CT_QUERY_ERROR};

impl From<HoldemQueryError> for Failure {
    fn from(e: HoldemQueryError) -> Failure {
        let status = match e {
            HoldemQueryError::Cards(_) | HoldemQueryError::NotAHand(_) => CT_CARD_ERROR,
            _ => CT_QUERY_ERROR,
        };
        Failure::new(status, e.to_string())
    }
}

/// An open Hold'em preflop table (opaque to C).
pub struct CtHoldem {
    table: Holdem,
}

impl CtHoldem {
    fn make(bytes: &[u8]) -> Result<CtHoldem, Failure> {
        Ok(CtHoldem {
            table: Holdem::from_bytes(bytes)?,
        })
    }

    fn preflop(&self, class: usize, opponents: u32) -> Result<CtHoldemEquity, Failure> {
        let p = self.table.preflop(class, opponents as usize)?;
        Ok(CtHoldemEquity {
            class_index: p.class_index as u32,
            opponents,
            win: p.win,
            tie: p.tie,
            equity: p.equity,
            std_error: p.std_error,
        })
    }
}

/// A starting class's result against some number of random opponents.
#[repr(C)]
pub struct CtHoldemEquity {
    /// Class index: pairs AA…22 (0–12), then suited AK…32, then offsuit.
    pub class_index: u32,
    pub opponents: u32,
    /// Probability of winning outright.
    pub win: f64,
    /// Probability of splitting the pot.
    pub tie: f64,
    /// Share of the pot.
    pub equity: f64,
    /// Standard error: 0 where exact, else the Monte Carlo error.
    pub std_error: f64,
}

handle_functions!(
    CtHoldem,
    ct_holdem_open,
    ct_holdem_from_bytes,
    ct_holdem_free,
    CtHoldem::make
);

/// Opponent counts the table covers: 1 to `*out`.
///
/// # Safety
/// `table` is a live handle; `out` valid for writing.
#[no_mangle]
pub unsafe extern "C" fn ct_holdem_max_opponents(
    table: *const CtHoldem,
    out: *mut u32,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promises, forwarded.
        unsafe { put(out, crate::table(table)?.table.max_opponents() as u32) }
    })
}

/// The equity of a starting hand given as a class ("AKs", "QQ", "T9o") or two cards
/// ("As Kd") against `opponents` random hands.
///
/// # Safety
/// `table` is a live handle; `hand` a NUL-terminated string; `out` valid for writing.
#[no_mangle]
pub unsafe extern "C" fn ct_holdem_preflop(
    table: *const CtHoldem,
    hand: *const c_char,
    opponents: u32,
    out: *mut CtHoldemEquity,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promises, forwarded.
        let (t, hand) = unsafe { (crate::table(table)?, text(hand, "hand")?) };
        let p = t.preflop(cardtables::holdem::class_of_text(hand)?, opponents)?;
        // SAFETY: the caller's promise, forwarded.
        unsafe { put(out, p) }
    })
}

/// The same for two hole cards given as card ids.
///
/// # Safety
/// `table` is a live handle; `out` valid for writing.
#[no_mangle]
pub unsafe extern "C" fn ct_holdem_preflop_ids(
    table: *const CtHoldem,
    a: u8,
    b: u8,
    opponents: u32,
    out: *mut CtHoldemEquity,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promise, forwarded.
        let t = unsafe { crate::table(table) }?;
        let (a, b) = (crate::card_id(a)?, crate::card_id(b)?);
        if a == b {
            return Err(Failure::new(
                CT_CARD_ERROR,
                format!("card {a} is given twice"),
            ));
        }
        let p = t.preflop(cardtables::holdem::class_of(a, b), opponents)?;
        // SAFETY: the caller's promise, forwarded.
        unsafe { put(out, p) }
    })
}

/// The class index of a starting hand given as a class ("AKs", "QQ", "T9o") or two cards
/// ("As Kd"): pairs AA…22 (0–12), then suited AK…32, then offsuit (168 = 32o). No table
/// is needed.
///
/// # Safety
/// `hand` is a NUL-terminated string; `out` valid for writing.
#[no_mangle]
pub unsafe extern "C" fn ct_holdem_class_index(hand: *const c_char, out: *mut u32) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promise, forwarded.
        let hand = unsafe { text(hand, "hand") }?;
        let class = cardtables::holdem::class_of_text(hand)?;
        // SAFETY: the caller's promise, forwarded.
        unsafe { put(out, class as u32) }
    })
}
