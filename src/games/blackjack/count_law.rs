//! The exact law of the count at a decision point of `blackjack.indices`: each count's
//! chance, and the mean composition of the shoe at each count.
//!
//! A decision point's shoe has `n` cards gone, `n` uniform over 0 .. the cut card, the
//! cards gone a uniformly random `n`-card subset of the full shoe. The count depends on
//! the cards gone only through `n` and the running count, and the running count only
//! through how many cards of each *tag group* (the ranks sharing one tag) are gone. So
//! the number of `n`-card subsets at each running count is a sum of products of
//! binomials, one per group, built by convolving the groups one after another; weighting
//! each way by how many cards of one group are gone, or by the product of two groups'
//! numbers, gives those numbers' first and second moments at each running count. Given
//! how many cards of a group are gone, they are a uniformly random subset of the group's
//! cards, so the ranks' numbers among them are hypergeometric, with moments the group's
//! times known factors. Hence, exactly (up to floating-point rounding): each count's
//! frequency, and the mean of each [covariate](covariates) of the shoe at each count
//! (linear, or a product of two), which the estimator of `indices` uses as a control.

use cardtables::blackjack::RANKS;

use super::count::Counter;

/// The shoe's first-order covariates: see [`covariates`].
pub const LINEAR: usize = 10;
/// Covariates per decision point: the [`LINEAR`] ones and their products two by two.
pub const COVARIATES: usize = LINEAR + LINEAR * (LINEAR + 1) / 2;

/// The covariates of a decision point's shoe `shoe` (per rank, A, 2, …, 9, T), drawn from
/// `full`. First the linear ones: for each rank A to 9, its share of the cards left less
/// its share of the full shoe; and the fraction of the shoe left, less ½ (the tens' share
/// is one less the others', so it adds nothing; the offsets keep the sums of squares well
/// conditioned). Then the product of every two of them, a covariate with itself included,
/// in the order (0, 0), (0, 1), …, (0, 9), (1, 1), …, (9, 9): a gain is a smooth function
/// of the shoe, and these are the terms of its second-order expansion.
pub fn covariates(full: &[u32; RANKS], shoe: &[u32; RANKS]) -> [f64; COVARIATES] {
    let cards = f64::from(full.iter().sum::<u32>());
    let left = f64::from(shoe.iter().sum::<u32>());
    let mut linear = [0.0; LINEAR];
    for r in 0..RANKS - 1 {
        linear[r] = f64::from(shoe[r]) / left - f64::from(full[r]) / cards;
    }
    linear[LINEAR - 1] = left / cards - 0.5;
    let mut x = [0.0; COVARIATES];
    x[..LINEAR].copy_from_slice(&linear);
    let mut at = LINEAR;
    for i in 0..LINEAR {
        for j in i..LINEAR {
            x[at] = linear[i] * linear[j];
            at += 1;
        }
    }
    x
}

/// The law of the count at a decision point.
#[derive(Clone, Debug, PartialEq)]
pub struct CountLaw {
    /// Per count of the range, in order: its chance.
    pub frequency: Vec<f64>,
    /// Per count: the mean of the [`covariates`] over the decision points at that count
    /// (NaN where the count has no chance).
    pub mean: Vec<[f64; COVARIATES]>,
    /// Per count: each rank's mean share of the cards left (A, 2, …, 9, T), so the chance
    /// that a given card dealt from the shoe is of that rank (NaN where the count has no
    /// chance).
    pub share: Vec<[f64; RANKS]>,
}

/// Ways to have seen each number of cards at each running count (twice the running
/// count, an integer), or a sum over those ways: `ways[n · width + (twice − low)]`, `n`
/// below the cut card.
#[derive(Clone)]
struct Ways {
    low: i64,
    width: usize,
    rows: usize,
    ways: Vec<f64>,
}

impl Ways {
    /// No card seen: one way.
    fn start(rows: usize, span: i64) -> Ways {
        let width = (2 * span + 1) as usize;
        let mut ways = vec![0.0; rows * width];
        ways[span as usize] = 1.0;
        Ways {
            low: -span,
            width,
            rows,
            ways,
        }
    }

    /// The ways after adding a group of `size` cards of tag `tag` (twice the tag), any
    /// number `k` of which may have been seen, each way weighted by `k^power`.
    fn add(&self, size: u32, tag: i64, power: i32) -> Ways {
        let weight: Vec<f64> = binomials(size)
            .iter()
            .enumerate()
            .map(|(k, c)| c * (k as f64).powi(power))
            .collect();
        let mut next = vec![0.0; self.ways.len()];
        for n in 0..self.rows {
            for (i, &w) in self.ways[n * self.width..(n + 1) * self.width]
                .iter()
                .enumerate()
            {
                if w == 0.0 {
                    continue;
                }
                for (k, &c) in weight.iter().enumerate().take(self.rows - n) {
                    // Within the span: |twice| ≤ max |tag| × cards seen.
                    let at = (n + k) * self.width + (i as i64 + k as i64 * tag) as usize;
                    next[at] += w * c;
                }
            }
        }
        Ways {
            ways: next,
            ..self.clone_shape()
        }
    }

    fn clone_shape(&self) -> Ways {
        Ways {
            low: self.low,
            width: self.width,
            rows: self.rows,
            ways: Vec::new(),
        }
    }
}

/// C(size, k) for k = 0..=size.
fn binomials(size: u32) -> Vec<f64> {
    let mut c = vec![1.0f64; size as usize + 1];
    for k in 1..=size as usize {
        c[k] = c[k - 1] * f64::from(size + 1 - k as u32) / k as f64;
    }
    c
}

/// Per count, sums over (cards seen `n`, running count) of its chance `p` times what the
/// covariates' means are made of (`L` the cards left).
struct Sums {
    /// Σ p, Σ p / L, Σ p / L², Σ p · ℓ, Σ p · ℓ² (ℓ = L ÷ cards − ½).
    p: Vec<f64>,
    per_left: Vec<f64>,
    per_left2: Vec<f64>,
    share: Vec<f64>,
    share2: Vec<f64>,
    /// Per group g: Σ p E[k_g], Σ p E[k_g] / L, Σ p E[k_g] / L² (k_g its cards seen).
    k: Vec<Vec<f64>>,
    k_left: Vec<Vec<f64>>,
    k_left2: Vec<Vec<f64>>,
    /// Per groups g ≤ h: Σ p E[k_g k_h] / L².
    kk_left2: Vec<Vec<Vec<f64>>>,
}

/// The law of `counter`'s count at a decision point of the shoe `full` with the cut card
/// after `cut` cards (1 ≤ `cut` ≤ the shoe).
pub fn count_law(counter: &Counter, full: &[u32; RANKS], cut: u32) -> CountLaw {
    let cards: u32 = full.iter().sum();
    let decks = cards / 52;
    let (frequency, mean) = law_by(counter, full, cut, counter.counts(), &|twice, left| {
        (counter.count_of_twice(twice, left, decks) - counter.low) as usize
    });
    let cards_f = f64::from(cards);
    let share = mean
        .iter()
        .map(|x| {
            let mut share = [0.0; RANKS];
            for r in 0..RANKS - 1 {
                share[r] = x[r] + f64::from(full[r]) / cards_f;
            }
            share[RANKS - 1] = 1.0 - share[..RANKS - 1].iter().sum::<f64>();
            share
        })
        .collect();
    CountLaw {
        frequency,
        mean,
        share,
    }
}

/// The joint law, at a decision point, of the count before the round and the count at a
/// decision whose three cards (the dealer's upcard and the player's two) add `shift` to
/// twice the running count: what `indices` needs to state a decision's figures at the
/// count it is made at.
#[derive(Clone, Debug, PartialEq)]
pub struct DecisionLaw {
    /// Twice the tags' sum of the decision's three cards.
    pub shift: i64,
    /// Per (count before the round `t`, count at the decision `d`), at `t · counts + d`
    /// (positions in the range): its chance.
    pub frequency: Vec<f64>,
    /// Per (t, d): the covariates' mean over the decision points there (NaN where it has
    /// no chance).
    pub mean: Vec<[f64; COVARIATES]>,
}

/// [`DecisionLaw`] for the decisions whose cards add `shift` to twice the running count,
/// for the shoe `full` with the cut card after `cut` cards.
pub fn decision_law(counter: &Counter, full: &[u32; RANKS], cut: u32, shift: i64) -> DecisionLaw {
    let cards: u32 = full.iter().sum();
    let decks = cards / 52;
    let counts = counter.counts();
    let position =
        |twice: i64, left: u32| (counter.count_of_twice(twice, left, decks) - counter.low) as usize;
    let (frequency, mean) = law_by(counter, full, cut, counts * counts, &|twice, left| {
        position(twice, left) * counts + position(twice + shift, left.saturating_sub(3))
    });
    DecisionLaw {
        shift,
        frequency,
        mean,
    }
}

/// Every value the three cards of a decision (any three ranks) can add to twice the
/// running count, in increasing order.
pub fn decision_shifts(counter: &Counter) -> Vec<i64> {
    let tags = counter.twice_tags();
    let mut out: Vec<i64> = Vec::new();
    for a in tags {
        for b in tags {
            for c in tags {
                out.push(a + b + c);
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Each bin's chance and the covariates' mean in it, the decision points binned by
/// `bin(twice the running count, cards left)` into `bins` bins.
fn law_by(
    counter: &Counter,
    full: &[u32; RANKS],
    cut: u32,
    bins: usize,
    bin: &dyn Fn(i64, u32) -> usize,
) -> (Vec<f64>, Vec<[f64; COVARIATES]>) {
    let cards: u32 = full.iter().sum();
    let tags = counter.twice_tags();
    // The tag groups: twice the tag, and the cards of that tag.
    let mut groups: Vec<(i64, u32)> = Vec::new();
    for r in 0..RANKS {
        match groups.iter_mut().find(|g| g.0 == tags[r]) {
            Some(g) => g.1 += full[r],
            None => groups.push((tags[r], full[r])),
        }
    }
    let group_of: [usize; RANKS] =
        std::array::from_fn(|r| groups.iter().position(|g| g.0 == tags[r]).unwrap_or(0));
    let rows = cut.clamp(1, cards) as usize;
    let span = tags.iter().map(|t| t.abs()).max().unwrap_or(0) * (rows as i64 - 1);
    let zero = || vec![0.0; bins];
    let mut sums = Sums {
        p: zero(),
        per_left: zero(),
        per_left2: zero(),
        share: zero(),
        share2: zero(),
        k: vec![zero(); groups.len()],
        k_left: vec![zero(); groups.len()],
        k_left2: vec![zero(); groups.len()],
        kk_left2: vec![vec![zero(); groups.len()]; groups.len()],
    };
    let cards_f = f64::from(cards);
    // One pass per pair of groups g ≤ h: every other group, then h and g, weighting the
    // ways by k_h, k_g and k_g · k_h (k_g² when g = h).
    for g in 0..groups.len() {
        for h in g..groups.len() {
            let mut base = Ways::start(rows, span);
            for (e, &(t, s)) in groups.iter().enumerate() {
                if e != g && e != h {
                    base = base.add(s, t, 0);
                }
            }
            let (tg, sg) = groups[g];
            let (ways, by_g, by_gh) = if g == h {
                (
                    base.add(sg, tg, 0),
                    base.add(sg, tg, 1),
                    base.add(sg, tg, 2),
                )
            } else {
                let (th, sh) = groups[h];
                let (w, m) = (base.add(sh, th, 0), base.add(sh, th, 1));
                (w.add(sg, tg, 0), w.add(sg, tg, 1), m.add(sg, tg, 1))
            };
            for n in 0..rows {
                let row = n * ways.width..(n + 1) * ways.width;
                let total: f64 = ways.ways[row.clone()].iter().sum();
                let left = f64::from(cards - n as u32);
                let cells = ways.ways[row.clone()]
                    .iter()
                    .zip(&by_g.ways[row.clone()])
                    .zip(&by_gh.ways[row]);
                for (i, ((&w, &mg), &mgh)) in cells.enumerate() {
                    if w == 0.0 {
                        continue;
                    }
                    let twice = ways.low + i as i64;
                    let t = bin(twice, cards - n as u32);
                    let scale = 1.0 / total / rows as f64;
                    let p = w * scale;
                    sums.kk_left2[g][h][t] += mgh * scale / (left * left);
                    if h == g {
                        sums.k[g][t] += mg * scale;
                        sums.k_left[g][t] += mg * scale / left;
                        sums.k_left2[g][t] += mg * scale / (left * left);
                    }
                    if g == 0 && h == 0 {
                        let share = left / cards_f - 0.5;
                        sums.p[t] += p;
                        sums.per_left[t] += p / left;
                        sums.per_left2[t] += p / (left * left);
                        sums.share[t] += p * share;
                        sums.share2[t] += p * share * share;
                    }
                }
            }
        }
    }
    let mean: Vec<[f64; COVARIATES]> = (0..bins)
        .map(|t| means_at(&sums, t, full, &groups, &group_of))
        .collect();
    (sums.p, mean)
}

/// The covariates' mean at count `t` from the sums.
fn means_at(
    s: &Sums,
    t: usize,
    full: &[u32; RANKS],
    groups: &[(i64, u32)],
    group_of: &[usize; RANKS],
) -> [f64; COVARIATES] {
    let f = s.p[t];
    if f <= 0.0 {
        return [f64::NAN; COVARIATES];
    }
    let cards = f64::from(full.iter().sum::<u32>());
    let n = |r: usize| f64::from(full[r]);
    let size = |g: usize| f64::from(groups[g].1);
    // Each rank's share of its group: E[seen_r | k_g] = k_g · n_r / G.
    let part = |r: usize| n(r) / size(group_of[r]);
    // Σ p · shoe_r / L and Σ p · shoe_r.
    let shoe_left = |r: usize| n(r) * s.per_left[t] - part(r) * s.k_left[group_of[r]][t];
    let shoe = |r: usize| n(r) * f - part(r) * s.k[group_of[r]][t];
    // Σ p · seen_r · seen_q / L².
    let seen2 = |r: usize, q: usize| {
        let (g, h) = (group_of[r], group_of[q]);
        let kk = s.kk_left2[g.min(h)][g.max(h)][t];
        if g != h {
            return part(r) * part(q) * kk;
        }
        let big = size(g);
        // E[k (k − 1)] / L², and the hypergeometric factorial moments within the group.
        let falling = kk - s.k_left2[g][t];
        let pairs = if big > 1.0 {
            falling / (big * (big - 1.0))
        } else {
            0.0
        };
        if r == q {
            n(r) * (n(r) - 1.0) * pairs + part(r) * s.k_left2[g][t]
        } else {
            n(r) * n(q) * pairs
        }
    };
    // Σ p · shoe_r · shoe_q / L².
    let shoe2 = |r: usize, q: usize| {
        n(r) * n(q) * s.per_left2[t]
            - n(r) * part(q) * s.k_left2[group_of[q]][t]
            - n(q) * part(r) * s.k_left2[group_of[r]][t]
            + seen2(r, q)
    };
    let c = |r: usize| n(r) / cards;
    // Σ p · x_i and Σ p · x_i x_j for the linear covariates.
    let linear = |i: usize| {
        if i < LINEAR - 1 {
            shoe_left(i) - c(i) * f
        } else {
            s.share[t]
        }
    };
    let product = |i: usize, j: usize| match (i < LINEAR - 1, j < LINEAR - 1) {
        (true, true) => shoe2(i, j) - c(j) * shoe_left(i) - c(i) * shoe_left(j) + c(i) * c(j) * f,
        // (shoe_i / L − c_i) · (L / cards − ½).
        (true, false) => shoe(i) / cards - 0.5 * shoe_left(i) - c(i) * s.share[t],
        (false, true) => shoe(j) / cards - 0.5 * shoe_left(j) - c(j) * s.share[t],
        (false, false) => s.share2[t],
    };
    let mut x = [0.0; COVARIATES];
    for (i, v) in x.iter_mut().take(LINEAR).enumerate() {
        *v = linear(i) / f;
    }
    let mut at = LINEAR;
    for i in 0..LINEAR {
        for j in i..LINEAR {
            x[at] = product(i, j) / f;
            at += 1;
        }
    }
    x
}
