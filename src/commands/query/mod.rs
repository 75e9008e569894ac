//! `pipeline query <game>`: questions answered from a runtime table, one file per game,
//! with the printing they share (the action list, the exact / Monte Carlo note).

mod blackjack;
mod holdem;
mod niuniu;
mod pushfold;
mod stud;
mod zhajinhua;

use crate::cli::QueryGame;

/// Answers one `pipeline query` question.
pub fn query(game: QueryGame) -> anyhow::Result<()> {
    match game {
        QueryGame::Blackjack(q) => blackjack::query(&q),
        QueryGame::Niuniu(q) => niuniu::query(&q),
        QueryGame::Holdem(q) => holdem::query(&q),
        QueryGame::Pushfold(q) => pushfold::query(&q),
        QueryGame::Stud(q) => stud::query(&q),
        QueryGame::Zhajinhua(q) => zhajinhua::query(&q),
    }
}

/// How a table figure was computed, for the end of a printed line: exact, or Monte Carlo
/// with its standard error.
fn method_note(std_error: f64) -> String {
    if std_error > 0.0 {
        format!(" (Monte Carlo, s.e. {std_error:.1e})")
    } else {
        " (exact)".to_string()
    }
}

/// Prints each action's EV in chips, aligned, then the best one. `actions` is never
/// empty: folding is always an action.
fn print_actions(actions: &[(String, f64)]) {
    let width = actions.iter().map(|(name, _)| name.chars().count()).max();
    let width = width.unwrap_or(0).max(28);
    println!("EV of each action (chips):");
    for (name, ev) in actions {
        println!("  {name:<width$} {ev:+.3}");
    }
    if let Some((name, ev)) = actions.iter().max_by(|a, b| a.1.total_cmp(&b.1)) {
        println!("best: {name} ({ev:+.3})");
    }
}

/// The raise-to amounts a question prices: those given, else 2× and 3× the call and
/// call + pot; each must be at least the call, and each is priced once (a size given or
/// reached twice, like 3× the call equal to call + pot, is listed once).
fn raises(bet: &crate::cli::Bet) -> anyhow::Result<Vec<f64>> {
    let mut raises = if bet.raises.is_empty() {
        vec![
            2.0 * bet.call.max(1.0),
            3.0 * bet.call.max(1.0),
            bet.call + bet.pot,
        ]
    } else {
        bet.raises.clone()
    };
    if let Some(r) = raises.iter().find(|r| **r < bet.call) {
        return Err(crate::commands::UsageError::error(format!(
            "--raise {r} must be at least the call ({})",
            bet.call
        )));
    }
    let mut seen: Vec<f64> = Vec::with_capacity(raises.len());
    raises.retain(|r| {
        let new = !seen.contains(r);
        seen.push(*r);
        new
    });
    Ok(raises)
}

/// The fold, call and raise actions every priced question lists, for a hand with equity
/// `w` (a call's EV given by `call_ev`, which stud extends with implied odds).
fn bet_actions(bet: &crate::cli::Bet, w: f64, call_ev: f64) -> anyhow::Result<Vec<(String, f64)>> {
    use cardtables::decision::{ev_raise, EV_FOLD};
    let mut actions = vec![
        ("fold".to_string(), EV_FOLD),
        (format!("call {}", bet.call), call_ev),
    ];
    for r in raises(bet)? {
        actions.push((
            format!("raise to {r} (fold {:.0}%)", 100.0 * bet.fold),
            ev_raise(w, bet.pot, bet.call, r, bet.fold),
        ));
    }
    Ok(actions)
}

/// Opens a runtime table, saying which job writes it when it cannot be loaded.
fn open_table<T>(
    path: &std::path::Path,
    job: &str,
    flag: &str,
    open: impl FnOnce(&std::path::Path) -> Result<T, cardtables::TableError>,
) -> anyhow::Result<T> {
    use anyhow::Context;
    if let Some(dir) = path.parent().filter(|d| crate::engine::switch::pending(d)) {
        anyhow::bail!(
            "{} is not a complete output set: a run died while switching its outputs into place ({} is left); the next `pipeline run jobs/{job}` or `pipeline merge` finishes the switch",
            dir.display(),
            dir.join(crate::engine::switch::JOURNAL).display()
        );
    }
    open(path).with_context(|| {
        format!(
            "cannot load {} (run `pipeline run jobs/{job}` first, or pass {flag})",
            path.display()
        )
    })
}
