//! Values of one hand against one upcard, dealt from one shoe: standing, hitting (then
//! playing on by a given rule, or optimally), doubling, and the optimal stand-or-hit play
//! of every hand. The analysis of a rule set and the splits are built from these.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use cardtables::blackjack::{Action, ACTIONS, RANKS};

use super::dealer::{
    infinite_probability, DealerTable, Outcomes, Shoe, OUTCOME_BLACKJACK, OUTCOME_BUST,
};
use super::hands::{self, Hand, Hands, ACE, TEN};
use super::rules::BlackjackRules;

/// EVs of the five actions (NaN where the rules do not allow one), in
/// [`Action`] order.
pub type ActionEvs = [f64; ACTIONS];

/// The best allowed action and its EV.
pub fn best(evs: &ActionEvs) -> (Action, f64) {
    Action::ALL
        .iter()
        .zip(evs)
        .filter(|(_, v)| !v.is_nan())
        .fold((Action::Stand, f64::NEG_INFINITY), |b, (&a, &v)| {
            if v > b.1 {
                (a, v)
            } else {
                b
            }
        })
}

/// Cards left before the player's hand leaves the shoe.
#[derive(Clone, Copy, Debug)]
pub(super) enum Base {
    Finite { counts: [u32; RANKS], total: u32 },
    Infinite,
}

impl Base {
    pub(super) fn of(rules: &BlackjackRules) -> Base {
        match rules.shoe() {
            Some(counts) => Base::Finite {
                counts,
                total: counts.iter().sum(),
            },
            None => Base::Infinite,
        }
    }

    pub(super) fn without(self, rank: usize, n: u32) -> Base {
        match self {
            Base::Finite { mut counts, total } => {
                let n = n.min(counts[rank]);
                counts[rank] -= n;
                Base::Finite {
                    counts,
                    total: total - n,
                }
            }
            Base::Infinite => Base::Infinite,
        }
    }

    /// The base less the cards `counts` (a hand, or a hand that has gone bust).
    pub(super) fn less(self, counts: &[u8; RANKS]) -> Base {
        (0..RANKS).fold(self, |b, r| b.without(r, u32::from(counts[r])))
    }

    /// Probability that the next card is `rank` once `hand` has been dealt from here.
    pub(super) fn draw(&self, hand: &Hand, rank: usize) -> f64 {
        match self {
            Base::Finite { counts, total } => {
                let left = counts[rank].saturating_sub(u32::from(hand.counts[rank]));
                let all = total.saturating_sub(u32::from(hand.cards));
                if all == 0 {
                    0.0
                } else {
                    f64::from(left) / f64::from(all)
                }
            }
            Base::Infinite => infinite_probability(rank),
        }
    }

    pub(super) fn feasible(&self, hand: &Hand) -> bool {
        match self {
            Base::Finite { counts, .. } => counts
                .iter()
                .zip(&hand.counts)
                .all(|(&c, &h)| c >= u32::from(h)),
            Base::Infinite => true,
        }
    }

    pub(super) fn shoe(&self, hand: &Hand) -> Shoe {
        match self {
            Base::Finite { counts, .. } => {
                let mut c = *counts;
                for (slot, &h) in c.iter_mut().zip(&hand.counts) {
                    *slot -= u32::from(h);
                }
                Shoe::Finite(c)
            }
            Base::Infinite => Shoe::Infinite,
        }
    }

    pub(super) fn count(&self, rank: usize) -> f64 {
        match self {
            Base::Finite { counts, .. } => f64::from(counts[rank]),
            Base::Infinite => infinite_probability(rank),
        }
    }

    pub(super) fn total(&self) -> f64 {
        match self {
            Base::Finite { total, .. } => f64::from(*total),
            Base::Infinite => 1.0,
        }
    }
}

/// Dealer outcomes for one upcard by the exact shoe they are dealt from, shared by
/// contexts whose shoes overlap: the optimal split values thousands of shoes that differ
/// by a few cards, and many hands in them leave the dealer the same cards. A value depends
/// only on its key, so clearing the map when full changes no result, only the time.
pub(super) struct DealerMemo {
    map: HashMap<u128, Outcomes, std::hash::BuildHasherDefault<ShoeHasher>>,
    /// Most shoes held at once (bounds the memory: about 100 bytes per shoe).
    limit: usize,
}

impl DealerMemo {
    pub(super) fn shared(limit: usize) -> Rc<RefCell<DealerMemo>> {
        Rc::new(RefCell::new(DealerMemo {
            map: HashMap::default(),
            limit,
        }))
    }

    /// Shoes held now (for tests).
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.map.len()
    }
}

/// The memo's hash of a shoe key: one multiply-and-fold per half (the keys are small,
/// trusted counts, so a keyed hash against collision attacks buys nothing here and cost
/// a tenth of the analysis).
#[derive(Default)]
pub(super) struct ShoeHasher(u64);

impl std::hash::Hasher for ShoeHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, word: u64) {
        const K: u64 = 0x9e37_79b9_7f4a_7c15;
        self.0 = (self.0.rotate_left(26) ^ word).wrapping_mul(K);
    }

    fn write_u128(&mut self, word: u128) {
        self.write_u64(word as u64);
        self.write_u64((word >> 64) as u64);
    }
}

/// Shoes whose dealer outcomes [`Context::prefill_stands`] computes side by side.
const LANES: usize = 4;

/// Stand EVs against one upcard from one base shoe, computed on demand and kept.
pub(super) struct Context {
    pub(super) upcard: usize,
    pub(super) base: Base,
    peek: bool,
    pub(super) dealer: &'static DealerTable,
    stand: Vec<f64>,
    /// An infinite shoe's dealer outcomes, which no hand changes.
    fixed: Option<Outcomes>,
    /// Dealer outcomes shared with other contexts of the same upcard, if any.
    memo: Option<Rc<RefCell<DealerMemo>>>,
}

impl Context {
    pub(super) fn new(rules: &BlackjackRules, upcard: usize, base: Base) -> Context {
        Context {
            upcard,
            base,
            peek: rules.dealer_peeks,
            dealer: DealerTable::get(rules.dealer_hits_soft_17),
            stand: vec![f64::NAN; Hands::get().len()],
            fixed: None,
            memo: None,
        }
    }

    /// The same context, reading and filling `memo` for its dealer outcomes (a finite
    /// shoe's; every context sharing a memo must have the same upcard and soft-17 rule).
    pub(super) fn with_memo(mut self, memo: &Rc<RefCell<DealerMemo>>) -> Context {
        self.memo = Some(Rc::clone(memo));
        self
    }

    /// A context for another shoe, against the same upcard under the same rules, sharing
    /// this one's memo (a split's shoes overlap the unsplit hand's).
    pub(super) fn sibling(&self, base: Base) -> Context {
        Context {
            upcard: self.upcard,
            base,
            peek: self.peek,
            dealer: self.dealer,
            stand: vec![f64::NAN; Hands::get().len()],
            fixed: None,
            memo: self.memo.clone(),
        }
    }

    /// The memo's key for a finite shoe: ten counts of a byte each in one u128 (8 decks
    /// hold 128 ten-valued cards); none for a shoe with more, or without a memo.
    fn memo_key(&self, shoe: &Shoe) -> Option<u128> {
        let (Some(_), Shoe::Finite(counts)) = (&self.memo, shoe) else {
            return None;
        };
        counts.iter().try_fold(0u128, |k, &c| {
            u8::try_from(c).ok().map(|c| (k << 8) | u128::from(c))
        })
    }

    /// The memo's outcomes for `key`, if it holds them.
    fn memo_get(&self, key: Option<u128>) -> Option<Outcomes> {
        let (Some(memo), Some(key)) = (&self.memo, key) else {
            return None;
        };
        memo.borrow().map.get(&key).copied()
    }

    /// Keeps `d` under `key` (emptying a full memo first: a value depends only on its key).
    fn memo_put(&self, key: Option<u128>, d: Outcomes) {
        let (Some(memo), Some(key)) = (&self.memo, key) else {
            return;
        };
        let mut memo = memo.borrow_mut();
        if memo.map.len() >= memo.limit {
            memo.map.clear();
        }
        memo.map.insert(key, d);
    }

    /// The dealer's outcomes once `hand` has left this context's shoe.
    fn dealer_outcomes(&self, hand: &Hand) -> Outcomes {
        let shoe = self.base.shoe(hand);
        let key = self.memo_key(&shoe);
        if let Some(d) = self.memo_get(key) {
            return d;
        }
        let d = self.dealer.outcomes(&shoe, self.upcard);
        self.memo_put(key, d);
        d
    }

    /// EV of standing on hand `h` (a bust hand is −1 and never gets here).
    ///
    /// When the dealer peeks this is E[result · 1(no dealer blackjack)]: the hole card is
    /// an unseen card, exchangeable with the player's draws, so the player draws from the
    /// shoe as it is and a dealer blackjack simply contributes nothing. Dividing by the
    /// chance of no blackjack given the first two cards gives the conditioned EV; every
    /// comparison between actions on one hand is unaffected by that common factor.
    pub(super) fn stand(&mut self, h: u32) -> f64 {
        let v = self.stand[h as usize];
        if !v.is_nan() {
            return v;
        }
        let hand = Hands::get().hand(h);
        let d = match (self.base, self.fixed) {
            (Base::Infinite, Some(d)) => d,
            _ => {
                let d = self.dealer_outcomes(hand);
                if let Base::Infinite = self.base {
                    self.fixed = Some(d);
                }
                d
            }
        };
        let ev = self.stand_value(hand, &d);
        self.stand[h as usize] = ev;
        ev
    }

    /// Standing on `hand` against the dealer's outcomes `d`.
    fn stand_value(&self, hand: &Hand, d: &Outcomes) -> f64 {
        let mut ev = d[OUTCOME_BUST];
        if !self.peek {
            ev -= d[OUTCOME_BLACKJACK];
        }
        for (k, &p) in d[..OUTCOME_BUST].iter().enumerate() {
            ev += match hand.total.cmp(&(17 + k as u8)) {
                std::cmp::Ordering::Greater => p,
                std::cmp::Ordering::Less => -p,
                std::cmp::Ordering::Equal => 0.0,
            };
        }
        ev
    }

    /// Computes the stand values of `hands` not yet known, the dealer's outcomes of
    /// [`LANES`] shoes at a time ([`DealerTable::outcomes_lanes`]: each bit for bit what
    /// one at a time gives), so that later [`Context::stand`] calls find them. An infinite
    /// shoe's dealer outcomes are one for every hand: nothing is done ahead.
    pub(super) fn prefill_stands(&mut self, hands: impl IntoIterator<Item = u32>) {
        if matches!(self.base, Base::Infinite) {
            return;
        }
        let g = Hands::get();
        let mut batch = [(0u32, None::<u128>, [0u32; RANKS]); LANES];
        let mut filled = 0;
        for h in hands {
            let hand = g.hand(h);
            if !self.stand[h as usize].is_nan() || !self.base.feasible(hand) {
                continue;
            }
            let shoe = self.base.shoe(hand);
            let key = self.memo_key(&shoe);
            if let Some(d) = self.memo_get(key) {
                self.stand[h as usize] = self.stand_value(hand, &d);
                continue;
            }
            let Shoe::Finite(counts) = shoe else {
                continue;
            };
            batch[filled] = (h, key, counts);
            filled += 1;
            if filled == LANES {
                self.settle(&batch);
                filled = 0;
            }
        }
        for &(h, ..) in &batch[..filled] {
            self.stand(h);
        }
    }

    /// Computes ahead the stand values that playing each hand of `starts` will ask for:
    /// its first action (stand, hit or double), then hitting while `hits` says so (what
    /// [`Context::stand`], [`Context::hit`] and [`Context::double`] then read).
    pub(super) fn prefill_play(&mut self, starts: &[(u32, Action)], hits: &[bool]) {
        if matches!(self.base, Base::Infinite) {
            return;
        }
        let g = Hands::get();
        let base = self.base;
        let children = |h: u32| {
            (0..RANKS)
                .filter(move |&r| base.draw(g.hand(h), r) > 0.0)
                .map(move |r| g.child(h, r))
                .filter(|&c| c != hands::BUSTED)
        };
        let mut seen = vec![false; g.len()];
        let mut need = Vec::new();
        let mut stack = Vec::new();
        for &(h, first) in starts {
            match first {
                Action::Stand => need.push(h),
                Action::Double => need.extend(children(h)),
                Action::Hit => stack.extend(children(h)),
                Action::Split | Action::Surrender => {}
            }
        }
        while let Some(c) = stack.pop() {
            if std::mem::replace(&mut seen[c as usize], true) {
                continue;
            }
            if hits[c as usize] {
                stack.extend(children(c));
            } else {
                need.push(c);
            }
        }
        // A hand may be reached more than one way; valued once.
        need.sort_unstable();
        need.dedup();
        self.prefill_stands(need);
    }

    /// Values a full batch of hands' stand EVs (see [`Context::prefill_stands`]).
    fn settle(&mut self, batch: &[(u32, Option<u128>, [u32; RANKS]); LANES]) {
        let shoes = batch.map(|(_, _, counts)| counts);
        let outcomes = self.dealer.outcomes_lanes(&shoes, self.upcard);
        let g = Hands::get();
        for (&(h, key, _), d) in batch.iter().zip(outcomes) {
            self.memo_put(key, d);
            self.stand[h as usize] = self.stand_value(g.hand(h), &d);
        }
    }

    /// Value of busting after drawing `rank` to hand `h`: −1, or with a peek
    /// −P(no dealer blackjack), since a dealer blackjack would have ended the round first.
    pub(super) fn bust(&self, h: u32, rank: usize) -> f64 {
        if !self.peek {
            return -1.0;
        }
        let hole = match self.upcard {
            ACE => TEN,
            TEN => ACE,
            _ => return -1.0,
        };
        let p = match self.base {
            Base::Finite { counts, total } => {
                let hand = Hands::get().hand(h);
                let held = u32::from(hand.counts[hole]) + u32::from(rank == hole);
                let left = total - u32::from(hand.cards) - 1;
                f64::from(counts[hole] - held) / f64::from(left)
            }
            Base::Infinite => infinite_probability(hole),
        };
        -(1.0 - p)
    }

    /// Σ over the next card of its probability times `then(child)`, or the bust value.
    fn next_card(&mut self, h: u32, mut then: impl FnMut(&mut Context, u32) -> f64) -> f64 {
        let g = Hands::get();
        let mut ev = 0.0;
        for r in 0..RANKS {
            let p = self.base.draw(g.hand(h), r);
            if p > 0.0 {
                let c = g.child(h, r);
                ev += p * if c == hands::BUSTED {
                    self.bust(h, r)
                } else {
                    then(self, c)
                };
            }
        }
        ev
    }

    /// EV of doubling `h`: one card, then stand, at twice the stake.
    pub(super) fn double(&mut self, h: u32) -> f64 {
        2.0 * self.next_card(h, |ctx, c| ctx.stand(c))
    }

    /// EV of hitting `h`, then hitting again while `hits` says so. `memo` holds values of
    /// hands already played under `hits` from this base (NaN = not yet).
    pub(super) fn hit(&mut self, h: u32, hits: &[bool], memo: &mut [f64]) -> f64 {
        self.next_card(h, |ctx, c| ctx.play(c, hits, memo))
    }

    fn play(&mut self, h: u32, hits: &[bool], memo: &mut [f64]) -> f64 {
        let v = memo[h as usize];
        if !v.is_nan() {
            return v;
        }
        let v = if hits[h as usize] {
            self.hit(h, hits, memo)
        } else {
            self.stand(h)
        };
        memo[h as usize] = v;
        v
    }
}

/// The optimal stand-or-hit play of every hand against one upcard.
pub(super) struct StandOrHit {
    /// Value of hitting once, then playing optimally.
    pub(super) hit_ev: Vec<f64>,
    /// Whether optimal play hits the hand.
    pub(super) hits: Vec<bool>,
}

/// Whether hitting `hand` dominates standing (see [`stand_or_hit`]).
fn is_safe(hand: &Hand) -> bool {
    hand.cards >= 3 && (hand.soft || hand.hard <= 11) && hand.total <= 16
}

/// Solves stand-or-hit for every hand dealt from `ctx`'s shoe (only those holding rank
/// `only`, when given: the hands of a split), children first: a hand's hit value needs
/// the best play of every hand one card larger.
pub(super) fn stand_or_hit(ctx: &mut Context, only: Option<usize>) -> StandOrHit {
    let g = Hands::get();
    let n = g.len();
    let base = ctx.base;
    let mut best_play = vec![0.0f64; n];
    let mut hit_ev = vec![f64::NAN; n];
    let mut hits = vec![false; n];
    // The stand values the loop below asks for, computed ahead in batches.
    ctx.prefill_stands((0..n as u32).rev().filter(|&h| {
        let hand = g.hand(h);
        base.feasible(hand)
            && only.is_none_or(|r| hand.counts[r] != 0)
            && hand.cards >= 2
            && !is_safe(hand)
    }));
    for h in (0..n as u32).rev() {
        let hand = g.hand(h);
        if !base.feasible(hand) || only.is_some_and(|r| hand.counts[r] == 0) {
            continue;
        }
        let mut hit = 0.0;
        for r in 0..RANKS {
            let p = base.draw(hand, r);
            if p > 0.0 {
                let c = g.child(h, r);
                hit += p * if c == hands::BUSTED {
                    ctx.bust(h, r)
                } else {
                    best_play[c as usize]
                };
            }
        }
        hit_ev[h as usize] = hit;
        // Hitting dominates standing when the next card cannot bust the hand and its
        // total is 16 or less: standing then wins only on a dealer bust, and hitting and
        // standing after keeps that chance (the dealer's odds are a martingale in the
        // player's draws) while winning more. Skipping these stand values saves a third
        // of the dealer evaluations; two-card hands keep theirs for the tables.
        if hand.cards < 2 || is_safe(hand) {
            best_play[h as usize] = hit;
            hits[h as usize] = true;
            continue;
        }
        let stand = ctx.stand(h);
        let hit_better = hand.total < 21 && hit > stand;
        hits[h as usize] = hit_better;
        best_play[h as usize] = if hit_better { hit } else { stand };
    }
    StandOrHit { hit_ev, hits }
}
