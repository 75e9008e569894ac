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
    /// Whether the dealer's outcomes are summed in the faster order
    /// ([`DealerTable::outcomes_regrouped`]) rather than the tables' order.
    regrouped: bool,
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
            regrouped: false,
        }
    }

    /// The same context, summing the dealer's outcomes in the faster order, which agrees
    /// with the tables' to rounding, not to the bit (for the sampled count indices).
    pub(super) fn regrouped(mut self) -> Context {
        self.regrouped = true;
        self
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
            regrouped: self.regrouped,
        }
    }

    /// The dealer's outcomes from `shoe`, in this context's order of summation.
    fn evaluate(&self, shoe: &Shoe) -> Outcomes {
        if self.regrouped {
            self.dealer.outcomes_regrouped(shoe, self.upcard)
        } else {
            self.dealer.outcomes(shoe, self.upcard)
        }
    }

    /// The dealer's outcomes once `hand` has left this context's shoe.
    fn dealer_outcomes(&self, hand: &Hand) -> Outcomes {
        let shoe = self.base.shoe(hand);
        // Ten counts of a byte each pack into one u128 key (8 decks hold 128 ten-valued
        // cards); a shoe with more is valued without the memo.
        let (Some(memo), Shoe::Finite(counts)) = (&self.memo, &shoe) else {
            return self.evaluate(&shoe);
        };
        let Some(key) = counts.iter().try_fold(0u128, |k, &c| {
            u8::try_from(c).ok().map(|c| (k << 8) | u128::from(c))
        }) else {
            return self.evaluate(&shoe);
        };
        if let Some(d) = memo.borrow().map.get(&key) {
            return *d;
        }
        let d = self.evaluate(&shoe);
        let mut memo = memo.borrow_mut();
        if memo.map.len() >= memo.limit {
            memo.map.clear();
        }
        memo.map.insert(key, d);
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
        self.stand[h as usize] = ev;
        ev
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
        let safe = hand.cards >= 3 && (hand.soft || hand.hard <= 11) && hand.total <= 16;
        if hand.cards < 2 || safe {
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
