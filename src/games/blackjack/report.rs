//! The blackjack reports: for `blackjack.strategy`, EV across the rule sets, the
//! exact-vs-simulated check, and each rule set's basic strategy as a coloured SVG chart
//! like the ones players know; for `blackjack.indices`, the index plays, the chart with
//! its indices, and EV and insurance by count; for `blackjack.counter`, a counter's win
//! rate and risk, and its result by count.

use cardtables::blackjack::{cell_code, Action, Cell, Row, RANKS};

use super::analysis::mode_index;
use super::count::Counter;
use super::counting::{CounterResult, ILLUSTRIOUS_18, ILLUSTRIOUS_INSURANCE};
use super::dealer::OUTCOME_BUST;
use super::hands::{rank_name, starting_index, ACE, TEN};
use super::indices::{CountAt, Direction, IndicesSettings, Summary};
use super::rules::{
    rules_in_words, BlackjackRules, Decks, InfiniteWord, PostSplit, RuleSetSpec,
    SimulationSettings, RULE_FIELDS,
};
use super::tables::{
    decision_words, row_label, CounterResults, IndexResults, Results, UPCARD_ORDER,
};
use crate::engine::JobMeta;
use crate::report::{
    bar_chart_svg, conventions, header, line_chart_svg, markdown_table, published_box, sampled,
    with_error, Line, Published, Report,
};

fn percent(x: f64) -> String {
    format!("{:+.4} %", 100.0 * x)
}

/// The report's own conventions: outcomes and ties, the bet unit, and the rules in words
/// (the rules every rule set shares, then each field the grid varies with its values).
fn conventions_lines(sets: &[RuleSetSpec]) -> Vec<String> {
    let mut lines = vec![
        "EVs are per unit initial bet, for the whole round (doubled and split bets \
         included), and include naturals and dealer blackjacks. A push (equal totals, neither side bust) returns the bet; a natural beats any other \
         21; a split ace or ten plus one card is 21, not a natural. Per-hand EVs are \
         conditioned on no dealer blackjack when the dealer peeks. No insurance."
            .to_string(),
    ];
    let words: Vec<[String; 11]> = sets.iter().map(|s| rules_in_words(&s.rules)).collect();
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

/// The dealer's chance to bust by upcard (2 to 8, and the ace before the peek), one deck,
/// dealer standing on soft 17, as published to six decimals (the ace's to five).
const DEALER_BUST_1D_S17: [(usize, f64, usize); 8] = [
    (1, 0.352973, 6),
    (2, 0.375588, 6),
    (3, 0.402803, 6),
    (4, 0.428905, 6),
    (5, 0.420823, 6),
    (6, 0.259854, 6),
    (7, 0.238627, 6),
    (ACE, 0.11654, 5),
];

/// Where a published expected return of the game is: the Wizard of Odds' Appendix 9 page
/// for a number of decks and soft-17 rule.
macro_rules! appendix_9 {
    ($page:literal) => {
        concat!(
            "Wizard of Odds, Blackjack Appendix 9, expected return of the game; its split \
             hands are valued by the number of hands split, not the other hands' cards \
             (wizardofodds.com/games/blackjack/appendix/9/",
            $page,
            "/)"
        )
    };
}

/// Published expected returns of the whole game with composition-dependent play, by
/// (decks, dealer hits soft 17, double after split), for otherwise default rules: split
/// to four hands, no resplit or hitting of split aces, double on any two cards, peek, no
/// surrender, blackjack 3:2.
const GAME_RETURN: [(u8, bool, bool, f64, &str); 6] = [
    (1, false, true, 0.001839, appendix_9!("1ds17r4")),
    (1, false, false, 0.000423, appendix_9!("1ds17r4")),
    (1, true, true, -0.000072, appendix_9!("1dh17r4")),
    (1, true, false, -0.001513, appendix_9!("1dh17r4")),
    (2, true, true, -0.003797, appendix_9!("2dh17r4")),
    (2, true, false, -0.005252, appendix_9!("2dh17r4")),
];

/// How far (in % of the initial bet) the published game returns may lie from ours: their
/// split values count the hands split so far but not the other split hands' cards, which
/// our exact splits remove (all six lie above our CDP figures, by 0.0002–0.0008 %).
const GAME_RETURN_TOLERANCE: f64 = 0.001;

/// Figures beside their published values: the dealer's chance of a blackjack under an ace
/// and under a ten (the first rule set's shoe), the one-deck S17 dealer's chance to bust by
/// upcard, and the game's expected return for the rule sets a published table covers.
fn published(r: &Results) -> Vec<Published> {
    let mut out = Vec::new();
    if let (Some(s), Some(a)) = (r.sets.first(), r.analyses.first()) {
        if let Some(&(_, ace, ten)) = DEALER_BLACKJACK.iter().find(|d| d.0 == s.rules.decks) {
            out.extend(
                [("an ace", ACE, ace), ("a ten", TEN, ten)].map(|(name, up, published)| {
                    Published {
                        what: format!("dealer blackjack under {name}, % (`{}`)", s.id),
                        ours: 100.0 * a.upcards[up].dealer[6],
                        published,
                        decimals: 2,
                        tolerance: None,
                        source: "dealer probability tables (16n tens and 4n aces among the 52n \
                                 − 1 cards unseen)",
                    }
                }),
            );
        }
    }
    let one_deck_s17 = r
        .sets
        .iter()
        .zip(r.analyses)
        .find(|(s, _)| s.rules.decks == Decks::Finite(1) && !s.rules.dealer_hits_soft_17);
    if let Some((s, a)) = one_deck_s17 {
        out.extend(
            DEALER_BUST_1D_S17
                .iter()
                .map(|&(up, published, decimals)| Published {
                    what: format!("dealer busts, upcard {}, % (`{}`)", rank_name(up), s.id),
                    ours: 100.0 * a.upcards[up].dealer[OUTCOME_BUST],
                    published: 100.0 * published,
                    decimals: decimals - 2,
                    tolerance: None,
                    source:
                        "Wizard of Odds, Blackjack Appendix 2B, dealer probabilities before the \
                     peek, 1 deck, dealer stands on soft 17 \
                     (wizardofodds.com/games/blackjack/appendix/2b/)",
                }),
        );
    }
    for &(decks, h17, das, published, source) in &GAME_RETURN {
        let target = BlackjackRules {
            decks: Decks::Finite(decks),
            dealer_hits_soft_17: h17,
            double_after_split: das,
            ..BlackjackRules::default()
        };
        let found = r.sets.iter().zip(r.analyses).find(|(s, _)| {
            BlackjackRules {
                post_split_strategy: target.post_split_strategy,
                ..s.rules
            } == target
        });
        let Some((s, a)) = found else { continue };
        let ours = a.optimal_ev_by_mode[mode_index(PostSplit::Cdp)];
        if ours.is_nan() {
            continue;
        }
        out.push(Published {
            what: format!(
                "EV, composition-dependent play, split hands CDP, % (`{}`)",
                s.id
            ),
            ours: 100.0 * ours,
            published: 100.0 * published,
            decimals: 4,
            tolerance: Some(GAME_RETURN_TOLERANCE),
            source,
        });
    }
    out
}

/// Builds the Markdown and the charts.
pub fn build(
    meta: &JobMeta,
    simulation: &SimulationSettings,
    r: &Results,
) -> anyhow::Result<Report> {
    let mut md = header("Blackjack", meta);
    let simulated = if simulation.rounds == 0 {
        " (nothing simulated: `[simulation] rounds = 0`)".to_string()
    } else {
        format!(
            ", its basic strategy chart played through the seeded simulator{}",
            match simulation.penetration {
                None => " with a reshuffle before every round".to_string(),
                Some(p) => format!(" with a cut card at {:.0} % penetration", 100.0 * p),
            }
        )
    };
    md.push_str(&format!(
        ": {} rule set{}, each analysed exactly{simulated}.\n\n",
        r.sets.len(),
        if r.sets.len() == 1 { "" } else { "s" },
    ));
    md.push_str(
        "**How the numbers are made.** Exact combinatorial analysis with card removal (the \
         upcard and the player's cards leave the shoe; an infinite shoe draws each rank with \
         fixed probability). *Composition-dependent play* is the best play of every unsplit hand: \
         each decision uses the exact cards held. Split hands are not fully \
         composition-dependent: they resplit whenever allowed and their EVs are exact, \
         resplits included (every card dealt to every hand leaves the shoe in the order it \
         is dealt), but each split hand is played by the rule set's post-split strategy, \
         which sees its own cards and at most the pair cards of the split, not the other \
         hands' cards: CDZ- (as an unsplit hand of the same cards; the default), CDP1 \
         (optimal for the shoe less both pair cards) or CDP (Eric Farmer's CDP: each term \
         of his split sum played optimally for its shoe's number of pair cards out, the \
         figure the standard calculators give, CDP1 without resplits); the section on \
         split play compares the three. The \
         *basic strategy* chart is total-dependent: each cell takes the action with the best \
         EV averaged over the two-card hands of that row, weighted by how often they are \
         dealt; its EV is exact too.\n",
    );
    md.push_str(&conventions(&conventions_lines(r.sets)));
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
                format!(
                    "{} %",
                    with_error(100.0 * (t.mean() - a.chart_ev), 100.0 * t.std_error(), true)
                ),
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
            "EV, composition-dependent play",
            "EV, basic strategy (exact)",
            "EV, basic strategy simulated ± s.e.",
            "sim − exact ± s.e.",
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
        // Under exact EVs the z are independent standard normal draws: their mean has
        // standard error sd/√n, their standard deviation about sd/√(2(n − 1)).
        md.push_str(&format!(
            "\nOver the {} simulated rule sets, z = (sim − exact) / s.e. has mean {} and \
             standard deviation {}; largest |z|, in standard errors: {worst:.2}. Independent \
             standard normal draws (mean 0, standard deviation 1) are what every exact EV \
             being right gives.\n",
            z.len(),
            with_error(mean, sd / n.sqrt(), true),
            with_error(sd, sd / (2.0 * (n - 1.0)).sqrt(), false),
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
                "{}: EV {} (composition-dependent play), {} (basic strategy)",
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
    // Only where a job valued more than its rule sets' own strategy
    // (`[analysis] post_split_strategies`); a strategy not valued shows as "—".
    let valued = |e: &[f64]| e.iter().filter(|x| !x.is_nan()).count();
    if r.analyses.iter().all(|a| valued(&a.optimal_ev_by_mode) < 2) {
        return String::new();
    }
    let shown = |x: f64, text: String| if x.is_nan() { "—".to_string() } else { text };
    let mut md = String::from(
        "\n## Split play: CDZ-, CDP1 and CDP\n\nThe EV (composition-dependent play) with split hands \
         played each way, exact; the rule set's own strategy is the one in the table above. \
         CDZ- plays a split hand as an unsplit hand of the same cards; CDP1 plays every split \
         hand optimally for the shoe less both pair cards; CDP is Eric Farmer's: his split \
         sum, each term played optimally for its own number of pair cards out, which his \
         calculator's figures equal to nine decimals of a percent (equal to CDP1 where no \
         resplit is allowed; docs/rules/blackjack.md). None looks at the other hands' \
         non-pair cards.\n\n",
    );
    let rows: Vec<Vec<String>> = r
        .sets
        .iter()
        .zip(r.analyses)
        .map(|(s, a)| {
            let e = a.optimal_ev_by_mode;
            let pct = |x: f64| shown(x, format!("{:+.7} %", 100.0 * x));
            vec![
                format!("`{}`", s.id),
                pct(e[0]),
                pct(e[1]),
                pct(e[2]),
                shown(e[2] - e[0], format!("{:.2e}", e[2] - e[0])),
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
            if m.iter().all(|x| x.is_nan()) {
                continue;
            }
            let ev = |x: f64| shown(x, format!("{x:+.9}"));
            rows.push(vec![
                format!("{0}-{0} v {1}", rank_name(pair), rank_name(up)),
                ev(m[0]),
                ev(m[1]),
                ev(m[2]),
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

/// The Illustrious 18 as report rows: (decision, upcard, play, index), insurance first,
/// each read "play at this count and above".
fn illustrious_18() -> Vec<(String, usize, &'static str, i32)> {
    let mut rows = vec![(
        "insurance".to_string(),
        ACE,
        "insure",
        ILLUSTRIOUS_INSURANCE,
    )];
    rows.extend(
        ILLUSTRIOUS_18
            .iter()
            .map(|&(row, up, play, index)| (row_label(row), up, play.name(), index)),
    );
    rows
}

/// This run's index for an Illustrious 18 play, read the same way (the count from which
/// `play` beats the other action), with its crossing: a deviation to `play` upward, or
/// one away from it downward (whose index + 1 is where `play` starts).
fn as_illustrious(
    indices: &[super::indices::Index],
    (hand, up, play): (&str, usize, &str),
) -> Option<(i32, f64, f64)> {
    indices.iter().find_map(|x| {
        let (h, u, chart, deviation) = decision_words(&x.decision);
        if h != hand || u != up {
            return None;
        }
        match x.direction {
            Direction::AtOrAbove if deviation == play => Some((x.index, x.crossing, x.crossing_se)),
            Direction::AtOrBelow if chart == play => Some((x.index + 1, x.crossing, x.crossing_se)),
            _ => None,
        }
    })
}

/// The file name, beside an indices report, of the counter job that plays rule set
/// `set`'s index plays.
pub(super) fn counter_job_file(set: usize) -> String {
    format!("counter_{set}.toml")
}

/// The index plays of one rule set as the `[play]` table of a `blackjack.counter` job
/// file, and how many plays it lists.
pub(super) fn play_table(sum: &Summary) -> (String, usize) {
    let mut toml = String::from("[play]\n");
    if let Some(from) = sum.insure_from() {
        toml.push_str(&format!("insure_from = {from}\n"));
    }
    toml.push_str("indices = [\n");
    let mut plays = 0;
    for x in &sum.indices {
        if let super::indices::Decision::Cell { .. } = x.decision {
            let (hand, up, _, play) = decision_words(&x.decision);
            let side = match x.direction {
                Direction::AtOrAbove => "at_or_above",
                Direction::AtOrBelow => "at_or_below",
            };
            toml.push_str(&format!(
                "  {{ hand = \"{hand}\", upcard = \"{}\", play = \"{play}\", {side} = {} }},\n",
                rank_name(up),
                x.index
            ));
            plays += 1;
        }
    }
    toml.push_str("]\n");
    (toml, plays)
}

/// The index plays of one rule set as `[play]` lines, and where the ready counter job is.
fn play_lines(name: &str, set: usize, sum: &Summary) -> String {
    let (toml, plays) = play_table(sum);
    format!(
        "\n### These plays at the table\n\nA `blackjack.counter` job that plays these \
         indices with this rule set, this count and this penetration (and the counter's \
         default bet ramps) is written beside this report: `pipeline run \
         reports/{name}/{file}`. To play them in another counter job, copy the lines below \
         into its `[play]` table, with the same `[rules]` and `[count]` \
         (`jobs/blackjack_counter.toml`).\n\n<details><summary>{plays} index plays as \
         job-file lines</summary>\n\n```toml\n{toml}```\n\n</details>\n",
        file = counter_job_file(set)
    )
}

/// An index as charts print it: `≥ +3`, `≤ −1`.
fn index_text(index: i32, direction: Direction) -> String {
    match direction {
        Direction::AtOrAbove => format!("≥ {index:+}"),
        Direction::AtOrBelow => format!("≤ {index:+}"),
    }
}

/// How many of the eighteen published indices this run's equal exactly, and how far the
/// others are, in words.
fn illustrious_tally(
    published: &[(String, usize, &'static str, i32)],
    found: &[super::indices::Index],
) -> String {
    let diffs: Vec<Option<i32>> = published
        .iter()
        .map(|p| as_illustrious(found, (&p.0, p.1, p.2)).map(|o| o.0 - p.3))
        .collect();
    let exact = diffs.iter().filter(|d| **d == Some(0)).count();
    let worst = diffs.iter().flatten().map(|d| d.abs()).max().unwrap_or(0);
    let missing = diffs.iter().filter(|d| d.is_none()).count();
    let mut text = format!(
        "\n{exact} of the {} equal the published index exactly",
        published.len()
    );
    if missing == 0 {
        text.push_str(&format!("; every one is within {worst} of it"));
    } else {
        text.push_str(&format!("; {missing} have no index in this run's range"));
    }
    let off: Vec<String> = published
        .iter()
        .zip(&diffs)
        .filter(|(_, d)| d.is_some_and(|d| d != 0))
        .map(|(p, d)| format!("{} vs {} ({:+})", p.0, rank_name(p.1), d.unwrap_or(0)))
        .collect();
    if !off.is_empty() {
        text.push_str(&format!(" (differing: {})", off.join(", ")));
    }
    text.push_str(".\n");
    text
}

/// What a counting report's indices and gains mean, stated before any figure: the count
/// indices are in (at the decision, or before the round), floored, and indices are in
/// those whole counts; a deviation at or below an index is what other tables write as
/// the chart play's threshold one count up; every gain is risk-neutral at a flat bet.
fn index_conventions(count_at: CountAt) -> String {
    let which = match count_at {
        CountAt::Decision => {
            "taken when the decision is made (the cards dealt before the round, the dealer's \
             upcard and the player's two cards; for insurance, the ace and the player's two \
             cards), as published index tables state them"
        }
        CountAt::RoundStart => {
            "taken before the round (the round's own cards not counted: the count a bet is \
             placed at)"
        }
    };
    format!(
        "Indices are in units of the floored true count {which}: `≥ +3` is every true count \
         of 3.0 and above, and a *crossing* is where the gain changes sign, in the same units \
         (between two floored counts). A deviation played at or below an index, `≤ i`, is \
         what tables that state the chart play's threshold write as that play at `≥ i + 1` \
         (hit ≤ −1 here is stand ≥ 0 there). Gains and EVs are risk-neutral (the EV of the \
         round, no risk aversion) at a flat one-unit bet, whatever a bet ramp stakes."
    )
}

fn count_words(c: &Counter) -> String {
    let tags: Vec<String> = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T"]
        .iter()
        .zip(&c.tags)
        .map(|(r, t)| format!("{r} {t:+}"))
        .collect();
    format!(
        "Counting system `{}`, tags {}. {}",
        c.name,
        tags.join(", "),
        if c.balanced {
            format!(
                "Balanced: the count is the true count, the running count of the cards dealt \
                 before the round ÷ the decks left ({}), {} to a whole number ({} and below, \
                 and {} and above, are tabulated at the ends).",
                match c.resolution {
                    super::count::Resolution::Exact => "cards left ÷ 52",
                    super::count::Resolution::Half => "to the nearest half deck",
                    super::count::Resolution::Full => "to the nearest deck",
                },
                match c.rounding {
                    super::count::Rounding::Floor => "floored (+2.7 → 2, −0.3 → −1)",
                    super::count::Rounding::Truncate => "truncated (+2.7 → 2, −0.3 → 0)",
                },
                c.low,
                c.high
            )
        } else {
            format!(
                "Unbalanced: the count is the running count of the cards dealt before the \
                 round, started at −{} × (decks − 1), floored ({} and below, and {} and above, \
                 are tabulated at the ends).",
                super::count::deck_sum(&c.tags),
                c.low,
                c.high
            )
        }
    )
}

/// Builds the `blackjack.indices` report; `chart(set)` is a rule set's basic strategy.
pub fn build_indices(
    meta: &JobMeta,
    settings: &IndicesSettings,
    r: &IndexResults,
    chart: &dyn Fn(usize) -> (Vec<Cell>, f64),
) -> anyhow::Result<Report> {
    let c = r.counter;
    let mut md = header("Blackjack count indices", meta);
    md.push_str(&format!(
        ": {} rule set{}, counting system `{}`, {} decision points per count valued exactly, \
         cut card at {:.0} %.\n\n",
        r.sets.len(),
        if r.sets.len() == 1 { "" } else { "s" },
        c.name,
        settings.points_per_count,
        100.0 * settings.penetration,
    ));
    md.push_str(
        "**How the numbers are made.** A decision point is the start of a round from a shoe \
         dealt to a uniformly random depth before the cut card. For each count the job draws \
         decision points at that count (a shoe with another count is drawn again, so the \
         points follow the law of the shoe given its count) and values each *exactly*: for \
         every upcard and two-card hand, the EV of every first action with every later \
         decision the basic strategy chart's, and the round's EV under the chart; and every \
         later hand of three or more cards the chart reaches by hitting, both standing and \
         hitting. Only the shoe is sampled, so the spread of the EVs is the spread of the shoes at that count, \
         and every figure carries its standard error. Each figure at a count is the points' \
         mean corrected by regression on the shoe's composition (each rank's share of the \
         cards left, the share of the shoe left, and their products two by two), whose \
         exact mean at that count is known: a control variate, with the same expectation and a smaller error. Each \
         count's frequency is exact. An index is where the gain of a \
         deviation over the chart, per round, changes sign along the counts; its *crossing* \
         interpolates between the two counts around the change. A deviation is played on \
         every hand of its cell, as published index tables mean it: a stand-or-hit index \
         (stand on hard 16 against a ten) also changes the later hands of that total (a \
         16 made of three or more cards), whose gains its gain includes.",
    );
    if settings.count_at == CountAt::Decision {
        md.push_str(
            " A decision is stated at its count when it is made: the count before the round \
             moved by the upcard and the player's cards (two, or more for a later hand). The \
             points drawn at each count before the round are regrouped by that count: for \
             two-card hands with the exact chance of each (count before, count at the \
             decision) pair and the shoe's exact mean composition there for the regression; \
             for later hands, the mean over all the points of each count before the round \
             of the gains decided at each count, by the same regression as there.",
        );
    }
    md.push('\n');
    let mut lines = conventions_lines(r.sets);
    lines.push(count_words(c));
    lines.push(
        "An index `≥ +3` means: play the deviation at count +3 and above; `≤ −1`: at −1 and \
         below. Gains are in initial bets per 100 rounds, over all counts at their \
         frequencies; EVs by count are per round in initial bets. Insurance pays 2 to 1 on \
         half a bet; its EV is per unit insured."
            .to_string(),
    );
    lines.push(index_conventions(settings.count_at));
    if settings.count_at == CountAt::Decision {
        lines.push(
            "A cell's figures at a count (its chance and EVs, of its two-card hands; its \
             gains, of those and of its later hands) gather its hands decided at that count, \
             per round at that count: their expectation over all rounds ÷ the \
             frequency of the count before a round, so that over all counts at those \
             frequencies they sum to the cell's total. The round's EV by count is at the count \
             before the round (the count a bet is placed at); the EV with indices at a count \
             adds to it the gains of the decisions made at that count."
                .to_string(),
        );
    }
    md.push_str(&conventions(&lines));
    let mut charts = Vec::new();
    for (set, (s, sum)) in r.sets.iter().zip(r.summaries).enumerate() {
        md.push_str(&format!(
            "\n## `{}`\n\n### The most valuable plays\n\n",
            s.id
        ));
        let hi_lo = c.name == "hi-lo";
        let published = illustrious_18();
        let mut rows = Vec::new();
        for (i, x) in sum.indices.iter().take(18).enumerate() {
            let (hand, up, chart_play, play) = decision_words(&x.decision);
            let mut row = vec![
                (i + 1).to_string(),
                hand.clone(),
                rank_name(up).to_string(),
                format!("{chart_play} → {play}"),
                index_text(x.index, x.direction),
                with_error(x.crossing, x.crossing_se, true),
                with_error(x.gain_per_100, x.gain_per_100_se, false),
            ];
            if hi_lo {
                let published = published
                    .iter()
                    .find(|p| p.0 == hand && p.1 == up && (p.2 == play || p.2 == chart_play));
                row.push(
                    published
                        .map(|p| format!("{} ≥ {:+}", p.2, p.3))
                        .unwrap_or_default(),
                );
            }
            rows.push(row);
        }
        let mut head = vec![
            "rank",
            "hand",
            "upcard",
            "play",
            "index",
            "crossing ± s.e.",
            "gain per 100 rounds ± s.e.",
        ];
        if hi_lo {
            head.push("Illustrious 18");
        }
        md.push_str(&markdown_table(&head, &rows));
        if hi_lo {
            md.push_str(
                "\nIllustrious 18: the Hi-Lo indices published by Schlesinger (*Blackjack \
                 Attack*) for multi-deck S17, each as \"play at this count and above\"; blank \
                 where a play is not among them. Below, the eighteen beside this run's \
                 indices read the same way. Published values are rounded and come from \
                 simulations with their own conventions (the count at the decision, truncated \
                 or floored true counts, risk-averse choices), so agreement within a count is \
                 what to expect; this run's figures are exact for its stated conventions up \
                 to the standard error shown.\n\n",
            );
            let rows: Vec<Vec<String>> = published
                .iter()
                .map(|p| {
                    let ours = as_illustrious(&sum.indices, (&p.0, p.1, p.2));
                    vec![
                        p.0.clone(),
                        rank_name(p.1).to_string(),
                        p.2.to_string(),
                        format!("≥ {:+}", p.3),
                        ours.map(|o| format!("≥ {:+}", o.0))
                            .unwrap_or_else(|| "none in range".into()),
                        ours.map(|o| with_error(o.1, o.2, true)).unwrap_or_default(),
                    ]
                })
                .collect();
            md.push_str(&markdown_table(
                &[
                    "hand",
                    "upcard",
                    "play",
                    "published",
                    "this run",
                    "crossing ± s.e.",
                ],
                &rows,
            ));
            md.push_str(&illustrious_tally(&published, &sum.indices));
        }
        md.push_str(&format!(
            "\nEvery index play ({} in all) is in `indices.parquet`; every cell's gain at every \
             count in `cells.parquet`.\n\n### The chart with its indices\n\n\
             Each cell: the basic strategy (as in `blackjack.strategy`), then each index that \
             changes it (`S≥+2`: stand at +2 and above). Hard 8–17, soft 13–19 and the pairs.\n\n",
            sum.indices.len()
        ));
        let (base, full_shoe_ev) = chart(set);
        let mut rows = Vec::new();
        let shown = (8..=17)
            .map(Row::Hard)
            .chain((13..=19).map(Row::Soft))
            .chain(UPCARD_ORDER.iter().map(|&p| Row::Pair(p)));
        for row in shown {
            let Some(ri) = row.index() else { continue };
            let mut line = vec![row_label(row)];
            for &u in &UPCARD_ORDER {
                let cell = ri * RANKS + u;
                let mut text = cell_code(&base[cell]);
                for x in &sum.indices {
                    if let super::indices::Decision::Cell { cell: xc, play, .. } = x.decision {
                        if xc == cell {
                            text.push_str(&format!(
                                " {}{}",
                                play.letter(),
                                index_text(x.index, x.direction).replace(' ', "")
                            ));
                        }
                    }
                }
                line.push(text);
            }
            rows.push(line);
        }
        let mut head = vec!["hand"];
        head.extend(UPCARD_ORDER.iter().map(|&u| rank_name(u)));
        md.push_str(&markdown_table(&head, &rows));

        md.push_str(&format!(
            "\n### EV by {}\n\nPer round, in % of the initial bet.\n\n",
            c.axis()
        ));
        // The range's ends gather every count beyond them: labelled so, and left off the
        // EV chart, whose points are single counts.
        let (low, high) = (c.low, c.low + sum.rows.len() as i32 - 1);
        let end_label = |count: i32| {
            if count == low {
                format!("≤ {count:+}")
            } else if count == high {
                format!("≥ {count:+}")
            } else {
                format!("{count:+}")
            }
        };
        let rows: Vec<Vec<String>> = sum
            .rows
            .iter()
            .map(|row| {
                let pct = |x: f64, se: f64| {
                    if x.is_nan() {
                        "—".to_string()
                    } else {
                        with_error(100.0 * x, 100.0 * se, true)
                    }
                };
                vec![
                    end_label(row.count),
                    format!("{:.3}", 100.0 * row.frequency),
                    row.points.to_string(),
                    pct(row.chart_ev.0, row.chart_ev.1),
                    if row.indices_ev.is_nan() {
                        "—".into()
                    } else {
                        pct(row.indices_ev, row.indices_ev_se)
                    },
                    pct(row.insurance_ev.0, row.insurance_ev.1),
                ]
            })
            .collect();
        let head = [
            c.axis(),
            "frequency, %",
            "points",
            "EV, chart, % ± s.e.",
            "EV, chart + indices, % ± s.e. (at most)",
            "insurance EV, % ± s.e.",
        ];
        md.push_str(&markdown_table(&head, &rows));
        md.push_str(&format!(
            "\nAveraged over the counts at their frequencies, the chart's EV is {} %; over \
             the full shoe it is {:+.4} % (exact). The two agree because cards dealt unseen \
             change no expectation: a check on the whole chain (the tests check the same \
             identity exactly, shoe by shoe).\n",
            with_error(
                100.0 * sum.average_chart_ev.0,
                100.0 * sum.average_chart_ev.1,
                true
            ),
            100.0 * full_shoe_ev
        ));
        let points = |f: &dyn Fn(&super::indices::CountRow) -> f64| -> Vec<(f64, f64)> {
            sum.rows
                .iter()
                .filter(|row| row.points > 0 && !f(row).is_nan())
                .filter(|row| row.count != low && row.count != high)
                .map(|row| (f64::from(row.count), 100.0 * f(row)))
                .collect()
        };
        let lines = [
            Line::solid("basic strategy chart", points(&|row| row.chart_ev.0), 0),
            Line::dashed("chart + indices", points(&|row| row.indices_ev), 0),
        ];
        let file = format!("ev_by_count_{set}.svg");
        charts.push((
            file.clone(),
            line_chart_svg(
                &format!("EV by {} ({})", c.axis(), s.id),
                c.axis(),
                "EV per round, %",
                &lines,
                &[],
            )?,
        ));
        let freq_file = format!("frequency_{set}.svg");
        charts.push((
            freq_file.clone(),
            bar_chart_svg(
                &format!("How often each {} comes ({})", c.axis(), s.id),
                &sum.rows
                    .iter()
                    .map(|row| format!("{:+}", row.count))
                    .collect::<Vec<_>>(),
                &sum.rows
                    .iter()
                    .map(|row| 100.0 * row.frequency)
                    .collect::<Vec<_>>(),
                "% of rounds",
                false,
            )?,
        ));
        md.push_str(&format!(
            "\nThe EV chart leaves off the two ends of the range, which gather every count \
             beyond them.\n\n![EV by count]({0}/{file})\n\n![Frequency of each count]({0}/{freq_file})\n",
            meta.name
        ));
        md.push_str(&play_lines(&meta.name, set, sum));
    }
    let headline = r
        .sets
        .iter()
        .zip(r.summaries)
        .filter_map(|(s, sum)| {
            sum.indices.first().map(|x| {
                let (hand, up, _, play) = decision_words(&x.decision);
                format!(
                    "{}: {} index plays; the most valuable: {hand} vs {} {play} {}",
                    s.id,
                    sum.indices.len(),
                    rank_name(up),
                    index_text(x.index, x.direction)
                )
            })
        })
        .collect();
    Ok(Report {
        markdown: md,
        charts,
        headline,
    })
}

/// A figure derived from the whole simulation, with its jackknife standard error over
/// the work units, or, with a single unit, its value and why no error is given.
fn derived(value: f64, std_error: f64, decimals: usize) -> String {
    sampled(value, std_error, decimals, "one work unit")
}

/// The simulated counter of one rule set: its win rate and risk as each ramp bet it, a
/// column per ramp.
fn counter_figures(ks: &[CounterResult], r: &CounterResults) -> String {
    type Figure = fn(&CounterResult) -> String;
    let figures: [(String, Figure); 10] = [
        ("win rate, units per 100 rounds ± s.e.".into(), |k| {
            with_error(100.0 * k.win_rate.0, 100.0 * k.win_rate.1, true)
        }),
        ("standard deviation per round, units ± s.e.".into(), |k| {
            derived(k.sd, k.errors.sd, 3)
        }),
        ("mean bet per round, units ± s.e.".into(), |k| {
            derived(k.mean_bet, k.errors.mean_bet, 4)
        }),
        ("win per unit bet, % ± s.e.".into(), |k| {
            with_error(
                100.0 * k.win_rate.0 / k.mean_bet,
                100.0 * k.win_rate.1 / k.mean_bet,
                true,
            )
        }),
        ("SCORE = 10⁶ (win rate ÷ sd)² ± s.e.".into(), |k| {
            with_error(k.score.0, k.score.1, false)
        }),
        ("N0 = (sd ÷ win rate)², rounds ± s.e.".into(), |k| {
            derived(k.n0, k.errors.n0, 0)
        }),
        (
            format!(
                "risk of ruin of {} units, exp(−2 · win rate · bankroll ÷ sd²) ± s.e.",
                r.betting.bankroll
            ),
            |k| derived(k.risk_of_ruin, k.errors.risk_of_ruin, 4),
        ),
        (
            format!(
                "risk of ruin of {} units, simulated: sessions until ruin or {}× the bankroll ± s.e.",
                r.betting.bankroll, r.betting.ruin_goal
            ),
            |k| {
                let lost = (k.ruin_simulated.0 * k.sessions as f64).round();
                if k.sessions == 0 {
                    "—".to_string()
                } else if lost == 0.0 || lost == k.sessions as f64 {
                    // No spread to estimate an error from: say what was seen.
                    format!("{lost} of {} sessions lost", k.sessions)
                } else {
                    format!(
                        "{} ({} sessions)",
                        with_error(k.ruin_simulated.0, k.ruin_simulated.1, false),
                        k.sessions
                    )
                }
            },
        ),
        (
            format!(
                "lost within a trip of {} rounds: simulated ({} trips) ± s.e.",
                r.betting.trip_rounds,
                ks.first().map_or(0, |k| k.trips)
            ),
            |k| {
                if k.trips == 0 {
                    "—".to_string()
                } else {
                    with_error(k.ruin_in_trip.0, k.ruin_in_trip.1, false)
                }
            },
        ),
        ("lost within a trip: diffusion formula ± s.e.".into(), |k| {
            derived(k.ruin_in_trip_formula, k.errors.ruin_in_trip_formula, 4)
        }),
    ];
    let names: Vec<String> = (0..ks.len()).map(|i| r.betting.ramp_text(i)).collect();
    let mut head = vec!["figure"];
    head.extend(names.iter().map(String::as_str));
    let rows: Vec<Vec<String>> = figures
        .iter()
        .map(|(name, f)| {
            let mut row = vec![name.clone()];
            row.extend(ks.iter().map(f));
            row
        })
        .collect();
    let mut md = markdown_table(&head, &rows);
    md.push_str(&format!(
        "\nShoes left before the cut card (wonging out): {}. SCORE is the win per 100 rounds \
         of a bettor whose ramp is scaled to a bankroll of 10,000 at a 13.5 % risk of ruin; \
         N0 the rounds after which the expected win equals one standard deviation. The risks \
         of ruin by formula treat the bankroll as a Brownian motion with the simulated win \
         rate and deviation per round: exp(−2μB/σ²) for a game that never ends, and \
         Φ((−B − μT)/(σ√T)) + exp(−2μB/σ²) Φ((−B + μT)/(σ√T)) for a trip of T rounds, which \
         the simulated trips (consecutive blocks of T rounds, each from the full bankroll) \
         check. The simulated risk of an unlimited game plays sessions, each from the full \
         bankroll, until the bankroll is lost or has grown to {goal}× its start, where the \
         formula leaves a risk of {beyond} (the larger bankroll's); a session is stopped \
         after {cap} rounds ({caps} were) and starts only while that many rounds remain in a \
         unit, so none is cut short.\n",
        ks.first().map_or(0, |k| k.shoes_left),
        goal = r.betting.ruin_goal,
        beyond = ks
            .iter()
            .map(|k| derived(k.ruin_beyond_goal, k.errors.ruin_beyond_goal, 7))
            .collect::<Vec<_>>()
            .join(", "),
        cap = r.betting.session_rounds,
        caps = ks
            .iter()
            .map(|k| k.session_caps.to_string())
            .collect::<Vec<_>>()
            .join(", "),
    ));
    md
}

/// Builds the `blackjack.counter` report.
pub fn build_counter(meta: &JobMeta, r: &CounterResults) -> anyhow::Result<Report> {
    let c = r.counter;
    let p = r.play;
    let mut md = header("Blackjack counter", meta);
    md.push_str(&format!(
        ": a seeded simulation of {} rounds per rule set of a `{}` counter betting {} on \
         {}{}, cut card at {:.0} %{}.\n\n",
        r.betting.rounds,
        c.name,
        match r.betting.ramps.len() {
            1 => r.betting.ramp_text(0),
            n => format!("by each of {n} ramps (the same rounds, tallied as each would bet them)"),
        },
        match p.hands {
            1 => "its hand".to_string(),
            n => format!("each of its {n} hands"),
        },
        match p.others {
            0 => String::new(),
            n => format!(
                ", with {n} other player{} at the table",
                if n == 1 { "" } else { "s" }
            ),
        },
        100.0 * p.penetration,
        match p.wong_out {
            Some(w) => format!(", leaving the shoe when the count before a round is below {w:+}"),
            None => String::new(),
        },
    ));
    md.push_str(&format!(
        "**How it plays.** The count is taken before each round, from every card dealt since \
         the shuffle (the other players' too). The first decision on each of the counter's \
         two-card hands is the basic strategy chart's (as `blackjack.strategy` finds it) \
         changed by {} index play{} ({}), every later decision the chart's; {}. Other \
         players play the chart. Every hand of the counter is bet by the ramp; results are \
         in units, per round (all of the counter's hands together).\n",
        p.rules.len(),
        if p.rules.len() == 1 { "" } else { "s" },
        match p.preset {
            super::counting::Preset::Illustrious18 => "the Illustrious 18, then any listed",
            super::counting::Preset::None => "as listed in `[play] indices`",
        },
        match p.insure_from {
            Some(f) => format!("insurance is taken at {f:+} and above"),
            None => "no insurance".to_string(),
        },
    ));
    let mut lines = conventions_lines(r.sets);
    // The analysis tables' EV line does not apply: these are a counter's simulated results.
    lines[0] = "Results are units won per round, all of the counter's hands together, with \
                naturals (paid at the rules' rate), dealer blackjacks, doubled and split bets \
                and insurance included. A push (equal totals, neither side bust) returns the \
                bet; a natural beats any other 21; a split ace or ten plus one card is 21, not \
                a natural."
        .to_string();
    lines.push(count_words(c));
    lines.push(format!(
        "Seats: the counter plays {} hand{} a round{}; the count sees every card dealt at \
         the table. Index thresholds are applied at the floored true count taken before the \
         round (`≥ +3`: every true count of 3.0 and above), the count the bet is placed at; \
         published indices and those of a `blackjack.indices` job with `count_at = \
         \"decision\"` are stated at the count when the decision is made, so playing them \
         at the count before the round is an approximation. A play at or below an index, `≤ i`, \
         is what tables that state the chart play's threshold write as `≥ i + 1`. Every \
         decision is risk-neutral (it maximises the round's EV, no risk aversion); the \
         ramp sets the stakes.",
        p.hands,
        if p.hands == 1 { "" } else { "s" },
        match p.others {
            0 => ", alone at the table".to_string(),
            1 => ", beside one other player who plays the basic strategy chart".to_string(),
            n => format!(", beside {n} other players who play the basic strategy chart"),
        },
    ));
    md.push_str(&conventions(&lines));
    md.push_str(
        "\n## Matches published figures\n\nNo published figure matches this simulation \
         closely enough to check it against. The nearest are the SCORE tables of Don \
         Schlesinger's *Blackjack Attack* for Hi-Lo with the Illustrious 18 and the Fab 4 \
         surrenders: they bet an *optimal* ramp for each spread, scaled to a bankroll of \
         10,000 units at 13.5 % risk of ruin, and cover 4.5 and 5 of 6 decks dealt; this \
         job bets the ramps it is given (SCORE below rescales each to the same risk, but \
         keeps its shape), deals to its own cut card and has surrender only where its \
         rules allow it. Which figure to compare would depend on those choices, and we had \
         no source at hand to check a published value against, so none is printed. The \
         exact parts of this job (the basic strategy chart, the published indices it \
         plays) are checked in the `blackjack.strategy` and `blackjack.indices` reports.\n",
    );
    md.push_str("\n## Win rate and risk\n\n");
    let rows: Vec<Vec<String>> = r
        .sets
        .iter()
        .zip(r.results)
        .flat_map(|(s, ks)| ks.iter().enumerate().map(move |(i, k)| (s, i, k)))
        .map(|(s, i, k)| {
            vec![
                format!("`{}`", s.id),
                r.betting.ramp_text(i),
                with_error(100.0 * k.win_rate.0, 100.0 * k.win_rate.1, true),
                derived(k.sd, k.errors.sd, 3),
                with_error(k.score.0, k.score.1, false),
                derived(k.n0, k.errors.n0, 0),
                derived(k.risk_of_ruin, k.errors.risk_of_ruin, 4),
            ]
        })
        .collect();
    md.push_str(&markdown_table(
        &[
            "rule set",
            "ramp",
            "win, units / 100 rounds ± s.e.",
            "sd / round ± s.e.",
            "SCORE ± s.e.",
            "N0 ± s.e.",
            &format!("risk of ruin, {} units ± s.e.", r.betting.bankroll),
        ],
        &rows,
    ));
    let mut charts = Vec::new();
    for (set, (s, ks)) in r.sets.iter().zip(r.results).enumerate() {
        md.push_str(&format!("\n## `{}`\n\n", s.id));
        md.push_str(&counter_figures(ks, r));
        let Some(k) = ks.first() else { continue };
        md.push_str(&format!(
            "\n### Result by {}\n\nPer hand of the counter, in % of its bet, by the count \
             before the round (insurance included).\n\n",
            c.axis()
        ));
        // The range's ends gather every count beyond them: labelled as such, and left off
        // the chart, whose points are single counts.
        let last = k.by_count.len().saturating_sub(1);
        let label = |i: usize| {
            let count = c.low + i as i32;
            if i == 0 {
                format!("≤ {count:+}")
            } else if i == last {
                format!("≥ {count:+}")
            } else {
                format!("{count:+}")
            }
        };
        let rows: Vec<Vec<String>> = k
            .by_count
            .iter()
            .enumerate()
            .map(|(i, &(n, ev, se))| {
                let (share, share_se) = k.frequency(i);
                vec![
                    label(i),
                    n.to_string(),
                    derived(100.0 * share, 100.0 * share_se, 3),
                    if n == 0 {
                        "—".to_string()
                    } else {
                        with_error(100.0 * ev, 100.0 * se, true)
                    },
                ]
            })
            .collect();
        md.push_str(&markdown_table(
            &[
                c.axis(),
                "rounds",
                "frequency, % ± s.e.",
                "EV per hand, % ± s.e.",
            ],
            &rows,
        ));
        let points: Vec<(f64, f64)> = k
            .by_count
            .iter()
            .enumerate()
            .filter(|&(i, x)| x.0 >= 10_000 && i != 0 && i != last)
            .map(|(i, x)| (f64::from(c.low + i as i32), 100.0 * x.1))
            .collect();
        let file = format!("counter_ev_by_count_{set}.svg");
        charts.push((
            file.clone(),
            line_chart_svg(
                &format!("The counter's EV per hand by {} ({})", c.axis(), s.id),
                c.axis(),
                "EV per hand, %",
                &[Line::solid("simulated", points, 0)],
                &[],
            )?,
        ));
        md.push_str(&format!(
            "\nThe chart leaves off counts with fewer than 10,000 rounds and the two ends of \
             the range, which gather every count beyond them. Frequencies are shares of the \
             rounds; their standard errors, like those of the standard deviation, mean bet, \
             N0 and risks of ruin by formula, are the jackknife's over the job's work units \
             (independent streams of whole shoes, so the correlation of rounds within a shoe \
             counts); a job of a single unit ({} rounds) has no spread to take them from.\n\n\
             ![EV by count]({}/{file})\n",
            super::sim::ROUNDS_PER_UNIT,
            meta.name
        ));
    }
    let headline = r
        .sets
        .iter()
        .zip(r.results)
        .flat_map(|(s, ks)| ks.iter().enumerate().map(move |(i, k)| (s, i, k)))
        .map(|(s, i, k)| {
            format!(
                "{}{}: {} units per 100 rounds, SCORE {}, risk of ruin {}",
                s.id,
                if r.betting.ramps.len() > 1 {
                    format!(" ({})", r.betting.ramp_text(i))
                } else {
                    String::new()
                },
                with_error(100.0 * k.win_rate.0, 100.0 * k.win_rate.1, true),
                with_error(k.score.0, k.score.1, false),
                derived(k.risk_of_ruin, k.errors.risk_of_ruin, 4)
            )
        })
        .collect();
    Ok(Report {
        markdown: md,
        charts,
        headline,
    })
}
