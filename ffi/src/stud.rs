//! Five-card stud (`stud.bin`, job kind `stud.tables`): two starting hands against each
//! other, exact, per deck size.

use std::ffi::c_char;

use cardtables::{Card, Stud, StudQueryError};

use crate::{
    card_id, guard, handle_functions, put, text, CtStatus, Failure, CT_CARD_ERROR, CT_QUERY_ERROR,
};

impl From<StudQueryError> for Failure {
    fn from(e: StudQueryError) -> Failure {
        let status = match e {
            StudQueryError::Cards(_) | StudQueryError::NotAMatchup(_) => CT_CARD_ERROR,
            StudQueryError::NoDeck(_) => CT_QUERY_ERROR,
        };
        Failure::new(status, e.to_string())
    }
}

/// An open stud table (opaque to C).
pub struct CtStud {
    table: Stud,
    decks: Vec<u8>,
}

impl CtStud {
    fn make(bytes: &[u8]) -> Result<CtStud, Failure> {
        let table = Stud::from_bytes(bytes)?;
        let decks = table.decks();
        Ok(CtStud { table, decks })
    }

    fn result(&self, deck: u8, a: &[Card], b: &[Card]) -> Result<CtStudResult, Failure> {
        let r = self.table.starting_hands(deck, a, b)?;
        Ok(CtStudResult {
            wins: r.wins,
            ties: r.ties,
            losses: r.losses,
            deals: r.deals,
            equity: r.equity,
        })
    }
}

/// The exact all-in result of one two-card starting hand against another.
#[repr(C)]
pub struct CtStudResult {
    pub wins: u64,
    pub ties: u64,
    pub losses: u64,
    pub deals: u64,
    /// Wins plus half the ties, over all deals.
    pub equity: f64,
}

handle_functions!(
    CtStud,
    ct_stud_open,
    ct_stud_from_bytes,
    ct_stud_free,
    CtStud::make
);

/// The deck sizes the table covers (`*count` values that live as long as the handle).
///
/// # Safety
/// `table` is a live handle; `decks` and `count` valid for writing.
#[no_mangle]
pub unsafe extern "C" fn ct_stud_decks(
    table: *const CtStud,
    decks: *mut *const u8,
    count: *mut usize,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promises, forwarded.
        let t = unsafe { crate::table(table) }?;
        // SAFETY: the caller's promise, forwarded.
        unsafe { put(decks, t.decks.as_ptr()) }?;
        // SAFETY: the caller's promise, forwarded.
        unsafe { put(count, t.decks.len()) }
    })
}

/// Starting hand `a` against `b` (two cards each, as text) in the `deck`-card deck.
///
/// # Safety
/// `table` is a live handle; `a` and `b` NUL-terminated strings; `out` valid for writing.
#[no_mangle]
pub unsafe extern "C" fn ct_stud_starting_hands(
    table: *const CtStud,
    deck: u8,
    a: *const c_char,
    b: *const c_char,
    out: *mut CtStudResult,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promises, forwarded.
        let (t, a, b) = unsafe { (crate::table(table)?, text(a, "a")?, text(b, "b")?) };
        let r = t.result(
            deck,
            &cardtables::parse_cards(a)?,
            &cardtables::parse_cards(b)?,
        )?;
        // SAFETY: the caller's promise, forwarded.
        unsafe { put(out, r) }
    })
}

/// The same with card ids.
///
/// # Safety
/// `table` is a live handle; `out` valid for writing.
#[no_mangle]
pub unsafe extern "C" fn ct_stud_starting_hands_ids(
    table: *const CtStud,
    deck: u8,
    a1: u8,
    a2: u8,
    b1: u8,
    b2: u8,
    out: *mut CtStudResult,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promise, forwarded.
        let t = unsafe { crate::table(table) }?;
        let r = t.result(
            deck,
            &[card_id(a1)?, card_id(a2)?],
            &[card_id(b1)?, card_id(b2)?],
        )?;
        // SAFETY: the caller's promise, forwarded.
        unsafe { put(out, r) }
    })
}
