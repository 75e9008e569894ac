//! O(1) blackjack answers from a `blackjack.bin` table: for each analysed rule set, the
//! exact EV of every action for every two-card hand against every dealer upcard, and the
//! total-dependent basic strategy chart for hands of more cards.
//!
//! Ranks are indexed 0 = ace, 1..=8 = 2..9, 9 = ten-valued (T, J, Q, K). EVs are in units
//! of the initial bet; when the rule set's dealer peeks for blackjack they are conditioned
//! on the dealer not having one (the usual convention), otherwise they are not.

use serde::{Deserialize, Serialize};

use crate::format::{self, Game, TableError, TableHeader};

/// Ranks: ace, 2..9, ten-valued.
pub const RANKS: usize = 10;
/// Two-card starting hands, tens merged: C(10, 2) + 10.
pub const STARTING_HANDS: usize = 55;
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

/// Why a blackjack question could not be answered.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum BlackjackQueryError {
    #[error("{0:?} is not a card rank: use A, 2-9, T (or 10, J, Q, K)")]
    Rank(String),
    #[error("no rule set {asked:?} in this table: it has {known}")]
    RuleSet { asked: String, known: String },
    #[error("a hand has at least two cards (got {0})")]
    TooFewCards(usize),
    #[error("the hand is already bust ({0})")]
    Bust(u8),
    #[error("EVs by action are tabled for two-card hands; a hand of {0} cards gets the chart's action only")]
    NotTwoCards(usize),
}

/// Advice for a hand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Advice {
    pub action: Action,
    /// Its exact EV (two-card hands), or `None` for hands answered from the chart.
    pub ev: Option<f64>,
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

/// Reads rank text: `A`, `2`..`9`, `T` / `10`, `J`, `Q`, `K`.
pub fn parse_rank(text: &str) -> Result<usize, BlackjackQueryError> {
    match text.trim().to_ascii_uppercase().as_str() {
        "A" | "1" | "11" => Ok(0),
        "T" | "10" | "J" | "Q" | "K" => Ok(9),
        d if d.len() == 1 && ("2"..="9").contains(&d) => Ok(usize::from(d.as_bytes()[0] - b'1')),
        other => Err(BlackjackQueryError::Rank(other.to_string())),
    }
}

/// Reads a hand: ranks separated by spaces or commas (`"8 8"`, `"A,7"`), or written
/// together (`"88"`, `"A7"`, `"T10"` is not allowed: use spaces with 10).
pub fn parse_hand(text: &str) -> Result<Vec<usize>, BlackjackQueryError> {
    let mut ranks = Vec::new();
    for token in text.split(|c: char| c.is_whitespace() || c == ',') {
        if token.is_empty() {
            continue;
        }
        if token == "10" || token.len() == 1 {
            ranks.push(parse_rank(token)?);
        } else {
            for c in token.chars() {
                ranks.push(parse_rank(&c.to_string())?);
            }
        }
        if ranks.len() > 21 {
            return Err(BlackjackQueryError::Bust(22));
        }
    }
    Ok(ranks)
}

/// Position of a two-card hand (tens merged) among the 55 starting hands.
pub fn starting_index(a: usize, b: usize) -> usize {
    let (a, b) = if a <= b { (a, b) } else { (b, a) };
    a * RANKS - a * a.saturating_sub(1) / 2 + (b - a)
}

/// (best total, soft) of a hand of rank indices.
pub fn total(ranks: &[usize]) -> (u8, bool) {
    let hard: u32 = ranks.iter().map(|&r| r as u32 + 1).sum();
    let hard = hard.min(255) as u8;
    if ranks.contains(&0) && hard <= 11 {
        (hard + 10, true)
    } else {
        (hard, false)
    }
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

    /// The EV of `action` for a two-card hand, or `None` where the rules do not allow it.
    pub fn ev(
        &self,
        rule_set: usize,
        hand: &[usize],
        upcard: usize,
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
        hand: &[usize],
        upcard: usize,
    ) -> Result<[f64; ACTIONS], BlackjackQueryError> {
        if hand.len() != 2 {
            return Err(BlackjackQueryError::NotTwoCards(hand.len()));
        }
        let set = &self.payload.rule_sets[rule_set.min(self.payload.rule_sets.len() - 1)];
        let at = (starting_index(hand[0], hand[1]) * RANKS + upcard.min(RANKS - 1)) * ACTIONS;
        let mut out = [0.0; ACTIONS];
        out.copy_from_slice(&set.evs[at..at + ACTIONS]);
        Ok(out)
    }

    /// The best action: from the exact EVs for two cards, from the basic strategy chart
    /// (hit or stand) for more.
    pub fn best_action(
        &self,
        rule_set: usize,
        hand: &[usize],
        upcard: usize,
    ) -> Result<Advice, BlackjackQueryError> {
        let (t, soft) = total(hand);
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
            });
        }
        let row = if soft { Row::Soft(t) } else { Row::Hard(t) };
        let cell = self.cell(rule_set, row, upcard);
        let action = cell
            .iter()
            .filter_map(|&c| Action::from_code(c))
            .find(|a| matches!(a, Action::Hit | Action::Stand))
            .unwrap_or(Action::Stand);
        Ok(Advice { action, ev: None })
    }

    /// A chart cell (rows outside the chart read as "stand").
    pub fn cell(&self, rule_set: usize, row: Row, upcard: usize) -> Cell {
        let set = &self.payload.rule_sets[rule_set.min(self.payload.rule_sets.len() - 1)];
        match row.index() {
            Some(i) => set.chart[i * RANKS + upcard.min(RANKS - 1)],
            None => [
                Action::Stand as u8,
                NO_ACTION,
                NO_ACTION,
                NO_ACTION,
                NO_ACTION,
            ],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_and_hands_parse() {
        assert_eq!(parse_hand("8 8").unwrap(), vec![7, 7]);
        assert_eq!(parse_hand("A7").unwrap(), vec![0, 6]);
        assert_eq!(parse_hand("10, k").unwrap(), vec![9, 9]);
        assert!(parse_hand("8 X").is_err());
        assert_eq!(total(&[0, 6]), (18, true));
        assert_eq!(total(&[0, 6, 9]), (18, false));
        assert_eq!(total(&[0, 0]), (12, true));
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
