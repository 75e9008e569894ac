//! O(1) answers for the see-four-cards game (看牌抢庄) from a `niuniu_bidding.bin` table
//! (job kind `niuniu.bidding`): for every four seen cards, the exact distribution of the
//! final category over the 48 unseen fifth cards, the exact EV as a player and as the
//! banker, and the bid the job's bidding model suggests.
//!
//! EVs are per stake (one player bet at ×1): as a player against a banker whose five
//! cards are dealt from the unseen cards, and as the banker against one such player and
//! against the job's whole table (by linearity, `players` times the one-player EV: each
//! player's hand, given the banker's, is a uniform draw from the same unseen cards).
//! The bids are the job's bidding equilibrium: per four-rank class, the share of the time
//! each bid is made and its exact value against the other seats bidding the same way,
//! with the equilibrium's exploitability, its certificate (see `docs/rules/niuniu.md` for
//! the model).

use serde::{Deserialize, Serialize};

use crate::card::{Card, CardError};
use crate::colex;
use crate::format::{self, Game, Layout, TableError, TableHeader};
use crate::niuniu::{CategoryInfo, OPPONENT_HANDS};

/// Number of four-card hands, C(52, 4).
pub const FOUR_HANDS: usize = 270_725;
/// Number of rank multisets of four cards, C(16, 4): the classes the bidding model plays.
pub const CLASSES: usize = 1_820;
/// Unseen fifth cards of a four-card hand.
pub const FIFTH_CARDS: u8 = 48;
/// Most players a banker can face (a six-seat table).
pub const MAX_PLAYERS: u8 = 5;
/// Most bid multipliers a table may offer.
pub const MAX_BIDS: usize = 8;
/// Largest bid multiplier.
pub const MAX_BID: u32 = 100;
/// Largest category multiplier a table may hold (as the pipeline's rules allow).
const MAX_MULTIPLIER: u32 = 1000;

/// The payload of a bidding table file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NiuniuBiddingPayload {
    /// The rules and bidding settings the table was computed under, as TOML text.
    pub rules: String,
    /// Categories from weakest to strongest, as in [`crate::niuniu::NiuniuPayload`].
    #[serde(deserialize_with = "format::bounded_vec")]
    pub categories: Vec<CategoryInfo>,
    /// Players the banker faces (the table seats `players + 1`).
    pub players: u8,
    /// The banker multipliers a player may bid, increasing; bid level `k ≥ 1` is
    /// `bids[k − 1]`, level 0 is no bid.
    #[serde(deserialize_with = "format::bounded_vec")]
    pub bids: Vec<u32>,
    /// Per four-card hand (colex index) and category rank, `[hand · categories + rank]`:
    /// how many of the 48 fifth cards give that category.
    #[serde(deserialize_with = "format::bounded_vec")]
    pub fifth_cards: Vec<u8>,
    /// Per four-card hand: the banker's summed result in stakes against one player over
    /// the 48 fifth cards and the C(47,5) player hands each leaves; ÷ (48 · C(47,5)) it
    /// is the banker EV per stake.
    #[serde(deserialize_with = "format::bounded_vec")]
    pub banker: Vec<i64>,
    /// Per four-card hand: the same for the hand as a player against a banker.
    #[serde(deserialize_with = "format::bounded_vec")]
    pub player: Vec<i64>,
    /// Per class ([`class_of`]): the level the equilibrium bids most often.
    #[serde(deserialize_with = "format::bounded_vec")]
    pub class_bid: Vec<u8>,
    /// Per class and bid level, `[class · (bids + 1) + level]`: the exact EV per stake of
    /// bidding that level while every other seat plays the equilibrium.
    #[serde(deserialize_with = "format::bounded_vec")]
    pub class_ev: Vec<f64>,
    /// Per class and bid level, as `class_ev`: the share of the time the equilibrium bids
    /// that level (each class's shares sum to 1).
    #[serde(deserialize_with = "format::bounded_vec")]
    pub class_share: Vec<f64>,
    /// The equilibrium's certificate: the most one seat gains per hand, in stakes, by
    /// bidding otherwise with its four cards while the others keep the equilibrium.
    pub exploitability: f64,
}

/// What the table says about four seen cards.
#[derive(Clone, Debug, PartialEq)]
pub struct BiddingAnswer<'a> {
    /// Colex index of the four cards.
    pub index: u32,
    /// The rank-multiset class the bidding model plays ([`class_of`]).
    pub rank_class: u16,
    /// Fifth cards (of 48) giving each category, weakest category first (names in
    /// [`NiuniuBidding::categories`]).
    pub fifth_cards: &'a [u8],
    /// Exact EV per stake as a player at ×1 against a banker dealt from the unseen cards.
    pub player_ev: f64,
    /// Exact EV per stake as the banker at ×1 against one player.
    pub banker_ev: f64,
    /// Exact EV as the banker at ×1 against the whole table, in single-player stakes.
    pub banker_ev_table: f64,
    /// The suggested bid: the multiplier the equilibrium bids most often with this
    /// hand's class, or 0 for no bid.
    pub bid: u32,
    /// Exact EV per stake of each bid level (0 = no bid, then each multiplier) against
    /// the other seats playing the equilibrium.
    pub bid_evs: &'a [f64],
    /// The share of the time the equilibrium bids each level with this hand's class.
    pub bid_shares: &'a [f64],
}

/// A loaded, validated bidding table.
#[derive(Clone, Debug)]
pub struct NiuniuBidding {
    header: TableHeader,
    payload: NiuniuBiddingPayload,
}

/// Index of the rank multiset of four cards given in increasing id order (so their ranks,
/// 0 = 2 … 12 = A, are non-decreasing): `Σ C(r_i + i, i + 1)`, in `0..`[`CLASSES`].
///
/// ```
/// use cardtables::niuniu_bidding::{class_of, CLASSES};
/// let four = |t: &str| <[_; 4]>::try_from(cardtables::parse_cards(t).unwrap()).unwrap();
/// assert_eq!(class_of(&four("2d 2c 2h 2s")), 0);
/// assert_eq!(class_of(&four("Ad Ac Ah As")), CLASSES - 1);
/// ```
pub fn class_of(sorted: &[Card; 4]) -> usize {
    sorted
        .iter()
        .enumerate()
        .map(|(i, c)| colex::binomial(usize::from(c.rank()) + i, i + 1) as usize)
        .sum()
}

fn validate(p: &NiuniuBiddingPayload) -> Result<(), TableError> {
    let invalid = |msg: &str| Err(TableError::Invalid(msg.into()));
    let cats = p.categories.len();
    if !(2..=15).contains(&cats)
        || p.categories
            .iter()
            .any(|c| !(1..=MAX_MULTIPLIER).contains(&c.multiplier) || c.name.len() > 32)
    {
        return invalid("a rule set has 2 to 15 categories, each paying ×1 to ×1000");
    }
    if !(1..=MAX_PLAYERS).contains(&p.players) {
        return invalid("a banker faces 1 to 5 players");
    }
    if p.bids.is_empty()
        || p.bids.len() > MAX_BIDS
        || p.bids.windows(2).any(|w| w[0] >= w[1])
        || p.bids.iter().any(|b| !(1..=MAX_BID).contains(b))
    {
        return invalid("the bids are 1 to 8 increasing multipliers between 1 and 100");
    }
    if p.fifth_cards.len() != FOUR_HANDS * cats
        || p.banker.len() != FOUR_HANDS
        || p.player.len() != FOUR_HANDS
    {
        return invalid("every four-card hand needs its fifth-card counts and EVs");
    }
    if p.fifth_cards
        .chunks_exact(cats)
        .any(|c| c.iter().map(|&n| u32::from(n)).sum::<u32>() != u32::from(FIFTH_CARDS))
    {
        return invalid("each hand's fifth-card counts must sum to 48");
    }
    let top = p.categories.iter().map(|c| c.multiplier).max().unwrap_or(1);
    let bound = i64::from(FIFTH_CARDS) * i64::from(OPPONENT_HANDS) * i64::from(top);
    if p.banker.iter().chain(&p.player).any(|v| v.abs() > bound) {
        return invalid("an EV numerator exceeds the largest multiplier on every deal");
    }
    let levels = p.bids.len() + 1;
    if p.class_bid.len() != CLASSES
        || p.class_ev.len() != CLASSES * levels
        || p.class_share.len() != CLASSES * levels
    {
        return invalid("every class needs a bid, and an EV and a share per bid level");
    }
    if p.class_bid.iter().any(|&b| usize::from(b) >= levels) {
        return invalid("a suggested bid level is not one of the table's bids");
    }
    if p.class_ev.iter().any(|v| !v.is_finite()) {
        return invalid("bid EVs must be finite");
    }
    // Shares are probabilities summing to 1 per class (to rounding).
    if p.class_share.chunks(levels).any(|row| {
        row.iter().any(|s| !(0.0..=1.0).contains(s)) || (row.iter().sum::<f64>() - 1.0).abs() > 1e-9
    }) {
        return invalid("each class's bid shares must lie in 0..=1 and sum to 1");
    }
    if !(p.exploitability.is_finite() && p.exploitability >= 0.0) {
        return invalid("the exploitability must be finite and not negative");
    }
    Ok(())
}

format::table_file!(
    NiuniuBidding,
    NiuniuBiddingPayload,
    Game::NiuniuBidding,
    read_payload
);

/// The payload, read field by field in its documented layout (what [`format::decode`]
/// reads, one bulk copy per array). Versions 5 and older hold simulated bids of a model
/// that had not converged, so they are refused with what to do.
fn read_payload(version: u16, payload: &[u8]) -> Result<NiuniuBiddingPayload, TableError> {
    if version < 6 {
        return Err(TableError::Invalid(format!(
            "a format version {version} Niuniu bidding table holds simulated bids, not the \
             certified equilibrium: regenerate it with `pipeline run`"
        )));
    }
    let mut r = Layout::new(payload);
    let rules = r.string("rules")?;
    // A category is at least its name's 8-byte length and a 4-byte multiplier.
    let categories = r.list("categories", 12, |r| {
        Ok(CategoryInfo {
            name: r.string("category name")?,
            multiplier: r.u32("category multiplier")?,
        })
    })?;
    let players = r.u8("players")?;
    let bids = r.u32s("bids")?;
    let fifth_cards = r.u8s("fifth_cards")?;
    let banker = r.i64s("banker")?;
    let player = r.i64s("player")?;
    let class_bid = r.u8s("class_bid")?;
    let class_ev = r.f64s("class_ev")?;
    let class_share = r.f64s("class_share")?;
    let exploitability = r.f64("exploitability")?;
    r.finish()?;
    Ok(NiuniuBiddingPayload {
        rules,
        categories,
        players,
        bids,
        fifth_cards,
        banker,
        player,
        class_bid,
        class_ev,
        class_share,
        exploitability,
    })
}

impl NiuniuBidding {
    /// Categories from weakest to strongest.
    pub fn categories(&self) -> &[CategoryInfo] {
        &self.payload.categories
    }

    /// Players the banker faces.
    pub fn players(&self) -> u8 {
        self.payload.players
    }

    /// The banker multipliers a player may bid, increasing.
    pub fn bids(&self) -> &[u32] {
        &self.payload.bids
    }

    /// Everything about four distinct seen cards, in O(1).
    pub fn lookup(&self, cards: &[Card]) -> Result<BiddingAnswer<'_>, CardError> {
        let four: [Card; 4] = cards.try_into().map_err(|_| CardError::WrongCount {
            expected: 4,
            found: cards.len(),
        })?;
        let sorted = colex::sort_cards(four);
        if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
            return Err(CardError::Duplicate { card: w[0] });
        }
        let index = colex::index_sorted(&sorted);
        let class = class_of(&sorted);
        let p = &self.payload;
        let (hand, cats, levels) = (index as usize, p.categories.len(), p.bids.len() + 1);
        let denominator = f64::from(FIFTH_CARDS) * f64::from(OPPONENT_HANDS);
        let banker_ev = p.banker[hand] as f64 / denominator;
        let level = usize::from(p.class_bid[class]);
        Ok(BiddingAnswer {
            index,
            rank_class: class as u16,
            fifth_cards: &p.fifth_cards[hand * cats..(hand + 1) * cats],
            player_ev: p.player[hand] as f64 / denominator,
            banker_ev,
            banker_ev_table: f64::from(p.players) * banker_ev,
            bid: if level == 0 { 0 } else { p.bids[level - 1] },
            bid_evs: &p.class_ev[class * levels..(class + 1) * levels],
            bid_shares: &p.class_share[class * levels..(class + 1) * levels],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_cards;

    fn payload() -> NiuniuBiddingPayload {
        let categories = vec![
            CategoryInfo {
                name: "no_bull".into(),
                multiplier: 1,
            },
            CategoryInfo {
                name: "bull_bull".into(),
                multiplier: 3,
            },
        ];
        NiuniuBiddingPayload {
            rules: String::new(),
            categories,
            players: 4,
            bids: vec![1, 2],
            fifth_cards: (0..FOUR_HANDS)
                .flat_map(|i| [(i % 49) as u8, 48 - (i % 49) as u8])
                .collect(),
            banker: (0..FOUR_HANDS as i64).collect(),
            player: vec![-7; FOUR_HANDS],
            class_bid: (0..CLASSES).map(|c| (c % 3) as u8).collect(),
            class_ev: (0..CLASSES * 3).map(|i| i as f64).collect(),
            class_share: (0..CLASSES * 3)
                .map(|i| if i % 3 == 1 { 1.0 } else { 0.0 })
                .collect(),
            exploitability: 1e-4,
        }
    }

    #[test]
    fn the_layout_reader_reads_what_bincode_reads() {
        format::check_layout_reader(&payload(), read_payload);
    }

    #[test]
    fn lookups_read_the_hand_and_its_class() {
        let t = NiuniuBidding::from_bytes(NiuniuBidding::to_bytes(1, &payload()).unwrap()).unwrap();
        let cards = parse_cards("Ks Qh Jd Tc").unwrap();
        let a = t.lookup(&cards).unwrap();
        let mut sorted: [Card; 4] = cards.clone().try_into().unwrap();
        sorted.sort_unstable();
        assert_eq!(a.index, colex::index_sorted(&sorted));
        assert_eq!(usize::from(a.rank_class), class_of(&sorted));
        let i = a.index as usize;
        assert_eq!(a.fifth_cards, &[(i % 49) as u8, 48 - (i % 49) as u8]);
        let d = 48.0 * f64::from(OPPONENT_HANDS);
        assert_eq!(a.banker_ev, i as f64 / d);
        assert_eq!(a.banker_ev_table, 4.0 * i as f64 / d);
        assert_eq!(a.player_ev, -7.0 / d);
        let level = usize::from(a.rank_class) % 3;
        assert_eq!(a.bid, [0, 1, 2][level]);
        assert_eq!(a.bid_evs[0], (3 * usize::from(a.rank_class)) as f64);
        // The same cards in another order are the same hand.
        let mut shuffled = cards.clone();
        shuffled.reverse();
        assert_eq!(t.lookup(&shuffled).unwrap(), a);
    }

    #[test]
    fn bad_questions_and_bad_tables_are_errors() {
        let t = NiuniuBidding::from_bytes(NiuniuBidding::to_bytes(1, &payload()).unwrap()).unwrap();
        assert!(matches!(
            t.lookup(&parse_cards("Ks Qh Jd").unwrap()),
            Err(CardError::WrongCount {
                expected: 4,
                found: 3
            })
        ));
        assert!(matches!(
            t.lookup(&parse_cards("Ks Qh Jd Tc 9s").unwrap()),
            Err(CardError::WrongCount { .. })
        ));
        let mut twice = parse_cards("Ks Qh Jd Tc").unwrap();
        twice[2] = twice[0];
        assert!(matches!(t.lookup(&twice), Err(CardError::Duplicate { .. })));
        let mut bad = payload();
        bad.fifth_cards[0] += 1;
        assert!(NiuniuBidding::to_bytes(1, &bad).is_err());
        let mut bad = payload();
        bad.class_bid[5] = 3;
        assert!(NiuniuBidding::to_bytes(1, &bad).is_err());
        let mut bad = payload();
        bad.bids = vec![2, 2];
        assert!(NiuniuBidding::to_bytes(1, &bad).is_err());
        let mut bad = payload();
        bad.class_share[0] = f64::NAN;
        assert!(NiuniuBidding::to_bytes(1, &bad).is_err());
        let mut bad = payload();
        bad.class_share[0] = 0.5;
        assert!(NiuniuBidding::to_bytes(1, &bad).is_err());
        let mut bad = payload();
        bad.exploitability = -1.0;
        assert!(NiuniuBidding::to_bytes(1, &bad).is_err());
        // A corrupt byte anywhere is caught by the checksum, a short file by the length.
        let bytes = NiuniuBidding::to_bytes(1, &payload()).unwrap();
        let mut flipped = bytes.clone();
        flipped[1000] ^= 1;
        assert!(NiuniuBidding::from_bytes(&flipped).is_err());
        assert!(NiuniuBidding::from_bytes(&bytes[..bytes.len() - 1]).is_err());
    }
}
