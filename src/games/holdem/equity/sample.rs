//! Seeded Monte Carlo for questions past the exact budget.
//!
//! A trial deals every player a holding and completes the board, then scores the
//! showdown. The deal must give every combination of disjoint holdings the product of
//! their weights:
//! - a player whose range is every holding the known cards leave, at one weight (such as
//!   `random`), is dealt two cards from the cards left. Whatever the others hold, that
//!   player has the same number of holdings to choose from, so this keeps the product
//!   weights, with no deal drawn again;
//! - when every other player names one holding (`AsAh` against random hands), those cards
//!   leave the deck like dead cards and the trial is the all-random one, dealt by
//!   Fisher–Yates up to eleven cards a draw, the named hands scored beside the dealt
//!   ones;
//! - the other players draw from an alias table of their weights (one 64-bit draw per
//!   holding), and their whole deal is drawn again when two of them share a card.
//!
//! Every draw is exact: integer ranges by Lemire's multiply-and-reject, holdings by the
//! alias method. Hands are scored from running sums of card keys, as in enumeration.

use cardtables::{colex, Card, CardSet};
use rand::Rng;
use rayon::prelude::*;

use super::{
    answer, Answer, EquityError, Hand, Holdings, Question, Sums, MAX_PLAYERS, SHARE, SHARE_OF,
};
use crate::engine::stream;
use crate::games::holdem::eval::{tables, Tables};

/// Trials per batch: batch `b` draws from `stream(seed, b)`.
const BATCH: u64 = 1 << 16;
/// Batches run between two checks of the standard error (so the stopping point, and the
/// answer, do not depend on the thread count).
const ROUND: u64 = 32;
/// A batch draws at most this share of a question's whole deals (accepted or drawn
/// again): a batch whose deals are rare ends with fewer trials, at the same point for a
/// seed on any thread count.
const BATCH_SHARE: u64 = 64;
/// Most nodes the search for one deal visits before sampling starts.
const MAX_SEARCH: u64 = 1 << 22;

/// Trials counted by who won: `by_winners[m]` counts the trials won by the players in
/// the bit mask `m` (a split when more than one). Each player's equity, its square, wins
/// and ties follow from these counts exactly, with one count per trial in the loop.
#[derive(Clone)]
struct Tally {
    by_winners: [u64; 1 << MAX_PLAYERS],
    /// Whole deals drawn, those drawn again for a shared card included.
    draws: u64,
}

impl Tally {
    fn new() -> Tally {
        Tally {
            by_winners: [0; 1 << MAX_PLAYERS],
            draws: 0,
        }
    }

    fn add(&mut self, o: &Tally) {
        for (a, b) in self.by_winners.iter_mut().zip(&o.by_winners) {
            *a += b;
        }
        self.draws += o.draws;
    }

    fn trials(&self) -> u64 {
        self.by_winners.iter().sum()
    }

    /// Per player: equity in 60ths, its square summed over trials, wins, ties.
    fn per_player(&self, p: usize) -> (u64, u64, u64, u64) {
        let (mut equity, mut square, mut win, mut tie) = (0, 0, 0, 0);
        for (m, &n) in self.by_winners.iter().enumerate() {
            if m >> p & 1 == 1 {
                let share = SHARE_OF[m.count_ones() as usize];
                equity += n * share;
                square += n * share * share;
                if m.count_ones() == 1 {
                    win += n;
                } else {
                    tie += n;
                }
            }
        }
        (equity, square, win, tie)
    }

    /// The largest standard error of a player's equity.
    fn std_error(&self, players: usize) -> f64 {
        let n = self.trials() as f64;
        (0..players)
            .map(|p| {
                let (equity, square, _, _) = self.per_player(p);
                let mean = equity as f64 / (SHARE as f64 * n);
                let second = square as f64 / ((SHARE * SHARE) as f64 * n);
                ((second - mean * mean).max(0.0) / (n - 1.0)).sqrt()
            })
            .fold(0.0, f64::max)
    }
}

/// Uniform integers from one PCG-64 stream: the weighted path's cards from 32-bit halves
/// of a draw, holdings from whole draws (the all-random path deals from whole draws, see
/// [`Deck::deal`]).
struct Draws {
    rng: rand_pcg::Pcg64,
    word: u64,
    halves: u32,
}

impl Draws {
    fn new(rng: rand_pcg::Pcg64) -> Draws {
        Draws {
            rng,
            word: 0,
            halves: 0,
        }
    }

    #[inline(always)]
    fn next_u32(&mut self) -> u32 {
        if self.halves == 0 {
            self.word = self.rng.next_u64();
            self.halves = 2;
        }
        let half = self.word as u32;
        self.word >>= 32;
        self.halves -= 1;
        half
    }

    /// Uniform in `0..n` (Lemire: multiply, and reject the few low products that would
    /// make some values likelier: for `n` ≤ 52, under 13 in 2³² draws, so the rejection
    /// is out of line).
    #[inline(always)]
    fn below(&mut self, n: u32) -> u32 {
        let m = u64::from(self.next_u32()) * u64::from(n);
        if (m as u32) < n {
            return self.below_rejecting(m, n);
        }
        (m >> 32) as u32
    }

    #[cold]
    #[inline(never)]
    fn below_rejecting(&mut self, mut m: u64, n: u32) -> u32 {
        let floor = n.wrapping_neg() % n;
        while (m as u32) < floor {
            m = u64::from(self.next_u32()) * u64::from(n);
        }
        (m >> 32) as u32
    }

    /// Uniform in `0..n` with the 64 bits of the product left over, uniform and
    /// independent of the value (for the alias method's coin).
    #[inline]
    fn below_with_coin(&mut self, n: u64) -> (usize, u64) {
        let mut m = u128::from(self.rng.next_u64()) * u128::from(n);
        if (m as u64) < n {
            let floor = n.wrapping_neg() % n;
            while (m as u64) < floor {
                m = u128::from(self.rng.next_u64()) * u128::from(n);
            }
        }
        ((m >> 64) as usize, m as u64)
    }
}

/// Weighted draws by the alias method: draw a slot uniformly, keep it when the coin is
/// under its threshold, else take its alias (Vose's construction).
struct Alias<T> {
    threshold: Vec<u64>,
    alias: Vec<u32>,
    items: Vec<T>,
}

impl<T: Copy> Alias<T> {
    fn new(items: Vec<T>, weights: &[f64]) -> Alias<T> {
        let n = items.len();
        let total: f64 = weights.iter().sum();
        let mut scaled: Vec<f64> = weights.iter().map(|w| w * n as f64 / total).collect();
        let mut threshold = vec![u64::MAX; n];
        let mut alias: Vec<u32> = (0..n as u32).collect();
        let (mut small, mut large): (Vec<usize>, Vec<usize>) =
            (0..n).partition(|&i| scaled[i] < 1.0);
        while let (Some(s), Some(&l)) = (small.pop(), large.last()) {
            // Slot s keeps its own item with probability scaled[s], else item l.
            threshold[s] = (scaled[s] * 2f64.powi(64)) as u64;
            alias[s] = l as u32;
            scaled[l] -= 1.0 - scaled[s];
            if scaled[l] < 1.0 {
                large.pop();
                small.push(l);
            }
        }
        // Slots left over hold probability 1 (up to rounding) and alias themselves.
        Alias {
            threshold,
            alias,
            items,
        }
    }

    #[inline]
    fn draw(&self, d: &mut Draws) -> T {
        let (slot, coin) = d.below_with_coin(self.items.len() as u64);
        let i = if coin < self.threshold[slot] {
            slot
        } else {
            self.alias[slot] as usize
        };
        self.items[i]
    }
}

/// Most combinations of the weighted seats' holdings drawn as one.
const MAX_JOINT: u64 = 1 << 18;

/// How the seats that draw by weight are dealt: the smallest ranges jointly (every
/// disjoint combination of their holdings in one alias table, at the product of the
/// weights, up to [`MAX_JOINT`] combinations), the others each from its own table, and
/// the whole deal drawn again when a seat drawn apart shares a card. That is rejection
/// sampling from a proposal proportional to the product of the weights, so every
/// disjoint combination comes up at its product exactly; with every seat in the joint
/// table nothing is ever drawn again.
struct Weighted {
    /// The proposal's total weight: the joint combinations' weights times each apart
    /// seat's.
    mass: f64,
    /// The joint seats' combinations.
    joint: Joint,
    /// The seats in the joint table.
    joint_seats: Vec<usize>,
    /// The other weighted seats, with their tables.
    apart: Vec<(usize, Alias<(Hand, u64)>)>,
    /// Each card id's hand and bit; empty for [`NO_CARD`].
    card: [(Hand, u64); 64],
}

/// The card id of no card, in a joint combination's seats that it does not deal.
const NO_CARD: u8 = 63;

/// Joint tables of more combinations than this hold card ids rather than hands.
const JOINT_AS_HANDS: usize = 1 << 13;

/// A joint table: small ones hold each combination's hands by seat and its cards, ready
/// to use (104 bytes a combination); large ones hold two card ids a seat
/// ([`NO_CARD`] for the seats it does not deal), twelve bytes a combination, so that
/// they stay in cache.
enum Joint {
    Hands(Alias<([Hand; MAX_PLAYERS], u64)>),
    Ids(Alias<[u8; 2 * MAX_PLAYERS]>),
}

impl Weighted {
    /// The weighted seats' hands into `holes` (by seat) and their cards as a mask, counting
    /// every whole deal drawn in `draws`; `None` once `draws` reaches `limit`.
    #[inline]
    fn deal(
        &self,
        d: &mut Draws,
        holes: &mut [Hand; MAX_PLAYERS],
        draws: &mut u64,
        limit: u64,
    ) -> Option<u64> {
        'deal: loop {
            if *draws >= limit {
                return None;
            }
            *draws += 1;
            let mut used = 0;
            match &self.joint {
                Joint::Hands(joint) => {
                    let (hands, cards) = joint.draw(d);
                    *holes = hands;
                    used = cards;
                }
                Joint::Ids(joint) => {
                    let ids = joint.draw(d);
                    for &p in &self.joint_seats {
                        let (a, b) = (
                            self.card[usize::from(ids[2 * p]) % 64],
                            self.card[usize::from(ids[2 * p + 1]) % 64],
                        );
                        holes[p % MAX_PLAYERS] = a.0.join(b.0);
                        used |= a.1 | b.1;
                    }
                }
            }
            for (p, alias) in &self.apart {
                let (hand, cards) = alias.draw(d);
                if used & cards != 0 {
                    continue 'deal;
                }
                holes[*p] = hand;
                used |= cards;
            }
            return Some(used);
        }
    }
}

/// The weighted seats' deal (see [`Weighted`]): seats join the joint table from the
/// smallest range up while their combinations number at most [`MAX_JOINT`] (the first
/// always joins). `ranges[p]` is `None` for a random seat.
fn weighted(
    t: &Tables,
    ranges: &[Option<&Holdings>],
    max_joint: u64,
) -> Result<Weighted, EquityError> {
    if deal_exists(ranges) == Some(false) {
        return Err(EquityError::NoDeal);
    }
    let mut by_size: Vec<usize> = (0..ranges.len()).filter(|&p| ranges[p].is_some()).collect();
    by_size.sort_by_key(|&p| (ranges[p].map_or(0, Vec::len), p));
    let mut in_joint = vec![false; ranges.len()];
    let mut product = 1u64;
    for (i, &p) in by_size.iter().enumerate() {
        let size = ranges[p].map_or(1, Vec::len) as u64;
        if i > 0 && product.saturating_mul(size) > max_joint {
            break;
        }
        product = product.saturating_mul(size);
        in_joint[p] = true;
    }
    let joint_ranges: Vec<Option<&Holdings>> = ranges
        .iter()
        .zip(&in_joint)
        .map(|(r, &joint)| if joint { *r } else { None })
        .collect();
    let mut ids = [NO_CARD; 2 * MAX_PLAYERS];
    fn seat(
        ranges: &[Option<&Holdings>],
        p: usize,
        used: u64,
        weight: f64,
        ids: &mut [u8; 2 * MAX_PLAYERS],
        out: &mut (Vec<[u8; 2 * MAX_PLAYERS]>, Vec<f64>),
    ) {
        let Some(range) = ranges.get(p) else {
            out.0.push(*ids);
            out.1.push(weight);
            return;
        };
        let Some(range) = range else {
            return seat(ranges, p + 1, used, weight, ids, out);
        };
        for (hole, w) in range.iter() {
            let cards = super::mask(hole);
            if used & cards == 0 {
                ids[2 * p] = hole[0].id();
                ids[2 * p + 1] = hole[1].id();
                seat(ranges, p + 1, used | cards, weight * w, ids, out);
            }
        }
        ids[2 * p] = NO_CARD;
        ids[2 * p + 1] = NO_CARD;
    }
    let mut out = (Vec::new(), Vec::new());
    seat(&joint_ranges, 0, 0, 1.0, &mut ids, &mut out);
    let (items, weights) = out;
    if items.is_empty() {
        return Err(EquityError::NoDeal);
    }
    let total: f64 = weights.iter().sum();
    if !(total > 0.0 && total.is_finite()) {
        return Err(EquityError::Underflow);
    }
    let mut mass = total;
    let apart = (0..ranges.len())
        .filter(|&p| !in_joint[p])
        .filter_map(|p| {
            ranges[p].map(|h| {
                mass *= h.iter().map(|&(_, w)| w).sum::<f64>();
                let items = h
                    .iter()
                    .map(|(hole, _)| (Hand::of(t, hole), super::mask(hole)));
                let weights: Vec<f64> = h.iter().map(|&(_, w)| w).collect();
                (p, Alias::new(items.collect(), &weights))
            })
        })
        .collect();
    let card: [(Hand, u64); 64] = std::array::from_fn(|id| {
        Card::from_id(id as u8).map_or((Hand::EMPTY, 0), |c| (Hand::EMPTY.with(t, c), 1 << id))
    });
    let joint = if items.len() <= JOINT_AS_HANDS {
        let hands: Vec<([Hand; MAX_PLAYERS], u64)> = items
            .iter()
            .map(|ids| {
                let pair = |p: usize| {
                    let (a, b) = (
                        card[usize::from(ids[2 * p]) % 64],
                        card[usize::from(ids[2 * p + 1]) % 64],
                    );
                    (a.0.join(b.0), a.1 | b.1)
                };
                (
                    std::array::from_fn(|p| pair(p).0),
                    (0..MAX_PLAYERS).fold(0, |m, p| m | pair(p).1),
                )
            })
            .collect();
        Joint::Hands(Alias::new(hands, &weights))
    } else {
        Joint::Ids(Alias::new(items, &weights))
    };
    Ok(Weighted {
        mass,
        joint,
        joint_seats: (0..ranges.len()).filter(|&p| in_joint[p]).collect(),
        apart,
        card,
    })
}

/// Weights below this share of a seat's heaviest make that seat's light part.
const LIGHT: f64 = 1e-3;

/// The weighted seats' deal when some seats hold holdings far lighter than their others:
/// each such seat's range is split into its heavy part (weights at least [`LIGHT`] times
/// its heaviest) and its light part, and every choice of a part per seat under which some
/// deal exists gets its own [`Weighted`]. A trial picks a choice by its proposal mass and
/// deals from it, drawing again on a shared card. The parts split every range, so this is
/// rejection sampling from the product of the weights restricted to the choices where a
/// deal exists: exact, and its acceptance no longer collapses when the heavy holdings
/// clash with each other (`AA` at 1 and the rest at 1e-10 for three seats: three aces
/// hands cannot be dealt, so that choice is never proposed). With no light part it is
/// one [`Weighted`], and no draw picks it.
struct Mixture {
    parts: Vec<Weighted>,
    pick: Option<Alias<u32>>,
    /// Most whole deals a batch draws.
    batch_limit: u64,
}

impl Mixture {
    #[inline]
    fn deal(&self, d: &mut Draws, holes: &mut [Hand; MAX_PLAYERS], draws: &mut u64) -> Option<u64> {
        let part = match &self.pick {
            Some(pick) => &self.parts[pick.draw(d) as usize],
            None => &self.parts[0],
        };
        part.deal(d, holes, draws, self.batch_limit)
    }
}

fn mixture(t: &Tables, ranges: &[Option<&Holdings>]) -> Result<Mixture, EquityError> {
    let split: Vec<Option<(Holdings, Holdings)>> = ranges
        .iter()
        .map(|r| {
            r.and_then(|h| {
                let top = h.iter().map(|&(_, w)| w).fold(0.0, f64::max);
                let (heavy, light): (Holdings, Holdings) =
                    h.iter().partition(|&&(_, w)| w >= LIGHT * top);
                (!light.is_empty()).then_some((heavy, light))
            })
        })
        .collect();
    let mixed: Vec<usize> = (0..ranges.len()).filter(|&p| split[p].is_some()).collect();
    if mixed.is_empty() {
        return Ok(Mixture {
            parts: vec![weighted(t, ranges, MAX_JOINT)?],
            pick: None,
            batch_limit: u64::MAX,
        });
    }
    let choices = 1usize << mixed.len();
    let mut parts = Vec::new();
    for choice in 0..choices {
        let chosen: Vec<Option<&Holdings>> = (0..ranges.len())
            .map(|p| match (&split[p], mixed.iter().position(|&m| m == p)) {
                (Some((heavy, light)), Some(bit)) => {
                    Some(if choice >> bit & 1 == 1 { light } else { heavy })
                }
                _ => ranges[p],
            })
            .collect();
        match weighted(t, &chosen, (MAX_JOINT / choices as u64).max(1 << 10)) {
            Ok(w) => parts.push(w),
            Err(EquityError::NoDeal | EquityError::Underflow) => {}
            Err(e) => return Err(e),
        }
    }
    let masses: Vec<f64> = parts.iter().map(|w| w.mass).collect();
    let total: f64 = masses.iter().sum();
    if parts.is_empty() {
        return Err(EquityError::NoDeal);
    }
    if !(total > 0.0 && total.is_finite()) {
        return Err(EquityError::Underflow);
    }
    Ok(Mixture {
        pick: Some(Alias::new((0..parts.len() as u32).collect(), &masses)),
        parts,
        batch_limit: u64::MAX,
    })
}

/// Whether some deal gives every weighted seat (`Some`) a holding without a shared card:
/// a search from the smallest range up that remembers the card sets it found no deal
/// from. `None` when the search passes [`MAX_SEARCH`] nodes undecided. (Random seats
/// always find two cards: the deck was checked to hold every hole and the runout.)
fn deal_exists(ranges: &[Option<&Holdings>]) -> Option<bool> {
    let mut seats: Vec<Vec<u64>> = ranges
        .iter()
        .flatten()
        .map(|h| h.iter().map(|(hole, _)| super::mask(hole)).collect())
        .collect();
    seats.sort_by_key(Vec::len);
    fn search(
        seats: &[Vec<u64>],
        used: u64,
        dead_ends: &mut std::collections::HashSet<(usize, u64)>,
        nodes: &mut u64,
    ) -> Option<bool> {
        let Some(seat) = seats.first() else {
            return Some(true);
        };
        if dead_ends.contains(&(seats.len(), used)) {
            return Some(false);
        }
        for &cards in seat {
            *nodes += 1;
            if *nodes > MAX_SEARCH {
                return None;
            }
            if used & cards == 0 && search(&seats[1..], used | cards, dead_ends, nodes)? {
                return Some(true);
            }
        }
        dead_ends.insert((seats.len(), used));
        Some(false)
    }
    search(&seats, 0, &mut std::collections::HashSet::new(), &mut 0)
}

/// Seeded trials, in rounds of [`ROUND`] batches, until the standard error is reached.
pub(super) fn monte_carlo(
    q: &Question,
    holdings: &[Holdings],
    known: &CardSet,
) -> Result<Answer, EquityError> {
    let t = tables();
    let players = holdings.len();
    let left = 52 - known.len() as usize;
    let full = colex::binomial(left, 2) as usize;
    // A seat whose range is every holding left, at one weight, is random.
    let ranges: Vec<Option<&Holdings>> = holdings
        .iter()
        .map(|h| (h.len() != full || h.iter().any(|&(_, w)| w != h[0].1)).then_some(h))
        .collect();
    let random: Vec<bool> = ranges.iter().map(Option::is_none).collect();
    // Every seat random or one fixed holding, the fixed ones disjoint: the fixed cards
    // leave the deck and every other seat is dealt from it.
    let fixed_cards: Vec<u64> = ranges
        .iter()
        .flatten()
        .filter(|h| h.len() == 1)
        .map(|h| super::mask(&h[0].0))
        .collect();
    let fixed_mask = fixed_cards.iter().fold(0, |m, &c| m | c);
    let dealt_from_deck = ranges.iter().flatten().all(|h| h.len() == 1)
        && fixed_cards.iter().map(|c| c.count_ones()).sum::<u32>() == fixed_mask.count_ones();
    let seating = Seating::of(t, &ranges);
    let weighted = Mixture {
        batch_limit: (q.max_draws / BATCH_SHARE).max(1),
        ..mixture(t, &ranges)?
    };
    let mut board = Hand::EMPTY;
    for &c in &q.board {
        board = board.with(t, c);
    }
    let mut tally = Tally::new();
    let mut next_batch = 0u64;
    loop {
        let batches: Vec<Result<Tally, EquityError>> = (next_batch..next_batch + ROUND)
            .into_par_iter()
            .map(|b| {
                let rng = stream(q.seed, b);
                if dealt_from_deck {
                    Ok(random_batch(
                        t,
                        &seating,
                        players,
                        board,
                        q.board.len(),
                        known.0 | fixed_mask,
                        rng,
                    ))
                } else {
                    weighted_batch(t, &weighted, &random, board, q.board.len(), known.0, rng)
                }
            })
            .collect();
        next_batch += ROUND;
        for b in batches {
            tally.add(&b?);
        }
        if tally.trials() >= 2 && tally.std_error(players) <= q.std_error
            || tally.trials() >= q.max_trials
            || tally.draws >= q.max_draws
        {
            break;
        }
    }
    let trials = tally.trials();
    if trials < 2 {
        return Err(EquityError::RareDeals(tally.draws));
    }
    let each: Vec<(u64, u64, u64, u64)> = (0..players).map(|p| tally.per_player(p)).collect();
    let sums = Sums {
        weight: trials as f64,
        showdowns: trials,
        equity: each.iter().map(|e| e.0 as f64).collect(),
        win: each.iter().map(|e| e.2 as f64).collect(),
        tie: each.iter().map(|e| e.3 as f64).collect(),
        outcomes: vec![],
    };
    let std_error = tally.std_error(players);
    Ok(Answer {
        draws: tally.draws,
        stopped_at_draw_limit: std_error > q.std_error && tally.draws >= q.max_draws,
        ..answer(&sums, false, std_error, trials)
    })
}

/// The cards no one knows, dealt by partial Fisher–Yates: dealing `k` cards swaps a
/// uniformly chosen card of the live slots into each of the first `k`, and the deck stays
/// a permutation of those cards, in an order as uniform as before.
struct Deck {
    cards: [u8; 64],
    len: usize,
}

/// Most cards one draw can deal: the product of their slot counts stays below 2⁶⁴
/// (52 · 51 ⋯ 42 ≈ 2⁶¹·¹; one more slot would pass it).
const GROUP: usize = 11;

/// A draw of `ways` deals is redone when its product's low word falls in the
/// `2⁶⁴ mod ways` values below [`Deck::deal`]'s threshold; a group is kept only while that
/// chance is at most `MOST_REDO / 2⁶⁴` = 1/16.
const MOST_REDO: u64 = 1 << 60;

/// Most cards dealt from one draw when `fixed` seats hold fixed holdings: the most whose
/// chance of a redo from the most cards that can be live (52, or 50 beside a fixed
/// holding) is within [`MOST_REDO`]: ten (0.1 %) and eleven (3.0 %; from 52 it would be
/// 8.5 %). Fewer live cards (dead cards, a board) redo with chance under
/// `ways / 2⁶⁴`, at most 8.1 % for eleven cards from 50.
const fn group(fixed: usize) -> usize {
    let live = if fixed == 0 { 52 } else { 50 };
    let (mut cards, mut ways) = (0, 1u64);
    while cards < GROUP {
        match ways.checked_mul((live - cards) as u64) {
            Some(more) if (u64::MAX % more + 1) % more <= MOST_REDO => {
                ways = more;
                cards += 1;
            }
            _ => break,
        }
    }
    cards
}

/// The slot ranges of a deal of `cards` cards at most `group` a draw (at most three
/// draws): the fewest draws, the cards shared out evenly between them (two short chains
/// of products overlap where one long one would wait). Unused entries are empty.
/// Constant where its arguments are, so that the deal unrolls.
#[inline(always)]
fn split(cards: usize, group: usize) -> [(usize, usize); 3] {
    let each = cards.div_ceil(cards.div_ceil(group).max(1));
    std::array::from_fn(|g| ((g * each).min(cards), ((g + 1) * each).min(cards)))
}

impl Deck {
    fn new(known: u64) -> Deck {
        let mut deck = Deck {
            cards: [0; 64],
            len: 0,
        };
        for id in (0..52u8).filter(|&id| known >> id & 1 == 0) {
            deck.cards[deck.len] = id;
            deck.len += 1;
        }
        deck
    }

    /// The number of ways to deal slots `from..to` out of `live` cards: the product of
    /// the slot counts `live − i` (below 2⁶⁴ for at most [`GROUP`] slots; `u64::MAX` past
    /// that).
    fn ways(from: usize, to: usize, live: usize) -> u64 {
        (from..to).fold(1, |w: u64, i| w.saturating_mul((live - i) as u64))
    }

    /// Deals slots `from..to` (at most [`GROUP`]; `ways` is [`Deck::ways`] of them) from one
    /// 64-bit draw, and returns the cards dealt, in slot order, in `out[from..to]`.
    ///
    /// Lemire's method over all the slots at once (batched ranged draws, after
    /// Brackett-Rozinsky and Lemire): multiplying the draw by each slot count in turn
    /// and keeping the high word gives each slot's offset, and the chain of products is
    /// `draw × ways` written in mixed radix. So the offsets are uniform over all `ways`
    /// deals exactly when that product's low word passes Lemire's test, and the whole
    /// draw is redone otherwise (with probability under `ways / 2⁶⁴`).
    #[inline(always)]
    fn deal(
        &mut self,
        d: &mut Draws,
        from: usize,
        to: usize,
        ways: u64,
        live: usize,
        out: &mut [u8],
    ) {
        let mut offsets = [0u64; GROUP];
        loop {
            let mut low = d.rng.next_u64();
            for (i, offset) in (from..to).zip(&mut offsets) {
                let m = u128::from(low) * (live - i) as u128;
                *offset = (m >> 64) as u64;
                low = m as u64;
            }
            if low >= ways || low >= ways.wrapping_neg() % ways {
                break;
            }
        }
        for (i, &offset) in (from..to).zip(&offsets) {
            let r = i + offset as usize;
            let (x, y) = (self.cards[i % 64], self.cards[r % 64]);
            self.cards[i % 64] = y;
            self.cards[r % 64] = x;
            out[i] = y;
        }
    }
}

/// Where the seats of a trial dealt from the deck sit: the seats that hold one fixed
/// holding (a hand the player named, `AsAh`), dealt no card, and the seat of each random
/// slot. Every seat random: no fixed seat and slot `p` at seat `p`.
#[derive(Clone, Copy)]
struct Seating {
    fixed: [(Hand, u8); MAX_PLAYERS],
    fixed_count: usize,
    random_seat: [u8; MAX_PLAYERS],
}

impl Seating {
    /// Seats holding a single holding are fixed; the others (`None`: random) are dealt.
    fn of(t: &Tables, ranges: &[Option<&Holdings>]) -> Seating {
        let mut s = Seating {
            fixed: [(Hand::EMPTY, 0); MAX_PLAYERS],
            fixed_count: 0,
            random_seat: [0; MAX_PLAYERS],
        };
        let mut random = 0;
        for (seat, r) in ranges.iter().enumerate() {
            match r {
                Some(h) => {
                    s.fixed[s.fixed_count] = (Hand::of(t, &h[0].0), seat as u8);
                    s.fixed_count += 1;
                }
                None => {
                    s.random_seat[random] = seat as u8;
                    random += 1;
                }
            }
        }
        s
    }

    fn random(&self, players: usize) -> usize {
        players - self.fixed_count
    }
}

/// One batch of trials when every seat is random or holds one fixed holding.
fn random_batch(
    t: &Tables,
    seating: &Seating,
    players: usize,
    board: Hand,
    board_cards: usize,
    known: u64,
    rng: rand_pcg::Pcg64,
) -> Tally {
    // One copy of the trial per number of seats dealt and cards to come, so the compiler
    // unrolls the deal and keeps the cards in registers; each with no fixed seat, one
    // (the common "my hand against N random hands", unrolled too) or several.
    macro_rules! by_fixed {
        ($n:literal, $come:literal) => {
            [
                random_trials::<$n, $come, 0> as Trials,
                random_trials::<$n, $come, 1>,
                random_trials::<$n, $come, SEVERAL>,
            ]
        };
    }
    let run = match (seating.random(players), 5 - board_cards) {
        (0, 5) => by_fixed!(0, 5),
        (0, 2) => by_fixed!(0, 2),
        (0, 1) => by_fixed!(0, 1),
        (0, _) => by_fixed!(0, 0),
        (1, 5) => by_fixed!(1, 5),
        (1, 2) => by_fixed!(1, 2),
        (1, 1) => by_fixed!(1, 1),
        (1, _) => by_fixed!(1, 0),
        (2, 5) => by_fixed!(2, 5),
        (2, 2) => by_fixed!(2, 2),
        (2, 1) => by_fixed!(2, 1),
        (2, _) => by_fixed!(2, 0),
        (3, 5) => by_fixed!(3, 5),
        (3, 2) => by_fixed!(3, 2),
        (3, 1) => by_fixed!(3, 1),
        (3, _) => by_fixed!(3, 0),
        (4, 5) => by_fixed!(4, 5),
        (4, 2) => by_fixed!(4, 2),
        (4, 1) => by_fixed!(4, 1),
        (4, _) => by_fixed!(4, 0),
        (5, 5) => by_fixed!(5, 5),
        (5, 2) => by_fixed!(5, 2),
        (5, 1) => by_fixed!(5, 1),
        (5, _) => by_fixed!(5, 0),
        (_, 5) => by_fixed!(6, 5),
        (_, 2) => by_fixed!(6, 2),
        (_, 1) => by_fixed!(6, 1),
        (_, _) => by_fixed!(6, 0),
    }[seating.fixed_count.min(2)];
    let dealt_order = run(t, seating, board, known, rng);
    // The trials counted the dealt slots' bits first, then the fixed holdings': put each
    // bit at its seat, once per batch.
    let seat_of: [u8; MAX_PLAYERS] = std::array::from_fn(|bit| {
        let random = seating.random(players);
        if bit < random {
            seating.random_seat[bit]
        } else {
            seating.fixed[(bit - random).min(MAX_PLAYERS - 1)].1
        }
    });
    let mut tally = Tally::new();
    for (m, &count) in dealt_order.by_winners.iter().enumerate() {
        let seats = (0..players)
            .filter(|&bit| m >> bit & 1 == 1)
            .fold(0, |acc, bit| acc | 1 << seat_of[bit]);
        tally.by_winners[seats] += count;
    }
    tally.draws = dealt_order.draws;
    tally
}

/// A batch of trials of one shape (see [`random_trials`]).
type Trials = fn(&Tables, &Seating, Hand, u64, rand_pcg::Pcg64) -> Tally;

/// `F` for [`random_trials`] when two or more seats hold fixed holdings (their number is
/// then read at run time).
const SEVERAL: usize = MAX_PLAYERS + 1;

/// [`BATCH`] trials of `N` players who hold any two cards, beside `F` fixed holdings
/// ([`SEVERAL`]: the seating's count) whose cards are in `known`, with `COME` board cards
/// to come: the `2N + COME` cards are dealt up to [`GROUP`] from each 64-bit draw. The
/// tally's winner bits are in dealt order: the `N` dealt slots, then the fixed holdings.
fn random_trials<const N: usize, const COME: usize, const F: usize>(
    t: &Tables,
    seating: &Seating,
    board: Hand,
    known: u64,
    rng: rand_pcg::Pcg64,
) -> Tally {
    let fixed_count = if F == SEVERAL { seating.fixed_count } else { F };
    let fixed: [Hand; MAX_PLAYERS] = std::array::from_fn(|j| seating.fixed[j].0);
    let mut d = Draws::new(rng);
    let mut deck = Deck::new(known);
    let live = deck.len;
    let dealt_cards = 2 * N + COME;
    // The draws' slot ranges and their numbers of ways, once for the batch.
    let groups = split(dealt_cards, const { group(F) })
        .map(|(from, to)| (from, to, Deck::ways(from, to, live)));
    // Each card's evaluator key and suit bit, as `Hand` holds them.
    let card: [Hand; 64] = std::array::from_fn(|id| {
        Card::from_id(id as u8).map_or(Hand::EMPTY, |c| Hand::EMPTY.with(t, c))
    });
    let keys = card.map(|h| h.key);
    let suits = card.map(|h| h.suits);
    let mut tally = Tally::new();
    let mut ids = [0u8; 2 * MAX_PLAYERS + 5];
    for _ in 0..BATCH {
        for &(from, to, ways) in &groups {
            if from < to {
                deck.deal(&mut d, from, to, ways, live, &mut ids);
            }
        }
        let runout = &ids[2 * N..dealt_cards];
        let full = runout
            .iter()
            .fold(board.key, |k, &c| k + keys[usize::from(c) % 64]);
        // The strength of seven cards whose keys sum to `key`, two of them (a holding)
        // with suit bits `hand_suits`: the board's and the runout's suit bits are added
        // to those only for the few flushes.
        let strength = |key: u64, hand_suits: u64| {
            let strength = t.non_flush_key(key);
            match Tables::flush_suit(key) {
                Some(s) => {
                    let all = runout.iter().fold(board.suits | hand_suits, |m, &c| {
                        m | suits[usize::from(c) % 64]
                    });
                    t.flush((all >> (16 * u32::from(s))) as u16)
                }
                None => strength,
            }
        };
        let dealt: [u16; N] = std::array::from_fn(|p| {
            let (a, b) = (
                usize::from(ids[2 * p]) % 64,
                usize::from(ids[2 * p + 1]) % 64,
            );
            strength(full + keys[a] + keys[b], suits[a] | suits[b])
        });
        // Every strength in dealt order, the fixed holdings' after the dealt slots'.
        let mut all = [0u16; MAX_PLAYERS];
        all[..N].copy_from_slice(&dealt);
        for (j, hand) in fixed.iter().enumerate().take(fixed_count) {
            all[(N + j) % MAX_PLAYERS] = strength(full + hand.key, hand.suits);
        }
        tally.by_winners[winners(&all, N + fixed_count)] += 1;
    }
    tally.draws = BATCH;
    tally
}

/// From this many players on, a trial's winners are found in a vector register
/// ([`top_mask_sse2`]): measured on an Intel Xeon (Emerald Rapids), it pays with five or
/// six strengths and costs with three or four (reports/BENCHMARKS.md).
const VECTOR_TOP_FROM: usize = 5;

/// The bit mask of the first `players` entries of `s` that hold its largest value: who
/// wins the trial (several: a split).
#[inline(always)]
fn winners(s: &[u16; MAX_PLAYERS], players: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    if players >= VECTOR_TOP_FROM {
        return top_mask_sse2(s, players);
    }
    top_mask(s, players)
}

/// [`winners`] one player at a time.
#[inline(always)]
fn top_mask(s: &[u16; MAX_PLAYERS], players: usize) -> usize {
    let top = s[..players].iter().copied().max().unwrap_or(0);
    (0..players).fold(0, |m, p| m | usize::from(s[p] == top) << p)
}

/// [`winners`] in one SSE2 register (every x86-64 CPU has SSE2): the strengths go in
/// lane by lane, the largest is spread to every lane by three maxima of shuffled
/// copies, and one comparison gives the winners' lanes, so the strengths need no
/// general registers between their reads and the count. Lanes past `players` hold 0,
/// never above a player's strength, and are masked off.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn top_mask_sse2(s: &[u16; MAX_PLAYERS], players: usize) -> usize {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is part of x86-64; these intrinsics touch no memory.
    unsafe {
        let mut v = _mm_setzero_si128();
        macro_rules! lane {
            ($($i:literal)*) => {$(
                if $i < players {
                    v = _mm_insert_epi16::<$i>(v, i32::from(s[$i]));
                }
            )*};
        }
        lane!(0 1 2 3 4 5);
        // Strengths are below 2¹⁵, so the signed 16-bit maximum orders them.
        let m = _mm_max_epi16(v, _mm_shuffle_epi32::<0b01_00_11_10>(v));
        let m = _mm_max_epi16(m, _mm_shuffle_epi32::<0b10_11_00_01>(m));
        let m = _mm_max_epi16(
            m,
            _mm_or_si128(_mm_slli_epi32::<16>(m), _mm_srli_epi32::<16>(m)),
        );
        let top = _mm_cmpeq_epi16(v, m);
        let bits = _mm_movemask_epi8(_mm_packs_epi16(top, top)) as usize;
        bits & ((1 << players) - 1)
    }
}

/// One batch of trials when some seat draws by weight. The random seats' cards and the
/// runout are drawn from the 52 and drawn again when out (cheaper here than keeping a
/// deck in order around the weighted seats' cards).
fn weighted_batch(
    t: &Tables,
    weighted: &Mixture,
    random: &[bool],
    board: Hand,
    board_cards: usize,
    known: u64,
    rng: rand_pcg::Pcg64,
) -> Result<Tally, EquityError> {
    let mut d = Draws::new(rng);
    let keys: [Hand; 64] = std::array::from_fn(|id| {
        Card::from_id(id as u8).map_or(Hand::EMPTY, |c| Hand::EMPTY.with(t, c))
    });
    let card = |d: &mut Draws, used: &mut u64| loop {
        let id = d.below(52);
        if *used >> id & 1 == 0 {
            *used |= 1 << id;
            return keys[id as usize % 64];
        }
    };
    let mut tally = Tally::new();
    let mut holes = [Hand::EMPTY; MAX_PLAYERS];
    let mut draws = 0u64;
    for _ in 0..BATCH {
        let Some(dealt) = weighted.deal(&mut d, &mut holes, &mut draws) else {
            break;
        };
        let mut used = known | dealt;
        for (&random, hole) in random.iter().zip(holes.iter_mut()) {
            if random {
                *hole = card(&mut d, &mut used).join(card(&mut d, &mut used));
            }
        }
        let mut full = board;
        for _ in board_cards..5 {
            full = full.join(card(&mut d, &mut used));
        }
        let mut strength = [0u16; MAX_PLAYERS];
        let mut top = 0;
        for (s, hole) in strength.iter_mut().zip(&holes[..random.len()]) {
            *s = full.join(*hole).strength(t);
            top = top.max(*s);
        }
        // Who wins is as unpredictable as the deal: one count, with no branch.
        let mut winners = 0;
        for (p, &s) in strength[..random.len()].iter().enumerate() {
            winners |= usize::from(s == top) << p;
        }
        tally.by_winners[winners] += 1;
    }
    tally.draws = draws;
    Ok(tally)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// Who wins, for every list of two to six strengths drawn from the weakest, two
    /// middling and the strongest (ties of every shape), against a direct count;
    /// on x86-64 the vector path too.
    #[test]
    fn winners_are_the_players_at_the_top() {
        let values = [0u16, 1, 5000, 7461];
        for players in 2..=MAX_PLAYERS {
            for code in 0..values.len().pow(players as u32) {
                let mut s = [0u16; MAX_PLAYERS];
                for (p, v) in s.iter_mut().enumerate().take(players) {
                    *v = values[code / values.len().pow(p as u32) % values.len()];
                }
                let top = *s[..players].iter().max().expect("two or more");
                let expected = (0..players)
                    .filter(|&p| s[p] == top)
                    .fold(0, |m, p| m | 1 << p);
                assert_eq!(top_mask(&s, players), expected, "{s:?}, {players} players");
                assert_eq!(winners(&s, players), expected, "{s:?}, {players} players");
                #[cfg(target_arch = "x86_64")]
                assert_eq!(
                    top_mask_sse2(&s, players),
                    expected,
                    "{s:?}, {players} players"
                );
            }
        }
    }

    /// Each shape's largest draw is redone with chance at most 1/16 from the most cards
    /// it can have live (52, or 50 beside a fixed holding), and one more card would pass
    /// that: the groups are as long as the bound allows, and no longer than `GROUP`.
    #[test]
    fn draws_are_as_long_as_the_bound_allows() {
        let redo = |ways: u64| (u64::MAX % ways + 1) % ways;
        assert_eq!((group(0), group(1), group(SEVERAL)), (10, 11, 11));
        for (fixed, live) in [(0, 52), (1, 50)] {
            let n = group(fixed);
            assert!(redo(Deck::ways(0, n, live)) <= MOST_REDO, "{fixed}");
            assert!(
                n == GROUP || redo(Deck::ways(0, n + 1, live)) > MOST_REDO,
                "{fixed}"
            );
        }
        assert!(redo(Deck::ways(0, 11, 52)) > MOST_REDO);
        assert!(Deck::ways(0, GROUP, 52) < u64::MAX);
        assert_eq!(Deck::ways(0, GROUP + 1, 52), u64::MAX);
        // Every deal of a seated shape: at most three draws, evenly shared.
        for cards in 0..=2 * MAX_PLAYERS + 5 {
            for fixed in [0, 1] {
                let groups = split(cards, group(fixed));
                let sizes = groups.map(|(from, to)| to - from);
                assert_eq!(sizes.iter().sum::<usize>(), cards);
                assert!(sizes.iter().all(|&n| n <= group(fixed)));
                let used = sizes.iter().filter(|&&n| n > 0).count();
                assert_eq!(used, cards.div_ceil(group(fixed)));
                assert!(sizes[0] - sizes[used.max(1) - 1] <= 1);
            }
        }
    }

    /// Seventeen cards (six seats and a board) dealt by two draws, 300,000 times from a
    /// deck of 52: every card lands in every slot about equally often, so does every
    /// ordered pair of cards in two slots, and a deal never repeats a card.
    #[test]
    fn dealing_many_cards_from_each_draw_is_uniform() {
        let (cards, rounds) = (17, 300_000u32);
        let mut d = Draws::new(rand_pcg::Pcg64::seed_from_u64(11));
        let groups = split(cards, group(0));
        assert_eq!(groups, [(0, 9), (9, 17), (17, 17)]);
        let groups = groups.map(|(from, to)| (from, to, Deck::ways(from, to, 52)));
        let mut count = vec![[0u32; 52]; cards];
        // Pairs of slots dealt from one draw (0 and 1) and from two (8 and 9).
        let mut pairs = [vec![0u32; 52 * 52], vec![0u32; 52 * 52]];
        let mut ids = [0u8; 2 * MAX_PLAYERS + 5];
        for _ in 0..rounds {
            // A deck in card order each time, so that each card dealt shows the offset
            // drawn for it (a deck kept shuffled from earlier deals would hide a bias).
            let mut deck = Deck::new(0);
            for &(from, to, ways) in &groups {
                deck.deal(&mut d, from, to, ways, 52, &mut ids);
            }
            let seen = ids[..cards].iter().fold(0u64, |m, &c| m | 1 << c);
            assert_eq!(seen.count_ones() as usize, cards);
            for (slot, &c) in ids[..cards].iter().enumerate() {
                count[slot][usize::from(c)] += 1;
            }
            for (pair, (a, b)) in pairs.iter_mut().zip([(0, 1), (8, 9)]) {
                pair[usize::from(ids[a]) * 52 + usize::from(ids[b])] += 1;
            }
        }
        // Each count is binomial(rounds, 1/52): its standard deviation is about 77.
        let mean = f64::from(rounds) / 52.0;
        let sd = (mean * (1.0 - 1.0 / 52.0)).sqrt();
        for (slot, row) in count.iter().enumerate() {
            for (card, &n) in row.iter().enumerate() {
                let z = (f64::from(n) - mean) / sd;
                assert!(z.abs() < 5.5, "slot {slot} card {card}: z = {z}");
            }
        }
        // Each ordered pair of distinct cards: binomial(rounds, 1/2652), sd about 10.6.
        let mean = f64::from(rounds) / 2652.0;
        let sd = (mean * (1.0 - 1.0 / 2652.0)).sqrt();
        for pair in &pairs {
            for (cell, &n) in pair.iter().enumerate() {
                if cell / 52 == cell % 52 {
                    assert_eq!(n, 0);
                    continue;
                }
                let z = (f64::from(n) - mean) / sd;
                assert!(
                    z.abs() < 5.5,
                    "cards {} and {}: z = {z}",
                    cell / 52,
                    cell % 52
                );
            }
        }
    }
}
