//! O(1) Hold'em hand strength after the flop from a `holdem_<street>.bin` table (job kind
//! `holdem.postflop`, one file per street): for any hole cards and board, the river hand
//! strength against one random opponent holding, or over the runouts to come its mean
//! E[HS], its mean square E[HS²] and its histogram.
//!
//! Every figure is kept as an integer: on the river the wins and ties against the 990
//! opponent holdings of the unseen cards (score `2·wins + ties`, HS = score / 1,980); on
//! an earlier street Σ score and Σ score² over its runouts (C(50,5) boards, 1,081
//! turn–river pairs, 46 rivers) and the runouts per HS bin (bin `k` of `B` holds HS in
//! `[k/B, (k+1)/B)`, the last also HS = 1). A lookup indexes the state with
//! [`HoldemIndexer`] (suit isomorphism, the board a set) and reads its entry.
//!
//! Payload layout (bincode, fixed-width little-endian; each list is its 8-byte length and
//! the numbers): `rules` (string), `street` (u8: 0 preflop, 1 flop, 2 turn, 3 river),
//! `bins` (u32, 0 on the river), `wins`, `ties` (u16 per state, river only), `sum` (u32
//! per state), `sum_sq` (u64 per state), `hist_width` (u8: bytes per count, 1, 2 or 4),
//! `hist` (u8 list: states × bins counts of `hist_width` bytes, little-endian). Lists a
//! street does not use are empty.

use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::format::{self, Game, Layout, TableError, TableHeader};
use crate::indexer::{HoldemIndexer, IndexError, STATES};

/// Opponent holdings on the river, C(45, 2).
pub const OPPONENT_HANDS: u32 = 990;
/// Runouts from each street to the river: C(50,5), C(47,2), 46, 1.
pub const RUNOUTS: [u64; 4] = [2_118_760, 1_081, 46, 1];
/// Most histogram bins a table may hold.
pub const MAX_BINS: u32 = 100;
/// Street names by street number.
pub const STREET_NAMES: [&str; 4] = ["preflop", "flop", "turn", "river"];

/// The payload of a strength table file (see the module documentation for its layout).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StrengthPayload {
    pub rules: String,
    pub street: u8,
    pub bins: u32,
    pub wins: Vec<u16>,
    pub ties: Vec<u16>,
    pub sum: Vec<u32>,
    pub sum_sq: Vec<u64>,
    pub hist_width: u8,
    pub hist: Vec<u8>,
}

/// A loaded, validated strength table of one street.
#[derive(Clone, Debug)]
pub struct HoldemStrength {
    header: TableHeader,
    rules: String,
    payload: StrengthPayload,
    indexer: HoldemIndexer,
}

format::table_file!(
    HoldemStrength,
    StrengthPayload,
    Game::HoldemStrength,
    build = build
);

/// The strength of one state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HandStrength {
    /// 0 preflop, 1 flop, 2 turn, 3 river.
    pub street: usize,
    /// The state's canonical index (see [`HoldemIndexer`]).
    pub index: u64,
    /// Runouts to the river averaged over (1 on the river).
    pub runouts: u64,
    /// E[HS] over the runouts; on the river, HS itself.
    pub ehs: f64,
    /// E[HS²] over the runouts; on the river, HS².
    pub ehs2: f64,
    /// Σ score and Σ score² over the runouts (score = 2·wins + ties, 0 to 1,980).
    pub score_sum: u64,
    pub score_sq_sum: u64,
    /// River only (0 before): wins, ties and losses against the 990 opponent holdings.
    pub wins: u32,
    pub ties: u32,
    pub losses: u32,
}

/// Why a strength question cannot be answered.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum StrengthQueryError {
    #[error(transparent)]
    State(#[from] IndexError),
    #[error("this table answers {table} states (a board of {board_cards} cards), not a board of {found} cards")]
    Street {
        table: &'static str,
        board_cards: usize,
        found: usize,
    },
    #[error("histogram bin {bin} of {bins}")]
    Bin { bin: usize, bins: usize },
}

fn invalid(message: String) -> TableError {
    TableError::Invalid(message)
}

/// Checks a payload's lengths and values against its street.
fn validate(p: &StrengthPayload) -> Result<(), TableError> {
    let street = usize::from(p.street);
    if street >= STATES.len() {
        return Err(invalid(format!("street {street} is not 0 to 3")));
    }
    let states = STATES[street] as usize;
    if street == 3 {
        if p.wins.len() != states || p.ties.len() != states {
            return Err(invalid(format!(
                "a river table has {states} wins and ties, not {} and {}",
                p.wins.len(),
                p.ties.len()
            )));
        }
        if let Some(i) =
            (0..states).find(|&i| u32::from(p.wins[i]) + u32::from(p.ties[i]) > OPPONENT_HANDS)
        {
            return Err(invalid(format!(
                "river state {i} beats or ties more than {OPPONENT_HANDS} holdings"
            )));
        }
        if p.bins != 0 || !p.sum.is_empty() || !p.sum_sq.is_empty() || !p.hist.is_empty() {
            return Err(invalid("a river table holds wins and ties only".into()));
        }
        return Ok(());
    }
    if !p.wins.is_empty() || !p.ties.is_empty() {
        return Err(invalid("only a river table holds wins and ties".into()));
    }
    if p.bins == 0 || p.bins > MAX_BINS {
        return Err(invalid(format!("{} bins, not 1 to {MAX_BINS}", p.bins)));
    }
    if ![1, 2, 4].contains(&p.hist_width) {
        return Err(invalid(format!(
            "histogram counts of {} bytes, not 1, 2 or 4",
            p.hist_width
        )));
    }
    let cells = states * p.bins as usize;
    if p.sum.len() != states
        || p.sum_sq.len() != states
        || p.hist.len() != cells * usize::from(p.hist_width)
    {
        return Err(invalid(format!(
            "a {} table has {states} states of {} bins: {} sums, {} squares and {} histogram bytes do not fit",
            STREET_NAMES[street],
            p.bins,
            p.sum.len(),
            p.sum_sq.len(),
            p.hist.len()
        )));
    }
    let full = u64::from(2 * OPPONENT_HANDS);
    let runouts = RUNOUTS[street];
    for i in 0..states {
        let (s, q) = (u64::from(p.sum[i]), p.sum_sq[i]);
        // Each runout's score is at most 1,980, and Σ score² ≤ 1,980 · Σ score.
        if s > runouts * full || q > full * s || q.saturating_mul(runouts) < s * s {
            return Err(invalid(format!(
                "{} state {i}: Σ score {s} and Σ score² {q} are impossible over {runouts} runouts",
                STREET_NAMES[street]
            )));
        }
    }
    Ok(())
}

/// Reads a payload in its documented layout (one bulk copy per list) and validates it.
fn build(header: TableHeader, bytes: &[u8]) -> Result<HoldemStrength, TableError> {
    let mut r = Layout::new(bytes);
    let payload = StrengthPayload {
        rules: r.string("rules")?,
        street: r.u8("street")?,
        bins: r.u32("bins")?,
        wins: r.u16s("wins")?,
        ties: r.u16s("ties")?,
        sum: r.u32s("sum")?,
        sum_sq: r.u64s("sum_sq")?,
        hist_width: r.u8("hist_width")?,
        hist: r.u8s("hist")?,
    };
    r.finish()?;
    validate(&payload)?;
    let hist_total_ok = payload.street == 3
        || (0..STATES[usize::from(payload.street)] as usize).all(|i| {
            (0..payload.bins as usize)
                .map(|k| payload.count(i * payload.bins as usize + k))
                .sum::<u64>()
                == RUNOUTS[usize::from(payload.street)]
        });
    if !hist_total_ok {
        return Err(invalid(
            "a state's histogram does not count its runouts".into(),
        ));
    }
    Ok(HoldemStrength {
        header,
        rules: payload.rules.clone(),
        payload,
        indexer: HoldemIndexer::new(),
    })
}

impl StrengthPayload {
    /// Histogram cell `cell` (state · bins + bin): runouts of the state in the bin.
    #[inline]
    pub fn count(&self, cell: usize) -> u64 {
        let w = usize::from(self.hist_width);
        self.hist[cell * w..(cell + 1) * w]
            .iter()
            .rev()
            .fold(0u64, |n, &b| n << 8 | u64::from(b))
    }
}

impl HoldemStrength {
    /// The street this table answers: 0 preflop, 1 flop, 2 turn, 3 river.
    pub fn street(&self) -> usize {
        usize::from(self.payload.street)
    }

    /// Histogram bins (0 on the river).
    pub fn bins(&self) -> usize {
        self.payload.bins as usize
    }

    /// The state index of hole cards and a board of this table's street.
    fn state(&self, hole: &[Card], board: &[Card]) -> Result<u64, StrengthQueryError> {
        let street = self.street();
        let board_cards = [0, 3, 4, 5][street];
        if board.len() != board_cards {
            return Err(StrengthQueryError::Street {
                table: STREET_NAMES[street],
                board_cards,
                found: board.len(),
            });
        }
        Ok(self.indexer.index(hole, board)?)
    }

    /// The strength of `hole` (two cards) on `board` (0, 3, 4 or 5 cards, as the table's
    /// street), in O(1): one state index and one read. Cards in any order.
    pub fn strength(
        &self,
        hole: &[Card],
        board: &[Card],
    ) -> Result<HandStrength, StrengthQueryError> {
        let index = self.state(hole, board)?;
        let p = &self.payload;
        let i = index as usize;
        let street = self.street();
        let full = f64::from(2 * OPPONENT_HANDS);
        if street == 3 {
            let (wins, ties) = (u32::from(p.wins[i]), u32::from(p.ties[i]));
            let score = u64::from(2 * wins + ties);
            let hs = score as f64 / full;
            return Ok(HandStrength {
                street,
                index,
                runouts: 1,
                ehs: hs,
                ehs2: (score * score) as f64 / (full * full),
                score_sum: score,
                score_sq_sum: score * score,
                wins,
                ties,
                losses: OPPONENT_HANDS - wins - ties,
            });
        }
        let runouts = RUNOUTS[street];
        let (sum, sum_sq) = (u64::from(p.sum[i]), p.sum_sq[i]);
        Ok(HandStrength {
            street,
            index,
            runouts,
            ehs: sum as f64 / (runouts as f64 * full),
            ehs2: sum_sq as f64 / (runouts as f64 * full * full),
            score_sum: sum,
            score_sq_sum: sum_sq,
            wins: 0,
            ties: 0,
            losses: 0,
        })
    }

    /// Runouts of `hole` on `board` whose river HS falls in each bin, written to `out`
    /// (one count per bin; `out` must hold [`HoldemStrength::bins`] counts). The river has
    /// no histogram: its `bins` is 0.
    pub fn histogram(
        &self,
        hole: &[Card],
        board: &[Card],
        out: &mut [u64],
    ) -> Result<(), StrengthQueryError> {
        let bins = self.bins();
        if out.len() != bins {
            return Err(StrengthQueryError::Bin {
                bin: out.len(),
                bins,
            });
        }
        let i = self.state(hole, board)? as usize;
        for (k, slot) in out.iter_mut().enumerate() {
            *slot = self.payload.count(i * bins + k);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A turn-sized payload is too large for a unit test, so the tests use the preflop
    /// street (169 states) with made-up but consistent figures.
    fn preflop_payload() -> StrengthPayload {
        let states = STATES[0] as usize;
        let bins = 4usize;
        let runouts = RUNOUTS[0];
        let mut hist = Vec::new();
        let mut sum = Vec::new();
        let mut sum_sq = Vec::new();
        for i in 0..states {
            // All runouts in bin i % 4, at a score of 495 · (i % 4).
            let score = 495 * (i as u64 % 4);
            sum.push((runouts * score / 2) as u32);
            sum_sq.push(runouts * score * score / 2);
            for k in 0..bins {
                let n: u32 = if k == i % 4 { runouts as u32 } else { 0 };
                hist.extend(n.to_le_bytes());
            }
        }
        // Halve the runouts' scores so the sums stay consistent: half the runouts at
        // `score`, half at 0, all counted in the one bin (the histogram is not derived
        // from the sums by the table).
        StrengthPayload {
            rules: "x".into(),
            street: 0,
            bins: bins as u32,
            wins: vec![],
            ties: vec![],
            sum,
            sum_sq,
            hist_width: 4,
            hist,
        }
    }

    #[test]
    fn a_table_answers_its_street_and_refuses_others() {
        let bytes = HoldemStrength::to_bytes(1, &preflop_payload()).unwrap();
        let t = HoldemStrength::from_bytes(&bytes).unwrap();
        let hole = crate::parse_cards("Ah Kh").unwrap();
        let s = t.strength(&hole, &[]).unwrap();
        assert_eq!(s.runouts, RUNOUTS[0]);
        let mut h = [0u64; 4];
        t.histogram(&hole, &[], &mut h).unwrap();
        assert_eq!(h.iter().sum::<u64>(), RUNOUTS[0]);
        let flop = crate::parse_cards("2c 3c 4c").unwrap();
        assert!(matches!(
            t.strength(&hole, &flop),
            Err(StrengthQueryError::Street { .. })
        ));
        assert!(t
            .strength(&crate::parse_cards("Ah Kh Qh").unwrap(), &[])
            .is_err());
        assert!(t.histogram(&hole, &[], &mut [0; 3]).is_err());
    }

    #[test]
    fn a_table_written_to_a_stream_is_the_same_bytes() {
        let payload = preflop_payload();
        let mut streamed = Vec::new();
        HoldemStrength::write_to(7, &payload, &mut streamed).unwrap();
        assert_eq!(streamed, HoldemStrength::to_bytes(7, &payload).unwrap());
        let mut bad = payload;
        bad.street = 9;
        assert!(HoldemStrength::write_to(7, &bad, &mut Vec::new()).is_err());
    }

    #[test]
    fn damaged_and_inconsistent_tables_are_refused() {
        let good = preflop_payload();
        let mut bad = good.clone();
        bad.sum[3] = u32::MAX;
        assert!(HoldemStrength::to_bytes(1, &bad).is_err());
        let mut bad = good.clone();
        bad.hist.pop();
        assert!(HoldemStrength::to_bytes(1, &bad).is_err());
        let mut bad = good.clone();
        bad.street = 4;
        assert!(HoldemStrength::to_bytes(1, &bad).is_err());
        let mut bad = good.clone();
        bad.hist_width = 3;
        assert!(HoldemStrength::to_bytes(1, &bad).is_err());
        // A histogram that does not count the runouts loads as an error, not a panic.
        let mut bad = good.clone();
        bad.hist[0] ^= 1;
        let bytes = format::write_table(Game::HoldemStrength, 1, &bad).unwrap();
        assert!(HoldemStrength::from_bytes(&bytes).is_err());
        let bytes = HoldemStrength::to_bytes(1, &good).unwrap();
        for len in (0..bytes.len()).step_by(97) {
            assert!(HoldemStrength::from_bytes(&bytes[..len]).is_err());
        }
    }
}
