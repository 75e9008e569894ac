//! The exact outs engine: every way the remaining cards can fall, for both players at once.
//!
//! Each player's final hand is exactly five cards; whatever a player does not yet hold is
//! dealt from the unseen cards (the deck less both players' known cards and any cards seen
//! elsewhere). We enumerate every set of cards we can receive and, for each, every set the
//! opponent can receive from what is left, so runner-runner draws and the opponent's own
//! draws are counted exactly, not approximated.

use cardtables::{Card, CardSet};

use super::eval::Evaluator;
use super::rules::StudRules;

/// What is known about a hand in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Situation {
    pub mine: Vec<Card>,
    pub theirs: Vec<Card>,
    /// Cards seen elsewhere (folded hands, burned cards): out of the deck for everyone.
    pub seen: Vec<Card>,
    pub rules: StudRules,
}

/// Why a situation cannot be analysed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SituationError {
    #[error("{0} appears twice among the known cards")]
    Duplicate(Card),
    #[error("{card} is not in the {deck}-card deck")]
    NotInDeck { card: Card, deck: u8 },
    #[error("{who} has {count} cards; a five-card stud hand has at most 5")]
    TooMany { who: &'static str, count: usize },
    #[error("{who} has no cards; give at least one")]
    Empty { who: &'static str },
    #[error("only {unseen} unseen cards for {needed} cards still to come")]
    DeckExhausted { unseen: usize, needed: usize },
    #[error("{mine} × {theirs} pairs of runouts to enumerate, more than the {MAX_RUNOUT_PAIRS:.0e} an exact answer here may take: give more of either hand's cards (the starting-hand tables of jobs/showhand.toml answer for the first cards)")]
    TooMuchWork { mine: u64, theirs: u64 },
}

/// The most (our runout, their runout) pairs an analysis enumerates: a few seconds on one
/// core. One card against one card would be 5.3e10.
pub const MAX_RUNOUT_PAIRS: f64 = 4e9;

/// Our chances against one unseen card as our next card.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CardOutcome {
    pub card: Card,
    pub win: f64,
    pub tie: f64,
}

/// The exact analysis of a situation.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    pub unseen: usize,
    /// Cards still to come to us and to the opponent.
    pub my_draws: usize,
    pub their_draws: usize,
    /// Every (our cards, their cards) deal, counted once.
    pub deals: u64,
    pub wins: u64,
    pub ties: u64,
    /// Our chances given each unseen card as our next card (empty when we draw nothing).
    pub by_card: Vec<CardOutcome>,
    /// Outs: unseen cards that, as our next card, leave us more likely to win than not.
    /// With one card to come against a complete hand these are exactly the cards that win.
    pub outs: Vec<Card>,
}

impl Analysis {
    pub fn win(&self) -> f64 {
        self.wins as f64 / self.deals as f64
    }
    pub fn tie(&self) -> f64 {
        self.ties as f64 / self.deals as f64
    }
    /// Share of the pot: wins plus half the ties.
    pub fn equity(&self) -> f64 {
        (self.wins as f64 + self.ties as f64 / 2.0) / self.deals as f64
    }
}

/// All k-subsets of `0..n` as bitmasks over positions (n ≤ 64, k ≤ 5).
fn subsets(n: usize, k: usize) -> Vec<u64> {
    let mut out = Vec::new();
    let mut idx: Vec<usize> = (0..k).collect();
    if k > n {
        return out;
    }
    loop {
        out.push(idx.iter().fold(0u64, |m, &i| m | 1 << i));
        let Some(i) = (0..k).rev().find(|&i| idx[i] < n - k + i) else {
            return out;
        };
        idx[i] += 1;
        for j in i + 1..k {
            idx[j] = idx[j - 1] + 1;
        }
    }
}

fn hand_of(known: &[Card], unseen: &[Card], picks: u64) -> [Card; 5] {
    let mut hand = [known.first().copied().unwrap_or(unseen[0]); 5];
    let mut n = 0;
    for &c in known {
        hand[n] = c;
        n += 1;
    }
    let mut bits = picks;
    while bits != 0 {
        hand[n] = unseen[bits.trailing_zeros() as usize];
        n += 1;
        bits &= bits - 1;
    }
    hand
}

/// Exact enumeration of every run-out.
pub fn analyse(s: &Situation) -> Result<Analysis, SituationError> {
    let deck = s.rules.deck_mask();
    let mut known = CardSet::EMPTY;
    for &c in s.mine.iter().chain(&s.theirs).chain(&s.seen) {
        if deck >> c.id() & 1 == 0 {
            return Err(SituationError::NotInDeck {
                card: c,
                deck: s.rules.deck,
            });
        }
        if known.contains(c) {
            return Err(SituationError::Duplicate(c));
        }
        known = known.with(c);
    }
    for (who, cards) in [("your hand", &s.mine), ("the opponent", &s.theirs)] {
        if cards.len() > 5 {
            return Err(SituationError::TooMany {
                who,
                count: cards.len(),
            });
        }
        if cards.is_empty() {
            return Err(SituationError::Empty { who });
        }
    }
    let unseen: Vec<Card> = CardSet(deck & !known.0).iter().collect();
    let (k1, k2) = (5 - s.mine.len(), 5 - s.theirs.len());
    if k1 + k2 > unseen.len() {
        return Err(SituationError::DeckExhausted {
            unseen: unseen.len(),
            needed: k1 + k2,
        });
    }
    let (mine_runouts, their_runouts) = (
        cardtables::colex::binomial(unseen.len(), k1) as u64,
        cardtables::colex::binomial(unseen.len(), k2) as u64,
    );
    if mine_runouts as f64 * their_runouts as f64 > MAX_RUNOUT_PAIRS {
        return Err(SituationError::TooMuchWork {
            mine: mine_runouts,
            theirs: their_runouts,
        });
    }
    let eval = Evaluator::new(s.rules);
    let theirs: Vec<(u64, u32)> = subsets(unseen.len(), k2)
        .into_iter()
        .map(|m| (m, eval.evaluate(&hand_of(&s.theirs, &unseen, m)).1))
        .collect();
    let mut per_card = vec![(0u64, 0u64, 0u64); unseen.len()]; // (deals, wins, ties)
    let (mut deals, mut wins, mut ties) = (0u64, 0u64, 0u64);
    for mine in subsets(unseen.len(), k1) {
        let my_key = eval.evaluate(&hand_of(&s.mine, &unseen, mine)).1;
        let (mut d, mut w, mut t) = (0u64, 0u64, 0u64);
        for &(m, key) in &theirs {
            if m & mine != 0 {
                continue;
            }
            d += 1;
            if my_key > key {
                w += 1;
            } else if my_key == key {
                t += 1;
            }
        }
        deals += d;
        wins += w;
        ties += t;
        let mut bits = mine;
        while bits != 0 {
            let slot = &mut per_card[bits.trailing_zeros() as usize];
            slot.0 += d;
            slot.1 += w;
            slot.2 += t;
            bits &= bits - 1;
        }
    }
    let by_card: Vec<CardOutcome> = if k1 == 0 {
        Vec::new()
    } else {
        unseen
            .iter()
            .zip(&per_card)
            .map(|(&card, &(d, w, t))| CardOutcome {
                card,
                win: w as f64 / d as f64,
                tie: t as f64 / d as f64,
            })
            .collect()
    };
    let outs = by_card
        .iter()
        .filter(|o| o.win > 1.0 - o.win - o.tie)
        .map(|o| o.card)
        .collect();
    Ok(Analysis {
        unseen: unseen.len(),
        my_draws: k1,
        their_draws: k2,
        deals,
        wins,
        ties,
        by_card,
        outs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use cardtables::decision::hit_probability;
    use cardtables::parse_cards;

    fn situation(mine: &str, theirs: &str, seen: &str) -> Situation {
        Situation {
            mine: parse_cards(mine).unwrap(),
            theirs: parse_cards(theirs).unwrap(),
            seen: parse_cards(seen).unwrap(),
            rules: StudRules::default(),
        }
    }

    #[test]
    fn flush_draw_has_nine_outs() {
        // Four spades against a made pair of aces: any spade makes the flush.
        let a = analyse(&situation("2s 5s 9s Js", "Ah Ad 7c 8d 3h", "")).unwrap();
        assert_eq!(a.unseen, 43);
        assert_eq!(a.outs.len(), 9);
        assert!(a.outs.iter().all(|c| c.suit() == 3));
        assert_eq!(a.wins, 9);
        assert_eq!(a.deals, 43);
    }

    #[test]
    fn open_ended_straight_draw_has_eight_outs() {
        let a = analyse(&situation("5h 6d 7c 8s", "Kh Kd 2c 3d 9h", "")).unwrap();
        // 4s and 9s make the straight; one 9 is the opponent's.
        assert_eq!(a.outs.len(), 4 + 3);
    }

    #[test]
    fn combo_draw_counts_each_card_once() {
        // Spade flush draw and open-ended straight draw: 9 spades + 6 off-suit 8s and Ks
        // (the 8♠ and K♠ are counted once), against a pair of aces.
        let a = analyse(&situation("9s Ts Js Qs", "Ah Ad 2c 3d 4h", "")).unwrap();
        assert_eq!(a.outs.len(), 9 + 6);
    }

    #[test]
    fn one_card_formula_matches_enumeration() {
        let a = analyse(&situation("2s 5s 9s Js", "Ah Ad 7c 8d 3h", "")).unwrap();
        let p = hit_probability(a.outs.len() as u32, a.unseen as u32, 1);
        assert!((a.win() - p).abs() < 1e-15);
    }

    #[test]
    fn two_card_formula_matches_counting_every_pair() {
        // P(at least one of `outs` cards among two drawn from `unseen`), by counting pairs.
        for unseen in [10u32, 30, 46] {
            for outs in 0..=unseen.min(20) {
                let (mut hit, mut all) = (0u64, 0u64);
                for a in 0..unseen {
                    for b in a + 1..unseen {
                        all += 1;
                        hit += u64::from(a < outs || b < outs);
                    }
                }
                let exact = hit as f64 / all as f64;
                assert!((exact - hit_probability(outs, unseen, 2)).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn runner_runner_wins_with_no_single_out() {
        // Three spades, two to come, against trips: no single card wins, but two spades do.
        let a = analyse(&situation("As Ks 2s", "7h 7d 7c Jd 4h", "")).unwrap();
        assert!(a.outs.is_empty());
        assert!(a.wins > 0);
        // The outs formula with zero outs says 0: enumeration beats it.
        assert_eq!(hit_probability(0, a.unseen as u32, 2), 0.0);
        // Every pair of the 10 remaining spades makes a flush, which beats trips.
        let spades = 13 - 3;
        let flushes = (spades * (spades - 1) / 2) as u64;
        assert!(a.wins >= flushes);
    }

    #[test]
    fn opponent_draws_are_enumerated_jointly() {
        let a = analyse(&situation("As Ks Qs Js", "2c 2d", "2h")).unwrap();
        assert_eq!((a.unseen, a.my_draws, a.their_draws), (45, 1, 3));
        assert_eq!(a.deals, 45 * 44 * 43 * 42 / 6);
        // Symmetry: swapping sides swaps wins and losses.
        let b = analyse(&situation("2c 2d", "As Ks Qs Js", "2h")).unwrap();
        assert_eq!(a.deals, b.deals);
        assert_eq!(a.ties, b.ties);
        assert_eq!(a.wins, b.deals - b.wins - b.ties);
    }

    #[test]
    fn bad_situations_are_named() {
        let mut s = situation("As Ks", "As 2d", "");
        assert_eq!(analyse(&s), Err(SituationError::Duplicate(s.mine[0])));
        s = situation("As Ks", "2d", "");
        s.rules.deck = 32;
        assert!(matches!(analyse(&s), Err(SituationError::NotInDeck { .. })));
        s = situation("As Ks Qs Js Ts 9s", "2d", "");
        assert!(matches!(analyse(&s), Err(SituationError::TooMany { .. })));
    }
}
