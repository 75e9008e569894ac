//! O(1) three-handed push/fold answers from a `pushfold3.bin` table (job kind
//! `holdem.pushfold3`): at each spot of the job (the button's, small blind's and big
//! blind's stacks, and the payoff: chip EV or ICM for the job's payouts), how often each
//! starting-hand class pushes or calls at each of the six decisions, with the EV of each
//! action at the equilibrium.
//!
//! A question at equal stacks between two grid stacks is answered at the nearest grid
//! stack at or below it (the answer says which); a stack below the first or above the
//! last is an error. A question at unequal stacks is answered only at a spot of exactly
//! those stacks.

use serde::{Deserialize, Serialize};

use crate::format::{self, Game, TableError, TableHeader};
use crate::holdem::{HandClass, CLASSES};

/// Seats in the order they act: button, small blind, big blind.
pub const SEATS: usize = 3;
pub const BTN: usize = 0;
pub const SB: usize = 1;
pub const BB: usize = 2;

/// The seats' names in tables and questions, by seat.
pub const SEAT_NAMES: [&str; SEATS] = ["btn", "sb", "bb"];

/// Most spots a table may hold.
pub const MAX_SPOTS: usize = 1 << 16;
/// Stacks this close (bb) are the same stack.
const STACK_SLACK: f64 = 1e-9;

/// The six decisions of three-handed push/fold: one frequency per class each (push or
/// call, against fold).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    /// The button pushes (first in).
    BtnPush = 0,
    /// The small blind pushes after the button folds.
    SbPush = 1,
    /// The small blind calls the button's push.
    SbCall = 2,
    /// The big blind calls the small blind's push (the button folded).
    BbCallSb = 3,
    /// The big blind calls the button's push (the small blind folded).
    BbCallBtn = 4,
    /// The big blind calls the button's push and the small blind's call.
    BbCallBoth = 5,
}

/// Number of decisions.
pub const DECISIONS: usize = 6;

/// What the deciding seat faces, as a question states it.
pub const FACING_NAMES: [&str; 5] = ["none", "push", "sb-push", "btn-push", "push-call"];

impl Decision {
    pub const ALL: [Decision; DECISIONS] = [
        Decision::BtnPush,
        Decision::SbPush,
        Decision::SbCall,
        Decision::BbCallSb,
        Decision::BbCallBtn,
        Decision::BbCallBoth,
    ];

    /// The seat that decides ([`BTN`], [`SB`] or [`BB`]).
    pub fn seat(self) -> usize {
        [BTN, SB, SB, BB, BB, BB][self as usize]
    }

    /// The name in tables and queries (`btn_push`, …, `bb_call_both`).
    pub fn name(self) -> &'static str {
        [
            "btn_push",
            "sb_push",
            "sb_call",
            "bb_call_sb",
            "bb_call_btn",
            "bb_call_both",
        ][self as usize]
    }

    /// The seat's name and what it faces, for people.
    pub fn describe(self) -> &'static str {
        [
            "BTN push (first in)",
            "SB push (BTN folded)",
            "SB call (BTN pushed)",
            "BB call (SB pushed, BTN folded)",
            "BB call (BTN pushed, SB folded)",
            "BB call (BTN pushed, SB called)",
        ][self as usize]
    }

    /// What the deciding seat faces, one of [`FACING_NAMES`].
    pub fn facing(self) -> &'static str {
        ["none", "none", "push", "sb-push", "btn-push", "push-call"][self as usize]
    }

    /// The decisions of a seat (`btn`, `sb`, `bb`), and, given what it faces (one of
    /// [`FACING_NAMES`]; `push` for the big blind is ambiguous), the one decision.
    pub fn of(position: &str, facing: Option<&str>) -> Result<Vec<Decision>, PushFold3QueryError> {
        let seat = SEAT_NAMES
            .iter()
            .position(|s| s.eq_ignore_ascii_case(position.trim()))
            .ok_or_else(|| PushFold3QueryError::Position(position.into()))?;
        let mine = Decision::ALL.into_iter().filter(|d| d.seat() == seat);
        let Some(facing) = facing else {
            return Ok(mine.collect());
        };
        let f = facing.trim().to_ascii_lowercase();
        let wanted: Vec<Decision> = match (seat, f.as_str()) {
            (BB, "push") => return Err(PushFold3QueryError::AmbiguousPush),
            (SB, "push") | (SB, "btn-push") => vec![Decision::SbCall],
            (_, f) => mine.filter(|d| d.facing() == f).collect(),
        };
        if wanted.is_empty() {
            let allowed: Vec<&str> = Decision::ALL
                .into_iter()
                .filter(|d| d.seat() == seat)
                .map(Decision::facing)
                .collect();
            return Err(PushFold3QueryError::Facing {
                position: SEAT_NAMES[seat],
                facing: facing.into(),
                allowed: allowed.join(", "),
            });
        }
        Ok(wanted)
    }
}

/// The payload of a three-handed push/fold table file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PushFold3Payload {
    pub rules: String,
    /// Ante each player posts, in big blinds.
    pub ante: f64,
    /// The classes covered, increasing class indices (all 169 for the full job).
    #[serde(deserialize_with = "format::bounded_vec")]
    pub classes: Vec<u8>,
    /// The payouts of the ICM spots, shares of the prize pool by place (empty when every
    /// spot is chip EV).
    #[serde(deserialize_with = "format::bounded_vec")]
    pub payouts: Vec<f64>,
    /// Per spot, `[3 · spot + seat]`: each seat's stack before posting (BTN, SB, BB), bb.
    #[serde(deserialize_with = "format::bounded_vec")]
    pub stacks: Vec<f64>,
    /// Per spot: 1 for ICM (payoffs in shares of the prize pool), 0 for chip EV (bb).
    #[serde(deserialize_with = "format::bounded_vec")]
    pub icm: Vec<u8>,
    /// Per spot, decision and covered class, `[(spot · 6 + decision) · classes + k]`: the
    /// frequency of pushing or calling, the EV of acting and of folding where the
    /// decision can be reached (0 where it cannot), and the chance that a seat dealt the
    /// class faces the decision.
    #[serde(deserialize_with = "format::bounded_vec")]
    pub frequency: Vec<f64>,
    #[serde(deserialize_with = "format::bounded_vec")]
    pub ev_act: Vec<f64>,
    #[serde(deserialize_with = "format::bounded_vec")]
    pub ev_fold: Vec<f64>,
    #[serde(deserialize_with = "format::bounded_vec")]
    pub faced: Vec<f64>,
    /// Per spot, `[3 · spot + seat]`: each seat's expected payoff at the equilibrium.
    #[serde(deserialize_with = "format::bounded_vec")]
    pub value: Vec<f64>,
    /// Per spot: the exploitability (the sum over seats of a best response's gain), in
    /// the spot's payoff unit, and what a big blind is worth in that unit.
    #[serde(deserialize_with = "format::bounded_vec")]
    pub exploitability: Vec<f64>,
    #[serde(deserialize_with = "format::bounded_vec")]
    pub bb_value: Vec<f64>,
}

/// One class's play at one decision of one spot. The same fields for every decision.
#[derive(Clone, Debug, PartialEq)]
pub struct PushFold3Play {
    pub decision: Decision,
    /// The spot answered: each seat's stack (BTN, SB, BB) and whether it is ICM.
    pub stacks: [f64; 3],
    pub icm: bool,
    /// How often the class pushes or calls, 0 to 1.
    pub frequency: f64,
    /// The EV of acting and of folding against the equilibrium, in the spot's unit (bb
    /// for chip EV, shares of the prize pool for ICM); `None` where no deal reaches the
    /// decision with this class.
    pub ev: Option<f64>,
    pub ev_fold: Option<f64>,
    /// The chance that a seat dealt this class faces the decision.
    pub p_faced: f64,
}

impl PushFold3Play {
    /// How much acting gains over folding (0 for a mixed, indifferent class).
    pub fn margin(&self) -> Option<f64> {
        Some(self.ev? - self.ev_fold?)
    }
}

/// Why a three-handed push/fold question could not be answered.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum PushFold3QueryError {
    #[error("class {0} does not exist: classes are 0 to 168")]
    Class(usize),
    #[error("{0:?} is not a starting hand: give a class (AKs, QQ, T9o) or two cards (As Kd)")]
    NotAHand(String),
    #[error("this table does not cover class {0}: it was computed for a list of classes (see its rules)")]
    NotCovered(usize),
    #[error("{0:?} is not a position: give btn, sb or bb")]
    Position(String),
    #[error("the {position} does not face {facing:?}: it faces {allowed}")]
    Facing {
        position: &'static str,
        facing: String,
        allowed: String,
    },
    #[error("the big blind faces a push from either seat: say sb-push (the button folded), btn-push (the small blind folded) or push-call")]
    AmbiguousPush,
    #[error("the stack {stack} bb is outside this table's equal stacks, {min} to {max} bb")]
    Stack { stack: f64, min: f64, max: f64 },
    #[error("this table has no spot with stacks {0} (BTN/SB/BB) in that payoff: {1}")]
    Stacks(String, String),
    #[error("this table has no {0} spots")]
    Payoff(&'static str),
    #[error("this table's ICM payouts are {table:?}, not {asked:?}")]
    Payouts { table: Vec<f64>, asked: Vec<f64> },
}

/// A loaded, validated three-handed push/fold table.
#[derive(Clone, Debug)]
pub struct PushFold3 {
    header: TableHeader,
    payload: PushFold3Payload,
}

fn validate(p: &PushFold3Payload) -> Result<(), TableError> {
    let invalid = |m: &str| Err(TableError::Invalid(m.into()));
    crate::holdem::check_class_list(&p.classes)?;
    if !(p.ante.is_finite() && p.ante >= 0.0) {
        return invalid("the ante must be finite and not negative");
    }
    let spots = p.icm.len();
    if spots == 0 || spots > MAX_SPOTS {
        return invalid("a table holds 1 to 65,536 spots");
    }
    if p.icm.iter().any(|&m| m > 1) {
        return invalid("a spot's payoff is 0 (chip EV) or 1 (ICM)");
    }
    if p.payouts.len() > SEATS
        || p.payouts.iter().any(|x| !(0.0..=1.0).contains(x))
        || p.payouts.windows(2).any(|w| w[0] < w[1])
        || p.payouts.iter().sum::<f64>() > 1.0 + 1e-9
        || p.icm.contains(&1) == p.payouts.is_empty()
    {
        return invalid(
            "ICM spots need 1 to 3 decreasing payouts in [0, 1] that sum to at most 1 (and only they)",
        );
    }
    if p.stacks.len() != SEATS * spots
        || p.stacks
            .iter()
            .any(|s| !(s.is_finite() && *s >= 1.0 + p.ante - STACK_SLACK && *s <= 1e6))
    {
        return invalid(
            "every spot needs three finite stacks, each covering the big blind and ante",
        );
    }
    let cells = spots * DECISIONS * p.classes.len();
    if [
        p.frequency.len(),
        p.ev_act.len(),
        p.ev_fold.len(),
        p.faced.len(),
    ]
    .iter()
    .any(|&l| l != cells)
        || p.value.len() != SEATS * spots
        || p.exploitability.len() != spots
        || p.bb_value.len() != spots
    {
        return invalid("every spot needs a value for each decision and covered class");
    }
    if p.frequency
        .iter()
        .chain(&p.faced)
        .any(|f| !(0.0..=1.0).contains(f))
    {
        return invalid("frequencies and chances must lie between 0 and 1");
    }
    if p.ev_act
        .iter()
        .chain(&p.ev_fold)
        .chain(&p.value)
        .any(|v| !v.is_finite())
        || p.exploitability
            .iter()
            .any(|v| !(v.is_finite() && *v >= 0.0))
        || p.bb_value.iter().any(|v| !(v.is_finite() && *v > 0.0))
    {
        return invalid(
            "EVs must be finite, exploitabilities not negative, a big blind's worth positive",
        );
    }
    Ok(())
}

format::table_file!(PushFold3, PushFold3Payload, Game::HoldemPushFold3);

/// Stacks as a question prints them: `10/15/20`.
fn stacks_text(s: &[f64]) -> String {
    s.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join("/")
}

impl PushFold3 {
    /// The ante each player posts, in big blinds.
    pub fn ante(&self) -> f64 {
        self.payload.ante
    }

    /// The class indices covered, increasing.
    pub fn classes(&self) -> &[u8] {
        &self.payload.classes
    }

    /// The payouts of the ICM spots (empty if every spot is chip EV).
    pub fn payouts(&self) -> &[f64] {
        &self.payload.payouts
    }

    /// Number of spots.
    pub fn spots(&self) -> usize {
        self.payload.icm.len()
    }

    /// The spot's stacks (BTN, SB, BB) and whether it is ICM.
    pub fn spot_stakes(&self, spot: usize) -> Option<([f64; 3], bool)> {
        let s = self.payload.stacks.get(spot.checked_mul(3)?..)?.get(..3)?;
        Some(([s[0], s[1], s[2]], self.payload.icm[spot] == 1))
    }

    fn model_spots(&self, icm: bool) -> impl Iterator<Item = usize> + '_ {
        (0..self.spots()).filter(move |&s| (self.payload.icm[s] == 1) == icm)
    }

    fn check_model(&self, payouts: Option<&[f64]>) -> Result<bool, PushFold3QueryError> {
        match payouts {
            None => Ok(false),
            Some(asked) => {
                let table = &self.payload.payouts;
                if table.is_empty() {
                    return Err(PushFold3QueryError::Payoff("ICM"));
                }
                let same = asked.len() == table.len()
                    && asked.iter().zip(table).all(|(a, b)| (a - b).abs() <= 1e-9);
                if !same {
                    return Err(PushFold3QueryError::Payouts {
                        table: table.clone(),
                        asked: asked.to_vec(),
                    });
                }
                Ok(true)
            }
        }
    }

    /// The spot at equal stacks `stack` (the largest such grid stack at or below it), in
    /// chip EV (`payouts` `None`) or in ICM for the table's payouts.
    pub fn equal_spot(
        &self,
        stack: f64,
        payouts: Option<&[f64]>,
    ) -> Result<usize, PushFold3QueryError> {
        let icm = self.check_model(payouts)?;
        let equal: Vec<usize> = self
            .model_spots(icm)
            .filter(|&s| {
                let t = &self.payload.stacks[3 * s..3 * s + 3];
                t[0] == t[1] && t[1] == t[2]
            })
            .collect();
        let at = |s: usize| self.payload.stacks[3 * s];
        let (Some(min), Some(max)) = (
            equal.iter().map(|&s| at(s)).reduce(f64::min),
            equal.iter().map(|&s| at(s)).reduce(f64::max),
        ) else {
            return Err(PushFold3QueryError::Stacks(
                "equal".into(),
                "it has no spot at equal stacks".into(),
            ));
        };
        let out = || PushFold3QueryError::Stack { stack, min, max };
        if !(stack.is_finite() && stack <= max + STACK_SLACK) {
            return Err(out());
        }
        equal
            .into_iter()
            .filter(|&s| at(s) <= stack + STACK_SLACK)
            .max_by(|&a, &b| at(a).total_cmp(&at(b)))
            .ok_or_else(out)
    }

    /// The spot of exactly these stacks (BTN, SB, BB), in chip EV or ICM.
    pub fn spot(
        &self,
        stacks: [f64; 3],
        payouts: Option<&[f64]>,
    ) -> Result<usize, PushFold3QueryError> {
        let icm = self.check_model(payouts)?;
        self.model_spots(icm)
            .find(|&s| {
                let t = &self.payload.stacks[3 * s..3 * s + 3];
                t.iter()
                    .zip(&stacks)
                    .all(|(a, b)| (a - b).abs() <= STACK_SLACK)
            })
            .ok_or_else(|| {
                let mut have: Vec<String> = self
                    .model_spots(icm)
                    .map(|s| stacks_text(&self.payload.stacks[3 * s..3 * s + 3]))
                    .collect();
                if have.len() > 6 {
                    let more = have.len() - 4;
                    have.truncate(4);
                    have.push(format!("and {more} more"));
                }
                PushFold3QueryError::Stacks(
                    stacks_text(&stacks),
                    format!("it has {}", have.join(", ")),
                )
            })
    }

    /// How `hand` (a class index, a class name or two cards: see [`HandClass`]) plays at
    /// decision `d` of spot `spot`.
    pub fn play(
        &self,
        spot: usize,
        d: Decision,
        hand: impl HandClass,
    ) -> Result<PushFold3Play, PushFold3QueryError> {
        let class = hand.class_index().map_err(PushFold3QueryError::NotAHand)?;
        if class >= CLASSES {
            return Err(PushFold3QueryError::Class(class));
        }
        let p = &self.payload;
        let k = p
            .classes
            .binary_search(&(class as u8))
            .map_err(|_| PushFold3QueryError::NotCovered(class))?;
        let (stacks, icm) = self.spot_stakes(spot).ok_or(PushFold3QueryError::Stacks(
            format!("number {spot}"),
            format!("it has {} spots", self.spots()),
        ))?;
        let i = (spot * DECISIONS + d as usize) * p.classes.len() + k;
        let reached = p.faced[i] > 0.0;
        Ok(PushFold3Play {
            decision: d,
            stacks,
            icm,
            frequency: p.frequency[i],
            ev: reached.then_some(p.ev_act[i]),
            ev_fold: reached.then_some(p.ev_fold[i]),
            p_faced: p.faced[i],
        })
    }

    /// Each seat's expected payoff at the spot's equilibrium (BTN, SB, BB).
    pub fn value(&self, spot: usize) -> Option<[f64; 3]> {
        let v = self.payload.value.get(spot.checked_mul(3)?..)?.get(..3)?;
        Some([v[0], v[1], v[2]])
    }

    /// The spot's exploitability in its payoff unit, and what a big blind is worth in
    /// that unit (so `exploitability / bb_value` is in big blinds).
    pub fn exploitability(&self, spot: usize) -> Option<(f64, f64)> {
        Some((
            *self.payload.exploitability.get(spot)?,
            self.payload.bb_value[spot],
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn payload() -> PushFold3Payload {
        let classes = vec![0u8, 13, 168];
        let stacks = [
            [5.0, 5.0, 5.0],
            [10.0, 10.0, 10.0],
            [5.0, 5.0, 5.0],
            [10.0, 15.0, 20.0],
        ];
        let spots = stacks.len();
        let cells = spots * DECISIONS * classes.len();
        PushFold3Payload {
            rules: String::new(),
            ante: 0.0,
            classes,
            payouts: vec![0.5, 0.3, 0.2],
            stacks: stacks.iter().flatten().copied().collect(),
            icm: vec![0, 0, 1, 1],
            frequency: (0..cells).map(|i| (i % 3) as f64 / 2.0).collect(),
            ev_act: (0..cells).map(|i| i as f64).collect(),
            ev_fold: vec![-0.5; cells],
            faced: (0..cells)
                .map(|i| if i % 7 == 0 { 0.0 } else { 0.25 })
                .collect(),
            value: vec![0.0; 3 * spots],
            exploitability: vec![1e-6; spots],
            bb_value: vec![1.0, 1.0, 1.0 / 15.0, 1.0 / 45.0],
        }
    }

    fn table() -> PushFold3 {
        PushFold3::from_bytes(PushFold3::to_bytes(1, &payload()).unwrap()).unwrap()
    }

    #[test]
    fn decisions_follow_position_and_facing() {
        use Decision::*;
        let one = |p: &str, f: &str| Decision::of(p, Some(f)).unwrap();
        assert_eq!(one("btn", "none"), [BtnPush]);
        assert_eq!(one("SB", "none"), [SbPush]);
        assert_eq!(one("sb", "push"), [SbCall]);
        assert_eq!(one("bb", "sb-push"), [BbCallSb]);
        assert_eq!(one("bb", "btn-push"), [BbCallBtn]);
        assert_eq!(one("bb", "push-call"), [BbCallBoth]);
        assert_eq!(
            Decision::of("bb", None).unwrap(),
            [BbCallSb, BbCallBtn, BbCallBoth]
        );
        assert_eq!(
            Decision::of("bb", Some("push")),
            Err(PushFold3QueryError::AmbiguousPush)
        );
        assert!(matches!(
            Decision::of("btn", Some("push")),
            Err(PushFold3QueryError::Facing { .. })
        ));
        assert!(matches!(
            Decision::of("utg", None),
            Err(PushFold3QueryError::Position(_))
        ));
        for d in Decision::ALL {
            assert_eq!(one(SEAT_NAMES[d.seat()], d.facing()), [d]);
        }
    }

    #[test]
    fn spots_are_found_by_stacks_and_payoff() {
        let t = table();
        let icm = Some(&[0.5, 0.3, 0.2][..]);
        assert_eq!(t.equal_spot(5.0, None), Ok(0));
        assert_eq!(t.equal_spot(9.99, None), Ok(0));
        assert_eq!(t.equal_spot(10.0, None), Ok(1));
        assert_eq!(t.equal_spot(5.0, icm), Ok(2));
        assert!(t.equal_spot(7.0, icm).is_err());
        assert_eq!(t.spot([10.0, 15.0, 20.0], icm), Ok(3));
        assert!(matches!(
            t.spot([10.0, 15.0, 20.0], None),
            Err(PushFold3QueryError::Stacks(..))
        ));
        for stack in [4.9, 10.5, f64::NAN, f64::INFINITY, -1.0] {
            assert!(
                matches!(
                    t.equal_spot(stack, None),
                    Err(PushFold3QueryError::Stack { .. })
                ),
                "{stack}"
            );
        }
        assert!(matches!(
            t.equal_spot(5.0, Some(&[0.6, 0.4])),
            Err(PushFold3QueryError::Payouts { .. })
        ));
    }

    #[test]
    fn plays_read_their_cell() {
        let t = table();
        let d = Decision::SbCall;
        let aa = t.play(1, d, "AA").unwrap();
        let i = (DECISIONS + d as usize) * 3;
        assert_eq!(aa.frequency, (i % 3) as f64 / 2.0);
        assert_eq!(aa.ev, (!i.is_multiple_of(7)).then_some(i as f64));
        assert_eq!(aa.stacks, [10.0; 3]);
        assert_eq!(t.play(1, d, "Ah Ad"), Ok(aa));
        assert!(matches!(
            t.play(1, d, "KQs"),
            Err(PushFold3QueryError::NotCovered(_))
        ));
        assert_eq!(t.play(1, d, 169usize), Err(PushFold3QueryError::Class(169)));
        assert!(t.play(9, d, "AA").is_err());
        assert!(t.play(usize::MAX, d, "AA").is_err());
        assert_eq!(t.value(usize::MAX), None);
        assert_eq!(t.exploitability(4), None);
    }

    #[test]
    fn bad_payloads_are_refused() {
        let good = payload();
        let mut bads = vec![];
        let mut b = good.clone();
        b.classes = vec![13, 0, 168];
        bads.push(b);
        let mut b = good.clone();
        b.frequency.pop();
        bads.push(b);
        let mut b = good.clone();
        b.frequency[4] = 1.5;
        bads.push(b);
        let mut b = good.clone();
        b.ev_act[2] = f64::NAN;
        bads.push(b);
        let mut b = good.clone();
        b.payouts = vec![0.2, 0.3, 0.5];
        bads.push(b);
        let mut b = good.clone();
        b.payouts.clear();
        bads.push(b);
        let mut b = good.clone();
        b.icm[0] = 2;
        bads.push(b);
        let mut b = good.clone();
        b.stacks[0] = 0.5;
        bads.push(b);
        let mut b = good.clone();
        b.bb_value[1] = 0.0;
        bads.push(b);
        for (i, bad) in bads.iter().enumerate() {
            assert!(PushFold3::to_bytes(1, bad).is_err(), "bad payload {i}");
        }
        assert!(PushFold3::to_bytes(1, &good).is_ok());
    }
}
