//! The outputs of `niuniu.hands` as Arrow: `hands.parquet` (one row per hand, built in
//! parallel chunks) and `categories.parquet`.

use std::sync::Arc;

use arrow_array::builder::StringBuilder;
use arrow_array::{
    ArrayRef, Float64Array, Int16Array, Int32Array, Int64Array, RecordBatch, StringArray,
};
use cardtables::colex::{binomial, unrank};
use cardtables::niuniu::{CategoryInfo, HANDS, OPPONENT_HANDS};
use cardtables::niuniu_bidding::{class_of, NiuniuBiddingPayload, CLASSES, FIFTH_CARDS};
use cardtables::Card;

use super::bidding::{class_ranks, made_base, ClassSample, FourStats};
use super::equilibrium::Solve;
use super::multiway::{Slot, SlotSample, MAX_OTHERS};
use super::opponents::Outcome;
use super::rules::BiddingSettings;

use super::eval::{
    bull_of_points, first_grouping, high_card, multiset_index, points, ranks_text, tie_card,
    tie_order,
};
use super::rules::Ranking;
use crate::sink::columns::Columns;

/// Hands per Parquet record batch (and per parallel chunk in `finish`).
pub(super) const HANDS_PER_CHUNK: usize = 1 << 16;
use super::rules::{code_name, code_name_zh, CODES};

/// Per-category sums over hands (integers, so chunk order cannot change them).
#[derive(Clone, Copy, Default)]
pub(super) struct CategoryStats {
    pub(super) hands: u64,
    pub(super) wins: u64,
    pub(super) banker: i64,
}

/// What the hand rows are built from: the rules, every multiset's category code and every
/// (multiset, tie suit) outcome. Shared by the threads that build `hands.parquet`'s
/// batches while it is written.
pub(super) struct HandRows {
    pub(super) ranking: Ranking,
    pub(super) categories: Vec<u8>,
    pub(super) outcomes: Vec<[Outcome; 4]>,
    schema: Arc<arrow_schema::Schema>,
    names: Arc<StringArray>,
}

/// One hand of a chunk, as [`HandRows::walk`] hands it over.
struct HandRow {
    cards: [Card; 5],
    code: u8,
    tie: Card,
    outcome: Outcome,
}

/// The schema of `hands.parquet`.
pub(super) fn hands_schema() -> Arc<arrow_schema::Schema> {
    use arrow_schema::{DataType, Field, Schema};
    Arc::new(Schema::new(vec![
        Field::new("hand_index", DataType::Int64, false),
        Field::new("cards", DataType::Utf8, false),
        Field::new("c1", DataType::Int16, false),
        Field::new("c2", DataType::Int16, false),
        Field::new("c3", DataType::Int16, false),
        Field::new("c4", DataType::Int16, false),
        Field::new("c5", DataType::Int16, false),
        Field::new("category", DataType::Utf8, false),
        Field::new("category_rank", DataType::Int16, false),
        Field::new("bull", DataType::Int16, true),
        Field::new("point_total", DataType::Int16, false),
        Field::new("grouping", DataType::Utf8, true),
        Field::new("high_card", DataType::Utf8, false),
        Field::new("strength", DataType::Int32, false),
        Field::new("multiplier", DataType::Int32, false),
        Field::new("wins", DataType::Int64, false),
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

impl HandRows {
    pub(super) fn new(ranking: Ranking, categories: Vec<u8>, outcomes: Vec<[Outcome; 4]>) -> Self {
        let names = category_names(&ranking);
        HandRows {
            ranking,
            categories,
            outcomes,
            schema: hands_schema(),
            names,
        }
    }

    /// Number of chunks (record batches) of hands.
    pub(super) fn chunks(&self) -> usize {
        HANDS.div_ceil(HANDS_PER_CHUNK)
    }

    /// Calls `visit` on hands `index·HANDS_PER_CHUNK ..` in colex order; returns how many.
    fn walk(&self, index: usize, mut visit: impl FnMut(HandRow)) -> usize {
        let start = index * HANDS_PER_CHUNK;
        let len = HANDS_PER_CHUNK.min(HANDS - start);
        let mut first = [Card::from_id(0).expect("card 0"); 5];
        unrank(start as u32, 5, &mut first);
        let mut ids = first.map(Card::id);
        for _ in 0..len {
            let cards = ids.map(|id| Card::from_id(id).expect("id < 52"));
            let m = multiset_index(&cards);
            let code = self.categories[m];
            let tie = tie_card(&cards, code, &self.ranking);
            let outcome = self.outcomes[m][usize::from(tie.suit())];
            visit(HandRow {
                cards,
                code,
                tie,
                outcome,
            });
            next_colex(&mut ids);
        }
        len
    }

    /// Per-category sums over the hands of chunk `index`.
    pub(super) fn stats(&self, index: usize) -> [CategoryStats; CODES] {
        let mut stats = [CategoryStats::default(); CODES];
        self.walk(index, |row| {
            let s = &mut stats[usize::from(row.code)];
            s.hands += 1;
            s.wins += u64::from(row.outcome.wins);
            s.banker += row.outcome.banker_numerator;
        });
        stats
    }

    /// Hands `index·HANDS_PER_CHUNK ..` as one record batch of `hands.parquet`.
    pub(super) fn batch(&self, index: usize) -> anyhow::Result<RecordBatch> {
        let start = index * HANDS_PER_CHUNK;
        let len = HANDS_PER_CHUNK.min(HANDS - start);
        let ranking = &self.ranking;
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
        let denominator = f64::from(OPPONENT_HANDS);
        let mut buf = String::with_capacity(16);

        let mut offset = 0;
        self.walk(
            index,
            |HandRow {
                 cards,
                 code,
                 tie,
                 outcome,
             }| {
                let rank = ranking.rank(code);
                let pts = cards.map(points);

                hand_index.push((start + offset) as u32);
                offset += 1;
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
            },
        );
        debug_assert_eq!(binomial(52, 5) as usize, HANDS);

        let card_names = Arc::new(StringArray::from_iter_values(
            (0..52u8).map(|id| Card::from_id(id).expect("id < 52").to_string()),
        ));
        let [c1, c2, c3, c4, c5] = c;
        let small = |v: Vec<u8>| -> ArrayRef {
            Arc::new(Int16Array::from_iter_values(v.into_iter().map(i16::from)))
        };
        let named = |keys: &[u8], names: &StringArray| -> ArrayRef {
            Arc::new(StringArray::from_iter_values(
                keys.iter().map(|&k| names.value(usize::from(k))),
            ))
        };
        let columns: Vec<ArrayRef> = vec![
            Arc::new(Int64Array::from_iter_values(
                hand_index.into_iter().map(i64::from),
            )),
            Arc::new(text.finish()),
            small(c1),
            small(c2),
            small(c3),
            small(c4),
            small(c5),
            named(&category, &self.names),
            small(category),
            Arc::new(Int16Array::from_iter(
                bull.into_iter().map(|b: Option<u8>| b.map(i16::from)),
            )),
            small(point_total),
            Arc::new(grouping.finish()),
            named(&high, &card_names),
            Arc::new(Int32Array::from_iter_values(
                strength.into_iter().map(i32::from),
            )),
            Arc::new(Int32Array::from_iter_values(
                multiplier.into_iter().map(i32::from),
            )),
            Arc::new(Int64Array::from_iter_values(
                wins.into_iter().map(i64::from),
            )),
            Arc::new(Float64Array::from(win_probability)),
            Arc::new(Float64Array::from(banker_ev)),
        ];
        Ok(RecordBatch::try_new(self.schema.clone(), columns)?)
    }
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

/// `four_cards.parquet` column names of the fifth-card distribution, by category code.
const P_NAMES: [&str; CODES] = [
    "p_no_bull",
    "p_bull_1",
    "p_bull_2",
    "p_bull_3",
    "p_bull_4",
    "p_bull_5",
    "p_bull_6",
    "p_bull_7",
    "p_bull_8",
    "p_bull_9",
    "p_bull_bull",
    "p_four_face",
    "p_five_face",
    "p_bomb",
    "p_five_small",
];

/// Everything `niuniu.bidding` computed, for its tables and report.
pub(super) struct Bidding {
    /// Exact results per four-card hand, by colex index.
    pub(super) stats: Vec<FourStats>,
    /// Four-card hands per class.
    pub(super) sizes: Vec<u32>,
    /// Each class's chance of being dealt.
    pub(super) weights: Vec<f64>,
    /// The bidding equilibrium and its certificate.
    pub(super) solve: Solve,
    /// The one-deck check per class, each level's gain measured over the class's main
    /// level (empty when the job asks for none).
    pub(super) one_deck: Vec<ClassSample>,
}

/// What the one-deck check found: classes with a level that beats the equilibrium's main
/// level by more than [`CHECK_Z`] standard errors on tables dealt from one deck.
pub(super) struct OneDeckSummary {
    pub(super) classes: usize,
    /// Their share of all deals.
    pub(super) weight: f64,
    /// Σ weight · best significant gain, stakes per hand, and its standard error.
    pub(super) gain: f64,
    pub(super) gain_se: f64,
    /// The largest standard error of a gain over the main level.
    pub(super) max_se: f64,
}

/// How many standard errors a one-deck gain must exceed to count.
pub(super) const CHECK_Z: f64 = 3.0;

impl Bidding {
    /// The one-deck check's findings, or `None` when the job ran none.
    pub(super) fn one_deck_summary(&self) -> Option<OneDeckSummary> {
        if self.one_deck.is_empty() {
            return None;
        }
        let mut out = OneDeckSummary {
            classes: 0,
            weight: 0.0,
            gain: 0.0,
            gain_se: 0.0,
            max_se: 0.0,
        };
        let mut variance = 0.0;
        for (c, s) in self.one_deck.iter().enumerate() {
            let levels = 0..s.sum.len();
            out.max_se = levels
                .clone()
                .map(|l| s.gain_se(l))
                .fold(out.max_se, f64::max);
            let best = levels
                .filter(|&l| s.gain(l) > CHECK_Z * s.gain_se(l))
                .max_by(|&a, &b| s.gain(a).total_cmp(&s.gain(b)));
            if let Some(l) = best {
                let w = self.weights[c];
                out.classes += 1;
                out.weight += w;
                out.gain += w * s.gain(l);
                variance += (w * s.gain_se(l)).powi(2);
            }
        }
        out.gain_se = variance.sqrt();
        Some(out)
    }

    /// Exact one-player EV per stake of a four-card hand's numerator.
    pub(super) fn ev(numerator: i64) -> f64 {
        numerator as f64 / (f64::from(FIFTH_CARDS) * f64::from(OPPONENT_HANDS))
    }

    /// Exact banker EV against one player of a class: the mean over its hands.
    pub(super) fn class_banker_ev(&self) -> Vec<f64> {
        let mut sums = vec![0i64; CLASSES];
        let mut four = [Card::from_id(0).expect("card 0"); 4];
        for (index, s) in self.stats.iter().enumerate() {
            unrank(index as u32, 4, &mut four);
            sums[class_of(&four)] += s.banker;
        }
        sums.iter()
            .zip(&self.sizes)
            .map(|(&s, &n)| Bidding::ev(s) / f64::from(n))
            .collect()
    }
}

/// A bid level's multiplier (0 for no bid).
pub(super) fn bid_of(settings: &BiddingSettings, level: u8) -> u32 {
    match level {
        0 => 0,
        l => settings.bids[usize::from(l) - 1],
    }
}

/// A class's four ranks, strongest first in the tie-break order (K high, A low).
pub(super) fn class_text(class: usize) -> String {
    ranks_text(&class_ranks(class))
}

/// `four_cards.parquet`: one row per four-card hand.
pub(super) fn four_cards_batch(
    ranking: &Ranking,
    settings: &BiddingSettings,
    bidding: &Bidding,
) -> anyhow::Result<RecordBatch> {
    let n = bidding.stats.len();
    let mut cards = Vec::with_capacity(n);
    let mut class = Vec::with_capacity(n);
    let mut base = Vec::with_capacity(n);
    let mut four = [Card::from_id(0).expect("card 0"); 4];
    for index in 0..n as u32 {
        unrank(index, 4, &mut four);
        cards.push(crate::cards::text(&four));
        class.push(class_of(&four) as u16);
        base.push(made_base(&four));
    }
    let players = f64::from(settings.players);
    let mut columns = Columns::new()
        .u32("hand_index", 0..n as u32)
        .str("cards", &cards)
        .u16("rank_class", class.iter().copied())
        .u8_or_null("made_base", base);
    // In code order (not rank order), so the schema does not depend on how the rules rank
    // the special hands.
    for code in (0..CODES as u8).filter(|&c| ranking.rank_of_code[usize::from(c)].is_some()) {
        let rank = usize::from(ranking.rank(code));
        columns = columns.f64(
            P_NAMES[usize::from(code)],
            bidding
                .stats
                .iter()
                .map(|s| f64::from(s.fifth_cards[rank]) / f64::from(FIFTH_CARDS)),
        );
    }
    columns
        .f64(
            "player_ev",
            bidding.stats.iter().map(|s| Bidding::ev(s.player)),
        )
        .f64(
            "banker_ev",
            bidding.stats.iter().map(|s| Bidding::ev(s.banker)),
        )
        .f64(
            "banker_ev_table",
            bidding
                .stats
                .iter()
                .map(|s| players * Bidding::ev(s.banker)),
        )
        .u32(
            "suggested_bid",
            class
                .iter()
                .map(|&c| bid_of(settings, bidding.solve.main_level(usize::from(c)))),
        )
        .f64(
            "suggested_bid_share",
            class.iter().map(|&c| {
                let c = usize::from(c);
                let l = usize::from(bidding.solve.main_level(c));
                bidding.solve.strategy[c * bidding.solve.levels + l]
            }),
        )
        .f64("bid_regret", bidding.solve.hand_regret.iter().copied())
        .batch()
}

/// `bidding.parquet`: one row per class and bid level.
pub(super) fn bidding_batch(
    settings: &BiddingSettings,
    bidding: &Bidding,
) -> anyhow::Result<RecordBatch> {
    let levels = settings.bids.len() + 1;
    let rows = || (0..CLASSES).flat_map(move |c| (0..levels).map(move |l| (c, l)));
    let exact = bidding.class_banker_ev();
    let solve = &bidding.solve;
    let checked = !bidding.one_deck.is_empty();
    let check = |f: fn(&ClassSample, usize) -> f64| {
        rows()
            .map(|(c, l)| checked.then(|| f(&bidding.one_deck[c], l)))
            .collect::<Vec<_>>()
    };
    Columns::new()
        .u16("rank_class", rows().map(|(c, _)| c as u16))
        .str(
            "ranks",
            rows().map(|(c, _)| class_text(c)).collect::<Vec<_>>(),
        )
        .u32("hands", rows().map(|(c, _)| bidding.sizes[c]))
        .f64("class_weight", rows().map(|(c, _)| bidding.weights[c]))
        .f64("banker_ev", rows().map(|(c, _)| exact[c]))
        .u8("level", rows().map(|(_, l)| l as u8))
        .u32("bid", rows().map(|(_, l)| bid_of(settings, l as u8)))
        .f64("share", rows().map(|(c, l)| solve.strategy[c * levels + l]))
        .f64("ev_bid", rows().map(|(c, l)| solve.values[c * levels + l]))
        .f64(
            "gain",
            rows().map(|(c, l)| solve.values[c * levels + l] - solve.values[c * levels]),
        )
        .f64("regret", rows().map(|(c, _)| solve.class_regret(c)))
        .bool(
            "suggested",
            rows().map(|(c, l)| usize::from(solve.main_level(c)) == l),
        )
        .f64_or_null("one_deck_ev", check(ClassSample::ev))
        .f64_or_null("one_deck_ev_se", check(ClassSample::ev_se))
        .f64_or_null("one_deck_gain", check(ClassSample::gain))
        .f64_or_null("one_deck_gain_se", check(ClassSample::gain_se))
        .batch()
}

/// `equilibrium.parquet`: one row, the bidding equilibrium's certificate and the
/// one-deck check's findings.
pub(super) fn equilibrium_batch(
    settings: &BiddingSettings,
    bidding: &Bidding,
) -> anyhow::Result<RecordBatch> {
    let solve = &bidding.solve;
    let summary = bidding.one_deck_summary();
    let field = |f: fn(&OneDeckSummary) -> f64| [summary.as_ref().map(f)];
    Columns::new()
        .u8("players", [settings.players])
        .f64("exploitability", [solve.exploitability])
        .f64("class_exploitability", [solve.class_exploitability])
        .f64("target_exploitability", [settings.target_exploitability])
        .u32("rounds", [solve.rounds])
        .u32("check_deals_per_class", [settings.check_deals_per_class])
        .i32_or_null(
            "one_deck_classes",
            [summary.as_ref().map(|s| s.classes as i32)],
        )
        .f64_or_null("one_deck_weight", field(|s| s.weight))
        .f64_or_null("one_deck_gain", field(|s| s.gain))
        .f64_or_null("one_deck_gain_se", field(|s| s.gain_se))
        .batch()
}

/// The runtime table's payload.
pub(super) fn bidding_payload(
    ranking: &Ranking,
    settings: &BiddingSettings,
    rules: String,
    bidding: &Bidding,
) -> NiuniuBiddingPayload {
    let cats = ranking.codes_by_rank.len();
    NiuniuBiddingPayload {
        rules,
        categories: ranking
            .codes_by_rank
            .iter()
            .map(|&c| CategoryInfo {
                name: code_name(c).to_string(),
                multiplier: ranking.multiplier_of_code[usize::from(c)],
            })
            .collect(),
        players: settings.players,
        bids: settings.bids.clone(),
        fifth_cards: bidding
            .stats
            .iter()
            .flat_map(|s| s.fifth_cards[..cats].iter().copied())
            .collect(),
        banker: bidding.stats.iter().map(|s| s.banker).collect(),
        player: bidding.stats.iter().map(|s| s.player).collect(),
        class_bid: (0..CLASSES).map(|c| bidding.solve.main_level(c)).collect(),
        class_ev: bidding.solve.values.clone(),
        class_share: bidding.solve.strategy.clone(),
        exploitability: bidding.solve.exploitability,
    }
}

/// One slot of `niuniu.multiway` with everything its rows need.
pub(super) struct SlotResult {
    pub(super) slot: Slot,
    /// Category code, strength and tie-break card of the slot's hands.
    pub(super) code: u8,
    pub(super) strength: u16,
    pub(super) tie_card: Card,
    /// The five ranks, high to low in Niuniu order (K high, A low).
    pub(super) ranks: String,
    /// Exact results against one player.
    pub(super) exact: Outcome,
    pub(super) sample: SlotSample,
}

impl SlotResult {
    /// Probability of beating all of `others` players and its standard error (exact, 0,
    /// for one player).
    pub(super) fn p_beat_all(&self, others: usize) -> (f64, f64) {
        if others == 1 {
            (f64::from(self.exact.wins) / f64::from(OPPONENT_HANDS), 0.0)
        } else {
            (
                self.sample.p_beat_all(others),
                self.sample.p_beat_all_se(others),
            )
        }
    }

    /// The banker's exact EV against `others` players, in single-player stakes.
    pub(super) fn banker_ev(&self, others: usize) -> f64 {
        others as f64 * self.exact.banker_numerator as f64 / f64::from(OPPONENT_HANDS)
    }

    /// The simulated standard deviation of the banker's result against `others` players.
    pub(super) fn banker_sd(&self, others: usize) -> f64 {
        group_figures(std::iter::once(self), others).banker_sd
    }

    /// The standard error of [`SlotResult::banker_sd`].
    pub(super) fn banker_sd_se(&self, others: usize) -> f64 {
        group_figures(std::iter::once(self), others).banker_sd_se
    }
}

/// The slots with their category, strength and results.
pub(super) fn multiway_results(
    ranking: &Ranking,
    categories: &[u8],
    slots: &[Slot],
    outcomes: &[[Outcome; 4]],
    samples: Vec<SlotSample>,
) -> Vec<SlotResult> {
    slots
        .iter()
        .zip(samples)
        .map(|(slot, sample)| {
            let mut cards = [Card::from_id(0).expect("card 0"); 5];
            unrank(slot.hand, 5, &mut cards);
            let m = slot.id as usize / 4;
            let code = categories[m];
            let tie = tie_card(&cards, code, ranking);
            SlotResult {
                slot: *slot,
                code,
                strength: u16::from(ranking.rank(code)) * 52 + u16::from(tie_order(tie)),
                tie_card: tie,
                ranks: ranks_text(&cards.map(Card::rank)),
                exact: outcomes[m][slot.id as usize % 4],
                sample,
            }
        })
        .collect()
}

/// `slots.parquet`: one row per slot and number of other players.
pub(super) fn slots_batch(
    ranking: &Ranking,
    results: &[SlotResult],
) -> anyhow::Result<RecordBatch> {
    let rows = || {
        results
            .iter()
            .flat_map(|r| (1..=MAX_OTHERS).map(move |n| (r, n)))
    };
    let methods = Arc::new(StringArray::from(vec!["exact", "monte_carlo"]));
    Columns::new()
        .str(
            "ranks",
            rows().map(|(r, _)| r.ranks.clone()).collect::<Vec<_>>(),
        )
        .str(
            "tie_card",
            rows()
                .map(|(r, _)| crate::cards::text(&[r.tie_card]))
                .collect::<Vec<_>>(),
        )
        .dict(
            "category",
            rows().map(|(r, _)| ranking.rank(r.code)),
            &category_names(ranking),
        )
        .u8("category_rank", rows().map(|(r, _)| ranking.rank(r.code)))
        .u16("strength", rows().map(|(r, _)| r.strength))
        .u32("hands", rows().map(|(r, _)| r.slot.hands))
        .u8("opponents", rows().map(|(_, n)| n as u8))
        .f64("p_beat_all", rows().map(|(r, n)| r.p_beat_all(n).0))
        .f64("std_error", rows().map(|(r, n)| r.p_beat_all(n).1))
        .dict("method", rows().map(|(_, n)| u8::from(n > 1)), &methods)
        .f64("banker_ev", rows().map(|(r, n)| r.banker_ev(n)))
        .f64("banker_sd", rows().map(|(r, n)| r.banker_sd(n)))
        .f64("banker_sd_se", rows().map(|(r, n)| r.banker_sd_se(n)))
        .u64("deals", rows().map(|(r, _)| r.sample.deals))
        .batch()
}

/// Hand-weighted means over a group of slots against `others` players: P(beat all) with
/// its standard error, the banker's exact EV and the banker's simulated standard
/// deviation over the group's hands and deals, with its standard error.
pub(super) struct GroupFigures {
    pub(super) hands: u64,
    pub(super) p_beat_all: f64,
    pub(super) std_error: f64,
    pub(super) banker_ev: f64,
    pub(super) banker_sd: f64,
    pub(super) banker_sd_se: f64,
}

pub(super) fn group_figures<'a>(
    slots: impl Iterator<Item = &'a SlotResult> + Clone,
    others: usize,
) -> GroupFigures {
    let hands: u64 = slots.clone().map(|r| u64::from(r.slot.hands)).sum();
    let w = |r: &SlotResult| f64::from(r.slot.hands) / hands as f64;
    let (mut p, mut var, mut ev, mut mean, mut mean_sq) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for r in slots.clone() {
        let (pr, se) = r.p_beat_all(others);
        p += w(r) * pr;
        var += (w(r) * se).powi(2);
        ev += w(r) * r.banker_ev(others);
        mean += w(r) * r.sample.banker_mean(others);
        mean_sq += w(r) * r.sample.banker_mean_sq(others);
    }
    // The variance s² = Σ w·E[x²] − (Σ w·E[x])² by the delta method: each slot's deals
    // are independent, with gradient (−2·mean, 1)·w on its (E[x], E[x²]).
    let mut var_s2 = 0.0;
    for r in slots {
        let [vx, cov, vx2] = r.sample.banker_moment_covariance(others);
        let (a, b) = (-2.0 * mean * w(r), w(r));
        var_s2 += a * a * vx + 2.0 * a * b * cov + b * b * vx2;
    }
    let sd = (mean_sq - mean * mean).max(0.0).sqrt();
    GroupFigures {
        hands,
        p_beat_all: p,
        std_error: var.sqrt(),
        banker_ev: ev,
        banker_sd: sd,
        // se(s) = se(s²) / 2s; a spread of zero (every deal alike) has none.
        banker_sd_se: if sd > 0.0 {
            var_s2.max(0.0).sqrt() / (2.0 * sd)
        } else {
            0.0
        },
    }
}

/// The strength band (0 = weakest) of every slot: `bands` bands of equal shares of all
/// hands, a slot going to the band that holds its middle hand.
pub(super) fn strength_bands(results: &[SlotResult], bands: u32) -> Vec<u32> {
    let mut order: Vec<usize> = (0..results.len()).collect();
    order.sort_by_key(|&i| (results[i].strength, results[i].slot.id));
    let mut band = vec![0u32; results.len()];
    let mut below = 0u64;
    for i in order {
        let hands = u64::from(results[i].slot.hands);
        let middle = 2 * below + hands; // twice the middle hand's position
        band[i] =
            ((middle * u64::from(bands)) / (2 * HANDS as u64)).min(u64::from(bands) - 1) as u32;
        below += hands;
    }
    band
}

/// `summary.parquet`: per category and per strength band, against 1 to 5 players.
pub(super) fn multiway_summary_batch(
    ranking: &Ranking,
    results: &[SlotResult],
    bands: u32,
) -> anyhow::Result<RecordBatch> {
    let band_of = strength_bands(results, bands);
    let mut group = Vec::new();
    let mut label = Vec::new();
    let mut others = Vec::new();
    let mut figures = Vec::new();
    for (rank, &code) in ranking.codes_by_rank.iter().enumerate().rev() {
        for n in 1..=MAX_OTHERS {
            group.push("category");
            label.push(code_name(code).to_string());
            others.push(n as u8);
            figures.push(group_figures(
                results
                    .iter()
                    .filter(|r| usize::from(ranking.rank(r.code)) == rank),
                n,
            ));
        }
    }
    for b in (0..bands).rev() {
        for n in 1..=MAX_OTHERS {
            group.push("strength_band");
            label.push(band_label(b, bands));
            others.push(n as u8);
            figures.push(group_figures(
                results
                    .iter()
                    .zip(&band_of)
                    .filter(|(_, &x)| x == b)
                    .map(|(r, _)| r),
                n,
            ));
        }
    }
    let groups = Arc::new(StringArray::from(vec!["category", "strength_band"]));
    Columns::new()
        .dict(
            "group",
            group.iter().map(|&g| u8::from(g == "strength_band")),
            &groups,
        )
        .str("cell", &label)
        .u64("hands", figures.iter().map(|f| f.hands))
        .u8("opponents", others.iter().copied())
        .f64("p_beat_all", figures.iter().map(|f| f.p_beat_all))
        .f64("std_error", figures.iter().map(|f| f.std_error))
        .f64("banker_ev", figures.iter().map(|f| f.banker_ev))
        .f64("banker_sd", figures.iter().map(|f| f.banker_sd))
        .f64("banker_sd_se", figures.iter().map(|f| f.banker_sd_se))
        .batch()
}

/// A strength band's name: its range of strength percentiles.
pub(super) fn band_label(band: u32, bands: u32) -> String {
    let pct = |b: u32| 100.0 * f64::from(b) / f64::from(bands);
    format!("{:.0}–{:.0}%", pct(band), pct(band + 1))
}
