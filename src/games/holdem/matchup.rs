//! Exact heads-up all-in results of one Hold'em matchup over all C(48, 5) = 1,712,304
//! boards, without visiting the boards one by one.
//!
//! Suits matter only through flushes, and a flush needs three or more board cards of one
//! suit. So we first score every board as if flushes did not exist: a board's result then
//! depends only on its five ranks, and the boards sharing a rank multiset R number
//! `Π_r C(live cards of rank r, multiplicity of r in R)`, giving 6,175 comparisons instead
//! of 1.7 million. Then we correct the boards where some suit s has k ≥ 3 cards: for each
//! s, k, set T of k board ranks in suit s and multiset U of the other 5 − k ranks (from
//! other suits), we replace the rank-only result by the real one. A suit-s flush needs two
//! hole cards of s when k = 3 and one when k = 4, so most (s, k) pairs cannot change any
//! result and are skipped.

use cardtables::colex::binomial;
use cardtables::Card;

use super::classes::{class_of, CLASSES};
use super::eval::Tables;
pub use crate::cards::matchups::MatchupResult;
use crate::cards::matchups::{two_cards, Matchup};

/// Boards for one matchup: C(48, 5).
pub const BOARDS: u64 = 1_712_304;
/// Multisets of 5 of 13 ranks: C(17, 5) slots (6,175 of them respect four cards a rank).
const MULTISETS: usize = 6_188;

/// Reusable space for [`solve`].
pub struct Scratch {
    /// Rank-only strengths (first hand, second hand) by multiset index.
    strengths: Vec<(u16, u16)>,
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch {
            strengths: vec![(0, 0); MULTISETS],
        }
    }
}

/// Dense index of a sorted multiset of five ranks: r_i + i is strictly increasing, so the
/// colex rank of that 5-set of 0..17 numbers the multisets.
#[inline]
fn multiset_index(r: &[u8; 5]) -> usize {
    r.iter()
        .enumerate()
        .map(|(i, &x)| binomial(usize::from(x) + i, i + 1) as usize)
        .sum()
}

/// Win, tie and loss counts of `a` against `b` over every board.
pub fn solve(t: &Tables, a: [Card; 2], b: [Card; 2], scratch: &mut Scratch) -> MatchupResult {
    let dead: Vec<Card> = a.iter().chain(&b).copied().collect();
    let mut live = [4u8; 13];
    for c in &dead {
        live[usize::from(c.rank())] -= 1;
    }
    let (ra, rb) = ([a[0].rank(), a[1].rank()], [b[0].rank(), b[1].rank()]);
    let mut wins: i64 = 0;
    let mut ties: i64 = 0;
    // Every board scored by ranks alone.
    let mut board = [0u8; 5];
    rank_multisets(&live, 0, 0, 1, &mut board, &mut |ranks, count| {
        let sa = t.non_flush([
            ra[0], ra[1], ranks[0], ranks[1], ranks[2], ranks[3], ranks[4],
        ]);
        let sb = t.non_flush([
            rb[0], rb[1], ranks[0], ranks[1], ranks[2], ranks[3], ranks[4],
        ]);
        scratch.strengths[multiset_index(ranks)] = (sa, sb);
        match sa.cmp(&sb) {
            std::cmp::Ordering::Greater => wins += count as i64,
            std::cmp::Ordering::Equal => ties += count as i64,
            std::cmp::Ordering::Less => {}
        }
    });
    // The boards with three or more cards of one suit, where a flush can change things.
    for s in 0..4u8 {
        let suited = |h: &[Card; 2]| -> u16 {
            h.iter()
                .filter(|c| c.suit() == s)
                .fold(0, |m, c| m | 1 << c.rank())
        };
        let (ha, hb) = (suited(&a), suited(&b));
        let live_s: u16 = (0..13u8)
            .filter(|&r| !dead.iter().any(|c| c.rank() == r && c.suit() == s))
            .fold(0, |m, r| m | 1 << r);
        // Cards of each rank available outside suit s.
        let others: [u8; 13] = std::array::from_fn(|r| live[r] - u8::from(live_s >> r & 1 == 1));
        for k in 3..=5u32 {
            let can_flush = |h: u16| h.count_ones() + k >= 5;
            if !can_flush(ha) && !can_flush(hb) {
                continue;
            }
            for_each_subset(live_s, k, |suit_ranks| {
                let fa = (ha | suit_ranks).count_ones() >= 5;
                let fb = (hb | suit_ranks).count_ones() >= 5;
                let flush_a = if fa { t.flush(ha | suit_ranks) } else { 0 };
                let flush_b = if fb { t.flush(hb | suit_ranks) } else { 0 };
                let mut ranks = [0u8; 5];
                let mut n = 0;
                for r in 0..13u8 {
                    if suit_ranks >> r & 1 == 1 {
                        ranks[n] = r;
                        n += 1;
                    }
                }
                let mut correct = |ranks: &[u8; 5], count: u64| {
                    let mut sorted = *ranks;
                    sorted.sort_unstable();
                    let (na, nb) = scratch.strengths[multiset_index(&sorted)];
                    let sa = if fa { flush_a } else { na };
                    let sb = if fb { flush_b } else { nb };
                    let score = |x: u16, y: u16| match x.cmp(&y) {
                        std::cmp::Ordering::Greater => (1i64, 0i64),
                        std::cmp::Ordering::Equal => (0, 1),
                        std::cmp::Ordering::Less => (0, 0),
                    };
                    let (w1, t1) = score(sa, sb);
                    let (w0, t0) = score(na, nb);
                    wins += (w1 - w0) * count as i64;
                    ties += (t1 - t0) * count as i64;
                };
                match k {
                    5 => correct(&ranks, 1),
                    4 => {
                        for r in 0..13u8 {
                            let c = u64::from(others[usize::from(r)]);
                            if c > 0 {
                                ranks[4] = r;
                                correct(&ranks, c);
                            }
                        }
                    }
                    _ => {
                        for r1 in 0..13u8 {
                            let c1 = u64::from(others[usize::from(r1)]);
                            if c1 == 0 {
                                continue;
                            }
                            ranks[3] = r1;
                            // Two cards of one rank: C(c1, 2) ways.
                            if c1 >= 2 {
                                ranks[4] = r1;
                                correct(&ranks, c1 * (c1 - 1) / 2);
                            }
                            for r2 in r1 + 1..13u8 {
                                let c2 = u64::from(others[usize::from(r2)]);
                                if c2 > 0 {
                                    ranks[4] = r2;
                                    correct(&ranks, c1 * c2);
                                }
                            }
                        }
                    }
                }
            });
        }
    }
    MatchupResult {
        wins: wins as u64,
        ties: ties as u64,
        deals: BOARDS,
    }
}

/// Calls `f(ranks, boards)` for every multiset of five ranks (sorted) that the live cards
/// allow, with the number of boards that have exactly those ranks.
fn rank_multisets(
    live: &[u8; 13],
    rank: u8,
    depth: usize,
    ways: u64,
    ranks: &mut [u8; 5],
    f: &mut impl FnMut(&[u8; 5], u64),
) {
    if depth == 5 {
        f(ranks, ways);
        return;
    }
    if rank == 13 {
        return;
    }
    let available = live[usize::from(rank)];
    // Take m more cards of this rank (m = 0 moves on).
    rank_multisets(live, rank + 1, depth, ways, ranks, f);
    for m in 1..=usize::from(available).min(5 - depth) {
        for slot in ranks.iter_mut().skip(depth).take(m) {
            *slot = rank;
        }
        let w = ways * u64::from(binomial(usize::from(available), m));
        rank_multisets(live, rank + 1, depth + m, w, ranks, f);
    }
}

/// Calls `f` with every `k`-subset of the set bits of `mask`.
fn for_each_subset(mask: u16, k: u32, mut f: impl FnMut(u16)) {
    // Gosper's hack over 13-bit words, keeping those inside `mask`.
    if k == 0 {
        f(0);
        return;
    }
    let mut x: u32 = (1 << k) - 1;
    while x < 1 << 13 {
        if x as u16 & !mask == 0 {
            f(x as u16);
        }
        let c = x & x.wrapping_neg();
        let r = x + c;
        x = (((r ^ x) >> 2) / c) | r;
    }
}

/// The same counts by dealing every board and evaluating both hands (the oracle for tests).
pub fn brute_force(t: &Tables, a: [Card; 2], b: [Card; 2]) -> MatchupResult {
    let deck: Vec<Card> = (0..52u8)
        .map(|id| Card::from_id(id).expect("id < 52"))
        .filter(|c| !a.contains(c) && !b.contains(c))
        .collect();
    let mut result = MatchupResult::default();
    let n = deck.len();
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                for l in k + 1..n {
                    for m in l + 1..n {
                        let board = [deck[i], deck[j], deck[k], deck[l], deck[m]];
                        let hand = |h: [Card; 2]| {
                            t.evaluate(&[
                                h[0], h[1], board[0], board[1], board[2], board[3], board[4],
                            ])
                        };
                        let (sa, sb) = (hand(a), hand(b));
                        result.deals += 1;
                        if sa > sb {
                            result.wins += 1;
                        } else if sa == sb {
                            result.ties += 1;
                        }
                    }
                }
            }
        }
    }
    result
}

/// Every card of a 52-card deck.
pub const FULL_DECK: u64 = (1 << 52) - 1;

/// The class matrix: per (class a, class b), the sums over all raw ordered matchups.
pub struct ClassMatrix {
    pub wins: Vec<u64>,
    pub ties: Vec<u64>,
    pub deals: Vec<u64>,
}

impl ClassMatrix {
    /// Sums matchup classes into class cells. A matchup class stands for `weight` raw
    /// unordered matchups; in each, the hand of class a (the first) wins `wins`.
    pub fn build(classes: &[Matchup], results: &[MatchupResult]) -> ClassMatrix {
        let n = CLASSES * CLASSES;
        let mut m = ClassMatrix {
            wins: vec![0; n],
            ties: vec![0; n],
            deals: vec![0; n],
        };
        for (mc, r) in classes.iter().zip(results) {
            let class = |i: u16| {
                let [x, y] = two_cards(i);
                class_of(x, y)
            };
            let (ca, cb) = (class(mc.a), class(mc.b));
            let w = u64::from(mc.weight);
            let mut add = |x: usize, y: usize, wins: u64, ties: u64, deals: u64| {
                m.wins[x * CLASSES + y] += w * wins;
                m.ties[x * CLASSES + y] += w * ties;
                m.deals[x * CLASSES + y] += w * deals;
            };
            add(ca, cb, r.wins, r.ties, r.deals);
            add(cb, ca, r.losses(), r.ties, r.deals);
        }
        m
    }

    pub fn equity(&self, a: usize, b: usize) -> f64 {
        let i = a * CLASSES + b;
        (self.wins[i] as f64 + self.ties[i] as f64 / 2.0) / self.deals[i] as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::holdem::eval::tables;
    use cardtables::parse_cards;

    fn two(text: &str) -> [Card; 2] {
        parse_cards(text).unwrap().try_into().unwrap()
    }

    #[test]
    fn multiset_indices_are_dense_and_distinct() {
        let mut seen = vec![false; MULTISETS];
        let mut count = 0;
        rank_multisets(&[4; 13], 0, 0, 1, &mut [0; 5], &mut |r, _| {
            let i = multiset_index(r);
            assert!(!seen[i]);
            seen[i] = true;
            count += 1;
        });
        // 6,188 multisets of 5 from 13, less the 13 with five of one rank.
        assert_eq!(count, 6_175);
    }

    #[test]
    fn boards_are_all_counted() {
        let mut total = 0;
        let mut live = [4u8; 13];
        live[12] = 2;
        live[0] = 3;
        live[5] = 3;
        rank_multisets(&live, 0, 0, 1, &mut [0; 5], &mut |_, w| total += w);
        assert_eq!(total, BOARDS);
    }

    #[test]
    #[cfg_attr(
        debug_assertions,
        ignore = "deals 1.7 M boards per matchup: run with --release"
    )]
    fn counts_equal_dealing_every_board() {
        let t = tables();
        let mut scratch = Scratch::default();
        for (a, b) in [
            ("As Ks", "Qd Qc"),
            ("7h 2c", "8h 9h"),
            ("Ah Kh", "Qh Jh"),
            ("Td 9d", "Tc 9c"),
            ("2s 2h", "Ac Kd"),
            ("5c 4c", "6d 6h"),
        ] {
            let (a, b) = (two(a), two(b));
            let fast = solve(t, a, b, &mut scratch);
            assert_eq!(fast, brute_force(t, a, b), "{a:?} vs {b:?}");
            assert_eq!(fast.deals, BOARDS);
        }
    }
}
