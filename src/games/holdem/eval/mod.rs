//! The Texas Hold'em 7-card evaluator: the strength of the best five of seven cards as
//! one integer in `0..7462` (larger wins, equal ties), from two table reads.
//!
//! Design. Without five cards of one suit, a hand's strength depends only on its rank
//! multiset. Seven ranks sorted `r1 ≤ … ≤ r7` have a dense colex index
//! `Σ C(r_i + i − 1, i)` over the C(19, 7) = 50,388 multisets, which indexes the strength
//! table. Two ways reach that index:
//! - in card order ([`Partial`], [`for_each_hand`]): the terms are per sorted position, so
//!   enumeration adds one term per card dealt;
//! - in any order ([`Tables::evaluate`]): each card adds a fixed 64-bit key holding a base-5
//!   digit for its rank (ranks 2–8 in one field, 9–A in another) and a 4-bit count for its
//!   suit. The low ranks fill the first sorted positions and the high ranks the last ones
//!   (their number is 7 minus the low ranks' number), so the colex index is the sum of one
//!   table read per field: no sorting, no branches.
//!
//! With five or more suited cards the hand is a flush or straight flush (a full house or
//! four of a kind then needs more than the two other cards), and its strength is read from
//! a table over that suit's 13-bit rank mask. The build script computes the tables
//! (`gen`: one key per 5-card class, then each 6-card class as the best of its 5-card ones
//! and each 7-card class as the best of its 6-card ones) and writes them into the binary,
//! so a run starts with them in place; the tests build them again from the 5-card
//! evaluator of [`crate::games::stud::eval`] and compare every word.
//!
//! Many hands at once ([`Tables::evaluate_many`], in `batch`) take the any-order path
//! sixteen hands to a vector where the CPU has AVX-512 and four where it has AVX2
//! ([`BatchPath`], which `PIPELINE_EVAL_BATCH` can force).

mod batch;
pub use batch::BatchPath;
mod gen;

use std::sync::OnceLock;

use cardtables::Card;

pub use gen::STRENGTHS;
use gen::{
    BY_FLUSH_AT, BY_RANKS_AT, HIGH_BITS, HIGH_TERMS_AT, INDEX_SPAN, LOW_BITS, LOW_RANKS,
    LOW_TERMS_AT, WORDS,
};

/// Categories, weakest first, with the first strength of each.
pub const CATEGORIES: [(&str, u16); 9] = [
    ("high_card", 0),
    ("pair", 1277),
    ("two_pair", 4137),
    ("trips", 4995),
    ("straight", 5853),
    ("flush", 5863),
    ("full_house", 7140),
    ("quads", 7296),
    ("straight_flush", 7452),
];

/// Category index (0 = high card … 8 = straight flush) of a strength.
pub fn category(strength: u16) -> usize {
    CATEGORIES
        .iter()
        .rposition(|&(_, first)| strength >= first)
        .expect("strength ≥ 0")
}

/// The evaluator's tables.
pub struct Tables {
    /// The 16-bit tables end to end, so that every read of a hand is at a fixed offset
    /// from one base address (see `gen`'s offsets): one fewer pointer to hold or reload
    /// per table in the evaluation loop.
    words: &'static [u16; WORDS],
    /// `term[i][r]`: the colex term of rank r at sorted position i.
    term: [[u32; 13]; 7],
    /// Per card id: its rank's base-5 digit in the low-rank or high-rank field and its
    /// suit's count increment (see [`card_key`]).
    /// Padded to 256 entries so a card's byte indexes it with no bounds check or mask.
    card_key: [u64; 256],
}

/// Where the four 4-bit suit counts start.
const SUIT_SHIFT: u32 = 32;

/// A card's additive key: `5^r` in the low field for ranks 2–8, `5^(r−7)` in the high field
/// for ranks 9–A, and one in its suit's count. Seven keys add without carries between
/// fields (a base-5 digit is at most 4 and a suit count at most 7).
fn card_key(card: Card) -> u64 {
    let rank = usize::from(card.rank());
    let rank_field = if rank < LOW_RANKS {
        5u64.pow(rank as u32)
    } else {
        5u64.pow((rank - LOW_RANKS) as u32) << LOW_BITS
    };
    rank_field | 1u64 << (SUIT_SHIFT + 4 * u32::from(card.suit()))
}

/// The build script's words as bytes, aligned for the 16-bit reads and the batch path's
/// 32-bit gathers. The array type fixes their length: a build whose file differs in size
/// does not compile.
#[repr(C, align(64))]
struct Aligned<T>(T);
static WORD_BYTES: Aligned<[u8; 2 * WORDS]> = Aligned(*include_bytes!(concat!(
    env!("OUT_DIR"),
    "/holdem_eval_words.bin"
)));

/// The evaluator's words, in place in the binary.
fn words() -> &'static [u16; WORDS] {
    // SAFETY: WORD_BYTES is 2 × WORDS bytes, aligned to 64 (so to u16), immutable for the
    // program's life, and every bit pattern is a valid u16; the build script wrote each
    // word in the target's byte order.
    unsafe { &*WORD_BYTES.0.as_ptr().cast::<[u16; WORDS]>() }
}

/// The tables, set up on first use (the words are in the binary; the rest is a few
/// hundred small products).
pub fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| Tables {
        words: words(),
        term: gen::terms(),
        card_key: std::array::from_fn(|id| Card::from_id(id as u8).map_or(0, card_key)),
    })
}

impl Tables {
    /// Strength of seven cards with no five of a suit, from their ranks (any order). Ranks
    /// that no hand has (one rank five times) give a meaningless value, never a panic.
    #[inline]
    pub fn non_flush(&self, ranks: [u8; 7]) -> u16 {
        let mut key = 0u64;
        for r in ranks {
            // The spade of each rank: only the rank fields are read.
            key += self.card_key[usize::from(r) * 4 + 3];
        }
        self.non_flush_key(key)
    }

    /// A card's additive key: sum the keys of seven cards and read the hand's strength
    /// with [`Tables::flush_suit`] and [`Tables::non_flush_key`]. Sums of a shared
    /// board's keys can be reused across hands.
    #[inline]
    pub fn key(&self, card: Card) -> u64 {
        self.card_key[usize::from(card.id())]
    }

    /// The suit holding five or more of the seven cards whose keys sum to `key`, if any.
    #[inline]
    pub fn flush_suit(key: u64) -> Option<u8> {
        let flush = ((key >> SUIT_SHIFT) as u32 + FLUSH_PROBE) & FLUSH_BITS;
        (flush != 0).then(|| (flush.trailing_zeros() / 4) as u8)
    }

    /// Strength of seven cards without a flush from the sum of their keys.
    #[inline]
    pub fn non_flush_key(&self, key: u64) -> u16 {
        self.by_ranks(self.rank_index(key))
    }

    /// Strength by rank-multiset index; indexes past the last multiset give a
    /// meaningless value, never a panic.
    #[inline]
    fn by_ranks(&self, index: usize) -> u16 {
        self.words[BY_RANKS_AT + (index & (INDEX_SPAN - 1))]
    }

    /// Colex index of the rank multiset in a sum of seven card keys.
    /// [`Tables::rank_index`] of a key's low and high rank fields, taken apart.
    #[inline]
    fn rank_index_of(&self, low: u32, high: u32) -> usize {
        let low = low as usize & ((1 << LOW_BITS) - 1);
        let high = high as usize & ((1 << HIGH_BITS) - 1);
        usize::from(self.words[LOW_TERMS_AT + low]) + usize::from(self.words[HIGH_TERMS_AT + high])
    }

    #[inline]
    fn rank_index(&self, key: u64) -> usize {
        // The rank fields lie below the suit counts (bit 32 on).
        self.rank_index_of(key as u32, (key >> LOW_BITS) as u32)
    }

    /// Strength of a flush or straight flush from the flush suit's rank mask (≥ 5 ranks).
    #[inline]
    pub fn flush(&self, mask: u16) -> u16 {
        self.words[BY_FLUSH_AT + (usize::from(mask) & 0x1fff)]
    }

    /// The rank mask of the cards of `suit`. Built with no branch per card: which cards
    /// hold the suit is as unpredictable as the deal, and a mispredicted branch costs more
    /// than the whole mask.
    #[inline]
    pub fn suit_mask(cards: impl IntoIterator<Item = Card>, suit: u8) -> u16 {
        let mut mask = 0u16;
        for c in cards {
            mask |= u16::from(c.suit() == suit) << c.rank();
        }
        mask
    }

    /// Strength of seven distinct cards in any order.
    #[inline]
    pub fn evaluate(&self, cards: &[Card; 7]) -> u16 {
        let mut key = 0u64;
        for c in cards {
            key += self.card_key[usize::from(c.id())];
        }
        // Read the rank strength before testing for a flush, so the loads start at once.
        let strength = self.non_flush_key(key);
        let flush = ((key >> SUIT_SHIFT) as u32 + FLUSH_PROBE) & FLUSH_BITS;
        if flush != 0 {
            let suit = (flush.trailing_zeros() / 4) as u8;
            return self.flush(Self::suit_mask(cards.iter().copied(), suit));
        }
        strength
    }
}

/// Strength of seven distinct cards in any order.
pub fn evaluate(cards: &[Card; 7]) -> u16 {
    tables().evaluate(cards)
}

/// Per-suit card counts, one 4-bit field per suit: adding 3 to every field sets a field's
/// top bit exactly when that suit holds five or more cards (at most 7, so no carry).
const FLUSH_PROBE: u32 = 0x3333;
const FLUSH_BITS: u32 = 0x8888;
/// Adding 4 to every 4-bit suit count sets a field's top bit when that suit holds four or
/// more cards (at most 6 of the first six cards, so no carry).
const FOUR_PROBE: u32 = 0x4444;

/// A hand being built one card at a time in increasing card order (as enumeration deals
/// them): each step adds one colex term, one suit count and one suit bit, so a full
/// 7-card evaluation at the innermost loop is two adds, one mask test and one table read.
#[derive(Clone, Copy, Debug, Default)]
pub struct Partial {
    index: u32,
    counts: u32,
    suits: [u16; 4],
    len: u8,
}

impl Partial {
    /// This hand plus `card`, whose id must exceed every card already in the hand.
    #[inline]
    pub fn with(self, card: Card, t: &Tables) -> Partial {
        let (rank, suit) = (usize::from(card.rank()), usize::from(card.suit()));
        let mut next = self;
        next.index += t.term[usize::from(self.len) % 7][rank];
        next.counts += 1 << (4 * suit);
        next.suits[suit] |= 1 << rank;
        next.len += 1;
        next
    }

    /// Strength of a complete 7-card hand.
    #[inline]
    pub fn strength(&self, t: &Tables) -> u16 {
        let flush = (self.counts + FLUSH_PROBE) & FLUSH_BITS;
        if flush != 0 {
            let suit = flush.trailing_zeros() as usize / 4;
            return t.flush(self.suits[suit]);
        }
        t.by_ranks(self.index as usize)
    }
}

/// Visits every 7-card hand in increasing card order with its strength (133,784,560 hands).
///
/// The six outer cards build a [`Partial`]; the innermost loop reads the seventh card's
/// colex term and suit increment from per-card arrays, so each hand costs two adds, one
/// mask test and one table read.
pub fn for_each_hand(mut f: impl FnMut(u16)) {
    let t = tables();
    let card = |id: u8| Card::from_id(id).expect("id < 52");
    // Seventh-card data by card id: colex term at position 6, suit-count increment, suit,
    // rank bit.
    let term7: [u32; 52] = std::array::from_fn(|id| t.term[6][id / 4]);
    let count7: [u32; 52] = std::array::from_fn(|id| 1 << (4 * (id % 4)));
    for a in 0..46u8 {
        let pa = Partial::default().with(card(a), t);
        for b in a + 1..47 {
            let pb = pa.with(card(b), t);
            for c in b + 1..48 {
                let pc = pb.with(card(c), t);
                for d in c + 1..49 {
                    let pd = pc.with(card(d), t);
                    for e in d + 1..50 {
                        let pe = pd.with(card(e), t);
                        for g in e + 1..51 {
                            let pg = pe.with(card(g), t);
                            if (pg.counts + FOUR_PROBE) & FLUSH_BITS == 0 {
                                // No suit holds four of these six cards, so no seventh
                                // card makes a flush: the strength depends on its rank
                                // alone, read once per rank for all its remaining suits.
                                let next = usize::from(g) + 1;
                                let rank_g = usize::from(g) / 4;
                                let strength = t.by_ranks((pg.index + t.term[6][rank_g]) as usize);
                                for _ in next..4 * (rank_g + 1) {
                                    f(strength);
                                }
                                for rank in rank_g + 1..13 {
                                    let strength =
                                        t.by_ranks((pg.index + t.term[6][rank]) as usize);
                                    f(strength);
                                    f(strength);
                                    f(strength);
                                    f(strength);
                                }
                                continue;
                            }
                            for h in usize::from(g) + 1..52 {
                                let counts = pg.counts + count7[h];
                                let flush = (counts + FLUSH_PROBE) & FLUSH_BITS;
                                let strength = if flush == 0 {
                                    t.by_ranks((pg.index + term7[h]) as usize)
                                } else {
                                    let suit = flush.trailing_zeros() as usize / 4;
                                    let mut mask = pg.suits[suit];
                                    if h % 4 == suit {
                                        mask |= 1 << (h / 4);
                                    }
                                    t.flush(mask)
                                };
                                f(strength);
                            }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::stud::eval::Evaluator as FiveCards;
    use crate::games::stud::rules::StudRules;
    use cardtables::parse_cards;
    use rand::{RngExt, SeedableRng};
    use rand_pcg::Pcg64;

    fn seven(t: &str) -> [Card; 7] {
        parse_cards(t).unwrap().try_into().unwrap()
    }

    /// The plain rule, written independently of the tables: for each 5-card subset, its
    /// category and deciding ranks (ace low only in the wheel); the best subset wins.
    fn slow(cards: &[Card; 7]) -> (u8, Vec<u8>) {
        let mut best = (0u8, vec![]);
        for skip_a in 0..7 {
            for skip_b in skip_a + 1..7 {
                let hand: Vec<Card> = (0..7)
                    .filter(|&i| i != skip_a && i != skip_b)
                    .map(|i| cards[i])
                    .collect();
                let mut ranks: Vec<u8> = hand.iter().map(|c| c.rank() + 2).collect();
                ranks.sort_unstable_by(|a, b| b.cmp(a));
                let flush = hand.iter().all(|c| c.suit() == hand[0].suit());
                let distinct = ranks.windows(2).all(|w| w[0] != w[1]);
                let straight = if distinct && ranks[0] - ranks[4] == 4 {
                    Some(ranks[0])
                } else if ranks == vec![14, 5, 4, 3, 2] {
                    Some(5)
                } else {
                    None
                };
                let mut groups: Vec<(u8, u8)> = Vec::new();
                for &r in &ranks {
                    match groups.iter_mut().find(|g| g.1 == r) {
                        Some(g) => g.0 += 1,
                        None => groups.push((1, r)),
                    }
                }
                groups.sort_by(|a, b| b.cmp(a));
                let shape: Vec<u8> = groups.iter().map(|g| g.0).collect();
                let order: Vec<u8> = groups.iter().map(|g| g.1).collect();
                let value = match (straight, flush, shape.as_slice()) {
                    (Some(top), true, _) => (8, vec![top]),
                    (_, _, [4, 1]) => (7, order),
                    (_, _, [3, 2]) => (6, order),
                    (_, true, _) => (5, order),
                    (Some(top), false, _) => (4, vec![top]),
                    (_, _, [3, 1, 1]) => (3, order),
                    (_, _, [2, 2, 1]) => (2, order),
                    (_, _, [2, 1, 1, 1]) => (1, order),
                    _ => (0, order),
                };
                best = best.max(value);
            }
        }
        best
    }

    /// The words the build script embeds, built again with the 5-card evaluator of the
    /// stud module as the ranking of 5-card hands: two independent rankings, one table.
    #[test]
    fn the_embedded_tables_follow_the_five_card_evaluator() {
        let five = FiveCards::new(StudRules::default());
        let rebuilt = gen::words(|ranks, flush| {
            let hand: [Card; 5] = std::array::from_fn(|i| {
                let suit = if flush { 0 } else { (i % 4) as u8 };
                Card::new(ranks[i], suit).unwrap()
            });
            five.evaluate(&hand).1
        });
        assert_eq!(rebuilt.len(), WORDS);
        let embedded = tables().words;
        let differ = (0..WORDS).filter(|&i| rebuilt[i] != embedded[i]).count();
        assert_eq!(differ, 0, "words differing from the embedded tables");
        // And the ranking keys themselves agree on every 5-card class's order.
        assert_eq!(gen::words(gen::five_card_key), rebuilt);
    }

    #[test]
    fn known_hands() {
        let s = |t: &str| evaluate(&seven(t));
        assert_eq!(s("As Ks Qs Js Ts 2d 3c"), 7461);
        assert_eq!(category(s("5h 4h 3h 2h Ah Kd Kc")), 8);
        assert!(s("5h 4h 3h 2h Ah Kd Kc") < s("6h 5h 4h 3h 2h Kd Kc"));
        assert_eq!(category(s("9c 9d 9h 9s 2c 3d 4h")), 7);
        assert_eq!(category(s("Ah Kh Qh Jh 9h 9d 9c")), 5, "a flush with trips");
        assert_eq!(s("2c 3d 4h 5s 7c 8d 9h"), s("2d 3c 4s 5h 7d 8c 9s"));
        // The weakest 7-card hand is 9-8-7-5-4 high: 48 five-card high cards lie below it.
        assert_eq!(category(s("2c 3d 4h 5s 7c 8d 9h")), 0);
        assert!(s("2c 3d 4h 5s 7c 8d 9h") < s("2c 3d 4h 6s 7c 8d 9h"));
    }

    #[test]
    fn the_card_key_index_is_the_colex_index_of_every_rank_multiset() {
        let t = tables();
        let mut ranks = [0u8; 7];
        let mut possible = 0;
        gen::for_each_multiset(&mut ranks, 0, 0, &mut |sorted| {
            if (0..13).any(|r| sorted.iter().filter(|&&x| x == r).count() > 4) {
                return;
            }
            possible += 1;
            let colex: u32 = (0..7).map(|i| t.term[i][usize::from(sorted[i])]).sum();
            // Any order of the same ranks gives the same index.
            let mut shuffled = *sorted;
            shuffled.rotate_left(usize::from(sorted[3]) % 7);
            shuffled.swap(0, 6);
            let key: u64 = shuffled
                .iter()
                .map(|&r| t.card_key[usize::from(r) * 4 + usize::from(r % 4)])
                .sum();
            assert_eq!(t.rank_index(key), colex as usize, "{sorted:?}");
        });
        assert_eq!(possible, 49_205);
    }

    #[test]
    #[cfg_attr(
        debug_assertions,
        ignore = "random hands by the million: run with --release"
    )]
    fn agrees_with_the_plain_rule_on_random_hands() {
        let mut rng = Pcg64::seed_from_u64(7);
        let mut deck: Vec<Card> = (0..52).map(|i| Card::from_id(i).unwrap()).collect();
        let mut hands = Vec::with_capacity(200_000);
        for _ in 0..200_000 {
            for i in 0..7 {
                let j = rng.random_range(i..52);
                deck.swap(i, j);
            }
            let hand: [Card; 7] = deck[..7].try_into().unwrap();
            hands.push((evaluate(&hand), slow(&hand), hand));
        }
        // Same order: sorting by the fast strength leaves the plain values non-decreasing,
        // and equal strengths have equal plain values.
        hands.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
        for w in hands.windows(2) {
            assert!(w[0].1 <= w[1].1, "{:?} vs {:?}", w[0].2, w[1].2);
            if w[0].0 == w[1].0 {
                assert_eq!(w[0].1, w[1].1, "{:?} vs {:?}", w[0].2, w[1].2);
            } else {
                assert!(w[0].1 < w[1].1, "{:?} vs {:?}", w[0].2, w[1].2);
            }
        }
        // Categories agree too.
        for (s, (cat, _), _) in &hands {
            assert_eq!(category(*s), usize::from(*cat));
        }
    }

    #[test]
    #[cfg_attr(
        debug_assertions,
        ignore = "enumerates 133,784,560 hands: run with --release"
    )]
    fn every_seven_card_hand_gives_the_textbook_counts() {
        let mut counts = [0u64; 9];
        let mut seen = vec![false; STRENGTHS];
        for_each_hand(|s| {
            counts[category(s)] += 1;
            seen[usize::from(s)] = true;
        });
        assert_eq!(
            counts,
            [
                23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020, 4_047_644, 3_473_184,
                224_848, 41_584
            ]
        );
        assert_eq!(counts.iter().sum::<u64>(), 133_784_560);
        assert_eq!(seen.iter().filter(|&&s| s).count(), 4_824);
        // The incremental path and the any-order path agree.
        let mut rng = Pcg64::seed_from_u64(3);
        let t = tables();
        for _ in 0..10_000 {
            let mut ids: Vec<u8> = (0..52).collect();
            for i in 0..7 {
                let j = rng.random_range(i..52);
                ids.swap(i, j);
            }
            let mut hand: Vec<Card> = ids[..7]
                .iter()
                .map(|&i| Card::from_id(i).unwrap())
                .collect();
            hand.sort();
            let p = hand.iter().fold(Partial::default(), |p, &c| p.with(c, t));
            assert_eq!(p.strength(t), evaluate(&hand.clone().try_into().unwrap()));
        }
    }
}
