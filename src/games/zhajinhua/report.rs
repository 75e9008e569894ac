//! The Zhajinhua report: category table, win probability by strength percentile, sample
//! hands, and the decision model with its raise-size curve.

use cardtables::Card;

use super::counts::{Counts, OPPONENT_PAIRS};
use super::decisions;
use super::eval::{index_of, Evaluator, CATEGORIES, CATEGORIES_ZH, HANDS};
use super::job::{HandsJob, EXACT_OPPONENTS};
use super::multiway::Sample;
use super::rules::{ZhajinhuaRules, A23};
use crate::engine::JobMeta;
use crate::report::{header, line_chart_svg, markdown_table, Report};

/// Hands whose raise-size EV curves the report draws (a strong and a weak one), the
/// situation they face, and the fold model's saturation.
pub(super) const CURVE_HANDS: [&str; 2] = ["Ks Kh Qd", "Qh 8d 4c"];
pub(super) const CURVE_POT: f64 = 100.0;
pub(super) const CURVE_CALL: f64 = 20.0;
pub(super) const CURVE_MAX_FOLD: f64 = 0.6;

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

impl HandsJob {
    /// Heads-up equity of a hand given as text (the report's fixed example hands).
    pub(super) fn equity_of(&self, counts: &[Counts], text: &str) -> f64 {
        let cards: [Card; 3] = cardtables::parse_cards(text)
            .expect("example hands parse")
            .try_into()
            .expect("three cards");
        counts[index_of(&cards)]
            .outcome(1, self.eval.rules.ties)
            .equity
    }

    /// The report's decision-model section and its raise-size chart.
    fn decision_report(
        &self,
        meta: &JobMeta,
        counts: &[Counts],
    ) -> anyhow::Result<(String, String)> {
        let mut md = String::from(
            "\n## Decisions\n\n\
             `decisions.parquet` prices fold, call, raise and compare over a grid of equity \
             (0.1–0.9), pot (50, 100, 200), call (10, 20, 50), raise-to (2×, 3×, 5× the call) \
             and opponent fold rate (0, 0.1, 0.25, 0.5), with the model of docs/rules/zhajinhua.md (P = pot \
             before our decision including the opponent's bet, C = call, w = equity, R = raise-to, \
             f = fold rate):\n\n\
             - EV(fold) = 0; EV(call) = w·(P + C) − C; required equity = C / (P + C)\n\
             - EV(raise to R) = f·P + (1 − f)·(w·(P + 2R − C) − R); the article's \
             f·P + (1 − f)·(w·(P + R) − R) forgets the opponent's R − C and is in \
             `ev_raise_article_formula` only to show the gap\n\
             - EV(compare at cost K) = w·(P + K) − K, with K = C on the grid\n\
             - Kelly fraction of the call at odds b = P / C: f* = (b·w − (1 − w)) / b, and \
             half-Kelly\n\
             - styles (the article's §4.3): tight acts only on EV > 5 % of the pot, loose on EV > −2 % \
             of the pot, steady on EV > 0 but prices raises with a fold rate of at most 0.1; \
             `*_action` is the best action each style accepts, else fold.\n\n",
        );
        md.push_str(&format!(
            "### Raise size\n\nThe tutorial article suggests tabulating EV against the raise size to find \
             its peak. With a constant fold rate EV is linear in R, so there is a peak only if \
             folds grow with the raise. We use f(R) = {max} · (R − C) / (R − C + P), which \
             rises from 0 towards {max}, for pot {pot} and call {call}, heads-up:\n\n",
            max = CURVE_MAX_FOLD,
            pot = CURVE_POT,
            call = CURVE_CALL
        ));
        let mut rows = Vec::new();
        let mut series = Vec::new();
        let mut findings = Vec::new();
        for text in CURVE_HANDS {
            let w = self.equity_of(counts, text);
            let curve = decisions::raise_curve(w, CURVE_POT, CURVE_CALL, CURVE_MAX_FOLD);
            let (at, ev) = decisions::peak(&curve, false);
            let (article_at, article_ev) = decisions::peak(&curve, true);
            let (first, last) = (curve[0].0, curve[curve.len() - 1].0);
            let shape = |r: f64| {
                if r >= last {
                    format!(
                        "rises across the whole range, so its best raise is the largest ({r:.0})"
                    )
                } else if r <= first {
                    format!("falls from the start, so its best is not to raise beyond the call ({r:.0})")
                } else {
                    format!("peaks at a raise to {r:.0}")
                }
            };
            findings.push(format!(
                "- `{text}` (equity {w:.3}): the corrected EV {}; the article's formula {}.",
                shape(at),
                shape(article_at)
            ));
            rows.push(vec![
                format!("`{text}`"),
                format!("{w:.4}"),
                format!("{at:.0}"),
                format!("{ev:+.2}"),
                format!("{article_at:.0}"),
                format!("{article_ev:+.2}"),
            ]);
            series.push((
                format!("{text} (w={w:.3})"),
                curve.iter().map(|p| (p.0, p.2)).collect(),
            ));
            series.push((
                format!("{text}, article's formula"),
                curve.iter().map(|p| (p.0, p.3)).collect(),
            ));
        }
        md.push_str(&markdown_table(
            &[
                "hand",
                "equity vs 1",
                "best raise-to",
                "EV there",
                "article formula's best",
                "article EV there",
            ],
            &rows,
        ));
        md.push_str(&format!(
            "\n![EV against raise size]({}/raise_curve.svg)\n\n{}\n\n\
             With equity above 1/2 every chip a caller adds is worth more to us than it costs, \
             so only fold equity against the cost of being called can make a peak. The article's \
             formula undercounts what a called raise wins (it leaves out the caller's R − C), \
             which pushes its best raise down. The curves are in `raise_curve.parquet`.\n",
            meta.name,
            findings.join("\n")
        ));
        let chart = line_chart_svg(
            "EV of raising, by raise-to amount (pot 100, call 20)",
            "raise to (chips)",
            "EV (chips)",
            &series,
        )?;
        Ok((md, chart))
    }

    pub(super) fn report(
        &self,
        meta: &JobMeta,
        counts: &[Counts],
        samples: &[Vec<Sample>],
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
        md.push_str("\n\n");
        md.push_str("## Rules\n\n```toml\n");
        md.push_str(rules);
        md.push_str(
            "```\n\nCategories, strongest first: 豹子 trips > 同花顺 straight flush > 同花 flush > \
             顺子 straight > 对子 pair > 散牌 high card. Within a category: trips by rank, \
             straights by top card, flush and high card by ranks from the top down, pair by \
             its rank then the kicker; suits never break ties. Against several opponents a \
             hand wins when it beats each of them, ties when none beats it and at least one \
             ties it, and the equity splits ties.\n\n",
        );
        md.push_str("## Categories\n\n");
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
            series.push((
                format!("{n} opponent{}", if n > 1 { "s" } else { "" }),
                points,
            ));
        }
        let chart = line_chart_svg(
            "Exact win probability by strength percentile",
            "strength percentile (weakest = 0)",
            "P(win)",
            &series,
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
        let (decision_md, raise_chart) = self.decision_report(meta, counts)?;
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
