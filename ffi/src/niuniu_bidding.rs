//! Niuniu bidding (`niuniu_bidding.bin`, job kind `niuniu.bidding`): for every four seen
//! cards (看牌抢庄), the fifth card's category distribution, the exact EVs as player and
//! banker, and the suggested bid.

use std::ffi::{c_char, CString};

use cardtables::{Card, NiuniuBidding};

use crate::{c_names, card_ids, guard, handle_functions, put, text, CtStatus, Failure};

/// An open bidding table (opaque to C).
pub struct CtNiuniuBidding {
    table: NiuniuBidding,
    /// Category names, weakest first, NUL-terminated.
    names: Vec<CString>,
}

impl CtNiuniuBidding {
    fn make(bytes: &[u8]) -> Result<CtNiuniuBidding, Failure> {
        let table = NiuniuBidding::from_bytes(bytes)?;
        let names = c_names(table.categories().iter().map(|c| c.name.as_str()));
        Ok(CtNiuniuBidding { table, names })
    }

    fn answer(&self, cards: &[Card]) -> Result<CtNiuniuBiddingAnswer, Failure> {
        let a = self.table.lookup(cards)?;
        Ok(CtNiuniuBiddingAnswer {
            index: a.index,
            rank_class: a.rank_class,
            player_ev: a.player_ev,
            banker_ev: a.banker_ev,
            banker_ev_table: a.banker_ev_table,
            bid: a.bid,
            fifth_cards: a.fifth_cards.as_ptr(),
            categories: a.fifth_cards.len(),
            bid_evs: a.bid_evs.as_ptr(),
            bid_shares: a.bid_shares.as_ptr(),
            bid_levels: a.bid_evs.len(),
        })
    }
}

/// Everything the table says about four seen cards. The arrays live as long as the
/// handle.
#[repr(C)]
pub struct CtNiuniuBiddingAnswer {
    /// Colex index of the four cards.
    pub index: u32,
    /// The rank-multiset class the bidding model plays.
    pub rank_class: u16,
    /// Exact EV per stake as a player at ×1 against a banker dealt from the unseen cards.
    pub player_ev: f64,
    /// Exact EV per stake as the banker at ×1 against one player.
    pub banker_ev: f64,
    /// Exact EV as the banker at ×1 against the whole table, in single-player stakes.
    pub banker_ev_table: f64,
    /// The suggested bid: the multiplier the equilibrium bids most often, or 0 for no bid.
    pub bid: u32,
    /// Fifth cards (of 48) giving each category, weakest first (`categories` values).
    pub fifth_cards: *const u8,
    pub categories: usize,
    /// Exact EV per stake of each bid level (0 = no bid, then each multiplier) against
    /// the other seats playing the equilibrium, and the share of the time the
    /// equilibrium bids each level with this class (`bid_levels` values each).
    pub bid_evs: *const f64,
    pub bid_shares: *const f64,
    pub bid_levels: usize,
}

handle_functions!(
    CtNiuniuBidding,
    ct_niuniu_bidding_open,
    ct_niuniu_bidding_from_bytes,
    ct_niuniu_bidding_free,
    CtNiuniuBidding::make
);

/// Four seen cards as text ("Ks Qh Jd Tc").
///
/// # Safety
/// `table` is a live handle; `cards` a NUL-terminated string; `out` valid for writing.
#[no_mangle]
pub unsafe extern "C" fn ct_niuniu_bidding_lookup(
    table: *const CtNiuniuBidding,
    cards: *const c_char,
    out: *mut CtNiuniuBiddingAnswer,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promises, forwarded.
        let (t, cards) = unsafe { (crate::table(table)?, text(cards, "cards")?) };
        let a = t.answer(&cardtables::parse_cards(cards)?)?;
        // SAFETY: the caller's promise, forwarded.
        unsafe { put(out, a) }
    })
}

/// Four seen cards as `count` card ids.
///
/// # Safety
/// `table` is a live handle; `ids` points to `count` bytes; `out` valid for writing.
#[no_mangle]
pub unsafe extern "C" fn ct_niuniu_bidding_lookup_ids(
    table: *const CtNiuniuBidding,
    ids: *const u8,
    count: usize,
    out: *mut CtNiuniuBiddingAnswer,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promises, forwarded.
        let t = unsafe { crate::table(table) }?;
        // SAFETY: the caller's promise, forwarded.
        let a = t.answer(unsafe { card_ids(ids, count) }?)?;
        // SAFETY: the caller's promise, forwarded.
        unsafe { put(out, a) }
    })
}

/// The name and payout multiplier of category `rank` (0 = weakest; names live as long
/// as the handle). Either output may be NULL when not wanted.
///
/// # Safety
/// `table` is a live handle; `name` and `multiplier` NULL or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn ct_niuniu_bidding_category(
    table: *const CtNiuniuBidding,
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

/// The players the banker faces, and the multipliers a player may bid (`*count`
/// increasing values that live as long as the handle). Any output may be NULL.
///
/// # Safety
/// `table` is a live handle; the outputs NULL or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn ct_niuniu_bidding_game(
    table: *const CtNiuniuBidding,
    players: *mut u32,
    bids: *mut *const u32,
    count: *mut usize,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promise, forwarded.
        let t = unsafe { crate::table(table) }?;
        if !players.is_null() {
            // SAFETY: non-null, and the caller promises it is valid for writes.
            unsafe { put(players, u32::from(t.table.players())) }?;
        }
        if !bids.is_null() {
            // SAFETY: as above.
            unsafe { put(bids, t.table.bids().as_ptr()) }?;
        }
        if !count.is_null() {
            // SAFETY: as above.
            unsafe { put(count, t.table.bids().len()) }?;
        }
        Ok(())
    })
}
