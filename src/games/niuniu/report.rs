//! The `niuniu.hands` report: the rule set, the category table with exact win
//! probabilities and banker EVs, and the category chart.

use cardtables::niuniu::{HANDS, OPPONENT_HANDS};

use super::rules::{code_name, code_name_zh, Ranking, CODES};
use super::tables::CategoryStats;
use crate::engine::JobMeta;
use crate::report::{bar_chart_svg, header, markdown_table, Report};

/// The report: rules, the category table and its chart.
pub(super) fn build(
    ranking: &Ranking,
    meta: &JobMeta,
    stats: &[CategoryStats; CODES],
    rules: &str,
) -> anyhow::Result<Report> {
    let denominator = f64::from(OPPONENT_HANDS);
    let codes: Vec<u8> = ranking.codes_by_rank.iter().rev().copied().collect();
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
                ranking.multiplier_of_code[usize::from(c)].to_string(),
                per_hand(s.wins as f64),
                per_hand(s.banker as f64),
            ]
        })
        .collect();
    let total_banker: i64 = stats.iter().map(|s| s.banker).sum();
    let pairs = HANDS as f64 * denominator;
    let order: Vec<String> = codes.iter().map(|&c| code_name_zh(c).to_string()).collect();
    let mut md = header("Niuniu (斗牛)", meta);
    md.push_str(
        ". Every figure is exact: \
             categories are counted over all 2,598,960 five-card hands, and head-to-head \
             results over all 1,533,939 opponent hands dealt from the 47 unseen cards.\n\n",
    );
    md.push_str("## Rules\n\n```toml\n");
    md.push_str(rules);
    md.push_str("```\n\n");
    md.push_str(&format!(
        "Category order, strongest first: {}. Equal categories are decided by the highest \
             card (K > Q > J > 10 > … > A), then that card's suit (♠ > ♥ > ♣ > ♦), so two \
             disjoint hands never tie. The loser pays the winner's multiplier.{}\n\n",
        order.join(" > "),
        if ranking.rules.banker_wins_ties {
            " For `banker_ev`, the banker wins every category tie (`banker_wins_ties`): a \
             *category tie* is two hands of the same category, which the highest card would \
             otherwise settle, so under this rule the banker also takes the equal-category \
             hands whose highest card is lower."
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
        if ranking.rules.banker_wins_ties {
            ""
        } else {
            ": zero by symmetry, since both hands come from the same deck and the loser \
                 pays the winner's multiplier either way; only `banker_wins_ties` (the banker \
                 takes every pair of hands of the same category, which the highest card \
                 settles otherwise) gives the banker an edge"
        }
    ));
    md.push_str(&format!(
        "![Mean win probability by category]({0}/win_probability.svg)\n\n\
         ![Mean banker EV by category]({0}/banker_ev.svg)\n\n",
        meta.name
    ));
    md.push_str(
        "Checks that hold for this table (asserted when it is built): the category counts \
             sum to C(52,5) = 2,598,960, every hand sees exactly C(47,5) opponents, and the \
             win probabilities of all hands sum to exactly half the number of hands.\n",
    );

    // Both charts in the table's order (strongest first), on linear axes, over the
    // categories that occur.
    let shown: Vec<u8> = codes
        .iter()
        .copied()
        .filter(|&c| stats[usize::from(c)].hands > 0)
        .collect();
    let labels: Vec<String> = shown.iter().map(|&c| code_name(c).to_string()).collect();
    let mean = |c: u8, total: f64| total / (stats[usize::from(c)].hands as f64 * denominator);
    let win_values: Vec<f64> = shown
        .iter()
        .map(|&c| mean(c, stats[usize::from(c)].wins as f64))
        .collect();
    let banker_values: Vec<f64> = shown
        .iter()
        .map(|&c| mean(c, stats[usize::from(c)].banker as f64))
        .collect();
    let win_chart = bar_chart_svg(
        "Mean win probability against one opponent, by category (strongest first)",
        &labels,
        &win_values,
        "win probability",
        false,
    )?;
    let banker_chart = bar_chart_svg(
        "Mean banker EV against one player, by category (strongest first)",
        &labels,
        &banker_values,
        "banker EV (player bets)",
        false,
    )?;
    let chance = |code: usize| stats[code].hands as f64 / HANDS as f64;
    let (top, bottom) = (
        ranking.codes_by_rank[ranking.codes_by_rank.len() - 1],
        ranking.codes_by_rank[0],
    );
    let headline = vec![
        format!(
            "{} {:.6}, {} {:.6} of all 2,598,960 hands (exact)",
            code_name(top),
            chance(usize::from(top)),
            code_name(bottom),
            chance(usize::from(bottom))
        ),
        format!(
            "banker's expected result against one random player: {:+.6} bets per player bet",
            total_banker as f64 / pairs
        ),
    ];
    Ok(Report {
        markdown: md,
        charts: vec![
            ("win_probability.svg".to_string(), win_chart),
            ("banker_ev.svg".to_string(), banker_chart),
        ],
        headline,
    })
}
