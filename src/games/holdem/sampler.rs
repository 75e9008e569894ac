//! The Monte Carlo sampler of a starting hand against 3 to 9 random opponents. A deal
//! seats up to nine opponents and its first n of them are a trial against n
//! ([`sample_counts`]), so one deal serves every opponent count; sampling goes on until
//! every count's standard error meets the target.
//!
//! A trial deals the board and the opponents' hands from the 50 unseen cards (partial
//! Fisher–Yates, two cards from each 64-bit draw) and scores each hand from additive card
//! keys ([`Tables::key`]): the board's keys are summed once per trial and each hand adds
//! its own two. The first three opponents are dealt with the board and scored with no
//! branch on who wins; any further opponent is dealt only while the hero is unbeaten.
//!
//! Which 64-bit draw deals which card changed once, to this order of dealing (see
//! `CHANGELOG.md`): the same seed now gives different, equally valid estimates.

use cardtables::Card;
use rand::RngExt;
use rand_pcg::Pcg64;
use serde::{Deserialize, Serialize};

use super::classes::class_ranks;
use super::eval::{tables, Tables};
use crate::cards::fill_unseen;

/// Most opponents covered.
pub const MAX_OPPONENTS: usize = 9;
/// Pot shares are counted in units of 1/2520 (2520 is divisible by 1..=10), so every
/// split pot is a whole number and sums stay exact integers.
const SHARE: u64 = 2520;
/// Trials between standard-error checks.
const BATCH: u64 = 1 << 16;

/// What sampling one cell gathered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sample {
    pub trials: u64,
    /// Trials won outright, and trials split with one or more opponents.
    pub wins: u64,
    pub ties: u64,
    /// Sum of the hero's pot share (units of 1/2520) and of its square.
    pub share: u64,
    pub share_squared: u128,
}

impl Sample {
    pub fn equity(&self) -> f64 {
        self.share as f64 / SHARE as f64 / self.trials as f64
    }

    pub fn std_error(&self) -> f64 {
        let n = self.trials as f64;
        let mean = self.share as f64 / SHARE as f64 / n;
        let second = self.share_squared as f64 / (SHARE * SHARE) as f64 / n;
        ((second - mean * mean).max(0.0) / n).sqrt()
    }

    /// Counts `n` trials in which the hero's pot share was `share`.
    fn add(&mut self, share: u64, n: u64) {
        self.trials += n;
        if share == SHARE {
            self.wins += n;
        } else if share > 0 {
            self.ties += n;
        }
        self.share += share * n;
        self.share_squared += u128::from(share * share) * u128::from(n);
    }

    /// Counts the trials of a tally (see [`Tally`]).
    fn add_tally(&mut self, tally: &Tally) {
        for (outcome, &n) in tally.iter().enumerate() {
            let (beaten, tied) = (outcome / (MAX_OPPONENTS + 1), outcome % (MAX_OPPONENTS + 1));
            self.add(SHARES[beaten][tied], n);
        }
    }
}

/// Samples `hero` against `opponents` random hands until the standard error is at most
/// `target` (after at least `min` trials) or `max` trials are drawn.
pub fn sample(
    hero: [Card; 2],
    opponents: usize,
    target: f64,
    min: u64,
    max: u64,
    rng: &mut Pcg64,
) -> Sample {
    sample_counts(hero, opponents..=opponents, target, min, max, rng)[0]
}

/// Samples `hero` against every number of random opponents in `counts` at once: each deal
/// seats the most opponents, and its first `n` of them are a deal against `n`. Sampling
/// stops when every count's standard error is at most `target` (after at least `min`
/// trials) or `max` trials are drawn; the counts' estimates are correlated with each
/// other, each one on its own is an ordinary Monte Carlo estimate.
pub fn sample_counts(
    hero: [Card; 2],
    counts: std::ops::RangeInclusive<usize>,
    target: f64,
    min: u64,
    max: u64,
    rng: &mut Pcg64,
) -> Vec<Sample> {
    let t = tables();
    let mut deck = unseen_deck(hero);
    let hero_key = t.key(hero[0]) + t.key(hero[1]);
    let (first, last) = (*counts.start(), *counts.end());
    assert!(
        1 <= first && first <= last && last <= MAX_OPPONENTS,
        "opponent counts {first}..={last} outside 1..={MAX_OPPONENTS}"
    );
    let mut cells = vec![Sample::default(); last + 1 - first];
    let mut tallies = vec![[0u64; OUTCOMES]; cells.len()];
    loop {
        // One copy of the trial per eager count: with the counts constant, the compiler
        // specialises the deal (measured: 15 % more trials a second against two).
        match first.min(EAGER) {
            1 => batch::<1, 7>(t, hero, hero_key, &mut deck, rng, first, &mut tallies),
            2 => batch::<2, 9>(t, hero, hero_key, &mut deck, rng, first, &mut tallies),
            _ => batch::<EAGER, 11>(t, hero, hero_key, &mut deck, rng, first, &mut tallies),
        }
        for (cell, tally) in cells.iter_mut().zip(&mut tallies) {
            cell.add_tally(tally);
            *tally = [0; OUTCOMES];
        }
        let trials = cells[0].trials;
        let worst = cells.iter().map(Sample::std_error).fold(0.0, f64::max);
        if trials >= max || (trials >= min && worst <= target) {
            return cells;
        }
    }
}

/// Slots of the dealer's deck: the unseen cards, padded to a power of two so that a
/// position masked to its bits needs no bounds check.
const DECK_SLOTS: usize = 64;
/// Cards left when the hero holds two.
const UNSEEN: usize = 50;

/// The dealer's deck when the hero holds `hero`: the other 50 cards in id order.
fn unseen_deck(hero: [Card; 2]) -> [Card; DECK_SLOTS] {
    let mut deck = [hero[0]; DECK_SLOTS];
    assert_eq!(
        fill_unseen(&hero, &mut deck),
        UNSEEN,
        "the hero holds {} twice",
        hero[0]
    );
    deck
}

/// Most cards dealt before any further opponent: the board and [`EAGER`] hands, 11,
/// rounded up to whole 64-bit draws.
const DEALT_FIRST: usize = 12;

/// Deals a trial's cards without replacement from the unseen cards (partial Fisher–Yates:
/// after dealing into slots `0..n`, those slots hold the trial's cards, and the deck
/// stays a permutation of the unseen cards, in an order as uniform as it started). Two
/// cards come from each 64-bit draw: its low half, then its high half.
struct Dealer<'a> {
    /// The [`UNSEEN`] cards in its first slots.
    deck: &'a mut [Card; DECK_SLOTS],
    rng: &'a mut Pcg64,
}

impl Dealer<'_> {
    /// Deals `N` cards into slots `0..N` and returns them (the first `N` entries; when `N`
    /// is odd, the high half of the last draw goes unused). Written out draw by draw, so
    /// that with `N` known each card stays in a register on its way to being scored
    /// instead of being read back from the deck (measured: 16 % more trials a second
    /// against three opponents).
    #[inline(always)]
    fn deal_first<const N: usize>(&mut self) -> [Card; DEALT_FIRST] {
        const { assert!(N <= DEALT_FIRST) };
        let mut dealt = [self.deck[0]; DEALT_FIRST];
        macro_rules! draw {
            ($next:literal) => {
                if $next < N {
                    let x: u64 = self.rng.random();
                    dealt[$next] = self.place($next, x as u32);
                    if $next + 1 < N {
                        dealt[$next + 1] = self.place($next + 1, (x >> 32) as u32);
                    }
                }
            };
        }
        draw!(0);
        draw!(2);
        draw!(4);
        draw!(6);
        draw!(8);
        draw!(10);
        dealt
    }

    /// Deals two cards into slots `next` and `next + 1` from one draw and returns them.
    #[inline(always)]
    fn deal_pair(&mut self, next: usize) -> [Card; 2] {
        let x: u64 = self.rng.random();
        [
            self.place(next, x as u32),
            self.place(next + 1, (x >> 32) as u32),
        ]
    }

    /// Swaps a uniformly chosen card of slots `next..UNSEEN` into slot `next` and returns
    /// it: Lemire's multiply-shift of a 32-bit word, rejecting the few low products that
    /// would make some positions likelier (then drawing fresh 32-bit words), so exactly
    /// uniform.
    #[inline(always)]
    fn place(&mut self, next: usize, word: u32) -> Card {
        let bound = (UNSEEN - next) as u32;
        let mut m = u64::from(word) * u64::from(bound);
        // Every rejected product is below `bound` too: that compare (a register) settles
        // all but 50 in 2³² draws, so the rest is out of line.
        if (m as u32) < bound {
            (m, *self.rng) = accept(m, bound, self.rng.clone());
        }
        let r = next + (m >> 32) as usize;
        let card = self.deck[r % DECK_SLOTS];
        self.deck.swap(next % DECK_SLOTS, r % DECK_SLOTS);
        card
    }
}

/// The first product from `m` on, drawing fresh 32-bit words, that is not rejected, and
/// the generator after those draws. It takes and gives back the generator by value: were
/// its address taken, the generator could not live in registers on the hot path.
#[cold]
#[inline(never)]
fn accept(mut m: u64, bound: u32, mut rng: Pcg64) -> (u64, Pcg64) {
    while (m as u32) < REJECT_BELOW[bound as usize % DECK_SLOTS] {
        m = u64::from(rng.random::<u32>()) * u64::from(bound);
    }
    (m, rng)
}

/// For each bound b, 2³² mod b: the multiply-shift draw below b is uniform once products
/// whose low 32 bits fall below this are rejected (at most 50 in 2³², so the rejection
/// branch is as good as never taken).
const REJECT_BELOW: [u32; DECK_SLOTS] = {
    let mut below = [0u32; DECK_SLOTS];
    let mut b = 1;
    while b < DECK_SLOTS {
        below[b] = ((1u64 << 32) % b as u64) as u32;
        b += 1;
    }
    below
};

/// One trial. The board and the first `E` opponents' hands (`E` is `first` up to
/// [`EAGER`]; `CARDS` cards in all) are dealt first and scored with no branch on their
/// outcome (who wins is as unpredictable as the deal, and a mispredicted branch costs
/// more than scoring a few hands). Each further opponent is dealt and scored only while
/// the hero is unbeaten: once beaten, it loses every larger table too, and skipping the
/// rest of a big table saves more than the branch costs. The trial's outcome against the
/// first `first + k` opponents is counted in `tallies[k]`.
///
/// Hands are scored from additive card keys (see [`Tables::key`]): the board's five keys
/// are summed once, and each hand adds its two.
#[inline(always)]
fn play<const E: usize, const CARDS: usize>(
    t: &Tables,
    hero: [Card; 2],
    hero_key: u64,
    dealer: &mut Dealer<'_>,
    first: usize,
    tallies: &mut [Tally],
) {
    const { assert!(CARDS == 5 + 2 * E) };
    let last = first + tallies.len() - 1;
    let dealt = dealer.deal_first::<CARDS>();
    let board_key: u64 = dealt[..5].iter().map(|&c| t.key(c)).sum();
    let mine = strength(t, dealer.deck, board_key, hero[0], hero[1], hero_key);
    // Whether any opponent so far beats the hero (0 or 1), and how many tie.
    let mut beaten = 0usize;
    let mut tied = 0usize;
    for k in 0..E {
        let [a, b] = [dealt[5 + 2 * k], dealt[6 + 2 * k]];
        let theirs = strength(t, dealer.deck, board_key, a, b, t.key(a) + t.key(b));
        beaten |= usize::from(theirs > mine);
        tied += usize::from(theirs == mine);
    }
    if E == first {
        tallies[0][outcome(beaten, tied)] += 1;
    }
    for k in E..last {
        if beaten == 1 {
            // Beaten at this table, so beaten at every larger one.
            for tally in &mut tallies[(k + 1).saturating_sub(first)..] {
                tally[outcome(1, 0)] += 1;
            }
            return;
        }
        let [a, b] = dealer.deal_pair(5 + 2 * k);
        let theirs = strength(t, dealer.deck, board_key, a, b, t.key(a) + t.key(b));
        beaten |= usize::from(theirs > mine);
        tied += usize::from(theirs == mine);
        if k + 1 >= first {
            tallies[k + 1 - first][outcome(beaten, tied)] += 1;
        }
    }
}

/// Strength of the hand holding `a` and `b` (whose two keys sum to `hand_key`) with the
/// board in the deck's first five slots (whose keys sum to `board_key`). The cards are
/// read from the deck only for a flush, so nothing is copied on the common path.
#[inline(always)]
fn strength(
    t: &Tables,
    deck: &[Card; DECK_SLOTS],
    board_key: u64,
    a: Card,
    b: Card,
    hand_key: u64,
) -> u16 {
    let key = board_key + hand_key;
    match Tables::flush_suit(key) {
        None => t.non_flush_key(key),
        Some(suit) => t.flush(Tables::suit_mask(
            deck[..5].iter().copied().chain([a, b]),
            suit,
        )),
    }
}

/// [`BATCH`] trials whose first `E` opponents are dealt with the board (`CARDS` cards).
#[inline(never)]
fn batch<const E: usize, const CARDS: usize>(
    t: &Tables,
    hero: [Card; 2],
    hero_key: u64,
    deck: &mut [Card; DECK_SLOTS],
    rng: &mut Pcg64,
    first: usize,
    tallies: &mut [Tally],
) {
    // The deck and the generator are worked on in this function's own copies, handed
    // back at the end: the compiler then keeps the generator in registers, where through
    // the caller's references it stored it back after every draw (any store to the deck
    // might have been to it).
    let mut own_deck = *deck;
    let mut own_rng = rng.clone();
    let mut dealer = Dealer {
        deck: &mut own_deck,
        rng: &mut own_rng,
    };
    for _ in 0..BATCH {
        play::<E, CARDS>(t, hero, hero_key, &mut dealer, first, tallies);
    }
    *deck = own_deck;
    *rng = own_rng;
}

/// Opponents dealt with the board and scored without branches (measured: 2 was slower
/// against three opponents, and dealing every opponent up front was 40 % slower against
/// nine; see `reports/BENCHMARKS.md`).
const EAGER: usize = 3;

/// Trials of one table size by outcome ([`outcome`]), counted in a batch and then added
/// to its [`Sample`]: one increment per trial instead of five sums.
type Tally = [u64; OUTCOMES];
const OUTCOMES: usize = 2 * (MAX_OPPONENTS + 1);

/// A trial's outcome: whether an opponent beats the hero (0 or 1) and how many tie it.
#[inline]
fn outcome(beaten: usize, tied: usize) -> usize {
    beaten * (MAX_OPPONENTS + 1) + tied
}

/// The hero's share of the pot by whether an opponent beats it and how many tie with it.
const SHARES: [[u64; MAX_OPPONENTS + 1]; 2] = {
    let mut shares = [[0; MAX_OPPONENTS + 1]; 2];
    let mut k = 0;
    while k <= MAX_OPPONENTS {
        shares[0][k] = SHARE / (k as u64 + 1);
        k += 1;
    }
    shares
};

/// A representative hand of a class.
pub fn representative(class: usize) -> [Card; 2] {
    let (hi, lo, suited) = class_ranks(class);
    [
        Card::new(hi, 3).expect("card"),
        Card::new(lo, if suited { 3 } else { 2 }).expect("card"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::stream;
    use crate::games::holdem::classes::{combos, parse_class, CLASSES};
    use crate::games::holdem::sweep::{self, DEALS_PER_COMBO};

    #[test]
    fn the_rejection_bounds_are_two_to_the_32_mod_each_bound() {
        for b in 1..DECK_SLOTS as u64 {
            assert_eq!(u64::from(REJECT_BELOW[b as usize]), (1 << 32) % b, "{b}");
            // Each value below b is then the image of exactly floor(2^32 / b) words.
            assert_eq!(((1u64 << 32) - u64::from(REJECT_BELOW[b as usize])) % b, 0);
        }
    }

    /// A word whose product is rejected is replaced by fresh 32-bit draws (each one output
    /// of the generator) until one is accepted; an accepted word draws nothing. The
    /// rejection path is otherwise as good as never run (50 words in 2³²).
    #[test]
    fn a_rejected_word_is_replaced_by_fresh_draws() {
        let start = unseen_deck([Card::new(12, 3).unwrap(), Card::new(12, 2).unwrap()]);
        // 50 * 0 leaves a low half of 0, below 2^32 mod 50 = 46: rejected.
        assert_eq!(REJECT_BELOW[UNSEEN], 46);
        let mut expected = stream(9, 3);
        let mut m = 0u64;
        let mut fresh = 0;
        while (m as u32) < REJECT_BELOW[UNSEEN] {
            m = u64::from(expected.random::<u32>()) * UNSEEN as u64;
            fresh += 1;
        }
        assert!(fresh >= 1);
        let (mut deck, mut rng) = (start, stream(9, 3));
        let mut dealer = Dealer {
            deck: &mut deck,
            rng: &mut rng,
        };
        dealer.place(0, 0);
        assert_eq!(deck[0], start[(m >> 32) as usize]);
        assert_eq!(rng.state(), expected.state());
        // The largest word is accepted at once and picks the last slot.
        let (mut deck, mut rng) = (start, stream(9, 3));
        let mut dealer = Dealer {
            deck: &mut deck,
            rng: &mut rng,
        };
        dealer.place(0, u32::MAX);
        assert_eq!(deck[0], start[UNSEEN - 1]);
        assert_eq!(rng.state(), stream(9, 3).state());
    }

    /// The first deal returns the cards it leaves in the first slots, takes ⌈n/2⌉ draws,
    /// and deals what pair by pair dealing would (the same draws in the same order).
    #[test]
    fn the_first_deal_is_pair_by_pair_dealing_written_out() {
        fn check<const N: usize>() {
            let start = unseen_deck([Card::new(0, 0).unwrap(), Card::new(5, 1).unwrap()]);
            for unit in 0..200 {
                let (mut deck, mut rng) = (start, stream(21, unit));
                let dealt = Dealer {
                    deck: &mut deck,
                    rng: &mut rng,
                }
                .deal_first::<N>();
                assert_eq!(dealt[..N], deck[..N], "{N} cards");
                let mut draws = stream(21, unit);
                draws.advance(N.div_ceil(2) as u128);
                assert_eq!(rng.state(), draws.state(), "{N} cards");
                // Pair by pair, dropping the unused half of an odd count's last draw.
                let (mut paired, mut rng) = (start, stream(21, unit));
                let mut dealer = Dealer {
                    deck: &mut paired,
                    rng: &mut rng,
                };
                for next in (0..N).step_by(2) {
                    if next + 1 < N {
                        dealer.deal_pair(next);
                    } else {
                        let x: u64 = dealer.rng.random();
                        dealer.place(next, x as u32);
                    }
                }
                assert_eq!(paired, deck, "{N} cards");
            }
        }
        check::<7>();
        check::<9>();
        check::<11>();
        check::<12>();
    }

    /// Every ordered pair of the 50 unseen cards is equally likely in the first two slots
    /// (the two halves of one draw), and the deck stays a permutation of the unseen cards.
    #[test]
    fn the_dealer_deals_every_ordered_pair_equally_often() {
        let mut deck = unseen_deck([Card::new(12, 3).unwrap(), Card::new(12, 2).unwrap()]);
        let unseen = deck[..50].to_vec();
        let mut rng = stream(9, 1);
        let mut dealer = Dealer {
            deck: &mut deck,
            rng: &mut rng,
        };
        let per_cell = 400u64;
        let trials = 50 * 49 * per_cell;
        let mut counts = vec![0u64; 52 * 52];
        for _ in 0..trials {
            let [a, b] = dealer.deal_pair(0);
            assert_eq!([a, b], [dealer.deck[0], dealer.deck[1]]);
            counts[usize::from(a.id()) * 52 + usize::from(b.id())] += 1;
        }
        let mut chi2 = 0.0;
        for a in &unseen {
            for b in &unseen {
                let n = counts[usize::from(a.id()) * 52 + usize::from(b.id())];
                if a == b {
                    assert_eq!(n, 0, "{a} twice");
                } else {
                    let d = n as f64 - per_cell as f64;
                    chi2 += d * d / per_cell as f64;
                }
            }
        }
        // 2,449 degrees of freedom: mean 2,449, standard deviation 70.
        assert!(
            (2449.0 - 350.0..2449.0 + 350.0).contains(&chi2),
            "chi² {chi2}"
        );
        let mut now: Vec<Card> = dealer.deck[..50].to_vec();
        now.sort();
        assert_eq!(now, unseen);
    }

    /// The tables past the first three opponents come from the deals that go on only while
    /// the hero is unbeaten: each must agree with sampling that table size on its own.
    #[test]
    #[cfg_attr(debug_assertions, ignore = "Monte Carlo: run with --release")]
    fn shared_deals_agree_with_each_table_size_sampled_alone() {
        for name in ["AA", "72o"] {
            let hero = representative(parse_class(name).unwrap());
            let shared = sample_counts(hero, 3..=6, 0.0, 0, 400_000, &mut stream(12, 0));
            for (k, cell) in shared.iter().enumerate() {
                let n = 3 + k;
                let alone = sample(hero, n, 0.0, 0, 400_000, &mut stream(13, n as u64));
                assert_eq!(cell.trials, 400_000 + BATCH - 400_000 % BATCH);
                let se = cell.std_error().hypot(alone.std_error());
                let z = (cell.equity() - alone.equity()) / se;
                assert!(
                    z.abs() < 4.0,
                    "{name} against {n}: shared {} ± {}, alone {} ± {}",
                    cell.equity(),
                    cell.std_error(),
                    alone.equity(),
                    alone.std_error()
                );
                assert!(cell.wins + cell.ties <= cell.trials);
            }
        }
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore = "Monte Carlo: run with --release")]
    fn sampling_one_opponent_agrees_with_the_exact_sweep() {
        let exact = sweep::all_class_counts();
        for (k, name) in ["AA", "AKs", "72o", "T9s", "22"].iter().enumerate() {
            let c = parse_class(name).unwrap();
            let deals = u64::from(combos(c)) * DEALS_PER_COMBO;
            let want = (exact.wins[c] as f64 + exact.ties[c] as f64 / 2.0) / deals as f64;
            let mut rng = stream(3, k as u64);
            let s = sample(representative(c), 1, 0.0, 0, 2_000_000, &mut rng);
            let z = (s.equity() - want) / s.std_error();
            assert!(
                z.abs() < 4.0,
                "{name}: {} ± {} vs exact {want}",
                s.equity(),
                s.std_error()
            );
        }
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore = "Monte Carlo: run with --release")]
    fn more_opponents_lower_the_equity_and_shares_add_up() {
        let aa = representative(0);
        let mut last = 1.0;
        for n in 1..=MAX_OPPONENTS {
            let s = sample(aa, n, 0.0, 0, 200_000, &mut stream(5, n as u64));
            assert!(s.equity() < last, "{n} opponents");
            last = s.equity();
            assert!(s.wins + s.ties <= s.trials);
        }
        // By symmetry, a random hand's equity against n others is 1 / (n + 1): averaged
        // over classes weighted by combos (a coarse sample each).
        let n = 2;
        let mut total = 0.0;
        for c in 0..CLASSES {
            let s = sample(
                representative(c),
                n,
                0.0,
                0,
                20_000,
                &mut stream(6, c as u64),
            );
            total += f64::from(combos(c)) / 1326.0 * s.equity();
        }
        assert!((total - 1.0 / 3.0).abs() < 3e-3, "{total}");
    }
}
