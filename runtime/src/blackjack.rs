//! O(1) blackjack answers from a `blackjack.bin` table: for each analysed rule set, the
//! exact EV of every action for every two-card hand against every dealer upcard, and the
//! total-dependent basic strategy chart for hands of more cards.
//!
//! Questions take ranks in the [`Card::rank`](crate::Card::rank) convention used across
//! the crate (0 = 2 … 8 = T, 9 = J, 10 = Q, 11 = K, 12 = A); T, J, Q and K count ten and
//! share one tabled value. Read them from text with [`parse_hand`] / [`parse_rank`] (the
//! card grammar of [`parse_cards`](crate::parse_cards), suits optional and ignored).
//! Inside the table, a hand's *value index* is 0 = ace, 1..=8 = 2..9, 9 = ten-valued
//! ([`value_index`]); chart rows ([`Row`]) use it. EVs are in units of the initial bet;
//! when the rule set's dealer peeks for blackjack they are conditioned on the dealer not
//! having one (the usual convention), otherwise they are not.
//!
//! Every question is checked: a rule set, rank or row outside the table is an error,
//! never the nearest cell.

use serde::{Deserialize, Serialize};

pub use crate::blackjack_chart::{
    cell_code, parse_hand, parse_rank, total, value_index, Action, BlackjackQueryError, Cell, Row,
    ACTIONS, CHART_ROWS, NO_ACTION, RANKS,
};
use crate::format::{self, Game, TableError, TableHeader};

/// Two-card starting hands, tens merged: C(10, 2) + 10.
pub const STARTING_HANDS: usize = 55;

/// One analysed rule set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RuleSet {
    /// Short name such as `6d-s17-das`.
    pub id: String,
    /// The rule set as TOML.
    pub rules: String,
    /// Per-hand EVs are conditioned on no dealer blackjack (the dealer peeks).
    pub conditioned_on_no_blackjack: bool,
    /// Hands a pair may be split into (1 = no splitting).
    pub max_split_hands: u8,
    /// −(EV of a round) under composition-dependent optimal play.
    pub house_edge: f64,
    /// EV of a round playing the rule set's basic strategy chart.
    pub basic_strategy_ev: f64,
    /// `[(hand · 10 + upcard) · 5 + action]`, NaN where the action is not allowed.
    #[serde(deserialize_with = "format::bounded_vec")]
    pub evs: Vec<f64>,
    /// `[row · 10 + upcard]` (see [`Row::index`]).
    #[serde(deserialize_with = "format::bounded_vec")]
    pub chart: Vec<Cell>,
}

/// The payload of a blackjack table file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BlackjackPayload {
    /// The job's rules (its `[rules]` and `[grid]`) as TOML.
    pub rules: String,
    #[serde(deserialize_with = "format::bounded_vec")]
    pub rule_sets: Vec<RuleSet>,
}

/// Advice for a hand: the same fields, by the same names, as C's `ct_blackjack_advice`
/// and Python's `BlackjackAdvice`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Advice {
    pub action: Action,
    /// Its exact EV (two-card hands), or `None` for hands answered from the chart.
    pub ev: Option<f64>,
    /// Every action's exact EV, by [`Action`] code (two-card hands; NaN where the action
    /// is not allowed, and for every action of a longer hand).
    pub evs: [f64; ACTIONS],
}

/// A loaded, validated blackjack table.
#[derive(Clone, Debug)]
pub struct Blackjack {
    header: TableHeader,
    payload: BlackjackPayload,
}

fn validate(p: &BlackjackPayload) -> Result<(), TableError> {
    if p.rule_sets.is_empty() {
        return Err(TableError::Invalid("the table has no rule set".into()));
    }
    for (i, set) in p.rule_sets.iter().enumerate() {
        let bad = |what: &str| TableError::Invalid(format!("rule set {i}: {what}"));
        if set.evs.len() != STARTING_HANDS * RANKS * ACTIONS {
            return Err(bad("EV table has the wrong length"));
        }
        if set.chart.len() != CHART_ROWS * RANKS {
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
        if !(1..=4).contains(&set.max_split_hands) {
            return Err(bad("max_split_hands out of range"));
        }
    }
    Ok(())
}

format::table_file!(Blackjack, BlackjackPayload, Game::Blackjack);

/// Position of a two-card hand (value indices, tens merged) among the 55 starting hands.
fn starting_index(a: usize, b: usize) -> usize {
    let (a, b) = if a <= b { (a, b) } else { (b, a) };
    a * RANKS - a * a.saturating_sub(1) / 2 + (b - a)
}

impl Blackjack {
    /// The rule sets, in table order.
    pub fn rule_sets(&self) -> &[RuleSet] {
        &self.payload.rule_sets
    }

    /// Finds a rule set by id.
    pub fn rule_set(&self, id: &str) -> Result<usize, BlackjackQueryError> {
        self.payload
            .rule_sets
            .iter()
            .position(|s| s.id == id)
            .ok_or_else(|| BlackjackQueryError::RuleSet {
                asked: id.to_string(),
                known: self
                    .payload
                    .rule_sets
                    .iter()
                    .map(|s| s.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }

    fn set(&self, rule_set: usize) -> Result<&RuleSet, BlackjackQueryError> {
        self.payload
            .rule_sets
            .get(rule_set)
            .ok_or(BlackjackQueryError::RuleSetIndex {
                index: rule_set,
                count: self.payload.rule_sets.len(),
            })
    }

    /// The EV of `action` for a two-card hand, or `None` where the rules do not allow it.
    pub fn ev(
        &self,
        rule_set: usize,
        hand: &[u8],
        upcard: u8,
        action: Action,
    ) -> Result<Option<f64>, BlackjackQueryError> {
        let evs = self.evs(rule_set, hand, upcard)?;
        let v = evs[action as usize];
        Ok((!v.is_nan()).then_some(v))
    }

    /// EVs of the five actions for a two-card hand (NaN where not allowed).
    pub fn evs(
        &self,
        rule_set: usize,
        hand: &[u8],
        upcard: u8,
    ) -> Result<[f64; ACTIONS], BlackjackQueryError> {
        let set = self.set(rule_set)?;
        let up = value_index(upcard)?;
        let &[a, b] = hand else {
            return Err(BlackjackQueryError::NotTwoCards(hand.len()));
        };
        let (a, b) = (value_index(a)?, value_index(b)?);
        let at = (starting_index(a, b) * RANKS + up) * ACTIONS;
        let mut out = [0.0; ACTIONS];
        out.copy_from_slice(&set.evs[at..at + ACTIONS]);
        Ok(out)
    }

    /// The best action: from the exact EVs for two cards, from the basic strategy chart
    /// (hit or stand) for more.
    pub fn best_action(
        &self,
        rule_set: usize,
        hand: &[u8],
        upcard: u8,
    ) -> Result<Advice, BlackjackQueryError> {
        self.set(rule_set)?;
        value_index(upcard)?;
        let (t, soft) = total(hand)?;
        if hand.len() < 2 {
            return Err(BlackjackQueryError::TooFewCards(hand.len()));
        }
        if t > 21 {
            return Err(BlackjackQueryError::Bust(t));
        }
        if hand.len() == 2 {
            let evs = self.evs(rule_set, hand, upcard)?;
            let (a, v) = Action::ALL
                .iter()
                .zip(evs)
                .filter(|(_, v)| !v.is_nan())
                .fold((Action::Stand, f64::NEG_INFINITY), |best, (&a, v)| {
                    if v > best.1 {
                        (a, v)
                    } else {
                        best
                    }
                });
            return Ok(Advice {
                action: a,
                ev: Some(v),
                evs,
            });
        }
        let row = if soft { Row::Soft(t) } else { Row::Hard(t) };
        let cell = self.cell(rule_set, row, upcard)?;
        let action = cell
            .iter()
            .filter_map(|&c| Action::from_code(c))
            .find(|a| matches!(a, Action::Hit | Action::Stand))
            .unwrap_or(Action::Stand);
        Ok(Advice {
            action,
            ev: None,
            evs: [f64::NAN; ACTIONS],
        })
    }

    /// The chart cell of `row` against `upcard` (a [`Card::rank`](crate::Card::rank)).
    pub fn cell(&self, rule_set: usize, row: Row, upcard: u8) -> Result<Cell, BlackjackQueryError> {
        let set = self.set(rule_set)?;
        let up = value_index(upcard)?;
        let i = row.index().ok_or(BlackjackQueryError::NoSuchRow(row))?;
        Ok(set.chart[i * RANKS + up])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_and_hands_parse() {
        assert_eq!(parse_hand("8 8").unwrap(), vec![6, 6]);
        assert_eq!(parse_hand("8s 8h").unwrap(), vec![6, 6]);
        assert_eq!(parse_hand("A7").unwrap(), vec![12, 5]);
        assert_eq!(parse_hand("10, k").unwrap(), vec![8, 11]);
        assert!(parse_hand("8 X").is_err());
        assert!(parse_hand("8 11").is_err(), "11 is not a rank");
        assert!(parse_hand("T T T").is_err(), "bust");
        assert_eq!(parse_rank("Td"), Ok(8));
        assert_eq!(
            parse_rank("T d"),
            Err(BlackjackQueryError::Card(crate::CardError::BadRank {
                found: 'd',
                position: 3
            }))
        );
        assert_eq!(parse_rank("9 9"), Err(BlackjackQueryError::NotOneRank(2)));
        assert_eq!(total(&[12, 5]), Ok((18, true)));
        assert_eq!(total(&[12, 5, 8]), Ok((18, false)));
        assert_eq!(total(&[12, 12]), Ok((12, true)));
        assert_eq!(total(&[13]), Err(BlackjackQueryError::RankOutOfRange(13)));
        let values: Vec<usize> = (0..13).map(|r| value_index(r).unwrap()).collect();
        assert_eq!(values, [1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9, 0]);
        assert_eq!(Row::pair_of(12), Ok(Row::Pair(0)));
        assert!(Row::pair_of(200).is_err());
    }

    #[test]
    fn starting_index_is_dense() {
        let mut seen = [false; STARTING_HANDS];
        for a in 0..RANKS {
            for b in a..RANKS {
                seen[starting_index(a, b)] = true;
                assert_eq!(starting_index(a, b), starting_index(b, a));
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn rows_are_numbered_densely() {
        let idx: Vec<usize> = Row::all().map(|r| r.index().unwrap()).collect();
        assert_eq!(idx, (0..CHART_ROWS).collect::<Vec<_>>());
        assert_eq!(Row::Hard(3).index(), None);
    }

    #[test]
    fn codes_show_the_fallback() {
        let cell = |a: &[Action]| {
            let mut c = [NO_ACTION; ACTIONS];
            for (slot, &x) in c.iter_mut().zip(a) {
                *slot = x as u8;
            }
            c
        };
        use Action::*;
        assert_eq!(cell_code(&cell(&[Double, Hit, Stand])), "Dh");
        assert_eq!(cell_code(&cell(&[Double, Stand, Hit])), "Ds");
        assert_eq!(cell_code(&cell(&[Surrender, Split, Hit])), "Rp");
        assert_eq!(cell_code(&cell(&[Split, Hit])), "P");
        assert_eq!(cell_code(&cell(&[Stand])), "S");
    }
}
