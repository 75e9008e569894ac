//! Heads-up matchups of two 2-card hands, taken up to suit permutation and order: the
//! classes that Hold'em and five-card stud both solve once each.

use cardtables::colex::binomial;
use cardtables::Card;

/// A heads-up matchup class: representative hands (colex indices of 2-card sets over the
/// full 52-card ids) and how many unordered raw matchups it stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Matchup {
    pub a: u16,
    pub b: u16,
    pub weight: u16,
}

/// Colex index of the 2-card set {a, b} (card ids).
pub fn pair_index(a: u8, b: u8) -> usize {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    (binomial(usize::from(lo), 1) + binomial(usize::from(hi), 2)) as usize
}

/// The 2-card set with colex index `index`.
pub fn two_cards(index: u16) -> [Card; 2] {
    let mut c = [Card::from_id(0).expect("card 0"); 2];
    cardtables::colex::unrank(u32::from(index), 2, &mut c);
    c
}

/// The 24 permutations of four suits.
pub fn suit_permutations() -> Vec<[u8; 4]> {
    let mut out = Vec::with_capacity(24);
    for a in 0..4u8 {
        for b in 0..4u8 {
            for c in 0..4u8 {
                if a != b && a != c && b != c {
                    out.push([a, b, c, 6 - a - b - c]);
                }
            }
        }
    }
    out
}

/// Every matchup class of the deck `deck` (a bit per card id), sorted by representative.
pub fn matchups(deck: u64) -> Vec<Matchup> {
    matchups_under(deck, &suit_permutations())
}

/// The symmetries of a game that ranks suits: only the identity, so every matchup of
/// distinct hands is its own class (up to the order of the two hands).
pub const NO_SUIT_SYMMETRY: [[u8; 4]; 1] = [[0, 1, 2, 3]];

/// Every matchup class of the deck under the suit permutations `perms` that leave results
/// unchanged (all 24 when suits never matter, [`NO_SUIT_SYMMETRY`] when they rank).
pub fn matchups_under(deck: u64, perms: &[[u8; 4]]) -> Vec<Matchup> {
    let hands: Vec<u16> = (0..binomial(52, 2) as u16)
        .filter(|&i| two_cards(i).iter().all(|c| deck >> c.id() & 1 == 1))
        .collect();
    let rename = |i: u16, p: &[u8; 4]| -> u16 {
        let [x, y] = two_cards(i)
            .map(|c| Card::new(c.rank(), p[usize::from(c.suit())]).expect("valid card"));
        pair_index(x.id(), y.id()) as u16
    };
    let mut classes = std::collections::BTreeMap::<(u16, u16), u16>::new();
    for (n, &a) in hands.iter().enumerate() {
        let ma = two_cards(a).iter().fold(0u64, |m, c| m | 1 << c.id());
        for &b in &hands[n + 1..] {
            if two_cards(b).iter().any(|c| ma >> c.id() & 1 == 1) {
                continue;
            }
            let rep = perms
                .iter()
                .flat_map(|p| {
                    let (x, y) = (rename(a, p), rename(b, p));
                    [(x, y), (y, x)]
                })
                .min()
                .expect("at least the identity");
            *classes.entry(rep).or_default() += 1;
        }
    }
    classes
        .into_iter()
        .map(|((a, b), weight)| Matchup { a, b, weight })
        .collect()
}

/// The exact result of one matchup of two starting hands over every deal, from the first
/// hand's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MatchupResult {
    pub wins: u64,
    pub ties: u64,
    pub deals: u64,
}

impl MatchupResult {
    pub fn equity(&self) -> f64 {
        (self.wins as f64 + self.ties as f64 / 2.0) / self.deals as f64
    }
    pub fn losses(&self) -> u64 {
        self.deals - self.wins - self.ties
    }

    /// Whether the counts can be real: wins and ties together within the deals (so
    /// [`losses`](Self::losses) cannot underflow). For results read back from a file.
    pub fn is_consistent(&self) -> bool {
        self.wins
            .checked_add(self.ties)
            .is_some_and(|n| n <= self.deals)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_counts_within_the_deals_are_consistent() {
        let r = |wins, ties, deals| MatchupResult { wins, ties, deals };
        assert!(r(1, 1, 5).is_consistent() && r(2, 3, 5).is_consistent());
        assert!(!r(3, 3, 5).is_consistent());
        // A forged file's counts must not overflow the check itself.
        assert!(!r(u64::MAX, 1, 5).is_consistent());
        assert_eq!(r(2, 3, 5).losses(), 0);
    }
}
