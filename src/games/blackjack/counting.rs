//! A card counter at the table, simulated (`blackjack.counter`): how it plays (`[play]`:
//! penetration, its hands and the other players, wonging out, insurance and its index
//! plays), how it bets (`[betting]`: the ramp, rounds, bankroll), and what it wins and
//! risks ([`CounterResult`]).
//!
//! # Index plays
//! An index play is one line of `[play] indices`: a chart cell (the row as reports write
//! it, `hard 16`, `soft 18`, `pair T`, and the upcard), a play, and a count with its
//! direction: `at_or_above = 0` plays it at counts 0 and above, `at_or_below = -1` at -1
//! and below. It decides the first decision on the two dealt cards only, and is read on
//! both sides, as published index tables are: where it applies, the play is moved to the
//! front of the cell; where it does not and the chart's first action is the play, the
//! play is taken out of the cell (a stand becomes a hit, a hit a stand, a double or a
//! split the cell's next action). The `illustrious-18` preset is the published Hi-Lo
//! Illustrious 18 for multi-deck games, every one read "at or above", with insurance from
//! +3 (unless `insure_from` is given).
//!
//! The `blackjack.indices` report prints the plays a job found as lines of this list.

use serde::Deserialize;

use cardtables::blackjack::{parse_rank, value_index, Action, Cell, Row, ACTIONS, NO_ACTION};

use super::count::Counter;
use super::hands::{ACE, TEN};
use super::rules::{BlackjackRules, Surrender};
use super::sim::{CounterTally, Ramp, MAX_SEATS, ROUNDS_PER_UNIT};
use crate::job::{JobError, JobSpec, Pair};

/// The published Illustrious 18 for Hi-Lo, multi-deck, S17 (Schlesinger, *Blackjack
/// Attack*): (row, upcard, play, index), each read "play at this count and above" (below
/// it, the other action: hit for the stands, no double, no split); insurance from
/// [`ILLUSTRIOUS_INSURANCE`].
pub const ILLUSTRIOUS_18: [(Row, usize, Action, i32); 17] = [
    (Row::Hard(16), TEN, Action::Stand, 0),
    (Row::Hard(15), TEN, Action::Stand, 4),
    (Row::Pair(TEN), 4, Action::Split, 5),
    (Row::Pair(TEN), 5, Action::Split, 4),
    (Row::Hard(10), TEN, Action::Double, 4),
    (Row::Hard(12), 2, Action::Stand, 2),
    (Row::Hard(12), 1, Action::Stand, 3),
    (Row::Hard(11), ACE, Action::Double, 1),
    (Row::Hard(9), 1, Action::Double, 1),
    (Row::Hard(10), ACE, Action::Double, 4),
    (Row::Hard(9), 6, Action::Double, 3),
    (Row::Hard(16), 8, Action::Stand, 5),
    (Row::Hard(13), 1, Action::Stand, -1),
    (Row::Hard(12), 3, Action::Stand, 0),
    (Row::Hard(12), 4, Action::Stand, -2),
    (Row::Hard(12), 5, Action::Stand, -1),
    (Row::Hard(13), 2, Action::Stand, -2),
];

/// The Illustrious 18's insurance index (its first and most valuable play).
pub const ILLUSTRIOUS_INSURANCE: i32 = 3;

/// Reads a row label as reports and job files write it: `hard 16`, `soft 18`, `pair T`
/// (the pair's rank `A`, `2`..`9`, `T`).
pub fn parse_row(text: &str) -> Option<Row> {
    let (kind, rest) = text.trim().split_once(' ')?;
    let rest = rest.trim();
    let row = match kind {
        "hard" => Row::Hard(rest.parse().ok()?),
        "soft" => Row::Soft(rest.parse().ok()?),
        "pair" => Row::Pair(value_index(parse_rank(rest).ok()?).ok()?),
        _ => return None,
    };
    row.index().map(|_| row)
}

/// One line of `[play] indices` as written.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IndexLine {
    pub hand: String,
    pub upcard: String,
    pub play: String,
    pub at_or_above: Option<i32>,
    pub at_or_below: Option<i32>,
}

/// One index play, checked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IndexRule {
    /// Chart cell: row · 10 + upcard.
    pub cell: usize,
    pub play: Action,
    pub index: i32,
    /// Played at `index` and below (else at `index` and above).
    pub below: bool,
}

impl IndexRule {
    /// Whether the play is made at `count`.
    pub fn applies(&self, count: i32) -> bool {
        if self.below {
            count <= self.index
        } else {
            count >= self.index
        }
    }
}

/// Presets of index plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Preset {
    /// The basic strategy at every count, and `indices` only.
    #[default]
    None,
    /// The Hi-Lo Illustrious 18.
    #[serde(rename = "illustrious-18")]
    Illustrious18,
}

/// The `[play]` table of a `blackjack.counter` job as written.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct PlayFields {
    penetration: f64,
    hands: usize,
    others: usize,
    wong_out: Option<i32>,
    insure_from: Option<i32>,
    preset: Preset,
    indices: Vec<IndexLine>,
}

impl Default for PlayFields {
    fn default() -> Self {
        PlayFields {
            penetration: 0.75,
            hands: 1,
            others: 0,
            wong_out: None,
            insure_from: None,
            preset: Preset::None,
            indices: Vec::new(),
        }
    }
}

/// Most index plays a job may list.
const MAX_INDEX_LINES: usize = 1_000;

/// How the counter plays, checked against the rules and the count system.
#[derive(Clone, Debug, PartialEq)]
pub struct PlaySettings {
    /// Fraction of the shoe dealt before the shuffle.
    pub penetration: f64,
    /// Hands the counter plays each round (each bet by the ramp), and other players'.
    pub hands: usize,
    pub others: usize,
    pub wong_out: Option<i32>,
    pub insure_from: Option<i32>,
    pub preset: Preset,
    /// The preset's plays, then the listed ones, in that order.
    pub rules: Vec<IndexRule>,
}

impl PlaySettings {
    /// Validates `[play]`: every field against what it may be, the index plays against
    /// the count range and every rule set's rules, wonging out against a fresh shoe's
    /// count.
    pub fn from_spec(
        spec: &JobSpec,
        counter: &Counter,
        rule_sets: &[BlackjackRules],
    ) -> Result<PlaySettings, JobError> {
        #[derive(Deserialize)]
        struct Sections {
            #[serde(default)]
            play: Option<PlayFields>,
        }
        let s: Sections = spec.deserialize()?;
        let f = s.play.unwrap_or_default();
        let error = |field: &str, message: String| Err(spec.field_error(field, message));
        if !(f.penetration > 0.0 && f.penetration < 1.0) {
            return error(
                "play.penetration",
                format!(
                    "{}: give the fraction of the shoe dealt before the shuffle, e.g. 0.75",
                    f.penetration
                ),
            );
        }
        if !(1..=MAX_SEATS).contains(&f.hands) {
            return error(
                "play.hands",
                format!("{}: the counter plays 1 to {MAX_SEATS} hands", f.hands),
            );
        }
        if f.hands + f.others > MAX_SEATS {
            return error(
                "play.others",
                format!(
                    "{} other players beside {} hands: a table has at most {MAX_SEATS} seats",
                    f.others, f.hands
                ),
            );
        }
        let in_range = |c: i32| (counter.low..=counter.high).contains(&c);
        if let Some(from) = f.insure_from.filter(|&c| !in_range(c)) {
            return error(
                "play.insure_from",
                format!(
                    "{from}: give a count from {} to {} (the [count] range)",
                    counter.low, counter.high
                ),
            );
        }
        for r in rule_sets {
            let Some(shoe) = r.shoe() else {
                return error(
                    "rules.decks",
                    "an infinite shoe has no count: give 1 to 8 decks".into(),
                );
            };
            if let Some(w) = f.wong_out {
                let cards: u32 = shoe.iter().sum();
                let fresh = counter.count(&[0; 10], cards, cards / 52);
                if w > fresh || w <= counter.low {
                    return error(
                        "play.wong_out",
                        format!(
                            "{w}: a fresh shoe counts {fresh}, so leave below a count from {} to {fresh}",
                            counter.low + 1
                        ),
                    );
                }
            }
        }
        let mut rules = Vec::new();
        if f.preset == Preset::Illustrious18 {
            if counter.name != "hi-lo" || !counter.balanced {
                return error(
                    "play.preset",
                    format!(
                        "the Illustrious 18 are Hi-Lo true-count indices; this job counts `{}`",
                        counter.name
                    ),
                );
            }
            for (row, up, play, index) in ILLUSTRIOUS_18 {
                rules.push(IndexRule {
                    cell: row.index().unwrap_or(0) * 10 + up,
                    play,
                    index,
                    below: false,
                });
            }
        }
        if f.indices.len() > MAX_INDEX_LINES {
            return error(
                "play.indices",
                format!("{} plays: list at most {MAX_INDEX_LINES}", f.indices.len()),
            );
        }
        for (i, line) in f.indices.iter().enumerate() {
            let rule = index_rule(line, counter, rule_sets)
                .map_err(|m| spec.field_error("play.indices", format!("play {}: {m}", i + 1)))?;
            if rules
                .iter()
                .any(|r: &IndexRule| r.cell == rule.cell && r.play == rule.play)
            {
                return error(
                    "play.indices",
                    format!(
                        "play {}: {} v {} {} is listed twice (or is already in the preset)",
                        i + 1,
                        line.hand,
                        line.upcard,
                        line.play
                    ),
                );
            }
            rules.push(rule);
        }
        let insure_from = match (f.insure_from, f.preset) {
            (None, Preset::Illustrious18) => Some(ILLUSTRIOUS_INSURANCE),
            (x, _) => x,
        };
        Ok(PlaySettings {
            penetration: f.penetration,
            hands: f.hands,
            others: f.others,
            wong_out: f.wong_out,
            insure_from,
            preset: f.preset,
            rules,
        })
    }

    /// The chart of first decisions at each count of the counter's range, lowest first:
    /// the basic strategy chart with every index play applied on both sides (see the
    /// module documentation).
    pub fn charts(&self, chart: &[Cell], counter: &Counter) -> Vec<Vec<Cell>> {
        (counter.low..=counter.high)
            .map(|count| {
                let mut out = chart.to_vec();
                for rule in &self.rules {
                    let cell = &mut out[rule.cell];
                    let code = rule.play as u8;
                    if rule.applies(count) {
                        *cell = with_front(cell, code);
                    } else if cell[0] == code {
                        *cell = without(cell, code, rule.play);
                    }
                }
                out
            })
            .collect()
    }

    /// The settings as the outputs record them (TOML).
    pub fn canonical_toml(&self) -> String {
        let rules: Vec<String> = self
            .rules
            .iter()
            .map(|r| {
                format!(
                    "[{}, {:?}, {}, {}]",
                    r.cell,
                    r.play.name(),
                    r.index,
                    r.below
                )
            })
            .collect();
        format!(
            "[play]\npenetration = {}\nhands = {}\nothers = {}\nwong_out = {:?}\ninsure_from = {:?}\nrules = [{}]\n",
            self.penetration,
            self.hands,
            self.others,
            self.wong_out,
            self.insure_from,
            rules.join(", ")
        )
    }
}

/// `cell` with `code` first and the rest in their order.
fn with_front(cell: &Cell, code: u8) -> Cell {
    let mut moved = [NO_ACTION; ACTIONS];
    moved[0] = code;
    let rest = cell.iter().filter(|&&c| c != code && c != NO_ACTION);
    for (slot, &c) in moved[1..].iter_mut().zip(rest) {
        *slot = c;
    }
    moved
}

/// `cell` without `code`; a cell left empty stands where the play hit and hits where it
/// stood (or stands).
fn without(cell: &Cell, code: u8, play: Action) -> Cell {
    let mut out = [NO_ACTION; ACTIONS];
    let rest = cell.iter().filter(|&&c| c != code && c != NO_ACTION);
    for (slot, &c) in out.iter_mut().zip(rest) {
        *slot = c;
    }
    if out[0] == NO_ACTION {
        let other = if play == Action::Stand {
            Action::Hit
        } else {
            Action::Stand
        };
        out[0] = other as u8;
    }
    out
}

/// Checks one listed index play.
fn index_rule(
    line: &IndexLine,
    counter: &Counter,
    rule_sets: &[BlackjackRules],
) -> Result<IndexRule, String> {
    let row = parse_row(&line.hand).ok_or_else(|| {
        format!(
            "hand `{}`: write the row as `hard 4`..`hard 21`, `soft 12`..`soft 21` or `pair A`..`pair T`",
            line.hand
        )
    })?;
    let up = parse_rank(&line.upcard)
        .ok()
        .and_then(|r| value_index(r).ok())
        .ok_or_else(|| format!("upcard `{}`: give A, 2..9 or T", line.upcard))?;
    let play = Action::ALL
        .into_iter()
        .find(|a| a.name() == line.play)
        .ok_or_else(|| {
            format!(
                "play `{}`: give stand, hit, double, split or surrender",
                line.play
            )
        })?;
    if play == Action::Split && !matches!(row, Row::Pair(_)) {
        return Err(format!(
            "{} cannot be split: only a pair row splits",
            line.hand
        ));
    }
    if play == Action::Split && rule_sets.iter().any(|r| r.max_split_hands < 2) {
        return Err("these rules do not split".into());
    }
    if play == Action::Surrender && rule_sets.iter().any(|r| r.surrender == Surrender::None) {
        return Err("these rules have no surrender".into());
    }
    let (index, below) = match (line.at_or_above, line.at_or_below) {
        (Some(c), None) => (c, false),
        (None, Some(c)) => (c, true),
        _ => {
            return Err(
                "give exactly one of `at_or_above` and `at_or_below` (the count from which, or up to which, the play is made)"
                    .into(),
            )
        }
    };
    if !(counter.low..=counter.high).contains(&index) {
        return Err(format!(
            "count {index} is outside the [count] range {} to {}",
            counter.low, counter.high
        ));
    }
    Ok(IndexRule {
        cell: row.index().unwrap_or(0) * 10 + up,
        play,
        index,
        below,
    })
}

/// The `[betting]` table of a `blackjack.counter` job as written.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct BettingFields {
    ramp: Option<Vec<Pair<i32, f64>>>,
    ramps: Option<Vec<Vec<Pair<i32, f64>>>>,
    rounds: Option<u64>,
    bankroll: Option<f64>,
    trip_rounds: Option<u64>,
    ruin_goal: Option<f64>,
    session_rounds: Option<u64>,
}

/// How the counter bets, how long it plays, and the bankroll its risk is measured
/// against.
#[derive(Clone, Debug, PartialEq)]
pub struct BettingSettings {
    /// Bet ramps, each as `[count, units]` steps, counts increasing: from each step's count
    /// up, bet that many units on each hand; one unit below the first step. The same
    /// rounds are tallied as each ramp would have bet them.
    pub ramps: Vec<Vec<(i32, f64)>>,
    /// Rounds simulated per rule set.
    pub rounds: u64,
    /// Bankroll in units, for the risk of ruin.
    pub bankroll: f64,
    /// Rounds per simulated trip, for the risk of losing the bankroll within a trip.
    pub trip_rounds: u64,
    /// For the simulated risk of ruin of an unlimited game: a session is safe once the
    /// bankroll has grown to this many times its start, and stops after `session_rounds`
    /// rounds (see [`super::sim::Sessions`]).
    pub ruin_goal: f64,
    pub session_rounds: u64,
}

/// The default ramp: a 1–12 spread.
const DEFAULT_RAMP: [(i32, f64); 4] = [(2, 2.0), (3, 4.0), (4, 8.0), (5, 12.0)];

impl Default for BettingSettings {
    fn default() -> Self {
        BettingSettings {
            ramps: vec![DEFAULT_RAMP.to_vec()],
            rounds: 100_000_000,
            bankroll: 1_000.0,
            trip_rounds: 100_000,
            ruin_goal: 5.0,
            session_rounds: 2_000_000,
        }
    }
}

/// Most steps a bet ramp may have, and most ramps a job may compare.
const MAX_STEPS: usize = 64;
const MAX_RAMPS: usize = 16;
/// Most rounds per trip: the rounds of one unit, so a trip never spans two.
pub const MAX_TRIP_ROUNDS: u64 = ROUNDS_PER_UNIT;
/// Most rounds a job may simulate per rule set.
const MAX_ROUNDS: u64 = 10_000_000_000_000;

impl BettingSettings {
    /// Validates the `[betting]` table; every ramp step is a count of `counter`'s range
    /// (counts beyond it are tabulated at its ends, so a step outside would never fire).
    pub fn from_spec(spec: &JobSpec, counter: &Counter) -> Result<BettingSettings, JobError> {
        #[derive(Deserialize)]
        struct Sections {
            #[serde(default)]
            betting: Option<BettingFields>,
        }
        let s: Sections = spec.deserialize()?;
        let f = s.betting.unwrap_or_default();
        let error = |field: &str, message: String| Err(spec.field_error(field, message));
        let d = BettingSettings::default();
        let steps = |ramp: Vec<Pair<i32, f64>>| -> Vec<(i32, f64)> {
            ramp.into_iter().map(|Pair(c, u)| (c, u)).collect()
        };
        let (ramps, field) = match (f.ramp, f.ramps) {
            (Some(_), Some(_)) => {
                return error(
                    "betting.ramps",
                    "give `ramp` (one) or `ramps` (several to compare), not both".into(),
                )
            }
            (Some(ramp), None) => (vec![steps(ramp)], "betting.ramp"),
            (None, Some(ramps)) => (ramps.into_iter().map(steps).collect(), "betting.ramps"),
            (None, None) => (d.ramps, "betting.ramp"),
        };
        if ramps.is_empty() || ramps.len() > MAX_RAMPS {
            return error(
                field,
                format!("{} ramps: give 1 to {MAX_RAMPS}", ramps.len()),
            );
        }
        for (r, ramp) in ramps.iter().enumerate() {
            let which = if ramps.len() == 1 {
                String::new()
            } else {
                format!("ramp {}: ", r + 1)
            };
            if ramp.len() > MAX_STEPS {
                return error(
                    field,
                    format!("{which}{} steps: give at most {MAX_STEPS}", ramp.len()),
                );
            }
            for (i, &(count, units)) in ramp.iter().enumerate() {
                if !(counter.low..=counter.high).contains(&count) {
                    return error(
                        field,
                        format!(
                            "{which}step {} is at count {count}, outside the [count] range {} to {}: a step there would never fire (widen `range` or move the step)",
                            i + 1,
                            counter.low,
                            counter.high
                        ),
                    );
                }
                if i > 0 && count <= ramp[i - 1].0 {
                    return error(
                        field,
                        format!("{which}step {} (count {count}) does not come after count {}: list the steps by increasing count", i + 1, ramp[i - 1].0),
                    );
                }
                if !(units > 0.0 && units <= 10_000.0) {
                    return error(
                        field,
                        format!(
                            "{which}step {} bets {units} units: use more than 0 and at most 10000",
                            i + 1
                        ),
                    );
                }
            }
        }
        let s = BettingSettings {
            ramps,
            rounds: f.rounds.unwrap_or(d.rounds),
            bankroll: f.bankroll.unwrap_or(d.bankroll),
            trip_rounds: f.trip_rounds.unwrap_or(d.trip_rounds),
            ruin_goal: f.ruin_goal.unwrap_or(d.ruin_goal),
            session_rounds: f.session_rounds.unwrap_or(d.session_rounds),
        };
        if !(1..=MAX_ROUNDS).contains(&s.rounds) {
            return error(
                "betting.rounds",
                format!("{}: use 1 to {MAX_ROUNDS}", s.rounds),
            );
        }
        if !(1..=MAX_TRIP_ROUNDS).contains(&s.trip_rounds) {
            return error(
                "betting.trip_rounds",
                format!(
                    "{}: use 1 to {MAX_TRIP_ROUNDS} (a trip stays inside one simulated unit)",
                    s.trip_rounds
                ),
            );
        }
        if !(s.ruin_goal >= 2.0 && s.ruin_goal <= 1_000.0) {
            return error(
                "betting.ruin_goal",
                format!(
                    "{}: give 2 to 1000, the multiple of the bankroll at which a simulated \
                     session of an unlimited game counts as safe",
                    s.ruin_goal
                ),
            );
        }
        if !(1..=MAX_TRIP_ROUNDS).contains(&s.session_rounds) {
            return error(
                "betting.session_rounds",
                format!(
                    "{}: use 1 to {MAX_TRIP_ROUNDS} (a session stays inside one simulated unit)",
                    s.session_rounds
                ),
            );
        }
        if !(s.bankroll > 0.0 && s.bankroll <= 1e12) {
            return error(
                "betting.bankroll",
                format!("{}: give the bankroll in units, more than 0", s.bankroll),
            );
        }
        Ok(s)
    }

    /// The ramps as the simulator bets them.
    pub fn ramps(&self) -> Vec<Ramp> {
        self.ramps
            .iter()
            .map(|steps| Ramp {
                steps: steps.clone(),
            })
            .collect()
    }

    /// A ramp as reports print it: `1 unit; +2: 2, +3: 4`.
    pub fn ramp_text(&self, ramp: usize) -> String {
        let steps: Vec<String> = self.ramps[ramp]
            .iter()
            .map(|(c, u)| format!("{c:+}: {u}"))
            .collect();
        if steps.is_empty() {
            "1 unit flat".to_string()
        } else {
            format!("1 unit; {}", steps.join(", "))
        }
    }

    /// The settings as the outputs record them (TOML).
    pub fn canonical_toml(&self) -> String {
        let ramp = |steps: &[(i32, f64)]| {
            let steps: Vec<String> = steps.iter().map(|(c, u)| format!("[{c}, {u}]")).collect();
            format!("[{}]", steps.join(", "))
        };
        let ramps = match self.ramps.as_slice() {
            [one] => format!("ramp = {}", ramp(one)),
            many => format!(
                "ramps = [{}]",
                many.iter().map(|r| ramp(r)).collect::<Vec<_>>().join(", ")
            ),
        };
        format!(
            "[betting]\n{ramps}\nrounds = {}\nbankroll = {}\ntrip_rounds = {}\nruin_goal = {}\nsession_rounds = {}\n",
            self.rounds, self.bankroll, self.trip_rounds, self.ruin_goal, self.session_rounds
        )
    }
}

/// What the simulated counter achieved, per round in units.
#[derive(Clone, Debug, PartialEq)]
pub struct CounterResult {
    pub rounds: u64,
    /// Mean units won per round, with its standard error.
    pub win_rate: (f64, f64),
    /// Standard deviation of a round's result.
    pub sd: f64,
    /// Mean units bet per round.
    pub mean_bet: f64,
    /// SCORE = 10⁶ (win rate ÷ sd)², the win per 100 rounds of a bettor scaled to a
    /// bankroll of 10,000 at 13.5 % risk of ruin; 0 for a ramp that does not win (that
    /// bettor would not play); with its standard error.
    pub score: (f64, f64),
    /// N0 = (sd ÷ win rate)²: rounds until the expected win equals one standard deviation.
    pub n0: f64,
    /// Risk of ruin of the bankroll over an unlimited game, exp(−2 · win rate · bankroll ÷
    /// sd²) (the diffusion approximation).
    pub risk_of_ruin: f64,
    /// By count (lowest first): rounds, and the mean result of a hand per unit bet with its
    /// standard error (NaN where no round was played).
    pub by_count: Vec<(u64, f64, f64)>,
    /// Simulated trips, and the share in which the bankroll was lost, with its standard
    /// error.
    pub trips: u64,
    pub ruin_in_trip: (f64, f64),
    /// The same by the diffusion formula for a trip of that many rounds.
    pub ruin_in_trip_formula: f64,
    /// The risk of ruin of an unlimited game, simulated ([`super::sim::Sessions`]): the
    /// share of sessions that lost the bankroll, with its standard error (NaN without a
    /// session); the sessions, and those stopped at the round limit.
    pub ruin_simulated: (f64, f64),
    pub sessions: u64,
    pub session_caps: u64,
    /// What the diffusion formula leaves beyond a session's safe level: the risk of ruin
    /// of `ruin_goal` times the bankroll.
    pub ruin_beyond_goal: f64,
    /// Shoes left before the cut card (wonging out).
    pub shoes_left: u64,
    /// Standard errors of the figures derived from the whole simulation, by the jackknife
    /// over its work units ([`CounterResult::with_errors`]); NaN with fewer than two
    /// units.
    pub errors: DerivedErrors,
}

/// Jackknife standard errors of a [`CounterResult`]'s derived figures. The work units are
/// independent streams of whole shoes, so these errors count the correlation of rounds
/// within a shoe (which the bet and the count carry from round to round).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DerivedErrors {
    pub sd: f64,
    pub mean_bet: f64,
    pub n0: f64,
    pub risk_of_ruin: f64,
    pub ruin_in_trip_formula: f64,
    pub ruin_beyond_goal: f64,
    /// Per count of the range: the share of rounds at that count, with its error.
    pub frequency: Vec<(f64, f64)>,
    /// Work units the errors come from.
    pub units: usize,
}

/// The jackknife standard error of a statistic from its leave-one-out values: NaN with
/// fewer than two.
fn jackknife(values: &[f64]) -> f64 {
    let n = values.len();
    if n < 2 {
        return f64::NAN;
    }
    let mean = values.iter().sum::<f64>() / n as f64;
    let spread: f64 = values.iter().map(|v| (v - mean) * (v - mean)).sum();
    ((n - 1) as f64 / n as f64 * spread).sqrt()
}

impl CounterResult {
    /// From a simulation's sums, as ramp `ramp` bet it.
    pub fn of(t: &CounterTally, ramp: usize) -> CounterResult {
        let r = t.by_ramp.get(ramp).copied().unwrap_or_default();
        let n = r.won.rounds;
        let mean = r.won.mean();
        let se = r.won.std_error();
        let sd = se * (n as f64).sqrt();
        // SCORE is the win per 100 rounds of a Kelly bettor with a 10,000-unit bankroll:
        // zero where the ramp does not win (that bettor does not play), never the positive
        // square of a loss. Its error is the delta method's, and at least the square of
        // the win rate's own error, which the delta method misses near zero.
        let edge = mean.max(0.0);
        let score = 1e6 * (edge / sd).powi(2);
        let delta = if edge > 0.0 {
            2.0 * score * se / edge
        } else {
            0.0
        };
        let score_se = delta.max(1e6 * (se / sd).powi(2));
        CounterResult {
            rounds: n,
            win_rate: (mean, se),
            sd,
            mean_bet: r.bet / n as f64,
            score: (score, score_se),
            n0: (sd / mean).powi(2),
            risk_of_ruin: f64::NAN,
            trips: t.trips,
            ruin_in_trip: if t.trips == 0 {
                (f64::NAN, f64::NAN)
            } else {
                let p = r.ruined as f64 / t.trips as f64;
                (p, (p * (1.0 - p) / t.trips as f64).sqrt())
            },
            ruin_in_trip_formula: f64::NAN,
            ruin_simulated: if r.sessions == 0 {
                (f64::NAN, f64::NAN)
            } else {
                let p = r.session_ruins as f64 / r.sessions as f64;
                (p, (p * (1.0 - p) / r.sessions as f64).sqrt())
            },
            sessions: r.sessions,
            session_caps: r.session_caps,
            ruin_beyond_goal: f64::NAN,
            shoes_left: t.shoes_left,
            errors: DerivedErrors::default(),
            by_count: t
                .by_count
                .iter()
                .map(|c| {
                    if c.rounds == 0 {
                        (0, f64::NAN, f64::NAN)
                    } else {
                        (c.rounds, c.mean(), c.std_error())
                    }
                })
                .collect(),
        }
    }

    /// The same with the risks of ruin of `bankroll` units: over a game that never ends,
    /// within a trip of `trip_rounds` rounds, and beyond a simulated session's safe level
    /// of `ruin_goal` times the bankroll, by the diffusion formulas.
    pub fn with_bankroll(
        mut self,
        bankroll: f64,
        trip_rounds: u64,
        ruin_goal: f64,
    ) -> CounterResult {
        let (mean, _) = self.win_rate;
        let var = self.sd * self.sd;
        let ruin = |b: f64| {
            if mean <= 0.0 {
                1.0
            } else {
                (-2.0 * mean * b / var).exp()
            }
        };
        self.risk_of_ruin = ruin(bankroll);
        self.ruin_beyond_goal = ruin(ruin_goal * bankroll);
        // Brownian motion with drift μ and variance σ² per round, from B: the chance of
        // reaching 0 by round T.
        let t = trip_rounds as f64;
        let spread = self.sd * t.sqrt();
        self.ruin_in_trip_formula = normal_cdf((-bankroll - mean * t) / spread)
            + (-2.0 * mean * bankroll / var).exp() * normal_cdf((-bankroll + mean * t) / spread);
        self
    }
}

impl CounterResult {
    /// The share of rounds at count index `i` of the range, with its jackknife error (NaN
    /// where none could be estimated).
    pub fn frequency(&self, i: usize) -> (f64, f64) {
        self.errors.frequency.get(i).copied().unwrap_or((
            self.by_count.get(i).map_or(0, |c| c.0) as f64 / self.rounds.max(1) as f64,
            f64::NAN,
        ))
    }

    /// The result of ramp `ramp` over all of `units` (one rule set's), with the risks of
    /// ruin of [`CounterResult::with_bankroll`] and the jackknife errors of every derived
    /// figure: each is recomputed with one unit left out, and the spread of those values
    /// gives its standard error.
    pub fn of_units(
        units: &[&CounterTally],
        ramp: usize,
        bankroll: f64,
        trip_rounds: u64,
        ruin_goal: f64,
    ) -> CounterResult {
        let sum = |skip: Option<usize>| {
            let mut t = CounterTally::default();
            for (i, u) in units.iter().enumerate() {
                if Some(i) != skip {
                    t.add(u);
                }
            }
            t
        };
        let result = |t: &CounterTally| {
            CounterResult::of(t, ramp).with_bankroll(bankroll, trip_rounds, ruin_goal)
        };
        let mut whole = result(&sum(None));
        let total = sum(None);
        let shares = |t: &CounterTally| -> Vec<f64> {
            let n = t.rounds().max(1) as f64;
            t.by_count.iter().map(|c| c.rounds as f64 / n).collect()
        };
        let (left_out, left_shares): (Vec<CounterResult>, Vec<Vec<f64>>) = if units.len() < 2 {
            (Vec::new(), Vec::new())
        } else {
            (0..units.len())
                .map(|i| {
                    let t = sum(Some(i));
                    (result(&t), shares(&t))
                })
                .unzip()
        };
        let error =
            |f: fn(&CounterResult) -> f64| jackknife(&left_out.iter().map(f).collect::<Vec<f64>>());
        whole.errors = DerivedErrors {
            sd: error(|k| k.sd),
            mean_bet: error(|k| k.mean_bet),
            n0: error(|k| k.n0),
            risk_of_ruin: error(|k| k.risk_of_ruin),
            ruin_in_trip_formula: error(|k| k.ruin_in_trip_formula),
            ruin_beyond_goal: error(|k| k.ruin_beyond_goal),
            frequency: shares(&total)
                .into_iter()
                .enumerate()
                .map(|(c, share)| {
                    let column: Vec<f64> = left_shares.iter().map(|s| s[c]).collect();
                    (share, jackknife(&column))
                })
                .collect(),
            units: units.len(),
        };
        whole
    }
}

/// The standard normal distribution function, Φ(x) = ½ erfc(−x/√2), by the Chebyshev
/// fit of erfc with fractional error below 1.2 × 10⁻⁷ everywhere.
pub fn normal_cdf(x: f64) -> f64 {
    let z = -x / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.5 * z.abs());
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    0.5 * if z >= 0.0 { erfc } else { 2.0 - erfc }
}
