//! The board sweep: exact win / tie counts of every starting-hand class against one
//! random opponent, over every opponent hand and every board.
//!
//! Boards are taken up to suit permutation (each canonical board weighted by its orbit:
//! a class's totals are suit-symmetric). On each board all 1,081 hole pairs are ranked
//! once and swept in strength order; a hand's wins are the hands below it that avoid both
//! its cards, `below − below[c1] − below[c2]`, kept with one counter per card — no
//! matchup is enumerated.

use cardtables::colex::{binomial, index_sorted, unrank};
use cardtables::Card;

use super::classes::{class_of, CLASSES};
use super::eval::tables;

/// Canonical boards per work unit of the sweep jobs (about a quarter of a second each).
pub const BOARDS_PER_UNIT: usize = 1024;
/// Deals per combo: C(50,5) boards × C(45,2) opponent hands.
pub const DEALS_PER_COMBO: u64 = 2_118_760 * 990;

/// A board up to suit permutation and how many boards it stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    pub index: u32,
    pub weight: u32,
}

/// Every board up to suit permutation (134,459 of them), with weights summing to C(52,5).
pub fn canonical_boards() -> Vec<Board> {
    canonical_boards_of(5)
}

/// Every set of `k` cards (3 to 5) up to suit permutation, in increasing colex index of
/// its canonical form (see [`canonical_form`]), each with the number of sets it stands
/// for: 1,755 flops, 16,432 turn boards and 134,459 river boards.
pub fn canonical_boards_of(k: usize) -> Vec<Board> {
    assert!((3..=5).contains(&k), "boards of 3 to 5 cards");
    let mut weight = vec![0u32; binomial(52, k) as usize];
    let mut cards = [Card::from_id(0).expect("card 0"); 5];
    for i in 0..binomial(52, k) {
        unrank(i, k, &mut cards);
        weight[canonical_form(&cards[..k]).index as usize] += 1;
    }
    weight
        .iter()
        .enumerate()
        .filter(|(_, &w)| w > 0)
        .map(|(i, &w)| Board {
            index: i as u32,
            weight: w,
        })
        .collect()
}

/// A board's canonical form: the colex index of the canonical cards, and the suit each
/// of the board's suits is renamed to (`suit_map[s]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Canonical {
    pub index: u32,
    pub suit_map: [u8; 4],
}

/// The canonical form of a board of up to 5 cards. It lists the four suits' rank masks in
/// decreasing order and gives them suits 3, 2, 1, 0: two boards are suit permutations of
/// each other exactly when these sorted masks agree, so they share the canonical cards.
pub fn canonical_form(cards: &[Card]) -> Canonical {
    let mut masks = [(0u16, 0u8); 4];
    for (s, m) in masks.iter_mut().enumerate() {
        m.1 = s as u8;
    }
    for c in cards {
        masks[usize::from(c.suit())].0 |= 1 << c.rank();
    }
    masks.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
    let mut suit_map = [0u8; 4];
    let mut canonical = [Card::from_id(0).expect("card 0"); 5];
    let mut n = 0;
    for (k, &(mask, suit)) in masks.iter().enumerate() {
        let to = 3 - k as u8;
        suit_map[usize::from(suit)] = to;
        for r in 0..13u8 {
            if mask >> r & 1 == 1 {
                canonical[n] = Card::new(r, to).expect("valid card");
                n += 1;
            }
        }
    }
    let canonical = &mut canonical[..n];
    canonical.sort_unstable();
    Canonical {
        index: index_sorted(canonical),
        suit_map,
    }
}

/// Per-class sums (weighted by board orbits).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ClassCounts {
    pub wins: Vec<u64>,
    pub ties: Vec<u64>,
}

/// Adds one board's results (times `weight`) into `into`.
pub fn sweep_board(board: [Card; 5], weight: u64, into: &mut ClassCounts, scratch: &mut Vec<u32>) {
    rank_hands(board, scratch);
    credit_one_opponent(scratch, weight, into);
}

/// A ranked hand's (strength, first card id, second card id), from [`rank_hands`].
#[inline]
pub fn unpack(hand: u32) -> (u16, u8, u8) {
    ((hand >> 16) as u16, (hand >> 8) as u8, hand as u8)
}

/// Fills `scratch` with the 1,081 hole pairs that avoid `board`, each packed as strength,
/// first card id, second card id (see [`unpack`]), sorted weakest first.
pub fn rank_hands(board: [Card; 5], scratch: &mut Vec<u32>) {
    let t = tables();
    let used = board.iter().fold(0u64, |m, c| m | 1 << c.id());
    scratch.clear();
    // Without a flush, strength depends on the hole ranks alone: 91 evaluations per board
    // instead of 1,081. A flush needs five of a suit, so at least three on the board.
    let mut by_ranks = [[0u16; 13]; 13];
    let mut seven = [0u8; 7];
    for (slot, c) in seven.iter_mut().zip(&board) {
        *slot = c.rank();
    }
    for lo in 0..13u8 {
        for hi in lo..13u8 {
            seven[5] = lo;
            seven[6] = hi;
            by_ranks[usize::from(lo)][usize::from(hi)] = t.non_flush(seven);
        }
    }
    let mut suit_mask = [0u16; 4];
    for c in &board {
        suit_mask[usize::from(c.suit())] |= 1 << c.rank();
    }
    // At most one suit has three or more board cards; only it can make a flush.
    let flush_suit = (0..4u8).find(|&s| suit_mask[usize::from(s)].count_ones() >= 3);
    let flush_base = flush_suit.map_or(0, |s| suit_mask[usize::from(s)]);
    let flush_need = 5 - flush_base.count_ones().min(5);
    for a in 0..52u8 {
        if used >> a & 1 == 1 {
            continue;
        }
        let ca = Card::from_id(a).expect("id < 52");
        for b in a + 1..52 {
            if used >> b & 1 == 1 {
                continue;
            }
            let cb = Card::from_id(b).expect("id < 52");
            let suited = |c: Card| Some(c.suit()) == flush_suit;
            let (ina, inb) = (suited(ca), suited(cb));
            let strength = if flush_suit.is_some() && u32::from(ina) + u32::from(inb) >= flush_need
            {
                let mut mask = flush_base;
                if ina {
                    mask |= 1 << ca.rank();
                }
                if inb {
                    mask |= 1 << cb.rank();
                }
                t.flush(mask)
            } else {
                by_ranks[usize::from(ca.rank())][usize::from(cb.rank())]
            };
            // Strength, then the two cards, packed so one integer sort orders them.
            scratch.push(u32::from(strength) << 16 | u32::from(a) << 8 | u32::from(b));
        }
    }
    scratch.sort_unstable();
}

/// Visits every ranked hand of one board (from [`rank_hands`]) with the opponent hands
/// it beats and ties: `visit(first card id, second card id, wins, ties)`, where wins are
/// the hands below it and ties the hands level with it that avoid both its cards.
#[inline]
pub fn one_opponent_results(ranked: &[u32], mut visit: impl FnMut(u8, u8, u64, u64)) {
    let mut below_card = [0u64; 52];
    let mut below = 0u64;
    let mut i = 0;
    while i < ranked.len() {
        let s = unpack(ranked[i]).0;
        let mut j = i;
        while j < ranked.len() && unpack(ranked[j]).0 == s {
            j += 1;
        }
        let group = &ranked[i..j];
        let mut group_card = [0u64; 52];
        for &x in group {
            let (_, a, b) = unpack(x);
            group_card[usize::from(a)] += 1;
            group_card[usize::from(b)] += 1;
        }
        let size = group.len() as u64;
        for &x in group {
            let (_, a, b) = unpack(x);
            let (ia, ib) = (usize::from(a), usize::from(b));
            let wins = below - below_card[ia] - below_card[ib];
            // The hand itself shares both its cards: counted twice, taken away once.
            let ties = size - group_card[ia] - group_card[ib] + 1;
            visit(a, b, wins, ties);
        }
        for &x in group {
            let (_, a, b) = unpack(x);
            below_card[usize::from(a)] += 1;
            below_card[usize::from(b)] += 1;
        }
        below += size;
        i = j;
    }
}

/// Credits every ranked hand of one board (times `weight`) to its class with the
/// opponent hands it beats and ties.
pub fn credit_one_opponent(ranked: &[u32], weight: u64, into: &mut ClassCounts) {
    one_opponent_results(ranked, |a, b, wins, ties| {
        let class = class_of(Card::from_id(a).expect("id"), Card::from_id(b).expect("id"));
        into.wins[class] += wins * weight;
        into.ties[class] += ties * weight;
    });
}

/// Exact counts of every class against one random hand over some canonical boards.
pub fn class_counts(boards: &[Board]) -> ClassCounts {
    let mut counts = ClassCounts {
        wins: vec![0; CLASSES],
        ties: vec![0; CLASSES],
    };
    let mut scratch = Vec::with_capacity(1081);
    let mut cards = [Card::from_id(0).expect("card 0"); 5];
    for board in boards {
        unrank(board.index, 5, &mut cards);
        sweep_board(cards, u64::from(board.weight), &mut counts, &mut scratch);
    }
    counts
}

/// Every class's exact counts against one random hand, from every canonical board (on
/// every core): what the `holdem.preflop` job computes, for other jobs to check against.
pub fn all_class_counts() -> ClassCounts {
    use rayon::prelude::*;
    canonical_boards()
        .par_chunks(BOARDS_PER_UNIT)
        .map(class_counts)
        .reduce(
            || ClassCounts {
                wins: vec![0; CLASSES],
                ties: vec![0; CLASSES],
            },
            |mut a, b| {
                for c in 0..CLASSES {
                    a.wins[c] += b.wins[c];
                    a.ties[c] += b.ties[c];
                }
                a
            },
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg_attr(
        debug_assertions,
        ignore = "enumerates every board: run with --release"
    )]
    fn boards_up_to_suit_permutation() {
        for (k, count, sets) in [
            (3, 1_755, 22_100),
            (4, 16_432, 270_725),
            (5, 134_459, 2_598_960),
        ] {
            let boards = canonical_boards_of(k);
            assert_eq!(boards.len(), count, "{k} cards");
            assert_eq!(
                boards.iter().map(|b| u64::from(b.weight)).sum::<u64>(),
                sets,
                "{k} cards"
            );
        }
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore = "brute force: run with --release")]
    fn one_board_sweep_matches_comparing_every_pair() {
        let t = tables();
        let board: [Card; 5] = cardtables::parse_cards("Ah Kd 7c 7s 2h")
            .unwrap()
            .try_into()
            .unwrap();
        let mut counts = ClassCounts {
            wins: vec![0; CLASSES],
            ties: vec![0; CLASSES],
        };
        sweep_board(board, 1, &mut counts, &mut Vec::new());
        let used = board.iter().fold(0u64, |m, c| m | 1 << c.id());
        let hands: Vec<(u8, u8, u16)> = (0..52u8)
            .flat_map(|a| (a + 1..52).map(move |b| (a, b)))
            .filter(|&(a, b)| used >> a & 1 == 0 && used >> b & 1 == 0)
            .map(|(a, b)| {
                let mut seven = [Card::from_id(a).unwrap(); 7];
                seven[..5].copy_from_slice(&board);
                seven[6] = Card::from_id(b).unwrap();
                (a, b, t.evaluate(&seven))
            })
            .collect();
        let mut expected = ClassCounts {
            wins: vec![0; CLASSES],
            ties: vec![0; CLASSES],
        };
        for &(a, b, s) in &hands {
            let c = class_of(Card::from_id(a).unwrap(), Card::from_id(b).unwrap());
            for &(x, y, o) in &hands {
                if x == a || x == b || y == a || y == b {
                    continue;
                }
                expected.wins[c] += u64::from(s > o);
                expected.ties[c] += u64::from(s == o);
            }
        }
        assert_eq!(counts, expected);
    }
}
