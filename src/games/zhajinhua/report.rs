//! The Zhajinhua report: category table, win probability by strength percentile, sample
//! hands, and the decision model with its raise-size curve.

use cardtables::Card;

use cardtables::decision::{optimum_raise, RaiseOptimum};

use cardtables::zhajinhua::RangeCurve;

use super::counts::{Counts, OPPONENT_PAIRS};
use super::decisions;
use super::eval::{index_of, Evaluator, CATEGORIES, CATEGORIES_ZH, HANDS};
use super::job::{HandsJob, EXACT_OPPONENTS};
use super::multiway::Sample;
use super::rules::{Payer, Showdown, Ties, ZhajinhuaRules, A23};
use crate::engine::JobMeta;
use crate::report::{
    conventions, header, line_chart_svg, markdown_table, published_box, Line, Mark, Published,
    Report,
};

/// Hands whose raise-size EV curves the report draws (a strong one, a weak one, and the
/// A-2-3 straight whose rank the `a23` variant moves), the situation they face, and the
/// fold model's saturation.
pub(super) const CURVE_HANDS: [&str; 3] = ["Ks Kh Qd", "Qh 8d 4c", "Ah 2d 3c"];
pub(super) const CURVE_POT: f64 = 100.0;
pub(super) const CURVE_CALL: f64 = 20.0;
pub(super) const CURVE_MAX_FOLD: f64 = 1.0;
/// The fold curve's limit in the report's earlier model (random callers), kept for the
/// comparison with its grid-found optimum.
const EARLIER_MAX_FOLD: f64 = 0.6;

/// Category counts under each `a23` variant, side by side (`special_235` and `ties` change
/// who wins, not how many hands fall in each category).
fn variant_counts() -> String {
    let variants = [A23::Lowest, A23::Second, A23::None];
    let counts: Vec<[u32; 6]> = variants
        .iter()
        .map(|&a23| {
            let eval = Evaluator::new(ZhajinhuaRules {
                a23,
                ..ZhajinhuaRules::default()
            });
            let mut c = [0u32; 6];
            for h in &eval.hands {
                c[usize::from(h.category)] += 1;
            }
            c
        })
        .collect();
    let rows: Vec<Vec<String>> =
        (0..CATEGORIES.len())
            .rev()
            .map(|c| {
                let mut row = vec![format!("`{}`", CATEGORIES[c])];
                row.extend(counts.iter().map(|v| {
                    format!("{} ({:.4} %)", v[c], 100.0 * f64::from(v[c]) / HANDS as f64)
                }));
                row
            })
            .collect();
    format!(
        "\nUnder each rule variant (A-2-3 moves between straight and high card; \
         `special_235` and `ties` change who wins, not the counts):\n\n{}",
        markdown_table(
            &["category", "a23 = lowest", "a23 = second", "a23 = none"],
            &rows
        )
    )
}

/// The report's sentences on how a showdown against several opponents is settled under
/// `rules`.
fn showdown_words(rules: &ZhajinhuaRules) -> String {
    let heads_up = match rules.ties {
        Ties::Split => "Heads-up, tied hands split the pot",
        Ties::CallerLoses => {
            "Heads-up, the player asking for the comparison loses a tie, and our hand is the \
             one asking, so a tie is worth nothing to us"
        }
    };
    let multi = match rules.showdown {
        Showdown::Sequential => {
            "Against several opponents (`showdown = \"sequential\"`, as 比牌 works) hands are \
             compared two at a time, ours asking each opponent in turn: a hand wins when it \
             beats each of them, ties when none beats it and at least one ties it, every \
             comparison under the rules above"
        }
        Showdown::Simultaneous => {
            "Against several opponents (`showdown = \"simultaneous\"`) every hand is shown at \
             once and the strongest in the ordinary order takes the pot, tied hands splitting \
             it: the off-suit 2-3-5 counts as a high card and nobody loses a tie for asking, \
             since with three or more hands the circular order may have no strongest hand and \
             nobody asked"
        }
    };
    let circular = if rules.special_235 && rules.showdown == Showdown::Sequential {
        " Under `special_235` the order is circular (2-3-5 > trips > every other hand > \
         2-3-5), so among three hands nobody may beat both others; our hand then loses, as it \
         does in the comparison it loses."
    } else {
        ""
    };
    let equity = match rules.against(2).ties {
        Ties::Split => "the equity splits a tie equally among the tied hands",
        Ties::CallerLoses => "the equity counts a tie as nothing",
    };
    format!("{heads_up}. {multi}; {equity}.{circular}\n\n")
}

impl HandsJob {
    /// The published-figures box: the three-card category counts every probability text
    /// gives, which count A-2-3 as a straight, so under `a23 = "none"` only the counts
    /// that do not depend on it (trips and pairs) are compared.
    fn published_counts(&self, counts: &[u32; 6]) -> anyhow::Result<String> {
        // Weakest first, as CATEGORIES.
        let textbook: [u32; 6] = [16_440, 3_744, 720, 1_096, 48, 52];
        let straights_count = self.eval.rules.a23 != A23::None;
        let figures: Vec<Published> = (0..CATEGORIES.len())
            .rev()
            .filter(|&c| straights_count || c == 1 || c == usize::from(super::eval::TRIPS))
            .map(|c| Published {
                what: format!("{} ({})", CATEGORIES[c], CATEGORIES_ZH[c]),
                ours: f64::from(counts[c]),
                published: f64::from(textbook[c]),
                decimals: 0,
                tolerance: None,
                source: "the three-card poker hand counts of the probability texts (e.g. Wikipedia, Three card poker), A-2-3 a straight",
            })
            .collect();
        published_box(&figures)
    }

    /// The hands whose raise-size curves the report draws: a strong and a weak one, the
    /// A-2-3 whose rank the `a23` variant moves, and the off-suit 2-3-5 under
    /// `special_235`.
    pub(super) fn curve_hands(&self) -> Vec<&'static str> {
        let mut hands = CURVE_HANDS.to_vec();
        if self.eval.rules.special_235 {
            hands.push("5h 3c 2d");
        }
        hands
    }

    /// The report's decision-model section and its raise-size chart.
    fn decision_report(
        &self,
        meta: &JobMeta,
        curves: &[RangeCurve],
    ) -> anyhow::Result<(String, String)> {
        let b = &self.betting;
        let k = b.seen_multiplier;
        let both = b.showdown_paid_by == Payer::Both;
        let mut md = format!(
            "\n## Decisions\n\n\
             `decisions.parquet` prices fold, call, raise and compare over a grid of equity \
             (0.1–0.9), pot (50, 100, 200), call (10, 20, 50), raise-to (2×, 3×, 5× the call, \
             up to the cap of {cap_pots} pots) and opponent fold rate (0, 0.1, 0.25, 0.5), against \
             opponents who have seen their cards and against blind ones (column `opponents`), \
             with the model of docs/rules/zhajinhua.md and the job's `[betting]` table (below). \
             We have looked at our hand, so we bet as a seen player and every amount is our \
             chips: P = pot before our decision including the opponent's bet, C = call, \
             w = equity, R = raise-to, f = fold rate, ρ = what an opponent pays per chip of \
             ours for the same stake (1 when seen; 1/{k} when blind, since a seen player pays \
             {k} × a blind player's stake):\n\n\
             - EV(fold) = 0; EV(call) = w·(P + C) − C; required equity = C / (P + C)\n\
             - EV(raise to R) = f·P + (1 − f)·(w·(P + R + ρ·(R − C)) − R); with seen opponents \
             (ρ = 1) the article's f·P + (1 − f)·(w·(P + R) − R) forgets the opponent's R − C \
             and is in `ev_raise_article_formula` only to show the gap\n\
             - EV(compare) = w·(P + K{both_term}) − K, K = {cost} × C (column `compare_cost`), \
             paid by {payer}\n\
             - styles (the article's §4.3): tight acts only on EV > 5 % of the pot, loose on EV > −2 % \
             of the pot, steady on EV > 0 but prices raises with a fold rate of at most 0.1; \
             `*_action` is the best action each style accepts, else fold.\n\n\
             No Kelly fraction is given: Kelly sizes a stake one chooses as a share of one's \
             bankroll, and the size of a call is fixed by the bet.\n\n\
             Stakes (`[betting]`):\n\n```toml\n{stakes}```\n\n",
            cap_pots = b.raise_cap,
            cost = b.showdown_cost,
            both_term = if both { " + ρ·K" } else { "" },
            payer = if both {
                "both players compared, each at its rate"
            } else {
                "the player asking (us)"
            },
            stakes = b.canonical_toml(),
        );
        let cap = b.raise_cap * CURVE_POT;
        md.push_str(&format!(
            "### Raise size\n\nA raise is called by the hands that do not fold, and those are the \
             strongest ones. We let the fold rate grow with the raise, f(R) = {max} · (R − C) / \
             (R − C + P): 0 at a call, one half at a pot-sized raise (R − C = P), tending to 1, \
             so the callers of a huge raise are only the best hands. We value a called raise with the exact \
             equity against the **calling range**: exactly the top 1 − f(R) of hands, the \
             strongest hands in full and the marginal strength level (hands of equal strength) \
             in the fraction that makes the share exact (docs/rules/zhajinhua.md; \
             `range_equity.parquet` lists it at every whole percent). Pot {pot}, call {call}, \
             heads-up, raises up to the cap ({cap}). The best raise is searched on the \
             continuous raise, not the chart's grid: between two raises where the marginal \
             level changes the EV is a smooth function, scanned at 32 points and refined at \
             each local maximum by golden-section search; the best of those and the ends is \
             the optimum (the tests check, for every hand class, that no raise on a 0.01-chip grid beats it). For \
             comparison, the same fold curve with callers holding random hands \
             (the model this report used before), whose optimum is the closed form itself, and \
             the best raise against a **blind** opponent, who folds along the same curve but, \
             not having looked, calls with any hand and pays 1/{k} of our chips.\n\n",
            max = CURVE_MAX_FOLD,
            pot = CURVE_POT,
            call = CURVE_CALL,
        ));
        let seen = b.betting(false);
        let blind = b.betting(true);
        let mut rows = Vec::new();
        let mut series = Vec::new();
        let mut marks = Vec::new();
        for text in self.curve_hands() {
            let range = self.curve_of(curves, text);
            let vs = |s: f64| range.equity(1, s).ok();
            let breaks: Vec<f64> = range.breaks().collect();
            let w = range.equity(1, 1.0)?;
            let best = optimum_raise(
                CURVE_POT,
                CURVE_CALL,
                CURVE_MAX_FOLD,
                cap,
                &seen,
                vs,
                &breaks,
            );
            let random = optimum_raise(
                CURVE_POT,
                CURVE_CALL,
                CURVE_MAX_FOLD,
                cap,
                &seen,
                |_| Some(w),
                &[],
            );
            let vs_blind = optimum_raise(
                CURVE_POT,
                CURVE_CALL,
                CURVE_MAX_FOLD,
                cap,
                &blind,
                vs,
                &breaks,
            );
            let place = |o: &RaiseOptimum| {
                if o.at_cap {
                    format!("{:.2} (the cap)", o.raise_to)
                } else if o.raise_to <= CURVE_CALL {
                    format!("{:.2} (a call)", o.raise_to)
                } else {
                    format!("{:.2}", o.raise_to)
                }
            };
            rows.push(vec![
                format!("`{text}`"),
                format!("{w:.4}"),
                place(&best),
                if best.ev < 0.0 {
                    format!("{:+.2} (folding, 0, is better)", best.ev)
                } else {
                    format!("{:+.2}", best.ev)
                },
                format!(
                    "top {:.2} %, equity {:.4}",
                    100.0 * best.calling_share,
                    best.equity
                ),
                place(&random),
                format!("{:+.2}", random.ev),
                place(&vs_blind),
                format!("{:+.2}", vs_blind.ev),
            ]);
            let curve =
                decisions::raise_curve(CURVE_POT, CURVE_CALL, CURVE_MAX_FOLD, cap, &seen, &vs);
            // One colour per hand: the calling-range model solid with its exact optimum
            // marked, the random-caller model dashed.
            let colour = series.len() / 2;
            series.push(Line::solid(
                format!("{text}: callers hold the calling range"),
                curve.iter().map(|p| (p.raise_to, p.ev)).collect(),
                colour,
            ));
            series.push(Line::dashed(
                format!("{text}: callers hold random hands"),
                curve
                    .iter()
                    .map(|p| (p.raise_to, p.ev_random_callers))
                    .collect(),
                colour,
            ));
            marks.push(Mark {
                label: format!("best {:.2}", best.raise_to),
                x: best.raise_to,
                y: best.ev,
                colour,
            });
        }
        md.push_str(&markdown_table(
            &[
                "hand",
                "equity vs a random hand",
                "best raise-to",
                "EV there",
                "callers there",
                "best if callers were random",
                "EV there",
                "best against a blind opponent",
                "EV there",
            ],
            &rows,
        ));
        let weak = self.curve_of(curves, CURVE_HANDS[1]).equity(1, 1.0)?;
        // The earlier model: seen opponents, the default cap of 5 pots.
        let earlier = optimum_raise(
            CURVE_POT,
            CURVE_CALL,
            EARLIER_MAX_FOLD,
            5.0 * CURVE_POT,
            &cardtables::decision::Betting::SEEN,
            |_| Some(weak),
            &[],
        );
        md.push_str(&format!(
            "\n![EV against raise size]({}/raise_curve.svg)\n\n\
             In the chart each hand has one colour: the calling-range model solid with its \
             exact optimum marked, the random-caller model dashed. \
             Against random callers every chip a caller adds is worth 2w − 1 to us, so a hand \
             with equity above 1/2 wants the largest raise the fold curve allows; against the \
             hands that really call, the equity falls as the raise grows and a strong hand's \
             best raise is inside the range. Only hands that beat almost every caller (trips, \
             the best straight flushes) still want the cap. The earlier model of this report (random callers, \
             folds tending to {EARLIER_MAX_FOLD}) has its exact optimum for `{}` at a raise to \
             {:.2} (EV {:+.2}); its chart's grid put it at 78. A blind caller adds only \
             1/{k} of our raise, so each called chip is worth (1 + 1/{k})·w − 1 to us and only \
             a hand with equity above {:.4} against a random hand gains from a bigger raise \
             once called; but a blind opponent's callers do not get stronger as the raise \
             grows, so the folds the curve adds can make the cap best even for a weak hand \
             (the table above). The curves (both models, seen and blind opponents, and the article's \
             formula) are in `raise_curve.parquet`.\n",
            meta.name,
            CURVE_HANDS[1],
            earlier.raise_to,
            earlier.ev,
            1.0 / (1.0 + 1.0 / k)
        ));
        let chart = line_chart_svg(
            "EV of raising against seen opponents, by raise-to amount (pot 100, call 20; exact)",
            "raise to (chips)",
            "EV (chips)",
            &series,
            &marks,
        )?;
        Ok((md, chart))
    }

    pub(super) fn report(
        &self,
        meta: &JobMeta,
        counts: &[Counts],
        samples: &[Vec<Sample>],
        curves: &[RangeCurve],
        rules: &str,
    ) -> anyhow::Result<Report> {
        let category_counts = self.category_counts();
        let mut md = header("Zhajinhua (炸金花)", meta);
        md.push_str(&format!(
            ". Against one and two opponents \
             every figure is exact: each of the 22,100 hands is compared with all 18,424 \
             opponent hands from the 49 unseen cards, and with all {} ordered pairs of \
             disjoint opponent hands.",
            OPPONENT_PAIRS
        ));
        if self.max_opponents > EXACT_OPPONENTS {
            let all: Vec<&Sample> = samples.iter().flatten().collect();
            let trials: u64 = all.iter().map(|s| s.trials).sum();
            let worst = (0..HANDS)
                .flat_map(|i| (EXACT_OPPONENTS + 1..=self.max_opponents).map(move |n| (i, n)))
                .map(|(i, n)| self.cell(i, n, counts, samples).estimate.std_error)
                .fold(0.0, f64::max);
            md.push_str(&format!(
                " Against 3 to {} opponents the figures are Monte Carlo estimates (seeded PCG \
                 streams, one per hand class and opponent count, with the exact two-opponent \
                 results as control variates): {} trials in all, each cell sampled until its \
                 standard error was at most {:.0e} or it reached {} trials; the largest \
                 standard error of any cell is {:.2e} (column `std_error`).",
                self.max_opponents,
                trials,
                self.budget.target_std_error,
                self.budget.max_trials,
                worst
            ));
        }
        md.push('\n');
        let r = &self.eval.rules;
        md.push_str(&conventions(&[
            format!(
                "Rules: three cards each. Categories, strongest first: 豹子 trips > 同花顺 \
                 straight flush > 同花 flush > 顺子 straight > 对子 pair > 散牌 high card; \
                 within a category trips by rank, straights by top card, flush and high card \
                 by ranks from the top down, pair by its rank then the kicker; suits never \
                 break ties. {}{}",
                match r.a23 {
                    A23::Lowest => "A-2-3 is the lowest straight (`a23 = \"lowest\"`).",
                    A23::Second => "A-2-3 ranks just below A-K-Q (`a23 = \"second\"`).",
                    A23::None => "A-2-3 is no straight (`a23 = \"none\"`, the tutorial's code).",
                },
                if r.special_235 {
                    " An off-suit 2-3-5 beats trips and loses to every other hand \
                     (`special_235 = true`)."
                } else {
                    ""
                }
            ),
            showdown_words(r).trim_end().to_string(),
            "Equities are against opponents holding random hands dealt from the cards ours \
             leave (the 49 unseen cards), or a calling range where a table says so. Amounts \
             are our chips; P is the pot before our decision, the bet we face included (the \
             decision model is under Decisions)."
                .to_string(),
            "The decision model prices one decision as if the hand went straight to a \
             showdown: no later betting round, no later raise or fold by anyone."
                .to_string(),
            format!(
                "The fold curve f(R) = m · (R − C) / (R − C + P) (m = {CURVE_MAX_FOLD} in the \
                 raise-size section) is assumed, not derived from any opponent's strategy; the \
                 opponents who have seen their cards call with exactly the strongest 1 − f(R) \
                 of hands."
            ),
            "A blind opponent (闷牌) has not looked at its cards: it folds along the same \
             curve but calls with any hand, paying its stake at the blind rate."
                .to_string(),
        ]));
        md.push_str("\nThe rule set as the tables record it:\n\n```toml\n");
        md.push_str(rules);
        md.push_str("```\n\n## Categories\n\n");
        let rows: Vec<Vec<String>> = (0..CATEGORIES.len())
            .rev()
            .map(|c| {
                vec![
                    format!("`{}`", CATEGORIES[c]),
                    CATEGORIES_ZH[c].to_string(),
                    category_counts[c].to_string(),
                    format!("{:.6}", f64::from(category_counts[c]) / HANDS as f64),
                ]
            })
            .collect();
        md.push_str(&markdown_table(
            &["category", "中文", "hands", "probability"],
            &rows,
        ));
        md.push_str(&variant_counts());
        md.push_str(&self.published_counts(&category_counts)?);

        // Win probability against the hand's strength percentile, weakest first.
        let mut order: Vec<usize> = (0..HANDS).collect();
        order.sort_by_key(|&i| (self.eval.hands[i].strength, i));
        let mut series = Vec::new();
        for n in 1..=self.max_opponents {
            let points: Vec<(f64, f64)> = order
                .iter()
                .enumerate()
                .map(|(rank, &i)| {
                    (
                        100.0 * (rank as f64 + 0.5) / HANDS as f64,
                        self.cell(i, n, counts, samples).estimate.win,
                    )
                })
                .collect();
            series.push(Line::solid(
                format!("{n} opponent{}", if n > 1 { "s" } else { "" }),
                points,
                usize::from(n - 1),
            ));
        }
        let title = if self.max_opponents > EXACT_OPPONENTS {
            format!(
                "Win probability by strength percentile (1, 2 opponents exact; 3 to {} Monte Carlo)",
                self.max_opponents
            )
        } else {
            "Win probability by strength percentile (exact)".to_string()
        };
        let chart = line_chart_svg(
            &title,
            "strength percentile (weakest = 0)",
            "P(win)",
            &series,
            &[],
        )?;
        md.push_str(&format!(
            "\n## Win probability by strength\n\n![Win probability by strength percentile]({}/win_by_percentile.svg)\n\n",
            meta.name
        ));
        let sample = [
            "Ks Kh Qd", "As Ah Ad", "2s 3h 5d", "As Ks Js", "Ah Kd 9c", "7s 7d 2c",
        ];
        let rows: Vec<Vec<String>> = sample
            .iter()
            .map(|text| {
                let cards: [Card; 3] = cardtables::parse_cards(text)
                    .expect("sample hands parse")
                    .try_into()
                    .expect("three cards");
                let i = index_of(&cards);
                let mut row = vec![
                    format!("`{text}`"),
                    CATEGORIES[usize::from(self.eval.hands[i].category)].to_string(),
                ];
                for n in 1..=self.max_opponents {
                    let e = self.cell(i, n, counts, samples).estimate;
                    row.push(if e.std_error > 0.0 {
                        format!("{:.4} ± {:.1e}", e.equity, e.std_error)
                    } else {
                        format!("{:.6}", e.equity)
                    });
                }
                row
            })
            .collect();
        let mut header = vec!["hand".to_string(), "category".to_string()];
        header.extend((1..=self.max_opponents).map(|n| format!("equity vs {n}")));
        let header: Vec<&str> = header.iter().map(String::as_str).collect();
        md.push_str(&markdown_table(&header, &rows));
        md.push_str(
            "\nChecks asserted when this table is built: every ordered pair of disjoint hands \
             is counted once as a win for one side or a tie for both.\n",
        );
        let (decision_md, raise_chart) = self.decision_report(meta, curves)?;
        md.push_str(&decision_md);
        let top = CATEGORIES.len() - 1;
        let headline = vec![
            format!(
                "{} {} {} hands ({:.6}), {} {} {} hands ({:.6}) of 22,100 (exact)",
                CATEGORIES_ZH[top],
                CATEGORIES[top],
                category_counts[top],
                f64::from(category_counts[top]) / HANDS as f64,
                CATEGORIES_ZH[0],
                CATEGORIES[0],
                category_counts[0],
                f64::from(category_counts[0]) / HANDS as f64,
            ),
            format!(
                "Ks Kh Qd: equity against 1 to {} opponents {} ({})",
                self.max_opponents,
                {
                    let cards: [Card; 3] = cardtables::parse_cards("Ks Kh Qd")?
                        .try_into()
                        .map_err(|_| anyhow::anyhow!("three cards"))?;
                    let i = index_of(&cards);
                    (1..=self.max_opponents)
                        .map(|n| format!("{:.4}", self.cell(i, n, counts, samples).estimate.equity))
                        .collect::<Vec<_>>()
                        .join(", ")
                },
                if self.max_opponents > EXACT_OPPONENTS {
                    "1 and 2 exact, more by Monte Carlo"
                } else {
                    "exact"
                }
            ),
        ];
        Ok(Report {
            markdown: md,
            charts: vec![
                ("win_by_percentile.svg".into(), chart),
                ("raise_curve.svg".into(), raise_chart),
            ],
            headline,
        })
    }
}
