//! Hold'em three-way (`holdem_threeway.bin`, job kind `holdem.threeway`): the exact all-in
//! equity of three starting-hand classes against each other.

use cardtables::{HoldemThreeWay, ThreeWayQueryError};

use crate::{guard, handle_functions, put, CtStatus, Failure, CT_QUERY_ERROR};

impl From<ThreeWayQueryError> for Failure {
    fn from(e: ThreeWayQueryError) -> Failure {
        Failure::new(CT_QUERY_ERROR, e.to_string())
    }
}

/// An open three-way table (opaque to C).
pub struct CtHoldemThreeway {
    table: HoldemThreeWay,
}

impl CtHoldemThreeway {
    fn make(bytes: &[u8]) -> Result<CtHoldemThreeway, Failure> {
        Ok(CtHoldemThreeway {
            table: HoldemThreeWay::from_bytes(bytes)?,
        })
    }
}

/// Three classes' exact equities, in the order asked.
#[repr(C)]
pub struct CtThreewayResult {
    pub equity_a: f64,
    pub equity_b: f64,
    pub equity_c: f64,
    /// Deals of the three classes' holdings that share no card.
    pub combos: u32,
}

handle_functions!(
    CtHoldemThreeway,
    ct_holdem_threeway_open,
    ct_holdem_threeway_from_bytes,
    ct_holdem_threeway_free,
    CtHoldemThreeway::make
);

/// Classes `a`, `b` and `c` (as `ct_holdem_class_index` numbers them) all in against each
/// other, in any order: each one's equity, in the order given.
///
/// # Safety
/// `table` is a live handle; `out` valid for writing.
#[no_mangle]
pub unsafe extern "C" fn ct_holdem_threeway_classes(
    table: *const CtHoldemThreeway,
    a: u32,
    b: u32,
    c: u32,
    out: *mut CtThreewayResult,
) -> CtStatus {
    guard(|| {
        // SAFETY: the caller's promise, forwarded.
        let t = unsafe { crate::table(table) }?;
        let r = t.table.equity(a as usize, b as usize, c as usize)?;
        let result = CtThreewayResult {
            equity_a: r.equity_a,
            equity_b: r.equity_b,
            equity_c: r.equity_c,
            combos: r.combos,
        };
        // SAFETY: the caller's promise, forwarded.
        unsafe { put(out, result) }
    })
}
