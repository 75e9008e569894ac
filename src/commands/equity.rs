//! `pipeline equity`: ranges against ranges, 2 to 6 players, with or without a board.
//!
//! Two ranges with no board and no dead cards are answered exactly from the heads-up
//! table when it is there (`HoldemHeadsUp::range_equity`, |R1| · |R2| lookups); every
//! other question is enumerated exactly where it fits the budget, else sampled
//! (`games::holdem::equity`).

use std::path::PathBuf;

use cardtables::{parse_cards, Range};
use serde_json::json;

use crate::cli::EquityArgs;
use crate::commands::UsageError;
use crate::games::holdem::equity::{
    equity as compute, Answer, Question, EXACT_BUDGET, MAX_DRAWS, MAX_PLAYERS,
};

/// Most Monte Carlo trials a question plays, whatever its standard error.
const MAX_TRIALS: u64 = 1_000_000_000;

/// The widest the range column is printed; longer range texts are cut there.
const RANGE_COLUMN: usize = 40;

pub fn equity(args: &EquityArgs) -> anyhow::Result<()> {
    let usage = |m: String| UsageError::error(m);
    let players = args.ranges.len();
    if !(2..=MAX_PLAYERS).contains(&players) {
        return Err(usage(format!(
            "{players} range(s) given: give 2 to {MAX_PLAYERS}, one per player (a single hand is a range: AhKh)"
        )));
    }
    let ranges: Vec<Range> = args
        .ranges
        .iter()
        .enumerate()
        .map(|(i, text)| {
            Range::parse_ranked(text, args.ranking)
                .map_err(|e| usage(format!("RANGE {}: {e}", i + 1)))
        })
        .collect::<anyhow::Result<_>>()?;
    let board = parse_cards(&args.board).map_err(|e| usage(format!("--board: {e}")))?;
    let dead = parse_cards(&args.dead).map_err(|e| usage(format!("--dead: {e}")))?;
    let table_answers = ranges.len() == 2 && board.is_empty() && dead.is_empty();
    if let (Some(path), false) = (&args.table, table_answers) {
        eprintln!(
            "warning: --table {} is not used: the heads-up table answers two ranges with no board and no dead cards only",
            path.display()
        );
    }
    let table = match &args.table {
        Some(path) => Some(path.clone()),
        None => {
            Some(PathBuf::from("tables/holdem_headsup/holdem_headsup.bin")).filter(|p| p.exists())
        }
    };
    let answer = match table {
        Some(path) if table_answers => {
            let t = super::query::open_headsup(&path, args.table.is_some())?;
            let r = t
                .range_equity(&ranges[0], &ranges[1])
                .map_err(|e| usage(e.to_string()))?;
            Answer {
                equity: vec![r.equity, 1.0 - r.equity],
                win: vec![r.win, 1.0 - r.win - r.tie],
                tie: vec![r.tie, r.tie],
                exact: true,
                std_error: 0.0,
                showdowns: r.matchups * u64::from(t.boards()),
                draws: 0,
                stopped_at_draw_limit: false,
                outcomes: vec![],
            }
        }
        _ => {
            let pool = crate::engine::thread_pool(Some(args.threads), 0)?;
            let question = Question {
                ranges,
                board: board.clone(),
                dead,
                std_error: args.std_error,
                max_trials: MAX_TRIALS,
                max_draws: MAX_DRAWS,
                seed: args.seed,
                exact_budget: EXACT_BUDGET,
            };
            pool.install(|| compute(&question))
                .map_err(|e| usage(e.to_string()))?
        }
    };
    if args.json {
        let count = if answer.exact { "showdowns" } else { "trials" };
        let mut out = json!({
            "ranges": args.ranges,
            "board": crate::cards::text(&board),
            "equity": answer.equity,
            "win": answer.win,
            "tie": answer.tie,
            "exact": answer.exact,
            "std_error": answer.std_error,
        });
        out[count] = answer.showdowns.into();
        if !answer.exact {
            out["draws"] = answer.draws.into();
            out["target_reached"] = (!answer.stopped_at_draw_limit).into();
        }
        println!("{out}");
        return Ok(());
    }
    for line in table_lines(&args.ranges, &answer) {
        println!("{line}");
    }
    if !board.is_empty() {
        println!("board: {}", crate::cards::text(&board));
    }
    if answer.exact {
        println!(
            "exact: every holding combination and runout ({} showdowns)",
            answer.showdowns
        );
    } else {
        println!(
            "Monte Carlo: {} trials (seed {}), standard error at most {:.1e} per equity",
            answer.showdowns, args.seed, answer.std_error
        );
        if answer.stopped_at_draw_limit {
            println!(
                "note: stopped at {} deals drawn, the most a question draws, before the target standard error {:.1e}: under these weights only {} of them gave every player a holding without a shared card",
                answer.draws, args.std_error, answer.showdowns
            );
        }
    }
    Ok(())
}

/// The printed table, a line per player: the range column fits the longest text up to
/// [`RANGE_COLUMN`] characters, and a longer text is cut there and ends in '…'.
fn table_lines(ranges: &[String], answer: &Answer) -> Vec<String> {
    let shown: Vec<String> = ranges
        .iter()
        .map(|r| {
            if r.chars().count() <= RANGE_COLUMN {
                r.clone()
            } else {
                let head: String = r.chars().take(RANGE_COLUMN - 1).collect();
                format!("{head}…")
            }
        })
        .collect();
    let width = shown
        .iter()
        .map(|r| r.chars().count())
        .max()
        .unwrap_or(0)
        .max(5);
    let mut lines = vec![format!(
        "player  {:<width$}  equity   win      tie",
        "range"
    )];
    for (i, text) in shown.iter().enumerate() {
        lines.push(format!(
            "{:<6}  {text:<width$}  {:.4}   {:.4}   {:.4}",
            i + 1,
            answer.equity[i],
            answer.win[i],
            answer.tie[i]
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_megabyte_range_text_prints_in_a_bounded_column() {
        let huge = "AKs, ".repeat(200_000);
        let answer = Answer {
            equity: vec![0.5, 0.5],
            win: vec![0.4, 0.4],
            tie: vec![0.1, 0.1],
            exact: true,
            std_error: 0.0,
            showdowns: 1,
            draws: 1,
            stopped_at_draw_limit: false,
            outcomes: vec![],
        };
        let lines = table_lines(&[huge, "QQ".into()], &answer);
        assert_eq!(lines.len(), 3);
        assert!(lines.iter().all(|l| l.chars().count() < 80), "{lines:?}");
        assert!(lines[1].contains("AKs, AKs") && lines[1].contains('…'));
        assert!(lines[2].starts_with("2       QQ "));
    }
}
