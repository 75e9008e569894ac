//! Range-against-range equity for 2 to 6 players, with or without a board: exact where
//! the showdowns fit [`EXACT_BUDGET`], else seeded Monte Carlo to a stated standard error.
//!
//! The convention of the standard calculators: every combination of holdings that share
//! no card (with each other, the board or the dead cards) weighs the product of their
//! range weights, every runout of the board weighs the same, and a pot split k ways
//! gives each tied player 1/k. Per player: equity (wins plus shares of splits), the
//! share of showdowns won outright and the share tied.

use cardtables::{Card, CardSet, Range};

use super::eval::{tables, Tables};

mod board;
mod preflop;
mod sample;

/// Most players a question may hold.
pub const MAX_PLAYERS: usize = 6;
/// Exact enumeration when the showdowns to evaluate are at most this many; Monte Carlo
/// beyond. With a board, the product of the range sizes times the runouts; without, the
/// groups of combinations under suit renaming times the showdowns a group evaluates (at
/// most the boards, and at most [`preflop::CASES`], its boards being counted by ranks).
pub const EXACT_BUDGET: u64 = 500_000_000;
/// Equity shares are counted in 60ths, so a pot split 2 to 6 ways is an integer share.
const SHARE: u64 = 60;

/// A range-against-range question.
pub struct Question {
    pub ranges: Vec<Range>,
    pub board: Vec<Card>,
    pub dead: Vec<Card>,
    /// Monte Carlo stops once every player's equity has at most this standard error.
    pub std_error: f64,
    /// Monte Carlo stops after this many trials whatever the standard error.
    pub max_trials: u64,
    /// Monte Carlo stops once this many whole deals have been drawn, those drawn again
    /// for a shared card included ([`MAX_DRAWS`] for the command line).
    pub max_draws: u64,
    pub seed: u64,
    /// Exact enumeration when the showdowns to count are at most this many
    /// ([`EXACT_BUDGET`] for the command line).
    pub exact_budget: u64,
}

/// Per player: equity, outright wins and ties; and how it was computed.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    pub equity: Vec<f64>,
    pub win: Vec<f64>,
    pub tie: Vec<f64>,
    pub exact: bool,
    /// 0 when exact; else the largest standard error of a player's equity.
    pub std_error: f64,
    /// Showdowns counted (exact) or trials played (Monte Carlo).
    pub showdowns: u64,
    /// Monte Carlo only: whole deals drawn, those drawn again for a shared card included
    /// (the trials otherwise), and whether the sampling stopped at its draw limit before
    /// reaching its standard error.
    pub draws: u64,
    pub stopped_at_draw_limit: bool,
    /// Three players counted exactly before the flop only (else empty): the share of the
    /// showdowns with each outcome code (see `preflop::outcome`): who holds the top hand,
    /// and when one player alone does, how the other two compare.
    pub outcomes: Vec<f64>,
}

/// Most whole deals a Monte Carlo question draws, accepted or drawn again for a shared
/// card: the bound on its time when weights make valid deals rare.
pub const MAX_DRAWS: u64 = 1 << 30;

/// Why a question cannot be answered.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum EquityError {
    #[error("{0} players: give 2 to {MAX_PLAYERS} ranges")]
    Players(usize),
    #[error("a board has 0, 3, 4 or 5 cards, not {0}")]
    Board(usize),
    #[error("{0} is both on the board and dead")]
    Overlap(Card),
    #[error("player {0}'s range has no holding left beside the board and the dead cards")]
    NoHolding(usize),
    #[error("no deal gives every player a holding from their range without sharing cards")]
    NoDeal,
    /// Fewer cards left than the players' holdings need.
    #[error("only {left} cards are left beside the board and the dead cards: {players} players' holdings need {}", 2 * players)]
    TooFewForHoldings { left: usize, players: usize },
    /// Fewer cards left, once every player holds two, than the runout needs.
    #[error("only {left} cards are left for a runout of {runout} once every player holds two")]
    TooFewForRunout { left: usize, runout: usize },
    /// Deals exist, but the weights make them so rare that none came up in the draws
    /// allowed.
    #[error("deals exist, but under these weights fewer than 2 of {0} deals drawn gave every player a holding without a shared card: give the clashing holdings weights closer to the others'")]
    RareDeals(u64),
    /// Every deal's product of weights is too small for a double.
    #[error("the range weights are too far apart to weigh the deals against each other (every product of the players' weights rounds to 0): give weights closer together")]
    Underflow,
}

/// A player's holdings that avoid the board and dead cards, with their weights.
type Holdings = Vec<([Card; 2], f64)>;

/// Sums over showdowns, per player: weighted equity in 60ths, outright wins, ties.
#[derive(Clone, Default)]
struct Sums {
    weight: f64,
    showdowns: u64,
    equity: Vec<f64>,
    win: Vec<f64>,
    tie: Vec<f64>,
    /// Weighted showdowns by outcome code (three players counted before the flop).
    outcomes: Vec<f64>,
}

impl Sums {
    fn new(players: usize) -> Sums {
        Sums {
            equity: vec![0.0; players],
            win: vec![0.0; players],
            tie: vec![0.0; players],
            outcomes: vec![0.0; OUTCOMES],
            ..Sums::default()
        }
    }

    fn add(mut self, other: &Sums) -> Sums {
        self.weight += other.weight;
        self.showdowns += other.showdowns;
        for i in 0..self.equity.len() {
            self.equity[i] += other.equity[i];
            self.win[i] += other.win[i];
            self.tie[i] += other.tie[i];
        }
        for (a, b) in self.outcomes.iter_mut().zip(&other.outcomes) {
            *a += b;
        }
        self
    }
}

/// Per-player integer counts over one combination of holdings and its runouts: equity
/// in 60ths of a pot, outright wins, ties.
#[derive(Default, Debug, PartialEq)]
struct Counts {
    showdowns: u64,
    equity: [u64; MAX_PLAYERS],
    win: [u64; MAX_PLAYERS],
    tie: [u64; MAX_PLAYERS],
    /// Showdowns by outcome code, three players only (`preflop::outcome`).
    outcomes: [u64; OUTCOMES],
}

/// Outcome codes of a three-player showdown: the top holders' bit mask, plus how the other
/// two compare in bits 3–4 when one player alone holds the top hand.
pub const OUTCOMES: usize = 32;

impl Counts {
    /// The counts of showdowns tallied by who won: `by_winners[m]` showdowns were won by
    /// the players in the bit mask `m & (2^players − 1)` (a split when more than one);
    /// with three players the higher bits of `m` tell how the others compare.
    fn from_winners(by_winners: &[u64; 1 << MAX_PLAYERS], players: usize) -> Counts {
        let mut counts = Counts::default();
        if players == 3 {
            counts.outcomes.copy_from_slice(&by_winners[..OUTCOMES]);
        }
        for (code, &showdowns) in by_winners.iter().enumerate() {
            let m = code & ((1 << players) - 1);
            let winners = m.count_ones() as usize;
            for p in (0..MAX_PLAYERS).filter(|p| m >> p & 1 == 1) {
                counts.equity[p] += showdowns * SHARE_OF[winners];
                if winners == 1 {
                    counts.win[p] += showdowns;
                } else {
                    counts.tie[p] += showdowns;
                }
            }
            counts.showdowns += showdowns;
        }
        counts
    }
}

impl Sums {
    /// Adds a combination's counts at its weight, for `members` combinations alike.
    fn add_counts(&mut self, c: &Counts, weight: f64, members: u64) {
        self.weight += weight * c.showdowns as f64;
        self.showdowns += c.showdowns * members;
        for i in 0..self.equity.len() {
            self.equity[i] += weight * c.equity[i] as f64;
            self.win[i] += weight * c.win[i] as f64;
            self.tie[i] += weight * c.tie[i] as f64;
        }
        for (a, &b) in self.outcomes.iter_mut().zip(&c.outcomes) {
            *a += weight * b as f64;
        }
    }
}

/// Each player's share of a pot won by `k` players, in 60ths, by `k`.
const SHARE_OF: [u64; MAX_PLAYERS + 1] = [
    0,
    SHARE,
    SHARE / 2,
    SHARE / 3,
    SHARE / 4,
    SHARE / 5,
    SHARE / 6,
];

/// Some cards as the sum of their evaluator keys and their rank bits per suit (16 bits
/// per suit): two holes and a board join into a hand whose strength is one table read.
#[derive(Clone, Copy)]
struct Hand {
    key: u64,
    suits: u64,
}

impl Hand {
    const EMPTY: Hand = Hand { key: 0, suits: 0 };

    fn of(t: &Tables, cards: &[Card]) -> Hand {
        cards.iter().fold(Hand::EMPTY, |h, &c| h.with(t, c))
    }

    fn with(self, t: &Tables, c: Card) -> Hand {
        self.join(Hand {
            key: t.key(c),
            suits: 1 << (16 * u32::from(c.suit()) + u32::from(c.rank())),
        })
    }

    #[inline]
    fn join(self, other: Hand) -> Hand {
        Hand {
            key: self.key + other.key,
            suits: self.suits | other.suits,
        }
    }

    /// Strength of a hand of seven cards.
    #[inline]
    fn strength(self, t: &Tables) -> u16 {
        // The rank strength first, so its loads start before the (rare) flush test.
        let strength = t.non_flush_key(self.key);
        match Tables::flush_suit(self.key) {
            Some(s) => t.flush((self.suits >> (16 * u32::from(s))) as u16),
            None => strength,
        }
    }
}

/// The cards as a mask of card ids.
fn mask(cards: &[Card]) -> u64 {
    cards.iter().fold(0, |m, c| m | 1 << c.id())
}

/// Answers a question: exact when it fits [`EXACT_BUDGET`], else Monte Carlo.
pub fn equity(q: &Question) -> Result<Answer, EquityError> {
    let players = q.ranges.len();
    if !(2..=MAX_PLAYERS).contains(&players) {
        return Err(EquityError::Players(players));
    }
    if ![0, 3, 4, 5].contains(&q.board.len()) {
        return Err(EquityError::Board(q.board.len()));
    }
    let mut known = CardSet::EMPTY;
    for &c in q.board.iter().chain(&q.dead) {
        if known.contains(c) {
            return Err(EquityError::Overlap(c));
        }
        known = known.with(c);
    }
    // Each seat's weights over its heaviest holding left: scaling a seat's weights by one
    // factor changes no answer, and the products cannot underflow unless the weights
    // within a seat lie hundreds of orders of magnitude apart.
    let holdings: Vec<Holdings> = q
        .ranges
        .iter()
        .map(|r| {
            let left: Holdings = r
                .holdings()
                .filter(|(h, _)| !known.contains(h[0]) && !known.contains(h[1]))
                .collect();
            let top = left.iter().map(|&(_, w)| w).fold(0.0, f64::max);
            left.into_iter().map(|(h, w)| (h, w / top)).collect()
        })
        .collect();
    if let Some(p) = holdings.iter().position(Vec::is_empty) {
        return Err(EquityError::NoHolding(p + 1));
    }
    let deck: Vec<Card> = (0..52u8)
        .filter_map(Card::from_id)
        .filter(|c| !known.contains(*c))
        .collect();
    let to_come = 5 - q.board.len();
    // Too few cards left for every hole and the runout: no deal at all.
    if deck.len() < 2 * players {
        return Err(EquityError::TooFewForHoldings {
            left: deck.len(),
            players,
        });
    }
    if deck.len() < 2 * players + to_come {
        return Err(EquityError::TooFewForRunout {
            left: deck.len() - 2 * players,
            runout: to_come,
        });
    }
    let left = (deck.len() - 2 * players) as u64;
    let runouts = binomial(left, to_come as u64);
    if q.board.is_empty() {
        let dead = mask(&q.dead);
        let per_group = runouts.min(preflop::CASES);
        if let Some(groups) = preflop::groups(&holdings, dead, per_group, q.exact_budget) {
            let total = preflop::enumerate(tables(), &groups, players, &deck);
            let mut answer = exact_answer(&total)?;
            if players == 3 {
                answer.outcomes = total.outcomes.iter().map(|x| x / total.weight).collect();
            }
            return Ok(answer);
        }
    } else {
        let work = holdings
            .iter()
            .try_fold(runouts, |acc, h| acc.checked_mul(h.len() as u64));
        if work.is_some_and(|w| w <= q.exact_budget) {
            return exact_answer(&board::enumerate(tables(), &holdings, &q.board, &deck));
        }
    }
    sample::monte_carlo(q, &holdings, &known)
}

/// The answer from exact sums; no showdown at all means no deal was possible, and deals
/// whose weights all round to 0 cannot be weighed.
fn exact_answer(total: &Sums) -> Result<Answer, EquityError> {
    if total.showdowns == 0 {
        return Err(EquityError::NoDeal);
    }
    if !(total.weight > 0.0 && total.weight.is_finite()) {
        return Err(EquityError::Underflow);
    }
    let a = answer(total, true, 0.0, total.showdowns);
    if a.equity
        .iter()
        .chain(&a.win)
        .chain(&a.tie)
        .any(|x| !x.is_finite())
    {
        return Err(EquityError::Underflow);
    }
    Ok(a)
}

/// `C(n, k)`, 0 when `k > n` (a board that the cards left cannot complete).
fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1))
}

fn answer(s: &Sums, exact: bool, std_error: f64, showdowns: u64) -> Answer {
    Answer {
        draws: showdowns,
        stopped_at_draw_limit: false,
        outcomes: vec![],
        equity: s
            .equity
            .iter()
            .map(|e| e / (SHARE as f64 * s.weight))
            .collect(),
        win: s.win.iter().map(|w| w / s.weight).collect(),
        tie: s.tie.iter().map(|w| w / s.weight).collect(),
        exact,
        std_error,
        showdowns,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    fn question(ranges: &[&str], board: &str, dead: &str) -> Question {
        Question {
            ranges: ranges.iter().map(|r| Range::parse(r).unwrap()).collect(),
            board: parse_cards(board).unwrap(),
            dead: parse_cards(dead).unwrap(),
            std_error: 1e-3,
            max_trials: u64::MAX,
            max_draws: MAX_DRAWS,
            seed: 7,
            exact_budget: EXACT_BUDGET,
        }
    }

    /// The slow direct computation: every pair of holdings and every runout, by nested
    /// loops over card ids, in exact integer counts (weights 1).
    fn oracle(a: &Range, b: &Range, board: &[Card]) -> (u64, u64, u64) {
        let (mut wins, mut ties, mut total) = (0u64, 0u64, 0u64);
        for (x, _) in a.holdings() {
            for (y, _) in b.holdings() {
                let held: Vec<Card> = x.iter().chain(&y).chain(board).copied().collect();
                if (1..held.len()).any(|i| held[..i].contains(&held[i])) {
                    continue;
                }
                let free: Vec<Card> = (0..52u8)
                    .filter_map(Card::from_id)
                    .filter(|c| !held.contains(c))
                    .collect();
                let need = 5 - board.len();
                let mut pick = vec![0usize; need];
                // Every `need`-subset of `free` by an odometer over increasing indices.
                fn subsets(
                    n: usize,
                    k: usize,
                    start: usize,
                    pick: &mut Vec<usize>,
                    depth: usize,
                    f: &mut dyn FnMut(&[usize]),
                ) {
                    if depth == k {
                        f(pick);
                        return;
                    }
                    for i in start..n {
                        pick[depth] = i;
                        subsets(n, k, i + 1, pick, depth + 1, f);
                    }
                }
                subsets(free.len(), need, 0, &mut pick, 0, &mut |p| {
                    let mut full: Vec<Card> = board.to_vec();
                    full.extend(p.iter().map(|&i| free[i]));
                    let seven = |h: [Card; 2]| -> [Card; 7] {
                        [h[0], h[1], full[0], full[1], full[2], full[3], full[4]]
                    };
                    let (sx, sy) = (
                        super::super::eval::evaluate(&seven(x)),
                        super::super::eval::evaluate(&seven(y)),
                    );
                    total += 1;
                    if sx > sy {
                        wins += 1;
                    } else if sx == sy {
                        ties += 1;
                    }
                });
            }
        }
        (wins, ties, total)
    }

    #[test]
    fn exact_range_equity_equals_the_direct_count() {
        for (a, b, board) in [
            ("QQ+, AKs", "KQ, 77, AsTx", "Ks 7d 2c"),
            ("AhKh", "random", "Qh Jh 2c 3d"),
            ("T9s, 88", "A5s-A2s", "Tc 8d 2s 5h Kd"),
        ] {
            let q = question(&[a, b], board, "");
            let got = equity(&q).unwrap();
            assert!(got.exact);
            let (wins, ties, total) = oracle(&q.ranges[0], &q.ranges[1], &q.board);
            assert_eq!(got.showdowns, total, "{a} vs {b} on {board}");
            let n = total as f64;
            assert_eq!(got.win[0], wins as f64 / n, "{a} vs {b}");
            assert_eq!(got.tie[0], ties as f64 / n, "{a} vs {b}");
            // Equity in 60ths of a pot: (60·wins + 30·ties) / (60·n), the exact ratio.
            assert_eq!(got.equity[0], (60 * wins + 30 * ties) as f64 / (60.0 * n));
            assert!((got.equity[0] + got.equity[1] - 1.0).abs() < 1e-15);
        }
    }

    /// The slow direct computation for any number of players, weights and dead cards:
    /// every combination of disjoint holdings by nested loops, every board of the cards
    /// left, each showdown scored by evaluating every player's seven cards.
    fn oracle_n(q: &Question) -> Answer {
        let known: Vec<Card> = q.board.iter().chain(&q.dead).copied().collect();
        let holdings: Vec<Vec<([Card; 2], f64)>> = q
            .ranges
            .iter()
            .map(|r| {
                r.holdings()
                    .filter(|(h, _)| !known.contains(&h[0]) && !known.contains(&h[1]))
                    .collect()
            })
            .collect();
        let n = holdings.len();
        let mut sums = Sums::new(n);
        let mut stack: Vec<([Card; 2], f64)> = Vec::new();
        fn deal(
            holdings: &[Vec<([Card; 2], f64)>],
            stack: &mut Vec<([Card; 2], f64)>,
            q: &Question,
            known: &[Card],
            sums: &mut Sums,
        ) {
            if stack.len() == holdings.len() {
                let mut held: Vec<Card> = known.to_vec();
                held.extend(stack.iter().flat_map(|(h, _)| *h));
                let free: Vec<Card> = (0..52u8)
                    .filter_map(Card::from_id)
                    .filter(|c| !held.contains(c))
                    .collect();
                let weight: f64 = stack.iter().map(|(_, w)| w).product();
                let need = 5 - q.board.len();
                let mut pick: Vec<usize> = (0..need).collect();
                loop {
                    let mut full = q.board.clone();
                    full.extend(pick.iter().map(|&i| free[i]));
                    let strengths: Vec<u16> = stack
                        .iter()
                        .map(|(h, _)| {
                            super::super::eval::evaluate(&[
                                h[0], h[1], full[0], full[1], full[2], full[3], full[4],
                            ])
                        })
                        .collect();
                    let top = *strengths.iter().max().unwrap();
                    let winners = strengths.iter().filter(|&&s| s == top).count();
                    for (i, &s) in strengths.iter().enumerate() {
                        if s == top {
                            sums.equity[i] += weight * (SHARE / winners as u64) as f64;
                            if winners == 1 {
                                sums.win[i] += weight;
                            } else {
                                sums.tie[i] += weight;
                            }
                        }
                    }
                    sums.weight += weight;
                    sums.showdowns += 1;
                    // The next `need`-subset of `free` in lexicographic order.
                    let Some(i) = (0..need).rev().find(|&i| pick[i] < free.len() - need + i) else {
                        return;
                    };
                    pick[i] += 1;
                    for j in i + 1..need {
                        pick[j] = pick[j - 1] + 1;
                    }
                }
            }
            let p = stack.len();
            for &(h, w) in &holdings[p] {
                if stack.iter().any(|(x, _)| x.iter().any(|c| h.contains(c))) {
                    continue;
                }
                stack.push((h, w));
                deal(holdings, stack, q, known, sums);
                stack.pop();
            }
        }
        deal(&holdings, &mut stack, q, &known, &mut sums);
        answer(&sums, true, 0.0, sums.showdowns)
    }

    fn assert_close(got: &Answer, want: &Answer, what: &str) {
        assert!(got.exact, "{what}");
        assert_eq!(got.showdowns, want.showdowns, "{what}");
        for (name, g, w) in [
            ("equity", &got.equity, &want.equity),
            ("win", &got.win, &want.win),
            ("tie", &got.tie, &want.tie),
        ] {
            for (i, (a, b)) in g.iter().zip(w).enumerate() {
                assert!(
                    (a - b).abs() < 1e-12,
                    "{what}: player {i} {name} {a} vs {b}"
                );
            }
        }
    }

    #[test]
    fn multiway_exact_equity_equals_the_direct_computation() {
        // Thirty dead cards leave a small deck, so the preflop oracle is quick; the
        // renamings that keep them in place still group some combinations.
        let dead = "2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s 5c 5d 5h 5s 6c 6d 6h 6s \
                    7c 7d 7h 7s 8c 8d 8h 8s 9c 9d";
        for (ranges, board, dead) in [
            (&["AA, KK", "QQ, JJ:0.5", "T9s, 9h8h"][..], "", dead),
            (&["AA", "KK", "QQ", "JJ"][..], "", dead),
            (&["AA", "KK", "QQ", "JJ", "TT"][..], "", dead),
            (&["AA", "KK:0.5", "QQ", "JJ", "TT", "9h9s"][..], "", dead),
            (
                &["AKs, QQ", "random", "JTs:0.25, 99", "A5s-A2s"][..],
                "Kh 7d 2c 3s",
                "",
            ),
            (&["QQ+", "JJ, TT", "AK", "KQs", "T9s"][..], "Ks 7d 2c", ""),
            (
                &["AK", "QQ", "JT", "98s", "76s", "55"][..],
                "Ks Qd 2c 3h 4s",
                "",
            ),
        ] {
            let q = question(ranges, board, dead);
            let got = equity(&q).unwrap();
            assert_close(&got, &oracle_n(&q), &format!("{ranges:?} on {board:?}"));
        }
    }

    #[test]
    fn weights_multiply_and_dead_cards_leave_the_deck() {
        // AA against KK at weight 1/2 and QQ at 1: the same as the counts weighted.
        let q = question(&["AA", "KK:0.5, QQ"], "Ks Qd 2c", "");
        let got = equity(&q).unwrap();
        let (kk, qq) = (Range::parse("KK").unwrap(), Range::parse("QQ").unwrap());
        let aa = &q.ranges[0];
        let (wk, tk, nk) = oracle(aa, &kk, &q.board);
        let (wq, tq, nq) = oracle(aa, &qq, &q.board);
        let want = (0.5 * (wk as f64 + tk as f64 / 2.0) + wq as f64 + tq as f64 / 2.0)
            / (0.5 * nk as f64 + nq as f64);
        assert!(
            (got.equity[0] - want).abs() < 1e-15,
            "{} {want}",
            got.equity[0]
        );
        // A dead ace leaves 3 holdings of AA and never comes on the board: 3 × 6
        // holdings, each against C(47, 5) boards.
        let dead = equity(&question(&["AA", "KK"], "", "Ad")).unwrap();
        assert_eq!(dead.showdowns, 18 * 1_533_939);
    }

    #[test]
    fn monte_carlo_agrees_with_exact_and_with_itself_on_any_threads() {
        let mut q = question(&["QQ+, AKs", "random", "T9s, 88"], "Kh 7d 2c", "");
        let exact = equity(&q).unwrap();
        assert!(exact.exact);
        q.exact_budget = 0;
        let run = |threads: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| equity(&q).unwrap())
        };
        let sampled = run(2);
        assert!(!sampled.exact && sampled.std_error <= 1e-3);
        for i in 0..3 {
            let z = (sampled.equity[i] - exact.equity[i]) / sampled.std_error;
            assert!(z.abs() < 4.5, "player {i}: {z}");
        }
        assert_eq!(run(1), sampled);
        assert!((sampled.equity.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn monte_carlo_agrees_with_exact_for_random_and_weighted_seats() {
        // Thirty (or thirty-six) dead cards keep the exact side quick with every seat random.
        let dead = "2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s 5c 5d 5h 5s 6c 6d 6h 6s \
                    7c 7d 7h 7s 8c 8d 8h 8s 9c 9d";
        for (ranges, board, dead) in [
            (&["random", "random"][..], "Kh 7d 2c 3s", "".to_string()),
            (
                &["random", "random", "random"][..],
                "Kh Td Jc",
                dead.to_string(),
            ),
            (&["random"; 3][..], "", format!("{dead} 9h 9s Tc Td Th Ts")),
            (
                &["AA:0.3, KK, AKs:0.5", "random", "QQ-TT:0.7, AQo"][..],
                "Kh 7d 2c 3s",
                String::new(),
            ),
            // 93, 56 and 63 holdings beside the board: more combinations than one
            // alias table takes, so each seat draws apart and the deal is drawn again on
            // a clash.
            (
                &["22+:0.5, KTo+", "A2s+, K9s+:0.7", "QJo-Q9o, JTo:0.9, 55-33"][..],
                "Kh 7d 2c 3s",
                String::new(),
            ),
            // Over 8,192 disjoint combinations but under 2^18: one joint table holding
            // card ids rather than hands.
            (
                &["22+:0.5, KTo+", "A2s+, K9s+:0.7", "AA, KK:0.5"][..],
                "Kh 7d 2c 3s",
                String::new(),
            ),
            // Named hands against random ones: the named cards leave the deck and the
            // random seats are dealt from it, in any seat order.
            (&["random", "AsAh", "random"][..], "Kh 7d 2c", String::new()),
            (
                &["ThJh", "random", "KdKc", "random"][..],
                "",
                format!("{dead} 9h 9s"),
            ),
            (&["AsAh", "KdKc"][..], "2c 7d 9s", String::new()),
            // Heavy holdings that clash (three seats cannot all hold aces) beside light
            // ones a million times lighter: sampled by parts, exactly.
            (
                &["AA, KK:1e-6", "AA, QQ:1e-6", "AA, JJ:1e-6"][..],
                "2c 3d 4h",
                String::new(),
            ),
            // Five random seats on the river with eleven cards left: ten are dealt, the
            // most one 64-bit draw deals with no fixed seat (three random seats preflop
            // above deal eleven, from two draws).
            (&["random"; 5][..], "Ah Kd 7c 7s 2h", {
                let keep = "Qs Qh Jd Tc 9s 9h 8d 6c 5s 4h 3d Ah Kd 7c 7s 2h";
                let keep = parse_cards(keep).unwrap();
                (0..52u8)
                    .filter_map(Card::from_id)
                    .filter(|c| !keep.contains(c))
                    .map(|c| c.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            }),
        ] {
            let mut q = question(ranges, board, &dead);
            q.exact_budget = u64::MAX;
            let exact = equity(&q).unwrap();
            assert!(exact.exact, "{ranges:?}");
            q.exact_budget = 0;
            let sampled = equity(&q).unwrap();
            assert!(!sampled.exact && sampled.std_error <= 1e-3);
            for i in 0..ranges.len() {
                let z = (sampled.equity[i] - exact.equity[i]) / sampled.std_error;
                assert!(z.abs() < 4.5, "{ranges:?} player {i}: z = {z}");
            }
        }
    }

    #[test]
    fn tiny_weights_give_the_answer_of_unit_weights() {
        // Each weight alone is valid; their product underflows a double. Scaling a seat's
        // weights by one factor changes nothing, so the answer is that of weights 1,
        // exact and sampled, never NaN.
        for (tiny, plain, board) in [
            (
                &["AKs:1e-200", "KK:1e-200"][..],
                &["AKs", "KK"][..],
                "2c 3c 4c",
            ),
            (
                &["AKs:1e-300", "KK:1e-300", "QJs:1e-300"][..],
                &["AKs", "KK", "QJs"][..],
                "2c 3c 4c",
            ),
            (&["AKs:1e-320", "KK:1e-320"][..], &["AKs", "KK"][..], ""),
            (
                &[
                    "AA:1e-300",
                    "KK:1e-300",
                    "QQ:1e-300",
                    "JJ:1e-320",
                    "TT:1e-320",
                    "99:1e-300",
                ][..],
                &["AA", "KK", "QQ", "JJ", "TT", "99"][..],
                "2c 3d 4h",
            ),
        ] {
            for budget in [EXACT_BUDGET, 0] {
                let mut q = question(tiny, board, "");
                q.exact_budget = budget;
                let got = equity(&q).unwrap();
                let mut want = question(plain, board, "");
                want.exact_budget = budget;
                let want = equity(&want).unwrap();
                assert_eq!(got, want, "{tiny:?} budget {budget}");
                assert!(got.equity.iter().all(|e| e.is_finite()), "{tiny:?}");
            }
        }
        // Weights within one seat hundreds of orders of magnitude apart, so that every
        // deal's product rounds to 0: an error, not NaN.
        let q = question(
            &[
                "AsAh:1, KK:1e-200",
                "AsAh:1, QQ:1e-200",
                "AsAh:1, JJ:1e-200",
            ],
            "2c 3d 4h",
            "",
        );
        assert_eq!(equity(&q).unwrap_err(), EquityError::Underflow);
    }

    #[test]
    fn rare_deals_are_sampled_in_bounded_draws() {
        // Every seat's heavy holdings are aces, and three seats cannot all hold two: the
        // deals that exist hold the light part somewhere. They are sampled at a normal
        // rate, the deal counted, and symmetric seats come out alike.
        let w = "top 50%:1e-10, AA";
        let mut q = question(&[w, w, w], "2c 3d 4h", "");
        q.exact_budget = 0;
        q.std_error = 1e-3;
        let a = equity(&q).unwrap();
        assert!(!a.exact && !a.stopped_at_draw_limit && a.std_error <= 1e-3);
        assert!(
            a.draws < 4 * a.showdowns,
            "{} draws for {} trials",
            a.draws,
            a.showdowns
        );
        for e in &a.equity {
            assert!((e - 1.0 / 3.0).abs() < 5.0 * a.std_error, "{:?}", a.equity);
        }
    }

    #[test]
    fn monte_carlo_stops_at_its_draw_limit_and_says_so() {
        // A target no sampling reaches within 2^16 deals drawn: the answer comes with the
        // standard error it reached, the deals it drew, and the flag.
        let mut q = question(&["QQ+:0.5, AKs", "random", "T9s, 88"], "Kh 7d 2c", "");
        q.exact_budget = 0;
        q.std_error = 1e-5;
        q.max_draws = 1 << 16;
        let a = equity(&q).unwrap();
        assert!(a.stopped_at_draw_limit, "{a:?}");
        assert!(a.draws <= q.max_draws && a.showdowns > 0, "{a:?}");
        assert!(a.std_error > q.std_error, "{a:?}");
        q.max_draws = MAX_DRAWS;
        q.std_error = 1e-2;
        assert!(!equity(&q).unwrap().stopped_at_draw_limit);
    }

    #[test]
    fn impossible_questions_are_errors() {
        let e = |ranges: &[&str], board: &str, dead: &str| {
            equity(&question(ranges, board, dead)).unwrap_err()
        };
        assert_eq!(e(&["AA"], "", ""), EquityError::Players(1));
        assert_eq!(e(&["AA"; 7], "", ""), EquityError::Players(7));
        assert_eq!(e(&["AA", "KK"], "2c 3c", ""), EquityError::Board(2));
        assert!(matches!(
            e(&["AA", "KK"], "2c 3c 4c", "2c"),
            EquityError::Overlap(_)
        ));
        assert_eq!(
            e(&["AsAh", "KK"], "As 3c 4c", ""),
            EquityError::NoHolding(1)
        );
        assert_eq!(e(&["AsAh", "AsKh"], "", ""), EquityError::NoDeal);
        // Dead cards that leave too few for the board.
        let dead: Vec<String> = (0..52u8)
            .filter_map(Card::from_id)
            .filter(|c| {
                !matches!(
                    c.to_string().as_str(),
                    "As" | "Ah" | "Ks" | "Kh" | "2c" | "3c"
                )
            })
            .map(|c| c.to_string())
            .collect();
        assert_eq!(
            e(&["AsAh", "KsKh"], "", &dead.join(" ")),
            EquityError::TooFewForRunout { left: 2, runout: 5 }
        );
        assert_eq!(
            e(&["AsAh", "KsKh"], "", &dead.join(" "))
                .to_string()
                .as_str(),
            "only 2 cards are left for a runout of 5 once every player holds two"
        );
        let mut q = question(&["AsAh", "AsKh"], "", "");
        q.exact_budget = 0;
        assert_eq!(equity(&q).unwrap_err(), EquityError::NoDeal);
        // Six random seats with seven cards left beside a full board: each seat alone has
        // holdings, but twelve hole cards cannot be dealt, exact or sampled.
        let board = "As Ks Qs Js Ts";
        let keep = ["9s", "8s", "7s", "6s", "5s", "4s", "3s"];
        let dead: Vec<String> = (0..52u8)
            .filter_map(Card::from_id)
            .map(|c| c.to_string())
            .filter(|c| !board.contains(c.as_str()) && !keep.contains(&c.as_str()))
            .collect();
        for budget in [u64::MAX, 0] {
            let mut q = question(&["random"; 6], board, &dead.join(" "));
            q.exact_budget = budget;
            assert_eq!(
                equity(&q).unwrap_err(),
                EquityError::TooFewForHoldings {
                    left: 7,
                    players: 6
                }
            );
        }
    }

    /// `top N%` under the `vs3` ranking takes the classes by their equity against three
    /// random hands: sampled to a standard error of 5e-4 each, no class's equity beats
    /// that of one ranked above it by six combined standard errors (a misplaced class
    /// is found wherever it sits in the list).
    #[test]
    #[cfg_attr(debug_assertions, ignore = "samples 169 classes: run with --release")]
    fn the_vs3_ranking_follows_equity_against_three_random_hands() {
        let order: Vec<&str> = cardtables::range::PREFLOP_ORDER_VS3
            .split_whitespace()
            .collect();
        let sampled: Vec<(f64, f64)> = order
            .iter()
            .map(|class| {
                let mut q = question(&[class, "random", "random", "random"], "", "");
                q.std_error = 5e-4;
                let a = equity(&q).unwrap();
                assert!(!a.exact && a.std_error <= 5e-4);
                (a.equity[0], a.std_error)
            })
            .collect();
        for (i, &(above, e1)) in sampled.iter().enumerate() {
            for (j, &(below, e2)) in sampled.iter().enumerate().skip(i + 1) {
                assert!(
                    below - above < 6.0 * e1.hypot(e2),
                    "{} ranks above {}, but their equities against three random hands are \
                     {above} and {below}",
                    order[i],
                    order[j]
                );
            }
        }
    }
}
