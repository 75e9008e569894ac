//! What the blackjack tables share: ranks and their tabled values, actions, chart rows
//! and cells, hand totals, the card grammar for hands, and the errors of a question.
//! [`blackjack`](crate::blackjack) and [`blackjack_indices`](crate::blackjack_indices)
//! both build on it (and re-export it), so neither imports the other.

use serde::{Deserialize, Serialize};

/// The largest count a question to a count-based table may give.
pub const MAX_COUNT: i32 = 1000;

/// Ranks: ace, 2..9, ten-valued.
pub const RANKS: usize = 10;
/// Actions in the EV table: stand, hit, double, split, surrender.
pub const ACTIONS: usize = 5;
/// Strategy chart rows: hard 4..=21, soft 12..=21, pairs A..T.
pub const CHART_ROWS: usize = 18 + 10 + 10;
/// Marks an empty preference slot in a chart cell.
pub const NO_ACTION: u8 = u8::MAX;

/// A player decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    Stand = 0,
    Hit = 1,
    Double = 2,
    Split = 3,
    Surrender = 4,
}

impl Action {
    pub const ALL: [Action; ACTIONS] = [
        Action::Stand,
        Action::Hit,
        Action::Double,
        Action::Split,
        Action::Surrender,
    ];

    /// The action stored as `code`, if it is one.
    pub fn from_code(code: u8) -> Option<Action> {
        Action::ALL.get(usize::from(code)).copied()
    }

    /// One letter as strategy charts write it: S, H, D, P, R.
    pub fn letter(self) -> char {
        ['S', 'H', 'D', 'P', 'R'][self as usize]
    }

    /// Lower-case word: stand, hit, double, split, surrender.
    pub fn name(self) -> &'static str {
        ["stand", "hit", "double", "split", "surrender"][self as usize]
    }
}

/// One chart cell: actions in order of preference (best first); a player takes the first
/// one the situation allows (no double or surrender after the first two cards, no split
/// beyond the rule set's hand limit).
pub type Cell = [u8; ACTIONS];

/// Row of a chart: hard totals 4..=21, soft 12..=21, or a pair (rank index).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Row {
    Hard(u8),
    Soft(u8),
    Pair(usize),
}

impl Row {
    /// Position of the row in a chart, if the row exists.
    pub fn index(self) -> Option<usize> {
        match self {
            Row::Hard(t @ 4..=21) => Some(usize::from(t) - 4),
            Row::Soft(t @ 12..=21) => Some(18 + usize::from(t) - 12),
            Row::Pair(r) if r < RANKS => Some(28 + r),
            _ => None,
        }
    }

    /// Every row in chart order.
    pub fn all() -> impl Iterator<Item = Row> {
        (4..=21)
            .map(Row::Hard)
            .chain((12..=21).map(Row::Soft))
            .chain((0..RANKS).map(Row::Pair))
    }
}

/// The code charts print for a cell: the first action, then in lower case what to do when
/// it is not allowed (Dh = double, else hit; Rs = surrender, else stand).
pub fn cell_code(cell: &Cell) -> String {
    let actions: Vec<Action> = cell.iter().filter_map(|&c| Action::from_code(c)).collect();
    let Some(&first) = actions.first() else {
        return String::new();
    };
    let mut code = first.letter().to_string();
    let fallback = match first {
        Action::Double => actions[1..]
            .iter()
            .find(|a| matches!(a, Action::Hit | Action::Stand)),
        Action::Surrender => actions[1..]
            .iter()
            .find(|a| matches!(a, Action::Hit | Action::Stand | Action::Split)),
        _ => None,
    };
    if let Some(f) = fallback {
        code.push(f.letter().to_ascii_lowercase());
    }
    code
}

/// Why a blackjack question could not be answered.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum BlackjackQueryError {
    #[error(transparent)]
    Card(#[from] crate::CardError),
    #[error("{0} is not a card rank (ranks are 0 = 2 … 12 = A)")]
    RankOutOfRange(u8),
    #[error("expected one rank for the upcard, got {0}")]
    NotOneRank(usize),
    #[error("no rule set {asked:?} in this table: it has {known}")]
    RuleSet { asked: String, known: String },
    #[error("rule set {index} is not in this table (it has {count})")]
    RuleSetIndex { index: usize, count: usize },
    #[error("{0:?} is not a row of the strategy chart (hard 4-21, soft 12-21, pairs)")]
    NoSuchRow(Row),
    #[error("a hand has at least two cards (got {0})")]
    TooFewCards(usize),
    #[error("the hand is already bust ({0})")]
    Bust(u8),
    #[error("EVs by action are tabled for two-card hands; a hand of {0} cards gets the chart's action only")]
    NotTwoCards(usize),
    #[error("count {0} is out of range (counts run from -{max} to {max})", max = MAX_COUNT)]
    CountOutOfRange(i32),
}

/// The tabled value of a rank in the [`Card::rank`](crate::Card::rank) convention:
/// 0 = ace, 1..=8 = 2..9, 9 = ten-valued (T, J, Q, K).
pub fn value_index(rank: u8) -> Result<usize, BlackjackQueryError> {
    match rank {
        0..=7 => Ok(usize::from(rank) + 1),
        8..=11 => Ok(9),
        12 => Ok(0),
        _ => Err(BlackjackQueryError::RankOutOfRange(rank)),
    }
}

/// Reads one rank (`A`, `2`..`9`, `T` / `10`, `J`, `Q`, `K`; a suit may follow and is
/// ignored), in the [`Card::rank`](crate::Card::rank) convention.
pub fn parse_rank(text: &str) -> Result<u8, BlackjackQueryError> {
    match crate::card::parse_ranks(text)?.as_slice() {
        [rank] => Ok(*rank),
        ranks => Err(BlackjackQueryError::NotOneRank(ranks.len())),
    }
}

/// Reads a hand in the card grammar with optional suits (`"8 8"`, `"8s 8h"`, `"A,7"`,
/// `"A7"`, `"10 K"`), as [`Card::rank`](crate::Card::rank) ranks. `11` or `1` is not a
/// rank: an ace is `A`.
pub fn parse_hand(text: &str) -> Result<Vec<u8>, BlackjackQueryError> {
    let ranks = crate::card::parse_ranks(text)?;
    let (t, _) = total(&ranks)?;
    if ranks.len() > 2 && t > 21 {
        return Err(BlackjackQueryError::Bust(t));
    }
    Ok(ranks)
}

/// (best total, soft) of a hand of [`Card::rank`](crate::Card::rank) ranks; totals above
/// 255 read as 255.
pub fn total(ranks: &[u8]) -> Result<(u8, bool), BlackjackQueryError> {
    let mut hard: u32 = 0;
    let mut ace = false;
    for &rank in ranks {
        let v = value_index(rank)?;
        ace |= v == 0;
        hard += v as u32 + 1;
    }
    let hard = hard.min(255) as u8;
    Ok(if ace && hard <= 11 {
        (hard + 10, true)
    } else {
        (hard, false)
    })
}

impl Row {
    /// The pair row of two cards of this [`Card::rank`](crate::Card::rank) rank.
    pub fn pair_of(rank: u8) -> Result<Row, BlackjackQueryError> {
        Ok(Row::Pair(value_index(rank)?))
    }
}
