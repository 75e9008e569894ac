//! Zhajinhua (`zhajinhua.bin`, job kind `zhajinhua.hands`): every three-card hand's
//! category, strength and win / tie / loss against 1..N opponents, and equities against
//! calling ranges.

use std::ffi::{c_char, CString};
use std::mem::MaybeUninit;

use cardtables::{Card, Zhajinhua, ZhajinhuaQueryError};

use crate::{
    c_names, card_ids, guard, handle_functions, put, text, CtStatus, Failure, CT_CARD_ERROR,
    CT_QUERY_ERROR,
};

impl From<ZhajinhuaQueryError> for Failure {
    fn from(e: ZhajinhuaQueryError) -> Failure {
        let status = match e {
            ZhajinhuaQueryError::Cards(_) => CT_CARD_ERROR,
            _ => CT_QUERY_ERROR,
        };
        Failure::new(status, e.to_string())
    }
}

/// An open Zhajinhua table (opaque to C).
pub struct CtZhajinhua {
    table: Zhajinhua,
    /// Category names, weakest first, NUL-terminated.
    names: Vec<CString>,
}

impl CtZhajinhua {
    fn make(bytes: &[u8]) -> Result<CtZhajinhua, Failure> {
        let table = Zhajinhua::from_bytes(bytes)?;
        let names = c_names(table.categories().iter().map(String::as_str));
        Ok(CtZhajinhua { table, names })
    }

    /// Writes the answer into `out` on success (built in place: a copy through a
    /// returned value costs more than the lookup).
    #[inline]
    fn win_rate(
        &self,
        cards: &[Card],
        opponents: usize,
        out: &mut MaybeUninit<CtZhajinhuaHand>,
    ) -> Result<(), Failure> {
        let h = self.table.win_rate(cards, opponents)?;
        out.write(CtZhajinhuaHand {
            index: h.index,
            // Validation made every hand's category rank index the names.
            category: self.names[usize::from(h.category_rank)].as_ptr(),
            category_rank: h.category_rank,
            strength: h.strength,
            opponents: opponents as u32,
            win: h.win,
            tie: h.tie,
            loss: h.loss,
            equity: h.equity,
            std_error: h.std_error,
        });
        Ok(())
    }
}

/// A hand's result against some number of opponents.
#[repr(C)]
pub struct CtZhajinhuaHand {
    /// Colex index of the three cards among all 22,100 hands.
    pub index: u32,
    /// Category name, e.g. "pair" (lives as long as the table handle).
    pub category: *const c_char,
    /// Category rank, 0 = weakest.
    pub category_rank: u8,
    /// Strength under the table's rules: larger wins (but see `ct_zhajinhua_compare` for
    /// the 2-3-5 exception).
    pub strength: u16,
    /// The number of opponents these figures are against.
    pub opponents: u32,
    /// Probability of beating every opponent.
    pub win: f64,
    /// Probability of tying for best.
    pub tie: f64,
    /// 1 − win − tie.
    pub loss: f64,
    /// Share of the pot: wins plus split ties.
    pub equity: f64,
    /// Standard error: 0 where the figures are exact, else the Monte Carlo error.
    pub std_error: f64,
}

handle_functions!(
    CtZhajinhua,
    ct_zhajinhua_open,
    ct_zhajinhua_from_bytes,
    ct_zhajinhua_free,
    CtZhajinhua::make
);

/// Opponent counts the table covers: 1 to `*out`.
///
/// # Safety
/// `table` is a live handle; `out` valid for writing.
#[no_mangle]
pub unsafe extern "C" fn ct_zhajinhua_max_opponents(
    table: *const CtZhajinhua,
    out: *mut u32,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promises, forwarded.
        unsafe { put(out, crate::table(table)?.table.max_opponents() as u32) }
    })
}

/// Win / tie / loss of three cards given as text ("Ks Kh Qd") against `opponents`.
///
/// # Safety
/// `table` is a live handle; `cards` a NUL-terminated string; `out` valid for writing.
#[no_mangle]
pub unsafe extern "C" fn ct_zhajinhua_win_rate(
    table: *const CtZhajinhua,
    cards: *const c_char,
    opponents: u32,
    out: *mut CtZhajinhuaHand,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promises, forwarded.
        let (t, cards, out) = unsafe {
            (
                crate::table(table)?,
                text(cards, "cards")?,
                crate::slot(out)?,
            )
        };
        t.win_rate(&cardtables::parse_cards(cards)?, opponents as usize, out)
    })
}

/// The same for three cards given as `count` card ids.
///
/// # Safety
/// `table` is a live handle; `ids` points to `count` bytes; `out` valid for writing.
#[no_mangle]
pub unsafe extern "C" fn ct_zhajinhua_win_rate_ids(
    table: *const CtZhajinhua,
    ids: *const u8,
    count: usize,
    opponents: u32,
    out: *mut CtZhajinhuaHand,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promises, forwarded.
        let (t, out) = unsafe { (crate::table(table)?, crate::slot(out)?) };
        // SAFETY: the caller's promise, forwarded.
        t.win_rate(unsafe { card_ids(ids, count) }?, opponents as usize, out)
    })
}

/// Win / tie / loss of `hands` hands of three card ids each (`ids` holds 3 · `hands`
/// bytes) against `opponents`, into `out[0 .. hands]`: the many-hand form of
/// `ct_zhajinhua_win_rate_ids`. On failure the message names the first bad hand, and the
/// answers before it are written.
///
/// # Safety
/// `table` is a live handle; `ids` points to 3 · `hands` bytes; `out` to `hands` writable
/// answers.
#[no_mangle]
pub unsafe extern "C" fn ct_zhajinhua_win_rate_ids_many(
    table: *const CtZhajinhua,
    ids: *const u8,
    hands: usize,
    opponents: u32,
    out: *mut CtZhajinhuaHand,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promises, forwarded.
        let t = unsafe { crate::table(table) }?;
        let opponents = opponents as usize;
        // SAFETY: the caller's promises, forwarded.
        unsafe {
            crate::each_hand(ids, hands, 3, out, |cards, slot| {
                t.win_rate(cards, opponents, slot)
            })
        }
    })
}

/// Compares two disjoint hands given as text: `*out` is 1 when `a` wins, −1 when `b`
/// wins, 0 for a tie.
///
/// # Safety
/// `table` is a live handle; `a` and `b` NUL-terminated strings; `out` valid for writing.
#[no_mangle]
pub unsafe extern "C" fn ct_zhajinhua_compare(
    table: *const CtZhajinhua,
    a: *const c_char,
    b: *const c_char,
    out: *mut i32,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promises, forwarded.
        let (t, a, b) = unsafe { (crate::table(table)?, text(a, "a")?, text(b, "b")?) };
        let (a, b) = (cardtables::parse_cards(a)?, cardtables::parse_cards(b)?);
        if a.iter().any(|c| b.contains(c)) {
            return Err(Failure::new(CT_CARD_ERROR, "the two hands share a card"));
        }
        let order = t.table.compare(&a, &b)?;
        // SAFETY: the caller's promise, forwarded.
        unsafe { put(out, order as i32) }
    })
}

/// Exact equity of three cards given as text against `opponents` (1 or 2) players who
/// hold only the strongest `share` (above 0, at most 1) of hands, the marginal strength
/// level in part. Builds the hand's range curve: O(22,100).
///
/// # Safety
/// `table` is a live handle; `cards` a NUL-terminated string; `out` valid for writing.
#[no_mangle]
pub unsafe extern "C" fn ct_zhajinhua_range_equity(
    table: *const CtZhajinhua,
    cards: *const c_char,
    opponents: u32,
    share: f64,
    out: *mut f64,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promises, forwarded.
        let (t, cards) = unsafe { (crate::table(table)?, text(cards, "cards")?) };
        let cards = cardtables::parse_cards(cards)?;
        let equity = t.table.range_equity(&cards, opponents as usize, share)?;
        // SAFETY: the caller's promise, forwarded.
        unsafe { put(out, equity) }
    })
}
