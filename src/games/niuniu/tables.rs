//! The outputs of `niuniu.hands` as Arrow: `hands.parquet` (one row per hand, built in
//! parallel chunks) and `categories.parquet`.

use std::sync::Arc;

use arrow_array::builder::StringBuilder;
use arrow_array::types::UInt8Type;
use arrow_array::{
    ArrayRef, DictionaryArray, Float64Array, RecordBatch, StringArray, UInt16Array, UInt32Array,
    UInt8Array,
};
use cardtables::colex::{binomial, unrank};
use cardtables::niuniu::{HANDS, OPPONENT_HANDS};
use cardtables::Card;

use super::eval::{
    bull_of_points, first_grouping, high_card, multiset_index, points, tie_card, tie_order,
};
use super::rules::Ranking;
use crate::sink::columns::Columns;

/// Hands per Parquet record batch (and per parallel chunk in `finish`).
pub(super) const HANDS_PER_CHUNK: usize = 1 << 16;
use super::rules::{code_name, code_name_zh, CODES};

/// Exact head-to-head results shared by every hand with the same ranks and high suit.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Outcome {
    /// Opponent hands beaten, of C(47,5).
    pub(super) wins: u32,
    /// Banker's total result over all C(47,5) opponent hands, in player bets.
    pub(super) banker_numerator: i64,
}

/// Per-category sums over hands (integers, so chunk order cannot change them).
#[derive(Clone, Copy, Default)]
pub(super) struct CategoryStats {
    pub(super) hands: u64,
    pub(super) wins: u64,
    pub(super) banker: i64,
}

/// One chunk of hands, ready to become a record batch.
pub(super) struct Chunk {
    pub(super) batch: RecordBatch,
    pub(super) stats: [CategoryStats; CODES],
}

/// The schema of `hands.parquet`.
pub(super) fn hands_schema() -> Arc<arrow_schema::Schema> {
    use arrow_schema::{DataType, Field, Schema};
    let dict = || DataType::Dictionary(Box::new(DataType::UInt8), Box::new(DataType::Utf8));
    Arc::new(Schema::new(vec![
        Field::new("hand_index", DataType::UInt32, false),
        Field::new("cards", DataType::Utf8, false),
        Field::new("c1", DataType::UInt8, false),
        Field::new("c2", DataType::UInt8, false),
        Field::new("c3", DataType::UInt8, false),
        Field::new("c4", DataType::UInt8, false),
        Field::new("c5", DataType::UInt8, false),
        Field::new("category", dict(), false),
        Field::new("category_rank", DataType::UInt8, false),
        Field::new("bull", DataType::UInt8, true),
        Field::new("point_total", DataType::UInt8, false),
        Field::new("grouping", DataType::Utf8, true),
        Field::new("high_card", dict(), false),
        Field::new("strength", DataType::UInt16, false),
        Field::new("multiplier", DataType::UInt16, false),
        Field::new("wins", DataType::UInt32, false),
        Field::new("win_probability", DataType::Float64, false),
        Field::new("banker_ev", DataType::Float64, false),
    ]))
}

/// Advances five increasing card ids to the next set in colex order.
fn next_colex(cards: &mut [u8; 5]) {
    for i in 0..5 {
        let limit = if i == 4 { 52 } else { cards[i + 1] };
        if cards[i] + 1 < limit {
            cards[i] += 1;
            for (j, c) in cards.iter_mut().enumerate().take(i) {
                *c = j as u8;
            }
            return;
        }
    }
}

/// The category names in rank order: the dictionary of every `category` column.
pub(super) fn category_names(ranking: &Ranking) -> Arc<StringArray> {
    Arc::new(StringArray::from_iter_values(
        ranking.codes_by_rank.iter().map(|&c| code_name(c)),
    ))
}

/// Hands `index·HANDS_PER_CHUNK ..` as one record batch, with their strengths, wins and
/// per-category sums for the runtime table and `categories.parquet`.
pub(super) fn chunk(
    ranking: &Ranking,
    categories: &[u8],
    index: usize,
    outcomes: &[[Outcome; 4]],
    schema: &Arc<arrow_schema::Schema>,
    names: &Arc<StringArray>,
) -> anyhow::Result<Chunk> {
    let start = index * HANDS_PER_CHUNK;
    let len = HANDS_PER_CHUNK.min(HANDS - start);
    let mut first = [Card::from_id(0).expect("card 0"); 5];
    unrank(start as u32, 5, &mut first);
    let mut ids = first.map(Card::id);

    let mut hand_index = Vec::with_capacity(len);
    let mut text = StringBuilder::with_capacity(len, len * 14);
    let mut c = [(); 5].map(|_| Vec::with_capacity(len));
    let mut category = Vec::with_capacity(len);
    let mut bull = Vec::with_capacity(len);
    let mut point_total = Vec::with_capacity(len);
    let mut grouping = StringBuilder::with_capacity(len, len * 8);
    let mut high = Vec::with_capacity(len);
    let mut strength = Vec::with_capacity(len);
    let mut multiplier = Vec::with_capacity(len);
    let mut wins = Vec::with_capacity(len);
    let mut win_probability = Vec::with_capacity(len);
    let mut banker_ev = Vec::with_capacity(len);
    let mut stats = [CategoryStats::default(); CODES];
    let denominator = f64::from(OPPONENT_HANDS);
    let mut buf = String::with_capacity(16);

    for offset in 0..len {
        let cards = ids.map(|id| Card::from_id(id).expect("id < 52"));
        let m = multiset_index(&cards);
        let code = categories[m];
        let rank = ranking.rank(code);
        let tie = tie_card(&cards, code, ranking);
        let outcome = outcomes[m][usize::from(tie.suit())];
        let pts = cards.map(points);

        hand_index.push((start + offset) as u32);
        buf.clear();
        crate::cards::push_text(&mut buf, &cards);
        for (i, card) in cards.iter().enumerate() {
            c[i].push(card.id());
        }
        text.append_value(&buf);
        category.push(rank);
        bull.push(bull_of_points(pts));
        point_total.push(pts.iter().sum::<u8>());
        match first_grouping(pts) {
            Some(g) => {
                buf.clear();
                crate::cards::push_text(&mut buf, &g.map(|p| cards[usize::from(p)]));
                grouping.append_value(&buf);
            }
            None => grouping.append_null(),
        }
        high.push(high_card(&cards).id());
        strength.push(u16::from(rank) * 52 + u16::from(tie_order(tie)));
        multiplier.push(ranking.multiplier_of_code[usize::from(code)] as u16);
        wins.push(outcome.wins);
        win_probability.push(f64::from(outcome.wins) / denominator);
        banker_ev.push(outcome.banker_numerator as f64 / denominator);
        let s = &mut stats[usize::from(code)];
        s.hands += 1;
        s.wins += u64::from(outcome.wins);
        s.banker += outcome.banker_numerator;

        next_colex(&mut ids);
    }
    debug_assert_eq!(binomial(52, 5) as usize, HANDS);

    let card_names = Arc::new(StringArray::from_iter_values(
        (0..52u8).map(|id| Card::from_id(id).expect("id < 52").to_string()),
    ));
    let [c1, c2, c3, c4, c5] = c;
    let columns: Vec<ArrayRef> = vec![
        Arc::new(UInt32Array::from(hand_index)),
        Arc::new(text.finish()),
        Arc::new(UInt8Array::from(c1)),
        Arc::new(UInt8Array::from(c2)),
        Arc::new(UInt8Array::from(c3)),
        Arc::new(UInt8Array::from(c4)),
        Arc::new(UInt8Array::from(c5)),
        Arc::new(DictionaryArray::<UInt8Type>::try_new(
            UInt8Array::from(category.clone()),
            names.clone(),
        )?),
        Arc::new(UInt8Array::from(category)),
        Arc::new(UInt8Array::from(bull)),
        Arc::new(UInt8Array::from(point_total)),
        Arc::new(grouping.finish()),
        Arc::new(DictionaryArray::<UInt8Type>::try_new(
            UInt8Array::from(high),
            card_names,
        )?),
        Arc::new(UInt16Array::from(strength)),
        Arc::new(UInt16Array::from(multiplier)),
        Arc::new(UInt32Array::from(wins)),
        Arc::new(Float64Array::from(win_probability)),
        Arc::new(Float64Array::from(banker_ev)),
    ];
    Ok(Chunk {
        batch: RecordBatch::try_new(schema.clone(), columns)?,
        stats,
    })
}

/// `categories.parquet`: one row per category, strongest last.
pub(super) fn categories_batch(
    ranking: &Ranking,
    stats: &[CategoryStats; CODES],
) -> anyhow::Result<RecordBatch> {
    let codes = &ranking.codes_by_rank;
    let denominator = f64::from(OPPONENT_HANDS);
    let stat = |c: &u8| stats[usize::from(*c)];
    let mean = |num: f64, hands: u64| {
        if hands == 0 {
            0.0
        } else {
            num / (hands as f64 * denominator)
        }
    };
    let ranks = 0..codes.len() as u8;
    Columns::new()
        .dict("category", ranks.clone(), &category_names(ranking))
        .str("category_zh", codes.iter().map(|&c| code_name_zh(c)))
        .u8("category_rank", ranks)
        .u32("count", codes.iter().map(|c| stat(c).hands as u32))
        .f64(
            "probability",
            codes.iter().map(|c| stat(c).hands as f64 / HANDS as f64),
        )
        .u16(
            "multiplier",
            codes
                .iter()
                .map(|&c| ranking.multiplier_of_code[usize::from(c)] as u16),
        )
        .f64(
            "mean_win_probability",
            codes
                .iter()
                .map(|c| mean(stat(c).wins as f64, stat(c).hands)),
        )
        .f64(
            "mean_banker_ev",
            codes
                .iter()
                .map(|c| mean(stat(c).banker as f64, stat(c).hands)),
        )
        .batch()
}
