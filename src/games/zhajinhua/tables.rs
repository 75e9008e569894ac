//! The outputs of the Zhajinhua jobs as Arrow batches: `hands.parquet` (one row per hand
//! and opponent count), `range_equity.parquet` (one row per suit class, opponent count
//! and calling share 0.01, 0.02 … 1), `categories.parquet` and `raise_curve.parquet`.

use std::sync::Arc;

use arrow_array::{RecordBatch, StringArray};

use cardtables::zhajinhua::RangeCurve;

use super::counts::Counts;
use super::decisions;
use super::eval::{CATEGORIES, CATEGORIES_ZH, HANDS};
use super::job::HandsJob;
use super::multiway::Sample;
use super::report::{CURVE_CALL, CURVE_MAX_FOLD, CURVE_POT};
use super::rules::A23;
use crate::sink::columns::Columns;

impl HandsJob {
    pub(super) fn category_counts(&self) -> [u32; 6] {
        let mut c = [0u32; 6];
        for h in &self.eval.hands {
            c[usize::from(h.category)] += 1;
        }
        c
    }

    pub(super) fn hands_batch(
        &self,
        counts: &[Counts],
        samples: &[Vec<Sample>],
    ) -> anyhow::Result<RecordBatch> {
        let rows = HANDS * usize::from(self.max_opponents);
        let mut hand = Vec::with_capacity(rows);
        let mut cards = Vec::with_capacity(rows);
        let mut pattern = Vec::with_capacity(rows);
        let mut class = Vec::with_capacity(rows);
        let mut c = [(); 3].map(|_| Vec::with_capacity(rows));
        let mut category = Vec::with_capacity(rows);
        let mut strength = Vec::with_capacity(rows);
        let mut opponents = Vec::with_capacity(rows);
        let (mut wins, mut ties, mut total) = (vec![], vec![], vec![]);
        let (mut win, mut tie, mut loss, mut equity) = (vec![], vec![], vec![], vec![]);
        let (mut std_error, mut method) = (vec![], vec![]);
        for n in 1..=self.max_opponents {
            for (i, info) in self.eval.hands.iter().enumerate() {
                let cell = self.cell(i, n, counts, samples);
                let o = cell.estimate;
                hand.push(i as u32);
                cards.push(crate::cards::text(&info.cards));
                pattern.push(rank_pattern(&info.cards));
                class.push(self.class_of[i] as u16);
                for (k, card) in info.cards.iter().enumerate() {
                    c[k].push(card.id());
                }
                category.push(info.category);
                strength.push(info.strength);
                opponents.push(n);
                wins.push(cell.wins);
                ties.push(cell.ties);
                total.push(cell.deals);
                win.push(o.win);
                tie.push(o.tie);
                loss.push((1.0 - o.win - o.tie).max(0.0));
                equity.push(o.equity);
                std_error.push(o.std_error);
                method.push(u8::from(!cell.exact));
            }
        }
        let names = Arc::new(StringArray::from_iter_values(CATEGORIES));
        let methods = Arc::new(StringArray::from_iter_values(["exact", "monte_carlo"]));
        let [c1, c2, c3] = c;
        Columns::new()
            .u32("hand_index", hand)
            .str("cards", cards)
            .str("rank_pattern", pattern)
            .u16("suit_class", class)
            .u8("c1", c1)
            .u8("c2", c2)
            .u8("c3", c3)
            .dict("category", category.iter().copied(), &names)
            .u8("category_rank", category)
            .u16("strength", strength)
            .u8("opponents", opponents)
            .u64("wins", wins)
            .u64("ties", ties)
            .u64("deals", total)
            .f64("win", win)
            .f64("tie", tie)
            .f64("loss", loss)
            .f64("equity", equity)
            .f64("std_error", std_error)
            .dict("method", method, &methods)
            .batch()
    }

    /// `range_equity.parquet`: every suit class against one and two opponents holding the
    /// top 1 %, 2 %, … 100 % of hands (the marginal strength level in part), exact.
    pub(super) fn range_equity_batch(&self, curves: &[RangeCurve]) -> anyhow::Result<RecordBatch> {
        let (mut class, mut cards, mut pattern, mut opponents, mut share) =
            (vec![], vec![], vec![], vec![], vec![]);
        let mut equity = vec![];
        for n in 1..=super::job::EXACT_OPPONENTS {
            for (k, curve) in curves.iter().enumerate() {
                let info = &self.eval.hands[self.classes[k]];
                for x in 1..=RANGE_SHARES {
                    let s = f64::from(x) / f64::from(RANGE_SHARES);
                    class.push(k as u16);
                    cards.push(crate::cards::text(&info.cards));
                    pattern.push(rank_pattern(&info.cards));
                    opponents.push(n);
                    share.push(s);
                    // Every share of at least 1 % holds hands disjoint from any of ours.
                    equity.push(curve.equity(usize::from(n), s)?);
                }
            }
        }
        Columns::new()
            .u16("suit_class", class)
            .str("cards", cards)
            .str("rank_pattern", pattern)
            .u8("opponents", opponents)
            .f64("calling_share", share)
            .f64("equity", equity)
            .batch()
    }

    pub(super) fn categories_batch(&self) -> anyhow::Result<RecordBatch> {
        let counts = self.category_counts();
        let rules = self.eval.rules;
        let a23 = match rules.a23 {
            A23::Lowest => "lowest",
            A23::Second => "second",
            A23::None => "none",
        };
        let n = CATEGORIES.len();
        Columns::new()
            .str("a23", vec![a23; n])
            .bool("special_235", vec![rules.special_235; n])
            .dict(
                "category",
                0..n as u8,
                &(Arc::new(StringArray::from_iter_values(CATEGORIES)) as _),
            )
            .str("category_zh", CATEGORIES_ZH)
            .u8("category_rank", 0..n as u8)
            .u32("count", counts)
            .f64(
                "probability",
                counts.iter().map(|&c| f64::from(c) / HANDS as f64),
            )
            .batch()
    }

    pub(super) fn raise_curve_batch(&self, curves: &[RangeCurve]) -> anyhow::Result<RecordBatch> {
        let (mut hand, mut who) = (vec![], vec![]);
        let mut points: Vec<(f64, decisions::CurvePoint)> = vec![];
        let cap = self.betting.raise_cap * CURVE_POT;
        for (name, blind) in decisions::OPPONENTS {
            let betting = self.betting.betting(blind);
            for text in self.curve_hands() {
                let range = self.curve_of(curves, text);
                let vs = |s: f64| range.equity(1, s).ok();
                let curve = decisions::raise_curve(
                    CURVE_POT,
                    CURVE_CALL,
                    CURVE_MAX_FOLD,
                    cap,
                    &betting,
                    &vs,
                );
                let random = range.equity(1, 1.0)?;
                for p in curve {
                    hand.push(text);
                    who.push(name);
                    points.push((random, p));
                }
            }
        }
        let n = hand.len();
        let col = |f: fn(&decisions::CurvePoint) -> f64| {
            points.iter().map(|(_, p)| f(p)).collect::<Vec<f64>>()
        };
        Columns::new()
            .str("caller_view", who)
            .str("cards", hand)
            .f64("equity", points.iter().map(|(w, _)| *w))
            .f64("pot", vec![CURVE_POT; n])
            .f64("call", vec![CURVE_CALL; n])
            .f64("raise_to", col(|p| p.raise_to))
            .f64("fold_rate", col(|p| p.fold))
            .f64("calling_share", col(|p| p.calling_share))
            .f64("calling_equity", col(|p| p.calling_equity))
            .f64("ev_raise", col(|p| p.ev))
            .f64("ev_raise_random_callers", col(|p| p.ev_random_callers))
            .f64("ev_raise_article_formula", col(|p| p.ev_article))
            .batch()
    }
}

/// Calling shares `range_equity.parquet` lists: 1/100 … 100/100.
const RANGE_SHARES: u8 = 100;

/// The hand up to suits: ranks high to low, with `s` when all three share a suit (as
/// Hold'em writes classes), e.g. `KKQ`, `AKQs`, `AKQ`. Hands with the same pattern have
/// the same category and strength; their figures can differ a little by card removal.
fn rank_pattern(cards: &[cardtables::Card; 3]) -> String {
    use cardtables::card::RANK_CHARS;
    let mut ranks = cards.map(|c| c.rank());
    ranks.sort_unstable_by(|a, b| b.cmp(a));
    let mut text: String = ranks.iter().map(|&r| RANK_CHARS[usize::from(r)]).collect();
    if cards.iter().all(|c| c.suit() == cards[0].suit()) {
        text.push('s');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::rank_pattern;

    #[test]
    fn rank_patterns_group_suit_copies() {
        let pattern = |t: &str| {
            let cards: [cardtables::Card; 3] =
                cardtables::parse_cards(t).unwrap().try_into().unwrap();
            rank_pattern(&cards)
        };
        assert_eq!(pattern("Qd Ks Kh"), "KKQ");
        assert_eq!(pattern("Ah Kh Qh"), "AKQs");
        assert_eq!(pattern("Ah Kh Qd"), "AKQ");
        assert_eq!(pattern("2c 3c 5c"), "532s");
        // The 22,100 hands fall into 741 patterns:
        // C(13,3) suited and offsuit rank sets, 13·12 pairs, 13 trips.
        let mut seen = std::collections::BTreeSet::new();
        for a in 0..52u8 {
            for b in a + 1..52 {
                for c in b + 1..52 {
                    let cards = [a, b, c].map(|id| cardtables::Card::from_id(id).unwrap());
                    seen.insert(rank_pattern(&cards));
                }
            }
        }
        assert_eq!(seen.len(), 2 * 286 + 13 * 12 + 13);
    }
}
