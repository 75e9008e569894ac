//! Three-handed push/fold (`holdem.pushfold3`): the jam-or-fold equilibrium of the
//! button (BTN), small blind (SB) and big blind (BB), at equal or unequal stacks, in chip
//! EV or in prize equity by ICM.
//!
//! **The game.** Each player starts with a stack (big blinds, before posting) and posts
//! an ante `a`; the SB posts 0.5 and the BB 1 besides. Every push and call is all-in: the
//! BTN pushes or folds; after a fold the SB pushes or folds, and the BB calls or folds;
//! after a push the SB calls or folds, and then the BB calls or folds facing one push (the
//! SB folded) or a push and a call. That is six decisions ([`Decision`]), each a
//! frequency per starting-hand class. Hands that reach a showdown run out the whole board.
//! A player all in puts in its stack, or the largest stack it faces there if that is
//! smaller; where the stacks differ the pot splits into a main pot and a side pot, each
//! won by the best hand among the players who put that much in.
//!
//! **Cards.** A deal is an ordered triple of disjoint 2-card hands, all equally likely.
//! How often the three seats hold the classes (t, s, b) is the number of disjoint combo
//! triples, exactly, so a fold carries its card removal into what the next player faces.
//! At a three-way showdown each player's chance of each result (winning alone, splitting
//! with one or both others) is exact over every deal of the triple and every board
//! ([`super::threeway`]); with a side pot, the chance of each order the three hands
//! finish in. At a two-way showdown after a fold the result is the two
//! classes' exact heads-up result over every board of the 48 cards left: the folded
//! player's cards are not removed from the deck the board comes from (their class is,
//! from the deal). This is our choice; with it, a button that never pushes leaves the
//! blinds exactly the heads-up game of [`super::pushfold`].
//!
//! **Payoffs.** Chip EV: each player's net chips in big blinds. ICM: each player's prize
//! equity ([`super::icm`], Malmuth–Harville) of the stacks after the hand, for a payout
//! list; players who bust in the same hand finish in the order of their starting stacks
//! (equal ones share the places left).
//!
//! **The solution and its certificate.** The strategies are found by CFR+ (regret
//! matching with regrets floored at 0, linearly weighted average), then polished: the
//! classes each decision mixes are held indifferent by Newton's method. Whatever the
//! solver, the published strategies carry their exploitability, computed directly from
//! the payoffs: the sum over the three seats of what a best response to the other two
//! gains, in big blinds for chip EV and in shares of the prize pool for ICM. At 0 no
//! seat gains by deviating: a Nash equilibrium. Three-player games can have several
//! equilibria; we certify only that this one is one (to the printed exploitability).

// The solver walks several arrays indexed by the same class position; index loops say so.
#![allow(clippy::needless_range_loop)]

use std::ops::Range;

use rayon::prelude::*;

use super::icm;

// Seats and decisions are the runtime table's (one meaning for both).
pub use cardtables::pushfold3::{Decision, BB, BTN, DECISIONS, SB, SEATS};

/// The three sets of winners at a three-way showdown, seats in increasing class order:
/// one alone, two splitting, all three splitting.
pub const TOP_SETS: [&[usize]; 7] = [&[0], &[1], &[2], &[0, 1], &[0, 2], &[1, 2], &[0, 1, 2]];

/// What the showdowns of the covered classes are, the card side of the game (the same
/// for every stack and payoff).
#[derive(Clone, Debug)]
pub struct Showdowns {
    /// Class indices covered, increasing.
    pub classes: Vec<u8>,
    /// Disjoint combo triples per unordered triple, in [`super::threeway::triples`] order.
    deals: Vec<u32>,
    /// The chance of each [`TOP_SETS`] winner set per unordered triple, seats in
    /// increasing class order (all 0 where no deal exists).
    top: Vec<[f64; 7]>,
    /// The chance of each weak order of the three hands ([`super::threeway::ORDERS`]) per
    /// unordered triple, as `top`; `None` where the counts were read from a table that
    /// has no order counts (then only equal stacks can be solved).
    orders: Option<Vec<[f64; 13]>>,
    /// `[a · n + b]`: chance that a wins, the two split, b wins, heads-up over every
    /// board of the 48 cards left.
    pair: Vec<[f64; 3]>,
    /// `[a · n + b]`: the heads-up showdowns, a's outright wins, and the splits.
    pair_counts: Vec<[u64; 3]>,
}

/// The exact heads-up counts of two classes (class indices below 169) over every deal of
/// their combinations and every board.
pub fn pair_counts(a: u8, b: u8) -> PairCounts {
    let question = super::threeway::classes_question(&[a, b]);
    // Two classes always leave a deal (even AA against AA) and 48 cards.
    let answer = super::equity::equity(&question).expect("two classes are always a valid question");
    assert!(answer.exact, "two classes are enumerated exactly");
    let showdowns = answer.showdowns;
    let count = |share: f64| (share * showdowns as f64).round() as u64;
    PairCounts {
        showdowns,
        wins: [count(answer.win[0]), count(answer.win[1])],
        ties: count(answer.tie[0]),
    }
}

/// Boards per heads-up deal: C(48, 5).
pub const PAIR_BOARDS: u64 = 1_712_304;

impl PairCounts {
    /// Whether these can be the counts of a pair of classes: a whole number of deals (at
    /// most 12 × 12) over every board, each showdown a win or a tie.
    pub fn is_consistent(&self) -> bool {
        self.showdowns > 0
            && self.showdowns.is_multiple_of(PAIR_BOARDS)
            && self.showdowns / PAIR_BOARDS <= 144
            && self.wins[0]
                .checked_add(self.wins[1])
                .and_then(|x| x.checked_add(self.ties))
                == Some(self.showdowns)
    }
}

/// Why the showdown data cannot make a game.
#[derive(Clone, Debug, thiserror::Error, PartialEq)]
pub enum GameError {
    #[error("{0} triples given for {1} classes, expected {2}")]
    Triples(usize, usize, usize),
    #[error("{0} pairs given for {1} classes, expected {2}")]
    Pairs(usize, usize, usize),
    #[error("no deal of three hands from the covered classes exists")]
    NoDeal,
    #[error("the three-way counts of classes {0:?} are not those of any showdowns")]
    Counts([u8; 3]),
    #[error("the heads-up counts of classes {0:?} are not those of any showdowns")]
    PairCounts([u8; 2]),
    #[error("stack {0} bb: it must be a finite number of big blinds covering the big blind and the ante ({1} bb)")]
    Stack(f64, f64),
    #[error("ante {0} bb: it must be finite and at least 0")]
    Ante(f64),
    #[error("stacks {0:?} differ, and side pots need the three-way order counts, which these counts lack")]
    NoOrders([f64; 3]),
    #[error(transparent)]
    Icm(#[from] icm::IcmError),
}

/// One unordered triple's counts, as [`super::threeway::TripleResult`] holds them.
pub struct TripleCounts {
    pub deals: u32,
    pub wins: [u64; 3],
    pub ties: [u64; 3],
    /// Each seat's equity in 60ths of a pot, summed over the showdowns.
    pub sixtieths: [u64; 3],
    /// Showdowns per weak order of the three hands, where known.
    pub orders: Option<[u64; 13]>,
}

/// One unordered pair's heads-up counts over every board of 48 cards.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PairCounts {
    pub showdowns: u64,
    pub wins: [u64; 2],
    pub ties: u64,
}

impl TripleCounts {
    /// The counts of a stored three-way result: its equities are sums of 60ths over the
    /// showdowns, recovered exactly by rounding.
    pub fn from_result(r: &super::threeway::TripleResult) -> TripleCounts {
        let showdowns = (u64::from(r.deals) * super::threeway::BOARDS) as f64;
        TripleCounts {
            deals: r.deals,
            wins: r.wins,
            ties: r.ties,
            sixtieths: r.equity.map(|e| (e * 60.0 * showdowns).round() as u64),
            orders: r.orders,
        }
    }

    /// The chance of each winner set: the ties of two and of three are recovered from
    /// the ties and the split shares (a two-way split is worth 30 sixtieths, a three-way
    /// 20), exactly, in integers; `None` if the counts are not those of any showdowns.
    fn top_sets(&self, boards: u64) -> Option<[f64; 7]> {
        if self.deals == 0 {
            return Some([0.0; 7]);
        }
        let showdowns = i128::from(self.deals) * i128::from(boards);
        let [w, t, e] = [self.wins, self.ties, self.sixtieths].map(|c| c.map(i128::from));
        // 60 w + 30 (t_ab + t_ac) + 20 t_abc = e, and t_a = t_ab + t_ac + t_abc.
        let all = 60 * w[0] + 30 * t[0] - e[0];
        if all % 10 != 0 {
            return None;
        }
        let all = all / 10;
        let pair = |x: usize, y: usize, z: usize| {
            let twice = t[x] + t[y] - t[z] - all;
            (twice % 2 == 0).then_some(twice / 2)
        };
        let counts = [
            w[0],
            w[1],
            w[2],
            pair(0, 1, 2)?,
            pair(0, 2, 1)?,
            pair(1, 2, 0)?,
            all,
        ];
        // Every count a real number of showdowns, together all of them, and each seat's
        // equity what the sets give it.
        let consistent = counts.iter().all(|&c| c >= 0)
            && counts.iter().sum::<i128>() == showdowns
            && (0..3).all(|s| {
                let share: i128 = TOP_SETS
                    .iter()
                    .zip(&counts)
                    .filter(|(set, _)| set.contains(&s))
                    .map(|(set, &c)| c * 60 / set.len() as i128)
                    .sum();
                share == e[s]
            });
        consistent.then(|| counts.map(|c| c as f64 / showdowns as f64))
    }
}

/// The chance of each weak order from its counts, checked against the winner sets' chances
/// (each set's chance is the sum of the orders that put that set on top); `None` if they
/// disagree or do not add up to the showdowns.
fn order_shares(counts: &[u64; 13], top: &[f64; 7], deals: u32, boards: u64) -> Option<[f64; 13]> {
    use super::threeway::{order_winners, ORDERS};
    let showdowns = u64::from(deals) * boards;
    if counts.iter().try_fold(0u64, |a, &c| a.checked_add(c)) != Some(showdowns) {
        return None;
    }
    if deals == 0 {
        return Some([0.0; 13]);
    }
    let mut by_set = [0u64; 7];
    for (order, &c) in ORDERS.iter().zip(counts) {
        let winners: Vec<usize> = order_winners(order).collect();
        let set = TOP_SETS.iter().position(|w| *w == winners.as_slice())?;
        by_set[set] += c;
    }
    let shares = by_set.map(|c| c as f64 / showdowns as f64);
    (shares == *top).then(|| counts.map(|c| c as f64 / showdowns as f64))
}

impl Showdowns {
    /// The game's card data from the triples (in [`super::threeway::triples`] order) and
    /// the unordered pairs (`a ≤ b` positions, `b` major: `C(b + 1, 2) + a`).
    pub fn new(
        classes: Vec<u8>,
        triples: &[TripleCounts],
        pairs: &[PairCounts],
    ) -> Result<Showdowns, GameError> {
        let n = classes.len();
        let want = n * (n + 1) * (n + 2) / 6;
        if triples.len() != want {
            return Err(GameError::Triples(triples.len(), n, want));
        }
        if pairs.len() != n * (n + 1) / 2 {
            return Err(GameError::Pairs(pairs.len(), n, n * (n + 1) / 2));
        }
        if triples.iter().all(|t| t.deals == 0) {
            return Err(GameError::NoDeal);
        }
        let boards = super::threeway::BOARDS;
        let mut top = Vec::with_capacity(triples.len());
        let mut orders = triples
            .iter()
            .all(|t| t.orders.is_some())
            .then(|| Vec::with_capacity(triples.len()));
        for (t, (i, j, k)) in triples.iter().zip(Self::positions(n)) {
            let bad = GameError::Counts([classes[i], classes[j], classes[k]]);
            let sets = t.top_sets(boards).ok_or(bad.clone())?;
            if let (Some(list), Some(counts)) = (&mut orders, t.orders) {
                list.push(order_shares(&counts, &sets, t.deals, boards).ok_or(bad)?);
            }
            top.push(sets);
        }
        let mut pair = vec![[0.0; 3]; n * n];
        let mut pair_counts = vec![[0; 3]; n * n];
        for b in 0..n {
            for a in 0..=b {
                let p = &pairs[b * (b + 1) / 2 + a];
                let counted = p.wins[0]
                    .checked_add(p.wins[1])
                    .and_then(|x| x.checked_add(p.ties));
                if p.showdowns == 0 || counted != Some(p.showdowns) {
                    return Err(GameError::PairCounts([classes[a], classes[b]]));
                }
                let sd = p.showdowns as f64;
                let (wa, tie, wb) = (
                    p.wins[0] as f64 / sd,
                    p.ties as f64 / sd,
                    p.wins[1] as f64 / sd,
                );
                pair[a * n + b] = [wa, tie, wb];
                pair[b * n + a] = [wb, tie, wa];
                pair_counts[a * n + b] = [p.showdowns, p.wins[0], p.ties];
                pair_counts[b * n + a] = [p.showdowns, p.wins[1], p.ties];
            }
        }
        Ok(Showdowns {
            classes,
            deals: triples.iter().map(|t| t.deals).collect(),
            top,
            orders,
            pair,
            pair_counts,
        })
    }

    /// Heads-up, class positions `a` against `b`: the deals of their combos that share no
    /// card, and a's equity summed over them.
    pub fn heads_up(&self, a: usize, b: usize) -> (f64, f64) {
        let [showdowns, wins, ties] = self.pair_counts[a * self.len() + b];
        let boards = PAIR_BOARDS as f64;
        (
            showdowns as f64 / boards,
            (2 * wins + ties) as f64 / (2.0 * boards),
        )
    }

    pub fn len(&self) -> usize {
        self.classes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.classes.is_empty()
    }

    /// Every unordered triple of positions `(i, j, k)`, `i ≤ j ≤ k`, in storage order.
    fn positions(n: usize) -> impl Iterator<Item = (usize, usize, usize)> {
        (0..n).flat_map(|k| (0..=k).flat_map(move |j| (0..=j).map(move |i| (i, j, k))))
    }

    /// The unordered triple of positions `i ≤ j ≤ k`.
    fn triple_index(i: usize, j: usize, k: usize) -> usize {
        k * (k + 1) * (k + 2) / 6 + j * (j + 1) / 2 + i
    }
}

/// The stakes of one spot and how chips are valued.
#[derive(Clone, Debug, PartialEq)]
pub struct Spot {
    /// Each seat's stack before posting (BTN, SB, BB), in big blinds.
    pub stacks: [f64; 3],
    pub ante: f64,
    /// `None`: chip EV; else ICM for these payouts (shares of the prize pool by place).
    pub payouts: Option<Vec<f64>>,
}

impl Spot {
    /// A spot where every seat starts with `stack`.
    pub fn equal(stack: f64, ante: f64, payouts: Option<Vec<f64>>) -> Spot {
        Spot {
            stacks: [stack; 3],
            ante,
            payouts,
        }
    }

    /// The stack every seat starts with, if they are equal.
    pub fn equal_stack(&self) -> Option<f64> {
        let [a, b, c] = self.stacks;
        (a == b && b == c).then_some(a)
    }

    /// The chips in play.
    fn chips(&self) -> f64 {
        match self.equal_stack() {
            Some(s) => 3.0 * s,
            None => self.stacks.iter().sum(),
        }
    }

    /// What a big blind is worth in the payoffs' unit: 1 in chip EV; in ICM the prize
    /// pool paid per chip on the table, the scale of the tolerances.
    pub fn bb_value(&self) -> f64 {
        match &self.payouts {
            None => 1.0,
            Some(p) => p.iter().sum::<f64>() / self.chips(),
        }
    }

    /// What each seat has posted before anyone acts.
    fn posted(&self) -> [f64; 3] {
        [self.ante, 0.5 + self.ante, 1.0 + self.ante]
    }

    /// What each of the seats in `showdown` puts in when they are all in against each
    /// other: its stack, or the largest other stack there if that is smaller (the rest
    /// is not called). Folded seats keep what they posted.
    fn all_in(&self, showdown: &[usize]) -> [f64; 3] {
        let mut committed = self.posted();
        for &i in showdown {
            let cover = showdown
                .iter()
                .filter(|&&j| j != i)
                .map(|&j| self.stacks[j])
                .fold(0.0, f64::max);
            committed[i] = if showdown.len() == 1 {
                self.stacks[i]
            } else {
                self.stacks[i].min(cover)
            };
        }
        committed
    }

    /// Each seat's payoff when the players put in `committed` and the seats at showdown
    /// finish in `places` (0 the best hand, equal hands equal places; `None` for a seat
    /// that folded): each pot, from the main pot up, goes to the best hand among the
    /// seats that put in that much, split among equals. Net chips (bb) or prize equity;
    /// in ICM, players who bust in the same hand finish in the order of their starting
    /// stacks (equal stacks share those places).
    fn payoff(&self, committed: [f64; 3], places: [Option<u8>; 3]) -> Result<[f64; 3], GameError> {
        let mut levels: Vec<f64> = (0..3)
            .filter(|&i| places[i].is_some())
            .map(|i| committed[i])
            .collect();
        levels.sort_by(f64::total_cmp);
        levels.dedup();
        let mut won = [0.0; 3];
        let mut below = 0.0f64;
        for (k, &level) in levels.iter().enumerate() {
            // This pot: what each seat put in above the pot below it, up to this level
            // (the top pot takes all the rest, dead money included).
            let top = k + 1 == levels.len();
            let pot: f64 = committed
                .iter()
                .map(|&c| if top { c } else { c.min(level) } - below.min(c))
                .sum();
            let eligible = || (0..3).filter(|&i| places[i].is_some() && committed[i] >= level);
            let best = eligible().filter_map(|i| places[i]).min();
            let winners: Vec<usize> = eligible().filter(|&i| places[i] == best).collect();
            for &w in &winners {
                won[w] += pot / winners.len() as f64;
            }
            below = level;
        }
        let stacks: [f64; 3] = std::array::from_fn(|i| self.stacks[i] - committed[i] + won[i]);
        Ok(match &self.payouts {
            None => std::array::from_fn(|i| stacks[i] - self.stacks[i]),
            Some(p) => {
                let e = icm::equities(&stacks, p)?;
                let mut e = [e[0], e[1], e[2]];
                let busted: Vec<usize> = (0..3).filter(|&i| stacks[i] == 0.0).collect();
                if let [x, y] = busted[..] {
                    // The survivor is first; the larger starting stack of the two takes
                    // second, the other third (equal ones share, as ICM gives them).
                    let pay = |place: usize| p.get(place).copied().unwrap_or(0.0);
                    match self.stacks[x].total_cmp(&self.stacks[y]) {
                        std::cmp::Ordering::Greater => (e[x], e[y]) = (pay(1), pay(2)),
                        std::cmp::Ordering::Less => (e[x], e[y]) = (pay(2), pay(1)),
                        std::cmp::Ordering::Equal => {}
                    }
                }
                e
            }
        })
    }

    /// [`Spot::payoff`] when the seats in `winners` hold the best hand and every other
    /// seat at the showdown `showdown` a worse one.
    fn payoff_top(
        &self,
        committed: [f64; 3],
        showdown: &[usize],
        winners: &[usize],
    ) -> Result<[f64; 3], GameError> {
        let places = std::array::from_fn(|i| {
            showdown
                .contains(&i)
                .then_some(u8::from(!winners.contains(&i)))
        });
        self.payoff(committed, places)
    }
}

/// The payoffs of one spot, per terminal of the betting.
struct Payoffs {
    n: usize,
    /// BTN folds, SB folds: the BB takes the blinds.
    ff: [f64; 3],
    /// BTN folds, SB pushes, BB folds.
    fpf: [f64; 3],
    /// BTN pushes, both blinds fold.
    pff: [f64; 3],
    /// Heads-up showdowns `[x · n + y]` (first seat's class, second's): SB vs BB after
    /// the BTN folds, BTN vs BB after the SB folds, BTN vs SB after the BB folds.
    sb_bb: Vec<[f64; 3]>,
    btn_bb: Vec<[f64; 3]>,
    btn_sb: Vec<[f64; 3]>,
    /// The BB's payoff of `sb_bb` and of `btn_bb`, alone (read a row at a time).
    sb_bb_bb: Vec<f64>,
    btn_bb_bb: Vec<f64>,
    /// Disjoint combo triples per ordered triple `[(t · n + s) · n + b]`, as shares of
    /// all of them.
    weight: Vec<f64>,
    /// Per seat, the three-way showdown's payoff per ordered triple times its weight: a
    /// plane a seat, so that the evaluation reads each along the BB's classes.
    weighted_three: [Vec<f64>; 3],
}

impl Payoffs {
    fn new(game: &Showdowns, spot: &Spot) -> Result<Payoffs, GameError> {
        if !spot.ante.is_finite() || spot.ante < 0.0 {
            return Err(GameError::Ante(spot.ante));
        }
        if let Some(&bad) = spot
            .stacks
            .iter()
            .find(|s| !s.is_finite() || **s < 1.0 + spot.ante)
        {
            return Err(GameError::Stack(bad, 1.0 + spot.ante));
        }
        let n = game.len();
        let post = spot.posted();
        // Payoffs for each possible set of best hands: the single seat, or the showdown's.
        let terminal = |showdown: &[usize]| -> Result<Vec<[f64; 3]>, GameError> {
            let committed = spot.all_in(showdown);
            match showdown.len() {
                1 => Ok(vec![spot.payoff_top(committed, showdown, showdown)?]),
                2 => {
                    let (x, y) = (showdown[0], showdown[1]);
                    Ok(vec![
                        spot.payoff_top(committed, showdown, &[x])?,
                        spot.payoff_top(committed, showdown, &[x, y])?,
                        spot.payoff_top(committed, showdown, &[y])?,
                    ])
                }
                _ => TOP_SETS
                    .iter()
                    .map(|w| spot.payoff_top(committed, showdown, w))
                    .collect(),
            }
        };
        let ff = spot.payoff_top(post, &[BB], &[BB])?;
        let fpf = terminal(&[SB])?[0];
        let pff = terminal(&[BTN])?[0];
        let heads_up = |x: usize, y: usize| -> Result<Vec<[f64; 3]>, GameError> {
            let outcomes = terminal(&[x, y])?;
            Ok(game.pair.iter().map(|p| mix(p, &outcomes)).collect())
        };
        let sb_bb = heads_up(SB, BB)?;
        let btn_bb = heads_up(BTN, BB)?;
        let btn_sb = heads_up(BTN, SB)?;
        // At equal stacks the set of best hands decides everything; with side pots the
        // whole order of the three hands does.
        let equal = spot.equal_stack().is_some();
        let orders = match (&game.orders, equal) {
            (_, true) => None,
            (Some(o), false) => Some(o),
            (None, false) => return Err(GameError::NoOrders(spot.stacks)),
        };
        let outcomes3 = terminal(&[BTN, SB, BB])?;
        let all_in3 = spot.all_in(&[BTN, SB, BB]);
        let by_order: Vec<[f64; 3]> = super::threeway::ORDERS
            .iter()
            .map(|o| spot.payoff(all_in3, o.map(Some)))
            .collect::<Result<_, _>>()?;
        let total: f64 = {
            let mut sum = 0.0;
            for t in 0..n {
                for u in 0..n {
                    for v in 0..n {
                        let mut idx = [t, u, v];
                        idx.sort_unstable();
                        sum +=
                            f64::from(game.deals[Showdowns::triple_index(idx[0], idx[1], idx[2])]);
                    }
                }
            }
            sum
        };
        let mut weight = vec![0.0; n * n * n];
        let mut weighted_three: [Vec<f64>; 3] = std::array::from_fn(|_| vec![0.0; n * n * n]);
        for t in 0..n {
            for u in 0..n {
                for v in 0..n {
                    let seats = [t, u, v];
                    // Sort the seats by class position to find the stored triple.
                    let mut order = [0usize, 1, 2];
                    order.sort_by_key(|&i| seats[i]);
                    let id =
                        Showdowns::triple_index(seats[order[0]], seats[order[1]], seats[order[2]]);
                    let at = (t * n + u) * n + v;
                    weight[at] = f64::from(game.deals[id]) / total;
                    let mut value = [0.0; 3];
                    match orders {
                        None => {
                            // The stored winner sets name sorted positions; map them to seats.
                            for (set, &p) in TOP_SETS.iter().zip(&game.top[id]) {
                                if p == 0.0 {
                                    continue;
                                }
                                let mut seats_won: Vec<usize> =
                                    set.iter().map(|&k| order[k]).collect();
                                seats_won.sort_unstable();
                                let k = TOP_SETS
                                    .iter()
                                    .position(|w| *w == seats_won.as_slice())
                                    .expect("a set of seats is a top set");
                                for (v, o) in value.iter_mut().zip(outcomes3[k]) {
                                    *v += p * o;
                                }
                            }
                        }
                        Some(orders) => {
                            // The stored orders give sorted positions' places; map to seats.
                            for (stored, &p) in super::threeway::ORDERS.iter().zip(&orders[id]) {
                                if p == 0.0 {
                                    continue;
                                }
                                let mut places = [0u8; 3];
                                for (k, &seat) in order.iter().enumerate() {
                                    places[seat] = stored[k];
                                }
                                let j = super::threeway::ORDERS
                                    .iter()
                                    .position(|o| *o == places)
                                    .expect("a weak order of seats is an order");
                                for (v, o) in value.iter_mut().zip(by_order[j]) {
                                    *v += p * o;
                                }
                            }
                        }
                    }
                    for (plane, v) in weighted_three.iter_mut().zip(value) {
                        plane[at] = weight[at] * v;
                    }
                }
            }
        }
        Ok(Payoffs {
            n,
            ff,
            fpf,
            pff,
            sb_bb_bb: sb_bb.iter().map(|v| v[BB]).collect(),
            btn_bb_bb: btn_bb.iter().map(|v| v[BB]).collect(),
            sb_bb,
            btn_bb,
            btn_sb,
            weight,
            weighted_three,
        })
    }
}

/// The payoff of a heads-up showdown: `p` = [first wins, split, second wins].
fn mix(p: &[f64; 3], outcomes: &[[f64; 3]]) -> [f64; 3] {
    std::array::from_fn(|i| p[0] * outcomes[0][i] + p[1] * outcomes[1][i] + p[2] * outcomes[2][i])
}

/// Strategies: per decision, the frequency of pushing or calling per covered class.
pub type Strategy = [Vec<f64>; DECISIONS];

/// Per decision and class, the counterfactual value of acting (push/call) and of
/// folding, and how likely the other seats and the cards make the decision (values
/// are summed over deals as shares of all deals, so `act / reach` is the action's EV).
#[derive(Clone, Debug, PartialEq)]
pub struct Values {
    pub act: [Vec<f64>; DECISIONS],
    pub fold: [Vec<f64>; DECISIONS],
    pub reach: [Vec<f64>; DECISIONS],
    /// The BB's value where it never acts (both others fold).
    bb_idle: f64,
    /// Each seat's value under the strategies.
    pub value: [f64; 3],
}

impl Values {
    /// What each seat gains by a best response to the other two.
    pub fn gains(&self, strategy: &Strategy) -> [f64; 3] {
        let mut best = [0.0; 3];
        let mut now = [0.0; 3];
        for d in Decision::ALL {
            let i = d as usize;
            for k in 0..self.act[i].len() {
                let (a, f) = (self.act[i][k], self.fold[i][k]);
                best[d.seat()] += a.max(f);
                now[d.seat()] += strategy[i][k] * a + (1.0 - strategy[i][k]) * f;
            }
        }
        best[BB] += self.bb_idle;
        now[BB] += self.bb_idle;
        std::array::from_fn(|s| (best[s] - now[s]).max(0.0))
    }

    /// The sum over seats of what a best response gains: 0 at an equilibrium.
    pub fn exploitability(&self, strategy: &Strategy) -> f64 {
        self.gains(strategy).iter().sum()
    }

    /// The EV of acting and of folding with class position `k` at decision `d`, per deal
    /// that reaches it (NaN where none does).
    pub fn ev(&self, d: Decision, k: usize) -> (f64, f64) {
        let i = d as usize;
        let r = self.reach[i][k];
        if r > 0.0 {
            (self.act[i][k] / r, self.fold[i][k] / r)
        } else {
            (f64::NAN, f64::NAN)
        }
    }
}

/// One spot ready to solve: the card data and the payoffs of its stakes.
pub struct Game {
    payoffs: Payoffs,
    pub spot: Spot,
}

/// Sums over some of the deals, per decision and class: the value of acting, of
/// folding, and how often the decision is reached (as [`Values`] keeps them), and the
/// BB's idle value. While deals are added, the folds that are a fixed payoff times the
/// reach (the SB's first fold, the BB's folds to one push) and the idle value are left
/// as reach alone; [`Sums::finish`] multiplies them out.
struct Sums {
    act: [Vec<f64>; DECISIONS],
    fold: [Vec<f64>; DECISIONS],
    reach: [Vec<f64>; DECISIONS],
    bb_idle: f64,
}

impl Sums {
    fn new(n: usize) -> Sums {
        Sums::of_seat(n, EVERY_SEAT)
    }

    /// Zero sums of the decisions of `seat` ([`EVERY_SEAT`]: all six); the other
    /// decisions' vectors are empty, so that reading one is an error, not a zero.
    fn of_seat(n: usize, seat: usize) -> Sums {
        let len = |d: usize| {
            if sums_seat(seat, Decision::ALL[d].seat()) {
                n
            } else {
                0
            }
        };
        Sums {
            act: std::array::from_fn(|d| vec![0.0; len(d)]),
            fold: std::array::from_fn(|d| vec![0.0; len(d)]),
            reach: std::array::from_fn(|d| vec![0.0; len(d)]),
            bb_idle: 0.0,
        }
    }

    /// Adds `other`, class by class.
    fn add(&mut self, other: &Sums) {
        let pairs = (self.act.iter_mut().zip(&other.act))
            .chain(self.fold.iter_mut().zip(&other.fold))
            .chain(self.reach.iter_mut().zip(&other.reach));
        for (mine, theirs) in pairs {
            for (a, b) in mine.iter_mut().zip(theirs) {
                *a += b;
            }
        }
        self.bb_idle += other.bb_idle;
    }

    /// The folds and idle value that are a payoff times the reach.
    fn finish(mut self, p: &Payoffs) -> Sums {
        for (d, payoff) in [(1, p.ff[SB]), (3, p.fpf[BB]), (4, p.pff[BB])] {
            for (f, r) in self.fold[d].iter_mut().zip(&self.reach[d]) {
                *f = payoff * r;
            }
        }
        self.bb_idle *= p.ff[BB];
        self
    }

    /// Each decision's margin (act − fold) per class.
    fn margin(&self, d: usize, k: usize) -> f64 {
        self.act[d][k] - self.fold[d][k]
    }
}

/// One evaluation's values of the deals that end before a three-way showdown, which
/// depend on two classes only: `n × n` planes indexed `[first · n + second]`, and the
/// BB's calling frequency facing both pushes and its complement.
#[derive(Clone)]
struct Planes {
    /// (SB class, BB class): the BTN's value after it folds.
    fold_btn: Vec<f64>,
    /// (SB class, BB class): the SB's value after the BTN folds and the SB pushes.
    fold_push_sb: Vec<f64>,
    /// (BTN class, BB class): the BTN's and the SB's values after the BTN pushes and
    /// the SB folds.
    push_fold_btn: Vec<f64>,
    push_fold_sb: Vec<f64>,
    call_both: Vec<f64>,
    fold_both: Vec<f64>,
}

/// `(1 − q) · f + q · a`, seat by seat: the value where `a` is taken with frequency `q`.
fn lerp(f: &[f64; 3], a: &[f64; 3], q: f64) -> [f64; 3] {
    std::array::from_fn(|i| (1.0 - q) * f[i] + q * a[i])
}

/// Lanes of the evaluation's inner sums: each lane adds every fourth BB class, and the
/// lanes are added at the end, in a fixed order (the compiler turns the lanes into
/// vector registers; the result does not depend on the machine or the threads).
const LANES: usize = 4;

/// The `SEAT` of an evaluation that sums every seat's decisions (one for a single seat
/// sums only that seat's: what a CFR+ update of that seat reads).
const EVERY_SEAT: usize = SEATS;

/// Whether an evaluation for `evaluated` ([`EVERY_SEAT`] or one seat) sums the
/// decisions of `seat`.
const fn sums_seat(evaluated: usize, seat: usize) -> bool {
    evaluated == EVERY_SEAT || evaluated == seat
}

/// `v[range]` where `on`, else an empty slice (the vector of a decision not summed is
/// empty).
fn part<'a>(v: &'a mut [f64], range: &Range<usize>, on: bool) -> &'a mut [f64] {
    if on {
        &mut v[range.clone()]
    } else {
        &mut []
    }
}

/// The lane of `a` from `i`.
#[inline(always)]
fn lane(a: &[f64], i: usize) -> [f64; LANES] {
    a[i..i + LANES].try_into().expect("a whole lane")
}

/// Adds `f(l)` to the lane of `y` from `i`, lane by lane.
#[inline(always)]
fn add_lanes(y: &mut [f64], i: usize, f: impl Fn(usize) -> f64) {
    let y: &mut [f64; LANES] = (&mut y[i..i + LANES]).try_into().expect("a whole lane");
    for (l, y) in y.iter_mut().enumerate() {
        *y += f(l);
    }
}

/// What one row of deals (a BTN class, an SB class, the BB classes of a range) sums to.
#[derive(Default, Debug)]
struct RowSums {
    /// The deals' weight.
    weight: f64,
    /// Weight times the BTN's value after it folds.
    fold_btn: f64,
    /// Weight times the SB's value after the BTN folds and it pushes.
    fold_push_sb: f64,
    /// Weight times the BTN's and the SB's values after the BTN pushes and the SB folds.
    push_fold_btn: f64,
    push_fold_sb: f64,
    /// Weight times the BB's folding frequency facing both pushes.
    fold_both: f64,
    /// Weighted three-way payoffs of the BTN and the SB times the BB's calling frequency.
    three_btn: f64,
    three_sb: f64,
}

impl Game {
    pub fn new(showdowns: &Showdowns, spot: Spot) -> Result<Game, GameError> {
        Ok(Game {
            payoffs: Payoffs::new(showdowns, &spot)?,
            spot,
        })
    }

    pub fn classes(&self) -> usize {
        self.payoffs.n
    }

    /// The strategy's [`Planes`].
    fn planes(&self, x: &Strategy) -> Planes {
        let n = self.payoffs.n;
        let mut planes = Planes {
            fold_btn: vec![0.0; n * n],
            fold_push_sb: vec![0.0; n * n],
            push_fold_btn: vec![0.0; n * n],
            push_fold_sb: vec![0.0; n * n],
            call_both: vec![0.0; n],
            fold_both: vec![0.0; n],
        };
        // The SB's class (BTN folded) or the BTN's (BTN pushed, SB folded) first.
        for first in 0..n {
            for b in 0..n {
                self.plane_entry(&mut planes, x, first, b);
            }
        }
        for b in 0..n {
            self.plane_call(&mut planes, x, b);
        }
        planes
    }

    /// The planes' entries of first class `first` and BB class `b` under `x`.
    #[inline]
    fn plane_entry(&self, planes: &mut Planes, x: &Strategy, first: usize, b: usize) {
        let p = &self.payoffs;
        let at = first * p.n + b;
        let v_fp = lerp(&p.fpf, &p.sb_bb[at], x[3][b]);
        planes.fold_btn[at] = lerp(&p.ff, &v_fp, x[1][first])[BTN];
        planes.fold_push_sb[at] = v_fp[SB];
        let v_pf = lerp(&p.pff, &p.btn_bb[at], x[4][b]);
        planes.push_fold_btn[at] = v_pf[BTN];
        planes.push_fold_sb[at] = v_pf[SB];
    }

    /// The BB's calling and folding frequencies facing both pushes, class `b`.
    #[inline]
    fn plane_call(&self, planes: &mut Planes, x: &Strategy, b: usize) {
        let call = x[Decision::BbCallBoth as usize][b];
        planes.call_both[b] = call;
        planes.fold_both[b] = 1.0 - call;
    }

    /// Makes `planes` those of `x` again after `x[d][k]` changed (they were `x`'s but
    /// for that frequency): only the entries that read it, computed as
    /// [`Game::planes`] computes them, so the result is the same bit for bit.
    fn patch_planes(&self, planes: &mut Planes, x: &Strategy, d: usize, k: usize) {
        let n = self.payoffs.n;
        match Decision::ALL[d] {
            // The SB's push frequency weighs the BTN's value after it folds: row `k`.
            Decision::SbPush => (0..n).for_each(|b| self.plane_entry(planes, x, k, b)),
            // The BB's calls facing one push: column `k`.
            Decision::BbCallSb | Decision::BbCallBtn => {
                (0..n).for_each(|first| self.plane_entry(planes, x, first, k))
            }
            Decision::BbCallBoth => self.plane_call(planes, x, k),
            // The BTN's push and the SB's call are not in the planes.
            Decision::BtnPush | Decision::SbCall => {}
        }
    }

    /// The sums of one row of deals: BTN class `t`, SB class `s`, the BB classes of `bs`.
    /// Besides, adds the BB's per-class sums of the row to `out`: facing the SB's push
    /// (`sb_push` the frequency of the deals that reach it), facing both pushes
    /// (`both`; `both_fold` that times the BTN-SB showdown's BB payoff), and to `r2` the
    /// weight times the SB's folding frequency `sb_fold` (the BB facing the BTN's push
    /// alone, scaled by the BTN's push once per BTN class). Only the sums `SEAT` needs
    /// are made (see [`Game::add_deals`]); the row's weight always.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn add_row<const SEAT: usize>(
        &self,
        planes: &Planes,
        t: usize,
        s: usize,
        bs: &Range<usize>,
        k: [f64; 4],
        r2: &mut [f64],
        out: &mut Sums,
    ) -> RowSums {
        if SEAT == EVERY_SEAT && bs.len() == 1 {
            // One BB class (a Jacobian column of the BB's): n² rows of one deal each.
            self.add_deal(planes, t, s, bs.start, k, r2, out)
        } else {
            self.add_row_lanes::<SEAT>(planes, t, s, bs, k, r2, out)
        }
    }

    /// [`Game::add_row`] of one BB class `b`, without a row's set-up, bit for bit as
    /// [`Game::add_row_lanes`] adds it (each lane's sum starts at 0 and the four lanes
    /// are added as `(a + 0) + (0 + 0)`).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn add_deal(
        &self,
        planes: &Planes,
        t: usize,
        s: usize,
        b: usize,
        [sb_push, sb_fold, both, both_fold]: [f64; 4],
        r2: &mut [f64],
        out: &mut Sums,
    ) -> RowSums {
        let p = &self.payoffs;
        let n = p.n;
        let at = (t * n + s) * n + b;
        let wi = p.weight[at];
        let [u_btn, u_sb, u_bb] = p.weighted_three.each_ref().map(|u| u[at]);
        let lanes = |v: f64| ((0.0 + v) + 0.0) + (0.0 + 0.0);
        let (fb, fp) = (s * n + b, t * n + b);
        out.act[3][b] += sb_push * (p.sb_bb_bb[fb] * wi);
        out.reach[3][b] += sb_push * wi;
        r2[0] += sb_fold * wi;
        out.act[5][b] += both * u_bb;
        out.fold[5][b] += both_fold * wi;
        out.reach[5][b] += both * wi;
        RowSums {
            weight: lanes(wi),
            fold_btn: lanes(wi * planes.fold_btn[fb]),
            fold_push_sb: lanes(wi * planes.fold_push_sb[fb]),
            push_fold_btn: lanes(wi * planes.push_fold_btn[fp]),
            push_fold_sb: lanes(wi * planes.push_fold_sb[fp]),
            fold_both: lanes(wi * planes.fold_both[b]),
            three_btn: lanes(planes.call_both[b] * u_btn),
            three_sb: lanes(planes.call_both[b] * u_sb),
        }
    }

    /// [`Game::add_row`] in [`LANES`] lanes along the BB's classes. A sum `SEAT` does not
    /// need is left at 0 and its arrays are not read: a single seat's evaluation streams
    /// the weights and its own three-way payoffs, two of the four `n³` arrays.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn add_row_lanes<const SEAT: usize>(
        &self,
        planes: &Planes,
        t: usize,
        s: usize,
        bs: &Range<usize>,
        [sb_push, sb_fold, both, both_fold]: [f64; 4],
        r2: &mut [f64],
        out: &mut Sums,
    ) -> RowSums {
        let (btn, sb, bb) = (
            sums_seat(SEAT, BTN),
            sums_seat(SEAT, SB),
            sums_seat(SEAT, BB),
        );
        // The BTN's and the SB's showdowns against the BB's call or fold.
        let blinds = btn || sb;
        let p = &self.payoffs;
        let n = p.n;
        let len = bs.len();
        let at = (t * n + s) * n + bs.start;
        let w = &p.weight[at..at + len];
        let [u_btn, u_sb, u_bb] = p.weighted_three.each_ref().map(|u| &u[at..at + len]);
        fn row<'a>(plane: &'a [f64], n: usize, first: usize, bs: &Range<usize>) -> &'a [f64] {
            &plane[first * n + bs.start..first * n + bs.end]
        }
        let fold_btn = row(&planes.fold_btn, n, s, bs);
        let fold_push_sb = row(&planes.fold_push_sb, n, s, bs);
        let sb_bb = row(&p.sb_bb_bb, n, s, bs);
        let push_fold_btn = row(&planes.push_fold_btn, n, t, bs);
        let push_fold_sb = row(&planes.push_fold_sb, n, t, bs);
        let call_both = &planes.call_both[bs.clone()];
        let fold_both = &planes.fold_both[bs.clone()];
        let r2 = &mut r2[..len];
        let (bb1_act, rest) = out.act[3..].split_at_mut(2);
        let bb1_act = part(&mut bb1_act[0], bs, bb);
        let bb3_act = part(&mut rest[0], bs, bb);
        let (bb1_reach, rest) = out.reach[3..].split_at_mut(2);
        let bb1_reach = part(&mut bb1_reach[0], bs, bb);
        let bb3_reach = part(&mut rest[0], bs, bb);
        let bb3_fold = part(&mut out.fold[5], bs, bb);
        let mut acc = [[0.0f64; LANES]; 8];
        let whole = len - len % LANES;
        // A lane not summed reads as zeros (the compiler drops its loads and sums).
        let lane_if = |on: bool, a: &[f64], i: usize| if on { lane(a, i) } else { [0.0; LANES] };
        for i in (0..whole).step_by(LANES) {
            // Each lane read on its own: `[slices].map(..)` here was compiled as a call
            // per lane step that copied the eleven lanes through the stack.
            let (wi, fb, fps, pfb) = (
                lane(w, i),
                lane_if(btn, fold_btn, i),
                lane_if(sb, fold_push_sb, i),
                lane_if(btn, push_fold_btn, i),
            );
            let (pfs, fbo, cb, ub) = (
                lane_if(sb, push_fold_sb, i),
                lane_if(blinds, fold_both, i),
                lane_if(blinds, call_both, i),
                lane_if(btn, u_btn, i),
            );
            let (us, ubb, sbb) = (
                lane_if(sb, u_sb, i),
                lane_if(bb, u_bb, i),
                lane_if(bb, sb_bb, i),
            );
            for l in 0..LANES {
                acc[0][l] += wi[l];
                if btn {
                    acc[1][l] += wi[l] * fb[l];
                    acc[3][l] += wi[l] * pfb[l];
                    acc[6][l] += cb[l] * ub[l];
                }
                if sb {
                    acc[2][l] += wi[l] * fps[l];
                    acc[4][l] += wi[l] * pfs[l];
                    acc[7][l] += cb[l] * us[l];
                }
                if blinds {
                    acc[5][l] += wi[l] * fbo[l];
                }
            }
            if bb {
                add_lanes(bb1_act, i, |l| sb_push * (sbb[l] * wi[l]));
                add_lanes(bb1_reach, i, |l| sb_push * wi[l]);
                add_lanes(r2, i, |l| sb_fold * wi[l]);
                add_lanes(bb3_act, i, |l| both * ubb[l]);
                add_lanes(bb3_fold, i, |l| both_fold * wi[l]);
                add_lanes(bb3_reach, i, |l| both * wi[l]);
            }
        }
        for i in whole..len {
            let wi = w[i];
            acc[0][0] += wi;
            if btn {
                acc[1][0] += wi * fold_btn[i];
                acc[3][0] += wi * push_fold_btn[i];
                acc[6][0] += call_both[i] * u_btn[i];
            }
            if sb {
                acc[2][0] += wi * fold_push_sb[i];
                acc[4][0] += wi * push_fold_sb[i];
                acc[7][0] += call_both[i] * u_sb[i];
            }
            if blinds {
                acc[5][0] += wi * fold_both[i];
            }
            if bb {
                bb1_act[i] += sb_push * (sb_bb[i] * wi);
                bb1_reach[i] += sb_push * wi;
                r2[i] += sb_fold * wi;
                bb3_act[i] += both * u_bb[i];
                bb3_fold[i] += both_fold * wi;
                bb3_reach[i] += both * wi;
            }
        }
        let [weight, fold_btn, fold_push_sb, push_fold_btn, push_fold_sb, fold_both, three_btn, three_sb] =
            acc.map(|a| (a[0] + a[1]) + (a[2] + a[3]));
        RowSums {
            weight,
            fold_btn,
            fold_push_sb,
            push_fold_btn,
            push_fold_sb,
            fold_both,
            three_btn,
            three_sb,
        }
    }

    /// Adds to `out` the deals with a BTN class in `ts`, an SB class in `ss` and a BB
    /// class in `bs`, under `x`: what each decision of `SEAT` ([`EVERY_SEAT`]: every
    /// decision) is worth and how often it is reached (before [`Sums::finish`]), and,
    /// for the BB, its idle value. `out` holds those decisions (see [`Sums::of_seat`]).
    /// Each sum is made by the same operations in the same order whatever `SEAT`, so a
    /// seat's sums are the whole evaluation's bit for bit.
    fn add_deals<const SEAT: usize>(
        &self,
        x: &Strategy,
        planes: &Planes,
        ts: Range<usize>,
        ss: Range<usize>,
        bs: Range<usize>,
        out: &mut Sums,
    ) {
        let (btn_on, sb_on, bb_on) = (
            sums_seat(SEAT, BTN),
            sums_seat(SEAT, SB),
            sums_seat(SEAT, BB),
        );
        let p = &self.payoffs;
        let n = p.n;
        let mut r2 = vec![0.0; bs.len()];
        for t in ts {
            let push = x[0][t];
            r2.fill(0.0);
            let mut btn = [0.0; 3];
            for s in ss.clone() {
                let (sb_push, sb_call) = (x[1][s], x[2][s]);
                let ts_payoff = p.btn_sb[t * n + s];
                let folded = 1.0 - push;
                let both = push * sb_call;
                let k = [folded * sb_push, 1.0 - sb_call, both, both * ts_payoff[BB]];
                let row = self.add_row::<SEAT>(planes, t, s, &bs, k, &mut r2, out);
                if btn_on {
                    // The BTN: pushing meets the SB's call or fold; folding, the blinds'
                    // play.
                    btn[0] += (1.0 - sb_call) * row.push_fold_btn
                        + sb_call * (ts_payoff[BTN] * row.fold_both + row.three_btn);
                    btn[1] += row.fold_btn;
                    btn[2] += row.weight;
                }
                if sb_on {
                    // The SB first in after the BTN folds (its fold is the blinds lost).
                    out.act[1][s] += folded * row.fold_push_sb;
                    out.reach[1][s] += folded * row.weight;
                    // The SB facing the BTN's push.
                    out.act[2][s] += push * (ts_payoff[SB] * row.fold_both + row.three_sb);
                    out.fold[2][s] += push * row.push_fold_sb;
                    out.reach[2][s] += push * row.weight;
                }
                if bb_on {
                    out.bb_idle += folded * (1.0 - sb_push) * row.weight;
                }
            }
            if btn_on {
                out.act[0][t] += btn[0];
                out.fold[0][t] += btn[1];
                out.reach[0][t] += btn[2];
            }
            if bb_on {
                // The BB facing the BTN's push alone.
                let bb_row = &p.btn_bb_bb[t * n + bs.start..t * n + bs.end];
                for ((i, r), pay) in bs.clone().zip(&r2).zip(bb_row) {
                    out.act[4][i] += push * (pay * r);
                    out.reach[4][i] += push * r;
                }
            }
        }
    }

    /// The sums of `SEAT`'s decisions ([`EVERY_SEAT`]: all) under `x`, finished, summed
    /// in a fixed order (the button's classes in parallel, then added in order), so the
    /// result does not depend on the threads.
    fn seat_sums<const SEAT: usize>(&self, x: &Strategy) -> Sums {
        let n = self.classes();
        let planes = self.planes(x);
        let partials: Vec<Sums> = (0..n)
            .into_par_iter()
            .map(|t| {
                let mut out = Sums::of_seat(n, SEAT);
                self.add_deals::<SEAT>(x, &planes, t..t + 1, 0..n, 0..n, &mut out);
                out
            })
            .collect();
        let mut sums = Sums::of_seat(n, SEAT);
        for part in &partials {
            sums.add(part);
        }
        sums.finish(&self.payoffs)
    }

    /// What a CFR+ update of `seat` reads: the sums of its decisions under `x` (the
    /// other decisions' vectors empty), bit for bit as [`Game::values`] gives them, at
    /// about half the memory traffic.
    fn values_of_seat(&self, x: &Strategy, seat: usize) -> Sums {
        match seat {
            BTN => self.seat_sums::<BTN>(x),
            SB => self.seat_sums::<SB>(x),
            _ => self.seat_sums::<BB>(x),
        }
    }

    /// Every decision's counterfactual values under `x`, summed in a fixed order (the
    /// button's classes in parallel, then added in order), so the result does not depend
    /// on the threads.
    pub fn values(&self, x: &Strategy) -> Values {
        let n = self.classes();
        let Sums {
            act,
            fold,
            reach,
            bb_idle,
        } = self.seat_sums::<EVERY_SEAT>(x);
        // Each seat's value: its decisions played as `x` plays them, over the deals
        // that reach them (the BB's besides where both others fold).
        let mut value = [0.0, 0.0, bb_idle];
        for d in Decision::ALL {
            let i = d as usize;
            for k in 0..n {
                value[d.seat()] += x[i][k] * act[i][k] + (1.0 - x[i][k]) * fold[i][k];
            }
        }
        Values {
            act,
            fold,
            reach,
            bb_idle,
            value,
        }
    }

    /// The sums over the deals that give the seat deciding `d` class position `k`, with
    /// `x[d][k]` set to `q`: the only deals whose values that frequency changes.
    /// `planes` are `x`'s, and are again when this returns.
    fn sums_holding(
        &self,
        x: &mut Strategy,
        planes: &mut Planes,
        d: usize,
        k: usize,
        q: f64,
    ) -> Sums {
        let n = self.classes();
        let keep = std::mem::replace(&mut x[d][k], q);
        self.patch_planes(planes, x, d, k);
        let mut out = Sums::new(n);
        let one = k..k + 1;
        match Decision::ALL[d].seat() {
            BTN => self.add_deals::<EVERY_SEAT>(x, planes, one, 0..n, 0..n, &mut out),
            SB => self.add_deals::<EVERY_SEAT>(x, planes, 0..n, one, 0..n, &mut out),
            _ => self.add_deals::<EVERY_SEAT>(x, planes, 0..n, 0..n, one, &mut out),
        }
        x[d][k] = keep;
        self.patch_planes(planes, x, d, k);
        out.finish(&self.payoffs)
    }

    /// The Jacobian of the margins (act − fold sums) of `which` with respect to their own
    /// frequencies, `[row][column]`. Every value is affine in each single frequency (a
    /// seat's decisions lie in separate subtrees, and other seats' in other factors), so
    /// a column is exactly the change from frequency 0 to 1, over the n² deals of the
    /// deciding class alone: no finite-difference error, and n times cheaper than
    /// evaluating the whole game.
    fn jacobian(&self, x: &Strategy, which: &[(usize, usize)]) -> Vec<Vec<f64>> {
        // Each task patches its own copy of the planes where a column's frequency
        // enters, rather than building them twice a column.
        let planes = self.planes(x);
        let columns: Vec<Vec<f64>> = which
            .par_iter()
            .map_init(
                || (x.clone(), planes.clone()),
                |(x, planes), &(d, k)| {
                    let one = self.sums_holding(x, planes, d, k, 1.0);
                    let zero = self.sums_holding(x, planes, d, k, 0.0);
                    which
                        .iter()
                        .map(|&(e, j)| one.margin(e, j) - zero.margin(e, j))
                        .collect()
                },
            )
            .collect();
        (0..which.len())
            .map(|row| columns.iter().map(|c| c[row]).collect())
            .collect()
    }
}

/// A solved spot: the strategies, what every action is worth against them, and the
/// certificate.
#[derive(Clone, Debug)]
pub struct Solution {
    pub strategy: Strategy,
    pub values: Values,
    /// What each seat gains by a best response (bb, or shares of the prize pool).
    pub gains: [f64; 3],
    pub exploitability: f64,
    /// CFR+ iterations and Newton steps taken.
    pub iterations: usize,
    pub newton_steps: usize,
}

impl Solution {
    /// The chance that a seat dealt class position `k` faces decision `d`.
    pub fn faced(&self, d: Decision, k: usize) -> f64 {
        let dealt = self.values.reach[Decision::BtnPush as usize][k];
        if dealt > 0.0 {
            self.values.reach[d as usize][k] / dealt
        } else {
            0.0
        }
    }

    /// The share of the hands dealt to the deciding seat that push or call at `d`: its
    /// range, from 0 to 1.
    pub fn range(&self, d: Decision) -> f64 {
        // Every seat is dealt each class as often as the button is.
        let dealt = &self.values.reach[Decision::BtnPush as usize];
        dealt
            .iter()
            .zip(&self.strategy[d as usize])
            .map(|(w, x)| w * x)
            .sum::<f64>()
            / dealt.iter().sum::<f64>()
    }
}

/// One solved spot: its stakes and its solution.
pub struct SolvedSpot {
    pub spot: Spot,
    pub solution: Solution,
}

/// What a run keeps of a solved spot while it solves the others (in its
/// [`crate::engine::Stash`]): the strategy and how it was reached. The values and the
/// certificate are computed again from the strategy when it is read back
/// ([`Game::recertify`]), so a damaged or forged file can only cost a solve, never give a
/// table a strategy its certificate does not vouch for.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Stashed {
    pub strategy: Strategy,
    pub iterations: usize,
    pub newton_steps: usize,
}

impl Stashed {
    pub fn of(solution: &Solution) -> Stashed {
        Stashed {
            strategy: solution.strategy.clone(),
            iterations: solution.iterations,
            newton_steps: solution.newton_steps,
        }
    }
}

/// How to solve: when to stop, and decisions held fixed (the consistency check forces the
/// button to fold).
#[derive(Clone, Debug)]
pub struct SolveOptions {
    pub target: f64,
    pub max_iterations: usize,
    pub fixed: [Option<Vec<f64>>; DECISIONS],
}

impl SolveOptions {
    pub fn new(target: f64) -> SolveOptions {
        SolveOptions {
            target,
            max_iterations: 4_096,
            fixed: Default::default(),
        }
    }
}

/// Margins this close to 0 (big blinds per deal reaching the decision) start the polish
/// as mixed; beyond, a class starts at its better action.
const MIXABLE: f64 = 1e-3;

impl Game {
    /// Solves the spot (see the module doc): CFR+ until the average strategy's
    /// exploitability is at most the target or a polish reaches it.
    pub fn solve(&self, opts: &SolveOptions) -> Solution {
        let n = self.classes();
        let mut regret: [[Vec<f64>; 2]; DECISIONS] =
            std::array::from_fn(|_| [vec![0.0; n], vec![0.0; n]]);
        let mut sum: Strategy = std::array::from_fn(|_| vec![0.0; n]);
        let mut weights = 0.0;
        let mut best: Option<Solution> = None;
        let mut iterations = 0;
        let mut check = 16;
        while iterations < opts.max_iterations {
            iterations += 1;
            let w = iterations as f64;
            // Alternating updates: each seat's regrets against the others' latest play,
            // from an evaluation of that seat's decisions alone.
            for seat in 0..SEATS {
                let x: Strategy = std::array::from_fn(|d| match &opts.fixed[d] {
                    Some(f) => f.clone(),
                    None => (0..n)
                        .map(|k| {
                            let (a, f) = (regret[d][0][k], regret[d][1][k]);
                            if a + f > 0.0 {
                                a / (a + f)
                            } else {
                                0.5
                            }
                        })
                        .collect(),
                });
                let v = self.values_of_seat(&x, seat);
                for d in Decision::ALL.into_iter().filter(|d| d.seat() == seat) {
                    let d = d as usize;
                    for k in 0..n {
                        sum[d][k] += w * x[d][k];
                        if opts.fixed[d].is_some() {
                            continue;
                        }
                        let (a, f) = (v.act[d][k], v.fold[d][k]);
                        let u = x[d][k] * a + (1.0 - x[d][k]) * f;
                        regret[d][0][k] = (regret[d][0][k] + a - u).max(0.0);
                        regret[d][1][k] = (regret[d][1][k] + f - u).max(0.0);
                    }
                }
            }
            weights += w;
            if iterations == check || iterations == opts.max_iterations {
                check *= 2;
                let average: Strategy =
                    std::array::from_fn(|d| sum[d].iter().map(|s| s / weights).collect());
                let polished = self.polish(average, opts);
                let better = best
                    .as_ref()
                    .is_none_or(|b| polished.exploitability < b.exploitability);
                if better {
                    best = Some(Solution {
                        iterations,
                        ..polished
                    });
                }
                if best
                    .as_ref()
                    .is_some_and(|b| b.exploitability <= opts.target)
                {
                    break;
                }
            }
        }
        best.expect("at least one check runs")
    }

    /// A strategy read back from a stash, certified again as [`Game::solve`] certifies
    /// its answer (no decision held fixed): the same solution bit for bit when the
    /// strategy is the one the solve gave. `None` when it is not a strategy of this game
    /// (a frequency per class and decision, each in 0..=1) or misses `target`.
    pub fn recertify(&self, stashed: Stashed, target: f64) -> Option<Solution> {
        let n = self.classes();
        let fits = stashed
            .strategy
            .iter()
            .all(|x| x.len() == n && x.iter().all(|f| (0.0..=1.0).contains(f)));
        if !fits {
            return None;
        }
        let solution = self.certify(
            stashed.strategy,
            &Default::default(),
            stashed.iterations,
            stashed.newton_steps,
        );
        (solution.exploitability <= target).then_some(solution)
    }

    /// The certificate of a strategy: what each seat gains by a best response, summed
    /// over the seats that choose (a seat whose every decision `fixed` holds is left out).
    pub fn certify(
        &self,
        strategy: Strategy,
        fixed: &[Option<Vec<f64>>; DECISIONS],
        iterations: usize,
        newton_steps: usize,
    ) -> Solution {
        let values = self.values(&strategy);
        self.certified(strategy, values, fixed, iterations, newton_steps)
    }

    /// [`Game::certify`] of `strategy` whose values are `values`.
    fn certified(
        &self,
        strategy: Strategy,
        values: Values,
        fixed: &[Option<Vec<f64>>; DECISIONS],
        iterations: usize,
        newton_steps: usize,
    ) -> Solution {
        let gains = values.gains(&strategy);
        let chooses = |seat: usize| {
            Decision::ALL
                .iter()
                .any(|&d| d.seat() == seat && fixed[d as usize].is_none())
        };
        Solution {
            exploitability: (0..SEATS).filter(|&s| chooses(s)).map(|s| gains[s]).sum(),
            gains,
            strategy,
            values,
            iterations,
            newton_steps,
        }
    }

    /// From an approximate equilibrium, an active-set polish: the classes the average
    /// mixes, or whose margin is within [`MIXABLE`] bb of 0, are solved for indifference
    /// by damped Newton steps (the exact Jacobian, least squares where the mixed
    /// classes outnumber what pins them), clamped to [0, 1]; then a mixed class at a bound
    /// its margin agrees with becomes pure, a pure class its margin disagrees with joins
    /// the mixed ones, and the round repeats. Returns the best strategy seen, certified.
    fn polish(&self, start: Strategy, opts: &SolveOptions) -> Solution {
        let n = self.classes();
        let first = self.values(&start);
        let mut x = start;
        let mut steps = 0;
        let unit = self.spot.bb_value();
        let free = |d: usize| opts.fixed[d].is_none();
        // Per-deal margins in big blinds; a decision nobody reaches has none.
        let margin = |v: &Values, d: usize, k: usize| {
            let r = v.reach[d][k];
            if r > 0.0 {
                (v.act[d][k] - v.fold[d][k]) / r / unit
            } else {
                0.0
            }
        };
        let mut mixed: Vec<(usize, usize)> = vec![];
        for d in (0..DECISIONS).filter(|&d| free(d)) {
            for k in 0..n {
                if first.reach[d][k] <= 0.0 {
                    continue;
                }
                let m = margin(&first, d, k);
                if (1e-3..=1.0 - 1e-3).contains(&x[d][k]) || m.abs() <= MIXABLE {
                    mixed.push((d, k));
                } else {
                    x[d][k] = if m > 0.0 { 1.0 } else { 0.0 };
                }
            }
        }
        // The start with its clear margins played purely is the first candidate.
        let mut best = self.certify(x.clone(), &opts.fixed, 0, 0);
        // The values at `x` where they are known: a round's certificate and the next
        // round's first margins are at the same point, and so are a round's last margins
        // and its certificate when the round stops without a step.
        let mut at_x = Some(best.values.clone());
        for _round in 0..24 {
            // Chord steps: the Jacobian is formed at the round's start and again only
            // when a step fails to halve the residual (a column costs 2/n of a full
            // evaluation, the step itself one). A step from a Jacobian just formed that
            // does not shrink the residual ends the round: the clamps or the active set
            // stall Newton there, and the round's end updates the set.
            let mut jac: Option<Vec<Vec<f64>>> = None;
            let mut last = f64::INFINITY;
            let mut fresh = false;
            for _ in 0..12 {
                if mixed.is_empty() {
                    break;
                }
                let v = at_x.take().unwrap_or_else(|| self.values(&x));
                let f = margins(&v, &mixed);
                at_x = Some(v);
                let norm = f.iter().map(|m| m * m).sum::<f64>().sqrt();
                if f.iter().all(|m| m.abs() < 1e-15) {
                    break;
                }
                if fresh && norm >= last {
                    break;
                }
                if norm > 0.5 * last {
                    jac = None;
                }
                last = norm;
                fresh = jac.is_none();
                let jac = jac.get_or_insert_with(|| self.jacobian(&x, &mixed));
                let Some(step) = least_squares_step(jac, &f) else {
                    break;
                };
                steps += 1;
                for (&(d, k), dx) in mixed.iter().zip(step) {
                    x[d][k] = (x[d][k] + dx).clamp(0.0, 1.0);
                }
                at_x = None;
            }
            let values = at_x.take().unwrap_or_else(|| self.values(&x));
            let candidate = self.certified(x.clone(), values, &opts.fixed, 0, steps);
            let v = candidate.values.clone();
            if candidate.exploitability < best.exploitability {
                best = candidate;
            }
            if best.exploitability <= opts.target * 1e-3 {
                break;
            }
            // Update the active set from the margins at the new point.
            let mut changed = false;
            mixed.retain(|&(d, k)| {
                let m = margin(&v, d, k);
                let settled = (x[d][k] == 0.0 && m < 0.0) || (x[d][k] == 1.0 && m > 0.0);
                changed |= settled;
                !settled
            });
            for d in (0..DECISIONS).filter(|&d| free(d)) {
                for k in 0..n {
                    if mixed.contains(&(d, k)) {
                        continue;
                    }
                    let m = margin(&v, d, k);
                    let regret = if x[d][k] == 0.0 { m } else { -m };
                    if regret > 1e-12 {
                        mixed.push((d, k));
                        changed = true;
                    }
                }
            }
            at_x = Some(v);
            if !changed {
                break;
            }
        }
        best.newton_steps = steps;
        best
    }
}

/// The margins (act − fold, as counterfactual sums) of the listed decisions and classes.
fn margins(v: &Values, which: &[(usize, usize)]) -> Vec<f64> {
    which
        .iter()
        .map(|&(d, k)| v.act[d][k] - v.fold[d][k])
        .collect()
}

/// The damped Gauss-Newton step `(JᵀJ + λI) Δ = −Jᵀf`: the Newton step where the
/// Jacobian is regular, and a least-squares step where the mixed classes outnumber what
/// pins them (a continuum of equilibria, or a class that is really pure).
fn least_squares_step(jac: &[Vec<f64>], f: &[f64]) -> Option<Vec<f64>> {
    let m = jac.first()?.len();
    // JᵀJ a row at a time, in parallel: row i from column i on, each entry summed over
    // the Jacobian's rows in order (so the threads do not change it); the lower triangle
    // mirrors the upper.
    let mut a: Vec<Vec<f64>> = (0..m)
        .into_par_iter()
        .map(|i| {
            let mut row = vec![0.0; m];
            for r in jac {
                let ri = r[i];
                for (a, &rj) in row[i..].iter_mut().zip(&r[i..]) {
                    *a += ri * rj;
                }
            }
            row
        })
        .collect();
    for i in 1..m {
        let (upper, lower) = a.split_at_mut(i);
        for (j, above) in upper.iter().enumerate() {
            lower[0][j] = above[i];
        }
    }
    let mut b = vec![0.0; m];
    for (row, fi) in jac.iter().zip(f) {
        for (b, r) in b.iter_mut().zip(row) {
            *b -= r * fi;
        }
    }
    let trace: f64 = (0..m).map(|i| a[i][i]).sum();
    let damping = 1e-12 * trace / m as f64;
    for (i, row) in a.iter_mut().enumerate() {
        row[i] += damping;
    }
    solve_linear(a, b)
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `None` if singular.
/// The rows below a pivot are reduced in parallel (each on its own, so the threads do
/// not change the answer).
fn solve_linear(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    let scale = a.iter().flatten().fold(0.0f64, |m, &v| m.max(v.abs()));
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() <= 1e-14 * scale {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let (done, below) = a.split_at_mut(col + 1);
        let pivot_row = &done[col][col..];
        let (b_done, b_below) = b.split_at_mut(col + 1);
        let pivot_b = b_done[col];
        below
            .par_iter_mut()
            .zip(b_below)
            .with_min_len(32)
            .for_each(|(row, b)| {
                let factor = row[col] / pivot_row[0];
                if factor != 0.0 {
                    for (x, p) in row[col..].iter_mut().zip(pivot_row) {
                        *x -= factor * p;
                    }
                    *b -= factor * pivot_b;
                }
            });
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let s: f64 = (row + 1..n).map(|c| a[row][c] * x[c]).sum();
        x[row] = (b[row] - s) / a[row][row];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::super::threeway;
    use super::*;

    fn class(name: &str) -> u8 {
        cardtables::holdem::class_of_text(name).unwrap() as u8
    }

    pub(crate) fn showdowns(names: &[&str]) -> Showdowns {
        let mut classes: Vec<u8> = names.iter().map(|c| class(c)).collect();
        classes.sort_unstable();
        let triples: Vec<TripleCounts> = threeway::triples(&classes)
            .into_iter()
            .map(|t| TripleCounts::from_result(&threeway::solve(t)))
            .collect();
        let mut pairs = vec![];
        for b in 0..classes.len() {
            for a in 0..=b {
                pairs.push(pair_counts(classes[a], classes[b]));
            }
        }
        Showdowns::new(classes, &triples, &pairs).unwrap()
    }

    /// Each decision's EVs equal the counted sums `[act, fold, weight]` per (decision,
    /// class): acting to `tolerance`, folding to 1e-12.
    fn assert_evs(v: &Values, sums: &[[f64; 3]], tolerance: f64) {
        let n = sums.len() / DECISIONS;
        for d in Decision::ALL {
            for k in 0..n {
                let [act, fold, w] = sums[d as usize * n + k];
                let (ea, ef) = v.ev(d, k);
                assert!(
                    (ea - act / w).abs() < tolerance,
                    "{} {k}: {ea} vs {}",
                    d.name(),
                    act / w
                );
                assert!(
                    (ef - fold / w).abs() < 1e-12,
                    "{} {k}: {ef} vs {}",
                    d.name(),
                    fold / w
                );
            }
        }
    }

    /// Every combo of the covered classes, with its class position.
    fn class_combos(game: &Showdowns) -> Vec<(usize, [cardtables::Card; 2])> {
        use crate::games::holdem::classes::class_of;
        use cardtables::Card;
        (0..52u8)
            .flat_map(|a| (a + 1..52).map(move |b| (a, b)))
            .filter_map(|(a, b)| {
                let (p, q) = (Card::from_id(a).unwrap(), Card::from_id(b).unwrap());
                let c = class_of(p, q) as u8;
                game.classes
                    .iter()
                    .position(|&x| x == c)
                    .map(|k| (k, [p, q]))
            })
            .collect()
    }

    fn positions(game: &Showdowns, names: &[&str]) -> Vec<usize> {
        names
            .iter()
            .map(|n| game.classes.iter().position(|&c| c == class(n)).unwrap())
            .collect()
    }

    /// Every decision's EVs against a brute-force count: every ordered triple of disjoint
    /// combos, the chip-EV payoffs written out by hand, the three-way equities taken from
    /// the stored results seat by seat (not through the winner sets).
    #[test]
    fn values_agree_with_a_count_over_every_deal() {
        let names = ["AA", "KK", "AKs"];
        let game = showdowns(&names);
        let n = game.len();
        let (stack, ante) = (7.5, 0.25);
        let spot = Spot::equal(stack, ante, None);
        let g = Game::new(&game, spot).unwrap();
        // Arbitrary frequencies per decision and class.
        let x: Strategy = std::array::from_fn(|d| {
            (0..n)
                .map(|k| ((d * 7 + k * 3) % 5) as f64 / 4.0 * 0.9 + 0.05)
                .collect()
        });
        let v = g.values(&x);
        let combos = class_combos(&game);
        let hu = |a: usize, b: usize| {
            let (deals, equity) = game.heads_up(a, b);
            equity / deals
        };
        let three = |seats: [usize; 3]| -> [f64; 3] {
            let mut sorted: Vec<u8> = seats.iter().map(|&k| game.classes[k]).collect();
            sorted.sort_unstable();
            let r = threeway::solve([sorted[0], sorted[1], sorted[2]]);
            let mut used = [false; 3];
            std::array::from_fn(|i| {
                let c = game.classes[seats[i]];
                let s = (0..3).find(|&s| !used[s] && r.classes[s] == c).unwrap();
                used[s] = true;
                r.equity[s]
            })
        };
        // (decision, class) -> [act sum, fold sum, weight]
        let mut sums = vec![[0.0f64; 3]; DECISIONS * n];
        let mut add = |d: usize, k: usize, w: f64, act: f64, fold: f64| {
            let e = &mut sums[d * n + k];
            e[0] += w * act;
            e[1] += w * fold;
            e[2] += w;
        };
        let s = stack;
        for &(t, ht) in &combos {
            for &(sb, hs) in &combos {
                for &(b, hb) in &combos {
                    let cards = [ht[0], ht[1], hs[0], hs[1], hb[0], hb[1]];
                    if (1..6).any(|i| cards[..i].contains(&cards[i])) {
                        continue;
                    }
                    let e3 = three([t, sb, b]);
                    let (pb, ps, cs, c1, c2, c3) =
                        (x[0][t], x[1][sb], x[2][sb], x[3][b], x[4][b], x[5][b]);
                    // BTN.
                    let u_tb = hu(t, b) * (2.0 * s + 0.5 + ante) - s;
                    let u_ts = hu(t, sb) * (2.0 * s + 1.0 + ante) - s;
                    let push = (1.0 - cs) * ((1.0 - c2) * (1.5 + 2.0 * ante) + c2 * u_tb)
                        + cs * ((1.0 - c3) * u_ts + c3 * (e3[0] * 3.0 * s - s));
                    add(0, t, 1.0, push, -ante);
                    // SB after a fold, and facing a push.
                    let sb_push =
                        (1.0 - c1) * (1.0 + 2.0 * ante) + c1 * (hu(sb, b) * (2.0 * s + ante) - s);
                    add(1, sb, 1.0 - pb, sb_push, -(0.5 + ante));
                    let sb_call = (1.0 - c3) * (hu(sb, t) * (2.0 * s + 1.0 + ante) - s)
                        + c3 * (e3[1] * 3.0 * s - s);
                    add(2, sb, pb, sb_call, -(0.5 + ante));
                    // BB facing each case.
                    let fold = -(1.0 + ante);
                    add(
                        3,
                        b,
                        (1.0 - pb) * ps,
                        hu(b, sb) * (2.0 * s + ante) - s,
                        fold,
                    );
                    add(
                        4,
                        b,
                        pb * (1.0 - cs),
                        hu(b, t) * (2.0 * s + 0.5 + ante) - s,
                        fold,
                    );
                    add(5, b, pb * cs, e3[2] * 3.0 * s - s, fold);
                }
            }
        }
        assert_evs(&v, &sums, 1e-12);
        // Chip EV is constant-sum: the seats' values add to 0.
        assert!(v.value.iter().sum::<f64>().abs() < 1e-12);
        let _ = positions(&game, &names);
    }

    /// The evaluation as the game tree reads, one ordered triple of classes at a time:
    /// every decision's act, fold and reach sums, the BB's idle value and each seat's
    /// value, walked deal by deal (the slow form of [`Game::values`]).
    fn values_by_deal(g: &Game, x: &Strategy) -> Values {
        let p = &g.payoffs;
        let n = p.n;
        let mut v = Values {
            act: std::array::from_fn(|_| vec![0.0; n]),
            fold: std::array::from_fn(|_| vec![0.0; n]),
            reach: std::array::from_fn(|_| vec![0.0; n]),
            bb_idle: 0.0,
            value: [0.0; 3],
        };
        let mut add = |d: usize, k: usize, r: f64, act: f64, fold: f64| {
            v.act[d][k] += r * act;
            v.fold[d][k] += r * fold;
            v.reach[d][k] += r;
        };
        let mut bb_idle = 0.0;
        let mut value = [0.0; 3];
        for t in 0..n {
            for s in 0..n {
                for b in 0..n {
                    let at = (t * n + s) * n + b;
                    let w = p.weight[at];
                    if w == 0.0 {
                        continue;
                    }
                    let three: [f64; 3] = std::array::from_fn(|i| p.weighted_three[i][at] / w);
                    let (sbb, tb, ts) =
                        (p.sb_bb[s * n + b], p.btn_bb[t * n + b], p.btn_sb[t * n + s]);
                    let (push, sb_push, sb_call) = (x[0][t], x[1][s], x[2][s]);
                    let v_fp = lerp(&p.fpf, &sbb, x[3][b]);
                    let v_f = lerp(&p.ff, &v_fp, sb_push);
                    let v_pf = lerp(&p.pff, &tb, x[4][b]);
                    let v_pc = lerp(&ts, &three, x[5][b]);
                    let v_p = lerp(&v_pf, &v_pc, sb_call);
                    let (folded, pushed) = (w * (1.0 - push), w * push);
                    add(0, t, w, v_p[BTN], v_f[BTN]);
                    add(1, s, folded, v_fp[SB], p.ff[SB]);
                    add(2, s, pushed, v_pc[SB], v_pf[SB]);
                    add(3, b, folded * sb_push, sbb[BB], p.fpf[BB]);
                    add(4, b, pushed * (1.0 - sb_call), tb[BB], p.pff[BB]);
                    add(5, b, pushed * sb_call, three[BB], ts[BB]);
                    bb_idle += folded * (1.0 - sb_push) * p.ff[BB];
                    for (o, v) in value.iter_mut().zip(lerp(&v_f, &v_p, push)) {
                        *o += w * v;
                    }
                }
            }
        }
        v.bb_idle = bb_idle;
        v.value = value;
        v
    }

    /// The evaluation's sums, gathered row by row, equal the deal-by-deal walk of the
    /// game tree: every decision's act, fold and reach, the BB's idle value and the seats'
    /// values, in chip EV and ICM, at equal stacks and with side pots, for pure, mixed
    /// and never-reached strategies.
    #[test]
    fn values_equal_a_walk_of_the_tree_deal_by_deal() {
        let game = showdowns(&["AA", "KK", "QQ", "AKs", "72o"]);
        let n = game.len();
        let spots = varied_spots();
        let strategies: [Strategy; 3] = [
            std::array::from_fn(|d| (0..n).map(|k| ((d * 7 + k * 3) % 5) as f64 / 4.0).collect()),
            std::array::from_fn(|d| (0..n).map(|k| ((d + 2 * k) % 3) as f64 / 2.0).collect()),
            std::array::from_fn(|d| vec![if d == 0 { 1.0 } else { 0.0 }; n]),
        ];
        for spot in spots {
            let g = Game::new(&game, spot.clone()).unwrap();
            for x in &strategies {
                let (fast, slow) = (g.values(x), values_by_deal(&g, x));
                let close = |a: f64, b: f64| (a - b).abs() <= 1e-13 * (1.0 + b.abs());
                for d in 0..DECISIONS {
                    for k in 0..n {
                        for (what, a, b) in [
                            ("act", fast.act[d][k], slow.act[d][k]),
                            ("fold", fast.fold[d][k], slow.fold[d][k]),
                            ("reach", fast.reach[d][k], slow.reach[d][k]),
                        ] {
                            assert!(
                                close(a, b),
                                "{spot:?} decision {d} class {k} {what}: {a} vs {b}"
                            );
                        }
                    }
                }
                assert!(close(fast.bb_idle, slow.bb_idle), "{spot:?}");
                for seat in 0..3 {
                    assert!(
                        close(fast.value[seat], slow.value[seat]),
                        "{spot:?} seat {seat}"
                    );
                }
            }
        }
    }

    /// Side pots and busting order by hand: BTN 10, SB 15, BB 20 all in.
    #[test]
    fn side_pots_and_busts_pay_as_written() {
        let chips = Spot {
            stacks: [10.0, 15.0, 20.0],
            ante: 0.0,
            payouts: None,
        };
        let all = chips.all_in(&[BTN, SB, BB]);
        assert_eq!(all, [10.0, 15.0, 15.0]);
        let at = |spot: &Spot, places: [u8; 3]| spot.payoff(all, places.map(Some)).unwrap();
        // The BTN's best hand takes the main pot (30), the SB's the side pot (10).
        assert_eq!(at(&chips, [0, 1, 2]), [20.0, -5.0, -15.0]);
        // The BB's takes both.
        assert_eq!(at(&chips, [1, 2, 0]), [-10.0, -15.0, 25.0]);
        // The BTN and SB split the main pot, and the SB takes the side pot.
        assert_eq!(at(&chips, [0, 0, 1]), [5.0, 10.0, -15.0]);
        // Heads-up the smaller stack is called; the third seat's post is dead.
        assert_eq!(chips.all_in(&[SB, BB]), [0.0, 15.0, 15.0]);
        assert_eq!(chips.all_in(&[BTN]), [10.0, 0.5, 1.0]);
        // ICM: the BB busts both; the SB started larger, so it finishes second.
        let icm = Spot {
            payouts: Some(vec![0.5, 0.3, 0.2]),
            ..chips.clone()
        };
        let e = at(&icm, [1, 2, 0]);
        assert_eq!(e, [0.2, 0.3, 0.5]);
        let e = at(&icm, [2, 1, 0]);
        assert_eq!(e, [0.2, 0.3, 0.5]);
        // Equal starting stacks that bust together share the places.
        let equal = Spot::equal(10.0, 0.0, Some(vec![0.5, 0.3, 0.2]));
        let e = equal.payoff([10.0; 3], [1, 2, 0].map(Some)).unwrap();
        assert_eq!(e, [0.25, 0.25, 0.5]);
    }

    /// At unequal stacks (BTN 10, SB 15, BB 20: all three in make a main pot of 30 and a
    /// side pot of 10 between the blinds) every decision's EVs against a count over every
    /// deal: each deal's order of the three hands from its own exact enumeration, the pots
    /// written out by hand.
    #[test]
    #[cfg_attr(
        debug_assertions,
        ignore = "thousands of exact deals: run with --release"
    )]
    fn side_pots_agree_with_a_count_over_every_deal() {
        use crate::games::holdem::equity::equity;
        use cardtables::{Card, Range};
        let names = ["AA", "KK", "AKs"];
        let game = showdowns(&names);
        let n = game.len();
        let a = 0.25;
        let spot = Spot {
            stacks: [10.0, 15.0, 20.0],
            ante: a,
            payouts: None,
        };
        let g = Game::new(&game, spot).unwrap();
        let x: Strategy = std::array::from_fn(|d| {
            (0..n)
                .map(|k| ((d * 5 + k * 3) % 7) as f64 / 6.0 * 0.9 + 0.05)
                .collect()
        });
        let v = g.values(&x);
        let combos = class_combos(&game);
        let hu = |a: usize, b: usize| {
            let (deals, equity) = game.heads_up(a, b);
            equity / deals
        };
        // One deal's chance of each order of the three hands, seats BTN, SB, BB.
        let orders = |hands: [[Card; 2]; 3]| -> Vec<([u8; 3], f64)> {
            let q = threeway::exact_question(
                hands
                    .iter()
                    .map(|h| Range::parse(&format!("{}{}", h[0], h[1])).unwrap())
                    .collect(),
            );
            let answer = equity(&q).unwrap();
            assert!(answer.exact);
            answer
                .outcomes
                .iter()
                .enumerate()
                .filter(|(_, &p)| p > 0.0)
                .map(|(code, &p)| {
                    (
                        threeway::ORDERS[threeway::order_of_outcome(code).unwrap()],
                        p,
                    )
                })
                .collect()
        };
        // Net chips of each seat all in three ways: the main pot of 30 to the best hand of
        // all, the side pot of 10 to the better blind.
        let three = |places: [u8; 3]| -> [f64; 3] {
            let best = |seats: &[usize]| -> Vec<usize> {
                let top = seats.iter().map(|&s| places[s]).min().unwrap();
                seats
                    .iter()
                    .copied()
                    .filter(|&s| places[s] == top)
                    .collect()
            };
            let main = best(&[0, 1, 2]);
            let side = best(&[1, 2]);
            std::array::from_fn(|s| {
                let mut won = 0.0;
                if main.contains(&s) {
                    won += 30.0 / main.len() as f64;
                }
                if side.contains(&s) {
                    won += 10.0 / side.len() as f64;
                }
                won - [10.0, 15.0, 15.0][s]
            })
        };
        let mut sums = vec![[0.0f64; 3]; DECISIONS * n];
        let mut add = |d: usize, k: usize, w: f64, act: f64, fold: f64| {
            let e = &mut sums[d * n + k];
            e[0] += w * act;
            e[1] += w * fold;
            e[2] += w;
        };
        for &(t, ht) in &combos {
            for &(sb, hs) in &combos {
                for &(b, hb) in &combos {
                    let cards = [ht[0], ht[1], hs[0], hs[1], hb[0], hb[1]];
                    if (1..6).any(|i| cards[..i].contains(&cards[i])) {
                        continue;
                    }
                    let e3 = orders([ht, hs, hb]).iter().fold([0.0; 3], |acc, (o, p)| {
                        let net = three(*o);
                        std::array::from_fn(|s| acc[s] + p * net[s])
                    });
                    let (pb, ps, cs, c1, c2, c3) =
                        (x[0][t], x[1][sb], x[2][sb], x[3][b], x[4][b], x[5][b]);
                    // Heads-up all in: the smaller stack is called, the third seat's post
                    // is dead money.
                    let u_tb = hu(t, b) * (20.0 + 0.5 + a) - 10.0;
                    let u_ts = hu(t, sb) * (20.0 + 1.0 + a) - 10.0;
                    let push = (1.0 - cs) * ((1.0 - c2) * (1.5 + 2.0 * a) + c2 * u_tb)
                        + cs * ((1.0 - c3) * u_ts + c3 * e3[0]);
                    add(0, t, 1.0, push, -a);
                    let sb_push =
                        (1.0 - c1) * (1.0 + 2.0 * a) + c1 * (hu(sb, b) * (30.0 + a) - 15.0);
                    add(1, sb, 1.0 - pb, sb_push, -(0.5 + a));
                    let sb_call = (1.0 - c3) * (hu(sb, t) * (20.0 + 1.0 + a) - 10.0) + c3 * e3[1];
                    add(2, sb, pb, sb_call, -(0.5 + a));
                    let fold = -(1.0 + a);
                    add(3, b, (1.0 - pb) * ps, hu(b, sb) * (30.0 + a) - 15.0, fold);
                    add(
                        4,
                        b,
                        pb * (1.0 - cs),
                        hu(b, t) * (20.0 + 0.5 + a) - 10.0,
                        fold,
                    );
                    add(5, b, pb * cs, e3[2], fold);
                }
            }
        }
        assert_evs(&v, &sums, 1e-9);
        assert!(v.value.iter().sum::<f64>().abs() < 1e-12);
        // Without the order counts, unequal stacks are refused.
        let mut blind = game.clone();
        blind.orders = None;
        assert!(matches!(
            Game::new(&blind, g.spot.clone()),
            Err(GameError::NoOrders(_))
        ));
    }

    /// Every number of `sums` and `row`, as bits (so -0 is not 0).
    fn sums_bits(sums: &Sums, row: &RowSums) -> Vec<u64> {
        let RowSums {
            weight,
            fold_btn,
            fold_push_sb,
            push_fold_btn,
            push_fold_sb,
            fold_both,
            three_btn,
            three_sb,
        } = *row;
        (sums.act.iter().chain(&sums.fold).chain(&sums.reach))
            .flatten()
            .chain(&[sums.bb_idle])
            .chain(&[
                weight,
                fold_btn,
                fold_push_sb,
                push_fold_btn,
                push_fold_sb,
                fold_both,
                three_btn,
                three_sb,
            ])
            .map(|v| v.to_bits())
            .collect()
    }

    /// Spots of every kind: equal stacks in chip EV and in ICM, unequal stacks (side
    /// pots) in chip EV and in ICM paying two places, with and without antes.
    fn varied_spots() -> [Spot; 4] {
        [
            Spot::equal(8.0, 0.0, None),
            Spot::equal(12.0, 0.125, Some(vec![0.5, 0.3, 0.2])),
            Spot {
                stacks: [10.0, 15.0, 20.0],
                ante: 0.0,
                payouts: None,
            },
            Spot {
                stacks: [20.0, 10.0, 15.0],
                ante: 0.1,
                payouts: Some(vec![0.65, 0.35]),
            },
        ]
    }

    /// A strategy with every frequency strictly mixed and most of them different.
    fn mixed_strategy(n: usize) -> Strategy {
        std::array::from_fn(|d| {
            (0..n)
                .map(|k| ((d * 5 + k * 7) % 6) as f64 / 5.0 * 0.8 + 0.1)
                .collect()
        })
    }

    /// A BB Jacobian column's deal by deal sums ([`Game::add_deal`]) are the row
    /// path's over a row of one class, bit for bit, at
    /// every deal, with rows long enough to use the lanes and their tail; chip EV and ICM
    /// at unequal stacks.
    #[test]
    #[cfg_attr(debug_assertions, ignore = "35 exact triples: run with --release")]
    fn a_deal_adds_up_as_a_row_of_one_class() {
        let game = showdowns(&["AA", "KK", "AKs", "T9s", "72o"]);
        let n = game.len();
        for payouts in [None, Some(vec![0.5, 0.3, 0.2])] {
            let spot = Spot {
                stacks: [10.0, 15.0, 20.0],
                ante: 0.1,
                payouts,
            };
            let g = Game::new(&game, spot).unwrap();
            let x = mixed_strategy(n);
            let planes = g.planes(&x);
            let k = [0.3, 0.55, 0.2, -0.7];
            let mut empty = 0;
            for (t, s, b) in
                (0..n).flat_map(|t| (0..n).flat_map(move |s| (0..n).map(move |b| (t, s, b))))
            {
                let (mut one, mut row) = (Sums::new(n), Sums::new(n));
                let (mut r2_one, mut r2_row) = ([0.25], [0.25]);
                let a = g.add_deal(&planes, t, s, b, k, &mut r2_one, &mut one);
                let z = g.add_row_lanes::<EVERY_SEAT>(
                    &planes,
                    t,
                    s,
                    &(b..b + 1),
                    k,
                    &mut r2_row,
                    &mut row,
                );
                assert_eq!(sums_bits(&one, &a), sums_bits(&row, &z), "deal {t} {s} {b}");
                assert_eq!(r2_one[0].to_bits(), r2_row[0].to_bits());
                empty += usize::from(a.weight == 0.0);
            }
            // Both kinds of deal were compared: some triples cannot be dealt (AA AA AA),
            // where a product is -0 and the lanes' sums make it +0.
            assert!(empty > 0 && empty < n * n * n, "{empty}");
        }
    }

    /// A CFR+ update's evaluation of one seat gives that seat's sums bit for bit as the
    /// whole evaluation does, and no other decision's: every seat, strategies mixed and
    /// pure (zeros, ones), rows long enough for the lanes and their tail, chip EV and
    /// ICM at equal and unequal stacks.
    #[test]
    #[cfg_attr(debug_assertions, ignore = "35 exact triples: run with --release")]
    fn a_seats_values_are_the_whole_evaluations_bit_for_bit() {
        let game = showdowns(&["AA", "KK", "AKs", "T9s", "72o"]);
        let n = game.len();
        let pure: Strategy =
            std::array::from_fn(|d| (0..n).map(|k| ((d + k) % 2) as f64).collect());
        let spots = varied_spots();
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        let mut compared = 0;
        for spot in spots {
            let g = Game::new(&game, spot).unwrap();
            for x in [mixed_strategy(n), pure.clone()] {
                let whole = g.values(&x);
                for seat in 0..SEATS {
                    let one = g.values_of_seat(&x, seat);
                    for d in 0..DECISIONS {
                        let lists = [
                            (&one.act[d], &whole.act[d]),
                            (&one.fold[d], &whole.fold[d]),
                            (&one.reach[d], &whole.reach[d]),
                        ];
                        for (mine, all) in lists {
                            if Decision::ALL[d].seat() == seat {
                                assert_eq!(bits(mine), bits(all), "seat {seat} decision {d}");
                                compared += mine.len();
                            } else {
                                assert!(mine.is_empty(), "seat {seat} decision {d}");
                            }
                        }
                    }
                    if seat == BB {
                        assert_eq!(one.bb_idle.to_bits(), whole.bb_idle.to_bits());
                    }
                }
            }
        }
        assert_eq!(compared, 4 * 2 * DECISIONS * 3 * n);
    }

    /// The planes patched where one frequency enters are the planes built afresh, bit
    /// for bit, for every decision and class, and patching back restores them.
    #[test]
    fn patched_planes_are_the_planes_built_again() {
        let game = showdowns(&["AA", "KK", "AKs"]);
        let n = game.len();
        let g = Game::new(&game, Spot::equal(9.0, 0.1, Some(vec![0.5, 0.3, 0.2]))).unwrap();
        let x = mixed_strategy(n);
        let bits = |p: &Planes| -> Vec<u64> {
            [
                &p.fold_btn,
                &p.fold_push_sb,
                &p.push_fold_btn,
                &p.push_fold_sb,
                &p.call_both,
                &p.fold_both,
            ]
            .into_iter()
            .flatten()
            .map(|v| v.to_bits())
            .collect()
        };
        let base = bits(&g.planes(&x));
        let mut changed = 0;
        for d in 0..DECISIONS {
            for k in 0..n {
                for q in [0.0, 1.0, 0.37] {
                    let mut y = x.clone();
                    y[d][k] = q;
                    let mut planes = g.planes(&x);
                    g.patch_planes(&mut planes, &y, d, k);
                    let want = bits(&g.planes(&y));
                    assert_eq!(bits(&planes), want, "decision {d} class {k} at {q}");
                    changed += usize::from(d >= 3 && want != base);
                    g.patch_planes(&mut planes, &x, d, k);
                    assert_eq!(bits(&planes), base);
                }
            }
        }
        // The BB's three decisions move the planes at every class and frequency (the
        // BTN's push and the SB's call are not in them).
        assert_eq!(changed, 3 * n * 3);
    }

    /// The polish's Jacobian, built from the deals of one class at a time, equals the
    /// change in the whole game's margins when that one frequency moves from 0 to 1, and
    /// the margins are affine in it (the midpoint gives the mean), chip EV and ICM.
    #[test]
    fn the_jacobian_is_the_whole_games_change() {
        let names = ["AA", "KK", "AKs"];
        let game = showdowns(&names);
        let n = game.len();
        for payouts in [None, Some(vec![0.5, 0.3, 0.2])] {
            let g = Game::new(&game, Spot::equal(9.0, 0.1, payouts)).unwrap();
            let x = mixed_strategy(n);
            let which: Vec<(usize, usize)> = (0..DECISIONS)
                .flat_map(|d| (0..n).map(move |k| (d, k)))
                .collect();
            let jac = g.jacobian(&x, &which);
            let mut nonzero = 0;
            for (col, &(d, k)) in which.iter().enumerate() {
                let at = |q: f64| {
                    let mut y = x.clone();
                    y[d][k] = q;
                    margins(&g.values(&y), &which)
                };
                let (zero, half, one) = (at(0.0), at(0.5), at(1.0));
                for row in 0..which.len() {
                    let whole = one[row] - zero[row];
                    assert!(
                        (jac[row][col] - whole).abs() <= 1e-12,
                        "row {row} column {col}: {} vs {whole}",
                        jac[row][col]
                    );
                    assert!((half[row] - 0.5 * (zero[row] + one[row])).abs() <= 1e-12);
                    // A seat's own frequencies never move its own margins.
                    if Decision::ALL[which[row].0].seat() == Decision::ALL[d].seat() {
                        assert_eq!(jac[row][col], 0.0);
                    }
                    nonzero += usize::from(jac[row][col].abs() > 1e-9);
                }
            }
            assert!(nonzero > which.len(), "{nonzero}");
        }
    }

    /// The quick classes' spots solve to a certified equilibrium, chip EV and ICM, and
    /// ICM values add up to the prize pool.
    #[test]
    #[cfg_attr(debug_assertions, ignore = "120 exact triples: run with --release")]
    fn quick_spots_are_certified_equilibria() {
        let game = showdowns(&["AA", "KK", "QQ", "AKs", "AKo", "JTs", "T9s", "72o"]);
        for payouts in [None, Some(vec![0.5, 0.3, 0.2])] {
            for stack in [2.0, 5.0, 10.0, 20.0] {
                let spot = Spot::equal(stack, 0.0, payouts.clone());
                let target = 1e-4 * spot.bb_value();
                let g = Game::new(&game, spot).unwrap();
                let sol = g.solve(&SolveOptions::new(target));
                assert!(
                    sol.exploitability <= target,
                    "{stack} bb {payouts:?}: {:e}",
                    sol.exploitability
                );
                // Recomputed from scratch, the certificate is the same.
                let again = g.values(&sol.strategy).exploitability(&sol.strategy);
                assert_eq!(again, sol.exploitability);
                let total: f64 = sol.values.value.iter().sum();
                let pool = payouts.as_ref().map_or(0.0, |p| p.iter().sum());
                assert!((total - pool).abs() < 1e-12, "{total} vs {pool}");
                // Every frequency a probability; AA always pushes and calls.
                let aa = positions(&game, &["AA"])[0];
                for d in Decision::ALL {
                    assert!(sol.strategy[d as usize]
                        .iter()
                        .all(|f| (0.0..=1.0).contains(f)));
                    assert_eq!(sol.strategy[d as usize][aa], 1.0, "{}", d.name());
                }
            }
        }
    }

    /// A solved spot read back from a stash is the solve's answer bit for bit; a strategy
    /// of the wrong shape, out of range, or short of the target is refused.
    #[test]
    fn a_stashed_solution_is_certified_again_as_the_solve_gave_it() {
        let game = showdowns(&["AA", "KK", "72o"]);
        for payouts in [None, Some(vec![0.5, 0.3, 0.2])] {
            let spot = Spot::equal(4.0, 0.0, payouts);
            let target = 1e-4 * spot.bb_value();
            let g = Game::new(&game, spot).unwrap();
            let sol = g.solve(&SolveOptions::new(target));
            let stashed = Stashed::of(&sol);
            let bytes = cardtables::format::encode(&stashed).unwrap();
            let back: Stashed = cardtables::format::decode(&bytes).unwrap();
            let again = g.recertify(back, target).expect("the solve's strategy");
            assert_eq!(again.strategy, sol.strategy);
            assert_eq!(again.values, sol.values);
            assert_eq!(again.gains, sol.gains);
            assert_eq!(again.exploitability, sol.exploitability);
            assert_eq!(
                (again.iterations, again.newton_steps),
                (sol.iterations, sol.newton_steps)
            );
            let mut short = stashed.clone();
            short.strategy[2].pop();
            assert!(g.recertify(short, target).is_none());
            let mut out_of_range = stashed.clone();
            out_of_range.strategy[0][1] = 1.5;
            assert!(g.recertify(out_of_range, target).is_none());
            let mut not_a_number = stashed.clone();
            not_a_number.strategy[4][0] = f64::NAN;
            assert!(g.recertify(not_a_number, target).is_none());
            // Everyone folds: far from an equilibrium.
            let mut folds = stashed.clone();
            folds.strategy.iter_mut().for_each(|x| x.fill(0.0));
            assert!(g.recertify(folds, target).is_none());
        }
    }

    /// The runtime table answers every decision of every spot with the solution's
    /// frequency, EVs and chance, found by its stacks and payoff.
    #[test]
    fn the_runtime_table_answers_the_solution() {
        let game = showdowns(&["AA", "KK", "72o"]);
        let payouts = vec![0.6, 0.4];
        let solved: Vec<SolvedSpot> = [(3.0, None), (6.0, None), (3.0, Some(payouts.clone()))]
            .into_iter()
            .map(|(stack, payouts)| {
                let spot = Spot::equal(stack, 0.0, payouts);
                let target = 1e-6 * spot.bb_value();
                let solution = Game::new(&game, spot.clone())
                    .unwrap()
                    .solve(&SolveOptions::new(target));
                SolvedSpot { spot, solution }
            })
            .collect();
        let payload = super::super::tables::pushfold3_payload(
            "test",
            0.0,
            &game.classes,
            Some(&payouts),
            &solved,
        );
        let table = cardtables::PushFold3::from_bytes(
            cardtables::PushFold3::to_bytes(1, &payload).unwrap(),
        )
        .unwrap();
        // Between grid stacks: the one at or below.
        assert_eq!(table.equal_spot(5.5, None), Ok(0));
        for (i, s) in solved.iter().enumerate() {
            let asked = s.spot.payouts.as_deref();
            assert_eq!(table.equal_spot(s.spot.stacks[0], asked), Ok(i));
            assert_eq!(table.spot(s.spot.stacks, asked), Ok(i));
            assert_eq!(table.value(i), Some(s.solution.values.value));
            assert_eq!(
                table.exploitability(i),
                Some((s.solution.exploitability, s.spot.bb_value()))
            );
            for d in Decision::ALL {
                for (k, &c) in game.classes.iter().enumerate() {
                    let play = table.play(i, d, usize::from(c)).unwrap();
                    let (act, fold) = s.solution.values.ev(d, k);
                    assert_eq!(play.frequency, s.solution.strategy[d as usize][k]);
                    assert_eq!(play.p_faced, s.solution.faced(d, k));
                    assert_eq!(play.ev, act.is_finite().then_some(act));
                    assert_eq!(play.ev_fold, fold.is_finite().then_some(fold));
                }
            }
        }
    }

    /// A strategy that is not an equilibrium is certified as exploitable: pushing every
    /// hand from the button while the blinds call only AA is beaten.
    #[test]
    fn a_bad_strategy_is_exploitable() {
        let game = showdowns(&["AA", "KK", "72o"]);
        let g = Game::new(&game, Spot::equal(10.0, 0.0, None)).unwrap();
        let aa = positions(&game, &["AA"])[0];
        let x: Strategy = std::array::from_fn(|d| {
            (0..3)
                .map(|k| if d == 0 || k == aa { 1.0 } else { 0.0 })
                .collect()
        });
        let v = g.values(&x);
        let gains = v.gains(&x);
        // KK gains by calling a button that pushes 72o.
        assert!(gains[BB] > 0.1, "{gains:?}");
        assert!(v.exploitability(&x) > 0.1);
    }

    /// Counts that no showdowns give are refused, not turned into chances.
    #[test]
    fn impossible_counts_are_refused() {
        let good = TripleCounts {
            deals: 1,
            wins: [1_000_000, 300_000, 70_000],
            ties: [754, 754, 0],
            sixtieths: [
                60 * 1_000_000 + 30 * 754,
                60 * 300_000 + 30 * 754,
                60 * 70_000,
            ],
            orders: None,
        };
        assert!(good.top_sets(1_370_754).is_some());
        let mut bad = TripleCounts { ..good };
        bad.sixtieths[0] += 1;
        assert!(bad.top_sets(1_370_754).is_none());
        let short = TripleCounts {
            wins: [1, 1, 1],
            ..bad
        };
        assert!(short.top_sets(1_370_754).is_none());
        assert!(!PairCounts {
            showdowns: PAIR_BOARDS,
            wins: [PAIR_BOARDS, 1],
            ties: 0
        }
        .is_consistent());
    }

    /// Stakes that cannot be played are refused.
    #[test]
    fn bad_spots_are_refused() {
        let game = showdowns(&["AA", "KK", "72o"]);
        for (stack, ante) in [(0.9, 0.0), (1.2, 0.5), (f64::NAN, 0.0), (5.0, -1.0)] {
            assert!(Game::new(&game, Spot::equal(stack, ante, None)).is_err());
        }
        assert!(Game::new(&game, Spot::equal(5.0, 0.0, Some(vec![0.3, 0.5]))).is_err());
    }

    /// The Gauss-Newton step, normal equations formed and reduced in parallel, equals the
    /// same arithmetic done in one thread, one entry at a time, bit for bit; on a regular
    /// Jacobian it is the Newton step (J Δ = −f).
    #[test]
    fn the_least_squares_step_is_the_serial_one_and_solves_a_regular_system() {
        let m = 70;
        // A diagonally dominant Jacobian with entries of mixed signs and magnitudes.
        let jac: Vec<Vec<f64>> = (0..m)
            .map(|i| {
                (0..m)
                    .map(|j| {
                        let v = (((i * 37 + j * 11) % 23) as f64 - 11.0) / 7.0;
                        if i == j {
                            40.0 + v
                        } else {
                            v / (1.0 + (i as f64 - j as f64).abs())
                        }
                    })
                    .collect()
            })
            .collect();
        let f: Vec<f64> = (0..m)
            .map(|i| ((i * 13 % 17) as f64 - 8.0) * 1e-3)
            .collect();
        // The serial oracle: the same sums in the same order.
        let mut a = vec![vec![0.0; m]; m];
        let mut b = vec![0.0; m];
        for (row, fi) in jac.iter().zip(&f) {
            for i in 0..m {
                b[i] -= row[i] * fi;
                for j in 0..m {
                    a[i][j] += row[i] * row[j];
                }
            }
        }
        let damping = 1e-12 * (0..m).map(|i| a[i][i]).sum::<f64>() / m as f64;
        for (i, row) in a.iter_mut().enumerate() {
            row[i] += damping;
        }
        for col in 0..m {
            let p = (col..m)
                .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
                .unwrap();
            a.swap(col, p);
            b.swap(col, p);
            for row in col + 1..m {
                let factor = a[row][col] / a[col][col];
                if factor != 0.0 {
                    for c in col..m {
                        a[row][c] -= factor * a[col][c];
                    }
                    b[row] -= factor * b[col];
                }
            }
        }
        let mut want = vec![0.0; m];
        for row in (0..m).rev() {
            let s: f64 = (row + 1..m).map(|c| a[row][c] * want[c]).sum();
            want[row] = (b[row] - s) / a[row][row];
        }
        let got = least_squares_step(&jac, &f).expect("a regular system");
        assert_eq!(got, want);
        for (row, fi) in jac.iter().zip(&f) {
            let r: f64 = row.iter().zip(&got).map(|(j, d)| j * d).sum::<f64>() + fi;
            assert!(r.abs() < 1e-12, "residual {r}");
        }
        // A zero Jacobian pins nothing: no step.
        assert!(least_squares_step(&vec![vec![0.0; 3]; 3], &[1.0, 2.0, 3.0]).is_none());
    }
}
