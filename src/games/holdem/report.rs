//! The reports of the Hold'em jobs: the preflop equity chart and ranking, the heads-up
//! matrix with well-known matchups, and the multiway equities by opponent count.

use cardtables::Card;

use super::classes::{class_name, class_of, parse_class, CLASSES};
use super::job::{HeadsUpJob, MultiwayJob, PreflopJob};
use super::matchup::{ClassMatrix, MatchupResult, BOARDS};
use super::sampler::MAX_OPPONENTS;
use super::sweep::DEALS_PER_COMBO;
use super::tables::Rows;
use crate::cards::matchups::{two_cards, Matchup};
use crate::engine::JobMeta;
use crate::report::{header, markdown_table, rank_grid, rank_grid_svg, Report};

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
             P(tie)/2.\n\n",
            DEALS_PER_COMBO,
            self.boards.len()
        ));
        md.push_str("## Equity against one random hand\n\nPairs on the diagonal, suited above, offsuit below.\n\n");
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
        let chart = rank_grid_svg("Equity against one random hand", cell, 0.3, 0.85, |v| {
            format!("{v:.3}")
        });
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
    ) -> Report {
        let mut md = header("Texas Hold'em heads-up", meta);
        let total: u64 = self.matchups.iter().map(|m| u64::from(m.weight)).sum();
        md.push_str(&format!(
            ". Exact: every pair of \
             starting hands over all {BOARDS} boards. The {} raw matchups (unordered pairs of \
             disjoint hands) fall into {} classes equal up to suit permutation and order; each \
             class is solved once by scoring the boards by rank multiset (6,175 of them) and \
             then correcting only the boards where a flush is possible. Every class's row of the \
             matrix, summed over opponents, equals its result against a random hand from the \
             independent board sweep of `holdem.preflop` (checked on every run).\n\n",
            total,
            self.matchups.len()
        ));
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
        Report {
            markdown: md,
            charts,
            headline,
        }
    }
}

impl MultiwayJob {
    pub(super) fn report(&self, meta: &JobMeta, rows: &Rows, worst: f64, deals: u64) -> Report {
        let mut md = header("Texas Hold'em multiway", meta);
        md.push_str(&format!(
            ". Against one opponent \
             and two opponents the results are exact (every opponent hand, or every pair of \
             them, on every board); against 3 to 9 random opponents each class is sampled with its own seeded PCG-64 \
             stream. A deal seats up to nine opponents and its first n of them are one trial \
             against n, so every deal counts in each column (dealing stops once an opponent \
             beats the hero, who then loses every larger table too); sampling goes on until \
             every column's standard error is at most {:.0e} (largest: {worst:.2e}; {deals} \
             deals in all). Equity counts a split pot as the hero's share of it.\n\n",
            self.target
        ));
        let equity = |class: usize, n: usize| rows.equity[(n - 1) * CLASSES + class];
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
                row.extend((1..=MAX_OPPONENTS).map(|n| format!("{:.4}", equity(c, n))));
                row
            })
            .collect();
        md.push_str("## Equity by number of opponents\n\n");
        md.push_str(&markdown_table(&header, &table));
        md.push_str("\nEvery class and opponent count is in `multiway.parquet`.\n");
        let aa = super::classes::parse_class("AA").map(|c| {
            (1..=MAX_OPPONENTS)
                .map(|n| format!("{:.3}", equity(c, n)))
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
        Report {
            markdown: md,
            charts: vec![],
            headline,
        }
    }
}
