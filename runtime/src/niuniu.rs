//! O(1) answers for Niuniu (斗牛) from a `niuniu.bin` table written by `pipeline`.
//!
//! Everything the table knows about a hand depends only on its five ranks and the suit of
//! its tie-break card: the category is a function of the ranks, the tie-break card is the
//! highest card ranked K > Q > … > A then by suit ♠ > ♥ > ♣ > ♦, and which opponent hands
//! a hand beats depends on our ranks and on how many suits below our tie-break card's
//! remain at its rank. So the table stores one entry per rank multiset (6,188 of them,
//! C(17, 5)) and per tie-break suit: 24,752 win counts and banker results, about 300 KB,
//! instead of one entry per hand (2,598,960 of them, 15.6 MB in format version 1).
//!
//! Strength is `category_rank * 52 + tie_order(tie-break card)`; two disjoint hands never
//! tie. The tie-break card is the highest card, except for a 炸弹 (bomb, four of a kind)
//! under [`BombOrder::QuadRank`] (the default since format version 4), where it is the ♠
//! of the four of a kind: bombs are settled by the four of a kind's rank, K high, A low.

use serde::{Deserialize, Serialize};

use crate::card::{Card, CardError};
use crate::colex;
use crate::format::{self, Game, TableError, TableHeader};

/// Number of 5-card hands.
pub const HANDS: usize = 2_598_960;
/// Number of opponent hands from the 47 cards left: every win probability's denominator.
pub const OPPONENT_HANDS: u32 = 1_533_939;
/// Number of multisets of five ranks, C(17, 5), the 13 five-of-a-kinds included (four
/// suits cannot make them, so their entries are unused).
pub const MULTISETS: usize = 6_188;
/// Table entries: one per rank multiset and suit of the tie-break card.
pub const SLOTS: usize = MULTISETS * 4;
/// The category of a five-of-a-kind multiset, which no hand has.
pub const NO_CATEGORY: u8 = u8::MAX;

/// One category of the rule set the table was computed under.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CategoryInfo {
    /// Stable snake_case name, e.g. `bull_7`, `bull_bull`, `five_face`.
    pub name: String,
    /// Payout multiplier of a hand that wins with this category.
    pub multiplier: u32,
}

/// The category name of 炸弹 (bomb: four of a kind), whose ties [`BombOrder`] settles.
pub const BOMB: &str = "bomb";

/// How two hands of the bomb category (炸弹, four of a kind) are settled. Job files spell
/// it `"quad_rank"` or `"high_card"`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BombOrder {
    /// By the four of a kind's rank, K high, A low: the common table rule.
    #[default]
    QuadRank,
    /// By the highest card, as every other category is (the only rule of format versions
    /// 2 and 3).
    HighCard,
}

/// The payload of a Niuniu table file (format version 4; versions 2 and 3 lack
/// `bomb_order` and are read as [`BombOrder::HighCard`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NiuniuPayload {
    /// The `[rules]` the table was computed under, as TOML text.
    pub rules: String,
    /// Categories from weakest to strongest: a category's rank is its index here.
    #[serde(deserialize_with = "format::bounded_vec")]
    pub categories: Vec<CategoryInfo>,
    /// Category rank of each rank multiset by [`multiset_index`]; [`NO_CATEGORY`] for the
    /// 13 five-of-a-kinds.
    #[serde(deserialize_with = "format::bounded_vec")]
    pub multiset_category: Vec<u8>,
    /// Opponent hands (of [`OPPONENT_HANDS`]) beaten, by slot `multiset * 4 + suit of
    /// the tie-break card` (0 = ♦ … 3 = ♠; zero where no hand has that slot).
    #[serde(deserialize_with = "format::bounded_vec")]
    pub wins: Vec<u32>,
    /// The banker's summed result in stakes over the [`OPPONENT_HANDS`] opponent hands,
    /// by the same slot: a win gains the banker's category multiplier, a loss costs the
    /// opponent's; divided by [`OPPONENT_HANDS`] it is the banker's EV per stake.
    #[serde(deserialize_with = "format::bounded_vec")]
    pub banker: Vec<i64>,
    /// How bombs are settled against each other.
    pub bomb_order: BombOrder,
}

/// The payload of format versions 2 and 3: the same without `bomb_order`.
#[derive(Deserialize)]
struct NiuniuPayloadV2 {
    rules: String,
    #[serde(deserialize_with = "format::bounded_vec")]
    categories: Vec<CategoryInfo>,
    #[serde(deserialize_with = "format::bounded_vec")]
    multiset_category: Vec<u8>,
    #[serde(deserialize_with = "format::bounded_vec")]
    wins: Vec<u32>,
    #[serde(deserialize_with = "format::bounded_vec")]
    banker: Vec<i64>,
}

/// Everything the table knows about one hand.
#[derive(Clone, Debug, PartialEq)]
pub struct NiuniuHand<'a> {
    /// Colex index of the hand.
    pub index: u32,
    /// Category name (see [`CategoryInfo::name`]).
    pub category: &'a str,
    /// Category rank: 0 is the weakest category of the rule set.
    pub category_rank: u8,
    /// Strength: larger wins.
    pub strength: u16,
    /// The card that settles two hands of one category: the highest card, or the ♠ of a
    /// bomb's four of a kind under [`BombOrder::QuadRank`].
    pub tie_break: Card,
    /// Payout multiplier when this hand wins.
    pub multiplier: u32,
    /// Exact probability of beating one opponent dealt from the 47 unseen cards.
    pub win_probability: f64,
    /// Number of the 1,533,939 opponent hands this hand beats.
    pub wins: u32,
    /// Exact EV per stake of this hand as the banker against one player dealt from the 47
    /// unseen cards (the banker wins the hand's multiplier, or pays the player's).
    pub banker_ev: f64,
}

/// A loaded, validated Niuniu table.
#[derive(Clone, Debug)]
pub struct Niuniu {
    header: TableHeader,
    payload: NiuniuPayload,
}

format::table_file!(Niuniu, NiuniuPayload, Game::Niuniu, decode);

/// The payload of a file of `version`: version 1 stored one entry per hand and no banker
/// EVs, so it cannot answer every question and is refused with what to do; versions 2 and
/// 3 settled bombs by the highest card.
fn decode(version: u16, payload: &[u8]) -> Result<NiuniuPayload, TableError> {
    match version {
        0 | 1 => Err(TableError::Invalid(format!(
            "a format version {version} Niuniu table holds no banker EVs: regenerate it with \
             `pipeline run` (version 2 tables are also 50 times smaller)"
        ))),
        2 | 3 => {
            let old: NiuniuPayloadV2 = format::decode(payload)?;
            Ok(NiuniuPayload {
                rules: old.rules,
                categories: old.categories,
                multiset_category: old.multiset_category,
                wins: old.wins,
                banker: old.banker,
                bomb_order: BombOrder::HighCard,
            })
        }
        _ => format::decode(payload),
    }
}

/// Where a hand's entries live: its rank multiset and the suit of its tie-break card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// [`multiset_index`] of the hand's ranks.
    pub multiset: u16,
    /// The highest card, which fixes the strength within the category (but for a bomb
    /// settled by [`BombOrder::QuadRank`]).
    pub high_card: Card,
}

impl Slot {
    /// The slot of five distinct cards in any order (not checked: see [`hand_index`]).
    pub fn of(cards: &[Card; 5]) -> Slot {
        Slot::of_sorted(&colex::sort_cards(*cards))
    }

    /// The slot of five cards in increasing id order.
    #[inline]
    fn of_sorted(sorted: &[Card; 5]) -> Slot {
        // Ids order ranks 2 … A, so the ranks are already sorted; the tie-break card is the
        // highest card that is not an ace (aces rank lowest), and five cards hold one.
        let high_card = sorted
            .iter()
            .rev()
            .copied()
            .find(|c| c.rank() != 12)
            .unwrap_or(sorted[4]);
        Slot {
            multiset: multiset_index(sorted) as u16,
            high_card,
        }
    }

    #[inline]
    fn entry(self, tie_break: Card) -> usize {
        usize::from(self.multiset) * 4 + usize::from(tie_break.suit())
    }
}

/// Position of a card in the tie-break order: K > Q > … > A, then ♠ > ♥ > ♣ > ♦.
#[inline]
pub fn tie_order(card: Card) -> u8 {
    ((card.rank() + 1) % 13) * 4 + card.suit()
}

/// Index of the rank multiset of five cards given in non-decreasing id order (so their
/// card-id ranks r_i, 0 = 2 … 12 = A, are non-decreasing): `Σ C(r_i + i, i + 1)`, the
/// colex index of the set `{r_i + i}` of 17 values, in `0..`[`MULTISETS`].
///
/// ```
/// use cardtables::niuniu::{multiset_index, MULTISETS};
/// use cardtables::parse_cards;
/// let five = |t: &str| <[_; 5]>::try_from(parse_cards(t).unwrap()).unwrap();
/// assert_eq!(multiset_index(&five("2d 2c 2h 2s 3d")), 1); // 2222 3
/// assert_eq!(multiset_index(&five("Kd Ad Ac Ah As")), MULTISETS - 2); // K AAAA
/// ```
#[inline]
pub fn multiset_index(sorted: &[Card; 5]) -> usize {
    sorted
        .iter()
        .enumerate()
        .map(|(i, c)| colex::binomial(usize::from(c.rank()) + i, i + 1) as usize)
        .sum()
}

/// Five copies of a card of card-id rank `rank` (0 = 2 … 12 = A): the multiset r r r r r
/// that four suits cannot make.
fn five_of(rank: u8) -> [Card; 5] {
    [Card::from_id(4 * rank).expect("rank < 13"); 5]
}

impl Niuniu {
    /// Categories from weakest to strongest.
    pub fn categories(&self) -> &[CategoryInfo] {
        &self.payload.categories
    }

    /// The hand with colex index `index`, or `None` when out of range.
    fn hand_at(&self, index: u32) -> Option<NiuniuHand<'_>> {
        if index as usize >= HANDS {
            return None;
        }
        let mut cards = [Card::from_id(0).expect("0 is a card"); 5];
        colex::unrank(index, 5, &mut cards);
        // unrank gives increasing ids.
        Some(self.hand(index, &cards))
    }

    /// Strength of the hand with colex index `index`, or `None` when out of range.
    pub fn strength_at(&self, index: u32) -> Option<u16> {
        Some(self.hand_at(index)?.strength)
    }

    /// Win probability of the hand with colex index `index`, or `None` when out of range.
    pub fn win_probability_at(&self, index: u32) -> Option<f64> {
        Some(self.hand_at(index)?.win_probability)
    }

    /// Opponent hands (of [`OPPONENT_HANDS`]) beaten by the hand with colex index `index`.
    pub fn wins_at(&self, index: u32) -> Option<u32> {
        Some(self.hand_at(index)?.wins)
    }

    /// Banker EV of the hand with colex index `index`, or `None` when out of range.
    pub fn banker_ev_at(&self, index: u32) -> Option<f64> {
        Some(self.hand_at(index)?.banker_ev)
    }

    /// Category of the hand with colex index `index`, or `None` when out of range.
    pub fn category_at(&self, index: u32) -> Option<&CategoryInfo> {
        let rank = self.hand_at(index)?.category_rank;
        self.payload.categories.get(usize::from(rank))
    }

    /// Everything about a hand of five distinct cards, in O(1).
    #[inline]
    pub fn lookup(&self, cards: &[Card]) -> Result<NiuniuHand<'_>, CardError> {
        let sorted = checked_sort(cards)?;
        Ok(self.hand(colex::index_sorted(&sorted), &sorted))
    }

    /// The hand `sorted` (five distinct cards, increasing ids) with colex index `index`.
    #[inline]
    fn hand(&self, index: u32, sorted: &[Card; 5]) -> NiuniuHand<'_> {
        let slot = Slot::of_sorted(sorted);
        // Validation made every reachable multiset's category a valid rank.
        let rank = self.payload.multiset_category[usize::from(slot.multiset)];
        let info = &self.payload.categories[usize::from(rank)];
        let tie_break = if self.payload.bomb_order == BombOrder::QuadRank && info.name == BOMB {
            // The middle of five sorted cards holding four of a kind is one of the four;
            // suit 3 is ♠.
            Card::new(sorted[2].rank(), 3).unwrap_or(slot.high_card)
        } else {
            slot.high_card
        };
        let entry = slot.entry(tie_break);
        let wins = self.payload.wins[entry];
        let denominator = f64::from(OPPONENT_HANDS);
        NiuniuHand {
            index,
            category: &info.name,
            category_rank: rank,
            strength: u16::from(rank) * 52 + u16::from(tie_order(tie_break)),
            tie_break,
            multiplier: info.multiplier,
            win_probability: f64::from(wins) / denominator,
            wins,
            banker_ev: self.payload.banker[entry] as f64 / denominator,
        }
    }

    /// Category name of a hand of five distinct cards.
    pub fn category(&self, cards: &[Card]) -> Result<&str, CardError> {
        Ok(self.lookup(cards)?.category)
    }

    /// Strength of a hand of five distinct cards: larger wins.
    pub fn strength(&self, cards: &[Card]) -> Result<u16, CardError> {
        Ok(self.lookup(cards)?.strength)
    }

    /// Exact probability that the hand beats one opponent dealt from the 47 unseen cards.
    pub fn win_probability(&self, cards: &[Card]) -> Result<f64, CardError> {
        Ok(self.lookup(cards)?.win_probability)
    }

    /// Exact EV per stake of the hand as banker against one player (see
    /// [`NiuniuHand::banker_ev`]).
    pub fn banker_ev(&self, cards: &[Card]) -> Result<f64, CardError> {
        Ok(self.lookup(cards)?.banker_ev)
    }
}

/// What the cards of a Niuniu hand make, computed from the cards alone (the rules do not
/// enter, so no table is needed): the fields of `hands.parquet` that are not stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Points {
    /// Sum of the points (A = 1, 2..9 face value, 10/J/Q/K = 10).
    pub point_total: u8,
    /// The bull number, `point_total mod 10` (0 = 牛牛), when three cards make a multiple
    /// of 10; `None` otherwise (无牛).
    pub bull: Option<u8>,
    /// The first three cards, in increasing card id, whose points make a multiple of 10.
    pub grouping: Option<[Card; 3]>,
    /// The highest card by K > Q > … > A, then ♠ > ♥ > ♣ > ♦: the tie-break card of every
    /// category but a bomb settled by [`BombOrder::QuadRank`] (see [`NiuniuHand::tie_break`]).
    pub high_card: Card,
}

/// Points of a card: A = 1, 2..9 face value, 10/J/Q/K = 10.
pub fn card_points(card: Card) -> u8 {
    // Niuniu ranks the ace low: A = 0, 2 = 1, …, K = 12.
    let niu_rank = (card.rank() + 1) % 13;
    (niu_rank + 1).min(10)
}

/// The points, bull number, grouping and tie-break card of five distinct cards in any
/// order.
///
/// ```
/// use cardtables::{niuniu, parse_cards};
/// let p = niuniu::points(&parse_cards("Ks Qh 5d 3c 2s").unwrap()).unwrap();
/// assert_eq!((p.point_total, p.bull), (30, Some(0))); // 5 + 3 + 2 = 10, K + Q = 20: 牛牛
/// ```
pub fn points(cards: &[Card]) -> Result<Points, CardError> {
    let sorted = checked_sort(cards)?;
    let pts = sorted.map(card_points);
    let point_total: u8 = pts.iter().sum();
    let mut grouping = None;
    'search: for i in 0..5 {
        for j in i + 1..5 {
            for k in j + 1..5 {
                if (pts[i] + pts[j] + pts[k]) % 10 == 0 {
                    grouping = Some([sorted[i], sorted[j], sorted[k]]);
                    break 'search;
                }
            }
        }
    }
    let high_card = Slot::of_sorted(&sorted).high_card;
    Ok(Points {
        point_total,
        bull: grouping.map(|_| point_total % 10),
        grouping,
        high_card,
    })
}

/// Colex index of five distinct cards in any order.
#[inline]
pub fn hand_index(cards: &[Card]) -> Result<u32, CardError> {
    Ok(colex::index_sorted(&checked_sort(cards)?))
}

/// Exactly five distinct cards, sorted by id; the error says which rule they break.
#[inline]
fn checked_sort(cards: &[Card]) -> Result<[Card; 5], CardError> {
    let five: [Card; 5] = cards.try_into().map_err(|_| CardError::WrongCount {
        expected: 5,
        found: cards.len(),
    })?;
    let sorted = colex::sort_cards(five);
    match sorted.windows(2).find(|w| w[0] == w[1]) {
        Some(w) => Err(CardError::Duplicate { card: w[0] }),
        None => Ok(sorted),
    }
}

fn validate(p: &NiuniuPayload) -> Result<(), TableError> {
    let invalid = |msg: String| Err(TableError::Invalid(msg));
    if p.categories.is_empty() || p.categories.len() > 64 {
        return invalid(format!(
            "{} categories (expected 1 to 64)",
            p.categories.len()
        ));
    }
    if p.multiset_category.len() != MULTISETS || p.wins.len() != SLOTS || p.banker.len() != SLOTS {
        return invalid(format!(
            "{} multiset categories, {} win counts and {} banker results, expected \
             {MULTISETS}, {SLOTS} and {SLOTS}",
            p.multiset_category.len(),
            p.wins.len(),
            p.banker.len()
        ));
    }
    // The five-of-a-kinds are the multisets r r r r r.
    let mut five_of_a_kind = vec![false; MULTISETS];
    for r in 0..13u8 {
        five_of_a_kind[multiset_index(&five_of(r))] = true;
    }
    for (m, &rank) in p.multiset_category.iter().enumerate() {
        let ok = if five_of_a_kind[m] {
            rank == NO_CATEGORY
        } else {
            usize::from(rank) < p.categories.len()
        };
        if !ok {
            return invalid(format!(
                "rank multiset {m} has category {rank}, with {} categories",
                p.categories.len()
            ));
        }
    }
    if let Some(i) = p.wins.iter().position(|&w| w > OPPONENT_HANDS) {
        return invalid(format!(
            "slot {i} beats {} opponents, more than {OPPONENT_HANDS}",
            p.wins[i]
        ));
    }
    let most = p.categories.iter().map(|c| c.multiplier).max().unwrap_or(0);
    let bound = i64::from(OPPONENT_HANDS) * i64::from(most);
    if let Some(i) = p
        .banker
        .iter()
        .position(|b| b.unsigned_abs() > bound as u64)
    {
        return invalid(format!(
            "slot {i} has banker result {}, beyond ±{bound} ({OPPONENT_HANDS} hands at most \
             {most} stakes each)",
            p.banker[i]
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn five_of_a_kind(m: usize) -> bool {
        (0..13u8).any(|r| multiset_index(&five_of(r)) == m)
    }

    fn tiny_payload() -> NiuniuPayload {
        NiuniuPayload {
            rules: "special_hands = []".into(),
            categories: vec![
                CategoryInfo {
                    name: "low".into(),
                    multiplier: 1,
                },
                CategoryInfo {
                    name: "high".into(),
                    multiplier: 2,
                },
            ],
            multiset_category: (0..MULTISETS)
                .map(|m| {
                    if five_of_a_kind(m) {
                        NO_CATEGORY
                    } else {
                        (m % 2) as u8
                    }
                })
                .collect(),
            wins: (0..SLOTS).map(|i| (i % 1000) as u32).collect(),
            banker: (0..SLOTS).map(|i| i as i64 - 10_000).collect(),
            bomb_order: BombOrder::QuadRank,
        }
    }

    #[test]
    fn the_sorting_network_sorts_every_order_and_slots_ignore_order() {
        // Every permutation of five distinct ids (0/1 principle aside, check them all).
        let ids = [7u8, 51, 0, 23, 48];
        let mut perm = [0usize, 1, 2, 3, 4];
        let mut want = ids.map(|i| Card::from_id(i).unwrap());
        want.sort();
        let mut seen = 0;
        loop {
            let cards = perm.map(|p| Card::from_id(ids[p]).unwrap());
            assert_eq!(colex::sort_cards(cards), want);
            assert_eq!(Slot::of(&cards), Slot::of(&want));
            seen += 1;
            // Next permutation in lexicographic order.
            let Some(i) = (0..4).rev().find(|&i| perm[i] < perm[i + 1]) else {
                break;
            };
            let j = (i + 1..5).rev().find(|&j| perm[j] > perm[i]).unwrap();
            perm.swap(i, j);
            perm[i + 1..].reverse();
        }
        assert_eq!(seen, 120);
        // The tie-break card: the highest by K > … > A, then suit.
        let slot = Slot::of(&[0u8, 48, 49, 44, 4].map(|i| Card::from_id(i).unwrap()));
        assert_eq!(slot.high_card, Card::from_id(44).unwrap()); // Kd over every ace
    }

    #[test]
    fn multiset_indices_number_the_multisets() {
        let mut seen = vec![false; MULTISETS];
        for a in 0..13u8 {
            for b in a..13 {
                for c in b..13 {
                    for d in c..13 {
                        for e in d..13 {
                            let cards = [a, b, c, d, e].map(|r| five_of(r)[0]);
                            let m = multiset_index(&cards);
                            assert!(!seen[m], "{m} twice");
                            seen[m] = true;
                        }
                    }
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!((0..MULTISETS).filter(|&m| five_of_a_kind(m)).count(), 13);
    }

    #[test]
    fn round_trip_and_lookup() {
        let bytes = Niuniu::to_bytes(42, &tiny_payload()).unwrap();
        let table = Niuniu::from_bytes(&bytes).unwrap();
        assert_eq!(table.header().rules_hash, 42);
        assert_eq!(table.header().format_version, format::FORMAT_VERSION);
        // Cards 0..=4 are the colex-first hand: ranks 2222 3 (multiset 1, category
        // "high"), tie-break card 3d (suit 0), so slot 4.
        let cards = crate::parse_cards("2d 2c 2h 2s 3d").unwrap();
        let hand = table.lookup(&cards).unwrap();
        assert_eq!(hand.index, 0);
        assert_eq!((hand.category, hand.category_rank), ("high", 1));
        assert_eq!(hand.strength, 52 + u16::from(tie_order(cards[4])));
        assert_eq!(hand.wins, 4);
        assert_eq!(
            hand.banker_ev,
            (4 - 10_000) as f64 / f64::from(OPPONENT_HANDS)
        );
        // Order does not matter; the index accessors give the same answers.
        let shuffled = crate::parse_cards("3d 2s 2h 2c 2d").unwrap();
        assert_eq!(table.lookup(&shuffled).unwrap(), hand);
        let last = crate::parse_cards("As Ah Ac Ad Ks").unwrap();
        let hand = table.lookup(&last).unwrap();
        assert_eq!(hand.index as usize, HANDS - 1);
        for index in (0..HANDS as u32).step_by(9_973) {
            let mut cards = [Card::from_id(0).unwrap(); 5];
            colex::unrank(index, 5, &mut cards);
            let hand = table.lookup(&cards).unwrap();
            assert_eq!(table.strength_at(index), Some(hand.strength));
            assert_eq!(table.wins_at(index), Some(hand.wins));
            assert_eq!(table.banker_ev_at(index), Some(hand.banker_ev));
            assert_eq!(table.win_probability_at(index), Some(hand.win_probability));
            assert_eq!(
                table.category_at(index).map(|c| c.name.as_str()),
                Some(hand.category)
            );
        }
        assert!(table.win_probability_at(HANDS as u32).is_none());
        assert!(table.banker_ev_at(u32::MAX).is_none());
    }

    #[test]
    fn lookup_rejects_bad_hands() {
        let bytes = Niuniu::to_bytes(1, &tiny_payload()).unwrap();
        let table = Niuniu::from_bytes(&bytes).unwrap();
        let dup = [Card::from_id(3).unwrap(); 5];
        assert!(matches!(
            table.lookup(&dup),
            Err(CardError::Duplicate { .. })
        ));
        assert!(matches!(
            table.lookup(&dup[..4]),
            Err(CardError::WrongCount { .. })
        ));
    }

    #[test]
    fn invalid_payloads_are_refused() {
        let refused = |p: &NiuniuPayload| {
            let bytes = format::write_table(Game::Niuniu, 1, p).unwrap();
            matches!(Niuniu::from_bytes(&bytes), Err(TableError::Invalid(_)))
                && matches!(Niuniu::to_bytes(1, p), Err(TableError::Invalid(_)))
        };
        let mut p = tiny_payload();
        p.multiset_category[7] = 2;
        assert!(refused(&p), "a category beyond the list");
        let mut p = tiny_payload();
        p.multiset_category[0] = 0;
        assert!(refused(&p), "a five-of-a-kind with a category");
        let mut p = tiny_payload();
        p.wins.pop();
        assert!(refused(&p), "a short list");
        let mut p = tiny_payload();
        p.wins[5] = OPPONENT_HANDS + 1;
        assert!(refused(&p), "more wins than opponents");
        let mut p = tiny_payload();
        p.banker[5] = -2 * i64::from(OPPONENT_HANDS) - 1;
        assert!(refused(&p), "a banker result beyond the largest multiplier");
    }

    #[test]
    fn version_one_files_are_refused_with_what_to_do() {
        let mut bytes = Niuniu::to_bytes(1, &tiny_payload()).unwrap();
        bytes[8] = 1;
        let err = Niuniu::from_bytes(&bytes).unwrap_err().to_string();
        assert!(
            err.contains("version 1 Niuniu table") && err.contains("regenerate"),
            "{err}"
        );
    }

    /// Hands of text, sorted, as the table files index them.
    fn sorted(text: &str) -> [Card; 5] {
        let mut cards: [Card; 5] = crate::parse_cards(text).unwrap().try_into().unwrap();
        cards.sort();
        cards
    }

    #[test]
    fn bombs_are_settled_by_the_rule_the_table_names() {
        let low_kicker = sorted("3d 3c 3h 3s 4d");
        let high_kicker = sorted("2d 2c 2h 2s Kd");
        let mut p = tiny_payload();
        p.categories[1].name = BOMB.into();
        p.multiset_category[multiset_index(&low_kicker)] = 1;
        p.multiset_category[multiset_index(&high_kicker)] = 1;
        p.wins[multiset_index(&low_kicker) * 4 + 3] = 7;
        let table = Niuniu::from_bytes(Niuniu::to_bytes(1, &p).unwrap()).unwrap();
        let (three, two) = (
            table.lookup(&low_kicker).unwrap(),
            table.lookup(&high_kicker).unwrap(),
        );
        // The fours decide: 3333 4 beats 2222 K, and the ♠ of the four is the tie card.
        assert!(three.strength > two.strength);
        assert_eq!(three.tie_break.to_string(), "3s");
        assert_eq!(three.wins, 7, "the entry of the four's ♠");
        p.bomb_order = BombOrder::HighCard;
        let table = Niuniu::from_bytes(Niuniu::to_bytes(1, &p).unwrap()).unwrap();
        let (three, two) = (
            table.lookup(&low_kicker).unwrap(),
            table.lookup(&high_kicker).unwrap(),
        );
        assert!(three.strength < two.strength, "the king decides");
        assert_eq!(two.tie_break.to_string(), "Kd");
    }

    #[test]
    fn version_three_files_settle_bombs_by_the_highest_card() {
        let p = tiny_payload();
        // A version 3 payload: the same fields without `bomb_order`.
        let old = (
            &p.rules,
            &p.categories,
            &p.multiset_category,
            &p.wins,
            &p.banker,
        );
        let mut bytes = format::write_table(Game::Niuniu, 1, &old).unwrap();
        bytes[8] = 3;
        let table = Niuniu::from_bytes(&bytes).unwrap();
        assert_eq!(table.header().format_version, 3);
        assert_eq!(table.payload.bomb_order, BombOrder::HighCard);
        assert_eq!(table.payload.wins, p.wins);
        // Read as version 4, the same bytes are one field short: an error, not a panic.
        bytes[8] = 4;
        assert!(Niuniu::from_bytes(&bytes).is_err());
    }
}
