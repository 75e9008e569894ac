//! `pipeline query blackjack`: every action's exact EV for a hand against an upcard, and
//! the best one.

use std::path::PathBuf;

use cardtables::blackjack::{parse_hand, parse_rank, total, Action, BlackjackQueryError};
use cardtables::card::RANK_CHARS;

use super::open_table;
use crate::cli::BlackjackQuestion;
use crate::commands::UsageError;

pub fn query(q: &BlackjackQuestion) -> anyhow::Result<()> {
    let usage = |e: BlackjackQueryError| UsageError::error(e.to_string());
    let path = q.table.clone().unwrap_or_else(|| {
        let grid = PathBuf::from("tables/blackjack/blackjack.bin");
        if grid.exists() {
            grid
        } else {
            PathBuf::from("tables/blackjack_6d_s17/blackjack.bin")
        }
    });
    let table = open_table(&path, "blackjack_6d_s17.toml", "--table", |p| {
        cardtables::Blackjack::open(p)
    })?;
    if q.rules.as_deref() == Some("list") {
        for set in table.rule_sets() {
            println!("{:<28} house edge {:.4} %", set.id, 100.0 * set.house_edge);
        }
        return Ok(());
    }
    let set = match &q.rules {
        Some(id) => table.rule_set(id).map_err(usage)?,
        None => 0,
    };
    let cards = parse_hand(&q.hand).map_err(usage)?;
    let up = parse_rank(&q.upcard).map_err(usage)?;
    let (t, soft) = total(&cards).map_err(usage)?;
    let id = &table.rule_sets()[set].id;
    let name = |r: u8| RANK_CHARS[usize::from(r)].to_string();
    let names: Vec<String> = cards.iter().map(|&r| name(r)).collect();
    let kind = if soft { "soft" } else { "hard" };
    let advice = table.best_action(set, &cards, up).map_err(usage)?;
    match table.evs(set, &cards, up) {
        Ok(evs) => {
            println!(
                "{} ({kind} {t}) against {} under {id}:",
                names.join(" "),
                name(up)
            );
            if cards.len() == 2 && t == 21 {
                println!("  a natural: paid at once (the stand line is its payout)");
            }
            for a in Action::ALL {
                let v = evs[a as usize];
                if !v.is_nan() {
                    println!("  {:<10} {v:+.4}", a.name());
                }
            }
            if table.rule_sets()[set].conditioned_on_no_blackjack {
                println!("  (EVs per unit bet, given that the dealer has checked for blackjack and has none)");
            }
            println!(
                "best: {} ({:+.4})",
                advice.action.name(),
                advice.ev.unwrap_or(f64::NAN)
            );
        }
        Err(BlackjackQueryError::NotTwoCards(_)) => {
            println!(
                "{} ({kind} {t}) against {} under {id}:",
                names.join(" "),
                name(up)
            );
            println!(
                "best: {} (the basic strategy chart's action for {kind} {t}; exact EVs are tabled for two-card hands)",
                advice.action.name(),
            );
        }
        Err(e) => return Err(usage(e)),
    }
    Ok(())
}
