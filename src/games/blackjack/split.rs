//! The exact EV of splitting a pair, resplits included, for a stated post-split strategy.
//!
//! # The deal
//! The pair is split into two hands, each holding one pair card. Hands take their second
//! card in turn, first hand first (the casino order): a pair card drawn while fewer than
//! `max_split_hands` hands exist, where the rules allow resplitting that pair, starts a
//! new hand and the hand draws again; any other card (or a pair card once no resplit is
//! allowed) completes the hand's first two cards, and the hand is played to the end before
//! the next hand takes its second card. The dealer then plays out. The EV is the sum of
//! the results of all hands, in units of the initial bet, as E[result · 1(no dealer
//! blackjack)] when the dealer peeks (the caller divides by the chance of no blackjack).
//!
//! # The method
//! Call each second-card draw `P` (a pair card) or `N` (another card). The sequence of
//! `P`/`N` draws, the *pattern*, fixes how many hands there are and which hand holds which
//! draw; nothing else does. Three facts make the EV a short sum:
//! 1. **Order does not matter.** Cards are dealt from a well-shuffled shoe, so the chance
//!    of any sequence of cards depends only on the multiset dealt. When several players
//!    take blocks of cards, each stopping by a rule that looks only at its own block (a
//!    hand's hits, the dealer's draws), the joint law of the blocks is the same whatever
//!    order they take them in. Given the pattern, every post-split hand plays by a rule
//!    that looks only at its own cards (and at the pattern, for CDP), so one hand's result
//!    can be computed as if it were dealt first, then the dealer, then everything else.
//! 2. **An unseen card changes nothing.** A card taken from the shoe and never looked at
//!    leaves the law of the cards after it unchanged.
//! 3. **`N` is "not `P`".** For the other hands' `N` draws, write 1(N) = 1 − 1(P) and
//!    expand: each term asks some draws to be pair cards and leaves the rest unseen (fact
//!    2), so it is the chance ρ(n) that `n` given cards are all pair cards times a hand
//!    valued from the shoe less `n` pair cards.
//!
//! So one hand whose pattern has `K` other `P` draws and `J` other `N` draws is worth
//! Σₜ (−1)ᵗ C(J, t) ρ(K + t) U(K + t), where U(n) is the hand (its second card an `N` or a
//! `P`, with that card's chance) played out from the shoe less the upcard, both pair cards
//! and `n` more pair cards. The split EV is that sum over every pattern and every hand in
//! it. It is exact: no card dealt to any hand is left in the shoe by convention. An
//! infinite shoe has ρ(n) = πⁿ and the sum collapses to the familiar independent formula.
//! Without resplitting the two hands are exchangeable and the sum is twice one hand dealt
//! from the shoe less both pair cards.
//!
//! # Post-split strategies
//! A hand's play is the first decision on its two cards (stand, hit, or double when DAS
//! allows; split aces stand unless `hit_split_aces`) and then hit-or-stand by its cards:
//! - CDZ-: the play of an unsplit hand of the same cards (shoe less the upcard and the
//!   hand's cards);
//! - CDP1: the play that is optimal from the shoe less the upcard, both pair cards and the
//!   hand's cards, for every split hand;
//! - CDP: Eric Farmer's definition, computed as his calculator computes it
//!   ([`Splitter::farmer_sum`]): the split is written as a sum of one-hand values, each
//!   from the shoe less the upcard and some number of pair cards (the ones that started
//!   hands, and more from expanding other hands' non-pair cards as 1 − 1(pair card)), and
//!   each value is played as is optimal from its own shoe. CDP is CDP1 when no resplit is
//!   allowed. Its terms are played differently, so the sum is the standard calculators'
//!   CDP figure, not the EV of one play that a deal could check; with one play for every
//!   term the same sum is that play's exact EV (a test holds it to the pattern sum);
//! - a chart: the basic strategy chart's total-dependent play.
//!
//! Resplitting happens whenever allowed (or, for a chart, when the chart splits the pair).

use std::collections::HashMap;

use cardtables::blackjack::{Action, RANKS};

use super::context::{best, stand_or_hit, Base, Context, StandOrHit};
use super::hands::{Hands, ACE};
use super::rules::{BlackjackRules, Double, PostSplit};

/// The decisions of a post-split hand: the first one on {pair, x} by `x`, then whether to
/// hit each hand (by hand index).
pub(super) struct Play {
    pub first: [Action; RANKS],
    pub hits: Vec<bool>,
}

/// Which play a post-split hand uses, as the caches key it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Strategy {
    /// CDZ-: the unsplit hand's play, given by the caller.
    Unsplit,
    /// A basic strategy chart's play, given by the caller.
    Chart,
    /// The play optimal at split level `h` (the shoe less `h` pair cards, the hand's own
    /// first card among them): CDP1 at level 2, CDP at the number of hands formed.
    Level(usize),
}

impl Strategy {
    fn slot(self) -> usize {
        match self {
            Strategy::Unsplit => 0,
            Strategy::Chart => 1,
            Strategy::Level(h) => 1 + h,
        }
    }
}

/// How the split's hands choose their play.
#[derive(Clone, Copy)]
pub(super) enum Mode<'a> {
    /// Every hand plays `play` (the unsplit hands' play, or a chart's).
    Fixed(Strategy, &'a Play),
    /// The rule's post-split strategy, optimal at a split level (CDP1, CDP).
    Optimal(PostSplit, &'a Play),
}

/// Whether the rules let the first two cards be doubled.
pub(super) fn may_double(rules: &BlackjackRules, hand: &super::hands::Hand) -> bool {
    match rules.double {
        Double::AnyTwo => true,
        Double::NineToEleven => !hand.soft && (9..=11).contains(&hand.total),
        Double::TenOrEleven => !hand.soft && (10..=11).contains(&hand.total),
    }
}

/// The first decision on each post-split hand {pair, x} that maximises its own EV from
/// `ctx`: stand, hit (then `soh`'s play) or, with DAS, double. Split aces stand unless the
/// rules let them be hit; 21 stands, as it does everywhere in the analysis.
pub(super) fn optimal_first(
    rules: &BlackjackRules,
    pair: usize,
    ctx: &mut Context,
    soh: &StandOrHit,
) -> [Action; RANKS] {
    let g = Hands::get();
    let mut first = [Action::Stand; RANKS];
    if pair == ACE && !rules.hit_split_aces {
        return first;
    }
    for (x, slot) in first.iter_mut().enumerate() {
        let h = g.pair(pair, x);
        if !ctx.base.feasible(g.hand(h)) {
            continue;
        }
        if g.hand(h).total == 21 {
            continue; // 21 stands (a split hand's 21 is not a natural)
        }
        let mut evs = [f64::NAN; cardtables::blackjack::ACTIONS];
        evs[Action::Stand as usize] = ctx.stand(h);
        evs[Action::Hit as usize] = soh.hit_ev[h as usize];
        if rules.double_after_split && may_double(rules, g.hand(h)) {
            evs[Action::Double as usize] = ctx.double(h);
        }
        *slot = best(&evs).0;
    }
    first
}

/// A complete pattern of second-card draws: how many were pair cards and how many not,
/// and each hand's second card (`true` = a pair card) with the number of hands split so
/// far when it takes that card (the pair cards removed by splitting, which CDP sees).
struct Pattern {
    pairs: usize,
    others: usize,
    hands: Vec<(bool, usize)>,
}

/// Every pattern of a split with resplits up to `max_hands` hands (when `resplit`).
fn patterns(max_hands: usize, resplit: bool) -> Vec<Pattern> {
    fn walk(
        max_hands: usize,
        resplit: bool,
        (waiting, hands, pairs, others): (usize, usize, usize, usize),
        done: &mut Vec<(bool, usize)>,
        out: &mut Vec<Pattern>,
    ) {
        if waiting == 0 {
            out.push(Pattern {
                pairs,
                others,
                hands: done.clone(),
            });
            return;
        }
        // The hand in play draws a non-pair card: its first two cards are complete.
        done.push((false, hands));
        walk(
            max_hands,
            resplit,
            (waiting - 1, hands, pairs, others + 1),
            done,
            out,
        );
        done.pop();
        // It draws a pair card: a new hand, or the hand's second card.
        if resplit && hands < max_hands {
            walk(
                max_hands,
                resplit,
                (waiting + 1, hands + 1, pairs + 1, others),
                done,
                out,
            );
        } else {
            done.push((true, hands));
            walk(
                max_hands,
                resplit,
                (waiting - 1, hands, pairs + 1, others),
                done,
                out,
            );
            done.pop();
        }
    }
    let mut out = Vec::new();
    walk(max_hands, resplit, (2, 2, 0, 0), &mut Vec::new(), &mut out);
    out
}

/// C(n, k) for the small n of a split (at most 8).
fn choose(n: usize, k: usize) -> f64 {
    (0..k).fold(1.0, |c, i| c * (n - i) as f64 / (i + 1) as f64)
}

/// The split of one pair against one upcard: the shoes with more pair cards removed, the
/// plays optimal at each of them, and hand values by (play, level), all kept.
pub(super) struct Splitter {
    pair: usize,
    infinite: bool,
    /// Pair cards and all cards in the shoe less the upcard and both pair cards.
    n_pair: f64,
    n_all: f64,
    /// Per rank: cards of it in that shoe (finite) or its probability (infinite).
    count: [f64; RANKS],
    /// `levels[h]`: the shoe less the upcard and `h − 1` pair cards, from which a hand
    /// holding one more pair card is played while `h` pair cards are out.
    levels: Vec<Option<Context>>,
    /// `plays[h]`: the play optimal at level `h`.
    plays: Vec<Option<Play>>,
    /// `values[strategy slot][h][x]`: the raw EV of {pair, x} played from level `h`.
    values: Vec<Vec<Option<[f64; RANKS]>>>,
}

impl Splitter {
    pub fn new(pair: usize, main: &Context) -> Splitter {
        let infinite = matches!(main.base, Base::Infinite);
        let count = std::array::from_fn(|r| {
            if infinite {
                super::dealer::infinite_probability(r)
            } else {
                main.base.count(r) - if r == pair { 2.0 } else { 0.0 }
            }
        });
        Splitter {
            pair,
            infinite,
            n_pair: count[pair],
            n_all: if infinite {
                1.0
            } else {
                main.base.total() - 2.0
            },
            count,
            levels: Vec::new(),
            plays: Vec::new(),
            values: Vec::new(),
        }
    }

    /// The chance that `n` given cards of the shoe (less the upcard and both pair cards)
    /// are all pair cards.
    fn all_pairs(&self, n: usize) -> f64 {
        if self.infinite {
            return self.n_pair.powi(n as i32);
        }
        (0..n).fold(1.0, |rho, j| {
            let left = self.n_pair - j as f64;
            if left <= 0.0 {
                0.0
            } else {
                rho * left / (self.n_all - j as f64)
            }
        })
    }

    /// The chance that the next card is `x` once `n` more pair cards are out.
    fn draw(&self, x: usize, n: usize) -> f64 {
        if self.infinite {
            return self.count[x];
        }
        let all = self.n_all - n as f64;
        let of_x = self.count[x] - if x == self.pair { n as f64 } else { 0.0 };
        if all <= 0.0 || of_x <= 0.0 {
            0.0
        } else {
            of_x / all
        }
    }

    fn level(&mut self, main: &Context, h: usize) -> &mut Context {
        // An infinite shoe is the same at every level.
        let h = if self.infinite { 2 } else { h };
        if self.levels.len() <= h {
            self.levels.resize_with(h + 1, || None);
        }
        let pair = self.pair;
        self.levels[h].get_or_insert_with(|| main.sibling(main.base.without(pair, (h - 1) as u32)))
    }

    /// The play optimal at level `h`, computed once.
    fn ensure_play(&mut self, rules: &BlackjackRules, main: &Context, h: usize) {
        let h = if self.infinite { 2 } else { h };
        if self.plays.len() <= h {
            self.plays.resize_with(h + 1, || None);
        }
        if self.plays[h].is_some() {
            return;
        }
        let pair = self.pair;
        let ctx = self.level(main, h);
        let soh = stand_or_hit(ctx, Some(pair));
        let first = optimal_first(rules, pair, ctx, &soh);
        self.plays[h] = Some(Play {
            first,
            hits: soh.hits,
        });
    }

    /// Raw EVs of every {pair, x} played by `strategy` from level `h` (0 where x cannot be
    /// dealt there).
    fn values(
        &mut self,
        rules: &BlackjackRules,
        main: &Context,
        strategy: Strategy,
        given: &Play,
        h: usize,
        memo: &mut [f64],
    ) -> [f64; RANKS] {
        let (slot, h) = if self.infinite {
            (
                match strategy {
                    Strategy::Level(_) => Strategy::Level(2).slot(),
                    s => s.slot(),
                },
                2,
            )
        } else {
            (strategy.slot(), h)
        };
        if let Some(Some(v)) = self.values.get(slot).and_then(|row| row.get(h)) {
            return *v;
        }
        if let Strategy::Level(at) = strategy {
            self.ensure_play(rules, main, at);
        }
        let pair = self.pair;
        let play_at = match strategy {
            Strategy::Level(at) => Some(if self.infinite { 2 } else { at }),
            _ => None,
        };
        // Take the play out while the level's context is borrowed.
        let owned = play_at.and_then(|at| self.plays[at].take());
        let play = owned.as_ref().unwrap_or(given);
        let g = Hands::get();
        let ctx = self.level(main, h);
        let starts: Vec<(u32, Action)> = (0..RANKS)
            .map(|x| (g.pair(pair, x), play.first[x]))
            .filter(|&(hand, _)| ctx.base.feasible(g.hand(hand)))
            .collect();
        ctx.prefill_play(&starts, &play.hits);
        memo.fill(f64::NAN);
        let mut v = [0.0; RANKS];
        for (x, slot_v) in v.iter_mut().enumerate() {
            let hand = g.pair(pair, x);
            if !ctx.base.feasible(g.hand(hand)) {
                continue;
            }
            *slot_v = match play.first[x] {
                Action::Stand => ctx.stand(hand),
                Action::Hit => ctx.hit(hand, &play.hits, memo),
                Action::Double => ctx.double(hand),
                other => unreachable!("{other:?} is not a post-split first decision"),
            };
        }
        if let (Some(at), Some(p)) = (play_at, owned) {
            self.plays[at] = Some(p);
        }
        if self.values.len() <= slot {
            self.values.resize(slot + 1, Vec::new());
        }
        if self.values[slot].len() <= h {
            self.values[slot].resize(h + 1, None);
        }
        self.values[slot][h] = Some(v);
        v
    }

    /// EV of splitting, summed over all hands (raw: E[result · 1(no dealer blackjack)]
    /// when the dealer peeks). `resplit`: whether the play resplits when the rules allow.
    pub fn ev(
        &mut self,
        rules: &BlackjackRules,
        main: &Context,
        mode: Mode,
        resplit: bool,
        memo: &mut [f64],
    ) -> f64 {
        let p = self.pair;
        let resplit = resplit && (p != ACE || rules.resplit_aces);
        if let (Mode::Optimal(PostSplit::Cdp, given), false) = (mode, self.infinite) {
            return self.farmer_sum(rules, main, given, resplit, memo, &|a| {
                Strategy::Level(a + 2)
            });
        }
        let max_hands = usize::from(rules.max_split_hands);
        let (given, strategy_of): (&Play, &dyn Fn(usize) -> Strategy) = match mode {
            Mode::Fixed(s, play) => (play, &move |_| s),
            Mode::Optimal(PostSplit::Cdz, play) => (play, &|_| Strategy::Unsplit),
            Mode::Optimal(PostSplit::Cdp1, play) => (play, &|_| Strategy::Level(2)),
            Mode::Optimal(PostSplit::Cdp, play) => (play, &Strategy::Level),
        };
        // Gather the terms of every hand of every pattern by (second card a pair card,
        // strategy, pair cards out): most cancel, and the rest need fewer shoes.
        let mut terms: Vec<(bool, Strategy, usize, i64)> = Vec::new();
        for pattern in patterns(max_hands, resplit) {
            for &(second_is_pair, before) in &pattern.hands {
                let (k, j) = if second_is_pair {
                    (pattern.pairs - 1, pattern.others)
                } else {
                    (pattern.pairs, pattern.others - 1)
                };
                let strategy = strategy_of(before);
                for t in 0..=j {
                    let ways = choose(j, t) as i64 * if t % 2 == 0 { 1 } else { -1 };
                    let key = (second_is_pair, strategy, k + t);
                    match terms.iter_mut().find(|e| (e.0, e.1, e.2) == key) {
                        Some(e) => e.3 += ways,
                        None => terms.push((key.0, key.1, key.2, ways)),
                    }
                }
            }
        }
        let mut total = 0.0;
        for (second_is_pair, strategy, n, ways) in terms {
            let rho = self.all_pairs(n);
            if ways == 0 || rho == 0.0 {
                continue;
            }
            let v = self.values(rules, main, strategy, given, n + 2, memo);
            let u: f64 = if second_is_pair {
                self.draw(p, n) * v[p]
            } else {
                (0..RANKS)
                    .filter(|&x| x != p)
                    .map(|x| self.draw(x, n) * v[x])
                    .sum()
            };
            total += ways as f64 * rho * u;
        }
        total
    }
}

impl Splitter {
    /// The split EV under CDP as Eric Farmer defines and computes it (his `computeSplit`,
    /// after his note on the split algorithm): a split into exactly `h` hands, or into the
    /// most hands with `k` completed before the last resplit, is a sum of hand values
    /// `X(a)` (a hand's second card unknown) and `P(a)` (it is a pair card), each from the
    /// shoe less the upcard and `a + 2` pair cards, reached by expanding every other
    /// hand's non-pair second card as 1 − 1(pair card); and every `X(a)`, `P(a)` is played
    /// as is optimal from its own shoe. So the play differs from term to term, and the sum
    /// is the figure of his calculator rather than the EV of one play; with a play that
    /// does not change with `a` (CDZ-, CDP1) the same sum is that play's exact EV.
    /// `strategy(a)`: the play of the terms with `a` more pair cards out (CDP: optimal at
    /// level `a + 2`). For a finite shoe.
    pub(super) fn farmer_sum(
        &mut self,
        rules: &BlackjackRules,
        main: &Context,
        given: &Play,
        resplit: bool,
        memo: &mut [f64],
        strategy: &dyn Fn(usize) -> Strategy,
    ) -> f64 {
        let pair = self.pair;
        // Farmer's counts: the shoe less both pair cards, the upcard still in it.
        let (n, p) = (self.n_all + 1.0, self.n_pair);
        let max_hands = if resplit {
            usize::from(rules.max_split_hands)
        } else {
            2
        }
        .min((p + 2.0) as usize);
        if max_hands < 2 {
            return 0.0;
        }
        // X(a) and P(a), a hand's value with `a` more pair cards out.
        let mut x_of = vec![None; 2 * max_hands + 1];
        let mut value = |s: &mut Splitter, a: usize| -> (f64, f64) {
            *x_of[a].get_or_insert_with(|| {
                let v = s.values(rules, main, strategy(a), given, a + 2, memo);
                let x = (0..RANKS).map(|c| s.draw(c, a) * v[c]).sum();
                (x, v[pair])
            })
        };
        // EV[X; a, b] (`own_non_pair` false) and EV[N; a, b] (true): `b` other hands'
        // second cards known to be non-pair cards, and the hand's own second card unknown
        // or a non-pair card too. Each non-pair card is expanded as 1 − 1(pair card): v is
        // the chance that it is a pair card.
        #[allow(clippy::too_many_arguments)]
        fn ev(
            s: &mut Splitter,
            value: &mut dyn FnMut(&mut Splitter, usize) -> (f64, f64),
            (n, p): (f64, f64),
            own_non_pair: bool,
            weight: f64,
            a: usize,
            b: usize,
        ) -> f64 {
            if weight == 0.0 {
                return 0.0;
            }
            if b == 0 && !own_non_pair {
                return weight * value(s, a).0;
            }
            let v = (p - a as f64) / (n - f64::from(u8::from(own_non_pair)) - (a + b) as f64);
            if v >= 1.0 {
                return 0.0;
            }
            if b == 0 {
                let (x, at_pair) = value(s, a);
                return weight / (1.0 - v) * (x - v * at_pair);
            }
            ev(s, value, (n, p), own_non_pair, weight / (1.0 - v), a, b - 1)
                + ev(
                    s,
                    value,
                    (n, p),
                    own_non_pair,
                    weight * v / (v - 1.0),
                    a + 1,
                    b - 1,
                )
        }
        // The chance of drawing `pairs` pair cards, then `others` non-pair cards, from the
        // shoe less the upcard too.
        let chance = |pairs: usize, others: usize| {
            let n = n - 1.0;
            let (mut c, mut n, mut p, mut np) = (1.0, n, p, n - p);
            for _ in 0..pairs {
                c *= p / n;
                p -= 1.0;
                n -= 1.0;
            }
            for _ in 0..others {
                c *= np / n;
                np -= 1.0;
                n -= 1.0;
            }
            c
        };
        let mut total = 0.0;
        // Exactly h hands, fewer than the most: h − 2 resplits and h non-pair cards, in
        // h − 1 orders (the Catalan number, for h ≤ 3).
        for h in 2..max_hands {
            let q = (h - 1) as f64 * chance(h - 2, h);
            total += ev(self, &mut value, (n, p), true, q * h as f64, h - 2, h - 1);
        }
        // The most hands, k of them completed before the last resplit, in
        // (1 − k / (m − 1)) · C(m + k − 2, k) orders for m hands (1, or 2 for four hands
        // with k > 0).
        for k in 0..max_hands - 1 {
            let m = max_hands;
            let orders = (1.0 - k as f64 / (m - 1) as f64) * choose(m + k - 2, k);
            let r = orders * chance(max_hands - 2, k);
            if k > 0 {
                total += ev(
                    self,
                    &mut value,
                    (n, p),
                    true,
                    r * k as f64,
                    max_hands - 2,
                    k - 1,
                );
            }
            total += ev(
                self,
                &mut value,
                (n, p),
                false,
                r * (max_hands - k) as f64,
                max_hands - 2,
                k,
            );
        }
        total
    }
}

/// What finding the optimal two-hand split took, for the report and the benchmarks.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct OptimalStats {
    /// Distinct first-hand compositions (hands and busts) valued.
    pub first_hand_states: usize,
    /// Distinct shoes the second hand was played from.
    pub second_hand_shoes: usize,
}

/// The truly optimal play of a split into two hands (no resplitting): every decision
/// may use every card seen. Returns the raw EV (E[result · 1(no dealer blackjack)], both
/// hands) and what it took.
///
/// The first hand is played to the end, then the second (the casino order). The second
/// hand's best play is the composition-dependent optimum from the shoe its predecessor
/// left: nothing else is left to choose. The first hand's decisions weigh its own result
/// (valued as if the dealer drew before the second hand, which the order argument of
/// this module allows) plus the value of the second hand from the shoe it leaves, so a
/// first hand may hit or stand to leave the second hand a better shoe. States are the
/// first hand's compositions; the second hand's value is kept per composition.
///
/// Every context of the search shares `main`'s dealer memo, if it has one: the first and
/// second hands' shoes overlap heavily, within one pair and across pairs.
pub(super) fn optimal_two_hands(
    rules: &BlackjackRules,
    main: &Context,
    pair: usize,
) -> (f64, OptimalStats) {
    let g = Hands::get();
    let mut search = OptimalSearch {
        rules,
        main,
        pair,
        one_card: pair == ACE && !rules.hit_split_aces,
        // The first hand draws from the shoe less the second hand's pair card.
        first: main.sibling(main.base.without(pair, 1)),
        best: HashMap::new(),
        second: HashMap::new(),
        stats: OptimalStats::default(),
    };
    let mut total = 0.0;
    for x in 0..RANKS {
        let p = search.first.base.draw(g.hand(g.single(pair)), x);
        if p > 0.0 {
            total += p * search.best_from(g.pair(pair, x), true);
        }
    }
    search.stats.second_hand_shoes = search.second.len();
    (total, search.stats)
}

/// The search of [`optimal_two_hands`] for one pair and upcard.
struct OptimalSearch<'a> {
    rules: &'a BlackjackRules,
    main: &'a Context,
    pair: usize,
    /// Split aces that take one card each.
    one_card: bool,
    /// The first hand's shoe.
    first: Context,
    /// The best total from each first-hand composition of three or more cards.
    best: HashMap<u32, f64>,
    /// The second hand's optimal value by the first hand's final cards.
    second: HashMap<[u8; RANKS], f64>,
    stats: OptimalStats,
}

impl OptimalSearch<'_> {
    /// The second hand's optimal raw EV once the first hand holds `counts` (an infinite
    /// shoe is the same whatever it holds).
    fn second_value(&mut self, counts: [u8; RANKS]) -> f64 {
        let key = if matches!(self.main.base, Base::Infinite) {
            [0; RANKS]
        } else {
            counts
        };
        if let Some(&v) = self.second.get(&key) {
            return v;
        }
        let g = Hands::get();
        let pair = self.pair;
        let mut ctx = self.main.sibling(self.main.base.less(&counts));
        let soh = stand_or_hit(&mut ctx, Some(pair));
        let firsts = optimal_first(self.rules, pair, &mut ctx, &soh);
        let mut v = 0.0;
        for (x, &action) in firsts.iter().enumerate() {
            let p = ctx.base.draw(g.hand(g.single(pair)), x);
            if p == 0.0 {
                continue;
            }
            let h = g.pair(pair, x);
            v += p * match action {
                Action::Stand => ctx.stand(h),
                Action::Double => ctx.double(h),
                _ => soh.hit_ev[h as usize],
            };
        }
        self.second.insert(key, v);
        v
    }

    /// The best total (both hands) with the first hand holding `h`; `two_cards`: its first
    /// decision, where doubling is allowed.
    fn best_from(&mut self, h: u32, two_cards: bool) -> f64 {
        if let Some(&v) = self.best.get(&h) {
            return v;
        }
        let g = Hands::get();
        let hand = *g.hand(h);
        self.stats.first_hand_states += 1;
        let mut best = self.first.stand(h) + self.second_value(hand.counts);
        if !(self.one_card || hand.total >= 21) {
            let (mut hit, mut double) = (0.0, 0.0);
            for r in 0..RANKS {
                let p = self.first.base.draw(&hand, r);
                if p == 0.0 {
                    continue;
                }
                let mut after = hand.counts;
                after[r] += 1;
                let leaves = self.second_value(after);
                let c = g.child(h, r);
                if c == super::hands::BUSTED {
                    let bust = self.first.bust(h, r);
                    hit += p * (bust + leaves);
                    double += p * (2.0 * bust + leaves);
                } else {
                    hit += p * self.best_from(c, false);
                    double += p * (2.0 * self.first.stand(c) + leaves);
                }
            }
            best = best.max(hit);
            if two_cards && self.rules.double_after_split && may_double(self.rules, &hand) {
                best = best.max(double);
            }
        }
        // A two-card hand is the first decision only (a hand grows by one card at a time).
        if !two_cards {
            self.best.insert(h, best);
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_count_the_ways_to_split() {
        // No resplit: each hand's second card is a pair card or not.
        assert_eq!(patterns(2, true).len(), 4);
        assert_eq!(patterns(4, false).len(), 4);
        // Pattern chances in an infinite shoe with pair chance q sum to one.
        for max in 2..=4 {
            let q: f64 = 0.3;
            let sum: f64 = patterns(max, true)
                .iter()
                .map(|p| q.powi(p.pairs as i32) * (1.0 - q).powi(p.others as i32))
                .sum();
            assert!((sum - 1.0).abs() < 1e-15, "{max}: {sum}");
            // Every pattern ends with every hand holding two cards.
            for p in patterns(max, true) {
                let hands = p.hands.len();
                assert!((2..=max).contains(&hands));
                let resplits = p.pairs - p.hands.iter().filter(|h| h.0).count();
                assert_eq!(hands, 2 + resplits);
                assert_eq!(p.others, p.hands.iter().filter(|h| !h.0).count());
            }
        }
    }

    #[test]
    fn choose_is_the_binomial_coefficient() {
        assert_eq!(choose(3, 0), 1.0);
        assert_eq!(choose(3, 2), 3.0);
        assert_eq!(choose(5, 2), 10.0);
        assert_eq!(choose(0, 0), 1.0);
    }
}
