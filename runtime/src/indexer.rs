//! A canonical index of Hold'em states up to suit permutation, street by street: hole
//! cards (169 states), hole cards and flop (1,286,792), hole cards and the four cards of
//! the turn board (13,960,050), hole cards and the five of the river board (123,156,254).
//! The board is a set at each street: a turn state does not say which board card came
//! last.
//!
//! Two states get the same index exactly when one is the other with suits renamed. The
//! algorithm is the one of K. Waugh, "A Fast and Optimal Hand Isomorphism Algorithm"
//! (2013), written anew here:
//!
//! - each suit of a state has a *shape*, the number of its cards dealt in each street so
//!   far, and a *suit index*, its ranks street by street (each street's ranks as a colex
//!   index among the ranks the suit has not used yet, in mixed radix);
//! - the suits sorted by shape give the state's *configuration*; suits of one shape are
//!   interchangeable, so they count as a multiset of suit indices (the colex index of a
//!   multiset of `g` values below `N`, of `C(N + g − 1, g)`);
//! - a state's index is its configuration's offset plus, in mixed radix over the groups
//!   of equal shape, each group's multiset index.
//!
//! [`HoldemIndexer::index`] and [`HoldemIndexer::unindex`] allocate nothing; each costs
//! a few hundred table reads and arithmetic steps (sorting four suits, one colex term per
//! card, a binary search over the street's configurations).

use crate::card::Card;

/// Streets: hole cards, flop, turn, river.
pub const STREETS: usize = 4;
/// Board cards at each street.
pub const BOARD_CARDS: [usize; STREETS] = [0, 3, 4, 5];
/// A state's two rounds: the hole cards, and the board as one set.
const ROUNDS: usize = 2;
/// States up to suit permutation after each street.
pub const STATES: [u64; STREETS] = [169, 1_286_792, 13_960_050, 123_156_254];

const SUITS: usize = 4;
const RANKS: u32 = 13;

/// Pascal's triangle up to 63, built at compile time.
static PASCAL: [[u64; 64]; 64] = {
    let mut t = [[0u64; 64]; 64];
    let mut n = 0;
    while n < 64 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + t[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    t
};

/// `C(n, k)`, exactly: from a table below 64, else (multiset indices, `k` ≤ 4 and `n`
/// below 2¹⁶) as a falling product over `k!`.
#[inline]
fn choose(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    if n < 64 {
        return PASCAL[n as usize][k as usize];
    }
    debug_assert!(
        k <= 4 && n < 1 << 16,
        "C({n}, {k}) is outside the indexer's range"
    );
    // Each partial product r · (n − i) is at most C(n, i) · n < 2⁶⁴ for these n and k.
    let mut r = 1u64;
    for i in 0..k {
        r = r * (n - i) / (i + 1);
    }
    r
}

/// A suit's shape: its hole cards and its board cards.
type Shape = [u8; ROUNDS];

/// A state as [`HoldemIndexer::unindex`] gives it: hole cards and board, each in
/// increasing card order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    pub hole: [Card; 2],
    board: [Card; 5],
    board_len: u8,
}

impl State {
    /// The board: 0, 3, 4 or 5 cards.
    pub fn board(&self) -> &[Card] {
        &self.board[..usize::from(self.board_len)]
    }
}

/// One configuration of a street: the suits' shapes, largest first, and the size of its
/// index range.
#[derive(Clone, Debug)]
struct Config {
    shapes: [Shape; SUITS],
    /// Per suit: how many suit indices its shape has.
    suit_sizes: [u64; SUITS],
    /// Runs of equal shapes: (first suit position, suits in the run).
    groups: Vec<(usize, usize)>,
    /// States in this configuration.
    size: u64,
}

/// The per-street configurations and their offsets.
#[derive(Clone, Debug)]
struct Street {
    configs: Vec<Config>,
    /// `offsets[i]`: the first index of configuration `i`; one more entry, the total.
    offsets: Vec<u64>,
}

/// The indexer of the four streets of Hold'em (tables built once, about a millisecond).
#[derive(Clone, Debug)]
pub struct HoldemIndexer {
    streets: Vec<Street>,
}

/// Why a state cannot be indexed.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum IndexError {
    #[error("a state has 2 hole cards and a board of 0, 3, 4 or 5 cards, not {hole} and {board}")]
    Size { hole: usize, board: usize },
    #[error("{0} appears more than once")]
    Duplicate(Card),
    #[error("street {0} is not one of 0 (preflop), 1 (flop), 2 (turn), 3 (river)")]
    Street(usize),
    #[error("street {street} has {states} states; {index} is not one of them")]
    Index {
        street: usize,
        index: u64,
        states: u64,
    },
}

/// Number of suit indices of a shape: `Π_j C(13 − used before j, c_j)`.
fn suit_size(shape: &Shape) -> u64 {
    let mut used = 0u64;
    let mut size = 1u64;
    for &c in shape {
        size *= choose(u64::from(RANKS) - used, u64::from(c));
        used += u64::from(c);
    }
    size
}

impl Config {
    fn new(mut shapes: [Shape; SUITS]) -> Config {
        shapes.sort_unstable_by(|a, b| b.cmp(a));
        let suit_sizes = shapes.map(|s| suit_size(&s));
        let mut groups = Vec::new();
        let mut i = 0;
        while i < SUITS {
            let j = (i..SUITS)
                .find(|&j| shapes[j] != shapes[i])
                .unwrap_or(SUITS);
            groups.push((i, j - i));
            i = j;
        }
        let size = groups
            .iter()
            .map(|&(start, g)| choose(suit_sizes[start] + g as u64 - 1, g as u64))
            .product();
        Config {
            shapes,
            suit_sizes,
            groups,
            size,
        }
    }
}

/// Every way to deal the two hole cards and the street's board over four suits, as
/// sorted shape lists, once each.
fn configurations(street: usize) -> Vec<Config> {
    let cards = [2, BOARD_CARDS[street]];
    let mut found: Vec<[Shape; SUITS]> = Vec::new();
    let mut shapes = [[0u8; ROUNDS]; SUITS];
    fn deal(
        cards: [usize; ROUNDS],
        round: usize,
        suit: usize,
        left: usize,
        shapes: &mut [Shape; SUITS],
        found: &mut Vec<[Shape; SUITS]>,
    ) {
        if suit == SUITS {
            if left != 0 {
                return;
            }
            if round + 1 == ROUNDS {
                let mut sorted = *shapes;
                sorted.sort_unstable_by(|a, b| b.cmp(a));
                if !found.contains(&sorted) {
                    found.push(sorted);
                }
            } else {
                deal(cards, round + 1, 0, cards[round + 1], shapes, found);
            }
            return;
        }
        for c in 0..=left {
            shapes[suit][round] = c as u8;
            deal(cards, round, suit + 1, left - c, shapes, found);
            shapes[suit][round] = 0;
        }
    }
    deal(cards, 0, 0, cards[0], &mut shapes, &mut found);
    found.sort_unstable();
    found.into_iter().map(Config::new).collect()
}

/// The `k`-subset of `0..n` with colex index `index`, as a bit mask.
fn uncolex(mut index: u64, k: u64, n: u32) -> u32 {
    let mut mask = 0;
    for i in (1..=k).rev() {
        // The largest p with C(p, i) <= index.
        let mut p = i - 1;
        while p + 1 < u64::from(n) && choose(p + 1, i) <= index {
            p += 1;
        }
        index -= choose(p, i);
        mask |= 1 << p;
    }
    mask
}

/// Positions among the ranks not in `used`, as ranks.
fn expand(positions: u32, used: u32) -> u32 {
    let mut out = 0;
    let mut j = 0;
    for r in 0..RANKS {
        if used & (1 << r) == 0 {
            if positions & (1 << j) != 0 {
                out |= 1 << r;
            }
            j += 1;
        }
    }
    out
}

/// A suit's index from its rank sets round by round.
#[inline]
fn suit_index(ranks: &[u32; ROUNDS]) -> u64 {
    let (mut index, mut radix, mut used) = (0u64, 1u64, 0u32);
    for &set in ranks {
        let n = RANKS - used.count_ones();
        // The colex index of `set` among the ranks not in `used`: each rank's position
        // there is the rank less the used ranks below it.
        let (mut colex, mut i, mut rest) = (0u64, 1usize, set);
        while rest != 0 {
            let p = rest.trailing_zeros();
            let position = p - (used & ((1 << p) - 1)).count_ones();
            colex += PASCAL[position as usize][i];
            i += 1;
            rest &= rest - 1;
        }
        index += radix * colex;
        radix *= PASCAL[n as usize][set.count_ones() as usize];
        used |= set;
    }
    index
}

/// The inverse of [`suit_index`] for a suit of shape `shape`.
fn suit_ranks(mut index: u64, shape: &Shape) -> [u32; ROUNDS] {
    let mut ranks = [0u32; ROUNDS];
    let mut used = 0u32;
    for s in 0..ROUNDS {
        let n = RANKS - used.count_ones();
        let size = choose(u64::from(n), u64::from(shape[s]));
        let here = index % size;
        index /= size;
        ranks[s] = expand(uncolex(here, u64::from(shape[s]), n), used);
        used |= ranks[s];
    }
    ranks
}

/// Colex index of a multiset of values, given sorted ascending.
fn multiset_index(sorted: &[u64]) -> u64 {
    sorted
        .iter()
        .enumerate()
        .map(|(i, &x)| choose(x + i as u64, i as u64 + 1))
        .sum()
}

/// The inverse of [`multiset_index`] for `g` values below `n`, ascending, into `out`.
fn multiset_unindex(mut index: u64, g: usize, n: u64, out: &mut [u64]) {
    for i in (0..g).rev() {
        let k = i as u64 + 1;
        // The largest y = x + i with C(y, k) <= index, by bisection (C(y, k) grows with y).
        let (mut lo, mut hi) = (i as u64, n + i as u64 - 1);
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            if choose(mid, k) <= index {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        let y = lo;
        index -= choose(y, k);
        out[i] = y - i as u64;
    }
}

impl Default for HoldemIndexer {
    fn default() -> Self {
        Self::new()
    }
}

impl HoldemIndexer {
    /// Builds the configuration tables of the four streets.
    pub fn new() -> HoldemIndexer {
        let streets = (0..STREETS)
            .map(|street| {
                let configs = configurations(street);
                let mut offsets = Vec::with_capacity(configs.len() + 1);
                let mut total = 0u64;
                for c in &configs {
                    offsets.push(total);
                    total += c.size;
                }
                offsets.push(total);
                Street { configs, offsets }
            })
            .collect();
        HoldemIndexer { streets }
    }

    /// States after street `street` (0 = hole cards … 3 = river).
    pub fn states(&self, street: usize) -> u64 {
        *self.streets[street]
            .offsets
            .last()
            .expect("an offset per configuration and the total")
    }

    /// The street a state of `hole` and `board` is at (0 preflop … 3 river).
    fn street_of(hole: usize, board: usize) -> Result<usize, IndexError> {
        match (hole, board) {
            (2, 0) => Ok(0),
            (2, 3) => Ok(1),
            (2, 4) => Ok(2),
            (2, 5) => Ok(3),
            _ => Err(IndexError::Size { hole, board }),
        }
    }

    /// The canonical index of a state: two hole cards and a board of 0, 3, 4 or 5 cards
    /// (flop, then turn, then river), within its street's `0..STATES[street]`.
    pub fn index(&self, hole: &[Card], board: &[Card]) -> Result<u64, IndexError> {
        let street = Self::street_of(hole.len(), board.len())?;
        // Per suit, the ranks of its hole cards and of its board cards.
        let mut ranks = [[0u32; ROUNDS]; SUITS];
        let mut seen = 0u64;
        for (i, &card) in hole.iter().chain(board).enumerate() {
            let bit = 1u64 << card.id();
            if seen & bit != 0 {
                return Err(IndexError::Duplicate(card));
            }
            seen |= bit;
            ranks[usize::from(card.suit())][usize::from(i >= 2)] |= 1 << card.rank();
        }
        // Each suit's shape and index, sorted by shape (largest first), then index.
        let mut suits = [(Shape::default(), 0u64); SUITS];
        for (slot, r) in suits.iter_mut().zip(&ranks) {
            let shape = [r[0].count_ones() as u8, r[1].count_ones() as u8];
            *slot = (shape, suit_index(r));
        }
        suits.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let shapes = suits.map(|s| s.0);
        let st = &self.streets[street];
        let c = st
            .configs
            .binary_search_by(|c| c.shapes.cmp(&shapes))
            .expect("every dealt state has a configuration");
        let config = &st.configs[c];
        let mut within = 0u64;
        for &(start, g) in config.groups.iter().rev() {
            let n = config.suit_sizes[start];
            let size = choose(n + g as u64 - 1, g as u64);
            let mut values = [0u64; SUITS];
            for (v, s) in values.iter_mut().zip(&suits[start..start + g]) {
                *v = s.1;
            }
            within = within * size + multiset_index(&values[..g]);
        }
        Ok(st.offsets[c] + within)
    }

    /// A canonical state of index `index` after street `street`: the hole cards and the
    /// board, each in increasing card order, with the suits renamed so that the suit of
    /// the largest shape is ♠, then ♥, ♣, ♦. `index` of the result gives `index` back.
    pub fn unindex(&self, street: usize, index: u64) -> Result<State, IndexError> {
        let st = self.streets.get(street).ok_or(IndexError::Street(street))?;
        let states = self.states(street);
        if index >= states {
            return Err(IndexError::Index {
                street,
                index,
                states,
            });
        }
        let c = st.offsets.partition_point(|&o| o <= index) - 1;
        let config = &st.configs[c];
        let mut within = index - st.offsets[c];
        let mut suit_indices = [0u64; SUITS];
        for &(start, g) in &config.groups {
            let n = config.suit_sizes[start];
            let size = choose(n + g as u64 - 1, g as u64);
            let here = within % size;
            within /= size;
            multiset_unindex(here, g, n, &mut suit_indices[start..start + g]);
        }
        // Cards as bit masks by id: each round's cards then come out in increasing order.
        let mut masks = [0u64; ROUNDS];
        for (position, (&index, shape)) in suit_indices.iter().zip(&config.shapes).enumerate() {
            let suit = (SUITS - 1 - position) as u64;
            let ranks = suit_ranks(index, shape);
            for (mask, &set) in masks.iter_mut().zip(&ranks) {
                for r in 0..u64::from(RANKS) {
                    if set & (1 << r) != 0 {
                        *mask |= 1 << (4 * r + suit);
                    }
                }
            }
        }
        let mut state = State {
            hole: [Card::from_id(0).expect("card 0"); 2],
            board: [Card::from_id(0).expect("card 0"); 5],
            board_len: BOARD_CARDS[street] as u8,
        };
        let take = |mut mask: u64, out: &mut [Card]| {
            for slot in out {
                *slot = Card::from_id(mask.trailing_zeros() as u8).expect("an id below 52");
                mask &= mask - 1;
            }
        };
        take(masks[0], &mut state.hole);
        take(masks[1], &mut state.board[..BOARD_CARDS[street]]);
        Ok(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::colex;

    #[test]
    fn the_streets_have_the_published_numbers_of_states() {
        let ix = HoldemIndexer::new();
        for (street, &n) in STATES.iter().enumerate() {
            assert_eq!(ix.states(street), n, "street {street}");
        }
    }

    /// A small deterministic generator for sampled states (xorshift64*).
    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) % n
        }
        /// `k` distinct cards.
        fn cards(&mut self, k: usize) -> Vec<Card> {
            let mut out: Vec<Card> = Vec::new();
            while out.len() < k {
                let c = Card::from_id(self.below(52) as u8).unwrap();
                if !out.contains(&c) {
                    out.push(c);
                }
            }
            out
        }
    }

    /// The state with suits renamed by `p` (suit s becomes p[s]).
    fn rename(cards: &[Card], p: [u8; 4]) -> Vec<Card> {
        cards
            .iter()
            .map(|c| Card::new(c.rank(), p[usize::from(c.suit())]).unwrap())
            .collect()
    }

    fn permutations() -> Vec<[u8; 4]> {
        let mut out = Vec::new();
        for a in 0..4u8 {
            for b in 0..4u8 {
                for c in 0..4u8 {
                    let Some(d) = 6u8.checked_sub(a + b + c) else {
                        continue;
                    };
                    if a != b && a != c && b != c && d < 4 && d != a && d != b && d != c {
                        out.push([a, b, c, d]);
                    }
                }
            }
        }
        out
    }

    /// Every hole pair on sampled turn and river boards: its index's canonical state has
    /// the same index, every renaming of suits gives the same index, and the board's
    /// order does not matter.
    #[test]
    fn sampled_turn_and_river_boards_round_trip_for_every_hole_pair() {
        let ix = HoldemIndexer::new();
        let perms = permutations();
        assert_eq!(perms.len(), 24);
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut two = [Card::from_id(0).unwrap(); 2];
        for (street, boards) in [(2usize, 12), (3, 12)] {
            for _ in 0..boards {
                let board = rng.cards(BOARD_CARDS[street]);
                for h in 0..1326 {
                    colex::unrank(h, 2, &mut two);
                    if board.contains(&two[0]) || board.contains(&two[1]) {
                        continue;
                    }
                    let i = ix.index(&two, &board).unwrap();
                    assert!(i < STATES[street]);
                    let state = ix.unindex(street, i).unwrap();
                    assert_eq!(ix.index(&state.hole, state.board()).unwrap(), i);
                    if h % 97 == 0 {
                        for &p in &perms {
                            let (hole, b) = (rename(&two, p), rename(&board, p));
                            assert_eq!(ix.index(&hole, &b).unwrap(), i);
                        }
                        let mut reversed = board.clone();
                        reversed.reverse();
                        assert_eq!(ix.index(&[two[1], two[0]], &reversed).unwrap(), i);
                    }
                }
            }
        }
    }

    /// Sampled indices of the turn and the river: unindex then index is the identity.
    #[test]
    fn sampled_turn_and_river_indices_round_trip() {
        let ix = HoldemIndexer::new();
        for street in 2..4 {
            let n = ix.states(street);
            for i in (0..n).step_by(9_973).chain([n - 1]) {
                let state = ix.unindex(street, i).unwrap();
                assert_eq!(ix.index(&state.hole, state.board()).unwrap(), i);
            }
        }
    }

    #[test]
    fn bad_states_and_indices_are_errors() {
        let ix = HoldemIndexer::new();
        let c = |t: &str| crate::parse_cards(t).unwrap();
        assert_eq!(
            ix.index(&c("As Ks"), &c("2c 3c")),
            Err(IndexError::Size { hole: 2, board: 2 })
        );
        assert_eq!(
            ix.index(&c("As"), &[]),
            Err(IndexError::Size { hole: 1, board: 0 })
        );
        assert!(matches!(
            ix.index(&c("As Ks"), &c("As 3c 4c")),
            Err(IndexError::Duplicate(_))
        ));
        assert!(matches!(ix.unindex(0, 169), Err(IndexError::Index { .. })));
        assert_eq!(ix.unindex(4, 0), Err(IndexError::Street(4)));
        // Two suited aces-kings are one state; suited and offsuit are two.
        let s = ix.index(&c("As Ks"), &[]).unwrap();
        assert_eq!(ix.index(&c("Ah Kh"), &[]).unwrap(), s);
        assert_ne!(ix.index(&c("Ah Ks"), &[]).unwrap(), s);
    }

    #[test]
    fn every_preflop_and_flop_state_round_trips() {
        let ix = HoldemIndexer::new();
        let mut seen = [false; 169];
        let mut two = [Card::from_id(0).unwrap(); 2];
        for h in 0..1326 {
            colex::unrank(h, 2, &mut two);
            let i = ix.index(&two, &[]).unwrap() as usize;
            seen[i] = true;
        }
        assert!(seen.iter().all(|&s| s));
        for street in 0..2 {
            for i in 0..ix.states(street) {
                let state = ix.unindex(street, i).unwrap();
                assert_eq!(
                    ix.index(&state.hole, state.board()).unwrap(),
                    i,
                    "street {street}"
                );
            }
        }
    }
}
