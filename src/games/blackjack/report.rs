//! The blackjack report: house edge across the rule sets, the exact-vs-simulated check,
//! and each rule set's basic strategy as a coloured SVG chart like the ones players know.

use cardtables::blackjack::{cell_code, Action, Cell, Row, RANKS};

use super::hands::{rank_name, starting_index, ACE, TEN};
use super::rules::SimulationSettings;
use super::tables::{row_label, Results, UPCARD_ORDER};
use crate::engine::JobMeta;
use crate::report::{header, markdown_table, Report};

fn percent(x: f64) -> String {
    format!("{:+.4} %", 100.0 * x)
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
         fixed probability). *Optimal* is composition-dependent play: every decision uses \
         the exact cards held. Splits resplit whenever allowed, and their EVs are exact, \
         resplits included: every card dealt to every hand leaves the shoe in the order it \
         is dealt. Split hands are played by the rule set's post-split strategy: CDZ- (as an \
         unsplit hand of the same cards; the default), CDP1 (optimal for the shoe less both \
         pair cards) or CDP (optimal for the shoe less every pair card seen so far); the \
         section on split play compares the three. Per-hand EVs are conditioned on no \
         dealer blackjack when the dealer peeks. The *basic strategy* chart is total-dependent: \
         each cell takes the action with the best EV averaged over the two-card hands of \
         that row, weighted by how often they are dealt; its EV is exact too. EVs are per \
         unit initial bet and include naturals and dealer blackjacks; the house edge is \
         −EV. No insurance.\n\n",
    );
    md.push_str("## House edge across the rule sets\n\n");
    let mut rows = Vec::new();
    for (i, (s, a)) in r.sets.iter().zip(r.analyses).enumerate() {
        let t = &r.basic[i];
        let (sim, z) = if t.rounds > 0 {
            (
                format!("{} ± {:.4}", percent(t.mean()), 100.0 * t.std_error()),
                format!("{:+.2}", (t.mean() - a.chart_ev) / t.std_error()),
            )
        } else {
            ("not simulated".into(), String::new())
        };
        rows.push(vec![
            format!("`{}`", s.id),
            format!("{:.4} %", -100.0 * a.optimal_ev),
            percent(a.chart_ev),
            sim,
            z,
            t.rounds.to_string(),
        ]);
    }
    md.push_str(&markdown_table(
        &[
            "rule set",
            "house edge (optimal)",
            "basic strategy EV (exact)",
            "simulated EV ± s.e.",
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
                    format!("{} ± {:.4}", percent(t.mean()), 100.0 * t.std_error()),
                    format!("{:.4} %", 100.0 * (a.chart_ev - t.mean())),
                ]
            })
            .collect();
        md.push_str(&markdown_table(
            &[
                "rule set",
                "our basic strategy (exact)",
                "article strategy (simulated)",
                "cost of the article's chart",
            ],
            &rows,
        ));
    }
    md.push_str("\n## Basic strategy charts\n\n");
    md.push_str(
        "H hit, S stand, D double (Dh: else hit, Ds: else stand), P split, R surrender (Rh, \
         Rs, Rp: else hit, stand, split). Hard and soft rows also cover hands of three or \
         more cards, which may only hit or stand.\n\n",
    );
    let mut charts: Vec<(Vec<Cell>, String)> = Vec::new();
    for (s, a) in r.sets.iter().zip(r.analyses) {
        let file = match charts.iter().find(|(chart, _)| *chart == a.chart) {
            Some((_, file)) => file.clone(),
            None => {
                let file = format!("chart-{}.svg", s.id);
                charts.push((a.chart.clone(), file.clone()));
                file
            }
        };
        md.push_str(&format!(
            "### `{}`\n\nHouse edge {:.4} % (optimal play), basic strategy EV {}.\n\n![basic strategy for {}]({}/{})\n\n",
            s.id,
            -100.0 * a.optimal_ev,
            percent(a.chart_ev),
            s.id,
            meta.name,
            file
        ));
    }
    if let (Some(s), Some(a)) = (r.sets.first(), r.analyses.first()) {
        md.push_str(&format!(
            "## Dealer outcomes (`{}`)\n\nFrom the shoe less the upcard; for A and T also \
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
    let charts = charts
        .into_iter()
        .zip(r.sets.iter())
        .map(|((chart, file), _)| {
            let title = file
                .trim_start_matches("chart-")
                .trim_end_matches(".svg")
                .to_string();
            (file, chart_svg(&title, &chart))
        })
        .collect();
    const SHOWN: usize = 3;
    let mut headline: Vec<String> = r
        .sets
        .iter()
        .zip(r.analyses)
        .take(SHOWN)
        .map(|(s, a)| {
            format!(
                "{}: house edge {:.4} % (optimal play), basic strategy EV {}",
                s.id,
                -100.0 * a.optimal_ev,
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

/// The house edge under each post-split strategy, and the split EVs of a few pairs of the
/// first rule set under each.
fn split_play(r: &Results) -> String {
    let mut md = String::from(
        "\n## Split play: CDZ-, CDP1 and CDP\n\nThe house edge (optimal play) with split hands \
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
                format!("{:.7} %", -100.0 * e[0]),
                format!("{:.7} %", -100.0 * e[1]),
                format!("{:.7} %", -100.0 * e[2]),
                format!("{:.2e}", e[2] - e[0]),
            ]
        })
        .collect();
    md.push_str(&markdown_table(
        &[
            "rule set",
            "house edge, CDZ-",
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
                format!("{:.7} %", -100.0 * a.optimal_ev_by_mode[0]),
                format!("{:.7} %", -100.0 * a.optimal_split_ev),
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
            "house edge, CDZ-",
            "optimal splits",
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
    let rows: Vec<Row> = (5..=21)
        .map(Row::Hard)
        .chain((13..=21).map(Row::Soft))
        .chain([1, 2, 3, 4, 5, 6, 7, 8, 9, 0].map(Row::Pair))
        .collect();
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
