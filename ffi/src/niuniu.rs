//! Niuniu (`niuniu.bin`, job kind `niuniu.hands`): every five-card hand's category,
//! strength, exact win probability against one opponent and banker EV.

use std::ffi::{c_char, CString};
use std::mem::MaybeUninit;

use cardtables::Niuniu;

use crate::{c_names, card_ids, guard, handle_functions, put, text, CtStatus, Failure};

/// An open Niuniu table (opaque to C).
pub struct CtNiuniu {
    table: Niuniu,
    /// Category names, weakest first, NUL-terminated.
    names: Vec<CString>,
}

impl CtNiuniu {
    fn make(bytes: &[u8]) -> Result<CtNiuniu, Failure> {
        let table = Niuniu::from_bytes(bytes)?;
        let names = c_names(table.categories().iter().map(|c| c.name.as_str()));
        Ok(CtNiuniu { table, names })
    }

    /// Writes the answer into `out` on success (built in place: a copy through a
    /// returned value costs more than the lookup).
    #[inline]
    fn hand(
        &self,
        cards: &[cardtables::Card],
        out: &mut MaybeUninit<CtNiuniuHand>,
    ) -> Result<(), Failure> {
        let h = self.table.lookup(cards)?;
        let category = self
            .names
            .get(usize::from(h.category_rank))
            .ok_or_else(|| Failure::new(crate::CT_PANIC, "category rank outside the table"))?;
        out.write(CtNiuniuHand {
            index: h.index,
            category: category.as_ptr(),
            category_rank: h.category_rank,
            tie_break: h.tie_break.id(),
            strength: h.strength,
            multiplier: h.multiplier,
            wins: h.wins,
            win_probability: h.win_probability,
            banker_ev: h.banker_ev,
        });
        Ok(())
    }
}

/// Everything the table says about one hand of five cards.
#[repr(C)]
pub struct CtNiuniuHand {
    /// Colex index of the five cards among all 2,598,960 hands.
    pub index: u32,
    /// Category name, e.g. "bull_9" (lives as long as the table handle).
    pub category: *const c_char,
    /// Category rank, 0 = weakest.
    pub category_rank: u8,
    /// Card id of the tie-break card.
    pub tie_break: u8,
    /// Strength: the larger hand wins.
    pub strength: u16,
    /// Payout multiplier of the category.
    pub multiplier: u32,
    /// Opponent hands beaten, of 1,533,939.
    pub wins: u32,
    /// Exact probability of beating one opponent dealt from the 47 unseen cards.
    pub win_probability: f64,
    /// Exact EV per stake as banker against one player.
    pub banker_ev: f64,
}

handle_functions!(
    CtNiuniu,
    ct_niuniu_open,
    ct_niuniu_from_bytes,
    ct_niuniu_free,
    CtNiuniu::make
);

/// Looks up five cards given as text, e.g. "Ks Qh Jd Tc 9s".
///
/// # Safety
/// `table` is a live handle; `cards` a NUL-terminated string; `out` valid for writing.
#[no_mangle]
pub unsafe extern "C" fn ct_niuniu_lookup(
    table: *const CtNiuniu,
    cards: *const c_char,
    out: *mut CtNiuniuHand,
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
        t.hand(&cardtables::parse_cards(cards)?, out)
    })
}

/// Looks up five cards given as `count` card ids (in any order).
///
/// # Safety
/// `table` is a live handle; `ids` points to `count` bytes; `out` valid for writing.
#[no_mangle]
pub unsafe extern "C" fn ct_niuniu_lookup_ids(
    table: *const CtNiuniu,
    ids: *const u8,
    count: usize,
    out: *mut CtNiuniuHand,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promise, forwarded.
        let (t, out) = unsafe { (crate::table(table)?, crate::slot(out)?) };
        // SAFETY: the caller's promise, forwarded.
        t.hand(unsafe { card_ids(ids, count) }?, out)
    })
}

/// Looks up `hands` hands of five card ids each (`ids` holds 5 · `hands` bytes, hand
/// after hand) into `out[0 .. hands]`: the many-hand form of `ct_niuniu_lookup_ids`,
/// without a call per hand. On failure the message names the first bad hand, and the
/// answers before it are written.
///
/// # Safety
/// `table` is a live handle; `ids` points to 5 · `hands` bytes; `out` to `hands` writable
/// answers.
#[no_mangle]
pub unsafe extern "C" fn ct_niuniu_lookup_ids_many(
    table: *const CtNiuniu,
    ids: *const u8,
    hands: usize,
    out: *mut CtNiuniuHand,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promises, forwarded.
        let t = unsafe { crate::table(table) }?;
        // SAFETY: the caller's promises, forwarded.
        unsafe { crate::each_hand(ids, hands, 5, out, |cards, slot| t.hand(cards, slot)) }
    })
}

/// The number of categories (ranks run from 0 to this − 1).
///
/// # Safety
/// `table` is a live handle; `out` valid for writing.
#[no_mangle]
pub unsafe extern "C" fn ct_niuniu_category_count(
    table: *const CtNiuniu,
    out: *mut usize,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promises, forwarded.
        unsafe { put(out, crate::table(table)?.names.len()) }
    })
}

/// The name and payout multiplier of category `rank` (0 = weakest); the name lives as
/// long as the handle. Either output pointer may be NULL when not wanted.
///
/// # Safety
/// `table` is a live handle; `name` and `multiplier` are NULL or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn ct_niuniu_category(
    table: *const CtNiuniu,
    rank: usize,
    name: *mut *const c_char,
    multiplier: *mut u32,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promises, forwarded.
        let t = unsafe { crate::table(table) }?;
        // SAFETY: the caller's promises, forwarded.
        unsafe { crate::put_category(&t.names, t.table.categories(), rank, name, multiplier) }
    })
}
