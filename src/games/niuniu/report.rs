//! The `niuniu.hands` report: the rule set, the category table with exact win
//! probabilities and banker EVs, and the category chart.

use cardtables::niuniu::{HANDS, OPPONENT_HANDS};

use super::rules::{
    code_name, code_name_zh, BombOrder, PayoutTable, Ranking, Special, BOMB, CODES, FIVE_FACE,
    FOUR_FACE,
};
use super::tables::CategoryStats;
use crate::engine::JobMeta;
use crate::report::{
    bar_chart_svg, conventions, header, markdown_table, published_box, Published, Report,
};

/// The rules in force in words, with every default, and the conventions of the figures.
fn conventions_lines(ranking: &Ranking) -> Vec<String> {
    let rules = &ranking.rules;
    let special = |s: &Special| match s {
        Special::FiveSmall => format!(
            "五小牛 (`five_small`: five cards below 5 totalling at most {})",
            rules.five_small_max_total
        ),
        Special::Bomb => "炸弹 (`bomb`: four of a kind)".to_string(),
        Special::FiveFace => "五花牛 (`five_face`: five J/Q/K)".to_string(),
        Special::FourFace => "四花牛 (`four_face`: four J/Q/K and a 10)".to_string(),
    };
    let specials: Vec<String> = rules.special_hands.iter().map(special).collect();
    let mut lines = vec![
        "Card points: A = 1, 2–9 their face value, 10/J/Q/K = 10. A hand has a bull (牛) when \
         three of its cards total a multiple of 10; its bull number is the other two cards' \
         total mod 10, and 0 is 牛牛. Every such grouping gives the same number (it is the \
         five-card total mod 10). No such three cards: 无牛."
            .to_string(),
        if specials.is_empty() {
            "No special hands: 牛牛 is the top category.".to_string()
        } else {
            format!(
                "Special hands above 牛牛, strongest first (a hand that is two of them is the \
                 first listed): {}.",
                specials.join(" > ")
            )
        },
        format!(
            "Two hands of one category are settled by the highest card, K > Q > J > 10 > … > A, \
             then its suit ♠ > ♥ > ♣ > ♦, so two hands from one deck never tie{}.",
            if !rules.special_hands.contains(&Special::Bomb) {
                ""
            } else if rules.bomb_order == BombOrder::QuadRank {
                "; two 炸弹 by the four of a kind's rank, K high, A low (`bomb_order = \
                 \"quad_rank\"`, the common rule: 3333+4 beats 2222+K)"
            } else {
                "; two 炸弹 by the highest card too (`bomb_order = \"high_card\"`: 2222+K beats \
                 3333+4; the common rule compares the fours instead)"
            }
        ),
        format!(
            "Settling: the loser pays the winner's multiplier, in stakes (one player bet). \
             Payout table `{}`: {}; overrides in `[rules.multipliers]`.",
            match rules.payout_table {
                PayoutTable::Article => "article",
                PayoutTable::Common => "common",
            },
            match rules.payout_table {
                PayoutTable::Article =>
                    "the tutorial article's multipliers (无牛 ×1, 牛1–牛9 ×2–×10, 牛牛 ×15, \
                     四花 ×20, 五花 ×25), far above the tables rooms play",
                PayoutTable::Common =>
                    "the ladder of real rooms (无牛–牛6 ×1, 牛7–牛9 ×2, 牛牛 ×3, 四花 ×4, \
                     五花, 炸弹 and 五小 ×5)",
            }
        ),
        "Win probability: the chance of beating one opponent dealt five of the 47 unseen \
         cards. Banker EV: the banker's expected result, in stakes, against one player dealt \
         from the 47 unseen cards (the banker wins its own multiplier or pays the player's)."
            .to_string(),
    ];
    lines.push(if rules.banker_wins_ties {
        "`banker_wins_ties = true`: in banker EV the banker also wins every hand of its own \
         category (a *category tie*: the same category, which the tie-break card would \
         otherwise settle); win probabilities still use the tie-break card."
            .to_string()
    } else {
        "`banker_wins_ties = false`: a player of the banker's category is settled by the \
         tie-break card like any other hand."
            .to_string()
    });
    lines
}

/// Category counts beside their textbook counts, where the category is not shadowed by a
/// special hand listed before it: all hands C(52,5); 五花牛 C(12,5) = 792; 四花牛
/// C(12,4)·4 = 1,980; 炸弹 13·48 = 624.
fn published(ranking: &Ranking, stats: &[CategoryStats; CODES]) -> Vec<Published> {
    const SOURCE: &str = "counting: C(52,5) hands; five of the 12 J/Q/K, C(12,5); four of \
                          them and one of the four 10s, C(12,4)·4; four of a kind, 13·48";
    let mut figures = vec![Published {
        what: "five-card hands".into(),
        ours: stats.iter().map(|s| s.hands as f64).sum(),
        published: 2_598_960.0,
        decimals: 0,
        source: SOURCE,
    }];
    let specials = &ranking.rules.special_hands;
    // A special hand listed before another can take some of its hands (JJJJ+Q is a bomb
    // and five face cards): only an unshadowed count is the textbook one.
    let unshadowed = |s: Special, shadows: &[Special]| {
        specials
            .iter()
            .position(|&x| x == s)
            .is_some_and(|i| !specials[..i].iter().any(|x| shadows.contains(x)))
    };
    for (special, code, count, what) in [
        (Special::FiveFace, FIVE_FACE, 792.0, "五花牛 hands"),
        (Special::FourFace, FOUR_FACE, 1_980.0, "四花牛 hands"),
        (Special::Bomb, BOMB, 624.0, "炸弹 hands"),
    ] {
        let shadows: &[Special] = match special {
            Special::Bomb => &[Special::FiveSmall, Special::FiveFace, Special::FourFace],
            _ => &[Special::Bomb],
        };
        if unshadowed(special, shadows) {
            figures.push(Published {
                what: what.into(),
                ours: stats[usize::from(code)].hands as f64,
                published: count,
                decimals: 0,
                source: SOURCE,
            });
        }
    }
    figures
}

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
             results over all 1,533,939 opponent hands dealt from the 47 unseen cards.\n",
    );
    md.push_str(&conventions(&conventions_lines(ranking)));
    md.push_str(&format!(
        "\nCategory order, strongest first: {}.\n\nThe rule set as the tables record it:\n\n```toml\n{rules}```\n",
        order.join(" > ")
    ));
    md.push_str(&published_box(&published(ranking, stats))?);
    md.push_str("\n## Categories\n\n");
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
                 takes every pair of hands of the same category, which the tie-break card \
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
