//! O(1) count-based blackjack play from a `blackjack_indices.bin` table (job kind
//! `blackjack.indices`): for each rule set and counting system, the basic strategy chart,
//! the play of every chart cell at every count of the table's range (the chart's, or an
//! index play's), the index plays themselves, and the insurance index.
//!
//! Hands and upcards are [`Card::rank`](crate::Card::rank) ranks, as in
//! [`blackjack`](crate::blackjack). The count is the one the table was computed for: the
//! true count of a balanced system, the running count of an unbalanced one (KO), taken at
//! the start of the round and made a whole number by the job's rounding. Counts beyond
//! the table's range are answered as its nearest end (the job tabulates them there);
//! counts beyond ±[`MAX_COUNT`] are errors.

use serde::{Deserialize, Serialize};

pub use crate::blackjack_chart::MAX_COUNT;
use crate::blackjack_chart::{
    total, value_index, Action, BlackjackQueryError, Cell, Row, ACTIONS, CHART_ROWS, NO_ACTION,
    RANKS,
};
use crate::format::{self, Game, TableError, TableHeader};

/// Chart cells (row · 10 + upcard value index).
pub const CELLS: usize = CHART_ROWS * RANKS;
/// The widest count range a table may hold.
const MAX_COUNTS: usize = 81;

/// One index play: in chart cell `cell`, play `play` (an [`Action`] code) at `index` and
/// every higher count (`below` false) or every lower one (`below` true).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct IndexPlay {
    pub cell: u16,
    pub play: u8,
    pub below: bool,
    pub index: i32,
    /// EV it adds per 100 rounds, in initial bets.
    pub gain_per_100: f64,
}

impl IndexPlay {
    /// Whether the play is made at `count`.
    pub fn applies(&self, count: i32) -> bool {
        if self.below {
            count <= self.index
        } else {
            count >= self.index
        }
    }
}

/// One rule set under one counting system.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IndexRuleSet {
    /// Short name such as `6d-s17-das`.
    pub id: String,
    /// The rule set as TOML.
    pub rules: String,
    /// The counting system (`hi-lo`, …, `custom`).
    pub system: String,
    /// True count (a balanced system) or running count.
    pub true_count: bool,
    /// Lowest and highest count tabulated.
    pub low: i32,
    pub high: i32,
    /// Hands a pair may be split into (1 = no splitting).
    pub max_split_hands: u8,
    /// The basic strategy chart, `[row · 10 + upcard]` (see [`Row::index`]).
    #[serde(deserialize_with = "format::bounded_vec")]
    pub chart: Vec<Cell>,
    /// `[cell]`: the chart's first action on a two-card hand of the cell, among the
    /// actions the rules allow it (`NO_ACTION` where no two-card hand reaches the cell).
    #[serde(deserialize_with = "format::bounded_vec")]
    pub chart_plays: Vec<u8>,
    /// `[cell · counts + (count − low)]`: the first action played on a two-card hand of
    /// the cell at that count (an [`Action`] code; `NO_ACTION` where no two-card hand
    /// reaches the cell).
    #[serde(deserialize_with = "format::bounded_vec")]
    pub plays: Vec<u8>,
    /// Every index play, most valuable first.
    #[serde(deserialize_with = "format::bounded_vec")]
    pub indices: Vec<IndexPlay>,
    /// Insure at this count and above (`None`: never within the range).
    pub insure_from: Option<i32>,
}

impl IndexRuleSet {
    fn counts(&self) -> usize {
        (self.high - self.low + 1) as usize
    }
}

/// The payload of a count-index table file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BlackjackIndicesPayload {
    /// The job's `[rules]`, `[grid]`, `[count]` and `[indices]` as TOML.
    pub rules: String,
    #[serde(deserialize_with = "format::bounded_vec")]
    pub rule_sets: Vec<IndexRuleSet>,
}

/// The play for a hand at a count.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CountAdvice {
    /// What to do.
    pub action: Action,
    /// What the basic strategy chart does.
    pub chart: Action,
    /// The index play that changed it, if one did.
    pub index: Option<IndexPlay>,
}

/// A loaded, validated count-index table.
#[derive(Clone, Debug)]
pub struct BlackjackIndices {
    header: TableHeader,
    payload: BlackjackIndicesPayload,
}

fn validate(p: &BlackjackIndicesPayload) -> Result<(), TableError> {
    if p.rule_sets.is_empty() {
        return Err(TableError::Invalid("the table has no rule set".into()));
    }
    for (i, set) in p.rule_sets.iter().enumerate() {
        let bad = |what: &str| TableError::Invalid(format!("rule set {i}: {what}"));
        if !(set.low < set.high && set.low >= -MAX_COUNT && set.high <= MAX_COUNT)
            || (set.high - set.low + 1) as usize > MAX_COUNTS
        {
            return Err(bad("count range out of bounds"));
        }
        if set.chart.len() != CELLS {
            return Err(bad("strategy chart has the wrong length"));
        }
        if set.chart.iter().any(|cell| {
            Action::from_code(cell[0]).is_none()
                || cell
                    .iter()
                    .any(|&c| c != NO_ACTION && usize::from(c) >= ACTIONS)
        }) {
            return Err(bad("a chart cell holds an unknown action"));
        }
        if set.plays.len() != CELLS * set.counts() || set.chart_plays.len() != CELLS {
            return Err(bad("the plays by count have the wrong length"));
        }
        if set
            .plays
            .iter()
            .chain(&set.chart_plays)
            .any(|&c| c != NO_ACTION && usize::from(c) >= ACTIONS)
        {
            return Err(bad("a play by count is an unknown action"));
        }
        if set.indices.iter().any(|x| {
            usize::from(x.cell) >= CELLS
                || usize::from(x.play) >= ACTIONS
                || !(-MAX_COUNT..=MAX_COUNT).contains(&x.index)
        }) {
            return Err(bad("an index play is out of range"));
        }
        if !(1..=4).contains(&set.max_split_hands) {
            return Err(bad("max_split_hands out of range"));
        }
    }
    Ok(())
}

format::table_file!(
    BlackjackIndices,
    BlackjackIndicesPayload,
    Game::BlackjackIndices
);

impl BlackjackIndices {
    /// The rule sets, in table order.
    pub fn rule_sets(&self) -> &[IndexRuleSet] {
        &self.payload.rule_sets
    }

    /// Finds a rule set by id.
    pub fn rule_set(&self, id: &str) -> Result<usize, BlackjackQueryError> {
        let sets = &self.payload.rule_sets;
        sets.iter()
            .position(|s| s.id == id)
            .ok_or_else(|| BlackjackQueryError::RuleSet {
                asked: id.to_string(),
                known: sets
                    .iter()
                    .map(|s| s.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }

    fn set(&self, rule_set: usize) -> Result<&IndexRuleSet, BlackjackQueryError> {
        self.payload
            .rule_sets
            .get(rule_set)
            .ok_or(BlackjackQueryError::RuleSetIndex {
                index: rule_set,
                count: self.payload.rule_sets.len(),
            })
    }

    /// The play for `hand` against `upcard` at `count`. Two-card hands get their cell's
    /// play at that count (the chart's first action, or the index play the table found
    /// for that count); larger hands get the chart's hit or stand, changed by a hit/stand
    /// index of their total's row where one applies (an index found for two-card hands,
    /// applied as counters apply it).
    pub fn best_action_at_count(
        &self,
        rule_set: usize,
        hand: &[u8],
        upcard: u8,
        count: i32,
    ) -> Result<CountAdvice, BlackjackQueryError> {
        let set = self.set(rule_set)?;
        let up = value_index(upcard)?;
        if !(-MAX_COUNT..=MAX_COUNT).contains(&count) {
            return Err(BlackjackQueryError::CountOutOfRange(count));
        }
        if hand.len() < 2 {
            return Err(BlackjackQueryError::TooFewCards(hand.len()));
        }
        let (t, soft) = total(hand)?;
        if t > 21 {
            return Err(BlackjackQueryError::Bust(t));
        }
        let count = count.clamp(set.low, set.high);
        let pair = hand.len() == 2 && value_index(hand[0])? == value_index(hand[1])?;
        let row = if pair && set.max_split_hands >= 2 {
            Row::Pair(value_index(hand[0])?)
        } else if soft {
            Row::Soft(t)
        } else {
            Row::Hard(t.max(4))
        };
        let cell = row.index().ok_or(BlackjackQueryError::NoSuchRow(row))? * RANKS + up;
        let chart_cell = &set.chart[cell];
        let index_for = |action: Action| {
            set.indices
                .iter()
                .find(|x| usize::from(x.cell) == cell && x.play == action as u8 && x.applies(count))
                .copied()
        };
        if hand.len() == 2 {
            let code = set.plays[cell * set.counts() + (count - set.low) as usize];
            if let Some(action) = Action::from_code(code) {
                let chart = Action::from_code(set.chart_plays[cell]).unwrap_or(action);
                let index = if action == chart {
                    None
                } else {
                    index_for(action)
                };
                return Ok(CountAdvice {
                    action,
                    chart,
                    index,
                });
            }
        }
        let hit_or_stand =
            |c: &u8| matches!(Action::from_code(*c), Some(Action::Hit | Action::Stand));
        let chart = chart_cell
            .iter()
            .find(|c| hit_or_stand(c))
            .and_then(|&c| Action::from_code(c))
            .unwrap_or(Action::Stand);
        let other = if chart == Action::Hit {
            Action::Stand
        } else {
            Action::Hit
        };
        let index = index_for(other);
        Ok(CountAdvice {
            action: if index.is_some() { other } else { chart },
            chart,
            index,
        })
    }

    /// Whether to insure (when an ace shows) at `count`.
    pub fn insure(&self, rule_set: usize, count: i32) -> Result<bool, BlackjackQueryError> {
        let set = self.set(rule_set)?;
        if !(-MAX_COUNT..=MAX_COUNT).contains(&count) {
            return Err(BlackjackQueryError::CountOutOfRange(count));
        }
        let count = count.clamp(set.low, set.high);
        Ok(set.insure_from.is_some_and(|from| count >= from))
    }
}
