//! The blackjack report: EV across the rule sets, the exact-vs-simulated check,
//! and each rule set's basic strategy as a coloured SVG chart like the ones players know.

use cardtables::blackjack::{cell_code, Action, Cell, Row, RANKS};

use super::hands::{rank_name, starting_index, ACE, TEN};
use super::rules::{rules_in_words, Decks, InfiniteWord, SimulationSettings, RULE_FIELDS};
use super::tables::{row_label, Results, UPCARD_ORDER};
use crate::engine::JobMeta;
use crate::report::{
    conventions, header, markdown_table, published_box, with_error, Published, Report,
};

fn percent(x: f64) -> String {
    format!("{:+.4} %", 100.0 * x)
}

/// The report's own conventions: outcomes and ties, the bet unit, and the rules in words
/// (the rules every rule set shares, then each field the grid varies with its values).
fn conventions_lines(r: &Results) -> Vec<String> {
    let mut lines = vec![
        "EVs are per unit initial bet, for the whole round (doubled and split bets \
         included), and include naturals and dealer blackjacks. A push (equal totals, neither side bust) returns the bet; a natural beats any other \
         21; a split ace or ten plus one card is 21, not a natural. Per-hand EVs are \
         conditioned on no dealer blackjack when the dealer peeks. No insurance."
            .to_string(),
    ];
    let words: Vec<[String; 11]> = r.sets.iter().map(|s| rules_in_words(&s.rules)).collect();
    let Some(first) = words.first() else {
        return lines;
    };
    let mut shared = Vec::new();
    let mut varied = Vec::new();
    for (f, field) in RULE_FIELDS.iter().enumerate() {
        let mut values: Vec<&str> = Vec::new();
        for w in &words {
            if !values.contains(&w[f].as_str()) {
                values.push(&w[f]);
            }
        }
        if values.len() == 1 {
            shared.push(first[f].clone());
        } else {
            varied.push(format!("`{field}`: {}", values.join(" / ")));
        }
    }
    lines.push(format!(
        "Rules{}: {}.",
        if varied.is_empty() {
            String::new()
        } else {
            " of every rule set".to_string()
        },
        shared.join("; ")
    ));
    if !varied.is_empty() {
        lines.push(format!(
            "Varied by the job's grid (the rule set's name says which): {}.",
            varied.join("; ")
        ));
    }
    lines
}

/// The dealer's chance of a blackjack under an ace and under a ten, in %, as dealer
/// probability tables print them (two decimals), by number of decks: 16n/(52n − 1) and
/// 4n/(52n − 1), and 4/13 and 1/13 for an infinite shoe.
const DEALER_BLACKJACK: [(Decks, f64, f64); 6] = [
    (Decks::Finite(1), 31.37, 7.84),
    (Decks::Finite(2), 31.07, 7.77),
    (Decks::Finite(4), 30.92, 7.73),
    (Decks::Finite(6), 30.87, 7.72),
    (Decks::Finite(8), 30.84, 7.71),
    (Decks::Infinite(InfiniteWord::Infinite), 30.77, 7.69),
];

/// Figures of the first rule set beside their published values: the dealer's chance of a
/// blackjack under an ace and under a ten, which the run's dealer tables give.
fn published(r: &Results) -> Vec<Published> {
    let (Some(s), Some(a)) = (r.sets.first(), r.analyses.first()) else {
        return Vec::new();
    };
    let Some(&(_, ace, ten)) = DEALER_BLACKJACK.iter().find(|d| d.0 == s.rules.decks) else {
        return Vec::new();
    };
    [("an ace", ACE, ace), ("a ten", TEN, ten)]
        .into_iter()
        .map(|(name, up, published)| Published {
            what: format!("dealer blackjack under {name}, % (`{}`)", s.id),
            ours: 100.0 * a.upcards[up].dealer[6],
            published,
            decimals: 2,
            source: "dealer probability tables (16n tens and 4n aces among the 52n − 1 cards \
                     unseen)",
        })
        .collect()
}

/// Builds the Markdown and the charts.
pub fn build(
    meta: &JobMeta,
    simulation: &SimulationSettings,
    r: &Results,
) -> anyhow::Result<Report> {
    let mut md = header("Blackjack", meta);
    md.push_str(&format!(
        ": {} rule set{}, each \
         analysed exactly, its basic strategy chart played through the seeded simulator{}.\n\n",
        r.sets.len(),
        if r.sets.len() == 1 { "" } else { "s" },
        match simulation.penetration {
            None => " with a reshuffle before every round".to_string(),
            Some(p) => format!(" with a cut card at {:.0} % penetration", 100.0 * p),
        },
    ));
    md.push_str(
        "**How the numbers are made.** Exact combinatorial analysis with card removal (the \
         upcard and the player's cards leave the shoe; an infinite shoe draws each rank with \
         fixed probability). *Optimal* is composition-dependent play of every unsplit hand: \
         each decision uses the exact cards held. Split hands are not fully \
         composition-dependent: they resplit whenever allowed and their EVs are exact, \
         resplits included (every card dealt to every hand leaves the shoe in the order it \
         is dealt), but each split hand is played by the rule set's post-split strategy, \
         which sees its own cards and at most the pair cards of the split, not the other \
         hands' cards: CDZ- (as an unsplit hand of the same cards; the default), CDP1 \
         (optimal for the shoe less both pair cards) or CDP (optimal for the shoe less every \
         pair card seen so far); the section on split play compares the three. The \
         *basic strategy* chart is total-dependent: each cell takes the action with the best \
         EV averaged over the two-card hands of that row, weighted by how often they are \
         dealt; its EV is exact too.\n",
    );
    md.push_str(&conventions(&conventions_lines(r)));
    md.push_str(&published_box(&published(r))?);
    md.push_str("\n## EV across the rule sets\n\n");
    let mut rows = Vec::new();
    for (i, (s, a)) in r.sets.iter().zip(r.analyses).enumerate() {
        let t = &r.basic[i];
        let (sim, z) = if t.rounds > 0 {
            (
                format!(
                    "{} %",
                    with_error(100.0 * t.mean(), 100.0 * t.std_error(), true)
                ),
                format!("{:+.2}", (t.mean() - a.chart_ev) / t.std_error()),
            )
        } else {
            ("not simulated".into(), String::new())
        };
        rows.push(vec![
            format!("`{}`", s.id),
            percent(a.optimal_ev),
            percent(a.chart_ev),
            sim,
            z,
            t.rounds.to_string(),
        ]);
    }
    md.push_str(&markdown_table(
        &[
            "rule set",
            "EV, optimal play",
            "EV, basic strategy (exact)",
            "EV, basic strategy simulated ± s.e.",
            "(sim − exact) / s.e.",
            "rounds",
        ],
        &rows,
    ));
    let z: Vec<f64> = r
        .analyses
        .iter()
        .zip(r.basic)
        .filter(|(_, t)| t.rounds > 0)
        .map(|(a, t)| (t.mean() - a.chart_ev) / t.std_error())
        .collect();
    if z.len() >= 2 {
        let n = z.len() as f64;
        let mean = z.iter().sum::<f64>() / n;
        let sd = (z.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1.0)).sqrt();
        let worst = z.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        md.push_str(&format!(
            "\nOver the {} simulated rule sets, (sim − exact) / s.e. has mean {mean:+.3} and \
             standard deviation {sd:.3}, largest |z| {worst:.2}: what independent standard normal \
             draws give when every exact EV is right.\n",
            z.len()
        ));
    }
    md.push_str(&split_play(r));
    if r.optimal_split {
        md.push_str(&optimal_split(r));
    }
    md.push_str(
        "\nRule set names: decks (`inf` = infinite), `s17`/`h17`, `das`/`nodas`, then what \
         differs from the defaults: `ls`/`es` surrender, `6to5` or `1to1` blackjack pay, \
         `d9`/`d10` doubling, `spN` split hands, `rsa`, `hsa`, `enhc` (no hole card), \
         `cdp1`/`cdp` post-split strategy.\n",
    );
    if let Some(article) = r.article {
        md.push_str("\n## The tutorial article's strategy\n\n");
        md.push_str(
            "The tutorial article's simplified chart (splits only aces and eights, doubles soft 18 and \
             hard 9–11 by its own table), played through the same simulator under the same \
             rules:\n\n",
        );
        let rows: Vec<Vec<String>> = r
            .sets
            .iter()
            .zip(r.analyses)
            .zip(article)
            .map(|((s, a), t)| {
                vec![
                    format!("`{}`", s.id),
                    percent(a.chart_ev),
                    format!(
                        "{} %",
                        with_error(100.0 * t.mean(), 100.0 * t.std_error(), true)
                    ),
                    // The exact EV carries no error: the difference has the simulation's.
                    format!(
                        "{} %",
                        with_error(
                            100.0 * (a.chart_ev - t.mean()),
                            100.0 * t.std_error(),
                            false
                        )
                    ),
                ]
            })
            .collect();
        md.push_str(&markdown_table(
            &[
                "rule set",
                "our basic strategy (exact)",
                "article strategy (simulated ± s.e.)",
                "cost of the article's chart ± s.e.",
            ],
            &rows,
        ));
    }
    let (text, charts) = chart_sections(&meta.name, r);
    md.push_str(&text);
    if let (Some(s), Some(a)) = (r.sets.first(), r.analyses.first()) {
        md.push_str(&format!(
            "\n## Dealer outcomes (`{}`)\n\nFrom the shoe less the upcard; for A and T also \
             given that the dealer has checked and has no blackjack.\n\n",
            s.id
        ));
        let mut rows = Vec::new();
        for &u in &UPCARD_ORDER {
            let ua = &a.upcards[u];
            let mut cases = vec![("", ua.dealer)];
            if u == 0 || u == 9 {
                cases.push((" (no bj)", ua.dealer_no_blackjack));
            }
            for (tag, o) in cases {
                let mut row = vec![format!("{}{}", rank_name(u), tag)];
                row.extend(o.iter().map(|p| format!("{p:.4}")));
                rows.push(row);
            }
        }
        md.push_str(&markdown_table(
            &["upcard", "17", "18", "19", "20", "21", "bust", "blackjack"],
            &rows,
        ));
    }
    const SHOWN: usize = 3;
    let mut headline: Vec<String> = r
        .sets
        .iter()
        .zip(r.analyses)
        .take(SHOWN)
        .map(|(s, a)| {
            format!(
                "{}: EV {} (optimal play), {} (basic strategy)",
                s.id,
                percent(a.optimal_ev),
                percent(a.chart_ev)
            )
        })
        .collect();
    if r.sets.len() > SHOWN {
        headline.push(format!(
            "… and {} more rule sets in summary.parquet",
            r.sets.len() - SHOWN
        ));
    }
    Ok(Report {
        markdown: md,
        charts,
        headline,
    })
}

/// Rows of a chart, in print order: hard 5–21, soft 13–21, pairs 2..T, A.
fn chart_rows() -> Vec<Row> {
    (5..=21)
        .map(Row::Hard)
        .chain((13..=21).map(Row::Soft))
        .chain([1, 2, 3, 4, 5, 6, 7, 8, 9, 0].map(Row::Pair))
        .collect()
}

/// The cells where `chart` differs from `base`, as `hard 11 v A: Dh (H)` (the base
/// chart's play in brackets), in chart order.
pub(super) fn chart_changes(base: &[Cell], chart: &[Cell]) -> Vec<String> {
    let mut changes = Vec::new();
    for row in chart_rows() {
        let Some(i) = row.index() else { continue };
        for &u in &UPCARD_ORDER {
            let k = i * RANKS + u;
            // Cells compare as printed: the chart's codes are what a player reads.
            let (now, was) = (cell_code(&chart[k]), cell_code(&base[k]));
            if now != was {
                changes.push(format!(
                    "{} v {}: {now} ({was})",
                    row_label(row),
                    rank_name(u)
                ));
            }
        }
    }
    changes
}

/// The basic strategy section: one chart per number of decks (that of the deck count's
/// first rule set), and for every other rule set the cells where its chart differs from it.
/// Returns the Markdown and the chart files.
fn chart_sections(job: &str, r: &Results) -> (String, Vec<(String, String)>) {
    let mut md = String::from(
        "\n## Basic strategy charts\n\nH hit, S stand, D double (Dh: else hit, Ds: else \
         stand), P split, R surrender (Rh, Rs, Rp: else hit, stand, split). Hard and soft rows \
         also cover hands of three or more cards, which may only hit or stand. One chart per \
         number of decks, that of its first rule set; every other rule set is listed with the \
         cells where its chart differs (the base chart's play in brackets). Every chart, in \
         full, is in `strategy.parquet` and the runtime table.\n",
    );
    let mut charts = Vec::new();
    let mut shoes: Vec<Decks> = Vec::new();
    for s in r.sets {
        if !shoes.contains(&s.rules.decks) {
            shoes.push(s.rules.decks);
        }
    }
    for decks in shoes {
        let mut group = r
            .sets
            .iter()
            .zip(r.analyses)
            .filter(|(s, _)| s.rules.decks == decks);
        let Some((base, base_analysis)) = group.next() else {
            continue;
        };
        let file = format!("chart-{}.svg", base.id);
        charts.push((file.clone(), chart_svg(&base.id, &base_analysis.chart)));
        md.push_str(&format!(
            "\n### {}\n\nBase chart: `{}`.\n\n![basic strategy for {}]({job}/{file})\n\n",
            rules_in_words(&base.rules)[0],
            base.id,
            base.id
        ));
        let rows: Vec<Vec<String>> = group
            .map(|(s, a)| {
                let changes = chart_changes(&base_analysis.chart, &a.chart);
                vec![
                    format!("`{}`", s.id),
                    changes.len().to_string(),
                    if changes.is_empty() {
                        "same chart".to_string()
                    } else {
                        changes.join("; ")
                    },
                ]
            })
            .collect();
        if !rows.is_empty() {
            md.push_str(&markdown_table(
                &["rule set", "cells changed", "changes from the base chart"],
                &rows,
            ));
        }
    }
    (md, charts)
}

/// The EV under each post-split strategy, and the split EVs of a few pairs of the
/// first rule set under each.
fn split_play(r: &Results) -> String {
    let mut md = String::from(
        "\n## Split play: CDZ-, CDP1 and CDP\n\nThe EV (optimal play) with split hands \
         played each way, exact; the rule set's own strategy is the one in the table above. \
         CDZ- plays a split hand as an unsplit hand of the same cards; CDP1 plays every split \
         hand optimally for the shoe less both pair cards; CDP optimally for the shoe less \
         every pair card dealt before the hand's decisions. None looks at the other hands' \
         non-pair cards.\n\n",
    );
    let rows: Vec<Vec<String>> = r
        .sets
        .iter()
        .zip(r.analyses)
        .map(|(s, a)| {
            let e = a.optimal_ev_by_mode;
            vec![
                format!("`{}`", s.id),
                format!("{:+.7} %", 100.0 * e[0]),
                format!("{:+.7} %", 100.0 * e[1]),
                format!("{:+.7} %", 100.0 * e[2]),
                format!("{:.2e}", e[2] - e[0]),
            ]
        })
        .collect();
    md.push_str(&markdown_table(
        &[
            "rule set",
            "EV, CDZ-",
            "CDP1",
            "CDP",
            "CDP − CDZ- (EV, bets)",
        ],
        &rows,
    ));
    if let (Some(s), Some(a)) = (r.sets.first(), r.analyses.first()) {
        md.push_str(&format!(
            "\nSplit EVs of `{}` (all hands of the split, per unit initial bet, given no dealer \
             blackjack when the dealer peeks), where resplitting matters most:\n\n",
            s.id
        ));
        let mut rows = Vec::new();
        // Rank indices: 0 = A, 1..=8 = 2..9, 9 = T.
        for (pair, up) in [
            (TEN, 4),
            (TEN, 5),
            (7, TEN),
            (7, ACE),
            (8, 5),
            (1, 5),
            (ACE, 5),
        ] {
            let m = a.upcards[up].split_by_mode[starting_index(pair, pair)];
            if m[0].is_nan() {
                continue;
            }
            rows.push(vec![
                format!("{0}-{0} v {1}", rank_name(pair), rank_name(up)),
                format!("{:+.9}", m[0]),
                format!("{:+.9}", m[1]),
                format!("{:+.9}", m[2]),
            ]);
        }
        md.push_str(&markdown_table(&["pair", "CDZ-", "CDP1", "CDP"], &rows));
    }
    md
}

/// The optimal two-hand split against CDZ-, per rule set.
fn optimal_split(r: &Results) -> String {
    let mut md = String::from(
        "\n## The optimal split (two hands)\n\nSplitting into two hands (no resplit) and \
         playing them truly optimally: every decision may use every card dealt so far, and \
         the first hand may play to leave the second a better shoe. Found by search over the \
         first hand's compositions, with the second hand played optimally from the shoe each \
         leaves; exact. The gain is optimal − CDZ- split EV, per unit initial bet; a gain \
         under 1e-12 is the rounding of two equal EVs (the same play) and is shown as 0.\n\n",
    );
    let gain_text = |g: f64| {
        if g.abs() < 1e-12 {
            "0".to_string()
        } else {
            format!("{g:.3e}")
        }
    };
    let rows: Vec<Vec<String>> = r
        .sets
        .iter()
        .zip(r.analyses)
        .map(|(s, a)| {
            let gain = |pair: usize, up: usize| {
                let i = starting_index(pair, pair);
                a.upcards[up].optimal_split[i] - a.upcards[up].split_by_mode[i][0]
            };
            let mut largest = (f64::NEG_INFINITY, 0, 0);
            for up in 0..RANKS {
                for pair in 0..RANKS {
                    let g = gain(pair, up);
                    if g > largest.0 {
                        largest = (g, pair, up);
                    }
                }
            }
            vec![
                format!("`{}`", s.id),
                format!("{:+.7} %", 100.0 * a.optimal_ev_by_mode[0]),
                format!("{:+.7} %", 100.0 * a.optimal_split_ev),
                gain_text(gain(7, TEN)),
                gain_text(gain(TEN, 4)),
                format!(
                    "{} ({1}-{1} v {2})",
                    gain_text(largest.0),
                    rank_name(largest.1),
                    rank_name(largest.2)
                ),
                a.optimal_stats.first_hand_states.to_string(),
                a.optimal_stats.second_hand_shoes.to_string(),
            ]
        })
        .collect();
    md.push_str(&markdown_table(
        &[
            "rule set",
            "EV, CDZ- splits",
            "EV, optimal splits",
            "gain 8-8 v T",
            "gain T-T v 5",
            "largest gain",
            "first-hand states",
            "second-hand shoes",
        ],
        &rows,
    ));
    md
}

fn colour(action: Action) -> &'static str {
    match action {
        Action::Stand => "#f6d55c",
        Action::Hit => "#ffffff",
        Action::Double => "#7fb8e6",
        Action::Split => "#8fd18f",
        Action::Surrender => "#c8c8c8",
    }
}

/// The chart as an SVG grid: rows hard 5–21, soft 13–21, pairs; upcards 2..A. Cells are
/// styled by class (one letter per first action) to keep the file small.
pub fn chart_svg(title: &str, chart: &[Cell]) -> String {
    let rows = chart_rows();
    let (cw, ch, left, top) = (34, 20, 70, 46);
    let width = left + cw * RANKS + 10;
    let height = top + ch * rows.len() + 40;
    let mut style = String::from(
        "rect{stroke:#888}text{text-anchor:middle}.l{text-anchor:end}.b{font-weight:bold}",
    );
    for a in Action::ALL {
        style.push_str(&format!(".{}{{fill:{}}}", a.letter(), colour(a)));
    }
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <style>{style}</style>\n\
         <rect width=\"{width}\" height=\"{height}\" style=\"fill:#fff;stroke:none\"/>\n\
         <text x=\"{left}\" y=\"18\" font-size=\"14\" class=\"b\" style=\"text-anchor:start\">Basic strategy: {title}</text>\n"
    );
    for (k, &u) in UPCARD_ORDER.iter().enumerate() {
        svg.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" class=\"b\">{}</text>",
            left + cw * k + cw / 2,
            top - 8,
            rank_name(u)
        ));
    }
    svg.push('\n');
    for (j, &row) in rows.iter().enumerate() {
        let y = top + ch * j;
        svg.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" class=\"l\">{}</text>",
            left - 6,
            y + ch - 6,
            row_label(row)
        ));
        let i = row.index().unwrap_or(0);
        for (k, &u) in UPCARD_ORDER.iter().enumerate() {
            let cell = &chart[i * RANKS + u];
            let x = left + cw * k;
            let first = Action::from_code(cell[0]).unwrap_or(Action::Stand);
            svg.push_str(&format!(
                "<rect x=\"{x}\" y=\"{y}\" width=\"{cw}\" height=\"{ch}\" class=\"{}\"/><text x=\"{}\" y=\"{}\">{}</text>",
                first.letter(),
                x + cw / 2,
                y + ch - 6,
                cell_code(cell)
            ));
        }
        svg.push('\n');
    }
    let legend_y = top + ch * rows.len() + 24;
    for (k, a) in Action::ALL.iter().enumerate() {
        let x = left + k * 64;
        svg.push_str(&format!(
            "<rect x=\"{x}\" y=\"{}\" width=\"14\" height=\"14\" class=\"{}\"/><text x=\"{}\" y=\"{legend_y}\" style=\"text-anchor:start\">{}</text>\n",
            legend_y - 11,
            a.letter(),
            x + 18,
            a.name()
        ));
    }
    svg.push_str("</svg>\n");
    svg
}
