//! Exact enumeration without a board: combinations of holdings grouped by suit renaming.
//!
//! Renaming the suits of every card changes no showdown, so two combinations of holdings
//! that a renaming maps onto each other have the same counts over all boards, provided
//! the renaming keeps the dead cards where they are. Those renamings (all 24 when no card
//! is dead) group the combinations; each group is counted once, over every board of the
//! cards left, at the sum of its members' weights. Within a group the boards are counted
//! by their ranks wherever their suits cannot matter (see [`ranks_pass`] and
//! [`suit_pass`]), so a group costs at most a few tens of thousands of evaluations, not
//! one per board; and the groups of a question share those passes where they depend on
//! the same cards (see [`enumerate`]), so most groups cost far less.

use cardtables::{colex, Card};
use rayon::prelude::*;
use std::sync::OnceLock;

use super::{mask, Counts, Hand, Holdings, Sums, MAX_PLAYERS};
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

/// The most showdowns one group evaluates ([`ranks_pass`], [`suit_pass`]): 6,175 rank
/// multisets, and per suit 1,287 suited boards, 715 × 13 four-suited cases and 286 × 91
/// three-suited ones. (The exact budget counts this per group, though groups now share
/// most of it: a bound, not the cost.)
pub(super) const CASES: u64 = 6_175 + 4 * (1_287 + 715 * 13 + 286 * 91);

/// The combinations of disjoint holdings in groups under the suit renamings that keep
/// `dead` in place; `None` when the groups times `per_group` showdowns would exceed
/// `budget`.
pub(super) fn groups(
    holdings: &[Holdings],
    dead: u64,
    per_group: u64,
    budget: u64,
) -> Option<Vec<Group>> {
    // Per renaming that keeps `dead` in place, where each holding goes.
    let maps: Vec<&[u16]> = renamings()
        .iter()
        .filter(|r| keeps(&r.suits, dead))
        .map(|r| r.holdings.as_slice())
        .collect();
    // A group has at most as many members as there are renamings: the product of the
    // range sizes over that many is a floor on the groups.
    let product = holdings
        .iter()
        .try_fold(1u64, |acc, h| acc.checked_mul(h.len() as u64))?;
    if product > MAX_COMBINATIONS || (product / maps.len() as u64).checked_mul(per_group)? > budget
    {
        return None;
    }
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
        .checked_mul(per_group)
        .filter(|&work| work <= budget)
        .map(|_| groups)
}

/// A renaming of the suits (suit `s` becomes `suits[s]`) and where it takes each holding,
/// by colex index.
struct Renaming {
    suits: [u8; 4],
    holdings: Vec<u16>,
}

/// All 24 suit renamings with their holding maps, built once per process: every exact
/// preflop question (each of the threeway job's 818,805) groups by them.
fn renamings() -> &'static [Renaming] {
    static ALL: OnceLock<Vec<Renaming>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut out = Vec::with_capacity(24);
        for a in 0..4u8 {
            for b in (0..4u8).filter(|&b| b != a) {
                for c in (0..4u8).filter(|&c| c != a && c != b) {
                    // The suit left: 0 + 1 + 2 + 3 = 6.
                    let suits = [a, b, c, 6 - a - b - c];
                    let holdings = (0..HOLDINGS as u32)
                        .map(|i| {
                            let mut two = [Card::from_id(0).expect("card 0"); 2];
                            colex::unrank(i, 2, &mut two);
                            let mut renamed = two.map(|c| {
                                Card::new(c.rank(), suits[usize::from(c.suit())]).expect("a card")
                            });
                            renamed.sort_by_key(|c| c.id());
                            colex::index_of(&renamed) as u16
                        })
                        .collect();
                    out.push(Renaming { suits, holdings });
                }
            }
        }
        out
    })
}

/// Whether renaming the suits by `suits` maps the cards of `dead` onto themselves.
fn keeps(suits: &[u8; 4], dead: u64) -> bool {
    let renamed = (0..52u8)
        .filter(|&id| dead >> id & 1 == 1)
        .fold(0u64, |m, id| {
            m | 1 << (id / 4 * 4 + suits[usize::from(id % 4)])
        });
    renamed == dead
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
///
/// A group's boards are counted in parts that many groups share, each part computed
/// once: the boards without a flush by their ranks ([`ranks_pass`]), which depend only on
/// the ranks each seat holds; and the boards with three or more cards of one suit, per
/// suit ([`suit_pass`]), which depend only on those ranks, the cards of that suit each
/// seat holds and the cards of that suit left. A triple of offsuit classes has one rank
/// assignment, up to hundreds of groups, and a few dozen distinct suit parts.
pub(super) fn enumerate(t: &Tables, groups: &[Group], players: usize, deck: &[Card]) -> Sums {
    let seated: Vec<Seated> = groups
        .iter()
        .map(|g| Seated::new(t, &g.combination[..players], deck))
        .collect();
    // The distinct rank assignments and suit parts, each with a group that has it.
    let mut ranks: Vec<(RankSignature, usize)> = seated
        .iter()
        .enumerate()
        .map(|(i, s)| (s.signature, i))
        .collect();
    ranks.sort_unstable();
    ranks.dedup_by_key(|&mut (s, _)| s);
    let mut suits: Vec<(SuitPart, usize)> = seated
        .iter()
        .enumerate()
        .flat_map(|(i, s)| (0..4).map(move |suit| (s.suit_part(suit), i)))
        .collect();
    suits.sort_unstable();
    suits.dedup_by_key(|&mut (s, _)| s);
    let by_ranks: Vec<Outcomes> = ranks
        .par_iter()
        .map(|&(_, i)| ranks_pass(t, &seated[i], players))
        .collect();
    let by_suit: Vec<Outcomes> = suits
        .par_iter()
        .map(|&(part, i)| suit_pass(t, &seated[i], &part, players))
        .collect();
    let parts: Vec<Counts> = seated
        .iter()
        .map(|s| {
            let at = ranks
                .binary_search_by_key(&s.signature, |&(r, _)| r)
                .expect("every rank assignment is listed");
            let mut total = by_ranks[at];
            for suit in 0..4 {
                let at = suits
                    .binary_search_by_key(&s.suit_part(suit), |&(p, _)| p)
                    .expect("every suit part is listed");
                total = add(&total, &by_suit[at]);
            }
            counts(&total, players)
        })
        .collect();
    // Summed in a fixed order, so the answer does not depend on the thread count.
    let mut sums = Sums::new(players);
    for (g, counts) in groups.iter().zip(&parts) {
        sums.add_counts(counts, g.weight, g.members);
    }
    sums
}

/// A combination of holdings seated, with what its parts depend on.
struct Seated {
    /// Each seat's hand (its key's rank fields are all the ranks pass reads of it).
    holes: [Hand; MAX_PLAYERS],
    signature: RankSignature,
    /// By rank, the suits of the cards left for the board.
    suits_left: [u8; 13],
}

impl Seated {
    fn new(t: &Tables, combination: &[u16], deck: &[Card]) -> Seated {
        let mut holes = [Hand::EMPTY; MAX_PLAYERS];
        let mut signature = [0u8; 2 * MAX_PLAYERS];
        let mut held = 0u64;
        for ((hand, ranks), &index) in holes
            .iter_mut()
            .zip(signature.chunks_exact_mut(2))
            .zip(combination)
        {
            let mut two = [deck[0]; 2];
            colex::unrank(u32::from(index), 2, &mut two);
            *hand = Hand::of(t, &two);
            held |= mask(&two);
            // Seat numbers past the last seat are 0, so the signature also tells seats
            // apart from ranks: a seat's ranks are stored plus one.
            ranks[0] = two[0].rank() + 1;
            ranks[1] = two[1].rank() + 1;
        }
        let mut suits_left = [0u8; 13];
        for c in deck.iter().filter(|c| held >> c.id() & 1 == 0) {
            suits_left[usize::from(c.rank())] |= 1 << c.suit();
        }
        Seated {
            holes,
            signature,
            suits_left,
        }
    }

    /// What the boards with three or more cards of `suit` depend on.
    fn suit_part(&self, suit: u32) -> SuitPart {
        SuitPart {
            signature: self.signature,
            held: self.holes.map(|h| (h.suits >> (16 * suit)) as u16 & 0x1fff),
            left: (0..13)
                .filter(|&r| self.suits_left[r] >> suit & 1 == 1)
                .fold(0, |m, r| m | 1 << r),
        }
    }
}

/// The ranks each seat holds, in seat order (each plus one; 0 past the last seat): all
/// the ranks pass depends on besides the deck.
type RankSignature = [u8; 2 * MAX_PLAYERS];

/// All one suit's part of the flush pass depends on besides the deck.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct SuitPart {
    signature: RankSignature,
    /// Each seat's cards of the suit, as a rank mask.
    held: [u16; MAX_PLAYERS],
    /// The suit's cards left for the board, as a rank mask.
    left: u16,
}

/// Boards by outcome code ([`super::OUTCOMES`]); a pass's own counts may be negative (the
/// flush pass moves boards out of the ranks-only outcomes), their sum never is.
type Outcomes = [i64; 1 << MAX_PLAYERS];

fn add(a: &Outcomes, b: &Outcomes) -> Outcomes {
    std::array::from_fn(|i| a[i] + b[i])
}

fn counts(by_winners: &Outcomes, players: usize) -> Counts {
    Counts::from_winners(
        &by_winners.map(|boards| u64::try_from(boards).expect("a count of boards")),
        players,
    )
}

/// Counts one combination over every board of the cards of `deck` it leaves: its ranks
/// pass and its four suits' passes, as [`enumerate`] adds them.
#[cfg(test)]
fn boards(t: &Tables, combination: &[u16], deck: &[Card]) -> Counts {
    let players = combination.len();
    let seated = Seated::new(t, combination, deck);
    let total = (0..4).fold(ranks_pass(t, &seated, players), |total, suit| {
        add(
            &total,
            &suit_pass(t, &seated, &seated.suit_part(suit), players),
        )
    });
    counts(&total, players)
}

// How boards are counted, by their ranks where suits cannot matter.
//
// A board with at most two cards of each suit gives no one a flush (two hole cards more
// make four), so its showdown depends on its ranks alone: such boards are counted per
// rank multiset and evaluated once. A board with three or more cards of one suit (one
// suit at most, in five cards) is taken by that suit's cards, which matter, and the
// other cards' ranks: the others hold at most two of any suit, so only their ranks
// matter. Those are evaluated per suited set and off-suit ranks, and only when someone
// can hold five of the suit; otherwise they too are decided by ranks alone.
//
// So the counts are, per rank multiset, all its boards at the ranks-only showdown (the
// ranks pass), then for each suit and each suited case that someone can make a flush
// of: its boards moved from the ranks-only outcome (the hands' strengths without
// flushes, which the case computes anyway) to its own, where the two differ (the suit's
// pass). Every count is a product of binomials of the cards of each rank (and suit) left.

/// The ranks pass of a seated combination: every board at its ranks-only showdown.
fn ranks_pass(t: &Tables, seated: &Seated, players: usize) -> Outcomes {
    // One copy per table size, so the compiler unrolls the players' loop.
    match players {
        2 => ranks_pass_n::<2>(t, seated),
        3 => ranks_pass_n::<3>(t, seated),
        4 => ranks_pass_n::<4>(t, seated),
        5 => ranks_pass_n::<5>(t, seated),
        _ => ranks_pass_n::<6>(t, seated),
    }
}

/// One suit's pass: the suited boards of that suit someone can make a flush on, moved
/// from their ranks-only outcome to their own. `seated` gives the seats' ranks (any
/// combination with the part's signature), `part` the suit's cards.
fn suit_pass(t: &Tables, seated: &Seated, part: &SuitPart, players: usize) -> Outcomes {
    match players {
        2 => suit_pass_n::<2>(t, seated, part),
        3 => suit_pass_n::<3>(t, seated, part),
        4 => suit_pass_n::<4>(t, seated, part),
        5 => suit_pass_n::<5>(t, seated, part),
        _ => suit_pass_n::<6>(t, seated, part),
    }
}

/// Each rank's card key.
fn rank_keys(t: &Tables) -> [u64; 13] {
    std::array::from_fn(|r| t.key(Card::new(r as u8, 0).expect("rank < 13")))
}

fn ranks_pass_n<const N: usize>(t: &Tables, seated: &Seated) -> Outcomes {
    let holes = &seated.holes;
    let rank_key = rank_keys(t);
    let choose = |n: u32, k: usize| u64::from(colex::binomial(n as usize, k));
    let left: [u32; 13] = std::array::from_fn(|r| seated.suits_left[r].count_ones());
    let mut by_winners: Outcomes = [0; 1 << MAX_PLAYERS];
    let mut ranks = [0usize; 5];
    each_rank_multiset(&mut ranks, 0, 0, &mut |ranks| {
        let mut all = 1u64;
        let mut i = 0;
        while i < 5 {
            let r = ranks[i];
            let m = ranks[i..].iter().take_while(|&&x| x == r).count();
            all *= choose(left[r], m);
            i += m;
        }
        if all > 0 {
            let key: u64 = ranks.iter().map(|&r| rank_key[r]).sum();
            let strength: [u16; N] = std::array::from_fn(|p| t.non_flush_key(key + holes[p].key));
            by_winners[outcome(&strength)] += all as i64;
        }
    });
    by_winners
}

fn suit_pass_n<const N: usize>(t: &Tables, seated: &Seated, part: &SuitPart) -> Outcomes {
    let holes = &seated.holes;
    let rank_key = rank_keys(t);
    let mut by_winners: Outcomes = [0; 1 << MAX_PLAYERS];
    // The most cards of this suit a player holds: a flush needs 5 − that on board.
    let most = part.held[..N]
        .iter()
        .map(|m| m.count_ones() as usize)
        .max()
        .unwrap_or(0);
    // Off-suit cards left by rank.
    let off: [u32; 13] =
        std::array::from_fn(|r| seated.suits_left[r].count_ones() - u32::from(part.left >> r & 1));
    for k in (5 - most).max(3)..=5 {
        for_each_subset(part.left, k, |suited| {
            let suited_key: u64 = (0..13)
                .filter(|&r| suited >> r & 1 == 1)
                .map(|r| rank_key[r])
                .sum();
            // The 5 − k off-suit cards, as a sorted rank multiset with its count.
            for_each_multiset_upto(5 - k, &off, |extra, ways| {
                let board_key = suited_key + extra.iter().map(|&r| rank_key[r]).sum::<u64>();
                // Each hand by its ranks alone, as the ranks pass counted these boards,
                // and with its flush.
                let plain: [u16; N] =
                    std::array::from_fn(|p| t.non_flush_key(board_key + holes[p].key));
                let strength: [u16; N] = std::array::from_fn(|p| {
                    let flush = suited | part.held[p];
                    if flush.count_ones() >= 5 {
                        plain[p].max(t.flush(flush))
                    } else {
                        plain[p]
                    }
                });
                let (truth, counted) = (outcome(&strength), outcome(&plain));
                if truth != counted {
                    let ways = ways as i64;
                    by_winners[truth] += ways;
                    by_winners[counted] -= ways;
                }
            });
        });
    }
    by_winners
}

/// The outcome code of a showdown ([`super::OUTCOMES`]): the bit mask of the players
/// holding the top strength; with three players and one alone on top, plus `1 << 3` when
/// the lower-seated of the other two beats the higher-seated, `2 << 3` when the reverse
/// (0: they tie), so that the code tells the whole order of the three hands.
#[inline]
pub(super) fn outcome<const N: usize>(strength: &[u16; N]) -> usize {
    let top = winners(strength);
    if N != 3 || top.count_ones() != 1 {
        return top;
    }
    let (x, y) = match top {
        1 => (1, 2),
        2 => (0, 2),
        _ => (0, 1),
    };
    top | match strength[x].cmp(&strength[y]) {
        std::cmp::Ordering::Greater => 1 << 3,
        std::cmp::Ordering::Less => 2 << 3,
        std::cmp::Ordering::Equal => 0,
    }
}

/// The set of players holding the top strength, as a bit mask.
#[inline]
fn winners(strength: &[u16]) -> usize {
    let top = strength.iter().copied().max().unwrap_or(0);
    strength
        .iter()
        .enumerate()
        .fold(0, |m, (p, &s)| m | usize::from(s == top) << p)
}

/// Every `k`-subset of the bits of `mask`.
fn for_each_subset(mask: u16, k: usize, mut f: impl FnMut(u16)) {
    fn go(mask: u16, k: usize, from: u32, chosen: u16, f: &mut impl FnMut(u16)) {
        if k == 0 {
            f(chosen);
            return;
        }
        for r in from..13 {
            if mask >> r & 1 == 1 {
                go(mask, k - 1, r + 1, chosen | 1 << r, f);
            }
        }
    }
    go(mask, k, 0, 0, &mut f);
}

/// Every sorted multiset of `k` ≤ 2 ranks with the number of ways to take it from
/// `left[r]` cards of each rank r (only those with at least one way).
fn for_each_multiset_upto(k: usize, left: &[u32; 13], mut f: impl FnMut(&[usize], u64)) {
    let choose = |n: u32, k: usize| u64::from(colex::binomial(n as usize, k));
    match k {
        0 => f(&[], 1),
        1 => {
            for (r, &n) in left.iter().enumerate() {
                if n > 0 {
                    f(&[r], u64::from(n));
                }
            }
        }
        _ => {
            debug_assert_eq!(k, 2);
            for a in 0..13 {
                if left[a] >= 2 {
                    f(&[a, a], choose(left[a], 2));
                }
                for b in a + 1..13 {
                    if left[a] > 0 && left[b] > 0 {
                        f(&[a, b], u64::from(left[a] * left[b]));
                    }
                }
            }
        }
    }
}

/// Every sorted multiset of five ranks with no rank five times.
fn each_rank_multiset(
    ranks: &mut [usize; 5],
    depth: usize,
    from: usize,
    f: &mut impl FnMut(&[usize; 5]),
) {
    if depth == 5 {
        if ranks[0] != ranks[4] {
            f(ranks);
        }
        return;
    }
    for r in from..13 {
        ranks[depth] = r;
        each_rank_multiset(ranks, depth + 1, r, f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::holdem::eval::tables;
    use rand::{RngExt, SeedableRng};

    /// Every board dealt one by one and every hand evaluated whole.
    fn every_board(t: &Tables, combination: &[u16], deck: &[Card]) -> Counts {
        let holes: Vec<[Card; 2]> = combination
            .iter()
            .map(|&index| {
                let mut two = [deck[0]; 2];
                colex::unrank(u32::from(index), 2, &mut two);
                two
            })
            .collect();
        let held: u64 = holes.iter().map(|h| mask(h)).fold(0, |a, b| a | b);
        let left: Vec<Card> = deck
            .iter()
            .copied()
            .filter(|c| held >> c.id() & 1 == 0)
            .collect();
        let mut by_winners = [0u64; 1 << MAX_PLAYERS];
        let mut board = [0usize; 5];
        fn each(
            n: usize,
            board: &mut [usize; 5],
            depth: usize,
            from: usize,
            f: &mut impl FnMut(&[usize; 5]),
        ) {
            if depth == 5 {
                f(board);
                return;
            }
            for i in from..n {
                board[depth] = i;
                each(n, board, depth + 1, i + 1, f);
            }
        }
        each(left.len(), &mut board, 0, 0, &mut |b| {
            let strength: Vec<u16> = holes
                .iter()
                .map(|h| {
                    t.evaluate(&[
                        h[0], h[1], left[b[0]], left[b[1]], left[b[2]], left[b[3]], left[b[4]],
                    ])
                })
                .collect();
            // With three players, the order of the two below a lone top hand too.
            let mut code = winners(&strength);
            if strength.len() == 3 && code.count_ones() == 1 {
                let below: Vec<u16> = (0..3)
                    .filter(|&p| code >> p & 1 == 0)
                    .map(|p| strength[p])
                    .collect();
                code |= match below[0].cmp(&below[1]) {
                    std::cmp::Ordering::Greater => 8,
                    std::cmp::Ordering::Less => 16,
                    std::cmp::Ordering::Equal => 0,
                };
            }
            by_winners[code] += 1;
        });
        Counts::from_winners(&by_winners, holes.len())
    }

    /// Every holding of the class of ranks `high ≥ low` (suited or not) that avoids `dead`.
    fn class_holdings(high: u8, low: u8, suited: bool, dead: u64) -> Holdings {
        let mut out = Holdings::new();
        for a in 0..4u8 {
            for b in 0..4u8 {
                let ok = if high == low {
                    a < b
                } else {
                    (a == b) == suited
                };
                let (x, y) = (Card::new(high, a).unwrap(), Card::new(low, b).unwrap());
                if ok && dead & mask(&[x, y]) == 0 {
                    let mut two = [x, y];
                    two.sort_by_key(|c| c.id());
                    out.push((two, 1.0));
                }
            }
        }
        out
    }

    /// `enumerate` computes each rank assignment's and each suit part's boards once and
    /// shares them between groups: the sums must equal counting every group whole.
    #[test]
    #[cfg_attr(debug_assertions, ignore = "slow in debug: run with --release")]
    fn sharing_parts_between_groups_equals_counting_each_group() {
        let t = tables();
        let mut rng = rand_pcg::Pcg64::seed_from_u64(9);
        for case in 0..16 {
            let players = 2 + case % 3;
            // Dead cards in every other case: then the suits are not all alike.
            let mut dead = 0u64;
            if case % 2 == 1 {
                while dead.count_ones() < 3 + (case as u32 % 4) {
                    dead |= 1 << rng.random_range(0..52u32);
                }
            }
            let holdings: Vec<Holdings> = (0..players)
                .map(|_| {
                    let mut h = Holdings::new();
                    // One or two classes a seat (one with four seats, to stay quick), at
                    // random weights.
                    let classes = if players < 4 {
                        1 + rng.random_range(0..2)
                    } else {
                        1
                    };
                    for _ in 0..classes {
                        let (x, y) = (rng.random_range(0..13u8), rng.random_range(0..13u8));
                        let suited = x != y && rng.random_range(0..2) == 0;
                        for (hole, _) in class_holdings(x.max(y), x.min(y), suited, dead) {
                            if !h.iter().any(|(o, _)| *o == hole) {
                                h.push((hole, f64::from(rng.random_range(1..4u8))));
                            }
                        }
                    }
                    h
                })
                .collect();
            let deck: Vec<Card> = (0..52u8)
                .filter(|&id| dead >> id & 1 == 0)
                .map(|id| Card::from_id(id).unwrap())
                .collect();
            let Some(groups) = groups(&holdings, dead, 1, u64::MAX) else {
                panic!("case {case}: no groups")
            };
            let shared = enumerate(t, &groups, players, &deck);
            let mut each = Sums::new(players);
            for g in &groups {
                each.add_counts(
                    &boards(t, &g.combination[..players], &deck),
                    g.weight,
                    g.members,
                );
            }
            assert_eq!(shared.showdowns, each.showdowns, "case {case}");
            assert_eq!(shared.weight, each.weight, "case {case}");
            assert_eq!(shared.equity, each.equity, "case {case}");
            assert_eq!(shared.win, each.win, "case {case}");
            assert_eq!(shared.tie, each.tie, "case {case}");
            assert_eq!(shared.outcomes, each.outcomes, "case {case}");
        }
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore = "brute force: run with --release")]
    fn counting_boards_by_ranks_equals_dealing_every_board() {
        let t = tables();
        let mut rng = rand_pcg::Pcg64::seed_from_u64(5);
        for case in 0..60 {
            let players = 2 + case % 5;
            // Twenty to thirty dead cards keep the brute force quick; every third case
            // deals suited holdings, so three suited board cards can make a flush.
            let mut ids: Vec<u8> = (0..52).collect();
            for i in 0..52 {
                let j = rng.random_range(i..52);
                ids.swap(i, j);
            }
            let mut holes: Vec<[u8; 2]> = ids[..2 * players]
                .chunks(2)
                .map(|h| [h[0].min(h[1]), h[0].max(h[1])])
                .collect();
            if case % 3 == 0 {
                // Make each holding suited where its suit's other card is still free.
                for h in &mut holes {
                    let partner = (h[0] % 4..52)
                        .step_by(4)
                        .find(|&x| x != h[0] && ids[2 * players..].contains(&x));
                    if let Some(x) = partner {
                        let pos = ids.iter().position(|&y| y == x).expect("free card");
                        let old = h[1];
                        ids[pos] = old;
                        *h = [h[0].min(x), h[0].max(x)];
                    }
                }
            }
            let held: Vec<u8> = holes.iter().flatten().copied().collect();
            let free: Vec<u8> = ids.iter().copied().filter(|x| !held.contains(x)).collect();
            let dead = 20 + case % 11;
            let deck: Vec<Card> = {
                let mut d: Vec<u8> = free[dead..].to_vec();
                d.extend(&held);
                d.sort_unstable();
                d.into_iter()
                    .map(|id| Card::from_id(id).expect("id < 52"))
                    .collect()
            };
            let combination: Vec<u16> = holes
                .iter()
                .map(|h| {
                    let cards = [Card::from_id(h[0]).unwrap(), Card::from_id(h[1]).unwrap()];
                    colex::index_of(&cards) as u16
                })
                .collect();
            assert_eq!(
                boards(t, &combination, &deck),
                every_board(t, &combination, &deck),
                "case {case}: holes {holes:?}"
            );
        }
    }
}
