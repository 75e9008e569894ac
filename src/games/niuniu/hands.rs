//! Job kind `niuniu.hands`: every 5-card hand with its category, grouping, exact win
//! probability against one opponent and exact banker EV, as Parquet, a runtime table and
//! a report.
//!
//! Work units split the 6,188 rank multisets; each unit computes the exact head-to-head
//! [`Counts`] of its multisets. `finish` expands those to the 2,598,960 hands.

use std::sync::Arc;

use arrow_array::builder::StringBuilder;
use arrow_array::types::UInt8Type;
use arrow_array::{
    ArrayRef, DictionaryArray, Float64Array, RecordBatch, StringArray, UInt16Array, UInt32Array,
    UInt8Array,
};
use cardtables::colex::{binomial, unrank};
use cardtables::niuniu::{CategoryInfo, NiuniuPayload, HANDS, OPPONENT_HANDS};
use cardtables::{Card, Niuniu};
use rayon::prelude::*;

use super::eval::{
    bull_of_points, category_table, first_grouping, high_card, multiset_index, points, tie_order,
    MULTISETS,
};
use super::headsup::{counts, prepare, Counts, Multiset};
use super::rules::{code_name, code_name_zh, Ranking, CODES};
use crate::engine::{BinaryOutput, Job, Outputs, Progress};
use crate::job::{JobError, JobSpec};
use crate::report::{bar_chart_svg, markdown_table, Report};
use crate::sink::parquet::ParquetOutput;

/// Rank multisets per work unit: 64 units in all.
const MULTISETS_PER_UNIT: usize = 97;
/// Hands per Parquet record batch (and per parallel chunk in `finish`).
const HANDS_PER_CHUNK: usize = 1 << 16;

/// The `niuniu.hands` job, planned from a job file.
pub struct HandsJob {
    name: String,
    description: String,
    job_file: String,
    ranking: Ranking,
    categories: Vec<u8>,
    multisets: Vec<Option<Multiset>>,
}

impl HandsJob {
    /// Validates the rules and prepares the per-multiset category table.
    pub fn new(spec: &JobSpec) -> Result<HandsJob, JobError> {
        let ranking = Ranking::from_spec(spec)?;
        Ok(HandsJob::from_ranking(
            ranking,
            &spec.name,
            &spec.description,
            &spec.file_name(),
        ))
    }

    /// The job for an already validated rule set.
    pub fn from_ranking(ranking: Ranking, name: &str, description: &str, job_file: &str) -> Self {
        let categories = category_table(&ranking);
        let multisets = prepare(&categories);
        HandsJob {
            name: name.to_string(),
            description: description.to_string(),
            job_file: job_file.to_string(),
            ranking,
            categories,
            multisets,
        }
    }

    /// Exact per-(multiset, high-card suit) results from the head-to-head counts.
    fn outcomes(&self, counts: &[Counts]) -> anyhow::Result<Vec<[Outcome; 4]>> {
        let mult = &self.ranking.multiplier_of_code;
        let banker_wins_ties = self.ranking.rules.banker_wins_ties;
        let mut out = vec![[Outcome::default(); 4]; MULTISETS];
        for (m, ms) in self.multisets.iter().enumerate() {
            let Some(ms) = ms else { continue };
            let c = &counts[m];
            let total: u64 = c.by_code.iter().map(|&n| u64::from(n)).sum();
            if total != u64::from(OPPONENT_HANDS) {
                anyhow::bail!(
                    "internal error: rank multiset {m} sees {total} opponent hands, not {OPPONENT_HANDS}"
                );
            }
            let my_rank = self.ranking.rank(ms.code);
            let mut below = 0i64; // opponents in weaker categories
            let mut above_pay = 0i64; // Σ multipliers of opponents in stronger categories
            for code in 0..CODES as u8 {
                let n = i64::from(c.by_code[usize::from(code)]);
                if n == 0 {
                    continue;
                }
                let rank = self.ranking.rank(code);
                if rank < my_rank {
                    below += n;
                } else if rank > my_rank {
                    above_pay += n * i64::from(mult[usize::from(code)]);
                }
            }
            let same = i64::from(c.by_code[usize::from(ms.code)]);
            let my_mult = i64::from(mult[usize::from(ms.code)]);
            for (suit, slot) in out[m].iter_mut().enumerate() {
                let lower_same = i64::from(c.below_high[suit]);
                let wins = below + lower_same;
                let banker = if banker_wins_ties {
                    my_mult * (below + same) - above_pay
                } else {
                    my_mult * wins - above_pay - my_mult * (same - lower_same)
                };
                *slot = Outcome {
                    wins: wins as u32,
                    banker_numerator: banker,
                };
            }
        }
        Ok(out)
    }
}

/// Exact head-to-head results shared by every hand with the same ranks and high suit.
#[derive(Clone, Copy, Debug, Default)]
struct Outcome {
    /// Opponent hands beaten, of C(47,5).
    wins: u32,
    /// Banker's total result over all C(47,5) opponent hands, in player bets.
    banker_numerator: i64,
}

/// Per-category sums over hands (integers, so chunk order cannot change them).
#[derive(Clone, Copy, Default)]
struct CategoryStats {
    hands: u64,
    wins: u64,
    banker: i64,
}

/// One chunk of hands, ready to become a record batch.
struct Chunk {
    batch: RecordBatch,
    strength: Vec<u16>,
    wins: Vec<u32>,
    stats: [CategoryStats; CODES],
}

impl Job for HandsJob {
    type Unit = Vec<Counts>;

    fn unit_count(&self) -> usize {
        MULTISETS.div_ceil(MULTISETS_PER_UNIT)
    }

    fn run_unit(&self, index: usize) -> Vec<Counts> {
        let start = index * MULTISETS_PER_UNIT;
        let end = (start + MULTISETS_PER_UNIT).min(MULTISETS);
        (start..end)
            .map(|m| match &self.multisets[m] {
                Some(ms) => counts(ms, &self.multisets),
                None => Counts {
                    by_code: [0; CODES],
                    below_high: [0; 4],
                },
            })
            .collect()
    }

    fn finish(&self, units: Vec<Vec<Counts>>, progress: &Progress) -> anyhow::Result<Outputs> {
        let counts: Vec<Counts> = units.into_iter().flatten().collect();
        anyhow::ensure!(
            counts.len() == MULTISETS,
            "internal error: {} multiset results, expected {MULTISETS}",
            counts.len()
        );
        let outcomes = self.outcomes(&counts)?;
        progress.phase("building hand rows");
        let schema = hands_schema();
        let names = self.category_names();
        let chunks: Vec<Chunk> = (0..HANDS.div_ceil(HANDS_PER_CHUNK))
            .into_par_iter()
            .map(|i| self.chunk(i, &outcomes, &schema, &names))
            .collect::<anyhow::Result<_>>()?;

        let mut stats = [CategoryStats::default(); CODES];
        let mut strength = Vec::with_capacity(HANDS);
        let mut wins = Vec::with_capacity(HANDS);
        let mut batches = Vec::with_capacity(chunks.len());
        for chunk in chunks {
            for (total, part) in stats.iter_mut().zip(chunk.stats) {
                total.hands += part.hands;
                total.wins += part.wins;
                total.banker += part.banker;
            }
            strength.extend_from_slice(&chunk.strength);
            wins.extend_from_slice(&chunk.wins);
            batches.push(chunk.batch);
        }
        let total_wins: u64 = stats.iter().map(|s| s.wins).sum();
        anyhow::ensure!(
            2 * total_wins == HANDS as u64 * u64::from(OPPONENT_HANDS),
            "internal error: win counts do not sum to half of all hand pairs"
        );

        let rules = self.ranking.canonical_toml();
        let rules_hash = crate::sink::rules_hash(&rules);
        let payload = NiuniuPayload {
            rules: rules.clone(),
            categories: self
                .ranking
                .codes_by_rank
                .iter()
                .map(|&c| CategoryInfo {
                    name: code_name(c).to_string(),
                    multiplier: self.ranking.multiplier_of_code[usize::from(c)],
                })
                .collect(),
            strength,
            wins,
        };
        let table = Niuniu::to_bytes(rules_hash, &payload)?;

        Ok(Outputs {
            parquet: vec![
                ParquetOutput {
                    file: "hands.parquet".into(),
                    batches,
                    plain_columns: vec![
                        "hand_index",
                        "cards",
                        "grouping",
                        "banker_ev",
                        "win_probability",
                        "wins",
                    ],
                },
                ParquetOutput {
                    file: "categories.parquet".into(),
                    batches: vec![self.categories_batch(&stats)?],
                    plain_columns: vec![],
                },
            ],
            tables: vec![BinaryOutput {
                file: "niuniu.bin".into(),
                bytes: table,
                entries: HANDS as u64,
            }],
            report: self.report(&stats, &rules)?,
            rules,
        })
    }
}

fn hands_schema() -> Arc<arrow_schema::Schema> {
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

impl HandsJob {
    fn category_names(&self) -> Arc<StringArray> {
        Arc::new(StringArray::from_iter_values(
            self.ranking.codes_by_rank.iter().map(|&c| code_name(c)),
        ))
    }

    fn chunk(
        &self,
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
            let code = self.categories[m];
            let rank = self.ranking.rank(code);
            let top = high_card(&cards);
            let outcome = outcomes[m][usize::from(top.suit())];
            let pts = cards.map(points);

            hand_index.push((start + offset) as u32);
            buf.clear();
            for (i, card) in cards.iter().enumerate() {
                if i > 0 {
                    buf.push(' ');
                }
                push_card(&mut buf, *card);
                c[i].push(card.id());
            }
            text.append_value(&buf);
            category.push(rank);
            bull.push(bull_of_points(pts));
            point_total.push(pts.iter().sum::<u8>());
            match first_grouping(pts) {
                Some(g) => {
                    buf.clear();
                    for (i, &p) in g.iter().enumerate() {
                        if i > 0 {
                            buf.push(' ');
                        }
                        push_card(&mut buf, cards[usize::from(p)]);
                    }
                    grouping.append_value(&buf);
                }
                None => grouping.append_null(),
            }
            high.push(top.id());
            strength.push(u16::from(rank) * 52 + u16::from(tie_order(top)));
            multiplier.push(self.ranking.multiplier_of_code[usize::from(code)] as u16);
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
            Arc::new(UInt16Array::from(strength.clone())),
            Arc::new(UInt16Array::from(multiplier)),
            Arc::new(UInt32Array::from(wins.clone())),
            Arc::new(Float64Array::from(win_probability)),
            Arc::new(Float64Array::from(banker_ev)),
        ];
        Ok(Chunk {
            batch: RecordBatch::try_new(schema.clone(), columns)?,
            strength,
            wins,
            stats,
        })
    }

    fn categories_batch(&self, stats: &[CategoryStats; CODES]) -> anyhow::Result<RecordBatch> {
        let codes = &self.ranking.codes_by_rank;
        let denominator = f64::from(OPPONENT_HANDS);
        let stat = |c: &u8| stats[usize::from(*c)];
        let mean = |num: f64, hands: u64| {
            if hands == 0 {
                0.0
            } else {
                num / (hands as f64 * denominator)
            }
        };
        let ranks: Vec<u8> = (0..codes.len() as u8).collect();
        let batch = RecordBatch::try_from_iter(vec![
            (
                "category",
                Arc::new(DictionaryArray::<UInt8Type>::try_new(
                    UInt8Array::from(ranks.clone()),
                    self.category_names(),
                )?) as ArrayRef,
            ),
            (
                "category_zh",
                Arc::new(StringArray::from_iter_values(
                    codes.iter().map(|&c| code_name_zh(c)),
                )),
            ),
            ("category_rank", Arc::new(UInt8Array::from(ranks))),
            (
                "count",
                Arc::new(UInt32Array::from_iter_values(
                    codes.iter().map(|c| stat(c).hands as u32),
                )),
            ),
            (
                "probability",
                Arc::new(Float64Array::from_iter_values(
                    codes.iter().map(|c| stat(c).hands as f64 / HANDS as f64),
                )),
            ),
            (
                "multiplier",
                Arc::new(UInt16Array::from_iter_values(codes.iter().map(|&c| {
                    self.ranking.multiplier_of_code[usize::from(c)] as u16
                }))),
            ),
            (
                "mean_win_probability",
                Arc::new(Float64Array::from_iter_values(
                    codes
                        .iter()
                        .map(|c| mean(stat(c).wins as f64, stat(c).hands)),
                )),
            ),
            (
                "mean_banker_ev",
                Arc::new(Float64Array::from_iter_values(
                    codes
                        .iter()
                        .map(|c| mean(stat(c).banker as f64, stat(c).hands)),
                )),
            ),
        ])?;
        Ok(batch)
    }

    fn report(&self, stats: &[CategoryStats; CODES], rules: &str) -> anyhow::Result<Report> {
        let denominator = f64::from(OPPONENT_HANDS);
        let codes: Vec<u8> = self.ranking.codes_by_rank.iter().rev().copied().collect();
        let rows: Vec<Vec<String>> = codes
            .iter()
            .map(|&c| {
                let s = stats[usize::from(c)];
                let per_hand = |x: f64| {
                    if s.hands == 0 {
                        "—".to_string()
                    } else {
                        format!("{:.6}", x / (s.hands as f64 * denominator))
                    }
                };
                vec![
                    format!("`{}`", code_name(c)),
                    code_name_zh(c).to_string(),
                    s.hands.to_string(),
                    format!("{:.6}", s.hands as f64 / HANDS as f64),
                    self.ranking.multiplier_of_code[usize::from(c)].to_string(),
                    per_hand(s.wins as f64),
                    per_hand(s.banker as f64),
                ]
            })
            .collect();
        let total_banker: i64 = stats.iter().map(|s| s.banker).sum();
        let pairs = HANDS as f64 * denominator;
        let order: Vec<String> = codes.iter().map(|&c| code_name_zh(c).to_string()).collect();
        let mut md = String::new();
        md.push_str(&format!("# Niuniu (斗牛): `{}`\n\n", self.name));
        if !self.description.is_empty() {
            md.push_str(&format!("{}\n\n", self.description));
        }
        md.push_str(&format!(
            "Written by `pipeline run jobs/{}` (kind `niuniu.hands`). Every figure is exact: \
             categories are counted over all 2,598,960 five-card hands, and head-to-head \
             results over all 1,533,939 opponent hands dealt from the 47 unseen cards.\n\n",
            self.job_file
        ));
        md.push_str("## Rules\n\n```toml\n");
        md.push_str(rules);
        md.push_str("```\n\n");
        md.push_str(&format!(
            "Category order, strongest first: {}. Equal categories are decided by the highest \
             card (K > Q > J > 10 > … > A), then that card's suit (♠ > ♥ > ♣ > ♦), so two \
             disjoint hands never tie. The loser pays the winner's multiplier.{}\n\n",
            order.join(" > "),
            if self.ranking.rules.banker_wins_ties {
                " For `banker_ev`, the banker wins every category tie (`banker_wins_ties`)."
            } else {
                ""
            }
        ));
        md.push_str("## Categories\n\n");
        md.push_str(&markdown_table(
            &[
                "category",
                "中文",
                "hands",
                "probability",
                "multiplier",
                "mean win probability",
                "mean banker EV",
            ],
            &rows,
        ));
        md.push_str(&format!(
            "\nWin probability is against one opponent; banker EV is the banker's expected \
             result against one random player, in player bets. Averaged over all hands the \
             banker's expected result is **{:+.6}** bets per player bet (exactly {} / {}){}.\n\n",
            total_banker as f64 / pairs,
            total_banker,
            HANDS as u64 * u64::from(OPPONENT_HANDS),
            if self.ranking.rules.banker_wins_ties {
                ""
            } else {
                ": zero by symmetry, since both hands come from the same deck and the loser \
                 pays the winner's multiplier either way; only `banker_wins_ties` gives the \
                 banker an edge"
            }
        ));
        md.push_str(&format!(
            "![Probability of each category]({}/categories.svg)\n\n",
            self.name
        ));
        md.push_str(
            "Checks that hold for this table (asserted when it is built): the category counts \
             sum to C(52,5) = 2,598,960, every hand sees exactly C(47,5) opponents, and the \
             win probabilities of all hands sum to exactly half the number of hands.\n",
        );

        let labels: Vec<String> = self
            .ranking
            .codes_by_rank
            .iter()
            .map(|&c| code_name(c).to_string())
            .collect();
        let values: Vec<f64> = self
            .ranking
            .codes_by_rank
            .iter()
            .map(|&c| (stats[usize::from(c)].hands as f64 / HANDS as f64).max(1e-9))
            .collect();
        let chart = bar_chart_svg(
            "Probability of each category (log scale)",
            &labels,
            &values,
            "probability",
            true,
        )?;
        Ok(Report {
            markdown: md,
            charts: vec![("categories.svg".to_string(), chart)],
        })
    }
}

fn push_card(buf: &mut String, card: Card) {
    use cardtables::card::{RANK_CHARS, SUIT_CHARS};
    buf.push(RANK_CHARS[usize::from(card.rank())]);
    buf.push(SUIT_CHARS[usize::from(card.suit())]);
}
