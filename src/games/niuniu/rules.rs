//! Niuniu rule sets: which special hands exist, in what order, and what each category pays.
//!
//! Field names and defaults are those of `docs/rules/niuniu.md`; every field may be omitted.

use serde::{Deserialize, Serialize};

pub use cardtables::niuniu::BombOrder;

use crate::job::{JobError, JobSpec};

/// A special hand that outranks bull-bull when listed in `special_hands`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Special {
    /// 五小牛: all five cards below 5 and a total of at most `five_small_max_total`.
    FiveSmall,
    /// 炸弹: four cards of one rank.
    Bomb,
    /// 五花牛: five J/Q/K.
    FiveFace,
    /// 四花牛: four J/Q/K and one 10.
    FourFace,
}

/// A named payout table to start from; `multipliers` overrides single entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum PayoutTable {
    /// The tutorial article's table: 无牛 1, 牛1..牛9 2..10, 牛牛 15, 四花 20, 五花 25 (it has
    /// no entry for five_small or bomb). Older job files call it `"seed"`, still read.
    #[default]
    #[serde(alias = "seed")]
    Article,
    /// A common real table: 无牛–牛6 ×1, 牛7–牛9 ×2, 牛牛 ×3, 四花 ×4, 五花/炸弹/五小 ×5.
    Common,
}

/// Per-category multiplier overrides (`[rules.multipliers]`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct Multipliers {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_bull: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bull_1: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bull_2: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bull_3: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bull_4: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bull_5: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bull_6: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bull_7: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bull_8: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bull_9: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bull_bull: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub four_face: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub five_face: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bomb: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub five_small: Option<u32>,
}

impl Multipliers {
    fn by_code(&self) -> [Option<u32>; CODES] {
        [
            self.no_bull,
            self.bull_1,
            self.bull_2,
            self.bull_3,
            self.bull_4,
            self.bull_5,
            self.bull_6,
            self.bull_7,
            self.bull_8,
            self.bull_9,
            self.bull_bull,
            self.four_face,
            self.five_face,
            self.bomb,
            self.five_small,
        ]
    }
}

/// The `[rules]` table of a Niuniu job.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NiuniuRules {
    /// Special hands from strongest to weakest; all outrank 牛牛.
    pub special_hands: Vec<Special>,
    /// Highest total a 五小牛 may have.
    pub five_small_max_total: u8,
    /// When true the banker wins every category tie (no high-card tie-break) in `banker_ev`.
    pub banker_wins_ties: bool,
    /// How two bombs are settled: by the four of a kind's rank (the default) or, like the
    /// other categories, by the highest card.
    pub bomb_order: BombOrder,
    /// Base payout table.
    pub payout_table: PayoutTable,
    /// Overrides of single multipliers.
    pub multipliers: Multipliers,
}

impl Default for NiuniuRules {
    fn default() -> Self {
        NiuniuRules {
            special_hands: vec![Special::FiveFace, Special::FourFace],
            five_small_max_total: 10,
            banker_wins_ties: false,
            bomb_order: BombOrder::QuadRank,
            payout_table: PayoutTable::Article,
            multipliers: Multipliers::default(),
        }
    }
}

/// Number of category codes (see [`code_name`]).
pub const CODES: usize = 15;
/// Code of 无牛.
pub const NO_BULL: u8 = 0;
/// Code of 牛牛 (牛k is code k for k = 1..=9).
pub const BULL_BULL: u8 = 10;
/// Code of 四花牛.
pub const FOUR_FACE: u8 = 11;
/// Code of 五花牛.
pub const FIVE_FACE: u8 = 12;
/// Code of 炸弹.
pub const BOMB: u8 = 13;
/// Code of 五小牛.
pub const FIVE_SMALL: u8 = 14;

const NAMES: [&str; CODES] = [
    "no_bull",
    "bull_1",
    "bull_2",
    "bull_3",
    "bull_4",
    "bull_5",
    "bull_6",
    "bull_7",
    "bull_8",
    "bull_9",
    "bull_bull",
    "four_face",
    "five_face",
    "bomb",
    "five_small",
];
const NAMES_ZH: [&str; CODES] = [
    "无牛",
    "牛一",
    "牛二",
    "牛三",
    "牛四",
    "牛五",
    "牛六",
    "牛七",
    "牛八",
    "牛九",
    "牛牛",
    "四花牛",
    "五花牛",
    "炸弹",
    "五小牛",
];

/// Stable snake_case name of a category code.
pub fn code_name(code: u8) -> &'static str {
    NAMES[usize::from(code)]
}

/// Chinese name of a category code.
pub fn code_name_zh(code: u8) -> &'static str {
    NAMES_ZH[usize::from(code)]
}

impl Special {
    /// The category code this special hand produces.
    pub fn code(self) -> u8 {
        match self {
            Special::FiveSmall => FIVE_SMALL,
            Special::Bomb => BOMB,
            Special::FiveFace => FIVE_FACE,
            Special::FourFace => FOUR_FACE,
        }
    }
}

impl PayoutTable {
    fn multipliers(self) -> [Option<u32>; CODES] {
        match self {
            PayoutTable::Article => {
                let mut m = [None; CODES];
                m[0] = Some(1);
                for (k, slot) in m.iter_mut().enumerate().take(10).skip(1) {
                    *slot = Some(k as u32 + 1);
                }
                m[usize::from(BULL_BULL)] = Some(15);
                m[usize::from(FOUR_FACE)] = Some(20);
                m[usize::from(FIVE_FACE)] = Some(25);
                m
            }
            PayoutTable::Common => {
                let mut m = [Some(1); CODES];
                for slot in &mut m[7..10] {
                    *slot = Some(2);
                }
                m[usize::from(BULL_BULL)] = Some(3);
                m[usize::from(FOUR_FACE)] = Some(4);
                m[usize::from(FIVE_FACE)] = Some(5);
                m[usize::from(BOMB)] = Some(5);
                m[usize::from(FIVE_SMALL)] = Some(5);
                m
            }
        }
    }
}

/// A validated rule set, resolved into the order and payouts the computation uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ranking {
    pub rules: NiuniuRules,
    /// Category rank of each code (0 = weakest), or `None` when the code is not in play.
    pub rank_of_code: [Option<u8>; CODES],
    /// Codes in play, weakest first: index = category rank.
    pub codes_by_rank: Vec<u8>,
    /// Multiplier of each code in play (0 for codes not in play).
    pub multiplier_of_code: [u32; CODES],
}

impl Ranking {
    /// Whether two bombs are settled by their fours' rank rather than the highest card.
    pub fn quad_rank_bombs(&self) -> bool {
        self.rules.bomb_order == BombOrder::QuadRank
    }

    /// Validates rules read from `spec` (errors point into the job file).
    pub fn from_spec(spec: &JobSpec) -> Result<Ranking, JobError> {
        let rules: NiuniuRules = spec.rules()?;
        Ranking::new(rules).map_err(|(field, message)| spec.field_error(&field, message))
    }

    /// Validates a rule set; an error names the field and says what is allowed.
    pub fn new(rules: NiuniuRules) -> Result<Ranking, (String, String)> {
        for (i, s) in rules.special_hands.iter().enumerate() {
            if rules.special_hands[..i].contains(s) {
                return Err((
                    "rules.special_hands".into(),
                    format!(
                        "`{}` is listed twice; list each special hand at most once, strongest first",
                        code_name(s.code())
                    ),
                ));
            }
        }
        if !(5..=20).contains(&rules.five_small_max_total) {
            return Err((
                "rules.five_small_max_total".into(),
                format!(
                    "{} is out of range: five cards below 5 total 5 to 20, so use 5..=20 (default 10)",
                    rules.five_small_max_total
                ),
            ));
        }
        let mut codes_by_rank: Vec<u8> = (NO_BULL..=BULL_BULL).collect();
        codes_by_rank.extend(rules.special_hands.iter().rev().map(|s| s.code()));
        let mut rank_of_code = [None; CODES];
        for (rank, &code) in codes_by_rank.iter().enumerate() {
            rank_of_code[usize::from(code)] = Some(rank as u8);
        }
        let base = rules.payout_table.multipliers();
        let overrides = rules.multipliers.by_code();
        let mut multiplier_of_code = [0u32; CODES];
        for &code in &codes_by_rank {
            let c = usize::from(code);
            let m = overrides[c].or(base[c]).ok_or_else(|| (
                "rules.multipliers".to_string(),
                format!(
                    "`{}` is in play but payout_table = \"{}\" has no multiplier for it: set `{}` in [rules.multipliers] or use payout_table = \"common\"",
                    NAMES[c],
                    match rules.payout_table {
                        PayoutTable::Article => "article",
                        PayoutTable::Common => "common",
                    },
                    NAMES[c]
                ),
            ))?;
            if !(1..=1000).contains(&m) {
                return Err((
                    format!("rules.multipliers.{}", NAMES[c]),
                    format!("{m} is out of range: use 1..=1000"),
                ));
            }
            multiplier_of_code[c] = m;
        }
        Ok(Ranking {
            rules,
            rank_of_code,
            codes_by_rank,
            multiplier_of_code,
        })
    }

    /// Category rank of a code in play.
    pub fn rank(&self, code: u8) -> u8 {
        self.rank_of_code[usize::from(code)].expect("only codes in play are produced")
    }

    /// The resolved rule set as TOML: what a table or report says it was computed under.
    pub fn canonical_toml(&self) -> String {
        #[derive(Serialize)]
        struct Canonical<'a> {
            special_hands: &'a [Special],
            five_small_max_total: u8,
            banker_wins_ties: bool,
            /// Only where bombs are in play: elsewhere it changes nothing.
            #[serde(skip_serializing_if = "Option::is_none")]
            bomb_order: Option<BombOrder>,
            payout_table: PayoutTable,
            multipliers: std::collections::BTreeMap<&'static str, u32>,
        }
        let multipliers = self
            .codes_by_rank
            .iter()
            .map(|&c| (code_name(c), self.multiplier_of_code[usize::from(c)]))
            .collect();
        toml::to_string(&Canonical {
            special_hands: &self.rules.special_hands,
            five_small_max_total: self.rules.five_small_max_total,
            banker_wins_ties: self.rules.banker_wins_ties,
            bomb_order: self
                .rules
                .special_hands
                .contains(&Special::Bomb)
                .then_some(self.rules.bomb_order),
            payout_table: self.rules.payout_table,
            multipliers,
        })
        .expect("plain data serializes")
    }
}

/// The `[bidding]` table of a `niuniu.bidding` job: the table and its bids, how closely
/// to solve the bidding equilibrium, and how hard to check it on tables dealt from one
/// deck.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BiddingSettings {
    /// Players the banker faces: the table seats `players + 1`.
    pub players: u8,
    /// The banker multipliers a player may bid, increasing (no bid is always possible).
    pub bids: Vec<u32>,
    /// The solve stops once no class gains more than this per hand (stakes) by changing
    /// its bids.
    pub target_exploitability: f64,
    /// Most fictitious-play rounds of the solve.
    pub max_rounds: u32,
    /// Simulated tables dealt from one deck per class, to measure what the independent
    /// seats of the exact model leave out (0: no check).
    pub check_deals_per_class: u32,
}

impl Default for BiddingSettings {
    fn default() -> Self {
        BiddingSettings {
            players: 4,
            bids: vec![1, 2, 3, 4],
            target_exploitability: 1e-9,
            max_rounds: 100_000,
            check_deals_per_class: 100_000,
        }
    }
}

/// Most fictitious-play rounds a bidding job may ask for.
pub const MAX_ROUNDS: u32 = 1_000_000;
/// Fewest and most one-deck check tables per class (besides 0, no check).
pub const CHECK_DEALS_PER_CLASS: std::ops::RangeInclusive<u32> = 100..=10_000_000;
/// Smallest and largest exploitability target, stakes per hand.
pub const TARGET_EXPLOITABILITY: std::ops::RangeInclusive<f64> = 1e-12..=1.0;

impl BiddingSettings {
    /// Reads and checks `[bidding]`; an error names the field and says what is allowed.
    pub fn from_spec(spec: &JobSpec) -> Result<BiddingSettings, JobError> {
        #[derive(Deserialize)]
        struct Sections {
            #[serde(default)]
            bidding: Option<BiddingSettings>,
        }
        let s = spec.deserialize::<Sections>()?.bidding.unwrap_or_default();
        let field =
            |name: &str, message: String| spec.field_error(&format!("bidding.{name}"), message);
        use cardtables::niuniu_bidding::{MAX_BID, MAX_BIDS, MAX_PLAYERS};
        if !(1..=MAX_PLAYERS).contains(&s.players) {
            return Err(field(
                "players",
                format!(
                    "{} players: a banker faces 1 to {MAX_PLAYERS} (a table of 2 to 6 seats)",
                    s.players
                ),
            ));
        }
        if s.bids.is_empty()
            || s.bids.len() > MAX_BIDS
            || s.bids.windows(2).any(|w| w[0] >= w[1])
            || s.bids.iter().any(|b| !(1..=MAX_BID).contains(b))
        {
            return Err(field(
                "bids",
                format!(
                    "{:?}: list 1 to {MAX_BIDS} banker multipliers, increasing, each 1 to {MAX_BID} (not bidding is always allowed; default [1, 2, 3, 4])",
                    s.bids
                ),
            ));
        }
        if !TARGET_EXPLOITABILITY.contains(&s.target_exploitability) {
            return Err(field(
                "target_exploitability",
                format!(
                    "{}: use {:e} to {} stakes per hand (default 1e-9)",
                    s.target_exploitability,
                    TARGET_EXPLOITABILITY.start(),
                    TARGET_EXPLOITABILITY.end()
                ),
            ));
        }
        if !(1..=MAX_ROUNDS).contains(&s.max_rounds) {
            return Err(field(
                "max_rounds",
                format!(
                    "{}: use 1 to {MAX_ROUNDS} fictitious-play rounds (default 100000)",
                    s.max_rounds
                ),
            ));
        }
        if s.check_deals_per_class != 0 && !CHECK_DEALS_PER_CLASS.contains(&s.check_deals_per_class)
        {
            return Err(field(
                "check_deals_per_class",
                format!(
                    "{}: use 0 (no check) or {} to {} simulated tables per class",
                    s.check_deals_per_class,
                    CHECK_DEALS_PER_CLASS.start(),
                    CHECK_DEALS_PER_CLASS.end()
                ),
            ));
        }
        Ok(s)
    }

    /// The settings as the outputs record them, after the rules.
    pub fn canonical_toml(&self) -> String {
        #[derive(Serialize)]
        struct Section<'a> {
            bidding: &'a BiddingSettings,
        }
        toml::to_string(&Section { bidding: self }).expect("plain data serializes")
    }
}

/// The `[multiway]` table of a `niuniu.multiway` job: how many deals each slot plays.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MultiwaySettings {
    /// Deals of five other hands per slot (rank multiset and tie-break suit).
    pub deals_per_slot: u32,
    /// Strength bands of the summary and the report: equal shares of all hands.
    pub strength_bands: u32,
}

impl Default for MultiwaySettings {
    fn default() -> Self {
        MultiwaySettings {
            deals_per_slot: 30_000,
            strength_bands: 10,
        }
    }
}

/// Fewest and most deals per slot.
pub const DEALS_PER_SLOT: std::ops::RangeInclusive<u32> = 100..=100_000_000;

impl MultiwaySettings {
    /// Reads and checks `[multiway]`; an error names the field and says what is allowed.
    pub fn from_spec(spec: &JobSpec) -> Result<MultiwaySettings, JobError> {
        #[derive(Deserialize)]
        struct Sections {
            #[serde(default)]
            multiway: Option<MultiwaySettings>,
        }
        let s = spec.deserialize::<Sections>()?.multiway.unwrap_or_default();
        if !DEALS_PER_SLOT.contains(&s.deals_per_slot) {
            return Err(spec.field_error(
                "multiway.deals_per_slot",
                format!(
                    "{}: use {} to {} deals per slot",
                    s.deals_per_slot,
                    DEALS_PER_SLOT.start(),
                    DEALS_PER_SLOT.end()
                ),
            ));
        }
        if !(1..=100).contains(&s.strength_bands) {
            return Err(spec.field_error(
                "multiway.strength_bands",
                format!("{}: use 1 to 100 bands", s.strength_bands),
            ));
        }
        Ok(s)
    }

    /// The settings as the outputs record them, after the rules.
    pub fn canonical_toml(&self) -> String {
        #[derive(Serialize)]
        struct Section<'a> {
            multiway: &'a MultiwaySettings,
        }
        toml::to_string(&Section { multiway: self }).expect("plain data serializes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_order_is_the_tutorials() {
        let r = Ranking::new(NiuniuRules::default()).unwrap();
        assert_eq!(r.codes_by_rank.len(), 13);
        assert!(r.rank(FIVE_FACE) > r.rank(FOUR_FACE));
        assert!(r.rank(FOUR_FACE) > r.rank(BULL_BULL));
        assert_eq!(r.rank_of_code[usize::from(BOMB)], None);
        assert_eq!(r.multiplier_of_code[9], 10);
        assert_eq!(r.multiplier_of_code[usize::from(FIVE_FACE)], 25);
    }

    #[test]
    fn the_article_table_is_also_read_under_its_old_name() {
        for name in ["article", "seed"] {
            let rules: NiuniuRules = toml::from_str(&format!("payout_table = \"{name}\"")).unwrap();
            assert_eq!(rules.payout_table, PayoutTable::Article);
        }
        let written = Ranking::new(NiuniuRules::default())
            .unwrap()
            .canonical_toml();
        assert!(written.contains("payout_table = \"article\""), "{written}");
    }

    #[test]
    fn extended_set_needs_multipliers() {
        let rules = NiuniuRules {
            special_hands: vec![
                Special::FiveSmall,
                Special::Bomb,
                Special::FiveFace,
                Special::FourFace,
            ],
            ..NiuniuRules::default()
        };
        let (field, msg) = Ranking::new(rules.clone()).unwrap_err();
        assert_eq!(field, "rules.multipliers");
        assert!(msg.contains("`bomb`"), "{msg}");
        let common = Ranking::new(NiuniuRules {
            payout_table: PayoutTable::Common,
            ..rules
        })
        .unwrap();
        assert_eq!(common.codes_by_rank.last(), Some(&FIVE_SMALL));
        assert_eq!(common.multiplier_of_code[7], 2);
        assert_eq!(common.multiplier_of_code[6], 1);
    }

    #[test]
    fn duplicates_and_ranges_are_refused() {
        let rules = NiuniuRules {
            special_hands: vec![Special::Bomb, Special::Bomb],
            ..NiuniuRules::default()
        };
        assert_eq!(Ranking::new(rules).unwrap_err().0, "rules.special_hands");
        let rules = NiuniuRules {
            five_small_max_total: 3,
            ..NiuniuRules::default()
        };
        assert_eq!(
            Ranking::new(rules).unwrap_err().0,
            "rules.five_small_max_total"
        );
    }
}
