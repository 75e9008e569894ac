//! The exact analysis of one rule set: the EV of every action for every two-card hand
//! against every upcard, the best composition-dependent play, the total-dependent basic
//! strategy chart derived from those EVs, and the EV of a whole round under each.
//!
//! Conventions (they are the usual ones of combinatorial analysers, and the report and the
//! tables state them):
//! - Finite shoes remove the upcard and the player's cards; an infinite shoe draws every
//!   rank with fixed probability.
//! - Per-hand EVs are in units of the initial bet and, when the dealer peeks, conditioned
//!   on the dealer not having blackjack (exactly: the player's later cards are drawn
//!   knowing the hole card does not complete a blackjack). Under early surrender the surrender column is put
//!   on the same footing: `(−½ + q) / (1 − q)` where `q` is the dealer's blackjack chance,
//!   so that it compares directly with the other columns.
//! - Play is composition-dependent: a hit is followed by the best stand-or-hit decision
//!   for the exact cards held.
//! - Splits resplit whenever allowed, up to `max_split_hands`; their EV is exact for the
//!   rules' post-split strategy (CDZ-, CDP1 or CDP), every card dealt to every hand
//!   removed from the shoe in the order it is dealt (the `split` module has the method).

use cardtables::blackjack::{Action, Cell, Row, ACTIONS, CHART_ROWS, NO_ACTION, RANKS};
use serde::{Deserialize, Serialize};

pub use super::context::{best, ActionEvs};
use super::context::{stand_or_hit, Base, Context, DealerMemo, StandOrHit};
use super::dealer::{infinite_probability, Outcomes};
use super::hands::{self, Hand, Hands, ACE, TEN};
use super::rules::{BlackjackRules, PostSplit, Surrender};
use super::split::{
    may_double, optimal_first, optimal_two_hands, Mode, OptimalStats, Play, Splitter, Strategy,
};

/// Most dealer outcomes kept per upcard (about 100 MB; the optimal split reaches that, the
/// rest of the analysis holds a few thousand).
const MEMO_SHOES: usize = 1 << 20;

/// Number of post-split strategies ([`PostSplit::ALL`]).
pub const MODES: usize = PostSplit::ALL.len();

/// Where a post-split strategy sits in [`PostSplit::ALL`].
pub fn mode_index(mode: PostSplit) -> usize {
    PostSplit::ALL.iter().position(|&m| m == mode).unwrap_or(0)
}

/// The result of analysing one upcard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UpcardAnalysis {
    /// Probability of this upcard from the full shoe.
    pub probability: f64,
    /// Dealer outcomes (17..21, bust, blackjack) from the shoe less the upcard.
    pub dealer: Outcomes,
    /// The same given no dealer blackjack.
    pub dealer_no_blackjack: Outcomes,
    /// Per starting hand (see [`hands::starting_hands`]); the split EV is the one of the
    /// rules' post-split strategy.
    pub hands: Vec<ActionEvs>,
    /// Per starting hand: the split EV under each post-split strategy, in
    /// [`PostSplit::ALL`] order (NaN where the hand cannot be split).
    pub split_by_mode: Vec<[f64; MODES]>,
    /// EV of a round with this upcard when splits are played optimally (NaN unless asked
    /// for).
    pub optimal_split_ev: f64,
    /// Per starting hand: the split EV under truly optimal play of two hands (NaN unless
    /// asked for, and for hands that are not pairs).
    pub optimal_split: Vec<f64>,
    /// What finding those optimal splits took.
    pub optimal_stats: OptimalStats,
    /// Per starting hand: probability of being dealt it with this upcard showing.
    pub deal_probability: Vec<f64>,
    /// EV of a round with this upcard under optimal composition-dependent play.
    pub optimal_ev: f64,
    /// The same with splits played under each post-split strategy ([`PostSplit::ALL`]).
    pub optimal_ev_by_mode: [f64; MODES],
    /// The same playing the basic strategy chart.
    pub chart_ev: f64,
}

/// The result of analysing one rule set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Analysis {
    pub upcards: Vec<UpcardAnalysis>,
    /// EV of a round (naturals and dealer blackjacks included), optimal play.
    pub optimal_ev: f64,
    /// The same with splits played under each post-split strategy ([`PostSplit::ALL`]).
    pub optimal_ev_by_mode: [f64; MODES],
    /// The same with splits played optimally, seeing every card (NaN unless asked for).
    pub optimal_split_ev: f64,
    /// What finding the optimal splits took, over all upcards.
    pub optimal_stats: OptimalStats,
    /// EV of a round playing the chart.
    pub chart_ev: f64,
    /// The basic strategy chart, `[row · 10 + upcard]` (see [`Row::index`]).
    pub chart: Vec<Cell>,
}

/// What an analysis computes beyond the rules' own play.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Options {
    /// The post-split strategies whose split EVs (and round EVs) are valued besides the
    /// rules' own one, by [`PostSplit::ALL`] position (the others are NaN).
    pub modes: [bool; MODES],
    /// The truly optimal two-hand split of every pair (`max_split_hands = 2` only).
    pub optimal_split: bool,
}

impl Options {
    /// Which post-split strategies are valued: those asked for and the rules' own.
    pub fn valued(&self, rules: &BlackjackRules) -> [bool; MODES] {
        std::array::from_fn(|m| self.modes[m] || PostSplit::ALL[m] == rules.post_split_strategy)
    }
}

/// Analyses one rule set, valuing splits under the rules' post-split strategy only (the
/// other strategies' split EVs and round EVs are NaN).
pub fn analyze(rules: &BlackjackRules) -> Analysis {
    analyze_with(rules, Options::default())
}

/// Analyses one rule set with the extra results `options` asks for.
pub fn analyze_with(rules: &BlackjackRules, options: Options) -> Analysis {
    let base = Base::of(rules);
    let mut chart = vec![[NO_ACTION; ACTIONS]; CHART_ROWS * RANKS];
    let upcards: Vec<UpcardAnalysis> = (0..RANKS)
        .map(|u| {
            let (a, column) = analyze_upcard(rules, base, u, options);
            for (row, cell) in column.into_iter().enumerate() {
                chart[row * RANKS + u] = cell;
            }
            a
        })
        .collect();
    let optimal_ev = upcards.iter().map(|u| u.probability * u.optimal_ev).sum();
    let optimal_ev_by_mode = std::array::from_fn(|m| {
        upcards
            .iter()
            .map(|u| u.probability * u.optimal_ev_by_mode[m])
            .sum()
    });
    let chart_ev = upcards.iter().map(|u| u.probability * u.chart_ev).sum();
    let optimal_split_ev = upcards
        .iter()
        .map(|u| u.probability * u.optimal_split_ev)
        .sum();
    let optimal_stats = upcards
        .iter()
        .fold(OptimalStats::default(), |s, u| OptimalStats {
            first_hand_states: s.first_hand_states + u.optimal_stats.first_hand_states,
            second_hand_shoes: s.second_hand_shoes + u.optimal_stats.second_hand_shoes,
        });
    Analysis {
        upcards,
        optimal_ev,
        optimal_ev_by_mode,
        optimal_split_ev,
        optimal_stats,
        chart_ev,
        chart,
    }
}

/// The analysis of one upcard dealt from a shoe of any composition (`full`: cards per
/// rank before the upcard), for tests on small shoes.
#[cfg(test)]
pub(super) fn analyze_upcard_from(
    rules: &BlackjackRules,
    full: [u32; RANKS],
    u: usize,
) -> UpcardAnalysis {
    let base = Base::Finite {
        counts: full,
        total: full.iter().sum(),
    };
    let options = Options {
        modes: [true; MODES],
        optimal_split: true,
    };
    analyze_upcard(rules, base, u, options).0
}

/// The dealer's chance of blackjack given the upcard and the player's two cards.
fn dealer_blackjack(base: Base, upcard: usize, a: usize, b: usize) -> f64 {
    let hole = match upcard {
        ACE => TEN,
        TEN => ACE,
        _ => return 0.0,
    };
    match base {
        Base::Finite { counts, total } => {
            // A hand holding more cards of the hole rank than the shoe has is never dealt
            // (its chance is 0): its figure is then 0, not an underflow.
            let held = u32::from(a == hole) + u32::from(b == hole);
            f64::from(counts[hole].saturating_sub(held)) / f64::from(total - 2)
        }
        Base::Infinite => infinite_probability(hole),
    }
}

/// The starting hands against one upcard, with what every later step needs of them.
struct Starts {
    /// `(a, b)` rank pairs, in `hands::starting_hands` order.
    pairs: Vec<(usize, usize)>,
    /// The dealer's chance of blackjack given each hand.
    q: Vec<f64>,
    /// The chance each hand is dealt.
    deal_probability: Vec<f64>,
}

impl Starts {
    fn new(base: Base, u: usize) -> Starts {
        let pairs: Vec<(usize, usize)> = hands::starting_hands().collect();
        let q = pairs
            .iter()
            .map(|&(a, b)| dealer_blackjack(base, u, a, b))
            .collect();
        let deal_probability = pairs
            .iter()
            .map(|&(a, b)| {
                let (na, nb, n) = (base.count(a), base.count(b), base.total());
                match base {
                    Base::Finite { .. } if a == b => na * (na - 1.0) / (n * (n - 1.0)),
                    Base::Finite { .. } => 2.0 * na * nb / (n * (n - 1.0)),
                    Base::Infinite if a == b => na * nb,
                    Base::Infinite => 2.0 * na * nb,
                }
            })
            .collect();
        Starts {
            pairs,
            q,
            deal_probability,
        }
    }

    /// The factor that turns E[result · 1(no dealer blackjack)] into a value conditioned
    /// on no dealer blackjack, when the dealer peeks (1 otherwise).
    fn scale(&self, rules: &BlackjackRules, i: usize) -> f64 {
        if rules.dealer_peeks {
            1.0 / (1.0 - self.q[i])
        } else {
            1.0
        }
    }

    /// The round's EV when hand `i` is worth `value(i)` (conditioned as the tables are),
    /// with naturals paid and dealer blackjacks taken.
    fn round_ev(&self, rules: &BlackjackRules, value: &dyn Fn(usize) -> f64) -> f64 {
        let q = &self.q;
        self.pairs
            .iter()
            .enumerate()
            .map(|(i, &(a, b))| {
                let p = self.deal_probability[i];
                if p == 0.0 {
                    return 0.0;
                }
                let v = if (a, b) == (ACE, TEN) {
                    (1.0 - q[i]) * rules.blackjack_pays
                } else if rules.dealer_peeks {
                    -q[i] + (1.0 - q[i]) * value(i)
                } else {
                    value(i)
                };
                p * v
            })
            .sum()
    }
}

/// The five actions' EVs of every starting hand with composition-dependent play, and the
/// split EVs under the post-split strategies `valued` (by [`PostSplit::ALL`] position).
#[allow(clippy::too_many_arguments)]
fn action_evs(
    rules: &BlackjackRules,
    main: &mut Context,
    base: Base,
    starts: &Starts,
    play: &StandOrHit,
    splitters: &mut [Splitter],
    memo: &mut [f64],
    valued: [bool; MODES],
) -> (Vec<ActionEvs>, Vec<[f64; MODES]>) {
    let g = Hands::get();
    let q = &starts.q;
    let surrender_allowed = rules.surrender != Surrender::None;
    let splits = rules.max_split_hands >= 2;
    let surrender_ev = |i: usize| {
        if rules.surrender == Surrender::Early && rules.dealer_peeks && q[i] > 0.0 {
            (-0.5 + q[i]) / (1.0 - q[i])
        } else {
            -0.5
        }
    };
    let mut evs: Vec<ActionEvs> = Vec::with_capacity(starts.pairs.len());
    let mut split_modes = vec![[f64::NAN; MODES]; starts.pairs.len()];
    for (i, &(a, b)) in starts.pairs.iter().enumerate() {
        let h = g.pair(a, b);
        let hand = *g.hand(h);
        let mut e = [f64::NAN; ACTIONS];
        if !base.feasible(&hand) {
            evs.push(e);
            continue;
        }
        if (a, b) == (ACE, TEN) {
            // A natural is paid at once; its only "action" is to take the payout (pushed by
            // a dealer blackjack, which the peek has ruled out when the dealer peeks).
            e[Action::Stand as usize] = if rules.dealer_peeks {
                rules.blackjack_pays
            } else {
                (1.0 - q[i]) * rules.blackjack_pays
            };
            evs.push(e);
            continue;
        }
        // Stand, hit, double and split values are E[result · 1(no dealer blackjack)]
        // when the dealer peeks: divide by the chance of no blackjack to condition.
        let scale = starts.scale(rules, i);
        e[Action::Stand as usize] = scale * main.stand(h);
        e[Action::Hit as usize] = scale * play.hit_ev[h as usize];
        if may_double(rules, &hand) {
            e[Action::Double as usize] = scale * main.double(h);
        }
        if surrender_allowed {
            e[Action::Surrender as usize] = surrender_ev(i);
        }
        if a == b && splits {
            let unsplit = Play {
                first: optimal_first(rules, a, main, play),
                hits: play.hits.clone(),
            };
            for ((slot, mode), &valued) in
                split_modes[i].iter_mut().zip(PostSplit::ALL).zip(&valued)
            {
                if !valued {
                    continue;
                }
                let raw = splitters[a].ev(rules, main, Mode::Optimal(mode, &unsplit), true, memo);
                *slot = scale * raw;
            }
            e[Action::Split as usize] = split_modes[i][mode_index(rules.post_split_strategy)];
        }
        evs.push(e);
    }
    (evs, split_modes)
}

/// Each starting hand's value when it is played by the chart `column` (total-dependent),
/// conditioned like the tables.
#[allow(clippy::too_many_arguments)]
fn chart_values(
    rules: &BlackjackRules,
    main: &mut Context,
    starts: &Starts,
    evs: &[ActionEvs],
    column: &[Cell],
    splitters: &mut [Splitter],
    memo: &mut [f64],
) -> Vec<f64> {
    let g = Hands::get();
    let surrender_allowed = rules.surrender != Surrender::None;
    let splits = rules.max_split_hands >= 2;
    let chart_hits = chart_hits_of(column);
    let mut values = vec![0.0; starts.pairs.len()];
    for (i, &(a, b)) in starts.pairs.iter().enumerate() {
        if starts.deal_probability[i] == 0.0 || (a, b) == (ACE, TEN) {
            continue;
        }
        let h = g.pair(a, b);
        let hand = *g.hand(h);
        let allowed = |action: Action| match action {
            Action::Stand | Action::Hit => true,
            Action::Double => may_double(rules, &hand),
            Action::Split => a == b && splits,
            Action::Surrender => surrender_allowed,
        };
        let cell = &column[row_of(&hand, a == b && splits)];
        let action = first_allowed(cell, allowed);
        values[i] = match action {
            Action::Stand => evs[i][Action::Stand as usize],
            Action::Double => evs[i][Action::Double as usize],
            Action::Surrender => evs[i][Action::Surrender as usize],
            Action::Hit => {
                memo.fill(f64::NAN);
                starts.scale(rules, i) * main.hit(h, &chart_hits, memo)
            }
            Action::Split => {
                starts.scale(rules, i)
                    * chart_split(
                        rules,
                        main,
                        column,
                        &chart_hits,
                        (a, &hand),
                        splitters,
                        memo,
                    )
            }
        };
    }
    values
}

/// Whether the chart hits each hand after its first decision (by hand index).
fn chart_hits_of(column: &[Cell]) -> Vec<bool> {
    let g = Hands::get();
    (0..g.len() as u32)
        .map(|h| {
            let hand = g.hand(h);
            hand.cards >= 2 && chart_hits_hand(column, hand)
        })
        .collect()
}

/// The raw EV (as [`Splitter::ev`]) of splitting `pair` and playing on by the chart
/// `column`: each post-split hand's first decision is its cell's first stand, hit or (with
/// DAS) double, later ones the chart's hit-or-stand, and the pair is resplit when the
/// chart's pair row says split.
#[allow(clippy::too_many_arguments)]
fn chart_split(
    rules: &BlackjackRules,
    main: &mut Context,
    column: &[Cell],
    chart_hits: &[bool],
    (a, hand): (usize, &Hand),
    splitters: &mut [Splitter],
    memo: &mut [f64],
) -> f64 {
    let g = Hands::get();
    let first = post_split_first(rules, a, |x| {
        let hx = g.hand(g.pair(a, x));
        let das = rules.double_after_split && may_double(rules, hx);
        let cell = &column[row_of(hx, false)];
        let mut order = [NO_ACTION; ACTIONS];
        let mut k = 0;
        for &c in cell.iter() {
            match Action::from_code(c) {
                Some(Action::Stand | Action::Hit) => {}
                Some(Action::Double) if das => {}
                _ => continue,
            }
            order[k] = c;
            k += 1;
        }
        order
    });
    let resplit = first_allowed(&column[row_of(hand, true)], |x| match x {
        Action::Stand | Action::Hit | Action::Split => true,
        Action::Double => rules.double_after_split && may_double(rules, hand),
        Action::Surrender => false,
    }) == Action::Split;
    let play = Play {
        first,
        hits: chart_hits.to_vec(),
    };
    splitters[a].ev(
        rules,
        main,
        Mode::Fixed(Strategy::Chart, &play),
        resplit,
        memo,
    )
}

/// One starting hand against one upcard, from one shoe, when the basic strategy chart is
/// played after its first decision.
#[derive(Clone, Copy, Debug)]
pub(super) struct ChartStart {
    /// The chance of being dealt it and of the round reaching a decision: the upcard's
    /// chance, the hand's, and (when the dealer peeks) no dealer blackjack. Zero for a
    /// natural, which has no decision.
    pub weight: f64,
    /// Its two cards' ranks.
    pub cards: (usize, usize),
    /// The chart row it is played by (its pair row when it may be split).
    pub row: usize,
    /// The chart's first action.
    pub chart: Action,
    /// Each first action's EV, conditioned like the tables, with every later decision the
    /// chart's (NaN where not allowed).
    pub evs: ActionEvs,
}

/// A hand of three or more cards against one upcard, from one shoe, that the chart
/// reaches by hitting: a later decision of a round whose starting hand the chart hit
/// (hands after a split are not among them). There the choice is stand or hit.
#[derive(Clone, Copy, Debug)]
pub(super) struct ChartLater {
    /// Its cards per rank.
    pub cards: [u8; RANKS],
    /// The chart row it is played by (hard or soft total).
    pub row: usize,
    /// Whether the chart hits it.
    pub chart_hits: bool,
    /// Per round: what standing on it, instead of hitting and then playing the chart,
    /// adds to the round's EV over every way the chart reaches it (negative where
    /// hitting is better). Taking the other play than the chart's changes the round's EV
    /// by this (chart hits) or by its negative (chart stands).
    pub stand_gain: f64,
}

/// Every starting hand against upcard `u` dealt from the shoe `full` (cards per rank
/// before the upcard), each first action followed by the chart `column`'s play; every
/// later hand the chart reaches by hitting ([`ChartLater`]); and the round's EV, given
/// this upcard, when the chart is played throughout (naturals and dealer blackjacks
/// included). What the count-index search values for each shoe it draws.
pub(super) fn chart_starts(
    rules: &BlackjackRules,
    full: [u32; RANKS],
    u: usize,
    column: &[Cell],
) -> (Vec<ChartStart>, Vec<ChartLater>, f64) {
    let g = Hands::get();
    let total: u32 = full.iter().sum();
    let base = Base::Finite {
        counts: full,
        total,
    }
    .without(u, 1);
    let p_up = f64::from(full[u]) / f64::from(total);
    let mut main = Context::new(rules, u, base).with_memo(&DealerMemo::shared(1 << 16));
    let starts = Starts::new(base, u);
    let chart_hits = chart_hits_of(column);
    // Every stand value the loop below reads: standing, hitting then playing the chart,
    // and doubling where allowed, for every two-card hand that can be dealt.
    let first_plays: Vec<(u32, Action)> = starts
        .pairs
        .iter()
        .map(|&(a, b)| g.pair(a, b))
        .filter(|&h| base.feasible(g.hand(h)))
        .flat_map(|h| {
            let double = may_double(rules, g.hand(h)).then_some((h, Action::Double));
            [Some((h, Action::Stand)), Some((h, Action::Hit)), double]
        })
        .flatten()
        .collect();
    main.prefill_play(&first_plays, &chart_hits);
    let mut memo = vec![f64::NAN; g.len()];
    let mut split_memo = vec![f64::NAN; g.len()];
    let mut splitters: Vec<Splitter> = (0..RANKS).map(|p| Splitter::new(p, &main)).collect();
    let surrender_allowed = rules.surrender != Surrender::None;
    let splits = rules.max_split_hands >= 2;
    let q = &starts.q;
    let mut out = Vec::with_capacity(starts.pairs.len());
    for (i, &(a, b)) in starts.pairs.iter().enumerate() {
        let h = g.pair(a, b);
        let hand = *g.hand(h);
        let can_split = a == b && splits;
        let row = row_of(&hand, can_split);
        let mut start = ChartStart {
            weight: 0.0,
            cards: (a, b),
            row,
            chart: Action::Stand,
            evs: [f64::NAN; ACTIONS],
        };
        if starts.deal_probability[i] == 0.0 || (a, b) == (ACE, TEN) {
            out.push(start);
            continue;
        }
        let allowed = |action: Action| match action {
            Action::Stand | Action::Hit => true,
            Action::Double => may_double(rules, &hand),
            Action::Split => can_split,
            Action::Surrender => surrender_allowed,
        };
        let scale = starts.scale(rules, i);
        let e = &mut start.evs;
        e[Action::Stand as usize] = scale * main.stand(h);
        e[Action::Hit as usize] = scale * main.hit(h, &chart_hits, &mut memo);
        if allowed(Action::Double) {
            e[Action::Double as usize] = scale * main.double(h);
        }
        if surrender_allowed {
            e[Action::Surrender as usize] =
                if rules.surrender == Surrender::Early && rules.dealer_peeks && q[i] > 0.0 {
                    (-0.5 + q[i]) / (1.0 - q[i])
                } else {
                    -0.5
                };
        }
        if can_split {
            let raw = chart_split(
                rules,
                &mut main,
                column,
                &chart_hits,
                (a, &hand),
                &mut splitters,
                &mut split_memo,
            );
            e[Action::Split as usize] = scale * raw;
        }
        start.chart = first_allowed(&column[row], allowed);
        let survive = if rules.dealer_peeks { 1.0 - q[i] } else { 1.0 };
        start.weight = p_up * starts.deal_probability[i] * survive;
        out.push(start);
    }
    let round = starts.round_ev(rules, &|i| {
        let s = &out[i];
        if s.weight == 0.0 {
            0.0
        } else {
            s.evs[s.chart as usize]
        }
    });
    let later = chart_later(&mut main, &starts, &out, &chart_hits, &mut memo, p_up);
    (out, later, p_up * round)
}

/// The hands of three or more cards the chart reaches by hitting from the starting hands
/// `out` (of `starts`, against the upcard of chance `p_up`), each valued both ways.
///
/// A start's value per round is `p_up × its deal chance × main's value` (the peek's
/// conditioning and the no-blackjack chance cancel), and main's value of hitting is the
/// sum over each card drawn of its chance times the value of playing on. So a later hand
/// `c` weighs `p_up × Σ deal chance × Π draw chances` over the ways the chart reaches it,
/// and changing its play from hitting to standing changes the round's EV by that weight
/// times `stand(c) − hit(c)`.
fn chart_later(
    main: &mut Context,
    starts: &Starts,
    out: &[ChartStart],
    chart_hits: &[bool],
    memo: &mut [f64],
    p_up: f64,
) -> Vec<ChartLater> {
    let g = Hands::get();
    let base = main.base;
    let mut reach = vec![0.0f64; g.len()];
    for (i, s) in out.iter().enumerate() {
        if s.weight > 0.0 && s.chart == Action::Hit {
            let (a, b) = starts.pairs[i];
            reach[g.pair(a, b) as usize] += p_up * starts.deal_probability[i];
        }
    }
    // A hand's children come after it, so its reach is complete when it is met.
    let mut reached = Vec::new();
    for h in 0..g.len() as u32 {
        let r = reach[h as usize];
        if r == 0.0 {
            continue;
        }
        let hand = g.hand(h);
        if hand.cards >= 3 {
            reached.push(h);
        }
        if hand.cards == 2 || chart_hits[h as usize] {
            for rank in 0..RANKS {
                let p = base.draw(hand, rank);
                let c = g.child(h, rank);
                if p > 0.0 && c != hands::BUSTED {
                    reach[c as usize] += r * p;
                }
            }
        }
    }
    // The stand values the valuing below reads and the chart's play has not: the hands
    // the chart hits, and the children of those it stands on.
    let mut need: Vec<u32> = Vec::new();
    for &h in &reached {
        if chart_hits[h as usize] {
            need.push(h);
        } else {
            let hand = g.hand(h);
            need.extend(
                (0..RANKS)
                    .filter(|&rank| base.draw(hand, rank) > 0.0)
                    .map(|rank| g.child(h, rank))
                    .filter(|&c| c != hands::BUSTED),
            );
        }
    }
    need.sort_unstable();
    need.dedup();
    main.prefill_stands(need);
    reached
        .into_iter()
        .map(|h| {
            let hand = g.hand(h);
            let stand = main.stand(h);
            let hit = main.hit(h, chart_hits, memo);
            ChartLater {
                cards: hand.counts,
                row: row_of(hand, false),
                chart_hits: chart_hits[h as usize],
                stand_gain: reach[h as usize] * (stand - hit),
            }
        })
        .collect()
}

/// Everything about one upcard: the dealer's outcomes, the optimal play's EVs and the
/// chart column built from them, and the EV of the round played each way.
fn analyze_upcard(
    rules: &BlackjackRules,
    full: Base,
    u: usize,
    options: Options,
) -> (UpcardAnalysis, Vec<Cell>) {
    let base = full.without(u, 1);
    let probability = full.count(u) / full.total();
    // One dealer memo per upcard: split hands' shoes repeat the unsplit hands' (a split
    // hand {p, x} with one more pair card out leaves the shoe of the hand {p, p, x}).
    let mut main = Context::new(rules, u, base).with_memo(&DealerMemo::shared(MEMO_SHOES));
    let dealer_shoe = base.shoe(&Hand {
        counts: [0; RANKS],
        hard: 0,
        total: 0,
        soft: false,
        cards: 0,
    });
    let dealer = main.dealer.outcomes(&dealer_shoe, u);
    let dealer_no_blackjack = main.dealer.outcomes_without_blackjack(&dealer_shoe, u);

    let play = stand_or_hit(&mut main, None);
    let starts = Starts::new(base, u);
    let mut memo = vec![f64::NAN; Hands::get().len()];
    let mut splitters: Vec<Splitter> = (0..RANKS).map(|p| Splitter::new(p, &main)).collect();
    let valued = options.valued(rules);
    let (evs, split_by_mode) = action_evs(
        rules,
        &mut main,
        base,
        &starts,
        &play,
        &mut splitters,
        &mut memo,
        valued,
    );
    let mut optimal_split = vec![f64::NAN; starts.pairs.len()];
    let mut optimal_stats = OptimalStats::default();
    if options.optimal_split && rules.max_split_hands == 2 {
        for (i, &(a, b)) in starts.pairs.iter().enumerate() {
            if a == b && !evs[i][Action::Split as usize].is_nan() {
                let (raw, stats) = optimal_two_hands(rules, &main, a);
                optimal_split[i] = starts.scale(rules, i) * raw;
                optimal_stats.first_hand_states += stats.first_hand_states;
                optimal_stats.second_hand_shoes += stats.second_hand_shoes;
            }
        }
    }
    let optimal_split_ev = if options.optimal_split && rules.max_split_hands == 2 {
        starts.round_ev(rules, &|i| {
            let mut e = evs[i];
            if !optimal_split[i].is_nan() {
                e[Action::Split as usize] = optimal_split[i];
            }
            best(&e).1
        })
    } else {
        f64::NAN
    };
    let optimal_ev = starts.round_ev(rules, &|i| best(&evs[i]).1);
    let optimal_ev_by_mode = std::array::from_fn(|m| {
        if !valued[m] {
            return f64::NAN;
        }
        starts.round_ev(rules, &|i| {
            let mut e = evs[i];
            if !split_by_mode[i][m].is_nan() {
                e[Action::Split as usize] = split_by_mode[i][m];
            }
            best(&e).1
        })
    });

    let column = chart_column(
        rules,
        &starts.pairs,
        &evs,
        &starts.deal_probability,
        &starts.q,
    );
    let values = chart_values(
        rules,
        &mut main,
        &starts,
        &evs,
        &column,
        &mut splitters,
        &mut memo,
    );
    let chart_ev = starts.round_ev(rules, &|i| values[i]);

    (
        UpcardAnalysis {
            probability,
            dealer,
            dealer_no_blackjack,
            hands: evs,
            split_by_mode,
            optimal_split_ev,
            optimal_split,
            optimal_stats,
            deal_probability: starts.deal_probability,
            optimal_ev,
            optimal_ev_by_mode,
            chart_ev,
        },
        column,
    )
}

/// The first decision on each post-split hand {pair, x}: split aces stand on one card
/// unless the rules let them be hit; otherwise the first action `order(x)` lists that is
/// stand, hit or double.
fn post_split_first(
    rules: &BlackjackRules,
    pair: usize,
    mut order: impl FnMut(usize) -> Cell,
) -> [Action; RANKS] {
    let mut first = [Action::Stand; RANKS];
    if pair == ACE && !rules.hit_split_aces {
        return first;
    }
    for (x, slot) in first.iter_mut().enumerate() {
        *slot = first_allowed(&order(x), |a| {
            matches!(a, Action::Stand | Action::Hit | Action::Double)
        });
    }
    first
}

/// Actions in order of EV, best first (NaN = not allowed, left out).
fn preference(evs: &ActionEvs) -> Cell {
    let mut order: Vec<Action> = Action::ALL
        .iter()
        .copied()
        .filter(|&a| !evs[a as usize].is_nan())
        .collect();
    order.sort_by(|&a, &b| evs[b as usize].total_cmp(&evs[a as usize]));
    let mut cell = [NO_ACTION; ACTIONS];
    for (slot, a) in cell.iter_mut().zip(order) {
        *slot = a as u8;
    }
    cell
}

/// The first action of a cell that `allowed` accepts (stand if none).
fn first_allowed(cell: &Cell, allowed: impl Fn(Action) -> bool) -> Action {
    cell.iter()
        .filter_map(|&c| Action::from_code(c))
        .find(|&a| allowed(a))
        .unwrap_or(Action::Stand)
}

/// The chart row for a hand: its pair row when it may be split, else its total.
fn row_of(hand: &Hand, split_allowed: bool) -> usize {
    let pair = hand.cards == 2 && hand.counts.contains(&2);
    let row = if pair && split_allowed {
        let rank = hand.counts.iter().position(|&c| c == 2).unwrap_or(0);
        Row::Pair(rank)
    } else if hand.soft {
        Row::Soft(hand.total)
    } else {
        Row::Hard(hand.total.max(4))
    };
    row.index().unwrap_or(0)
}

/// Whether the chart hits a hand of three or more cards (or a two-card hand that may no
/// longer double or surrender).
fn chart_hits_hand(column: &[Cell], hand: &Hand) -> bool {
    first_allowed(&column[row_of(hand, false)], |a| {
        matches!(a, Action::Stand | Action::Hit)
    }) == Action::Hit
}

/// Derives the chart's column for one upcard: each row's actions ranked by their EV
/// averaged over the two-card hands of that row, weighted by how often each is dealt (and
/// survives the dealer's peek). Rows no two-card hand reaches except a pair (hard 4, hard
/// 20, soft 12) use the pair's EVs without splitting; 21 stands (nothing beats it).
fn chart_column(
    rules: &BlackjackRules,
    starts: &[(usize, usize)],
    evs: &[ActionEvs],
    deal: &[f64],
    q: &[f64],
) -> Vec<Cell> {
    let g = Hands::get();
    let weight = |i: usize| {
        if rules.dealer_peeks {
            deal[i] * (1.0 - q[i])
        } else {
            deal[i]
        }
    };
    let averaged = |members: &[usize], with_split: bool| -> Cell {
        let mut sum = [0.0; ACTIONS];
        let mut total = 0.0;
        for &i in members {
            let w = weight(i);
            total += w;
            for (s, &v) in sum.iter_mut().zip(&evs[i]) {
                *s += w * v;
            }
        }
        if !with_split {
            sum[Action::Split as usize] = f64::NAN;
        }
        if total == 0.0 {
            // Not dealt from this shoe (a one-deck shoe has no fifth card of a rank):
            // rank by the unweighted EVs instead.
            let mut plain = [0.0; ACTIONS];
            for &i in members {
                for (s, &v) in plain.iter_mut().zip(&evs[i]) {
                    *s += v;
                }
            }
            if !with_split {
                plain[Action::Split as usize] = f64::NAN;
            }
            return preference(&plain);
        }
        preference(&sum)
    };
    Row::all()
        .map(|row| {
            let mut members: Vec<usize> = Vec::new();
            let mut with_split = false;
            for (i, &(a, b)) in starts.iter().enumerate() {
                let hand = g.hand(g.pair(a, b));
                let fits = match row {
                    Row::Pair(r) => a == b && a == r,
                    Row::Hard(t) => a != b && !hand.soft && hand.total == t,
                    Row::Soft(t) => a != b && hand.soft && hand.total == t && t != 21,
                };
                if fits {
                    members.push(i);
                }
            }
            if let Row::Pair(_) = row {
                with_split = true;
            }
            if members.is_empty() {
                // Hard 4 (2-2), hard 20 (T-T) and soft 12 (A-A): the pair, unsplit.
                for (i, &(a, b)) in starts.iter().enumerate() {
                    let hand = g.hand(g.pair(a, b));
                    let fits = match row {
                        Row::Hard(t) => a == b && !hand.soft && hand.total == t,
                        Row::Soft(t) => a == b && hand.soft && hand.total == t,
                        Row::Pair(_) => false,
                    };
                    if fits {
                        members.push(i);
                    }
                }
            }
            if members.is_empty() {
                // Hard and soft 21: standing cannot be beaten.
                let mut cell = [NO_ACTION; ACTIONS];
                cell[0] = Action::Stand as u8;
                cell[1] = Action::Hit as u8;
                return cell;
            }
            averaged(&members, with_split)
        })
        .collect()
}
