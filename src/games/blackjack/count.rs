//! Card counting systems and the count a counter keeps: the `[count]` table of a
//! `blackjack.indices` job.
//!
//! A system gives every rank a tag; the running count is the sum of the tags of the cards
//! seen since the shuffle. A *balanced* system's tags sum to zero over a deck, and its
//! running count is divided by the decks not yet dealt (estimated to the job's resolution)
//! and made a whole number (floored or truncated): the true count. An *unbalanced* system
//! (KO) is used by its running count alone, started at −s·(decks − 1), where s is the
//! tags' sum over one deck, so that the count ends the shoe at s whatever the number of
//! decks (for KO, s = +4: the usual initial count 4 − 4·decks, and +4 its pivot).

use serde::{Deserialize, Serialize};

use cardtables::blackjack::RANKS;

use crate::job::{JobError, JobSpec, Pair};

/// A built-in counting system.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum System {
    #[serde(rename = "hi-lo")]
    HiLo,
    #[serde(rename = "ko")]
    Ko,
    #[serde(rename = "hi-opt-i")]
    HiOptI,
    #[serde(rename = "hi-opt-ii")]
    HiOptII,
    #[serde(rename = "omega-ii")]
    OmegaII,
    #[serde(rename = "zen")]
    Zen,
    #[serde(rename = "wong-halves")]
    WongHalves,
}

impl System {
    /// Every built-in system, in the order the docs list them.
    pub const ALL: [System; 7] = [
        System::HiLo,
        System::Ko,
        System::HiOptI,
        System::HiOptII,
        System::OmegaII,
        System::Zen,
        System::WongHalves,
    ];

    /// The job-file word.
    pub fn word(self) -> &'static str {
        match self {
            System::HiLo => "hi-lo",
            System::Ko => "ko",
            System::HiOptI => "hi-opt-i",
            System::HiOptII => "hi-opt-ii",
            System::OmegaII => "omega-ii",
            System::Zen => "zen",
            System::WongHalves => "wong-halves",
        }
    }

    /// Tags by rank: ace, 2..9, ten-valued (the published values of each system).
    pub fn tags(self) -> [f64; RANKS] {
        match self {
            System::HiLo => [-1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, -1.0],
            System::Ko => [-1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, -1.0],
            System::HiOptI => [0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, -1.0],
            System::HiOptII => [0.0, 1.0, 1.0, 2.0, 2.0, 1.0, 1.0, 0.0, 0.0, -2.0],
            System::OmegaII => [0.0, 1.0, 1.0, 2.0, 2.0, 2.0, 1.0, 0.0, -1.0, -2.0],
            System::Zen => [-1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 1.0, 0.0, 0.0, -2.0],
            System::WongHalves => [-1.0, 0.5, 1.0, 1.0, 1.5, 1.0, 0.5, 0.0, -0.5, -1.0],
        }
    }
}

/// How the decks not yet dealt are estimated for the true count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Resolution {
    /// Cards left ÷ 52, exactly.
    Exact,
    /// Rounded to the nearest half deck (at least one half).
    Half,
    /// Rounded to the nearest whole deck (at least one).
    Full,
}

/// How the true count is made a whole number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rounding {
    /// Toward minus infinity: +2.7 is 2, −0.3 is −1.
    Floor,
    /// Toward zero: +2.7 is 2, −0.3 is 0.
    Truncate,
}

/// The `[count]` table as written.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CountSettings {
    /// A built-in system (Hi-Lo when neither this nor `tags` is given).
    pub system: Option<System>,
    /// A custom system: tags for A, 2, …, 9, T.
    pub tags: Option<Vec<f64>>,
    pub deck_resolution: Resolution,
    pub rounding: Rounding,
    /// The counts tabulated, inclusive; counts beyond are tabulated at the nearer end.
    pub range: Pair<i32, i32>,
}

impl Default for CountSettings {
    fn default() -> Self {
        CountSettings {
            system: None,
            tags: None,
            deck_resolution: Resolution::Exact,
            rounding: Rounding::Floor,
            range: Pair(-10, 10),
        }
    }
}

/// Largest tag allowed in a custom system.
const MAX_TAG: f64 = 10.0;
/// Widest count range a job may tabulate.
pub const MAX_COUNTS: usize = 81;

/// A validated counting system and conventions: turns the cards seen into the count a
/// decision is made at.
#[derive(Clone, Debug, PartialEq)]
pub struct Counter {
    /// The system's name (`hi-lo`, or `custom`).
    pub name: String,
    pub tags: [f64; RANKS],
    /// Twice the tags: whole numbers, since tags are whole or half points.
    twice_tags: [i64; RANKS],
    /// Whether the tags sum to zero over a deck (true count) or not (running count).
    pub balanced: bool,
    pub resolution: Resolution,
    pub rounding: Rounding,
    /// Lowest and highest count tabulated.
    pub low: i32,
    pub high: i32,
}

impl Counter {
    /// Validates the `[count]` table of a job file.
    pub fn from_spec(spec: &JobSpec) -> Result<Counter, JobError> {
        #[derive(Deserialize)]
        struct Sections {
            #[serde(default)]
            count: Option<CountSettings>,
        }
        let s: Sections = spec.deserialize()?;
        Counter::new(&s.count.unwrap_or_default())
            .map_err(|(field, message)| spec.field_error(field, message))
    }

    /// Validates settings; an error names the field.
    pub fn new(s: &CountSettings) -> Result<Counter, (&'static str, String)> {
        let (name, tags) = match (&s.system, &s.tags) {
            (Some(_), Some(_)) => {
                return Err((
                    "count.tags",
                    "give either `system` (a built-in) or `tags` (a custom system), not both"
                        .into(),
                ))
            }
            (Some(system), None) => (system.word().to_string(), system.tags()),
            (None, None) => (System::HiLo.word().to_string(), System::HiLo.tags()),
            (None, Some(tags)) => {
                let tags: [f64; RANKS] = tags.as_slice().try_into().map_err(|_| {
                    (
                        "count.tags",
                        format!(
                            "{} tags: give 10, for A, 2, 3, 4, 5, 6, 7, 8, 9 and T",
                            tags.len()
                        ),
                    )
                })?;
                if let Some(t) = tags
                    .iter()
                    .find(|t| !t.is_finite() || t.abs() > MAX_TAG || (2.0 * *t).fract() != 0.0)
                {
                    return Err((
                        "count.tags",
                        format!("tag {t}: use whole or half points from -{MAX_TAG} to {MAX_TAG}"),
                    ));
                }
                if tags.iter().all(|&t| t == 0.0) {
                    return Err(("count.tags", "every tag is 0: nothing is counted".into()));
                }
                ("custom".to_string(), tags)
            }
        };
        let Pair(low, high) = s.range;
        if low >= high || low < -40 || high > 40 {
            return Err((
                "count.range",
                format!("[{low}, {high}]: give [low, high] with -40 <= low < high <= 40"),
            ));
        }
        let balanced = deck_sum(&tags) == 0.0;
        Ok(Counter {
            name,
            tags,
            twice_tags: tags.map(|t| (2.0 * t) as i64),
            balanced,
            resolution: s.deck_resolution,
            rounding: s.rounding,
            low,
            high,
        })
    }

    /// Number of counts tabulated.
    pub fn counts(&self) -> usize {
        (self.high - self.low + 1) as usize
    }

    /// The running count once the cards `seen` (per rank) are dealt from a shoe of
    /// `decks` decks (unbalanced systems start at −s·(decks − 1)).
    pub fn running(&self, seen: &[u32; RANKS], decks: u32) -> f64 {
        let start = if self.balanced {
            0.0
        } else {
            -deck_sum(&self.tags) * f64::from(decks.saturating_sub(1))
        };
        start
            + seen
                .iter()
                .zip(&self.tags)
                .map(|(&n, &t)| f64::from(n) * t)
                .sum::<f64>()
    }

    /// The count a decision is made at, clamped to the tabulated range: the true count
    /// (balanced) or the running count (unbalanced), a whole number by the rounding rule.
    /// Computed in exact integer arithmetic (tags are whole or half points), so a true
    /// count that is a whole number is never floored to the one below by a rounding error.
    pub fn count(&self, seen: &[u32; RANKS], left: u32, decks: u32) -> i32 {
        let twice_seen = seen
            .iter()
            .zip(&self.twice_tags)
            .map(|(&n, &t)| i64::from(n) * t)
            .sum::<i64>();
        self.count_of_twice(twice_seen, left, decks)
    }

    /// Twice the tags: what each dealt card of a rank adds to twice the running count (a
    /// whole number), for a dealer that keeps the count as it deals.
    pub fn twice_tags(&self) -> [i64; RANKS] {
        self.twice_tags
    }

    /// [`Counter::count`] from twice the tags' sum over the cards seen.
    pub fn count_of_twice(&self, twice_seen: i64, left: u32, decks: u32) -> i32 {
        // Twice the running count, an integer.
        let twice: i64 = self.twice_start(decks) + twice_seen;
        // The count is `twice / divisor`, made whole by the rounding rule.
        let divisor: i64 = if !self.balanced {
            2
        } else {
            let left = i64::from(left);
            match self.resolution {
                // running ÷ (left ÷ 52), at least 1 card: twice · 26 ÷ left.
                Resolution::Exact => return self.whole(twice * 26, left.max(1)),
                // running ÷ (h ÷ 2) for h half decks, h = left ÷ 26 rounded half up, ≥ 1.
                Resolution::Half => ((left + 13) / 26).max(1),
                // running ÷ d for d decks, d = left ÷ 52 rounded half up, ≥ 1.
                Resolution::Full => 2 * ((left + 26) / 52).max(1),
            }
        };
        self.whole(twice, divisor)
    }

    /// `numerator ÷ divisor` (divisor > 0) made whole by the rounding rule and clamped to
    /// the range.
    fn whole(&self, numerator: i64, divisor: i64) -> i32 {
        let whole = match self.rounding {
            Rounding::Floor => numerator.div_euclid(divisor),
            Rounding::Truncate => numerator / divisor,
        };
        whole.clamp(i64::from(self.low), i64::from(self.high)) as i32
    }

    /// Twice the running count before any card is dealt.
    fn twice_start(&self, decks: u32) -> i64 {
        if self.balanced {
            0
        } else {
            // −s · (decks − 1), s the tags' sum over a deck (a whole or half number).
            -((2.0 * deck_sum(&self.tags)) as i64) * i64::from(decks.saturating_sub(1))
        }
    }

    /// The decks not yet dealt as the counter estimates them from `left` cards.
    pub fn decks_left(&self, left: u32) -> f64 {
        let exact = f64::from(left) / 52.0;
        match self.resolution {
            Resolution::Exact => exact.max(1.0 / 52.0),
            Resolution::Half => ((exact * 2.0).round() / 2.0).max(0.5),
            Resolution::Full => exact.round().max(1.0),
        }
    }

    /// What the count axis is called in tables and reports.
    pub fn axis(&self) -> &'static str {
        if self.balanced {
            "true count"
        } else {
            "running count"
        }
    }

    /// The settings as the outputs record them (TOML).
    pub fn canonical_toml(&self) -> String {
        let tags: Vec<String> = self.tags.iter().map(|t| format!("{t}")).collect();
        format!(
            "[count]\nsystem = {:?}\ntags = [{}]\ndeck_resolution = {:?}\nrounding = {:?}\nrange = [{}, {}]\n",
            self.name,
            tags.join(", "),
            word(&self.resolution),
            word(&self.rounding),
            self.low,
            self.high
        )
    }
}

/// A unit enum's serde word.
fn word<T: Serialize>(v: &T) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// The sum of a system's tags over one deck (four of each rank, sixteen ten-valued).
pub fn deck_sum(tags: &[f64; RANKS]) -> f64 {
    tags.iter()
        .enumerate()
        .map(|(r, &t)| t * if r == RANKS - 1 { 16.0 } else { 4.0 })
        .sum()
}
