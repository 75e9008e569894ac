//! The dealer's final total, exactly: every sequence of cards the dealer can draw from the
//! shoe that is left, with card removal (or fixed probabilities for an infinite shoe).
//!
//! Outcomes are indexed 0..=4 for totals 17..=21, 5 for bust and 6 for blackjack (a
//! two-card 21). Ranks are indexed 0 = ace, 1..=8 = 2..9, 9 = ten-valued cards.

/// Index of the bust outcome.
pub const OUTCOME_BUST: usize = 5;
/// Index of the blackjack outcome.
pub const OUTCOME_BLACKJACK: usize = 6;
pub use super::hands::{ACE, TEN};

/// Probabilities of the dealer's outcomes.
pub type Outcomes = [f64; 7];

/// What is left in the shoe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shoe {
    /// Cards left per rank.
    Finite([u32; 10]),
    /// Every draw: 1/13 per rank, 4/13 for ten-valued cards.
    Infinite,
}

/// Chance of drawing `rank` from an infinite shoe: 1/13, or 4/13 for ten-valued cards.
pub fn infinite_probability(rank: usize) -> f64 {
    if rank == TEN {
        4.0 / 13.0
    } else {
        1.0 / 13.0
    }
}

impl Shoe {
    /// Chance that the next card is `rank` (0 from an empty shoe).
    pub fn probability(&self, rank: usize) -> f64 {
        match self {
            Shoe::Finite(c) => {
                let total: u32 = c.iter().sum();
                if total == 0 {
                    0.0
                } else {
                    f64::from(c[rank]) / f64::from(total)
                }
            }
            Shoe::Infinite => infinite_probability(rank),
        }
    }

    fn without(&self, rank: usize) -> Shoe {
        match *self {
            Shoe::Finite(mut c) => {
                c[rank] -= 1;
                Shoe::Finite(c)
            }
            Shoe::Infinite => Shoe::Infinite,
        }
    }
}

/// Points of a rank index (ace counted 1).
fn points(rank: usize) -> u8 {
    rank as u8 + 1
}

fn play(shoe: Shoe, hard: u8, ace: bool, cards: u8, hits_soft_17: bool) -> Outcomes {
    let soft = ace && hard + 10 <= 21;
    let value = if soft { hard + 10 } else { hard };
    let mut out = [0.0; 7];
    if cards == 2 && value == 21 {
        out[OUTCOME_BLACKJACK] = 1.0;
        return out;
    }
    if value > 21 {
        out[OUTCOME_BUST] = 1.0;
        return out;
    }
    if value >= 17 && !(value == 17 && soft && hits_soft_17) {
        out[usize::from(value - 17)] = 1.0;
        return out;
    }
    for rank in 0..10 {
        let p = shoe.probability(rank);
        if p == 0.0 {
            continue;
        }
        let next = play(
            shoe.without(rank),
            hard + points(rank),
            ace || rank == ACE,
            cards + 1,
            hits_soft_17,
        );
        for (o, n) in out.iter_mut().zip(next) {
            *o += p * n;
        }
    }
    out
}

/// The dealer's outcomes with `upcard` showing and `shoe` left (the upcard and every
/// card already dealt removed), over every hole card and every draw.
pub fn outcomes(shoe: Shoe, upcard: usize, hits_soft_17: bool) -> Outcomes {
    play(shoe, points(upcard), upcard == ACE, 1, hits_soft_17)
}

/// The same, given that the dealer has checked and does not have blackjack: the hole card
/// is not the one that would complete it (a ten under an ace, an ace under a ten).
pub fn outcomes_without_blackjack(shoe: Shoe, upcard: usize, hits_soft_17: bool) -> Outcomes {
    let excluded = match upcard {
        ACE => Some(TEN),
        TEN => Some(ACE),
        _ => None,
    };
    let mut out = [0.0; 7];
    let mut kept = 0.0;
    for hole in 0..10 {
        let p = shoe.probability(hole);
        if p == 0.0 || Some(hole) == excluded {
            continue;
        }
        kept += p;
        let next = play(
            shoe.without(hole),
            points(upcard) + points(hole),
            upcard == ACE || hole == ACE,
            2,
            hits_soft_17,
        );
        for (o, n) in out.iter_mut().zip(next) {
            *o += p * n;
        }
    }
    out.map(|o| o / kept)
}

/// The dealer's draws from one upcard, grouped by the multiset of cards drawn: the
/// probability of an ordered draw sequence depends only on its multiset (a ratio of
/// falling factorials), so the outcome distribution for *any* shoe is a short sum over
/// these groups. Built once per upcard and soft-17 rule; evaluating it is what the player
/// analysis does for every hand it stands on.
pub struct DealerTable {
    /// Per upcard: the groups of draw sequences.
    upcards: Vec<Groups>,
}

#[derive(Default)]
struct Groups {
    /// Flattened `rank * STRIDE + k` factor indices of every group.
    factors: Vec<u16>,
    groups: Vec<Group>,
    /// The groups with at most [`SHORT`] distinct ranks, padded with a factor of one, so
    /// that the hot loop has no data-dependent branch: (factor slots, ways), ordered by
    /// their (outcome, drawn) bucket and within a bucket as built.
    short: Vec<([u8; SHORT], f64)>,
    /// The bucket of each run of `short` and where the run ends: a run is summed in a
    /// register, in the order one sum in memory would take, so the result is the same to
    /// the bit, and the hot loop stores once per run instead of once per group.
    short_runs: Vec<(usize, usize)>,
    /// Indices of the other groups.
    long: Vec<u32>,
    /// Most cards of one rank any group draws (per rank), and most cards in a group.
    most_of_rank: [usize; 10],
    most_drawn: usize,
}

struct Group {
    first: u32,
    len: u8,
    drawn: u8,
    outcome: u8,
    /// Number of ordered draw sequences with this multiset and outcome.
    ways: f64,
}

/// Falling-factorial slots per rank (no dealer hand draws 22 cards of one rank).
const STRIDE: usize = 22;
/// Distinct ranks of a "short" group.
const SHORT: usize = 4;
/// The factor slot that always holds one (padding).
const ONE: u8 = (10 * STRIDE) as u8;
/// Factor slots: every `rank * STRIDE + k` and [`ONE`] fit a byte, so a byte-indexed
/// table of 256 needs no bounds check.
const SLOTS: usize = 256;

impl Groups {
    /// Writes the falling factorials of each rank's count (`rank * STRIDE + k`, one in
    /// [`ONE`]) and the inverse falling factorials of the shoe's size by cards drawn for
    /// `shoe` (an infinite shoe's powers of each rank's chance, and ones) into arrays that
    /// start at zero. In place: returning them copied two kilobytes a call.
    #[inline(always)]
    fn factors(&self, shoe: &Shoe, factor: &mut [f64; SLOTS], inverse: &mut [f64; STRIDE]) {
        self.factors_with(shoe, |slot, f| factor[slot] = f, inverse);
    }

    /// [`Groups::factors`], each factor handed to `put` with its slot (so that several
    /// shoes' factors can be laid side by side).
    #[inline(always)]
    fn factors_with(
        &self,
        shoe: &Shoe,
        mut put: impl FnMut(usize, f64),
        inverse: &mut [f64; STRIDE],
    ) {
        put(usize::from(ONE), 1.0);
        match shoe {
            Shoe::Finite(c) => {
                for (r, &count) in c.iter().enumerate() {
                    let n = f64::from(count);
                    let mut f = 1.0;
                    put(r * STRIDE, 1.0);
                    for k in 1..=self.most_of_rank[r] {
                        f *= (n - (k - 1) as f64).max(0.0);
                        put(r * STRIDE + k, f);
                    }
                }
                let n = f64::from(c.iter().sum::<u32>());
                let mut f = 1.0;
                inverse[0] = 1.0;
                for (k, slot) in inverse
                    .iter_mut()
                    .enumerate()
                    .take(self.most_drawn + 1)
                    .skip(1)
                {
                    let left = n - (k - 1) as f64;
                    f = if left > 0.0 { f / left } else { 0.0 };
                    *slot = f;
                }
            }
            Shoe::Infinite => {
                for r in 0..10 {
                    let p = shoe.probability(r);
                    let mut f = 1.0;
                    put(r * STRIDE, 1.0);
                    for k in 1..=self.most_of_rank[r] {
                        f *= p;
                        put(r * STRIDE + k, f);
                    }
                }
                inverse.fill(1.0);
            }
        }
    }

    /// Each outcome's chance from its sums by cards drawn.
    #[inline(always)]
    fn combine(&self, sums: &[[f64; STRIDE]; 7], inverse: &[f64; STRIDE]) -> Outcomes {
        let mut out = [0.0; 7];
        for (o, row) in out.iter_mut().zip(sums) {
            *o = row
                .iter()
                .zip(inverse)
                .take(self.most_drawn + 1)
                .map(|(s, i)| s * i)
                .sum();
        }
        out
    }
}

impl DealerTable {
    /// The shared table for a soft-17 rule.
    pub fn get(hits_soft_17: bool) -> &'static DealerTable {
        static S17: std::sync::OnceLock<DealerTable> = std::sync::OnceLock::new();
        static H17: std::sync::OnceLock<DealerTable> = std::sync::OnceLock::new();
        if hits_soft_17 { &H17 } else { &S17 }.get_or_init(|| DealerTable::build(hits_soft_17))
    }

    fn build(hits_soft_17: bool) -> DealerTable {
        let upcards = (0..10)
            .map(|up| {
                let mut ways: std::collections::BTreeMap<([u8; 10], u8), u64> =
                    std::collections::BTreeMap::new();
                fn walk(
                    drawn: &mut [u8; 10],
                    hard: u8,
                    ace: bool,
                    cards: u8,
                    h17: bool,
                    ways: &mut std::collections::BTreeMap<([u8; 10], u8), u64>,
                ) {
                    let soft = ace && hard + 10 <= 21;
                    let value = if soft { hard + 10 } else { hard };
                    let outcome = if cards == 2 && value == 21 {
                        Some(OUTCOME_BLACKJACK)
                    } else if value > 21 {
                        Some(OUTCOME_BUST)
                    } else if value >= 17 && !(value == 17 && soft && h17) {
                        Some(usize::from(value - 17))
                    } else {
                        None
                    };
                    if let Some(o) = outcome {
                        *ways.entry((*drawn, o as u8)).or_insert(0) += 1;
                        return;
                    }
                    for r in 0..10 {
                        drawn[r] += 1;
                        walk(
                            drawn,
                            hard + points(r),
                            ace || r == ACE,
                            cards + 1,
                            h17,
                            ways,
                        );
                        drawn[r] -= 1;
                    }
                }
                walk(
                    &mut [0; 10],
                    points(up),
                    up == ACE,
                    1,
                    hits_soft_17,
                    &mut ways,
                );
                let mut g = Groups::default();
                for ((drawn, outcome), n) in ways {
                    let first = g.factors.len() as u32;
                    for (r, &k) in drawn.iter().enumerate() {
                        if k > 0 {
                            g.factors.push((r * STRIDE + usize::from(k)) as u16);
                            g.most_of_rank[r] = g.most_of_rank[r].max(usize::from(k));
                        }
                    }
                    let total: u8 = drawn.iter().sum();
                    g.most_drawn = g.most_drawn.max(usize::from(total));
                    g.groups.push(Group {
                        first,
                        len: (g.factors.len() as u32 - first) as u8,
                        drawn: total,
                        outcome,
                        ways: n as f64,
                    });
                }
                let mut short = Vec::new();
                for (i, group) in g.groups.iter().enumerate() {
                    let start = group.first as usize;
                    let factors = &g.factors[start..start + usize::from(group.len)];
                    if factors.len() <= SHORT {
                        let mut padded = [ONE; SHORT];
                        for (slot, &f) in padded.iter_mut().zip(factors) {
                            *slot = u8::try_from(f).expect("factor slots fit a byte");
                        }
                        let bucket = usize::from(group.outcome) * STRIDE + usize::from(group.drawn);
                        short.push((bucket, padded, group.ways));
                    } else {
                        g.long.push(i as u32);
                    }
                }
                // A stable sort keeps each bucket's groups in build order.
                short.sort_by_key(|&(bucket, _, _)| bucket);
                for (i, &(bucket, f, ways)) in short.iter().enumerate() {
                    match g.short_runs.last_mut() {
                        Some((b, end)) if *b == bucket => *end = i + 1,
                        _ => g.short_runs.push((bucket, i + 1)),
                    }
                    g.short.push((f, ways));
                }
                g
            })
            .collect();
        DealerTable { upcards }
    }

    /// Number of (multiset, outcome) groups for an upcard (for benchmarks and tests).
    pub fn groups(&self, upcard: usize) -> usize {
        self.upcards[upcard].groups.len()
    }

    /// The dealer's outcomes with `upcard` showing and `shoe` left, like [`outcomes`].
    pub fn outcomes(&self, shoe: &Shoe, upcard: usize) -> Outcomes {
        let g = &self.upcards[upcard];
        let (mut factor, mut inverse) = ([0.0f64; SLOTS], [0.0f64; STRIDE]);
        g.factors(shoe, &mut factor, &mut inverse);
        // Sum by (outcome, cards drawn) and divide by the falling factorial of the shoe
        // size once per sum at the end.
        let mut sums = [[0.0f64; STRIDE]; 7];
        {
            let flat = sums.as_flattened_mut();
            let mut start = 0;
            for &(bucket, end) in &g.short_runs {
                let mut sum = 0.0;
                for (f, ways) in &g.short[start..end] {
                    sum += ways
                        * factor[usize::from(f[0])]
                        * factor[usize::from(f[1])]
                        * factor[usize::from(f[2])]
                        * factor[usize::from(f[3])];
                }
                flat[bucket] = sum;
                start = end;
            }
        }
        for &i in &g.long {
            let group = &g.groups[i as usize];
            let start = group.first as usize;
            let mut p = group.ways;
            for &f in &g.factors[start..start + usize::from(group.len)] {
                p *= factor[usize::from(f)];
            }
            sums[usize::from(group.outcome)][usize::from(group.drawn)] += p;
        }
        g.combine(&sums, &inverse)
    }

    /// The outcomes of `L` finite shoes at once, each bit for bit what [`outcomes`] gives
    /// it: every shoe goes through the same operations in the same order, one lane each,
    /// so the processor can do the lanes side by side.
    ///
    /// [`outcomes`]: DealerTable::outcomes
    pub fn outcomes_lanes<const L: usize>(
        &self,
        shoes: &[[u32; 10]; L],
        upcard: usize,
    ) -> [Outcomes; L] {
        let g = &self.upcards[upcard];
        let mut factor = [[0.0f64; L]; SLOTS];
        let mut inverse = [[0.0f64; STRIDE]; L];
        for (l, c) in shoes.iter().enumerate() {
            g.factors_with(
                &Shoe::Finite(*c),
                |slot, f| factor[slot][l] = f,
                &mut inverse[l],
            );
        }
        let mut sums = [[[0.0f64; L]; STRIDE]; 7];
        {
            let flat = sums.as_flattened_mut();
            let mut start = 0;
            for &(bucket, end) in &g.short_runs {
                let mut sum = [0.0f64; L];
                for (f, ways) in &g.short[start..end] {
                    let a = &factor[usize::from(f[0])];
                    let b = &factor[usize::from(f[1])];
                    let c = &factor[usize::from(f[2])];
                    let d = &factor[usize::from(f[3])];
                    for l in 0..L {
                        sum[l] += ways * a[l] * b[l] * c[l] * d[l];
                    }
                }
                flat[bucket] = sum;
                start = end;
            }
        }
        for &i in &g.long {
            let group = &g.groups[i as usize];
            let start = group.first as usize;
            let mut p = [group.ways; L];
            for &f in &g.factors[start..start + usize::from(group.len)] {
                let f = &factor[usize::from(f)];
                for l in 0..L {
                    p[l] *= f[l];
                }
            }
            let slot = &mut sums[usize::from(group.outcome)][usize::from(group.drawn)];
            for l in 0..L {
                slot[l] += p[l];
            }
        }
        let mut out = [[0.0; 7]; L];
        let mut lane = [[0.0f64; STRIDE]; 7];
        for (l, o) in out.iter_mut().enumerate() {
            for (row, sums) in lane.iter_mut().zip(&sums) {
                for (x, s) in row.iter_mut().zip(sums) {
                    *x = s[l];
                }
            }
            *o = g.combine(&lane, &inverse[l]);
        }
        out
    }

    /// The same given no dealer blackjack, like [`outcomes_without_blackjack`].
    pub fn outcomes_without_blackjack(&self, shoe: &Shoe, upcard: usize) -> Outcomes {
        let mut out = self.outcomes(shoe, upcard);
        let rest = 1.0 - out[OUTCOME_BLACKJACK];
        out[OUTCOME_BLACKJACK] = 0.0;
        out.map(|o| o / rest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_pcg::Pcg64;

    fn decks(n: u32) -> [u32; 10] {
        let mut c = [4 * n; 10];
        c[TEN] = 16 * n;
        c
    }

    fn minus(mut c: [u32; 10], rank: usize) -> [u32; 10] {
        c[rank] -= 1;
        c
    }

    #[test]
    fn outcomes_sum_to_one_and_conditioning_removes_blackjack() {
        for shoe_of in [
            |u| Shoe::Finite(minus(decks(1), u)),
            |u| Shoe::Finite(minus(decks(6), u)),
            |_| Shoe::Infinite,
        ] {
            for h17 in [false, true] {
                for up in 0..10 {
                    let shoe: Shoe = shoe_of(up);
                    let all = outcomes(shoe, up, h17);
                    assert!((all.iter().sum::<f64>() - 1.0).abs() < 1e-12, "{up}");
                    let peeked = outcomes_without_blackjack(shoe, up, h17);
                    assert!((peeked.iter().sum::<f64>() - 1.0).abs() < 1e-12);
                    assert_eq!(peeked[OUTCOME_BLACKJACK], 0.0);
                    if up != ACE && up != TEN {
                        assert_eq!(all[OUTCOME_BLACKJACK], 0.0);
                        assert_eq!(all, peeked);
                    } else {
                        // Removing the blackjack branch and renormalising gives the same.
                        let rest = 1.0 - all[OUTCOME_BLACKJACK];
                        for k in 0..OUTCOME_BLACKJACK {
                            assert!((all[k] / rest - peeked[k]).abs() < 1e-12);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_grouped_table_equals_the_recursion() {
        for h17 in [false, true] {
            let table = DealerTable::get(h17);
            for up in 0..10 {
                for shoe in [
                    Shoe::Finite(minus(decks(1), up)),
                    Shoe::Finite(minus(minus(minus(decks(2), up), 3), TEN)),
                    Shoe::Finite([1, 0, 2, 0, 0, 1, 0, 0, 0, 3]),
                    Shoe::Infinite,
                ] {
                    let slow = outcomes(shoe, up, h17);
                    for fast in [table.outcomes(&shoe, up)] {
                        for k in 0..7 {
                            assert!(
                                (fast[k] - slow[k]).abs() < 1e-13,
                                "{up} {k}: {fast:?} {slow:?}"
                            );
                        }
                    }
                    let (fast, slow) = (
                        table.outcomes_without_blackjack(&shoe, up),
                        outcomes_without_blackjack(shoe, up, h17),
                    );
                    for k in 0..7 {
                        assert!((fast[k] - slow[k]).abs() < 1e-13);
                    }
                }
            }
        }
    }

    /// Shoes valued side by side get, each, exactly the bits of one valued alone, for
    /// shoes of every size and composition.
    #[test]
    fn shoes_valued_in_lanes_get_the_bits_of_one_valued_alone() {
        let mut rng = Pcg64::seed_from_u64(17);
        for h17 in [false, true] {
            let table = DealerTable::get(h17);
            for _ in 0..100 {
                let shoes: [[u32; 10]; 4] = std::array::from_fn(|_| {
                    let mut shoe = decks(rng.random_range(1..=8u32));
                    let gone = rng.random_range(0..shoe.iter().sum::<u32>());
                    for _ in 0..gone {
                        let r = rng.random_range(0..10);
                        shoe[r] = shoe[r].saturating_sub(1);
                    }
                    shoe
                });
                for up in 0..10 {
                    let lanes = table.outcomes_lanes(&shoes, up);
                    for (shoe, got) in shoes.iter().zip(lanes) {
                        let alone = table.outcomes(&Shoe::Finite(*shoe), up);
                        assert_eq!(got.map(f64::to_bits), alone.map(f64::to_bits), "{shoe:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn hand_checkable_shoes() {
        // Nothing but tens: a 6 draws to 16, then busts; a ten stands on 20.
        let tens = Shoe::Finite([0, 0, 0, 0, 0, 0, 0, 0, 0, 20]);
        assert_eq!(outcomes(tens, 5, false)[OUTCOME_BUST], 1.0);
        assert_eq!(outcomes(tens, TEN, false)[3], 1.0);
        // Infinite shoe, ace up: blackjack exactly when the hole card is a ten.
        assert!(
            (outcomes(Shoe::Infinite, ACE, false)[OUTCOME_BLACKJACK] - 4.0 / 13.0).abs() < 1e-15
        );
        // One deck, ten up: 4 aces among the 51 other cards.
        let one = Shoe::Finite(minus(decks(1), TEN));
        assert!((outcomes(one, TEN, false)[OUTCOME_BLACKJACK] - 4.0 / 51.0).abs() < 1e-15);
    }

    #[test]
    fn infinite_shoe_bust_rates_match_the_published_table() {
        // The widely published dealer bust rates for an infinite deck, dealer standing on
        // soft 17, upcards 2..9: 35.36, 37.39, 39.45, 41.64, 42.32, 26.23, 24.47, 22.84 %.
        let published = [
            0.3536, 0.3739, 0.3945, 0.4164, 0.4232, 0.2623, 0.2447, 0.2284,
        ];
        for (up, &p) in (1..=8).zip(&published) {
            let bust = outcomes(Shoe::Infinite, up, false)[OUTCOME_BUST];
            assert!((bust - p).abs() < 5e-5, "upcard {}: {bust}", up + 1);
        }
    }

    #[test]
    fn hitting_soft_17_stands_on_17_less_often() {
        let shoe = Shoe::Finite(minus(decks(6), 5));
        let (s17, h17) = (outcomes(shoe, 5, false), outcomes(shoe, 5, true));
        assert!(h17[0] < s17[0]);
        assert!(h17[OUTCOME_BUST] > s17[OUTCOME_BUST]);
    }

    #[test]
    fn finite_shoes_converge_to_the_infinite_shoe_like_one_over_n() {
        let inf = outcomes(Shoe::Infinite, 5, false)[OUTCOME_BUST];
        let error = |n: u32| {
            (outcomes(Shoe::Finite(minus(decks(n), 5)), 5, false)[OUTCOME_BUST] - inf).abs()
        };
        let e: Vec<f64> = [1, 2, 4, 8].iter().map(|&n| error(n)).collect();
        assert!(e.windows(2).all(|w| w[1] < w[0]), "{e:?}");
        // N · error settles: within 25 % between 4 and 8 decks.
        let (a, b) = (4.0 * e[2], 8.0 * e[3]);
        assert!((a - b).abs() < 0.25 * a, "{a} vs {b}");
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore = "Monte Carlo: run with --release")]
    fn one_deck_matches_a_seeded_shoe_simulation() {
        let mut rng = Pcg64::seed_from_u64(21);
        for up in [ACE, 1, 5, 8, TEN] {
            let exact = outcomes(Shoe::Finite(minus(decks(1), up)), up, false);
            let mut cards: Vec<usize> = (0..10)
                .flat_map(|r| std::iter::repeat_n(r, minus(decks(1), up)[r] as usize))
                .collect();
            let trials = 200_000u32;
            let mut seen = [0u32; 7];
            for _ in 0..trials {
                let (mut hard, mut ace, mut n) = (up as u8 + 1, up == ACE, 1u8);
                let mut next = 0;
                let outcome = loop {
                    let soft = ace && hard + 10 <= 21;
                    let value = if soft { hard + 10 } else { hard };
                    if n == 2 && value == 21 {
                        break OUTCOME_BLACKJACK;
                    }
                    if value > 21 {
                        break OUTCOME_BUST;
                    }
                    if value >= 17 {
                        break usize::from(value - 17);
                    }
                    // Draw the next card uniformly from those not yet drawn this round.
                    let j = rng.random_range(next..cards.len());
                    cards.swap(next, j);
                    let r = cards[next];
                    next += 1;
                    hard += r as u8 + 1;
                    ace |= r == ACE;
                    n += 1;
                };
                seen[outcome] += 1;
            }
            for k in 0..7 {
                let p = f64::from(seen[k]) / f64::from(trials);
                let se = (exact[k] * (1.0 - exact[k]) / f64::from(trials))
                    .sqrt()
                    .max(1e-6);
                assert!(
                    (p - exact[k]).abs() < 4.0 * se,
                    "upcard {up} outcome {k}: {p} vs {}",
                    exact[k]
                );
            }
        }
    }
}
