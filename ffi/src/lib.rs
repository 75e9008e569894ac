//! `cardtables-ffi`: a C ABI over the [`cardtables`] runtime, so that apps written in C,
//! C++, C#, Go, Swift, Java/Kotlin or anything with a C FFI answer questions from the
//! pipeline's table files. The header is `include/cardtables.h`; a test checks that it
//! declares exactly the functions and structs this crate exports.
//!
//! # Conventions
//!
//! - **Handles.** Each table file has its opaque handle type (`ct_niuniu`,
//!   `ct_niuniu_bidding`, `ct_zhajinhua`, `ct_holdem`, `ct_holdem_headsup`,
//!   `ct_holdem_threeway`, `ct_holdem_strength`, `ct_pushfold`, `ct_pushfold3`, `ct_stud`, `ct_blackjack`,
//!   `ct_blackjack_indices`), made by
//!   `ct_<table>_open(path, &handle)` or `ct_<table>_from_bytes(bytes, len, &handle)`
//!   and released by `ct_<table>_free` (which accepts NULL). A handle is immutable once
//!   made: any number of threads may query one handle at once.
//! - **Status codes.** Every fallible function returns a `ct_status` (`CT_OK` = 0) and
//!   writes its results through out-pointers, which are left untouched on failure (the
//!   `_many` calls, which answer many hands at once, write the answers before the first
//!   bad hand and name it in the message).
//! - **Errors.** The message of the last call that failed on the calling thread is
//!   `ct_last_error()`: a NUL-terminated UTF-8 string owned by the library, valid until
//!   the next failing call on that thread.
//! - **Hostile input.** Every pointer is checked for NULL and every length and index
//!   bound-checked, so a bad argument is an error code, never a crash; a table file that
//!   is corrupt, truncated, of another game or another version is refused at open. No
//!   panic crosses the boundary: one would be caught and reported as `CT_PANIC`.
//! - **Cards.** As text (`"As Kh Td"`: see [`cardtables::parse_cards`]) or as card ids
//!   (`4 · rank + suit`, rank 0 = 2 … 12 = A, suit 0..3 = ♦ ♣ ♥ ♠).
//! - **Strings** returned by the library (category names) live as long as their handle.

#![deny(unsafe_op_in_unsafe_fn)]

use std::cell::RefCell;
use std::ffi::{c_char, CStr, CString};
use std::mem::MaybeUninit;
use std::panic::{catch_unwind, AssertUnwindSafe};

mod blackjack;
mod blackjack_indices;
mod holdem;
mod holdem_headsup;
mod holdem_strength;
mod holdem_threeway;
mod indexer;
mod niuniu;
mod niuniu_bidding;
mod pushfold;
mod pushfold3;
mod stud;
mod zhajinhua;

pub use blackjack::*;
pub use blackjack_indices::*;
pub use holdem::*;
pub use holdem_headsup::*;
pub use holdem_threeway::*;
pub use niuniu::*;
pub use niuniu_bidding::*;
pub use pushfold::*;
pub use pushfold3::*;
pub use stud::*;
pub use zhajinhua::*;

/// The result of a call: `CT_OK` or what went wrong.
pub type CtStatus = i32;

/// Success.
pub const CT_OK: CtStatus = 0;
/// A required pointer was NULL, a length out of range or a string not UTF-8.
pub const CT_INVALID_ARGUMENT: CtStatus = 1;
/// The table file could not be read, or is not a valid table of the expected game and
/// version.
pub const CT_TABLE_ERROR: CtStatus = 2;
/// Card text or ids that are not the cards the question needs (unknown characters,
/// duplicates, the wrong number of cards, ids ≥ 52).
pub const CT_CARD_ERROR: CtStatus = 3;
/// A question the table does not cover (an opponent count, a rule set, a class, …).
pub const CT_QUERY_ERROR: CtStatus = 4;
/// An internal error: a panic was caught at the boundary (please report it).
pub const CT_PANIC: CtStatus = 5;

/// A failed call: its status and message.
pub(crate) struct Failure {
    status: CtStatus,
    message: String,
}

impl Failure {
    pub(crate) fn new(status: CtStatus, message: impl Into<String>) -> Failure {
        Failure {
            status,
            message: message.into(),
        }
    }

    pub(crate) fn invalid(message: impl Into<String>) -> Failure {
        Failure::new(CT_INVALID_ARGUMENT, message)
    }
}

impl From<cardtables::TableError> for Failure {
    fn from(e: cardtables::TableError) -> Failure {
        Failure::new(CT_TABLE_ERROR, e.to_string())
    }
}

impl From<cardtables::CardError> for Failure {
    fn from(e: cardtables::CardError) -> Failure {
        Failure::new(CT_CARD_ERROR, e.to_string())
    }
}

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn set_last_error(message: &str) {
    // A message cannot hold NUL; replace any (from a file name, say) so it still shows.
    let text = CString::new(message.replace('\0', "\u{fffd}")).unwrap_or_default();
    LAST_ERROR.with(|last| *last.borrow_mut() = text);
}

/// Runs `body`, turning its failure or a panic into a status code and the thread's last
/// error message. Inlined into every exported function: a call of its own cost a
/// Zhajinhua lookup a quarter of its time.
#[inline(always)]
pub(crate) fn guard(body: impl FnOnce() -> Result<(), Failure>) -> CtStatus {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => CT_OK,
        Ok(Err(failure)) => {
            set_last_error(&failure.message);
            failure.status
        }
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            set_last_error(&format!("internal error (please report): {what}"));
            CT_PANIC
        }
    }
}

/// The message of the last call that failed on this thread ("" if none has): owned by
/// the library, valid until the next failing call on this thread.
#[no_mangle]
pub extern "C" fn ct_last_error() -> *const c_char {
    LAST_ERROR.with(|last| last.borrow().as_ptr())
}

/// The library's version, e.g. "0.1.0" (static).
#[no_mangle]
pub extern "C" fn ct_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}

/// The text of a NUL-terminated C string argument.
///
/// # Safety
/// `ptr` is NULL or points to a NUL-terminated string that outlives the call.
pub(crate) unsafe fn text<'a>(ptr: *const c_char, what: &str) -> Result<&'a str, Failure> {
    if ptr.is_null() {
        return Err(Failure::invalid(format!("{what} is NULL")));
    }
    // SAFETY: non-null, and the caller promises a NUL-terminated string.
    unsafe { CStr::from_ptr(ptr) }
        .to_str()
        .map_err(|_| Failure::invalid(format!("{what} is not UTF-8")))
}

/// A byte buffer argument.
///
/// # Safety
/// `ptr` is NULL or points to `len` readable bytes that outlive the call.
#[inline]
pub(crate) unsafe fn bytes<'a>(
    ptr: *const u8,
    len: usize,
    what: &str,
) -> Result<&'a [u8], Failure> {
    if len == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(Failure::invalid(format!(
            "{what} is NULL with length {len}"
        )));
    }
    if len > isize::MAX as usize {
        return Err(Failure::invalid(format!(
            "{what} length {len} is too large"
        )));
    }
    // SAFETY: non-null, the length fits a slice, and the caller promises `len` bytes.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// Cards given as `count` ids, read in place (no copy, no allocation: a lookup is a few
/// nanoseconds); every id is checked to be below 52, duplicates are left to the lookup.
///
/// # Safety
/// As [`bytes`].
#[inline(always)]
pub(crate) unsafe fn card_ids<'a>(
    ids: *const u8,
    count: usize,
) -> Result<&'a [cardtables::Card], Failure> {
    if count > 52 {
        return Err(Failure::new(
            CT_CARD_ERROR,
            format!("{count} card ids: a deck has 52 cards"),
        ));
    }
    // SAFETY: forwarded from the caller.
    let ids = unsafe { bytes(ids, count, "card ids") }?;
    cards_of(ids)
}

/// Card ids read as cards in place, or the error naming the first id of 52 or more.
#[inline]
pub(crate) fn cards_of(ids: &[u8]) -> Result<&[cardtables::Card], Failure> {
    cardtables::Card::slice_from_ids(ids).map_err(out_of_range)
}

/// The card with id `id`, or the error for an id of 52 or more.
#[inline]
pub(crate) fn card_id(id: u8) -> Result<cardtables::Card, Failure> {
    cardtables::Card::from_id(id).ok_or_else(|| out_of_range(id))
}

#[cold]
fn out_of_range(id: u8) -> Failure {
    Failure::new(
        CT_CARD_ERROR,
        format!("card id {id} is out of range (ids are 0 to 51)"),
    )
}

/// The output array of a batch call: `len` writable `T`.
///
/// # Safety
/// `ptr` is NULL or valid for writing `len` values of `T`.
pub(crate) unsafe fn outputs<'a, T>(
    ptr: *mut T,
    len: usize,
) -> Result<&'a mut [MaybeUninit<T>], Failure> {
    if len == 0 {
        return Ok(&mut []);
    }
    if ptr.is_null() {
        return Err(Failure::invalid("the output array is NULL"));
    }
    if len > isize::MAX as usize / std::mem::size_of::<T>().max(1) {
        return Err(Failure::invalid(format!("{len} outputs is too many")));
    }
    // SAFETY: non-null, the size fits, and the caller promises `len` writable values.
    Ok(unsafe { std::slice::from_raw_parts_mut(ptr.cast(), len) })
}

/// The place an out-pointer names, to be written on success.
///
/// # Safety
/// `out` is NULL or valid for writing a `T`.
#[inline]
pub(crate) unsafe fn slot<'a, T>(out: *mut T) -> Result<&'a mut MaybeUninit<T>, Failure> {
    // SAFETY: forwarded from the caller; MaybeUninit<T> has T's layout.
    unsafe { out.cast::<MaybeUninit<T>>().as_mut() }
        .ok_or_else(|| Failure::invalid("the output pointer is NULL"))
}

/// The card ids of a batch call: `hands` hands of `per_hand` ids each.
///
/// # Safety
/// `ids` is NULL or points to `hands · per_hand` readable bytes.
pub(crate) unsafe fn hand_ids<'a>(
    ids: *const u8,
    hands: usize,
    per_hand: usize,
) -> Result<&'a [u8], Failure> {
    let len = hands
        .checked_mul(per_hand)
        .ok_or_else(|| Failure::invalid(format!("{hands} hands is too many")))?;
    // SAFETY: forwarded from the caller.
    unsafe { bytes(ids, len, "card ids") }
}

/// The body of a batch call: `hands` hands of `per_hand` card ids each, read from `ids`
/// and answered by `answer` into `out[0 .. hands]`. It stops at the first bad hand, whose
/// number the message gives; the answers before it are written.
///
/// # Safety
/// `ids` is NULL or points to `hands · per_hand` bytes; `out` is NULL or points to `hands`
/// writable answers.
#[inline]
pub(crate) unsafe fn each_hand<T>(
    ids: *const u8,
    hands: usize,
    per_hand: usize,
    out: *mut T,
    mut answer: impl FnMut(&[cardtables::Card], &mut MaybeUninit<T>) -> Result<(), Failure>,
) -> Result<(), Failure> {
    // SAFETY: the caller's promises, forwarded.
    let (ids, out) = unsafe { (hand_ids(ids, hands, per_hand)?, outputs(out, hands)?) };
    for (i, (chunk, slot)) in ids.chunks_exact(per_hand).zip(out).enumerate() {
        cards_of(chunk)
            .and_then(|cards| answer(cards, slot))
            .map_err(|e| at_hand(i, e))?;
    }
    Ok(())
}

/// A batch call's failure at hand `i`: the same status, the hand named in the message.
pub(crate) fn at_hand(i: usize, failure: Failure) -> Failure {
    Failure::new(failure.status, format!("hand {i}: {}", failure.message))
}

/// Writes `value` through an out-pointer.
///
/// # Safety
/// `out` is NULL or valid for writing a `T`.
pub(crate) unsafe fn put<T>(out: *mut T, value: T) -> Result<(), Failure> {
    // SAFETY: forwarded from the caller.
    unsafe { slot(out) }?.write(value);
    Ok(())
}

/// The table behind a handle.
///
/// # Safety
/// `handle` is NULL or a live handle of this type made by this library.
pub(crate) unsafe fn table<'a, T>(handle: *const T) -> Result<&'a T, Failure> {
    // SAFETY: forwarded from the caller.
    unsafe { handle.as_ref() }.ok_or_else(|| Failure::invalid("the table handle is NULL"))
}

/// Generates a table type's open, from-bytes and free functions.
macro_rules! handle_functions {
    ($handle:ident, $open:ident, $from_bytes:ident, $free:ident, $make:path) => {
        /// Opens a table file; on success `*out` is a handle to free with the matching
        /// free function.
        ///
        /// # Safety
        /// `path` is a NUL-terminated string; `out` is valid for writing a pointer.
        #[no_mangle]
        pub unsafe extern "C" fn $open(
            path: *const ::std::ffi::c_char,
            out: *mut *mut $handle,
        ) -> $crate::CtStatus {
            $crate::guard(|| {
                // SAFETY: the caller's promise, forwarded.
                let path = unsafe { $crate::text(path, "path") }?;
                let bytes = ::cardtables::format::read_file(std::path::Path::new(path))?;
                let handle = Box::into_raw(Box::new($make(&bytes)?));
                // SAFETY: the caller's promise, forwarded; on failure the handle is freed.
                if let Err(e) = unsafe { $crate::put(out, handle) } {
                    // SAFETY: made by Box::into_raw just above and never shared.
                    drop(unsafe { Box::from_raw(handle) });
                    return Err(e);
                }
                Ok(())
            })
        }

        /// Reads a table from `len` bytes (copied: the buffer may be freed after the
        /// call); on success `*out` is a handle to free with the matching free function.
        ///
        /// # Safety
        /// `bytes` points to `len` readable bytes; `out` is valid for writing a pointer.
        #[no_mangle]
        pub unsafe extern "C" fn $from_bytes(
            bytes: *const u8,
            len: usize,
            out: *mut *mut $handle,
        ) -> $crate::CtStatus {
            $crate::guard(|| {
                // SAFETY: the caller's promise, forwarded.
                let bytes = unsafe { $crate::bytes(bytes, len, "bytes") }?;
                let handle = Box::into_raw(Box::new($make(bytes)?));
                // SAFETY: the caller's promise, forwarded; on failure the handle is freed.
                if let Err(e) = unsafe { $crate::put(out, handle) } {
                    // SAFETY: made by Box::into_raw just above and never shared.
                    drop(unsafe { Box::from_raw(handle) });
                    return Err(e);
                }
                Ok(())
            })
        }

        /// Frees a handle (NULL is allowed and does nothing).
        ///
        /// # Safety
        /// `handle` is NULL or a handle from this library not yet freed, and no other
        /// thread is using it.
        #[no_mangle]
        pub unsafe extern "C" fn $free(handle: *mut $handle) {
            if !handle.is_null() {
                let _ = ::std::panic::catch_unwind(::std::panic::AssertUnwindSafe(|| {
                    // SAFETY: the caller's promise: a live handle made by Box::into_raw.
                    drop(unsafe { Box::from_raw(handle) })
                }));
            }
        }
    };
}
pub(crate) use handle_functions;

/// Generates the rule set functions of a blackjack table type (whose handle keeps the
/// NUL-terminated rule set `ids` beside a `table` with `rule_set(id)`): the count, the
/// id of one, and the index of an id.
macro_rules! rule_set_functions {
    ($handle:ident, $count:ident, $id:ident, $find:ident) => {
        /// The number of rule sets in the table.
        ///
        /// # Safety
        /// `table` is a live handle; `out` valid for writing.
        #[no_mangle]
        pub unsafe extern "C" fn $count(
            table: *const $handle,
            out: *mut usize,
        ) -> $crate::CtStatus {
            $crate::guard(|| {
                // SAFETY: the caller's promises, forwarded.
                unsafe { $crate::put(out, $crate::table(table)?.ids.len()) }
            })
        }

        /// The id of rule set `index` (e.g. "6d-s17-das"); it lives as long as the handle.
        ///
        /// # Safety
        /// `table` is a live handle; `out` valid for writing.
        #[no_mangle]
        pub unsafe extern "C" fn $id(
            table: *const $handle,
            index: usize,
            out: *mut *const ::std::ffi::c_char,
        ) -> $crate::CtStatus {
            $crate::guard(|| {
                // SAFETY: the caller's promise, forwarded.
                let t = unsafe { $crate::table(table) }?;
                let id = t.ids.get(index).ok_or_else(|| {
                    $crate::Failure::new(
                        $crate::CT_QUERY_ERROR,
                        format!(
                            "rule set {index} is not in this table (it has {})",
                            t.ids.len()
                        ),
                    )
                })?;
                // SAFETY: the caller's promise, forwarded.
                unsafe { $crate::put(out, id.as_ptr()) }
            })
        }

        /// Finds a rule set by id: `*out` is its index.
        ///
        /// # Safety
        /// `table` is a live handle; `id` a NUL-terminated string; `out` valid for writing.
        #[no_mangle]
        pub unsafe extern "C" fn $find(
            table: *const $handle,
            id: *const ::std::ffi::c_char,
            out: *mut usize,
        ) -> $crate::CtStatus {
            $crate::guard(|| {
                // SAFETY: the caller's promises, forwarded.
                let (t, id) = unsafe { ($crate::table(table)?, $crate::text(id, "rule set id")?) };
                let index = t.table.rule_set(id)?;
                // SAFETY: the caller's promise, forwarded.
                unsafe { $crate::put(out, index) }
            })
        }
    };
}
pub(crate) use rule_set_functions;

/// Writes the name and multiplier of category `rank` through whichever outputs are not
/// NULL.
///
/// # Safety
/// `name` and `multiplier` are NULL or valid for writing.
pub(crate) unsafe fn put_category(
    names: &[CString],
    infos: &[cardtables::niuniu::CategoryInfo],
    rank: usize,
    name: *mut *const c_char,
    multiplier: *mut u32,
) -> Result<(), Failure> {
    let (Some(n), Some(info)) = (names.get(rank), infos.get(rank)) else {
        return Err(Failure::new(
            CT_QUERY_ERROR,
            format!(
                "category {rank} is not in this table (it has {})",
                names.len()
            ),
        ));
    };
    if !name.is_null() {
        // SAFETY: non-null, and the caller promises it is valid for writes.
        unsafe { put(name, n.as_ptr()) }?;
    }
    if !multiplier.is_null() {
        // SAFETY: as above.
        unsafe { put(multiplier, info.multiplier) }?;
    }
    Ok(())
}

/// NUL-terminated copies of a table's names, kept beside it for the life of its handle.
pub(crate) fn c_names<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<CString> {
    names
        .into_iter()
        .map(|n| CString::new(n.replace('\0', "\u{fffd}")).unwrap_or_default())
        .collect()
}

#[cfg(test)]
mod tests;
