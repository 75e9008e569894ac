//! Hand strength after the flop: for every canonical state of every street (hole cards
//! and board up to suit permutation, numbered by [`cardtables::indexer`]), the river hand
//! strength against one random opponent hand, and over the runouts still to come its
//! mean, its mean square and its histogram. The definitions are in `docs/rules/holdem.md`.
//!
//! Everything is integer until the last division:
//!
//! - on the river a holding has `wins` and `ties` against the 990 opponent holdings of the
//!   45 unseen cards; its *score* is `2·wins + ties` (0 to 1,980) and HS = score / 1,980;
//! - an earlier street sums the score and its square over its runouts (46 rivers, 1,081
//!   turn–river pairs, 2,118,760 boards), and counts the runouts by HS bin, so
//!   E[HS] = Σ score / (runouts · 1,980) and E[HS²] = Σ score² / (runouts · 1,980²), each
//!   one division of two integers below 2⁵³: the nearest `f64` to the exact ratio.
//!
//! The work, street by street:
//!
//! - **river** ([`river_unit`]): on each of the 134,459 river boards up to suit
//!   permutation, the 1,081 holdings are ranked once and swept in strength order (as the
//!   preflop sweep does), which gives every holding's wins and ties with card removal in
//!   O(1) each: one 7-card evaluation per (board, holding), nothing per opponent;
//! - **turn** ([`turn_strength`]): on each of the 16,432 canonical turn boards, each river
//!   card's board is renamed to its canonical river board, whose results are read in
//!   place through the renaming: no state index is computed per runout;
//! - **flop** ([`flop_strength`]): each canonical flop's 49 turn cards, read from the turn
//!   table by state index; **preflop** ([`preflop_strength`]): each class's 19,600 flops.

use cardtables::colex::unrank;
use cardtables::indexer::{HoldemIndexer, STATES};
use cardtables::Card;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::sweep::{canonical_boards_of, canonical_form, one_opponent_results, rank_hands, Board};

/// Opponent holdings on the river: C(45, 2).
pub const OPPONENT_HANDS: u32 = 990;
/// The largest score, `2 · 990`: HS = score / `FULL_SCORE`.
pub const FULL_SCORE: u32 = 2 * OPPONENT_HANDS;
/// Runouts from each street to the river: C(50,5), C(47,2), 46, 1.
pub const RUNOUTS: [u64; 4] = [2_118_760, 1_081, 46, 1];
/// Holdings that avoid a board of 5 (river) cards: C(47, 2).
pub const RIVER_HOLES: usize = 1_081;
/// Holdings that avoid a board of 4 (turn) cards: C(48, 2).
const TURN_HOLES: usize = 1_128;
/// Holdings that avoid a board of 3 (flop) cards: C(49, 2).
const FLOP_HOLES: usize = 1_176;
/// Canonical river boards per work unit (a tenth of a second or so).
pub const RIVER_BOARDS_PER_UNIT: usize = 1_024;
/// Most histogram bins a job may ask for.
pub const MAX_BINS: usize = 100;
/// Street numbers, as the indexer has them.
pub const PREFLOP: usize = 0;
pub const FLOP: usize = 1;
pub const TURN: usize = 2;
pub const RIVER: usize = 3;
/// Street names, by street number.
pub const STREET_NAMES: [&str; 4] = ["preflop", "flop", "turn", "river"];

/// The river results of one work unit: for each of its canonical river boards in order,
/// the wins and ties of the 1,081 holdings that avoid it, in [`hole_position`] order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RiverUnit {
    pub wins: Vec<u16>,
    pub ties: Vec<u16>,
}

/// Bit mask of a set of cards.
fn mask(cards: &[Card]) -> u64 {
    cards.iter().fold(0, |m, c| m | 1 << c.id())
}

/// Position of holding `{a, b}` (card ids, either order) among the holdings that avoid
/// the cards of `used`, in colex order of their ranks among the unused cards.
#[inline]
pub fn hole_position(used: u64, a: u8, b: u8) -> usize {
    let rank = |c: u8| usize::from(c) - (used & ((1u64 << c) - 1)).count_ones() as usize;
    let (x, y) = (rank(a), rank(b));
    let (lo, hi) = if x < y { (x, y) } else { (y, x) };
    hi * (hi - 1) / 2 + lo
}

/// The river results of some canonical river boards.
pub fn river_unit(boards: &[Board]) -> RiverUnit {
    let mut unit = RiverUnit {
        wins: vec![0; boards.len() * RIVER_HOLES],
        ties: vec![0; boards.len() * RIVER_HOLES],
    };
    let mut ranked = Vec::with_capacity(RIVER_HOLES);
    let mut cards = [Card::from_id(0).expect("card 0"); 5];
    for (k, board) in boards.iter().enumerate() {
        unrank(board.index, 5, &mut cards);
        let used = mask(&cards);
        rank_hands(cards, &mut ranked);
        let wins = &mut unit.wins[k * RIVER_HOLES..(k + 1) * RIVER_HOLES];
        let ties = &mut unit.ties[k * RIVER_HOLES..(k + 1) * RIVER_HOLES];
        one_opponent_results(&ranked, |a, b, w, t| {
            let p = hole_position(used, a, b);
            // At most 990 each: the opponents avoiding both boards and holding.
            wins[p] = w as u16;
            ties[p] = t as u16;
        });
    }
    unit
}

/// A unit's results are well formed: its boards' worth of holdings, each with at most 990
/// opponents beaten or tied.
pub fn check_river_unit(unit: &RiverUnit, boards: usize) -> Result<(), String> {
    let want = boards * RIVER_HOLES;
    if unit.wins.len() != want || unit.ties.len() != want {
        return Err(format!(
            "{} / {} holdings, expected {want}",
            unit.wins.len(),
            unit.ties.len()
        ));
    }
    match (0..want).find(|&i| u32::from(unit.wins[i]) + u32::from(unit.ties[i]) > OPPONENT_HANDS) {
        Some(i) => Err(format!(
            "holding {i} wins {} and ties {} of {OPPONENT_HANDS} opponents",
            unit.wins[i], unit.ties[i]
        )),
        None => Ok(()),
    }
}

/// Every canonical river board's results, as the units computed them.
pub struct RiverBoards<'a> {
    boards: &'a [Board],
    units: &'a [RiverUnit],
}

impl<'a> RiverBoards<'a> {
    /// The results of `boards` (every canonical river board, in order), one unit per
    /// [`RIVER_BOARDS_PER_UNIT`] boards.
    pub fn new(boards: &'a [Board], units: &'a [RiverUnit]) -> RiverBoards<'a> {
        RiverBoards { boards, units }
    }

    /// The canonical river boards.
    pub fn boards(&self) -> &'a [Board] {
        self.boards
    }

    /// Wins and ties of the holdings of canonical board `k`, in [`hole_position`] order.
    fn results(&self, k: usize) -> (&'a [u16], &'a [u16]) {
        let unit = &self.units[k / RIVER_BOARDS_PER_UNIT];
        let at = (k % RIVER_BOARDS_PER_UNIT) * RIVER_HOLES;
        (
            &unit.wins[at..at + RIVER_HOLES],
            &unit.ties[at..at + RIVER_HOLES],
        )
    }

    /// Wins and ties of `hole` on the 5-card `board` (any suits, any order).
    pub fn lookup(&self, hole: [Card; 2], board: [Card; 5]) -> (u16, u16) {
        let canonical = canonical_form(&board);
        let (wins, ties) = self.results(self.position(canonical.index));
        let mut renamed = [Card::from_id(0).expect("card 0"); 5];
        unrank(canonical.index, 5, &mut renamed);
        let rename = |c: Card| {
            Card::new(c.rank(), canonical.suit_map[usize::from(c.suit())])
                .expect("a card")
                .id()
        };
        let p = hole_position(mask(&renamed), rename(hole[0]), rename(hole[1]));
        (wins[p], ties[p])
    }

    /// The position of the canonical board with colex index `index`.
    fn position(&self, index: u32) -> usize {
        self.boards
            .binary_search_by_key(&index, |b| b.index)
            .expect("every canonical form is a canonical board")
    }
}

/// Every canonical river board's scores (`2·wins + ties` per holding, in
/// [`hole_position`] order): all the turn needs, in half the memory of the units.
pub struct RiverScores {
    boards: Vec<u32>,
    scores: Vec<Vec<u16>>,
}

impl RiverScores {
    /// The scores of every canonical river board (`boards`, in order), taking the units
    /// one by one so that a unit and its scores are never all held twice.
    pub fn from_units(boards: &[Board], units: Vec<RiverUnit>) -> RiverScores {
        let scores = units
            .into_iter()
            .map(|u| {
                u.wins
                    .iter()
                    .zip(&u.ties)
                    .map(|(&w, &t)| 2 * w + t)
                    .collect()
            })
            .collect();
        RiverScores {
            boards: boards.iter().map(|b| b.index).collect(),
            scores,
        }
    }

    /// The scores of the holdings of canonical board `k`.
    fn scores(&self, k: usize) -> &[u16] {
        let at = (k % RIVER_BOARDS_PER_UNIT) * RIVER_HOLES;
        &self.scores[k / RIVER_BOARDS_PER_UNIT][at..at + RIVER_HOLES]
    }

    /// The position of the canonical board with colex index `index`.
    fn position(&self, index: u32) -> usize {
        self.boards
            .binary_search(&index)
            .expect("every canonical form is a canonical board")
    }
}

/// Maps each histogram bin's scores: bin `⌊score · bins / 1,980⌋`, the top score in the
/// last bin, so bin `k` holds HS in `[k/bins, (k+1)/bins)` and the last also HS = 1.
pub fn bin_of_score(bins: usize) -> Vec<u8> {
    (0..=FULL_SCORE as usize)
        .map(|s| (s * bins / FULL_SCORE as usize).min(bins - 1) as u8)
        .collect()
}

/// A street's strength table, by state index: Σ score and Σ score² over its runouts, and
/// the runouts by HS bin (`bins` counts per state, of type `H`).
#[derive(Clone, Debug, PartialEq)]
pub struct Strength<H> {
    pub street: usize,
    pub bins: usize,
    pub sum: Vec<u32>,
    pub sum_sq: Vec<u64>,
    pub hist: Vec<H>,
}

impl<H: Copy + Into<u64>> Strength<H> {
    fn zeroed(street: usize, bins: usize) -> Strength<H>
    where
        H: Default,
    {
        let n = STATES[street] as usize;
        Strength {
            street,
            bins,
            sum: vec![0; n],
            sum_sq: vec![0; n],
            hist: vec![H::default(); n * bins],
        }
    }

    /// Number of states.
    pub fn states(&self) -> usize {
        self.sum.len()
    }

    /// E[HS] of state `i`: the nearest `f64` to the exact ratio.
    pub fn ehs(&self, i: usize) -> f64 {
        f64::from(self.sum[i]) / (RUNOUTS[self.street] * u64::from(FULL_SCORE)) as f64
    }

    /// E[HS²] of state `i`: the nearest `f64` to the exact ratio.
    pub fn ehs2(&self, i: usize) -> f64 {
        let full = u64::from(FULL_SCORE);
        self.sum_sq[i] as f64 / (RUNOUTS[self.street] * full * full) as f64
    }

    /// State `i`'s histogram.
    pub fn histogram(&self, i: usize) -> &[H] {
        &self.hist[i * self.bins..(i + 1) * self.bins]
    }
}

/// The river table, by state index: every state's wins and ties.
#[derive(Clone, Debug, PartialEq)]
pub struct River {
    pub wins: Vec<u16>,
    pub ties: Vec<u16>,
}

/// Canonical boards per parallel wave: each wave's results are written into the tables
/// before the next starts, so memory beyond the tables stays small.
const WAVE: usize = 256;

/// The river table by state index, from the canonical boards' results.
pub fn river_by_state(river: &RiverBoards, ix: &HoldemIndexer) -> anyhow::Result<River> {
    let n = STATES[RIVER] as usize;
    let mut out = River {
        wins: vec![0; n],
        ties: vec![0; n],
    };
    let mut filled = Filled::new(n);
    for wave in (0..river.boards().len()).collect::<Vec<_>>().chunks(WAVE) {
        let results: Vec<Vec<(u32, u16, u16)>> = wave
            .par_iter()
            .map(|&k| {
                let mut cards = [Card::from_id(0).expect("card 0"); 5];
                unrank(river.boards()[k].index, 5, &mut cards);
                let used = mask(&cards);
                let (wins, ties) = river.results(k);
                let mut rows = Vec::with_capacity(RIVER_HOLES);
                for_each_hole(used, |a, b| {
                    let p = hole_position(used, a.id(), b.id());
                    let i = ix.index(&[a, b], &cards).expect("a valid state") as u32;
                    rows.push((i, wins[p], ties[p]));
                });
                rows
            })
            .collect();
        for (i, w, t) in results.into_iter().flatten() {
            let i = i as usize;
            if filled.set(i) {
                anyhow::ensure!(
                    (out.wins[i], out.ties[i]) == (w, t),
                    "internal error: river state {i} has two results"
                );
            }
            out.wins[i] = w;
            out.ties[i] = t;
        }
    }
    filled.all("river")?;
    Ok(out)
}

/// Which states have been written: every state must be, and one written twice (by
/// holdings that are suit permutations of each other on a board) must agree.
struct Filled(Vec<u64>);

impl Filled {
    fn new(n: usize) -> Filled {
        Filled(vec![0; n.div_ceil(64)])
    }

    /// Marks state `i`; true when it was marked already.
    fn set(&mut self, i: usize) -> bool {
        let (word, bit) = (i / 64, 1u64 << (i % 64));
        let was = self.0[word] & bit != 0;
        self.0[word] |= bit;
        was
    }

    fn all(&self, street: &str) -> anyhow::Result<()> {
        let n: u64 = self.0.iter().map(|w| u64::from(w.count_ones())).sum();
        let want = STATES[STREET_NAMES
            .iter()
            .position(|s| *s == street)
            .expect("a street")];
        anyhow::ensure!(
            n == want,
            "internal error: {n} of the {want} {street} states computed"
        );
        Ok(())
    }
}

/// Calls `visit(a, b)` for every holding (`a` < `b`) that avoids the cards of `used`.
#[inline]
fn for_each_hole(used: u64, mut visit: impl FnMut(Card, Card)) {
    let mut rest = !used & ((1u64 << 52) - 1);
    while rest != 0 {
        let a = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        let mut more = rest;
        while more != 0 {
            let b = more.trailing_zeros() as u8;
            more &= more - 1;
            visit(
                Card::from_id(a).expect("id < 52"),
                Card::from_id(b).expect("id < 52"),
            );
        }
    }
}

/// One canonical board's holdings: their state indices and sums.
struct BoardRows<H> {
    index: Vec<u32>,
    sum: Vec<u32>,
    sum_sq: Vec<u64>,
    hist: Vec<H>,
}

/// Writes waves of boards' rows into a street's table (see [`Filled`]).
fn scatter<H: Copy + PartialEq + Into<u64>>(
    into: &mut Strength<H>,
    filled: &mut Filled,
    rows: Vec<BoardRows<H>>,
) -> anyhow::Result<()> {
    let bins = into.bins;
    for r in rows {
        for (h, &i) in r.index.iter().enumerate() {
            let i = i as usize;
            let hist = &r.hist[h * bins..(h + 1) * bins];
            if filled.set(i) {
                anyhow::ensure!(
                    into.sum[i] == r.sum[h]
                        && into.sum_sq[i] == r.sum_sq[h]
                        && into.histogram(i) == hist,
                    "internal error: {} state {i} has two results",
                    STREET_NAMES[into.street]
                );
                continue;
            }
            into.sum[i] = r.sum[h];
            into.sum_sq[i] = r.sum_sq[h];
            into.hist[i * bins..(i + 1) * bins].copy_from_slice(hist);
        }
    }
    Ok(())
}

/// The state index of each holding on `board` (whose cards are `used`), in
/// [`hole_position`] order.
fn state_indices(ix: &HoldemIndexer, used: u64, board: &[Card], holes: usize) -> Vec<u32> {
    let mut index = vec![0; holes];
    for_each_hole(used, |a, b| {
        index[hole_position(used, a.id(), b.id())] =
            ix.index(&[a, b], board).expect("a valid state") as u32;
    });
    index
}

/// The turn table: each turn state's score sums and histogram over its 46 rivers.
pub fn turn_strength(
    river: &RiverScores,
    ix: &HoldemIndexer,
    bins: usize,
) -> anyhow::Result<Strength<u8>> {
    let bin_of = bin_of_score(bins);
    let boards = canonical_boards_of(4);
    let mut out = Strength::zeroed(TURN, bins);
    let mut filled = Filled::new(out.states());
    for wave in boards.chunks(WAVE) {
        let rows: Vec<BoardRows<u8>> = wave
            .par_iter()
            .map(|b| turn_board(river, ix, b.index, &bin_of, bins))
            .collect();
        scatter(&mut out, &mut filled, rows)?;
    }
    filled.all("turn")?;
    Ok(out)
}

/// One canonical turn board's holdings.
fn turn_board(
    river: &RiverScores,
    ix: &HoldemIndexer,
    board: u32,
    bin_of: &[u8],
    bins: usize,
) -> BoardRows<u8> {
    let mut cards = [Card::from_id(0).expect("card 0"); 5];
    unrank(board, 4, &mut cards);
    let turn = [cards[0], cards[1], cards[2], cards[3]];
    let used = mask(&turn);
    let mut rows = BoardRows {
        index: Vec::new(),
        sum: vec![0; TURN_HOLES],
        sum_sq: vec![0; TURN_HOLES],
        hist: vec![0; TURN_HOLES * bins],
    };
    // Each card's position among the turn board's unused cards.
    let mut turn_rank = [0u8; 52];
    let mut n = 0;
    for (c, r) in turn_rank.iter_mut().enumerate() {
        if used >> c & 1 == 0 {
            *r = n;
            n += 1;
        }
    }
    let mut to_river = [0u8; 52];
    for r in (0..52u8).filter(|&r| used >> r & 1 == 0) {
        cards[4] = Card::from_id(r).expect("id < 52");
        let canonical = canonical_form(&cards);
        let scores = river.scores(river.position(canonical.index));
        let mut renamed = [Card::from_id(0).expect("card 0"); 5];
        unrank(canonical.index, 5, &mut renamed);
        let river_used = mask(&renamed);
        // Each unused card's position among the canonical river board's unused cards,
        // after the renaming of suits.
        for c in (0..52u8).filter(|&c| (used | 1 << r) >> c & 1 == 0) {
            let card = Card::from_id(c).expect("id < 52");
            let to = Card::new(card.rank(), canonical.suit_map[usize::from(card.suit())])
                .expect("a card")
                .id();
            to_river[usize::from(c)] = to - (river_used & ((1u64 << to) - 1)).count_ones() as u8;
        }
        for_each_hole(used | 1 << r, |a, b| {
            let (x, y) = (
                usize::from(to_river[usize::from(a.id())]),
                usize::from(to_river[usize::from(b.id())]),
            );
            let p = if x < y {
                y * (y - 1) / 2 + x
            } else {
                x * (x - 1) / 2 + y
            };
            let score = u32::from(scores[p]);
            let (ta, tb) = (
                usize::from(turn_rank[usize::from(a.id())]),
                usize::from(turn_rank[usize::from(b.id())]),
            );
            let h = tb * (tb - 1) / 2 + ta;
            rows.sum[h] += score;
            rows.sum_sq[h] += u64::from(score * score);
            rows.hist[h * bins + usize::from(bin_of[score as usize])] += 1;
        });
    }
    rows.index = state_indices(ix, used, &turn, TURN_HOLES);
    rows
}

/// The flop table: each flop state's sums and histogram over its 1,081 turn–river pairs,
/// from the turn table (each pair is met twice, once per order).
pub fn flop_strength(turn: &Strength<u8>, ix: &HoldemIndexer) -> anyhow::Result<Strength<u16>> {
    let bins = turn.bins;
    let boards = canonical_boards_of(3);
    let mut out = Strength::zeroed(FLOP, bins);
    let mut filled = Filled::new(out.states());
    for wave in boards.chunks(WAVE) {
        let rows: Vec<BoardRows<u16>> = wave
            .par_iter()
            .map(|b| flop_board(turn, ix, b.index))
            .collect::<anyhow::Result<_>>()?;
        scatter(&mut out, &mut filled, rows)?;
    }
    filled.all("flop")?;
    Ok(out)
}

/// One canonical flop's holdings.
fn flop_board(
    turn: &Strength<u8>,
    ix: &HoldemIndexer,
    board: u32,
) -> anyhow::Result<BoardRows<u16>> {
    let bins = turn.bins;
    let mut cards = [Card::from_id(0).expect("card 0"); 4];
    unrank(board, 3, &mut cards);
    let flop = [cards[0], cards[1], cards[2]];
    let used = mask(&flop);
    let mut sum = vec![0u64; FLOP_HOLES];
    let mut sum_sq = vec![0u64; FLOP_HOLES];
    let mut hist = vec![0u32; FLOP_HOLES * bins];
    for t in (0..52u8).filter(|&t| used >> t & 1 == 0) {
        cards[3] = Card::from_id(t).expect("id < 52");
        for_each_hole(used | 1 << t, |a, b| {
            let i = ix.index(&[a, b], &cards).expect("a valid state") as usize;
            let h = hole_position(used, a.id(), b.id());
            sum[h] += u64::from(turn.sum[i]);
            sum_sq[h] += turn.sum_sq[i];
            for (into, &n) in hist[h * bins..(h + 1) * bins]
                .iter_mut()
                .zip(turn.histogram(i))
            {
                *into += u32::from(n);
            }
        });
    }
    let mut rows = BoardRows {
        index: Vec::new(),
        sum: Vec::with_capacity(FLOP_HOLES),
        sum_sq: Vec::with_capacity(FLOP_HOLES),
        hist: Vec::with_capacity(FLOP_HOLES * bins),
    };
    anyhow::ensure!(
        sum.iter().chain(&sum_sq).all(|s| s % 2 == 0) && hist.iter().all(|n| n % 2 == 0),
        "internal error: a flop's turn–river pairs are not each met twice"
    );
    rows.sum.extend(sum.iter().map(|s| (s / 2) as u32));
    rows.sum_sq.extend(sum_sq.iter().map(|s| s / 2));
    rows.hist.extend(hist.iter().map(|&n| (n / 2) as u16));
    rows.index = state_indices(ix, used, &flop, FLOP_HOLES);
    Ok(rows)
}

/// The preflop table: each class's sums and histogram over its 2,118,760 boards, from the
/// flop table (each board is met once per choice of its flop, ten times).
pub fn preflop_strength(flop: &Strength<u16>, ix: &HoldemIndexer) -> anyhow::Result<Strength<u32>> {
    let bins = flop.bins;
    let rows: Vec<(u64, u64, Vec<u64>)> = (0..STATES[PREFLOP])
        .into_par_iter()
        .map(|i| {
            let hole = ix.unindex(PREFLOP, i).expect("a preflop state").hole;
            let used = mask(&hole);
            let (mut sum, mut sum_sq, mut hist) = (0u64, 0u64, vec![0u64; bins]);
            for_each_hole(used, |a, b| {
                for c in (b.id() + 1..52).filter(|&c| used >> c & 1 == 0) {
                    let board = [a, b, Card::from_id(c).expect("id < 52")];
                    let f = ix.index(&hole, &board).expect("a valid state") as usize;
                    sum += u64::from(flop.sum[f]);
                    sum_sq += flop.sum_sq[f];
                    for (into, &n) in hist.iter_mut().zip(flop.histogram(f)) {
                        *into += u64::from(n);
                    }
                }
            });
            (sum, sum_sq, hist)
        })
        .collect();
    const FLOPS_PER_BOARD: u64 = 10;
    let mut out = Strength {
        street: PREFLOP,
        bins,
        sum: Vec::with_capacity(rows.len()),
        sum_sq: Vec::with_capacity(rows.len()),
        hist: Vec::with_capacity(rows.len() * bins),
    };
    for (sum, sum_sq, hist) in rows {
        anyhow::ensure!(
            [sum, sum_sq]
                .iter()
                .chain(&hist)
                .all(|s| s % FLOPS_PER_BOARD == 0),
            "internal error: a class's boards are not each met ten times"
        );
        out.sum.push(u32::try_from(sum / FLOPS_PER_BOARD)?);
        out.sum_sq.push(sum_sq / FLOPS_PER_BOARD);
        out.hist
            .extend(hist.iter().map(|&n| (n / FLOPS_PER_BOARD) as u32));
    }
    Ok(out)
}

/// Checks a street's table against the identity every one must hold: over every raw deal,
/// the mean HS is exactly one half (each pair of holdings on a board is a win for one and
/// a loss for the other, or a tie for both), so Σ deals · Σ score = Σ deals · runouts · 990.
pub fn check_half<H: Copy + Into<u64> + Sync>(
    s: &Strength<H>,
    ix: &HoldemIndexer,
) -> anyhow::Result<()> {
    let (total, deals_total) = (0..s.states())
        .into_par_iter()
        .map(|i| {
            let state = ix.unindex(s.street, i as u64).expect("a state");
            let d = u128::from(deals(&state.hole, state.board()));
            (d * u128::from(s.sum[i]), d)
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    anyhow::ensure!(
        total == deals_total * u128::from(RUNOUTS[s.street] * u64::from(OPPONENT_HANDS)),
        "internal error: the {} strengths do not average one half over every deal",
        STREET_NAMES[s.street]
    );
    Ok(())
}

/// Raw deals (a holding and a board, each a set of cards) a state stands for: the 24
/// renamings of the suits over those that leave it unchanged, which are the permutations
/// within each group of suits that hold the same hole ranks and the same board ranks.
pub fn deals(hole: &[Card], board: &[Card]) -> u32 {
    let mut suits = [(0u16, 0u16); 4];
    for c in hole {
        suits[usize::from(c.suit())].0 |= 1 << c.rank();
    }
    for c in board {
        suits[usize::from(c.suit())].1 |= 1 << c.rank();
    }
    suits.sort_unstable();
    let mut fixing = 1u32;
    let mut run = 1u32;
    for k in 1..4 {
        if suits[k] == suits[k - 1] {
            run += 1;
            fixing *= run;
        } else {
            run = 1;
        }
    }
    24 / fixing
}

#[cfg(test)]
mod tests_support {
    use super::*;
    use crate::games::holdem::eval::tables;
    /// HS of `hole` on a 5-card `board` by comparing with every opponent holding.
    pub fn river_score(hole: &[Card], board: &[Card]) -> u32 {
        let t = tables();
        let used = mask(hole) | mask(board);
        let strength = |h: [Card; 2]| {
            let mut seven = [h[0]; 7];
            seven[..5].copy_from_slice(board);
            seven[5] = h[0];
            seven[6] = h[1];
            t.evaluate(&seven)
        };
        let mine = strength([hole[0], hole[1]]);
        let mut score = 0;
        for_each_hole(used, |a, b| {
            let theirs = strength([a, b]);
            score += 2 * u32::from(mine > theirs) + u32::from(mine == theirs);
        });
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cardtables::parse_cards;
    use tests_support::river_score;

    #[test]
    fn deals_count_the_renamings_that_change_a_state() {
        let d = |h: &str, b: &str| deals(&parse_cards(h).unwrap(), &parse_cards(b).unwrap());
        assert_eq!(d("As Ah", ""), 6);
        assert_eq!(d("As Ks", ""), 4);
        assert_eq!(d("As Kh", ""), 12);
        assert_eq!(d("As Ks", "2h 3h 4h"), 12);
        assert_eq!(d("As Ks", "2h 3d 4c"), 24);
        assert_eq!(d("As Kh", "2d 3d 4d 5d 6d"), 24);
        assert_eq!(d("As Ah", "2d 2c 3d 3c 9s"), 12);
        assert_eq!(d("As Ah", "2d 2c 3d 3c"), 6);
    }

    #[test]
    fn every_deal_is_counted_once_over_the_states_of_a_street() {
        let ix = HoldemIndexer::new();
        for (street, deals_total) in [(PREFLOP, 1_326u64), (FLOP, 1_326 * 19_600)] {
            let total: u64 = (0..STATES[street])
                .map(|i| {
                    let s = ix.unindex(street, i).unwrap();
                    u64::from(deals(&s.hole, s.board()))
                })
                .sum();
            assert_eq!(total, deals_total, "street {street}");
        }
    }

    #[test]
    fn hole_positions_number_the_holdings_that_avoid_a_board() {
        let board = mask(&parse_cards("Ah Kd 7c 7s 2h").unwrap());
        let mut seen = vec![false; RIVER_HOLES];
        for_each_hole(board, |a, b| {
            let p = hole_position(board, b.id(), a.id());
            assert!(!seen[p]);
            seen[p] = true;
        });
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore = "brute force: run with --release")]
    fn river_results_agree_with_comparing_every_opponent() {
        let boards: Vec<Board> = canonical_boards_of(5).into_iter().step_by(9_973).collect();
        let unit = river_unit(&boards);
        check_river_unit(&unit, boards.len()).unwrap();
        let mut cards = [Card::from_id(0).unwrap(); 5];
        for (k, board) in boards.iter().enumerate() {
            unrank(board.index, 5, &mut cards);
            let used = mask(&cards);
            let mut n = 0;
            for_each_hole(used, |a, b| {
                n += 1;
                if n % 37 != 0 {
                    return;
                }
                let p = k * RIVER_HOLES + hole_position(used, a.id(), b.id());
                let score = 2 * u32::from(unit.wins[p]) + u32::from(unit.ties[p]);
                assert_eq!(score, river_score(&[a, b], &cards), "{a}{b} on {cards:?}");
            });
        }
    }

    #[test]
    fn the_top_score_falls_in_the_last_bin() {
        let bins = bin_of_score(50);
        assert_eq!(bins[0], 0);
        assert_eq!(bins[1980], 49);
        assert_eq!(bins[1979], 49);
        assert_eq!(bins[39], 0);
        assert_eq!(bins[40], 1);
        assert!(bins.windows(2).all(|w| w[1] >= w[0]));
    }
}

/// Every street computed once, for the tests that check the tables state by state.
#[cfg(test)]
pub(crate) mod computed {
    use super::*;
    use std::sync::OnceLock;

    pub struct All {
        pub river: River,
        pub turn: Strength<u8>,
        pub flop: Strength<u16>,
        pub preflop: Strength<u32>,
    }

    /// The four tables with 50 bins (about half a minute on two cores).
    pub fn all() -> &'static All {
        static ALL: OnceLock<All> = OnceLock::new();
        ALL.get_or_init(|| {
            let boards = canonical_boards_of(5);
            let units: Vec<RiverUnit> = boards
                .par_chunks(RIVER_BOARDS_PER_UNIT)
                .map(river_unit)
                .collect();
            let ix = HoldemIndexer::new();
            let river = river_by_state(&RiverBoards::new(&boards, &units), &ix).unwrap();
            let scores = RiverScores::from_units(&boards, units);
            let turn = turn_strength(&scores, &ix, 50).unwrap();
            let flop = flop_strength(&turn, &ix).unwrap();
            let preflop = preflop_strength(&flop, &ix).unwrap();
            All {
                river,
                turn,
                flop,
                preflop,
            }
        })
    }
}

#[cfg(test)]
mod exhaustive {
    use super::tests_support::river_score;
    use super::*;
    use crate::games::holdem::classes::{class_of, combos};
    use crate::games::holdem::sweep::all_class_counts;

    /// A small deterministic generator for sampled states (xorshift64*).
    fn sample(seed: &mut u64, n: u64) -> u64 {
        *seed ^= *seed >> 12;
        *seed ^= *seed << 25;
        *seed ^= *seed >> 27;
        (seed.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) % n
    }

    /// Σ score, Σ score² and the histogram of a state by brute force over its runouts.
    fn brute(hole: &[Card], board: &[Card], bins: usize) -> (u64, u64, Vec<u64>) {
        let bin_of = bin_of_score(bins);
        let used = mask(hole) | mask(board);
        let (mut sum, mut sum_sq, mut hist) = (0u64, 0u64, vec![0u64; bins]);
        let mut add = |full: &[Card]| {
            let s = river_score(hole, full);
            sum += u64::from(s);
            sum_sq += u64::from(s * s);
            hist[usize::from(bin_of[s as usize])] += 1;
        };
        match board.len() {
            4 => {
                for r in (0..52u8).filter(|&r| used >> r & 1 == 0) {
                    let mut full = board.to_vec();
                    full.push(Card::from_id(r).unwrap());
                    add(&full);
                }
            }
            3 => for_each_hole(used, |t, r| {
                let mut full = board.to_vec();
                full.extend([t, r]);
                add(&full);
            }),
            _ => unreachable!(),
        }
        (sum, sum_sq, hist)
    }

    /// A sampled state of a street's table against brute force over its runouts.
    fn check_sampled<H: Copy + Into<u64>>(table: &Strength<H>, ix: &HoldemIndexer, seed: &mut u64) {
        let i = sample(seed, STATES[table.street]);
        let s = ix.unindex(table.street, i).unwrap();
        let (sum, sum_sq, hist) = brute(&s.hole, s.board(), table.bins);
        let i = i as usize;
        assert_eq!(u64::from(table.sum[i]), sum, "{s:?}");
        assert_eq!(table.sum_sq[i], sum_sq, "{s:?}");
        let got: Vec<u64> = table.histogram(i).iter().map(|&n| n.into()).collect();
        assert_eq!(got, hist, "{s:?}");
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore = "every street: run with --release")]
    fn preflop_strength_is_the_exact_equity_of_the_preflop_sweep() {
        let all = computed::all();
        let ix = HoldemIndexer::new();
        let sweep = all_class_counts();
        for i in 0..STATES[PREFLOP] as usize {
            let hole = ix.unindex(PREFLOP, i as u64).unwrap().hole;
            let c = class_of(hole[0], hole[1]);
            let n = u64::from(combos(c));
            assert_eq!(
                u64::from(all.preflop.sum[i]) * n,
                2 * sweep.wins[c] + sweep.ties[c],
                "{hole:?}"
            );
        }
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore = "every street: run with --release")]
    fn sampled_states_agree_with_brute_force() {
        let all = computed::all();
        let ix = HoldemIndexer::new();
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..2_000 {
            let i = sample(&mut seed, STATES[RIVER]);
            let s = ix.unindex(RIVER, i).unwrap();
            let i = i as usize;
            let score = 2 * u32::from(all.river.wins[i]) + u32::from(all.river.ties[i]);
            assert_eq!(score, river_score(&s.hole, s.board()), "{s:?}");
        }
        for _ in 0..300 {
            check_sampled(&all.turn, &ix, &mut seed);
        }
        for _ in 0..4 {
            check_sampled(&all.flop, &ix, &mut seed);
        }
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore = "every street: run with --release")]
    fn strength_averages_one_half_over_every_deal() {
        let all = computed::all();
        let ix = HoldemIndexer::new();
        let half = u64::from(OPPONENT_HANDS);
        let check = |street: usize, sum: &dyn Fn(usize) -> u64| {
            let (mut total, mut deals_total) = (0u128, 0u128);
            for i in 0..STATES[street] {
                let s = ix.unindex(street, i).unwrap();
                let d = u128::from(deals(&s.hole, s.board()));
                total += d * u128::from(sum(i as usize));
                deals_total += d;
            }
            assert_eq!(
                total,
                deals_total * u128::from(RUNOUTS[street] * half),
                "{}",
                STREET_NAMES[street]
            );
        };
        check(PREFLOP, &|i| u64::from(all.preflop.sum[i]));
        check(FLOP, &|i| u64::from(all.flop.sum[i]));
        check(TURN, &|i| u64::from(all.turn.sum[i]));
    }
}
