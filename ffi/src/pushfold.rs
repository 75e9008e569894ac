//! Hold'em heads-up push/fold (`pushfold.bin`, job kind `holdem.pushfold`): the jam-or-fold
//! equilibrium at every stack of a grid.

use std::ffi::c_char;

use cardtables::{PushFold, PushFoldQueryError};

use crate::{guard, handle_functions, put, text, CtStatus, Failure, CT_QUERY_ERROR};

impl From<PushFoldQueryError> for Failure {
    fn from(e: PushFoldQueryError) -> Failure {
        Failure::new(CT_QUERY_ERROR, e.to_string())
    }
}

/// An open push/fold table (opaque to C).
pub struct CtPushfold {
    table: PushFold,
}

impl CtPushfold {
    fn make(bytes: &[u8]) -> Result<CtPushfold, Failure> {
        Ok(CtPushfold {
            table: PushFold::from_bytes(bytes)?,
        })
    }

    /// The small blind's push (`small_blind`) or the big blind's call of `hand`.
    fn play(&self, hand: &str, stack: f64, small_blind: bool) -> Result<CtPushfoldPlay, Failure> {
        let class = cardtables::holdem::class_of_text(hand)?;
        let p = if small_blind {
            self.table.push(class, stack)?
        } else {
            self.table.call(class, stack)?
        };
        Ok(CtPushfoldPlay {
            stack: p.stack,
            frequency: p.frequency,
            ev: p.ev,
            ev_fold: p.ev_fold,
        })
    }
}

/// One player's equilibrium play of one class at one stack.
#[repr(C)]
pub struct CtPushfoldPlay {
    /// The grid stack answered (the nearest at or below the one asked), in big blinds.
    pub stack: f64,
    /// How often the class pushes (small blind) or calls a push (big blind), 0 to 1.
    pub frequency: f64,
    /// EV of pushing (small blind) or calling (big blind), in big blinds.
    pub ev: f64,
    /// EV of folding, in big blinds.
    pub ev_fold: f64,
}

handle_functions!(
    CtPushfold,
    ct_pushfold_open,
    ct_pushfold_from_bytes,
    ct_pushfold_free,
    CtPushfold::make
);

/// The small blind's play of a hand ("K9o", "Ah 7c") at `stack` big blinds.
///
/// # Safety
/// `table` is a live handle; `hand` a NUL-terminated string; `out` valid for writing.
#[no_mangle]
pub unsafe extern "C" fn ct_pushfold_push(
    table: *const CtPushfold,
    hand: *const c_char,
    stack: f64,
    out: *mut CtPushfoldPlay,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promises, forwarded.
        let (t, hand) = unsafe { (crate::table(table)?, text(hand, "hand")?) };
        let play = t.play(hand, stack, true)?;
        // SAFETY: the caller's promise, forwarded.
        unsafe { put(out, play) }
    })
}

/// The big blind's play of a hand facing a push at `stack` big blinds.
///
/// # Safety
/// `table` is a live handle; `hand` a NUL-terminated string; `out` valid for writing.
#[no_mangle]
pub unsafe extern "C" fn ct_pushfold_call(
    table: *const CtPushfold,
    hand: *const c_char,
    stack: f64,
    out: *mut CtPushfoldPlay,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promises, forwarded.
        let (t, hand) = unsafe { (crate::table(table)?, text(hand, "hand")?) };
        let play = t.play(hand, stack, false)?;
        // SAFETY: the caller's promise, forwarded.
        unsafe { put(out, play) }
    })
}

/// The small blind's expected net per hand at the equilibrium at `stack`, and how far the
/// stored strategies are from an equilibrium there (both in big blinds). Either output
/// may be NULL when not wanted.
///
/// # Safety
/// `table` is a live handle; `value` and `exploitability` NULL or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn ct_pushfold_value(
    table: *const CtPushfold,
    stack: f64,
    value: *mut f64,
    exploitability: *mut f64,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promise, forwarded.
        let t = unsafe { crate::table(table) }?;
        let (v, x) = (t.table.value(stack)?, t.table.exploitability(stack)?);
        if !value.is_null() {
            // SAFETY: non-null, and the caller promises it is valid for writes.
            unsafe { put(value, v) }?;
        }
        if !exploitability.is_null() {
            // SAFETY: as above.
            unsafe { put(exploitability, x) }?;
        }
        Ok(())
    })
}

/// The ante each player posts, in big blinds, and the grid's stacks (`*count` values
/// that live as long as the handle). Any output may be NULL when not wanted.
///
/// # Safety
/// `table` is a live handle; the outputs NULL or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn ct_pushfold_grid(
    table: *const CtPushfold,
    ante: *mut f64,
    stacks: *mut *const f64,
    count: *mut usize,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promise, forwarded.
        let t = unsafe { crate::table(table) }?;
        if !ante.is_null() {
            // SAFETY: non-null, and the caller promises it is valid for writes.
            unsafe { put(ante, t.table.ante()) }?;
        }
        if !stacks.is_null() {
            // SAFETY: as above.
            unsafe { put(stacks, t.table.stacks().as_ptr()) }?;
        }
        if !count.is_null() {
            // SAFETY: as above.
            unsafe { put(count, t.table.stacks().len()) }?;
        }
        Ok(())
    })
}
