//! Exact equity against a **calling range**: opponents who hold only the strongest share
//! `s` of the hands they can hold beside ours, for any real `s` in (0, 1].
//!
//! The hands are ranked by strength (the ordinary order: the off-suit 2-3-5 of
//! `special_235` sits by its high-card strength, at the bottom). Hands of equal strength
//! form a *level*. The range is taken over the C(49, 3) = 18,424 hands that share no card
//! with ours, so that the chance of a call and the range of the caller are one set: the
//! top share `s` holds every such hand of the levels above the one where `s · 18,424`
//! falls, and that marginal level's such hands at weight `α` (the fraction needed to make
//! the range hold exactly `s · 18,424` hands). An opponent holds a range hand `h` with
//! probability proportional to its weight `w(h)` (1, `α` or 0); two opponents hold a pair
//! of disjoint range hands with probability proportional to `w(h₁)·w(h₂)`. Equity counts
//! ties as the table's rules settle them.
//!
//! A [`RangeCurve`] holds, for one hand, the integer sums that make the equity at every
//! share a ratio of two polynomials in `α` (degree 1 against one opponent, 2 against
//! two): cumulative win points and deals through each level, and the deals with both
//! opponents in the same level. Building one visits every opponent hand once
//! (O(22,100), no allocation beyond the curve's own 741-entry vector); reading it
//! is a binary search over the levels.

use super::{QueryError, Zhajinhua};

/// Win points are counted in sixths, so that split pots (1/2 heads-up, 1/2 and 1/3 in a
/// showdown of three) stay integers: a win is 6, a two-way tie 3, a three-way tie 2.
const POINTS: u64 = 6;

/// The sums of one level of a curve: cumulative through the level, and the part of the
/// two-opponent sums where both opponents hold a hand of this very level.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LevelSums {
    /// One opponent: win points (sixths) and opponent hands disjoint from ours.
    pub points1: u64,
    pub hands1: u64,
    /// Two opponents: win points (sixths) and ordered pairs of disjoint opponent hands,
    /// both disjoint from ours.
    pub points2: u64,
    pub pairs2: u64,
    /// The two-opponent sums over pairs with both hands in this level only.
    pub within_points2: u64,
    pub within_pairs2: u64,
}

/// One hand's exact equity against every calling range, for one and two opponents.
#[derive(Clone, Debug, PartialEq)]
pub struct RangeCurve {
    /// The sums through each level, strongest first.
    sums: Vec<LevelSums>,
}

impl RangeCurve {
    /// Equity against `opponents` (1 or 2) holding the top `share` (0 < share ≤ 1) of
    /// hands. Errors on an opponent count or share outside those bounds, and when no hand
    /// of the range is disjoint from ours (the range cannot be dealt).
    pub fn equity(&self, opponents: usize, share: f64) -> Result<f64, QueryError> {
        let (points, deals) = self.weighted(opponents, share)?;
        if deals <= 0.0 {
            return Err(QueryError::EmptyRange(share));
        }
        // The two sums are rounded separately; a hand that wins every deal must not read
        // a hair above 1.
        Ok((points / (POINTS as f64 * deals)).clamp(0.0, 1.0))
    }

    /// The weighted win points and deals of [`RangeCurve::equity`].
    fn weighted(&self, opponents: usize, share: f64) -> Result<(f64, f64), QueryError> {
        if !(share > 0.0 && share <= 1.0) {
            return Err(QueryError::Share(share));
        }
        // The range is the top share of the hands the opponent can hold beside ours.
        let target = share * self.dealable() as f64;
        // The first level that reaches the target: it exists because the last ends at
        // every dealable hand and share ≤ 1. It holds at least one dealable hand (the
        // level before it falls short of the target, which is above 0).
        let l = self
            .sums
            .partition_point(|s| (s.hands1 as f64) < target)
            .min(self.sums.len() - 1);
        let before = if l == 0 {
            LevelSums::default()
        } else {
            self.sums[l - 1]
        };
        let at = self.sums[l];
        let alpha = (target - before.hands1 as f64) / (at.hands1 - before.hands1) as f64;
        let f = |x: u64| x as f64;
        match opponents {
            1 => Ok((
                f(before.points1) + alpha * f(at.points1 - before.points1),
                f(before.hands1) + alpha * f(at.hands1 - before.hands1),
            )),
            2 => {
                // Pairs with one hand in the level and one above weigh α, both in it α².
                let quadratic = |cum_before: u64, cum_at: u64, within: u64| {
                    let across = cum_at - cum_before - within;
                    f(cum_before) + alpha * f(across) + alpha * alpha * f(within)
                };
                Ok((
                    quadratic(before.points2, at.points2, at.within_points2),
                    quadratic(before.pairs2, at.pairs2, at.within_pairs2),
                ))
            }
            _ => Err(QueryError::Opponents {
                asked: opponents,
                max: super::RANGE_OPPONENTS,
            }),
        }
    }

    /// The hands an opponent can hold beside ours: C(49, 3) = 18,424.
    pub fn dealable(&self) -> u64 {
        self.sums.last().map_or(0, |s| s.hands1)
    }

    /// The hands of the calling range at `share`, each counted at its weight (1, or `α`
    /// in the marginal level): `share` × [`RangeCurve::dealable`], the size the EV's call
    /// probability assumes.
    pub fn range_hands(&self, share: f64) -> Result<f64, QueryError> {
        Ok(self.weighted(1, share)?.1)
    }

    /// The shares where the equity's formula changes (each level's end, as a share of the
    /// hands an opponent can hold beside ours), increasing: between two of them the
    /// equity is a smooth function.
    pub fn breaks(&self) -> impl Iterator<Item = f64> + '_ {
        let all = self.dealable() as f64;
        let mut last = u64::MAX;
        self.sums.iter().rev().filter_map(move |s| {
            // A level with no dealable hand ends where the one before it does.
            let keep = s.hands1 != last;
            last = s.hands1;
            keep.then(|| s.hands1 as f64 / all)
        })
    }

    /// The sums through each level, strongest first.
    pub fn levels(&self) -> &[LevelSums] {
        &self.sums
    }
}

/// Card and card-pair incidence of a set of hands, with the running sums of squares and
/// cross products that the number of disjoint pairs needs: ordered pairs of disjoint
/// hands of `X × Y` are `|X||Y| − Σ_c x_c y_c + Σ_p x_p y_p − |X ∩ Y|` (inclusion–exclusion
/// over a shared card and a shared pair of cards).
struct Incidence {
    size: i64,
    cards: [i64; 52],
    pairs: [i64; PAIRS],
    /// Σ x_c², Σ x_p².
    card_squares: i64,
    pair_squares: i64,
}

const PAIRS: usize = 52 * 51 / 2;

fn pair_slot(a: u8, b: u8) -> usize {
    let (lo, hi) = (usize::from(a.min(b)), usize::from(a.max(b)));
    hi * (hi - 1) / 2 + lo
}

impl Incidence {
    fn new() -> Box<Incidence> {
        Box::new(Incidence {
            size: 0,
            cards: [0; 52],
            pairs: [0; PAIRS],
            card_squares: 0,
            pair_squares: 0,
        })
    }

    /// Adds (`sign` 1) or removes (−1) a hand, keeping the sums of squares.
    fn add(&mut self, [a, b, c]: [u8; 3], sign: i64) {
        self.size += sign;
        for id in [a, b, c] {
            let x = &mut self.cards[usize::from(id)];
            self.card_squares += sign * (2 * *x + sign);
            *x += sign;
        }
        for (x, y) in [(a, b), (a, c), (b, c)] {
            let p = &mut self.pairs[pair_slot(x, y)];
            self.pair_squares += sign * (2 * *p + sign);
            *p += sign;
        }
    }

    /// Σ_c x_c·y_c and Σ_p x_p·y_p of this set with another at one hand's cards.
    fn at(&self, [a, b, c]: [u8; 3]) -> (i64, i64) {
        let cards = [a, b, c].iter().map(|&i| self.cards[usize::from(i)]).sum();
        let pairs = [(a, b), (a, c), (b, c)]
            .iter()
            .map(|&(x, y)| self.pairs[pair_slot(x, y)])
            .sum();
        (cards, pairs)
    }

    /// Ordered pairs of disjoint hands within the set.
    fn disjoint_pairs(&self) -> u64 {
        (self.size * self.size - self.card_squares + self.pair_squares - self.size) as u64
    }
}

/// The two-opponent sets of a curve: hands we beat and tie in a showdown of three, with
/// the cross products of the two and every range hand's incidence.
struct Showdown {
    wins: Box<Incidence>,
    ties: Box<Incidence>,
    all: Box<Incidence>,
    /// Σ_c w_c·t_c and Σ_p w_p·t_p.
    cross_cards: i64,
    cross_pairs: i64,
}

impl Showdown {
    fn new() -> Showdown {
        Showdown {
            wins: Incidence::new(),
            ties: Incidence::new(),
            all: Incidence::new(),
            cross_cards: 0,
            cross_pairs: 0,
        }
    }

    /// Adds (`sign` 1) or removes (−1) an opponent hand we beat (`Some(true)`), tie
    /// (`Some(false)`) or lose to (`None`).
    fn add(&mut self, hand: [u8; 3], outcome: Option<bool>, sign: i64) {
        match outcome {
            Some(true) => {
                let (c, p) = self.ties.at(hand);
                self.cross_cards += sign * c;
                self.cross_pairs += sign * p;
                self.wins.add(hand, sign);
            }
            Some(false) => {
                let (c, p) = self.wins.at(hand);
                self.cross_cards += sign * c;
                self.cross_pairs += sign * p;
                self.ties.add(hand, sign);
            }
            None => {}
        }
        self.all.add(hand, sign);
    }

    /// Win points (sixths) and ordered pairs of disjoint hands over the set.
    fn sums(&self, split: bool) -> (u64, u64) {
        let win_both = self.wins.disjoint_pairs();
        let points = if split {
            // One opponent beaten and one tied (either order): half the pot; both tied:
            // a third.
            let two_way =
                2 * (self.wins.size * self.ties.size - self.cross_cards + self.cross_pairs) as u64;
            POINTS * win_both + 3 * two_way + 2 * self.ties.disjoint_pairs()
        } else {
            POINTS * win_both
        };
        (points, self.all.disjoint_pairs())
    }
}

impl Zhajinhua {
    /// The calling-range curve of three distinct cards (see the module docs). Visits every
    /// opponent hand once; keep the curve to read many shares.
    pub fn calling_range(&self, cards: &[super::Card]) -> Result<RangeCurve, QueryError> {
        let i = super::hand_index(cards)? as usize;
        Ok(self.calling_range_at(i))
    }

    /// The same for the hand with colex index `i` (< 22,100).
    pub(super) fn calling_range_at(&self, i: usize) -> RangeCurve {
        let mine = self.ids[i];
        let me = self.facts[i];
        let disjoint = |h: [u8; 3]| h.iter().all(|c| !mine.contains(c));
        let heads_up_split = !self.caller_loses;
        // A showdown of three compares in the ordinary order with split ties when
        // simultaneous, else two at a time under the heads-up rules.
        let three_split = self.simultaneous_showdown || heads_up_split;
        let (mut points1, mut hands1) = (0u64, 0u64);
        let mut cumulative = Showdown::new();
        let mut level = Showdown::new();
        let mut sums = Vec::with_capacity(self.level_end.len());
        let mut start = 0usize;
        // Heads-up, and in a showdown of three: how we fare against hand j (Some(true) a
        // win, Some(false) a tie, None a loss).
        let outcome = |o: std::cmp::Ordering| match o {
            std::cmp::Ordering::Greater => Some(true),
            std::cmp::Ordering::Equal => Some(false),
            std::cmp::Ordering::Less => None,
        };
        let against = |j: usize| {
            let them = self.facts[j];
            let heads_up = self.order(me, them);
            let three = if self.simultaneous_showdown {
                me.strength.cmp(&them.strength)
            } else {
                heads_up
            };
            (outcome(heads_up), outcome(three))
        };
        for &end in &self.level_end {
            let members = &self.ranked[start..end as usize];
            let dealt = members
                .iter()
                .map(|&j| usize::from(j))
                .filter(|&j| disjoint(self.ids[j]));
            for j in dealt.clone() {
                let (heads_up, three) = against(j);
                hands1 += 1;
                points1 += match heads_up {
                    Some(true) => POINTS,
                    Some(false) if heads_up_split => POINTS / 2,
                    _ => 0,
                };
                cumulative.add(self.ids[j], three, 1);
                level.add(self.ids[j], three, 1);
            }
            let (points2, pairs2) = cumulative.sums(three_split);
            let (within_points2, within_pairs2) = level.sums(three_split);
            sums.push(LevelSums {
                points1,
                hands1,
                points2,
                pairs2,
                within_points2,
                within_pairs2,
            });
            // Empty the level's sets by removing what was added (cheaper than clearing
            // the incidence arrays).
            for j in dealt {
                level.add(self.ids[j], against(j).1, -1);
            }
            start = end as usize;
        }
        RangeCurve { sums }
    }

    /// Exact equity of three cards against `opponents` (1 or 2) players who hold only the
    /// top `share` (0 < share ≤ 1) of hands. Builds the hand's [`RangeCurve`] (O(22,100));
    /// for many shares of one hand, build the curve once with [`Zhajinhua::calling_range`].
    pub fn range_equity(
        &self,
        cards: &[super::Card],
        opponents: usize,
        share: f64,
    ) -> Result<f64, QueryError> {
        if opponents == 0 || opponents > super::RANGE_OPPONENTS {
            return Err(QueryError::Opponents {
                asked: opponents,
                max: super::RANGE_OPPONENTS,
            });
        }
        self.calling_range(cards)?.equity(opponents, share)
    }
}

/// The hands strongest first and where each level of equal strength ends, from the
/// per-hand strengths.
pub(super) fn levels(strength: &[u16]) -> (Vec<u16>, Vec<u32>) {
    let mut ranked: Vec<u16> = (0..strength.len() as u16).collect();
    ranked.sort_by_key(|&i| (std::cmp::Reverse(strength[usize::from(i)]), i));
    let mut ends = Vec::new();
    for (k, pair) in ranked.windows(2).enumerate() {
        if strength[usize::from(pair[0])] != strength[usize::from(pair[1])] {
            ends.push(k as u32 + 1);
        }
    }
    ends.push(ranked.len() as u32);
    (ranked, ends)
}

#[cfg(test)]
mod tests {
    use super::super::{ZhajinhuaPayload, HANDS};
    use super::*;
    use crate::Card;

    /// A table whose strengths come in levels of uneven size (so the marginal level holds
    /// many hands), with trips beaten by some hands, under the given rules.
    fn table(caller_loses: bool, simultaneous_showdown: bool) -> Zhajinhua {
        let cells = HANDS;
        let p = ZhajinhuaPayload {
            max_opponents: 1,
            rules: String::new(),
            categories: ["a", "b", "c", "d", "e", "f"].map(String::from).to_vec(),
            category: (0..HANDS).map(|i| (i % 6) as u8).collect(),
            strength: (0..HANDS).map(|i| ((i * 7919) % 613) as u16).collect(),
            beats_trips: (0..HANDS).map(|i| i % 97 == 0).collect(),
            win: vec![0.5; cells],
            tie: vec![0.0; cells],
            equity: vec![0.5; cells],
            std_error: vec![0.0; cells],
            suit_class: vec![0; HANDS],
            caller_loses,
            simultaneous_showdown,
        };
        Zhajinhua::from_bytes(Zhajinhua::to_bytes(1, &p).unwrap()).unwrap()
    }

    /// The equity by direct enumeration: each range hand (pair) weighted by its weight
    /// (product), ties as the rules settle them.
    fn brute_force(t: &Zhajinhua, i: usize, opponents: usize, share: f64) -> f64 {
        let shares = |a: &[u8; 3], b: &[u8; 3]| a.iter().any(|c| b.contains(c));
        // The range: the top share of the hands that can be dealt beside ours, the
        // strongest levels first, the marginal level in part.
        let dealable = |j: usize| !shares(&t.ids[i], &t.ids[j]);
        let target = share * (0..HANDS).filter(|&j| dealable(j)).count() as f64;
        let mut weight = vec![0.0; HANDS];
        let (mut start, mut taken) = (0usize, 0usize);
        for &end in &t.level_end {
            let end = end as usize;
            let members: Vec<usize> = t.ranked[start..end]
                .iter()
                .map(|&j| usize::from(j))
                .filter(|&j| dealable(j))
                .collect();
            if !members.is_empty() {
                let w = ((target - taken as f64) / members.len() as f64).clamp(0.0, 1.0);
                for &j in &members {
                    weight[j] = w;
                }
            }
            taken += members.len();
            start = end;
        }
        let me = t.facts[i];
        let dealt: Vec<usize> = (0..HANDS)
            .filter(|&j| weight[j] > 0.0 && !shares(&t.ids[i], &t.ids[j]))
            .collect();
        let (mut points, mut total) = (0.0, 0.0);
        let value = |o: std::cmp::Ordering, split: bool| match o {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Equal if split => 0.5,
            _ => 0.0,
        };
        if opponents == 1 {
            for &j in &dealt {
                points += weight[j] * value(t.order(me, t.facts[j]), !t.caller_loses);
                total += weight[j];
            }
        } else {
            let three = |j: usize| {
                if t.simultaneous_showdown {
                    me.strength.cmp(&t.facts[j].strength)
                } else {
                    t.order(me, t.facts[j])
                }
            };
            let split = t.simultaneous_showdown || !t.caller_loses;
            for &j in &dealt {
                for &k in &dealt {
                    if j == k || shares(&t.ids[j], &t.ids[k]) {
                        continue;
                    }
                    let w = weight[j] * weight[k];
                    let (a, b) = (three(j), three(k));
                    use std::cmp::Ordering::*;
                    let v = match (a, b) {
                        (Less, _) | (_, Less) => 0.0,
                        (Greater, Greater) => 1.0,
                        (Equal, Equal) if split => 1.0 / 3.0,
                        _ if split => 0.5,
                        _ => 0.0,
                    };
                    points += w * v;
                    total += w;
                }
            }
        }
        points / total
    }

    #[test]
    fn the_curve_equals_direct_weighted_enumeration() {
        for (caller_loses, simultaneous) in [(false, false), (true, false), (true, true)] {
            let t = table(caller_loses, simultaneous);
            for i in [0usize, 97, 5_000, 22_099] {
                let curve = t.calling_range_at(i);
                for share in [0.004, 0.0123456, 0.03, 0.051, 1.0] {
                    for opponents in [1, 2] {
                        if opponents == 2 && share > 0.06 {
                            continue;
                        }
                        let want = brute_force(&t, i, opponents, share);
                        let got = curve.equity(opponents, share).unwrap();
                        assert!(
                            (got - want).abs() < 1e-12,
                            "hand {i} share {share} vs {opponents}: {got} != {want}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_range_is_the_top_share_of_the_hands_the_opponent_can_hold() {
        // Twenty hands and shares from a fixed linear congruential sequence: the range
        // holds share × C(49, 3) hands, counted at their weights, all dealable beside ours.
        let t = table(true, false);
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = || {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            x >> 11
        };
        for _ in 0..20 {
            let i = (next() % HANDS as u64) as usize;
            let share = (1 + next() % 1_000_000) as f64 / 1_000_000.0;
            let curve = t.calling_range_at(i);
            assert_eq!(curve.dealable(), 18_424);
            let size = curve.range_hands(share).unwrap();
            assert!(
                (size - share * 18_424.0).abs() < 1e-9 * 18_424.0,
                "hand {i} share {share}: {size}"
            );
            // The same count from the levels directly: whole levels of dealable hands,
            // then part of the marginal one.
            let shares = |a: &[u8; 3], b: &[u8; 3]| a.iter().any(|c| b.contains(c));
            let dealable: Vec<usize> = t
                .ranked
                .iter()
                .map(|&j| usize::from(j))
                .filter(|&j| !shares(&t.ids[i], &t.ids[j]))
                .collect();
            assert_eq!(dealable.len(), 18_424);
            // Whole levels up to the target, and the marginal level's dealable hands.
            let target = share * 18_424.0;
            let (mut whole, mut k) = (0usize, 0usize);
            let mut marginal = 0usize;
            while k < dealable.len() {
                let level = t.facts[dealable[k]].strength;
                let n = dealable[k..]
                    .iter()
                    .take_while(|&&j| t.facts[j].strength == level)
                    .count();
                if (whole + n) as f64 > target {
                    marginal = n;
                    break;
                }
                whole += n;
                k += n;
            }
            assert!(whole as f64 <= size + 1e-9, "hand {i} share {share}");
            assert!(
                size <= (whole + marginal) as f64 + 1e-9,
                "hand {i} share {share}"
            );
        }
    }

    #[test]
    fn the_curve_is_continuous_at_level_ends_and_reads_cards() {
        let t = table(false, true);
        let curve = t.calling_range_at(1_234);
        for end in curve.breaks().filter(|&s| s > 0.01 && s < 0.99).step_by(37) {
            for opponents in [1, 2] {
                let (a, b) = (
                    curve.equity(opponents, end * (1.0 - 1e-12)).unwrap(),
                    curve.equity(opponents, end).unwrap(),
                );
                assert!((a - b).abs() < 1e-9, "{end}: {a} {b}");
            }
        }
        let mut cards = [Card::from_id(0).unwrap(); 3];
        crate::colex::unrank(1_234, 3, &mut cards);
        assert_eq!(t.calling_range(&cards).unwrap(), curve);
        assert_eq!(
            t.range_equity(&cards, 2, 0.3).unwrap(),
            curve.equity(2, 0.3).unwrap()
        );
    }
}
