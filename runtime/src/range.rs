//! Hold'em ranges in the notation players write: `QQ+, AKs, A5s-A2s, KTo+, AhKh:0.5`.
//!
//! A [`Range`] weighs each of the 1,326 two-card holdings from 0 (not in the range) to 1.
//! The grammar, also in `docs/ranges.md`: tokens separated by commas, each one of
//!
//! | token | holdings |
//! |---|---|
//! | `QQ`, `AKs`, `AKo`, `AK` | a pair (6), a suited (4) or offsuit (12) class, or both (16) |
//! | `QQ+`, `A2s+`, `KTo+`, `K9+` | a pair and every higher pair; a class and every higher kicker below the top card |
//! | `99-66`, `A5s-A2s`, `KTo-K7o` | every class between the two, ends included (same top card, same kind) |
//! | `T9s-76s`, `T8s-64s` | connectors and gappers: both ranks step together, the gap kept |
//! | `AhKh`, `Ah Kh`, `♥A♥K` | one holding |
//! | `AsKx`, `AxKx`, `AxAx` | `x` for any suit: every holding the pattern allows |
//! | `random` (or `any`) | all 1,326 holdings |
//! | `top 10%` (or `10%`) | the strongest classes by a [`Ranking`] ([`PREFLOP_ORDER`] unless [`Range::parse_ranked`] names another), until they hold at least that share of 1,326 holdings |
//!
//! Any token may end in `:w`, a weight from 0 to 1 (`AKo:0.5`). Tokens may also stand in
//! a group, `[50]AKo, AQs[/50]` (Equilab's form): each token in it weighs the group's
//! percentage, 0 to 100, and takes no weight of its own. A holding named by several tokens
//! takes the weight of the last. Ranks are `23456789TJQKA` (any case, `10`
//! for T), suits `shdc` or `♠♥♦♣`. Whitespace around tokens is ignored. An error names
//! the token and the forms allowed.

use crate::card::{parse_exact, quote, Card, RANK_CHARS};
use crate::colex;

/// Two-card holdings: C(52, 2).
pub const HOLDINGS: usize = 1326;

/// The 169 starting classes, strongest first, by exact equity against one random hand
/// (ties counting half; the `holdem.preflop` job's `equity` column). `top N%` ranges
/// follow this order; a test in the pipeline recomputes it.
pub const PREFLOP_ORDER: &str =
    "AA KK QQ JJ TT 99 88 AKs 77 AQs AJs AKo ATs AQo AJo KQs 66 A9s ATo \
KJs A8s KTs KQo A7s A9o KJo 55 QJs K9s A5s A6s A8o KTo QTs A4s A7o K8s A3s QJo K9o A5o A6o Q9s \
K7s JTs A2s QTo 44 A4o K6s K8o Q8s A3o K5s J9s Q9o JTo K7o A2o K4s Q7s K6o K3s T9s J8s 33 Q6s \
Q8o K5o J9o K2s Q5s T8s K4o J7s Q4s Q7o T9o J8o K3o Q6o Q3s 98s T7s J6s K2o 22 Q2s Q5o J5s T8o \
J7o Q4o 97s J4s T6s J3s Q3o 98o 87s T7o J6o 96s J2s Q2o T5s J5o T4s 97o 86s J4o T6o 95s T3s 76s \
J3o 87o T2s 85s 96o J2o T5o 94s 75s T4o 93s 86o 65s 84s 95o T3o 92s 76o 74s T2o 54s 85o 64s 83s \
94o 75o 82s 73s 93o 65o 53s 63s 84o 92o 43s 74o 72s 54o 64o 52s 62s 83o 42s 82o 73o 53o 63o \
32s 43o 72o 52o 62o 42o 32o";

/// The 169 starting classes, strongest first, by equity against three random hands (ties
/// counting their share): the model of the hand rankings in PokerStove and Equilab,
/// "hand vs 3 randoms". Sampled, not exact: each class by `pipeline equity CLASS random
/// random random --std-error 5e-5 --seed 2026`, to a standard error of at most 5e-5; 23
/// neighbours whose equities differ by less than three standard errors of the
/// difference (2.1e-4) may stand in either order. `top N%` follows it under
/// [`Ranking::VsThreeRandom`]; a test in the pipeline samples the classes again.
pub const PREFLOP_ORDER_VS3: &str =
    "AA KK QQ JJ TT AKs 99 AQs AKo AJs KQs 88 ATs AQo KJs QJs KTs AJo KQo A9s QTs 77 ATo JTs \
KJo A8s K9s QJo A7s KTo Q9s A5s 66 QTo A6s J9s A9o A4s T9s K8s JTo A3s K7s A8o Q8s K9o \
A2s J8s K6s 55 T8s A7o 98s Q9o K5s A5o J9o Q7s T9o K4s A6o K8o A4o J7s Q6s T7s K3s 97s \
87s A3o 44 Q5s K7o K2s Q8o Q4s J8o A2o T8o J6s K6o 76s T6s 98o 86s Q3s 96s J5s K5o Q2s \
J4s 33 Q7o 65s K4o 75s J7o J3s T5s T7o 85s Q6o 87o 95s 97o K3o T4s J2s 54s Q5o 64s T3s \
K2o 22 74s Q4o T2s 84s 76o J6o 94s 86o T6o 53s 96o 93s Q3o J5o 63s 43s 92s Q2o 73s J4o \
65o 83s 75o 52s 82s 85o T5o J3o 95o 42s 54o 62s T4o J2o 72s 64o 32s T3o 74o 84o T2o 94o \
53o 93o 63o 43o 92o 73o 83o 52o 82o 42o 62o 72o 32o";

/// The order of the 169 classes that a `top N%` token takes its classes from, strongest
/// first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Ranking {
    /// [`PREFLOP_ORDER`]: exact equity against one random hand (the default).
    #[default]
    VsOneRandom,
    /// [`PREFLOP_ORDER_VS3`]: equity against three random hands, the model of the hand
    /// rankings in PokerStove and Equilab.
    VsThreeRandom,
}

impl Ranking {
    /// The 169 class names, strongest first, separated by spaces.
    pub fn order(self) -> &'static str {
        match self {
            Ranking::VsOneRandom => PREFLOP_ORDER,
            Ranking::VsThreeRandom => PREFLOP_ORDER_VS3,
        }
    }
}

/// Why a range could not be read.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum RangeError {
    /// A token that is none of the forms.
    #[error("{} is not a range token: {why}. Write a class (QQ, AKs, AKo, AK), a class and its higher ones (QQ+, A2s+, KTo+), a span (99-66, A5s-A2s, T9s-76s, KQo-K9o), one holding (AhKh), suits as x (AsKx), random, or top 10%; any of them may end in :0.5, a weight from 0 to 1, or stand in a group [50]AKo, AQs[/50] that weighs them 50%", quote(token))]
    Token { token: String, why: String },
    /// Nothing with a weight above 0.
    #[error("the range {} holds no holding with a weight above 0", quote(.0))]
    Empty(String),
}

/// The percentage of a `[N]` or `[/N]` group mark: a number from 0 to 100.
fn group_percent(text: &str) -> Result<f64, String> {
    let p: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("the group's percentage {text:?} is not a number"))?;
    if !(0.0..=100.0).contains(&p) {
        return Err("a group's percentage runs from 0 to 100".into());
    }
    Ok(p)
}

/// Weights of the 1,326 holdings, by the colex index of their two cards.
#[derive(Clone, Debug, PartialEq)]
pub struct Range {
    weights: Vec<f64>,
}

/// A class as a shape: top rank, low rank (equal for a pair), and which suitings.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Shape {
    high: u8,
    low: u8,
    /// `Some(true)` suited, `Some(false)` offsuit, `None` both (or a pair).
    suited: Option<bool>,
}

impl Range {
    /// Reads a range in the notation of the module docs.
    pub fn parse(text: &str) -> Result<Range, RangeError> {
        Range::parse_ranked(text, Ranking::VsOneRandom)
    }

    /// Reads a range whose `top N%` tokens take the classes in `ranking`'s order.
    pub fn parse_ranked(text: &str, ranking: Ranking) -> Result<Range, RangeError> {
        let mut weights = vec![0.0; HOLDINGS];
        // An open `[N]` group: its percentage, and the token that opened it.
        let mut group: Option<(f64, String)> = None;
        for raw in text.split(',') {
            let token = raw.trim();
            let error = |why: &str| RangeError::Token {
                token: token.to_string(),
                why: why.to_string(),
            };
            if token.is_empty() {
                return Err(error("an empty token (two commas, or one at an end)"));
            }
            let mut body = token;
            if body.starts_with("[/") {
                return Err(error(
                    "[/N] closes a group after the group's last token (AQs[/50]), not as a token of its own",
                ));
            }
            if let Some(rest) = body.strip_prefix('[') {
                let (percent, rest) = rest
                    .split_once(']')
                    .ok_or_else(|| error("a group opens as [50], with a ']'"))?;
                if group.is_some() {
                    return Err(error("a [N] group opened inside another"));
                }
                group = Some((
                    group_percent(percent).map_err(|why| error(&why))?,
                    token.into(),
                ));
                body = rest.trim();
            }
            let mut closes = false;
            if let Some(rest) = body.strip_suffix(']') {
                let (rest, percent) = rest
                    .rsplit_once("[/")
                    .ok_or_else(|| error("a group closes as [/50]"))?;
                let percent = group_percent(percent).map_err(|why| error(&why))?;
                match &group {
                    None => return Err(error("a [/N] that closes no group")),
                    Some((open, _)) if *open != percent => {
                        return Err(error("a group closes with the percentage it opened with"))
                    }
                    Some(_) => closes = true,
                }
                body = rest.trim();
            }
            let weight = match (body.rsplit_once(':'), &group) {
                (Some(_), Some(_)) => {
                    return Err(error(
                        "a token inside a [N] group takes the group's weight, not its own",
                    ))
                }
                (Some((b, w)), None) => {
                    let w: f64 = w
                        .trim()
                        .parse()
                        .map_err(|_| error("the weight after ':' is not a number"))?;
                    if !(0.0..=1.0).contains(&w) {
                        return Err(error("a weight runs from 0 to 1"));
                    }
                    body = b.trim();
                    w
                }
                (None, Some((percent, _))) => percent / 100.0,
                (None, None) => 1.0,
            };
            for index in holdings(body, ranking).map_err(|why| error(&why))? {
                weights[index] = weight;
            }
            if closes {
                group = None;
            }
        }
        if let Some((_, token)) = group {
            return Err(RangeError::Token {
                token,
                why: "this [N] group is never closed with [/N]".into(),
            });
        }
        if weights.iter().all(|&w| w == 0.0) {
            return Err(RangeError::Empty(text.to_string()));
        }
        Ok(Range { weights })
    }

    /// Every holding with a weight above 0, in colex order of its two cards (the lower
    /// card first), with its weight.
    pub fn holdings(&self) -> impl Iterator<Item = ([Card; 2], f64)> + '_ {
        self.weights
            .iter()
            .enumerate()
            .filter(|(_, &w)| w > 0.0)
            .map(|(i, &w)| {
                let mut two = [Card::from_id(0).expect("card 0"); 2];
                colex::unrank(i as u32, 2, &mut two);
                (two, w)
            })
    }

    /// The weight of a holding (0 when it is not in the range).
    pub fn weight(&self, cards: [Card; 2]) -> f64 {
        if cards[0] == cards[1] {
            return 0.0;
        }
        self.weights[colex::index_of(&cards) as usize]
    }

    /// Holdings with a weight above 0.
    pub fn len(&self) -> usize {
        self.weights.iter().filter(|&&w| w > 0.0).count()
    }

    /// Always false: a parsed range holds something.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The weights summed: the number of holdings, each counted at its weight.
    pub fn combos(&self) -> f64 {
        self.weights.iter().sum()
    }
}

/// The holdings (colex indices) one token body names, or why it names none. Errors
/// quote what the user wrote, never a rewritten form.
fn holdings(body: &str, ranking: Ranking) -> Result<Vec<usize>, String> {
    let lower = body.to_ascii_lowercase();
    if lower == "random" || lower == "any" {
        return Ok((0..HOLDINGS).collect());
    }
    if let Some(percent) = lower
        .strip_prefix("top")
        .map(str::trim)
        .unwrap_or(&lower)
        .strip_suffix('%')
    {
        let share: f64 = percent
            .trim()
            .parse()
            .map_err(|_| format!("{} before '%' is not a number", quote(percent)))?;
        if !(share > 0.0 && share <= 100.0) {
            return Err("a top share runs from above 0 to 100 %".into());
        }
        return Ok(top(share, ranking));
    }
    if lower.starts_with("top") {
        return Err("a top share ends in %: top 10%".into());
    }
    if let Ok(cards) = parse_exact(body, 2) {
        return Ok(vec![colex::index_of(&cards) as usize]);
    }
    if lower.contains('x') {
        return wildcard(body);
    }
    if let Some((from, to)) = body.split_once('-') {
        let (a, b) = (shape(from.trim())?, shape(to.trim())?);
        return span(a, b);
    }
    if let Some(base) = body.strip_suffix('+') {
        let s = shape(base.trim())?;
        let top = if s.high == s.low { 12 } else { s.high - 1 };
        let last = Shape {
            high: if s.high == s.low { 12 } else { s.high },
            low: top,
            ..s
        };
        return span(last, s);
    }
    Ok(class_holdings(shape(body)?))
}

/// A class written as two ranks and an optional `s` / `o` (`10` for a ten).
fn shape(written: &str) -> Result<Shape, String> {
    let text = written.replace("10", "T");
    let chars: Vec<char> = text.chars().collect();
    let rank = |c: Option<&char>| {
        c.and_then(|c| RANK_CHARS.iter().position(|r| *r == c.to_ascii_uppercase()))
            .map(|r| r as u8)
    };
    let (Some(a), Some(b)) = (rank(chars.first()), rank(chars.get(1))) else {
        return Err(format!("{} does not start with two ranks", quote(written)));
    };
    let suited = match chars.get(2).map(|c| c.to_ascii_lowercase()) {
        None => None,
        Some('s') if chars.len() == 3 => Some(true),
        Some('o') if chars.len() == 3 => Some(false),
        _ => {
            return Err(format!(
                "{}: after two ranks only s or o may follow",
                quote(written)
            ))
        }
    };
    if a == b && suited.is_some() {
        return Err(format!(
            "{}: a pair is neither suited nor offsuit",
            quote(written)
        ));
    }
    Ok(Shape {
        high: a.max(b),
        low: a.min(b),
        suited,
    })
}

/// Every class from `a` to `b`, ends included: pairs between two pairs; the kickers
/// between two classes with the same top card and kind (`A5s-A2s`, `KQo-K9o`); or
/// classes whose two ranks move together, one apart or more, between two of the same
/// kind and gap (connectors `T9s-76s`, gappers `T8s-64s`, `J9o-75o`), as PokerStove,
/// Equilab and Flopzilla read them.
fn span(a: Shape, b: Shape) -> Result<Vec<usize>, String> {
    let pair = |s: Shape| s.high == s.low;
    let mut out = Vec::new();
    if pair(a) && pair(b) {
        for r in a.low.min(b.low)..=a.low.max(b.low) {
            out.extend(class_holdings(Shape {
                high: r,
                low: r,
                suited: None,
            }));
        }
        return Ok(out);
    }
    if pair(a) || pair(b) {
        return Err("a span joins two pairs (99-66), or two classes that are not pairs".into());
    }
    if a.suited != b.suited {
        return Err("a span's two ends are of one kind: both suited, both offsuit, or both neither (A5s-A2s, KQ-K9)".into());
    }
    if a.high == b.high {
        for low in a.low.min(b.low)..=a.low.max(b.low) {
            out.extend(class_holdings(Shape { low, ..a }));
        }
        return Ok(out);
    }
    let gap = a.high - a.low;
    if b.high - b.low != gap {
        return Err(format!(
            "a span whose two ranks both move keeps the gap between them: its ends are {} and {} apart (T9s-76s keeps one, T8s-64s two)",
            gap,
            b.high - b.low
        ));
    }
    for high in a.high.min(b.high)..=a.high.max(b.high) {
        out.extend(class_holdings(Shape {
            high,
            low: high - gap,
            ..a
        }));
    }
    Ok(out)
}

/// The holdings of one class shape.
fn class_holdings(s: Shape) -> Vec<usize> {
    let mut out = Vec::new();
    for x in 0..4u8 {
        for y in 0..4u8 {
            let (Some(a), Some(b)) = (Card::new(s.high, x), Card::new(s.low, y)) else {
                continue;
            };
            let keep = if s.high == s.low {
                x < y
            } else {
                match s.suited {
                    Some(true) => x == y,
                    Some(false) => x != y,
                    None => true,
                }
            };
            if keep {
                out.push(colex::index_of(&[a, b]) as usize);
            }
        }
    }
    out
}

/// `AsKx`-style holdings: two cards, each a rank and a suit or `x` for any suit.
fn wildcard(body: &str) -> Result<Vec<usize>, String> {
    let text: String = body
        .replace("10", "T")
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != 4 {
        return Err("a pattern with x is two cards of a rank and a suit or x each (AsKx)".into());
    }
    let card = |r: char, s: char| -> Result<Vec<Card>, String> {
        let rank = RANK_CHARS
            .iter()
            .position(|c| *c == r.to_ascii_uppercase())
            .ok_or_else(|| format!("{r:?} is not a rank"))? as u8;
        if s.eq_ignore_ascii_case(&'x') {
            return Ok((0..4).filter_map(|suit| Card::new(rank, suit)).collect());
        }
        let one = parse_exact(&format!("{r}{s}"), 1).map_err(|e| e.to_string())?;
        Ok(one)
    };
    let (a, b) = (card(chars[0], chars[1])?, card(chars[2], chars[3])?);
    let mut out: Vec<usize> = Vec::new();
    for &x in &a {
        for &y in &b {
            if x != y {
                let i = colex::index_of(&[x, y]) as usize;
                if !out.contains(&i) {
                    out.push(i);
                }
            }
        }
    }
    if out.is_empty() {
        return Err("the pattern allows no two distinct cards".into());
    }
    Ok(out)
}

/// The strongest classes by `ranking` until they hold at least `percent` % of the 1,326
/// holdings.
fn top(percent: f64, ranking: Ranking) -> Vec<usize> {
    let target = percent / 100.0 * HOLDINGS as f64;
    let mut out = Vec::new();
    for name in ranking.order().split_whitespace() {
        if out.len() as f64 >= target - 1e-9 {
            break;
        }
        out.extend(class_holdings(
            shape(name).expect("the order names classes"),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(text: &str) -> usize {
        Range::parse(text).unwrap().len()
    }

    #[test]
    fn classes_and_their_combos() {
        assert_eq!(count("AA"), 6);
        assert_eq!(count("AKs"), 4);
        assert_eq!(count("AKo"), 12);
        assert_eq!(count("AK"), 16);
        assert_eq!(count("ak"), 16);
        assert_eq!(count("random"), HOLDINGS);
        assert_eq!(count("QQ+"), 18);
        assert_eq!(count("22+"), 78);
        assert_eq!(count("99-66"), 24);
        assert_eq!(count("66-99"), 24);
        assert_eq!(count("A2s+"), 48);
        assert_eq!(count("KTo+"), 36);
        assert_eq!(count("K9+"), 64);
        assert_eq!(count("A5s-A2s"), 16);
        assert_eq!(count("KTo-K7o"), 48);
        assert_eq!(count("T9s+"), 4);
        // Spans whose two ranks move together: connectors, one- and two-gappers.
        assert_eq!(count("T9s-76s"), 16);
        assert_eq!(count("76s-T9s"), 16);
        assert_eq!(count("T8s-64s"), 20);
        assert_eq!(count("J9s-75s"), 20);
        assert_eq!(count("J9o-75o"), 60);
        assert_eq!(count("54-32"), 48);
        assert_eq!(count("AKs-T9s"), 20);
        assert_eq!(
            Range::parse("T9s-76s").unwrap(),
            Range::parse("T9s, 98s, 87s, 76s").unwrap()
        );
        assert_eq!(
            Range::parse("T8s-64s").unwrap(),
            Range::parse("T8s, 97s, 86s, 75s, 64s").unwrap()
        );

        assert_eq!(count("AhKh"), 1);
        assert_eq!(count("Ah Kh"), 1);
        assert_eq!(count("♥A ♥K"), 1);
        assert_eq!(count("10s 10h"), 1);
        assert_eq!(count("AsKx"), 4);
        assert_eq!(count("AxKx"), 16);
        assert_eq!(count("AxAx"), 6);
        assert_eq!(count("AsAx"), 3);
        // Overlaps are one set.
        assert_eq!(count("QQ+, AKs, AK, KK"), 18 + 16);
        // Every class of the order, once: all holdings.
        assert_eq!(count("top 100%"), HOLDINGS);
        assert_eq!(PREFLOP_ORDER.split_whitespace().count(), 169);
    }

    /// Both rankings hold every class once, so `top 100%` is every holding under each;
    /// `top N%` takes whole classes in the ranking's order.
    #[test]
    fn each_ranking_orders_every_class_once() {
        for ranking in [Ranking::VsOneRandom, Ranking::VsThreeRandom] {
            let names: Vec<&str> = ranking.order().split_whitespace().collect();
            let distinct: std::collections::BTreeSet<&str> = names.iter().copied().collect();
            assert_eq!((names.len(), distinct.len()), (169, 169), "{ranking:?}");
            let all = Range::parse_ranked("top 100%", ranking).unwrap();
            assert_eq!(all.len(), HOLDINGS);
            // Every name is a class: together they cover the 1,326 holdings.
            let combos: usize = names.iter().map(|n| count(n)).sum();
            assert_eq!(combos, HOLDINGS);
        }
        let ten = |ranking| Range::parse_ranked("10%", ranking).unwrap();
        assert_eq!(ten(Ranking::VsOneRandom), Range::parse("10%").unwrap());
        // Against three random hands suited and connected hands rank higher, small pairs
        // lower, than against one.
        assert_eq!(
            ten(Ranking::VsThreeRandom),
            Range::parse("77+, A9s+, KTs+, QTs+, AJo+, KQo").unwrap()
        );
        assert_eq!(
            ten(Ranking::VsOneRandom),
            Range::parse("66+, A8s+, KJs+, ATo+").unwrap()
        );
    }

    #[test]
    fn weights_and_the_last_token_wins() {
        let r = Range::parse("QQ+, AA:0.5, AKo:0.25").unwrap();
        let two = |t: &str| -> [Card; 2] { parse_exact(t, 2).unwrap().try_into().unwrap() };
        assert_eq!(r.weight(two("As Ah")), 0.5);
        assert_eq!(r.weight(two("Ks Kh")), 1.0);
        assert_eq!(r.weight(two("As Kh")), 0.25);
        assert_eq!(r.weight(two("As Ks")), 0.0);
        assert_eq!(r.combos(), 6.0 * 0.5 + 12.0 + 12.0 * 0.25);
        assert_eq!(r.len(), 30);
        let again = Range::parse("AA:0.5, QQ+").unwrap();
        assert_eq!(again.weight(two("As Ah")), 1.0);
    }

    #[test]
    fn groups_weigh_their_tokens_by_a_percentage() {
        let two = |t: &str| -> [Card; 2] { parse_exact(t, 2).unwrap().try_into().unwrap() };
        let r = Range::parse("QQ+, [50]AKo, AQs[/50], [25] 99 [/25], JTs").unwrap();
        assert_eq!(r.weight(two("As Ah")), 1.0);
        assert_eq!(r.weight(two("As Kh")), 0.5);
        assert_eq!(r.weight(two("Ah Qh")), 0.5);
        assert_eq!(r.weight(two("9s 9h")), 0.25);
        assert_eq!(r.weight(two("Js Ts")), 1.0);
        // The same as the weights written token by token.
        let same = Range::parse("QQ+, AKo:0.5, AQs:0.5, 99:0.25, JTs").unwrap();
        assert_eq!(r, same);
        // A group of one token, and the last token still wins.
        let one = Range::parse("[30]KK[/30], KhKd").unwrap();
        assert_eq!(one.weight(two("Ks Kc")), 0.3);
        assert_eq!(one.weight(two("Kh Kd")), 1.0);
        for (bad, why) in [
            ("[50]AKo, AQs", "never closed"),
            ("AKo, AQs[/50]", "closes no group"),
            ("[50]AKo, AQs[/40]", "percentage it opened with"),
            ("[50]AKo, [20]AQs[/20], KQs[/50]", "inside another"),
            ("[50]AKo:0.5[/50]", "not its own"),
            ("[150]AKo[/150]", "0 to 100"),
            ("[x]AKo[/x]", "not a number"),
            ("[50 AKo", "opens as [50]"),
        ] {
            let e = Range::parse(bad).expect_err(bad);
            assert!(matches!(e, RangeError::Token { .. }), "{bad}: {e}");
            assert!(e.to_string().contains(why), "{bad}: {e}");
        }
    }

    #[test]
    fn top_shares_take_whole_classes_in_order() {
        // AA, KK, QQ, JJ, TT: 30 holdings, 2.26 %.
        assert_eq!(count("top 2%"), 30);
        assert_eq!(count("2.3%"), 36);
        let five = Range::parse("top 5%").unwrap();
        assert!(five.len() as f64 >= 0.05 * HOLDINGS as f64);
        let two = |t: &str| -> [Card; 2] { parse_exact(t, 2).unwrap().try_into().unwrap() };
        assert_eq!(five.weight(two("As Ks")), 1.0);
    }

    #[test]
    fn errors_name_the_token() {
        for bad in [
            "", "AA,,KK", "AKx", "AAs", "AKq", "AK:2", "AK:-1", "AK:x", "Q", "XX", "AKs-QJo",
            "AKs-A2o", "AA-AKs", "top 0%", "top 101%", "As As", "AsAs", "AA:0", "T9s-75s",
            "T9s-76o", "top 10",
        ] {
            let e = Range::parse(bad).expect_err(bad);
            let text = e.to_string();
            if bad != "AA:0" {
                assert!(matches!(e, RangeError::Token { .. }), "{bad}: {text}");
            }
        }
        let e = Range::parse("QQ+, AKq").unwrap_err();
        assert!(
            e.to_string().starts_with("\"AKq\" is not a range token"),
            "{e}"
        );
        // A span whose gap changes is refused at its token, saying so.
        let e = Range::parse("AA, T9s-75s").unwrap_err().to_string();
        assert!(e.starts_with("\"T9s-75s\" is not a range token"), "{e}");
        assert!(e.contains("keeps the gap"), "{e}");
        // Errors quote what was typed, not a rewritten form.
        let e = Range::parse("top 10").unwrap_err().to_string();
        assert!(
            e.starts_with("\"top 10\" is not a range token: a top share ends in %"),
            "{e}"
        );
        assert!(!e.contains("top T"), "{e}");
        let e = Range::parse("10x9").unwrap_err().to_string();
        assert!(!e.contains("Tx9"), "{e}");
        // A [/N] standing alone is not blamed on nesting.
        let e = Range::parse("[50]AKo, [/50]").unwrap_err().to_string();
        assert!(
            e.contains("closes a group after the group's last token"),
            "{e}"
        );
        assert!(!e.contains("inside another"), "{e}");
        // A huge token is quoted by its start and its length.
        let huge = format!("AK{}", "q".repeat(90_000));
        let e = Range::parse(&huge).unwrap_err().to_string();
        assert!(
            e.len() < 1_000 && e.contains("(90002 characters)"),
            "{}",
            &e[..200.min(e.len())]
        );
    }
}
