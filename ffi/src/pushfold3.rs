//! Hold'em three-handed push/fold (`pushfold3.bin`, job kind `holdem.pushfold3`): the
//! jam-or-fold equilibrium of the button and the blinds at every spot of the job.

use std::ffi::c_char;

use cardtables::pushfold3::{Decision, DECISIONS};
use cardtables::{PushFold3, PushFold3QueryError};

use crate::{guard, handle_functions, put, text, CtStatus, Failure, CT_QUERY_ERROR};

impl From<PushFold3QueryError> for Failure {
    fn from(e: PushFold3QueryError) -> Failure {
        Failure::new(CT_QUERY_ERROR, e.to_string())
    }
}

/// An open three-handed push/fold table (opaque to C).
pub struct CtPushfold3 {
    table: PushFold3,
}

impl CtPushfold3 {
    fn make(bytes: &[u8]) -> Result<CtPushfold3, Failure> {
        Ok(CtPushfold3 {
            table: PushFold3::from_bytes(bytes)?,
        })
    }
}

/// One class's play at one decision of one spot.
#[repr(C)]
pub struct CtPushfold3Play {
    /// The decision: 0 btn_push, 1 sb_push, 2 sb_call, 3 bb_call_sb, 4 bb_call_btn,
    /// 5 bb_call_both.
    pub decision: u32,
    /// The spot's stacks (BTN, SB, BB), big blinds.
    pub stacks: [f64; 3],
    /// 1 for an ICM spot (EVs in shares of the prize pool), 0 for chip EV (big blinds).
    pub icm: u8,
    /// How often the class pushes or calls, 0 to 1.
    pub frequency: f64,
    /// EV of acting and of folding; NaN where no deal reaches the decision.
    pub ev: f64,
    pub ev_fold: f64,
    /// The chance that a seat dealt the class faces the decision.
    pub p_faced: f64,
}

handle_functions!(
    CtPushfold3,
    ct_pushfold3_open,
    ct_pushfold3_from_bytes,
    ct_pushfold3_free,
    CtPushfold3::make
);

/// The spot of `stacks` (BTN, SB, BB in big blinds; equal stacks are answered at the grid
/// stack at or below them, unequal ones must be a spot of the table), in chip EV when
/// `payouts` is NULL, else in ICM for those `payout_count` payouts (the table's own).
///
/// # Safety
/// `table` is a live handle; `stacks` points to 3 doubles; `payouts` is NULL or points to
/// `payout_count` doubles; `spot` valid for writing.
#[no_mangle]
pub unsafe extern "C" fn ct_pushfold3_spot(
    table: *const CtPushfold3,
    stacks: *const f64,
    payouts: *const f64,
    payout_count: usize,
    spot: *mut usize,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promise, forwarded.
        let t = unsafe { crate::table(table) }?;
        if stacks.is_null() {
            return Err(Failure::invalid("stacks is NULL"));
        }
        // SAFETY: non-null, and the caller promises three doubles.
        let s = unsafe { std::slice::from_raw_parts(stacks, 3) };
        let asked = [s[0], s[1], s[2]];
        let payouts = if payouts.is_null() {
            None
        } else if payout_count == 0 || payout_count > 3 {
            return Err(Failure::invalid(format!(
                "{payout_count} payouts: three-handed pays 1 to 3 places"
            )));
        } else {
            // SAFETY: non-null, at most 3, and the caller promises `payout_count` doubles.
            Some(unsafe { std::slice::from_raw_parts(payouts, payout_count) })
        };
        let found = if asked[0] == asked[1] && asked[1] == asked[2] {
            t.table.equal_spot(asked[0], payouts)?
        } else {
            t.table.spot(asked, payouts)?
        };
        // SAFETY: the caller's promise, forwarded.
        unsafe { put(spot, found) }
    })
}

/// How a hand ("AKo", "Ah Kd") plays at `decision` (0 to 5, as in `ct_pushfold3_play`) of
/// `spot` (from `ct_pushfold3_spot`).
///
/// # Safety
/// `table` is a live handle; `hand` a NUL-terminated string; `out` valid for writing.
#[no_mangle]
pub unsafe extern "C" fn ct_pushfold3_hand(
    table: *const CtPushfold3,
    spot: usize,
    decision: u32,
    hand: *const c_char,
    out: *mut CtPushfold3Play,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promises, forwarded.
        let (t, hand) = unsafe { (crate::table(table)?, text(hand, "hand")?) };
        let d = *Decision::ALL.get(decision as usize).ok_or_else(|| {
            Failure::invalid(format!(
                "decision {decision}: decisions are 0 to {}",
                DECISIONS - 1
            ))
        })?;
        let p = t.table.play(spot, d, hand)?;
        let play = CtPushfold3Play {
            decision,
            stacks: p.stacks,
            icm: u8::from(p.icm),
            frequency: p.frequency,
            ev: p.ev.unwrap_or(f64::NAN),
            ev_fold: p.ev_fold.unwrap_or(f64::NAN),
            p_faced: p.p_faced,
        };
        // SAFETY: the caller's promise, forwarded.
        unsafe { put(out, play) }
    })
}

/// The spot's exploitability in its unit and in big blinds. Either output may be NULL.
///
/// # Safety
/// `table` is a live handle; the outputs NULL or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn ct_pushfold3_exploitability(
    table: *const CtPushfold3,
    spot: usize,
    exploitability: *mut f64,
    exploitability_bb: *mut f64,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promise, forwarded.
        let t = unsafe { crate::table(table) }?;
        let (x, bb) = t.table.exploitability(spot).ok_or_else(|| {
            Failure::new(
                CT_QUERY_ERROR,
                format!("spot {spot}: the table has {} spots", t.table.spots()),
            )
        })?;
        if !exploitability.is_null() {
            // SAFETY: non-null, and the caller promises it is valid for writes.
            unsafe { put(exploitability, x) }?;
        }
        if !exploitability_bb.is_null() {
            // SAFETY: as above.
            unsafe { put(exploitability_bb, x / bb) }?;
        }
        Ok(())
    })
}
