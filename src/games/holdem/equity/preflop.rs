//! Exact enumeration without a board: combinations of holdings grouped by suit renaming.
//!
//! Renaming the suits of every card changes no showdown, so two combinations of holdings
//! that a renaming maps onto each other have the same counts over all boards, provided
//! the renaming keeps the dead cards where they are. Those renamings (all 24 when no card
//! is dead) group the combinations; each group is enumerated once, over every board of
//! the cards left, and counted at the sum of its members' weights. A board is built one
//! card at a time with running sums of the evaluator's card keys and suit masks, so each
//! player's hand costs one add, one flush test and one table read.

use cardtables::{colex, Card};
use rayon::prelude::*;

use super::{mask, Counts, Hand, Holdings, Sums, MAX_PLAYERS, SHARE_OF};
use crate::games::holdem::eval::Tables;

/// A combination of holdings by their colex indices, in player order.
type Combination = [u16; MAX_PLAYERS];

/// A group of combinations: one of them, the sum of their weights, how many.
pub(super) struct Group {
    combination: Combination,
    weight: f64,
    members: u64,
}

/// Most combinations listed to be grouped (each takes 24 bytes while they are sorted);
/// beyond, the question goes to Monte Carlo. Only many dead cards, leaving few boards,
/// let a question within the budget come near it.
const MAX_COMBINATIONS: u64 = 1 << 21;

/// Holdings of two cards.
const HOLDINGS: usize = colex::binomial(52, 2) as usize;

/// The combinations of disjoint holdings in groups under the suit renamings that keep
/// `dead` in place; `None` when the groups times `runouts` would exceed `budget`.
pub(super) fn groups(
    holdings: &[Holdings],
    dead: u64,
    runouts: u64,
    budget: u64,
) -> Option<Vec<Group>> {
    let renamings = renamings(dead);
    // A group has at most as many members as there are renamings: the product of the
    // range sizes over that many is a floor on the groups.
    let product = holdings
        .iter()
        .try_fold(1u64, |acc, h| acc.checked_mul(h.len() as u64))?;
    if product > MAX_COMBINATIONS
        || (product / renamings.len() as u64).checked_mul(runouts)? > budget
    {
        return None;
    }
    // Per renaming, where each holding goes.
    let maps: Vec<Vec<u16>> = renamings
        .iter()
        .map(|suits| {
            (0..HOLDINGS as u32)
                .map(|i| {
                    let mut two = [Card::from_id(0).expect("card 0"); 2];
                    colex::unrank(i, 2, &mut two);
                    let mut renamed = two.map(|c| {
                        Card::new(c.rank(), suits[usize::from(c.suit())]).expect("a card")
                    });
                    renamed.sort_by_key(|c| c.id());
                    colex::index_of(&renamed) as u16
                })
                .collect()
        })
        .collect();
    let seats: Vec<Vec<(u16, u64, f64)>> = holdings
        .iter()
        .map(|h| {
            h.iter()
                .map(|(hole, w)| (colex::index_of(hole) as u16, mask(hole), *w))
                .collect()
        })
        .collect();
    let mut members = Vec::new();
    let mut chosen = [0u16; MAX_PLAYERS];
    seat(&seats, 0, 0, 1.0, &mut chosen, &mut |combination, w| {
        let canonical = maps
            .iter()
            .map(|map| {
                let mut c = [0u16; MAX_PLAYERS];
                for (to, &from) in c.iter_mut().zip(&combination[..holdings.len()]) {
                    *to = map[usize::from(from)];
                }
                c
            })
            .min()
            .expect("the identity renaming");
        members.push((canonical, w));
    });
    // Sorted by group, stably, so each group's weights add in the order of enumeration.
    members.sort_by_key(|&(c, _)| c);
    let mut groups: Vec<Group> = Vec::new();
    for (combination, weight) in members {
        match groups.last_mut() {
            Some(last) if last.combination == combination => {
                last.weight += weight;
                last.members += 1;
            }
            _ => groups.push(Group {
                combination,
                weight,
                members: 1,
            }),
        }
    }
    (groups.len() as u64)
        .checked_mul(runouts)
        .filter(|&work| work <= budget)
        .map(|_| groups)
}

/// The suit renamings that map the cards of `dead` onto themselves.
fn renamings(dead: u64) -> Vec<[u8; 4]> {
    let mut out = Vec::new();
    for a in 0..4u8 {
        for b in (0..4u8).filter(|&b| b != a) {
            for c in (0..4u8).filter(|&c| c != a && c != b) {
                // The suit left: 0 + 1 + 2 + 3 = 6.
                let suits = [a, b, c, 6 - a - b - c];
                let renamed = (0..52u8)
                    .filter(|&id| dead >> id & 1 == 1)
                    .fold(0u64, |m, id| {
                        m | 1 << (id / 4 * 4 + suits[usize::from(id % 4)])
                    });
                if renamed == dead {
                    out.push(suits);
                }
            }
        }
    }
    out
}

/// Seats players `p` onwards with every holding that avoids `used`, and calls `f` with
/// each full combination and its weight.
fn seat(
    seats: &[Vec<(u16, u64, f64)>],
    p: usize,
    used: u64,
    weight: f64,
    chosen: &mut Combination,
    f: &mut dyn FnMut(&Combination, f64),
) {
    if p == seats.len() {
        f(chosen, weight);
        return;
    }
    for &(index, held, w) in &seats[p] {
        if used & held == 0 {
            chosen[p] = index;
            seat(seats, p + 1, used | held, weight * w, chosen, f);
        }
    }
}

/// Counts every group over every board of `deck` (the cards not dead) that avoids its
/// holdings: each group at its weight.
pub(super) fn enumerate(t: &Tables, groups: &[Group], players: usize, deck: &[Card]) -> Sums {
    // Work items: a group and the first (lowest) card of its board.
    let items: Vec<(usize, usize)> = (0..groups.len())
        .flat_map(|g| (0..deck.len()).map(move |first| (g, first)))
        .collect();
    let parts: Vec<Counts> = items
        .par_iter()
        .map(|&(g, first)| boards_from(t, &groups[g].combination[..players], deck, first))
        .collect();
    // Summed in a fixed order, so the answer does not depend on the thread count.
    let mut sums = Sums::new(players);
    for (&(g, _), counts) in items.iter().zip(&parts) {
        sums.add_counts(counts, groups[g].weight, groups[g].members);
    }
    sums
}

/// Counts one combination over every board whose lowest card is `deck[first]`.
fn boards_from(t: &Tables, combination: &[u16], deck: &[Card], first: usize) -> Counts {
    // One copy per table size, so the compiler unrolls the players' loop.
    match combination.len() {
        2 => boards_from_n::<2>(t, combination, deck, first),
        3 => boards_from_n::<3>(t, combination, deck, first),
        4 => boards_from_n::<4>(t, combination, deck, first),
        5 => boards_from_n::<5>(t, combination, deck, first),
        _ => boards_from_n::<6>(t, combination, deck, first),
    }
}

/// [`boards_from`] for `N` players: each board adds one to the count of its set of
/// winners (no branch on who won), and the counts become shares at the end.
fn boards_from_n<const N: usize>(
    t: &Tables,
    combination: &[u16],
    deck: &[Card],
    first: usize,
) -> Counts {
    let mut holes = [Hand::EMPTY; N];
    let mut held = 0u64;
    for (hand, &index) in holes.iter_mut().zip(combination) {
        let mut two = [deck[0]; 2];
        colex::unrank(u32::from(index), 2, &mut two);
        *hand = Hand::of(t, &two);
        held |= mask(&two);
    }
    let mut counts = Counts::default();
    if held >> deck[first].id() & 1 == 1 {
        return counts;
    }
    // The cards left after the first, on the stack.
    let mut rest = [Hand::EMPTY; 52];
    let mut n = 0;
    for &c in &deck[first + 1..] {
        if held >> c.id() & 1 == 0 {
            rest[n] = Hand::EMPTY.with(t, c);
            n += 1;
        }
    }
    let rest = &rest[..n];
    let b1 = Hand::EMPTY.with(t, deck[first]);
    let mut by_winners = [0u64; 1 << MAX_PLAYERS];
    for i in 0..n {
        let b2 = b1.join(rest[i]);
        for j in i + 1..n {
            let b3 = b2.join(rest[j]);
            for k in j + 1..n {
                let b4 = b3.join(rest[k]);
                for &last in &rest[k + 1..] {
                    let board = b4.join(last);
                    let strength: [u16; N] =
                        std::array::from_fn(|p| board.join(holes[p]).strength(t));
                    let top = strength.iter().copied().max().unwrap_or(0);
                    let mut winners = 0;
                    for (p, &s) in strength.iter().enumerate() {
                        winners |= usize::from(s == top) << p;
                    }
                    by_winners[winners] += 1;
                }
            }
        }
    }
    for (m, &boards) in by_winners.iter().enumerate() {
        let winners = m.count_ones() as usize;
        for p in (0..N).filter(|p| m >> p & 1 == 1) {
            counts.equity[p] += boards * SHARE_OF[winners];
            if winners == 1 {
                counts.win[p] += boards;
            } else {
                counts.tie[p] += boards;
            }
        }
        counts.showdowns += boards;
    }
    counts
}
