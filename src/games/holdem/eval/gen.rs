//! The 7-card evaluator's 16-bit tables, computed from a ranking of 5-card hands.
//!
//! This file is compiled twice: by the build script, which writes the tables into the
//! binary (so that no run spends milliseconds building them), and by the library's tests,
//! which build them again from the 5-card evaluator of [`crate::games::stud::eval`] and
//! check that both rankings give the same bytes. It therefore uses only `std` and the
//! runtime crate (a build dependency too).
#![allow(dead_code)] // each of the two compilations uses a different part

use cardtables::colex::binomial;

/// Distinct 5-card strengths.
pub const STRENGTHS: usize = 7462;
/// Ranks below this (2–8) go to the low field of a card key, the rest (9–A) to the high.
pub const LOW_RANKS: usize = 7;
/// Bits of the low field (5^7 = 78,125 values) and of the high field (5^6 = 15,625).
pub const LOW_BITS: u32 = 17;
pub const HIGH_BITS: u32 = 14;
/// Sums of a low and a high field term lie below this (each is a `u16`).
pub const INDEX_SPAN: usize = 1 << 17;

/// Where each 16-bit table starts in the words. Strength by rank-multiset index
/// (non-flush hands), padded to [`INDEX_SPAN`] so any sum of two field terms is in bounds.
pub const BY_RANKS_AT: usize = 0;
/// Colex terms of the low ranks (2–8) by their base-5 field, at the first positions.
pub const LOW_TERMS_AT: usize = BY_RANKS_AT + INDEX_SPAN;
/// Colex terms of the high ranks (9–A) by their base-5 field, at the last positions.
pub const HIGH_TERMS_AT: usize = LOW_TERMS_AT + (1 << LOW_BITS);
/// Strength by the flush suit's 13-bit rank mask (masks with ≥ 5 ranks).
pub const BY_FLUSH_AT: usize = HIGH_TERMS_AT + (1 << HIGH_BITS);
/// Where the flush table ends.
pub const FLUSH_END: usize = BY_FLUSH_AT + (1 << 13);
/// Number of words: the tables and one spare word, so that a 32-bit vector gather of any
/// 16-bit entry (the batch path reads two words and keeps the low one) stays inside.
pub const WORDS: usize = FLUSH_END + 1;

/// `term[i][r]`: the colex term of rank r at sorted position i. Seven sorted ranks
/// `r1 ≤ … ≤ r7` have the dense index `Σ term[i][r_i]` among the C(19, 7) multisets.
pub fn terms() -> [[u32; 13]; 7] {
    std::array::from_fn(|i| std::array::from_fn(|r| binomial(r + i, i + 1)))
}

/// The colex index of a sorted rank multiset: dense among multisets of its size.
fn index(term: &[[u32; 13]; 7], ranks: &[u8]) -> usize {
    ranks
        .iter()
        .enumerate()
        .map(|(i, &r)| term[i][usize::from(r)] as usize)
        .sum()
}

/// A key that orders 5-card hands as poker does (larger wins, equal ties): the category,
/// then the deciding ranks, most significant first, one 4-bit digit each. `ranks` are the
/// five ranks (0 = deuce … 12 = ace) in increasing order, never five of one rank; `flush`
/// says all five cards share a suit.
pub fn five_card_key(ranks: &[u8; 5], flush: bool) -> u32 {
    let mut counts = [0u8; 13];
    for &r in ranks {
        counts[usize::from(r)] += 1;
    }
    // (count, rank) groups, largest count first, then highest rank.
    let mut groups: Vec<(u8, u8)> = (0..13u8)
        .filter(|&r| counts[usize::from(r)] > 0)
        .map(|r| (counts[usize::from(r)], r))
        .collect();
    groups.sort_unstable_by(|a, b| b.cmp(a));
    let distinct = groups.len() == 5;
    let straight_top = if distinct && ranks[4] - ranks[0] == 4 {
        Some(ranks[4])
    } else if *ranks == [0, 1, 2, 3, 12] {
        Some(3) // the wheel: five high
    } else {
        None
    };
    let shape: Vec<u8> = groups.iter().map(|g| g.0).collect();
    let (category, deciding): (u32, Vec<u8>) = match (straight_top, flush, shape.as_slice()) {
        (Some(top), true, _) => (8, vec![top]),
        (_, _, [4, 1]) => (7, groups.iter().map(|g| g.1).collect()),
        (_, _, [3, 2]) => (6, groups.iter().map(|g| g.1).collect()),
        (_, true, _) => (5, groups.iter().map(|g| g.1).collect()),
        (Some(top), false, _) => (4, vec![top]),
        (_, _, [3, 1, 1]) => (3, groups.iter().map(|g| g.1).collect()),
        (_, _, [2, 2, 1]) => (2, groups.iter().map(|g| g.1).collect()),
        (_, _, [2, 1, 1, 1]) => (1, groups.iter().map(|g| g.1).collect()),
        _ => (0, groups.iter().map(|g| g.1).collect()),
    };
    (0..5).fold(category, |key, i| {
        key << 4 | u32::from(deciding.get(i).copied().unwrap_or(0))
    })
}

/// The evaluator's words (see the offsets above), from a key that orders 5-card hands:
/// `key(ranks, flush)` as [`five_card_key`] describes its arguments.
pub fn words(key: impl Fn(&[u8; 5], bool) -> u32) -> Vec<u16> {
    let term = terms();
    // One key per 5-card class: each rank multiset (five of a rank aside) without a
    // flush, and each set of five ranks in one suit, the flushes and straight flushes.
    let mut key5: Vec<Option<u32>> = vec![None; binomial(13 + 4, 5) as usize];
    let mut ranks5 = [0u8; 5];
    for_each_multiset(&mut ranks5, 0, 0, &mut |ranks: &[u8; 5]| {
        if ranks[0] != ranks[4] {
            key5[index(&term, ranks)] = Some(key(ranks, false));
        }
    });
    let mut flush_key = vec![None; 1 << 13];
    for (mask, slot) in flush_key.iter_mut().enumerate() {
        if mask.count_ones() == 5 {
            let mut ranks = [0u8; 5];
            for (r, to) in (0..13u8).filter(|r| mask >> r & 1 == 1).zip(&mut ranks) {
                *to = r;
            }
            *slot = Some(key(&ranks, true));
        }
    }
    // Every distinct key, sorted: a key's position is its strength.
    let mut keys: Vec<u32> = key5.iter().chain(&flush_key).flatten().copied().collect();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), STRENGTHS, "a 5-card ranking has 7462 classes");
    let strength =
        |k: &Option<u32>| k.map_or(0, |k| keys.binary_search(&k).expect("known key") as u16);
    // The best five of six or seven cards is the best of the hands one card smaller:
    // ranks without a flush by multiset, 6 from 5 and 7 from 6 (impossible multisets,
    // five of a rank, keep 0 and never win a maximum)...
    let by_ranks5: Vec<u16> = key5.iter().map(strength).collect();
    let mut by_ranks6 = vec![0u16; binomial(13 + 5, 6) as usize];
    let mut ranks6 = [0u8; 6];
    for_each_multiset(&mut ranks6, 0, 0, &mut |ranks: &[u8; 6]| {
        by_ranks6[index(&term, ranks)] = (0..6)
            .map(|skip| {
                let fewer: [u8; 5] = std::array::from_fn(|i| ranks[i + usize::from(i >= skip)]);
                by_ranks5[index(&term, &fewer)]
            })
            .max()
            .expect("six subsets");
    });
    let mut by_ranks = vec![0u16; INDEX_SPAN];
    let mut ranks7 = [0u8; 7];
    for_each_multiset(&mut ranks7, 0, 0, &mut |ranks: &[u8; 7]| {
        if ranks.windows(5).all(|w| w[0] != w[4]) {
            by_ranks[index(&term, ranks)] = (0..7)
                .map(|skip| {
                    let fewer: [u8; 6] = std::array::from_fn(|i| ranks[i + usize::from(i >= skip)]);
                    by_ranks6[index(&term, &fewer)]
                })
                .max()
                .expect("seven subsets");
        }
    });
    // ...and flushes by rank mask, each mask after its submasks.
    let mut by_flush: Vec<u16> = flush_key.iter().map(strength).collect();
    for mask in 0..by_flush.len() {
        if (6..=7).contains(&mask.count_ones()) {
            by_flush[mask] = (0..13)
                .filter(|r| mask >> r & 1 == 1)
                .map(|r| by_flush[mask & !(1 << r)])
                .max()
                .expect("a rank to drop");
        }
    }
    let (low_terms, high_terms) = field_terms(&term);
    // Each table must fill exactly the span its offset constant gives it.
    let spans = [
        (by_ranks.len(), LOW_TERMS_AT - BY_RANKS_AT),
        (low_terms.len(), HIGH_TERMS_AT - LOW_TERMS_AT),
        (high_terms.len(), BY_FLUSH_AT - HIGH_TERMS_AT),
        (by_flush.len(), FLUSH_END - BY_FLUSH_AT),
    ];
    assert!(spans.iter().all(|(len, span)| len == span), "{spans:?}");
    let words = [by_ranks, low_terms, high_terms, by_flush, vec![0]].concat();
    assert_eq!(words.len(), WORDS);
    words
}

/// The colex terms contributed by each value of the low and of the high rank field.
///
/// A low field with `n` ranks (its digits are the rank counts) sorts them into positions
/// 0..n; a high field with `m` ranks sorts them into positions 7−m..7. Fields with more
/// than seven ranks never occur in a 7-card key and keep 0; so do the field values past
/// the last base-5 one, which only impossible rank multisets (five of a rank) reach.
fn field_terms(term: &[[u32; 13]; 7]) -> (Vec<u16>, Vec<u16>) {
    /// The ranks `offset + r..` of a field, given `left` more cards from position
    /// `position` on, with the field value and the colex sum so far.
    struct Field<'a> {
        term: &'a [[u32; 13]; 7],
        offset: usize,
        ranks: usize,
        out: Vec<u16>,
    }
    impl Field<'_> {
        fn fill(&mut self, r: usize, left: usize, position: usize, value: usize, sum: u32) {
            if r == self.ranks {
                if left == 0 {
                    self.out[value] = u16::try_from(sum).expect("colex index < 50,388");
                }
                return;
            }
            let mut s = sum;
            for c in 0..=left.min(4) {
                if c > 0 {
                    s += self.term[position + c - 1][self.offset + r];
                }
                self.fill(
                    r + 1,
                    left - c,
                    position + c,
                    value + c * 5usize.pow(r as u32),
                    s,
                );
            }
        }
    }
    let terms = |ranks: usize, offset: usize, high: bool, bits: u32| -> Vec<u16> {
        let mut field = Field {
            term,
            offset,
            ranks,
            out: vec![0; 1 << bits],
        };
        for n in 0..=7 {
            field.fill(0, n, if high { 7 - n } else { 0 }, 0, 0);
        }
        field.out
    };
    (
        terms(LOW_RANKS, 0, false, LOW_BITS),
        terms(13 - LOW_RANKS, LOW_RANKS, true, HIGH_BITS),
    )
}

/// Every multiset of `N` ranks, as a sorted array.
pub fn for_each_multiset<const N: usize>(
    ranks: &mut [u8; N],
    depth: usize,
    from: u8,
    f: &mut impl FnMut(&[u8; N]),
) {
    if depth == N {
        f(ranks);
        return;
    }
    for r in from..13 {
        ranks[depth] = r;
        for_each_multiset(ranks, depth + 1, r, f);
    }
}
