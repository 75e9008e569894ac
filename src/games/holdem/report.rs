//! The reports of the Hold'em jobs: the preflop equity chart and ranking, the heads-up
//! matrix with well-known matchups, the multiway equities by opponent count, and the
//! push/fold charts.

use cardtables::Card;

use super::classes::{class_name, class_of, parse_class, CLASSES};
use super::job::{HeadsUpJob, MultiwayJob, PreflopJob, PushFold3Job, PushFoldJob, ThreeWayJob};
use super::matchup::{ClassMatrix, MatchupResult, BOARDS};
use super::postflop::{deals, Strength, FLOP, RUNOUTS, STREET_NAMES};
use super::pushfold::{charted, intervals, range_share, Equilibrium, CHART_FREQUENCY};
use super::pushfold3::{self, SolvedSpot};
use super::rules::PostflopSettings;
use super::sampler::MAX_OPPONENTS;
use super::sweep::DEALS_PER_COMBO;
use super::tables as batches;
use super::tables::Rows;
use super::tables::ROLES;
use super::threeway::{TripleResult, BOARDS as THREEWAY_BOARDS};
use crate::cards::matchups::{two_cards, Matchup};
use crate::engine::JobMeta;
use crate::report::{
    conventions, header, heat_grid_svg, line_chart_svg, markdown_table, published_box, rank_grid,
    rank_grid_svg, rank_grid_svg_cells, with_error, Line, Published, Report,
};
use cardtables::indexer::HoldemIndexer;

/// The conventions section of a Hold'em report: the rules and the meaning of equity, which
/// every report shares, then the report's own lines.
fn holdem_conventions(own: &[&str]) -> String {
    let mut lines = vec![
        "Rules: Texas Hold'em; each hand is the best five of its two cards and the five \
         board cards, ranked as poker (A-2-3-4-5 the lowest straight); suits never rank, so \
         equal hands split the pot. Starting hands are the 169 classes (13 pairs, 78 suited, \
         78 offsuit); a class's figure is the mean over its combos."
            .to_string(),
        "Equity: the share of the pot a hand wins at showdown with no further betting, a \
         split pot counting as its share (1/k among k tied hands); opponents hold hands \
         dealt from the cards ours leave (card removal), and every board is dealt from the \
         rest."
            .to_string(),
    ];
    lines.extend(own.iter().map(|l| l.to_string()));
    conventions(&lines)
}

/// The push/fold box: the all-in equity of AA against KK from the job's own matchup
/// results, and, when the job solves the game the published Nash charts (HoldemResources)
/// chart — no ante, stacks in steps of 0.1 bb covering 1 to 8 bb — its thresholds beside
/// theirs.
fn pushfold_published(
    grid: &super::rules::StackGrid,
    ante: f64,
    matrix: &ClassMatrix,
    solutions: &[Equilibrium],
) -> anyhow::Result<String> {
    let mut figures = Vec::new();
    if let (Some(aa), Some(kk)) = (parse_class("AA"), parse_class("KK")) {
        figures.push(Published {
            what: "AA against KK, all-in equity (this job's matchups)".into(),
            ours: matrix.equity(aa, kk),
            published: 0.8195,
            decimals: 4,
            tolerance: None,
            source: "the standard equity calculators (e.g. PokerStove), 81.95 %",
        });
    }
    let covers = |s: f64| (0..grid.count).any(|k| (grid.stack(k) - s).abs() < 1e-9);
    if ante != 0.0 || (grid.step - 0.1).abs() > 1e-9 || !covers(1.0) || !covers(8.0) {
        return published_box(&figures);
    }
    // The stack intervals at which `class` is played in `role`.
    let runs = |class: &str, role: &str| -> Vec<(f64, f64)> {
        let (Some(c), Some(&(_, freq))) =
            (parse_class(class), ROLES.iter().find(|(r, _)| *r == role))
        else {
            return Vec::new();
        };
        intervals(grid.count, |k| charted(freq(&solutions[k], c)))
            .into_iter()
            .map(|(a, b)| (grid.stack(a), grid.stack(b)))
            .collect()
    };
    let last_of = |r: &[(f64, f64)]| r.last().map_or(f64::NAN, |x| x.1);
    let source = "HoldemResources.net, heads-up push/fold Nash charts (no ante), the examples of \
                  their usage page";
    let t3s = runs("T3s", "sb_push");
    let q2o = runs("Q2o", "bb_call");
    let s63 = runs("63s", "sb_push");
    let figure = |what: &str, ours: f64, published: f64| Published {
        what: what.to_string(),
        ours,
        published,
        decimals: 1,
        tolerance: None,
        source,
    };
    let (cells, every_cell) = hrc_comparison(grid, ante, solutions);
    figures.extend([
        figure("SB T3s: largest stack pushed, bb", last_of(&t3s), 7.7),
        figure("BB Q2o: largest stack calling, bb", last_of(&q2o), 5.6),
        figure(
            "SB 63s: pushed at every stack up to, bb",
            s63.first().map_or(f64::NAN, |x| x.1),
            2.3,
        ),
        figure(
            "SB 63s: pushed again from, bb",
            s63.get(1).map_or(f64::NAN, |x| x.0),
            5.1,
        ),
    ]);
    figures.extend(every_cell);
    Ok(published_box(&figures)? + &cells)
}

/// HoldemResources.net's heads-up push/fold Nash charts without ante: per hand, the
/// largest effective stack (bb) at which it is pushed (`HRC_PUSH`) or calls a push
/// (`HRC_CALL`); `20+` at every stack up to 20 bb; `*` a hand with gaps, given there in
/// footnotes rather than as one number. Rows and columns A to 2, suited above the
/// diagonal, offsuit below, pairs on it. Of the caller chart we have rows A to 8 and the
/// first four cells of row 7 (95 cells).
const HRC_PUSH: [&str; 13] = [
    "20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+",
    "20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 19.9 19.3",
    "20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 16.3 13.5 12.7",
    "20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 18.6 14.7 13.5 10.6 8.5",
    "20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 11.9 10.5 7.7 6.5",
    "20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 14.4 6.9 4.9 3.7",
    "20+ 18.0 13.0 13.3 17.5 20+ 20+ 20+ 20+ 18.8 10.1 2.7 2.5",
    "20+ 16.1 10.3 8.5 9.0 10.8 14.7 20+ 20+ 20+ 13.9 2.5 2.1",
    "20+ 15.1 9.6 6.5 5.7 5.2 7.0 10.7 20+ 20+ 16.3 * 2.0",
    "20+ 14.2 8.9 6.0 4.1 3.5 3.0 2.6 2.4 20+ 20+ * 2.0",
    "20+ 13.1 7.9 5.4 3.8 2.7 2.3 2.1 2.0 2.1 20+ * 1.8",
    "20+ 12.2 7.5 5.0 3.4 2.5 1.9 1.8 1.7 1.8 1.6 20+ 1.7",
    "20+ 11.6 7.0 4.6 2.9 2.2 1.8 1.6 1.5 1.5 1.4 1.4 20+",
];
const HRC_CALL: [&str; 8] = [
    "20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+",
    "20+ 20+ 20+ 20+ 20+ 20+ 17.6 15.2 14.3 13.2 12.1 11.4 10.7",
    "20+ 20+ 20+ 20+ 20+ 16.1 13.0 10.5 9.9 8.9 8.4 7.8 7.2",
    "20+ 20+ 19.5 20+ 18.0 13.4 10.6 8.8 7.0 6.9 6.1 5.8 5.6",
    "20+ 20+ 15.3 12.7 20+ 11.5 9.3 7.4 6.3 5.2 5.2 4.8 4.5",
    "20+ 17.1 11.7 9.5 8.4 20+ 8.2 7.0 5.8 5.0 4.3 4.1 3.9",
    "20+ 13.8 9.7 7.6 6.6 6.0 20+ 6.5 5.6 4.8 4.1 3.6 3.5",
    "20+ 12.4 8.0 6.4",
];
/// The published charts' top stack: `20+` means every stack up to it.
const HRC_TOP: f64 = 20.0;
/// How far (bb) our threshold may lie from a published one: the published values are
/// rounded to 0.1 bb, our grid steps by 0.1 bb.
const HRC_TOLERANCE: f64 = 0.1;

/// One published chart cell beside ours.
struct ChartCell {
    class: usize,
    /// The published value (`HRC_TOP` for `20+`).
    published: f64,
    /// Ours, each capped at `HRC_TOP` (NaN: never played): the largest stack at which the
    /// class is played at least half the time, always, and at any frequency.
    half: f64,
    pure: f64,
    any: f64,
    /// The lowest and highest frequency at the stacks past `pure`, up to `any`.
    mix: (f64, f64),
}

impl ChartCell {
    fn agrees(&self) -> bool {
        (self.half - self.published).abs() <= HRC_TOLERANCE + 1e-9
    }

    /// Whether the published value lies where the class is mixed: from the largest
    /// stack at which it is always played to the largest at which it is played at all
    /// (within the tolerance).
    fn within_mixing(&self) -> bool {
        let low = if self.pure.is_nan() { 0.0 } else { self.pure };
        self.published >= low - HRC_TOLERANCE - 1e-9
            && self.published <= self.any + HRC_TOLERANCE + 1e-9
    }
}

/// The cells of a published chart (rows as in [`HRC_PUSH`]): each class given a number,
/// and that number (`HRC_TOP` for `20+`), in chart order.
fn hrc_published(rows: &[&str]) -> Vec<(usize, f64)> {
    let ranks: Vec<u8> = (0..13u8).rev().collect();
    let mut out = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        for (j, text) in row.split_whitespace().enumerate() {
            let published = match text {
                "20+" => HRC_TOP,
                v => match v.parse::<f64>() {
                    Ok(v) => v,
                    Err(_) => continue,
                },
            };
            let (r1, r2) = (ranks[i], ranks[j]);
            let class = if r1 > r2 {
                grid_class(r1, r2, true)
            } else {
                grid_class(r2, r1, false)
            };
            out.push((class, published));
        }
    }
    out
}

/// Every published cell of one role's chart beside ours, when the grid covers 1 to 20 bb
/// in steps of 0.1 without ante.
fn hrc_cells(
    grid: &super::rules::StackGrid,
    solutions: &[Equilibrium],
    rows: &[&str],
    freq: super::tables::Frequency,
) -> Vec<ChartCell> {
    let top = (0..grid.count).filter(|&k| grid.stack(k) <= HRC_TOP + 1e-9);
    let last = |played: &dyn Fn(f64) -> bool, c: usize| -> f64 {
        top.clone()
            .rev()
            .find(|&k| played(freq(&solutions[k], c)))
            .map_or(f64::NAN, |k| grid.stack(k))
    };
    let mut out = Vec::new();
    for (class, published) in hrc_published(rows) {
        let pure = last(&|f| f >= 1.0 - 1e-9, class);
        let any = last(&|f| f > 0.0, class);
        let mix = top
            .clone()
            .filter(|&k| (pure.is_nan() || grid.stack(k) > pure) && grid.stack(k) <= any)
            .map(|k| freq(&solutions[k], class))
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), f| {
                (lo.min(f), hi.max(f))
            });
        out.push(ChartCell {
            class,
            published,
            half: last(&|f| charted(f), class),
            pure,
            any,
            mix,
        });
    }
    out
}

/// The section that sets every published chart cell beside ours, and the box rows that
/// hold each to its tolerance; empty when the grid is not the published charts' game.
fn hrc_comparison(
    grid: &super::rules::StackGrid,
    ante: f64,
    solutions: &[Equilibrium],
) -> (String, Vec<Published>) {
    let covers = |s: f64| (0..grid.count).any(|k| (grid.stack(k) - s).abs() < 1e-9);
    if ante != 0.0 || (grid.step - 0.1).abs() > 1e-9 || !covers(1.0) || !covers(HRC_TOP) {
        return (String::new(), Vec::new());
    }
    let label = |v: f64| {
        if v.is_nan() {
            "–".to_string()
        } else if v >= HRC_TOP - 1e-9 {
            "20+".to_string()
        } else {
            format!("{v:.1}")
        }
    };
    let mut md = String::from(
        "\n## Every cell beside the published charts\n\nHoldemResources.net publishes, per \
         hand, the largest effective stack at which the no-ante heads-up Nash equilibrium \
         pushes it (or calls a push), capped at 20+ bb. Below, each published cell beside \
         ours: our largest stack up to 20 bb at which the hand is played at least half the \
         time (the cell of our charts above), and where it is mixed, the largest stacks at \
         which it is played always and at all. A cell **agrees** when ours is within 0.1 bb \
         of the published value (their rounding, our grid's step). The publisher does not \
         say how its charts treat a hand the equilibrium mixes; where a cell does not \
         agree, the published value is compared with our mixing interval, from the largest \
         stack played always to the largest played at all, widened by 0.1 bb: the \
         \"matches published figures\" box above holds every cell to that interval, and \
         fails the run if one falls outside. The push chart's three hands with gaps (63s, \
         53s, 43s) are published as footnotes; the box above checks 63s's.\n",
    );
    let mut figures = Vec::new();
    for (role, rows, freq) in [
        ("sb_push", &HRC_PUSH[..], ROLES[0].1),
        ("bb_call", &HRC_CALL[..], ROLES[1].1),
    ] {
        let cells = hrc_cells(grid, solutions, rows, freq);
        let agree = cells.iter().filter(|c| c.agrees()).count();
        let differ: Vec<&ChartCell> = cells.iter().filter(|c| !c.agrees()).collect();
        md.push_str(&format!(
            "\n### {} chart: {agree} of {} cells agree\n\n",
            if role == "sb_push" { "Push" } else { "Call" },
            cells.len()
        ));
        let table: Vec<Vec<String>> = cells
            .iter()
            .map(|c| {
                let mixed = if c.pure == c.any || (c.pure.is_nan() && c.any.is_nan()) {
                    String::new()
                } else {
                    format!("{} / {}", label(c.pure), label(c.any))
                };
                vec![
                    class_name(c.class),
                    label(c.published),
                    label(c.half),
                    mixed,
                    if c.agrees() { "yes" } else { "no" }.to_string(),
                ]
            })
            .collect();
        md.push_str(&markdown_table(
            &[
                "hand",
                "published",
                "ours (≥ 50 %)",
                "ours always / at all",
                "agrees",
            ],
            &table,
        ));
        if differ.is_empty() {
            md.push_str("\nEvery cell agrees.\n");
        } else {
            let words: Vec<String> = differ
                .iter()
                .map(|c| {
                    let why = if c.within_mixing() {
                        format!(
                            "played always up to {} bb, then at {:.0}–{:.0} % of the time up \
                             to {} bb; the published value lies in that mixing interval",
                            label(c.pure),
                            100.0 * c.mix.0,
                            100.0 * c.mix.1,
                            label(c.any)
                        )
                    } else {
                        "outside our mixing interval".to_string()
                    };
                    format!(
                        "{} (published {}, ours {}: {why})",
                        class_name(c.class),
                        label(c.published),
                        label(c.half)
                    )
                })
                .collect();
            md.push_str(&format!("\nCells that differ: {}.\n", words.join("; ")));
        }
        let within = cells.iter().filter(|c| c.within_mixing()).count();
        figures.push(Published {
            what: format!(
                "{} chart: published cells that agree, or lie in our mixing interval ± {} bb \
                 (of {})",
                if role == "sb_push" {
                    "SB push"
                } else {
                    "BB call"
                },
                HRC_TOLERANCE,
                cells.len()
            ),
            ours: within as f64,
            published: cells.len() as f64,
            decimals: 0,
            tolerance: None,
            source: "HoldemResources.net, heads-up push/fold Nash charts (no ante), every \
                     published cell",
        });
    }
    (md, figures)
}

/// Published equities against one random hand, beside the run's (`equity` of a class).
fn against_one_random_published(equity: impl Fn(usize) -> f64) -> Vec<Published> {
    [("AA", 0.852), ("KK", 0.824), ("QQ", 0.799), ("AKs", 0.670)]
        .into_iter()
        .filter_map(|(name, value)| {
            Some(Published {
                what: format!("{name} against one random hand"),
                ours: equity(parse_class(name)?),
                published: value,
                decimals: 3,
                tolerance: None,
                source: "preflop all-in equity tables of the standard equity calculators (e.g. PokerStove), to 0.1 %",
            })
        })
        .collect()
}

impl PreflopJob {
    pub(super) fn report(
        &self,
        meta: &JobMeta,
        wins: &[u64],
        ties: &[u64],
        deals: &[u64],
    ) -> anyhow::Result<Report> {
        let equity = |c: usize| (wins[c] as f64 + ties[c] as f64 / 2.0) / deals[c] as f64;
        let mut md = header("Texas Hold'em preflop", meta);
        md.push_str(&format!(
            ". Exact: every starting \
             hand against every opponent hand on every board ({} deals per combo; {} boards up \
             to suit permutation, each weighted by the boards it stands for). Equity = P(win) + \
             P(tie)/2.\n",
            DEALS_PER_COMBO,
            self.boards.len()
        ));
        md.push_str(&holdem_conventions(&[
            "Decisions (`pipeline query holdem` with a pot): P is the pot before our decision, \
             the bet we face included; C the amount to call; w our equity. EV(fold) = 0, \
             EV(call) = w·(P + C) − C, in chips; a raise is priced as `docs/rules/holdem.md` \
             states.",
        ]));
        md.push_str("\n## Equity against one random hand\n\nPairs on the diagonal, suited above, offsuit below.\n\n");
        let ranks: Vec<u8> = (0..13u8).rev().collect();
        let cell = |hi: u8, lo: u8, suited: bool| {
            equity(class_of(
                Card::new(hi, 0).expect("card"),
                Card::new(lo, if suited { 0 } else { 1 }).expect("card"),
            ))
        };
        md.push_str(&format!("![equity heatmap]({}/equity.svg)\n\n", meta.name));
        md.push_str(&rank_grid(&ranks, |hi, lo, suited| {
            format!("{:.3}", cell(hi, lo, suited))
        }));
        let mut order: Vec<usize> = (0..CLASSES).collect();
        order.sort_by(|&a, &b| equity(b).total_cmp(&equity(a)));
        let list = |cs: &[usize]| {
            cs.iter()
                .map(|&c| format!("{} {:.4}", class_name(c), equity(c)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        md.push_str(&format!(
            "\nStrongest: {}.\n\nWeakest: {}.\n",
            list(&order[..5]),
            list(&order[CLASSES - 5..])
        ));
        let published = against_one_random_published(equity);
        md.push_str(&published_box(&published)?);
        let chart = rank_grid_svg(
            "Equity against one random hand",
            "equity",
            cell,
            0.3,
            0.85,
            |v| format!("{v:.3}"),
        );
        let headline = vec![
            format!(
                "strongest against one random hand: {} (exact)",
                list(&order[..3])
            ),
            format!("weakest: {}", list(&order[CLASSES - 3..])),
        ];
        Ok(Report {
            markdown: md,
            charts: vec![("equity.svg".into(), chart)],
            headline,
        })
    }
}

impl HeadsUpJob {
    pub(super) fn report(
        &self,
        meta: &JobMeta,
        matrix: &ClassMatrix,
        results: &[MatchupResult],
    ) -> anyhow::Result<Report> {
        let mut md = header("Texas Hold'em heads-up", meta);
        let total: u64 = self.matchups.iter().map(|m| u64::from(m.weight)).sum();
        md.push_str(&format!(
            ". Exact: every pair of \
             starting hands over all {BOARDS} boards. The {} raw matchups (unordered pairs of \
             disjoint hands) fall into {} classes equal up to suit permutation and order; each \
             class is solved once by scoring the boards by rank multiset (6,175 of them) and \
             then correcting only the boards where a flush is possible. Every class's row of the \
             matrix, summed over opponents, equals its result against a random hand from the \
             independent board sweep of `holdem.preflop` (checked on every run).\n",
            total,
            self.matchups.len()
        ));
        md.push_str(&holdem_conventions(&[
            "A matrix cell is the row class's equity against the column class, over their \
             combos that share no card; the row and column equities of a cell sum to 1.",
        ]));
        md.push('\n');
        let find = |a: &str, b: &str| -> Option<f64> {
            let (ca, cb) = (parse_class(a)?, parse_class(b)?);
            Some(matrix.equity(ca, cb))
        };
        let famous = [
            ("AA", "KK"),
            ("AKs", "QQ"),
            ("AKo", "22"),
            ("AKs", "AQs"),
            ("KK", "AKo"),
            ("JTs", "AKo"),
            ("72o", "AA"),
            ("22", "AKs"),
        ];
        let rows: Vec<Vec<String>> = famous
            .iter()
            .filter_map(|&(a, b)| {
                find(a, b).map(|e| vec![a.to_string(), b.to_string(), format!("{e:.4}")])
            })
            .collect();
        md.push_str("## Classic matchups\n\nClass against class, averaged over their combos that share no card.\n\n");
        md.push_str(&markdown_table(&["hand", "against", "equity"], &rows));
        if let Some(aa_kk) = find("AA", "KK") {
            md.push_str(&published_box(&[Published {
                what: "AA against KK".into(),
                ours: aa_kk,
                published: 0.8195,
                decimals: 4,
                tolerance: None,
                source: "the standard equity calculators (e.g. PokerStove), 81.95 %",
            }])?);
        }
        // Each class is stored with its first hand the lower-numbered one, often the
        // underdog: show the favourite first.
        let show = |m: &Matchup, r: &MatchupResult| {
            let hand = |i: u16| {
                let [x, y] = two_cards(i);
                format!("{y}{x}")
            };
            let e = r.equity();
            if e >= 0.5 {
                format!("{} against {} ({e:.4})", hand(m.a), hand(m.b))
            } else {
                format!("{} against {} ({:.4})", hand(m.b), hand(m.a), 1.0 - e)
            }
        };
        let by = |key: &dyn Fn(&MatchupResult) -> f64| {
            results
                .iter()
                .zip(&self.matchups)
                .max_by(|x, y| key(x.0).total_cmp(&key(y.0)))
                .map(|(r, m)| show(m, r))
                .unwrap_or_default()
        };
        md.push_str(&format!(
            "\nMost lopsided matchup: {}. Closest to even without being a mirror: {}.\n",
            by(&|r| (r.equity() - 0.5).abs()),
            by(&|r| if r.wins == r.losses() {
                f64::NEG_INFINITY
            } else {
                -(r.equity() - 0.5).abs()
            })
        ));
        let ranks_high_first: Vec<u8> = (0..13u8).rev().collect();
        let mut charts = Vec::new();
        for hero in ["AA", "AKs", "72o"] {
            let Some(h) = parse_class(hero) else { continue };
            md.push_str(&format!(
                "\n## {hero} against every class\n\n![{hero} heads-up]({}/{hero}.svg)\n\n",
                meta.name
            ));
            let cell = |hi: u8, lo: u8, suited: bool| {
                let c = class_of(
                    Card::new(hi, 0).expect("card"),
                    Card::new(lo, if suited { 0 } else { 1 }).expect("card"),
                );
                matrix.equity(h, c)
            };
            md.push_str(&rank_grid(&ranks_high_first, |hi, lo, suited| {
                format!("{:.3}", cell(hi, lo, suited))
            }));
            charts.push((
                format!("{hero}.svg"),
                rank_grid_svg(
                    &format!("Equity of {hero} against each class"),
                    "equity",
                    cell,
                    0.0,
                    1.0,
                    |v| format!("{v:.3}"),
                ),
            ));
        }
        let headline = vec![
            format!(
                "class against class (exact): {}",
                rows.iter()
                    .take(3)
                    .map(|r| format!("{} vs {} {}", r[0], r[1], r[2]))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            format!(
                "most lopsided matchup: {}",
                by(&|r| (r.equity() - 0.5).abs())
            ),
        ];
        Ok(Report {
            markdown: md,
            charts,
            headline,
        })
    }
}

impl MultiwayJob {
    pub(super) fn report(
        &self,
        meta: &JobMeta,
        rows: &Rows,
        worst: f64,
        deals: u64,
    ) -> anyhow::Result<Report> {
        let mut md = header("Texas Hold'em multiway", meta);
        md.push_str(&format!(
            ". Against one opponent and two opponents the results are exact (every opponent \
             hand, or every pair of them, on every board); against 3 to 9 random opponents \
             each class is sampled with its own seeded PCG-64 stream. A deal seats up to nine \
             opponents and its first n of them are one trial against n, so every deal counts \
             in each column (past the third opponent, dealing stops once an opponent beats \
             the hero, who then loses every larger table too); sampling goes on until every \
             column's standard error is at most {:.0e} (largest: {worst:.2e}; {deals} deals \
             in all). Equity counts a split pot as the hero's share of it.\n",
            self.target
        ));
        md.push_str(&holdem_conventions(&[
            "Against n opponents every opponent holds a random hand; the fair share of the pot \
             is 1/(n + 1), and equity × (n + 1) says how a class does against it. The table \
             prints the exact columns (1 and 2 opponents) to four decimals and each sampled \
             one (3 to 9) with its standard error.",
        ]));
        let equity = |class: usize, n: usize| rows.equity[(n - 1) * CLASSES + class];
        let std_error = |class: usize, n: usize| rows.std_error[(n - 1) * CLASSES + class];
        // The one-opponent column is exact.
        md.push_str(&published_box(&against_one_random_published(|c| {
            equity(c, 1)
        }))?);
        md.push('\n');
        let mut header = vec!["class".to_string()];
        header.extend((1..=MAX_OPPONENTS).map(|n| format!("{n} opp.")));
        let header: Vec<&str> = header.iter().map(String::as_str).collect();
        let shown = [
            "AA", "KK", "QQ", "AKs", "AKo", "JJ", "TT", "AQs", "KQs", "JTs", "77", "22", "T9s",
            "54s", "A2o", "72o",
        ];
        let table: Vec<Vec<String>> = shown
            .iter()
            .filter_map(|name| super::classes::parse_class(name))
            .map(|c| {
                let mut row = vec![class_name(c)];
                row.extend((1..=MAX_OPPONENTS).map(|n| match std_error(c, n) {
                    se if se > 0.0 => with_error(equity(c, n), se, false),
                    _ => format!("{:.4}", equity(c, n)),
                }));
                row
            })
            .collect();
        md.push_str("## Equity by number of opponents\n\n");
        md.push_str(&markdown_table(&header, &table));
        md.push_str("\nEvery class and opponent count is in `multiway.parquet`.\n");
        let (md_chart, chart) = multiway_chart(meta, &equity, &std_error)?;
        md.push_str(&md_chart);
        let aa = super::classes::parse_class("AA").map(|c| {
            (1..=MAX_OPPONENTS)
                .map(|n| match std_error(c, n) {
                    se if se > 0.0 => with_error(equity(c, n), se, false),
                    _ => format!("{:.4}", equity(c, n)),
                })
                .collect::<Vec<_>>()
                .join(", ")
        });
        let headline = vec![
            format!(
                "AA against 1 to {MAX_OPPONENTS} random opponents: {}",
                aa.unwrap_or_default()
            ),
            format!("1 and 2 opponents exact; 3 and more Monte Carlo, largest standard error {worst:.1e}"),
        ];
        Ok(Report {
            markdown: md,
            charts: vec![("multiway.svg".into(), chart)],
            headline,
        })
    }
}

/// Opponent counts the multiway chart draws.
const CHART_OPPONENTS: [usize; 4] = [1, 2, 5, 9];

/// The multiway chart and its text: each class's equity as a multiple of its fair share
/// 1/(n + 1), classes in order of heads-up equity, for 1, 2, 5 and 9 opponents, and the
/// classes whose share grows most from heads-up to the largest table.
fn multiway_chart(
    meta: &JobMeta,
    equity: &dyn Fn(usize, usize) -> f64,
    std_error: &dyn Fn(usize, usize) -> f64,
) -> anyhow::Result<(String, String)> {
    let counts: Vec<usize> = CHART_OPPONENTS
        .into_iter()
        .filter(|&n| n <= MAX_OPPONENTS)
        .collect();
    let most = *counts.last().expect("one opponent is always covered");
    let share = |c: usize, n: usize| equity(c, n) * (n + 1) as f64;
    let mut order: Vec<usize> = (0..CLASSES).collect();
    order.sort_by(|&a, &b| equity(b, 1).total_cmp(&equity(a, 1)).then(a.cmp(&b)));
    let mut lines: Vec<Line> = counts
        .iter()
        .enumerate()
        .map(|(colour, &n)| {
            Line::solid(
                format!("{n} opponent{}", if n > 1 { "s" } else { "" }),
                order
                    .iter()
                    .enumerate()
                    .map(|(k, &c)| ((k + 1) as f64, share(c, n)))
                    .collect(),
                colour,
            )
        })
        .collect();
    lines.push(Line::dashed(
        "fair share",
        vec![(1.0, 1.0), (CLASSES as f64, 1.0)],
        6,
    ));
    let method = if most > 2 {
        "1 and 2 exact, more by Monte Carlo"
    } else {
        "exact"
    };
    let svg = line_chart_svg(
        &format!("Equity as a multiple of the fair share 1/(n + 1) ({method})"),
        "class, by equity against one opponent (strongest first)",
        "equity × (n + 1)",
        &lines,
        &[],
    )?;
    // The classes whose multiple grows most from one opponent to the most.
    let mut gain: Vec<usize> = (0..CLASSES).collect();
    gain.sort_by(|&a, &b| {
        (share(b, most) / share(b, 1))
            .total_cmp(&(share(a, most) / share(a, 1)))
            .then(a.cmp(&b))
    });
    // A multiple against a sampled column carries its standard error.
    let multiple = |c: usize, n: usize| {
        let se = std_error(c, n) * (n + 1) as f64;
        if se > 0.0 {
            with_error(share(c, n), se, false)
        } else {
            format!("{:.2}", share(c, n))
        }
    };
    let named = |cs: &[usize]| {
        cs.iter()
            .map(|&c| {
                format!(
                    "{} ({} → {})",
                    class_name(c),
                    multiple(c, 1),
                    multiple(c, most)
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let md = format!(
        "\n## Who gains in multiway pots\n\n![equity against the fair share]({}/multiway.svg)\n\n\
         A hand's fair share against n opponents is 1/(n + 1) of the pot; the chart divides \
         each class's equity by it, with the classes ordered by their equity against one \
         opponent. Above 1 a hand takes more than its share. The classes whose multiple \
         grows most from one opponent to {most} (multiple against 1 → against {most}): {}. \
         Those that lose most: {}.\n",
        meta.name,
        named(&gain[..5]),
        named(&gain[CLASSES - 5..]),
    );
    Ok((md, svg))
}

/// An exploitability in scientific notation (`0` when exactly zero).
/// The push/fold report's table of marginal cells for one role: every class whose play
/// beyond the end of its first charted run (gaps, islands, a low-frequency tail) is not a
/// plain fold, with the EV margin of playing over folding across those stacks, so that a
/// reader sees how little such a cell is worth.
fn marginal_cells(
    grid: &super::rules::StackGrid,
    solutions: &[Equilibrium],
    role: &str,
    freq: super::tables::Frequency,
    runs: &[Vec<(usize, usize)>],
) -> String {
    let margin = |k: usize, c: usize| {
        if role == "sb_push" {
            solutions[k].push_margin(c)
        } else {
            solutions[k].call_margin(c)
        }
    };
    let label = |k: usize| grid.label(grid.stack(k));
    let rows: Vec<Vec<String>> = (0..CLASSES)
        .filter_map(|c| {
            let any_top = (0..grid.count)
                .rev()
                .find(|&k| freq(&solutions[k], c) > 0.0)?;
            let first_end = runs[c].first().map_or(0, |r| r.1 + 1);
            let chart_top = runs[c].last().map(|r| r.1);
            if any_top < first_end {
                return None;
            }
            let span = first_end..=any_top;
            let (lo, hi) = span
                .clone()
                .map(|k| margin(k, c))
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), m| {
                    (lo.min(m), hi.max(m))
                });
            let played: Vec<f64> = span
                .clone()
                .map(|k| freq(&solutions[k], c))
                .filter(|&f| f > 0.0)
                .collect();
            Some(vec![
                class_name(c),
                chart_top.map_or("–".into(), label),
                label(any_top),
                format!("{}–{}", label(first_end), label(any_top)),
                format!(
                    "{} of {} ({:.0}–{:.0} %)",
                    played.len(),
                    any_top + 1 - first_end,
                    100.0 * played.iter().copied().fold(1.0, f64::min),
                    100.0 * played.iter().copied().fold(0.0, f64::max)
                ),
                format!("{} to {}", bb5(lo), bb5(hi)),
            ])
        })
        .collect();
    if rows.is_empty() {
        return String::new();
    }
    let action = if role == "sb_push" {
        "pushing"
    } else {
        "calling"
    };
    format!(
        "\nMarginal cells: where a hand is played again, or at a low frequency, past the end \
         of its first charted run, the EV margin of {action} over folding across those stacks \
         (0 where it mixes: an indifferent hand). Margins are in `pushfold.parquet`.\n\n{}",
        markdown_table(
            &[
                "hand",
                "chart to (bb)",
                "any frequency to (bb)",
                "stacks",
                "played at",
                "margin (bb)",
            ],
            &rows,
        )
    )
}

/// A margin in bb to five decimals, with no sign on a margin that rounds to 0.
fn bb5(m: f64) -> String {
    let text = format!("{m:+.5}");
    if text.trim_start_matches(['+', '-']) == "0.00000" {
        "0".into()
    } else {
        text
    }
}

fn exploitability_text(x: f64) -> String {
    if x == 0.0 {
        "0".into()
    } else {
        format!("{x:.1e}")
    }
}

/// The class index of a grid cell (card-id ranks, high first).
fn grid_class(hi: u8, lo: u8, suited: bool) -> usize {
    class_of(
        Card::new(hi, 0).expect("card"),
        Card::new(lo, if suited { 0 } else { 1 }).expect("card"),
    )
}

impl PushFoldJob {
    pub(super) fn report(
        &self,
        meta: &JobMeta,
        matrix: &ClassMatrix,
        solutions: &[Equilibrium],
        unique: &[bool],
    ) -> anyhow::Result<Report> {
        let grid = &self.grid;
        let label = |s: f64| grid.label(s);
        let (first, last) = (grid.stack(0), grid.stack(grid.count - 1));
        let ante = self.rules.ante;
        let mut md = header("Texas Hold'em heads-up push/fold", meta);
        md.push_str(&format!(
            ". The exact jam-or-fold equilibrium at {} effective stacks from {} to {} big blinds \
             (steps of {}), ante {ante} bb.\n\n",
            grid.count,
            label(first),
            label(last),
            grid.step
        ));
        md.push_str(&format!(
            "**The game.** Each player posts an ante of {ante} bb; the small blind (SB) posts \
             0.5 bb and the big blind (BB) 1 bb. The effective stack S counts the blinds and \
             antes (a player who goes all-in risks S in all). The SB folds, losing {:.4} bb, or \
             goes all-in; the BB folds, losing {:.4} bb, or calls, and the board is dealt. \
             Amounts are chip EV in big blinds per hand; the game is zero-sum, so the BB's \
             value is the negative of the SB's.\n\n",
            0.5 + ante,
            1.0 + ante
        ));
        md.push_str(
            "**How it was computed.** All 47,008 heads-up matchup classes are solved exactly \
             over every board (as in `holdem.headsup`; this job recomputes them and reads no \
             other job's files) and summed into the number of disjoint combo pairs and the \
             total equity of each (SB class, BB class): full card removal, since a strategy \
             that treats a class's combos alike is worth the same to each of them. At each \
             stack the SB's maximin push frequencies are a linear program over the 169 \
             classes, solved by the simplex method; its dual prices are the BB's minimax call \
             frequencies. Frequencies within 1e-9 of 0 or 1 are rounded to them, and the \
             **exploitability** of the published strategies (what the SB gains by a best \
             response plus what the BB gains by one) is then computed directly from the \
             payoffs.\n",
        );
        let certified = unique.iter().filter(|&&u| u).count();
        let uncertified: Vec<String> = solutions
            .iter()
            .zip(unique)
            .filter(|(_, &u)| !u)
            .map(|(e, _)| label(e.stakes.stack))
            .collect();
        md.push_str(&format!(
            "\n**Which equilibrium.** At {certified} of the {} stacks the equilibrium is \
             certified to be the only one among strategies that play every combo of a class \
             alike: the classes whose two actions have equal EV (within 1e-9 bb) are exactly \
             the mixed ones, both players mix the same number of classes, and the matrix of \
             what the BB's mixed classes gain by calling against the SB's is non-singular, \
             which pins every mixed frequency (docs/rules/holdem.md). There the frequencies \
             are the game's, not the solver's: every solver that converges, fictitious play \
             included, converges to the same ones. (Where each combo is its own choice, a \
             mixed class's frequency can be split among its combos in many ways of equal \
             value.){}\n",
            grid.count,
            if uncertified.is_empty() {
                String::new()
            } else {
                format!(
                    " At {} the certificate fails, and the frequencies of the mixed classes \
                     are one equilibrium of several.",
                    uncertified.join(", ")
                )
            }
        ));
        md.push_str(&holdem_conventions(&[
            "Amounts are chip EV in big blinds per hand, the player's net result counting the \
             blinds and antes it posted; no tournament (ICM) equity. Push % and call % count \
             the 1,326 starting hands, a mixed class by its frequency.",
        ]));
        md.push_str(&pushfold_published(grid, ante, matrix, solutions)?);
        // The summary at round stacks.
        let wanted = [2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.0, 15.0, 20.0, 25.0];
        let shown: Vec<&Equilibrium> = solutions
            .iter()
            .filter(|e| wanted.iter().any(|w| (e.stakes.stack - w).abs() < 1e-9))
            .collect();
        let worst = solutions
            .iter()
            .map(|e| e.evaluation.exploitability())
            .fold(f64::MIN, f64::max);
        md.push_str("\n## Summary\n\n");
        md.push_str(&format!(
            "SB push % and BB call % are shares of all 1,326 starting hands (mixed classes \
             count by frequency); the BB's share is of the hands it holds, whatever the SB \
             holds. Largest exploitability over all {} stacks: {} bb (target {:e} bb). Every \
             stack is in `summary.parquet`.\n\n",
            grid.count,
            exploitability_text(worst),
            self.settings.target_exploitability
        ));
        let rows: Vec<Vec<String>> = shown
            .iter()
            .map(|e| {
                vec![
                    label(e.stakes.stack),
                    format!("{:.2}", 100.0 * range_share(&e.push)),
                    format!("{:.2}", 100.0 * range_share(&e.call)),
                    format!("{:+.4}", e.evaluation.value),
                    exploitability_text(e.evaluation.exploitability()),
                ]
            })
            .collect();
        md.push_str(&markdown_table(
            &[
                "stack (bb)",
                "SB push %",
                "BB call %",
                "SB value (bb)",
                "exploitability (bb)",
            ],
            &rows,
        ));
        md.push_str(&format!(
            "\n![push and call share by stack]({}/ranges.svg)\n",
            meta.name
        ));
        // The two charts.
        let mut charts = Vec::new();
        let ranks: Vec<u8> = (0..13u8).rev().collect();
        for (role, freq) in ROLES {
            let (title, file, who) = match role {
                "sb_push" => (
                    "Small blind: largest stack (bb) at which the hand is pushed",
                    "push.svg",
                    "pushes",
                ),
                _ => (
                    "Big blind: largest stack (bb) at which the hand calls a push",
                    "call.svg",
                    "calls",
                ),
            };
            let runs: Vec<Vec<(usize, usize)>> = (0..CLASSES)
                .map(|c| intervals(grid.count, |k| charted(freq(&solutions[k], c))))
                .collect();
            let text = |c: usize| -> String {
                match runs[c].last() {
                    None => "–".to_string(),
                    Some(&(_, top)) => {
                        let mut t = if top == grid.count - 1 {
                            format!("{}+", label(last))
                        } else {
                            label(grid.stack(top))
                        };
                        if runs[c].len() > 1 {
                            t.push('*');
                        }
                        t
                    }
                }
            };
            md.push_str(&format!(
                "\n## {}\n\nEach cell: the largest stack at which the {} {who} the hand at \
                 least {:.0} % of the time, our charts' threshold (a hand mixed at a \
                 low frequency past its range does not widen its cell; the bound at any \
                 frequency is `max_stack_any` in `thresholds.parquet`); `{}+`: at every stack \
                 up to the top of the grid; `*`: not at every smaller stack (a gap, listed \
                 below); `–`: never from {} bb up. Pairs on the diagonal, suited above, offsuit \
                 below.\n\n![{role}]({}/{file})\n\n",
                if role == "sb_push" {
                    "Small blind: push chart"
                } else {
                    "Big blind: call chart"
                },
                if role == "sb_push" { "SB" } else { "BB" },
                100.0 * CHART_FREQUENCY,
                label(last),
                label(first),
                meta.name
            ));
            md.push_str(&rank_grid(&ranks, |hi, lo, suited| {
                text(grid_class(hi, lo, suited))
            }));
            let gaps: Vec<String> = (0..CLASSES)
                .filter(|&c| runs[c].len() > 1)
                .map(|c| {
                    let spans: Vec<String> = runs[c]
                        .iter()
                        .map(|&(a, b)| format!("{}–{}", label(grid.stack(a)), label(grid.stack(b))))
                        .collect();
                    format!("{} ({})", class_name(c), spans.join(", "))
                })
                .collect();
            md.push_str(&if gaps.is_empty() {
                "\nNo hand has a gap.\n".to_string()
            } else {
                format!(
                    "\nHands with gaps, played only at the stacks shown: {}.\n",
                    gaps.join("; ")
                )
            });
            md.push_str(&marginal_cells(grid, solutions, role, freq, &runs));
            let svg = rank_grid_svg_cells(
                title,
                "stack (bb)",
                |hi, lo, suited| {
                    let c = grid_class(hi, lo, suited);
                    let v = runs[c]
                        .last()
                        .map_or(first - grid.step, |&(_, top)| grid.stack(top));
                    (v, text(c))
                },
                first,
                last,
            );
            charts.push((file.to_string(), svg));
        }
        // Mixed strategies at the summary stacks.
        md.push_str("\n## Mixed strategies\n\nClasses played at a frequency strictly between 0 and 1 at the summary stacks (each such class is indifferent between its two actions).\n\n");
        let mixed = |f: &[f64]| -> String {
            let m: Vec<String> = (0..CLASSES)
                .filter(|&c| f[c] > 0.0 && f[c] < 1.0)
                .map(|c| format!("{} {:.4}", class_name(c), f[c]))
                .collect();
            if m.is_empty() {
                "none".into()
            } else {
                m.join(", ")
            }
        };
        let rows: Vec<Vec<String>> = shown
            .iter()
            .map(|e| vec![label(e.stakes.stack), mixed(&e.push), mixed(&e.call)])
            .collect();
        md.push_str(&markdown_table(
            &["stack (bb)", "SB mixes", "BB mixes"],
            &rows,
        ));
        let series = |f: fn(&Equilibrium) -> f64| -> Vec<(f64, f64)> {
            solutions.iter().map(|e| (e.stakes.stack, f(e))).collect()
        };
        charts.push((
            "ranges.svg".to_string(),
            line_chart_svg(
                "Share of starting hands played at the equilibrium",
                "effective stack (bb)",
                "% of the 1,326 hands",
                &[
                    Line::solid("SB pushes", series(|e| 100.0 * range_share(&e.push)), 0),
                    Line::solid("BB calls", series(|e| 100.0 * range_share(&e.call)), 1),
                ],
                &[],
            )?,
        ));
        md.push_str(
            "\n## Tables\n\n`pushfold.parquet` (every class at every stack: frequencies and \
             EVs), `thresholds.parquet` (every interval of stacks where each hand is played), \
             `summary.parquet` (one row per stack) and `pushfold.bin` (the runtime table: \
             `cardtables::PushFold`, or `pipeline query pushfold`).\n",
        );
        let headline = shown
            .iter()
            .filter(|e| [10.0, 20.0].contains(&e.stakes.stack))
            .map(|e| {
                format!(
                    "{} bb: SB pushes {:.2} %, BB calls {:.2} % of hands (SB value {:+.4} bb)",
                    label(e.stakes.stack),
                    100.0 * range_share(&e.push),
                    100.0 * range_share(&e.call),
                    e.evaluation.value
                )
            })
            .chain([format!(
                "largest exploitability {} bb",
                exploitability_text(worst)
            )])
            .collect();
        Ok(Report {
            markdown: md,
            charts,
            headline,
        })
    }
}

impl PostflopSettings {
    /// The post-flop report: the states per street, the one-half identity, worked
    /// examples, the flop's (E[HS], E[HS²]) distribution, and a made hand against a draw
    /// of the same E[HS]. `river_example` is the wins and ties of As Ad on Kc 8h 5d 3s 2c.
    pub(super) fn report(
        &self,
        meta: &JobMeta,
        river_boards: usize,
        river_example: (u16, u16),
        preflop: &Strength<u32>,
        flop: &Strength<u16>,
        turn: &Strength<u8>,
    ) -> anyhow::Result<Report> {
        let settings = self;
        let ix = HoldemIndexer::new();
        let bins = flop.bins;
        let mut md = header("Texas Hold'em hand strength after the flop", meta);
        md.push_str(&format!(
            ". Exact: every state (hole cards and board, up to suit permutation) of every \
             street against one random opponent hand, over every runout. The river results of \
             the {} river boards up to suit permutation come from one ranking of their 1,081 \
             holdings each; the turn sums its 46 rivers, the flop its 1,081 turn–river pairs, \
             a starting hand its 2,118,760 boards, all in integers.\n",
            group(river_boards as u64)
        ));
        md.push_str(&holdem_conventions(&[
            "HS (river): against the 990 opponent holdings of the 45 unseen cards, \
             (wins + ties/2) / 990. E[HS] and E[HS²] (earlier streets): the mean of the \
             river HS and of its square over every runout, each equally likely.",
            &format!(
                "Histogram: the runouts by river HS in {bins} equal bins; bin k holds HS in \
                 [k/{bins}, (k+1)/{bins}), the last also HS = 1."
            ),
            "Deals: the raw (hole cards, board) deals a state stands for, each a set of \
             cards; weighting by deals gives every deal the same weight.",
        ]));
        md.push_str("\n## States per street\n\n");
        let written = |name: &str| {
            if settings
                .streets
                .iter()
                .any(|s| format!("{s:?}").to_lowercase() == name)
            {
                format!("`{name}.parquet`, `strength_{name}.bin`")
            } else {
                "computed, not written".to_string()
            }
        };
        let raw = [1_326u64, 1_326 * 19_600, 1_326 * 230_300, 1_326 * 2_118_760];
        let rows: Vec<Vec<String>> = (0..4)
            .map(|s| {
                vec![
                    STREET_NAMES[s].to_string(),
                    group(cardtables::indexer::STATES[s]),
                    group(raw[s]),
                    group(RUNOUTS[s]),
                    written(STREET_NAMES[s]),
                ]
            })
            .collect();
        md.push_str(&markdown_table(
            &[
                "street",
                "states",
                "raw deals",
                "runouts per state",
                "tables",
            ],
            &rows,
        ));
        md.push_str(
            "\nEvery run checks, in integers, that the preflop and flop strengths average \
             exactly one half over every raw deal (Σ deals · Σ score = Σ deals · runouts · 990, \
             score = 2·wins + ties): on each board every pair of holdings is a win for one and \
             a loss for the other, or a tie for both. `scripts/test.sh` checks the same on the \
             written tables in DuckDB, and the tests on every street.\n",
        );
        md.push_str("\n## Examples\n\n");
        let cards = |t: &str| cardtables::parse_cards(t).expect("example cards");
        let mut rows = Vec::new();
        for (hole, board) in [("As Ah", ""), ("7c 2d", "")] {
            let i = ix.index(&cards(hole), &[])? as usize;
            rows.push(vec![
                hole.into(),
                "—".into(),
                "preflop".into(),
                format!("{:.6}", preflop.ehs(i)),
                format!("{:.6}", preflop.ehs2(i)),
            ]);
            let _ = board;
        }
        for (hole, board) in [("Ah Kh", "Qh Jh 2c"), ("Ts 9s", "8s 7d 2c")] {
            let i = ix.index(&cards(hole), &cards(board))? as usize;
            rows.push(vec![
                hole.into(),
                board.into(),
                "flop".into(),
                format!("{:.6}", flop.ehs(i)),
                format!("{:.6}", flop.ehs2(i)),
            ]);
        }
        let (hole, board) = ("7c 2d", "As Kd Qh 9s");
        let i = ix.index(&cards(hole), &cards(board))? as usize;
        rows.push(vec![
            hole.into(),
            board.into(),
            "turn".into(),
            format!("{:.6}", turn.ehs(i)),
            format!("{:.6}", turn.ehs2(i)),
        ]);
        let (hole, board) = ("As Ad", "Kc 8h 5d 3s 2c");
        let (w, t) = river_example;
        let hs = (f64::from(w) + f64::from(t) / 2.0) / 990.0;
        rows.push(vec![
            hole.into(),
            board.into(),
            format!(
                "river ({w} wins, {t} {}, {} losses)",
                if t == 1 { "tie" } else { "ties" },
                990 - w - t
            ),
            format!("{hs:.6}"),
            format!("{:.6}", hs * hs),
        ]);
        md.push_str(&markdown_table(
            &["hole", "board", "street", "E[HS] (HS)", "E[HS²] (HS²)"],
            &rows,
        ));
        // The flop's distribution of (E[HS], E[HS²]), weighted by deals.
        const GRID: usize = 10;
        let mut grid = vec![vec![0f64; GRID]; GRID];
        let mut total = 0f64;
        for i in 0..flop.states() {
            let s = ix.unindex(FLOP, i as u64)?;
            let d = f64::from(deals(&s.hole, s.board()));
            let x = ((flop.ehs(i) * GRID as f64) as usize).min(GRID - 1);
            let y = ((flop.ehs2(i) * GRID as f64) as usize).min(GRID - 1);
            grid[GRID - 1 - y][x] += d;
            total += d;
        }
        for row in &mut grid {
            for v in row.iter_mut() {
                *v *= 100.0 / total;
            }
        }
        let label = |k: usize| {
            format!(
                "{:.1}–{:.1}",
                k as f64 / GRID as f64,
                (k + 1) as f64 / GRID as f64
            )
        };
        let columns: Vec<String> = (0..GRID).map(label).collect();
        let row_names: Vec<String> = (0..GRID).rev().map(label).collect();
        let top = grid.iter().flatten().cloned().fold(0.0, f64::max);
        let heat = heat_grid_svg(
            "Flop states by E[HS] (columns) and E[HS²] (rows), % of deals",
            &row_names,
            &columns,
            &grid,
            (0.0, top),
            "% of deals",
            |v| {
                if v > 0.0 {
                    format!("{v:.2}")
                } else {
                    String::new()
                }
            },
        );
        md.push_str(&format!(
            "\n## E[HS] and E[HS²] on the flop\n\nThe share of flop deals in each cell of \
             E[HS] (columns) and E[HS²] (rows). E[HS²] ≥ E[HS]², with equality only when \
             every runout gives the same HS: the higher a state sits above that bound, the more \
             its strength still depends on the cards to come.\n\n\
             ![flop E[HS] and E[HS²]]({}/flop_ehs_ehs2.svg)\n",
            meta.name
        ));
        // A draw and a made hand of about the same E[HS] on one flop.
        let board = cards("8s 7d 2c");
        let draw_hole = cards("Ts 9s");
        let draw = ix.index(&draw_hole, &board)? as usize;
        let used = board
            .iter()
            .chain(&draw_hole)
            .fold(0u64, |m, c| m | 1 << c.id());
        let mut best: Option<(usize, [Card; 2], f64)> = None;
        for a in 0..52u8 {
            for b in a + 1..52 {
                if (used | board.iter().fold(0u64, |m, c| m | 1 << c.id())) >> a & 1 == 1
                    || used >> b & 1 == 1
                {
                    continue;
                }
                let hole = [Card::from_id(a).expect("id"), Card::from_id(b).expect("id")];
                let i = ix.index(&hole, &board)? as usize;
                if (flop.ehs(i) - flop.ehs(draw)).abs() > 0.01 {
                    continue;
                }
                let spread = flop.ehs2(i) - flop.ehs(i) * flop.ehs(i);
                if best.is_none_or(|(_, _, s)| spread < s) {
                    best = Some((i, hole, spread));
                }
            }
        }
        let mut charts = vec![("flop_ehs_ehs2.svg".to_string(), heat)];
        if let Some((made, made_hole, _)) = best {
            let line = |i: usize| -> Vec<(f64, f64)> {
                flop.histogram(i)
                    .iter()
                    .enumerate()
                    .map(|(k, &n)| {
                        (
                            (k as f64 + 0.5) / bins as f64,
                            f64::from(n) / RUNOUTS[FLOP] as f64,
                        )
                    })
                    .collect()
            };
            let name = |h: &[Card]| crate::cards::text(h);
            let chart = line_chart_svg(
                "River HS over the 1,081 runouts of the flop 8s 7d 2c",
                "river HS",
                "share of runouts",
                &[
                    Line::solid(format!("{} (draw)", name(&draw_hole)), line(draw), 0),
                    Line::solid(format!("{} (made hand)", name(&made_hole)), line(made), 1),
                ],
                &[],
            )?;
            charts.push(("made_vs_draw.svg".to_string(), chart));
            let sd = |i: usize| (flop.ehs2(i) - flop.ehs(i) * flop.ehs(i)).max(0.0).sqrt();
            md.push_str(&format!(
                "\n## Same E[HS], different futures\n\nOn 8s 7d 2c, {} (an open-ended straight \
                 draw with a backdoor flush draw) and {} (the holding within 0.01 of its E[HS] whose river HS varies least) \
                 have nearly the same E[HS] but opposite futures: the draw's runouts split into \
                 hits near HS 1 and misses far below, the made hand's gather near its mean. \
                 E[HS] alone cannot tell them apart; E[HS²] and the histogram can.\n\n",
                name(&draw_hole),
                name(&made_hole)
            ));
            md.push_str(&markdown_table(
                &["hole", "E[HS]", "E[HS²]", "s.d. of river HS"],
                &[draw, made]
                    .iter()
                    .zip([&draw_hole[..], &made_hole[..]])
                    .map(|(&i, h)| {
                        vec![
                            name(h),
                            format!("{:.4}", flop.ehs(i)),
                            format!("{:.4}", flop.ehs2(i)),
                            format!("{:.4}", sd(i)),
                        ]
                    })
                    .collect::<Vec<_>>(),
            ));
            md.push_str(&format!(
                "\n![made hand against draw]({}/made_vs_draw.svg)\n",
                meta.name
            ));
        }
        let aa = ix.index(&cards("As Ah"), &[])? as usize;
        Ok(Report {
            markdown: md,
            charts,
            headline: vec![format!(
                "AA preflop E[HS] {:.6}; {} flop, {} turn and {} river states",
                preflop.ehs(aa),
                group(cardtables::indexer::STATES[FLOP]),
                group(cardtables::indexer::STATES[2]),
                group(cardtables::indexer::STATES[3])
            )],
        })
    }
}

/// An integer with thousands separators: 1,286,792.
fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Triples the three-way report lists by name when the job covers them.
const NAMED_TRIPLES: [[&str; 3]; 6] = [
    ["AKs", "QQ", "JTs"],
    ["AA", "KK", "QQ"],
    ["AA", "KK", "AKs"],
    ["AKo", "QJo", "T9o"],
    ["QQ", "AKo", "JTs"],
    ["22", "AKo", "T9s"],
];

/// The three-way report lists every triple when there are at most this many.
const LIST_ALL_TRIPLES: usize = 120;

/// Whether the cards allow three classes at once: no rank is needed more than four times
/// (a pair takes two of its rank, any other class one of each of its two ranks). The
/// report checks the job's impossible triples against this rule.
fn cards_allow(classes: [u8; 3]) -> bool {
    let mut needed = [0u8; 13];
    for c in classes {
        let name = class_name(usize::from(c));
        let rank = |ch: char| "23456789TJQKA".find(ch).expect("a rank character");
        let mut chars = name.chars();
        let (hi, lo) = (
            rank(chars.next().expect("two ranks")),
            rank(chars.next().expect("two ranks")),
        );
        needed[hi] += 1;
        needed[lo] += 1;
    }
    needed.iter().all(|&n| n <= 4)
}

impl ThreeWayJob {
    pub(super) fn report(
        &self,
        meta: &JobMeta,
        results: &[TripleResult],
    ) -> anyhow::Result<Report> {
        let classes = &self.settings.classes;
        let name = |c: u8| class_name(usize::from(c));
        let mut md = header("Texas Hold'em three-way all-in", meta);
        md.push_str(&format!(
            ". Exact: for each triple of starting-hand classes, every deal of the three \
             classes' combinations that share no card, and for each deal every board of the \
             46 cards left ({THREEWAY_BOARDS}).\n"
        ));
        md.push_str(&holdem_conventions(&[
            "Triples: each is computed once, its classes in increasing class index (pairs AA \
             to 22, then suited AK to 32, then offsuit AK to 32), the order of \
             `threeway.parquet`'s `class_a`, `class_b`, `class_c`; `pipeline query holdem A B C` \
             and the runtime table answer in any order.",
            "A class's equity in a triple is its mean over the deals: every deal of holdings \
             that share no card weighs the same. `ties_*` count the showdowns a seat splits \
             (two or three ways), `combos` the deals.",
        ]));
        let possible = results.iter().filter(|r| r.deals > 0).count();
        md.push_str(&format!(
            "\n## Coverage\n\n{} classes{}: {} triples with repeats, {} of which the cards \
             allow (the other {} need a rank five or six times, as AA AA AKs).\n",
            classes.len(),
            if classes.len() < CLASSES {
                format!(
                    " ({})",
                    classes
                        .iter()
                        .map(|&c| name(c))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            } else {
                String::new()
            },
            results.len(),
            possible,
            results.len() - possible
        ));
        let row = |r: &TripleResult, order: [usize; 3]| -> Vec<String> {
            let mut cells: Vec<String> = order.iter().map(|&s| name(r.classes[s])).collect();
            cells.extend(order.iter().map(|&s| format!("{:.6}", r.equity[s])));
            cells.push(r.deals.to_string());
            cells
        };
        let columns = ["a", "b", "c", "equity a", "equity b", "equity c", "deals"];
        let find = |names: &[&str; 3]| -> Option<(&TripleResult, [usize; 3])> {
            let asked: Vec<u8> = names
                .iter()
                .map(|n| parse_class(n).map(|c| c as u8))
                .collect::<Option<_>>()?;
            let mut sorted = asked.clone();
            sorted.sort_unstable();
            let r = results.iter().find(|r| r.classes[..] == sorted[..])?;
            // Seats in the order named: each name takes the first unused seat of its class.
            let mut used = [false; 3];
            let mut order = [0usize; 3];
            for (slot, c) in order.iter_mut().zip(&asked) {
                let s = (0..3).find(|&s| !used[s] && r.classes[s] == *c)?;
                used[s] = true;
                *slot = s;
            }
            Some((r, order))
        };
        let named: Vec<(&TripleResult, [usize; 3])> = NAMED_TRIPLES
            .iter()
            .filter_map(find)
            .filter(|(r, _)| r.deals > 0)
            .collect();
        if !named.is_empty() {
            md.push_str("\n## Selected triples\n\n");
            let rows: Vec<Vec<String>> = named.iter().map(|(r, o)| row(r, *o)).collect();
            md.push_str(&markdown_table(&columns, &rows));
        }
        if results.len() <= LIST_ALL_TRIPLES {
            md.push_str("\n## Every triple\n\n");
            let rows: Vec<Vec<String>> = results
                .iter()
                .filter(|r| r.deals > 0)
                .map(|r| row(r, [0, 1, 2]))
                .collect();
            md.push_str(&markdown_table(&columns, &rows));
        }
        // Identities every run must satisfy: the run fails otherwise.
        let worst_sum = results
            .iter()
            .filter(|r| r.deals > 0)
            .map(|r| (r.equity.iter().sum::<f64>() - 1.0).abs())
            .fold(0.0, f64::max);
        anyhow::ensure!(
            worst_sum < 1e-12,
            "internal error: a triple's equities sum to 1 ± {worst_sum:e}"
        );
        let repeated: Vec<&TripleResult> = results
            .iter()
            .filter(|r| {
                r.deals > 0 && (r.classes[0] == r.classes[1] || r.classes[1] == r.classes[2])
            })
            .collect();
        for r in &repeated {
            for (x, y) in [(0, 1), (1, 2)] {
                anyhow::ensure!(
                    r.classes[x] != r.classes[y]
                        || (r.equity[x] == r.equity[y]
                            && r.wins[x] == r.wins[y]
                            && r.ties[x] == r.ties[y]),
                    "internal error: two seats of class {} differ in {:?}",
                    name(r.classes[x]),
                    r.classes
                );
            }
        }
        let mismatched = results
            .iter()
            .filter(|r| (r.deals > 0) != cards_allow(r.classes))
            .count();
        anyhow::ensure!(
            mismatched == 0,
            "internal error: {mismatched} triples possible or impossible against the rank rule"
        );
        md.push_str(&format!(
            "\n## Checks on this run\n\nThe run fails unless all hold.\n\n\
             - Every possible triple's three equities sum to 1 (largest gap {worst_sum:.1e}).\n\
             - In the {} possible triples that repeat a class, the seats of that class have \
             equal equities, wins and ties.\n\
             - A triple has no deal exactly when it needs some rank more than four times \
             ({} such triples).\n",
            repeated.len(),
            results.len() - possible
        ));
        let headline = named
            .iter()
            .take(2)
            .map(|(r, o)| {
                format!(
                    "{} / {} / {}: equity {:.4} / {:.4} / {:.4} (exact)",
                    name(r.classes[o[0]]),
                    name(r.classes[o[1]]),
                    name(r.classes[o[2]]),
                    r.equity[o[0]],
                    r.equity[o[1]],
                    r.equity[o[2]]
                )
            })
            .chain(std::iter::once(format!(
                "{} triples of {} classes, {possible} possible",
                results.len(),
                classes.len()
            )))
            .collect();
        Ok(Report {
            markdown: md,
            charts: vec![],
            headline,
        })
    }
}

/// Classes listed row by row in a three-handed report with fewer than all 169 (beyond,
/// the report draws 13 × 13 grids).
const PUSHFOLD3_LIST: usize = 40;

impl PushFold3Job {
    pub(super) fn report(
        &self,
        meta: &JobMeta,
        showdowns: &pushfold3::Showdowns,
        spots: &[SolvedSpot],
    ) -> anyhow::Result<Report> {
        use pushfold3::{Decision, SolveOptions};
        let classes = &self.settings.classes;
        let unequal = !self.settings.spots.is_empty();
        // The equal-stack spots, by their stack: the charts and checks are about them.
        let all_spots = spots;
        let spots: Vec<(f64, &SolvedSpot)> = all_spots
            .iter()
            .filter_map(|s| Some((s.spot.equal_stack()?, s)))
            .collect();
        let grid = &self.settings.grid;
        let label = |s: f64| grid.label(s);
        let ante = self.rules.ante;
        let mut md = header("Texas Hold'em three-handed push/fold", meta);
        md.push_str(&format!(
            ". The button (BTN), small blind (SB, 0.5) and big blind (BB, 1) start with equal \
             stacks from {} to {} bb{}{}; every bet is all-in. Hands are dealt from {}.\n",
            label(grid.stack(0)),
            label(grid.stack(grid.count - 1)),
            if unequal {
                format!(
                    ", and at {} spots of unequal stacks",
                    self.settings.spots.len()
                )
            } else {
                String::new()
            },
            if ante > 0.0 {
                format!(", each posting an ante of {ante} bb")
            } else {
                String::new()
            },
            if classes.len() == CLASSES {
                "the whole deck".to_string()
            } else {
                format!(
                    "the combos of {} classes only ({}), a restricted game for quick runs",
                    classes.len(),
                    classes
                        .iter()
                        .map(|&c| class_name(usize::from(c)))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
        ));
        if let Some(path) = &self.settings.threeway {
            md.push_str(&format!(
                "\nThe three-way counts were read from `{}`, a finished `holdem.threeway` table \
                 (each triple's counts checked against its bounds, its deals against a direct \
                 count, and its winner sets recovered exactly); the heads-up counts were \
                 computed.\n",
                path.display()
            ));
        }
        let game_text = if unequal {
            "The game: the BTN pushes or folds; after a fold the SB pushes or folds and the BB \
             calls or folds; after a push the SB calls or folds, then the BB calls or folds \
             facing one push or a push and a call. Every push and call is all-in: a player \
             puts in its stack, or the largest stack it faces if that is smaller (the rest is \
             not called). Where stacks differ, the main pot goes to the best hand of all and \
             a side pot to the better of the players who put more in, which the three-way \
             counts decide exactly by the order of the three hands."
        } else {
            "The game: the BTN pushes or folds; after a fold the SB pushes or folds and the BB \
             calls or folds; after a push the SB calls or folds, then the BB calls or folds \
             facing one push or a push and a call. Stacks are equal, so every all-in player \
             commits the same and there is no side pot."
        };
        let icm_text = if unequal {
            "Payoffs: chip EV is net chips in big blinds. ICM is each player's share of the \
             prize pool by Malmuth-Harville after the hand; players busted in the same hand \
             finish in the order of their starting stacks (equal stacks share the places)."
        } else {
            "Payoffs: chip EV is net chips in big blinds. ICM is each player's share of the \
             prize pool by Malmuth-Harville after the hand; players busted in the same hand \
             started equal and share the places left."
        };
        md.push_str(&holdem_conventions(&[
            game_text,
            "Cards: a deal is three disjoint hands, all equally likely, so a fold carries its \
             card removal into what the next seat faces. Three-way showdowns are exact over \
             every deal of the three classes and every board. A two-way showdown after a fold \
             uses the two classes' exact heads-up result over every board of the 48 cards \
             left: the folded hand's cards are not taken out of the board's deck (our choice).",
            icm_text,
            "Strategies are one frequency per class and decision (every combo of a class \
             plays alike). Ranges are the share of the hands dealt to the seat that push or \
             call. A chart cell is the largest stack of the grid at which the class plays at \
             least half the time (our convention; the tables give every frequency).",
            "Certificate: the exploitability is the sum over the three seats of what a best \
             response to the other two gains, computed from the payoffs; 0 is a Nash \
             equilibrium. Three-player games can have several; this is one of them. In ICM it \
             is in shares of the prize pool, and also shown in big blinds (divided by the \
             prize a big blind is worth on average, the pool over the chips in play).",
        ]));
        let models: Vec<&str> = if self.settings.payouts.is_some() {
            vec!["chip_ev", "icm"]
        } else {
            vec!["chip_ev"]
        };
        let by_model = |m: &str| -> Vec<(f64, &SolvedSpot)> {
            spots
                .iter()
                .filter(|s| batches::payoff_name(s.1) == m)
                .copied()
                .collect()
        };
        let pct = |x: f64| format!("{:.1}", 100.0 * x);
        md.push_str("\n## Ranges and certificates\n\n");
        if let Some(p) = &self.settings.payouts {
            md.push_str(&format!(
                "ICM payouts: {p:?} of the prize pool by place.\n\n"
            ));
        }
        let mut columns = vec!["stack (bb)", "payoff"];
        columns.extend(Decision::ALL.iter().map(|d| d.name()));
        columns.extend(["exploitability", "in bb"]);
        let row = |stack: String, s: &SolvedSpot| {
            let mut row = vec![stack, batches::payoff_name(s).to_string()];
            row.extend(Decision::ALL.iter().map(|&d| pct(s.solution.range(d))));
            row.push(exploitability_text(s.solution.exploitability));
            row.push(exploitability_text(
                s.solution.exploitability / s.spot.bb_value(),
            ));
            row
        };
        let rows: Vec<Vec<String>> = spots.iter().map(|&(x, s)| row(label(x), s)).collect();
        md.push_str("Each decision's range in % of the hands dealt to the seat.\n\n");
        md.push_str(&markdown_table(&columns, &rows));
        if unequal {
            md.push_str(
                "\n### Unequal stacks\n\nEach seat's stack before posting, BTN / SB / BB \
                 (bb); ranges in % as above.\n\n",
            );
            columns[0] = "stacks (bb)";
            let rows: Vec<Vec<String>> = all_spots
                .iter()
                .filter(|s| s.spot.equal_stack().is_none())
                .map(|s| {
                    let stacks = s.spot.stacks.map(label).join(" / ");
                    row(stacks, s)
                })
                .collect();
            md.push_str(&markdown_table(&columns, &rows));
        }
        // Charts: per model and decision, the largest stack at which each class plays.
        let threshold = |model: &[(f64, &SolvedSpot)], d: Decision, k: usize| -> String {
            model
                .iter()
                .filter(|s| s.1.solution.strategy[d as usize][k] >= 0.5)
                .map(|s| s.0)
                .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x))))
                .map_or_else(|| "–".to_string(), label)
        };
        for &m in &models {
            let model = by_model(m);
            md.push_str(&format!(
                "\n## Charts, {}\n\nThe largest stack (bb) of the grid at which the class \
                 pushes or calls at least half the time; – never.\n",
                if m == "icm" { "ICM" } else { "chip EV" }
            ));
            for d in Decision::ALL {
                md.push_str(&format!("\n### {}\n\n", d.describe()));
                if classes.len() == CLASSES {
                    let ranks: Vec<u8> = (0..13u8).rev().collect();
                    md.push_str(&rank_grid(&ranks, |hi, lo, suited| {
                        threshold(&model, d, grid_class(hi, lo, suited))
                    }));
                } else if classes.len() <= PUSHFOLD3_LIST {
                    let rows: Vec<Vec<String>> = classes
                        .iter()
                        .enumerate()
                        .map(|(k, &c)| vec![class_name(usize::from(c)), threshold(&model, d, k)])
                        .collect();
                    md.push_str(&markdown_table(&["class", "up to (bb)"], &rows));
                }
            }
        }
        if models.len() == 2 {
            md.push_str(
                "\n## Chip EV against ICM\n\nRanges in % at each stack, chip EV / ICM: what \
                 the payout structure changes.\n\n",
            );
            let (chip, icm) = (by_model("chip_ev"), by_model("icm"));
            let mut columns = vec!["stack (bb)"];
            columns.extend(Decision::ALL.iter().map(|d| d.name()));
            let rows: Vec<Vec<String>> = chip
                .iter()
                .zip(&icm)
                .map(|((x, c), (_, i))| {
                    let mut row = vec![label(*x)];
                    row.extend(Decision::ALL.iter().map(|&d| {
                        format!(
                            "{} / {}",
                            pct(c.solution.range(d)),
                            pct(i.solution.range(d))
                        )
                    }));
                    row
                })
                .collect();
            md.push_str(&markdown_table(&columns, &rows));
        }
        // The consistency check: with the button forced to fold, the blinds play heads-up.
        let stacks = by_model("chip_ev");
        let mut fixed: [Option<Vec<f64>>; pushfold3::DECISIONS] = Default::default();
        fixed[Decision::BtnPush as usize] = Some(vec![0.0; classes.len()]);
        let mut worst = 0.0f64;
        let check = if classes.len() == CLASSES {
            // All 169 classes: the heads-up game of holdem.pushfold from the same pair
            // counts, solved by LP, certified in this game (one evaluation a stack, where
            // solving the forced game again would cost as much as the run).
            let hu = super::pushfold::PushFoldGame::from_pairs(showdowns);
            for (stack, s) in &stacks {
                let e = hu
                    .solve(&super::pushfold::Stakes {
                        stack: *stack,
                        ante,
                    })
                    .map_err(|e| anyhow::anyhow!("the heads-up check at {stack} bb: {e}"))?;
                let mut strategy: pushfold3::Strategy =
                    std::array::from_fn(|_| vec![0.0; classes.len()]);
                strategy[Decision::SbPush as usize] = e.push;
                strategy[Decision::BbCallSb as usize] = e.call;
                let game = pushfold3::Game::new(showdowns, s.spot.clone())?;
                worst = worst.max(game.certify(strategy, &fixed, 0, 0).exploitability);
            }
            format!(
                "- With the BTN forced to fold, `holdem.pushfold`'s heads-up equilibrium \
                 (the same pairs, solved by linear programming) is an equilibrium of what is \
                 left: largest exploitability {} over {} stacks. The folded button's class \
                 removes its cards from the deal only, so the two games are the same.\n",
                exploitability_text(worst),
                stacks.len()
            )
        } else {
            // A restricted deal has no LP equilibrium to certify: the forced game is solved,
            // to the job's target like every spot, so the check costs at most a spot (a
            // tighter target is not always reached, and the solver then runs to its
            // iteration cap: the 8-class quick deck stops at 2.2e-6 for 1e-12).
            let target = self.settings.target_exploitability;
            for (_, s) in &stacks {
                let game = pushfold3::Game::new(showdowns, s.spot.clone())?;
                let mut opts = SolveOptions::new(target * s.spot.bb_value());
                opts.fixed = fixed.clone();
                worst = worst.max(game.solve(&opts).exploitability / s.spot.bb_value());
            }
            format!(
                "- With the BTN forced to fold, the solver finds an equilibrium of what is \
                 left (SB push, BB call) within the target {target:e} bb: largest \
                 exploitability {} bb over {} stacks.\n\
                 - The comparison with `holdem.pushfold`'s heads-up equilibrium needs all 169 \
                 classes (a restricted deal is a different heads-up game) and is made when the \
                 job covers them.\n",
                exploitability_text(worst),
                stacks.len()
            )
        };
        md.push_str(&format!(
            "\n## Checks on this run\n\nThe run fails unless the first holds.\n\n\
             - Every spot's exploitability is at most the target {:e} bb (ICM: that many \
             big blinds' worth of prize).\n{check}",
            self.settings.target_exploitability,
        ));
        let headline = models
            .iter()
            .filter_map(|&m| {
                let (stack, at) = by_model(m)
                    .into_iter()
                    .min_by(|a, b| (a.0 - 10.0).abs().total_cmp(&(b.0 - 10.0).abs()))?;
                Some(format!(
                    "{} at {} bb: BTN pushes {}%, exploitability {}",
                    if m == "icm" { "ICM" } else { "chip EV" },
                    label(stack),
                    pct(at.solution.range(Decision::BtnPush)),
                    exploitability_text(at.solution.exploitability)
                ))
            })
            .collect();
        Ok(Report {
            markdown: md,
            charts: vec![],
            headline,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The published charts read as laid out: 166 numbered push cells (the three hands
    /// with gaps are footnotes), the 95 call cells we have, suited above the diagonal.
    #[test]
    fn the_published_charts_read_cell_by_cell() {
        let push = hrc_published(&HRC_PUSH);
        let call = hrc_published(&HRC_CALL);
        assert_eq!((push.len(), call.len()), (166, 95));
        let at = |cells: &[(usize, f64)], name: &str| {
            let c = parse_class(name).expect("class");
            cells.iter().find(|x| x.0 == c).map(|x| x.1)
        };
        for (name, value) in [
            ("T3s", 7.7),
            ("K8o", 18.0),
            ("Q4o", 7.9),
            ("32o", 1.4),
            ("AKo", HRC_TOP),
            ("22", HRC_TOP),
            ("K3s", 19.9),
        ] {
            assert_eq!(at(&push, name), Some(value), "push {name}");
        }
        for name in ["63s", "53s", "43s"] {
            assert_eq!(at(&push, name), None, "push {name}");
        }
        for (name, value) in [("K7o", 12.4), ("J2s", 5.6), ("K8s", 17.6), ("J7o", 6.4)] {
            assert_eq!(at(&call, name), Some(value), "call {name}");
        }
        // Every class at most once in each chart.
        for cells in [&push, &call] {
            let mut classes: Vec<usize> = cells.iter().map(|x| x.0).collect();
            classes.sort_unstable();
            classes.dedup();
            assert_eq!(classes.len(), cells.len());
        }
    }
}
