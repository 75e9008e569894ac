//! Exact head-to-head counts by rank multiset, without comparing pairs of hands.
//!
//! A hand's category depends only on its ranks, and the number of opponent hands with a
//! given rank multiset that avoid our five cards is `Π_r C(4 − ours_r, theirs_r)`. So for
//! each of our 6,175 possible rank multisets we sum over the 6,175 opponent multisets
//! (38 M pairs instead of 4·10^12 pairs of hands) and get, exactly:
//! - how many disjoint opponent hands fall in each category, and
//! - how many of those in our own category have a lower tie-break card, for each suit our
//!   high card may have (which is all the tie-break depends on: see [`Counts::below_high`]).
//!
//! `HandsJob::outcomes` turns those counts into an [`Outcome`] per rank multiset and
//! tie-break suit: the wins and the banker's and player's summed results.

use super::eval::{multiset_ranks, MULTISETS};
use super::rules::{BOMB, CODES};

/// C(n, k) for n, k <= 4.
const SMALL_BINOMIAL: [[u32; 5]; 5] = [
    [1, 0, 0, 0, 0],
    [1, 1, 0, 0, 0],
    [1, 2, 1, 0, 0],
    [1, 3, 3, 1, 0],
    [1, 4, 6, 4, 1],
];

/// One possible rank multiset, prepared for counting.
#[derive(Clone, Debug)]
pub struct Multiset {
    /// Cards of each card-id rank (0 = 2 … 12 = A).
    pub counts: [u8; 13],
    /// Category code under the job's rules.
    pub code: u8,
    /// Card-id rank of the tie-break card: the highest card in the tie-break order (K high,
    /// A low), or the four of a kind's rank for a bomb settled by it.
    pub top_rank: u8,
    /// (rank, count) of each rank present, in the first `present_len` slots (inline, so
    /// the inner loop of [`counts`] reads one contiguous record per multiset).
    pub present: [(u8, u8); 5],
    pub present_len: u8,
}

impl Multiset {
    /// (rank, count) of each rank present.
    pub fn present(&self) -> &[(u8, u8)] {
        &self.present[..usize::from(self.present_len)]
    }
}

/// Niuniu order of a card-id rank (A lowest).
fn niu(rank: u8) -> u8 {
    (rank + 1) % 13
}

/// Prepares every multiset (`None` for five of a kind) given the category table;
/// `quad_rank_bombs`: bombs are settled by the four of a kind's rank.
///
/// A bomb settled that way has the ♠ of its four as tie-break card: an opponent bomb is
/// lower when its four is, and no opponent holds a card of our four, so the count below
/// needs no case of its own (all four suits of the top rank are ours, and only the ♠ slot
/// is reachable).
pub fn prepare(categories: &[u8], quad_rank_bombs: bool) -> Vec<Option<Multiset>> {
    (0..MULTISETS)
        .map(|i| {
            if categories[i] == u8::MAX {
                return None;
            }
            let mut counts = [0u8; 13];
            for r in multiset_ranks(i) {
                counts[usize::from(r)] += 1;
            }
            let mut present = [(0u8, 0u8); 5];
            let mut present_len = 0;
            for r in (0..13u8).filter(|&r| counts[usize::from(r)] > 0) {
                present[present_len] = (r, counts[usize::from(r)]);
                present_len += 1;
            }
            let present_ranks = present[..present_len].iter();
            let top_rank = if quad_rank_bombs && categories[i] == BOMB {
                present_ranks
                    .filter(|&&(_, k)| k == 4)
                    .map(|&(r, _)| r)
                    .next()
            } else {
                present_ranks.map(|&(r, _)| r).max_by_key(|&r| niu(r))
            }
            .expect("five cards, and a bomb holds four of a kind");
            Some(Multiset {
                counts,
                code: categories[i],
                top_rank,
                present,
                present_len: present_len as u8,
            })
        })
        .collect()
}

/// Head-to-head counts for one of our rank multisets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Counts {
    /// Disjoint opponent hands in each category code.
    pub by_code: [u32; CODES],
    /// `below_high[s]`: disjoint opponent hands in our category whose tie-break card is
    /// lower than ours, when our high card has suit `s` (0 = ♦ … 3 = ♠). Zero where that
    /// suit is impossible for a hand with these ranks.
    pub below_high: [u32; 4],
}

/// Counts against every opponent multiset for our multiset `ours`.
///
/// Opponent hands in our category with a lower tie-break card hold only ranks at most our
/// top rank (in Niuniu order), and at our top rank only suits below our high card's suit
/// that we do not hold. We hold `counts[top] − 1` of those suits, so `s + 1 − counts[top]`
/// remain: the count depends on our high card's suit alone, not on our other suits.
pub fn counts(ours: &Multiset, all: &[Option<Multiset>]) -> Counts {
    // ways[r][k]: ways to give the opponent k cards of rank r that we do not hold.
    let ways_of: [[u32; 5]; 13] =
        std::array::from_fn(|r| SMALL_BINOMIAL[usize::from(4 - ours.counts[r])]);
    let mut by_code = [0u32; CODES];
    let mut below_high = [0u32; 4];
    let top = ours.top_rank;
    let held_at_top = u32::from(ours.counts[usize::from(top)]);
    for theirs in all.iter().flatten() {
        let ways: u32 = theirs
            .present()
            .iter()
            .map(|&(r, k)| ways_of[usize::from(r)][usize::from(k)])
            .product();
        by_code[usize::from(theirs.code)] += ways;
        if theirs.code != ours.code || niu(theirs.top_rank) > niu(top) {
            continue;
        }
        let mut ways_off_top = 1u32;
        let mut at_top = 0u8;
        for &(r, k) in theirs.present() {
            if r == top {
                at_top = k;
            } else {
                ways_off_top *= ways_of[usize::from(r)][usize::from(k)];
            }
        }
        if ways_off_top == 0 {
            continue;
        }
        for (suit, slot) in below_high.iter_mut().enumerate() {
            let below = suit as u32 + 1;
            if below >= held_at_top {
                let free = (below - held_at_top) as usize;
                *slot += ways_off_top * SMALL_BINOMIAL[free][usize::from(at_top)];
            }
        }
    }
    Counts {
        by_code,
        below_high,
    }
}

/// Exact head-to-head results shared by every hand with the same ranks and high suit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Opponent hands beaten, of C(47,5).
    pub wins: u32,
    /// Banker's total result over all C(47,5) opponent hands, in player bets.
    pub banker_numerator: i64,
    /// The same hand's total result as a player against each of those hands as banker
    /// (equal to `banker_numerator` unless the banker wins category ties).
    pub player_numerator: i64,
}
