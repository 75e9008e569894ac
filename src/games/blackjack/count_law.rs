//! The exact law of the count at a decision point of `blackjack.indices`: each count's
//! chance, and the mean composition of the shoe at each count.
//!
//! A decision point's shoe has `n` cards gone, `n` uniform over 0 .. the cut card, the
//! cards gone a uniformly random `n`-card subset of the full shoe. The count depends on
//! the cards gone only through `n` and the running count, and the running count only
//! through how many cards of each *tag group* (the ranks sharing one tag) are gone. So
//! the number of `n`-card subsets at each running count is a sum of products of
//! binomials, one per group, built by convolving the groups one after another. And given
//! how many cards of a group are gone, they are a uniformly random subset of the group's
//! cards, so each rank's expected share of them is its share of the group. Hence, exactly
//! (up to floating-point rounding): each count's frequency, and the mean of each
//! [covariate](covariates) of the shoe at each count, which the estimator of `indices`
//! uses as a control.

use cardtables::blackjack::RANKS;

use super::count::Counter;

/// Covariates per decision point: see [`covariates`].
pub const COVARIATES: usize = 10;

/// The covariates of a decision point's shoe `shoe` (per rank, A, 2, …, 9, T), drawn from
/// `full`: for each rank A to 9, its share of the cards left less its share of the full
/// shoe; and the fraction of the shoe left, less ½. (The tens' share is one less the
/// others', so it adds nothing; the offsets only keep the sums of squares well
/// conditioned.)
pub fn covariates(full: &[u32; RANKS], shoe: &[u32; RANKS]) -> [f64; COVARIATES] {
    let cards = f64::from(full.iter().sum::<u32>());
    let left = f64::from(shoe.iter().sum::<u32>());
    let mut x = [0.0; COVARIATES];
    for r in 0..RANKS - 1 {
        x[r] = f64::from(shoe[r]) / left - f64::from(full[r]) / cards;
    }
    x[RANKS - 1] = left / cards - 0.5;
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
}

/// Ways to have seen each number of cards at each running count (twice the running
/// count, an integer): `ways[n · width + (twice − low)]`, `n` below the cut card.
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

    /// The ways after adding a group of `size` cards of tag `tag` (twice the tag), from
    /// which any number may have been seen; with `marked`, also Σ over the ways of how
    /// many of this group's cards were seen.
    fn add(&self, size: u32, tag: i64, marked: bool) -> (Ways, Option<Vec<f64>>) {
        let choose = binomials(size);
        let mut next = vec![0.0; self.ways.len()];
        let mut marks = marked.then(|| vec![0.0; self.ways.len()]);
        for n in 0..self.rows {
            for (i, &w) in self.ways[n * self.width..(n + 1) * self.width]
                .iter()
                .enumerate()
            {
                if w == 0.0 {
                    continue;
                }
                for (k, &c) in choose.iter().enumerate().take(self.rows - n) {
                    // Within the span: |twice| ≤ max |tag| × cards seen.
                    let at = (n + k) * self.width + (i as i64 + k as i64 * tag) as usize;
                    next[at] += w * c;
                    if let Some(m) = marks.as_mut() {
                        m[at] += w * c * k as f64;
                    }
                }
            }
        }
        let ways = Ways {
            low: self.low,
            width: self.width,
            rows: self.rows,
            ways: next,
        };
        (ways, marks)
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

/// The law of `counter`'s count at a decision point of the shoe `full` with the cut card
/// after `cut` cards (1 ≤ `cut` ≤ the shoe).
pub fn count_law(counter: &Counter, full: &[u32; RANKS], cut: u32) -> CountLaw {
    let cards: u32 = full.iter().sum();
    let decks = cards / 52;
    let tags = counter.twice_tags();
    // The tag groups: twice the tag, and the cards of that tag.
    let mut groups: Vec<(i64, u32)> = Vec::new();
    for r in 0..RANKS {
        match groups.iter_mut().find(|g| g.0 == tags[r]) {
            Some(g) => g.1 += full[r],
            None => groups.push((tags[r], full[r])),
        }
    }
    let group_of = |r: usize| groups.iter().position(|g| g.0 == tags[r]).unwrap_or(0);
    let rows = cut.clamp(1, cards) as usize;
    let span = tags.iter().map(|t| t.abs()).max().unwrap_or(0) * (rows as i64 - 1);
    let counts = counter.counts();

    // Per count: Σ p, Σ p / left, Σ p · left / cards, and per group Σ p · E[seen of the
    // group] / left, p the chance of (cards seen, running count).
    let mut freq = vec![0.0; counts];
    let mut per_left = vec![0.0; counts];
    let mut share_left = vec![0.0; counts];
    let mut seen = vec![vec![0.0; counts]; groups.len()];
    for (g, &(tag, size)) in groups.iter().enumerate() {
        // Every other group, then this one, marking how many of its cards were seen.
        let mut ways = Ways::start(rows, span);
        for (h, &(t, s)) in groups.iter().enumerate() {
            if h != g {
                ways = ways.add(s, t, false).0;
            }
        }
        let (ways, marks) = ways.add(size, tag, true);
        let marks = marks.unwrap_or_default();
        for n in 0..rows {
            let row = n * ways.width..(n + 1) * ways.width;
            let total: f64 = ways.ways[row.clone()].iter().sum();
            let left = cards - n as u32;
            for ((i, &w), &m) in ways.ways[row.clone()].iter().enumerate().zip(&marks[row]) {
                if w == 0.0 {
                    continue;
                }
                let twice = ways.low + i as i64;
                let t = (counter.count_of_twice(twice, left, decks) - counter.low) as usize;
                let p = w / total / rows as f64;
                seen[g][t] += m / total / rows as f64 / f64::from(left);
                if g == 0 {
                    freq[t] += p;
                    per_left[t] += p / f64::from(left);
                    share_left[t] += p * f64::from(left) / f64::from(cards);
                }
            }
        }
    }
    let mean = (0..counts)
        .map(|t| {
            let f = freq[t];
            if f <= 0.0 {
                return [f64::NAN; COVARIATES];
            }
            let mut x = [0.0; COVARIATES];
            for r in 0..RANKS - 1 {
                let g = group_of(r);
                let n_r = f64::from(full[r]);
                let in_group = f64::from(groups[g].1);
                // E[shoe_r / left] = full_r · E[1 / left] − (full_r / group) · E[seen of
                // the group / left].
                let density = n_r * per_left[t] - n_r / in_group * seen[g][t];
                x[r] = density / f - n_r / f64::from(cards);
            }
            x[RANKS - 1] = share_left[t] / f - 0.5;
            x
        })
        .collect();
    CountLaw {
        frequency: freq,
        mean,
    }
}
