//! The outputs of the Zhajinhua jobs as Arrow batches: `hands.parquet` (one row per hand
//! and opponent count), `categories.parquet` and `raise_curve.parquet`.

use std::sync::Arc;

use arrow_array::types::UInt8Type;
use arrow_array::{
    ArrayRef, BooleanArray, DictionaryArray, Float64Array, RecordBatch, StringArray, UInt16Array,
    UInt32Array, UInt64Array, UInt8Array,
};

use super::counts::Counts;
use super::decisions;
use super::eval::{CATEGORIES, CATEGORIES_ZH, HANDS};
use super::job::HandsJob;
use super::multiway::Sample;
use super::report::{CURVE_CALL, CURVE_HANDS, CURVE_MAX_FOLD, CURVE_POT};
use super::rules::A23;

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
                hand.push(i as u16);
                cards.push(
                    info.cards
                        .iter()
                        .map(|c| c.to_string())
                        .collect::<Vec<_>>()
                        .join(" "),
                );
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
        let method = DictionaryArray::<UInt8Type>::try_new(
            UInt8Array::from(method),
            Arc::new(StringArray::from_iter_values(["exact", "monte_carlo"])),
        )?;
        let [c1, c2, c3] = c;
        let batch = RecordBatch::try_from_iter(vec![
            ("hand", Arc::new(UInt16Array::from(hand)) as ArrayRef),
            ("cards", Arc::new(StringArray::from(cards))),
            ("c1", Arc::new(UInt8Array::from(c1))),
            ("c2", Arc::new(UInt8Array::from(c2))),
            ("c3", Arc::new(UInt8Array::from(c3))),
            (
                "category",
                Arc::new(DictionaryArray::<UInt8Type>::try_new(
                    UInt8Array::from(category.clone()),
                    names,
                )?),
            ),
            ("category_rank", Arc::new(UInt8Array::from(category))),
            ("strength", Arc::new(UInt16Array::from(strength))),
            ("opponents", Arc::new(UInt8Array::from(opponents))),
            ("wins", Arc::new(UInt64Array::from(wins))),
            ("ties", Arc::new(UInt64Array::from(ties))),
            ("deals", Arc::new(UInt64Array::from(total))),
            ("win", Arc::new(Float64Array::from(win))),
            ("tie", Arc::new(Float64Array::from(tie))),
            ("loss", Arc::new(Float64Array::from(loss))),
            ("equity", Arc::new(Float64Array::from(equity))),
            ("std_error", Arc::new(Float64Array::from(std_error))),
            ("method", Arc::new(method)),
        ])?;
        Ok(batch)
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
        Ok(RecordBatch::try_from_iter(vec![
            ("a23", Arc::new(StringArray::from(vec![a23; n])) as ArrayRef),
            (
                "special_235",
                Arc::new(BooleanArray::from(vec![rules.special_235; n])),
            ),
            (
                "category",
                Arc::new(StringArray::from_iter_values(CATEGORIES)),
            ),
            (
                "category_zh",
                Arc::new(StringArray::from_iter_values(CATEGORIES_ZH)),
            ),
            (
                "category_rank",
                Arc::new(UInt8Array::from_iter_values(0..n as u8)),
            ),
            ("count", Arc::new(UInt32Array::from(counts.to_vec()))),
            (
                "probability",
                Arc::new(Float64Array::from_iter_values(
                    counts.iter().map(|&c| f64::from(c) / HANDS as f64),
                )),
            ),
        ])?)
    }

    pub(super) fn raise_curve_batch(&self, counts: &[Counts]) -> anyhow::Result<RecordBatch> {
        let (mut hand, mut equity, mut raise_to, mut fold, mut ev, mut article) =
            (vec![], vec![], vec![], vec![], vec![], vec![]);
        for text in CURVE_HANDS {
            let w = self.equity_of(counts, text);
            for (r, f, e, s) in decisions::raise_curve(w, CURVE_POT, CURVE_CALL, CURVE_MAX_FOLD) {
                hand.push(text);
                equity.push(w);
                raise_to.push(r);
                fold.push(f);
                ev.push(e);
                article.push(s);
            }
        }
        let n = hand.len();
        Ok(RecordBatch::try_from_iter(vec![
            ("hand", Arc::new(StringArray::from(hand)) as ArrayRef),
            ("equity", Arc::new(Float64Array::from(equity))),
            ("pot", Arc::new(Float64Array::from(vec![CURVE_POT; n]))),
            ("call", Arc::new(Float64Array::from(vec![CURVE_CALL; n]))),
            ("raise_to", Arc::new(Float64Array::from(raise_to))),
            ("fold_rate", Arc::new(Float64Array::from(fold))),
            ("ev_raise", Arc::new(Float64Array::from(ev))),
            (
                "ev_raise_seed_formula",
                Arc::new(Float64Array::from(article)),
            ),
        ])?)
    }
}
