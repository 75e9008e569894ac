//! Count-index plays: at which count each basic-strategy decision changes, the player's
//! EV by count, and insurance by count, for one rule set and one counting system.
//!
//! # The method
//! A *decision point* is the start of a round, dealt from a shoe of which `depth` cards
//! have gone since the shuffle, `depth` uniform over 0 .. the cut card (penetration ×
//! the shoe), the cards gone a uniformly random subset of the shoe. Its *count* is the
//! counter's count of those cards (the cards of the round itself are not counted: the
//! count a bet is placed at, and the one most index tables use).
//!
//! For every count `t` of the tabulated range the job draws decision points whose count
//! is `t`, by rejection (a drawn shoe with another count is discarded, so the points kept
//! follow exactly the law of the shoe given its count), and values each *exactly*: for
//! every upcard and starting hand, the EV of every first action (stand, hit, double,
//! split, surrender) from that shoe, every later decision the basic strategy chart's, and
//! the round's EV under the chart; and for every *later hand* (three or more cards, that
//! the chart reaches by hitting a starting hand it does not split), standing and hitting.
//! Only the shoe is sampled; no EV is simulated.
//!
//! A chart *cell* (row × upcard) is worth, per round, the sum over its starting hands of
//! their chance times their EV. The *gain* of an action in a cell at count `t` is the
//! expectation, over the shoes at `t`, of what playing it instead of the chart's play on
//! every hand of the cell the chart reaches adds to the round, per round played: on its
//! starting hands as their first action, and on its later hands (where the choice is
//! stand or hit) as that decision. So a stand-or-hit index means what published index
//! tables mean by it (stand on every hard 16 against a ten, of two cards or more). A
//! path meets a total at most once, so the hands' changes add up exactly. Hands after a
//! split are played by the chart throughout. It, the round's EV and insurance's are
//! estimated from the points drawn at `t` by regression on the shoe's [covariates], whose
//! exact mean at `t` is known ([`Moments::estimate`]: a control variate). An index is
//! where that gain changes sign: the lowest count from which the action beats the chart
//! at every higher count tabulated ("at or above"), or the highest up to which it beats
//! it at every lower count ("at or below"). Its *crossing*, interpolated linearly between
//! the two counts around the change, carries a standard error by the delta method; its
//! value per 100 rounds is the gain summed over the counts where the index applies, each
//! weighted by that count's frequency.
//!
//! The frequency of each count, and the covariates' mean at each, are exact
//! ([`super::count_law`]).
//!
//! Two identities check the whole chain (see the tests): averaged over counts by their
//! frequency, the chart's EV is the full-shoe chart EV (cards removed unseen change
//! nothing), and so is insurance's.

use rand::RngExt;
use serde::{Deserialize, Serialize};

use cardtables::blackjack::{Action, Cell, ACTIONS, CHART_ROWS, NO_ACTION, RANKS};

use super::analysis::chart_starts;
use super::count::Counter;
use super::count_law::{
    count_law, covariates, decision_law, decision_shifts, CountLaw, DecisionLaw, COVARIATES,
};
use super::hands::{ACE, TEN};
use super::rules::BlackjackRules;
use crate::job::{JobError, JobSpec};

/// Chart cells (row · 10 + upcard), as [`cardtables::blackjack`] indexes charts.
pub const CELLS: usize = CHART_ROWS * RANKS;

/// The `[indices]` table of a `blackjack.indices` job.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct IndicesSettings {
    /// Fraction of the shoe dealt before the shuffle (the cut card).
    pub penetration: f64,
    /// Decision points valued exactly at each count of the range.
    pub points_per_count: u32,
    /// Which count an index is stated in.
    pub count_at: CountAt,
}

impl Default for IndicesSettings {
    fn default() -> Self {
        IndicesSettings {
            penetration: 0.75,
            points_per_count: 2_000,
            count_at: CountAt::Decision,
        }
    }
}

/// The moment of the round whose count indices are stated in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CountAt {
    /// When the first decision is made: the cards dealt before the round, the dealer's
    /// upcard and the player's two cards. Published index tables (the Illustrious 18,
    /// the Fab 4) are stated in this count.
    #[default]
    Decision,
    /// Before the round is dealt: the count the bet is placed at.
    RoundStart,
}

impl CountAt {
    /// The word job files and outputs use.
    pub fn word(self) -> &'static str {
        match self {
            CountAt::Decision => "decision",
            CountAt::RoundStart => "round_start",
        }
    }
}

/// Fewest cards left at the cut card: a round then always has cards to finish.
pub const MIN_CARDS_LEFT: u32 = 20;
/// Most decision points per count a job may ask for.
const MAX_POINTS_PER_COUNT: u32 = 10_000_000;

impl IndicesSettings {
    /// Validates the `[indices]` table against the rules (the shoe size).
    pub fn from_spec(
        spec: &JobSpec,
        rules: &[BlackjackRules],
    ) -> Result<IndicesSettings, JobError> {
        #[derive(Deserialize)]
        struct Sections {
            #[serde(default)]
            indices: Option<IndicesSettings>,
        }
        let s: Sections = spec.deserialize()?;
        let s = s.indices.unwrap_or_default();
        if !(s.penetration > 0.0 && s.penetration < 1.0) {
            return Err(spec.field_error(
                "indices.penetration",
                format!(
                    "{}: give the fraction of the shoe dealt before the shuffle, e.g. 0.75",
                    s.penetration
                ),
            ));
        }
        if !(1..=MAX_POINTS_PER_COUNT).contains(&s.points_per_count) {
            return Err(spec.field_error(
                "indices.points_per_count",
                format!("{}: use 1 to {MAX_POINTS_PER_COUNT}", s.points_per_count),
            ));
        }
        for r in rules {
            let Some(shoe) = r.shoe() else {
                return Err(spec.field_error(
                    "rules.decks",
                    "an infinite shoe has no count: give 1 to 8 decks",
                ));
            };
            let cards: u32 = shoe.iter().sum();
            let left = cards - s.cut(cards);
            if left < MIN_CARDS_LEFT {
                return Err(spec.field_error(
                    "indices.penetration",
                    format!(
                        "{}: leaves {left} of {cards} cards at the cut card; leave at least {MIN_CARDS_LEFT}",
                        s.penetration
                    ),
                ));
            }
        }
        Ok(s)
    }

    /// Cards dealt before the shuffle, from a shoe of `cards`.
    pub fn cut(&self, cards: u32) -> u32 {
        ((self.penetration * f64::from(cards)).floor() as u32).clamp(1, cards)
    }

    /// The settings as the outputs record them (TOML).
    pub fn canonical_toml(&self) -> String {
        format!(
            "[indices]\npenetration = {}\npoints_per_count = {}\ncount_at = \"{}\"\n",
            self.penetration,
            self.points_per_count,
            self.count_at.word()
        )
    }
}

/// Sums of one statistic over decision points, for its mean and standard error, and of its
/// products with each point's covariates, for the regression estimate.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Moments {
    pub sum: f64,
    pub sum_sq: f64,
    /// Σ the statistic × each covariate ([`COVARIATES`] of them; empty until a point is
    /// added, so that actions a cell never allows cost nothing).
    pub sum_x: Vec<f64>,
}

impl Moments {
    pub fn add(&mut self, y: f64, x: &[f64; COVARIATES]) {
        self.sum += y;
        self.sum_sq += y * y;
        if self.sum_x.is_empty() {
            self.sum_x = vec![0.0; COVARIATES];
        }
        for (s, &xi) in self.sum_x.iter_mut().zip(x) {
            *s += y * xi;
        }
    }

    fn merge(&mut self, o: &Moments) {
        self.sum += o.sum;
        self.sum_sq += o.sum_sq;
        if self.sum_x.is_empty() {
            self.sum_x.clone_from(&o.sum_x);
        } else {
            for (a, b) in self.sum_x.iter_mut().zip(&o.sum_x) {
                *a += b;
            }
        }
    }

    /// Whether the covariate sums have their length (or are empty).
    fn well_formed(&self) -> bool {
        self.sum_x.is_empty() || self.sum_x.len() == COVARIATES
    }

    /// Mean and standard error over `n` points (NaN when there are none; a zero error
    /// with one point).
    pub fn mean_se(&self, n: u64) -> (f64, f64) {
        if n == 0 {
            return (f64::NAN, f64::NAN);
        }
        let nf = n as f64;
        let mean = self.sum / nf;
        if n == 1 {
            return (mean, 0.0);
        }
        let var = ((self.sum_sq - nf * mean * mean) / (nf - 1.0)).max(0.0);
        (mean, (var / nf).sqrt())
    }

    /// The regression estimate of the statistic's mean at a count, and its standard
    /// error, from the `n` points' sums and the count's [`Fit`]: the points' mean
    /// corrected by the least-squares slopes times how far the points' covariates fall
    /// from their exact mean (a control variate with a known mean). Without a fit, the
    /// plain mean.
    pub fn estimate(&self, n: u64, fit: Option<&Fit>) -> (f64, f64) {
        let plain = self.mean_se(n);
        let Some(fit) = fit.filter(|_| self.sum_x.len() == COVARIATES) else {
            return plain;
        };
        let nf = n as f64;
        let ybar = self.sum / nf;
        // Sums of products about the points' means.
        let sxy: Vec<f64> = (0..COVARIATES)
            .map(|i| self.sum_x[i] - nf * fit.xbar[i] * ybar)
            .collect();
        let syy = self.sum_sq - nf * ybar * ybar;
        let slope = fit.factor.solve(&sxy);
        let estimate = ybar + dot(&slope, &fit.d);
        let residual = (syy - dot(&slope, &sxy)).max(0.0);
        let s2 = residual / (nf - COVARIATES as f64 - 1.0);
        (estimate, (s2 * (1.0 / nf + fit.leverage)).sqrt())
    }
}

/// Fewest points at a count for the regression estimate: below, the plain mean.
pub const MIN_POINTS_TO_FIT: u64 = 2 * COVARIATES as u64;

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The Cholesky factor of a symmetric positive-definite matrix of side [`COVARIATES`]
/// (row-major, lower triangle).
#[derive(Clone, Debug)]
struct Cholesky(Vec<f64>);

impl Cholesky {
    /// `None` when the matrix is not positive definite to working precision (a pivot
    /// below 10⁻¹⁰ of its diagonal entry, or NaN).
    fn of(a: &[f64]) -> Option<Cholesky> {
        const P: usize = COVARIATES;
        let mut l = vec![0.0; P * P];
        for i in 0..P {
            for j in 0..=i {
                let s: f64 = (0..j).map(|k| l[i * P + k] * l[j * P + k]).sum();
                if i == j {
                    let pivot = a[i * P + i] - s;
                    if pivot.partial_cmp(&(1e-10 * a[i * P + i]))
                        != Some(std::cmp::Ordering::Greater)
                    {
                        return None;
                    }
                    l[i * P + i] = pivot.sqrt();
                } else {
                    l[i * P + j] = (a[i * P + j] - s) / l[j * P + j];
                }
            }
        }
        Some(Cholesky(l))
    }

    /// x with A x = b.
    fn solve(&self, b: &[f64]) -> Vec<f64> {
        const P: usize = COVARIATES;
        let l = &self.0;
        let mut y = vec![0.0; P];
        for i in 0..P {
            y[i] = (b[i] - (0..i).map(|k| l[i * P + k] * y[k]).sum::<f64>()) / l[i * P + i];
        }
        let mut x = vec![0.0; P];
        for i in (0..P).rev() {
            x[i] = (y[i] - (i + 1..P).map(|k| l[k * P + i] * x[k]).sum::<f64>()) / l[i * P + i];
        }
        x
    }
}

/// Sums of the decision points' covariates and of their products, two by two.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Design {
    pub sum: Vec<f64>,
    /// Row-major, [`COVARIATES`] × [`COVARIATES`].
    pub sum_outer: Vec<f64>,
}

impl Default for Design {
    fn default() -> Self {
        Design {
            sum: vec![0.0; COVARIATES],
            sum_outer: vec![0.0; COVARIATES * COVARIATES],
        }
    }
}

/// What the regression estimates at one count share: the points' covariate means, how far
/// they fall from the exact means, the factor of their sums of squares, and the leverage
/// of the exact means.
#[derive(Clone, Debug)]
pub struct Fit {
    xbar: Vec<f64>,
    d: Vec<f64>,
    factor: Cholesky,
    leverage: f64,
}

impl Design {
    pub fn add(&mut self, x: &[f64; COVARIATES]) {
        for (i, &xi) in x.iter().enumerate() {
            self.sum[i] += xi;
            for (o, &xj) in self.sum_outer[i * COVARIATES..(i + 1) * COVARIATES]
                .iter_mut()
                .zip(x)
            {
                *o += xi * xj;
            }
        }
    }

    fn merge(&mut self, o: &Design) {
        for (a, b) in self.sum.iter_mut().zip(&o.sum) {
            *a += b;
        }
        for (a, b) in self.sum_outer.iter_mut().zip(&o.sum_outer) {
            *a += b;
        }
    }

    /// The fit of `n` points to the covariates' exact mean `mean` at their count: `None`
    /// with fewer than [`MIN_POINTS_TO_FIT`] points, a mean not known, or covariates that
    /// do not vary independently.
    pub fn fit(&self, n: u64, mean: &[f64; COVARIATES]) -> Option<Fit> {
        if n < MIN_POINTS_TO_FIT || mean.iter().any(|m| !m.is_finite()) {
            return None;
        }
        let nf = n as f64;
        let xbar: Vec<f64> = self.sum.iter().map(|s| s / nf).collect();
        let sxx: Vec<f64> = (0..COVARIATES * COVARIATES)
            .map(|at| {
                let (i, j) = (at / COVARIATES, at % COVARIATES);
                self.sum_outer[at] - nf * xbar[i] * xbar[j]
            })
            .collect();
        let factor = Cholesky::of(&sxx)?;
        let d: Vec<f64> = mean.iter().zip(&xbar).map(|(m, x)| m - x).collect();
        let leverage = dot(&d, &factor.solve(&d));
        Some(Fit {
            xbar,
            d,
            factor,
            leverage,
        })
    }
}

/// One chart cell's sums over decision points.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CellSums {
    /// Σ the cell's chance per round.
    pub weight: f64,
    /// Which first actions its hands allow.
    pub allowed: [bool; ACTIONS],
    /// Σ the cell's value per round with each first action (its chance × conditioned EV).
    pub value: [f64; ACTIONS],
    /// Each first action's value minus the chart's, per round (NaN sums: not allowed).
    pub gain: [Moments; ACTIONS],
}

/// One chart cell's sums over decision points, for its hands decided at one count.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DecisionCell {
    /// Σ the chance per round of the cell's hands decided at this count.
    pub weight: f64,
    /// Σ their value per round with each first action.
    pub value: [f64; ACTIONS],
}

/// The decision points at which the decisions whose three cards add `shift` to twice the
/// running count are made at one count, and sums over them of those decisions.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ShiftSums {
    /// Twice the tags' sum of the decision's cards (the upcard and the player's two).
    pub shift: i64,
    /// The decision points.
    pub points: u64,
    /// Their covariates.
    pub design: Design,
    /// Per chart cell, per first action: the value of the cell's hands of this shift
    /// with that action minus with the chart's, per round.
    pub gain: Vec<[Moments; ACTIONS]>,
    /// Per round, the gain of insuring (half a bet) the hands of this shift under an ace.
    pub insurance: Moments,
}

impl ShiftSums {
    fn new(shift: i64) -> ShiftSums {
        ShiftSums {
            shift,
            gain: vec![Default::default(); CELLS],
            ..ShiftSums::default()
        }
    }

    fn merge(&mut self, o: &ShiftSums) {
        self.points += o.points;
        self.design.merge(&o.design);
        self.insurance.merge(&o.insurance);
        for (a, b) in self.gain.iter_mut().zip(&o.gain) {
            for k in 0..ACTIONS {
                a[k].merge(&b[k]);
            }
        }
    }
}

/// The sums of the decisions made at one count (under [`CountAt::Decision`]), over the
/// decision points of one count before the round.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AtDecision {
    /// Per chart cell.
    pub cells: Vec<DecisionCell>,
    /// Σ the chance per round of an ace up with a player's hand decided at this count.
    pub ace: f64,
    /// Per shift of the decision's cards (in the order first met).
    pub shifts: Vec<ShiftSums>,
}

impl AtDecision {
    fn empty() -> AtDecision {
        AtDecision {
            cells: vec![DecisionCell::default(); CELLS],
            ..AtDecision::default()
        }
    }

    /// The sums of one shift, made when first needed.
    fn shift(&mut self, shift: i64) -> &mut ShiftSums {
        let at = match self.shifts.iter().position(|x| x.shift == shift) {
            Some(at) => at,
            None => {
                self.shifts.push(ShiftSums::new(shift));
                self.shifts.len() - 1
            }
        };
        &mut self.shifts[at]
    }

    fn merge(&mut self, o: &AtDecision) {
        self.ace += o.ace;
        for (a, b) in self.cells.iter_mut().zip(&o.cells) {
            a.weight += b.weight;
            for k in 0..ACTIONS {
                a.value[k] += b.value[k];
            }
        }
        for x in &o.shifts {
            self.shift(x.shift).merge(x);
        }
    }

    fn well_formed(&self) -> bool {
        self.cells.len() == CELLS
            && self.shifts.iter().all(|x| {
                x.gain.len() == CELLS
                    && x.design.sum.len() == COVARIATES
                    && x.design.sum_outer.len() == COVARIATES * COVARIATES
                    && x.insurance.well_formed()
                    && x.gain.iter().flatten().all(Moments::well_formed)
            })
    }
}

/// What one unit found at one count: its decision points' sums.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CountSample {
    /// Decision points valued (fewer than asked only if the count is too rare to reach
    /// within the attempt limit).
    pub points: u64,
    /// Shoes drawn to find them.
    pub attempts: u64,
    /// The points' covariates.
    pub design: Design,
    /// The round's EV under the chart.
    pub round: Moments,
    /// Insurance: per round, the gain of insuring (half a bet) when an ace shows.
    pub insurance: Moments,
    /// Per chart cell.
    pub cells: Vec<CellSums>,
    /// Under [`CountAt::Decision`], per count of the range (by position; `None` where no
    /// decision was made at it): the sums of the decisions made at that count. Empty
    /// under [`CountAt::RoundStart`].
    pub decision: Vec<Option<AtDecision>>,
    /// Under [`CountAt::Decision`], per count of the range (by position; `None` where no
    /// later hand was decided at it): per chart cell and action, each point's gain of the
    /// action over the chart's on its later hands (three or more cards, reached by
    /// hitting) decided at that count. Empty under [`CountAt::RoundStart`], where later
    /// hands are in `cells`' gains.
    pub later: Vec<Option<Vec<[Moments; ACTIONS]>>>,
}

/// Adds `other`'s sums by count position into `sums` (`None`: nothing at that count).
fn merge_by_count<T: Clone>(
    sums: &mut Vec<Option<T>>,
    other: &[Option<T>],
    merge: impl Fn(&mut T, &T),
) {
    if sums.len() < other.len() {
        sums.resize(other.len(), None);
    }
    for (a, b) in sums.iter_mut().zip(other) {
        match (a.as_mut(), b) {
            (_, None) => {}
            (None, Some(b)) => *a = Some(b.clone()),
            (Some(a), Some(b)) => merge(a, b),
        }
    }
}

impl CountSample {
    /// No points yet.
    pub fn empty() -> CountSample {
        CountSample {
            cells: vec![CellSums::default(); CELLS],
            ..CountSample::default()
        }
    }

    /// Adds another sample of the same count.
    pub fn merge(&mut self, o: &CountSample) {
        self.points += o.points;
        self.attempts += o.attempts;
        self.design.merge(&o.design);
        self.round.merge(&o.round);
        self.insurance.merge(&o.insurance);
        for (a, b) in self.cells.iter_mut().zip(&o.cells) {
            a.weight += b.weight;
            for (x, y) in a.allowed.iter_mut().zip(&b.allowed) {
                *x |= y;
            }
            for k in 0..ACTIONS {
                a.value[k] += b.value[k];
                a.gain[k].merge(&b.gain[k]);
            }
        }
        merge_by_count(&mut self.decision, &o.decision, AtDecision::merge);
        merge_by_count(&mut self.later, &o.later, |a, b| {
            for (x, y) in a.iter_mut().zip(b) {
                for k in 0..ACTIONS {
                    x[k].merge(&y[k]);
                }
            }
        });
    }

    /// Checks the lengths `finish` relies on, for a range of `counts` counts.
    pub fn check(&self, counts: usize) -> Result<(), String> {
        if self.cells.len() != CELLS {
            return Err(format!("{} cells, expected {CELLS}", self.cells.len()));
        }
        if self.decision.len() > counts {
            return Err(format!(
                "decisions at {} counts, the range has {counts}",
                self.decision.len()
            ));
        }
        if !self.decision.iter().flatten().all(AtDecision::well_formed) {
            return Err(format!(
                "sums at a decision count of the wrong length (expected {CELLS} cells, \
                 {COVARIATES} covariates)"
            ));
        }
        if self.later.len() > counts {
            return Err(format!(
                "later hands at {} counts, the range has {counts}",
                self.later.len()
            ));
        }
        let later_ok = |cells: &Vec<[Moments; ACTIONS]>| {
            cells.len() == CELLS && cells.iter().flatten().all(Moments::well_formed)
        };
        if !self.later.iter().flatten().all(later_ok) {
            return Err(format!(
                "later hands' sums of the wrong length (expected {CELLS} cells, \
                 {COVARIATES} covariates)"
            ));
        }
        let design = &self.design;
        let moments = [&self.round, &self.insurance]
            .into_iter()
            .chain(self.cells.iter().flat_map(|c| c.gain.iter()));
        if design.sum.len() != COVARIATES
            || design.sum_outer.len() != COVARIATES * COVARIATES
            || !moments.into_iter().all(Moments::well_formed)
        {
            return Err(format!(
                "covariate sums of the wrong length (expected {COVARIATES})"
            ));
        }
        Ok(())
    }
}

/// Draws the cards gone at a uniformly random depth before the cut card: per rank.
pub(super) fn draw_seen(
    full: &[u32; RANKS],
    cards: u32,
    cut: u32,
    rng: &mut impl RngExt,
) -> [u32; RANKS] {
    let depth = rng.random_range(0..cut);
    let mut left = *full;
    let mut remaining = cards;
    let mut seen = [0u32; RANKS];
    for _ in 0..depth {
        let mut x = rng.random_range(0..remaining);
        let mut r = 0;
        while x >= left[r] {
            x -= left[r];
            r += 1;
        }
        left[r] -= 1;
        seen[r] += 1;
        remaining -= 1;
    }
    seen
}

/// Most shoes drawn per decision point asked for before a count is given up as out of
/// reach at this penetration.
const ATTEMPTS_PER_POINT: u64 = 200_000;

/// One unit: `points` decision points at count `target`, valued exactly.
pub fn sample_count(
    rules: &BlackjackRules,
    counter: &Counter,
    settings: &IndicesSettings,
    chart: &[Cell],
    target: i32,
    points: u32,
    rng: &mut impl RngExt,
) -> CountSample {
    let full = rules.shoe().unwrap_or([0; RANKS]);
    let cards: u32 = full.iter().sum();
    let decks = cards / 52;
    let cut = settings.cut(cards);
    let mut out = CountSample::empty();
    let limit = ATTEMPTS_PER_POINT * u64::from(points);
    while out.points < u64::from(points) && out.attempts < limit {
        out.attempts += 1;
        let seen = draw_seen(&full, cards, cut, rng);
        let left_cards = cards - seen.iter().sum::<u32>();
        if counter.count(&seen, left_cards, decks) != target {
            continue;
        }
        let shoe: [u32; RANKS] = std::array::from_fn(|r| full[r] - seen[r]);
        let at = (settings.count_at == CountAt::Decision).then_some(counter);
        value_point(rules, chart, &full, &shoe, at, &mut out);
    }
    out
}

/// The exact law of the count at the decision points of `sample_count` (its depths and
/// cut card) for one rule set.
pub fn law_at_cut(
    rules: &BlackjackRules,
    counter: &Counter,
    settings: &IndicesSettings,
) -> CountLaw {
    let full = rules.shoe().unwrap_or([0; RANKS]);
    let cards: u32 = full.iter().sum();
    count_law(counter, &full, settings.cut(cards))
}

/// The joint laws of the count before the round and at each kind of decision (by the
/// shift its cards make), for [`summarize`] under [`CountAt::Decision`].
pub fn decision_laws(
    rules: &BlackjackRules,
    counter: &Counter,
    settings: &IndicesSettings,
) -> Vec<DecisionLaw> {
    let full = rules.shoe().unwrap_or([0; RANKS]);
    let cards: u32 = full.iter().sum();
    decision_shifts(counter)
        .into_iter()
        .map(|shift| decision_law(counter, &full, settings.cut(cards), shift))
        .collect()
}

/// Values one decision point, the shoe `shoe` drawn from `full`, exactly and adds it to
/// the sums; with `at_decision`, also each decision's sums at its count at the decision
/// (that counter's).
pub fn value_point(
    rules: &BlackjackRules,
    chart: &[Cell],
    full: &[u32; RANKS],
    shoe: &[u32; RANKS],
    at_decision: Option<&Counter>,
    out: &mut CountSample,
) {
    let x = covariates(full, shoe);
    let mut cell_value = vec![[0.0f64; ACTIONS]; CELLS];
    let mut cell_weight = vec![0.0f64; CELLS];
    let mut allowed = vec![[false; ACTIONS]; CELLS];
    let mut round = 0.0;
    // Under `at_decision`: each hand's (shift of its cards, cell, chance, values).
    let mut decided: Vec<(i64, usize, f64, [f64; ACTIONS])> = Vec::new();
    // Each later hand's gains over the chart: per cell (at the count before the round),
    // or under `at_decision` with the shift of its cards and their number.
    let mut later_gain = vec![[0.0f64; ACTIONS]; CELLS];
    let mut later_at: Vec<(i64, u32, usize, [f64; ACTIONS])> = Vec::new();
    let twice_tags = at_decision.map_or([0; RANKS], Counter::twice_tags);
    let shift_of = |cards: [usize; 3]| cards.iter().map(|&c| twice_tags[c]).sum::<i64>();
    for u in 0..RANKS {
        if shoe[u] == 0 {
            continue;
        }
        let column: Vec<Cell> = (0..CHART_ROWS).map(|row| chart[row * RANKS + u]).collect();
        let (starts, later, ev) = chart_starts(rules, *shoe, u, &column);
        round += ev;
        for l in &later {
            let cell = l.row * RANKS + u;
            // The play the chart does not make on it: standing where it hits, else hitting.
            let mut gain = [0.0; ACTIONS];
            if l.chart_hits {
                gain[Action::Stand as usize] = l.stand_gain;
            } else {
                gain[Action::Hit as usize] = -l.stand_gain;
            }
            if at_decision.is_some() {
                let shift = twice_tags[u]
                    + (0..RANKS)
                        .map(|r| i64::from(l.cards[r]) * twice_tags[r])
                        .sum::<i64>();
                let removed = 1 + l.cards.iter().map(|&n| u32::from(n)).sum::<u32>();
                later_at.push((shift, removed, cell, gain));
            } else {
                for (g, x) in later_gain[cell].iter_mut().zip(gain) {
                    *g += x;
                }
            }
        }
        for s in starts.iter().filter(|s| s.weight > 0.0) {
            let cell = s.row * RANKS + u;
            cell_weight[cell] += s.weight;
            let mut value = [0.0; ACTIONS];
            for (k, &v) in s.evs.iter().enumerate() {
                if !v.is_nan() {
                    allowed[cell][k] = true;
                    value[k] = s.weight * v;
                    cell_value[cell][k] += value[k];
                }
            }
            if at_decision.is_some() {
                decided.push((shift_of([u, s.cards.0, s.cards.1]), cell, s.weight, value));
            }
        }
    }
    if let Some(counter) = at_decision {
        let seen: [u32; RANKS] = std::array::from_fn(|r| full[r] - shoe[r]);
        let point = Point {
            counter,
            twice_seen: seen
                .iter()
                .zip(&twice_tags)
                .map(|(&n, &t)| i64::from(n) * t)
                .sum(),
            left: shoe.iter().sum(),
            decks: full.iter().sum::<u32>() / 52,
            x: &x,
        };
        add_decisions(chart, shoe, &allowed, &mut decided, &point, out);
        add_later(&later_at, &allowed, &point, out);
    }
    out.points += 1;
    out.design.add(&x);
    out.round.add(round, &x);
    for cell in 0..CELLS {
        if cell_weight[cell] == 0.0 {
            continue;
        }
        let sums = &mut out.cells[cell];
        sums.weight += cell_weight[cell];
        for (x, &y) in sums.allowed.iter_mut().zip(&allowed[cell]) {
            *x |= y;
        }
        let chart_action = chart_action(chart, cell, &allowed[cell]);
        let base = cell_value[cell][chart_action as usize];
        for k in 0..ACTIONS {
            if allowed[cell][k] {
                sums.value[k] += cell_value[cell][k];
                // Under the count at the decision, the gains are summed by that count.
                if at_decision.is_none() {
                    sums.gain[k].add(cell_value[cell][k] - base + later_gain[cell][k], &x);
                }
            }
        }
    }
    // Insurance, offered when an ace shows: it pays 2 to 1 on half a bet if the hole card
    // is ten-valued. Averaged over the player's two cards, the hole card is ten-valued
    // with chance tens ÷ (cards − 1) once the ace is out.
    let cards: u32 = shoe.iter().sum();
    if shoe[ACE] > 0 && cards > 1 {
        let p_ace = f64::from(shoe[ACE]) / f64::from(cards);
        let p_ten = f64::from(shoe[TEN]) / f64::from(cards - 1);
        out.insurance.add(p_ace * 0.5 * (3.0 * p_ten - 1.0), &x);
    }
}

/// A decision point as [`add_decisions`] bins it.
struct Point<'a> {
    counter: &'a Counter,
    /// Twice the running count of the cards dealt before the round.
    twice_seen: i64,
    /// Cards left before the round, and the shoe's decks.
    left: u32,
    decks: u32,
    x: &'a [f64; COVARIATES],
}

impl Point<'_> {
    /// Position in the range of the count at a decision whose three cards add `shift`
    /// to twice the running count.
    fn at(&self, shift: i64) -> usize {
        self.at_cards(shift, 3)
    }

    /// Position in the range of the count at a decision whose `cards` cards (the upcard
    /// and the player's) add `shift` to twice the running count.
    fn at_cards(&self, shift: i64, cards: u32) -> usize {
        let c = self.counter;
        let left = self.left.saturating_sub(cards);
        (c.count_of_twice(self.twice_seen + shift, left, self.decks) - c.low) as usize
    }
}

/// Adds one decision point's later hands (`later`: the shift of each one's cards, their
/// number with the upcard, its cell and its gains per round) to the sums at their counts
/// at the decision: per count and cell, the point's gain of each action is one sample of
/// the statistic whose mean over the points of the count before the round is the gain of
/// such hands decided at that count (zero at a point without any). As at the count before
/// the round, only in cells and actions the point's two-card hands `allowed`.
fn add_later(
    later: &[(i64, u32, usize, [f64; ACTIONS])],
    allowed: &[[bool; ACTIONS]],
    point: &Point,
    out: &mut CountSample,
) {
    let mut at: Vec<(usize, usize, [f64; ACTIONS])> = later
        .iter()
        .map(|&(shift, cards, cell, gain)| (point.at_cards(shift, cards), cell, gain))
        .collect();
    at.sort_by_key(|e| (e.0, e.1));
    for group in at.chunk_by(|a, b| (a.0, a.1) == (b.0, b.1)) {
        let (d, cell) = (group[0].0, group[0].1);
        if !allowed[cell].contains(&true) {
            continue;
        }
        let mut gain = [0.0; ACTIONS];
        for e in group {
            for (g, x) in gain.iter_mut().zip(&e.2) {
                *g += x;
            }
        }
        if out.later.len() <= d {
            out.later.resize(d + 1, None);
        }
        let sums = out.later[d].get_or_insert_with(|| vec![Default::default(); CELLS]);
        for (k, &g) in gain.iter().enumerate() {
            if g != 0.0 && allowed[cell][k] {
                sums[cell][k].add(g, point.x);
            }
        }
    }
}

/// The sums of the decisions at count position `d`, made when first needed.
fn slot(out: &mut CountSample, d: usize) -> &mut AtDecision {
    if out.decision.len() <= d {
        out.decision.resize(d + 1, None);
    }
    out.decision[d].get_or_insert_with(AtDecision::empty)
}

/// Adds one decision point's hands (`decided`: the shift of each hand's cards, its cell,
/// chance and values per round) to the sums at their counts at the decision. For every
/// shift the decision's cards can make, the point is one of those at which such
/// decisions are made at one count; there, per cell, the point's gain of each action over
/// the chart's from its hands of that shift is one sample (zero where it has none). Also
/// insurance, per player's hand under an ace, at the count that includes the ace and
/// the hand.
fn add_decisions(
    chart: &[Cell],
    shoe: &[u32; RANKS],
    allowed: &[[bool; ACTIONS]],
    decided: &mut [(i64, usize, f64, [f64; ACTIONS])],
    point: &Point,
    out: &mut CountSample,
) {
    for shift in decision_shifts(point.counter) {
        let sums = slot(out, point.at(shift)).shift(shift);
        sums.points += 1;
        sums.design.add(point.x);
    }
    decided.sort_by_key(|e| (e.0, e.1));
    for group in decided.chunk_by(|a, b| (a.0, a.1) == (b.0, b.1)) {
        let (shift, cell) = (group[0].0, group[0].1);
        let mut weight = 0.0;
        let mut value = [0.0; ACTIONS];
        for e in group {
            weight += e.2;
            for (v, x) in value.iter_mut().zip(&e.3) {
                *v += x;
            }
        }
        let chart_play = chart_action(chart, cell, &allowed[cell]) as usize;
        let at = slot(out, point.at(shift));
        at.cells[cell].weight += weight;
        for (v, x) in at.cells[cell].value.iter_mut().zip(&value) {
            *v += x;
        }
        let gains = &mut at.shift(shift).gain[cell];
        for k in 0..ACTIONS {
            if allowed[cell][k] && k != chart_play {
                gains[k].add(value[k] - value[chart_play], point.x);
            }
        }
    }
    // Insurance: an ace up, the player's two cards, then the hole card ten-valued with
    // chance tens ÷ the cards left.
    let cards: u32 = shoe.iter().sum();
    if shoe[ACE] == 0 || cards < 4 {
        return;
    }
    let tags = point.counter.twice_tags();
    let mut by_shift: Vec<(i64, f64, f64)> = Vec::new();
    let mut rest = *shoe;
    rest[ACE] -= 1;
    let p_ace = f64::from(shoe[ACE]) / f64::from(cards);
    for a in 0..RANKS {
        for b in 0..RANKS {
            let pa = f64::from(rest[a]) / f64::from(cards - 1);
            let nb = rest[b] - u32::from(a == b).min(rest[b]);
            let p = p_ace * pa * f64::from(nb) / f64::from(cards - 2);
            if p == 0.0 {
                continue;
            }
            let tens = rest[TEN] - u32::from(a == TEN) - u32::from(b == TEN);
            let gain = p * 0.5 * (3.0 * f64::from(tens) / f64::from(cards - 3) - 1.0);
            let shift = tags[ACE] + tags[a] + tags[b];
            match by_shift.iter_mut().find(|e| e.0 == shift) {
                Some(e) => {
                    e.1 += p;
                    e.2 += gain;
                }
                None => by_shift.push((shift, p, gain)),
            }
        }
    }
    for (shift, p, gain) in by_shift {
        let at = slot(out, point.at(shift));
        at.ace += p;
        at.shift(shift).insurance.add(gain, point.x);
    }
}

/// The chart's first action in a cell, among the actions its hands allow.
pub fn chart_action(chart: &[Cell], cell: usize, allowed: &[bool; ACTIONS]) -> Action {
    chart[cell]
        .iter()
        .filter_map(|&c| Action::from_code(c))
        .find(|&a| allowed[a as usize])
        .unwrap_or(Action::Stand)
}

/// Which way an index points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Direction {
    /// Play the deviation at this count and every higher one.
    AtOrAbove,
    /// Play it at this count and every lower one.
    AtOrBelow,
}

impl Direction {
    /// The word tables use.
    pub fn word(self) -> &'static str {
        match self {
            Direction::AtOrAbove => "at_or_above",
            Direction::AtOrBelow => "at_or_below",
        }
    }
}

/// A decision an index changes: a chart cell's first action, or insurance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// A chart cell (row · 10 + upcard), the chart's action, and the deviation.
    Cell {
        cell: usize,
        chart: Action,
        play: Action,
    },
    /// Insuring against an ace (the chart never insures).
    Insurance,
}

/// One index play.
#[derive(Clone, Debug, PartialEq)]
pub struct Index {
    pub decision: Decision,
    pub direction: Direction,
    /// The count from which (or up to which) the deviation is played.
    pub index: i32,
    /// Where the gain crosses zero, interpolated between whole counts, and its standard
    /// error.
    pub crossing: f64,
    pub crossing_se: f64,
    /// The EV the index adds per 100 rounds, and its standard error.
    pub gain_per_100: f64,
    pub gain_per_100_se: f64,
}

/// Everything at one count.
#[derive(Clone, Debug, PartialEq)]
pub struct CountRow {
    pub count: i32,
    /// Share of decision points at this count.
    pub frequency: f64,
    pub points: u64,
    /// The round's EV playing the chart, with its standard error.
    pub chart_ev: (f64, f64),
    /// The same playing the chart with every index, and a bound on its standard error
    /// (the sum of its parts' errors, which share sampled points).
    pub indices_ev: f64,
    pub indices_ev_se: f64,
    /// EV of an insurance bet (per unit insured) when an ace shows, with its error.
    pub insurance_ev: (f64, f64),
    /// Per cell: the first action played at this count on its two-card hands (an
    /// [`Action`] code: the chart's, or the index play that applies and gains most;
    /// `NO_ACTION` for a cell no two-card hand reaches).
    pub plays: Vec<u8>,
    /// Per cell: the chance per round that the cell is played (NaN: never), and per
    /// action the cell's EV given it is played and the gain over the chart per round
    /// with its standard error (NaN: not allowed).
    pub cells: Vec<CellStat>,
}

/// One cell at one count.
#[derive(Clone, Debug, PartialEq)]
pub struct CellStat {
    pub weight: f64,
    pub chart: Action,
    pub ev: [f64; ACTIONS],
    pub gain: [(f64, f64); ACTIONS],
}

/// The results of one rule set.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub rows: Vec<CountRow>,
    /// The chart's EV averaged over the counts at their frequencies, with its standard
    /// error: the full-shoe chart EV, up to sampling.
    pub average_chart_ev: (f64, f64),
    /// Every index found, most valuable first.
    pub indices: Vec<Index>,
}

impl Summary {
    /// The count from which insurance is taken (its upward index), if one was found.
    pub fn insure_from(&self) -> Option<i32> {
        self.indices.iter().find_map(|x| {
            (x.decision == Decision::Insurance && x.direction == Direction::AtOrAbove)
                .then_some(x.index)
        })
    }
}

/// Turns the merged samples of every count (in range order) into the per-count results
/// and the index plays, given the count's law at the job's penetration.
pub fn summarize(
    counter: &Counter,
    chart: &[Cell],
    samples: &[CountSample],
    law: &CountLaw,
    decision_laws: Option<&[DecisionLaw]>,
) -> Summary {
    let mut rows: Vec<CountRow> = samples
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let n = s.points;
            let fit = s.design.fit(n, &law.mean[i]);
            let estimate = |m: &Moments| m.estimate(n, fit.as_ref());
            let (ins, ins_se) = estimate(&s.insurance);
            // The chance of an ace up at this count, exactly.
            let ace = law.share[i][ACE];
            let cells = (0..CELLS)
                .map(|c| {
                    let sums = &s.cells[c];
                    let allowed = sums.allowed;
                    let chart = chart_action(chart, c, &allowed);
                    CellStat {
                        weight: if n > 0 {
                            sums.weight / n as f64
                        } else {
                            f64::NAN
                        },
                        chart,
                        ev: std::array::from_fn(|k| {
                            if allowed[k] && sums.weight > 0.0 {
                                sums.value[k] / sums.weight
                            } else {
                                f64::NAN
                            }
                        }),
                        gain: std::array::from_fn(|k| {
                            if allowed[k] {
                                estimate(&sums.gain[k])
                            } else {
                                (f64::NAN, f64::NAN)
                            }
                        }),
                    }
                })
                .collect();
            CountRow {
                count: counter.low + i as i32,
                frequency: law.frequency[i],
                points: n,
                chart_ev: estimate(&s.round),
                indices_ev: f64::NAN,
                indices_ev_se: f64::NAN,
                // Per round the gain is P(ace) × ½ × EV per unit insured.
                insurance_ev: if n > 0 && ace > 0.0 {
                    (2.0 * ins / ace, 2.0 * ins_se / ace)
                } else {
                    (f64::NAN, f64::NAN)
                },
                cells,
                plays: Vec::new(),
            }
        })
        .collect();
    let mut insurance: Vec<(f64, f64)> = samples
        .iter()
        .zip(&law.mean)
        .map(|(s, mean)| {
            let fit = s.design.fit(s.points, mean);
            s.insurance.estimate(s.points, fit.as_ref())
        })
        .collect();
    if let Some(laws) = decision_laws {
        // Every cell's figures and insurance's, from the decisions made at each count.
        insurance = at_decision(chart, samples, law, laws, &mut rows);
    }

    let mut indices = Vec::new();
    let freq: Vec<f64> = rows.iter().map(|r| r.frequency).collect();
    for c in 0..CELLS {
        for play in Action::ALL {
            let k = play as usize;
            let gains: Vec<(f64, f64)> = rows.iter().map(|r| r.cells[c].gain[k]).collect();
            // The chart's play, from a count where the cell is dealt (its allowed actions
            // are known there).
            let Some(chart_play) = rows
                .iter()
                .find(|r| r.cells[c].weight > 0.0)
                .map(|r| r.cells[c].chart)
            else {
                continue;
            };
            if play == chart_play || gains.iter().all(|g| g.0.is_nan()) {
                continue;
            }
            for found in changes(&gains, &freq) {
                indices.push(Index {
                    decision: Decision::Cell {
                        cell: c,
                        chart: chart_play,
                        play,
                    },
                    direction: found.direction,
                    index: counter.low + found.position as i32,
                    crossing: f64::from(counter.low) + found.crossing,
                    crossing_se: found.crossing_se,
                    gain_per_100: found.gain_per_100,
                    gain_per_100_se: found.gain_per_100_se,
                });
            }
        }
    }
    for found in changes(&insurance, &freq) {
        indices.push(Index {
            decision: Decision::Insurance,
            direction: found.direction,
            index: counter.low + found.position as i32,
            crossing: f64::from(counter.low) + found.crossing,
            crossing_se: found.crossing_se,
            gain_per_100: found.gain_per_100,
            gain_per_100_se: found.gain_per_100_se,
        });
    }
    indices.sort_by(|a, b| b.gain_per_100.total_cmp(&a.gain_per_100));

    // The chart with every index: at each count, each decision takes the applicable
    // deviation that gains most there (at a count without points, the most valuable one
    // that applies).
    let reached: Vec<bool> = (0..CELLS)
        .map(|c| rows.iter().any(|r| r.cells[c].weight > 0.0))
        .collect();
    for (i, row) in rows.iter_mut().enumerate() {
        let t = counter.low + i as i32;
        let applies = |x: &Index| match x.direction {
            Direction::AtOrAbove => t >= x.index,
            Direction::AtOrBelow => t <= x.index,
        };
        let mut best: Vec<Option<(f64, u8, f64)>> = vec![None; CELLS + 1];
        for x in indices.iter().filter(|x| applies(x)) {
            let (slot, (gain, se), code) = match x.decision {
                Decision::Cell { cell, play, .. } => {
                    (cell, row.cells[cell].gain[play as usize], play as u8)
                }
                Decision::Insurance => (CELLS, insurance[i], 0),
            };
            let better = match best[slot] {
                None => true,
                Some((g, _, _)) => gain > g,
            };
            if better {
                best[slot] = Some((gain, code, se));
            }
        }
        let taken = || best.iter().flatten().filter(|b| b.0.is_finite());
        row.indices_ev = row.chart_ev.0 + taken().map(|b| b.0).sum::<f64>();
        // The parts are estimated on the same sampled points, so their errors may be
        // correlated: the sum of their standard errors bounds the total's.
        row.indices_ev_se = row.chart_ev.1 + taken().map(|b| b.2).sum::<f64>();
        row.plays = (0..CELLS)
            .map(|c| match (reached[c], best[c]) {
                (false, _) => NO_ACTION,
                (true, Some((_, code, _))) => code,
                (true, None) => row.cells[c].chart as u8,
            })
            .collect();
    }
    let average = rows
        .iter()
        .filter(|r| r.points > 0)
        .fold((0.0, 0.0), |(m, v), r| {
            (
                m + r.frequency * r.chart_ev.0,
                v + (r.frequency * r.chart_ev.1).powi(2),
            )
        });
    Summary {
        rows,
        average_chart_ev: (average.0, average.1.sqrt()),
        indices,
    }
}

/// Under [`CountAt::Decision`]: replaces each row's cell figures by those of the hands
/// decided at its count, and returns insurance's gain per round at each count (setting
/// the rows' insurance EVs).
///
/// The points of each count `t` before the round follow the shoe's law at `t`. Among
/// them, those at which a decision whose cards add `s` to twice the running count is
/// made at count `d` have an exactly known chance (`laws`) and covariate mean, so the
/// mean over them of such a decision's gain is estimated by the same regression as at
/// `t`, on those points alone. The expectation over all rounds of the gain of decisions
/// made at `d` is then the sum over `t` and `s` of that chance times that estimate. Each
/// figure at `d` is that expectation ÷ `frequency(d)`: per round at count `d`, so that
/// summed over counts at their frequencies it is the figure's total per round, as under
/// [`CountAt::RoundStart`]. A cell whose hands' cards make several shifts has estimates
/// from overlapping points; the sum of their standard errors bounds its error at each `t`.
fn at_decision(
    chart: &[Cell],
    samples: &[CountSample],
    law: &CountLaw,
    laws: &[DecisionLaw],
    rows: &mut [CountRow],
) -> Vec<(f64, f64)> {
    let counts = rows.len();
    let freq: Vec<f64> = rows.iter().map(|r| r.frequency).collect();
    // Each count's fit, for the later hands' gains (estimated over all its points).
    let fits: Vec<Option<Fit>> = samples
        .iter()
        .zip(&law.mean)
        .map(|(s, mean)| s.design.fit(s.points, mean))
        .collect();
    let allowed: Vec<[bool; ACTIONS]> = (0..CELLS)
        .map(|c| std::array::from_fn(|k| samples.iter().any(|s| s.cells[c].allowed[k])))
        .collect();
    let mut insurance = vec![(f64::NAN, f64::NAN); counts];
    for (d, row) in rows.iter_mut().enumerate() {
        let f = row.frequency;
        // Per count before the round and shift met: the chance of (t, d) and the sums
        // with their fit.
        let mut parts: Vec<(usize, f64, &ShiftSums, Option<Fit>)> = Vec::new();
        for (t, sample) in samples.iter().enumerate() {
            let Some(at) = sample.decision.get(d).and_then(Option::as_ref) else {
                continue;
            };
            for x in &at.shifts {
                let Some(law) = laws.iter().find(|l| l.shift == x.shift) else {
                    continue;
                };
                let p = law.frequency.get(t * counts + d).copied().unwrap_or(0.0);
                if p > 0.0 && x.points > 0 {
                    let fit = x.design.fit(x.points, &law.mean[t * counts + d]);
                    parts.push((t, p, x, fit));
                }
            }
        }
        if f == 0.0 || parts.is_empty() {
            for cell in row.cells.iter_mut() {
                cell.weight = f64::NAN;
                cell.ev = [f64::NAN; ACTIONS];
                cell.gain = [(f64::NAN, f64::NAN); ACTIONS];
            }
            row.insurance_ev = (f64::NAN, f64::NAN);
            continue;
        }
        // Per count before the round: the expectation's part from there and the sum of
        // its parts' standard errors (they share points, so the sum bounds its error).
        let by_t = |get: &dyn Fn(&ShiftSums) -> &Moments| -> Vec<(f64, f64)> {
            let mut per_t = vec![(0.0, 0.0); counts];
            for (t, p, x, fit) in &parts {
                let m = get(x);
                if m.sum_x.is_empty() && m.sum == 0.0 {
                    continue;
                }
                let (e, se) = m.estimate(x.points, fit.as_ref());
                per_t[*t].0 += p * e;
                per_t[*t].1 += p * se;
            }
            per_t
        };
        let sum_up = |per_t: &[(f64, f64)]| -> (f64, f64) {
            let se2: f64 = per_t.iter().map(|v| v.1 * v.1).sum();
            (per_t.iter().map(|v| v.0).sum(), se2.sqrt())
        };
        let combine = |get: &dyn Fn(&ShiftSums) -> &Moments| sum_up(&by_t(get));
        // Plain sums (a cell's chance and values, for its EVs): Σ_t frequency(t) · mean.
        let total = |get: &dyn Fn(&AtDecision) -> f64| -> f64 {
            samples
                .iter()
                .zip(&freq)
                .filter_map(|(s, &ft)| {
                    let at = s.decision.get(d)?.as_ref()?;
                    (s.points > 0).then(|| ft * get(at) / s.points as f64)
                })
                .sum()
        };
        for (c, cell) in row.cells.iter_mut().enumerate() {
            let weight = total(&|at| at.cells[c].weight);
            cell.chart = chart_action(chart, c, &allowed[c]);
            cell.weight = weight / f;
            for (k, &allowed) in allowed[c].iter().enumerate() {
                if !allowed {
                    cell.ev[k] = f64::NAN;
                    cell.gain[k] = (f64::NAN, f64::NAN);
                    continue;
                }
                cell.ev[k] = if weight > 0.0 {
                    total(&|at| at.cells[c].value[k]) / weight
                } else {
                    f64::NAN
                };
                let mut per_t = by_t(&|x| &x.gain[c][k]);
                // The later hands decided here: at each count t before the round, the
                // mean over all its points of their gain, times t's frequency.
                for (t, sample) in samples.iter().enumerate() {
                    let Some(m) = sample
                        .later
                        .get(d)
                        .and_then(Option::as_ref)
                        .map(|x| &x[c][k])
                    else {
                        continue;
                    };
                    if m.sum_x.is_empty() && m.sum == 0.0 {
                        continue;
                    }
                    let (e, se) = m.estimate(sample.points, fits[t].as_ref());
                    per_t[t].0 += freq[t] * e;
                    per_t[t].1 += freq[t] * se;
                }
                let (m, se) = sum_up(&per_t);
                cell.gain[k] = (m / f, se / f);
            }
        }
        let (m, se) = combine(&|x| &x.insurance);
        insurance[d] = (m / f, se / f);
        // Per unit insured: the gain per round ÷ (½ × the chance of an ace up with a hand
        // decided here).
        let ace = total(&|at| at.ace);
        row.insurance_ev = if ace > 0.0 {
            (2.0 * m / ace, 2.0 * se / ace)
        } else {
            (f64::NAN, f64::NAN)
        };
    }
    insurance
}

/// A sign change of a gain along the counts.
pub(super) struct Change {
    pub(super) direction: Direction,
    /// Position in the range of the index count.
    pub(super) position: usize,
    /// The interpolated crossing, as a position, and its standard error.
    pub(super) crossing: f64,
    pub(super) crossing_se: f64,
    pub(super) gain_per_100: f64,
    pub(super) gain_per_100_se: f64,
}

/// The index changes of one deviation, from its gain (mean, standard error) at each
/// count (NaN: no points there) and the counts' frequencies: upward, the lowest count of
/// the run of positive gains that reaches the highest count with points; downward, the
/// same from the lowest. A run that covers every count is no index (the deviation always
/// wins, or never).
pub(super) fn changes(gains: &[(f64, f64)], freq: &[f64]) -> Vec<Change> {
    let with: Vec<usize> = (0..gains.len()).filter(|&i| !gains[i].0.is_nan()).collect();
    let mut out = Vec::new();
    if with.len() < 2 {
        return out;
    }
    for direction in [Direction::AtOrAbove, Direction::AtOrBelow] {
        let order: Vec<usize> = match direction {
            Direction::AtOrAbove => with.iter().rev().copied().collect(),
            Direction::AtOrBelow => with.clone(),
        };
        let run = order.iter().take_while(|&&i| gains[i].0 > 0.0).count();
        if run == 0 || run == order.len() {
            continue;
        }
        let (inside, outside) = (order[run - 1], order[run]);
        let (g1, s1) = gains[inside];
        let (g0, s0) = gains[outside];
        // Linear interpolation between the last count without the deviation (g0 ≤ 0)
        // and the first with it (g1 > 0).
        let span = inside as f64 - outside as f64;
        let f = g0 / (g0 - g1);
        let d = (g0 - g1) * (g0 - g1);
        let f_se = ((g1 * s0).powi(2) + (g0 * s1).powi(2)).sqrt() / d;
        let region = &order[..run];
        let gain: f64 = region.iter().map(|&i| freq[i] * gains[i].0).sum();
        let gain_var: f64 = region.iter().map(|&i| (freq[i] * gains[i].1).powi(2)).sum();
        out.push(Change {
            direction,
            position: inside,
            crossing: outside as f64 + f * span,
            crossing_se: f_se * span.abs(),
            gain_per_100: 100.0 * gain,
            gain_per_100_se: 100.0 * gain_var.sqrt(),
        });
    }
    out
}
