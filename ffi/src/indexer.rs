//! The Hold'em state indexer (no table file: the indexer builds its own tables): the
//! canonical index of hole cards and a board up to suit permutation, and back.

use std::ffi::c_char;

use cardtables::indexer::{HoldemIndexer, IndexError};

use crate::{guard, put, text, CtStatus, Failure, CT_CARD_ERROR, CT_QUERY_ERROR};

impl From<IndexError> for Failure {
    fn from(e: IndexError) -> Failure {
        let status = match e {
            IndexError::Duplicate(_) | IndexError::Size { .. } => CT_CARD_ERROR,
            _ => CT_QUERY_ERROR,
        };
        Failure::new(status, e.to_string())
    }
}

/// An indexer (opaque to C).
pub struct CtHoldemIndexer {
    indexer: HoldemIndexer,
}

/// Builds an indexer (about a millisecond); free it with `ct_holdem_indexer_free`.
///
/// # Safety
/// `out` is valid for writing a pointer.
#[no_mangle]
pub unsafe extern "C" fn ct_holdem_indexer_new(out: *mut *mut CtHoldemIndexer) -> CtStatus {
    guard(|| {
        let handle = Box::into_raw(Box::new(CtHoldemIndexer {
            indexer: HoldemIndexer::new(),
        }));
        // SAFETY: the caller's promise, forwarded; on failure the handle is freed.
        if let Err(e) = unsafe { put(out, handle) } {
            // SAFETY: made by Box::into_raw just above and never shared.
            drop(unsafe { Box::from_raw(handle) });
            return Err(e);
        }
        Ok(())
    })
}

/// Frees an indexer (NULL is allowed and does nothing).
///
/// # Safety
/// `handle` is NULL or an indexer from this library not yet freed, used by no other thread.
#[no_mangle]
pub unsafe extern "C" fn ct_holdem_indexer_free(handle: *mut CtHoldemIndexer) {
    if !handle.is_null() {
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            // SAFETY: the caller's promise: a live handle made by Box::into_raw.
            drop(unsafe { Box::from_raw(handle) })
        }));
    }
}

/// The canonical index of two hole cards and a board of 0, 3, 4 or 5 cards, as text
/// ("As Kd", "Qh Jh 2c"; "" for no board), within its street's states.
///
/// # Safety
/// `indexer` is a live handle; `hole` and `board` NUL-terminated strings; `out` valid for
/// writing.
#[no_mangle]
pub unsafe extern "C" fn ct_holdem_index(
    indexer: *const CtHoldemIndexer,
    hole: *const c_char,
    board: *const c_char,
    out: *mut u64,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promises, forwarded.
        let (ix, hole, board) = unsafe {
            (
                crate::table(indexer)?,
                text(hole, "hole")?,
                text(board, "board")?,
            )
        };
        let hole = cardtables::parse_cards(hole)?;
        let board = cardtables::parse_cards(board)?;
        let index = ix.indexer.index(&hole, &board)?;
        // SAFETY: the caller's promise, forwarded.
        unsafe { put(out, index) }
    })
}

/// The canonical state of `index` after `street` (0 preflop, 1 flop, 2 turn, 3 river):
/// its two hole card ids and its board's ids (in increasing order), and the board's
/// length (0, 3, 4 or 5) in `*board_len`.
///
/// # Safety
/// `indexer` is a live handle; `hole` valid for writing 2 bytes, `board` for 5, and
/// `board_len` for one value.
#[no_mangle]
pub unsafe extern "C" fn ct_holdem_unindex(
    indexer: *const CtHoldemIndexer,
    street: u32,
    index: u64,
    hole: *mut u8,
    board: *mut u8,
    board_len: *mut usize,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promise, forwarded.
        let ix = unsafe { crate::table(indexer) }?;
        if hole.is_null() || board.is_null() {
            return Err(Failure::invalid("hole or board is NULL".to_string()));
        }
        let state = ix.indexer.unindex(street as usize, index)?;
        for (i, c) in state.hole.iter().enumerate() {
            // SAFETY: the caller promises room for two hole cards.
            unsafe { hole.add(i).write(c.id()) };
        }
        for (i, c) in state.board().iter().enumerate() {
            // SAFETY: the caller promises room for five board cards.
            unsafe { board.add(i).write(c.id()) };
        }
        // SAFETY: the caller's promise, forwarded.
        unsafe { put(board_len, state.board().len()) }
    })
}
